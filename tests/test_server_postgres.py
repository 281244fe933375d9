"""The card room on PostgreSQL (a throwaway cluster from tools/postgres.sh): play as on SQLite,
the migrations, and two server processes sharing one database, each table living in one of them;
when one is killed, the other takes its tables over and finishes their hands."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
import urllib.request
from typing import Any

import psycopg
from hypothesis import given, settings
from hypothesis import strategies as st
from psycopg.adapt import Transformer

from croupier.client import Client, ClientError
from croupier.server.store import accounts as auth
from croupier.server.store.database import CAGE, Store, check_ledger, post_ledger
from croupier.server.store.writer import literal_writer
from server_harness import (
    free_port,
    fresh_postgres_db,
    player,
    running,
    simple_move,
    start_serve,
    until,
)
from test_server_play import play_hands


def test_two_players_and_a_bot_play_on_postgresql(postgres_dsn: str) -> None:
    db = fresh_postgres_db(postgres_dsn)

    async def main() -> None:
        async with running(db) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table(
                {"game": "omaha", "rulebook": "au-casino", "structure": "pot", "seats": 3}
            )
            await alice.add_bot(table, 2)
            await alice.sit(table, 1, 400)
            await bob.sit(table, 3, 400)
            await play_hands([alice, bob], table, 3)
            assert server.room.store.read(check_ledger) == []
            assert server.room.rooms[table].check_chips() == []

    asyncio.run(main())


def _careful(legal: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Check or call up to 10 chips; fold to more."""
    if legal.get("can_fold") and not legal.get("can_check") and legal.get("call", 0) > 10:
        return "fold", {}
    return simple_move(legal)


def _serve(db: str, port: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, CROUPIER_LEASE_SECONDS="5")  # a takeover within seconds
    return start_serve(db, port, "--no-demo", "--pause", "0.1", "--bot-delay", "0.05", env=env)


def _owners(db: str) -> dict[int, str]:
    store = Store(db)
    try:
        return store.read(
            lambda c: {r[0]: r[1] for r in c.exec_driver_sql("SELECT id, lease_owner FROM tables")}
        )
    finally:
        store.close()


def _health(port: int) -> dict[str, object]:
    import json

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=5) as reply:
        return dict(json.loads(reply.read()))


def test_two_processes_share_postgresql_each_table_in_one_and_take_over_on_a_crash(
    postgres_dsn: str,
) -> None:
    db = fresh_postgres_db(postgres_dsn)
    port_a, port_b = free_port(), free_port()
    a, b = _serve(db, port_a), _serve(db, port_b)
    url_a, url_b = f"http://127.0.0.1:{port_a}", f"http://127.0.0.1:{port_b}"
    try:

        async def play() -> tuple[int, int, int, Client, Client]:
            alice = await player(url_a, "alice")
            bob = await player(url_b, "bob")
            first = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 3})
            second = await bob.create_table({"game": "holdem", "rulebook": "qld", "seats": 3})
            owners = _owners(db)
            server_a, server_b = _health(port_a)["server"], _health(port_b)["server"]
            assert owners == {first: server_a, second: server_b}
            await bob.add_bot(second, 1)  # B deals bots at its own table meanwhile
            await bob.add_bot(second, 2)
            # bob is connected to B: sitting at A's table, the client follows it to A
            await alice.add_bot(first, 2)
            await alice.sit(first, 1, 200)
            await bob.sit(first, 3, 200)
            assert bob.url == url_a
            # They never call a big bet: a bot's all-in must not bust them both, or no hand follows.
            await play_hands([alice, bob], first, 2, move=_careful)
            # carol, at B, waits at A's full table: the bot gives its seat 2 up to her, held
            carol = await player(url_b, "carol")
            await carol.wait(first)
            assert carol.url == url_a
            await play_hands([alice, bob], first, 1, move=_careful)  # then the seat is hers
            # into a hand at the first table, then A dies
            view = alice.views[first]
            while not (
                view.hand
                and view.to_act is not None
                and view.results
                and view.hand > view.results[-1]["hand"]
            ):
                await asyncio.sleep(0.01)
            return first, second, int(view.hand), alice, bob

        first, second, number, alice, bob = asyncio.run(play())
        a.send_signal(signal.SIGKILL)
        a.wait(timeout=30)

        async def resume() -> None:
            for client in (alice, bob):
                client.url = url_b
                for _ in range(100):
                    try:
                        await client.connect()
                        break
                    except (ClientError, OSError):
                        await asyncio.sleep(0.1)
            deadline = time.time() + 30
            while first not in _health(port_b)["tables"]:  # type: ignore[operator]
                assert time.time() < deadline, "B did not take the table over"
                await asyncio.sleep(0.2)
            await alice.watch(first)
            await bob.watch(first)
            view = alice.views[first]
            assert view.hand == number  # the hand A was dealing, rebuilt in B
            # and the waiting list with it: the seat held for carol stays held
            assert [(w["name"], w["offer"]) for w in view.waiting] == [("carol", 2)]
            while not any(r["hand"] == number for r in view.results):
                for client in (alice, bob):
                    mine = client.views[first]
                    if mine.my_turn:
                        kind, fields = simple_move(mine.legal or {})
                        try:
                            await client.act(first, kind, **fields)
                        except ClientError as error:
                            assert error.code in ("stale",), error
                await asyncio.sleep(0.01)

        asyncio.run(asyncio.wait_for(resume(), 120))
        server_b = _health(port_b)["server"]
        assert set(_owners(db).values()) == {server_b}
        store = Store(db)
        try:
            assert store.read(check_ledger) == []
            status = store.read(
                lambda c: c.exec_driver_sql(
                    f"SELECT status FROM hands WHERE table_id = {first} AND number = {number}"
                ).scalar()
            )
            assert status == "finished"
            bots = store.read(
                lambda c: c.exec_driver_sql(
                    f"SELECT count(*) FROM hands WHERE table_id = {second}"
                ).scalar()
            )
            assert bots >= 1  # B dealt its own table all along
        finally:
            store.close()
    finally:
        for process in (a, b):
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()


def test_two_batches_in_flight_store_every_job_and_never_deadlock(postgres_dsn: str) -> None:
    """The writer starts a batch while the one before commits. Jobs that move chips between the
    same two accounts in opposite orders would deadlock two transactions running statements at
    once (PostgreSQL would then abort one, and its job would fail): every job is stored, and
    the balances are the sums of the moves."""
    db = fresh_postgres_db(postgres_dsn)
    store = Store(db)
    try:

        def register(conn: Any) -> tuple[int, int]:
            cage = store.account_id(conn, CAGE)
            alice = auth.register(conn, "alice", "!", "player", 0)
            bob = auth.register(conn, "bob", "!", "player", 0)
            post_ledger(conn, [("cash_in", cage, None, -2000), ("cash_in", alice, None, 1000),
                               ("cash_in", bob, None, 1000)])  # fmt: skip
            return alice, bob

        alice, bob = store.write_now(register)
        moved = {alice: 0, bob: 0}

        async def mover(worker: int) -> None:
            for step in range(25):
                await asyncio.sleep(worker % 4 / 1000)  # arrivals spread over the commits
                payer, payee = (alice, bob) if (worker + step) % 2 else (bob, alice)
                amount = 1 + (worker * 7 + step) % 5
                await store.write(
                    lambda c, payer=payer, payee=payee, amount=amount: post_ledger(
                        c, [("transfer", payer, None, -amount), ("transfer", payee, None, amount)]
                    )
                )
                moved[payer] -= amount
                moved[payee] += amount

        async def main() -> None:
            await asyncio.gather(*(mover(worker) for worker in range(40)))

        asyncio.run(main())
        assert store.writer.overlapped > 0  # the case under test happened
        assert store.writer.failed == 0  # no transaction aborted (a deadlock aborts one)
        balances = dict(
            store.read(lambda c: list(c.exec_driver_sql("SELECT id, balance FROM accounts")))
        )
        assert balances[alice] == 1000 + moved[alice] and balances[bob] == 1000 + moved[bob]
        assert store.read(check_ledger) == []
    finally:
        store.close()


_VALUES = st.one_of(
    st.integers(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.floats(),  # infinities and NaN too
    st.none(),
    st.booleans(),
    # Text as UTF-8 carries it: no NUL (PostgreSQL's text has none), no lone surrogate.
    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
)


def test_the_writers_literals_are_the_bytes_psycopg_writes(postgres_dsn: str) -> None:
    """The PostgreSQL writer writes a whole number, a finite float and None itself, and leaves
    the rest to psycopg: every value's literal is the one psycopg's adapter writes, and
    PostgreSQL reads it back as the value."""
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        binder = psycopg.ClientCursor(conn)
        literal, psycopgs = literal_writer(binder), Transformer.from_context(binder).as_literal

        @settings(max_examples=400, deadline=None)
        @given(_VALUES)
        def check(value: object) -> None:
            written = literal(value)
            assert written == psycopgs(value)
            if isinstance(value, int | float) and not isinstance(value, bool) and value == value:
                back = conn.execute(b"SELECT (" + written + b")::text").fetchone()
                assert back is not None and type(value)(back[0]) == value

        check()


def test_tables_play_on_when_postgresql_drops_every_connection(
    postgres_dsn: str, caplog: Any
) -> None:
    """PostgreSQL ends every connection of the card room (as a restart or a failover does),
    five times while bots play at six tables: the batches that meet an ended connection are
    tried again on new ones, every table plays on, and no chip is created or lost."""
    db = fresh_postgres_db(postgres_dsn)

    async def main() -> None:
        async with running(db) as server:
            owner = await player(server.url, "owner")
            tables = []
            for spec in (
                {"game": "holdem", "rulebook": "rws"},
                {"game": "omaha", "rulebook": "au-casino", "structure": "pot"},
                {"game": "stud7", "rulebook": "cardroom"},
                {"game": "draw", "rulebook": "cardroom"},
                {"game": "holdem", "rulebook": "qld", "structure": "straddle"},
                {"game": "razz", "rulebook": None},
            ):
                table = await owner.create_table({**spec, "stakes": "2/4", "seats": 3})
                for seat in (1, 2, 3):
                    await owner.add_bot(table, seat)
                tables.append(table)
            rooms = server.room.rooms
            ended = 0
            others = "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            with psycopg.connect(db, autocommit=True) as admin:
                for _ in range(5):
                    await asyncio.sleep(0.4)
                    await until(  # the room has connected again: bots are playing
                        lambda: (
                            admin.execute(
                                f"SELECT count(*) FROM pg_stat_activity {others}"
                            ).fetchall()[0][0]
                            > 0
                        )
                    )
                    ended += len(
                        admin.execute(
                            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity {others}"
                        ).fetchall()
                    )
            assert ended >= 5  # the writer's and the readers' connections, each time
            assert server.room.store.writer.failed > 0  # batches met ended connections
            hands = {t: rooms[t].hands if t in rooms else 0 for t in tables}
            for _ in range(1500):  # every table back, and a hand finished since
                if all(t in rooms and rooms[t].hands > hands[t] for t in tables):
                    break
                await asyncio.sleep(0.02)
            else:
                raise AssertionError(f"tables held up: {[t for t in tables if t not in rooms]}")
            assert server.room.store.read(check_ledger) == []
            for table in tables:
                assert rooms[table].check_chips() == []

    asyncio.run(main())
