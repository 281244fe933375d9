"""The card room's tables follow the book in force: its refusals cite that book's clauses, house
tables deal each game's usual structure, and a table's buy-in covers its minimum wager (an
in-process server on SQLite)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest

from croupier.client import Client, ClientError
from croupier.server.rooms.game_table import GameTable, check_new_table
from croupier.server.rooms.table_spec import SpecError, TableSpec
from croupier.server.store.database import check_ledger
from server_harness import Running, player, running

BOOKS = ("au", "qld", "rws", "cardroom", "league")


def cites_only(message: str, book: str) -> bool:
    """Whether ``message`` names clauses of ``book`` and of no other book."""
    others = [b for b in BOOKS if b != book]
    return f"({book} " in message and not any(f"{b} " in message for b in others)


@pytest.mark.parametrize(
    ("rulebook", "stakes", "clause"),
    [
        ("rws", "1/2", "rws 3.4"),  # the minimum table stake
        ("au-casino", "1/2", "au 7.4"),  # the minimum buy-in
        ("qld", "1/2", "qld s19(3)(a)"),  # the minimum table stake for a new player
        ("cardroom", "1/2", "cardroom buy-in 1-2"),  # the full buy-in, one short one
    ],
)
def test_rws_3_4_au_7_4_qld_s19_3_a_a_small_buy_in_is_refused_citing_the_book_in_force(
    tmp_path: Path, rulebook: str, stakes: str, clause: str
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            table = await alice.create_table(
                {"game": "holdem", "rulebook": rulebook, "stakes": stakes, "seats": 6}
            )
            with pytest.raises(ClientError) as refused:
                await alice.sit(table, 1, 3)
            assert refused.value.code == "refused"
            assert f"({clause})" in refused.value.message, refused.value.message
            assert cites_only(refused.value.message, clause.split()[0])

    asyncio.run(main())


@pytest.mark.parametrize(
    ("rulebook", "cited"),
    [
        ("au-casino", "(au 1.1 'Action')"),
        ("qld", "(qld s24, qld s25)"),
        ("cardroom", "(cardroom betting 11)"),
    ],
)
def test_au_1_1_qld_s24_cardroom_betting_11_acting_out_of_turn_cites_the_book_in_force(
    tmp_path: Path, rulebook: str, cited: str
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            spec = {"game": "holdem", "rulebook": rulebook, "stakes": "1/2", "seats": 2}
            table = await alice.create_table(spec)
            await alice.sit(table, 1, 400)
            await bob.sit(table, 2, 400)
            mover = await asyncio.wait_for(_first_turn(alice, bob, table), timeout=30)
            waiting = bob if mover is alice else alice
            with pytest.raises(ClientError) as refused:
                await waiting.act(table, "fold")
            assert refused.value.message.endswith(f"each acts in turn {cited}")

    asyncio.run(main())


async def _first_turn(alice: Client, bob: Client, table: int) -> Client:
    while True:
        for client in (alice, bob):
            view = client.views.get(table)
            if view is not None and view.my_turn:
                return client
        await asyncio.sleep(0.02)


@pytest.mark.parametrize(
    ("game", "usual"),
    [("stud7", "fixed"), ("omaha", "pot"), ("holdem", "no-limit"), ("badugi", "fixed")],
)
def test_a_house_table_deals_each_games_usual_structure_and_says_so(
    tmp_path: Path, game: str, usual: str
) -> None:
    """Without a book or a structure, a table is dealt as ``croupier play`` deals the game:
    stud and badugi at fixed limit, Omaha at pot limit, hold'em at no limit (the PHH
    variants' own structures); the lobby and the rules page say which."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            seats = 8 if game == "stud7" else 6
            table = await alice.create_table({"game": game, "rulebook": None, "seats": seats})
            [listed] = await alice.tables()
            assert listed["spec"]["structure"] == usual
            rules = await alice.http("GET", f"/api/tables/{table}/rules")
            assert rules["structure"] == usual

    asyncio.run(main())


def test_qld_s31_2_a_buy_in_below_the_minimum_wager_makes_no_table(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            spec = {"game": "holdem", "rulebook": "qld", "stakes": "5/10"}
            with pytest.raises(ClientError) as refused:
                await alice.create_table({**spec, "buy_in": 3})
            assert refused.value.code == "http 400"
            assert "below the minimum wager 10" in refused.value.message
            assert "(qld s31(2)-(3))" in refused.value.message
            with pytest.raises(ClientError) as refused:
                await alice.create_table({"game": "holdem", "rulebook": "rws", "buy_in": 1})
            assert "(a rule of this card room)" in refused.value.message
            # A 5-chip buy-in at 1/2 no-limit: rws 3.4 leaves the minimum table stake's size to
            # the house, whose least is 20 big blinds.
            with pytest.raises(ClientError) as refused:
                await alice.create_table(
                    {"game": "holdem", "rulebook": "rws", "stakes": "1/2", "buy_in": 5}
                )
            assert refused.value.message == (
                "a buy-in of 5 is below 20 big blinds (40), the least this card room sets at a "
                "big-bet table (rws 3.4 asks a minimum table stake and leaves its size to the "
                "house)"
            )
            await alice.create_table({"game": "holdem", "rulebook": "rws", "buy_in": 40})
            assert len(await alice.tables()) == 1

    asyncio.run(main())


async def _play(
    server: Running, table: int, moves: dict[Client, str], done: Callable[[], bool]
) -> None:
    """Each client makes its move (``fold``, or check or call) on its turns until ``done``."""
    while not done():
        for client, kind in moves.items():
            view = client.views[table]
            if view.my_turn:
                legal = view.legal or {}
                move = kind if kind == "fold" and legal.get("can_fold") else "check_or_call"
                with contextlib.suppress(ClientError):  # a turn the clock already took
                    await client.act(table, move)
        await asyncio.sleep(0.01)


def test_qld_s31_4_a_player_left_below_the_minimum_wager_leaves_with_what_is_left(
    tmp_path: Path,
) -> None:
    """qld s31(2)-(4): a continuing player with less than the minimum wager must top up to the
    minimum table stake or leave before the next round: the seat is let go, and the chips
    left go back to the player's balance (a ledger row; nothing created or lost)."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            # Structured limit (qld s28(8)): a big-bet table may not ask less than 20 big
            # blinds (the card room's least), a limit table as little as the minimum wager.
            table = await alice.create_table(
                {"game": "holdem", "rulebook": "qld", "stakes": "5/10", "seats": 2, "buy_in": 35,
                 "structure": "fixed"}
            )  # fmt: skip
            await alice.sit(table, 1, 35)
            await bob.sit(table, 2, 1000)
            room = server.room.rooms[table]
            await asyncio.wait_for(
                _play(server, table, {alice: "fold", bob: "call"}, lambda: 1 not in room.seats),
                timeout=60,
            )
            rows = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT a.name, a.balance FROM accounts a WHERE a.name IN ('alice', 'bob')"
                ).all()
            )
            balances = dict(rows)
            left = balances["alice"] - (10_000 - 35)  # the chips alice took away
            assert 0 < left < 10  # fewer than the minimum wager: she could not go on
            assert server.room.store.read(check_ledger) == []
            assert room.check_chips() == []

    asyncio.run(main())


async def _cardroom_table(url: str) -> tuple[Client, Client, int]:
    """alice and bob, and a six-seat cardroom limit hold'em table at 5/10 (full buy-in 200)."""
    alice = await player(url, "alice")
    bob = await player(url, "bob")
    table = await alice.create_table(
        {"game": "holdem", "rulebook": "cardroom", "structure": "fixed", "stakes": "5/10",
         "seats": 6}
    )  # fmt: skip
    return alice, bob, table


async def _short_again_refused(
    server: Running, table: int, alice: Client, bob: Client, short: int
) -> None:
    """alice (seat 1, who bought in short) and bob play a hand; she leaves; a second short
    buy-in in this game is refused (cardroom buy-in 2)."""
    room = server.room.rooms[table]
    moves = {alice: "call", bob: "call"}
    await asyncio.wait_for(_play(server, table, moves, lambda: room.hands >= 1), timeout=60)
    await alice.leave(table)
    await asyncio.wait_for(_play(server, table, moves, lambda: 1 not in room.seats), timeout=60)
    with pytest.raises(ClientError) as refused:
        await alice.sit(table, 1, short)
    assert "one short buy-in allowed in this game (cardroom buy-in 2)" in refused.value.message


def test_cardroom_buy_in_2_one_short_buy_in_a_game(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await _cardroom_table(server.url)
            rules = await alice.http("GET", f"/api/tables/{table}/rules")
            full = rules["minimum_buy_in"]  # ten times the maximum bet (cardroom buy-in 1)
            assert full == 200
            with pytest.raises(ClientError) as refused:
                await alice.sit(table, 1, full // 2 - 1)
            assert "a short buy-in of 100 is allowed once" in refused.value.message
            await alice.sit(table, 1, full // 2)  # the one short buy-in
            await bob.sit(table, 2, full)
            await _short_again_refused(server, table, alice, bob, full // 2)
            await alice.sit(table, 1, full)
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_cardroom_buy_in_2_a_short_buy_in_made_just_before_a_restart_still_counts(
    tmp_path: Path,
) -> None:
    """The short buy-in is recorded by the engine's table only at the next deal; a restart
    before it (alice sits alone: nothing is dealt) must not forget it."""
    db = str(tmp_path / "room.db")

    async def main() -> None:
        async with running(db) as server:
            alice, bob, table = await _cardroom_table(server.url)
            await alice.sit(table, 1, 100)  # the one short buy-in (the full one is 200)
            assert server.room.rooms[table].hands == 0
            await alice.close()
            await bob.close()
        async with running(db) as server:
            alice = await Client.login(server.url, "alice", "password-1")
            bob = await Client.login(server.url, "bob", "password-1")
            for client in (alice, bob):
                await client.connect()
            await bob.sit(table, 2, 200)
            await _short_again_refused(server, table, alice, bob, 100)
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_rws_3_4_a_book_without_short_buy_ins_refuses_a_table_that_offers_one(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            for rulebook, clause in (("rws", "rws 3.4"), ("qld", "qld s19(3)(a)")):
                with pytest.raises(ClientError) as refused:
                    await alice.create_table(
                        {"game": "holdem", "rulebook": rulebook, "short_buy_in": 50}
                    )
                assert refused.value.message.endswith(f"allows no short buy-in ({clause})")

    asyncio.run(main())


def test_a_tables_rules_page_shows_what_the_house_chose_where_the_book_lets_it(
    tmp_path: Path,
) -> None:
    """au 7.2: the game, the buy-in, the limits and the commission are posted at the table; the
    rules page shows the table's own choices, not the book's defaults."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            stud = await alice.create_table(
                {"game": "stud7", "rulebook": "au-casino", "structure": "fixed", "stakes": "1/2",
                 "seats": 8}
            )  # fmt: skip
            raked = await alice.create_table(
                {"game": "holdem", "rulebook": "rws", "rake": "4%", "rake_cap": 3}
            )
            shown = {}
            for table in (stud, raked):
                rules = await alice.http("GET", f"/api/tables/{table}/rules")
                rows = rules["rulebook"]["settings"]
                shown[table] = {r["setting"]: r["value"] for r in rows if r.get("chosen")}
            assert shown[stud]["structure"] == "fixed" and shown[stud]["ante"] == "1"
            assert shown[raked]["commission_rate"] == "4%"
            assert shown[raked]["commission_cap"] == "3"

    asyncio.run(main())


def test_a_table_made_before_the_rooms_bounds_still_loads() -> None:
    """The bounds refuse new tables only: a stored table whose buy-in breaks them is still
    dealt (a room that does not load would stop the server)."""
    old = TableSpec(game="holdem", rulebook="qld", stakes="5/10", buy_in=3)
    game = GameTable(old)
    assert game.minimum_buy_in == 3
    with pytest.raises(SpecError, match=r"\(qld s31\(2\)-\(3\)\)"):
        check_new_table(game)
