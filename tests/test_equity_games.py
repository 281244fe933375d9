"""Stud, draw and hi-lo equity against a brute force that deals every completion with
itertools and values hands with croupier.evaluate's public functions; then precision, and
one result for one seed on every backend (threads, processes, a local Ray)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from croupier.cards import DeckKind, parse_cards, parse_cards_or_unknown
from croupier.equity import EquityError, equity
from croupier.evaluate import evaluate, rank_value
from croupier.executor import ProcessExecutor, SerialExecutor, ThreadExecutor

HOLE = {"stud5": 5, "stud7": 7, "stud7-8": 7, "razz": 7, "draw": 5, "draw27": 5, "badugi": 4}
RANKING = {"stud5": "high", "stud7": "high", "stud7-8": "high", "razz": "low-a5",
           "draw": "high", "draw27": "low-27", "badugi": "badugi"}  # fmt: skip


def completions(hands: list[list[object]], pool: list[object]):  # type: ignore[no-untyped-def]
    """Every way to fill the unseen cards: each hand's missing cards a combination of what
    the hands before it left."""
    if not hands:
        yield []
        return
    first, rest = hands[0], hands[1:]
    known = [c for c in first if c is not None]
    for extra in itertools.combinations(pool, len(first) - len(known)):
        left = [c for c in pool if c not in extra]
        for others in completions(rest, left):
            yield [known + list(extra), *others]


def brute(game: str, hands: list[str], dead: str = "") -> dict[str, list[Fraction]]:
    """Per hand: P(whole pot alone), P(part of it), equity, high share and low share."""
    parsed = [list(parse_cards_or_unknown(h)) for h in hands]
    parsed = [h + [None] * (HOLE[game] - len(h)) for h in parsed]
    seen = {c for h in parsed for c in h if c is not None} | set(parse_cards(dead))
    pool = [c for c in DeckKind.STANDARD.cards if c not in seen]
    n = len(hands)
    out = {k: [Fraction(0)] * n for k in ("win", "part", "equity", "high", "low")}
    deals = 0
    for cards in completions(parsed, pool):
        deals += 1
        high = [rank_value(h, RANKING[game]) for h in cards]
        low: list[int | None] = [None] * n
        if game == "stud7-8":
            lows = [evaluate(h, "low-a5-8") for h in cards]
            low = [v.value if v.qualifies else None for v in lows]
        winners = [p for p in range(n) if high[p] == max(high)]
        qualified = [v for v in low if v is not None]
        shares = [Fraction(0)] * n
        highs = [Fraction(0)] * n
        if not qualified:
            for p in winners:
                shares[p] = highs[p] = Fraction(1, len(winners))
        else:
            lows_won = [p for p in range(n) if low[p] == max(qualified)]
            for p in winners:
                highs[p] = Fraction(1, 2 * len(winners))
                shares[p] += highs[p]
            for p in lows_won:
                shares[p] += Fraction(1, 2 * len(lows_won))
        for p in range(n):
            out["win"][p] += shares[p] == 1
            out["part"][p] += 0 < shares[p] < 1
            out["equity"][p] += shares[p]
            out["high"][p] += highs[p]
            out["low"][p] += shares[p] - highs[p]
    result = {k: [v / deals for v in values] for k, values in out.items()}
    result["deals"] = [Fraction(deals)]
    return result


SPOTS = [  # small enough for the brute force: at most about 40,000 deals
    ("stud7", ["Ah Kh 7c 7d Qc Qd", "2s 2h Js Th 9s 8s"], ""),
    ("stud7", ["Ah Kh Qh Jh 2c 3c", "?? 9s 9d 8c 8h Kd"], "2h 3h 4h 5h 6h 2d 3d 4d 5d 6d"),
    ("stud5", ["As Ks Qs Js", "9d 9c Tc 8h"], "Ts"),
    ("stud7-8", ["As 2d 3h 4c 9s 8d", "Ks Kd 7h 7c 2c Qd"], ""),
    ("stud7-8", ["As 2d 3h 4c 5s Kd", "2s 3s 4h 6h 9c 9d"], "7c 7d 8h 8s 6c 6d"),
    ("razz", ["As 2d 3h 4c 9s 8d", "Ks Kd 7h 7c 2c Qd"], ""),
    ("razz", ["As 2d 3h 4c 9s 8c", "Ah 2c 3d 5c 6s"], "4h 4s 5d 5h 6c 6d 7c 7d 7h 7s 8d 8h 8s"),
    ("draw", ["Ah Ad Kc Qh", "7s 8s 9s Ts"], "2c"),
    ("draw27", ["7h 5d 4c 3s", "8h 6d 4s 3d 2c"], ""),
    ("draw27", ["7h 5d 4c", "8h 6d 4s 3d 2c"], "Ts Js"),
    ("badugi", ["Ac 2d 3h", "Kc Qd Jh Ts"], ""),
    ("badugi", ["Ac 2d", "4c 5d 6h 7s"], "3h"),
]


@pytest.mark.parametrize(("game", "hands", "dead"), SPOTS)
def test_stud_and_draw_equity_matches_dealing_every_completion(
    game: str, hands: list[str], dead: str
) -> None:
    result = equity(hands, dead=dead, game=game, exact=True)
    expected = brute(game, hands, dead)
    assert result.exact and result.trials == expected["deals"][0]
    for p, hand in enumerate(result):
        assert hand.win == pytest.approx(float(expected["win"][p]), abs=1e-12)
        assert hand.tie_chance == pytest.approx(float(expected["part"][p]), abs=1e-12)
        assert hand.equity == pytest.approx(float(expected["equity"][p]), abs=1e-12)
        assert hand.high == pytest.approx(float(expected["high"][p]), abs=1e-12)
        assert hand.low == pytest.approx(float(expected["low"][p]), abs=1e-12)
        assert hand.win + hand.tie == pytest.approx(hand.equity, abs=1e-12)


def test_tie_chance_and_tie_share_are_reported_apart() -> None:
    """AhKh v QsQd: 6,732 of 1,712,304 boards split (0.393%), worth half a pot each (0.197%)."""
    ak, qq = equity(["AhKh", "QsQd"])
    assert ak.tie_chance == qq.tie_chance == pytest.approx(6_732 / 1_712_304, abs=1e-15)
    assert ak.tie == pytest.approx(3_366 / 1_712_304, abs=1e-15)


def test_hi_lo_reports_halves_scoops_and_the_chance_of_a_low() -> None:
    result = equity(["As 2d 3h 4c Ks Kd", "Qs Qd 7h 7c 2c Qh"], game="stud7-8")
    assert result.hi_lo and result.low_chance is not None
    low_hand, high_hand = result
    assert low_hand.high + low_hand.low == pytest.approx(low_hand.equity)
    assert high_hand.low == 0.0  # Q-Q-Q-7-7 never makes an eight-low
    assert 0 < result.low_chance < 1
    text = str(result)
    assert "scoop" in text and "high" in text and "a qualifying low on" in text


def test_short_hands_and_bad_stud_input_are_errors() -> None:
    with pytest.raises(EquityError, match="stud7 hands have at most 7"):
        equity(["As 2d 3h 4c 9s 8d 7c 6c", "Ks"], game="stud7")
    with pytest.raises(EquityError, match="stud7 has no board"):
        equity(["As 2d", "Ks Kd"], "Qc Jc Tc", game="stud7")
    with pytest.raises(EquityError, match="holdem hands have 2"):
        equity(["As", "Ks Kd"])  # only stud and draw hands may be short


# --- precision and backends ---------------------------------------------------------------


def test_precision_stops_once_every_standard_error_reaches_it() -> None:
    three = ["AhKh", "QsQd", "JcTc"]
    loose = equity(three, exact=False, precision=0.004, seed=9, chunk_trials=4096)
    assert not loose.exact and max(h.stderr for h in loose) <= 0.004
    assert loose.trials < 100_000  # stopped long before the cap
    one_chunk_fewer = equity(three, trials=loose.trials - 4096, seed=9, chunk_trials=4096)
    assert max(h.stderr for h in one_chunk_fewer) > 0.004
    capped = equity(three, precision=1e-6, trials=20_000, seed=9)
    assert capped.trials == 20_000  # the cap holds when the precision is out of reach
    exact = equity(["AhKh", "QsQd"], precision=0.001)
    assert exact.exact  # enumeration is cheap here, and exact meets any precision


MC_CASES = [
    (["AhKh", "QsQd", "JcTc"], "", "holdem"),
    (["QQ+, AKs:0.5", "22-99", "??"], "", "holdem"),
    (["AhKhQhJh", "??"], "Th 2c", "omaha8"),
    (["As 2d 3h", "Ks Kd"], "", "stud7-8"),
]


def test_same_seed_same_result_on_every_backend_and_worker_count() -> None:
    options = {"trials": 30_000, "seed": 77, "chunk_trials": 4096}
    with ProcessExecutor(2) as processes:  # one pool for every case: its start is slow
        for hands, board, game in MC_CASES:
            expected = equity(hands, board, game=game, executor=SerialExecutor(), **options)
            for executor in (ThreadExecutor(1), ThreadExecutor(3), processes):
                assert equity(hands, board, game=game, executor=executor, **options) == expected
            assert equity(hands, board, game=game, **{**options, "seed": 78}) != expected


def test_same_seed_same_result_on_a_local_ray() -> None:
    ray = pytest.importorskip("ray")
    from croupier.executor import RayExecutor

    hands, board, game = MC_CASES[1]  # ranges, an unseen hand and weights
    options = {"trials": 30_000, "seed": 77, "chunk_trials": 4096}
    expected = equity(hands, board, game=game, executor=SerialExecutor(), **options)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        for workers in (1, 2):
            with RayExecutor(workers) as executor:
                assert equity(hands, board, game=game, executor=executor, **options) == expected
    finally:
        ray.shutdown()
