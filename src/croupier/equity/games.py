"""The games equity is computed for: those croupier deals (:mod:`croupier.games`), seen as
how many cards each hand and the board end up with and how a hand is made."""

from __future__ import annotations

from dataclasses import dataclass

from croupier import games
from croupier.cards import CardError, DeckKind
from croupier.evaluate.rankings import Ranking

__all__ = ["GAMES", "EquityError", "EquityGame", "game"]


class EquityError(CardError):
    """Bad input to :func:`croupier.equity.equity`: an unknown game, a wrong number of cards,
    a duplicate or foreign card, a bad range, or a setting out of bounds."""


@dataclass(frozen=True)
class EquityGame:
    """A game as equity sees it: each hand's cards and the board once everything is dealt.

    ``hole``: each hand's own cards at the showdown (stud: up and down cards together; draw:
    the hand after the draw). ``used``: exactly this many of them in the hand (Omaha, Manila),
    else any five (any four at badugi). ``partial``: hands may be given with fewer cards, the
    rest still to come (stud streets, the cards a draw replaces).
    """

    name: str
    hole: int
    board: int
    used: int | None
    rankings: tuple[tuple[int, Ranking], ...]  # (deck size, ranking), the default first
    low: Ranking | None = None  # hi-lo: half the pot to the best qualifying low
    clause: str = ""

    @property
    def decks(self) -> tuple[int, ...]:
        return tuple(size for size, _ in self.rankings)

    @property
    def partial(self) -> bool:
        return self.board == 0

    def ranking(self, deck: int) -> Ranking:
        return dict(self.rankings)[deck]

    @property
    def ranges(self) -> bool:
        """Whether hands may be ranges like ``QQ+``: two-card hands (hold'em notation)."""
        return self.hole == 2


def _from_game(spec: games.Game) -> EquityGame:
    streets = spec.streets
    rankings = tuple((deck.size, spec.ranking_for(deck)) for deck in spec.max_players)
    return EquityGame(
        spec.name,
        sum(street.hole + street.up for street in streets),
        sum(street.board for street in streets),
        spec.hole_cards_used,
        rankings,
        spec.low_ranking,
        spec.clause,
    )


def _games() -> dict[str, EquityGame]:
    out = {name: _from_game(spec) for name, spec in games.GAMES.items()}
    holdem = out["holdem"]
    # hold'em on 36 cards has its own name in equity tools; plain holdem defaults to 52
    out["holdem"] = EquityGame("holdem", 2, 5, None, ((52, Ranking.HIGH),), None, holdem.clause)
    out["shortdeck"] = EquityGame(
        "shortdeck", 2, 5, None, ((36, Ranking.SHORT36),), None, "au 9.3 on 36 cards"
    )
    order = ["holdem", "shortdeck"] + [name for name in out if name not in ("holdem", "shortdeck")]
    return {name: out[name] for name in order}


GAMES = _games()


def game(name: str) -> EquityGame:
    spec = GAMES.get(str(name).lower())
    if spec is None:
        raise EquityError(f"unknown game {name!r}: expected one of {', '.join(GAMES)}")
    return spec


def deck_size(spec: EquityGame, deck: int | None) -> int:
    if deck is None:
        return spec.decks[0]
    if deck not in spec.decks:
        allowed = " or ".join(str(d) for d in spec.decks)
        hint = " (shortdeck is hold'em on 36 cards)" if spec.name == "holdem" else ""
        raise EquityError(f"{spec.name} is played with {allowed} cards, not {deck}{hint}")
    return deck


def deck_kind(size: int) -> DeckKind:
    return DeckKind.from_size(size)
