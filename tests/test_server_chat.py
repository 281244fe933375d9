"""Table chat (docs/protocol.md, `chat` and `chat_silence`): the players at a table write and
everyone watching reads; a line is plain text, at most 200 characters, at most 3 in 5 seconds;
the floor silences a seat; every line is in the audit log before anyone hears it; no player
tells the table their own hole cards while the hand is in play."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from croupier.client import Client, ClientError
from croupier.server.rooms.chat import MAX_CHARS, clean
from server_harness import player, running, until


def _lines(heard: list[dict[str, Any]]) -> list[str]:
    return [str(m["text"]) for m in heard if m["type"] == "chat"]


def _audit(server: Any, kind: str) -> list[tuple[str, int | None]]:
    rows = server.room.store.read(
        lambda c: list(
            c.exec_driver_sql(
                f"SELECT detail, hand_id FROM audit WHERE kind = '{kind}' ORDER BY id"
            )
        )
    )
    return [(str(r[0]), r[1]) for r in rows]


def test_clean_keeps_plain_text_only() -> None:
    assert clean("  gg\n\twp \x00\x1b[31m ") == "gg wp [31m"
    assert clean("<b>hi</b>") == "<b>hi</b>"  # markup stays text: the page shows it as text


def test_players_chat_watchers_read_the_floor_silences_and_the_audit_keeps_it(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            eve = await player(server.url, "eve")  # watches
            floor = await player(server.url, "floor")
            server.room.store.write_now(
                lambda c: c.exec_driver_sql(
                    "UPDATE accounts SET role = 'dealer' WHERE name = 'floor'"
                )
            )
            await floor.close()
            floor = await Client.login(server.url, "floor", "password-1")
            await floor.connect()
            heard: dict[str, list[dict[str, Any]]] = {"alice": [], "bob": [], "eve": []}
            for name, client in (("alice", alice), ("bob", bob), ("eve", eve)):
                client.listeners.append(heard[name].append)
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 2})
            await alice.sit(table, 1, 200)
            await bob.sit(table, 2, 200)
            await eve.watch(table)
            await floor.watch(table)

            # A seated player's line reaches everyone watching, markup and all as text.
            await alice.request("chat", table=table, text="  good <b>luck</b>\n all ")
            want = "good <b>luck</b> all"
            await until(lambda: want in _lines(heard["eve"]) and want in _lines(heard["bob"]))
            line = next(m for m in heard["eve"] if m["type"] == "chat")
            assert line["name"] == "alice" and line["seat"] == 1 and line["floor"] is False
            assert want in [d for d, _ in _audit(server, "chat")]

            # A watcher reads but does not write; too long, empty and too fast are refused.
            with pytest.raises(ClientError, match="watchers read"):
                await eve.request("chat", table=table, text="hi")
            with pytest.raises(ClientError, match=f"at most {MAX_CHARS} characters"):
                await bob.request("chat", table=table, text="x" * (MAX_CHARS + 1))
            with pytest.raises(ClientError, match="needs some text"):
                await bob.request("chat", table=table, text=" \n ")
            await bob.request("chat", table=table, text="one")
            await bob.request("chat", table=table, text="two")
            await bob.request("chat", table=table, text="three")
            with pytest.raises(ClientError) as fast:
                await bob.request("chat", table=table, text="four")
            assert fast.value.code == "rate_limited"

            # A player may not silence; the floor silences bob, who is refused until let speak.
            with pytest.raises(ClientError) as nobody:
                await alice.request("chat_silence", table=table, seat=2, silenced=True)
            assert nobody.value.code == "unauthorised"
            await floor.request("chat_silence", table=table, seat=2, silenced=True)
            await until(lambda: any(m.get("floor") for m in heard["eve"] if m["type"] == "chat"))
            with pytest.raises(ClientError, match="silenced"):
                await bob.request("chat", table=table, text="why")
            await floor.request("chat_silence", table=table, seat=2, silenced=False)
            await asyncio.sleep(PER_WAIT)  # bob's three lines are out of the rate's window
            await bob.request("chat", table=table, text="thanks")
            assert [d for d, _ in _audit(server, "chat_silence")] == [
                "bob (seat 2) silenced by the floor",
                "bob (seat 2) may chat again",
            ]

            # A newcomer to the table is sent its last lines.
            late = await player(server.url, "late")
            said: list[dict[str, Any]] = []
            late.listeners.append(said.append)
            await late.watch(table)
            await until(lambda: "thanks" in _lines(said))
            assert _lines(said)[0] == want

            # While the hand is in play a player's own hole cards are not told to the table,
            # and no chat line ever carries a hole card the server dealt.
            await until(lambda: server.room.rooms[table].game.in_hand)
            room = server.room.rooms[table]
            assert room.game.hand is not None
            seat = room.seat_of(alice_id(server))
            mine = [str(c) for c in room.game.hand.hole[room.game.order.index(seat)]]
            with pytest.raises(ClientError, match="one player to a hand"):
                await alice.request("chat", table=table, text=f"I hold {mine[0]} lol")
            for lines in heard.values():
                for text in _lines(lines):
                    assert not any(card in text.split() for card in mine), text

    asyncio.run(main())


PER_WAIT = 5.1  # the chat's rate window, passed


def alice_id(server: Any) -> int:
    return int(
        server.room.store.read(
            lambda c: c.exec_driver_sql("SELECT id FROM accounts WHERE name = 'alice'").scalar()
        )
    )
