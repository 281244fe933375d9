"""What each game deals, when it bets, and how a hand is made."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Final

from croupier.cards import DeckKind
from croupier.evaluate import Ranking
from croupier.frozen import Frozen

__all__ = ["Game", "GameError", "Opener", "Street", "game"]


# Held as constants: compiled code reads these directly, not through the enum classes.
_HIGH: Final = Ranking.HIGH
_STANDARD: Final = DeckKind.STANDARD


class GameError(ValueError):
    """A game that does not exist, or is not played with that deck or that many players."""


class Opener(enum.Enum):
    """Who acts first in a betting round."""

    LEFT_OF_BLINDS = "left-of-blinds"  # first after the last blind (au 14.2(a), 16; rws 3.8.1)
    LEFT_OF_BUTTON = "left-of-button"  # first active player after the button (rws 3.9.1(a))
    LEFT_OF_LAST_BLIND = "left-of-last-blind"  # draw's final round (au 11.4(a))
    LOWEST_UP_CARD = "lowest-up-card"  # stud's first round, suit breaks ties (au 12.2(a), 13.2(a))
    HIGHEST_SHOWING = "highest-showing"  # stud's later rounds (au 12.3(b), 12.4(b), 13.3(b))
    HIGHEST_UP_CARD = "highest-up-card"  # razz's first round: aces low, suit breaks ties
    LOWEST_SHOWING = "lowest-showing"  # razz's later rounds: the best low showing


@dataclass(frozen=True)
class Street(Frozen):
    """One step of the deal, followed by a betting round."""

    hole: int = 0  # cards dealt face down to each player
    up: int = 0  # cards dealt face up to each player (stud), after the face-down ones
    board: int = 0  # community cards dealt face up
    burn: bool = True  # a card burned before this street's cards, or before its draw
    draw: bool = False  # players discard and draw replacements before this round (au 11.3)
    opener: Opener = Opener.LEFT_OF_BUTTON
    forced_open: bool = False  # the opener must bet at least the minimum (au 12.2(a), 13.2(a))


@dataclass(frozen=True)
class Game(Frozen):
    name: str
    streets: tuple[Street, ...]
    ranking: Ranking
    hole_cards_used: int | None  # exactly this many hole cards in the hand, or any
    max_players: dict[DeckKind, int]  # au 5.1 (and rws/qld for hold'em)
    clause: str
    low_ranking: Ranking | None = None  # hi-lo: half the pot to the best qualifying low

    def check(self, deck: DeckKind, players: int) -> None:
        if deck not in self.max_players:
            decks = ", ".join(f"{kind.size}" for kind in self.max_players)
            raise GameError(
                f"{self.name} is not played with a {deck.size}-card deck (au 5.1): "
                f"it is played with {decks} cards"
            )
        limit = self.max_players[deck]
        if not 2 <= players <= limit:
            raise GameError(
                f"{self.name} on a {deck.size}-card deck takes 2 to {limit} players (au 5.1), "
                f"not {players}"
            )

    def ranking_for(self, deck: DeckKind) -> Ranking:
        """The hand ranking with this deck: short decks rank by au 9.3."""
        if self.ranking is not _HIGH or deck is _STANDARD:
            return self.ranking
        return {
            DeckKind.SHORT_40: Ranking.SHORT40,
            DeckKind.SHORT_36: Ranking.SHORT36,
            DeckKind.SHORT_32: Ranking.SHORT32,
            DeckKind.ROYAL_20: Ranking.SHORT20,
        }[deck]


_PRE = Street(hole=2, burn=False, opener=Opener.LEFT_OF_BLINDS)
_FLOP, _ONE = Street(board=3), Street(board=1)

HOLDEM = Game(
    "holdem",
    (_PRE, _FLOP, _ONE, _ONE),
    Ranking.HIGH,
    None,
    {DeckKind.STANDARD: 10, DeckKind.SHORT_36: 9},  # au 5.1(a)(iv); qld s11(1); 36: short-deck
    "au 16, rws 3, qld s21-s27",
)
OMAHA = Game(
    "omaha",
    (Street(hole=4, burn=False, opener=Opener.LEFT_OF_BLINDS), _FLOP, _ONE, _ONE),
    Ranking.HIGH,
    2,
    {DeckKind.STANDARD: 10},  # au 5.1(a)(v)
    "au 17",
)
# Manila: hole cards and one community card face up, then a burn and one card per round,
# five betting rounds (au 14.1(d), 14.3-14.4; 15.1(d), 15.3-15.4).
MANILA2 = Game(
    "manila2",
    (Street(hole=2, board=1, burn=False, opener=Opener.LEFT_OF_BLINDS), _ONE, _ONE, _ONE, _ONE),
    Ranking.HIGH,
    2,
    {DeckKind.SHORT_32: 11},  # au 5.1(d)(iv)
    "au 14",
)
MANILA3 = Game(
    "manila3",
    (Street(hole=3, board=1, burn=False, opener=Opener.LEFT_OF_BLINDS), _ONE, _ONE, _ONE, _ONE),
    Ranking.HIGH,
    2,
    {DeckKind.SHORT_36: 9, DeckKind.SHORT_32: 7},  # au 5.1(c), (d)(v)
    "au 15",
)

# Draw (blind): five cards down, a betting round, the draw, a final round opened left of the
# last blind (au 11.1-11.4).
DRAW = Game(
    "draw",
    (
        Street(hole=5, burn=False, opener=Opener.LEFT_OF_BLINDS),
        Street(burn=False, draw=True, opener=Opener.LEFT_OF_LAST_BLIND),
    ),
    Ranking.HIGH,
    None,
    {
        DeckKind.STANDARD: 8,
        DeckKind.SHORT_40: 6,
        DeckKind.SHORT_32: 5,
    },  # au 5.1(a)(i), (b)(i), (d)(i)
    "au 11",
)
_UP = Street(up=1, opener=Opener.HIGHEST_SHOWING)
STUD5 = Game(
    "stud5",
    (
        Street(hole=1, up=1, burn=False, opener=Opener.LOWEST_UP_CARD, forced_open=True),
        _UP,
        _UP,
        _UP,
    ),
    Ranking.HIGH,
    None,
    {
        DeckKind.STANDARD: 10,
        DeckKind.SHORT_40: 8,
        DeckKind.SHORT_32: 6,
    },  # au 5.1(a)(ii), (b)(ii), (d)(ii)
    "au 12",
)
STUD7 = Game(
    "stud7",
    (
        Street(hole=2, up=1, burn=False, opener=Opener.LOWEST_UP_CARD, forced_open=True),
        _UP,
        _UP,
        _UP,
        Street(hole=1, opener=Opener.HIGHEST_SHOWING),
    ),
    Ranking.HIGH,
    None,
    {
        DeckKind.STANDARD: 8,
        DeckKind.SHORT_40: 6,
        DeckKind.SHORT_32: 4,
    },  # au 5.1(a)(iii), (b)(iii), (d)(iii)
    "au 13",
)

# Games of the wider ecosystem (the PHH variants FO/8, F7S/8, FR, N2L1D, F2L3D, FB), built
# from the same parts; the seed books do not deal them.
OMAHA8 = replace(OMAHA, name="omaha8", low_ranking=Ranking.LOW_A5_8, clause="omaha hi-lo")
STUD7_8 = replace(STUD7, name="stud7-8", low_ranking=Ranking.LOW_A5_8, clause="stud hi-lo")
# Razz: seven card stud for the low (aces low, no qualifier). The highest up card brings it in;
# the best low showing opens the later rounds.
_LOW_UP = Street(up=1, opener=Opener.LOWEST_SHOWING)
RAZZ = Game(
    "razz",
    (
        Street(hole=2, up=1, burn=False, opener=Opener.HIGHEST_UP_CARD, forced_open=True),
        _LOW_UP,
        _LOW_UP,
        _LOW_UP,
        Street(hole=1, opener=Opener.LOWEST_SHOWING),
    ),
    Ranking.LOW_A5,
    None,
    {DeckKind.STANDARD: 8},
    "razz",
)


def _lowball_draw(name: str, cards: int, draws: int, ranking: Ranking, clause: str) -> Game:
    """Blinds, a round, then ``draws`` times a burn, the draw and a round opened left of the
    button."""
    first = Street(hole=cards, burn=False, opener=Opener.LEFT_OF_BLINDS)
    draw = Street(draw=True, opener=Opener.LEFT_OF_BUTTON)
    return Game(name, (first,) + (draw,) * draws, ranking, None, {DeckKind.STANDARD: 8}, clause)


DRAW27 = _lowball_draw("draw27", 5, 1, Ranking.LOW_27, "deuce-to-seven single draw")
TRIPLE_DRAW27 = _lowball_draw("triple-draw27", 5, 3, Ranking.LOW_27, "deuce-to-seven triple draw")
BADUGI = _lowball_draw("badugi", 4, 3, Ranking.BADUGI, "badugi")

GAMES = {
    g.name: g
    for g in (
        HOLDEM, OMAHA, MANILA2, MANILA3, DRAW, STUD5, STUD7,
        OMAHA8, STUD7_8, RAZZ, DRAW27, TRIPLE_DRAW27, BADUGI,
    )
}  # fmt: skip


def game(name: str | Game) -> Game:
    if isinstance(name, Game):
        return name
    try:
        return GAMES[name]
    except KeyError:
        raise GameError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}") from None
