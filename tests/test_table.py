"""The table: seats, the moving button, blinds across hands, buy-ins and table stakes."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from croupier import events as ev
from croupier.betting import Betting, Structure
from croupier.cards import DeckKind
from croupier.deck import Deck, SeededShuffler
from croupier.games import game
from croupier.hand import Hand, Phase, Rules
from croupier.pots import Commission, CommissionKind
from croupier.table import Bust, BuyIn, DrawTie, FirstButton, NewPlayer, Table, TableError
from scripted import board_deck


def rules(
    structure: Structure = Structure.NO_LIMIT,
    blinds: tuple[int, ...] = (1, 2),
    commission: Commission | None = None,
) -> Rules:
    return Rules(
        game=game("holdem"),
        betting=Betting(structures=(structure,), small_bet=2, big_bet=4),
        blinds=blinds,
        commission=commission or Commission(),
    )


def table(seated: dict[int, int], seats: int = 9, **options: object) -> Table:
    options.setdefault("buy_in", BuyIn(minimum=20))
    t = Table(rules(), seats, **options)  # type: ignore[arg-type]
    for seat, chips in seated.items():
        t.sit(seat, f"s{seat}", chips)
    return t


def chips(t: Table, seat: int) -> int:
    player = t.player_at(seat)
    assert player is not None
    return player.chips


BOARD = "3c 4d 8h 9s Jc"


def play(hand: Hand, shove: tuple[int, ...] = ()) -> None:
    """Players in ``shove`` go all-in at their first chance; everyone else calls or checks."""
    while hand.phase is not Phase.OVER:
        legal = hand.legal()
        if legal.player in shove and legal.raise_range is not None:
            hand.bet_or_raise_to(legal.raise_range[1])
        else:
            hand.check_or_call()


def blinds(t: Table, hand: Hand) -> list[tuple[int, int]]:
    """(seat, amount) of each blind posted, small blind first."""
    return [(t.seat_of(e.player), e.amount) for e in hand.events if isinstance(e, ev.PostBlind)]


# --- the button --------------------------------------------------------------------------------


def test_au_11_1_b_button_moves_clockwise_and_skips_empty_seats() -> None:
    t = table({2: 100, 5: 100, 9: 100})
    buttons, orders = [], []
    for _ in range(4):
        hand = t.start_hand(shuffler=SeededShuffler(1))
        buttons.append(t.button)
        orders.append([t.seat_of(p) for p in range(hand.players)])
        play(hand)
    assert buttons == [9, 2, 5, 9]  # first on the dealer's right (the highest seat), then around
    assert orders[1] == [5, 9, 2]  # deal order starts left of the button, the button last
    assert t.player_of(2) == 0 and t.player_of(9) == 2 and t.player_of(4) is None  # last hand


def test_au_11_1_b_button_passes_a_seat_left_between_hands() -> None:
    # The newcomer is dealt in at once (NewPlayer.PLAY), as at the first hand; the default
    # (waiting for the big blind) is tested with the blinds.
    t = table({1: 100, 2: 100, 3: 100, 4: 100}, first_button=2, new_player=NewPlayer.PLAY)
    play(t.start_hand(shuffler=SeededShuffler(2)))
    assert t.button == 2
    t.leave(3)  # the next button's player goes: it passes to the next player clockwise
    t.sit(7, "late", 100)
    hand = t.start_hand(shuffler=SeededShuffler(3))
    assert t.button == 4 and [t.seat_of(p) for p in range(hand.players)] == [7, 1, 2, 4]


def test_rws_3_1_first_button_on_the_dealers_left_and_a_given_seat() -> None:
    t = table({3: 100, 6: 100, 8: 100}, first_button=FirstButton.DEALER_LEFT)
    t.start_hand(shuffler=SeededShuffler(0))
    assert t.button == 3
    t = table({3: 100, 6: 100, 8: 100}, first_button=4)  # an empty seat: the next player has it
    t.start_hand(shuffler=SeededShuffler(0))
    assert t.button == 6


def test_cardroom_ties_2_high_card_draw_for_the_button_is_seeded() -> None:
    seated = {1: 100, 4: 100, 5: 100, 7: 100}
    buttons = set()
    for seed in range(20):
        t = table(seated, first_button=FirstButton.HIGH_CARD)
        t.start_hand(shuffler=SeededShuffler(seed))
        assert len(t.draw) == 4 and {seat for seat, _ in t.draw} == set(seated)
        assert t.button == max(t.draw, key=lambda pair: pair[1])[0]  # rank, then suit (ties 1)
        again = table(seated, first_button=FirstButton.HIGH_CARD)
        again.start_hand(shuffler=SeededShuffler(seed))
        assert again.draw == t.draw and again.button == t.button
        buttons.add(t.button)
    assert len(buttons) > 1


def test_league_seat_draw_redraws_tied_ranks() -> None:
    seated = {seat: 100 for seat in range(1, 11)}
    redraws = 0
    for seed in range(40):
        t = table(seated, seats=10, first_button=FirstButton.HIGH_CARD, draw_ties=DrawTie.REDRAW)
        t.start_hand(shuffler=SeededShuffler(seed))
        first = t.draw[:10]
        top = max(card.rank for _, card in first)
        tied = [seat for seat, card in first if card.rank == top]
        if len(tied) == 1:
            assert len(t.draw) == 10 and t.button == tied[0]
            continue
        redraws += 1
        rest = t.draw[10:]
        while len(tied) > 1:  # each round is drawn by those tied at the top of the last one
            drawn, rest = rest[: len(tied)], rest[len(tied) :]
            assert [seat for seat, _ in drawn] == tied
            top = max(card.rank for _, card in drawn)
            tied = [seat for seat, card in drawn if card.rank == top]
        assert rest == [] and t.button == tied[0]
    assert redraws > 0


# --- blinds across hands -----------------------------------------------------------------------


def test_au_11_1_c_blinds_left_of_the_button_each_player_once_per_orbit() -> None:
    t = table({1: 100, 3: 100, 4: 100, 8: 100})
    big_blinds = []
    for seed in range(8):
        hand = t.start_hand(shuffler=SeededShuffler(seed))
        (sb, _), (bb, _) = blinds(t, hand)
        assert sb == t.seat_of(0) and bb == t.seat_of(1)
        big_blinds.append(bb)
        play(hand)
    assert sorted(big_blinds[:4]) == [1, 3, 4, 8] and big_blinds[4:] == big_blinds[:4]


def test_rws_3_7_heads_up_button_posts_small_blind_across_hands() -> None:
    t = table({2: 100, 6: 100})
    seen = []
    for seed in range(4):
        hand = t.start_hand(shuffler=SeededShuffler(seed))
        seen.append((t.button, blinds(t, hand)))
        play(hand)
    assert seen[0] == (6, [(6, 1), (2, 2)])  # the button posts the small blind
    assert seen[1] == (2, [(2, 1), (6, 2)])
    assert [button for button, _ in seen] == [6, 2, 6, 2]


def test_rws_3_7_heads_up_after_the_button_busts_big_blind_not_twice() -> None:
    t = table({1: 50, 2: 100, 3: 100})  # button 3, small blind 1, big blind 2
    hand = t.start_hand(shuffler=SeededShuffler(0))
    hand.fold()
    hand.fold()  # the big blind (seat 2) wins the blinds
    # Next hand: button 1, blinds 2 and 3. Seat 1 (the button) is the short stack and busts.
    hand = t.start_hand(deck=board_deck(["Ah As", "Kh Ks", "7d 2c"], BOARD))
    assert t.button == 1 and blinds(t, hand) == [(2, 1), (3, 2)]
    play(hand, shove=(2,))
    summary = t.finish_hand()
    assert summary.busted == (1,)
    # The plain moving button would give it to seat 2 and make seat 3 post the big blind again;
    # it moves on to seat 3, which posts the small blind on the button (rws 3.7).
    hand = t.start_hand(shuffler=SeededShuffler(5))
    assert t.button == 3 and blinds(t, hand) == [(3, 1), (2, 2)]


def test_rws_3_7_heads_up_after_the_big_blind_busts() -> None:
    t = table({1: 100, 2: 60, 3: 100})  # button 3, small blind 1, big blind 2 (the short stack)
    hand = t.start_hand(deck=board_deck(["Ah As", "7d 2c", "Kh Ks"], BOARD))
    play(hand, shove=(1,))
    assert t.finish_hand().busted == (2,)
    hand = t.start_hand(shuffler=SeededShuffler(5))  # the button moves on to seat 1
    assert t.button == 1 and blinds(t, hand) == [(1, 1), (3, 2)]


def test_rws_3_7_heads_up_after_the_small_blind_busts() -> None:
    t = table({1: 60, 2: 100, 3: 100})  # button 3, small blind 1 (short), big blind 2
    hand = t.start_hand(deck=board_deck(["7d 2c", "Ah As", "Kh Ks"], BOARD))
    play(hand, shove=(0,))
    assert t.finish_hand().busted == (1,)
    hand = t.start_hand(shuffler=SeededShuffler(5))  # the button moves to seat 2, the last BB
    assert t.button == 2 and blinds(t, hand) == [(2, 1), (3, 2)]


def test_au_11_1_b_heads_up_to_three_players() -> None:
    t = table({2: 100, 6: 100}, new_player=NewPlayer.PLAY)  # the newcomer is dealt in at once
    play(t.start_hand(shuffler=SeededShuffler(0)))  # button 6 posts the small blind, 2 the big
    t.sit(8, "new", 100)
    hand = t.start_hand(shuffler=SeededShuffler(1))
    assert t.button == 8 and blinds(t, hand) == [(2, 1), (6, 2)]


def test_busted_player_sits_out_until_chips_are_added() -> None:
    t = table({1: 100, 2: 60, 3: 100, 4: 100})  # button 4, blinds 1 and 2
    hand = t.start_hand(deck=board_deck(["Ah As", "7d 2c", "Kh Ks", "Qh Qs"], BOARD))
    play(hand, shove=(1,))
    summary = t.finish_hand()
    assert summary.busted == (2,) and summary.net[2] == -60
    player = t.player_at(2)
    assert player is not None and player.chips == 0 and not t.can_play(2)
    hand = t.start_hand(shuffler=SeededShuffler(1))  # dealt out; the button and blinds move on
    assert t.player_of(2) is None and t.button == 1 and blinds(t, hand) == [(3, 1), (4, 2)]
    play(hand)
    t.add_chips(2, 50)  # cardroom buy-in 2: adding is not a buy-in, any amount between hands
    # Back in at seat 2, the plain move (to seat 2) would put the big blind on seat 4 again: the
    # button moves one more seat and the big blind goes on to seat 1.
    hand = t.start_hand(shuffler=SeededShuffler(2))
    assert t.button == 3 and blinds(t, hand) == [(4, 1), (1, 2)] and t.player_of(2) == 2


def test_league_eliminated_player_leaves_and_blinds_go_on() -> None:
    t = table({1: 100, 2: 60, 3: 100, 4: 100}, bust=Bust.LEAVE)
    hand = t.start_hand(deck=board_deck(["Ah As", "7d 2c", "Kh Ks", "Qh Qs"], BOARD))
    play(hand, shove=(1,))
    assert t.finish_hand().left == ("s2",) and t.player_at(2) is None
    hand = t.start_hand(shuffler=SeededShuffler(1))
    assert t.button == 1 and blinds(t, hand) == [(3, 1), (4, 2)]


def test_finish_is_automatic_once_the_hand_is_over() -> None:
    t = table({1: 100, 2: 100})
    hand = t.start_hand(shuffler=SeededShuffler(0))
    with pytest.raises(TableError, match="still being played"):
        t.finish_hand()
    hand.fold()  # the button folds its small blind
    assert not t.in_hand
    assert chips(t, 1) == 101
    assert t.finish_hand().net == {1: 1, 2: -1}  # the same summary, not a second settlement


# --- chips across many hands -------------------------------------------------------------------


@pytest.mark.parametrize(
    "commission",
    [
        Commission(),
        Commission(kind=CommissionKind.PERCENTAGE, rate=Fraction(5, 100), cap=3),
        Commission(kind=CommissionKind.PARTICIPATION_FEE, fee=1),
    ],
    ids=["none", "rake", "participation-fee"],
)
def test_chips_are_conserved_across_200_random_hands(commission: Commission) -> None:
    rng = random.Random(7)
    t = Table(rules(commission=commission), 6, buy_in=BuyIn(minimum=40, short=20))
    bought, cashed, names = 0, 0, 0
    last_big_blind = None
    for number in range(200):
        for seat in range(1, 7):  # between hands: people come, go and top up
            player = t.player_at(seat)
            if player is None and rng.random() < 0.3:
                names += 1
                amount = rng.choice([40, 60, 150])
                t.sit(seat, f"n{names}", amount)
                bought += amount
            elif player is not None and player.chips < 10 and rng.random() < 0.5:
                t.add_chips(seat, 50)
                bought += 50
            elif player is not None and rng.random() < 0.03:
                cashed += t.leave(seat)
        if sum(t.can_play(seat) for seat in t.occupied()) < 2:
            continue
        hand = t.start_hand(deck=Deck.shuffled(DeckKind.STANDARD, SeededShuffler(number)))
        order = [t.seat_of(p) for p in range(hand.players)]
        assert order[-1] == t.button and all(t.player_of(s) == p for p, s in enumerate(order))
        posted = blinds(t, hand)
        if last_big_blind in order and posted:
            assert posted[-1][0] != last_big_blind  # nobody posts the big blind twice in a row
        last_big_blind = posted[-1][0] if posted else None
        while hand.phase is not Phase.OVER:
            legal = hand.legal()
            choice = rng.random()
            if legal.raise_range is not None and choice < 0.3:
                hand.bet_or_raise_to(rng.randint(*legal.raise_range))
            elif legal.can_fold and choice > 0.8:
                hand.fold()
            else:
                hand.check_or_call()
        summary = t.finish_hand()
        assert sum(summary.net.values()) == -summary.commission
        seated = sum(chips(t, s) for s in t.occupied())
        assert seated + cashed + t.commission == bought
    assert t.hands > 150
    if commission.kind is not CommissionKind.NONE:
        assert t.commission > 0


# --- table stakes ------------------------------------------------------------------------------


def test_au_7_5_qld_s19_4_no_chips_added_or_taken_during_a_hand() -> None:
    t = table({1: 100, 2: 100, 5: 100})
    t.start_hand(shuffler=SeededShuffler(0))
    with pytest.raises(TableError, match=r"au 7\.5, qld s19\(4\)"):
        t.add_chips(1, 50)
    with pytest.raises(TableError, match=r"au 7\.5, qld s19\(4\)"):
        t.leave(2)
    with pytest.raises(TableError, match="between hands"):
        t.sit(3, "late", 100)
    with pytest.raises(TableError, match="in progress"):
        t.start_hand()


def test_au_7_5_a_player_not_in_the_hand_may_add_chips() -> None:
    t = table({1: 100, 2: 100, 3: 60}, bust=Bust.SIT_OUT)
    play(t.start_hand(deck=board_deck(["Ah As", "Kh Ks", "7d 2c"], BOARD)), shove=(2,))
    assert t.finish_hand().busted == (3,)
    t.start_hand(shuffler=SeededShuffler(0))
    t.add_chips(3, 40)  # dealt out of this hand: augmenting is allowed (au 7.5)
    assert chips(t, 3) == 40 and t.player_of(3) is None


def test_qld_s31_continuing_player_under_the_minimum_wager_must_restake() -> None:
    t = table({1: 100, 2: 21, 3: 100}, buy_in=BuyIn(minimum=20, restake=True))
    # Seat 2 (big blind) calls off all but 1 chip and loses: 1 is below the minimum wager 2.
    hand = t.start_hand(deck=board_deck(["Ah As", "7d 2c", "Kh Ks"], BOARD))
    while hand.phase is not Phase.OVER:
        legal = hand.legal()
        if legal.player == 1 and legal.raise_range is not None and hand.street == 0:
            hand.bet_or_raise_to(20)
        else:
            hand.check_or_call()
    assert chips(t, 2) == 1 and not t.can_play(2)
    assert t.finish_hand().busted == (2,)
    with pytest.raises(TableError, match=r"at least 20, not 11 \(qld s31\(3\)\)"):
        t.add_chips(2, 10)
    t.add_chips(2, 19)
    assert t.can_play(2)


def test_qld_s31_4_player_who_does_not_restake_leaves() -> None:
    t = table({1: 100, 2: 21, 3: 100}, buy_in=BuyIn(minimum=20, restake=True), bust=Bust.LEAVE)
    hand = t.start_hand(deck=board_deck(["Ah As", "7d 2c", "Kh Ks"], BOARD))
    while hand.phase is not Phase.OVER:
        legal = hand.legal()
        if legal.player == 1 and legal.raise_range is not None and hand.street == 0:
            hand.bet_or_raise_to(20)
        else:
            hand.check_or_call()
    assert t.finish_hand().left == ("s2",) and t.occupied() == [1, 3]


# --- buy-ins -----------------------------------------------------------------------------------


def test_cardroom_buy_in_1_full_buy_in_is_ten_max_bets_at_limit() -> None:
    limit = Betting(structures=(Structure.FIXED,), small_bet=2, big_bet=4)
    assert BuyIn.limit(limit).minimum == 40
    spread = Betting(structures=(Structure.SPREAD,), small_bet=1, max_wager=5)
    assert BuyIn.limit(spread, short=25).minimum == 50
    with pytest.raises(TableError, match="must be designated"):
        BuyIn.limit(Betting(structures=(Structure.NO_LIMIT,), small_bet=2))


def test_au_7_4_buy_in_below_the_minimum() -> None:
    t = table({}, buy_in=BuyIn(minimum=40))
    with pytest.raises(TableError, match=r"below the minimum 40 \(au 7\.4"):
        t.sit(1, "a", 39)
    t.sit(1, "a", 40)


def test_cardroom_buy_in_2_one_short_buy_in_per_game() -> None:
    t = table({}, buy_in=BuyIn(minimum=40, short=20))
    t.sit(1, "a", 25)
    with pytest.raises(TableError, match=r"short buy-in of 20 is allowed once"):
        t.sit(2, "b", 19)
    t.leave(1)
    with pytest.raises(TableError, match=r"one short buy-in allowed .*cardroom buy-in 2"):
        t.sit(1, "a", 25)
    t.sit(1, "a", 40)
    t.sit(2, "b", 20)


def test_cardroom_buy_in_3_transfer_keeps_a_short_stack() -> None:
    t = table({}, buy_in=BuyIn(minimum=40))
    t.sit(4, "moved", 12, transfer=True)
    assert chips(t, 4) == 12


def test_buy_in_maximum_is_a_house_setting() -> None:
    t = table({1: 100}, buy_in=BuyIn(minimum=40, maximum=200))
    with pytest.raises(TableError, match="maximum 200"):
        t.sit(2, "b", 201)
    with pytest.raises(TableError, match="maximum 200"):
        t.add_chips(1, 101)


# --- errors ------------------------------------------------------------------------------------


def test_au_11_1_a_seat_taken_and_one_seat_per_player() -> None:
    t = table({3: 100})
    with pytest.raises(TableError, match=r"seat 3 is taken by s3;.*au 11\.1\(a\)"):
        t.sit(3, "b", 100)
    with pytest.raises(TableError, match="already sits"):
        t.sit(4, "s3", 100)


def test_au_5_1_seat_numbers_and_table_size() -> None:
    t = table({}, seats=6)
    for seat in (0, 7, -1):
        with pytest.raises(TableError, match=r"seats 1\.\.6 \(au 5\.1\)"):
            t.sit(seat, "x", 100)
    with pytest.raises(TableError, match=r"2 to 10 players \(au 5\.1\), not 11"):
        Table(rules(), 11, buy_in=BuyIn(minimum=20))
    assert Table(rules(), buy_in=BuyIn(minimum=20)).seats == 10
    with pytest.raises(TableError, match="empty"):
        t.add_chips(2, 10)


def test_hand_needs_two_players_with_chips() -> None:
    t = table({1: 100})
    with pytest.raises(TableError, match="at least 2 players with chips"):
        t.start_hand()
    t.sit(2, "b", 100)
    t.start_hand(shuffler=SeededShuffler(0))
    with pytest.raises(TableError, match=r"players 0\.\.1, not 2"):
        t.seat_of(2)


def test_chips_must_be_positive_whole_numbers() -> None:
    t = table({1: 100})
    for amount in (0, -5, 2.5, True):
        with pytest.raises(TableError, match=r"au 7\.1"):
            t.add_chips(1, amount)  # type: ignore[arg-type]
