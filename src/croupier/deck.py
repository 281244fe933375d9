"""Shuffling and dealing: a deck in play, and the random sources that order it (au 6.1).

Compiled with the engine (see setup.py): a deck is shuffled for every hand and dealt from on
every street.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Iterable
from typing import Final, Protocol

from croupier.cards import Card, CardError, DeckKind, check_unique, format_cards

__all__ = ["SECURE", "Deck", "SecureShuffler", "SeededShuffler", "Shuffler", "shuffle"]


class Shuffler(Protocol):
    """A source of uniform random integers; ``randbelow(n)`` returns 0 <= k < n."""

    def randbelow(self, n: int) -> int: ...


class _BitsShuffler:
    """Unbiased integers from random bits by rejection (no modulo bias).

    The bits are fetched 2,048 at a time and used a 32-bit word at a time, which gives the
    values one ``getrandbits`` call per draw would: CPython's Mersenne Twister fills a wide
    request from its 32-bit outputs, the first in the lowest word, and a request of k <= 32
    bits is the top k bits of one output.
    """

    def __init__(self, source: random.Random | None) -> None:
        """``source``: None to have :meth:`_new_source` make it when the first bits are needed
        (seeding a generator costs more than many a hand uses: a replay draws none)."""
        self._source = source
        self._buffer = b""
        self._used = 0  # bytes of the buffer used

    def _new_source(self) -> random.Random:
        raise NotImplementedError

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randbelow needs a positive bound, got {n}")
        bits = n.bit_length()
        while True:
            value = self._bits(bits)
            if value < n:
                return value

    def shuffle(self, items: list[Card]) -> None:
        """:func:`shuffle` with the draws inlined: the same order, in less time."""
        if len(items) > 255:
            for i in range(len(items) - 1, 0, -1):
                j = self.randbelow(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        # Every draw takes 8 bits or fewer: the top bits of a word's last byte (see _bits).
        buffer, used = self._buffer, self._used
        size = len(buffer)
        i = len(items) - 1
        while i > 0:
            shift = _SHIFTS[i + 1]  # 8 - (i + 1).bit_length()
            while True:
                if used == size:
                    self._refill()
                    buffer, used = self._buffer, 0
                    size = len(buffer)
                j = buffer[used + 3] >> shift
                used += 4
                if j <= i:
                    break
            items[i], items[j] = items[j], items[i]
            i -= 1
        self._used = used

    def _bits(self, k: int) -> int:
        """What ``getrandbits(k)`` would return."""
        if k <= 8:  # the top bits of the next word, in its last byte
            at = self._take_word()
            return self._buffer[at + 3] >> (8 - k)
        value = shift = 0
        while k > 0:
            at = self._take_word()
            word = int.from_bytes(self._buffer[at : at + 4], "little")
            value |= (word >> (32 - k) if k < 32 else word) << shift
            shift += 32
            k -= 32
        return value

    def _take_word(self) -> int:
        """Where in the buffer the next 32-bit word starts (least significant byte first)."""
        if self._used == len(self._buffer):
            self._refill()
        self._used += 4
        return self._used - 4

    def _refill(self) -> None:
        if self._source is None:
            self._source = self._new_source()
        bits = self._source.getrandbits(_FETCH_BITS)
        self._buffer = bits.to_bytes(_FETCH_BITS // 8, "little")
        self._used = 0


_FETCH_BITS: Final = 2048
_SHIFTS: Final = bytes(8 - n.bit_length() for n in range(256))  # a draw below n: the top bits


class SecureShuffler(_BitsShuffler):
    """The default: the operating system's cryptographically secure generator.

    Bytes buffered before a ``fork()`` are never used after it: every child would hold the
    same ones and deal related decks. Each use checks a counter the fork hook bumps."""

    def __init__(self) -> None:
        super().__init__(secrets.SystemRandom())
        self._forks = _forks[0]

    def _fresh(self) -> None:
        """Drop the buffer if this process was forked since it was filled."""
        if self._forks != _forks[0]:
            self._forks = _forks[0]
            self._buffer = b""
            self._used = 0

    def randbelow(self, n: int) -> int:
        self._fresh()
        return super().randbelow(n)

    def shuffle(self, items: list[Card]) -> None:
        self._fresh()
        super().shuffle(items)

    def __repr__(self) -> str:
        return "SecureShuffler()"


_forks = [0]  # processes forked from this one's ancestors: bumped in every child


def _after_fork_in_child() -> None:
    _forks[0] += 1


os.register_at_fork(after_in_child=_after_fork_in_child)


SECURE: Final = SecureShuffler()
"""The default shuffler. The operating system's generator keeps no state, so one serves all."""


class SeededShuffler(_BitsShuffler):
    """Deterministic for a seed (Mersenne Twister bits), for tests, replays and simulation."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        super().__init__(None)

    def _new_source(self) -> random.Random:
        return random.Random(self.seed)

    def __repr__(self) -> str:
        return f"SeededShuffler({self.seed!r})"


def shuffle(items: list[Card], shuffler: Shuffler) -> None:
    """Fisher-Yates in place: every order equally likely when ``randbelow`` is uniform."""
    if isinstance(shuffler, _BitsShuffler):
        shuffler.shuffle(items)
        return
    for i in range(len(items) - 1, 0, -1):
        j = shuffler.randbelow(i + 1)
        items[i], items[j] = items[j], items[i]


_DECK_CARDS: Final[dict[DeckKind, list[Card]]] = {}  # each kind's cards in code order


class Deck:
    """An ordered stack of cards; ``deal`` takes from the top (the front)."""

    def __init__(self, kind: DeckKind, cards: Iterable[Card]) -> None:
        self.kind = kind
        self._cards: list[Card] = list(cards)
        self._top = 0  # cards before this index are dealt: dealing moves it, copying nothing
        if self._cards:
            kind.check(self._cards)
            check_unique(self._cards)

    @classmethod
    def shuffled(cls, kind: DeckKind = DeckKind.STANDARD, shuffler: Shuffler | None = None) -> Deck:
        known = _DECK_CARDS.get(kind)
        if known is None:
            known = _DECK_CARDS[kind] = list(kind.cards)
        cards = known.copy()
        shuffle(cards, shuffler if shuffler is not None else SECURE)
        deck = cls(kind, ())
        deck._cards = cards  # the deck's own cards, reordered: nothing to check
        return deck

    @classmethod
    def ordered(cls, kind: DeckKind = DeckKind.STANDARD) -> Deck:
        return cls(kind, kind.cards)

    def deal(self, count: int = 1) -> tuple[Card, ...]:
        if count < 0:
            raise ValueError(f"cannot deal {count} cards")
        top = self._top
        left = len(self._cards) - top
        if count > left:
            raise CardError(f"cannot deal {count} cards: only {left} left in the deck")
        self._top = top + count
        if count == 1:
            return (self._cards[top],)  # a burn, a turn, a river: no slice to make
        return tuple(self._cards[top : top + count])

    def peek(self, count: int) -> tuple[Card, ...]:
        """The next ``count`` cards, left in place."""
        top = self._top
        left = len(self._cards) - top
        if count > left:
            raise CardError(f"cannot deal {count} cards: only {left} left in the deck")
        return tuple(self._cards[top : top + count])

    def take(self, card: Card) -> bool:
        """Remove ``card`` from the stub, wherever it is (a dealer who reports the cards he deals
        takes them out of what is left); False when the stub does not hold it."""
        self._drop_dealt()
        try:
            self._cards.remove(card)
        except ValueError:
            return False
        return True

    def __contains__(self, card: object) -> bool:
        self._drop_dealt()
        return card in self._cards

    def restock(self, cards: Iterable[Card], shuffler: Shuffler) -> None:
        """Shuffle ``cards`` (burns or discards) together with what is left, to finish a deal
        the stub cannot (au 11.3(b), 12.4(a), 13.4(a))."""
        self._drop_dealt()
        pool = self._cards + list(cards)
        self.kind.check(pool)
        check_unique(pool)
        shuffle(pool, shuffler)
        self._cards = pool

    @property
    def cards(self) -> tuple[Card, ...]:
        self._drop_dealt()
        return tuple(self._cards)

    def __len__(self) -> int:
        return len(self._cards) - self._top

    def __repr__(self) -> str:
        self._drop_dealt()
        return f"Deck(DeckKind.{self.kind.name}, parse_cards({format_cards(self._cards)!r}))"

    def _drop_dealt(self) -> None:
        """Forget the dealt cards, before anything but dealing looks at the stub."""
        if self._top:
            del self._cards[: self._top]
            self._top = 0
