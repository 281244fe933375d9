"""The best five of five to seven cards, one hand at a time, compiled with the engine.

The hand engine values every hand at the showdown through this. It sums the cards' table keys
(see :mod:`croupier.evaluate.tables`) in machine integers. Anything it does not expect (numpy
integers, a card twice, a card outside the deck, a wrong count) goes to the interpreted
evaluator, which gives the same values and the precise errors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

__all__ = ["BestFive"]

# The key layout of croupier.evaluate.tables, repeated so that this module compiles alone
# (tests/test_evaluate_api.py holds them equal).
SUIT_SHIFT: Final = 32
SUIT_BIAS: Final = 0x3333 << SUIT_SHIFT
FLUSH_CHECK: Final = 0x8888 << SUIT_SHIFT
RANK_KEY_MASK: Final = (1 << SUIT_SHIFT) - 1
ROW_SHIFT: Final = 12
ROW_MASK: Final = (1 << ROW_SHIFT) - 1


class BestFive:
    """``cards -> value`` for one ranking's lookup tables."""

    def __init__(
        self,
        keys: list[int],
        offsets: bytes,
        lookup: bytes,
        flushes: list[int] | None,
        fallback: Callable[[Sequence[int]], int],
    ) -> None:
        """``keys[code]``: the card's table key, -1 outside the deck; ``offsets`` and ``lookup``:
        the perfect hash from rank key to value, as little-endian 32- and 16-bit integers (bytes
        index natively when compiled, and stay small enough for the processor's cache);
        ``flushes``: value of a flush by its rank mask, None where suits do not count;
        ``fallback``: the interpreted evaluator, for everything else."""
        self._keys = keys
        self._offsets = offsets
        self._lookup = lookup
        self._flushes = flushes
        self._fallback = fallback

    def __call__(self, cards: Sequence[object]) -> int:
        keys = self._keys
        key = SUIT_BIAS
        seen = 0
        count = 0
        # A list (what the engine passes) is walked natively; any other sequence is copied.
        items: list[object] = cards if isinstance(cards, list) else list(cards)
        for card in items:
            if not isinstance(card, int) or not 0 <= card < 52:
                return self._fallback(cards)  # type: ignore[arg-type]
            bit = 1 << card
            card_key = keys[card]
            if card_key < 0 or seen & bit:
                return self._fallback(cards)  # type: ignore[arg-type]
            seen |= bit
            key += card_key
            count += 1
        if not 5 <= count <= 7:
            return self._fallback(cards)  # type: ignore[arg-type]
        flushes = self._flushes
        if flushes is not None and key & FLUSH_CHECK:
            for suit in range(4):
                if key >> (SUIT_SHIFT + 4 * suit) & 8:  # five or more of this suit
                    mask = 0
                    for rank in range(13):
                        if seen >> (4 * rank + suit) & 1:
                            mask |= 1 << rank
                    return flushes[mask]
        rank_key = key & RANK_KEY_MASK
        offsets, lookup = self._offsets, self._lookup
        at = 4 * (rank_key >> ROW_SHIFT)
        offset = offsets[at] | offsets[at + 1] << 8 | offsets[at + 2] << 16 | offsets[at + 3] << 24
        slot = 2 * ((rank_key & ROW_MASK) + offset)
        return lookup[slot] | lookup[slot + 1] << 8
