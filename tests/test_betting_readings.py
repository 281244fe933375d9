"""The two readings issue 15 corrects (docs/irregularities-spec.md Part 5).

- au: a short all-in *bet* of half a bet or more counts as a bet, but a short all-in *raise* is
  never a raise, however large: it reopens nothing and does not count toward the cap; at fixed
  limit the next raise completes to the structured level (under half) or goes a full raise over
  the all-in (half or more) (au 10.2; au 1.1 'Raise').
- qld structured betting: an opening bet after the first round is any amount from the minimum to
  the maximum wager, while raises stay fixed (qld s25(4), s28(8), s9(1)).
"""

from __future__ import annotations

import re

import pytest

from croupier.betting import IllegalAction, ShortAllIn
from croupier.hand import Hand
from croupier.rulebooks import load_rulebook

AU = load_rulebook("au-casino")
QLD = load_rulebook("qld")


def _flop(hand: Hand) -> None:
    """Everyone calls (or checks) before the flop."""
    while hand.street == 0:
        hand.check_or_call()


def test_au_10_2_half_a_bet_counts_as_a_bet_but_no_short_raise_reopens() -> None:
    rules = AU.rules("holdem", "fixed", stakes=10)
    assert rules.betting.short_all_in is ShortAllIn.HALF_BET
    # The flop is a 10 round. p1 has 17 behind once the first round is called.
    hand = Hand(rules, [1000, 27, 1000, 1000])
    _flop(hand)
    assert hand.to_act == 0 and hand.legal().raise_range == (10, 10)
    hand.bet_or_raise_to(10)
    hand.bet_or_raise_to(17)  # all-in: 7 over the bet, more than half of a 10 raise
    assert not hand.events[-1].full  # type: ignore[attr-defined]
    legal = hand.legal()  # p2 calls 17 or raises a full raise over the all-in: 27 (1.1)
    assert (legal.player, legal.call, legal.raise_range) == (2, 17, (27, 27))
    hand.bet_or_raise_to(27)
    hand.bet_or_raise_to(37)  # p3: the second raise; the all-in did not count toward the cap
    legal = hand.legal()
    assert legal.player == 0 and legal.raise_range == (47, 47)  # the third raise is allowed
    hand.bet_or_raise_to(47)
    hand.check_or_call()  # p2
    assert hand.legal().raise_range is None  # p3: capped at a bet and three raises (11.5(g))


def test_au_10_2_player_who_acted_may_only_call_a_short_all_in_raise_of_half_or_more() -> None:
    hand = Hand(AU.rules("holdem", "fixed", stakes=10), [1000, 27, 1000, 1000])
    _flop(hand)
    hand.bet_or_raise_to(10)
    hand.bet_or_raise_to(17)
    hand.check_or_call()  # p2 calls 17
    hand.check_or_call()  # p3 calls 17
    legal = hand.legal()
    assert (legal.player, legal.call, legal.raise_range) == (0, 7, None)
    with pytest.raises(IllegalAction, match=re.escape("au 10.2")):
        hand.bet_or_raise_to(27)


def test_au_10_2_short_all_in_raise_under_half_completes_to_the_structured_level() -> None:
    hand = Hand(AU.rules("holdem", "fixed", stakes=10), [1000, 24, 1000, 1000])
    _flop(hand)
    hand.bet_or_raise_to(10)
    hand.bet_or_raise_to(14)  # 4 over: under half
    legal = hand.legal()
    assert (legal.call, legal.raise_range) == (14, (20, 20))  # complete to the structured 20


def test_au_10_2_short_all_in_opening_bets_under_and_over_half() -> None:
    # An opening all-in bet of 6 (half or more of 10) is a bet: raise to 16; one of 4 is not:
    # call 4 or complete to 10.
    for stack, expected in ((16, (16, 16)), (14, (10, 10))):
        hand = Hand(AU.rules("holdem", "fixed", stakes=10), [stack, 1000, 1000, 1000])
        _flop(hand)
        hand.bet_or_raise_to(stack - 10)  # all-in
        assert hand.legal().raise_range == expected


def test_au_1_1_short_all_in_raise_above_half_does_not_reopen_no_limit() -> None:
    # 5/10 blinds: p2 raises to 40 (a raise of 30); p0 is all-in to 60, 20 over (at least
    # half of 30) but short of a full raise: not a raise. The big blind, who has not acted,
    # may call 60 or raise to at least 90; p2 may only call the 20.
    hand = Hand(AU.rules("holdem", "no-limit", stakes=10), [60, 1000, 1000])
    hand.bet_or_raise_to(40)
    hand.bet_or_raise_to(60)
    legal = hand.legal()
    assert (legal.player, legal.call, legal.raise_range) == (1, 50, (90, 1000))
    hand.check_or_call()
    legal = hand.legal()
    assert (legal.player, legal.call, legal.raise_range) == (2, 20, None)


def test_rws_3_14_3_half_a_raise_or_more_still_reopens_for_rws() -> None:
    # The same hand under rws: 20 over a raise of 30 is a raise, so p2 may raise again.
    hand = Hand(load_rulebook("rws").rules("holdem", stakes=10), [60, 1000, 1000])
    hand.bet_or_raise_to(40)
    hand.bet_or_raise_to(60)
    hand.check_or_call()
    legal = hand.legal()
    assert legal.player == 2 and legal.raise_range is not None


def test_qld_s25_4_structured_opening_bet_between_minimum_and_maximum() -> None:
    rules = QLD.rules("holdem", "fixed", stakes=10, max_wager=25)
    assert rules.betting.open_range
    hand = Hand(rules, [1000] * 4)
    _flop(hand)
    assert hand.legal().raise_range == (10, 25)
    with pytest.raises(IllegalAction, match=re.escape("qld s25(4)")):
        hand.bet_or_raise_to(26)
    hand.bet_or_raise_to(15)  # refused before issue 15: only exactly 10 was allowed


def test_qld_s28_8_structured_raises_stay_fixed_after_a_larger_opening_bet() -> None:
    hand = Hand(QLD.rules("holdem", "fixed", stakes=10, max_wager=25), [1000] * 4)
    _flop(hand)
    hand.bet_or_raise_to(15)
    assert hand.legal().raise_range == (25, 25)  # s28(8)(a): raise by the minimum wager
    hand.bet_or_raise_to(25)
    assert hand.legal().raise_range == (35, 35)
    for _ in range(3):
        hand.check_or_call()  # p3 and p0 call 25... then p1's turn came round
    while hand.street == 1:
        hand.check_or_call()
    assert hand.street == 2 and hand.legal().raise_range == (10, 25)  # the turn opens freely
    hand.bet_or_raise_to(10)
    assert hand.legal().raise_range == (35, 35)  # s28(8)(b): raise by the maximum wager


def test_qld_s24_4_first_round_keeps_its_fixed_opening_raise_with_open_range() -> None:
    hand = Hand(QLD.rules("holdem", "fixed", stakes=10, max_wager=25), [1000] * 4)
    assert hand.legal().raise_range == (20, 20)


def test_au_1_1_structured_limit_opening_bet_stays_fixed() -> None:
    hand = Hand(AU.rules("holdem", "fixed", stakes=10), [1000] * 4)
    _flop(hand)
    assert hand.legal().raise_range == (10, 10)
