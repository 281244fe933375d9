"""What turns a rulebook (or the house's own rules) into a table: its
:class:`~croupier.rules.Rules` (the book's structure, forced bets, commission and, in
:attr:`~croupier.rules.Rules.table`, its first button, blind policy and what a bust player does),
and its buy-in and table stakes.

Everything that deals a table takes these from here: the terminal game (:mod:`croupier.play`,
from the options typed, :mod:`croupier.play_rules`), the learning environment
(:mod:`croupier.env`) and the card room (:mod:`croupier.server.rooms.table_spec`), so that a table
dealt by a book gets the book's settings without its caller passing them.

:func:`house_rules` makes croupier's simple house rules, each game with its usual structure
(:data:`USUAL_STRUCTURE`); :func:`book_table` a book's rules with the options the house chose;
:func:`table_buy_in` and :func:`table_stakes` the buy-in and table-stake rules. Anything that
cannot be dealt is a :class:`SetupError` (or the book's :class:`RulebookError`) that says what
was wrong and what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType

from croupier.betting import Betting, RulesError, Structure
from croupier.blinds import Bust
from croupier.cards import CardError, DeckKind
from croupier.games import GAMES, Game, GameError, Opener
from croupier.games import game as find_game
from croupier.pots import Basis, Commission, CommissionKind, PotError
from croupier.rulebooks.loader import load_rulebook, rulebook_names
from croupier.rulebooks.schema import Combination, RulebookError
from croupier.rules import Rules
from croupier.seats import SeatPriority
from croupier.table_state import BuyIn

__all__ = [
    "HOUSE_STAKES",
    "USUAL_STRUCTURE",
    "SetupError",
    "book_rules",
    "book_table",
    "house_rules",
    "parse_rake",
    "parse_stakes",
    "seat_priority",
    "stake_clause",
    "table_buy_in",
    "table_stakes",
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
    stakes_of = (small, big) if blinds else big
    if chosen is None:
        # The book's default structure, named: a table that leaves it to the book and one that
        # names it are dealt alike (the house's table maximum below included).
        try:
            default = book.rules(game, None, stakes=stakes_of, deck=deck, **options)
        except RulesError as error:
            raise RulebookError(f"{name}: {error}") from None
        structures = tuple(s.value for s in default.betting.structures)
        chosen = structures[0] if len(structures) == 1 else structures
    rounds = [chosen] if isinstance(chosen, str) else list(chosen)
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
        rules = book.rules(game, chosen, stakes=stakes_of, deck=deck, **options)
    except RulesError as error:
        raise RulebookError(f"{name}: {error}") from None
    return rules, {key: value for key, value in options.items() if key != "ante"}


# --- buy-in and table stakes -------------------------------------------------------------------

HOUSE_STAKES: Mapping[str, object] = MappingProxyType({
    "short_buy_in": "any", "restake": False, "rejoin_minimum": False, "bust": Bust.SIT_OUT,
    "broken_game_transfer": True,
})  # fmt: skip
"""House rules' table stakes: any short buy-in the table asks, the stack left plays, the seat
kept when bust, a stack moved from a closed table kept."""


def table_stakes(rulebook: str | None, game: str) -> Mapping[str, object]:
    """The book's table-stake settings (short_buy_in, restake, rejoin_minimum, bust,
    broken_game_transfer); :data:`HOUSE_STAKES` under house rules (``rulebook`` None)."""
    if rulebook is None:
        return HOUSE_STAKES
    book = load_rulebook(rulebook)
    return {name: book.value(name, game) for name in HOUSE_STAKES}


def stake_clause(rulebook: str, game: str, setting: str) -> str:
    """The clause of one of the book's settings for ``game``."""
    return load_rulebook(rulebook).setting(setting, game).clause


def table_buy_in(
    rulebook: str | None,
    game: str,
    rules: Rules,
    *,
    full: int | None = None,
    short: int | None = None,
) -> BuyIn:
    """The table's money rules: the full buy-in (``full``, else ten maximum bets at limit,
    cardroom buy-in 1, and 100 big blinds at big-bet games), ``short`` where the book allows a
    short buy-in (the book gives no size: half the full one, the card room's), and the book's
    table-stake settings (restake, rejoin_minimum). A short buy-in the book forbids is a
    :class:`SetupError` naming its clause."""
    if full is not None:
        minimum = full
    elif all(s in (Structure.FIXED, Structure.SPREAD) for s in rules.betting.structures):
        minimum = BuyIn.limit(rules.betting).minimum
    else:
        minimum = 100 * rules.betting.small_bet
    stakes = table_stakes(rulebook, game)
    if stakes["short_buy_in"] == "none" and short is not None:
        assert rulebook is not None
        clause = stake_clause(rulebook, game, "short_buy_in")
        raise SetupError(f"{rulebook} allows no short buy-in ({clause})")
    if stakes["short_buy_in"] == "once" and short is None and minimum > 1:
        short = minimum // 2
    return BuyIn(
        minimum=minimum,
        short=short,
        restake=bool(stakes["restake"]),
        rejoin_minimum=bool(stakes["rejoin_minimum"]),
    )


def seat_priority(rulebook: str | None, game: str) -> tuple[SeatPriority, str]:
    """Who comes first for a vacated seat (the book's ``seat_priority``), and the rule to cite
    for it; house rules: the players seated, then newcomers."""
    if rulebook is None:
        return SeatPriority.SEATED_FIRST, "house rules: players seated first, then newcomers"
    setting = load_rulebook(rulebook).setting("seat_priority", game)
    assert isinstance(setting.value, SeatPriority)
    rule = setting.clause if not setting.silent else f"{rulebook} is silent: {setting.clause}"
    return setting.value, rule
