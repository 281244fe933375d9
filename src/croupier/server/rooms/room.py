"""One table in play: seats and money, the hand, the clock, bots, and what each viewer is sent.

A room is an actor: every change runs under its lock, is stored by the writer (and committed)
and only then broadcast. What the room holds in memory can always be rebuilt from the database
(:mod:`croupier.server.store.rooms`): the seats from their rows, the engine's table from its
stored table events (the button, the blinds due and missed), the hand in progress by dealing
again from its stored deck and re-applying its stored moves, checked against the stored event
log. A hand that cannot be rebuilt is void: every contribution goes back (rws 5.1; cardroom
irregularities 3).

Seats have one truth: the engine's table. A seat change (sitting down, leaving, adding chips,
sitting out, a move on the waiting list, the end of a hand) is made at the engine's table first,
under the lock, and the table events it makes are stored in the same transaction as the change's
rows (:meth:`Room.write_change`); the seat rows, and each :class:`SeatState`'s chips and status,
are their projection (:meth:`Room._project`). Only a seat taken while a hand is played waits:
players sit down between hands (au 1.1 'Buy-in'; qld s19(1)-(2); rws 3.4), so it is seated at
the engine's table before the next deal (:meth:`Room._seat_waiting`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from croupier.server.records import HandEnd, Move, Refused, SeatState
from croupier.server.rooms.game_table import GameTable, RuleError, bot_move
from croupier.server.rooms.ports import Host, Listener
from croupier.server.rooms.seating import close_now
from croupier.server.rooms.table_spec import TableSpec
from croupier.server.rooms.waiting import Wait, fill_seats, load_waits, waiting_list
from croupier.server.store import rooms as rows
from croupier.server.store.database import LeaseLost, StoreError
from croupier.server.store.rooms import Job, Row, Snapshot, read_snapshot, stored_hand
from croupier.server.store.table_log import TableLogError, dumps_event, encode, loads_events
from croupier.wire import dumps, loads

__all__ = ["Refused", "Room", "SeatState"]

T = TypeVar("T")
log = logging.getLogger("croupier.server")
VOID_RULE = "rws 5.1; cardroom irregularities 3; au 19.1(h)"
DEAL_RETRY = 1.0  # seconds before a deal the database failed to store is tried again


@dataclass(frozen=True)
class Shown:
    """What viewers are told of the hand in play: the engine's hand as it was last stored.
    The engine runs ahead of it while a move is being written (a deal is not even the hand in
    play until stored: GameTable.deal), and it catches up after the commit (Room._show), so
    a state, whenever it is asked for, holds nothing the database does not (docs/protocol.md)."""

    events: int = 0  # how many of the hand's events are stored
    to_act: int | None = None
    pot: int = 0
    legal: dict[str, object] | None = None  # what the person to act may do (a bot: None)


class Room:
    def __init__(self, server: Host[Room], snapshot: Snapshot) -> None:
        self.server = server
        self.store = server.store
        self.id = int(snapshot.table.id)
        self.lock = asyncio.Lock()
        self.viewers: dict[Listener, None] = {}
        self.closed = False
        self._turn_task: asyncio.Task[None] | None = None
        # A person's clock: one timer a table, due at _timer_at (wall clock) or sooner, and the
        # turn it runs for (seat, hand number, moves), None when none.
        self._turn_timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._clock_for: tuple[int, int, int] | None = None
        self._deal_task: asyncio.Task[None] | None = None
        self.lapse: asyncio.TimerHandle | None = None  # when the next held seat's hold ends
        self.void_reason: str | None = None
        self.closing: str | None = None  # why, once the table is closing (seating.close_table)
        self._install(snapshot)

    # --- loading ---------------------------------------------------------------------------

    def _install(self, snap: Snapshot) -> None:
        row = snap.table
        self.name = str(row.name)
        self.owner_id = int(row.owner_id)
        self.spec = TableSpec.from_json(loads(row.spec))
        self.clock = float(row.clock)
        self.bank = float(row.bank)
        self.sit_out_after = int(row.sit_out_after)
        self.pause = float(row.pause)
        self.hands = int(row.hands)
        if row.status == "closing":  # the reason is kept in memory; after a restart, this
            self.closing = self.closing or "it was closing when the server restarted"
        self.seats: dict[int, SeatState] = {
            r.seat: SeatState(
                r.seat,
                r.account_id,
                self.server.name_of(r.account_id),
                r.chips,
                r.status,
                r.bank,
                r.away,
                r.leaving,
                r.bot,
                r.fresh,
            )
            for r in snap.seats
        }
        self.waits: dict[int, Wait] = load_waits(self, snap.waits)
        self.hand_id: int | None = None
        self.number = self.hands
        self.moves = 0
        self.clock_end: float | None = None
        self.bank_end: float | None = None
        self.timed_out: set[int] = set()
        self.void_reason = None
        self.rebuilt = False  # a hand in progress dealt again from the store, to be audited
        self.shown = Shown()
        events = loads_events(snap.events)  # a log that does not read back stops the room
        hand = snap.hand
        if hand is None:
            self.game = GameTable.restored(self.spec, events)
            self._adopt_rows()
            return
        self.hand_id, self.number = int(hand.id), int(hand.number)
        # The turn's deadlines: stored with the last move, or with the deal before any move.
        last = snap.moves[-1] if snap.moves else hand
        self.clock_end, self.bank_end = last.clock_end, last.bank_end
        self.moves = len(snap.moves)
        try:
            self.game = GameTable.restored(self.spec, events, stored_hand(hand, snap.moves))
            self.rebuilt = True
            self._show()
        except (RuleError, TableLogError, ValueError, KeyError, TypeError) as error:
            self.void_reason = f"the hand could not be rebuilt after a restart ({error})"
            self.game = GameTable.restored(self.spec, events)  # the hand open, to be voided
        self._adopt_rows()

    def _adopt_rows(self) -> None:
        """A database written before seats had one truth (by croupier before December 2026)
        may hold seat rows ahead of the table's events: a seat taken, left, topped up or sat
        out between its write and the next deal. The engine's table takes them now, as far as
        the rules allow in the state it is in; :meth:`resume` stores what this changed. Tables
        written since never differ (tests/test_room.py checks the rows are the events'
        projection)."""
        game = self.game
        for seat in game.engine_seats():
            held, state = game.occupant(seat), self.seats.get(seat)
            if held is not None and (state is None or state.name != held[0]):
                self._adopt(f"seat {seat}: {held[0]} leaves", game.unseat, seat)
        for state in self.seats.values():
            held = game.occupant(state.seat)
            if held is None:
                if state.status != "waiting" and state.chips > 0 and not game.in_hand:
                    self._adopt(f"seat {state.seat}: {state.name} sits", game.seat, state.seat,
                                state.name, state.chips, buy_in=state.fresh)  # fmt: skip
                continue
            if state.chips > held[1]:
                self._adopt(f"seat {state.seat} adds {state.chips - held[1]}", game.add_chips,
                            state.seat, state.chips - held[1])  # fmt: skip
            if (state.status == "sitting_out") != held[2]:
                self._adopt(f"seat {state.seat} away: {not held[2]}", game.step_away,
                            state.seat, not held[2])  # fmt: skip
        self._project()

    def _adopt(self, what: str, change: Callable[..., None], *args: Any, **kwargs: Any) -> None:
        try:
            change(*args, **kwargs)
            log.warning("table %s: seat rows ahead of the table's events: %s", self.id, what)
        except RuleError as error:
            log.warning("table %s: seat rows ahead of the table's events: %s refused (%s)",
                        self.id, what, error)  # fmt: skip

    def _project(self) -> None:
        """Each seat's chips and status as the engine's table has them (the seat rows hold the
        same projection): a seat not at the engine's table waits for the next deal."""
        game = self.game
        for state in self.seats.values():
            held = game.occupant(state.seat)
            if held is not None:
                state.chips = held[1]
                state.status = "sitting_out" if held[2] else "playing"
                state.fresh = False

    async def write_change(self, job: Callable[[Any], T]) -> T:
        """Store a seat change: ``job``'s rows with the table events the change made at the
        engine's table, in one transaction; then each seat shows what the engine's table has.
        A failed write leaves the engine's table as stored (the change never happened)."""
        events = self._event_rows()
        try:
            result = await self.store.write(
                job, self.id, [(rows.INSERT_EVENT, row) for row in events]
            )
        except BaseException:
            self.game.rollback()
            raise
        self.game.saved += len(events)
        self._project()
        return result

    async def resume(self) -> None:
        """After loading: void a hand that could not be rebuilt, restart clocks and deals."""
        if self.game.unsaved() and self.void_reason is None:  # seat rows adopted (_adopt_rows)
            table, adopted = self.id, len(self.game.unsaved())
            text = f"{adopted} seat changes of the seat rows recorded at the table"
            try:
                await self.write_change(
                    lambda c: rows.audit(c, None, table, None, None, "resume", "ruling", text)
                )
            except StoreError:  # not played on without them: loaded again once it can store
                self.server.let_go(self, "unavailable", f"table {table} is being reloaded")
                return
        if self.void_reason is not None:
            await self._void(self.void_reason, None)
            return
        if self.rebuilt:
            self.rebuilt = False
            text = (f"hand {self.number} rebuilt from its stored deck and {self.moves} moves; "
                    "every event as stored")  # fmt: skip
            table, hand_id = self.id, self.hand_id
            with contextlib.suppress(StoreError):
                await self.store.write(
                    lambda c: rows.audit(c, None, table, hand_id, None, "resume", "ruling", text),
                    table,
                )
        if self.game.in_hand:
            self.schedule_turn()
        else:
            self.schedule_deal(0.0)

    # --- views -----------------------------------------------------------------------------

    def seat_of(self, account: int | None) -> int | None:
        for state in self.seats.values():
            if state.account == account:
                return state.seat
        return None

    def seat_list(self) -> list[dict[str, object]]:
        return [
            {
                "seat": st.seat,
                "name": st.name,
                "chips": st.chips,
                "status": st.status,
                "leaving": st.leaving,
                "connected": st.bot is not None or self.server.connected(st.account),
                "bot": st.bot is not None,
                "bank": st.bank,
            }
            for st in sorted(self.seats.values(), key=lambda x: x.seat)
        ]

    def state_message(
        self, account: int | None, shared: dict[str, Any] | None = None
    ) -> dict[str, object]:
        """The table as ``account`` may see it. ``shared``: :meth:`_state_shared`, made once
        when every viewer is sent its state."""
        seat = self.seat_of(account)
        shared = shared or self._state_shared()
        hand: dict[str, object] | None = None
        if shared["hand"] is not None:
            events = self.game.visible(seat)[: self.shown.events]
            hand = {**shared["hand"], "events": events, **self._turn(seat)}
        return {**shared["table"], "you": seat, "hand": hand}

    def _state_shared(self) -> dict[str, Any]:
        """The parts of a state message every viewer is sent alike."""
        game = self.game
        hand: dict[str, object] | None = None
        if game.hand is not None and game.start is not None and self.hand_id is not None:
            hand = {
                "number": self.number,
                "button": game.start.button,
                "order": list(game.order),
                "starting": list(game.start.starting),
                "pot": self.shown.pot,
            }
        table = {
            "type": "state",
            "table": self.id,
            "name": self.name,
            "spec": self.spec.to_json(),
            "owner": self.server.name_of(self.owner_id),
            "closing": self.closing,
            "seats": self.seat_list(),
            "waiting": waiting_list(self),
        }
        return {"table": table, "hand": hand}

    def send_states(self) -> None:
        """Every viewer its state: at a new hand, a void, or the table reloaded."""
        shared = self._state_shared()
        for conn in list(self.viewers):
            conn.send(self.state_message(conn.account_id, shared))

    def _turn(self, seat: int | None) -> dict[str, object]:
        shown = self.shown
        to_act = shown.to_act
        return {
            "to_act": to_act,
            "clock_end": self.clock_end if to_act is not None else None,
            "bank_end": self.bank_end if to_act is not None else None,
            "legal": shown.legal if to_act is not None and to_act == seat else None,
        }

    def _show(self) -> None:
        """The engine's hand, as it is now, is stored: it is what viewers are shown."""
        game = self.game
        to_act = game.to_act()
        person = to_act is not None and to_act in self.seats and self.seats[to_act].bot is None
        self.shown = Shown(game.event_count(), to_act, game.pot(), game.legal() if person else None)

    def _broadcast_events(self, start: int, cause: str | None) -> None:
        """Each viewer's events, as its seat may see them. The message is written once for all
        who see alike (the events are public but for hole cards; only the seat to act is sent
        what it may do), and the same text goes to each of them."""
        to_act, pot = self.shown.to_act, self.shown.pot
        public = self.game.public_events(start)  # most moves: the same events for everyone
        by_seat: dict[int | None, str] = {}
        alike: list[tuple[list[dict[str, object]], str]] = []  # seen by seats not to act
        for conn in list(self.viewers):
            seat = self.seat_of(conn.account_id)
            text = by_seat.get(seat)
            if text is None:
                events = public if public is not None else self.game.visible(seat, start)
                acting = seat is not None and seat == to_act
                if not acting:
                    text = next((t for seen, t in alike if seen == events), None)
                if text is None:
                    text = dumps(
                        {
                            "type": "events",
                            "table": self.id,
                            "hand": self.number,
                            "from": start,
                            "events": events,
                            "pot": pot,
                            "cause": cause,
                            **self._turn(seat),
                        }
                    )
                    if not acting:
                        alike.append((events, text))
                by_seat[seat] = text
            conn.send_text(text)

    def broadcast(self, message: dict[str, object]) -> None:
        if self.viewers:
            text = dumps(message)  # written once, the same text for every viewer
            for conn in list(self.viewers):
                conn.send_text(text)

    def broadcast_seats(self) -> None:
        self.broadcast(
            {
                "type": "seats",
                "table": self.id,
                "seats": self.seat_list(),
                "waiting": waiting_list(self),
            }
        )

    # --- the hand --------------------------------------------------------------------------

    def schedule_deal(self, delay: float) -> None:
        """Deal after ``delay`` unless a deal is pending already (the deal in progress may ask
        for the next: a deal that failed to be stored is dealt again)."""
        task = self._deal_task
        if self.closed or (
            task is not None and not task.done() and task is not asyncio.current_task()
        ):
            return
        self._deal_task = asyncio.create_task(self._deal_later(delay))

    async def _deal_later(self, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        async with self.lock:
            if self.closed or self.game.in_hand:
                return
            try:
                if self.closing is not None:
                    await close_now(self)
                else:
                    await fill_seats(self)
                    await self._start_hand()
            except (LeaseLost, StoreError) as error:
                if not isinstance(error, LeaseLost):
                    await asyncio.sleep(DEAL_RETRY)  # a database that fails: not at once again
                await self.store_failed(error)
            except Exception:
                log.exception("table %s: dealing failed", self.id)

    async def _start_hand(self) -> None:
        await self._seat_waiting()
        if not self.game.can_deal():
            return
        # Dealt at the engine's table, the hand is taken as the one in play (and shown) only
        # once stored: until then viewers are shown the hand before.
        deal = self.game.deal()
        start = deal.start
        table_events = self._event_rows()
        forced = dumps(encode(deal.hand.forced))
        number = self.hands + 1
        to_act = deal.to_act
        now = time.time()
        clock_end, bank_end = self._deadlines(to_act, now)
        dealt = [
            [
                seat,
                self.seats[seat].account,
                self.seats[seat].name,
                self.seats[seat].chips,
                start.starting[i],
            ]
            for i, seat in enumerate(start.order)
        ]

        hand = {
            "table_id": self.id, "number": number, "status": "playing",
            "spec": dumps(self.spec.to_json()), "deck": dumps(list(start.deck)),
            "seed": start.seed, "button": start.button, "seats": dumps(dealt),
            "events": dumps(list(start.events)), "forced": forced, "to_act": to_act,
            "clock_end": clock_end, "bank_end": bank_end, "started": now,
        }  # fmt: skip
        try:
            # With the batch's others: the table's events and the hand's row, whose new id
            # the writer reads back.
            written = [(rows.INSERT_EVENT, row) for row in table_events]
            self.hand_id = await self.store.insert(rows.INSERT_HAND, hand, self.id, written)
        except BaseException:
            self.game.rollback()  # nothing was stored: the deal never happened
            raise
        self.game.saved += len(table_events)
        self.game.take(deal)
        self.number = number
        self.moves = 0
        self.timed_out = set()
        self.clock_end, self.bank_end = clock_end, bank_end
        self._show()
        self.send_states()
        self._after_change()

    async def _seat_waiting(self) -> None:
        """Seats taken while a hand was played sit down at the engine's table, between hands
        (au 1.1 'Buy-in'; qld s19(1)-(2); rws 3.4): stored before the deal, so that a deal that
        fails leaves them seated. A seat that sat out before it was seated waits on."""
        waiting = [st for st in self.seats.values() if st.status == "waiting"]
        if not waiting:
            return
        for st in waiting:
            try:
                self.game.seat(st.seat, st.name, st.chips, buy_in=st.fresh)
            except RuleError as error:  # checked when they sat; the table changed since
                log.warning("table %s: seat %s cannot sit down: %s", self.id, st.seat, error)
        table, seats = self.id, [st.seat for st in waiting if self.game.occupant(st.seat)]
        await self.write_change(lambda c: rows.seated(c, table, seats))
        self.broadcast_seats()

    def _event_rows(self) -> list[dict[str, object]]:
        """The table events not yet stored, as rows (stored with the next write)."""
        now, saved = time.time(), self.game.saved
        return [
            {"table_id": self.id, "seq": saved + i, "event": dumps_event(event), "at": now}
            for i, event in enumerate(self.game.unsaved())
        ]

    def _deadlines(self, seat: int | None, now: float) -> tuple[float | None, float | None]:
        if seat is None:
            return None, None
        clock_end = now + self.clock
        return clock_end, clock_end + self.seats[seat].bank

    def _after_change(self) -> None:
        if self.game.in_hand:
            self.schedule_turn()

    def schedule_turn(self) -> None:
        """Start the turn of the seat to act: a bot thinks, a seat that has left acts at once,
        a person's clock runs."""
        self._cancel_turn()
        seat = self.game.to_act()
        if seat is None or self.closed:
            return
        if self.seats[seat].bot is not None or self.seats[seat].leaving:
            self._turn_task = asyncio.create_task(self._turn_runner(seat, self.number, self.moves))
            return
        # A person: the table's timer, until the clock and the time bank run out. Most act well
        # before, so the timer is moved only when this deadline comes sooner than the one it
        # waits for; when it fires early it waits on (a timer, or a task, made and cancelled
        # for every action cost the server more). The deadline is set whenever a seat is to
        # act; were it missing, the clock starts now.
        now = time.time()
        if self.bank_end is None:
            self.clock_end, self.bank_end = self._deadlines(seat, now)
        assert self.bank_end is not None
        self._clock_for = (seat, self.number, self.moves)
        if self._turn_timer is None or self._timer_at > self.bank_end:
            self._set_timer(self.bank_end, now)

    def _set_timer(self, at: float, now: float) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        self._timer_at = at
        self._turn_timer = asyncio.get_running_loop().call_later(
            max(0.0, at - now), self._timer_fired
        )

    def _timer_fired(self) -> None:
        self._turn_timer = None
        turn, deadline = self._clock_for, self.bank_end
        if turn is None or deadline is None or self.closed:
            return  # nobody's clock runs
        now = time.time()
        if deadline > now:  # a later turn's clock: wait for it
            self._set_timer(deadline, now)
            return
        self._clock_for = None
        self._turn_task = asyncio.create_task(self._turn_runner(*turn))

    def _cancel_turn(self) -> None:
        self._clock_for = None  # the timer, when it fires, finds no clock running
        task = self._turn_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    async def _turn_runner(self, seat: int, number: int, moves: int) -> None:
        try:
            await self._run_turn(seat, number, moves)
        except asyncio.CancelledError:
            raise
        except Exception:  # never leave a turn without its clock
            log.exception("table %s: the turn of seat %s failed", self.id, seat)
            await asyncio.sleep(0.5)
            if not self.closed and self.moves == moves and self.number == number:
                self.schedule_turn()

    async def _run_turn(self, seat: int, number: int, moves: int) -> None:
        """A bot's move, or the clock's for a person out of time or one who has left (who
        folds, or checks when it is free, at once: the table does not wait out their clock)."""
        state = self.seats[seat]
        if state.bot is None:
            await self._clocked(seat, number, moves, None, "left" if state.leaving else "clock")
            return
        await asyncio.sleep(self.server.bot_delay)
        view, legal = self.game.bot_view(seat)
        move = await asyncio.to_thread(bot_move, view, legal, secrets.randbits(32))
        await self._clocked(seat, number, moves, move, "bot")

    async def _clocked(
        self, seat: int, number: int, moves: int, move: Move | None, by: str
    ) -> None:
        async with self.lock:
            if self.closed or self.number != number or self.moves != moves:
                return  # the player acted in the meantime
            if self.game.to_act() != seat:
                return
            chosen = move if move is not None else self.game.auto_move()
            try:
                await self._apply(seat, chosen, None, by)
            except Refused as refused:
                log.warning("table %s: %s move refused: %s", self.id, by, refused)
                # A bot's move the rules refuse: the clock decides. (Not stored: the table was
                # read again, and its turns start afresh.)
                if move is not None and refused.code == "refused":
                    await self._apply(seat, self.game.auto_move(), None, "clock")

    async def act(self, conn: Listener, request: str, hand: int, move: Move) -> None:
        async with self.lock:
            seat = self.seat_of(conn.account_id)
            if seat is None:
                raise Refused("not_found", f"you have no seat at table {self.id}")
            if not self.game.in_hand or hand != self.number:
                raise Refused(
                    "stale",
                    f"hand {hand} is not being played (hand {self.number} is "
                    f"{'in play' if self.game.in_hand else 'over'})",
                )
            await self._apply(seat, move, request, "player")

    async def _apply(self, seat: int, move: Move, request: str | None, by: str) -> None:
        """Apply a move: the engine checks it, the writer stores it, then everyone hears."""
        game = self.game
        state = self.seats[seat]
        start = game.event_count()
        began = time.perf_counter()
        try:
            records = game.act(seat, move)
        except RuleError as error:
            why = game.cite(str(error))
            self.audit_refusal(state.account, request, "act", why)
            raise Refused("refused", why) from None
        now = time.time()
        bank = 0.0 if by == "clock" else _bank_left(state.bank, self.clock_end, now)
        if by == "clock" and not self.server.connected(state.account) and state.bot is None:
            self.timed_out.add(seat)
        end = game.finish() if game.over else None
        to_act = game.to_act()
        clock_end, bank_end = self._deadlines(to_act, now)
        if to_act is not None and to_act == seat:  # the same player again (a draw, then bet)
            clock_end, bank_end = now + self.clock, now + self.clock + bank
        hand_id, seq = self.hand_id, self.moves
        assert hand_id is not None
        finish, finish_rows = self._finish_job(end) if end is not None else (None, [])
        ruling = {
            "clock": ("timeout", f"seat {seat} out of time: {move.kind} (the clock)"),
            "left": ("left", f"seat {seat} has left the table: {move.kind} at its turn"),
        }.get(by)

        bank_changed = bank != state.bank
        move_row = {
            "hand_id": hand_id, "seq": seq, "seat": seat, "account_id": state.account,
            "request_id": request, "move": dumps(move.to_json()), "events": dumps(records),
            "at": now, "clock_end": clock_end, "bank_end": bank_end,
        }  # fmt: skip

        # The action and the next turn's clock in one row, and the seat's time bank: statements
        # built once (below), which the writer runs once for all the batch's actions.
        written = rows.move_rows(move_row, self.id, seat, bank if bank_changed else None)
        written += finish_rows
        table, account = self.id, state.account
        job: Job | None = None
        if ruling is not None or finish is not None:  # a ruling, or seats that change
            job = lambda c: rows.after_move(c, table, hand_id, account, ruling, finish)  # noqa: E731
        try:
            stored = time.perf_counter()
            await self.store.write(job, table, written)
        except asyncio.CancelledError:
            raise  # the room closes, or is read again: the database says what was stored
        except BaseException as failure:  # not `error`: compiled, a name keeps one type
            await self.store_failed(failure)
            if request is not None and rows.duplicate(failure):
                raise Refused("duplicate", "this action id was already applied") from None
            raise Refused("unavailable", "the change could not be stored; resend") from None
        self.moves += 1
        state.bank = bank
        self.clock_end, self.bank_end = clock_end, bank_end
        self._show()
        if request is not None:
            self.server.remember(state.account, request)
        committed = time.perf_counter()
        self._broadcast_events(start, request)
        stats = self.server.stats
        stats["actions"] += 1
        stats["engine_seconds"] += stored - began
        stats["store_seconds"] += committed - stored
        stats["broadcast_seconds"] += time.perf_counter() - committed
        if end is not None:
            self._finished(end)
        else:
            self.schedule_turn()

    def _finish_job(self, end: HandEnd) -> tuple[rows.FinishedSeats | None, list[Row]]:
        """What a finished hand writes: stacks, the ledger (each seat's result and the house's
        commission), the button, who leaves or sits out. The rows every hand writes, which the
        writer runs once for all the hands of its batch, and the seats that change (rebuys,
        seats that leave or sit out), or None."""
        hand_id = self.hand_id
        assert hand_id is not None and self.game.start is not None
        dealt = {seat: self.seats[seat] for seat in self.game.start.order}
        results = [(st.account, end.stacks[seat] - st.chips) for seat, st in dealt.items()]
        # A player the table let go (qld s31(4): too few chips to go on) leaves with the rest,
        # and a bot rebuys instead, as a player who tops up would (s31(3)).
        let_go = {seat for seat in end.left if self.seats[seat].bot is None}
        leaving = [st for seat, st in dealt.items() if st.leaving or seat in let_go]
        leaving += [st for st in self.seats.values() if st.leaving and st.seat not in dealt]
        away = {seat: self.seats[seat].away + 1 for seat in self.timed_out if seat in self.seats}
        rebuys = [  # not at a closing table: every seat is cashed out after this hand
            (st, self.game.minimum_buy_in)
            for seat, st in dealt.items()
            if st.bot is not None and (end.stacks[seat] == 0 or seat in end.left) and not st.leaving
            and self.closing is None
        ]  # fmt: skip
        self._seat_changes_at_end(end, leaving, away, rebuys)
        table_events = self._event_rows()
        written = rows.finish_hand_rows(
            self.id, hand_id, self.number, end.stacks, results, end.commission,
            self.server.house_id, table_events, time.time(),
        )  # fmt: skip
        self._pending_finish = (end, away, rebuys, leaving, len(table_events))
        if not (away or rebuys or leaving):
            return None, written
        seats = rows.FinishedSeats(
            away,
            self.sit_out_after,
            [(st.seat, st.account, chips) for st, chips in rebuys],
            [(st.seat, st.account, end.stacks.get(st.seat, st.chips)) for st in leaving],
        )
        return seats, written

    def _seat_changes_at_end(
        self,
        end: HandEnd,
        leaving: list[SeatState],
        away: dict[int, int],
        rebuys: list[tuple[SeatState, int]],
    ) -> None:
        """What the hand's end changes at the engine's table, stored with it: leavers go, a
        seat out of time while away too often sits out, a bot out of chips buys in again."""
        game = self.game
        gone = {st.seat for st in leaving}
        for seat in gone:
            if game.occupant(seat) is not None:
                game.unseat(seat)
        for seat, count in away.items():
            held = game.occupant(seat)
            if count >= self.sit_out_after and held is not None and not held[2]:
                game.step_away(seat, True)
        for st, chips in rebuys:
            if game.occupant(st.seat) is None:  # the engine's table let it go (qld s31(4))
                game.seat(st.seat, st.name, end.stacks[st.seat] + chips)
            else:
                game.add_chips(st.seat, chips)

    def _finished(self, end: HandEnd) -> None:
        _, away, _, leaving, stored = self._pending_finish
        self.game.saved += stored
        for seat, count in away.items():
            self.seats[seat].away = count
        for st in leaving:
            self.seats.pop(st.seat, None)
            self.waits.pop(st.account, None)  # a seat change asked needs the seat (_cash_out)
        self._project()
        self.hands = self.number
        self.clock_end = self.bank_end = None
        self.broadcast(
            {
                "type": "hand_over",
                "table": self.id,
                "hand": self.number,
                "void": False,
                "reason": "",
                "stacks": {str(k): v for k, v in end.stacks.items()},
                "commission": end.commission,
            }
        )
        self.broadcast_seats()
        self.schedule_deal(self.pause)

    async def void(self, reason: str, by: int | None) -> None:
        async with self.lock:
            if not self.game.in_hand:
                raise Refused("refused", "no hand is being played: nothing to void")
            await self._void(reason, by)

    async def _void(self, reason: str, by: int | None) -> None:
        """Void the hand in progress: every contribution returns (each seat keeps the chips it
        had when dealt), one ledger row per seat says so, and the audit log has the ruling."""
        hand_id, number = self.hand_id, self.number
        if hand_id is None:
            return
        snap = await self.store.aread(lambda conn: read_snapshot(conn, self.id))
        hand = snap.hand
        dealt = loads(hand.seats) if hand is not None else []
        text = f"hand {number} void ({VOID_RULE}): {reason}"
        leaving = [row for row in snap.seats if row.leaving]  # they go now, with what they had
        hands = max(self.hands, number)
        # The engine's table: the hand ends with every seat holding what it had when dealt,
        # and those leaving go.
        kept = self.game.events[: self.game.saved]
        voided = GameTable.restored(
            self.spec, [*kept, *self.game.void_events({row[0]: row[3] for row in dealt})]
        )
        for row in leaving:
            if voided.occupant(row.seat) is not None:
                voided.unseat(row.seat)
        now = time.time()
        table_events = [
            {"table_id": self.id, "seq": len(kept) + i, "event": dumps_event(e), "at": now}
            for i, e in enumerate(voided.events[len(kept) :])
        ]

        table = self.id
        gone = [(row.seat, row.account_id, row.chips) for row in leaving]
        accounts = [row[1] for row in dealt]
        try:
            await self.store.write(
                lambda c: rows.void_hand(c, table, hand_id, reason, text, by, accounts, gone,
                                         table_events, hands),
                table,
            )  # fmt: skip
        except BaseException as error:
            await self.store_failed(error)
            return
        self._cancel_tasks()
        self.void_reason = None
        self.hands = hands
        for row in leaving:
            self.seats.pop(row.seat, None)
            self.waits.pop(row.account_id, None)  # with the seat (_cash_out)
        self.hand_id = None
        voided.saved = len(voided.events)
        self.game = voided
        self._project()
        self.shown = Shown()
        self.clock_end = self.bank_end = None
        self.broadcast(
            {
                "type": "hand_over",
                "table": self.id,
                "hand": number,
                "void": True,
                "reason": text,
                "stacks": {str(row[0]): row[3] for row in dealt},
                "commission": 0,
            }
        )
        self.send_states()
        self.schedule_deal(self.pause)

    # --- failures --------------------------------------------------------------------------

    def audit_refusal(self, account: int | None, request: str | None, kind: str, why: str) -> None:
        hand_id = self.hand_id if self.game.in_hand else None

        table = self.id
        future = self.store.writer.submit(
            lambda c: rows.audit(c, account, table, hand_id, request, kind, "refused", why), None
        )
        future.add_done_callback(lambda f: f.exception())  # stored or not, nobody waits

    async def store_failed(self, error: BaseException) -> None:
        if isinstance(error, LeaseLost):
            log.warning("table %s: lease lost, leaving it to the process that took it", self.id)
            await self.server.drop_room(self)
            return
        log.warning("table %s: store failed (%s); reloading from the database", self.id, error)
        try:
            snap = await self.store.aread(lambda conn: read_snapshot(conn, self.id))
        except Exception:
            # The database cannot be read either: this table's state may hold what was not
            # stored. It is let go; the lease loop (CardRoom.claim_tables) loads it again from
            # the database once it answers, and anyone who asks for it meanwhile loads it.
            log.exception("table %s: cannot read the database: let go until it can", self.id)
            reloaded = f"table {self.id} is being reloaded: watch it again"
            self.server.let_go(self, "unavailable", reloaded)
            return
        self._cancel_tasks()
        self._install(snap)
        self.send_states()
        await self.resume()

    def _cancel_tasks(self) -> None:
        self._cancel_turn()
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        task = self._deal_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        if self.lapse is not None:
            self.lapse.cancel()
            self.lapse = None

    def close(self) -> None:
        self.closed = True
        self._cancel_tasks()

    def check_chips(self) -> list[str]:
        """The hand in progress holds exactly the chips it was dealt (engine conservation)."""
        game = self.game
        if not game.in_hand or game.start is None:
            return []
        dealt = sum(game.start.starting)
        if game.chips_in_play() != dealt:
            return [f"table {self.id}: {game.chips_in_play()} chips in the hand, dealt {dealt}"]
        return []


def _bank_left(bank: float, clock_end: float | None, now: float) -> float:
    if clock_end is None or now <= clock_end:
        return bank
    return max(0.0, bank - (now - clock_end))
