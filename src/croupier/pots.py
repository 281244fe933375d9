"""Money settlement of one hand: uncalled bets, main and side pots, commission, odd chips.

Pure functions over integers (chips in the table's smallest unit); no I/O. Every rule that
differs between rulebooks is a field of a frozen settings object (:class:`Commission`,
:class:`OddChip`), each citing its clause; nothing here branches on a rulebook's name.

Order of settlement, as the books describe it:

1. The part of the largest contribution that nobody matched goes back to its owner and is not
   part of any pot (rws 4.3, au 8.5, qld s26(3)(a), s30(4)(b)).
2. The rest forms the main pot and side pots by all-in level; an all-in player is eligible only
   for the pots formed up to their own contribution (rws 3.14.4, qld s29(5)-(6), au 10.1).
   Folded players' chips stay in the pots they reached.
3. Commission is computed and deducted from the pots (au 8, rws 4.1, qld s30), before any
   division (qld s27(9) deducts, then divides).
4. Each pot is awarded and split separately (cardroom ties 5(d)); an uneven split leaves odd
   chips, which go where :class:`OddChip` says (au 11.4(d) etc., rws 4.5, qld s27(11),
   cardroom ties 3-5, league).

Settings per book (the rulebook files hold the actual values):

========  ==============================================================================
au        ``Commission(PERCENTAGE, basis=HAND, cap=..., exempt_blinds_only=True,
          exempt_all_tie=True)`` (8.2(a), 8.6-8.8) or ``HAND_FEE`` (8.2(b))
          or ``TIME_CHARGE`` (8.2(c)); ``OddChip(HIGHEST_CARD, cards=HAND|HOLE|HOLE_USED,
          one_per_player=False)`` per game (11.4(d) ... 17.5(e)).
rws       ``Commission(PERCENTAGE, rate<=5%, basis=POT, cap=...)`` (4.1);
          ``OddChip(LEFT_OF_BUTTON)`` (4.5; several odd chips: one each, cardroom ties 4).
qld       ``Commission(PERCENTAGE, 5%, basis=WINNINGS, only_over=$19, base_unit=$20,
          base_cap=100 x minimum wager)`` (s30) or ``PARTICIPATION_FEE`` (s20);
          ``OddChip(LEFT_OF_BUTTON, unit=$1, one_per_player=False)`` (s27(9)-(11)).
cardroom  ``OddChip(LEFT_OF_BUTTON)`` for button games, ``OddChip(HIGHEST_CARD, cards=HAND,
          low_rule=LOWEST_CARD)`` for stud (ties 3-5).
league    ``OddChip(LEFT_OF_BUTTON, one_per_player=True)``.
========  ==============================================================================
"""

from __future__ import annotations

import enum
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from croupier.frozen import Frozen

__all__ = [
    "NO_COMMISSION",
    "Basis",
    "CardSet",
    "Commission",
    "CommissionKind",
    "OddChip",
    "OddChipRule",
    "Pot",
    "PotError",
    "PotResult",
    "Settlement",
    "build_pots",
    "settle",
    "uncalled",
]


class PotError(ValueError):
    """Inconsistent settlement input (negative chips, wrong lengths, a folded player's hand...)."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _as_int(value: object, what: str) -> int:
    """An integer (numpy integers too, but not bools), or a PotError naming ``what``."""
    if type(value) is int:  # the common case, without the slower checks below
        return value
    try:
        if isinstance(value, bool):
            raise TypeError
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise PotError(f"{what} is {value!r}: expected an integer") from None


@dataclass(frozen=True)
class Pot(Frozen):
    """A main or side pot: its chips and the live players who may win it."""

    amount: int
    eligible: tuple[int, ...]

    def __init__(self, amount: int, eligible: tuple[int, ...]) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "eligible", eligible)


# ---------------------------------------------------------------------------------------------
# Commission


class CommissionKind(enum.Enum):
    """How the house is paid (au 8.1-8.2, qld s20, s30)."""

    NONE = "none"
    """Nil commission (au 8.4)."""
    PERCENTAGE = "percentage"
    """A percentage of the pots (au 8.2(a), rws 4.1, qld s30); shaped by :class:`Basis`."""
    HAND_FEE = "hand_fee"
    """A fixed fee per hand dealt, taken from the pots, main pot first (au 8.2(b))."""
    TIME_CHARGE = "time_charge"
    """An hourly charge per player, paid in advance and assessed per table (au 8.2(c)); it takes
    nothing from the pots, so settlement ignores it: the table module collects ``fee``."""
    PARTICIPATION_FEE = "participation_fee"
    """A fee each player pays before the round instead of commission (qld s20(1)-(3), s30(5));
    the whole pot goes to the winners (qld s26(4), s27(10)). Settlement takes nothing."""


class Basis(enum.Enum):
    """What a percentage commission is computed on."""

    POT = "pot"
    """Each pot on its own, main pot first, then side pots in order, until the cap (rws 4.1)."""
    HAND = "hand"
    """All sums bet in the hand together (au 8.2(a)), drawn from the pots in proportion to their
    size: au names no order, and taking it all from the main pot would charge its winner alone."""
    WINNINGS = "winnings"
    """Pots with the same winner(s) count as one pot (qld s30(4)(a)); a split pot's commission is
    deducted before it is divided (qld s27(9)), so winners sharing pots are one group."""


@dataclass(frozen=True)
class Commission(Frozen):
    """The house's fee for one hand. Amounts are in chip units; ``rate`` is exact."""

    kind: CommissionKind = CommissionKind.NONE
    rate: Fraction = Fraction(0)
    """Percentage kind: the share of the base taken, e.g. ``Fraction(5, 100)`` (au 8.2(a):
    5%-10%; rws 4.1 and qld s30(1)(b): at most 5%). Floats and strings are converted exactly."""
    basis: Basis = Basis.POT
    """Percentage kind: pot by pot (rws 4.1), whole hand (au 8.2(a)), per winner (qld s30(4)(a))."""
    cap: int | None = None
    """Most commission taken in one hand; once reached nothing more is taken (au 8.1, 8.7;
    rws 4.1 'overall cap')."""
    only_over: int = 0
    """Commission only from a pot (per basis) of more than this (qld s30(1)(a): $19)."""
    base_unit: int = 1
    """The base is rounded down to a multiple of this (qld s30(1)(b): $20)."""
    base_cap: int | None = None
    """A larger pot counts as this much (qld s30(2): 100 times the minimum permissible wager)."""
    fee: int = 0
    """Hand fee per hand (au 8.2(b)); time charge per player per hour (au 8.2(c)); participation
    fee per player per round (qld s20). Only the hand fee is taken here."""
    unit: int | None = None
    """Commission is rounded down to a multiple of this; ``None``: the table's smallest chip."""
    exempt_blinds_only: bool = False
    """Nothing taken when the only bets were blind bets (au 8.6; it names percentage commission);
    the engine passes ``settle(blinds_only=...)``. Off unless a book says so."""
    exempt_all_tie: bool = False
    """Nothing taken from a pot whose every contributor (two or more) ties for it (au 8.8)."""
    uncalled_in_base: bool = False
    """Whether the returned uncalled part counts in the base: False by au 8.5, rws 4.3,
    qld s30(4)(b); it is never taken from, only counted."""

    def __post_init__(self) -> None:
        if not isinstance(self.rate, Fraction):
            try:
                object.__setattr__(self, "rate", Fraction(str(self.rate)))
            except (ValueError, TypeError):
                raise PotError(f"commission rate {self.rate!r} is not a number") from None
        if not 0 <= self.rate <= 1:
            raise PotError(f"commission rate {self.rate} must be between 0 and 1")
        for name in ("cap", "only_over", "base_cap", "fee"):
            value = getattr(self, name)
            if value is not None and (not _is_int(value) or value < 0):
                raise PotError(f"commission {name} must be a non-negative integer, got {value!r}")
        for name in ("base_unit", "unit"):
            value = getattr(self, name)
            if value is not None and (not _is_int(value) or value < 1):
                raise PotError(f"commission {name} must be a positive integer, got {value!r}")

    @property
    def takes_from_pots(self) -> bool:
        """True for the kinds settled out of the pots (percentage, hand fee)."""
        return self.kind in (CommissionKind.PERCENTAGE, CommissionKind.HAND_FEE)


NO_COMMISSION = Commission()


# ---------------------------------------------------------------------------------------------
# Odd chips


class OddChipRule(enum.Enum):
    """Who gets the chips left over when a pot (or half pot) does not split evenly."""

    LEFT_OF_BUTTON = "left_of_button"
    """The first winner clockwise from the button (rws 4.5; cardroom ties 5(a); league); also the
    winner next to, i.e. clockwise from, the designated player (qld s27(11), s6, s18)."""
    HIGHEST_CARD = "highest_card"
    """The winner holding the highest card by suit in :attr:`OddChip.cards` (au 11.4(d), 12.4(e),
    13.4(e), 14.4(e), 15.4(e), 16.5(e), 17.5(e); cardroom ties 5(b) high games)."""
    LOWEST_CARD = "lowest_card"
    """The winner holding the lowest card by suit (cardroom ties 5(b) low games)."""


class CardSet(enum.StrEnum):
    """Keys of the ``cards`` mapping the engine passes to :func:`settle`."""

    HAND = "hand"
    """Every card the player holds, not just the five used (au 11.4(d), 12.4(e), 13.4(e);
    cardroom ties 5(b))."""
    HOLE = "hole"
    """The player's hole cards (au 14.4(e), 16.5(e))."""
    HOLE_USED = "hole_used"
    """The hole cards used to make the winning hand (au 15.4(e), 17.5(e))."""


@dataclass(frozen=True)
class OddChip(Frozen):
    """Dividing a pot among tied winners. The default is the cardroom button-game rule."""

    rule: OddChipRule = OddChipRule.LEFT_OF_BUTTON
    """Who is first in line for odd chips among tied (high) winners."""
    cards: CardSet = CardSet.HAND
    """Which cards the card rules compare (au: whole hand, hole cards, or hole cards used)."""
    low_rule: OddChipRule = OddChipRule.LEFT_OF_BUTTON
    """The rule among tied low hands: as in a low game of that form (cardroom ties 5(c));
    stud: LOWEST_CARD (ties 5(b))."""
    unit: int | None = None
    """Pots divide in multiples of this: the lowest chip denomination (au 11.4(d) etc., rws 4.5,
    cardroom ties 3) when ``None``; qld s27(9)(e)(ii), s27(10)(b): $1."""
    one_per_player: bool = True
    """True: the leftover goes one unit each down the line (cardroom ties 4; league 'first two
    after the dealer'; rws 4.5 is silent on several chips, cardroom fills the gap). False: the
    whole leftover goes to the first in line (au 11.4(d) etc. 'the amount remaining'; qld s27(11)
    'the amount left over')."""
    odd_to_high: bool = True
    """In a high-low split the high half gets the odd chip (cardroom ties 5(c))."""
    ace_low: bool = True
    """For LOWEST_CARD, an ace is the lowest card (ace-to-five low games)."""

    def __post_init__(self) -> None:
        if self.unit is not None and (not _is_int(self.unit) or self.unit < 1):
            raise PotError(f"odd-chip unit must be a positive integer, got {self.unit!r}")


# ---------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class PotResult(Frozen):
    """How one pot was settled; ``shares`` align with ``winners`` and sum to amount - commission."""

    amount: int
    commission: int
    commission_base: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]

    def __init__(
        self,
        amount: int,
        commission: int,
        commission_base: int,
        eligible: tuple[int, ...],
        winners: tuple[int, ...],
        shares: tuple[int, ...],
    ) -> None:
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "commission", commission)
        object.__setattr__(self, "commission_base", commission_base)
        object.__setattr__(self, "eligible", eligible)
        object.__setattr__(self, "winners", winners)
        object.__setattr__(self, "shares", shares)


@dataclass(frozen=True)
class Settlement(Frozen):
    """The whole hand: ``payouts[i]`` is what player i receives, the returned uncalled part
    included; ``sum(contributions) == sum(payouts) + commission``."""

    returned: tuple[int, int] | None
    pots: tuple[PotResult, ...]
    payouts: tuple[int, ...]
    commission: int

    def __init__(
        self,
        returned: tuple[int, int] | None,
        pots: tuple[PotResult, ...],
        payouts: tuple[int, ...],
        commission: int,
    ) -> None:
        object.__setattr__(self, "returned", returned)
        object.__setattr__(self, "pots", pots)
        object.__setattr__(self, "payouts", payouts)
        object.__setattr__(self, "commission", commission)


# ---------------------------------------------------------------------------------------------
# Pots


def _check_amounts(contributions: Sequence[int]) -> tuple[int, ...]:
    given: tuple[object, ...] = tuple(contributions)  # numpy integers too: not typed as int yet
    plain = True
    for a in given:  # a loop, not all() of a generator
        if type(a) is not int or a < 0:
            plain = False
            break
    if plain:
        return tuple(contributions)  # the common case, without building a message per player
    amounts = tuple(_as_int(a, f"contribution of player {p}") for p, a in enumerate(given))
    for player, amount in enumerate(amounts):
        if amount < 0:
            raise PotError(f"contribution of player {player} is negative ({amount})")
    return amounts


def _check_live(live: Sequence[bool], n: int) -> tuple[bool, ...]:
    flags: list[bool] = []
    anyone = False
    given: list[object] = live if isinstance(live, list) else list(live)  # a list walks natively
    for flag in given:  # a loop, not a generator: settled once a hand
        alive = bool(flag)
        anyone = anyone or alive
        flags.append(alive)
    if len(flags) != n:
        raise PotError(f"live has {len(flags)} entries for {n} players")
    if n and not anyone:
        raise PotError("no live player: at least one player must not have folded")
    return tuple(flags)


def uncalled(contributions: Sequence[int]) -> tuple[int, int] | None:
    """``(player, amount)``: the part of the largest contribution nobody matched, or ``None``.

    It is returned to its owner and is no part of any pot (rws 4.3, au 8.5, qld s30(4)(b))."""
    return _uncalled(_check_amounts(contributions))


def _uncalled(amounts: tuple[int, ...]) -> tuple[int, int] | None:
    top = second = 0  # the largest contribution and the next (equal to it on a tie)
    owner = -1
    for player in range(len(amounts)):
        amount = amounts[player]
        if amount > top:
            top, second, owner = amount, top, player
        elif amount > second:
            second = amount
    if top == second:
        return None
    return owner, top - second


def build_pots(contributions: Sequence[int], live: Sequence[bool]) -> tuple[Pot, ...]:
    """Main pot first, then side pots by all-in level (rws 3.14.4, qld s29(5)-(7), au 10.1).

    ``contributions`` are after the uncalled part was returned. A pot's eligible players are the
    live players who contributed up to its level; folded players' chips stay in the pots they
    reached. Chips above the highest live level (possible only if the uncalled part was not
    returned) join the top pot."""
    amounts = _check_amounts(contributions)
    return _build_pots(amounts, _check_live(live, len(amounts)))


def _build_pots(amounts: tuple[int, ...], flags: tuple[bool, ...]) -> tuple[Pot, ...]:
    n = len(amounts)
    levels: list[int] = []  # a handful of players: a list and loops beat a set and sorted()
    for p in range(n):
        level = amounts[p]
        if flags[p] and level > 0 and level not in levels:
            levels.append(level)
    levels.sort()
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        live: list[int] = []
        for p in range(n):
            put_in = amounts[p]
            if put_in > previous:
                amount += (put_in if put_in < level else level) - previous
            if flags[p] and put_in >= level:
                live.append(p)
        eligible = tuple(live)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        previous = level
    excess = 0
    for put_in in amounts:
        if put_in > previous:
            excess += put_in - previous
    if excess and pots:
        pots[-1] = Pot(pots[-1].amount + excess, pots[-1].eligible)
    elif excess:
        pots.append(Pot(excess, tuple(p for p, alive in enumerate(flags) if alive)))
    return tuple(pots)


# ---------------------------------------------------------------------------------------------
# Settlement

_Hands = Sequence[Sequence[int] | None]
_Cards = Mapping[CardSet, _Hands] | Mapping[str, _Hands]  # keyed by CardSet or its text


def _check_values(
    values: Sequence[int | None], flags: tuple[bool, ...], name: str
) -> tuple[int | None, ...]:
    given: tuple[object, ...] = tuple(values)  # numpy integers too: not typed as int yet
    if all(v is None or type(v) is int for v in given):
        result = tuple(values)
    else:
        result = tuple(
            None if v is None else _as_int(v, f"{name}[{p}]") for p, v in enumerate(given)
        )
    if len(result) != len(flags):
        raise PotError(f"{name} has {len(result)} entries for {len(flags)} players")
    for player, value in enumerate(result):
        if value is not None and not flags[player]:
            raise PotError(f"{name}[{player}] is {value}, but player {player} folded: no showdown")
    return result


def _seating(order: Sequence[int] | None, button: int | None, n: int) -> tuple[int, ...]:
    if order is not None:
        seats = tuple(order)
        if sorted(seats) != list(range(n)):
            raise PotError(f"order {seats} must list each of the {n} players exactly once")
        return seats
    if button is not None:
        if not _is_int(button) or not 0 <= button < n:
            raise PotError(f"button {button!r} is not a player index 0..{n - 1}")
        first = button + 1
    else:
        first = 0
    line: list[int] = []  # a loop: tuple(range(n)) and a generator are Python calls
    for i in range(n):
        line.append((first + i) % n)
    return tuple(line)


def _check_cards(cards: _Cards | None, n: int) -> _Cards:
    if not cards:
        return {}
    checked: dict[str, _Hands] = {}
    for kind, hands in cards.items():
        if kind not in set(CardSet):
            names = ", ".join(CardSet)
            raise PotError(f"unknown card set {kind!r}: expected one of {names}")
        if len(hands) != n:
            raise PotError(f"cards[{kind!r}] has {len(hands)} entries for {n} players")
        checked[kind] = [None if hand is None else _check_codes(hand, kind) for hand in hands]
    return checked


def _check_codes(hand: Sequence[object], kind: str) -> tuple[int, ...]:
    codes = tuple(_as_int(card, f"a card in cards[{kind!r}]") for card in hand)
    for card in codes:
        if not 0 <= card < 52:
            raise PotError(f"cards[{kind!r}] holds {card!r}: expected a card code 0..51")
    return codes


def _winners(
    pot: Pot, highs: tuple[int | None, ...], lows: tuple[int | None, ...] | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(high winners, low winners) of one pot; a lone eligible player wins it unshown."""
    if len(pot.eligible) == 1:
        return pot.eligible, ()
    high = _best(pot.eligible, highs)
    if not high:
        raise PotError(f"no hand value for any of {pot.eligible}, eligible for {pot.amount}")
    # No qualifying low: the high hand takes the whole pot.
    return high, () if lows is None else _best(pot.eligible, lows)


def _best(players: tuple[int, ...], values: tuple[int | None, ...]) -> tuple[int, ...]:
    """The players with the highest value, in order; none when nobody has a value."""
    best: int | None = None
    winners: list[int] = []
    for p in players:
        value = values[p]
        if value is None:
            continue
        if best is None or value > best:
            best = value
            winners = [p]
        elif value == best:
            winners.append(p)
    return tuple(winners)


def _contributors(pots: tuple[Pot, ...], amounts: Sequence[int]) -> list[frozenset[int]]:
    """The players whose chips reached each pot (lower level exclusive)."""
    result: list[frozenset[int]] = []
    lower = 0
    for pot in pots:
        result.append(frozenset(p for p, a in enumerate(amounts) if a > lower))
        lower = min(amounts[p] for p in pot.eligible)
    return result


def _commission(
    rule: Commission,
    pots: tuple[Pot, ...],
    outcomes: Sequence[tuple[tuple[int, ...], tuple[int, ...]]],
    exempt: Sequence[bool],
    returned: int,
    chip: int,
) -> list[tuple[int, int]]:
    """(commission, base) per pot."""
    result = [(0, 0)] * len(pots)
    candidates = [k for k in range(len(pots)) if not exempt[k]]
    if rule.kind is CommissionKind.HAND_FEE:
        left = rule.fee
        for k in candidates:  # main pot first (au 8.2(b) fixes no order; rws 4.1's is used)
            take = min(left, pots[k].amount)
            result[k] = (take, 0)
            left -= take
        return result
    groups: list[list[int]]
    if rule.basis is Basis.POT:
        groups = [[k] for k in candidates]
    elif rule.basis is Basis.HAND:
        groups = [candidates] if candidates else []
    else:
        by_winners: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
        for k in candidates:
            by_winners.setdefault(outcomes[k], []).append(k)
        groups = list(by_winners.values())
    unit = rule.unit or chip
    taken = 0
    for group in groups:
        in_pots = sum(pots[k].amount for k in group)
        raw = in_pots + (returned if rule.uncalled_in_base and group[-1] == len(pots) - 1 else 0)
        if raw <= rule.only_over:
            continue  # qld s30(1)(a)
        base = raw if rule.base_cap is None else min(raw, rule.base_cap)  # qld s30(2)
        base -= base % rule.base_unit  # qld s30(1)(b)
        amount = rule.rate.numerator * base // rule.rate.denominator
        amount -= amount % unit
        if rule.cap is not None:
            amount = min(amount, rule.cap - taken)  # au 8.7, rws 4.1
        amount = min(amount, in_pots)
        taken += amount
        # A group's commission and base are spread over its pots in proportion to their size
        # (exact for one pot); the rounding remainder comes from the main pot first (rws 4.1).
        parts = [amount * pots[k].amount // in_pots // unit * unit for k in group]
        bases = [base * pots[k].amount // in_pots for k in group]
        bases[0] = bases[0] + (base - sum(bases))
        left = amount - sum(parts)
        for i, k in enumerate(group):
            extra = min(left, pots[k].amount - parts[i])
            parts[i] = parts[i] + extra
            left -= extra
            result[k] = (parts[i], bases[i])
    return result


def _low_code(card: int, ace_low: bool) -> int:
    """Card order for 'lowest card by suit': with ``ace_low`` the aces sort below the deuces."""
    if not ace_low:
        return card
    return card - 48 if card >= 48 else card + 4


def _line(
    winners: Sequence[int],
    rule: OddChipRule,
    policy: OddChip,
    seats: tuple[int, ...],
    cards: _Cards,
) -> list[int]:
    """Winners in the order they receive odd chips."""
    position = {p: i for i, p in enumerate(seats)}
    if rule is OddChipRule.LEFT_OF_BUTTON:
        return sorted(winners, key=position.__getitem__)
    hands = cards.get(policy.cards)
    keys: dict[int, tuple[int, ...]] = {}
    for p in winners:
        hand = hands[p] if hands is not None else None
        if hand is None or len(hand) == 0:
            why = f"the odd chip goes by the {rule.value.replace('_', ' ')} in {policy.cards!s}"
            raise PotError(f"{why}, but player {p} has none in cards[{str(policy.cards)!r}]")
        if rule is OddChipRule.HIGHEST_CARD:
            keys[p] = tuple(-int(c) for c in sorted(hand, reverse=True))
        else:
            keys[p] = tuple(sorted(_low_code(int(c), policy.ace_low) for c in hand))
    # Shared cards (a board) fall through to the next card, then to seat order.
    return sorted(winners, key=lambda p: (keys[p], position[p]))


def _divide(
    amount: int,
    winners: Sequence[int],
    rule: OddChipRule,
    policy: OddChip,
    unit: int,
    seats: tuple[int, ...],
    cards: _Cards,
) -> dict[int, int]:
    if len(winners) == 1:
        return {winners[0]: amount}  # nothing to divide, whatever the smallest chip
    each = amount // (len(winners) * unit) * unit
    shares = {p: each for p in winners}
    rest = amount - each * len(winners)
    if not rest:
        return shares
    line = _line(winners, rule, policy, seats, cards)
    if not policy.one_per_player:
        shares[line[0]] += rest
        return shares
    for p in line:  # rest < len(winners) * unit, so the line never runs out
        chunk = min(unit, rest)
        shares[p] = shares[p] + chunk
        rest -= chunk
    return shares


def settle(
    contributions: Sequence[int],
    live: Sequence[bool],
    values: Sequence[int | None],
    *,
    low_values: Sequence[int | None] | None = None,
    order: Sequence[int] | None = None,
    button: int | None = None,
    cards: _Cards | None = None,
    low_cards: _Cards | None = None,
    commission: Commission = NO_COMMISSION,
    odd_chip: OddChip = OddChip(),
    chip: int = 1,
    blinds_only: bool = False,
    returned: int = 0,
    dead: int = 0,
) -> Settlement:
    """Settle one hand.

    - ``contributions[i]``: every chip player i put in this hand (blinds, antes, bets), before the
      uncalled part is returned.
    - ``live[i]``: False once player i folded (all-in players are live).
    - ``values[i]``: player i's hand value at showdown, higher better; ``None`` for a folded
      player or one who did not show. A pot with a single eligible player needs no value.
    - ``low_values``: hi-lo games, the low half's values (higher better; ``None``: no qualifying
      low). With no qualifying low the high hand takes the whole pot.
    - ``order``: all players clockwise from the first seat left of the button (dealer button;
      qld: the designated player, s2, s6). ``button``: alternatively the button player's index,
      players being numbered clockwise. Neither: player 0 is first left of the button.
    - ``cards`` / ``low_cards``: ``{"hand": ..., "hole": ..., "hole_used": ...}`` per-player
      card codes for the card-based odd-chip rules (:class:`CardSet`); only the kind the policy
      names is read, and only when an odd chip arises. ``low_cards`` defaults to ``cards``.
    - ``chip``: the table's smallest chip (au 11.4(d), rws 4.5, cardroom ties 3).
    - ``blinds_only``: True when every chip in the hand was posted as a blind bet: nobody made an
      opening bet, call (a small blind's completion is a call), or raise (au 8.6).
    - ``returned``: uncalled chips already given back before settling (the engine returns them
      as each betting round ends); only a commission that counts the uncalled part reads it.
    - ``dead``: dead money in the main pot, which every live player may win (antes posted as
      dead money, dead blinds): no part of anyone's contribution.
    """
    amounts = _check_amounts(contributions)
    n = len(amounts)
    flags = _check_live(live, n)
    highs = _check_values(values, flags, "values")
    lows = None if low_values is None else _check_values(low_values, flags, "low_values")
    if lows is not None and any(lo is not None and highs[p] is None for p, lo in enumerate(lows)):
        raise PotError("a player has a low value but no high value: a hand shows for both")
    if not _is_int(chip) or chip < 1:
        raise PotError(f"chip must be a positive integer, got {chip!r}")
    if not _is_int(dead) or dead < 0:
        raise PotError(f"dead money must be a non-negative integer, got {dead!r}")
    seats = _seating(order, button, n)
    high_cards = _check_cards(cards, n)
    low_hands = high_cards if low_cards is None else _check_cards(low_cards, n)
    uncalled_back = _uncalled(amounts)
    net = list(amounts)
    if uncalled_back is not None:
        owner, back = uncalled_back
        net[owner] = net[owner] - back
    pots = _build_pots(tuple(net), flags)
    if dead:
        live_players = tuple(p for p in range(n) if flags[p])
        if pots and pots[0].eligible == live_players:
            pots = (Pot(pots[0].amount + dead, live_players), *pots[1:])
        else:
            pots = (Pot(dead, live_players), *pots)
    outcomes = [_winners(pot, highs, lows) for pot in pots]

    if commission.takes_from_pots and not (blinds_only and commission.exempt_blinds_only):
        exempt = [
            commission.exempt_all_tie
            and len(who) >= 2
            and who == set(high)
            and (not low or who == set(low))
            for who, (high, low) in zip(_contributors(pots, net), outcomes, strict=True)
        ]
        back = returned + (uncalled_back[1] if uncalled_back else 0)
        taken = _commission(commission, pots, outcomes, exempt, back, chip)
    else:
        taken = [(0, 0)] * len(pots)

    unit = odd_chip.unit or chip
    payouts = [0] * n
    if uncalled_back is not None:
        owner, back = uncalled_back
        payouts[owner] = payouts[owner] + back
    results: list[PotResult] = []
    total_fee = 0
    for k, pot in enumerate(pots):
        high, low = outcomes[k]
        fee, base = taken[k]
        total_fee += fee
        rest = pot.amount - fee
        if not low and len(high) == 1:  # one winner: nothing to divide
            payouts[high[0]] = payouts[high[0]] + rest
            results.append(PotResult(pot.amount, fee, base, pot.eligible, high, (rest,)))
            continue
        shares: dict[int, int] = {}
        parts: list[tuple[int, tuple[int, ...], OddChipRule, _Cards]]
        if low:
            low_half = rest // (2 * unit) * unit
            high_half = rest - low_half
            if not odd_chip.odd_to_high:
                low_half, high_half = high_half, low_half
            parts = [
                (high_half, high, odd_chip.rule, high_cards),
                (low_half, low, odd_chip.low_rule, low_hands),
            ]
        else:
            parts = [(rest, high, odd_chip.rule, high_cards)]
        for part, who, rule, hands in parts:
            for p, share in _divide(part, who, rule, odd_chip, unit, seats, hands).items():
                shares[p] = shares.get(p, 0) + share
                payouts[p] = payouts[p] + share
        winners = tuple(sorted(shares))
        split = tuple(shares[p] for p in winners)
        results.append(PotResult(pot.amount, fee, base, pot.eligible, winners, split))
    paid = put_in = 0
    for share in payouts:
        paid += share
    for put in amounts:
        put_in += put
    put_in += dead
    if paid + total_fee != put_in:  # pragma: no cover - an internal error
        raise AssertionError(f"chips not conserved: {amounts} -> {payouts} + {total_fee}")
    return Settlement(uncalled_back, tuple(results), tuple(payouts), total_fee)
