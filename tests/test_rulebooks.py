"""The rulebook profiles: each loads, builds playable rules for every game and structure it
allows, and refuses what its book forbids, naming the clause."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.betting import MinRaise, ShortAllIn, Structure
from croupier.cards import DeckKind
from croupier.cli import app
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand, Phase, ShowFirst
from croupier.pots import Basis, CardSet, CommissionKind, OddChipRule
from croupier.rulebooks import (
    SPECS,
    Rulebook,
    RulebookError,
    load_rulebook,
    rulebook_names,
)

NAMES = ("au-casino", "cardroom", "league", "qld", "rws")
# Each profile cites in one form per book (see croupier.rulebooks): a clause is a list of
# citations separated by "; ", each opening with a book's prefix.
CITATION = re.compile(r"^(au \d|rws \d|qld s\d|cardroom [a-z]|league [\d a-z])")
runner = CliRunner()


def book(name: str) -> Rulebook:
    return load_rulebook(name)


# --- every profile loads -------------------------------------------------------------------------


def test_the_five_rulebooks_ship_and_load_with_every_setting() -> None:
    assert rulebook_names() == NAMES
    for name in NAMES:
        profile = book(name)
        assert profile.name == name
        assert set(profile.settings) == set(SPECS)
        assert repr(profile) == f"load_rulebook({name!r})"


@pytest.mark.parametrize("name", NAMES)
def test_every_setting_cites_a_clause_and_silent_ones_say_why(name: str) -> None:
    profile = book(name)
    clauses = [profile.games_clause, *(g.clause for g in profile.games)]
    clauses += [g.decks_clause for g in profile.games] + [gap.clause for gap in profile.gaps]
    for cases in profile.settings.values():
        for case in cases:
            clauses.append(case.clause)
            if case.silent:
                assert case.note, f"{name} {case.name}: a silent setting says why"
    for clause in clauses:
        for citation in clause.split("; "):
            assert CITATION.match(citation), f"{name}: {citation!r} is not a citation"


# --- every allowed table plays -------------------------------------------------------------------


def _required(profile: Rulebook, game: str, structures: tuple[Structure, ...]) -> dict[str, object]:
    """The table options a table of this kind cannot do without."""
    options: dict[str, object] = {}
    if profile.value("ante_policy", game) == "required":
        options["ante"] = 2
    needs_max = Structure.SPREAD in structures or (
        Structure.FIXED in structures and profile.value("big_bet", game) == "max-wager"
    )
    if needs_max:
        options["max_wager"] = 40
    return options


def _tables() -> list[tuple[str, str, tuple[Structure, ...], int]]:
    tables: list[tuple[str, str, tuple[Structure, ...], int]] = []
    for name in NAMES:
        profile = book(name)
        for entry in profile.games:
            for kind in entry.deck_kinds:
                for structure in profile.structures(entry.game):
                    tables.append((name, entry.game, (structure,), kind.size))
    qld_combination = (Structure.STRADDLE, Structure.POT, Structure.POT, Structure.HALF_POT)
    tables.append(("qld", "holdem", qld_combination, 52))
    return tables


def _play(hand: Hand, rng: random.Random) -> None:
    """Random legal actions to the end of the hand."""
    while hand.phase is not Phase.OVER:
        if hand.drawing:
            assert hand.to_act is not None
            cards = hand.hole[hand.to_act]
            hand.draw(rng.sample(cards, rng.randint(0, len(cards))))
            continue
        legal = hand.legal()
        must_bet = not legal.can_check and legal.call == 0
        choice = rng.random()
        if legal.raise_range is not None and (choice < 0.35 or must_bet):
            low, high = legal.raise_range
            hand.bet_or_raise_to(rng.choice([low, high, rng.randint(low, high)]))
        elif legal.can_fold and choice > 0.85:
            hand.fold()
        else:
            hand.check_or_call()


@pytest.mark.parametrize(
    ("name", "game", "structures", "deck"),
    _tables(),
    ids=lambda v: "-".join(s.value for s in v) if isinstance(v, tuple) else str(v),
)
def test_every_allowed_game_structure_and_deck_plays_to_the_end_with_chips_conserved(
    name: str, game: str, structures: tuple[Structure, ...], deck: int
) -> None:
    profile = book(name)
    structure = structures[0] if len(structures) == 1 else structures
    commission = profile.setting("commission", game)
    rng = random.Random(f"{name}/{game}/{structures}/{deck}")
    for seed in range(4):
        options = _required(profile, game, structures)
        if seed % 2 and commission.house and "percentage" in (commission.allowed or ""):
            options["commission"] = "percentage"
        rules = profile.rules(game, structure, stakes=10, deck=deck, **options)
        assert rules.deck.size == deck
        assert set(rules.betting.structures) == set(structures)
        most = profile.game(game).max_players(rules.deck)
        assert most is not None
        players = rng.randint(2, min(most, 7))
        profile.check_players(game, players, deck)
        stacks = [rng.randint(1, 400) for _ in range(players)]
        hand = Hand(rules, stacks, Deck.shuffled(rules.deck, SeededShuffler(seed)))
        _play(hand, rng)
        assert hand.phase is Phase.OVER
        assert sum(hand.stacks) + hand.commission == sum(stacks)


# --- games and decks -----------------------------------------------------------------------------


def test_au_5_1_no_holdem_on_32_cards() -> None:
    with pytest.raises(RulebookError, match=re.escape("au 4.1(a), 5.1(a)(iv)")):
        book("au-casino").rules("holdem", stakes=10, deck=32)


def test_au_5_1_no_holdem_on_36_cards_although_the_engine_deals_it() -> None:
    with pytest.raises(RulebookError, match=r"32-card|36-card"):
        book("au-casino").rules("holdem", stakes=10, deck=36)


def test_au_5_1_d_iv_two_card_manila_is_a_32_card_game_for_eleven() -> None:
    au = book("au-casino")
    rules = au.rules("manila2", stakes=10)
    assert rules.deck is DeckKind.SHORT_32
    Hand(rules, [100] * 11)
    with pytest.raises(RulebookError, match=re.escape("au 4.1(d), 5.1(d)(iv)")):
        au.check_players("manila2", 12)
    with pytest.raises(RulebookError, match=re.escape("au 4.1(d), 5.1(d)(iv)")):
        au.rules("manila2", stakes=10, deck=52)


def test_au_5_1_seven_card_stud_seats_four_on_32_cards_and_the_hand_enforces_it() -> None:
    au = book("au-casino")
    rules = au.rules("stud7", "fixed", stakes=10, deck=32, ante=1)
    Hand(rules, [100] * 4)
    with pytest.raises(ValueError, match=re.escape("2 to 4 players")):
        Hand(rules, [100] * 5)


def test_qld_s1_s13_deals_only_holdem() -> None:
    with pytest.raises(RulebookError, match=re.escape("qld s1, s13")):
        book("qld").rules("omaha", stakes=10)


def test_rws_2_2_1_deals_holdem_with_52_cards_only() -> None:
    with pytest.raises(RulebookError, match=re.escape("rws 2.2.1")):
        book("rws").rules("holdem", stakes=10, deck=36)
    with pytest.raises(RulebookError, match=re.escape("rws 2.2.1, 3.5")):
        book("rws").rules("stud7", stakes=10)


# --- structures ----------------------------------------------------------------------------------


def test_rws_3_2_no_limit_only() -> None:
    rws = book("rws")
    assert rws.rules("holdem", stakes=10).betting.structures == (Structure.NO_LIMIT,)
    with pytest.raises(RulebookError, match=re.escape("(rws 3.2)")):
        rws.rules("holdem", "pot", stakes=10)


def test_qld_s28_1_no_no_limit_betting() -> None:
    with pytest.raises(RulebookError, match=re.escape("qld s28(1), s28(9)")):
        book("qld").rules("holdem", "no-limit", stakes=10)


def test_cardroom_betting_3_4_limit_pot_limit_and_no_limit_but_no_spread() -> None:
    with pytest.raises(RulebookError, match=re.escape("cardroom betting 3-4")):
        book("cardroom").rules("holdem", "spread", stakes=10)


def test_au_11_5_f_spread_limit_bets_up_to_a_posted_maximum() -> None:
    au = book("au-casino")
    with pytest.raises(RulebookError, match=r"spread limit.*max_wager"):
        au.rules("draw", "spread", stakes=10)
    rules = au.rules("draw", "spread", stakes=10, max_wager=50)
    assert rules.betting.max_wager == 50 and rules.betting.raise_cap == 3


def test_qld_s28_10_combination_betting_straddle_then_usual_then_pot() -> None:
    qld = book("qld")
    rounds = ("straddle", "half-pot", "half-pot", "pot")
    rules = qld.rules("holdem", rounds, stakes=10)
    assert rules.betting.structures == (
        Structure.STRADDLE, Structure.HALF_POT, Structure.HALF_POT, Structure.POT,
    )  # fmt: skip
    for bad in (("straddle", "pot", "half-pot", "pot"), ("pot", "pot", "pot", "straddle")):
        with pytest.raises(RulebookError, match=re.escape("qld s28(10)-(11)")):
            qld.rules("holdem", bad, stakes=10)
    with pytest.raises(RulebookError, match=re.escape("has 4 betting rounds")):
        qld.rules("holdem", ("pot",) * 5, stakes=10)


def test_qld_s28_11_b_structured_middle_rounds_keep_their_own_cap() -> None:
    from croupier.hand import Hand

    rules = book("qld").rules(
        "holdem", ("straddle", "fixed", "fixed", "pot"), stakes=10, max_wager=20
    )
    assert rules.betting.raise_caps == (None, 3, 3, None)
    hand = Hand(rules, [10_000] * 3)
    for _ in range(3):
        hand.check_or_call()  # the first round: open, complete, and the round ends
    assert hand.street == 1  # structured flop: bets of the minimum wager, a bet and 3 raises
    for to in (10, 20, 30, 40):
        hand.bet_or_raise_to(to)
    assert hand.legal().raise_range is None  # capped
    while hand.street < 3:
        hand.check_or_call()
    hand.bet_or_raise_to(10)  # the pot-limit river has no cap
    for _ in range(5):
        low = hand.legal().raise_range
        assert low is not None
        hand.bet_or_raise_to(low[0])


def test_au_11_5_g_three_raises_at_structured_limit_none_at_pot_ratio_or_no_limit() -> None:
    au = book("au-casino")
    for structure in ("fixed", "spread"):
        betting = au.rules("holdem", structure, stakes=10, max_wager=40).betting
        assert betting.raise_cap == 3 and betting.uncapped_heads_up
    for structure in ("pot", "half-pot", "no-limit"):
        assert au.rules("holdem", structure, stakes=10).betting.raise_cap is None


def test_cardroom_betting_4_a_bet_and_three_raises_4_b_four_in_draw_3_none_in_no_limit() -> None:
    cardroom = book("cardroom")
    assert cardroom.rules("holdem", "fixed", stakes=10).betting.raise_cap == 3
    assert cardroom.rules("draw", "fixed", stakes=10).betting.raise_cap == 4
    assert cardroom.rules("draw", "no-limit", stakes=10).betting.raise_cap is None
    betting = cardroom.rules("stud7", "fixed", stakes=10).betting
    assert betting.uncapped_heads_up and betting.cap_sticks  # cardroom betting 5


def test_cardroom_betting_7_half_bet_all_in_rule_is_for_limit_play() -> None:
    cardroom = book("cardroom")
    fixed = cardroom.rules("holdem", "fixed", stakes=10).betting
    assert fixed.short_all_in is ShortAllIn.HALF_REOPENS
    no_limit = cardroom.rules("holdem", "no-limit", stakes=10).betting
    assert no_limit.short_all_in is ShortAllIn.FULL_RAISE_REOPENS
    assert cardroom.setting("short_all_in", "holdem", Structure.NO_LIMIT).silent


def test_au_10_2_and_rws_3_14_3_half_a_raise_or_more_is_a_raise() -> None:
    # rws: half a raise or more is a raise. au (issue 15's corrected reading, spec 5(a)): half
    # a *bet* counts as a bet, but a short all-in raise is never a raise.
    betting = book("rws").rules("holdem", "no-limit", stakes=10).betting
    assert betting.short_all_in is ShortAllIn.HALF_REOPENS
    for structure in ("pot", "fixed", "no-limit"):
        betting = book("au-casino").rules("holdem", structure, stakes=10).betting
        assert betting.short_all_in is ShortAllIn.HALF_BET


def test_qld_s28_4_minimum_raise_and_the_others_previous_raise() -> None:
    assert book("qld").rules("holdem", stakes=10).betting.min_raise is MinRaise.QLD
    for name in ("au-casino", "rws", "cardroom"):
        assert book(name).rules("holdem", stakes=10).betting.min_raise is MinRaise.PREVIOUS


def test_league_7_9_first_raise_and_reraises_at_least_double() -> None:
    rules = book("league").rules("holdem", stakes=(50, 100))
    assert rules.betting.min_raise is MinRaise.DOUBLE
    hand = Hand(rules, [10_000] * 3)
    assert hand.legal().raise_range == (200, 10_000)  # league 7: double the big blind
    hand.bet_or_raise_to(300)
    assert hand.legal().raise_range == (600, 10_000)  # league 9: double the preceding raise


def test_qld_s24_4_first_round_opening_raise_equals_the_second_blind() -> None:
    rules = book("qld").rules("holdem", stakes=10)
    assert rules.betting.opening_raise_is_blind
    assert not book("rws").rules("holdem", stakes=10).betting.opening_raise_is_blind
    hand = Hand(rules, [1000] * 3)
    assert hand.legal().raise_range == (20, 20)


def test_au_11_1_c_iv_over_blind_only_in_draw() -> None:
    au = book("au-casino")
    assert au.value("over_blind", "draw") is True
    assert au.value("over_blind", "holdem") is False
    rules = au.rules("draw", "fixed", stakes=10)
    Hand(rules, [100] * 4, over_blind=True)
    for name in ("rws", "qld", "cardroom", "league"):
        assert book(name).value("over_blind", "holdem") is False


def test_qld_s28_8_structured_raises_by_the_minimum_then_the_maximum_wager() -> None:
    qld = book("qld")
    with pytest.raises(RulebookError, match=re.escape("qld s28(8)(b)")):
        qld.rules("holdem", "fixed", stakes=10)
    betting = qld.rules("holdem", "fixed", stakes=10, max_wager=25).betting
    assert (betting.small_bet, betting.big_bet, betting.big_bet_from) == (10, 25, 2)
    with pytest.raises(RulebookError, match=r"not the house's to choose.*qld s28\(8\)\(b\)"):
        qld.rules("holdem", "fixed", stakes=10, max_wager=25, big_bet=30)


def test_qld_s9_2_the_operator_decides_the_number_of_raises() -> None:
    qld = book("qld")
    assert qld.rules("holdem", "pot", stakes=10).betting.raise_cap is None
    assert qld.rules("holdem", "pot", stakes=10, raise_cap=4).betting.raise_cap == 4
    with pytest.raises(RulebookError, match=re.escape("au 11.5(g)")):
        book("au-casino").rules("holdem", "fixed", stakes=10, raise_cap=4)


def test_cardroom_limit_big_bet_doubles_by_default_and_the_house_may_post_its_own() -> None:
    cardroom = book("cardroom")
    with pytest.raises(RulebookError, match=re.escape("not a whole chip; give the blinds instead")):
        cardroom.rules("holdem", "fixed", stakes=3)
    assert cardroom.rules("holdem", "fixed", stakes=(1, 3)).betting.big_bet == 6  # $3-$6
    assert cardroom.rules("holdem", "fixed", stakes=(2, 4), big_bet=10).betting.big_bet == 10
    assert cardroom.rules("draw", "fixed", stakes=10).betting.big_bet_from == 1


# --- forced bets ---------------------------------------------------------------------------------


def test_qld_s23_first_blind_is_half_the_minimum_wager() -> None:
    qld = book("qld")
    rules = qld.rules("holdem", stakes=10)
    assert rules.blinds == (5, 10) and rules.betting.small_bet == 10
    assert qld.rules("holdem", stakes=(5, 10)).blinds == (5, 10)
    with pytest.raises(RulebookError, match=re.escape("qld s23(1)-(2)")):
        qld.rules("holdem", stakes=(4, 10))
    with pytest.raises(RulebookError, match=re.escape("qld s23(1)-(2)")):
        qld.rules("holdem", stakes=15)  # half of 15 is no whole chip


def test_qld_s23_1_no_heads_up_exception_the_next_player_posts_the_first_blind() -> None:
    rules = book("qld").rules("holdem", stakes=10)
    assert not rules.heads_up_button_small_blind
    hand = Hand(rules, [100, 100])
    assert hand.bets == [5, 10]  # player 0, next to the designated player, posts the first blind


def test_rws_3_7_heads_up_the_button_posts_the_small_blind() -> None:
    rules = book("rws").rules("holdem", stakes=(5, 10))
    assert rules.heads_up_button_small_blind
    assert Hand(rules, [100, 100]).bets == [10, 5]


def test_rws_1_big_blind_is_twice_the_small_blind() -> None:
    assert book("rws").rules("holdem", stakes=(5, 10)).blinds == (5, 10)
    with pytest.raises(RulebookError, match=re.escape("rws 1 big-blind")):
        book("rws").rules("holdem", stakes=(5, 15))
    with pytest.raises(RulebookError, match=re.escape("1/2 of 15 is not a whole chip")):
        book("rws").rules("holdem", stakes=(7, 15))


def test_au_11_1_c_iii_the_house_posts_the_number_of_blinds() -> None:
    au = book("au-casino")
    assert au.rules("holdem", stakes=(2, 5, 10)).blinds == (2, 5, 10)
    assert au.rules("holdem", stakes=(10,)).blinds == (10,)
    rules = au.rules("omaha", stakes=(5, 10))
    assert rules.betting.small_bet == 10  # au 11.5(b): the last blind is the table minimum


def test_au_12_1_b_stud_requires_an_ante_and_has_no_blinds() -> None:
    au = book("au-casino")
    with pytest.raises(RulebookError, match=re.escape("au 12.1(b), 13.1(b)")):
        au.rules("stud5", stakes=10)
    rules = au.rules("stud5", stakes=10, ante=1)
    assert rules.blinds == () and rules.ante == 1
    with pytest.raises(RulebookError, match=r"has no blinds.*au 12.1"):
        au.rules("stud7", stakes=(5, 10), ante=1)


def test_rws_1_and_qld_s21_no_ante() -> None:
    for name in ("rws", "qld"):
        with pytest.raises(RulebookError, match=re.escape("not the house's to choose")):
            book(name).rules("holdem", stakes=10, ante=1)


# --- showdown and odd chips ----------------------------------------------------------------------


def test_qld_s27_2_the_designated_player_shows_first_after_checks() -> None:
    assert book("qld").rules("holdem", stakes=10).show_first is ShowFirst.BUTTON
    assert book("rws").rules("holdem", stakes=10).show_first is ShowFirst.LEFT_OF_BUTTON


def test_au_16_5_e_17_5_e_11_4_d_odd_chip_to_the_highest_card_in_the_right_cards() -> None:
    au = book("au-casino")
    cards = {
        "holdem": CardSet.HOLE, "manila2": CardSet.HOLE, "omaha": CardSet.HOLE_USED,
        "manila3": CardSet.HOLE_USED, "draw": CardSet.HAND, "stud7": CardSet.HAND,
    }  # fmt: skip
    for game, kind in cards.items():
        odd = au.rules(game, "pot", stakes=10, ante=1).odd_chip
        assert odd.rule is OddChipRule.HIGHEST_CARD and odd.cards is kind
        assert not odd.one_per_player  # 'the amount remaining' goes to one hand


def test_cardroom_ties_4_5_one_odd_chip_each_by_seat_or_by_card_in_stud() -> None:
    cardroom = book("cardroom")
    holdem = cardroom.rules("holdem", stakes=10).odd_chip
    assert holdem.rule is OddChipRule.LEFT_OF_BUTTON and holdem.one_per_player
    stud = cardroom.rules("stud7", stakes=10).odd_chip
    assert stud.rule is OddChipRule.HIGHEST_CARD and stud.cards is CardSet.HAND
    assert stud.low_rule is OddChipRule.LOWEST_CARD


def test_qld_s27_9_to_11_pots_split_in_whole_dollars_leftover_to_one_winner() -> None:
    qld = book("qld")
    odd = qld.rules("holdem", stakes=1000, chips_per_dollar=100).odd_chip
    assert odd.unit == 100 and not odd.one_per_player
    assert odd.rule is OddChipRule.LEFT_OF_BUTTON


def test_league_15_odd_chips_one_each_left_of_the_dealer() -> None:
    odd = book("league").rules("holdem", stakes=(50, 100)).odd_chip
    assert odd.rule is OddChipRule.LEFT_OF_BUTTON and odd.one_per_player


# --- commission ----------------------------------------------------------------------------------


def test_au_8_2_a_percentage_commission_between_5_and_10_percent_of_the_hand() -> None:
    au = book("au-casino")
    assert au.rules("holdem", stakes=10).commission.kind is CommissionKind.NONE  # au 8.4
    commission = au.rules(
        "holdem", stakes=10, commission="percentage", commission_rate="10%", commission_cap=5
    ).commission
    assert commission.rate == Fraction(1, 10) and commission.cap == 5
    assert commission.basis is Basis.HAND
    assert commission.exempt_blinds_only and commission.exempt_all_tie  # au 8.6, 8.8
    assert not commission.uncalled_in_base  # au 8.5
    with pytest.raises(RulebookError, match=re.escape("below the minimum 5% (au 8.2(a))")):
        au.rules("holdem", stakes=10, commission="percentage", commission_rate="4%")


def test_au_8_2_b_fee_per_hand() -> None:
    au = book("au-casino")
    fee = au.rules("holdem", stakes=10, commission="hand_fee", commission_fee=2).commission
    assert fee.kind is CommissionKind.HAND_FEE and fee.fee == 2
    with pytest.raises(RulebookError, match=re.escape("au 8.2(b)-(c)")):
        au.rules("holdem", stakes=10, commission="hand_fee")


def test_rws_4_1_rake_at_most_5_percent_pot_by_pot() -> None:
    rws = book("rws")
    rake = rws.rules("holdem", stakes=10, commission="percentage", commission_cap=8).commission
    assert (rake.rate, rake.basis, rake.cap) == (Fraction(1, 20), Basis.POT, 8)
    with pytest.raises(RulebookError, match=re.escape("above the maximum 5% (rws 4.1)")):
        rws.rules("holdem", stakes=10, commission="percentage", commission_rate="6%")
    with pytest.raises(RulebookError, match=re.escape("(rws 4.1)")):
        rws.rules("holdem", stakes=10, commission="hand_fee")


def test_qld_s30_commission_over_19_dollars_5_percent_of_multiples_of_20_capped_at_100() -> None:
    commission = (
        book("qld")
        .rules("holdem", stakes=1000, commission="percentage", chips_per_dollar=100)
        .commission
    )  # a $10 minimum wager in cent chips
    assert commission.basis is Basis.WINNINGS  # qld s30(4)(a)
    assert (commission.only_over, commission.base_unit) == (1900, 2000)  # s30(1)
    assert commission.base_cap == 100_000  # s30(2): 100 minimum wagers
    assert commission.rate == Fraction(1, 20)


def test_qld_s20_participation_fee_instead_of_commission() -> None:
    qld = book("qld")
    fee = qld.rules("holdem", stakes=10, commission="participation_fee", commission_fee=1)
    assert fee.commission.kind is CommissionKind.PARTICIPATION_FEE
    with pytest.raises(RulebookError, match="does not apply to commission participation_fee"):
        qld.rules(
            "holdem", stakes=10, commission="participation_fee", commission_fee=1,
            commission_rate="5%",
        )  # fmt: skip


def test_league_commission_is_not_the_houses_to_choose() -> None:
    with pytest.raises(RulebookError, match=r"not the house's to choose.*league 18-19"):
        book("league").rules("holdem", stakes=10, commission="percentage")


def test_unknown_table_option_lists_the_house_options() -> None:
    with pytest.raises(RulebookError, match=r"unknown table option 'rake'.*commission_rate"):
        book("au-casino").rules("holdem", stakes=10, rake=5)


# --- user files ----------------------------------------------------------------------------------

HOUSE = """
extends = "cardroom"
name = "my-house"
title = "My house: cardroom rules with a capped rake and five raises"

[settings.raise_cap]
value = 5
clause = "cardroom betting 4"
note = "House rule: a bet and five raises at every structure."

[settings.commission]
value = "percentage"
house = true
choices = ["none", "percentage"]
clause = "cardroom betting 1"
note = "House rule: a 3% rake by default."

[settings.commission_rate]
value = "3%"
house = true
max = "5%"
clause = "cardroom betting 1"
note = "House rule."

[[gaps]]
topic = "house"
clause = "cardroom betting 1"
needs = "Nothing."
meanwhile = "Nothing."
"""


def test_a_user_file_extends_cardroom(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE)
    house = load_rulebook(path)
    assert house.name == "my-house" and house.extends == "cardroom"
    assert repr(house) == f"load_rulebook({str(path)!r})"
    rules = house.rules("holdem", "no-limit", stakes=10)
    assert rules.betting.raise_cap == 5
    assert rules.commission.kind is CommissionKind.PERCENTAGE
    assert rules.commission.rate == Fraction(3, 100)
    assert rules.odd_chip.one_per_player  # from cardroom ties 4
    assert house.game_names == book("cardroom").game_names
    assert [g.topic for g in house.gaps][-1] == "house" and len(house.gaps) > 1
    with pytest.raises(RulebookError, match=re.escape("above the maximum 5%")):
        house.rules("holdem", stakes=10, commission_rate="6%")
    stacks = [200, 150, 90]
    hand = Hand(rules, stacks, Deck.shuffled(rules.deck, SeededShuffler(7)))
    _play(hand, random.Random(7))
    assert sum(hand.stacks) + hand.commission == sum(stacks)


def test_a_user_file_can_extend_another_user_file_by_relative_path(tmp_path: Path) -> None:
    (tmp_path / "house.toml").write_text(HOUSE)
    (tmp_path / "branch.toml").write_text('extends = "house.toml"\nname = "branch"\n')
    branch = load_rulebook(tmp_path / "branch.toml")
    assert branch.title == "My house: cardroom rules with a capped rake and five raises"
    assert branch.rules("holdem", stakes=10).betting.raise_cap == 5


def test_unknown_keys_in_a_user_file_name_the_file_and_the_key(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text(HOUSE.replace('extends = "cardroom"', 'extends = "cardroom"\ncolour = "red"'))
    with pytest.raises(RulebookError, match=f"{re.escape(str(path))}: colour: unknown key"):
        load_rulebook(path)
    path.write_text(HOUSE.replace("value = 5", "valeu = 5"))
    with pytest.raises(RulebookError) as error:
        load_rulebook(path)
    assert str(path) in str(error.value) and "settings.raise_cap.valeu: unknown key" in str(
        error.value
    )
    assert "allowed keys here are value, clause" in str(error.value)
    path.write_text(HOUSE.replace("[settings.raise_cap]", "[settings.raise_caps]"))
    with pytest.raises(RulebookError, match=re.escape("settings.raise_caps: unknown setting")):
        load_rulebook(path)


def test_bad_values_say_what_is_allowed(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(HOUSE.replace('value = "percentage"', 'value = "lots"'))
    with pytest.raises(RulebookError, match=r"settings\.commission\.value: expected one of 'none'"):
        load_rulebook(path)
    path.write_text(HOUSE.replace('value = "3%"', 'value = "7%"'))
    with pytest.raises(
        RulebookError, match=r"settings\.commission_rate\.value: commission_rate 7%"
    ):
        load_rulebook(path)
    path.write_text(HOUSE.replace('clause = "cardroom betting 4"\n', ""))
    with pytest.raises(RulebookError, match=re.escape("settings.raise_cap.clause: missing")):
        load_rulebook(path)


def test_a_file_without_extends_must_state_every_setting(tmp_path: Path) -> None:
    path = tmp_path / "short.toml"
    path.write_text(HOUSE.replace('extends = "cardroom"\n', 'citation = "x"\ngames_clause = "x"\n'))
    with pytest.raises(RulebookError, match=re.escape("games: missing")):
        load_rulebook(path)
    games = '[[games]]\ngame = "holdem"\nclause = "x"\ndecks = { "52" = 10 }\ndecks_clause = "x"\n'
    path.write_text(path.read_text() + games)
    with pytest.raises(RulebookError, match=re.escape("settings: missing structure, combinations")):
        load_rulebook(path)


def test_extends_cycles_and_missing_names_are_errors(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('extends = "b.toml"\nname = "a"\n')
    (tmp_path / "b.toml").write_text('extends = "a.toml"\nname = "b"\n')
    with pytest.raises(RulebookError, match=re.escape("a cycle")):
        load_rulebook(tmp_path / "a.toml")
    (tmp_path / "c.toml").write_text('extends = "qld"\n')
    with pytest.raises(RulebookError, match=re.escape("needs its own name")):
        load_rulebook(tmp_path / "c.toml")
    with pytest.raises(RulebookError, match=re.escape("no rulebook named 'nevada'")):
        load_rulebook("nevada")


# --- the command line ----------------------------------------------------------------------------


def _run(*args: str) -> str:
    result = runner.invoke(app, ["rules", *args], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_rules_list_shows_each_profile_with_its_title_and_games() -> None:
    output = _run("list")
    for name in NAMES:
        assert name in output
    assert "Queensland" in output and "manila3 (36, 32)" in output
    assert "combination (per round)" in output


def test_cli_rules_show_prints_every_setting_with_its_clause_and_the_table_options() -> None:
    output = _run("show", "qld")
    for name in SPECS:
        assert name in output
    assert "qld s23(1)-(2)" in output and "[1/2, 1]" in output
    assert "qld s28(4)" in output and "qld s30(1)(a)" in output
    assert "pot (house default)" in output and "<= 5%" in output
    assert "[book silent]" in output and "qld s24(4)" in output
    assert "Engine gaps" in _run("show", "league")  # qld's gap is gone: spec Appendix B


def test_cli_rules_show_a_user_file(tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE)
    output = _run("show", str(path))
    assert "my-house" in output and "extends: cardroom" in output
    assert "cardroom ties 4" in output


def test_cli_rules_show_an_unknown_rulebook_is_an_error_not_a_traceback() -> None:
    result = runner.invoke(app, ["rules", "show", "nevada"], env={"COLUMNS": "240"})
    assert result.exit_code == 2
    assert "no rulebook named 'nevada'" in result.output and "Traceback" not in result.output


def test_qld_s24_10_profile_gives_the_second_blind_no_option() -> None:
    from croupier.hand import Hand

    rules = load_rulebook("qld").rules("holdem", stakes=10)
    hand = Hand(rules, [500, 500, 500])
    hand.check_or_call()  # the opening bet
    hand.check_or_call()  # the first blind makes its wager equal (s24(6))
    assert hand.street == 1  # the first round is over: no option for the second blind
    assert load_rulebook("rws").rules("holdem", stakes=10).betting.big_blind_option
