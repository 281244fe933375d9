"""The ``.jsonl`` event log read back: every event of every game survives the round trip,
in the compiled build (whose events keep no annotations) as in the pure one."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

import croupier.events as ev
from croupier.history import event_record
from croupier.history.formats import _CARD_FIELDS, HistoryFileError, event_from_record
from test_dealer_operations import random_hands


def _card_fields_in_source() -> dict[str, frozenset[str]]:
    """Each event's fields whose annotation names Card, read from events.py's source
    (independent of the build, so the compiled events' erased annotations cannot hide one)."""
    tree = ast.parse((Path(ev.__file__).parent / "events.py").read_text(encoding="utf-8"))
    found: dict[str, set[str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if (
                isinstance(item, ast.AnnAssign)
                and isinstance(item.target, ast.Name)
                and "Card" in ast.unparse(item.annotation)
            ):
                found.setdefault(node.name, set()).add(item.target.id)
    return {name: frozenset(fields) for name, fields in found.items()}


def test_every_card_field_of_the_events_is_read_as_cards() -> None:
    assert _card_fields_in_source() == dict(_CARD_FIELDS)


def test_every_event_of_random_hands_of_every_game_reads_back_equal() -> None:
    for hand in random_hands(140, seed=12):
        for event in hand.events:
            record = json.loads(json.dumps(event_record(event)))
            assert event_from_record(record) == event


def test_a_malformed_record_is_named() -> None:
    with pytest.raises(HistoryFileError, match="unknown event"):
        event_from_record({"event": "Teleport"})
    with pytest.raises(HistoryFileError, match="without its 'cards'"):
        event_from_record({"event": "DealHole", "player": 0})
    with pytest.raises(HistoryFileError, match="whole number"):
        event_from_record({"event": "Fold", "player": "x"})
    with pytest.raises(HistoryFileError, match="expected a list"):
        event_from_record({"event": "HandOver", "stacks": 5})
