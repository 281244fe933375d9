"""The card room at play: accounts, seats, hands between clients and a bot, what each seat is
sent, the clock, retries, rulings and the ledger (an in-process server on SQLite)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from croupier.cards import Card
from croupier.client import Client, ClientError
from croupier.server.rooms.table_spec import SPEC_FIELDS, TableSpec
from croupier.server.store.database import check_ledger
from server_harness import FAST, heads_up, player, running, simple_move, until

CARD = re.compile(r"\b(?:[2-9TJQKA][cdhs])\b")


async def play_hands(
    clients: list[Client],
    table: int,
    hands: int,
    timeout: float = 60,
    move: Callable[[dict[str, Any]], tuple[str, dict[str, Any]]] = simple_move,
) -> None:
    """Each client checks or calls (or makes ``move``) on its turns until ``hands`` more hands
    have ended."""
    first = clients[0].views[table]
    target = len(first.results) + hands
    done = asyncio.Event()

    async def seat(client: Client) -> None:
        view = client.views[table]
        while not done.is_set():
            if len(first.results) >= target:
                done.set()
                return
            try:
                await client.my_turn(table, timeout=0.2)
            except TimeoutError:
                continue
            kind, fields = move(view.legal or {})
            try:
                await client.act(table, kind, **fields)
            except ClientError as error:
                if error.code != "stale":
                    raise

    await asyncio.wait_for(asyncio.gather(*(seat(c) for c in clients)), timeout)


def hole_cards(view_events: list[dict[str, Any]], player: int) -> set[str]:
    found: set[str] = set()
    for event in view_events:
        if event["event"] == "DealHole" and event["player"] == player:
            found.update(c for c in event["cards"] if c != "??")
    return found


def test_two_players_and_a_bot_play_hands_and_the_ledger_balances(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 3})
            await alice.add_bot(table, 2)
            await alice.sit(table, 1, 200)
            await bob.sit(table, 3, 300)
            await play_hands([alice, bob], table, 3)
            room = server.room.rooms[table]
            assert room.number >= 3
            problems = server.room.store.read(check_ledger)
            assert problems == []
            assert room.check_chips() == []
            me = await alice.http("GET", "/api/me")
            assert me["balance"] == 10_000 - 200  # the welcome cash-in, less the buy-in
            ledger = await alice.http("GET", "/api/ledger")
            kinds = [row["kind"] for row in ledger["rows"]]
            assert kinds[:2] == ["cash_in", "buy_in"] and "result" in kinds

    asyncio.run(main())


def _draw_two(legal: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """Discard two cards at each draw (cards dealt in the middle of the hand); else check or
    call."""
    if legal.get("draw"):
        return "draw", {"cards": legal["hole"][:2]}
    return simple_move(legal)


@pytest.mark.parametrize(
    ("rulebook", "game"),
    [("rws", "holdem"), ("cardroom", "stud7"), ("cardroom", "draw")],
    ids=["holdem-hole-cards", "stud-down-cards-each-street", "draw-cards-drawn"],
)
def test_each_seat_sees_only_its_own_hole_cards_and_spectators_none(
    tmp_path: Path, rulebook: str, game: str
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            carol = await player(server.url, "carol")  # watches
            seen: dict[str, dict[int, list[str]]] = {"alice": {}, "bob": {}, "carol": {}}
            for client in (alice, bob, carol):
                client.listeners.append(lambda m, n=client.name: _by_hand(seen[n], m))
            spec = {"game": game, "rulebook": rulebook, "seats": 3}
            table = await alice.create_table(spec)
            await carol.watch(table)
            await alice.sit(table, 1, 200)
            await bob.sit(table, 2, 200)
            await play_hands([alice, bob], table, 3, move=_draw_two)
            # Every card dealt face down, to whom, from the house's record of each hand.
            hands = server.room.store.read(
                lambda c: list(c.exec_driver_sql("SELECT number, seats, events FROM hands"))
            )
            checked = 0
            for number, seats_json, events_json in hands:
                order = [row[0] for row in json.loads(seats_json)]
                dealt = {seat: set() for seat in order}
                moves = server.room.store.read(
                    lambda c, n=number: [
                        row[0]
                        for row in c.exec_driver_sql(
                            "SELECT m.events FROM moves m JOIN hands h ON h.id = m.hand_id "
                            "WHERE h.number = ? ORDER BY m.seq",
                            (n,),
                        )
                    ]
                )
                events = json.loads(events_json) + [e for m in moves for e in json.loads(m)]
                for event in events:
                    if event["event"] == "DealHole":
                        dealt[order[event["player"]]].update(event["cards"])
                    elif event["event"] == "Draw":
                        dealt[order[event["player"]]].update(event["drawn"])
                for name, me in (("alice", 1), ("bob", 2), ("carol", None)):
                    messages = " ".join(seen[name].get(number, []))
                    got = set(CARD.findall(messages))
                    shown = _shown(messages)
                    for seat, cards in dealt.items():
                        if seat == me:
                            assert cards <= got, f"{name} was not sent its own cards"
                        else:
                            assert not (cards - shown) & got, f"{name} saw seat {seat}'s cards"
                        checked += 1
            assert checked >= 3 * 3 * 2

    asyncio.run(main())


def _by_hand(store: dict[int, list[str]], message: dict[str, Any]) -> None:
    hand = message.get("hand")
    if isinstance(hand, dict):
        hand = hand["number"]
    if isinstance(hand, int):
        store.setdefault(hand, []).append(json.dumps(message))


def _shown(text: str) -> set[str]:
    """Cards turned up at a showdown ('Show' events), which everyone may see."""
    shown: set[str] = set()
    for match in re.finditer(r'"event": "Show", "player": \d+, "cards": \[([^\]]*)\]', text):
        shown.update(CARD.findall(match.group(1)))
    return shown


def test_a_retried_action_id_is_applied_once(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            view = alice.views[table]
            who = alice if (await _turn(alice, bob, table)) is alice else bob
            view = who.views[table]
            kind, fields = simple_move(view.legal or {})
            first = await who.act(table, kind, id="retry-1", **fields)
            again = await who.act(table, kind, id="retry-1", **fields)
            assert first["duplicate"] is False and again["duplicate"] is True
            moves = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM moves WHERE request_id = 'retry-1'"
                ).scalar()
            )
            assert moves == 1
            # The same id asking for something else is no resend: refused, the first stands.
            with pytest.raises(ClientError) as reused:
                await who.request("act", id="retry-1", table=table, hand=view.hand, action="fold")
            assert reused.value.code == "id_reused"
            # and after a reconnection, the server still knows the id
            await who.close()
            await who.connect()
            assert (await who.act(table, kind, id="retry-1", **fields))["duplicate"] is True

    asyncio.run(main())


def test_an_action_is_answered_by_the_events_it_caused_not_by_ok(tmp_path: Path) -> None:
    """The acting connection, watching the table, hears its action once: the `events` whose
    cause is its id. A connection of the same account that does not watch gets `ok`."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            heard: list[dict[str, Any]] = []
            for client in (alice, bob):
                client.listeners.append(heard.append)
            who = await _turn(alice, bob, table)
            kind, fields = simple_move(who.views[table].legal or {})
            reply = await who.act(table, kind, id="answered-1", **fields)
            assert reply == {"type": "ok", "id": "answered-1", "duplicate": False}
            await until(lambda: len([m for m in heard if m.get("cause") == "answered-1"]) == 2)
            await asyncio.sleep(0.2)  # an `ok` sent after the events would have arrived
            caused = [m for m in heard if m.get("cause") == "answered-1"]
            assert len(caused) == 2  # the events, to both players
            assert not [m for m in heard if m.get("type") == "ok" and m["id"] == "answered-1"]
            # From a second connection of the same account, one that does not watch: `ok`.
            other = await Client.login(server.url, who.name, "password-1")
            await other.connect()  # watches the tables it sits at, until it says otherwise
            await other.request("unwatch", table=table)
            while not who.views[table].my_turn:
                await asyncio.sleep(0.02)
            kind, fields = simple_move(who.views[table].legal or {})
            answered = await other.request(
                "act", id="answered-2", table=table, hand=who.views[table].hand, action=kind,
                **fields,
            )  # fmt: skip
            assert answered["type"] == "ok" and answered["duplicate"] is False
            await other.close()

    asyncio.run(main())


def test_another_players_events_with_the_same_action_id_do_not_answer_this_clients_action(
    tmp_path: Path,
) -> None:
    """Action ids are each account's own, so two players may use the same one. The other
    player's act, for a hand not in play, waits for the table while the mover's act with the
    same id is stored and broadcast; the events it hears meanwhile name that id as their cause
    but begin with the mover's move, so they do not answer its act: the refusal does."""

    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            mover = await _turn(alice, bob, table)
            other = bob if mover is alice else alice
            kind, fields = simple_move(mover.views[table].legal or {})
            hand = mover.views[table].hand
            acted = asyncio.create_task(mover.act(table, kind, id="same-id", **fields))
            await asyncio.sleep(0)  # the mover's act leaves first
            with pytest.raises(ClientError) as refused:
                await other.request(
                    "act", id="same-id", table=table, hand=(hand or 0) + 5, action="fold"
                )
            assert refused.value.code == "stale"
            assert await acted == {"type": "ok", "id": "same-id", "duplicate": False}

    asyncio.run(main())


async def _turn(a: Client, b: Client, table: int) -> Client:
    for _ in range(200):
        for client in (a, b):
            if client.views[table].my_turn:
                return client
        await asyncio.sleep(0.02)
    raise AssertionError("nobody's turn")


def test_rws_3_8_1_b_acting_out_of_turn_is_refused_and_changes_nothing(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            mover = await _turn(alice, bob, table)
            waiting = bob if mover is alice else alice
            before = server.room.rooms[table].game.event_count()
            with pytest.raises(ClientError) as refused:
                await waiting.act(table, "fold")
            assert refused.value.code == "refused"
            # The rws table's own clauses (3.8.1(b), 3.9.1(d): betting goes round in turn).
            assert refused.value.message.endswith("each acts in turn (rws 3.8.1(b), rws 3.9.1(d))")
            assert server.room.rooms[table].game.event_count() == before
            # the engine's own refusal, with its clause, passed on as is
            with pytest.raises(ClientError) as illegal:
                await mover.act(table, "bet_or_raise", amount=1)
            assert illegal.value.code == "refused" and "minimum" in illegal.value.message
            # an action for a hand no longer in play
            with pytest.raises(ClientError) as stale:
                await mover.request("act", table=table, hand=99, action="fold")
            assert stale.value.code == "stale"

    asyncio.run(main())


def test_rws_3_4_no_top_up_during_a_hand_and_leaving_waits_for_its_end(tmp_path: Path) -> None:
    async def main() -> None:
        options = dataclasses.replace(FAST, pause=0.3)
        async with running(str(tmp_path / "room.db"), options) as server:
            alice, bob, table = await heads_up(server.url)
            await _turn(alice, bob, table)
            with pytest.raises(ClientError) as refused:
                await alice.top_up(table, 50)
            assert "(rws 3.4)" in refused.value.message  # the book in force: rws (heads_up)
            room = server.room.rooms[table]
            await alice.leave(table)  # dealt in: her chips stay until the hand ends
            # Her turn is played at once (folds, or checks when free: issue 44), bob's as he
            # plays; she is cashed out when the hand ends.
            for _ in range(500):
                if 1 not in room.seats:
                    break
                assert room.seats[1].leaving
                if bob.views[table].my_turn:
                    kind, fields = simple_move(bob.views[table].legal or {})
                    with contextlib.suppress(ClientError):
                        await bob.act(table, kind, **fields)
                await asyncio.sleep(0.02)
            assert 1 not in room.seats
            assert server.room.store.read(check_ledger) == []
            me = await alice.http("GET", "/api/me")
            results = [r for r in (await alice.http("GET", "/api/ledger"))["rows"]]
            assert results[-1]["kind"] == "cash_out"
            assert me["balance"] == 10_000 - 200 + results[-1]["amount"]

    asyncio.run(main())


def test_the_clock_checks_or_folds_and_a_disconnected_player_sits_out(tmp_path: Path) -> None:
    async def main() -> None:
        options = dataclasses.replace(FAST, clock=0.2, bank=0.2, sit_out_after=2)
        async with running(str(tmp_path / "room.db"), options) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 3})
            await alice.add_bot(table, 2)
            await alice.sit(table, 1, 200)
            await bob.sit(table, 3, 200)
            await bob.close()  # bob goes away; alice and the bot play on
            room = server.room.rooms[table]
            for _ in range(400):
                if room.seats[3].status == "sitting_out":
                    break
                if alice.views[table].my_turn:
                    kind, fields = simple_move(alice.views[table].legal or {})
                    with contextlib.suppress(ClientError):
                        await alice.act(table, kind, **fields)
                await asyncio.sleep(0.02)
            assert room.seats[3].status == "sitting_out"
            rulings = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM audit WHERE kind = 'timeout'"
                ).scalar()
            )
            assert rulings >= 2
            # bob comes back: the same seat, dealt in again
            await bob.connect()
            await until(lambda: room.seats[3].status == "playing" and room.seats[3].away == 0)
            assert bob.views[table].you == 3
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_the_clock_runs_out_at_each_turns_own_deadline_not_before_and_not_much_after(
    tmp_path: Path,
) -> None:
    """alice acts after half her clock, bob never: each of bob's turns is acted on by the
    clock once its own deadline (stored with the move before it, or the hand) has passed,
    though alice's turn before his had an earlier one (one timer a table serves every turn:
    it fires at alice's deadline, and must wait on for bob's)."""

    async def main() -> None:
        options = dataclasses.replace(FAST, clock=0.3, bank=0.1)
        async with running(str(tmp_path / "room.db"), options) as server:
            alice, _bob, table = await heads_up(server.url)  # bob never acts
            store = server.room.store

            def clock_moves() -> list[tuple[float, float]]:
                """(when the clock acted, the deadline it acted on) for each clock move."""
                rows = store.read(
                    lambda c: list(
                        c.exec_driver_sql(
                            "SELECT m.seq, m.request_id, m.at, m.bank_end, h.bank_end "
                            "FROM moves m JOIN hands h ON h.id = m.hand_id "
                            "ORDER BY m.hand_id, m.seq"
                        )
                    )
                )
                found, before = [], None
                for seq, request, at, bank_end, hand_bank_end in rows:
                    deadline = hand_bank_end if seq == 0 else before
                    if request is None and deadline is not None:  # (a hand dealt before its
                        found.append((at, deadline))  # first turn is known holds none)
                    before = bank_end
                return found

            for _ in range(300):
                if len(clock_moves()) >= 4:
                    break
                view = alice.views[table]
                if view.my_turn:
                    await asyncio.sleep(0.15)  # her deadline: 0.4 s; bob's then: 0.45 s on
                    kind, fields = simple_move(view.legal or {})
                    with contextlib.suppress(ClientError):
                        await alice.act(table, kind, **fields)
                await asyncio.sleep(0.02)
            moves = clock_moves()
            assert len(moves) >= 4, "bob's clock did not run out"
            for at, deadline in moves:  # never early; late only by a loaded machine's lag
                assert deadline <= at < deadline + 2.0

    asyncio.run(main())


@pytest.mark.parametrize(("cap", "taken"), [(None, 20), (7, 7)])
def test_rws_4_1_commission_goes_to_the_house_ledger_within_the_houses_cap(
    tmp_path: Path, cap: int | None, taken: int
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            table = await alice.create_table(
                {"game": "holdem", "rulebook": "rws", "seats": 2, "rake": "5%", "rake_cap": cap}
            )
            await alice.sit(table, 1, 200)
            await bob.sit(table, 2, 200)
            # All in and called: a pot of 400, of which the house takes 5% (rws 4.1).
            for _ in range(60):
                mover = await _turn(alice, bob, table)
                legal = mover.views[table].legal or {}
                if legal.get("raise_range"):
                    await mover.act(table, "bet_or_raise", amount=legal["raise_range"][1])
                else:
                    await mover.act(table, "check_or_call")
                taken = server.room.store.read(
                    lambda c: c.exec_driver_sql(
                        "SELECT coalesce(sum(amount), 0) FROM ledger WHERE kind = 'commission'"
                    ).scalar()
                )
                if taken:
                    break
            commission = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT coalesce(sum(commission), 0) FROM hands"
                ).scalar()
            )
            house = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT balance FROM accounts WHERE name = 'house'"
                ).scalar()
            )
            assert house == commission == taken  # 5% of the pot of 400, at most the cap
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_a_hand_history_shows_the_seat_its_own_cards_and_no_one_elses(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice, bob, table = await heads_up(server.url)
            # alice folds whenever she can: bob's cards are never shown
            for _ in range(40):
                mover = await _turn(alice, bob, table)
                legal = mover.views[table].legal or {}
                kind = "fold" if mover is alice and legal.get("can_fold") else "check_or_call"
                await mover.act(table, kind)
                if alice.views[table].results:
                    break
            hands = (await alice.http("GET", "/api/hands"))["hands"]
            text = await alice.history(hands[0]["hand"])
            seats = server.room.store.read(
                lambda c: json.loads(
                    c.exec_driver_sql(
                        f"SELECT seats FROM hands WHERE id = {hands[0]['hand']}"
                    ).scalar()
                )
            )
            events = server.room.store.read(
                lambda c: json.loads(
                    c.exec_driver_sql(
                        f"SELECT events FROM hands WHERE id = {hands[0]['hand']}"
                    ).scalar()
                )
            )
            order = [row[0] for row in seats]
            mine = {
                c
                for e in events
                if e["event"] == "DealHole" and order[e["player"]] == 1
                for c in e["cards"]
            }
            theirs = {
                c
                for e in events
                if e["event"] == "DealHole" and order[e["player"]] == 2
                for c in e["cards"]
            }
            actions = text[text.index("actions") :]
            written = set(re.findall(r"[2-9TJQKA][cdhs]", actions))
            assert mine <= written
            assert not theirs & written
            assert "????" in text
            for card in mine:
                Card.parse(card)
            # The same hand as PokerStars text: alice's own cards, never bob's.
            stars = await alice.history(hands[0]["hand"], "pokerstars")
            dealt = re.search(r"Dealt to alice \[(\w\w) (\w\w)\]", stars)
            assert dealt is not None and set(dealt.groups()) == mine
            assert not theirs & set(re.findall(r"[2-9TJQKA][cdhs]", stars))
            assert "Dealt to bob" not in stars and "Seat 2: bob" in stars
            bobs = await bob.history(hands[0]["hand"], "pokerstars")
            dealt = re.search(r"Dealt to bob \[(\w\w) (\w\w)\]", bobs)
            assert dealt is not None and set(dealt.groups()) == theirs
            assert not mine & set(re.findall(r"[2-9TJQKA][cdhs]", bobs))

    asyncio.run(main())


def test_rws_5_1_a_voided_hand_returns_every_contribution(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            bob = await player(server.url, "bob")
            dealer = await player(server.url, "dealer")
            server.room.store.write_now(
                lambda c: c.exec_driver_sql(
                    "UPDATE accounts SET role = 'dealer' WHERE name = 'dealer'"
                )
            )
            await dealer.close()
            dealer = await Client.login(server.url, "dealer", "password-1")
            await dealer.connect()
            carol = await player(server.url, "carol")
            table = await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 3})
            await alice.sit(table, 1, 200)
            await bob.sit(table, 2, 200)
            await carol.sit(table, 3, 200)  # waits for the next hand
            await play_hands([alice, bob, carol], table, 1)
            room = server.room.rooms[table]
            for _ in range(200):  # the next hand, dealt to all three
                if room.game.in_hand and len(room.game.order) == 3:
                    break
                await asyncio.sleep(0.02)
            before = {seat: state.chips for seat, state in room.seats.items()}
            for _ in range(200):  # one raise, by whoever of the three is to act
                acting = next((c for c in (alice, bob, carol) if c.views[table].my_turn), None)
                if acting is not None:
                    legal = acting.views[table].legal or {}
                    await acting.act(table, "bet_or_raise", amount=legal["raise_range"][0])
                    break
                await asyncio.sleep(0.02)
            await carol.leave(table)  # dealt in: she leaves when the hand ends
            with pytest.raises(ClientError) as refused:
                await alice.request("void_hand", table=table, reason="no")
            assert refused.value.code == "unauthorised"
            await dealer.request("void_hand", table=table, reason="two cards exposed")
            await until(lambda: bool(alice.views[table].results[-1].get("void")))
            assert room.seats[1].chips == before[1] and room.seats[2].chips == before[2]
            assert 3 not in room.seats  # carol left with what she had when the hand was dealt
            assert (await carol.http("GET", "/api/me"))["balance"] == 10_000 - 200 + before[3]
            void = alice.views[table].results[-1]
            assert void["void"] and "rws 5.1" in void["reason"]
            rows = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT count(*) FROM ledger WHERE kind = 'refund'"
                ).scalar()
            )
            assert rows == 3
            assert server.room.store.read(check_ledger) == []

    asyncio.run(main())


def test_registration_keeps_an_argon2_hash_and_token_digests_only(tmp_path: Path) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice", "correct horse battery")
            stored = server.room.store.read(
                lambda c: c.exec_driver_sql(
                    "SELECT password_hash FROM accounts WHERE name = 'alice'"
                ).scalar()
            )
            assert stored.startswith("$argon2id$") and "correct horse" not in stored
            tokens = server.room.store.read(
                lambda c: [r[0] for r in c.exec_driver_sql("SELECT token_hash FROM tokens")]
            )
            assert alice.token not in tokens and len(tokens[0]) == 64
            with pytest.raises(ClientError) as wrong:
                await Client.login(server.url, "alice", "wrong password")
            assert wrong.value.code == "http 401"
            with pytest.raises(ClientError) as taken:
                await Client.register(server.url, "alice", "another password")
            assert taken.value.code == "http 409"

    asyncio.run(main())


def test_the_lobby_lists_tables_with_filters_and_refuses_what_the_book_does_not_allow(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        async with running(str(tmp_path / "room.db")) as server:
            alice = await player(server.url, "alice")
            await alice.create_table({"game": "holdem", "rulebook": "rws", "seats": 6})
            await alice.create_table(
                {"game": "omaha", "rulebook": "au-casino", "structure": "pot", "seats": 6}
            )
            assert [t["spec"]["game"] for t in await alice.tables(game="omaha")] == ["omaha"]
            assert len(await alice.tables()) == 2
            with pytest.raises(ClientError) as refused:
                await alice.create_table({"game": "omaha", "rulebook": "rws"})
            assert refused.value.code == "http 400"
            with pytest.raises(ClientError):
                await alice.create_table({"game": "holdem", "rulebook": "/etc/passwd"})
            # A field of the wrong type is refused by name, with what it must be.
            for field, value, words in [
                ("seats", "6", "seats must be a whole number, got '6'"),
                ("seats", 6.5, "seats must be a whole number, got 6.5"),
                ("seats", True, "seats must be a whole number, got True"),
                ("stakes", 5, "stakes must be text such as 1/2, got 5"),
                ("rulebook", 3, "rulebook must be text or null, got 3"),
                ("buy_in", "x", "buy_in must be a whole number of chips or null, got 'x'"),
            ]:
                with pytest.raises(ClientError) as refused:
                    await alice.create_table({"game": "holdem", field: value})
                assert refused.value.code == "http 400" and words in str(refused.value)
            assert len(await alice.tables()) == 2

    asyncio.run(main())


def test_a_table_spec_read_from_json_checks_every_field_it_has() -> None:
    """``TableSpec.from_json`` checks each field by a list of its own: the list must name
    every field, or a new one would be dropped unread."""
    assert set(SPEC_FIELDS) == {f.name for f in dataclasses.fields(TableSpec)}
    spec = TableSpec(game="omaha", rulebook=None, structure="pot", stakes="2/5", seats=9,
                     buy_in=500, rake="5%")  # fmt: skip
    assert TableSpec.from_json(spec.to_json()) == spec
