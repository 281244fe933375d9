"""Pickling for frozen dataclasses that also holds when the engine is compiled.

mypyc's compiled classes unpickle by assigning each field in turn, which a frozen dataclass
forbids. Records that inherit ``Frozen`` go back through ``__init__`` instead, so whatever
``__post_init__`` checks is checked again.

The records made on every action (events, ``Legal``, pots) write their ``__init__`` out, one
``object.__setattr__`` per field: mypyc compiles that to direct writes, some 25 times faster than
the ``__init__`` that ``@dataclass`` generates, which stays interpreted. The dataclass still gives
equality, ``repr``, ``fields()`` and ``replace()``; tests/test_records.py holds each written
``__init__`` to its fields.
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
