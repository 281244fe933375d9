"""The prize pool, the prizes by place, and ICM for final-table deals.

Money is an integer in the smallest money unit. The league book says nothing of payouts: the
templates are the house's (:class:`~croupier.tournament.settings.PayoutPlan`). Whatever the
template, the prizes sum to the pool exactly: every prize below first is rounded down to the
plan's unit and the first place takes the remainder.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from croupier.tournament.settings import PayoutPlan, TournamentError

__all__ = ["icm_deal", "icm_equities", "prizes", "split"]

MOST_ICM_PLAYERS = 12  # 2**12 subsets: an exact answer in well under a second


def prizes(
    plan: PayoutPlan, pool: int, entrants: int, players: int | None = None
) -> tuple[int, ...]:
    """The prize for places 1, 2, ... for a field of ``entrants`` entries sharing ``pool``.

    ``players``: how many different people entered (re-entries make fewer people than
    entries); a template paying more places than that is cut to that many places, its shares
    scaled up to keep the whole pool."""
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise TournamentError(f"the prize pool must be a whole amount of money, got {pool!r}")
    if entrants < 1:
        raise TournamentError("a tournament without entrants has no prizes")
    shares = plan.shares(entrants)
    if players is not None and len(shares) > players:
        shares = shares[:players]
        scale = Fraction(100) / sum(shares)
        shares = tuple(share * scale for share in shares)
    unit = plan.unit
    rest = [int(pool * share / 100 / unit) * unit for share in shares[1:]]
    return (pool - sum(rest), *rest)


def split(amount: int, count: int) -> list[int]:
    """``amount`` shared by ``count`` players as evenly as whole units allow, the odd units one
    each to the first ones (the caller orders them)."""
    base, odd = divmod(amount, count)
    return [base + (i < odd) for i in range(count)]


def icm_equities(stacks: Sequence[int], prize_list: Sequence[int]) -> tuple[Fraction, ...]:
    """Each player's equity in ``prize_list`` (places 1, 2, ...) by the Malmuth-Harville model:
    a player finishes first with the probability stack / all chips, and each later place is
    drawn the same way among those left. Exact fractions."""
    count = len(stacks)
    if not 1 <= count <= MOST_ICM_PLAYERS:
        raise TournamentError(
            f"ICM is computed exactly for 1 to {MOST_ICM_PLAYERS} players, not {count}"
        )
    if any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in stacks):
        raise TournamentError(f"every player in a deal has chips: stacks {list(stacks)}")
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in prize_list):
        raise TournamentError(f"prizes are whole amounts of money, got {list(prize_list)}")
    places = min(count, len(prize_list))
    total = sum(stacks)
    equity = [Fraction(0)] * count
    # chance[mask]: the players in mask took the top |mask| places, in some order.
    chance: dict[int, Fraction] = {0: Fraction(1)}
    for taken in range(places):
        following: dict[int, Fraction] = {}
        prize = prize_list[taken]
        for mask, p in chance.items():
            left = total - sum(stacks[i] for i in range(count) if mask >> i & 1)
            for i in range(count):
                if mask >> i & 1:
                    continue
                q = p * stacks[i] / left
                equity[i] += q * prize
                following[mask | 1 << i] = following.get(mask | 1 << i, Fraction(0)) + q
        chance = following
    return tuple(equity)


def icm_deal(stacks: Sequence[int], prize_list: Sequence[int]) -> tuple[int, ...]:
    """An ICM deal in whole money: each player's equity rounded down, the units left over one
    each to the largest fractions (ties: the bigger stack, then the earlier player). The deal
    sums exactly to the prizes still to be won (the first ``len(stacks)`` places)."""
    equity = icm_equities(stacks, prize_list)
    amounts = [int(e) for e in equity]
    left = sum(prize_list[: len(stacks)]) - sum(amounts)
    order = sorted(range(len(stacks)), key=lambda i: (-(equity[i] - amounts[i]), -stacks[i], i))
    for i in order[:left]:
        amounts[i] += 1
    return tuple(amounts)
