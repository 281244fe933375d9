"""A book makes its own tables (issue 45 items 4-5 and the book defaults; issue 38 item 6): a
:class:`~croupier.table.Table` built from a book's rules takes the book's first button, blind
policy and bust rule by itself, the terminal game and the card room deal each book's table as
the book says, and where a book leaves the structure to the house the game's usual one is the
default."""

from __future__ import annotations

import ast
import io
from pathlib import Path

import pytest
from rich.console import Console

from croupier.betting import Structure
from croupier.blinds import BlindPolicy, NewPlayer
from croupier.deck import SeededShuffler
from croupier.hand import Hand, Phase
from croupier.play import Session
from croupier.rulebooks import load_rulebook
from croupier.rulebooks.render import rulebook_view
from croupier.rulebooks.tables import USUAL_STRUCTURE, book_table, table_buy_in
from croupier.server.rooms.game_table import GameTable
from croupier.server.rooms.table_spec import TableSpec
from croupier.table import Bust, BuyIn, FirstButton, Table

SRC = Path(__file__).resolve().parent.parent / "src" / "croupier"
BOOKS = ("au-casino", "rws", "qld", "cardroom", "league")


def book_table_of(book: str, seated: dict[int, int], game: str = "holdem") -> Table:
    """A table made from the book's rules alone: no blind policy, first button or bust given."""
    rules = load_rulebook(book).rules(game, stakes=10)
    t = Table(rules, 9, buy_in=BuyIn(minimum=100))
    for seat, chips in seated.items():
        t.sit(seat, f"s{seat}", chips)
    return t


def fold_out(hand: Hand) -> None:
    while hand.phase is not Phase.OVER:
        hand.fold()


def blinds(t: Table, hand: Hand) -> list[int]:
    return [t.seat_of(b.player) for b in hand.forced.blinds]


def terminal(book: str, game: str = "holdem") -> Session:
    rules, options = book_table(book, game, None, "5/10")
    console = Console(file=io.StringIO())
    return Session(rules, 6, 3, 1000, 1, True, console, rulebook=(book, options))


# --- issue 38 item 6: the server needs no shell -------------------------------------------------


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize("folder", ["server", "rulebooks"])
def test_the_server_and_the_rulebooks_import_no_terminal_game(folder: str) -> None:
    shell = {"croupier.play", "croupier.play_rules", "croupier.cli"}
    for path in sorted((SRC / folder).rglob("*.py")):
        wrong = {m for m in _imports(path) if m in shell or m.startswith("croupier.cli.")}
        assert not wrong, f"{path.relative_to(SRC)} imports {sorted(wrong)}"


# --- rws 3.1: the first button on the dealer's left ---------------------------------------------


def test_rws_3_1_first_button_left_of_dealer() -> None:
    t = book_table_of("rws", {3: 1000, 6: 1000, 8: 1000})
    assert t.first_button is FirstButton.DEALER_LEFT
    t.start_hand(shuffler=SeededShuffler(0))
    assert t.button == 3  # the lowest seat: the player on the dealer's immediate left


def test_rws_3_1_first_button_left_of_dealer_at_the_terminal_and_the_card_room() -> None:
    session = terminal("rws")
    assert session.table.first_button is FirstButton.DEALER_LEFT
    game = GameTable(TableSpec(rulebook="rws", seats=6))
    assert game._table.first_button is FirstButton.DEALER_LEFT


@pytest.mark.parametrize(
    ("book", "first"),
    [
        ("au-casino", FirstButton.DEALER_RIGHT),
        ("qld", FirstButton.DEALER_RIGHT),
        ("rws", FirstButton.DEALER_LEFT),
        ("cardroom", FirstButton.HIGH_CARD),
        ("league", FirstButton.HIGH_CARD),
    ],
)
def test_each_books_first_button_is_its_rulebook_setting(book: str, first: FirstButton) -> None:
    setting = load_rulebook(book).setting("first_button", "holdem")
    assert setting.value is first
    assert book_table_of(book, {}).first_button is first


# --- au 1.1 'Dead Button', league 12: the book's blind policy by itself -------------------------


@pytest.mark.parametrize("book", ["au-casino", "league", "cardroom"])
def test_au_1_1_dead_button_league_12_a_books_table_takes_its_blind_policy(book: str) -> None:
    # Seats 1-4; hand 1: button on seat 4, blinds 1 and 2 (first button given by the seats
    # dealt). The small blind (seat 1) leaves: the big blind moves one seat, to seat 3, and
    # seat 2 (last big blind) is due the small blind; nobody skips the big blind.
    rules = load_rulebook(book).rules("holdem", stakes=10)
    t = Table(rules, 9, buy_in=BuyIn(minimum=100), first_button=4)
    for seat in (1, 2, 3, 4):
        t.sit(seat, f"s{seat}", 1000)
    assert t.blind_policy is BlindPolicy.MOVING_BIG_BLIND
    hand = t.start_hand(shuffler=SeededShuffler(1))
    assert blinds(t, hand) == [1, 2]
    fold_out(hand)
    t.leave(1)
    hand = t.start_hand(shuffler=SeededShuffler(2))
    assert blinds(t, hand) == [2, 3] and t.button == 1  # the dead button (au 1.1)


@pytest.mark.parametrize("book", ["au-casino", "league", "cardroom"])
def test_au_1_1_dead_button_league_12_at_the_terminal(book: str) -> None:
    assert terminal(book).table.blind_policy is BlindPolicy.MOVING_BIG_BLIND
    assert terminal("rws").table.blind_policy is BlindPolicy.MOVING_BUTTON


@pytest.mark.parametrize(("book", "bust"), [("qld", Bust.LEAVE), ("league", Bust.LEAVE)])
def test_qld_s31_4_league_12_a_books_table_takes_its_bust_rule(book: str, bust: Bust) -> None:
    assert book_table_of(book, {}).bust is bust
    assert terminal(book).table.bust is bust


def test_qld_s31_2_the_terminal_takes_the_books_buy_in_rules() -> None:
    buy_in = terminal("qld").table.buy_in
    assert buy_in.restake and buy_in.rejoin_minimum
    rules = load_rulebook("qld").rules("holdem", stakes=10)
    assert table_buy_in("qld", "holdem", rules, full=500) == buy_in.__class__(
        minimum=500, restake=True, rejoin_minimum=True
    )


def test_an_explicit_setting_still_wins_over_the_books() -> None:
    rules = load_rulebook("league").rules("holdem", stakes=10)
    t = Table(rules, 9, buy_in=BuyIn(minimum=100), blind_policy=BlindPolicy.MOVING_BUTTON)
    assert t.blind_policy is BlindPolicy.MOVING_BUTTON


# --- the book defaults: where the book leaves the structure to the house -------------------------


@pytest.mark.parametrize("book", BOOKS)
def test_au_7_2_a_structure_the_house_posts_defaults_to_the_games_usual_one(book: str) -> None:
    """au 7.2 (the house posts the betting type), cardroom betting 3-4 and 7 (limit, pot limit
    and no limit named, none tied to a game): the default is the game's usual structure, among
    those the book allows; a book that fixes the structure keeps its own."""
    rulebook = load_rulebook(book)
    for game in rulebook.game_names:
        setting = rulebook.setting("structure", game)
        usual = USUAL_STRUCTURE[game]
        rules, _ = book_table(book, game, None, "5/10")
        if setting.house and usual in rulebook.structures(game):
            assert rules.betting.structures == (usual,), (book, game)
            assert "usual" in setting.note, (book, game)


@pytest.mark.parametrize(
    ("book", "game", "structure"),
    [
        ("au-casino", "stud5", Structure.FIXED),
        ("au-casino", "stud7", Structure.FIXED),
        ("au-casino", "draw", Structure.FIXED),
        ("au-casino", "omaha", Structure.POT),
        ("au-casino", "holdem", Structure.NO_LIMIT),
        ("cardroom", "omaha", Structure.POT),
        ("cardroom", "stud7", Structure.FIXED),
    ],
)
def test_au_7_2_cardroom_betting_7_book_defaults(
    book: str, game: str, structure: Structure
) -> None:
    rules, _ = book_table(book, game, None, "5/10")
    assert rules.betting.structures == (structure,)


def test_au_7_2_rules_show_says_the_default_is_the_games_usual_one() -> None:
    for book in ("au-casino", "cardroom"):
        console = Console(width=400, file=io.StringIO())
        console.print(rulebook_view(load_rulebook(book)))
        text = console.file.getvalue()  # type: ignore[attr-defined]
        rows = [line for line in text.splitlines() if "│ structure " in line]
        assert sum("(house default)" in r for r in rows) == 3, book
        assert text.count("the game's usual one") >= 3, book


# --- heads-up becoming three-handed: nobody skips a blind --------------------------------------


@pytest.mark.parametrize("new_player", [NewPlayer.WAIT, NewPlayer.PLAY])
@pytest.mark.parametrize("book", ["rws", "qld"])
def test_rws_3_7_heads_up_to_three_handed_nobody_skips_a_blind(
    book: str, new_player: NewPlayer
) -> None:
    """The books are silent on the button when a third player joins a heads-up game. Decided by
    the principle every book's blinds keep (au 1.1 'Dead Button', league 12): nobody skips a
    blind. Last hand's big blind posts the small blind, the big blind moves on to the next
    player, and the button is the player before the small blind."""
    rules = load_rulebook(book).rules("holdem", stakes=10)
    t = Table(rules, 9, buy_in=BuyIn(minimum=100), first_button=1, new_player=new_player)
    t.sit(1, "s1", 1000)
    t.sit(5, "s5", 1000)
    hand = t.start_hand(shuffler=SeededShuffler(3))
    last_big = blinds(t, hand)[-1]
    fold_out(hand)
    t.sit(7, "s7", 1000)  # between seat 5 and seat 1, clockwise
    three = 0
    for number in range(4, 8):
        hand = t.start_hand(shuffler=SeededShuffler(number))
        dealt = [t.seat_of(p) for p in range(hand.players)]
        small, big = blinds(t, hand)
        if len(dealt) == 3:
            three += 1
            assert small == last_big, (number, t.button, small, big)
            assert t.button not in (small, big)
        last_big = big
        fold_out(hand)
    assert three >= 3
