"""The rules of a quick game at the terminal, from plain options: a rulebook's, or simple house
rules with each game's usual structure.

:class:`TableOptions` holds what a person types (``--game razz --stakes 1/2 --rake 5%``);
:meth:`TableOptions.rules` makes the :class:`~croupier.hand.Rules`, refusing what cannot be
played with a :class:`SetupError` (or the book's :class:`~croupier.rulebooks.RulebookError`)
that says what was wrong and what is allowed. The options are also written into saved event
logs, so that a log can be replayed under the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction

from croupier.betting import Betting, RulesError, Structure
from croupier.cards import CardError, DeckKind
from croupier.games import GAMES, Game, GameError, Opener
from croupier.games import game as find_game
from croupier.pots import Basis, Commission, CommissionKind, PotError
from croupier.rulebooks import RulebookError, load_rulebook, rulebook_names
from croupier.rulebooks.schema import Combination
from croupier.rules import Rules

__all__ = [
    "USUAL_STRUCTURE",
    "SetupError",
    "TableOptions",
    "book_rules",
    "book_table",
    "describe_rules",
    "house_rules",
    "parse_rake",
    "parse_stakes",
]


class SetupError(GameError):
    """Options a game cannot be set up with; says which option, what was wrong and what is
    allowed. (A :class:`~croupier.games.GameError`, so callers that caught those still do.)"""


USUAL_STRUCTURE: Mapping[str, Structure] = {
    "holdem": Structure.NO_LIMIT,
    "omaha": Structure.POT,
    "omaha8": Structure.FIXED,
    "manila2": Structure.POT,
    "manila3": Structure.POT,
    "draw": Structure.FIXED,
    "stud5": Structure.FIXED,
    "stud7": Structure.FIXED,
    "stud7-8": Structure.FIXED,
    "razz": Structure.FIXED,
    "draw27": Structure.NO_LIMIT,
    "triple-draw27": Structure.FIXED,
    "badugi": Structure.FIXED,
}
"""How each game is usually dealt when no rulebook says otherwise (the PHH variants' own
structures: no-limit hold'em and 2-7 single draw, pot-limit Omaha, fixed-limit stud, razz,
Omaha hi-lo, triple draw and badugi)."""


# --- rules for a quick game --------------------------------------------------------------------


def house_rules(
    game: str = "holdem",
    structure: str | Sequence[str] | None = None,
    stakes: str | Sequence[int] = "1/2",
    *,
    ante: int | None = None,
    deck: int | None = None,
    rake: str | None = None,
    rake_cap: int | None = None,
    max_wager: int | None = None,
) -> Rules:
    """Simple house rules for a game at the terminal (not any rulebook's; load a rulebook for
    that). ``structure``: one for every round, one per round (``"straddle,pot,pot,pot"``), or
    ``None`` for the game's usual one (:data:`USUAL_STRUCTURE`). ``stakes`` ``"S/B"``: blind
    games post blinds S and B; stud antes S (unless ``ante``) and the lowest up card opens.
    The small bet is B, the big bet 2B (fixed limit, from the third round), spread limit bets
    up to 4B (or ``max_wager``), and limits are capped at a bet and three raises (the usual
    cap; au 11.5(g) has the same). ``rake``: a percentage commission per pot, e.g. ``"5%"``,
    at most ``rake_cap`` a hand."""
    engine = _game(game)
    small, big = parse_stakes(stakes)
    rounds = _house_structures(engine, structure)
    kind = _deck(engine, deck)
    limited = any(s in (Structure.FIXED, Structure.SPREAD) for s in rounds)
    if max_wager is None and Structure.SPREAD in rounds:
        max_wager = 4 * big
    _check_whole("--max-wager", max_wager, least=big)
    _check_whole("--ante", ante, least=0)
    try:
        betting = Betting(
            structures=rounds,
            small_bet=big,
            big_bet=2 * big,
            max_wager=max_wager,
            raise_cap=3 if limited else None,
        )
        blinds = _uses_blinds(engine)
        return Rules(
            game=engine,
            betting=betting,
            deck=kind,
            blinds=(small, big) if blinds else (),
            ante=ante if ante is not None else (0 if blinds else small),
            commission=_commission(rake, rake_cap),
        )
    except RulesError as error:
        raise SetupError(str(error)) from None


def book_rules(
    name: str,
    game: str,
    structure: str | Sequence[str] | None,
    stakes: str,
    *,
    ante: int | None = None,
    deck: int | None = None,
    rake: str | None = None,
    rake_cap: int | None = None,
    max_wager: int | None = None,
) -> Rules:
    """A rulebook's rules for one table: ``stakes`` ``"S/B"`` are the blinds in blind games
    and ``B`` is the minimum wager otherwise; ``rake`` (e.g. ``"5%"``) asks for the book's
    percentage commission at that rate, where the book allows one, and ``rake_cap`` caps the
    commission a hand pays, where the book leaves the cap to the house. ``structure``: one of the
    book's structures, the name of one of its combinations (``"combination"`` under qld: the
    first structure each round allows), or one per round. Without ``max_wager`` the table
    maximum is 4 B at spread limit, as in :func:`house_rules`, and 2 B at structured limit
    where the book lets the house post one (qld s28(8))."""
    return book_table(
        name, game, structure, stakes, ante=ante, deck=deck, rake=rake, rake_cap=rake_cap,
        max_wager=max_wager,
    )[0]  # fmt: skip


@dataclass(frozen=True)
class TableOptions:
    """The options of ``croupier play`` and ``croupier sim`` that make a table's rules."""

    game: str = "holdem"
    structure: str | None = None  # None: the rulebook's default, else the game's usual one
    stakes: str = "1/2"
    rulebook: str | None = None
    ante: int | None = None
    deck: int | None = None
    rake: str | None = None
    max_wager: int | None = None

    def rules(self) -> Rules:
        if self.rulebook is None:
            return house_rules(
                self.game, self.structure, self.stakes, ante=self.ante, deck=self.deck,
                rake=self.rake, max_wager=self.max_wager,
            )  # fmt: skip
        return self.book()[0]

    def book(self) -> tuple[Rules, dict[str, object] | None]:
        """The rules, and the book's name and house options as a PHH history records them
        (None for house rules and for a user's own rulebook file, which no history can name)."""
        if self.rulebook is None:
            return self.rules(), None
        rules, options = book_table(
            self.rulebook, self.game, self.structure, self.stakes, ante=self.ante,
            deck=self.deck, rake=self.rake, max_wager=self.max_wager,
        )  # fmt: skip
        return rules, (options if self.rulebook in rulebook_names() else None)

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> TableOptions:
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise SetupError(f"unknown table option {unknown[0]!r}: expected {sorted(known)}")
        return cls(**data)  # type: ignore[arg-type]


def describe_rules(rules: Rules) -> str:
    """A table in a line: ``holdem · no-limit · blinds 1/2 · 52-card deck``."""
    structure = "/".join(s.value for s in rules.betting.structures)
    if len(set(rules.betting.structures)) == 1:
        structure = rules.betting.structures[0].value
    betting = rules.betting
    parts = [rules.game.name, structure]
    if rules.blinds:
        parts.append(f"blinds {'/'.join(map(str, rules.blinds))}")
    if rules.ante:
        parts.append(f"ante {rules.ante}")
    if rules.bring_in:
        parts.append(f"bring-in {rules.bring_in}")
    if Structure.FIXED in betting.structures:
        parts.append(f"bets {betting.small_bet}/{betting.big_bet or betting.small_bet}")
    elif not rules.blinds:
        parts.append(f"minimum bet {betting.small_bet}")
    if betting.max_wager is not None:
        parts.append(f"maximum {betting.max_wager}")
    commission = rules.commission
    if commission.kind is CommissionKind.PERCENTAGE and commission.rate:
        cap = f" (at most {commission.cap})" if commission.cap else ""
        parts.append(f"rake {float(commission.rate * 100):g}%{cap}")
    parts.append(f"{rules.deck.size}-card deck")
    return " · ".join(parts)


# --- parsing -----------------------------------------------------------------------------------


def parse_stakes(stakes: str | Sequence[int]) -> tuple[int, int]:
    """``"S/B"`` (or ``"S-B"``) as two whole amounts with ``0 < S <= B``."""
    if isinstance(stakes, str):
        parts = stakes.replace("-", "/").split("/")
        try:
            amounts = [int(part) for part in parts]
        except ValueError:
            amounts = []
    else:
        amounts = list(stakes)
    if len(amounts) != 2 or not 0 < amounts[0] <= amounts[1]:
        raise SetupError(
            f"stakes {stakes!r}: expected two amounts 'S/B' with 0 < S <= B, e.g. '1/2' "
            "(blind games: the blinds; stud: the ante and the bet)"
        )
    return amounts[0], amounts[1]


_DECIMAL = re.compile(r"\d{1,6}(\.\d{1,6})?|\.\d{1,6}")


def parse_rake(rake: str) -> Fraction:
    """A percentage (``"5%"``, ``"2.5%"``) or a fraction of one (``"0.05"``), above 0 and
    below 100%."""
    text = rake.strip()
    number = text[:-1] if text.endswith("%") else text
    # Plain decimals only: an exponent ("1e999999999") would take Fraction minutes to expand.
    if not _DECIMAL.fullmatch(number):
        raise SetupError(f"rake takes a percentage of each pot like 5% or 2.5%, got {rake!r}")
    rate = Fraction(number) / 100 if text.endswith("%") else Fraction(number)
    if not 0 < rate < 1:
        raise SetupError(f"rake must be above 0% and below 100%, got {rake!r}")
    return rate


def _commission(rake: str | None, cap: int | None) -> Commission:
    if rake is None:
        if cap is not None:
            raise SetupError(f"rake_cap {cap!r} caps a rake: give the rake (e.g. 5%) too")
        return Commission()
    _check_whole("rake_cap", cap, least=1)
    rate = parse_rake(rake)
    try:
        return Commission(CommissionKind.PERCENTAGE, rate, Basis.POT, cap=cap)
    except PotError as error:
        raise SetupError(f"rake {rake!r}: {error}") from None


def _check_whole(option: str, value: int | None, *, least: int) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise SetupError(
            f"{option} takes a whole number of chips of at least {least}, got {value!r}"
        )


def _game(name: str) -> Game:
    try:
        return find_game(name)
    except GameError:
        raise SetupError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}") from None


def _deck(engine: Game, deck: int | None) -> DeckKind:
    if deck is None:
        return next(iter(engine.max_players))
    try:
        kind = DeckKind.from_size(deck)
    except CardError as error:
        raise SetupError(f"--deck {deck}: {error}") from None
    if kind not in engine.max_players:
        sizes = ", ".join(str(k.size) for k in engine.max_players)
        raise SetupError(f"{engine.name} is played with {sizes} cards (au 5.1), not {deck}")
    return kind


def _uses_blinds(game: Game) -> bool:
    return any(street.opener is Opener.LEFT_OF_BLINDS for street in game.streets)


def _names(structure: str | Sequence[str]) -> list[str]:
    if isinstance(structure, str):
        return [part.strip() for part in structure.split(",") if part.strip()]
    return list(structure)


def _structure(name: str, allowed: str) -> Structure:
    try:
        return Structure(name)
    except ValueError:
        raise SetupError(f"unknown betting structure {name!r}: expected {allowed}") from None


def _house_structures(engine: Game, structure: str | Sequence[str] | None) -> tuple[Structure, ...]:
    if structure is None:
        return (USUAL_STRUCTURE.get(engine.name, Structure.NO_LIMIT),)
    names = _names(structure)
    every = ", ".join(s.value for s in Structure)
    allowed = f"one of {every}, or one per betting round separated by commas"
    rounds = tuple(_structure(name, allowed) for name in names)
    if len(rounds) not in (1, len(engine.streets)):
        raise SetupError(
            f"{engine.name} has {len(engine.streets)} betting rounds: give one structure for "
            f"all of them or one per round, not {len(rounds)} ({', '.join(names)})"
        )
    return rounds if len(set(rounds)) > 1 else rounds[:1]


def _book_structure(
    name: str, game: str, structure: str | Sequence[str] | None
) -> str | tuple[str, ...] | None:
    """The structure to ask the book for: one of its own, a combination named by the book
    (its first structure on each round), or one per round; anything else refused with what
    the book allows (its combinations included)."""
    if structure is None:
        return None
    book = load_rulebook(name)
    entry = book.game(game)
    allowed = book.structures(entry.game)
    setting = book.setting("combinations", entry.game)
    combos = [c for c in setting.value or () if isinstance(c, Combination)]  # type: ignore[union-attr]
    names = _names(structure)
    if len(names) > 1:
        return tuple(names)
    chosen = names[0] if names else ""
    if any(chosen == s.value for s in allowed):
        return chosen
    for combo in combos:
        if combo.name == chosen:
            return tuple(s.value for s in _first_of(combo, allowed))
    offered = [s.value for s in allowed] + [c.name for c in combos]
    clause = book.setting("structure", entry.game).clause
    per_round = "".join(f"; {c} ({setting.clause})" for c in combos)
    raise SetupError(
        f"{name} does not deal {game} {chosen or 'with no structure'} ({clause}): it allows "
        f"{', '.join(offered)}{per_round}"
    )


def _first_of(combo: Combination, preferred: Sequence[Structure]) -> list[Structure]:
    """A combination's first choice on each round, in the book's order of structures, one
    structure shared by the rounds it ties together."""
    order = list(preferred) + [s for s in Structure if s not in preferred]
    rounds: list[Structure | None] = [None] * len(combo.rounds)
    for group in combo.same:
        common = frozenset.intersection(*(combo.rounds[i] for i in group))
        pick = next(s for s in order if s in common)
        for index in group:
            rounds[index] = pick
    return [
        chosen if chosen is not None else next(s for s in order if s in allowed)
        for chosen, allowed in zip(rounds, combo.rounds, strict=True)
    ]


def book_table(
    name: str,
    game: str,
    structure: str | Sequence[str] | None,
    stakes: str,
    *,
    ante: int | None = None,
    deck: int | None = None,
    rake: str | None = None,
    max_wager: int | None = None,
    rake_cap: int | None = None,
) -> tuple[Rules, dict[str, object]]:
    """:func:`book_rules`, with the house options chosen, as a PHH history records them (the
    ante and deck aside, which a history records in fields of its own)."""
    book = load_rulebook(name)
    small, big = parse_stakes(stakes)
    _check_whole("--ante", ante, least=0)
    _check_whole("--max-wager", max_wager, least=1)
    if rake is not None:
        parse_rake(rake)  # a clean message for a rake that is no percentage
    blinds = _uses_blinds(_game(game))
    chosen = _book_structure(name, game, structure)
    options: dict[str, object] = {}
    if ante is not None or not blinds:
        options["ante"] = ante if ante is not None else small  # stud: "S/B" is ante/bet
    if rake is not None:
        options["commission"] = "percentage"
        options["commission_rate"] = rake
    if rake_cap is not None:
        _check_whole("rake_cap", rake_cap, least=1)
        options["commission_cap"] = rake_cap
    rounds = [chosen] if isinstance(chosen, str) else list(chosen or ())
    if max_wager is None and Structure.SPREAD.value in rounds:
        max_wager = 4 * big
    elif max_wager is None and Structure.FIXED.value in rounds:
        # qld s28(8)(b): the late rounds' structured bet is the table maximum, 2 B here.
        max_wager = 2 * big if "max_wager" in book.house_options() else None
    if max_wager is not None:
        if "max_wager" not in book.house_options():
            others = [
                n for n in rulebook_names() if "max_wager" in load_rulebook(n).house_options()
            ]
            raise SetupError(
                f"{name} leaves no table maximum to the house: --max-wager is for house rules "
                f"and the books that do ({', '.join(others)})"
            )
        options["max_wager"] = max_wager
    try:
        rules = book.rules(
            game, chosen, stakes=(small, big) if blinds else big, deck=deck, **options
        )
    except RulesError as error:
        raise RulebookError(f"{name}: {error}") from None
    return rules, {key: value for key, value in options.items() if key != "ante"}


GAMES_HELP = ", ".join(f"{name} ({structure.value})" for name, structure in USUAL_STRUCTURE.items())
"""Every game with its usual structure, for ``--help``."""
