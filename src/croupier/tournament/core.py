"""A tournament as a deterministic state machine: the director's and the tables' commands.

Each command checks its request against the rules (a :class:`TournamentError` naming the rule
otherwise, with nothing changed), then emits events that :class:`TournamentState` applies. What
follows from a change happens in the same command and is logged too: the clock's levels, the
eliminations, the colour-ups, the table breaks, the balancing moves, the final-table redraw.

Time comes from the injected clock and randomness from the seed (each draw seeded by the seed
and the log's length), so the same settings, seed, commands and clock readings give the same
log, and :meth:`Tournament.rebuild` makes an equal tournament from a log.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping

from croupier.deck import SeededShuffler
from croupier.tournament import events as ev
from croupier.tournament.chips import colour_up
from croupier.tournament.clock import Clock
from croupier.tournament.interface import HandResult, HandSetup, SeatInHand
from croupier.tournament.seating import (
    choose_seat,
    deal_for,
    dealer_draw,
    first_positions,
    next_positions,
    seat_draw,
)
from croupier.tournament.settings import TournamentError, TournamentSettings
from croupier.tournament.state import PlayerRecord, Status, TableRecord, TournamentState

__all__ = ["Tournament"]

MOST_NAME = 64


class Tournament(TournamentState):
    """A tournament under the league's rules. Register players, :meth:`start`, then for each
    table that :meth:`ready_tables` lists, :meth:`next_hand` and :meth:`finish_hand`; the
    director pauses, adds time, marks absences, penalises and disqualifies."""

    def __init__(self, settings: TournamentSettings, *, seed: int, clock: Clock) -> None:
        super().__init__(settings, seed)
        if not callable(clock):
            raise TournamentError(f"the clock must be callable (e.g. time.time), got {clock!r}")
        self.clock_source = clock

    @classmethod
    def rebuild(
        cls,
        settings: TournamentSettings,
        events: Iterable[ev.TournamentEvent],
        *,
        seed: int,
        clock: Clock,
    ) -> Tournament:
        """The tournament that ``events`` record, from its settings and seed."""
        tournament = cls(settings, seed=seed, clock=clock)
        for index, event in enumerate(events):
            try:
                tournament.apply(event)
            except (KeyError, AssertionError, ValueError) as error:
                raise TournamentError(
                    f"event {index} ({type(event).__name__}) does not follow from the ones "
                    f"before it: {error!r}"
                ) from None
        return tournament

    # --- plumbing ----------------------------------------------------------------------------

    def _now(self) -> float:
        now = float(self.clock_source())
        if not math.isfinite(now):
            raise TournamentError(f"the clock gave {now}")
        return max(now, self.events[-1].at) if self.events else now

    def _rng(self, tag: str) -> random.Random:
        return random.Random(f"{self.seed}:{len(self.events)}:{tag}")

    def _seed(self, tag: str) -> int:
        return self._rng(tag).getrandbits(63)

    def _record(self, name: object) -> PlayerRecord:
        if not isinstance(name, str):
            raise TournamentError(f"a player is named by a string, got {name!r}")
        return self._player(name)

    def _playing(self, name: str, what: str) -> PlayerRecord:
        record = self._record(name)
        if record.status is not Status.PLAYING:
            raise TournamentError(
                f"{name} is not in the tournament ({record.status.value}): {what}"
            )
        return record

    def _require_running(self, what: str) -> None:
        if not self.started:
            raise TournamentError(f"the tournament has not started: {what}")
        if self.finished:
            raise TournamentError(f"the tournament is over: {what}")

    # --- registration ------------------------------------------------------------------------

    def register(self, player: str) -> None:
        """A buy-in: before the start, or late while registration is open (league 19)."""
        if not isinstance(player, str) or not player.strip() or len(player) > MOST_NAME:
            raise TournamentError(f"a player's name is 1 to {MOST_NAME} characters, got {player!r}")
        self._catch_up()
        if self.finished:
            raise TournamentError("the tournament is over: no more entries")
        if player in self.players:
            hint = "; use re_enter" if self.players[player].status is Status.OUT else ""
            raise TournamentError(f"{player} is already registered{hint}")
        self._require_registration()
        self.apply(ev.Registered(self._now(), player, 1, self.settings.buy_in))
        if self.started:
            self._seat_newcomer(player)

    def re_enter(self, player: str) -> None:
        """A new entry for an eliminated player, while registration is open (league 19)."""
        record = self._record(player)
        self._catch_up()
        if record.status is Status.DISQUALIFIED:
            raise TournamentError(f"{player} was eliminated by the director (league 36)")
        if record.status is not Status.OUT:
            raise TournamentError(
                f"{player} is still in the tournament: only a busted player re-enters"
            )
        if record.entries > self.settings.re_entries:
            raise TournamentError(
                f"{player} has used the {self.settings.re_entries} re-entries allowed "
                "(house option)"
            )
        self._require_registration()
        self.apply(ev.Registered(self._now(), player, record.entries + 1, self.settings.buy_in))
        self._seat_newcomer(player)

    def _require_registration(self) -> None:
        if not self.registration_open:
            until = self.settings.late_until_level
            raise TournamentError(
                "registration is closed (league 19: late registration is at the director's "
                f"discretion; here it ran until level {until})"
                if until
                else "registration closed at the start: this tournament has no late "
                "registration (league 19: the director's discretion)"
            )

    def close_registration(self) -> None:
        """The director ends registration early (league 19: at the director's discretion)."""
        self._catch_up()
        if not self.registration_open:
            raise TournamentError("registration is already closed")
        if not self.started:
            raise TournamentError("start the tournament first: registration closes after it")
        self.apply(ev.RegistrationClosed(self._now()))
        self._reorganise()

    def rebuy(self, player: str) -> None:
        """A rebuy (house option), between the player's hands, while rebuys are open."""
        record = self._playing(player, "only a player still in may rebuy")
        self._catch_up()
        rebuys = self.settings.rebuys
        if rebuys is None:
            raise TournamentError("this tournament has no rebuys (a house option)")
        if not self.settings.rebuys_open(self.stage):
            raise TournamentError(f"rebuys ended with level {rebuys.until_level} (house option)")
        if rebuys.most is not None and record.rebuys >= rebuys.most:
            raise TournamentError(f"{player} has made the {rebuys.most} rebuys allowed")
        if record.chips > rebuys.stack_at_most:
            raise TournamentError(
                f"{player} has {record.chips} chips: a rebuy needs {rebuys.stack_at_most} or fewer"
            )
        self._between_hands(player, "chips are added between hands")
        self.apply(ev.Rebought(self._now(), player, rebuys.purchase))

    def add_on(self, player: str) -> None:
        """The add-on (house option): once, during its level or the break after it."""
        record = self._playing(player, "only a player still in may take the add-on")
        self._catch_up()
        add_on = self.settings.add_on
        if add_on is None:
            raise TournamentError("this tournament has no add-on (a house option)")
        if not self.settings.add_on_open(self.stage):
            raise TournamentError(
                f"the add-on is offered during level {add_on.at_level} and the break after it"
            )
        if record.add_ons:
            raise TournamentError(f"{player} has taken the add-on: one per player")
        self._between_hands(player, "chips are added between hands")
        self.apply(ev.AddedOn(self._now(), player, add_on.purchase))

    def _between_hands(self, player: str, why: str) -> None:
        if self.in_hand(player):
            table = self.table_of(player)
            assert table is not None
            raise TournamentError(f"{player} is in the hand at table {table.number}: {why}")

    # --- the start and the clock -------------------------------------------------------------

    def start(self) -> None:
        """Start the clock and draw the seats (league 2: then each table draws for the button)."""
        if self.started:
            raise TournamentError("the tournament has already started")
        names = [p.name for p in self.players.values() if p.status is Status.REGISTERED]
        if len(names) < 2:
            raise TournamentError(f"a tournament needs at least 2 players, {len(names)} registered")
        now = self._now()
        rng = self._rng("seat draw")
        self.apply(ev.Started(now))
        if not self.settings.registration_open(0):
            self.apply(ev.RegistrationClosed(now))
        size = self.settings.table_size
        count = math.ceil(len(names) / size)
        for table in range(1, count + 1):
            self.apply(ev.TableOpened(now, table, size))
        for name, table, seat in seat_draw(names, range(1, count + 1), size, rng):
            self.apply(ev.Seated(now, name, table, seat, ev.SeatReason.DRAW))
        self._reorganise()

    def tick(self) -> None:
        """Bring the tournament up to the clock: levels and breaks that have begun, the end of
        late registration, and what falls due with them (colour-ups)."""
        self._catch_up()

    def pause(self) -> None:
        self._require_running("nothing to pause")
        self._catch_up()
        if self.paused:
            raise TournamentError("the clock is already paused")
        self.apply(ev.ClockPaused(self._now()))

    def resume(self) -> None:
        self._require_running("nothing to resume")
        if not self.paused:
            raise TournamentError("the clock is running: only a paused clock can resume")
        self.apply(ev.ClockResumed(self._now()))
        self._catch_up()

    def add_time(self, seconds: int) -> None:
        """Add seconds to the stage in play (negative: take them off)."""
        self._require_running("no clock to add time to")
        self._catch_up()
        if self.stage == len(self.settings.stages) - 1:
            raise TournamentError("the last level lasts until the end: there is no time to add")
        assert self.clock is not None
        now = self._now()
        self.clock.add(seconds, now, self.settings.stages[self.stage].seconds)  # checks only
        self.apply(ev.TimeAdded(now, seconds))

    def _catch_up(self) -> None:
        """Start the stages whose time has come, then do what falls due with them."""
        if self.clock is None or self.finished:
            return
        now = self._now()
        last = len(self.settings.stages) - 1
        stage = self.stage
        while self.clock is not None and not self.clock.paused and self.stage < last:
            end = self.clock.ends_at(self.settings.stages[self.stage].seconds)
            if end is None or end > now:
                break
            self.apply(ev.StageStarted(end, self.stage + 1))
            if self.registration_open and not self.settings.registration_open(self.stage):
                self.apply(ev.RegistrationClosed(end))
        if self.stage != stage:
            self._reorganise()

    # --- hands -------------------------------------------------------------------------------

    def ready_tables(self) -> list[int]:
        """The tables that may start a hand now (call :meth:`tick` first to bring the clock
        up to date)."""
        if self._dealing_stopped() is not None:
            return []
        return [n for n, t in sorted(self.tables.items()) if t.hand is None and len(t.seats) >= 2]

    def _dealing_stopped(self) -> str | None:
        if not self.started:
            return "the tournament has not started"
        if self.finished:
            return "the tournament is over"
        if self.paused:
            return "the clock is paused"
        if self.on_break:
            return "the tournament is on a break"
        if self._chip_up_due():
            return "chips are being coloured up once every hand in progress ends (league 18)"
        if self._final_due():
            return "the final-table redraw waits for every hand in progress to end"
        return None

    def next_hand(self, table: int) -> HandSetup:
        """Start a hand at ``table``: who is dealt in, the button and the blinds (league 12),
        the level's forced bets, and who is absent (league 25, 27, 35)."""
        self._catch_up()
        stopped = self._dealing_stopped()
        if stopped is not None:
            raise TournamentError(f"no hand can start: {stopped}")
        record = self._table(table)
        if record.hand is not None:
            raise TournamentError(f"table {table} is playing hand {record.hand.hand}")
        live = record.live
        if len(live) < 2:
            raise TournamentError(f"table {table} has {len(live)} player: it waits for balancing")
        now = self._now()
        if record.positions is None:
            draws, button = dealer_draw(live, SeededShuffler(self._seed(f"button {table}")))
            self.apply(ev.ButtonDrawn(now, table, draws, button))
            positions = first_positions(live, button)
        else:
            positions = next_positions(live, record.positions)
        deal = deal_for(live, positions)
        dealt = tuple((s, record.seats[s], self.players[record.seats[s]].chips) for s in deal.order)
        absent = tuple(s for s, name, _ in dealt if self._absent(name, now))
        seed = self._seed(f"hand {table}")
        started = ev.HandStarted(
            now,
            table,
            record.hands + 1,
            self.stage,
            deal.positions,
            dealt,
            absent,
            deal.waiting,
            seed,
        )
        self.apply(started)
        return HandSetup(
            table=table,
            hand=started.hand,
            seats=tuple(SeatInHand(s, name, chips, s in absent) for s, name, chips in dealt),
            button=deal.positions.button,
            small_blind=deal.positions.small_blind if deal.posts_small_blind else None,
            big_blind=deal.positions.big_blind,
            forced=self.forced_bets(),
            table_size=record.size,
            seed=seed,
        )

    def _absent(self, name: str, now: float) -> bool:
        record = self.players[name]
        penalised = record.penalty_hands > 0 or (
            record.penalty_until is not None and now < record.penalty_until
        )
        return record.absent or penalised

    def finish_hand(self, table: int, result: HandResult) -> None:
        """The hand at ``table`` is over: every dealt seat's chips. Players left without chips
        are eliminated; tables are then broken, balanced or redrawn as needed."""
        record = self._table(table)
        hand = record.hand
        if hand is None:
            raise TournamentError(f"table {table} has no hand in progress")
        stacks = self._check_result(hand, result)
        now = self._now()
        self.apply(
            ev.HandFinished(now, table, hand.hand, tuple((s, stacks[s]) for s, _, _ in hand.dealt))
        )
        cause = len(self.events) - 1
        busted = [
            (chips, order, name)
            for order, (s, name, chips) in enumerate(hand.dealt)
            if not stacks[s]
        ]
        for chips, order, name in sorted(busted):
            self.apply(ev.Eliminated(now, name, cause, chips, order))
        self._catch_up()
        self._reorganise()

    def _check_result(self, hand: ev.HandStarted, result: HandResult) -> dict[int, int]:
        stacks = getattr(result, "stacks", None)
        if not isinstance(stacks, Mapping):
            raise TournamentError(f"a hand's result gives the seats' chips, got {result!r}")
        seats = {s for s, _, _ in hand.dealt}
        if set(stacks) != seats:
            raise TournamentError(
                f"table {hand.table} hand {hand.hand}: the result must give the chips of seats "
                f"{sorted(seats)}, the seats dealt in, not {sorted(stacks)}"
            )
        unit = self.in_play[0]
        for seat, chips in stacks.items():
            if isinstance(chips, bool) or not isinstance(chips, int) or chips < 0:
                raise TournamentError(f"seat {seat}'s chips must be a whole number, got {chips!r}")
            if chips % unit:
                raise TournamentError(
                    f"seat {seat}'s {chips} chips cannot be made of the chips in play, the "
                    f"smallest of which is {unit} (league 18)"
                )
        before = sum(chips for _, _, chips in hand.dealt)
        if sum(stacks.values()) != before:
            raise TournamentError(
                f"table {hand.table} hand {hand.hand}: the players started with {before} chips "
                f"and ended with {sum(stacks.values())}: chips must be conserved"
            )
        return dict(stacks)

    def _table(self, number: object) -> TableRecord:
        record = self.tables.get(number) if isinstance(number, int) else None
        if record is None:
            raise TournamentError(f"there is no table {number!r}: tables are {sorted(self.tables)}")
        return record

    # --- the director ------------------------------------------------------------------------

    def mark_absent(self, player: str) -> None:
        """The player is away: their blinds are still posted (league 25) and their hand is
        mucked at the first card (league 27) until they are back."""
        record = self._playing(player, "only a player in the tournament can be absent")
        if record.absent:
            raise TournamentError(f"{player} is already marked absent")
        self.apply(ev.MarkedAbsent(self._now(), player))

    def mark_present(self, player: str) -> None:
        record = self._playing(player, "only a player in the tournament can return")
        if not record.absent:
            raise TournamentError(f"{player} is not marked absent")
        self.apply(ev.MarkedPresent(self._now(), player))

    def penalise(
        self, player: str, *, orbits: int | None = None, minutes: int | None = None
    ) -> None:
        """League 35: the player sits out a number of orbits (an orbit is one hand for each
        player at their table now) or a period of time; meanwhile they are treated as absent
        (league 25, 27): blinds posted, hands mucked."""
        self._playing(player, "only a player in the tournament can be penalised")
        if (orbits is None) == (minutes is None):
            raise TournamentError(
                "a penalty is a number of orbits or of minutes (league 35), one of them"
            )
        amount = orbits if orbits is not None else minutes
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            raise TournamentError(f"a penalty is a positive whole number, got {amount!r}")
        now = self._now()
        table = self.table_of(player)
        if orbits is not None:
            self.apply(
                ev.Penalised(now, player, orbits * len(table.seats) if table else orbits, None)
            )
        else:
            until = now + 60 * amount
            self.apply(ev.Penalised(now, player, 0, until))

    def disqualify(self, player: str) -> None:
        """League 36: the director eliminates the player from the event; their chips leave
        play. Between their hands: a hand in progress is finished first."""
        record = self._playing(player, "only a player in the tournament can be eliminated")
        self._between_hands(player, "the director's elimination takes effect when the hand ends")
        if self.players_left == 1:
            raise TournamentError(f"{player} is the last player left")
        self.apply(ev.Disqualified(self._now(), player, record.chips))
        self._catch_up()
        self._reorganise()

    def move(self, player: str, table: int, seat: int) -> None:
        """The director moves a player, between their hands, to an empty seat (the floor's
        call; league 14 asks for a position no less favourable, which the log records)."""
        record = self._playing(player, "only a player in the tournament can be moved")
        target = self._table(table)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= target.size:
            raise TournamentError(f"table {table} has seats 1..{target.size}, not {seat!r}")
        if seat in target.seats:
            raise TournamentError(f"seat {seat} at table {table} is taken by {target.seats[seat]}")
        self._between_hands(player, "players move between hands")
        assert record.table is not None and record.seat is not None
        before = self.tables[record.table].hands_until_big_blind(record.seat)
        after = target.hands_until_big_blind(seat)
        self.apply(
            ev.Seated(self._now(), player, table, seat, ev.SeatReason.DIRECTOR, before, after)
        )
        self._reorganise()

    # --- what follows a change ---------------------------------------------------------------

    def _reorganise(self) -> None:
        """Finish, colour up, redraw, break and balance, as far as the hands in progress let."""
        if not self.started or self.finished:
            return
        self._check_finish()
        if self.finished:
            return
        idle = all(t.hand is None for t in self.tables.values())
        if self._chip_up_due():
            if not idle:
                return
            self._chip_up()
            self._check_finish()
            if self.finished:
                return
        if self._final_due():
            if idle:
                self._final_redraw()
            return
        self._break_tables()
        self._balance()

    def _check_finish(self) -> None:
        if self.players_left == 1 and not self.registration_open:
            self.apply(ev.Finished(self._now(), self.alive()[0]))

    def _chip_up_due(self) -> bool:
        return self.started and self.in_play != self.settings.in_play(self.stage)

    def _final_due(self) -> bool:
        return len(self.tables) > 1 and self.players_left <= self.settings.final_size

    def _chip_up(self) -> None:
        target = self.settings.in_play(self.stage)
        while self.in_play != target:
            removed, to = self.in_play[0], self.in_play[1]
            seated = {
                number: [(s, name, self.players[name].chips) for s, name in sorted(t.seats.items())]
                for number, t in sorted(self.tables.items())
            }
            before = {name: chips for players in seated.values() for _, name, chips in players}
            now = self._now()
            self.apply(ev.ChippedUp(now, colour_up(seated, removed, to, self._seed("chip race"))))
            cause = len(self.events) - 1
            out = sorted((before[name], name) for name in before if not self.players[name].chips)
            for chips, name in out:
                self.apply(ev.Eliminated(now, name, cause, chips, 0))

    def _final_redraw(self) -> None:
        """All players left draw for seats at one table; the button is drawn anew (league 2)."""
        now = self._now()
        rng = self._rng("final table")
        names = self.alive()
        for number in sorted(self.tables):
            self.apply(ev.TableClosed(now, number))
        size = self.settings.final_size
        self.apply(ev.TableOpened(now, 1, size))
        for name, table, seat in seat_draw(names, [1], size, rng):
            self.apply(ev.Seated(now, name, table, seat, ev.SeatReason.FINAL))

    def _break_tables(self) -> None:
        """Break the highest-numbered table while the others can seat everyone."""
        while len(self.tables) > 1:
            victim = max(self.tables)
            others = self.seats_total - self.tables[victim].size
            if self.players_left > others or self.tables[victim].hand is not None:
                return
            self._break(victim)

    def _break(self, victim: int) -> None:
        """Move a broken table's players: to the tables with the fewest players (balanced),
        which table each goes to by a seeded draw, then at that table the seat league 14 asks
        for (similar or no less favourable), as far as the free seats allow."""
        now = self._now()
        rng = self._rng(f"break {victim}")
        source = self.tables[victim]
        movers = [
            (name, source.hands_until_big_blind(s)) for s, name in sorted(source.seats.items())
        ]
        counts = {n: len(t.seats) for n, t in self.tables.items() if n != victim}
        targets = []
        for _ in movers:
            room = [n for n in counts if counts[n] < self.tables[n].size]
            target = min(room, key=lambda n: (counts[n], n))
            counts[target] += 1
            targets.append(target)
        rng.shuffle(movers)
        chosen: dict[int, list[tuple[str, int | None]]] = {}
        for mover, target in zip(movers, targets, strict=True):
            chosen.setdefault(target, []).append(mover)
        for target, group in sorted(chosen.items()):
            for name, need in sorted(group, key=lambda item: (item[1] or 0, item[0])):
                self._move(name, target, need, ev.SeatReason.BREAK, rng, now)
        self.apply(ev.TableClosed(now, victim))

    def _balance(self) -> None:
        """League 14: while two tables differ by more than one player, the player due the big
        blind next at the biggest table (between hands) moves to the smallest table, to the
        seat most like theirs and no less favourable."""
        while True:
            counts = {n: len(t.seats) for n, t in self.tables.items()}
            if max(counts.values()) - min(counts.values()) <= 1:
                return
            biggest = max(counts.values())
            sources = [
                n for n in sorted(counts) if counts[n] == biggest and self.tables[n].hand is None
            ]
            if not sources:
                return  # the move waits for a hand to end
            source = self.tables[sources[0]]
            target = min(counts, key=lambda n: (counts[n], n))
            rng = self._rng(f"balance {source.number}")
            if source.positions is None:
                seat = rng.choice(source.live)
            else:
                seat = min(source.live, key=lambda s: source.hands_until_big_blind(s) or 0)
            name = source.seats[seat]
            self._move(
                name,
                target,
                source.hands_until_big_blind(seat),
                ev.SeatReason.BALANCE,
                rng,
                self._now(),
            )

    def _move(
        self,
        name: str,
        target: int,
        need: int | None,
        reason: ev.SeatReason,
        rng: random.Random,
        now: float,
    ) -> None:
        table = self.tables[target]
        empty = [s for s in range(1, table.size + 1) if s not in table.seats]
        if table.positions is None:  # the table's first button is yet to be drawn
            seat, after = rng.choice(empty), None
        else:
            seat, after = choose_seat(empty, table.live, table.positions.big_blind, need or 1)
        self.apply(ev.Seated(now, name, target, seat, reason, need, after))

    def _seat_newcomer(self, name: str) -> None:
        """A late entry or re-entry draws a seat at a table with the fewest players."""
        now = self._now()
        rng = self._rng(f"seat {name}")
        room = {n: t for n, t in self.tables.items() if len(t.seats) < t.size}
        if not room:
            number = next(n for n in range(1, len(self.tables) + 2) if n not in self.tables)
            self.apply(ev.TableOpened(now, number, self.settings.table_size))
            room = {number: self.tables[number]}
        fewest = min(len(t.seats) for t in room.values())
        free = [
            (n, s)
            for n, t in sorted(room.items())
            if len(t.seats) == fewest
            for s in range(1, t.size + 1)
            if s not in t.seats
        ]
        table, seat = rng.choice(free)
        self.apply(ev.Seated(now, name, table, seat, ev.SeatReason.LATE))
        self._reorganise()
