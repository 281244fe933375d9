"""The public API of :mod:`croupier.evaluate`: rankings, HandValue, best_hand, errors, batches.

Values are never compared with numbers taken from the implementation; they are checked against
the reference evaluator (``reference_eval.py``), against each other (scalar, batch and
permuted input must agree), or against the rules.
"""

from __future__ import annotations

import dataclasses
import operator
import random
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_eval as ref
from croupier.cards import Card, DeckKind, parse_cards
from croupier.evaluate import (
    Category,
    EvaluationError,
    HandValue,
    Ranking,
    best_hand,
    describe_value,
    evaluate,
    evaluate_many,
    rank_value,
    scalar_evaluator,
)

MEMBERS = {
    "HIGH": "high",
    "SHORT40": "short40",
    "SHORT36": "short36",
    "SHORT32": "short32",
    "SHORT20": "short20",
    "LOW_A5": "low-a5",
    "LOW_A5_8": "low-a5-8",
    "LOW_27": "low-27",
    "BADUGI": "badugi",
}
DECKS = {
    "high": DeckKind.STANDARD,
    "short40": DeckKind.SHORT_40,
    "short36": DeckKind.SHORT_36,
    "short32": DeckKind.SHORT_32,
    "short20": DeckKind.ROYAL_20,
    "low-a5": DeckKind.STANDARD,
    "low-a5-8": DeckKind.STANDARD,
    "low-27": DeckKind.STANDARD,
    "badugi": DeckKind.STANDARD,
}
FIVE_CARD_RANKINGS = [name for name in ref.RANKINGS if name != "badugi"]


def codes(text: str) -> list[int]:
    return list(ref.parse(text))


def names(cards) -> list[str]:
    return sorted(str(Card(int(c))) for c in cards)


# --- Ranking -------------------------------------------------------------------------------


def test_ranking_members_and_values():
    assert {m.name: m.value for m in Ranking} == MEMBERS
    assert set(MEMBERS.values()) == set(ref.RANKINGS)


@pytest.mark.parametrize("name", ref.RANKINGS)
def test_ranking_parse_and_lookup(name):
    assert Ranking.parse(name) is Ranking(name)
    assert Ranking(name).value == name


def test_ranking_parse_unknown_name_lists_the_allowed_ones():
    with pytest.raises(EvaluationError) as info:
        Ranking.parse("bogus")
    message = str(info.value)
    assert "bogus" in message
    for name in ref.RANKINGS:
        assert name in message


@pytest.mark.parametrize("name", ref.RANKINGS)
def test_ranking_deck_and_hand_size(name):
    ranking = Ranking(name)
    assert ranking.deck is DECKS[name]
    assert ranking.hand_size == (4 if name == "badugi" else 5)


def test_evaluation_error_is_a_value_error():
    assert issubclass(EvaluationError, ValueError)


def test_category_members():
    expected = {
        "HIGH_CARD", "ONE_PAIR", "TWO_PAIR", "THREE_OF_A_KIND", "STRAIGHT", "FLUSH",
        "FULL_HOUSE", "FOUR_OF_A_KIND", "STRAIGHT_FLUSH", "ROYAL_FLUSH",
        "ONE_CARD", "TWO_CARD", "THREE_CARD", "FOUR_CARD",
    }  # fmt: skip
    assert {c.name for c in Category} == expected


# --- evaluate and HandValue ----------------------------------------------------------------


def test_evaluate_accepts_cards_codes_and_text():
    text = "Ah Kd Qc Js 9h 2c 3d"
    as_cards = evaluate(parse_cards(text))
    as_codes = evaluate(codes(text))
    as_text = evaluate(text)
    as_strings = evaluate(text.split())
    assert as_cards.value == as_codes.value == as_text.value == as_strings.value
    assert evaluate(text, Ranking.HIGH).value == as_text.value
    assert evaluate(text, "high").value == as_text.value


def test_rank_value_accepts_the_same_inputs_as_evaluate():
    text = "Ah Kd Qc Js 9h 2c 3d"
    value = evaluate(text).value
    assert rank_value(codes(text)) == value
    assert rank_value(parse_cards(text)) == value
    assert rank_value(text) == value


def test_hand_value_fields():
    hand = evaluate("Kc Kd Kh Js Jc 2d 3h")
    assert isinstance(hand, HandValue)
    assert hand.ranking is Ranking.HIGH
    assert hand.category is Category.FULL_HOUSE
    assert isinstance(hand.value, int)
    assert names(hand.cards) == sorted(["Kc", "Kd", "Kh", "Js", "Jc"])
    assert all(isinstance(c, Card) for c in hand.cards)
    assert hand.hole_cards == ()
    assert hand.qualifies is True


def test_hand_value_is_frozen():
    hand = evaluate("Kc Kd Kh Js Jc")
    with pytest.raises((dataclasses.FrozenInstanceError, AttributeError, TypeError)):
        hand.value = 0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "ranking", "expected"),
    [
        ("Kc Kd Kh Js Jc", "high", "Full House, Kings over Jacks"),
        ("5c 5d Kh Ts 2c", "high", "Pair of Fives"),
        ("5c 4d 3c 2h As", "high", "Straight, Five high"),
        ("Ah Kh Qh Jh Th", "high", "Royal Flush"),
        ("7c 5d 4h 3s 2c", "low-a5", "7-5-4-3-2 low"),
    ],
)
def test_description_examples_of_the_spec(text, ranking, expected):
    assert evaluate(text, ranking).description == expected


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Qc Jc Tc 9c 8c", ["Straight Flush", "Queen"]),
        ("Kc Kh Kd Ks Jh", ["Four of a Kind", "Kings"]),
        ("Kh Jh 9h 5h 2h", ["Flush", "King"]),
        ("Tc Jd Qh Ks Ac", ["Straight", "Ace"]),
        ("Qs Qh Qc 8h 3d", ["Three of a Kind", "Queens"]),
        ("7s 7h 4c 4h Jd", ["Two Pair", "Sevens", "Fours"]),
        ("Tc Th Kd 6h 3s", ["Pair of Tens"]),
        ("Qc Th 6d 4s 2h", ["Queen"]),
    ],
)
def test_description_names_category_and_ranks(text, words):
    description = evaluate(text).description
    for word in words:
        assert word in description, description
    if "Straight" not in words[0]:
        assert "Straight" not in description


def test_description_of_a_straight_flush_is_not_a_royal():
    assert "Royal" not in evaluate("Kc Qc Jc Tc 9c").description
    assert "Royal" in evaluate("As Ks Qs Js Ts 2c 3d").description


def test_cards_are_the_five_used():
    hand = evaluate("2c 7d Ah Kh Qh Jh Th")
    assert hand.category is Category.ROYAL_FLUSH
    assert names(hand.cards) == sorted(["Ah", "Kh", "Qh", "Jh", "Th"])
    hand = evaluate("Ac Ad Kh Ks Qc Qd 2h")  # the best two pair, with the queen kicker
    used = names(hand.cards)
    assert len(used) == 5 and {"Ac", "Ad", "Kh", "Ks"} <= set(used)
    assert len({"Qc", "Qd"} & set(used)) == 1


@pytest.mark.parametrize("ranking", FIVE_CARD_RANKINGS)
def test_random_hands_cards_and_category_match_reference(ranking):
    rng = np.random.default_rng(sum(map(ord, ranking)))
    lowest = ref.DECK_LOWEST[ranking]
    for k in (5, 6, 7):
        for row in ref.random_hands(rng, 40, k, lowest).tolist():
            hand = evaluate(row, ranking)
            key, five = ref.best_of(tuple(row), ranking)
            used = tuple(int(c) for c in hand.cards)
            assert len(used) == 5 and set(used) <= set(row)
            assert ref.key5(used, ranking) == key
            assert hand.category.name == ref.category5(five, ranking)


# --- best_hand -----------------------------------------------------------------------------


def test_best_hand_holdem_is_best_five_of_seven():
    hole, board = "Ah Kd", "Ac 7h 7s 2d 9c"
    hand = best_hand(hole, board)
    assert hand.value == evaluate(f"{hole} {board}").value
    assert hand.category is Category.TWO_PAIR
    assert set(hand.hole_cards) == set(hand.cards) & set(parse_cards(hole))
    assert names(hand.hole_cards) == ["Ah", "Kd"]


def test_best_hand_holdem_board_plays():
    hand = best_hand("2c 3d", "Ah Kh Qh Jh Th")
    assert hand.category is Category.ROYAL_FLUSH
    assert hand.hole_cards == ()


def test_au_omaha_four_hearts_in_hand_and_one_on_board_is_not_a_flush():
    hole, board = "Ah Kh Qh Jh", "Th 2c 3d 4s 9s"
    hand = best_hand(hole, board, hole_cards_used=2)
    assert hand.category not in (Category.FLUSH, Category.ROYAL_FLUSH, Category.STRAIGHT_FLUSH)
    # Five of the nine cards make a royal flush, but only with four hole cards.
    assert evaluate("Ah Kh Qh Jh Th").category is Category.ROYAL_FLUSH
    key, five = ref.best_omaha(ref.parse(hole), ref.parse(board), "high")
    assert ref.key5(tuple(int(c) for c in hand.cards), "high") == key
    assert hand.category.name == ref.category5(five, "high")
    _assert_omaha_split(hand, hole, board, 2)


def test_omaha_board_four_flush_needs_two_suited_hole_cards():
    hole, board = "Ah 3c 4d 6s", "2h 5h 8h Jh Kc"
    hand = best_hand(hole, board, hole_cards_used=2)
    assert hand.category is not Category.FLUSH
    key, _ = ref.best_omaha(ref.parse(hole), ref.parse(board), "high")
    assert ref.key5(tuple(int(c) for c in hand.cards), "high") == key
    _assert_omaha_split(hand, hole, board, 2)


def test_omaha_board_royal_does_not_play():
    hand = best_hand("2d 3d 4s 5s", "Ac Kc Qc Jc Tc", hole_cards_used=2)
    assert hand.category is Category.HIGH_CARD
    assert best_hand("2d 3d", "Ac Kc Qc Jc Tc").category is Category.ROYAL_FLUSH


def _assert_omaha_split(hand, hole, board, used):
    hole_set, board_set = set(parse_cards(hole)), set(parse_cards(board))
    assert len(hand.cards) == 5
    assert len(hand.hole_cards) == used
    assert set(hand.hole_cards) <= hole_set
    assert set(hand.hole_cards) == set(hand.cards) & hole_set
    assert len(set(hand.cards) & board_set) == 5 - used


@pytest.mark.parametrize(
    ("ranking", "n_hole", "n_board"),
    [
        ("high", 4, 5),  # Omaha
        ("high", 4, 3),  # Omaha on the flop
        ("high", 4, 4),  # Omaha on the turn
        ("low-a5-8", 4, 5),  # Omaha eight or better, low half
        ("low-a5", 4, 5),
        ("short32", 3, 5),  # Three Card Manila (au), 32-card deck
        ("short32", 2, 5),  # Two Card Manila (au)
        ("high", 3, 5),
        ("short36", 4, 5),
    ],
)
def test_exactly_two_hole_cards_random_deals_match_reference(ranking, n_hole, n_board):
    rng = np.random.default_rng(n_hole * 100 + n_board + len(ranking))
    lowest = ref.DECK_LOWEST[ranking]
    deals = ref.random_hands(rng, 150, n_hole + n_board, lowest).tolist()
    keys, values = [], []
    for row in deals:
        hole, board = row[:n_hole], row[n_hole:]
        hand = best_hand(hole, board, ranking, hole_cards_used=2)
        key, five = ref.best_omaha(tuple(hole), tuple(board), ranking)
        used = tuple(int(c) for c in hand.cards)
        assert ref.key5(used, ranking) == key, (ref.show(hole), ref.show(board))
        assert hand.category.name == ref.category5(five, ranking)
        assert len(hand.hole_cards) == 2 and set(hand.hole_cards) <= set(hole)
        assert set(hand.hole_cards) == set(used) & set(hole)
        assert len(set(used) & set(board)) == 3
        keys.append(key)
        values.append(hand.value)
    dense = np.asarray(ref.dense_ranks(keys))
    if ranking == "low-a5-8":
        q = np.array([key[0] == 1 for key in keys])
        assert ref.order_violation(np.array(values)[q], dense[q]) is None
        assert ref.order_violation(np.array(values)[~q], dense[~q], strict=False) is None
    else:
        assert ref.order_violation(np.array(values), dense) is None


def test_best_hand_hole_and_board_accept_text_cards_and_codes():
    a = best_hand("Ah Kh Qh Jh", "Th 2c 3d 4s 9s", hole_cards_used=2)
    b = best_hand(parse_cards("Ah Kh Qh Jh"), parse_cards("Th 2c 3d 4s 9s"), hole_cards_used=2)
    c = best_hand(codes("Ah Kh Qh Jh"), codes("Th 2c 3d 4s 9s"), "high", hole_cards_used=2)
    assert a.value == b.value == c.value


# --- errors --------------------------------------------------------------------------------


def test_duplicate_card_is_an_error():
    with pytest.raises(EvaluationError, match="Ah"):
        evaluate("Ah Ah Kd Qc Js")
    with pytest.raises(EvaluationError):
        evaluate([Card("Ah"), Card("Kd"), Card("Qc"), Card("Js"), Card("Ah")])
    with pytest.raises(EvaluationError):
        rank_value(codes("Ah Kd Qc Js 9h 9h"))
    with pytest.raises(EvaluationError):
        best_hand("Ah Kd", "Ah 2c 3d 4s 5s")
    with pytest.raises(EvaluationError):
        best_hand("Ah Kd 3c 4c", "Kd 2c 3d 4s 5s", hole_cards_used=2)
    with pytest.raises(EvaluationError):
        evaluate("Ah 2h Ah 3h", "badugi")


def test_card_outside_the_deck_is_an_error():
    with pytest.raises(EvaluationError, match="2c"):
        evaluate("2c Ah Kd Qc Js", "short36")
    with pytest.raises(EvaluationError):
        rank_value(codes("2c Ah Kd Qc Js"), "short36")
    with pytest.raises(EvaluationError):
        best_hand("2c Ah", "Kd Qc Js", "short36")
    with pytest.raises(EvaluationError):
        evaluate("9c Ah Kd Qc Js", "short20")


@pytest.mark.parametrize(
    ("count", "ranking"),
    [(4, "high"), (8, "high"), (3, "low-a5"), (4, "short36"), (8, "low-27"), (3, "badugi"),
     (5, "badugi"), (0, "high")],
)  # fmt: skip
def test_wrong_card_count_is_an_error(count, ranking):
    cards = list(range(51, 51 - 2 * count, -2))  # distinct cards in every deck
    with pytest.raises(EvaluationError):
        evaluate(cards, ranking)
    with pytest.raises(EvaluationError):
        rank_value(cards, ranking)
    if count:
        with pytest.raises(EvaluationError):
            evaluate_many(np.array([cards]), ranking)


def test_best_hand_with_too_few_cards_is_an_error():
    with pytest.raises(EvaluationError):
        best_hand("Ah Kd", "2c 3d")  # four cards in all
    with pytest.raises(EvaluationError):
        best_hand("Ah Kd Qc Jc", "2c 3d", hole_cards_used=2)  # board of two
    with pytest.raises(EvaluationError):
        best_hand("Ah", "2c 3d 4h 5s", hole_cards_used=2)  # one hole card


def test_bad_card_text_is_an_error():
    with pytest.raises(ValueError):
        evaluate("Ah Kd Qc Js 1x")


@pytest.mark.parametrize("call", ["evaluate", "rank_value", "evaluate_many", "best_hand"])
def test_unknown_ranking_name_is_an_error(call):
    text = "Ah Kd Qc Js 9h"
    with pytest.raises(EvaluationError, match="bogus"):
        if call == "evaluate":
            evaluate(text, "bogus")
        elif call == "rank_value":
            rank_value(codes(text), "bogus")
        elif call == "evaluate_many":
            evaluate_many(np.array([codes(text)]), "bogus")
        else:
            best_hand("Ah Kd", "Qc Js 9h", "bogus")


@pytest.mark.parametrize(
    "bad_row",
    [
        [50, 50, 1, 2, 3, 4, 5],  # duplicate
        [52, 49, 1, 2, 3, 4, 5],  # no such card
        [-1, 49, 1, 2, 3, 4, 5],  # no such card
    ],
)
def test_evaluate_many_names_the_bad_row(bad_row):
    rows = np.array([[0, 5, 10, 15, 20, 25, 30]] * 6 + [bad_row] + [[1, 6, 11, 16, 21, 26, 31]] * 3)
    with pytest.raises(EvaluationError, match=r"\b6\b"):
        evaluate_many(rows, "high")


def test_evaluate_many_names_the_row_with_a_card_outside_the_deck():
    rows = np.array([codes("Ac Kc Qc Jc 9d")] * 3 + [codes("Ac Kc Qc Jc 5d")])
    with pytest.raises(EvaluationError, match=r"\b3\b"):
        evaluate_many(rows, "short36")
    assert len(evaluate_many(rows[:3], "short36")) == 3


def test_evaluate_many_wrong_width_is_an_error():
    with pytest.raises(EvaluationError):
        evaluate_many(np.arange(8).reshape(1, 8), "high")
    with pytest.raises(EvaluationError):
        evaluate_many(np.arange(4).reshape(1, 4), "high")
    with pytest.raises(EvaluationError):
        evaluate_many(np.arange(5).reshape(1, 5), "badugi")


@pytest.mark.parametrize("op", [operator.lt, operator.le, operator.gt, operator.ge, operator.eq])
def test_comparing_values_of_different_rankings_is_an_error(op):
    high = evaluate("7c 5d 4h 3s 2c", "high")
    low = evaluate("7c 5d 4h 3s 2c", "low-a5")
    with pytest.raises(EvaluationError):
        op(high, low)


def test_comparisons_within_a_ranking_follow_value():
    hands = [evaluate(t) for t in ("Ac Ad 2c 3d 4h", "Kc Kd Ks 2h 3h", "2c 2d 5h 6s 7c")]
    assert sorted(hands) == [hands[2], hands[0], hands[1]]
    assert max(hands) is hands[1]
    assert hands[0] < hands[1] and hands[1] > hands[0] and hands[0] <= hands[0]
    assert evaluate("Ac Kd Qh 9s 7c") == evaluate("Ad Kh Qs 9c 7d")
    assert evaluate("Ac Kd Qh 9s 7c") != evaluate("Ad Kh Qs 9c 6d")


# --- evaluate_many -------------------------------------------------------------------------


def test_evaluate_many_shape_dtype_and_input_types():
    rng = np.random.default_rng(5)
    hands = ref.random_hands(rng, 500, 7)
    base = evaluate_many(hands, "high")
    assert isinstance(base, np.ndarray)
    assert base.dtype == np.int32 and base.shape == (500,)
    for dtype in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.intp):
        assert np.array_equal(evaluate_many(hands.astype(dtype), "high"), base)
    assert np.array_equal(evaluate_many(np.asfortranarray(hands), "high"), base)
    assert np.array_equal(evaluate_many(hands[::-1], "high"), base[::-1])
    assert np.array_equal(evaluate_many(hands, Ranking.HIGH), base)
    assert np.array_equal(evaluate_many(hands, "high", threads=1), base)
    assert np.array_equal(evaluate_many(hands.tolist(), "high"), base)


@pytest.mark.parametrize("ranking", ref.RANKINGS)
def test_evaluate_many_equals_scalar_paths(ranking):
    rng = np.random.default_rng(11)
    lowest = ref.DECK_LOWEST[ranking]
    for k in (4,) if ranking == "badugi" else (5, 6, 7):
        hands = ref.random_hands(rng, 100, k, lowest)
        batch = evaluate_many(hands, ranking)
        for row, v in zip(hands.tolist(), batch.tolist(), strict=True):
            assert evaluate(row, ranking).value == v == rank_value(row, ranking)


def test_evaluate_many_of_no_rows():
    out = evaluate_many(np.zeros((0, 7), dtype=np.int64), "high")
    assert out.shape == (0,) and out.dtype == np.int32


# --- properties ----------------------------------------------------------------------------


@st.composite
def ranked_hand(draw, ranking=None):
    if ranking is None:
        ranking = draw(st.sampled_from(ref.RANKINGS))
    lowest = ref.DECK_LOWEST[ranking]
    k = 4 if ranking == "badugi" else draw(st.integers(5, 7))
    cards = draw(st.lists(st.integers(4 * lowest, 51), min_size=k, max_size=k, unique=True))
    return ranking, cards


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_permuting_cards_never_changes_the_value(data):
    ranking, cards = data.draw(ranked_hand())
    shuffled = data.draw(st.permutations(cards))
    value = evaluate(cards, ranking).value
    assert evaluate(shuffled, ranking).value == value
    assert rank_value(cards, ranking) == value == rank_value(shuffled, ranking)
    batch = evaluate_many(np.array([cards, shuffled]), ranking)
    assert batch.tolist() == [value, value]
    text = " ".join(str(Card(c)) for c in shuffled)
    assert evaluate(text, ranking).value == value


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_two_hands_compare_as_the_reference_says(data):
    ranking = data.draw(st.sampled_from(ref.RANKINGS))
    _, first = data.draw(ranked_hand(ranking))
    _, second = data.draw(ranked_hand(ranking))
    a, b = evaluate(first, ranking), evaluate(second, ranking)
    ka, kb = ref.best_key(tuple(first), ranking), ref.best_key(tuple(second), ranking)
    if ranking == "low-a5-8" and ka[0] == kb[0] == 0:
        # Two non-qualifying hands: no order is prescribed, only no contradiction.
        assert not (ka < kb and a > b) and not (ka > kb and a < b)
        assert (ka == kb) <= (a == b)
        return
    assert (a < b) == (ka < kb)
    assert (a == b) == (ka == kb)
    assert (a > b) == (ka > kb)


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_best_hand_without_split_equals_evaluate(data):
    ranking, cards = data.draw(ranked_hand(data.draw(st.sampled_from(FIVE_CARD_RANKINGS))))
    split = data.draw(st.integers(1, len(cards)))  # draw games: no board at all
    hand = best_hand(cards[:split], cards[split:], ranking)
    assert hand.value == evaluate(cards, ranking).value
    assert set(hand.hole_cards) == set(hand.cards) & set(cards[:split])


def test_omaha_equals_brute_force_over_evaluate():
    rng = np.random.default_rng(3)
    for row in ref.random_hands(rng, 30, 9).tolist():
        hole, board = row[:4], row[4:]
        best = max(
            evaluate(list(h) + list(b)).value
            for h in combinations(hole, 2)
            for b in combinations(board, 3)
        )
        assert best_hand(hole, board, hole_cards_used=2).value == best


@pytest.mark.parametrize("ranking", list(Ranking))
def test_describe_value_names_the_hand_as_evaluate_does(ranking: Ranking) -> None:
    rng = random.Random(ranking.value)
    deck = list(ranking.deck.cards)
    for _ in range(2000):
        size = 4 if ranking is Ranking.BADUGI else rng.choice([5, 6, 7])
        hand = evaluate(rng.sample(deck, size), ranking)
        assert describe_value(hand.value, ranking) == hand.description


def test_describe_value_refuses_a_value_no_hand_has() -> None:
    with pytest.raises(EvaluationError, match="not the value of a high hand"):
        describe_value(0)
    with pytest.raises(EvaluationError, match="badugi"):
        describe_value(5 << 16, Ranking.BADUGI)


def test_compiled_scalar_layout_is_the_tables_layout() -> None:
    from croupier.evaluate import scalar, tables

    names = ("SUIT_SHIFT", "SUIT_BIAS", "FLUSH_CHECK", "RANK_KEY_MASK", "ROW_SHIFT")
    assert [getattr(scalar, name) for name in names] == [getattr(tables, name) for name in names]


@pytest.mark.parametrize("ranking", FIVE_CARD_RANKINGS)
def test_scalar_evaluator_gives_the_batch_value_for_cards_ints_and_numpy_ints(ranking):
    """The engine's scalar path (BestFive, compiled with it) against the batch kernel, for the
    input kinds it takes itself (Card, int) and the one it hands to the interpreted path."""
    evaluator = scalar_evaluator(ranking)
    rng = np.random.default_rng(sum(map(ord, ranking)) + 1)
    for k in (5, 6, 7):
        hands = ref.random_hands(rng, 300, k, ref.DECK_LOWEST[ranking])
        for row, value in zip(hands.tolist(), evaluate_many(hands, ranking).tolist(), strict=True):
            assert evaluator([Card(c) for c in row]) == evaluator(row) == value
            assert evaluator(np.array(row, dtype=np.int64)) == value
