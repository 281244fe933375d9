"""cardroom and league clauses the engine already does, proved clause by clause with scripted
decks.

Each test is named after the clause it proves (docs/rules-coverage.toml lists it).
"""

from __future__ import annotations

from croupier import events as ev
from croupier.cards import Card
from croupier.deck import Deck
from croupier.hand import Hand, Phase, Rules
from croupier.rulebooks import load_rulebook
from scripted import act_passively, cards, collected, deck, last_action

CARDROOM = load_rulebook("cardroom")
LEAGUE = load_rulebook("league")


def cardroom(game: str = "holdem", structure: str = "fixed", **options: object) -> Rules:
    if game.startswith("stud"):
        options.setdefault("ante", 1)
    return CARDROOM.rules(game, structure, stakes=10, **options)  # blinds 5/10; 10 and 20 bets


def league() -> Rules:
    return LEAGUE.rules("holdem", stakes=(50, 100))


def one_at_a_time(holes: list[str]) -> str:
    cards = [h.split() for h in holes]
    return " ".join(cards[p][i] for i in range(len(cards[0])) for p in range(len(cards)))


def flop_game_deck(holes: list[str], board: str, burns: str = "2c 2d 2h") -> Deck:
    shared, burned = board.split(), burns.split()
    top = one_at_a_time(holes).split()
    top += [burned[0], *shared[:3], burned[1], shared[3], burned[2], shared[4]]
    return deck(" ".join(top))


def showdown(hand: Hand) -> list[tuple[str, int]]:
    return [
        ("show" if isinstance(e, ev.Show) else "muck", e.player)
        for e in hand.events
        if isinstance(e, ev.Show | ev.Muck)
    ]


def shown(hand: Hand) -> dict[int, tuple[Card, ...]]:
    return {e.player: e.cards for e in hand.events if isinstance(e, ev.Show)}


def to_street(hand: Hand, street: int) -> None:
    while hand.street < street and hand.to_act is not None:
        if hand.drawing:
            hand.draw()
        else:
            act_passively(hand)
    assert hand.street == street


# --- cardroom betting --------------------------------------------------------------------------


def test_cardroom_betting_1_chips_smaller_than_the_smallest_in_play_do_not_play() -> None:
    # The smallest chip in play is 5 (blinds 5/10): a raise to 23 cannot be made.
    hand = Hand(CARDROOM.rules("holdem", "no-limit", stakes=10, chip_unit=5), [1000] * 3)
    assert not hand.can_bet_or_raise_to(23)
    assert hand.can_bet_or_raise_to(25) and hand.legal().raise_range == (20, 1000)
    short = Hand(CARDROOM.rules("holdem", "no-limit", stakes=10, chip_unit=5), [1000, 1000, 23])
    assert short.can_bet_or_raise_to(23)  # all-in is the exception


def test_cardroom_betting_2_check_raise_is_permitted() -> None:
    for structure, bet, raise_to in (("fixed", 10, 20), ("no-limit", 20, 40)):
        hand = Hand(cardroom(structure=structure), [1000] * 3)
        to_street(hand, 1)
        hand.check_or_call()
        assert last_action(hand) == ev.Check(0)
        hand.bet_or_raise_to(bet)
        hand.check_or_call()
        legal = hand.legal()  # p0 checked, now raises the bet
        assert legal.player == 0 and legal.raise_range is not None
        assert legal.raise_range[0] == raise_to
        hand.bet_or_raise_to(raise_to)
        assert last_action(hand) == ev.Bet(0, raise_to, raise_to)


def test_cardroom_betting_7_limit_all_in_under_half_a_bet_does_not_reopen() -> None:
    # Flop, 10 a bet. Facing a 4 all-in (under half a bet) p1 may fold, call 4 or complete
    # to 10.
    facing = Hand(cardroom(), [14, 1000, 1000])
    to_street(facing, 1)
    facing.bet_or_raise_to(4)
    legal = facing.legal()
    assert legal.player == 1 and legal.can_fold and legal.call == 4
    assert legal.raise_range == (10, 10)
    # p0 bets 10, p1 raises all-in to 14 (under half a raise): p2 may call 14 or complete
    # the raise to 20; p0, who acted and is in for the full bet, may not raise again.
    acted = Hand(cardroom(), [1000, 24, 1000])
    to_street(acted, 1)
    acted.bet_or_raise_to(10)
    acted.bet_or_raise_to(14)
    legal = acted.legal()
    assert legal.player == 2 and legal.call == 14 and legal.raise_range == (20, 20)
    acted.check_or_call()
    legal = acted.legal()
    assert legal.player == 0 and legal.call == 4 and legal.raise_range is None


def test_cardroom_betting_7_half_a_bet_or_more_is_a_full_bet() -> None:
    # The book's example: on a 20 round (the turn), a 15 all-in is raised to 35.
    hand = Hand(cardroom(), [25, 1000, 1000])
    to_street(hand, 2)
    hand.bet_or_raise_to(15)
    legal = hand.legal()
    assert legal.player == 1 and legal.call == 15 and legal.raise_range == (35, 35)


# --- cardroom showdown -------------------------------------------------------------------------


def _omaha_showdown() -> Hand:
    # Pot limit omaha, heads-up, checked to the river; p1 bets 20, p0 calls. p1 wins with
    # two spades to the board's three (a flush), p0 holds one spade and two aces.
    rules = CARDROOM.rules("omaha", "pot", stakes=10)
    hand = Hand(
        rules, [1000, 1000], flop_game_deck(["Ac Qs Jd Td", "7s 6s 3h 3d"], "As 9s 5s 2s Kd")
    )
    to_street(hand, 3)
    hand.check_or_call()
    hand.bet_or_raise_to(20)
    hand.check_or_call()
    assert hand.phase is Phase.OVER
    return hand


def test_cardroom_showdown_1_to_win_a_player_shows_all_of_its_cards() -> None:
    omaha = _omaha_showdown()
    assert collected(omaha) == {1: 60}
    assert shown(omaha)[1] == tuple(cards("7s 6s 3h 3d"))  # the two unused threes too
    # Draw: the winner's five cards (three aces) are all shown.
    holes = ["Ah Ad As 7s 4d", "Kc Qd 8h 6s 3c", "Kh Kd Qs Qc 2h"]
    hand = Hand(cardroom("draw"), [1000] * 3, deck(one_at_a_time(holes)))
    to_street(hand, 1)
    while hand.drawing:
        hand.draw()  # all stand pat
    for _ in range(3):
        hand.check_or_call()
    assert hand.phase is Phase.OVER
    assert collected(hand) == {0: 30}
    assert shown(hand)[0] == tuple(cards(holes[0]))


def test_cardroom_showdown_8_first_to_act_shows_when_all_check_else_last_aggressor() -> None:
    holes, board = ["Ah Kd", "Qc Qd", "5s 6s"], "2s 7d Jh 4c Ks"
    checked = Hand(cardroom(), [1000] * 3, flop_game_deck(holes, board))
    to_street(checked, 3)
    for _ in range(3):
        checked.check_or_call()
    assert showdown(checked)[0] == ("show", 0)  # p0 acts first on the river
    bet = Hand(cardroom(), [1000] * 3, flop_game_deck(holes, board))
    to_street(bet, 3)
    bet.check_or_call()
    bet.bet_or_raise_to(20)  # p1 bets
    bet.bet_or_raise_to(40)  # p2 raises: the last aggressive action
    bet.check_or_call()
    bet.check_or_call()
    assert showdown(bet)[0] == ("show", 2)
    # Stud: nobody bets the last round: its first to act (the highest hand showing) shows
    # first. p0 shows K-7-4-2 against p1's 9-6-5-3.
    top = "Ah 9h Ad 9d Kc 9c" + " Th 7d 6c" + " Td 4s 5s" + " Jh 2c 3d" + " Jd 9s Qs"
    stud = Hand(cardroom("stud7"), [100, 100], deck(top))
    to_street(stud, 4)
    assert stud.to_act == 0
    stud.check_or_call()
    stud.check_or_call()
    assert showdown(stud)[0] == ("show", 0)


# --- league ------------------------------------------------------------------------------------

LEAGUE_HOLES = ["Ah Ad", "Kh Kd", "3c 4d"]  # aces, kings, jack high on the board below
LEAGUE_BOARD = "7s 8s Jc 9d 5h"


def test_league_16_a_hand_is_shown_only_when_called_or_claiming_the_pot() -> None:
    # River: p2 (jack high) bets, p1 folds, p0 calls with aces: p2 was called and shows;
    # p0 claims the pot and shows. A caller with the worse hand need not show.
    hand = Hand(league(), [10_000] * 3, flop_game_deck(LEAGUE_HOLES, LEAGUE_BOARD))
    to_street(hand, 3)
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    hand.fold()
    assert showdown(hand) == [("show", 2), ("show", 0)]
    worse = Hand(league(), [10_000] * 3, flop_game_deck(LEAGUE_HOLES, LEAGUE_BOARD))
    to_street(worse, 3)
    worse.bet_or_raise_to(100)  # p0 (aces) bets
    worse.fold()
    worse.check_or_call()  # p2 calls and loses: not made to show
    assert showdown(worse) == [("show", 0), ("muck", 2)]
    uncalled = Hand(league(), [10_000] * 3, flop_game_deck(LEAGUE_HOLES, LEAGUE_BOARD))
    uncalled.bet_or_raise_to(300)
    uncalled.fold()
    uncalled.fold()
    assert showdown(uncalled) == []  # nobody called: nothing is shown


def test_league_17_all_in_and_no_betting_left_every_hand_is_turned_up() -> None:
    # p2 moves all-in before the flop and p0 calls: the board is run out and both hands are
    # turned face up, the loser's too, although it cannot win.
    hand = Hand(league(), [10_000, 10_000, 10_000], flop_game_deck(LEAGUE_HOLES, LEAGUE_BOARD))
    hand.bet_or_raise_to(10_000)  # p2 (jack high)
    hand.check_or_call()  # p0 (aces) calls
    hand.fold()  # p1
    assert hand.phase is Phase.OVER and hand.ran_out
    assert showdown(hand) == [("show", 0), ("show", 2)]  # no bet left: first to act first
    assert collected(hand) == {0: 20_100}


def test_league_17_all_in_then_checked_down_every_hand_is_turned_up() -> None:
    # p0 (aces) is all-in from the small blind for 100; p1 and p2 check it down.
    hand = Hand(league(), [100, 10_000, 10_000], flop_game_deck(LEAGUE_HOLES, LEAGUE_BOARD))
    hand.check_or_call()  # p2 calls 100
    hand.check_or_call()  # p0 all-in for its last 50
    hand.check_or_call()  # p1 checks
    while hand.to_act is not None:
        hand.check_or_call()
    assert [kind for kind, _ in showdown(hand)] == ["show"] * 3


def test_league_28_to_win_a_contested_pot_both_hole_cards_are_tabled() -> None:
    hand = Hand(league(), [10_000] * 3, flop_game_deck(LEAGUE_HOLES, LEAGUE_BOARD))
    to_street(hand, 3)
    hand.check_or_call()
    hand.bet_or_raise_to(100)  # p1 (kings) bets, p2 and p0 call
    hand.check_or_call()
    hand.check_or_call()
    assert collected(hand) == {0: 600}
    assert shown(hand)[0] == tuple(cards("Ah Ad"))  # the winner's two hole cards
    assert all(len(shown(hand)[p]) == 2 for p in collected(hand))
