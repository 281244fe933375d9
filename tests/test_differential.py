"""croupier against PokerKit, action by action (the harness is ``tests/differential.py``).

Random hands of every variant both engines play are dealt by croupier and replayed in lockstep
by PokerKit: after every action both must agree on who acts, the legal action kinds and the
minimum and maximum raise-to, and at the end on every finishing stack. Each known difference
is checked on a fixed hand below. ``CROUPIER_DIFFERENTIAL_HANDS`` sets the number of random hands
per variant (``tools/differential.py`` runs many more).
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pokerkit")

from differential import (
    BUGS,
    DIFFERENCES,
    Lockstep,
    Stop,
    croupier_options,
    enabled_variants,
    play_random_hand,
    pokerkit_options,
    run,
)
from scripted import board_deck, deck

HANDS = int(os.environ.get("CROUPIER_DIFFERENTIAL_HANDS", "250"))


@pytest.mark.parametrize("variant", enabled_variants())
def test_random_hands_agree_action_by_action(variant: str) -> None:
    tally = run(variant, range(HANDS))
    assert not tally.failures, "\n".join(f.report() for f in tally.failures[:5])
    assert tally.hands == HANDS, tally.table()
    if variant != "FO/8":  # PokerKit's FO/8 is pot-limit: nearly every hand differs
        assert tally.agree >= HANDS // 2, tally.table()


def test_the_same_seed_plays_the_same_hand() -> None:
    assert play_random_hand("NT", 7) == play_random_hand("NT", 7)


def test_every_difference_and_bug_has_its_test() -> None:
    names = set(globals()) | _test_phh_names()
    for known in (*DIFFERENCES.values(), *BUGS.values()):
        assert known.test in names, known


def _test_phh_names() -> set[str]:
    import test_phh

    return set(vars(test_phh))


def played(variant: str, stacks: list[int], actions: str, ante: int = 0, deck: int = 1) -> Lockstep:
    """A fixed hand in lockstep: actions separated by commas, board deals left to croupier."""
    lockstep = Lockstep(variant, stacks, ante, deck)
    for action in actions.split(","):
        lockstep.act(action.strip())
    return lockstep


def options(lockstep: Lockstep) -> tuple[str, str]:
    ours, theirs = lockstep.options()
    return str(ours), str(theirs)


# ---------------------------------------------------------------------------------------------
# Each known difference, recognised on a fixed hand


def test_lockstep_short_all_in_counted_as_a_full_raise() -> None:
    # Pre-flop p2 (big blind, 3 chips) goes all-in for 3: one chip more than the blind, not a
    # full raise for croupier (rws 3.14.3, au 10.2). p5, who had called, may only call in
    # croupier; PokerKit measures the first raise of a round against nothing and lets p5 raise.
    lockstep = played("NT", [12, 3, 12, 287, 4], "cc, f, cc, cc, cbr 3, cc")
    assert options(lockstep) == ("p5 fold call 1", "p5 fold call 1 raise 4..4")
    lockstep.act("cc")
    assert lockstep.differences == ["short all-in counted as a full raise"]


def test_lockstep_consecutive_short_all_ins_added_up() -> None:
    # Flop: p1 bets 20; p2 is all-in for 33 (13 more) and p3 for 48 (15 more): each short of a
    # full raise of 20, together more. PokerKit reopens the betting for p1; croupier does not.
    lockstep = played("NT", [1000, 35, 50, 1000], "cc, cc, cc, cc, cbr 20, cbr 33, cbr 48, cc")
    assert options(lockstep) == ("p1 fold call 28", "p1 fold call 28 raise 68..998")
    lockstep.act("cc")
    assert lockstep.differences == ["consecutive short all-ins added up"]


def test_lockstep_fixed_limit_raise_on_top_of_a_short_all_in() -> None:
    # p4 (3 chips) completes to 3, all-in; croupier's raise goes on the full bet (2 + 2 = 4),
    # PokerKit's on the all-in (3 + 2 = 5).
    lockstep = played("FT", [129, 48, 4, 3, 6], "f, cbr 3")
    assert options(lockstep) == ("p5 fold call 3 raise 4..4", "p5 fold call 3 raise 5..5")
    lockstep.act("cc")
    assert lockstep.differences == ["fixed-limit raise on top of a short all-in"]


def test_lockstep_fixed_limit_cap_after_the_flop() -> None:
    # Flop: a bet and three raises cap the round in both engines (PHH's rules are PokerKit's).
    lockstep = played("FT", [100, 100, 100], "cc, cc, cc, cbr 2, cbr 4, cbr 6, cbr 8")
    assert options(lockstep) == ("p2 fold call 4", "p2 fold call 4")
    lockstep.act("cc")
    assert lockstep.differences == []


def test_difference_pokerkit_counts_a_short_all_in_toward_the_cap() -> None:
    # Pre-flop: p3 raises to 4, p4 to 6, p1 to 8, and p2 (the big blind, 9 chips) is all-in
    # for 9, short of a raise. croupier's cap counts the blind and four full raises (the replay
    # takes raise_cap=4), so p3 may still raise to 10; PokerKit counts p2's all-in as its fourth
    # raise and caps the round. A short all-in is not a raise (rws 3.14.3, au 10.2).
    lockstep = played("FT", [100, 9, 100, 100], "cbr 4, cbr 6, cbr 8, cbr 9")
    assert options(lockstep) == ("p3 fold call 5 raise 10..10", "p3 fold call 5")
    lockstep.act("cc")
    assert lockstep.differences == ["short all-in counted toward the fixed-limit cap"]


def test_difference_pokerkit_asks_for_a_closing_check() -> None:
    # On the flop p3 folds with nothing to call, leaving p6 the only player with chips, facing
    # nothing: croupier ends the round at once, PokerKit has p6 check first. The harness makes
    # that check in PokerKit only, and the hand goes on to the same stacks.
    lockstep = played("NT", [19, 35, 53, 10, 19, 160], "cbr 52, cc, cc, cc, cc, cc, f")
    ours, theirs = lockstep.options()
    assert ours == theirs and ours.kind == "over"
    assert "PokerKit: p6 cc" in lockstep.trail
    lockstep.finish()
    assert lockstep.differences == ["PokerKit's closing check"]


def test_lockstep_odd_chips_of_pots_won_by_the_same_players() -> None:
    # p1 and p2 tie for the main pot (69) and the first side pot (3). croupier splits each pot
    # on its own, the odd chip of each to p1 (cardroom ties 5(d), rws 4.5); PokerKit merges the
    # two (72) and splits them evenly.
    deck = board_deck(["Tc3s", "3c5c", "5dKd", "4sAd", "2dAc", "Td6h"], "3dQdQsQh7s")
    lockstep = Lockstep("NT", [16, 30, 269, 335, 15, 12], 1, deck)
    for action in ["cbr 4", "f", "cbr 7", "cc", "cc", "cbr 10", "cbr 120", "cc", "f", "cc", "cc"]:
        lockstep.act(action)
    assert croupier_options(lockstep.hand).kind == pokerkit_options(lockstep.state).kind == "over"
    lockstep.finish()
    assert lockstep.hand.stacks == [37, 63, 239, 334, 0, 4]
    assert list(lockstep.state.stacks) == [36, 64, 239, 334, 0, 4]
    assert lockstep.differences == ["odd chips of pots won by the same players"]


def test_like_pokerkit_the_minimum_raise_after_a_short_all_in_bet() -> None:
    # Flop: p2 bets 1, all-in, short of the minimum bet of 2. croupier used to offer p3 a
    # "raise" to 1, the bet already to match (an engine bug, fixed); now both
    # engines' minimum is 3 (the bet plus the minimum bet).
    lockstep = played("NT", [116, 3, 193], "cc, cc, cc, cc, cbr 1")
    assert options(lockstep) == ("p3 fold call 1 raise 3..191", "p3 fold call 1 raise 3..191")


def test_difference_a_fixed_limit_full_wager_over_a_short_all_in_reopens() -> None:
    # Fourth street of a seeded stud hi-lo hand: p4 bets 3, all-in, short of the bet of 4;
    # p5 and p1 call; p3 completes to 4. croupier counts p3's bet as the round's first full bet,
    # which reopens the betting for p5; PokerKit counts the 1 it added, short of a raise.
    result = play_random_hand("F7S/8", 395)
    assert result.trail[-6:] == ("p4 cbr 3", "p5 cc", "p1 cc", "p3 cbr 4", "p5 f", "p1 cc")
    assert "fixed-limit full wager over a short all-in" in result.differences
    assert result.failure is None
    # After the second draw of a seeded triple draw hand: p4 bets 2, p1 raises to 3, all-in
    # and short; p2 calls; p3 raises to 4 on top of the full bet, a full raise for croupier
    # that reopens the betting for p2; for PokerKit it adds 1 to the all-in, short of a raise.
    result = play_random_hand("F2L3D", 3811)
    assert "fixed-limit full wager over a short all-in" in result.differences
    assert result.failure is None


def test_difference_the_bring_in_when_the_low_card_is_all_in() -> None:
    # p2 shows the lowest card (2c) but is all-in from the ante. croupier's bring-in is the
    # lowest card among players with chips (p1's 5h; au 19.10, 19.17: an all-in player does not
    # start the betting); PokerKit gives it to the all-in player's left (p3). The players to act
    # differ: the harness notes the difference and ends the hand there.
    lockstep = Lockstep("F7S", [50, 1, 50], 1, deck("AhAdAcKhKdKc5h2c9s"))
    ours, theirs = lockstep.options()
    assert (str(ours), str(theirs)) == ("p1 bring-in 1 raise 2..2", "p3 bring-in 1 raise 2..2")
    with pytest.raises(Stop):
        lockstep.classify(ours, theirs)
    assert lockstep.differences == ["stud bring-in when the low card is all-in"]


def test_difference_pokerkit_plays_fixed_limit_omaha_hi_lo_pot_limit() -> None:
    # PokerKit 0.7.7 builds FO/8 on its pot-limit mixin: the first player may raise to the pot
    # (7) and there is no cap. croupier plays the fixed limit PHH's variant code names.
    lockstep = Lockstep("FO/8", [100, 100, 100], 0, 1)
    assert options(lockstep) == ("p3 fold call 2 raise 4..4", "p3 fold call 2 raise 4..7")
    lockstep.act("cc")
    assert lockstep.differences == ["PokerKit's FO/8 is pot-limit"]
