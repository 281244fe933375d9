"""What a tournament asks of a table, and what it expects back: one hand at a time.

The tournament decides who is dealt in, where the button and the blinds are (league 12's dead
button), the forced bets of the level and who is absent; the table plays the hand and returns
every dealt seat's chips. Any table engine that does this can run a tournament: the driver in
:mod:`croupier.tournament.driver` does it with ``croupier.hand.Hand`` and bots.

What the table must do with a :class:`HandSetup`:

- deal to ``seats`` in that order (the first after the button; the last acts last after the
  flop), with the button on ``button`` even when that seat is empty (a dead button);
- post the forced bets: ``small_blind`` (none when ``small_blind`` is ``None``: a dead small
  blind, league 12), ``big_blind`` from the seat that owes it even when a player who would
  have posted before it was eliminated (league 12), ``ante`` from every player dealt in and the
  ``big_blind_ante`` from the big blind; a player short of a forced bet is all in for what they
  have; bets in multiples of ``chip_unit``, the smallest chip in play (league 18);
- for an ``absent`` seat (absent, or sitting out a penalty, league 35): post its forced bets
  from its own stack (league 25: nobody else may touch a player's chips, blinds aside), and
  kill its hand at the first card (league 27): it is mucked, takes no action, and wins
  nothing; its forced bets stay in the pot;
- return the chips of every dealt seat after the hand (the total unchanged: tournament chips
  carry no commission).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

__all__ = ["ForcedBets", "HandPlayer", "HandResult", "HandSetup", "SeatInHand"]


@dataclass(frozen=True)
class ForcedBets:
    """The level's forced bets, and the smallest chip in play."""

    small_blind: int
    big_blind: int
    ante: int = 0
    big_blind_ante: int = 0
    chip_unit: int = 1


@dataclass(frozen=True)
class SeatInHand:
    seat: int
    player: str
    chips: int
    absent: bool = False  # league 25, 27: blinds posted for them, the hand mucked


@dataclass(frozen=True)
class HandSetup:
    """One hand for one table (module docstring: what the table must do with it)."""

    table: int
    hand: int  # the table's hand number, from 1
    seats: tuple[SeatInHand, ...]  # in deal order: first after the button, the button last
    button: int  # the button's seat; it may be empty (dead button)
    small_blind: int | None  # the seat posting the small blind; None: no small blind
    big_blind: int  # the seat posting the big blind
    forced: ForcedBets
    table_size: int
    seed: int  # for a seeded shuffle and seeded bots: the same seed, the same hand

    @property
    def heads_up(self) -> bool:
        return len(self.seats) == 2


@dataclass(frozen=True)
class HandResult:
    """The chips of every seat dealt in, after the hand."""

    stacks: Mapping[int, int]


class HandPlayer(Protocol):
    """Plays one hand at a table: the interface a tournament drives a table engine through."""

    def play(self, setup: HandSetup) -> HandResult: ...
