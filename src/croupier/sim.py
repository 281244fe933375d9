"""Bots playing many hands, on one core, on local processes or on a Ray cluster, with the same
results on every backend.

Every hand is independent: each player sits down with the same stack at a fresh
:class:`~croupier.table.Table` whose first button is seat ``i % seats + 1`` for hand ``i``; the
table deals from there (who posts, who acts first), and :class:`~croupier.session.Session`
plays the hand. Hands are grouped in chunks of :data:`CHUNK` run by
:func:`croupier.executor` backends; chunk ``k`` draws its decks and decisions from child ``k``
of the run's seed (``numpy.random.SeedSequence``), so the summary (integer sums, merged in
chunk order) is the same on every backend and any number of workers. Saved hands stream to the
file chunk by chunk, in hand order; nothing else is kept. Stopped early (Ctrl-C), a run returns
what the finished chunks played.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import random
import signal
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table as RichTable
from rich.text import Text

from croupier import events as ev
from croupier.bots import Bot, CallingStation, RandomBot, StrengthBot
from croupier.deck import SeededShuffler
from croupier.executor import Executor, SerialExecutor, chunk_seeds
from croupier.hand import Rules
from croupier.history.formats import Format, HistoryFileError, HistoryWriter, hand_text
from croupier.history.identity import HandIdentity
from croupier.history.write import started_now
from croupier.play import NAMES
from croupier.session import Session
from croupier.table import BuyIn, Table, TableError
from croupier.views import HOUSE, SPECTATOR

__all__ = [
    "BOTS", "CHUNK", "SeatResult", "SimError", "SimResult", "big_blind", "sim_from_options",
    "simulate",
]  # fmt: skip

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "calling": CallingStation,
    "strength": lambda: StrengthBot(trials=60),
}
SIM_TABLE = "croupier sim"  # the table's name in saved histories
CHUNK = 250  # hands per chunk: small enough for a smooth progress bar and a quick Ctrl-C


class SimError(ValueError):
    """A simulation that cannot run as asked (seats, bot kinds, hands, stack)."""


@dataclass(frozen=True)
class SeatResult:
    seat: int
    bot: str
    net: int  # chips won (lost if negative) over all hands
    mean: float  # per hand
    half_width: float  # of the 95% confidence interval of the mean
    big_blind: int  # the unit of the per-100 figures

    @property
    def bb_per_100(self) -> float:
        """Big blinds won per 100 hands."""
        return 100 * self.mean / self.big_blind

    @property
    def bb_half_width(self) -> float:
        return 100 * self.half_width / self.big_blind


@dataclass(frozen=True)
class SimResult:
    hands: int  # played
    seats: tuple[SeatResult, ...]
    commission: int
    showdowns: int
    requested: int = 0  # asked for (more than played when interrupted)
    interrupted: bool = False

    @property
    def showdown_rate(self) -> float:
        return self.showdowns / self.hands if self.hands else 0.0


@dataclass
class _Totals:
    """Integer sums over hands: adding them in any order gives the same totals."""

    hands: int = 0
    net: list[int] = field(default_factory=list)
    squares: list[int] = field(default_factory=list)
    commission: int = 0
    showdowns: int = 0
    text: list[str] = field(default_factory=list)  # the hands, saved (in hand order)

    def add(self, other: _Totals) -> None:
        if not self.net:
            self.net = [0] * len(other.net)
            self.squares = [0] * len(other.net)
        self.hands += other.hands
        self.commission += other.commission
        self.showdowns += other.showdowns
        for seat, (net, square) in enumerate(zip(other.net, other.squares, strict=True)):
            self.net[seat] += net
            self.squares[seat] += square


@dataclass(frozen=True)
class _Save:
    """How each hand is written in a worker: the format, whose view, what names it."""

    format: Format
    viewer: int  # HOUSE or SPECTATOR
    first: int  # the number of the run's first hand in the file
    rulebook: str | None = None
    options: Mapping[str, object] | None = None
    table: Mapping[str, object] | None = None  # the options that make the rules, for replay
    session: int | None = None  # the run's number: its hands' numbers start with it


@dataclass(frozen=True)
class _Chunk:
    """Plays chunk ``index`` of a run (picklable: it crosses to processes and Ray)."""

    rules: Rules
    bots: tuple[str, ...]
    stack: int
    hands: int
    save: _Save | None

    def __call__(self, index: int, seed: np.random.SeedSequence) -> _Totals:
        _quiet_interrupt()
        seats = len(self.bots)
        totals = _Totals(net=[0] * seats, squares=[0] * seats)
        first = index * CHUNK
        count = min(CHUNK, self.hands - first)
        states = seed.generate_state(2 * count, dtype=np.uint64)
        players = {seat: BOTS[kind]() for seat, kind in enumerate(self.bots, start=1)}
        for offset in range(count):
            number = first + offset
            table = Table(
                self.rules, seats, buy_in=BuyIn(minimum=self.stack),
                first_button=number % seats + 1,
            )  # fmt: skip
            for seat in players:
                table.sit(seat, NAMES[(seat - 1) % len(NAMES)], self.stack)
            loop = Session(table, shuffler=SeededShuffler(int(states[2 * offset])))
            rng = random.Random(int(states[2 * offset + 1]))
            summary = loop.play_hand(players, rng)
            hand = loop.hand
            assert hand is not None
            totals.hands += 1
            totals.commission += summary.commission
            totals.showdowns += any(isinstance(e, ev.Show) for e in hand.events)
            for seat, net in summary.net.items():
                totals.net[seat - 1] += net
                totals.squares[seat - 1] += net * net
            if self.save is not None:
                totals.text.append(self._text(hand, table, number))
        return totals

    def _text(self, hand: object, table: Table, number: int) -> str:
        save = self.save
        assert save is not None
        order = table.deal_order()
        extra: dict[str, object] = {"button": order[-1], "seats": list(order)}
        if save.table is not None:
            extra["table"] = dict(save.table)
        identity = HandIdentity(
            table=SIM_TABLE, seat_count=table.seats, seats=tuple(order), started=started_now()
        )
        return hand_text(
            save.format, hand, number=save.first + number, viewer=save.viewer,  # type: ignore[arg-type]
            players=[NAMES[(seat - 1) % len(NAMES)] for seat in order], rulebook=save.rulebook,
            options=save.options, extra=extra, identity=identity, session=save.session,
        )  # fmt: skip


def _quiet_interrupt() -> None:
    """In a worker process, leave Ctrl-C to the parent, which stops the run and reports."""
    if multiprocessing.parent_process() is not None:
        with contextlib.suppress(ValueError):  # not the main thread: nothing to quiet
            signal.signal(signal.SIGINT, signal.SIG_IGN)


def big_blind(rules: Rules) -> int:
    """The unit of the per-100-hands figures: the big blind, or the minimum bet in stud."""
    return rules.blinds[-1] if rules.blinds and rules.blinds[-1] else rules.betting.small_bet


def simulate(
    rules: Rules,
    bots: Sequence[str],
    hands: int,
    *,
    stack: int,
    seed: int = 0,
    executor: Executor | None = None,
    workers: int | None = None,
    save: HistoryWriter | None = None,
    house: bool = False,
    rulebook: tuple[str, Mapping[str, object]] | None = None,
    table: Mapping[str, object] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> SimResult:
    """Play ``hands`` independent hands between ``bots`` (kinds from :data:`BOTS`, one per
    seat) on ``executor`` (default serial; ``workers`` > 1 without one: that many local
    processes). The result is the same on every backend and for any worker count.

    ``save``: stream every hand to this file, as a spectator saw it, or the house's full record
    with ``house``; ``rulebook`` and ``table`` name the rules in the saved hands. A
    :exc:`KeyboardInterrupt` stops the run: the result holds the hands played, marked
    ``interrupted``."""
    unknown = [kind for kind in bots if kind not in BOTS]
    if unknown:
        raise SimError(f"unknown bot kind {unknown[0]!r}: expected one of {', '.join(BOTS)}")
    for name, value, least in (("hands", hands, 1), ("stack", stack, 1)):
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise SimError(f"{name} must be a whole number of at least {least}, got {value!r}")
    if stack < big_blind(rules):
        raise SimError(f"a stack of {stack} cannot cover the big blind {big_blind(rules)}")
    try:
        Table(rules, len(bots), buy_in=BuyIn(minimum=stack))
    except TableError as error:
        raise SimError(str(error)) from None
    own = executor is None
    if executor is None:
        from croupier.executor import ProcessExecutor

        executor = ProcessExecutor(workers) if workers and workers > 1 else SerialExecutor()
    saving = None
    if save is not None:
        book, options = rulebook if rulebook is not None else (None, None)
        saving = _Save(save.format, HOUSE if house else SPECTATOR, save.first, book, options,
                       table, save.session)  # fmt: skip
    work = _Chunk(rules, tuple(bots), stack, hands, saving)
    chunks = -(-hands // CHUNK)
    totals = _Totals(net=[0] * len(bots), squares=[0] * len(bots))
    interrupted = False
    results = executor.imap(work, enumerate(chunk_seeds(seed, 0, chunks)))
    try:
        for chunk in results:  # in chunk order, so the saved file is in hand order too
            totals.add(chunk)
            if save is not None:
                save.write_text("".join(chunk.text), hands=chunk.hands)
            if on_progress is not None:
                on_progress(chunk.hands)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        results.close()  # type: ignore[attr-defined]
        if own:
            executor.close()
    return _summary(totals, bots, big_blind(rules), hands, interrupted)


def _summary(
    totals: _Totals, bots: Sequence[str], unit: int, requested: int, interrupted: bool
) -> SimResult:
    n = totals.hands
    seats = []
    for seat, kind in enumerate(bots):
        mean = totals.net[seat] / n if n else 0.0
        variance = (
            max(totals.squares[seat] / n - mean * mean, 0.0) * n / max(n - 1, 1) if n else 0.0
        )
        half = 1.96 * math.sqrt(variance / n) if n else math.inf
        seats.append(SeatResult(seat + 1, kind, totals.net[seat], mean, half, unit))
    return SimResult(n, tuple(seats), totals.commission, totals.showdowns, requested, interrupted)


# --- the command line ------------------------------------------------------------------------


def sim_from_options(
    game: str = "holdem",
    structure: str | None = None,
    stakes: str = "1/2",
    *,
    rulebook: str | None = None,
    ante: int | None = None,
    deck: int | None = None,
    rake: str | None = None,
    max_wager: int | None = None,
    seats: int = 6,
    bots: str = "random",
    hands: int = 10_000,
    stack: int | None = None,
    seed: int = 0,
    backend: str = "serial",
    workers: int | None = None,
    address: str | None = None,
    save: str | None = None,
    save_format: str | None = None,
    overwrite: bool = False,
    append: bool = False,
    house: bool = False,
    console: Console | None = None,
) -> int:
    """``croupier sim``: the table from plain options, the run on the chosen backend, and
    its summary: what was simulated, each seat's winnings per hand and in big blinds per 100
    hands with 95% intervals. Returns the exit status: 0; 2 with the reason in one line when
    the options are not allowed; 130 when interrupted (the partial result is printed)."""
    from croupier.executor import make_executor
    from croupier.history.formats import open_history
    from croupier.play_rules import SetupError, TableOptions, describe_rules

    console = console if console is not None else Console(highlight=False)
    writer = None
    try:
        options = TableOptions(game, structure, stakes, rulebook, ante, deck, rake, max_wager)
        rules, book_options = options.book()
        for name, value, least in (("--seats", seats, 2), ("--hands", hands, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise SetupError(f"{name} takes a whole number of at least {least}, got {value!r}")
        kinds = [kind.strip() for kind in bots.split(",") if kind.strip()]
        if not kinds:
            raise SimError(f"--bots takes bot kinds: some of {', '.join(BOTS)}")
        unknown = [kind for kind in kinds if kind not in BOTS]
        if unknown:
            raise SimError(f"unknown bot kind {unknown[0]!r}: expected some of {', '.join(BOTS)}")
        rules.game.check(rules.deck, seats)
        lineup = [kinds[i % len(kinds)] for i in range(seats)]
        chips = stack if stack is not None else 100 * big_blind(rules)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < big_blind(rules):
            raise SimError(f"a stack of {chips} cannot cover the big blind {big_blind(rules)}")
        book = (
            (rulebook, book_options) if rulebook is not None and book_options is not None else None
        )
        executor = make_executor(backend, workers, address)
        if save is not None:
            writer = open_history(
                save,
                hands=hands,
                overwrite=overwrite,
                append=append,
                rules=rules,
                rulebook=book,
                format_name=save_format,
            )
    except ValueError as error:
        if writer is not None:
            writer.close()
        console.print(Text.assemble(("error: ", "red"), str(error)), soft_wrap=True)
        return 2
    what = (
        f"{describe_rules(rules)} · {seats} seats ({', '.join(kinds)}) · stack {chips} · "
        f"{hands:,} hands · seed {seed} · {backend}"
        + (f", {executor.workers} workers" if executor.workers > 1 else "")
    )
    console.print(Text(what, style="bold"), soft_wrap=True)
    started = time.perf_counter()
    try:
        with executor, Progress(
            TextColumn("[bold]sim"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), console=console, transient=True,
        ) as progress:  # fmt: skip
            task = progress.add_task("hands", total=hands, rate="")

            def advance(done: int) -> None:
                elapsed = max(time.perf_counter() - started, 1e-9)
                completed = progress.tasks[0].completed + done
                progress.update(task, advance=done, rate=f"{completed / elapsed:,.0f} hands/s")

            result = simulate(
                rules, lineup, hands, stack=chips, seed=seed, executor=executor, save=writer,
                house=house, rulebook=book, table=options.to_dict(), on_progress=advance,
            )  # fmt: skip
    except ValueError as error:  # the run refused (a stack too short, a file that failed)
        console.print(Text.assemble(("error: ", "red"), str(error)), soft_wrap=True)
        return 2 if not isinstance(error, HistoryFileError) else 1
    finally:
        if writer is not None:
            writer.close(quietly=True)
    _report(console, result, time.perf_counter() - started, writer)
    return 130 if result.interrupted else 0


def _report(
    console: Console, result: SimResult, elapsed: float, writer: HistoryWriter | None
) -> None:
    if result.interrupted:
        console.print(
            f"[yellow]interrupted:[/] {result.hands:,} of {result.requested:,} hands played; "
            "the result below is theirs"
        )
    if not result.hands:
        return
    unit = result.seats[0].big_blind
    rate = result.hands / elapsed if elapsed > 0 else 0.0
    table = RichTable(
        title=f"{result.hands:,} hands · {rate:,.0f} hands/s · ± a 95% interval · bb = {unit}",
        title_justify="left",
    )
    for column in ("seat", "bot", "net", "per hand", "bb/100"):
        table.add_column(column, justify="right")
    for seat in result.seats:
        table.add_row(
            str(seat.seat), seat.bot, f"{seat.net:+,}",
            f"{seat.mean:+.3f} ± {seat.half_width:.3f}",
            f"{seat.bb_per_100:+.1f} ± {seat.bb_half_width:.1f}",
        )  # fmt: skip
    console.print(table)
    console.print(
        f"commission {result.commission:,} · showdowns {result.showdown_rate:.1%} of hands"
    )
    if writer is not None:
        console.print(f"[dim]saved {writer.describe()}[/]", soft_wrap=True)
