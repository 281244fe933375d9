"""Random play through every game and structure: the invariants hold after every action."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, Structure
from croupier.deck import Deck, SeededShuffler
from croupier.games import GAMES
from croupier.hand import Hand, Phase, Rules
from scripted import STRUCTURES, act_passively, make_rules, play_randomly


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
