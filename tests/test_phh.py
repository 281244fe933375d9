"""The Poker Hand History format (phh-std): reading, writing, replaying on the engine, and the
same hands in PokerKit, the format's reference implementation."""

from __future__ import annotations

import datetime
import random
import re
import warnings
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier import events as ev
from croupier.betting import ShortAllIn
from croupier.cards import Card
from croupier.deck import Deck, SeededShuffler
from croupier.hand import Hand, Phase, Rules
from croupier.history import (
    Action,
    ActionKind,
    HandHistory,
    PHHError,
    chip_scale,
    dump_phh,
    dump_phhs,
    history_from_hand,
    load_phh,
    load_phhs,
    parse_action,
    replay,
    standard_forced_bets,
    standard_rules,
)
from peers import odd_chips_only, pokerkit_game, pokerkit_stacks, pokerkit_state

FIXTURES = Path(__file__).parent / "fixtures" / "phh"
SINGLE_FIXTURES = sorted(FIXTURES.glob("*.phh"))

pokerkit = pytest.importorskip("pokerkit")


def fixture(name: str) -> HandHistory:
    return load_phh(FIXTURES / name)


# ---------------------------------------------------------------------------------------------
# Reading and writing


def test_phh_std_example_reads_every_field_typed() -> None:
    history = fixture("phh_std_dwan_ivey.phh")
    assert history.variant == "NT"
    assert history.antes == (500, 500, 500)
    assert history.blinds_or_straddles == (1000, 2000, 0)
    assert history.min_bet == 2000
    assert history.starting_stacks == (1125600, 2000000, 553500)
    assert history.actions[1] == "d dh p2 ????"
    assert history.players == ("Phil Ivey", "Patrik Antonius", "Tom Dwan")
    assert history.year == 2009 and history.currency == "USD"
    assert history.player_count == 3


def test_decimal_amounts_stay_exact() -> None:
    history = fixture("phh_std_antonius_blom.phh")
    assert history.starting_stacks == (Decimal("1259450.25"), Decimal("678473.5"))
    assert chip_scale(history) == 100
    assert "starting_stacks = [1259450.25, 678473.5]" in dump_phh(history)


@pytest.mark.parametrize("path", SINGLE_FIXTURES, ids=lambda p: p.name)
def test_every_fixture_round_trips(path: Path) -> None:
    history = load_phh(path)
    text = dump_phh(history)
    again = load_phh(text)
    assert again == history
    assert dump_phh(again) == text  # writing is deterministic


def test_user_fields_and_unusual_strings_round_trip() -> None:
    histories = load_phhs(FIXTURES / "collection.phhs")
    final = histories[1]
    assert final.name == "final table"
    assert final.players == ('Anne "the rock" Lee', "Bo")
    assert final.user_fields["_notes"] == {
        "source": "hand-written",
        "tags": ["heads-up", "unknown stack"],
    }
    assert final.starting_stacks[0] == Decimal("Infinity")
    assert final.time == datetime.time(21, 15)
    assert load_phhs(dump_phhs(histories)) == histories
    assert [h.name for h in load_phhs(dump_phhs(histories))] == ["1", "final table"]


def test_dump_phhs_numbers_unnamed_hands_and_refuses_duplicate_names() -> None:
    history = fixture("rws_3_7_heads_up.phh")
    text = dump_phhs([history, history])
    assert text.startswith("[1]\n") and "\n[2]\n" in text
    named = replace(history, name="x")
    with pytest.raises(PHHError, match="two hands are named 'x'"):
        dump_phhs([named, named])


def test_pokerkit_reads_what_we_write() -> None:
    for path in SINGLE_FIXTURES:
        ours = load_phh(path)
        theirs = pokerkit.HandHistory.loads(dump_phh(ours))
        assert list(theirs.starting_stacks) == list(ours.starting_stacks)
        assert list(theirs.actions) == list(ours.actions)


def test_we_read_what_pokerkit_writes() -> None:
    with (FIXTURES / "qld_s29_6_all_in.phh").open("rb") as file:
        theirs = pokerkit.HandHistory.load(file)
    ours = load_phh(theirs.dumps())
    assert ours.actions == tuple(theirs.actions)
    assert ours.user_fields == {"_clause": "qld s29(6)"}
    assert replay(ours).finishing_stacks == (150, 550, 350)


# Hypothesis: any well-typed hand history survives dump -> load.

_text = st.text(
    st.characters(blacklist_categories=("Cs",), min_codepoint=0, max_codepoint=0x2FFF),
    max_size=12,
)
_amount = st.one_of(
    st.integers(0, 10**12),
    st.decimals(min_value=0, max_value=10**9, places=2, allow_nan=False),
    st.just(Decimal("Infinity")),
)
_card = st.sampled_from([*(str(Card(c)) for c in range(52)), "??"])
_cards = st.lists(_card, min_size=1, max_size=5).map("".join)


def _action(players: int) -> st.SearchStrategy[str]:
    player = st.integers(1, players).map(lambda n: f"p{n}")
    comment = st.one_of(st.just(""), _text.filter(lambda t: "\n" not in t).map(lambda t: " # " + t))
    body = st.one_of(
        _cards.map(lambda c: f"d db {c}"),
        st.tuples(player, _cards).map(lambda t: f"d dh {t[0]} {t[1]}"),
        st.tuples(player, st.sampled_from(["f", "cc", "pb", "sd", "sm", "sm -"])).map(" ".join),
        st.tuples(player, st.integers(1, 10**6)).map(lambda t: f"{t[0]} cbr {t[1]}"),
        st.tuples(player, _cards).map(lambda t: f"{t[0]} sm {t[1]}"),
    )
    return st.tuples(body, comment).map("".join)


_user_value: st.SearchStrategy[Any] = st.recursive(
    st.one_of(
        _text, st.integers(-(10**9), 10**9), st.booleans(),
        st.decimals(places=3, allow_nan=False, allow_infinity=False),
    ),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_text, inner, max_size=3),
    max_leaves=6,
)  # fmt: skip


@st.composite
def histories(draw: st.DrawFn) -> HandHistory:
    players = draw(st.integers(2, 9))

    def per_player(item: st.SearchStrategy[Any]) -> st.SearchStrategy[tuple[Any, ...]]:
        return st.lists(item, min_size=players, max_size=players).map(tuple)

    optional = {
        "author": _text,
        "event": _text,
        "city": _text,
        "time": st.times(),
        "day": st.integers(1, 28),
        "hand": st.one_of(_text, st.integers(0, 10**6)),
        "table": st.one_of(_text, st.integers(0, 100)),
        "players": per_player(_text),
        "seats": per_player(st.integers(1, 10)),
        "finishing_stacks": per_player(_amount),
        "ante_trimming_status": st.booleans(),
        "currency_symbol": _text,
        "time_banks": per_player(_amount),
    }
    fields = {
        name: draw(strategy)
        for name, strategy in optional.items()
        if draw(st.booleans())  # each optional field present or not
    }
    user = draw(st.dictionaries(_text.map(lambda t: "_" + t), _user_value, max_size=3))
    return HandHistory(
        variant="NT",
        antes=draw(per_player(_amount)),
        blinds_or_straddles=draw(per_player(_amount)),
        min_bet=draw(_amount),
        starting_stacks=draw(per_player(_amount.filter(lambda a: a > 0))),
        actions=tuple(draw(st.lists(_action(players), max_size=8))),
        user_fields=user,
        **fields,
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_generated_histories_round_trip(history: HandHistory) -> None:
    text = dump_phh(history)
    again = load_phh(text, strict=False)
    assert again == history
    assert dump_phh(again) == text
    assert load_phhs(dump_phhs([history, history]), strict=False) == [history, history]


@pytest.mark.parametrize(
    "text",
    ["d db AhKhQh", "d dh p2 ????", "p1 f", "p3 cc", "p1 cbr 300", "p1 cbr 2.5", "p2 pb",
     "p1 sd", "p1 sd AcKd", "p1 sm", "p1 sm -", "p1 sm AcKd", "p1 sm ??Kd", "p1 cc # nice call",
     "", "# a burn card is exposed"],
)  # fmt: skip
def test_every_action_of_the_grammar_parses_and_prints_back(text: str) -> None:
    action = parse_action(text, players=3)
    assert str(action) == text
    assert parse_action(str(action)) == action


def test_actions_parse_to_typed_records() -> None:
    assert parse_action("  p2   cbr  300  ") == Action(
        ActionKind.COMPLETE_BET_OR_RAISE, 1, amount=300
    )
    assert parse_action("d dh p1 Ac??").cards == (Card("Ac"), None)
    assert parse_action("p1 sm").mucks
    assert not parse_action("p1 sm -").mucks and parse_action("p1 sm -").as_dealt
    assert parse_action("p1 f # folds # twice").commentary == "folds # twice"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p1 raise 300", "expected an action 'pN f'"),
        ("p1 cbr", "expected an action"),
        ("p1 cbr lots", "expected a raise-to amount after 'cbr', got 'lots'"),
        ("p0 f", "expected a player 'p1', 'p2', ..."),
        ("p4 f", "there is no player p4 in a hand of 3 players"),
        ("d dh p1 AcK", "bad cards 'AcK'"),
        ("d db AcAc", "a card appears twice"),
        ("d db 1cAd", "bad card '1c'"),
        ("d db A?Kd", "bad card 'A?'"),
        ("x y", "expected a player"),
        ("d burn", "expected a dealer action"),
    ],
)
def test_malformed_actions_say_what_was_expected(text: str, expected: str) -> None:
    with pytest.raises(PHHError, match=re.escape(expected)):
        parse_action(text, players=3)


# ---------------------------------------------------------------------------------------------
# Errors: strict and lenient reading

GOOD = (FIXTURES / "rws_3_7_heads_up.phh").read_text()


def test_strict_reading_names_the_file_the_line_and_the_action() -> None:
    text = GOOD.replace('"p2 cbr 6",\n  "p1 f"', '"p2 cbr six",\n  "p1 f"')
    with pytest.raises(PHHError) as caught:
        load_phh(text, file="hu.phh")
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.file == "hu.phh" and error.field == "actions[6]"
    assert error.line == text.splitlines().index('  "p2 cbr six",') + 1
    assert str(error).startswith(f"hu.phh: line {error.line}: actions[6] 'p2 cbr six': ")


def test_a_path_names_the_file_in_errors(tmp_path: Path) -> None:
    path = tmp_path / "broken.phh"
    path.write_text(GOOD.replace("min_bet = 2", 'min_bet = "two"'))
    with pytest.raises(PHHError, match=r"broken\.phh: line 7: min_bet: expected a number"):
        load_phh(path)
    with pytest.raises(PHHError, match=r"missing\.phh: cannot read the file"):
        load_phh(tmp_path / "missing.phh")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("min_bet = 2\n", ""), "min_bet: missing field 'min_bet', required for variant NT"),
        (('variant = "NT"', 'variant = "XX"'), "variant: unknown variant code 'XX'"),
        (("antes = [0, 0]", "antes = [0, 0, 0]"), "antes: expected 2 entries, one per player"),
        (("starting_stacks = [100, 100]", "starting_stacks = [100, 0]"), "must be positive"),
        (("antes = [0, 0]", "antes = [0, -1]"), "antes: amounts must not be negative"),
        (("min_bet = 2", "min_bet = 2\nbring_in = 1"), "'bring_in' is not a field of variant NT"),
        (("min_bet = 2", "min_bet = 2\nyear = 2024.5"), "year: expected an integer"),
        (("min_bet = 2", "min_bet = 2\nmonth = 13"), "month: expected 1..12, got 13"),
        (("min_bet = 2", "min_bet = 2\nflavour = 1"), "unknown field 'flavour'"),
        (("d dh p2 AsKs", "d dh p3 AsKs"), "there is no player p3 in a hand of 2 players"),
        (("actions = [", "_actions = ["), "missing required field 'actions'"),
        (("actions = [", "acts = ["), "line 9: acts: unknown field 'acts'"),
        (("min_bet = 2", "min_bet = [2"), "not valid TOML"),
    ],
)
def test_strict_reading_raises_the_first_problem(change: tuple[str, str], expected: str) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(PHHError, match=re.escape(expected)):
        load_phh(text)


def test_a_card_outside_the_short_deck_is_an_error() -> None:
    text = GOOD.replace('"NT"', '"NS"').replace("7c2d", "7c5d")
    with pytest.raises(PHHError, match="5d is not in the 36-card deck of NS"):
        load_phh(text)


def test_lenient_reading_collects_every_problem_of_the_hand() -> None:
    text = (
        GOOD.replace("min_bet = 2", 'min_bet = "two"')
        .replace('"p1 cc",\n  "d db', '"p1 call",\n  "d db')
        .replace("finishing_stacks = [94, 106]", "finishing_stacks = [94, 106, 0]")
    )
    history = load_phh(text, strict=False, file="hu.phh")
    messages = [f"{e.field}: {e.message}" for e in history.errors]
    assert len(messages) == 3, messages
    assert messages[0].startswith("min_bet: expected a number")
    assert messages[1].startswith("actions[3]: expected an action")
    assert messages[2].startswith("finishing_stacks: expected 2 entries")
    assert [e.line for e in history.errors] == sorted(e.line or 0 for e in history.errors)
    assert history.min_bet is None and len(history.actions) == 8  # bad action kept as written
    result = replay(history)
    assert not result.ok and result.error is history.errors[0]


def test_lenient_collection_keeps_each_hands_problems_to_itself() -> None:
    good = GOOD.split("\n", 3)[3]  # without the comment
    text = f"[a]\n{good}\n[b]\n{good.replace('p1 f', 'p9 f')}\n[c]\n{good}"
    hands = load_phhs(text, strict=False, file="many.phhs")
    assert [h.name for h in hands] == ["a", "b", "c"]
    assert [len(h.errors) for h in hands] == [0, 1, 0]
    error = hands[1].errors[0]
    assert error.hand == 1 and error.hand_name == "b"
    missing = load_phhs(text.replace("[b]\nvariant", "[b]\n_variant"), strict=False)[1]
    assert missing.errors[0].line == text.splitlines().index("[b]") + 1  # the hand's header
    assert str(error).startswith("many.phhs: hand 2 [b]: line ")
    assert "there is no player p9" in str(error)
    with pytest.raises(PHHError, match=r"hand 2 \[b\]"):
        load_phhs(text)


def test_lenient_collection_survives_a_toml_syntax_error_in_one_hand() -> None:
    good = GOOD.split("\n", 3)[3]
    broken = good.replace("min_bet = 2", "min_bet = = 2")
    text = f"[1]\n{good}\n[2]\n{broken}\n[3]\n{good}"
    with pytest.raises(PHHError, match="not valid TOML"):
        load_phhs(text)
    hands = load_phhs(text, strict=False)
    assert [h.name for h in hands] == ["1", "2", "3"]
    assert not hands[0].errors and not hands[2].errors
    assert hands[2] == hands[0]
    (error,) = hands[1].errors
    assert "not valid TOML" in error.message
    assert error.line == text.splitlines().index("min_bet = = 2") + 1


def test_a_collection_entry_that_is_not_a_table_is_an_error() -> None:
    with pytest.raises(PHHError, match=r"expected a table of fields \(\[x\]\)"):
        load_phhs("x = 1\n")


def test_errors_pickle_with_their_location() -> None:
    import pickle

    error = PHHError("bad", file="f.phh", hand=0, hand_name="1", line=3, field="antes")
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) == "f.phh: hand 1: line 3: antes: bad"


# ---------------------------------------------------------------------------------------------
# Replays of the books' worked examples


def test_qld_s29_6_example_all_in_player_wins_the_pot_formed_before() -> None:
    result = replay(fixture("qld_s29_6_all_in.phh"))
    assert result.ok and result.complete, result.error
    assert result.finishing_stacks == (150, 550, 350)
    main, side = result.pots
    assert (main.amount, main.eligible, main.winners) == (150, (0, 1, 2), (0,))  # A
    assert (side.amount, side.eligible, side.winners) == (200, (1, 2), (1,))  # B
    assert result.commission == 0


def test_rws_3_14_3_short_all_in_does_not_reopen_the_betting() -> None:
    history = fixture("rws_3_14_3_short_all_in.phh")
    result = replay(history)
    assert result.ok, result.error
    assert result.finishing_stacks == (0, 976, 1048)
    reraise = replace(history, actions=tuple(
        "p3 cbr 34" if i == 6 else a for i, a in enumerate(history.actions)
    ))  # fmt: skip
    result = replay(reraise)
    assert not result.ok and result.error is not None
    line = GOOD_RWS.splitlines().index('  "p3 cc",  # the betting is not reopened for p3') + 1
    assert result.error.field == "actions[6]" and result.error.line == line
    assert "a short all-in does not reopen the betting" in result.error.message
    assert "legal: call 4 · fold" in result.error.message


def test_rws_3_14_3_half_a_raise_reopens_under_the_rws_rules_not_under_phh() -> None:
    # p1 is all-in for 25: 5 more, half of the 10 raise. PHH (a full raise reopens) refuses
    # p3's re-raise; the rws rules (half a raise or more is a raise) allow it.
    text = GOOD_RWS.replace("starting_stacks = [24,", "starting_stacks = [25,").replace(
        '"p1 cbr 24"', '"p1 cbr 25"'
    )
    history = replace(load_phh(text), finishing_stacks=None)
    showdown = ("p1 sm KcKd", "p3 sm AcAd", "d db 2h7s9d", "d db 3c", "d db 4h")
    history = replace(history, actions=(*history.actions[:6], "p3 cbr 35", "p2 f", *showdown))
    assert "short all-in does not reopen" in str(replay(history).error)
    rules = standard_rules(history)
    rws = replace(rules, betting=replace(rules.betting, short_all_in=ShortAllIn.HALF_REOPENS))
    result = replay(history, rws)
    assert result.ok and result.complete, result.error
    assert result.finishing_stacks == (0, 975, 1050)  # p3 wins the main pot of 75


GOOD_RWS = (FIXTURES / "rws_3_14_3_short_all_in.phh").read_text()


def test_rws_3_7_heads_up_button_posts_the_small_blind_and_acts_first() -> None:
    history = fixture("rws_3_7_heads_up.phh")
    result = replay(history)
    assert result.ok and result.finishing_stacks == (94, 106), result.error
    assert result.hand is not None
    posts = [(e.player, e.amount) for e in result.hand.events if isinstance(e, ev.PostBlind)]
    assert posts == [(1, 1), (0, 2)]  # p2, the button, posts the small blind
    wrong = replace(history, actions=(*history.actions[:2], "p1 cc"))
    error = replay(wrong).error
    assert error is not None and "p1 acts out of turn: p2 is to act" in str(error)


def test_qld_s28_8_structured_betting_and_its_cap() -> None:
    history = fixture("qld_s28_8_structured.phh")
    result = replay(history)
    assert result.ok, result.error
    over_cap = replace(history, actions=(*history.actions[:8], "p2 cbr 12"))
    error = replay(over_cap).error
    assert error is not None and "p2 may not bet or raise now" in error.message
    wrong_size = replace(history, actions=(*history.actions[:16], "p1 cbr 2"))
    error = replay(wrong_size).error
    assert error is not None and "below the minimum 4" in error.message


def test_phh_std_examples_replay_to_their_stacks() -> None:
    for name in ("phh_std_dwan_ivey.phh", "phh_std_antonius_blom.phh"):
        result = replay(fixture(name))
        assert result.ok and result.complete, result.error
    blom = replay(fixture("phh_std_antonius_blom.phh"))
    assert blom.finishing_stacks == (Decimal("1937923.75"), 0)
    assert blom.pots[0].amount == Decimal("1356947")


def test_every_fixture_replays_like_pokerkit() -> None:
    for path in SINGLE_FIXTURES:
        text = path.read_text()
        assert replay(load_phh(text)).finishing_stacks == tuple(pokerkit_stacks(text)), path


def test_a_collection_replays_hand_by_hand() -> None:
    first, final = (replay(h) for h in load_phhs(FIXTURES / "collection.phhs"))
    assert first.ok and first.finishing_stacks == (98, 97, 105)
    assert final.ok and final.finishing_stacks == (Decimal("Infinity"), 4700)
    assert any("inf" in note for note in final.notes)


# ---------------------------------------------------------------------------------------------
# Replay errors and PHH semantics

HU_TEXT = """
variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = [
  "d dh p1 {p1}",
  "d dh p2 {p2}",
  "p2 cbr 100",
  "p1 cc",
{showdown}
  "d db 2c7d9h",
  "d db Js",
  "d db 3s",
]
"""


def hu(p1: str = "AhAd", p2: str = "KhKd", showdown: str = "") -> HandHistory:
    return load_phh(HU_TEXT.format(p1=p1, p2=p2, showdown=showdown))


def test_an_all_in_runs_out_the_board_after_the_showdown() -> None:
    result = replay(hu(showdown='"p1 sm AhAd", "p2 sm KhKd",'))
    assert result.ok and result.finishing_stacks == (200, 0)


def test_unknown_hole_cards_shown_at_the_showdown_are_used() -> None:
    result = replay(hu(p1="????", showdown='"p1 sm AhAd", "p2 sm KhKd",'))
    assert result.ok and result.finishing_stacks == (200, 0)
    assert result.hand is not None and result.hand.hole[0] == [Card("Ah"), Card("Ad")]


def test_a_showdown_that_depends_on_unknown_cards_is_an_error() -> None:
    result = replay(hu(p1="????"))
    assert not result.ok and result.error is not None
    assert "depends on the unknown hole cards of p1" in result.error.message


def test_a_mucked_hand_is_dead_even_if_it_would_have_won() -> None:
    result = replay(hu(showdown='"p2 sm KhKd", "p1 sm",'))
    assert result.ok and result.finishing_stacks == (0, 200)
    assert result.hand is not None and result.hand.mucked == [True, False]
    # Mucking unknown cards forfeits too.
    assert replay(hu(p1="????", showdown='"p1 sm",')).finishing_stacks == (0, 200)


def test_showing_a_card_not_dealt_is_an_error() -> None:
    result = replay(hu(showdown='"p1 sm AhAc",'))
    assert result.error is not None and "p1 shows Ac, but was dealt AhAd" in result.error.message


def test_a_card_dealt_twice_is_an_error() -> None:
    result = replay(hu(p2="AhKd"))
    assert result.error is not None and "Ah is dealt twice" in result.error.message


def test_the_board_must_wait_for_the_betting() -> None:
    history = hu()
    early = replace(history, actions=(*history.actions[:3], "d db 2c7d9h", "p1 cc"))
    result = replay(early)
    assert result.error is not None
    assert "the board is dealt before the pre-flop betting is over: p1 is to act" in str(
        result.error
    )
    late = replace(history, actions=(*history.actions[:2], "p2 cc", "p1 cc", "p1 cc"))
    error = replay(late).error
    assert error is not None and "p1 acts before the flop is dealt" in error.message


def test_the_flop_is_three_cards() -> None:
    history = hu()
    bad = replace(history, actions=(*history.actions[:4], "d db 2c7d"))
    error = replay(bad).error
    assert error is not None and "the flop is 3 cards, got 2" in error.message


def test_a_partial_history_gives_the_stacks_behind() -> None:
    history = hu()
    result = replay(replace(history, actions=history.actions[:3]))  # p1 to act
    assert result.ok and not result.complete
    assert result.finishing_stacks == (98, 0) and result.pots == ()
    # All-in and called, but the board is not given: the hand is not over for PHH.
    result = replay(replace(history, actions=history.actions[:4]))
    assert result.ok and not result.complete and result.finishing_stacks == (0, 0)


def test_finishing_stacks_that_differ_are_an_error_naming_the_players() -> None:
    history = replace(fixture("rws_3_7_heads_up.phh"), finishing_stacks=(95, 105))
    result = replay(history)
    assert not result.ok and result.finishing_stacks == (94, 106)
    assert result.error is not None and result.error.field == "finishing_stacks"
    assert "p1 95 vs 94; p2 105 vs 106" in result.error.message


def test_unsupported_variants_say_why() -> None:
    # Every phh-std variant replays; what a variant cannot have, or the engine cannot post,
    # is a clear error.
    history = replace(fixture("rws_3_7_heads_up.phh"), variant="F7S", antes=(0, 0))
    history = replace(history, blinds_or_straddles=None, min_bet=None, bring_in=1)
    history = replace(history, small_bet=2, big_bet=4)
    assert history.validate() == []
    error = replay(history).error
    assert error is not None and error.field == "actions[4]"
    assert "F7S deals no community cards" in error.message


NS_BUTTON_BLIND = """
variant = "NS"
antes = [1, 1, 1]
blinds_or_straddles = [0, 0, 2]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ["d dh p1 AhAd", "d dh p2 KhKd", "d dh p3 QhQd", "p1 cbr 6", "p2 f", "p3 cc",
  "d db 6c7c8d", "p1 cbr 10", "p3 f"]
"""


def test_short_deck_antes_and_a_blind_on_the_button_are_posted_as_written() -> None:
    # Short deck's usual forced bets: an ante from everyone and a blind from the button alone.
    # The button's blind is the bet to match, and the action starts on its left, with p1.
    result = replay(load_phh(NS_BUTTON_BLIND))
    assert result.ok and result.complete, result.error
    assert result.finishing_stacks == tuple(pokerkit_stacks(NS_BUTTON_BLIND))
    assert result.finishing_stacks == (108, 99, 93)


def test_a_big_blind_ante_and_a_straddle_after_a_gap_are_posted_as_written() -> None:
    three = fixture("qld_s29_6_all_in.phh")
    big_blind_ante = replace(three, antes=(0, 10, 0), finishing_stacks=None)
    result = replay(big_blind_ante)
    assert result.ok and result.complete, result.error
    assert result.finishing_stacks == tuple(pokerkit_stacks(dump_phh(big_blind_ante)))
    assert sum(result.finishing_stacks) == sum(three.starting_stacks)
    four = replace(
        three, starting_stacks=(50, 500, 500, 500), blinds_or_straddles=(5, 10, 0, 20),
        antes=(0, 0, 0, 0), actions=("p1 f", "p2 f", "p3 cc", "p4 cc"), finishing_stacks=None,
        players=None,
    )  # fmt: skip
    result = replay(four)  # the straddle on the button: p1 acts first, p4 last
    assert result.ok and not result.complete, result.error
    assert result.finishing_stacks == (45, 490, 480, 480)


def test_a_straddle_next_to_the_blinds_is_posted() -> None:
    history = replace(
        fixture("qld_s29_6_all_in.phh"), starting_stacks=(500, 500, 500, 500),
        blinds_or_straddles=(5, 10, 20, 0), antes=(0, 0, 0, 0), players=None,
        finishing_stacks=None, actions=("p4 cc", "p1 f", "p2 f", "p3 cc"),
    )  # fmt: skip
    result = replay(history)
    assert result.ok and not result.complete, result.error
    assert result.finishing_stacks == (495, 490, 480, 480)


def test_draw_and_bring_in_actions_do_not_belong_to_holdem() -> None:
    history = hu()
    error = replay(replace(history, actions=(*history.actions[:2], "p2 pb"))).error
    assert error is not None and "a bring-in is not part of NT" in error.message


def test_replay_never_raises_for_a_bad_history() -> None:
    history = HandHistory(variant="NT", starting_stacks=(100,))
    result = replay(history)
    assert not result.ok and result.error is not None
    assert "missing field 'antes'" in result.error.message
    assert any("at least 2 players" in e.message for e in history.validate())


# ---------------------------------------------------------------------------------------------
# Engine hands written as PHH

NT = "NT"


def blank_history(variant: str, stacks: list[int], ante: int = 0) -> HandHistory:
    limits: dict[str, Any] = {"min_bet": 2}
    if variant == "FT":
        limits = {"small_bet": 2, "big_bet": 4}
    return HandHistory(
        variant=variant, antes=(ante,) * len(stacks), ante_trimming_status=True,
        blinds_or_straddles=(1, 2) + (0,) * (len(stacks) - 2),
        starting_stacks=tuple(stacks), **limits,
    )  # fmt: skip


def phh_rules(variant: str, stacks: list[int], ante: int = 0) -> Rules:
    return standard_rules(blank_history(variant, stacks, ante))


def random_hand(seed: int, variant: str = NT, short_stacks: bool = True) -> Hand:
    """A hand of random legal play, seeded: folds, calls, minimum, maximum and other raises."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    ante = rng.choice([0, 0, 1])
    low = 1 if short_stacks else 10
    stacks = [rng.choice([rng.randint(low, 30), rng.randint(20, 400)]) for _ in range(players)]
    blank = blank_history(variant, stacks, ante)
    rules = standard_rules(blank)
    deck = Deck.shuffled(rules.deck, SeededShuffler(seed))
    hand = Hand(rules, stacks, deck, forced=standard_forced_bets(blank))
    while hand.phase is not Phase.OVER:
        legal = hand.legal()
        roll = rng.random()
        if legal.can_fold and roll < 0.15 and not legal.can_check:
            hand.fold()
        elif legal.raise_range and roll > 0.6:
            low_to, high_to = legal.raise_range
            pick = rng.random()
            to = low_to if pick < 0.4 else high_to if pick < 0.6 else rng.randint(low_to, high_to)
            hand.bet_or_raise_to(to)
        else:
            hand.check_or_call()
    return hand


def written(hand: Hand) -> HandHistory:
    blinds = (1, 2) + (0,) * (hand.players - 2)
    return history_from_hand(hand, blinds_or_straddles=blinds)


def test_engine_hands_round_trip_and_replay_to_the_same_stacks() -> None:
    for seed in range(150):
        hand = random_hand(seed, NT if seed % 3 else "PO")
        history = written(hand)
        text = dump_phh(history)
        again = load_phh(text)
        assert again == history
        result = replay(again)
        assert result.ok and result.complete, (seed, result.error)
        assert result.finishing_stacks == tuple(hand.stacks)
        assert sum(result.finishing_stacks) == sum(hand.starting)


def test_history_from_hand_writes_the_showdown_before_the_run_out() -> None:
    history = hu(showdown='"p1 sm AhAd", "p2 sm KhKd",')
    hand = replay(history).hand
    assert hand is not None
    assert history_from_hand(hand).actions == history.actions


def test_history_from_hand_writes_pokerkits_closing_check() -> None:
    # p3 folds with nothing to call, leaving p6 the only player with chips facing nothing: the
    # engine ends the round, PokerKit has p6 check first.
    text = """
variant = "NT"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0, 0]
min_bet = 2
starting_stacks = [19, 35, 53, 10, 19, 160]
actions = ["d dh p1 KsQs", "d dh p2 JhTs", "d dh p3 4h9d", "d dh p4 Qh9c", "d dh p5 Qc9h",
  "d dh p6 5s3s", "p3 cbr 52", "p4 cc", "p5 cc", "p6 cc", "p1 cc", "p2 cc", "d db 2sQd7c",
  "p3 f"]
"""
    hand = replay(load_phh(text)).hand
    assert hand is not None
    hand.automate()  # the engine deals the rest
    while hand.phase is not Phase.OVER:
        hand.check_or_call()
    history = history_from_hand(hand)
    assert history.actions[13:15] == ("p3 f", "p6 cc")
    result = replay(history)
    assert result.ok and any("closing the round" in note for note in result.notes)
    assert pokerkit_stacks(dump_phh(history)) == list(hand.stacks)


def test_history_from_hand_refuses_rules_phh_cannot_express() -> None:
    rules = phh_rules(NT, [100, 100, 100])
    stud = replace(rules, game=replace(rules.game, name="stud7"))
    with pytest.raises(PHHError, match="the hand deals another game of that name"):
        history_from_hand(Hand(stud, [100, 100, 100]))


# ---------------------------------------------------------------------------------------------
# Against PokerKit


POINTLESS = "There is no reason to complete, bet, or raise"


def classify(hand: Hand, variant: str = NT) -> str:
    text = dump_phh(written(hand))
    result = replay(load_phh(text))
    assert result.ok, result.error
    try:
        theirs = pokerkit_stacks(text)
    except ValueError as error:
        if POINTLESS in str(error):
            return "pokerkit refuses a raise nobody can call"
        if variant == "FT" and "No more completion, betting, or raising" in str(error):
            return "pokerkit caps a fixed-limit round after the flop at a bet and 3 raises"
        if variant == "FT" and "below the minimum allowed" in str(error):
            return "fixed limit: pokerkit raises on top of a short all-in"
        raise AssertionError(f"PokerKit rejects {text}: {error}") from None
    if theirs == list(hand.stacks):
        return "agree"
    if odd_chips_only(result, list(hand.stacks), theirs):
        return "odd chips: pokerkit splits merged pots"
    raise AssertionError(f"stacks differ: ours {hand.stacks}, PokerKit {theirs}\n{text}")


def test_differential_against_pokerkit_no_limit() -> None:
    outcomes = Counter(classify(random_hand(seed)) for seed in range(300))
    assert outcomes["agree"] >= 270, outcomes
    assert set(outcomes) <= {
        "agree",
        "pokerkit refuses a raise nobody can call",
        "odd chips: pokerkit splits merged pots",
    }, outcomes


def test_differential_against_pokerkit_pot_limit_omaha_and_fixed_limit() -> None:
    for variant in ("PO", "FT"):
        outcomes = Counter(
            classify(random_hand(seed, variant, short_stacks=False), variant) for seed in range(100)
        )
        assert outcomes["agree"] >= 70, (variant, outcomes)


def pokerkit_random_history(seed: int, variant: str) -> tuple[str, list[int]]:
    """A hand of random legal play in PokerKit, written as PHH by PokerKit."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    ante = rng.choice([0, 0, 1])
    stacks = tuple(rng.choice([rng.randint(1, 12), rng.randint(5, 300)]) for _ in range(players))
    game = pokerkit_game(variant, ante)
    state = game(stacks, players)
    while state.status:
        roll = rng.random()
        if state.can_fold() and roll < 0.2 and state.checking_or_calling_amount:
            state.fold()
        elif state.can_complete_bet_or_raise_to() and roll > 0.6:
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            pick = rng.random()
            to = low if pick < 0.4 else high if pick < 0.6 else rng.randint(low, high)
            state.complete_bet_or_raise_to(to)
        else:
            state.check_or_call()
    text = pokerkit.HandHistory.from_game_state(game, state).dumps()
    return text, list(state.stacks)


def pokerkit_random_histories(seeds: range, variant: str) -> list[tuple[str, list[int]]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns when its cash game lets a player fold
        return [pokerkit_random_history(seed, variant) for seed in seeds]


REOPENS = "a short all-in does not reopen the betting"


def test_differential_pokerkit_histories_replay_on_the_engine() -> None:
    outcomes: Counter[str] = Counter()
    for variant, count in (("NT", 250), ("PO", 60), ("FT", 60)):
        for seed, (text, stacks) in enumerate(pokerkit_random_histories(range(count), variant)):
            result = replay(load_phh(text))
            if result.ok and list(result.finishing_stacks or ()) == stacks:
                outcomes["agree"] += 1
            elif result.ok and odd_chips_only(result, list(result.finishing_stacks or ()), stacks):
                outcomes["odd chips"] += 1
            elif result.error is not None and REOPENS in result.error.message:
                outcomes["pokerkit reopens the betting after a short all-in"] += 1
            elif variant == "FT" and result.error and "structured limit" in result.error.message:
                outcomes["fixed limit: pokerkit raises on top of a short all-in"] += 1
            else:
                raise AssertionError(f"{variant} {seed}: {result.error}\n{text}")
    assert outcomes["agree"] >= 340, outcomes


# ---------------------------------------------------------------------------------------------
# The differences from PokerKit, one by one


def test_like_pokerkit_no_raise_is_offered_that_nobody_can_call() -> None:
    # p2 bets all-in; p1 has 3 chips behind, short of the bet: nobody could call a raise, so
    # neither engine allows one (PokerKit: "no reason to raise").
    text = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [5, 12, 100]
actions = ["d dh p1 2c3d", "d dh p2 KcKd", "d dh p3 AcAd", "p3 cc", "p1 cc", "p2 cc",
  "d db 7h8h9s", "p1 cc", "p2 cbr 10", "p3 cbr 30", "p1 cc",
  "p1 sm 2c3d", "p2 sm KcKd", "p3 sm AcAd", "d db Jd", "d db 4c"]
"""
    result = replay(load_phh(text))
    assert not result.ok and "nobody else could call" in str(result.error)
    with pytest.raises(ValueError, match=POINTLESS):
        pokerkit_state(text)
    called = text.replace('"p3 cbr 30"', '"p3 cc"')
    assert replay(load_phh(called)).finishing_stacks == tuple(pokerkit_stacks(called))


def test_difference_odd_chips_of_pots_won_by_the_same_players() -> None:
    # p1 and p2 tie for the main pot (69) and the first side pot (3); p3 and p5 lose. The engine
    # splits each pot on its own, the odd chip of each to p1 (cardroom ties 5(d), rws 4.5);
    # PokerKit merges the two pots (72) and splits them evenly.
    text = """
variant = "NT"
antes = [1, 1, 1, 1, 1, 1]
blinds_or_straddles = [1, 2, 0, 0, 0, 0]
min_bet = 2
starting_stacks = [16, 30, 269, 335, 15, 12]
actions = ["d dh p1 Tc3s", "d dh p2 3c5c", "d dh p3 5dKd", "d dh p4 4sAd", "d dh p5 2dAc",
  "d dh p6 Td6h", "p3 cbr 4", "p4 f", "p5 cbr 7", "p6 cc", "p1 cc", "p2 cbr 10", "p3 cbr 120",
  "p5 cc", "p6 f", "p1 cc", "p2 cc", "p1 sm Tc3s", "p2 sm 3c5c", "p3 sm 5dKd", "p5 sm 2dAc",
  "d db 3dQdQs", "d db Qh", "d db 7s"]
"""
    result = replay(load_phh(text))
    assert [(p.amount, p.winners, p.shares) for p in result.pots[:2]] == [
        (69, (0, 1), (35, 34)),
        (3, (0, 1), (2, 1)),
    ]
    assert result.finishing_stacks == (37, 63, 239, 334, 0, 4)
    assert pokerkit_stacks(text) == [36, 64, 239, 334, 0, 4]


def test_difference_a_short_all_in_blind_sets_the_bet_to_match_in_phh() -> None:
    # p2's big blind of 2 is all-in for 1. PHH (PokerKit) has the others match the 1 posted;
    # the engine's own rule keeps the blind as set (league: an all-in blind does not change the
    # round's limits). The replay posts the smaller blind, and notes it.
    text = """
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [50, 1, 50]
actions = ["d dh p1 2c3d", "d dh p2 KcKd", "d dh p3 AcAd", "p3 cc", "p1 cc",
  "d db 7h8h9s", "p1 cc", "p3 cc", "d db Jd", "p1 cc", "p3 cc", "d db 4c", "p1 cc", "p3 cc",
  "p1 sm 2c3d", "p2 sm KcKd", "p3 sm AcAd"]
"""
    history = load_phh(text)
    result = replay(history)
    assert result.ok and result.finishing_stacks == (49, 0, 52)
    assert result.finishing_stacks == tuple(pokerkit_stacks(text))
    assert any("posted all-in for 1" in note for note in result.notes)
    league = replace(standard_rules(history), blinds=(1, 2))
    assert Hand(league, [50, 1, 50]).legal().call == 2  # the engine's rule: the blind as set


def test_league_a_blind_kept_as_set_is_written_so_the_history_replays_the_hand_played() -> None:
    # The engine keeps p2's short all-in big blind as the bet to match (league); a history of
    # its hand without a rulebook says so (_croupier_blind_kept), or PHH's rule would replay
    # another hand: p3 and p1 calling 1 instead of 2.
    history = load_phh(
        'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n'
        "starting_stacks = [50, 1, 50]\nactions = []\n"
    )
    hand = Hand(standard_rules(history), [50, 1, 50], shuffler=SeededShuffler(3))
    while hand.phase is not Phase.OVER:
        hand.check_or_call()
    written = history_from_hand(hand)
    assert written.user_fields["_croupier_blind_kept"] is True
    assert written.actions[3:5] == ("p3 cc", "p1 cc")
    result = replay(load_phh(dump_phh(written)))
    assert result.ok and result.finishing_stacks == tuple(hand.stacks)
    without = replace(written, user_fields={})  # PHH's rule: the largest blind posted
    assert replay(without).finishing_stacks != tuple(hand.stacks)
    plain = Hand(standard_rules(history), [50, 3, 50], shuffler=SeededShuffler(3))
    while plain.phase is not Phase.OVER:
        plain.check_or_call()
    assert "_croupier_blind_kept" not in history_from_hand(plain).user_fields  # none short


def test_difference_pokerkit_counts_a_short_first_raise_as_full() -> None:
    # Pre-flop p2 (big blind, 3 chips) goes all-in for 3: one more than the blind, not a full
    # raise. The engine (rws 3.14.3, au 10.2: a short all-in does not reopen) lets p5, who had
    # called, only call; PokerKit measures the first raise of a round against nothing and lets
    # p5 raise.
    text = """
variant = "NT"
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0]
min_bet = 2
starting_stacks = [12, 3, 12, 287, 4]
actions = ["d dh p1 3s3h", "d dh p2 6c2d", "d dh p3 Kc8s", "d dh p4 Ts7d", "d dh p5 Kd4s",
  "p3 cc", "p4 f", "p5 cc", "p1 cc", "p2 cbr 3", "p3 cc", "p5 cbr 4", "p1 f", "p3 cc",
  "p5 sm Kd4s", "p2 sm 6c2d", "p3 sm Kc8s", "d db 9dQhQd", "d db 3d", "d db Tc"]
"""
    assert pokerkit_stacks(text) == [10, 0, 15, 287, 6]
    error = replay(load_phh(text)).error
    assert error is not None and error.field == "actions[11]" and REOPENS in error.message


def test_difference_pokerkit_adds_up_consecutive_short_all_ins() -> None:
    # Flop: p1 bets 20; p2 is all-in for 25 (5 more) and p3 for 40 (15 more): each short of a
    # full raise, together a full one. PokerKit reopens the betting for p1; the engine does not.
    text = """
variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [5, 10, 0, 0]
min_bet = 10
starting_stacks = [1000, 35, 50, 1000]
actions = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 QcQd", "d dh p4 JcJd",
  "p3 cc", "p4 cc", "p1 cc", "p2 cc", "d db 2h7s9d",
  "p1 cbr 20", "p2 cbr 25", "p3 cbr 40", "p4 cc", "p1 cbr 100", "p4 cc",
  "d db 3c", "p1 cc", "p4 cc", "d db 4h", "p1 cc", "p4 cc",
  "p1 sm AcAd", "p2 sm KcKd", "p3 sm QcQd", "p4 sm JcJd"]
"""
    assert pokerkit_stacks(text) == [1195, 0, 0, 890]
    error = replay(load_phh(text)).error
    assert error is not None and error.field == "actions[13]" and REOPENS in error.message


def test_difference_fixed_limit_raise_after_a_short_all_in() -> None:
    # p4 (3 chips) completes to 3, all-in; p5 raises. The engine raises on top of the full bet
    # (2 + 2 = 4); PokerKit on top of the all-in (3 + 2 = 5).
    text = """
variant = "FT"
antes = [0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0]
small_bet = 2
big_bet = 4
starting_stacks = [129, 48, 4, 3, 6]
actions = ["d dh p1 6d7d", "d dh p2 Td9c", "d dh p3 4hKs", "d dh p4 5h9d", "d dh p5 As3c",
  "p3 f", "p4 cbr 3", "p5 cbr 5"]
"""
    pokerkit_state(text)  # accepted
    error = replay(load_phh(text)).error
    assert error is not None and "raise to 5 is above the maximum 4" in error.message


def test_fixed_limit_cap_is_pokerkits() -> None:
    # PokerKit allows four completions, bets or raises per round: the big blind and four raises
    # before the flop, a bet and three raises after. PHH's rules are one set: the engine counts
    # the blind as the opening bet, so its caps are four raises, then three.
    history = fixture("qld_s28_8_structured.phh")
    rules = standard_rules(history)
    assert (rules.betting.cap_for(0), rules.betting.cap_for(1)) == (4, 3)
    assert not rules.betting.uncapped_heads_up
    actions = (*history.actions[:11], "p1 cbr 2", "p2 cbr 4", "p3 cbr 6", "p1 cbr 8",
               "p2 cbr 10", "p3 f", "p1 cc")  # fmt: skip
    capped = replace(history, actions=actions, finishing_stacks=None)
    error = replay(capped).error
    assert error is not None and "capped" in error.message and error.field == "actions[15]"
    with pytest.raises(ValueError, match="No more completion, betting, or raising"):
        pokerkit_state(dump_phh(capped))
