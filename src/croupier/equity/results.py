"""What equity reports: per hand, the chance to take the pot alone, the chance to split it,
the share of the pot splits bring, and the equity (hi-lo: also the high and low halves)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from croupier.cards import Card, format_cards

__all__ = ["EquityResult", "HandEquity", "Tally"]

WHOLE, HIGH_HALF, LOW_HALF = 0, 1, 2  # the kinds of share in Tally.pots


@dataclass
class Tally:
    """Integer counts over deals, mergeable by ``+``.

    ``pots[p, kind, k]``: deals where hand p won a share split k ways of the whole pot
    (``WHOLE``), of the high half or of the low half; ``scoops[p]``: deals where p took the
    whole pot alone; ``parts[p]``: deals where p took some but not all of it; ``squares[p]``:
    the sum of p's squared pot shares (for the Monte Carlo standard error).
    """

    pots: npt.NDArray[Any]
    scoops: npt.NDArray[Any]
    parts: npt.NDArray[Any]
    squares: npt.NDArray[np.float64]
    deals: int

    @classmethod
    def empty(cls, n: int) -> Tally:
        return cls(
            np.zeros((n, 3, n + 1), dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.zeros(n, dtype=np.int64),
            np.zeros(n),
            0,
        )

    @classmethod
    def from_winner_sets(cls, hist: npt.NDArray[np.int64], n: int) -> Tally:
        """From deals counted by winner set (``hist[winners]``, bit p set when hand p wins
        or ties), in a game without a low half."""
        tally = cls.empty(n)
        for winners in np.flatnonzero(hist).tolist():
            count = int(hist[winners])
            members = [p for p in range(n) if winners >> p & 1]
            ways = len(members)
            for p in members:
                tally.pots[p, WHOLE, ways] += count
                tally.squares[p] += count / (ways * ways)
                if ways == 1:
                    tally.scoops[p] += count
                else:
                    tally.parts[p] += count
        tally.deals = int(hist.sum())
        return tally

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.pots + other.pots,
            self.scoops + other.scoops,
            self.parts + other.parts,
            self.squares + other.squares,
            self.deals + other.deals,
        )

    def scaled(self, weight: Fraction) -> Tally:
        """Every count times ``weight``, exactly (as Python fractions)."""

        def times(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
            exact: npt.NDArray[Any] = np.array(array, dtype=object) * weight
            return exact

        return Tally(
            times(self.pots), times(self.scoops), times(self.parts), self.squares, self.deals
        )

    def as_array(self) -> npt.NDArray[Any]:
        """The integer counts side by side (to compare two tallies)."""
        n = len(self.scoops)
        counts = [self.pots.reshape(n, -1), self.scoops[:, None], self.parts[:, None]]
        together: npt.NDArray[Any] = np.concatenate(counts, axis=1)
        return together

    def shares(self) -> tuple[list[Fraction], list[Fraction], list[Fraction]]:
        """Per hand, summed over deals, as exact fractions: its pot share from the high side
        (the whole pot, or the high half), from the low half, and the pots it took alone."""
        n = len(self.scoops)
        high, low = [], []
        for p in range(n):
            rows = self.pots[p].tolist()
            whole = sum((Fraction(c) / k for k, c in enumerate(rows[WHOLE]) if k), Fraction(0))
            halves = [
                sum((Fraction(c) / (2 * k) for k, c in enumerate(row) if k), Fraction(0))
                for row in rows[HIGH_HALF:]
            ]
            high.append(whole + halves[0])
            low.append(halves[1])
        return high, low, [Fraction(s) for s in self.scoops.tolist()]

    def high_deals(self) -> int:
        """Deals tallied hand by hand: each deal has one high winner, or k sharing."""
        n = len(self.scoops)
        shared = sum(
            (
                Fraction(int(self.pots[p, kind, k]), k)
                for p in range(n)
                for kind in (WHOLE, HIGH_HALF)
                for k in range(1, n + 1)
            ),
            Fraction(0),
        )
        return int(shared)

    def low_deals(self) -> Fraction:
        """Deals on which some hand made a qualifying low."""
        n = len(self.scoops)
        return sum(
            (Fraction(self.pots[p, LOW_HALF, k]) / k for p in range(n) for k in range(1, n + 1)),
            Fraction(0),
        )


@dataclass(frozen=True)
class HandEquity:
    """One hand's result, each a share of all deals.

    ``win``: it takes the whole pot alone (at hi-lo, a scoop); ``tie_chance``: it gets part of
    the pot but not all (a split); ``tie``: the pot share those splits bring; ``equity`` =
    ``win + tie``, its expected share of the pot; ``high`` and ``low``: the shares won with
    the high and the low hand (``high + low == equity``; ``low`` is 0 but at hi-lo);
    ``stderr``: the Monte Carlo standard error of ``equity`` (0 when exact). ``cards`` are the
    hand's cards (None: unseen), or ``range`` the range it was drawn from.
    """

    cards: tuple[Card | None, ...]
    win: float
    tie: float
    equity: float
    stderr: float = 0.0
    tie_chance: float = 0.0
    high: float = 0.0
    low: float = 0.0
    range: str | None = None

    @property
    def tie_share(self) -> float:
        return self.tie

    @property
    def scoop(self) -> float:
        return self.win

    def __str__(self) -> str:
        return self.range if self.range is not None else format_cards(self.cards)


@dataclass(frozen=True)
class EquityResult:
    """Per-hand results in the order the hands were given (index or iterate it)."""

    game: str
    deck: int
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    hands: tuple[HandEquity, ...]
    exact: bool
    trials: int  # deals enumerated (exact) or sampled (Monte Carlo)
    seed: int | None = None  # the Monte Carlo seed actually used
    hi_lo: bool = False
    low_chance: float | None = None  # hi-lo: share of deals with a qualifying low

    def __len__(self) -> int:
        return len(self.hands)

    def __getitem__(self, index: int) -> HandEquity:
        return self.hands[index]

    def __iter__(self) -> Iterator[HandEquity]:
        return iter(self.hands)

    @property
    def equities(self) -> tuple[float, ...]:
        return tuple(hand.equity for hand in self.hands)

    def to_dict(self) -> dict[str, object]:
        return {
            "game": self.game,
            "deck": self.deck,
            "board": format_cards(self.board),
            "dead": format_cards(self.dead),
            "exact": self.exact,
            "trials": self.trials,
            "seed": self.seed,
            "low_chance": self.low_chance,
            "hands": [
                {
                    "hand": str(hand),
                    "win": hand.win,
                    "tie_chance": hand.tie_chance,
                    "tie_share": hand.tie,
                    "tie": hand.tie,  # the share, as before tie_chance was reported
                    "equity": hand.equity,
                    "high": hand.high,
                    "low": hand.low,
                    "stderr": hand.stderr,
                }
                for hand in self.hands
            ],
        }

    def __str__(self) -> str:
        method = (
            f"exact, {self.trials:,} deals"
            if self.exact
            else f"Monte Carlo, {self.trials:,} trials, seed {self.seed}"
        )
        board = f"board {format_cards(self.board)}" if self.board else "no board"
        dead = f", dead {format_cards(self.dead)}" if self.dead else ""
        lines = [f"{self.game} ({self.deck} cards), {board}{dead}: {method}"]
        if self.hi_lo:
            columns = [("scoop", "win"), ("split", "tie_chance"), ("high", "high"),
                       ("low", "low"), ("equity", "equity")]  # fmt: skip
        else:
            columns = [("win", "win"), ("tie", "tie_chance"), ("tie share", "tie"),
                       ("equity", "equity")]  # fmt: skip
        if not self.exact:
            columns.append(("+/-", "stderr"))
        names = [str(hand) for hand in self.hands]
        width = max(len(name) for name in [*names, "hand"])
        lines.append(_row("hand", width, [title for title, _ in columns]))
        for name, hand in zip(names, self.hands, strict=True):
            cells = [f"{100 * getattr(hand, attribute):.3f}%" for _, attribute in columns]
            lines.append(_row(name, width, cells))
        if self.hi_lo:
            lines.append(f"a qualifying low on {100 * (self.low_chance or 0.0):.3f}% of deals")
            lines.append("scoop: the whole pot alone; split: part of it; high + low = equity")
        else:
            lines.append("win: the pot alone; tie: a split pot; tie share: what splits bring;"
                         " equity = win + tie share")  # fmt: skip
        return "\n".join(lines)


def _row(name: str, width: int, cells: Sequence[str]) -> str:
    return f"{name:<{width}}" + "".join(f"  {cell:>9}" for cell in cells)


def hand_results(
    tally: Tally,
    total: Fraction,
    cards: Sequence[tuple[Card | None, ...]],
    ranges: Sequence[str | None],
    exact: bool,
) -> tuple[HandEquity, ...]:
    """Per-hand results from a tally over ``total`` deals (a weight, with ranges)."""
    high, low, scoops = tally.shares()
    errors = [0.0] * len(cards) if exact else standard_errors(tally)
    out = []
    for p, (hand, label) in enumerate(zip(cards, ranges, strict=True)):
        equity = (high[p] + low[p]) / total
        win = scoops[p] / total
        stderr = errors[p]
        tie_chance = float(Fraction(tally.parts[p]) / total)
        high_share, low_share = float(high[p] / total), float(low[p] / total)
        out.append(
            HandEquity(
                hand,
                float(win),
                float(equity - win),
                float(equity),
                stderr,
                tie_chance,
                high_share,
                low_share,
                label,
            )
        )
    return tuple(out)


def standard_errors(tally: Tally) -> list[float]:
    """Each hand's standard error of its equity, from a Monte Carlo tally: the sample
    standard deviation of its pot share over the square root of the trials."""
    high, low, _ = tally.shares()
    trials = tally.deals
    out = []
    for p in range(len(high)):
        mean = float(high[p] + low[p]) / trials
        square = float(tally.squares[p]) / trials
        variance = max(square - mean * mean, 0.0) * trials / max(trials - 1, 1)
        out.append(math.sqrt(variance / trials))
    return out
