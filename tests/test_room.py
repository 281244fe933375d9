"""A room without sockets (issue 38 item 7): a :class:`Room` over a real SQLite store, in a fake
host (a small class that satisfies ``rooms.ports.Host``), heard by fake listeners that record
what they are sent. Seats, bots, the waiting list, a person's clock, voids and closing are
driven directly; each test checks what is stored (the ledger balances, the seats' rows, the
hands' rows) and what the listeners heard. Every listener checks, as each message arrives,
that the seats it is told of are those stored: nothing is heard before it is stored."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from croupier.server.records import Refused, SeatState
from croupier.server.rooms import seating, waiting
from croupier.server.rooms.game_table import GameTable
from croupier.server.rooms.ports import Host, Listener
from croupier.server.rooms.room import Room
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.store import accounts
from croupier.server.store import hall as hall_rows
from croupier.server.store import rooms as rows
from croupier.server.store import schema as s
from croupier.server.store.database import Store, check_ledger
from croupier.server.store.table_log import loads_events
from croupier.wire import dumps, loads

WELCOME = 10_000
OWNER = "test-process"


class Settings:
    seat_hold = 60.0


class FakeHost:
    """The process a room lives in, as small as ``Host`` allows: nobody is connected."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.options = Settings()
        self.house_id = store.read(lambda c: store.account_id(c, "house"))
        self.bot_delay = 0.0
        self.stats: dict[str, float] = dict.fromkeys(
            ("actions", "engine_seconds", "store_seconds", "broadcast_seconds"), 0.0
        )
        self.conns: dict[int, set[FakeListener]] = {}
        self.names: dict[int, str] = {}
        self.remembered: list[tuple[int, str]] = []
        self.let_go_calls: list[tuple[int, str]] = []

    def name_of(self, account: int) -> str:
        return self.names.get(account, f"account {account}")

    def connected(self, account: int) -> bool:
        return bool(self.conns.get(account))

    def remember(self, account: int, request: str | None) -> None:
        if request is not None:
            self.remembered.append((account, request))

    async def bot_account(self, name: str) -> int:
        account = await self.store.write(lambda c: accounts.register(c, name, "!", role="bot"))
        self.names[account] = name
        return account

    async def drop_room(self, room: Room) -> None:
        self.let_go(room, "elsewhere", "taken")

    def let_go(self, room: Room, code: str, message: str, url: str | None = None) -> None:
        self.let_go_calls.append((room.id, code))
        room.close()


class FakeListener:
    """A connection that records what it hears, checking each seats list against the rows."""

    def __init__(self, store: Store, table: int, account: int | None, name: str) -> None:
        self.store, self.table = store, table
        self.account_id, self.name, self.role = account, name, "player"
        self.rooms: set[int] = set()
        self.closed = False
        self.heard: list[dict[str, Any]] = []

    def send(self, message: dict[str, object]) -> None:
        self._check(message)
        self.heard.append(dict(message))

    def send_text(self, text: str) -> None:
        self.send(loads(text))

    def _check(self, message: dict[str, object]) -> None:
        kind = message["type"]
        if kind in ("seats", "state"):
            stored = {row.seat: row.chips for row in _seats(self.store, self.table)}
            told = {int(x["seat"]): int(x["chips"]) for x in message["seats"]}  # type: ignore[attr-defined]
            assert told == stored, f"{kind} heard before it was stored: {told} != {stored}"
            waits = {row.account_id for row in _waits(self.store, self.table)}
            assert len(message["waiting"]) == len(waits)  # type: ignore[arg-type]
        if kind == "hand_over":
            status = "void" if message["void"] else "finished"
            hands = self.store.read(
                lambda c: list(c.execute(select(s.hands.c.status).where(
                    s.hands.c.table_id == self.table, s.hands.c.number == message["hand"]
                )))
            )  # fmt: skip
            assert [h.status for h in hands] == [status]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.heard if m["type"] == kind]


def _seats(store: Store, table: int) -> list[Any]:
    return store.read(lambda c: list(c.execute(select(s.seats).where(s.seats.c.table_id == table))))


def _waits(store: Store, table: int) -> list[Any]:
    return store.read(lambda c: list(c.execute(select(s.waits).where(s.waits.c.table_id == table))))


def _balance(store: Store, account: int) -> int:
    return int(
        store.read(
            lambda c: c.scalar(select(s.accounts.c.balance).where(s.accounts.c.id == account))
        )
        or 0
    )


def _audits(store: Store, table: int, kind: str) -> list[Any]:
    return store.read(
        lambda c: list(
            c.execute(select(s.audit).where(s.audit.c.table_id == table, s.audit.c.kind == kind))
        )
    )


def _hands(store: Store, table: int) -> list[Any]:
    return store.read(
        lambda c: list(
            c.execute(select(s.hands).where(s.hands.c.table_id == table).order_by(s.hands.c.id))
        )
    )


async def until(done: Callable[[], bool], seconds: float = 10.0) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.01)


async def settle(room: Room) -> None:
    """Let the deal a change asked for run (under the room's lock)."""
    await asyncio.sleep(0.05)
    async with room.lock:
        pass


class Rig:
    """A store, a host, one table's room and a listener for each person."""

    def __init__(self, tmp_path: Path, **table: Any) -> None:
        self.store = Store(str(tmp_path / "room.db"), owner=OWNER)
        self.host = FakeHost(self.store)
        self.people: dict[str, FakeListener] = {}
        settings: dict[str, Any] = {"clock": 30.0, "bank": 0.0, "sit_out_after": 2, "pause": 0.0}
        settings.update({k: table.pop(k) for k in list(table) if k in settings})
        spec = TableSpec(**{"game": "holdem", "rulebook": "rws", "stakes": "1/2", "seats": 6,
                            **table}).written_out()  # fmt: skip
        text = dumps(spec.to_json())
        self.table = self.store.write_now(
            lambda c: hall_rows.open_table(c, self.host.house_id, "test", text, OWNER, settings)
        )
        self.watcher = FakeListener(self.store, self.table, None, "watcher")

    async def open(self) -> Room:
        snap = self.store.read(lambda c: rows.read_snapshot(c, self.table))
        host: Host[Room] = self.host  # what a room needs of its process, and no more
        self.room = Room(host, snap)
        self.room.viewers[self.watcher] = None
        async with self.room.lock:
            await self.room.resume()
        return self.room

    def person(self, name: str) -> FakeListener:
        account = self.store.write_now(lambda c: accounts.register(c, name, "!", welcome=WELCOME))
        self.host.names[account] = name
        listener = FakeListener(self.store, self.table, account, name)
        listener_port: Listener = listener
        self.room.viewers[listener_port] = None
        self.people[name] = listener
        return listener

    def close(self) -> None:
        self.room.close()
        self.store.close()


def test_a_seat_sits_tops_up_sits_out_and_leaves_with_every_chip_stored_first(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        rig = Rig(tmp_path)
        room = await rig.open()
        alice = rig.person("alice")
        assert alice.account_id is not None
        buy_in = room.game.minimum_buy_in
        await seating.sit(room, alice, "r1", 3, buy_in)
        [row] = _seats(rig.store, rig.table)
        assert (row.seat, row.account_id, row.chips, row.status) == (
            3, alice.account_id, buy_in, "playing")  # fmt: skip
        assert _balance(rig.store, alice.account_id) == WELCOME - buy_in
        assert [m["you"] for m in alice.of("state")] == [3]
        # Seat 3 is hers: another sit there is refused, and nothing is stored or heard.
        bob = rig.person("bob")
        await settle(room)  # the deal alice's sit asked for (one player: nothing is dealt)
        heard = len(rig.watcher.heard)
        with pytest.raises(Refused, match="taken by alice"):
            await seating.sit(room, bob, "r2", 3, buy_in)
        assert len(rig.watcher.heard) == heard and len(_seats(rig.store, rig.table)) == 1

        await seating.top_up(room, alice, "r3", 7)
        assert _seats(rig.store, rig.table)[0].chips == buy_in + 7 == room.seats[3].chips
        await seating.sit_out(room, alice, "r4", True)
        assert _seats(rig.store, rig.table)[0].status == "sitting_out"
        await seating.sit_out(room, alice, "r5", False)
        assert _seats(rig.store, rig.table)[0].status == "playing"
        assert rig.store.read(check_ledger) == []

        await seating.leave(room, alice, "r6")
        assert _seats(rig.store, rig.table) == [] and room.seats == {}
        assert _balance(rig.store, alice.account_id) == WELCOME
        assert rig.store.read(check_ledger) == []
        assert [r for _, r in rig.host.remembered] == ["r1", "r3", "r4", "r5", "r6"]
        kinds = [a.kind for a in rig.store.read(lambda c: list(c.execute(
            select(s.audit.c.kind).where(s.audit.c.table_id == rig.table).order_by(s.audit.c.id)
        )))]  # fmt: skip
        assert kinds == ["sit", "top_up", "sit_out", "sit_in", "leave"]
        # Every seats message the watcher heard matched the rows (FakeListener._check), the
        # last: nobody seated.
        assert rig.watcher.of("seats")[-1]["seats"] == []
        rig.close()

    asyncio.run(main())


def test_bots_play_hands_and_a_closed_table_cashes_everyone_out(tmp_path: Path) -> None:
    async def main() -> None:
        rig = Rig(tmp_path)
        room = await rig.open()
        house = FakeListener(rig.store, rig.table, rig.host.house_id, "house")
        house.role = "admin"
        for seat in (1, 4):
            await seating.add_bot(room, house, f"bot-{seat}", seat, None)
        bots = {st.account for st in room.seats.values()}
        await until(lambda: room.hands >= 3)
        await seating.close_table(room, house, "close", "the test is over")
        await until(lambda: room.closed)
        finished = [h for h in _hands(rig.store, rig.table) if h.status == "finished"]
        assert len(finished) >= 3
        assert _seats(rig.store, rig.table) == []
        status = rig.store.read(
            lambda c: c.scalar(select(s.tables.c.status).where(s.tables.c.id == rig.table))
        )
        assert status == "closed"
        assert rig.store.read(check_ledger) == []
        # Each bot left with what the hands left it (a bot out of chips rebuys from the cage):
        # its balance is what it staked and rebought and won or lost, as its ledger rows say.
        for bot in bots:
            cashed = select(s.ledger.c.amount).where(
                s.ledger.c.account_id == bot, s.ledger.c.table_id.is_(None),
                s.ledger.c.kind == "cash_out",
            )  # fmt: skip
            [booked] = rig.store.read(lambda c: list(c.scalars(cashed)))  # noqa: B023
            assert _balance(rig.store, bot) == booked
        [closed] = rig.watcher.of("table_closed")
        assert closed["reason"] == "the test is over" and closed["moved_stack"] is None
        assert rig.host.let_go_calls == [(rig.table, "closed")]
        results = [m for m in rig.watcher.of("hand_over") if not m["void"]]
        assert len(results) == len(finished)
        rig.close()

    asyncio.run(main())


def test_a_person_out_of_time_is_moved_by_the_clock_and_sits_out(tmp_path: Path) -> None:
    async def main() -> None:
        rig = Rig(tmp_path, clock=0.05, bank=0.0, sit_out_after=1, pause=0.0)
        room = await rig.open()
        alice, bob = rig.person("alice"), rig.person("bob")
        buy_in = room.game.minimum_buy_in
        await seating.sit(room, alice, "a", 1, buy_in)
        await seating.sit(room, bob, "b", 2, buy_in)
        # Nobody is connected (FakeHost.connected): whoever is to act runs out of time, and
        # after one hand timed out (sit_out_after 1) sits out; then no hand can be dealt.
        await until(lambda: any(st.status == "sitting_out" for st in room.seats.values()))
        await until(lambda: not room.game.in_hand and not room.lock.locked())
        timeouts = _audits(rig.store, rig.table, "timeout")
        assert timeouts and {t.outcome for t in timeouts} == {"ruling"}
        out = {t.account_id for t in timeouts}
        stored = {row.account_id: row for row in _seats(rig.store, rig.table)}
        sitting = {a for a, row in stored.items() if row.status == "sitting_out"}
        assert sitting == out
        assert all(stored[a].away >= 1 for a in out)
        assert sum(row.chips for row in stored.values()) == 2 * buy_in  # rws: no rake set
        assert rig.store.read(check_ledger) == []
        hands = _hands(rig.store, rig.table)
        assert [h.status for h in hands] == ["finished"] * len(hands)
        assert len(rig.watcher.of("hand_over")) == len(hands)
        rig.close()

    asyncio.run(main())


def test_a_void_returns_every_chip_and_the_waiting_list_fills_a_seat_left(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        rig = Rig(tmp_path, seats=2, pause=3600.0)
        room = await rig.open()
        alice, bob, carol = rig.person("alice"), rig.person("bob"), rig.person("carol")
        assert carol.account_id is not None
        rig.host.conns[carol.account_id] = {carol}  # carol hears offers wherever she is
        buy_in = room.game.minimum_buy_in
        await seating.sit(room, alice, "a", 1, buy_in)
        await seating.sit(room, bob, "b", 2, buy_in)
        await until(lambda: room.hand_id is not None and room.game.in_hand)
        await waiting.wait(room, carol, "c", None)
        assert [w.account_id for w in _waits(rig.store, rig.table)] == [carol.account_id]
        assert [w["name"] for w in rig.watcher.of("seats")[-1]["waiting"]] == ["carol"]

        # The floor voids the hand: every contribution returns (the stacks as dealt).
        hand = room.hand_id
        await room.void("a test", None)
        [row] = [h for h in _hands(rig.store, rig.table) if h.id == hand]
        assert row.status == "void"
        stacks = {r.seat: r.chips for r in _seats(rig.store, rig.table)}
        assert stacks == {1: buy_in, 2: buy_in}
        assert rig.watcher.of("hand_over")[-1]["stacks"] == {"1": buy_in, "2": buy_in}
        refunds = rig.store.read(
            lambda c: list(
                c.execute(
                    select(s.ledger).where(s.ledger.c.hand_id == hand, s.ledger.c.kind == "refund")
                )
            )
        )
        assert len(refunds) == 2 and {r.amount for r in refunds} == {0}  # fmt: skip
        assert rig.store.read(check_ledger) == []

        # Bob leaves between hands: his seat goes to carol, held for her.
        await seating.leave(room, bob, "b2")
        await until(lambda: bool(carol.of("seat_offer")))
        [offer] = carol.of("seat_offer")
        assert offer["seat"] == 2
        [wait] = _waits(rig.store, rig.table)
        assert (wait.offer, wait.offer_until) == (2, offer["until"])
        assert _audits(rig.store, rig.table, "seat_offer")
        with pytest.raises(Refused, match="held for carol"):
            await seating.sit(room, bob, "b3", 2, buy_in)
        await seating.sit(room, carol, "c2", 2, buy_in)
        assert _waits(rig.store, rig.table) == []
        await until(lambda: room.game.in_hand and room.hand_id != hand)
        await room.void("done", None)
        assert _balance(rig.store, carol.account_id) == WELCOME - buy_in
        assert rig.store.read(check_ledger) == []
        rig.close()

    asyncio.run(main())


def _rows_are_the_events_projection(rig: Rig) -> None:
    """One truth for seats (issue 38 item 3): the seat rows are what the stored table events
    make of the engine's table (who sits where, the chips, whether away), the room holds the
    same, and a room loaded from the database has nothing to adopt."""
    snap = rig.store.read(lambda c: rows.read_snapshot(c, rig.table))
    game = GameTable.restored(rig.room.spec, loads_events(snap.events))
    engine = {seat: game.occupant(seat) for seat in game.engine_seats()}
    stored = {row.seat: row for row in snap.seats}
    for seat, held in engine.items():
        assert held is not None and seat in stored, f"seat {seat} at the engine has no row"
        row = stored[seat]
        name, chips, away = held
        assert (rig.host.name_of(row.account_id), row.chips) == (name, chips)
        assert row.status == ("sitting_out" if away else "playing"), (seat, row.status, away)
    for seat, row in stored.items():
        if seat not in engine:  # taken during a hand: seated at the next deal
            assert row.status in ("waiting", "sitting_out") and not row.leaving, row
    memory = {n: (st.account, st.chips, st.status, st.leaving) for n, st in rig.room.seats.items()}
    assert memory == {
        n: (row.account_id, row.chips, row.status, row.leaving) for n, row in stored.items()
    }
    assert Room(rig.host, snap).game.unsaved() == []


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_seat_rows_are_the_table_events_projection_after_any_seat_change(
    tmp_path: Path, seed: int
) -> None:
    """Sitting down (between hands and during one), bots, adding chips, sitting out and in,
    leaving mid-hand and between hands, the waiting list's seat changes, voids and the clock's
    sitting out, in a random order while hands are played: after each, the rows, the room and
    the stored table events agree, and the ledger balances."""

    async def main() -> None:
        rng = random.Random(seed)
        rig = Rig(tmp_path, clock=0.05, sit_out_after=2)
        room = await rig.open()
        house = FakeListener(rig.store, rig.table, rig.host.house_id, "house")
        house.role = "admin"
        people = [rig.person(name) for name in ("ann", "ben", "cat", "dan", "eve")]
        buy_in = room.game.minimum_buy_in
        for step in range(45):
            who = rng.choice(people)
            free = [n for n in range(1, 7) if n not in room.seats]
            kind = rng.choice(("sit", "sit", "bot", "top_up", "out", "in", "leave", "wait",
                               "void"))  # fmt: skip
            request = f"{kind}-{step}"
            with contextlib.suppress(Refused):
                if kind == "sit" and free:
                    await seating.sit(room, who, request, rng.choice(free), buy_in + step)
                elif kind == "bot" and free:
                    await seating.add_bot(room, house, request, rng.choice(free), None)
                elif kind == "top_up":
                    await seating.top_up(room, who, request, rng.randint(1, 40))
                elif kind in ("out", "in"):
                    await seating.sit_out(room, who, request, kind == "out")
                elif kind == "leave":
                    await seating.leave(room, who, request)
                elif kind == "wait":
                    own = room.seat_of(who.account_id)
                    wanted = rng.choice(free) if own is not None and free else None
                    await waiting.wait(room, who, request, wanted)
                elif kind == "void":
                    await room.void("a test", None)
            await asyncio.sleep(rng.random() * 0.1)
            async with room.lock:
                _rows_are_the_events_projection(rig)
        assert room.hands >= 3
        assert rig.store.read(check_ledger) == []
        rig.close()

    asyncio.run(main())


def test_seat_rows_written_ahead_of_the_table_events_before_the_upgrade_are_adopted(
    tmp_path: Path,
) -> None:
    """Before seats had one truth, a seat change was written to its row at once and reached
    the table's events only with the next deal: a database stopped in between holds rows ahead
    of the events. Loaded by this version, the engine's table takes them, and stores them."""

    async def main() -> None:
        rig = Rig(tmp_path, pause=3600.0)
        room = await rig.open()
        ann, ben, cat = rig.person("ann"), rig.person("ben"), rig.person("cat")
        assert ann.account_id and ben.account_id and cat.account_id
        buy_in = room.game.minimum_buy_in
        await seating.sit(room, ann, "a", 1, buy_in)
        await seating.sit(room, ben, "b", 2, buy_in)
        await until(lambda: room.game.in_hand)
        await room.void("stopping", None)  # between hands now, for a long pause
        room.close()
        # What the old code wrote for a top-up, a sit-out and a new seat, and no table event.
        table, a, b, c = rig.table, ann.account_id, ben.account_id, cat.account_id
        newcomer = SeatState(3, c, "cat", buy_in, "playing", 0.0, fresh=True)
        rig.store.write_now(lambda conn: rows.top_up(conn, table, 1, a, 25, None, "old top-up"))
        rig.store.write_now(lambda conn: rows.sit_out(conn, table, 2, b, "sitting_out", None,
                                                      "sit_out", "old"))  # fmt: skip
        rig.store.write_now(lambda conn: rows.sit(conn, table, newcomer, None, "old sit"))

        room = await rig.open()
        assert room.game.occupant(1) == ("ann", buy_in + 25, False)
        assert room.game.occupant(2) == ("ben", buy_in, True)
        assert room.game.occupant(3) == ("cat", buy_in, False)
        async with room.lock:
            _rows_are_the_events_projection(rig)
        assert [a.detail for a in _audits(rig.store, rig.table, "resume")] == [
            "3 seat changes of the seat rows recorded at the table"
        ]
        assert rig.store.read(check_ledger) == []
        rig.close()

    asyncio.run(main())


def test_a_player_who_leaves_mid_hand_acts_at_once_and_is_cashed_out_when_it_ends(
    tmp_path: Path,
) -> None:
    """Issue 44: the table does not wait out a leaver's clock. Dealt in, the player who leaves
    keeps their chips on the table until the hand ends (au 7.5, rws 3.4), but at each of their
    turns folds, or checks when free, at once; then the seat is cashed out."""

    async def main() -> None:
        rig = Rig(tmp_path, clock=600.0, pause=3600.0)  # a clock nobody waits out here
        room = await rig.open()
        ann = rig.person("ann")
        assert ann.account_id is not None
        house = FakeListener(rig.store, rig.table, rig.host.house_id, "house")
        house.role = "admin"
        buy_in = room.game.minimum_buy_in
        await seating.sit(room, ann, "a", 1, buy_in)
        await seating.add_bot(room, house, "bot", 4, None)
        await until(lambda: room.game.in_hand and room.game.to_act() == 1)
        await seating.leave(room, ann, "leave")
        await until(lambda: not room.game.in_hand, 5.0)
        assert 1 not in room.seats and _waits(rig.store, rig.table) == []
        assert {row.seat for row in _seats(rig.store, rig.table)} == {4}
        [left] = _audits(rig.store, rig.table, "left")
        assert left.detail.startswith("seat 1 has left the table: ") and left.outcome == "ruling"
        assert _audits(rig.store, rig.table, "timeout") == []
        [hand] = _hands(rig.store, rig.table)
        assert hand.status == "finished"
        net = loads(hand.result)["1"] - buy_in
        assert _balance(rig.store, ann.account_id) == WELCOME + net
        assert rig.store.read(check_ledger) == []
        rig.close()

    asyncio.run(main())
