"""A loaded rulebook profile, and the table :class:`~croupier.hand.Rules` it builds."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from croupier.betting import Betting, MinRaise, ShortAllIn, Structure
from croupier.blinds import BlindPolicy, Bust, FirstButton, TableRules
from croupier.cards import CardError, DeckKind
from croupier.games import GAMES, Game, GameError
from croupier.games import game as engine_game
from croupier.hand import Rules, ShowFirst
from croupier.pots import Basis, CardSet, Commission, CommissionKind, OddChip, OddChipRule
from croupier.rulebooks.schema import (
    SPECS,
    Combination,
    GameEntry,
    Gap,
    RulebookError,
    Setting,
    Value,
    brief,
    format_value,
)

__all__ = ["PARAMETERS", "Rulebook"]

# The arguments of Rulebook.rules that are not settings: (name, default, meaning).
PARAMETERS = (
    ("stakes", "required", "the minimum wager in chips, or the blinds (b1, ..., minimum wager)"),
    ("structure", "the 'structure' setting", "a structure name, or a tuple: one per round"),
    ("deck", "the game's first deck", "deck size (52, 40, 36, 32) among the game's decks"),
)

_E = TypeVar("_E", bound=enum.Enum)

_FEE_KINDS = (CommissionKind.HAND_FEE, CommissionKind.TIME_CHARGE, CommissionKind.PARTICIPATION_FEE)


@dataclasses.dataclass(frozen=True, repr=False)
class Rulebook:
    """A rulebook profile: the games it deals and every setting, each with its clause.

    Build a table's rules with :meth:`rules`; read a setting with :meth:`setting`."""

    name: str
    title: str
    citation: str  # how this profile cites its book, e.g. 'qld s28(4)(b)'
    games_clause: str  # where the book says which games it covers
    games: tuple[GameEntry, ...]
    settings: Mapping[str, tuple[Setting, ...]]  # every name in SPECS, cases in order
    gaps: tuple[Gap, ...] = ()
    source: str = ""  # the book itself
    path: str = ""  # the TOML file it was loaded from
    extends: str | None = None  # the profile it was built on (user files)
    builtin: bool = False  # shipped with croupier (loaded by name)

    def __repr__(self) -> str:
        return f"load_rulebook({(self.name if self.builtin else self.path)!r})"

    # --- queries -------------------------------------------------------------------------

    @property
    def game_names(self) -> tuple[str, ...]:
        return tuple(entry.game for entry in self.games)

    def game(self, name: str) -> GameEntry:
        """The book's entry for a game; :class:`RulebookError` naming the clause if it has none."""
        for entry in self.games:
            if entry.game == name:
                return entry
        raise RulebookError(
            f"{self.name} does not deal {name!r} ({self.games_clause}): "
            f"it deals {', '.join(self.game_names)}"
        )

    def setting(self, name: str, game: str, structure: Structure | None = None) -> Setting:
        """The case of setting ``name`` that applies to ``game`` (and ``structure``)."""
        if name not in self.settings:
            raise RulebookError(
                f"{self.name}: no setting {name!r}: the settings are {', '.join(SPECS)}"
            )
        for case in self.settings[name]:
            if case.applies(game, structure):
                return case
        raise AssertionError(f"{self.name}: {name} has no case for {game}")  # loader checks

    def value(self, name: str, game: str, structure: Structure | None = None) -> Value:
        return self.setting(name, game, structure).value

    def house_options(self) -> tuple[str, ...]:
        """Settings the house may choose for some game or structure (keywords of :meth:`rules`),
        ``structure`` excepted (an argument of its own)."""
        return tuple(
            name
            for name, cases in self.settings.items()
            if name != "structure" and any(case.house for case in cases)
        )

    def structures(self, game: str) -> tuple[Structure, ...]:
        """The structures the book allows for ``game`` (on every round)."""
        case = self.setting("structure", game)
        choices = case.choices if case.house and case.choices is not None else (case.value,)
        return tuple(c for c in choices if isinstance(c, Structure))

    def check_players(self, game: str, players: int, deck: int | DeckKind | None = None) -> None:
        """:class:`RulebookError` naming the clause unless the book seats ``players`` players."""
        entry = self.game(game)
        kind = self._deck(entry, deck)
        most = entry.max_players(kind) or 0
        if not 2 <= players <= most:
            raise RulebookError(
                f"{self.name}: {game} on a {kind.size}-card deck takes 2 to {most} players "
                f"({entry.decks_clause}), not {players}"
            )

    # --- building a table's rules -----------------------------------------------------------

    def rules(
        self,
        game: str,
        structure: str | Structure | Sequence[str | Structure] | None = None,
        *,
        stakes: int | Sequence[int],
        deck: int | DeckKind | None = None,
        **options: object,
    ) -> Rules:
        """The :class:`~croupier.hand.Rules` for one table of this book.

        - ``game``: one of the book's games; ``deck``: its deck size (default: the first the
          book lists for it).
        - ``structure``: one of the book's structures for every round, or a tuple with one per
          round matching one of its ``combinations``; default: the book's ``structure`` value.
        - ``stakes``: the minimum wager in chips (the blinds are the book's fractions of it), or
          the blinds themselves ``(small, big)`` / ``(b1, ..., minimum wager)``.
        - ``options``: the settings the book leaves to the house (``croupier rules show NAME``
          lists them with their defaults): e.g. ``commission="percentage"``,
          ``commission_rate="5%"``, ``commission_cap=5``, ``max_wager=400``, ``ante=1``,
          ``big_bet=20`` (chips), ``raise_cap=4``, ``chip_unit=1``.

        Anything the book does not allow is a :class:`RulebookError` naming the clause.
        """
        entry = self.game(game)
        kind = self._deck(entry, deck)
        rounds = self._rounds(entry, structure)
        table = _Table(self, game, rounds, options)
        table.check_options()
        minimum, blinds = table.stakes(stakes)
        engine = self._engine_game(entry, kind, len(rounds))
        betting = table.betting(rounds, minimum)
        return Rules(
            game=engine,
            betting=betting,
            deck=kind,
            blinds=blinds,
            ante=table.ante(),
            heads_up_button_small_blind=table.flag("heads_up_button_small_blind"),
            over_blind=table.flag("over_blind"),
            all_in_face_up=table.flag("all_in_face_up"),
            commission=table.commission(minimum),
            odd_chip=table.odd_chip(),
            show_first=table.enum("show_first", ShowFirst),
            chip_unit=table.whole("chip_unit"),
            dead_receiver=table.flag("dead_receiver"),
            table=TableRules(
                first_button=table.enum("first_button", FirstButton),
                blind_policy=table.enum("blind_policy", BlindPolicy),
                bust=table.enum("bust", Bust),
            ),
        )

    def _deck(self, entry: GameEntry, deck: int | DeckKind | None) -> DeckKind:
        if deck is None:
            return entry.deck_kinds[0]
        if isinstance(deck, DeckKind):
            kind = deck
        else:
            try:
                kind = DeckKind.from_size(deck)
            except CardError as error:
                raise RulebookError(f"{self.name}: {error}") from None
        if kind not in entry.deck_kinds:
            sizes = ", ".join(str(k.size) for k in entry.deck_kinds)
            raise RulebookError(
                f"{self.name} does not deal {entry.game} with a {kind.size}-card deck "
                f"({entry.decks_clause}): it is dealt with {sizes} cards"
            )
        return kind

    def _rounds(
        self, entry: GameEntry, structure: str | Structure | Sequence[str | Structure] | None
    ) -> tuple[Structure, ...]:
        case = self.setting("structure", entry.game)
        allowed = self.structures(entry.game)
        names = ", ".join(s.value for s in allowed)
        if structure is None:
            value = case.value
            assert isinstance(value, Structure)
            return (value,)
        if isinstance(structure, str | Structure):
            chosen = _structure(structure, self.name)
            if chosen not in allowed:
                raise RulebookError(
                    f"{self.name} does not allow {chosen.value} betting for {entry.game} "
                    f"({case.clause}): it allows {names}"
                )
            return (chosen,)
        rounds = tuple(_structure(s, self.name) for s in structure)
        if len(set(rounds)) == 1 and rounds[0] in allowed:
            return rounds
        combinations = self.setting("combinations", entry.game)
        patterns = combinations.value
        assert isinstance(patterns, tuple)
        if any(isinstance(p, Combination) and p.matches(rounds) for p in patterns):
            return rounds
        shown = "; ".join(str(p) for p in patterns) or "none"
        raise RulebookError(
            f"{self.name} does not allow the per-round structures "
            f"{', '.join(s.value for s in rounds)} for {entry.game} "
            f"({combinations.clause}): it allows {names} on every round; combinations: {shown}"
        )

    def _engine_game(self, entry: GameEntry, kind: DeckKind, rounds: int) -> Game:
        """The engine's game, with the book's player limits where they are narrower."""
        try:
            base = engine_game(entry.game)
        except GameError:
            raise RulebookError(
                f"{self.name} deals {entry.game} ({entry.clause}), but the engine has no such "
                f"game yet: it has {', '.join(GAMES)}"
            ) from None
        if kind not in base.max_players:
            raise RulebookError(
                f"{self.name} deals {entry.game} with {kind.size} cards ({entry.decks_clause}), "
                f"but the engine does not"
            )
        if rounds > 1 and rounds != len(base.streets):
            raise RulebookError(
                f"{self.name}: {entry.game} has {len(base.streets)} betting rounds, "
                f"but {rounds} structures were given"
            )
        limits = dict(base.max_players)
        for deck, most in entry.decks:
            if deck in limits:
                limits[deck] = min(limits[deck], most)
        narrowed = {deck: most for deck, most in limits.items() if deck in entry.deck_kinds}
        if narrowed == base.max_players:
            return base
        return dataclasses.replace(base, max_players=narrowed)


def _structure(value: str | Structure, book: str) -> Structure:
    if isinstance(value, Structure):
        return value
    try:
        parsed = SPECS["structure"].parse(value)
    except ValueError as error:
        raise RulebookError(f"{book}: structure: {error}") from None
    assert isinstance(parsed, Structure)
    return parsed


class _Table:
    """Resolves a book's settings for one game, its per-round structures and house options."""

    def __init__(
        self,
        book: Rulebook,
        game: str,
        rounds: tuple[Structure, ...],
        options: Mapping[str, object],
    ) -> None:
        self.book = book
        self.game = game
        self.rounds = rounds
        self.options = dict(options)
        self.where = f"{book.name} {game}"

    def case(self, name: str) -> Setting:
        """The case that applies on every round (an engine gap if the rounds disagree)."""
        cases = {s: self.book.setting(name, self.game, s) for s in dict.fromkeys(self.rounds)}
        first = next(iter(cases.values()))
        if any(c.value != first.value for c in cases.values()) and name not in self.options:
            shown = "; ".join(f"{s.value}: {format_value(c.value)}" for s, c in cases.items())
            raise RulebookError(
                f"{self.where}: {name} differs between the rounds' structures ({shown}; "
                f"{first.clause}), and the engine has one {name} per table"
            )
        return first

    def get(self, name: str) -> Value:
        if name in self.options:
            return self._option(name)
        return self.case(name).value

    def _option(self, name: str) -> Value:
        raw = self.options[name]
        if name == "big_bet":  # the house gives the big bet in chips
            if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
                raise RulebookError(
                    f"{self.where}: big_bet: expected chips (>= 1), got {brief(raw)}"
                )
            return raw
        try:
            value = SPECS[name].parse(raw)
        except ValueError as error:
            raise RulebookError(f"{self.where}: option {name}: {error}") from None
        for structure in dict.fromkeys(self.rounds):
            self.book.setting(name, self.game, structure).check(value, self.where)
        return value

    def check_options(self) -> None:
        house = self.book.house_options()
        for name in self.options:
            if name not in SPECS or name == "structure":
                raise RulebookError(
                    f"{self.where}: unknown table option {name!r}: the house options of "
                    f"{self.book.name} are {', '.join(house)} (and stakes, structure, deck)"
                )
            for structure in dict.fromkeys(self.rounds):
                case = self.book.setting(name, self.game, structure)
                if not case.house:
                    raise RulebookError(
                        f"{self.where}: {name} is not the house's to choose: the book fixes it "
                        f"at {format_value(case.value)} ({case.clause}); house options: "
                        f"{', '.join(house)}"
                    )
            self._option(name)

    # --- typed reads -----------------------------------------------------------------------

    def per_round(self, name: str) -> list[Any]:
        """A setting's value on each round: a combination's rounds may differ (qld
        s28(11)(b)); a house option applies to every round."""
        if name in self.options:
            return [self._option(name)] * len(self.rounds)
        return [self.book.setting(name, self.game, s).value for s in self.rounds]

    def flag(self, name: str) -> bool:
        value = self.get(name)
        assert isinstance(value, bool), name
        return value

    def whole(self, name: str) -> int:
        value = self.get(name)
        assert isinstance(value, int) and not isinstance(value, bool), name
        return value

    def optional_whole(self, name: str) -> int | None:
        value = self.get(name)
        assert value is None or (isinstance(value, int) and not isinstance(value, bool)), name
        return value

    def enum(self, name: str, kind: type[_E]) -> _E:
        value = self.get(name)
        assert isinstance(value, kind), name
        return value

    def fraction(self, name: str) -> Fraction:
        value = self.get(name)
        assert isinstance(value, Fraction), name
        return value

    # --- the pieces of Rules ----------------------------------------------------------------

    def stakes(self, stakes: int | Sequence[int]) -> tuple[int, tuple[int, ...]]:
        """(minimum wager, blinds)."""
        case = self.case("blinds")
        fractions = case.value
        assert isinstance(fractions, tuple)
        shares = [f for f in fractions if isinstance(f, Fraction)]
        shown = "[" + ", ".join(str(f) for f in shares) + "]"
        if isinstance(stakes, int) and not isinstance(stakes, bool):
            if stakes < 1:
                raise RulebookError(f"{self.where}: the minimum wager must be positive: {stakes}")
            blinds = []
            for share in shares:
                amount = share * stakes
                if amount.denominator != 1:
                    fixed = self.case("blind_amounts").value == "fixed"
                    hint = "" if fixed else "; give the blinds instead: stakes=(b1, ..., W)"
                    raise RulebookError(
                        f"{self.where}: the blinds are {shown} of the minimum wager "
                        f"({case.clause}): {share} of {stakes} is not a whole chip{hint}"
                    )
                blinds.append(int(amount))
            return stakes, tuple(blinds)
        if isinstance(stakes, str | bytes) or not isinstance(stakes, Sequence):
            raise RulebookError(
                f"{self.where}: stakes must be the minimum wager or the blinds, got {brief(stakes)}"
            )
        amounts = tuple(stakes)
        if not amounts or any(
            isinstance(a, bool) or not isinstance(a, int) or a < 1 for a in amounts
        ):
            raise RulebookError(
                f"{self.where}: blinds must be positive whole chips, got {list(amounts)}"
            )
        if not shares:
            raise RulebookError(
                f"{self.where}: {self.game} has no blinds ({case.clause}): give the minimum "
                f"wager as stakes, not {list(amounts)}"
            )
        minimum = amounts[-1]
        policy = self.case("blind_amounts")
        if policy.value == "fixed":
            expected = tuple(share * minimum for share in shares)
            if amounts != expected:
                wanted = ", ".join(format_value(a) for a in expected)
                broken = [s for s, a in zip(shares, expected, strict=True) if a.denominator != 1]
                if broken:
                    wanted = f"{broken[0]} of {minimum} is not a whole chip"
                raise RulebookError(
                    f"{self.where}: the blinds are fixed at {shown} of the minimum wager "
                    f"({case.clause}; {policy.clause}): with a minimum wager of {minimum} "
                    + (wanted if broken else f"they are ({wanted}), not {amounts}")
                )
        return minimum, amounts

    def ante(self) -> int:
        amount = self.whole("ante")
        policy = self.case("ante_policy")
        if policy.value == "none" and amount:
            raise RulebookError(
                f"{self.where}: no ante in this book ({policy.clause}), got ante={amount}"
            )
        if policy.value == "required" and not amount:
            raise RulebookError(
                f"{self.where}: {self.game} requires an ante ({policy.clause}): pass ante=N (chips)"
            )
        return amount

    def betting(self, rounds: tuple[Structure, ...], minimum: int) -> Betting:
        max_wager = self.optional_whole("max_wager")
        if Structure.SPREAD in rounds and max_wager is None:
            clause = self.case("structure").clause
            raise RulebookError(
                f"{self.where}: spread limit bets up to the table maximum ({clause}): "
                f"pass max_wager=N"
            )
        if max_wager is not None and max_wager < minimum:
            clause = self.case("max_wager").clause
            raise RulebookError(
                f"{self.where}: the maximum wager {max_wager} is below the minimum wager "
                f"{minimum} ({clause})"
            )
        big_bet = minimum
        if Structure.FIXED in rounds:
            big = self.get("big_bet")
            if isinstance(big, int) and not isinstance(big, bool):
                big_bet = big
            elif big == "max-wager":
                if max_wager is None:
                    clause = self.case("big_bet").clause
                    raise RulebookError(
                        f"{self.where}: structured betting raises by the maximum wager on the "
                        f"late rounds ({clause}): pass max_wager=N"
                    )
                big_bet = max_wager
            else:
                assert isinstance(big, Fraction)
                amount = big * minimum
                if amount.denominator != 1:
                    clause = self.case("big_bet").clause
                    raise RulebookError(
                        f"{self.where}: the big bet is {big} minimum wagers ({clause}): "
                        f"{amount} is not a whole chip; pass big_bet=N"
                    )
                big_bet = int(amount)
        caps: tuple[int | None, ...] = tuple(self.per_round("raise_cap"))
        all_ins: tuple[ShortAllIn, ...] = tuple(self.per_round("short_all_in"))
        names = (
            "structure", "min_raise", "short_all_in", "raise_cap", "uncapped_heads_up",
            "cap_sticks", "big_bet", "big_bet_from", "max_wager", "opening_raise_is_blind",
            "big_blind_option", "open_range",
        )  # fmt: skip
        per_round = {"raise_cap", "short_all_in"}
        clauses = {
            name: self.book.setting(name, self.game, self.rounds[0]).clause
            if name in per_round
            else self.case(name).clause
            for name in names
        }
        return Betting(
            structures=rounds,
            small_bet=minimum,
            big_bet=big_bet,
            big_bet_from=self.whole("big_bet_from"),
            max_wager=max_wager,
            raise_cap=caps[0],
            raise_caps=caps if len(set(caps)) > 1 else (),
            uncapped_heads_up=self.flag("uncapped_heads_up"),
            cap_sticks=self.flag("cap_sticks"),
            min_raise=self.enum("min_raise", MinRaise),
            short_all_in=all_ins[0],
            short_all_ins=all_ins if len(set(all_ins)) > 1 else (),
            opening_raise_is_blind=self.flag("opening_raise_is_blind"),
            big_blind_option=self.flag("big_blind_option"),
            open_range=self.flag("open_range"),
            clauses=clauses,
        )

    def commission(self, minimum: int) -> Commission:
        kind = self.enum("commission", CommissionKind)
        for name in ("commission_rate", "commission_cap", "commission_fee"):
            wrong = (name == "commission_rate" and kind is not CommissionKind.PERCENTAGE) or (
                name == "commission_fee" and kind not in _FEE_KINDS
            )
            if name in self.options and wrong:
                raise RulebookError(
                    f"{self.where}: {name} does not apply to commission {kind.value}"
                )
        if kind is CommissionKind.NONE:
            return Commission()
        if kind in _FEE_KINDS:
            fee = self.whole("commission_fee")
            if fee < 1:
                clause = self.case("commission_fee").clause
                raise RulebookError(
                    f"{self.where}: commission {kind.value} needs its amount ({clause}): "
                    f"pass commission_fee=N (chips)"
                )
            return Commission(kind=kind, fee=fee)
        dollar = self.whole("chips_per_dollar")
        base_cap = self.get("commission_base_cap")
        return Commission(
            kind=kind,
            rate=self.fraction("commission_rate"),
            basis=self.enum("commission_basis", Basis),
            cap=self.optional_whole("commission_cap"),
            only_over=self.whole("commission_only_over") * dollar,
            base_unit=max(1, self.whole("commission_base_unit") * dollar),
            base_cap=None if base_cap is None else int(_as_fraction(base_cap) * minimum),
            exempt_blinds_only=self.flag("commission_exempt_blinds_only"),
            exempt_all_tie=self.flag("commission_exempt_all_tie"),
            uncalled_in_base=self.flag("commission_uncalled_in_base"),
        )

    def odd_chip(self) -> OddChip:
        unit = self.get("odd_chip_unit")
        return OddChip(
            rule=self.enum("odd_chip_rule", OddChipRule),
            cards=self.enum("odd_chip_cards", CardSet),
            low_rule=self.enum("odd_chip_low_rule", OddChipRule),
            unit=self.whole("chips_per_dollar") if unit == "dollar" else None,
            one_per_player=self.flag("odd_chip_one_each"),
            odd_to_high=self.flag("odd_chip_to_high"),
        )


def _as_fraction(value: Value) -> Fraction:
    assert isinstance(value, Fraction)
    return value
