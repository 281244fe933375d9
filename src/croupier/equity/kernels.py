"""The numba kernels behind :func:`croupier.equity.equity`: exact enumeration and sampling of
deals, valued with the evaluation tables' perfect hash."""

from __future__ import annotations

import numba
import numpy as np

from croupier.evaluate.kernels import badugi_value, rank_of_key
from croupier.evaluate.tables import SUIT_BIAS, SUIT_SHIFT

BOARD = 5  # community cards of hold'em, the game enumerated by rank class

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
def _valued(key, mask, offsets, lookup, flush, suits):  # type: ignore[no-untyped-def]
    """Value of five to seven cards: ``key`` is their key sum plus SUIT_BIAS, ``mask`` their
    bits. With ``suits`` 0x1111, a suit with five or more cards (at most one can have) is
    valued as a flush; with 0, suits never count (ace-to-five lows)."""
    counters = (key >> (SUIT_SHIFT + 3)) & suits  # bit 4s set: suit s has five or more
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


_MAX_REDRAWS = 1_000_000  # range draws in a row that clash before a deal is given up


@numba.njit(inline="always")
def _uniform(z):  # type: ignore[no-untyped-def]
    """A float in [0, 1) from the top 53 bits of ``z``."""
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@numba.njit(cache=True, nogil=True)
def deals(start, stop, sampling, state, trials, base, board_size, hole, pool, dest, unknown,  # type: ignore[no-untyped-def]
          mode, used, pairs, triples, suits, card_key, card_bit, offsets, lookup, flush,
          low_lookup, low_min, ranged, range_start, range_stop, combos, alias, combo_bits,
          histogram, hist, pots, scoops, parts, squares):  # fmt: skip
    """Deals of any game, card by card, exactly or by sampling. Returns 1 if ranges clashed
    on every one of ``_MAX_REDRAWS`` draws in a row (they leave almost no deal), else 0.

    ``base`` holds the board's ``board_size`` slots, then each hand's ``hole`` slots: a card,
    or -1 where one is still to be dealt. Exact (``sampling`` False): tasks ``start`` to
    ``stop`` - 1, task t dealing every ``unknown``-card combination of ``pool`` whose first
    card is ``pool[t]``, each handed out every way of ``dest`` (a row per split: the slot each
    dealt card fills). Sampling: ``trials`` deals from the splitmix64 ``state``; first each
    hand in ``ranged`` draws two cards ``combos[i]`` from its range (``range_start[p]`` to
    ``range_stop[p]``, by Walker's alias method: combination i is kept with probability
    ``alias[i, 0]``, else combination ``alias[i, 1]`` is taken; all again if two clash), then the
    unknown cards are drawn by rejection.

    ``mode`` 0: each hand is the best five of its cards and the board, a flush counting where
    ``suits`` is 0x1111, plus its best low (``low_lookup``) when that reaches ``low_min`` > 0;
    1: exactly ``used`` hole cards (``pairs``) and the rest from the board (``triples``);
    2: badugi. A deal is tallied by winner set into ``hist`` (``histogram``), else in
    ``pots[p, kind, k]``: deals where hand p won a share split k ways of the whole pot (kind
    0), the high half (1) or the low half (2); ``scoops[p]``: the whole pot alone;
    ``parts[p]``: some but not all of it; ``squares[p]``: p's squared pot shares.
    """
    size = pool.shape[0]
    n = (base.shape[0] - board_size) // hole
    low_game = low_min > 0
    cards = base.copy()
    high = np.zeros(n, dtype=np.int64)
    low = np.full(n, -1, dtype=np.int64)
    triple_key = np.zeros(triples.shape[0], dtype=np.int64)
    triple_bits = np.zeros(triples.shape[0], dtype=np.int64)
    index = np.arange(start, start + max(unknown, 1))
    task = start
    split = 0
    remaining = trials
    while True:
        # the next deal
        if sampling:
            if remaining == 0:
                break
            remaining -= 1
            taken = np.int64(0)
            redraws = 0
            while ranged.shape[0] > 0:
                taken = np.int64(0)
                clash = False
                for r in range(ranged.shape[0]):
                    p = ranged[r]
                    state += np.uint64(_GOLDEN)
                    u = _uniform(_mixed(state))
                    span = range_stop[p] - range_start[p]  # the alias method: O(1)
                    x = u * span
                    k = min(np.int64(x), span - 1)
                    lo = range_start[p] + k
                    lo = lo if x - k < alias[lo, 0] else np.int64(alias[lo, 1])
                    if combo_bits[lo] & taken:
                        clash = True
                        break
                    taken |= combo_bits[lo]
                    cards[board_size + p * hole] = combos[lo, 0]
                    cards[board_size + p * hole + 1] = combos[lo, 1]
                if not clash:
                    break
                redraws += 1
                if redraws == _MAX_REDRAWS:
                    return 1
            for u in range(unknown):
                while True:
                    state += np.uint64(_GOLDEN)
                    c = pool[_below(_mixed(state), size)]
                    if not taken & card_bit[c]:
                        break
                taken |= card_bit[c]
                cards[dest[0, u]] = c
        else:
            if split == dest.shape[0]:  # the next combination
                split = 0
                i = unknown - 1
                while i >= 1 and index[i] == size - unknown + i:
                    i -= 1
                if i < 1:  # the task's combinations are done: the next task
                    task += 1
                    if task >= stop:
                        break
                    for k in range(unknown):
                        index[k] = task + k
                else:
                    index[i] += 1
                    for k in range(i + 1, unknown):
                        index[k] = index[k - 1] + 1
            if unknown > 0 and index[unknown - 1] >= size:
                break  # a task too late to start a combination
            for u in range(unknown):
                cards[dest[split, u]] = pool[index[u]]
            split += 1
            if unknown == 0:
                split = dest.shape[0]
                task = stop  # one deal, nothing to deal

        # every hand's value
        if mode == 0:  # any five of the hand and the board
            board_key = np.int64(SUIT_BIAS)
            board_bits = np.int64(0)
            for j in range(board_size):
                board_key += card_key[cards[j]]
                board_bits |= card_bit[cards[j]]
            for p in range(n):
                key = board_key
                bits = board_bits
                for h in range(hole):
                    key += card_key[cards[board_size + p * hole + h]]
                    bits |= card_bit[cards[board_size + p * hole + h]]
                high[p] = _valued(key, bits, offsets, lookup, flush, suits)
                if low_game:
                    value = _hashed(key, offsets, low_lookup)
                    low[p] = value if value >= low_min else -1
        elif mode == 1:  # exactly `used` hole cards, the rest from the board
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
                        pair_key += card_key[cards[board_size + p * hole + pairs[q, j]]]
                        pair_bits |= card_bit[cards[board_size + p * hole + pairs[q, j]]]
                    for t in range(triples.shape[0]):
                        key = pair_key + triple_key[t]
                        bits = pair_bits | triple_bits[t]
                        best = max(best, _valued(key, bits, offsets, lookup, flush, suits))
                        if low_game:
                            value = _hashed(key, offsets, low_lookup)
                            if value >= low_min:
                                best_low = max(best_low, value)
                high[p] = best
                low[p] = best_low
        else:  # badugi: the hand's four cards
            for p in range(n):
                at = board_size + p * hole
                high[p] = badugi_value(cards[at], cards[at + 1], cards[at + 2], cards[at + 3])

        # the tally
        best = np.int64(-1)
        winners = np.int64(0)
        for p in range(n):
            bit = np.int64(1) << p
            winners = bit if high[p] > best else (winners | bit if high[p] == best else winners)
            best = max(best, high[p])
        if histogram:
            hist[winners] += 1
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
            share = 0.0
            wins = (winners >> p) & 1
            if best_low < 0:  # no qualifying low (or no low half): the whole pot to the high
                if wins:
                    pots[p, 0, ways] += 1
                    share = 1.0 / ways
            else:
                if wins:
                    pots[p, 1, ways] += 1
                    share += 0.5 / ways
                if low[p] == best_low:
                    pots[p, 2, low_ways] += 1
                    share += 0.5 / low_ways
            if share == 1.0:
                scoops[p] += 1
            elif share > 0.0:
                parts[p] += 1
            squares[p] += share * share
    return 0


@numba.njit(cache=True, nogil=True)
def sample_any_five(state, trials, pool, owner, board_key, board_bits, hole_key, hole_bits,  # type: ignore[no-untyped-def]
                     suits, card_key, card_bit, offsets, lookup, flush, ranged, range_start,
                     range_stop, combo_key, combo_bits, alias, hist):  # fmt: skip
    """``deals`` sampling any five of hand and board, hi only, by winner set: the known
    cards' keys are summed once, each range draw adds its precomputed ``combo_key``, and each
    dealt card is added where ``owner`` says (-1: the board, else that hand)."""
    n = hole_key.shape[0]
    size = pool.shape[0]
    unknown = owner.shape[0]
    board_only = owner.max() < 0 if unknown else True
    reset = ranged.shape[0] > 0 or not board_only
    keys = hole_key.copy()
    bits = hole_bits.copy()
    for _ in range(trials):
        taken = np.int64(0)
        if reset:
            for p in range(n):
                keys[p] = hole_key[p]
                bits[p] = hole_bits[p]
        redraws = 0
        while ranged.shape[0] > 0:
            taken = np.int64(0)
            clash = False
            for r in range(ranged.shape[0]):
                p = ranged[r]
                state += np.uint64(_GOLDEN)
                u = _uniform(_mixed(state))
                span = range_stop[p] - range_start[p]  # the alias method, as in deals
                x = u * span
                k = min(np.int64(x), span - 1)
                lo = range_start[p] + k
                lo = lo if x - k < alias[lo, 0] else np.int64(alias[lo, 1])
                if combo_bits[lo] & taken:
                    clash = True
                    break
                taken |= combo_bits[lo]
                keys[p] = hole_key[p] + combo_key[lo]
                bits[p] = hole_bits[p] | combo_bits[lo]
            if not clash:
                break
            redraws += 1
            if redraws == _MAX_REDRAWS:
                return 1
        board = np.int64(SUIT_BIAS + board_key)
        board_mask = np.int64(board_bits)
        for u in range(unknown):
            while True:
                state += np.uint64(_GOLDEN)
                c = pool[_below(_mixed(state), size)]
                if not taken & card_bit[c]:
                    break
            taken |= card_bit[c]
            if board_only or owner[u] < 0:
                board += card_key[c]
                board_mask |= card_bit[c]
            else:
                keys[owner[u]] += card_key[c]
                bits[owner[u]] |= card_bit[c]
        best = np.int64(-1)
        winners = np.int64(0)
        for p in range(n):
            value = _valued(board + keys[p], board_mask | bits[p], offsets, lookup, flush, suits)
            bit = np.int64(1) << p
            winners = bit if value > best else (winners | bit if value == best else winners)
            best = max(best, value)
        hist[winners] += 1
    return 0


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
                        value = _valued(full, flush_bits[p], offsets, lookup, flush, 0x1111)
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
