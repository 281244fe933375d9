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

__all__ = [
    "HOUSE", "SPECTATOR", "HandView", "Reducer", "SeatLogs", "catch_up", "check_viewer", "merge",
    "seat_fields", "view", "visible",
]  # fmt: skip


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
        self.dead_paid = [0] * count  # each player's share of ``dead`` (a refund returns it)
        self.held = [0] * count  # chips in front of a player who acted out of turn
        self.behind = [0] * count  # chips kept back by a player treated as all-in

    def feed(self, events: Iterable[ev.Event]) -> Reducer:
        for event in events:
            self.apply(event)
        return self

    def apply(self, event: ev.Event) -> None:
        self.events.append(event)
        # Classes in tuples, not unions: compiled, an isinstance of a union (A | B) builds the
        # union and asks Python, one of a tuple of compiled classes compares type pointers.
        if self.betting and isinstance(event, (ev.RoundEnd, ev.HandOver)):
            self._end_round()  # the round's bets are in the pot
        if isinstance(event, ev.PotCarried):
            self.dead += event.amount
        elif isinstance(event, (ev.PostAnte, ev.PostDead)):
            self.stacks[event.player] -= event.amount
            if isinstance(event, ev.PostAnte) and not event.dead:
                self.contributed[event.player] += event.amount
            else:
                self.dead += event.amount
                self.dead_paid[event.player] += event.amount
        elif isinstance(event, (ev.Call, ev.Bet, ev.PostBlind, ev.BringIn)):
            self._put(event.player, event.amount)
        elif isinstance(event, ev.DealHole):
            if not self.folded[event.player]:  # a folded seat's card goes to the muck (au 19.12)
                self.hole[event.player].extend(event.cards)
        elif isinstance(event, ev.DealUp):
            if not self.folded[event.player]:
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
            self.stacks = list(event.stacks)  # chips kept back or held come home
        elif isinstance(event, _CORRECTIONS):
            self._correct(event)

    def _correct(self, event: ev.Event) -> None:
        """The events of a ruling's corrections (croupier.corrections), as the engine applies
        them."""
        if isinstance(event, ev.CardGiven):
            if not self.folded[event.player]:  # a folded seat's card goes to the muck
                if event.up and event.card is not None:
                    self.up[event.player].append(event.card)
                else:
                    self.hole[event.player].append(event.card)
        elif isinstance(event, ev.BoardAdded):
            self.board.extend(event.cards)
        elif isinstance(event, ev.StubReshuffled):
            self.board = [card for card in self.board if card not in event.returned]
        elif isinstance(event, (ev.SetAside, ev.Discarded)):
            self._take(event.card, event.player)
        elif isinstance(event, ev.Restacked):
            owners = event.owners or (-1,) * len(event.cards)
            for card, owner in zip(event.cards, owners, strict=True):
                self._take(card, owner)
        elif isinstance(event, ev.Exposed):
            hole = self.hole[event.player] if event.player >= 0 else []
            if event.card is not None and event.card not in hole and None in hole:
                hole[hole.index(None)] = event.card  # an unseen card, named as it is seen
        elif isinstance(event, ev.HandVoided):
            for player, amount in enumerate(event.returned):
                self.stacks[player] += amount
            self._empty_middle()
        elif isinstance(event, ev.HandKilled):
            player = event.player
            self.folded[player] = True
            if event.refund:
                self.stacks[player] += event.refunded
                self.dead -= self.dead_paid[player]
                self.contributed[player] = self.bets[player] = self.dead_paid[player] = 0
                self.held[player] = 0
        elif isinstance(event, ev.Revived):
            self.folded[event.player] = self.mucked[event.player] = False
        elif isinstance(event, ev.PotsAwarded):
            self._award(event)
        elif isinstance(event, ev.ActionVoided):
            self._void(event.index)
        elif isinstance(event, ev.ActionHeld):
            self.stacks[event.player] -= event.amount
            self.held[event.player] = event.amount
        elif isinstance(event, ev.HeldResolved):
            self.held[event.player] = 0
            if event.how == "forfeit":
                self.dead += event.amount
                self.dead_paid[event.player] += event.amount
            else:
                self.stacks[event.player] += event.amount
        elif isinstance(event, ev.TreatedAllIn):
            self.behind[event.player] += self.stacks[event.player]
            self.stacks[event.player] = 0
        elif isinstance(event, ev.WagerCorrected):
            if self.held[event.player]:
                self.held[event.player] += event.delta
            else:
                self.bets[event.player] = event.to
                self.current = max(self.current, event.to)
            self.stacks[event.player] -= event.delta

    def _take(self, card: Card | None, player: int) -> None:
        """A card moved by a ruling out of wherever it lay, as far as the viewer can tell: a
        card it did not see leaves ``player``'s hand, or nothing it can see."""
        holes = [self.hole[player]] if player >= 0 else []
        if card is None:
            for hole in holes:
                if None in hole:
                    hole.remove(None)
            return
        for hole in [*holes, *self.hole]:
            if card in hole:
                hole.remove(card)
                return
        for place in [*self.up, self.board]:
            if card in place:
                place.remove(card)
                return

    def _award(self, event: ev.PotsAwarded) -> None:
        if event.uncontested:  # the chips above the highest live contribution
            live = [p for p, out in enumerate(self.folded) if not out and not self.mucked[p]]
            top = max(self.contributed[p] + self.bets[p] for p in live)
            self.contributed = [min(c, top) for c in self.contributed]
            self.stacks[event.player] += event.amount
            return
        for player, held in enumerate(self.held):  # held chips go back first
            self.stacks[player] += held
        self.held = [0] * len(self.held)
        self._empty_middle()  # the announcement and collection that follow pay it

    def _void(self, index: int) -> None:
        """The betting action at log ``index`` undone: the hand as the log left it before."""
        before = Reducer(self.starting, self.viewer).feed(self.events[:index])
        self.stacks, self.bets, self.contributed = before.stacks, before.bets, before.contributed
        self.dead, self.folded, self.mucked = before.dead, before.folded, before.mucked
        self.hole, self.up, self.board = before.hole, before.up, before.board
        self.discarded, self.street, self.betting = before.discarded, before.street, before.betting
        self.current, self.results = before.current, before.results
        self.dead_paid, self.held, self.behind = before.dead_paid, before.held, before.behind

    def _empty_middle(self) -> None:
        count = len(self.stacks)
        self.contributed, self.bets, self.dead_paid = [0] * count, [0] * count, [0] * count
        self.held = [0] * count
        self.dead = 0
        self.current = 0

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


_CORRECTIONS: Final = (
    ev.CardGiven, ev.BoardAdded, ev.StubReshuffled, ev.SetAside, ev.Discarded, ev.Restacked,
    ev.Exposed,
    ev.HandVoided, ev.HandKilled, ev.Revived, ev.PotsAwarded, ev.ActionVoided, ev.ActionHeld,
    ev.HeldResolved, ev.TreatedAllIn, ev.WagerCorrected,
)  # fmt: skip


class SeatLogs:
    """A hand's log as each player may see it, kept event by event for views that are asked
    for often (a bot's at each of its turns): every event is turned into what a spectator sees
    once (:attr:`public`), and each player's own versions of the events a spectator does not
    see in full (its hole cards, its draws) are kept apart (:meth:`own`). A player's log is the
    public one with its own versions in their places (:func:`merge`); neither part holds a card
    the player may not see."""

    def __init__(self) -> None:
        self.public: list[ev.Event] = []
        self._hidden: list[tuple[int, ev.Event]] = []  # (index, event) not public as it is
        self._own: dict[int, list[tuple[int, ev.Event]]] = {}
        self._scanned: dict[int, int] = {}  # hidden events each player's versions cover
        self._reducers: dict[int, list[Reducer]] = {}

    def update(self, events: Sequence[ev.Event]) -> None:
        """Take the log's new events (``events`` is the whole log so far)."""
        public, hidden = self.public, self._hidden
        for index in range(len(public), len(events)):
            event = events[index]
            seen = event.visible_to(SPECTATOR)
            public.append(seen)
            if seen is not event:
                hidden.append((index, event))

    def own(self, player: int) -> tuple[tuple[int, ev.Event], ...]:
        """``player``'s versions of the events the spectator sees otherwise, with their
        indices: those it sees in full (its own cards), and a :class:`~croupier.events.
        Restacked` (which shows each player the cards that were theirs)."""
        own = self._own.get(player)
        if own is None:
            own = self._own[player] = []
        start = self._scanned.get(player, 0)
        hidden = self._hidden
        for index, event in hidden[start:]:
            seen = event.visible_to(player)
            if seen is event or isinstance(event, ev.Restacked):
                own.append((index, seen))
        self._scanned[player] = len(hidden)
        return tuple(own)

    def reducer(self, player: int) -> list[Reducer]:
        """Where ``player``'s views keep a reducer to catch up with (:func:`catch_up`; empty
        until a view is first read), so that views read turn after turn fold each event once.
        It only ever holds what ``player`` may see."""
        kept = self._reducers.get(player)
        if kept is None:
            kept = self._reducers[player] = []
        return kept


def catch_up(
    kept: list[Reducer],
    starting: Sequence[int],
    player: int,
    public: Sequence[ev.Event],
    own: Sequence[tuple[int, ev.Event]],
) -> Reducer:
    """``player``'s reducer kept in ``kept`` (from :meth:`SeatLogs.reducer`; made when there is
    none) fed up to the end of the log made of ``public`` and ``own``; a new one when the kept
    one is already past that point (a view read after a later turn's)."""
    if not kept:
        kept.append(Reducer(starting, player))
    reducer = kept[0]
    done, count = len(reducer.events), len(public)
    if done > count:
        return Reducer(starting, player).feed(merge(public, own))
    if done < count:
        mine = {index: event for index, event in own if index >= done}
        for index in range(done, count):
            event = mine.get(index)
            reducer.apply(public[index] if event is None else event)
    return reducer


def seat_fields(reducer: Reducer, player: int) -> tuple[object, ...]:
    """What :class:`croupier.bots.SeatView` holds past its player, rules, whose turn and
    whether drawing, from ``player``'s reducer, as :meth:`SeatView.from_view` takes them from
    its snapshot: street, hole (the player's own face-down cards), up, board, discarded,
    stacks, bets, pot, folded, events."""
    hole = tuple([card for card in reducer.hole[player] if card is not None])
    bets = tuple(reducer.bets)
    return (
        reducer.street,
        hole,
        tuple([tuple(cards) for cards in reducer.up]),
        tuple(reducer.board),
        tuple(reducer.discarded),
        tuple(reducer.stacks),
        bets,
        sum(reducer.contributed) + sum(bets) + reducer.dead,
        tuple(reducer.folded),
        tuple(reducer.events),
    )


def merge(public: Sequence[ev.Event], own: Iterable[tuple[int, ev.Event]]) -> tuple[ev.Event, ...]:
    """A player's log from :class:`SeatLogs`' parts."""
    events = list(public)
    for index, event in own:
        events[index] = event
    return tuple(events)


def view(hand: Hand, viewer: object) -> HandView:
    """``hand`` as ``viewer`` sees it now: a player index, :data:`SPECTATOR` or :data:`HOUSE`.
    What is legal is given to the player whose turn it is (and to the house). (``viewer`` is
    typed ``object`` so that the compiled module refuses a wrong one with the same error as
    the pure-Python one.)"""
    seer = check_viewer(viewer, hand.players)
    reducer = Reducer(hand.starting, seer).feed(visible(hand.events, seer))
    over = hand.over
    to_act = None if over else hand.to_act
    betting = hand.phase is Phase.BETTING and to_act is not None
    legal = hand.legal() if betting and seer in (to_act, HOUSE) else None
    return reducer.snapshot(
        hand.rules, to_act=to_act, drawing=hand.drawing, step=hand.next_step(), legal=legal,
        over=over,
    )  # fmt: skip
