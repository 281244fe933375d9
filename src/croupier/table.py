"""Deal after deal at one table: seats, the button and the blinds, buy-ins, table stakes and fees.

Seats are numbered 1..N clockwise, seat 1 on the dealer's immediate left, so the highest seat is
on the dealer's immediate right. Each hand is dealt to the seated players who may play, in deal
order: player 0 is the first of them clockwise after the button, the last is the button (unless
the button is dead: an empty seat, or a player not dealt in).

The hand itself is :class:`croupier.hand.Hand`; the table chooses who is dealt in, in what
order, with what forced bets (:mod:`croupier.blinds`), shuffles a fresh deck for each hand
(au 6.1, qld s17(1)), and keeps the chips between hands. A hand is finished (stacks written back,
busted players handled) by :meth:`Table.finish_hand`, or by the next command once its phase is
``OVER``; queries never change anything.

Every change is a table event (:mod:`croupier.table_events`), recorded in :attr:`Table.events`
and applied as it is recorded: :meth:`Table.restore` rebuilds a table from them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from croupier import events as ev
from croupier.blinds import (
    BlindPolicy,
    FirstButton,
    MissedBlinds,
    NewPlayer,
    Plan,
    Positions,
    SeatState,
    State,
    chain,
    plan_hand,
    propose_correction,
)
from croupier.cards import Card
from croupier.deck import Deck, Shuffler
from croupier.forced import Blind, ForcedBets
from croupier.hand import Hand, Rules
from croupier.pots import CommissionKind
from croupier.seats import DrawTie, SeatPriority, draw_cards, priority_groups
from croupier.table_events import (
    BlindsMissed,
    ButtonCorrected,
    ButtonDraw,
    ButtonPlaced,
    CameBack,
    ChipsAdded,
    ClockCalled,
    ClockExpired,
    FeePaid,
    HandFinished,
    HandStarted,
    Left,
    Redeal,
    RulesChanged,
    SeatAssigned,
    SeatChanged,
    SeatDraw,
    Seated,
    SettingsChanged,
    SettingsScheduled,
    SteppedAway,
    TableEvent,
    TimeCharged,
)
from croupier.table_state import (
    Bust,
    BuyIn,
    HandSummary,
    Player,
    SeatRecord,
    TableError,
    TableState,
)

__all__ = [
    "BlindPolicy",
    "BlindsMissed",
    "Bust",
    "ButtonCorrected",
    "ButtonDraw",
    "ButtonPlaced",
    "BuyIn",
    "CameBack",
    "ChipsAdded",
    "ClockCalled",
    "ClockExpired",
    "DrawTie",
    "FeePaid",
    "FirstButton",
    "HandFinished",
    "HandStarted",
    "HandSummary",
    "Left",
    "MissedBlinds",
    "NewPlayer",
    "Player",
    "Positions",
    "Redeal",
    "RulesChanged",
    "SeatAssigned",
    "SeatChanged",
    "SeatDraw",
    "SeatPriority",
    "Seated",
    "SettingsChanged",
    "SettingsScheduled",
    "SteppedAway",
    "Table",
    "TableError",
    "TableEvent",
    "TimeCharged",
]


class Table(TableState):
    """One table: seats, the button and blinds, buy-ins and table stakes, and hand after hand.

    What the book rules of the table comes with its rules (:attr:`Rules.table
    <croupier.rules.Rules.table>`, set by :meth:`Rulebook.rules
    <croupier.rulebooks.Rulebook.rules>`), so that no caller can forget it: ``first_button``
    (rws 3.1 the dealer's left, au 11.1(b) and qld s18(1) the right, cardroom ties 2 and league 2
    a draw), ``blind_policy`` (au, league and cardroom move the big blind, rws and qld the
    button) and ``bust``; given here, a setting overrides the book's. Without a book (rules
    written by hand, house rules): the button first on the dealer's right, the moving button,
    a bust player sitting out.

    House settings no book rules (each with its default): ``new_player``, ``missed_blinds``,
    ``seat_priority`` (au's by default; qld s16(2) has its own), ``change_notice`` (hands of
    notice a change of game or limits needs: au 7.3 asks three; the others none) and
    ``time_period`` (minutes a time charge covers)."""

    def __init__(
        self,
        rules: Rules,
        seats: int | None = None,
        *,
        buy_in: BuyIn,
        first_button: FirstButton | int | None = None,
        draw_ties: DrawTie = DrawTie.SUIT,
        bust: Bust | None = None,
        blind_policy: BlindPolicy | None = None,
        new_player: NewPlayer = NewPlayer.WAIT,
        missed_blinds: MissedBlinds = MissedBlinds.POST_DEAD,
        seat_priority: SeatPriority = SeatPriority.SEATED_FIRST,
        change_notice: int = 0,
        time_period: int = 60,
    ) -> None:
        most = rules.game.max_players.get(rules.deck)
        if most is None:
            raise TableError(
                f"{rules.game.name} is not played with a {rules.deck.size}-card deck (au 5.1)"
            )
        self.seats = most if seats is None else seats
        if not isinstance(self.seats, int) or not 2 <= self.seats <= most:
            raise TableError(
                f"{rules.game.name} with a {rules.deck.size}-card deck seats 2 to "
                f"{most} players (au 5.1), not {seats!r}"
            )
        book = rules.table
        if first_button is None:
            first_button = (book and book.first_button) or FirstButton.DEALER_RIGHT
        if bust is None:
            bust = (book and book.bust) or Bust.SIT_OUT
        if blind_policy is None:
            blind_policy = (book and book.blind_policy) or BlindPolicy.MOVING_BUTTON
        if isinstance(first_button, int):
            self._check_seat(first_button)
        if not isinstance(time_period, int) or not 1 <= time_period <= 24 * 60:
            raise TableError(f"a time-charge period is 1 to 1440 minutes, not {time_period!r}")
        if not isinstance(change_notice, int) or change_notice < 0:
            raise TableError(f"notice is a number of hands, not {change_notice!r}")
        super().__init__(rules, buy_in, new_player)
        self.first_button = first_button
        self.draw_ties = draw_ties
        self.bust = bust
        self.blind_policy = blind_policy
        self.missed_blinds = missed_blinds
        self.seat_priority = seat_priority
        self.change_notice = change_notice
        self.time_period = time_period

    def set_rules(self, rules: Rules) -> None:
        """Change the game, the limits or the stakes, between hands only (au 7.3: changes only
        at the completion of a hand; a tournament's next level)."""
        self._between_hands(
            "au 7.3: the rules change only at the completion of a hand: finish the hand first"
        )
        self._check_rules(rules)
        self._record(RulesChanged(rules))

    def schedule(
        self,
        rules: Rules | None = None,
        buy_in: BuyIn | None = None,
        *,
        notice_hands: int | None = None,
        agreed: bool = False,
    ) -> int:
        """Announce a change of game, limits, buy-in or commission; returns the number of the
        first hand it applies to. Announced before hand N with ``notice_hands`` k, it applies
        from hand N + k (announced during hand N, from N + 1 + k); with ``agreed`` (every player
        agrees) from the next hand (au 7.3). A change of commission alone needs no notice, only
        the next hand (au 8.3). Less notice than the table's ``change_notice`` is refused."""
        if rules is None and buy_in is None:
            raise TableError("schedule a change of rules, of buy-in, or both")
        if rules is not None:
            self._check_rules(rules)
        notice = self.change_notice if notice_hands is None else notice_hands
        if isinstance(notice, bool) or not isinstance(notice, int) or notice < 0:
            raise TableError(f"notice is a number of hands, not {notice_hands!r}")
        current = self.rules if not self._schedule else self._schedule[-1].rules or self.rules
        commission_only = (
            buy_in is None and rules is not None and replace(current, commission=rules.commission)
            == rules
        )  # fmt: skip
        if agreed or commission_only:
            notice = 0
        elif notice < self.change_notice:
            raise TableError(
                f"au 7.3: a change of game, buy-in or limits needs {self.change_notice} hands' "
                f"notice, or every player's agreement; {notice} given"
            )
        self._settle()
        effective = self.hands + 1 + notice
        self._record(SettingsScheduled(effective, rules, buy_in, agreed))
        return effective

    def _check_rules(self, rules: Rules) -> None:
        most = rules.game.max_players.get(rules.deck, 0)
        if len(self._players) > most or self.seats > most:
            raise TableError(
                f"{rules.game.name} with a {rules.deck.size}-card deck seats at most {most} "
                f"players (au 5.1); this table has {self.seats} seats"
            )

    def __repr__(self) -> str:
        """What table, who sits with what, the button and the hand: ``<Table holdem no-limit
        blinds 1/2, 6 seats: s1 Ada 200, s2 Bea 198; button s2; hand #3 in progress>``."""
        rules = self.rules
        structure = "/".join(dict.fromkeys(s.value for s in rules.betting.structures))
        stakes = (
            f"blinds {'/'.join(map(str, rules.blinds))}" if rules.blinds else f"ante {rules.ante}"
        )
        seated = ", ".join(
            f"s{seat} {player.name} {self._chips(seat)}"
            for seat, player in sorted(self._players.items())
        )
        button = f"button s{self.button}" if self.button is not None else "no button yet"
        hand = f"hand #{self.hands} in progress" if self.in_hand else f"{self.hands} hands dealt"
        return (
            f"<Table {rules.game.name} {structure} {stakes}, {self.seats} seats: "
            f"{seated or 'nobody seated'}; {button}; {hand}>"
        )

    # --- seats -----------------------------------------------------------------------------

    def sit(self, seat: int, name: str, chips: int, *, transfer: bool = False) -> None:
        """Seat a player with a buy-in of ``chips``. ``transfer``: moved from a broken or
        must-move game of the same limit, keeping what they had (cardroom buy-in 3). A player
        seated after the game's first hand comes in as ``new_player`` says."""
        self._between_hands(
            "players sit down between hands: a buy-in is made before the "
            "start of a hand (au 1.1 'Buy-in'; qld s19(1)-(2); rws 3.4)"
        )
        self._check_seat(seat)
        if seat in self._players:
            raise TableError(
                f"seat {seat} is taken by {self._players[seat].name}; a draw of "
                "cards decides between players wanting one seat (au 11.1(a), qld s16)"
            )
        holder = self._reserved.get(seat)
        if holder is not None and holder != name:
            raise TableError(f"seat {seat} went to {holder} (au 11.1(a), qld s16)")
        if any(p.name == name for p in self._players.values()):
            raise TableError(f"{name} already sits at this table: one seat per player")
        self.check_buy_in(name, chips, transfer=transfer)
        self._record(Seated(seat, name, chips, transfer))

    def check_buy_in(self, name: str, chips: int, *, transfer: bool = False) -> None:
        """Whether ``name`` may buy in for ``chips`` here, by the money rules alone (the full
        buy-in, the one short buy-in, the house's maximum), without seating anyone."""
        _check_chips(chips)
        rules = self.buy_in
        short = chips < rules.minimum and not transfer
        if short and (rules.short is None or chips < rules.short):
            offer = f"; a short buy-in of {rules.short} is allowed once" if rules.short else ""
            raise TableError(
                f"a buy-in of {chips} is below the minimum {rules.minimum} "
                f"(au 7.4, qld s19(3)(a), rws 3.4, cardroom buy-in 1-2){offer}"
            )
        if short and name in self._short_buy_ins:
            raise TableError(
                f"{name} has made the one short buy-in allowed in this game "
                f"(cardroom buy-in 2): the full buy-in is {rules.minimum}"
            )
        if rules.maximum is not None and chips > rules.maximum:
            raise TableError(f"a buy-in of {chips} is above the maximum {rules.maximum} (house)")

    def leave(self, seat: int) -> int:
        """Unseat a player, returning the chips they take with them. A player dealt into the
        hand in progress may not take chips off the table until it ends (au 7.5, qld s19(4))."""
        self._settle()
        player = self._occupant(seat)
        if self._dealt_in(seat):
            raise TableError(
                f"{player.name} is in the hand in progress: chips may not leave the "
                "table during a round of play (au 7.5, qld s19(4), rws 3.4)"
            )
        self._record(Left(seat, player.name, player.chips))
        return player.chips

    def add_chips(self, seat: int, chips: int) -> None:
        """Add to a player's stake: any amount, between hands or while not in the hand (au 7.5;
        cardroom buy-in 2: adding is not a buy-in; qld s31(5)-(6) allows topping up to the
        minimum table stake and, silent beyond it, takes the cardroom's any amount), never
        during a hand one is dealt into. Stakes are whole chips (qld s19(3)(b); au 7.1)."""
        self._settle()
        player = self._occupant(seat)
        _check_chips(chips)
        if self._dealt_in(seat):
            raise TableError(
                f"{player.name} is in the hand in progress: a table stake may not be "
                "augmented or reduced during a round of play (au 7.5, qld s19(4), rws 3.4); "
                "add chips between hands (cardroom buy-in 2)"
            )
        total = player.chips + chips
        if (
            self.buy_in.restake
            and player.chips < self.rules.betting.small_bet
            and total < self.buy_in.minimum
        ):
            raise TableError(
                f"{player.name} has less than the minimum wager and must bring the "
                f"stake to at least {self.buy_in.minimum}, not {total} (qld s31(3))"
            )
        if self.buy_in.maximum is not None and total > self.buy_in.maximum:
            raise TableError(
                f"{total} chips would be above the table maximum {self.buy_in.maximum} (house rule)"
            )
        self._record(ChipsAdded(seat, chips))

    def step_away(self, seat: int, *, approved: bool = False) -> None:
        """The player keeps the seat but is dealt out from the next hand on (any hand they are
        in plays on). Blinds that pass meanwhile are owed on return (``missed_blinds``).
        ``approved``: by a floor manager, so they may come back with a stake below the
        minimum (qld s19(5)-(6))."""
        self._settle()
        player = self._occupant(seat)
        if player.away:
            raise TableError(f"{player.name} is already away")
        self._record(SteppedAway(seat, approved))

    def come_back(self, seat: int) -> None:
        """Back from :meth:`step_away`: dealt in again as ``missed_blinds`` says."""
        self._settle()
        player = self._occupant(seat)
        if not player.away:
            raise TableError(f"{player.name} is not away")
        self._record(CameBack(seat))

    def change_seat(self, seat: int, to: int) -> None:
        """Move a seated player to a free seat between hands (au 11.1(a)). They come in there
        as a new player would (``new_player``), so nobody gains a free pass of the blinds."""
        self._between_hands("seats change between hands")
        player = self._occupant(seat)
        self._check_seat(to)
        if to in self._players:
            raise TableError(f"seat {to} is taken by {self._players[to].name}")
        holder = self._reserved.get(to)
        if holder is not None and holder != player.name:
            raise TableError(f"seat {to} went to {holder} (au 11.1(a), qld s16)")
        self._record(SeatChanged(seat, to))

    def seat_draw(
        self,
        seat: int,
        names: Sequence[str],
        *,
        deck: Deck | None = None,
        shuffler: Shuffler | None = None,
    ) -> str:
        """Two or more people want the same free seat: a draw of cards decides, the highest
        card winning (au 11.1(a); qld s16(1), (4); ties by ``draw_ties``). The seat is kept for
        the winner, who then sits (:meth:`sit`). ``deck``: the cards drawn, for a replay."""
        self._check_seat(seat)
        if seat in self._players:
            raise TableError(f"seat {seat} is taken by {self._players[seat].name}")
        if len(names) < 2 or len(set(names)) != len(names):
            raise TableError(f"a draw for a seat needs two or more different people, not {names}")
        drawn, winner = draw_cards(
            list(names), self.draw_ties, deck=deck, shuffler=shuffler, kind=self.rules.deck
        )
        self._record(SeatDraw(seat, tuple(drawn), winner), SeatAssigned(seat, winner, "draw"))
        return winner

    def offer_seat(
        self,
        seat: int,
        claimants: Sequence[str],
        *,
        deck: Deck | None = None,
        shuffler: Shuffler | None = None,
    ) -> str:
        """A seat vacated during the game goes to the claimants with the best priority
        (``seat_priority``: au 11.1(a), players seated first; qld s16(2), the original players,
        then the others, then newcomers), by a draw among equals (qld s16(3)-(4); for au, a
        fill from the contested-seat draw). A seated winner moves there at once; a newcomer
        has the seat kept for them. Returns the winner."""
        self._between_hands("seats change between hands")
        self._check_seat(seat)
        if seat in self._players:
            raise TableError(f"seat {seat} is taken by {self._players[seat].name}")
        if not claimants or len(set(claimants)) != len(claimants):
            raise TableError(f"claimants must be different names, got {list(claimants)}")
        seated = {p.name: s for s, p in self._players.items()}
        best, group = priority_groups(
            claimants, set(seated), self.original_players(), self.seat_priority
        )
        events: list[TableEvent] = []
        if len(best) == 1:
            winner = best[0]
        else:
            drawn, winner = draw_cards(
                best, self.draw_ties, deck=deck, shuffler=shuffler, kind=self.rules.deck
            )
            events.append(SeatDraw(seat, tuple(drawn), winner))
        events.append(SeatAssigned(seat, winner, group))
        if winner in seated:
            events.append(SeatChanged(seated[winner], seat))
        self._record(*events)
        if winner in seated:
            self._reserved.pop(seat, None)
        return winner

    def original_players(self) -> set[str]:
        """The names of the players seated in the game since it started (qld s16(2)(a))."""
        return {p.name for p in self._players.values() if p.joined == 0}

    def player_at(self, seat: int) -> Player | None:
        """Who sits in ``seat`` (``None``: empty), with the chips in front of them now (a
        finished hand's stacks even before :meth:`finish_hand` writes them back)."""
        self._check_seat(seat)
        player = self._players.get(seat)
        if player is None:
            return None
        return Player(player.name, self._chips(seat))

    def occupied(self) -> list[int]:
        """The occupied seats, in seat order."""
        return sorted(self._players)

    def can_play(self, seat: int) -> bool:
        """Whether the player in ``seat`` may be dealt in: present, with chips for the fee and a
        chip to play (under ``BuyIn.restake`` the minimum wager, qld s31(2)), and under
        ``BuyIn.rejoin_minimum`` the minimum table stake after sitting a hand out (qld
        s19(1)(b)). A newcomer may still wait for the big blind (:meth:`waiting`)."""
        return self._can_play(seat)

    def waiting(self) -> tuple[int, ...]:
        """Seats that could play but would not be dealt into the next hand as it stands:
        waiting for the big blind, or to enter past the button. Asked between hands."""
        self._between_hands("the next hand is planned between hands")
        if self.positions is None:
            return ()  # the game's first hand deals everyone in
        plan = self._plan()
        return () if plan is None else plan.waiting

    def is_away(self, seat: int) -> bool:
        """Whether the player in ``seat`` stepped away (:meth:`step_away`)."""
        return self._occupant(seat).away

    def owes(self, seat: int) -> tuple[bool, bool]:
        """Whether the player in ``seat`` owes a missed (small, big) blind."""
        player = self._occupant(seat)
        return player.owes_small, player.owes_big

    def _chips(self, seat: int) -> int:
        """The chips in front of the player in ``seat``: a finished hand's stack, not yet
        written back, counts."""
        hand = self.hand
        over = hand is not None and self._open and hand.over
        if over and hand is not None and seat in self._order:
            return hand.stacks[self._order.index(seat)]
        return self._players[seat].chips

    def _can_play(self, seat: int, *, present: bool = False) -> bool:
        """As :meth:`can_play`; ``present``: as if the player were at the table (whether
        they are bust, whoever stepped away)."""
        player = self._players.get(seat)
        if player is None or (player.away and not present):
            return False
        chips = self._chips(seat)
        floor = self.rules.betting.small_bet if self.buy_in.restake else 1
        if chips < floor + self._fee():
            return False
        sat_out = self.hands > 0 and player.dealt < self.hands and player.joined < self.hands
        if self.buy_in.rejoin_minimum and sat_out and not player.approved:
            return chips >= self.buy_in.minimum
        return True

    # --- hands -----------------------------------------------------------------------------

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (started and not over)."""
        return self._open and (self.hand is None or not self.hand.over)

    def start_hand(
        self,
        deck: Deck | None = None,
        shuffler: Shuffler | None = None,
        *,
        auto_deal: bool = True,
        auto_show: bool = True,
    ) -> Hand:
        """Deal a hand to the players who may play, from the first of them clockwise after the
        button. Every hand gets a freshly shuffled full deck (au 6.1, qld s17(1)); ``deck``
        deals a given order instead (a replay or a test: logged as ``deck="given"``). A
        participation fee is paid first (qld s20(2), s21(2)). The shuffler also makes the
        first-button draw. ``auto_deal``/``auto_show``: see :class:`~croupier.hand.Hand`."""
        self._between_hands("a hand is in progress: finish it first")
        before: list[TableEvent] = []
        for due in self._schedule:
            if due.hand <= self.hands + 1:
                before.append(SettingsChanged(self.hands + 1, due.rules, due.buy_in))
        saved = (self.rules, self.buy_in)
        for change in before:  # the hand's own settings decide who can play
            assert isinstance(change, SettingsChanged)
            self.rules, self.buy_in = change.rules or self.rules, change.buy_in or self.buy_in
        try:
            plan = self._plan(shuffler, before)
            if plan is None:
                count = sum(self._can_play(seat) for seat in self._players)
                raise TableError(
                    f"a hand needs at least 2 players with chips (au 5.1, 7.4), {count} can play"
                )
            hand, fee, stacks, forced = self._deal(plan, deck, shuffler, auto_deal, auto_show)
        finally:
            self.rules, self.buy_in = saved
        for seat, small, big in plan.missed:
            before.append(BlindsMissed(seat, small, big))
        before.extend(FeePaid(seat, fee) for seat in plan.order if fee)
        before.append(ButtonPlaced(plan.positions.button, plan.dead_button, plan.positions.blinds))
        given = "given" if deck is not None else "fresh"
        before.append(HandStarted(self.hands + 1, plan.order, stacks, forced, given))
        self._paid = 0
        self._record(*before)
        self.hand = hand
        return hand

    def redeal(
        self,
        deck: Deck | None = None,
        shuffler: Shuffler | None = None,
        *,
        auto_deal: bool = True,
        auto_show: bool = True,
    ) -> Hand:
        """Deal the last hand again after it was voided (a misdeal, a void game): the same
        seats, button and forced bets, the first card to the same player (au 19.1), a fresh
        shuffle; the round counts as not started (qld s32(3)), so no participation fee is
        charged again. The players' chips are as the voided hand left them."""
        self._between_hands("a hand is in progress: a redeal follows a hand that was voided")
        last = self.hand
        if last is None or self.positions is None:
            raise TableError("no hand has been dealt at this table: nothing to deal again")
        order = self._order
        gone = [seat for seat in order if seat not in self._players]
        if gone:
            raise TableError(f"seats {gone} have left since the hand: it cannot be dealt again")
        stacks = tuple(self._players[seat].chips for seat in order)
        if min(stacks) < 1:
            raise TableError("a player has no chips left: the hand cannot be dealt again")
        forced = replace(last.forced, carried=self.carried)
        hand = Hand(
            self.rules, stacks, deck, forced=forced, shuffler=shuffler,
            auto_deal=auto_deal, auto_show=auto_show,
        )  # fmt: skip
        positions = self.positions
        dead = positions.button not in order
        given = "given" if deck is not None else "fresh"
        self._record(
            Redeal(self.hands),
            ButtonPlaced(positions.button, dead, positions.blinds),
            HandStarted(self.hands + 1, order, stacks, forced, given),
        )
        self.hand = hand
        return hand

    def _plan(
        self, shuffler: Shuffler | None = None, events: list[TableEvent] | None = None
    ) -> Plan | None:
        """The next hand's plan; the first button's draw goes into ``events``."""
        # Chips carried from a void deal: only its players are entitled to a hand (cardroom
        # irregularities 6); the others sit this deal out as if not yet seated.
        seats = [
            self._seat_state(seat)
            for seat in sorted(self._players)
            if not self.carried or seat in self._order
        ]
        present = [s.seat for s in seats if s.state is not State.AWAY]
        if len(present) < 2:
            return None
        first = None
        if self.positions is None:
            first, draws = self._first_button(present, shuffler)
            if draws and events is not None:
                events.append(ButtonDraw(tuple(draws), first))
        return plan_hand(
            self.blind_policy, self.rules.blinds, self.rules.heads_up_button_small_blind,
            seats, self.positions, first, self._correction,
        )  # fmt: skip

    def _seat_state(self, seat: int) -> SeatState:
        player = self._players[seat]
        if not self._can_play(seat):
            state = State.AWAY
        elif player.entry is not None:
            state = player.entry
        elif player.owes_small or player.owes_big:
            state = State.POST if self.missed_blinds is MissedBlinds.POST_DEAD else State.WAIT
        else:
            state = State.PLAYING
        return SeatState(seat, state, player.owes_small, player.owes_big)

    def _deal(
        self,
        plan: Plan,
        deck: Deck | None,
        shuffler: Shuffler | None,
        auto_deal: bool,
        auto_show: bool,
    ) -> tuple[Hand, int, tuple[int, ...], ForcedBets]:
        fee = self._fee()  # a participation fee is paid before the round starts (qld s20(2))
        stacks = tuple(self._players[seat].chips - fee for seat in plan.order)
        forced = self._forced(plan)
        hand = Hand(
            self.rules, stacks, deck, forced=forced, shuffler=shuffler,
            auto_deal=auto_deal, auto_show=auto_show,
        )  # fmt: skip
        return hand, fee, stacks, forced

    def _forced(self, plan: Plan) -> ForcedBets:
        """The hand's forced bets: the positional ones as every book places them when the plan
        is the usual one, else the plan's blinds, posts and dead blinds."""
        players = len(plan.order)
        usual = self.rules.forced_bets(players)
        index = {seat: i for i, seat in enumerate(plan.order)}
        blinds = [Blind(index[seat], amount, kind) for seat, amount, kind in plan.blinds]
        if tuple(blinds) == usual.blinds and not self.carried:
            return usual
        return ForcedBets(
            antes=usual.antes, blinds=blinds, bring_in=usual.bring_in,
            dead_antes=usual.dead_antes, short_blind_sets_bet=usual.short_blind_sets_bet,
            carried=self.carried,
        )  # fmt: skip

    def finish_hand(self) -> HandSummary:
        """Write the hand's final stacks back to the seats, and treat players who cannot play
        on as ``bust`` says. Done automatically by the next table call once the hand is over."""
        if self.hand is None:
            raise TableError("no hand has been dealt at this table")
        if self._summary is not None:
            return self._summary
        if not self.hand.over:
            raise TableError("the hand is still being played")
        hand, order = self.hand, self._order
        rake = sum(e.amount for e in hand.events if isinstance(e, ev.Rake))
        stacks = dict(zip(order, hand.stacks, strict=True))
        fee = self._paid // len(order) if order else 0
        net = {seat: stacks[seat] - self._start[i] - fee for i, seat in enumerate(order)}
        commission = rake + self._paid
        # A player who stepped away during the hand is away, not bust: only the chips count.
        busted = tuple(seat for seat in order if not self._can_play(seat, present=True))
        carried = hand.carried
        self._record(HandFinished(self.hands, tuple(stacks.items()), commission, busted, carried))
        left = []
        if self.bust is Bust.LEAVE:
            for seat in busted:
                player = self._players[seat]
                left.append(player.name)
                self._record(Left(seat, player.name, player.chips))
        button = self.positions.button if self.positions else order[-1]
        self._summary = HandSummary(button, stacks, net, commission, busted, tuple(left))
        return self._summary

    def seat_of(self, player: int) -> int:
        """The seat of ``player`` (deal order index) in the current or last hand."""
        if not self._order:
            raise TableError("no hand has been dealt at this table")
        if not 0 <= player < len(self._order):
            raise TableError(f"the hand has players 0..{len(self._order) - 1}, not {player}")
        return self._order[player]

    def player_of(self, seat: int) -> int | None:
        """The deal-order index of ``seat`` in the current or last hand (``None``: not dealt)."""
        self._check_seat(seat)
        return self._order.index(seat) if seat in self._order else None

    def deal_order(self) -> tuple[int, ...]:
        """The seats dealt into the current or last hand, in deal order (the button last)."""
        return self._order

    # --- the button ------------------------------------------------------------------------

    def _first_button(
        self, active: list[int], shuffler: Shuffler | None
    ) -> tuple[int, list[tuple[int, Card]]]:
        first = self.first_button
        if isinstance(first, int):  # that seat, or the next player clockwise when it is empty
            return (first if first in active else _after(active, first)), []
        if first is not FirstButton.HIGH_CARD:
            return active[-1 if first is FirstButton.DEALER_RIGHT else 0], []
        # Each player draws a card, the highest gets the button (cardroom ties 2; league).
        drawn, winner = draw_cards(active, self.draw_ties, shuffler=shuffler, kind=self.rules.deck)
        return winner, drawn

    def propose_button(self, wrong: int = 1) -> Positions:
        """Cardroom irregularities 1: the last ``wrong`` hands had the button misplaced. The
        big blind goes to the first player after the last correctly placed big blind who has
        not posted it since; the small blind and button are the players before it. A floor
        choice: accept it with :meth:`correct_button`, or place the button by hand."""
        self._between_hands("the button is corrected between hands")
        history = self._big_blinds
        if not isinstance(wrong, int) or not 1 <= wrong < len(history):
            raise TableError(
                f"cardroom irregularities 1: {len(history)} hands dealt; the last correct "
                f"button must be before the {wrong} misplaced"
            )
        correct = history[-1 - wrong]
        if correct is None or not self.rules.blinds:
            raise TableError("cardroom irregularities 1: the last correct hand had no big blind")
        since = [seat for seat in history[len(history) - wrong :] if seat is not None]
        players = [seat for seat in self._players if self._can_play(seat)]
        try:
            return propose_correction(players, correct, since, len(self.rules.blinds))
        except ValueError as error:
            raise TableError(f"cardroom irregularities 1: {error}") from None

    def correct_button(self, placed: Positions | int | None = None) -> Positions:
        """Place the next hand's button and blinds (cardroom irregularities 1): ``None`` takes
        :meth:`propose_button`; a seat puts the button there, the blinds on the players after
        it; a :class:`Positions` is used as it is. The table's policy resumes after it."""
        if placed is None:
            positions = self.propose_button()
        elif isinstance(placed, int):
            self._check_seat(placed)
            players = sorted(seat for seat in self._players if self._can_play(seat))
            hu = self.rules.heads_up_button_small_blind
            positions = Positions(placed, chain(players, placed, len(self.rules.blinds), hu))
        else:
            positions = placed
        self._between_hands("the button is corrected between hands")
        self._record(ButtonCorrected(positions.button, positions.blinds))
        return positions

    def decline_button(self, seat: int) -> None:
        """Refused: a player must accept the button when it comes to them (qld s18(3)), and no
        book lets a player pass it on."""
        player = self._occupant(seat)
        raise TableError(
            f"qld s18(3): {player.name} must accept the button when it is their turn to "
            "receive it; no book lets a player decline it"
        )

    def record_clock(self, event: ClockCalled | ClockExpired) -> None:
        """Keep the action clock's events (:meth:`croupier.session.Session.call_clock`) in the
        table's log; they change nothing at the table."""
        if not isinstance(event, ClockCalled | ClockExpired):
            raise TableError(f"only the action clock's events are recorded this way, not {event!r}")
        self._record(event)

    # --- fees ------------------------------------------------------------------------------

    def charge_time(self, now: float) -> list[TimeCharged]:
        """The time charge (au 8.2(c)): every seated player, dealt in or sitting out (i), pays
        the hourly fee for each period in advance (ii), between hands. Periods of
        ``time_period`` minutes start at the first charge; a player pays once per period, when
        first charged in it. A player short of it pays what they have (a decision) and is dealt
        out until chips are added. Returns the charges made."""
        commission = self.rules.commission
        if commission.kind is not CommissionKind.TIME_CHARGE:
            raise TableError(
                f"this table's commission is {commission.kind.value}, not a time charge (au 8.2)"
            )
        self._between_hands("au 7.5, 8.2(c): the time charge is collected between hands")
        amount = commission.fee * self.time_period
        if amount % 60:
            raise TableError(
                f"a fee of {commission.fee} an hour does not divide into whole chips per "
                f"{self.time_period}-minute period (au 7.1: chips only)"
            )
        amount //= 60
        start = self._clock.start if self._clock.start is not None else now
        if now < start:
            raise TableError(f"time {now} is before the first period's start {start}")
        period = math.floor((now - start) / (60 * self.time_period))
        begins = start + period * 60 * self.time_period
        charges = [
            TimeCharged(seat, min(amount, player.chips), period, begins)
            for seat, player in sorted(self._players.items())
            if self._clock.paid.get(player.name, -1) < period and amount
        ]
        self._record(*charges)
        return charges

    def rabbit_hunt(self) -> None:
        """Refused for every book: the cards that would have come are never shown (league 29;
        qld s38(6)(b): nobody looks at undealt cards)."""
        raise TableError(
            "league 29: no rabbit hunting: the cards that would have been dealt are not shown"
        )

    # --- helpers ---------------------------------------------------------------------------

    def _fee(self) -> int:
        commission = self.rules.commission
        return commission.fee if commission.kind is CommissionKind.PARTICIPATION_FEE else 0

    def _settle(self) -> None:
        if self.hand is not None and self._open and self.hand.over:
            self.finish_hand()

    def _between_hands(self, why: str) -> None:
        self._settle()
        if self.in_hand:
            raise TableError(why)

    def _dealt_in(self, seat: int) -> bool:
        return self.in_hand and seat in self._order

    def _check_seat(self, seat: int) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise TableError(
                f"seat {seat!r} does not exist: this table has seats 1..{self.seats} (au 5.1)"
            )

    def _occupant(self, seat: int) -> SeatRecord:
        self._check_seat(seat)
        player = self._players.get(seat)
        if player is None:
            raise TableError(f"seat {seat} is empty")
        return player


def _after(active: list[int], seat: int) -> int:
    """The first seat of ``active`` (sorted) clockwise after ``seat``."""
    return next((s for s in active if s > seat), active[0])


def _check_chips(chips: int) -> None:
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
        raise TableError(f"chips must be a positive whole number (au 7.1), got {chips!r}")
