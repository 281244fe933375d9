"""Low hands: ace-to-five (au-casino 9.1(k)), eight-or-better, deuce-to-seven, and badugi.

Expectations come from ``reference_eval.py``, closed-form counts, and the rulebook's example.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from math import comb

import numpy as np
import pytest

import reference_eval as ref
from croupier.cards import Card
from croupier.evaluate import evaluate, evaluate_many, rank_value

# Pair structures of all C(52, 5) hands; "HIGH_CARD" (no pair) includes straights and flushes.
A5_STRUCTURE_COUNTS = {
    "HIGH_CARD": 1_302_540 + 5_108 + 10_200 + 40,
    "ONE_PAIR": 1_098_240,
    "TWO_PAIR": 123_552,
    "THREE_OF_A_KIND": 54_912,
    "FULL_HOUSE": 3_744,
    "FOUR_OF_A_KIND": 624,
}
A5_8_QUALIFYING = comb(8, 5) * 4**5  # five different ranks among A..8, any suits


def beats(better: str, worse: str, ranking: str) -> None:
    assert ref.best_key(ref.parse(better), ranking) > ref.best_key(ref.parse(worse), ranking)
    assert evaluate(better, ranking) > evaluate(worse, ranking), f"{better} should beat {worse}"
    assert rank_value(ref.parse(better), ranking) > rank_value(ref.parse(worse), ranking)


def ties(first: str, second: str, ranking: str) -> None:
    assert ref.best_key(ref.parse(first), ranking) == ref.best_key(ref.parse(second), ranking)
    assert evaluate(first, ranking) == evaluate(second, ranking)


def category(text: str, ranking: str) -> str:
    return evaluate(text, ranking).category.name


# --- exhaustive: all 2,598,960 five-card hands ---------------------------------------------


@pytest.fixture(scope="module")
def all5():
    return ref.deck_hands(0, 5)


def _category_counts(hands, values, ranking):
    distinct, reps, per_value = np.unique(values, return_index=True, return_counts=True)
    ours: Counter[str] = Counter()
    for rep, n in zip(reps, per_value, strict=True):
        cards = tuple(int(c) for c in hands[rep])
        hand = evaluate([Card(c) for c in cards], ranking)
        assert hand.category.name == ref.category5(cards, ranking), ref.show(cards)
        ours[hand.category.name] += int(n)
    return len(distinct), dict(ours)


@pytest.mark.slow
@pytest.mark.parametrize("ranking", ["low-a5", "low-27"])
def test_au_9_1_k_every_five_card_low_in_reference_order(all5, ranking):
    values = np.asarray(evaluate_many(all5, ranking))
    assert values.dtype == np.int32 and values.shape == (len(all5),)
    bad = ref.order_violation(values, ref.reference_ranks(all5, ranking))
    assert bad is None, f"{ranking} misordered: " + " vs ".join(ref.show(all5[i]) for i in bad)
    distinct, counts = _category_counts(all5, values, ranking)
    if ranking == "low-a5":
        assert distinct == 6175  # multisets of 13 ranks, at most four of each
        assert counts == A5_STRUCTURE_COUNTS
    else:
        assert distinct == 7462
        expected = ref.five_card_counts(0, ace_low=False)  # A-2-3-4-5 is no straight
        assert counts == expected
        assert expected["STRAIGHT"] == 10_200 - 1_020


@pytest.mark.slow
def test_low_a5_8_every_five_card_hand(all5):
    ranking = "low-a5-8"
    values = np.asarray(evaluate_many(all5, ranking)).astype(np.int64)
    inverse, reps = ref.hand_classes(all5, ranking)
    rep_cards = [tuple(int(c) for c in all5[r]) for r in reps]
    qualifies = np.array([ref.qualifies_a5_8(c) for c in rep_cards])[inverse]
    assert int(qualifies.sum()) == A5_8_QUALIFYING
    # Every qualifying hand beats every non-qualifying one.
    assert values[qualifies].min() > values[~qualifies].max()
    a5 = np.asarray(ref.dense_ranks([ref.low_a5_key5(c) for c in rep_cards]))[inverse]
    # Among qualifying hands: exactly the ace-to-five order.
    q_index = np.flatnonzero(qualifies)
    bad = ref.order_violation(values[q_index], a5[q_index])
    assert bad is None, "misordered: " + " vs ".join(ref.show(all5[q_index[i]]) for i in bad)
    assert len(np.unique(values[q_index])) == comb(8, 5)
    # Among the rest the rules fix no order; the values may not contradict ace-to-five order.
    n_index = np.flatnonzero(~qualifies)
    bad = ref.order_violation(values[n_index], a5[n_index], strict=False)
    assert bad is None, "misordered: " + " vs ".join(ref.show(all5[n_index[i]]) for i in bad)
    # The flag, checked on one hand per class of the reference.
    for rep, cards in zip(reps[::7], rep_cards[::7], strict=True):
        hand = evaluate([Card(c) for c in cards], ranking)
        assert hand.qualifies is ref.qualifies_a5_8(cards), ref.show(cards)
        assert hand.value == values[rep]
        assert hand.category.name == ref.category5(cards, ranking)


# --- random seven-card hands against the brute-force reference -----------------------------


@pytest.mark.parametrize("ranking", ["low-a5", "low-a5-8", "low-27"])
def test_random_seven_card_lows_match_reference_best_of_n(ranking):
    rng = np.random.default_rng(len(ranking) * 31)
    hands = ref.random_hands(rng, 2500, 7)
    values = np.asarray(evaluate_many(hands, ranking)).astype(np.int64)
    best = [ref.best_of(tuple(row), ranking) for row in hands.tolist()]
    if ranking == "low-a5-8":
        qualifies = np.array([key[0] == 1 for key, _ in best])
        assert qualifies.any() and not qualifies.all()
        assert values[qualifies].min() > values[~qualifies].max()
        q = np.flatnonzero(qualifies)
        n = np.flatnonzero(~qualifies)
        dense = np.asarray(ref.dense_ranks([key for key, _ in best]))
        assert ref.order_violation(values[q], dense[q]) is None
        assert ref.order_violation(values[n], dense[n], strict=False) is None
    else:
        dense = np.asarray(ref.dense_ranks([key for key, _ in best]))
        bad = ref.order_violation(values, dense)
        assert bad is None, "misordered: " + " vs ".join(ref.show(hands[i]) for i in bad)
    for row, v, (key, five) in zip(hands[:150].tolist(), values[:150], best[:150], strict=True):
        hand = evaluate([Card(c) for c in row], ranking)
        assert hand.value == v == rank_value(row, ranking)
        used = tuple(int(c) for c in hand.cards)
        assert len(used) == 5 and set(used) <= set(row)
        assert ref.key5(used, ranking) == key
        assert hand.category.name == ref.category5(five, ranking)
        if ranking == "low-a5-8":
            assert hand.qualifies is (key[0] == 1)
        else:
            assert hand.qualifies is True


# --- au 9.1(k): ace-to-five low ------------------------------------------------------------


@pytest.mark.parametrize("ranking", ["low-a5", "low-a5-8"])
def test_au_9_1_k_low_seven_loses_to_six(ranking):
    beats("6c 5d 4h 3s 2c", "7c 5d 4h 3s 2d", ranking)
    beats("6c 5d 4h 3s 2c Kd Kh", "7c 5d 4h 3s 2d Qd Qh", ranking)


@pytest.mark.parametrize("ranking", ["low-a5", "low-a5-8"])
def test_au_9_1_k_straights_and_flushes_do_not_disqualify(ranking):
    ties("5h 4h 3h 2h Ah", "5c 4d 3h 2s Ac", ranking)  # the wheel, suited or not
    beats("5h 4h 3h 2h Ah", "6c 4d 3h 2s Ac", ranking)  # and it is the best low
    beats("6h 5h 4h 3h 2h", "7c 5d 4h 3s 2c", ranking)  # a straight flush is just 6-5-4-3-2
    assert category("6h 5h 4h 3h 2h", ranking) == "HIGH_CARD"
    assert category("Kh Qh Jh Th 9h", "low-a5") == "HIGH_CARD"


def test_au_9_1_k_highest_card_designates_then_next():
    beats("8c 4d 3h 2s Ac", "8d 5c 3s 2h Ad", "low-a5")
    beats("8c 7d 6h 5s 4c", "9c 4d 3h 2s Ac", "low-a5")
    beats("Kc 4d 3h 2s Ac", "Kd 5c 3s 2h Ad", "low-a5")


def test_au_9_1_k_ace_is_low():
    beats("Ac 2d 3h 4s 6c", "2c 3d 4h 5s 7c", "low-a5")
    beats("Ac Ad 2h 3s 4c", "2c 2d Ah 3s 4c", "low-a5")  # a pair of aces is the lowest pair
    beats("Kc Qd Jh Ts 8c", "Ac Ad 2h 3s 4c", "low-a5")  # any no-pair hand beats a pair


def test_au_9_1_k_reverse_order_of_pair_structures():
    ladder = [  # best first
        "Kc Qd Jh Ts 8c",  # no pair
        "Kc Kd Qh Js Tc",  # one pair
        "Ac Ad 2h 2s 3c",  # two pair
        "Ac Ad Ah 2s 3c",  # three of a kind
        "Ac Ad Ah 2s 2c",  # full house
        "Ac Ad Ah As 2c",  # four of a kind
    ]
    for better, worse in pairwise(ladder):
        beats(better, worse, "low-a5")


# --- eight or better -----------------------------------------------------------------------


def test_low_a5_8_qualifying():
    assert evaluate("8c 7d 6h 5s 4c", "low-a5-8").qualifies is True
    assert evaluate("Ac 2d 3h 4s 5c", "low-a5-8").qualifies is True
    assert evaluate("9c 4d 3h 2s Ac", "low-a5-8").qualifies is False
    assert evaluate("Ac Ad 2h 3s 4c", "low-a5-8").qualifies is False
    beats("8c 7d 6h 5s 4c", "9c 4d 3h 2s Ac", "low-a5-8")
    beats("8c 7d 6h 5s 4c", "Ac Ad 2h 3s 4c", "low-a5-8")


def test_low_a5_8_seven_cards_find_the_qualifier():
    hand = evaluate("Kc Kd 8h 5s 4c 3d Ac", "low-a5-8")
    assert hand.qualifies is True
    assert sorted(str(c) for c in hand.cards) == sorted(["8h", "5s", "4c", "3d", "Ac"])
    assert evaluate("9c 9d Tc Jh Qs Ks As", "low-a5-8").qualifies is False


# --- deuce-to-seven ------------------------------------------------------------------------


def test_low_27_seven_five_is_the_best_hand():
    beats("7c 5d 4h 3s 2c", "7d 6c 4s 3h 2d", "low-27")
    beats("7c 5d 4h 3s 2c", "8c 5d 4h 3s 2d", "low-27")


def test_low_27_ace_is_always_high():
    assert category("Ac 2d 3h 4s 5c", "low-27") == "HIGH_CARD"
    assert category("Ah 2h 3h 4h 5h", "low-27") == "FLUSH"
    beats("Kc 5d 4h 3s 2c", "Ac 5d 4h 3s 2c", "low-27")
    beats("7c 5d 4h 3s 2c", "Ac 2d 3h 4s 5c", "low-27")


def test_low_27_straights_and_flushes_count_against():
    assert category("6c 5d 4h 3s 2c", "low-27") == "STRAIGHT"
    beats("7c 5d 4h 3s 2c", "6c 5d 4h 3s 2d", "low-27")  # unlike au 9.1(k) ace-to-five
    beats("8c 6d 4h 3s 2c", "7h 5h 4h 3h 2h", "low-27")  # a flush is bad
    beats("Ac Kd Qh Js 9c", "Ac Kd Qh Js Tc", "low-27")  # broadway is a straight
    beats("Kc Qd Jh Ts 8c", "2c 2d 3h 4s 5c", "low-27")  # any pair loses to no pair
    beats("2c 2d 3h 4s 5c", "2h 2s 3c 3d 4c", "low-27")


def test_low_27_is_the_reverse_of_high_except_the_wheel():
    rng = np.random.default_rng(27)
    hands = ref.random_hands(rng, 20_000, 5)
    ranks = np.sort(hands // 4, axis=1)
    wheel = (ranks == np.array([0, 1, 2, 3, 12])).all(axis=1)
    hands = hands[~wheel]
    high = np.asarray(evaluate_many(hands, "high")).astype(np.int64)
    low = np.asarray(evaluate_many(hands, "low-27")).astype(np.int64)
    assert ref.order_violation(low, -high) is None


# --- badugi --------------------------------------------------------------------------------


@pytest.mark.slow
def test_badugi_every_four_card_hand_in_reference_order():
    hands = ref.deck_hands(0, 4)
    assert len(hands) == 270_725
    values = np.asarray(evaluate_many(hands, "badugi"))
    assert values.dtype == np.int32 and values.shape == (len(hands),)
    bad = ref.order_violation(values, ref.reference_ranks(hands, "badugi"))
    assert bad is None, "misordered: " + " vs ".join(ref.show(hands[i]) for i in bad)
    distinct, reps, per_value = np.unique(values, return_index=True, return_counts=True)
    counts: Counter[str] = Counter()
    for rep, n in zip(reps, per_value, strict=True):
        cards = tuple(int(c) for c in hands[rep])
        hand = evaluate([Card(c) for c in cards], "badugi")
        assert hand.category.name == ref.category5(cards, "badugi"), ref.show(cards)
        key, used = ref.badugi_best(cards)
        assert len(hand.cards) == len(used)
        assert ref.badugi_subset_key(tuple(int(c) for c in hand.cards)) == key
        counts[hand.category.name] += int(n)
    assert counts["FOUR_CARD"] == comb(13, 4) * 24  # four ranks, each suit once
    assert counts["ONE_CARD"] == 13 + 4 * comb(13, 4)  # four of a kind, or one suit
    assert sum(counts.values()) == 270_725
    # Distinct values: subsets of 1..4 different ranks.
    assert len(distinct) == sum(comb(13, k) for k in range(1, 5))


def test_badugi_examples():
    beats("Ac 2d 3h 4s", "Ac 2d 3h 5s", "badugi")  # A-2-3-4 is the best hand
    beats("Kc Qd Jh Ts", "Ac 2d 3h 3s", "badugi")  # four cards beat three
    beats("Ac 2d 3h 3s", "Ac 2d 3d 4d", "badugi")  # three beat two
    beats("6c 5d 4h 3s", "7c 4d 3h 2s", "badugi")  # lower highest card wins
    beats("7c 4d 3h 2s", "7d 5c 2h As", "badugi")  # then the next
    ties("Ac 2d 3h 4s", "As 2h 3d 4c", "badugi")  # suits never break ties
    ties("Ac Ad 2h 3s", "Ac 2h 3s 3d", "badugi")


def test_badugi_cards_are_the_playing_subset():
    hand = evaluate("Ac 2c 3h 4s", "badugi")
    assert hand.category.name == "THREE_CARD"
    assert sorted(str(c) for c in hand.cards) == sorted(["Ac", "3h", "4s"])
    hand = evaluate("Kc Kd Kh Ks", "badugi")
    assert hand.category.name == "ONE_CARD"
    assert len(hand.cards) == 1
    hand = evaluate("Ah 2h 3h 4h", "badugi")
    assert [str(c) for c in hand.cards] == ["Ah"]
