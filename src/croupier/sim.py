"""Bots playing many hands, on one core or all of them, with the same results either way.

Every hand is independent: it starts from the same stacks, its button is at seat ``i % seats``
and its deck and bot decisions are seeded by ``(seed, i)`` alone. So hand ``i`` plays the same
whatever the number of workers, and the summary (integer sums) is identical for any split.
Histories, when saved, stream to the file chunk by chunk, in hand order; nothing else is kept.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from croupier import events as ev
from croupier.bots import Bot, CallingStation, RandomBot, StrengthBot, play_hand
from croupier.deck import Deck, SeededShuffler
from croupier.events import HOUSE
from croupier.hand import Hand, Rules
from croupier.history import dump_event_log

__all__ = ["BOTS", "SeatResult", "SimError", "SimResult", "simulate"]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "calling": CallingStation,
    "strength": lambda: StrengthBot(trials=60),
}
CHUNK = 250  # hands per task: small enough for a smooth progress bar


class SimError(ValueError):
    """A simulation that cannot run as asked (seats, bot kinds, hands)."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    bot: str
    net: int  # chips won (lost if negative) over all hands
    mean: float  # per hand
    half_width: float  # of the 95% confidence interval of the mean


@dataclass(frozen=True)
class SimResult:
    hands: int
    seats: tuple[SeatResult, ...]
    commission: int
    showdowns: int

    @property
    def showdown_rate(self) -> float:
        return self.showdowns / self.hands if self.hands else 0.0


@dataclass
class _Totals:
    """Integer sums over hands: adding them in any order gives the same totals."""

    hands: int = 0
    net: list[int] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    commission: int = 0
    showdowns: int = 0

    def add(self, other: _Totals) -> None:
        if not self.net:
            self.net = [0] * len(other.net)
            self.squares = [0] * len(other.net)
        self.hands += other.hands
        self.commission += other.commission
        self.showdowns += other.showdowns
        for seat, (net, square) in enumerate(zip(other.net, other.squares, strict=True)):
            self.net[seat] += net
            self.squares[seat] += square


@dataclass(frozen=True)
class _Task:
    rules: Rules
    bots: tuple[str, ...]
    stack: int
    seed: int
    first: int
    count: int
    keep: bool  # return the hands' records (for --save)


def _play_chunk(task: _Task) -> tuple[_Totals, list[str]]:
    seats = len(task.bots)
    totals = _Totals(net=[0] * seats, squares=[0] * seats)
    records: list[str] = []
    bots = [BOTS[kind]() for kind in task.bots]
    for index in range(task.first, task.first + task.count):
        button = index % seats
        order = [(button + 1 + p) % seats for p in range(seats)]  # deal order -> seat
        deck = Deck.shuffled(task.rules.deck, SeededShuffler(_mix(task.seed, index, 0)))
        hand = Hand(
            task.rules,
            [task.stack] * seats,
            deck,
            shuffler=SeededShuffler(_mix(task.seed, index, 1)),
        )
        play_hand(hand, [bots[seat] for seat in order], random.Random(_mix(task.seed, index, 2)))
        totals.hands += 1
        totals.commission += hand.commission
        totals.showdowns += any(isinstance(e, ev.Show) for e in hand.events)
        for player, seat in enumerate(order):
            net = hand.stacks[player] - task.stack
            totals.net[seat] += net
            totals.squares[seat] += net * net
        if task.keep:
            records.append(_record(index, order, hand))
    return totals, records


def _mix(seed: int, index: int, stream: int) -> int:
    """A seed for one hand's deck (0), reshuffles (1) or decisions (2), whatever the chunking."""
    digest = hashlib.blake2b(f"{seed}:{index}:{stream}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def _record(index: int, order: list[int], hand: Hand) -> str:
    """One JSON line per hand: its index, seats in deal order, the event log, final stacks."""
    # A simulation's record is the house's: every bot's cards, asked for by name.
    extra = {"hand": index, "seats": [seat + 1 for seat in order]}
    return dump_event_log(hand, HOUSE, extra=extra)


def _tasks(
    rules: Rules, bots: Sequence[str], stack: int, seed: int, hands: int, keep: bool
) -> Iterator[_Task]:
    for first in range(0, hands, CHUNK):
        yield _Task(rules, tuple(bots), stack, seed, first, min(CHUNK, hands - first), keep)


def simulate(
    rules: Rules,
    bots: Sequence[str],
    hands: int,
    *,
    stack: int,
    seed: int = 0,
    workers: int = 1,
    save: TextIO | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``hands`` independent hands between ``bots`` (kinds from :data:`BOTS`, one per
    seat). ``workers`` > 1 uses that many processes; the result is the same for any count."""
    unknown = [kind for kind in bots if kind not in BOTS]
    if unknown:
        raise SimError(f"unknown bot kind {unknown[0]!r}: expected one of {', '.join(BOTS)}")
    if hands < 1 or stack < 1 or workers < 1:
        raise SimError(f"hands, stack and workers must be positive: {hands}, {stack}, {workers}")
    rules.game.check(rules.deck, len(bots))
    totals = _Totals()
    tasks = _tasks(rules, bots, stack, seed, hands, save is not None)
    if workers == 1:
        results: Iterator[tuple[_Totals, list[str]]] = map(_play_chunk, tasks)
        _collect(results, totals, save, on_progress)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            _collect(pool.map(_play_chunk, tasks), totals, save, on_progress)
    return _summary(totals, bots)


def _collect(
    results: Iterator[tuple[_Totals, list[str]]],
    totals: _Totals,
    save: TextIO | None,
    on_progress: Callable[[int], None] | None,
) -> None:
    for chunk, records in results:  # in hand order, so the saved file is too
        totals.add(chunk)
        if save is not None:
            save.writelines(line + "\n" for line in records)
        if on_progress is not None:
            on_progress(chunk.hands)


def _summary(totals: _Totals, bots: Sequence[str]) -> SimResult:
    n = totals.hands
    seats = []
    for seat, kind in enumerate(bots):
        mean = totals.net[seat] / n
        variance = max(totals.squares[seat] / n - mean * mean, 0.0) * n / max(n - 1, 1)
        seats.append(
            SeatResult(seat + 1, kind, totals.net[seat], mean, 1.96 * math.sqrt(variance / n))
        )
    return SimResult(n, tuple(seats), totals.commission, totals.showdowns)


def save_path(path: str | None) -> TextIO | None:
    return None if path is None else Path(path).open("w", encoding="utf-8")
