"""croupier.wire (orjson) against the standard library's json, its peer here: the card room's
messages and stored rows mean the same whichever of the two reads or writes them."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.server.web.protocol import ProtocolError, parse_client_message
from croupier.wire import JSONDecodeError, dumps, loads

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**63), 2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(), inner)),
    max_leaves=30,
)


@given(_VALUES)
def test_json_reads_what_wire_writes_and_wire_reads_what_json_writes(value: object) -> None:
    assert json.loads(dumps(value)) == value
    assert loads(json.dumps(value)) == value
    assert loads(json.dumps(value, separators=(",", ":"), ensure_ascii=False)) == value


def test_the_text_is_compact_and_utf8_and_integer_keys_are_written_as_json_writes_them() -> None:
    message = {"type": "events", "pot": 4, "legal": {"text": "check · fold"}, "stacks": {1: 200}}
    assert dumps(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    assert loads(dumps(message)) == json.loads(json.dumps(message))


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", "1e309", "{'a': 1}", "[1,]", ""])
def test_what_is_not_json_is_refused_as_a_value_error(text: str) -> None:
    with pytest.raises(JSONDecodeError) as refused:
        loads(text)
    assert isinstance(refused.value, ValueError)


def test_a_whole_number_beyond_64_bits_is_read_as_a_float_and_the_protocol_refuses_it() -> None:
    value = loads("99999999999999999999")
    assert isinstance(value, float) and math.isclose(value, 1e20)
    text = '{"type": "sit", "id": "s", "table": 1, "seat": 1, "chips": 99999999999999999999}'
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(text)
    assert refused.value.code == "invalid" and "chips" in str(refused.value)
