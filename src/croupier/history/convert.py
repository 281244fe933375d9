"""One hand history into another format: PHH, PokerStars text, Open Hand History, JSON events.

:func:`convert` replays a PHH hand on the engine and writes the hand as one viewer saw it
(:data:`~croupier.events.HOUSE`: every card the history records; a player's index: that
player's record). A card the history does not name stays unknown: ``??`` in PHH, no ``Dealt
to`` line in PokerStars text, no ``Dealt Cards`` in OHH, ``??`` in the event log. The
history's own fields give the names, seats, table, hand number, time and tournament where it
has them. A hand without a number gets one from its own content (the same each time); a hand
without a date is written with the time of the conversion (a tracker needs one), never the
Unix epoch.
"""

from __future__ import annotations

import enum
import hashlib
import json
from dataclasses import replace

from croupier.events import HOUSE
from croupier.history.identity import TOURNAMENT, IdentityError, identity_of
from croupier.history.ohh import OHHError
from croupier.history.phh import HandHistory, PHHError, dump_phh
from croupier.history.replay import replay
from croupier.history.text import TextHistoryError
from croupier.history.write import log_text, ohh_object, pokerstars_text
from croupier.history.writer import history_from_hand

__all__ = ["ConvertError", "Format", "convert"]


class Format(enum.Enum):
    PHH = "phh"
    POKERSTARS = "pokerstars"
    OHH = "ohh"
    JSONL = "jsonl"


class ConvertError(ValueError):
    """A hand that cannot be converted: it does not replay, or the format cannot describe it."""


def convert(history: HandHistory, to: Format, viewer: int = HOUSE) -> str:
    """``history`` in the format ``to``, as ``viewer`` saw it, with the hand's identity (its
    number, table, seats, start and tournament: :func:`~croupier.history.identity.identity_of`).
    Raises :class:`ConvertError` with the reason in one line."""
    result = replay(history)
    if not result.ok:
        raise ConvertError(f"it does not replay: {result.error}")
    hand = result.hand
    assert hand is not None
    if viewer != HOUSE and not 0 <= viewer < hand.players:
        raise ConvertError(f"the hand has players 1..{hand.players}, not {viewer + 1}")
    try:
        identity = identity_of(history)
        if identity.number is None:  # a tracker needs a number, the same each time
            identity = replace(identity, number=_digest(history))
        names = list(history.players) if history.players else None
        if to is Format.PHH:
            fields = {name: getattr(history, name) for name in _KEPT if getattr(history, name)}
            written = history_from_hand(hand, viewer=viewer, **fields)
            user = {
                k: v
                for k, v in history.user_fields.items()
                if not k.startswith("_croupier") or k == TOURNAMENT
            }
            if user:
                written = replace(written, user_fields={**written.user_fields, **user})
            return dump_phh(written)
        if to is Format.JSONL:
            extra = {"variant": history.variant}
            return log_text(hand, viewer=viewer, identity=identity, names=names,
                            extra=extra) + "\n"  # fmt: skip
        if to is Format.POKERSTARS:
            return pokerstars_text(hand, viewer=viewer, identity=identity, names=names)
        return json.dumps(ohh_object(hand, viewer=viewer, identity=identity, names=names),
                          indent=1) + "\n"  # fmt: skip
    except (PHHError, TextHistoryError, OHHError, IdentityError) as error:
        raise ConvertError(str(error)) from None


_KEPT = (
    "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country",
    "time", "time_zone", "time_zone_abbreviation", "day", "month", "year", "hand", "level",
    "seats", "seat_count", "table", "players", "currency", "currency_symbol",
)  # fmt: skip


def _digest(history: HandHistory) -> int:
    """A hand number for a history that gives none: from its variant, stacks and actions, so
    that the same hand converts to the same number and different hands to different ones."""
    played = repr((history.variant, history.starting_stacks, history.actions, history.players))
    return int(hashlib.sha256(played.encode()).hexdigest()[:15], 16) % 10**12
