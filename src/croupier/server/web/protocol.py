"""The card room's WebSocket protocol: one JSON object per message, each with a ``type``.

These schemas are the protocol; docs/protocol.md shows each of them with an example, and a test
checks that the document and this module say the same. Every client message carries ``id``, the
client's action id: a retried message (same account, same id) is applied once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator

from croupier.wire import loads

__all__ = [
    "CLIENT_MESSAGES",
    "ERROR_CODES",
    "SERVER_MESSAGES",
    "ProtocolError",
    "parse_client_message",
]

MAX_MESSAGE = 4096  # characters in one client message
# "$(?!\n)": the string's very end. Python's "$" (which jsonschema uses) also matches before a
# final newline, so "ok\n" would pass for an id; ECMA-262's "$" never does, and the lookahead
# changes nothing there.
_ID = {"type": "string", "pattern": r"^[A-Za-z0-9_.:-]{1,64}$(?!\n)"}
_TABLE = {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}
# The most chips a seat brings (sitting, topping up, or a bot staked by a dealer): far from the
# database's 64-bit sums even with every seat of many tables this rich.
_CHIPS = {"type": "integer", "minimum": 1, "maximum": 10**12}
_SEAT = {"type": "integer", "minimum": 1, "maximum": 10}
_CARD = {"type": "string", "pattern": r"^(10|[2-9TJQKAtjqka])[cdhsCDHS]$(?!\n)"}


def _message(kind: str, properties: Mapping[str, Any], required: tuple[str, ...] = ()) -> Any:
    return {
        "type": "object",
        "properties": {"type": {"const": kind}, **properties},
        "required": ["type", *required],
        "additionalProperties": False,
    }


def _client(kind: str, properties: Mapping[str, Any] | None = None, *required: str) -> Any:
    return _message(kind, {"id": _ID, **(properties or {})}, ("id", *required))


CLIENT_MESSAGES: dict[str, Any] = {
    "hello": _client("hello", {"token": {"type": "string", "maxLength": 200}}, "token"),
    "ping": _client("ping"),
    "watch": _client("watch", {"table": _TABLE}, "table"),
    "unwatch": _client("unwatch", {"table": _TABLE}, "table"),
    "sit": _client(
        "sit", {"table": _TABLE, "seat": _SEAT, "chips": _CHIPS}, "table", "seat", "chips"
    ),
    "leave": _client("leave", {"table": _TABLE}, "table"),
    "wait": _client("wait", {"table": _TABLE, "seat": _SEAT}, "table"),
    "unwait": _client("unwait", {"table": _TABLE}, "table"),
    "top_up": _client("top_up", {"table": _TABLE, "chips": _CHIPS}, "table", "chips"),
    "sit_out": _client("sit_out", {"table": _TABLE}, "table"),
    "sit_in": _client("sit_in", {"table": _TABLE}, "table"),
    "act": _client(
        "act",
        {
            "table": _TABLE,
            "hand": {"type": "integer", "minimum": 1},
            "action": {"enum": ["fold", "check_or_call", "bet_or_raise", "bring_in", "draw"]},
            "amount": _CHIPS,
            "cards": {"type": "array", "items": _CARD, "maxItems": 7},
        },
        "table",
        "hand",
        "action",
    ),
    "add_bot": _client(
        "add_bot", {"table": _TABLE, "seat": _SEAT, "chips": _CHIPS}, "table", "seat"
    ),
    "remove_bot": _client("remove_bot", {"table": _TABLE, "seat": _SEAT}, "table", "seat"),
    "void_hand": _client(
        "void_hand", {"table": _TABLE, "reason": {"type": "string", "maxLength": 200}}, "table"
    ),
    "close_table": _client(
        "close_table", {"table": _TABLE, "reason": {"type": "string", "maxLength": 200}}, "table"
    ),
    "chat": _client(
        "chat", {"table": _TABLE, "text": {"type": "string", "maxLength": 1000}}, "table", "text"
    ),
    "chat_silence": _client(
        "chat_silence",
        {"table": _TABLE, "seat": _SEAT, "silenced": {"type": "boolean"}},
        "table",
        "seat",
        "silenced",
    ),
    "tournament_watch": _client(
        "tournament_watch", {"tournament": _TABLE, "table": _TABLE}, "tournament"
    ),
    "tournament_act": _client(
        "tournament_act",
        {
            "tournament": _TABLE,
            "table": _TABLE,
            "hand": {"type": "integer", "minimum": 1},
            "action": {"enum": ["fold", "check_or_call", "bet_or_raise"]},
            "amount": _CHIPS,
        },
        "tournament",
        "table",
        "hand",
        "action",
    ),
}

_RECORD = {
    "type": "object",
    "properties": {"event": {"type": "string"}},
    "required": ["event"],
}
_SEAT_STATE = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer"},
        "name": {"type": "string"},
        "chips": {"type": "integer"},
        "status": {"enum": ["playing", "waiting", "sitting_out"]},
        "leaving": {"type": "boolean"},
        "connected": {"type": "boolean"},
        "bot": {"type": "boolean"},
        "bank": {"type": "number"},
    },
    "required": ["seat", "name", "chips", "status", "leaving", "connected", "bot", "bank"],
    "additionalProperties": False,
}
_WAITING = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "seat": {"type": ["integer", "null"]},
            "wanted": {"type": ["integer", "null"]},
            "since": {"type": "number"},
            "offer": {"type": ["integer", "null"]},
            "offer_until": {"type": ["number", "null"]},
            "priority": {"type": "integer", "minimum": 1},
            "group": {"type": "string"},
        },
        "required": [
            "name",
            "seat",
            "wanted",
            "since",
            "offer",
            "offer_until",
            "priority",
            "group",
        ],
        "additionalProperties": False,
    },
}
_LEGAL = {
    "type": ["object", "null"],
    "properties": {
        "draw": {"type": "boolean"},
        "hole": {"type": "array", "items": {"type": "string"}},
        "can_fold": {"type": "boolean"},
        "can_check": {"type": "boolean"},
        "call": {"type": "integer"},
        "raise_range": {"type": ["array", "null"], "items": {"type": "integer"}},
        "bring_in": {"type": ["integer", "null"]},
        "facing": {"type": "integer"},
        "unit": {"type": "integer"},
        "all_in": {"type": "integer"},
        "text": {"type": "string"},
    },
    "additionalProperties": False,
}
_TURN = {
    "to_act": {"type": ["integer", "null"]},
    "clock_end": {"type": ["number", "null"]},
    "bank_end": {"type": ["number", "null"]},
    "legal": _LEGAL,
}
_HAND = {
    "type": ["object", "null"],
    "properties": {
        "number": {"type": "integer"},
        "button": {"type": "integer"},
        "order": {"type": "array", "items": {"type": "integer"}},
        "starting": {"type": "array", "items": {"type": "integer"}},
        "events": {"type": "array", "items": _RECORD},
        "pot": {"type": "integer"},
        **_TURN,
    },
    "required": [
        "number",
        "button",
        "order",
        "starting",
        "events",
        "pot",
        "to_act",
        "clock_end",
        "bank_end",
        "legal",
    ],
    "additionalProperties": False,
}

SERVER_MESSAGES: dict[str, Any] = {
    "welcome": _message(
        "welcome",
        {
            "account": {"type": "integer"},
            "name": {"type": "string"},
            "role": {"enum": ["player", "dealer", "admin"]},
            "balance": {"type": "integer"},
            "seats": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"table": {"type": "integer"}, "seat": {"type": "integer"}},
                    "required": ["table", "seat"],
                    "additionalProperties": False,
                },
            },
            "transfers": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "from_table": {"type": "integer"},
                        "chips": {"type": "integer"},
                        "rulebook": {"type": ["string", "null"]},
                        "game": {"type": "string"},
                        "structure": {"type": "string"},
                        "stakes": {"type": "string"},
                        "clause": {"type": "string"},
                        "expires": {"type": "number"},
                    },
                    "required": [
                        "from_table",
                        "chips",
                        "rulebook",
                        "game",
                        "structure",
                        "stakes",
                        "clause",
                        "expires",
                    ],
                    "additionalProperties": False,
                },
            },
            "waits": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "table": {"type": "integer"},
                        "offer": {"type": ["integer", "null"]},
                        "offer_until": {"type": ["number", "null"]},
                    },
                    "required": ["table", "offer", "offer_until"],
                    "additionalProperties": False,
                },
            },
        },
        ("account", "name", "role", "balance", "seats", "transfers", "waits"),
    ),
    "ok": _message("ok", {"id": _ID, "duplicate": {"type": "boolean"}}, ("id", "duplicate")),
    "error": _message(
        "error",
        {
            "id": {"type": ["string", "null"]},
            "code": {"type": "string"},
            "message": {"type": "string"},
            "url": {"type": "string"},
        },
        ("id", "code", "message"),
    ),
    "pong": _message("pong", {"id": _ID}, ("id",)),
    "state": _message(
        "state",
        {
            "table": {"type": "integer"},
            "name": {"type": "string"},
            "spec": {"type": "object"},
            "owner": {"type": "string"},
            "closing": {"type": ["string", "null"]},
            "you": {"type": ["integer", "null"]},
            "seats": {"type": "array", "items": _SEAT_STATE},
            "waiting": _WAITING,
            "hand": _HAND,
        },
        ("table", "name", "spec", "owner", "closing", "you", "seats", "waiting", "hand"),
    ),
    "events": _message(
        "events",
        {
            "table": {"type": "integer"},
            "hand": {"type": "integer"},
            "from": {"type": "integer"},
            "events": {"type": "array", "items": _RECORD},
            "pot": {"type": "integer"},
            "cause": {"type": ["string", "null"]},
            **_TURN,
        },
        (
            "table",
            "hand",
            "from",
            "events",
            "pot",
            "cause",
            "to_act",
            "clock_end",
            "bank_end",
            "legal",
        ),
    ),
    "hand_over": _message(
        "hand_over",
        {
            "table": {"type": "integer"},
            "hand": {"type": "integer"},
            "void": {"type": "boolean"},
            "reason": {"type": "string"},
            "stacks": {"type": "object", "additionalProperties": {"type": "integer"}},
            "commission": {"type": "integer"},
        },
        ("table", "hand", "void", "reason", "stacks", "commission"),
    ),
    "seats": _message(
        "seats",
        {
            "table": {"type": "integer"},
            "seats": {"type": "array", "items": _SEAT_STATE},
            "waiting": _WAITING,
        },
        ("table", "seats", "waiting"),
    ),
    "seat_offer": _message(
        "seat_offer",
        {
            "table": {"type": "integer"},
            "name": {"type": "string"},
            "seat": {"type": "integer"},
            "until": {"type": "number"},
        },
        ("table", "name", "seat", "until"),
    ),
    "table_closed": _message(
        "table_closed",
        {
            "table": {"type": "integer"},
            "reason": {"type": "string"},
            "moved_stack": {"type": ["integer", "null"]},
        },
        ("table", "reason", "moved_stack"),
    ),
    "chat": _message(
        "chat",
        {
            "table": {"type": "integer"},
            "name": {"type": "string"},
            "seat": {"type": ["integer", "null"]},
            "text": {"type": "string", "maxLength": 200},
            "at": {"type": "number"},
            "floor": {"type": "boolean"},
        },
        ("table", "name", "seat", "text", "at", "floor"),
    ),
}

_NUMBER_OR_NULL = {"type": ["number", "null"]}
_CLOCK = {
    "type": "object",
    "properties": {
        "level": {"type": "integer"},
        "on_break": {"type": "boolean"},
        "paused": {"type": "boolean"},
        "small_blind": {"type": "integer"},
        "big_blind": {"type": "integer"},
        "ante": {"type": "integer"},
        "big_blind_ante": {"type": "integer"},
        "remaining": _NUMBER_OR_NULL,
        "next_break": _NUMBER_OR_NULL,
        "players_left": {"type": "integer"},
        "entries": {"type": "integer"},
        "average_stack": {"type": "integer"},
        "prize_pool": {"type": "integer"},
        "registration_open": {"type": "boolean"},
    },
    "required": [
        "level",
        "on_break",
        "paused",
        "small_blind",
        "big_blind",
        "ante",
        "big_blind_ante",
        "remaining",
        "next_break",
        "players_left",
        "entries",
        "average_stack",
        "prize_pool",
        "registration_open",
    ],
    "additionalProperties": False,
}
_TOURNAMENT_SEAT = {
    "type": "object",
    "properties": {
        "seat": {"type": "integer"},
        "name": {"type": "string"},
        "chips": {"type": "integer"},
        "bot": {"type": "boolean"},
        "connected": {"type": "boolean"},
        "absent": {"type": "boolean"},
    },
    "required": ["seat", "name", "chips", "bot", "connected", "absent"],
    "additionalProperties": False,
}
_TABLE_OR_NULL = {"type": ["integer", "null"]}

SERVER_MESSAGES.update(
    {
        "tournament_state": _message(
            "tournament_state",
            {
                "tournament": {"type": "integer"},
                "name": {"type": "string"},
                "status": {"enum": ["registering", "running", "finished"]},
                "table": _TABLE_OR_NULL,
                "you": _TABLE_OR_NULL,
                "seats": {"type": "array", "items": _TOURNAMENT_SEAT},
                "hand": _HAND,
                "clock": _CLOCK,
            },
            ("tournament", "name", "status", "table", "you", "seats", "hand", "clock"),
        ),
        "tournament_events": _message(
            "tournament_events",
            {
                "tournament": {"type": "integer"},
                **{k: v for k, v in SERVER_MESSAGES["events"]["properties"].items() if k != "type"},
            },
            ("tournament", *SERVER_MESSAGES["events"]["required"][1:]),
        ),
        "tournament_hand_over": _message(
            "tournament_hand_over",
            {
                "tournament": {"type": "integer"},
                "table": {"type": "integer"},
                "hand": {"type": "integer"},
                "void": {"type": "boolean"},
                "reason": {"type": "string"},
                "stacks": {"type": "object", "additionalProperties": {"type": "integer"}},
            },
            ("tournament", "table", "hand", "void", "reason", "stacks"),
        ),
        "tournament_move": _message(
            "tournament_move",
            {
                "tournament": {"type": "integer"},
                "player": {"type": "string"},
                "from_table": _TABLE_OR_NULL,
                "from_seat": _TABLE_OR_NULL,
                "table": {"type": "integer"},
                "seat": {"type": "integer"},
                "reason": {"enum": ["late", "balance", "break", "final", "director"]},
            },
            ("tournament", "player", "from_table", "from_seat", "table", "seat", "reason"),
        ),
        "tournament_over": _message(
            "tournament_over",
            {
                "tournament": {"type": "integer"},
                "standings": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "place": _TABLE_OR_NULL,
                            "name": {"type": "string"},
                            "prize": {"type": "integer"},
                        },
                        "required": ["place", "name", "prize"],
                        "additionalProperties": False,
                    },
                },
            },
            ("tournament", "standings"),
        ),
    }
)

ERROR_CODES = {
    "malformed": "not a JSON object with a known type",
    "invalid": "a known message with fields outside its schema",
    "too_large": f"more than {MAX_MESSAGE} characters",
    "rate_limited": "too many messages: wait and resend",
    "unauthorised": "send hello with a valid token first, or the role does not allow it",
    "not_found": "no such table, or not seated there",
    "refused": "the rules refuse it; the message names the clause",
    "id_reused": "the action id was already used for a different request, which stands",
    "closed": "the table is closing or closed: no new seats, chips or hands",
    "stale": "the hand named has ended",
    "elsewhere": "the table lives in another server process: connect to url",
    "unavailable": "the server could not store the change; nothing changed, resend. With "
    "`id` null: a table whose database could not be read was let go; `watch` it again",
}

_VALIDATORS = {kind: Draft202012Validator(schema) for kind, schema in CLIENT_MESSAGES.items()}
# The same schemas compiled to Python code: some 7 times faster on every message. jsonschema
# stays the judge: a message the fast check refuses is checked again by it (which words the
# error); tests hold that whatever the fast check accepts, jsonschema accepts.
_FAST = {kind: fastjsonschema.compile(schema) for kind, schema in CLIENT_MESSAGES.items()}
SERVER_VALIDATORS = {kind: Draft202012Validator(schema) for kind, schema in SERVER_MESSAGES.items()}


class ProtocolError(ValueError):
    """A client message the protocol refuses (``code`` is one of :data:`ERROR_CODES`)."""

    def __init__(self, code: str, message: str, request: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.request = request


def parse_client_message(text: str) -> dict[str, Any]:
    """A client message, checked against its schema."""
    if len(text) > MAX_MESSAGE:
        raise ProtocolError("too_large", f"a message may hold at most {MAX_MESSAGE} characters")
    try:
        message = loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("malformed", "not JSON") from None
    if not isinstance(message, dict) or message.get("type") not in CLIENT_MESSAGES:
        known = ", ".join(CLIENT_MESSAGES)
        raise ProtocolError("malformed", f"expected an object whose type is one of {known}")
    request = message.get("id")
    request = request if isinstance(request, str) and len(request) <= 64 else None
    try:
        _FAST[message["type"]](message)
        return _whole(message)
    except fastjsonschema.JsonSchemaException:
        pass
    validator = _VALIDATORS[message["type"]]
    error = next(iter(validator.iter_errors(message)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "message"
        raise ProtocolError(
            "invalid", f"{message['type']}: {where}: {error.message[:200]}", request
        )
    return _whole(message)


def _whole(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with its whole floats made ints. A JSON Schema integer may be written 3.0;
    every number of a client message is an integer, and the server's compiled code takes
    ints only."""
    for key, value in message.items():
        if type(value) is float and value.is_integer():
            message[key] = int(value)
    return message


def check_server_message(message: Mapping[str, Any]) -> None:
    """Raise if a message the server sends is not as documented (used by the tests)."""
    kind = message.get("type")
    if kind not in SERVER_VALIDATORS:
        raise ValueError(f"undocumented server message type {kind!r}")
    SERVER_VALIDATORS[str(kind)].validate(message)
