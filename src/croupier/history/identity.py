"""A hand's identity: what a tracker files it under, carried by every history croupier writes.

A tracker (PokerTracker, Hold'em Manager, Hand2Note, GTO Wizard) de-duplicates hands by their
number and sorts them by their time, and shows each at its table, with its seats, in its
tournament. :class:`HandIdentity` holds these: the hand's number (the card room's hand id; for
``play`` and ``sim``, the session's sequence, unique across a saved file), the table's name and
size, each player's real seat, the start in UTC, and the tournament and its level where there
is one.

PHH carries them in the standard's own fields (phh-std, optional fields): ``hand``, ``table``,
``seat_count``, ``seats`` (per player, PHH order), ``year``/``month``/``day``/``time`` with
``time_zone = "UTC"`` (and its abbreviation), ``event`` (the tournament's name) and ``level``;
the tournament's number and buy-in, which no standard field holds, go in
``_croupier_tournament`` (docs/phh-extensions.md). :func:`identity_fields` writes them,
:func:`identity_of` reads them back from any PHH hand (a zone other than UTC included), and
every writer (PHH, PokerStars text, OHH, the event log) takes the same identity.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from croupier.history.extensions import TOURNAMENT
from croupier.history.fields import HandHistory

__all__ = [
    "TOURNAMENT",
    "HandIdentity",
    "IdentityError",
    "TournamentIdentity",
    "hand_number",
    "identity_fields",
    "identity_of",
    "log_identity",
    "session_number",
    "with_identity",
]

SESSIONS_FROM = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
"""Sessions are numbered by their start in milliseconds from here (:func:`session_number`)."""
PER_SESSION = 10**6
"""A session's hands are numbered from ``session * PER_SESSION + 1`` (:func:`hand_number`)."""
_last_session = 0


def session_number(started: dt.datetime) -> int:
    """The number of a session (``play``, ``sim``, a ``tournament`` run) that starts at
    ``started``: its millisecond counted from 2020 (one more than the last session's of this
    process if that is not later), so that two sessions do not share one."""
    global _last_session
    number = max((started - SESSIONS_FROM) // dt.timedelta(milliseconds=1), _last_session + 1)
    _last_session = number
    return number


def hand_number(session: int, sequence: int) -> int:
    """Hand ``sequence`` (1 on) of ``session`` as a tracker's hand number: the session's
    number, then six digits of the sequence (``218_833_655_123_000_042``: 18 digits, within
    the 64-bit integers trackers keep hand numbers in until the 2290s). Hands of one session,
    or of sessions a millisecond apart and under a million hands each, never share one."""
    return session * PER_SESSION + sequence


# TOURNAMENT: the user field of a tournament hand's number, buy-in and fee (no phh-std field
# holds them), one of croupier's fields (croupier.history.extensions).


class IdentityError(ValueError):
    """Identity fields that do not describe a hand (an unknown time zone, a bad date)."""


@dataclass(frozen=True)
class TournamentIdentity:
    """A tournament hand's tournament: its number, name, the blind level the hand was dealt at
    (1 on), and the buy-in and fee (``None``: a freeroll) in ``currency``."""

    number: int | str
    level: int
    name: str | None = None
    buy_in: Decimal | None = None
    fee: Decimal = Decimal(0)
    currency: str = "USD"


@dataclass(frozen=True)
class HandIdentity:
    """What a tracker files a hand under. ``seats``: each player's seat, in deal order (PHH
    order: the button last); ``started``: the hand's start, with its time zone."""

    number: int | str | None = None
    table: str | int | None = None
    seat_count: int | None = None
    seats: tuple[int, ...] | None = None
    started: dt.datetime | None = None
    tournament: TournamentIdentity | None = None

    def __post_init__(self) -> None:
        if self.started is not None and self.started.utcoffset() is None:
            raise IdentityError(f"a hand's start needs its time zone, got {self.started}")

    def hand_id(self, default: int = 1) -> int:
        """The number as PokerStars writes it (digits), else ``default``."""
        text = str(self.number) if self.number is not None else ""
        return int(text) if text.isdigit() else default

    def with_seats(self, seats: Sequence[int] | None) -> HandIdentity:
        return replace(self, seats=tuple(seats) if seats is not None else None)


_UTC = "UTC"


def identity_fields(identity: HandIdentity) -> dict[str, Any]:
    """The PHH fields that carry ``identity``: phh-std's own (the start written in UTC) and,
    for a tournament, the user field :data:`TOURNAMENT` (see :func:`with_identity`)."""
    fields: dict[str, Any] = {}
    if identity.number is not None:
        fields["hand"] = identity.number
    if identity.table is not None:
        fields["table"] = identity.table
    if identity.seat_count is not None:
        fields["seat_count"] = identity.seat_count
    if identity.seats is not None:
        fields["seats"] = tuple(identity.seats)
    if identity.started is not None:
        utc = identity.started.astimezone(dt.UTC)
        fields.update(
            year=utc.year, month=utc.month, day=utc.day,
            time=dt.time(utc.hour, utc.minute, utc.second),
            time_zone=_UTC,
        )  # fmt: skip
    tournament = identity.tournament
    if tournament is not None:
        if tournament.name is not None:
            fields["event"] = tournament.name
        fields["level"] = tournament.level
        described: dict[str, Any] = {"number": tournament.number}
        if tournament.buy_in is not None:
            described["buy_in"] = str(tournament.buy_in)
            described["fee"] = str(tournament.fee)
        described["currency"] = tournament.currency
        fields[TOURNAMENT] = described
    return fields


def with_identity(history: HandHistory, identity: HandIdentity | None) -> HandHistory:
    """``history`` with ``identity``'s fields (none given: as it is)."""
    if identity is None:
        return history
    fields = identity_fields(identity)
    user = fields.pop(TOURNAMENT, None)
    if user is not None:
        fields["user_fields"] = {**history.user_fields, TOURNAMENT: user}
    return replace(history, **fields)


def identity_of(history: HandHistory) -> HandIdentity:
    """The identity a PHH hand's fields give (a :class:`~croupier.history.HandHistory`):
    the date and time in its ``time_zone`` (UTC when it names none; midnight when only the day
    is given), the tournament from ``_croupier_tournament`` with ``level`` and ``event``, or
    from ``level`` and ``event`` alone. Raises :class:`IdentityError` for an unknown zone."""
    started = None
    if history.year is not None and history.month is not None and history.day is not None:
        zone: dt.tzinfo = dt.UTC
        if history.time_zone and history.time_zone.upper() != _UTC:
            try:
                zone = ZoneInfo(history.time_zone)
            except (ZoneInfoNotFoundError, ValueError):
                raise IdentityError(
                    f"time_zone {history.time_zone!r} is not a known zone"
                ) from None
        clock = history.time or dt.time(0, 0)
        try:
            day = dt.date(history.year, history.month, history.day)
        except ValueError as error:
            raise IdentityError(f"the date is not a day: {error}") from None
        started = dt.datetime.combine(day, clock, zone)
    user = history.user_fields.get(TOURNAMENT)
    tournament = None
    if isinstance(user, Mapping) or history.level is not None:
        tournament = _tournament(user if isinstance(user, Mapping) else {}, history)
    seats = tuple(history.seats) if history.seats else None
    return HandIdentity(history.hand, history.table, history.seat_count, seats, started, tournament)


def _tournament(user: Mapping[str, Any], history: HandHistory) -> TournamentIdentity:
    number = user.get("number")
    if not isinstance(number, int | str) or isinstance(number, bool):
        digits = "".join(c for c in str(history.event or "") if c.isdigit())
        number = int(digits) if digits else 0
    buy_in = _decimal(user.get("buy_in"))
    fee = _decimal(user.get("fee")) or Decimal(0)
    currency = user.get("currency")
    return TournamentIdentity(
        number, max(1, history.level or 1), history.event, buy_in, fee,
        currency if isinstance(currency, str) else "USD",
    )  # fmt: skip


def _decimal(value: object) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        return Decimal(str(value))
    except InvalidOperation:
        return None


def log_identity(identity: HandIdentity) -> dict[str, Any]:
    """The identity as the event log's JSON fields (``started``: ISO 8601 in UTC)."""
    out: dict[str, Any] = {}
    if identity.number is not None:
        out["hand"] = identity.number
    if identity.table is not None:
        out["table_name"] = identity.table
    if identity.seat_count is not None:
        out["seat_count"] = identity.seat_count
    if identity.seats is not None:
        out["seats"] = list(identity.seats)
    if identity.started is not None:
        out["started"] = identity.started.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if identity.tournament is not None:
        t = identity.tournament
        out["tournament"] = {
            "number": t.number, "name": t.name, "level": t.level,
            "buy_in": None if t.buy_in is None else str(t.buy_in), "fee": str(t.fee),
            "currency": t.currency,
        }  # fmt: skip
    return out
