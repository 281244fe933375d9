"""Draws of cards at a table (for the button, for a contested seat) and who comes first for a
vacated seat.

- A draw: each claimant gets one card; the highest card wins (qld s16(4); cardroom ties 2).
  Equal ranks are split by suit, spades highest (cardroom ties 1), or drawn again (league 2).
- A vacated seat (au 11.1(a) to 17.1(a); qld s16(2)-(3)): the claimants with the best priority
  draw for it. Under au the players already seated come before those waiting to join; under
  qld the players in the game since it started come first, then other players, then people
  who want to join. The other books are silent: the au rule is the default (a decision).
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Sequence
from typing import TypeVar

from croupier.cards import Card, DeckKind
from croupier.deck import Deck, Shuffler

__all__ = ["DrawTie", "SeatPriority", "draw_cards", "priority_groups", "priority_order"]

K = TypeVar("K", bound=Hashable)


class DrawTie(enum.Enum):
    """How a draw separates equal ranks."""

    SUIT = "suit"  # by suit, spades > hearts > diamonds > clubs, no redraw (cardroom ties 1)
    REDRAW = "redraw"  # the tied players draw again until one is highest (league seat draw)


class SeatPriority(enum.Enum):
    """Who comes first for a seat vacated during a game."""

    SEATED_FIRST = "seated-first"  # players seated in the game, then newcomers (au 11.1(a))
    ORIGINAL_FIRST = "original-first"  # since the start, other players, newcomers (qld s16(2))


def draw_cards(
    claimants: Sequence[K],
    ties: DrawTie,
    *,
    deck: Deck | None = None,
    shuffler: Shuffler | None = None,
    kind: DeckKind = DeckKind.STANDARD,
) -> tuple[list[tuple[K, Card]], K]:
    """Each claimant draws one card in turn; the highest card wins (rank, then suit under
    :attr:`DrawTie.SUIT`; the tied draw again under :attr:`DrawTie.REDRAW`). ``deck``: the cards
    to draw from (a stacked deck for a replay); else a fresh shuffle, again when it runs out.
    Returns every card drawn, in order, and the winner."""
    if len(claimants) < 1 or len(set(claimants)) != len(claimants):
        raise ValueError(f"a draw needs distinct claimants, got {list(claimants)}")
    source = deck if deck is not None else Deck.shuffled(kind, shuffler)
    drawing, drawn = list(claimants), []
    while True:
        if len(source) < len(drawing):
            if deck is not None:
                raise ValueError("the given deck ran out during the draw")
            source = Deck.shuffled(kind, shuffler)
        cards = [(who, source.deal()[0]) for who in drawing]
        drawn.extend(cards)
        best = max(card for _, card in cards)
        if ties is DrawTie.SUIT:  # cards order by rank, then suit
            return drawn, next(who for who, card in cards if card == best)
        drawing = [who for who, card in cards if card.rank == best.rank]
        if len(drawing) == 1:
            return drawn, drawing[0]


def priority_order(
    claimants: Sequence[str],
    seated: set[str],
    original: set[str],
    priority: SeatPriority,
) -> list[tuple[str, int, str]]:
    """Each claimant of a vacated seat with the rank of their group (1 comes first) and its
    name, best first and in the order given within a group. ``seated``: players with a seat at
    the table; ``original``: those in the game since it started."""
    if priority is SeatPriority.ORIGINAL_FIRST:
        groups: list[tuple[str, set[str] | None]] = [
            ("original players (qld s16(2)(a))", original),
            ("other players (qld s16(2)(b))", seated),
            ("people joining (qld s16(2)(c))", None),
        ]
    else:
        groups = [
            ("seated players (au 11.1(a))", seated),
            ("people joining (au 11.1(a))", None),
        ]
    order: list[tuple[str, int, str]] = []
    placed: set[str] = set()
    for rank, (label, members) in enumerate(groups, 1):
        for name in claimants:
            if name not in placed and (members is None or name in members):
                order.append((name, rank, label))
                placed.add(name)
    return order


def priority_groups(
    claimants: Sequence[str],
    seated: set[str],
    original: set[str],
    priority: SeatPriority,
) -> tuple[list[str], str]:
    """The claimants with the best priority for a vacated seat, in the order given, and the
    name of their group (see :func:`priority_order`)."""
    order = priority_order(claimants, seated, original, priority)
    if not order:
        raise ValueError("nobody claims the seat")
    _, first, label = order[0]
    return [name for name, rank, _ in order if rank == first], label
