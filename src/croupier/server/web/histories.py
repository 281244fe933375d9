"""A finished hand written for a player: PHH and PokerStars text, as their seat saw it.

Each seat's history shows its own hole cards and the cards others showed, never a card it did
not see (a history that would is refused); an admin may have the house's record, every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Protocol

from croupier import events as ev
from croupier.cards import Card
from croupier.forced import ForcedBets
from croupier.games import GameError
from croupier.hand import Hand
from croupier.history import (
    PHHError,
    TextHistoryError,
    dump_phh,
    format_pokerstars,
    history_from_hand,
)
from croupier.history.text import Tournament
from croupier.rulebooks import RulebookError
from croupier.server.rooms.game_table import GameTable, Move, RuleError
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.store.hands import Finished
from croupier.server.store.table_log import TableLogError, decode
from croupier.wire import loads

__all__ = ["Dealt", "deal_again", "phh", "pokerstars"]


def deal_again(found: Finished) -> GameTable:
    """A finished hand (:func:`croupier.server.store.hands.read_finished`) dealt again from its
    record. Raises :class:`RuleError`,
    :class:`~croupier.server.rooms.table_spec.SpecError` or :class:`TableLogError`."""
    dealt = found.dealt
    return GameTable.of_record(
        TableSpec.from_json(loads(found.row.spec)),
        loads(found.row.deck),
        found.row.seed,
        [row[0] for row in dealt],
        [row[4] for row in dealt],
        [(m.seat, Move.from_json(loads(m.move))) for m in found.moves],
        _forced(found.row.forced),
    )


def _forced(stored: str | None) -> ForcedBets | None:
    """A hand's stored forced bets (None: stored before they were, the usual ones)."""
    if stored is None:
        return None
    forced = decode(loads(stored))
    if not isinstance(forced, ForcedBets):
        raise TableLogError(f"not a hand's forced bets: {stored[:200]!r}")
    return forced


class Dealt(Protocol):
    """A dealt hand as the histories read it: a cash table's (:class:`GameTable`) or a
    tournament table's (croupier.server.tournaments.hand)."""

    @property
    def hand(self) -> Hand | None: ...
    @property
    def spec(self) -> TableSpec: ...
    @property
    def order(self) -> tuple[int, ...]: ...
    def player_of(self, seat: int | None) -> int | None: ...


def phh(
    game: Dealt,
    seat: int | None,
    names: Sequence[str],
    *,
    house: bool = False,
    options: dict[str, object] | None,
) -> str:
    """The finished hand as PHH, as ``seat`` saw it: other players' hidden cards are
    ``??`` unless shown (``house``: every card, the house's record); ``options``: the house
    options its book was asked for (:attr:`GameTable.options`), None for house rules. Raises
    :class:`RuleError` where PHH cannot describe it."""
    hand = game.hand
    if hand is None:
        raise RuleError("no hand to write")
    player = game.player_of(seat)
    seen = set(hand.rules.deck.cards) if house else _cards_seen(hand, player)
    try:
        book = game.spec.rulebook
        history = history_from_hand(
            hand,
            rulebook=book,
            options=options or None,
            players=tuple(names),
        )
    except (PHHError, GameError, RulebookError) as error:
        raise RuleError(str(error)) from None
    masked = tuple(_mask(line, seen) for line in history.actions)
    text = dump_phh(replace(history, actions=masked))
    hidden = {str(c) for c in hand.rules.deck.cards} - {str(c) for c in seen}
    leaked = [line for line in masked for token in _card_tokens(line) if token in hidden]
    if leaked:  # never write a card the seat did not see: refuse rather than leak
        raise RuleError(f"the history would show hidden cards ({leaked[0]!r})")
    return text


def pokerstars(
    game: Dealt,
    seat: int | None,
    names: Sequence[str],
    *,
    house: bool = False,
    hand_id: int = 1,
    table: str = "croupier",
    when: datetime | None = None,
    tournament: Tournament | None = None,
) -> str:
    """The finished hand as PokerStars text, as ``seat`` saw it (its own hidden cards and
    discards, everyone's up cards, and others' hidden cards only where shown); ``house``: every
    card. A seat not dealt in sees no history here: it has none of its own. ``tournament``: a
    tournament hand's header (amounts in chips)."""
    hand = game.hand
    if hand is None:
        raise RuleError("no hand to write")
    player = game.player_of(seat)
    if player is None and not house:
        raise RuleError(f"seat {seat} was not dealt into this hand")
    viewer = ev.HOUSE if house or player is None else player
    try:
        return format_pokerstars(
            hand, viewer=viewer, when=when, hand_id=hand_id, table=table, names=list(names),
            seats=list(game.order), max_seats=game.spec.seats, tournament=tournament,
        )  # fmt: skip
    except TextHistoryError as error:
        raise RuleError(str(error)) from None


def _cards_seen(hand: Hand, player: int | None) -> set[Card]:
    seen: set[Card] = set()
    for event in hand.events:
        shown = event.visible_to(player)
        for name in ("cards", "discarded", "drawn"):
            for card in getattr(shown, name, ()) or ():
                if card is not None:
                    seen.add(card)
    return seen


def _cards_part(line: str) -> tuple[list[str], int] | None:
    """The words of a PHH action and the index of its cards (``d dh p1 AhKh``, ``p1 sd 2c``,
    ``p1 sm AhKh``, ``d db 2c3d4h``), or None for an action without cards."""
    parts = line.split()
    if len(parts) < 2:
        return None
    at = {"dh": 3, "db": 2, "sd": 2, "sm": 2}.get(parts[1])
    if at is None or len(parts) <= at:
        return None
    return parts, at


def _card_tokens(line: str) -> list[str]:
    found = _cards_part(line)
    if found is None:
        return []
    text = found[0][found[1]]
    return [text[i : i + 2] for i in range(0, len(text) - 1, 2)]


def _mask(line: str, seen: set[Card]) -> str:
    """A PHH action line with every card the seat did not see written ``??``."""
    found = _cards_part(line)
    if found is None:
        return line
    parts, at = found
    cards = _card_tokens(line)
    parts[at] = "".join(c if c != "??" and Card.parse(c) in seen else "??" for c in cards)
    return " ".join(parts)
