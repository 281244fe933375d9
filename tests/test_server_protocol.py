"""docs/protocol.md is the protocol: every message it shows is checked against its schema, and
its messages and schemas are exactly the code's (croupier.server.protocol)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from croupier.server.protocol import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    MAX_MESSAGE,
    SERVER_MESSAGES,
    ProtocolError,
    check_server_message,
    parse_client_message,
)

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
        ("[" * 5000, "too_large"),
        ('{"type": "ping", "id": "x", "pad": "' + "x" * MAX_MESSAGE + '"}', "too_large"),
    ],
)
def test_malformed_messages_are_refused_with_their_code(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(text)
    assert refused.value.code == code
