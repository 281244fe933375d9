"""Nothing lost: a hand in progress survives a restart (rebuilt from its stored deck and moves,
checked against its stored events), a hand that cannot be rebuilt is void and refunded (rws 5.1),
and a real ``croupier serve`` killed with SIGKILL mid-hand finishes that hand after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import time
from pathlib import Path

from sqlalchemy import Connection, insert, update

from croupier.client import Client, ClientError
from croupier.server.store import schema as s
from croupier.server.store.database import Store, check_ledger
from server_harness import FAST, heads_up, player, running, simple_move, start_serve, until


async def _act_once(clients: list[Client], table: int) -> None:
    for _ in range(500):
        for client in clients:
            view = client.views[table]
            if view.my_turn:
                kind, fields = simple_move(view.legal or {})
                await client.act(table, kind, **fields)
                return
        await asyncio.sleep(0.01)
    raise AssertionError("nobody's turn")


def test_a_hand_in_progress_resumes_after_a_restart_with_the_same_events(tmp_path: Path) -> None:
    db = str(tmp_path / "room.db")

    async def main() -> None:
        async with running(db) as server:
            alice, bob, table = await heads_up(server.url)
            await _act_once([alice, bob], table)
            await _act_once([alice, bob], table)
            room = server.room.rooms[table]
            before = room.game.house_records()
            number = room.number
            assert room.game.in_hand
            await alice.close()
            await bob.close()
        async with running(db) as server:
            room = server.room.rooms[table]
            assert room.number == number and room.game.in_hand
            assert room.game.house_records() == before
            resumed = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM audit WHERE kind = 'resume' AND outcome = 'ruling'"
                ).scalar()
            )
            assert resumed == 1
            alice = await Client.login(server.url, "alice", "password-1")
            bob = await Client.login(server.url, "bob", "password-1")
            for client in (alice, bob):
                await client.connect()  # back to the same seat: the state comes with welcome
            await asyncio.sleep(0.1)
            assert alice.views[table].you == 1 and alice.views[table].hand == number
            while not alice.views[table].results:
                await _act_once([alice, bob], table)
            status = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    f"SELECT status FROM hands WHERE number = {number}"
                ).scalar()
            )
            assert status == "finished"
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_rws_5_1_a_hand_that_cannot_be_rebuilt_is_void_and_refunded(tmp_path: Path) -> None:
    db = str(tmp_path / "room.db")

    async def main() -> None:
        async with running(db) as server:
            alice, bob, table = await heads_up(server.url)
            await _act_once([alice, bob], table)
            number = server.room.rooms[table].number
            await alice.close()
            await bob.close()
        # The stored deck order no longer gives the stored events (a defective record).
        store = Store(db)
        deck = json.loads(
            store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT deck FROM hands WHERE status = 'playing'"
                ).scalar()
            )
        )
        deck[0], deck[-1] = deck[-1], deck[0]
        store.write_now(
            lambda c: c.exec_driver_sql(
                "UPDATE hands SET deck = ? WHERE status = 'playing'", (json.dumps(deck),)
            )
        )
        store.close()
        async with running(db) as server:
            await asyncio.sleep(0.2)
            status = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    f"SELECT status FROM hands WHERE number = {number}"
                ).scalar()
            )
            assert status == "void"
            room = server.room.rooms[table]
            assert (room.seats[1].chips, room.seats[2].chips) == (200, 200)
            refunds = server.room.store.read(
                lambda c: [
                    r[0] for r in c.exec_driver_sql("SELECT memo FROM ledger WHERE kind = 'refund'")
                ]
            )
            assert len(refunds) == 2 and all("rws 5.1" in memo for memo in refunds)
            rulings = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM audit WHERE kind = 'void' AND outcome = 'ruling'"
                ).scalar()
            )
            assert rulings == 1
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


# --- a real croupier serve ---------------------------------------------------------------------


def test_croupier_serve_killed_mid_hand_finishes_that_hand_after_a_restart(tmp_path: Path) -> None:
    from server_harness import free_port

    db, port = str(tmp_path / "room.db"), free_port()
    url = f"http://127.0.0.1:{port}"
    process = start_serve(db, port, "--no-demo")

    async def first() -> tuple[int, int, list[dict[str, object]]]:
        alice = await player(url, "alice")
        bob = await player(url, "bob")
        table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 3})
        await alice.add_bot(table, 2)
        await alice.sit(table, 1, 200)
        await bob.sit(table, 3, 200)
        view = alice.views[table]
        while len(view.results) < 1:  # one whole hand between the two clients and the bot
            await _act_once_or_wait([alice, bob], table)
        # into the next hand: at least one client action
        while not (
            view.hand
            and view.hand > view.results[-1]["hand"]
            and any(e["event"] in ("Call", "Check", "Bet", "Fold") for e in view.events)
        ):
            await _act_once_or_wait([alice, bob], table)
        return table, int(view.hand), list(view.events)

    table, number, seen = asyncio.run(first())
    process.send_signal(signal.SIGKILL)  # a crash: no clean stop
    process.wait(timeout=30)
    process = start_serve(db, port, "--no-demo")
    try:

        async def second() -> None:
            alice = await Client.login(url, "alice", "password-1")
            bob = await Client.login(url, "bob", "password-1")
            for client in (alice, bob):
                await client.connect()
            await asyncio.sleep(0.3)
            view = alice.views[table]
            assert view.hand == number  # the same hand, resumed
            assert view.events[: len(seen)] == seen
            while not any(r["hand"] == number for r in view.results):
                await _act_once_or_wait([alice, bob], table)
            result = next(r for r in view.results if r["hand"] == number)
            assert result["void"] is False

        asyncio.run(asyncio.wait_for(second(), 120))
        store = Store(db)
        assert (
            store.read(
                lambda c: c.exec_driver_sql(
                    f"SELECT status FROM hands WHERE number = {number}"
                ).scalar()
            )
            == "finished"
        )
        assert store.read(check_ledger) == []
        store.close()
        # Ctrl-C stops it cleanly
        process.send_signal(signal.SIGINT)
        out, _ = process.communicate(timeout=60)
        assert process.returncode == 0, out
        assert b"stopped" in out
    finally:
        if process.poll() is None:
            process.kill()


async def _act_once_or_wait(clients: list[Client], table: int) -> None:
    for client in clients:
        view = client.views[table]
        if view.my_turn:
            kind, fields = simple_move(view.legal or {})
            try:
                await client.act(table, kind, **fields)
            except ClientError as error:
                if error.code not in ("stale", "refused"):
                    raise
            return
    await asyncio.sleep(0.02)


_ = os


def test_a_move_the_database_fails_to_store_is_refused_and_the_table_reloads(
    tmp_path: Path,
) -> None:
    """A move whose transaction fails is answered `unavailable` (resend), the table is read
    again from the database (the move never happened), and play goes on: the same move sent
    again is applied once."""
    from croupier.server.store.database import StoreError

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            room = server.room.rooms[table]
            store = server.room.store
            write = store.write

            async def failing(*args: object, **kwargs: object) -> object:
                store.write = write  # type: ignore[method-assign]  # once
                raise StoreError("the disk is full")

            await asyncio.sleep(0.1)
            [client] = [c for c in (alice, bob) if c.views[table].my_turn]
            kind, fields = simple_move(client.views[table].legal or {})
            moves = room.moves
            store.write = failing  # type: ignore[method-assign]
            try:
                await client.act(table, kind, id="once", **fields)
            except ClientError as error:
                assert error.code == "unavailable", error
            else:
                raise AssertionError("a move that was not stored was answered as applied")
            room = server.room.rooms[table]
            await asyncio.sleep(0.1)
            assert room.moves == moves and room.game.in_hand  # read again: the move never was
            await client.act(table, kind, id="once", **fields)
            assert room.moves == moves + 1
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_bots_move_the_database_fails_to_store_is_made_again_by_the_bot_not_the_clock(
    tmp_path: Path,
) -> None:
    """A bot's move whose transaction fails: the table is read again and the bot chooses
    again. The clock does not act for it (it was not out of time: no timeout ruling)."""
    from croupier.server.store.database import StoreError

    async def main() -> None:
        options = dataclasses.replace(FAST, bot_delay=0.3)
        async with running(str(tmp_path / "room.db"), options) as server:
            alice = await player(server.url, "alice")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 2})
            await alice.sit(table, 1, 200)
            await alice.add_bot(table, 2)
            room = server.room.rooms[table]
            while True:  # alice acts until the bot is next
                await _act_once([alice], table)
                if room.game.to_act() == 2:
                    break
            store, failed = server.room.store, []
            write = store.write

            async def failing(*args: object, **kwargs: object) -> object:
                store.write = write  # type: ignore[method-assign]  # once
                failed.append(room.moves)
                raise StoreError("the disk is full")

            store.write = failing  # type: ignore[method-assign]  # the bot's move
            for _ in range(300):
                if failed and room.moves > failed[0]:
                    break
                await asyncio.sleep(0.01)
            else:
                raise AssertionError("the bot did not move again after its failed move")
            rulings = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM audit WHERE kind = 'timeout'"
                ).scalar()
            )
            assert rulings == 0  # the bot's own move, not the clock's
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_table_whose_database_cannot_be_read_after_a_failed_move_is_let_go_and_loaded_again(
    tmp_path: Path,
) -> None:
    """A move fails to be stored, and the table cannot be read again either: the table is let
    go (its viewers told to watch it again), since its state may hold what was not stored.
    The lease loop loads it from the database once that answers: the hand as stored, and the
    move sent again is applied."""
    from croupier.server.store.database import StoreError

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            room = server.room.rooms[table]
            news: list[dict[str, object]] = []
            alice.listeners.append(lambda m: news.append(m) if m.get("id") is None else None)
            await asyncio.sleep(0.1)
            [client] = [c for c in (alice, bob) if c.views[table].my_turn]
            kind, fields = simple_move(client.views[table].legal or {})
            store = server.room.store
            write, aread = store.write, store.aread
            number, moves = room.number, room.moves

            async def failing_write(*args: object, **kwargs: object) -> object:
                store.write = write  # type: ignore[method-assign]  # once
                raise StoreError("the disk is full")

            async def failing_read(*args: object, **kwargs: object) -> object:
                store.aread = aread  # type: ignore[method-assign]  # once
                raise StoreError("the database is gone")

            store.write, store.aread = failing_write, failing_read  # type: ignore[method-assign]
            with contextlib.suppress(ClientError):
                await client.act(table, kind, id="again", **fields)
            assert table not in server.room.rooms  # let go
            for _ in range(500):  # the lease loop takes it again (every LEASE_SECONDS / 4)
                if table in server.room.rooms:
                    break
                await asyncio.sleep(0.02)
            room = server.room.rooms[table]
            assert (room.number, room.moves) == (number, moves)  # the hand as stored
            assert any(m.get("code") == "unavailable" for m in news)
            await client.watch(table)
            await client.act(table, kind, id="again", **fields)
            assert room.moves == moves + 1
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_table_whose_lease_another_process_took_is_let_go_and_its_viewers_sent_there(
    tmp_path: Path,
) -> None:
    """Another process took a table's lease (this one was paused past it, say): the lease loop
    finds it gone, this process lets the table go, and each viewer is told where it is now
    (``elsewhere``, with the other process's address). A stale copy of the room cannot drop
    the table's new room."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            room = server.room.rooms[table]
            news: list[dict[str, object]] = []
            for client in (alice, bob):
                client.listeners.append(lambda m: news.append(m) if m["type"] == "error" else None)

            def take_over(conn: Connection) -> None:
                conn.execute(
                    insert(s.servers).values(id="other", url="http://10.0.0.2:8000", heartbeat=1e10)
                )
                conn.execute(
                    update(s.tables)
                    .where(s.tables.c.id == table)
                    .values(lease_owner="other", lease_until=time.time() + 600)
                )

            await server.room.store.write(take_over)
            await until(lambda: table not in server.room.rooms)
            await until(lambda: len(news) == 2, behind=lambda: news)  # alice's and bob's
            assert [(m["code"], m["url"]) for m in news] == [
                ("elsewhere", "http://10.0.0.2:8000")
            ] * 2
            assert room.closed and not room.viewers
            # Were the table served here again, a late failure of the old room would let go
            # the old room only.
            again = server.room.rooms[table] = object()  # type: ignore[assignment]
            server.room.let_go(room, "unavailable", "a late failure")
            assert server.room.rooms[table] is again
            del server.room.rooms[table]
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())
