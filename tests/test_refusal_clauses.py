"""Every refusal cites the book in force (issue 45): the clause that limits the amount, with the
right figures (qld s24(4)), each book's own table stakes, a house-rules table's own settings,
and a walk over the refusals the engine gives under every book, every game and house rules."""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from croupier.betting import IllegalAction
from croupier.citing import GAP_FILLER, HOUSE, book_prefix, in_force
from croupier.hand import Hand, Phase, Rules
from croupier.irregularities import Floor
from croupier.irregularities.dealer import DealerError, open_session
from croupier.irregularities.reports import ReportError
from croupier.rulebooks import load_rulebook, rulebook_names
from croupier.rulebooks.tables import house_rules

ROOT = Path(__file__).resolve().parent.parent
PREFIXES = ("au", "qld", "rws", "cardroom", "league")


# --- the clauses named in a message ------------------------------------------------------------


def _coverage() -> set[str]:
    rows = tomllib.loads((ROOT / "docs" / "rules-coverage.toml").read_text("utf-8"))["row"]
    return {row["clause"] for row in rows}


COVERAGE = _coverage()
_CLAUSE = re.compile(
    r"\b(au|qld|rws|cardroom|league) "
    r"((?:1\.1 '[^']+')|(?:1\.1 [a-z][a-z-]*)|(?:1 [a-z][a-z-]*(?:\([a-z]+\))?)"
    r"|(?:s\d+(?: [a-z][a-z-]*)?(?:\(\w+\))*(?:-\(\w+\))?)"
    r"|(?:[a-z][a-z-]* \d+(?:\([a-z]\))?(?:-\d+)?)"
    r"|(?:\d+(?:\.\d+)*(?:\([a-z0-9]+\))*(?:-\d+(?:\.\d+)*)?(?:, \d+(?:\.\d+)*)*))"
)


def cited(message: str) -> list[tuple[str, str]]:
    """Each clause the message names, as (book prefix, clause as the coverage file spells it):
    ranges and lists read as their ends and members."""
    return [(book, clause) for book, clause, _ in cited_at(message)]


def cited_at(message: str) -> list[tuple[str, str, str]]:
    """:func:`cited`, each with the text that follows its citation."""
    found: list[tuple[str, str, str]] = []
    for match in _CLAUSE.finditer(message):
        book, rest, after = match.group(1), match.group(2), message[match.end() :]
        if rest.startswith("1.1 '"):
            term = rest[5:-1].lower().replace(" ", "-")
            found.append((book, f"{book} 1.1 {term}", after))
            continue
        for part in rest.split(", "):
            found.extend((book, f"{book} {clause}", after) for clause in _ends(part))
    return found


def _ends(part: str) -> list[str]:
    """``s28(5)-(6)`` as s28(5) and s28(6); ``buy-in 1-2`` as buy-in 1 and 2; ``7-9`` as 7
    and 9."""
    dashed = re.fullmatch(r"(.*?)\((\w+)\)-\((\w+)\)", part)
    if dashed:
        return [f"{dashed.group(1)}({dashed.group(2)})", f"{dashed.group(1)}({dashed.group(3)})"]
    full = re.fullmatch(r"(\d+\.[\d.]+)-(\d+\.[\d.]+)", part)
    if full:
        return [full.group(1), full.group(2)]
    ranged = re.fullmatch(r"(.*?)(\d+)-(\d+)", part)
    if ranged and not part.startswith("1.1"):
        return [f"{ranged.group(1)}{ranged.group(2)}", f"{ranged.group(1)}{ranged.group(3)}"]
    return [part]


_REST_OF_LIST = r"(\(\w+\))*(, [^,()]+(\(\w+\))*)*"  # "(a), 13.2(a)": the list's clauses after one


def problems(message: str, book: str | None) -> list[str]:
    """What is wrong with the clauses a refusal shown at a table under ``book`` (a citation
    prefix; None: house rules) names: another book's clause (the cardroom's only where said to
    fill), or a clause the coverage file does not have."""
    wrong: list[str] = []
    filled = (f"where {book} is silent" in message) if book else f"({HOUSE}" in message
    for prefix, clause, after in cited_at(message):
        if book and re.match(rf"{_REST_OF_LIST}, followed where {book} is silent", after):
            pass  # a decision: the procedure of another book, said so (rulings.toml)
        elif prefix != book and not (prefix == GAP_FILLER and filled):
            wrong.append(f"{clause}: not the book in force ({book or HOUSE})")
        elif clause not in COVERAGE:
            wrong.append(f"{clause}: not in docs/rules-coverage.toml")
    return wrong


def test_the_clause_reader_reads_each_books_form() -> None:
    assert cited("x (au 1.1 'Action'; qld s28(5)-(6), cardroom buy-in 1-2)") == [
        ("au", "au 1.1 action"), ("qld", "qld s28(5)"), ("qld", "qld s28(6)"),
        ("cardroom", "cardroom buy-in 1"), ("cardroom", "cardroom buy-in 2"),
    ]  # fmt: skip
    assert cited("league 7-9 and au 5.1, 7.4 and rws 1 table-stake") == [
        ("league", "league 7"), ("league", "league 9"), ("au", "au 5.1"), ("au", "au 7.4"),
        ("rws", "rws 1 table-stake"),
    ]  # fmt: skip
    assert problems("too big (au 10.1)", "rws") == ["au 10.1: not the book in force (rws)"]
    assert problems("x (cardroom buy-in 2, where league is silent)", "league") == []
    followed = "x (au 12.2(a), 13.2(a), followed where cardroom is silent)"
    assert problems(followed, "cardroom") == []
    assert problems("x (au 1.2) y (au 2, followed where rws is silent)", "rws") == [
        "au 1.2: not the book in force (rws)"
    ]
    assert problems("x (qld s99(9))", "qld") == ["qld s99(9): not in docs/rules-coverage.toml"]


# --- the items of issue 45 ---------------------------------------------------------------------


def _refused(session_lines: list[str], book: str, stacks: str = "1000,1000,1000,1000") -> str:
    session = open_session(book, "holdem", stacks=[int(s) for s in stacks.split(",")])
    for line in session_lines[:-1]:
        session.enter(line)
    with pytest.raises(DealerError) as refused:
        session.enter(session_lines[-1])
    assert refused.value.refused
    return str(refused.value)


def test_qld_s24_4_first_round_raise_refusal_names_the_second_blind_not_s28_5() -> None:
    """`p4 raise 35` after `p3 fold` was refused as "above the maximum 20: full pot ... (qld
    s28(5))", though the pot after the call is 25: the limit is the first round's raise,
    which equals the second blind (qld s24(4))."""
    said = _refused(["deal", "p3 fold", "p4 raise 35"], "qld")
    assert "above the maximum 20" in said and "(qld s24(4))" in said, said
    assert "second blind, 10: to 20" in said and "s28(5)" not in said, said
    below = _refused(["deal", "p3 fold", "p4 raise 15"], "qld")
    assert "below the minimum 20" in below and "qld s24(4)" in below, below
    assert problems(said, "qld") == problems(below, "qld") == []


@pytest.mark.parametrize("rulebook", ["rws", "au-casino", "league"])
def test_rws_1_table_stake_a_bet_above_the_stack_cites_the_book_in_force(rulebook: str) -> None:
    """`b 99999` at an rws table in `croupier play` cited "au 10.1": each book cites its own
    table stakes, the cardroom's where the book is silent (said so)."""
    import io

    from rich.console import Console

    from croupier.play import play_from_options

    out = Console(file=io.StringIO(), record=True, width=200, highlight=False)
    answers = iter(["b 99999"])
    code = play_from_options(
        "holdem", None, "1/2", rulebook=rulebook, seats=2, hands=1, seed=4, bots="calling",
        console=out, input_fn=lambda _prompt: next(answers, "f"),
    )  # fmt: skip
    assert code == 0
    refusal = next(line for line in out.export_text().splitlines() if "not allowed:" in line)
    prefix = book_prefix(rulebook)
    assert "au 10.1" not in refusal or prefix == "au", refusal
    assert problems(refusal, prefix) == [], refusal
    assert "the stack: table stakes" in refusal, refusal
    own = {"rws": "rws 1 table-stake", "au": "au 1.1 table-stakes"}.get(prefix or "")
    assert own in refusal if own else "where league is silent" in refusal, refusal


# --- the walk over every refusal ---------------------------------------------------------------


def _tables() -> Iterator[tuple[str | None, str, Rules]]:
    """(book prefix or None for house rules, label, rules) for each game and structure of every
    book, and house rules for every game."""
    for name in rulebook_names():
        book = load_rulebook(name)
        for entry in book.games:
            for structure in book.structures(entry.game):
                try:
                    rules = book.rules(entry.game, structure, stakes=10)
                except Exception:
                    continue
                yield book_prefix(name), f"{name} {entry.game} {structure.value}", rules
    from croupier.games import GAMES

    for game in GAMES:
        yield None, f"house {game}", house_rules(game, stakes="5/10")


# Reports whose refusals a floor may give; {c}: a card of p1's, {o}: a card nobody holds.
REPORTS = (
    "misdeal", "cut-exposed", "no-shuffle", "no-cut", "button-wrong", "first-to p2",
    "skipped p3", "not-entitled p3", "out-of-order p3 {c}", "extra-hand s9 {o}",
    "count p1 2", "count p1 9", "extra-card p1 {o}", "exposed p1 {c}", "flashed p1 {c}",
    "off-table p1 {c}", "boxed {o}", "duplicate {c}", "odd-back {o}", "foreign {o}",
    "deck-count 51", "joker p1", "joker --stub", "burn-missed", "burn-double",
    "extra-board {o}", "burn-exposed {o}", "premature {o}", "exposed-stub {o}", "stub-out",
    "shows p1 {c}", "dropped p1 {c}", "fouled-stub", "retrieve p1", "into p1 p2",
    "see p1 by p2", "showed p1 to p1 {c}", "showed p1 to p2 {c}", "throw p1", "upcards p1",
    "over-line p1 cards", "over-line p1 chips 25 5", "forward p1 20", "said p1 bet 40",
    "released p1 20", "chips p2 25 5", "string p2 20 +20", "short p1 10",
    "out-of-turn p2 bet 40", "skipped-turn p1", "seventh-up p1 {c}", "draw-order p2 p1",
)  # fmt: skip


def _refusals_of(call: Callable[[], object]) -> str | None:
    try:
        call()
    except ReportError:
        return None  # a report that does not read here: not a refusal
    except IllegalAction as error:
        return str(error)
    except Exception:
        return None
    return None


def _illegal_moves(hand: Hand) -> Iterator[Callable[[], object]]:
    legal = hand.legal()
    yield lambda: hand.draw(())  # not drawing, or drawing nothing is pat: skip by phase
    yield hand.post_bring_in
    amounts = [0, 1, 3, 10**7]
    if legal.raise_range is not None:
        low, high = legal.raise_range
        amounts += [low - 1, high + 1, low + 1, 2 * high + 7]
    for amount in amounts:
        yield lambda amount=amount: hand.verify_bet_or_raise_to(amount)
    yield lambda: hand.verify_bet_or_raise_to("lots")
    if not legal.can_fold:
        yield hand.fold
    if not legal.can_check and legal.call == 0:
        yield hand.check_or_call


def _walk(book: str | None, rules: Rules, seed: int) -> Iterator[str]:
    """The refusals met playing one random hand: illegal amounts and moves at every turn, and
    (under a book) the floor's refusals of reports at a few points."""
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    stacks = [rng.choice([15, 60, 400, 1000]) for _ in range(players)]
    hand = Hand(rules, stacks)
    floor = Floor(next(n for n in rulebook_names() if book_prefix(n) == book)) if book else None
    while not hand.over and hand.to_act is not None and hand.pending is None:
        if hand.phase is not Phase.DRAWING:
            for move in _illegal_moves(hand):
                said = _refusals_of(move)
                if said is not None:
                    yield said
        if floor is not None and rng.random() < 0.35:
            mine = [str(c) for c in hand.hole[0]] or ["As"]
            stub = [str(c) for c in hand.deck.cards][-3:] or ["2c"]
            for text in rng.sample(REPORTS, 8):
                report = text.format(c=mine[0], o=stub[0])
                said = _refusals_of(lambda report=report: floor.plan(hand, report))
                if said is not None:
                    yield said
        _random_legal(hand, rng)


def _random_legal(hand: Hand, rng: random.Random) -> None:
    if hand.phase is Phase.DRAWING:
        held = list(hand.hole[hand.to_act or 0])
        hand.draw(rng.sample(held, rng.randint(0, min(len(held), 3))))
        return
    legal = hand.legal()
    choice = rng.random()
    if legal.bring_in is not None and choice < 0.3:
        hand.post_bring_in()
    elif legal.raise_range is not None and choice < 0.35:
        low, high = legal.raise_range
        hand.bet_or_raise_to(rng.choice([low, high, (low + high) // 2]))
    elif legal.raise_range is not None and not legal.can_check and legal.call == 0:
        hand.bet_or_raise_to(legal.raise_range[0])  # the lowest up card must open
    elif choice < 0.85 or not _may_fold(hand):
        hand.check_or_call()
    else:
        hand.fold()


def _may_fold(hand: Hand) -> bool:
    return hand.legal().can_fold


def test_every_refusal_cites_the_book_in_force_and_a_clause_the_coverage_file_has() -> None:
    """Random hands of every game under every book and under house rules; at each turn the
    illegal amounts and moves, and the floor's refusals of reports at random points. Each
    refusal, as a table under that book shows it (croupier.citing.in_force), names only the
    book's own clauses, or the cardroom's said to fill (house rules: the house's settings or
    the cardroom's), and each clause is a row of docs/rules-coverage.toml."""
    seen: dict[str, str] = {}
    walked = 0
    for book, label, rules in _tables():
        for seed in range(4):
            for message in _walk(book, rules, seed):
                walked += 1
                shown = in_force(message, book)
                for problem in problems(shown, book):
                    seen.setdefault(problem, f"{label}: {shown}")
    assert walked > 1000
    assert not seen, "\n".join(f"{problem}\n    {where}" for problem, where in seen.items())


def _table_refusals(rules: Rules) -> Iterator[str]:
    """The table's refusals: buy-ins too small or too large, a seat taken or not there, chips
    added or a seat left during a hand."""
    from croupier.table import Table, TableError
    from croupier.table_state import BuyIn

    table = Table(rules, 6, buy_in=BuyIn(minimum=200, maximum=1000))
    empty: list[Callable[[], object]] = [
        lambda: table.sit(1, "a", 50), lambda: table.sit(1, "a", 5000),
        lambda: table.sit(9, "a", 300), lambda: table.sit(0, "a", 300),
    ]  # fmt: skip
    for move in empty:
        try:
            move()
        except (TableError, IllegalAction) as error:
            yield str(error)
    table.sit(1, "a", 300)
    table.sit(2, "b", 300)
    table.sit(3, "c", 300)
    seated: list[Callable[[], object]] = [
        lambda: table.sit(2, "d", 300), lambda: table.change_seat(1, 2),
        lambda: table.sit(4, "a", 300),
    ]  # fmt: skip
    for move in seated:
        try:
            move()
        except (TableError, IllegalAction) as error:
            yield str(error)
    table.start_hand()
    during: list[Callable[[], object]] = [
        lambda: table.add_chips(1, 100), lambda: table.leave(1), lambda: table.sit(4, "e", 10),
        lambda: table.change_seat(1, 5),
    ]  # fmt: skip
    for move in during:
        try:
            move()
        except (TableError, IllegalAction) as error:
            yield str(error)


def test_every_table_refusal_cites_the_book_in_force() -> None:
    """The table's own refusals (buy-ins, seats, chips during a hand) under each book and
    under house rules, which cited "(au 7.5, qld s19(4), rws 3.4)" (issue 45)."""
    seen: dict[str, str] = {}
    walked = 0
    tables = [(book_prefix(n), n, load_rulebook(n).rules("holdem", stakes=10))
              for n in rulebook_names()]  # fmt: skip
    tables.append((None, "house", house_rules("holdem", stakes="5/10")))
    for book, label, rules in tables:
        for message in _table_refusals(rules):
            walked += 1
            shown = in_force(message, book)
            if book is None:
                assert not re.search(r"\b(au|qld|rws|league) s?\d", shown), shown
            for problem in problems(shown, book):
                seen.setdefault(problem, f"{label}: {shown}")
    assert walked >= 30
    assert not seen, "\n".join(f"{problem}\n    {where}" for problem, where in seen.items())
