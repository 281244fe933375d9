"""Real hands of every PHH variant replay to their finishing stacks.

Each history below is written for this suite in the shape published records take: tournament
levels with a big-blind ante, a short-deck button blind, stud records that leave the up cards of
the players nobody followed unknown (``??``) and say who brought it in, a raise sized to the
only opponent's stack, stud without a bring-in, eight-handed stud running out of cards. The
finishing stacks are worked out by hand in each comment. Each hand the engine replays is then
written back (:func:`history_from_hand`) and played by PokerKit, for every variant PokerKit
plays: it must load the file and reach the same finishing stacks.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from croupier.history import HandHistory, dump_phh, history_from_hand, load_phh, replay
from croupier.history.extensions import EXTENSION_VARIANT
from peers import pokerkit_stacks

pytest.importorskip("pokerkit")

HANDS: dict[str, str] = {}

# NT, a big-blind ante (2019 WSOP Event #42, day 3): ante 500,000 from the big blind alone,
# blinds 250,000/500,000. p7 raises to 1,150,000, both blinds call: 3,450,000 + 500,000 ante.
# Checked to the river, p2 bets 2,250,000, p7 folds, p1 calls; p1's jacks beat ace high:
# p1 13,050,000 - 3,400,000 + 8,450,000 = 18,100,000; p2 9,525,000 - 3,900,000 = 5,625,000;
# p7 14,100,000 - 1,150,000 = 12,950,000.
HANDS["NT big-blind ante"] = """
variant = "NT"
ante_trimming_status = true
antes = [0, 500000, 0, 0, 0, 0, 0, 0]
blinds_or_straddles = [250000, 500000, 0, 0, 0, 0, 0, 0]
min_bet = 500000
starting_stacks = [13050000, 9525000, 6675000, 5750000, 9150000, 6525000, 14100000, 7300000]
actions = [
  "d dh p1 QdJd", "d dh p2 Ac7c", "d dh p3 Qh3h", "d dh p4 6s5c", "d dh p5 Ad7s",
  "d dh p6 9c4c", "d dh p7 3s3c", "d dh p8 Td3d",
  "p3 f", "p4 f", "p5 f", "p6 f", "p7 cbr 1150000", "p8 f", "p1 cc", "p2 cc",
  "d db ThJc5h", "p1 cc", "p2 cc", "p7 cc",
  "d db 6c", "p1 cc", "p2 cc", "p7 cc",
  "d db 8s", "p1 cc", "p2 cbr 2250000", "p7 f", "p1 cc",
  "p2 sm Ac7c", "p1 sm QdJd",
]
finishing_stacks = [18100000, 5625000, 6675000, 5750000, 9150000, 6525000, 12950000, 7300000]
"""

# NS, everyone antes 500 and the button alone posts a blind of 1,000 (short-deck tournaments):
# p1 opens to 3,000, p3 calls; p1 bets 4,000 on the flop, p3 raises to 12,000, p1 calls; p3
# bets 20,000 on the turn and p1 folds. The pot is 2,000 antes + 1,000 + 6,000 + 24,000 =
# 33,000: p1 60,000 - 15,500 = 44,500; p2 44,500; p3 80,000 - 15,500 + 33,000 = 97,500;
# p4 52,000 - 1,500 = 50,500.
HANDS["NS button blind"] = """
variant = "NS"
antes = [500, 500, 500, 500]
blinds_or_straddles = [0, 0, 0, 1000]
min_bet = 1000
starting_stacks = [60000, 45000, 80000, 52000]
actions = [
  "d dh p1 AhKh", "d dh p2 ????", "d dh p3 TsTd", "d dh p4 ????",
  "p1 cbr 3000", "p2 f", "p3 cc", "p4 f",
  "d db 9c8c6h", "p1 cbr 4000", "p3 cbr 12000", "p1 cc",
  "d db Ad", "p1 cc", "p3 cbr 20000", "p1 f",
]
finishing_stacks = [44500, 44500, 97500, 50500]
"""

# FT, a raise sized to what the only opponent can call: p2 (650 in all) re-raises to 600, and
# p1 raises to 650 rather than the structured 800, because p2 can only call 650. p2's queens
# hold: the pot is 650 + 650; p1 5,000 - 650 = 4,350.
HANDS["FT raise sized to the only caller"] = """
variant = "FT"
antes = [0, 0, 0]
blinds_or_straddles = [100, 200, 0]
small_bet = 200
big_bet = 400
starting_stacks = [5000, 650, 5000]
actions = [
  "d dh p1 AsKs", "d dh p2 QhQd", "d dh p3 ????",
  "p3 f", "p1 cbr 400", "p2 cbr 600", "p1 cbr 650", "p2 cc",
  "p1 sm AsKs", "p2 sm QhQd",
  "d db 2c7d9h", "d db 3s", "d db Jc",
]
finishing_stacks = [4350, 1300, 5000]
"""

# FO/8, the same kind of raise in a split pot: p3 (250 in all) raises to 200, p1 folds the small
# blind, and p2 raises to 250 (not 300), all p3 can call. Pot 50 + 250 + 250 = 550: p3's set of
# jacks takes the high half, p2's 8-6-5-2-A the low half (beating p3's 8-6-5-4-3), 275 each.
HANDS["FO/8 raise sized to the only caller"] = """
variant = "FO/8"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
small_bet = 100
big_bet = 200
starting_stacks = [3000, 3000, 250]
actions = [
  "d dh p1 ????????", "d dh p2 As2sKdQd", "d dh p3 3h4hJcJd",
  "p3 cbr 200", "p1 f", "p2 cbr 250", "p3 cc",
  "p2 sm As2sKdQd", "p3 sm 3h4hJcJd",
  "d db 5c6d8s", "d db Jh", "d db Ks",
]
finishing_stacks = [2950, 3025, 275]
"""

# PO, a big-blind ante of 200, dead money in the pot though the record says
# ante_trimming_status (as the NT record above): p3 raises to 600, p2 calls; on the flop p3 bets
# 800 and p2 folds. Pot 100 + 200 + 600 + 600 = 1,500:
# p2 10,000 - 800 = 9,200; p3 10,000 - 600 + 1,500 = 10,900.
HANDS["PO big-blind ante"] = """
variant = "PO"
ante_trimming_status = true
antes = [0, 200, 0]
blinds_or_straddles = [100, 200, 0]
min_bet = 200
starting_stacks = [10000, 10000, 10000]
actions = [
  "d dh p1 ????????", "d dh p2 ????????", "d dh p3 AsAhKdQc",
  "p3 cbr 600", "p1 f", "p2 cc",
  "d db Ks7h2d", "p2 cc", "p3 cbr 800", "p2 f",
]
finishing_stacks = [9900, 9200, 10900]
"""

# F7S, the up cards of p1 and p3 unknown: the record says p3 brought it in (500). p4 folds, p1
# completes to 2,000, p2 calls, p3 folds. On fourth street p2 (kings showing) bets first, the
# record says, and p1 folds. Pot 2,000 antes + 500 + 4,000 = 6,500: p1 60,000 - 2,500 = 57,500;
# p2 45,000 - 2,500 + 6,500 = 49,000; p3 80,000 - 1,000; p4 52,000 - 500.
HANDS["F7S unknown up cards"] = """
variant = "F7S"
antes = [500, 500, 500, 500]
bring_in = 500
small_bet = 2000
big_bet = 4000
starting_stacks = [60000, 45000, 80000, 52000]
actions = [
  "d dh p1 ??????", "d dh p2 Ah9dKs", "d dh p3 ??????", "d dh p4 ????Qd",
  "p3 pb", "p4 f", "p1 cbr 2000", "p2 cc", "p3 f",
  "d dh p1 ??", "d dh p2 Kh", "p2 cbr 2000", "p1 f",
]
finishing_stacks = [57500, 49000, 79000, 51500]
"""

# F7S/8, p2's up cards unknown: p2 brought it in (100); p3 completes to 400, p1 folds, p2
# calls. On fourth street p2 acts first (the record), checks, p3 bets 400 and p2 folds. Pot
# 300 + 400 + 400 = 1,100: p2 10,000 - 500 = 9,500; p3 10,000 - 500 + 1,100 = 10,600.
HANDS["F7S/8 unknown up cards"] = """
variant = "F7S/8"
antes = [100, 100, 100]
bring_in = 100
small_bet = 400
big_bet = 800
starting_stacks = [10000, 10000, 10000]
actions = [
  "d dh p1 ????Ts", "d dh p2 ??????", "d dh p3 ????7h",
  "p2 pb", "p3 cbr 400", "p1 f", "p2 cc",
  "d dh p2 ??", "d dh p3 2c", "p2 cc", "p3 cbr 400", "p2 f",
]
finishing_stacks = [9900, 9500, 10600]
"""

# FR, p2's up card unknown: the record has p2 bring it in (the highest card, razz). p3
# completes to 400 and both fold: p3's 300 over the bring-in comes back. Pot 300 + 100 + 100:
# p3 10,000 - 200 + 500 = 10,300.
HANDS["FR unknown up cards"] = """
variant = "FR"
antes = [100, 100, 100]
bring_in = 100
small_bet = 400
big_bet = 800
starting_stacks = [10000, 10000, 10000]
actions = [
  "d dh p1 ????Kd", "d dh p2 ??????", "d dh p3 ????3c",
  "p2 pb", "p3 cbr 400", "p1 f", "p2 f",
]
finishing_stacks = [9900, 9800, 10300]
"""

# F7S/8, both hands known: p1's 3c brings it in (10), p2 completes to 20, p1 calls; p2's
# queens showing bet first on every later street: 20, 40 and 40 on seventh, p1 calls each and
# checks back on sixth. p2's kings and queens take the high half, p1's 6-4-3-2-A the low half
# of 20 + 40 + 40 + 80 + 80 = 260: 130 each, both back to 500.
HANDS["F7S/8 split pot"] = """
variant = "F7S/8"
antes = [10, 10]
bring_in = 10
small_bet = 20
big_bet = 40
starting_stacks = [500, 500]
actions = [
  "d dh p1 Ad2d3c", "d dh p2 KsKdQc", "p1 pb", "p2 cbr 20", "p1 cc",
  "d dh p1 4c", "d dh p2 Qs", "p2 cbr 20", "p1 cc",
  "d dh p1 9h", "d dh p2 Jc", "p2 cbr 40", "p1 cc",
  "d dh p1 Th", "d dh p2 5d", "p2 cc", "p1 cc",
  "d dh p1 6h", "d dh p2 8d", "p2 cbr 40", "p1 cc",
  "p2 sm KsKdQcQsJc5d8d", "p1 sm Ad2d3c4c9hTh6h",
]
finishing_stacks = [500, 500]
"""

# FR, every card known: p1's king brings it in (10), p2 completes to 20, p3 calls, p1 folds;
# p2's 7-3 is the best low showing and bets 20 on fourth street, p3 folds. Pot 15 antes + 10 +
# 20 + 20 = 65: p2 300 - 25 + 65 = 340; p1 285; p3 275.
HANDS["FR razz"] = """
variant = "FR"
antes = [5, 5, 5]
bring_in = 10
small_bet = 20
big_bet = 40
starting_stacks = [300, 300, 300]
actions = [
  "d dh p1 2c3dKh", "d dh p2 4s5s7c", "d dh p3 AdAs2h",
  "p1 pb", "p2 cbr 20", "p3 cc", "p1 f",
  "d dh p2 3h", "d dh p3 9s", "p2 cbr 20", "p3 f",
]
finishing_stacks = [285, 340, 275]
"""

# F7S without a bring-in: the lowest up card (p1's 2c) checks, p2 bets 200 and both fold.
# p2 5,000 - 100 + 300 antes = 5,200.
HANDS["F7S without a bring-in"] = """
variant = "F7S"
antes = [100, 100, 100]
bring_in = 0
small_bet = 200
big_bet = 400
starting_stacks = [5000, 5000, 5000]
actions = [
  "d dh p1 ????2c", "d dh p2 ????9d", "d dh p3 ????Kh",
  "p1 cc", "p2 cbr 200", "p3 f", "p1 f",
]
finishing_stacks = [4900, 5200, 4900]
"""

# F7S eight-handed to seventh street: 24 cards on third street and 8 on each of the next three
# (three burns) leave 1 card, short of 8 and a burn: one community card (au 13.4(a)). Everyone
# calls the bring-in of 10 and checks to seventh street, where p7 (a pair of deuces showing;
# the community card does not count, au 19.13) bets 40 and everyone folds. Pot 80 antes + 80:
# p7 1,000 - 20 + 160 = 1,140; the others 980.
HANDS["F7S eight-handed community card"] = """
variant = "F7S"
antes = [10, 10, 10, 10, 10, 10, 10, 10]
bring_in = 10
small_bet = 20
big_bet = 40
starting_stacks = [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]
actions = [
  "d dh p1 ????2c", "d dh p2 ????9d", "d dh p3 ????Th", "d dh p4 ????Js",
  "d dh p5 ????Qc", "d dh p6 ????Kd", "d dh p7 ????Ah", "d dh p8 ????8s",
  "p1 pb", "p2 cc", "p3 cc", "p4 cc", "p5 cc", "p6 cc", "p7 cc", "p8 cc",
  "d dh p1 3c", "d dh p2 4d", "d dh p3 5h", "d dh p4 6s",
  "d dh p5 7c", "d dh p6 8d", "d dh p7 2h", "d dh p8 3d",
  "p7 cc", "p8 cc", "p1 cc", "p2 cc", "p3 cc", "p4 cc", "p5 cc", "p6 cc",
  "d dh p1 4c", "d dh p2 5d", "d dh p3 6h", "d dh p4 7s",
  "d dh p5 8c", "d dh p6 9h", "d dh p7 2d", "d dh p8 4s",
  "p7 cc", "p8 cc", "p1 cc", "p2 cc", "p3 cc", "p4 cc", "p5 cc", "p6 cc",
  "d dh p1 5c", "d dh p2 6d", "d dh p3 7h", "d dh p4 8h",
  "d dh p5 9c", "d dh p6 Tc", "d dh p7 3h", "d dh p8 5s",
  "p7 cc", "p8 cc", "p1 cc", "p2 cc", "p3 cc", "p4 cc", "p5 cc", "p6 cc",
  "d db Ks",
  "p7 cbr 40", "p8 f", "p1 f", "p2 f", "p3 f", "p4 f", "p5 f", "p6 f",
]
finishing_stacks = [980, 980, 980, 980, 980, 980, 1140, 980]
"""

# N2L1D, a big-blind ante of 100: p3 raises to 300, p2 calls; p2 stands pat, p3 draws one and
# misses; p2 checks, p3 bets 400, p2 calls; 7-5-4-3-2 beats K-6-4-3-2. Pot 50 + 100 + 300 +
# 300 + 400 + 400 = 1,550: p2 5,000 - 800 + 1,550 = 5,750; p3 5,000 - 700 = 4,300.
HANDS["N2L1D big-blind ante"] = """
variant = "N2L1D"
ante_trimming_status = true
antes = [0, 100, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [5000, 5000, 5000]
actions = [
  "d dh p1 ??????????", "d dh p2 2s3d4c5h7s", "d dh p3 2d3c4s6h8d",
  "p3 cbr 300", "p1 f", "p2 cc",
  "p2 sd", "p3 sd 8d", "d dh p3 Kc",
  "p2 cc", "p3 cbr 400", "p2 cc",
  "p3 sm 2d3c4s6hKc", "p2 sm 2s3d4c5h7s",
]
finishing_stacks = [4950, 5750, 4300]
"""

# F2L3D, the raise sized to the only caller on the first round: p2 (350 in all) raises to 300,
# p1 raises to 350 rather than 400; both stand pat three times and p2's 7-5-4-3-2 wins the
# 700: p1 2,000 - 350 = 1,650.
HANDS["F2L3D raise sized to the only caller"] = """
variant = "F2L3D"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
small_bet = 100
big_bet = 200
starting_stacks = [2000, 350, 2000]
actions = [
  "d dh p1 2c3h4d6s8c", "d dh p2 2d3c4h5s7d", "d dh p3 ??????????",
  "p3 f", "p1 cbr 200", "p2 cbr 300", "p1 cbr 350", "p2 cc",
  "p1 sd", "p2 sd", "p1 sd", "p2 sd", "p1 sd", "p2 sd",
  "p1 sm 2c3h4d6s8c", "p2 sm 2d3c4h5s7d",
]
finishing_stacks = [1650, 700, 2000]
"""

# FB, per-player antes of a button ante (p3 antes 100 for the table) and blinds: p3 raises to
# 200, p1 folds, p2 calls; p2 draws one, p3 stands pat; p2 checks, p3 bets 100, p2 folds.
# Pot 100 + 50 + 200 + 200 = 550: p3 3,000 - 300 + 550 = 3,250; p2 3,000 - 200 = 2,800.
HANDS["FB button ante"] = """
variant = "FB"
ante_trimming_status = false
antes = [0, 0, 100]
blinds_or_straddles = [50, 100, 0]
small_bet = 100
big_bet = 200
starting_stacks = [3000, 3000, 3000]
actions = [
  "d dh p1 ????????", "d dh p2 As2d9h9c", "d dh p3 3c5d7hKs",
  "p3 cbr 200", "p1 f", "p2 cc",
  "p2 sd 9c", "p3 sd", "d dh p2 4h",
  "p2 cc", "p3 cbr 100", "p2 f",
]
finishing_stacks = [2950, 2800, 3250]
"""

# Draw (blind) high under au-casino with p3's voluntary over-blind of 4 (au 11.1(c)(iv)): the
# action starts left of it (au 11.5(c)); p4, p1 and p2 fold, and p3's 2 over p2's blind comes
# back: p3 100 + 1 + 2 = 103.
HANDS["croupier over-blind"] = """
variant = "croupier"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [100, 100, 100, 100]
actions = [
  "d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????", "d dh p4 ??????????",
  "p4 f", "p1 f", "p2 f",
]
finishing_stacks = [99, 98, 103, 100]
_croupier_game = "draw"
_croupier_rulebook = "au-casino"
_croupier_over_blind = true
"""

# Hold'em with a 5% commission taken in multiples of 5 chips (Commission.unit), heads-up (p2 the
# button posts 5, p1 10): p2 calls, p1 checks; p1 bets 100 on the flop, p2 calls; the 220
# pot's 5% is 11, taken as 10. p1's aces win 210: p1 500 - 110 + 210 = 600; p2 390.
HANDS["croupier commission unit"] = """
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [5, 10]
min_bet = 10
starting_stacks = [500, 500]
actions = [
  "d dh p1 AsAh", "d dh p2 KsKh", "p2 cc", "p1 cc",
  "d db 2c7d9h", "p1 cbr 100", "p2 cc", "d db 3s", "p1 cc", "p2 cc", "d db Jc", "p1 cc",
  "p2 cc", "p1 sm AsAh", "p2 sm KsKh",
]
finishing_stacks = [600, 390]
_croupier_options = {commission = "percentage", commission_rate = "5%", commission_unit = 5}
"""


def read(name: str) -> HandHistory:
    return load_phh(HANDS[name].encode())


@pytest.mark.parametrize("name", list(HANDS))
def test_a_real_hand_replays_to_its_finishing_stacks(name: str) -> None:
    history = read(name)
    result = replay(history)
    assert result.ok, result.error
    assert result.complete
    assert result.finishing_stacks == history.finishing_stacks


# PokerKit cannot play these as written: it chooses the bring-in and the opener from the up
# cards it is dealt, and cannot rank unknown ones; it deals stud no community card.
NOT_FOR_POKERKIT = (
    "F7S unknown up cards", "F7S/8 unknown up cards", "FR unknown up cards",
    "F7S eight-handed community card", "croupier over-blind",
)  # fmt: skip


def test_pokerkit_is_asked_about_every_variant() -> None:
    asked = {read(name).variant for name in HANDS if name not in NOT_FOR_POKERKIT}
    assert asked == {"NT", "NS", "FT", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"}


@pytest.mark.parametrize("name", [n for n in HANDS if n not in NOT_FOR_POKERKIT])
def test_pokerkit_plays_what_croupier_writes_to_the_same_stacks(name: str) -> None:
    result = replay(read(name))
    assert result.hand is not None
    written = history_from_hand(result.hand)
    if written.variant == EXTENSION_VARIANT:
        pytest.fail(f"{name} is written with variant croupier")
    if "commission" in name:
        # PokerKit takes no commission: it plays the hand as if there were none.
        written = replace(written, user_fields={}, finishing_stacks=None)
        assert pokerkit_stacks(dump_phh(written)) == [610, 390]
        return
    assert pokerkit_stacks(dump_phh(written)) == list(result.finishing_stacks or ())


# ---------------------------------------------------------------------------------------------
# What these readings do not stretch to


def test_a_raise_short_of_what_the_caller_can_call_is_refused() -> None:
    # p2 can put in 650: a raise to 620 leaves chips p2 could still call, so it is short.
    text = HANDS["FT raise sized to the only caller"].replace('"p1 cbr 650"', '"p1 cbr 620"')
    error = replay(load_phh(text.encode())).error
    assert error is not None and "raise to 620 is below the minimum 800" in error.message


def test_the_raise_sized_to_the_caller_says_how_it_was_played() -> None:
    result = replay(read("FT raise sized to the only caller"))
    assert result.ok and any("played as the raise to 800" in note for note in result.notes)
    assert result.hand is not None
    assert any(type(e).__name__ == "ReturnUncalled" and e.amount == 150 for e in result.hand.events)


def test_up_cards_the_history_names_decide_the_opener_whatever_it_says() -> None:
    # Every up card known: the engine's rule (the lowest card, p1's 2c) stands, and a history
    # that has p2 bring it in is out of turn.
    text = HANDS["F7S without a bring-in"].replace("bring_in = 0", "bring_in = 50")
    text = text.replace('"p1 cc", "p2 cbr 200", "p3 f", "p1 f"', '"p2 pb"')
    error = replay(load_phh(text.encode())).error
    assert error is not None and "p2 acts out of turn: p1 is to act" in error.message


def test_a_stud_community_card_before_the_stub_runs_short_is_an_error() -> None:
    text = HANDS["F7S unknown up cards"].replace('"d dh p2 Kh"', '"d db Kh"')
    error = replay(load_phh(text.encode())).error
    assert error is not None and "a stud community card is dealt only when" in error.message


def test_an_over_blind_of_the_wrong_size_is_an_error() -> None:
    text = HANDS["croupier over-blind"].replace("[1, 2, 4, 0]", "[1, 2, 5, 0]")
    error = replay(load_phh(text.encode())).error
    assert error is not None and error.field == "_croupier_over_blind"
    assert "double the blind before it" in error.message


def test_a_commission_unit_without_a_commission_is_an_error() -> None:
    text = HANDS["croupier commission unit"].replace(
        'commission = "percentage", commission_rate = "5%", ', ""
    )
    error = replay(load_phh(text.encode())).error
    assert error is not None and "commission_unit needs the option commission" in error.message


def test_a_big_blind_ante_is_dead_money_whatever_the_trimming_field_says() -> None:
    result = replay(read("NT big-blind ante"))
    assert result.hand is not None and result.hand.forced.dead_antes
    assert any("dead money in the main pot" in note for note in result.notes)


def test_the_over_blind_is_written_back_as_it_was_read() -> None:
    result = replay(read("croupier over-blind"))
    assert result.hand is not None and result.hand.over_blind
    written = history_from_hand(result.hand, rulebook="au-casino")
    assert written.blinds_or_straddles == (1, 2, 4, 0)
    assert written.user_fields["_croupier_over_blind"] is True
    again = replay(load_phh(dump_phh(written).encode()))
    assert again.ok and again.finishing_stacks == (99, 98, 103, 100)


def test_the_commission_unit_is_written_back_as_it_was_read() -> None:
    result = replay(read("croupier commission unit"))
    assert result.hand is not None and result.commission == 10
    written = history_from_hand(result.hand)
    assert written.user_fields["_croupier_options"]["commission_unit"] == 5
    assert replay(load_phh(dump_phh(written).encode())).finishing_stacks == (600, 390)
