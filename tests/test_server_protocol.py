"""docs/protocol.md is the protocol: every message it shows is checked against its schema, and
its messages and schemas are exactly the code's (croupier.server.web.protocol)."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from croupier.server.hall import Options
from croupier.server.web.protocol import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    MAX_MESSAGE,
    SERVER_MESSAGES,
    ProtocolError,
    check_server_message,
    parse_client_message,
)
from croupier.server.web.socket import OUTBOX_LIMIT, Conn

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
SECTION = re.compile(
    r"^### `(\w+)` \((client|server) → (?:client|server)\)\n(.*?)(?=^### |\Z)", re.S | re.M
)
BLOCK = re.compile(r"```json\n(.*?)\n```", re.S)


def documented() -> dict[str, dict[str, tuple[object, object]]]:
    found: dict[str, dict[str, tuple[object, object]]] = {"client": {}, "server": {}}
    for name, side, body in SECTION.findall(DOC.read_text()):
        schema, example = (json.loads(block) for block in BLOCK.findall(body))
        found[side][name] = (schema, example)
    return found


def test_the_documents_messages_are_the_codes_messages_with_the_same_schemas() -> None:
    doc = documented()
    assert list(doc["client"]) == list(CLIENT_MESSAGES)
    assert list(doc["server"]) == list(SERVER_MESSAGES)
    for side, code in (("client", CLIENT_MESSAGES), ("server", SERVER_MESSAGES)):
        for name, (schema, _) in doc[side].items():
            assert schema == json.loads(json.dumps(code[name])), name


def test_the_document_is_what_tools_protocol_doc_writes() -> None:
    """Its prose too: an edit to docs/protocol.md alone would be lost at the next rewrite."""
    written = subprocess.run(
        [sys.executable, str(DOC.parent.parent / "tools" / "protocol_doc.py")],
        capture_output=True, text=True, check=True, timeout=120,
    ).stdout  # fmt: skip
    assert written == DOC.read_text()


def test_every_example_in_the_document_is_valid_for_its_schema() -> None:
    for side in ("client", "server"):
        for name, (schema, example) in documented()[side].items():
            Draft202012Validator.check_schema(schema)
            Draft202012Validator(schema).validate(example)
            assert example["type"] == name  # type: ignore[index]
            if side == "client":
                assert parse_client_message(json.dumps(example)) == example
            else:
                check_server_message(example)  # type: ignore[arg-type]


def test_every_error_code_is_documented() -> None:
    text = DOC.read_text()
    for code in ERROR_CODES:
        assert f"| `{code}` |" in text


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        ('{"type": "shout", "id": "x"}', "malformed"),
        ('{"type": "act", "id": "x", "table": 1}', "invalid"),
        ('{"type": "sit", "id": "x", "table": 1, "seat": 1, "chips": -5}', "invalid"),
        ('{"type": "sit", "id": "x", "table": 1, "seat": 1, "chips": 5, "extra": 1}', "invalid"),
        ('{"type": "ping", "id": "' + "x" * 65 + '"}', "invalid"),
        (
            '{"type": "act", "id": "x", "table": 1, "hand": 1, "action": "draw", "cards": ["Zz"]}',
            "invalid",
        ),
        ('{"type": "ping", "id": "ok\\n"}', "invalid"),  # "$" must be the very end
        (
            '{"type": "act", "id": "x", "table": 1, "hand": 1, "action": "draw", '
            '"cards": ["Ah\\n"]}',
            "invalid",
        ),
        ("[" * 5000, "too_large"),
        ('{"type": "ping", "id": "x", "pad": "' + "x" * MAX_MESSAGE + '"}', "too_large"),
    ],
)
def test_malformed_messages_are_refused_with_their_code(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(text)
    assert refused.value.code == code


_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.integers(2**31 - 2, 2**31 + 1),
    st.sampled_from([10**12, 10**12 + 1, 1.0, 2.5, -0.0]),
    st.sampled_from(["", "a10", "x" * 64, "x" * 65, "a\n", "a b", "Ah", "10c", "AH", "1c",
                     "fold", "check_or_call", "bet_or_raise", "bring_in", "draw", "act", "ok"]),
    st.lists(st.sampled_from(["Ah", "10c", "zz", "Ah\n", 3]), max_size=9),
    st.just({}),
)  # fmt: skip


def test_a_whole_number_written_with_a_point_is_read_as_an_integer() -> None:
    """JSON Schema's integers include 3.0 and 1e1; the server reads them as the ints they are
    (its compiled code takes ints), and still refuses 2.5."""
    text = '{"type": "act", "id": "a1", "table": 1.0, "hand": 3.0, "action": "bet_or_raise", '
    message = parse_client_message(text + '"amount": 1e1}')
    assert [(message[k], type(message[k])) for k in ("table", "hand", "amount")] == [
        (1, int),
        (3, int),
        (10, int),
    ]
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(text + '"amount": 2.5}')
    assert refused.value.code == "invalid" and "amount" in str(refused.value)


@st.composite
def _client_messages(draw: st.DrawFn) -> dict[str, object]:
    """Messages near each schema: its own fields (and a stranger) with odd values, or none."""
    kind = draw(st.sampled_from(sorted(CLIENT_MESSAGES)))
    fields = [*CLIENT_MESSAGES[kind]["properties"], "extra"]
    message: dict[str, object] = {"type": kind}
    for name in fields:
        if name != "type" and draw(st.integers(0, 9)) < 8:
            message[name] = draw(_VALUES)
    return message


@settings(max_examples=3000, deadline=None)
@given(_client_messages())
def test_client_messages_are_accepted_exactly_as_their_schema_says(
    message: dict[str, object],
) -> None:
    """The server checks messages with compiled schemas first, jsonschema after: what it
    accepts is exactly what jsonschema's Draft 2020-12 check of the documented schema accepts."""
    valid = Draft202012Validator(CLIENT_MESSAGES[str(message["type"])]).is_valid(message)
    try:
        parse_client_message(json.dumps(message))
        accepted = True
    except ProtocolError as error:
        accepted = False
        assert error.code == "invalid"
    assert accepted == valid


class _Socket:
    """The two calls a connection's sender makes of Starlette's WebSocket, recorded."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: list[int] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)
        await asyncio.sleep(0)

    async def close(self, code: int, reason: str = "") -> None:
        self.closed.append(code)


def test_a_connection_sends_its_messages_in_order() -> None:
    async def main() -> None:
        socket = _Socket()
        conn = Conn(socket, Options())  # type: ignore[arg-type]
        sender = asyncio.create_task(conn.sender())
        for i in range(50):
            conn.send_text(str(i))
            if i % 7 == 0:
                await asyncio.sleep(0)  # the sender sometimes waits for the next
        while conn.outbox:
            await asyncio.sleep(0)
        await asyncio.sleep(0)
        sender.cancel()
        assert socket.sent == [str(i) for i in range(50)] and socket.closed == []

    asyncio.run(main())


def test_a_client_that_does_not_read_is_let_go_closed_with_1008() -> None:
    """Messages pile up for a client that reads nothing; past the limit the connection is
    closed (policy violation) and what waited is dropped, not kept without end."""

    async def main() -> None:
        socket = _Socket()
        conn = Conn(socket, Options())  # type: ignore[arg-type]
        for i in range(OUTBOX_LIMIT):
            conn.send_text(str(i))
        assert not conn.closed and len(conn.outbox) == OUTBOX_LIMIT
        conn.send_text("one too many")
        conn.send_text("and after")
        assert conn.closed and not conn.outbox and conn.closer is not None
        await asyncio.wait_for(conn.closer, 5)  # the close is not queued behind a send
        assert socket.sent == [] and socket.closed == [1008]

    asyncio.run(main())
