"""Hostile PHH files (issue 13, item 5): whatever a file holds, reading it gives a hand history or
a PHHError naming the file, the hand and the field, and replay() gives a result, never a raw
exception, in bounded time. Each test is named after a fault the fuzzer found."""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.history import HandHistory, PHHError, dump_phh, load_phh, load_phhs, replay
from croupier.history.actions import MAX_AMOUNT, amount_problem, parse_action
from croupier.history.fields import MAX_ACTIONS, MAX_NESTING
from croupier.history.phh import MAX_PHH_BYTES

FIXTURES = Path(__file__).parent / "fixtures" / "phh"
GOOD = (FIXTURES / "rws_3_7_heads_up.phh").read_text()
runner = CliRunner()


def hostile(tmp_path: Path, old: str, new: str, *, count: int = 1) -> tuple[Path, Path]:
    """The heads-up fixture with ``old`` replaced, as a .phh and as the second hand of a .phhs
    (whose first hand is the fixture as it is)."""
    assert old in GOOD, old
    text = GOOD.replace(old, new, count)
    single = tmp_path / "hostile.phh"
    single.write_text(text)
    collection = tmp_path / "hostile.phhs"
    collection.write_text(f"[first]\n{GOOD}\n[second]\n{text}\n")
    return single, collection


def refused(path: Path) -> PHHError:
    """The PHHError that reading ``path`` gives (strict), after checking that lenient reading
    gives the same problem and that replay() reports it instead of raising."""
    read = load_phhs if path.suffix == ".phhs" else load_phh
    with pytest.raises(PHHError) as caught:
        read(path)
    error = caught.value
    assert error.file == str(path)
    lenient = read(path, strict=False)
    histories = lenient if isinstance(lenient, list) else [lenient]
    results = [replay(history) for history in histories]
    assert any(not result.ok and result.error is not None for result in results)
    return error


def check_located(single: Path, collection: Path, field: str) -> PHHError:
    """Both files are refused, naming the file and the field; the .phhs names the hand too."""
    error = refused(single)
    assert error.field == field and error.line is not None, error
    in_collection = refused(collection)
    assert in_collection.hand == 1 and in_collection.hand_name == "second"
    assert in_collection.field == field, in_collection
    assert str(in_collection).startswith(f"{collection}: hand 2 [second]: line ")
    return error


# --- numbers ---------------------------------------------------------------------------------


def test_min_bet_inf_is_a_phh_error_not_an_overflow_error(tmp_path: Path) -> None:
    error = check_located(*hostile(tmp_path, "min_bet = 2", "min_bet = inf"), "min_bet")
    assert "inf is not an amount: amounts are finite" in error.message


def test_min_bet_1e_minus_999999_is_refused_not_replayed_for_minutes(tmp_path: Path) -> None:
    # It made the chip scale 10**999999: every amount became a million-digit integer.
    error = check_located(*hostile(tmp_path, "min_bet = 2", "min_bet = 1e-999999"), "min_bet")
    assert "has more than 8 decimal places" in error.message


def test_a_blind_of_1e999999_is_refused_not_replayed_for_minutes(tmp_path: Path) -> None:
    paths = hostile(tmp_path, "blinds_or_straddles = [1, 2]", "blinds_or_straddles = [1e999999, 2]")
    error = check_located(*paths, "blinds_or_straddles")
    assert "p1: 1E+999999 is too large: amounts are below 10**15" in error.message


def test_an_ante_of_1e999999999_is_a_phh_error_not_decimal_overflow(tmp_path: Path) -> None:
    error = check_located(*hostile(tmp_path, "antes = [0, 0]", "antes = [0, 1e999999999]"), "antes")
    assert "p2: 1E+999999999 is too large" in error.message


def test_a_table_maximum_of_1e9999999_in_the_options_is_a_phh_error_not_decimal_overflow(
    tmp_path: Path,
) -> None:
    options = '_croupier_rulebook = "au-casino"\n_croupier_options = {max_wager = 1e9999999}'
    single, _ = hostile(tmp_path, "min_bet = 2", f"min_bet = 2\n{options}")
    result = replay(load_phh(single))  # the options are read when the hand is rebuilt
    assert not result.ok and result.error is not None
    assert "max_wager: 1E+9999999 is too large a number of chips" in str(result.error)


def test_a_float_beyond_decimals_range_is_a_phh_error_not_invalid_operation(
    tmp_path: Path,
) -> None:
    single, collection = hostile(tmp_path, "min_bet = 2", "min_bet = 1e99999999999999999999")
    for path in (single, collection):
        error = refused(path)
        assert "the number 1e99999999999999999999 is out of range" in error.message


def test_a_number_of_5000_digits_is_a_phh_error_not_a_value_error(tmp_path: Path) -> None:
    single, collection = hostile(tmp_path, "min_bet = 2", f"min_bet = {'9' * 5000}")
    for path in (single, collection):
        error = refused(path)
        assert "not a document croupier reads" in error.message and "4300 digits" in error.message
    # 4,000 digits read as an integer, and are too large
    error = check_located(*hostile(tmp_path, "min_bet = 2", f"min_bet = {'9' * 4000}"), "min_bet")
    assert "an integer of" in error.message and "is too large" in error.message


def test_an_action_amount_of_5000_digits_is_a_phh_error_not_a_value_error(tmp_path: Path) -> None:
    paths = hostile(tmp_path, '"p2 cbr 6"', f'"p2 cbr {"9" * 5000}"')
    error = check_located(*paths, "actions[2]")
    assert "(5000 characters) is too long for an amount" in error.message
    assert len(str(error)) < 300  # the action is cut short in the message too


@pytest.mark.parametrize(
    ("amount", "problem"),
    [
        ("1e999999", "1E+999999 is too large"),
        ("1e-999999", "1E-999999 has more than 8 decimal places"),
        ("1e99999999999999999999", "1e99999999999999999999 is out of range"),
        ("1000000000000000", "1000000000000000 is too large"),
        ("0.000000001", "1E-9 has more than 8 decimal places"),
    ],
)
def test_action_amounts_out_of_range_are_phh_errors(amount: str, problem: str) -> None:
    with pytest.raises(PHHError, match=re.escape(problem)):
        parse_action(f"p1 cbr {amount}")


def test_a_player_number_of_5000_digits_is_a_phh_error_not_a_value_error(tmp_path: Path) -> None:
    error = check_located(*hostile(tmp_path, '"p1 f"', f'"p{"9" * 5000} f"'), "actions[7]")
    assert error.message.startswith("there is no player 'p9999")


def test_amount_bounds_read_digits_and_keep_what_real_hands_write() -> None:
    # Values computed by hand: the largest amount and the most places allowed pass.
    assert amount_problem(MAX_AMOUNT - 1) is None and amount_problem(-(MAX_AMOUNT - 1)) is None
    assert amount_problem(Decimal("999999999999999.99999999")) is None
    assert amount_problem(Decimal("1.50000000000000000000")) is None  # trailing zeros
    assert amount_problem(Decimal("0E-999999")) is None  # zero, however written
    assert amount_problem(Decimal("Infinity"), unknown=True) is None  # an unknown stack
    assert amount_problem(Decimal("-Infinity"), unknown=True) is not None
    assert amount_problem(Decimal("NaN"), unknown=True) is not None
    assert amount_problem(MAX_AMOUNT) is not None
    assert amount_problem(Decimal("0.000000015")) is not None


def test_an_inf_stack_is_still_an_unknown_stack() -> None:
    hands = load_phhs(FIXTURES / "collection.phhs")
    assert hands[1].starting_stacks[0] == Decimal("Infinity")
    assert all(replay(hand).ok for hand in hands)


def test_replay_of_a_history_built_in_python_with_min_bet_inf_reports_it() -> None:
    history = replace(load_phh(GOOD), min_bet=Decimal("Infinity"))
    result = replay(history)
    assert not result.ok and result.error is not None and result.error.field == "min_bet"


def test_other_numeric_fields_are_bounded_too(tmp_path: Path) -> None:
    error = check_located(
        *hostile(tmp_path, "min_bet = 2", "min_bet = 2\nyear = 10000000000000000"), "year"
    )
    assert "is too large: integers are below 10**15" in error.message
    # a hand's number is an identifier, a 64-bit integer as trackers keep it (issue 41)
    error = check_located(
        *hostile(tmp_path, "min_bet = 2", "min_bet = 2\nhand = 10000000000000000000"), "hand"
    )
    assert "is too large: integers are below 2**63" in error.message
    error = check_located(
        *hostile(tmp_path, "min_bet = 2", "min_bet = 2\ntime_limit = inf"), "time_limit"
    )
    assert "amounts are finite" in error.message


# --- nesting and size ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "nested",
    [
        "_deep = " + "[" * 1000 + "]" * 1000,  # tomli refuses past 400 levels: RecursionError
        "_deep." + ".".join(["a"] * 2000) + " = 1",  # tomli refuses keys of 1000 parts
    ],
    ids=["arrays", "dotted-key"],
)
def test_deep_nesting_is_a_phh_error_not_a_recursion_error(tmp_path: Path, nested: str) -> None:
    single, collection = hostile(tmp_path, "min_bet = 2", f"min_bet = 2\n{nested}")
    for path in (single, collection):
        assert "not a document croupier reads" in refused(path).message


def test_a_user_field_nested_deeper_than_the_bound_is_a_phh_error(tmp_path: Path) -> None:
    depth = MAX_NESTING + 1
    nested = "_deep = " + "[" * depth + "]" * depth
    error = check_located(*hostile(tmp_path, "min_bet = 2", f"min_bet = 2\n{nested}"), "_deep")
    assert error.message == f"nested more than {MAX_NESTING} levels deep"
    within = "_deep = " + "[" * MAX_NESTING + "]" * MAX_NESTING
    assert load_phh(GOOD.replace("min_bet = 2", f"min_bet = 2\n{within}")).user_fields["_deep"]


def test_writing_a_deeply_nested_user_field_is_a_phh_error_not_a_recursion_error() -> None:
    # A lenient read keeps the field; writing it recursed until Python gave up.
    nested = "_deep." + ".".join(["a"] * 900) + " = 1"
    history = load_phh(GOOD.replace("min_bet = 2", f"min_bet = 2\n{nested}"), strict=False)
    assert history.errors and history.errors[0].field == "_deep"
    with pytest.raises(PHHError, match=f"nested more than {MAX_NESTING} levels deep"):
        dump_phh(history)


def test_a_file_over_the_size_bound_is_a_phh_error(tmp_path: Path) -> None:
    path = tmp_path / "big.phh"
    path.write_text(GOOD + f'_pad = "{"x" * MAX_PHH_BYTES}"\n')
    for strict in (True, False):  # a file's own problems raise in lenient reading too
        with pytest.raises(PHHError, match="too large for PHH, which allows 1 MiB") as caught:
            load_phh(path, strict=strict)
        assert caught.value.file == str(path)
    with pytest.raises(PHHError, match="too large for PHH"):
        load_phh(path.read_bytes())


def test_more_actions_than_a_hand_can_have_is_a_phh_error(tmp_path: Path) -> None:
    actions = ", ".join(['"p1 cc"'] * (MAX_ACTIONS + 1))
    text = re.sub(r"actions = \[[^\]]*\]", f"actions = [{actions}]", GOOD)
    (tmp_path / "long.phh").write_text(text)
    error = refused(tmp_path / "long.phh")
    assert error.field == "actions" and "a hand has at most 10,000" in error.message


def test_phh_bytes_that_are_not_utf8_are_a_phh_error_not_a_unicode_decode_error() -> None:
    with pytest.raises(PHHError, match="not UTF-8 text") as caught:
        load_phh(GOOD.encode() + b"\xff\n", file="bytes.phh")
    assert caught.value.file == "bytes.phh"


def test_a_huge_value_is_cut_short_in_the_message(tmp_path: Path) -> None:
    single, _ = hostile(tmp_path, "min_bet = 2", f"min_bet = [{', '.join(['1'] * 3000)}]")
    error = refused(single)
    assert error.field == "min_bet" and len(error.message) < 200, error.message


# --- inside replay: faults in modules being rewritten (see the report) -------------------------


def test_a_croupier_hand_without_the_blinds_its_rulebook_posts_is_a_phh_error() -> None:
    text = (
        'variant = "croupier"\nantes = [0, 0]\nmin_bet = 10\nstarting_stacks = [100, 100]\n'
        'actions = []\n_croupier_game = "holdem"\n_croupier_rulebook = "qld"\n'
    )
    result = replay(load_phh(text))
    assert not result.ok and result.error is not None
    assert result.error.field == "blinds_or_straddles"


# --- croupier replay -------------------------------------------------------------------------


def test_replay_on_a_missing_file_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    for missing in (tmp_path / "nothing.phh", tmp_path / "no-folder"):
        result = runner.invoke(app, ["replay", str(missing)])
        assert result.exit_code == 2, result.output
        assert result.output.strip().splitlines() == [f"error: no such file or folder: {missing}"]


def test_replay_on_a_folder_without_hand_histories_exits_2(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a hand")
    result = runner.invoke(app, ["replay", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.strip() == f"error: no .phh, .phhs or .jsonl files in {tmp_path}"


def test_replay_numbers_hands_from_1_in_a_phh_and_a_phhs_alike(tmp_path: Path) -> None:
    single = str(FIXTURES / "rws_3_7_heads_up.phh")
    collection = str(FIXTURES / "collection.phhs")
    lines = runner.invoke(app, ["replay", single, "--json"]).output.splitlines()
    records = [__import__("json").loads(line) for line in lines]
    assert [(r["hand"], r["name"]) for r in records] == [(1, None)]
    lines = runner.invoke(app, ["replay", collection, "--json"]).output.splitlines()
    records = [__import__("json").loads(line) for line in lines]
    assert [(r["hand"], r["name"]) for r in records] == [(1, "1"), (2, "final table")]
    text = (
        runner.invoke(app, ["replay", single]).output
        + runner.invoke(app, ["replay", collection]).output
    )
    assert f"ok   {single} hand 1\n" in text
    assert f"ok   {collection} hand 1\n" in text
    assert f"ok   {collection} hand 2 [final table]\n" in text


def test_replay_prints_errors_as_text_not_markup(tmp_path: Path) -> None:
    # "[b]" in a hand's name or an error was read as Rich markup (bold) and vanished.
    path = tmp_path / "named.phhs"
    path.write_text(f"[b]\n{GOOD.replace('p1 f', 'p9 f')}")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"fail {path}: {path}: hand 1 [b]: line 18: actions[7] 'p9 f'" in result.output


@pytest.mark.parametrize(
    "value", ["[" * 1000 + "]" * 1000, "9" * 5000, "1e99999999999999999999", "1e999999999%"]
)
def test_replay_options_that_toml_cannot_read_are_errors_not_tracebacks(value: str) -> None:
    args = ["replay", str(FIXTURES / "qld_s29_6_all_in.phh"), "--rulebook", "rws"]
    result = runner.invoke(app, [*args, f"--option=commission_rate={value}"])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "commission_rate" in result.output and "Traceback" not in result.output


def test_every_fixture_still_reads_and_replays() -> None:
    for path in sorted(FIXTURES.glob("*.phh")):
        assert replay(load_phh(path)).ok, path
    assert isinstance(load_phh(GOOD), HandHistory)


# --- many errors in one file -----------------------------------------------------------------


def test_a_documents_layout_is_scanned_once_even_compiled() -> None:
    # Compiled by mypyc, functools.cached_property did not cache: every error in a file scanned
    # the whole file again, and a lenient read of 3,200 actions with 200 bad ones took a second.
    from croupier.history.layout import Document, HandLines

    document = Document(GOOD)
    assert document.layout is document.layout
    lines = HandLines(document)
    assert lines.actions is lines.actions and lines.fields is lines.fields


def test_every_bad_action_of_a_long_hand_is_reported_at_its_own_line() -> None:
    body = "".join(f'  "p1 zz{index}",\n' for index in range(2000))
    text = re.sub(r"actions = \[[^\]]*\]", f"actions = [\n{body}]", GOOD)
    history = load_phh(text, strict=False, file="long.phh")
    first = text.splitlines().index('  "p1 zz0",') + 1
    assert [error.line for error in history.errors] == list(range(first, first + 2000))
    assert history.errors[-1].field == "actions[1999]"


def test_a_path_with_a_nul_is_a_phh_error_not_a_value_error() -> None:
    for read in (load_phh, load_phhs):
        with pytest.raises(PHHError, match="cannot read the file: embedded null byte") as caught:
            read(Path("hands\x00.phh"))
        assert type(caught.value) is PHHError and caught.value.file == "hands\x00.phh"


def test_a_phh_file_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.phh"
    path.write_bytes(GOOD.replace("Ah8d3c", "Ah8d3c \xe9").encode("latin-1"))
    error = refused_strict(path)
    assert error.line == GOOD.splitlines().index('  "d db Ah8d3c",') + 1
    assert error.message == "not UTF-8 text: invalid continuation byte"


def refused_strict(path: Path) -> PHHError:
    with pytest.raises(PHHError) as caught:
        load_phh(path)
    assert caught.value.file == str(path)
    return caught.value


# --- croupier replay --option ----------------------------------------------------------------

RAZZ_BRING_IN_TOO_BIG = """variant = "FR"
antes = [1, 1]
bring_in = 3
small_bet = 2
big_bet = 4
starting_stacks = [40, 100]
actions = []
"""


def test_replay_option_on_stakes_the_engine_cannot_play_is_an_error_not_a_traceback(
    tmp_path: Path,
) -> None:
    # --option without --rulebook built the rules without replay's checks: RulesError escaped.
    path = tmp_path / "razz.phh"
    path.write_text(RAZZ_BRING_IN_TOO_BIG)
    plain = runner.invoke(app, ["replay", str(path)])
    result = runner.invoke(app, ["replay", str(path), "--option", "odd_chip_rule=left-of-button"])
    assert result.exit_code == plain.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "bring_in: the engine cannot play these stakes" in result.output


def test_replay_options_change_phh_semantics_as_the_files_own_fields_do() -> None:
    # With --option, an FO/8 hand was replayed on extensions' copy of PHH's rules (four raises
    # on every round) instead of replay's (four before the flop, three after): the same file
    # capped raises differently with an option than without (issue 14).
    from croupier.history import standard_rules
    from croupier.history_commands import _table_rules

    history = HandHistory(
        variant="FO/8", antes=(0, 0, 0), blinds_or_straddles=(1, 2, 0), small_bet=2, big_bet=4,
        starting_stacks=(100, 100, 100),
    )  # fmt: skip
    standard = standard_rules(history)
    rules = _table_rules(history, None, {"odd_chip_rule": "highest-card"})
    assert rules is not None and rules.betting == standard.betting
    assert rules.odd_chip.rule.value == "highest_card" != standard.odd_chip.rule.value


def test_extension_rules_on_stakes_the_engine_cannot_play_is_a_phh_error() -> None:
    from croupier.history.extensions import extension_rules

    text = RAZZ_BRING_IN_TOO_BIG + '_croupier_options = { odd_chip_rule = "left-of-button" }\n'
    with pytest.raises(PHHError, match="bring_in"):
        extension_rules(load_phh(text))
