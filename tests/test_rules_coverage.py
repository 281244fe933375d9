"""docs/rules-coverage.toml: one well-formed row per clause of the five rulebooks.

Checks the rows (book, clause id in the book's citation form, status, evidence), that every test
an "enforced" row names exists in this suite, and that docs/rules-coverage.md is the rendering
of the TOML. ``pytest -s`` prints the counts per book and status.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"


def _renderer() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "render_coverage", ROOT / "tools" / "render_coverage.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


RENDER = _renderer()
ROWS: list[dict[str, Any]] = RENDER.load()

_ROMAN = r"(?:\((?:i|ii|iii|iv|v|vi|vii|viii|ix|x)\))"
_TERM = r"[a-z][a-z-]*"
CLAUSE_FORMS = {
    # au 11.5(g), au 8.2(c)(iv), au 2, au 1.1 all-in
    "au-casino": rf"au (?:1\.1 {_TERM}|\d+|\d+\.\d+(?:\([a-z]\){_ROMAN}?)?)",
    # rws 3.14.3, rws 3.8.1(b), rws 1 betting-round(a), rws 1 game-marker(ii)
    "rws": rf"rws (?:1 {_TERM}(?:\([a-z]+\))?|\d+\.\d+(?:\.\d+)?(?:\([a-z]\))?)",
    # qld s28(4), qld s27(9)(e)(ii), qld s39(c), qld s2 hand(a)
    "qld": rf"qld s\d+(?: {_TERM})?(?:\(\d+\))?(?:\([a-z]\){_ROMAN}?)?",
    # cardroom betting 5, cardroom ties 5(a)
    "cardroom": r"cardroom (?:buy-in|misdeals|dead-hands|irregularities|betting|showdown|ties)"
    r" \d+(?:\([a-z]\))?",
    # league 12 (paragraphs numbered in document order)
    "league": r"league \d+",
}
MODULES = ("irregularities.py", "table.py", "tournament.py", "tournament/")
FIELDS = {"book", "clause", "rule", "status", "note", "tests"}
MAX_WORDS = 12


def _suite_tests() -> set[str]:
    """Node ids (file::name, file::Class::name) of every test function in tests/."""
    found: set[str] = set()
    for path in sorted(TESTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        prefix = f"tests/{path.name}"
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                if node.name.startswith("test"):
                    found.add(f"{prefix}::{node.name}")
            elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                for item in node.body:
                    if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        continue
                    if item.name.startswith("test"):
                        found.add(f"{prefix}::{node.name}::{item.name}")
    return found


def test_every_book_has_rows_in_the_renderers_order() -> None:
    books = list(dict.fromkeys(row["book"] for row in ROWS))
    assert books == list(RENDER.BOOKS)


@pytest.mark.parametrize(
    "clause",
    [
        "au 1.1 wager",
        "au 11.5(g)",
        "au 19.30",
        "rws 5.1.5(b)",
        "qld s27(9)(e)(ii)",
        "qld s39(c)",
        "cardroom ties 5(d)",
        "league 49",
    ],
)
def test_landmark_clauses_are_present(clause: str) -> None:
    assert clause in {row["clause"] for row in ROWS}


def test_rows_have_known_fields_book_and_status() -> None:
    for row in ROWS:
        assert set(row) <= FIELDS and {"book", "clause", "rule", "status", "note"} <= set(row), row
        assert row["book"] in RENDER.BOOKS, row
        assert row["status"] in RENDER.STATUSES, row


def test_clause_ids_follow_each_books_citation_form() -> None:
    bad = [
        row["clause"] for row in ROWS if not re.fullmatch(CLAUSE_FORMS[row["book"]], row["clause"])
    ]
    assert not bad, f"clause ids not in their book's citation form: {bad}"


def test_no_clause_id_twice_in_a_book() -> None:
    seen = Counter((row["book"], row["clause"]) for row in ROWS)
    assert [key for key, count in seen.items() if count > 1] == []


def test_paraphrases_are_short() -> None:
    long = [row["clause"] for row in ROWS if len(row["rule"].split()) > MAX_WORDS]
    assert not long, f"paraphrases over {MAX_WORDS} words: {long}"
    assert all(row["rule"].strip() for row in ROWS)


def test_each_status_carries_its_evidence() -> None:
    for row in ROWS:
        note = row["note"].strip()
        if row["status"] == "enforced":
            assert row.get("tests"), f"{row['clause']}: enforced without tests"
        else:
            assert note, f"{row['clause']}: {row['status']} needs a note"
        if row["status"] == "procedural":
            assert any(module in note for module in MODULES), (
                f"{row['clause']}: a procedural note names the module that will own it"
            )


def test_named_tests_exist_in_the_suite() -> None:
    suite = _suite_tests()
    missing = [
        (row["clause"], node) for row in ROWS for node in row.get("tests", []) if node not in suite
    ]
    assert not missing, f"tests named in docs/rules-coverage.toml but not in tests/: {missing}"


def test_markdown_is_rendered_from_the_toml() -> None:
    current = RENDER.MD_PATH.read_text(encoding="utf-8")
    assert current == RENDER.render(ROWS), "run: python3 tools/render_coverage.py"


def test_rendering_twice_gives_the_same_text() -> None:
    assert RENDER.render(ROWS) == RENDER.render(RENDER.load())


def test_counts_per_book_and_status() -> None:
    table = RENDER.counts_table(ROWS)
    print()
    print(table)
    tally = RENDER.counts(ROWS)
    assert sum(tally.values()) == len(ROWS)
    assert table in RENDER.MD_PATH.read_text(encoding="utf-8")
