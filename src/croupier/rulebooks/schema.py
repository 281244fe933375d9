"""The rulebook schema: every setting a rulebook fixes, its type, and what values it takes.

A rulebook profile is data (a TOML file). Each *setting* below must be stated by every profile,
with the clause of the book it comes from; where the book is silent the profile says so
(``silent = true``) and its ``note`` says which default was taken and why (the cardroom rules
fill gaps, README of the seeds). A setting may be given as one case or as a list of cases that
depend on the game and the betting structure (the first case that matches wins; the last case
must match everything). A case marked ``house = true`` is a *table option*: the house may set
it with a keyword of :meth:`croupier.rulebooks.Rulebook.rules`, within the case's ``choices``,
``min`` and ``max``; the case's value is the default.

Nothing here branches on a rulebook's name: code reads settings.
"""

from __future__ import annotations

import contextlib
import enum
import re
import reprlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from croupier.betting import MinRaise, ShortAllIn, Structure
from croupier.blinds import BlindPolicy, Bust, FirstButton
from croupier.cards import DeckKind
from croupier.hand import ShowFirst
from croupier.pots import Basis, CardSet, CommissionKind, OddChipRule
from croupier.seats import SeatPriority

__all__ = [
    "SPECS",
    "Combination",
    "GameEntry",
    "Gap",
    "RulebookError",
    "Setting",
    "Spec",
    "Value",
    "format_value",
]


class RulebookError(ValueError):
    """A rulebook file that does not validate, or table settings its book does not allow.

    The message names the file (or rulebook), the key (or clause), what was wrong and what is
    allowed."""


@dataclass(frozen=True)
class Combination:
    """A different betting structure per round (qld s28(10)-(11) 'combination betting')."""

    name: str
    rounds: tuple[frozenset[Structure], ...]  # the structures allowed on each round
    same: tuple[tuple[int, ...], ...] = ()  # rounds (0-based) that must share one structure

    def matches(self, structures: Sequence[Structure]) -> bool:
        if len(structures) != len(self.rounds):
            return False
        if any(s not in allowed for s, allowed in zip(structures, self.rounds, strict=True)):
            return False
        return all(len({structures[i] for i in group}) == 1 for group in self.same)

    def __str__(self) -> str:
        rounds = []
        for index, allowed in enumerate(self.rounds):
            names = "|".join(sorted(s.value for s in allowed))
            tied = [g for g in self.same if index in g and g[0] != index]
            rounds.append(f"as round {tied[0][0] + 1}" if tied else names)
        return f"{self.name}: " + ", ".join(rounds)


Value = (
    bool | int | Fraction | str | None | enum.Enum | tuple[Fraction, ...] | tuple[Combination, ...]
)


def format_value(value: Value) -> str:
    """A setting's value as the TOML files and the command line write it."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


# ---------------------------------------------------------------------------------------------
# Parsers: each takes a TOML (or Python) value and returns the typed value, or raises ValueError
# saying what was expected.


LARGEST = 10**15
"""Numbers in a rulebook, and the parts of its fractions, are below a thousand trillion."""


def _fraction(raw: object) -> Fraction:
    """A number: an integer, a float, a Fraction, or text like "1/2", "0.05", "5%" or "2e-2".
    Text is read only when it is short and its exponent small: ``Fraction("1e999999999")``
    would work out a power of ten with a billion digits."""
    if isinstance(raw, bool):
        raise ValueError(f"expected a number, got {brief(raw)}")
    value: Fraction | None = None
    if isinstance(raw, Fraction | int):
        value = Fraction(raw)
    elif isinstance(raw, float | Decimal | str):
        text = str(raw).strip()
        percent = text.endswith("%")
        number = text[:-1].strip() if percent else text
        exponent = _EXPONENT.search(number)
        if len(number) > 40 or (exponent is not None and abs(int(exponent.group(1))) > 30):
            raise ValueError(f"{brief(raw)} is out of range: {_RANGE}")
        with contextlib.suppress(ValueError, ZeroDivisionError):
            value = Fraction(number) / (100 if percent else 1)
    if value is None:
        raise ValueError(f'expected a number such as 2, "1/2", 0.05 or "5%", got {brief(raw)}')
    if abs(value.numerator) >= LARGEST or value.denominator >= LARGEST:
        raise ValueError(f"{brief(raw)} is out of range: {_RANGE}")
    return value


_RANGE = "numbers here are below 10**15, in parts of at most 15 digits"
_EXPONENT = re.compile(r"[eE]\s*([+-]?[0-9]+)")


def brief(value: object) -> str:
    """``repr(value)`` cut short, for values a hostile file may make huge or deeply nested."""
    if isinstance(value, int) and value.bit_length() > 256:
        return f"an integer of {len(hex(value)) * 6 // 5} or so digits"
    return _BRIEF.repr(value)


_BRIEF = reprlib.Repr()
_BRIEF.maxstring = _BRIEF.maxother = 80
_BRIEF.maxlist = _BRIEF.maxtuple = _BRIEF.maxdict = 8
_BRIEF.maxlevel = 3


def _parse_enum(kind: type[enum.Enum]) -> Callable[[object], Value]:
    def parse(raw: object) -> Value:
        if isinstance(raw, kind):
            return raw
        if isinstance(raw, str):
            key = raw.strip().lower().replace("_", "-")
            for member in kind:
                if str(member.value).replace("_", "-") == key:
                    return member
        raise ValueError(f"expected one of {_enum_names(kind)}, got {brief(raw)}")

    return parse


def _enum_names(kind: type[enum.Enum]) -> str:
    return ", ".join(repr(str(m.value)) for m in kind)


def _parse_bool(raw: object) -> Value:
    if isinstance(raw, bool):
        return raw
    raise ValueError(f"expected true or false, got {brief(raw)}")


def _parse_int(low: int) -> Callable[[object], Value]:
    def parse(raw: object) -> Value:
        if isinstance(raw, int) and not isinstance(raw, bool) and low <= raw < LARGEST:
            return raw
        raise ValueError(f"expected a whole number of at least {low}, got {brief(raw)}")

    return parse


def _parse_optional_int(low: int, none: str) -> Callable[[object], Value]:
    def parse(raw: object) -> Value:
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in ("none", none)):
            return None
        if isinstance(raw, int) and not isinstance(raw, bool) and low <= raw < LARGEST:
            return raw
        raise ValueError(f"expected a whole number of at least {low} or {none!r}, got {brief(raw)}")

    return parse


def _parse_fraction(low: Fraction, high: Fraction | None = None) -> Callable[[object], Value]:
    def parse(raw: object) -> Value:
        value = _fraction(raw)
        if value < low or (high is not None and value > high):
            top = f" and at most {high}" if high is not None else ""
            raise ValueError(f"expected a number of at least {low}{top}, got {brief(raw)}")
        return value

    return parse


def _parse_optional_fraction(raw: object) -> Value:
    if raw is None or (isinstance(raw, str) and raw.strip().lower() == "none"):
        return None
    value = _fraction(raw)
    if value <= 0:
        raise ValueError(f"expected a positive number or 'none', got {brief(raw)}")
    return value


def _parse_word(*words: str) -> Callable[[object], Value]:
    def parse(raw: object) -> Value:
        if isinstance(raw, str) and raw.strip().lower() in words:
            return raw.strip().lower()
        raise ValueError(f"expected one of {', '.join(map(repr, words))}, got {brief(raw)}")

    return parse


def _parse_big_bet(raw: object) -> Value:
    if isinstance(raw, str) and raw.strip().lower() == "max-wager":
        return "max-wager"
    try:
        value = _fraction(raw)
    except ValueError:
        value = Fraction(0)
    if value <= 0:
        raise ValueError(
            f"expected a multiple of the minimum wager such as 2, or 'max-wager', got {brief(raw)}"
        )
    return value


def _parse_blinds(raw: object) -> Value:
    if not isinstance(raw, list | tuple):
        raise ValueError(f"expected a list of fractions of the minimum wager, got {brief(raw)}")
    values = tuple(_fraction(item) for item in raw)
    if any(v <= 0 for v in values):
        raise ValueError(
            f"every blind must be a positive fraction of the minimum wager: {brief(raw)}"
        )
    if values and values[-1] != 1:
        raise ValueError(
            f"the last blind is the minimum wager, so the list must end with 1, got {brief(raw)}"
        )
    return values


_COMBINATION_KEYS = ("name", "rounds", "same")


def _parse_combinations(raw: object) -> Value:
    if not isinstance(raw, list | tuple):
        raise ValueError(f"expected a list of {{name, rounds, same}} tables, got {brief(raw)}")
    result: list[Combination] = []
    structure = _parse_enum(Structure)
    for index, item in enumerate(raw):
        if isinstance(item, Combination):
            result.append(item)
            continue
        if not isinstance(item, dict):
            raise ValueError(f"[{index}]: expected a table with keys {_COMBINATION_KEYS}")
        unknown = sorted(set(item) - set(_COMBINATION_KEYS))
        if unknown:
            raise ValueError(
                f"[{index}]: unknown key {brief(unknown[0])}: allowed keys are "
                f"{', '.join(_COMBINATION_KEYS)}"
            )
        name, rounds, same = item.get("name"), item.get("rounds"), item.get("same", [])
        if not isinstance(name, str) or not name:
            raise ValueError(f"[{index}].name: expected a name, got {brief(name)}")
        if not isinstance(rounds, list) or not rounds:
            raise ValueError(f"[{index}].rounds: expected a list (one list per round)")
        parsed: list[frozenset[Structure]] = []
        for r, names in enumerate(rounds):
            if not isinstance(names, list) or not names:
                raise ValueError(f"[{index}].rounds[{r}]: expected a list of structures")
            members = []
            for n in names:
                member = structure(n)
                assert isinstance(member, Structure)
                members.append(member)
            parsed.append(frozenset(members))
        groups: list[tuple[int, ...]] = []
        if not isinstance(same, list):
            raise ValueError(f"[{index}].same: expected a list of lists of round numbers")
        for group in same:
            ok = isinstance(group, list) and all(
                isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(parsed)
                for i in group
            )
            if not ok:
                raise ValueError(
                    f"[{index}].same: expected lists of 0-based round numbers below "
                    f"{len(parsed)}, got {brief(group)}"
                )
            groups.append(tuple(sorted(group)))
        result.append(Combination(name, tuple(parsed), tuple(groups)))
    return tuple(result)


# ---------------------------------------------------------------------------------------------
# The settings


@dataclass(frozen=True)
class Spec:
    """One setting every profile states: its type and what it means."""

    name: str
    group: str
    doc: str
    parse: Callable[[object], Value]
    allowed: str  # the values it takes, in words (for errors and ``croupier rules show``)
    ordered: bool = False  # ``min`` and ``max`` apply
    by_structure: bool = True  # cases may depend on the betting structure
    option_doc: str = ""  # how the house gives it, where that differs from the setting
    none: str = "none"  # how ``None`` reads
    percent: bool = False  # a rate, shown as a percentage

    def format(self, value: Value) -> str:
        """``value`` as the TOML files write it (a rate as a percentage)."""
        if value is None:
            return self.none
        if self.percent and isinstance(value, Fraction):
            return _percent(value)
        return format_value(value)


_STRUCTURES = ", ".join(s.value for s in Structure)

SPECS: dict[str, Spec] = {
    spec.name: spec
    for spec in (
        # --- betting ---------------------------------------------------------------------
        Spec(
            "structure", "betting",
            "Betting structure of every round; as a house setting its choices are the "
            "structures the book allows.",
            _parse_enum(Structure), _STRUCTURES, by_structure=False,
        ),
        Spec(
            "combinations", "betting",
            "Per-round structure patterns the book allows (pass a tuple as the structure).",
            _parse_combinations, "a list of {name, rounds, same} tables", by_structure=False,
        ),
        Spec(
            "min_raise", "betting", "The smallest raise.",
            _parse_enum(MinRaise), _enum_names(MinRaise),
        ),
        Spec(
            "short_all_in", "betting",
            "Whether an all-in for less than a full raise reopens the betting.",
            _parse_enum(ShortAllIn), _enum_names(ShortAllIn),
        ),
        Spec(
            "open_range", "betting",
            "Structured betting: an opening bet after the first round may be any amount from "
            "the minimum to the maximum wager; raises stay fixed.",
            _parse_bool, "true or false",
        ),
        Spec(
            "raise_cap", "betting", "Raises allowed after the opening bet in one round.",
            _parse_optional_int(0, "unlimited"), "a whole number, or 'unlimited'", ordered=True,
            none="unlimited",
        ),
        Spec(
            "opening_raise_is_blind", "betting",
            "On the first round, until someone opens, a raise is to exactly twice the last "
            "blind (the opening bet and the raise made with it each equal the blind).",
            _parse_bool, "true or false",
        ),
        Spec(
            "big_blind_option", "betting",
            "When everyone just calls the big blind, it may still raise before the first "
            "round ends.",
            _parse_bool, "true or false",
        ),
        Spec(
            "uncapped_heads_up", "betting", "No raise cap while only two players are left.",
            _parse_bool, "true or false",
        ),
        Spec(
            "cap_sticks", "betting",
            "A capped round stays capped when a fold leaves two players.",
            _parse_bool, "true or false",
        ),
        Spec(
            "big_bet", "betting",
            "Fixed-limit bet on the late rounds: a multiple of the minimum wager, or the "
            "table's maximum wager.",
            _parse_big_bet, "a multiple of the minimum wager (e.g. 2), or 'max-wager'",
            option_doc="the house gives it in chips: big_bet=20",
        ),
        Spec(
            "big_bet_from", "betting", "First betting round (0-based) that uses the big bet.",
            _parse_int(0), "a whole number from 0",
        ),
        Spec(
            "max_wager", "betting", "Table maximum for one bet or raise, in chips.",
            _parse_optional_int(1, "none"), "a whole number of chips, or 'none'", ordered=True,
        ),
        # --- forced bets -----------------------------------------------------------------
        Spec(
            "blinds", "forced bets",
            "The blinds in posting order as fractions of the minimum wager (the last is the "
            "minimum wager itself); [] for games without blinds.",
            _parse_blinds, "a list of fractions ending with 1, or []",
        ),
        Spec(
            "blind_amounts", "forced bets",
            "'fixed': the blinds must be exactly those fractions; 'house': the house posts its "
            "own number and sizes of blinds (stakes=(b1, b2, ...)).",
            _parse_word("fixed", "house"), "'fixed' or 'house'",
        ),
        Spec(
            "heads_up_button_small_blind", "forced bets",
            "With two players the button posts the small blind (and acts first before the "
            "flop).",
            _parse_bool, "true or false",
        ),
        Spec(
            "blind_policy", "forced bets",
            "How the blinds move from hand to hand: the button to the next player, or the big "
            "blind to the next player with a dead button (Table(blind_policy=...)).",
            _parse_enum(BlindPolicy), _enum_names(BlindPolicy), by_structure=False,
        ),
        Spec(
            "first_button", "forced bets",
            "Where the button is for a game's first hand: on the player at the dealer's right "
            "or left, or on the highest card drawn (Table(first_button=...)).",
            _parse_enum(FirstButton), _enum_names(FirstButton), by_structure=False,
        ),
        Spec(
            "all_in_face_up", "showdown",
            "Once a player is all-in and the betting is over, every hand is turned face up.",
            _parse_bool, "true or false",
        ),
        Spec(
            "over_blind", "forced bets",
            "The player left of the last blind may post a voluntary over-blind of double the "
            "last blind (Rules.over_blind; the player chooses with Hand(..., over_blind=True)).",
            _parse_bool, "true or false",
        ),
        Spec(
            "ante_policy", "forced bets",
            "Whether an ante is not allowed, allowed, or required.",
            _parse_word("none", "optional", "required"), "'none', 'optional' or 'required'",
        ),
        Spec(
            "ante", "forced bets", "Ante per player, in chips.",
            _parse_int(0), "a whole number of chips", ordered=True,
        ),
        Spec(
            "dead_receiver", "dealing",
            "A seat folded after a forced bet or on a round of checking keeps receiving a card "
            "(to the muck) each dealing round until someone wagers.",
            _parse_bool, "true or false", by_structure=False,
        ),
        # --- table stakes --------------------------------------------------------------------
        Spec(
            "short_buy_in", "table stakes",
            "'none': every buy-in is the full one; 'once': a player may buy in short once in a "
            "game (the book gives no size: the house sets it, BuyIn.short).",
            _parse_word("none", "once"), "'none' or 'once'", by_structure=False,
        ),
        Spec(
            "restake", "table stakes",
            "A player left with less than the minimum wager must bring the stake back to the "
            "full buy-in before the next hand (BuyIn.restake).",
            _parse_bool, "true or false", by_structure=False,
        ),
        Spec(
            "rejoin_minimum", "table stakes",
            "A seated player who was not dealt into the last hand needs the full buy-in to be "
            "dealt in again (BuyIn.rejoin_minimum).",
            _parse_bool, "true or false", by_structure=False,
        ),
        Spec(
            "bust", "table stakes",
            "A player with no chips (or, under restake, too few) who does not add any: keeps "
            "the seat, dealt out ('sit-out'), or leaves the game ('leave') (Table(bust=...)).",
            _parse_enum(Bust), _enum_names(Bust), by_structure=False,
        ),
        Spec(
            "broken_game_transfer", "table stakes",
            "A player moved from a broken game (a table the house closes) to one of the same "
            "limit keeps the stack they had, even below the minimum buy-in (Table.sit "
            "transfer=True).",
            _parse_bool, "true or false", by_structure=False,
        ),
        Spec(
            "seat_priority", "seating",
            "Who comes first for a seat vacated during a game: the players seated in it, then "
            "newcomers ('seated-first'); or those in it since it started, the other players, "
            "then newcomers ('original-first'). Equals draw cards for it (Table.offer_seat).",
            _parse_enum(SeatPriority), _enum_names(SeatPriority), by_structure=False,
        ),
        # --- showdown and odd chips --------------------------------------------------------
        Spec(
            "show_first", "showdown",
            "Who shows first when nobody bet on the last round (after a bet: the last "
            "aggressor).",
            _parse_enum(ShowFirst), _enum_names(ShowFirst),
        ),
        Spec(
            "odd_chip_rule", "odd chips", "Who is first in line for an odd chip.",
            _parse_enum(OddChipRule), _enum_names(OddChipRule),
        ),
        Spec(
            "odd_chip_cards", "odd chips", "The cards a card-based odd-chip rule compares.",
            _parse_enum(CardSet), _enum_names(CardSet),
        ),
        Spec(
            "odd_chip_low_rule", "odd chips", "The odd-chip rule among tied low hands.",
            _parse_enum(OddChipRule), _enum_names(OddChipRule),
        ),
        Spec(
            "odd_chip_one_each", "odd chips",
            "Several odd chips go one each down the line (false: all to the first).",
            _parse_bool, "true or false",
        ),
        Spec(
            "odd_chip_to_high", "odd chips",
            "In a high-low split the high half gets the odd chip.",
            _parse_bool, "true or false",
        ),
        Spec(
            "odd_chip_unit", "odd chips",
            "Pots split down to the smallest chip, or to whole dollars.",
            _parse_word("chip", "dollar"), "'chip' or 'dollar'",
        ),
        # --- commission --------------------------------------------------------------------
        Spec(
            "commission", "commission", "How the house is paid.",
            _parse_enum(CommissionKind), _enum_names(CommissionKind),
        ),
        Spec(
            "commission_rate", "commission", "Percentage commission: the rate.",
            _parse_fraction(Fraction(0), Fraction(1)), "a rate such as \"5%\" or \"1/20\"",
            ordered=True, percent=True,
        ),
        Spec(
            "commission_cap", "commission", "Most commission taken in one hand, in chips.",
            _parse_optional_int(0, "none"), "a whole number of chips, or 'none'", ordered=True,
        ),
        Spec(
            "commission_fee", "commission",
            "Hand fee, time charge or participation fee, in chips.",
            _parse_int(0), "a whole number of chips", ordered=True,
        ),
        Spec(
            "commission_basis", "commission", "What a percentage is computed on.",
            _parse_enum(Basis), _enum_names(Basis),
        ),
        Spec(
            "commission_only_over", "commission",
            "Commission only from a pot of more than this many dollars.",
            _parse_int(0), "a whole number of dollars",
        ),
        Spec(
            "commission_base_unit", "commission",
            "The base is rounded down to a multiple of this many dollars (0: not rounded).",
            _parse_int(0), "a whole number of dollars",
        ),
        Spec(
            "commission_base_cap", "commission",
            "A larger pot counts as this many minimum wagers.",
            _parse_optional_fraction, "a multiple of the minimum wager, or 'none'",
        ),
        Spec(
            "commission_exempt_blinds_only", "commission",
            "No percentage commission when the only bets were blinds.",
            _parse_bool, "true or false",
        ),
        Spec(
            "commission_exempt_all_tie", "commission",
            "No percentage commission from a pot whose every contributor ties.",
            _parse_bool, "true or false",
        ),
        Spec(
            "commission_uncalled_in_base", "commission",
            "The returned uncalled bet counts in the commission base.",
            _parse_bool, "true or false",
        ),
        # --- money ---------------------------------------------------------------------------
        Spec(
            "chip_unit", "money", "The smallest chip in play, in chips.",
            _parse_int(1), "a whole number from 1", ordered=True,
        ),
        Spec(
            "chips_per_dollar", "money",
            "How many chips make one dollar, for amounts the book states in dollars.",
            _parse_int(1), "a whole number from 1", ordered=True,
        ),
    )
}  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Profile data


@dataclass(frozen=True)
class Setting:
    """One case of a setting: its value (the default, for a house setting), where it applies,
    and the clause it comes from."""

    name: str
    value: Value
    clause: str
    note: str = ""
    silent: bool = False  # the book says nothing: ``note`` says which default and why
    house: bool = False  # a table option: the house may choose within choices/min/max
    choices: tuple[Value, ...] | None = None
    minimum: Fraction | None = None
    maximum: Fraction | None = None
    games: frozenset[str] | None = None  # applies to these games only
    structures: frozenset[Structure] | None = None  # ... and these structures only

    @property
    def spec(self) -> Spec:
        return SPECS[self.name]

    def applies(self, game: str, structure: Structure | None) -> bool:
        if self.games is not None and game not in self.games:
            return False
        return self.structures is None or structure is None or structure in self.structures

    @property
    def shown(self) -> str:
        """The value as the TOML files write it."""
        return self.spec.format(self.value)

    @property
    def when(self) -> str:
        """The case's conditions in words ('' when it applies everywhere)."""
        parts = []
        if self.games is not None:
            parts.append("games " + ", ".join(sorted(self.games)))
        if self.structures is not None:
            parts.append("structures " + ", ".join(sorted(s.value for s in self.structures)))
        return "; ".join(parts)

    @property
    def allowed(self) -> str:
        """What the house may choose, in words."""
        if self.choices is not None:
            return ", ".join(self.spec.format(c) for c in self.choices)
        bounds = []
        if self.minimum is not None:
            bounds.append(f">= {_show_bound(self.name, self.minimum)}")
        if self.maximum is not None:
            bounds.append(f"<= {_show_bound(self.name, self.maximum)}")
        return " and ".join(bounds) or self.spec.allowed

    def check(self, value: Value, where: str) -> None:
        """Raise :class:`RulebookError` unless ``value`` is within this case's constraints."""
        if self.choices is not None and value not in self.choices:
            raise RulebookError(
                f"{where}: {self.name} {self.spec.format(value)} is not allowed ({self.clause}): "
                f"allowed: {self.allowed}"
            )
        if isinstance(value, bool) or not isinstance(value, int | Fraction):
            return
        if self.minimum is not None and value < self.minimum:
            raise RulebookError(
                f"{where}: {self.name} {_show_bound(self.name, Fraction(value))} is below the "
                f"minimum {_show_bound(self.name, self.minimum)} ({self.clause})"
            )
        if self.maximum is not None and value > self.maximum:
            raise RulebookError(
                f"{where}: {self.name} {_show_bound(self.name, Fraction(value))} is above the "
                f"maximum {_show_bound(self.name, self.maximum)} ({self.clause})"
            )


def _show_bound(name: str, value: Fraction) -> str:
    return SPECS[name].format(value)


def _percent(value: Fraction) -> str:
    percent = value * 100
    return f"{percent.numerator}%" if percent.denominator == 1 else f"{float(percent):g}%"


@dataclass(frozen=True)
class GameEntry:
    """A game the book deals, the decks it is dealt with and the most players on each."""

    game: str
    decks: tuple[tuple[DeckKind, int], ...]
    clause: str  # the book's rules for the game
    decks_clause: str  # where the book names the decks and player limits
    note: str = ""

    def max_players(self, deck: DeckKind) -> int | None:
        return dict(self.decks).get(deck)

    @property
    def deck_kinds(self) -> tuple[DeckKind, ...]:
        return tuple(kind for kind, _ in self.decks)

    def describe_decks(self) -> str:
        return ", ".join(f"{kind.size} cards (2-{most} players)" for kind, most in self.decks)


@dataclass(frozen=True)
class Gap:
    """Something the book requires that the engine cannot express yet."""

    topic: str
    clause: str
    needs: str  # what the book requires
    meanwhile: str  # what the profile does until the engine can
