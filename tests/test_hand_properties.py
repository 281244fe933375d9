"""Random play through every game and structure: the invariants hold after every action."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, MinRaise, ShortAllIn, Structure
from croupier.deck import Deck, SeededShuffler
from croupier.games import GAMES, Game
from croupier.hand import Hand, Phase, Rules
from scripted import act_passively

STRUCTURES = list(Structure)


def make_rules(game: Game, structure: Structure, draw: Callable[[Any], Any]) -> Rules:
    deck = draw(st.sampled_from(sorted(game.max_players, key=lambda d: d.size)))
    small = draw(st.integers(1, 4))
    return Rules(
        game=game,
        deck=deck,
        betting=Betting(
            structures=(structure,),
            small_bet=small * 2,
            big_bet=small * 4,
            raise_cap=draw(st.sampled_from([None, 3, 4])),
            max_wager=draw(st.sampled_from([None, small * 40])),
            min_raise=draw(st.sampled_from(list(MinRaise))),
            short_all_in=draw(st.sampled_from(list(ShortAllIn))),
            cap_sticks=draw(st.booleans()),
            opening_raise_is_blind=draw(st.booleans()),
        ),
        blinds=(small, small * 2),
        ante=draw(st.sampled_from([0, 1])),
        chip_unit=draw(st.sampled_from([1, 1, small])),
    )


def play_randomly(hand: Hand, rng: random.Random) -> None:
    total = sum(hand.starting)
    while hand.phase is not Phase.OVER:
        if hand.drawing:
            assert hand.to_act is not None
            cards = hand.hole[hand.to_act]
            hand.draw(rng.sample(cards, rng.randint(0, len(cards))))
            check_invariants(hand, total)
            continue
        legal = hand.legal()
        choice = rng.random()
        must_bet = not legal.can_check and legal.call == 0
        if legal.raise_range is not None and (choice < 0.35 or must_bet):
            low, high = legal.raise_range
            to = rng.choice([low, high, legal.snap(rng.randint(low, high))])
            hand.bet_or_raise_to(to)
        elif legal.can_fold and choice > 0.85:
            hand.fold()
        else:
            act_passively(hand)
        check_invariants(hand, total)
    check_invariants(hand, total)


def check_invariants(hand: Hand, total: int) -> None:
    # Chips are conserved: stacks + everything in the middle + commission.
    assert sum(hand.stacks) + hand.pot * (hand.phase is not Phase.OVER) + hand.commission == total
    assert all(stack >= 0 for stack in hand.stacks)
    dealt = [c for cards in hand.hole + hand.up for c in cards] + hand.board
    assert len(set(dealt)) == len(dealt)
    if hand.phase is not Phase.OVER:
        assert hand.to_act is not None and not hand.folded[hand.to_act]
        if hand.drawing:
            return
        legal = hand.legal()
        assert legal.can_check or legal.call > 0 or legal.can_fold


@settings(max_examples=300, deadline=None)
@given(
    game_name=st.sampled_from(sorted(GAMES)),
    structure=st.sampled_from(STRUCTURES),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_random_play_conserves_chips_and_pays_only_eligible_players(
    game_name: str, structure: Structure, seed: int, data: st.DataObject
) -> None:
    game = GAMES[game_name]
    rules = make_rules(game, structure, data.draw)
    limit = game.max_players[rules.deck]
    players = data.draw(st.integers(2, min(limit, 10)))
    stacks = data.draw(st.lists(st.integers(1, 120), min_size=players, max_size=players))
    hand = Hand(rules, stacks, Deck.shuffled(rules.deck, SeededShuffler(seed)))
    play_randomly(hand, random.Random(seed))
    # A folded player wins nothing beyond a returned uncalled bet.
    collected = {e.player for e in hand.events if isinstance(e, ev.Collect)}
    assert not any(hand.folded[p] for p in collected)
    # An all-in player wins at most what the pots they covered held.
    for player in collected:
        won = sum(e.amount for e in hand.events if isinstance(e, ev.Collect) and e.player == player)
        covered = sum(min(c, hand.contributed[player]) for c in hand.contributed)
        assert won <= covered
    assert isinstance(hand.events[-1], ev.HandOver)


def test_illegal_random_actions_never_change_the_state() -> None:
    rng = random.Random(7)
    for game in GAMES.values():
        deck_kind = next(iter(game.max_players))
        rules = Rules(
            game=game,
            deck=deck_kind,
            betting=Betting(structures=(Structure.POT,), small_bet=2),
            blinds=(1, 2),
        )
        hand = Hand(rules, [50, 80, 30], Deck.shuffled(deck_kind, SeededShuffler(1)))
        while hand.phase is not Phase.OVER:
            if hand.drawing:
                hand.draw()
                continue
            legal = hand.legal()
            snapshot = (list(hand.stacks), list(hand.bets), len(hand.events), hand.to_act)
            bad = (legal.raise_range[1] + 1) if legal.raise_range else rng.randint(1, 500)
            try:
                hand.bet_or_raise_to(bad)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"raise to {bad} was accepted; legal: {legal}")
            assert snapshot == (list(hand.stacks), list(hand.bets), len(hand.events), hand.to_act)
            act_passively(hand)
