"""croupier.equity: exact results against an independent brute force, Monte Carlo against exact.

The brute force below shares nothing with the equity kernels: it deals every completion with
``itertools`` and values hands with :func:`croupier.evaluate.rank_value` (and, for Omaha and
Manila, the best of every two-hole, three-board combination). Spots are on the flop or later so
it stays small. The preflop AhKh v QsQd counts were cross-checked by a full enumeration with
eval7 (787,966 wins, 6,732 ties, 917,606 losses of 1,712,304 boards: 46.2145%).
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

import croupier.equity as eq
from croupier.cards import Card, CardError, DeckKind, parse_cards, parse_cards_or_unknown
from croupier.equity import EquityError, EquityResult, equity
from croupier.evaluate import Ranking, best_hand, evaluate, rank_value

RANKINGS = {52: "high", 36: "short36", 32: "short32"}


# --- the independent reference ---------------------------------------------------------------


def _value(game: str, hole: list[Card], board: list[Card], deck: int) -> tuple[int, int | None]:
    """(high value, qualifying low value or None) of one hand on a complete board."""
    ranking = RANKINGS[deck]
    if game in ("holdem", "shortdeck"):
        return rank_value(hole + board, ranking), None
    fives = [
        list(h) + list(b)
        for h in itertools.combinations(hole, 2)
        for b in itertools.combinations(board, 3)
    ]
    high = max(rank_value(five, ranking) for five in fives)
    if game != "omaha8":
        return high, None
    lows = [rank_value(f, "low-a5-8") for f in fives if evaluate(f, "low-a5-8").qualifies]
    return high, max(lows) if lows else None


def brute(
    hands: list[str], board: str = "", dead: str = "", game: str = "holdem", deck: int = 52
) -> tuple[int, list[Fraction], list[Fraction]]:
    """(deals, P(win alone), expected pot share) per hand, by dealing every completion."""
    holes = {"omaha": 4, "omaha8": 4, "manila3": 3}.get(game, 2)
    parsed = [[None] * holes if h == "??" else list(parse_cards_or_unknown(h)) for h in hands]
    known_board = list(parse_cards(board))
    seen = {c for h in parsed for c in h if c is not None} | set(known_board)
    seen |= set(parse_cards(dead))
    pool = [c for c in DeckKind.from_size(deck).cards if c not in seen]
    slots = [(i, j) for i, h in enumerate(parsed) for j, c in enumerate(h) if c is None]
    n = len(hands)
    wins = [0] * n
    shares = [Fraction(0)] * n
    deals = 0
    for extra in itertools.permutations(pool, len(slots)):
        # each hand's unknown cards once, in increasing order
        if any(
            a[0] == b[0] and x > y
            for a, b, x, y in zip(slots, slots[1:], extra, extra[1:], strict=False)
        ):
            continue
        filled = [list(h) for h in parsed]
        for (i, j), card in zip(slots, extra, strict=True):
            filled[i][j] = card
        full = [[c for c in h if c is not None] for h in filled]
        rest = [c for c in pool if c not in extra]
        for more in itertools.combinations(rest, 5 - len(known_board)):
            deals += 1
            values = [_value(game, h, known_board + list(more), deck) for h in full]
            high = [v[0] for v in values]
            low = [v[1] for v in values]
            winners = [p for p in range(n) if high[p] == max(high)]
            qualified = [v for v in low if v is not None]
            if not qualified:
                for p in winners:
                    shares[p] += Fraction(1, len(winners))
                if len(winners) == 1:
                    wins[winners[0]] += 1
                continue
            lows = [p for p in range(n) if low[p] == max(qualified)]
            for p in winners:
                shares[p] += Fraction(1, 2 * len(winners))
            for p in lows:
                shares[p] += Fraction(1, 2 * len(lows))
            if len(winners) == 1 and lows == winners:
                wins[winners[0]] += 1
    return deals, [Fraction(w, deals) for w in wins], [s / deals for s in shares]


def assert_matches_brute(result: EquityResult, *spot: object, **options: object) -> None:
    deals, wins, shares = brute(*spot, **options)  # type: ignore[arg-type]
    assert result.exact
    assert result.trials == deals
    for hand, win, share in zip(result, wins, shares, strict=True):
        assert hand.win == pytest.approx(float(win), abs=1e-12)
        assert hand.equity == pytest.approx(float(share), abs=1e-12)
        assert hand.win + hand.tie == pytest.approx(hand.equity, abs=1e-12)
        assert hand.stderr == 0.0


# --- the headline number ----------------------------------------------------------------------


def test_ahkh_v_qsqd_preflop_exact() -> None:
    result = equity(["AhKh", "QsQd"])
    assert result.exact and result.trials == 1_712_304
    ak, qq = result
    assert ak.win == pytest.approx(787_966 / 1_712_304, abs=1e-15)
    assert ak.tie == pytest.approx(3_366 / 1_712_304, abs=1e-15)  # 6,732 ties, half each
    assert ak.equity == pytest.approx((787_966 + 3_366) / 1_712_304, abs=1e-15)
    assert round(100 * ak.equity, 3) == 46.214
    assert qq.win == pytest.approx(917_606 / 1_712_304, abs=1e-15)
    assert ak.equity + qq.equity == pytest.approx(1.0, abs=1e-15)


def test_ahkh_v_qsqd_flops_against_eval7() -> None:
    eval7 = pytest.importorskip("eval7")
    rng = random.Random(6)
    for _ in range(3):
        rest = [c for c in range(52) if c not in parse_cards("Ah Kh Qs Qd")]
        flop = rng.sample(rest, 3)
        text = " ".join(str(Card(c)) for c in flop)
        ours = equity(["AhKh", "QsQd"], text)
        hero = [eval7.Card(s) for s in ("Ah", "Kh")]
        villain = [eval7.Card(s) for s in ("Qs", "Qd")]
        board = [eval7.Card(str(Card(c))) for c in flop]
        pool = [eval7.Card(str(Card(c))) for c in rest if c not in flop]
        points = 0
        for turn_river in itertools.combinations(pool, 2):
            cards = board + list(turn_river)
            a, b = eval7.evaluate(cards + hero), eval7.evaluate(cards + villain)
            points += 2 if a > b else 1 if a == b else 0
        assert ours[0].equity == pytest.approx(points / 2 / 990, abs=1e-12), text


# --- exact enumeration against the brute force ------------------------------------------------

SPOTS = [
    ((["AhKh", "QsQd", "JcTc"], "2h 7h 9c"), {}),
    ((["AhKh", "AsKs"], "Qh Jh 2c"), {}),  # flush v flush, split when neither comes
    ((["7s6s", "AhAd", "KcKd"], "8s 9s 2d"), {}),
    ((["AhKh", "QsQd"], "2h 7h 9h Th"), {}),
    ((["2c2d", "3c3d"], "Ac Kc Qc Jc"), {"dead": "9c 9d"}),  # board flushes and dead cards
    ((["AhKh", "QsQd"], "6h 7h 9c"), {"game": "shortdeck", "deck": 36}),
    ((["Ah6h", "TsTd", "9c8c"], "7h 6s Jh"), {"game": "shortdeck", "deck": 36}),
    ((["AhKhQhJh", "2c3c4d5d"], "Th 6c 7d"), {"game": "omaha"}),
    ((["AhKhQhJh", "2c3c4d5d", "9s9d8s8d"], "Th 6c 7d 2h"), {"game": "omaha"}),
    ((["AhKhQhJh", "2c3c4d5d"], "Th 6c 7d 8h"), {"game": "omaha8"}),
    ((["As2d3h8c", "Ad2c4s9h", "KsKd7c7h"], "5c 6d Jh Td"), {"game": "omaha8"}),
    ((["AhKh", "QsQd"], "9h 7h Tc"), {"game": "manila2", "deck": 32}),
    ((["AhKhQc", "QsQdJh"], "9h 7h Tc"), {"game": "manila3", "deck": 36}),
    ((["AhKhQc", "QsQdJh", "7c8c9d"], "9h 7h Tc"), {"game": "manila3", "deck": 32}),
    ((["AhKh", "??"], "2h 7h 9c Td"), {}),  # an unknown hand
    ((["Ah??", "??", "QsQd"], "2h 7h 9c Td 3s"), {}),  # unknown cards in two hands
    ((["AhKhQh??", "2c3c4d5d"], "Th 6c 7d 2s 3s"), {"game": "omaha"}),
]


@pytest.mark.parametrize(("spot", "options"), SPOTS)
def test_exact_matches_brute_force(spot: tuple[list[str], str], options: dict[str, object]) -> None:
    hands, board = spot
    game = str(options.get("game", "holdem"))
    deck = options.get("deck")
    result = equity(
        hands,
        board,
        str(options.get("dead", "")),
        game,
        exact=True,
        deck=deck if game == "manila3" else None,  # type: ignore[arg-type]
    )
    assert_matches_brute(
        result,
        hands,
        board,
        str(options.get("dead", "")),
        game,
        int(deck or 52),  # type: ignore[call-overload]
    )


def test_thirteen_hands_are_tallied_per_hand() -> None:
    """Over HIST_PLAYERS hands the kernels tally per hand and tie size instead of by winner set."""
    hands = ["AhKh", "QsQd", "2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d",
             "TcTd", "JcJd", "KcKd"]  # fmt: skip
    assert len(hands) > eq.HIST_PLAYERS
    assert_matches_brute(equity(hands, "2h 3h 4s"), hands, "2h 3h 4s")


def test_rank_classes_agree_with_dealing_every_board() -> None:
    """Hold'em's rank-class enumeration equals dealing every completion card by card."""
    rng = random.Random(2024)
    for players in (2, 3, 4, 6, 9):
        for board_size in (0, 3, 4):
            cards = rng.sample(range(52), 2 * players + board_size + 2)
            hands = [cards[2 * i : 2 * i + 2] for i in range(players)]
            board = cards[2 * players : 2 * players + board_size]
            dead = cards[-2:] if rng.random() < 0.5 else []
            setup = eq._setup(hands, board, dead, "holdem", None)
            fast, deals = eq._run_exact(setup)
            slow, _ = eq._run_exact(setup, by_rank_class=False)
            assert deals == setup.deals
            assert (fast == slow).all(), (hands, board, dead)


def test_short_deck_rank_classes_agree_with_dealing() -> None:
    for hands, board in ((["AhKh", "QsQd"], ""), (["As6s", "7h7d", "Tc9c"], "8s")):
        setup = eq._setup(hands, board, (), "shortdeck", None)
        fast, _ = eq._run_exact(setup)
        slow, _ = eq._run_exact(setup, by_rank_class=False)
        assert (fast == slow).all()


# --- rules ------------------------------------------------------------------------------------


def test_omaha_uses_exactly_two_hole_cards() -> None:
    """Four hearts in the hand and one on the board make no flush (au 17.5)."""
    board = "Th 2c 7d 8s 4c"
    assert evaluate("Ah Kh Qh Jh Th").description == "Royal Flush"
    assert best_hand("Ah Kh Qh Jh", board, hole_cards_used=2).category.value == "High Card"
    result = equity(["AhKhQhJh", "9c9d5s5d"], board, game="omaha")
    assert result.equities == (0.0, 1.0)  # a pair of nines beats ace high
    holdem_rules = equity(["AhKh", "9c9d"], "Qh Jh Th 8s 4c")
    assert holdem_rules.equities == (1.0, 0.0)
    # on the turn, one heart to come: still never a flush (checked against the brute force)
    turn = equity(["AhKhQhJh", "9c9d5s5d"], "Th 2c 7d 8s", game="omaha")
    assert_matches_brute(turn, ["AhKhQhJh", "9c9d5s5d"], "Th 2c 7d 8s", "", "omaha")


def test_hi_lo_halves_and_scoops() -> None:
    # A-2 makes the nut low and the wheel straight: it scoops
    scoop = equity(["Ac2d KsKh", "QcQd JsJh"], "3h 4s 5c 9d Td", game="omaha8")
    assert (scoop[0].win, scoop[0].equity) == (1.0, 1.0)
    # no qualifying low: the high hand takes the whole pot
    no_low = equity(["AcAd KsKh", "QcQd JsJh"], "9h 8s 4c Kd 2d", game="omaha8")
    assert no_low.equities == (1.0, 0.0) and no_low[0].win == 1.0
    # one hand has the high, the other the low: half each, nobody wins alone
    split = equity(["KcKd KsTh", "Ac2d 9s9h"], "3h 4s 7c Kh Qd", game="omaha8")
    assert split.equities == (0.5, 0.5)
    assert (split[0].win, split[0].tie) == (0.0, 0.5)
    # the same low twice: the high hand gets 1/2 + 1/4
    quarter = equity(["Ac2d KsKc", "As2c 9s9h"], "3h 4s 7c Kh Qd", game="omaha8")
    assert quarter.equities == (0.75, 0.25)


def test_three_way_tie_counts_a_third() -> None:
    result = equity(["2c3d", "2d3h", "2h3s"], "Ah Kd Qc Js Th")  # everyone plays the board
    assert [hand.tie for hand in result] == pytest.approx([1 / 3] * 3)
    assert [hand.win for hand in result] == [0.0, 0.0, 0.0]


def test_manila3_decks() -> None:
    on_36 = equity(["AhKhQc", "QsQdJh"], "9h 7h Tc", game="manila3")
    on_32 = equity(["AhKhQc", "QsQdJh"], "9h 7h Tc", game="manila3", deck=32)
    assert (on_36.deck, on_32.deck) == (36, 32)
    assert (on_36.trials, on_32.trials) == (351, 253)  # C(27, 2), C(23, 2)


# --- Monte Carlo ------------------------------------------------------------------------------

MC_SPOTS = [
    (["AhKh", "QsQd", "JcTc"], "", "holdem"),
    (["AhKh", "??"], "2h 7h 9c", "holdem"),
    (["AhKh", "QsQd"], "", "shortdeck"),
    (["AhKhQhJh", "2c3c4d5d"], "Th 6c", "omaha"),
    (["As2d3h8c", "Ad2c4s9h", "KsKd7c7h"], "5c 6d", "omaha8"),
    (["AhKhQc", "QsQdJh"], "9h", "manila3"),
    (["AhKh", "QsQd"], "9h", "manila2"),
    (["AhKh", "QsQd", *(f"{r}c{r}d" for r in "23456789TJK")], "2h 3h 4s", "holdem"),  # 13
]


@pytest.mark.parametrize(("hands", "board", "game"), MC_SPOTS)
def test_monte_carlo_within_four_standard_errors(hands: list[str], board: str, game: str) -> None:
    exact = equity(hands, board, game=game, exact=True)
    sampled = equity(hands, board, game=game, trials=200_000, seed=11)
    assert not sampled.exact and sampled.trials == 200_000 and sampled.seed == 11
    for mc, ex in zip(sampled, exact, strict=True):
        assert 0 < mc.stderr < 0.01
        assert abs(mc.equity - ex.equity) < 4 * mc.stderr
        assert mc.win + mc.tie == pytest.approx(mc.equity)
    assert sum(sampled.equities) == pytest.approx(1.0)


def test_same_seed_same_result_on_any_thread_count() -> None:
    for hands, game in ((["AhKh", "QsQd", "JcTc"], "holdem"), (["AhKhQhJh", "??"], "omaha")):
        first = equity(hands, game=game, trials=50_000, seed=5, threads=1)
        again = equity(hands, game=game, trials=50_000, seed=5, threads=3)
        other = equity(hands, game=game, trials=50_000, seed=6)
        assert first == again
        assert first.equities != other.equities


def test_default_method() -> None:
    assert equity(["AhKh", "QsQd"]).exact  # 1,712,304 boards: at most EXACT_LIMIT
    sampled = equity(["AhKh", "??"], trials=20_000)  # trials given: Monte Carlo
    assert not sampled.exact and sampled.seed is not None
    big = equity(["AhKh", "??", "??"])  # too many deals to enumerate
    assert not big.exact and big.trials == eq.DEFAULT_TRIALS
    river = equity(["AhKh", "QsQd"], "2c 3d 4h 5s 9c", exact=False)  # nothing left to deal
    assert river.exact and river.trials == 1 and river.equities == (1.0, 0.0)


# --- the result and the input -----------------------------------------------------------------


def test_result_api() -> None:
    hands: list[list[Card | str | None]] = [["Ah", "Kh"], [Card("Qs"), None]]
    result = equity(iter(hands), "2c 3d 4h", dead="9s")
    assert len(result) == 2 and result[0] is result.hands[0]
    assert [str(hand) for hand in result] == ["Ah Kh", "Qs ??"]
    assert result.board == parse_cards("2c 3d 4h") and result.dead == parse_cards("9s")
    data = result.to_dict()
    assert data["hands"][0]["hand"] == "Ah Kh"  # type: ignore[index]
    text = str(result)
    assert "Ah Kh" in text and "Qs ??" in text and "exact" in text
    assert text.splitlines()[0] == "holdem (52 cards), board 2c 3d 4h, dead 9s: exact, 42,570 deals"
    assert "+/-" in str(equity(["AhKh", "QsQd"], trials=1000, seed=1))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: equity(["AhKh", "AhQd"]), "duplicate card Ah"),
        (lambda: equity(["AhKh", "QsQd"], "Ah 2c 3c"), "duplicate card Ah"),
        (lambda: equity(["AhKh", "QsQd"], dead="Qs"), "duplicate card Qs"),
        (lambda: equity(["AhAh", "QsQd"]), "duplicate card Ah"),
        (lambda: equity(["Ah2h", "QsQd"], game="shortdeck"), "not in the 36-card deck"),
        (lambda: equity(["AhKh", "QsQd"], "6c 7c 8d", game="manila2"), "not in the 32-card"),
        (lambda: equity(["AhKhQh", "QsQd"]), "has 3 cards: holdem hands have 2"),
        (lambda: equity(["AhKh", "QsQdJs"], game="omaha"), "omaha hands have 4"),
        (lambda: equity(["AhKh", "QsQd"], game="pineapple"), "unknown game 'pineapple'"),
        (lambda: equity(["AhKh", "QsQd"], game="manila3", deck=40), "36 or 32 cards, not 40"),
        (lambda: equity(["AhKh", "QsQd"], "2c 3c 4c 5c 6c 7c"), "at most 5 cards"),
        (lambda: equity(["AhKh"]), "at least two hands"),
        (lambda: equity("AhKh QsQd"), "one hand per player"),
        (lambda: equity(["AhXx", "QsQd"]), "hand 1"),
        (lambda: equity(["AhKh", "QsQd"], "2c ??"), "only allowed in hands"),
        (lambda: equity(["AhKh", "QsQd"], trials=0), "trials must be a positive"),
        (lambda: equity(["AhKh", "QsQd"], trials=10.5), "trials must be a positive"),  # type: ignore[arg-type]
        (lambda: equity(["AhKh", "QsQd"], threads=0), "threads must be a positive"),
        (lambda: equity(["??"] * 9, exact=True), "too many to enumerate"),
        (lambda: equity(["??"] * 24), "not enough cards"),
    ],
)
def test_errors(call: object, message: str) -> None:
    with pytest.raises(EquityError, match=message) as raised:
        call()  # type: ignore[operator]
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, CardError)


def test_rankings_follow_the_deck() -> None:
    # short deck: a flush beats a full house (au 9.3)
    result = equity(["AhKh", "QsQd"], "Qh Jh 6h 7c 6d", game="shortdeck")
    assert result.equities == (1.0, 0.0)
    assert equity(["AhKh", "QsQd"], "Qh Jh 6h 7c 6d").equities == (0.0, 1.0)
    assert Ranking.SHORT36.deck.size == 36
