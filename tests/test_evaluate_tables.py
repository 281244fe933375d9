"""The lookup tables' own claims: unique rank keys, an injective hash, a faithful disk cache."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from croupier.evaluate import Ranking, evaluate_many
from croupier.evaluate import tables as tables_module
from croupier.evaluate.tables import (
    RANK_MULTIPLIERS,
    ROW_SHIFT,
    perfect_hash,
    rank_multisets,
    tables_for,
)


def all_multisets(max_size: int) -> list[tuple[int, ...]]:
    return [
        combo
        for size in range(max_size + 1)
        for combo in itertools.combinations_with_replacement(range(13), size)
        if not combo or max(Counter(combo).values()) <= 4
    ]


def test_rank_keys_are_unique_for_every_multiset_of_up_to_seven_cards() -> None:
    multisets = all_multisets(7)
    keys = {sum(RANK_MULTIPLIERS[r] for r in m) for m in multisets}
    assert len(keys) == len(multisets)


def test_multiset_counts_match_stars_and_bars() -> None:
    # Independent count: multisets of k from 13 ranks with at most 4 each, by inclusion-exclusion.
    from math import comb

    def count(k: int) -> int:
        return sum((-1) ** j * comb(13, j) * comb(k - 5 * j + 12, 12) for j in range(k // 5 + 1))

    for size in (5, 6, 7):
        assert len(rank_multisets(size)) == count(size)


def test_perfect_hash_is_injective_and_small() -> None:
    hashing = perfect_hash()
    keys = np.array(
        [sum(RANK_MULTIPLIERS[r] for r in m) for k in (5, 6, 7) for m in rank_multisets(k)]
    )
    slots = (keys & ((1 << ROW_SHIFT) - 1)) + hashing.offsets[keys >> ROW_SHIFT]
    assert len(np.unique(slots)) == len(keys)
    assert slots.min() >= 0 and slots.max() < hashing.size
    table = tables_for(Ranking.HIGH)
    # Small enough for L2: the hashed table plus offsets and the flush table.
    assert table.lookup.nbytes + table.offsets.nbytes + table.flush.nbytes < 300_000


def test_disk_cache_round_trips(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_CACHE_DIR", str(tmp_path))
    built = tables_module._build(Ranking.SHORT32)
    tables_module._save(Ranking.SHORT32, built)
    assert list(tmp_path.glob("tables-*-short32-*.npz"))
    loaded = tables_module._load(Ranking.SHORT32)
    assert loaded is not None
    for fresh, cached in zip(built, loaded, strict=True):
        assert np.array_equal(fresh, cached)


def test_unwritable_cache_only_costs_a_rebuild(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_CACHE_DIR", "/proc/croupier-cannot-write-here")
    tables_module._save(Ranking.SHORT20, tables_module._build(Ranking.SHORT20))  # no exception
    assert tables_module._load(Ranking.SHORT20) is None


def test_short_rows_are_padded_not_misread() -> None:
    # The same five cards as a 5-card row and inside 6- and 7-card rows with weaker cards.
    royal = [48, 44, 40, 36, 32]  # Ac Kc Qc Jc Tc
    rows5 = np.array([royal], dtype=np.uint8)
    rows7 = np.array([[*royal, 0, 5]], dtype=np.int64)
    assert evaluate_many(rows5)[0] == evaluate_many(rows7)[0] == 7462
