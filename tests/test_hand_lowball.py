"""The games PHH names beyond the seed books: razz, deuce-to-seven single and triple draw,
badugi. Built from the engine's stud and draw parts; expected values are worked by hand."""

from __future__ import annotations

from croupier import events as ev
from croupier.betting import Betting, Structure
from croupier.cards import DeckKind, parse_cards
from croupier.deck import Deck, SeededShuffler
from croupier.games import game
from croupier.hand import Hand, Phase, Rules
from scripted import collected
from scripted import deck as deck_from

FIXED = Betting(structures=(Structure.FIXED,), small_bet=10, big_bet=20, big_bet_from=2)


def razz(**options: object) -> Rules:
    return Rules(game=game("razz"), betting=FIXED, ante=1, bring_in=3, **options)  # type: ignore[arg-type]


def draw_game(name: str) -> Rules:
    return Rules(game=game(name), betting=FIXED, blinds=(5, 10))


def test_razz_the_highest_up_card_brings_in_aces_low() -> None:
    # Up cards: p0 an ace (the lowest in razz), p1 a king, p2 a queen: the king brings it in.
    cards = "2c 3c 4c 2d 3d 4d Ah Kc Qs"
    hand = Hand(razz(), [100] * 3, deck_from(cards))
    legal = hand.legal()
    assert legal.player == 1 and legal.bring_in == 3 and not legal.can_fold


def test_razz_equal_high_up_cards_bring_in_by_suit_spades_highest() -> None:
    cards = "2c 3c 4c 2d 3d 4d Kh Kc Ks"
    assert Hand(razz(), [100] * 3, deck_from(cards)).to_act == 2


def test_razz_the_best_low_showing_opens_later_rounds_pairs_count_against() -> None:
    # Fourth street up cards: p0 A-A (a pair), p1 K-7, p2 8-6: eight-six is the best low.
    cards = "2c 3c 4c 2d 3d 4d Ah Kc 8s" + " 5h Ad 7d 6h"  # burn 5h, then Ad 7d 6h
    hand = Hand(razz(), [100] * 3, deck_from(cards))
    hand.post_bring_in()  # p1 (the king)
    hand.check_or_call()
    hand.check_or_call()
    assert hand.street == 1 and hand.to_act == 2


def test_razz_equal_lows_showing_open_by_position() -> None:
    cards = "2c 3c 4c 2d 3d 4d Ah Kc As" + " 5h 8d 7d 8h"  # p0 A-8, p2 A-8: p0 is first
    hand = Hand(razz(), [100] * 3, deck_from(cards))
    hand.post_bring_in()
    hand.check_or_call()
    hand.check_or_call()
    assert hand.to_act == 0


def test_razz_the_wheel_wins_and_there_is_no_qualifier() -> None:
    # p0 makes A-2-3-4-5; p1 makes J-T-9-8-2 at best: p0 wins, no low needs to qualify.
    holes = {0: "Ac 2c", 1: "Kc Qc"}
    cards = f"{holes[0][:2]} {holes[1][:2]} {holes[0][3:]} {holes[1][3:]} 3c Jd"
    cards += " 7h 4c Td 7s 5c 9d 7c 8h 8d 6h 6s"  # burn, 4th; burn, 5th; burn, 6th; burn, 7th
    hand = Hand(razz(), [100, 100], deck_from(cards))
    while hand.phase is not Phase.OVER:
        legal = hand.legal()
        if legal.bring_in:
            hand.post_bring_in()
        else:
            hand.check_or_call()
    assert set(hand.hole[0] + hand.up[0]) == set(parse_cards("Ac 2c 3c 4c 5c 8h 6s"))
    assert collected(hand) == {0: 2 + 6}
    assert hand.stacks == [100 + 4, 100 - 4]


def test_showing_ties_by_position_under_phh_rules() -> None:
    # Seven card stud, fourth street: p0 K-7 (Kd), p2 K-7 (Ks): by suit p2 opens (au 13.3(b)),
    # by position p0 does.
    cards = "2c 3c 4c 2d 3d 4d Kd 5h Ks" + " Qh 7d 8d 7h"
    for by_position, opener in ((False, 2), (True, 0)):
        rules = Rules(
            game=game("stud7"), betting=FIXED, ante=1, showing_ties_by_position=by_position
        )
        hand = Hand(rules, [100] * 3, deck_from(cards))
        hand.bet_or_raise_to(10)
        hand.check_or_call()
        hand.check_or_call()
        assert hand.street == 1 and hand.to_act == opener


def test_triple_draw_burns_before_each_draw_and_plays_four_rounds() -> None:
    hand = Hand(draw_game("triple-draw27"), [200] * 3, Deck.ordered(DeckKind.STANDARD))
    draws = 0
    while hand.phase is not Phase.OVER:
        if hand.drawing:
            burns_before = sum(isinstance(e, ev.Burn) for e in hand.events)
            assert burns_before == draws + 1  # the burn came before the first draw
            hand.draw(hand.hole[hand.to_act][:1])
            if not hand.drawing:
                draws += 1
        else:
            hand.check_or_call()
    assert draws == 3
    assert [e.index for e in hand.events if isinstance(e, ev.StreetStart)] == [0, 1, 2, 3]
    assert sum(hand.stacks) == 600


def test_deuce_to_seven_aces_are_high_and_straights_count() -> None:
    # p0 7-5-4-3-2 (the best 2-7 hand); p1 A-2-3-4-5 (ace high, no straight in 2-7: A-5-4-3-2
    # is ace high); p2 6-5-4-3-2 is a straight, the worst of the three.
    holes = ["7c 5d 4h 3s 2c", "Ah 2d 3h 4s 5c", "6c 5h 4d 3c 2h"]
    order = [holes[p].split()[i] for i in range(5) for p in range(3)]
    hand = Hand(draw_game("draw27"), [100] * 3, deck_from(" ".join(order)))
    while hand.phase is not Phase.OVER:
        hand.draw() if hand.drawing else hand.check_or_call()
    assert collected(hand) == {0: 30}


def test_badugi_four_suits_beat_three_and_the_lowest_badugi_wins() -> None:
    # p0 a four-card badugi A-2-3-4; p1 three cards only (3c and 4c share a suit); p2 the
    # badugi 5-4-3-2, worse than p0's.
    holes = ["Ac 2d 3h 4s", "As 2h 3c 4c", "2c 3d 4h 5s"]
    order = [holes[p].split()[i] for i in range(4) for p in range(3)]
    hand = Hand(draw_game("badugi"), [100] * 3, deck_from(" ".join(order)))
    while hand.phase is not Phase.OVER:
        hand.draw() if hand.drawing else hand.check_or_call()
    assert collected(hand) == {0: 30}


def test_a_draw_game_reshuffles_earlier_draws_discards_when_the_deck_runs_out() -> None:
    # Eight players at triple draw: 40 dealt, 12 left; everyone throws five cards every draw.
    hand = Hand(draw_game("triple-draw27"), [500] * 8, shuffler=SeededShuffler(3))
    seen_reshuffle = False
    while hand.phase is not Phase.OVER:
        if hand.drawing:
            hand.draw(list(hand.hole[hand.to_act]))
        else:
            hand.check_or_call()
        in_play = [c for p in range(8) for c in hand.hole[p]] + list(hand.deck.cards)
        assert len(in_play) == len(set(in_play))
        seen_reshuffle = seen_reshuffle or any(isinstance(e, ev.Reshuffle) for e in hand.events)
    assert seen_reshuffle and sum(hand.stacks) == 4000
