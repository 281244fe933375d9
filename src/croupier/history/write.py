"""One path from a finished hand to each history format, with the hand's identity.

Every writer croupier has goes through here: the card room's downloads, ``play --save``,
``sim --save``, ``tournament --save-hands`` and ``convert``. Each takes the hand, the viewer
(whose record: a player's index, the spectator, or :data:`~croupier.events.HOUSE`), the
players' names in deal order and the hand's :class:`~croupier.history.identity.HandIdentity`
(number, table, size, seats, start, tournament), and writes them where the format keeps them:

- PHH: the standard fields ``hand``, ``table``, ``seat_count``, ``seats``, ``year`` ..
  ``time`` with ``time_zone``, ``event`` and ``level`` (:func:`phh_history`);
- PokerStars text: the header's number, local and Eastern time, tournament and level, the
  table line's name and size, the real seats (:func:`pokerstars_text`);
- OHH: ``game_number``, ``start_date_utc``, ``table_name``, ``table_size`` and the seats
  (:func:`ohh_object`);
- the event log: ``hand``, ``table_name``, ``seat_count``, ``seats``, ``started``,
  ``tournament`` (:func:`log_text`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from croupier.hand import Hand
from croupier.history.identity import HandIdentity, log_identity, with_identity
from croupier.history.log import dump_event_log
from croupier.history.ohh import ohh_from_hand
from croupier.history.phh import HandHistory
from croupier.history.text import Tournament, format_pokerstars
from croupier.history.writer import history_from_hand

__all__ = [
    "log_text", "ohh_object", "ohh_text", "phh_history", "pokerstars_text", "started_now",
]  # fmt: skip


def started_now() -> datetime:
    """The present, to the second, in UTC: a hand's start as it is dealt."""
    return datetime.now(UTC).replace(microsecond=0)


def phh_history(
    hand: Hand,
    *,
    viewer: int,
    identity: HandIdentity | None = None,
    names: Sequence[str] | None = None,
    rulebook: str | None = None,
    options: Mapping[str, object] | None = None,
    **fields: Any,
) -> HandHistory:
    """The hand as a PHH hand history with its identity's fields; ``fields``: more standard
    fields (:func:`~croupier.history.history_from_hand`)."""
    named = {"players": tuple(names)} if names is not None else {}
    history = history_from_hand(
        hand, viewer=viewer, rulebook=rulebook, options=options, **named, **fields
    )
    return with_identity(history, identity)


def _seats(identity: HandIdentity | None, count: int) -> list[int] | None:
    if identity is None or identity.seats is None or len(identity.seats) != count:
        return None
    return list(identity.seats)


def _when(identity: HandIdentity | None) -> datetime:
    if identity is not None and identity.started is not None:
        return identity.started
    return started_now()


def pokerstars_text(
    hand: Hand,
    *,
    viewer: int,
    identity: HandIdentity | None = None,
    names: Sequence[str] | None = None,
) -> str:
    """The hand as PokerStars text (:func:`~croupier.history.format_pokerstars`) with its
    identity: ``Hand #number``, the tournament and level, the start, the table and seats.
    Raises :class:`~croupier.history.TextHistoryError` for a game PokerStars does not deal."""
    identity = identity or HandIdentity()
    event = identity.tournament
    tournament = None
    if event is not None:
        tournament = Tournament(event.number, event.level, event.buy_in, event.fee, event.currency)
    table = str(identity.table) if identity.table is not None else "croupier"
    if event is not None and table.isdigit():
        table = f"{event.number} {table}"  # PokerStars names a tournament's tables so
    return format_pokerstars(
        hand, viewer=viewer, when=_when(identity), hand_id=identity.hand_id(),
        table=table, names=list(names) if names is not None else None,
        seats=_seats(identity, hand.players), max_seats=identity.seat_count,
        tournament=tournament,
    )  # fmt: skip


def ohh_object(
    hand: Hand,
    *,
    viewer: int,
    identity: HandIdentity | None = None,
    names: Sequence[str] | None = None,
) -> dict[str, Any]:
    """The hand as an Open Hand History object with its identity (``game_number``,
    ``start_date_utc``, ``table_name``, ``table_size``, the seats). A tournament's hand is
    written as a ring game's: the spec's ``tournament_info`` wants what croupier does not
    keep with a hand (the starting stack, the speed)."""
    identity = identity or HandIdentity()
    number = identity.number if identity.number is not None else 1
    ohh = ohh_from_hand(
        hand, viewer=viewer, when=_when(identity), hand_id=number,
        table=str(identity.table) if identity.table is not None else "croupier",
        names=list(names) if names is not None else None,
        seats=_seats(identity, hand.players), max_seats=identity.seat_count,
    )  # fmt: skip
    return ohh


def log_text(
    hand: Hand,
    *,
    viewer: int,
    identity: HandIdentity | None = None,
    names: Sequence[str] | None = None,
    extra: Mapping[str, object] | None = None,
) -> str:
    """The hand as one line of croupier's event log (JSON), with its identity's fields."""
    fields: dict[str, object] = {}
    if identity is not None:
        fields.update(log_identity(identity))
    if names is not None:
        fields["names"] = list(names)
    fields["starting"] = list(hand.starting)
    fields.update(extra or {})
    return dump_event_log(hand, viewer, extra=fields)


def ohh_text(hand: Hand, *, viewer: int, **given: Any) -> str:
    """:func:`ohh_object` as one line of JSON."""
    return json.dumps(ohh_object(hand, viewer=viewer, **given))
