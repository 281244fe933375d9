"""Where things are in a PHH document's TOML text: the line of every table, key and array
element, found by a small scanner, so that errors can name a line. Scanned only when an error
needs it (a valid file never pays for it)."""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field

import tomli

__all__ = ["BARE_KEY", "Document", "HandLines", "Layout"]


@dataclass
class Layout:
    headers: dict[tuple[str, ...], int] = field(default_factory=dict)
    keys: dict[tuple[str, ...], int] = field(default_factory=dict)
    elements: dict[tuple[str, ...], list[int]] = field(default_factory=dict)


class Document:
    """A document's text; its layout is scanned the first time an error needs a line (a valid
    file never pays for it), and once only."""

    def __init__(self, text: str) -> None:
        self.text = text
        # Cached by hand: compiled by mypyc, a class has no __dict__ and functools.cached_property
        # computes on every access (every error then scanned the whole document again).
        self._layout: Layout | None = None
        self._sections: dict[int, dict[tuple[str, ...], dict[str, int]]] = {}

    @property
    def layout(self) -> Layout:
        if self._layout is None:
            self._layout = _scan_layout(self.text)
        return self._layout

    def fields(self, section: tuple[str, ...]) -> dict[str, int]:
        """The line of each key of the table ``section`` (then of its sub-tables, ``[1._meta]``),
        by the key's first part. Every table of the same depth is indexed at one go, so that a
        collection with an error in every hand is indexed once, not once a hand."""
        depth = len(section)
        tables = self._sections.get(depth)
        if tables is None:
            tables = {}
            layout = self.layout
            for path, line in layout.keys.items():
                if len(path) > depth:
                    tables.setdefault(path[:depth], {})[path[depth]] = line
            for path, line in layout.headers.items():
                if len(path) > depth:
                    tables.setdefault(path[:depth], {}).setdefault(path[depth], line)
            self._sections[depth] = tables
        return tables.get(section, {})


class HandLines:
    """The lines of one hand's fields and actions, in a document (None: no document)."""

    def __init__(self, scanned: Document | None, section: tuple[str, ...] = ()) -> None:
        self.scanned = scanned
        self.section = section
        self._actions: tuple[int | None, ...] | None = None  # cached by hand, as in Document

    @property
    def fields(self) -> dict[str, int]:
        return {} if self.scanned is None else self.scanned.fields(self.section)

    @property
    def actions(self) -> tuple[int | None, ...]:
        if self._actions is None:
            self._actions = ()
            if self.scanned is not None:
                key = (*self.section, "actions")
                self._actions = tuple(self.scanned.layout.elements.get(key, []))
        return self._actions

    @property
    def start(self) -> int | None:
        if self.scanned is None or not self.section:
            return None
        return self.scanned.layout.headers.get(self.section)


BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _scan_layout(text: str) -> Layout:
    """The line of every table header, key and top-level array element. Best effort: a
    malformed document gives what could be found before the problem."""
    layout = Layout()
    with contextlib.suppress(IndexError, ValueError):
        _scan(text, layout)
    return layout


def _scan(text: str, layout: Layout) -> None:
    size = len(text)
    index, line = 0, 1
    section: tuple[str, ...] = ()
    while index < size:
        char = text[index]
        if char == "\n":
            line += 1
            index += 1
        elif char in " \t\r":
            index += 1
        elif char == "#":
            index = _line_end(text, index)
        elif char == "[":
            start = index + (2 if text.startswith("[[", index) else 1)
            path, index = _read_key(text, start)
            section = path
            layout.headers.setdefault(path, line)
            index = _line_end(text, index)
        else:
            path, index = _read_key(text, index)
            if index >= size or text[index] != "=":
                index = _line_end(text, index)
                continue
            full = section + path
            layout.keys.setdefault(full, line)
            elements: list[int] = []
            index, line = _skip_value(text, index + 1, line, elements)
            layout.elements.setdefault(full, elements)


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    return len(text) if end < 0 else end


def _read_key(text: str, index: int) -> tuple[tuple[str, ...], int]:
    parts: list[str] = []
    while True:
        while text[index] in " \t":
            index += 1
        char = text[index]
        if char in "\"'":
            end, _ = _skip_string(text, index, 0)
            parts.append(_unquote(text[index:end]))
            index = end
        else:
            match = BARE_KEY.match(text, index)
            if match is None:
                return tuple(parts), index
            parts.append(match.group())
            index = match.end()
        while index < len(text) and text[index] in " \t":
            index += 1
        if index < len(text) and text[index] == ".":
            index += 1
            continue
        return tuple(parts), index


def _unquote(token: str) -> str:
    if token.startswith("'"):
        return token[1:-1]
    try:
        value = tomli.loads(f"k = {token}")["k"]
    except tomli.TOMLDecodeError:
        return token[1:-1]
    return str(value)


def _skip_string(text: str, index: int, line: int) -> tuple[int, int]:
    quote = text[index]
    triple = text.startswith(quote * 3, index)
    if triple:
        end = text.find(quote * 3, index + 3)
        if end < 0:
            raise ValueError("unterminated string")
        while text.startswith(quote, end + 3):  # up to two quotes may close the string
            end += 1
        return end + 3, line + text.count("\n", index, end)
    rest = (_BASIC_REST if quote == '"' else _LITERAL_REST).match(text, index + 1)
    if rest is None:
        raise ValueError("unterminated string")
    return rest.end(), line


# The rest of a one-line string after its opening quote: read by the regex engine, not a
# character at a time (a hostile file may hold a string of megabytes).
_BASIC_REST = re.compile(r'[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*"')
_LITERAL_REST = re.compile(r"[^'\n]*'")
_BLANK = re.compile(r"[ \t\r]+")
# A run of characters that mean nothing to the layout (a number, a bare word, a key).
_PLAIN = re.compile(r"[^\n \t\r#\"'\[\]{},]+")


def _skip_value(text: str, index: int, line: int, elements: list[int]) -> tuple[int, int]:
    """Skip one value, recording the line of each element if it is an array."""
    stack: list[str] = []
    started = False
    expecting = False  # at the start of an element of the top-level array
    while index < len(text):
        char = text[index]
        if char == "\n":
            if not stack and started:
                return index, line
            line += 1
            index += 1
            continue
        if char in " \t\r":
            blank = _BLANK.match(text, index)
            index = blank.end() if blank is not None else index + 1
            continue
        if char == "#":
            if not stack:
                return _line_end(text, index), line
            index = _line_end(text, index)
            continue
        if expecting and len(stack) == 1 and char not in ",]":
            elements.append(line)
            expecting = False
        started = True
        if char in "\"'":
            index, line = _skip_string(text, index, line)
            continue
        if char in "[{":
            stack.append(char)
            expecting = len(stack) == 1 and char == "["
        elif char in "]}":
            if stack:
                stack.pop()
        elif char == ",":
            if len(stack) == 1 and stack[0] == "[":
                expecting = True
        else:
            plain = _PLAIN.match(text, index)
            if plain is not None:
                index = plain.end()
                continue
        index += 1
    return index, line
