"""The Poker Hand History format (PHH): TOML files of one hand (``.phh``) or many (``.phhs``).

The format is defined by the phh-std specification (uoftcprg/phh-std): a hand is a TOML table of
fields (``variant``, ``antes``, ``blinds_or_straddles``, ``min_bet``, ``starting_stacks``,
``actions``, ... and optional ones such as ``players`` or ``finishing_stacks``); fields whose
name starts with an underscore belong to the user and are kept as they are. A ``.phhs`` file is
a TOML document whose top-level tables are hands (``[1]``, ``[2]``, ...).

Players are ``p1`` .. ``pN`` in PHH order: p1 is the first player dealt (the small blind, first
left of the button), pN the last (the button). :class:`Action` numbers them from 0, as the
engine does.

Reading is strict by default (:class:`PHHError` at the first problem) or lenient
(``strict=False``: each hand comes back with its problems in :attr:`HandHistory.errors`, as
python-chess's PGN reader does). Numbers that TOML writes as floats are read as
:class:`~decimal.Decimal`, so ``0.25`` stays exact and ``inf`` (an unknown stack) is
``Decimal("Infinity")``.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeAlias

import tomli

from croupier.cards import Card, DeckKind
from croupier.history.layout import BARE_KEY, Document, HandLines

__all__ = [
    "VARIANTS",
    "Action",
    "ActionKind",
    "Amount",
    "HandHistory",
    "Origin",
    "PHHError",
    "dump_phh",
    "dump_phhs",
    "format_phh_cards",
    "load_phh",
    "load_phhs",
    "parse_action",
    "parse_phh_cards",
]

Amount: TypeAlias = int | Decimal
"""A chip amount as PHH writes it: a TOML integer, or a TOML float read exactly."""

PHHCards: TypeAlias = tuple[Card | None, ...]
"""Cards as PHH writes them; ``None`` is an unknown card (``??``)."""


# ---------------------------------------------------------------------------------------------
# Errors


class PHHError(ValueError):
    """A problem with a hand history: malformed TOML, a bad field, a bad or illegal action.

    It names the file, the hand (its position and name in a ``.phhs``), the line, the field
    (``actions[3]`` for the fourth action) and what was expected."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        hand: int | None = None,
        hand_name: str | None = None,
        line: int | None = None,
        field: str | None = None,
        action: str | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.hand = hand  # 0-based position in a .phhs
        self.hand_name = hand_name
        self.line = line
        self.field = field
        self.action = action  # the action's text, for actions
        super().__init__(self._text())

    def _text(self) -> str:
        where: list[str] = []
        if self.file is not None:
            where.append(self.file)
        if self.hand is not None or self.hand_name is not None:
            label = "hand"
            if self.hand is not None:
                label += f" {self.hand + 1}"
            if self.hand_name is not None and self.hand_name != str((self.hand or 0) + 1):
                label += f" [{self.hand_name}]"
            where.append(label)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.field is not None:
            what = self.field
            if self.action is not None:
                what += f" {self.action!r}"
            where.append(what)
        return ": ".join([*where, self.message])

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (self.message, self.__dict__))


def _rebuild_error(message: str, attributes: dict[str, Any]) -> PHHError:
    keys = ("file", "hand", "hand_name", "line", "field", "action")
    return PHHError(message, **{key: attributes.get(key) for key in keys})


@dataclass(frozen=True)
class Origin:
    """Where a hand history was read from, to point errors at the right line."""

    file: str | None = None
    hand: int | None = None  # 0-based position in a .phhs
    name: str | None = None  # the hand's table name in a .phhs
    lines: HandLines = field(default_factory=lambda: HandLines(None), compare=False, repr=False)

    @property
    def field_lines(self) -> Mapping[str, int]:
        return self.lines.fields

    @property
    def action_lines(self) -> tuple[int | None, ...]:
        return self.lines.actions

    @property
    def start_line(self) -> int | None:
        """The hand's table header in a .phhs."""
        return self.lines.start

    def error(
        self, message: str, *, field: str | None = None, action: int | None = None,
        text: str | None = None, line: int | None = None,
    ) -> PHHError:  # fmt: skip
        """An error located at ``field`` (or at action number ``action``, 0-based)."""
        if action is not None:
            field = f"actions[{action}]"
            if line is None and action < len(self.action_lines):
                line = self.action_lines[action]
            if line is None:
                line = self.field_lines.get("actions")
        elif field is not None and line is None:
            line = self.field_lines.get(field.split("[")[0], self.start_line)
        return PHHError(
            message, file=self.file, hand=self.hand, hand_name=self.name, line=line,
            field=field, action=text,
        )  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Variants


@dataclass(frozen=True)
class Variant:
    code: str
    name: str
    required: tuple[str, ...]  # the forced-bet and limit fields the variant needs
    deck: DeckKind = DeckKind.STANDARD


_BUTTON_NO_LIMIT = ("antes", "blinds_or_straddles", "min_bet")
_BUTTON_FIXED = ("antes", "blinds_or_straddles", "small_bet", "big_bet")
_STUD = ("antes", "bring_in", "small_bet", "big_bet")

VARIANTS: dict[str, Variant] = {
    v.code: v
    for v in (
        Variant("FT", "fixed-limit Texas hold'em", _BUTTON_FIXED),
        Variant("NT", "no-limit Texas hold'em", _BUTTON_NO_LIMIT),
        Variant("NS", "no-limit short-deck hold'em", _BUTTON_NO_LIMIT, DeckKind.SHORT_36),
        Variant("PO", "pot-limit Omaha hold'em", _BUTTON_NO_LIMIT),
        Variant("FO/8", "fixed-limit Omaha hold'em high/low eight or better", _BUTTON_FIXED),
        Variant("F7S", "fixed-limit seven card stud", _STUD),
        Variant("F7S/8", "fixed-limit seven card stud high/low eight or better", _STUD),
        Variant("FR", "fixed-limit razz", _STUD),
        Variant("N2L1D", "no-limit deuce-to-seven lowball single draw", _BUTTON_NO_LIMIT),
        Variant("F2L3D", "fixed-limit deuce-to-seven lowball triple draw", _BUTTON_FIXED),
        Variant("FB", "fixed-limit badugi", _BUTTON_FIXED),
    )
}
"""The variant codes of phh-std (required fields, table of variants)."""

_FORCED_AND_LIMITS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet")


# ---------------------------------------------------------------------------------------------
# Cards and actions

_CARD = re.compile(r"[2-9TJQKA][cdhs]|\?\?")
_CARD_TEXT: dict[str, Card | None] = {str(card): card for card in DeckKind.STANDARD.cards}
_CARD_TEXT["??"] = None


def parse_phh_cards(text: str) -> PHHCards:
    """``"AcKd??"`` -> ``(Card('Ac'), Card('Kd'), None)``. PHH writes cards run together, rank
    then suit, ``??`` for an unknown card; a card may appear once."""
    if len(text) % 2 or not text:
        raise ValueError(f"bad cards {text!r}: expected cards like 'AcKd' (rank, suit; '??')")
    cards: list[Card | None] = []
    for index in range(0, len(text), 2):
        token = text[index : index + 2]
        if token in _CARD_TEXT:
            cards.append(_CARD_TEXT[token])
            continue
        if not _CARD.fullmatch(token):
            raise ValueError(
                f"bad card {token!r} in {text!r}: expected a rank 2-9, T, J, Q, K, A then a "
                "suit c, d, h, s (or '??' for an unknown card)"
            )
        cards.append(None if token == "??" else Card.parse(token))
    known = [card for card in cards if card is not None]
    if len(set(known)) != len(known):
        raise ValueError(f"bad cards {text!r}: a card appears twice")
    return tuple(cards)


def format_phh_cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if card is None else str(card) for card in cards)


class ActionKind(enum.Enum):
    """The PHH action codes."""

    DEAL_BOARD = "db"  # d db cards
    DEAL_HOLE = "dh"  # d dh pN cards
    BRING_IN = "pb"  # pN pb
    COMPLETE_BET_OR_RAISE = "cbr"  # pN cbr amount (to, for the street)
    CHECK_OR_CALL = "cc"  # pN cc
    FOLD = "f"  # pN f
    STAND_PAT_OR_DISCARD = "sd"  # pN sd [cards]
    SHOW_OR_MUCK = "sm"  # pN sm [cards | -]
    NO_OP = ""  # empty, or a commentary alone


@dataclass(frozen=True)
class Action:
    """One parsed PHH action. ``player`` counts from 0 (``p1`` is 0); for ``d dh`` it is the
    player dealt to, for ``d db`` and no-ops ``None``."""

    kind: ActionKind
    player: int | None = None
    cards: PHHCards = ()
    amount: Amount | None = None
    as_dealt: bool = False  # ``pN sm -``: shows the cards dealt
    commentary: str | None = None

    @property
    def is_dealer(self) -> bool:
        return self.kind in (ActionKind.DEAL_BOARD, ActionKind.DEAL_HOLE)

    @property
    def mucks(self) -> bool:
        """``pN sm`` with nothing after it: the player mucks."""
        return self.kind is ActionKind.SHOW_OR_MUCK and not self.cards and not self.as_dealt

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.NO_OP:
            words: list[str] = []
        elif kind is ActionKind.DEAL_BOARD:
            words = ["d", "db", format_phh_cards(self.cards)]
        elif kind is ActionKind.DEAL_HOLE:
            words = ["d", "dh", f"p{(self.player or 0) + 1}", format_phh_cards(self.cards)]
        else:
            words = [f"p{(self.player or 0) + 1}", kind.value]
            if kind is ActionKind.COMPLETE_BET_OR_RAISE:
                words.append(_format_number(self.amount if self.amount is not None else 0))
            elif self.as_dealt:
                words.append("-")
            elif self.cards:
                words.append(format_phh_cards(self.cards))
        if self.commentary is not None:
            words.append(f"# {self.commentary}")
        return " ".join(words)


_PLAYER = re.compile(r"p([1-9][0-9]*)")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def parse_action(text: str, players: int | None = None) -> Action:
    """Parse one PHH action (``"p1 cbr 300"``, ``"d dh p2 ????"``, ``"p3 sm -"``, ...).

    ``players``: the number of players, to reject ``p7`` in a six-handed hand. Raises
    :class:`ValueError` (a :class:`PHHError` without a location) naming what was expected."""
    if not isinstance(text, str):
        raise PHHError(f"an action is a string, got {text!r}")
    body, hash_mark, comment = text.partition("#")
    commentary = comment.strip() if hash_mark else None
    words = body.split()
    if not words:
        return Action(ActionKind.NO_OP, commentary=commentary)

    def player(word: str) -> int:
        match = _PLAYER.fullmatch(word)
        if match is None:
            raise PHHError(f"expected a player 'p1', 'p2', ... or the dealer 'd', got {word!r}")
        index = int(match.group(1)) - 1
        if players is not None and index >= players:
            raise PHHError(f"there is no player {word} in a hand of {players} players")
        return index

    def cards(word: str) -> PHHCards:
        try:
            return parse_phh_cards(word)
        except ValueError as error:
            raise PHHError(str(error)) from None

    if words[0] == "d":
        match words[1:]:
            case ["db", board]:
                dealt = cards(board)
                return Action(ActionKind.DEAL_BOARD, cards=dealt, commentary=commentary)
            case ["dh", who, hole]:
                return Action(ActionKind.DEAL_HOLE, player(who), cards(hole), commentary=commentary)
            case _:
                raise PHHError("expected a dealer action 'd db CARDS' or 'd dh pN CARDS'")
    actor = player(words[0])
    match words[1:]:
        case ["f"]:
            return Action(ActionKind.FOLD, actor, commentary=commentary)
        case ["cc"]:
            return Action(ActionKind.CHECK_OR_CALL, actor, commentary=commentary)
        case ["pb"]:
            return Action(ActionKind.BRING_IN, actor, commentary=commentary)
        case ["cbr", amount]:
            if not _NUMBER.fullmatch(amount):
                raise PHHError(f"expected a raise-to amount after 'cbr', got {amount!r}")
            value: Amount = int(amount) if amount.isdigit() else Decimal(amount)
            return Action(ActionKind.COMPLETE_BET_OR_RAISE, actor, amount=value,
                          commentary=commentary)  # fmt: skip
        case ["sd"]:
            return Action(ActionKind.STAND_PAT_OR_DISCARD, actor, commentary=commentary)
        case ["sd", discards]:
            return Action(ActionKind.STAND_PAT_OR_DISCARD, actor, cards(discards),
                          commentary=commentary)  # fmt: skip
        case ["sm"]:
            return Action(ActionKind.SHOW_OR_MUCK, actor, commentary=commentary)
        case ["sm", "-"]:
            return Action(ActionKind.SHOW_OR_MUCK, actor, as_dealt=True, commentary=commentary)
        case ["sm", shown]:
            return Action(ActionKind.SHOW_OR_MUCK, actor, cards(shown), commentary=commentary)
        case _:
            raise PHHError(
                "expected an action 'pN f', 'pN cc', 'pN cbr AMOUNT', 'pN pb', 'pN sd [CARDS]' "
                "or 'pN sm [CARDS|-]'"
            )


def _parse_action(text: str, players: int | None) -> Action:
    """:func:`parse_action`, shared: actions repeat across hands ("p2 cc") and parsed ones are
    immutable. A plain dict, emptied when full, costs less per call than an LRU cache."""
    key = (text, players)
    action = _PARSED.get(key)
    if action is None:
        action = parse_action(text, players)
        if len(_PARSED) >= 1 << 14:
            _PARSED.clear()
        _PARSED[key] = action
    return action


_PARSED: dict[tuple[str, int | None], Action] = {}


# ---------------------------------------------------------------------------------------------
# The hand history


@dataclass(frozen=True, kw_only=True)
class HandHistory:
    """One hand as PHH describes it: every field of phh-std, typed, plus the user's fields.

    Per-player arrays are tuples in PHH order (p1 first). ``None`` means the field is absent.
    ``actions`` keeps the strings as written (see :meth:`parsed_actions`). ``user_fields`` holds
    the fields whose names start with ``_`` (and, in lenient reading, unknown ones), in order.
    ``errors`` holds the problems a lenient read found; ``name`` is the hand's table name in a
    ``.phhs``; neither takes part in equality."""

    variant: str = ""
    ante_trimming_status: bool | None = None
    antes: tuple[Amount, ...] | None = None
    blinds_or_straddles: tuple[Amount, ...] | None = None
    bring_in: Amount | None = None
    small_bet: Amount | None = None
    big_bet: Amount | None = None
    min_bet: Amount | None = None
    starting_stacks: tuple[Amount, ...] = ()
    actions: tuple[str, ...] = ()
    author: str | None = None
    event: str | None = None
    url: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country: str | None = None
    time: datetime.time | None = None
    time_zone: str | None = None
    time_zone_abbreviation: str | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hand: str | int | None = None
    level: int | None = None
    seats: tuple[int, ...] | None = None
    seat_count: int | None = None
    table: str | int | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[Amount, ...] | None = None
    winnings: tuple[Amount, ...] | None = None
    currency: str | None = None
    currency_symbol: str | None = None
    time_limit: Amount | None = None
    time_banks: tuple[Amount, ...] | None = None
    user_fields: Mapping[str, Any] = field(default_factory=dict, hash=False)
    name: str | None = field(default=None, compare=False)
    errors: tuple[PHHError, ...] = field(default=(), compare=False, repr=False)
    origin: Origin = field(default_factory=Origin, compare=False, repr=False)
    # Set by the reader when it found nothing wrong; a changed copy is checked again.
    _valid: bool = field(default=False, init=False, compare=False, repr=False)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def parsed_actions(self) -> tuple[Action, ...]:
        """The actions, parsed; a bad one raises :class:`PHHError` with its line."""
        return tuple(
            _located(self.origin, index, text, self.player_count)
            for index, text in enumerate(self.actions)
        )

    def validate(self) -> list[PHHError]:
        """Every problem with the fields and actions (empty: a valid hand history)."""
        # getattr: compiled by mypyc, a field with init=False starts unset, not at its default
        return [] if getattr(self, "_valid", False) else _check(self)


def _located(origin: Origin, index: int, text: str, players: int) -> Action:
    try:
        return _parse_action(text, players or None)
    except PHHError as error:
        raise origin.error(error.message, action=index, text=text) from None


# Field kinds, for reading and checking.
_STR, _BOOL, _INT, _AMOUNT, _AMOUNTS, _INTS, _STRS, _STR_OR_INT, _TIME = range(9)

_FIELDS: dict[str, int] = {
    "variant": _STR,
    "ante_trimming_status": _BOOL,
    "antes": _AMOUNTS,
    "blinds_or_straddles": _AMOUNTS,
    "bring_in": _AMOUNT,
    "small_bet": _AMOUNT,
    "big_bet": _AMOUNT,
    "min_bet": _AMOUNT,
    "starting_stacks": _AMOUNTS,
    "actions": _STRS,
    "author": _STR,
    "event": _STR,
    "url": _STR,
    "venue": _STR,
    "address": _STR,
    "city": _STR,
    "region": _STR,
    "postal_code": _STR,
    "country": _STR,
    "time": _TIME,
    "time_zone": _STR,
    "time_zone_abbreviation": _STR,
    "day": _INT,
    "month": _INT,
    "year": _INT,
    "hand": _STR_OR_INT,
    "level": _INT,
    "seats": _INTS,
    "seat_count": _INT,
    "table": _STR_OR_INT,
    "players": _STRS,
    "finishing_stacks": _AMOUNTS,
    "winnings": _AMOUNTS,
    "currency": _STR,
    "currency_symbol": _STR,
    "time_limit": _AMOUNT,
    "time_banks": _AMOUNTS,
}
_EXPECTED = {
    _STR: "a string",
    _BOOL: "true or false",
    _INT: "an integer",
    _AMOUNT: "a number",
    _AMOUNTS: "an array of numbers",
    _INTS: "an array of integers",
    _STRS: "an array of strings",
    _STR_OR_INT: "a string or an integer",
    _TIME: "a local time (hh:mm:ss)",
}
_PER_PLAYER = (
    "antes", "blinds_or_straddles", "finishing_stacks", "winnings", "seats", "players",
    "time_banks",
)  # fmt: skip
_NOT_NEGATIVE = ("antes", "blinds_or_straddles", "finishing_stacks", "winnings", "time_banks")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_amount(value: object) -> bool:
    return _is_int(value) or (isinstance(value, Decimal) and not value.is_nan())


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _convert(kind: int, value: object) -> object:
    """The typed value, or ``None`` when it has the wrong type."""
    if kind == _STR:
        return value if isinstance(value, str) else None
    if kind == _BOOL:
        return value if isinstance(value, bool) else None
    if kind == _INT:
        return value if _is_int(value) else None
    if kind == _AMOUNT:
        return value if _is_amount(value) else None
    if kind == _STR_OR_INT:
        return value if isinstance(value, str) or _is_int(value) else None
    if kind == _TIME:
        return value if isinstance(value, datetime.time) else None
    if not isinstance(value, (list, tuple)):
        return None
    test = {_AMOUNTS: _is_amount, _INTS: _is_int, _STRS: _is_str}[kind]
    return tuple(value) if all(test(item) for item in value) else None


def _check(
    history: HandHistory,
    present: set[str] | None = None,
    flagged: Iterable[str] = (),
    *,
    typed: bool = False,
) -> list[PHHError]:
    """Every problem with a hand history's fields and actions, one per field (and one per
    action); ``present``: the fields the file had; ``flagged``: fields already found bad;
    ``typed``: every field's type was checked already (a history read from a file)."""
    origin = history.origin
    problems: list[PHHError] = []
    seen = set(flagged)

    def problem(message: str, name: str, **where: Any) -> None:
        if name not in seen:
            seen.add(name)
            problems.append(origin.error(message, field=name, **where))

    for name, kind in () if typed else _FIELDS.items():
        value = getattr(history, name)
        if value is not None and _convert(kind, value) is None:
            problem(f"expected {_EXPECTED[kind]}, got {value!r}", name)
    variant = VARIANTS.get(history.variant)
    if not history.variant:
        problem("missing required field 'variant'", "variant")
    elif variant is None and not (
        # croupier's extension (docs/phh-extensions.md): the game is in _croupier_game
        history.variant == "croupier" and "_croupier_game" in history.user_fields
    ):
        codes = ", ".join(VARIANTS)
        problem(f"unknown variant code {history.variant!r}: expected one of {codes}", "variant")
    if variant is not None:
        for name in variant.required:
            if getattr(history, name) is None:
                problem(f"missing field {name!r}, required for variant {variant.code}", name)
        for name in _FORCED_AND_LIMITS:
            if name not in variant.required and getattr(history, name) is not None:
                problem(
                    f"{name!r} is not a field of variant {variant.code} ({variant.name}); "
                    f"it takes {', '.join(variant.required)}",
                    name,
                )
    players = history.player_count
    if present is not None:
        for name in ("starting_stacks", "actions"):
            if name not in present:
                problem(f"missing required field {name!r}", name)
    if players < 2 and (present is None or "starting_stacks" in present):
        problem(f"a hand needs at least 2 players, got {players} stacks", "starting_stacks")
    for name in _PER_PLAYER:
        value = getattr(history, name)
        if isinstance(value, tuple) and players and len(value) != players:
            problem(f"expected {players} entries, one per player, got {len(value)}", name)
    for index, stack in enumerate(history.starting_stacks):
        if _is_amount(stack) and not stack > 0:
            problem(f"p{index + 1}'s starting stack must be positive, got {stack}",
                    "starting_stacks")  # fmt: skip
    for name in _NOT_NEGATIVE:
        value = getattr(history, name)
        if isinstance(value, tuple) and any(_is_amount(v) and v < 0 for v in value):
            problem(f"amounts must not be negative, got {list(value)}", name)
    for name in ("bring_in", "small_bet", "big_bet", "min_bet"):
        value = getattr(history, name)
        if _is_amount(value) and value < 0:
            problem(f"must not be negative, got {value}", name)
    for name, low, high in (("day", 1, 31), ("month", 1, 12), ("level", 0, None)):
        value = getattr(history, name)
        if _is_int(value) and (value < low or (high is not None and value > high)):
            problem(f"expected {low}..{high or 'more'}, got {value}", name)
    deck = variant.deck if variant is not None else DeckKind.STANDARD
    lowest = 4 * deck.lowest  # the deck's lowest card code: every card from it on is in it
    for index, text in enumerate(history.actions):
        if not isinstance(text, str):
            problem(f"an action is a string, got {text!r}", "actions", action=index)
            continue
        try:
            action = _parse_action(text, players or None)
        except PHHError as error:
            problems.append(origin.error(error.message, action=index, text=text))
            continue
        if action.amount is not None and not action.amount > 0:
            problems.append(origin.error("a bet must be positive", action=index, text=text))
        outside = [str(c) for c in action.cards if c is not None and c < lowest]
        if outside and variant is not None:
            problems.append(
                origin.error(
                    f"{', '.join(outside)} is not in the {deck.size}-card deck of {variant.code}",
                    action=index,
                    text=text,
                )
            )
    return problems


# ---------------------------------------------------------------------------------------------
# Reading


def load_phh(
    source: str | bytes | os.PathLike[str], *, strict: bool = True, file: str | None = None
) -> HandHistory:
    """Read one hand from PHH text or a ``.phh`` file.

    ``source`` is a path (:class:`os.PathLike`, or a string with no newline and no ``=``) or
    the text itself. Strict: raises :class:`PHHError` at the first problem. Lenient: the hand
    comes back with its problems in :attr:`HandHistory.errors`."""
    text, file = _read(source, file)
    try:
        raw = tomli.loads(text, parse_float=_parse_float)
    except tomli.TOMLDecodeError as error:
        problem = _toml_error(error, file, None, None)
        if strict:
            raise problem from None
        return HandHistory(errors=(problem,), origin=Origin(file=file))
    return _build(raw, Document(text), (), Origin(file=file), strict)


def load_phhs(
    source: str | bytes | os.PathLike[str], *, strict: bool = True, file: str | None = None
) -> list[HandHistory]:
    """Read a ``.phhs`` collection: each top-level table is a hand (``[1]``, ``[2]``, ...).

    The hands keep their table names in :attr:`HandHistory.name`. Strict: raises at the first
    problem. Lenient: every hand comes back with its own problems; a TOML syntax error spoils only
    the hand whose table holds it."""
    text, file = _read(source, file)
    scanned = Document(text)
    try:
        raw = tomli.loads(text, parse_float=_parse_float)
    except tomli.TOMLDecodeError as error:
        if strict:
            raise _toml_error(error, file, None, None) from None
        return _load_chunks(scanned, file)
    histories = []
    for index, (name, table) in enumerate(raw.items()):
        origin = Origin(file=file, hand=index, name=name)
        if not isinstance(table, dict):
            problem = origin.error(
                f"expected a table of fields ([{name}]), got {table!r}",
                line=scanned.layout.keys.get((name,)),
            )
            if strict:
                raise problem
            histories.append(HandHistory(name=name, errors=(problem,), origin=origin))
            continue
        histories.append(_build(table, scanned, (name,), origin, strict))
    return histories


def _load_chunks(scanned: Document, file: str | None) -> list[HandHistory]:
    """Lenient reading of a .phhs that is not valid TOML as a whole: each hand's tables alone."""
    lines = scanned.text.splitlines(keepends=True)
    starts: list[tuple[int, str]] = []
    for path, line in sorted(scanned.layout.headers.items(), key=lambda item: item[1]):
        if path and (not starts or starts[-1][1] != path[0]):
            starts.append((line, path[0]))
    histories = []
    for index, (line, name) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(lines) + 1
        chunk = "\n" * (line - 1) + "".join(lines[line - 1 : end - 1])
        origin = Origin(file=file, hand=index, name=name)
        try:
            raw = tomli.loads(chunk, parse_float=_parse_float)
        except tomli.TOMLDecodeError as error:
            problem = _toml_error(error, file, index, name)
            histories.append(HandHistory(name=name, errors=(problem,), origin=origin))
            continue
        table = raw.get(name)
        if isinstance(table, dict):
            histories.append(_build(table, scanned, (name,), origin, strict=False))
    return histories


def _read(source: str | bytes | os.PathLike[str], file: str | None) -> tuple[str, str | None]:
    if isinstance(source, bytes):
        return source.decode("utf-8-sig"), file
    if isinstance(source, os.PathLike) or ("\n" not in source and "=" not in source):
        path = Path(source)
        try:
            return path.read_text(encoding="utf-8-sig"), file or str(path)
        except OSError as error:
            raise PHHError(f"cannot read the file: {error.strerror}", file=str(path)) from None
        except UnicodeDecodeError as error:
            raise PHHError(f"not UTF-8 text: {error.reason}", file=str(path)) from None
    return source, file


def _parse_float(text: str) -> Decimal:
    return Decimal(text.replace("_", ""))


def _toml_error(
    error: tomli.TOMLDecodeError, file: str | None, hand: int | None, name: str | None
) -> PHHError:
    message = error.msg
    return PHHError(
        f"not valid TOML: {message[:1].lower()}{message[1:]}", file=file, hand=hand,
        hand_name=name, line=error.lineno,
    )  # fmt: skip


def _build(
    raw: Mapping[str, Any],
    scanned: Document,
    section: tuple[str, ...],
    origin: Origin,
    strict: bool,
) -> HandHistory:
    origin = dataclasses.replace(origin, lines=HandLines(scanned, section))
    problems: list[PHHError] = []
    values: dict[str, Any] = {}
    user: dict[str, Any] = {}
    for key, value in raw.items():
        if key.startswith("_"):
            user[key] = value
        elif key in _FIELDS:
            typed = _convert(_FIELDS[key], value)
            if typed is None:
                expected = _EXPECTED[_FIELDS[key]]
                problems.append(origin.error(f"expected {expected}, got {value!r}", field=key))
            else:
                values[key] = typed
        else:
            problems.append(
                origin.error(
                    f"unknown field {key!r}: a user-defined field's name starts with '_'",
                    field=key,
                )
            )
            user[key] = value
        if strict and problems:
            raise problems[0]
    history = HandHistory(**values, user_fields=user, name=origin.name, origin=origin)
    problems.extend(_check(history, set(raw), [p.field or "" for p in problems], typed=True))
    problems.sort(key=lambda p: p.line if p.line is not None else 0)
    if strict and problems:
        raise problems[0]
    if problems:
        return dataclasses.replace(history, errors=tuple(problems))
    object.__setattr__(history, "_valid", True)
    return history


# ---------------------------------------------------------------------------------------------
# Writing


def dump_phh(history: HandHistory) -> str:
    """The hand as PHH text (TOML): spec fields in spec order, absent ones left out, then the
    user's fields; one action per line."""
    lines: list[str] = []
    for item in dataclasses.fields(HandHistory):
        if item.name not in _FIELDS:
            continue
        value = getattr(history, item.name)
        if value is None:
            continue
        if item.name == "actions":
            lines.append("actions = [")
            lines.extend(f"  {_format_string(action)}," for action in value)
            lines.append("]")
        else:
            lines.append(f"{item.name} = {_format_value(value, item.name)}")
    for key, value in history.user_fields.items():
        lines.append(f"{_format_key(key)} = {_format_value(value, key)}")
    return "\n".join(lines) + "\n"


def dump_phhs(histories: Iterable[HandHistory]) -> str:
    """A ``.phhs`` collection: each hand under ``[name]`` (its :attr:`~HandHistory.name`, or
    its position counted from 1)."""
    sections: list[str] = []
    seen: set[str] = set()
    for index, history in enumerate(histories):
        name = history.name if history.name is not None else str(index + 1)
        if name in seen:
            raise PHHError(f"two hands are named {name!r}: names in a .phhs must be unique")
        seen.add(name)
        sections.append(f"[{_format_key(name)}]\n{dump_phh(history)}")
    return "\n".join(sections)


def _format_key(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else _format_string(key)


_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f",
            "\r": "\\r"}  # fmt: skip


def _format_string(text: str) -> str:
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _format_number(value: Amount | float) -> str:
    if isinstance(value, Decimal):
        if value.is_nan():
            return "nan"
        if value.is_infinite():
            return "inf" if value > 0 else "-inf"
        text = str(value)
        return text if any(c in text for c in ".eE") else text + ".0"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    return str(value)


def _format_value(value: object, where: str) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | Decimal | float):
        return _format_number(value)
    if isinstance(value, str):
        return _format_string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        pairs = (f"{_format_key(str(k))} = {_format_value(v, where)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_format_value(item, where) for item in value) + "]"
    raise PHHError(f"cannot write {value!r} in TOML", field=where)
