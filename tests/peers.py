"""PokerKit as the peer engine in tests: it plays a PHH text action by action."""

from __future__ import annotations

import warnings
from typing import Any

import pokerkit


def pokerkit_state(text: str) -> Any:
    """PokerKit plays the history action by action: every action must apply in order; PokerKit
    only burns cards (and does what its automations do) in between."""
    from pokerkit.notation import parse_action as pokerkit_action

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = pokerkit.HandHistory.loads(text)
        state = history.create_state()
        for action in history.actions:
            while state.can_burn_card("??"):
                state.burn_card("??")
            pokerkit_action(state, action)
        while state.can_burn_card("??"):
            state.burn_card("??")
    return state


def pokerkit_stacks(text: str) -> list[Any]:
    """The finishing stacks PokerKit reaches (whole numbers as ints)."""
    return [int(s) if s == int(s) else s for s in pokerkit_state(text).stacks]


def odd_chips_only(result: Any, ours: list[int], theirs: list[int]) -> bool:
    """PokerKit merges the pots that the same players still contest after the losing hands are
    killed and splits them once; the engine splits each pot on its own (cardroom ties 5(d)).
    The two differ only by odd chips among tied winners."""
    split = [pot for pot in result.pots if len(pot.winners) > 1]
    gap = sum(abs(a - b) for a, b in zip(ours, theirs, strict=True))
    return bool(split) and sum(ours) == sum(theirs) and gap <= 2 * len(result.pots)


def pokerkit_game(variant: str, ante: int) -> Any:
    """PokerKit's game for a PHH variant, blinds 1 and 2 (stud: bring-in 1), bets 2 and 4, a
    cash game, dealing and showdowns automated."""
    a = pokerkit.Automation
    automations = (
        a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING, a.CARD_BURNING,
        a.HOLE_DEALING, a.BOARD_DEALING, a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING,
        a.CHIPS_PUSHING, a.CHIPS_PULLING, a.RUNOUT_COUNT_SELECTION,
    )  # fmt: skip
    cash = {"mode": pokerkit.Mode.CASH_GAME}
    unfixed = {
        "NT": pokerkit.NoLimitTexasHoldem,
        "NS": pokerkit.NoLimitShortDeckHoldem,
        "PO": pokerkit.PotLimitOmahaHoldem,
        "N2L1D": pokerkit.NoLimitDeuceToSevenLowballSingleDraw,
    }
    blind_fixed = {
        "FT": pokerkit.FixedLimitTexasHoldem,
        "FO/8": pokerkit.FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
        "F2L3D": pokerkit.FixedLimitDeuceToSevenLowballTripleDraw,
        "FB": pokerkit.FixedLimitBadugi,
    }
    stud = {
        "F7S": pokerkit.FixedLimitSevenCardStud,
        "F7S/8": pokerkit.FixedLimitSevenCardStudHighLowSplitEightOrBetter,
        "FR": pokerkit.FixedLimitRazz,
    }
    if variant in blind_fixed:
        return blind_fixed[variant](automations, True, ante, (1, 2), 2, 4, **cash)
    if variant in stud:
        return stud[variant](automations, True, ante, 1, 2, 4, **cash)
    return unfixed[variant](automations, True, ante, (1, 2), 2, **cash)
