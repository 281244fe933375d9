"""The prize pool, prizes that sum to it, and ICM (Malmuth-Harville) for final-table deals."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.tournament import (
    PayoutPlan,
    PayoutRange,
    TournamentError,
    icm_deal,
    icm_equities,
    prizes,
)

F = Fraction


def test_prizes_follow_the_template_and_the_first_place_takes_the_remainder() -> None:
    plan = PayoutPlan((PayoutRange(2, None, (F(50), F(30), F(20))),))
    assert prizes(plan, 1000, 10) == (500, 300, 200)
    assert prizes(plan, 1001, 10) == (501, 300, 200)
    rounded = PayoutPlan(plan.ranges, unit=100)
    assert prizes(rounded, 1234, 10) == (734, 300, 200)  # 370.2 -> 300, 246.8 -> 200


def test_the_template_is_chosen_by_the_number_of_entrants() -> None:
    plan = PayoutPlan(
        (
            PayoutRange(2, 5, (F(100),)),
            PayoutRange(6, 9, (F(70), F(30))),
            PayoutRange(10, None, (F(50), F(30), F(20))),
        )
    )
    assert prizes(plan, 900, 5) == (900,)
    assert prizes(plan, 900, 6) == (630, 270)
    assert prizes(plan, 900, 50) == (450, 270, 180)


def test_more_places_than_people_are_cut_and_the_shares_scaled_to_keep_the_pool() -> None:
    plan = PayoutPlan((PayoutRange(2, None, (F(50), F(30), F(20))),))
    assert prizes(plan, 800, 10, players=2) == (500, 300)  # 62.5% and 37.5%


def test_the_default_plan_pays_fifteen_percent_of_a_big_field() -> None:
    assert len(prizes(PayoutPlan(), 10**6, 1000)) == 150
    assert len(prizes(PayoutPlan(), 10**6, 3)) == 1
    assert prizes(PayoutPlan(), 600, 8) == (328, 163, 109)  # 6:3:2 of 600, rounded down


def test_payout_templates_that_do_not_add_up_are_refused() -> None:
    with pytest.raises(TournamentError, match="sum to exactly 100"):
        PayoutRange(2, None, (F(50), F(30)))
    with pytest.raises(TournamentError, match="more than the place above"):
        PayoutRange(3, None, (F(30), F(70)))
    with pytest.raises(TournamentError, match="without gaps"):
        PayoutPlan((PayoutRange(2, 5, (F(100),)), PayoutRange(7, None, (F(100),))))
    with pytest.raises(TournamentError, match="no payout range for 12"):
        prizes(PayoutPlan((PayoutRange(2, 10, (F(100),)),)), 100, 12)


@settings(max_examples=300, deadline=None)
@given(
    pool=st.integers(0, 10**9),
    entrants=st.integers(1, 3000),
    unit=st.sampled_from([1, 5, 100, 500]),
    weights=st.lists(st.integers(1, 1000), min_size=1, max_size=12),
)
def test_prizes_always_sum_to_the_pool(
    pool: int, entrants: int, unit: int, weights: list[int]
) -> None:
    weights = sorted(weights, reverse=True)
    shares = tuple(F(100 * w, sum(weights)) for w in weights)
    for plan in (PayoutPlan(unit=unit), PayoutPlan((PayoutRange(1, None, shares),), unit)):
        paid = prizes(plan, pool, entrants, players=entrants)
        assert sum(paid) == pool
        assert all(a >= b >= 0 for a, b in itertools.pairwise(paid))
        assert all(p % unit == 0 for p in paid[1:])


# --- ICM -------------------------------------------------------------------------------------


def test_icm_three_players_against_the_values_worked_by_hand() -> None:
    # Stacks 5,000 / 3,000 / 2,000 for prizes 50 / 30 / 20. For A: first 1/2; second
    # 3/10 * 5/7 + 2/10 * 5/8 = 19/56; third 9/56; so 25 + 30 * 19/56 + 20 * 9/56 = 1075/28.
    # For B: 3/10, then 1/2 * 3/5 + 1/5 * 3/8 = 3/8, third 13/40: 15 + 45/4 + 13/2 = 131/4.
    # For C: 1/5, then 1/2 * 2/5 + 3/10 * 2/7 = 2/7, third 18/35: 10 + 60/7 + 72/7 = 202/7.
    assert icm_equities([5000, 3000, 2000], [50, 30, 20]) == (F(1075, 28), F(131, 4), F(202, 7))


def _brute_force(stacks: list[int], prize_list: list[int]) -> list[Fraction]:
    equity = [F(0)] * len(stacks)
    for order in itertools.permutations(range(len(stacks))):
        chance, left = F(1), sum(stacks)
        for player in order:
            chance *= F(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order[: len(prize_list)]):
            equity[player] += chance * prize_list[place]
    return equity


@settings(max_examples=100, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 10**6), min_size=1, max_size=6),
    prize_list=st.lists(st.integers(0, 10**5), min_size=1, max_size=6),
)
def test_icm_equals_brute_force_over_every_finishing_order(
    stacks: list[int], prize_list: list[int]
) -> None:
    prize_list = sorted(prize_list, reverse=True)
    assert list(icm_equities(stacks, prize_list)) == _brute_force(stacks, prize_list)


def test_icm_deal_rounds_to_whole_money_and_sums_to_the_prizes_left() -> None:
    assert icm_deal([5000, 3000, 2000], [50, 30, 20]) == (38, 33, 29)
    deal = icm_deal([100, 100, 100, 100], [1000, 600, 400, 200, 100])
    assert sum(deal) == 2200 and max(deal) - min(deal) <= 1


def test_icm_refuses_what_it_cannot_value() -> None:
    with pytest.raises(TournamentError, match="has chips"):
        icm_equities([100, 0], [10, 5])
    with pytest.raises(TournamentError, match="1 to 12 players"):
        icm_equities([1] * 13, [1])
