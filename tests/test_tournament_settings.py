"""Tournament settings and the tournament file (TOML): what is read, and what is refused."""

from __future__ import annotations

import textwrap
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.tournament import (
    Break,
    Level,
    Purchase,
    TournamentError,
    TournamentSettings,
    fileformat,
)
from croupier.tournament.fileformat import load_tournament, parse_tournament

GOOD = """
name = "Thursday league"
table_size = 8
final_table_size = 9
denominations = [25, 100, 500]

[buy_in]
price = 5500
fee = 500
chips = 10000

[registration]
late_until_level = 2
re_entries = 1

[rebuys]
price = 5000
chips = 10000
until_level = 2
stack_at_most = 10000
most = 2

[add_on]
price = 5000
fee = 0
chips = 15000
at_level = 2

[[levels]]
small_blind = 25
big_blind = 50
minutes = 20

[[levels]]
small_blind = 50
big_blind = 100
ante = 25
minutes = 20

[[levels]]
break = 10

[[levels]]
small_blind = 100
big_blind = 200
big_blind_ante = 200
minutes = 20.5

[payouts]
unit = 100
[[payouts.ranges]]
from = 2
to = 10
percent = [65, 35]
[[payouts.ranges]]
from = 11
percent = [50, 27.5, 22.5]
"""


def _with(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new, 1)


def test_a_tournament_file_is_read_into_settings() -> None:
    s = parse_tournament(GOOD)
    assert s.name == "Thursday league" and (s.table_size, s.final_size) == (8, 9)
    assert s.stages == (
        Level(25, 50, 1200),
        Level(50, 100, 1200, ante=25),
        Break(600),
        Level(100, 200, 1230, big_blind_ante=200),
    )
    assert s.buy_in == Purchase(5500, 10000, 500)
    assert (s.late_until_level, s.re_entries) == (2, 1)
    assert s.rebuys is not None and s.rebuys.most == 2 and s.rebuys.purchase.fee == 0
    assert s.add_on is not None and s.add_on.purchase.chips == 15000
    assert s.payouts.unit == 100
    assert s.payouts.shares(12) == (Fraction(50), Fraction(55, 2), Fraction(45, 2))
    assert s.in_play(3) == (100, 500)  # the 25s leave at the break


def test_the_example_in_the_file_formats_documentation_is_a_valid_file() -> None:
    doc = fileformat.__doc__ or ""
    text = textwrap.dedent(doc[doc.index("    name =") : doc.index("Every mistake")])
    s = parse_tournament(text)
    assert s.name == "Thursday league" and s.levels[0] == Level(25, 50, 1200)
    assert s.rebuys is not None and s.add_on is not None and s.payouts.unit == 100


def test_a_missing_price_is_named_once() -> None:
    with pytest.raises(TournamentError) as caught:
        parse_tournament(
            GOOD.replace("price = 5000\nchips = 10000\nuntil", "chips = 10000\nuntil"), "t"
        )
    assert str(caught.value) == "t: rebuys.price: is required"


def test_a_tournament_file_is_read_from_disk(tmp_path: Path) -> None:
    path = tmp_path / "league.toml"
    path.write_text(GOOD, encoding="utf-8")
    assert load_tournament(path) == parse_tournament(GOOD)
    with pytest.raises(TournamentError, match="cannot read"):
        load_tournament(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_with("minutes = 20\n", "minute = 20\n"), r"levels\[1\]: unknown key 'minute'"),
        (
            _with("small_blind = 25", "small_blind = 75"),
            r"level 1.*above the big blind.*league 8, 12",
        ),
        (_with("small_blind = 25", "small_blind = 30"), r"level 1: 30 cannot be made.*league 18"),
        (
            _with("late_until_level = 2", "late_until_level = 9"),
            r"until level 9.*3 levels.*league 19",
        ),
        (_with("re_entries = 1", "re_entries = 1\nlate = 2"), r"registration: unknown key 'late'"),
        (_with("table_size = 8", "table_size = 11"), r"table size 11.*au 5.1"),
        (_with("[25, 100, 500]", "[25, 60, 500]"), r"each a multiple of the one below.*league 48"),
        (_with("[25, 100, 500]", "[5, 100, 500]"), r"more than one deck.*league 18, 48"),
        (_with("break = 10", "break = 10\nante = 5"), r"a break has only its length"),
        (_with("[65, 35]", "[65, 30]"), r"payouts.ranges\[1\].*sum to exactly 100"),
        (_with("fee = 500", "fee = 6000"), r"buy_in.*fee 6000 is more than the price"),
        (
            _with("chips = 10000\n\n[registration]", "chips = 10010\n\n[registration]"),
            r"10010.*league 18",
        ),
        (_with("name =", "nmae ="), r"top level: unknown key 'nmae'"),
        (GOOD.replace("[[levels]]", "[levels]", 1), r"not valid TOML"),
        (_with("\nuntil_level = 2", "\nuntil_level = 7"), r"rebuys at level 7"),
    ],
)
def test_mistakes_in_a_tournament_file_say_what_and_which_rule(text: str, message: str) -> None:
    with pytest.raises(TournamentError, match=message) as caught:
        parse_tournament(text, "t.toml")
    assert str(caught.value).startswith("t.toml: ")


def test_settings_refuse_a_schedule_that_starts_or_ends_with_a_break() -> None:
    for stages in ((Break(60), Level(25, 50, 60)), (Level(25, 50, 60), Break(60))):
        with pytest.raises(TournamentError, match=r"must (start|end) with a level"):
            TournamentSettings(stages=stages, buy_in=Purchase(10, 1000), denominations=(25,))


def test_a_level_with_both_kinds_of_ante_is_refused() -> None:
    with pytest.raises(TournamentError, match="not both"):
        Level(25, 50, 60, ante=5, big_blind_ante=50)


def test_late_registration_windows_follow_the_directors_level() -> None:
    s = parse_tournament(GOOD)
    # Levels 1, 2, the break after 2, level 3: open during 1 and 2, closed from the break.
    assert [s.registration_open(i) for i in range(4)] == [True, True, False, False]
    assert [s.add_on_open(i) for i in range(4)] == [False, True, True, False]
