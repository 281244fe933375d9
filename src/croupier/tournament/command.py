"""``croupier tournament``: a multi-table tournament of bots at the terminal.

The tournament runs on simulated time (each round of hands moves the clock on by
``seconds_per_hand``), so levels, breaks and colour-ups come as they would in a room, in
seconds. A live display shows the level, its clock, the players left, the average stack and
the tables; the levels, colour-ups, the final table and its eliminations are printed as they
happen; at the end, the results and the payouts. The tournament's log (JSON lines) and every
hand (PHH, ``.phhs``) can be saved; an existing file is never overwritten.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from croupier.events import HOUSE
from croupier.history import HandHistory, dump_phhs
from croupier.history.identity import (
    HandIdentity,
    TournamentIdentity,
    hand_number,
    session_number,
)
from croupier.history.write import phh_history, started_now
from croupier.tournament import events as ev
from croupier.tournament.bots import bots_for, check_kinds
from croupier.tournament.clock import ManualClock
from croupier.tournament.core import Tournament
from croupier.tournament.driver import DealtHand, EngineHands
from croupier.tournament.fileformat import load_tournament
from croupier.tournament.log import dump_log
from croupier.tournament.runner import run, standard_settings
from croupier.tournament.settings import Break, TournamentError, TournamentSettings

__all__ = ["TournamentRun", "run_tournament"]

MOST_PLAYERS = 100_000  # a bound on the field, so that a mistyped number does not run for days


@dataclass(frozen=True)
class TournamentRun:
    """What ``croupier tournament`` was asked for, checked (:meth:`checked`)."""

    settings: TournamentSettings
    players: int
    bots: tuple[str, ...]
    seed: int
    seconds_per_hand: int
    save_log: Path | None
    save_hands: Path | None

    @classmethod
    def checked(
        cls,
        *,
        file: str | None,
        players: str,
        table_size: str | None,
        bots: str,
        seed: str,
        seconds_per_hand: str,
        save_log: str | None,
        save_hands: str | None,
    ) -> TournamentRun:
        """The run the arguments ask for; :class:`TournamentError` for the first bad one."""
        count = _whole("--players", players, 2)
        if count > MOST_PLAYERS:
            raise TournamentError(f"--players takes at most {MOST_PLAYERS:,}, got {players!r}")
        size = None if table_size is None else _whole("--table-size", table_size, 2)
        if file is not None:
            settings = load_tournament(file)
            if size is not None:
                final = settings.final_table_size
                settings = replace(
                    settings, table_size=size, final_table_size=None if final == size else final
                )
        else:
            settings = standard_settings(table_size=9 if size is None else size)
        kinds = tuple(kind.strip() for kind in bots.split(",") if kind.strip())
        check_kinds(kinds)
        log = _new_file("--save-log", save_log)
        hands = _new_file("--save-hands", save_hands)
        if hands is not None and hands.suffix != ".phhs":
            raise TournamentError(
                f"--save-hands writes a PHH collection: name a .phhs file, got {save_hands!r}"
            )
        if log is not None and log == hands:
            raise TournamentError("--save-log and --save-hands name the same file")
        return cls(
            settings, count, kinds, _whole("--seed", seed, 0),
            _whole("--seconds-per-hand", seconds_per_hand, 1), log, hands,
        )  # fmt: skip


def _whole(option: str, text: str, lowest: int) -> int:
    try:
        value = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise TournamentError(f"{option} takes a whole number, got {text!r}") from None
    if value < lowest:
        raise TournamentError(f"{option} takes a whole number of at least {lowest}, got {text!r}")
    return value


def _new_file(option: str, name: str | None) -> Path | None:
    """A file to write at the end: its folder must exist, and the file must not."""
    if name is None:
        return None
    path = Path(name)
    if path.exists():
        raise TournamentError(f"{option}: {name} exists; croupier does not overwrite a file")
    if not path.parent.is_dir():
        raise TournamentError(f"{option}: no folder {str(path.parent)!r} to write {name} in")
    return path


def run_tournament(request: TournamentRun, console: Console) -> Tournament:
    """Run the tournament to its end, with the live display on ``console``; print the results
    and save what was asked for. Raises :class:`TournamentError` if a file cannot be written."""
    clock = ManualClock()
    tournament = Tournament(request.settings, seed=request.seed, clock=clock)
    width = len(str(request.players))
    names = [f"bot{index + 1:0{width}d}" for index in range(request.players)]
    for name in names:
        tournament.register(name)
    tournament.prizes()  # the payout plan must cover the field: refused now, not at the end
    bots = bots_for(request.bots, names)
    histories: list[HandHistory] = []
    hands = EngineHands(bot_for=bots.__getitem__)
    if request.save_hands is not None:
        # The hands' start: the run's, moved on by the simulated clock; the tournament's
        # number: that start's second (a tracker keeps runs apart by it).
        began = started_now()
        number = session_number(began)
        hands.on_hand = lambda dealt: histories.append(
            _history(tournament, hands, dealt, clock, began, number)
        )
    display = _Display(tournament, hands, console)
    tournament.start()
    console.print(
        f"{request.settings.name}: {request.players:,} {'/'.join(request.bots)} bots at "
        f"{len(tournament.tables):,} tables of {request.settings.table_size}, prize pool "
        f"{tournament.prize_pool:,}; level 1: {_blinds(tournament)}"
    )
    with Live(display.render(), console=console, transient=True, refresh_per_second=4) as live:

        def after_round(t: Tournament) -> None:
            display.report(live)
            live.update(display.render())

        run(tournament, hands, clock, seconds_per_hand=request.seconds_per_hand,
            after_round=after_round)  # fmt: skip
        display.report(live)
    display.results(request.seed)
    _save(request.save_log, dump_log(tournament.events), "tournament log", console)
    if request.save_hands is not None:
        _save(request.save_hands, dump_phhs(histories), f"{len(histories):,} hands", console)
    return tournament


def _history(
    tournament: Tournament,
    hands: EngineHands,
    dealt: DealtHand,
    clock: ManualClock,
    began: datetime,
    number: int,
) -> HandHistory:
    """The hand as PHH, with its identity: a number unique across runs (the tournament's
    number, then its hands counted from 1: tables are numbered again at the final table), the
    table and its size, the real seats, the start on the tournament's clock, the tournament
    and its level."""
    setup = dealt.setup
    identity = HandIdentity(
        number=hand_number(number, hands.hands),
        table=setup.table,
        seat_count=setup.table_size,
        seats=tuple(seat.seat for seat in setup.seats),
        started=began + timedelta(seconds=round(clock.now)),
        tournament=TournamentIdentity(
            number, tournament.level_number, tournament.settings.name, *_entry(tournament)
        ),
    )
    history = phh_history(
        dealt.hand,
        viewer=HOUSE,
        identity=identity,
        names=tuple(seat.player for seat in setup.seats),
        rulebook=hands.rulebook,
        options=hands.options(setup.forced),
    )
    return replace(history, name=f"hand{hands.hands}")


def _entry(tournament: Tournament) -> tuple[Decimal | None, Decimal]:
    """The buy-in to the prize pool and the fee in dollars (the settings count cents, as the
    card room's do), or no buy-in: a freeroll."""
    price = tournament.settings.buy_in
    if not price.price:
        return None, Decimal(0)
    return Decimal(price.price - price.fee) / 100, Decimal(price.fee) / 100


def _save(path: Path | None, text: str, what: str, console: Console) -> None:
    if path is None:
        return
    try:
        with path.open("x", encoding="utf-8") as out:
            out.write(text)
    except OSError as error:
        raise TournamentError(f"cannot write {path}: {error.strerror}") from None
    console.print(f"saved the {what} to {path}")


class _Display:
    """The live progress lines, the news printed above them, and the results at the end."""

    def __init__(self, tournament: Tournament, hands: EngineHands, console: Console) -> None:
        self.tournament = tournament
        self.hands = hands
        self.console = console
        self.started = time.perf_counter()
        self.seen = 0  # tournament events already reported

    def render(self) -> Group:
        t = self.tournament
        settings = t.settings
        stage = settings.stages[t.stage]
        remaining = t.remaining(t.clock_source())
        clock = "no end (last level)" if remaining is None else f"{_minutes(remaining)} left"
        if isinstance(stage, Break):
            what = f"break before level {t.level_number + 1}"
        else:
            what = f"level {t.level_number}: {_blinds(t)}"
        entries = sum(1 for p in t.players.values() if p.entries)
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        return Group(
            Text.assemble((settings.name, "bold"), f" · {what} · {clock}"),
            Text(
                f"players {t.players_left:,} of {entries:,} · average stack "
                f"{t.average_stack():,.0f} · tables {len(t.tables):,} · hands "
                f"{self.hands.hands:,} ({self.hands.hands / elapsed:,.0f}/s)"
            ),
        )

    def report(self, live: Live) -> None:
        """Print what happened since the last report: levels, breaks, colour-ups, the final
        table and the places on it."""
        t = self.tournament
        final = t.settings.final_table_size or t.settings.table_size
        lines: list[str | ev.Eliminated] = []
        for event in t.events[self.seen :]:
            if isinstance(event, ev.StageStarted):
                stage = t.settings.stages[event.stage]
                if isinstance(stage, Break):
                    lines.append(f"break of {_minutes(stage.seconds)}")
                else:
                    number = t.settings.level_number(event.stage)
                    lines.append(f"level {number}: {_level_blinds(t.settings, event.stage)}")
            elif isinstance(event, ev.ChippedUp):
                up = event.colour_up
                lines.append(f"colour-up: {up.removed:,} chips go up to {up.to:,} (league 18, 48)")
            elif isinstance(event, ev.Seated) and event.reason is ev.SeatReason.FINAL:
                redraw = f"final table: the players left draw for seats at table {event.table}"
                if redraw not in lines:
                    lines.append(redraw)
            elif isinstance(event, ev.Eliminated):
                lines.append(event)
        places = {}
        if any(isinstance(line, ev.Eliminated) for line in lines):
            places = {s.player: s for s in t.standings()}
        for line in lines:
            if isinstance(line, ev.Eliminated):
                standing = places[line.player]
                if standing.place is None or standing.place > final:
                    continue
                prize = f", prize {standing.prize:,}" if standing.prize else ""
                line = f"{_ordinal(standing.place)}: {line.player}{prize}"
            live.console.print(line)
        self.seen = len(t.events)

    def results(self, seed: int) -> None:
        t = self.tournament
        elapsed = time.perf_counter() - self.started
        standings = t.standings()
        paid = sum(1 for s in standings if s.prize)
        final = t.settings.final_table_size or t.settings.table_size
        table = Table(title=f"{t.settings.name}: results")
        for column, justify in (("place", "right"), ("player", "left"), ("prize", "right")):
            table.add_column(column, justify=justify)  # type: ignore[arg-type]
        ordered = sorted(standings, key=lambda s: s.place or 0)
        shown, rest = ordered[:final], ordered[final:]
        for standing in shown:
            tie = " (tied)" if standing.tied else ""
            prize = f"{standing.prize:,}" if standing.prize else ""
            table.add_row(f"{standing.place}{tie}", standing.player, prize)
        console = self.console
        console.print(table)
        later = [s for s in rest if s.prize]
        if later:
            console.print(
                f"places {later[0].place}-{later[-1].place}: "
                f"{later[-1].prize:,} to {later[0].prize:,} ({sum(s.prize for s in later):,})"
            )
        if len(rest) > len(later):
            console.print(f"{len(rest) - len(later):,} more players, unpaid")
        entries = t.entries
        console.print(
            f"prize pool {t.prize_pool:,} from {entries:,} entries (fees {t.fees:,}); "
            f"{paid:,} places paid, {sum(s.prize for s in standings):,} in all"
        )
        console.print(
            f"winner {t.winner} · {self.hands.hands:,} hands in {elapsed:,.1f} s "
            f"({self.hands.hands / max(elapsed, 1e-9):,.0f} hands/s) · level {t.level_number} "
            f"· seed {seed}"
        )


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _minutes(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _blinds(t: Tournament) -> str:
    return _level_blinds(t.settings, t.stage)


def _level_blinds(settings: TournamentSettings, stage: int) -> str:
    level = settings.playing_level(stage)
    text = f"{level.small_blind:,}/{level.big_blind:,}"
    if level.ante:
        text += f" ante {level.ante:,}"
    if level.big_blind_ante:
        text += f" big-blind ante {level.big_blind_ante:,}"
    return text
