"""A live table: a dealer with real cards, and croupier as the dealer's assistant on a tablet.

One :class:`LiveTable` is a session of hands at one table under one book: each hand is a
:class:`~croupier.irregularities.dealer.DealerSession` (the engine and the floor's rulings that
``croupier dealer`` uses), fed one step at a time from the page's taps, which
:func:`step_line` turns into the dealer's input line. The table answers every step: the legal
actions and their amounts, the pots and side pots, the dealer steps due, who shows first, each
pot's winners, the odd chips and the commission as the engine settled them, and for an
irregularity the ruling with the clause of the book in force. A refusal changes nothing and
names the rule. Between hands the button moves one seat (the deal order turns by one), a void
hand deals again with the same button, and a seat with no chips leaves.

Each line a table applies (and ``next`` for each new hand) is its journal: the web floor
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
from croupier.events import HOUSE
from croupier.hand import Phase, StepKind
from croupier.history.log import dump_event_log
from croupier.history.phh import dump_phh
from croupier.history.writer import history_from_hand
from croupier.irregularities.catalogue import report_line
from croupier.irregularities.dealer import DealerError, DealerSession, open_session
from croupier.irregularities.reports import ReportError
from croupier.rulebooks import RulebookError

__all__ = ["LiveError", "LiveSetup", "LiveTable", "LiveTables", "step_line"]

MOST_SEATS = 10
MOST_TABLES = 200  # live tables one process keeps in memory (the rest are read again)
NEXT = "next"  # the journal's line for a new hand
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
    def __init__(self, number: int, owner: int, setup: LiveSetup) -> None:
        self.id = number
        self.owner = owner
        self.setup = setup
        self.names = tuple(name for name, _ in setup.seats)
        self.stacks = tuple(chips for _, chips in setup.seats)
        self.hand_number = 0
        self.finished: list[Finished] = []
        self.record: list[Entry] = []
        self.opened = time.time()
        self.journal = 0  # the lines applied: the steps and the new hands (LiveTables.journal)
        self.session = self._open()

    def _open(self) -> DealerSession:
        s = self.setup
        try:
            session = open_session(
                s.book, s.game, structure=s.structure, stakes=s.stakes, options=dict(s.options),
                stacks=self.stacks, denominations=s.denominations,
                seed=self.id * 1000 + self.hand_number,
            )  # fmt: skip
        except (RulebookError, IllegalAction, ValueError) as error:
            raise LiveError(str(error)) from None
        self.hand_number += 1
        return session

    # --- steps -------------------------------------------------------------------------------

    def step(self, body: Mapping[str, Any]) -> Entry:
        """One tap, as the dealer's input: applied, or refused (:class:`LiveError`, nothing
        changed). An undo marks the step it took back."""
        return self.apply(step_line(body))

    def replay(self, lines: Sequence[str]) -> None:
        """The journal's lines applied again (after a restart): the dealer's inputs and
        ``next`` for each new hand."""
        for line in lines:
            if line == NEXT:
                self.next_hand()
            else:
                self.apply(line)

    def apply(self, line: str) -> Entry:
        """One dealer's input line (docs/dealer.md, "Inputs"), as :meth:`step`."""
        self._check_players(line)
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
        if line == "undo":
            taken = next(e for e in reversed(self.record) if not e.undone and e.line != "undo")
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

    def _check_players(self, line: str) -> None:
        """Every player the line names sits at this table (p1 to pN)."""
        count = self.session.hand.players
        for word in line.split()[1:]:
            if word[:1] in "pP" and word[1:].isdigit() and not 1 <= int(word[1:]) <= count:
                raise LiveError(f"{word}: the players at this table are p1 to p{count}")

    def next_hand(self) -> None:
        """The next hand: the button moves one seat (a void hand: the same button deals again),
        a seat without chips leaves."""
        hand = self.session.hand
        if not hand.over:
            raise LiveError("the hand is not over: push the pots first (or report a misdeal)")
        self.finished.append(
            Finished(self.hand_number, self.names, self.session, self.session.summary())
        )
        order = list(zip(self.names, hand.stacks, strict=True))
        if not hand.void:
            order = order[1:] + order[:1]  # p2 is now the first seat left of the button
        order = [(name, chips) for name, chips in order if chips > 0]
        if len(order) < 2:
            raise LiveError("fewer than two players have chips: the session is over")
        self.names = tuple(name for name, _ in order)
        self.stacks = tuple(chips for _, chips in order)
        self.session = self._open()
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
        posts = [_posted(e, self.names) for e in hand.events if isinstance(e, _POSTS)]
        folded = set(range(hand.players)) - set(hand.in_hand())
        seats = [
            {
                "p": p, "name": self.names[p], "stack": hand.stacks[p], "bet": hand.bets[p],
                "folded": p in folded, "mucked": bool(hand.mucked[p]),
                "all_in": hand.stacks[p] == 0 and p not in folded and not hand.over,
                "hole": [str(c) for c in hand.hole[p]] + ["?"] * hand.hidden[p],
                "up": [str(c) for c in hand.up[p]],
                "to_act": hand.to_act == p and not hand.over and hand.pending is None,
                "button": p == hand.players - 1,
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


_POSTS = (ev.PostBlind, ev.PostAnte, ev.PostDead, ev.BringIn)


def _posted(
    event: ev.PostBlind | ev.PostAnte | ev.PostDead | ev.BringIn, names: tuple[str, ...]
) -> str:
    """Who posted what, in a few words: ``ann: blind 5``."""
    kind = {ev.PostBlind: "blind", ev.PostAnte: "ante", ev.PostDead: "dead blind",
            ev.BringIn: "bring-in"}[type(event)]  # fmt: skip
    return f"{names[event.player]}: {kind} {event.amount}"


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
