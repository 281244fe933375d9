"""Deal after deal at one table: seats, the button, buy-ins and table stakes.

Seats are numbered 1..N clockwise, seat 1 on the dealer's immediate left, so the highest seat is
on the dealer's immediate right. Each hand is dealt to the seated players who may play, in deal
order: player 0 is the first of them clockwise after the button, the last is the button.

The hand itself is :class:`croupier.hand.Hand`; the table only chooses who is dealt in, in what
order, with what forced bets, and keeps the chips between hands. A hand is finished (stacks
written back, busted players handled) by :meth:`Table.finish_hand`, or by the next command
(sit, leave, add chips, the next hand) once its phase is ``OVER``; queries never change anything.
The button moves when the next hand starts, since only then is it known who is dealt in. What
the table does is recorded in :attr:`Table.events`, as the hand records its own.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from croupier import events as ev
from croupier.betting import Betting, Structure
from croupier.cards import Card
from croupier.deck import Deck, Shuffler
from croupier.forced import ForcedBets
from croupier.hand import Hand, Phase, Rules
from croupier.pots import CommissionKind

__all__ = [
    "Bust",
    "ButtonMoved",
    "BuyIn",
    "ChipsAdded",
    "DrawTie",
    "FirstButton",
    "HandFinished",
    "HandStarted",
    "HandSummary",
    "Left",
    "Player",
    "RulesChanged",
    "Seated",
    "Table",
    "TableError",
    "TableEvent",
]


class TableError(ValueError):
    """A seat, buy-in or table-stake request the rules do not allow; names the clause."""


class FirstButton(enum.Enum):
    """Where the button is for the first hand (a seat number may be given instead)."""

    DEALER_RIGHT = "dealer-right"  # on the dealer's right: the highest seat (au 11.1(b), qld s18)
    DEALER_LEFT = "dealer-left"  # on the dealer's left: the lowest seat (rws 3.1)
    HIGH_CARD = "high-card"  # the highest card drawn (cardroom ties 2; league seat draw)


class DrawTie(enum.Enum):
    """How a draw for the button separates equal ranks."""

    SUIT = "suit"  # by suit, spades > hearts > diamonds > clubs, no redraw (cardroom ties 1)
    REDRAW = "redraw"  # the tied players draw again until one is highest (league seat draw)


class Bust(enum.Enum):
    """What happens to a player who cannot play the next hand (no chips, or under qld s31(2))."""

    SIT_OUT = "sit-out"  # keeps the seat, dealt out until chips are added (cardroom buy-in 2)
    LEAVE = "leave"  # the seat is freed (qld s31(4); tournament elimination, league)


@dataclass(frozen=True)
class BuyIn:
    """The money rules for sitting down and adding chips. Amounts are in chip units."""

    minimum: int
    """The full buy-in (cardroom buy-in 1; au 7.2, 7.4 'minimum buy-in'; qld s19(3)(a)
    'minimum table stake')."""
    short: int | None = None
    """The smallest short buy-in, allowed once per player per game (cardroom buy-in 2; the book
    gives no size, so the house sets it). ``None``: none, as au 7.4 and qld s19(3)(a) demand."""
    maximum: int | None = None
    """Most chips a player may sit with or top up to: a house rule, none of the books has one."""
    restake: bool = False
    """qld s31(2)-(4): a player left with less than the minimum wager must bring the stake to at
    least ``minimum`` before the next hand, or is dealt out (and leaves under ``Bust.LEAVE``)."""

    def __post_init__(self) -> None:
        for name in ("minimum", "short", "maximum"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise TableError(f"buy-in {name} must be a positive number of chips, got {value!r}")
        if self.short is not None and self.short >= self.minimum:
            raise TableError(f"a short buy-in ({self.short}) must be below the full {self.minimum}")
        if self.maximum is not None and self.maximum < self.minimum:
            raise TableError(f"maximum buy-in {self.maximum} is below the minimum {self.minimum}")

    @classmethod
    def limit(cls, betting: Betting, *, short: int | None = None, times: int = 10) -> BuyIn:
        """The cardroom full buy-in at limit poker: ``times`` (10) the maximum bet (cardroom
        buy-in 1). Only for fixed and spread limits: other games must designate theirs."""
        sizes = []
        for structure in betting.structures:
            if structure is Structure.FIXED:
                sizes.append(max(betting.small_bet, betting.big_bet))
            elif structure is Structure.SPREAD and betting.max_wager is not None:
                sizes.append(betting.max_wager)
            else:
                raise TableError(
                    f"{structure.value} betting has no maximum bet: the full buy-in must be "
                    "designated (cardroom buy-in 1 'unless designated otherwise')"
                )
        return cls(minimum=times * max(sizes), short=short)


@dataclass(frozen=True)
class TableEvent:
    """Something the table did between or around hands; :attr:`Table.events` keeps them."""


@dataclass(frozen=True)
class Seated(TableEvent):
    seat: int
    name: str
    chips: int


@dataclass(frozen=True)
class Left(TableEvent):
    seat: int
    name: str
    chips: int  # what the player takes away


@dataclass(frozen=True)
class ChipsAdded(TableEvent):
    seat: int
    chips: int


@dataclass(frozen=True)
class RulesChanged(TableEvent):
    rules: Rules


@dataclass(frozen=True)
class ButtonMoved(TableEvent):
    seat: int


@dataclass(frozen=True)
class HandStarted(TableEvent):
    number: int
    seats: tuple[int, ...]  # in deal order: the button last
    stacks: tuple[int, ...]  # as dealt, after any participation fee
    forced: ForcedBets


@dataclass(frozen=True)
class HandFinished(TableEvent):
    number: int
    stacks: tuple[tuple[int, int], ...]  # (seat, chips) after the hand
    commission: int
    busted: tuple[int, ...]


@dataclass
class Player:
    """Who sits in a seat and the chips in front of them (as of the last hand's end)."""

    name: str
    chips: int


@dataclass(frozen=True)
class HandSummary:
    """What a finished hand did to the table."""

    button: int  # the button's seat
    stacks: dict[int, int]  # seat -> chips after the hand
    net: dict[int, int]  # seat -> chips won (negative: lost), after any participation fee
    commission: int  # taken by the house in this hand (rake or participation fees)
    busted: tuple[int, ...]  # seats that may not play the next hand as they are
    left: tuple[str, ...] = ()  # players unseated under Bust.LEAVE


class Table:
    """One table: seats, a moving button, buy-ins and table stakes, and hand after hand."""

    def __init__(
        self,
        rules: Rules,
        seats: int | None = None,
        *,
        buy_in: BuyIn,
        first_button: FirstButton | int = FirstButton.DEALER_RIGHT,
        draw_ties: DrawTie = DrawTie.SUIT,
        bust: Bust = Bust.SIT_OUT,
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
        if isinstance(first_button, int):
            self._check_seat(first_button)
        self.rules = rules
        self.buy_in = buy_in
        self.first_button = first_button
        self.draw_ties = draw_ties
        self.bust = bust
        self.button: int | None = None  # the button's seat in the current or last hand
        self.hand: Hand | None = None  # the current or last hand
        self.hands = 0  # hands started
        self.commission = 0  # all the house has taken at this table
        self.draw: list[tuple[int, Card]] = []  # the draw for the first button, in order
        self._players: dict[int, Player] = {}
        self._short_buy_ins: set[str] = set()
        self._order: tuple[int, ...] = ()  # seats in deal order for the current or last hand
        self._paid = 0  # the participation fee each player paid for the current or last hand
        self._start: list[int] = []  # stacks in deal order when the hand was dealt
        self._summary: HandSummary | None = None
        self._last_big_blind: int | None = None  # the seat that posted it in the last hand
        self.events: list[TableEvent] = []

    def set_rules(self, rules: Rules) -> None:
        """Change the game, the limits or the stakes, between hands only (au 7.3; a tournament's
        next level)."""
        self._between_hands(
            "the rules change only between hands (au 7.3): finish the hand in progress first"
        )
        most = rules.game.max_players.get(rules.deck, 0)
        if len(self._players) > most or self.seats > most:
            raise TableError(
                f"{rules.game.name} with a {rules.deck.size}-card deck seats at most {most} "
                f"players (au 5.1); this table has {self.seats} seats"
            )
        self.rules = rules
        self.events.append(RulesChanged(rules))

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
        must-move game of the same limit, keeping what they had (cardroom buy-in 3)."""
        self._between_hands(
            "players sit down between hands: a buy-in is made before the "
            "start of a hand (au 1.1 'Buy-in'; qld s19(1)-(2))"
        )
        self._check_seat(seat)
        if seat in self._players:
            raise TableError(
                f"seat {seat} is taken by {self._players[seat].name}; a draw of "
                "cards decides between players wanting one seat (au 11.1(a), qld s16)"
            )
        if any(p.name == name for p in self._players.values()):
            raise TableError(f"{name} already sits at this table: one seat per player")
        _check_chips(chips)
        rules = self.buy_in
        short = chips < rules.minimum and not transfer
        if short and (rules.short is None or chips < rules.short):
            offer = f"; a short buy-in of {rules.short} is allowed once" if rules.short else ""
            raise TableError(
                f"a buy-in of {chips} is below the minimum {rules.minimum} "
                f"(au 7.4, qld s19(3)(a), cardroom buy-in 1-2){offer}"
            )
        if short and name in self._short_buy_ins:
            raise TableError(
                f"{name} has made the one short buy-in allowed in this game "
                f"(cardroom buy-in 2): the full buy-in is {rules.minimum}"
            )
        if rules.maximum is not None and chips > rules.maximum:
            raise TableError(f"a buy-in of {chips} is above the maximum {rules.maximum} (house)")
        if short:
            self._short_buy_ins.add(name)
        self._players[seat] = Player(name, chips)
        self.events.append(Seated(seat, name, chips))

    def leave(self, seat: int) -> int:
        """Unseat a player, returning the chips they take with them. A player dealt into the
        hand in progress may not take chips off the table until it ends (au 7.5, qld s19(4))."""
        self._settle()
        player = self._occupant(seat)
        if self._dealt_in(seat):
            raise TableError(
                f"{player.name} is in the hand in progress: chips may not leave the "
                "table during a round of play (au 7.5, qld s19(4))"
            )
        del self._players[seat]
        self.events.append(Left(seat, player.name, player.chips))
        return player.chips

    def add_chips(self, seat: int, chips: int) -> None:
        """Add to a player's stake: any amount, between hands or while not in the hand (au 7.5;
        cardroom buy-in 2: adding is not a buy-in), never during a hand one is dealt into."""
        self._settle()
        player = self._occupant(seat)
        _check_chips(chips)
        if self._dealt_in(seat):
            raise TableError(
                f"{player.name} is in the hand in progress: a table stake may not be "
                "augmented or reduced during a round of play (au 7.5, qld s19(4)); "
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
        player.chips = total
        self.events.append(ChipsAdded(seat, chips))

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
        """Whether the player in ``seat`` would be dealt into the next hand: chips left, and
        under ``BuyIn.restake`` at least the minimum wager (qld s31(2))."""
        return self._can_play(seat)

    def _chips(self, seat: int) -> int:
        """The chips in front of the player in ``seat``: a finished hand's stack, not yet
        written back, counts."""
        hand = self.hand
        over = hand is not None and self._summary is None and hand.phase is Phase.OVER
        if over and hand is not None and seat in self._order:
            return hand.stacks[self._order.index(seat)]
        return self._players[seat].chips

    def _can_play(self, seat: int) -> bool:
        if seat not in self._players:
            return False
        floor = self.rules.betting.small_bet if self.buy_in.restake else 1
        return self._chips(seat) >= max(floor, 1 + self._fee())

    # --- hands -----------------------------------------------------------------------------

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (started and not over)."""
        return self.hand is not None and self._summary is None and self.hand.phase is not Phase.OVER

    def start_hand(
        self,
        deck: Deck | None = None,
        shuffler: Shuffler | None = None,
        *,
        auto_deal: bool = True,
        auto_show: bool = True,
    ) -> Hand:
        """Deal a hand to the players who may play, from the first of them clockwise after the
        button; the button is last. The shuffler also makes the first-button draw.
        ``auto_deal``/``auto_show``: see :class:`~croupier.hand.Hand` (a live dealer gives the
        cards)."""
        self._between_hands("a hand is in progress: finish it first")
        active = [seat for seat in sorted(self._players) if self._can_play(seat)]
        if len(active) < 2:
            raise TableError(
                f"a hand needs at least 2 players with chips (au 5.1, 7.4), {len(active)} can play"
            )
        button, draw = self._next_button(active, shuffler)
        start = active.index(button) + 1
        order = tuple(active[start:] + active[:start])
        fee = self._fee()  # a participation fee is paid before the round starts (qld s20(2))
        stacks = [self._players[seat].chips - fee for seat in order]
        forced = self.rules.forced_bets(len(order))
        hand = Hand(
            self.rules, stacks, deck, forced=forced, shuffler=shuffler,
            auto_deal=auto_deal, auto_show=auto_show,
        )  # fmt: skip
        for seat in order:
            self._players[seat].chips -= fee
        self.commission += fee * len(order)
        self.hand, self.button, self._order = hand, button, order
        self.draw.extend(draw)
        self._paid, self._start = fee, stacks
        self._summary = None
        self.hands += 1
        self.events.append(ButtonMoved(button))
        self.events.append(HandStarted(self.hands, order, tuple(stacks), forced))
        return hand

    def finish_hand(self) -> HandSummary:
        """Write the hand's final stacks back to the seats, and treat players who cannot play
        on as ``bust`` says. Done automatically by the next table call once the hand is over."""
        if self.hand is None:
            raise TableError("no hand has been dealt at this table")
        if self._summary is not None:
            return self._summary
        if self.hand.phase is not Phase.OVER:
            raise TableError("the hand is still being played")
        hand, order = self.hand, self._order
        rake = sum(e.amount for e in hand.events if isinstance(e, ev.Rake))
        self.commission += rake
        blinds = [e.player for e in hand.events if isinstance(e, ev.PostBlind)]
        self._last_big_blind = order[blinds[-1]] if blinds else None
        stacks = dict(zip(order, hand.stacks, strict=True))
        for seat, chips in stacks.items():
            self._players[seat].chips = chips
        fee = self._paid
        net = {seat: stacks[seat] - self._start[i] - fee for i, seat in enumerate(order)}
        busted = tuple(seat for seat in order if not self._can_play(seat))
        left = [self._players.pop(seat).name for seat in busted] if self.bust is Bust.LEAVE else []
        self._summary = HandSummary(
            order[-1], stacks, net, rake + fee * len(order), busted, tuple(left)
        )
        self.events.append(
            HandFinished(self.hands, tuple(stacks.items()), self._summary.commission, busted)
        )
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

    # --- the button ------------------------------------------------------------------------

    def deal_order(self) -> tuple[int, ...]:
        """The seats dealt into the current or last hand, in deal order (the button last)."""
        return self._order

    def _next_button(
        self, active: list[int], shuffler: Shuffler | None
    ) -> tuple[int, list[tuple[int, Card]]]:
        """The next player clockwise from the last button (au 1.1 'Button', 11.1(b); qld
        s18(2); rws 'Dealer Button'), past empty seats and players dealt out. One correction:
        when that would make last hand's big blind post it again (going heads-up after the
        button busts, rws 3.7), the button moves one more seat, so the big blind moves on
        to the next player (league: each player takes a turn at the big blind)."""
        if self.button is None:
            return self._first_button(active, shuffler)
        button = _after(active, self.button)
        last = self._last_big_blind
        if last is not None and self._big_blind_seat(active, button) == last:
            button = _after(active, button)
        return button, []

    def _big_blind_seat(self, active: list[int], button: int) -> int | None:
        """Who posts the last (big) blind with this button, as the hand engine places blinds:
        left of the button (au 11.1(c), rws 3.7), the button posting the small blind heads-up."""
        blinds = len(self.rules.blinds)
        if not blinds:
            return None
        if len(active) == 2 and blinds >= 2 and self.rules.heads_up_button_small_blind:
            return _after(active, button)
        seat = button
        for _ in range(min(blinds, len(active))):
            seat = _after(active, seat)
        return seat

    def _first_button(
        self, active: list[int], shuffler: Shuffler | None
    ) -> tuple[int, list[tuple[int, Card]]]:
        first = self.first_button
        if isinstance(first, int):  # that seat, or the next player clockwise when it is empty
            return (first if first in active else _after(active, first)), []
        if first is not FirstButton.HIGH_CARD:
            return active[-1 if first is FirstButton.DEALER_RIGHT else 0], []
        # Each player draws a card, the highest gets the button (cardroom ties 2; league).
        deck, drawing, drawn = Deck.shuffled(self.rules.deck, shuffler), list(active), []
        while True:
            if len(deck) < len(drawing):
                deck = Deck.shuffled(self.rules.deck, shuffler)
            cards = [(seat, deck.deal()[0]) for seat in drawing]
            drawn.extend(cards)
            best = max(card for _, card in cards)
            if self.draw_ties is DrawTie.SUIT:  # cards order by rank, then suit
                return next(seat for seat, card in cards if card == best), drawn
            drawing = [seat for seat, card in cards if card.rank == best.rank]
            if len(drawing) == 1:
                return drawing[0], drawn

    # --- helpers ---------------------------------------------------------------------------

    def _fee(self) -> int:
        commission = self.rules.commission
        return commission.fee if commission.kind is CommissionKind.PARTICIPATION_FEE else 0

    def _settle(self) -> None:
        if self.hand is not None and self._summary is None and self.hand.phase is Phase.OVER:
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

    def _occupant(self, seat: int) -> Player:
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
