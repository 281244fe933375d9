"""Faults the reliability battery (bench/battery.py) found in the hand engine, now fixed: each
was held here by a strict xfail test while it stood (and registered with ``known_fault``), and
each test now keeps it fixed: a refused deal changes nothing, replacements go only to the player
due, and a draw waiting for its replacements is in the log (a copy and a rebuild hold)."""

from __future__ import annotations

import pytest

from croupier.betting import Betting, IllegalAction, Structure
from croupier.cards import parse_cards
from croupier.games import GAMES
from croupier.hand import Hand, Rules, StepKind
from croupier.rebuild import rebuild


def _dealt_by_hand(game: str, players: int) -> Hand:
    rules = Rules(
        game=GAMES[game], blinds=(1, 2),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
    )  # fmt: skip
    return Hand(rules, [100] * players, auto_deal=False, auto_show=False)


def _at_the_draw(hand: Hand) -> None:
    """Deal and check the first round through to the draw."""
    while hand.next_step() is not None or not hand.drawing:
        if hand.next_step() is not None:
            hand.deal_next()
        else:
            hand.check_or_call()


def test_a_refused_deal_brought_forward_leaves_the_order_of_the_steps() -> None:
    # The dealer may report a later player's cards first (deal_hole's ``player``); refused
    # for a card already in play, the hand must be as it was, next step included.
    hand = _dealt_by_hand("holdem", 3)
    hand.deal_hole(list(parse_cards("AhKh")))
    before = hand.steps_due
    with pytest.raises(IllegalAction, match="p1 holds it"):
        hand.deal_hole(list(parse_cards("AhQc")), player=2)
    assert hand.steps_due == before


def test_replacements_named_for_a_player_not_due_are_refused() -> None:
    # p1 drew a card: their replacement is due. Dealt "to p2", or to a player not at the
    # table, it must be refused, not given to p1.
    hand = _dealt_by_hand("draw", 2)
    _at_the_draw(hand)
    player = hand.to_act
    assert player is not None
    hand.draw(hand.hole[player][:1])
    step = hand.next_step()
    assert step is not None and step.kind is StepKind.REPLACE and step.player == player
    card = hand.deck.cards[0]
    for named in (1 - player, 7):
        with pytest.raises(IllegalAction):
            hand.deal_hole([card], player=named)
    assert card not in hand.hole[player]


def test_a_draw_awaiting_its_replacements_survives_a_rebuild_and_a_copy() -> None:
    # rebuild promises the hand "in exactly the state [the events] leave it"; copy() is built
    # on it. Between a player's discard and the dealer's replacements the log has no Draw yet,
    # so the rebuilt hand has the player still to draw and no replacement due.
    hand = _dealt_by_hand("draw", 2)
    _at_the_draw(hand)
    player = hand.to_act
    hand.draw(hand.hole[player][:2])  # type: ignore[index]
    assert hand.to_act is None and hand.next_step() is not None
    for again in (rebuild(hand.rules, hand.starting, hand.events), hand.copy()):
        assert (again.to_act, again.next_step()) == (hand.to_act, hand.next_step())


def test_a_hand_copies_while_a_draw_that_reshuffled_awaits_its_replacements() -> None:
    # Eight players draw five cards each: the third finds two cards in the stub, so the
    # discards are shuffled in (au 11.3(b)) and Reshuffle is logged, but the Draw is not yet.
    # The log then does not replay: copy() raises RebuildError on a legal hand.
    hand = _dealt_by_hand("draw", 8)
    _at_the_draw(hand)
    while len(hand.deck.cards) >= 5:
        hand.draw(hand.hole[hand.to_act])  # type: ignore[index]
        hand.deal_next()
    hand.draw(hand.hole[hand.to_act])  # type: ignore[index]
    step = hand.next_step()
    assert step is not None and step.kind is StepKind.REPLACE
    assert (hand.copy().to_act, hand.copy().next_step()) == (None, step)
