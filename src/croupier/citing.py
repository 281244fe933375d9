"""A refusal cites the book in force.

The table's rules are written once for every book, each message ending in the clauses of all
the books that have one, e.g. ``(au 7.4, qld s19(3)(a), rws 3.4, cardroom buy-in 1-2)``. At a
table under one book, :func:`in_force` keeps that book's clauses only. Where the book has none
among them, the cardroom's rules fill its gap (the books' README: where a book is silent, the
cardroom rules apply), and the message says so. A list with neither is dropped when it holds
several books' clauses (the message names the rule in force elsewhere); a list of one other
book's clauses is the procedure croupier follows where the book and the cardroom are silent,
and the message says so (:func:`followed`). A house-rules table (no book) cites its own
settings, ``(house rules)``, or the cardroom's clause it falls back to, never a book's.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["GAP_FILLER", "HOUSE", "book_prefix", "followed", "in_force", "silent"]

GAP_FILLER = "cardroom"
HOUSE = "house rules"  # a house-rules table's citation: its settings, or the cardroom's clause
_PREFIXES = ("au", "qld", "rws", "cardroom", "league")  # how each shipped book's clauses begin
_MORE = re.compile(r"s?\d")  # "7.4" in "au 5.1, 7.4": another clause of the book before it


def book_prefix(rulebook: object) -> str | None:
    """How ``rulebook``'s clauses begin (its citation's first word: "au" for au-casino); None
    for house rules, or for anything that names no book (a spec from the wire: checked before
    the cache, which holds the shipped books only)."""
    from croupier.rulebooks import rulebook_names

    if not isinstance(rulebook, str) or rulebook not in rulebook_names():
        return None
    return _prefix(rulebook)


@cache
def _prefix(rulebook: str) -> str:
    from croupier.rulebooks import load_rulebook

    return load_rulebook(rulebook).citation.split()[0]


def in_force(message: str, book: str | None) -> str:
    """``message`` with each bracketed list of clauses cut to those of ``book`` (a citation
    prefix, :func:`book_prefix`); ``book`` None (house rules): to the cardroom's clauses, the
    book the house falls back to, said so, else to the house's own rules (:data:`HOUSE`)."""
    out, at = [], 0
    for start, end in _groups(message):
        kept = _cut(message[start + 1 : end], book, message[start : end + 1])
        out.append(message[at:start] if kept else message[at:start].rstrip(" "))
        out.append(kept)
        at = end + 1
    out.append(message[at:])
    return "".join(out)


def silent(clause: str, book: str) -> str:
    """``clause`` of the cardroom, cited where ``book`` (a citation prefix) is silent."""
    return f"{clause}, where {book} is silent"


def followed(clause: str, book: str) -> str:
    """``clause`` of another book whose procedure croupier follows where ``book`` and the
    cardroom are silent (a decision, written down in the rulings' table)."""
    return f"{clause}, followed where {book} is silent"


def _groups(text: str) -> list[tuple[int, int]]:
    """The outermost bracketed groups of ``text``: (index of "(", index of its ")")."""
    found, depth, start = [], 0, 0
    for index, char in enumerate(text):
        if char == "(":
            if depth == 0:
                start = index
            depth += 1
        elif char == ")" and depth:
            depth -= 1
            if depth == 0:
                found.append((start, index))
    return found


def _items(inside: str) -> list[str]:
    """The group's items, split at top-level commas and semicolons."""
    items, depth, start = [], 0, 0
    for index, char in enumerate(inside):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char in ",;" and depth == 0:
            items.append(inside[start:index].strip())
            start = index + 1
    items.append(inside[start:].strip())
    return items


def _cut(inside: str, book: str | None, whole: str) -> str:
    """The group ``whole`` cut to ``book``'s clauses (None: the house's); "" to drop it."""
    items, books = _items(inside), list[str]()
    for item in items:
        name = item.split()[0] if item else ""
        if name not in _PREFIXES:
            if not books or not _MORE.match(item):
                # not a list of clauses: words in brackets, which may hold a list of their own
                return f"({in_force(inside, book)})" if "(" in inside else whole
            name = books[-1]
        books.append(name)
    own = [item for item, name in zip(items, books, strict=True) if name == book]
    if own:
        return f"({', '.join(own)})"
    filler = [item for item, name in zip(items, books, strict=True) if name == GAP_FILLER]
    if book is None:
        return f"({HOUSE}: {', '.join(filler)})" if filler else f"({HOUSE})"
    if filler:
        return f"({silent(', '.join(filler), book)})"
    if len(set(books)) == 1:
        # One other book's rule, which this table enforces where its book and the cardroom are
        # silent (au's stud opening at a cardroom table): that book's procedure, said so.
        return f"({followed(', '.join(items), book)})"
    return ""
