"""The terminal game: bots alone, a scripted person, and the command line."""

from __future__ import annotations

import io
import json
import random
import re
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from croupier import events as ev
from croupier.betting import Betting, Structure
from croupier.bots import Action, Bot, CallingStation, RandomBot, SeatView, StrengthBot, decide
from croupier.cards import Card, DeckKind, parse_cards
from croupier.citing import book_prefix
from croupier.deck import Deck, SeededShuffler
from croupier.games import GAMES, GameError
from croupier.hand import Hand, Phase, Rules
from croupier.play import (
    InputError,
    PlayResult,
    house_rules,
    parse_action,
    play,
    play_from_options,
    street_name,
)
from croupier.table import TableError
from croupier.teller import Teller
from croupier.views import view


def console() -> Console:
    return Console(file=io.StringIO(), record=True, width=120, highlight=False)


def scripted(answers: list[str], then: str = "c") -> tuple[Callable[[str], str], list[str]]:
    """An input function typing ``answers`` in turn, then ``then`` forever; and its prompts."""
    prompts: list[str] = []
    queue = iter(answers)

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return next(queue, then)

    return answer, prompts


GAME_STRUCTURES = [
    ("holdem", "no-limit", None),
    ("omaha", "pot", "5%"),
    ("manila2", "fixed", None),
    ("manila3", "half-pot", "10%"),
    ("draw", "fixed", None),
    ("stud5", "spread", None),
    ("stud7", "fixed", "5%"),
]


@pytest.mark.parametrize(("game", "structure", "rake"), GAME_STRUCTURES)
def test_auto_plays_five_hands_of_every_game_and_conserves_chips(
    game: str, structure: str, rake: str | None
) -> None:
    out = console()
    rules = house_rules(game, structure, "1/2", rake=rake)
    bots = min(4, rules.game.max_players[rules.deck] - 1)
    result = play(rules, bots + 1, bots, 200, 5, 17, True, out)
    assert result.hands == 5 and not result.interrupted
    assert sum(result.chips.values()) + result.commission == 200 * (bots + 1)
    for record in result.records:
        over = record.events[-1]
        assert isinstance(over, ev.HandOver)
        rake_taken = sum(e.amount for e in record.events if isinstance(e, ev.Rake))
        assert sum(over.stacks) + rake_taken == sum(record.starting)
    text = out.export_text()
    assert "Hand #5" in text and "after 5 hands" in text
    assert " win" in text  # every hand ends with somebody collecting
    if rake and result.commission:
        assert "commission" in text


def test_auto_is_repeatable_with_a_seed() -> None:
    def run() -> tuple[PlayResult, str]:
        out = console()
        return play(house_rules("holdem"), 6, 5, 100, 3, 99, True, out), out.export_text()

    (first, text1), (second, text2) = run(), run()
    assert first.chips == second.chips and text1 == text2


def test_a_scripted_person_sees_the_prompts_and_recovers_from_mistakes() -> None:
    out = console()
    answer, prompts = scripted(["x", "r 1", "c"], then="c")
    result = play(house_rules("holdem", "no-limit", "1/2"), 4, 3, 100, 2, 5, False, out, answer)
    text = out.export_text()
    assert result.hands == 2 and not result.interrupted
    assert "your cards" in text and "your turn: call" in text
    assert "raise 4..100 · fold" in text  # what is legal, with amounts
    assert "unknown action 'x'" in text
    assert "not allowed: raise to 1 is below the minimum 4" in text  # the rule, named
    assert prompts[:3] == ["action> "] * 3  # the same decision asked again, nothing lost
    first = result.records[0]
    mine = first.seats.index(1)
    acts = [e for e in first.events if isinstance(e, ev.Call | ev.Bet | ev.Check | ev.Fold)]
    assert isinstance(next(e for e in acts if e.player == mine), ev.Call)
    # Every line about a bot's hole cards comes from a showdown, never a deal.
    for seat, name in result.names.items():
        if seat != 1:
            assert f"{name} is dealt" not in text
    assert sum(result.chips.values()) == 400


def test_a_person_never_sees_a_bots_hole_cards_before_the_showdown() -> None:
    out = console()
    answer, _ = scripted([], then="f")  # the person folds at once, every hand
    result = play(house_rules("holdem"), 4, 3, 100, 3, 8, False, out, answer)
    text = out.export_text()
    for record in result.records:
        shown = {e.player for e in record.events if isinstance(e, ev.Show)}
        for event in record.events:
            bot = record.seats[getattr(event, "player", 0)] != 1
            if isinstance(event, ev.DealHole) and event.player not in shown and bot:
                hidden = " ".join(str(c) for c in event.cards if c is not None)
                assert hidden not in text


@pytest.mark.parametrize("stop", [KeyboardInterrupt, EOFError])
def test_ctrl_c_or_ctrl_d_ends_cleanly_with_a_summary(stop: type[BaseException]) -> None:
    out = console()

    def interrupt(prompt: str) -> str:
        raise stop

    result = play(house_rules("holdem"), 3, 2, 100, 10, 1, False, out, interrupt)
    text = out.export_text()
    assert result.interrupted and result.hands == 0
    assert "Hand #1 abandoned" in text and "after 0 hands" in text
    assert result.chips == {1: 100, 2: 100, 3: 100}


def test_quit_after_some_hands_keeps_the_finished_ones() -> None:
    out = console()
    answers = iter(["f", "f", "q"])
    result = play(house_rules("holdem"), 3, 2, 100, 0, 4, False, out, lambda p: next(answers, "q"))
    assert result.interrupted and result.hands >= 1
    assert sum(result.chips.values()) == 300


def test_help_prints_the_short_forms() -> None:
    out = console()
    answer, prompts = scripted(["?", "f"], then="f")
    play(house_rules("holdem"), 3, 2, 100, 1, 2, False, out, answer)
    assert "b N / r N bet or raise to N" in out.export_text()
    assert prompts[:2] == ["action> ", "action> "]


def test_a_person_draws_by_position_or_by_card_and_mistakes_are_explained() -> None:
    out = console()
    draws = iter(["d 9", "d Zz", "c", "d 1 2", "p"])

    def answer(prompt: str) -> str:
        return next(draws, "p") if prompt.startswith("draw") else "c"

    rules = house_rules("draw", "fixed", "1/2")
    result = play(rules, 3, 2, 100, 2, 5, False, out, answer, opponents=["calling"])
    text = out.export_text()
    assert "your draw: d 2 5 (positions)" in text
    assert "no card at position 9: your cards are numbered 1..5" in text
    assert "bad card 'Zz'" in text
    assert "not allowed: p1 is to draw, not to bet (house rules)" in text or (
        "is to draw, not to bet (house rules)" in text
    )
    assert "You discard" in text and "You stand pat" in text
    assert result.hands == 2


def test_a_stud_opener_must_bet_and_is_told_so() -> None:
    out = console()
    # Find a seed where the person has the lowest up card on the first hand.
    for seed in range(40):
        out = console()
        answer, _ = scripted(["c", "f", "b 2"], then="c")
        rules = house_rules("stud5", "fixed", "1/2")
        result = play(rules, 3, 2, 100, 1, seed, False, out, answer, opponents=["calling"])
        first = result.records[0]
        bets = [e for e in first.events if isinstance(e, ev.Bet)]
        if bets and first.seats[bets[0].player] == 1:
            break
    else:
        pytest.fail("no seed gave the person the lowest up card")
    text = out.export_text()
    assert "must open with a bet of at least the minimum (house rules)" in text
    assert "may not fold: the lowest up card must open" in text
    assert "your turn: bet 2 (you must open the betting)" in text
    assert "You bet 2" in text


def test_parse_action_short_forms() -> None:
    hand = Hand(
        house_rules("holdem", "no-limit", "1/2"),
        [100, 100, 30],
        Deck.shuffled(DeckKind.STANDARD, SeededShuffler(2)),
    )
    view = SeatView.of(hand, 2)
    legal = hand.legal()
    assert parse_action("c", view, legal) == Action.check_or_call()
    assert parse_action(" call ", view, legal) == Action.check_or_call()
    assert parse_action("f", view, legal) == Action.fold()
    assert parse_action("r 300", view, legal) == Action.bet_or_raise_to(300)
    assert parse_action("r300", view, legal) == Action.bet_or_raise_to(300)
    assert parse_action("b 50", view, legal) == Action.bet_or_raise_to(50)
    assert parse_action("a", view, legal) == Action.bet_or_raise_to(30)  # the whole stack
    for bad, message in [
        ("", "type an action"),
        ("r", "takes the amount"),
        ("r lots", "takes the amount"),
        ("c 5", "takes nothing after it"),
        ("zap", "unknown action 'zap'"),
    ]:
        with pytest.raises(InputError, match=message):
            parse_action(bad, view, legal)


def test_issue_12_3_holdem_has_no_draw_and_says_so() -> None:
    hand = Hand(house_rules("holdem"), [100, 100, 100],
                Deck.shuffled(DeckKind.STANDARD, SeededShuffler(2)))  # fmt: skip
    view, legal = SeatView.of(hand, 2), hand.legal()
    for typed in ("d 1", "p", "d Ah"):
        with pytest.raises(InputError, match=r"holdem has no draw: call 2 · raise 4\.\.100"):
            parse_action(typed, view, legal)


def test_parse_action_draws_by_position_or_by_card() -> None:
    hand = Hand(house_rules("draw", "fixed"), [100, 100, 100],
                Deck.shuffled(DeckKind.STANDARD, SeededShuffler(2)))  # fmt: skip
    while not hand.drawing:
        hand.check_or_call()
    view = SeatView.of(hand, hand.to_act)  # type: ignore[arg-type]
    assert parse_action("p", view, None) == Action.draw()
    assert parse_action("d 2", view, None) == Action.draw([view.hole[1]])
    assert parse_action("d Ah Kd", view, None) == Action.draw(parse_cards("Ah Kd"))
    for bad, message in [
        ("d 6", "no card at position 6"),
        ("d 1 1", "each position once"),
        ("d Ah Ah", "duplicate card Ah"),
    ]:
        with pytest.raises(InputError, match=message):
            parse_action(bad, view, None)


def test_all_in_is_a_raise_of_the_stack_or_a_call_when_that_takes_it_all() -> None:
    hand = Hand(
        house_rules("holdem", "no-limit", "1/2"),
        [100, 100, 100],
        Deck.shuffled(DeckKind.STANDARD, SeededShuffler(2)),
    )
    assert parse_action("a", SeatView.of(hand, 2), hand.legal()) == Action.bet_or_raise_to(100)
    hand.bet_or_raise_to(100)
    hand.fold()
    # The big blind has 98 behind and 98 to call: all-in is a call.
    assert parse_action("a", SeatView.of(hand, 1), hand.legal()) == Action.check_or_call()


def test_street_names() -> None:
    assert [street_name(GAMES["holdem"], i) for i in range(4)] == [
        "preflop", "flop", "turn", "river",
    ]  # fmt: skip
    assert [street_name(GAMES["stud7"], i) for i in range(5)] == [
        "3rd street", "4th street", "5th street", "6th street", "7th street",
    ]  # fmt: skip
    assert street_name(GAMES["stud5"], 0) == "2nd street"
    assert [street_name(GAMES["draw"], i) for i in range(2)] == [
        "before the draw", "after the draw",
    ]  # fmt: skip
    assert street_name(GAMES["manila2"], 4) == "round 5"


def random_hands(count: int) -> Iterator[Hand]:
    rng = random.Random(5)
    for index in range(count):
        name = sorted(GAMES)[index % len(GAMES)]
        structure = rng.choice(["no-limit", "pot", "fixed", "half-pot", "spread"])
        rules = house_rules(name, structure, "1/2", rake=rng.choice([None, "5%"]))
        players = rng.randint(2, rules.game.max_players[rules.deck])
        stacks = [rng.randint(1, 120) for _ in range(players)]
        yield Hand(rules, stacks, Deck.shuffled(rules.deck, SeededShuffler(index)))


def test_the_story_keeps_the_same_chips_as_the_hand() -> None:
    """The teller reads the table from the reducer, fed event by event as the person sees
    them: it matches the engine at every turn."""
    rng = random.Random(1)
    bots: list[Bot] = [RandomBot(), CallingStation(), StrengthBot(trials=10)]
    for hand in random_hands(140):
        order = tuple(range(1, hand.players + 1))
        names = {seat: f"n{seat}" for seat in order}
        teller = Teller(console(), hand.rules, order, names, hand.starting, 0, person=0)
        told = 0
        while hand.phase is not Phase.OVER:
            teller.tell(hand.events[told:])
            told = len(hand.events)
            assert teller.seen.stacks == hand.stacks
            if not hand.drawing:
                assert teller.seen.bets == hand.bets and teller.pot == hand.pot
            decide(rng.choice(bots), hand, rng).apply(hand)
        teller.tell(hand.events[told:])
        assert teller.seen.stacks == hand.stacks


def test_side_pots_and_commission_are_told_per_pot() -> None:
    rules = Rules(
        game=GAMES["holdem"],
        betting=Betting(structures=(Structure.NO_LIMIT,), small_bet=2),
        blinds=(1, 2),
        commission=house_rules(rake="10%").commission,
    )
    holes = ["Ah As", "Kh Ks", "7d 2c"]
    top = [parse_cards(h)[i] for i in range(2) for h in holes]
    board = list(parse_cards("3c 4d 8h 9s Jc"))
    rest = [c for c in DeckKind.STANDARD.cards if c not in top and c not in board]
    order = [*top, rest[0], *board[:3], rest[1], board[3], rest[2], board[4], *rest[3:]]
    hand = Hand(rules, [20, 50, 100], Deck(DeckKind.STANDARD, order))
    out = console()
    teller = Teller(out, rules, (1, 2, 3), {1: "You", 2: "Bea", 3: "Cy"}, hand.starting, 0,
                    person=0)  # fmt: skip
    hand.bet_or_raise_to(100)  # Cy shoves
    teller.tell(hand.events)
    told = len(hand.events)
    teller.turn(view(hand, 0))
    hand.check_or_call()  # You call all-in for 20
    hand.check_or_call()  # Bea calls all-in for 50
    teller.tell(hand.events[told:])
    text = out.export_text()
    assert "your cards 0 Ah" not in text and "your cards 1 Ah  2 As" in text
    assert "50 uncalled goes back to Cy" in text
    assert "commission 6 from the main pot" in text
    assert "You win 54 from the main pot with Pair of Aces" in text
    assert "commission 6 from side pot 1" in text
    assert "Bea wins 54 from side pot 1 with Pair of Kings" in text
    assert "Bea turns up Kh Ks" in text and "You turn up Ah As" in text


def test_save_writes_one_json_line_per_hand_as_the_house_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    result = play(house_rules("holdem"), 3, 2, 100, 3, 3, True, console(), save=path, house=True)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == result.hands == 3
    first = lines[0]
    assert first["game"] == "holdem" and first["starting"] == [100, 100, 100]
    deals = [e for e in first["events"] if e["event"] == "DealHole"]
    assert all(Card(text) for deal in deals for text in deal["cards"])
    assert first["events"][-1]["event"] == "HandOver"


def test_issue_44_bots_alone_save_what_the_screen_showed(tmp_path: Path) -> None:
    """Bots alone (``--auto``), the screen shows every hole card, and the save keeps them
    (issue 44; a person's session saves that person's own record, issue 13.8)."""
    path = tmp_path / "hands.jsonl"
    result = play(house_rules("holdem"), 3, 2, 100, 4, 3, True, console(), save=path)
    for line, record in zip(path.read_text().splitlines(), result.records, strict=True):
        saved = json.loads(line)
        dealt = [str(c) for e in record.events if isinstance(e, ev.DealHole) for c in e.cards]
        kept = [c for e in saved["events"] if e["event"] == "DealHole" for c in e["cards"]]
        assert kept == dealt and "??" not in kept


def test_on_hand_hook_gets_each_record() -> None:
    seen: list[int] = []
    play(house_rules("stud7", "fixed"), 4, 3, 100, 2, 3, True, console(),
         on_hand=lambda record: seen.append(record.number))  # fmt: skip
    assert seen == [1, 2]


def test_bad_set_ups_are_errors_that_say_why() -> None:
    with pytest.raises(TableError, match="need 6 seats"):
        play(house_rules(), 4, 5, 100, 1, 1, True, console())
    with pytest.raises(TableError, match="unknown bot kind 'shark'"):
        play(house_rules(), 4, 3, 100, 1, 1, True, console(), opponents=["shark"])
    with pytest.raises(GameError, match="unknown game 'chess'"):
        house_rules("chess")
    with pytest.raises(GameError, match="unknown betting structure 'crazy'"):
        house_rules("holdem", "crazy")
    with pytest.raises(GameError, match="stakes '2/1'"):
        house_rules("holdem", stakes="2/1")
    with pytest.raises(GameError, match=r"rake takes a percentage .* got 'lots'"):
        house_rules(rake="lots")


def test_house_rules() -> None:
    rules = house_rules("stud7", "fixed", "1/10")
    assert rules.blinds == () and rules.ante == 1
    assert (rules.betting.small_bet, rules.betting.big_bet, rules.betting.raise_cap) == (10, 20, 3)
    rules = house_rules("holdem", "no-limit", "5/10", deck=36)
    assert rules.blinds == (5, 10) and rules.ante == 0 and rules.deck is DeckKind.SHORT_36
    assert house_rules("manila2").deck is DeckKind.SHORT_32


def test_play_from_options_plays_and_reports_set_up_errors() -> None:
    out = console()
    code = play_from_options("omaha", "pot", "1/2", seats=4, hands=2, seed=4, auto=True,
                             console=out)  # fmt: skip
    assert code == 0 and "after 2 hands" in out.export_text()
    out = console()
    assert play_from_options("holdem", seats=13, console=out) == 2
    text = out.export_text()
    assert "error:" in text and "seats 2 to 10 players (house rules), not 13" in text
    out = console()
    assert play_from_options("chess", console=out) == 2
    assert "unknown game 'chess'" in out.export_text()
    out = console()
    assert play_from_options(save="/nonexistent/folder/hands.jsonl", console=out) == 2
    assert "error:" in out.export_text()


def _play_registered() -> bool:
    try:
        from croupier.cli import app
    except ImportError:
        return False
    names = {command.name or getattr(command.callback, "__name__", "") for command in
             app.registered_commands}  # fmt: skip
    return "play" in names or "play_command" in names


@pytest.mark.skipif(not _play_registered(), reason="'croupier play' is not registered yet")
def test_croupier_play_at_a_real_terminal() -> None:
    pexpect = pytest.importorskip("pexpect")
    command = [sys.executable, "-c", "from croupier.cli import app; app()"]
    child = pexpect.spawn(
        command[0],
        [*command[1:], "play", "--seed", "3", "--hands", "2", "--seats", "3"],
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 120),
        # Ctrl-C as at a terminal, even when these tests run in a background job, which starts
        # with SIGINT ignored (Python then installs no handler for it).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.expect("your turn")
    screen = child.before
    assert re.search(r"[2-9TJQKA][cdhs] [2-9TJQKA][cdhs]", screen), screen  # own hole cards
    child.expect("action> ")
    assert re.search(r"call \d+|check", child.before), child.before  # what is legal, with amounts
    child.sendline("xyz")
    child.expect("unknown action")  # a mistyped action is refused and asked again
    child.expect("action> ")
    child.sendline("r 1")
    child.expect("below the minimum")  # an illegal one names the rule
    child.expect("action> ")
    child.sendline("f")
    child.sendcontrol("c")
    index = child.expect(["after \\d+ hands?", pexpect.EOF])
    assert index == 0
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("rulebook", ["au-casino", "qld", "rws", "cardroom", "league"])
def test_a_refusal_at_the_terminal_cites_the_book_in_force_only(rulebook: str) -> None:
    """The engine's message names each book's clause; ``croupier play`` under one book shows
    that book's (where it is silent, the cardroom's, said so), never another's."""
    out = console()
    answer, _ = scripted(["r 1"], then="f")
    code = play_from_options(
        "holdem", None, "1/2", rulebook=rulebook, seats=2, hands=1, seed=4,
        bots="calling", console=out, input_fn=answer,
    )  # fmt: skip
    text = out.export_text()
    assert code == 0
    refusal = next(line for line in text.splitlines() if line.startswith("not allowed:"))
    prefix = book_prefix(rulebook)
    cited = set(re.findall(r"\b(au|qld|rws|cardroom|league) (?:[a-z-]+ )?s?\d", refusal))
    assert prefix in cited, refusal
    assert cited - {prefix} <= ({"cardroom"} if "silent" in refusal else set()), refusal


def test_every_game_structure_and_deck_of_every_rulebook_is_playable() -> None:
    import io

    from rich.console import Console

    from croupier.play import play_from_options
    from croupier.rulebooks import load_rulebook, rulebook_names

    played = 0
    for name in rulebook_names():
        book = load_rulebook(name)
        for entry in book.games:
            for kind in entry.deck_kinds:
                for structure in book.structures(entry.game):
                    stakes = "1/10" if entry.game.startswith("stud") else "5/10"
                    console = Console(file=io.StringIO(), width=120)
                    code = play_from_options(
                        entry.game, structure.value, stakes, rulebook=name, deck=kind.size,
                        seats=3, hands=1, seed=1, auto=True, console=console,
                    )  # fmt: skip
                    output = console.file.getvalue()  # type: ignore[attr-defined]
                    assert code == 0, (name, entry.game, kind.size, structure, output[-300:])
                    played += 1
    assert played >= 90
