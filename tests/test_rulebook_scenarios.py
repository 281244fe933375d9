"""One complete hand per rulebook, end to end through the public API, checked to the chip.

Every hand deals the same cards: player 0 (the small blind) holds 2c 3d, player 1 (the big
blind) Ah Ad, player 2 (the button) Kh Kd; the board is 7s 8s Jc 9d 4h, so player 1's aces
win. Each book's own limits shape the betting; the expected stacks, pots and commission are
worked out by hand in the comments.
"""

from __future__ import annotations

from croupier import events as ev
from croupier.hand import Hand, Rules
from croupier.rulebooks import load_rulebook
from scripted import board_deck

HOLES = ["2c 3d", "Ah Ad", "Kh Kd"]
BOARD = "7s 8s Jc 9d 4h"


def play(rules: Rules, script: list[str | int]) -> Hand:
    """Run ``script``: 'c' check or call, 'f' fold, an int bets or raises to that amount."""
    hand = Hand(rules, [1000, 1000, 1000], board_deck(HOLES, BOARD))
    for step in script:
        if step == "c":
            hand.check_or_call()
        elif step == "f":
            hand.fold()
        else:
            assert isinstance(step, int)
            hand.bet_or_raise_to(step)
    assert hand.to_act is None, "the script should finish the hand"
    return hand


def announced(hand: Hand) -> list[ev.Announce]:
    return [e for e in hand.events if isinstance(e, ev.Announce)]


def test_rws_scenario_rake_5_percent_capped() -> None:
    # p2 raises to 30, p0 folds, p1 calls (65); flop: p1 checks, p2 bets 40, p1 calls (145);
    # turn and river checked. Rake: 5% of 145 is 7, capped at 5 (rws 4.1). p1 takes 140.
    rules = load_rulebook("rws").rules(
        "holdem", stakes=(5, 10), commission="percentage", commission_rate="5%",
        commission_cap=5,
    )  # fmt: skip
    hand = play(rules, [30, "f", "c", "c", 40, "c", "c", "c", "c", "c"])
    assert hand.stacks == [995, 1070, 930]
    assert hand.commission == 5
    (pot,) = announced(hand)
    assert (pot.amount, pot.commission, pot.paid, pot.winners) == (145, 5, 140, (1,))


def test_qld_scenario_opening_raise_pot_limit_and_s30_commission() -> None:
    # s24(4): p2's opening raise is exactly one blind, to 20; p0 folds, p1 calls (45). Flop:
    # p1 checks, p2 bets 40 (pot limit 45), p1 calls (125); turn and river checked.
    # s30: 5% of the largest multiple of 20 in 125, i.e. of 120: 6. p1 takes 119.
    rules = load_rulebook("qld").rules(
        "holdem", "pot", stakes=10, commission="percentage", commission_rate="5%"
    )
    assert Hand(rules, [1000] * 3, board_deck(HOLES, BOARD)).legal().raise_range == (20, 20)
    hand = play(rules, [20, "f", "c", "c", 40, "c", "c", "c", "c", "c"])
    assert hand.stacks == [995, 1059, 940]
    assert hand.commission == 6
    (pot,) = announced(hand)
    # qld s26(3), s27(8)-(9): the pot, the commission, the pot less commission, the winner.
    assert (pot.amount, pot.commission, pot.paid, pot.winners) == (125, 6, 119, (1,))
    assert pot.hands == ("Pair of Aces",)
    # s27(2): nobody bet the final round, so the designated player (the button) shows first.
    shows = [e for e in hand.events if isinstance(e, ev.Show | ev.Muck)]
    assert isinstance(shows[0], ev.Show) and shows[0].player == 2


def test_au_casino_scenario_commission_on_the_whole_hand() -> None:
    # The rws betting, no-limit; au 8.2(a): 5% of the whole hand's 145 is 7 (no cap set).
    rules = load_rulebook("au-casino").rules(
        "holdem", "no-limit", stakes=(5, 10), commission="percentage", commission_rate="5%"
    )
    hand = play(rules, [30, "f", "c", "c", 40, "c", "c", "c", "c", "c"])
    assert hand.stacks == [995, 1000 - 70 + 138, 930]
    assert hand.commission == 7


def test_cardroom_scenario_fixed_limit_check_raise() -> None:
    # 5/10 blinds, 10/20 limit: p2 raises to 20, p0 folds, p1 calls (45); flop: check, p2 bets
    # 10, p1 calls (65); turn: p1 checks, p2 bets 20, p1 check-raises to 40 (cardroom
    # betting 2), p2 calls (145); river checked. 5% rake pot by pot: 7. p1 takes 138.
    rules = load_rulebook("cardroom").rules(
        "holdem", "fixed", stakes=(5, 10), commission="percentage", commission_rate="5%"
    )
    script: list[str | int] = [20, "f", "c", "c", 10, "c", "c", 20, 40, "c", "c", "c"]
    hand = play(rules, script)
    assert hand.stacks == [995, 1000 - 70 + 138, 930]
    assert hand.commission == 7


def test_league_scenario_double_raises_no_commission() -> None:
    # League 7-9: p2 raises to 30 (at least 20), p0 folds, p1 re-raises to 60 (at least
    # double 30), p2 calls (125); flop: p1 bets the big blind 10, p2 calls (145); turn and
    # river checked. No commission: p1 takes all 145.
    rules = load_rulebook("league").rules("holdem", stakes=(5, 10))
    hand = play(rules, [30, "f", 60, "c", 10, "c", "c", "c", "c", "c"])
    assert hand.stacks == [995, 1075, 930]
    assert hand.commission == 0
    (pot,) = announced(hand)
    assert (pot.amount, pot.paid) == (145, 145)


def test_qld_s26_3_uncontested_pot_uncalled_bet_returned_then_announced_and_paid() -> None:
    # p2 opens to 20, p0 folds, p1 calls (45); flop: p1 checks, p2 bets 40 and p1 folds. s26(3):
    # the uncalled 40 goes back first, then the pot of 45 is announced with its commission
    # (5% of 40, the largest multiple of 20: 2) and 43 is paid to p2.
    rules = load_rulebook("qld").rules(
        "holdem", "pot", stakes=10, commission="percentage", commission_rate="5%"
    )
    hand = play(rules, [20, "f", "c", "c", 40, "f"])
    returned = [e for e in hand.events if isinstance(e, ev.ReturnUncalled)]
    assert returned == [ev.ReturnUncalled(2, 40)]
    (pot,) = announced(hand)
    assert (pot.amount, pot.commission, pot.paid, pot.winners, pot.hands) == (45, 2, 43, (2,), ())
    assert hand.stacks == [995, 980, 1000 - 20 + 43]
