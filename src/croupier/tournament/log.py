"""The tournament's event log as JSON lines, one event a line, for storage and restarts.

Each record is a JSON object with its ``type`` and its fields; nested records (purchases,
positions, chip races) carry their own ``type``, cards are written as text (``"Ah"``), enums
by value. :func:`load_log` gives back records equal to those dumped, so
``Tournament.rebuild(settings, load_log(text), ...)`` restores the tournament.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Iterable
from typing import Any

from croupier.cards import Card, CardError
from croupier.tournament import events as ev
from croupier.tournament.chips import ColourUp, Race, RaceEntry
from croupier.tournament.seating import Positions
from croupier.tournament.settings import Purchase, TournamentError

__all__ = ["dump_log", "load_log"]

_RECORDS: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        *(
            getattr(ev, name)
            for name in ev.__all__
            if name not in ("SeatReason", "TournamentEvent")
        ),
        Purchase,
        Positions,
        ColourUp,
        Race,
        RaceEntry,
    )
}
_ENUMS: dict[str, type[enum.Enum]] = {"SeatReason": ev.SeatReason}


def _encode(value: object) -> object:
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, enum.Enum):
        return {"enum": type(value).__name__, "value": value.value}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"type": type(value).__name__, **fields}
    if isinstance(value, tuple | list):
        return [_encode(item) for item in value]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise TournamentError(f"cannot write {value!r} to a tournament log")


def _decode(value: object) -> object:
    if isinstance(value, list):
        return tuple(_decode(item) for item in value)
    if not isinstance(value, dict):
        return value
    if "card" in value:
        return Card(str(value["card"]))
    if "enum" in value:
        return _ENUMS[str(value["enum"])](value["value"])
    fields = {key: _decode(item) for key, item in value.items() if key != "type"}
    return _RECORDS[str(value["type"])](**fields)


def dump_log(events: Iterable[ev.TournamentEvent]) -> str:
    """The log as JSON lines."""
    return "".join(json.dumps(_encode(event), separators=(",", ":")) + "\n" for event in events)


def load_log(text: str) -> list[ev.TournamentEvent]:
    """The events of a log written by :func:`dump_log`; a malformed line is an error naming it."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            event = _decode(json.loads(line))
        except (json.JSONDecodeError, KeyError, TypeError, CardError, ValueError) as error:
            raise TournamentError(f"tournament log line {number}: {error}") from None
        if not isinstance(event, ev.TournamentEvent):
            raise TournamentError(f"tournament log line {number}: not an event")
        found.append(event)
    return found
