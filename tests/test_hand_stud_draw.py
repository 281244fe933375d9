"""Stud and draw, clause by clause (au 11, 12, 13 and the au 19 clauses they lean on)."""

from __future__ import annotations

import pytest

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, Structure
from croupier.cards import Card, DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.games import game
from croupier.hand import Hand, Phase, Rules
from scripted import act_passively
from scripted import deck as deck_from


def stud_rules(name: str = "stud5", deck: DeckKind = DeckKind.STANDARD, ante: int = 1) -> Rules:
    return Rules(
        game=game(name),
        betting=Betting(structures=(Structure.FIXED,), small_bet=10, big_bet=20),
        deck=deck,
        ante=ante,
    )


def test_au_12_1_b_antes_then_one_down_one_up() -> None:
    # Dealt one at a time: down cards to players 0, 1, 2, then up cards to 0, 1, 2.
    hand = Hand(stud_rules(), [100, 100, 100], deck_from("2c 3c 4c Kd 5h 9s"))
    assert [e.amount for e in hand.events if isinstance(e, ev.PostAnte)] == [1, 1, 1]
    assert hand.hole == [[Card("2c")], [Card("3c")], [Card("4c")]]
    assert hand.up == [[Card("Kd")], [Card("5h")], [Card("9s")]]


def test_au_12_2_a_lowest_up_card_must_open_for_at_least_the_minimum() -> None:
    hand = Hand(stud_rules(), [100, 100, 100], deck_from("2c 3c 4c Kd 5h 9s"))
    assert hand.to_act == 1  # the 5 of hearts is the lowest up card
    legal = hand.legal()
    assert not legal.can_check and not legal.can_fold and legal.raise_range == (10, 10)
    with pytest.raises(IllegalAction, match=r"au 12\.2\(a\)"):
        hand.check_or_call()
    with pytest.raises(IllegalAction, match=r"au 12\.2\(a\)"):
        hand.fold()


def test_au_13_2_a_equal_lowest_up_cards_split_by_suit_clubs_lowest() -> None:
    # Seven card stud: two down each, then one up: two fives, the club opens.
    cards = "2c 3c 4c 2d 3d 4d 5h 5c Kd"
    hand = Hand(stud_rules("stud7"), [100, 100, 100], deck_from(cards))
    assert hand.up == [[Card("5h")], [Card("5c")], [Card("Kd")]]
    assert hand.to_act == 1


def test_au_12_3_b_highest_hand_showing_opens_later_rounds() -> None:
    # Up cards after two rounds: p0 K-7, p1 5-5 (a pair beats king high), p2 A-2.
    cards = "2c 3c 4c Kd 5h As" + " Qh 7d 5d 2h"  # burn Qh, then 7d 5d 2h
    hand = Hand(stud_rules(), [100, 100, 100], deck_from(cards))
    hand.bet_or_raise_to(10)  # p1 (5h) opens
    hand.check_or_call()
    hand.check_or_call()
    assert hand.street == 1 and hand.to_act == 1
    assert hand.up[1] == [Card("5h"), Card("5d")]


def test_au_12_3_b_equal_hands_showing_split_by_the_highest_cards_suit() -> None:
    cards = "2c 3c 4c Kd 5h Ks" + " Qh 7d 8d 7h"  # p0 K-7 (Kd), p2 K-7 (Ks): spades wins
    hand = Hand(stud_rules(), [100, 100, 100], deck_from(cards))
    for _ in range(3):
        legal = hand.legal()
        if legal.raise_range and not legal.can_check and legal.call == 0:
            hand.bet_or_raise_to(10)
        else:
            hand.check_or_call()
    assert hand.street == 1 and hand.to_act == 2


def test_au_19_10_all_in_player_does_not_start_the_first_round() -> None:
    # p1 shows the lowest card but is all-in from the ante: the next lowest opens.
    hand = Hand(stud_rules(), [100, 1, 100], deck_from("2c 3c 4c Kd 5h 9s"))
    assert hand.stacks[1] == 0
    assert hand.to_act == 2


def test_au_12_4_a_community_card_when_the_deck_cannot_finish_the_deal() -> None:
    # Five card stud with 6 players on 32 cards: 30 dealt and 3 burns would need 33.
    rules = stud_rules(deck=DeckKind.SHORT_32, ante=0)
    hand = Hand(rules, [1000] * 6, Deck.shuffled(DeckKind.SHORT_32, SeededShuffler(3)))
    while hand.phase is not Phase.OVER:
        act_passively(hand)
    kinds = [type(e).__name__ for e in hand.events]
    assert "Reshuffle" in kinds or len(hand.board) == 1
    cards = [c for cs in hand.hole + hand.up for c in cs] + hand.board
    assert len(cards) == len(set(cards))
    assert sum(hand.stacks) == 6000


def draw_rules(blinds: tuple[int, ...] = (5, 10)) -> Rules:
    return Rules(
        game=game("draw"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=10),
        blinds=blinds,
        over_blind=True,
    )


def test_au_11_1_c_iv_over_blind_is_double_the_last_blind_and_acts_last() -> None:
    hand = Hand(draw_rules(), [100] * 4, over_blind=True)
    posts = [(e.player, e.amount) for e in hand.events if isinstance(e, ev.PostBlind)]
    assert posts == [(0, 5), (1, 10), (2, 20)]
    assert hand.to_act == 3 and hand.legal().call == 20


def test_au_11_1_c_iv_no_over_blind_where_the_table_does_not_offer_it() -> None:
    rules = Rules(
        game=game("holdem"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=10),
        blinds=(5, 10),
    )
    with pytest.raises(IllegalAction, match=r"au 11\.1\(c\)\(iv\)"):
        Hand(rules, [100] * 4, over_blind=True)


def test_au_11_3_a_draw_goes_clockwise_from_the_left_of_the_button() -> None:
    hand = Hand(draw_rules(), [100] * 3)
    for _ in range(3):
        hand.check_or_call()
    assert hand.drawing and hand.to_act == 0
    discard = hand.hole[0][:2]
    hand.draw(discard)
    assert hand.to_act == 1 and all(c not in hand.hole[0] for c in discard)
    assert len(hand.hole[0]) == 5
    with pytest.raises(IllegalAction, match=r"au 11\.3"):
        hand.legal()
    with pytest.raises(IllegalAction, match=r"au 11\.3\(a\)"):
        hand.draw(hand.hole[0][:1])  # p2 cannot throw p1's cards


def test_au_11_4_a_final_round_opened_left_of_the_last_blind() -> None:
    hand = Hand(draw_rules(), [100] * 4)
    for _ in range(4):
        hand.check_or_call()
    while hand.drawing:
        hand.draw()
    assert hand.street == 1 and hand.to_act == 2  # left of the big blind (player 1)


def test_au_11_3_b_only_earlier_discards_are_shuffled_when_the_stub_runs_out() -> None:
    # Five players on 32 cards: 25 dealt, 7 left. p0 throws 5 (2 left), p1 throws 5: the
    # stub is short, so p0's five discards are shuffled in, never p1's own.
    rules = Rules(
        game=game("draw"),
        deck=DeckKind.SHORT_32,
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=10),
        blinds=(5, 10),
    )
    hand = Hand(rules, [100] * 5, Deck.ordered(DeckKind.SHORT_32), shuffler=SeededShuffler(1))
    for _ in range(5):
        hand.check_or_call()
    first = list(hand.hole[0])
    hand.draw(first)
    second = list(hand.hole[1])
    hand.draw(second)
    assert any(isinstance(e, ev.Reshuffle) for e in hand.events)
    assert set(hand.hole[1]) <= set(first) | set(Deck.ordered(DeckKind.SHORT_32).cards[25:])
    assert not set(hand.hole[1]) & set(second)


def bring_in_rules() -> Rules:
    return Rules(
        game=game("stud7"),
        betting=Betting(structures=(Structure.FIXED,), small_bet=10, big_bet=20),
        ante=1,
        bring_in=3,
    )


def test_cardroom_betting_16_the_opener_may_bring_in_for_less_or_complete() -> None:
    cards = "2c 3c 4c 2d 3d 4d 5h 9c Kd"  # the 5 of hearts is the lowest up card
    hand = Hand(bring_in_rules(), [100, 100, 100], deck_from(cards))
    legal = hand.legal()
    assert legal.player == 0 and legal.bring_in == 3 and legal.raise_range == (10, 10)
    assert str(legal) == "bring in 3 · bet 10"
    hand.post_bring_in()
    assert hand.bets == [3, 0, 0]
    legal = hand.legal()  # the next player calls the 3 or completes to 10
    assert legal.player == 1 and legal.call == 3 and legal.raise_range == (10, 10)
    hand.bet_or_raise_to(10)  # the completion is the round's bet: the raises count from it
    assert hand.legal().raise_range == (20, 20)


def test_cardroom_betting_16_only_the_opener_brings_in() -> None:
    cards = "2c 3c 4c 2d 3d 4d 5h 9c Kd"
    hand = Hand(bring_in_rules(), [100, 100, 100], deck_from(cards))
    hand.post_bring_in()
    with pytest.raises(IllegalAction, match=r"cardroom betting 16"):
        hand.post_bring_in()
