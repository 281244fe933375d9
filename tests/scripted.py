"""Helpers for tests that script a hand: stacked decks, random play, what the event log says."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from croupier import events as ev
from croupier.betting import Betting, MinRaise, ShortAllIn, Structure
from croupier.cards import Card, DeckKind, parse_cards
from croupier.deck import Deck
from croupier.games import Game
from croupier.hand import Hand, Phase, Rules


def deck(top: str, kind: DeckKind = DeckKind.STANDARD) -> Deck:
    """The given cards on top, in dealing order, then the rest of the deck in code order."""
    cards = list(parse_cards(top))
    return Deck(kind, cards + [c for c in kind.cards if c not in cards])


def board_deck(holes: list[str], board: str = "", kind: DeckKind = DeckKind.STANDARD) -> Deck:
    """A deck dealing these hole cards (one at a time, from the left of the button), then a
    burn before the flop, the turn and the river; the burns and the rest of the deck are the
    unused cards in code order."""
    hole = [parse_cards(h) for h in holes]
    order = [hole[p][i] for i in range(len(hole[0])) for p in range(len(hole))]
    shared = list(parse_cards(board))
    rest = [c for c in kind.cards if c not in order and c not in shared]
    burns = iter(rest)
    for street in (shared[:3], shared[3:4], shared[4:5]):
        if street:
            order += [next(burns), *street]
    return Deck(kind, order + [c for c in rest if c not in order])


def act_passively(hand: Hand) -> None:
    """Check or call; a stud opener who must bet bets the least allowed."""
    legal = hand.legal()
    if not legal.can_check and legal.call == 0:
        assert legal.raise_range is not None
        hand.bet_or_raise_to(legal.raise_range[0])
    else:
        hand.check_or_call()


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def collected(hand: Hand) -> dict[int, int]:
    won: dict[int, int] = {}
    for e in hand.events:
        if isinstance(e, ev.Collect):
            won[e.player] = won.get(e.player, 0) + e.amount
    return won


def last_action(hand: Hand) -> ev.Event:
    return [e for e in hand.events if isinstance(e, ev.Check | ev.Call | ev.Bet | ev.Fold)][-1]


def no_split_by_agreement(hand: Hand, expected: dict[int, int]) -> None:
    """Nothing in the API lets players divide a pot among themselves, the hand was played
    through every betting round, and the pot went where the cards sent it."""
    # the dealer's operations and dealing settings (a compiled Hand lists its attributes too)
    dealing = {"deal_hole", "deal_board", "deal_next", "dealt", "auto_deal"}
    public = [name for name in dir(Hand) if not name.startswith("_") and name not in dealing]
    assert not [n for n in public if re.search(r"chop|split|agree|deal|insur|save", n)]
    rounds = [e.index for e in hand.events if isinstance(e, ev.StreetStart)]
    assert rounds == list(range(len(hand.rules.game.streets)))
    assert hand.phase is Phase.OVER and collected(hand) == expected


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


def play_randomly(
    hand: Hand, rng: random.Random, steps: int | None = None, *, checks: bool = True
) -> None:
    """Random legal play to the end of the hand (or for ``steps`` actions), checking the
    invariants after every action (unless ``checks`` is False)."""
    total = sum(hand.starting)
    while hand.phase is not Phase.OVER and (steps is None or steps > 0):
        steps = None if steps is None else steps - 1
        if hand.drawing:
            assert hand.to_act is not None
            cards = hand.hole[hand.to_act]
            hand.draw(rng.sample(cards, rng.randint(0, len(cards))))
            if checks:
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
        if checks:
            check_invariants(hand, total)
    if checks:
        check_invariants(hand, total)


def check_invariants(hand: Hand, total: int) -> None:
    # Chips are conserved: stacks + everything in the middle + commission.
    assert sum(hand.stacks) + hand.pot * (hand.phase is not Phase.OVER) + hand.commission == total
    assert all(stack >= 0 for stack in hand.stacks)
    assert hand.over is (hand.phase is Phase.OVER)  # the quick test says what the phase says
    dealt = [c for cards in hand.hole + hand.up for c in cards] + hand.board
    assert len(set(dealt)) == len(dealt)
    if hand.phase is not Phase.OVER:
        assert hand.to_act is not None and not hand.folded[hand.to_act]
        if hand.drawing:
            return
        legal = hand.legal()
        assert legal.can_check or legal.call > 0 or legal.can_fold
