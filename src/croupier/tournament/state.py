"""The tournament's state, made only by applying its events, and what can be read from it.

:class:`TournamentState` holds the players, the tables, the clock, the money and the chips;
:meth:`TournamentState.apply` is the one place that changes them. The commands that decide
what happens live in :mod:`croupier.tournament.core`; they check, then emit events here.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from croupier.tournament import events as ev
from croupier.tournament.clock import StageClock
from croupier.tournament.interface import ForcedBets
from croupier.tournament.payouts import prizes, split
from croupier.tournament.seating import Positions, hands_until_big_blind
from croupier.tournament.settings import (
    Break,
    Level,
    Purchase,
    TournamentError,
    TournamentSettings,
)

__all__ = ["PlayerRecord", "Standing", "Status", "TableRecord", "TournamentState"]


class Status(enum.Enum):
    REGISTERED = "registered"  # entered, waiting for the start or for a seat
    PLAYING = "playing"
    OUT = "out"  # eliminated (may re-enter while registration is open)
    DISQUALIFIED = "disqualified"  # eliminated by the director (league 36)


@dataclass
class PlayerRecord:
    name: str
    status: Status = Status.REGISTERED
    chips: int = 0
    table: int | None = None
    seat: int | None = None
    entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    absent: bool = False
    penalty_hands: int = 0
    penalty_until: float | None = None


@dataclass
class TableRecord:
    number: int
    size: int
    seats: dict[int, str] = field(default_factory=dict)
    positions: Positions | None = None  # of the hand in progress, or the last one
    hand: ev.HandStarted | None = None  # in progress
    hands: int = 0
    drawn: int | None = None  # the button's seat by the draw (league 2), before the first hand

    @property
    def live(self) -> list[int]:
        return sorted(self.seats)

    def hands_until_big_blind(self, seat: int) -> int | None:
        """League 14's position of ``seat`` (a player's, or an empty one), ``None`` before
        the table's first hand."""
        if self.positions is None:
            return None
        return hands_until_big_blind(self.seats, self.positions.big_blind, seat)


@dataclass(frozen=True)
class Standing:
    """A player's finishing place (``None`` while still playing) and prize; ``tied``: with
    other players out in the same hand with the same stack, sharing their places' prizes."""

    place: int | None
    player: str
    prize: int
    tied: bool = False


@dataclass
class _Out:
    player: str
    cause: int
    stack: int
    order: int


class TournamentState:
    """A tournament as its events have made it (read it; change it through the commands)."""

    def __init__(self, settings: TournamentSettings, seed: int) -> None:
        if not isinstance(settings, TournamentSettings):
            raise TournamentError(f"settings must be TournamentSettings, got {settings!r}")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TournamentError(f"the seed must be a whole number, got {seed!r}")
        self.settings = settings
        self.seed = seed
        self.events: list[ev.TournamentEvent] = []
        self.players: dict[str, PlayerRecord] = {}
        self.tables: dict[int, TableRecord] = {}
        self.clock: StageClock | None = None
        self.registration_open = True
        self.finished = False
        self.winner: str | None = None
        self.in_play = settings.in_play(0)
        self.entries = 0  # buy-ins and re-entries
        self.prize_pool = 0
        self.fees = 0
        self.chips_issued = 0
        self.chips_removed = 0  # by the director (league 36)
        self.chips_adjusted = 0  # by a colour-up's rounding (only after a removal)
        self.hands_played = 0
        self.players_left = 0  # players in the tournament (status PLAYING)
        self.seats_total = 0  # seats at the open tables
        self._out: list[_Out] = []
        self._apply: dict[type, Callable[[Any], None]] = {
            ev.Registered: self._registered,
            ev.Rebought: self._rebought,
            ev.AddedOn: self._added_on,
            ev.Started: self._started,
            ev.RegistrationClosed: self._registration_closed,
            ev.StageStarted: self._stage_started,
            ev.ClockPaused: self._clock_paused,
            ev.ClockResumed: self._clock_resumed,
            ev.TimeAdded: self._time_added,
            ev.TableOpened: self._table_opened,
            ev.TableClosed: self._table_closed,
            ev.Seated: self._seated,
            ev.ButtonDrawn: self._button_drawn,
            ev.HandStarted: self._hand_started,
            ev.HandFinished: self._hand_finished,
            ev.Eliminated: self._eliminated,
            ev.MarkedAbsent: self._marked_absent,
            ev.MarkedPresent: self._marked_present,
            ev.Penalised: self._penalised,
            ev.Disqualified: self._disqualified,
            ev.ChippedUp: self._chipped_up,
            ev.Finished: self._finished,
        }

    _SKIP = frozenset({"_apply", "clock_source"})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TournamentState):
            return NotImplemented
        mine = {k: v for k, v in vars(self).items() if k not in self._SKIP}
        theirs = {k: v for k, v in vars(other).items() if k not in self._SKIP}
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]

    def apply(self, event: ev.TournamentEvent) -> None:
        """Append ``event`` to the log and change the state as it says."""
        handler = self._apply.get(type(event))
        if handler is None:
            raise TournamentError(f"not a tournament event: {event!r}")
        self.events.append(event)
        handler(event)

    # --- reading -----------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.clock is not None

    @property
    def stage(self) -> int:
        return self.clock.stage if self.clock is not None else 0

    @property
    def level(self) -> Level:
        """The level in force (during a break: the level that follows it)."""
        return self.settings.playing_level(self.stage)

    @property
    def level_number(self) -> int:
        return self.settings.level_number(self.stage)

    @property
    def on_break(self) -> bool:
        return isinstance(self.settings.stages[self.stage], Break)

    @property
    def paused(self) -> bool:
        return self.clock is not None and self.clock.paused

    def remaining(self, now: float) -> float | None:
        """Seconds left in the stage at ``now`` (``None`` in the last level, which lasts)."""
        if self.clock is None or self.stage == len(self.settings.stages) - 1:
            return None
        return self.clock.remaining(now, self.settings.stages[self.stage].seconds)

    def forced_bets(self) -> ForcedBets:
        level = self.level
        return ForcedBets(
            level.small_blind, level.big_blind, level.ante, level.big_blind_ante, self.in_play[0]
        )

    def alive(self) -> list[str]:
        """Players still in, in registration order."""
        return [p.name for p in self.players.values() if p.status is Status.PLAYING]

    @property
    def chips_in_play(self) -> int:
        """Chips in front of the players still in (chips bet in a hand in progress count as
        their owners' until the hand ends)."""
        return sum(p.chips for p in self.players.values() if p.status is Status.PLAYING)

    @property
    def chips_expected(self) -> int:
        """What conservation says is in play: all chips sold, less those the director removed,
        plus any colour-up rounding."""
        return self.chips_issued - self.chips_removed + self.chips_adjusted

    def average_stack(self) -> float:
        left = self.players_left
        return self.chips_in_play / left if left else 0.0

    def table_of(self, player: str) -> TableRecord | None:
        record = self._player(player)
        return self.tables[record.table] if record.table is not None else None

    def in_hand(self, player: str) -> bool:
        """Whether ``player`` is dealt into a hand still being played."""
        table = self.table_of(player)
        if table is None or table.hand is None:
            return False
        return any(name == player for _, name, _ in table.hand.dealt)

    def prizes(self) -> tuple[int, ...]:
        """The prizes for places 1, 2, ... as the field stands (league silent: house plan)."""
        if not self.entries:
            return ()
        people = sum(1 for p in self.players.values() if p.entries)
        return prizes(self.settings.payouts, self.prize_pool, self.entries, people)

    def standings(self) -> list[Standing]:
        """Places from the eliminations so far: later out is higher; out in the same hand, the
        bigger stack at the hand's start is higher; equal stacks tie and share their places'
        prizes (the league book has no tie rule; odd money units go one each from the
        button's left, as the odd chip does in league 15). Players still in have no place,
        except the winner."""
        table = self.prizes() if self.entries else ()
        left = self.alive()
        result = []
        if self.finished and self.winner is not None:
            result.append(Standing(1, self.winner, table[0] if table else 0))
        else:
            result.extend(Standing(None, name, 0) for name in left)
        place = len(left) + 1
        groups: dict[tuple[int, int], list[_Out]] = {}
        for out in self._out:
            groups.setdefault((out.cause, out.stack), []).append(out)
        for key in sorted(groups, reverse=True):
            group = sorted(groups[key], key=lambda o: o.order)
            places = range(place, place + len(group))
            money = sum(table[p - 1] for p in places if p <= len(table))
            for offset, (out, prize) in enumerate(
                zip(group, split(money, len(group)), strict=True)
            ):
                result.append(Standing(place + offset, out.player, prize, len(group) > 1))
            place += len(group)
        return result

    def _player(self, name: str) -> PlayerRecord:
        record = self.players.get(name)
        if record is None:
            raise TournamentError(f"{name!r} is not registered in this tournament")
        return record

    # --- applying events ---------------------------------------------------------------------

    def _registered(self, e: ev.Registered) -> None:
        record = self.players.setdefault(e.player, PlayerRecord(e.player))
        record.entries = e.entry
        record.status = Status.REGISTERED
        record.chips = e.purchase.chips
        record.rebuys = record.add_ons = 0
        record.absent, record.penalty_hands, record.penalty_until = False, 0, None
        self._out = [o for o in self._out if o.player != e.player]  # a re-entry voids the bust
        self._buy(e.purchase)
        self.entries += 1

    def _buy(self, purchase: Purchase) -> None:
        self.prize_pool += purchase.to_pool
        self.fees += purchase.fee
        self.chips_issued += purchase.chips

    def _rebought(self, e: ev.Rebought) -> None:
        record = self.players[e.player]
        record.rebuys += 1
        record.chips += e.purchase.chips
        self._buy(e.purchase)

    def _added_on(self, e: ev.AddedOn) -> None:
        record = self.players[e.player]
        record.add_ons += 1
        record.chips += e.purchase.chips
        self._buy(e.purchase)

    def _started(self, e: ev.Started) -> None:
        self.clock = StageClock(0, e.at)

    def _registration_closed(self, e: ev.RegistrationClosed) -> None:
        self.registration_open = False

    def _stage_started(self, e: ev.StageStarted) -> None:
        self.clock = StageClock(e.stage, e.at)

    def _clock_paused(self, e: ev.ClockPaused) -> None:
        assert self.clock is not None
        self.clock = self.clock.pause(e.at)

    def _clock_resumed(self, e: ev.ClockResumed) -> None:
        assert self.clock is not None
        self.clock = self.clock.resume(e.at)

    def _time_added(self, e: ev.TimeAdded) -> None:
        assert self.clock is not None
        stage = self.settings.stages[self.stage]
        self.clock = self.clock.add(e.seconds, e.at, stage.seconds)

    def _table_opened(self, e: ev.TableOpened) -> None:
        self.tables[e.table] = TableRecord(e.table, e.size)
        self.seats_total += e.size

    def _table_closed(self, e: ev.TableClosed) -> None:
        table = self.tables.pop(e.table)
        self.seats_total -= table.size
        for name in table.seats.values():
            record = self.players[name]
            record.table = record.seat = None

    def _seated(self, e: ev.Seated) -> None:
        record = self.players[e.player]
        if record.table is not None and record.seat is not None:
            del self.tables[record.table].seats[record.seat]
        self.tables[e.table].seats[e.seat] = e.player
        record.table, record.seat = e.table, e.seat
        if record.status is not Status.PLAYING:
            record.status = Status.PLAYING
            self.players_left += 1

    def _button_drawn(self, e: ev.ButtonDrawn) -> None:
        self.tables[e.table].drawn = e.button

    def _hand_started(self, e: ev.HandStarted) -> None:
        table = self.tables[e.table]
        table.hand, table.positions = e, e.positions
        table.hands = e.hand
        absent = set(e.absent)
        for seat, name, _ in e.dealt:
            record = self.players[name]
            if seat in absent and record.penalty_hands:
                record.penalty_hands -= 1

    def _hand_finished(self, e: ev.HandFinished) -> None:
        table = self.tables[e.table]
        assert table.hand is not None
        owners = {seat: name for seat, name, _ in table.hand.dealt}
        for seat, chips in e.stacks:
            self.players[owners[seat]].chips = chips
        table.hand = None
        self.hands_played += 1

    def _eliminated(self, e: ev.Eliminated) -> None:
        record = self.players[e.player]
        self._unseat(record)
        record.status, record.chips = Status.OUT, 0
        self.players_left -= 1
        self._out.append(_Out(e.player, e.cause, e.stack, e.order))

    def _unseat(self, record: PlayerRecord) -> None:
        if record.table is not None and record.seat is not None:
            del self.tables[record.table].seats[record.seat]
        record.table = record.seat = None

    def _marked_absent(self, e: ev.MarkedAbsent) -> None:
        self.players[e.player].absent = True

    def _marked_present(self, e: ev.MarkedPresent) -> None:
        self.players[e.player].absent = False

    def _penalised(self, e: ev.Penalised) -> None:
        record = self.players[e.player]
        record.penalty_hands, record.penalty_until = e.hands, e.until

    def _disqualified(self, e: ev.Disqualified) -> None:
        record = self.players[e.player]
        self._unseat(record)
        self.chips_removed += e.chips
        record.status, record.chips = Status.DISQUALIFIED, 0
        self.players_left -= 1
        self._out.append(_Out(e.player, len(self.events) - 1, e.chips, 0))

    def _chipped_up(self, e: ev.ChippedUp) -> None:
        colour = e.colour_up
        for name, chips in colour.stacks:
            self.players[name].chips = chips
        self.chips_adjusted += colour.adjustment
        self.in_play = tuple(d for d in self.in_play if d != colour.removed)

    def _finished(self, e: ev.Finished) -> None:
        self.finished = True
        self.winner = e.winner
