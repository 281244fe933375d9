"""A hand's event log as JSON: one object per event, cards as text, hidden cards as ``??``."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping

from croupier import events as ev
from croupier.cards import Card
from croupier.hand import Hand

__all__ = ["dump_event_log", "event_record"]


def event_record(event: ev.Event) -> dict[str, object]:
    """``{"event": "Bet", "player": 2, "to": 30, ...}``."""
    kind = type(event)
    names = _FIELDS.get(kind)
    if names is None:  # once per event type: dataclasses.fields() costs as much as the rest
        names = _FIELDS[kind] = tuple(f.name for f in dataclasses.fields(event))
    record: dict[str, object] = {"event": kind.__name__}
    for name in names:
        record[name] = _plain(getattr(event, name))
    return record


_FIELDS: dict[type[ev.Event], tuple[str, ...]] = {}


def dump_event_log(hand: Hand, viewer: int, extra: Mapping[str, object] | None = None) -> str:
    """The hand's events as one JSON object, as ``viewer`` may see them: a player's index,
    :data:`~croupier.events.SPECTATOR`, or :data:`~croupier.events.HOUSE` for the house's full
    record (named, never a default); the final stacks and any ``extra`` fields first."""
    events = [e.visible_to(viewer) for e in hand.events]
    record = {**(extra or {}), "events": [event_record(e) for e in events], "stacks": hand.stacks}
    return json.dumps(record)


def _plain(value: object) -> object:
    if isinstance(value, Card):
        return str(value)
    if value is None:
        return None
    if isinstance(value, tuple):
        return [("??" if item is None else _plain(item)) for item in value]
    return value
