"""The Poker Hand History format (PHH): TOML files of one hand (``.phh``) or many (``.phhs``).

The format is defined by the phh-std specification (uoftcprg/phh-std): a hand is a TOML table of
fields (``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet``, ``starting_stacks``,
``actions``, ... and optional ones such as ``players`` or ``finishing_stacks``); fields whose
name starts with an underscore belong to the user and are kept as they are. A ``.phhs`` file is
a TOML document whose top-level tables are hands (``[1]``, ``[2]``, ...).

Players are ``p1`` .. ``pN`` in PHH order: p1 is the first player dealt (the small blind, first
left of the button), pN the last (the button). :class:`Action` numbers them from 0, as the
engine does.

Reading is strict by default (:class:`PHHError` at the first problem) or lenient
(``strict=False``: each hand comes back with its problems in :attr:`HandHistory.errors`, as
python-chess's PGN reader does). Numbers that TOML writes as floats are read as
:class:`~decimal.Decimal`, so ``0.25`` stays exact and ``inf`` (an unknown stack) is
``Decimal("Infinity")``.

This module reads and writes; the fields and what makes them valid are in
:mod:`croupier.history.fields`, cards and actions in :mod:`croupier.history.actions`, errors and
their locations in :mod:`croupier.history.errors` (every name is re-exported here).
"""

from __future__ import annotations

import dataclasses
import datetime
import os
from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any

import tomli

from croupier.history.actions import (
    Action,
    ActionKind,
    Amount,
    format_number,
    format_phh_cards,
    parse_action,
    parse_phh_cards,
)
from croupier.history.errors import Origin, PHHError
from croupier.history.fields import (
    EXPECTED,
    FIELD_KINDS,
    VARIANTS,
    HandHistory,
    field_problems,
    typed_value,
)
from croupier.history.layout import BARE_KEY, Document, HandLines

__all__ = [
    "VARIANTS",
    "Action",
    "ActionKind",
    "Amount",
    "HandHistory",
    "Origin",
    "PHHError",
    "dump_phh",
    "dump_phhs",
    "format_phh_cards",
    "load_phh",
    "load_phhs",
    "parse_action",
    "parse_phh_cards",
]


# ---------------------------------------------------------------------------------------------
# Reading


def load_phh(
    source: str | bytes | os.PathLike[str], *, strict: bool = True, file: str | None = None
) -> HandHistory:
    """Read one hand from PHH text or a ``.phh`` file.

    ``source`` is a path (:class:`os.PathLike`, or a string with no newline and no ``=``) or
    the text itself. Strict: raises :class:`PHHError` at the first problem. Lenient: the hand
    comes back with its problems in :attr:`HandHistory.errors`."""
    text, file = _read(source, file)
    try:
        raw = tomli.loads(text, parse_float=_parse_float)
    except tomli.TOMLDecodeError as error:
        problem = _toml_error(error, file, None, None)
        if strict:
            raise problem from None
        return HandHistory(errors=(problem,), origin=Origin(file=file))
    return _build(raw, Document(text), (), Origin(file=file), strict)


def load_phhs(
    source: str | bytes | os.PathLike[str], *, strict: bool = True, file: str | None = None
) -> list[HandHistory]:
    """Read a ``.phhs`` collection: each top-level table is a hand (``[1]``, ``[2]``, ...).

    The hands keep their table names in :attr:`HandHistory.name`. Strict: raises at the first
    problem. Lenient: every hand comes back with its own problems; a TOML syntax error spoils only
    the hand whose table holds it."""
    text, file = _read(source, file)
    scanned = Document(text)
    try:
        raw = tomli.loads(text, parse_float=_parse_float)
    except tomli.TOMLDecodeError as error:
        if strict:
            raise _toml_error(error, file, None, None) from None
        return _load_chunks(scanned, file)
    histories = []
    for index, (name, table) in enumerate(raw.items()):
        origin = Origin(file=file, hand=index, name=name)
        if not isinstance(table, dict):
            problem = origin.error(
                f"expected a table of fields ([{name}]), got {table!r}",
                line=scanned.layout.keys.get((name,)),
            )
            if strict:
                raise problem
            histories.append(HandHistory(name=name, errors=(problem,), origin=origin))
            continue
        histories.append(_build(table, scanned, (name,), origin, strict))
    return histories


def _load_chunks(scanned: Document, file: str | None) -> list[HandHistory]:
    """Lenient reading of a .phhs that is not valid TOML as a whole: each hand's tables alone."""
    lines = scanned.text.splitlines(keepends=True)
    starts: list[tuple[int, str]] = []
    for path, line in sorted(scanned.layout.headers.items(), key=lambda item: item[1]):
        if path and (not starts or starts[-1][1] != path[0]):
            starts.append((line, path[0]))
    histories = []
    for index, (line, name) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines) + 1
        chunk = "\n" * (line - 1) + "".join(lines[line - 1 : end - 1])
        origin = Origin(file=file, hand=index, name=name)
        try:
            raw = tomli.loads(chunk, parse_float=_parse_float)
        except tomli.TOMLDecodeError as error:
            problem = _toml_error(error, file, index, name)
            histories.append(HandHistory(name=name, errors=(problem,), origin=origin))
            continue
        table = raw.get(name)
        if isinstance(table, dict):
            histories.append(_build(table, scanned, (name,), origin, strict=False))
    return histories


def _read(source: str | bytes | os.PathLike[str], file: str | None) -> tuple[str, str | None]:
    if isinstance(source, bytes):
        return source.decode("utf-8-sig"), file
    if isinstance(source, os.PathLike) or ("\n" not in source and "=" not in source):
        path = Path(source)
        try:
            return path.read_text(encoding="utf-8-sig"), file or str(path)
        except OSError as error:
            raise PHHError(f"cannot read the file: {error.strerror}", file=str(path)) from None
        except UnicodeDecodeError as error:
            raise PHHError(f"not UTF-8 text: {error.reason}", file=str(path)) from None
    return source, file


def _parse_float(text: str) -> Decimal:
    return Decimal(text.replace("_", ""))


def _toml_error(
    error: tomli.TOMLDecodeError, file: str | None, hand: int | None, name: str | None
) -> PHHError:
    message = error.msg
    return PHHError(
        f"not valid TOML: {message[:1].lower()}{message[1:]}", file=file, hand=hand,
        hand_name=name, line=error.lineno,
    )  # fmt: skip


def _build(
    raw: Mapping[str, Any],
    scanned: Document,
    section: tuple[str, ...],
    origin: Origin,
    strict: bool,
) -> HandHistory:
    origin = dataclasses.replace(origin, lines=HandLines(scanned, section))
    problems: list[PHHError] = []
    values: dict[str, Any] = {}
    user: dict[str, Any] = {}
    for key, value in raw.items():
        if key.startswith("_"):
            user[key] = value
        elif key in FIELD_KINDS:
            typed = typed_value(FIELD_KINDS[key], value)
            if typed is None:
                expected = EXPECTED[FIELD_KINDS[key]]
                problems.append(origin.error(f"expected {expected}, got {value!r}", field=key))
            else:
                values[key] = typed
        else:
            problems.append(
                origin.error(
                    f"unknown field {key!r}: a user-defined field's name starts with '_'",
                    field=key,
                )
            )
            user[key] = value
        if strict and problems:
            raise problems[0]
    history = HandHistory(**values, user_fields=user, name=origin.name, origin=origin)
    flagged = [p.field or "" for p in problems]
    problems.extend(field_problems(history, set(raw), flagged, typed=True))
    problems.sort(key=lambda p: p.line if p.line is not None else 0)
    if strict and problems:
        raise problems[0]
    if problems:
        return dataclasses.replace(history, errors=tuple(problems))
    object.__setattr__(history, "_valid", True)
    return history


# ---------------------------------------------------------------------------------------------
# Writing


def dump_phh(history: HandHistory) -> str:
    """The hand as PHH text (TOML): spec fields in spec order, absent ones left out, then the
    user's fields; one action per line."""
    lines: list[str] = []
    for item in dataclasses.fields(HandHistory):
        if item.name not in FIELD_KINDS:
            continue
        value = getattr(history, item.name)
        if value is None:
            continue
        if item.name == "actions":
            lines.append("actions = [")
            lines.extend(f"  {_format_string(action)}," for action in value)
            lines.append("]")
        else:
            lines.append(f"{item.name} = {_format_value(value, item.name)}")
    for key, value in history.user_fields.items():
        lines.append(f"{_format_key(key)} = {_format_value(value, key)}")
    return "\n".join(lines) + "\n"


def dump_phhs(histories: Iterable[HandHistory]) -> str:
    """A ``.phhs`` collection: each hand under ``[name]`` (its :attr:`~HandHistory.name`, or
    its position counted from 1)."""
    sections: list[str] = []
    seen: set[str] = set()
    for index, history in enumerate(histories):
        name = history.name if history.name is not None else str(index + 1)
        if name in seen:
            raise PHHError(f"two hands are named {name!r}: names in a .phhs must be unique")
        seen.add(name)
        sections.append(f"[{_format_key(name)}]\n{dump_phh(history)}")
    return "\n".join(sections)


def _format_key(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else _format_string(key)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}  # fmt: skip


def _format_string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _format_value(value: object, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal | float):
        return format_number(value)
    if isinstance(value, str):
        return _format_string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        pairs = (f"{_format_key(str(k))} = {_format_value(v, where)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_format_value(item, where) for item in value) + "]"
    raise PHHError(f"cannot write {value!r} in TOML", field=where)
