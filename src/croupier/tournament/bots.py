"""The bots a tournament is run with from the command line and the benchmark.

``random`` (:class:`~croupier.bots.RandomBot`) moves all in often, so a field of them is down to
a winner in a few hundred hands; ``tight`` (:class:`TightBot`) plays the long tournament a room
sees, through every level and colour-up; ``calling`` and ``strength`` are
:mod:`croupier.bots`' calling station and hand-strength bot.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from croupier.betting import Legal
from croupier.bots import Action, Bot, CallingStation, RandomBot, SeatView, StrengthBot
from croupier.tournament.settings import TournamentError

__all__ = ["BOTS", "TightBot", "bots_for", "check_kinds"]


class TightBot:
    """Folds three times in four when facing a bet; raises (mostly the minimum) 7% of the time."""

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        roll = rng.random()
        if legal.call and roll < 0.75:
            return Action.fold()
        if legal.raise_range is not None and roll > 0.93:
            low, high = legal.raise_range
            return Action.bet_or_raise_to(low if rng.random() < 0.8 else high)
        return Action.check_or_call()

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw()

    def __repr__(self) -> str:
        return "TightBot()"


BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "tight": TightBot,
    "calling": CallingStation,
    "strength": StrengthBot,
}


def check_kinds(kinds: Sequence[str]) -> None:
    """Raise :class:`TournamentError` unless ``kinds`` names one or more of :data:`BOTS`."""
    if not kinds:
        raise TournamentError(f"name at least one kind of bot: {', '.join(BOTS)}")
    unknown = [kind for kind in kinds if kind not in BOTS]
    if unknown:
        raise TournamentError(f"no bot called {unknown[0]!r}: the bots are {', '.join(BOTS)}")


def bots_for(kinds: Sequence[str], players: Sequence[str]) -> dict[str, Bot]:
    """Each player's bot: the ``kinds`` in turn over ``players`` (one bot object per kind)."""
    check_kinds(kinds)
    made = {kind: BOTS[kind]() for kind in dict.fromkeys(kinds)}
    return {name: made[kinds[i % len(kinds)]] for i, name in enumerate(players)}
