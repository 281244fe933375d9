"""Helpers for tests that script a hand: stacked decks and what the event log says."""

from __future__ import annotations

import re

from croupier import events as ev
from croupier.cards import Card, DeckKind, parse_cards
from croupier.deck import Deck
from croupier.hand import Hand, Phase


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
    dealing = {"deal_hole", "deal_board", "deal_next"}  # the dealer's operations, not deals
    public = [name for name in dir(Hand) if not name.startswith("_") and name not in dealing]
    assert not [n for n in public if re.search(r"chop|split|agree|deal|insur|save", n)]
    rounds = [e.index for e in hand.events if isinstance(e, ev.StreetStart)]
    assert rounds == list(range(len(hand.rules.game.streets)))
    assert hand.phase is Phase.OVER and collected(hand) == expected
