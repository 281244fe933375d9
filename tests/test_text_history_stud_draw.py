"""PokerStars text for stud and draw, read back by the independent reader
(tests/pokerstars_format.py): the reader is first checked on histories PokerStars published,
then croupier's histories of random hands must read back to the engine's chips, add up, and
show a seat only what it saw."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from decimal import Decimal
from fractions import Fraction

import pytest

from croupier import events as ev
from croupier.betting import Betting, Structure
from croupier.deck import SeededShuffler
from croupier.events import HOUSE
from croupier.games import game
from croupier.hand import Hand, Rules
from croupier.history.text import TextHistoryError, Tournament, format_pokerstars
from croupier.pots import Basis, Commission, CommissionKind
from pokerstars_format import FormatError, parse
from scripted import act_passively, play_randomly

WHEN = datetime(2026, 1, 1, 20, 0, tzinfo=UTC)
STUD = ("stud7", "stud7-8", "razz")
DRAW = ("draw", "draw27", "triple-draw27", "badugi")

# Histories as PokerStars published them, from the regression files of the fpdb project
# (github.com/jejellyroll-fr/fpdb-3, regression-test-files/cash/Stars/{Stud,Draw}): a Razz hand
# with a completion written as a raise and a capped river; a Stud Hi/Lo hand split high and
# low; a 5 Card Draw hand with the hero's discards; a Triple Draw hand with folds after draws.
RAZZ = """\
PokerStars Game #35874780027:  Razz Limit ($0.04/$0.08 USD) - 2009/11/26 10:30:41 ET
Table 'Gotha II' 8-max
Seat 1: kobreli ($1.01 in chips)
Seat 3: manga130 ($0.36 in chips)
Seat 5: meg100 ($1.26 in chips)
Seat 6: HIWAII2 ($1.24 in chips)
Seat 7: Hero ($1.57 in chips)
Seat 8: SilkZone ($2.66 in chips)
kobreli: posts the ante $0.01
manga130: posts the ante $0.01
meg100: posts the ante $0.01
HIWAII2: posts the ante $0.01
Hero: posts the ante $0.01
SilkZone: posts the ante $0.01
*** 3rd STREET ***
Dealt to kobreli [6s]
Dealt to manga130 [9d]
Dealt to meg100 [5c]
Dealt to HIWAII2 [Qs]
Dealt to Hero [6d 9c 3d]
Dealt to SilkZone [Qc]
HIWAII2: brings in for $0.02
Hero: raises $0.02 to $0.04
SilkZone: calls $0.04
kobreli: calls $0.04
manga130: folds
meg100: calls $0.04
HIWAII2: folds
*** 4th STREET ***
Dealt to kobreli [6s] [7h]
Dealt to meg100 [5c] [5h]
Dealt to Hero [6d 9c 3d] [8s]
Dealt to SilkZone [Qc] [2c]
kobreli: bets $0.04
meg100: folds
Hero: raises $0.04 to $0.08
SilkZone: raises $0.04 to $0.12
kobreli: calls $0.08
Hero: calls $0.04
*** 5th STREET ***
Dealt to kobreli [6s 7h] [2h]
Dealt to Hero [6d 9c 3d 8s] [Jh]
Dealt to SilkZone [Qc 2c] [7c]
kobreli: bets $0.08
Hero: folds
SilkZone: calls $0.08
*** 6th STREET ***
Dealt to kobreli [6s 7h 2h] [3h]
Dealt to SilkZone [Qc 2c 7c] [Kd]
kobreli: bets $0.08
SilkZone: calls $0.08
*** RIVER ***
kobreli: bets $0.08
SilkZone: raises $0.08 to $0.16
kobreli: raises $0.08 to $0.24
SilkZone: raises $0.08 to $0.32
Betting is capped
kobreli: calls $0.08
*** SHOW DOWN ***
SilkZone: shows [3s 5d Qc 2c 7c Kd As] (Lo: 7,5,3,2,A)
kobreli: shows [Ac Qd 6s 7h 2h 3h 4c] (Lo: 6,4,3,2,A)
kobreli collected $1.49 from pot
*** SUMMARY ***
Total pot $1.56 | Rake $0.07
Seat 1: kobreli showed [Ac Qd 6s 7h 2h 3h 4c] and won ($1.49) with Lo: 6,4,3,2,A
Seat 3: manga130 folded on the 3rd Street (didn't bet)
Seat 5: meg100 folded on the 4th Street
Seat 6: HIWAII2 folded on the 3rd Street
Seat 7: Hero folded on the 5th Street
Seat 8: SilkZone showed [3s 5d Qc 2c 7c Kd As] and lost with Lo: 7,5,3,2,A
"""

STUD_HI_LO = """\
PokerStars Game #35874676388:  7 Card Stud Hi/Lo Limit ($0.04/$0.08 USD) - 2009/11/26 10:27:46 ET
Table 'Dawn II' 8-max
Seat 1: u.pressure ($11.17 in chips)
Seat 2: 123smoothie ($0.99 in chips)
Seat 3: gashpor ($1.40 in chips)
Seat 4: denny501 ($0.71 in chips)
Seat 5: Hero ($1.52 in chips)
Seat 6: TomSludge ($1.58 in chips)
Seat 7: Soroka69 ($0.83 in chips)
Seat 8: rdiezchang ($2.05 in chips)
u.pressure: posts the ante $0.01
123smoothie: posts the ante $0.01
gashpor: posts the ante $0.01
denny501: posts the ante $0.01
Hero: posts the ante $0.01
TomSludge: posts the ante $0.01
Soroka69: posts the ante $0.01
rdiezchang: posts the ante $0.01
*** 3rd STREET ***
Dealt to u.pressure [Td]
Dealt to 123smoothie [4c]
Dealt to gashpor [5d]
Dealt to denny501 [2c]
Dealt to Hero [7c 3s 5h]
Dealt to TomSludge [8s]
Dealt to Soroka69 [7d]
Dealt to rdiezchang [Ad]
denny501: brings in for $0.02
Hero: calls $0.02
TomSludge: folds
Soroka69: calls $0.02
rdiezchang: calls $0.02
u.pressure: folds
123smoothie: calls $0.02
gashpor: calls $0.02
*** 4th STREET ***
Dealt to 123smoothie [4c] [3c]
Dealt to gashpor [5d] [Qd]
Dealt to denny501 [2c] [7s]
Dealt to Hero [7c 3s 5h] [Qc]
Dealt to Soroka69 [7d] [5s]
Dealt to rdiezchang [Ad] [Js]
rdiezchang: checks
123smoothie: checks
gashpor: checks
denny501: folds
denny501 leaves the table
Hero: checks
Soroka69: checks
*** 5th STREET ***
Dealt to 123smoothie [4c 3c] [9s]
Dealt to gashpor [5d Qd] [Jd]
Dealt to Hero [7c 3s 5h Qc] [Kc]
Dealt to Soroka69 [7d 5s] [5c]
Dealt to rdiezchang [Ad Js] [Ts]
LainaRahat joins the table at seat #4
Soroka69: checks
rdiezchang: checks
123smoothie: checks
gashpor: bets $0.08
Hero: calls $0.08
Soroka69: calls $0.08
rdiezchang: folds
123smoothie: folds
*** 6th STREET ***
Dealt to gashpor [5d Qd Jd] [9d]
Dealt to Hero [7c 3s 5h Qc Kc] [6d]
Dealt to Soroka69 [7d 5s 5c] [2s]
Soroka69: checks
gashpor: bets $0.08
Hero: calls $0.08
Soroka69: calls $0.08
*** RIVER ***
Dealt to Hero [7c 3s 5h Qc Kc 6d] [4d]
Soroka69: checks
gashpor: bets $0.08
Hero: calls $0.08
Soroka69: folds
*** SHOW DOWN ***
gashpor: shows [4h 3d 5d Qd Jd 9d 6h] (HI: a flush, Queen high)
Hero: shows [7c 3s 5h Qc Kc 6d 4d] (HI: a straight, Three to Seven; LO: 7,6,5,4,3)
gashpor collected $0.40 from pot
Hero collected $0.40 from pot
*** SUMMARY ***
Total pot $0.84 | Rake $0.04
Seat 1: u.pressure folded on the 3rd Street (didn't bet)
Seat 2: 123smoothie folded on the 5th Street
Seat 3: gashpor showed [4h 3d 5d Qd Jd 9d 6h] and won ($0.40) with HI: a flush, Queen high
Seat 4: denny501 folded on the 4th Street
Seat 5: Hero showed [7c 3s 5h Qc Kc 6d 4d] and won ($0.40) with HI: a straight, Three to \
Seven; LO: 7,6,5,4,3
Seat 6: TomSludge folded on the 3rd Street (didn't bet)
Seat 7: Soroka69 folded on the River
Seat 8: rdiezchang folded on the 5th Street
"""

FIVE_CARD_DRAW = """\
PokerStars Game #49900000007:  5 Card Draw Pot Limit ($0.50/$1.00 USD) - 2010/09/20 20:00:00 \
PT [2010/09/20 20:00:00 ET]
Table 'Table II' 6-max Seat #3 is the button
Seat 1: Player1 ($106.80 in chips)
Seat 3: Player2 ($34.95 in chips)
Seat 4: Hero ($40 in chips)
Hero: posts small blind $0.50
Player1: posts big blind $1
*** DEALING HANDS ***
Dealt to Hero [6s Jh 7d 2h 3s]
Player2: raises $2 to $3
Hero: calls $2.50
Player1: calls $2
Hero: discards 1 card [Jh]
Dealt to Hero [6s 7d 2h 3s] [Qs]
Player1: discards 1 card
Player2: discards 3 cards
Hero: bets $5
Player1: folds
Player2: calls $5
*** SHOW DOWN ***
Hero: shows [6s Qs 7d 2h 3s] (high card Queen)
Player2: shows [4d Ad Ks Kd 3h] (a pair of Kings)
Player2 collected $18.10 from pot
*** SUMMARY ***
Total pot $19 | Rake $0.90
Seat 1: Player1 (big blind) folded after the Draw
Seat 3: Player2 (button) showed [4d Ad Ks Kd 3h] and won ($18.10) with a pair of Kings
Seat 4: Hero (small blind) showed [6s Qs 7d 2h 3s] and lost with high card Queen
"""

TRIPLE_DRAW = """\
PokerStars Game #63845186378:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - 2011/06/26 \
18:34:02 WET [2011/06/26 13:34:02 ET]
Table 'SeinV' 6-max Seat #1 is the button
Seat 1: Player1 ($4.36 in chips)
Seat 2: Hero ($3.40 in chips)
Seat 3: Player2 ($3 in chips)
Seat 4: Player3 ($3.98 in chips)
Seat 5: Player4 ($4.46 in chips)
Hero: posts small blind $0.05
Player2: posts big blind $0.10
*** DEALING HANDS ***
Dealt to Hero [8s Td Kd Qs Qc]
Player3: calls $0.10
Player4: folds
Player1: calls $0.10
Hero: folds
Player2: checks
*** FIRST DRAW ***
Player2: discards 3 cards
Player3: discards 2 cards
Player1: discards 2 cards
Player2: checks
Player3: checks
Player1: bets $0.10
lippo81 joins the table at seat #6
Player2: folds
Player3: calls $0.10
*** SECOND DRAW ***
Player3: discards 2 cards
Player1: stands pat
Player3: checks
Player1: bets $0.20
Player3: calls $0.20
*** THIRD DRAW ***
Player3: discards 1 card
Player1: stands pat
Player3: bets $0.20
Player1: calls $0.20
*** SHOW DOWN ***
Player3: shows [7d 2s 8d 5h 5c] (Lo: a pair of Fives)
Player1: shows [3c 6s 7h 8c 9d] (Lo: 9,8,7,6,3)
Player1 collected $1.29 from pot
*** SUMMARY ***
Total pot $1.35 | Rake $0.06
Seat 1: Player1 (button) showed [3c 6s 7h 8c 9d] and won ($1.29) with Lo: 9,8,7,6,3
Seat 2: Hero (small blind) folded before the Draw
Seat 3: Player2 (big blind) folded after the 1st Draw
Seat 4: Player3 showed [7d 2s 8d 5h 5c] and lost with Lo: a pair of Fives
Seat 5: Player4 folded before the Draw (didn't bet)
"""


def test_the_reader_reads_published_stud_and_draw_histories() -> None:
    razz = parse(RAZZ)
    assert razz.game == "Razz" and razz.button == 0
    assert razz.dealt["Hero"] == "6d 9c 3d 8s Jh" and razz.dealt["SilkZone"] == "Qc 2c 7c Kd"
    assert razz.finishing()["kobreli"] == Decimal("1.85")  # his chips in the table's next hand
    hi_lo = parse(STUD_HI_LO)
    assert hi_lo.collected == {"gashpor": Decimal("0.40"), "Hero": Decimal("0.40")}
    assert hi_lo.dealt["Hero"] == "7c 3s 5h Qc Kc 6d 4d"
    draw = parse(FIVE_CARD_DRAW)
    assert draw.dealt["Hero"] == "6s 7d 2h 3s Qs" and draw.discarded == {"Hero": ["Jh"]}
    assert draw.draws == {"Hero": [1], "Player1": [1], "Player2": [3]}
    assert draw.finishing()["Player2"] == Decimal("34.95") - Decimal(8) + Decimal("18.10")
    triple = parse(TRIPLE_DRAW)
    assert triple.draws["Player3"] == [2, 2, 1] and triple.draws["Player1"] == [2, 0, 0]
    assert triple.finishing()["Player1"] == Decimal("4.36") - Decimal("0.60") + Decimal("1.29")


def test_the_reader_refuses_stud_and_draw_lines_that_do_not_follow() -> None:
    for broken in (
        RAZZ.replace("Dealt to kobreli [6s 7h] [2h]", "Dealt to kobreli [6s 8h] [2h]"),
        RAZZ.replace("Hero: raises $0.02 to $0.04", "Hero: raises $0.04 to $0.06"),
        STUD_HI_LO.replace("Hero collected $0.40", "Hero collected $0.41"),
        FIVE_CARD_DRAW.replace("discards 1 card [Jh]", "discards 1 card [Js]"),
        FIVE_CARD_DRAW.replace("Dealt to Hero [6s 7d 2h 3s] [Qs]", "Dealt to Hero [6s 7d] [Qs]"),
        TRIPLE_DRAW.replace("folded after the 1st Draw", "folded on the Flop and more"),
    ):
        with pytest.raises(FormatError):
            parse(broken)


# ---------------------------------------------------------------------------------------------
# croupier's histories of random hands


def _rules(name: str, structure: Structure, k: int) -> Rules:
    commission = (
        Commission(kind=CommissionKind.PERCENTAGE, rate=Fraction(5, 100), basis=Basis.POT)
        if k % 3 == 0
        else None
    )
    options: dict[str, object] = {"commission": commission} if commission else {}
    if name in STUD:
        options |= {"ante": 1 + k % 2, "bring_in": 3 if k % 4 else 0}
    else:
        options |= {"blinds": (5, 10), "ante": 1 if k % 5 == 4 else 0}
    return Rules(
        game=game(name),
        betting=Betting(structures=(structure,), small_bet=10),
        **options,  # type: ignore[arg-type]
    )


def _random_hands(count: int) -> list[Hand]:
    """Hands of every stud and draw game PokerStars deals, of every limit, with antes, the
    bring-in or a completed opening, side pots and commission, played randomly to the end."""
    rng = random.Random(23)
    hands = []
    games = STUD + DRAW
    structures = (Structure.FIXED, Structure.POT, Structure.NO_LIMIT)
    for k in range(count):
        name = games[k % len(games)]
        structure = structures[(k // len(games)) % 3] if k % 2 else Structure.FIXED
        rules = _rules(name, structure, k)
        players = rng.randint(2, 6)
        stacks = [rng.choice([30, 150, 400, 1000]) for _ in range(players)]
        hand = Hand(rules, stacks, shuffler=SeededShuffler(k))
        if rules.bring_in and rng.random() < 0.7:
            hand.post_bring_in()
        play_randomly(hand, rng, checks=False)
        hands.append(hand)
    return hands


HANDS = _random_hands(140)
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"]


def test_every_stud_and_draw_history_reads_back_to_the_engines_chips() -> None:
    forms: set[str] = set()
    for hand in HANDS:
        count = hand.players
        text = format_pokerstars(
            hand, viewer=HOUSE, names=NAMES[:count], seats=[1, 2, 4, 5, 7, 8][:count],
            max_seats=8, when=WHEN, hand_id=11,
        )  # fmt: skip
        parsed = parse(text)
        assert parsed.finishing() == {NAMES[p]: hand.stacks[p] for p in range(count)}, text
        assert parsed.rake == hand.commission
        assert parsed.board == [] and "Board [" not in text
        stud = hand.rules.game.name in STUD
        assert (parsed.button == 0) == stud  # stud has no button
        for p in range(count):  # the house's record: every card each player held
            if NAMES[p] in parsed.dealt and not hand.folded[p]:
                held = hand.hole[p] + hand.up[p] if stud else hand.hole[p]
                assert sorted(parsed.dealt[NAMES[p]].split()) == sorted(map(str, held)), text
        forms |= {line.split(": ", 1)[-1].split(" ")[0] for line in text.splitlines()}
        forms |= {line for line in text.splitlines() if line.startswith("***")}
    for expected in (
        "brings", "completes", "discards", "stands", "*** 3rd STREET ***", "*** RIVER ***",
        "*** DEALING HANDS ***", "*** FIRST DRAW ***", "*** THIRD DRAW ***", "*** SHOW DOWN ***",
    ):  # fmt: skip
        assert expected in forms, expected


def test_a_seats_stud_or_draw_history_shows_only_what_that_seat_saw() -> None:
    for hand in HANDS[:70]:
        stud = hand.rules.game.name in STUD
        shown = {f"p{e.player + 1}" for e in hand.events if isinstance(e, ev.Show)}
        for seat in range(hand.players):
            me = f"p{seat + 1}"
            text = format_pokerstars(hand, viewer=seat, when=WHEN)
            parsed = parse(text)
            assert parsed.finishing() == {f"p{p + 1}": hand.stacks[p] for p in range(hand.players)}
            assert set(parsed.shown) == shown
            assert set(parsed.discarded) <= {me}  # only the owner sees which cards went
            for p in range(hand.players):
                name = f"p{p + 1}"
                if p == seat:  # its own cards, down and up, as they were dealt and drawn
                    mine = hand.hole[p] + hand.up[p] if stud else hand.hole[p]
                    if not hand.folded[p]:
                        assert sorted(parsed.dealt[me].split()) == sorted(map(str, mine)), text
                elif stud:  # another player's up cards only
                    assert (
                        parsed.dealt.get(name, "").split()
                        == [str(c) for c in hand.up[p]][: len(parsed.dealt.get(name, "").split())]
                    ), text
                    hidden = {str(c) for c in hand.hole[p]}
                    assert not hidden & set(parsed.dealt.get(name, "").split())
                else:
                    assert name not in parsed.dealt
            if hand.rules.game.name in DRAW and hand.folded[seat] is False:
                drew = [e for e in hand.events if isinstance(e, ev.Draw) and e.player == seat]
                assert parsed.draws.get(me, []) == [len(e.discarded) for e in drew]


def test_a_stud_hand_reads_as_pokerstars_writes_one() -> None:
    rules = _rules("stud7", Structure.FIXED, 1)  # ante 2, bring-in 3
    hand = Hand(rules, [100, 100, 100], shuffler=SeededShuffler(5))
    hand.post_bring_in()
    hand.bet_or_raise_to(10)
    while hand.to_act is not None:
        act_passively(hand)
    lines = format_pokerstars(hand, viewer=0, when=WHEN, names=["Ann", "Bob", "Cy"]).splitlines()
    assert lines[1] == "Table 'croupier' 3-max"
    assert lines[0].startswith("PokerStars Hand #1:  7 Card Stud Limit (10/20) - ")
    assert "Ann: posts the ante 2" in lines and "*** 3rd STREET ***" in lines
    opener = next(line for line in lines if "brings in for 3" in line)
    completer = lines[lines.index(opener) + 1]
    assert completer.endswith(": completes it to 10")
    ann = [line for line in lines if line.startswith("Dealt to Ann")]
    assert len(ann) == 5 and ann[1].count("[") == 2  # [what she had] [the new card]
    up = [line for line in lines if line.startswith("Dealt to Bob")]
    assert up[0] == f"Dealt to Bob [{hand.up[1][0]}]"  # Bob's up card only
    assert lines.index("*** RIVER ***") > lines.index("*** 6th STREET ***")
    assert not any(
        line.startswith("Dealt to Bob") for line in lines[lines.index("*** RIVER ***") :]
    )


def test_games_pokerstars_never_dealt_are_left_to_phh() -> None:
    rules = Rules(
        game=game("stud5"), betting=Betting(structures=(Structure.FIXED,), small_bet=10), ante=1
    )
    hand = Hand(rules, [100, 100])
    while hand.to_act is not None:
        act_passively(hand)
    with pytest.raises(TextHistoryError, match=r"not stud5.*PHH"):
        format_pokerstars(hand, viewer=HOUSE)


def test_a_stud_tournament_hand_has_its_level_and_no_button() -> None:
    hand = HANDS[0]  # stud7, limit
    event = Tournament(77, level=3, buy_in=Decimal(10), fee=Decimal(1))
    text = format_pokerstars(hand, viewer=HOUSE, when=WHEN, tournament=event)
    assert text.splitlines()[0].startswith(
        "PokerStars Hand #1: Tournament #77, $10.00+$1.00 USD 7 Card Stud Limit - Level III (10/20)"
    )
    parsed = parse(text)
    assert parsed.level == 3 and parsed.button == 0
