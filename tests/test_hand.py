"""The hand engine, clause by clause, with the books' own examples where they give one."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, MinRaise, ShortAllIn, Structure
from croupier.cards import DeckKind
from croupier.games import GameError, game
from croupier.hand import Hand, Rules
from croupier.pots import Commission, CommissionKind
from scripted import board_deck


def rules(
    structure: Structure = Structure.NO_LIMIT,
    blinds: tuple[int, ...] = (1, 2),
    small_bet: int = 2,
    **betting: object,
) -> Rules:
    return Rules(
        game=game("holdem"),
        betting=Betting(structures=(structure,), small_bet=small_bet, **betting),  # type: ignore[arg-type]
        blinds=blinds,
    )


def test_rws_3_7_heads_up_button_posts_small_blind_and_acts_first() -> None:
    hand = Hand(rules(), [100, 100])
    posts = [e for e in hand.events if isinstance(e, ev.PostBlind)]
    assert [(p.player, p.amount) for p in posts] == [(1, 1), (0, 2)]  # player 1 is the button
    assert hand.to_act == 1  # rws 3.8.1(a): the button acts first before the flop
    hand.check_or_call()
    hand.check_or_call()  # big blind checks its option
    assert hand.street == 1 and hand.to_act == 0  # after the flop, left of the button first


def test_rws_3_3_minimum_raise_is_the_big_blind_then_the_previous_raise() -> None:
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [1000, 1000, 1000])
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 10
    assert legal.raise_range == (20, 1000)
    with pytest.raises(IllegalAction, match=r"below the minimum 20: .*rws 3\.3\); legal") as no:
        hand.bet_or_raise_to(15)
    assert "))" not in str(no.value)  # the rule's own clause, not wrapped in another pair
    hand.bet_or_raise_to(50)  # a raise of 40
    assert hand.legal().raise_range == (90, 1000)  # at least another 40


def test_rws_3_3_a_bet_too_small_is_refused_as_a_bet_and_a_raise_as_a_raise() -> None:
    """The refusal names the move the player made: an opening bet after the flop is "a bet",
    a bigger wager facing one is "raise to"."""
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [1000, 1000, 1000])
    while hand.street == 0:
        hand.check_or_call()
    with pytest.raises(
        IllegalAction, match=r"^a bet of 4 is below the minimum 10: .*rws 3\.3\); legal"
    ):
        hand.bet_or_raise_to(4)
    hand.bet_or_raise_to(10)
    with pytest.raises(IllegalAction, match=r"^raise to 12 is below the minimum 20"):
        hand.bet_or_raise_to(12)


def test_rws_3_3_after_an_all_in_bet_short_of_the_big_blind_a_raise_is_still_a_big_blind() -> None:
    # Flop, blinds 5/10: p0 checks, p1 bets its last 4 (short of the minimum 10). p2 may raise
    # to 4 + 10 = 14 at least; that raise is 10, so p0's re-raise goes to at least 24.
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [1000, 14, 1000])
    while hand.street == 0:
        hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(4)
    assert hand.legal().raise_range == (14, 990)
    with pytest.raises(IllegalAction, match="below the minimum 14"):
        hand.bet_or_raise_to(4)  # raising to the bet already made is no raise
    hand.bet_or_raise_to(14)
    assert hand.legal().player == 0 and hand.legal().raise_range == (24, 990)


def test_rws_3_8_1_b_big_blind_has_the_option_when_nobody_raised() -> None:
    hand = Hand(rules(), [100, 100, 100])
    hand.check_or_call()  # player 2 calls
    hand.check_or_call()  # small blind completes
    legal = hand.legal()
    assert legal.player == 1 and legal.can_check and legal.raise_range == (4, 100)


def test_qld_s28_5_full_pot_example_call_to_250_raises_up_to_250() -> None:
    # Pot 150 after the first round; player 0 bets 50 (pot 200); player 1's call would bring
    # it to 250, so the raise may be up to 250: to 300 in all.
    hand = Hand(rules(Structure.POT, blinds=(25, 50), small_bet=50), [1000, 1000, 1000])
    hand.check_or_call()
    hand.check_or_call()
    hand.check_or_call()
    assert hand.pot == 150 and hand.street == 1
    hand.bet_or_raise_to(50)
    assert hand.legal().raise_range == (100, 300)
    with pytest.raises(IllegalAction, match=r"qld s28\(5\)"):
        hand.bet_or_raise_to(301)


def test_qld_s28_6_half_pot_example_call_to_240_raises_up_to_120() -> None:
    hand = Hand(rules(Structure.HALF_POT, blinds=(20, 40), small_bet=40), [1000] * 4)
    for _ in range(4):
        hand.check_or_call()
    assert hand.pot == 160 and hand.street == 1
    hand.bet_or_raise_to(40)  # pot 200; the next call brings it to 240
    assert hand.legal().raise_range == (80, 160)  # raise at most 120 on top of the 40


def test_qld_s28_4_minimum_raise_is_the_raisers_own_call() -> None:
    betting = dict(min_raise=MinRaise.QLD)
    hand = Hand(rules(Structure.NO_LIMIT, blinds=(5, 10), small_bet=10, **betting), [1000] * 4)
    hand.check_or_call()  # player 2 calls 10
    hand.bet_or_raise_to(40)  # player 3 calls 10 and raises 30
    # Player 0 (small blind) must call 35: s28(4)(c) makes that the smallest raise.
    assert hand.legal().call == 35
    assert hand.legal().raise_range == (75, 1000)


def test_qld_s28_8_structured_bets_small_then_big() -> None:
    hand = Hand(
        rules(Structure.FIXED, blinds=(5, 10), small_bet=10, big_bet=20), [1000, 1000, 1000]
    )
    assert hand.legal().raise_range == (20, 20)
    for _ in range(3):
        hand.check_or_call()
    assert hand.legal().raise_range == (10, 10)  # flop: the small bet
    for _ in range(3):
        hand.check_or_call()
    assert hand.street == 2 and hand.legal().raise_range == (20, 20)  # turn: the big bet


def test_au_11_5_g_three_raises_then_capped_unless_heads_up() -> None:
    hand = Hand(rules(Structure.FIXED, blinds=(5, 10), small_bet=10, raise_cap=3), [1000] * 3)
    hand.bet_or_raise_to(20)  # raise 1 (the big blind was the bet)
    hand.bet_or_raise_to(30)  # raise 2
    hand.bet_or_raise_to(40)  # raise 3
    legal = hand.legal()
    assert legal.player == 2 and legal.raise_range is None
    with pytest.raises(IllegalAction, match=r"capped .*au 11\.5\(g\)"):
        hand.bet_or_raise_to(50)
    heads_up = Hand(rules(Structure.FIXED, blinds=(5, 10), small_bet=10, raise_cap=3), [1000] * 2)
    for to in (20, 30, 40, 50, 60):
        heads_up.bet_or_raise_to(to)
    assert heads_up.legal().raise_range == (70, 70)


def test_rws_3_14_3_all_in_under_half_a_raise_does_not_reopen() -> None:
    # Player 2 raises to 20; player 0 is all-in for 24 (4 more, under half of a 10 raise);
    # player 2, who already acted, may only call the 4 or fold.
    settings = dict(short_all_in=ShortAllIn.HALF_REOPENS)
    hand = Hand(rules(blinds=(5, 10), small_bet=10, **settings), [24, 1000, 1000])
    hand.bet_or_raise_to(20)
    hand.bet_or_raise_to(24)  # all-in
    hand.check_or_call()  # big blind calls 24
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 4 and legal.raise_range is None


def test_rws_3_14_3_all_in_of_half_a_raise_or_more_reopens() -> None:
    settings = dict(short_all_in=ShortAllIn.HALF_REOPENS)
    hand = Hand(rules(blinds=(5, 10), small_bet=10, **settings), [25, 1000, 1000])
    hand.bet_or_raise_to(20)
    hand.bet_or_raise_to(25)  # 5 more: half of the 10 raise
    hand.check_or_call()
    legal = hand.legal()
    assert legal.player == 2 and legal.raise_range is not None


def test_full_raise_rule_short_all_in_never_reopens() -> None:
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [29, 1000, 1000])
    hand.bet_or_raise_to(20)
    hand.bet_or_raise_to(29)  # 9 more: less than the 10 raise
    hand.check_or_call()
    assert hand.legal().raise_range is None


def test_qld_s29_6_example_all_in_player_wins_the_pot_formed_before() -> None:
    # A (player 0) is all-in in the first round; B and C play on; A > B > C at the showdown.
    holes = ["Ah Ad", "Kh Kd", "Qh Qd"]
    deck = board_deck(holes, "2c 7s 9d 3h 4s")
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [50, 500, 500], deck)
    hand.check_or_call()  # C calls 10
    hand.bet_or_raise_to(50)  # A all-in for 50
    hand.check_or_call()  # B calls
    hand.check_or_call()  # C calls
    hand.bet_or_raise_to(100)  # flop: B bets 100
    hand.check_or_call()  # C calls
    while hand.to_act is not None:
        hand.check_or_call()
    assert hand.stacks == [150, 550, 350]
    assert sum(hand.stacks) == 1050


def test_uncalled_bet_is_returned_and_the_bettor_wins_uncontested() -> None:
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [100, 100, 100])
    hand.bet_or_raise_to(60)
    hand.fold()
    hand.fold()
    returned = [e for e in hand.events if isinstance(e, ev.ReturnUncalled)]
    assert returned == [ev.ReturnUncalled(2, 50)]
    assert hand.stacks == [95, 90, 115]


def test_au_5_1_d_twelfth_player_at_two_card_manila_is_an_error() -> None:
    manila = Rules(
        game=game("manila2"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
        deck=DeckKind.SHORT_32,
        blinds=(1, 2),
    )
    Hand(manila, [100] * 11)
    with pytest.raises(GameError, match=r"2 to 11 players \(au 5\.1\)"):
        Hand(manila, [100] * 12)


def test_illegal_actions_change_nothing() -> None:
    hand = Hand(rules(), [100, 100, 100])
    before = (list(hand.stacks), list(hand.bets), len(hand.events), hand.to_act)
    for bad in (lambda: hand.bet_or_raise_to(3), lambda: hand.bet_or_raise_to(101)):
        with pytest.raises(IllegalAction):
            bad()
    assert (list(hand.stacks), list(hand.bets), len(hand.events), hand.to_act) == before


def test_cardroom_betting_5_a_capped_round_stays_capped_when_heads_up() -> None:
    hand = Hand(rules(Structure.FIXED, blinds=(5, 10), small_bet=10, raise_cap=3), [1000] * 3)
    for to in (20, 30, 40):  # the big blind's bet and three raises: capped
        hand.bet_or_raise_to(to)
    assert hand.legal().raise_range is None
    hand.fold()  # heads-up now, but the round stays capped
    assert hand.to_act == 0 and hand.legal().raise_range is None


def test_cardroom_betting_5_heads_up_before_the_cap_raises_without_limit() -> None:
    hand = Hand(rules(Structure.FIXED, blinds=(5, 10), small_bet=10, raise_cap=3), [1000] * 3)
    hand.fold()
    for to in (20, 30, 40, 50, 60, 70):
        hand.bet_or_raise_to(to)
    assert hand.legal().raise_range == (80, 80)


def test_cardroom_betting_4_cap_counts_only_players_not_all_in() -> None:
    # Player 2 is all-in on the blinds' round; the other two raise on without a cap.
    hand = Hand(rules(Structure.FIXED, blinds=(5, 10), small_bet=10, raise_cap=3), [1000, 1000, 8])
    hand.check_or_call()  # player 2 calls all-in for 8
    for to in (20, 30, 40, 50):
        hand.bet_or_raise_to(to)
    assert hand.legal().raise_range is not None


def test_cardroom_betting_7_half_bet_all_in_is_a_full_bet_example() -> None:
    # On a $20 round a $15 all-in counts as a full bet: the next player may raise it to $35.
    settings = dict(short_all_in=ShortAllIn.HALF_REOPENS)
    table = rules(Structure.FIXED, blinds=(10, 20), small_bet=20, big_bet=20, **settings)
    short = Hand(table, [1000, 1000, 35])
    short.check_or_call()  # player 2 calls 20 (15 behind)
    short.check_or_call()  # the small blind completes
    short.check_or_call()  # the big blind checks
    short.check_or_call()  # flop: player 0 checks
    short.check_or_call()  # player 1 checks
    short.bet_or_raise_to(15)  # player 2 bets all-in 15: half a bet or more
    assert short.legal().player == 0 and short.legal().raise_range == (35, 35)


def test_league_first_raise_at_least_double_the_big_blind_reraise_double_again() -> None:
    hand = Hand(rules(blinds=(50, 100), small_bet=100, min_raise=MinRaise.DOUBLE), [10_000] * 4)
    assert hand.legal().raise_range == (200, 10_000)
    hand.bet_or_raise_to(300)
    assert hand.legal().raise_range == (600, 10_000)  # double the preceding raise of 300
    for _ in range(4):  # player 3 re-raises to 600 and everybody calls
        legal = hand.legal()
        if legal.raise_range and legal.raise_range[0] == 600:
            hand.bet_or_raise_to(600)
        else:
            hand.check_or_call()
    assert hand.street == 1
    assert hand.legal().raise_range == (100, 10_000 - 600)  # post-flop: at least the big blind


def test_league_all_in_blind_does_not_change_the_limits() -> None:
    # The big blind is all-in for 30 of a 100 blind: the others still call 100.
    hand = Hand(rules(blinds=(50, 100), small_bet=100), [1000, 30, 1000])
    legal = hand.legal()
    assert legal.player == 2 and legal.call == 100 and legal.raise_range == (200, 1000)


def test_qld_s24_4_opening_bet_and_its_raise_equal_the_second_blind() -> None:
    table = rules(Structure.POT, blinds=(5, 10), small_bet=10, opening_raise_is_blind=True)
    hand = Hand(table, [1000] * 4)
    assert hand.legal().raise_range == (20, 20)  # open (10) and raise one blind (10)
    hand.fold()
    assert hand.legal().raise_range == (20, 20)  # still nobody has opened
    hand.check_or_call()  # player 3 opens
    # Now the usual s28 limits: the pot is 25, the small blind's call makes it 30, so the
    # raise may be up to 30 on top of the 10 (s28(5)).
    assert hand.legal().raise_range == (20, 40)


def test_qld_s25_2_c_a_player_who_could_check_may_fold() -> None:
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [100, 100, 100])
    for _ in range(3):
        hand.check_or_call()
    legal = hand.legal()
    assert legal.can_check and legal.can_fold  # rws 3.9.1(a), au 14.3(b) list it too
    hand.fold()
    assert hand.folded[0]


def test_qld_s24_10_first_round_ends_when_bets_are_equal_no_big_blind_option() -> None:
    hand = Hand(rules(blinds=(5, 10), small_bet=10, big_blind_option=False), [100] * 3)
    hand.check_or_call()  # player 2 opens (calls the second blind)
    hand.check_or_call()  # the first blind completes: all equal, nobody raised
    assert hand.street == 1 and hand.to_act == 0


def test_qld_s24_10_a_raise_still_brings_the_big_blind_back() -> None:
    hand = Hand(rules(blinds=(5, 10), small_bet=10, big_blind_option=False), [100] * 3)
    hand.bet_or_raise_to(20)
    hand.check_or_call()
    assert hand.to_act == 1 and hand.legal().call == 10


def test_cardroom_showdown_7_side_pots_are_settled_before_the_main_pot() -> None:
    holes = ["Ah Ad", "Kh Kd", "Qh Qd"]
    deck = board_deck(holes, "2c 7s 9d 3h 4s")
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [50, 500, 500], deck)
    hand.check_or_call()
    hand.bet_or_raise_to(50)
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    while hand.to_act is not None:
        hand.check_or_call()
    pots = [e.pot for e in hand.events if isinstance(e, ev.Collect)]
    assert pots == [1, 0]


def test_no_raise_when_nobody_else_could_put_in_more_than_the_bet() -> None:
    # Player 0 (15 behind after the blind) calls all-in to 20; player 1 has only 20 in all:
    # the last player with chips may call but a raise could never be called.
    hand = Hand(rules(blinds=(5, 10), small_bet=10), [20, 20, 1000])
    hand.bet_or_raise_to(20)  # player 2 raises to 20
    hand.check_or_call()  # player 0 calls all-in
    legal = hand.legal()  # player 1 can only call its last 10 (all-in) or fold
    assert legal.player == 1 and legal.call == 10 and legal.raise_range is None


def test_qld_s28_3_a_raise_held_to_the_maximum_is_a_full_raise() -> None:
    # Table maximum 20 (s25(4)) with the qld minimum raise: facing a call-and-raise of 30 the
    # minimum raise (30) is above the maximum (20), so the raise is 20 (s28(3)) and it is a
    # full raise: the players who acted before may raise again.
    table = rules(Structure.NO_LIMIT, blinds=(5, 10), small_bet=10, max_wager=20,
                  min_raise=MinRaise.QLD)  # fmt: skip
    hand = Hand(table, [1000] * 3)
    for _ in range(3):
        hand.check_or_call()
    hand.bet_or_raise_to(10)  # p0 opens the flop
    hand.bet_or_raise_to(20)  # p1 raises by the opening bet
    hand.bet_or_raise_to(40)  # p2 calls 20 and raises 20: the maximum
    assert hand.legal().raise_range == (60, 60)  # p0's minimum (30) is held to 20
    hand.bet_or_raise_to(60)
    assert hand.legal().raise_range is not None  # p1 may raise again: it was a full raise


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Betting(structures=(), small_bet=2), "a structure per round"),
        (lambda: Betting(structures=(Structure.NO_LIMIT,), small_bet=0), "minimum bet"),
        (lambda: Betting(structures=(Structure.FIXED,), small_bet=2, raise_cap=-1), "raise cap"),
        (lambda: Betting(structures=(Structure.SPREAD,), small_bet=10, max_wager=5), "maximum"),
        (lambda: rules(blinds=(-1, 2)), "a blind must be a whole number"),
        (lambda: Rules(game=game("holdem"), betting=rules().betting, ante=-5), "the ante"),
        (lambda: Rules(game=game("holdem"), betting=rules().betting, chip_unit=0), "chip_unit"),
        (
            lambda: Rules(
                game=game("holdem"),
                betting=Betting(structures=(Structure.NO_LIMIT,) * 9, small_bet=2),
            ),
            "4 betting rounds",
        ),
        (
            lambda: Rules(game=game("stud7"), betting=rules().betting, bring_in=5),
            r"cardroom betting 16",
        ),
    ],
)
def test_rules_that_cannot_be_played_are_clear_errors(build: object, message: str) -> None:
    from croupier.betting import RulesError

    with pytest.raises(RulesError, match=message):
        build()  # type: ignore[operator]


def test_stacks_must_be_whole_chips_and_a_blind_game_may_run_without_blinds() -> None:
    with pytest.raises(IllegalAction, match="whole numbers of chips"):
        Hand(rules(), [100.5, 100])  # type: ignore[list-item]
    hand = Hand(rules(blinds=()), [100, 100])
    legal = hand.legal()
    assert legal.player == 0 and legal.can_check  # nothing to call: it opens like a later round


def test_rules_events_and_settlements_pickle_for_worker_processes() -> None:
    """sim's workers (and later Ray) receive Rules and send back results by pickle; the frozen
    records must survive it whether or not the engine is compiled."""
    table_rules = Rules(
        game=game("holdem"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
        blinds=(1, 2),
        commission=Commission(CommissionKind.PERCENTAGE, rate=Fraction(5, 100), cap=3),
    )
    hand = Hand(table_rules, [50, 80, 120], board_deck(["AhKd", "7c7d", "2s9h"], "Ac7s4d2c3h"))
    hand.bet_or_raise_to(120)  # the button all in; the blinds call all in: a side pot
    while hand.settlement is None:
        hand.check_or_call()
    assert len(hand.settlement.pots) == 2 and hand.settlement.commission > 0
    for record in (table_rules, hand.events, hand.settlement):
        assert pickle.loads(pickle.dumps(record)) == record
