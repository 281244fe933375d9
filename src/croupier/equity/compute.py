"""Running an equity question: exact enumeration or Monte Carlo, cut into chunks for an
executor (:mod:`croupier.executor`). Everything a chunk needs travels with it, so chunks run
the same in this process, in a pool of processes or on a Ray cluster."""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from croupier.cards import Card
from croupier.equity.kernels import deals, holdem_by_rank_class, sample_any_five
from croupier.equity.results import Tally
from croupier.equity.setup import Combo, Setup, canonical, symmetries
from croupier.evaluate.rankings import Ranking, qualifies
from croupier.evaluate.tables import CATEGORIES, RANK_MULTIPLIERS, tables_for

__all__ = ["ExactPlan", "SamplingPlan", "exact_plan", "sampling_plan"]

Int64Array = npt.NDArray[np.int64]
HIST_PLAYERS = 12  # up to this many hands, deals are tallied by their set of winners
EXACT_CHUNK = 1 << 22  # deals (card by card) an exact chunk holds, about 0.1 s
RANK_CLASS_GAIN = 64  # hold'em by rank class costs about this many times fewer than dealing
CALL_COST = 4_096  # a kernel call's own cost, in deals
EVALUATIONS_PER_CHUNK = 1 << 21  # a Monte Carlo chunk: about 20 ms on one core
_MULTIPLIERS = np.array(RANK_MULTIPLIERS, dtype=np.int64)
_BINOMIAL = np.array([[math.comb(a, k) for k in range(6)] for a in range(5)], np.int64)
_FLUSH_BLIND = (Ranking.LOW_A5, Ranking.LOW_A5_8)


# --- tables ----------------------------------------------------------------------------------


@functools.cache
def _tables(
    ranking: Ranking, low: Ranking | None
) -> tuple[Int64Array, Int64Array, npt.NDArray[np.int32], npt.NDArray[np.uint16],
           npt.NDArray[np.uint16], npt.NDArray[np.uint16], int]:  # fmt: skip
    """Card keys and bits, the perfect hash, the flush table, the low half's table and the
    lowest qualifying low (0: no low half). Badugi uses the high tables' card bits only."""
    high = tables_for(Ranking.HIGH if ranking is Ranking.BADUGI else ranking)
    low_lookup, low_min = high.lookup, 0
    if low is not None:
        tables = tables_for(low)
        # one hash and one set of card keys serve both halves (the same rank multipliers)
        assert np.array_equal(tables.offsets, high.offsets)
        dealt = high.card_key != 0
        assert np.array_equal(tables.card_key[dealt], high.card_key[dealt])
        low_lookup, low_min = tables.lookup, _low_min(low)
    return high.card_key, high.card_bit, high.offsets, high.lookup, high.flush, low_lookup, low_min


@functools.cache
def _low_min(ranking: Ranking) -> int:
    """The lowest table value of a qualifying low; every value above it qualifies too."""
    tables = tables_for(ranking)
    good = [
        qualifies(ranking, CATEGORIES[tables.categories[v]], tables.significant[v].tolist())
        for v in range(1, len(tables.categories))
    ]
    first = good.index(True)
    assert all(good[first:]), "qualifying lows must rank above all others"
    return first + 1


def _suits(setup: Setup) -> int:
    return 0 if setup.ranking in _FLUSH_BLIND else 0x1111


def _mode(setup: Setup) -> int:
    if setup.ranking is Ranking.BADUGI:
        return 2
    return 0 if setup.game.used is None else 1


def _histogram(setup: Setup) -> bool:
    """Tally by winner set (one add per deal) when the pot is not split hi-lo and the table
    of winner sets is small; otherwise per hand and per tie size."""
    return setup.game.low is None and len(setup.hands) <= HIST_PLAYERS


def _by_rank_class(setup: Setup) -> bool:
    """Hold'em with every hole card known enumerates boards by rank class."""
    spec = setup.game
    return (
        spec.board == 5 and spec.hole == 2 and spec.used is None and spec.low is None
        and setup.ranking not in (*_FLUSH_BLIND, Ranking.LOW_27, Ranking.BADUGI)
        and len(setup.hands) <= HIST_PLAYERS
    )  # fmt: skip


# --- card slots --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Slots:
    base: Int64Array  # the board's slots, then each hand's; -1 where still to be dealt
    pool: Int64Array
    dest: Int64Array  # (splits, unknown): where each dealt card goes, for every split
    pairs: Int64Array  # hole-card combinations a hand may use (indices into its hole cards)
    triples: Int64Array  # board-card combinations to go with them


def _slots(setup: Setup, every_split: bool) -> _Slots:
    spec = setup.game
    board_slots = [int(c) for c in setup.board] + [-1] * (spec.board - len(setup.board))
    holes = [-1 if c is None else int(c) for hand in setup.hands for c in hand]
    base = np.array(board_slots + holes, dtype=np.int64)
    # Group 0 is the board, group i + 1 hand i; each group's empty slots in order. A hand
    # drawn from a range is not dealt: its slots are filled from the range.
    slots: list[list[int]] = [[] for _ in range(len(setup.hands) + 1)]
    for slot in np.flatnonzero(base < 0).tolist():
        group = 0 if slot < spec.board else (slot - spec.board) // spec.hole + 1
        if group == 0 or setup.ranges[group - 1] is None:
            slots[group].append(slot)
    # The dealt cards (a combination, in code order) go to the groups in every distinct order
    # of the group labels, each group filling its slots in turn; one order suffices to sample.
    splits = _splits([len(group) for group in slots])
    if not every_split:
        splits = splits[:1]
    rows = []
    for split in splits:
        taken = [0] * len(slots)
        row = []
        for group in split:
            row.append(slots[group][taken[group]])
            taken[group] += 1
        rows.append(row)
    dest = np.array(rows, dtype=np.int64).reshape(len(rows), setup.unknown)
    used = spec.used
    if used is None:
        pairs = triples = np.zeros((1, 1), dtype=np.int64)
    else:
        pairs = np.array(list(itertools.combinations(range(spec.hole), used)), dtype=np.int64)
        triples = np.array(
            list(itertools.combinations(range(spec.board), spec.board - used)), dtype=np.int64
        )
    return _Slots(base, np.array(setup.pool, dtype=np.int64), dest, pairs, triples)


def _splits(counts: list[int]) -> list[tuple[int, ...]]:
    """Every distinct sequence holding ``counts[g]`` copies of each g, in lexicographic order."""
    if not any(counts):
        return [()]
    out: list[tuple[int, ...]] = []
    for group, count in enumerate(counts):
        if count:
            counts[group] -= 1
            out.extend((group, *rest) for rest in _splits(counts))
            counts[group] += 1
    return out


def _empty_outputs(n: int, histogram: bool) -> tuple[Int64Array, Tally]:
    return np.zeros(1 << n if histogram else 1, dtype=np.int64), Tally.empty(n)


_NO_RANGES = (
    np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64),
    np.zeros((1, 2), dtype=np.int64), np.ones((1, 2)), np.zeros(1, dtype=np.int64),
)  # fmt: skip


def _deal_exactly(setup: Setup, start: int, stop: int) -> Tally:
    """Tasks ``start:stop`` of dealing every completion card by card (``deals`` kernel)."""
    slots = _slots(setup, every_split=True)
    card_key, card_bit, offsets, lookup, flush, low_lookup, low_min = _tables(
        setup.ranking, setup.game.low
    )
    n = len(setup.hands)
    histogram = _histogram(setup)
    hist, tally = _empty_outputs(n, histogram)
    deals(
        start, stop, False, np.uint64(0), 0, slots.base, setup.game.board, setup.game.hole,
        slots.pool, slots.dest, setup.unknown, _mode(setup), setup.game.used or 0, slots.pairs,
        slots.triples, _suits(setup), card_key, card_bit, offsets, lookup, flush, low_lookup,
        low_min, *_NO_RANGES, histogram, hist, tally.pots, tally.scoops, tally.parts,
        tally.squares,
    )  # fmt: skip
    if histogram:
        return Tally.from_winner_sets(hist, n)
    tally.deals = tally.high_deals()
    return tally


def _rank_classes(setup: Setup) -> Tally:
    """Every board completion of known-hand hold'em, by rank class."""
    card_key, card_bit, offsets, lookup, flush, _, _ = _tables(setup.ranking, None)
    holes = np.array([[int(c) for c in hand if c is not None] for hand in setup.hands], np.int64)
    board = [int(c) for c in setup.board]
    board_key = int(card_key[board].sum()) if board else 0
    board_bits = int(np.bitwise_or.reduce(card_bit[board])) if board else 0
    hist = np.zeros((1, 1 << len(setup.hands)), dtype=np.int64)
    holdem_by_rank_class(
        card_key[holes].sum(axis=1), np.bitwise_or.reduce(card_bit[holes], axis=1), board_key,
        board_bits, 5 - len(board), np.array(setup.pool, dtype=np.int64), _MULTIPLIERS,
        _BINOMIAL, card_key, card_bit, offsets, lookup, flush, hist,
    )  # fmt: skip
    return Tally.from_winner_sets(hist[0], len(setup.hands))


# --- exact -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExactPlan:
    """Exact enumeration: each distinct choice of range hands (one when there are no ranges),
    its weight, and the work items ``(case, first task, last task + 1)`` by chunk."""

    setup: Setup
    cases: tuple[tuple[Combo, ...], ...]
    weights: tuple[Fraction, ...]  # each case's total weight (its suit relabellings too)
    choices: int  # choices of range hands that share no card
    chunks: tuple[tuple[tuple[int, int, int], ...], ...]
    cost: int  # estimated work, in deals dealt card by card
    by_rank_class: bool


def exact_plan(setup: Setup, by_rank_class: bool = True, limit: int | None = None) -> ExactPlan:
    """Plan an exact enumeration; ``limit``: give up (cost ``-1``) past that many choices."""
    perms = symmetries(setup) if setup.ranged else []
    cases: dict[tuple[int, ...], tuple[tuple[Combo, ...], Fraction]] = {}
    choices = 0
    for combos, weight in setup.assignments():
        choices += 1
        if limit is not None and choices > limit:
            return ExactPlan(setup, (), (), choices, (), -1, by_rank_class)
        key = canonical(combos, perms) if perms else tuple(c for combo in combos for c in combo)
        if key in cases:
            cases[key] = (cases[key][0], cases[key][1] + weight)
        else:
            cases[key] = (combos, weight)
    ranks = (
        by_rank_class
        and _by_rank_class(setup)
        and not any(
            c is None for p, hand in enumerate(setup.hands) if setup.ranges[p] is None for c in hand
        )
    )
    tasks = len(setup.pool) - 2 * len(setup.ranged) - setup.unknown + 1 if setup.unknown else 1
    if ranks:
        per_case = setup.deals // RANK_CLASS_GAIN + CALL_COST
        items = [[(case, 0, 1)] for case in range(len(cases))]
    else:
        per_case = setup.deals + CALL_COST
        pieces = max(1, min(tasks, -(-setup.deals // EXACT_CHUNK)))
        bounds = np.linspace(0, tasks, pieces + 1).astype(int).tolist()
        items = [
            [(case, start, stop)]
            for case in range(len(cases))
            for start, stop in itertools.pairwise(bounds)
        ]
    # small cases go together: a chunk holds about EXACT_CHUNK deals' work
    per_item = per_case * len(cases) / max(1, len(items))
    group = max(1, int(EXACT_CHUNK // max(per_item, 1)))
    chunks = tuple(
        tuple(item for part in items[i : i + group] for item in part)
        for i in range(0, len(items), group)
    )
    return ExactPlan(
        setup, tuple(c for c, _ in cases.values()), tuple(w for _, w in cases.values()),
        choices, chunks, per_case * len(cases), ranks,
    )  # fmt: skip


def exact_chunk(plan: ExactPlan, index: int, seed: object) -> dict[int, Tally]:
    """Chunk ``index`` of an exact plan: a tally per case it touched."""
    out: dict[int, Tally] = {}
    for case, start, stop in plan.chunks[index]:
        setup = plan.setup.with_hands(plan.cases[case]) if plan.setup.ranged else plan.setup
        tally = _rank_classes(setup) if plan.by_rank_class else _deal_exactly(setup, start, stop)
        out[case] = out[case] + tally if case in out else tally
    return out


def merge_cases(a: dict[int, Tally], b: dict[int, Tally]) -> dict[int, Tally]:
    merged = dict(a)
    for case, tally in b.items():
        merged[case] = merged[case] + tally if case in merged else tally
    return merged


def combine(plan: ExactPlan, tallies: dict[int, Tally]) -> tuple[Tally, Fraction]:
    """One tally over every deal of every choice of range hands, weighted, and its total
    weight (the number of deals without ranges)."""
    if not plan.setup.ranged:
        return tallies[0], Fraction(plan.setup.deals)
    total = Tally.empty(len(plan.setup.hands)).scaled(Fraction(0))
    for case, weight in enumerate(plan.weights):
        total = total + tallies[case].scaled(weight)
    return total, sum(plan.weights, Fraction(0)) * plan.setup.deals


# --- Monte Carlo -----------------------------------------------------------------------------


@dataclass(frozen=True)
class SamplingPlan:
    """Monte Carlo: ``trials`` deals in chunks of ``chunk_trials``, chunk i drawn from child
    i of the seed (a splitmix64 stream started from its first 64-bit word)."""

    setup: Setup
    trials: int
    chunk_trials: int
    fast: bool  # any five, hi only, by winner set: the sample_any_five kernel
    arrays: tuple[object, ...]  # the kernel's inputs but the stream and the trials

    @property
    def chunks(self) -> int:
        return -(-self.trials // self.chunk_trials)


def sampling_plan(setup: Setup, trials: int, chunk_trials: int | None = None) -> SamplingPlan:
    fast = _mode(setup) == 0 and _histogram(setup)
    evaluations = len(setup.hands) * (1 + (setup.game.low is not None))
    if setup.game.used is not None:
        evaluations *= math.comb(setup.game.hole, setup.game.used) * math.comb(
            setup.game.board, setup.game.board - setup.game.used
        )
    if chunk_trials is None:  # a power of two between 4,096 and 1,048,576
        fitting = (EVALUATIONS_PER_CHUNK // evaluations).bit_length() - 1
        chunk_trials = 1 << max(12, min(20, fitting))
    ranges = _range_arrays(setup, fast)
    slots = _slots(setup, every_split=False)
    tables = _tables(setup.ranking, setup.game.low)
    if fast:
        inputs = _any_five_inputs(setup, slots, tables[0], tables[1])
        arrays = (*inputs, _suits(setup), *tables[:5], *ranges)
    else:
        arrays = (
            slots.base, setup.game.board, setup.game.hole, slots.pool, slots.dest, setup.unknown,
            _mode(setup), setup.game.used or 0, slots.pairs, slots.triples, _suits(setup),
            *tables, *ranges,
        )  # fmt: skip
    return SamplingPlan(setup, trials, chunk_trials, fast, arrays)


def sampling_chunk(plan: SamplingPlan, index: int, seed: np.random.SeedSequence) -> Tally:
    """Chunk ``index`` of a Monte Carlo plan."""
    trials = min(plan.chunk_trials, plan.trials - index * plan.chunk_trials)
    state = np.uint64(seed.generate_state(1, np.uint64)[0])
    n = len(plan.setup.hands)
    histogram = plan.fast or _histogram(plan.setup)
    hist, tally = _empty_outputs(n, histogram)
    if plan.fast:
        failed = sample_any_five(state, trials, *plan.arrays, hist)  # type: ignore[call-arg]
    else:
        failed = deals(  # type: ignore[call-arg]
            0, 1, True, state, trials, *plan.arrays, histogram, hist, tally.pots, tally.scoops,
            tally.parts, tally.squares,
        )  # fmt: skip
    if failed:
        raise RangesClashError(
            "the ranges leave almost no deal in which every hand holds different cards"
        )
    if histogram:
        return Tally.from_winner_sets(hist, n)
    tally.deals = trials
    return tally


class RangesClashError(RuntimeError):
    """Raised in a chunk; the caller turns it into an EquityError."""


def _any_five_inputs(
    setup: Setup, slots: _Slots, card_key: Int64Array, card_bit: Int64Array
) -> tuple[object, ...]:
    """The pool, who gets each dealt card (-1: the board), the known board's key and bits,
    and each hand's known cards' keys and bits."""
    board_size = setup.game.board
    holes = slots.base[board_size:].reshape(len(setup.hands), setup.game.hole)
    known = holes >= 0
    hole_key = np.where(known, card_key[np.maximum(holes, 0)], 0).sum(axis=1)
    hole_bits = np.bitwise_or.reduce(np.where(known, card_bit[np.maximum(holes, 0)], 0), axis=1)
    board = [int(c) for c in setup.board]
    board_key = int(card_key[board].sum()) if board else 0
    board_bits = int(np.bitwise_or.reduce(card_bit[board])) if board else 0
    dest = slots.dest[0]
    owner = np.where(dest < board_size, -1, (dest - board_size) // setup.game.hole)
    return slots.pool, owner.astype(np.int64), board_key, board_bits, hole_key, hole_bits


def _range_arrays(setup: Setup, fast: bool) -> tuple[object, ...]:
    """The ranged hands, each one's slice of the combination table, the table (cards, or
    keys for the fast kernel), the alias table for drawing by weight and each combination's
    bits."""
    if not setup.ranged:
        none, first, last, _, weights, masks = _NO_RANGES
        if fast:
            return none, first, last, np.zeros(1, dtype=np.int64), masks, weights
        return _NO_RANGES
    card_key, card_bit = _tables(setup.ranking, setup.game.low)[:2]
    n = len(setup.hands)
    start = np.zeros(n, dtype=np.int64)
    stop = np.zeros(n, dtype=np.int64)
    rows: list[tuple[Card, Card]] = []
    alias: list[tuple[float, int]] = []
    for p in setup.ranged:
        spec = setup.ranges[p]
        assert spec is not None
        start[p] = len(rows)
        rows.extend(spec.combos)
        alias.extend(_alias_table(spec.weights, int(start[p])))
        stop[p] = len(rows)
    combos = np.array(rows, dtype=np.int64)
    bits = card_bit[combos[:, 0]] | card_bit[combos[:, 1]]
    ranged = np.array(setup.ranged, dtype=np.int64)
    weights = np.array(alias, dtype=np.float64)
    if fast:
        keys = card_key[combos[:, 0]] + card_key[combos[:, 1]]
        return ranged, start, stop, keys, bits, weights
    return ranged, start, stop, combos, weights, bits


def _alias_table(weights: tuple[Fraction, ...], offset: int) -> list[tuple[float, int]]:
    """Walker's alias table (Vose's construction): draw i uniformly, keep it with probability
    ``table[i][0]``, else take ``table[i][1]`` (indices from ``offset``)."""
    size = len(weights)
    total = sum(weights, Fraction(0))
    scaled = [w * size / total for w in weights]  # exact: each 1 on average
    table: list[tuple[float, int]] = [(1.0, offset + i) for i in range(size)]
    small = [i for i, x in enumerate(scaled) if x < 1]
    large = [i for i, x in enumerate(scaled) if x >= 1]
    while small and large:
        low, high = small.pop(), large.pop()
        table[low] = (float(scaled[low]), offset + high)
        scaled[high] -= 1 - scaled[low]
        (small if scaled[high] < 1 else large).append(high)
    return table  # what is left holds exactly 1: kept always
