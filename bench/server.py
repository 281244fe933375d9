"""The card room under load, crashes and attack, on the loopback address only.

    python bench/server.py load    [--db sqlite|postgres|DSN] [--clients 200] [--tables 40]
                                   [--seconds 60] [--processes 1]
    python bench/server.py crash   [--db ...] [--kills 50] [--clients 40] [--tables 8]
    python bench/server.py hostile [--db ...] [--messages 100000]

Each starts its own ``croupier serve`` (a subprocess: the server has its own process, as in
production; the clients share the other core) and bounds its own time and counts.

- load: clients sit at tables of 5 and play (check, call, min-raise or fold at random). It prints
  p50/p99 action-to-broadcast latency (an action sent to the broadcast carrying it arriving back
  at the actor), actions per second, lost actions (acknowledged but not stored), doubled actions
  (stored twice; 1% of actions are deliberately resent with the same id), and chip-conservation
  violations (the ledger check and each hand in progress). Goal: p99 < 50 ms, >= 2,000
  actions/s, 0 / 0 / 0. With ``--processes N`` (PostgreSQL only) it runs N ``croupier serve``
  processes on one database, as a card room grows (docs/scaling.md): each table is created on
  one of them in turn, where it lives, and its players connect to that process.
- crash: play while the server is killed with SIGKILL at random moments and restarted; at the
  end every player leaves, and every hand must be finished or void (refunded), the ledger must
  balance, and every chip must be back in an account.
- hostile: malformed, oversized, unauthorised, out-of-turn and replayed messages against a table
  in the middle of a hand: 0 crashes, 0 state changes, 0 hidden cards to the wrong seat.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
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
from croupier.server.store import check_ledger, database_url

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "bench-password"


# --- the server under test -------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
    """A fresh database: a SQLite file, a throwaway PostgreSQL (tools/postgres.sh), or a DSN."""
    if kind == "sqlite":
        with tempfile.TemporaryDirectory(prefix="croupier-bench-") as folder:
            yield str(Path(folder) / "room.db"), "SQLite (WAL, synchronous=NORMAL)"
        return
    if kind.startswith("postgres"):
        if "://" in kind:
            yield kind, "PostgreSQL (given)"
            return
        done = subprocess.run(
            ["bash", str(ROOT / "tools" / "postgres.sh"), "start"],
            capture_output=True,
            text=True,
            check=True,
        )
        dsn, folder = done.stdout.split()[-2:]
        try:
            yield dsn, "PostgreSQL (fsync on, synchronous_commit on)"
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
        request = client.new_id()
        tally.sent[request] = time.perf_counter()
        try:
            reply = await client.act(table, kind, id=request, **fields)
            tally.acked.append((client.name, request))
            if rng.random() < 0.01:  # resend the same action id: it must not apply twice
                tally.resent += 1
                again = await client.request(
                    "act", id=request, table=table, hand=view.hand, action=kind, **fields
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


# --- load ------------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user and system) a process has used so far, from /proc (Linux); None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def health_stats(servers: list[Server]) -> dict[str, float]:
    """The servers' counters, summed over the processes."""
    total: dict[str, float] = {}
    for server in servers:
        with urllib.request.urlopen(server.url + "/api/health", timeout=10) as reply:
            for key, value in json.loads(reply.read())["stats"].items():
                total[key] = total.get(key, 0) + value
    return total


def servers_cpu(servers: list[Server]) -> float | None:
    used = [cpu_seconds(s.process.pid) if s.process else None for s in servers]
    return None if None in used else sum(u for u in used if u is not None)


async def run_load(
    server: Server, clients: int, tables: int, seconds: float, more: list[Server] | None = None
) -> dict[str, Any]:
    servers = [server, *(more or [])]
    seats = max(2, clients // tables)
    players, places = await set_up(
        server.url, clients, tables, seats, "p", [s.url for s in servers]
    )
    tally = Tally()
    stop = asyncio.Event()
    rng = random.Random(7)
    tasks = [
        asyncio.create_task(seat_player(c, t, tally, stop, random.Random(rng.random())))
        for c, t in places
    ]
    await asyncio.sleep(3)  # warm up: hands under way at every table
    tally.latencies.clear()
    acked_before = len(tally.acked)
    stats_before = health_stats(servers)
    server_cpu, bench_cpu = servers_cpu(servers), time.process_time()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    acked = len(tally.acked) - acked_before
    server_end = servers_cpu(servers)
    cpu = (
        None if server_cpu is None or server_end is None else server_end - server_cpu,
        time.process_time() - bench_cpu,
    )
    latencies = list(tally.latencies)
    stats = health_stats(servers)
    stats = {key: value - stats_before.get(key, 0) for key, value in stats.items()}  # the round's
    # While hands are in play: the ledger, and each hand's chips against what it was dealt.
    admin = await Client.login(server.url, "benchadmin", PASSWORD)
    live = await admin.http("GET", "/api/ledger/check")
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for client in players:
        await client.close()
    return {
        "tally": tally,
        "latencies": latencies,
        "actions": acked,
        "elapsed": elapsed,
        "live_check": live["problems"],
        "stats": stats,
        "cpu": cpu,
    }


def report_load(label: str, server: Server, result: dict[str, Any]) -> None:
    tally: Tally = result["tally"]
    counts, _ = stored_actions(server.db)
    lost = sum(1 for key in tally.acked if key not in counts)
    doubled = sum(n - 1 for n in counts.values() if n > 1)
    problems = ledger_problems(server.db) + result["live_check"]
    lat = result["latencies"]
    rate = result["actions"] / result["elapsed"]
    p50, p99 = percentile(lat, 0.5) * 1000, percentile(lat, 0.99) * 1000
    print(f"{label}: {result['actions']:,} actions in {result['elapsed']:.0f} s")
    print(f"  action-to-broadcast latency  p50 {p50:6.1f} ms   p99 {p99:6.1f} ms   (goal p99 < 50)")
    print(f"  actions per second           {rate:8,.0f}              (goal >= 2,000)")
    print(f"  lost actions                 {lost:8}")
    print(
        f"  doubled actions              {doubled:8}   ({tally.resent} resent, "
        f"{tally.duplicates_acked} answered duplicate)"
    )
    print(f"  chip-conservation violations {len(problems):8}")
    for problem in problems[:5]:
        print(f"    {problem}")
    if tally.errors:
        print(f"  refusals by code: {tally.errors}")
    # CPU per action holds on a busy machine, where the rates above depend on who else runs.
    server_cpu, bench_cpu = result["cpu"]
    per = max(1, result["actions"])
    shown = "?" if server_cpu is None else f"{server_cpu / per * 1000:.2f} ms"
    print(
        f"  CPU per action: the server {shown}, the clients {bench_cpu / per * 1000:.2f} ms "
        f"(one process); the machine's load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    stats, n = result["stats"], max(1, result["stats"]["actions"])
    print(
        f"  in the server, per action: engine {stats['engine_seconds'] / n * 1000:.2f} ms, "
        f"store (queue and commit) {stats['store_seconds'] / n * 1000:.2f} ms, broadcast "
        f"{stats['broadcast_seconds'] / n * 1000:.2f} ms; "
        f"{n / max(1, stats['commits']):.1f} actions per commit, "
        f"{stats['writer_busy'] / max(1, stats['commits']) * 1000:.1f} ms each "
        f"({stats.get('writer_commit', 0) / max(1, stats['commits']) * 1000:.1f} in COMMIT, "
        f"{stats.get('writer_cpu', 0) / max(1, stats['commits']) * 1000:.1f} on the CPU); "
        "the writer busy "
        f"{stats['writer_busy'] / result['elapsed']:.0%} of the time"
    )


# --- crash -----------------------------------------------------------------------------------


async def run_crash(server: Server, clients: int, tables: int, kills: int, seed: int) -> None:
    seats = max(2, clients // tables)
    players, places = await set_up(server.url, clients, tables, seats, "c")
    rng = random.Random(seed)
    tally = Tally()
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(
            seat_player(c, t, tally, stop, random.Random(rng.random()), reconnect=True)
        )
        for c, t in places
    ]
    for number in range(kills):
        await asyncio.sleep(rng.uniform(0.2, 1.5))
        server.kill()
        server.start()
        if (number + 1) % 10 == 0:
            print(f"  {number + 1} kills", flush=True)
    await asyncio.sleep(2)

    # Everyone leaves: each seat goes when its hand ends, then no hand is dealt.
    async def leave(client: Client, table: int) -> None:
        with contextlib.suppress(ClientError, TimeoutError):
            await client.request("leave", table=table, timeout=10)

    await asyncio.gather(*(leave(client, table) for client, table in places))
    deadline = time.time() + 120
    while time.time() < deadline and _hands_playing(server.db):
        await asyncio.sleep(0.5)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    for client in players:
        await client.close()


def _hands_playing(db: str) -> int:
    store = Reader(db)
    try:
        return int(
            store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM hands WHERE status = 'playing'"
                ).scalar()
            )
        )
    finally:
        store.close()


def report_crash(label: str, server: Server, kills: int) -> bool:
    store = Reader(server.db)
    try:
        statuses = dict(
            store.read(
                lambda c: list(
                    c.exec_driver_sql("SELECT status, count(*) FROM hands GROUP BY status")
                )
            )
        )
        resumed = store.read(
            lambda c: c.exec_driver_sql("SELECT count(*) FROM audit WHERE kind = 'resume'").scalar()
        )
        voids = store.read(
            lambda c: [
                r[0] for r in c.exec_driver_sql("SELECT detail FROM audit WHERE kind = 'void'")
            ]
        )
        seated = store.read(
            lambda c: c.exec_driver_sql("SELECT coalesce(sum(chips), 0) FROM seats").scalar()
        )
        cash = store.read(
            lambda c: c.exec_driver_sql(
                "SELECT coalesce(sum(amount), 0) FROM ledger WHERE kind = 'cash_in' AND amount > 0"
            ).scalar()
        )
        held = store.read(
            lambda c: c.exec_driver_sql(
                "SELECT coalesce(sum(balance), 0) FROM accounts WHERE role <> 'cage'"
            ).scalar()
        )
        problems = store.read(check_ledger)
    finally:
        store.close()
    print(f"{label}: {kills} SIGKILLs during play")
    print(f"  hands: {statuses}")
    print(f"  hands in progress rebuilt after a restart, every event as stored: {resumed}")
    print(f"  void (refunded) hands: {len(voids)}")
    for reason in voids[:5]:
        print(f"    {reason}")
    print(f"  chips cashed in {cash:,}, held in accounts {held:,}, left at tables {seated:,}")
    print(f"  ledger problems {len(problems)}")
    for problem in problems[:5]:
        print(f"    {problem}")
    good = not problems and cash == held and seated == 0 and "playing" not in statuses
    print(f"  every hand finished or refunded, no chip created or lost: {'yes' if good else 'NO'}")
    return good


# --- hostile ---------------------------------------------------------------------------------

CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])")


def hostile_messages(
    rng: random.Random, table: int, hand: int, replays: list[dict[str, Any]], count: int
) -> list[tuple[str, str]]:
    """``count`` (family, text) pairs, families in turn."""
    out: list[tuple[str, str]] = []
    families = ("malformed", "oversized", "unauthorised", "out_of_turn", "replayed")
    garbage = [
        "",
        "{",
        "null",
        "[]",
        "42",
        '"hello"',
        "{}",
        '{"type": 5}',
        '{"type": "act"}',
        '{"type": "sit", "id": "x", "table": "one", "seat": 1, "chips": 1}',
        '{"type": "act", "id": "x", "table": 1, "hand": 1, "action": "steal"}',
        '{"type": "act", "id": "x", "table": 1, "hand": 1, "action": "bet_or_raise", '
        '"amount": 1e309}',
        '{"type": "act", "id": "\\u0000", "table": 1}',
        "[" * 3000,
        '{"a":' * 1000,
        "\udcff" if False else "\u00ff\u00fe",
        '{"type": "sit", "id": "y", "table": 1, "seat": 1, "chips": 99999999999999999999}',
    ]
    for i in range(count):
        family = families[i % len(families)]
        rid = f"h{i}"
        if family == "malformed":
            text = rng.choice(garbage)
            if rng.random() < 0.5:
                text = "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(1, 60)))
        elif family == "oversized":
            # Most over the message limit (answered too_large); one in 20 over the frame limit
            # (64 KiB: the server closes the connection).
            pad = "x" * (70_000 if i % 100 == 1 else rng.randrange(4100, 20000))
            text = json.dumps({"type": "ping", "id": rid, "pad": pad})
        elif family == "unauthorised":
            text = json.dumps(
                rng.choice(
                    [
                        {"type": "add_bot", "id": rid, "table": table, "seat": 1},
                        {"type": "void_hand", "id": rid, "table": table, "reason": "mine"},
                        {"type": "act", "id": rid, "table": table, "hand": hand, "action": "fold"},
                        {"type": "leave", "id": rid, "table": table},
                        {"type": "hello", "id": rid, "token": "forged-token-" + str(i)},
                    ]
                )
            )
        elif family == "out_of_turn":
            text = json.dumps(
                rng.choice(
                    [
                        {"type": "act", "id": rid, "table": table, "hand": hand, "action": "fold"},
                        {
                            "type": "act",
                            "id": rid,
                            "table": table,
                            "hand": hand,
                            "action": "bet_or_raise",
                            "amount": rng.randrange(1, 10**6),
                        },
                        {
                            "type": "act",
                            "id": rid,
                            "table": table,
                            "hand": hand + 1,
                            "action": "fold",
                        },
                        {
                            "type": "act",
                            "id": rid,
                            "table": table,
                            "hand": hand,
                            "action": "draw",
                            "cards": ["Ah"],
                        },
                        {
                            "type": "sit",
                            "id": rid,
                            "table": table,
                            "seat": rng.randrange(1, 4),
                            "chips": rng.randrange(1, 10**6),
                        },
                        {
                            "type": "top_up",
                            "id": rid,
                            "table": table,
                            "chips": rng.randrange(1, 10**6),
                        },
                        {"type": "act", "id": rid, "table": 10**6, "hand": 1, "action": "fold"},
                    ]
                )
            )
        else:
            text = json.dumps(rng.choice(replays)) if replays else "{}"
        out.append((family, text))
    return out


def state_snapshot(db: str) -> dict[str, Any]:
    """What must not change under attack: money, seats, hands, moves, applied requests."""
    store = Reader(db)
    queries = {
        "accounts": "SELECT id, name, role, balance FROM accounts ORDER BY id",
        "ledger": "SELECT count(*), coalesce(sum(amount), 0) FROM ledger",
        "seats": "SELECT table_id, seat, account_id, chips, status, leaving FROM seats "
        "ORDER BY table_id, seat",
        "hands": "SELECT id, status, to_act FROM hands ORDER BY id",
        "moves": "SELECT count(*) FROM moves",
        "applied": "SELECT count(*) FROM audit WHERE outcome = 'applied'",
        "tables": "SELECT id, status, hands FROM tables ORDER BY id",
    }
    try:
        return {
            k: [tuple(r) for r in store.read(lambda c, q=q: list(c.exec_driver_sql(q)))]
            for k, q in queries.items()
        }
    finally:
        store.close()


def house_cards(db: str) -> tuple[dict[int, set[str]], set[str]]:
    """The hole cards of each seat in the hands in play, and the cards shown, from the house's
    record (deal and moves)."""
    store = Reader(db)
    try:
        rows = store.read(
            lambda c: list(
                c.exec_driver_sql("SELECT id, seats, events FROM hands WHERE status = 'playing'")
            )
        )
        holes: dict[int, set[str]] = {}
        shown: set[str] = set()
        for hand_id, seats, events in rows:
            order = [row[0] for row in json.loads(seats)]
            records = json.loads(events)
            for (more,) in store.read(
                lambda c, h=hand_id: list(
                    c.exec_driver_sql(f"SELECT events FROM moves WHERE hand_id = {h} ORDER BY seq")
                )
            ):
                records += json.loads(more)
            for record in records:
                if record["event"] == "DealHole":
                    holes.setdefault(order[record["player"]], set()).update(record["cards"])
                if record["event"] == "Show":
                    shown.update(record["cards"])
        return holes, shown
    finally:
        store.close()


async def run_hostile(server: Server, messages: int, seed: int) -> dict[str, Any]:
    """Two honest players in the middle of a hand; attackers: a stranger who never said hello,
    a spectator, and one of the players from a second connection (out of turn, replays)."""
    url = server.url
    alice, bob, mallory = await register_all(url, ["alice", "bob", "mallory"])
    for client in (alice, bob, mallory):
        await client.connect()
    table = await alice.create_table(
        {"game": "holdem", "rulebook": "rws", "seats": 3}, clock=3600, bank=3600, pause=0
    )
    await alice.sit(table, 1, 400)
    await bob.sit(table, 2, 400)
    replays: list[dict[str, Any]] = []
    rng = random.Random(seed)
    # Play honestly, keeping bob's messages to resend later, until bob has acted a few times
    # and it is alice's turn: everything bob sends from now on is out of turn or a replay.
    for _ in range(2000):
        if len(replays) >= 3 and alice.views[table].my_turn:
            break
        for client in (alice, bob):
            view = client.views[table]
            if view.my_turn and not (client is alice and len(replays) >= 3):
                kind, fields = choose(view.legal or {}, rng)
                if kind == "fold":
                    kind, fields = "check_or_call", {}
                request = client.new_id()
                message = {
                    "type": "act",
                    "id": request,
                    "table": table,
                    "hand": view.hand,
                    "action": kind,
                    **fields,
                }
                await client.act(table, kind, id=request, **fields)
                if client is bob:
                    replays.append(message)
        await asyncio.sleep(0.01)
    assert alice.views[table].my_turn, "could not reach alice's turn"
    view = alice.views[table]
    hand = int(view.hand or 1)
    await mallory.watch(table)
    bob_again = await Client.login(url, "bob", PASSWORD)
    await bob_again.connect()  # bob's own account, a second connection: same seat
    before = state_snapshot(server.db)
    received: dict[str, list[str]] = {"mallory": [], "bob_again": [], "stranger": []}
    replies: dict[str, int] = {}

    def note(who: str, message: dict[str, Any]) -> None:
        received[who].append(json.dumps(message))
        if message.get("type") == "error":
            replies[message["code"]] = replies.get(message["code"], 0) + 1
        elif message.get("type") == "ok" and not str(message.get("id")).startswith("rewatch-"):
            key = "ok (duplicate)" if message.get("duplicate") else "ok (applied!)"
            replies[key] = replies.get(key, 0) + 1
        elif message.get("type") == "events" and message.get("cause"):
            # An action applied answers with the events it caused (docs/protocol.md), and
            # nobody honest acts during the attack: any such events are an attack that worked.
            replies["events (applied!)"] = replies.get("events (applied!)", 0) + 1

    mallory.listeners.append(lambda m: note("mallory", m))
    bob_again.listeners.append(lambda m: note("bob_again", m))
    import websockets

    address = url.replace("http://", "ws://") + "/ws"
    ws = await websockets.connect(address, max_size=2**24)
    answers: dict[str, int] = {}
    plan = hostile_messages(rng, table, hand, replays, messages)
    senders = {
        "malformed": mallory,
        "oversized": mallory,
        "unauthorised": mallory,
        "out_of_turn": bob_again,
        "replayed": bob_again,
    }
    sockets = {"stranger": ws}
    reconnects = 0
    for index, (family, text) in enumerate(plan):
        target = "stranger" if family == "unauthorised" and index % 3 == 0 else family
        try:
            answers[family] = answers.get(family, 0) + 1  # attempted
            if target == "stranger":
                await sockets["stranger"].send(text)
                reply = await asyncio.wait_for(sockets["stranger"].recv(), 10)
                received["stranger"].append(str(reply))
                code = json.loads(reply).get("code", "?")
                replies[f"{code} (no hello)"] = replies.get(f"{code} (no hello)", 0) + 1
            else:
                client = senders[family]
                await client.send(text)
        except Exception:
            reconnects += 1
            if target == "stranger":
                sockets["stranger"] = await websockets.connect(address, max_size=2**24)
            else:
                client = senders[family]
                await client.connect()
                if client is mallory:  # a spectator again: still nothing to see
                    await client.request("watch", id=f"rewatch-{index}", table=table)
        if index % 50 == 0:
            await asyncio.sleep(0)  # let replies flow
    await asyncio.sleep(1.0)
    after = state_snapshot(server.db)
    holes, shown = house_cards(server.db)
    leaks = 0
    for who, seat in (("mallory", None), ("bob_again", 2), ("stranger", None)):
        hidden = set().union(*(cards for s, cards in holes.items() if s != seat)) - shown
        for text in received[who]:
            leaks += len(hidden & set(CARD.findall(text)))
    alive = server.alive()
    for client in (alice, bob, mallory, bob_again):
        await client.close()
    await ws.close()
    return {
        "sent": answers,
        "changes": _diff(before, after),
        "leaks": leaks,
        "alive": alive,
        "reconnects": reconnects,
        "replies": replies,
    }


def _diff(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    return [key for key in before if before[key] != after[key]]


def report_hostile(label: str, server: Server, result: dict[str, Any]) -> bool:
    crashes = 0 if result["alive"] else 1
    log = server.log.read_text(errors="replace") if server.log.exists() else ""
    tracebacks = log.count("Traceback")
    print(f"{label}: {sum(result['sent'].values()):,} hostile messages: {result['sent']}")
    print(f"  crashes {crashes}   tracebacks in the server log {tracebacks}")
    print(f"  state changes {len(result['changes'])} {result['changes'] or ''}")
    print(f"  hidden cards sent to the wrong seat {result['leaks']}")
    print(f"  connections closed by the server and reopened {result['reconnects']}")
    print(f"  replies: {dict(sorted(result['replies'].items()))}")
    applied = result["replies"].get("ok (applied!)", 0)
    applied += result["replies"].get("events (applied!)", 0)
    return (
        crashes == 0
        and not result["changes"]
        and result["leaks"] == 0
        and tracebacks == 0
        and applied == 0
    )


# --- main ------------------------------------------------------------------------------------


def run(main: Any) -> Any:
    """Run the clients on uvloop where it is installed (uvicorn's standard extra brings it):
    the 200 clients share the machine with the server, so the cheaper their loop, the more of
    the machine measures the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("load", "crash", "hostile"), nargs="?", default="load")
    parser.add_argument("--db", default="sqlite", help="sqlite, postgres, or a postgresql:// DSN")
    parser.add_argument("--clients", type=int, default=None)
    parser.add_argument("--tables", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--processes", type=int, default=1, help="load: croupier serve processes (PostgreSQL)"
    )
    args = parser.parse_args()
    if args.processes > 1 and (args.mode != "load" or args.db == "sqlite"):
        # Several processes share a card room through PostgreSQL (table leases); SQLite's
        # single file is not measured that way.
        raise SystemExit("--processes: the load bench on PostgreSQL only")
    with database(args.db) as (db, label), tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "serve.log"
        # The clients are robots that act at once: the per-connection rate limit (20 a second
        # by default, for people) is raised for them; the hostile run sends as fast as it can.
        extra: tuple[str, ...] = ("--pause", "0", "--bot-delay", "0", "--rate", "100000")
        extra += ("--admin", f"benchadmin:{PASSWORD}")
        server = Server(db, free_port(), extra, log)
        server.start()
        # More processes on the same database, started as a card room runs them
        # (croupier serve --port N each); the first made the admin account.
        more = [Server(db, free_port(), extra[:-2], log) for _ in range(args.processes - 1)]
        ok = True
        try:
            for other in more:
                other.start()
            if args.mode == "load":
                clients, tables = args.clients or 200, args.tables or 40
                result = run(run_load(server, clients, tables, args.seconds, more))
                where = f"{args.processes} server processes, " if more else ""
                label += f", {where}{clients} clients over {tables} tables"
                report_load(label, server, result)
            elif args.mode == "crash":
                clients, tables = args.clients or 40, args.tables or 8
                run(run_crash(server, clients, tables, args.kills, args.seed))
            else:
                result = run(run_hostile(server, args.messages, args.seed))
                ok = report_hostile(label, server, result)
        finally:
            for other in more:
                other.stop()
            code = server.stop()
        if args.mode == "crash":
            ok = report_crash(label, server, args.kills)
        if code not in (0, None):
            print(f"croupier serve exited with {code} on Ctrl-C")
        if os.environ.get("CROUPIER_BENCH_LOG"):
            print(log.read_text(errors="replace")[-4000:])
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
