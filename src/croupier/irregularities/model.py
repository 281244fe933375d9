"""Rulings and what they are made of: each book's rule for a situation, the choices a floor is
offered, and the plan of corrections a ruling applies (docs/irregularities-spec.md §1.1)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType

from croupier import events as ev
from croupier.corrections import IrregularityError
from croupier.hand import Hand
from croupier.rulebooks import Rulebook, load_rulebook

__all__ = [
    "BASES", "BOOKS", "Choice", "Plan", "Rule", "Ruling", "Step", "call", "give_next_card",
    "rules_of",
]  # fmt: skip

BOOKS = ("au-casino", "rws", "qld", "cardroom", "league")
BASES = ("own", "fill", "decision", "floor")
FILL_BOOK = "cardroom"  # where a book is silent, the cardroom rules fill the gap (seeds README)


@dataclass(frozen=True)
class Rule:
    """One book's rule on one question: what it does (``do``, read by the code), the clause in
    force, and how it was decided (own, fill, decision or floor)."""

    question: str
    book: str
    do: str
    clause: str
    basis: str = "own"
    filled_from: str | None = None
    note: str = ""
    cut_off: str | None = None  # a decision that borrows another book's misdeal cut-off


@dataclass(frozen=True)
class Choice:
    """An option the book allows the floor (or the player) to choose."""

    key: str
    text: str
    clause: str


@dataclass(frozen=True)
class Ruling:
    """What the floor ruled: the situation (an id of docs/irregularities-spec.md, as a slug),
    the book and the clause in force, how it was decided, what happens, the events applied (none
    while a choice is pending) and the choices the book allows (none once decided)."""

    situation: str
    book: str
    clause: str
    basis: str
    filled_from: str | None
    outcome: str
    events: tuple[ev.Event, ...] = ()
    choices: tuple[Choice, ...] = ()
    confirm_by: str | None = None
    report: str = ""

    def as_json(self) -> dict[str, object]:
        """The ruling as the dealer assistant prints it (``--json``)."""
        return {
            "situation": self.situation,
            "book": self.book,
            "clause": self.clause,
            "basis": self.basis,
            "filled_from": self.filled_from,
            "outcome": self.outcome,
            "events": [_event_json(e) for e in self.events],
            "choices": [choice.key for choice in self.choices],
            "confirm_by": self.confirm_by,
        }


def _event_json(event: ev.Event) -> str:
    text = str(event) if type(event).__str__ is not object.__str__ else repr(event)
    return re.sub(r"Card\('(\w\w)'\)", r"\1", text).replace("'", "")


Step = Callable[[Hand], object]


def call(name: str, *args: object, **kwargs: object) -> Step:
    """A step that calls the hand's correction ``name`` with these arguments."""

    def step(hand: Hand) -> object:
        return getattr(hand, name)(*args, **kwargs)

    step.__qualname__ = f"{name}{args}"
    return step


def give_next_card(player: int) -> Step:
    """A step that deals ``player`` the stub's next card (its top where the engine knows it)."""

    def step(hand: Hand) -> object:
        card = hand.deck.cards[0] if hand.auto_deal and hand.deck.cards else None
        hand.give_card(player, card)
        return None

    return step


@dataclass
class Plan:
    """A ruling before it is applied: the rule in force, what happens, the corrections in order
    (each a call on the hand), and the options when the book leaves a choice."""

    situation: str
    rule: Rule
    outcome: str
    steps: list[Step] = field(default_factory=list)
    options: dict[str, Plan] = field(default_factory=dict)  # choice key -> what it applies
    texts: dict[str, str] = field(default_factory=dict)  # choice key -> its description
    confirm_by: str | None = None
    blocking: bool = True
    player: int = -1  # whose option it is (au 19.20), for a non-blocking choice

    @property
    def clause(self) -> str:
        return self.rule.clause

    def choices(self) -> tuple[Choice, ...]:
        return tuple(
            Choice(key, self.texts.get(key, plan.outcome), plan.clause)
            for key, plan in self.options.items()
        )


def refuse(rule: Rule, why: str) -> IrregularityError:
    """The error a report the book does not allow now raises: the clause (the cardroom's where
    the book is silent, or another book's procedure croupier follows there: said so), and
    why."""
    from croupier.citing import book_prefix, followed, silent

    clause, book = rule.clause, book_prefix(rule.book)
    if book is not None and not clause.startswith(f"{book} "):
        clause = silent(clause, book) if rule.basis == "fill" else followed(clause, book)
    return IrregularityError(f"{clause}: {why}")


# --- each book's rules --------------------------------------------------------------------


@cache
def _table() -> Mapping[str, Mapping[str, Rule]]:
    text = resources.files("croupier.irregularities").joinpath("rulings.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    table: dict[str, Mapping[str, Rule]] = {}
    for question, entries in raw.items():
        rules: dict[str, Rule] = {}
        for book, entry in entries.items():
            if book not in BOOKS:
                raise ValueError(f"rulings.toml: [{question}]: unknown book {book!r}")
            unknown = set(entry) - {"do", "clause", "basis", "from", "note", "cut_off"}
            if unknown or "do" not in entry or "clause" not in entry:
                raise ValueError(f"rulings.toml: [{question}].{book}: needs do and clause only")
            basis = entry.get("basis", "own")
            if basis not in BASES:
                raise ValueError(f"rulings.toml: [{question}].{book}: basis {basis!r}")
            filled = entry.get("from", entry["clause"] if basis == "fill" else None)
            rules[book] = Rule(
                question, book, entry["do"], entry["clause"], basis, filled,
                entry.get("note", ""), entry.get("cut_off"),
            )  # fmt: skip
        table[question] = MappingProxyType(rules)
    return MappingProxyType(table)


def rules_of(book: Rulebook | str) -> Callable[[str], Rule | None]:
    """The rule lookup for a book: its own entries, else those of the book it extends, else the
    cardroom's (the fill book) for a rulebook of one's own."""
    loaded = load_rulebook(book) if isinstance(book, str) else book
    chain = [loaded.name]
    if not loaded.builtin:  # a house's own file: its parent's rules, then the fill book's
        if loaded.extends:
            chain.append(loaded.extends)
        if FILL_BOOK not in chain:
            chain.append(FILL_BOOK)
    table = _table()

    def lookup(question: str) -> Rule | None:
        entries = table.get(question)
        if entries is None:
            raise KeyError(f"no question {question!r} in rulings.toml")
        for name in chain:
            if name in entries:
                return entries[name]
        return None

    return lookup
