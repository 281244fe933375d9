"""High hands on the 52-card deck (au-casino 9.1, rws 3.5.1-3.5.3, qld s8).

Every expectation is computed independently of :mod:`croupier.evaluate`: by the reference
evaluator in ``reference_eval.py``, by closed-form counting, by eval7, or by the rulebooks'
own examples.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from math import comb

import eval7
import numpy as np
import pytest

import reference_eval as ref
from croupier.cards import Card
from croupier.evaluate import Category, evaluate, evaluate_many, rank_value

SEVEN_CARD_COUNTS = {
    "ROYAL_FLUSH": 4_324,
    "STRAIGHT_FLUSH": 37_260,
    "FOUR_OF_A_KIND": 224_848,
    "FULL_HOUSE": 3_473_184,
    "FLUSH": 4_047_644,
    "STRAIGHT": 6_180_020,
    "THREE_OF_A_KIND": 6_461_620,
    "TWO_PAIR": 31_433_400,
    "ONE_PAIR": 58_627_800,
    "HIGH_CARD": 23_294_460,
}


def value(text: str) -> int:
    return evaluate(text).value


def category(text: str) -> str:
    return evaluate(text).category.name


def ref_key(text: str) -> tuple:
    return ref.best_key(ref.parse(text), "high")


def assert_beats(better: str, worse: str) -> None:
    """``better`` wins outright, both by the reference and by the implementation."""
    assert ref_key(better) > ref_key(worse), "reference disagrees with the example"
    assert evaluate(better) > evaluate(worse), f"{better} should beat {worse}"
    assert value(better) > value(worse)


def assert_ties(first: str, second: str) -> None:
    assert ref_key(first) == ref_key(second), "reference disagrees with the example"
    assert evaluate(first) == evaluate(second), f"{first} should tie {second}"
    assert value(first) == value(second)


# --- the reference itself ------------------------------------------------------------------


def test_reference_counts_all_52_card_hands():
    """The reference, run over every five-card hand, gives the known combinatorial counts."""
    hands = ref.deck_hands(0, 5)
    inverse, reps = ref.hand_classes(hands, "high")
    per_class = np.bincount(inverse)
    counts: Counter[str] = Counter()
    for cls, rep in enumerate(reps):
        counts[ref.category5(tuple(int(c) for c in hands[rep]), "high")] += int(per_class[cls])
    assert dict(counts) == ref.five_card_counts(0)
    assert len({ref.key5(tuple(int(c) for c in hands[r]), "high") for r in reps}) == 7462


# --- exhaustive five-card check ------------------------------------------------------------


@pytest.fixture(scope="module")
def high5():
    """Every five-card hand, its value, and the reference rank and category of each value."""
    hands = ref.deck_hands(0, 5)
    values = np.asarray(evaluate_many(hands, "high"))
    return hands, values


@pytest.mark.slow
def test_au_9_1_all_five_card_hands_in_reference_order(high5):
    hands, values = high5
    assert values.shape == (comb(52, 5),)
    assert values.dtype == np.int32
    bad = ref.order_violation(values, ref.reference_ranks(hands, "high"))
    assert bad is None, "misordered: " + " vs ".join(ref.show(hands[i]) for i in bad)


@pytest.mark.slow
def test_au_9_1_exactly_7462_distinct_five_card_values(high5):
    _, values = high5
    assert len(np.unique(values)) == 7462


@pytest.fixture(scope="module")
def value_categories(high5):
    """Sorted distinct five-card values and the reference category of each."""
    hands, values = high5
    distinct, reps = np.unique(values, return_index=True)
    names = [ref.category5(tuple(int(c) for c in hands[r]), "high") for r in reps]
    return distinct, names, hands[reps]


@pytest.mark.slow
def test_au_9_1_five_card_category_counts(high5, value_categories):
    _, values = high5
    distinct, names, _ = value_categories
    per_value = np.bincount(np.searchsorted(distinct, values), minlength=len(distinct))
    counts: Counter[str] = Counter()
    for name, n in zip(names, per_value, strict=True):
        counts[name] += int(n)
    expected = ref.five_card_counts(0)
    assert dict(counts) == expected
    assert expected["STRAIGHT_FLUSH"] + expected["ROYAL_FLUSH"] == 40


@pytest.mark.slow
def test_au_9_1_category_reported_for_every_distinct_value(value_categories):
    distinct, names, reps = value_categories
    for v, name, rep in zip(distinct, names, reps, strict=True):
        hand = evaluate([Card(int(c)) for c in rep])
        assert hand.value == v
        assert hand.category.name == name, ref.show(rep)


# --- exhaustive seven-card check -----------------------------------------------------------


def _lookup(distinct: np.ndarray):
    """A fast map from a value to its index in ``distinct`` (-1 for an unknown value)."""
    low, high = int(distinct[0]), int(distinct[-1])
    if high - low < 1 << 26:
        table = np.full(high - low + 1, -1, dtype=np.int32)
        table[distinct.astype(np.int64) - low] = np.arange(len(distinct), dtype=np.int32)

        def index(values: np.ndarray) -> np.ndarray:
            shifted = values.astype(np.int64) - low
            inside = (shifted >= 0) & (shifted <= high - low)
            return np.where(inside, table[np.clip(shifted, 0, high - low)], -1)

        return index

    def index_sorted(values: np.ndarray) -> np.ndarray:
        where = np.clip(np.searchsorted(distinct, values), 0, len(distinct) - 1)
        return np.where(distinct[where] == values, where, -1)

    return index_sorted


def _seven_card_chunks(rows_per_chunk: int = 4_000_000):
    """Every seven-card hand, in chunks: the two lowest cards fixed, the other five above them.

    With the five-card combinations in lexicographic order, those whose lowest card is above
    ``b`` form a suffix of the array, so each (a, b) block is one slice.
    """
    five = ref.combinations_array(52, 5)
    first = five[:, 0]
    start = np.searchsorted(first, np.arange(53), side="left")  # rows with lowest card >= m
    pairs = [(a, b) for a in range(52) for b in range(a + 1, 52) if start[b + 1] < len(five)]
    batch: list[tuple[int, int]] = []
    size = 0
    for a, b in pairs:
        batch.append((a, b))
        size += len(five) - start[b + 1]
        if size >= rows_per_chunk:
            yield _build(five, start, batch, size)
            batch, size = [], 0
    if batch:
        yield _build(five, start, batch, size)


def _build(five, start, batch, size):
    out = np.empty((size, 7), dtype=np.uint8)
    row = 0
    for a, b in batch:
        tail = five[start[b + 1] :]
        out[row : row + len(tail), 0] = a
        out[row : row + len(tail), 1] = b
        out[row : row + len(tail), 2:] = tail
        row += len(tail)
    return out


@pytest.mark.slow
def test_all_seven_card_hands_category_counts(value_categories):
    """All C(52, 7) = 133,784,560 seven-card hands: the known category counts and 4824 values."""
    distinct, names, _ = value_categories
    index = _lookup(distinct)
    per_value = np.zeros(len(distinct), dtype=np.int64)
    total = 0
    for chunk in _seven_card_chunks():
        positions = index(np.asarray(evaluate_many(chunk, "high")))
        assert positions.min() >= 0, "a seven-card value that no five-card hand has"
        per_value += np.bincount(positions, minlength=len(distinct))
        total += len(chunk)
    assert total == comb(52, 7)
    counts: Counter[str] = Counter()
    for name, n in zip(names, per_value, strict=True):
        counts[name] += int(n)
    assert dict(counts) == SEVEN_CARD_COUNTS
    assert counts["ROYAL_FLUSH"] + counts["STRAIGHT_FLUSH"] == 41_584
    assert int((per_value > 0).sum()) == 4824


# --- differential test against eval7 -------------------------------------------------------

EVAL7_CARDS = [eval7.Card(ref.show([code])) for code in range(52)]


def test_eval7_agrees_on_a_million_random_seven_card_hands():
    rng = np.random.default_rng(20240607)
    hands = ref.random_hands(rng, 1_000_000, 7)
    ours = np.asarray(evaluate_many(hands, "high"))
    cards = EVAL7_CARDS
    theirs = np.fromiter(
        (eval7.evaluate([cards[c] for c in row]) for row in hands.tolist()),
        dtype=np.int64,
        count=len(hands),
    )
    bad = ref.order_violation(ours, theirs)
    assert bad is None, "eval7 disagrees: " + " vs ".join(ref.show(hands[i]) for i in bad)


def test_eval7_agrees_on_random_five_and_six_card_hands():
    rng = np.random.default_rng(7)
    for k in (5, 6):
        hands = ref.random_hands(rng, 100_000, k)
        ours = np.asarray(evaluate_many(hands, "high"))
        theirs = np.array([eval7.evaluate([EVAL7_CARDS[c] for c in row]) for row in hands.tolist()])
        bad = ref.order_violation(ours, theirs)
        assert bad is None, "eval7 disagrees: " + " vs ".join(ref.show(hands[i]) for i in bad)


def test_random_six_and_seven_card_hands_match_reference_best_of_n():
    rng = np.random.default_rng(99)
    for k in (6, 7):
        hands = ref.random_hands(rng, 1500, k)
        values = np.asarray(evaluate_many(hands, "high"))
        keys = [ref.best_key(tuple(row), "high") for row in hands.tolist()]
        bad = ref.order_violation(values, np.asarray(ref.dense_ranks(keys)))
        assert bad is None, "misordered: " + " vs ".join(ref.show(hands[i]) for i in bad)
        for row, v in zip(hands[:200].tolist(), values[:200], strict=True):
            hand = evaluate([Card(c) for c in row])
            assert hand.value == v == rank_value(row)
            used = tuple(int(c) for c in hand.cards)
            assert len(used) == 5 and set(used) <= set(row)
            assert ref.key5(used, "high") == ref.best_key(tuple(row), "high")
            assert hand.category.name == ref.best_category(tuple(row), "high")


# --- rws 3.5.2: the table of ranks, with its example hands ---------------------------------

RWS_TABLE = [  # highest first, the example hand of each row of rws 3.5.2
    ("Ad Kd Qd Jd Td", "ROYAL_FLUSH"),
    ("Qc Jc Tc 9c 8c", "STRAIGHT_FLUSH"),
    ("Kc Kh Kd Ks Jh", "FOUR_OF_A_KIND"),
    ("Kc Kh Kd Js Jh", "FULL_HOUSE"),
    ("Kh Jh 9h 5h 2h", "FLUSH"),
    ("5c 4d 3c 2h As", "STRAIGHT"),
    ("Qs Qh Qc 8h 3d", "THREE_OF_A_KIND"),
    ("7s 7h 4c 4h Jd", "TWO_PAIR"),
    ("Tc Th Kd 6h 3s", "ONE_PAIR"),
    ("Qc Th 6d 4s 2h", "HIGH_CARD"),
]


@pytest.mark.parametrize(("text", "name"), RWS_TABLE)
def test_rws_3_5_2_table_example_category(text, name):
    assert ref.category5(ref.parse(text), "high") == name
    assert category(text) == name
    assert evaluate(text).category is Category[name]


def test_rws_3_5_2_table_examples_rank_in_table_order():
    for (higher, _), (lower, _) in pairwise(RWS_TABLE):
        assert_beats(higher, lower)


def test_qld_s8_1_ranking_from_odd_card_to_royal_flush():
    ascending = [
        "2c 4d 6h 8s Tc",  # odd card hand
        "2c 2d 6h 8s Tc",  # 1 pair
        "2c 2d 6h 6s Tc",  # 2 pairs
        "2c 2d 2h 8s Tc",  # 3 of a kind
        "6c 7d 8h 9s Tc",  # straight
        "2h 4h 6h 8h Th",  # flush
        "2c 2d 2h 8s 8c",  # full house
        "2c 2d 2h 2s Tc",  # 4 of a kind
        "6h 7h 8h 9h Th",  # straight flush
        "Th Jh Qh Kh Ah",  # royal flush
    ]
    for lower, higher in pairwise(ascending):
        assert_beats(higher, lower)


# --- rws 3.5.3 examples --------------------------------------------------------------------


def test_rws_3_5_3_a_king_straight_beats_jack_straight():
    assert category("Kc Qd Jh Ts 9c") == category("Jd Tc 9h 8s 7d") == "STRAIGHT"
    assert_beats("Kc Qd Jh Ts 9c", "Jd Tc 9h 8s 7d")


def test_rws_3_5_3_b_pair_of_fives_king_kicker_beats_queen_kicker():
    assert category("5c 5d Kh Ts 2c") == category("5h 5s Qc Jd Th") == "ONE_PAIR"
    assert_beats("5c 5d Kh Ts 2c", "5h 5s Qc Jd Th")


def test_rws_3_5_3_c_ace_king_jack_beats_ace_king_ten():
    assert category("Ac Kd Jh 5s 2c") == category("Ad Kc Th 6s 4d") == "HIGH_CARD"
    assert_beats("Ac Kd Jh 5s 2c", "Ad Kc Th 6s 4d")


def test_rws_3_5_3_examples_in_seven_cards():
    # The same comparisons with two extra, useless cards each (hold'em showdown, rws 3.5).
    assert_beats("Kc Qd Jh Ts 9c 2d 3h", "Jd Tc 9h 8s 7d 2c 3s")
    assert_beats("5c 5d Kh Ts 2c 3d 4h", "5h 5s Qc Jd Th 3c 4s")


def test_rws_3_5_1_wheel_ace_counts_as_one():
    assert category("5c 4d 3c 2h As") == "STRAIGHT"
    assert_beats("5c 4d 3c 2h As", "Ac Ad Ah Kc Qd")  # any straight beats three aces
    assert_beats("6c 5d 4c 3h 2s", "5c 4d 3c 2h As")  # but it is the lowest straight


# --- qld s8 examples -----------------------------------------------------------------------


def test_qld_s8_example_1_king_straight_beats_jack_straight():
    assert_beats("9c Td Jh Qs Kc", "7d 8c 9h Ts Jd")


def test_qld_s8_example_2_two_pair_highest_pair_decides():
    assert_beats("Kc Kd 2h 2s 3c", "Qc Qd Jh Js Ac")


def test_qld_s8_example_2_two_pair_second_pair_decides():
    assert_beats("Kc Kd 9h 9s 2c", "Kh Ks 8c 8d Ac")


def test_qld_s8_example_2_two_pair_kicker():
    assert_beats("Kc Kd 9h 9s 7c", "Kh Ks 9c 9d 6h")


def test_qld_s8_example_2_two_pair_equal_fifth_card_ties():
    assert_ties("Kc Kd 9h 9s 7c", "Kh Ks 9c 9d 7h")


def test_qld_s8_2_suits_are_equal():
    assert_ties("2h 4h 6h 8h Th", "2s 4s 6s 8s Ts")
    assert_ties("Th Jh Qh Kh Ah", "Tc Jc Qc Kc Ac")


def test_qld_s8_5_ace_high_straight():
    assert category("Tc Jd Qh Ks Ac") == "STRAIGHT"
    assert_beats("Tc Jd Qh Ks Ac", "9c Td Jh Qs Kc")


def test_qld_s8_6_ace_low_straight():
    assert category("Ac 2d 3h 4s 5c") == "STRAIGHT"
    assert_beats("Ac 2d 3h 4s 5c", "Ac Kd Qh Js 9c")


def test_qld_s8_7_identical_face_values_tie():
    assert_ties("Ac Kd Qh 9s 7c", "Ad Kh Qs 9c 7d")
    assert_ties("Ac Kd Qh 9s 7c 2d 3d", "Ad Kh Qs 9c 7d 2h 3s")


# --- au-casino 9.1 clause by clause --------------------------------------------------------


def test_au_9_1_a_royal_flush_no_suit_higher():
    assert category("Ah Kh Qh Jh Th") == "ROYAL_FLUSH"
    assert_ties("Ah Kh Qh Jh Th", "As Ks Qs Js Ts")
    assert_beats("Ah Kh Qh Jh Th", "Ks Qs Js Ts 9s")


def test_au_9_1_b_straight_flush_highest_card_designates():
    assert category("9d 8d 7d 6d 5d") == "STRAIGHT_FLUSH"
    assert_beats("9d 8d 7d 6d 5d", "8h 7h 6h 5h 4h")
    assert_beats("6h 5h 4h 3h 2h", "5s 4s 3s 2s As")  # steel wheel is the lowest
    assert_beats("5s 4s 3s 2s As", "Ac Ad Ah As Kc")
    assert_ties("9d 8d 7d 6d 5d", "9c 8c 7c 6c 5c")


def test_au_9_1_c_four_of_a_kind():
    assert_beats("3c 3d 3h 3s 2c", "2c 2d 2h 2s Ad")
    assert_beats("3c 3d 3h 3s 5c", "3c 3d 3h 3s 4c 2d")
    assert_beats("2c 2d 2h 2s 3d", "Ac Ad Ah Kd Ks")


def test_au_9_1_d_full_house_three_cards_have_priority():
    assert_beats("3c 3d 3h 2s 2c", "2c 2d 2h As Ac")
    assert_beats("Kc Kd Kh Js Jc", "Kc Kd Kh Ts Tc 9d")
    assert_beats("2c 2d 2h 3s 3c", "Ac Kc Qc Jc 9c")


def test_au_9_1_e_flush_compared_card_by_card():
    assert_beats("Ac Kc Qc Jc 9c", "Ad Kd Qd Jd 8d")
    assert_beats("Ac Kc Qc Jc 3c", "Ad Kd Qd Td 9d")
    assert_beats("7h 5h 4h 3h 2h", "Ac Kd Qh Jc Ts")  # the lowest flush beats the top straight


def test_au_9_1_f_straight_wheel_and_broadway():
    assert_beats("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c")
    assert_beats("2c 3d 4h 5s 6c", "Ac 2d 3h 4s 5c")
    assert_ties("Ac 2d 3h 4s 5c", "5d 4c 3s 2h Ah")
    assert category("Kc Ad 2h 3s 4c") == "HIGH_CARD"  # no wrap-around straight
    assert_beats("2c 2d 2h Kd Qs", "Kc Ad 2h 3s 4c")


def test_au_9_1_g_three_of_a_kind():
    assert_beats("3c 3d 3h 2s 4c", "2c 2d 2h As Kc")
    assert_beats("2c 2d 2h 4s 5c", "Ac Ad Kh Ks Qc")


def test_au_9_1_h_two_pair():
    assert_beats("Ac Ad 3h 3s 2c", "Kc Kd Qh Qs Jc")
    assert_beats("Ac Ad 4h 4s 2c", "Ac Ad 3h 3s Kc")
    assert_beats("Ac Ad 4h 4s 6c", "Ah As 4c 4d 5c")
    assert_beats("2c 2d 3h 3s 4c", "Ac Ad Kh Qs Jc")


def test_au_9_1_i_one_pair():
    assert_beats("3c 3d 4h 5s 6c", "2c 2d Ah Ks Qc")
    assert_beats("Ac Ad Kh Qs Jc", "Ah As Kc Qd Tc")
    assert_beats("2c 2d 4h 5s 7c", "Ac Kd Qh Js 9c")


def test_au_9_1_j_no_pair():
    assert_beats("Ac Kd Qh Js 9c", "Kc Qd Jh Ts 8c")
    assert_beats("Ac 7d 5h 4s 3c", "Kc Qd Jh Ts 8c")
    assert_beats("8c 5d 4h 3s 2c", "7c 6d 5h 3s 2d")
    assert_beats("Kc Qd 9h 3s 2c", "Kd Qc 8h 7s 6c")
    assert_ties("7c 5d 4h 3s 2c", "7h 5s 4c 3d 2h")


def test_au_9_1_best_five_of_seven_ignores_the_rest():
    # The kicker outside the best five does not play.
    assert_ties("Ac Ad Kh Ks Qc 2d 3h", "Ah As Kc Kd Qd Jh 9s")
    assert_beats("Ac Ad Kh Ks Qc 2d 3h", "Ah As Kc Kd Jd Th 9s")
