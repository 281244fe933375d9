"""Hostile rulebook files and table options (issue 13, item 6): whatever a file or an option
holds, loading it and building a table's rules give a Rulebook and Rules or a RulebookError
naming the file (or the table) and the key, in bounded time. Each test is named after a fault
the fuzzer found. Also ``croupier rules show``, which names the book for a reader."""

from __future__ import annotations

import importlib.resources
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from croupier.cli import app
from croupier.rulebooks import RulebookError, load_rulebook, rulebook_names
from croupier.rulebooks.loader import MAX_BYTES, MAX_EXTENDS

runner = CliRunner()
RWS = (importlib.resources.files("croupier.rulebooks") / "rws.toml").read_text(encoding="utf-8")


def user_book(tmp_path: Path, text: str | bytes, name: str = "house.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def refused(path: Path, named: Path | None = None) -> str:
    """The RulebookError loading ``path`` gives; it starts with the file at fault (``named``,
    by default ``path`` itself)."""
    with pytest.raises(RulebookError) as caught:
        load_rulebook(path)
    message = str(caught.value)
    assert message.startswith(f"{named or path}: "), message
    return message


def test_a_rulebook_that_is_not_utf8_is_a_rulebook_error_not_a_unicode_decode_error(
    tmp_path: Path,
) -> None:
    data = RWS.encode().replace(b'value = "none"', b'value = "n\xffne"', 1)
    message = refused(user_book(tmp_path, data))
    line = RWS.splitlines().index('value = "none"') + 1
    assert f"line {line}: not UTF-8 text: invalid start byte" in message


@pytest.mark.parametrize(
    "nested",
    [
        "x = " + "[" * 1000 + "]" * 1000,  # tomli refuses past 400 levels: RecursionError
        ".".join(["a"] * 2000) + " = 1",  # tomli refuses keys of 1000 parts
    ],
    ids=["arrays", "dotted-key"],
)
def test_deep_nesting_is_a_rulebook_error_not_a_recursion_error(
    tmp_path: Path, nested: str
) -> None:
    message = refused(user_book(tmp_path, f"{nested}\n{RWS}"))
    assert "not a document croupier reads" in message


def test_a_value_nested_deep_is_named_by_its_key_in_a_short_message(tmp_path: Path) -> None:
    deep = "[" * 300 + "1" + "]" * 300
    message = refused(user_book(tmp_path, RWS.replace("value = []", f"value = {deep}", 1)))
    assert "settings.combinations.value: [0]: expected a table" in message
    assert len(message) < 300


def test_an_extends_chain_of_hundreds_of_files_is_a_rulebook_error_not_recursion(
    tmp_path: Path,
) -> None:
    for index in range(500):
        parent = f"book{index + 1}.toml" if index < 499 else "cardroom"
        user_book(tmp_path, f'name = "b{index}"\nextends = "{parent}"\n', f"book{index}.toml")
    message = refused(tmp_path / "book0.toml", named=tmp_path / f"book{MAX_EXTENDS}.toml")
    assert f"extends: 'book{MAX_EXTENDS + 1}.toml' makes a chain of more than" in message
    assert message.endswith(
        f"{MAX_EXTENDS} profiles extending one another (from {tmp_path}/book0.toml)"
    )
    # a chain within the bound loads, each file adding to the one it extends
    short = tmp_path / "short"
    short.mkdir()
    for index in range(MAX_EXTENDS):
        parent = f"book{index + 1}.toml" if index < MAX_EXTENDS - 1 else "cardroom"
        user_book(short, f'name = "b{index}"\nextends = "{parent}"\n', f"book{index}.toml")
    book = load_rulebook(short / "book0.toml")
    assert book.name == "b0" and book.title == load_rulebook("cardroom").title


def test_a_long_extends_cycle_is_still_a_cycle(tmp_path: Path) -> None:
    for index in range(5):
        user_book(tmp_path, f'name = "b{index}"\nextends = "book{(index + 1) % 5}.toml"\n',
                  f"book{index}.toml")  # fmt: skip
    message = refused(tmp_path / "book0.toml", named=tmp_path / "book4.toml")
    assert message.endswith("extends: 'book0.toml' extends itself (a cycle)")


@pytest.mark.parametrize(
    "rate", ["1e999999999%", "1e-999999999%", "1e999999999", "9" * 5000 + "%", "1/" + "9" * 5000]
)
def test_a_huge_percentage_in_a_file_is_a_rulebook_error_not_a_hang(
    tmp_path: Path, rate: str
) -> None:
    path = user_book(tmp_path, RWS.replace('max = "5%"', f'max = "{rate}"', 1))
    message = refused(path)
    assert "settings.commission_rate.max: " in message and "is out of range" in message


@pytest.mark.parametrize("rate", ["1e999999999%", "1e-999999999%", "1e99999999999999999999"])
def test_a_huge_percentage_as_a_table_option_is_a_rulebook_error_not_a_hang(rate: str) -> None:
    book = load_rulebook("rws")
    with pytest.raises(RulebookError, match=r"rws holdem: option commission_rate: .*out of range"):
        book.rules("holdem", stakes=10, commission="percentage", commission_rate=rate)


def test_numbers_beyond_any_table_are_rulebook_errors(tmp_path: Path) -> None:
    book = load_rulebook("rws")
    with pytest.raises(RulebookError, match="commission_cap: expected a whole number"):
        book.rules("holdem", stakes=10, commission="percentage", commission_cap=10**4000)
    message = refused(user_book(tmp_path, RWS.replace("min = 0", "min = 10000000000000000", 1)))
    assert "settings.commission_cap.min: expected a whole number" in message
    assert load_rulebook("rws").rules("holdem", stakes=10, commission_cap=10**14).commission


def test_a_choice_listed_twice_is_a_rulebook_error(tmp_path: Path) -> None:
    # A list of 100,000 repeated choices made every table's rules and `rules show` take seconds.
    text = RWS.replace(
        'choices = ["none", "percentage"]', 'choices = ["none", "percentage", "none"]'
    )
    assert "settings.commission.choices[2]: none is listed twice" in refused(
        user_book(tmp_path, text)
    )


def test_a_rulebook_file_over_the_size_bound_is_a_rulebook_error(tmp_path: Path) -> None:
    path = user_book(tmp_path, RWS + f"\n# {'x' * MAX_BYTES}\n")
    assert "too large for a rulebook file (at most 1 MiB)" in refused(path)


def test_sim_and_play_with_a_huge_rake_under_a_rulebook_are_errors_not_hangs() -> None:
    for command in (["sim", "--hands", "10"], ["play", "--auto", "--hands", "1"]):
        result = runner.invoke(app, [*command, "--rulebook", "rws", "--rake", "1e999999999%"])
        assert result.exit_code == 2, result.output
        assert "rake takes a percentage" in result.output and "1e999999999%" in result.output


def test_rules_show_of_a_hostile_file_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    path = user_book(tmp_path, RWS.replace('max = "5%"', 'max = "1e999999999%"', 1))
    result = runner.invoke(app, ["rules", "show", str(path)], env={"COLUMNS": "240"})
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {path}: settings.commission_rate.max: ")


# --- croupier rules show names the book ------------------------------------------------------


@pytest.mark.parametrize("name", rulebook_names())
def test_rules_show_names_the_book_and_its_title_not_a_seeds_path(name: str) -> None:
    book = load_rulebook(name)
    result = runner.invoke(app, ["rules", "show", name], env={"COLUMNS": "240"})
    assert result.exit_code == 0, result.output
    head = result.output.splitlines()[:2]
    assert head == [f"{name}  {book.title}", f"book: {book.source}"]
    assert "seeds/" not in result.output and f"{name}.toml" not in result.output
    assert not re.search(r"\.txt\b", book.source) and book.source


def test_rules_show_of_a_user_file_names_the_file_and_the_book_it_extends(tmp_path: Path) -> None:
    path = user_book(tmp_path, 'extends = "cardroom"\nname = "mine"\ntitle = "My rules"\n')
    result = runner.invoke(app, ["rules", "show", str(path)], env={"COLUMNS": "240"})
    lines = result.output.splitlines()
    assert lines[:3] == ["mine  My rules", "book: General Poker Rules (cardroom)", f"file: {path}"]


@pytest.mark.parametrize("name", ["a" * 5000, "x/" * 3000, "rws\x00.toml"])
def test_a_rulebook_name_the_system_cannot_look_up_is_a_rulebook_error(name: str) -> None:
    # A name too long for the file system, or with a NUL, raised OSError or ValueError.
    with pytest.raises(RulebookError) as caught:
        load_rulebook(name)
    assert "no rulebook named" in str(caught.value) or "cannot read the rulebook file" in str(
        caught.value
    )


def test_an_extends_the_system_cannot_look_up_is_a_rulebook_error(tmp_path: Path) -> None:
    path = user_book(tmp_path, f'name = "long"\nextends = "{"x/" * 3000}a.toml"\n')
    message = refused(path)
    assert "cannot read the rulebook file: File name too long" in message


# --- in modules being rewritten (see the report) ----------------------------------------------

HOUSE_RAKE = """
from croupier.games import GameError
from croupier.play import house_rules
try:
    house_rules("holdem", "no-limit", "1/2", rake="1e999999999%")
except GameError as error:
    print("refused:", error)
"""


def test_a_huge_rake_without_a_rulebook_is_an_error_not_a_hang() -> None:
    done = subprocess.run(
        [sys.executable, "-c", HOUSE_RAKE], capture_output=True, text=True, timeout=5
    )
    assert done.stdout.startswith("refused:") and "takes a percentage" in done.stdout, done.stderr


def test_a_list_of_40000_blinds_is_a_rulebook_error_not_seconds_a_table(tmp_path: Path) -> None:
    blinds = ", ".join(['"1/2", "1"'] * 20000)
    text = RWS.replace('value = ["1/2", "1"]', f"value = [{blinds}]", 1)
    message = refused(user_book(tmp_path, text))
    assert message.endswith(
        "settings.blinds.value: 40,000 entries: a rulebook's lists have at most 64"
    )
