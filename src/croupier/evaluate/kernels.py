"""Compiled batch kernels. Each writes one value per row, or -1 for an invalid row, and
returns how many rows were invalid (so the caller needs no second pass to know).

Rows are card codes of any integer type, read and checked right here: a ``uint8`` row indexes
the 256-entry per-card tables directly, a wider one is first folded to a byte (a value outside
0..255 marks the row invalid). Codes outside the deck in play carry the poison bits, which
push the popcount of a row's card mask past any row width; a repeated card pulls it below.
So one popcount checks a row: it equals the width exactly when the row is valid.

Each kernel is compiled per row width (5, 6 or 7 cards, a constant, so LLVM unrolls the card
loop) and per input type, serially: callers split rows over threads (the kernels release the
GIL). The 7-card high path is branch-free but for the rare row that holds a flush.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

import numba
import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from croupier.evaluate.tables import RANK_KEY_MASK, ROW_SHIFT, SUIT_BIAS, SUIT_SHIFT

__all__ = [
    "badugi",
    "badugi_keep",
    "badugi_value",
    "best_five",
    "low_27",
    "rank_of_key",
]

Kernel = Callable[..., int]  # returns the number of invalid rows
_COLUMNS = (1 << ROW_SHIFT) - 1
_SUIT_RANKS = 0x1FFF
_AHEAD = 64  # rows a wide-integer kernel asks the memory system for in advance


@intrinsic
def _popcount(typingctx, x):  # type: ignore[no-untyped-def]
    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        ctpop = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(ctpop, args)

    return types.int64(types.int64), codegen


@intrinsic
def _prefetch(typingctx, array, index):  # type: ignore[no-untyped-def]
    """Ask for row ``index`` of a 2-D C-contiguous ``array`` ahead of use (llvm.prefetch:
    a hint, which never faults)."""

    def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
        kind = signature.args[0]
        data = context.make_array(kind)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(  # type: ignore[no-untyped-call]
            context, builder, kind, data, [args[1]], wraparound=False, boundscheck=False
        )
        byte = ir.IntType(8).as_pointer()
        word = ir.IntType(32)
        hint = builder.module.declare_intrinsic(
            "llvm.prefetch", fnty=ir.FunctionType(ir.VoidType(), [byte, word, word, word])
        )
        read, keep, data_cache = ir.Constant(word, 0), ir.Constant(word, 0), ir.Constant(word, 1)
        builder.call(hint, [builder.bitcast(pointer, byte), read, keep, data_cache])
        return context.get_dummy_value()

    return types.none(array, index), codegen


@numba.njit(inline="always")
def rank_of_key(key, offsets, lookup):  # type: ignore[no-untyped-def]
    """The value of the ranks in a key sum, suits ignored: the perfect-hash lookup."""
    rank_key = key & RANK_KEY_MASK
    return lookup[(rank_key & _COLUMNS) + offsets[rank_key >> ROW_SHIFT]]


@numba.njit(inline="always")
def _flush_shift(counters):  # type: ignore[no-untyped-def]
    """Where the suit with five or more cards sits in a card mask (16 bits a suit);
    ``counters`` holds bit 4s for suit s (at most one is set with seven cards or fewer)."""
    return ((counters >> 4) & 1) * 16 + ((counters >> 8) & 1) * 32 + ((counters >> 12) & 1) * 48


@numba.njit(inline="always")
def _byte(code):  # type: ignore[no-untyped-def]
    """A card code folded to a table index; a code outside 0..255 goes to a poisoned byte."""
    wide = np.uint64(code)
    return min(wide, np.uint64(254))


@functools.cache
def best_five(width: int, wide: bool, flush_on: bool) -> Kernel:
    """``kernel(cards, card_key, card_bit, offsets, lookup, flush, out)``: the best five of
    ``width`` cards per row, where a flush, if any, is the best hand (high and short-deck
    rankings), or suits never count (``flush_on`` False: ace-to-five lows). ``wide``: rows of
    integers wider than a byte."""
    suits = 0x1111 if flush_on else 0

    @numba.njit(cache=True, nogil=True)
    def kernel(cards, card_key, card_bit, offsets, lookup, flush, out):  # type: ignore[no-untyped-def]
        rows = cards.shape[0]
        invalid = 0
        for i in range(rows):  # from 0: indices known non-negative, so no wraparound code
            if wide and i + _AHEAD < rows:
                _prefetch(cards, i + _AHEAD)  # type: ignore[call-arg]
            key = np.int64(SUIT_BIAS)
            mask = np.int64(0)
            for j in range(width):
                c = _byte(cards[i, j]) if wide else cards[i, j]
                key += card_key[c]
                mask |= card_bit[c]
            counters = (key >> (SUIT_SHIFT + 3)) & suits
            if counters:  # a flush: rare, so a branch beats loading the flush table every time
                value = np.int32(flush[(mask >> _flush_shift(counters)) & _SUIT_RANKS])
            else:
                value = np.int32(rank_of_key(key, offsets, lookup))
            valid: bool = _popcount(mask) == width  # type: ignore[call-arg]
            invalid += not valid
            out[i] = value if valid else -1
        return invalid

    return kernel


@functools.cache
def low_27(width: int, wide: bool) -> Kernel:
    """``kernel(cards, card_key, card_bit, offsets, lookup, flush, out)``:
    deuce-to-seven lows of six or seven cards, where a flush hurts. Without five cards of a
    suit no five can be a flush, and the best five by ranks is the rank table's value; with
    them (about 3% of random rows), every five-card subset is valued."""
    subsets = np.array(list(itertools.combinations(range(width), 5)), dtype=np.int64)

    @numba.njit(cache=True, nogil=True)
    def kernel(cards, card_key, card_bit, offsets, lookup, flush, out):  # type: ignore[no-untyped-def]
        invalid = 0
        for i in range(cards.shape[0]):
            key = np.int64(SUIT_BIAS)
            mask = np.int64(0)
            for j in range(width):
                c = _byte(cards[i, j]) if wide else cards[i, j]
                key += card_key[c]
                mask |= card_bit[c]
            value = np.int32(rank_of_key(key, offsets, lookup))
            if (key >> (SUIT_SHIFT + 3)) & 0x1111:
                value = np.int32(0)
                for s in range(subsets.shape[0]):
                    sub_key = np.int64(SUIT_BIAS)
                    sub_mask = np.int64(0)
                    for j in range(5):
                        c = _byte(cards[i, subsets[s, j]]) if wide else cards[i, subsets[s, j]]
                        sub_key += card_key[c]
                        sub_mask |= card_bit[c]
                    counters = (sub_key >> (SUIT_SHIFT + 3)) & 0x1111
                    plain = np.int32(rank_of_key(sub_key, offsets, lookup))
                    suited = np.int32(flush[(sub_mask >> _flush_shift(counters)) & _SUIT_RANKS])
                    value = max(value, suited if counters else plain)
            valid: bool = _popcount(mask) == width  # type: ignore[call-arg]
            invalid += not valid
            out[i] = value if valid else -1
        return invalid

    return kernel


# --- badugi ----------------------------------------------------------------------------------
#
# A badugi hand is the largest set of cards with different ranks and different suits, then the
# lowest. Sorted by ace-low rank, which cards make it depends only on which neighbours share a
# rank (3 bits) and on the suits in that order (8 bits), not on the ranks themselves: 2,048
# cases, each the set of sorted positions kept, found once by trying every subset.


@functools.cache
def badugi_keep() -> npt.NDArray[np.uint8]:
    """The table of kept positions (built on first use: it takes tens of milliseconds)."""
    table = np.zeros(1 << 11, dtype=np.uint8)
    for index in range(1 << 11):
        same, suit_bits = index & 7, index >> 3
        ranks = [0]
        for k in range(3):
            ranks.append(ranks[-1] + (0 if same >> k & 1 else 1))
        suits = [suit_bits >> (2 * k) & 3 for k in range(4)]
        best: tuple[int, tuple[int, ...]] | None = None
        for keep in range(1, 16):
            chosen = [k for k in range(4) if keep >> k & 1]
            if len({ranks[k] for k in chosen}) < len(chosen):
                continue
            if len({suits[k] for k in chosen}) < len(chosen):
                continue
            # more cards first, then the lower highest card, and so on down
            score = (len(chosen), tuple(-ranks[k] for k in reversed(chosen)))
            if best is None or score > best:
                best = score
                table[index] = keep
    return table


@numba.njit(inline="always")
def _sorted2(a, b):  # type: ignore[no-untyped-def]
    return min(a, b), max(a, b)


@numba.njit(cache=True, nogil=True)
def badugi_value(c0, c1, c2, c3):  # type: ignore[no-untyped-def]
    """Badugi value of four distinct card codes: more cards first, then lower cards.

    Layout: ``size << 16 | (0xFFFF - ranks)`` where ``ranks`` packs the chosen cards' ace-low
    ranks (1 = ace .. 13 = king) in four nibbles, highest first, so lower cards score higher.
    This is the reference the batch kernel is tested against: it tries every subset.
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


@numba.njit(inline="always")
def _ace_low(code):  # type: ignore[no-untyped-def]
    """Sort key: ace-low rank (0 = ace .. 12 = king) times four, plus the suit."""
    rank = code >> 2
    return (rank + 1 - 13 * (rank == 12)) * 4 + (code & 3)


@functools.cache
def badugi(wide: bool) -> Kernel:
    """``kernel(cards, card_bit, keep, out)``: badugi values of four-card rows
    by a sorting network and the ``keep`` table (see above)."""

    @numba.njit(cache=True, nogil=True)
    def kernel(cards, card_bit, keep, out):  # type: ignore[no-untyped-def]
        invalid = 0
        for i in range(cards.shape[0]):
            mask = np.int64(0)
            for j in range(4):
                c = _byte(cards[i, j]) if wide else cards[i, j]
                mask |= card_bit[c]
            a = _ace_low(np.int64(cards[i, 0]) & 63)
            b = _ace_low(np.int64(cards[i, 1]) & 63)
            c = _ace_low(np.int64(cards[i, 2]) & 63)
            d = _ace_low(np.int64(cards[i, 3]) & 63)
            a, b = _sorted2(a, b)
            c, d = _sorted2(c, d)
            a, c = _sorted2(a, c)
            b, d = _sorted2(b, d)
            b, c = _sorted2(b, c)
            same = (a >> 2 == b >> 2) | (b >> 2 == c >> 2) << 1 | (c >> 2 == d >> 2) << 2
            suits = (a & 3) | (b & 3) << 2 | (c & 3) << 4 | (d & 3) << 6
            kept = keep[same | suits << 3]
            packed = np.int64(0)
            shift = 12
            size = 0
            for position, card in ((3, d), (2, c), (1, b), (0, a)):  # highest first
                take = (kept >> position) & 1
                packed |= take * (((card >> 2) + 1) << shift)
                shift -= 4 * take
                size += take
            value = (np.int64(size) << 16) | (0xFFFF - packed)
            valid: bool = _popcount(mask) == 4  # type: ignore[call-arg]
            invalid += not valid
            out[i] = np.int32(value) if valid else -1
        return invalid

    return kernel
