"""Hand evaluation for every game and deck: one hand at a time, or millions in a batch.

>>> from croupier.evaluate import evaluate, best_hand
>>> evaluate("As Ks Qs Js Ts 2c 3d").description
'Royal Flush'
>>> best_hand("Ah Kh 2c 3d", "Qh Jh Th 9h 2s", "high", hole_cards_used=2).description
'Royal Flush'
"""

from croupier.evaluate.api import (
    HandValue,
    best_hand,
    describe_value,
    evaluate,
    evaluate_many,
    rank_value,
    scalar_evaluator,
)
from croupier.evaluate.rankings import Category, EvaluationError, Ranking

__all__ = [
    "Category",
    "EvaluationError",
    "HandValue",
    "Ranking",
    "best_hand",
    "describe_value",
    "evaluate",
    "evaluate_many",
    "rank_value",
    "scalar_evaluator",
]
