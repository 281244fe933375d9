"""A table's state as its events make it: seats, chips, the button, what is owed and scheduled.

:class:`TableState` applies each :mod:`croupier.table_events` event as it is recorded; the
commands of :class:`croupier.table.Table` check a request, then record the events it makes. A
table built with the same settings and fed the same events (:meth:`TableState.restore`) is the
same table. The value types of a table (:class:`BuyIn`, :class:`Player`, ...) live here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from croupier.betting import Betting, Structure
from croupier.blinds import Bust, NewPlayer, Positions, State
from croupier.cards import Card
from croupier.hand import Hand, Rules
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

__all__ = ["Bust", "BuyIn", "HandSummary", "Player", "TableError", "TableState"]


class TableError(ValueError):
    """A seat, buy-in or table-stake request the rules do not allow; names the clause."""


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
    rejoin_minimum: bool = False
    """qld s19(1)(b), (3)(a): a seated player who was not dealt into the previous hand needs the
    minimum table stake to be dealt in again, unless they were away with a floor manager's
    approval (s19(5)-(6))."""

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


@dataclass
class Player:
    """Who sits in a seat and the chips in front of them (as of the last hand's end)."""

    name: str
    chips: int


@dataclass
class SeatRecord:
    """A seated player and where they stand for the blinds."""

    name: str
    chips: int
    joined: int  # hands started before they sat down (0: in the game since it started)
    entry: State | None = None  # a newcomer's way in (WAIT, POST or PLAY); None once dealt in
    owes_small: bool = False
    owes_big: bool = False
    away: bool = False  # stepped away: dealt out until back
    approved: bool = False  # away with a floor manager's approval (qld s19(5))
    dealt: int = -1  # the last hand dealt to them (-1: never)


@dataclass(frozen=True)
class HandSummary:
    """What a finished hand did to the table."""

    button: int  # the button's seat
    stacks: dict[int, int]  # seat -> chips after the hand
    net: dict[int, int]  # seat -> chips won (negative: lost), after any participation fee
    commission: int  # taken by the house in this hand (rake or participation fees)
    busted: tuple[int, ...]  # seats that may not play the next hand as they are
    left: tuple[str, ...] = ()  # players unseated under Bust.LEAVE


@dataclass
class Schedule:
    hand: int
    rules: Rules | None
    buy_in: BuyIn | None


@dataclass
class TimeClock:
    """The time charge's periods (au 8.2(c)): when the first began, who paid which."""

    start: float | None = None
    paid: dict[str, int] = field(default_factory=dict)  # name -> last period paid


class TableState:
    """The table as its events leave it (no checks: :class:`croupier.table.Table` makes them)."""

    def __init__(self, rules: Rules, buy_in: BuyIn, new_player: NewPlayer) -> None:
        self.rules = rules
        self.buy_in = buy_in
        self.new_player = new_player
        self.button: int | None = None  # the button's seat in the current or last hand
        self.positions: Positions | None = None  # the current or last hand's button and blinds
        self.hand: Hand | None = None  # the current or last hand
        self.hands = 0  # hands started
        self.commission = 0  # all the house has taken at this table
        self.carried = 0  # chips a void hand forfeited, for the next deal (cardroom irreg. 6)
        self.draw: list[tuple[int, Card]] = []  # the draw for the first button, in order
        self.events: list[TableEvent] = []
        self._players: dict[int, SeatRecord] = {}
        self._short_buy_ins: set[str] = set()
        self._reserved: dict[int, str] = {}  # seats won in a draw, until the winner sits
        self._order: tuple[int, ...] = ()  # seats in deal order for the current or last hand
        self._paid = 0  # participation fees paid for the current or last hand
        self._start: tuple[int, ...] = ()  # stacks in deal order when the hand was dealt
        self._open = False  # a hand started and not yet finished
        self._summary: HandSummary | None = None
        self._big_blinds: list[int | None] = []  # the big blind's seat, hand by hand
        self._correction: Positions | None = None  # placed by the floor for the next hand
        self._schedule: list[Schedule] = []
        self._clock = TimeClock()

    def _record(self, *events: TableEvent) -> None:
        for event in events:
            self._apply(event)
            self.events.append(event)

    def _apply(self, event: TableEvent) -> None:
        players = self._players
        if isinstance(event, Seated):
            short = event.chips < self.buy_in.minimum and not event.transfer
            if short:
                self._short_buy_ins.add(event.name)
            entry = None if self.hands == 0 else _ENTRY[self.new_player]
            players[event.seat] = SeatRecord(
                event.name, event.chips, self.hands, entry, owes_big=entry is State.POST
            )
            self._reserved.pop(event.seat, None)
        elif isinstance(event, Left):
            del players[event.seat]
        elif isinstance(event, ChipsAdded):
            players[event.seat].chips += event.chips
        elif isinstance(event, SteppedAway):
            away = players[event.seat]
            away.away, away.approved = True, event.approved
        elif isinstance(event, CameBack):
            players[event.seat].away = False
        elif isinstance(event, SeatChanged):
            moved = players.pop(event.seat)
            moved.entry = None if self.hands == 0 else _ENTRY[self.new_player]
            moved.owes_big = moved.entry is State.POST
            players[event.to] = moved
        elif isinstance(event, SeatAssigned):
            self._reserved[event.seat] = event.name
        elif isinstance(event, SeatDraw):
            pass  # the draw's result is the SeatAssigned that follows
        elif isinstance(event, RulesChanged):
            self.rules = event.rules
        elif isinstance(event, SettingsScheduled):
            self._schedule.append(Schedule(event.hand, event.rules, event.buy_in))
        elif isinstance(event, SettingsChanged):
            self._schedule = [s for s in self._schedule if s.hand > event.hand]
            self.rules = event.rules or self.rules
            self.buy_in = event.buy_in or self.buy_in
        elif isinstance(event, TimeCharged):
            players[event.seat].chips -= event.amount
            self.commission += event.amount
            self._clock.paid[players[event.seat].name] = event.period
            if self._clock.start is None:
                self._clock.start = event.start
        elif isinstance(event, ButtonDraw):
            self.draw.extend(event.draws)
        elif isinstance(event, ButtonCorrected):
            self._correction = Positions(event.button, event.blinds)
        elif isinstance(event, BlindsMissed):
            owing = players[event.seat]
            owing.owes_small = owing.owes_small or event.small
            owing.owes_big = owing.owes_big or event.big
        elif isinstance(event, FeePaid):
            players[event.seat].chips -= event.amount
            self.commission += event.amount
            self._paid += event.amount
        elif isinstance(event, ButtonPlaced):
            self.button, self.positions = event.seat, Positions(event.seat, event.blinds)
            self._correction = None
        elif isinstance(event, HandStarted):
            self.hands, self._order, self._start = event.number, event.seats, event.stacks
            self.carried -= event.forced.carried
            self._open, self._summary = True, None
            big = self.positions.big_blind if self.positions else None
            self._big_blinds.append(big if big in event.seats else None)
            for seat in event.seats:
                player = players[seat]
                player.entry, player.owes_small, player.owes_big = None, False, False
                player.dealt, player.approved = event.number, False
        elif isinstance(event, HandFinished):
            for seat, chips in event.stacks:
                players[seat].chips = chips
            self.commission += event.commission - self._paid  # the fees are counted already
            self.carried += event.carried
            self._open, self._paid = False, 0
        elif not isinstance(event, ClockCalled | ClockExpired | Redeal):
            raise TableError(f"not a table event: {event!r}")

    def restore(self, events: Sequence[TableEvent], hand: Hand | None = None) -> None:
        """Rebuild this table (made with the same settings, no events yet) from ``events``.
        ``hand``: the hand in progress, rebuilt from its own log, when the last one is open."""
        if self.events:
            raise TableError("restore a table built afresh, with no events of its own")
        self._record(*events)
        if hand is not None:
            if not self._open or tuple(hand.starting) != self._start:
                raise TableError("the hand given is not the table's open hand")
            self.hand = hand


_ENTRY = {NewPlayer.WAIT: State.WAIT, NewPlayer.POST: State.POST, NewPlayer.PLAY: State.PLAY}
