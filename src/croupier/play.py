"""Poker at the terminal: a person against bots, or bots alone, hand after hand at one table.

Only rendering and typing live here. The game loop is :class:`croupier.session.Session` (turns,
actions, each seat's view); the story is told from the one reducer by
:class:`croupier.teller.Teller`; the table's rules, buy-in and stakes come from
:mod:`croupier.rulebooks.tables` (from the options typed: :mod:`croupier.play_rules`), and
saved files from :mod:`croupier.history.formats` (the suffix picks the format).

Typed actions: ``c`` check or call, ``f`` fold, ``b 50`` / ``r 300`` bet or raise to, ``a``
all-in, ``d 2 5`` discard the cards at positions 2 and 5 (or ``d Ah Kd``), ``p`` stand pat,
``?`` help, ``q`` quit. Ctrl-C or Ctrl-D ends the game between prompts, with a summary.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from croupier import events as ev
from croupier.betting import IllegalAction, Legal
from croupier.bots import Action, Bot, CallingStation, RandomBot, SeatView, StrengthBot
from croupier.cards import Card, CardError
from croupier.cards import parse_cards as _parse_cards
from croupier.citing import book_prefix, in_force
from croupier.deck import SecureShuffler, SeededShuffler, Shuffler
from croupier.history.formats import HistoryFileError, HistoryWriter, open_history
from croupier.history.identity import HandIdentity
from croupier.history.write import started_now
from croupier.play_rules import TableOptions, describe_rules
from croupier.rulebooks.tables import SetupError, book_rules, house_rules, table_buy_in
from croupier.rules import Rules
from croupier.session import Session as GameLoop
from croupier.session import Turn
from croupier.table import HandSummary, Table, TableError
from croupier.teller import Teller, describe_legal, street_name
from croupier.views import HOUSE, SPECTATOR, HandView

__all__ = [
    "BOT_KINDS",
    "HandRecord",
    "InputError",
    "PlayResult",
    "Session",
    "book_rules",
    "describe_legal",
    "house_rules",
    "parse_action",
    "play",
    "play_from_options",
    "street_name",
]

HUMAN_SEAT = 1
PLAY_TABLE = "croupier play"  # the table's name in saved histories
NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu")
BOT_KINDS: dict[str, Callable[[], Bot]] = {
    "strength": StrengthBot,
    "calling": CallingStation,
    "random": RandomBot,
}
DEFAULT_OPPONENTS = ("strength", "strength", "calling", "random")
MIN_BUY_IN_BLINDS = 10  # the smallest buy-in, in minimum bets (cardroom buy-in 1: ten bets)

HELP = (
    "c check or call · f fold · b N / r N bet or raise to N · a all-in · "
    "d 2 5 discard positions 2 and 5 (or d Ah Kd) · p stand pat · ? help · q quit"
)


class InputError(ValueError):
    """Typed text that is not an action (a mistype, not a rule: rules are the engine's)."""


class _Quit(Exception):  # noqa: N818 (control flow, not an error)
    """The person ended the game between prompts."""


# --- records and results ---------------------------------------------------------------------


@dataclass(frozen=True)
class HandRecord:
    """One finished hand, for callers of :func:`play` (the ``on_hand`` hook)."""

    number: int
    rules: Rules
    button: int  # the button's seat
    seats: tuple[int, ...]  # seat of each player, in deal order
    names: tuple[str, ...]  # name of each player, in deal order
    starting: tuple[int, ...]  # stacks when dealt, in deal order
    events: tuple[ev.Event, ...]  # the whole log (every card: this is the house's record)
    summary: HandSummary


@dataclass(frozen=True)
class PlayResult:
    """How a game ended."""

    hands: int  # hands played to the end
    chips: dict[int, int]  # seat -> chips after the last finished hand
    names: dict[int, str]  # seat -> name
    bought_in: int  # chips each player sat down with
    commission: int  # all the house took
    interrupted: bool  # ended by the person (Ctrl-C, Ctrl-D or q) rather than by the count
    records: tuple[HandRecord, ...] = ()
    save_error: str | None = None  # why saving stopped the game, if it did


# --- typed actions ---------------------------------------------------------------------------


def parse_action(
    text: str, view: SeatView, legal: Legal | None, rules: Rules | None = None
) -> Action:
    """What the person typed, as an :class:`~croupier.bots.Action` (not yet checked against
    the rules: :meth:`Action.apply` does that). ``legal`` is ``None`` while drawing."""
    words = text.replace(",", " ").split()
    if not words:
        raise InputError(f"type an action: {HELP}")
    verb, args = words[0].lower(), words[1:]
    if len(verb) > 1 and verb[0] in "rb" and verb[1:].isdigit():  # r300
        verb, args = verb[0], [verb[1:], *args]
    if verb in ("c", "k", "check", "call"):
        _no_arguments(verb, args)
        return Action.check_or_call()
    if verb in ("f", "fold"):
        _no_arguments(verb, args)
        return Action.fold()
    if verb in ("b", "r", "bet", "raise"):
        if len(args) != 1 or not args[0].isdigit():
            shown = f"; legal: {legal}" if legal is not None else ""
            raise InputError(
                f"{verb} takes the amount to bet or raise to, e.g. '{verb} 300'{shown}"
            )
        return Action.bet_or_raise_to(int(args[0]))
    if verb in ("a", "allin", "all-in", "shove"):
        _no_arguments(verb, args)
        return _all_in(view, legal)
    if verb in ("p", "pat", "d", "draw", "discard"):
        game = (rules or view.rules).game
        if not any(street.draw for street in game.streets):
            raise InputError(f"{game.name} has no draw: {describe_legal(legal) if legal else HELP}")
        if verb in ("p", "pat"):
            _no_arguments(verb, args)
            return Action.draw()
        return Action.draw(_discards(args, view))
    raise InputError(f"unknown action {text.strip()!r}: {HELP}")


def _no_arguments(verb: str, args: list[str]) -> None:
    if args:
        raise InputError(f"{verb!r} takes nothing after it, got {' '.join(args)!r}")


def _all_in(view: SeatView, legal: Legal | None) -> Action:
    everything = view.bets[view.player] + view.stacks[view.player]
    if legal is not None and legal.raise_range is None and legal.call >= view.stacks[view.player]:
        return Action.check_or_call()  # calling puts the whole stack in
    # Anything else is a bet or raise of the whole stack: the engine says if the rules allow it.
    return Action.bet_or_raise_to(everything)


def _discards(args: list[str], view: SeatView) -> list[Card]:
    if all(arg.isdigit() for arg in args):
        positions = [int(arg) for arg in args]
        wrong = [p for p in positions if not 1 <= p <= len(view.hole)]
        if wrong:
            raise InputError(
                f"no card at position {wrong[0]}: your cards are numbered 1..{len(view.hole)}"
            )
        if len(set(positions)) != len(positions):
            raise InputError("each position once, please")
        return [view.hole[p - 1] for p in positions]
    try:
        return list(_parse_cards(" ".join(args)))
    except CardError as error:
        raise InputError(f"{error}: discard by position (d 2 5) or by card (d Ah Kd)") from None


# --- the game --------------------------------------------------------------------------------


def play(
    rules: Rules,
    seats: int,
    bots: int,
    buy_in: int,
    hands: int,
    seed: int | None,
    auto: bool,
    console: Console,
    input_fn: Callable[[str], str] = input,
    *,
    opponents: Sequence[str] = DEFAULT_OPPONENTS,
    save: str | os.PathLike[str] | None = None,
    house: bool = False,
    on_hand: Callable[[HandRecord], None] | None = None,
) -> PlayResult:
    """Play ``hands`` hands (0: until the person quits or fewer than two can play) at a table
    of ``seats`` seats: the person in seat 1 (a bot too when ``auto``) and ``bots`` bots after
    it, each sitting down with ``buy_in`` chips. ``opponents`` names the bots' kinds in turn
    (see :data:`BOT_KINDS`). ``save``: write each finished hand to this new file, in the
    format its suffix names (:mod:`croupier.history.formats`), as seat 1 saw it (a spectator
    when bots play alone), or every card with ``house``; ``on_hand``:
    called with each finished hand. A ``seed`` makes the whole game repeatable."""
    writer = open_history(save, hands=hands or None) if save is not None else None
    session = Session(
        rules, seats, bots, buy_in, seed, auto, console, input_fn,
        opponents=opponents, writer=writer, house=house, on_hand=on_hand,
    )  # fmt: skip
    return session.run(hands)


class Session:
    """One game at one table, rendered: :func:`play` builds one and runs it. Building checks
    the set-up (seats, buy-in, bots) and raises :class:`~croupier.table.TableError` naming
    the problem."""

    def __init__(
        self,
        rules: Rules,
        seats: int,
        bots: int,
        buy_in: int,
        seed: int | None,
        auto: bool,
        console: Console,
        input_fn: Callable[[str], str] = input,
        *,
        opponents: Sequence[str] = DEFAULT_OPPONENTS,
        writer: HistoryWriter | None = None,
        house: bool = False,
        on_hand: Callable[[HandRecord], None] | None = None,
        table: TableOptions | None = None,
        rulebook: tuple[str, Mapping[str, object]] | None = None,
    ) -> None:
        """``writer``: where finished hands go, as seat 1 saw them (a spectator's view when
        bots play alone), or the house's full record with ``house``; ``table`` and
        ``rulebook``: the options and the shipped book the rules came from, named in the
        saved files."""
        if bots < 1:
            raise TableError(f"a game needs at least one bot, got {bots}")
        if bots + 1 > seats:
            raise TableError(
                f"{bots} bots and seat 1 need {bots + 1} seats, but the table has {seats}"
            )
        unknown = [kind for kind in opponents if kind not in BOT_KINDS]
        if unknown or not opponents:
            raise TableError(
                f"unknown bot kind {unknown[0] if unknown else ''!r}: "
                f"expected some of {', '.join(BOT_KINDS)}"
            )
        # The book's buy-in rules come from the book (its first button, blind policy and bust
        # rule come with its rules): a Table made from them needs nothing more.
        book = rulebook[0] if rulebook is not None else None
        stakes = table_buy_in(book, rules.game.name, rules, full=buy_in)
        self.table = Table(rules, seats, buy_in=stakes)
        self.rules = rules
        self.console = console
        self.input_fn = input_fn
        self.auto = auto
        self.buy_in = buy_in
        self.on_hand = on_hand
        self.writer = writer
        self.house = house
        self.options = table
        self.rulebook = rulebook
        self.shuffler: Shuffler = SeededShuffler(seed) if seed is not None else SecureShuffler()
        self.rng = random.Random(f"croupier-bots-{seed}") if seed is not None else random.Random()
        self.loop = GameLoop(self.table, shuffler=self.shuffler)
        self.names: dict[int, str] = {}
        self.kinds: dict[int, str] = {}
        self.bots: dict[int, Bot] = {}
        for index, seat in enumerate(range(1, bots + 2)):
            human = seat == HUMAN_SEAT and not auto
            kind = "human" if human else opponents[(index - (not auto)) % len(opponents)]
            self.names[seat] = "You" if human else NAMES[(seat - 1) % len(NAMES)]
            self.kinds[seat] = kind
            if not human:
                self.bots[seat] = BOT_KINDS[kind]()
            self.table.sit(seat, self.names[seat], buy_in)
        self.records: list[HandRecord] = []
        self.started = started_now()  # the hand's start, as it is dealt
        self.teller: Teller | None = None
        self.save_error: str | None = None

    # --- the loop ------------------------------------------------------------------------

    def run(self, hands: int = 0) -> PlayResult:
        self._introduce()
        interrupted = False
        try:
            while hands <= 0 or len(self.records) < hands:
                if not self._can_deal():
                    break
                self._play_hand()
                if self.save_error is not None:
                    break
        except (_Quit, KeyboardInterrupt, EOFError):
            interrupted = True
            if self.table.in_hand:
                self.console.print(
                    f"\n[yellow]Hand #{self.table.hands} abandoned:[/] the chips stand as "
                    "they were before it."
                )
        finally:
            if self.writer is not None:
                self.writer.close()
        return self._finish(interrupted)

    def _can_deal(self) -> bool:
        playing = [seat for seat in self.table.occupied() if self.table.can_play(seat)]
        if not self.auto and HUMAN_SEAT not in playing:
            self.console.print("[yellow]You are out of chips.[/]")
            return False
        if len(playing) < 2:
            self.console.print("[yellow]Fewer than two players have chips: the game is over.[/]")
            return False
        return True

    def _play_hand(self) -> None:
        self.teller = None
        self.started = started_now()
        summary = self.loop.play_hand(self.bots, self.rng, ask=self._ask, told=self._told)
        teller, hand, table = self.teller, self.loop.hand, self.table
        assert teller is not None and hand is not None
        teller.result(summary)
        order = table.deal_order()
        record = HandRecord(
            table.hands, self.rules, summary.button, order,
            tuple(self.names[s] for s in order), hand.starting, tuple(hand.events), summary,
        )  # fmt: skip
        self.records.append(record)
        self._save(record)
        if self.on_hand is not None:
            self.on_hand(record)

    def _viewer(self) -> int:
        """Whose eyes the story and the saved file use: the person's seat, else the house
        (bots alone: the watcher sees every card)."""
        if self.auto:
            return HOUSE
        player = self.table.player_of(HUMAN_SEAT)
        return SPECTATOR if player is None else player

    def _told(self, events: Sequence[ev.Event]) -> None:
        if self.teller is None:  # the hand has just been dealt
            table, hand = self.table, self.loop.hand
            assert hand is not None
            person = None if self.auto else table.player_of(HUMAN_SEAT)
            self.teller = Teller(
                self.console, self.rules, table.deal_order(), self.names, hand.starting,
                self._viewer(), person=person,
            )  # fmt: skip
            self.teller.header(table.hands, table.button)
        self.teller.tell(events)

    def _ask(self, turn: Turn, view: HandView, refused: IllegalAction | None) -> Action:
        """The person's turn: show the state, read until an action parses (the session asks
        again, with the rule, when the rules refuse it)."""
        assert self.teller is not None
        if refused is not None:
            book = book_prefix(self.rulebook[0] if self.rulebook is not None else None)
            self.console.print(f"[red]not allowed:[/] {escape(in_force(str(refused), book))}")
        else:
            self.teller.turn(view)
        seat_view = SeatView.from_view(view)
        while True:
            text = self._read("draw> " if turn.drawing else "action> ").strip()
            if text.lower() in ("?", "h", "help"):
                self.console.print(escape(HELP))
                continue
            if text.lower() in ("q", "quit", "exit"):
                raise _Quit
            try:
                return parse_action(text, seat_view, turn.legal, self.rules)
            except InputError as error:
                self.console.print(f"[red]?[/] {escape(str(error))}")

    def _read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except (KeyboardInterrupt, EOFError):
            self.console.print()
            raise _Quit from None

    def _save(self, record: HandRecord) -> None:
        """Write the finished hand; a file that cannot be written ends the game after this
        hand, which stands, with one line saying why."""
        if self.writer is None:
            return
        hand = self.loop.hand
        assert hand is not None
        # What the screen showed: a person's own seat; bots alone, every card (as told).
        viewer = HOUSE if self.house else self._viewer()
        extra: dict[str, object] = {
            "game": self.rules.game.name, "button": record.button, "seats": list(record.seats),
        }  # fmt: skip
        if self.options is not None:
            extra["table"] = self.options.to_dict()
        name, options = self.rulebook if self.rulebook is not None else (None, None)
        try:
            identity = HandIdentity(
                table=PLAY_TABLE, seat_count=self.table.seats, seats=record.seats,
                started=self.started,
            )  # fmt: skip
            self.writer.write(
                hand, number=record.number, players=record.names, viewer=viewer,
                rulebook=name, options=options, extra=extra, identity=identity,
            )  # fmt: skip
        except HistoryFileError as error:
            self.save_error = str(error)
            self.console.print(f"[red]error:[/] {escape(str(error))}", soft_wrap=True)

    # --- telling ---------------------------------------------------------------------------

    def _introduce(self) -> None:
        self.console.print(f"[bold]{escape(describe_rules(self.rules))}[/] · buy-in {self.buy_in}")
        seated = " · ".join(
            f"s{seat} {self.names[seat]}" + ("" if self.kinds[seat] == "human" else
                                            f" [dim]({self.kinds[seat]})[/]")
            for seat in sorted(self.names)
        )  # fmt: skip
        self.console.print(seated)
        if not self.auto:
            self.console.print(f"[dim]{escape(HELP)}[/]")

    def _finish(self, interrupted: bool) -> PlayResult:
        table = self.table
        chips: dict[int, int] = {}
        for seat in sorted(self.names):
            player = table.player_at(seat)
            chips[seat] = player.chips if player is not None else 0
        count = len(self.records)
        title = f"after {count} hand{'' if count == 1 else 's'}"
        summary = RichTable(title=title, title_justify="left")
        summary.add_column("seat", justify="right")
        summary.add_column("player")
        summary.add_column("chips", justify="right")
        summary.add_column("net", justify="right")
        for seat, amount in chips.items():
            net = amount - self.buy_in
            style = "green" if net > 0 else "red" if net < 0 else ""
            summary.add_row(
                str(seat), self.names[seat], str(amount), f"[{style}]{net:+d}[/]" if style else "0"
            )
        self.console.print(summary)
        if table.commission:
            self.console.print(f"commission taken by the house: {table.commission}")
        if self.writer is not None and self.save_error is None and count:
            self.console.print(f"[dim]saved {self.writer.describe()}[/]", soft_wrap=True)
        return PlayResult(
            len(self.records), chips, dict(self.names), self.buy_in, table.commission,
            interrupted, tuple(self.records), self.save_error,
        )  # fmt: skip


# --- the command line ------------------------------------------------------------------------


def play_from_options(
    game: str = "holdem",
    structure: str | None = None,
    stakes: str = "1/2",
    *,
    rulebook: str | None = None,
    max_wager: int | None = None,
    ante: int | None = None,
    deck: int | None = None,
    rake: str | None = None,
    seats: int = 6,
    bots: str = ",".join(DEFAULT_OPPONENTS),
    buy_in: int | None = None,
    hands: int = 0,
    seed: int | None = None,
    auto: bool = False,
    save: str | None = None,
    save_format: str | None = None,
    overwrite: bool = False,
    append: bool = False,
    house: bool = False,
    console: Console | None = None,
    input_fn: Callable[[str], str] = input,
) -> int:
    """``croupier play``: build the rules (a rulebook's, or house rules with the game's usual
    structure) and a table of ``seats`` players (you in seat 1, bots of the kinds ``bots``
    names in turn) from plain options, and play. Returns the exit status: 0; 2 with the
    reason printed in one line when the set-up is not allowed; 1 when saving failed."""
    console = console if console is not None else Console(highlight=False)
    writer: HistoryWriter | None = None
    try:
        options = TableOptions(game, structure, stakes, rulebook, ante, deck, rake, max_wager)
        rules, book_options = options.book()
        _check_count("--hands", hands, least=0)
        _check_count("--seats", seats, least=2)
        kinds = [kind.strip() for kind in bots.split(",") if kind.strip()]
        if kinds and all(kind.isdigit() for kind in kinds):
            raise SetupError(
                f"--bots takes bot kinds ({', '.join(BOT_KINDS)}), not a number: the number "
                "of players, you included, is --seats"
            )
        big = rules.betting.small_bet
        least = MIN_BUY_IN_BLINDS * big
        chips = buy_in if buy_in is not None else 100 * big
        if isinstance(chips, bool) or not isinstance(chips, int) or chips < least:
            raise SetupError(
                f"--buy-in {chips} is below the table minimum {least}: {MIN_BUY_IN_BLINDS} "
                f"times the minimum bet {big}"
            )
        book = (
            (rulebook, book_options) if rulebook is not None and book_options is not None else None
        )
        if save is not None:
            writer = open_history(
                save, hands=hands or None, overwrite=overwrite, append=append, rules=rules,
                rulebook=book, format_name=save_format,
            )  # fmt: skip
        session = Session(
            rules, seats, seats - 1, chips, seed, auto, console, input_fn,
            opponents=kinds, writer=writer, house=house, table=options, rulebook=book,
        )  # fmt: skip
    except (ValueError, OSError) as error:
        if writer is not None:
            writer.close()
        said = in_force(str(error), book_prefix(rulebook))  # the clauses of the book in force
        console.print(f"[red]error:[/red] {escape(said)}", soft_wrap=True)
        return 2
    result = session.run(hands)
    return 1 if result.save_error is not None else 0


def _check_count(option: str, value: int, *, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SetupError(f"{option} takes a whole number of at least {least}, got {value!r}")
