"""Seats, the button and the blinds across hands: the draws, the dead button, and positions.

Seats are numbered 1..N clockwise, as at a croupier table. The blinds follow league 12: the big
blind moves one player clockwise every hand, to whoever's turn it is, even when players were
eliminated; the small blind goes to the seat that had the big blind (if that player is gone,
there is no small blind this hand); the button goes to the seat that had the small blind (if
that player is gone the button is dead on the empty seat, so the previous dealer acts last
again, "deals again"). Heads-up the button posts the small blind and the other player the big.

A player's *position* here is the number of hands until they post the big blind: 1 for the
player due it next hand. League 14 has a moved player placed in a similar position or one no
less favourable, that is, a seat where the big blind comes no sooner.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from croupier.cards import Card, DeckKind
from croupier.deck import Deck, Shuffler

__all__ = [
    "Deal",
    "Positions",
    "choose_seat",
    "deal_for",
    "dealer_draw",
    "first_positions",
    "hands_until_big_blind",
    "next_positions",
    "seat_draw",
]

_AROUND = 1 << 16  # any modulus above the highest seat keeps the clockwise order of seats


def _offset(origin: int, seat: int) -> int:
    """How far clockwise ``seat`` is from ``origin`` (0 for the same seat)."""
    return (seat - origin) % _AROUND


def _inside(start: int, seat: int, end: int) -> bool:
    """Whether ``seat`` lies strictly between ``start`` and ``end`` going clockwise (with
    ``start == end``: anywhere but that seat)."""
    span = _offset(start, end) or _AROUND
    return 0 < _offset(start, seat) < span


def _after(live: Sequence[int], seat: int) -> int:
    """The first of ``live`` clockwise after ``seat``."""
    return min((s for s in live if s != seat), key=lambda s: _offset(seat, s))


def _before(live: Sequence[int], seat: int) -> int:
    """The first of ``live`` counterclockwise before ``seat``."""
    return max((s for s in live if s != seat), key=lambda s: _offset(seat, s))


@dataclass(frozen=True)
class Positions:
    """Where the button and the blinds are for one hand. ``small_blind`` is the seat whose turn
    it is to post it; when nobody sits there (eliminated) the small blind is dead. ``button``
    may likewise be an empty seat (a dead button). Heads-up the button is the small blind."""

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True)
class Deal:
    """Who is dealt in, in deal order: first the seat after the button, the button (or the last
    player before a dead button) last. ``waiting``: players who joined the table between the
    button and the small blind sit this hand out, as they would otherwise play a hand without
    having posted a blind (house rule, as the TDA; the league book is silent)."""

    positions: Positions
    order: tuple[int, ...]
    waiting: tuple[int, ...]

    @property
    def posts_small_blind(self) -> bool:
        """Whether a small blind is posted (league 12: it may be missed)."""
        return self.positions.small_blind in self.order


def first_positions(live: Sequence[int], button: int) -> Positions:
    """The first hand at a table, after the dealer draw has put the button on ``button``."""
    if len(live) == 2:
        return Positions(button, button, _after(live, button))
    small = _after(live, button)
    return Positions(button, small, _after(live, small))


def next_positions(live: Sequence[int], last: Positions) -> Positions:
    """The next hand's positions under league 12 (module docstring), given the seats of the
    players who will be dealt in (``live``, at least two) and the last hand's positions."""
    big = _after(live, last.big_blind)
    if len(live) == 2:
        other = next(s for s in live if s != big)
        return Positions(other, other, big)
    small = last.big_blind
    button = last.small_blind
    if not _inside(big, button, small):
        # From heads-up, or players seated since: the player last before the small blind.
        button = _before(live, small)
    return Positions(button, small, big)


def deal_for(live: Sequence[int], positions: Positions) -> Deal:
    """The deal order for ``positions``, with the players waiting between the button and the
    small blind left out (unless that would leave fewer than three players dealt in)."""
    if len(live) == 2:
        return Deal(positions, (positions.big_blind, positions.button), ())
    waiting = tuple(s for s in live if _inside(positions.button, s, positions.small_blind))
    if len(live) - len(waiting) < 3:
        positions = Positions(
            _before(live, positions.small_blind), positions.small_blind, positions.big_blind
        )
        waiting = ()
    dealt = [s for s in live if s not in waiting]
    order = tuple(sorted(dealt, key=lambda s: _offset(positions.button, s) or _AROUND))
    return Deal(positions, order, waiting)


def hands_until_big_blind(live: Iterable[int], last_big_blind: int, seat: int) -> int:
    """How many hands until the player in ``seat`` (or one newly seated there) posts the big
    blind, 1 meaning the next hand; ``live``: the players dealt in from now on."""
    return 1 + sum(1 for s in live if s != seat and _inside(last_big_blind, s, seat))


def choose_seat(
    empty: Iterable[int], live: Sequence[int], last_big_blind: int, at_least: int
) -> tuple[int, int]:
    """League 14: the empty seat most like a position ``at_least`` hands from the big blind and
    no less favourable (the closest such; the lowest seat among equals), or if none is that
    good, the most favourable one. Returns (seat, hands until its big blind)."""
    scored = [(hands_until_big_blind(live, last_big_blind, s), s) for s in empty]
    if not scored:
        raise ValueError("no empty seat")
    good = [item for item in scored if item[0] >= at_least]
    if good:
        distance, seat = min(good)
    else:
        distance, seat = max(scored, key=lambda item: (item[0], -item[1]))
    return seat, distance


def dealer_draw(
    seats: Sequence[int], shuffler: Shuffler
) -> tuple[tuple[tuple[int, Card], ...], int]:
    """League 2: every player draws a card, the highest card has the button; players tied on
    the highest rank draw again until one is highest. Returns the draws in order and the
    winner's seat."""
    deck = Deck.shuffled(DeckKind.STANDARD, shuffler)
    drawing = list(seats)
    drawn: list[tuple[int, Card]] = []
    while True:
        if len(deck) < len(drawing):
            deck = Deck.shuffled(DeckKind.STANDARD, shuffler)
        cards = [(seat, deck.deal()[0]) for seat in drawing]
        drawn.extend(cards)
        best = max(card.rank for _, card in cards)
        drawing = [seat for seat, card in cards if card.rank == best]
        if len(drawing) == 1:
            return tuple(drawn), drawing[0]


def seat_draw(
    players: Sequence[str], tables: Sequence[int], table_size: int, rng: random.Random
) -> list[tuple[str, int, int]]:
    """The random seat draw: every player gets a table and a seat, the tables' numbers of
    players differing by at most one. Returns (player, table, seat) in ``players`` order."""
    count, spread = len(players), len(tables)
    if count > spread * table_size:
        raise ValueError(f"{count} players do not fit at {spread} tables of {table_size}")
    bigger = set(rng.sample(list(tables), count % spread))
    cards: list[tuple[int, int]] = []
    for table in tables:
        size = count // spread + (table in bigger)
        cards.extend((table, seat) for seat in sorted(rng.sample(range(1, table_size + 1), size)))
    rng.shuffle(cards)
    return [(player, table, seat) for player, (table, seat) in zip(players, cards, strict=True)]
