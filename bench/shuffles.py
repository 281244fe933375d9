"""The battery's ``shuffle`` family: statistics of croupier.deck's shufflers, and decks dealt
after ``fork()``.

Each trial is one test over a batch of decks, from the default :data:`~croupier.deck.SECURE`
shuffler, a new :class:`~croupier.deck.SecureShuffler`, or :class:`~croupier.deck.SeededShuffler`
on consecutive seeds, for every deck size:

- **positions**: how often each card lands in each place, a chi-square test of the
  cards x places table ((n-1)^2 degrees of freedom; the statistic scaled by (n-1)/n, since a
  deck puts exactly one card in each place);
- **neighbours**: how often each card is followed by each other card, a chi-square test of the
  n(n-1) ordered pairs (compared with (n-1)^2 degrees of freedom, the statistic's mean);
- **successive decks**: the top card of one deck against the next deck's, a chi-square test of
  independence (a shuffler whose state leaks from one deck to the next fails it);
- **fork**: a parent draws once, then forks children that each deal two decks: no two decks of
  different processes may share a run of 8 cards in order (issue 13 found forked children
  sharing their last 24-43 cards). Two independent 52-card decks share such a run with chance
  about 7e-11.

A statistical test fails when its p-value is below 1e-6: a fixed significance, so that the CI
run does not flake (a run of the battery makes at most a few hundred tests, so a sound shuffler
fails one with chance below 1e-3) while a biased shuffler, whose p-value falls without limit as
the batch grows, still fails. scipy is not a dependency of croupier: the chi-square tail is the
Wilson-Hilferty approximation (accurate to a few per cent of the p-value at these degrees of
freedom, which are in the hundreds and thousands). Calibrated on numpy's permutations: 200
batches a test gave p-values spread evenly over (0, 1) for 52 and 20 cards.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

import numpy as np

from battery import Failure, Outcome, family
from croupier.cards import DeckKind
from croupier.deck import SECURE, Deck, SecureShuffler, SeededShuffler, Shuffler

SIGNIFICANCE = 1e-6
FORK_RUN = 8  # decks of different processes sharing this many cards in order: a fault
CHILDREN = 6


def chi_square_tail(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for X chi-square with ``freedom`` degrees of freedom, by the
    Wilson-Hilferty cube-root normal approximation."""
    k = float(freedom)
    z = ((statistic / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi_square(observed: np.ndarray, expected: np.ndarray | float) -> float:
    return float((((observed - expected) ** 2) / expected).sum())


def decks(kind: DeckKind, count: int, make: Callable[[int], Shuffler]) -> np.ndarray:
    """``count`` shuffled decks, a row each, cards as their place in the ordered deck."""
    place = {card: i for i, card in enumerate(kind.cards)}
    rows = np.empty((count, kind.size), dtype=np.int64)
    for i in range(count):
        rows[i] = [place[c] for c in Deck.shuffled(kind, make(i)).cards]
    return rows


def positions_p(rows: np.ndarray) -> float:
    count, size = rows.shape
    cells = rows * size + np.arange(size)  # card x place
    observed = np.bincount(cells.ravel(), minlength=size * size)
    # Each deck puts one card in each place: a cell's count varies as N p (1 - p) where a
    # multinomial's would be N p, hence the factor (n - 1) / n.
    statistic = chi_square(observed, count / size) * (size - 1) / size
    return chi_square_tail(statistic, (size - 1) ** 2)


def neighbours_p(rows: np.ndarray) -> float:
    count, size = rows.shape
    pairs = (rows[:, :-1] * size + rows[:, 1:]).ravel()
    observed = np.bincount(pairs, minlength=size * size).reshape(size, size)
    off = ~np.eye(size, dtype=bool)  # a card never follows itself
    expected = count * (size - 1) / (size * (size - 1))
    # n(n - 1) cells, each varying as N p (1 - p) with p = 1/n: the statistic's mean is
    # (n - 1)^2, the degrees of freedom it is compared with.
    return chi_square_tail(chi_square(observed[off], expected), (size - 1) ** 2)


def successive_p(rows: np.ndarray) -> float:
    count, size = rows.shape
    tops = rows[:, 0]
    pairs = tops[:-1] * size + tops[1:]
    observed = np.bincount(pairs, minlength=size * size).reshape(size, size).astype(float)
    expected = np.outer(observed.sum(1), observed.sum(0)) / (count - 1)
    return chi_square_tail(chi_square(observed, np.maximum(expected, 1e-12)), (size - 1) ** 2)


TESTS: dict[str, Callable[[np.ndarray], float]] = {
    "positions": positions_p,
    "neighbours": neighbours_p,
    "successive decks": successive_p,
}


def shared_run(a: bytes, b: bytes) -> int:
    """The longest run of cards two decks share in the same order."""
    best = 0
    previous = [0] * (len(b) + 1)
    for x in a:
        current = [0] * (len(b) + 1)
        for j, y in enumerate(b):
            if x == y:
                current[j + 1] = previous[j] + 1
                best = max(best, current[j + 1])
        previous = current
    return best


def _in_child(shuffler: Shuffler, default: bool) -> list[bytes]:
    """Fork a child that deals two decks (from ``shuffler``, or by default: no shuffler
    named) and reports them."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            for _ in range(2):
                deck = Deck.shuffled() if default else Deck.shuffled(shuffler=shuffler)
                os.write(write, bytes(int(card) for card in deck.cards))
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        data = pipe.read()
    os.waitpid(pid, 0)
    return [data[:52], data[52:]]


def fork_trial(label: str) -> str | None:
    """Decks dealt by forked children of one parent: None, or what they shared."""
    default = label == "default (no shuffler named)"
    shuffler: Shuffler = SecureShuffler() if label == "a new SecureShuffler" else SECURE
    Deck.shuffled(shuffler=shuffler)  # the parent has drawn: any buffer holds bytes
    dealt = [_in_child(shuffler, default) for _ in range(CHILDREN)]
    dealt.append([bytes(int(c) for c in Deck.shuffled(shuffler=shuffler).cards)])  # the parent
    if any(len(deck) != 52 for decks_ in dealt for deck in decks_):
        return f"fork ({label}): a child dealt no full deck"
    for i, ours in enumerate(dealt):
        for theirs in dealt[i + 1 :]:
            for a in ours:
                for b in theirs:
                    run = shared_run(a, b)
                    if run >= FORK_RUN:
                        return (
                            f"fork ({label}): two processes dealt decks sharing {run} cards "
                            f"in order (chance ~1e-10 for independent decks)"
                        )
    return None


def _one_new_secure(seed: int) -> Callable[[int], Shuffler]:
    made = SecureShuffler()
    return lambda i: made


SHUFFLERS: dict[str, Callable[[int], Callable[[int], Shuffler]]] = {
    # the shuffler of deck i of a batch starting at ``seed``
    "SECURE": lambda seed: lambda i: SECURE,
    "a new SecureShuffler": _one_new_secure,
    "SeededShuffler (consecutive seeds)": lambda seed: lambda i: SeededShuffler(seed + i),
}


def batch(kind: DeckKind) -> int:
    """Decks in one test: about 400 a cell of the 52-card positions table."""
    return 400 * kind.size


@family("shuffle")
def shuffle_family(seed: int, seconds: float) -> Outcome:
    """Chi-square tests of where cards land, which follows which, and successive decks, for
    every shuffler and deck size; and decks dealt by forked children. Held: p > 1e-6, and no
    run of 8 cards shared between processes."""
    outcome = Outcome()
    deadline = time.monotonic() + seconds
    trial = 0
    kinds = list(DeckKind)
    while time.monotonic() < deadline:
        trial += 1
        if trial % 4 == 0:
            label = ("default (no shuffler named)", "SECURE", "a new SecureShuffler")[trial % 3]
            verdict = fork_trial(label)
            outcome.note("forked children's decks compared", CHILDREN * 2 + 1)
            if verdict is None:
                outcome.hold()
            else:
                outcome.fail(Failure(verdict))
            continue
        kind = kinds[trial % len(kinds)]
        name = list(SHUFFLERS)[(trial // len(kinds)) % len(SHUFFLERS)]
        start = seed * 1_000_000_007 + trial * 100_003
        rows = decks(kind, batch(kind), SHUFFLERS[name](start))
        outcome.note("decks shuffled for the statistics", len(rows))
        for test, p_value in ((test, run(rows)) for test, run in TESTS.items()):
            if p_value > SIGNIFICANCE:
                outcome.hold()
            else:
                outcome.fail(Failure(
                    f"biased: {test} of {name} on the {kind.size}-card deck: p = {p_value:.2g} "
                    f"over {len(rows):,} decks (seeds from {start})"
                ))  # fmt: skip
    return outcome
