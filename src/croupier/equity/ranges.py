"""Hand ranges in the notation of hold'em equity tools.

A range is parts joined by commas: a class ``AKs`` (suited), ``AKo`` (offsuit), ``AK`` (both),
``QQ`` (a pair); a class with ``+``, which raises the lower card up to one below the higher
(``ATs+`` = ATs AJs AQs AKs; ``QQ+`` = QQ KK AA; ``T9s+`` = T9s alone, as in PokerStove and
eval7); a span ``22-55``, ``A2s-A5s`` (the higher card fixed) or ``T9s-54s`` (both cards
moving, the gap kept); exact cards ``AsKs``; a percentage ``15%``, the best classes of
:mod:`croupier.equity.hand_order` until they hold at least that share of all two-card hands;
and any part with a weight, ``QQ:0.5`` (each combination half as likely as one of weight 1).

>>> parse_range("QQ+, AKs").size, parse_range("22-55").size, parse_range("T9s+").size
(22, 24, 4)
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from dataclasses import dataclass
from fractions import Fraction

from croupier.cards import Card, CardError, DeckKind, parse_cards
from croupier.equity.games import EquityError
from croupier.equity.hand_order import ORDER

__all__ = ["HandRange", "RangeError", "hand_class", "parse_range", "top_classes"]

RANKS = "23456789TJQKA"
_CLASS = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([so]?)$", re.IGNORECASE)
_HINT = (
    "expected a class (AKs, AKo, AK, QQ), a class with + (QQ+, ATs+), a span (22-55, "
    "A2s-A5s, T9s-54s), cards (AsKs), a percentage (15%), each with an optional weight (:0.5)"
)

Combo = tuple[Card, Card]


class RangeError(EquityError):
    """A range that cannot be read, or that names no hand."""


@dataclass(frozen=True)
class HandRange:
    """Two-card hands with weights: ``combos[i]`` (higher card first) has ``weights[i]``."""

    text: str
    combos: tuple[Combo, ...]
    weights: tuple[Fraction, ...]

    @property
    def size(self) -> int:
        return len(self.combos)

    def without(self, cards: set[Card]) -> HandRange:
        """The hands that hold none of ``cards`` (card removal)."""
        pairs = zip(self.combos, self.weights, strict=True)
        kept = [(c, w) for c, w in pairs if not set(c) & cards]
        return HandRange(self.text, tuple(c for c, _ in kept), tuple(w for _, w in kept))

    def __str__(self) -> str:
        return self.text


def hand_class(combo: Combo) -> str:
    """The class of two cards: ``AKs``, ``AKo``, ``QQ``."""
    high, low = sorted(combo, reverse=True)
    name = RANKS[high >> 2] + RANKS[low >> 2]
    if high >> 2 == low >> 2:
        return name
    return name + ("s" if high & 3 == low & 3 else "o")


def parse_range(text: str, deck: DeckKind = DeckKind.STANDARD) -> HandRange:
    """Read a range (see the module docstring); combinations outside ``deck`` are left out."""
    weights: dict[Combo, tuple[Fraction, str]] = {}
    parts = [part.strip() for part in text.split(",")]
    if not any(parts):
        raise RangeError(f"empty range {text!r}: {_HINT}")
    for part in parts:
        if not part:
            raise RangeError(f"range {text!r} has an empty part between commas")
        body, weight = _weight(part)
        for combo in _combos(body, deck):
            if combo in weights and weights[combo][0] != weight:
                first = weights[combo][1]
                raise RangeError(
                    f"range {text!r} gives {combo[0]}{combo[1]} two weights ({first!r} and "
                    f"{part!r}): give each hand one"
                )
            weights.setdefault(combo, (weight, part))
    if not weights:
        raise RangeError(f"range {text!r} holds no hand of the {deck.size}-card deck")
    combos = tuple(weights)
    return HandRange(text.strip(), combos, tuple(weights[c][0] for c in combos))


def _weight(part: str) -> tuple[str, Fraction]:
    body, colon, given = part.partition(":")
    if not colon:
        return body.strip(), Fraction(1)
    try:
        weight = Fraction(given.strip())
    except (ValueError, ZeroDivisionError):
        raise RangeError(f"bad weight in {part!r}: expected a number above 0, at most 1") from None
    if not 0 < weight <= 1:
        raise RangeError(f"bad weight in {part!r}: expected a number above 0, at most 1")
    return body.strip(), weight


def _combos(body: str, deck: DeckKind) -> list[Combo]:
    if body.endswith("%"):
        return [c for name in top_classes(_percent(body), deck) for c in _class(name, deck)]
    if "-" in body:
        return _span(body, deck)
    if body.endswith("+"):
        return _plus(body[:-1], deck)
    if _CLASS.match(body):
        return _class(body, deck)
    try:
        cards = parse_cards(body)
    except CardError:
        raise RangeError(f"cannot read {body!r} in a range: {_HINT}") from None
    if len(cards) != 2:
        raise RangeError(f"{body!r} is {len(cards)} cards: a hand in a range has two")
    for card in cards:
        deck.check([card])
    return [_ordered(cards[0], cards[1])]


def _percent(body: str) -> float:
    try:
        share = float(body[:-1])
    except ValueError:
        raise RangeError(f"bad percentage {body!r}: expected e.g. 15%") from None
    if not 0 < share <= 100:
        raise RangeError(f"bad percentage {body!r}: expected above 0% and at most 100%")
    return share


def _ordered(a: Card, b: Card) -> Combo:
    return (a, b) if a > b else (b, a)


def _split(name: str) -> tuple[int, int, str]:
    match = _CLASS.match(name)
    if match is None:
        raise RangeError(f"cannot read {name!r} in a range: {_HINT}")
    high, low, kind = match.groups()
    first, second = RANKS.index(high.upper()), RANKS.index(low.upper())
    if first < second:
        raise RangeError(f"write the higher card first: {low.upper()}{high.upper()}{kind}")
    if first == second and kind:
        raise RangeError(f"{name!r}: a pair is neither suited nor offsuit")
    return first, second, kind.lower()


def _class(name: str, deck: DeckKind) -> list[Combo]:
    high, low, kind = _split(name)
    if low < deck.lowest:
        return []
    out = []
    for a, b in itertools.product(range(4), repeat=2):
        if high == low and a >= b:
            continue
        if (kind == "s" and a != b) or (kind == "o" and a == b):
            continue
        out.append(_ordered(Card(4 * high + a), Card(4 * low + b)))
    return out


def _name(high: int, low: int, kind: str) -> str:
    return RANKS[high] + RANKS[low] + ("" if high == low else kind)


def _plus(name: str, deck: DeckKind) -> list[Combo]:
    high, low, kind = _split(name)
    if high == low:
        return [c for r in range(low, 13) for c in _class(_name(r, r, ""), deck)]
    return [c for r in range(low, high) for c in _class(_name(high, r, kind), deck)]


def _span(body: str, deck: DeckKind) -> list[Combo]:
    first, _, last = body.partition("-")
    a_high, a_low, a_kind = _split(first.strip())
    b_high, b_low, b_kind = _split(last.strip())
    if a_kind != b_kind:
        raise RangeError(f"span {body!r}: both ends must be suited, offsuit, or neither")
    if a_high == a_low and b_high == b_low:  # pairs: 22-55
        ranks = range(min(a_low, b_low), max(a_low, b_low) + 1)
        return [c for r in ranks for c in _class(_name(r, r, ""), deck)]
    if a_high == b_high and a_high not in (a_low, b_low):  # the higher card fixed: A2s-A5s
        ranks = range(min(a_low, b_low), max(a_low, b_low) + 1)
        return [c for r in ranks for c in _class(_name(a_high, r, a_kind), deck)]
    gap = a_high - a_low
    if gap == b_high - b_low and gap > 0:  # both moving, the gap kept: T9s-54s
        tops = range(min(a_high, b_high), max(a_high, b_high) + 1)
        return [c for r in tops for c in _class(_name(r, r - gap, a_kind), deck)]
    raise RangeError(
        f"span {body!r}: expected pairs (22-55), one higher card (A2s-A5s) or one gap (T9s-54s)"
    )


@functools.cache
def _deck_classes(deck: DeckKind) -> tuple[tuple[str, int], ...]:
    """The classes of the deck, best first, with their combinations."""
    out = []
    for name, _ in ORDER:
        count = len(_class(name, deck))
        if count:
            out.append((name, count))
    return tuple(out)


def top_classes(percent: float, deck: DeckKind = DeckKind.STANDARD) -> list[str]:
    """The best classes (``hand_order``), fewest that hold at least ``percent`` of all the
    deck's two-card hands: 5% of 1,326 is 66.3, so ``top_classes(5)`` is AA KK QQ JJ TT 99
    88 AKs 77 AQs AJs AKo, 72 hands."""
    total = math.comb(deck.size, 2)
    target = percent / 100 * total
    out, held = [], 0
    for name, count in _deck_classes(deck):
        if held >= target - 1e-9:
            break
        out.append(name)
        held += count
    return out
