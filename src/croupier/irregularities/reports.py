"""Reports: what someone at the table says happened, one small frozen record per situation.

Each report is also a dealer-assistant command (docs/irregularities-spec.md §1.5): the verb,
then its words. ``parse_report("exposed p3 Qh")`` gives ``Exposed(player=2, cards=(Qh,))`` and
``str(report)`` gives the command back, which is how a ruling's report is kept in the log.
Players are written ``p<n>`` (n from 1, in deal order: p1 is the first seat left of the button),
empty seats ``s<n>``, cards ``Ah`` (``?`` for a card nobody saw), flags ``--looked``.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import ClassVar

from croupier.cards import Card, CardError

__all__ = ["REPORTS", "Report", "ReportError", "parse_report"]


class ReportError(ValueError):
    """A report that cannot be read: the message says what the command expects."""


@dataclass(frozen=True)
class Report:
    """A report of an irregularity. Subclasses name their command ``verb``."""

    verb: ClassVar[str] = ""
    usage: ClassVar[str] = ""

    def __str__(self) -> str:
        words = [self.verb]
        for item in dataclasses.fields(self):
            value = getattr(self, item.name)
            kind = _hints(type(self))[item.name]
            if kind is bool:
                if value:
                    words.append(f"--{item.name.replace('_', '-')}")
            elif value is None or value == () or value == "":
                continue
            else:
                words.extend(_format(value, kind))
        return " ".join(words)


class Player(int):
    """A player index (0-based); written p1, p2, ..."""


class Seat(int):
    """An empty seat's number, as printed at the table; written s5."""


def _format(value: object, kind: object) -> list[str]:
    if isinstance(value, tuple):
        inner = typing.get_args(kind)[0] if typing.get_args(kind) else object
        return [w for item in value for w in _format(item, inner)]
    if kind is Player or _optional(kind) is Player:
        return [f"p{int(value) + 1}"]  # type: ignore[call-overload]
    if kind is Seat:
        return [f"s{value}"]
    if value is None:
        return ["?"]
    return [str(value)]


def _optional(kind: object) -> object:
    args = [a for a in typing.get_args(kind) if a is not type(None)]
    if isinstance(kind, types.UnionType) and len(args) == 1:
        return args[0]
    return kind


_HINTS: dict[type, dict[str, object]] = {}


def _hints(cls: type) -> dict[str, object]:
    known = _HINTS.get(cls)
    if known is None:
        known = _HINTS[cls] = typing.get_type_hints(cls, globalns={**globals()})
    return known


def _read(word: str, kind: object, usage: str) -> object:
    kind = _optional(kind)
    try:
        if kind is Player:
            if not word.lower().startswith("p") or not word[1:].isdigit() or int(word[1:]) < 1:
                raise ValueError
            return Player(int(word[1:]) - 1)
        if kind is Seat:
            if not word.lower().startswith("s") or not word[1:].isdigit():
                raise ValueError
            return Seat(int(word[1:]))
        if kind is int:
            return int(word.lstrip("+"))
        if kind in (Card, Card | None):
            return None if word == "?" else Card(word)
        return word
    except (ValueError, CardError):
        raise ReportError(f"{word!r} does not fit: {usage}") from None


# --- the reports ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Misdeal(Report):
    verb = "misdeal"
    usage = "misdeal [cause]"
    cause: str = ""


@dataclass(frozen=True)
class CutExposed(Report):
    verb = "cut-exposed"
    usage = "cut-exposed"


@dataclass(frozen=True)
class NoShuffle(Report):
    verb = "no-shuffle"
    usage = "no-shuffle"


@dataclass(frozen=True)
class NoCut(Report):
    verb = "no-cut"
    usage = "no-cut"


@dataclass(frozen=True)
class OutOfOrder(Report):
    verb = "out-of-order"
    usage = "out-of-order p3 Qh [--looked] [--unfixable]: p3 got Qh out of sequence"
    player: Player
    card: Card | None = None
    looked: bool = False
    unfixable: bool = False


@dataclass(frozen=True)
class FirstTo(Report):
    verb = "first-to"
    usage = "first-to p2 [--looked] [--unfixable]: the first card went to p2"
    player: Player
    looked: bool = False
    unfixable: bool = False


@dataclass(frozen=True)
class ButtonWrong(Report):
    verb = "button-wrong"
    usage = "button-wrong"


@dataclass(frozen=True)
class Skipped(Report):
    verb = "skipped"
    usage = "skipped p3 [--looked] [--unfixable] [--absent]: p3 was dealt out"
    player: Player
    looked: bool = False
    unfixable: bool = False
    absent: bool = False  # not at the table and no blind or ante posted (cardroom 2(j))


@dataclass(frozen=True)
class ExtraHand(Report):
    verb = "extra-hand"
    usage = "extra-hand s5 Ts 5d [--looked] [--unfixable]: cards dealt to empty seat 5"
    seat: Seat
    cards: tuple[Card | None, ...] = ()
    looked: bool = False
    unfixable: bool = False


@dataclass(frozen=True)
class NotEntitled(Report):
    verb = "not-entitled"
    usage = "not-entitled p3: p3 was dealt a hand not being entitled to one"
    player: Player


@dataclass(frozen=True)
class Count(Report):
    verb = "count"
    usage = "count p3 3 [--looked] [--unfixable] [--collusion]: p3 holds 3 cards"
    player: Player
    cards: int
    looked: bool = False
    unfixable: bool = False


@dataclass(frozen=True)
class ExtraCard(Report):
    verb = "extra-card"
    usage = "extra-card p1 6s [--looked]: one card too many, the last dealt"
    player: Player
    card: Card | None = None
    looked: bool = False


@dataclass(frozen=True)
class Exposed(Report):
    """A hole card the dealer exposed in the deal (stud: dealt up that should be down; draw:
    in the deal or the draw). Several: ``exposed p2 Kd p3 Qh``."""

    verb = "exposed"
    usage = "exposed p3 Qh [p4 Jc ...] [--looked] [--unfixable]"
    player: Player
    card: Card
    more: tuple[str, ...] = ()
    looked: bool = False
    unfixable: bool = False


@dataclass(frozen=True)
class Flashed(Exposed):
    verb = "flashed"
    usage = "flashed p3 Qh [--looked]"


@dataclass(frozen=True)
class OffTable(Exposed):
    verb = "off-table"
    usage = "off-table p3 Qh"


@dataclass(frozen=True)
class SeventhUp(Report):
    verb = "seventh-up"
    usage = "seventh-up p3 Kd [--first]: a seventh card dealt up (--first: the round's first)"
    player: Player
    card: Card
    first: bool = False


@dataclass(frozen=True)
class DrawOrder(Report):
    verb = "draw-order"
    usage = "draw-order p2 p1 [--unlooked]: p2 got p1's draw cards"
    player: Player
    owner: Player
    unlooked: bool = False


@dataclass(frozen=True)
class Boxed(Report):
    verb = "boxed"
    usage = "boxed Kd [--late]: a card face up in the deck"
    card: Card
    late: bool = False


@dataclass(frozen=True)
class Duplicate(Report):
    verb = "duplicate"
    usage = "duplicate Ah"
    card: Card


@dataclass(frozen=True)
class OddBack(Report):
    verb = "odd-back"
    usage = "odd-back Kd [--stub]"
    card: Card
    stub: bool = False


@dataclass(frozen=True)
class Foreign(Report):
    verb = "foreign"
    usage = "foreign Xx [--stub]"
    card: str = "?"
    stub: bool = False


@dataclass(frozen=True)
class DeckCount(Report):
    verb = "deck-count"
    usage = "deck-count 51"
    cards: int


@dataclass(frozen=True)
class Aware(Report):
    verb = "aware"
    usage = "aware p2: p2 knew of the defect and played on"
    player: Player


@dataclass(frozen=True)
class Joker(Report):
    verb = "joker"
    usage = "joker p3 [card] [--acted] | joker --stub"
    player: Player | None = None
    card: Card | None = None  # the card that stands for the joker in the engine's record
    acted: bool = False
    stub: bool = False


@dataclass(frozen=True)
class BurnMissed(Report):
    verb = "burn-missed"
    usage = "burn-missed"


@dataclass(frozen=True)
class BurnDouble(Report):
    verb = "burn-double"
    usage = "burn-double"


@dataclass(frozen=True)
class ExtraBoard(Report):
    verb = "extra-board"
    usage = "extra-board 2s [...]: extra cards turned with the street"
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class BurnExposed(Report):
    verb = "burn-exposed"
    usage = "burn-exposed 2s"
    card: Card


@dataclass(frozen=True)
class Premature(Report):
    verb = "premature"
    usage = "premature [burn] 5d 4h 3c: the next street dealt before the betting ended"
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ExposedStub(Report):
    verb = "exposed-stub"
    usage = "exposed-stub 2s: a stub card exposed during the betting"
    card: Card


@dataclass(frozen=True)
class StubOut(Report):
    verb = "stub-out"
    usage = "stub-out"


@dataclass(frozen=True)
class Shows(Report):
    verb = "shows"
    usage = "shows p3 Qh [...]: a player exposed their own cards"
    player: Player
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Dropped(Shows):
    verb = "dropped"
    usage = "dropped p3 Qh"


@dataclass(frozen=True)
class FouledStub(Report):
    verb = "fouled-stub"
    usage = "fouled-stub"


@dataclass(frozen=True)
class Retrieve(Report):
    verb = "retrieve"
    usage = "retrieve p3 [--misled]"
    player: Player
    misled: bool = False


@dataclass(frozen=True)
class Into(Report):
    verb = "into"
    usage = "into p3 p5 [--mixed]: p3's cards thrown into p5's hand"
    player: Player
    other: Player
    mixed: bool = False


@dataclass(frozen=True)
class See(Report):
    verb = "see"
    usage = "see p4 by p3"
    player: Player
    by_word: str
    by: Player


@dataclass(frozen=True)
class ShowedTo(Report):
    verb = "showed"
    usage = "showed p3 to p5 Ah [Kd ...] [--requested]: p3 showed these cards to p5 alone"
    player: Player
    to_word: str
    to: Player
    cards: tuple[Card, ...]
    requested: bool = False  # another player asked to see them too


@dataclass(frozen=True)
class Throw(Report):
    verb = "throw"
    usage = "throw p3 [--induced]"
    player: Player
    induced: bool = False


@dataclass(frozen=True)
class Upcards(Report):
    verb = "upcards"
    usage = "upcards p3"
    player: Player


@dataclass(frozen=True)
class OverLine(Report):
    verb = "over-line"
    usage = "over-line p3 cards [--induced] | over-line p3 chips 25 5"
    player: Player
    what: str
    chips: tuple[int, ...] = ()
    induced: bool = False


@dataclass(frozen=True)
class Forward(Report):
    verb = "forward"
    usage = "forward p3 20: limit chips moved forward, not released, and a player behind acted"
    player: Player
    amount: int


@dataclass(frozen=True)
class Said(Report):
    verb = "said"
    usage = "said p1 bet 40 [30]: declared in turn (then the chips put out)"
    player: Player
    action: str
    amount: int | None = None
    chips: int | None = None


@dataclass(frozen=True)
class Released(Report):
    verb = "released"
    usage = "released p3 20 [--unaware] [--acted-after]"
    player: Player
    amount: int
    unaware: bool = False
    acted_after: bool = False


@dataclass(frozen=True)
class Chips(Report):
    verb = "chips"
    usage = "chips p2 25 5: chips pushed in one motion, no word"
    player: Player
    chips: tuple[int, ...]


@dataclass(frozen=True)
class String(Report):
    verb = "string"
    usage = "string p2 20 +20: a first motion, then more"
    player: Player
    first: int
    more: int


@dataclass(frozen=True)
class Short(Report):
    verb = "short"
    usage = "short p1 10: a wager or call below the proper size"
    player: Player
    amount: int


@dataclass(frozen=True)
class OutOfTurn(Report):
    verb = "out-of-turn"
    usage = "out-of-turn p5 bet 40 | out-of-turn p5 check (fold, call, raise N)"
    player: Player
    action: str
    amount: int | None = None


@dataclass(frozen=True)
class SkippedTurn(Report):
    verb = "skipped-turn"
    usage = "skipped-turn p1: p1 was passed over and others acted"
    player: Player


REPORTS: dict[str, type[Report]] = {
    cls.verb: cls
    for cls in (
        Misdeal, CutExposed, NoShuffle, NoCut, OutOfOrder, FirstTo, ButtonWrong, Skipped,
        ExtraHand, NotEntitled, Count, ExtraCard, Exposed, Flashed, OffTable, SeventhUp,
        DrawOrder, Boxed, Duplicate, OddBack, Foreign, DeckCount, Aware, Joker, BurnMissed,
        BurnDouble, ExtraBoard, BurnExposed, Premature, ExposedStub, StubOut, Shows, Dropped,
        FouledStub, Retrieve, Into, See, ShowedTo, Throw, Upcards, OverLine, Forward, Said,
        Released, Chips, String, Short, OutOfTurn, SkippedTurn,
    )
}  # fmt: skip


def parse_report(text: str) -> Report:
    """The report a command names (``exposed p3 Qh``); :class:`ReportError` if it does not
    read."""
    words = text.split()
    if not words:
        raise ReportError("an empty report")
    cls = REPORTS.get(words[0].lower())
    if cls is None:
        raise ReportError(f"no report {words[0]!r}: the reports are {', '.join(REPORTS)}")
    hints = _hints(cls)
    flags = {f"--{f.name.replace('_', '-')}": f.name for f in dataclasses.fields(cls)
             if hints[f.name] is bool}  # fmt: skip
    values: dict[str, object] = {}
    rest: list[str] = []
    for word in words[1:]:
        if word.startswith("--"):
            if word not in flags:
                raise ReportError(f"unknown flag {word}: {cls.usage}")
            values[flags[word]] = True
        else:
            rest.append(word)
    fields = [f for f in dataclasses.fields(cls) if hints[f.name] is not bool]
    for item in fields:
        kind = hints[item.name]
        if typing.get_origin(kind) is tuple:
            inner = typing.get_args(kind)[0]
            values[item.name] = tuple(_read(w, inner, cls.usage) for w in rest)
            rest = []
            break
        if not rest:
            if item.default is dataclasses.MISSING:
                raise ReportError(f"missing {item.name}: {cls.usage}")
            break
        values[item.name] = _read(rest.pop(0), kind, cls.usage)
    if rest:
        raise ReportError(f"too many words ({' '.join(rest)}): {cls.usage}")
    try:
        return cls(**values)
    except TypeError as error:
        raise ReportError(f"{error}: {cls.usage}") from None
