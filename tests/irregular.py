"""Fixtures of docs/irregularities-spec.md for the rulings' tests: F4 (four-handed hold'em, stub
A), S7 and S5 (au stud, stubs B and C), each book's floor, and the checks every ruling test
makes: chips conserved, and the hand rebuilt from its log equal to the hand."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence

from croupier import events as ev
from croupier.cards import Card, DeckKind, parse_cards
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand, Phase
from croupier.history import event_record
from croupier.history.formats import event_from_record
from croupier.irregularities import Floor, Ruling
from croupier.rebuild import deck_for, rebuild
from croupier.rulebooks import load_rulebook
from croupier.views import SPECTATOR, Reducer, visible

BOOKS = ("au-casino", "rws", "qld", "cardroom", "league")
STUB_A = "As Kd Qh Jc Ts 9d 8h 7c 6s 5d 4h 3c 2s Ah 2h 3d 4s 5s 6h 7d 8c 9c"
STUB_B = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc"
STUB_C = "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac 2d 3h 4s 5c 6d 7h 8s 9c"
FLOORS = {name: Floor(name) for name in BOOKS}


def stub(top: str, kind: DeckKind = DeckKind.STANDARD) -> Deck:
    cards = list(parse_cards(top))
    return Deck(kind, cards + [c for c in kind.cards if c not in cards])


def cards(text: str) -> list[Card]:
    return list(parse_cards(text))


def f4(
    book: str, *, top: str = STUB_A, stacks: Sequence[int] = (1000,) * 4,
    structure: str | None = None, **options: object,
) -> Hand:  # fmt: skip
    """F4: four-handed hold'em, blinds 5/10, stacks 1000, dealt from ``top`` (stub A), the
    pots held after the showdown (a hand may still be asked to show). No limit, qld full pot."""
    structure = structure or (None if book == "qld" else "no-limit")
    rules = load_rulebook(book).rules("holdem", structure, stakes=10, **options)
    return Hand(rules, list(stacks), stub(top), shuffler=SeededShuffler(1), auto_push=False)


def limped(hand: Hand) -> Hand:
    """'F4 limped': p3 and p4 call 10, p1 completes, p2 checks (qld: no option, s24(10));
    pot 40, stacks 990."""
    while hand.street == 0:
        hand.check_or_call()
    assert hand.street == 1 and hand.pot == 40
    return hand


def s7(*, stacks: Sequence[int] = (100,) * 4, book: str = "au-casino") -> Hand:
    rules = load_rulebook(book).rules("stud7", "fixed", stakes=2, ante=1)
    return Hand(rules, list(stacks), stub(STUB_B), shuffler=SeededShuffler(1), auto_push=False)


def s5(*, book: str = "au-casino") -> Hand:
    rules = load_rulebook(book).rules("stud5", "fixed", stakes=2, ante=1)
    return Hand(rules, [100] * 4, stub(STUB_C), shuffler=SeededShuffler(1), auto_push=False)


def state(hand: Hand) -> tuple[object, ...]:
    """Everything the hand's future depends on, as plain values (the stub as a set: a reshuffle
    makes its own order when rebuilt only where the log does not name it)."""
    legal = hand.legal() if hand.phase is Phase.BETTING and hand.to_act is not None else None
    return (
        hand.phase, hand.street, hand.to_act, hand.stacks, hand.bets, hand.contributed,
        hand.dead, hand.folded, hand.mucked, hand.hole, hand.hidden, hand.up, hand.board,
        hand.burned, hand.next_step(), legal, hand.payouts, hand.held, hand.behind,
        hand.carried, hand.pending, sorted(hand.deck.cards), hand.dealt.aside, hand.events,
    )  # fmt: skip


def checked(hand: Hand, ruling: Ruling | None = None) -> Hand:
    """Chips are conserved, the hand rebuilt from its log is the same hand, and its log reads
    back from JSON."""
    total = sum(hand.starting) + hand.forced.carried
    assert sum(hand.stacks) + hand.in_play + hand.commission == total, hand.stacks
    again = rebuild(
        hand.rules, hand.starting, hand.events, forced=hand.forced,
        deck=deck_for(hand, hand.events), shuffler=SeededShuffler(99),
    )  # fmt: skip
    assert state(again) == state(hand)
    house = Reducer(hand.starting).feed(hand.events)  # the house's view follows every ruling
    over = hand.phase is Phase.OVER  # the house's view shows an empty middle then
    for name in (
        "stacks",
        "board",
        "folded",
        "up",
        *(() if over else ("bets", "contributed", "dead")),
    ):
        assert getattr(house, name) == getattr(hand, name), (name, hand.events[-4:])
    for player, cards in enumerate(house.hole):
        assert Counter(cards) == Counter([*hand.hole[player], *[None] * hand.hidden[player]])
    for viewer in range(hand.players):  # each seat: its own cards, and how many others hold
        seat = Reducer(hand.starting, viewer).feed(visible(hand.events, viewer))
        assert seat.stacks == hand.stacks and seat.board == hand.board
        for player, cards in enumerate(seat.hole):
            held = [*hand.hole[player], *[None] * hand.hidden[player]]
            assert len(cards) == len(held), (viewer, player, cards, held)
            if player == viewer:
                assert Counter(cards) == Counter(held)
    public = {
        *hand.dealt.exposed,
        *(c for e in hand.events if isinstance(e, ev.Show) for c in e.cards),
    }
    spectator = Reducer(hand.starting, SPECTATOR).feed(visible(hand.events, SPECTATOR))
    named = {c for cards in spectator.hole for c in cards if c is not None}
    assert named <= public, named - public  # a spectator sees no hidden card
    for event in hand.events:  # and every event survives the event log (.jsonl)
        assert event_from_record(json.loads(json.dumps(event_record(event)))) == event
    if ruling is not None:
        assert all(isinstance(e, ev.Event) for e in ruling.events)
    return hand


def report(book: str, hand: Hand, text: str) -> Ruling:
    ruling = FLOORS[book].report(hand, text)
    checked(hand, ruling)
    return ruling


def decide(book: str, hand: Hand, choice: str, player: int | None = None) -> Ruling:
    ruling = FLOORS[book].decide(hand, choice, player)
    checked(hand, ruling)
    return ruling
