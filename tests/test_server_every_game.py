"""Every game, under every structure each book deals it with (and croupier's house rules for
every game), played by the house's bots at one card room: each table's hand in play survives a
restart, rebuilt from its stored deck and moves to the same records (never voided), and each
table plays on through writes the database fails; no chip is created or lost."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from croupier.client import Client
from croupier.games import GAMES
from croupier.rulebooks import load_rulebook, rulebook_names
from croupier.server.store import StoreError, check_ledger
from server_harness import FAST, player, running

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


async def _until(
    done: Callable[[], bool], seconds: float = 60, behind: Callable[[], object] = str
) -> None:
    """Wait until ``done``; else fail saying what ``behind`` finds (the tables held up)."""
    for _ in range(int(seconds / 0.05)):
        if done():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out: {behind()}")


async def _each_finishes_a_hand(rooms: dict[int, Any], tables: dict[int, Any]) -> None:
    hands = {t: rooms[t].hands for t in tables}
    await _until(
        lambda: all(rooms[t].hands > hands[t] for t in tables),
        behind=lambda: [tables[t] for t in tables if rooms[t].hands <= hands[t]],
    )


async def _bot_tables(
    url: str, specs: list[dict[str, object]]
) -> tuple[list[Client], dict[int, dict[str, object]]]:
    """A table of three bots for each spec; its owners (a player may own 20 open tables, the
    house's limit) and the tables."""
    owners = [await player(url, f"owner{i}") for i in range(len(specs) // 20 + 1)]
    tables = {}
    for i, spec in enumerate(specs):
        owner = owners[i % len(owners)]
        table = await owner.create_table({**spec, "stakes": "2/4", "seats": 3})
        for seat in (1, 2, 3):
            await owner.add_bot(table, seat)
        tables[table] = spec
    return owners, tables


def test_every_books_every_game_resumes_after_a_restart_and_plays_through_failed_writes(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Each table's hand in play is rebuilt after a restart to the same records (never void)
    and finishes. Then one write about a table in eight fails (a move, a deal, a finished
    hand): each such table is read again from the database and plays on. Afterwards every
    table finishes hands, every stack matches its hand, the ledger balances, and nothing
    failed beyond the writes themselves (no turn or deal gave up)."""
    db = str(tmp_path / "room.db")
    specs = _specs()
    assert len(specs) > 60  # 56 of the books, 13 of the house rules

    async def main() -> None:
        async with running(db) as server:
            owners, tables = await _bot_tables(server.url, specs)
            rooms = server.room.rooms
            await _until(lambda: all(rooms[t].hands >= 1 for t in tables))  # a hand played
            # Then every table some moves into a hand (for stud, past the bring-in): the bots
            # pause, and those of a table short of that play on for a moment, until none is.
            for _ in range(100):
                server.room.bot_delay = PAUSED.bot_delay
                await asyncio.sleep(0.2)  # a bot's move already on its way is stored
                short = [r for r in (rooms[t] for t in tables) if r.moves < 2 or not r.game.in_hand]
                if not short:
                    break
                server.room.bot_delay = 0.0
                for room in short:
                    room._schedule_turn()
                await asyncio.sleep(0.01)
            assert not short, [r.id for r in short]
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
            server.room.bot_delay = 0.0  # the bots play on: each table finishes its hand
            for room in rooms.values():
                room._schedule_turn()  # the turns waiting out the hour are dealt with now
            await _until(lambda: all(rooms[t].hands >= before[t][0] for t in tables))

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

    asyncio.run(main())
