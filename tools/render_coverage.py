"""Render docs/rules-coverage.md from docs/rules-coverage.toml.

    python3 tools/render_coverage.py           # rewrite the markdown
    python3 tools/render_coverage.py --check   # exit 1 if the markdown is out of date

The TOML is the data (one row per numbered clause of the five rulebooks); the markdown is only
ever produced from it, so rendering twice gives the same bytes.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOML_PATH = ROOT / "docs" / "rules-coverage.toml"
MD_PATH = ROOT / "docs" / "rules-coverage.md"

# book -> (citation prefix, title), in the order of ../shared/seeds/
BOOKS: dict[str, tuple[str, str]] = {
    "au-casino": ("au", "Rules of Poker (Australian casino, multi-game)"),
    "rws": ("rws", "RWS Poker Game Rules, Version 5 (2017)"),
    "qld": ("qld", "Queensland Casino Gaming Rule, Schedule 14: Texas hold'em (2005)"),
    "cardroom": ("cardroom", "General Poker Rules (cardroom)"),
    "league": ("league", "League tournament rules (amended 2022)"),
}
STATUSES = ("enforced", "pending", "procedural", "not applicable")

Row = Mapping[str, Any]

INTRO = """\
# Rulebook coverage

One row per numbered clause and sub-clause of the five rulebooks in `../shared/seeds/`.
Generated from `docs/rules-coverage.toml` by `tools/render_coverage.py`: edit the TOML, then run
the script (`tests/test_rules_coverage.py` fails when this file is out of date). The paraphrases
are ours; the books' own text is not reproduced.

Statuses:

- **enforced**: the engine does it and the named tests prove it.
- **pending**: governs play, money or the showdown and is not yet implemented or not yet proven
  by a test; the note says what is missing. This is the engine's to-do list.
- **procedural**: a dealer or floor procedure (misdeals, irregularities, seating, tournaments);
  the note names the module that will own it.
- **not applicable**: physical or social only, or a definition; the note says why.

Citation forms: `au 11.5(g)`, `au 8.2(c)(iv)`, `au 1.1 all-in` (a definition); `rws 3.14.3`,
`rws 3.8.1(b)`, `rws 1 all-in` (section 1's definitions are unnumbered in the book); `qld s28(4)`,
`qld s27(9)(e)(ii)`, `qld s2 hand(a)` (schedule 14's sections; the amending rule's own sections 1
to 3 are not rules of play); `cardroom betting 5`, `cardroom ties 5(a)` (the book's section
names: buy-in, misdeals, dead-hands, irregularities, betting, showdown, ties); `league 12`. The
league rules are unnumbered in the book: they are numbered here 1 to 49 by paragraph in document
order, the "One Chip Rule", "Multiple Chip Rule" and "Penalties" headings not counting and the
poker-etiquette bullets being 38 to 49.
"""


def load(path: Path = TOML_PATH) -> list[dict[str, Any]]:
    """The rows of the coverage table, in file order."""
    with path.open("rb") as file:
        data = tomllib.load(file)
    rows: list[dict[str, Any]] = data.get("row", [])
    return rows


def counts(rows: Iterable[Row]) -> Counter[tuple[str, str]]:
    """How many rows each (book, status) pair has."""
    return Counter((row["book"], row["status"]) for row in rows)


def counts_table(rows: Sequence[Row]) -> str:
    """The summary as a markdown table: one line per book, then the totals."""
    tally = counts(rows)
    head = ["book", *STATUSES, "total"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for book in BOOKS:
        cells = [tally[book, status] for status in STATUSES]
        lines.append(f"| {book} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    totals = [sum(tally[book, status] for book in BOOKS) for status in STATUSES]
    lines.append("| **all** | " + " | ".join(map(str, totals)) + f" | {sum(totals)} |")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _evidence(row: Row) -> str:
    tests = [
        f"`{Path(node.split('::')[0]).name}::{node.split('::', 1)[1]}`"
        for node in row.get("tests", [])
    ]
    parts = [*tests, _cell(row.get("note", ""))]
    return "<br>".join(part for part in parts if part)


def render(rows: Sequence[Row]) -> str:
    """The whole markdown document."""
    out = [INTRO, "## Summary", "", counts_table(rows), ""]
    for book, (_prefix, title) in BOOKS.items():
        mine = [row for row in rows if row["book"] == book]
        out += [
            f"## {book}: {title}",
            "",
            "| clause | paraphrase | status | tests / note |",
            "|---|---|---|---|",
        ]
        for row in mine:
            out.append(
                f"| {_cell(row['clause'])} | {_cell(row['rule'])} | {row['status']} | "
                f"{_evidence(row)} |"
            )
        out.append("")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the markdown is stale")
    args = parser.parse_args(argv)
    text = render(load())
    if args.check:
        current = MD_PATH.read_text(encoding="utf-8") if MD_PATH.exists() else ""
        if current != text:
            print(f"{MD_PATH} is out of date: run python3 tools/render_coverage.py")
            return 1
        return 0
    MD_PATH.write_text(text, encoding="utf-8")
    print(counts_table(load()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
