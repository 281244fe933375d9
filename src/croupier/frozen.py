"""Pickling for frozen dataclasses that also holds when the engine is compiled.

mypyc's compiled classes unpickle by assigning each field in turn, which a frozen dataclass
forbids. Records that inherit ``Frozen`` go back through ``__init__`` instead, so whatever
``__post_init__`` checks is checked again.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

__all__ = ["Frozen"]


class Frozen:
    __slots__ = ()

    def __reduce__(self) -> tuple[Any, tuple[object, ...]]:
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.init}  # type: ignore[arg-type]
        return _rebuild, (type(self), values)


def _rebuild(cls: type[Any], values: dict[str, object]) -> object:
    return cls(**values)
