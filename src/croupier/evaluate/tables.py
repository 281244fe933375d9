"""Lookup tables for the evaluators, built from :func:`classify_five` and cached on disk.

A hand of five to seven cards is summarised by one integer key, the sum of its cards' keys:

* bits 0-31: the rank key. Each rank has a multiplier such that every multiset of at most seven
  ranks (at most four of each) has a distinct sum. The multipliers are OMPEval's (zekyll/OMPEval,
  ISC licence); ``tests`` check the uniqueness claim exhaustively.
* bits 32-47: one 4-bit counter per suit, started at 3, so bit 3 of a counter is set once five
  cards share that suit.

A flush is then valued from the suit's 13-bit rank mask (``flush`` table); anything else from
the rank key through a perfect hash (``lookup[(key & row mask) + offsets[key >> ROW_SHIFT]]``),
which keeps the table at ~90 K entries (~180 KB) instead of 39 M.

Values in the tables are dense ordinals (1 = weakest class), so they fit in 16 bits.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt

from croupier.evaluate.rankings import Category, Ranking, classify_five

__all__ = ["POISON", "RANK_MULTIPLIERS", "RankTables", "card_keys", "perfect_hash", "tables_for"]

RANK_MULTIPLIERS = (
    0x2000, 0x8001, 0x11000, 0x3A000, 0x91000, 0x176005, 0x366000,
    0x41A013, 0x47802E, 0x479068, 0x48C0E4, 0x48F211, 0x494493,
)  # fmt: skip
SUIT_SHIFT = 32
SUIT_BIAS = 0x3333 << SUIT_SHIFT
FLUSH_CHECK = 0x8888 << SUIT_SHIFT
RANK_KEY_MASK = (1 << SUIT_SHIFT) - 1
ROW_SHIFT = 12
# The card mask of a code outside the deck in play: eight bits between the suits' 13, so a row
# holding one has more mask bits than any row has cards (the kernels check one popcount).
POISON = sum(1 << (16 * suit + bit) for suit in range(4) for bit in (13, 14))
TABLE_VERSION = 2

Int64Array = npt.NDArray[np.int64]
Int32Array = npt.NDArray[np.int32]
UInt16Array = npt.NDArray[np.uint16]

CATEGORIES = list(Category)


def card_keys(ranking: Ranking) -> tuple[Int64Array, Int64Array]:
    """Per byte value: the card's key and its bit (16 bits per suit), for the batch kernels.

    Codes outside the ranking's deck (and bytes 52-255) get the poison bits, so a row holding
    one is rejected without a separate range check.
    """
    keys = np.zeros(256, dtype=np.int64)
    bits = np.full(256, POISON, dtype=np.int64)
    for code in range(52):
        rank, suit = divmod(code, 4)
        if rank >= ranking.deck.lowest:
            keys[code] = RANK_MULTIPLIERS[rank] + (1 << (SUIT_SHIFT + 4 * suit))
            bits[code] = 1 << (16 * suit + rank)
    return keys, bits


def rank_key(ranks: tuple[int, ...]) -> int:
    return sum(RANK_MULTIPLIERS[r] for r in ranks)


@functools.cache
def rank_multisets(size: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ``size`` ranks with at most four of a rank, as sorted tuples."""
    return tuple(
        combo
        for combo in itertools.combinations_with_replacement(range(13), size)
        if max(Counter(combo).values()) <= 4
    )


@dataclass(frozen=True)
class PerfectHash:
    """Row-displacement perfect hash of all 5-7 card rank keys."""

    offsets: Int32Array  # per row (key >> ROW_SHIFT): where its columns start in the table
    size: int  # table length


@functools.cache
def perfect_hash() -> PerfectHash:
    keys = np.array(
        [rank_key(m) for size in (5, 6, 7) for m in rank_multisets(size)], dtype=np.int64
    )
    offsets, size = _displace(keys)
    return PerfectHash(offsets, size)


def _displace(keys: Int64Array) -> tuple[Int32Array, int]:
    """Place rows, fullest first, at the lowest offset where all their columns are free."""
    rows = keys >> ROW_SHIFT
    order = np.lexsort((keys, rows))
    rows, columns = rows[order], keys[order] & ((1 << ROW_SHIFT) - 1)
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    sizes = np.diff(np.r_[starts, len(rows)])
    placement = starts[np.argsort(-sizes, kind="stable")]
    offsets = np.zeros(int(rows[-1]) + 1, dtype=np.int64)
    size = _place_rows(rows, columns, starts, sizes, placement, offsets)
    return offsets.astype(np.int32), size


@numba.njit(cache=True)
def _place_rows(rows, columns, starts, sizes, placement, offsets):  # type: ignore[no-untyped-def]
    taken = np.zeros(len(columns) * 2 + (1 << ROW_SHIFT), dtype=np.bool_)
    lowest_free = 0
    size = 0
    for start in placement:
        count = sizes[np.searchsorted(starts, start)]
        offset = max(lowest_free - columns[start], 0)
        while True:
            clash = False
            for j in range(start, start + count):
                if taken[columns[j] + offset]:
                    clash = True
                    break
            if not clash:
                break
            offset += 1
        for j in range(start, start + count):
            taken[columns[j] + offset] = True
            size = max(size, columns[j] + offset + 1)
        offsets[rows[start]] = offset
        while taken[lowest_free]:
            lowest_free += 1
    return size


@dataclass(frozen=True)
class RankTables:
    """Everything a kernel needs for one ranking."""

    ranking: Ranking
    card_key: Int64Array
    card_bit: Int64Array
    offsets: Int32Array
    lookup: UInt16Array  # hashed rank key -> ordinal of the best non-flush five
    flush: UInt16Array  # 13-bit rank mask -> ordinal of the best flush (0: fewer than five)
    categories: npt.NDArray[np.uint8]  # ordinal -> index in ``Category``
    significant: npt.NDArray[np.uint8]  # ordinal -> five ranks, most significant first
    keys: Int64Array  # every rank key of 5-7 cards ...
    ordinals: Int64Array  # ... and the ordinal of its best five (the scalar path's dict)


def tables_for(ranking: Ranking) -> RankTables:
    return _tables_for(Ranking.parse(ranking))


@functools.cache
def _tables_for(ranking: Ranking) -> RankTables:
    if ranking is Ranking.BADUGI:
        raise ValueError("badugi is evaluated directly, without tables")
    cached = _load(ranking)
    if cached is None:
        cached = _build(ranking)
        _save(ranking, cached)
    lookup, flush, categories, significant, keys, ordinals, offsets = cached
    card_key, card_bit = card_keys(ranking)
    return RankTables(
        ranking, card_key, card_bit, offsets, lookup, flush, categories, significant, keys,
        ordinals,
    )  # fmt: skip


Built = tuple[UInt16Array, UInt16Array, npt.NDArray[np.uint8], npt.NDArray[np.uint8],
              Int64Array, Int64Array, Int32Array]  # fmt: skip


def _build(ranking: Ranking) -> Built:
    lowest = ranking.deck.lowest
    classes: dict[int, tuple[Category, tuple[int, ...]]] = {}
    five_strength: dict[tuple[int, ...], int] = {}
    for ranks in rank_multisets(5):
        if ranks[0] >= lowest:
            strength, category, significant = classify_five(ranking, ranks, suited=False)
            five_strength[ranks] = strength
            classes[strength] = (category, significant)
    flush_strength: dict[int, int] = {}
    suit_blind = ranking in (Ranking.LOW_A5, Ranking.LOW_A5_8)
    for ranks in itertools.combinations(range(lowest, 13), 5):
        if suit_blind:
            strength = five_strength[ranks]
        else:
            strength, category, significant = classify_five(ranking, ranks, suited=True)
            classes[strength] = (category, significant)
        flush_strength[sum(1 << r for r in ranks)] = strength

    strengths = np.array(sorted(classes), dtype=np.int64)
    ordinal_of = {int(s): i + 1 for i, s in enumerate(strengths)}
    categories = np.zeros(len(strengths) + 1, dtype=np.uint8)
    significant_ranks = np.zeros((len(strengths) + 1, 5), dtype=np.uint8)
    for strength, (category, significant) in classes.items():
        categories[ordinal_of[strength]] = CATEGORIES.index(category)
        significant_ranks[ordinal_of[strength]] = significant

    # Best five of six or seven: the best over every five-card sub-multiset.
    best: dict[int, int] = {}
    for size in (5, 6, 7):
        for ranks in rank_multisets(size):
            if ranks[0] < lowest:
                continue
            value = max(
                ordinal_of[five_strength[sub]]
                for sub in set(itertools.combinations(ranks, 5))
                if sub in five_strength
            )
            best[rank_key(ranks)] = value
    keys = np.fromiter(best.keys(), dtype=np.int64, count=len(best))
    ordinals = np.fromiter(best.values(), dtype=np.int64, count=len(best))

    hashing = perfect_hash()
    lookup = np.zeros(hashing.size, dtype=np.uint16)
    slots = (keys & ((1 << ROW_SHIFT) - 1)) + hashing.offsets[keys >> ROW_SHIFT]
    lookup[slots] = ordinals

    flush = np.zeros(1 << 13, dtype=np.uint16)
    for mask in range(1 << 13):
        bits = [r for r in range(13) if mask >> r & 1]
        if len(bits) >= 5 and bits[0] >= lowest:
            flush[mask] = max(
                ordinal_of[flush_strength[sum(1 << r for r in sub)]]
                for sub in itertools.combinations(bits, 5)
            )
    return lookup, flush, categories, significant_ranks, keys, ordinals, hashing.offsets


def _cache_dir() -> Path:
    root = os.environ.get("CROUPIER_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    base = Path(root) if root else Path.home() / ".cache"
    return base if os.environ.get("CROUPIER_CACHE_DIR") else base / "croupier"


def _cache_path(ranking: Ranking) -> Path:
    source = Path(__file__).with_name("rankings.py").read_bytes() + Path(__file__).read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:12]
    return _cache_dir() / f"tables-v{TABLE_VERSION}-{ranking.value}-{digest}.npz"


def _load(ranking: Ranking) -> Built | None:
    try:
        with np.load(_cache_path(ranking)) as data:
            arrays = [data[f"arr_{i}"] for i in range(len(data.files))]
    except (OSError, KeyError, ValueError):
        return None
    lookup, flush, categories, significant, keys, ordinals, offsets = arrays
    return lookup, flush, categories, significant, keys, ordinals, offsets


def _save(ranking: Ranking, built: Built) -> None:
    """Best effort: a read-only home only costs a rebuild next time."""
    path = _cache_path(ranking)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".npz", delete=False) as handle:
            np.savez(handle, *built)
        os.replace(handle.name, path)
    except OSError:
        pass
