"""Seats and money at a table (the seat operations of a room, each under its lock): sitting
down, bots, leaving, adding chips, sitting out and coming back, closing. Every change is a ledger
row (or none) and an audit row, written by the store's named functions
(:mod:`croupier.server.store.rooms`) and stored before anyone hears of it. Each change is made
at the engine's table first, which refuses what its rules refuse, and is stored with the table
events it made (``TableActor.write_change``); a seat taken during a hand sits down at the next
deal. The hand itself is croupier.server.rooms.room's; this module sees the room only as a
:class:`~croupier.server.rooms.ports.TableActor`."""

from __future__ import annotations

import time

from croupier.server.records import Actor, Refused, SeatState, Wait
from croupier.server.rooms.game_table import GameTable, RuleError
from croupier.server.rooms.ports import Listener, TableActor
from croupier.server.store import rooms as rows
from croupier.server.store.database import LeaseLost, StoreError
from croupier.server.store.rooms import Job, audit, places_of

__all__ = [
    "Actor",
    "Refused",
    "SeatState",
    "add_bot",
    "audit",
    "check_open",
    "close_now",
    "close_table",
    "leave",
    "limit_key",
    "places_of",
    "remove_bot",
    "returned",
    "sit",
    "sit_out",
    "top_up",
    "write_request",
]

BOT_NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo")
# How long a player whose table closed may sit with the stack they had at a game of the same
# limit (cardroom buy-in 3 gives no time: the card room's choice).
TRANSFER_SECONDS = 3600.0


async def sit(room: TableActor, conn: Listener, request: str, seat: int, chips: int) -> None:
    account = conn.account_id
    assert account is not None
    async with room.lock:
        check_open(room)
        waited = _check_free(room, seat, account) is not None
        game = room.game
        # A broken game's stack, (right, closed table): the right is used by the first sit
        # with that stack at a game of that limit, also one the minimum would have allowed.
        moved: tuple[int, int] | None = None
        if game.broken_game_transfer:
            key = limit_key(game)
            moved = await room.store.aread(lambda c: rows.transfer_of(c, account, key, chips))
        try:
            game.check_buy_in(seat, conn.name, chips, transfer=moved is not None)
        except RuleError as error:
            why = game.cite(str(error))
            room.audit_refusal(account, request, "sit", why)
            raise Refused("refused", why) from None
        state = SeatState(
            seat,
            account,
            conn.name,
            chips,
            "waiting",
            room.bank,
            fresh=moved is None,  # a moved stack is no buy-in, short or full (buy-in 3)
        )
        _sit_down(room, state)
        await _buy_in(room, state, request, moved=moved, waited=waited)
        room.seats[seat] = state
        room.waits.pop(account, None)
        room.server.remember(account, request)
        room.broadcast_seats()
        conn.send(room.state_message(account))
        room.schedule_deal(0.0)


async def add_bot(
    room: TableActor, conn: Actor, request: str, seat: int, chips: int | None
) -> None:
    _check_owner(room, conn, "seats bots")
    async with room.lock:
        check_open(room)
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
        state = SeatState(seat, account, name, amount, "waiting", room.bank, bot="strength",
                          fresh=True)  # fmt: skip
        _sit_down(room, state)
        await _buy_in(room, state, request, by=conn.account_id)
        room.seats[seat] = state
        if conn.account_id is not None:
            room.server.remember(conn.account_id, request)
        room.broadcast_seats()
        room.schedule_deal(0.0)


async def remove_bot(room: TableActor, conn: Actor, request: str, seat: int) -> None:
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
        table, account, chips = room.id, state.account, state.chips
        if not later:
            _stand_up(room, seat)
        await write_request(
            room,
            lambda c: rows.remove_bot(c, table, seat, account, chips, later=later, by=by,
                                      request=request, detail=detail),
            by,
            request,
        )  # fmt: skip
        if later:
            state.leaving = True
        else:
            room.seats.pop(seat)
        room.server.remember(by, request)
        room.broadcast_seats()
        room.schedule_deal(0.0)  # the seat goes to the waiting list between hands


def _sit_down(room: TableActor, state: SeatState) -> None:
    """Between hands the player sits at the engine's table now (the buy-in recorded there);
    during a hand the seat waits for the next deal (au 1.1 'Buy-in'; qld s19(1)-(2); rws 3.4).
    Stored by the caller's write, or undone with it."""
    if room.game.in_hand:
        return
    try:
        room.game.seat(state.seat, state.name, state.chips, buy_in=state.fresh)
    except RuleError as error:
        raise Refused("refused", room.game.cite(str(error))) from None
    state.status, state.fresh = "playing", False


def _stand_up(room: TableActor, seat: int) -> None:
    """The seat leaves the engine's table (a seat still waiting for a deal is not there)."""
    if room.game.occupant(seat) is not None:
        room.game.unseat(seat)


def limit_key(game: GameTable) -> str:
    """What makes two tables "the same game and limit" for a player moved from a broken one
    (cardroom buy-in 3): the book, the game, each round's structure and the stakes (read back
    by :func:`croupier.server.store.rooms.limit_parts`)."""
    structures = ",".join(structure.value for structure in game.rules.betting.structures)
    return f"{game.spec.rulebook}:{game.spec.game}:{structures}:{game.spec.stakes}"


def _check_owner(room: TableActor, conn: Actor, what: str) -> None:
    if conn.account_id != room.owner_id and conn.role not in ("dealer", "admin"):
        raise Refused("unauthorised", f"only the table's owner, a dealer or an admin {what}")


def check_open(room: TableActor) -> None:
    """Refused at a closing table: it takes no new seats, chips or waits."""
    if room.closing is not None:
        raise Refused(
            "closed",
            f"table {room.id} is closing ({room.closing}): it deals no more hands, so it takes "
            "no new seats or chips",
        )


def _check_free(room: TableActor, seat: int, account: int | None) -> Wait | None:
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


def _check_list(room: TableActor, seat: int, account: int | None) -> Wait | None:
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


async def _buy_in(
    room: TableActor,
    state: SeatState,
    request: str | None,
    by: int | None = None,
    moved: tuple[int, int] | None = None,
    waited: bool = False,
) -> None:
    detail = f"seat {state.seat}: {state.name} buys in for {state.chips}"
    if moved is not None:
        detail += (f", the stack they had at table {moved[1]}, which the house closed "
                   "(cardroom buy-in 3)")  # fmt: skip
    table, right = room.id, moved[0] if moved is not None else None
    await write_request(
        room,
        lambda c: rows.sit(c, table, state, request, detail, by=by, moved=right, waited=waited),
        state.account,
        request,
    )


async def write_request(room: TableActor, job: Job, account: int, request: str | None) -> None:
    """Store a request's change (``job``, with what it changed at the engine's table), or
    refuse it as the store's failure says: the table moved to another process, the request was
    applied already, the account cannot pay, or the database failed."""
    try:
        await room.write_change(job)
    except LeaseLost as error:
        await room.store_failed(error)
        raise Refused("elsewhere", "the table moved to another server process") from None
    except StoreError as error:
        if rows.duplicate(error):
            raise Refused("duplicate", "this action id was already applied") from None
        message = str(error)
        if "fewer than" in message:
            room.audit_refusal(account, request, "money", message)
            raise Refused("refused", message.split(": ", 1)[-1]) from None
        raise Refused("unavailable", "the change could not be stored; resend") from None


async def leave(room: TableActor, conn: Actor, request: str) -> None:
    async with room.lock:
        state = _own_seat(room, conn)
        table, seat, account, chips = room.id, state.seat, state.account, state.chips
        if room.game.dealt_in(seat):
            # Chips stay on the table until the hand ends (au 7.5, qld s19(4), rws 3.4).
            why = room.game.cite("leaves after this hand (au 7.5, qld s19(4), rws 3.4)")
            await write_request(
                room, lambda c: rows.leave_after_hand(c, table, seat, account, request, why),
                account, request,
            )  # fmt: skip
            room.server.remember(account, request)
            state.leaving = True
            room.broadcast_seats()
            if room.game.to_act() == seat:
                room.schedule_turn()  # their turn now: played at once (Room.schedule_turn)
            return
        _stand_up(room, seat)
        await write_request(
            room, lambda c: rows.leave(c, table, seat, account, chips, request), account, request
        )
        room.seats.pop(seat)
        room.waits.pop(account, None)
        room.server.remember(account, request)
        room.broadcast_seats()
        room.schedule_deal(0.0)  # the seat left goes to the waiting list between hands


async def top_up(room: TableActor, conn: Actor, request: str, chips: int) -> None:
    async with room.lock:
        state = _own_seat(room, conn)
        check_open(room)
        try:
            room.game.check_top_up(state.seat, chips)
        except RuleError as error:
            why = room.game.cite(str(error))
            room.audit_refusal(state.account, request, "top_up", why)
            raise Refused("refused", why) from None
        table, seat, account = room.id, state.seat, state.account
        seated = room.game.occupant(seat) is not None  # else: a buy-in waiting for the deal
        if seated:
            try:
                room.game.add_chips(seat, chips)
            except RuleError as error:
                why = room.game.cite(str(error))
                room.audit_refusal(account, request, "top_up", why)
                raise Refused("refused", why) from None
        detail = room.game.cite(f"seat {seat} adds {chips} (qld s31(5)-(6), cardroom buy-in 2)")
        await write_request(
            room, lambda c: rows.top_up(c, table, seat, account, chips, request, detail),
            account, request,
        )  # fmt: skip
        if not seated:
            state.chips += chips
        room.server.remember(account, request)
        room.broadcast_seats()
        room.schedule_deal(0.0)


async def sit_out(room: TableActor, conn: Actor, request: str, out: bool) -> None:
    async with room.lock:
        state = _own_seat(room, conn)
        kind = "sit_out" if out else "sit_in"
        status = _step_away(room, state, out)
        await _set_status(room, state, status, request, kind, f"now {status}")
        room.broadcast_seats()
        room.schedule_deal(0.0)


async def returned(room: TableActor, account: int) -> None:
    """A player reconnected: back in the game if the clock sat them out."""
    async with room.lock:
        seat = room.seat_of(account)
        if seat is None:
            return
        state = room.seats[seat]
        if state.away:  # sat out by the clock while away: back in
            status = _step_away(room, state, False)
            await _set_status(room, state, status, None, "return", "reconnected")
        room.broadcast_seats()
        room.schedule_deal(0.0)


def _step_away(room: TableActor, state: SeatState, out: bool) -> str:
    """The seat is dealt out from the next hand on (``out``; the blinds it passes are owed on
    return), or back in, at the engine's table; the status its row takes. A seat not yet at
    the engine's table (taken during a hand) waits for the next deal, or sits out."""
    held = room.game.occupant(state.seat)
    if held is None:
        return "sitting_out" if out else "waiting"
    if held[2] != out:
        room.game.step_away(state.seat, out)
    return "sitting_out" if out else "playing"


async def _set_status(
    room: TableActor, state: SeatState, status: str, request: str | None, kind: str, detail: str
) -> None:
    table, seat, account = room.id, state.seat, state.account
    await write_request(
        room, lambda c: rows.sit_out(c, table, seat, account, status, request, kind, detail),
        account, request,
    )  # fmt: skip
    if request is not None:
        room.server.remember(account, request)
    state.status, state.away = status, 0


async def close_table(room: TableActor, conn: Actor, request: str, reason: str) -> None:
    """The table's owner, a dealer or an admin closes the table: it deals no more hands. The
    hand in play, if any, ends as usual; then every seat leaves with its chips
    (:func:`close_now`)."""
    account = conn.account_id
    assert account is not None
    _check_owner(room, conn, "closes a table")
    async with room.lock:
        check_open(room)
        in_hand = room.game.in_hand
        table, hand_id = room.id, room.hand_id if in_hand else None
        detail = f"the table closes {f'after hand {room.number}' if in_hand else 'now'}: {reason}"
        await write_request(
            room, lambda c: rows.mark_closing(c, table, account, hand_id, request, detail),
            account, request,
        )  # fmt: skip
        room.server.remember(account, request)
        room.closing = reason
        room.send_states()
        room.schedule_deal(0.0)  # between hands the deal closes it (Room._deal_later)


async def close_now(room: TableActor) -> None:
    """A closing table between hands: every seat is cashed out with its chips (chips stay on
    the table until the hand ends: au 7.5, rws 3.4), the table is closed and its lease let go,
    and everyone watching is told. Where the book says so, each player may sit with that stack
    at a game of the same limit for a while (cardroom buy-in 3: a broken game)."""
    table, reason, game = room.id, room.closing or "closed", room.game
    limit = limit_key(game) if game.broken_game_transfer else None
    expires = time.time() + TRANSFER_SECONDS
    for seat in game.engine_seats():
        game.unseat(seat)
    moved = await room.write_change(lambda c: rows.close_table(c, table, reason, limit, expires))
    room.close()
    room.seats.clear()
    room.waits.clear()
    for conn in list(room.viewers):
        conn.rooms.discard(table)
        stack = moved.get(conn.account_id) if conn.account_id is not None else None
        conn.send({"type": "table_closed", "table": table, "reason": reason, "moved_stack": stack})
    room.viewers.clear()
    room.server.let_go(room, "closed", f"table {table} is closed")  # the host forgets it


def _own_seat(room: TableActor, conn: Actor) -> SeatState:
    seat = room.seat_of(conn.account_id)
    if seat is None:
        raise Refused("not_found", f"you have no seat at table {room.id}")
    return room.seats[seat]
