"""A table's events (:mod:`croupier.table_events`) as JSON, and back, exactly.

The server stores every table event, in order, beside the hands' own logs; after a restart
``Table(same settings).restore(events, hand)`` makes the same table again: the same seats,
button, blinds owed and hands dealt. An event holds plain values and a few of the engine's own
records (``Rules``, ``BuyIn``, ``ForcedBets``, cards), so the encoding is generic: a dataclass
is its class name and its fields, an enum its class name and member name, a card its text, a
``Fraction`` ``"n/d"``, a dict its (key, value) pairs.

Tuples become JSON lists and come back as tuples: every sequence in these frozen records is a
tuple. A value the encoding does not know (a class from elsewhere) is a :class:`TableLogError`,
never a silently different event.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from fractions import Fraction
from types import ModuleType

from croupier import (
    betting,
    blinds,
    cards,
    deck,
    forced,
    games,
    pots,
    rules,
    table_events,
    table_state,
)
from croupier.cards import Card
from croupier.evaluate import rankings
from croupier.wire import JSONDecodeError, dumps, loads

__all__ = ["TableLogError", "decode", "dumps_event", "encode", "loads_event", "loads_events"]


class TableLogError(ValueError):
    """A table event (or stored record) this encoding cannot write or read back."""


def _registry(*modules: ModuleType) -> dict[str, type]:
    """The dataclasses and enums the modules define, by class name (names are unique)."""
    found: dict[str, type] = {}
    for module in modules:
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue
            if dataclasses.is_dataclass(value) or issubclass(value, enum.Enum):
                if found.get(value.__name__, value) is not value:
                    raise TableLogError(f"two record classes named {value.__name__}")
                found[value.__name__] = value
    return found


KINDS = _registry(
    table_events, table_state, rules, betting, pots, forced, deck, blinds, games, rankings, cards
)
"""Every class a table event may hold, by name."""

_CLASS, _ENUM, _CARD, _FRACTION, _DICT = "$", "$enum", "$card", "$fraction", "$dict"


def encode(value: object) -> object:
    """``value`` as JSON-ready data (see the module's doc)."""
    if isinstance(value, enum.Enum):  # first: some enums are ints or strings
        return {_ENUM: type(value).__name__, "name": value.name}
    if isinstance(value, Card):  # before int: a card is an int
        return {_CARD: str(value)}
    if value is None or isinstance(value, bool | str | float | int):
        return value
    if isinstance(value, Fraction):
        return {_FRACTION: f"{value.numerator}/{value.denominator}"}
    if isinstance(value, tuple | list):
        return [encode(item) for item in value]
    if isinstance(value, dict):
        return {_DICT: [[encode(k), encode(v)] for k, v in value.items()]}
    kind = type(value)
    if dataclasses.is_dataclass(value) and KINDS.get(kind.__name__) is kind:
        data: dict[str, object] = {_CLASS: kind.__name__}
        for field in dataclasses.fields(value):
            if field.init:
                data[field.name] = encode(getattr(value, field.name))
        return data
    raise TableLogError(f"cannot store a {kind.__name__} in a table event: {value!r}")


def decode(data: object) -> object:
    """The value :func:`encode` wrote."""
    if data is None or isinstance(data, bool | str | int | float):
        return data
    if isinstance(data, list):
        return tuple(decode(item) for item in data)
    if not isinstance(data, dict):
        raise TableLogError(f"not a stored value: {data!r}")
    try:
        if _CARD in data:
            return Card(str(data[_CARD]))
        if _ENUM in data:
            kind = _kind(data[_ENUM])
            if not issubclass(kind, enum.Enum):
                raise TableLogError(f"{kind.__name__} is not an enum")
            return kind[str(data["name"])]
        if _FRACTION in data:
            return Fraction(str(data[_FRACTION]))
        if _DICT in data:
            return {decode(k): decode(v) for k, v in data[_DICT]}
        kind = _kind(data[_CLASS])
        return kind(**{name: decode(value) for name, value in data.items() if name != _CLASS})
    except TableLogError:
        raise
    except (KeyError, TypeError, ValueError) as error:
        raise TableLogError(f"a stored record does not read back ({error}): {data!r}") from None


def _kind(name: object) -> type:
    kind = KINDS.get(str(name))
    if kind is None:
        raise TableLogError(f"unknown record class {name!r} in a stored table event")
    return kind


def dumps_event(event: table_events.TableEvent) -> str:
    """One table event as a JSON text."""
    return dumps(encode(event))


def loads_event(text: str) -> table_events.TableEvent:
    """The table event :func:`dumps_event` wrote."""
    try:
        data = loads(text)
    except JSONDecodeError as error:
        raise TableLogError(f"a stored table event is not JSON: {error}") from None
    event = decode(data)
    if not isinstance(event, table_events.TableEvent):
        raise TableLogError(f"not a table event: {text[:200]!r}")
    return event


def loads_events(texts: Sequence[str]) -> list[table_events.TableEvent]:
    return [loads_event(text) for text in texts]
