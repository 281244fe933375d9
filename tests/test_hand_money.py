"""Money rules that pass through a whole hand: walks, commission, odd chips."""

from __future__ import annotations

from fractions import Fraction

from croupier import events as ev
from croupier.betting import Betting, Structure
from croupier.games import game
from croupier.hand import Hand, Rules
from croupier.pots import Basis, CardSet, Commission, CommissionKind, OddChip, OddChipRule
from scripted import board_deck

FIVE_PERCENT = Commission(
    kind=CommissionKind.PERCENTAGE,
    rate=Fraction(5, 100),
    basis=Basis.POT,
    exempt_blinds_only=True,
)


def holdem(**options: object) -> Rules:
    return Rules(
        game=game("holdem"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=10),
        blinds=(5, 10),
        **options,  # type: ignore[arg-type]
    )


def test_qld_s24_8_nobody_opens_and_the_second_blind_wins() -> None:
    hand = Hand(holdem(commission=FIVE_PERCENT), [100, 100, 100])
    hand.fold()
    hand.fold()
    assert hand.stacks == [95, 105, 100]
    assert [e for e in hand.events if isinstance(e, ev.Collect)] == [ev.Collect(0, 1, 10)]


def test_au_8_6_no_commission_when_only_the_blinds_were_bet() -> None:
    hand = Hand(holdem(commission=FIVE_PERCENT), [100, 100, 100])
    hand.fold()
    hand.fold()
    assert hand.commission == 0 and not any(isinstance(e, ev.Rake) for e in hand.events)


def test_rws_4_3_uncalled_bet_is_not_raked() -> None:
    # Player 2 raises to 100 and is called by the big blind; on the flop the big blind bets
    # 200 and everyone folds: the 200 comes back unraked; the 205 pot pays 5% (10).
    hand = Hand(holdem(commission=FIVE_PERCENT), [1000, 1000, 1000])
    hand.bet_or_raise_to(100)
    hand.fold()
    hand.check_or_call()
    hand.bet_or_raise_to(200)
    hand.fold()
    assert [e for e in hand.events if isinstance(e, ev.ReturnUncalled)] == [
        ev.ReturnUncalled(1, 200)
    ]
    assert hand.commission == 10
    assert hand.stacks == [995, 1000 - 100 + 205 - 10, 900]


def test_au_16_5_e_odd_chip_to_the_highest_hole_card_by_suit() -> None:
    # Both play the board's straight; 3 players put in 10 each with a 5 small blind that
    # folds: a 25 pot splits 12/12 and the odd chip goes to the spade in the hole.
    odd = OddChip(rule=OddChipRule.HIGHEST_CARD, cards=CardSet.HOLE, one_per_player=False)
    deck = board_deck(["2c 3d", "Kh 4c", "Ks 4d"], "Ah Qs Jd Tc 9h")
    hand = Hand(holdem(odd_chip=odd), [100, 100, 100], deck)
    hand.check_or_call()  # player 2 calls 10
    hand.fold()  # the small blind folds
    hand.check_or_call()  # the big blind checks
    while hand.to_act is not None:
        hand.check_or_call()
    collects = {e.player: e.amount for e in hand.events if isinstance(e, ev.Collect)}
    assert collects == {1: 12, 2: 13}


def test_rws_4_5_odd_chip_to_the_first_player_left_of_the_button() -> None:
    deck = board_deck(["2c 3d", "Kh 4c", "Ks 4d"], "Ah Qs Jd Tc 9h")
    hand = Hand(holdem(), [100, 100, 100], deck)
    hand.check_or_call()
    hand.fold()
    hand.check_or_call()
    while hand.to_act is not None:
        hand.check_or_call()
    collects = {e.player: e.amount for e in hand.events if isinstance(e, ev.Collect)}
    assert collects == {1: 13, 2: 12}


def test_omaha_hi_lo_splits_high_and_qualifying_low() -> None:
    # Board Ah 2c 7d Kh Ks. p0: Kd Kc Qs Js makes four kings; p1: 3s 4d Th 9h makes the
    # 7-4-3-2-A low. The 180 pot splits 90/90.
    rules = Rules(
        game=game("omaha8"),
        betting=Betting(structures=(Structure.POT,), small_bet=10),
        blinds=(5, 10),
    )
    deck = board_deck(["Kd Kc Qs Js", "3s 4d Th 9h"], "Ah 2c 7d Kh Ks")
    hand = Hand(rules, [1000, 1000], deck)
    hand.bet_or_raise_to(30)  # the button (player 1) raises
    hand.bet_or_raise_to(90)  # player 0 re-raises the pot: 30 + (40 + 20)
    hand.check_or_call()
    while hand.to_act is not None:
        hand.check_or_call()
    assert hand.stacks == [1000, 1000]  # 90 each back: high to p0, low to p1
    collects = sorted((e.player, e.amount) for e in hand.events if isinstance(e, ev.Collect))
    assert collects == [(0, 90), (1, 90)]
    (pot,) = [e for e in hand.events if isinstance(e, ev.Announce)]
    assert pot.winners == (0, 1)
    assert pot.hands[0] == "Four of a Kind, Kings"
    assert pot.hands[1].endswith("; low 7-4-3-2-A low")
    # p1's high loses to the hand shown first, but its low wins: it is shown, not mucked.
    shown = [e.player for e in hand.events if isinstance(e, ev.Show)]
    assert shown == [0, 1] and not any(isinstance(e, ev.Muck) for e in hand.events)
