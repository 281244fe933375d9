"""A hand rebuilt from its event log: crash recovery, audits, copies and a step back.

The log is the record (docs/engine.md). :func:`rebuild` makes a new hand from the rules, the
starting stacks, the forced bets and the events, applying each event that was an operation (a
player's action, a card dealt, a hand shown or mucked) through the same checked operations, and
checking that every event the engine makes by itself (forced bets, uncalled bets, pots) comes out
the same. A log that the rules do not allow is a :class:`RebuildError` naming the event.

:func:`copy_hand` is a rebuild of the whole log with the same stub; :func:`step_back` leaves the
last operation out, for a dealer who mistyped an entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.cards import Card
from croupier.deck import Deck, Shuffler
from croupier.forced import ForcedBets
from croupier.hand import Hand, Phase, Rules, StepKind

__all__ = ["OPERATIONS", "RebuildError", "copy_hand", "deck_for", "rebuild", "step_back"]


class RebuildError(ValueError):
    """An event log the hand cannot be rebuilt from; names the event and why."""


CORRECTIONS = (
    ev.RulingMade, ev.Exposed, ev.SetAside, ev.Restacked, ev.Discarded, ev.HandVoided,
    ev.HandKilled, ev.Revived, ev.PotsAwarded, ev.RoundCapped, ev.ActionVoided, ev.ActionHeld,
    ev.HeldResolved, ev.Restricted, ev.TreatedAllIn, ev.WagerCorrected, ev.CardGiven,
    ev.ExtraBurn, ev.BoardAdded, ev.StubReshuffled,
)  # fmt: skip
"""The events of a ruling's corrections (croupier.corrections), each one operation."""

OPERATIONS = (
    ev.DealHole, ev.DealUp, ev.Burn, ev.DealBoard, ev.Draw, ev.Discards,
    ev.Fold, ev.Check, ev.Call, ev.Bet, ev.BringIn, ev.Show, ev.Muck, *CORRECTIONS,
)  # fmt: skip
"""The events that record an operation; the others are what the engine made of them."""


def rebuild(
    rules: Rules,
    stacks: Sequence[int],
    events: Sequence[ev.Event],
    *,
    forced: ForcedBets | None = None,
    over_blind: bool = False,
    deck: Deck | None = None,
    shuffler: Shuffler | None = None,
    auto_deal: bool = False,
    auto_show: bool = False,
    openers: Mapping[int, int] | None = None,
    auto_push: bool = False,
) -> Hand:
    """The hand the events describe, in exactly the state they leave it. ``deck``: the order
    the original hand dealt from, so that the stub left is the same (default: any order; the
    dealt cards are taken out of it). A hidden card (``None``) is rebuilt as a card nobody saw.
    ``auto_deal``/``auto_show``/``auto_push``: how the rebuilt hand carries on from there;
    ``openers``: who opens the rounds whose opener unnamed up cards hide (see
    :class:`~croupier.hand.Hand`). Rulings and their corrections (croupier.corrections) are
    replayed like any operation."""
    try:
        hand = Hand(
            rules, stacks, deck if deck is not None else Deck.ordered(rules.deck),
            forced=forced, shuffler=shuffler, over_blind=over_blind,
            auto_deal=False, auto_show=False, auto_push=False, openers=openers,
        )  # fmt: skip
    except IllegalAction as error:
        raise RebuildError(f"the hand cannot start: {error}") from None
    _Replayer(hand, events).run()
    if auto_deal or auto_show or auto_push:
        hand.automate(deal=auto_deal, show=auto_show, push=auto_push)
    return hand


class _Replayer:
    def __init__(self, hand: Hand, events: Sequence[ev.Event]) -> None:
        self.hand = hand
        self.events = list(events)

    def run(self) -> None:
        hand, events = self.hand, self.events
        i = 0
        while i < len(events):
            event = events[i]
            made = len(hand.events)
            if i < made:  # the engine made this one by itself: it must be the same
                if hand.events[i] != event:
                    raise self._error(i, f"the engine made {hand.events[i]} here")
                i += 1
                continue
            at = i
            step = hand.next_step()
            if step is not None and step.kind is StepKind.PUSH and isinstance(event, _SETTLED):
                hand.push()  # the pots were settled here
                continue
            if isinstance(event, ev.Reshuffle):
                # A draw the stub cannot finish reshuffles first: the draw makes this event.
                draws = (
                    k for k in range(i + 1, len(events))
                    if isinstance(events[k], ev.Draw | ev.Discards)
                )  # fmt: skip
                at = next(draws, i)
            if not isinstance(events[at], OPERATIONS):
                raise self._error(i, "the engine did not make it here")
            try:
                after = self._apply(at, events[at])
            except IllegalAction as error:
                raise self._error(at, str(error)) from None
            i = i if at > i else after
        if len(hand.events) != len(events):
            extra = hand.events[len(events)]
            raise RebuildError(f"the log ends where the engine goes on with {extra}")
        for k, event in enumerate(events):
            if isinstance(event, ev.RulingMade) and hand.events[k] != event:
                raise self._error(k, f"the ruling was recorded as {hand.events[k]}")

    def _error(self, index: int, why: str) -> RebuildError:
        return RebuildError(f"event {index} ({self.events[index]}): {why}")

    def _apply(self, i: int, event: ev.Event) -> int:
        """Apply the operation ``event`` records; the index of the next event to read."""
        hand = self.hand
        if isinstance(event, ev.DealHole | ev.DealUp):
            return self._deal(i, event.player)
        if isinstance(event, CORRECTIONS):
            _correct(hand, event)
        elif isinstance(event, ev.Burn):
            hand.burn(event.card)
        elif isinstance(event, ev.DealBoard):
            hand.deal_board(event.cards)
        elif isinstance(event, ev.Discards):
            hand.draw(event.cards)  # the replacements wait for the dealer
        elif isinstance(event, ev.Draw):
            step = hand.next_step()
            if step is None or step.kind is not StepKind.REPLACE or step.player != event.player:
                hand.draw(event.discarded)
            if event.drawn:
                hand.deal_hole(event.drawn, event.player)
        elif isinstance(event, ev.Show | ev.Muck):
            cards: Sequence[Card] = event.cards if isinstance(event, ev.Show) else ()
            hand.show_or_muck(isinstance(event, ev.Show), cards, player=event.player)
        else:
            self._act(event)
        return i + 1

    def _deal(self, i: int, player: int) -> int:
        """A player's cards of a street: the face-down ones, then any face-up ones, are one
        step."""
        events = self.events
        cards: list[Card | None] = []
        j = i
        while j < len(events):
            event = events[j]
            if not isinstance(event, ev.DealHole | ev.DealUp) or event.player != player:
                break
            cards.extend(event.cards)
            j += 1
            if isinstance(event, ev.DealUp):
                break
        self.hand.deal_hole(cards, player)
        return j

    def _act(self, event: ev.Event) -> None:
        hand = self.hand
        player = getattr(event, "player", None)
        if hand.phase is not Phase.BETTING or hand.to_act != player:
            who = "nobody" if hand.to_act is None else f"p{hand.to_act + 1}"
            raise IllegalAction(f"p{(player or 0) + 1} acts out of turn: {who} is to act")
        if isinstance(event, ev.Fold):
            hand.fold()
        elif isinstance(event, ev.Check | ev.Call):
            hand.check_or_call()
        elif isinstance(event, ev.BringIn):
            hand.post_bring_in()
        elif isinstance(event, ev.Bet):
            hand.bet_or_raise_to(event.to)


def _correct(hand: Hand, event: ev.Event) -> None:
    """Apply the correction ``event`` records (croupier.corrections)."""
    if isinstance(event, ev.RulingMade):
        hand.record_ruling(event)
    elif isinstance(event, ev.Exposed):
        assert event.card is not None  # the house's log names every card
        to = None if event.to < 0 else event.to
        player = None if event.player < 0 else event.player
        hand.expose(event.card, event.by, to, player, event.stay_up)
    elif isinstance(event, ev.SetAside):
        hand.set_aside(event.card, event.role, event.player)
    elif isinstance(event, ev.Restacked):
        hand.restack([card for card in event.cards if card is not None])
    elif isinstance(event, ev.Discarded):
        hand.discard(event.card, event.scrap, event.player)
    elif isinstance(event, ev.HandVoided):
        hand.void_hand(event.kept)
    elif isinstance(event, ev.HandKilled):
        hand.kill_hand(event.player, event.refund)
    elif isinstance(event, ev.Revived):
        hand.revive(event.player)
    elif isinstance(event, ev.PotsAwarded):
        hand.award_pots(event.player, event.uncontested)
    elif isinstance(event, ev.RoundCapped):
        hand.cap_round(event.to)
    elif isinstance(event, ev.ActionVoided):
        hand.void_action()
    elif isinstance(event, ev.ActionHeld):
        hand.hold_action(event.player, event.action, event.to)
    elif isinstance(event, ev.HeldResolved):
        hand.resolve_held(event.player, event.how)
    elif isinstance(event, ev.Restricted):
        hand.restrict(event.player, event.rule)
    elif isinstance(event, ev.TreatedAllIn):
        hand.treat_as_all_in(event.player)
    elif isinstance(event, ev.WagerCorrected):
        hand.correct_wager(event.player, event.to)
    elif isinstance(event, ev.CardGiven):
        hand.give_card(event.player, event.card, event.up)
    elif isinstance(event, ev.ExtraBurn):
        hand.burn(event.card, extra=True)
    elif isinstance(event, ev.BoardAdded):
        hand.deal_board(event.cards, extra=True)
    elif isinstance(event, ev.StubReshuffled):
        hand.reshuffle(event.returned, event.order)


_SETTLED = (ev.Announce, ev.HandOver)


def copy_hand(hand: Hand) -> Hand:
    """An independent hand in the same state, with the same stub, carrying on the same way."""
    copy = rebuild(
        hand.rules, hand.starting, hand.events, forced=hand.forced, over_blind=hand.over_blind,
        deck=deck_for(hand, hand.events), shuffler=hand.shuffler, openers=hand.openers,
    )  # fmt: skip
    copy.auto_deal, copy.auto_show, copy.auto_push = hand.auto_deal, hand.auto_show, hand.auto_push
    return copy


def step_back(hand: Hand) -> Hand:
    """The hand as it was before its last operation (a card dealt, an action, a show or muck);
    the cards of that step go back on top of the stub. The hand itself is left as it is."""
    events = hand.events
    last = max((i for i, e in enumerate(events) if isinstance(e, OPERATIONS)), default=-1)
    if last < 0:
        raise RebuildError("nothing to step back from: no card was dealt and nobody acted")
    first = last
    while first > 0 and _same_step(events[first - 1], events[last]):
        first -= 1  # a street's face-down and face-up cards are one step
    for k in range(first, -1, -1):  # a ruling and the corrections it applied are one step
        ruling = events[k]
        if isinstance(ruling, ev.RulingMade):
            if k + ruling.steps >= last:
                first = k
            break
    kept = events[:first]
    back = rebuild(
        hand.rules, hand.starting, kept, forced=hand.forced, over_blind=hand.over_blind,
        deck=deck_for(hand, kept), shuffler=hand.shuffler, openers=hand.openers,
    )  # fmt: skip
    back.auto_deal, back.auto_show, back.auto_push = hand.auto_deal, hand.auto_show, hand.auto_push
    return back


def _same_step(before: ev.Event, last: ev.Event) -> bool:
    return (
        isinstance(before, ev.DealHole)
        and isinstance(last, ev.DealUp)
        and before.player == last.player
    )


def deck_for(hand: Hand, events: Sequence[ev.Event]) -> Deck:
    """A deck order that leaves, once ``events``' cards are dealt from it, the hand's stub with
    the cards dealt after ``events`` back on top, in the order they were dealt. (After a
    reshuffle the rebuilt hand shuffles the stub again: its order there is its own.)"""
    kept = _known_cards(events)
    later = [card for card in _known_cards(hand.events[len(events) :]) if card not in kept]
    stub = [card for card in hand.deck.cards if card not in kept and card not in later]
    placed = {*kept, *later, *stub}
    # Cards a ruling took from the stub (discarded, set aside) are taken by name on replay.
    rest = [card for card in hand.rules.deck.cards if card not in placed]
    return Deck(hand.rules.deck, [*kept, *later, *stub, *rest])


def _known_cards(events: Sequence[ev.Event]) -> list[Card]:
    """The known cards the events take from the stub, in order (a card dealt again after a
    reshuffle counts once)."""
    seen: list[Card] = []
    for event in events:
        if isinstance(event, ev.DealHole | ev.DealUp | ev.DealBoard | ev.BoardAdded):
            cards: tuple[Card | None, ...] = event.cards
        elif isinstance(event, ev.Burn | ev.ExtraBurn | ev.CardGiven):
            cards = (event.card,)
        elif isinstance(event, ev.Draw):
            cards = event.drawn
        else:
            continue
        seen.extend(card for card in cards if card is not None and card not in seen)
    return seen
