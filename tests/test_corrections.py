"""The corrections a ruling is made of (croupier.corrections): each primitive's verify/can/do
triple and its event, chips conserved, and every new event replayed by croupier.rebuild;
random sequences of corrections keep both properties (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.hand import Hand
from croupier.irregularities import Floor
from croupier.rebuild import CORRECTIONS, RebuildError, rebuild, step_back
from irregular import cards, checked, f4, limped, state


def _first_new(hand: Hand, before: int) -> ev.Event:
    return hand.events[before]


@pytest.mark.parametrize(
    ("name", "args", "event"),
    [
        ("give_card", (2, cards("6s")[0]), ev.CardGiven),
        ("expose", (cards("Qh")[0],), ev.Exposed),
        ("set_aside", (cards("Qh")[0], "burn"), ev.SetAside),
        ("restack", (cards("Qh 8h"),), ev.Restacked),
        ("discard", (cards("6s")[0],), ev.Discarded),
        ("reshuffle", (), ev.StubReshuffled),
        ("void_hand", (), ev.HandVoided),
        ("kill_hand", (3,), ev.HandKilled),
        ("award_pots", (1,), ev.PotsAwarded),
        ("cap_round", (10,), ev.RoundCapped),
        ("hold_action", (3, "bet", 40), ev.ActionHeld),
        ("restrict", (2, "no-bet-or-raise"), ev.Restricted),
        ("treat_as_all_in", (3,), ev.TreatedAllIn),
        ("correct_wager", (0, 10), ev.WagerCorrected),
    ],
)
def test_each_correction_verifies_answers_and_appends_its_event(
    name: str, args: tuple[object, ...], event: type[ev.Event]
) -> None:
    hand = f4("cardroom")
    assert getattr(hand, f"can_{name}")(*args)
    getattr(hand, f"verify_{name}")(*args)
    before = len(hand.events)
    getattr(hand, name)(*args)
    assert isinstance(_first_new(hand, before), event)
    checked(hand)


@pytest.mark.parametrize(
    ("name", "args", "why"),
    [
        ("give_card", (7, None), "players 0..3"),
        ("expose", (cards("Qh")[0], "dealer", None, 0), "p3's card"),
        ("set_aside", (cards("Qh")[0], "river"), "next burn or board"),
        ("restack", (cards("6s"),), "cannot go back on the stub"),
        ("reshuffle", (cards("As"),), "only the board, burns"),
        ("kill_hand", (9,), "players 0..3"),
        ("cap_round", (5,), "at least the bet already made"),
        ("hold_action", (2, "bet", 40), "p3's turn"),
        ("resolve_held", (3, "apply"), "no action held"),
        ("restrict", (2, "no-raise"), "a restriction is one of"),
        ("correct_wager", (0, 2000), "behind"),
    ],
)
def test_a_refused_correction_names_what_is_wrong_and_changes_nothing(
    name: str, args: tuple[object, ...], why: str
) -> None:
    hand = f4("cardroom")
    before = state(hand)
    assert not getattr(hand, f"can_{name}")(*args)
    with pytest.raises(IllegalAction, match=why):
        getattr(hand, name)(*args)
    assert state(hand) == before


def test_revive_and_void_action_and_resolve_held() -> None:
    hand = f4("cardroom")
    hand.fold()
    assert hand.can_revive(2) and not hand.can_revive(3)
    hand.revive(2)
    assert 2 in hand.in_hand() and isinstance(hand.events[-1], ev.Revived)
    hand.check_or_call()  # p4 calls
    hand.void_action()
    assert isinstance(hand.events[-1], ev.ActionVoided) and hand.to_act == 3
    assert hand.stacks[3] == 1000
    hand.hold_action(0, "call")
    hand.check_or_call()  # p4 calls: p1's turn, a call held
    with pytest.raises(IllegalAction, match="held"):
        hand.check_or_call()
    hand.resolve_held(0, "apply")
    assert isinstance(hand.events[-2], ev.HeldResolved) and isinstance(hand.events[-1], ev.Call)
    checked(hand)


def test_rebuild_replays_every_correction_event() -> None:
    """One hand whose log holds every kind of correction event is rebuilt to the same state,
    and a log that changes a correction is refused, naming the event."""
    hand = limped(f4("cardroom"))
    hand.expose("2s")
    hand.set_aside("2s", "burn")
    hand.hold_action(2, "bet", 40)
    hand.restrict(3, "min-raise-only")
    hand.cap_round(40)
    hand.check_or_call()
    hand.correct_wager(2, 30)
    hand.check_or_call()
    hand.resolve_held(2, "apply")
    hand.treat_as_all_in(3)
    hand.give_card(0, hand.deck.cards[1])
    hand.discard(cards("8h")[0])
    hand.restack(cards("As"))
    hand.reshuffle(cards("5d"))
    hand.kill_hand(1, refund=True)
    hand.revive(1)
    Floor("cardroom").report(hand, "fouled-stub")
    Floor("cardroom").decide(hand, "restore")
    hand.award_pots(0)
    kinds = {type(e) for e in hand.events}
    assert {ev.Exposed, ev.SetAside, ev.ActionHeld, ev.Restricted, ev.RoundCapped,
            ev.WagerCorrected, ev.HeldResolved, ev.TreatedAllIn, ev.Restacked, ev.Discarded,
            ev.HandKilled, ev.Revived, ev.PotsAwarded, ev.RulingMade} <= kinds  # fmt: skip
    checked(hand)
    void = f4("cardroom")
    void.void_hand([1])
    checked(void)
    assert void.carried == 10 and void.stacks == [1000, 990, 1000, 1000]
    assert {ev.HandVoided} <= {type(e) for e in void.events}
    assert set(CORRECTIONS) >= {ev.HandVoided, ev.ActionVoided}
    forged = list(hand.events)
    k = next(i for i, e in enumerate(forged) if isinstance(e, ev.WagerCorrected))
    forged[k] = ev.WagerCorrected(2, 5000, 4970)
    with pytest.raises(RebuildError, match=f"event {k}"):
        rebuild(hand.rules, hand.starting, forged)


def test_a_step_back_undoes_a_whole_ruling() -> None:
    hand = f4("au-casino")
    Floor("au-casino").report(hand, "exposed p3 Qh")
    assert hand.hole[2] == cards("8h 6s")
    back = step_back(hand)
    assert back.hole[2] == cards("Qh 8h") and not any(
        isinstance(e, ev.RulingMade) for e in back.events
    )
    assert back.to_act == 2 and back.legal() == f4("au-casino").legal()


def test_a_waiting_choice_blocks_the_hand_and_survives_a_rebuild() -> None:
    hand = f4("au-casino")
    Floor("au-casino").report(hand, "misdeal")
    copy = hand.copy()
    assert copy.pending == hand.pending
    for operation in (copy.fold, copy.check_or_call, lambda: copy.bet_or_raise_to(30)):
        with pytest.raises(IllegalAction, match="a ruling awaits a choice"):
            operation()
    Floor("au-casino").decide(copy, "confirm")
    assert copy.void


OPERATIONS = ("fold", "call", "bet", "hold", "expose", "kill", "refund", "cap", "allin",
              "aside", "void")  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.lists(st.sampled_from(OPERATIONS), min_size=1, max_size=12))
def test_random_corrections_conserve_chips_and_rebuild(seed: int, moves: list[str]) -> None:
    rng = random.Random(seed)
    hand = f4(rng.choice(("cardroom", "league", "au-casino", "rws")))
    for move in moves:
        if hand.phase.value == "over":
            break
        player = rng.randrange(4)
        try:
            if move == "fold":
                hand.fold()
            elif move == "call":
                hand.check_or_call()
            elif move == "bet":
                legal = hand.legal()
                if legal.raise_range:
                    hand.bet_or_raise_to(rng.randint(*legal.raise_range))
            elif move == "hold":
                hand.hold_action(player, rng.choice(("check", "call", "bet")), 60)
            elif move == "expose":
                hand.expose(rng.choice(hand.deck.cards[:5]))
            elif move == "kill":
                hand.kill_hand(player)
            elif move == "refund":
                hand.kill_hand(player, refund=True)
            elif move == "cap":
                assert hand.round is not None
                hand.cap_round(hand.round.current)
            elif move == "allin":
                hand.treat_as_all_in(player)
            elif move == "aside":
                hand.set_aside(hand.deck.cards[0], rng.choice(("burn", "board")))
            elif move == "void":
                hand.void_hand([player] if rng.random() < 0.3 else [])
        except IllegalAction:
            continue
        checked(hand)
