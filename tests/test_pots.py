"""Tests for croupier.pots: uncalled bets, side pots, commission and odd chips, by clause.

Expected figures are worked out by hand from the rulebooks' wording (and their examples where
they give one); the property tests check conservation and eligibility on random hands.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cards import Card, parse_cards
from croupier.pots import (
    NO_COMMISSION,
    Basis,
    CardSet,
    Commission,
    CommissionKind,
    OddChip,
    OddChipRule,
    Pot,
    PotError,
    Settlement,
    build_pots,
    settle,
    uncalled,
)

PCT = CommissionKind.PERCENTAGE
# Profiles as the rulebook files would set them (values of the house's choosing).
RWS_RAKE = Commission(PCT, Fraction(5, 100), Basis.POT, cap=30)
AU_RAKE = Commission(
    PCT, Fraction(10, 100), Basis.HAND, cap=50, exempt_blinds_only=True, exempt_all_tie=True
)


def qld_commission(minimum_wager: int, dollar: int = 1) -> Commission:
    return Commission(
        PCT,
        Fraction(5, 100),
        Basis.WINNINGS,
        only_over=19 * dollar,
        base_unit=20 * dollar,
        base_cap=100 * minimum_wager,
    )


RWS_ODD = OddChip(OddChipRule.LEFT_OF_BUTTON)
QLD_ODD = OddChip(OddChipRule.LEFT_OF_BUTTON, unit=100, one_per_player=False)  # cents
LEAGUE_ODD = OddChip(OddChipRule.LEFT_OF_BUTTON, one_per_player=True)


def au_odd(cards: CardSet) -> OddChip:
    return OddChip(OddChipRule.HIGHEST_CARD, cards=cards, one_per_player=False)


def hands(*texts: str | None) -> list[tuple[Card, ...] | None]:
    return [None if text is None else parse_cards(text) for text in texts]


def conserved(contributions: Sequence[int], payouts: Sequence[int], commission: int) -> bool:
    return sum(contributions) == sum(payouts) + commission


# ------------------------------------------------------------------------------ uncalled bets


def test_uncalled_returns_the_unmatched_part_of_the_largest_contribution() -> None:
    assert uncalled([50, 100, 1000]) == (2, 900)
    assert uncalled([0, 0, 75]) == (2, 75)
    assert uncalled([100, 100, 40]) is None
    assert uncalled([]) is None
    assert uncalled([0, 0]) is None


def test_rws_4_3_uncalled_bet_excluded_from_rake() -> None:
    # Blinds 50/100; player 2 raises to 1000 and both blinds fold.
    s = settle([50, 100, 1000], [False, False, True], [None, None, None], commission=RWS_RAKE)
    assert s.returned == (2, 900)
    assert [(p.amount, p.commission_base, p.commission) for p in s.pots] == [(250, 250, 12)]
    assert s.payouts == (0, 0, 900 + 238)
    assert s.commission == 12


def test_au_8_5_uncalled_wager_not_part_of_pot_for_percentage() -> None:
    s = settle([50, 100, 1000], [False, False, True], [None] * 3, commission=AU_RAKE)
    assert s.pots[0].commission_base == 250
    assert s.commission == 25
    assert s.payouts == (0, 0, 1125)


def test_qld_s30_4_b_uncalled_raise_not_part_of_pot() -> None:
    # Minimum wager $10: blinds 5/10, player 3 calls 10, player 2 raises to 60, all fold.
    s = settle(
        [5, 10, 60, 10], [False, False, True, False], [None] * 4, commission=qld_commission(10)
    )
    assert s.returned == (2, 50)
    assert (s.pots[0].amount, s.pots[0].commission_base, s.commission) == (35, 20, 1)
    assert s.payouts == (0, 0, 50 + 34, 0)


def test_uncalled_in_base_setting_counts_but_never_takes_the_returned_part() -> None:
    counted = Commission(PCT, Fraction(10, 100), Basis.POT, uncalled_in_base=True)
    s = settle([50, 100, 1000], [False, False, True], [None] * 3, commission=counted)
    assert s.pots[0].commission_base == 1150
    assert s.commission == 115
    assert s.payouts == (0, 0, 900 + 135)


def test_qld_s26_3_uncontested_round_returns_uncalled_then_deducts_commission() -> None:
    # s26(3): uncalled bet back to the winner, then commission from the pot; min wager $5.
    s = settle(
        [10, 5, 80, 10], [False, False, True, False], [None] * 4, commission=qld_commission(5)
    )
    assert s.returned == (2, 70)
    assert (s.pots[0].amount, s.commission) == (35, 1)
    assert s.payouts == (0, 0, 70 + 34, 0)


# ------------------------------------------------------------------------------ pots


def test_build_pots_main_first_then_side_pots_by_all_in_level() -> None:
    assert build_pots([50, 100, 200, 200], [True] * 4) == (
        Pot(200, (0, 1, 2, 3)),
        Pot(150, (1, 2, 3)),
        Pot(200, (2, 3)),
    )


def test_build_pots_folded_chips_stay_in_the_pots_they_reached() -> None:
    # A all-in 100; C put in 250 and folded; B and D went on to 400.
    assert build_pots([100, 400, 250, 400], [True, True, False, True]) == (
        Pot(400, (0, 1, 3)),
        Pot(750, (1, 3)),
    )
    # A folded player's level makes no pot of its own: adjacent levels merge.
    assert build_pots([100, 200, 200], [False, True, True]) == (Pot(500, (1, 2)),)


def test_build_pots_errors() -> None:
    with pytest.raises(PotError, match="negative"):
        build_pots([10, -1], [True, True])
    with pytest.raises(PotError, match="live has 1 entries for 2 players"):
        build_pots([10, 10], [True])
    with pytest.raises(PotError, match="no live player"):
        build_pots([10, 10], [False, False])


def test_rws_3_14_4_all_in_player_only_eligible_for_pots_contributed_to() -> None:
    s = settle([100, 300, 300], [True] * 3, [3, 2, 1])
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [
        (300, (0, 1, 2), (0,)),
        (400, (1, 2), (1,)),
    ]
    assert s.payouts == (300, 400, 0)


def test_qld_s29_6_example_all_in_player_wins_main_pot() -> None:
    # A (0) all-in for 40 in the first round; D (3) called 40 and later folded; E (4) folded
    # the blind of 10; B (1) and C (2) are the only active players at the showdown; A > B > C.
    s = settle([40, 240, 240, 40, 10], [True, True, True, False, False], [3, 2, 1, None, None])
    assert [(p.amount, p.eligible, p.winners) for p in s.pots] == [
        (170, (0, 1, 2), (0,)),  # the pot formed before A went all-in
        (400, (1, 2), (1,)),  # the separate pot formed after
    ]
    assert s.payouts == (170, 400, 0, 0, 0)


@pytest.mark.parametrize(
    ("values", "payouts"), [([2, 1, None], (120, 150, 0)), ([1, 2, None], (0, 270, 0))]
)
def test_qld_s29_7_all_in_against_uncalled_raise_compares_the_two_hands(
    values: list[int | None], payouts: tuple[int, ...]
) -> None:
    # B (0) all-in for 50; C (1) raises to 200, uncalled; D (2) folded after putting in 20.
    s = settle([50, 200, 20], [True, True, False], values)
    assert s.returned == (1, 150)
    assert s.pots[0].eligible == (0, 1)
    assert s.payouts == payouts


def test_numpy_integers_are_accepted() -> None:
    values = np.array([7, 3], np.int32)
    s = settle(list(np.array([10, 10, 1])), [True, True, False], [values[0], values[1], None])
    assert s.payouts == (21, 0, 0)
    assert all(type(p) is int for p in s.payouts)


def test_uncontested_hand_needs_no_hand_value() -> None:
    s = settle([1, 2, 2], [False, True, False], [None, None, None])
    assert s.payouts == (0, 5, 0)
    assert s.pots[0].winners == (1,)


# ------------------------------------------------------------------------------ commission


def test_au_8_2_a_percentage_of_all_sums_bet_from_pot_and_side_pots() -> None:
    rake = Commission(PCT, Fraction(10, 100), Basis.HAND)
    s = settle([100, 400, 400], [True] * 3, [3, 2, 1], commission=rake)
    assert [(p.amount, p.commission) for p in s.pots] == [(300, 30), (600, 60)]
    assert s.payouts == (270, 540, 0)


def test_au_8_7_no_more_commission_once_cap_reached() -> None:
    s = settle([100, 400, 400], [True] * 3, [3, 2, 1], commission=AU_RAKE)
    assert s.commission == 50
    assert [p.commission for p in s.pots] == [17, 33]  # in proportion; remainder main pot first
    assert s.payouts == (283, 567, 0)


def test_rws_4_1_rake_main_pot_first_then_side_pots_under_cap() -> None:
    # Pots 400 (0,1,2,3), 300 (1,2,3), 200 (2,3): 5% each, main pot first, overall cap 30.
    s = settle([100, 200, 300, 300], [True] * 4, [4, 3, 2, 1], commission=RWS_RAKE)
    assert [p.amount for p in s.pots] == [400, 300, 200]
    assert [p.commission for p in s.pots] == [20, 10, 0]
    assert s.commission == 30
    assert s.payouts == (380, 290, 200, 0)


def test_rws_4_1_rake_at_most_the_rate_of_each_pot() -> None:
    rake = Commission(PCT, Fraction(5, 100), Basis.POT)
    s = settle([10, 47, 47], [True] * 3, [3, 2, 1], commission=rake)
    assert [(p.amount, p.commission) for p in s.pots] == [(30, 1), (74, 3)]


def test_au_8_6_no_commission_when_only_blinds_bet() -> None:
    # Blinds 50/100; everyone folds to the big blind: the small blind's 50 is all that was won.
    args = ([50, 100, 0], [False, True, False], [None] * 3)
    s = settle(*args, commission=AU_RAKE, blinds_only=True)
    assert s.returned == (1, 50)
    assert (s.commission, s.payouts) == (0, (0, 150, 0))
    assert settle(*args, commission=AU_RAKE, blinds_only=False).commission == 10
    ignores = Commission(PCT, Fraction(10, 100))  # e.g. rws: no such rule
    assert settle(*args, commission=ignores, blinds_only=True).commission == 10


def test_au_8_8_no_commission_when_all_contributors_tie() -> None:
    s = settle([200, 200], [True, True], [5, 5], commission=AU_RAKE)
    assert (s.commission, s.payouts) == (0, (200, 200))
    # Another player contributed (and folded): commission is taken.
    s = settle([200, 200, 50], [True, True, False], [5, 5, None], commission=AU_RAKE)
    assert s.commission == 45
    assert s.payouts == (203, 202, 0)
    # Per pot: an all-in loser contributed to the main pot only; the side pot is exempt.
    s = settle([50, 200, 200], [True] * 3, [1, 5, 5], commission=AU_RAKE)
    assert [(p.amount, p.commission) for p in s.pots] == [(150, 15), (300, 0)]
    keeps = Commission(PCT, Fraction(10, 100))  # e.g. rws: no such rule
    assert settle([200, 200], [True, True], [5, 5], commission=keeps).commission == 40


def test_au_8_2_b_fee_per_hand_taken_from_the_pots() -> None:
    fee = Commission(CommissionKind.HAND_FEE, fee=3)
    s = settle([2, 10, 10], [True] * 3, [3, 2, 1], commission=fee)
    assert [(p.amount, p.commission, p.commission_base) for p in s.pots] == [(6, 3, 0), (16, 0, 0)]
    assert s.payouts == (3, 16, 0)
    assert settle([1, 1], [True, True], [1, 0], commission=fee).payouts == (0, 0)  # pot < fee
    # au 8.6 spares percentage commission only: the hand fee is due on a blinds-only hand.
    assert (
        settle([1, 2], [False, True], [None, None], commission=fee, blinds_only=True).commission
        == 2
    )


@pytest.mark.parametrize(
    "kind",
    [CommissionKind.TIME_CHARGE, CommissionKind.PARTICIPATION_FEE, CommissionKind.NONE],
    ids=["au_8_2_c_time_charge", "qld_s20_participation_fee", "au_8_4_nil"],
)
def test_fees_charged_outside_the_pot_take_nothing_from_it(kind: CommissionKind) -> None:
    # au 8.2(c): charged per player per period; qld s20(2), s26(4), s27(10): paid before the round,
    # the entire pot goes to the winner; au 8.4: nil commission.
    s = settle([100, 100], [True, True], [2, 1], commission=Commission(kind, fee=6))
    assert (s.commission, s.payouts) == (0, (200, 0))


@pytest.mark.parametrize(
    ("pot", "expected"), [(19, 0), (20, 1), (39, 1), (40, 2), (59, 2), (60, 3)]
)
def test_qld_s30_commission_only_on_pots_over_19(pot: int, expected: int) -> None:
    # s30(1): only from a pot of more than $19, at most 5% of its largest multiple of $20.
    s = settle(
        [pot - pot // 2, pot // 2], [True, False], [None, None], commission=qld_commission(5)
    )
    assert s.commission == expected
    assert s.pots[0].commission_base == (0 if pot <= 19 else pot // 20 * 20)


def test_qld_s30_in_cents_with_dollar_settings() -> None:
    commission = qld_commission(500, dollar=100)
    s = settle([1000, 1000, 950], [True, True, False], [2, 1, None], commission=commission)
    assert (s.pots[0].commission_base, s.commission) == (2000, 100)
    s = settle([950, 950], [True, False], [None, None], commission=commission)
    assert s.commission == 0  # $19.00 is not more than $19


def test_qld_s30_2_pot_counted_at_most_100_times_the_minimum_wager() -> None:
    s = settle([365, 365], [True, True], [2, 1], commission=qld_commission(5))
    assert (s.pots[0].commission_base, s.commission) == (500, 25)  # $730 counts as $500
    s = settle([240, 240], [True, True], [2, 1], commission=qld_commission(5))
    assert s.commission == 24  # $480 is under the $500 cap


def test_qld_s30_4_a_commission_on_total_of_pots_a_player_wins() -> None:
    # Player 0 all-in for 5: main pot 15 and side pot 10, each under $20. One winner of both
    # pays on $25 (5% of $20); the dollar comes from the main pot.
    args = ([5, 10, 10], [True] * 3)
    s = settle(*args, [1, 3, 2], commission=qld_commission(5))
    assert [(p.amount, p.commission, p.winners) for p in s.pots] == [(15, 1, (1,)), (10, 0, (1,))]
    assert sum(p.commission_base for p in s.pots) == 20
    assert s.payouts == (0, 24, 0)
    # Different winners: each pot counts alone, and neither is over $19.
    assert settle(*args, [3, 1, 2], commission=qld_commission(5)).commission == 0


def test_commission_settings_are_checked() -> None:
    with pytest.raises(PotError, match="rate"):
        Commission(PCT, Fraction(3, 2))
    with pytest.raises(PotError, match="cap"):
        Commission(PCT, Fraction(1, 10), cap=-1)
    with pytest.raises(PotError, match="base_unit"):
        Commission(PCT, Fraction(1, 10), base_unit=0)
    assert Commission(PCT, 0.05).rate == Fraction(1, 20)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------ odd chips


@pytest.mark.parametrize(
    ("clause", "cards"),
    [
        ("au 11.4(d) draw", CardSet.HAND),
        ("au 12.4(e) five card stud", CardSet.HAND),
        ("au 13.4(e) seven card stud", CardSet.HAND),
        ("au 14.4(e) two card manila", CardSet.HOLE),
        ("au 16.5(e) hold'em", CardSet.HOLE),
    ],
)
def test_au_odd_chip_to_highest_card_by_suit(clause: str, cards: CardSet) -> None:
    # Two tied winners and a folded player's chip: 21 chips, 10 each, 1 left over.
    held = {cards: hands("Ah Kc", "As 2d", "Kd Qd")}
    s = settle([10, 10, 1], [True, True, False], [7, 7, None], cards=held, odd_chip=au_odd(cards))
    assert s.payouts == (10, 11, 0), clause  # the ace of spades outranks the ace of hearts


def test_au_16_5_e_odd_chip_by_suit_in_hole_cards() -> None:
    # Hold'em, both play the board: the odd chip goes by the hole cards, not the whole hand.
    cards = {"hole": hands("Ah Kc", "As 2d", None), "hand": hands("Ah Kc 7s", "3d 2d 6s", None)}
    odd = au_odd(CardSet.HOLE)
    s = settle([15, 15, 1], [True, True, False], [9, 9, None], cards=cards, odd_chip=odd)
    assert (s.pots[0].winners, s.pots[0].shares) == ((0, 1), (15, 16))


def test_au_11_4_d_whole_remainder_to_one_hand() -> None:
    # "the amount remaining" goes to one hand, not one chip each: 3 winners, 11 chips.
    cards = {"hand": hands("2c 3c 4c 5c 7d", "2s 3s 4s 5s 7c", "2h 3h 4h 5h 7h", None)}
    live = [True, True, True, False]
    s = settle([3, 3, 3, 2], live, [1, 1, 1, None], cards=cards, odd_chip=au_odd(CardSet.HAND))
    assert s.payouts == (3, 3, 5, 0)  # the seven of hearts is the highest card


@pytest.mark.parametrize("clause", ["au 15.4(e) three card manila", "au 17.5(e) omaha"])
def test_au_odd_chip_by_suit_in_hole_cards_used(clause: str) -> None:
    # Player 0 holds the ace of spades but makes the hand with Kd 9c; player 1 uses Ah Qh.
    cards = {
        "hole": hands("As Kd 9c", "Ah Qh 3c", None),
        "hole_used": hands("Kd 9c", "Ah Qh", None),
    }
    args = ([5, 5, 1], [True, True, False], [4, 4, None])
    used = settle(*args, cards=cards, odd_chip=au_odd(CardSet.HOLE_USED))
    assert used.payouts == (5, 6, 0), clause
    hole = settle(*args, cards=cards, odd_chip=au_odd(CardSet.HOLE))
    assert hole.payouts == (6, 5, 0), clause


def test_rws_4_5_odd_chip_first_left_of_button() -> None:
    # Players 0 and 2 tie for 31 chips. Button on 1: clockwise 2, 3, 0, 1, so player 2 first.
    args = ([10, 10, 10, 1], [True, True, True, False], [9, 0, 9, None])
    s = settle(*args, button=1, odd_chip=RWS_ODD)
    assert (s.pots[0].winners, s.pots[0].shares) == ((0, 2), (15, 16))
    assert settle(*args, button=2, odd_chip=RWS_ODD).payouts == (16, 0, 15, 0)
    assert settle(*args, order=[3, 0, 1, 2], odd_chip=RWS_ODD).payouts == (16, 0, 15, 0)


def test_qld_s27_split_in_dollar_units() -> None:
    # Chips in cents (50c the smallest); a $25.50 pot divides in $1 units: $12 each and the
    # $1.50 left over goes whole to the winner next to the designated player (player 1 holds
    # the buck, so player 0).
    s = settle([1275, 1275], [True, True], [5, 5], button=1, odd_chip=QLD_ODD, chip=50)
    assert s.payouts == (1350, 1200)
    # Three ways: $8 each, $1.50 over, all to one player (s27(11) "the amount left over").
    s = settle([850, 850, 850], [True] * 3, [5, 5, 5], button=2, odd_chip=QLD_ODD, chip=50)
    assert s.payouts == (950, 800, 800)


def test_qld_s27_11_remainder_next_to_the_designated_player() -> None:
    # s6: "next to" is the nearest player clockwise; the designated player (3) has the buck
    # (s2, s18). A $25.50 pot in 50c chips between two winners: $12 each, $1.50 over.
    def split(contributions: list[int], live: list[bool], values: list[int | None]) -> object:
        s = settle(contributions, live, values, button=3, odd_chip=QLD_ODD, chip=50)
        return s.pots[0].winners, s.pots[0].shares

    folded_3 = ([850, 850, 850, 0], [True, True, True, False])
    assert split(*folded_3, [5, 1, 5, None]) == ((0, 2), (1350, 1200))
    folded_2 = ([850, 850, 0, 850], [True, True, False, True])
    # The designated player himself is last in line: player 0 is next to him.
    assert split(*folded_2, [5, 1, None, 5]) == ((0, 3), (1350, 1200))
    assert split(*folded_2, [1, 5, None, 5]) == ((1, 3), (1350, 1200))


def test_cardroom_ties_3_one_odd_chip_per_player() -> None:
    # ties 3: broken down to the smallest chip (5); ties 4: no player gets more than one.
    args = ([35, 35, 35, 10], [True, True, True, False], [1, 1, 1, None])
    s = settle(*args, chip=5)
    assert s.pots[0].amount == 115  # 35 each and two 5-chips over
    assert s.payouts == (40, 40, 35, 0)
    s = settle(*args, button=0, chip=5)
    assert s.payouts == (35, 40, 40, 0)  # players 1 and 2 come first clockwise from button 0


def test_cardroom_ties_5_a_button_game_first_hand_clockwise_from_button() -> None:
    s = settle([11, 11, 11], [True] * 3, [2, 2, 1], button=0, chip=2)
    assert s.pots[0].shares == (16, 17)  # 33 in 2-chip units: 16 each, the odd chip to player 1


def test_cardroom_ties_5_b_stud_highest_card_for_high_lowest_for_low() -> None:
    stud = OddChip(OddChipRule.HIGHEST_CARD, cards=CardSet.HAND)
    # All seven cards count. The kings are the highest cards; diamonds outrank clubs.
    cards = {"hand": hands("Kc 9h 9s 4c 4d 3h 2c", "Kd 9c 9d 4h 4s 3c 2d", None)}
    args = ([5, 5, 1], [True, True, False], [3, 3, None])
    assert settle(*args, cards=cards, odd_chip=stud).payouts == (5, 6, 0)
    # A low game (razz): the lowest card by suit, the ace being the lowest card.
    cards = {"hand": hands("Ac 3d 5h 7c 8s Kd Kc", "As 3c 5d 7h 8c Qd Qc", None)}
    razz = OddChip(OddChipRule.LOWEST_CARD, cards=CardSet.HAND)
    assert settle(*args, cards=cards, odd_chip=razz).payouts == (6, 5, 0)
    deuce_seven = OddChip(OddChipRule.LOWEST_CARD, cards=CardSet.HAND, ace_low=False)
    assert settle(*args, cards=cards, odd_chip=deuce_seven).payouts == (5, 6, 0)  # 3c


def test_cardroom_ties_5_c_high_low_split() -> None:
    # The high half gets the odd chip: 11 chips, high 6, low 5.
    s = settle([4, 4, 3], [True] * 3, [9, 1, 1], low_values=[None, 5, 1], button=2)
    assert s.payouts == (6, 5, 0)
    # No qualifying low: the high hand takes the whole pot.
    s = settle([4, 4, 3], [True] * 3, [9, 1, 1], low_values=[None, None, None])
    assert s.payouts == (11, 0, 0)
    # Tied lows split the low half as in a low game; one player may win both halves.
    s = settle([4, 4, 5], [True] * 3, [9, 1, 1], low_values=[7, 7, None], button=2)
    assert s.returned == (2, 1)
    assert s.payouts == (6 + 3, 3, 1)  # 12 = high 6 + low 6 (3 + 3)
    s = settle([5, 5, 5], [True] * 3, [9, 1, 1], low_values=[7, 7, None], button=2)
    assert s.payouts == (8 + 4, 3, 0)  # 15 = high 8 + low 7 (4 to player 0, 3 to player 1)
    # Tied lows in stud hi-lo: the lowest card by suit (ties 5(b) via 5(c)).
    stud8 = OddChip(OddChipRule.HIGHEST_CARD, low_rule=OddChipRule.LOWEST_CARD)
    cards = {"hand": hands("Ks 2c 3d 4h 5s 7c 7d", "Ac 2d 3h 4s 5c Qd Qs", "Kc Kd Kh 9s 9c 9d 8c")}
    s = settle(
        [5, 5, 5], [True] * 3, [1, 1, 9], low_values=[7, 7, None], cards=cards, odd_chip=stud8
    )
    assert s.payouts == (3, 4, 8)  # the ace of clubs is the lowest card


def test_cardroom_ties_5_d_side_pots_split_separately() -> None:
    # Main pot 13 and side pot 7, both tied between players 1 and 2: each pot gives its own odd
    # chip (to player 1, first clockwise from button 2), not one 20-chip pot split 10/10.
    s = settle([3, 6, 6, 4, 1], [True, True, True, False, False], [1, 2, 2, None, None], button=2)
    assert [(p.amount, p.shares) for p in s.pots] == [(13, (7, 6)), (7, (4, 3))]
    assert s.payouts == (0, 11, 9, 0, 0)


def test_league_odd_chips_left_of_dealer() -> None:
    # Five players, dealer on player 1 (clockwise: 2, 3, 4, 0, 1). Players 0, 3 and 4 tie for
    # 14 chips: 4 each and two over, one each to "the first two after the dealer" among the
    # winners (players 3 and 4), not to the first two seats (players 2 and 3).
    live = [True, False, False, True, True]
    s = settle([3, 3, 2, 3, 3], live, [5, None, None, 5, 5], button=1, odd_chip=LEAGUE_ODD)
    assert s.pots[0].amount == 14
    assert s.payouts == (4, 0, 0, 5, 5)


# ------------------------------------------------------------------------------ errors


def test_settle_errors_name_the_problem() -> None:
    with pytest.raises(PotError, match="contribution of player 1 is negative"):
        settle([5, -5], [True, True], [1, 2])
    with pytest.raises(PotError, match="values has 1 entries for 2 players"):
        settle([5, 5], [True, True], [1])
    with pytest.raises(PotError, match="player 1 folded"):
        settle([5, 5], [True, False], [1, 2])
    with pytest.raises(PotError, match="no hand value"):
        settle([5, 5], [True, True], [None, None])
    with pytest.raises(PotError, match="order"):
        settle([5, 5], [True, True], [1, 2], order=[0, 0])
    with pytest.raises(PotError, match="button"):
        settle([5, 5], [True, True], [1, 2], button=2)
    with pytest.raises(PotError, match="low value but no high value"):
        settle([5, 5, 5], [True] * 3, [1, 1, None], low_values=[None, None, 3])
    with pytest.raises(PotError, match="chip"):
        settle([5, 5], [True, True], [1, 2], chip=0)
    with pytest.raises(PotError, match="unknown card set"):
        settle([5, 5], [True, True], [1, 2], cards={"board": hands("Ah", "Kh")})
    with pytest.raises(PotError, match="player 1 has none"):
        settle(
            [5, 5, 1],
            [True] * 3,
            [1, 1, 0],
            cards={"hole": hands("Ah", None, "Kd")},
            odd_chip=au_odd(CardSet.HOLE),
        )
    with pytest.raises(PotError, match="no live player"):
        settle([5, 5], [False, False], [None, None])


# ------------------------------------------------------------------------------ properties

COMMISSIONS = st.one_of(
    st.just(NO_COMMISSION),
    st.builds(
        Commission,
        kind=st.just(PCT),
        rate=st.fractions(0, 1, max_denominator=100),
        basis=st.sampled_from(Basis),
        cap=st.none() | st.integers(0, 100),
        only_over=st.integers(0, 40),
        base_unit=st.integers(1, 20),
        base_cap=st.none() | st.integers(0, 500),
        unit=st.none() | st.integers(1, 10),
        exempt_blinds_only=st.booleans(),
        exempt_all_tie=st.booleans(),
        uncalled_in_base=st.booleans(),
    ),
    st.builds(Commission, kind=st.just(CommissionKind.HAND_FEE), fee=st.integers(0, 50)),
    st.builds(
        Commission,
        kind=st.sampled_from([CommissionKind.TIME_CHARGE, CommissionKind.PARTICIPATION_FEE]),
        fee=st.integers(0, 50),
    ),
)
ODD_CHIPS = st.builds(
    OddChip,
    rule=st.sampled_from(OddChipRule),
    cards=st.sampled_from(CardSet),
    low_rule=st.sampled_from(OddChipRule),
    unit=st.none() | st.integers(1, 7),
    one_per_player=st.booleans(),
    odd_to_high=st.booleans(),
    ace_low=st.booleans(),
)


@dataclass(frozen=True)
class RandomHand:
    contributions: list[int]
    live: list[bool]
    values: list[int | None]
    low_values: list[int | None] | None
    order: list[int]
    cards: dict[CardSet, list[tuple[Card, ...] | None]]
    commission: Commission
    odd_chip: OddChip
    chip: int
    blinds_only: bool

    def settle(self) -> Settlement:
        return settle(
            self.contributions,
            self.live,
            self.values,
            low_values=self.low_values,
            order=self.order,
            cards=self.cards,
            commission=self.commission,
            odd_chip=self.odd_chip,
            chip=self.chip,
            blinds_only=self.blinds_only,
        )


@st.composite
def random_hands(draw: st.DrawFn, hi_lo: bool | None = None) -> RandomHand:
    n = draw(st.integers(1, 7))
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if not any(live):
        live[draw(st.integers(0, n - 1))] = True
    values = [draw(st.integers(0, 3)) if alive else None for alive in live]
    lows = [draw(st.none() | st.integers(0, 2)) if v is not None else None for v in values]
    deck = draw(st.permutations(range(52)))
    held: list[tuple[Card, ...] | None] = [
        tuple(Card(c) for c in deck[3 * i : 3 * i + 3]) for i in range(n)
    ]
    return RandomHand(
        contributions=draw(st.lists(st.integers(0, 300), min_size=n, max_size=n)),
        live=live,
        values=values,
        low_values=lows if (draw(st.booleans()) if hi_lo is None else hi_lo) else None,
        order=draw(st.permutations(range(n))),
        cards=dict.fromkeys(CardSet, held),
        commission=draw(COMMISSIONS),
        odd_chip=draw(ODD_CHIPS),
        chip=draw(st.integers(1, 5)),
        blinds_only=draw(st.booleans()),
    )


@settings(max_examples=400)
@given(random_hands())
def test_property_chips_conserved_and_eligibility_respected(hand: RandomHand) -> None:
    s = hand.settle()
    assert conserved(hand.contributions, s.payouts, s.commission)
    assert all(p >= 0 for p in s.payouts)
    assert s.commission == sum(p.commission for p in s.pots)
    returned = [0] * len(hand.contributions)
    if s.returned is not None:
        returned[s.returned[0]] = s.returned[1]
    for player, payout in enumerate(s.payouts):
        if not hand.live[player]:
            assert payout == returned[player]  # a folded player gets back only an uncalled bet
        reachable = sum(p.amount for p in s.pots if player in p.eligible)
        assert payout <= returned[player] + reachable  # never more than the pots they reached
    for pot in s.pots:
        assert sum(pot.shares) == pot.amount - pot.commission
        assert set(pot.winners) <= set(pot.eligible)
        assert all(hand.live[p] for p in pot.eligible)
    rule = hand.commission
    if not rule.takes_from_pots or (hand.blinds_only and rule.exempt_blinds_only):
        assert s.commission == 0
    if rule.cap is not None and rule.kind is PCT:
        assert s.commission <= rule.cap


@settings(max_examples=300)
@given(random_hands(hi_lo=False))
def test_property_shares_differ_by_at_most_the_odd_chip_rule(hand: RandomHand) -> None:
    s = hand.settle()
    unit = hand.odd_chip.unit or hand.chip
    for pot in s.pots:
        shares = sorted(pot.shares)
        if hand.odd_chip.one_per_player:
            assert shares[-1] - shares[0] <= unit
        else:
            assert len(set(shares[:-1])) <= 1  # all equal but the one that took the rest
            assert shares[-1] - shares[0] < len(shares) * unit


@settings(max_examples=200)
@given(st.lists(st.integers(0, 500), min_size=1, max_size=8), st.data())
def test_property_pots_partition_the_called_chips(amounts: list[int], data: st.DataObject) -> None:
    live = data.draw(st.lists(st.booleans(), min_size=len(amounts), max_size=len(amounts)))
    if not any(live):
        live[0] = True
    back = uncalled(amounts)
    net = list(amounts)
    if back is not None:
        net[back[0]] -= back[1]
        assert back[1] > 0
    pots = build_pots(net, live)
    assert sum(p.amount for p in pots) == sum(net)
    for outer, inner in itertools.pairwise(pots):
        assert set(inner.eligible) < set(outer.eligible)


def layered_pots(amounts: list[int], live: list[bool]) -> list[Pot]:
    """Oracle: stack the chips level by level; a level belongs to the live players who reached it;
    adjacent levels with equal eligible sets are one pot; a level no live player reached joins the
    pot below."""
    pots: list[Pot] = []
    for level in range(1, max(amounts, default=0) + 1):
        chips = sum(1 for a in amounts if a >= level)
        eligible = tuple(p for p, a in enumerate(amounts) if live[p] and a >= level)
        if pots and (not eligible or pots[-1].eligible == eligible):
            pots[-1] = Pot(pots[-1].amount + chips, pots[-1].eligible)
        else:
            pots.append(Pot(chips, eligible or tuple(p for p, alive in enumerate(live) if alive)))
    return pots


@settings(max_examples=300)
@given(st.lists(st.integers(0, 60), min_size=1, max_size=7), st.data())
def test_property_pots_match_chip_by_chip_layers(amounts: list[int], data: st.DataObject) -> None:
    live = data.draw(st.lists(st.booleans(), min_size=len(amounts), max_size=len(amounts)))
    if not any(live):
        live[0] = True
    assert list(build_pots(amounts, live)) == layered_pots(amounts, live)
