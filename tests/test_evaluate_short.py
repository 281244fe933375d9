"""Short-deck hands: 40, 36 and 32 cards (au-casino 9.2, 9.3) and the 20-card royal deck.

In these decks a flush beats a full house (au 9.3(d), (e)) and the ace plays low only in the
straight made of the ace and the deck's four lowest ranks (au 9.2, 9.3(f)). Expectations come
from ``reference_eval.py``, from closed-form counts, and from hand-picked examples.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise
from math import comb

import numpy as np
import pytest

import reference_eval as ref
from croupier.cards import Card
from croupier.evaluate import EvaluationError, evaluate, evaluate_many, rank_value

DECKS = {"short40": 3, "short36": 4, "short32": 5, "short20": 8}  # ranking -> lowest rank
SIZES = {"short40": 40, "short36": 36, "short32": 32, "short20": 20}


def ref_key(text: str, ranking: str) -> tuple:
    return ref.best_key(ref.parse(text), ranking)


def assert_beats(better: str, worse: str, ranking: str) -> None:
    assert ref_key(better, ranking) > ref_key(worse, ranking), "reference disagrees"
    assert evaluate(better, ranking) > evaluate(worse, ranking), f"{better} should beat {worse}"
    assert rank_value(ref.parse(better), ranking) > rank_value(ref.parse(worse), ranking)


def assert_ties(first: str, second: str, ranking: str) -> None:
    assert ref_key(first, ranking) == ref_key(second, ranking), "reference disagrees"
    assert evaluate(first, ranking) == evaluate(second, ranking)


def category(text: str, ranking: str) -> str:
    return evaluate(text, ranking).category.name


# --- exhaustive: every five-card hand of each short deck -----------------------------------


@pytest.mark.parametrize("ranking", list(DECKS))
def test_reference_short_deck_counts_match_closed_form(ranking):
    hands = ref.deck_hands(DECKS[ranking], 5)
    inverse, reps = ref.hand_classes(hands, ranking)
    per_class = np.bincount(inverse)
    counts: Counter[str] = Counter()
    for cls, rep in enumerate(reps):
        counts[ref.category5(tuple(int(c) for c in hands[rep]), ranking)] += int(per_class[cls])
    expected = {k: v for k, v in ref.five_card_counts(DECKS[ranking]).items() if v}
    assert dict(counts) == expected


@pytest.fixture(scope="module", params=list(DECKS))
def short5(request):
    ranking = request.param
    hands = ref.deck_hands(DECKS[ranking], 5)
    assert len(hands) == comb(SIZES[ranking], 5)
    values = np.asarray(evaluate_many(hands, ranking))
    return ranking, hands, values


@pytest.mark.slow
def test_au_9_3_every_short_deck_hand_in_reference_order(short5):
    """Same order and the same ties as the reference, over all C(n, 5) hands of the deck."""
    ranking, hands, values = short5
    bad = ref.order_violation(values, ref.reference_ranks(hands, ranking))
    assert bad is None, f"{ranking} misordered: " + " vs ".join(ref.show(hands[i]) for i in bad)


@pytest.mark.slow
def test_au_9_3_every_short_deck_category_count(short5):
    """Category of one hand per distinct value, weighted by how many hands share the value."""
    ranking, hands, values = short5
    distinct, reps, per_value = np.unique(values, return_index=True, return_counts=True)
    ours: Counter[str] = Counter()
    theirs: Counter[str] = Counter()
    for rep, n in zip(reps, per_value, strict=True):
        cards = tuple(int(c) for c in hands[rep])
        ours[evaluate([Card(c) for c in cards], ranking).category.name] += int(n)
        theirs[ref.category5(cards, ranking)] += int(n)
    assert ours == theirs
    expected = {k: v for k, v in ref.five_card_counts(DECKS[ranking]).items() if v}
    assert dict(ours) == expected
    assert len(distinct) == len(set(ref.reference_ranks(hands, ranking).tolist()))


# --- au 9.3: the order, category by category -----------------------------------------------

# One example hand per category, lowest category first; each is among the lowest of its kind
# so that every comparison with the next category is a tight one.
ORDER_EXAMPLES = {
    "short40": [
        ("HIGH_CARD", "Ac Qd Th 8s 7c"),
        ("ONE_PAIR", "5c 5d 6h 7s 9c"),
        ("TWO_PAIR", "5c 5d 6h 6s 7c"),
        ("THREE_OF_A_KIND", "5c 5d 5h 6s 7c"),
        ("STRAIGHT", "Ac 5d 6h 7s 8c"),
        ("FULL_HOUSE", "5c 5d 5h 6s 6c"),
        ("FLUSH", "5h 6h 7h 8h Th"),
        ("FOUR_OF_A_KIND", "5c 5d 5h 5s 6c"),
        ("STRAIGHT_FLUSH", "Ah 5h 6h 7h 8h"),
        ("ROYAL_FLUSH", "Ts Js Qs Ks As"),
    ],
    "short36": [
        ("HIGH_CARD", "Ac Qd Th 8s 7c"),
        ("ONE_PAIR", "6c 6d 7h 8s Tc"),
        ("TWO_PAIR", "6c 6d 7h 7s 8c"),
        ("THREE_OF_A_KIND", "6c 6d 6h 7s 8c"),
        ("STRAIGHT", "Ac 6d 7h 8s 9c"),
        ("FULL_HOUSE", "6c 6d 6h 7s 7c"),
        ("FLUSH", "6h 7h 8h 9h Jh"),
        ("FOUR_OF_A_KIND", "6c 6d 6h 6s 7c"),
        ("STRAIGHT_FLUSH", "Ah 6h 7h 8h 9h"),
        ("ROYAL_FLUSH", "Ts Js Qs Ks As"),
    ],
    "short32": [
        ("HIGH_CARD", "Ac Qd Th 8s 7c"),
        ("ONE_PAIR", "7c 7d 8h 9s Jc"),
        ("TWO_PAIR", "7c 7d 8h 8s 9c"),
        ("THREE_OF_A_KIND", "7c 7d 7h 8s 9c"),
        ("STRAIGHT", "Ac 7d 8h 9s Tc"),
        ("FULL_HOUSE", "7c 7d 7h 8s 8c"),
        ("FLUSH", "7h 8h 9h Th Qh"),
        ("FOUR_OF_A_KIND", "7c 7d 7h 7s 8c"),
        ("STRAIGHT_FLUSH", "Ah 7h 8h 9h Th"),
        ("ROYAL_FLUSH", "Ts Js Qs Ks As"),
    ],
    "short20": [
        ("ONE_PAIR", "Tc Td Jh Qs Kc"),
        ("TWO_PAIR", "Tc Td Jh Js Qc"),
        ("THREE_OF_A_KIND", "Tc Td Th Js Qc"),
        ("STRAIGHT", "Tc Jd Qh Ks Ac"),
        ("FULL_HOUSE", "Tc Td Th Js Jc"),
        ("FOUR_OF_A_KIND", "Tc Td Th Ts Jc"),
        ("ROYAL_FLUSH", "Ts Js Qs Ks As"),
    ],
}


@pytest.mark.parametrize("ranking", list(DECKS))
def test_au_9_3_example_hands_have_their_category(ranking):
    for name, text in ORDER_EXAMPLES[ranking]:
        assert ref.category5(ref.parse(text), ranking) == name, "bad example"
        assert category(text, ranking) == name, text


@pytest.mark.parametrize("ranking", list(DECKS))
def test_au_9_3_order_category_by_category(ranking):
    for (_, lower), (_, higher) in pairwise(ORDER_EXAMPLES[ranking]):
        assert_beats(higher, lower, ranking)


@pytest.mark.parametrize(
    ("ranking", "flush", "full_house"),
    [
        ("short40", "5h 6h 7h 8h Th", "Ac Ad Ah Ks Kc"),
        ("short36", "6h 7h 8h 9h Jh", "Ac Ad Ah Ks Kc"),
        ("short32", "7h 8h 9h Th Qh", "Ac Ad Ah Ks Kc"),
    ],
)
def test_au_9_3_flush_beats_full_house(ranking, flush, full_house):
    """au 9.3(d)-(e): the lowest flush beats the highest full house."""
    assert category(flush, ranking) == "FLUSH"
    assert category(full_house, ranking) == "FULL_HOUSE"
    assert_beats(flush, full_house, ranking)


def test_au_9_3_flush_beats_full_house_short36():
    assert_beats("6d 7d 8d 9d Jd", "Ac Ad Ah Ks Kc", "short36")
    # ...while on the 52-card deck the same two hands rank the other way (au 9.1(d)-(e)).
    assert evaluate("Ac Ad Ah Ks Kc") > evaluate("6d 7d 8d 9d Jd")


def test_au_9_3_flush_beats_full_house_in_seven_card_showdown_short36():
    full_house, flush = "Ah Ac Ad Kc Ks 7d 8s", "6h 7h 8h 9h Jh Ac Ad"
    assert category(full_house, "short36") == "FULL_HOUSE"
    assert category(flush, "short36") == "FLUSH"  # the flush plays, not the pair of aces
    assert_beats(flush, full_house, "short36")
    assert evaluate(full_house, "high") > evaluate(flush, "high")


@pytest.mark.parametrize("ranking", ["short40", "short36", "short32"])
def test_au_9_3_c_four_of_a_kind_beats_flush(ranking):
    lowest = DECKS[ranking]
    low_quads = ref.show([4 * lowest + s for s in range(4)] + [4 * lowest + 4])
    assert_beats(low_quads, "Ah Kh Qh Jh 9h", ranking)


@pytest.mark.parametrize("ranking", list(DECKS))
def test_au_9_3_a_royal_flush_is_the_top_and_ties_across_suits(ranking):
    assert_ties("Ts Js Qs Ks As", "Th Jh Qh Kh Ah", ranking)
    assert category("Td Jd Qd Kd Ad", ranking) == "ROYAL_FLUSH"


# --- au 9.3(f): the small straight of each deck --------------------------------------------

SMALL_STRAIGHTS = {  # ranking: (the small straight, the next straight up, its high rank word)
    "short40": ("Ac 5d 6h 7s 8c", "5c 6d 7h 8s 9c", "Eight"),
    "short36": ("Ac 6d 7h 8s 9c", "6c 7d 8h 9s Tc", "Nine"),
    "short32": ("Ac 7d 8h 9s Tc", "7c 8d 9h Ts Jc", "Ten"),
}


@pytest.mark.parametrize("ranking", list(SMALL_STRAIGHTS))
def test_au_9_3_f_small_straight_is_the_lowest_straight(ranking):
    small, next_up, high_word = SMALL_STRAIGHTS[ranking]
    assert category(small, ranking) == "STRAIGHT"
    assert_beats(next_up, small, ranking)
    assert_beats(small, "Ac Ad Ah Ks Qc", ranking)  # still beats three aces
    description = evaluate(small, ranking).description
    assert "Straight" in description and high_word in description, description


@pytest.mark.parametrize("ranking", list(SMALL_STRAIGHTS))
def test_au_9_3_f_small_straight_flush_is_the_lowest_straight_flush(ranking):
    small, next_up, _ = SMALL_STRAIGHTS[ranking]
    small_sf = " ".join(card[:-1] + "s" for card in small.split())
    next_sf = " ".join(card[:-1] + "s" for card in next_up.split())
    assert category(small_sf, ranking) == "STRAIGHT_FLUSH"
    assert_beats(next_sf, small_sf, ranking)
    lowest = DECKS[ranking]
    assert_beats(small_sf, ref.show([4 * lowest + s for s in range(4)] + [51]), ranking)


def test_au_9_3_f_ace_plays_low_only_below_the_deck_lowest_rank():
    # A-6-7-8-9 is a straight with 36 cards but not with 40 (where the 5 exists).
    assert category("Ac 6d 7h 8s 9c", "short36") == "STRAIGHT"
    assert category("Ac 6d 7h 8s 9c", "short40") == "HIGH_CARD"
    assert category("Ac 7d 8h 9s Tc", "short36") == "HIGH_CARD"
    assert category("Ac 7d 8h 9s Tc", "short32") == "STRAIGHT"
    assert category("Ac 5d 6h 7s 8c", "short40") == "STRAIGHT"
    # And no wrap-around: K-A-6-7-8 is nothing on 36 cards.
    assert category("Kc Ad 6h 7s 8c", "short36") == "HIGH_CARD"


def test_au_9_3_f_twenty_card_deck_only_straight_is_ace_high():
    assert category("Tc Jd Qh Ks Ac", "short20") == "STRAIGHT"
    assert ref.five_card_counts(8)["STRAIGHT"] == 4**5 - 4
    hands = ref.deck_hands(8, 5)
    values = np.asarray(evaluate_many(hands, "short20"))
    straights = (np.sort(hands // 4, axis=1) == np.arange(8, 13)).all(axis=1)
    flushes = (hands % 4 == hands[:, :1] % 4).all(axis=1)
    only = straights & ~flushes
    assert len(np.unique(values[only])) == 1  # every straight ties


def test_au_9_2_ace_is_high_in_short_decks():
    assert_beats("Ac 9d 8h 7s 6c", "Kc Qd Jh 9s 8c", "short36")
    assert_beats("Ac Ad 7h 8s 9c", "Kc Kd Qh Js 9c", "short36")


# --- random six- and seven-card hands against the brute-force reference -------------------


@pytest.mark.parametrize("ranking", list(DECKS))
@pytest.mark.parametrize("k", [6, 7])
def test_random_short_deck_hands_match_reference_best_of_n(ranking, k):
    rng = np.random.default_rng(1000 * k + DECKS[ranking])
    hands = ref.random_hands(rng, 1200, k, DECKS[ranking])
    values = np.asarray(evaluate_many(hands, ranking))
    keys = [ref.best_key(tuple(row), ranking) for row in hands.tolist()]
    bad = ref.order_violation(values, np.asarray(ref.dense_ranks(keys)))
    assert bad is None, f"{ranking} misordered: " + " vs ".join(ref.show(hands[i]) for i in bad)
    for row, v in zip(hands[:100].tolist(), values[:100], strict=True):
        hand = evaluate([Card(c) for c in row], ranking)
        assert hand.value == v == rank_value(row, ranking)
        used = tuple(int(c) for c in hand.cards)
        assert len(used) == 5 and set(used) <= set(row)
        assert ref.key5(used, ranking) == ref.best_key(tuple(row), ranking)
        assert hand.category.name == ref.best_category(tuple(row), ranking)


# --- the deck is enforced ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranking", "outside"),
    [("short40", "4c"), ("short36", "5h"), ("short32", "6d"), ("short20", "9s")],
)
def test_au_4_1_card_outside_short_deck_is_rejected(ranking, outside):
    text = f"Ac Kd Qh Js {outside}"
    with pytest.raises(EvaluationError):
        evaluate(text, ranking)
    with pytest.raises(EvaluationError):
        rank_value(ref.parse(text), ranking)
    good = list(ref.parse("Ac Kd Qh Js Tc"))
    rows = np.array([good, good, good, list(ref.parse(text)), good])
    with pytest.raises(EvaluationError, match=r"\b3\b"):
        evaluate_many(rows, ranking)
