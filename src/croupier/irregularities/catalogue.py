"""The irregularity reports as a form asks for them: grouped by situation (docs/dealer.md's
table, I1-I32), each with what it means and the questions its ruling needs (a player, a seat,
a card or cards, a number, a word, a yes/no), read from the report classes themselves; and a
report's input line made from the answers (:func:`report_line`), which
:class:`~croupier.irregularities.dealer.DealerSession` reads like a typed one.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping

from croupier.cards import Card
from croupier.irregularities import reports as r
from croupier.irregularities.reports import REPORTS, ReportError

__all__ = ["FLAGS", "GROUPS", "catalogue", "report_line"]

# The situations, in docs/dealer.md's order (docs/irregularities-spec.md gives each meaning).
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("I1 misdeal", ("misdeal",)),
    ("I2 cut and shuffle", ("cut-exposed", "no-shuffle", "no-cut")),
    ("I3 dealing order", (
        "out-of-order", "first-to", "button-wrong", "skipped", "extra-hand", "not-entitled",
    )),
    ("I4-I6 wrong card count", ("count", "extra-card")),
    ("I7-I10 exposed in the deal", (
        "exposed", "flashed", "off-table", "seventh-up", "draw-order",
    )),
    ("I11-I13 boxed cards, the deck, jokers", (
        "boxed", "duplicate", "odd-back", "foreign", "deck-count", "aware", "joker",
    )),
    ("I14-I18 the board and the stub", (
        "burn-missed", "burn-double", "extra-board", "burn-exposed", "premature",
        "exposed-stub", "stub-out",
    )),
    ("I20-I24 players' cards", (
        "shows", "dropped", "fouled-stub", "retrieve", "into", "see", "showed", "throw",
        "upcards", "over-line", "forward",
    )),
    ("I25-I31 betting", (
        "said", "released", "chips", "string", "short", "out-of-turn", "skipped-turn",
    )),
)  # fmt: skip


# What each yes/no question asks (docs/dealer.md, "Inputs").
FLAGS: dict[str, str] = {
    "looked": "a player looked at a card not theirs",
    "unlooked": "the player did not look at the cards",
    "unfixable": "the deal cannot be put right (reconstructed)",
    "absent": "not at the table, no blind or ante posted",
    "late": "found after the deal",
    "stub": "in the stub, not in a hand",
    "acted": "the player acted holding it",
    "first": "the round's first card",
    "misled": "folded on false information",
    "mixed": "the cards are mixed and cannot be told apart",
    "requested": "another player asked to see them too",
    "induced": "another player's action caused it",
    "unaware": "unaware of the raise",
    "acted_after": "a player behind acted after it",
    "collusion": "the floor suspects collusion",
}


def _kind(hint: object) -> tuple[str, bool]:
    """A field's question ("player", "players", "seat", "card", "cards", "number",
    "numbers", "text", "words", "flag"; "word": a fixed word the form does not ask) and
    whether a card may be unseen (``?``)."""
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    optional = isinstance(hint, types.UnionType) and len(args) == 1
    base = args[0] if optional else hint
    if typing.get_origin(base) is tuple:
        inner = typing.get_args(base)[0]
        if inner is str:
            return "words", False
        if inner is int:
            return "numbers", False
        return ("players" if inner is r.Player else "cards"), False
    names: dict[object, str] = {
        r.Player: "player", r.Seat: "seat", Card: "card", int: "number", str: "text",
        bool: "flag",
    }  # fmt: skip
    return names.get(base, "text"), optional


def _fields(cls: type[r.Report]) -> list[dict[str, object]]:
    hints = typing.get_type_hints(cls, globalns=vars(r))
    out: list[dict[str, object]] = []
    for item in dataclasses.fields(cls):
        kind, unseen = _kind(hints[item.name])
        if item.name.endswith("_word"):  # a fixed word of the line ("see p4 by p3")
            kind = "word"
        required = item.default is dataclasses.MISSING and item.default_factory is (
            dataclasses.MISSING
        )
        field: dict[str, object] = {
            "name": item.name, "kind": kind, "required": required, "unseen": unseen,
        }  # fmt: skip
        if kind == "flag" and item.name in FLAGS:
            field["means"] = FLAGS[item.name]
        out.append(field)
    return out


def catalogue() -> list[dict[str, object]]:
    """Every report, by situation: ``{"group", "reports": [{"verb", "usage", "about",
    "fields"}]}``."""
    listed = {verb for _, verbs in GROUPS for verb in verbs}
    groups = [*GROUPS]
    others = tuple(v for v in REPORTS if v not in listed)
    if others:
        groups.append(("other reports", others))
    out: list[dict[str, object]] = []
    for title, verbs in groups:
        reports = []
        for verb in verbs:
            cls = REPORTS[verb]
            about = (cls.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
            about = " ".join(about.replace("``", "").split())
            reports.append(
                {"verb": verb, "usage": cls.usage, "about": about, "fields": _fields(cls)}
            )
        out.append({"group": title, "reports": reports})
    return out


def _words(value: object, kind: str) -> list[str]:
    if kind == "flag":
        return []
    if kind == "player":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ReportError(f"a player is a seat index from 0, not {value!r}")
        return [f"p{value + 1}"]
    if kind == "players":
        if not isinstance(value, list):
            raise ReportError(f"players are a list, not {value!r}")
        return [w for v in value for w in _words(v, "player")]
    if kind == "seat":
        if not str(value).isdigit():
            raise ReportError(f"a seat is its number at the table, not {value!r}")
        return [f"s{int(str(value))}"]
    if kind in ("cards", "words", "numbers"):
        text = " ".join(value) if isinstance(value, list) else str(value)
        return text.split()
    text = str(value).strip()
    if not text or len(text.split()) != 1:
        raise ReportError(f"one word or card, not {value!r}")
    return [text]


def report_line(verb: str, answers: Mapping[str, object]) -> str:
    """The input line of report ``verb`` from a form's ``answers`` by field name (players as
    indexes from 0, cards as written, ``?`` for one nobody saw; flags true or false).
    :class:`ReportError` names what is missing."""
    cls = REPORTS.get(verb)
    if cls is None:
        raise ReportError(f"no report {verb!r}: the reports are {', '.join(REPORTS)}")
    words = [verb]
    flags = []
    skipped = ""
    for item in _fields(cls):
        name, kind = str(item["name"]), str(item["kind"])
        value = answers.get(name)
        if kind == "word":
            words.append(name.removesuffix("_word"))
            continue
        if kind == "flag":
            if value is True:
                flags.append(f"--{name.replace('_', '-')}")
            continue
        if value is None or value == "" or value == []:
            if item["required"]:
                raise ReportError(f"{verb}: {name} is needed ({cls.usage})")
            skipped = skipped or name  # the words are in order: none may follow
            continue
        if skipped:
            raise ReportError(f"{verb}: {name} needs {skipped} first ({cls.usage})")
        words.extend(_words(value, kind))
    return " ".join([*words, *flags])
