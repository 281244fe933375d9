"""PHH's notation for cards (``AcKd??``) and actions (``p1 cbr 300``, ``d dh p2 ????``), and the
amounts they carry."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeAlias

from croupier.cards import Card, DeckKind
from croupier.history.errors import PHHError, brief

__all__ = [
    "MAX_AMOUNT",
    "MAX_PLACES",
    "Action",
    "ActionKind",
    "Amount",
    "PHHCards",
    "amount_problem",
    "format_phh_cards",
    "parse_action",
    "parse_phh_cards",
]

Amount: TypeAlias = int | Decimal
"""A chip amount as PHH writes it: a TOML integer, or a TOML float read exactly."""

MAX_AMOUNT = 10**15
"""Amounts are below a thousand trillion, more chips than any game has had."""
MAX_PLACES = 8
"""Amounts have at most 8 decimal places (a satoshi). With :data:`MAX_AMOUNT` every amount has
at most 23 digits, exact in decimal arithmetic (28 digits by default), and the factor that makes
a history's amounts whole chips is at most 10**8."""


def amount_problem(value: Amount, *, unknown: bool = False) -> str | None:
    """What makes ``value`` no amount, or None: it must be finite (``unknown``: a stack, which
    may be ``inf``), below :data:`MAX_AMOUNT` and of at most :data:`MAX_PLACES` decimal places.
    Only the digits are read, never computed with, so a value like ``1e-999999`` is answered at
    once."""
    if isinstance(value, int):
        if -MAX_AMOUNT < value < MAX_AMOUNT:
            return None
        return f"{_plain(value)} is too large: amounts are below 10**15"
    if not value.is_finite():
        if unknown and value.is_infinite() and value > 0:
            return None
        shown = "nan" if value.is_nan() else "inf" if value > 0 else "-inf"
        allowed = "a stack may be inf (unknown), nothing else" if unknown else "amounts are finite"
        return f"{shown} is not an amount: {allowed}"
    digits, exponent = value.as_tuple()[1:]
    assert isinstance(exponent, int)
    if exponent < -MAX_PLACES:  # trailing zeros do not count: 1.50000000000 has two places
        zeros = 0
        while zeros < len(digits) and digits[len(digits) - 1 - zeros] == 0:
            zeros += 1
        if zeros < len(digits) and exponent + zeros < -MAX_PLACES:
            return f"{_plain(value)} has more than {MAX_PLACES} decimal places"
    if any(digits) and value.adjusted() >= 15:
        return f"{_plain(value)} is too large: amounts are below 10**15"
    return None


def _plain(value: object) -> str:
    """A number as written, its middle cut out when it is long."""
    if isinstance(value, int) and value.bit_length() > 256:
        return brief(value)
    text = str(value)
    return text if len(text) <= 40 else f"{text[:20]}...{text[-10:]} ({len(text)} characters)"


PHHCards: TypeAlias = tuple[Card | None, ...]
"""Cards as PHH writes them; ``None`` is an unknown card (``??``)."""

_CARD = re.compile(r"[2-9TJQKA][cdhs]|\?\?")
_CARD_TEXT: dict[str, Card | None] = {str(card): card for card in DeckKind.STANDARD.cards}
_CARD_TEXT["??"] = None


def parse_phh_cards(text: str) -> PHHCards:
    """``"AcKd??"`` -> ``(Card('Ac'), Card('Kd'), None)``. PHH writes cards run together, rank
    then suit, ``??`` for an unknown card; a card may appear once."""
    if len(text) % 2 or not text:
        raise ValueError(f"bad cards {brief(text)}: expected cards like 'AcKd' (rank, suit; '??')")
    cards: list[Card | None] = []
    for index in range(0, len(text), 2):
        token = text[index : index + 2]
        if token in _CARD_TEXT:
            cards.append(_CARD_TEXT[token])
            continue
        if not _CARD.fullmatch(token):
            raise ValueError(
                f"bad card {token!r} in {brief(text)}: expected a rank 2-9, T, J, Q, K, A then a "
                "suit c, d, h, s (or '??' for an unknown card)"
            )
        cards.append(None if token == "??" else Card.parse(token))
    known = [card for card in cards if card is not None]
    if len(set(known)) != len(known):
        raise ValueError(f"bad cards {brief(text)}: a card appears twice")
    return tuple(cards)


def format_phh_cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if card is None else str(card) for card in cards)


class ActionKind(enum.Enum):
    """The PHH action codes."""

    DEAL_BOARD = "db"  # d db cards
    DEAL_HOLE = "dh"  # d dh pN cards
    BRING_IN = "pb"  # pN pb
    COMPLETE_BET_OR_RAISE = "cbr"  # pN cbr amount (to, for the street)
    CHECK_OR_CALL = "cc"  # pN cc
    FOLD = "f"  # pN f
    STAND_PAT_OR_DISCARD = "sd"  # pN sd [cards]
    SHOW_OR_MUCK = "sm"  # pN sm [cards | -]
    NO_OP = ""  # empty, or a commentary alone


@dataclass(frozen=True)
class Action:
    """One parsed PHH action. ``player`` counts from 0 (``p1`` is 0); for ``d dh`` it is the
    player dealt to, for ``d db`` and no-ops ``None``."""

    kind: ActionKind
    player: int | None = None
    cards: PHHCards = ()
    amount: Amount | None = None
    as_dealt: bool = False  # ``pN sm -``: shows the cards dealt
    commentary: str | None = None

    @property
    def is_dealer(self) -> bool:
        return self.kind in (ActionKind.DEAL_BOARD, ActionKind.DEAL_HOLE)

    @property
    def mucks(self) -> bool:
        """``pN sm`` with nothing after it: the player mucks."""
        return self.kind is ActionKind.SHOW_OR_MUCK and not self.cards and not self.as_dealt

    def __str__(self) -> str:
        kind = self.kind
        if kind is ActionKind.NO_OP:
            words: list[str] = []
        elif kind is ActionKind.DEAL_BOARD:
            words = ["d", "db", format_phh_cards(self.cards)]
        elif kind is ActionKind.DEAL_HOLE:
            words = ["d", "dh", f"p{(self.player or 0) + 1}", format_phh_cards(self.cards)]
        else:
            words = [f"p{(self.player or 0) + 1}", kind.value]
            if kind is ActionKind.COMPLETE_BET_OR_RAISE:
                words.append(format_number(self.amount if self.amount is not None else 0))
            elif self.as_dealt:
                words.append("-")
            elif self.cards:
                words.append(format_phh_cards(self.cards))
        if self.commentary is not None:
            words.append(f"# {self.commentary}")
        return " ".join(words)


_PLAYER = re.compile(r"p([1-9][0-9]*)")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def parse_action(text: str, players: int | None = None) -> Action:
    """Parse one PHH action (``"p1 cbr 300"``, ``"d dh p2 ????"``, ``"p3 sm -"``, ...).

    ``players``: the number of players, to reject ``p7`` in a six-handed hand. Raises
    :class:`ValueError` (a :class:`PHHError` without a location) naming what was expected."""
    if not isinstance(text, str):
        raise PHHError(f"an action is a string, got {brief(text)}")
    body, hash_mark, comment = text.partition("#")
    commentary = comment.strip() if hash_mark else None
    words = body.split()
    if not words:
        return Action(ActionKind.NO_OP, commentary=commentary)

    def player(word: str) -> int:
        match = _PLAYER.fullmatch(word)
        if match is None:
            raise PHHError(
                f"expected a player 'p1', 'p2', ... or the dealer 'd', got {brief(word)}"
            )
        number = match.group(1)
        if len(number) > 9:
            raise PHHError(f"there is no player {brief(word)}")
        index = int(number) - 1
        if players is not None and index >= players:
            raise PHHError(f"there is no player {word} in a hand of {players} players")
        return index

    def cards(word: str) -> PHHCards:
        try:
            return parse_phh_cards(word)
        except ValueError as error:
            raise PHHError(str(error)) from None

    if words[0] == "d":
        match words[1:]:
            case ["db", board]:
                dealt = cards(board)
                return Action(ActionKind.DEAL_BOARD, cards=dealt, commentary=commentary)
            case ["dh", who, hole]:
                return Action(ActionKind.DEAL_HOLE, player(who), cards(hole), commentary=commentary)
            case _:
                raise PHHError("expected a dealer action 'd db CARDS' or 'd dh pN CARDS'")
    actor = player(words[0])
    match words[1:]:
        case ["f"]:
            return Action(ActionKind.FOLD, actor, commentary=commentary)
        case ["cc"]:
            return Action(ActionKind.CHECK_OR_CALL, actor, commentary=commentary)
        case ["pb"]:
            return Action(ActionKind.BRING_IN, actor, commentary=commentary)
        case ["cbr", amount]:
            if not _NUMBER.fullmatch(amount):
                raise PHHError(f"expected a raise-to amount after 'cbr', got {brief(amount)}")
            value = _read_amount(amount)
            return Action(ActionKind.COMPLETE_BET_OR_RAISE, actor, amount=value,
                          commentary=commentary)  # fmt: skip
        case ["sd"]:
            return Action(ActionKind.STAND_PAT_OR_DISCARD, actor, commentary=commentary)
        case ["sd", discards]:
            return Action(ActionKind.STAND_PAT_OR_DISCARD, actor, cards(discards),
                          commentary=commentary)  # fmt: skip
        case ["sm"]:
            return Action(ActionKind.SHOW_OR_MUCK, actor, commentary=commentary)
        case ["sm", "-"]:
            return Action(ActionKind.SHOW_OR_MUCK, actor, as_dealt=True, commentary=commentary)
        case ["sm", shown]:
            return Action(ActionKind.SHOW_OR_MUCK, actor, cards(shown), commentary=commentary)
        case _:
            raise PHHError(
                "expected an action 'pN f', 'pN cc', 'pN cbr AMOUNT', 'pN pb', 'pN sd [CARDS]' "
                "or 'pN sm [CARDS|-]'"
            )


def _read_amount(text: str) -> Amount:
    """A raise-to amount's text, read, within the bounds of :func:`amount_problem` (int() refuses
    4,300 digits or more, Decimal an exponent of 19 digits)."""
    if len(text) > 40:
        raise PHHError(f"{_plain(text)} is too long for an amount")
    try:
        value: Amount = int(text) if text.isdigit() else Decimal(text)
    except ArithmeticError:
        raise PHHError(f"{text} is out of range for an amount") from None
    problem = amount_problem(value)
    if problem is not None:
        raise PHHError(problem)
    return value


def parse_action_cached(text: str, players: int | None) -> Action:
    """:func:`parse_action`, shared: actions repeat across hands ("p2 cc") and parsed ones are
    immutable. A plain dict, emptied when full, costs less per call than an LRU cache; long
    texts (comments) are not kept, so that the cache stays small."""
    if len(text) > 64:
        return parse_action(text, players)
    key = (text, players)
    action = _PARSED.get(key)
    if action is None:
        action = parse_action(text, players)
        if len(_PARSED) >= 1 << 14:
            _PARSED.clear()
        _PARSED[key] = action
    return action


_PARSED: dict[tuple[str, int | None], Action] = {}


def format_number(value: Amount | float) -> str:
    if isinstance(value, Decimal):
        if value.is_nan():
            return "nan"
        if value.is_infinite():
            return "inf" if value > 0 else "-inf"
        text = str(value)
        return text if any(c in text for c in ".eE") else text + ".0"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    return str(value)
