"""What a hand at the showdown is worth, and what it is called, under a table's rules.

:class:`Valuation` values the hands of one game and deck (the scalar evaluator where any hole
cards may play, the best-hand search where a number must, the low half of split games), names
them as a dealer would, and gives the cards an odd-chip rule looks at.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from croupier.cards import Card
from croupier.evaluate import HandValue, Ranking, best_hand, describe_value, scalar_evaluator
from croupier.evaluate.scalar import BestFive
from croupier.pots import CardSet, OddChipRule
from croupier.rules import Rules

__all__ = ["Valuation"]


class Valuation:
    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.ranking = rules.game.ranking_for(rules.deck)
        self.used = rules.game.hole_cards_used  # exactly this many hole cards, or any
        self._evaluate: Callable[[Sequence[Card]], int] | None = None  # made when first needed
        # The same, where it is the compiled evaluator: called natively, not through Python.
        self._best_five: BestFive | None = _BEST_FIVE.get(self.ranking)
        self._hands: dict[int, HandValue] = {}  # the final hands, described, by player

    def value(self, player: int, cards: list[Card], board: list[Card]) -> int:
        """The value of a player's best hand (the scalar path; no description)."""
        if self.used is not None:
            return self.hand(player, cards, board).value
        best_five = self._best_five
        if best_five is not None:
            return best_five.__call__(cards + board)  # a native call when compiled
        if self._evaluate is None:
            self._evaluate = scalar_evaluator(self.ranking)
            if isinstance(self._evaluate, BestFive):
                self._best_five = _BEST_FIVE[self.ranking] = self._evaluate
        return self._evaluate(cards + board)

    def hand(self, player: int, cards: list[Card], board: list[Card]) -> HandValue:
        """A player's final best hand, described (computed once, only for hands the table
        sees)."""
        known = self._hands.get(player)
        if known is None:
            known = self._hands[player] = best_hand(
                cards, board, self.ranking, hole_cards_used=self.used
            )
        return known

    def low(self, cards: list[Card], board: list[Card]) -> int | None:
        """The qualifying low of a hand in a split game, or None."""
        ranking = self.rules.game.low_ranking
        if ranking is None:
            return None
        hand = best_hand(cards, board, ranking, hole_cards_used=self.used)
        return hand.value if hand.qualifies else None

    def describe(self, value: int) -> str:
        """describe_value, memoised per ranking in a list by value (its own cache costs more)."""
        known = _DESCRIPTIONS.get(self.ranking)
        if known is None:
            known = _DESCRIPTIONS[self.ranking] = []
        if value >= len(known):
            known.extend([None] * (value + 1 - len(known)))
        text = known[value]
        if text is None:
            text = known[value] = describe_value(value, self.ranking)
        return text

    def described(self, value: int, low_value: int | None) -> str:
        """A winner's hand, with its qualifying low in split games."""
        high = self.describe(value)
        low = self.rules.game.low_ranking
        if low is None or low_value is None:
            return high
        return f"{high}; low {describe_value(low_value, low)}"

    def odd_chip_cards(
        self,
        hole: Sequence[list[Card]],
        up: Sequence[list[Card]],
        board: list[Card],
        contested: list[int],
    ) -> dict[str, list[tuple[Card, ...]]]:
        """The cards the odd-chip rule looks at: the whole hand, the hole cards, or the hole
        cards used (au 11.4(d), 16.5(e), 17.5(e)); none where it goes by seat."""
        rule = self.rules.odd_chip
        kind = rule.cards
        if rule.rule is OddChipRule.LEFT_OF_BUTTON and rule.low_rule is OddChipRule.LEFT_OF_BUTTON:
            return {}
        cards: list[tuple[Card, ...]] = []
        for p in range(len(hole)):
            if p not in contested:
                cards.append(())
            elif kind is CardSet.HOLE:
                cards.append(tuple(hole[p]))
            elif kind is CardSet.HOLE_USED:
                cards.append(self.hand(p, hole[p] + up[p], board).hole_cards)
            else:
                cards.append(tuple(hole[p] + up[p] + board))
        return {kind.value: cards}


# Final: compiled, C statics rather than look-ups in the module's dictionary.
_DESCRIPTIONS: Final[dict[Ranking, list[str | None]]] = {}  # ranking -> value -> its name
_BEST_FIVE: Final[dict[Ranking, BestFive]] = {}  # ranking -> its scalar_evaluator, once made
