"""What a hand is doing (:class:`Phase`) and the dealer step that is due (:class:`Step`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from croupier.forced import BlindKind
from croupier.frozen import Frozen

__all__ = ["Phase", "Step", "StepKind"]


class Phase(enum.Enum):
    DEALING = "dealing"  # a dealer step is due (explicit dealing): see Hand.next_step
    BETTING = "betting"  # a player is to check, call, bet, raise or fold
    DRAWING = "drawing"  # a player is to discard or stand pat
    SHOWDOWN = "showdown"  # a player is to show or muck (explicit showdown)
    OVER = "over"


class StepKind(enum.Enum):
    BURN = "burn"
    HOLE = "hole"  # a player's cards of this street: face down, then face up (stud)
    BOARD = "board"
    REPLACE = "replace"  # a drawing player's replacements
    SHOW = "show"  # a player shows or mucks at the showdown
    PUSH = "push"  # the pots are settled (held back while a hand may still be asked to show)


@dataclass(frozen=True)
class Step(Frozen):
    """A dealer step that is due: what, for whom (-1: nobody in particular) and how many cards
    (``up`` of them face up)."""

    kind: StepKind
    player: int = -1
    count: int = 0
    up: int = 0

    def __init__(self, kind: StepKind, player: int = -1, count: int = 0, up: int = 0) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "up", up)

    def __str__(self) -> str:
        whom = f" p{self.player + 1}" if self.player >= 0 else ""
        cards = f" {self.count} card{'s' * (self.count != 1)}" if self.count else ""
        return f"{self.kind.value}{whom}{cards}"


# Final: compiled, each is a C static, not a look-up in the module's dictionary at every use.
_BURN: Final = StepKind.BURN
_HOLE: Final = StepKind.HOLE
_BOARD: Final = StepKind.BOARD
_REPLACE: Final = StepKind.REPLACE
_SHOW: Final = StepKind.SHOW
_PUSH: Final = StepKind.PUSH
_DEAD: Final = BlindKind.DEAD
