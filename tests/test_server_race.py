"""Nothing is shown before it is stored (docs/protocol.md; issue 43 item 1): while bots play
fast at several tables, a spectator asks for the tables' states many times a second, by
WebSocket (`watch`) and by HTTP (`GET /api/tables/{id}`). Every state read must equal what the
database holds for its hand number, event for event: the button, the deal order, the starting
stacks and the events of the deal and of some number of stored moves, hidden cards hidden."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from typing import Any

import pytest
from sqlalchemy import create_engine, select

from croupier.server.store import schema as s
from server_harness import FAST, fresh_postgres_db, player, running, until

TABLES = 3
HIDDEN = ("??", None)
READING = 6.0  # seconds of reading
# Fast bots, no pause between hands, and a spectator allowed to ask as often as it likes.
RACING = dataclasses.replace(FAST, rate=100_000.0, burst=100_000)


def test_every_state_read_equals_what_is_stored_sqlite(tmp_path: Any) -> None:
    db = f"sqlite:///{tmp_path / 'race.db'}"
    asyncio.run(_race(db))


def test_every_state_read_equals_what_is_stored_postgres(postgres_dsn: str) -> None:
    asyncio.run(_race(fresh_postgres_db(postgres_dsn)))


async def _race(db: str) -> None:
    states: list[dict[str, Any]] = []
    async with running(db, RACING) as live:
        owner = await player(live.url, "owner")
        tables = []
        for number in range(TABLES):
            table = await owner.create_table(
                {"game": "holdem", "rulebook": "rws", "seats": 3}, name=f"race {number}"
            )
            for seat in (1, 2, 3):
                await owner.add_bot(table, seat)
            tables.append(table)
        spectator = await player(live.url, "spectator")
        seen: list[dict[str, Any]] = []  # the socket's states and events, in order
        spectator.listeners.append(seen.append)
        await until(lambda: live.room.rooms and all(
            live.room.rooms[t].hands >= 1 for t in tables
        ), behind=lambda: {t: live.room.rooms[t].hands for t in tables})  # fmt: skip

        async def by_socket() -> None:
            loop = asyncio.get_running_loop()
            end = loop.time() + READING
            while loop.time() < end:
                for table in tables:
                    await spectator.send({"type": "watch", "id": spectator.new_id(),
                                          "table": table})  # fmt: skip
                await asyncio.sleep(0.002)

        async def by_http() -> None:
            loop = asyncio.get_running_loop()
            end = loop.time() + READING
            while loop.time() < end:
                for table in tables:
                    states.append(await spectator.http("GET", f"/api/tables/{table}"))

        await asyncio.gather(by_socket(), by_http())
        await asyncio.sleep(0.5)  # the last answers in
        await owner.close()
        await spectator.close()
    states += [message for message in seen if message["type"] == "state"]
    _check_each_event_once(seen)
    hands = [state for state in states if state.get("hand") is not None]
    assert len(hands) > 200, f"only {len(hands)} states with a hand were read"
    _check_against_store(db, hands)


def _check_against_store(db: str, states: list[dict[str, Any]]) -> None:
    engine = create_engine(db)
    with engine.connect() as conn:
        stored: dict[tuple[int, int], Any] = {
            (row.table_id, row.number): row for row in conn.execute(select(s.hands))
        }
        moves: dict[int, list[list[dict[str, Any]]]] = {}
        for row in conn.execute(select(s.moves).order_by(s.moves.c.hand_id, s.moves.c.seq)):
            moves.setdefault(row.hand_id, []).append(json.loads(row.events))
    engine.dispose()
    wrong: list[str] = []
    for state in states:
        hand = state["hand"]
        key = (state["table"], hand["number"])
        row = stored.get(key)
        if row is None:
            wrong.append(f"table {key[0]} hand {key[1]}: shown, never stored")
            continue
        dealt = json.loads(row.seats)
        if (hand["button"], hand["order"], hand["starting"]) != (
            row.button, [d[0] for d in dealt], [d[4] for d in dealt]
        ):  # fmt: skip
            wrong.append(f"table {key[0]} hand {key[1]}: shown with another deal")
            continue
        # The events of the deal and of the first k stored moves, for some k.
        expected: list[dict[str, Any]] = list(json.loads(row.events))
        bounds = [len(expected)]
        for events in moves.get(row.id, []):
            expected += events
            bounds.append(len(expected))
        shown = hand["events"]
        if len(shown) not in bounds:
            wrong.append(f"table {key[0]} hand {key[1]}: {len(shown)} events shown, stored "
                         f"moves end at {bounds}")  # fmt: skip
            continue
        for index, (seen, house) in enumerate(zip(shown, expected, strict=False)):
            if not _same_but_hidden(seen, house):
                wrong.append(f"table {key[0]} hand {key[1]} event {index}: {seen} != {house}")
                break
    assert not wrong, f"{len(wrong)} of {len(states)} states differ from the store: {wrong[:5]}"


def _check_each_event_once(messages: list[dict[str, Any]]) -> None:
    """After a state, a table's `events` go on exactly where it ended: none repeated (an event
    already in the state) and none missed."""
    known: dict[int, tuple[int, int]] = {}  # table -> (hand, events known)
    wrong: list[str] = []
    for message in messages:
        if message["type"] == "state" and message.get("hand") is not None:
            known[message["table"]] = (message["hand"]["number"], len(message["hand"]["events"]))
        elif message["type"] == "events" and message["table"] in known:
            hand, count = known[message["table"]]
            if message["hand"] == hand and message["from"] != count:
                wrong.append(f"table {message['table']} hand {hand}: events from "
                             f"{message['from']} after {count} known")  # fmt: skip
            if message["hand"] == hand:
                known[message["table"]] = (hand, message["from"] + len(message["events"]))
    assert not wrong, f"{len(wrong)} events messages overlap or skip: {wrong[:5]}"


def _same_but_hidden(seen: dict[str, Any], house: dict[str, Any]) -> bool:
    """A spectator's record of an event equals the house's, but for hidden cards (``??``, or
    null for a single card such as a burn)."""
    if seen.keys() != house.keys():
        return False
    for key, value in seen.items():
        stored = house[key]
        if isinstance(value, list) and isinstance(stored, list) and len(value) == len(stored):
            if any(a != b and a not in HIDDEN for a, b in zip(value, stored, strict=True)):
                return False
        elif value != stored and value not in HIDDEN:
            return False
    return True


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-v"])
