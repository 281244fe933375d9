"""Errors in hand histories, and where they are: the file, the hand, the line and the field."""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from croupier.history.layout import HandLines

__all__ = ["Origin", "PHHError", "brief"]


def brief(value: object) -> str:
    """``repr(value)`` cut short, for messages about values a hostile file may make huge or
    deeply nested (and never converting an integer too long for ``repr``)."""
    if isinstance(value, int) and value.bit_length() > 256:
        return f"an integer of {len(hex(value)) * 6 // 5} or so digits"
    return _BRIEF.repr(value)


_BRIEF = reprlib.Repr()
_BRIEF.maxstring = _BRIEF.maxother = 80
_BRIEF.maxlist = _BRIEF.maxtuple = _BRIEF.maxdict = 8
_BRIEF.maxlevel = 3


class PHHError(ValueError):
    """A problem with a hand history: malformed TOML, a bad field, a bad or illegal action.

    It names the file, the hand (its position and name in a ``.phhs``), the line, the field
    (``actions[3]`` for the fourth action) and what was expected."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        hand: int | None = None,
        hand_name: str | None = None,
        line: int | None = None,
        field: str | None = None,
        action: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.hand = hand  # 0-based position in a .phhs
        self.hand_name = hand_name
        self.line = line
        self.field = field
        self.action = action  # the action's text, for actions
        super().__init__(self._text())

    def _text(self) -> str:
        where: list[str] = []
        if self.file is not None:
            where.append(self.file)
        if self.hand is not None or self.hand_name is not None:
            label = "hand"
            if self.hand is not None:
                label += f" {self.hand + 1}"
            if self.hand_name is not None and self.hand_name != str((self.hand or 0) + 1):
                label += f" [{self.hand_name}]"
            where.append(label)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field is not None:
            what = self.field
            if self.action is not None:
                what += f" {brief(self.action)}"
            where.append(what)
        return ": ".join([*where, self.message])

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (self.message, self.__dict__))


def _rebuild_error(message: str, attributes: dict[str, Any]) -> PHHError:
    keys = ("file", "hand", "hand_name", "line", "field", "action")
    return PHHError(message, **{key: attributes.get(key) for key in keys})


@dataclass(frozen=True)
class Origin:
    """Where a hand history was read from, to point errors at the right line."""

    file: str | None = None
    hand: int | None = None  # 0-based position in a .phhs
    name: str | None = None  # the hand's table name in a .phhs
    lines: HandLines = field(default_factory=lambda: HandLines(None), compare=False, repr=False)

    @property
    def field_lines(self) -> Mapping[str, int]:
        return self.lines.fields

    @property
    def action_lines(self) -> tuple[int | None, ...]:
        return self.lines.actions

    @property
    def start_line(self) -> int | None:
        """The hand's table header in a .phhs."""
        return self.lines.start

    def error(
        self, message: str, *, field: str | None = None, action: int | None = None,
        text: str | None = None, line: int | None = None,
    ) -> PHHError:  # fmt: skip
        """An error located at ``field`` (or at action number ``action``, 0-based)."""
        if action is not None:
            field = f"actions[{action}]"
            if line is None and action < len(self.action_lines):
                line = self.action_lines[action]
            if line is None:
                line = self.field_lines.get("actions")
        elif field is not None and line is None:
            line = self.field_lines.get(field.split("[")[0], self.start_line)
        return PHHError(
            message, file=self.file, hand=self.hand, hand_name=self.name, line=line,
            field=field, action=text,
        )  # fmt: skip
