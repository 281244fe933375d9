"""The table's events as the server stores them: every kind reads back exactly, a table rebuilt
from its stored events is the live table (seats, button, blinds due, the next hand's forced
bets), and after a restart the blinds go on where the book says: the moving button (rws 3.7)
and the moving big blind with its dead button (au 1.1 'Dead Button', league 12)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from croupier import table_events as te
from croupier.cards import Card
from croupier.client import Client
from croupier.deck import Deck, SeededShuffler
from croupier.forced import Blind, BlindKind, ForcedBets
from croupier.server.rooms.game_table import GameTable, Move, StoredHand
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.store.database import Store, check_ledger
from croupier.server.store.table_log import (
    TableLogError,
    decode,
    dumps_event,
    encode,
    loads_event,
)
from croupier.table import BuyIn, Positions
from server_harness import player, running

BOOKS = ("rws", "au-casino", "qld", "cardroom", "league")


def _every_kind() -> list[te.TableEvent]:
    """One event of each kind, holding the engine's records as a real table would."""
    rules = GameTable(TableSpec(rulebook="au-casino", rake="5%")).rules
    other = GameTable(TableSpec(rulebook="cardroom", game="stud7", stakes="1/2")).rules
    forced = ForcedBets(
        antes=(1, 1, 1), blinds=(Blind(0, 1), Blind(1, 2), Blind(2, 2, BlindKind.DEAD)),
        dead_antes=True,
    )  # fmt: skip
    return [
        te.Seated(3, "Ada", 200, True),
        te.Left(3, "Ada", 187),
        te.ChipsAdded(2, 50),
        te.SteppedAway(4, approved=True),
        te.CameBack(4),
        te.SeatChanged(2, 5),
        te.SeatDraw(5, (("Ada", Card("Ah")), ("Bea", Card("Ks"))), "Ada"),
        te.SeatAssigned(5, "Ada", "seated"),
        te.RulesChanged(other),
        te.SettingsScheduled(7, rules, BuyIn(minimum=100, short=40, maximum=500), agreed=True),
        te.SettingsChanged(7, None, BuyIn(minimum=80, restake=True, rejoin_minimum=True)),
        te.TimeCharged(1, 3, 2, 1764000000.25),
        te.ButtonDraw(((1, Card("2c")), (4, Card("Td"))), 4),
        te.ButtonCorrected(3, (4, 5)),
        te.BlindsMissed(6, small=True, big=False),
        te.FeePaid(2, 1),
        te.ButtonPlaced(1, True, (2, 3)),
        te.HandStarted(12, (2, 3, 5, 1), (100, 98, 250, 7), forced, "given"),
        te.Redeal(12),
        te.HandFinished(12, ((2, 90), (3, 120), (5, 245)), 3, (1,)),
        te.ClockCalled(3, 60.0, 1764000123.5),
        te.ClockExpired(3, dead=True),
    ]


def test_every_table_event_kind_round_trips_exactly() -> None:
    events = _every_kind()
    kinds = {type(e) for e in events}
    assert kinds == {getattr(te, name) for name in te.__all__} - {te.TableEvent}
    for event in events:
        text = dumps_event(event)
        back = loads_event(text)
        assert back == event and type(back) is type(event)
        assert dumps_event(back) == text
    rules = events[8].rules  # type: ignore[attr-defined]
    again = loads_event(dumps_event(events[8])).rules  # type: ignore[attr-defined]
    assert again.betting.clauses == rules.betting.clauses  # compared by hand: compare=False


def _same_kinds(a: object, b: object) -> bool:
    """Equal is not enough: a string equals a StrEnum member, and the compiled engine's records
    take only the member. Every value read back is of the written value's own class."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple | list):
        return all(_same_kinds(x, y) for x, y in zip(a, b, strict=True))  # type: ignore[arg-type]
    if isinstance(a, dict):
        return all(_same_kinds(a[k], b[k]) for k in a)  # type: ignore[index]
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return all(
            _same_kinds(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    return True


@pytest.mark.parametrize("book", BOOKS)
def test_every_books_rules_round_trip(book: str) -> None:
    rules = GameTable(TableSpec(rulebook=book)).rules
    back = decode(json.loads(json.dumps(encode(rules))))
    assert back == rules and _same_kinds(back, rules)
    for event in _every_kind():
        assert _same_kinds(loads_event(dumps_event(event)), event)


def test_a_stored_event_that_does_not_read_back_is_an_error() -> None:
    with pytest.raises(TableLogError, match="unknown record class"):
        loads_event('{"$": "Nonsense", "seat": 1}')
    with pytest.raises(TableLogError, match="not JSON"):
        loads_event("{")
    with pytest.raises(TableLogError, match="not a table event"):
        loads_event('{"$": "BuyIn", "minimum": 100}')
    with pytest.raises(TableLogError, match="does not read back"):
        loads_event('{"$": "Seated", "seat": 1}')
    with pytest.raises(TableLogError, match="cannot store"):
        encode(object())


# --- a table rebuilt from its stored events -----------------------------------------------------


def _stored(game: GameTable) -> list[te.TableEvent]:
    """The table's events as the server stores and reads them: JSON text and back."""
    return [loads_event(dumps_event(event)) for event in game.events]


def _state(game: GameTable) -> tuple[object, ...]:
    table = game._table
    seats = tuple((s, game.occupant(s), table.owes(s), table.can_play(s)) for s in table.occupied())
    waiting = table.waiting()  # who the next hand leaves out (newcomers, missed blinds)
    return seats, table.button, table.positions, table.hands, table.commission, waiting


def _play_out(game: GameTable, rng: random.Random) -> list[tuple[int, Move]]:
    moves = []
    while game.in_hand:
        seat = game.to_act()
        assert seat is not None
        legal = game.legal()
        assert legal is not None
        roll = rng.random()
        raise_range = legal["raise_range"]
        if isinstance(raise_range, list) and roll < 0.2:
            move = Move("bet_or_raise", int(raise_range[0]))
        elif roll < 0.45 and legal["can_fold"]:
            move = Move("fold")
        else:
            move = Move("check_or_call")
        game.act(seat, move)
        moves.append((seat, move))
    return moves


@pytest.mark.parametrize("book", ["rws", "au-casino", "league"])
def test_a_table_rebuilt_from_its_stored_events_after_random_hands_is_the_live_one(
    book: str,
) -> None:
    rng = random.Random(book)
    spec = TableSpec(rulebook=book, seats=6, buy_in=100)
    game = GameTable(spec)
    names = 0
    for _ in range(40):
        for seat in range(1, 7):  # between hands: sit, top up, leave, step away and back
            held, roll = game.occupant(seat), rng.random()
            if held is None and roll < 0.35:
                names += 1
                game.seat(seat, f"p{names}", rng.choice([100, 150, 300]))
            elif held is not None and held[1] < 20 and roll < 0.6:
                game.add_chips(seat, 100)
            elif held is not None and roll < 0.05:
                game.unseat(seat)
            elif held is not None and roll < 0.12:
                game.step_away(seat, not held[2])
        if not game.can_deal():
            continue
        seed = rng.randrange(2**32)
        deck = tuple(int(c) for c in Deck.shuffled(game.rules.deck, SeededShuffler(seed)).cards)
        start = game.start_hand(deck, seed)
        if rng.random() < 0.3:  # stored mid-hand: rebuilt from the events and the hand's moves
            played: list[tuple[int, Move, tuple[dict[str, object], ...]]] = []
            for _ in range(rng.randrange(4)):
                seat = game.to_act()
                if seat is None:
                    break
                move = game.auto_move()
                played.append((seat, move, tuple(game.act(seat, move))))
            stored = StoredHand(deck, seed, start.button, start.order, start.events, tuple(played))
            if game.in_hand:
                rebuilt = GameTable.restored(spec, _stored(game), stored)
                assert rebuilt.house_records() == game.house_records()
                assert rebuilt.to_act() == game.to_act() and rebuilt.start == game.start
        _play_out(game, rng)
        game.finish()
        rebuilt = GameTable.restored(spec, _stored(game))
        assert rebuilt.events == game.events
        assert _state(rebuilt) == _state(game)
        if rebuilt.can_deal():  # the next hand: the same seats, button and forced bets
            deck2 = tuple(range(52))
            ahead = [GameTable.restored(spec, _stored(game)), rebuilt]
            starts = [g.start_hand(deck2, 7) for g in ahead]
            assert starts[0] == starts[1]
            assert ahead[0].forced() == ahead[1].forced()
            assert ahead[0]._table.positions == ahead[1]._table.positions
    assert game.hands > 20


def test_a_void_ends_the_open_hand_with_every_seat_as_dealt() -> None:
    spec = TableSpec(rulebook="rws", seats=4, buy_in=100)
    game = GameTable(spec)
    for seat in (1, 2, 3):
        game.seat(seat, f"p{seat}", 200)
    game.start_hand(tuple(range(52)), 3)
    game.act(game.to_act() or 0, Move("check_or_call"))
    ended = game.void_events({1: 200, 2: 200, 3: 200})
    # rws 3.1: the first button on seat 1, the dealer's left: seat 2 is dealt first.
    assert ended == [te.HandFinished(1, ((2, 200), (3, 200), (1, 200)), 0, ())]
    after = GameTable.restored(spec, [*_stored(game), *ended])
    assert not after.in_hand and after.can_deal()
    assert [after.occupant(s) for s in (1, 2, 3)] == [(f"p{s}", 200, False) for s in (1, 2, 3)]
    assert after._table.commission == 0 and after.void_events({}) == []


# --- the blinds across a restart of the server --------------------------------------------------


def _fold_move(legal: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    return ("check_or_call", {}) if legal["can_check"] else ("fold", {})


async def _fold_until(clients: list[Client], table: int, done: Callable[[], bool]) -> None:
    """Whoever is to act checks, else folds, until ``done()``."""
    for _ in range(3000):
        if done():
            return
        turn = next((c for c in clients if c.views[table].my_turn), None)
        if turn is None:
            await asyncio.sleep(0.01)
            continue
        kind, fields = _fold_move(turn.views[table].legal or {})
        await turn.act(table, kind, **fields)
        await asyncio.sleep(0.02)  # the next turn's message
    raise AssertionError("the hands were not played")


def _positions(db: str) -> dict[int, tuple[int, tuple[int, ...]]]:
    """Each stored hand's button and the seats that posted its blinds, in posting order."""
    store = Store(db)
    try:
        rows = store.read(
            lambda c: list(c.exec_driver_sql("SELECT number, button, seats, forced FROM hands"))
        )
        assert store.read(check_ledger) == []
    finally:
        store.close()
    found = {}
    for number, button, seats, forced in rows:
        order = [row[0] for row in json.loads(seats)]
        bets = decode(json.loads(forced))
        assert isinstance(bets, ForcedBets)
        found[number] = (button, tuple(order[b.player] for b in bets.blinds))
    return found


# Four players in seats 1-4, the button first on the dealer's right (seat 4); after hand 1 the
# small blind (seat 1) leaves. The moving button goes to seat 2 (rws 3.7: the next player);
# the moving big blind goes to seat 3, the small blind to last hand's big blind, and the button
# stays on the empty seat 1 (au 1.1 'Dead Button'; league 12).
EXPECTED = {
    "rws": {1: (1, (2, 3)), 2: (2, (3, 4)), 3: (3, (4, 2)), 4: (4, (2, 3))},  # rws 3.1: left
    "au-casino": {1: (4, (1, 2)), 2: (1, (2, 3)), 3: (2, (3, 4)), 4: (3, (4, 2))},
    "league": {1: (4, (1, 2)), 2: (1, (2, 3)), 3: (2, (3, 4)), 4: (3, (4, 2))},
}
"""(button, blinds) of hands 1-4 at four seats, seat 1 leaving after hand 1. League draws for
the first button (league 2): its expectations hold from a first button on seat 4."""


def _relative(found: dict[int, tuple[int, tuple[int, ...]]]) -> dict[int, object]:
    """League: the hands after the first as the big blind moves, one seat a hand (league 12),
    from wherever the draw put the first button."""
    big = found[1][1][-1]
    seats = [2, 3, 4]
    moves = {}
    for number in (2, 3, 4):
        nxt = min((s for s in seats if s > big), default=seats[0])
        moves[number] = (found[number][1][-1], nxt)
        big = nxt
    return moves


@pytest.mark.parametrize("book", sorted(EXPECTED))
def test_rws_3_7_au_1_1_league_12_the_blinds_go_on_where_the_book_says_after_a_restart(
    tmp_path: Path, book: str
) -> None:
    db = str(tmp_path / "room.db")
    names = ("alice", "bob", "carol", "dave")

    async def first() -> int:
        async with running(db) as server:
            clients = [await player(server.url, name) for name in names]
            table = await clients[0].create_table({"game": "holdem", "rulebook": book, "seats": 4})
            room = server.room.rooms[table]
            room.closed = True  # hold the first deal until all four sit
            for seat, client in enumerate(clients, 1):
                await client.sit(table, seat, 200)
            room.closed = False
            room.schedule_deal(0.0)
            await _fold_until(clients, table, lambda: room.number == 1 and room.game.in_hand)
            await clients[0].leave(table)  # after this hand (au 7.5)
            await _fold_until(clients, table, lambda: room.number == 2 and room.moves == 1)
            assert room.game.in_hand  # hand 2 under way: the server stops here
            for client in clients:
                await client.close()
            return table

    async def second(table: int) -> None:
        async with running(db) as server:
            room = server.room.rooms[table]
            assert room.game.in_hand and room.number == 2  # rebuilt from the store
            clients = [await Client.login(server.url, n, "password-1") for n in names[1:]]
            for client in clients:
                await client.connect()
            await _fold_until(clients, table, lambda: room.hands >= 4)
            for client in clients:
                await client.close()

    table = asyncio.run(first())
    asyncio.run(second(table))
    found = _positions(db)
    expected = EXPECTED[book]
    if book == "league":  # the first button drawn (league 2): the big blind moves from it
        assert all(got == due for got, due in _relative(found).values()), found
    else:
        assert {n: found[n] for n in expected} == expected


def test_positions_of_the_expectations_follow_the_engine_policies() -> None:
    """The expectations above, from the engine's own tables (no server): the book's policy
    with the same seats, hand after hand."""
    for book, expected in EXPECTED.items():
        game = GameTable(TableSpec(rulebook=book, seats=4))
        if book == "league":  # the draw's winner (league 2), as the expectations place it
            game._table.first_button = 4
        for seat in (1, 2, 3, 4):
            game.seat(seat, f"p{seat}", 200)
        for number in range(1, 5):
            start = game.start_hand(tuple(range(52)), number)
            forced = game.forced()
            assert forced is not None
            blinds = tuple(start.order[b.player] for b in forced.blinds)
            assert (start.button, blinds) == expected[number], (book, number)
            while game.in_hand:
                game.act(game.to_act() or 0, Move("fold"))
            game.finish()
            if number == 1:
                game.unseat(1)
        assert game._table.positions == Positions(expected[4][0], expected[4][1])
