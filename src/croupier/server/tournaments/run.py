"""Tournaments in the card room: the library's tournament run by the server (issue 18).

The rules are the library's (:mod:`croupier.tournament`): who is seated where, when levels
change, when tables balance or break, who is out, the prizes. A :class:`TournamentRun` is the
actor that drives one tournament: under its lock it brings the clock up to date, deals a hand
at each table the library says may deal, steps bots and absent players, waits for people's
moves (with an action clock), finishes hands and tells the library; the director's controls
and the players' entries come in the same way. Every change is stored first (the library's new
events, the hand's moves, the ledger rows) and broadcast after the commit; a change that cannot
be stored is undone by rebuilding the tournament from the database.

After a restart each tournament is rebuilt from its event log (``Tournament.rebuild``; the
clock's levels and pauses are absolute times) and each hand in play is dealt again from its
stored setup, its stored moves applied again.

Tournaments live in one server process (the one that loads them at its start); they do not
move between processes as cash tables do.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from croupier.server.records import Record, Refused
from croupier.server.rooms.game_table import Move, RuleError
from croupier.server.store import tournaments as store
from croupier.server.store.database import InsufficientChipsError, LeaseLost, StoreError
from croupier.server.store.rooms import audit
from croupier.server.store.tournaments import Job, Member, Snapshot, buy_in, read_snapshot
from croupier.server.tournaments import views
from croupier.server.tournaments.hand import Playing, dump_setup, load_setup, move_json, move_of
from croupier.server.tournaments.ports import Host
from croupier.server.tournaments.views import VOID_RULE, control
from croupier.tournament import (
    EngineHands,
    HandResult,
    Status,
    Tournament,
    TournamentError,
    TournamentSettings,
)
from croupier.tournament import events as ev
from croupier.tournament.bots import BOTS
from croupier.tournament.fileformat import tournament_from_mapping
from croupier.tournament.log import load_log
from croupier.wire import dumps, loads

if TYPE_CHECKING:
    from croupier.server.rooms.ports import Listener

__all__ = ["TournamentRun", "read_settings"]

log = logging.getLogger("croupier.server")
LONGEST_WAIT = 0.25  # seconds between looks at the clock when nothing else wakes a run


def read_settings(data: object) -> TournamentSettings:
    """A tournament file's fields (as JSON or parsed TOML) as settings; a
    :class:`TournamentError` names the key and the rule otherwise."""
    if not isinstance(data, dict):
        raise TournamentError("settings: must be an object with a tournament file's fields")
    return tournament_from_mapping(data)


def _stored(text: str | None) -> list[Record] | None:
    """House records as stored (None: none were, as before revision 0007)."""
    return None if text is None else list(loads(text))


class TournamentRun:
    def __init__(self, host: Host, snap: Snapshot) -> None:
        self.host = host
        self.store = self.host.store
        self.id = int(snap.row.id)
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.watchers: dict[Listener, int | None] = {}  # a spectator's table; None: one's own
        self.closed = False
        self.task: asyncio.Task[None] | None = None
        self.voids: list[tuple[int, int, str]] = []  # (table, hand id, why) to void on resume
        self._install(snap)

    # --- loading -----------------------------------------------------------------------------

    def _install(self, snap: Snapshot) -> None:
        row = snap.row
        self.name = str(row.name)
        self.status = str(row.status)
        self.starts_at: float | None = row.starts_at
        self.pool = int(row.pool_id)
        self.action_clock = float(row.clock)
        self.pause = float(row.pause)
        self.bot_kind = str(row.bot)
        self.settings = read_settings(loads(row.settings))
        self.seed = int(row.seed)
        self.entries = list(snap.entries)
        self.members = dict(snap.members)
        bot = BOTS[self.bot_kind]()
        self.engine = EngineHands("league", bot_for=lambda name: bot)
        events = load_log("\n".join(snap.events))
        self.t = Tournament.rebuild(self.settings, events, seed=self.seed, clock=self.host.clock)
        self.saved = len(events)
        self.hands: dict[int, Playing] = {}
        self.rested: dict[int, float] = {}
        self.voids = []
        for hand_row, moves in snap.hands:
            table = self.t.tables.get(int(hand_row.table_no))
            if table is None or table.hand is None or table.hand.hand != hand_row.number:
                continue  # the log never dealt it: the deal's write did not finish
            try:
                playing = Playing.dealt(
                    self.engine, load_setup(hand_row.setup), self._people(),
                    [(m.seat, move_of(m.move)) for m in moves], int(hand_row.id),
                    deal=_stored(hand_row.events), records=[_stored(m.events) for m in moves],
                )  # fmt: skip
            except (RuleError, ValueError, KeyError) as error:
                why = f"the hand could not be dealt again after a restart ({error})"
                self.voids.append((table.number, int(hand_row.id), why))
                continue
            self.hands[table.number] = playing
            self._next_turn(playing)
        voided = {table for table, _, _ in self.voids}
        for number, record in self.t.tables.items():
            if record.hand is not None and number not in self.hands and number not in voided:
                # Stored with its deal in one transaction, so never expected: void, not stuck.
                self.voids.append((number, 0, "its stored hand was missing after a restart"))
        self.where = {
            p.name: (p.table, p.seat) for p in self.t.players.values() if p.table is not None
        }

    def _people(self) -> set[str]:
        return {name for name, m in self.members.items() if not m.bot}

    async def _reload(self) -> None:
        """The store refused a change: back to what the database holds."""
        log.warning("tournament %s: reloading from the database", self.id)
        try:
            snap = await self.store.aread(lambda conn: read_snapshot(conn, self.id))
        except Exception:
            log.exception("tournament %s: cannot read the database", self.id)
            return
        self._install(snap)
        self._send_states()

    # --- the run -----------------------------------------------------------------------------

    def begin(self) -> None:
        if self.task is None and self.status != "finished":
            self.task = asyncio.create_task(self._pump())

    def close(self) -> None:
        self.closed = True
        if self.task is not None:
            self.task.cancel()

    async def _pump(self) -> None:
        while not self.closed:
            self.wake.clear()
            wait = LONGEST_WAIT
            try:
                async with self.lock:
                    wait = await self._step()
            except asyncio.CancelledError:
                raise
            except Refused as refused:  # a change not stored: the run was reloaded
                log.warning("tournament %s: %s", self.id, refused)
            except Exception:
                log.exception("tournament %s: the run failed a step", self.id)
                wait = 1.0
            if self.status == "finished":
                return
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(wait, LONGEST_WAIT)):
                        await self.wake.wait()

    async def _step(self) -> float:
        """Everything due now; the seconds until something may be due again."""
        if self.status == "registering":
            if self.starts_at is not None and self.host.clock() >= self.starts_at:
                await self._start(None)
            return LONGEST_WAIT
        if self.status != "running":
            return LONGEST_WAIT
        for table, hand_id, why in self.voids:
            await self._void(table, hand_id, why)
        self.voids = []
        self.t.tick()
        if len(self.t.events) > self.saved:
            await self._write()
        wait = LONGEST_WAIT
        for table in list(self.hands):
            playing = self.hands.get(table)
            if playing is not None:
                wait = min(wait, await self._advance(table, playing))
            if self.status != "running":
                return wait
        loop = asyncio.get_running_loop()
        for table in self.t.ready_tables():
            if table in self.hands:
                continue
            rest = self.rested.get(table, 0.0) + self.pause - loop.time()
            if rest > 0:
                wait = min(wait, rest)
                continue
            await self._deal(table)
            wait = 0.0
        return wait

    async def _advance(self, table: int, playing: Playing) -> float:
        """One decision at ``table`` if one is due: a bot's, a dead hand's, or the clock's for
        a person out of time; the hand's end when it is over."""
        game = playing.game
        if game.over:
            await self._finish(table, playing)
            return 0.0
        seat = game.to_act()
        assert seat is not None
        start = game.event_count()
        if playing.decides_itself(seat):
            left = playing.due - asyncio.get_running_loop().time()
            if left > 0:
                return left
            by = "absent" if game.absent(seat) else "bot"
            seat, move, records = game.house_move()
            await self._store_move(table, playing, seat, move, records, None, by, start)
            return 0.0
        assert playing.clock_end is not None
        left = playing.clock_end - time.time()
        if left > 0:
            return left
        move = game.auto_move()
        records = game.act(seat, move)
        name = playing.names[seat]
        member = self.members[name]
        if not self.host.connected(member.account) and not self.t.players[name].absent:
            # Gone and out of time: absent from the next hand on, their blinds posted and
            # their hand killed (league 25, 27), until they come back.
            self.t.mark_absent(name)
        await self._store_move(table, playing, seat, move, records, None, "clock", start)
        return 0.0

    async def came_back(self, conn: Listener) -> None:
        """A player marked absent while away is back: dealt in again (league 25)."""
        async with self.lock:
            record = self.t.players.get(conn.name)
            if record is None or record.status is not Status.PLAYING or not record.absent:
                return
            self.t.mark_present(conn.name)
            detail = f"tournament {self.id}: {conn.name} is back, no longer absent"
            await self._write(
                lambda c: audit(
                    c, conn.account_id, None, None, None, "tournament", "ruling", detail
                )
            )
        self.wake.set()

    def _next_turn(self, playing: Playing) -> None:
        seat = playing.game.to_act()
        playing.clock_end = None
        if seat is None:
            return
        if playing.decides_itself(seat):
            playing.due = asyncio.get_running_loop().time() + self.host.bot_delay
        else:
            playing.clock_end = time.time() + self.action_clock

    async def _deal(self, table: int) -> None:
        setup = self.t.next_hand(table)
        playing = Playing.dealt(self.engine, setup, self._people())
        self.hands[table] = playing
        self._next_turn(playing)
        text, started = dump_setup(setup), time.time()
        spec = dumps(playing.game.spec.to_json())
        assert playing.game.start is not None
        deal = dumps(list(playing.game.start.events))
        seats = dumps(
            [[s.seat, self.members[s.player].account, s.player, s.chips] for s in setup.seats]
        )
        playing.hand_id = await self._write(
            lambda c: store.insert_hand(
                c, self.id, table, setup.hand, text, spec, setup.button, seats, deal, started
            )
        )

    async def _store_move(
        self,
        table: int,
        playing: Playing,
        seat: int,
        move: Move,
        records: list[Record],
        request: str | None,
        by: str,
        start: int,
    ) -> None:
        """A move made at ``playing``'s hand (``records``: the events it caused), stored, then
        heard by the table's watchers."""
        game = playing.game
        account = self.members[playing.names[seat]].account
        hand_id, seq, text, at = playing.hand_id, playing.moves, move_json(move), time.time()
        events = dumps(records)
        playing.moves += 1
        self._next_turn(playing)
        await self._write(
            lambda c: store.insert_move(
                c, hand_id, seq, seat, account, request, text, events, by, at
            )
        )
        if request is not None:
            self.host.remember(account, request)
        for conn in self._watching(table):
            seat_of = self.seat_in(conn, table)
            conn.send(
                {
                    "type": "tournament_events",
                    "tournament": self.id,
                    "table": table,
                    "hand": playing.number,
                    "from": start,
                    "events": game.visible(seat_of, start),
                    "pot": game.pot(),
                    "cause": request,
                    "to_act": game.to_act(),
                    "clock_end": playing.clock_end,
                    "bank_end": None,
                    "legal": playing.legal(seat_of),
                }
            )

    async def _finish(self, table: int, playing: Playing) -> None:
        stacks = playing.game.stacks()
        await self._end_hand(table, playing.hand_id, playing.number, stacks, "")

    async def _void(self, table: int, hand_id: int, why: str) -> None:
        """A hand that cannot go on is void: every seat gets back the chips it was dealt
        (rws 5.1; cardroom irregularities 3), as the library's result of the hand."""
        record = self.t.tables[table]
        assert record.hand is not None
        stacks = {seat: chips for seat, _, chips in record.hand.dealt}
        await self._end_hand(table, hand_id, record.hand.hand, stacks, f"void ({VOID_RULE}): {why}")

    async def _end_hand(
        self, table: int, hand_id: int, number: int, stacks: dict[int, int], void: str
    ) -> None:
        self.t.finish_hand(table, HandResult(stacks))
        self.hands.pop(table, None)
        self.rested[table] = asyncio.get_running_loop().time()
        result = dumps({str(k): v for k, v in stacks.items()})
        payout = None
        if self.t.finished:
            payout = store.Payout(self.t.standings(), dict(self.members), self.pool)
        await self._write(
            lambda c: store.end_hand(c, self.id, hand_id, table, number, result, void, payout),
            before=lambda: self._hand_over(table, number, stacks, void),
        )

    def _hand_over(self, table: int, number: int, stacks: dict[int, int], void: str) -> None:
        message = {
            "type": "tournament_hand_over", "tournament": self.id, "table": table,
            "hand": number, "void": bool(void), "reason": void,
            "stacks": {str(k): v for k, v in stacks.items()},
        }  # fmt: skip
        for conn in self._watching(table):
            conn.send(message)

    # --- storing and telling -----------------------------------------------------------------

    async def _write(
        self,
        job: Job[Any] | None = None,
        *,
        before: Callable[[], None] | None = None,
    ) -> Any:
        """Store the library's new events with ``job``, in one transaction; then tell the
        watchers what changed (``before``: what to tell first). A failure rebuilds the run
        from the database (what was not stored never happened) and refuses the change."""
        start = self.saved
        new = list(self.t.events[start:])

        owner = self.host.owner
        try:
            result = await self.store.write(
                lambda c: store.save(c, self.id, owner, start, new, job)
            )
        except LeaseLost:
            log.warning(
                "tournament %s: lease lost, leaving it to the process that took it", self.id
            )
            self.host.drop(self.id)
            raise Refused("elsewhere", f"tournament {self.id} moved to another process") from None
        except InsufficientChipsError as error:
            await self._reload()
            raise Refused("refused", str(error)) from None
        except (StoreError, OSError) as error:
            log.warning("tournament %s: store failed: %s", self.id, error)
            await self._reload()
            raise Refused("unavailable", "the change could not be stored; resend") from None
        self.saved = start + len(new)
        if before is not None:
            before()
        self._announce(new)
        return result

    def _announce(self, new: list[ev.TournamentEvent]) -> None:
        """Tell the watchers what the library's new events changed: each moved player where
        to go, everyone the tables as they are now, everyone the results at the end."""
        for event in new:
            if isinstance(event, ev.Started):
                self.status = "running"
            if isinstance(event, ev.Eliminated | ev.Disqualified):
                self.where.pop(event.player, None)  # a re-entry is a new seat, not a move
            if not isinstance(event, ev.Seated):
                continue
            was = self.where.get(event.player)
            self.where[event.player] = (event.table, event.seat)
            if was is None or event.reason is ev.SeatReason.DRAW:
                continue
            member = self.members.get(event.player)
            if member is None:
                continue
            move = {
                "type": "tournament_move", "tournament": self.id, "player": event.player,
                "from_table": was[0], "from_seat": was[1], "table": event.table,
                "seat": event.seat, "reason": event.reason.value,
            }  # fmt: skip
            for conn in self.host.conns.get(member.account, ()):
                if conn in self.watchers:
                    conn.send(move)
        if any(not isinstance(e, ev.HandStarted) for e in new):
            self._send_states()
        else:
            for table in {e.table for e in new if isinstance(e, ev.HandStarted)}:
                for conn in self._watching(table):
                    conn.send(self.state_for(conn))
        if any(isinstance(e, ev.Finished) for e in new):
            self.status = "finished"
            over = {"type": "tournament_over", "tournament": self.id, "standings": self.results()}
            for conn in list(self.watchers):
                conn.send(over)

    def _send_states(self) -> None:
        for conn in list(self.watchers):
            conn.send(self.state_for(conn))

    def table_of(self, conn: Listener) -> int | None:
        """The table ``conn`` follows: the player's own, else the one they chose to watch,
        else the first."""
        record = self.t.players.get(conn.name)
        if record is not None and record.table is not None:
            return record.table
        chosen = self.watchers.get(conn)
        if chosen is not None and chosen in self.t.tables:
            return chosen
        # Anyone else watches the first table (a player out of it too: ``you`` is then null).
        return min(self.t.tables) if self.t.tables else None

    def _watching(self, table: int) -> list[Listener]:
        return [conn for conn in list(self.watchers) if self.table_of(conn) == table]

    def seat_in(self, conn: Listener, table: int) -> int | None:
        record = self.t.players.get(conn.name)
        if record is None or record.table != table:
            return None
        return record.seat

    # --- what is shown (croupier.server.tournaments.views) ----------------------------------

    def clock_info(self) -> dict[str, object]:
        return views.clock_info(self)

    def state_for(self, conn: Listener) -> dict[str, object]:
        return views.state_for(self, conn)

    def results(self) -> list[dict[str, object]]:
        return views.results(self)

    def lobby_row(self) -> dict[str, object]:
        return views.lobby_row(self)

    def detail(self) -> dict[str, object]:
        return views.detail(self)

    # --- players -----------------------------------------------------------------------------

    async def enter(self, member: Member, actor: int) -> str:
        """A buy-in: before the start, a registration (one may unregister); after it, a late
        entry or a re-entry as the library allows (league 19). Returns what was done."""
        async with self.lock:
            price = self.settings.buy_in
            if self.status == "finished":
                raise self.refuse(actor, "the tournament is over: no more entries")
            await self._can_pay(member, price.price, actor, "the buy-in")
            memo = f"tournament {self.id}: {member.name}'s buy-in"
            if self.status == "registering":
                if any(m.name == member.name for m in self.entries):
                    raise self.refuse(actor, f"{member.name} is already registered")
                pool = self.pool
                await self._write(lambda c: store.register(c, self.id, member, pool, price, memo))
                self.entries.append(member)
                self.members[member.name] = member
                self._send_states()
                return "registered"
            record = self.t.players.get(member.name)
            try:
                if record is not None and record.status in (Status.OUT, Status.DISQUALIFIED):
                    self.t.re_enter(member.name)  # the library refuses the disqualified
                    done = "re-entered"
                else:
                    self.t.register(member.name)
                    done = "registered late"
            except TournamentError as error:
                raise self.refuse(actor, str(error)) from None
            self.members[member.name] = member
            await self._write(lambda conn: buy_in(conn, member, self.pool, price, memo))
        self.wake.set()
        return done

    async def _can_pay(self, member: Member, price: int, actor: int, what: str) -> None:
        if member.bot:
            return  # the house stakes its bots
        balance = await self.store.aread(lambda c: store.balance(c, member.account))
        if balance < price:
            raise self.refuse(actor, f"{what} costs {price} chips; you have {balance}")

    async def buy_chips(self, member: Member, actor: int, kind: str) -> str:
        """A rebuy or the add-on (house options), as the library allows them: the price from
        the player's balance, as a buy-in's."""
        async with self.lock:
            if self.status != "running":
                raise self.refuse(actor, f"the tournament is {self.status}: no {kind} now")
            option = self.settings.rebuys if kind == "rebuy" else self.settings.add_on
            if option is not None:
                await self._can_pay(member, option.purchase.price, actor, f"the {kind}")
            try:
                if kind == "rebuy":
                    self.t.rebuy(member.name)
                else:
                    self.t.add_on(member.name)
            except TournamentError as error:
                raise self.refuse(actor, str(error)) from None
            assert option is not None  # the library refuses an option the settings lack
            memo = f"tournament {self.id}: {member.name}'s {kind}"
            await self._write(lambda conn: buy_in(conn, member, self.pool, option.purchase, memo))
        self.wake.set()
        return "rebought" if kind == "rebuy" else "added on"

    async def leave(self, member: Member, actor: int) -> None:
        """Unregister before the start: the buy-in is refunded, the fee too."""
        async with self.lock:
            if self.status != "registering":
                raise self.refuse(
                    actor,
                    "the tournament has started: an entry is no longer withdrawn (the chips are "
                    "in play; a player may leave their stack, which is blinded off, league 25)",
                )
            if not any(m.name == member.name for m in self.entries):
                raise self.refuse(actor, f"{member.name} is not registered")
            memo = f"tournament {self.id}: {member.name} unregistered"
            pool, price = self.pool, self.settings.buy_in
            await self._write(lambda c: store.unregister(c, self.id, member, pool, price, memo))
            self.entries = [m for m in self.entries if m.name != member.name]
            self._send_states()

    def refuse(self, actor: int | None, why: str) -> Refused:
        detail = f"tournament {self.id}: {why}"
        future = self.store.writer.submit(
            lambda c: audit(c, actor, None, None, None, "tournament", "refused", detail), None
        )
        future.add_done_callback(lambda f: f.exception())
        return Refused("refused", why)

    _refuse = refuse  # as web/tournaments.py calls it, until it says ``refuse``

    async def act(self, conn: Listener, request: str, table: int, number: int, move: Move) -> None:
        async with self.lock:
            playing = self.hands.get(table)
            record = self.t.players.get(conn.name)
            if record is None or record.table != table:
                raise Refused("not_found", f"you have no seat at table {table} of this tournament")
            if playing is None or playing.number != number:
                raise Refused("stale", f"hand {number} is not being played at table {table}")
            seat = playing.seat_of_player(conn.name)
            if seat is None:
                raise Refused("not_found", f"you are not dealt into hand {number}")
            if playing.decides_itself(seat):
                raise Refused(
                    "refused",
                    "your hand is dead while you are absent or sit out a penalty (league 27, 35)",
                )
            game = playing.game
            start = game.event_count()
            try:
                records = game.act(seat, move)
            except RuleError as error:
                raise self.refuse(conn.account_id, game.cite(str(error))) from None
            await self._store_move(table, playing, seat, move, records, request, "player", start)
        self.wake.set()

    async def watch(self, conn: Listener, table: int | None) -> None:
        async with self.lock:
            if table is not None and table not in self.t.tables:
                raise Refused("not_found", f"the tournament has no table {table} now")
            self.watchers[conn] = table
            conn.send(self.state_for(conn))

    # --- the director ------------------------------------------------------------------------

    async def direct(self, actor: int, name: str, body: dict[str, Any]) -> str:
        """One of the director's controls; audited whether applied or refused."""
        action = body.get("action")
        async with self.lock:
            try:
                done = await self._control(action, body)
            except TournamentError as error:
                raise self.refuse(actor, f"{action}: {error}") from None
            detail = f"tournament {self.id}: {action} by {name}: {done}"
            await self._write(
                lambda conn: audit(conn, actor, None, None, None, "tournament", "applied", detail)
            )
        self.wake.set()
        return done

    async def _control(self, action: object, body: dict[str, Any]) -> str:
        if action == "start":
            if self.status != "registering":
                raise TournamentError("the tournament has already started")
            self._started_tournament()
            return f"started with {len(self.entries)} players"
        if self.status != "running":
            raise TournamentError(f"the tournament is {self.status}: {action} needs it running")
        if action == "void":
            table = body.get("table")
            playing = self.hands.get(table) if isinstance(table, int) else None
            if table is None or playing is None:
                raise TournamentError(f"table {table!r} has no hand in play: nothing to void")
            reason = str(body.get("reason") or "voided by the floor")[:200]
            await self._void(table, playing.hand_id, reason)
            return f"table {table} hand {playing.number} void ({VOID_RULE}): {reason}"
        return control(self.t, action, body)

    def _started_tournament(self) -> None:
        """Start on a scratch tournament, so that a refusal leaves nothing registered."""
        scratch = Tournament(self.settings, seed=self.seed, clock=self.host.clock)
        for member in self.entries:
            scratch.register(member.name)
        scratch.start()
        self.t = scratch
        self.saved = 0

    async def _start(self, actor: int | None) -> None:
        """The start at its time (the director may start earlier)."""
        try:
            self._started_tournament()
        except TournamentError as error:
            self.starts_at = None  # waits for the director now
            detail = f"tournament {self.id}: not started at its time: {error}"
            await self._write(lambda c: store.not_started(c, self.id, actor, detail))
            return
        detail = f"tournament {self.id}: started at its time with {len(self.entries)} players"
        await self._write(
            lambda conn: audit(conn, actor, None, None, None, "tournament", "ruling", detail)
        )
