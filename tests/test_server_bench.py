"""Short runs of bench/server.py's crash and hostile benches, against a real ``croupier serve``
on SQLite: the full runs (50 kills, 100,000 messages) print their figures in the bench."""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def bench() -> ModuleType:
    sys.path.insert(0, str(ROOT / "bench"))  # its modules import each other, as scripts do
    spec = importlib.util.spec_from_file_location("bench_server", ROOT / "bench" / "server.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_server"] = module
    spec.loader.exec_module(module)
    return module


def test_hostile_messages_crash_nothing_change_nothing_and_leak_no_card(tmp_path: Path) -> None:
    b = bench()
    server = b.Server(
        str(tmp_path / "room.db"),
        b.free_port(),
        ("--pause", "0", "--bot-delay", "0", "--rate", "100000"),
        tmp_path / "serve.log",
    )
    server.start()
    try:
        result = asyncio.run(b.run_hostile(server, 2500, seed=3))
    finally:
        assert server.stop() == 0
    assert b.report_hostile("short hostile run", server, result)
    sessions = result["sessions"]  # issue 43's cases, each tried, none through
    assert sessions["sent"]["silent sockets kept open"] == 100
    assert sessions["unread_code"] == 1008 and not any(sessions["through"].values())
    assert sum(result["sent"].values()) == 2500
    assert result["replies"]["ok (duplicate)"] == 500  # every replay answered, none applied
    # Over 4,096 characters: too_large; over 64 KiB: the connection is closed (the bench
    # waits for that before it sends more, so every other message is answered, once).
    closed = result["over_frame_limit"]
    assert closed == 25
    assert result["reconnects"] == closed
    assert result["replies"]["too_large"] == result["over_message_limit"] > 475
    assert sum(result["replies"].values()) == 2500 - closed


def test_killed_at_random_moments_every_hand_finishes_or_is_refunded(tmp_path: Path) -> None:
    b = bench()
    server = b.Server(
        str(tmp_path / "room.db"),
        b.free_port(),
        ("--pause", "0", "--bot-delay", "0", "--rate", "100000"),
        tmp_path / "serve.log",
    )
    server.start()
    try:
        sessions = asyncio.run(b.run_crash(server, clients=8, tables=2, kills=4, seed=5))
    finally:
        server.stop()
    assert b.report_crash("short crash run", server, 4, sessions)
    assert sessions["sent"] == {"logged-out token sits": 2, "demoted dealer voids": 2}
