"""PokerStars' own words in its hand histories: the games' names, the streets, where a player
folded, and the names of hands ("a full house, Aces full of Kings", ``Lo: 9,7,5,4,2``).

The line forms follow published PokerStars histories (hold'em and Omaha; 7 Card Stud, Stud
Hi/Lo and Razz; 5 Card Draw, 2-7 Single and Triple Draw; Badugi): see
tests/pokerstars_format.py, the independent reader they are checked against.
"""

from __future__ import annotations

import enum

from croupier.betting import Structure
from croupier.cards import Rank

__all__ = ["GAMES", "LIMITS", "Family", "describe", "family_of", "folded_on"]


class Family(enum.Enum):
    """How a game's history is laid out: a board (hold'em, Omaha), stud streets, or draws."""

    BOARD = "board"
    STUD = "stud"
    DRAW = "draw"


# croupier's game -> PokerStars' name of it, as its headers write it.
GAMES = {
    "holdem": "Hold'em",
    "omaha": "Omaha",
    "omaha8": "Omaha Hi/Lo",
    "stud7": "7 Card Stud",
    "stud7-8": "7 Card Stud Hi/Lo",
    "razz": "Razz",
    "draw": "5 Card Draw",
    "draw27": "Single Draw 2-7 Lowball",
    "triple-draw27": "Triple Draw 2-7 Lowball",
    "badugi": "Badugi",
}
LIMITS = {Structure.NO_LIMIT: "No Limit", Structure.POT: "Pot Limit", Structure.FIXED: "Limit"}
_FAMILIES = {
    "stud7": Family.STUD, "stud7-8": Family.STUD, "razz": Family.STUD,
    "draw": Family.DRAW, "draw27": Family.DRAW, "triple-draw27": Family.DRAW,
    "badugi": Family.DRAW,
}  # fmt: skip
_HI_LO = {"omaha8", "stud7-8"}
_LOWBALL = {"razz", "draw27", "triple-draw27"}

BOARD_STREETS = ("FLOP", "TURN", "RIVER")
DRAWS = ("FIRST", "SECOND", "THIRD")
_ORDINALS = ("1st", "2nd", "3rd")


def family_of(game: str) -> Family:
    return _FAMILIES.get(game, Family.BOARD)


_STUD_STREETS = ("3rd", "4th", "5th", "6th")


def stud_street(index: int) -> str:
    """The header of stud's ``index``-th dealing (0: third street): ``*** 3rd STREET ***`` ..
    ``*** 6th STREET ***``, then ``*** RIVER ***`` for the last card."""
    return "*** RIVER ***" if index >= 4 else f"*** {_STUD_STREETS[index]} STREET ***"


def folded_on(family: Family, round_: int, draws: int) -> str:
    """Where a player folded, as the summary says it: in betting round ``round_`` (0: the
    first) of a game with ``draws`` draws."""
    if family is Family.STUD:
        return "on the River" if round_ >= 4 else f"on the {_STUD_STREETS[round_]} Street"
    if family is Family.DRAW:
        if round_ == 0:
            return "before the Draw"
        if draws == 1:
            return "after the Draw"
        return f"after the {_ORDINALS[min(round_, 3) - 1]} Draw"
    return ("before Flop", "on the Flop", "on the Turn", "on the River")[min(round_, 3)]


# PokerStars names hands in lower case, with its own words for some ("Aces full of Kings").
_RANK_NAMES = [rank.name.title() for rank in Rank]


def describe(game: str, text: str) -> str:
    """croupier's name of a hand, as PokerStars words it in ``game``: "Full House, Aces over
    Kings" is "a full house, Aces full of Kings"; a hi-lo hand "HI: ...; LO: 8,6,5,2,A"; a
    lowball hand "Lo: 9,7,5,4,2" (a pair there: "Lo: a pair of Fives"); a badugi "Badugi:
    8,6,3,2"."""
    if game in _HI_LO:
        high, _, low = text.partition("; low ")
        words = f"HI: {_high(high)}"
        return f"{words}; LO: {_commas(low)}" if low else words
    if game == "badugi":
        kind, _, cards = text.partition(", ")
        if kind == "Badugi":
            return f"Badugi: {_commas(cards)}"
        return f"{kind.split('-')[0].lower()}-card: {_commas(cards)}"  # "three-card: Q,J,5"
    if game in _LOWBALL:
        return f"Lo: {_commas(text)}" if text.endswith(" low") else f"Lo: {_high(text)}"
    return _high(text)


def _commas(low: str) -> str:
    return ",".join(low.removesuffix(" low").split("-"))


def _high(text: str) -> str:
    kind, _, rest = text.partition(", ")
    kind = kind.lower()
    if text.startswith("Pair of "):
        return "a pair of " + text.removeprefix("Pair of ")
    if kind == "two pair":
        return f"two pair, {rest}"
    if kind == "full house":
        return "a full house, " + rest.replace(" over ", " full of ")
    if kind in ("three of a kind", "four of a kind"):
        return f"{kind}, {rest}"
    if kind == "royal flush":
        return "a Royal Flush"
    if kind == "high card":
        return f"high card {rest}"
    if kind in ("straight", "straight flush"):
        top = rest.removesuffix(" high")
        index = _RANK_NAMES.index(top) if top in _RANK_NAMES else -1
        bottom = _RANK_NAMES[index - 4] if index >= 4 else "Ace"
        return f"a {kind}, {bottom} to {top}"
    if kind == "flush":
        return f"a flush, {rest}"
    return text
