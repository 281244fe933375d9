"""A table's waiting list: people waiting for a seat at a full table and seated players asking
for a seat change. A seat that comes free goes by the book's priority (au 11.1(a): the players
seated first; qld s16(2): the original players, then the others, then newcomers), by a draw
of cards among equals (qld s16(3)-(4); suits split a tie of ranks, cardroom ties 1). A seated
winner moves; a newcomer has the seat held until they sit or the hold lapses. Each test runs
an in-process server on SQLite, then on PostgreSQL."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest

from croupier.client import Client, ClientError
from croupier.server.rooms.game_table import GameTable, Move
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.store.database import check_ledger
from croupier.server.web.protocol import check_server_message
from server_harness import FAST, fresh_postgres_db, player, running, until

RANKS, SUITS = "23456789TJQKA", "cdhs"  # a draw's order: rank, then suit (cardroom ties 1)
HEADS_UP = {"game": "holdem", "rulebook": "au-casino", "seats": 2}


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "room.db")
    return fresh_postgres_db(request.getfixturevalue("postgres_dsn"))


def _audit(server: Any, kind: str) -> list[str]:
    rows = server.room.store.read(
        lambda c: list(
            c.exec_driver_sql(f"SELECT detail FROM audit WHERE kind = '{kind}' ORDER BY id")
        )
    )
    return [str(r[0]) for r in rows]


async def _full_table(url: str, rulebook: str) -> tuple[list[Client], int]:
    """alice, bob and carol in seats 1-3 of a 3-seat hold'em table, with no hand dealt: each
    sits out before the next sits down."""
    clients = [await player(url, name) for name in ("alice", "bob", "carol")]
    table = await clients[0].create_table({"game": "holdem", "rulebook": rulebook, "seats": 3})
    for seat, client in enumerate(clients, 1):
        await client.sit(table, seat, 300)
        await client.request("sit_out", table=table)
    return clients, table


def _entries(client: Client, table: int) -> list[tuple[str, int | None, int | None]]:
    return [(w["name"], w["seat"], w["offer"]) for w in client.views[table].waiting]


def _seat_names(client: Client, table: int) -> dict[int, str]:
    return {s["seat"]: s["name"] for s in client.views[table].seats}


def test_au_11_1_a_a_seated_player_takes_the_vacated_seat_before_a_newcomer(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            (alice, bob, carol), table = await _full_table(server.url, "au-casino")
            dave = await player(server.url, "dave")
            await dave.wait(table)  # the table is full: dave waits for a seat
            await alice.wait(table)  # seated: alice asks for a seat change
            # The list is shown in the book's order: alice, seated, before dave, who asked first.
            assert _entries(alice, table) == [("alice", 1, None), ("dave", None, None)]
            assert [(w["priority"], w["group"]) for w in alice.views[table].waiting] == [
                (1, "seated players (au 11.1(a))"),
                (2, "people joining (au 11.1(a))"),
            ]
            await until(lambda: _entries(dave, table) == _entries(alice, table))
            (listed,) = [t for t in await dave.tables() if t["table"] == table]
            assert (listed["seats_taken"], listed["waiting"]) == (3, 2)  # the lobby says so

            await carol.leave(table)  # seat 3 comes free between hands
            await until(lambda: _seat_names(bob, table) == {2: "bob", 3: "alice"})
            # alice, seated, came first (au 11.1(a)); her seat 1 went on to dave, held.
            assert _entries(bob, table) == [("dave", None, 1)]
            (change,) = _audit(server, "seat_change")
            assert "alice first among seated players (au 11.1(a))" in change
            assert "moves from seat 1" in change
            (offer,) = _audit(server, "seat_offer")
            assert "seat 1 came free: dave first among people joining" in offer

            erin = await player(server.url, "erin")
            with pytest.raises(ClientError, match="seat 1 is held for dave"):
                await erin.sit(table, 1, 300)
            await dave.sit(table, 1, 300)
            await until(lambda: _entries(bob, table) == [] and 1 in _seat_names(bob, table))
            assert _seat_names(bob, table) == {1: "dave", 2: "bob", 3: "alice"}
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_au_11_1_a_a_seat_change_to_a_named_seat_waits_for_that_seat(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            (alice, bob, carol), table = await _full_table(server.url, "au-casino")
            dave = await player(server.url, "dave")
            for wanted, why in ((1, "their own"), (4, "seats 1..3")):
                with pytest.raises(ClientError, match=why):
                    await alice.wait(table, wanted)
            with pytest.raises(ClientError, match="a newcomer takes the seat the list gives"):
                await dave.wait(table, 2)
            await alice.wait(table, 3)  # seat 3, not any
            await dave.wait(table)
            assert [w["wanted"] for w in alice.views[table].waiting] == [3, None]
            await bob.leave(table)  # seat 2 is not the one alice asked for: dave's
            await until(lambda: _entries(alice, table) == [("alice", 1, None), ("dave", None, 2)])
            await carol.leave(table)  # seat 3 is
            await until(lambda: _seat_names(alice, table) == {3: "alice"})
            assert _entries(alice, table) == [("dave", None, 2)]  # seat 1 stays free
            await alice.wait(table, 1)  # a free seat: she moves there at once
            await until(lambda: _seat_names(alice, table) == {1: "alice"})
            assert [c for c in _audit(server, "seat_change") if "moves from seat 3" in c]

    asyncio.run(main())


def test_au_11_1_a_equals_draw_cards_for_the_seat_and_the_draw_is_audited(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            (_alice, bob, carol), table = await _full_table(server.url, "au-casino")
            dave, erin = await player(server.url, "dave"), await player(server.url, "erin")
            await dave.wait(table)
            await erin.wait(table)
            await carol.leave(table)
            await until(lambda: any(w["offer"] for w in bob.views[table].waiting))
            (offer,) = _audit(server, "seat_offer")
            drawn = re.findall(r"(dave|erin) ([2-9TJQKA][cdhs])", offer)
            assert {name for name, _ in drawn} == {"dave", "erin"}
            best = max(drawn, key=lambda d: (RANKS.index(d[1][0]), SUITS.index(d[1][1])))
            assert f"seat 3 came free: {best[0]} first among people joining" in offer
            assert [w["name"] for w in bob.views[table].waiting if w["offer"] == 3] == [best[0]]

    asyncio.run(main())


def test_a_held_seat_lapses_and_goes_to_the_next_on_the_list(db: str) -> None:
    async def main() -> None:
        async with running(db, dataclasses.replace(FAST, seat_hold=0.5)) as server:
            (_alice, bob, carol), table = await _full_table(server.url, "rws")
            dave, erin = await player(server.url, "dave"), await player(server.url, "erin")
            await dave.wait(table)
            await bob.wait(table)  # seated, asks for a change: comes first (au 11.1(a))
            await erin.wait(table)
            await carol.leave(table)
            await until(lambda: _seat_names(dave, table).get(3) == "bob")
            held = [w for w in dave.views[table].waiting if w["offer"] == 2]
            assert len(held) == 1 and held[0]["name"] in ("dave", "erin")
            first = held[0]["name"]
            second = "erin" if first == "dave" else "dave"
            # Nobody sits: the hold lapses, the holder leaves the list, the next is offered.
            await until(lambda: _entries(dave, table) == [(second, None, 2)], 10)
            (lapsed,) = _audit(server, "offer_lapsed")
            assert f"the hold on seat 2 for {first} lapsed" in lapsed
            assert "rws is silent: au 11.1(a)" in lapsed  # the book in force is cited
            late = dave if first == "dave" else erin
            with pytest.raises(ClientError, match="held for"):
                await late.sit(table, 2, 300)

    asyncio.run(main())


def test_a_held_seat_is_told_to_its_player_wherever_they_are_at_the_next_welcome_and_by_me(
    db: str,
) -> None:
    async def main() -> None:
        async with running(db) as server:
            (_alice, bob, carol), table = await _full_table(server.url, "au-casino")
            dave = await player(server.url, "dave")
            await dave.wait(table)
            await dave.request("unwatch", table=table)  # off to the lobby, say
            await carol.leave(table)
            await until(lambda: dave.views[table].offer is not None)
            offer = dave.views[table].offer
            assert offer is not None and offer["seat"] == 3
            assert _entries(bob, table) == [("dave", None, 3)]
            (held,) = [w for w in bob.views[table].waiting if w["name"] == "dave"]
            assert held["offer_until"] == offer["until"]
            # A new connection is told in its welcome, and hears the table again.
            again = await Client.login(server.url, "dave", "password-1")
            again.listeners.append(check_server_message)
            welcome = await again.connect()
            assert welcome["waits"] == [{"table": table, "offer": 3, "offer_until": offer["until"]}]
            me = await again.http("GET", "/api/me")  # what the page's lobby reads again
            assert (me["waits"], me["seats"]) == (welcome["waits"], welcome["seats"]) != ([], [])
            await until(lambda: _entries(again, table) == [("dave", None, 3)])
            await again.sit(table, 3, 300)
            assert again.views[table].offer is None

    asyncio.run(main())


def test_the_list_and_a_held_seat_survive_a_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "room.db")

    async def main() -> None:
        async with running(db) as server:
            (_alice, _bob, carol), table = await _full_table(server.url, "au-casino")
            dave, erin = await player(server.url, "dave"), await player(server.url, "erin")
            await dave.wait(table)
            await carol.leave(table)
            await until(lambda: _entries(dave, table) == [("dave", None, 3)])
            await erin.wait(table)
            for client in (dave, erin):
                await client.close()
        async with running(db) as server:
            dave = await Client.login(server.url, "dave", "password-1")
            await dave.connect()
            await dave.watch(table)
            await until(lambda: _entries(dave, table) == [("dave", None, 3), ("erin", None, None)])
            await dave.sit(table, 3, 300)
            await until(lambda: _entries(dave, table) == [("erin", None, None)])
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_hold_kept_through_a_restart_still_lapses_on_time(tmp_path: Path) -> None:
    db, options = str(tmp_path / "room.db"), dataclasses.replace(FAST, seat_hold=4.0)

    async def main() -> None:
        async with running(db, options) as server:
            (_alice, _bob, carol), table = await _full_table(server.url, "au-casino")
            dave = await player(server.url, "dave")
            await dave.wait(table)
            await carol.leave(table)
            await until(lambda: _entries(dave, table) == [("dave", None, 3)])
            await dave.close()
        async with running(db, options) as server:
            bob = await Client.login(server.url, "bob", "password-1")
            await bob.connect()  # seated: hears the table, the hold still on
            await until(lambda: _entries(bob, table) == [("dave", None, 3)])
            await until(lambda: _entries(bob, table) == [], 10)  # nobody acts: it lapses
            (lapsed,) = _audit(server, "offer_lapsed")
            assert "the hold on seat 3 for dave lapsed (au 11.1(a))" in lapsed

    asyncio.run(main())


def test_a_bot_gives_its_seat_up_to_a_person_waiting(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            alice = await player(server.url, "alice")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 3})
            await alice.sit(table, 1, 300)
            await alice.request("sit_out", table=table)
            await alice.add_bot(table, 2)
            await alice.add_bot(table, 3)  # the bots play each other
            dave, erin = await player(server.url, "dave"), await player(server.url, "erin")
            await dave.wait(table)
            # Between two of the bots' hands, the first bot leaves with its chips for dave.
            await until(lambda: _entries(alice, table) == [("dave", None, 2)])
            assert sorted(_seat_names(alice, table)) == [1, 3]
            (left,) = _audit(server, "bot_leaves")
            assert "gives seat 2 up to a person" in left
            await erin.wait(table)  # the last bot makes way for erin too
            await until(lambda: _entries(alice, table) == [("dave", None, 2), ("erin", None, 3)])
            await dave.sit(table, 2, 300)
            await erin.sit(table, 3, 300)
            assert _seat_names(alice, table) == {1: "alice", 2: "dave", 3: "erin"}
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_the_owner_removes_a_bot_at_once_between_hands_or_when_its_hand_ends(db: str) -> None:
    async def main() -> None:
        slow_bots = dataclasses.replace(FAST, pause=0.5, bot_delay=0.5)  # a hand lasts a while
        async with running(db, slow_bots) as server:
            alice, bob = await player(server.url, "alice"), await player(server.url, "bob")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 4})
            await alice.add_bot(table, 2)
            await alice.add_bot(table, 3)  # two bots: they play each other
            await alice.watch(table)
            with pytest.raises(ClientError) as refused:
                await bob.remove_bot(table, 2)
            assert refused.value.code == "unauthorised"
            with pytest.raises(ClientError, match="no bot sits in seat 4"):
                await alice.remove_bot(table, 4)
            # In a hand, the bot plays it out and leaves when it ends, with its chips.
            await until(lambda: alice.views[table].to_act is not None)
            await alice.remove_bot(table, 3)
            (seat_3,) = [s for s in alice.views[table].seats if s["seat"] == 3]
            assert seat_3["leaving"] and alice.views[table].to_act is not None
            await until(lambda: sorted(_seat_names(alice, table)) == [2], 30)
            # Between hands (one bot alone is dealt nothing), it leaves at once.
            await alice.remove_bot(table, 2)
            await until(lambda: _seat_names(alice, table) == {})
            assert len(_audit(server, "remove_bot")) == 2
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_the_lists_refusals_say_what_to_do(db: str) -> None:
    async def main() -> None:
        async with running(db) as server:
            alice, bob = await player(server.url, "alice"), await player(server.url, "bob")
            table = await alice.create_table(HEADS_UP)
            await alice.sit(table, 1, 300)
            await alice.request("sit_out", table=table)
            with pytest.raises(ClientError, match="seat 2 is free: sit down"):
                await bob.wait(table)
            with pytest.raises(ClientError, match="not on this table's waiting list"):
                await bob.unwait(table)
            await alice.wait(table)  # a seat change, to the free seat 2: moved at once
            await until(lambda: _seat_names(alice, table) == {2: "alice"})
            assert _entries(alice, table) == []
            await bob.sit(table, 1, 300)
            await bob.request("sit_out", table=table)
            carol, dave = await player(server.url, "carol"), await player(server.url, "dave")
            await carol.wait(table)
            with pytest.raises(ClientError, match="waiting list already"):
                await carol.wait(table)
            await alice.wait(table)
            await alice.leave(table)  # a seat change asked goes with the seat
            await until(lambda: [w["name"] for w in bob.views[table].waiting] == ["carol"])
            await until(lambda: _entries(bob, table) == [("carol", None, 2)])
            # The seat is carol's to take: dave may not sit there, nor join ahead of her.
            with pytest.raises(ClientError, match="held for carol"):
                await dave.sit(table, 2, 300)
            await carol.unwait(table)  # she gives it up: nobody waits, the seat is free
            await until(lambda: _entries(bob, table) == [])
            await dave.sit(table, 2, 300)
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_newcomer_may_not_sit_ahead_of_those_waiting(db: str) -> None:
    async def main() -> None:
        async with running(db, dataclasses.replace(FAST, pause=60.0)) as server:
            alice, bob = await player(server.url, "alice"), await player(server.url, "bob")
            carol, dave = await player(server.url, "carol"), await player(server.url, "dave")
            table = await alice.create_table(HEADS_UP)
            await alice.sit(table, 1, 300)
            await bob.sit(table, 2, 300)  # a hand is dealt: the table is in play
            await until(lambda: alice.views[table].hand is not None)
            await carol.wait(table)
            await bob.leave(table)  # in the hand: leaves when it ends
            view = alice.views[table]
            await until(lambda: view.to_act is not None)
            mover = alice if view.you == view.to_act else bob
            await mover.act(table, "fold")
            # The hand is over and bob gone; the next deal (a minute away) fills the seat, and
            # until then dave may not take it ahead of carol.
            await until(lambda: 2 not in _seat_names(alice, table))
            with pytest.raises(ClientError, match="1 waiting for a seat here"):
                await dave.sit(table, 2, 300)

    asyncio.run(main())


def _game(rulebook: str) -> GameTable:
    return GameTable(TableSpec(game="holdem", rulebook=rulebook, stakes="1/2", seats=6))


def _play_a_hand(game: GameTable) -> None:
    game.start_hand()
    while game.in_hand:
        seat = game.to_act()
        assert seat is not None
        game.act(seat, Move("fold"))
    game.finish()


def test_qld_s16_2_original_players_then_other_players_then_newcomers() -> None:
    game = _game("qld")
    game.seat(1, "alice", 400, buy_in=True)
    game.seat(2, "bob", 400, buy_in=True)
    _play_a_hand(game)  # alice and bob are in the game since it started
    game.seat(3, "carol", 400, buy_in=True)
    seated = {"alice", "bob", "carol"}
    winner, group, drawn = game.vacated_seat_winner(["erin", "carol", "alice"], seated)
    assert (winner, group, drawn) == ("alice", "original players (qld s16(2)(a))", [])
    winner, group, drawn = game.vacated_seat_winner(["erin", "carol"], seated)
    assert (winner, group, drawn) == ("carol", "other players (qld s16(2)(b))", [])
    winner, group, drawn = game.vacated_seat_winner(["erin"], seated)
    assert (winner, group) == ("erin", "people joining (qld s16(2)(c))")
    assert game.seat_rule == "qld s16(2)-(4)"


def test_qld_s16_2_the_waiting_list_is_shown_in_the_books_order() -> None:
    game = _game("qld")
    game.seat(1, "alice", 400, buy_in=True)
    game.seat(2, "bob", 400, buy_in=True)
    _play_a_hand(game)
    game.seat(3, "carol", 400, buy_in=True)
    asked = ["erin", "carol", "bob", "frank", "alice"]  # the order they asked in
    order = game.waiting_order(asked, {"alice", "bob", "carol"})
    original, other, joining = (
        "original players (qld s16(2)(a))",
        "other players (qld s16(2)(b))",
        "people joining (qld s16(2)(c))",
    )
    assert order == [
        ("bob", 1, original),  # within a group, the order asked (a draw decides among them)
        ("alice", 1, original),
        ("carol", 2, other),
        ("erin", 3, joining),
        ("frank", 3, joining),
    ]
    assert game.waiting_order([], set()) == []


def test_qld_s16_3_4_equals_draw_and_the_highest_card_wins() -> None:
    game = _game("qld")
    game.seat(1, "alice", 400, buy_in=True)
    game.seat(2, "bob", 400, buy_in=True)
    _play_a_hand(game)
    for _ in range(20):
        winner, _group, drawn = game.vacated_seat_winner(["alice", "bob"], {"alice", "bob"})
        assert len(drawn) == 2 and {name for name, _ in drawn} == {"alice", "bob"}
        best = max(drawn, key=lambda d: (RANKS.index(d[1][0]), SUITS.index(d[1][1])))
        assert winner == best[0]


def test_au_11_1_a_seated_players_before_newcomers_and_every_other_book_follows_it() -> None:
    for rulebook in ("au-casino", "rws", "cardroom"):
        game = _game(rulebook)
        game.seat(1, "carol", 400, buy_in=True)
        winner, group, _ = game.vacated_seat_winner(["erin", "carol"], {"carol"})
        assert (winner, group) == ("carol", "seated players (au 11.1(a))")
    assert _game("au-casino").seat_rule == "au 11.1(a)"
    assert _game("rws").seat_rule.startswith("rws is silent: au 11.1(a)")
