"""Tournaments in the card room (issue 18): registration and the ledger, hands dealt through
the server with the library's levels, moves followed by the moved player's client, the
director's controls, a restart mid-tournament, and late registration (league 19). A real
server on SQLite; the tournament's clock is a manual one the tests move on."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from croupier.client import Client, ClientError
from croupier.server.store import check_ledger
from croupier.tournament import ManualClock, Tournament
from croupier.tournament.log import load_log
from server_harness import FAST, player, running, simple_move

PRICE, FEE, CHIPS = 1000, 100, 1000
WELCOME = 10_000


def settings(table_size: int = 4, late_until_level: int = 0) -> dict[str, Any]:
    """A small structure: one-minute levels (the tests move the clock), a break after two."""
    return {
        "name": "Thursday test",
        "table_size": table_size,
        "denominations": [5, 25, 100],
        "buy_in": {"price": PRICE, "fee": FEE, "chips": CHIPS},
        "registration": {"late_until_level": late_until_level},
        "levels": [
            {"small_blind": 5, "big_blind": 10, "minutes": 1},
            {"small_blind": 10, "big_blind": 20, "minutes": 1},
            {"break": 0.5},
            {"small_blind": 25, "big_blind": 50, "minutes": 1},
            {"small_blind": 50, "big_blind": 100, "minutes": 1},
            {"small_blind": 100, "big_blind": 200, "minutes": 1},
            {"small_blind": 200, "big_blind": 400, "minutes": 1},
        ],
    }


async def director(url: str, server: Any, name: str = "td") -> Client:
    client = await player(url, name)
    server.room.store.write_now(
        lambda c: c.exec_driver_sql(f"UPDATE accounts SET role = 'admin' WHERE name = '{name}'")
    )
    await client.close()
    client = await Client.login(url, name, "password-1")
    await client.connect()
    return client


async def play(client: Client, tournament: int) -> None:
    """Check or call whenever it is this client's turn, until it is out or the end."""
    while True:
        view = await client.tournament_turn(tournament, timeout=60)
        if not view.my_turn:
            return
        legal = view.legal or {}
        action, _ = simple_move(legal)
        with contextlib.suppress(ClientError):  # a turn the clock took meanwhile
            await client.tournament_act(tournament, "check_or_call" if action != "fold" else action)


async def wait_for(check: Any, timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not check():
        if loop.time() > end:
            raise TimeoutError("the condition did not come true")
        await asyncio.sleep(0.02)


async def advance(clock: ManualClock, seconds: float, every: float = 0.05) -> None:
    """Move the tournament clock on by ``seconds`` each ``every`` real seconds, for ever."""
    while True:
        await asyncio.sleep(every)
        clock.advance(seconds)


def balance(server: Any, name: str) -> int:
    return int(
        server.room.store.read(
            lambda c: c.exec_driver_sql(
                "SELECT balance FROM accounts WHERE name = ?", (name,)
            ).scalar()
        )
    )


def test_a_tournament_runs_from_registration_to_payouts_and_the_ledger_balances(
    tmp_path: Path,
) -> None:
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)

    async def main() -> None:
        async with running(str(tmp_path / "room.db"), options) as server:
            td = await director(server.url, server)
            ann, bob, cat = [await player(server.url, n) for n in ("ann", "bob", "cat")]
            with pytest.raises(ClientError) as refused:
                await ann.create_tournament(settings())
            assert refused.value.code == "http 403"
            number = await td.create_tournament(settings(), seed=11)
            for client in (ann, bob, cat):
                assert await client.register_tournament(number) == "registered"
            with pytest.raises(ClientError, match="already registered"):
                await ann.register_tournament(number)
            await cat.unregister_tournament(number)
            assert (await cat.http("GET", "/api/me"))["balance"] == WELCOME  # refunded
            await td.http("POST", f"/api/tournaments/{number}/bots", {"count": 6})
            lobby = {t["tournament"]: t for t in await cat.tournament_list()}
            assert lobby[number]["status"] == "registering"
            assert lobby[number]["registered"] == 8
            assert lobby[number]["clock"]["level"] == 1
            assert lobby[number]["clock"]["prize_pool"] == 8 * (PRICE - FEE)
            for client in (ann, bob):
                await client.follow_tournament(number)
            await td.direct(number, "start")
            views = [ann.tournaments[number], bob.tournaments[number]]
            await wait_for(lambda: all(v.table is not None for v in views))
            seen = views[0].clock
            assert (seen["small_blind"], seen["big_blind"], seen["players_left"]) == (5, 10, 8)
            assert seen["remaining"] == 60 and seen["next_break"] == 120
            assert seen["average_stack"] == CHIPS
            players = [asyncio.create_task(play(c, number)) for c in (ann, bob)]
            clock.advance(61)  # level 2: the tables are told
            await wait_for(lambda: views[0].clock["level"] == 2)
            assert (views[0].clock["small_blind"], views[0].clock["big_blind"]) == (10, 20)
            assert views[0].clock["next_break"] == pytest.approx(59, abs=1)
            ticking = asyncio.create_task(advance(clock, 2.0))
            try:
                await wait_for(lambda: all(v.standings is not None for v in views), 40)
            finally:
                ticking.cancel()
                for task in players:
                    task.cancel()
            standings = views[0].standings
            assert standings is not None and len(standings) == 8
            assert [s["place"] for s in standings] == list(range(1, 9))
            paid = sum(s["prize"] for s in standings)
            assert paid == 8 * (PRICE - FEE)  # the prize pool is the sum of the payouts
            run = server.room.hall.runs[number]
            assert run.t.finished and run.t.winner == standings[0]["name"]
            assert run.t.hands_played > 0 and run.t.stage > 0
            pool = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT a.balance FROM accounts a JOIN tournaments t ON t.pool_id = a.id"
                ).scalar()
            )
            assert pool == 0
            assert balance(server, "house") == 8 * FEE  # buy-ins = prize pool + fee
            for name, client in (("ann", ann), ("bob", bob)):
                prize = next(s["prize"] for s in standings if s["name"] == name)
                assert (await client.http("GET", "/api/me"))["balance"] == WELCOME - PRICE + prize
            assert server.room.store.read(check_ledger) == []
            detail = await ann.tournament_info(number)
            assert detail["status"] == "finished"
            for client in (td, ann, bob, cat):
                await client.close()

    asyncio.run(main())
