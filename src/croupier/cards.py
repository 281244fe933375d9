"""Cards, ranks, suits and deck kinds (shuffling and dealing are :mod:`croupier.deck`).

A card is a small int, ``code = 4 * rank + suit`` (rank 0 = deuce .. 12 = ace; suit 0 = clubs ..
3 = spades), so cards index lookup tables directly and sort by rank, then suit. Suit values follow
the tie-break order spades > hearts > diamonds > clubs (cardroom ties 1; au 12.2(a), 13.2(a)).
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Iterable, Sequence

__all__ = [
    "Card",
    "CardError",
    "DeckKind",
    "Rank",
    "Suit",
    "check_unique",
    "format_cards",
    "parse_cards",
    "parse_cards_or_unknown",
]

UNKNOWN = "??"


class CardError(ValueError):
    """Malformed card notation, a duplicate card, or a card outside the deck in play."""


class Rank(enum.IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def noun(self) -> str:
        """The rank's name as used in hand descriptions ("Kings", "Sixes")."""
        return _RANK_NOUNS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.upper()
        if key == "10":
            return cls.TEN
        index = _RANK_CHARS.find(key) if len(key) == 1 else -1
        if index < 0:
            raise CardError(f"unknown rank {text!r}: expected one of 2-9, T (or 10), J, Q, K, A")
        return cls(index)


class Suit(enum.IntEnum):
    """Suits in tie-break order: clubs lowest, spades highest (cardroom ties 1)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return _SUIT_CHARS[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        index = _SUIT_CHARS.find(text.lower()) if len(text) == 1 else -1
        if index < 0:
            raise CardError(f"unknown suit {text!r}: expected one of c, d, h, s")
        return cls(index)


_RANK_CHARS = "23456789TJQKA"
_SUIT_CHARS = "cdhs"
_RANK_NOUNS = (
    "Twos", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
    "Jacks", "Queens", "Kings", "Aces",
)  # fmt: skip


class Card(int):
    """One playing card; an ``int`` equal to its code ``4 * rank + suit``.

    >>> Card("Ah"), Card("10c"), Card(50)
    (Card('Ah'), Card('Tc'), Card('Ah'))
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return cls.parse(value)
        if isinstance(value, Card):
            return value
        try:  # ints and numpy integers, but not floats or bools
            if isinstance(value, bool):
                raise TypeError
            code = operator.index(value)
        except TypeError:
            raise CardError(
                f"not a card: {value!r} (expected a code 0..51 or text like 'Ah')"
            ) from None
        if not 0 <= code < 52:
            raise CardError(f"card code {code!r} is out of range: expected 0..51 (4*rank + suit)")
        return _CARDS[code]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``Ah``, ``Td``, ``10d``; raises :class:`CardError` naming the bad text."""
        body = text.strip()
        if len(body) not in (2, 3):
            raise CardError(f"bad card {text!r}: expected rank then suit, e.g. 'Ah', 'Td', '10d'")
        try:
            rank = Rank.parse(body[:-1])
            suit = Suit.parse(body[-1])
        except CardError as error:
            raise CardError(f"bad card {text!r}: {error}") from None
        return _CARDS[4 * rank + suit]

    @property
    def rank(self) -> Rank:
        return Rank(self >> 2)

    @property
    def suit(self) -> Suit:
        return Suit(self & 3)

    def __str__(self) -> str:
        return _RANK_CHARS[self >> 2] + _SUIT_CHARS[self & 3]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, code) for code in range(52))


def _split(text: str | Iterable[str | int]) -> list[str | int]:
    if isinstance(text, str):
        # Accept "Ah Kd", "AhKd" and "Ah,Kd".
        tokens: list[str | int] = []
        for word in text.replace(",", " ").split():
            tokens.extend(_split_run(word))
        return tokens
    return [token.strip() if isinstance(token, str) else token for token in text]


def _card(token: str | int) -> Card:
    return Card.parse(token) if isinstance(token, str) else Card(token)


def _split_run(word: str) -> list[str]:
    tokens: list[str] = []
    index = 0
    while index < len(word):
        size = 3 if word.startswith("10", index) else 2
        tokens.append(word[index : index + size])
        index += size
    return tokens


def parse_cards(text: str | Iterable[str | int]) -> tuple[Card, ...]:
    """Parse ``"Ah Td 9c"`` (or ``"AhTd9c"``, or a list of texts or codes) into cards.

    Duplicates are an error, and so is ``??``: every card here is known. Where a card may be
    unseen, :func:`parse_cards_or_unknown` reads ``??`` as None."""
    tokens = _split(text)
    if UNKNOWN in tokens:
        raise CardError(
            f"'??' (an unseen card) in {text!r}: parse_cards reads known cards only; "
            f"parse_cards_or_unknown reads '??' as None"
        )
    cards = tuple(_card(token) for token in tokens)
    check_unique(cards)
    return cards


def parse_cards_or_unknown(text: str | Iterable[str | int]) -> tuple[Card | None, ...]:
    """Like :func:`parse_cards`, but ``??`` stands for a card nobody has seen (``None``)."""
    cards = tuple(None if token == UNKNOWN else _card(token) for token in _split(text))
    check_unique([card for card in cards if card is not None])
    return cards


def format_cards(cards: Iterable[Card | None]) -> str:
    """``"Ah Td ??"``: the inverse of :func:`parse_cards_or_unknown`."""
    return " ".join(UNKNOWN if card is None else str(card) for card in cards)


def check_unique(cards: Sequence[Card]) -> None:
    """Raise :class:`CardError` naming the first card that appears twice."""
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"duplicate card {card}: each card exists once in a deck")
            seen.add(card)


class DeckKind(enum.Enum):
    """The decks poker is played with (au 4.1), plus the 20-card royal deck."""

    STANDARD = (52, Rank.TWO, "au 4.1(a)")
    SHORT_40 = (40, Rank.FIVE, "au 4.1(b)")
    SHORT_36 = (36, Rank.SIX, "au 4.1(c)")
    SHORT_32 = (32, Rank.SEVEN, "au 4.1(d)")
    ROYAL_20 = (20, Rank.TEN, "royal deck (not in the seed books)")

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is Python code

    def __init__(self, size: int, lowest: Rank, clause: str) -> None:
        self.size = size
        self.lowest = lowest
        self.clause = clause

    @property
    def ranks(self) -> tuple[Rank, ...]:
        """The deck's ranks, lowest first."""
        return tuple(Rank(r) for r in range(self.lowest, 13))

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card of the deck in code order (deuce of clubs first, ace of spades last)."""
        return _CARDS[4 * self.lowest :]

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 4 * self.lowest <= card < 52

    def check(self, cards: Iterable[Card]) -> None:
        """Raise :class:`CardError` for a card this deck does not hold."""
        cards = list(cards)
        if all(type(card) is Card for card in cards) and min(cards, default=51) >= 4 * self.lowest:
            return  # the common case: Card objects are codes 0..51 by construction
        for card in cards:
            if card not in self:
                raise CardError(
                    f"card {Card(card)} is not in the {self.size}-card deck ({self.clause}): "
                    f"its ranks are {self.lowest.char} to A"
                )

    @classmethod
    def from_size(cls, size: int) -> DeckKind:
        for kind in cls:
            if kind.size == size:
                return kind
        raise CardError(f"no deck of {size} cards: expected one of 52, 40, 36, 32, 20 (au 4.1)")
