"""Poker at the terminal: a person against bots, or bots alone, hand after hand at one table.

A thin shell: the rules live in :class:`~croupier.hand.Hand` and :class:`~croupier.table.Table`.
This module only reads what the player types, asks the bots, and tells the story from the
events, each seen as its viewer may see it (the person never sees a bot's hole cards until they
are shown down).

Typed actions: ``c`` check or call, ``f`` fold, ``b 50`` / ``r 300`` bet or raise to, ``a``
all-in, ``d 2 5`` discard the cards at positions 2 and 5 (or ``d Ah Kd``), ``p`` stand pat,
``?`` help, ``q`` quit. Ctrl-C or Ctrl-D ends the game between prompts, with a summary.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from croupier import events as ev
from croupier.betting import Betting, IllegalAction, Legal, Structure
from croupier.bots import (
    Action,
    Bot,
    CallingStation,
    RandomBot,
    SeatView,
    StrengthBot,
    decide,
    must_open,
)
from croupier.cards import Card, CardError, DeckKind
from croupier.cards import parse_cards as _parse_cards
from croupier.deck import SecureShuffler, SeededShuffler, Shuffler
from croupier.events import SPECTATOR
from croupier.games import Game, GameError, Opener
from croupier.games import game as find_game
from croupier.hand import Hand, Phase, Rules
from croupier.history import PHHError, dump_phhs, event_record, history_from_hand
from croupier.pots import Basis, Commission, CommissionKind, PotError, build_pots
from croupier.rulebooks import RulebookError, load_rulebook, rulebook_names
from croupier.table import BuyIn, HandSummary, Table, TableError

__all__ = [
    "BOT_KINDS",
    "HandRecord",
    "InputError",
    "PlayResult",
    "Session",
    "describe_legal",
    "house_rules",
    "parse_action",
    "play",
    "play_from_options",
]

HUMAN_SEAT = 1
NAMES = ("Ada", "Bea", "Cy", "Dot", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu")
BOT_KINDS: dict[str, Callable[[], Bot]] = {
    "strength": StrengthBot,
    "calling": CallingStation,
    "random": RandomBot,
}
DEFAULT_OPPONENTS = ("strength", "strength", "calling", "random")
SUIT_STYLES = ("green", "blue", "red", "bold")  # clubs, diamonds, hearts, spades: four colours

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
    """One finished hand, for histories (the ``save`` hook) and callers of :func:`play`."""

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


# --- rules for a quick game ------------------------------------------------------------------


def house_rules(
    game: str = "holdem",
    structure: str = "no-limit",
    stakes: str | Sequence[int] = "1/2",
    *,
    ante: int | None = None,
    deck: int | None = None,
    rake: str | None = None,
    rake_cap: int | None = None,
) -> Rules:
    """Simple house rules for a game at the terminal (not any rulebook's; load a rulebook for
    that). ``stakes`` ``"S/B"``: blind games post blinds S and B; stud antes S (unless
    ``ante``) and the lowest up card opens. The small bet is B, the big bet 2B (fixed limit,
    from the third round), spread limit bets up to 4B, and limits are capped at a bet and three
    raises (au 11.5(g)). ``rake``: a percentage commission per pot, e.g. ``"5%"``, at most
    ``rake_cap`` a hand."""
    engine = find_game(game)
    small, big = _stakes(stakes)
    try:
        chosen = Structure(structure)
    except ValueError:
        names = ", ".join(s.value for s in Structure)
        raise GameError(
            f"unknown betting structure {structure!r}: expected one of {names}"
        ) from None
    kind = DeckKind.from_size(deck) if deck is not None else next(iter(engine.max_players))
    limited = chosen in (Structure.FIXED, Structure.SPREAD)
    betting = Betting(
        structures=(chosen,),
        small_bet=big,
        big_bet=2 * big,
        max_wager=4 * big if chosen is Structure.SPREAD else None,
        raise_cap=3 if limited else None,
    )
    blinds = _uses_blinds(engine)
    return Rules(
        game=engine,
        betting=betting,
        deck=kind,
        blinds=(small, big) if blinds else (),
        ante=ante if ante is not None else (0 if blinds else small),
        commission=_rake(rake, rake_cap),
    )


def _uses_blinds(game: Game) -> bool:
    return any(street.opener is Opener.LEFT_OF_BLINDS for street in game.streets)


def _stakes(stakes: str | Sequence[int]) -> tuple[int, int]:
    if isinstance(stakes, str):
        parts = stakes.replace("-", "/").split("/")
        try:
            amounts = [int(part) for part in parts]
        except ValueError:
            amounts = []
    else:
        amounts = list(stakes)
    if len(amounts) != 2 or not 0 < amounts[0] <= amounts[1]:
        raise GameError(
            f"stakes {stakes!r}: expected two amounts 'S/B' with 0 < S <= B, e.g. '1/2' "
            "(blind games: the blinds; stud: the ante and the bet)"
        )
    return amounts[0], amounts[1]


def _rake(rake: str | None, cap: int | None) -> Commission:
    if rake is None:
        return Commission()
    text = rake.strip()
    try:
        rate = Fraction(text[:-1]) / 100 if text.endswith("%") else Fraction(text)
        return Commission(CommissionKind.PERCENTAGE, rate, Basis.POT, cap=cap)
    except (ValueError, ZeroDivisionError, PotError) as error:
        raise GameError(f"rake {rake!r}: expected a percentage like '5%' ({error})") from None


# --- typed actions ---------------------------------------------------------------------------


def parse_action(text: str, view: SeatView, legal: Legal | None) -> Action:
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
    if verb in ("p", "pat"):
        _no_arguments(verb, args)
        return Action.draw()
    if verb in ("d", "draw", "discard"):
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
    on_hand: Callable[[HandRecord], None] | None = None,
) -> PlayResult:
    """Play ``hands`` hands (0: until the person quits or fewer than two can play) at a table
    of ``seats`` seats: the person in seat 1 (a bot too when ``auto``) and ``bots`` bots after
    it, each sitting down with ``buy_in`` chips. ``opponents`` names the bots' kinds in turn
    (see :data:`BOT_KINDS`). ``save``: write each finished hand to this file (JSON lines);
    ``on_hand``: called with each finished hand. A ``seed`` makes the whole game repeatable."""
    session = Session(
        rules, seats, bots, buy_in, seed, auto, console, input_fn,
        opponents=opponents, save=save, on_hand=on_hand,
    )  # fmt: skip
    return session.run(hands)


class Session:
    """One game at one table. :func:`play` builds one and runs it; building checks the set-up
    (seats, buy-in, bots) and raises :class:`~croupier.table.TableError` naming the problem."""

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
        save: str | os.PathLike[str] | None = None,
        on_hand: Callable[[HandRecord], None] | None = None,
        rulebook: tuple[str, Mapping[str, object]] | None = None,
    ) -> None:
        """``rulebook``: the shipped book and house options the rules came from, named in
        saved PHH histories (docs/phh-extensions.md)."""
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
        self.table = Table(rules, seats, buy_in=BuyIn(minimum=buy_in))
        self.rules = rules
        self.console = console
        self.input_fn = input_fn
        self.auto = auto
        self.buy_in = buy_in
        self.on_hand = on_hand
        self.save = Path(save) if save is not None else None
        self.rulebook = rulebook
        if self.save is not None and self.save.suffix == ".phhs":
            _check_phh(rules, seats, rulebook)
        if self.save is not None:
            self.save.write_text("")  # start the file now: a bad path fails before the game
        self.shuffler: Shuffler = SeededShuffler(seed) if seed is not None else SecureShuffler()
        self.rng = random.Random(f"croupier-bots-{seed}") if seed is not None else random.Random()
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

    # --- the loop ------------------------------------------------------------------------

    def run(self, hands: int = 0) -> PlayResult:
        self._introduce()
        interrupted = False
        try:
            while hands <= 0 or len(self.records) < hands:
                if not self._can_deal():
                    break
                self._play_hand()
        except (_Quit, KeyboardInterrupt, EOFError):
            interrupted = True
            if self.table.in_hand:
                number = self.table.hands
                self.console.print(
                    f"\n[yellow]Hand #{number} abandoned:[/] the chips stand as they were "
                    "before it."
                )
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
        table = self.table
        hand = table.start_hand(shuffler=self.shuffler)
        order = tuple(table.seat_of(p) for p in range(hand.players))
        viewer = None if self.auto else table.player_of(HUMAN_SEAT)
        teller = _Teller(self.console, hand, order, self.names, viewer, omniscient=self.auto)
        assert table.button is not None
        teller.start(table.hands, table.button)
        while hand.phase is not Phase.OVER:
            teller.tell()
            assert hand.to_act is not None
            seat = order[hand.to_act]
            bot = self.bots.get(seat)
            if bot is None:
                self._ask(hand, teller)
            else:
                decide(bot, hand, self.rng).apply(hand)
        teller.tell()
        summary = table.finish_hand()
        teller.result(summary)
        record = HandRecord(
            table.hands, self.rules, summary.button, order,
            tuple(self.names[s] for s in order), hand.starting, tuple(hand.events), summary,
        )  # fmt: skip
        self.records.append(record)
        if self.save is not None and self.save.suffix == ".phhs":
            _append_phh(self.save, hand, record, self.rulebook)
        elif self.save is not None:
            _append_history(self.save, record)
        if self.on_hand is not None:
            self.on_hand(record)

    def _ask(self, hand: Hand, teller: _Teller) -> None:
        """The person's turn: show the state, read until an action is legal, apply it."""
        assert hand.to_act is not None
        view = SeatView.of(hand, hand.to_act)
        legal = None if hand.drawing else hand.legal()
        teller.turn(view, legal)
        while True:
            text = self._read("draw> " if legal is None else "action> ").strip()
            if text.lower() in ("?", "h", "help"):
                self.console.print(escape(HELP))
                continue
            if text.lower() in ("q", "quit", "exit"):
                raise _Quit
            try:
                parse_action(text, view, legal).apply(hand)
            except InputError as error:
                self.console.print(f"[red]?[/] {escape(str(error))}")
            except IllegalAction as error:
                self.console.print(f"[red]not allowed:[/] {escape(str(error))}")
            else:
                return

    def _read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except (KeyboardInterrupt, EOFError):
            self.console.print()
            raise _Quit from None

    # --- telling ---------------------------------------------------------------------------

    def _introduce(self) -> None:
        rules = self.rules
        structure = "/".join(dict.fromkeys(s.value for s in rules.betting.structures))
        stakes = (
            f"blinds {'/'.join(map(str, rules.blinds))}" if rules.blinds else f"ante {rules.ante}"
        )
        self.console.print(
            f"[bold]{rules.game.name}[/] · {structure} · {stakes} · "
            f"{rules.deck.size}-card deck · buy-in {self.buy_in}"
        )
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
        return PlayResult(
            len(self.records), chips, dict(self.names), self.buy_in, table.commission,
            interrupted, tuple(self.records),
        )  # fmt: skip


def describe_legal(legal: Legal) -> str:
    """What the player may do, with amounts: ``call 40 · raise 80..1240 · fold``."""
    if must_open(legal) and legal.raise_range is not None:
        low, high = legal.raise_range
        amount = str(low) if low == high else f"{low}..{high}"
        return f"bet {amount} (you must open the betting)"
    return str(legal)


def card_markup(card: Card | None) -> str:
    """A card in rich markup: four colours, one per suit; ``??`` dimmed when unknown."""
    if card is None:
        return "[dim]??[/]"
    return f"[{SUIT_STYLES[card.suit]}]{card}[/]"


def cards_markup(cards: Iterable[Card | None]) -> str:
    return " ".join(card_markup(card) for card in cards)


class _Teller:
    """Tells one hand from its events, each as ``viewer`` may see it (``None``: a spectator);
    ``omniscient``: every card as dealt, for games between bots.

    It keeps its own picture of the table (stacks, bets, pot, board, up cards), replayed from
    the events it has told, so each line shows the table as it was at that moment."""

    def __init__(
        self,
        console: Console,
        hand: Hand,
        order: tuple[int, ...],
        names: dict[int, str],
        viewer: int | None,
        *,
        omniscient: bool = False,
    ) -> None:
        self.console = console
        self.omniscient = omniscient
        self.hand = hand
        self.order = order
        self.names = names
        self.viewer = viewer
        self.told = 0
        players = len(order)
        self.stacks = list(hand.starting)
        self.bets = [0] * players
        self.contributed = [0] * players  # earlier rounds and antes
        self.paid = 0  # chips gone from the middle at the settlement
        self.folded = [False] * players
        self.up: list[list[Card]] = [[] for _ in range(players)]
        self.board: list[Card] = []
        self.current = 0  # the bet to match in this round, for "bets" vs "raises to"
        self.to_act: int | None = None
        self.street_pending = False  # a street began: show the table before its first action
        self.changed = True  # chips moved since the table line was last shown
        self.betting = False  # the first betting round has begun
        self.drew = False

    # --- the picture -------------------------------------------------------------------------

    @property
    def pot(self) -> int:
        return sum(self.contributed) + sum(self.bets) - self.paid

    def _gather(self) -> None:
        for player, bet in enumerate(self.bets):
            self.contributed[player] += bet
        self.bets = [0] * len(self.bets)

    def _replay(self, event: ev.Event) -> None:
        self.changed = True
        if isinstance(event, _NEXT_CARDS) and self.betting:
            self._gather()  # a round's bets go to the middle before the next cards are dealt
        if isinstance(event, ev.StreetStart):
            self.betting = True  # blinds come before the first cards, and stay bets
        elif isinstance(event, ev.PostAnte):
            self.stacks[event.player] -= event.amount
            self.contributed[event.player] += event.amount
        elif isinstance(event, ev.PostBlind | ev.Call | ev.Bet):
            self.stacks[event.player] -= event.amount
            self.bets[event.player] += event.amount
        elif isinstance(event, ev.Fold):
            self.folded[event.player] = True
        elif isinstance(event, ev.DealUp):
            self.up[event.player].extend(event.cards)
        elif isinstance(event, ev.DealBoard):
            self.board.extend(event.cards)
        elif isinstance(event, ev.ReturnUncalled | ev.Show | ev.Muck | ev.Rake | ev.Collect):
            self._gather()
            if isinstance(event, ev.ReturnUncalled | ev.Collect):
                self.stacks[event.player] += event.amount
                self.paid += event.amount
            elif isinstance(event, ev.Rake):
                self.paid += event.amount

    # --- telling -----------------------------------------------------------------------------

    def who(self, player: int) -> str:
        return escape(self.names[self.order[player]])

    def start(self, number: int, button: int) -> None:
        self.console.print()
        who = escape(self.names[button])
        self.console.rule(f"[bold]Hand #{number}[/] · button s{button} {who}")

    def _seen(self, event: ev.Event) -> ev.Event:
        viewer = SPECTATOR if self.viewer is None else self.viewer
        return event if self.omniscient else event.visible_to(viewer)

    def tell(self) -> None:
        """Print the events logged since the last call."""
        events = [self._seen(e) for e in self.hand.events[self.told :]]
        self.told = len(self.hand.events)
        antes = [e for e in events if isinstance(e, ev.PostAnte)]
        if antes:
            self.console.print(
                "antes: " + " · ".join(f"{self.who(e.player)} {e.amount}" for e in antes)
            )
        for event in events:
            if isinstance(event, ev.Fold | ev.Check | ev.Call | ev.Bet) and self.street_pending:
                self.to_act = event.player
                self._show_table()
            line = self._line(event)
            self._replay(event)
            if line:
                self.console.print(line)
        over = self.hand.phase is Phase.OVER
        self.to_act = None if over else self.hand.to_act
        if self.street_pending and not over and not self.hand.drawing:
            self._show_table()

    def _show_table(self) -> None:
        self.street_pending = False
        self.changed = False
        self.console.print(self.table_line())

    def _line(self, event: ev.Event) -> str | None:
        if isinstance(event, ev.PostBlind):
            self.current = max(self.current, event.amount)
            s = self._s(event.player)
            return f"{self.who(event.player)} post{s} {event.amount}{_all_in_note(event.all_in)}"
        if isinstance(event, ev.DealHole):
            if all(card is None for card in event.cards):
                return None
            verb = "are" if self._is_viewer(event.player) else "is"
            return f"{self.who(event.player)} {verb} dealt {cards_markup(event.cards)}"
        if isinstance(event, ev.StreetStart):
            return self._street(event.index)
        if isinstance(event, ev.Fold):
            return f"{self.who(event.player)} [dim]fold{self._s(event.player)}[/]"
        if isinstance(event, ev.Check):
            return f"{self.who(event.player)} check{self._s(event.player)}"
        if isinstance(event, ev.Call):
            s, note = self._s(event.player), _all_in_note(event.all_in)
            return f"{self.who(event.player)} call{s} {event.amount}{note}"
        if isinstance(event, ev.Bet):
            s = self._s(event.player)
            verb = f"bet{s} {event.to}" if self.current == 0 else f"raise{s} to {event.to}"
            self.current = max(self.current, event.to)
            return f"{self.who(event.player)} [bold]{verb}[/]{_all_in_note(event.all_in)}"
        if isinstance(event, ev.Draw):
            return self._draw(event)
        if isinstance(event, ev.Reshuffle):
            return f"[dim]the dealer shuffles the spent cards: {event.cards} in the stub[/]"
        if isinstance(event, ev.ReturnUncalled):
            return f"{event.amount} uncalled goes back to {self.who(event.player)}"
        if isinstance(event, ev.Show):
            board = f"  [dim](board {cards_markup(self.board)})[/]" if self.board else ""
            return (
                f"{self.who(event.player)} show{self._s(event.player)} "
                f"{cards_markup(event.cards)}  [bold]{escape(event.description)}[/]{board}"
            )
        if isinstance(event, ev.Muck):
            return f"{self.who(event.player)} [dim]muck{self._s(event.player)}[/]"
        if isinstance(event, ev.Rake):
            return f"[dim]commission {event.amount} from {self._pot(event.pot)}[/]"
        if isinstance(event, ev.Collect):
            won = f"{self.who(event.player)} win{self._s(event.player)} {event.amount}"
            return f"[green]{won}[/] from {self._pot(event.pot)}"
        return None  # antes (told together), up cards and the board (in the street line), burns

    def _is_viewer(self, player: int) -> bool:
        return not self.omniscient and player == self.viewer

    def _s(self, player: int) -> str:
        return "" if self._is_viewer(player) else "s"

    def _pot(self, index: int) -> str:
        pots = {e.pot for e in self.hand.events if isinstance(e, ev.Collect | ev.Rake)}
        if len(pots) <= 1:
            return "the pot"
        return "the main pot" if index == 0 else f"side pot {index}"

    def _draw(self, event: ev.Draw) -> str:
        header = "" if self.drew else "[bold cyan]── the draw[/]\n"
        self.drew = True
        who, s = self.who(event.player), self._s(event.player)
        if not event.discarded:
            return f"{header}{who} stand{s} pat"
        if self._is_viewer(event.player) or self.omniscient:
            return (
                f"{header}{who} discard{s} {cards_markup(event.discarded)}, "
                f"draw{s} {cards_markup(event.drawn)}"
            )
        return f"{header}{who} draws {len(event.discarded)}"

    def _street(self, index: int) -> str:
        if index:
            self.current = 0
        self.street_pending = True
        name = street_name(self.hand.rules.game, index)
        board = f"  {cards_markup(self.board)}" if self.board else ""
        return f"[bold cyan]── {name}[/]{board}  [dim]pot[/] {self.pot}"

    def table_line(self) -> str:
        """Every player in a line: seat, name, up cards (stud), chips and this round's bet;
        the player to act highlighted."""
        parts = []
        for player, seat in enumerate(self.order):
            text = f"[dim]s{seat}[/] {self.who(player)}"
            if self.up[player]:
                text += f" [{cards_markup(self.up[player])}]"
            text += f" {self.stacks[player]}"
            if self.folded[player]:
                text = f"[dim]{text} folded[/]"
            elif self.stacks[player] == 0:
                text += " [yellow]all-in[/]"
            if self.bets[player]:
                text += f" [dim](bet {self.bets[player]})[/]"
            if player == self.to_act:
                text = f"[reverse]{text}[/]"
            parts.append(text)
        return " · ".join(parts)

    def turn(self, view: SeatView, legal: Legal | None) -> None:
        """The person's turn: their cards, the board, every stack, the pots, what is legal."""
        self.to_act = view.player
        if self.changed:
            self._show_table()
        mine = "  ".join(
            f"[dim]{i}[/] {card_markup(card)}" for i, card in enumerate(view.hole, start=1)
        )
        if view.up[view.player]:
            mine += f"  [dim]up[/] {cards_markup(view.up[view.player])}"
        board = f"   board {cards_markup(view.board)}" if view.board else ""
        self.console.print(f"your cards {mine}{board}   {self._pots()}")
        if legal is None:
            self.console.print(
                "[bold]your draw:[/] d 2 5 (positions) or d Ah Kd to discard and draw · "
                "p to stand pat"
            )
        else:
            self.console.print(f"[bold]your turn:[/] {escape(describe_legal(legal))}")

    def _pots(self) -> str:
        live = [not folded for folded in self.folded]
        pots = build_pots(self.contributed, live) if any(self.contributed) else ()
        text = f"pot {self.pot}"
        if len(pots) > 1:
            parts = ["main " + str(pots[0].amount)]
            parts += [f"side {i} {pot.amount}" for i, pot in enumerate(pots[1:], start=1)]
            text += " (" + " · ".join(parts) + ")"
        if any(self.bets):
            text += f" [dim]incl. bets {sum(self.bets)}[/]"
        return text

    def result(self, summary: HandSummary) -> None:
        parts = []
        for seat, net in summary.net.items():
            style = "green" if net > 0 else "red" if net < 0 else "dim"
            parts.append(f"{escape(self.names[seat])} [{style}]{net:+d}[/]")
        line = "net: " + " · ".join(parts)
        if summary.commission:
            line += f" · [dim]house {summary.commission}[/]"
        self.console.print(line)
        for seat in summary.busted:
            self.console.print(f"[yellow]{escape(self.names[seat])} is out of chips[/]")


_NEXT_CARDS = (ev.StreetStart, ev.Burn, ev.DealHole, ev.DealUp, ev.DealBoard, ev.Draw)


def _all_in_note(flag: bool) -> str:
    return " [yellow](all-in)[/]" if flag else ""


_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def street_name(game: Game, index: int) -> str:
    """A betting round's usual name: preflop/flop/turn/river, 3rd..7th street, the draw."""
    streets = game.streets
    if any(street.up for street in streets):
        cards = sum(street.hole + street.up for street in streets[: index + 1])
        return _ORDINALS.get(cards, f"{cards}th") + " street"
    if any(street.draw for street in streets):
        return "after the draw" if streets[index].draw else "before the draw"
    board = sum(street.board for street in streets[: index + 1])
    if streets[0].board == 0 and len(streets) > 1 and streets[1].board == 3:
        return ("preflop", "flop", "turn", "river")[min(board - 2, 3)] if board else "preflop"
    return f"round {index + 1}"


# --- histories -------------------------------------------------------------------------------


def _check_phh(rules: Rules, seats: int, rulebook: tuple[str, Mapping[str, object]] | None) -> None:
    """Refuse a .phhs save before the game when PHH, with croupier's fields, cannot describe
    these rules (tried on a hand dealt for the purpose)."""
    name, options = rulebook if rulebook is not None else (None, None)
    stacks = [100 * rules.betting.small_bet] * max(2, seats)
    try:
        history_from_hand(Hand(rules, stacks, shuffler=SeededShuffler(0)), rulebook=name,
                          options=options)  # fmt: skip
    except PHHError as error:
        raise TableError(f"{error}: save to a .jsonl file instead") from None


def _append_phh(
    path: Path, hand: Hand, record: HandRecord, rulebook: tuple[str, Mapping[str, object]] | None
) -> None:
    """One PHH table per hand, named by its number, appended to a .phhs collection."""
    name, options = rulebook if rulebook is not None else (None, None)
    history = history_from_hand(hand, rulebook=name, options=options, players=record.names)
    text = dump_phhs([dataclasses.replace(history, name=str(record.number))])
    with path.open("a", encoding="utf-8") as file:
        file.write(text + "\n")


def _append_history(path: Path, record: HandRecord) -> None:
    """The ``save`` hook for other files: one JSON object per hand, every event with its
    fields, cards as text."""
    line = {
        "hand": record.number,
        "game": record.rules.game.name,
        "button": record.button,
        "seats": list(record.seats),
        "names": list(record.names),
        "starting": list(record.starting),
        "events": [event_record(event) for event in record.events],
        "net": {str(seat): net for seat, net in record.summary.net.items()},
    }
    with path.open("a", encoding="utf-8") as file:
        file.write(json.dumps(line) + "\n")


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
    seats: int | None = None,
    bots: int = 5,
    buy_in: int | None = None,
    hands: int = 0,
    seed: int | None = None,
    auto: bool = False,
    opponents: str = ",".join(DEFAULT_OPPONENTS),
    save: str | None = None,
    console: Console | None = None,
    input_fn: Callable[[str], str] = input,
) -> int:
    """``croupier play``: build the rules (a rulebook's, or simple house rules) and a table
    from plain options and play. Returns the exit status: 0, or 2 with the reason printed when
    the set-up is not allowed."""
    console = console if console is not None else Console(highlight=False)
    try:
        book: tuple[str, Mapping[str, object]] | None = None
        if rulebook is not None:
            rules, options = _book_table(
                rulebook, game, structure, stakes, ante=ante, deck=deck, rake=rake,
                max_wager=max_wager,
            )  # fmt: skip
            if rulebook in rulebook_names():  # a user's file has no name a history can give
                book = (rulebook, options)
        else:
            rules = house_rules(
                game, structure or "no-limit", stakes, ante=ante, deck=deck, rake=rake
            )
        big = rules.betting.small_bet
        session = Session(
            rules,
            seats if seats is not None else bots + 1,
            bots,
            buy_in if buy_in is not None else 100 * big,
            seed,
            auto,
            console,
            input_fn,
            opponents=[kind.strip() for kind in opponents.split(",") if kind.strip()],
            save=save,
            rulebook=book,
        )
    except (GameError, TableError, CardError, RulebookError, OSError) as error:
        console.print(f"[red]error:[/red] {escape(str(error))}")
        return 2
    session.run(hands)
    return 0


def book_rules(
    name: str,
    game: str,
    structure: str | None,
    stakes: str,
    *,
    ante: int | None = None,
    deck: int | None = None,
    rake: str | None = None,
    max_wager: int | None = None,
) -> Rules:
    """A rulebook's rules for one table: ``stakes`` ``"S/B"`` are the blinds in blind games
    and ``B`` is the minimum wager otherwise; ``rake`` (e.g. ``"5%"``) asks for the book's
    percentage commission at that rate, where the book allows one. Without ``max_wager`` the
    table maximum is 4 B at spread limit (au 11.5(f)), as in :func:`house_rules`, and 2 B at
    structured limit where the book lets the house post one (qld s28(8))."""
    return _book_table(
        name, game, structure, stakes, ante=ante, deck=deck, rake=rake, max_wager=max_wager
    )[0]


def _book_table(
    name: str,
    game: str,
    structure: str | None,
    stakes: str,
    *,
    ante: int | None,
    deck: int | None,
    rake: str | None,
    max_wager: int | None,
) -> tuple[Rules, dict[str, object]]:
    """:func:`book_rules`, with the house options chosen (the ante and deck aside, which a
    history records in fields of its own)."""
    book = load_rulebook(name)
    small, big = _stakes(stakes)
    blinds = _uses_blinds(find_game(game))
    options: dict[str, object] = {}
    if ante is not None or not blinds:
        options["ante"] = ante if ante is not None else small  # stud: "S/B" is ante/bet
    if rake is not None:
        options["commission"] = "percentage"
        options["commission_rate"] = rake
    if max_wager is None and structure == Structure.SPREAD.value:
        max_wager = 4 * big
    elif max_wager is None and structure == Structure.FIXED.value:
        # qld s28(8)(b): the late rounds' structured bet is the table maximum, 2 B here.
        max_wager = 2 * big if "max_wager" in book.house_options() else None
    if max_wager is not None:
        options["max_wager"] = max_wager
    chosen = book.rules(
        game, structure, stakes=(small, big) if blinds else big, deck=deck, **options
    )
    return chosen, {key: value for key, value in options.items() if key != "ante"}
