"""Compiled batch kernels. Each writes one value per row, or -1 for an invalid row.

Rows are ``uint8`` card codes. The per-card arrays have 256 entries so any byte indexes them:
codes outside the deck in play carry the poison bit, and ``BLANK`` pads short rows with nothing.
A row is invalid when its card mask has fewer bits than it has cards (a repeat) or is poisoned.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.extending import intrinsic

from croupier.evaluate.tables import FLUSH_CHECK, POISON, RANK_KEY_MASK, ROW_SHIFT, SUIT_BIAS

__all__ = [
    "BLANK",
    "WIDTH",
    "badugi",
    "badugi_value",
    "best_five",
    "best_five_of_subsets",
    "rank_of_key",
]

BLANK = 255  # pads rows of five or six cards to WIDTH
WIDTH = 7  # a fixed trip count lets LLVM unroll the card loop (25% faster than a variable one)
_COLUMNS = (1 << ROW_SHIFT) - 1


@intrinsic
def _popcount(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, args)

    return types.int64(types.int64), codegen


@numba.njit(inline="always")
def _flush_suit(key):  # type: ignore[no-untyped-def]
    """The suit holding five or more cards (at most one can, with seven cards or fewer)."""
    counters = (key >> 35) & 0x1111
    if counters & 0x1:
        return 0
    if counters & 0x10:
        return 1
    return 2 if counters & 0x100 else 3


@numba.njit(inline="always")
def rank_of_key(key, offsets, lookup):  # type: ignore[no-untyped-def]
    """The value of the ranks in a key sum, suits ignored: the perfect-hash lookup."""
    rank_key = key & RANK_KEY_MASK
    return lookup[(rank_key & _COLUMNS) + offsets[rank_key >> ROW_SHIFT]]


@numba.njit(parallel=True, cache=True, nogil=True)
def best_five(cards, count, card_key, card_bit, offsets, lookup, flush, suit_blind, out):  # type: ignore[no-untyped-def]
    """Best five of ``count`` (5-7) cards, when a flush, if any, is the best hand (high and
    short-deck rankings) or when suits never matter (``suit_blind``: ace-to-five lows)."""
    for i in numba.prange(cards.shape[0]):
        key = np.int64(SUIT_BIAS)
        mask = np.int64(0)
        for j in range(WIDTH):
            c = cards[i, j]
            key += card_key[c]
            mask |= card_bit[c]
        if _popcount(mask) != count or (mask & POISON) != 0:  # type: ignore[call-arg]
            out[i] = -1
        elif (key & FLUSH_CHECK) != 0 and not suit_blind:
            out[i] = flush[(mask >> (16 * _flush_suit(key))) & 0x1FFF]
        else:
            out[i] = rank_of_key(key, offsets, lookup)


@numba.njit(parallel=True, cache=True, nogil=True)
def best_five_of_subsets(cards, count, card_key, card_bit, offsets, lookup, flush, subsets, out):  # type: ignore[no-untyped-def]
    """Best five by trying every five-card subset (deuce-to-seven, where a flush hurts)."""
    for i in numba.prange(cards.shape[0]):
        mask = np.int64(0)
        for j in range(WIDTH):
            mask |= card_bit[cards[i, j]]
        if _popcount(mask) != count or (mask & POISON) != 0:  # type: ignore[call-arg]
            out[i] = -1
            continue
        best = np.int64(0)
        for s in range(subsets.shape[0]):
            key = np.int64(SUIT_BIAS)
            sub_mask = np.int64(0)
            for j in range(5):
                c = cards[i, subsets[s, j]]
                key += card_key[c]
                sub_mask |= card_bit[c]
            if (key & FLUSH_CHECK) != 0:
                value = np.int64(flush[(sub_mask >> (16 * _flush_suit(key))) & 0x1FFF])
            else:
                value = np.int64(rank_of_key(key, offsets, lookup))
            best = max(best, value)
        out[i] = best


@numba.njit(cache=True, nogil=True)
def badugi_value(c0, c1, c2, c3):  # type: ignore[no-untyped-def]
    """Badugi value of four distinct card codes: more cards first, then lower cards.

    Layout: ``size << 16 | (0xFFFF - ranks)`` where ``ranks`` packs the chosen cards' ace-low
    ranks (1 = ace .. 13 = king) in four nibbles, highest first, so lower cards score higher.
    """
    codes = (c0, c1, c2, c3)
    best = np.int64(0)
    for subset in range(1, 16):
        suits = 0
        ranks = 0
        size = 0
        for j in range(4):
            if subset >> j & 1:
                suit_bit = 1 << (codes[j] & 3)
                rank_bit = 1 << (((codes[j] >> 2) + 1) % 13)
                if suits & suit_bit or ranks & rank_bit:
                    size = 0
                    break
                suits |= suit_bit
                ranks |= rank_bit
                size += 1
        if size == 0:
            continue
        packed = np.int64(0)
        placed = 0
        for r in range(12, -1, -1):
            if ranks >> r & 1:
                packed |= np.int64(r + 1) << (4 * (3 - placed))
                placed += 1
        best = max(best, (np.int64(size) << 16) | (0xFFFF - packed))
    return best


@numba.njit(parallel=True, cache=True, nogil=True)
def badugi(cards, card_bit, out):  # type: ignore[no-untyped-def]
    for i in numba.prange(cards.shape[0]):
        mask = np.int64(0)
        for j in range(4):
            mask |= card_bit[cards[i, j]]
        if _popcount(mask) != 4 or (mask & POISON) != 0:  # type: ignore[call-arg]
            out[i] = -1
        else:
            out[i] = badugi_value(cards[i, 0], cards[i, 1], cards[i, 2], cards[i, 3])
