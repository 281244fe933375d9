"""PokerStars-style text export, checked line by line on scripted hands."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from fractions import Fraction

import pytest

from croupier.betting import Betting, Structure
from croupier.deck import SeededShuffler
from croupier.events import HOUSE
from croupier.games import game
from croupier.hand import Hand, Rules
from croupier.history.text import TextHistoryError, format_pokerstars
from croupier.pots import Basis, Commission, CommissionKind
from scripted import board_deck

WHEN = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)


def holdem(**options: object) -> Rules:
    return Rules(
        game=game("holdem"),
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=10),
        blinds=(5, 10),
        **options,  # type: ignore[arg-type]
    )


def test_side_pot_showdown_with_rake_reads_like_a_pokerstars_history() -> None:
    rake = Commission(kind=CommissionKind.PERCENTAGE, rate=Fraction(5, 100), basis=Basis.POT)
    hand = Hand(
        holdem(commission=rake), [50, 500, 500],
        board_deck(["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7s 9d 3h 4s"),
    )  # fmt: skip
    hand.check_or_call()
    hand.bet_or_raise_to(50)
    hand.check_or_call()
    hand.check_or_call()
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    while hand.to_act is not None:
        hand.check_or_call()
    text = format_pokerstars(hand, viewer=HOUSE, names=["Ann", "Bob", "Cy"], when=WHEN)
    lines = text.splitlines()
    assert lines[0].startswith("PokerStars Hand #1:  Hold'em No Limit (5/10) - ")
    assert lines[1] == "Table 'croupier' 3-max Seat #3 is the button"
    for expected in (
        "Seat 1: Ann (50 in chips)",
        "Ann: posts small blind 5",
        "Bob: posts big blind 10",
        "*** HOLE CARDS ***",
        "Dealt to Ann [Ah Ad]",
        "Ann: raises 40 to 50 and is all-in",
        "*** FLOP *** [2c 7s 9d]",
        "Bob: bets 100",
        "*** TURN *** [2c 7s 9d] [3h]",
        "*** RIVER *** [2c 7s 9d 3h] [4s]",
        "*** SHOW DOWN ***",
        "Ann: shows [Ah Ad] (a pair of Aces)",
        "Cy: mucks hand",
        # Main pot 150 less 5% (7) to Ann; side pot 200 less 5% (10) to Bob.
        "Ann collected 143 from main pot",
        "Bob collected 190 from side pot",
        "*** SUMMARY ***",
        "Total pot 350 Main pot 150. Side pot 200. | Rake 17",
        "Board [2c 7s 9d 3h 4s]",
        "Seat 2: Bob (big blind) showed [Kh Kd] and won (190) with a pair of Kings",
        "Seat 3: Cy (button) mucked [Qh Qd]",
    ):
        assert expected in lines, expected
    assert lines.index("Bob collected 190 from side pot") < lines.index("*** SUMMARY ***")


def test_uncalled_bet_and_heads_up_roles() -> None:
    hand = Hand(holdem(), [100, 100])
    hand.bet_or_raise_to(30)  # the button (small blind) raises
    hand.fold()
    lines = format_pokerstars(hand, viewer=HOUSE, when=WHEN).splitlines()
    assert "p2: posts small blind 5" in lines and "p1: posts big blind 10" in lines
    assert "p2: raises 20 to 30" in lines
    assert "Uncalled bet (20) returned to p2" in lines
    assert "p2 collected 20 from pot" in lines
    assert "Seat 2: p2 (button) (small blind) collected (20)" in lines
    # A blind is a bet: PokerStars writes "(didn't bet)" only for a seat that put in nothing
    # but an ante (the published histories' blinds folding before the flop).
    assert "Seat 1: p1 (big blind) folded before Flop" in lines


def test_only_finished_hands() -> None:
    unfinished = Hand(holdem(), [100, 100])
    with pytest.raises(TextHistoryError, match="finished"):
        format_pokerstars(unfinished, viewer=HOUSE)


def test_event_log_json_for_the_house_and_as_a_seat_sees_it() -> None:
    import json

    from croupier.history import dump_event_log

    hand = Hand(
        holdem(), [100, 100, 100], board_deck(["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7s 9d 3h 4s")
    )
    hand.bet_or_raise_to(30)
    hand.fold()
    hand.fold()
    house = json.loads(dump_event_log(hand, HOUSE, extra={"table": "t1"}))
    assert house["table"] == "t1" and house["stacks"] == [95, 90, 115]
    dealt = [e for e in house["events"] if e["event"] == "DealHole"]
    assert dealt[0] == {"event": "DealHole", "player": 0, "cards": ["Ah", "Ad"]}
    seat = json.loads(dump_event_log(hand, viewer=0))
    dealt = [e for e in seat["events"] if e["event"] == "DealHole"]
    assert dealt[0]["cards"] == ["Ah", "Ad"] and dealt[1]["cards"] == ["??", "??"]
    played = Hand(holdem(), [100] * 3, board_deck(["Ah Ad", "Kh Kd", "Qh Qd"], "2c 7s 9d 3h 4s"))
    while played.to_act is not None:
        played.check_or_call()
    seen = json.loads(dump_event_log(played, viewer=1))["events"]
    burns = [e["card"] for e in seen if e["event"] == "Burn"]
    assert len(burns) == 3 and burns == [None, None, None]  # burns stay face down


# ---------------------------------------------------------------------------------------------
# The published format, read by an independent reader (tests/pokerstars_format.py)

# Two histories in the form PokerStars publishes them (a tournament hand with antes and a
# player sitting out, with the site's local time and Eastern time; a cash hand with an all-in
# and rake), written for this suite. The reader was written against them.
PUBLISHED_TOURNAMENT = """\
PokerStars Hand #229785367890: Tournament #3204560000, $0.98+$0.12 USD Hold'em No Limit - \
Level IV (50/100) - 2021/07/25 11:18:39 CET [2021/07/25 5:18:39 ET]
Table '3204560000 12' 9-max Seat #3 is the button
Seat 1: Alpha (2980 in chips)
Seat 2: Bravo (1500 in chips)
Seat 3: Charlie (4120 in chips)
Seat 5: Delta (1850 in chips) is sitting out
Alpha: posts the ante 10
Bravo: posts the ante 10
Charlie: posts the ante 10
Delta: posts the ante 10
Delta: posts small blind 50
Alpha: posts big blind 100
*** HOLE CARDS ***
Dealt to Bravo [Ah Kh]
Bravo: raises 200 to 300
Charlie: folds
Delta: folds
Alpha: calls 200
*** FLOP *** [Kd 7s 2c]
Alpha: checks
Bravo: bets 400
Alpha: folds
Uncalled bet (400) returned to Bravo
Bravo collected 690 from pot
Bravo: doesn't show hand
*** SUMMARY ***
Total pot 690 | Rake 0
Board [Kd 7s 2c]
Seat 1: Alpha (big blind) folded on the Flop
Seat 2: Bravo collected (690)
Seat 3: Charlie (button) folded before Flop (didn't bet)
Seat 5: Delta (small blind) folded before Flop
"""

PUBLISHED_CASH = """\
PokerStars Hand #109681406368:  Hold'em No Limit ($0.05/$0.10 USD) - 2014/01/06 7:25:01 ET
Table 'Skat III' 6-max Seat #1 is the button
Seat 1: Asaki1 ($10 in chips)
Seat 2: Player_L ($4.50 in chips)
Seat 4: H6U5r ($12.20 in chips)
Player_L: posts small blind $0.05
H6U5r: posts big blind $0.10
*** HOLE CARDS ***
Asaki1: raises $0.20 to $0.30
Player_L: raises $4.20 to $4.50 and is all-in
H6U5r: folds
Asaki1: calls $4.20
*** FLOP *** [2c 9d Ts]
*** TURN *** [2c 9d Ts] [4h]
*** RIVER *** [2c 9d Ts 4h] [Qs]
*** SHOW DOWN ***
Player_L: shows [Ah Ad] (a pair of Aces)
Asaki1: shows [Kc Kd] (a pair of Kings)
Player_L collected $8.67 from pot
*** SUMMARY ***
Total pot $9.10 | Rake $0.43
Board [2c 9d Ts 4h Qs]
Seat 1: Asaki1 (button) showed [Kc Kd] and lost with a pair of Kings
Seat 2: Player_L (small blind) showed [Ah Ad] and won ($8.67) with a pair of Aces
Seat 4: H6U5r (big blind) folded before Flop
"""


def test_the_reader_reads_published_histories() -> None:
    from decimal import Decimal

    from pokerstars_format import parse

    tournament = parse(PUBLISHED_TOURNAMENT)
    assert tournament.tournament == "3204560000" and tournament.level == 4
    assert tournament.when == datetime(2021, 7, 25, 5, 18, 39) and tournament.time_zone == "ET"
    assert tournament.finishing() == {
        "Alpha": 2980 - 310, "Bravo": 1500 - 310 + 690, "Charlie": 4120 - 10, "Delta": 1850 - 60,
    }  # fmt: skip
    cash = parse(PUBLISHED_CASH)
    assert cash.stakes == (Decimal("0.05"), Decimal("0.10")) and cash.rake == Decimal("0.43")
    assert cash.finishing() == {
        "Asaki1": Decimal("5.50"), "Player_L": Decimal("8.67"), "H6U5r": Decimal("12.10"),
    }  # fmt: skip


def test_the_reader_refuses_what_is_not_the_format() -> None:
    from pokerstars_format import FormatError, parse

    for broken in (
        PUBLISHED_CASH.replace("Asaki1: calls $4.20", "Asaki1: calls to $4.50"),
        PUBLISHED_CASH.replace("Total pot $9.10", "Total pot $9.00"),
        PUBLISHED_CASH.replace("won ($8.67)", "won ($8.66)"),
        PUBLISHED_TOURNAMENT.replace("Seat #3 is the button", "Seat #2 is the button"),
    ):
        with pytest.raises(FormatError):
            parse(broken)


def _random_hands(count: int) -> list[Hand]:
    """Hold'em, Omaha and Omaha hi-lo hands of every limit, with antes, side pots and
    commission, played randomly to the end."""
    import random

    from croupier.rulebooks import load_rulebook
    from scripted import play_randomly

    rng = random.Random(19)
    hands = []
    tables = [
        ("rws", "holdem", "no-limit", {}),
        ("au-casino", "omaha", "pot", {"commission": "percentage", "commission_rate": "5%"}),
        ("cardroom", "holdem", "fixed", {}),
    ]
    for k in range(count):
        book, name, structure, options = tables[k % len(tables)]
        rules = load_rulebook(book).rules(name, structure, stakes=(5, 10), **options)  # type: ignore[arg-type]
        if k % 4 == 3:
            rules = replace(rules, game=game("omaha8"))
        if k % 5 == 4:
            rules = replace(rules, ante=2)
        players = rng.randint(2, 6)
        stacks = [rng.choice([40, 150, 400, 1000]) for _ in range(players)]
        hand = Hand(rules, stacks, shuffler=SeededShuffler(k))
        play_randomly(hand, rng, checks=False)
        hands.append(hand)
    return hands


def test_every_history_croupier_writes_reads_back_to_the_engines_stacks() -> None:
    from pokerstars_format import parse

    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]
    for hand in _random_hands(120):
        count = hand.players
        seats = [1, 2, 4, 5, 7, 9][:count]
        text = format_pokerstars(
            hand, viewer=HOUSE, names=names[:count], seats=seats, max_seats=9, when=WHEN,
            hand_id=7,
        )  # fmt: skip
        parsed = parse(text)
        assert parsed.finishing() == {names[p]: hand.stacks[p] for p in range(count)}, text
        assert parsed.rake == hand.commission
        assert parsed.board == [str(c) for c in hand.board]
        assert parsed.button == seats[-1] and parsed.max_seats == 9


def test_a_seats_own_history_shows_only_what_that_seat_saw() -> None:
    from pokerstars_format import parse

    for hand in _random_hands(30):
        for seat in range(hand.players):
            parsed = parse(format_pokerstars(hand, viewer=seat, when=WHEN))
            assert set(parsed.dealt) == {f"p{seat + 1}"}
            mine = " ".join(str(c) for c in hand.hole[seat])
            assert parsed.dealt[f"p{seat + 1}"] == mine
            # Hands shown at the showdown are everyone's to see; mucked ones are not.
            shown = {f"p{e.player + 1}" for e in hand.events if type(e).__name__ == "Show"}
            assert set(parsed.shown) == shown
            assert parsed.finishing() == {f"p{p + 1}": hand.stacks[p] for p in range(hand.players)}


def test_the_header_gives_the_local_time_then_eastern_time_in_brackets() -> None:
    from zoneinfo import ZoneInfo

    hand = Hand(holdem(), [100, 100])
    hand.fold()
    when = datetime(2024, 3, 15, 1, 4, 11, tzinfo=UTC)  # 21:04:11 the day before in New York
    first = format_pokerstars(hand, viewer=HOUSE, when=when, hand_id=42).splitlines()[0]
    assert first == (
        "PokerStars Hand #42:  Hold'em No Limit (5/10) - 2024/03/15 1:04:11 UTC "
        "[2024/03/14 21:04:11 ET]"
    )
    summer = datetime(2024, 7, 1, 13, 5, 0, tzinfo=UTC)  # daylight time: UTC-4
    assert (
        format_pokerstars(hand, viewer=HOUSE, when=summer)
        .splitlines()[0]
        .endswith("2024/07/01 13:05:00 UTC [2024/07/01 9:05:00 ET]")
    )
    # PokerStars' own example: a player in Central Europe (as in the published histories)
    paris = datetime(2024, 9, 22, 11, 32, 16, tzinfo=ZoneInfo("Europe/Paris"))
    assert format_pokerstars(hand, viewer=HOUSE, when=paris).splitlines()[0].endswith(
        " - 2024/09/22 11:32:16 CEST [2024/09/22 5:32:16 ET]"
    )
    # a player whose own time is Eastern time gets it once
    east = datetime(2024, 9, 22, 5, 32, 16, tzinfo=ZoneInfo("America/New_York"))
    assert format_pokerstars(hand, viewer=HOUSE, when=east).splitlines()[0].endswith(
        " - 2024/09/22 5:32:16 ET"
    )
    with pytest.raises(TextHistoryError, match="time zone"):
        format_pokerstars(hand, viewer=HOUSE, when=datetime(2024, 3, 15, 1, 4, 11))


def test_a_tournament_hand_has_the_tournament_and_level_in_its_header() -> None:
    from decimal import Decimal

    from croupier.history.text import Tournament
    from pokerstars_format import parse

    hand = Hand(holdem(ante=1), [1500, 1500, 1500])
    hand.bet_or_raise_to(30)
    hand.fold()
    hand.fold()
    event = Tournament(3204560000, level=14, buy_in=Decimal("0.98"), fee=Decimal("0.12"))
    text = format_pokerstars(hand, viewer=HOUSE, when=WHEN, tournament=event, hand_id=9)
    assert text.splitlines()[0] == (
        "PokerStars Hand #9: Tournament #3204560000, $0.98+$0.12 USD Hold'em No Limit - "
        "Level XIV (5/10) - 2026/01/01 20:00:00 UTC [2026/01/01 15:00:00 ET]"
    )
    parsed = parse(text)
    assert parsed.level == 14 and parsed.tournament == "3204560000"
    assert parsed.finishing() == {"p1": 1494, "p2": 1489, "p3": 1517}


def test_a_cash_game_writes_dollars_as_pokerstars_does() -> None:
    from decimal import Decimal

    from pokerstars_format import parse

    hand = Hand(holdem(), [1000, 450])
    hand.bet_or_raise_to(30)
    hand.fold()
    text = format_pokerstars(hand, viewer=HOUSE, when=WHEN, chip_value=Decimal("0.01"))
    assert "(Hold'em No Limit ($0.05/$0.10 USD)" in text.splitlines()[0].replace(":  ", " (")
    assert "Seat 1: p1 ($10 in chips)" in text and "Seat 2: p2 ($4.50 in chips)" in text
    assert parse(text).finishing() == {"p1": Decimal("9.90"), "p2": Decimal("4.60")}
