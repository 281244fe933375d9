"""A finished hand written for a player: PHH, PokerStars text and the event log, as their seat
saw it, each with the hand's identity (the card room's hand id, the table's name and size, the
real seats, the start, a tournament hand's tournament and level), through the writers every
history takes (croupier.history.write).

Each seat's history shows its own hole cards and the cards others showed, never a card it did
not see (a history that would is refused); an admin may have the house's record, every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Protocol

from croupier import events as ev
from croupier.cards import Card
from croupier.forced import ForcedBets
from croupier.games import GameError
from croupier.hand import Hand
from croupier.history import PHHError, TextHistoryError, dump_phh
from croupier.history.identity import HandIdentity, TournamentIdentity
from croupier.history.write import log_text, phh_history, pokerstars_text
from croupier.rulebooks import RulebookError
from croupier.server.rooms.game_table import GameTable, Move, RuleError
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.store.hands import Finished
from croupier.server.store.table_log import TableLogError, decode
from croupier.wire import loads

__all__ = ["Dealt", "deal_again", "event_log", "identity", "phh", "pokerstars"]


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
    tournament table's (a GameTable too: GameTable.dealt_from)."""

    @property
    def hand(self) -> Hand | None: ...
    @property
    def spec(self) -> TableSpec: ...
    @property
    def order(self) -> tuple[int, ...]: ...
    def player_of(self, seat: int | None) -> int | None: ...


def identity(
    game: Dealt,
    hand_id: int,
    table: str | int,
    started: float,
    tournament: TournamentIdentity | None = None,
) -> HandIdentity:
    """What a tracker files the hand under: the card room's hand id, the table's name and
    size, the seats in deal order, the start (``started``: seconds since the epoch, as
    stored) and the tournament with its level."""
    return HandIdentity(
        number=hand_id, table=table, seat_count=game.spec.seats, seats=tuple(game.order),
        started=datetime.fromtimestamp(round(float(started)), UTC), tournament=tournament,
    )  # fmt: skip


def phh(
    game: Dealt,
    seat: int | None,
    names: Sequence[str],
    *,
    house: bool = False,
    options: dict[str, object] | None,
    identity: HandIdentity | None = None,
) -> str:
    """The finished hand as PHH, as ``seat`` saw it: other players' hidden cards are
    ``??`` unless shown (``house``: every card, the house's record); ``options``: the house
    options its book was asked for (:attr:`GameTable.options`), None for house rules;
    ``identity``: the hand's number, table, seats, start and tournament. Raises
    :class:`RuleError` where PHH cannot describe it."""
    hand = game.hand
    if hand is None:
        raise RuleError("no hand to write")
    player = game.player_of(seat)
    seen = set(hand.rules.deck.cards) if house else _cards_seen(hand, player)
    try:
        book = game.spec.rulebook
        history = phh_history(
            hand, viewer=ev.HOUSE, identity=identity, names=names, rulebook=book,
            options=options or None,
        )  # fmt: skip
    except (PHHError, GameError, RulebookError) as error:
        raise RuleError(str(error)) from None
    masked = tuple(_mask(line, seen) for line in history.actions)
    text = dump_phh(replace(history, actions=masked))
    hidden = {str(c) for c in hand.rules.deck.cards} - {str(c) for c in seen}
    leaked = [line for line in masked for token in _card_tokens(line) if token in hidden]
    if leaked:  # never write a card the seat did not see: refuse rather than leak
        raise RuleError(f"the history would show hidden cards ({leaked[0]!r})")
    return text


def _viewer(game: Dealt, seat: int | None, house: bool) -> tuple[Hand, int]:
    hand = game.hand
    if hand is None:
        raise RuleError("no hand to write")
    player = game.player_of(seat)
    if player is None and not house:
        raise RuleError(f"seat {seat} was not dealt into this hand")
    return hand, ev.HOUSE if house or player is None else player


def pokerstars(
    game: Dealt,
    seat: int | None,
    names: Sequence[str],
    *,
    house: bool = False,
    identity: HandIdentity | None = None,
) -> str:
    """The finished hand as PokerStars text, as ``seat`` saw it (its own hidden cards and
    discards, everyone's up cards, and others' hidden cards only where shown); ``house``: every
    card. A seat not dealt in sees no history here: it has none of its own. ``identity``: the
    hand's number, table, seats, start, and a tournament hand's tournament and level (amounts
    in chips)."""
    hand, viewer = _viewer(game, seat, house)
    try:
        return pokerstars_text(hand, viewer=viewer, identity=identity, names=names)
    except TextHistoryError as error:
        raise RuleError(str(error)) from None


def event_log(
    game: Dealt,
    seat: int | None,
    names: Sequence[str],
    *,
    house: bool = False,
    identity: HandIdentity | None = None,
) -> str:
    """The finished hand as croupier's event log (one JSON line), as ``seat`` saw it: every
    event, the others' hidden cards ``??`` unless shown; the identity's fields with it."""
    hand, viewer = _viewer(game, seat, house)
    return log_text(hand, viewer=viewer, identity=identity, names=names) + "\n"


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
