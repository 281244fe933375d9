"""rws and qld clauses the engine already does, proved clause by clause with scripted decks.

Each test is named after the clause it proves (docs/rules-coverage.toml lists it). Decks are
stacked so that every card, burn and winner is known before the hand is played; expected
amounts are worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.cards import Card, DeckKind, parse_cards
from croupier.deck import Deck
from croupier.games import GameError
from croupier.hand import Hand, Phase, Rules
from croupier.rulebooks import RulebookError, load_rulebook
from scripted import cards, collected, last_action, no_split_by_agreement

RWS = load_rulebook("rws")
QLD = load_rulebook("qld")


def rws(**options: object) -> Rules:
    return RWS.rules("holdem", stakes=10, **options)  # blinds 5 and 10, no limit


def qld(structure: str = "pot", **options: object) -> Rules:
    return QLD.rules("holdem", structure, stakes=10, **options)  # blinds 5 and 10


def holdem_deck(holes: list[str], board: str = "", burns: str = "2c 2d 2h") -> Deck:
    """Hole cards one at a time from the left of the button, then burn and flop, burn and
    turn, burn and river; the rest of the deck after them in code order."""
    hole = [h.split() for h in holes]
    top = [hole[p][i] for i in range(2) for p in range(len(hole))]
    shared, burned = board.split(), burns.split()
    if shared:
        top += [burned[0], *shared[:3], burned[1], shared[3], burned[2], shared[4]]
    order = list(parse_cards(" ".join(top)))
    return Deck(DeckKind.STANDARD, order + [c for c in DeckKind.STANDARD.cards if c not in order])


def showdown(hand: Hand) -> list[tuple[str, int]]:
    return [
        ("show" if isinstance(e, ev.Show) else "muck", e.player)
        for e in hand.events
        if isinstance(e, ev.Show | ev.Muck)
    ]


def to_street(hand: Hand, street: int) -> None:
    """Everyone checks or calls until ``street`` begins."""
    while hand.street < street and hand.to_act is not None:
        hand.check_or_call()
    assert hand.street == street


def dealt(hand: Hand) -> list[tuple[str, object]]:
    """Burns, community cards and the starts of betting rounds, in order."""
    out: list[tuple[str, object]] = []
    for e in hand.events:
        if isinstance(e, ev.Burn):
            out.append(("burn", e.card))
        elif isinstance(e, ev.DealBoard):
            out.append(("board", e.cards))
        elif isinstance(e, ev.StreetStart):
            out.append(("round", e.index))
    return out


def burn_then_deal(hand: Hand) -> None:
    """A burn before the flop, the turn and the river; each round opens after its cards."""
    assert dealt(hand) == [
        ("round", 0),
        ("burn", Card("9c")),
        ("board", tuple(cards("2s 7d Jh"))),
        ("round", 1),
        ("burn", Card("9d")),
        ("board", tuple(cards("4c"))),
        ("round", 2),
        ("burn", Card("9h")),
        ("board", tuple(cards("Ks"))),
        ("round", 3),
    ]
    assert hand.burned == cards("9c 9d 9h")


BURN_DECK = (["Ah Kd", "Qc Qd", "5s 6s"], "2s 7d Jh 4c Ks", "9c 9d 9h")


# --- rws: checking, burns, later rounds --------------------------------------------------------


def test_rws_1_check_only_when_no_blind_is_placed_or_bet_made() -> None:
    hand = Hand(rws(), [1000] * 3)
    legal = hand.legal()  # p2 faces the big blind
    assert legal.player == 2 and not legal.can_check and legal.call == 10
    hand.check_or_call()
    assert last_action(hand) == ev.Call(2, 10)
    hand.check_or_call()
    assert last_action(hand) == ev.Call(0, 5)  # the small blind still owed 5
    assert hand.legal().can_check  # the big blind's option: nothing owed (rws 3.8.1(b))
    hand.check_or_call()
    assert last_action(hand) == ev.Check(1)


def test_rws_3_9_1_c_after_a_bet_only_call_raise_or_fold() -> None:
    hand = Hand(rws(), [1000] * 3)
    to_street(hand, 1)
    hand.check_or_call()  # p0 checks (3.9.1(a))
    assert last_action(hand) == ev.Check(0)
    hand.bet_or_raise_to(30)  # p1 bets
    legal = hand.legal()
    assert legal.player == 2 and not legal.can_check
    assert legal.call == 30 and legal.can_fold and legal.raise_range == (60, 990)
    hand.check_or_call()
    assert last_action(hand) == ev.Call(2, 30)
    legal = hand.legal()  # p0 checked before the bet: now it must call, raise or fold too
    assert legal.player == 0 and not legal.can_check and legal.call == 30
    hand.check_or_call()
    assert last_action(hand) == ev.Call(0, 30) and hand.street == 2


def test_rws_3_9_to_3_11_burn_then_flop_turn_and_river() -> None:
    holes, board, burns = BURN_DECK
    hand = Hand(rws(), [1000] * 3, holdem_deck(holes, board, burns))
    to_street(hand, 3)
    burn_then_deal(hand)


def test_rws_3_12_turn_and_river_bet_like_the_flop() -> None:
    hand = Hand(rws(), [1000] * 3)
    to_street(hand, 1)
    hand.bet_or_raise_to(10)
    hand.fold()  # p1 folds
    hand.check_or_call()
    for street, behind in ((2, 980), (3, 960)):  # turn and river: left of the button first
        assert hand.street == street
        legal = hand.legal()
        assert legal.player == 0 and legal.can_check and legal.can_fold
        assert legal.raise_range == (10, behind)
        hand.check_or_call()
        assert last_action(hand) == ev.Check(0)
        legal = hand.legal()  # p1 folded on the flop: p2 is next
        assert legal.player == 2 and legal.can_check
        hand.bet_or_raise_to(20)
        legal = hand.legal()
        assert legal.player == 0 and not legal.can_check and legal.call == 20
        hand.check_or_call()


def test_rws_3_13_1_sole_remaining_player_wins_without_showing() -> None:
    holes, board, burns = BURN_DECK
    hand = Hand(rws(), [1000] * 3, holdem_deck(holes, board, burns))
    to_street(hand, 3)
    hand.bet_or_raise_to(50)
    hand.fold()
    hand.fold()
    assert hand.phase is Phase.OVER and collected(hand) == {0: 30}
    assert showdown(hand) == []  # no Show and no Muck: the hand is never exposed
    seen = [e.visible_to(None) for e in hand.events]
    assert all(card is None for e in seen if isinstance(e, ev.DealHole) for card in e.cards)


# River bets in a three-way pot. Board 2s 7d Jh 4c Ks; p0 Ah Kd (kings), p1 Qc Qd (queens),
# p2 5s 6s (king high): each test sets up who bets and who calls.
SHOWDOWN_DECK = BURN_DECK


def _river(rules: Rules, holes: list[str] | None = None) -> Hand:
    start, board, burns = SHOWDOWN_DECK
    hand = Hand(rules, [1000] * 3, holdem_deck(holes or start, board, burns))
    to_street(hand, 3)
    return hand


def test_rws_3_13_2_a_last_raiser_shows_first_else_last_bettor() -> None:
    raised = _river(rws())
    raised.bet_or_raise_to(20)  # p0 bets
    raised.bet_or_raise_to(60)  # p1 raises
    raised.check_or_call()  # p2 calls
    raised.check_or_call()  # p0 calls
    assert showdown(raised)[0] == ("show", 1)
    bet = _river(rws())
    bet.check_or_call()  # p0 checks
    bet.check_or_call()  # p1 checks
    bet.bet_or_raise_to(20)  # p2 bets
    bet.check_or_call()
    bet.check_or_call()
    assert showdown(bet)[0] == ("show", 2)


def test_rws_3_13_2_b_all_checked_first_active_left_of_the_button_shows_first() -> None:
    checked = _river(rws())
    for _ in range(3):
        checked.check_or_call()
    assert showdown(checked)[0] == ("show", 0)
    folded = Hand(rws(), [1000] * 3, holdem_deck(*SHOWDOWN_DECK[:2], SHOWDOWN_DECK[2]))
    to_street(folded, 1)
    folded.bet_or_raise_to(10)
    folded.check_or_call()
    folded.check_or_call()
    folded.check_or_call()  # turn: p0 checks
    folded.bet_or_raise_to(10)  # p1 bets
    folded.check_or_call()
    folded.fold()  # p0 folds
    to_street(folded, 3)
    folded.check_or_call()
    folded.check_or_call()
    assert showdown(folded)[0] == ("show", 1)  # p0 is out: p1 is the first active player


def test_rws_3_13_2_c_equal_hands_show_worse_hands_are_mucked() -> None:
    # p0 bets the river with kings; p1's queens are worse and mucked; p2's kings with the
    # same kickers tie and are shown: the pot is split.
    hand = _river(rws(), ["Kh Tc", "Qh Qd", "Kc Td"])
    hand.bet_or_raise_to(20)
    hand.check_or_call()
    hand.check_or_call()
    assert showdown(hand) == [("show", 0), ("muck", 1), ("show", 2)]
    assert collected(hand) == {0: 45, 2: 45}


def test_rws_3_13_2_c_and_qld_s27_4_hand_better_than_the_first_shown_is_shown() -> None:
    # p2 (king high) bets the river; p0 (kings) and p1 (queens) call. p2 shows first, p0's
    # kings beat it and are shown; p1's queens also beat p2's hand, so they must be shown.
    for rules in (rws(), qld()):
        hand = _river(rules)
        hand.check_or_call()
        hand.check_or_call()
        hand.bet_or_raise_to(20)
        hand.check_or_call()
        hand.check_or_call()
        assert showdown(hand) == [("show", 2), ("show", 0), ("show", 1)]


def test_rws_4_2_no_split_by_agreement_hands_are_played_out() -> None:
    hand = _river(rws())  # 30 in; all check the river: p0's kings take it all
    for _ in range(3):
        hand.check_or_call()
    no_split_by_agreement(hand, {0: 30})


# --- qld: checking, table, burns ---------------------------------------------------------------


def test_qld_s4_4_a_players_may_check_until_an_opening_bet_is_made() -> None:
    hand = Hand(qld(), [1000] * 3)
    to_street(hand, 1)
    hand.check_or_call()
    assert last_action(hand) == ev.Check(0)
    hand.check_or_call()
    assert last_action(hand) == ev.Check(1)
    hand.bet_or_raise_to(10)  # p2 makes the opening bet
    legal = hand.legal()
    assert legal.player == 0 and not legal.can_check and legal.call == 10
    hand.check_or_call()
    assert last_action(hand) == ev.Call(0, 10)


def test_qld_s11_1_at_most_ten_players() -> None:
    rules = qld()
    assert Hand(rules, [100] * 10).players == 10
    with pytest.raises(GameError, match=r"2 to 10 players"):
        Hand(rules, [100] * 11)
    QLD.check_players("holdem", 10)
    with pytest.raises(RulebookError, match=r"qld s11\(1\)"):
        QLD.check_players("holdem", 11)


def test_qld_s21_6_8_10_burn_card_before_the_flop_turn_and_river() -> None:
    holes, board, burns = BURN_DECK
    hand = Hand(qld(), [1000] * 3, holdem_deck(holes, board, burns))
    to_street(hand, 3)
    burn_then_deal(hand)


# --- qld s25: opening bets ---------------------------------------------------------------------


def test_qld_s25_4_opening_bet_between_the_table_minimum_and_maximum() -> None:
    # After the first round the pot is 30. With a posted maximum of 20 the opening bet is 10
    # to 20; with none, full pot betting allows up to the pot, 30.
    capped = Hand(qld(max_wager=20), [1000] * 3)
    to_street(capped, 1)
    assert capped.pot == 30 and capped.legal().raise_range == (10, 20)
    with pytest.raises(IllegalAction, match="below the minimum 10"):
        capped.bet_or_raise_to(9)
    with pytest.raises(IllegalAction, match="above the maximum 20"):
        capped.bet_or_raise_to(21)
    capped.bet_or_raise_to(20)
    assert capped.events[-1] == ev.Bet(0, 20, 20)
    free = Hand(qld(), [1000] * 3)
    to_street(free, 1)
    assert free.legal().raise_range == (10, 30)


# --- qld s27: showdown -------------------------------------------------------------------------


def test_qld_s27_2_a_no_final_bet_the_designated_player_shows_first() -> None:
    hand = _river(qld())
    for _ in range(3):
        hand.check_or_call()
    assert showdown(hand)[0] == ("show", 2)  # p2 holds the button


def test_qld_s27_2_b_designated_player_out_the_first_active_player_shows() -> None:
    start, board, burns = SHOWDOWN_DECK
    hand = Hand(qld(), [1000] * 3, holdem_deck(start, board, burns))
    to_street(hand, 1)
    hand.bet_or_raise_to(10)
    hand.check_or_call()
    hand.fold()  # the designated player folds on the flop
    to_street(hand, 3)
    hand.check_or_call()
    hand.check_or_call()
    assert showdown(hand)[0] == ("show", 0)


def test_qld_s27_3_the_last_player_called_shows_first() -> None:
    raised = _river(qld())
    raised.bet_or_raise_to(10)  # p0 opens
    raised.bet_or_raise_to(20)  # p1 calls and raises: the last player called
    raised.check_or_call()
    raised.check_or_call()
    assert showdown(raised)[0] == ("show", 1)
    opened = _river(qld())
    opened.check_or_call()
    opened.bet_or_raise_to(10)  # p1 opens, p2 and p0 call
    opened.check_or_call()
    opened.check_or_call()
    assert showdown(opened)[0] == ("show", 1)


def _all_in_side_pot(holes: list[str]) -> Hand:
    # p0 has 30. First round: p2 calls 10, p0 raises all-in to 30, p1 and p2 call: a 90 main
    # pot. Flop: p1 bets 20, p2 calls; turn checked; river: p1 bets 20, p2 calls: an 80 side
    # pot for p1 and p2 only.
    hand = Hand(qld(), [30, 1000, 1000], holdem_deck(holes, "2c 7d 9s Jh 4c", "3s 3h 3d"))
    hand.check_or_call()
    hand.bet_or_raise_to(30)
    hand.check_or_call()
    hand.check_or_call()
    assert hand.street == 1 and hand.stacks[0] == 0 and hand.to_act == 1
    hand.bet_or_raise_to(20)
    hand.check_or_call()
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(20)
    hand.check_or_call()
    assert hand.phase is Phase.OVER
    return hand


def test_qld_s27_4_equal_or_better_hands_show_all_in_player_too() -> None:
    # p1 (kings) is called and shows; p2's queens are worse and mucked; p0, all-in and
    # eligible for the main pot, holds aces: shown, and takes the main pot.
    hand = _all_in_side_pot(["Ah Ad", "Kh Kd", "Qh Qd"])
    assert showdown(hand) == [("show", 1), ("muck", 2), ("show", 0)]
    assert collected(hand) == {0: 90, 1: 80}


def test_qld_s29_8_all_in_player_shows_down_only_for_the_pot_it_can_win() -> None:
    # Aces for p0 (all-in), kings for p2, queens for p1. p0 takes part in the showdown for
    # the main pot only: the side pot goes to p2's kings although the aces are better.
    hand = _all_in_side_pot(["Ah Ad", "Qh Qd", "Kh Kd"])
    assert showdown(hand) == [("show", 1), ("show", 2), ("show", 0)]
    pots = {(e.pot, e.player): e.amount for e in hand.events if isinstance(e, ev.Collect)}
    assert pots == {(0, 0): 90, (1, 2): 80}
    assert hand.stacks == [90, 930, 1010]


def test_qld_s27_10_b_participation_fee_pot_split_in_dollar_units() -> None:
    # Five chips to the dollar. p0 and p1 share a royal flush on the board. 95 chips ($19)
    # split in $1 units: $9 (45 chips) each and the $1 left over (5 chips) to p0, next to the
    # designated player. The fee is collected by the table: nothing comes out of the pot.
    rules = qld(commission="participation_fee", commission_fee=5, chips_per_dollar=5)
    deck = holdem_deck(["3c 4d", "5c 6d", "7h 8h"], "As Ks Qs Js Ts")
    hand = Hand(rules, [1000] * 3, deck)
    hand.check_or_call()
    hand.check_or_call()  # 30 in the pot
    hand.bet_or_raise_to(15)  # flop: everyone puts in 15
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(10)  # turn: p0 and p1 put in 10, p2 folds
    hand.check_or_call()
    hand.fold()
    hand.check_or_call()
    hand.check_or_call()
    assert hand.phase is Phase.OVER and hand.commission == 0
    assert collected(hand) == {0: 50, 1: 45}


def test_qld_s27_12_no_split_by_agreement() -> None:
    hand = _all_in_side_pot(["Ah Ad", "Kh Kd", "Qh Qd"])
    no_split_by_agreement(hand, {0: 90, 1: 80})


# --- qld s28: raises ---------------------------------------------------------------------------


def test_qld_s28_3_minimum_raise_above_the_maximum_raise_is_the_maximum() -> None:
    # Posted maximum 30. Flop: p0 opens 30; p1 raises 30 more (the opening bet: s28(4)(a)).
    # p2's smallest raise would be its own call, 60 (s28(4)(c)), above the maximum of 30:
    # the raise must be exactly 30, to 90.
    hand = Hand(qld(max_wager=30), [1000] * 3)
    to_street(hand, 1)
    hand.bet_or_raise_to(30)
    assert hand.legal().raise_range == (60, 60)
    hand.bet_or_raise_to(60)
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 60 and legal.raise_range == (90, 90)


def test_qld_s28_4_a_after_an_opening_bet_the_minimum_raise_is_that_bet() -> None:
    # Flop, pot 30: p0 opens 15. p1 must raise at least 15 (not merely the table minimum
    # of 10): to 30 at least; at most the pot after the call, 60: to 75.
    hand = Hand(qld(), [1000] * 3)
    to_street(hand, 1)
    hand.bet_or_raise_to(15)
    assert hand.legal().raise_range == (30, 75)
    with pytest.raises(IllegalAction, match=r"below the minimum 30 \(qld s28\(4\)\)"):
        hand.bet_or_raise_to(29)


def test_qld_s28_4_b_after_a_plain_call_the_minimum_raise_is_that_call() -> None:
    # Flop, pot 30: p0 opens 10, p1 raises to 40, p2 calls 40 without raising. p0's raise
    # must be at least p2's call of 40 (to 80), though p0 itself owes only 30.
    hand = Hand(qld(), [1000] * 3)
    to_street(hand, 1)
    hand.bet_or_raise_to(10)
    hand.bet_or_raise_to(40)
    hand.check_or_call()
    legal = hand.legal()
    assert legal.player == 0 and legal.call == 30
    assert legal.raise_range == (80, 190)


def test_qld_s28_7_straddle_raise_at_most_twice_the_last_wager() -> None:
    hand = Hand(qld("straddle"), [1000] * 3)
    to_street(hand, 1)
    hand.bet_or_raise_to(10)  # p0's opening bet
    # (a) p1 calls the opening bet: a raise of at most twice it, 20 (at least 10, s28(4)(a)).
    assert hand.legal().raise_range == (20, 30)
    with pytest.raises(IllegalAction, match=r"above the maximum 30: straddle.*qld s28\(7\)"):
        hand.bet_or_raise_to(31)
    hand.bet_or_raise_to(30)  # calls 10 and raises 20
    # (c) p1 called and raised: p2 may raise at most twice the call and raise, 60.
    legal = hand.legal()
    assert legal.call == 30 and legal.raise_range == (60, 90)
    hand.check_or_call()  # p2 calls 30 and does not raise
    # (b) the last bettor only called: p0 may raise at most twice that call, 60.
    legal = hand.legal()
    assert legal.player == 0 and legal.call == 20 and legal.raise_range is not None
    assert legal.raise_range[1] == 30 + 60


# --- qld s29: all-in ---------------------------------------------------------------------------


def test_qld_s29_2_a_all_in_with_some_stake_but_not_enough_to_call() -> None:
    hand = Hand(qld(), [1000, 1000, 6])
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 6 and legal.raise_range is None
    hand.check_or_call()
    assert last_action(hand) == ev.Call(2, 6, all_in=True)
    assert hand.stacks[2] == 0 and 2 in hand.in_hand()


def test_qld_s29_2_b_all_in_with_exactly_enough_to_call() -> None:
    hand = Hand(qld(), [1000, 1000, 10])
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 10 and legal.raise_range is None
    hand.check_or_call()
    assert last_action(hand) == ev.Call(2, 10, all_in=True)


def test_qld_s29_9_full_pot_limit_counts_main_and_side_pots_as_one() -> None:
    # p0 has 30: first round 10 each (pot 30); flop: p0 bets its last 20, p1 raises to 60 (an
    # 80 side pot forms over p0's all-in once called). p2's call brings the pot to
    # 30 + 20 + 60 + 60 = 170: p2 may raise up to 170, to 230. Counting only the side pot
    # (40 + 40) would stop it at 140; only the main pot (90), at 150.
    hand = Hand(qld(), [30, 1000, 1000])
    to_street(hand, 1)
    hand.bet_or_raise_to(20)
    assert hand.stacks[0] == 0
    hand.bet_or_raise_to(60)
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 60 and legal.raise_range == (120, 230)


# --- qld s30: commission -----------------------------------------------------------------------


def test_qld_s30_3_the_operator_may_take_less_than_5_percent() -> None:
    # Heads-up: p0 completes (pot 20), bets 20 on the flop and the turn, p1 calls: 100. p0's
    # straight wins: 5% of 100 is 5; a posted 2% takes 2; more than 5% is refused.
    def play(**options: object) -> Hand:
        deck = holdem_deck(["Jd Tc", "Ah 3c"], "As Kd Qc 7h 2s")
        hand = Hand(qld(commission="percentage", **options), [1000, 1000], deck)
        hand.check_or_call()
        hand.bet_or_raise_to(20)
        hand.check_or_call()
        hand.bet_or_raise_to(20)
        hand.check_or_call()
        hand.check_or_call()
        hand.check_or_call()
        assert hand.phase is Phase.OVER
        return hand

    full, less = play(), play(commission_rate="2%")
    assert (full.commission, collected(full)) == (5, {0: 95})
    assert (less.commission, collected(less)) == (2, {0: 98})
    with pytest.raises(RulebookError, match="5%"):
        qld(commission="percentage", commission_rate="6%")
