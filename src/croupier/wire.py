"""JSON as the card room writes and reads it: its messages and the rows it stores.

orjson does the work: an action's broadcast is written about ten times faster than by the
standard library's encoder and read three times faster, on the server and in every client
(bench/server.py's figures). The text is compact and UTF-8. Two differences from ``json``
matter to callers: a whole number too large for 64 bits is read as a float (the protocol's
schemas then refuse it: no count of chips is that large), and NaN or Infinity is neither
written (it becomes ``null``) nor read (an error, as JSON says).
"""

from __future__ import annotations

from typing import Any

import orjson

__all__ = ["JSONDecodeError", "dumps", "loads"]

JSONDecodeError = orjson.JSONDecodeError  # a ValueError, as json's is

_OPTIONS = orjson.OPT_NON_STR_KEYS  # {1: ...} is written {"1": ...}, as json.dumps does


def dumps(value: object) -> str:
    """``value`` as compact JSON text."""
    return orjson.dumps(value, option=_OPTIONS).decode()


def loads(text: str | bytes | bytearray | memoryview) -> Any:
    """The value JSON ``text`` holds; :data:`JSONDecodeError` (a ValueError) if it is not JSON."""
    return orjson.loads(text)
