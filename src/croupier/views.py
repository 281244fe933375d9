"""What a seat, a spectator or the house sees of a hand: the one reducer over the event log.

The log (:attr:`Hand.events`) is the house's record and holds every card. A viewer is a player
(their index in deal order), :data:`SPECTATOR` (no hidden card at all) or :data:`HOUSE` (every
card; asked for by name). :class:`Reducer` folds events, one at a time, into the table as that
viewer sees it: stacks, bets, pots, cards, who folded; :func:`view` gives a frozen
:class:`HandView` of a hand for a viewer, with whose turn it is and what is legal when it is the
viewer's. Bots, the terminal, the hand-history writers and the server read hands through it;
nothing else turns events back into table state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from croupier import events as ev
from croupier.betting import Legal
from croupier.cards import Card
from croupier.events import HOUSE, SPECTATOR
from croupier.hand import Hand, Phase, Rules, Step
from croupier.pots import Pot, build_pots

__all__ = ["HOUSE", "SPECTATOR", "HandView", "Reducer", "check_viewer", "view", "visible"]


def check_viewer(viewer: object, players: int) -> int:
    """The viewer, checked: a player index, :data:`SPECTATOR` or :data:`HOUSE`."""
    if isinstance(viewer, bool) or not isinstance(viewer, int):
        raise ValueError(
            f"a viewer is a player index 0..{players - 1}, SPECTATOR or HOUSE, not {viewer!r}"
        )
    if viewer not in (SPECTATOR, HOUSE) and not 0 <= viewer < players:
        raise ValueError(f"the hand has players 0..{players - 1}, not {viewer}")
    return viewer


def visible(events: Iterable[ev.Event], viewer: int) -> list[ev.Event]:
    """The events as ``viewer`` may see them."""
    if viewer == HOUSE:
        return list(events)
    return [event.visible_to(viewer) for event in events]


@dataclass(frozen=True)
class HandView:
    """A hand as one viewer sees it at one moment; it holds no reference to the hand."""

    viewer: int
    rules: Rules
    street: int  # betting round, 0-based (-1 before the first)
    starting: tuple[int, ...]
    stacks: tuple[int, ...]  # chips behind
    bets: tuple[int, ...]  # put in this betting round
    contributed: tuple[int, ...]  # put in earlier rounds (antes that count as bets too)
    dead: int  # dead money in the main pot
    folded: tuple[bool, ...]
    mucked: tuple[bool, ...]
    hole: tuple[tuple[Card | None, ...], ...]  # face-down cards, None where not seen
    up: tuple[tuple[Card, ...], ...]  # face-up cards (stud)
    board: tuple[Card, ...]
    discarded: tuple[Card, ...]  # what the viewer threw away at the draw
    to_act: int | None
    drawing: bool
    step: Step | None  # a dealer step due
    legal: Legal | None  # what the viewer may do, when it is the viewer's turn
    over: bool
    results: tuple[ev.Announce, ...]  # the pots as announced at the end
    events: tuple[ev.Event, ...]  # the log as the viewer may see it

    @property
    def players(self) -> int:
        return len(self.stacks)

    @property
    def pot(self) -> int:
        """All chips in the middle: earlier rounds, dead money and this round's bets."""
        return sum(self.contributed) + sum(self.bets) + self.dead

    def pots(self) -> tuple[Pot, ...]:
        """The main pot and the side pots as they stand (this round's bets included)."""
        live = [not f and not m for f, m in zip(self.folded, self.mucked, strict=True)]
        total = [c + b for c, b in zip(self.contributed, self.bets, strict=True)]
        pots = list(build_pots(total, live)) if any(total) else []
        if self.dead:
            players = tuple(p for p, alive in enumerate(live) if alive)
            if pots and pots[0].eligible == players:
                pots[0] = Pot(pots[0].amount + self.dead, players)
            else:
                pots.insert(0, Pot(self.dead, players))
        return tuple(pots)

    @property
    def current_bet(self) -> int:
        """The bet to match in this round."""
        return max(self.bets, default=0)


class Reducer:
    """Folds a hand's events, one at a time, into the table as one viewer sees it. Feed it the
    events as the viewer may see them (:func:`visible`), or the house's record for the house."""

    def __init__(self, starting: Sequence[int], viewer: int = HOUSE) -> None:
        count = len(starting)
        self.viewer = viewer
        self.starting = tuple(starting)
        self.stacks = list(starting)
        self.bets = [0] * count
        self.contributed = [0] * count
        self.dead = 0
        self.folded = [False] * count
        self.mucked = [False] * count
        self.hole: list[list[Card | None]] = [[] for _ in range(count)]
        self.up: list[list[Card]] = [[] for _ in range(count)]
        self.board: list[Card] = []
        self.discarded: list[Card] = []
        self.street = -1
        self.betting = False  # a betting round is open (since its StreetStart)
        self.current = 0  # the bet to match this round
        self.results: list[ev.Announce] = []
        self.events: list[ev.Event] = []

    def feed(self, events: Iterable[ev.Event]) -> Reducer:
        for event in events:
            self.apply(event)
        return self

    def apply(self, event: ev.Event) -> None:
        self.events.append(event)
        if self.betting and not isinstance(event, _BETTING):
            self._end_round()  # the round's bets are in the pot
        if isinstance(event, ev.PostAnte | ev.PostDead):
            self.stacks[event.player] -= event.amount
            if isinstance(event, ev.PostAnte) and not event.dead:
                self.contributed[event.player] += event.amount
            else:
                self.dead += event.amount
        elif isinstance(event, ev.PostBlind | ev.BringIn | ev.Call | ev.Bet):
            self._put(event.player, event.amount)
        elif isinstance(event, ev.DealHole):
            self.hole[event.player].extend(event.cards)
        elif isinstance(event, ev.DealUp):
            self.up[event.player].extend(event.cards)
        elif isinstance(event, ev.DealBoard):
            self.board.extend(event.cards)
        elif isinstance(event, ev.Draw):
            self._draw(event)
        elif isinstance(event, ev.StreetStart):
            self.street = event.index
            self.betting = True
        elif isinstance(event, ev.Fold):
            self.folded[event.player] = True
        elif isinstance(event, ev.ReturnUncalled):
            self.contributed[event.player] -= event.amount
            self.stacks[event.player] += event.amount
        elif isinstance(event, ev.Show):
            self._show(event.player, event.cards)
        elif isinstance(event, ev.Muck):
            self.mucked[event.player] = True
        elif isinstance(event, ev.Announce):
            self.results.append(event)
        elif isinstance(event, ev.Collect):
            self.stacks[event.player] += event.amount
        elif isinstance(event, ev.HandOver):
            self.contributed = [0] * len(self.stacks)
            self.dead = 0

    def _put(self, player: int, amount: int) -> None:
        self.stacks[player] -= amount
        self.bets[player] += amount
        self.current = max(self.current, self.bets[player])

    def _end_round(self) -> None:
        for player, bet in enumerate(self.bets):
            self.contributed[player] += bet
        self.bets = [0] * len(self.bets)
        self.current = 0
        self.betting = False

    def _draw(self, event: ev.Draw) -> None:
        hole = self.hole[event.player]
        for card in event.discarded:
            if card is not None and card in hole:
                hole.remove(card)
                if event.player == self.viewer or self.viewer == HOUSE:
                    self.discarded.append(card)
            elif card is None and None in hole:
                hole.remove(None)
        hole.extend(event.drawn)

    def _show(self, player: int, cards: tuple[Card, ...]) -> None:
        shown = [card for card in cards if card not in self.up[player]]
        self.hole[player] = list(shown)

    def snapshot(
        self,
        rules: Rules,
        *,
        to_act: int | None = None,
        drawing: bool = False,
        step: Step | None = None,
        legal: Legal | None = None,
        over: bool = False,
    ) -> HandView:
        return HandView(
            viewer=self.viewer,
            rules=rules,
            street=self.street,
            starting=self.starting,
            stacks=tuple(self.stacks),
            bets=tuple(self.bets),
            contributed=tuple(self.contributed),
            dead=self.dead,
            folded=tuple(self.folded),
            mucked=tuple(self.mucked),
            hole=tuple(tuple(cards) for cards in self.hole),
            up=tuple(tuple(cards) for cards in self.up),
            board=tuple(self.board),
            discarded=tuple(self.discarded),
            to_act=to_act,
            drawing=drawing,
            step=step,
            legal=legal,
            over=over,
            results=tuple(self.results),
            events=tuple(self.events),
        )


_BETTING: Final = (ev.Fold, ev.Check, ev.Call, ev.Bet, ev.BringIn)


def view(hand: Hand, viewer: int) -> HandView:
    """``hand`` as ``viewer`` sees it now: a player index, :data:`SPECTATOR` or :data:`HOUSE`.
    What is legal is given to the player whose turn it is (and to the house)."""
    viewer = check_viewer(viewer, hand.players)
    reducer = Reducer(hand.starting, viewer).feed(visible(hand.events, viewer))
    over = hand.phase is Phase.OVER
    to_act = None if over else hand.to_act
    betting = hand.phase is Phase.BETTING and to_act is not None
    legal = hand.legal() if betting and viewer in (to_act, HOUSE) else None
    return reducer.snapshot(
        hand.rules, to_act=to_act, drawing=hand.drawing, step=hand.next_step(), legal=legal,
        over=over,
    )  # fmt: skip
