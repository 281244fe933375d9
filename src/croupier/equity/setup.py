"""Reading an equity question: the game, the hands (cards, unseen cards or ranges), the board
and the dead cards, checked against each other and against the deck."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from croupier.cards import UNKNOWN, Card, CardError, format_cards
from croupier.cards import parse_cards_or_unknown as _parse_or_unknown
from croupier.equity.games import EquityError, EquityGame, deck_kind, deck_size, game
from croupier.equity.ranges import HandRange, parse_range
from croupier.evaluate.rankings import Ranking

__all__ = ["Setup", "make_setup"]

HandLike = str | HandRange | Iterable[Card | int | str | None]
CardsLike = str | Iterable[Card | int | str]
Combo = tuple[Card, Card]
_CARDS = re.compile(r"^(\s|10[cdhs]|[2-9TJQKA][cdhs]|\?\?)*$", re.IGNORECASE)  # not a range
ASSIGNMENTS_MAX = 250_000  # range combinations exact enumeration looks at, at most


@dataclass(frozen=True)
class Setup:
    """A checked equity question. A hand given as a range has ``hands[p]`` all None and its
    hands, less those holding a known card, in ``ranges[p]``."""

    game: EquityGame
    deck: int
    ranking: Ranking
    hands: tuple[tuple[Card | None, ...], ...]
    ranges: tuple[HandRange | None, ...]
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    pool: tuple[Card, ...]  # every card not known to be somewhere, in code order
    unknown: int  # cards to deal: the rest of the board plus unseen cards of hands
    deals: int  # distinct deals for each choice of the ranges' hands

    @property
    def all_known(self) -> bool:
        return not self.ranged and all(c is not None for hand in self.hands for c in hand)

    @property
    def ranged(self) -> tuple[int, ...]:
        return tuple(p for p, r in enumerate(self.ranges) if r is not None)

    @property
    def labels(self) -> tuple[str | None, ...]:
        return tuple(None if r is None else r.text for r in self.ranges)

    def assignments(self) -> Iterator[tuple[tuple[Combo, ...], Fraction]]:
        """Every choice of one hand per range that shares no card, with its weight."""
        ranges = [self.ranges[p] for p in self.ranged]
        chosen: list[Combo] = []

        def walk(
            depth: int, used: set[Card], weight: Fraction
        ) -> Iterator[tuple[tuple[Combo, ...], Fraction]]:
            if depth == len(ranges):
                yield tuple(chosen), weight
                return
            spec = ranges[depth]
            assert spec is not None
            for combo, w in zip(spec.combos, spec.weights, strict=True):
                if combo[0] in used or combo[1] in used:
                    continue
                chosen.append(combo)
                yield from walk(depth + 1, used | set(combo), weight * w)
                chosen.pop()

        yield from walk(0, set(), Fraction(1))

    def combinations(self) -> int:
        """Choices of one hand per range, clashing or not (an upper bound on assignments)."""
        return math.prod(r.size for r in self.ranges if r is not None)

    def with_hands(self, combos: tuple[Combo, ...]) -> Setup:
        """This question with each range replaced by one of its hands."""
        hands = list(self.hands)
        for p, combo in zip(self.ranged, combos, strict=True):
            hands[p] = combo
        taken = {c for combo in combos for c in combo}
        return Setup(
            self.game, self.deck, self.ranking, tuple(hands), (None,) * len(hands), self.board,
            self.dead, tuple(c for c in self.pool if c not in taken), self.unknown, self.deals,
        )  # fmt: skip


def make_setup(
    hands: Iterable[HandLike], board: CardsLike, dead: CardsLike, name: str, deck: int | None
) -> Setup:
    spec = game(name)
    size = deck_size(spec, deck)
    kind = deck_kind(size)
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        raise EquityError(
            f"hands must be a list with one hand per player, e.g. ['AhKh', 'QsQd'], got {hands!r}"
        )
    hands = list(hands)
    if len(hands) < 2:
        raise EquityError(f"equity needs at least two hands, got {len(hands)}")
    players = [_player(hand, i, spec, size) for i, hand in enumerate(hands)]
    parsed = tuple(cards for cards, _ in players)
    board_cards = _known(board, "board")
    dead_cards = _known(dead, "dead cards")
    if spec.board == 0 and board_cards:
        raise EquityError(f"{spec.name} has no board: give each hand its own cards")
    if len(board_cards) > spec.board:
        raise EquityError(f"a board has at most {spec.board} cards, got {len(board_cards)}")
    seen: dict[Card, str] = {}
    places = [(f"hand {i + 1}", hand) for i, hand in enumerate(parsed)]
    places += [("the board", board_cards), ("the dead cards", dead_cards)]
    for place, cards in places:
        for card in cards:
            if card is None:
                continue
            if card not in kind:
                raise EquityError(
                    f"card {card} in {place} is not in the {size}-card deck {spec.name} is "
                    f"played with: its ranks are {kind.lowest.char} to A"
                )
            if card in seen:
                where = place if seen[card] == place else f"{seen[card]} and {place}"
                raise EquityError(f"duplicate card {card} (in {where}): each card exists once")
            seen[card] = place
    ranges = tuple(_without(r, set(seen), i) for i, (_, r) in enumerate(players))
    pool = tuple(card for card in kind.cards if card not in seen)
    missing = [
        0 if ranges[p] is not None else sum(c is None for c in hand)
        for p, hand in enumerate(parsed)
    ]
    unknown = spec.board - len(board_cards) + sum(missing)
    free = len(pool) - 2 * sum(r is not None for r in ranges)
    if unknown > free:
        raise EquityError(
            f"not enough cards: {unknown} still to deal but only {free} left in the deck"
        )
    splits = math.factorial(unknown) // math.factorial(spec.board - len(board_cards))
    for count in missing:
        splits //= math.factorial(count)
    return Setup(
        spec, size, spec.ranking(size), parsed, ranges, board_cards, dead_cards, pool, unknown,
        math.comb(free, unknown) * splits,
    )  # fmt: skip


def _player(
    hand: HandLike, index: int, spec: EquityGame, size: int
) -> tuple[tuple[Card | None, ...], HandRange | None]:
    """A hand's cards (None: unseen), or all None and its range."""
    if isinstance(hand, HandRange):
        return _range_hand(hand, index, spec)
    if isinstance(hand, str) and not _CARDS.match(hand):
        try:
            as_range = parse_range(hand, deck_kind(size))
        except CardError as error:
            if spec.ranges:
                raise EquityError(f"hand {index + 1} ({hand!r}): {error}") from None
        else:
            return _range_hand(as_range, index, spec)
    try:
        tokens = hand if isinstance(hand, str) else [UNKNOWN if c is None else c for c in hand]
        cards = _parse_or_unknown(tokens)
    except (CardError, TypeError) as error:
        raise EquityError(f"hand {index + 1} ({hand!r}): {error}") from None
    if cards == (None,):  # a lone ?? stands for a whole unknown hand
        cards = (None,) * spec.hole
    if spec.partial and len(cards) < spec.hole:
        cards = cards + (None,) * (spec.hole - len(cards))  # the cards still to come
    if len(cards) != spec.hole:
        most = "at most " if spec.partial else ""
        raise EquityError(
            f"hand {index + 1} ({format_cards(cards) or 'empty'}) has {len(cards)} cards: "
            f"{spec.name} hands have {most}{spec.hole} hole cards (?? for an unknown card)"
        )
    return cards, None


def _range_hand(
    hand: HandRange, index: int, spec: EquityGame
) -> tuple[tuple[Card | None, ...], HandRange]:
    if not spec.ranges:
        raise EquityError(
            f"hand {index + 1} ({hand.text!r}): ranges are for games of two hole cards "
            f"(holdem, shortdeck, manila2), not {spec.name}"
        )
    return (None, None), hand


def _without(spec: HandRange | None, known: set[Card], index: int) -> HandRange | None:
    if spec is None:
        return None
    left = spec.without(known)
    if not left.size:
        raise EquityError(
            f"hand {index + 1} ({spec.text!r}): no hand of the range is left once the known "
            f"cards are taken out"
        )
    return left


def _known(cards: CardsLike, what: str) -> tuple[Card, ...]:
    try:
        parsed = _parse_or_unknown(cards)
    except (CardError, TypeError) as error:
        raise EquityError(f"{what}: {error}") from None
    if any(card is None for card in parsed):
        raise EquityError(f"{what}: unknown cards (??) are only allowed in hands")
    return tuple(card for card in parsed if card is not None)


def symmetries(setup: Setup) -> list[tuple[int, ...]]:
    """Suit relabellings that leave the board, the dead cards and every known hand as they
    are: they turn a choice of range hands into one with the same equities."""
    fixed = [set(setup.board), set(setup.dead)]
    fixed += [{c for c in hand if c is not None} for hand in setup.hands]
    out = []
    for perm in itertools.permutations(range(4)):
        if all({Card(c - (c & 3) + perm[c & 3]) for c in group} == group for group in fixed):
            out.append(perm)
    return out


def canonical(combos: tuple[Combo, ...], perms: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The smallest relabelling of a choice of range hands (each hand's cards sorted)."""
    best: tuple[int, ...] | None = None
    for perm in perms:
        key = tuple(
            x
            for combo in combos
            for x in sorted((c - (c & 3) + perm[c & 3] for c in combo), reverse=True)
        )
        if best is None or key < best:
            best = key
    assert best is not None
    return best
