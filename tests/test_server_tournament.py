"""Tournaments in the card room (issue 18): registration and the ledger, hands dealt through
the server with the library's levels, moves followed by the moved player's client, the
director's controls, a restart mid-tournament, and late registration (league 19). A real
server on SQLite (the whole run on PostgreSQL too); the tournament's clock is a manual one the
tests move on."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import random
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select, update

from croupier.client import Client, ClientError, _http_text
from croupier.server.rooms.game_table import Move
from croupier.server.store import schema as s
from croupier.server.store.database import Store, check_ledger
from croupier.server.tournaments.hand import move_json
from croupier.server.web.protocol import check_server_message
from croupier.tournament import ManualClock, Tournament
from croupier.tournament.log import load_log
from pokerstars_format import parse
from server_harness import FAST, fresh_postgres_db, player, running, simple_move

PRICE, FEE, CHIPS = 1000, 100, 1000
SEED = 1  # the re-entry test's scenario: with it, the player who moves all in is busted
WELCOME = 10_000


def settings(table_size: int = 4, late_until_level: int = 0, re_entries: int = 0) -> dict[str, Any]:
    """A small structure: one-minute levels (the tests move the clock), a break after two."""
    return {
        "name": "Thursday test",
        "table_size": table_size,
        "denominations": [5, 25, 100],
        "buy_in": {"price": PRICE, "fee": FEE, "chips": CHIPS},
        "registration": {"late_until_level": late_until_level, "re_entries": re_entries},
        "rebuys": {"price": 500, "fee": 50, "chips": 500, "until_level": 2, "stack_at_most": 10**6},
        "add_on": {"price": 500, "fee": 50, "chips": 1000, "at_level": 2},
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


async def _raw(url: str, method: str, path: str, headers: dict[str, str]) -> tuple[int, Any]:
    """One HTTP request with headers of the test's choosing: the status and the JSON body."""

    def call() -> tuple[int, Any]:
        ask = urllib.request.Request(url + path, method=method, headers=headers)
        try:
            with urllib.request.urlopen(ask, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    return await asyncio.to_thread(call)


async def director(url: str, server: Any, name: str = "td") -> Client:
    client = await player(url, name)
    server.room.store.write_now(
        lambda c: c.execute(
            update(s.accounts).where(s.accounts.c.name == name).values(role="admin")
        )
    )
    await client.close()
    client = await Client.login(url, name, "password-1")
    client.listeners.append(check_server_message)
    await client.connect()
    return client


async def ann_against_bots(
    server: Any, bots: int, tournament: dict[str, Any], **create: Any
) -> tuple[Client, Client, int]:
    """The director opens a tournament (``create``: seed, clock, bot...), ann registers and
    follows it, ``bots`` bots fill it, and it starts: (director, ann, tournament number)."""
    td = await director(server.url, server)
    ann = await player(server.url, "ann")
    number = await td.create_tournament(tournament, **create)
    await ann.register_tournament(number)
    await td.http("POST", f"/api/tournaments/{number}/bots", {"count": bots})
    await ann.follow_tournament(number)
    await td.direct(number, "start")
    return td, ann, number


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


async def play_to_payouts(client: Client, tournament: int, clock: ManualClock) -> None:
    """``client`` checks or calls, the clock runs on, until the standings are out."""
    view = client.tournaments[tournament]
    playing = asyncio.create_task(play(client, tournament))
    ticking = asyncio.create_task(advance(clock, 2.0))
    try:
        await wait_for(lambda: view.standings is not None, 120)  # a loaded machine plays slower
    finally:
        ticking.cancel()
        playing.cancel()


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


def no_other_hole_cards(message: dict[str, Any], name: str) -> None:
    """A seat is sent its own hole cards only (a tournament table's state, at each deal)."""
    hand = message.get("hand") if message["type"] == "tournament_state" else None
    if not isinstance(hand, dict):
        return
    mine = hand["order"].index(message["you"]) if message["you"] in hand["order"] else None
    for event in hand["events"]:
        if event["event"] == "DealHole":
            shown = [c for c in event["cards"] if c != "??"]
            assert event["player"] == mine or not shown, f"{name} was sent {event}"
            if event["player"] == mine:
                assert len(shown) == len(event["cards"])  # and their own, face up to them


def balance(server: Any, name: str) -> int:
    query = select(s.accounts.c.balance).where(s.accounts.c.name == name)
    return int(server.room.store.read(lambda c: c.scalar(query)))


def test_a_tournament_runs_from_registration_to_payouts_and_the_ledger_balances(
    tmp_path: Path,
) -> None:
    asyncio.run(full_run(str(tmp_path / "room.db")))


def test_a_tournament_runs_to_payouts_on_postgresql(postgres_dsn: str) -> None:
    asyncio.run(full_run(fresh_postgres_db(postgres_dsn)))


async def full_run(db: str) -> None:
    """Eight players (two people, six bots) from registration to the prizes."""
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)
    async with running(db, options) as server:
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
            client.listeners.append(lambda m, name=client.name: no_other_hole_cards(m, name))
            await client.follow_tournament(number)
        await td.direct(number, "start")
        cat.listeners.append(lambda m: no_other_hole_cards(m, "cat"))
        dealt: list[dict[str, Any]] = []
        cat.listeners.append(lambda m: dealt.append(m) if m.get("hand") else None)
        watching = await cat.follow_tournament(number, table=1)  # a spectator: no hole cards
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
            # Two minutes: a loaded machine plays slower.
            await wait_for(lambda: all(v.standings is not None for v in views), 120)
        finally:
            ticking.cancel()
            for task in players:
                task.cancel()
        assert watching.you is None and watching.standings == views[0].standings
        assert any(m["type"] == "tournament_state" for m in dealt)  # it saw hands dealt
        standings = views[0].standings
        assert standings is not None and len(standings) == 8
        assert [s["place"] for s in standings] == list(range(1, 9))
        paid = sum(s["prize"] for s in standings)
        assert paid == 8 * (PRICE - FEE)  # the prize pool is the sum of the payouts
        run = server.room.hall.runs[number]
        assert run.t.finished and run.t.winner == standings[0]["name"]
        assert run.t.hands_played > 0 and run.t.stage > 0
        pool_of = select(s.accounts.c.balance).join(
            s.tournaments, s.tournaments.c.pool_id == s.accounts.c.id
        )
        pool = server.room.store.read(lambda c: c.scalar(pool_of))
        assert pool == 0
        assert balance(server, "house") == 8 * FEE  # buy-ins = prize pool + fee
        for name, client in (("ann", ann), ("bob", bob)):
            prize = next(s["prize"] for s in standings if s["name"] == name)
            assert (await client.http("GET", "/api/me"))["balance"] == WELCOME - PRICE + prize
        assert server.room.store.read(check_ledger) == []
        detail = await ann.tournament_info(number)
        assert detail["status"] == "finished"
        # Her hands, as her seat saw them: her own hole cards in PHH, no one else's.
        hands = (await ann.http("GET", f"/api/tournaments/{number}/hands"))["hands"]
        assert hands and all(h["hand"] for h in hands)
        first = hands[0]["hand"]
        text = await _http_text(
            server.url, f"/api/tournaments/{number}/hands/{first}/phh", ann.token
        )
        players = re.search(r"^players = \[(.*)\]$", text, re.M)
        assert players is not None
        me = [name.strip(' "') for name in players.group(1).split(",")].index("ann") + 1
        dealt = re.findall(r'"d dh p(\d+) (\S+)"', text)
        shown = {int(p): cards for p, cards in dealt if cards != "????"}
        assert me in shown  # her own; another's only where it was shown down
        assert all(f"p{p} sm {cards}" in text for p, cards in shown.items() if p != me)
        with pytest.raises(ClientError) as refused:
            await _http_text(server.url, f"/api/tournaments/{number}/hands/{first}/phh", cat.token)
        assert refused.value.code == "http 403"
        # The same hand as PokerStars text: the tournament's header (its number, the buy-in to
        # the pool and the fee in dollars, the level), read back by the independent reader.
        stars = await _http_text(
            server.url, f"/api/tournaments/{number}/hands/{first}/pokerstars", ann.token
        )
        head = f"Tournament #{number}, ${(PRICE - FEE) / 100:.2f}+${FEE / 100:.2f} USD Hold'em"
        assert head in stars.splitlines()[0] and " - Level I (" in stars.splitlines()[0]
        parsed = parse(stars)
        assert parsed.tournament == str(number) and list(parsed.dealt) == ["ann"]
        # Every history keeps the hand's identity (issue 41): the card room's hand id, the
        # tournament's table, its level and the start; the event log too.
        assert stars.startswith(f"PokerStars Hand #{first}: ")
        assert re.search(rf"^Table '{number} \d+' 4-max Seat #\d+ is the button$", stars, re.M)
        assert re.search(rf"^hand = {first}$", text, re.M) and "\nlevel = 1\n" in text
        assert re.search(r"^year = 20\d\d$", text, re.M) and 'time_zone = "UTC"' in text
        log = await _http_text(
            server.url, f"/api/tournaments/{number}/hands/{first}/log", ann.token
        )
        record = json.loads(log)
        assert record["hand"] == first and record["tournament"]["number"] == number
        assert record["started"].startswith("20") and record["seat_count"] == 4
        with pytest.raises(ClientError) as refused:
            path = f"/api/tournaments/{number}/hands/{first}/pokerstars"
            await _http_text(server.url, path, cat.token)
        assert refused.value.code == "http 403"
        for client in (td, ann, bob, cat):
            await client.close()


def test_director_controls_are_refused_for_a_player_and_applied_and_audited_for_a_director(
    tmp_path: Path,
) -> None:
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)

    async def main() -> None:
        async with running(str(tmp_path / "room.db"), options) as server:
            td = await director(server.url, server)
            ann, bob = [await player(server.url, n) for n in ("ann", "bob")]
            # A second between hands: the pause below comes before many hands are played.
            number = await td.create_tournament(
                settings(table_size=5), seed=5, bot="tight", pause=1.0
            )
            for client in (ann, bob):
                await client.register_tournament(number)
            await td.http("POST", f"/api/tournaments/{number}/bots", {"count": 5})
            for client in (ann, bob):
                await client.follow_tournament(number)
            with pytest.raises(ClientError) as refused:
                await ann.direct(number, "start")
            assert refused.value.code == "http 403"
            await td.direct(number, "start")
            players = [asyncio.create_task(play(c, number)) for c in (ann, bob)]
            run = server.room.hall.runs[number]
            try:
                with pytest.raises(ClientError, match="dealer or an admin"):
                    await ann.direct(number, "pause")
                assert not run.t.paused
                await td.direct(number, "pause")
                await wait_for(lambda: not run.hands)  # the hands in play end; none is dealt
                before = (await td.tournament_info(number))["clock"]
                assert before["paused"]
                clock.advance(30)  # a paused clock stands still
                assert (await td.tournament_info(number))["clock"]["remaining"] == before[
                    "remaining"
                ]
                added = await td.direct(number, "add_time", seconds=30)
                assert added["clock"]["remaining"] == before["remaining"] + 30

                # A rebuy between hands (house option); the add-on is offered at level 2 only.
                chips = run.t.players["ann"].chips
                assert await ann.buy_chips(number, "rebuy") == "rebought"
                assert run.t.players["ann"].chips == chips + 500
                with pytest.raises(ClientError, match="during level 2"):
                    await ann.buy_chips(number, "add_on")
                assert (await ann.http("GET", "/api/me"))["balance"] == WELCOME - PRICE - 500
                pool = (await td.tournament_info(number))["clock"]["prize_pool"]
                assert pool == 7 * (PRICE - FEE) + 450

                # Move ann to a free seat at the other table: her client follows.
                info = await td.tournament_info(number)
                where = {p["name"]: (p["table"], p["seat"]) for p in info["players"]}
                old_table, old_seat = where["ann"]
                other = next(t for t in info["tables"] if t["table"] != old_table)
                taken = {s["seat"] for s in other["seats"]}
                free = min(set(range(1, 6)) - taken)
                with pytest.raises(ClientError) as refused:
                    await bob.direct(number, "move", player="ann", table=other["table"], seat=free)
                assert refused.value.code == "http 403"
                await td.direct(number, "move", player="ann", table=other["table"], seat=free)
                view = ann.tournaments[number]
                await wait_for(lambda: any(m["reason"] == "director" for m in view.moves))
                move = next(m for m in view.moves if m["reason"] == "director")
                assert (move["from_table"], move["from_seat"]) == (old_table, old_seat)
                assert (move["table"], move["seat"]) == (other["table"], free)
                # Her client follows (and follows on, should the tables then balance).
                record = run.t.players["ann"]
                await wait_for(lambda: (view.table, view.you) == (record.table, record.seat))
                await wait_for(
                    lambda: any(s["name"] == "ann" and s["seat"] == view.you for s in view.seats)
                )

                # League 35: a penalty sits bob out; a penalty of nothing is refused.
                with pytest.raises(ClientError, match="league 35"):
                    await td.direct(number, "penalty", player="bob")
                done = await td.direct(number, "penalty", player="bob", orbits=1)
                assert "league 35" in done["done"]
                bobs = bob.tournaments[number]
                await wait_for(lambda: any(s["name"] == "bob" and s["absent"] for s in bobs.seats))
                # League 36: the director disqualifies a player; their chips leave play.
                victim = next(n for n in where if n.startswith(f"t{number}-bot"))
                chips = run.t.players[victim].chips
                issued = run.t.chips_in_play
                done = await td.direct(number, "disqualify", player=victim)
                assert "league 36" in done["done"]
                assert run.t.players[victim].status.value == "disqualified"
                assert run.t.chips_in_play == issued - chips
                await td.direct(number, "resume")
                await wait_for(lambda: view.hand is not None)  # dealing again
            finally:
                for task in players:
                    task.cancel()
            audit = (await td.http("GET", "/api/audit"))["rows"]
            mine = [r for r in audit if r["kind"] == "tournament"]
            applied = " ".join(r["detail"] for r in mine if r["outcome"] == "applied")
            for word in ("clock paused", "30 seconds added", "ann moved", "league 35", "league 36"):
                assert word in applied
            refusals = [r for r in mine if r["outcome"] == "refused"]
            assert {r["account"] for r in refusals} >= {
                ann.welcome["account"] if ann.welcome else -1,
                bob.welcome["account"] if bob.welcome else -1,
            }
            assert server.room.store.read(check_ledger) == []
            for client in (td, ann, bob):
                await client.close()

    asyncio.run(main())


def test_league_19_late_registration_is_refused_after_its_level(tmp_path: Path) -> None:
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)

    async def main() -> None:
        async with running(str(tmp_path / "room.db"), options) as server:
            td = await director(server.url, server)
            ann, bob = [await player(server.url, n) for n in ("ann", "bob")]
            starts = clock() + 300
            number = await td.create_tournament(
                settings(late_until_level=1), seed=3, starts_at=starts
            )
            await td.http("POST", f"/api/tournaments/{number}/bots", {"count": 3})
            await ann.follow_tournament(number)
            lobby = {t["tournament"]: t for t in await ann.tournament_list()}
            assert lobby[number]["starts_at"] == starts
            clock.advance(300)  # its starting time: the server starts it
            view = ann.tournaments[number]
            await wait_for(lambda: view.status == "running")
            assert await ann.register_tournament(number) == "registered late"
            view = ann.tournaments[number]
            await wait_for(lambda: view.table is not None and view.you is not None)
            playing = asyncio.create_task(play(ann, number))
            try:
                assert (await ann.http("GET", "/api/me"))["balance"] == WELCOME - PRICE
                clock.advance(61)  # level 1 is over: so is late registration
                await wait_for(lambda: not view.clock["registration_open"])
                with pytest.raises(ClientError) as refused:
                    await bob.register_tournament(number)
            finally:
                playing.cancel()
            assert refused.value.code == "http 409"
            assert "league 19" in refused.value.message
            assert "level 1" in refused.value.message
            assert (await bob.http("GET", "/api/me"))["balance"] == WELCOME  # nothing taken
            run = server.room.hall.runs[number]
            assert "bob" not in run.t.players
            audit = (await td.http("GET", "/api/audit"))["rows"]
            assert any(r["outcome"] == "refused" and "league 19" in r["detail"] for r in audit)
            assert server.room.store.read(check_ledger) == []
            for client in (td, ann, bob):
                await client.close()

    asyncio.run(main())


def test_a_restart_mid_tournament_rebuilds_it_from_its_log_and_it_plays_on(tmp_path: Path) -> None:
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)
    db = str(tmp_path / "room.db")

    async def main() -> None:
        async with running(db, options) as server:
            # A long action clock: the hand waits for ann across the restart.
            td, ann, number = await ann_against_bots(
                server, 5, settings(table_size=6), seed=9, clock=600
            )
            clock.advance(61)
            view = await ann.tournament_turn(number, timeout=20)
            await td.direct(number, "pause")  # the clock stands still through the restart
            run = server.room.hall.runs[number]
            events = list(run.t.events)
            before = (view.table, view.you, view.hand, list(view.events), view.legal)
            remaining = run.clock_info()["remaining"]
            assert run.t.level_number == 2
            await ann.close()
            await td.close()
        async with running(db, options) as server:
            run = server.room.hall.runs[number]
            assert run.t.events[: len(events)] == events
            rows = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT event FROM tournament_events WHERE tournament_id = ? ORDER BY seq",
                    (number,),
                ).all()
            )
            rebuilt = Tournament.rebuild(
                run.settings, load_log("\n".join(r[0] for r in rows)), seed=run.seed, clock=clock
            )
            assert rebuilt == run.t
            assert run.t.paused and run.clock_info()["remaining"] == remaining
            ann.tournaments.clear()  # nothing kept from before: what the new server says
            await ann.connect(server.url)  # back: her table, her hand, her turn
            assert ann.tournaments[number].table == before[0]  # told on hello
            view = await ann.follow_tournament(number)
            assert view.my_turn
            assert (view.table, view.you, view.hand, view.events, view.legal) == before
            td = await Client.login(server.url, "td", "password-1")
            await td.connect()
            # Rws 5.1: the director voids the hand; every seat gets what it was dealt with.
            dealt = run.t.tables[view.table or 0].hand
            assert dealt is not None
            with pytest.raises(ClientError) as refused:
                await ann.direct(number, "void", table=view.table)
            assert refused.value.code == "http 403"
            done = await td.direct(number, "void", table=view.table, reason="a card exposed")
            assert "rws 5.1" in done["done"]
            await wait_for(lambda: any(r["void"] for r in view.results))
            assert all(run.t.players[name].chips == chips for _, name, chips in dealt.dealt)
            await td.direct(number, "resume")
            await play_to_payouts(ann, number, clock)
            assert run.t.finished
            assert sum(s["prize"] for s in view.standings or []) == 6 * (PRICE - FEE)
            assert server.room.store.read(check_ledger) == []
            await ann.close()
            await td.close()

    asyncio.run(main())


def test_a_tournament_lives_in_one_process_and_another_sends_its_clients_there(
    tmp_path: Path,
) -> None:
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)
    db = str(tmp_path / "room.db")

    async def main() -> None:
        async with running(db, options) as first, running(db, options) as second:
            td = await director(first.url, first)
            number = await td.create_tournament(settings(), seed=1)
            assert number in first.room.hall.runs
            await second.room.hall.claim()  # the lease is the first process's
            assert number not in second.room.hall.runs
            ann = await player(second.url, "ann")
            # Its HTTP requests are answered by the first, through whichever process is asked.
            done = await ann.http("POST", f"/api/tournaments/{number}/register")
            assert done == {"tournament": number, "name": "ann", "done": "registered"}
            assert "ann" in {m.name for m in first.room.hall.runs[number].members.values()}
            info = await ann.http("GET", f"/api/tournaments/{number}")
            assert [p["name"] for p in info["players"]] == ["ann"]
            # Passed on once only: a request another process forwarded is told where to go.
            status, answer = await _raw(
                second.url, "GET", f"/api/tournaments/{number}", {"x-croupier-forwarded": "1"}
            )
            assert (status, answer["code"], answer["url"]) == (409, "elsewhere", first.url)
            view = await ann.follow_tournament(number)  # the socket follows to the first
            assert ann.url == first.url and view.status == "registering"
            lobby = await ann.tournament_list()
            assert [t["tournament"] for t in lobby] == [number]
            await ann.close()
            await td.close()

    asyncio.run(main())


def test_league_25_a_player_gone_and_out_of_time_is_absent_until_they_come_back(
    tmp_path: Path,
) -> None:
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)

    async def main() -> None:
        async with running(str(tmp_path / "room.db"), options) as server:
            td = await director(server.url, server)
            ann = await Client.register(server.url, "ann", "password-1")  # not connected
            ann.listeners.append(check_server_message)
            number = await td.create_tournament(
                settings(table_size=6), seed=4, bot="tight", clock=0.2
            )
            await ann.register_tournament(number)
            await td.http("POST", f"/api/tournaments/{number}/bots", {"count": 3})
            await td.direct(number, "start")
            run = server.room.hall.runs[number]
            await wait_for(lambda: run.t.players["ann"].absent)  # her clock ran out, away
            hands = run.t.hands_played
            await wait_for(lambda: run.t.hands_played > hands + 1)  # dealt on without her
            record = run.t.players["ann"]
            assert record.absent and record.status.value == "playing"
            await ann.connect()  # back: present again, following her table
            await wait_for(lambda: not run.t.players["ann"].absent)
            await wait_for(lambda: number in ann.tournaments)
            assert ann.tournaments[number].table == run.t.players["ann"].table
            audit = (await td.http("GET", "/api/audit"))["rows"]
            assert any("ann is back" in r["detail"] for r in audit)
            # Her hands dealt while she was away were killed at the first card (league 27):
            # PHH cannot record the kill, but the PokerStars text (her hand folded at its
            # turn, read by the independent reader) and the event log have them (issue 41).
            mine = (await ann.http("GET", f"/api/tournaments/{number}/hands"))["hands"]
            dead = 0
            for row in mine:
                path = f"/api/tournaments/{number}/hands/{row['hand']}"
                stars = await _http_text(server.url, f"{path}/pokerstars", ann.token)
                parse(stars)
                log = json.loads(await _http_text(server.url, f"{path}/log", ann.token))
                if any(e["event"] == "HandKilled" for e in log["events"]):
                    dead += 1
                    assert "ann: folds" in stars.splitlines()
            assert dead >= 1
            await ann.close()
            await td.close()

    asyncio.run(main())


def test_rws_5_1_a_hand_that_cannot_be_dealt_again_after_a_restart_is_void(
    tmp_path: Path,
) -> None:
    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)
    db = str(tmp_path / "room.db")

    async def main() -> None:
        async with running(db, options) as server:
            td, ann, number = await ann_against_bots(
                server, 3, settings(table_size=6), seed=9, clock=600
            )
            view = await ann.tournament_turn(number, timeout=20)
            await td.direct(number, "pause")
            run = server.room.hall.runs[number]
            playing = run.hands[view.table or 0]
            hand = run.t.tables[view.table or 0].hand
            assert hand is not None
            dealt = {name: chips for _, name, chips in hand.dealt}
            account = run.members["ann"].account
            await ann.close()
            await td.close()
        # A stored move the rules refuse: the hand no longer deals again as stored.
        bad = {
            "hand_id": playing.hand_id, "seq": playing.moves, "seat": view.you,
            "account_id": account, "request_id": None,
            "move": move_json(Move("bet_or_raise", 1)), "by": "player", "at": 0.0,
        }  # fmt: skip
        store = Store(db)
        store.write_now(lambda c: c.execute(insert(s.moves), bad))
        store.close()
        async with running(db, options) as server:
            run = server.room.hall.runs[number]
            await wait_for(lambda: not run.hands and run.t.tables[view.table or 0].hand is None)
            assert {name: run.t.players[name].chips for name in dealt} == dealt
            td = await Client.login(server.url, "td", "password-1")
            audit = (await td.http("GET", "/api/audit"))["rows"]
            assert any("void (rws 5.1" in r["detail"] for r in audit if r["outcome"] == "ruling")
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


async def shove(client: Client, tournament: int) -> None:
    """All in whenever it is this client's turn."""
    while True:
        view = await client.tournament_turn(tournament, timeout=60)
        if not view.my_turn:
            return
        legal = view.legal or {}
        with contextlib.suppress(ClientError):
            if legal.get("raise_range"):
                await client.tournament_act(tournament, "bet_or_raise", legal["raise_range"][1])
            else:
                await client.tournament_act(tournament, "check_or_call")


def test_league_19_a_busted_player_re_enters_and_league_36_a_disqualified_one_cannot(
    tmp_path: Path,
) -> None:
    clock = ManualClock(1_000_000.0)  # never moved: the run is the same every time
    options = dataclasses.replace(FAST, tournament_clock=clock)

    async def main() -> None:
        async with running(str(tmp_path / "room.db"), options) as server:
            many = settings(table_size=6, late_until_level=2, re_entries=1)
            td, ann, number = await ann_against_bots(server, 3, many, seed=SEED, bot="calling")
            run = server.room.hall.runs[number]
            shoving = asyncio.create_task(shove(ann, number))
            try:
                await wait_for(lambda: run.t.players["ann"].status.value == "out")
            finally:
                shoving.cancel()
            assert await ann.register_tournament(number) == "re-entered"
            record = run.t.players["ann"]
            assert (record.entries, record.status.value, record.chips) == (2, "playing", CHIPS)
            assert (await ann.http("GET", "/api/me"))["balance"] == WELCOME - 2 * PRICE
            view = ann.tournaments[number]
            await wait_for(lambda: view.you is not None)  # seated again, her client told
            await td.direct(number, "pause")
            playing = asyncio.create_task(play(ann, number))
            try:
                await wait_for(lambda: not run.hands)
            finally:
                playing.cancel()
            await td.direct(number, "disqualify", player="ann")
            with pytest.raises(ClientError) as refused:
                await ann.register_tournament(number)
            assert refused.value.code == "http 409" and "league 36" in refused.value.message
            assert (await ann.http("GET", "/api/me"))["balance"] == WELCOME - 2 * PRICE
            assert server.room.store.read(check_ledger) == []
            await ann.close()
            await td.close()

    asyncio.run(main())


def test_a_tournament_move_the_database_fails_to_store_is_refused_and_the_run_reloads(
    tmp_path: Path,
) -> None:
    """A tournament move whose transaction fails is answered `unavailable`; the run is read
    again from its log (the move never happened: the same player is still to act, told so
    again), the move sent again is applied, and the tournament plays on to its payouts."""
    from croupier.server.store.database import StoreError

    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)

    async def main() -> None:
        async with running(str(tmp_path / "room.db"), options) as server:
            _td, ann, number = await ann_against_bots(
                server, 3, settings(table_size=4), seed=5, clock=600
            )
            view = await ann.tournament_turn(number, timeout=20)
            run = server.room.hall.runs[number]
            events = len(run.t.events)
            store = server.room.store
            write = store.write

            async def failing(*args: object, **kwargs: object) -> object:
                store.write = write  # type: ignore[method-assign]  # once
                raise StoreError("the disk is full")

            store.write = failing  # type: ignore[method-assign]
            with pytest.raises(ClientError) as refused:
                await ann.tournament_act(number, "fold")
            assert refused.value.code == "unavailable"
            run = server.room.hall.runs[number]
            assert len(run.t.events) == events  # read again: the fold never happened
            view = await ann.tournament_turn(number, timeout=20)  # her turn, told again
            assert view.my_turn
            await ann.tournament_act(number, "fold")
            assert len(run.t.events) > events
            await play_to_payouts(ann, number, clock)
            assert sum(s["prize"] for s in view.standings or []) == 4 * (PRICE - FEE)
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_tournament_plays_to_its_payouts_through_writes_the_database_fails(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """One write in six fails while a tournament of two tables plays (deals, moves, players
    moved and busted): each time the run is read again from its log and plays on, to the same
    prize pool paid out, the ledger balanced, and no hand or step given up."""
    from croupier.server.store.database import StoreError

    clock = ManualClock(1_000_000.0)
    options = dataclasses.replace(FAST, tournament_clock=clock)

    async def main() -> None:
        async with running(str(tmp_path / "room.db"), options) as server:
            _td, ann, number = await ann_against_bots(
                server, 7, settings(table_size=4), seed=3, clock=600
            )
            store, chance, failed = server.room.store, random.Random(6), []
            write = store.write

            async def flaky(fn: Any, *args: Any, **kwargs: Any) -> Any:
                if chance.random() < 1 / 6:
                    failed.append(fn)
                    raise StoreError("the disk is full")
                return await write(fn, *args, **kwargs)

            store.write = flaky  # type: ignore[method-assign]
            await play_to_payouts(ann, number, clock)
            store.write = write  # type: ignore[method-assign]
            assert len(failed) > 10
            standings = ann.tournaments[number].standings or []
            assert sum(s["prize"] for s in standings) == 8 * (PRICE - FEE)
            assert server.room.store.read(check_ledger) == []
            gave_up = [
                r.getMessage() for r in caplog.records
                if r.levelno >= logging.ERROR and "lease renewal" not in r.getMessage()
            ]  # fmt: skip
            assert gave_up == []

    asyncio.run(main())
