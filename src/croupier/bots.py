"""Computer players: what a seat may see, what it may do, and three simple ways to decide.

A bot is handed a :class:`SeatView` (its own cards, the cards face up, the board, the chips and
the events as that seat may see them) and the :class:`~croupier.betting.Legal` choices, and
answers with an :class:`Action`. It never holds the hand itself, so it cannot look at another
player's hole cards, the burns or the stub: the view is built from the events as
``event.visible_to(player)`` shows them, plus the public chip counts.

Bots hold no rules of their own: every action they return is checked by the hand engine when it
is applied (:meth:`Action.apply`). Randomness comes only from the ``rng`` passed in, so a seeded
game replays exactly.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from croupier import events as ev
from croupier.betting import IllegalAction, Legal
from croupier.cards import Card, format_cards
from croupier.evaluate import Category, Ranking, evaluate, evaluate_many
from croupier.hand import Hand, Rules
from croupier.views import HandView, Reducer, catch_up, seat_fields, view

__all__ = [
    "Action",
    "ActionKind",
    "Bot",
    "CallingStation",
    "RandomBot",
    "SeatView",
    "StrengthBot",
    "decide",
    "equity",
    "must_open",
    "play_hand",
]


# --- what a seat may see ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatView:
    """Everything one player may know at a moment of the hand, and nothing more.

    Players are numbered in deal order, as in :class:`~croupier.hand.Hand`. Build it with
    :meth:`of`; it keeps no reference to the hand.
    """

    player: int  # whose view this is
    rules: Rules
    street: int  # betting round, 0-based
    hole: tuple[Card, ...]  # this player's face-down cards
    up: tuple[tuple[Card, ...], ...]  # every player's face-up cards (stud)
    board: tuple[Card, ...]  # community cards
    discarded: tuple[Card, ...]  # cards this player threw away at the draw
    stacks: tuple[int, ...]  # chips behind, per player
    bets: tuple[int, ...]  # chips put in this betting round, per player
    pot: int  # all chips in the middle, this round's bets included
    folded: tuple[bool, ...]
    to_act: int | None
    drawing: bool  # players are drawing (draw poker) rather than betting
    events: tuple[ev.Event, ...]  # the hand's log as this player may see it

    @classmethod
    def of(cls, hand: Hand, player: int) -> SeatView:
        """The view of ``player``: cards only from the events as they are visible to it."""
        if not 0 <= player < hand.players:
            raise ValueError(f"the hand has players 0..{hand.players - 1}, not {player}")
        return cls.from_view(view(hand, player))

    @classmethod
    def from_view(cls, seen: HandView) -> SeatView:
        """A player's :class:`~croupier.views.HandView`, as a bot reads it."""
        player = seen.viewer
        return cls(
            player=player,
            rules=seen.rules,
            street=seen.street,
            hole=tuple(card for card in seen.hole[player] if card is not None),
            up=seen.up,
            board=seen.board,
            discarded=seen.discarded,
            stacks=seen.stacks,
            bets=seen.bets,
            pot=seen.pot,
            folded=seen.folded,
            to_act=seen.to_act,
            drawing=seen.drawing,
            events=seen.events,
        )

    @classmethod
    def from_log(
        cls,
        player: int,
        rules: Rules,
        starting: Sequence[int],
        public: Sequence[ev.Event],
        own: Sequence[tuple[int, ev.Event]],
        *,
        to_act: int | None,
        drawing: bool,
        reducer: list[Reducer] | None = None,
    ) -> SeatView:
        """The view of ``player`` from its log in two parts
        (:class:`~croupier.views.SeatLogs`): the log as a spectator sees it, and the player's
        own versions of the events it sees in full. The fields past ``player``, ``rules``,
        ``to_act`` and ``drawing`` are worked out when one is first read (most bots read none
        of them), from these parts alone: like every view, it holds no reference to the
        hand. ``reducer``: the player's own reducer to catch up with
        (:meth:`croupier.views.SeatLogs.reducer`), so that a view read at each turn folds each
        event once."""
        return _LogView(
            player, rules, tuple(starting), tuple(public), tuple(own), to_act, drawing,
            [] if reducer is None else reducer,
        )  # fmt: skip

    @property
    def players(self) -> int:
        return len(self.stacks)

    @property
    def cards(self) -> tuple[Card, ...]:
        """This player's own cards, face down then face up."""
        return self.hole + self.up[self.player]

    @property
    def opponents(self) -> tuple[int, ...]:
        """The other players still in the hand."""
        return tuple(p for p in range(self.players) if p != self.player and not self.folded[p])

    @property
    def ranking(self) -> Ranking:
        return self.rules.game.ranking_for(self.rules.deck)

    @property
    def current_bet(self) -> int:
        """The bet to match in this round."""
        return max(self.bets, default=0)


class _LogView(SeatView):
    """A :class:`SeatView` that holds its player's log and works its fields out from it, with
    the reducer every view uses, when the first is read."""

    def __init__(
        self,
        player: int,
        rules: Rules,
        starting: tuple[int, ...],
        public: tuple[ev.Event, ...],
        own: tuple[tuple[int, ev.Event], ...],
        to_act: int | None,
        drawing: bool,
        kept: list[Reducer],
    ) -> None:
        values = self.__dict__  # frozen: set once, here
        values["player"], values["rules"] = player, rules
        values["to_act"], values["drawing"] = to_act, drawing
        values["_log"] = (starting, public, own, kept)

    def __getattr__(self, name: str) -> Any:  # only for the fields not yet worked out
        log = self.__dict__.get("_log")
        if log is None or name.startswith("_"):
            raise AttributeError(name)
        starting, public, own, kept = log
        seen = catch_up(kept, starting, self.player, public, own)
        values = self.__dict__  # as SeatView.from_view would set them from seen.snapshot()
        values.update(zip(_WORKED_OUT, seat_fields(seen, self.player), strict=True))
        del values["_log"]
        return object.__getattribute__(self, name)


_WORKED_OUT = (
    "street", "hole", "up", "board", "discarded", "stacks", "bets", "pot", "folded", "events"
)  # fmt: skip


# --- what a seat may do ----------------------------------------------------------------------


class ActionKind(enum.Enum):
    FOLD = "fold"
    CHECK_OR_CALL = "check-or-call"
    BET_OR_RAISE = "bet-or-raise"
    DRAW = "draw"
    BRING_IN = "bring-in"


@dataclass(frozen=True)
class Action:
    """One decision of a player. Build with the class methods; :meth:`apply` it to the hand,
    which checks it and raises :class:`~croupier.betting.IllegalAction` naming the rule."""

    kind: ActionKind
    amount: int | None = None  # bet or raise to this total for the round
    cards: tuple[Card, ...] = ()  # discards (none: stand pat)

    @classmethod
    def fold(cls) -> Action:
        return _FOLD if cls is Action else cls(ActionKind.FOLD)

    @classmethod
    def check_or_call(cls) -> Action:
        return _CHECK_OR_CALL if cls is Action else cls(ActionKind.CHECK_OR_CALL)

    @classmethod
    def bet_or_raise_to(cls, amount: int) -> Action:
        return cls(ActionKind.BET_OR_RAISE, amount)

    @classmethod
    def draw(cls, cards: Iterable[Card] = ()) -> Action:
        return cls(
            ActionKind.DRAW,
            cards=tuple(card if type(card) is Card else Card(card) for card in cards),
        )

    @classmethod
    def bring_in(cls) -> Action:
        """The stud opener posts the bring-in rather than a full bet (cardroom betting 16)."""
        return cls(ActionKind.BRING_IN)

    def apply(self, hand: Hand) -> None:
        if self.kind is ActionKind.FOLD:
            hand.fold()
        elif self.kind is ActionKind.CHECK_OR_CALL:
            hand.check_or_call()
        elif self.kind is ActionKind.BET_OR_RAISE:
            assert self.amount is not None
            hand.bet_or_raise_to(self.amount)
        elif self.kind is ActionKind.BRING_IN:
            hand.post_bring_in()
        else:
            hand.draw(self.cards)

    def __str__(self) -> str:
        if self.kind is ActionKind.BET_OR_RAISE:
            return f"bet or raise to {self.amount}"
        if self.kind is ActionKind.DRAW:
            return f"draw, discarding {format_cards(self.cards)}" if self.cards else "stand pat"
        return str(self.kind.value).replace("-", " ")

    def __repr__(self) -> str:
        if self.kind is ActionKind.BET_OR_RAISE:
            return f"Action.bet_or_raise_to({self.amount!r})"
        if self.kind is ActionKind.DRAW:
            return f"Action.draw(parse_cards({format_cards(self.cards)!r}))"
        return f"Action.{self.kind.name.lower()}()"


_FOLD = Action(ActionKind.FOLD)  # actions are immutable: these two serve every bot
_CHECK_OR_CALL = Action(ActionKind.CHECK_OR_CALL)


def must_open(legal: Legal) -> bool:
    """Whether the player must bet (a stud opener, au 12.2(a)): no check, nothing to call."""
    return not legal.can_check and legal.call == 0


# --- bots ------------------------------------------------------------------------------------


class Bot(Protocol):
    """A computer player. Both methods see only what the seat may see."""

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        """A betting decision among ``legal``."""
        ...

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        """Which cards to discard at the draw (an :meth:`Action.draw`)."""
        ...


def decide(bot: Bot, hand: Hand, rng: random.Random) -> Action:
    """Ask ``bot`` for the decision of the player to act, showing it only that seat's view."""
    if hand.over or hand.to_act is None:
        raise IllegalAction("the hand is over: nobody is to act")
    view = SeatView.of(hand, hand.to_act)
    if hand.drawing:
        return bot.draw(view, rng)
    return bot.act(view, hand.legal(), rng)


def play_hand(hand: Hand, bots: Sequence[Bot], rng: random.Random) -> None:
    """Play ``hand`` to the end with ``bots[player]`` deciding for each player."""
    while not hand.over:
        assert hand.to_act is not None
        decide(bots[hand.to_act], hand, rng).apply(hand)


class CallingStation:
    """Checks or calls whatever the bet; opens for the minimum when it must; never draws."""

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        if must_open(legal) and legal.raise_range is not None:
            return Action.bet_or_raise_to(legal.raise_range[0])
        return Action.check_or_call()

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw()

    def __repr__(self) -> str:
        return "CallingStation()"


class RandomBot:
    """Picks uniformly among the kinds of action allowed (fold, check or call, bet or raise),
    then a random amount: the minimum, the maximum or anything between, equally often."""

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        kinds: list[ActionKind] = []
        if legal.can_fold:
            kinds.append(ActionKind.FOLD)
        if not must_open(legal):
            kinds.append(ActionKind.CHECK_OR_CALL)
        if legal.raise_range is not None:
            kinds.append(ActionKind.BET_OR_RAISE)
        kind = rng.choice(kinds) if kinds else ActionKind.CHECK_OR_CALL
        if kind is ActionKind.BET_OR_RAISE:
            assert legal.raise_range is not None
            low, high = legal.raise_range
            return Action.bet_or_raise_to(
                rng.choice((low, high, legal.snap(rng.randint(low, high))))
            )
        return _FOLD if kind is ActionKind.FOLD else _CHECK_OR_CALL

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw(rng.sample(view.hole, rng.randint(0, len(view.hole))))

    def __repr__(self) -> str:
        return "RandomBot()"


class StrengthBot:
    """Plays by hand strength: its equity (Monte Carlo, against random cards for every live
    opponent, given all the cards it can see) decides.

    - strong (equity at least ``raise_at`` of the way from a fair share to certainty): bets or
      raises about ``sizing`` of the pot, else calls;
    - medium (equity covers the price of a call, plus ``call_margin``): checks or calls;
    - weak: checks if it can, else folds.

    Deterministic given the ``rng``.
    """

    def __init__(
        self,
        trials: int = 200,
        *,
        raise_at: float = 0.35,
        call_margin: float = 0.05,
        sizing: float = 0.75,
    ) -> None:
        self.trials = trials
        self.raise_at = raise_at
        self.call_margin = call_margin
        self.sizing = sizing

    def __repr__(self) -> str:
        return (
            f"StrengthBot({self.trials!r}, raise_at={self.raise_at!r}, "
            f"call_margin={self.call_margin!r}, sizing={self.sizing!r})"
        )

    def act(self, view: SeatView, legal: Legal, rng: random.Random) -> Action:
        share = equity(view, self.trials, rng)
        fair = 1 / (len(view.opponents) + 1)
        strong = share >= fair + (1 - fair) * self.raise_at
        if legal.raise_range is not None and (strong or must_open(legal)):
            if not strong:
                return Action.bet_or_raise_to(legal.raise_range[0])
            after_call = view.pot + legal.call
            wanted = view.current_bet + round(after_call * self.sizing)
            return Action.bet_or_raise_to(legal.snap(wanted))
        if legal.can_check or strong:
            return Action.check_or_call()
        price = legal.call / (view.pot + legal.call)
        if share >= price + self.call_margin or not legal.can_fold:
            return Action.check_or_call()
        return Action.fold()

    def draw(self, view: SeatView, rng: random.Random) -> Action:
        return Action.draw(_discards(view.hole, view.ranking))


def _discards(cards: Sequence[Card], ranking: Ranking) -> list[Card]:
    """A plain draw: stand pat on a straight or better, draw to four of a suit, keep pairs and
    better, else keep the highest card."""
    if not 5 <= len(cards) <= 7:
        return []
    made = evaluate(cards, ranking).category
    if made in _PAT:
        return []
    suits = Counter(card.suit for card in cards)
    suit, count = suits.most_common(1)[0]
    if count == len(cards) - 1:
        return [card for card in cards if card.suit != suit]
    ranks = Counter(card.rank for card in cards)
    if max(ranks.values()) >= 2:
        return [card for card in cards if ranks[card.rank] == 1]
    highest = max(cards)
    return [card for card in cards if card != highest]


_PAT = {
    Category.STRAIGHT,
    Category.FLUSH,
    Category.FULL_HOUSE,
    Category.FOUR_OF_A_KIND,
    Category.STRAIGHT_FLUSH,
    Category.ROYAL_FLUSH,
}


# --- equity ----------------------------------------------------------------------------------


def equity(view: SeatView, trials: int, rng: random.Random) -> float:
    """The share of the pot ``view.player`` wins on average against random cards for every
    live opponent, dealing out the rest of the hand ``trials`` times from the unseen cards.

    Only the cards the view holds are known: its own, everyone's face-up cards and the board
    (and its own discards, which are out of play). Deterministic given ``rng``.
    """
    opponents = len(view.opponents)
    if opponents == 0:
        return 1.0
    game = view.rules.game
    private_total = sum(street.hole + street.up for street in game.streets)
    board_total = sum(street.board for street in game.streets)
    # A stud deal that ran short gives one community card for all (au 12.4(a)).
    extra = max(0, len(view.board) - board_total)
    board_target = board_total + extra
    private_target = max(private_total - extra, len(view.cards))
    known = set(view.cards) | set(view.board) | set(view.discarded)
    known.update(card for cards in view.up for card in cards)
    pool = np.array([c for c in view.rules.deck.cards if c not in known], dtype=np.uint8)
    mine_missing = private_target - len(view.cards)
    board_missing = board_target - len(view.board)
    missing = [max(0, private_target - len(view.up[p])) for p in view.opponents]
    # With too few unseen cards to deal everyone out, simulate fewer opponents.
    while missing and mine_missing + board_missing + sum(missing) > len(pool):
        missing.pop()
    if not missing or private_target + board_target < 5:
        return 1 / (opponents + 1)
    needed = mine_missing + board_missing + sum(missing)
    generator = np.random.default_rng(rng.getrandbits(64))
    order = np.argsort(generator.random((trials, len(pool))), axis=1)[:, :needed]
    dealt = pool[order]
    board = _with_known(view.board, dealt[:, :board_missing])
    at = board_missing
    mine = _with_known(view.cards, dealt[:, at : at + mine_missing])
    at += mine_missing
    ranking, used = view.ranking, game.hole_cards_used
    best_mine = _values(mine, board, ranking, used)
    best_other = np.full(trials, -1, dtype=np.int64)
    tied = np.zeros(trials, dtype=np.int64)
    for player, count in zip(view.opponents, missing, strict=False):
        theirs = _with_known(view.up[player], dealt[:, at : at + count])
        at += count
        values = _values(theirs, board, ranking, used)
        tied = np.where(values > best_other, 1, tied + (values == best_other))
        best_other = np.maximum(best_other, values)
    won = best_mine > best_other
    split = (best_mine == best_other) / (tied + 1)  # shared with every opponent tied for best
    return float(np.mean(won + split))


def _with_known(known: Sequence[Card], dealt: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    fixed = np.broadcast_to(np.array(known, dtype=np.uint8), (len(dealt), len(known)))
    return np.concatenate([fixed, dealt], axis=1)


def _values(
    private: npt.NDArray[np.uint8],
    board: npt.NDArray[np.uint8],
    ranking: Ranking,
    hole_cards_used: int | None,
) -> npt.NDArray[np.int64]:
    """The best hand value per row of private cards and board."""
    rows, size, shared = len(private), private.shape[1], board.shape[1]
    if hole_cards_used is not None and shared:
        hands = [
            (*hole, *(size + i for i in common))
            for hole in itertools.combinations(range(size), hole_cards_used)
            for common in itertools.combinations(range(shared), 5 - hole_cards_used)
        ]
    elif size + shared <= 7:
        hands = [tuple(range(size + shared))]
    else:
        hands = list(itertools.combinations(range(size + shared), 5))
    cards = np.concatenate([private, board], axis=1)
    picked = cards[:, np.array(hands, dtype=np.intp)]  # rows x hands x cards
    flat = np.ascontiguousarray(picked.reshape(rows * len(hands), -1))
    values = evaluate_many(flat, ranking, threads=1).astype(np.int64)
    best: npt.NDArray[np.int64] = values.reshape(rows, len(hands)).max(axis=1)
    return best
