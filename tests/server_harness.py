"""Card room servers for the tests: in this process (uvicorn on a free loopback port) or as a
real ``croupier serve`` subprocess."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Callable
from typing import Any

import uvicorn

from croupier.client import Client
from croupier.server import CardRoom, Options, create_app
from croupier.server.web.protocol import check_server_message
from croupier.server.web.socket_protocol import CardRoomWebSocket
from server_clients import free_port

FAST = Options(clock=5.0, bank=5.0, pause=0.0, bot_delay=0.0, demo=False)


@dataclasses.dataclass
class Running:
    room: CardRoom
    url: str
    server: uvicorn.Server


@contextlib.asynccontextmanager
async def running(
    db: str,
    options: Options = FAST,
    port: int | None = None,
    ws_ping: float = 20.0,
    forwarded_allow_ips: str = "",
) -> AsyncIterator[Running]:
    """A card room served here; ``ws_ping``: uvicorn's keepalive interval and time-out;
    ``forwarded_allow_ips``: the proxies trusted (none, as croupier serve by default)."""
    # free_port's port may be taken by another test worker before uvicorn binds it: then
    # uvicorn exits at start, and a port of our own choosing is tried again.
    for attempt in range(5):
        chosen = port or free_port()
        url = f"http://127.0.0.1:{chosen}"
        room = CardRoom(db, dataclasses.replace(options, public_url=url))
        config = uvicorn.Config(
            create_app(room),
            host="127.0.0.1",
            port=chosen,
            log_level="error",
            ws_max_size=65536,
            ws_per_message_deflate=False,
            ws=CardRoomWebSocket,
            ws_ping_interval=ws_ping,
            ws_ping_timeout=ws_ping,
            lifespan="on",
            proxy_headers=bool(forwarded_allow_ips),
            forwarded_allow_ips=forwarded_allow_ips or None,
        )
        server = uvicorn.Server(config)
        task = asyncio.create_task(_serve(server))
        while not server.started and not task.done():
            await asyncio.sleep(0.02)
        if server.started:
            break
        if not task.result() and (port is not None or attempt == 4):
            raise AssertionError(f"the server could not bind port {chosen}")
    try:
        yield Running(room, url, server)
    finally:
        server.should_exit = True
        await task


async def _serve(server: uvicorn.Server) -> bool:
    """Serve until told to stop; False if uvicorn could not start (it exits: caught here,
    where a SystemExit from a task would stop the whole event loop)."""
    try:
        await server.serve()
    except SystemExit:
        return False
    return True


async def player(url: str, name: str, password: str = "password-1") -> Client:
    """A registered, connected client whose every message is checked against the protocol."""
    client = await Client.register(url, name, password)
    client.listeners.append(check_server_message)
    await client.connect()
    return client


async def heads_up(url: str) -> tuple[Client, Client, int]:
    """alice and bob, 200 chips each, at a new heads-up hold'em table under rws."""
    alice = await player(url, "alice")
    bob = await player(url, "bob")
    table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 2})
    await alice.sit(table, 1, 200)
    await bob.sit(table, 2, 200)
    return alice, bob, table


async def until(
    done: Callable[[], object], seconds: float = 20, behind: Callable[[], object] = str
) -> None:
    """Wait until ``done()``; else fail saying what ``behind`` finds (what held it up)."""
    for _ in range(int(seconds / 0.02)):
        if done():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out: {behind()}")


def simple_move(legal: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Check or call; stand pat at the draw; an opener who must bet bets the least."""
    if legal.get("draw"):
        return "draw", {"cards": []}
    if not legal["can_check"] and legal["call"] == 0:
        if legal["bring_in"] is not None:
            return "bring_in", {}
        return "bet_or_raise", {"amount": legal["raise_range"][0]}
    return "check_or_call", {}


ROOT = __import__("pathlib").Path(__file__).resolve().parent.parent


def start_postgres() -> tuple[str, str]:
    """Start a cluster with tools/postgres.sh: (DSN, folder). Fails with how to fix it."""
    import pytest

    script = ROOT / "tools" / "postgres.sh"
    done = subprocess.run(
        ["bash", str(script), "start", "--fast"], capture_output=True, text=True, timeout=600
    )
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or len(lines) < 2:
        pytest.fail(
            "could not start PostgreSQL for the card room tests with tools/postgres.sh "
            f"(exit {done.returncode}): {done.stderr.strip()[-800:]}\n"
            "Fix: install Debian's postgresql package (sudo apt-get install -y postgresql), "
            "then run the tests again.",
            pytrace=False,
        )
    return lines[-2], lines[-1]


def stop_postgres(folder: str) -> None:
    subprocess.run(
        ["bash", str(ROOT / "tools" / "postgres.sh"), "stop", folder],
        capture_output=True,
        timeout=120,
        check=False,
    )


def fresh_postgres_db(dsn: str) -> str:
    """A new empty database on the test cluster, so tests do not share state."""
    import uuid

    import psycopg

    name = "t" + uuid.uuid4().hex[:12]
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return dsn.rsplit("/", 1)[0] + "/" + name


def start_serve(
    db: str, port: int, *extra: str, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """A real ``croupier serve`` on ``db`` and ``port`` (``extra`` options after the harness's
    own, so that they win), once it answers; its output in its stdout pipe."""
    command = [
        sys.executable,
        "-c",
        "from croupier.cli import app; app()",
        "serve",
        "--db",
        db,
        "--port",
        str(port),
        "--pause",
        "0.2",
        "--bot-delay",
        "0.3",
        *extra,
    ]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return process
        except OSError as error:
            if process.poll() is not None:
                output = process.stdout.read()  # type: ignore[union-attr]
                raise AssertionError(f"croupier serve exited: {output!r}") from error
            time.sleep(0.1)
    process.kill()
    raise AssertionError("croupier serve did not answer within 60 s")
