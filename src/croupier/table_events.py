"""What a table does between and around hands, as events.

:attr:`croupier.table.Table.events` keeps them in order, as a hand keeps its own. Every change to
a table's state is one of these events, applied as it is recorded, so a table built with the
same settings and fed the same events (:meth:`croupier.table.Table.restore`) is the same table.
A server persists them; the hands' own logs are kept beside them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from croupier.cards import Card
from croupier.forced import ForcedBets
from croupier.rules import Rules

if TYPE_CHECKING:
    from croupier.table_state import BuyIn

__all__ = [
    "BlindsMissed",
    "ButtonCorrected",
    "ButtonDraw",
    "ButtonPlaced",
    "CameBack",
    "ChipsAdded",
    "ClockCalled",
    "ClockExpired",
    "FeePaid",
    "HandFinished",
    "HandStarted",
    "Left",
    "Redeal",
    "RulesChanged",
    "SeatAssigned",
    "SeatChanged",
    "SeatDraw",
    "Seated",
    "SettingsChanged",
    "SettingsScheduled",
    "SteppedAway",
    "TableEvent",
    "TimeCharged",
]


@dataclass(frozen=True)
class TableEvent:
    """Something the table did between or around hands."""


@dataclass(frozen=True)
class Seated(TableEvent):
    seat: int
    name: str
    chips: int
    transfer: bool = False  # moved from a broken or must-move game (cardroom buy-in 3)


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
class SteppedAway(TableEvent):
    """The player keeps the seat but is dealt out from the next hand; ``approved``: by a floor
    manager, so the stake may be below the minimum on return (qld s19(5)-(6))."""

    seat: int
    approved: bool = False


@dataclass(frozen=True)
class CameBack(TableEvent):
    seat: int


@dataclass(frozen=True)
class SeatChanged(TableEvent):
    """A seated player moved to another seat of the table (au 11.1(a); qld s16(2))."""

    seat: int
    to: int


@dataclass(frozen=True)
class SeatDraw(TableEvent):
    """A draw of cards for a seat: each claimant's cards in the order drawn, and the winner
    (au 11.1(a); qld s16(1), (3)-(4))."""

    seat: int
    draws: tuple[tuple[str, Card], ...]
    winner: str


@dataclass(frozen=True)
class SeatAssigned(TableEvent):
    """Who gets a seat, and why ('free', 'draw', or the priority group that won it)."""

    seat: int
    name: str
    reason: str


@dataclass(frozen=True)
class RulesChanged(TableEvent):
    rules: Rules


@dataclass(frozen=True)
class SettingsScheduled(TableEvent):
    """A change of game, limits, buy-in or commission, effective from hand ``hand`` (au 7.3,
    8.3); ``agreed``: every player agreed, so no notice was needed."""

    hand: int
    rules: Rules | None
    buy_in: BuyIn | None
    agreed: bool = False


@dataclass(frozen=True)
class SettingsChanged(TableEvent):
    hand: int
    rules: Rules | None
    buy_in: BuyIn | None


@dataclass(frozen=True)
class TimeCharged(TableEvent):
    """A time charge paid in advance for the period starting at ``start`` (au 8.2(c)); a
    player short of it pays what they have."""

    seat: int
    amount: int
    period: int  # 0 for the table's first period
    start: float


@dataclass(frozen=True)
class ButtonDraw(TableEvent):
    """The draw for the first button: each seat's cards in the order drawn."""

    draws: tuple[tuple[int, Card], ...]
    button: int


@dataclass(frozen=True)
class ButtonCorrected(TableEvent):
    """The floor places the next hand's button and blinds (cardroom irregularities 1)."""

    button: int
    blinds: tuple[int, ...]


@dataclass(frozen=True)
class BlindsMissed(TableEvent):
    """An away player passed by the blinds: they owe them on return (house rule)."""

    seat: int
    small: bool
    big: bool


@dataclass(frozen=True)
class FeePaid(TableEvent):
    """A participation fee, paid before the round starts (qld s20(2), s21(2))."""

    seat: int
    amount: int


@dataclass(frozen=True)
class ButtonPlaced(TableEvent):
    """Where the button is for the next hand and the seats due each blind; ``dead``: the
    button's seat is empty or dealt out (au 1.1 'Dead Button')."""

    seat: int
    dead: bool
    blinds: tuple[int, ...]


@dataclass(frozen=True)
class HandStarted(TableEvent):
    number: int
    seats: tuple[int, ...]  # in deal order: the button (when dealt in) last
    stacks: tuple[int, ...]  # as dealt, after any participation fee
    forced: ForcedBets
    deck: str = "fresh"  # "fresh": shuffled for this hand (au 6.1); "given": a stacked deck


@dataclass(frozen=True)
class Redeal(TableEvent):
    """Hand ``voided`` is dealt again: the same seats, button and forced bets, a fresh shuffle,
    no fee charged twice (au 19.1; qld s32(3)). Its ButtonPlaced and HandStarted follow."""

    voided: int


@dataclass(frozen=True)
class HandFinished(TableEvent):
    number: int
    stacks: tuple[tuple[int, int], ...]  # (seat, chips) after the hand
    commission: int  # rake and participation fees of this hand
    busted: tuple[int, ...]
    carried: int = 0  # forfeited in a void hand, for the next deal (cardroom irregularities 6)


@dataclass(frozen=True)
class ClockCalled(TableEvent):
    """The clock is called on the player to act: they must act by ``deadline`` (cardroom
    dead-hands 1(f))."""

    seat: int
    seconds: float
    deadline: float


@dataclass(frozen=True)
class ClockExpired(TableEvent):
    """The clock ran out: ``dead``: facing a bet, the hand is dead (cardroom dead-hands 1(f));
    otherwise the player checks."""

    seat: int
    dead: bool
