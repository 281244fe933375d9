"""The numba kernels behind :func:`croupier.equity.equity`: exact enumeration and sampling of
deals, valued with the evaluation tables' perfect hash."""

from __future__ import annotations

import numba
import numpy as np

from croupier.evaluate.kernels import rank_of_key
from croupier.evaluate.tables import SUIT_BIAS, SUIT_SHIFT

BOARD = 5  # community cards in every equity game
# --- kernels ---------------------------------------------------------------------------------
#
# Numba increments and decrements the reference count of every array a called or inlined
# function takes, unless the pair falls in one basic block (where it is pruned). Per deal, that
# would cost more than the deal: so the helpers below are branch-free, and everything with a
# loop or a branch is written out in the kernels themselves.

_SUIT_MASK = 0x1FFF
_GOLDEN = 0x9E3779B97F4A7C15  # splitmix64's increment


@numba.njit(inline="always")
def _hashed(key, offsets, lookup):  # type: ignore[no-untyped-def]
    """Value of the ranks in ``key`` ignoring suits (the perfect hash of tables.py)."""
    return np.int64(rank_of_key(key, offsets, lookup))


@numba.njit(inline="always")
def _valued(key, mask, offsets, lookup, flush):  # type: ignore[no-untyped-def]
    """Value of five to seven cards: ``key`` is their key sum plus SUIT_BIAS, ``mask`` their
    bits. A suit with five or more cards (at most one can have) is valued as a flush."""
    counters = (key >> (SUIT_SHIFT + 3)) & 0x1111  # bit 4s set: suit s has five or more
    shift = ((counters >> 4) & 1) * 16 + ((counters >> 8) & 1) * 32 + ((counters >> 12) & 1) * 48
    suited = np.int64(flush[(mask >> shift) & _SUIT_MASK])
    return suited if counters else _hashed(key, offsets, lookup)


@numba.njit(inline="always")
def _mixed(z):  # type: ignore[no-untyped-def]
    """splitmix64's output function (Steele, Lea and Flood 2014) of a state ``z``."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(inline="always")
def _below(z, size):  # type: ignore[no-untyped-def]
    """An index below ``size`` from the top 32 bits of ``z`` by multiply-shift (the bias is
    below size / 2**32)."""
    return np.int64(((z >> np.uint64(32)) * np.uint64(size)) >> np.uint64(32))


@numba.njit(cache=True, nogil=True)
def deals(start, step, sampling, base, pool, dest, unknown, n, hole, used, pairs, triples,  # type: ignore[no-untyped-def]
           card_key, card_bit, offsets, lookup, flush, low_lookup, low_min, seeds, per_chunk,
           histogram, hist, counts, squares):  # fmt: skip
    """Every game but known-hand hold'em, exactly or by sampling; tasks start, start + step...

    Exact (``sampling`` False): task t deals every ``unknown``-card combination of ``pool``
    whose first card is ``pool[t]``, each card set handed out every way of ``dest`` (a row
    per split: the slot of ``base`` each dealt card fills). Sampling: task t deals
    ``per_chunk[t]`` random deals from stream ``seeds[t]``, drawing cards by rejection.

    Each hand is the best five of its hole cards and the board (``used`` 0), or of exactly
    ``used`` of its hole cards (``pairs``) and the rest from the board (``triples``); with
    ``low_min`` set, also its best low from ``low_lookup`` if that qualifies. A deal is tallied
    by winner set into ``hist[t]`` (``histogram``) or else, split hi-lo, into ``counts[t, p,
    k]``: half pots p won k ways (k = 0: whole pots won alone), with ``squares[t, p]`` the sum
    of p's squared shares.
    """
    size = pool.shape[0]
    tasks = seeds.shape[0] if sampling else (size - unknown + 1 if unknown > 0 else 1)
    low_game = low_min > 0
    for task in range(start, tasks, step):
        cards = base.copy()
        high = np.zeros(n, dtype=np.int64)
        low = np.full(n, -1, dtype=np.int64)
        share = np.zeros(n, dtype=np.float64)
        square = np.zeros(n, dtype=np.float64)
        triple_key = np.zeros(triples.shape[0], dtype=np.int64)
        triple_bits = np.zeros(triples.shape[0], dtype=np.int64)
        tally = np.zeros(hist.shape[1], dtype=np.int64)
        settled = np.zeros((n, n + 1), dtype=np.int64)
        index = np.arange(task, task + max(unknown, 1))
        state = seeds[task] if sampling else np.uint64(0)
        remaining = per_chunk[task] if sampling else 0
        split = 0
        while True:
            # the next deal
            if sampling:
                if remaining == 0:
                    break
                remaining -= 1
                taken = np.int64(0)
                for u in range(unknown):
                    while True:
                        state += np.uint64(_GOLDEN)
                        j = _below(_mixed(state), size)
                        if not (taken >> j) & 1:
                            break
                    taken |= np.int64(1) << j
                    cards[dest[0, u]] = pool[j]
            else:
                if split == dest.shape[0]:  # next combination with the same first card
                    split = 0
                    i = unknown - 1
                    while i >= 1 and index[i] == size - unknown + i:
                        i -= 1
                    if i < 1:
                        break
                    index[i] += 1
                    for k in range(i + 1, unknown):
                        index[k] = index[k - 1] + 1
                for u in range(unknown):
                    cards[dest[split, u]] = pool[index[u]]
                split += 1

            # every hand's value
            if used == 0:  # any five of hole and board
                board_key = np.int64(SUIT_BIAS)
                board_bits = np.int64(0)
                for j in range(BOARD):
                    board_key += card_key[cards[j]]
                    board_bits |= card_bit[cards[j]]
                for p in range(n):
                    key = board_key
                    bits = board_bits
                    for h in range(hole):
                        key += card_key[cards[BOARD + p * hole + h]]
                        bits |= card_bit[cards[BOARD + p * hole + h]]
                    high[p] = _valued(key, bits, offsets, lookup, flush)
            else:  # exactly `used` hole cards, the rest from the board
                for t in range(triples.shape[0]):
                    key = np.int64(SUIT_BIAS)
                    bits = np.int64(0)
                    for j in range(triples.shape[1]):
                        key += card_key[cards[triples[t, j]]]
                        bits |= card_bit[cards[triples[t, j]]]
                    triple_key[t] = key
                    triple_bits[t] = bits
                for p in range(n):
                    best = np.int64(0)
                    best_low = np.int64(-1)
                    for q in range(pairs.shape[0]):
                        pair_key = np.int64(0)
                        pair_bits = np.int64(0)
                        for j in range(pairs.shape[1]):
                            pair_key += card_key[cards[BOARD + p * hole + pairs[q, j]]]
                            pair_bits |= card_bit[cards[BOARD + p * hole + pairs[q, j]]]
                        for t in range(triples.shape[0]):
                            key = pair_key + triple_key[t]
                            value = _valued(key, pair_bits | triple_bits[t], offsets, lookup, flush)
                            best = max(best, value)
                            if low_game:
                                value = _hashed(key, offsets, low_lookup)
                                if value >= low_min:
                                    best_low = max(best_low, value)
                    high[p] = best
                    low[p] = best_low

            # the tally
            best = np.int64(-1)
            winners = np.int64(0)
            for p in range(n):
                bit = np.int64(1) << p
                winners = bit if high[p] > best else (winners | bit if high[p] == best else winners)
                best = max(best, high[p])
            if histogram:
                tally[winners] += 1
                continue
            ways = np.int64(0)
            best_low = np.int64(-1)
            for p in range(n):
                ways += (winners >> p) & 1
                best_low = max(best_low, low[p])
            low_ways = 0
            for p in range(n):
                low_ways += low[p] == best_low
            for p in range(n):
                share[p] = 0.0
                wins = (winners >> p) & 1
                if best_low < 0:  # no qualifying low: both halves to the high hand(s)
                    if wins:
                        settled[p, ways] += 2
                        settled[p, 0] += ways == 1
                        share[p] = 1.0 / ways
                else:
                    if wins:
                        settled[p, ways] += 1
                        share[p] += 0.5 / ways
                    if low[p] == best_low:
                        settled[p, low_ways] += 1
                        share[p] += 0.5 / low_ways
                        settled[p, 0] += wins and ways == 1 and low_ways == 1  # a scoop
                square[p] += share[p] * share[p]
        hist[task] = tally
        if not histogram:
            counts[task] = settled
            squares[task] = square


@numba.njit(cache=True, nogil=True)
def sample_any_five(start, step, pool, owner, board_key, board_bits, hole_key, hole_bits,  # type: ignore[no-untyped-def]
                     card_key, card_bit, offsets, lookup, flush, seeds, per_chunk,
                     hist):  # fmt: skip
    """``deals`` sampling hold'em (any five of hole and board), by winner set: the known
    cards' keys are summed once, and each dealt card is added where ``owner`` says (-1: the
    board, else that hand)."""
    n = hole_key.shape[0]
    size = pool.shape[0]
    unknown = owner.shape[0]
    board_only = owner.max() < 0
    for chunk in range(start, seeds.shape[0], step):
        state = seeds[chunk]
        keys = hole_key.copy()
        bits = hole_bits.copy()
        tally = np.zeros(hist.shape[1], dtype=np.int64)
        for _ in range(per_chunk[chunk]):
            taken = np.int64(0)
            board = np.int64(SUIT_BIAS + board_key)
            board_mask = np.int64(board_bits)
            if not board_only:
                for p in range(n):
                    keys[p] = hole_key[p]
                    bits[p] = hole_bits[p]
            for u in range(unknown):
                while True:
                    state += np.uint64(_GOLDEN)
                    j = _below(_mixed(state), size)
                    if not (taken >> j) & 1:
                        break
                taken |= np.int64(1) << j
                c = pool[j]
                if board_only or owner[u] < 0:
                    board += card_key[c]
                    board_mask |= card_bit[c]
                else:
                    keys[owner[u]] += card_key[c]
                    bits[owner[u]] |= card_bit[c]
            best = np.int64(-1)
            winners = np.int64(0)
            for p in range(n):
                value = _valued(board + keys[p], board_mask | bits[p], offsets, lookup, flush)
                bit = np.int64(1) << p
                winners = bit if value > best else (winners | bit if value == best else winners)
                best = max(best, value)
            tally[winners] += 1
        hist[chunk] = tally


@numba.njit(inline="always")
def _popcount(x):  # type: ignore[no-untyped-def]
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@numba.njit(nogil=True)
def _rank_classes(available, size, multipliers, binomial, keys, weights):  # type: ignore[no-untyped-def]
    """Every multiset of ``size`` ranks that ``available[r]`` cards of each rank allow: into
    ``keys`` its rank key, into ``weights`` how many card combinations have those ranks
    (the product of C(available, taken) over its ranks). Returns how many multisets."""
    count = 0
    ranks = np.zeros(max(size, 1), dtype=np.int64)
    while True:
        weight = np.int64(1)
        key = np.int64(0)
        run = 0
        for i in range(size):
            key += multipliers[ranks[i]]
            run = run + 1 if i > 0 and ranks[i] == ranks[i - 1] else 1
            if i == size - 1 or ranks[i + 1] != ranks[i]:
                weight *= binomial[available[ranks[i]], run]
        if weight > 0:
            keys[count] = key
            weights[count] = weight
            count += 1
        i = size - 1  # the next non-decreasing sequence
        while i >= 0 and ranks[i] == 12:
            i -= 1
        if i < 0:
            return count
        ranks[i] += 1
        for j in range(i + 1, size):
            ranks[j] = ranks[i]


@numba.njit(cache=True, nogil=True)
def holdem_by_rank_class(hole_keys, hole_bits, board_key, board_bits, missing, pool,  # type: ignore[no-untyped-def]
                          multipliers, binomial, card_key, card_bit, offsets, lookup, flush,
                          hist):  # fmt: skip
    """Exact hold'em (two known hole cards each, any five) over every ``missing``-card board
    completion from ``pool``, tallied by winner set into ``hist[0]``.

    1. Each multiset of ``missing`` ranks, weighted by the completions with those ranks,
       valued on ranks alone: exact for every board on which nobody can make a flush.
    2. For each suit s, the completions with at least ``need = 5 - (most hole cards of s in
       one hand) - (board cards of s)`` new cards of s (every board on which someone can make
       a flush in s): the true outcome in, the rank-only one out. Such a board holds three or
       more cards of s, so no board is met for two suits, and no other suit can make a flush
       on it: its other new cards matter by rank alone, so they go by rank class too.
    """
    n = hole_keys.shape[0]
    base = np.empty(n, dtype=np.int64)
    for p in range(n):
        base[p] = SUIT_BIAS + hole_keys[p] + board_key
    available = np.zeros(13, dtype=np.int64)
    for c in pool:
        available[c >> 2] += 1
    keys = np.zeros(6188, dtype=np.int64)  # C(13 + 5 - 1, 5) non-decreasing rank sequences
    weights = np.zeros(6188, dtype=np.int64)
    tally = np.zeros(hist.shape[1], dtype=np.int64)

    # 1. every completion by rank class, flushes ignored
    count = _rank_classes(available, missing, multipliers, binomial, keys, weights)
    for i in range(count):
        best = np.int64(-1)
        winners = np.int64(0)
        for p in range(n):
            value = _hashed(base[p] + keys[i], offsets, lookup)
            bit = np.int64(1) << p
            winners = bit if value > best else (winners | bit if value == best else winners)
            best = max(best, value)
        tally[winners] += weights[i]

    # 2. completions on which a flush is possible: true outcome in, rank-only outcome out
    suited = np.empty(13, dtype=np.int64)
    chosen = np.zeros(BOARD, dtype=np.int64)
    flush_key = np.empty(n, dtype=np.int64)
    flush_bits = np.empty(n, dtype=np.int64)
    for s in range(4):
        most = 0
        for p in range(n):
            most = max(most, _popcount((hole_bits[p] >> (16 * s)) & _SUIT_MASK))
        need = 5 - most - _popcount((board_bits >> (16 * s)) & _SUIT_MASK)
        n_suited = 0
        others = np.zeros(13, dtype=np.int64)
        for c in pool:
            if c & 3 == s:
                suited[n_suited] = c
                n_suited += 1
            else:
                others[c >> 2] += 1
        for j in range(max(need, 0), min(missing, n_suited) + 1):
            count = _rank_classes(others, missing - j, multipliers, binomial, keys, weights)
            for i in range(j):
                chosen[i] = i
            while True:  # every j-combination of the suited cards
                key = np.int64(0)
                bits = np.int64(board_bits)
                for i in range(j):
                    key += card_key[suited[chosen[i]]]
                    bits |= card_bit[suited[chosen[i]]]
                for p in range(n):
                    flush_key[p] = base[p] + key
                    flush_bits[p] = bits | hole_bits[p]
                for i in range(count):
                    best = np.int64(-1)
                    winners = np.int64(0)
                    best_plain = np.int64(-1)
                    winners_plain = np.int64(0)
                    for p in range(n):
                        full = flush_key[p] + keys[i]
                        value = _valued(full, flush_bits[p], offsets, lookup, flush)
                        plain = _hashed(full, offsets, lookup)
                        bit = np.int64(1) << p
                        winners = (
                            bit if value > best else (winners | bit if value == best else winners)
                        )
                        best = max(best, value)
                        winners_plain = (
                            bit
                            if plain > best_plain
                            else (winners_plain | bit if plain == best_plain else winners_plain)
                        )
                        best_plain = max(best_plain, plain)
                    tally[winners] += weights[i]
                    tally[winners_plain] -= weights[i]
                i = j - 1  # the next combination
                while i >= 0 and chosen[i] == n_suited - j + i:
                    i -= 1
                if i < 0:
                    break
                chosen[i] += 1
                for k in range(i + 1, j):
                    chosen[k] = chosen[k - 1] + 1
    hist[0] = tally
