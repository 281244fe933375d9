"""One hand history into another format: PHH, PokerStars text, Open Hand History, JSON events.

:func:`convert` replays a PHH hand on the engine and writes the hand as one viewer saw it
(:data:`~croupier.events.HOUSE`: every card the history records; a player's index: that
player's record). A card the history does not name stays unknown: ``??`` in PHH, no ``Dealt
to`` line in PokerStars text, no ``Dealt Cards`` in OHH, ``??`` in the event log. The
history's own fields give the names, seats, table, hand number and time where it has them.
"""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import replace
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croupier.events import HOUSE
from croupier.history.log import dump_event_log
from croupier.history.ohh import OHHError, dump_ohh
from croupier.history.phh import HandHistory, PHHError, dump_phh
from croupier.history.replay import replay
from croupier.history.text import TextHistoryError, format_pokerstars
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
    """``history`` in the format ``to``, as ``viewer`` saw it. Raises :class:`ConvertError`
    with the reason in one line."""
    result = replay(history)
    if not result.ok:
        raise ConvertError(f"it does not replay: {result.error}")
    hand = result.hand
    assert hand is not None
    if viewer != HOUSE and not 0 <= viewer < hand.players:
        raise ConvertError(f"the hand has players 1..{hand.players}, not {viewer + 1}")
    try:
        if to is Format.PHH:
            fields = {name: getattr(history, name) for name in _KEPT if getattr(history, name)}
            written = history_from_hand(hand, viewer=viewer, **fields)
            user = {k: v for k, v in history.user_fields.items() if not k.startswith("_croupier")}
            if user:
                written = replace(written, user_fields={**written.user_fields, **user})
            return dump_phh(written)
        if to is Format.JSONL:
            return dump_event_log(hand, viewer, extra=_extra(history)) + "\n"
        table = _Table(history)
        if to is Format.POKERSTARS:
            return format_pokerstars(
                hand, viewer=viewer, when=table.when, hand_id=table.hand_id, table=table.name,
                names=table.names, seats=table.seats, max_seats=table.max_seats,
            )  # fmt: skip
        text = dump_ohh(
            hand, viewer=viewer, when=table.when, hand_id=table.hand_id, table=table.name,
            names=table.names, seats=table.seats, max_seats=table.max_seats,
        )  # fmt: skip
        return text + "\n"
    except (PHHError, TextHistoryError, OHHError) as error:
        raise ConvertError(str(error)) from None


_KEPT = (
    "author", "event", "url", "venue", "address", "city", "region", "postal_code", "country",
    "time", "time_zone", "time_zone_abbreviation", "day", "month", "year", "hand", "level",
    "seats", "seat_count", "table", "players", "currency", "currency_symbol",
)  # fmt: skip


def _extra(history: HandHistory) -> dict[str, object]:
    return {
        "variant": history.variant,
        "players": list(history.players) if history.players else None,
        "hand": history.hand,
    }


class _Table:
    """What the history says of the table: names, seats, its size and name, the hand's number
    and time."""

    def __init__(self, history: HandHistory) -> None:
        self.when = _when(history)
        self.names = list(history.players) if history.players else None
        self.seats = list(history.seats) if history.seats else None
        self.max_seats = history.seat_count or None
        self.name = str(history.table) if history.table is not None else "croupier"
        number = str(history.hand) if history.hand is not None else ""
        self.hand_id = int(number) if number.isdigit() else 1


def _when(history: HandHistory) -> dt.datetime:
    """The hand's time from its fields (midnight when only the day is given; UTC when no
    zone is); without a date, the Unix epoch, so that a conversion never invents the present."""
    if history.year is None or history.month is None or history.day is None:
        return dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    zone: dt.tzinfo = dt.UTC
    if history.time_zone:
        try:
            zone = ZoneInfo(history.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ConvertError(f"time_zone {history.time_zone!r} is not a known zone") from None
    clock = history.time or dt.time(0, 0)
    return dt.datetime.combine(dt.date(history.year, history.month, history.day), clock, zone)
