"""A hand history's fields (phh-std), the variants, and what makes the fields valid."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from croupier.cards import DeckKind
from croupier.history.actions import (
    MAX_AMOUNT,
    Action,
    Amount,
    amount_problem,
    parse_action_cached,
)
from croupier.history.errors import Origin, PHHError, brief

__all__ = ["MAX_ACTIONS", "MAX_NESTING", "VARIANTS", "HandHistory", "Variant"]

MAX_ACTIONS = 10_000
"""A hand has at most this many actions (a long hand of poker has a few hundred)."""
MAX_NESTING = 32
MAX_HAND_NUMBER = 2**63
"""A hand's number is below this (a 64-bit integer, as trackers keep it)."""
"""A user's field nests arrays and tables at most this deep."""


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
        return [] if getattr(self, "_valid", False) else field_problems(self)


def _located(origin: Origin, index: int, text: str, players: int) -> Action:
    try:
        return parse_action_cached(text, players or None)
    except PHHError as error:
        raise origin.error(error.message, action=index, text=text) from None


# Field kinds, for reading and checking.
_STR, _BOOL, _INT, _AMOUNT, _AMOUNTS, _INTS, _STRS, _STR_OR_INT, _TIME = range(9)

FIELD_KINDS: dict[str, int] = {
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
EXPECTED = {
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


def typed_value(kind: int, value: object) -> object:
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


def field_problems(
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

    for name, kind in () if typed else FIELD_KINDS.items():
        value = getattr(history, name)
        if value is not None and typed_value(kind, value) is None:
            problem(f"expected {EXPECTED[kind]}, got {brief(value)}", name)
    _size_problems(history, problem)
    variant = VARIANTS.get(history.variant)
    if not history.variant:
        problem("missing required field 'variant'", "variant")
    elif variant is None and not (
        # croupier's extension (docs/phh-extensions.md): the game is in _croupier_game
        history.variant == "croupier" and "_croupier_game" in history.user_fields
    ):
        codes = ", ".join(VARIANTS)
        problem(
            f"unknown variant code {brief(history.variant)}: expected one of {codes}", "variant"
        )
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
            problem(f"amounts must not be negative, got {brief(list(value))}", name)
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
    for index, text in enumerate(history.actions if "actions" not in seen else ()):
        if not isinstance(text, str):
            problem(f"an action is a string, got {brief(text)}", "actions", action=index)
            continue
        try:
            action = parse_action_cached(text, players or None)
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


_SINGLE_AMOUNTS = ("bring_in", "small_bet", "big_bet", "min_bet", "time_limit")
_AMOUNT_ARRAYS = (
    "antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings",
    "time_banks",
)  # fmt: skip
_STACKS = ("starting_stacks", "finishing_stacks")  # may be inf: unknown
_INTEGERS = ("day", "month", "year", "level", "seat_count", "hand", "table", "seats")


def _size_problems(history: HandHistory, problem: Callable[[str, str], None]) -> None:
    """Values too large, too precise or too deep to be a hand's: amounts (see
    :func:`~croupier.history.actions.amount_problem`), integers, the number of actions, and
    the nesting of the user's fields."""
    for name in _SINGLE_AMOUNTS:
        value = getattr(history, name)
        if _is_amount(value):
            message = amount_problem(value)
            if message is not None:
                problem(message, name)
    for name in _AMOUNT_ARRAYS:
        values = getattr(history, name)
        for index, value in enumerate(values if isinstance(values, tuple) else ()):
            if _is_amount(value):
                message = amount_problem(value, unknown=name in _STACKS)
                if message is not None:
                    problem(f"p{index + 1}: {message}", name)
                    break
    for name in _INTEGERS:
        value = getattr(history, name)
        # a hand's number is an identifier: a 64-bit integer, as trackers keep it
        bound = MAX_HAND_NUMBER if name == "hand" else MAX_AMOUNT
        for item in value if isinstance(value, tuple) else (value,):
            if _is_int(item) and not -bound < item < bound:
                limit = "2**63" if name == "hand" else "10**15"
                problem(f"{brief(item)} is too large: integers are below {limit}", name)
                break
    if len(history.actions) > MAX_ACTIONS:
        problem(f"{len(history.actions):,} actions: a hand has at most {MAX_ACTIONS:,}", "actions")
    for key, value in history.user_fields.items():
        if _nested_deeper(value, MAX_NESTING):
            problem(f"nested more than {MAX_NESTING} levels deep", key)


def _nested_deeper(value: object, limit: int) -> bool:
    """Whether arrays and tables nest more than ``limit`` deep in ``value`` (counted without
    recursion: the value may nest a thousand deep)."""
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            children: Iterable[object] = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False
