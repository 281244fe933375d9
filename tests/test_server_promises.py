"""The card room keeps the promises docs/protocol.md makes about sessions and connections
(issue 43): a role change or a logout reaches the sockets already open; a frame that is not
UTF-8 costs one log line; watch ids follow the id rule; a client that does not read is closed
with 1008; a socket that never says hello is closed; the admin's password stays off the command
line; X-Forwarded-For is trusted from nobody by default; the page's security headers."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import socket
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import websockets

from croupier.client import Client
from croupier.server.store import accounts as auth
from server_clients import free_port
from server_harness import FAST, heads_up, player, running, start_serve, until

ADMIN_PASSWORD = "boss-password"


def socket_url(url: str) -> str:
    return url.replace("http://", "ws://") + "/ws"


async def raw(url: str, token: str | None = None, **options: Any) -> Any:
    """A bare WebSocket (said hello with ``token``, if given)."""
    ws = await websockets.connect(socket_url(url), **options)
    if token is not None:
        await ws.send(json.dumps({"type": "hello", "id": "h1", "token": token}))
        while json.loads(await ws.recv())["type"] != "welcome":
            pass
    return ws


async def closed_code(ws: Any, seconds: float = 5) -> int | None:
    """Read until the server closes the socket: its close code."""
    with contextlib.suppress(websockets.ConnectionClosed):
        async with asyncio.timeout(seconds):
            while True:
                await ws.recv()
    return ws.close_code  # type: ignore[no-any-return]


async def answer(ws: Any, request: str) -> dict[str, Any]:
    """The answer to ``request`` (a hello's: its welcome)."""
    async with asyncio.timeout(10):
        while True:
            message = json.loads(await ws.recv())
            if message.get("id") == request or message["type"] == "welcome":
                return message  # type: ignore[no-any-return]


async def an_admin(room: Any, url: str) -> Client:
    hashed = auth.hash_password(ADMIN_PASSWORD)
    room.store.write_now(lambda c: auth.make_admin(c, "boss", hashed))
    return await Client.login(url, "boss", ADMIN_PASSWORD)


def ledger_rows(room: Any, name: str) -> list[tuple[Any, ...]]:
    return [
        tuple(r)
        for r in room.store.read(
            lambda c: list(
                c.exec_driver_sql(
                    "SELECT l.id, l.kind, l.amount FROM ledger l JOIN accounts a "
                    f"ON a.id = l.account_id WHERE a.name = '{name}' ORDER BY l.id"
                )
            )
        )
    ]


# --- item 2: a role change or a logout reaches the open sockets --------------------------------


def test_a_dealer_made_a_player_cannot_void_a_hand_from_a_socket_opened_before(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as served:
            url = served.url
            boss = await an_admin(served.room, url)
            alice, bob, table = await heads_up(url)
            await until(lambda: alice.views[table].hand is not None)
            dana = await Client.register(url, "dana", "password-1")
            await boss.http("POST", "/api/accounts/dana/role", {"role": "dealer"})
            dealer = await raw(url, dana.token)  # opened as a dealer
            await boss.http("POST", "/api/accounts/dana/role", {"role": "player"})
            await dealer.send(json.dumps({"type": "void_hand", "id": "v1", "table": table}))
            refused = await answer(dealer, "v1")
            assert (refused["type"], refused["code"]) == ("error", "unauthorised")
            hands = served.room.store.read(
                lambda c: list(c.exec_driver_sql("SELECT status FROM hands"))
            )
            assert [h[0] for h in hands] == ["playing"]
            # Made a dealer again: the same socket voids the hand.
            await boss.http("POST", "/api/accounts/dana/role", {"role": "dealer"})
            await dealer.send(json.dumps({"type": "void_hand", "id": "v2", "table": table}))
            assert (await answer(dealer, "v2"))["type"] == "ok"
            await dealer.close()
            for client in (alice, bob, boss):
                await client.close()

    asyncio.run(main())


def test_a_logout_closes_the_tokens_open_sockets_and_a_sit_on_one_moves_no_chips(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as served:
            url = served.url
            alice = await player(url, "alice")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            carol = await Client.register(url, "carol", "password-1")
            ws = await raw(url, carol.token)
            other = await raw(url, carol.token)  # a second socket with the same token
            before = ledger_rows(served.room, "carol")
            await carol.http("POST", "/api/logout")
            sit = {"type": "sit", "id": "s1", "table": table, "seat": 3, "chips": 200}
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(json.dumps(sit))
            assert await closed_code(ws) == 4001
            assert await closed_code(other) == 4001
            await asyncio.sleep(0.3)
            assert ledger_rows(served.room, "carol") == before  # no chips moved
            seats = served.room.store.read(
                lambda c: list(c.exec_driver_sql("SELECT seat FROM seats"))
            )
            assert seats == []
            # A new socket with the token is refused at hello.
            again = await raw(url)
            await again.send(json.dumps({"type": "hello", "id": "h2", "token": carol.token}))
            assert (await answer(again, "h2"))["code"] == "unauthorised"
            await again.close()
            await alice.close()

    asyncio.run(main())


def test_another_processes_logout_refuses_the_next_message_within_session_seconds(
    tmp_path: Path,
) -> None:
    """Two processes on one database: a logout made by one reaches the other's socket at its
    next message once Options.session_seconds have passed (here 0: every message checks)."""

    async def main() -> None:
        db = str(tmp_path / "room.db")
        options = dataclasses.replace(FAST, session_seconds=0.0)
        async with running(db, options) as first, running(db, options) as second:
            carol = await Client.register(first.url, "carol", "password-1")
            ws = await raw(second.url, carol.token)
            await ws.send(json.dumps({"type": "watch", "id": "w1", "table": 999}))
            assert (await answer(ws, "w1"))["code"] == "not_found"
            await carol.http("POST", "/api/logout")  # the first process
            await ws.send(json.dumps({"type": "watch", "id": "w2", "table": 999}))
            assert await closed_code(ws) == 4001

    asyncio.run(main())


def test_another_processes_logout_closes_an_idle_socket_within_session_seconds(
    tmp_path: Path,
) -> None:
    """Two processes on one database: a logout made by one closes the other's socket that says
    nothing (4001), by that process's sweep of its sessions, within Options.session_seconds;
    another account's socket there stays open."""

    async def main() -> None:
        db = str(tmp_path / "room.db")
        options = dataclasses.replace(FAST, session_seconds=0.3)
        async with running(db, options) as first, running(db, options) as second:
            carol = await Client.register(first.url, "carol", "password-1")
            dan = await Client.register(first.url, "dan", "password-1")
            idle = await raw(second.url, carol.token)
            other = await raw(second.url, dan.token)
            await carol.http("POST", "/api/logout")  # the first process
            assert await asyncio.wait_for(closed_code(idle), 5) == 4001
            await other.send(json.dumps({"type": "ping", "id": "p1"}))
            assert (await answer(other, "p1"))["type"] == "pong"

    asyncio.run(main())


# --- item 3: smaller promises ------------------------------------------------------------------


def test_a_text_frame_that_is_not_utf8_is_closed_1007_and_logged_in_one_line(
    tmp_path: Path,
) -> None:
    port = free_port()
    process = start_serve(str(tmp_path / "room.db"), port, "--no-demo")
    url = f"http://127.0.0.1:{port}"

    async def main() -> list[int | None]:
        codes = []
        for _ in range(3):
            ws = await raw(url)
            await ws.send(b'{"type": "ping", "id": "\xff\xfe"}', text=True)
            codes.append(await closed_code(ws))
        return codes

    try:
        assert asyncio.run(main()) == [1007, 1007, 1007]
    finally:
        process.terminate()
        output = process.communicate(timeout=60)[0].decode(errors="replace")
    assert "Traceback" not in output and "ERROR" not in output, output
    assert output.count("was not UTF-8: closed (1007)") == 3, output


def test_watch_and_unwatch_ids_follow_the_id_rule(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as served:
            alice = await player(served.url, "alice")
            one = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            two = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            ws = await raw(served.url, alice.token)
            watch = {"type": "watch", "id": "w1", "table": one}
            await ws.send(json.dumps(watch))
            assert (await answer(ws, "w1"))["duplicate"] is False
            await ws.send(json.dumps(watch))  # a resend
            assert (await answer(ws, "w1"))["duplicate"] is True
            await ws.send(json.dumps({**watch, "table": two}))  # the id for another request
            assert (await answer(ws, "w1"))["code"] == "id_reused"
            unwatch = {"type": "unwatch", "id": "u1", "table": one}
            await ws.send(json.dumps(unwatch))
            assert (await answer(ws, "u1"))["duplicate"] is False
            await ws.send(json.dumps(unwatch))
            assert (await answer(ws, "u1"))["duplicate"] is True
            # The watch resent on a new connection (the first lost): answered as a resend,
            # and the new connection follows the table (its state first).
            await ws.close()
            fresh = await raw(served.url, alice.token)
            await fresh.send(json.dumps(watch))
            state = json.loads(await fresh.recv())
            assert (state["type"], state["table"]) == ("state", one)
            assert (await answer(fresh, "w1"))["duplicate"] is True
            await fresh.close()
            await alice.close()

    asyncio.run(main())


def test_a_client_that_never_reads_is_closed_with_1008_not_by_the_keepalive(
    tmp_path: Path,
) -> None:
    """Its outbox full (OUTBOX_LIMIT), the connection is closed with 1008 at once, behind what
    its transport holds, not after a send that never completes (the keepalive's 1011)."""

    async def main() -> None:
        options = dataclasses.replace(FAST, rate=10**6, burst=10**6)
        async with running(str(tmp_path / "room.db"), options, ws_ping=0.5) as served:
            alice = await player(served.url, "alice")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            reader = await Client.register(served.url, "reader", "password-1")
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", int(served.url.rsplit(":", 1)[1])))
            ws = await websockets.connect(
                socket_url(served.url), sock=sock, max_queue=1, ping_interval=None
            )
            await ws.send(json.dumps({"type": "hello", "id": "h", "token": reader.token}))
            conns = served.room.conns

            def readers() -> list[Any]:
                return [c for cs in conns.values() for c in cs if c.name == "reader"]

            def let_go() -> bool:
                return all(c.closed for c in readers())

            await until(readers)

            sent = 0
            while not let_go() and sent < 40_000:
                batch = [
                    json.dumps({"type": "watch", "id": f"w{sent + i}", "table": table})
                    for i in range(200)
                ]
                for text in batch:
                    await ws.send(text)
                sent += len(batch)
                await asyncio.sleep(0.01)
            await until(let_go, 30)
            await asyncio.sleep(2.5)  # the keepalive (0.5 s) would have closed it by now
            assert await closed_code(ws, 30) == 1008
            await alice.close()

    asyncio.run(main())


def test_a_socket_that_never_says_hello_is_closed_and_an_address_holds_few(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        options = dataclasses.replace(FAST, hello_seconds=1.0, sockets_before_hello=3)
        async with running(str(tmp_path / "room.db"), options) as served:
            alice = await Client.register(served.url, "alice", "password-1")
            silent = [await raw(served.url) for _ in range(3)]
            started = time.monotonic()
            extra = await raw(served.url)
            assert await closed_code(extra) == 4003  # the address holds 3 already
            await silent[0].send(json.dumps({"type": "hello", "id": "h", "token": alice.token}))
            assert (await answer(silent[0], "h"))["type"] == "welcome"
            another = await raw(served.url)  # room for one more now
            for ws in silent[1:]:
                assert await closed_code(ws) == 4002
            assert time.monotonic() - started < 3
            assert await closed_code(another) == 4002
            await silent[0].send(json.dumps({"type": "ping", "id": "p"}))
            assert (await answer(silent[0], "p"))["type"] == "pong"  # said hello: stays
            await silent[0].close()

    asyncio.run(main())


def test_the_admins_password_is_never_on_the_command_line(tmp_path: Path) -> None:
    db = str(tmp_path / "room.db")
    env = {**os.environ, "CROUPIER_ADMIN_PASSWORD": ADMIN_PASSWORD}
    secret = tmp_path / "admin-password"
    secret.write_text("file-password-1\n")
    for extra, password in (
        ((), ADMIN_PASSWORD),
        (("--admin-password-file", str(secret)), "file-password-1"),
    ):
        port = free_port()
        process = start_serve(db, port, "--no-demo", "--admin", "boss", *extra, env=env)
        try:
            assert ADMIN_PASSWORD not in " ".join(process.args)  # type: ignore[arg-type]
            body = json.dumps({"name": "boss", "password": password}).encode()
            ask = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/login",
                data=body,
                headers={"content-type": "application/json"},
            )
            with urllib.request.urlopen(ask, timeout=30) as answered:
                assert json.loads(answered.read())["role"] == "admin"
        finally:
            process.terminate()
            process.wait(60)
    port = free_port()
    with pytest.raises(AssertionError, match="NAME only"):
        start_serve(db, port, "--no-demo", "--admin", f"boss:{ADMIN_PASSWORD}")


def read_headers(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as page:
        return page.headers


def test_the_page_and_the_api_send_strict_security_headers(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as served:
            for path in ("/", "/static/app.js", "/api/tables"):
                headers = await asyncio.to_thread(read_headers, served.url + path)
                policy = headers["content-security-policy"]
                assert "script-src 'self';" in policy and "unsafe" not in policy
                assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy
                # The page's socket may follow a table to any process of the room.
                assert socket_url(served.url)[: -len("/ws")] in policy
                assert headers["x-frame-options"] == "DENY"
                assert headers["x-content-type-options"] == "nosniff"
                assert headers["referrer-policy"] == "no-referrer"

    asyncio.run(main())
