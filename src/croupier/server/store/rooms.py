"""What a room reads from the database and every row it writes there, as named functions of
plain values (croupier.server.records): a room never holds SQL.

- Reading: everything about one table in one go (:func:`read_snapshot`, to build the room from,
  after a start, a restart or a takeover), where an account is (:func:`places_of`).
- A hand: the statements it writes, compiled once and run by the writer for a whole batch at a
  time (:func:`deal_rows`, :func:`move_rows`, :func:`finish_hand_rows`), the rest of a finished
  hand (:func:`finish_hand`: seats that leave, sit out or rebuy) and a void (:func:`void_hand`).
- Seats: :func:`sit`, :func:`leave`, :func:`leave_after_hand`, :func:`top_up`,
  :func:`sit_out`, :func:`remove_bot`, :func:`cash_out`, :func:`bot_rebuy`.
- The waiting list: :func:`add_wait`, :func:`unwait`, :func:`fill_seats`, :func:`drop_wait`.
- Closing: :func:`mark_closing`, :func:`close_table` (and a broken game's stacks:
  :func:`transfer_of`, :func:`open_transfers`).
- The audit log: :func:`audit`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, delete, func, insert, select, update

from croupier.rulebooks import load_rulebook
from croupier.server.records import Move, SeatChange, SeatState, StoredHand
from croupier.server.store import schema as s
from croupier.server.store.database import CAGE, StoreError, post_ledger, post_ledger_rows
from croupier.wire import dumps, loads

__all__ = [
    "FINISH_HAND",
    "INSERT_EVENT",
    "INSERT_HAND",
    "INSERT_MOVE",
    "UPDATE_BANK",
    "UPDATE_CHIPS",
    "UPDATE_HANDS",
    "FinishedSeats",
    "Job",
    "Row",
    "Snapshot",
    "add_wait",
    "after_move",
    "audit",
    "bot_rebuy",
    "cash_out",
    "close_table",
    "count_waits",
    "drop_wait",
    "duplicate",
    "fill_seats",
    "finish_hand",
    "finish_hand_rows",
    "leave",
    "leave_after_hand",
    "limit_parts",
    "mark_closing",
    "move_rows",
    "open_transfers",
    "places_of",
    "read_snapshot",
    "remove_bot",
    "seated",
    "sit",
    "sit_out",
    "store_events",
    "stored_hand",
    "top_up",
    "transfer_of",
    "unwait",
    "void_hand",
    "waits_of",
]

Row = tuple[Any, dict[str, Any]]
"""A statement compiled once and its values: the writer runs a batch's rows together."""
Job = Callable[[Connection], None]
"""A change written in the writer's transaction (store.write's job)."""


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
UPDATE_BANK = (
    update(s.seats)
    .where(s.seats.c.table_id == bindparam("b_table"), s.seats.c.seat == bindparam("b_seat"))
    .values(bank=bindparam("b_bank"))
)


def audit(
    conn: Connection,
    account: int | None,
    table: int | None,
    hand: int | None,
    request: str | None,
    kind: str,
    outcome: str,
    detail: str,
) -> None:
    """One row of the audit log: who, where, which request (kept only when applied), what."""
    conn.execute(
        insert(s.audit).values(
            at=time.time(),
            account_id=account,
            table_id=table,
            hand_id=hand,
            request_id=request if outcome == "applied" else None,
            kind=kind,
            outcome=outcome,
            detail=detail[:2000],
        )
    )


def duplicate(error: BaseException) -> bool:
    """Whether the database refused a change for a request id it had applied already."""
    text = str(error).lower()
    return (
        "move_once" in text or "audit_once" in text or ("unique" in text and "request_id" in text)
    )


def _cage(conn: Connection) -> int:
    found = conn.scalar(select(s.accounts.c.id).where(s.accounts.c.name == CAGE))
    assert found is not None
    return int(found)


# --- a hand --------------------------------------------------------------------------------


def seated(conn: Connection, table: int, seats: Iterable[int]) -> None:
    """Seats taken during a hand sit down at the engine's table, their buy-in recorded there."""
    taken = list(seats)
    if taken:
        conn.execute(
            update(s.seats)
            .where(s.seats.c.table_id == table, s.seats.c.seat.in_(taken))
            .values(status="playing", fresh=False)
        )


def move_rows(move: dict[str, Any], table: int, seat: int, bank: float | None) -> list[Row]:
    """What a move writes: its row (with the next turn's deadlines) and, if it changed, the
    seat's time bank."""
    rows: list[Row] = [(INSERT_MOVE, move)]
    if bank is not None:
        rows.append((UPDATE_BANK, {"b_table": table, "b_seat": seat, "b_bank": bank}))
    return rows


def finish_hand_rows(
    table: int,
    hand: int,
    number: int,
    stacks: dict[int, int],
    results: Iterable[tuple[int, int]],
    commission: int,
    house: int,
    events: Iterable[dict[str, object]],
    at: float,
) -> list[Row]:
    """The rows every finished hand writes: its result, the ledger (each dealt account's
    ``results``, the house's commission), the stacks, the table's events and its hand count."""
    ledger: list[tuple[str, int, int | None, int]] = [
        ("result", account, table, amount) for account, amount in results
    ]
    if commission:
        ledger.append(("commission", house, None, commission))
    return [
        (FINISH_HAND, {"f_hand": hand, "f_finished": at, "f_commission": commission,
                       "f_result": dumps({str(k): v for k, v in stacks.items()})}),
        *post_ledger_rows(ledger, hand_id=hand, memo=f"hand {number}", at=at),
        *((UPDATE_CHIPS, {"c_table": table, "c_seat": seat, "c_chips": chips})
          for seat, chips in stacks.items()),
        *((INSERT_EVENT, row) for row in events),
        (UPDATE_HANDS, {"h_table": table, "h_hands": number}),
    ]  # fmt: skip


@dataclass(frozen=True)
class FinishedSeats:
    """The seats a finished hand changes beyond their stacks: seats timed out while away
    (``away``: seat, hands away), sitting out after ``sit_out_after``; bots that rebuy and
    seats that leave (each seat, account, chips)."""

    away: dict[int, int]
    sit_out_after: int
    rebuys: list[tuple[int, int, int]]
    leaving: list[tuple[int, int, int]]


def after_move(
    conn: Connection,
    table: int,
    hand: int,
    account: int,
    ruling: tuple[str, str] | None,
    seats: FinishedSeats | None,
) -> None:
    """What a move writes beyond its rows: the ruling (its kind and what it says) when the
    table moved for ``account`` (out of time, or gone), and the seats its hand's end changes."""
    if ruling is not None:
        audit(conn, account, table, hand, None, ruling[0], "ruling", ruling[1])
    if seats is not None:
        finish_hand(conn, table, seats.away, seats.sit_out_after, seats.rebuys, seats.leaving)


def finish_hand(
    conn: Connection,
    table: int,
    away: dict[int, int],
    sit_out_after: int,
    rebuys: Iterable[tuple[int, int, int]],
    leaving: Iterable[tuple[int, int, int]],
) -> None:
    """The rest of a finished hand: seats timed out while away (``away``: seat, hands away),
    sitting out after ``sit_out_after``; bots that rebuy and seats that leave (seat, account,
    chips)."""
    for seat, count in away.items():
        values: dict[str, object] = {"away": count}
        if count >= sit_out_after:
            values["status"] = "sitting_out"
        conn.execute(
            update(s.seats)
            .where(s.seats.c.table_id == table, s.seats.c.seat == seat)
            .values(**values)
        )
    for seat, account, chips in rebuys:
        bot_rebuy(conn, table, seat, account, chips)
    for seat, account, chips in leaving:
        cash_out(conn, table, seat, account, chips)


def void_hand(
    conn: Connection,
    table: int,
    hand: int,
    reason: str,
    ruling: str,
    by: int | None,
    dealt: Iterable[int],
    leaving: Iterable[tuple[int, int, int]],
    events: list[dict[str, object]],
    hands: int,
) -> None:
    """A hand void (``ruling`` says so): every contribution returns (a zero refund row for
    each ``dealt`` account: the seats' chips are still as dealt), the seats ``leaving`` go with
    the chips they had, the table's events and hand count are stored."""
    conn.execute(
        update(s.hands)
        .where(s.hands.c.id == hand)
        .values(
            status="void",
            finished=time.time(),
            to_act=None,
            clock_end=None,
            bank_end=None,
            result=dumps({"void": reason}),
        )
    )
    post_ledger(
        conn,
        [("refund", account, table, 0) for account in dealt],
        hand_id=hand,
        memo=ruling + "; every contribution returned",
    )
    audit(conn, by, table, hand, None, "void", "ruling", ruling)
    for seat, account, chips in leaving:
        cash_out(conn, table, seat, account, chips)
    store_events(conn, events)
    conn.execute(update(s.tables).where(s.tables.c.id == table).values(hands=hands))


# --- seats ---------------------------------------------------------------------------------


def sit(
    conn: Connection,
    table: int,
    state: SeatState,
    request: str | None,
    detail: str,
    *,
    by: int | None = None,
    moved: int | None = None,
    waited: bool = False,
) -> None:
    """A buy-in: the chips go from the account (a bot's from the cage) to the table, the seat
    is taken, the account leaves the waiting list if it ``waited``, a broken game's right it
    sits by (``moved``: its id) is used."""
    bot = state.bot is not None
    if bot:
        cage = _cage(conn)
        post_ledger(
            conn,
            [("cash_in", cage, None, -state.chips), ("cash_in", state.account, None, state.chips)],
            memo=f"bot stake at table {table}",
        )
    post_ledger(
        conn,
        [("buy_in", state.account, None, -state.chips), ("buy_in", state.account, table,
                                                          state.chips)],
        memo=f"seat {state.seat}",
    )  # fmt: skip
    conn.execute(
        insert(s.seats).values(
            table_id=table,
            seat=state.seat,
            account_id=state.account,
            chips=state.chips,
            status=state.status,
            bank=state.bank,
            away=0,
            leaving=False,
            bot=state.bot,
            fresh=state.fresh,
        )
    )
    if waited:  # off the waiting list, seated
        drop_wait(conn, table, state.account)
    if moved is not None:  # the right is used once
        used = conn.execute(delete(s.transfers).where(s.transfers.c.id == moved))
        if used.rowcount != 1:
            raise StoreError("the right to sit with that stack was used already")
    audit(conn, by if bot else state.account, table, None, request, "sit", "applied", detail)


def cash_out(conn: Connection, table: int, seat: int, account: int, chips: int) -> None:
    """The seat leaves: its chips go back to the account, and a seat change it asked for
    goes with it."""
    post_ledger(
        conn,
        [("cash_out", account, table, -chips), ("cash_out", account, None, chips)],
        memo=f"seat {seat}",
    )
    conn.execute(delete(s.seats).where(s.seats.c.table_id == table, s.seats.c.seat == seat))
    drop_wait(conn, table, account)  # a seat change asked goes with the seat


def leave(
    conn: Connection, table: int, seat: int, account: int, chips: int, request: str | None
) -> None:
    """A player leaves between hands, with their chips."""
    cash_out(conn, table, seat, account, chips)
    audit(conn, account, table, None, request, "leave", "applied",
          f"seat {seat} leaves with {chips}")  # fmt: skip


def leave_after_hand(
    conn: Connection, table: int, seat: int, account: int, request: str | None, detail: str
) -> None:
    """A player dealt in asks to leave: the seat goes when the hand ends."""
    conn.execute(
        update(s.seats)
        .where(s.seats.c.table_id == table, s.seats.c.seat == seat)
        .values(leaving=True)
    )
    audit(conn, account, table, None, request, "leave", "applied", f"seat {seat} {detail}")


def sit_out(
    conn: Connection,
    table: int,
    seat: int,
    account: int,
    status: str,
    request: str | None,
    kind: str,
    detail: str,
) -> None:
    """A seat's status changes (sitting out, back in, reconnected): no hands away since."""
    conn.execute(
        update(s.seats)
        .where(s.seats.c.table_id == table, s.seats.c.seat == seat)
        .values(status=status, away=0)
    )
    audit(conn, account, table, None, request, kind, "applied", f"seat {seat} {detail}")


def top_up(
    conn: Connection,
    table: int,
    seat: int,
    account: int,
    chips: int,
    request: str | None,
    detail: str,
) -> None:
    """A seated player adds ``chips`` from their account."""
    post_ledger(
        conn,
        [("top_up", account, None, -chips), ("top_up", account, table, chips)],
        memo=f"seat {seat}",
    )
    conn.execute(
        update(s.seats)
        .where(s.seats.c.table_id == table, s.seats.c.seat == seat)
        .values(chips=s.seats.c.chips + chips)
    )
    audit(conn, account, table, None, request, "top_up", "applied", detail)


def remove_bot(
    conn: Connection,
    table: int,
    seat: int,
    account: int,
    chips: int,
    *,
    later: bool,
    by: int,
    request: str | None,
    detail: str,
) -> None:
    """A bot is taken off the table: with its chips now, or (``later``) when its hand ends."""
    if later:
        conn.execute(
            update(s.seats)
            .where(s.seats.c.table_id == table, s.seats.c.seat == seat)
            .values(leaving=True)
        )
    else:
        cash_out(conn, table, seat, account, chips)
    audit(conn, by, table, None, request, "remove_bot", "applied", detail)


def bot_rebuy(conn: Connection, table: int, seat: int, account: int, chips: int) -> None:
    """A house bot out of chips buys in again from the cage, so a demo table keeps going."""
    cage = _cage(conn)
    post_ledger(
        conn,
        [
            ("cash_in", cage, None, -chips),
            ("cash_in", account, None, chips),
            ("top_up", account, None, -chips),
            ("top_up", account, table, chips),
        ],
        memo="bot rebuy",
    )
    conn.execute(
        update(s.seats)
        .where(s.seats.c.table_id == table, s.seats.c.seat == seat)
        .values(chips=s.seats.c.chips + chips)
    )


# --- the waiting list ----------------------------------------------------------------------


def count_waits(conn: Connection, account: int) -> int:
    """How many tables' waiting lists ``account`` is on."""
    return int(conn.scalar(select(func.count()).where(s.waits.c.account_id == account)) or 0)


def add_wait(
    conn: Connection,
    table: int,
    account: int,
    since: float,
    wanted: int | None,
    request: str | None,
    detail: str,
) -> None:
    """``account`` joins ``table``'s list (seated: for seat ``wanted``, or any)."""
    conn.execute(
        insert(s.waits).values(table_id=table, account_id=account, since=since, wanted=wanted)
    )
    audit(conn, account, table, None, request, "wait", "applied", detail)


def unwait(conn: Connection, table: int, account: int, request: str | None, detail: str) -> None:
    """``account`` leaves ``table``'s list."""
    drop_wait(conn, table, account)
    audit(conn, account, table, None, request, "unwait", "applied", detail)


def drop_wait(conn: Connection, table: int, account: int) -> None:
    """Take ``account`` off ``table``'s waiting list (croupier.server.rooms.waiting)."""
    conn.execute(
        delete(s.waits).where(s.waits.c.table_id == table, s.waits.c.account_id == account)
    )


_CHANGE_KINDS = {"lapse": "offer_lapsed", "move": "seat_change", "offer": "seat_offer"}


def fill_seats(
    conn: Connection,
    table: int,
    bots: Iterable[SeatState],
    changes: Iterable[SeatChange],
    until: float,
) -> None:
    """Between hands: ``bots`` give their seats up to people waiting (leaving with their
    chips), holds lapse, seated players move, and newcomers have seats held until ``until``."""
    for bot in bots:
        cash_out(conn, table, bot.seat, bot.account, bot.chips)
        detail = f"{bot.name} gives seat {bot.seat} up to a person waiting"
        audit(conn, None, table, None, None, "bot_leaves", "ruling", detail)
    for change in changes:
        if change.kind == "offer":
            conn.execute(
                update(s.waits)
                .where(s.waits.c.table_id == table, s.waits.c.account_id == change.account)
                .values(offer=change.seat, offer_until=until)
            )
        else:
            drop_wait(conn, table, change.account)
        if change.kind == "move":
            conn.execute(
                update(s.seats)
                .where(s.seats.c.table_id == table, s.seats.c.seat == change.before)
                .values(seat=change.seat)
            )
        kind = _CHANGE_KINDS[change.kind]
        audit(conn, change.account, table, None, None, kind, "ruling", change.detail)


# --- closing -------------------------------------------------------------------------------


def mark_closing(
    conn: Connection,
    table: int,
    account: int,
    hand: int | None,
    request: str | None,
    detail: str,
) -> None:
    """The table deals no more hands (it closes after the hand in play, if any)."""
    conn.execute(update(s.tables).where(s.tables.c.id == table).values(status="closing"))
    audit(conn, account, table, hand, request, "close", "applied", detail)


def close_table(
    conn: Connection, table: int, reason: str, limit: str | None, expires: float
) -> dict[int, int]:
    """Close a table between hands: every seat is cashed out, the waiting list emptied, the
    lease let go. With a ``limit`` (the book gives a broken game's stack the right to sit at
    a game of that limit), each person's stack may sit elsewhere until ``expires``; the stacks
    moved so, by account."""
    rows = list(conn.execute(select(s.seats).where(s.seats.c.table_id == table)))
    moved: dict[int, int] = {}
    for row in rows:
        cash_out(conn, table, row.seat, row.account_id, row.chips)
        if limit is not None and row.bot is None and row.chips > 0:
            conn.execute(
                insert(s.transfers).values(
                    account_id=row.account_id, from_table=table, limit_key=limit,
                    chips=row.chips, expires=expires,
                )
            )  # fmt: skip
            moved[row.account_id] = row.chips
    conn.execute(delete(s.waits).where(s.waits.c.table_id == table))
    conn.execute(
        update(s.tables)
        .where(s.tables.c.id == table)
        .values(status="closed", lease_owner=None, lease_until=0)
    )
    audit(conn, None, table, None, None, "close", "ruling",
          f"table closed ({reason}); {len(rows)} seats cashed out")  # fmt: skip
    return moved


def transfer_of(conn: Connection, account: int, key: str, chips: int) -> tuple[int, int] | None:
    """The account's unexpired right to sit with exactly ``chips`` at a game of this limit
    (``key``: seating.limit_key), from a table the house closed: (its id, the closed table);
    None without one."""
    row = conn.execute(
        select(s.transfers.c.id, s.transfers.c.from_table).where(
            s.transfers.c.account_id == account,
            s.transfers.c.limit_key == key,
            s.transfers.c.chips == chips,
            s.transfers.c.expires > time.time(),
        )
    ).first()
    return None if row is None else (int(row.id), int(row.from_table))


def limit_parts(key: str) -> tuple[str | None, str, str, str]:
    """seating.limit_key's parts again: the rulebook (None for house rules, which the key
    writes "None"), the game, the structures and the stakes."""
    rulebook, game, structures, stakes = key.split(":", 3)
    return (None if rulebook == str(None) else rulebook), game, structures, stakes


def open_transfers(conn: Connection, account: int) -> list[dict[str, object]]:
    """The account's unexpired rights to sit with a broken game's stack (cardroom buy-in 3),
    oldest first, as the ``welcome`` message tells them: the closed table, the stack, the
    limit (:func:`limit_parts`; the rulebook null for house rules), the rule that gives
    the right and when the right ends."""
    rows = conn.execute(
        select(s.transfers)
        .where(s.transfers.c.account_id == account, s.transfers.c.expires > time.time())
        .order_by(s.transfers.c.id)
    )
    rights: list[dict[str, object]] = []
    for row in rows:
        rulebook, game, structure, stakes = limit_parts(row.limit_key)
        rights.append(
            {"from_table": row.from_table, "chips": row.chips, "rulebook": rulebook,
             "game": game, "structure": structure, "stakes": stakes,
             "clause": _transfer_clause(rulebook, game), "expires": row.expires}
        )  # fmt: skip
    return rights


def _transfer_clause(rulebook: str | None, game: str) -> str:
    """The rule that gives a broken game's stack the right to sit: the book's
    ``broken_game_transfer`` clause, or the house's own rule."""
    if rulebook is None:
        return "house rules: a stack moved from a closed table plays on"
    return load_rulebook(rulebook).setting("broken_game_transfer", game).clause


def waits_of(conn: Connection, account: int) -> list[dict[str, object]]:
    """The lists ``account`` is on, as the ``welcome`` message tells them: each table, and
    the seat held for them there, if any, until when."""
    rows = conn.execute(
        select(s.waits).where(s.waits.c.account_id == account).order_by(s.waits.c.since)
    )
    return [{"table": r.table_id, "offer": r.offer, "offer_until": r.offer_until} for r in rows]


def places_of(conn: Connection, account: int) -> dict[str, list[dict[str, Any]]]:
    """Where the account is, as ``welcome`` and ``GET /api/me`` tell it: the seats it sits in,
    its rights to sit with a broken game's stack, and the waiting lists it is on."""
    mine = select(s.seats.c.table_id, s.seats.c.seat).where(s.seats.c.account_id == account)
    return {
        "seats": [{"table": r.table_id, "seat": r.seat} for r in conn.execute(mine)],
        "transfers": open_transfers(conn, account),
        "waits": waits_of(conn, account),
    }
