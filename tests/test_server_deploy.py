"""`croupier serve` behind a load balancer or on several machines (docs/scaling.md): the address
it is reached at (--public-url), which other processes send clients to, and the proxies whose
X-Forwarded-For names the client (--forwarded-allow-ips), whose address the login and
registration limits count. Each against a real `croupier serve` on the loopback address."""

from __future__ import annotations

import asyncio
import json
import socket
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from croupier.client import ClientError
from croupier.server import public_address
from server_harness import free_port, player, running, start_serve


@contextmanager
def serving(db: Path, port: int, *extra: str) -> Iterator[subprocess.Popen[bytes]]:
    process = start_serve(str(db), port, "--no-demo", *extra)
    try:
        yield process
    finally:
        process.terminate()
        process.wait(timeout=30)


def login(port: int, name: str, password: str, forwarded_for: str) -> int:
    """A login's status, sent as if through a proxy that names the client ``forwarded_for``."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/login",
        data=json.dumps({"name": name, "password": password}).encode(),
        headers={"content-type": "application/json", "x-forwarded-for": forwarded_for},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_the_public_url_is_what_the_server_registers_and_prints(tmp_path: Path) -> None:
    db, port = tmp_path / "room.db", free_port()
    with serving(db, port, "--public-url", "https://cards.example:9443/") as process:
        with sqlite3.connect(db) as conn:
            (url,) = conn.execute("SELECT url FROM servers").fetchone()
        assert url == "https://cards.example:9443"  # where other processes send its clients
        process.terminate()
        printed = process.communicate(timeout=30)[0].decode()
    assert "open https://cards.example:9443/" in printed


def test_a_malformed_public_url_is_refused_before_anything_starts(tmp_path: Path) -> None:
    for bad, why in (
        ("ftp://cards.example", "such as http://cards.example:8000"),
        ("cards.example:8000", "such as http://cards.example:8000"),
        ("http://cards.example/room", "has no path"),
    ):
        done = subprocess.run(
            [sys.executable, "-c", "from croupier.cli import app; app()", "serve",
             "--db", str(tmp_path / "room.db"), "--public-url", bad],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 2, done.stdout
        assert "--public-url" in done.stdout and why in done.stdout, done.stdout
    assert not (tmp_path / "room.db").exists()


def test_the_public_address_of_every_interface_is_the_machines_name() -> None:
    assert public_address("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert public_address("0.0.0.0", 8000) == f"http://{socket.getfqdn()}:8000"
    assert public_address("::1", 8080) == "http://[::1]:8080"
    assert public_address("0.0.0.0", 1, "http://Cards.example") == "http://Cards.example"
    with pytest.raises(ValueError, match="no path"):
        public_address("0.0.0.0", 1, "http://cards.example/#lobby")


def test_forwarded_for_counts_only_from_the_proxies_trusted(tmp_path: Path) -> None:
    """By default no proxy is trusted (not even the loopback: any local process could choose
    its address): the header is ignored and the client's own address's one limit counts every
    guess; with the loopback trusted, each forwarded address has a limit of its own; with only
    another proxy trusted, the header is ignored again."""
    for trusted, statuses in (
        (None, [401, 401, 429]),
        ("127.0.0.1", [401, 401, 401]),
        ("10.255.255.1", [401, 401, 429]),
    ):
        db, port = tmp_path / f"{trusted}.db", free_port()
        extra = ("--login-failures", "2", *(("--forwarded-allow-ips", trusted) if trusted else ()))
        with serving(db, port, *extra):
            got = [login(port, "nobody", "a guess", f"192.0.2.{n}") for n in range(3)]
        assert got == statuses, trusted


def test_any_process_answers_a_request_about_a_table_another_process_runs(tmp_path: Path) -> None:
    """Whatever process a load balancer picks: a table's HTTP request to the wrong one is
    passed to the one that runs it, and its answer comes back as is."""

    async def main() -> None:
        db = str(tmp_path / "room.db")
        async with running(db) as first, running(db) as second:
            alice = await player(first.url, "alice")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            await alice.sit(table, 4, 200)
            bob = await player(second.url, "bob")
            state = await bob.http("GET", f"/api/tables/{table}")
            assert (state["type"], state["table"]) == ("state", table)
            assert [(s["seat"], s["name"]) for s in state["seats"]] == [(4, "alice")]
            assert table in first.room.rooms and table not in second.room.rooms
            with pytest.raises(ClientError, match="no table 999"):
                await bob.http("GET", "/api/tables/999")  # not found: answered here
            await alice.close()
            await bob.close()

    asyncio.run(main())


def test_a_request_for_a_process_that_does_not_answer_is_refused_with_503(tmp_path: Path) -> None:
    async def main() -> None:
        db = str(tmp_path / "room.db")
        async with running(db) as first, running(db) as second:
            alice = await player(first.url, "alice")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            nowhere = f"http://127.0.0.1:{free_port()}"  # what the first registered, say
            first.room.store.write_now(
                lambda c: c.exec_driver_sql(
                    f"UPDATE servers SET url = '{nowhere}' WHERE id = '{first.room.owner}'"
                )
            )
            bob = await player(second.url, "bob")
            with pytest.raises(ClientError) as refused:
                await bob.http("GET", f"/api/tables/{table}")
            assert refused.value.code == "http 503"
            assert f"at {nowhere}, which did not answer: try again" in refused.value.message
            await alice.close()
            await bob.close()

    asyncio.run(main())
