"""Betting structures and one betting round: who may check, call, bet or raise, and how much.

All amounts are integers in the table's smallest chip. Each setting names the clauses it comes
from; code branches on settings, never on a rulebook's name.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from croupier.frozen import Frozen

__all__ = [
    "TABLE_STAKES",
    "Betting",
    "BettingRound",
    "IllegalAction",
    "Legal",
    "MinRaise",
    "RulesError",
    "ShortAllIn",
    "Structure",
]


class IllegalAction(ValueError):  # noqa: N818 (the name reads as what it is)
    """An action the rules do not allow; the message names the rule and what is allowed."""


class RulesError(ValueError):
    """Settings that cannot be played (no structure, a negative blind, a zero minimum bet)."""


def whole(value: object, name: str, least: int) -> None:
    """Raise :class:`RulesError` unless ``value`` is an int (not a bool) of at least ``least``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise RulesError(
            f"{name} must be a whole number of chips of at least {least}, got {value!r}"
        )


class Structure(enum.Enum):
    """How large a bet or raise may be."""

    NO_LIMIT = "no-limit"  # up to the whole stack (rws 3.2; au 11.5(g))
    POT = "pot"  # raise at most the pot after the call (qld s28(5); au 11.5(e))
    HALF_POT = "half-pot"  # raise at most half of that (qld s28(6); au 11.5(e))
    STRADDLE = "straddle"  # raise at most twice the last wager (qld s28(7))
    FIXED = "fixed"  # bets and raises of one size per round (qld s28(8); au "structured limit")
    SPREAD = "spread"  # between the last bet or raise and the table maximum (au 11.5(f))

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is Python code

    @property
    def limit_rule(self) -> str:
        """The rule that bounds a bet or raise, for error messages."""
        return _LIMIT_RULES[self]


_LIMIT_RULES = {
    Structure.POT: "full pot: a raise of at most the pot after the call (qld s28(5), au 11.5(e))",
    Structure.HALF_POT: "half pot: a raise of at most half the pot after the call "
    "(qld s28(6), au 11.5(e))",
    Structure.STRADDLE: "straddle: a raise of at most twice the last wager (qld s28(7))",
    Structure.FIXED: "structured limit: one bet size per round (qld s28(8))",
    Structure.SPREAD: "spread limit: up to the table maximum (au 11.5(f))",
    Structure.NO_LIMIT: "the table maximum (qld s25(4))",
}


# A bet is at most the chips the player had on the table when the hand began: each book's
# table stakes (the cardroom adds chips only between hands, buy-in 2).
TABLE_STAKES = (
    "the stack: table stakes (au 1.1 table-stakes, qld s2 table-stake, rws 1 table-stake, "
    "cardroom buy-in 2)"
)


class MinRaise(enum.Enum):
    """The smallest raise allowed."""

    # At least the largest bet or raise so far in the round (au 11.5(d), rws 3.3, cardroom).
    PREVIOUS = "previous"
    # qld s28(4): at least the opening bet; after a call, the call; after a call and raise,
    # the raiser's own call.
    QLD = "qld"
    # league: the first raise before the flop to at least double the big blind, each re-raise
    # to at least double the preceding raise. "Double" is read as the amount raised to, as in
    # the first sentence (double the big blind): raise to at least twice the bet to match.
    DOUBLE = "double"

    @property
    def rule(self) -> str:
        return {
            MinRaise.QLD: "qld s28(4)",
            MinRaise.DOUBLE: "at least double the preceding bet or raise (league 7-9)",
            MinRaise.PREVIOUS: "at least the previous bet or raise (au 11.5(d), rws 3.3)",
        }[self]


class ShortAllIn(enum.Enum):
    """What an all-in for less than a full raise does to the players after it."""

    # Only a full raise reopens the betting for players who already acted; the next raise
    # goes on top of the all-in (rws 3.14.2).
    FULL_RAISE_REOPENS = "full-raise-reopens"
    # Half a bet or raise or more counts as a full one, for bets and raises alike (cardroom
    # betting 7, rws 3.14.3).
    HALF_REOPENS = "half-reopens"
    # Half a bet or more counts as a bet, but only while no full bet has been made in the
    # round (au 10.2, sentences 1-2): a short all-in *raise* is never a raise, however large,
    # and reopens nothing (au 10.2, sentences 3-4; au 1.1 'Raise'). At fixed limit the next
    # raise completes to the structured level after an excess under half, and goes a full raise
    # over the all-in after an excess of half or more (au 1.1 'Raise').
    HALF_BET = "half-bet"

    @property
    def rule(self) -> str:
        return _SHORT_ALL_IN_RULES[self]


_SHORT_ALL_IN_RULES = {
    ShortAllIn.FULL_RAISE_REOPENS: "a short all-in does not reopen the betting: only a full "
    "raise does (rws 3.14.2)",
    ShortAllIn.HALF_REOPENS: "a short all-in does not reopen the betting: under half a raise "
    "(rws 3.14.3, cardroom betting 7)",
    ShortAllIn.HALF_BET: "a short all-in does not reopen the betting: an all-in raise short of "
    "a full raise is not a raise (au 10.2, au 1.1 'Raise')",
}


@dataclass(frozen=True)
class Betting(Frozen):
    """The betting settings of a table (the house chooses them within what the book allows)."""

    structures: tuple[Structure, ...]  # per betting round; combination betting (qld s28(10))
    small_bet: int  # minimum wager; fixed bet size on the early rounds (qld s28(8)(a))
    big_bet: int = 0  # fixed bet size on the late rounds (qld s28(8)(b)); default small_bet
    big_bet_from: int = 2  # first round (0-based) that uses big_bet
    max_wager: int | None = None  # table maximum bet or raise (qld s25(4), au 11.5(a))
    raise_cap: int | None = None  # raises allowed after the opening bet (au 11.5(g): 3)
    uncapped_heads_up: bool = True  # no cap with two players left (au 11.5(g), cardroom 5)
    cap_sticks: bool = True  # a capped round stays capped when it turns heads-up (cardroom 5)
    # The big blind may still raise when everyone just calls it (rws 3.8.1(b)); under qld the
    # first round ends once the bets are equal and nobody raised (qld s4(2), s24(10)).
    big_blind_option: bool = True
    # qld s24(4): in the first round the opening bet, and a raise made with it, each equal
    # the second blind: until someone opens, a raise is to exactly twice the blind.
    opening_raise_is_blind: bool = False
    min_raise: MinRaise = MinRaise.PREVIOUS
    short_all_in: ShortAllIn = ShortAllIn.FULL_RAISE_REOPENS
    # Structured betting where a round's opening bet may be any amount from the minimum to the
    # maximum wager, its raises staying fixed (qld s25(4) with s28(8): docs/irregularities-spec
    # 5(b)); the first round keeps ``opening_raise_is_blind``.
    open_range: bool = False
    # Per-round values where a combination's rounds differ (qld s28(11)(b): structured middle
    # rounds keep their cap and all-in rule); empty: raise_cap and short_all_in everywhere.
    raise_caps: tuple[int | None, ...] = ()
    short_all_ins: tuple[ShortAllIn, ...] = ()
    clauses: dict[str, str] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.structures or not all(isinstance(s, Structure) for s in self.structures):
            raise RulesError(
                f"betting needs a structure per round (or one for all), got {self.structures!r}"
            )
        whole(self.small_bet, "the minimum bet (small_bet)", 1)
        whole(self.big_bet, "big_bet", 0)
        whole(self.big_bet_from, "big_bet_from", 0)
        for cap in (self.raise_cap, *self.raise_caps):
            if cap is not None:
                whole(cap, "a raise cap", 0)
        if self.max_wager is not None:
            whole(self.max_wager, "the maximum wager", self.small_bet)

    def structure(self, round_index: int) -> Structure:
        return self.structures[min(round_index, len(self.structures) - 1)]

    def cite(self, setting: str, rule: str) -> str:
        """``rule`` (a description ending in its clauses, in brackets) citing the book these
        settings came from: its own clauses among them, else the book's clause for
        ``setting``; as it is for rules built by hand (no book)."""
        clause = self.clauses.get(setting)
        if not clause or " (" not in rule or not rule.endswith(")"):
            return rule
        cut = rule.rindex(" (")
        book = clause.split()[0]
        own = [c.strip() for c in rule[cut + 2 : -1].split(",") if c.strip().startswith(book + " ")]
        return f"{rule[:cut]} ({', '.join(own) if own else clause})"

    def cap_for(self, round_index: int) -> int | None:
        if not self.raise_caps:
            return self.raise_cap
        return self.raise_caps[min(round_index, len(self.raise_caps) - 1)]

    def short_all_in_for(self, round_index: int) -> ShortAllIn:
        if not self.short_all_ins:
            return self.short_all_in
        return self.short_all_ins[min(round_index, len(self.short_all_ins) - 1)]

    def fixed_size(self, round_index: int) -> int:
        if round_index >= self.big_bet_from and self.big_bet:
            return self.big_bet
        return self.small_bet


@dataclass(frozen=True)
class Legal(Frozen):
    """What the player to act may do. ``raise_range`` is a raise-to (or bet-to) interval."""

    player: int
    can_fold: bool
    can_check: bool
    call: int  # chips a call adds (0 when checking is possible); may be a call for less
    raise_range: tuple[int, int] | None  # min and max total bet for the round; None: no raise
    bring_in: int | None = None  # a stud opener may post this instead of a full bet
    facing: int = 0  # the bet to match this round (a blind counts): raising, not betting
    unit: int = 1  # bets and raises go in multiples of the smallest chip (cardroom betting 1)
    all_in: int = 0  # the player's total for the round if all-in (exempt from ``unit``)

    def __init__(
        self,
        player: int,
        can_fold: bool,
        can_check: bool,
        call: int,
        raise_range: tuple[int, int] | None,
        bring_in: int | None = None,
        facing: int = 0,
        unit: int = 1,
        all_in: int = 0,
    ) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "can_fold", can_fold)
        object.__setattr__(self, "can_check", can_check)
        object.__setattr__(self, "call", call)
        object.__setattr__(self, "raise_range", raise_range)
        object.__setattr__(self, "bring_in", bring_in)
        object.__setattr__(self, "facing", facing)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "all_in", all_in)

    def snap(self, amount: int) -> int:
        """The legal bet or raise-to nearest ``amount``: inside the range, in whole units."""
        if self.raise_range is None:
            raise IllegalAction(f"p{self.player + 1} may not bet or raise now; legal: {self}")
        low, high = self.raise_range
        amount = max(low, min(high, amount))
        if amount in (low, high) or amount % self.unit == 0:
            return amount
        return max(low, amount - amount % self.unit)

    def __str__(self) -> str:
        parts = ["check" if self.can_check else f"call {self.call}"]
        if self.bring_in is not None:
            parts = [f"bring in {self.bring_in}"]
        elif not self.can_check and not self.call:
            parts = []  # an opener who must bet
        if self.raise_range:
            low, high = self.raise_range
            verb = "raise" if self.facing else "bet"
            parts.append(f"{verb} {low}" if low == high else f"{verb} {low}..{high}")
        if self.can_fold:
            parts.append("fold")
        return " · ".join(parts)


@dataclass
class BettingRound:
    """One betting round. It moves chips between ``stacks`` and ``bets`` (lists it shares with
    the hand) and tracks what the next player may do."""

    betting: Betting
    index: int  # which round of the hand (0-based)
    bets: list[int]  # chips each player has put in this round (blinds included)
    stacks: list[int]  # chips each player has behind
    pot_before: int  # chips in the pot from earlier rounds (and antes)
    current: int = 0  # the bet to match
    full_level: int = 0  # the bet as set by the last full bet or raise
    last_raise: int = 0  # largest full bet or raise so far (the minimum raise under PREVIOUS)
    last_wager: int = 0  # chips the last bettor put in with that action (straddle, qld)
    last_was_opening: bool = True  # whether that wager was the opening bet (qld s28(4)(a))
    last_was_call: bool = False  # whether it was a call without a raise (qld s28(4)(b))
    raise_base: int = 0  # fixed limit: what the next raise goes on top of (au 1.1 'Raise')
    cap_to: int = -1  # no total in this round above this (au 19.29, qld s36(3)); -1: none
    raises: int = 0  # full bets and raises so far (an opening bet or the big blind is one)
    reopen_count: int = 0  # increases with every full bet or raise
    acted_at: list[int] = field(default_factory=list)  # per player: reopen_count when acted, or -1
    stuck: bool = False  # the cap was reached with three or more able to bet (set by the hand)
    opened: bool = False  # someone has called or raised voluntarily (qld s24(4))
    brought_in: bool = False  # the round was opened with a stud bring-in (cardroom 16)

    def __init__(
        self, betting: Betting, index: int, bets: list[int], stacks: list[int], pot_before: int
    ) -> None:
        self.betting = betting
        self.index = index
        self.bets = bets
        self.stacks = stacks
        self.pot_before = pot_before
        self.current = self.full_level = self.last_raise = self.last_wager = 0
        self.raise_base = 0
        self.cap_to = -1
        self.last_was_opening = True
        self.last_was_call = self.stuck = self.opened = self.brought_in = False
        self.raises = self.reopen_count = 0
        self.acted_at = [-1] * len(bets)

    def open_with_blinds(self, largest_blind: int) -> None:
        """The largest blind is the bet to match and counts as the opening bet (rws 3.3)."""
        self.current = self.full_level = self.last_wager = self.raise_base = largest_blind
        self.last_raise = max(largest_blind, self.betting.small_bet)
        self.raises = 1 if largest_blind else 0

    def pot_total(self) -> int:
        return self.pot_before + sum(bet for bet in self.bets)  # a genexpr compiles to a loop

    def capped(self, able: int) -> bool:
        """Whether no more raises are allowed; ``able``: players in the pot not all-in
        (cardroom betting 4 counts only those). A question only: whether a cap reached with
        three or more players sticks heads-up (``stuck``) is settled when it is reached."""
        cap = self.betting.cap_for(self.index)
        if cap is None or self.raises <= cap:  # the opening bet plus ``cap`` raises
            return False
        if able > 2 or not self.betting.uncapped_heads_up:
            return True
        return self.stuck

    def legal(self, player: int, able: int, others_can_call: bool) -> Legal:
        """What ``player`` may do. ``able``: players in the pot with chips behind;
        ``others_can_call``: someone other than ``player`` is among them."""
        owed = self.current - self.bets[player]
        stack = self.stacks[player]
        raise_range = None
        reopened = self.acted_at[player] < self.reopen_count
        if stack > owed and reopened and others_can_call and not self.capped(able):
            raise_range = self._raise_range(player)
        # Folding is open to any player in turn, even one who could check (au 14.3(b),
        # rws 3.9.1(a), qld s25(2)(c)).
        call = min(max(owed, 0), stack)
        all_in = self.bets[player] + stack
        return Legal(player, True, owed <= 0, call, raise_range, facing=self.current, all_in=all_in)

    def _raise_range(self, player: int) -> tuple[int, int] | None:
        found = self._uncapped_range(player)
        if found is None or self.cap_to < 0:
            return found
        low, high = found
        high = min(high, self.cap_to)  # an exposed card capped the round (au 19.29, qld s36(3))
        if high <= self.current:
            return None
        return min(low, high), high

    def _uncapped_range(self, player: int) -> tuple[int, int] | None:
        structure = self.betting.structure(self.index)
        owed = self.current - self.bets[player]
        all_in = self.bets[player] + self.stacks[player]
        if self.opening_raise_rule():
            fixed = min(2 * self.current, all_in)
            return fixed, fixed  # qld s24(4): the opener's raise equals the second blind
        base = self.raise_base if structure is Structure.FIXED else self.current
        low = base + self._min_raise(owed, structure)
        if structure is Structure.NO_LIMIT and self.betting.max_wager is None:
            # No limit but the stacks: the player's own all-in is the most (it is above the
            # bet, or legal() would not ask), whatever the others have.
            return min(low, all_in), all_in
        high = self._max_raise_to(owed, structure)
        if high <= self.current:
            return None
        low = min(low, high)  # qld s28(3): a minimum above the maximum becomes the maximum
        return min(low, all_in), min(high, all_in)

    def opening_raise_rule(self) -> str:
        """Why a raise is to one amount only now, for refusals: in the first round, until
        someone opens, the raise equals the second blind (qld s24(4)); "" where not."""
        if not (self.betting.opening_raise_is_blind and self.index == 0 and not self.opened):
            return ""
        blind = self.current
        return f"the opening raise is the second blind, {blind}: to {2 * blind} (qld s24(4))"

    def _min_raise(self, owed: int, structure: Structure) -> int:
        betting = self.betting
        if structure is Structure.FIXED:
            if self.current == 0 and betting.open_range:
                return betting.small_bet  # qld s25(4): an opening bet from the minimum wager
            return betting.fixed_size(self.index)
        if self.current == 0:
            return betting.small_bet  # an opening bet of at least the minimum (qld s25(4))
        if betting.min_raise is MinRaise.DOUBLE:
            return max(self.current, betting.small_bet)
        if betting.min_raise is MinRaise.QLD:
            if self.last_was_opening or self.last_was_call:
                return self.last_wager  # s28(4)(a)-(b): the opening bet, or the last call
            return max(owed, 1)  # s28(4)(c): after a call and raise, the raiser's own call
        if self.brought_in and not self.full_level:
            return self.last_raise  # completing the bring-in to a full bet (cardroom 16)
        # At least the previous raise, and never less than the minimum bet, even after an
        # all-in bet short of it (rws 3.3: the minimum raise is the big blind).
        return max(self.last_raise, betting.small_bet)

    def _max_raise_to(self, owed: int, structure: Structure) -> int:
        betting = self.betting
        if structure is Structure.NO_LIMIT and betting.max_wager is None:
            return self._most_anyone_has()
        limit: int | None = None
        if structure is Structure.FIXED:
            if self.current == 0 and betting.open_range and betting.max_wager is not None:
                return betting.max_wager  # qld s25(4): ... to the maximum wager
            return self.raise_base + betting.fixed_size(self.index)
        if structure is Structure.POT or structure is Structure.HALF_POT:
            # The call counts as in the pot before the limit (au 11.5(e); qld s28(5)-(6)); a
            # bet of the table minimum is always allowed, even into a small pot (qld s25(4)).
            limit = self.pot_total() + owed
            if structure is Structure.HALF_POT:
                limit //= 2
            limit = max(limit, betting.small_bet)
        elif structure is Structure.STRADDLE and self.current:
            limit = 2 * self.last_wager  # an opening bet is bounded by the table (qld s25(4))
        if betting.max_wager is not None:
            limit = betting.max_wager if limit is None else min(limit, betting.max_wager)
        if limit is None:
            return self._most_anyone_has()
        return self.current + limit

    def _most_anyone_has(self) -> int:
        """The most any player could have in this round: bet and stack."""
        bets, stacks = self.bets, self.stacks
        most = 0
        for p in range(len(bets)):
            total = bets[p] + stacks[p]
            if total > most:
                most = total
        return most

    # --- actions: each moves chips and returns what it added --------------------------------

    def check(self, player: int) -> None:
        self.acted_at[player] = self.reopen_count

    def call(self, player: int) -> int:
        added = min(self.current - self.bets[player], self.stacks[player])
        self._move(player, added)
        self.opened = True
        if added:
            self.last_wager = added
            self.last_was_opening = False
            self.last_was_call = True
        self.acted_at[player] = self.reopen_count
        return added

    def raise_to(self, player: int, to: int) -> tuple[int, bool]:
        """Bet or raise to ``to`` (already checked legal). Returns (chips added, full raise)."""
        previous = self.current
        structure = self.betting.structure(self.index)
        owed = previous - self.bets[player]
        fixed = structure is Structure.FIXED
        base = self.raise_base if fixed else previous
        # A full raise reaches the minimum, or the maximum where that is lower (qld s28(3)).
        smallest_full = min(
            base + self._min_raise(owed, structure), self._max_raise_to(owed, structure)
        )
        needed = smallest_full - base
        added = to - self.bets[player]
        self._move(player, added)
        full = to >= smallest_full
        if not full:
            mode = self.betting.short_all_in_for(self.index)
            half = 2 * (to - previous) >= needed
            if mode is ShortAllIn.HALF_REOPENS:
                full = half  # half a bet or raise or more counts as one (rws 3.14.3)
            elif mode is ShortAllIn.HALF_BET:
                if self.full_level == 0:
                    full = half  # half a bet or more is a bet (au 10.2)
                elif half and fixed:
                    self.raise_base = to  # a full raise on top of the all-in (au 1.1 'Raise')
        self.last_wager = added
        self.last_was_opening = previous == 0
        self.last_was_call = False
        self.opened = True
        self.current = to
        if full:
            # A raise is measured from the bet it raises, a short all-in bet or a bring-in
            # included; the minimum bet is the floor (rws 3.3: at least the big blind).
            self.last_raise = max(self.last_raise, to - previous)
            self.full_level = self.raise_base = to
            self.raises += 1
            self.reopen_count += 1
        self.acted_at[player] = self.reopen_count
        return added, full

    def bring_in(self, player: int, amount: int) -> int:
        """A stud bring-in: a forced bet under the minimum that opens without being a full bet;
        the next player may call it or complete to the full bet (cardroom betting 16)."""
        added = self.post(player, amount)
        self.brought_in = True
        self.current = self.bets[player]
        self.last_wager = added
        self.last_raise = max(self.betting.small_bet - self.current, 1)
        self.acted_at[player] = self.reopen_count
        return added

    def post(self, player: int, amount: int) -> int:
        """A forced bet (blind); all-in for less when the stack is short."""
        added = min(amount, self.stacks[player])
        self._move(player, added)
        return added

    def _move(self, player: int, amount: int) -> None:
        self.stacks[player] = self.stacks[player] - amount
        self.bets[player] = self.bets[player] + amount
