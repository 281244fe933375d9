"""A live table: a dealer with real cards, and croupier as the dealer's assistant on a tablet.

One :class:`LiveTable` is a session of hands at one table under one book: each hand is a
:class:`~croupier.irregularities.dealer.DealerSession` (the engine and the floor's rulings that
``croupier dealer`` uses), fed one step at a time from the page's taps, which
:func:`step_line` turns into the dealer's input line. The table answers every step: the legal
actions and their amounts, the pots and side pots, the dealer steps due, who shows first, each
pot's winners, the odd chips and the commission as the engine settled them, and for an
irregularity the ruling with the clause of the book in force. A refusal changes nothing and
names the rule. Between hands the library's :class:`~croupier.table.Table` decides, with the
book's table rules: the first button (a seat, or a draw of cards), the button and blinds by the
book's policy (a dead button under au's), who is dealt in, and what each owes (missed blinds,
a newcomer: the house's rules, no book's); players sit down, leave, sit out and come back as
the book allows; a void hand deals again with the same button and forced bets.

Each line a table applies (a seat's change as ``seat ...``, and ``next`` for each new hand) is
its journal: the web floor
stores it before answering (croupier.server.store.live), and :meth:`LiveTables.rebuilt` makes
the table again from it after a restart or in another process (:meth:`LiveTable.replay`). Its
finished hands are downloaded as PHH or as the event log.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from croupier import events as ev
from croupier.betting import IllegalAction, Legal
from croupier.citing import book_prefix, in_force
from croupier.deck import SeededShuffler
from croupier.events import HOUSE
from croupier.forced import BlindKind
from croupier.hand import Phase, StepKind
from croupier.history.log import dump_event_log
from croupier.history.phh import dump_phh
from croupier.history.writer import history_from_hand
from croupier.irregularities.catalogue import report_line
from croupier.irregularities.dealer import DealerError, DealerSession
from croupier.irregularities.floor import Floor
from croupier.irregularities.reports import ReportError
from croupier.rulebooks import RulebookError, load_rulebook
from croupier.table import ButtonPlaced, BuyIn, Table, TableError

__all__ = ["LiveError", "LiveSetup", "LiveTable", "LiveTables", "seat_line", "step_line"]

MOST_SEATS = 10
MOST_TABLES = 200  # live tables one process keeps in memory (the rest are read again)
NEXT = "next"  # the journal's line for a new hand
SEAT = "seat "  # the journal's lines for the seats' changes (seat_line)
_SEAT_VERBS = ("sit", "leave", "away", "back")
_ACTIONS = ("fold", "check", "call", "bet", "raise", "all-in", "draw", "pat")
_STREETS = ("hole", "burn", "flop", "turn", "river", "board")


class LiveError(ValueError):
    """A live table's refusal: one line, naming the rule where a rule refuses."""


@dataclass(frozen=True)
class LiveSetup:
    """What a live table is opened with: the book, the game, the structure (None: the book's),
    the stakes (the minimum wager, or the blinds), the seats in deal order (p1 is the first
    seat left of the button) with their chips, the table options and the chips in use."""

    name: str
    book: str
    game: str
    structure: str | None
    stakes: int | tuple[int, ...]
    seats: tuple[tuple[str, int], ...]
    options: Mapping[str, object] = field(default_factory=dict)
    denominations: tuple[int, ...] = ()

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> LiveSetup:
        """From the page's form; :class:`LiveError` names what is wrong."""
        book, game = body.get("book"), body.get("game")
        if not isinstance(book, str) or not book:
            raise LiveError("book: a rulebook's name (au-casino, rws, qld, cardroom, league)")
        if not isinstance(game, str) or not game:
            raise LiveError("game: a game the book deals (holdem, stud7, ...)")
        structure = body.get("structure") or None
        if structure is not None and not isinstance(structure, str):
            raise LiveError("structure: no-limit, pot, fixed, ... or none for the book's")
        stakes = _stakes(body.get("stakes"))
        seats = body.get("seats")
        if not isinstance(seats, list) or not 2 <= len(seats) <= MOST_SEATS:
            raise LiveError(f"seats: 2 to {MOST_SEATS} players, each a name and chips")
        read: list[tuple[str, int]] = []
        for n, seat in enumerate(seats, 1):
            name = str(seat.get("name") or f"p{n}") if isinstance(seat, dict) else ""
            chips = seat.get("chips") if isinstance(seat, dict) else None
            if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
                raise LiveError(f"seat {n}: chips are a whole number above 0, got {chips!r}")
            read.append((name[:20], chips))
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise LiveError("options: the table options by name (croupier rules show BOOK)")
        chips_in_use = body.get("denominations") or []
        if not isinstance(chips_in_use, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) and c > 0 for c in chips_in_use
        ):
            raise LiveError("denominations: the table's chip values, whole numbers")
        name = str(body.get("name") or f"{book} {game}")[:60]
        return cls(
            name, book, game, structure, stakes, tuple(read), dict(options), tuple(chips_in_use)
        )

    def to_json(self) -> dict[str, object]:
        """As :meth:`from_json` reads it (the journal keeps it)."""
        stakes = self.stakes if isinstance(self.stakes, int) else "/".join(map(str, self.stakes))
        return {
            "name": self.name, "book": self.book, "game": self.game,
            "structure": self.structure, "stakes": stakes,
            "seats": [{"name": name, "chips": chips} for name, chips in self.seats],
            "options": dict(self.options), "denominations": list(self.denominations),
        }  # fmt: skip


def _stakes(value: object) -> int | tuple[int, ...]:
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return value
    if isinstance(value, str) and value.strip():
        try:
            parts = tuple(int(p) for p in value.split("/"))
        except ValueError:
            parts = ()
        if parts and all(p > 0 for p in parts):
            return parts[0] if len(parts) == 1 else parts
    raise LiveError(f"stakes: the minimum wager (10) or the blinds (5/10), got {value!r}")


def step_line(body: Mapping[str, Any]) -> str:
    """The dealer's input line for one tap of the page (docs/dealer.md, "Inputs"): ``kind`` is
    ``action`` (player from 0, action, amount), ``cards`` (street, cards, player), ``deal``,
    ``show`` (player, cards), ``muck`` (player), ``push``, ``choose`` (key, player), ``report``
    (report, answers) or ``undo``."""
    kind = body.get("kind")
    player = body.get("player")
    who = ""
    if player is not None:
        if isinstance(player, bool) or not isinstance(player, int) or player < 0:
            raise LiveError(f"player: a seat index from 0, got {player!r}")
        who = f"p{player + 1}"
    cards = body.get("cards") or ""
    if not isinstance(cards, str) or len(cards) > 200:
        raise LiveError("cards: written as Ah Kd, ? for one nobody saw")
    if kind == "action":
        action = body.get("action")
        if not who or action not in _ACTIONS:
            raise LiveError(f"an action is a player's {', '.join(_ACTIONS)}")
        amount = body.get("amount")
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise LiveError(f"an amount is whole chips, got {amount!r}")
        tail = f" {amount}" if amount is not None and action in ("bet", "raise") else ""
        tail += f" {cards}" if action == "draw" else ""
        return f"{who} {action}{tail}"
    if kind == "cards":
        street = body.get("street")
        if street not in _STREETS:
            raise LiveError(f"street: one of {', '.join(_STREETS)}")
        return " ".join(w for w in (str(street), who if street == "hole" else "", cards) if w)
    if kind in ("deal", "push", "undo"):
        return str(kind)
    if kind in ("show", "muck"):
        if not who:
            raise LiveError(f"{kind}: which player?")
        return f"{kind} {who} {cards}".strip() if kind == "show" else f"muck {who}"
    if kind == "choose":
        key = body.get("key")
        if not isinstance(key, str) or not key.replace("-", "").replace("_", "").isalnum():
            raise LiveError("choose: one of the choices the ruling offers")
        return f"choose {key} {who}".strip()
    if kind == "report":
        answers = body.get("answers") or {}
        if not isinstance(answers, dict):
            raise LiveError("answers: the report's questions by name")
        try:
            return report_line(str(body.get("report")), answers)
        except ReportError as error:
            raise LiveError(str(error)) from None
    raise LiveError(f"unknown step {kind!r}")


def seat_line(body: Mapping[str, Any]) -> str:
    """The journal's line for a seat's change from the page: ``action`` is ``sit`` (``seat``,
    ``name``, ``chips``), ``leave``, ``away`` (sits out) or ``back``."""
    action, seat = body.get("action"), body.get("seat")
    if action not in _SEAT_VERBS:
        raise LiveError(f"a seat's change is one of {', '.join(_SEAT_VERBS)}")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MOST_SEATS:
        raise LiveError(f"seat: a seat number from 1 to {MOST_SEATS}, got {seat!r}")
    if action != "sit":
        return f"{SEAT}{action} {seat}"
    name = " ".join(str(body.get("name") or "").split())[:20]
    chips = body.get("chips")
    if not name or name == NEXT:
        raise LiveError("sit: the player's name")
    if isinstance(chips, bool) or not isinstance(chips, int) or chips < 1:
        raise LiveError(f"sit: chips are a whole number above 0, got {chips!r}")
    return f"{SEAT}sit {seat} {chips} {name}"


@dataclass
class Entry:
    """One line of the table's record: the step as the dealer's input, what it did, and its
    rulings (each with the clause of the book in force)."""

    hand: int
    line: str
    text: str
    rulings: list[dict[str, object]]
    at: float
    undone: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.hand, "input": self.line, "text": self.text, "rulings": self.rulings,
            "at": self.at, "undone": self.undone,
        }  # fmt: skip


@dataclass
class Finished:
    """A finished hand, kept for its records."""

    number: int
    names: tuple[str, ...]
    session: DealerSession
    summary: dict[str, object]


class LiveTable:
    """A session of hands at one live table: the seats, the button and the forced bets between
    hands are a :class:`croupier.table.Table`'s (the book's first button, its blind policy and
    dead button, missed blinds and newcomers), each hand a :class:`DealerSession` dealt with
    the forced bets and the players the table gives it."""

    def __init__(self, number: int, owner: int, setup: LiveSetup) -> None:
        self.id = number
        self.owner = owner
        self.setup = setup
        self.book = book_prefix(setup.book)
        try:
            rulebook = load_rulebook(setup.book)
            options: dict[str, Any] = dict(setup.options)
            rules = rulebook.rules(setup.game, setup.structure, stakes=setup.stakes, **options)
            self.floor = Floor(rulebook, denominations=tuple(setup.denominations))
            most = min(rules.game.max_players.get(rules.deck, MOST_SEATS), MOST_SEATS)
            if len(setup.seats) > most:
                raise LiveError(f"{rules.game.name} seats at most {most} players here (au 5.1)")
            self.table = Table(rules, most, buy_in=BuyIn(minimum=1))
            for seat, (name, chips) in enumerate(setup.seats, 1):
                self.table.sit(seat, name, chips)
        except (RulebookError, IllegalAction, TableError, TypeError, ValueError) as error:
            raise LiveError(self.cite(str(error))) from None
        self.rules_of = {
            key: rulebook.setting(key, setup.game) for key in ("first_button", "blind_policy")
        }
        self.names: tuple[str, ...] = ()
        self.seats: tuple[int, ...] = ()  # the seat of each player of the hand, in deal order
        self.why: dict[tuple[int, bool], str] = {}  # (player, dead): why a post is no blind
        self.settled = False  # the hand over and written back to the seats (a seat changed)
        self.hand_number = 0
        self.finished: list[Finished] = []
        self.record: list[Entry] = []
        self.opened = time.time()
        self.journal = 0  # the lines applied: the steps and the new hands (LiveTables.journal)
        self.session = self._open(again=False)

    def cite(self, message: str) -> str:
        """``message`` citing the book in force only (croupier.citing)."""
        return in_force(message, self.book)

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self.session.hand.stacks)

    def _open(self, again: bool) -> DealerSession:
        """The next hand as the table deals it (``again``: the voided hand dealt again, the
        same button and forced bets, au 19.1)."""
        table = self.table
        owed = {seat: table.owes(seat) for seat in table.occupied()}
        seed = self.id * 1000 + self.hand_number
        try:
            if again:
                dealt = table.redeal(shuffler=SeededShuffler(seed), auto_deal=False)
            else:
                dealt = table.start_hand(shuffler=SeededShuffler(seed), auto_deal=False)
        except TableError as error:
            raise LiveError(self.cite(str(error))) from None
        self.seats = table.deal_order()
        self.names = tuple(self._name(seat) for seat in self.seats)
        self.why = {}
        for blind in dealt.forced.blinds:
            small, big = owed.get(self.seats[blind.player], (False, False))
            if blind.kind is BlindKind.DEAD:
                self.why[blind.player, True] = "missed small blind, posted dead"
            elif blind.kind is BlindKind.POSTED:
                self.why[blind.player, False] = (
                    "missed big blind, posted live" if small or big else "newcomer's post"
                )
        session = DealerSession(
            self.floor, table.rules, dealt.starting, forced=dealt.forced,
            shuffler=SeededShuffler(seed),
        )  # fmt: skip
        table.hand = session.hand  # the hand the dealer runs is the table's hand
        self.settled = False
        self.hand_number += 1
        return session

    def _name(self, seat: int) -> str:
        player = self.table.player_at(seat)
        return "" if player is None else player.name

    # --- steps -------------------------------------------------------------------------------

    def step(self, body: Mapping[str, Any]) -> Entry:
        """One tap, as the dealer's input: applied, or refused (:class:`LiveError`, nothing
        changed). An undo marks the step it took back."""
        return self.apply(step_line(body))

    def seat(self, body: Mapping[str, Any]) -> Entry:
        """A seat's change between hands (or a player sitting out during one), as
        :meth:`apply_seat`."""
        return self.apply_seat(seat_line(body))

    def replay(self, lines: Sequence[str]) -> None:
        """The journal's lines applied again (after a restart): the dealer's inputs, the seats'
        changes and ``next`` for each new hand."""
        for line in lines:
            if line == NEXT:
                self.next_hand()
            elif line.startswith(SEAT):
                self.apply_seat(line)
            else:
                self.apply(line)

    def apply(self, line: str) -> Entry:
        """One dealer's input line (docs/dealer.md, "Inputs"), as :meth:`step`."""
        self._check_players(line)
        if line == "undo" and self.settled:
            raise LiveError(
                "the hand is settled (a seat changed after it ended): it can no longer be undone"
            )
        before = len(self.session.hand.events)
        try:
            outcome = self.session.enter(line)
        except DealerError as error:
            raise LiveError(str(error)) from None
        except (IndexError, KeyError, ValueError) as error:  # not the session's own refusal
            hand = self.session.hand
            while len(hand.events) > before:  # as the session's undo: back to before the step
                hand = hand.step_back()
            self.session.hand = hand
            raise LiveError(f"{line}: cannot be done at this table ({error})") from None
        finally:
            self.table.hand = self.session.hand
        if line == "undo":
            taken = next(
                e for e in reversed(self.record)
                if not e.undone and e.line not in ("undo", "") and not e.line.startswith(SEAT)
            )  # fmt: skip
            taken.undone = True
            text = f"undone: {taken.line}"
        else:
            text = outcome.text
        entry = Entry(
            self.hand_number, line, text, [r.as_json() for r in outcome.rulings], time.time()
        )
        self.record.append(entry)
        self.journal += 1
        return entry

    def apply_seat(self, line: str) -> Entry:
        """A seat line (:func:`seat_line`) applied to the table as its book allows: a player
        sits down or leaves between hands (au 7.5, qld s19), sits out or comes back (owing the
        blinds that passed them). Done after a hand ended, it settles that hand."""
        words = line.split()
        verb, seat = words[1], int(words[2])
        table = self.table
        table.hand = self.session.hand
        try:
            if verb == "sit":
                name, chips = " ".join(words[4:]), int(words[3])
                table.sit(seat, name, chips)
                text = f"{name} sits in seat {seat} with {chips}"
            elif verb == "leave":
                name = self._name(seat)
                text = f"{name} leaves seat {seat} with {table.leave(seat)}"
            elif verb == "away":
                table.step_away(seat)
                text = f"{self._name(seat)} sits out (seat {seat})"
            else:
                table.come_back(seat)
                small, big = table.owes(seat)
                owes = " and ".join(w for w, o in (("small", small), ("big", big)) if o)
                tail = f", owing the {owes} blind" if owes else ""
                text = f"{self._name(seat)} is back in seat {seat}{tail}"
        except TableError as error:
            raise LiveError(self.cite(str(error))) from None
        self.settled = self.session.hand.over and not table.in_hand
        entry = Entry(self.hand_number, line, text, [], time.time())
        self.record.append(entry)
        self.journal += 1
        return entry

    def _check_players(self, line: str) -> None:
        """Every player the line names sits at this table (p1 to pN)."""
        count = self.session.hand.players
        for word in line.split()[1:]:
            if word[:1] in "pP" and word[1:].isdigit() and not 1 <= int(word[1:]) <= count:
                raise LiveError(f"{word}: the players at this table are p1 to p{count}")

    def next_hand(self) -> None:
        """The next hand, as the table deals it: the button and blinds by the book, the seats
        that may play (a void hand: dealt again with the same button and forced bets)."""
        hand = self.session.hand
        if not hand.over:
            raise LiveError("the hand is not over: push the pots first (or report a misdeal)")
        self.table.hand = hand
        summary = self.session.summary()
        self.table.finish_hand()
        done = Finished(self.hand_number, self.names, self.session, summary)
        self.session = self._open(again=hand.void)
        self.finished.append(done)
        self.record.append(Entry(self.hand_number, "", "a new hand", [], time.time()))
        self.journal += 1

    # --- what the dealer sees ----------------------------------------------------------------

    def view(self) -> dict[str, object]:
        session, hand = self.session, self.session.hand
        step = None if hand.over else hand.next_step()
        legal = None
        if hand.to_act is not None and hand.phase is Phase.BETTING and hand.pending is None:
            found = hand.legal()
            legal = {
                "player": found.player, "can_fold": found.can_fold, "can_check": found.can_check,
                "call": found.call, "raise_range": found.raise_range, "bring_in": found.bring_in,
                "facing": found.facing, "unit": found.unit, "all_in": found.all_in,
                "text": str(found),
                "presets": _presets(found, sum(a for a, _ in session.pots())),
            }  # fmt: skip
        drawing = None
        if hand.to_act is not None and hand.phase is Phase.DRAWING and hand.pending is None:
            held = len(hand.hole[hand.to_act]) + hand.hidden[hand.to_act]
            drawing = {"player": hand.to_act, "most": held}
        posts = [
            _posted(e, self.names, self.why.get((e.player, isinstance(e, ev.PostDead))))
            for e in hand.events
            if isinstance(e, _POSTS)
        ]
        folded = set(range(hand.players)) - set(hand.in_hand())
        seats = [
            {
                "p": p, "name": self.names[p], "stack": hand.stacks[p], "bet": hand.bets[p],
                "folded": p in folded, "mucked": bool(hand.mucked[p]),
                "all_in": hand.stacks[p] == 0 and p not in folded and not hand.over,
                "hole": [str(c) for c in hand.hole[p]] + ["?"] * hand.hidden[p],
                "up": [str(c) for c in hand.up[p]],
                "to_act": hand.to_act == p and not hand.over and hand.pending is None,
                "button": self.seats[p] == self.table.button, "seat": self.seats[p],
            }
            for p in range(hand.players)
        ]  # fmt: skip
        pots = [
            {"amount": amount, "eligible": [self.names[p] for p in who]}
            for amount, who in session.pots()
        ]
        results = [
            {"pot": e.pot, "amount": e.amount, "commission": e.commission, "paid": e.paid,
             "winners": [self.names[w] for w in e.winners], "hands": list(e.hands)}
            for e in hand.events if isinstance(e, ev.Announce)
        ]  # fmt: skip
        won = [0] * hand.players
        for e in hand.events:
            if isinstance(e, ev.Collect):
                won[e.player] += e.amount
        rules = hand.rules
        commission = rules.commission
        return {
            "live": self.id,
            "name": self.setup.name,
            "book": self.setup.book,
            "game": self.setup.game,
            "structure": " / ".join(dict.fromkeys(s.value for s in rules.betting.structures)),
            "stakes": self.setup.stakes,
            "commission": {
                "kind": str(commission.kind.value),
                "rate": str(commission.rate),
                "cap": commission.cap,
            },
            "hand": self.hand_number,
            "seats": seats,
            **self._between_hands(),
            "board": [str(c) for c in hand.board],
            "prompt": session.prompt(),
            "step": None
            if step is None
            else {
                "kind": step.kind.value,
                "player": step.player,
                "count": step.count,
                "up": step.up,
            },
            "show_first": step.player if step is not None and step.kind is StepKind.SHOW else None,
            "legal": legal,
            "drawing": drawing,
            "posts": posts,
            "pending": None if hand.pending is None else list(hand.pending.choices),
            "pots": pots,
            "results": results,
            "pushed": [
                {"name": self.names[p], "chips": won[p]} for p in range(hand.players) if won[p]
            ],
            "hand_commission": hand.commission,
            "over": hand.over,
            "void": hand.void,
            "record": [e.to_json() for e in self.record if e.hand == self.hand_number],
            "hands": [
                {
                    "hand": f.number,
                    "players": list(f.names),
                    "stacks": f.summary["stacks"],
                    "void": f.summary["void"],
                }
                for f in self.finished + ([self._finished(self.hand_number)] if hand.over else [])
            ],
        }

    def _between_hands(self) -> dict[str, object]:
        """What the table decided before the hand: every seat (dealt in, sitting out, not dealt
        this hand, empty) with what it owes, the button (dead or not) and the book's rules for
        it, the draw for the first button, and why a post is no positional blind."""
        table = self.table
        dealt = set(self.seats)
        chairs: list[dict[str, object]] = []
        for seat in range(1, table.seats + 1):
            player = table.player_at(seat)
            if player is None:
                chairs.append({"seat": seat, "name": None, "state": "empty"})
                continue
            small, big = table.owes(seat)
            state = "away" if table.is_away(seat) else "dealt" if seat in dealt else "out"
            chairs.append({
                "seat": seat, "name": player.name, "chips": player.chips, "state": state,
                "owes": [w for w, o in (("small", small), ("big", big)) if o],
            })  # fmt: skip
        placed = next((e for e in reversed(table.events) if isinstance(e, ButtonPlaced)), None)
        button = None
        if placed is not None:
            button = {
                "seat": placed.seat, "name": self._name(placed.seat) or None,
                "dead": placed.dead, "blinds": list(placed.blinds),
            }  # fmt: skip
        rules = {
            key: {"clause": self.cite(_said(setting.clause, setting.silent, self.setup.book)),
                  "value": str(getattr(setting.value, "value", setting.value))}
            for key, setting in self.rules_of.items()
        }  # fmt: skip
        draw = [
            {"seat": seat, "name": self._name(seat), "card": str(card)} for seat, card in table.draw
        ]
        return {
            "chairs": chairs, "button_seat": button, "table_rules": rules, "draw": draw,
            "house": {"missed_blinds": table.missed_blinds.value,
                      "new_player": table.new_player.value},
        }  # fmt: skip

    # --- records -----------------------------------------------------------------------------

    def _finished(self, number: int) -> Finished:
        """A finished hand: one of the earlier hands, or this one once it is over."""
        for done in self.finished:
            if done.number == number:
                return done
        if number == self.hand_number and self.session.hand.over:
            return Finished(number, self.names, self.session, self.session.summary())
        raise LiveError(f"no finished hand {number} at live table {self.id}")

    def phh(self, number: int) -> str:
        """A finished hand as PHH, the house's record (the cards the dealer named; unseen
        cards as ``??``). :class:`LiveError` where PHH cannot hold it (a ruling's correction):
        then the event log holds it."""
        done = self._finished(number)
        options = dict(self.setup.options) or None
        try:
            history = history_from_hand(
                done.session.hand, rulebook=self.setup.book, options=options, players=done.names
            )
            return dump_phh(history)
        except (ValueError, IllegalAction) as error:
            raise LiveError(
                f"hand {number} cannot be written as PHH ({error}): download its event log"
            ) from None

    def event_log(self, number: int) -> str:
        """A finished hand as the event log (every event, the rulings among them), with the
        table's setup and the dealer's inputs."""
        done = self._finished(number)
        inputs = [e.to_json() for e in self.record if e.hand == number and e.line]
        extra = {
            "live": self.id, "name": self.setup.name, "book": self.setup.book,
            "game": self.setup.game, "hand": number, "players": list(done.names),
            "inputs": inputs,
        }  # fmt: skip
        return dump_event_log(done.session.hand, HOUSE, extra)


def _presets(legal: Legal, pot: int) -> dict[str, int]:
    """Half the pot and the pot as raise-to amounts (the pot after the call, the usual sizing
    of a big-bet raise), each within the legal range and a multiple of the smallest chip; for
    the keypad's presets, not a rule (the range is the book's)."""
    if legal.raise_range is None:
        return {}
    low, high = legal.raise_range
    out = {}
    for name, share in (("half_pot", 2), ("pot", 1)):
        wanted = legal.facing + (pot + legal.call) // share
        wanted -= wanted % legal.unit if legal.unit > 1 else 0
        out[name] = min(max(wanted, low), high)
    return out


def _said(clause: str, silent: bool, book: str) -> str:
    """A setting's clause, said as a decision where the book is silent."""
    return f"{book} is silent; decided as {clause}" if silent else clause


_POSTS = (ev.PostBlind, ev.PostAnte, ev.PostDead, ev.BringIn)


def _posted(
    event: ev.PostBlind | ev.PostAnte | ev.PostDead | ev.BringIn,
    names: tuple[str, ...],
    why: str | None = None,
) -> str:
    """Who posted what, in a few words: ``ann: blind 5``; a post that is no positional blind
    says why: ``di: blind 10 (missed big blind, posted live)``."""
    kind = {ev.PostBlind: "blind", ev.PostAnte: "ante", ev.PostDead: "dead blind",
            ev.BringIn: "bring-in"}[type(event)]  # fmt: skip
    return f"{names[event.player]}: {kind} {event.amount}" + (f" ({why})" if why else "")


class LiveTables:
    """The live tables this process keeps in memory, by number. Their journals are the truth
    (croupier.server.store.live): a table missing here, or behind its journal, is read again
    (:meth:`rebuilt`)."""

    def __init__(self) -> None:
        self.tables: dict[int, LiveTable] = {}
        self._numbers = itertools.count(1)

    def open(self, owner: int, setup: LiveSetup, number: int | None = None) -> LiveTable:
        """A new table (``number``: its journal's; else the next of this process)."""
        table = LiveTable(next(self._numbers) if number is None else number, owner, setup)
        self.keep(table)
        return table

    def keep(self, table: LiveTable) -> None:
        if table.id not in self.tables and len(self.tables) >= MOST_TABLES:
            oldest = min(self.tables.values(), key=lambda t: t.opened)
            del self.tables[oldest.id]
        self.tables[table.id] = table

    def forget(self, number: int) -> None:
        self.tables.pop(number, None)

    def rebuilt(
        self, number: int, owner: int, setup: dict[str, Any], lines: Sequence[str]
    ) -> LiveTable:
        """Table ``number`` made again from its journal: its setup and its lines."""
        table = LiveTable(number, owner, LiveSetup.from_json(setup))
        table.replay(lines)
        self.keep(table)
        return table

    def get(self, number: int) -> LiveTable:
        table = self.tables.get(number)
        if table is None:
            raise LiveError(f"no live table {number}")
        return table

    def listing(self) -> list[dict[str, object]]:
        return [
            {"live": t.id, "name": t.setup.name, "book": t.setup.book, "game": t.setup.game,
             "hand": t.hand_number, "players": len(t.names)}
            for t in self.tables.values()
        ]  # fmt: skip
