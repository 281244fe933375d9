"""What a room reads from the database and the rows it writes there: everything about one
table read in one go (to build the room from, after a start, a restart or a takeover), and the
statements its hands write, compiled once and run by the writer for a whole batch at a time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select, update

from croupier.server.rooms.game_table import Move, StoredHand
from croupier.server.store import schema as s
from croupier.wire import loads

__all__ = [
    "FINISH_HAND",
    "INSERT_EVENT",
    "INSERT_HAND",
    "INSERT_MOVE",
    "SEAT_PLAYING",
    "SEAT_RECORDED",
    "UPDATE_BANK",
    "UPDATE_CHIPS",
    "UPDATE_HANDS",
    "Snapshot",
    "read_snapshot",
    "store_events",
    "stored_hand",
]


@dataclass
class Snapshot:
    """Everything the database holds about one table, read in one go."""

    table: Any
    seats: list[Any]
    hand: Any | None  # the hand in play, if any
    moves: list[Any]  # its moves, in order
    events: list[str]  # the table's events, in order
    waits: list[Any]  # the waiting list, in the order asked


def read_snapshot(conn: Connection, table_id: int) -> Snapshot:
    table = conn.execute(select(s.tables).where(s.tables.c.id == table_id)).one()
    seats = list(conn.execute(select(s.seats).where(s.seats.c.table_id == table_id)))
    hand = conn.execute(
        select(s.hands).where(s.hands.c.table_id == table_id, s.hands.c.status == "playing")
    ).first()
    moves = []
    if hand is not None:
        moves = list(
            conn.execute(
                select(s.moves).where(s.moves.c.hand_id == hand.id).order_by(s.moves.c.seq)
            )
        )
    events = list(
        conn.scalars(
            select(s.table_events.c.event)
            .where(s.table_events.c.table_id == table_id)
            .order_by(s.table_events.c.seq)
        )
    )
    waits = list(
        conn.execute(
            select(s.waits).where(s.waits.c.table_id == table_id).order_by(s.waits.c.since)
        )
    )
    return Snapshot(table, seats, hand, moves, events, waits)


def stored_hand(hand: Any, moves: list[Any]) -> StoredHand:
    """The hand in play as stored: its deck, seed, button, seats, events and moves."""
    return StoredHand(
        tuple(loads(hand.deck)),
        int(hand.seed),
        int(hand.button),
        tuple(seat for seat, *_ in loads(hand.seats)),
        tuple(loads(hand.events)),
        tuple((m.seat, Move.from_json(loads(m.move)), tuple(loads(m.events))) for m in moves),
    )


def store_events(conn: Connection, rows: list[dict[str, object]]) -> None:
    if rows:
        conn.execute(INSERT_EVENT, rows)


INSERT_EVENT = insert(s.table_events)
INSERT_MOVE = insert(s.moves)
INSERT_HAND = insert(s.hands).returning(s.hands.c.id)
FINISH_HAND = (
    update(s.hands)
    .where(s.hands.c.id == bindparam("f_hand"))
    .values(
        status="finished",
        finished=bindparam("f_finished"),
        commission=bindparam("f_commission"),
        result=bindparam("f_result"),
        to_act=None,
        clock_end=None,
        bank_end=None,
    )
)
UPDATE_CHIPS = (
    update(s.seats)
    .where(s.seats.c.table_id == bindparam("c_table"), s.seats.c.seat == bindparam("c_seat"))
    .values(chips=bindparam("c_chips"))
)
UPDATE_HANDS = (
    update(s.tables).where(s.tables.c.id == bindparam("h_table")).values(hands=bindparam("h_hands"))
)
SEAT_PLAYING = (
    update(s.seats)
    .where(s.seats.c.table_id == bindparam("p_table"), s.seats.c.seat == bindparam("p_seat"))
    .values(status="playing")
)
SEAT_RECORDED = (
    update(s.seats)
    .where(s.seats.c.table_id == bindparam("r_table"), s.seats.c.seat == bindparam("r_seat"))
    .values(fresh=False)
)
UPDATE_BANK = (
    update(s.seats)
    .where(s.seats.c.table_id == bindparam("b_table"), s.seats.c.seat == bindparam("b_seat"))
    .values(bank=bindparam("b_bank"))
)
