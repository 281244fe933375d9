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
import gc
import json
import os
import random
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from croupier.client import Client
from server_clients import (
    PASSWORD,
    Server,
    Tally,
    database,
    free_port,
    ledger_problems,
    percentile,
    seat_player,
    set_up,
    stored_actions,
)
from server_faults import report_crash, report_hostile, run_crash, run_hostile

# --- load ------------------------------------------------------------------------------------


def process_stat(path: Path) -> list[str] | None:
    """A process's /proc/PID/stat fields after its name (Linux; index 1 is its parent, 11-14
    its user and system time and its reaped children's, in ticks); None if there is none."""
    try:
        return path.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user and system) a process has used so far, from /proc (Linux); None elsewhere."""
    fields = process_stat(Path(f"/proc/{pid}/stat"))
    return (
        None if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    )


def cluster_cpu(folder: str | None) -> float | None:
    """CPU seconds (user and system) a PostgreSQL cluster made by tools/postgres.sh has used so
    far: its postmaster, its processes running now and those that have ended (which the
    postmaster has reaped); None without a cluster or /proc."""
    if folder is None:
        return None
    try:
        postmaster = (Path(folder) / "data" / "postmaster.pid").read_text().split()[0]
    except (OSError, IndexError):
        return None
    own = process_stat(Path(f"/proc/{postmaster}/stat"))
    if own is None:
        return None
    ticks = sum(int(x) for x in own[11:15])
    for stat in Path("/proc").glob("[0-9]*/stat"):
        fields = process_stat(stat)  # None: ended meanwhile, counted with the reaped ones
        if fields is not None and fields[1] == postmaster:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def machine_times() -> tuple[float, float, float] | None:
    """The machine's busy, idle and stolen CPU seconds so far (all cores), from /proc/stat;
    None elsewhere. Busy counts the kernel's work outside any process (interrupts) too; stolen
    is time the hypervisor gave to other machines."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    user, nice, system, idle, iowait, irq, softirq, steal = fields[:8]  # guests are in user
    tick = os.sysconf("SC_CLK_TCK")
    return (user + nice + system + irq + softirq) / tick, (idle + iowait) / tick, steal / tick


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
    server: Server,
    clients: int,
    tables: int,
    seconds: float,
    more: list[Server] | None = None,
    cluster: str | None = None,
) -> dict[str, Any]:
    """The load round; ``cluster``: the PostgreSQL cluster's folder, whose CPU is measured."""
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
    database_cpu, machine = cluster_cpu(cluster), machine_times()
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    elapsed = time.perf_counter() - started
    acked = len(tally.acked) - acked_before
    server_end = servers_cpu(servers)
    cpu = (
        None if server_cpu is None or server_end is None else server_end - server_cpu,
        time.process_time() - bench_cpu,
    )
    database_end, machine_end = cluster_cpu(cluster), machine_times()
    database = None if database_cpu is None or database_end is None else database_end - database_cpu
    machine_used = (
        None if machine is None or machine_end is None
        else tuple(end - start for start, end in zip(machine, machine_end, strict=True))
    )  # fmt: skip
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
        "database_cpu": database,
        "machine": machine_used,
        "processes": len(servers),
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
    # CPU per action holds on a busy machine, where the rates above depend on who else runs;
    # the whole machine's says how many actions a second its cores could carry at all.
    server_cpu, bench_cpu = result["cpu"]
    per = max(1, result["actions"]) / 1000  # seconds to milliseconds an action
    shown = "?" if server_cpu is None else f"{server_cpu / per:.2f} ms"
    database = result["database_cpu"]
    shown += "" if database is None else f", PostgreSQL {database / per:.2f} ms"
    print(
        f"  CPU per action: the server {shown}, the clients {bench_cpu / per:.2f} ms (one process)"
    )
    machine = result["machine"]
    if machine is not None:
        busy, idle, stolen = machine
        print(
            f"  the machine's {os.cpu_count()} cores: {busy / per:.2f} ms of CPU per action "
            f"(every process and the kernel), idle "
            f"{idle / max(1e-9, busy + idle + stolen):.0%} of the time, "
            f"{stolen / max(1e-9, busy + idle + stolen):.0%} taken by the hypervisor"
        )
    # One server process runs its Python on one core at a time (the interpreter lock): near
    # 100% of a core, it is the limit, whatever the machine has left.
    if server_cpu is not None:
        used = server_cpu / result["elapsed"] / result["processes"]
        print(
            f"  each server process used {used:.0%} of one core; the machine's load average "
            f"{os.getloadavg()[0]:.1f}"
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
        f"the writer busy {stats['writer_busy'] / result['elapsed']:.0%} of the time "
        f"(two batches at once: up to 200%), {stats.get('writer_overlapped', 0):,} batches begun "
        f"while the one before committed, {stats.get('writer_failed', 0)} transactions failed"
    )


# --- main ------------------------------------------------------------------------------------


def run(main: Any) -> Any:
    """Run the clients on uvloop where it is installed (uvicorn's standard extra brings it):
    the 200 clients share the machine with the server, so the cheaper their loop, the more of
    the machine measures the server. For the same reason their garbage collector runs as
    ``croupier serve``'s does (a young-generation pass every 20,000 allocations)."""
    gc.set_threshold(20_000)
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
    parser.add_argument(
        "--session-seconds",
        type=float,
        default=None,
        help="croupier serve --session-seconds (0: every message checks its token and role "
        "against the database)",
    )
    args = parser.parse_args()
    if args.processes > 1 and (args.mode != "load" or args.db == "sqlite"):
        # Several processes share a card room through PostgreSQL (table leases); SQLite's
        # single file is not measured that way.
        raise SystemExit("--processes: the load bench on PostgreSQL only")
    with database(args.db) as (db, label, cluster), tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "serve.log"
        # The clients are robots that act at once: the per-connection rate limit (20 a second
        # by default, for people) is raised for them; the hostile run sends as fast as it can.
        extra: tuple[str, ...] = ("--pause", "0", "--bot-delay", "0", "--rate", "100000")
        extra += ("--tables-per-player", str(max(40, args.tables or 0)))  # one player makes all
        extra += ("--registrations-per-hour", "0")  # 200 players from one address
        if args.mode != "hostile":  # 200 players from one address connect at once
            extra += ("--sockets-before-hello", "0")
        if args.session_seconds is not None:
            extra += ("--session-seconds", str(args.session_seconds))
        secret = Path(folder) / "admin-password"  # not on the command line (the process list)
        secret.write_text(PASSWORD + "\n")
        admin = ("--admin", "benchadmin", "--admin-password-file", str(secret))
        server = Server(db, free_port(), extra + admin, log)
        server.start()
        # More processes on the same database, started as a card room runs them
        # (croupier serve --port N each); the first made the admin account.
        more = [Server(db, free_port(), extra, log) for _ in range(args.processes - 1)]
        ok = True
        sessions = None
        try:
            for other in more:
                other.start()
            if args.mode == "load":
                clients, tables = args.clients or 200, args.tables or 40
                result = run(run_load(server, clients, tables, args.seconds, more, cluster))
                where = f"{args.processes} server processes, " if more else ""
                label += f", {where}{clients} clients over {tables} tables"
                report_load(label, server, result)
            elif args.mode == "crash":
                clients, tables = args.clients or 40, args.tables or 8
                sessions = run(run_crash(server, clients, tables, args.kills, args.seed))
            else:
                result = run(run_hostile(server, args.messages, args.seed))
                ok = report_hostile(label, server, result)
        finally:
            for other in more:
                other.stop()
            code = server.stop()
        if args.mode == "crash":
            ok = report_crash(label, server, args.kills, sessions)
        if code not in (0, None):
            print(f"croupier serve exited with {code} on Ctrl-C")
        if os.environ.get("CROUPIER_BENCH_LOG"):
            print(log.read_text(errors="replace")[-4000:])
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
