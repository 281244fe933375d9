"""Closing a table: its owner (or a dealer or an admin) closes it; no new hand is dealt, a hand
in play ends as usual (au 7.5, rws 3.4: chips stay on the table until the hand ends), and then
every seat is cashed out to its account. Nobody loses a chip; a restart in between keeps the
table closing (an in-process server on SQLite)."""

from __future__ import annotations

import asyncio
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from croupier.client import Client, ClientError
from croupier.server.store.database import check_ledger
from server_harness import fresh_postgres_db, heads_up, player, running, simple_move, until

WELCOME = 10_000  # each new account's chips (Options.welcome)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test on a SQLite file, then on a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "room.db")
    return fresh_postgres_db(request.getfixturevalue("postgres_dsn"))


async def _act_once(clients: list[Client], table: int) -> None:
    async def mover() -> Client:
        while True:
            for client in clients:
                if client.views[table].my_turn:
                    return client
            await asyncio.sleep(0.01)

    client = await asyncio.wait_for(mover(), 20)
    kind, fields = simple_move(client.views[table].legal or {})
    await client.act(table, kind, **fields)


async def _balance(client: Client) -> int:
    return int((await client.http("GET", "/api/me"))["balance"])


def _status(server: object, table: int) -> str:
    return str(
        server.room.store.read(  # type: ignore[attr-defined]
            lambda c: c.exec_driver_sql(f"SELECT status FROM tables WHERE id = {table}").scalar()
        )
    )


def test_a_table_with_no_hand_in_play_closes_at_once_and_cashes_its_seats_out(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            await alice.sit(table, 1, 300)  # alone: no hand is dealt
            await bob.watch(table)
            with pytest.raises(ClientError) as refused:
                await bob.close_table(table)
            assert refused.value.code == "unauthorised"
            await alice.close_table(table, "the game is broken")
            await until(lambda: alice.views[table].closed is not None)
            assert alice.views[table].closed == "the game is broken"
            await until(lambda: bob.views[table].closed == "the game is broken")
            assert await _balance(alice) == WELCOME
            assert _status(server, table) == "closed"
            assert table not in server.room.rooms
            assert all(t["table"] != table for t in await alice.tables())
            for attempt in (bob.sit(table, 2, 300), bob.watch(table), alice.close_table(table)):
                with pytest.raises(ClientError) as refused:
                    await attempt
                assert refused.value.code == "closed", refused.value
            with pytest.raises(urllib.error.HTTPError) as gone:
                await asyncio.to_thread(urllib.request.urlopen, f"{server.url}/api/tables/{table}")
            assert gone.value.code == 410
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_au_7_5_rws_3_4_a_hand_in_play_ends_before_the_table_closes(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            carol = await player(server.url, "carol")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 4})
            await alice.sit(table, 1, 200)
            await bob.sit(table, 2, 200)
            await alice.add_bot(table, 3)
            await until(lambda: len(alice.views[table].order) == 3 and bob.views[table].hand)
            number = alice.views[table].hand
            await _act_once([alice, bob], table)
            await alice.close_table(table, "the room closes")
            await until(lambda: bob.views[table].closing == "the room closes")
            for attempt in (
                carol.sit(table, 4, 200),
                bob.top_up(table, 100),
                alice.add_bot(table, 4),
            ):
                with pytest.raises(ClientError) as refused:
                    await attempt
                assert refused.value.code == "closed", refused.value
                assert "closing (the room closes)" in refused.value.message
            results = alice.views[table].results  # hand 1 may have been dealt heads-up
            while not any(r["hand"] == number for r in results):
                await _act_once([alice, bob], table)
            ended = results[-1]
            assert ended["hand"] == number
            await until(lambda: alice.views[table].closed == "the room closes")
            stacks = {int(seat): chips for seat, chips in ended["stacks"].items()}
            commissions = sum(r["commission"] for r in results)
            assert sum(stacks.values()) + commissions == 200 * 3
            assert await _balance(alice) == WELCOME - 200 + stacks[1]
            assert await _balance(bob) == WELCOME - 200 + stacks[2]
            bot = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT balance FROM accounts WHERE role = 'bot'"
                ).scalar()
            )
            assert bot == stacks[3]  # the bot's stake and winnings, back in its account
            hands = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    f"SELECT count(*) FROM hands WHERE table_id = {table}"
                ).scalar()
            )
            assert hands == number  # no hand dealt after the close
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_table_closing_when_the_server_restarts_finishes_its_hand_then_closes(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            alice, bob, table = await heads_up(server.url)
            await until(lambda: alice.views[table].my_turn or bob.views[table].my_turn)
            await _act_once([alice, bob], table)
            await alice.close_table(table)
            assert _status(server, table) == "closing"
            await alice.close()
            await bob.close()
        async with running(db) as server:
            room = server.room.rooms[table]
            assert room.game.in_hand and room.closing is not None
            alice = await Client.login(server.url, "alice", "password-1")
            bob = await Client.login(server.url, "bob", "password-1")
            for client in (alice, bob):
                await client.connect()  # back to the same seat, the table still closing
            await until(lambda: alice.views[table].closing is not None)
            while not alice.views[table].results:
                await _act_once([alice, bob], table)
            await until(lambda: alice.views[table].closed is not None)
            stacks = alice.views[table].results[0]["stacks"]
            assert await _balance(alice) + await _balance(bob) == 2 * WELCOME - sum(
                200 - chips for chips in stacks.values()
            )
            assert _status(server, table) == "closed"
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_cardroom_buy_in_3_a_player_moved_from_a_broken_game_keeps_the_stack_they_had(
    db: str,
) -> None:
    """A player forced from a broken game to one of the same limit may play the stack they had,
    even below the minimum buy-in (and here below the short one): once, and for an hour. Under
    rws (3.4: the minimum table stake) a closed table gives no such right."""

    async def main() -> None:
        async with running(db) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            carol = await player(server.url, "carol")
            spec = {"game": "holdem", "rulebook": "cardroom", "stakes": "5/10", "seats": 6,
                    "buy_in": 200}  # fmt: skip
            broken = await alice.create_table({**spec, "short_buy_in": 150})
            await alice.sit(broken, 1, 150)  # her short buy-in; alone, so nothing is dealt
            await alice.close_table(broken)
            await until(lambda: alice.views[broken].closed is not None)
            assert alice.views[broken].moved_stack == 150  # she is told what she may sit with
            other = await bob.create_table({**spec, "short_buy_in": 180})
            for client in (carol, alice):  # carol has no such right: 150 is below 180
                with pytest.raises(ClientError) as refused:
                    await client.sit(other, 2, 120)
                assert "below the minimum 200 (cardroom buy-in 1-2)" in refused.value.message
            with pytest.raises(ClientError) as refused:
                await carol.sit(other, 2, 150)
            assert "short buy-in of 180" in refused.value.message
            await alice.sit(other, 2, 150)  # the stack she had at the broken game
            assert await _balance(alice) == WELCOME - 150
            detail = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT detail FROM audit WHERE kind = 'sit' ORDER BY id DESC"
                ).scalar()
            )
            assert f"the stack they had at table {broken}" in detail
            assert "(cardroom buy-in 3)" in detail
            await alice.leave(other)
            with pytest.raises(ClientError) as refused:  # the right is used once
                await alice.sit(other, 2, 150)
            assert refused.value.code == "refused"

            # An hour: past it the right is gone.
            again = await alice.create_table({**spec, "short_buy_in": 150})
            await bob.sit(again, 1, 150)
            await alice.close_table(again)
            await until(lambda: bob.views[again].closed is not None)
            server.room.store.write_now(
                lambda c: c.exec_driver_sql("UPDATE transfers SET expires = 0")
            )
            with pytest.raises(ClientError):
                await bob.sit(other, 3, 150)

            # rws: every new seat takes the minimum table stake; a closed table gives no right.
            rws = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            await carol.sit(rws, 1, 200)
            await alice.close_table(rws)
            await until(lambda: carol.views[rws].closed is not None)
            assert carol.views[rws].moved_stack is None
            rights = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    f"SELECT count(*) FROM transfers WHERE from_table = {rws}"
                ).scalar()
            )
            assert rights == 0
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


@pytest.mark.parametrize(
    ("rulebook", "structure", "chips", "clause"),
    [
        ("cardroom", "fixed", 170, "cardroom buy-in 3"),
        (None, "no-limit", 1700, "house rules: a stack moved from a closed table plays on"),
    ],
)
def test_cardroom_buy_in_3_a_player_away_when_the_game_broke_is_told_at_the_next_welcome(
    db: str, rulebook: str | None, structure: str, chips: int, clause: str
) -> None:
    """A player not connected when the house closed their table still has the right to sit
    with the stack they had: the next ``welcome`` tells them of each right still open (its
    table, chips, limit, the rule in force and end), and no longer once it is used. House
    rules give the same right (their rulebook null)."""

    async def main() -> None:
        async with running(db) as server:
            alice = await player(server.url, "alice")
            dave = await player(server.url, "dave")
            spec = {"game": "holdem", "rulebook": rulebook, "structure": structure,
                    "stakes": "5/10", "seats": 6}  # fmt: skip
            broken = await alice.create_table(spec)
            await dave.sit(broken, 1, chips)  # alone: nothing is dealt
            welcome = await dave.connect()
            assert welcome["transfers"] == []
            await dave.close()  # away when the table closes
            asked = time.time()
            await alice.close_table(broken)
            await until(lambda: _status(server, broken) == "closed")
            closed = time.time()
            dave = await Client.login(server.url, "dave", "password-1")
            welcome = await dave.connect()
            assert (await dave.http("GET", "/api/me"))["transfers"] == welcome["transfers"]
            [right] = welcome["transfers"]
            expires = right.pop("expires")
            assert right == {
                "from_table": broken, "chips": chips, "rulebook": rulebook, "game": "holdem",
                "structure": structure, "stakes": "5/10", "clause": clause,
            }  # fmt: skip
            assert asked + 3600 <= expires <= closed + 3600  # an hour (the card room's choice)
            other = await alice.create_table(spec)
            await dave.sit(other, 1, chips)  # the stack he had: the right is used
            assert (await dave.connect())["transfers"] == []
            assert (await dave.http("GET", "/api/me"))["transfers"] == []
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())
