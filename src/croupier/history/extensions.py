"""PHH extensions: user fields for what PHH cannot say (docs/phh-extensions.md).

phh-std has eleven variant codes and no way to name a rulebook, a commission, a short deck or a
per-round betting structure. croupier writes those as user fields (names starting with ``_``,
which phh-std parsers ignore, PokerKit included):

========================  ===========  =========================================================
field                     TOML type    meaning
========================  ===========  =========================================================
``_croupier_game``        string       the engine game (``manila2``, ``draw``, ``stud5``, ...)
``_croupier_deck``        integer      deck size: 52, 40, 36, 32 or 20 (au 4.1)
``_croupier_structures``  array        betting structure, one for every round or one per round
``_croupier_rulebook``    string       the shipped rulebook in force (``au-casino``, ``qld``, ...)
``_croupier_options``     table        table options, the keys of ``croupier replay --option``
``_croupier_over_blind``  boolean      the last of ``blinds_or_straddles`` is an over-blind
``_croupier_posted``      array        players (``pN``'s N) whose blind is posted out of position
``_croupier_blind_kept``  boolean      a blind posted all-in for less is still the bet to match
``_croupier_tournament``  table        the tournament's number, buy-in and fee (not rules:
                                       croupier.history.identity)
========================  ===========  =========================================================

A game PokerKit does not play the same way is written with ``variant = "croupier"``
(:data:`EXTENSION_VARIANT`) and ``_croupier_game``; a standard code is written only when the
deal, the deck and the betting structure are PokerKit's (:func:`phh_variant`).

:func:`extension_rules` reads the fields into engine :class:`~croupier.hand.Rules`;
:func:`extension_fields` describes a played hand's rules as fields.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from croupier import events as ev
from croupier.betting import Betting, MinRaise, RulesError, ShortAllIn, Structure
from croupier.cards import CardError, DeckKind
from croupier.games import GAMES, Game, GameError, Opener
from croupier.hand import Hand, Rules
from croupier.history.phh import Amount, HandHistory, Origin, PHHError
from croupier.pots import Basis, Commission, CommissionKind, OddChip, OddChipRule, PotError
from croupier.rulebooks import SPECS, RulebookError, load_rulebook, rulebook_names

__all__ = [
    "BLIND_KEPT",
    "EXTENSION_VARIANT",
    "FIELDS",
    "OPTIONS_WITHOUT_RULEBOOK",
    "OVER_BLIND",
    "POSTED",
    "RULEBOOK",
    "STANDARD_GAMES",
    "Stakes",
    "blinds_posted_short",
    "extension_fields",
    "extension_rules",
    "over_blind_posted",
    "phh_rules",
    "phh_variant",
    "posted_blinds",
    "table_blinds",
    "without_forced_open",
]

EXTENSION_VARIANT = "croupier"
"""The ``variant`` of a hand whose game PokerKit does not play the same way."""

GAME = "_croupier_game"
DECK = "_croupier_deck"
STRUCTURES = "_croupier_structures"
RULEBOOK = "_croupier_rulebook"
OPTIONS = "_croupier_options"
OVER_BLIND = "_croupier_over_blind"
POSTED = "_croupier_posted"
BLIND_KEPT = "_croupier_blind_kept"
TOURNAMENT = "_croupier_tournament"  # croupier.history.identity: a tournament hand's identity
FIELDS = (GAME, DECK, STRUCTURES, RULEBOOK, OPTIONS, OVER_BLIND, POSTED, BLIND_KEPT)
"""The extension fields, in the order they are written."""


def blinds_posted_short(hand: Hand) -> list[tuple[int, int, int]]:
    """The blinds posted all-in for less than their amount: (player, the blind, what was
    posted). The books keep such a blind as the bet to match (league); PHH (PokerKit) makes
    the largest blind posted the bet to match, so a history whose hand kept it must say so
    (:data:`BLIND_KEPT`)."""
    amounts = {blind.player: blind.amount for blind in hand.forced.live}
    return [
        (event.player, amounts[event.player], event.amount)
        for event in hand.events
        if isinstance(event, ev.PostBlind) and event.amount < amounts[event.player]
    ]


STANDARD_GAMES: dict[str, tuple[str, DeckKind, Structure]] = {
    "NT": ("holdem", DeckKind.STANDARD, Structure.NO_LIMIT),
    "NS": ("holdem", DeckKind.SHORT_36, Structure.NO_LIMIT),
    "FT": ("holdem", DeckKind.STANDARD, Structure.FIXED),
    "PO": ("omaha", DeckKind.STANDARD, Structure.POT),
    "FO/8": ("omaha8", DeckKind.STANDARD, Structure.FIXED),
    "F7S": ("stud7", DeckKind.STANDARD, Structure.FIXED),
    "F7S/8": ("stud7-8", DeckKind.STANDARD, Structure.FIXED),
    "FR": ("razz", DeckKind.STANDARD, Structure.FIXED),
    "N2L1D": ("draw27", DeckKind.STANDARD, Structure.NO_LIMIT),
    "F2L3D": ("triple-draw27", DeckKind.STANDARD, Structure.FIXED),
    "FB": ("badugi", DeckKind.STANDARD, Structure.FIXED),
}
"""The phh-std codes whose game the engine deals as PokerKit does: code -> (engine game, deck,
structure of every round); ``history.replay.SUPPORTED_VARIANTS`` is built from it."""

_STUD_CODES = ("F7S", "F7S/8", "FR")  # without a bring-in, PokerKit lets the lowest card check

# Options that change a setting of the PHH semantics when no rulebook is named (the keys are
# the rulebook settings' names, as `croupier replay --option` takes them, plus four engine
# settings no book states).
_BETTING_KEYS = (
    "min_raise", "short_all_in", "raise_cap", "uncapped_heads_up", "cap_sticks",
    "big_blind_option", "opening_raise_is_blind", "max_wager", "big_bet_from",
)  # fmt: skip
_RULES_KEYS = (
    "heads_up_button_small_blind", "over_blind", "all_in_face_up", "show_first", "chip_unit",
)  # fmt: skip
_ODD_CHIP_KEYS = (
    "odd_chip_rule", "odd_chip_cards", "odd_chip_low_rule", "odd_chip_one_each",
    "odd_chip_to_high", "odd_chip_unit",
)  # fmt: skip
_COMMISSION_KEYS = (
    "commission", "commission_rate", "commission_basis", "commission_cap", "commission_fee",
    "commission_only_over", "commission_base_unit", "commission_base_cap",
    "commission_exempt_blinds_only", "commission_exempt_all_tie", "commission_uncalled_in_base",
)  # fmt: skip
_ENGINE_KEYS = (
    "raise_caps", "short_all_ins", "showing_ties_by_position", "odd_chip_ace_low",
    "commission_unit",
)  # fmt: skip
OPTIONS_WITHOUT_RULEBOOK = (
    *_BETTING_KEYS, *_RULES_KEYS, *_ODD_CHIP_KEYS, *_COMMISSION_KEYS, "chips_per_dollar",
    *_ENGINE_KEYS,
)  # fmt: skip
"""The keys ``_croupier_options`` takes without ``_croupier_rulebook``."""

# Options whose values are chips: scaled like the history's amounts.
_CHIP_KEYS = frozenset(
    {"ante", "big_bet", "max_wager", "commission_cap", "commission_fee", "chip_unit",
     "commission_unit"}
)  # fmt: skip
_Error = Callable[[str, str], PHHError]  # (message, field) -> the error to raise

_FEE_KINDS = (CommissionKind.HAND_FEE, CommissionKind.TIME_CHARGE, CommissionKind.PARTICIPATION_FEE)


# ---------------------------------------------------------------------------------------------
# What a hand's forced bets and limits are (the standard PHH fields, in chips)


@dataclass(frozen=True)
class Stakes:
    blinds: tuple[int, ...]  # the blinds and straddles posted, in order
    ante: int
    bring_in: int
    minimum: int  # min_bet, or small_bet in fixed-limit
    big_bet: int  # fixed-limit rounds' big bet (0: none)


@dataclass(frozen=True)
class _Spec:
    """Game, deck and per-round structures (``None``: the book's default structure)."""

    game: Game
    deck: DeckKind
    structures: tuple[Structure, ...] | None


# ---------------------------------------------------------------------------------------------
# Reading


def posted_blinds(history: HandHistory) -> frozenset[int]:
    """The players (0-based) whose entry in ``blinds_or_straddles`` is a live blind posted out of
    position (``_croupier_posted``): a newcomer's post, or a returning player's big blind
    (cardroom buy-in 2; au 1.1 'Blind'). It counts toward the player's bet, but it is none of
    the table's blinds and the action does not start after it. Raises :class:`PHHError` unless
    the field lists players (``pN``'s N, each once) who each post a blind."""
    raw = history.user_fields.get(POSTED)
    if raw is None:
        return frozenset()
    written = list(history.blinds_or_straddles or ())
    players = history.player_count
    numbers = raw if isinstance(raw, list) else None
    if numbers is None or any(isinstance(n, bool) or not isinstance(n, int) for n in numbers):
        raise history.origin.error(
            f"{POSTED} lists the players whose blind is posted out of position, by number "
            f"(3 for p3): got {raw!r}",
            field=POSTED,
        )
    for number in numbers:
        if not 1 <= number <= players or number > len(written) or not written[number - 1]:
            raise history.origin.error(
                f"{POSTED}: p{number} posts no blind (blinds_or_straddles = {written})",
                field=POSTED,
            )
    if len(set(numbers)) != len(numbers):
        raise history.origin.error(f"{POSTED} names a player twice: {numbers}", field=POSTED)
    return frozenset(n - 1 for n in numbers)


def table_blinds(history: HandHistory) -> list[Amount]:
    """``blinds_or_straddles`` without the blinds posted out of position (``_croupier_posted``,
    written 0): the table's positional blinds and straddles, player by player."""
    posted = posted_blinds(history)
    return [0 if p in posted else b for p, b in enumerate(history.blinds_or_straddles or ())]


def over_blind_posted(history: HandHistory) -> bool:
    """Whether the history says the voluntary over-blind was posted (``_croupier_over_blind``):
    the last of ``blinds_or_straddles``, double the blind before it, posted by the player left of
    the last blind (au 11.1(c)(iv), 11.5(c)). Raises :class:`PHHError` for any other shape."""
    flag = history.user_fields.get(OVER_BLIND)
    if flag is None or flag is False:
        return False
    written = table_blinds(history)
    posted = [b for b in written if b]
    while written and written[-1] == 0:
        written.pop()
    if flag is not True or len(posted) < 3 or 0 in written or posted[-1] != 2 * posted[-2]:
        raise history.origin.error(
            f"{OVER_BLIND} = true says the last of blinds_or_straddles is the over-blind: "
            "double the blind before it, posted by the player left of the last blind "
            f"(au 11.1(c)(iv)); got {OVER_BLIND} = {flag!r} with blinds_or_straddles = "
            f"{list(history.blinds_or_straddles or ())}",
            field=OVER_BLIND,
        )
    return True


def extension_rules(
    history: HandHistory, scale: int = 1, standard: Callable[[], Rules] | None = None
) -> Rules | None:
    """The engine rules the history's extension fields describe, or ``None`` when it has none
    (and its variant is a standard code): then plain PHH semantics apply.

    ``scale``: the chip scale of the history's amounts (``replay.chip_scale``); every amount,
    chip options included, is multiplied by it. ``standard``: PHH's rules for a standard
    variant (``replay.standard_rules``), which options without a rulebook change; without it,
    :func:`phh_rules`. Raises :class:`PHHError` naming the field and what it allows."""
    return _Reader(history, scale, standard).rules()


class _Reader:
    def __init__(
        self, history: HandHistory, scale: int, standard: Callable[[], Rules] | None
    ) -> None:
        self.history = history
        self.origin: Origin = history.origin
        self.scale = scale
        self.standard = standard
        self.fields = {
            k: v
            for k, v in history.user_fields.items()
            if k.startswith("_croupier") and k != TOURNAMENT  # the hand's identity, not rules
        }

    def error(self, message: str, field: str) -> PHHError:
        return self.origin.error(message, field=field)

    def rules(self) -> Rules | None:
        history = self.history
        for key in self.fields:
            if key not in FIELDS:
                raise self.error(
                    f"unknown croupier field {key!r}: the croupier fields are {', '.join(FIELDS)}",
                    key,
                )
        if self.fields.get(BLIND_KEPT, True) is not True:
            raise self.error(f"{BLIND_KEPT} is true or absent", BLIND_KEPT)
        if not self.fields and history.variant != EXTENSION_VARIANT:
            return None
        book_name = self._rulebook()
        options = self._options(book_name is not None)
        stakes = self._stakes()
        spec = self._spec(book_name is not None, stakes)
        if book_name is None:
            if self.standard is not None and history.variant != EXTENSION_VARIANT:
                base = self.standard()
            else:
                try:
                    base = phh_rules(spec.game, spec.deck, spec.structures or (), stakes)
                except RulesError as problem:
                    field = "bring_in" if stakes.bring_in else "variant"
                    raise self.error(
                        f"the engine cannot play these stakes: {problem}", field
                    ) from None
            return _apply(base, options, stakes.minimum, self.error)
        blind_game = spec.game.streets[0].opener is Opener.LEFT_OF_BLINDS
        if blind_game and not any(history.blinds_or_straddles or ()):
            raise self.error(
                f"{book_name} posts blinds in {spec.game.name}: the history gives none",
                "blinds_or_straddles",
            )
        return _book_rules(book_name, spec, stakes, options, self.error)

    # --- the fields ------------------------------------------------------------------------

    def _rulebook(self) -> str | None:
        name = self.fields.get(RULEBOOK)
        if name is None:
            return None
        names = rulebook_names()
        if not isinstance(name, str) or name not in names:
            raise self.error(
                f"expected the name of a shipped rulebook ({', '.join(names)}), got {name!r}",
                RULEBOOK,
            )
        return name

    def _options(self, with_book: bool) -> dict[str, object]:
        raw = self.fields.get(OPTIONS)
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            raise self.error(
                f'expected a table of options such as {{commission = "percentage", '
                f'commission_rate = "5%"}}, got {raw!r}',
                OPTIONS,
            )
        options: dict[str, object] = {}
        for key, value in raw.items():
            if not with_book and key not in OPTIONS_WITHOUT_RULEBOOK:
                raise self.error(
                    f"unknown option {key!r} without {RULEBOOK}: the options are "
                    f"{', '.join(OPTIONS_WITHOUT_RULEBOOK)}",
                    OPTIONS,
                )
            options[key] = self._option_value(key, value)
        return options

    def _option_value(self, key: str, value: object) -> object:
        if isinstance(value, Mapping):
            raise self.error(f"option {key}: expected a value, got a table {value!r}", OPTIONS)
        if key in _CHIP_KEYS and isinstance(value, int | Decimal) and not isinstance(value, bool):
            return self._chips(value, f"{OPTIONS}.{key}", OPTIONS)
        if isinstance(value, Decimal):
            return str(value)  # a rate: exact, as the rulebook parsers read strings
        if isinstance(value, list):
            return [str(v) if isinstance(v, Decimal) else v for v in value]
        return value

    def _chips(self, value: Amount, name: str, field: str) -> int:
        try:
            scaled = value * self.scale
        except ArithmeticError:  # decimal's Overflow: a number no table holds (1e9999999)
            raise self.error(f"{name}: {value} is too large a number of chips", field) from None
        if isinstance(scaled, Decimal):
            if not scaled.is_finite() or scaled != scaled.to_integral_value():
                raise self.error(
                    f"{name}: {value} is not a whole number of chips at the history's chip "
                    f"scale ({self.scale} per unit)",
                    field,
                )
            return int(scaled)
        return scaled

    def _stakes(self) -> Stakes:
        history = self.history
        # Antes of one size for all, and blinds from p1 on with no gap, are the table's stakes;
        # any other shape (a big-blind ante, a blind on the button) is posted as written, player
        # by player (history.standard.forced_bets_of), and the stakes hold none.
        antes = [self._chips(a, "antes", "antes") for a in history.antes or ()]
        blinds = [
            self._chips(b, "blinds_or_straddles", "blinds_or_straddles")
            for b in table_blinds(history)  # a blind posted out of position is no stake
        ]
        while blinds and blinds[-1] == 0:
            blinds.pop()
        if 0 in blinds:
            blinds = []
        if over_blind_posted(history):
            blinds = blinds[:-1]  # the over-blind is the hand's, not the table's stakes

        def amount(name: str) -> int:
            value = getattr(history, name)
            return 0 if value is None else self._chips(value, name, name)

        fixed_fields = history.small_bet is not None or history.big_bet is not None
        minimum = amount("small_bet") if fixed_fields else amount("min_bet")
        return Stakes(
            blinds=tuple(blinds),
            ante=antes[0] if antes and len(set(antes)) == 1 else 0,
            bring_in=amount("bring_in"),
            minimum=minimum,
            big_bet=amount("big_bet"),
        )

    def _spec(self, with_book: bool, stakes: Stakes) -> _Spec:
        history = self.history
        code = history.variant
        fields = self.fields
        if code == EXTENSION_VARIANT:
            name = fields.get(GAME)
            if name is None:
                raise self.error(
                    f"variant {EXTENSION_VARIANT!r} needs {GAME}: one of {', '.join(GAMES)}",
                    "variant",
                )
            game = self._game(name)
            deck = self._deck(game)
            structures = self._structures(game)
            if structures is None and not with_book:
                fixed = history.small_bet is not None or history.big_bet is not None
                structures = (Structure.FIXED if fixed else Structure.NO_LIMIT,)
        elif code in STANDARD_GAMES:
            name, kind, structure = STANDARD_GAMES[code]
            game = GAMES[name]
            for key, value, wanted in (
                (GAME, fields.get(GAME), name),
                (DECK, fields.get(DECK), kind.size),
                (STRUCTURES, fields.get(STRUCTURES), None),
            ):
                if value is None:
                    continue
                if key == STRUCTURES:
                    given = self._structures(game)
                    if given is not None and set(given) == {structure}:
                        continue
                    wanted_text = repr([structure.value])
                elif value == wanted:
                    continue
                else:
                    wanted_text = repr(wanted)
                raise self.error(
                    f"{key} = {value!r} contradicts variant {code} ({wanted_text}): a game "
                    f"PokerKit does not play is written with variant = {EXTENSION_VARIANT!r}",
                    key,
                )
            deck, structures = kind, (structure,)
        else:
            codes = ", ".join([*STANDARD_GAMES, EXTENSION_VARIANT])
            raise self.error(
                f"croupier fields need variant {codes}, got {code!r}",
                "variant",
            )
        if stakes.minimum < 1:
            wanted_field = (
                "small_bet" if structures and Structure.FIXED in structures else "min_bet"
            )
            raise self.error(
                f"missing the minimum wager: give {wanted_field} (a positive amount)", wanted_field
            )
        return _Spec(game, deck, structures)

    def _game(self, name: object) -> Game:
        if not isinstance(name, str) or name not in GAMES:
            raise self.error(f"expected one of {', '.join(GAMES)}, got {name!r}", GAME)
        return GAMES[name]

    def _deck(self, game: Game) -> DeckKind:
        decks = ", ".join(str(kind.size) for kind in game.max_players)
        size = self.fields.get(DECK)
        if size is None:
            return next(iter(game.max_players))
        kind = None
        if isinstance(size, int) and not isinstance(size, bool):
            try:
                kind = DeckKind.from_size(size)
            except CardError:
                kind = None
        if kind is None or kind not in game.max_players:
            raise self.error(
                f"{game.name} is dealt from a deck of {decks} cards (au 5.1), got {size!r}", DECK
            )
        return kind

    def _structures(self, game: Game) -> tuple[Structure, ...] | None:
        raw = self.fields.get(STRUCTURES)
        if raw is None:
            return None
        rounds = len(game.streets)
        names = ", ".join(repr(s.value) for s in Structure)
        values = [raw] if isinstance(raw, str) else raw
        if not isinstance(values, list) or not values or len(values) not in (1, rounds):
            raise self.error(
                f"expected an array of one structure for every round or one per round "
                f"({rounds} for {game.name}), each {names}; got {raw!r}",
                STRUCTURES,
            )
        parsed = []
        for value in values:
            try:
                parsed.append(Structure(value))
            except ValueError:
                raise self.error(
                    f"expected structures {names}, got {value!r}", STRUCTURES
                ) from None
        return tuple(parsed)


def _book_rules(
    name: str,
    spec: _Spec,
    stakes: Stakes,
    options: Mapping[str, object],
    error: _Error,
) -> Rules:
    """The book's rules for the game, the stakes and the house's options."""
    book = load_rulebook(name)
    where = OPTIONS if options else RULEBOOK
    structure: Any = None
    if spec.structures is not None:
        structure = spec.structures[0] if len(spec.structures) == 1 else spec.structures
    stake: int | tuple[int, ...] = stakes.blinds or stakes.minimum
    if stakes.blinds and stakes.minimum != stakes.blinds[-1]:
        raise error(
            f"under {name} the minimum wager is the last blind ({stakes.blinds[-1]}), "
            f"got {stakes.minimum}",
            "min_bet",
        )
    chosen = dict(options)
    house = book.house_options()
    if stakes.ante and "ante" not in options and "ante" in house:
        chosen["ante"] = stakes.ante
    if stakes.big_bet and "big_bet" not in options and "big_bet" in house:
        chosen["big_bet"] = stakes.big_bet

    def build(field: str) -> Rules:
        try:
            return book.rules(spec.game.name, structure, stakes=stake, deck=spec.deck, **chosen)
        except (RulebookError, RulesError, PotError, GameError) as problem:
            raise error(str(problem), field) from None

    rules = build(where)
    if rules.ante != stakes.ante:
        raise error(
            f"the antes are {stakes.ante}, {name} gives {rules.ante} (option ante)", "antes"
        )
    fixed = Structure.FIXED in rules.betting.structures
    if fixed and stakes.big_bet and rules.betting.big_bet != stakes.big_bet:
        raise error(
            f"big_bet is {stakes.big_bet}, {name} gives {rules.betting.big_bet} (option big_bet)",
            "big_bet",
        )
    if stakes.bring_in != rules.bring_in:
        try:
            rules = replace(rules, bring_in=stakes.bring_in)
        except RulesError as problem:
            raise error(str(problem), "bring_in") from None
    return rules


# ---------------------------------------------------------------------------------------------
# PHH semantics, and options on top of them


def phh_rules(
    game: Game | str,
    deck: DeckKind,
    structures: Sequence[Structure],
    stakes: Any,
) -> Rules:
    """The rules PHH (PokerKit) plays a game by, for any engine game: minimum raise the
    previous raise, only a full raise reopens, no commission, the button posts the small blind
    heads-up, a pot's odd chips all to the first winner left of the button, equal stud hands
    showing go by position. A fixed-limit round allows four completions, bets or raises, heads-up
    too: the engine counts a big blind as the opening bet, so its cap is four raises in a blind
    game's first round and three otherwise (a stud completion is the opening bet).
    ``stakes``: a :class:`Stakes`."""
    game = GAMES[game] if isinstance(game, str) else game
    rounds = tuple(structures) or (Structure.NO_LIMIT,)
    fixed = [rounds[min(i, len(rounds) - 1)] is Structure.FIXED for i in range(len(game.streets))]
    blinds = game.streets[0].opener is Opener.LEFT_OF_BLINDS
    caps: tuple[int | None, ...] = tuple(
        (4 if blinds and i == 0 else 3) if f else None for i, f in enumerate(fixed)
    )
    betting = Betting(
        structures=rounds,
        small_bet=stakes.minimum,
        big_bet=stakes.big_bet if any(fixed) else 0,
        big_bet_from=2,
        raise_cap=caps[0],
        raise_caps=caps if len(set(caps)) > 1 else (),
        uncapped_heads_up=not any(fixed),
        min_raise=MinRaise.PREVIOUS,
        short_all_in=ShortAllIn.FULL_RAISE_REOPENS,
    )
    return Rules(
        game=game,
        betting=betting,
        deck=deck,
        blinds=tuple(stakes.blinds),
        ante=stakes.ante,
        heads_up_button_small_blind=True,
        bring_in=stakes.bring_in,
        odd_chip=OddChip(OddChipRule.LEFT_OF_BUTTON, one_per_player=False),
        showing_ties_by_position=_stud(game),
    )


def without_forced_open(game: Game) -> Game:
    """The stud game as PHH plays it without a bring-in: the first round's opener (the lowest
    up card) may check, where the books have it bet (au 12.2(a), 13.2(a))."""
    first = replace(game.streets[0], forced_open=False)
    return replace(game, streets=(first, *game.streets[1:]))


def _stud(game: Game) -> bool:
    return any(street.up for street in game.streets)


def _parse(key: str, raw: object, error: _Error) -> Any:
    """An option's engine value (the rulebook's parser where the book has the setting)."""
    try:
        if key in ("raise_caps", "short_all_ins"):
            if not isinstance(raw, list) or not raw:
                raise ValueError(f"expected an array with one value per round, got {raw!r}")
            name = "raise_cap" if key == "raise_caps" else "short_all_in"
            return tuple(SPECS[name].parse(item) for item in raw)
        if key == "commission_unit":
            if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
                raise ValueError(f"expected a whole number of chips, at least 1, got {raw!r}")
            return raw
        if key in ("showing_ties_by_position", "odd_chip_ace_low"):
            if not isinstance(raw, bool):
                raise ValueError(f"expected true or false, got {raw!r}")
            return raw
        return SPECS[key].parse(raw)
    except ValueError as problem:
        raise error(f"option {key}: {problem}", OPTIONS) from None


def _apply(rules: Rules, options: Mapping[str, object], minimum: int, error: _Error) -> Rules:
    """``rules`` with the options set (no rulebook: each key sets one engine setting)."""
    if not options:
        return rules
    value = {key: _parse(key, raw, error) for key, raw in options.items()}
    betting_changes = {key: value[key] for key in _BETTING_KEYS if key in value}
    for key, one in (("raise_caps", "raise_cap"), ("short_all_ins", "short_all_in")):
        if key in value:  # per round; the same on every round is one value for all
            rounds = value[key]
            betting_changes[one] = rounds[0]
            betting_changes[key] = rounds if len(set(rounds)) > 1 else ()
    changes: dict[str, Any] = {key: value[key] for key in _RULES_KEYS if key in value}
    if "showing_ties_by_position" in value:
        changes["showing_ties_by_position"] = value["showing_ties_by_position"]
    dollar = value.get("chips_per_dollar", 1)
    odd: dict[str, Any] = {}
    for key, attribute in (
        ("odd_chip_rule", "rule"), ("odd_chip_cards", "cards"), ("odd_chip_low_rule", "low_rule"),
        ("odd_chip_one_each", "one_per_player"), ("odd_chip_to_high", "odd_to_high"),
        ("odd_chip_ace_low", "ace_low"),
    ):  # fmt: skip
        if key in value:
            odd[attribute] = value[key]
    if "odd_chip_unit" in value:
        odd["unit"] = dollar if value["odd_chip_unit"] == "dollar" else None
    try:
        if betting_changes:
            changes["betting"] = replace(rules.betting, **betting_changes)
        if odd:
            changes["odd_chip"] = replace(rules.odd_chip, **odd)
        if any(key in value for key in (*_COMMISSION_KEYS, "commission_unit")):
            changes["commission"] = _commission(value, dollar, minimum, error)
        return replace(rules, **changes)
    except (RulesError, PotError) as problem:
        raise error(str(problem), OPTIONS) from None


def _commission(value: Mapping[str, Any], dollar: int, minimum: int, error: _Error) -> Commission:
    kind = value.get("commission")
    keys = (*_COMMISSION_KEYS, "commission_unit")
    given = [key for key in keys if key in value and key != "commission"]
    if kind is None:
        raise error(
            f"option {given[0]} needs the option commission (one of "
            f"{', '.join(repr(k.value) for k in CommissionKind)})",
            OPTIONS,
        )
    percentage = kind is CommissionKind.PERCENTAGE
    for key in given:
        if key == "commission_unit" and kind is not CommissionKind.NONE:
            continue  # rounds any commission taken
        if (key == "commission_fee") == percentage or (kind is CommissionKind.NONE):
            raise error(f"option {key} does not apply to commission {kind.value!r}", OPTIONS)
    if kind is CommissionKind.NONE:
        return Commission()
    if kind in _FEE_KINDS:
        fee = value.get("commission_fee", 0)
        if fee < 1:
            raise error(
                f"commission {kind.value!r} needs its amount: option commission_fee (chips)",
                OPTIONS,
            )
        return Commission(kind=kind, fee=fee, unit=value.get("commission_unit"))
    if "commission_rate" not in value:
        raise error("commission 'percentage' needs option commission_rate, e.g. \"5%\"", OPTIONS)
    base_cap = value.get("commission_base_cap")
    cap_chips = None
    if base_cap is not None:
        amount = base_cap * minimum
        if amount.denominator != 1:
            raise error(
                f"option commission_base_cap: {base_cap} minimum wagers of {minimum} is not a "
                "whole chip",
                OPTIONS,
            )
        cap_chips = int(amount)
    return Commission(
        kind=kind,
        rate=value["commission_rate"],
        basis=value.get("commission_basis", Basis.POT),
        cap=value.get("commission_cap"),
        only_over=value.get("commission_only_over", 0) * dollar,
        base_unit=max(1, value.get("commission_base_unit", 0) * dollar),
        base_cap=cap_chips,
        exempt_blinds_only=value.get("commission_exempt_blinds_only", False),
        exempt_all_tie=value.get("commission_exempt_all_tie", False),
        uncalled_in_base=value.get("commission_uncalled_in_base", False),
        unit=value.get("commission_unit"),
    )


# ---------------------------------------------------------------------------------------------
# Writing


def phh_variant(hand: Hand) -> str:
    """The ``variant`` to write for the hand: a phh-std code when PokerKit deals the same game
    from the same deck with the same structure on every round (and, heads-up, posts the blinds
    the same way; in stud, has a bring-in), else :data:`EXTENSION_VARIANT`."""
    rules = hand.rules
    structures = set(rules.betting.structures)
    for code, (name, deck, structure) in STANDARD_GAMES.items():
        if rules.game.name != name or rules.deck is not deck or structures != {structure}:
            continue
        if code in _STUD_CODES and not rules.bring_in and rules.game.streets[0].forced_open:
            break  # the books' stud without a bring-in: the lowest card must bet
        if hand.players == 2 and len(rules.blinds) == 2 and not rules.heads_up_button_small_blind:
            break
        return code
    return EXTENSION_VARIANT


def extension_fields(
    hand: Hand,
    *,
    rulebook: str | None = None,
    options: Mapping[str, object] | None = None,
    standard: Rules | None = None,
) -> dict[str, Any]:
    """The user fields that describe the hand's rules beyond its variant and standard fields
    (empty for a hand PHH describes alone). The hand may be finished or in progress.

    ``rulebook``, ``options``: the shipped book and the house options the hand was played
    under (``Rulebook.rules`` keywords); the fields then name them. Without them, every setting
    that differs from PHH semantics is written as an option. The description is checked by
    reading it back: :class:`PHHError` if the rules cannot be described (or are not the book's
    with those options). ``standard``: PHH's rules for the hand's standard variant, the base
    the options describe changes to (without it, :func:`phh_rules`)."""
    rules = hand.rules
    fields: dict[str, Any] = {}
    code = phh_variant(hand)
    if code == EXTENSION_VARIANT:
        fields[GAME] = rules.game.name
        fields[DECK] = rules.deck.size
        fields[STRUCTURES] = [s.value for s in rules.betting.structures]
    stakes = _stakes_of(rules)
    spec = _Spec(rules.game, rules.deck, rules.betting.structures)

    def error(message: str, field: str) -> PHHError:
        return PHHError(f"cannot describe the hand's rules: {message}", field=field)

    if rulebook is not None:
        names = rulebook_names()
        if rulebook not in names:
            raise error(f"{rulebook!r} is not a shipped rulebook ({', '.join(names)})", RULEBOOK)
        fields[RULEBOOK] = rulebook
        written = {key: _toml_option(key, value) for key, value in (options or {}).items()}
        if written:
            fields[OPTIONS] = written
        rebuilt = _book_rules(rulebook, spec, stakes, written, error)
    else:
        if options:
            raise error("options without a rulebook: give rulebook=NAME", OPTIONS)
        if standard is None or code == EXTENSION_VARIANT:
            # The game a reader gets from its name, so that the read-back below compares deals.
            named = GAMES.get(rules.game.name)
            if named is None:
                raise error(f"{rules.game.name!r} is not a game croupier knows by name", GAME)
            standard = phh_rules(named, rules.deck, rules.betting.structures, stakes)
        base = standard
        written = _differences(rules, base, error)
        if written:
            fields[OPTIONS] = written
        rebuilt = _apply(base, written, stakes.minimum, error)
    differ = _compare(rules, rebuilt)
    if differ:
        source = f"{rulebook} with these options" if rulebook else "the options"
        raise error(f"{source} give {differ}", RULEBOOK if rulebook else OPTIONS)
    return fields


def _stakes_of(rules: Rules) -> Stakes:
    betting = rules.betting
    fixed = Structure.FIXED in betting.structures
    return Stakes(
        blinds=tuple(rules.blinds),
        ante=rules.ante,
        bring_in=rules.bring_in,
        minimum=betting.small_bet,
        big_bet=(betting.big_bet or betting.small_bet) if fixed else 0,
    )


def _compare(rules: Rules, rebuilt: Rules) -> str:
    """'' when the rules are the same (games by name: a book may narrow the player limits)."""
    if rules.game.name != rebuilt.game.name:
        return f"game {rebuilt.game.name}, the hand has {rules.game.name}"
    same_deal = replace(rebuilt.game, max_players=rules.game.max_players, clause=rules.game.clause)
    if same_deal != rules.game:
        return f"croupier's {rules.game.name}, the hand deals another game of that name"
    rules, rebuilt = _unfixed(rules), _unfixed(rebuilt)
    if replace(rebuilt, game=rules.game) == rules:
        return ""
    parts = []
    for item in dataclasses.fields(Rules):
        ours, theirs = getattr(rebuilt, item.name), getattr(rules, item.name)
        if item.name == "game" or ours == theirs:
            continue
        if dataclasses.is_dataclass(ours):
            for sub in dataclasses.fields(ours):
                a, b = getattr(ours, sub.name), getattr(theirs, sub.name)
                if sub.compare and a != b:
                    parts.append(f"{item.name}.{sub.name} {a!r}, the hand has {b!r}")
        else:
            parts.append(f"{item.name} {ours!r}, the hand has {theirs!r}")
    return "; ".join(parts)


def _unfixed(rules: Rules) -> Rules:
    """Left out of comparisons: the big bet without a fixed-limit round, how ties between
    hands showing go outside stud, and trailing blinds of nothing (a blind posted all-in from
    the ante, which PHH writes as 0 and reads as none)."""
    blinds = list(rules.blinds)
    while blinds and blinds[-1] == 0:
        blinds.pop()
    rules = replace(rules, blinds=tuple(blinds))
    if not _stud(rules.game):
        rules = replace(rules, showing_ties_by_position=False)
    if Structure.FIXED in rules.betting.structures:
        return rules
    return replace(rules, betting=replace(rules.betting, big_bet=0, big_bet_from=2))


def _toml_option(key: str, value: object) -> Any:
    """A rulebook option as TOML writes it (the rulebook parser's value, shown)."""
    if isinstance(value, bool) or key == "big_bet":
        return value
    if key not in SPECS:
        return value  # the book rejects it when the fields are read back
    try:
        parsed = SPECS[key].parse(value)
    except ValueError:
        return value
    return _show(parsed, key)


def _show(value: object, key: str) -> Any:
    if value is None:
        return SPECS[key].none if key in SPECS else "none"
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):
        percent = value * 100
        if key == "commission_rate" and percent.denominator == 1:
            return f"{percent.numerator}%"
        return str(value)
    if isinstance(value, tuple):
        return [_show(item, key) for item in value]
    raise TypeError(f"cannot write option {key} = {value!r}")


def _differences(rules: Rules, base: Rules, error: _Error) -> dict[str, Any]:
    """Options that turn the PHH semantics ``base`` into ``rules``."""
    out: dict[str, Any] = {}
    betting, standard = rules.betting, base.betting
    for key in _BETTING_KEYS:
        if key == "raise_cap" and (betting.raise_caps or standard.raise_caps):
            continue
        if getattr(betting, key) != getattr(standard, key):
            out[key] = _show(getattr(betting, key), key)
    rounds = len(betting.structures)
    if betting.raise_caps != standard.raise_caps and (betting.raise_caps or standard.raise_caps):
        caps = betting.raise_caps or (betting.raise_cap,) * rounds
        out["raise_caps"] = [_show(cap, "raise_cap") for cap in caps]
    if betting.short_all_ins != standard.short_all_ins:
        values = betting.short_all_ins or (betting.short_all_in,) * rounds
        out["short_all_ins"] = [v.value for v in values]
        out.pop("short_all_in", None)
    for key in _RULES_KEYS:
        if getattr(rules, key) != getattr(base, key):
            out[key] = _show(getattr(rules, key), key)
    stud = _stud(rules.game)  # only stud has hands showing to break ties between
    if stud and rules.showing_ties_by_position != base.showing_ties_by_position:
        out["showing_ties_by_position"] = rules.showing_ties_by_position
    odd, plain = rules.odd_chip, base.odd_chip
    for key, attribute in (
        ("odd_chip_rule", "rule"), ("odd_chip_cards", "cards"), ("odd_chip_low_rule", "low_rule"),
        ("odd_chip_one_each", "one_per_player"), ("odd_chip_to_high", "odd_to_high"),
        ("odd_chip_ace_low", "ace_low"),
    ):  # fmt: skip
        if getattr(odd, attribute) != getattr(plain, attribute):
            out[key] = _show(getattr(odd, attribute), key)
    dollar = 1
    if odd.unit is not None:
        dollar = odd.unit
        out["odd_chip_unit"] = "dollar"
        if dollar != 1:
            out["chips_per_dollar"] = dollar
    commission = rules.commission
    if commission != base.commission:
        out.update(_commission_options(commission, dollar, rules.betting.small_bet, error))
    return out


def _commission_options(
    commission: Commission, dollar: int, minimum: int, error: _Error
) -> dict[str, Any]:
    kind = commission.kind
    out: dict[str, Any] = {"commission": kind.value}
    if kind is CommissionKind.NONE:
        return out
    if commission.unit is not None:
        out["commission_unit"] = commission.unit
    if kind in _FEE_KINDS:
        out["commission_fee"] = commission.fee
        return out
    out["commission_rate"] = _show(commission.rate, "commission_rate")
    out["commission_basis"] = commission.basis.value
    if commission.cap is not None:
        out["commission_cap"] = commission.cap
    for key, chips, least in (
        ("commission_only_over", commission.only_over, 0),
        ("commission_base_unit", commission.base_unit, 1),
    ):
        if chips == least:
            continue
        if chips % dollar:
            raise error(
                f"{key} of {chips} chips is not a whole number of dollars of {dollar} chips "
                "(the odd-chip unit)",
                OPTIONS,
            )
        out[key] = chips // dollar
    if commission.base_cap is not None:
        out["commission_base_cap"] = _show(Fraction(commission.base_cap, minimum), "base_cap")
    for key, flag in (
        ("commission_exempt_blinds_only", commission.exempt_blinds_only),
        ("commission_exempt_all_tie", commission.exempt_all_tie),
        ("commission_uncalled_in_base", commission.uncalled_in_base),
    ):
        if flag:
            out[key] = True
    return out
