"""The engine as the server sees it: every call into croupier's tables and hands lives in this
module (what a table's spec makes of its book: :mod:`croupier.server.rooms.table_spec`).

The server keeps seats, money, clocks and connections; a :class:`GameTable` answers for the
rules: who may sit with how many chips, the hand, whose turn it is, what is legal, what each seat
may see, and how a stored table and hand are made again after a restart. The engine's table
(:class:`croupier.table.Table`) records every change as a table event; the server stores them
(:mod:`croupier.server.store.table_log`) and :meth:`GameTable.restored` rebuilds the table from them
with ``Table.restore``: who sits, the button, the blinds due and missed.

Players of a hand are numbered in deal order (0 is left of the button); the server speaks of
seats, and the hand's ``order`` maps one to the other.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from croupier import events as ev
from croupier.betting import IllegalAction, Legal
from croupier.bots import Action, SeatView, StrengthBot
from croupier.cards import Card, CardError, parse_cards
from croupier.citing import book_prefix, in_force
from croupier.deck import Deck, SecureShuffler, SeededShuffler
from croupier.forced import ForcedBets
from croupier.hand import Hand
from croupier.history import event_record
from croupier.out_of_time import out_of_time_in
from croupier.seats import draw_cards, priority_groups, priority_order
from croupier.server.records import HandEnd, HandStart, Move, Record, StoredHand
from croupier.server.rooms.table_spec import (
    MOST_BUY_IN,
    SpecError,
    TableSpec,
    blind_policy_for,
    buy_in_for,
    rules_for,
    seat_priority_for,
    stakes_for,
)
from croupier.table import (
    Bust,
    HandFinished,
    HandStarted,
    RulesChanged,
    SettingsChanged,
    Table,
    TableError,
    TableEvent,
)
from croupier.tournament import DealtHand, EngineHands, HandSetup
from croupier.views import Reducer

__all__ = [
    "ACTIONS",
    "Dealt",
    "GameTable",
    "HandEnd",
    "HandStart",
    "Move",
    "RuleError",
    "StoredHand",
    "bot_move",
    "check_new_table",
]

ACTIONS = ("fold", "check_or_call", "bet_or_raise", "bring_in", "draw")
"""What a player may send: the engine's player operations."""

IN_TURN = (
    "au 1.1 'Action', rws 3.8.1(b), rws 3.9.1(d), qld s24, qld s25, cardroom betting 11, league 39"
)
"""Each book's clause for acting in turn (croupier.citing keeps the book in force's)."""


class RuleError(ValueError):
    """A move or seat request the rules refuse, worded by the engine (it names the clause)."""


@dataclass(frozen=True)
class Dealt:
    """A hand dealt at the engine's table and not yet taken as the hand in progress."""

    start: HandStart
    hand: Hand

    @property
    def to_act(self) -> int | None:
        """The seat to act first (None: nobody acts, the hand is over already)."""
        player = self.hand.to_act
        return None if self.hand.over or player is None else self.start.order[player]


def check_new_table(game: GameTable) -> None:
    """The card room's bounds on a table it is asked to make (a table made before them still
    loads): a buy-in a seat can pay the minimum wager with, and at most :data:`MOST_BUY_IN`."""
    least, buy_in = game.rules.betting.small_bet, game.buy_in.minimum
    if buy_in < least:
        clause = "qld s31(2)-(3)" if game.spec.rulebook == "qld" else "a rule of this card room"
        raise SpecError(
            f"a buy-in of {buy_in} is below the minimum wager {least}: a seat must be able to "
            f"pay it ({clause})"
        )
    if buy_in > MOST_BUY_IN:
        raise SpecError(
            f"the table's buy-in would be {buy_in} chips: the card room deals tables whose "
            f"buy-in is at most {MOST_BUY_IN} (lower the stakes or the buy-in)"
        )


class GameTable:
    """One table's rules, its seats and button as the engine's table keeps them, and its hand
    in progress; seats are 1..N. :attr:`saved` counts the table's events already stored: the
    ones after it (:meth:`unsaved`) go with the next write."""

    def __init__(self, spec: TableSpec) -> None:
        if not isinstance(spec.seats, int) or isinstance(spec.seats, bool):
            raise SpecError(f"seats must be a whole number, got {spec.seats!r}")
        self.spec = spec
        self.book = book_prefix(spec.rulebook)
        self.rules, self.options = rules_for(spec)
        self.buy_in = buy_in_for(spec, self.rules)
        self.blind_policy = blind_policy_for(spec)
        self.seat_priority, self.seat_rule = seat_priority_for(spec)
        stakes = stakes_for(spec)
        # A player whose table the house closed may sit with the stack they had (cardroom
        # buy-in 3): the card room keeps that right for a while (seating.close_now).
        self.broken_game_transfer = bool(stakes["broken_game_transfer"])
        bust = stakes["bust"]
        assert isinstance(bust, Bust)
        self.bust = bust
        try:
            self._table = self._new_table()
        except TableError as error:
            raise SpecError(str(error)) from None
        self.hand: Hand | None = None
        self.order: tuple[int, ...] = ()
        self.start: HandStart | None = None
        self.saved = 0
        self._recorded: Hand | None = None  # the hand whose records _house holds
        self._house: list[Record] = []
        self._hidden: dict[ev.Event, Record] = {}  # events as seen without their hidden cards
        self._viewed: Hand | None = None  # the hand whose bots' views _reducers hold
        self._reducers: dict[int, Reducer] = {}  # per player: the hand as that seat sees it
        self.dealt: DealtHand | None = None  # a tournament's hand: the library's (dealt_from)

    def cite(self, message: str) -> str:
        """``message`` citing this table's book only (:func:`croupier.citing.in_force`)."""
        return in_force(message, self.book)

    def _new_table(self) -> Table:
        policy, bust = self.blind_policy, self.bust
        return Table(
            self.rules,
            self.spec.seats,
            buy_in=self.buy_in,
            blind_policy=policy,
            bust=bust,
            seat_priority=self.seat_priority,
        )

    # --- the table's events -----------------------------------------------------------------

    @classmethod
    def restored(
        cls, spec: TableSpec, events: Sequence[TableEvent], stored: StoredHand | None = None
    ) -> GameTable:
        """The table its stored ``events`` make (``Table.restore``), with the hand in progress
        dealt again from ``stored`` when the events leave one open. Raises :class:`RuleError`
        when the events or the hand do not rebuild exactly."""
        game = cls(spec)
        hand = game._redeal(events, stored) if stored is not None else None
        try:
            game._table.restore(events, hand)
        except (TableError, KeyError, TypeError) as error:
            raise RuleError(f"the table's events do not rebuild it ({error!r})") from None
        game.saved = len(events)
        if hand is not None and stored is not None:
            game._resume(hand, stored)
        return game

    def _redeal(self, events: Sequence[TableEvent], stored: StoredHand) -> Hand:
        """The open hand of ``events`` dealt again from the stored deck and seed."""
        opened = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
        if not opened or any(isinstance(e, HandFinished) for e in events[opened[-1] :]):
            raise RuleError("the table's events have no hand in progress")
        started = events[opened[-1]]
        assert isinstance(started, HandStarted)
        rules = self.rules
        for event in events[: opened[-1]]:
            if isinstance(event, RulesChanged | SettingsChanged) and event.rules is not None:
                rules = event.rules
        try:
            dealt = Deck(rules.deck, (Card(c) for c in stored.deck))
            return Hand(
                rules, list(started.stacks), dealt, forced=started.forced,
                shuffler=SeededShuffler(stored.seed),
            )  # fmt: skip
        except (CardError, ValueError) as error:
            raise RuleError(f"the stored hand cannot be dealt again ({error})") from None

    def _resume(self, hand: Hand, stored: StoredHand) -> None:
        self.hand = hand
        self.order = self._table.deal_order()
        assert self._table.button is not None
        self.start = HandStart(
            tuple(stored.deck), stored.seed, self._table.button, self.order, tuple(hand.starting),
            tuple(event_record(e) for e in hand.events),
        )  # fmt: skip
        if self.start.button != stored.button or self.order != stored.order:
            raise RuleError("the deal does not match the stored button and seats")
        if self.start.events != stored.events:
            raise RuleError("the deal does not match the stored events")
        for seq, (seat, move, records) in enumerate(stored.moves):
            if tuple(self.act(seat, move)) != records:
                raise RuleError(f"move {seq} does not give the stored events")

    @property
    def events(self) -> list[TableEvent]:
        """The table's events, stored or not."""
        return self._table.events

    def unsaved(self) -> list[TableEvent]:
        return self._table.events[self.saved :]

    def rollback(self) -> None:
        """Back to the stored events: a write failed, so what it would have stored never
        happened (a seat change, or a deal). The hand in progress stays when the stored events
        leave it open."""
        stored = self._table.events[: self.saved]
        last = next(
            (e for e in reversed(stored) if isinstance(e, HandStarted | HandFinished)), None
        )
        hand = self.hand if isinstance(last, HandStarted) else None
        table = self._new_table()
        table.restore(stored, hand)
        self._table = table
        if hand is None:
            self.abandon()

    def void_events(self, stacks: Mapping[int, int]) -> list[TableEvent]:
        """What voids the hand in progress at the table: it ends with every seat dealt in
        holding ``stacks`` (the chips it had when dealt: every contribution back, a
        participation fee too) and no commission. Empty when the table has no open hand."""
        events = reversed(self._table.events)
        last = next((e for e in events if isinstance(e, HandStarted | HandFinished)), None)
        if not isinstance(last, HandStarted):
            return []
        dealt = dict(zip(last.seats, last.stacks, strict=True))
        chips = tuple((seat, stacks.get(seat, dealt[seat])) for seat in last.seats)
        return [HandFinished(last.number, chips, 0, ())]

    def forced(self) -> ForcedBets | None:
        """The forced bets the table gave the hand in progress."""
        return None if self.hand is None else self.hand.forced

    @property
    def seats(self) -> int:
        return self._table.seats

    @property
    def minimum_buy_in(self) -> int:
        return self.buy_in.minimum

    @property
    def big_blind(self) -> int:
        return self.rules.betting.small_bet

    # --- seats ------------------------------------------------------------------------------

    def check_buy_in(self, seat: int, name: str, chips: object, *, transfer: bool = False) -> None:
        """Whether ``chips`` is a buy-in the table's rules accept, without seating anyone;
        ``transfer``: the stack of a player moved from a broken game (cardroom buy-in 3)."""
        if isinstance(chips, bool) or not isinstance(chips, int):
            raise RuleError(f"chips must be a whole number, got {chips!r}")
        try:  # the table's own record: a player's one short buy-in is once in this game
            self._table.check_buy_in(name, chips, transfer=transfer)
        except TableError as error:
            raise RuleError(str(error)) from None

    def seat(self, seat: int, name: str, chips: int, *, buy_in: bool = False) -> None:
        """Seat a player at the engine's table with ``chips``: a ``buy_in`` just made (already
        checked; a short one is recorded, once in this game), or chips the player already had
        at this table (cardroom buy-in 3). After the game's first hand they come in as a
        newcomer: the big blind reaches them first."""
        try:
            self._table.sit(seat, name, chips, transfer=not buy_in)
        except TableError as error:
            raise RuleError(str(error)) from None

    def unseat(self, seat: int) -> None:
        try:
            self._table.leave(seat)
        except TableError as error:
            raise RuleError(str(error)) from None

    def move(self, seat: int, to: int) -> None:
        """A seated player moves to the free seat ``to`` between hands, coming in there as a
        new player would (au 11.1(a); Table.change_seat)."""
        try:
            self._table.change_seat(seat, to)
        except TableError as error:
            raise RuleError(str(error)) from None

    def vacated_seat_winner(
        self, claimants: Sequence[str], seated: set[str]
    ) -> tuple[str, str, list[tuple[str, str]]]:
        """Who of ``claimants`` (in the order they asked) takes a vacated seat: those with the
        best priority (``seat_priority``: au 11.1(a), qld s16(2)), by a draw of cards among
        equals (qld s16(3)-(4); ranks tied, suits decide, cardroom ties 1). ``seated``: the
        claimants who sit at this table. Returns the winner, their group and the cards drawn
        (none when one claimant came first)."""
        best, group = priority_groups(
            claimants, seated, self._table.original_players(), self.seat_priority
        )
        if len(best) == 1:
            return best[0], group, []
        drawn, winner = draw_cards(
            best, self._table.draw_ties, shuffler=SecureShuffler(), kind=self.rules.deck
        )
        return winner, group, [(name, str(card)) for name, card in drawn]

    def waiting_order(self, names: Sequence[str], seated: set[str]) -> list[tuple[str, int, str]]:
        """A waiting list (``names`` in the order asked; ``seated``: those who sit here) as the
        book ranks it for a seat that comes free: each name with its group's rank (1 comes
        first) and the group's name (``seat_priority``: au 11.1(a), qld s16(2))."""
        return priority_order(names, seated, self._table.original_players(), self.seat_priority)

    def add_chips(self, seat: int, chips: int) -> None:
        try:
            self._table.add_chips(seat, chips)
        except TableError as error:
            raise RuleError(str(error)) from None

    def occupant(self, seat: int) -> tuple[str, int, bool] | None:
        """Who the engine's table has in ``seat``: name, chips, and whether away."""
        player = self._table.player_at(seat)
        if player is None:
            return None
        return player.name, player.chips, self._table.is_away(seat)

    def step_away(self, seat: int, away: bool) -> None:
        """The seat is dealt out (``away``) or back in: blinds passed meanwhile are owed."""
        try:
            if away:
                self._table.step_away(seat)
            else:
                self._table.come_back(seat)
        except TableError as error:
            raise RuleError(str(error)) from None

    def check_top_up(self, seat: int, chips: object) -> None:
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
            raise RuleError(f"chips must be a positive whole number (au 7.1), got {chips!r}")
        if self.in_hand and seat in self.order:
            raise RuleError(
                "a table stake may not be augmented during a round of play you are dealt "
                "into (au 7.5, qld s19(4), rws 3.4); add chips between hands (cardroom buy-in 2)"
            )

    def dealt_in(self, seat: int) -> bool:
        return self.in_hand and seat in self.order

    def engine_seats(self) -> list[int]:
        return self._table.occupied()

    @property
    def button(self) -> int | None:
        """The button's seat in the current or last hand."""
        return self._table.button

    @property
    def hands(self) -> int:
        """Hands the engine's table has dealt (voided ones included)."""
        return self._table.hands

    # --- the hand ---------------------------------------------------------------------------

    @property
    def in_hand(self) -> bool:
        return self.hand is not None and not self.hand.over

    def can_deal(self) -> bool:
        return sum(self._table.can_play(s) for s in self._table.occupied()) >= 2

    def start_hand(self, deck: Sequence[int] | None = None, seed: int | None = None) -> HandStart:
        """Deal the next hand and take it as the hand in progress (:meth:`deal`, :meth:`take`)."""
        dealt = self.deal(deck, seed)
        self.take(dealt)
        return dealt.start

    def take(self, dealt: Dealt) -> None:
        """``dealt`` (stored by now) becomes the hand in progress: the one played and shown."""
        self.hand, self.order, self.start = dealt.hand, dealt.start.order, dealt.start

    def deal(self, deck: Sequence[int] | None = None, seed: int | None = None) -> Dealt:
        """Deal the next hand at the engine's table: from ``deck`` (a stored order) or a fresh
        secure shuffle. It is not the hand in progress until :meth:`take`: a card room takes it
        once it is stored, and until then shows the hand before (:meth:`rollback` undoes it)."""
        if deck is None:
            # A new generator per hand: no random bytes buffered before a fork are reused.
            dealt = Deck.shuffled(self.rules.deck, SecureShuffler())
        else:
            dealt = Deck(self.rules.deck, (Card(c) for c in deck))
        order_of_deck = tuple(int(c) for c in dealt.cards)
        seed = secrets.randbits(63) if seed is None else seed
        try:
            hand = self._table.start_hand(deck=dealt, shuffler=SeededShuffler(seed))
        except TableError as error:
            raise RuleError(str(error)) from None
        order = tuple(self._table.seat_of(p) for p in range(hand.players))
        assert self._table.button is not None
        start = HandStart(
            order_of_deck,
            seed,
            self._table.button,
            order,
            tuple(hand.starting),
            tuple(event_record(e) for e in hand.events),
        )
        return Dealt(start, hand)

    def _require_hand(self) -> Hand:
        if self.hand is None or self.hand.over:
            raise RuleError("no hand is being played at this table")
        return self.hand

    def to_act(self) -> int | None:
        """The seat to act (or draw), None between hands."""
        hand = self.hand
        if hand is None or hand.over or hand.to_act is None:
            return None
        return self.order[hand.to_act]

    @property
    def drawing(self) -> bool:
        return self.hand is not None and self.hand.drawing

    def legal(self) -> dict[str, object] | None:
        """What the seat to act may do, as the protocol sends it."""
        hand = self.hand
        if hand is None or hand.over or hand.to_act is None:
            return None
        if hand.drawing:
            return {"draw": True, "hole": [str(c) for c in hand.hole[hand.to_act]]}
        return legal_json(hand.legal())

    def act(self, seat: int, move: Move) -> list[Record]:
        """Apply ``seat``'s move; returns the house records of the events it caused. A move the
        rules refuse raises :class:`RuleError` with the engine's words and changes nothing."""
        hand = self._require_hand()
        if self.to_act() != seat:
            whose = self.to_act()
            raise RuleError(
                f"it is not seat {seat}'s turn: seat {whose} is to "
                f"{'draw' if hand.drawing else 'act'}: each acts in turn ({IN_TURN})"
            )
        before = len(hand.events)
        try:
            apply_move(hand, move)
        except (IllegalAction, CardError) as error:
            raise RuleError(str(error)) from None
        return self._records(before)

    def auto_move(self) -> Move:
        """What the clock does for a player out of time: the engine's one rule
        (:func:`croupier.out_of_time.out_of_time`)."""
        return move_of_action(out_of_time_in(self._require_hand()))

    @property
    def over(self) -> bool:
        return self.hand is not None and self.hand.over

    def finish(self) -> HandEnd:
        summary = self._table.finish_hand()
        left = summary.busted if self.bust is Bust.LEAVE else ()
        return HandEnd(dict(summary.stacks), summary.commission, summary.busted, left)

    def abandon(self) -> None:
        """Forget the hand in progress (it is void): the seats keep the stacks they had when
        it was dealt, as the caller re-seats them."""
        self.hand = None
        self.order = ()
        self.start = None

    # --- what each seat sees --------------------------------------------------------------

    def player_of(self, seat: int | None) -> int | None:
        return self.order.index(seat) if seat is not None and seat in self.order else None

    def visible(self, seat: int | None, start: int = 0) -> list[Record]:
        """The hand's events from ``start`` on, as ``seat`` may see them (None: a spectator,
        or a seat not dealt in: no hole cards at all)."""
        hand = self.hand
        if hand is None:
            return []
        player = self.player_of(seat)
        records = self._records(start)  # (first: a new hand's records start afresh)
        hidden = self._hidden
        seen: list[Record] = []
        for event, record in zip(hand.events[start:], records, strict=True):
            shown = event.visible_to(player)
            if shown is event:
                seen.append(record)
            else:  # the same for every seat but the owner's: made once
                kept = hidden.get(shown)
                if kept is None:
                    kept = hidden[shown] = event_record(shown)
                seen.append(kept)
        return seen

    def public_events(self, start: int) -> list[Record] | None:
        """The hand's events from ``start`` on when everyone sees them alike (no hidden card
        among them: a spectator, who sees least, sees each as it is); else None."""
        hand = self.hand
        if hand is None:
            return []
        if any(event.visible_to(None) is not event for event in hand.events[start:]):
            return None
        return self._records(start)

    def event_count(self) -> int:
        return 0 if self.hand is None else len(self.hand.events)

    def house_records(self) -> list[Record]:
        return [] if self.hand is None else list(self._records(0))

    def _records(self, start: int) -> list[Record]:
        """The house records of the hand's events from ``start`` on, each made once: an event
        every seat sees alike is sent to all of them as the same record (read, never changed)."""
        hand = self.hand
        assert hand is not None
        if self._recorded is not hand:
            self._recorded, self._house, self._hidden = hand, [], {}
        house = self._house
        house.extend(event_record(e) for e in hand.events[len(house) :])
        return house[start:]

    def pot(self) -> int:
        return 0 if self.hand is None or self.hand.over else self.hand.pot

    def hand_stacks(self) -> dict[int, int]:
        """Chips behind per dealt seat, during the hand."""
        if self.hand is None:
            return {}
        return dict(zip(self.order, self.hand.stacks, strict=True))

    def chips_in_play(self) -> int:
        """Every chip of the hand in progress: stacks behind and the pot (conserved)."""
        if self.hand is None or self.hand.over:
            return 0
        return sum(self.hand.stacks) + self.hand.pot

    def bot_view(self, seat: int) -> tuple[SeatView, Legal | None]:
        """A bot's view of its seat and what it may do (None at the draw): the one reducer
        (:class:`croupier.views.Reducer`) over the hand's events as that seat may see them
        (``Event.visible_to``), fed each event once. The view holds no reference to the hand,
        so a bot cannot reach another player's cards (issue 13 item 8)."""
        hand = self._require_hand()
        player = self.order.index(seat)
        if self._viewed is not hand:
            self._viewed, self._reducers = hand, {}
        reducer = self._reducers.get(player)
        if reducer is None:
            reducer = self._reducers[player] = Reducer(hand.starting, player)
        for event in hand.events[len(reducer.events) :]:
            reducer.apply(event.visible_to(player))
        drawing = hand.drawing
        legal = None if drawing else hand.legal()
        seen = reducer.snapshot(
            hand.rules, to_act=hand.to_act, drawing=drawing, legal=legal, over=hand.over
        )
        return SeatView.from_view(seen), legal

    # --- a tournament's hand ----------------------------------------------------------------

    @classmethod
    def dealt_from(
        cls,
        engine: EngineHands,
        setup: HandSetup,
        moves: Sequence[tuple[int, Move]] = (),
        *,
        deal: Sequence[Record] | None = None,
        records: Sequence[Sequence[Record] | None] = (),
    ) -> GameTable:
        """A tournament's hand: the library deals it from its ``setup`` (who is dealt in with
        how many chips, the button, the level's forced bets, a deck shuffled from its seed;
        :meth:`EngineHands.deal`), then its stored ``moves`` are applied again. The tournament
        keeps the seats: the engine's table here holds nobody. As a cash table's hand is
        rebuilt, the deal and each move must give the house records stored with them
        (``deal``, ``records``; None: none stored), or :class:`RuleError`."""
        forced = setup.forced
        stakes = f"{forced.small_blind}/{forced.big_blind}"
        spec = TableSpec("holdem", engine.rulebook, "no-limit", stakes, setup.table_size)
        game = cls(spec)
        dealt = engine.deal(setup)
        game.dealt, game.hand = dealt, dealt.hand
        game.order = tuple(seat.seat for seat in setup.seats)
        game.start = HandStart(
            (), setup.seed, setup.button, game.order, tuple(dealt.hand.starting),
            tuple(event_record(e) for e in dealt.hand.events),
        )  # fmt: skip
        if deal is not None and list(game.start.events) != list(deal):
            raise RuleError("the deal does not match the stored events")
        for seq, (seat, move) in enumerate(moves):
            made = game.act(seat, move)
            stored = records[seq] if seq < len(records) else None
            if stored is not None and made != list(stored):
                raise RuleError(f"move {seq} does not give the stored events")
        return game

    def absent(self, seat: int) -> bool:
        """Whether ``seat``'s hand is dead while its player is absent (league 25, 27)."""
        return self.dealt is not None and self.order.index(seat) in self.dealt.absent

    def house_move(self) -> tuple[int, Move, list[Record]]:
        """The tournament's decision for the seat to act, made and applied: its house bot's,
        or an absent player's dead hand's (league 27): the seat, the move and the house
        records of the events it caused."""
        seat = self.to_act()
        if self.dealt is None or seat is None:
            raise RuleError("no tournament hand is waiting for a decision")
        before = self.event_count()
        move = move_of_action(self.dealt.step())
        return seat, move, self._records(before)

    def stacks(self) -> dict[int, int]:
        """A tournament's hand over: every dealt seat's chips (the library's result)."""
        assert self.dealt is not None
        return dict(self.dealt.result().stacks)

    # --- rebuilding and histories ---------------------------------------------------------

    @classmethod
    def of_record(
        cls,
        spec: TableSpec,
        deck: Sequence[int],
        seed: int,
        order: Sequence[int],
        starting: Sequence[int],
        moves: Sequence[tuple[int, Move]],
        forced: ForcedBets | None = None,
    ) -> GameTable:
        """A stored hand dealt again on its own (no seats around it), for its history;
        ``forced``: the forced bets the table gave it (None: the usual ones by position)."""
        game = cls(spec)
        dealt = Deck(game.rules.deck, (Card(c) for c in deck))
        game.hand = Hand(
            game.rules, list(starting), dealt, forced=forced, shuffler=SeededShuffler(seed)
        )
        game.order = tuple(order)
        for seat, move in moves:
            game.act(seat, move)
        return game


def legal_json(legal: Legal) -> dict[str, object]:
    """What the player to act may do, as the protocol's ``legal`` sends it."""
    return {
        "can_fold": legal.can_fold,
        "can_check": legal.can_check,
        "call": legal.call,
        "raise_range": list(legal.raise_range) if legal.raise_range else None,
        "bring_in": legal.bring_in,
        "facing": legal.facing,
        "unit": legal.unit,
        "all_in": legal.all_in,
        "text": str(legal),
    }


def apply_move(hand: Hand, move: Move) -> None:
    kind = move.kind
    if kind == "fold":
        hand.fold()
    elif kind == "check_or_call":
        hand.check_or_call()
    elif kind == "bet_or_raise":
        if move.amount is None:
            raise IllegalAction("a bet or raise needs an amount: the total to bet or raise to")
        hand.bet_or_raise_to(move.amount)
    elif kind == "bring_in":
        hand.post_bring_in()
    elif kind == "draw":
        hand.draw(parse_cards(list(move.cards)) if move.cards else ())
    else:
        raise IllegalAction(f"unknown action {kind!r}: expected one of {', '.join(ACTIONS)}")


def bot_move(view: SeatView, legal: Legal | None, seed: int) -> Move:
    """A StrengthBot's decision from a seat's view (deterministic for ``seed``)."""
    import random

    bot = StrengthBot(trials=100)
    rng = random.Random(seed)
    action = bot.draw(view, rng) if legal is None else bot.act(view, legal, rng)
    return move_of_action(action)


def move_of_action(action: Action) -> Move:
    kind = action.kind.value.replace("-", "_")
    if kind == "bet_or_raise":
        return Move("bet_or_raise", action.amount)
    if kind == "draw":
        return Move("draw", cards=tuple(str(c) for c in action.cards))
    return Move(kind)
