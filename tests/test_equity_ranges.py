"""Ranges: their notation against hand-counted combinations and eval7, the percentage order
against eval7, and range equity against averaging the exact equities of the hands themselves
(card removal and weights included)."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import pytest

from croupier.cards import Card, DeckKind, parse_cards
from croupier.equity import EquityError, equity, parse_range, top_classes
from croupier.equity.hand_order import ORDER, POINTS
from croupier.equity.ranges import RangeError, hand_class

# Counted by hand: a pair has C(4, 2) = 6 hands, a suited class 4, an offsuit one 12.
COUNTS = [
    ("QQ+", 3 * 6),
    ("AKs", 4),
    ("22-55", 4 * 6),
    ("T9s+", 4),  # + raises the lower card up to one below the higher: T9s alone
    ("KQo", 12),
    ("AK", 16),
    ("AsKs", 1),
    ("ATs+", 4 * 4),  # ATs AJs AQs AKs
    ("A2s-A5s", 4 * 4),
    ("T9s-54s", 6 * 4),  # T9s 98s 87s 76s 65s 54s
    ("KTo+", 3 * 12),
    ("QQ+, AKs, AsKh", 18 + 4 + 1),
    ("22+", 13 * 6),
    ("100%", 1326),
]


@pytest.mark.parametrize(("text", "combos"), COUNTS)
def test_range_holds_the_hand_counted_number_of_combinations(text: str, combos: int) -> None:
    hand_range = parse_range(text)
    assert hand_range.size == combos
    assert len(set(hand_range.combos)) == combos  # no hand twice
    assert all(a != b for a, b in hand_range.combos)


@pytest.mark.parametrize("text", ["QQ+", "AKs", "22-55", "T9s+", "KQo", "AK", "A2s+", "KTs+"])
def test_range_holds_the_same_hands_as_eval7(text: str) -> None:
    eval7 = pytest.importorskip("eval7")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = {frozenset(str(card) for card in hand) for hand, _ in eval7.HandRange(text).hands}
    ours = {frozenset(str(card) for card in combo) for combo in parse_range(text).combos}
    assert ours == theirs


def test_weights_apply_to_their_part_only() -> None:
    hand_range = parse_range("QQ:0.5, AKs")
    weights = dict(zip(hand_range.combos, hand_range.weights, strict=True))
    assert sorted(set(weights.values())) == [Fraction(1, 2), Fraction(1)]
    assert all(weights[c] == Fraction(1, 2) for c in hand_range.combos if hand_class(c) == "QQ")


def test_short_deck_ranges_hold_only_the_deck_cards() -> None:
    assert parse_range("22-66", DeckKind.SHORT_36).size == 6  # only 66 is in the deck
    with pytest.raises(RangeError, match="no hand of the 36-card deck"):
        parse_range("22-55", DeckKind.SHORT_36)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("KA", "higher card first"),
        ("QQs", "neither suited nor offsuit"),
        ("XX", "cannot read 'XX'"),
        ("AsKsQs", "a hand in a range has two"),
        ("QQ:2", "bad weight"),
        ("QQ:0", "bad weight"),
        ("0%", "bad percentage"),
        ("101%", "bad percentage"),
        ("AKs-QJo", "both ends must be suited"),
        ("AKs,,QQ", "empty part"),
        ("AKs, AhKh:0.5", "two weights"),
        ("", "empty range"),
    ],
)
def test_bad_ranges_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(RangeError, match=message) as raised:
        parse_range(text)
    assert isinstance(raised.value, EquityError) and isinstance(raised.value, ValueError)


# --- the percentage order ---------------------------------------------------------------------


def test_hand_order_holds_every_class_once_best_first() -> None:
    names = [name for name, _ in ORDER]
    assert len(names) == len(set(names)) == 169
    assert sum(6 if len(n) == 2 else 4 if n.endswith("s") else 12 for n in names) == 1326
    points = [value for _, value in ORDER]
    assert points == sorted(points, reverse=True) and len(set(points)) == 169
    assert (names[0], names[-1]) == ("AA", "32o")
    assert round(100 * ORDER[0][1] / POINTS, 2) == 85.20  # PokerStove's AA v a random hand


@pytest.mark.parametrize("name", ["AA", "AKo", "T9s", "72o", "32o"])
def test_hand_order_equity_matches_eval7_against_a_random_hand(name: str) -> None:
    eval7 = pytest.importorskip("eval7")
    equities = dict(ORDER)
    combo = parse_range(name).combos[0]
    everything = ",".join(n for n, _ in ORDER)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = eval7.py_hand_vs_range_monte_carlo(
            [eval7.Card(str(c)) for c in combo], eval7.HandRange(everything), [], 400_000
        )
    ours = equities[name] / POINTS
    assert abs(theirs - ours) < 4 * math.sqrt(0.25 / 400_000)


def test_percentages_take_the_fewest_best_classes_reaching_the_share() -> None:
    assert top_classes(5) == ["AA", "KK", "QQ", "JJ", "TT", "99", "88", "AKs", "77", "AQs",
                              "AJs", "AKo"]  # fmt: skip
    for percent in (1, 5, 15, 40, 100):
        size = parse_range(f"{percent}%").size
        assert size >= percent / 100 * 1326
        assert size - max(6, 12) < percent / 100 * 1326  # one class fewer would fall short


# --- range equity -------------------------------------------------------------------------------


def _combo_text(combo: tuple[Card, Card]) -> str:
    return f"{combo[0]}{combo[1]}"


def _averaged(ranges: list[str], board: str = "") -> list[float]:
    """Equity of ranges as the weighted mean of the exact equities of every choice of their
    hands that shares no card with another or with the board: no range code involved."""
    known = set(parse_cards(board))
    options = []
    for text in ranges:
        spec = parse_range(text)
        options.append([(c, w) for c, w in zip(spec.combos, spec.weights, strict=True)
                        if not set(c) & known])  # fmt: skip
    total = Fraction(0)
    sums = [Fraction(0)] * len(ranges)
    for choice in itertools.product(*options):
        cards = [c for combo, _ in choice for c in combo]
        if len(set(cards)) < len(cards):
            continue
        weight = math.prod((w for _, w in choice), start=Fraction(1))
        result = equity([_combo_text(combo) for combo, _ in choice], board)
        total += weight
        sums = [s + weight * Fraction(h.equity) for s, h in zip(sums, result, strict=True)]
    return [float(s / total) for s in sums]


@pytest.mark.parametrize(
    ("ranges", "board"),
    [
        (["QQ+", "AKs"], ""),  # the aces of AKs remove half of AA
        (["AA", "AhKh"], ""),  # three AA hands are left
        (["QQ:0.5, AKs", "JJ"], "2c 7d 9h"),
        (["AK", "AA, KK", "QQ"], "Ts 9s 2h"),
    ],
)
def test_range_equity_is_the_weighted_mean_over_hands_that_share_no_card(
    ranges: list[str], board: str
) -> None:
    result = equity(ranges, board)
    assert result.exact
    expected = _averaged(ranges, board)
    assert list(result.equities) == pytest.approx(expected, abs=1e-12)
    assert sum(result.equities) == pytest.approx(1.0)


def test_range_monte_carlo_is_within_four_standard_errors_of_exact() -> None:
    ranges = ["QQ+, AKs:0.5", "JJ-99, AQs"]
    exact = equity(ranges, "Ts 4d 2c")
    sampled = equity(ranges, "Ts 4d 2c", trials=200_000, seed=3)
    for mc, ex in zip(sampled, exact, strict=True):
        assert abs(mc.equity - ex.equity) < 4 * mc.stderr
    assert str(sampled[0]) == "QQ+, AKs:0.5"


def test_ranges_that_leave_no_deal_are_an_error() -> None:
    with pytest.raises(EquityError, match="no deal"):
        equity(["AA", "AA", "AA"])
    with pytest.raises(EquityError, match="no hand of the range is left"):
        equity(["AA", "AhAd"], "As")
    with pytest.raises(EquityError, match="ranges are for games of two hole cards"):
        equity(["QQ+", "AhKhQhJh"], game="omaha")


def test_a_range_beside_an_unseen_hand_is_the_mean_over_the_range_hands() -> None:
    board = "Ks 7d 2c 9h"
    result = equity(["AA", "??", "QhJh"], board, exact=True)
    known = set(parse_cards(board + " Qh Jh"))
    hands = [c for c in parse_range("AA").combos if not set(c) & known]
    each = [equity([_combo_text(c), "??", "QhJh"], board, exact=True) for c in hands]
    assert result.trials == sum(r.trials for r in each)
    for p in range(3):
        assert result[p].equity == pytest.approx(
            sum(r[p].equity for r in each) / len(each), abs=1e-12
        )
