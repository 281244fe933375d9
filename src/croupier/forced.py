"""The forced bets of one hand: antes, blinds, straddles, posts and the bring-in.

A :class:`ForcedBets` value says who posts what in one hand, in deal order (player 0 is the first
seat left of the button, the last is the button). The table works it out for each hand from its
stakes and seats (the dead button, missed blinds, a tournament's level); :func:`forced_bets` gives
the usual positional blinds that every book describes. The hand only posts what it is given.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from croupier.betting import RulesError
from croupier.frozen import Frozen

__all__ = ["Blind", "BlindKind", "ForcedBets", "forced_bets"]


class BlindKind(enum.Enum):
    """How a blind stands in the first betting round."""

    # A positional blind or straddle: the largest live one is the bet to match, and the action
    # starts left of the last one posted (au 11.2(a), rws 3.8.1(a), qld s23-s24).
    BLIND = "blind"
    # A live bet posted out of position by a player entering the game or coming back after missing
    # blinds: it counts toward the player's bet, but does not move where the action starts
    # (cardroom buy-in 2; au 1.1 'Blind').
    POSTED = "posted"
    # Dead money: it goes to the pot and does not count toward the player's bet (a missed small
    # blind made up on return).
    DEAD = "dead"

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is Python code


@dataclass(frozen=True)
class Blind(Frozen):
    """One blind: who posts it, how much (as set: a short stack posts what it has), and how it
    stands."""

    player: int
    amount: int
    kind: BlindKind = BlindKind.BLIND

    def __init__(self, player: int, amount: int, kind: BlindKind = BlindKind.BLIND) -> None:
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "amount", amount)
        object.__setattr__(self, "kind", kind)


_BLIND: Final = BlindKind.BLIND  # compiled, a C static


@dataclass(frozen=True)
class ForcedBets(Frozen):
    """Who posts what before the cards, in deal order.

    ``antes``: each player's ante (empty: none), posted first; a big-blind ante is one entry at
    the big blind, a button ante one at the button. ``blinds``: in the order they are posted.
    ``bring_in``: stud's forced opening bet under the minimum (cardroom betting 16), 0 for none.
    ``carried``: chips a voided deal forfeited, dead money in this hand's main pot from no
    one's stack (cardroom irregularities 5-6).
    """

    antes: tuple[int, ...] = ()
    blinds: tuple[Blind, ...] = ()
    bring_in: int = 0
    # True: the antes (and dead blinds) are dead money in the main pot, which every player in
    # the hand may win, as a big-blind ante is (PHH's ante_trimming_status = false). False: each
    # ante counts as its poster's contribution, so a player short of it wins only the part
    # matched (au 10.1, the books' uniform antes).
    dead_antes: bool = False
    # True: a blind posted all-in for less is the bet to match (PHH, PokerKit). False: the bet
    # to match is the blind as set, whoever could not post it all (league; the others are silent).
    short_blind_sets_bet: bool = False
    carried: int = 0

    def __init__(
        self,
        antes: Sequence[int] = (),
        blinds: Sequence[Blind] = (),
        bring_in: int = 0,
        dead_antes: bool = False,
        short_blind_sets_bet: bool = False,
        carried: int = 0,
    ) -> None:
        object.__setattr__(self, "antes", tuple(antes))
        object.__setattr__(self, "blinds", tuple(blinds))
        object.__setattr__(self, "bring_in", bring_in)
        object.__setattr__(self, "dead_antes", dead_antes)
        object.__setattr__(self, "short_blind_sets_bet", short_blind_sets_bet)
        object.__setattr__(self, "carried", carried)
        for amount in (*self.antes, *(blind.amount for blind in self.blinds), bring_in, carried):
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise RulesError(f"forced bets are whole numbers of chips, got {amount!r}")

    def check(self, players: int) -> None:
        """Raise :class:`RulesError` unless these forced bets fit a hand of ``players``."""
        if self.antes and len(self.antes) != players:
            raise RulesError(
                f"antes are given for {len(self.antes)} players, the hand has {players}"
            )
        posted: set[tuple[int, bool]] = set()
        for blind in self.blinds:
            if not 0 <= blind.player < players:
                raise RulesError(
                    f"a blind for player {blind.player}: the hand has 0..{players - 1}"
                )
            key = (blind.player, blind.kind is BlindKind.DEAD)
            if key in posted:
                raise RulesError(f"player {blind.player} is given two live (or two dead) blinds")
            posted.add(key)

    @property
    def live(self) -> tuple[Blind, ...]:
        """The blinds that count toward their posters' bets."""
        return tuple(b for b in self.blinds if b.kind is not BlindKind.DEAD)

    def bet_to_match(self) -> int:
        """The largest live blind as set."""
        largest = 0
        for blind in self.blinds:
            if blind.kind is not BlindKind.DEAD and blind.amount > largest:
                largest = blind.amount
        return largest

    def last_positional(self) -> int | None:
        """Who posted the last positional blind or straddle: the action starts on their left."""
        last: int | None = None
        for blind in self.blinds:
            if blind.kind is _BLIND:
                last = blind.player
        return last

    def ante_total(self) -> int:
        total = 0
        for ante in self.antes:
            total += ante
        return total


def forced_bets(
    blinds: Sequence[int],
    ante: int,
    players: int,
    *,
    bring_in: int = 0,
    heads_up_button_small_blind: bool = True,
    over_blind: bool = False,
) -> ForcedBets:
    """The positional forced bets every book describes: ``ante`` from everyone, then the blinds
    from the first player left of the button on (au 11.1(c), rws 3.7, qld s23); heads-up, the
    button posts the small blind (rws 3.7, 3.8.1(a)) where the table says so. ``over_blind``: the
    player left of the last blind posts the voluntary over-blind, double the last blind
    (au 11.1(c)(iv), 11.5(c))."""
    amounts = list(blinds)
    if over_blind:
        if not amounts or players <= len(amounts):
            raise RulesError("an over-blind needs blinds and a player left of the last blind")
        amounts.append(2 * amounts[-1])
    count = min(len(amounts), players)
    if players == 2 and heads_up_button_small_blind and count == 2:
        posters = [1, 0]
    else:
        posters = list(range(count))
    return ForcedBets(
        antes=(ante,) * players if ante else (),
        blinds=[Blind(p, a) for p, a in zip(posters, amounts, strict=False)],
        bring_in=bring_in,
    )
