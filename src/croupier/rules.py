"""The rules of one table: a game, its betting, the stakes and the money settings.

A :class:`Rules` value is everything that decides how a hand is played and paid: a rulebook's
settings plus the options the book leaves to the house (see :mod:`croupier.rulebooks`). It can
also be written by hand; settings that cannot be played raise :class:`RulesError`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from croupier.betting import Betting, RulesError, whole
from croupier.blinds import TableRules
from croupier.cards import DeckKind
from croupier.forced import ForcedBets, forced_bets
from croupier.frozen import Frozen
from croupier.games import Game, game
from croupier.pots import Commission, OddChip

__all__ = ["Rules", "ShowFirst"]


class ShowFirst(enum.Enum):
    """Who shows first at the showdown when nobody bet in the last round."""

    LEFT_OF_BUTTON = "left-of-button"  # rws 3.13.2(b); cardroom showdown
    BUTTON = "button"  # qld s27(2): the designated player, else the first active player


@dataclass(frozen=True)
class Rules(Frozen):
    """Everything that decides how one hand is played and paid (a rulebook plus table options)."""

    game: Game
    betting: Betting
    deck: DeckKind = DeckKind.STANDARD
    blinds: tuple[int, ...] = ()  # first blind, second blind, ... (au 11.1(c); qld s23)
    ante: int = 0
    heads_up_button_small_blind: bool = True  # rws 3.7, 3.8.1(a)
    over_blind: bool = False  # the voluntary over-blind is offered (au 11.1(c)(iv): draw)
    bring_in: int = 0  # stud: the opener may post this instead of a full bet (cardroom 16)
    all_in_face_up: bool = False  # every hand turned up when a player is all-in (league 17)
    commission: Commission = field(default_factory=Commission)
    odd_chip: OddChip = field(default_factory=OddChip)
    show_first: ShowFirst = ShowFirst.LEFT_OF_BUTTON
    # Equal stud hands showing: the suit of the highest card decides (au 12.3(b), 13.3(b)), or
    # with this set, the first of them in deal order (PHH, PokerKit).
    showing_ties_by_position: bool = False
    chip_unit: int = 1  # the smallest chip in play: pots split to it (au 11.4(d), rws 4.5)
    # A stud seat folded after a forced bet or on a round of checking keeps receiving a card,
    # straight to the muck, each dealing round until someone wagers (au 19.12, 19.19).
    dead_receiver: bool = False
    # The book's first button, blind policy and bust rule, which a Table takes by itself
    # (croupier.rulebooks.tables); not part of how a hand plays, so not compared.
    table: TableRules | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", game(self.game))
        for blind in self.blinds:
            whole(blind, "a blind", 0)  # 0: a position that posts nothing (a dead blind)
        whole(self.ante, "the ante", 0)
        whole(self.bring_in, "the bring-in", 0)
        whole(self.chip_unit, "the smallest chip (chip_unit)", 1)
        if self.bring_in >= self.betting.small_bet and self.bring_in:
            raise RulesError(
                f"the bring-in ({self.bring_in}) must be less than the minimum bet "
                f"({self.betting.small_bet}) (cardroom betting 16)"
            )
        rounds = len(self.game.streets)
        if len(self.betting.structures) not in (1, rounds):
            raise RulesError(
                f"{self.game.name} has {rounds} betting rounds: give one structure for all, "
                f"or one per round, not {len(self.betting.structures)}"
            )

    def forced_bets(self, players: int, *, over_blind: bool = False) -> ForcedBets:
        """The positional forced bets of these stakes for ``players`` (see
        :func:`croupier.forced.forced_bets`); made once per table size."""
        last = _LAST
        if last[0] is self and last[1] == players and not over_blind:
            forced = last[2]
            assert isinstance(forced, ForcedBets)
            return forced
        up = self.heads_up_button_small_blind
        key = (self.blinds, self.ante, self.bring_in, up, players, over_blind)
        known = _FORCED.get(key)
        if known is None:
            known = forced_bets(
                self.blinds, self.ante, players, bring_in=self.bring_in,
                heads_up_button_small_blind=up, over_blind=over_blind,
            )  # fmt: skip
            known.check(players)
            if len(_FORCED) >= 1 << 10:
                _FORCED.clear()
            _FORCED[key] = known
        if not over_blind:
            last[0], last[1], last[2] = self, players, known
        return known


_FORCED: dict[tuple[object, ...], ForcedBets] = {}  # positional forced bets by stakes and size
_LAST: list[object] = [None, 0, None]  # the rules, size and forced bets asked for last
