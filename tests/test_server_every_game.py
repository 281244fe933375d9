"""Every game, under every structure each book deals it with (and croupier's house rules for
every game), played by the house's bots at one card room: each table's hand in play survives a
restart, rebuilt from its stored deck and moves to the same records (never voided), each
table plays on through writes the database fails, no chip is created or lost, and its hands'
histories replay."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from croupier.client import Client, ClientError, _http_text
from croupier.games import GAMES
from croupier.history import load_phh, replay
from croupier.rulebooks import load_rulebook, rulebook_names
from croupier.server.store.database import StoreError, check_ledger
from server_harness import FAST, fresh_postgres_db, player, running, until
from test_server_histories import _finished, _stars_to_the_servers_stacks

T = TypeVar("T")

# Bots that think for an hour: none acts while the tables are compared across the restart.
PAUSED = dataclasses.replace(FAST, bot_delay=3600.0)


def _specs() -> list[dict[str, object]]:
    specs: list[dict[str, object]] = []
    for name in rulebook_names():
        book = load_rulebook(name)
        for entry in book.games:
            for structure in book.structures(entry.game):
                specs.append({"rulebook": name, "game": entry.game, "structure": structure.value})
    specs += [{"rulebook": None, "game": game} for game in GAMES]  # the house rules
    return specs


async def _each_finishes_a_hand(rooms: dict[int, Any], tables: dict[int, Any]) -> None:
    hands = {t: rooms[t].hands for t in tables}
    await until(
        lambda: all(rooms[t].hands > hands[t] for t in tables),
        60,
        behind=lambda: [tables[t] for t in tables if rooms[t].hands <= hands[t]],
    )


async def _bot_tables(
    server: Any, specs: list[dict[str, object]]
) -> tuple[list[Client], dict[int, dict[str, object]]]:
    """A table of three bots for each spec, all dealt at once when every table is made; its
    owners (a player may own 20 open tables, the house's limit) and the tables."""
    _pause_bots(server)  # else the tables already made hold up the making of the others
    owners = [await player(server.url, f"owner{i}") for i in range(len(specs) // 20 + 1)]
    tables = {}
    for i, spec in enumerate(specs):
        owner = owners[i % len(owners)]
        table = await owner.create_table({**spec, "stakes": "2/4", "seats": 3})
        for seat in (1, 2, 3):
            await owner.add_bot(table, seat)
        tables[table] = spec
    _play_bots(server, server.room.rooms.values())
    return owners, tables


def _pause_bots(server: Any) -> None:
    """Bots that think for an hour from their next turn on."""
    server.room.bot_delay = PAUSED.bot_delay


def _play_bots(server: Any, rooms: Any) -> None:
    """Bots that move at once, at ``rooms`` too, whose bots wait out the hour."""
    server.room.bot_delay = 0.0
    for room in rooms:
        room.schedule_turn()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """On a SQLite file (every table), then on a fresh PostgreSQL database (every game)."""
    if request.param == "sqlite":
        return str(tmp_path / "room.db")
    return fresh_postgres_db(request.getfixturevalue("postgres_dsn"))


def test_every_books_every_game_resumes_after_a_restart_and_plays_through_failed_writes(
    db: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Each table's hand in play is rebuilt after a restart to the same records (never void)
    and finishes. Then one write about a table in eight fails (a move, a deal, a finished
    hand): each such table is read again from the database and plays on. Afterwards every
    table finishes hands, every stack matches its hand, the ledger balances, nothing failed
    beyond the writes themselves (no turn or deal gave up), and each table's last hand, as the
    house's record has it, replays from its PHH and its PokerStars text to the same stacks."""
    specs = _specs()
    assert len(specs) > 60  # 56 of the books, 13 of the house rules
    if db.startswith("postgresql"):  # each game once: its writes are alike under every book,
        specs = [spec for spec in specs if spec["rulebook"] is None]  # and CI's time is short

    async def main() -> None:
        async with running(db) as server:
            owners, tables = await _bot_tables(server, specs)
            rooms = server.room.rooms
            await until(lambda: all(rooms[t].hands >= 1 for t in tables), 60)  # a hand played
            # Then every table some moves into a hand (for stud, past the bring-in): the bots
            # pause, and those of a table short of that play on for a moment, until none is.
            for _ in range(100):
                _pause_bots(server)
                await asyncio.sleep(0.2)  # a bot's move already on its way is stored
                short = [r for r in (rooms[t] for t in tables) if r.moves < 2 or not r.game.in_hand]
                if not short:
                    break
                _play_bots(server, short)
                await asyncio.sleep(0.01)
            assert not short, [r.id for r in short]
            # A bot's move already on its way (its thinking on a thread) lands before the
            # snapshot: the tables' moves stay as they are for a whole second, all stored.
            seen: dict[int, tuple[int, int]] = {}
            for _ in range(60):
                now = {t: (rooms[t].number, rooms[t].moves) for t in tables}
                if now == seen:
                    break
                seen = now
                await asyncio.sleep(1.0)
            await server.room.store.writer.drain()
            before = {t: (rooms[t].number, rooms[t].game.house_records()) for t in tables}
            for owner in owners:
                await owner.close()
        async with running(db, PAUSED) as server:
            rooms = server.room.rooms
            for table, spec in tables.items():
                resumed = (rooms[table].number, rooms[table].game.house_records())
                assert resumed == before[table], spec
            rulings = server.room.store.read(
                lambda c: dict(
                    c.exec_driver_sql(
                        "SELECT kind, count(*) FROM audit WHERE outcome = 'ruling' "
                        "AND kind IN ('resume', 'void') GROUP BY kind"
                    ).all()
                )
            )
            assert rulings == {"resume": len(tables)}
            _play_bots(server, rooms.values())  # each table finishes its hand
            await until(lambda: all(rooms[t].hands >= before[t][0] for t in tables), 60)

            store, chance = server.room.store, random.Random(8)
            write, insert = store.write, store.insert
            failed = 0

            def flaky(real: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
                async def maybe(*args: Any, **kwargs: Any) -> T:
                    nonlocal failed
                    about_a_table = any(a in tables for a in args[1:3] if isinstance(a, int))
                    if about_a_table and chance.random() < 1 / 8:
                        failed += 1
                        raise StoreError("the disk is full")
                    return await real(*args, **kwargs)

                return maybe

            store.write, store.insert = flaky(write), flaky(insert)  # type: ignore[method-assign]
            await _each_finishes_a_hand(rooms, tables)
            store.write, store.insert = write, insert  # type: ignore[method-assign]
            assert failed > len(tables)
            await _each_finishes_a_hand(rooms, tables)
            assert server.room.store.read(check_ledger) == []
            for table, spec in tables.items():
                assert rooms[table].check_chips() == [], spec
            gave_up = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
            assert gave_up == []
            _pause_bots(server)  # the downloads need not wait on them
            await _house_histories_replay(server, tables)

    asyncio.run(main())


async def _house_histories_replay(server: Any, tables: dict[int, dict[str, object]]) -> None:
    """Each table's last finished hand, from the house's record (an admin's download): the PHH
    replays to the stacks the server paid, and the PokerStars text (where the format has the
    game) pays them too, read by an independent reader."""
    store = server.room.store
    store.write_now(
        lambda c: c.exec_driver_sql("UPDATE accounts SET role = 'admin' WHERE name = 'owner0'")
    )
    admin = await Client.login(server.url, "owner0", "password-1")
    last = store.read(
        lambda c: dict(
            c.exec_driver_sql(
                "SELECT table_id, max(id) FROM hands WHERE status = 'finished' GROUP BY table_id"
            ).all()
        )
    )
    finished = {hand["id"]: hand for hand in _finished(server)}  # read after: each last in it
    stars = 0
    for table, spec in tables.items():
        hand = finished[last[table]]
        path = f"/api/hands/{hand['id']}"
        result = replay(
            load_phh(await _http_text(server.url, f"{path}/phh?view=house", admin.token))
        )
        assert result.ok, (spec, result.error)
        assert list(result.finishing_stacks or ()) == [hand["after"][s] for s in hand["order"]]
        try:
            text = await _http_text(server.url, f"{path}/pokerstars?view=house", admin.token)
        except ClientError as error:
            assert "PHH covers every game" in error.message, (spec, error.message)
            continue
        _stars_to_the_servers_stacks(text, hand)
        stars += 1
    assert stars > len(tables) // 2
