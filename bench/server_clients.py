"""bench/server.py's card room under test: its ``croupier serve`` processes, their database,
and the bench's players (registering, sitting, playing at random, reconnecting)."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from croupier.client import Client, ClientError
from croupier.server.store.database import check_ledger, database_url

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "bench-password"


# --- the server under test -------------------------------------------------------------------


def free_port() -> int:
    """A free loopback port below the kernel's ephemeral range, from which bind(0) and every
    outgoing connection draw theirs: a server killed and started again on its port (the crash
    bench, the restart tests) finds it still free, as no client's socket can have taken it."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768  # Linux's default
    chance = random.SystemRandom()
    for _ in range(200):
        port = chance.randrange(max(1024, low - 12000), low)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue  # in use: another
            return port
    raise OSError(f"no free loopback port below {low}")


@dataclass
class Server:
    db: str
    port: int
    args: tuple[str, ...]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [
            sys.executable,
            "-c",
            "from croupier.cli import app; app()",
            "serve",
            "--db",
            self.db,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--no-demo",
            *self.args,
        ]
        out = self.log.open("ab")
        self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=1):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise SystemExit(f"croupier serve exited; see {self.log}") from None
                time.sleep(0.05)
        raise SystemExit("croupier serve did not start within 60 s")

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> int:
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else 0
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return -9

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None


@contextlib.contextmanager
def database(kind: str):  # type: ignore[no-untyped-def]
    """A fresh database: a SQLite file, a throwaway PostgreSQL (tools/postgres.sh), or a DSN.
    Yields its address, a label, and the PostgreSQL cluster's folder when it made one."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="croupier-bench-") as folder:
            yield str(Path(folder) / "room.db"), "SQLite (WAL, synchronous=NORMAL)", None
        return
    if kind.startswith("postgres"):
        if "://" in kind:
            yield kind, "PostgreSQL (given)", None
            return
        done = subprocess.run(
            ["bash", str(ROOT / "tools" / "postgres.sh"), "start"],
            capture_output=True,
            text=True,
            check=True,
        )
        dsn, folder = done.stdout.split()[-2:]
        try:
            yield dsn, "PostgreSQL (fsync on, synchronous_commit on)", folder
        finally:
            subprocess.run(
                ["bash", str(ROOT / "tools" / "postgres.sh"), "stop", folder], check=False
            )
        return
    raise SystemExit(f"--db: sqlite, postgres, or a postgresql:// DSN, not {kind!r}")


class Reader:
    """Reads the server's database while it runs: no migration, no write, one connection."""

    def __init__(self, db: str) -> None:
        self.engine = create_engine(database_url(db), poolclass=NullPool)

    def read(self, fn: Any) -> Any:
        with self.engine.connect() as conn:
            return fn(conn)

    def close(self) -> None:
        self.engine.dispose()


# --- players ---------------------------------------------------------------------------------


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    sent: dict[str, float] = field(default_factory=dict)  # request id -> time sent
    acked: list[tuple[str, str]] = field(default_factory=list)  # (account name, request id)
    resent: int = 0
    duplicates_acked: int = 0
    refused: int = 0
    errors: dict[str, int] = field(default_factory=dict)


async def register_all(url: str, names: list[str], concurrency: int = 8) -> list[Client]:
    gate = asyncio.Semaphore(concurrency)

    async def one(name: str) -> Client:
        async with gate:
            return await Client.register(url, name, PASSWORD)

    return list(await asyncio.gather(*(one(n) for n in names)))


def choose(legal: dict[str, Any], rng: random.Random) -> tuple[str, dict[str, Any]]:
    if legal.get("draw"):
        return "draw", {"cards": []}
    if not legal["can_check"] and legal["call"] == 0:
        if legal["bring_in"] is not None:
            return "bring_in", {}
        return "bet_or_raise", {"amount": legal["raise_range"][0]}
    roll = rng.random()
    if legal["raise_range"] and roll < 0.15:
        return "bet_or_raise", {"amount": legal["raise_range"][0]}
    if legal["can_fold"] and not legal["can_check"] and roll > 0.85:
        return "fold", {}
    return "check_or_call", {}


async def seat_player(
    client: Client,
    table: int,
    tally: Tally,
    stop: asyncio.Event,
    rng: random.Random,
    *,
    reconnect: bool = False,
) -> None:
    """Play ``table`` on every turn until ``stop``; measure each action's round trip."""

    def on_message(message: dict[str, Any]) -> None:
        if message.get("type") == "events":
            cause = message.get("cause")
            started = tally.sent.pop(cause, None) if cause else None
            if started is not None:
                tally.latencies.append(time.perf_counter() - started)

    client.listeners.append(on_message)
    while not stop.is_set():
        view = client.views.get(table)
        if view is None or not view.my_turn:
            try:
                await client.my_turn(table, timeout=0.5)
            except TimeoutError:
                continue
            except ClientError:
                if not reconnect:
                    raise
                await _reconnect(client, stop)
                continue
            continue
        kind, fields = choose(view.legal or {}, rng)
        hand = view.hand  # a resend repeats the request exactly, the hand too
        request = client.new_id()
        tally.sent[request] = time.perf_counter()
        try:
            reply = await client.act(table, kind, id=request, **fields)
            tally.acked.append((client.name, request))
            if rng.random() < 0.01:  # resend the same action id: it must not apply twice
                tally.resent += 1
                again = await client.request(
                    "act", id=request, table=table, hand=hand, action=kind, **fields
                )
                tally.duplicates_acked += bool(again.get("duplicate"))
            del reply
        except ClientError as error:
            tally.sent.pop(request, None)
            tally.errors[error.code] = tally.errors.get(error.code, 0) + 1
            if error.code == "closed":
                if not reconnect:
                    raise
                await _reconnect(client, stop)


async def _reconnect(client: Client, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await client.reconnect()
        if client.ws is not None and not client.closed.is_set():
            return
        await asyncio.sleep(0.2)


async def set_up(
    url: str, clients: int, tables: int, seats: int, prefix: str, urls: list[str] | None = None
) -> tuple[list[Client], list[tuple[Client, int]]]:
    """Players at tables; with ``urls`` (several processes), table t is made on process
    t mod N, where it lives, and its players connect there."""
    urls = urls or [url]
    names = [f"{prefix}{i}" for i in range(clients)]
    players = await register_all(url, names)
    for index, client in enumerate(players):
        client.url = urls[(index // seats) % len(urls)] if index // seats < tables else url
        await client.connect()
    places: list[tuple[Client, int]] = []
    for t in range(tables):
        owner = Client(urls[t % len(urls)], players[0].token, players[0].name)
        table = await owner.create_table(
            {"game": "holdem", "rulebook": "rws", "seats": seats, "stakes": "1/2"},
            clock=30,
            bank=30,
            pause=0,
        )
        for s in range(seats):
            index = t * seats + s
            if index >= len(players):
                break
            await players[index].sit(table, s + 1, 400)
            places.append((players[index], table))
    return players, places


def stored_actions(db: str) -> tuple[dict[tuple[str, str], int], int]:
    """How often each (account name, request id) is stored; and all moves."""
    store = Reader(db)
    try:
        rows = store.read(
            lambda c: list(
                c.exec_driver_sql(
                    "SELECT a.name, m.request_id FROM moves m "
                    "JOIN accounts a ON a.id = m.account_id"
                )
            )
        )
        counts: dict[tuple[str, str], int] = {}
        for name, request in rows:
            if request is not None:
                counts[(name, request)] = counts.get((name, request), 0) + 1
        return counts, len(rows)
    finally:
        store.close()


def ledger_problems(db: str) -> list[str]:
    store = Reader(db)
    try:
        return store.read(check_ledger)
    finally:
        store.close()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
