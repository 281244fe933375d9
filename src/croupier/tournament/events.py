"""Everything that happens in a tournament is one of these frozen records, appended to its log.

A tournament is rebuilt from its settings, its seed and this log to an equal state: every
random outcome (seat draws, dealer draws, chip races) and every automatic decision (eliminations,
balancing moves, table breaks) is written here, not recomputed. ``at`` is the time in seconds
from the tournament's clock; a stage's start is the exact moment the previous one ended.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from croupier.cards import Card
from croupier.tournament.chips import ColourUp
from croupier.tournament.seating import Positions
from croupier.tournament.settings import Purchase

__all__ = [
    "AddedOn",
    "ButtonDrawn",
    "ChippedUp",
    "ClockPaused",
    "ClockResumed",
    "Disqualified",
    "Eliminated",
    "Finished",
    "HandFinished",
    "HandStarted",
    "MarkedAbsent",
    "MarkedPresent",
    "Penalised",
    "Rebought",
    "Registered",
    "RegistrationClosed",
    "SeatReason",
    "Seated",
    "StageStarted",
    "Started",
    "TableClosed",
    "TableOpened",
    "TimeAdded",
    "TournamentEvent",
]


@dataclass(frozen=True, slots=True)
class TournamentEvent:
    at: float


@dataclass(frozen=True, slots=True)
class Registered(TournamentEvent):
    """A buy-in (``entry`` 1) or a re-entry (``entry`` 2, 3, ...)."""

    player: str
    entry: int
    purchase: Purchase


@dataclass(frozen=True, slots=True)
class Rebought(TournamentEvent):
    player: str
    purchase: Purchase


@dataclass(frozen=True, slots=True)
class AddedOn(TournamentEvent):
    player: str
    purchase: Purchase


@dataclass(frozen=True, slots=True)
class Started(TournamentEvent):
    """The clock starts the first level."""


@dataclass(frozen=True, slots=True)
class RegistrationClosed(TournamentEvent):
    """No more entries or re-entries (league 19: late registration ends)."""


@dataclass(frozen=True, slots=True)
class StageStarted(TournamentEvent):
    stage: int  # index into the settings' stages


@dataclass(frozen=True, slots=True)
class ClockPaused(TournamentEvent):
    pass


@dataclass(frozen=True, slots=True)
class ClockResumed(TournamentEvent):
    pass


@dataclass(frozen=True, slots=True)
class TimeAdded(TournamentEvent):
    seconds: int


@dataclass(frozen=True, slots=True)
class TableOpened(TournamentEvent):
    table: int
    size: int  # seats 1..size


@dataclass(frozen=True, slots=True)
class TableClosed(TournamentEvent):
    """A table broken (its players were moved first) or closed for the final-table redraw."""

    table: int


class SeatReason(enum.Enum):
    DRAW = "draw"  # the seat draw at the start
    LATE = "late"  # a late registration or a re-entry
    BALANCE = "balance"  # moved to balance the tables (league 14)
    BREAK = "break"  # moved from a broken table (league 14 as far as the seats allow)
    FINAL = "final"  # the final-table redraw
    DIRECTOR = "director"  # moved by the director


@dataclass(frozen=True, slots=True)
class Seated(TournamentEvent):
    """A player takes a seat (leaving any seat they had). ``before``/``after``: for a move, the
    hands until the player's big blind at the old table and at the new seat (league 14), when
    the tables had played hands."""

    player: str
    table: int
    seat: int
    reason: SeatReason
    before: int | None = None
    after: int | None = None


@dataclass(frozen=True, slots=True)
class ButtonDrawn(TournamentEvent):
    """League 2: the draw for the button at a table's first hand; ties drew again."""

    table: int
    draws: tuple[tuple[int, Card], ...]
    button: int


@dataclass(frozen=True, slots=True)
class HandStarted(TournamentEvent):
    """A hand handed to a table. ``dealt``: (seat, player, chips) in deal order; ``absent``:
    seats whose players are absent or sitting out a penalty (league 25, 27, 35)."""

    table: int
    hand: int
    stage: int
    positions: Positions
    dealt: tuple[tuple[int, str, int], ...]
    absent: tuple[int, ...]
    waiting: tuple[int, ...]
    seed: int


@dataclass(frozen=True, slots=True)
class HandFinished(TournamentEvent):
    table: int
    hand: int
    stacks: tuple[tuple[int, int], ...]  # (seat, chips) for every seat dealt in


@dataclass(frozen=True, slots=True)
class Eliminated(TournamentEvent):
    """A player out of chips. ``cause``: the log index of the hand, race or ruling that put them
    out; players out by the same cause are ordered by ``stack``, their chips before it."""

    player: str
    cause: int
    stack: int
    order: int  # position clockwise from the button in that hand (0: first left of it)


@dataclass(frozen=True, slots=True)
class MarkedAbsent(TournamentEvent):
    player: str


@dataclass(frozen=True, slots=True)
class MarkedPresent(TournamentEvent):
    player: str


@dataclass(frozen=True, slots=True)
class Penalised(TournamentEvent):
    """League 35: the player sits out ``hands`` hands (orbits counted at the table) or until
    ``until`` (a period of time)."""

    player: str
    hands: int
    until: float | None


@dataclass(frozen=True, slots=True)
class Disqualified(TournamentEvent):
    """League 36: the director eliminates the player; their ``chips`` leave play."""

    player: str
    chips: int


@dataclass(frozen=True, slots=True)
class ChippedUp(TournamentEvent):
    """League 18, 48: a denomination coloured up, with the chip races."""

    colour_up: ColourUp


@dataclass(frozen=True, slots=True)
class Finished(TournamentEvent):
    winner: str
