"""Seats and money at a table (the seat operations of
:class:`~croupier.server.rooms.room.Room`, each
under its lock): sitting down, bots, leaving, adding chips, sitting out and
coming back. Every change is a ledger row (or none) and an audit row, stored before anyone hears
of it. The engine's table takes the seats as their rows say at the next deal
(``Room._sync_engine``). The hand itself is croupier.server.rooms.room's."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, delete, insert, select, update

from croupier.rulebooks import load_rulebook
from croupier.server.records import Actor, Refused
from croupier.server.rooms.game_table import GameTable, RuleError
from croupier.server.store import schema as s
from croupier.server.store.database import CAGE, LeaseLost, StoreError, post_ledger

if TYPE_CHECKING:
    from croupier.server.rooms.room import Room
    from croupier.server.rooms.waiting import Wait
    from croupier.server.web.app import Conn

__all__ = [
    "Actor",
    "Refused",
    "SeatState",
    "add_bot",
    "close_now",
    "close_table",
    "drop_wait",
    "leave",
    "places_of",
    "remove_bot",
    "returned",
    "sit",
    "sit_out",
    "top_up",
]

BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")
# How long a player whose table closed may sit with the stack they had at a game of the same
# limit (cardroom buy-in 3 gives no time: the card room's choice).
TRANSFER_SECONDS = 3600.0


@dataclass
class SeatState:
    seat: int
    account: int
    name: str
    chips: int  # as of the last hand's end (plus top-ups)
    status: str  # playing, waiting, sitting_out
    bank: float
    away: int = 0
    leaving: bool = False
    bot: str | None = None
    # The chips are a buy-in the engine's table has not recorded yet: when it seats the player
    # it records the buy-in (a short one counts: cardroom buy-in 2). Stored, and cleared with
    # the deal that stores the engine's record of it, so a restart in between keeps it.
    fresh: bool = False


async def sit(room: Room, conn: Conn, request: str, seat: int, chips: int) -> None:
    account = conn.account_id
    assert account is not None
    async with room.lock:
        _check_open(room)
        waited = _check_free(room, seat, account) is not None
        game = room.game
        # A broken game's stack, (right, closed table): the right is used by the first sit
        # with that stack at a game of that limit, also one the minimum would have allowed.
        moved: tuple[int, int] | None = None
        if game.broken_game_transfer:
            key = limit_key(game)
            moved = await room.store.aread(lambda c: _transfer_of(c, account, key, chips))
        try:
            game.check_buy_in(seat, conn.name, chips, transfer=moved is not None)
        except RuleError as error:
            why = game.cite(str(error))
            room._audit_refusal(account, request, "sit", why)
            raise Refused("refused", why) from None
        state = SeatState(
            seat,
            account,
            conn.name,
            chips,
            "waiting" if game.in_hand else "playing",
            room.bank,
            fresh=moved is None,  # a moved stack is no buy-in, short or full (buy-in 3)
        )
        await _seat_job(room, state, request, "buy_in", moved=moved, waited=waited)
        room.seats[seat] = state
        room.waits.pop(account, None)
        room.server.remember(account, request)
        room.broadcast_seats()
        conn.send(room.state_message(account))
        room._schedule_deal(0.0)


async def add_bot(room: Room, conn: Actor, request: str, seat: int, chips: int | None) -> None:
    _check_owner(room, conn, "seats bots")
    async with room.lock:
        _check_open(room)
        _check_free(room, seat, None)
        amount = chips if chips is not None else room.game.minimum_buy_in
        if amount != room.game.minimum_buy_in and conn.role not in ("dealer", "admin"):
            # Bots play with the house's chips: a player may not stake one more richly.
            raise Refused(
                "unauthorised",
                "a player seats bots with the minimum buy-in "
                f"({room.game.minimum_buy_in}); a dealer may choose another",
            )
        name = f"{BOT_NAMES[(seat - 1) % len(BOT_NAMES)]}-bot-{room.id}-{seat}"
        try:
            room.game.check_buy_in(seat, name, amount)
        except RuleError as error:
            raise Refused("refused", room.game.cite(str(error))) from None
        account = await room.server.bot_account(name)
        state = SeatState(
            seat,
            account,
            name,
            amount,
            "waiting" if room.game.in_hand else "playing",
            room.bank,
            bot="strength",
        )
        await _seat_job(room, state, request, "buy_in", by=conn.account_id)
        room.seats[seat] = state
        if conn.account_id is not None:
            room.server.remember(conn.account_id, request)
        room.broadcast_seats()
        room._schedule_deal(0.0)


async def remove_bot(room: Room, conn: Actor, request: str, seat: int) -> None:
    """The table's owner, a dealer or an admin takes a bot off the table with its chips: at
    once between hands, else when the hand it is dealt into ends (au 7.5, rws 3.4)."""
    _check_owner(room, conn, "removes bots")
    by = conn.account_id
    assert by is not None
    async with room.lock:
        state = room.seats.get(seat)
        if state is None or state.bot is None:
            raise Refused("refused", f"no bot sits in seat {seat}")
        if state.leaving:
            raise Refused("refused", f"{state.name} leaves when this hand ends already")
        later = room.game.dealt_in(seat)
        gone = "leaves when this hand ends" if later else f"leaves with {state.chips}"
        detail = f"seat {seat}: {state.name} {gone}"

        def job(c: Connection) -> None:
            if later:
                c.execute(
                    update(s.seats)
                    .where(s.seats.c.table_id == room.id, s.seats.c.seat == seat)
                    .values(leaving=True)
                )
            else:
                _cash_out(c, room.id, seat, state.account, state.chips)
            audit(c, by, room.id, None, request, "remove_bot", "applied", detail)

        await _write_request(room, job, by, request)
        if later:
            state.leaving = True
        else:
            room.seats.pop(seat)
        room.server.remember(by, request)
        room.broadcast_seats()
        room._schedule_deal(0.0)  # the seat goes to the waiting list between hands


def limit_key(game: GameTable) -> str:
    """What makes two tables "the same game and limit" for a player moved from a broken one
    (cardroom buy-in 3): the book, the game, each round's structure and the stakes."""
    structures = ",".join(structure.value for structure in game.rules.betting.structures)
    return f"{game.spec.rulebook}:{game.spec.game}:{structures}:{game.spec.stakes}"


def _limit_parts(key: str) -> tuple[str | None, str, str, str]:
    """:func:`limit_key`'s parts again: the rulebook (None for house rules, which the key
    writes "None"), the game, the structures and the stakes."""
    rulebook, game, structures, stakes = key.split(":", 3)
    return (None if rulebook == str(None) else rulebook), game, structures, stakes


def open_transfers(conn: Connection, account: int) -> list[dict[str, object]]:
    """The account's unexpired rights to sit with a broken game's stack (cardroom buy-in 3),
    oldest first, as the ``welcome`` message tells them: the closed table, the stack, the
    limit (:func:`limit_key`'s parts; the rulebook null for house rules), the rule that gives
    the right and when the right ends."""
    rows = conn.execute(
        select(s.transfers)
        .where(s.transfers.c.account_id == account, s.transfers.c.expires > time.time())
        .order_by(s.transfers.c.id)
    )
    rights: list[dict[str, object]] = []
    for row in rows:
        rulebook, game, structure, stakes = _limit_parts(row.limit_key)
        rights.append(
            {"from_table": row.from_table, "chips": row.chips, "rulebook": rulebook,
             "game": game, "structure": structure, "stakes": stakes,
             "clause": _transfer_clause(rulebook, game), "expires": row.expires}
        )  # fmt: skip
    return rights


def waits_of(c: Connection, account: int) -> list[dict[str, object]]:
    """The lists ``account`` is on, as the ``welcome`` message tells them: each table, and
    the seat held for them there, if any, until when."""
    rows = c.execute(
        select(s.waits).where(s.waits.c.account_id == account).order_by(s.waits.c.since)
    )
    return [{"table": r.table_id, "offer": r.offer, "offer_until": r.offer_until} for r in rows]


def places_of(c: Connection, account: int) -> dict[str, list[dict[str, Any]]]:
    """Where the account is, as ``welcome`` and ``GET /api/me`` tell it: the seats it sits in,
    its rights to sit with a broken game's stack, and the waiting lists it is on."""
    mine = select(s.seats.c.table_id, s.seats.c.seat).where(s.seats.c.account_id == account)
    return {
        "seats": [{"table": r.table_id, "seat": r.seat} for r in c.execute(mine)],
        "transfers": open_transfers(c, account),
        "waits": waits_of(c, account),
    }


def _transfer_clause(rulebook: str | None, game: str) -> str:
    """The rule that gives a broken game's stack the right to sit: the book's
    ``broken_game_transfer`` clause, or the house's own rule."""
    if rulebook is None:
        return "house rules: a stack moved from a closed table plays on"
    return load_rulebook(rulebook).setting("broken_game_transfer", game).clause


def _transfer_of(conn: Connection, account: int, key: str, chips: int) -> tuple[int, int] | None:
    """The account's unexpired right to sit with exactly ``chips`` at a game of this limit,
    from a table the house closed: (its id, the closed table); None without one."""
    row = conn.execute(
        select(s.transfers.c.id, s.transfers.c.from_table).where(
            s.transfers.c.account_id == account,
            s.transfers.c.limit_key == key,
            s.transfers.c.chips == chips,
            s.transfers.c.expires > time.time(),
        )
    ).first()
    return None if row is None else (int(row.id), int(row.from_table))


def _check_owner(room: Room, conn: Actor, what: str) -> None:
    if conn.account_id != room.owner_id and conn.role not in ("dealer", "admin"):
        raise Refused("unauthorised", f"only the table's owner, a dealer or an admin {what}")


def _check_open(room: Room) -> None:
    if room.closing is not None:
        raise Refused(
            "closed",
            f"table {room.id} is closing ({room.closing}): it deals no more hands, so it takes "
            "no new seats or chips",
        )


def _check_free(room: Room, seat: int, account: int | None) -> Wait | None:
    """Whether ``account`` (None: a bot) may sit in ``seat``: a seat of the table, empty, the
    account's only one, and free as the waiting list stands (:func:`_check_list`); the wait
    it takes the seat by, if any."""
    if not 1 <= seat <= room.game.seats:
        raise Refused(
            "refused",
            f"seat {seat} does not exist: this table has seats 1..{room.game.seats}",
        )
    if seat in room.seats:
        raise Refused("refused", f"seat {seat} is taken by {room.seats[seat].name}")
    if account is not None and room.seat_of(account) is not None:
        raise Refused("refused", "you already sit at this table: one seat per player")
    return _check_list(room, seat, account)


def _check_list(room: Room, seat: int, account: int | None) -> Wait | None:
    """Refused by the waiting list: a seat held for another, a hold that lapsed, or a free
    seat while others wait for one (croupier.server.rooms.waiting)."""
    rule = room.game.seat_rule
    own = room.waits.get(account) if account is not None else None
    for w in room.waits.values():
        if w.offer == seat and w is not own:
            raise Refused("refused", f"seat {seat} is held for {w.name}, who won it ({rule})")
    if own is not None and own.offer is not None:
        if own.offer != seat:
            raise Refused("refused", f"seat {own.offer} is held for you: sit there ({rule})")
        if own.offer_until is not None and own.offer_until <= time.time():
            raise Refused("refused", f"the hold on seat {seat} lapsed; ask to wait again")
        return own
    waiting = [w for w in room.waits.values() if w.offer is None and w is not own]
    if waiting:
        raise Refused(
            "refused",
            f"{len(waiting)} waiting for a seat here: a free seat goes to them first, by the "
            f"table's order ({rule}); join the waiting list",
        )
    return own


async def _seat_job(
    room: Room,
    state: SeatState,
    request: str | None,
    kind: str,
    by: int | None = None,
    moved: tuple[int, int] | None = None,
    waited: bool = False,
) -> None:
    bot = state.bot is not None
    detail = f"seat {state.seat}: {state.name} buys in for {state.chips}"
    if moved is not None:
        detail += (f", the stack they had at table {moved[1]}, which the house closed "
                   "(cardroom buy-in 3)")  # fmt: skip

    def job(conn: Connection) -> None:
        if bot:
            cage = _account(conn, CAGE)
            post_ledger(
                conn,
                [
                    ("cash_in", cage, None, -state.chips),
                    ("cash_in", state.account, None, state.chips),
                ],
                memo=f"bot stake at table {room.id}",
            )
        post_ledger(
            conn,
            [
                (kind, state.account, None, -state.chips),
                (kind, state.account, room.id, state.chips),
            ],
            memo=f"seat {state.seat}",
        )
        conn.execute(
            insert(s.seats).values(
                table_id=room.id,
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
            drop_wait(conn, room.id, state.account)
        if moved is not None:  # the right is used once
            used = conn.execute(delete(s.transfers).where(s.transfers.c.id == moved[0]))
            if used.rowcount != 1:
                raise StoreError("the right to sit with that stack was used already")
        audit(conn, by if bot else state.account, room.id, None, request, "sit", "applied", detail)

    await _write_request(room, job, state.account, request)


async def _write_request(
    room: Room, job: Callable[[Connection], None], account: int, request: str | None
) -> None:
    try:
        await room.store.write(job, room.id)
    except LeaseLost as error:
        await room._store_failed(error)
        raise Refused("elsewhere", "the table moved to another server process") from None
    except StoreError as error:
        if _duplicate(error):
            raise Refused("duplicate", "this action id was already applied") from None
        message = str(error)
        if "fewer than" in message:
            room._audit_refusal(account, request, "money", message)
            raise Refused("refused", message.split(": ", 1)[-1]) from None
        raise Refused("unavailable", "the change could not be stored; resend") from None


async def leave(room: Room, conn: Conn, request: str) -> None:
    async with room.lock:
        state = _own_seat(room, conn)
        if room.game.dealt_in(state.seat):
            # Chips stay on the table until the hand ends (au 7.5, qld s19(4), rws 3.4).
            why = room.game.cite("leaves after this hand (au 7.5, qld s19(4), rws 3.4)")
            await _set_seat(room, state, request, "leave", {"leaving": True}, why)
            state.leaving = True
            room.broadcast_seats()
            return
        seat, account, chips = state.seat, state.account, state.chips

        def job(conn_: Connection) -> None:
            _cash_out(conn_, room.id, seat, account, chips)
            audit(
                conn_,
                account,
                room.id,
                None,
                request,
                "leave",
                "applied",
                f"seat {seat} leaves with {chips}",
            )

        await _write_request(room, job, account, request)
        room.seats.pop(seat)
        room.waits.pop(account, None)
        room.server.remember(account, request)
        room.broadcast_seats()
        room._schedule_deal(0.0)  # the seat left goes to the waiting list between hands


async def top_up(room: Room, conn: Conn, request: str, chips: int) -> None:
    async with room.lock:
        state = _own_seat(room, conn)
        _check_open(room)
        try:
            room.game.check_top_up(state.seat, chips)
        except RuleError as error:
            why = room.game.cite(str(error))
            room._audit_refusal(state.account, request, "top_up", why)
            raise Refused("refused", why) from None
        seat, account = state.seat, state.account

        def job(conn_: Connection) -> None:
            post_ledger(
                conn_,
                [("top_up", account, None, -chips), ("top_up", account, room.id, chips)],
                memo=f"seat {seat}",
            )
            conn_.execute(
                update(s.seats)
                .where(s.seats.c.table_id == room.id, s.seats.c.seat == seat)
                .values(chips=s.seats.c.chips + chips)
            )
            audit(
                conn_,
                account,
                room.id,
                None,
                request,
                "top_up",
                "applied",
                room.game.cite(f"seat {seat} adds {chips} (qld s31(5)-(6), cardroom buy-in 2)"),
            )

        await _write_request(room, job, account, request)
        state.chips += chips
        room.server.remember(account, request)
        room.broadcast_seats()
        room._schedule_deal(0.0)


async def sit_out(room: Room, conn: Conn, request: str, out: bool) -> None:
    async with room.lock:
        state = _own_seat(room, conn)
        status = "sitting_out" if out else "playing"
        if state.status == "waiting" and not out:
            status = "waiting"
        await _set_seat(
            room,
            state,
            request,
            "sit_out" if out else "sit_in",
            {"status": status, "away": 0},
            f"now {status}",
        )
        state.status, state.away = status, 0
        room.broadcast_seats()
        room._schedule_deal(0.0)


async def returned(room: Room, account: int) -> None:
    """A player reconnected: back in the game if the clock sat them out."""
    async with room.lock:
        seat = room.seat_of(account)
        if seat is None:
            return
        state = room.seats[seat]
        if state.away:  # sat out by the clock while away: back in
            status = "playing" if state.status == "sitting_out" else state.status
            await _set_seat(
                room, state, None, "return", {"status": status, "away": 0}, "reconnected"
            )
            state.status, state.away = status, 0
        room.broadcast_seats()
        room._schedule_deal(0.0)


async def close_table(room: Room, conn: Actor, request: str, reason: str) -> None:
    """The table's owner, a dealer or an admin closes the table: it deals no more hands. The
    hand in play, if any, ends as usual; then every seat leaves with its chips
    (:func:`close_now`)."""
    account = conn.account_id
    assert account is not None
    _check_owner(room, conn, "closes a table")
    async with room.lock:
        _check_open(room)
        in_hand = room.game.in_hand
        hand_id = room.hand_id if in_hand else None
        when = f"after hand {room.number}" if in_hand else "now"

        def job(conn_: Connection) -> None:
            conn_.execute(update(s.tables).where(s.tables.c.id == room.id).values(status="closing"))
            audit(conn_, account, room.id, hand_id, request, "close", "applied",
                  f"the table closes {when}: {reason}")  # fmt: skip

        await _write_request(room, job, account, request)
        room.server.remember(account, request)
        room.closing = reason
        room.send_states()
        room._schedule_deal(0.0)  # between hands the deal closes it (Room._deal_later)


async def close_now(room: Room) -> None:
    """A closing table between hands: every seat is cashed out with its chips (chips stay on
    the table until the hand ends: au 7.5, rws 3.4), the table is closed and its lease let go,
    and everyone watching is told. Where the book says so, each player may sit with that stack
    at a game of the same limit for a while (cardroom buy-in 3: a broken game)."""
    table, reason, game = room.id, room.closing or "closed", room.game
    limit = limit_key(game) if game.broken_game_transfer else None
    expires = time.time() + TRANSFER_SECONDS
    moved: dict[int, int] = {}  # account: the stack it may sit with elsewhere

    def job(conn: Connection) -> None:
        rows = list(conn.execute(select(s.seats).where(s.seats.c.table_id == table)))
        for row in rows:
            _cash_out(conn, table, row.seat, row.account_id, row.chips)
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

    await room.store.write(job, table)
    room.close()
    room.seats.clear()
    room.waits.clear()
    room.server.rooms.pop(table, None)
    for conn in list(room.viewers):
        conn.rooms.discard(table)
        stack = moved.get(conn.account_id) if conn.account_id is not None else None
        conn.send({"type": "table_closed", "table": table, "reason": reason, "moved_stack": stack})
    room.viewers.clear()


async def _set_seat(
    room: Room,
    state: SeatState,
    request: str | None,
    kind: str,
    values: dict[str, object],
    detail: str,
) -> None:
    seat = state.seat

    def job(conn: Connection) -> None:
        conn.execute(
            update(s.seats)
            .where(s.seats.c.table_id == room.id, s.seats.c.seat == seat)
            .values(**values)
        )
        audit(
            conn,
            state.account,
            room.id,
            None,
            request,
            kind,
            "applied",
            f"seat {seat} {detail}",
        )

    await _write_request(room, job, state.account, request)
    if request is not None:
        room.server.remember(state.account, request)


def _own_seat(room: Room, conn: Conn) -> SeatState:
    seat = room.seat_of(conn.account_id)
    if seat is None:
        raise Refused("not_found", f"you have no seat at table {room.id}")
    return room.seats[seat]


def _duplicate(error: BaseException) -> bool:
    text = str(error).lower()
    return (
        "move_once" in text or "audit_once" in text or ("unique" in text and "request_id" in text)
    )


def _account(conn: Connection, name: str) -> int:
    found = conn.scalar(select(s.accounts.c.id).where(s.accounts.c.name == name))
    assert found is not None
    return int(found)


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


def _cash_out(conn: Connection, table: int, seat: int, account: int, chips: int) -> None:
    post_ledger(
        conn,
        [("cash_out", account, table, -chips), ("cash_out", account, None, chips)],
        memo=f"seat {seat}",
    )
    conn.execute(delete(s.seats).where(s.seats.c.table_id == table, s.seats.c.seat == seat))
    drop_wait(conn, table, account)  # a seat change asked goes with the seat


def drop_wait(conn: Connection, table: int, account: int) -> None:
    """Take ``account`` off ``table``'s waiting list (croupier.server.rooms.waiting)."""
    conn.execute(
        delete(s.waits).where(s.waits.c.table_id == table, s.waits.c.account_id == account)
    )


def _bot_rebuy(conn: Connection, table: int, state: SeatState, chips: int) -> None:
    """A house bot out of chips buys in again from the cage, so a demo table keeps going."""
    cage = _account(conn, CAGE)
    post_ledger(
        conn,
        [
            ("cash_in", cage, None, -chips),
            ("cash_in", state.account, None, chips),
            ("top_up", state.account, None, -chips),
            ("top_up", state.account, table, chips),
        ],
        memo="bot rebuy",
    )
    conn.execute(
        update(s.seats)
        .where(s.seats.c.table_id == table, s.seats.c.seat == state.seat)
        .values(chips=s.seats.c.chips + chips)
    )
