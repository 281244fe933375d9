"""PHH beyond NT, FT and PO: short-deck hold'em (NS), Omaha hi-lo (FO/8), seven card stud (F7S),
stud hi-lo (F7S/8), razz (FR), deuce-to-seven single (N2L1D) and triple draw (F2L3D) and badugi
(FB). Each variant is read, written, replayed on the engine, and played in PokerKit (PHH's
reference implementation) both ways: engine hands replayed by PokerKit, PokerKit hands replayed by
the engine. Where the two differ by rule, the difference is named (see the classifiers)."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from croupier import events as ev
from croupier.deck import Deck, SeededShuffler
from croupier.evaluate import best_hand
from croupier.hand import Hand, Phase, Rules
from croupier.history import (
    SUPPORTED_VARIANTS,
    VARIANTS,
    HandHistory,
    ReplayResult,
    dump_phh,
    history_from_hand,
    load_phh,
    replay,
    standard_rules,
)
from peers import odd_chips_only, pokerkit_game, pokerkit_stacks, pokerkit_state

pokerkit = pytest.importorskip("pokerkit")

FIXTURES = Path(__file__).parent / "fixtures" / "phh"

NEW = ("NS", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")
STUD = ("F7S", "F7S/8", "FR")
DRAW = ("N2L1D", "F2L3D", "FB")
LIMITS: dict[str, dict[str, Any]] = {
    "NS": {"min_bet": 2},
    "N2L1D": {"min_bet": 2},
    "FO/8": {"small_bet": 2, "big_bet": 4},
    "F2L3D": {"small_bet": 2, "big_bet": 4},
    "FB": {"small_bet": 2, "big_bet": 4},
    "F7S": {"bring_in": 1, "small_bet": 2, "big_bet": 4},
    "F7S/8": {"bring_in": 1, "small_bet": 2, "big_bet": 4},
    "FR": {"bring_in": 1, "small_bet": 2, "big_bet": 4},
}


def blank(variant: str, stacks: list[int], ante: int = 0) -> HandHistory:
    fields = dict(LIMITS[variant])
    if variant not in STUD:
        fields["blinds_or_straddles"] = (1, 2) + (0,) * (len(stacks) - 2)
    return HandHistory(
        variant=variant, antes=(ante,) * len(stacks), starting_stacks=tuple(stacks), **fields
    )


def phh_rules(variant: str, stacks: list[int], ante: int = 0) -> Rules:
    return standard_rules(blank(variant, stacks, ante))


# ---------------------------------------------------------------------------------------------
# Rules


def test_every_phh_std_variant_is_supported() -> None:
    assert set(SUPPORTED_VARIANTS) == set(VARIANTS)


@pytest.mark.parametrize(
    ("variant", "game", "deck"),
    [
        ("NS", "holdem", 36), ("FO/8", "omaha8", 52), ("F7S", "stud7", 52),
        ("F7S/8", "stud7-8", 52), ("FR", "razz", 52), ("N2L1D", "draw27", 52),
        ("F2L3D", "triple-draw27", 52), ("FB", "badugi", 52),
    ],
)  # fmt: skip
def test_standard_rules_per_variant(variant: str, game: str, deck: int) -> None:
    rules = phh_rules(variant, [100, 100, 100], ante=1)
    assert rules.game.name == game and rules.deck.size == deck and rules.ante == 1
    betting = rules.betting
    if variant in STUD:
        # PokerKit: the completion and three raises a street (cap 4 counting the completion).
        assert rules.bring_in == 1 and rules.blinds == () and rules.showing_ties_by_position
        assert betting.cap_for(0) == 3 and betting.cap_for(4) == 3
        assert (betting.fixed_size(1), betting.fixed_size(2)) == (2, 4)
    elif "small_bet" in LIMITS[variant]:
        # The big blind counts as the engine's opening bet: four raises before the first
        # card change or flop, three after a bet later (PokerKit's four completions, bets or
        # raises a round).
        assert (betting.cap_for(0), betting.cap_for(1), betting.cap_for(3)) == (4, 3, 3)
        assert (betting.fixed_size(1), betting.fixed_size(2)) == (2, 4)
    else:
        assert betting.raise_cap is None and rules.blinds == (1, 2)


def test_forced_bets_the_engine_cannot_post_say_why() -> None:
    # PHH short-deck often has everyone ante and the button post a blind: posted as written.
    history = replace(blank("NS", [100, 100, 100], ante=1), blinds_or_straddles=(0, 0, 2))
    result = replay(history)
    assert result.ok and result.hand is not None and result.hand.pot == 5
    too_big = replace(blank("FR", [100, 100, 100]), bring_in=2)
    error = replay(too_big).error
    assert error is not None and "must be less than the minimum bet" in error.message


# ---------------------------------------------------------------------------------------------
# Hand-written fixtures: amounts worked out by hand in each file's comments


@pytest.mark.parametrize(
    ("name", "stacks"),
    [
        ("stud_bring_in_completion.phh", (83, 97, 120)),
        ("razz_highest_card_brings_in.phh", (114, 87, 99)),
        ("triple_draw_27.phh", (120, 86, 94)),
        ("badugi_reshuffle.phh", (96, 116, 96, 96, 96)),
        ("short_deck_flush_beats_full_house.phh", (136, 0, 44)),
        ("single_draw_27.phh", (126, 74)),
    ],
)
def test_fixture_replays_to_the_stacks_worked_out_by_hand(name: str, stacks: tuple[int]) -> None:
    text = (FIXTURES / name).read_text()
    result = replay(load_phh(text))
    assert result.ok and result.complete, result.error
    assert result.finishing_stacks == stacks
    assert pokerkit_stacks(text) == list(stacks)


def test_stud_opener_and_bring_in() -> None:
    text = (FIXTURES / "stud_bring_in_completion.phh").read_text()
    history = load_phh(text)
    # p2 shows the lowest up card (2c) and must bring in; folding is not allowed.
    actions = list(history.actions)
    bring_in = actions.index("p2 pb")
    error = replay(replace(history, actions=(*actions[:bring_in], "p2 f"))).error
    assert error is not None and "may not fold" in error.message
    error = replay(replace(history, actions=(*actions[:bring_in], "p1 pb"))).error
    assert error is not None and "p1 acts out of turn: p2 is to act" in error.message
    # The completion is to the small bet, exactly.
    error = replay(replace(history, actions=(*actions[: bring_in + 1], "p3 cbr 3"))).error
    assert error is not None and "above the maximum 2" in error.message


def test_draw_errors_name_the_action() -> None:
    history = load_phh((FIXTURES / "triple_draw_27.phh").read_text())
    actions = list(history.actions)
    first_draw = next(i for i, a in enumerate(actions) if " sd" in a)
    early = replace(history, actions=(*actions[:first_draw], "p2 cc"))
    error = replay(early).error
    assert error is not None and "bets before the draw is over: p1 is to stand pat or draw" in str(
        error
    )
    wrong = replace(history, actions=(*actions[:first_draw], "p1 sd AsKs"))
    error = replay(wrong).error
    assert error is not None and error.field == f"actions[{first_draw}]"
    assert "p1 discards As, but holds" in error.message
    held = next(a for a in actions if a.startswith("d dh p1")).split()[-1]
    discard = f"p1 sd {held[:2]}"
    # One card discarded, two dealt in its place.
    over = replace(
        history, actions=(*actions[:first_draw], discard, *actions[first_draw + 1 : first_draw + 3],
                          "d dh p1 2c3c"),
        finishing_stacks=None,
    )  # fmt: skip
    error = replay(over).error
    assert error is not None and "p1 is dealt 2 card(s) but has 1 to replace" in error.message
    stud_only = replace(history, actions=(*actions[:first_draw], "p1 pb"))
    error = replay(stud_only).error
    assert error is not None and "a bring-in is not part of F2L3D" in error.message


def test_a_discarded_card_is_dealt_again_only_after_a_reshuffle() -> None:
    history = load_phh((FIXTURES / "badugi_reshuffle.phh").read_text())
    result = replay(history)
    assert result.hand is not None
    assert any(isinstance(e, ev.Reshuffle) for e in result.hand.events)
    # The same card dealt again before the deck ran out: the engine cannot deal it.
    actions = list(history.actions)
    first_deal = next(i for i, a in enumerate(actions) if a.startswith("d dh p1") and i > 5)
    p1_discard = next(a for a in actions if a.startswith("p1 sd ")).split()[-1][:2]
    dealt = actions[first_deal].split()
    redealt = " ".join([*dealt[:3], p1_discard + dealt[3][2:]])
    early = replace(history, actions=(*actions[:first_deal], redealt), finishing_stacks=None)
    error = replay(early).error
    assert error is not None and "it was discarded, and the deck was not reshuffled" in str(error)


# ---------------------------------------------------------------------------------------------
# Engine hands: written, read back, replayed by croupier and by PokerKit


def random_hand(seed: int, variant: str) -> Hand:
    """A hand of random legal play: folds, calls, bring-ins, completions, raises, draws."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    ante = rng.choice([0, 1, 1]) if variant in STUD else rng.choice([0, 0, 1])
    stacks = [rng.choice([rng.randint(3, 30), rng.randint(20, 300)]) for _ in range(players)]
    rules = phh_rules(variant, stacks, ante)
    deck = Deck.shuffled(rules.deck, SeededShuffler(seed))
    hand = Hand(rules, stacks, deck, shuffler=SeededShuffler(seed + 1))
    while hand.phase is not Phase.OVER:
        if hand.drawing:
            assert hand.to_act is not None
            held = hand.hole[hand.to_act]
            hand.draw(rng.sample(held, rng.randint(0, len(held))))
            continue
        legal = hand.legal()
        roll = rng.random()
        must_bet = not legal.can_check and not legal.call and legal.bring_in is None
        if legal.bring_in is not None and roll < 0.6:
            hand.post_bring_in()
        elif legal.can_fold and roll < 0.15 and not legal.can_check:
            hand.fold()
        elif legal.raise_range and (roll > 0.6 or must_bet or legal.bring_in is not None):
            low, high = legal.raise_range
            pick = rng.random()
            to = low if pick < 0.4 else high if pick < 0.6 else rng.randint(low, high)
            hand.bet_or_raise_to(to)
        else:
            hand.check_or_call()
    return hand


def low_half_of_a_pot_nobody_there_qualifies_for(result: ReplayResult) -> bool:
    """Hi-lo: when some player has a qualifying low, PokerKit splits every pot in halves, and
    the low half of a pot where no eligible player qualifies goes to all of them; the engine
    gives that whole pot to the high hand (the pot has no low)."""
    hand = result.hand
    if hand is None or hand.rules.game.low_ranking is None:
        return False
    live = [p for p in range(hand.players) if not hand.folded[p]]
    ranking = hand.rules.game.low_ranking
    used = hand.rules.game.hole_cards_used
    lows = {
        p for p in live
        if best_hand(hand.hole[p] + hand.up[p], hand.board, ranking, hole_cards_used=used).qualifies
    }  # fmt: skip
    return bool(lows) and any(
        len(pot.eligible) > 1 and not lows & set(pot.eligible) for pot in result.pots
    )


def classify_engine_hand(hand: Hand, variant: str) -> str:
    history = history_from_hand(hand)
    text = dump_phh(history)
    again = load_phh(text)
    assert again == history
    result = replay(again)
    assert result.ok and result.complete, (result.error, text)
    assert result.finishing_stacks == tuple(hand.stacks)
    try:
        theirs = pokerkit_stacks(text)
    except ValueError as error:
        if "is below the minimum allowed" in str(error):
            return "pokerkit raises on top of a short all-in"
        raise AssertionError(f"PokerKit rejects {text}: {error}") from None
    if theirs == list(hand.stacks):
        return "agree"
    if odd_chips_only(result, list(hand.stacks), theirs):
        return "odd chips: pokerkit splits merged pots"
    if low_half_of_a_pot_nobody_there_qualifies_for(result):
        return "hi-lo: pokerkit splits a side pot's low half though nobody in it has a low"
    raise AssertionError(f"stacks differ: ours {hand.stacks}, PokerKit {theirs}\n{text}")


@pytest.mark.parametrize("variant", NEW)
def test_engine_hands_replay_in_croupier_and_pokerkit(variant: str) -> None:
    seeds = range(30)
    outcomes = Counter(classify_engine_hand(random_hand(seed, variant), variant) for seed in seeds)
    assert outcomes["agree"] >= 25, outcomes


# ---------------------------------------------------------------------------------------------
# PokerKit hands replayed on the engine


def pokerkit_random_history(seed: int, variant: str) -> tuple[str, list[int]]:
    """A hand of random legal play in PokerKit, written as PHH by PokerKit. FO/8 is played with
    fixed-limit amounts and PokerKit's cap (PokerKit 0.7.7 plays it pot-limit). PokerKit deals
    with the global random generator: it is seeded too, so a seed is always the same hand."""
    saved = random.getstate()
    random.seed(f"{variant} {seed}")
    try:
        return _pokerkit_random_history(seed, variant)
    finally:
        random.setstate(saved)


def _pokerkit_random_history(seed: int, variant: str) -> tuple[str, list[int]]:
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    ante = rng.choice([0, 1, 1]) if variant in STUD else rng.choice([0, 0, 1])
    stacks = tuple(rng.choice([rng.randint(3, 14), rng.randint(10, 300)]) for _ in range(players))
    game = pokerkit_game(variant, ante)
    state = game(stacks, players)
    while state.status:
        roll = rng.random()
        if state.can_stand_pat_or_discard():
            held = state.hole_cards[state.stand_patter_or_discarder_index]
            state.stand_pat_or_discard(rng.sample(list(held), rng.randint(0, len(held))))
        elif state.can_post_bring_in() and roll < 0.6:
            state.post_bring_in()
        elif state.can_fold() and roll < 0.2 and state.checking_or_calling_amount:
            state.fold()
        elif state.can_complete_bet_or_raise_to() and (roll > 0.6 or state.can_post_bring_in()):
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            if variant == "FO/8":
                if state.completion_betting_or_raising_count >= 4:
                    state.check_or_call()
                    continue
                high = low
            pick = rng.random()
            to = low if pick < 0.4 else high if pick < 0.6 else rng.randint(low, high)
            state.complete_bet_or_raise_to(to)
        else:
            state.check_or_call()
    text = pokerkit.HandHistory.from_game_state(game, state).dumps()
    return text, list(state.stacks)


REOPENS = "a short all-in does not reopen the betting"


def classify_pokerkit_hand(text: str, stacks: list[int], variant: str) -> str:
    history = load_phh(text)
    result = replay(history)
    ours = list(result.finishing_stacks or ())
    if result.ok and ours == stacks:
        return "agree"
    error = result.error
    message = "" if error is None else error.message
    if result.ok and odd_chips_only(result, ours, stacks):
        return "odd chips"
    if result.ok and low_half_of_a_pot_nobody_there_qualifies_for(result):
        return "hi-lo: pokerkit splits a side pot's low half though nobody in it has a low"
    if REOPENS in message:
        return "pokerkit reopens the betting after a short all-in"
    if "structured limit" in message or "below the minimum" in message:
        return "fixed limit: pokerkit raises on top of a short all-in"
    if "it was discarded, and the deck was not reshuffled" in message:
        return "draws: pokerkit deals from every discard once the deck is out"
    if "cannot be dealt to" in message:
        return "draws: pokerkit reshuffles the muck and burns too"
    if "out of turn" in message and variant in STUD:
        return "stud: pokerkit's bring-in passes left of an all-in low card"
    raise AssertionError(f"{variant} {error}: ours {ours}, PokerKit {stacks}\n{text}")


@pytest.mark.parametrize("variant", NEW)
def test_pokerkit_hands_replay_on_the_engine(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns of folds it finds pointless
        hands = [pokerkit_random_history(seed, variant) for seed in range(30)]
    outcomes = Counter(classify_pokerkit_hand(text, stacks, variant) for text, stacks in hands)
    assert outcomes["agree"] >= 20, outcomes


def test_pokerkit_plays_fixed_limit_omaha_hi_lo_pot_limit() -> None:
    # PokerKit 0.7.7's FO/8 class is pot-limit (no cap, bets up to the pot); PHH's FO/8 is
    # fixed limit, as the engine replays it.
    text = dump_phh(history_from_hand(random_hand(3, "FO/8")))
    history = load_phh(text)
    flop = next(i for i, a in enumerate(history.actions) if a.startswith("d db"))
    opener = next(a for a in history.actions[flop + 1 :] if not a.startswith("d ")).split()[0]
    bigger = replace(history, actions=(*history.actions[: flop + 1], f"{opener} cbr 3"),
                     finishing_stacks=None)  # fmt: skip
    error = replay(bigger).error
    assert error is not None and "structured limit" in error.message
    pokerkit_state(dump_phh(bigger))  # accepted: pot limit


# ---------------------------------------------------------------------------------------------
# Round trips


@pytest.mark.parametrize("variant", NEW)
def test_round_trip_load_dump_load(variant: str) -> None:
    for seed in range(5):
        history = history_from_hand(random_hand(seed, variant))
        text = dump_phh(history)
        again = load_phh(text)
        assert again == history and dump_phh(again) == text
        assert again.variant == variant and again.validate() == []


def test_writer_shows_stud_cards_in_dealing_order_and_draws_as_phh_does() -> None:
    stud = history_from_hand(random_hand(1, "F7S"))
    holes = [a for a in stud.actions if a.startswith("d dh")]
    assert all(len(a.split()[-1]) == 6 for a in holes[: len(stud.starting_stacks)])
    draw = load_phh((FIXTURES / "triple_draw_27.phh").read_text())
    hand = replay(draw).hand
    assert hand is not None
    assert history_from_hand(hand).actions == draw.actions  # sd lines first, then the deals
    for name in ("stud_bring_in_completion.phh", "razz_highest_card_brings_in.phh"):
        written = load_phh((FIXTURES / name).read_text())
        played = replay(written).hand
        assert played is not None and history_from_hand(played).actions == written.actions


# ---------------------------------------------------------------------------------------------
# Differences from PokerKit found by the replays both ways (docs/differences-from-pokerkit.md)


def test_difference_hi_lo_pot_nobody_in_it_has_a_low_for() -> None:
    # A stud hi-lo hand (seed 29) with a side pot none of whose players has a qualifying low,
    # while a player in the main pot has one: croupier gives that side pot whole to its best
    # high hand; PokerKit halves it and splits the low half among all its players.
    hand = random_hand(29, "F7S/8")
    label = classify_engine_hand(hand, "F7S/8")
    assert label == "hi-lo: pokerkit splits a side pot's low half though nobody in it has a low"
    result = replay(history_from_hand(hand))
    assert low_half_of_a_pot_nobody_there_qualifies_for(result)
    lows = hand.low_values([p for p in range(hand.players) if not hand.folded[p]])
    for pot in result.pots:
        if len(pot.eligible) > 1 and all(lows[p] is None for p in pot.eligible):
            assert sum(pot.shares) == pot.amount - pot.commission  # no low half set aside


def test_difference_a_draw_reshuffles_only_earlier_discards() -> None:
    # Triple-draw hands PokerKit dealt: once its deck runs out it deals from the muck and the
    # burns too; croupier reshuffles only the discards of those who drew before (au 11.3(b)),
    # so such a history gives a card croupier's deck cannot hold, and the replay names the
    # action and why.
    hands = [pokerkit_random_history(seed, "F2L3D") for seed in range(40)]
    labels = [classify_pokerkit_hand(text, stacks, "F2L3D") for text, stacks in hands]
    differing = [i for i, label in enumerate(labels) if label.startswith("draws: pokerkit")]
    assert differing, Counter(labels)
    result = replay(load_phh(hands[differing[0]][0]))
    assert not result.ok and result.error is not None and result.error.action is not None
