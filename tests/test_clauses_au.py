"""au-casino clauses the engine already does, proved clause by clause with scripted decks.

Each test is named after the clause it proves (docs/rules-coverage.toml lists it). Decks are
stacked so that every card, burn and winner is known before the hand is played; the expected
amounts are worked out by hand in the comments, never by running the engine twice.
"""

from __future__ import annotations

import re

import pytest

from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.cards import Card, DeckKind
from croupier.deck import Deck
from croupier.games import GameError
from croupier.hand import Hand, Phase, Rules
from croupier.rulebooks import RulebookError, load_rulebook
from scripted import (
    act_passively,
    cards,
    collected,
    deck,
    last_action,
    no_split_by_agreement,
)

AU = load_rulebook("au-casino")
BLIND_GAMES = ("draw", "manila2", "manila3", "holdem", "omaha")


class Unshuffled:
    """A shuffler that leaves the cards in order: restocked stubs are predictable."""

    def randbelow(self, n: int) -> int:
        return n - 1  # Fisher-Yates swaps each card with itself


def one_at_a_time(holes: list[str]) -> str:
    """Hole cards as dealt: one card to each player in turn, from the left of the button."""
    cards = [h.split() for h in holes]
    return " ".join(cards[p][i] for i in range(len(cards[0])) for p in range(len(cards)))


def showdown(hand: Hand) -> list[tuple[str, int]]:
    """Who showed and who mucked, in order."""
    return [
        ("show" if isinstance(e, ev.Show) else "muck", e.player)
        for e in hand.events
        if isinstance(e, ev.Show | ev.Muck)
    ]


def dealing(hand: Hand) -> list[tuple[str, tuple[Card, ...]]]:
    """Burns and community cards in the order they were dealt."""
    out: list[tuple[str, tuple[Card, ...]]] = []
    for e in hand.events:
        if isinstance(e, ev.Burn):
            assert e.card is not None
            out.append(("burn", (e.card,)))
        elif isinstance(e, ev.DealBoard):
            out.append(("board", e.cards))
    return out


def finish_round(hand: Hand) -> None:
    street = hand.street
    while hand.to_act is not None and hand.street == street and not hand.drawing:
        act_passively(hand)


def play_out(hand: Hand) -> None:
    while hand.phase is not Phase.OVER:
        if hand.drawing:
            hand.draw()
        else:
            act_passively(hand)


def au(game: str, structure: str = "no-limit", **options: object) -> Rules:
    if game.startswith("stud"):
        options.setdefault("ante", 1)
    return AU.rules(game, structure, stakes=10, **options)  # blinds 5 and 10 in blind games


# --- au 1.1: check and raise -------------------------------------------------------------------


def test_au_1_1_check_refused_when_a_blind_or_bet_is_owed() -> None:
    hand = Hand(au("holdem"), [100, 100, 100])
    legal = hand.legal()  # p2 faces the big blind of 10
    assert legal.player == 2 and not legal.can_check and legal.call == 10
    hand.check_or_call()  # the only way on without folding or raising is to call
    assert last_action(hand) == ev.Call(2, 10)
    hand.check_or_call()  # the small blind owes 5: a call, not a check
    assert last_action(hand) == ev.Call(0, 5)
    assert hand.legal().can_check  # the big blind owes nothing: it may check
    hand.check_or_call()
    assert last_action(hand) == ev.Check(1)
    hand.bet_or_raise_to(10)  # flop: p0 bets
    legal = hand.legal()
    assert legal.player == 1 and not legal.can_check and legal.call == 10
    hand.check_or_call()
    assert last_action(hand) == ev.Call(1, 10)


def test_au_1_1_raise_after_a_short_all_in_the_last_full_raise_sets_the_minimum() -> None:
    # No limit, 5/10 blinds. p2 raises to 40 (a raise of 30). p0 is all-in for 50: 10 more,
    # under half of 30, so no raise (au 10.2). The big blind's smallest raise is the last full
    # raise on top of the all-in total: 50 + 30 = 80. p2, who already acted, may only call.
    hand = Hand(au("holdem"), [50, 1000, 1000])
    hand.bet_or_raise_to(40)
    hand.bet_or_raise_to(50)
    assert hand.events[-1] == ev.Bet(0, 50, 45, all_in=True, full=False)
    legal = hand.legal()
    assert legal.player == 1 and legal.call == 40 and legal.raise_range == (80, 1000)
    with pytest.raises(IllegalAction, match="below the minimum 80"):
        hand.bet_or_raise_to(79)
    hand.check_or_call()
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 10 and legal.raise_range is None


# --- au 5.1: players per game and deck ---------------------------------------------------------


def _seats(game: str, size: int, most: int) -> None:
    """``most`` players are dealt in; one more is refused by the engine and by the book."""
    rules = au(game, deck=size)
    assert rules.deck.size == size
    hand = Hand(rules, [100] * most)
    assert hand.players == most
    assert all(len(h) + len(u) > 0 for h, u in zip(hand.hole, hand.up, strict=True))
    with pytest.raises(GameError, match=re.escape(f"takes 2 to {most} players (au 5.1)")):
        Hand(rules, [100] * (most + 1))
    AU.check_players(game, most, size)
    with pytest.raises(RulebookError, match=f"takes 2 to {most} players"):
        AU.check_players(game, most + 1, size)


def test_au_5_1_a_52_card_games_draw_8_stud5_10_stud7_8_holdem_10_omaha_10() -> None:
    for game, most in (("draw", 8), ("stud5", 10), ("stud7", 8), ("holdem", 10), ("omaha", 10)):
        _seats(game, 52, most)


def test_au_5_1_b_40_card_games_draw_6_stud5_8_stud7_6() -> None:
    for game, most in (("draw", 6), ("stud5", 8), ("stud7", 6)):
        _seats(game, 40, most)
    with pytest.raises(RulebookError):
        au("holdem", deck=40)  # no 40-card hold'em in au


def test_au_5_1_c_36_card_game_three_card_manila_nine() -> None:
    _seats("manila3", 36, 9)


def test_au_5_1_d_32_card_games_draw_5_stud5_6_manila3_7() -> None:
    for game, most in (("draw", 5), ("stud5", 6), ("manila3", 7)):
        _seats(game, 32, most)


# --- au 10.2: the half-bet rule at fixed limit, under half a bet -------------------------------


def test_au_10_2_under_half_a_bet_later_players_call_short_or_complete() -> None:
    # Fixed limit, 10 a bet on the flop. p0 opens the flop all-in for 4 (under half of 10):
    # p1 may call 4 or complete to the structured 10, and p2 may then raise the full 10.
    hand = Hand(au("holdem", "fixed"), [14, 1000, 1000])
    for _ in range(3):
        hand.check_or_call()  # p2 calls, p0 completes, p1 checks: 10 each
    assert hand.street == 1 and hand.to_act == 0
    hand.bet_or_raise_to(4)
    legal = hand.legal()
    assert legal.player == 1 and legal.call == 4 and legal.raise_range == (10, 10)
    hand.bet_or_raise_to(10)  # completes the bet
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 10 and legal.raise_range == (20, 20)


def test_au_10_2_all_in_excess_under_half_a_raise_is_not_a_raise() -> None:
    # Flop, 10 a bet: p0 bets 10; p1 is all-in for 14: 4 over the call, under half a raise,
    # so no raise. p2 may call 14 or raise to the structured 20; p0, who already acted, may
    # only call the 4 (no call and raise on the excess alone).
    hand = Hand(au("holdem", "fixed"), [1000, 24, 1000, 1000])
    for _ in range(4):
        hand.check_or_call()
    assert hand.street == 1 and hand.to_act == 0
    hand.bet_or_raise_to(10)
    hand.bet_or_raise_to(14)
    assert hand.events[-1] == ev.Bet(1, 14, 14, all_in=True, full=False)
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 14 and legal.raise_range == (20, 20)
    hand.check_or_call()
    hand.check_or_call()  # p3 calls 14
    legal = hand.legal()
    assert legal.player == 0 and legal.call == 4 and legal.raise_range is None


# --- au 11: draw -------------------------------------------------------------------------------

DRAW_HOLES = ["Ah Ad 9c 7s 4d", "Kc Qd 8h 6s 3c", "Kh Kd Qs Qc 2h"]


def test_au_11_1_d_five_cards_each_one_at_a_time_from_the_left_of_the_button() -> None:
    hand = Hand(au("draw"), [1000] * 3, deck(one_at_a_time(DRAW_HOLES)))
    assert hand.hole == [cards(h) for h in DRAW_HOLES]
    kinds = [type(e).__name__ for e in hand.events]
    assert kinds[:5] == ["PostBlind", "PostBlind", "DealHole", "DealHole", "DealHole"]
    assert [e.player for e in hand.events if isinstance(e, ev.DealHole)] == [0, 1, 2]


def test_au_11_2_first_round_left_of_the_last_blind_then_clockwise() -> None:
    hand = Hand(au("draw"), [1000] * 4)
    legal = hand.legal()  # 11.2(a): p2, left of the big blind, may call, raise or fold
    assert legal.player == 2 and legal.call == 10 and legal.can_fold
    assert legal.raise_range == (20, 1000) and not legal.can_check
    hand.fold()  # 11.2(b): the option passes clockwise
    assert hand.to_act == 3 and hand.legal().call == 10
    hand.bet_or_raise_to(30)  # 11.2(c): the others call, raise or fold
    assert hand.to_act == 0
    hand.fold()
    assert hand.to_act == 1
    hand.check_or_call()
    assert hand.street == 1 and hand.drawing and hand.in_hand() == [1, 3]


def test_au_11_2_c_i_last_remaining_player_wins_the_draw_pot() -> None:
    hand = Hand(au("draw"), [1000] * 3)
    hand.bet_or_raise_to(30)
    hand.fold()
    hand.fold()
    assert hand.phase is Phase.OVER and not hand.drawing and hand.street == 0
    assert hand.stacks == [995, 990, 1015]  # p2 takes the blinds; the 20 over is returned
    assert showdown(hand) == []


def test_au_11_4_b_final_round_clockwise_from_the_opener_until_one_remains() -> None:
    hand = Hand(au("draw"), [1000] * 4)
    for _ in range(4):
        hand.check_or_call()
    while hand.drawing:
        hand.draw()
    assert hand.street == 1 and hand.to_act == 2  # 11.4(a)
    hand.bet_or_raise_to(20)
    assert hand.to_act == 3
    hand.bet_or_raise_to(60)
    assert hand.to_act == 0
    hand.fold()
    assert hand.to_act == 1
    hand.fold()
    assert hand.to_act == 2
    hand.fold()  # 11.4(b)(i): p3 is the last player left and wins
    assert hand.phase is Phase.OVER and showdown(hand) == []
    assert collected(hand) == {3: 40 + 20 + 20}  # 40 first round, p2's 20 matched; 40 returned
    assert ev.ReturnUncalled(3, 40) in hand.events


def _draw_showdown() -> Hand:
    # p0 throws the 4d and draws the As: three aces. p1 and p2 stand pat (p2: kings and
    # queens). Final round: p2 bets 20, p0 calls, p1 folds: 30 + 40 = 70 in the pot.
    top = one_at_a_time(DRAW_HOLES) + " As"
    hand = Hand(au("draw"), [1000] * 3, deck(top))
    for _ in range(3):
        hand.check_or_call()
    hand.draw(cards("4d"))
    hand.draw()
    hand.draw()
    assert hand.hole[0] == cards("Ah Ad 9c 7s As")
    hand.bet_or_raise_to(20)  # p2 opens the final round
    hand.check_or_call()  # p0 calls
    hand.fold()  # p1 folds
    return hand


def test_au_11_4_b_ii_two_remain_showdown_best_five_card_hand_wins() -> None:
    hand = _draw_showdown()
    assert hand.phase is Phase.OVER
    assert showdown(hand)[0] == ("show", 2)  # the called player shows first (11.4(c))
    assert ("show", 0) in showdown(hand)  # three aces beat two pair: shown and paid
    assert collected(hand) == {0: 70}
    assert hand.stacks == [1040, 990, 970]


def test_au_11_4_e_draw_no_split_by_agreement_played_to_a_conclusion() -> None:
    no_split_by_agreement(_draw_showdown(), {0: 70})


def test_au_11_5_b_last_compulsory_blind_is_at_least_the_table_minimum() -> None:
    # The minimum wager is the last blind given (stakes=(b1, ..., minimum)), or the blinds
    # are fractions of it with the last one whole (stakes=minimum): never below it.
    expected = {10: (5, 10), (5, 10): (5, 10), (2, 5, 10): (2, 5, 10), (25, 50): (25, 50)}
    for game in BLIND_GAMES:
        for stakes, blinds in expected.items():
            rules = AU.rules(game, "no-limit", stakes=stakes)  # the bet after: the minimum
            assert rules.blinds == blinds
            assert rules.blinds[-1] >= rules.betting.small_bet
            hand = Hand(rules, [1000] * 4)
            assert hand.legal().call == rules.blinds[-1]  # the first round's bet to match
            while hand.street == 0:
                hand.check_or_call()
            while hand.drawing:
                hand.draw()
            legal = hand.legal()  # the table minimum, the last blind, bounds the next bet
            assert legal.raise_range is not None and legal.raise_range[0] == blinds[-1]


def _spread(game: str) -> None:
    """Spread limit, minimum 10, maximum 50: a first bet of 10 to 50; later, a raise of at
    least the last bet or raise and at most 50 (au 11.5(f) and its twins)."""
    rules = au(game, "spread", max_wager=50)
    hand = Hand(rules, [1000] * 3, deck("", rules.deck))
    legal = hand.legal()
    if rules.blinds:  # the big blind of 10 is the bet: raise by 10 to 50
        assert legal.call == 10 and legal.raise_range == (20, 60)
    else:  # stud: the lowest up card bets 10 to 50
        assert legal.call == 0 and legal.raise_range == (10, 50)
    low, high = legal.raise_range
    for bad in (low - 1, high + 1):
        assert not hand.can_bet_or_raise_to(bad)
    hand.bet_or_raise_to(low + 20)  # a bet or raise of 30 over the last level
    current = low + 20
    legal = hand.legal()
    assert legal.raise_range == (current + 30, current + 50)
    with pytest.raises(IllegalAction, match="below the minimum"):
        hand.bet_or_raise_to(current + 29)
    with pytest.raises(IllegalAction, match=r"above the maximum .*au 11\.5\(f\)"):
        hand.bet_or_raise_to(current + 51)
    hand.bet_or_raise_to(current + 50)  # a raise of the maximum 50
    assert hand.legal().raise_range == (current + 100, current + 100)
    finish_round(hand)
    assert hand.street == 1
    while hand.drawing:
        hand.draw()
    legal = hand.legal()  # the next round's first bet: again the minimum to the maximum
    assert legal.can_check and legal.raise_range == (10, 50)


def test_au_11_5_f_spread_limit_draw_bets_between_minimum_and_maximum() -> None:
    _spread("draw")


def test_au_12_5_d_spread_limit_five_card_stud_bets_between_minimum_and_maximum() -> None:
    _spread("stud5")


def test_au_13_5_d_spread_limit_seven_card_stud_bets_between_minimum_and_maximum() -> None:
    _spread("stud7")


def test_au_14_5_e_spread_limit_two_card_manila_bets_between_minimum_and_maximum() -> None:
    _spread("manila2")


def test_au_16_6_e_spread_limit_holdem_bets_between_minimum_and_maximum() -> None:
    _spread("holdem")


def test_au_17_6_e_spread_limit_omaha_bets_between_minimum_and_maximum() -> None:
    _spread("omaha")


# --- au 12: five card stud ---------------------------------------------------------------------


def test_au_12_2_b_first_round_others_act_in_turn_until_one_player_remains() -> None:
    # Up cards Kd, 5h, 9s: p1 (5h) must open with 10; p2 raises to 20, p0 and p1 fold.
    hand = Hand(au("stud5", "fixed"), [100] * 3, deck("2c 3c 4c Kd 5h 9s"))
    hand.bet_or_raise_to(10)
    assert hand.to_act == 2
    hand.bet_or_raise_to(20)
    assert hand.to_act == 0
    hand.fold()
    assert hand.to_act == 1
    hand.fold()  # 12.2(b)(i): p2 wins the antes and p1's 10; its other 10 comes back
    assert hand.phase is Phase.OVER and hand.street == 0 and showdown(hand) == []
    assert hand.stacks == [99, 89, 112]


def test_au_12_3_c_later_rounds_clockwise_from_the_opener() -> None:
    # Second round up cards: p0 K-7, p1 5-5, p2 A-2: p1's pair opens, then p2, then p0.
    # Third round: p0 K-7-9, p1 5-5-9, p2 A-2-6: p1 opens again; the others fold to it.
    top = "2c 3c 4c Kd 5h As" + " Qh 7d 5d 2h" + " 8c 9d 9h 6c"
    hand = Hand(au("stud5", "fixed"), [100] * 3, deck(top))
    finish_round(hand)  # p1 opens for 10, both call
    assert hand.street == 1 and hand.to_act == 1
    hand.bet_or_raise_to(10)
    assert hand.to_act == 2
    hand.check_or_call()
    assert hand.to_act == 0
    hand.bet_or_raise_to(20)
    assert hand.to_act == 1
    hand.check_or_call()
    hand.check_or_call()  # 12.3(c)(ii): three remain, play goes on
    assert hand.street == 2 and hand.up[0] == cards("Kd 7d 9d") and hand.to_act == 1
    hand.bet_or_raise_to(20)
    hand.fold()
    hand.fold()  # 12.3(c)(i): the last player left wins
    assert hand.phase is Phase.OVER and hand.street == 2 and showdown(hand) == []
    # 3 antes + 30 + 60 = 93 to p1, whose uncalled 20 comes back.
    assert collected(hand) == {1: 93}
    assert hand.stacks == [69, 100 - 1 - 10 - 20 + 93, 69]


def test_au_12_4_c_final_round_clockwise_from_the_opener_until_one_remains() -> None:
    # Final up cards: p0 Kd 7d 8d Th, p1 5h 5d 9h 4h (a pair: opens), p2 As 2h 6c 3d.
    top = "2c 3c 4c Kd 5h As" + " Qh 7d 5d 2h" + " Jc 8d 9h 6c" + " Js Th 4h 3d"
    hand = Hand(au("stud5", "fixed"), [100] * 3, deck(top))
    for _ in range(3):
        finish_round(hand)
    assert hand.street == 3 and hand.to_act == 1  # 12.4(b)
    hand.bet_or_raise_to(20)
    assert hand.to_act == 2
    hand.bet_or_raise_to(40)
    assert hand.to_act == 0
    hand.fold()
    assert hand.to_act == 1
    hand.fold()  # 12.4(c)(i)
    assert hand.phase is Phase.OVER and showdown(hand) == []
    assert collected(hand) == {2: 3 + 30 + 40}


def _stud5_heads_up_showdown() -> Hand:
    # p0: Ah down, Kd 7c 4s 2c up (ace high). p1: 9h down, 9d 6c 5s 3d up (two nines).
    # p1 (9d, the lower up card) opens for 10, p0 calls; checks; on the last round p0 (K high
    # showing) bets 20 and p1 calls: pot 2 + 20 + 40 = 62.
    top = "Ah 9h Kd 9d" + " Qs 7c 6c" + " Qd 4s 5s" + " Jh 2c 3d"
    hand = Hand(au("stud5", "fixed"), [100, 100], deck(top))
    for _ in range(3):
        finish_round(hand)
    assert hand.street == 3 and hand.to_act == 0
    hand.bet_or_raise_to(20)
    hand.check_or_call()
    return hand


def test_au_12_4_c_ii_two_remain_showdown_called_player_shows_first() -> None:
    hand = _stud5_heads_up_showdown()
    assert showdown(hand) == [("show", 0), ("show", 1)]  # the called player first (12.4(d))
    first = next(e for e in hand.events if isinstance(e, ev.Show))
    assert first.cards == tuple(cards("Ah Kd 7c 4s 2c"))  # the hole card is exposed
    assert collected(hand) == {1: 62} and hand.stacks == [69, 131]


def test_au_12_4_f_five_card_stud_no_split_by_agreement() -> None:
    no_split_by_agreement(_stud5_heads_up_showdown(), {1: 62})


# Eight players on 40 cards: 16 + 8 + 8 = 32 cards and two burns leave 6; the last round
# needs 9 with its burn, and 6 plus the 2 burns is still short: a burn and one community card
# (au 12.4(a)). Hole card, then up cards for rounds one to three:
STUD5_40 = [
    "5c 6d 9c Js",
    "5d 7c Tc Qs",
    "5h 6h 9d Qd",
    "5s 6c 7h As",  # ace high showing: opens the last round
    "6s 7s 9s Jd",
    "Qh Kc Jh 7d",  # Kc up: with the community Kh it would show a pair of kings
    "8c Th Jc 9h",
    "8d Ts Qc 8h",
]


def test_au_19_13_five_card_stud_opener_ignores_the_community_card() -> None:
    rows = [h.split() for h in STUD5_40]
    order = [r[0] for r in rows] + [r[1] for r in rows]
    for street, burn in ((2, "8s"), (3, "Td")):
        order += [burn] + [r[street] for r in rows]
    order += ["Kd", "Kh"]  # the burn and the community card
    rules = au("stud5", "fixed", deck=40)
    hand = Hand(rules, [100] * 8, deck(" ".join(order), DeckKind.SHORT_40))
    for _ in range(3):
        finish_round(hand)
    assert hand.street == 3
    assert hand.board == cards("Kh") and all(len(u) == 3 for u in hand.up)
    assert hand.to_act == 3  # p3's ace high, not p5's kings counting the community card
    finish_round(hand)
    # 12.4(d): the community king makes p5's pair of kings, the best hand: 8 antes + 80.
    assert hand.phase is Phase.OVER and collected(hand) == {5: 88}
    assert showdown(hand)[0] == ("show", 3)  # nobody bet: the opener shows first


# --- au 13: seven card stud --------------------------------------------------------------------


def test_au_13_2_b_first_round_others_act_until_settled() -> None:
    # Up cards 5h, 5c, Kd: the 5c (clubs lowest) opens: p1.
    top = "2c 3c 4c 2d 3d 4d 5h 5c Kd"
    hand = Hand(au("stud7", "fixed"), [100] * 3, deck(top))
    hand.bet_or_raise_to(10)
    assert hand.to_act == 2
    hand.bet_or_raise_to(20)
    hand.fold()
    assert hand.to_act == 1
    hand.check_or_call()  # 13.2(b)(ii): two remain, play goes on
    assert hand.street == 1 and hand.in_hand() == [1, 2]
    one = Hand(au("stud7", "fixed"), [100] * 3, deck(top))
    one.bet_or_raise_to(10)
    one.bet_or_raise_to(20)
    one.fold()
    one.fold()  # 13.2(b)(i)
    assert one.phase is Phase.OVER and one.stacks == [99, 89, 112] and showdown(one) == []


def test_au_13_3_later_rounds_burn_deal_up_and_bet_from_the_highest_showing() -> None:
    # Round one: Kd, 5h, Ks up: p1 opens, all call. Round two: burn Qh, then 7c, 9h, 7d:
    # p0 and p2 both show K-7; p2's king is the spade (13.3(b)). p2 bets, p0 raises, p1
    # folds, p2 calls. Round three: burn Jc, then 8h to p0 and 6s to p2 (p1 is out): p0's
    # K-8-7 opens, p2 folds (13.3(c)(i)).
    top = "2c 3c 4c 2d 3d 4d Kd 5h Ks" + " Qh 7c 9h 7d" + " Jc 8h 6s"
    hand = Hand(au("stud7", "fixed"), [100] * 3, deck(top))
    finish_round(hand)
    assert dealing(hand) == [("burn", tuple(cards("Qh")))]  # 13.3(a)
    assert [u[-1] for u in hand.up] == cards("7c 9h 7d")
    assert hand.street == 1 and hand.to_act == 2  # 13.3(b)
    hand.bet_or_raise_to(10)
    assert hand.to_act == 0  # 13.3(c): clockwise from the opener
    hand.bet_or_raise_to(20)
    assert hand.to_act == 1
    hand.fold()
    hand.check_or_call()  # 13.3(c)(ii): two remain, play goes on
    assert hand.street == 2
    assert hand.burned == cards("Qh Jc")  # burn, then one up card to each active player
    assert hand.up == [cards("Kd 7c 8h"), cards("5h 9h"), cards("Ks 7d 6s")]
    assert hand.to_act == 0
    hand.bet_or_raise_to(hand.legal().raise_range[0])  # type: ignore[index]
    hand.fold()  # 13.3(c)(i)
    assert hand.phase is Phase.OVER and showdown(hand) == []
    assert collected(hand) == {0: 3 + 30 + 40}
    assert hand.stacks == [100 - 31 + 73, 89, 69]


def test_au_13_4_a_short_stub_is_completed_with_the_burns() -> None:
    # Seven players, 52 cards: 21 + 3 x (1 + 7) = 45 dealt, 7 left for a round that needs 8.
    # The three burns are shuffled back in (unshuffled here: stub, then burns in order): the
    # last card the stub lacked is the first burn.
    ordered = DeckKind.STANDARD.cards
    hand = Hand(au("stud7", "fixed"), [1000] * 7, Deck.ordered(), shuffler=Unshuffled())
    for _ in range(4):
        finish_round(hand)
    assert hand.street == 4
    assert ev.Reshuffle(10) in hand.events and hand.burned == [ordered[45]]
    assert [h[-1] for h in hand.hole] == [*ordered[46:52], ordered[21]]
    assert all(len(h) == 3 and len(u) == 4 for h, u in zip(hand.hole, hand.up, strict=True))
    assert hand.board == []


STUD7_UP = [  # each player's four up cards; only p3 shows an ace, only p5 a king
    "2c 5d 8h Jc",
    "3c 6d 9h Qc",
    "4c 7d Th Jd",
    "2d 5h 9c As",
    "3d 6h Tc Qd",
    "4d 7h Jh Kc",
    "2h 5c 8c Qh",
    "3h 6c 9d Js",
]


def test_au_19_21_seven_card_stud_opener_ignores_the_community_card() -> None:
    # Eight players, 52 cards: 24 + 3 x 9 = 51 dealt; one card and three burns cannot deal
    # the last round (9 with its burn): they are gathered, one is burned, and the next (the
    # first burn, Kh, with no shuffling) is a community card (au 13.4(a)).
    ups = [u.split() for u in STUD7_UP]
    used = set(cards(" ".join(STUD7_UP) + " Kh"))
    spare = iter(c for c in DeckKind.STANDARD.cards if c not in used)
    order: list[Card] = [next(spare) for _ in range(16)]
    order += [Card(u[0]) for u in ups] + [Card("Kh")]
    for street in (1, 2, 3):
        order += [Card(u[street]) for u in ups]
        order.append(next(spare))  # the next burn, or (last) the card left over
    rest = [c for c in DeckKind.STANDARD.cards if c not in order]
    stacked = Deck(DeckKind.STANDARD, order + rest)
    hand = Hand(au("stud7", "fixed"), [1000] * 8, stacked, shuffler=Unshuffled())
    for _ in range(4):
        finish_round(hand)
    assert hand.street == 4 and hand.board == cards("Kh")
    assert all(len(h) == 2 and len(u) == 4 for h, u in zip(hand.hole, hand.up, strict=True))
    assert hand.to_act == 3  # 13.4(b): p3's ace, not p5's kings with the community card


def _stud7_heads_up_showdown() -> Hand:
    # p0: Ah Ad down, Kc 7d 4s 2c up, 9s down: two aces. p1: 9h 9d down, 9c 6c 5s 3d up,
    # Qs down: three nines. p1 (9c, lower) opens for 10, p0 calls; checks; on the last round
    # p0 (K high showing) bets 20, p1 calls: pot 2 + 20 + 40 = 62.
    top = "Ah 9h Ad 9d Kc 9c" + " Th 7d 6c" + " Td 4s 5s" + " Jh 2c 3d" + " Jd 9s Qs"
    hand = Hand(au("stud7", "fixed"), [100, 100], deck(top))
    for _ in range(4):
        finish_round(hand)
    assert hand.street == 4 and hand.to_act == 0
    assert hand.hole == [cards("Ah Ad 9s"), cards("9h 9d Qs")]  # 13.4(a): seventh card down
    hand.bet_or_raise_to(20)
    assert hand.to_act == 1  # 13.4(c): clockwise from the opener
    hand.check_or_call()  # 13.4(c)(ii): two remain: showdown
    return hand


def test_au_13_4_c_ii_two_remain_showdown_best_five_of_seven() -> None:
    hand = _stud7_heads_up_showdown()
    assert showdown(hand) == [("show", 0), ("show", 1)]  # the called player first (13.4(d))
    assert collected(hand) == {1: 62} and hand.stacks == [69, 131]
    shown = [e for e in hand.events if isinstance(e, ev.Show)]
    assert "nine" in shown[1].description.lower()


def test_au_13_4_c_i_last_remaining_player_wins_the_final_round() -> None:
    top = "Ah 9h Ad 9d Kc 9c" + " Th 7d 6c" + " Td 4s 5s" + " Jh 2c 3d" + " Jd 9s Qs"
    hand = Hand(au("stud7", "fixed"), [100, 100], deck(top))
    for _ in range(4):
        finish_round(hand)
    hand.bet_or_raise_to(20)
    hand.bet_or_raise_to(40)
    hand.fold()
    assert hand.phase is Phase.OVER and showdown(hand) == []
    assert collected(hand) == {1: 2 + 20 + 40}


def test_au_13_4_f_seven_card_stud_no_split_by_agreement() -> None:
    no_split_by_agreement(_stud7_heads_up_showdown(), {1: 62})


def test_au_19_17_all_in_player_never_starts_the_betting() -> None:
    # First round: p1 shows the lowest card but the ante put it all-in: p2 (9s) opens.
    first = Hand(au("stud7", "fixed"), [100, 1, 100], deck("2c 3c 4c 2d 3d 4d Kd 5h 9s"))
    assert first.stacks[1] == 0 and first.to_act == 2
    # Later round: p2 called all-in; next round p2 shows a pair of aces, p1 K-6, p0 7-5:
    # the action passes to the player on p2's immediate left, p0 (not to p1's higher cards).
    top = "2c 3c 4c 2d 3d 4d 5h 6h As" + " Qh 7c Kc Ad"
    later = Hand(au("stud7", "fixed"), [100, 100, 11], deck(top))
    finish_round(later)
    assert later.stacks[2] == 0 and later.street == 1
    assert later.up == [cards("5h 7c"), cards("6h Kc"), cards("As Ad")]
    assert later.opener == 2 and later.to_act == 0


# --- au 14 to 17: two and three card manila, hold'em, omaha ------------------------------------

# game: (deck, hole cards each, community cards dealt with them, community cards per later round)
COMMUNITY = {
    "manila2": (DeckKind.SHORT_32, 2, 1, (1, 1, 1, 1)),
    "manila3": (DeckKind.SHORT_36, 3, 1, (1, 1, 1, 1)),
    "holdem": (DeckKind.STANDARD, 2, 0, (3, 1, 1)),
    "omaha": (DeckKind.STANDARD, 4, 0, (3, 1, 1)),
}


def _community_rounds(game: str) -> Hand:
    """Four players, an unshuffled deck: every card's place is known. Checks the deal, the
    first round (left of the last blind: call, raise or fold; a fold passes the option on),
    each later round (burn, then the community cards; the first active player left of the
    button opens, checks or folds) and the showdown's first hand (the called player's)."""
    kind, hole, first_board, later = COMMUNITY[game]
    order = DeckKind.STANDARD.cards if kind is DeckKind.STANDARD else kind.cards
    hand = Hand(au(game, deck=kind.size), [1000] * 4, Deck.ordered(kind))
    assert hand.hole == [[order[p + 4 * i] for i in range(hole)] for p in range(4)]
    at = 4 * hole
    expected = [("board", tuple(order[at : at + first_board]))] if first_board else []
    at += first_board
    assert dealing(hand) == expected  # the first community card comes with no burn
    legal = hand.legal()  # first round: left of the last blind
    assert legal.player == 2 and legal.call == 10 and not legal.can_check
    assert legal.can_fold and legal.raise_range == (20, 1000)
    hand.fold()
    assert hand.to_act == 3  # the option passes clockwise
    hand.check_or_call()
    hand.check_or_call()
    assert hand.to_act == 1 and hand.legal().can_check
    hand.check_or_call()  # settled with three players: play continues
    for street, count in enumerate(later, start=1):
        assert hand.street == street
        expected += [("burn", (order[at],)), ("board", tuple(order[at + 1 : at + 1 + count]))]
        at += 1 + count
        assert dealing(hand) == expected  # a burn before each round's community cards
        legal = hand.legal()
        assert legal.can_check and legal.can_fold and legal.raise_range is not None
        if street == 1:
            assert legal.player == 0  # first active player left of the button
            hand.check_or_call()
            hand.bet_or_raise_to(20)
            assert hand.to_act == 3
            hand.bet_or_raise_to(60)
            assert hand.to_act == 0
            hand.fold()
            hand.check_or_call()
        elif street < len(later):
            assert legal.player == 1  # p0 folded: p1 is the first active player
            hand.check_or_call()
            hand.check_or_call()
        else:
            assert legal.player == 1
            hand.bet_or_raise_to(20)
            hand.check_or_call()  # two remain at the end: showdown
    assert hand.phase is Phase.OVER and len(hand.board) == 5
    assert showdown(hand)[0] == ("show", 1)  # p1 was called: p1 shows first
    return hand


def _later_round_fold_out(game: str, street: int) -> None:
    """Everyone checks to ``street``; p0 bets and the others fold: p0 wins, showing nothing."""
    kind = COMMUNITY[game][0]
    hand = Hand(au(game, deck=kind.size), [1000] * 3)
    while hand.street < street:
        act_passively(hand)
    assert hand.to_act == 0
    hand.bet_or_raise_to(10)
    hand.fold()
    hand.fold()
    assert hand.phase is Phase.OVER and hand.street == street and showdown(hand) == []
    assert hand.stacks == [1020, 990, 990]


def _first_round_fold_out(game: str) -> None:
    """p2 raises before any community card beyond the first and the blinds fold: p2 wins."""
    kind = COMMUNITY[game][0]
    hand = Hand(au(game, deck=kind.size), [1000] * 3)
    hand.bet_or_raise_to(30)
    hand.fold()
    hand.fold()
    assert hand.phase is Phase.OVER and hand.street == 0 and showdown(hand) == []
    assert hand.stacks == [995, 990, 1015]
    assert len(hand.board) == COMMUNITY[game][2]  # nothing more is dealt


def _heads_up_showdown(game: str, holes: list[str], board: str, burns: str) -> Hand:
    """p0 (small blind) and p1 call and check to the last round, where p0 bets 20 and p1
    calls: 60 in the pot."""
    kind, _hole, first_board, later = COMMUNITY[game]
    shared, burned = board.split(), burns.split()
    top = one_at_a_time(holes).split() + shared[:first_board]
    at = first_board
    for count, burn in zip(later, burned, strict=True):
        top += [burn, *shared[at : at + count]]
        at += count
    hand = Hand(au(game, deck=kind.size), [1000, 1000], deck(" ".join(top), kind))
    while hand.street < len(later):
        act_passively(hand)
    assert hand.to_act == 0 and hand.board == cards(board)
    hand.bet_or_raise_to(20)
    hand.check_or_call()
    assert hand.phase is Phase.OVER
    return hand


def _manila2_showdown() -> Hand:
    # The board is a straight, but two card manila plays both hole cards with three from the
    # board: p0's 8-7 make only ace high, p1's two nines a pair.
    return _heads_up_showdown("manila2", ["7c 8d", "9c 9d"], "As Kd Qc Jh Ts", "7h 7s 8h 8s")


def _manila3_showdown() -> Hand:
    # Two of three hole cards with three from the board: p0's 8-7 (of 6-7-8) make ace high,
    # never the board's straight; p1's two nines a pair.
    return _heads_up_showdown("manila3", ["6c 7d 8h", "9c 9d 6h"], "As Kd Qc Jh Ts", "7h 7s 8c 8s")


def _holdem_showdown() -> Hand:
    # Any five of hole and board: p0's J-T with A-K-Q is a straight; p1 a pair of aces.
    return _heads_up_showdown("holdem", ["Jd Tc", "Ah 3c"], "As Kd Qc 7h 2s", "4c 4d 4h")


def _omaha_showdown() -> Hand:
    # Four spades on the board. p0 holds one spade: no flush in omaha, two aces at best;
    # p1's two spades make the flush.
    return _heads_up_showdown("omaha", ["Ac Qs Jd Td", "7s 6s 3h 3d"], "As 9s 5s 2s Kd", "4c 4d 4h")


def test_au_14_two_card_manila_deal_rounds_burns_and_openers() -> None:
    _community_rounds("manila2")


def test_au_14_2_c_i_last_remaining_player_wins_the_first_round() -> None:
    _first_round_fold_out("manila2")


def test_au_14_3_c_i_last_remaining_player_wins_a_later_round() -> None:
    _later_round_fold_out("manila2", 1)
    _later_round_fold_out("manila2", 4)


def test_au_14_4_d_two_card_manila_called_player_shows_both_hole_cards_used() -> None:
    hand = _manila2_showdown()
    assert showdown(hand) == [("show", 0), ("show", 1)]
    assert collected(hand) == {1: 60}


def test_au_14_4_f_two_card_manila_no_split_by_agreement() -> None:
    no_split_by_agreement(_manila2_showdown(), {1: 60})


def test_au_15_three_card_manila_deal_rounds_burns_and_openers() -> None:
    _community_rounds("manila3")


def test_au_15_2_c_i_last_remaining_player_wins_the_first_round() -> None:
    _first_round_fold_out("manila3")


def test_au_15_3_c_i_last_remaining_player_wins_a_later_round() -> None:
    _later_round_fold_out("manila3", 1)
    _later_round_fold_out("manila3", 4)


def test_au_15_4_d_three_card_manila_two_of_three_hole_cards_with_three_board() -> None:
    hand = _manila3_showdown()
    assert showdown(hand) == [("show", 0), ("show", 1)]
    assert collected(hand) == {1: 60}


def test_au_15_4_f_three_card_manila_no_split_by_agreement() -> None:
    no_split_by_agreement(_manila3_showdown(), {1: 60})


def test_au_16_3_a_burn_before_the_flop_the_turn_and_the_river() -> None:
    hand = _community_rounds("holdem")
    order = DeckKind.STANDARD.cards  # 8 hole cards, then burn, flop, burn, turn, burn, river
    assert hand.burned == [order[8], order[12], order[14]]
    assert hand.board == [*order[9:12], order[13], order[15]]


def test_au_16_5_c_i_last_remaining_player_wins_a_later_round() -> None:
    _later_round_fold_out("holdem", 1)
    _later_round_fold_out("holdem", 3)


def test_au_16_5_d_called_player_shows_first_a_worse_hand_is_mucked() -> None:
    hand = _holdem_showdown()
    assert showdown(hand) == [("show", 0), ("muck", 1)]
    assert collected(hand) == {0: 60}


def test_au_16_5_f_holdem_no_split_by_agreement() -> None:
    no_split_by_agreement(_holdem_showdown(), {0: 60})


def test_au_17_omaha_deal_rounds_burns_and_openers() -> None:
    _community_rounds("omaha")


def test_au_17_2_c_i_last_remaining_player_wins_the_first_round() -> None:
    _first_round_fold_out("omaha")


def test_au_17_5_c_i_last_remaining_player_wins_a_later_round() -> None:
    _later_round_fold_out("omaha", 1)
    _later_round_fold_out("omaha", 3)


def test_au_17_5_d_omaha_exactly_two_hole_cards_and_three_board() -> None:
    hand = _omaha_showdown()
    assert showdown(hand) == [("show", 0), ("show", 1)]
    assert collected(hand) == {1: 60}


def test_au_17_5_f_omaha_no_split_by_agreement() -> None:
    no_split_by_agreement(_omaha_showdown(), {1: 60})


def test_au_16_5_d_every_hand_at_least_the_called_hand_is_exposed() -> None:
    # River: p0 (jack high) bets, p1 (aces) and p2 (kings) call. p0 shows first, then p1's
    # aces; p2's kings beat the called hand, so they are exposed too.
    top = one_at_a_time(["3c 4d", "Ah Ad", "Kh Kd"]) + " 2c 7s 8s Jc 2d 9d 2h 5h"
    hand = Hand(au("holdem"), [1000] * 3, deck(top))
    while hand.street < 3:
        act_passively(hand)
    hand.bet_or_raise_to(10)
    hand.check_or_call()
    hand.check_or_call()
    assert showdown(hand) == [("show", 0), ("show", 1), ("show", 2)]
