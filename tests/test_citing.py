"""A refusal cites the book in force (croupier.citing): each book's own clauses, the cardroom's
where the book is silent, and no other book's."""

from __future__ import annotations

import pytest

from croupier.citing import book_prefix, in_force
from croupier.rulebooks import rulebook_names

BUY_IN = (
    "a buy-in of 50 is below the minimum 200 (au 7.4, qld s19(3)(a), rws 3.4, cardroom buy-in 1-2)"
)


@pytest.mark.parametrize(
    ("book", "cited"),
    [
        ("au", "(au 7.4)"),
        ("qld", "(qld s19(3)(a))"),
        ("rws", "(rws 3.4)"),
        ("cardroom", "(cardroom buy-in 1-2)"),
        ("league", "(cardroom buy-in 1-2, where league is silent)"),
    ],
)
def test_each_book_is_cited_alone_and_the_cardroom_fills_a_silent_books_gap(
    book: str, cited: str
) -> None:
    assert in_force(BUY_IN, book) == "a buy-in of 50 is below the minimum 200 " + cited


def test_house_rules_cite_the_house_or_the_cardroom_it_falls_back_to_never_three_books() -> None:
    """Issue 45: a house-rules table's refusals and audit rows cited "(au 7.5, qld s19(4),
    rws 3.4)"; they cite the house's settings, or the cardroom's clause it falls back to."""
    assert in_force(BUY_IN, None) == (
        "a buy-in of 50 is below the minimum 200 (house rules: cardroom buy-in 1-2)"
    )
    assert in_force("not during a round of play (au 7.5, qld s19(4), rws 3.4)", None) == (
        "not during a round of play (house rules)"
    )
    for message in ("the total (in chips) is 5", "above the maximum (house)"):
        assert in_force(message, None) == message


def test_a_clause_list_with_neither_the_book_nor_the_cardroom_is_dropped() -> None:
    message = "seat 3 went to bob (au 11.1(a), qld s16)"
    assert in_force(message, "rws") == "seat 3 went to bob"
    assert in_force(message, "qld") == "seat 3 went to bob (qld s16)"


def test_a_books_later_clauses_written_without_its_name_stay_with_it() -> None:
    message = "a hand needs at least 2 players (au 5.1, 7.4), 1 can play"
    assert in_force(message, "au") == message
    assert in_force(message, "rws") == (
        "a hand needs at least 2 players (au 5.1, 7.4, followed where rws is silent), 1 can play"
    )


def test_one_other_books_rule_where_the_book_and_the_cardroom_are_silent_is_said_followed() -> None:
    # A cardroom stud table enforces au's opening by the lowest up card: the cardroom book is
    # silent on who opens, so the refusal names au's clauses as the procedure followed.
    message = "p3 may not fold: the lowest up card must open (au 12.2(a), 13.2(a))"
    assert in_force(message, "cardroom") == (
        "p3 may not fold: the lowest up card must open "
        "(au 12.2(a), 13.2(a), followed where cardroom is silent)"
    )


def test_clauses_with_brackets_of_their_own_and_several_lists_are_each_cut() -> None:
    message = (
        "not during a round of play (au 7.5, qld s19(4), rws 3.4); "
        "add chips between hands (cardroom buy-in 2)"
    )
    assert in_force(message, "qld") == (
        "not during a round of play (qld s19(4)); "
        "add chips between hands (cardroom buy-in 2, where qld is silent)"
    )
    assert (
        in_force("sit (au 1.1 'Buy-in'; qld s19(1)-(2); rws 3.4)", "qld") == "sit (qld s19(1)-(2))"
    )


def test_words_in_brackets_are_not_clauses_and_stay() -> None:
    for message in ("the total (in chips) is 5", "blinds (rws 1 blind, small-blind)", "x ()"):
        assert in_force(message, "rws") == message


def test_every_shipped_book_has_its_citation_prefix() -> None:
    prefixes = {name: book_prefix(name) for name in rulebook_names()}
    assert prefixes == {
        "au-casino": "au", "cardroom": "cardroom", "league": "league", "qld": "qld",
        "rws": "rws",
    }  # fmt: skip
    assert book_prefix(None) is None
    for unknown in ("nosuchbook", "", 7, ["rws"]):  # a spec from the wire: no book, no prefix
        assert book_prefix(unknown) is None
