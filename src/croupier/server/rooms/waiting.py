"""A table's waiting list (the operations of a room on it, each under the room's lock, the room
seen as a :class:`~croupier.server.rooms.ports.TableActor`): people waiting for a seat at a full
table, and seated players asking for a seat change.

A seat that comes free goes by the book's priority (``seat_priority``): under au 11.1(a) the
players seated in the game come before anyone waiting to join; under qld s16(2) the players in
the game since it started, then the other players, then people joining. Equals draw cards for it
(qld s16(3)-(4); a tie of ranks by suit, cardroom ties 1). A seated winner moves there between
hands (coming in as a new player would); a newcomer has the seat held for
``Options.seat_hold`` seconds, to sit in it with a buy-in, after which the hold lapses and the
seat goes to the next. While anyone waits, nobody else sits down in a free seat, and people
come before bots: between hands a bot leaves, with its chips, for each newcomer no seat is free
for (the card room's rule). Every change is stored, with its audit row (the draw's cards
included), before anyone hears of it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from croupier.server.records import Refused, SeatChange, Wait
from croupier.server.rooms.ports import Listener, TableActor
from croupier.server.rooms.seating import check_open, write_request
from croupier.server.store import rooms as rows

__all__ = [
    "MOST_WAITS",
    "Wait",
    "fill_seats",
    "load_waits",
    "unwait",
    "wait",
    "waiting_list",
]

MOST_WAITS = 20  # tables one account may wait at, at once (the card room's limit)


def load_waits(room: TableActor, stored: list[Any]) -> dict[int, Wait]:
    """The list as stored (rows in the order asked)."""
    return {
        r.account_id: Wait(
            r.account_id,
            room.server.name_of(r.account_id),
            r.since,
            r.wanted,
            r.offer,
            r.offer_until,
        )
        for r in stored
    }


def waiting_list(room: TableActor) -> list[dict[str, object]]:
    """The list as every viewer sees it (it is public, like a card room's board): in the book's
    order for a seat that comes free, each entry with its group's rank (``priority``, 1 comes
    first) and name; within a group in the order asked, though a draw decides among them."""
    if not room.waits:
        return []
    waits = {w.name: w for w in room.waits.values()}
    seat = {name: room.seat_of(w.account) for name, w in waits.items()}
    seated = {name for name, at in seat.items() if at is not None}
    listed: list[dict[str, object]] = []
    for name, rank, group in room.game.waiting_order(list(waits), seated):
        w = waits[name]
        listed.append(
            {
                "name": name,
                "seat": seat[name],
                "wanted": w.wanted,
                "since": w.since,
                "offer": w.offer,
                "offer_until": w.offer_until,
                "priority": rank,
                "group": group,
            }
        )
    return listed


def _free_seats(room: TableActor, held: set[int | None]) -> list[int]:
    """Seats nobody sits in and nobody holds (``held``: the seats held)."""
    return [n for n in range(1, room.game.seats + 1) if n not in room.seats and n not in held]


async def wait(room: TableActor, conn: Listener, request: str, wanted: int | None) -> None:
    """Put the connection's account on the list: for a seat, or (seated) for a seat change, to
    the seat ``wanted`` or to any."""
    account = conn.account_id
    assert account is not None
    async with room.lock:
        check_open(room)
        if account in room.waits:
            raise Refused("refused", "you are on this table's waiting list already")
        seat = room.seat_of(account)
        if seat is not None and room.seats[seat].leaving:
            raise Refused("refused", "you are leaving this table: a seat change needs a seat")
        if wanted is not None and (seat is None or wanted == seat or wanted > room.game.seats):
            raise Refused(
                "refused",
                f"a seated player asks for one of seats 1..{room.game.seats} but their own; "
                "a newcomer takes the seat the list gives",
            )
        free = _free_seats(room, {w.offer for w in room.waits.values()})
        if seat is None and free and all(w.offer is not None for w in room.waits.values()):
            raise Refused(
                "refused", f"seat {free[0]} is free: sit down; the waiting list is for a full table"
            )
        others = await room.store.aread(lambda c: rows.count_waits(c, account))
        if others >= MOST_WAITS:
            raise Refused("refused", f"you wait at {MOST_WAITS} tables already (the card room)")
        now = time.time()
        what = "waits for a seat"
        if seat is not None:
            to = f"seat {wanted}" if wanted is not None else "any seat"
            what = f"in seat {seat} asks to change to {to}"
        table, detail = room.id, f"{conn.name} {what}"
        await write_request(
            room, lambda c: rows.add_wait(c, table, account, now, wanted, request, detail),
            account, request,
        )  # fmt: skip
        room.waits[account] = Wait(account, conn.name, now, wanted)
        room.server.remember(account, request)
        room.broadcast_seats()
        room.schedule_deal(0.0)  # between hands, a free seat is filled at once


async def unwait(room: TableActor, conn: Listener, request: str) -> None:
    """Take the connection's account off the list, giving up a seat held for it."""
    account = conn.account_id
    assert account is not None
    async with room.lock:
        own = room.waits.get(account)
        if own is None:
            raise Refused("refused", "you are not on this table's waiting list")
        gave_up = f", giving up seat {own.offer}" if own.offer is not None else ""
        table, detail = room.id, f"{conn.name} leaves the waiting list{gave_up}"
        await write_request(
            room, lambda c: rows.unwait(c, table, account, request, detail), account, request
        )
        del room.waits[account]
        room.server.remember(account, request)
        room.broadcast_seats()
        if own.offer is not None:
            room.schedule_deal(0.0)  # the seat goes to the next


async def fill_seats(room: TableActor) -> None:
    """Between hands: holds that lapsed end, and each free seat goes to the waiting list by the
    book's priority and a draw among equals (one stored change, then one broadcast)."""
    if room.game.in_hand or room.closing is not None or not room.waits:
        return
    now, rule, game = time.time(), room.game.seat_rule, room.game
    lapsed = [w for w in room.waits.values() if w.offer_until is not None and w.offer_until <= now]
    changes = [
        SeatChange("lapse", w.account,
                   detail=f"the hold on seat {w.offer} for {w.name} lapsed ({rule})")
        for w in lapsed
    ]  # fmt: skip
    pool = [w for w in room.waits.values() if w.offer is None]
    held = {w.offer for w in room.waits.values() if w not in lapsed}
    where = {st.account: st.seat for st in room.seats.values()}
    free = _free_seats(room, held)
    # People come before bots: a bot gives its seat up for each newcomer no seat is free for.
    short = sum(w.account not in where for w in pool) - len(free)
    bots = [room.seats[n] for n in sorted(room.seats) if room.seats[n].bot is not None]
    bots = bots[: max(0, short)]
    free = sorted([*free, *(bot.seat for bot in bots)])
    while True:
        # The lowest free seat anyone on the list takes (a seat change may ask for one seat).
        wanting = [(n, c) for n in free if (c := [w for w in pool if w.wanted in (None, n)])]
        if not wanting:
            break
        seat, claims = wanting[0]
        free.remove(seat)
        seated = {w.name for w in claims if w.account in where}
        winner, group, drawn = game.vacated_seat_winner([w.name for w in claims], seated)
        chosen = next(w for w in claims if w.name == winner)
        pool.remove(chosen)
        why = f"seat {seat} came free: {winner} first among {group}"
        if drawn:
            cards = ", ".join(f"{name} {card}" for name, card in drawn)
            why += f", by a draw ({cards}; the highest card wins, a tie of ranks by suit)"
        before = where.get(chosen.account)
        if before is not None:
            where[chosen.account] = seat
            free = sorted([*free, before])
            changes.append(
                SeatChange("move", chosen.account, seat, before, f"{why}; moves from seat {before}")
            )
        else:
            why += f"; held for {room.server.options.seat_hold:.0f} s ({rule})"
            changes.append(SeatChange("offer", chosen.account, seat, detail=why))
    if not changes and not bots:
        _arm_lapse(room)  # holds kept (after a restart too) still lapse on time
        return
    until = now + room.server.options.seat_hold
    table = room.id
    # At the engine's table too, in this order: each move's seat is free by then.
    for bot in bots:
        if game.occupant(bot.seat) is not None:
            game.unseat(bot.seat)
    for change in changes:
        if change.kind == "move" and game.occupant(change.before or 0) is not None:
            assert change.before is not None and change.seat is not None
            game.move(change.before, change.seat)
    await room.write_change(lambda c: rows.fill_seats(c, table, bots, changes, until))
    for bot in bots:
        del room.seats[bot.seat]
    for change in changes:
        w = room.waits[change.account]
        if change.kind == "offer":
            w.offer, w.offer_until = change.seat, until
            # Told wherever they are (the lobby, another table), not only at this table.
            offer = {"type": "seat_offer", "table": room.id, "name": room.name,
                     "seat": change.seat, "until": until}  # fmt: skip
            for conn in list(room.server.conns.get(w.account, ())):
                conn.send(offer)
            continue
        del room.waits[w.account]
        if change.kind == "move":
            assert change.before is not None and change.seat is not None
            state = room.seats.pop(change.before)
            state.seat = change.seat
            room.seats[change.seat] = state
    room.broadcast_seats()
    _arm_lapse(room)


def _arm_lapse(room: TableActor) -> None:
    """Wake the table when the next hold lapses (a deal, or the next one, fills its seat)."""
    if room.lapse is not None:
        room.lapse.cancel()
        room.lapse = None
    ends = [w.offer_until for w in room.waits.values() if w.offer_until is not None]
    if ends and not room.closed:
        delay = max(0.0, min(ends) - time.time()) + 0.05
        room.lapse = asyncio.get_running_loop().call_later(delay, room.schedule_deal, 0.0)
