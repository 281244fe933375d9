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
import re
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
from croupier.history.errors import Origin, PHHError, brief
from croupier.history.fields import (
    EXPECTED,
    FIELD_KINDS,
    MAX_NESTING,
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


MAX_PHH_BYTES = 1 << 20
"""A ``.phh`` file (or PHH text) is at most 1 MiB: one hand, a few kilobytes as a rule."""
MAX_PHHS_BYTES = 64 << 20
"""A ``.phhs`` collection is at most 64 MiB: tens of thousands of hands."""


def load_phh(
    source: str | bytes | os.PathLike[str], *, strict: bool = True, file: str | None = None
) -> HandHistory:
    """Read one hand from PHH text or a ``.phh`` file.

    ``source`` is a path (:class:`os.PathLike`, or a string with no newline and no ``=``) or
    the text itself. Strict: raises :class:`PHHError` at the first problem. Lenient: the hand
    comes back with its problems in :attr:`HandHistory.errors`."""
    text, file = _read(source, file, MAX_PHH_BYTES)
    try:
        raw = _parse(text, file)
    except PHHError as problem:
        if strict:
            raise
        return HandHistory(errors=(problem,), origin=Origin(file=file))
    return _build(raw, Document(text), (), Origin(file=file), strict)


def load_phhs(
    source: str | bytes | os.PathLike[str], *, strict: bool = True, file: str | None = None
) -> list[HandHistory]:
    """Read a ``.phhs`` collection: each top-level table is a hand (``[1]``, ``[2]``, ...).

    The hands keep their table names in :attr:`HandHistory.name`. Strict: raises at the first
    problem. Lenient: every hand comes back with its own problems; a TOML syntax error spoils only
    the hand whose table holds it."""
    text, file = _read(source, file, MAX_PHHS_BYTES)
    scanned = Document(text)
    try:
        raw = _parse(text, file)
    except PHHError:
        if strict:
            raise
        return _load_chunks(scanned, file)
    histories = []
    for index, (name, table) in enumerate(raw.items()):
        origin = Origin(file=file, hand=index, name=name)
        if not isinstance(table, dict):
            problem = origin.error(
                f"expected a table of fields ([{name}]), got {brief(table)}",
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
        chunk = "".join(lines[line - 1 : end - 1])
        origin = Origin(file=file, hand=index, name=name)
        try:
            raw = _parse(chunk, file, index, name, first_line=line)
        except PHHError as problem:
            histories.append(HandHistory(name=name, errors=(problem,), origin=origin))
            continue
        table = raw.get(name)
        if isinstance(table, dict):
            histories.append(_build(table, scanned, (name,), origin, strict=False))
    return histories


def _read(
    source: str | bytes | os.PathLike[str], file: str | None, limit: int
) -> tuple[str, str | None]:
    """The text, and the file to name in errors; at most ``limit`` bytes (or characters)."""
    if isinstance(source, bytes):
        _check_size(len(source), limit, file)
        return _decode(source, file), file
    if isinstance(source, os.PathLike) or ("\n" not in source and "=" not in source):
        path = Path(source)
        where = file or str(path)
        try:
            _check_size(path.stat().st_size, limit, where)
            data = path.read_bytes()
        except (OSError, ValueError) as error:  # ValueError: a NUL in the name
            if isinstance(error, PHHError):
                raise
            problem = error.strerror if isinstance(error, OSError) else str(error)
            raise PHHError(f"cannot read the file: {problem}", file=where) from None
        return _decode(data, where), where
    _check_size(len(source), limit, file)
    return source, file


def _decode(data: bytes, file: str | None) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise PHHError(f"not UTF-8 text: {error.reason}", file=file, line=line) from None


def _check_size(size: int, limit: int, file: str | None) -> None:
    if size > limit:
        raise PHHError(
            f"{size:,} bytes: too large for PHH, which allows {limit >> 20} MiB here", file=file
        )


def _parse(
    text: str,
    file: str | None,
    hand: int | None = None,
    name: str | None = None,
    *,
    first_line: int = 1,
) -> dict[str, Any]:
    """The TOML document, or :class:`PHHError`: not valid TOML, nested beyond tomli's bounds
    (RecursionError), an integer of 4,300 digits or more, or a float out of Decimal's range
    (ValueError)."""
    try:
        return tomli.loads(text, parse_float=_parse_float)
    except tomli.TOMLDecodeError as error:
        message = error.msg
        line = None if error.lineno is None else error.lineno + first_line - 1
        problem = f"not valid TOML: {message[:1].lower()}{message[1:]}"
    except (RecursionError, ValueError) as refused:
        line = None
        problem = f"not a document croupier reads: {brief(str(refused))[1:-1]}"
    raise PHHError(problem, file=file, hand=hand, hand_name=name, line=line) from None


def _parse_float(text: str) -> Decimal:
    try:
        return Decimal(text.replace("_", ""))
    except ArithmeticError:  # an exponent of 19 digits or more
        raise ValueError(f"the number {text[:40]} is out of range") from None


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
                problems.append(origin.error(f"expected {expected}, got {brief(value)}", field=key))
            else:
                values[key] = typed
        else:
            problems.append(
                origin.error(
                    f"unknown field {brief(key)}: a user-defined field's name starts with '_'",
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
            raise PHHError(f"two hands are named {brief(name)}: names in a .phhs must be unique")
        seen.add(name)
        sections.append(f"[{_format_key(name)}]\n{dump_phh(history)}")
    return "\n".join(sections)


def _format_key(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else _format_string(key)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}  # fmt: skip


def _format_string(text: str) -> str:
    return '"' + _ESCAPED.sub(_escape, text) + '"'


_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f]')


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _format_value(value: object, where: str, depth: int = 0) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal | float):
        return format_number(value)
    if isinstance(value, str):
        return _format_string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping | Sequence) and depth >= MAX_NESTING:
        raise PHHError(f"nested more than {MAX_NESTING} levels deep: not written", field=where)
    if isinstance(value, Mapping):
        pairs = (
            f"{_format_key(str(k))} = {_format_value(v, where, depth + 1)}"
            for k, v in value.items()
        )
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_format_value(item, where, depth + 1) for item in value) + "]"
    raise PHHError(f"cannot write {brief(value)} in TOML", field=where)
