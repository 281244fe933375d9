"""PHH's own rules: the engine rules and forced bets a history's standard fields describe.

phh-std (PokerKit is its reference implementation) plays every variant by one set of rules, and
this module is the one place that maps them onto the engine (:func:`phh_rules` holds the betting
semantics, shared with the croupier extension fields):

- Players: PHH's p1..pN are the engine's players 0..N-1 (p1 is first left of the button, pN the
  button). Heads-up PHH reverses the blinds, so p2, the button, posts the small blind and p1 the
  big blind: the engine's ``heads_up_button_small_blind`` (rws 3.7) does the same.
- Forced bets are posted as written: one ante for all, or per player (a big-blind or a button
  ante); blinds and straddles from p1 on, or player by player (a blind on the button alone, a
  straddle after a gap). A blind posted all-in for less is the bet to match (PokerKit); the
  books keep the blind as set (league). A blind that ``_croupier_posted`` says was posted out
  of position (a newcomer's or a returning player's) is live but none of the table's blinds,
  and the action does not start after it (docs/phh-extensions.md).
- Stud without a bring-in (``bring_in = 0``): the lowest up card may check, as PokerKit lets
  it; the books have it open with at least the minimum (au 12.2(a), 13.2(a)), which croupier's
  own hands write with ``variant = "croupier"``.
- Amounts written as decimals (``0.25``) are scaled to whole chips of the smallest decimal the
  history uses; ``inf`` stacks (unknown) are replaced by a stack nobody can bet against.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from decimal import Decimal

from croupier.betting import RulesError, Structure
from croupier.forced import Blind, BlindKind, ForcedBets
from croupier.games import game
from croupier.hand import Rules
from croupier.history.extensions import (
    STANDARD_GAMES,
    Stakes,
    phh_rules,
    posted_blinds,
    table_blinds,
    without_forced_open,
)
from croupier.history.phh import VARIANTS, Amount, HandHistory

__all__ = [
    "SUPPORTED_VARIANTS",
    "Scale",
    "amounts_of",
    "chip_scale",
    "dead_antes",
    "forced_bets_of",
    "rules_of",
    "standard_forced_bets",
    "standard_rules",
]


SUPPORTED_VARIANTS: dict[str, tuple[str, Structure]] = {
    code: (name, structure) for code, (name, _, structure) in STANDARD_GAMES.items()
}
"""The PHH variants the engine replays: code -> (engine game, betting structure); the deck is
the variant's (:data:`~croupier.history.phh.VARIANTS`)."""


# ---------------------------------------------------------------------------------------------
# Amounts


def chip_scale(history: HandHistory) -> int:
    """The factor that makes every amount in the history a whole number of chips: 1 for whole
    numbers, 100 when the smallest amount written is a cent (``0.25``), and so on."""
    places = 0
    for value in amounts_of(history):
        if isinstance(value, Decimal) and value.is_finite():
            exponent = value.normalize().as_tuple().exponent
            if isinstance(exponent, int):
                places = max(places, -exponent)
    scale: int = 10**places
    return scale


def amounts_of(history: HandHistory) -> list[Amount]:
    values: list[Amount] = []
    for name in ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks"):
        values.extend(getattr(history, name) or ())
    for name in ("bring_in", "small_bet", "big_bet", "min_bet"):
        value = getattr(history, name)
        if value is not None:
            values.append(value)
    for text in history.actions:
        words = text.partition("#")[0].split()
        if len(words) == 3 and words[1] == "cbr":
            if words[2].isdigit():
                values.append(int(words[2]))  # the usual case, parsed faster
                continue
            with contextlib.suppress(ArithmeticError):
                values.append(Decimal(words[2]))
    return values


@dataclass(frozen=True)
class Scale:
    factor: int

    def chips(self, value: Amount) -> int:
        scaled = value * self.factor
        if isinstance(scaled, Decimal):
            if scaled != scaled.to_integral_value():
                raise ValueError(f"{value} is not a whole number of chips")
            return int(scaled)
        return scaled

    def amount(self, chips: int) -> Amount:
        return chips if self.factor == 1 else Decimal(chips) / self.factor


def standard_rules(history: HandHistory) -> Rules:
    """The engine's rules for the history's variant with PHH semantics (see the module notes).
    Amounts are in whole chips of :func:`chip_scale`. Raises :class:`PHHError` for a variant the
    engine does not replay or forced bets it cannot post."""
    return rules_of(history, Scale(chip_scale(history)))


def rules_of(history: HandHistory, scale: Scale) -> Rules:
    """The rules, shared by histories with the same variant, forced bets and limits (Rules are
    immutable; the errors are each history's own and are not kept)."""
    key = (
        history.variant, history.antes, history.blinds_or_straddles, history.bring_in,
        history.small_bet, history.big_bet, history.min_bet, scale.factor,
        tuple(sorted(posted_blinds(history))),
    )  # fmt: skip
    rules = _RULES.get(key)
    if rules is None:
        rules = _rules_for(history, scale)
        if len(_RULES) >= 1 << 10:
            _RULES.clear()
        _RULES[key] = rules
    return rules


_RULES: dict[tuple[object, ...], Rules] = {}


def _rules_for(history: HandHistory, scale: Scale) -> Rules:
    origin = history.origin
    code = history.variant
    if code not in SUPPORTED_VARIANTS:
        raise origin.error(f"unknown variant code {code!r}", field="variant")
    game_name, structure = SUPPORTED_VARIANTS[code]
    stud = history.bring_in is not None
    bring_in = scale.chips(history.bring_in or 0)
    dealt = game(game_name)
    if stud and not bring_in:
        dealt = without_forced_open(dealt)
    antes = [scale.chips(a) for a in history.antes or ()]
    blinds = _positional([scale.chips(b) for b in table_blinds(history)])
    fixed = structure is Structure.FIXED
    stakes = Stakes(
        blinds=tuple(blinds),
        ante=antes[0] if antes and len(set(antes)) == 1 else 0,
        bring_in=bring_in,
        minimum=scale.chips((history.small_bet if fixed else history.min_bet) or 0),
        big_bet=scale.chips(history.big_bet or 0) if fixed else 0,
    )
    try:
        return phh_rules(dealt, VARIANTS[code].deck, (structure,), stakes)
    except RulesError as error:
        field = "bring_in" if stud else "variant"
        raise origin.error(f"the engine cannot play these stakes: {error}", field=field) from None


def _positional(blinds: list[int]) -> list[int]:
    """The blinds as the table's positional blinds from p1 on (heads-up, reversed as PHH
    writes them), or none where they are not of that shape (a big-blind ante, a blind on the
    button alone, a straddle after a gap): those are posted as written, per player."""
    while blinds and blinds[-1] == 0:
        blinds.pop()
    return [] if 0 in blinds else blinds


def standard_forced_bets(history: HandHistory) -> ForcedBets:
    """Who posts what in the history, by PHH's rules (amounts in whole chips of
    :func:`chip_scale`)."""
    scale = Scale(chip_scale(history))
    return forced_bets_of(history, scale, rules_of(history, scale), phh=True)


def forced_bets_of(
    history: HandHistory, scale: Scale, rules: Rules, phh: bool, *, over_blind: bool = False
) -> ForcedBets:
    """Who posts what, as the history writes it. Antes and blinds of the usual shape are the
    rules' positional ones; any other shape (per-player antes such as a big-blind or button
    ante, a blind on the button alone, a straddle after a gap) is posted player by player.
    The antes are dead money in the main pot unless ``ante_trimming_status`` is true, when each
    counts as its poster's contribution (phh-std; PokerKit). ``phh``: PHH's own rule that a
    blind posted all-in for less is the bet to match (PokerKit); the books keep the blind as set
    (league). ``over_blind``: the last blind written is the voluntary over-blind
    (au 11.1(c)(iv)), posted on top of the rules' blinds. A blind ``_croupier_posted`` names is
    posted live out of position, before the table's blinds (as the table posts it)."""
    players = history.player_count
    posters = posted_blinds(history)
    out_of_position = tuple(
        Blind(p, scale.chips(b), BlindKind.POSTED)
        for p, b in enumerate(history.blinds_or_straddles or ())
        if p in posters
    )
    if over_blind:
        forced = rules.forced_bets(players, over_blind=True)
        return replace(
            forced,
            blinds=(*out_of_position, *forced.blinds),
            dead_antes=dead_antes(history, list(forced.antes)),
        )
    antes = [scale.chips(a) for a in history.antes or ()]
    written = [scale.chips(b) for b in table_blinds(history)]
    if len(set(antes)) <= 1 and (_positional(list(written)) or not any(written)):
        forced = rules.forced_bets(players)
    else:
        posted = [(p, amount) for p, amount in enumerate(written) if amount]
        if players == 2 and len(posted) == 2:
            posted = [(1, written[0]), (0, written[1])]  # heads-up, PHH reverses the blinds
        forced = ForcedBets(
            antes=antes if any(antes) else (),
            blinds=[Blind(p, amount) for p, amount in posted],
            bring_in=rules.bring_in,
        )
    return ForcedBets(
        forced.antes, (*out_of_position, *forced.blinds), forced.bring_in,
        dead_antes(history, antes), short_blind_sets_bet=phh,
    )  # fmt: skip


def dead_antes(history: HandHistory, antes: list[int]) -> bool:
    """Whether the antes are dead money in the main pot: unless ``ante_trimming_status`` makes
    antes of one size each player's own contribution (phh-std; PokerKit). A big-blind or button
    ante is one player's for the table, dead whatever the field says: PokerKit 0.7.7 would trim
    it back to its poster, as nobody matched it, and no card room does (published records
    written with the field true count it in the pot; docs/differences-from-pokerkit.md)."""
    posted = [a for a in antes if a]
    uniform = len(posted) == len(antes) and len(set(posted)) == 1
    return bool(posted) and not (uniform and history.ante_trimming_status is True)


def _infinite(value: Amount) -> bool:
    return isinstance(value, Decimal) and value.is_infinite()
