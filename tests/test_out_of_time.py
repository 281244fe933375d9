"""The one out-of-time rule (croupier.out_of_time): what the clock does for a player whose time
is up is legal in every game under every book that deals it (and the house rules), is a check or
a fold wherever either is allowed, and where neither is (a stud opener who must open) is the
least opening the book allows. The terminal session and the card room's cash and tournament
tables all take it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from croupier import events as ev
from croupier.betting import Structure
from croupier.bots import Action, ActionKind
from croupier.cards import Card
from croupier.deck import Deck, SeededShuffler
from croupier.games import GAMES
from croupier.hand import Hand, Rules
from croupier.out_of_time import out_of_time, out_of_time_in
from croupier.play_rules import house_rules
from croupier.rulebooks import load_rulebook, rulebook_names
from croupier.server.rooms.game_table import GameTable, Move, apply_move, move_of_action
from croupier.server.rooms.table_spec import TableSpec
from croupier.session import Session, Timing
from croupier.table import BuyIn, ClockExpired, Table
from croupier.views import HandView
from scripted import deck as deck_from

EVERY_GAME = (
    "holdem", "omaha", "omaha8", "manila2", "manila3", "draw", "stud5", "stud7", "stud7-8",
    "razz", "draw27", "triple-draw27", "badugi",
)  # fmt: skip


def _book_rules(name: str, game: str, structure: Structure) -> Rules:
    book = load_rulebook(name)
    blinds = GAMES[game].streets[0].forced_open is False
    options: dict[str, object] = {} if blinds else {"ante": 1}
    if structure in (Structure.SPREAD, Structure.FIXED) and "max_wager" in book.house_options():
        options["max_wager"] = 16
    return book.rules(game, structure, stakes=(2, 4) if blinds else 4, **options)


def _tables() -> list[tuple[str, Rules]]:
    """Every game under every structure of every book that deals it, and the house rules."""
    tables = []
    for name in rulebook_names():
        book = load_rulebook(name)
        for entry in book.games:
            for structure in book.structures(entry.game):
                rules = _book_rules(name, entry.game, structure)
                tables.append((f"{name}-{entry.game}-{structure.value}", rules))
    tables += [(f"house-{game}", house_rules(game, None, "2/4")) for game in EVERY_GAME]
    return tables


TABLES = _tables()


def test_every_game_is_dealt_by_a_book_or_the_house_rules() -> None:
    assert set(EVERY_GAME) == set(GAMES)
    dealt = {rules.game.name for _, rules in TABLES}
    assert {GAMES[game].name for game in EVERY_GAME} <= dealt


def _random_action(hand: Hand, rng: random.Random) -> Action:
    """A legal action chosen at random (folds rare: the hands go on)."""
    player = hand.to_act
    assert player is not None
    if hand.drawing:
        hole = list(hand.hole[player])
        return Action.draw(rng.sample(hole, rng.randint(0, len(hole))))
    legal = hand.legal()
    choices = []
    if legal.can_check or legal.call:
        choices += [Action.check_or_call()] * 3
    if legal.can_fold and not legal.can_check:
        choices.append(Action.fold())
    if legal.bring_in is not None:
        choices.append(Action.bring_in())
    if legal.raise_range is not None:
        low, high = legal.raise_range
        choices.append(
            Action.bet_or_raise_to(legal.snap(rng.choice([low, high, (low + high) // 2])))
        )
    return rng.choice(choices)


def _expected_event(action: Action) -> type[ev.Event]:
    return {
        ActionKind.DRAW: ev.Draw,
        ActionKind.CHECK_OR_CALL: ev.Check,
        ActionKind.FOLD: ev.Fold,
        ActionKind.BRING_IN: ev.BringIn,
        ActionKind.BET_OR_RAISE: ev.Bet,
    }[action.kind]


def _check_out_of_time(hand: Hand) -> str:
    """The out-of-time action now is the rule's, and the engine accepts it (on a copy of the
    hand); which case it was."""
    action = out_of_time_in(hand)
    if hand.drawing:
        assert action == Action.draw(), "the draw: stand pat"
        case = "draw"
    else:
        legal = hand.legal()
        if legal.can_check:
            assert action == Action.check_or_call(), f"{legal}: a check where allowed"
            case = "check"
        elif legal.can_fold:
            assert action == Action.fold(), f"{legal}: a fold where no check is allowed"
            case = "fold"
        elif legal.bring_in is not None:
            assert action == Action.bring_in(), f"{legal}: the bring-in (cardroom betting 16)"
            case = "bring-in"
        else:
            assert legal.raise_range is not None
            assert action == Action.bet_or_raise_to(legal.raise_range[0]), f"{legal}: least bet"
            case = "forced-open"
    played = hand.copy()  # (a compiled Hand cannot be deep-copied)
    before = len(played.events)
    action.apply(played)  # the engine accepts it: no IllegalAction
    assert isinstance(played.events[before], _expected_event(action))
    return case


@pytest.mark.parametrize("rules", [rules for _, rules in TABLES], ids=[i for i, _ in TABLES])
def test_the_out_of_time_action_is_legal_and_a_check_or_fold_where_either_is(
    rules: Rules,
) -> None:
    rng = random.Random(hash(repr(rules.game.name)) % 1000 + 38)
    seen: set[str] = set()
    most = min(6, max(rules.game.max_players.values()))
    for number in range(6):
        players = rng.randint(2, most)
        stacks = [rng.choice([3, 9, 40, 120, 400]) for _ in range(players)]
        deck = Deck.shuffled(rules.deck, SeededShuffler(number))
        hand = Hand(rules, stacks, deck, shuffler=SeededShuffler(number + 100))
        decisions = 0
        while not hand.over and hand.to_act is not None:
            if decisions % 2 == 0:
                seen.add(_check_out_of_time(hand))
            decisions += 1
            # the out-of-time action taken for real too, now and then
            take = rng.random() < 0.25
            (out_of_time_in(hand) if take else _random_action(hand, rng)).apply(hand)
        assert sum(hand.stacks) + hand.commission == sum(stacks)
    assert "check" in seen or "fold" in seen
    if rules.game.streets[0].forced_open:
        assert "forced-open" in seen  # the lowest up card opens every stud hand here
    if any(street.draw for street in rules.game.streets):
        assert "draw" in seen


# ---------------------------------------------------------------------------------------------
# The cases where the first action may be neither a fold nor a check


def _au_stud(game: str) -> Rules:
    return _book_rules("au-casino", game, Structure.FIXED)


def test_au_12_2_a_out_of_time_lowest_up_card_opens() -> None:
    # Five-card stud: the 5 of hearts is the lowest up card and must open for at least the
    # table minimum; out of time, the least bet is made for it.
    hand = Hand(_au_stud("stud5"), [100, 100, 100], deck_from("2c 3c 4c Kd 5h 9s"))
    legal = hand.legal()
    assert hand.to_act == 1 and not legal.can_fold and not legal.can_check
    assert legal.raise_range is not None
    action = out_of_time_in(hand)
    assert action == Action.bet_or_raise_to(legal.raise_range[0])
    action.apply(hand)
    assert hand.events[-1] == ev.Bet(1, 4, 4, False, True)


def test_au_13_2_a_out_of_time_lowest_up_card_opens_in_seven_card_stud() -> None:
    # Two down each, one up: two fives, the club is lowest by suit and opens.
    hand = Hand(_au_stud("stud7"), [100, 100, 100], deck_from("2c 3c 4c 2d 3d 4d 5h 5c Kd"))
    assert hand.to_act == 1 and not hand.legal().can_fold
    out_of_time_in(hand).apply(hand)
    assert isinstance(hand.events[-1], ev.Bet) and hand.events[-1].to == 4


def test_au_12_2_a_out_of_time_opener_short_of_the_minimum_bets_all_it_has() -> None:
    # p1 has 2 chips left after the ante: the least bet it can open for is all-in.
    hand = Hand(_au_stud("stud5"), [100, 3, 100], deck_from("2c 3c 4c Kd 5h 9s"))
    assert hand.to_act == 1
    out_of_time_in(hand).apply(hand)
    last = hand.events[-1]
    assert isinstance(last, ev.Bet) and last.all_in and hand.stacks[1] == 0


def test_cardroom_betting_16_out_of_time_stud_opener_posts_the_bring_in() -> None:
    # Where the table has a bring-in, the opener may post it instead of a full bet: the least
    # it may open for, and what the clock posts.
    rules = dataclasses.replace(_book_rules("cardroom", "stud7", Structure.FIXED), bring_in=2)
    hand = Hand(rules, [100, 100, 100], deck_from("2c 3c 4c 2d 3d 4d 5h 5c Kd"))
    legal = hand.legal()
    assert not legal.can_fold and legal.bring_in == 2
    action = out_of_time_in(hand)
    assert action == Action.bring_in()
    action.apply(hand)
    assert hand.events[-1] == ev.BringIn(1, 2, False)
    # The server's move for it is its bring_in, which the server applies.
    again = Hand(rules, [100, 100, 100], deck_from("2c 3c 4c 2d 3d 4d 5h 5c Kd"))
    move = move_of_action(out_of_time_in(again))
    assert move == Move("bring_in")
    apply_move(again, move)
    assert again.events[-1] == ev.BringIn(1, 2, False)


def _au_draw() -> Rules:
    return _book_rules("au-casino", "draw", Structure.FIXED)


def test_au_11_1_c_iv_out_of_time_facing_the_over_blind_folds_and_its_option_checks() -> None:
    hand = Hand(_au_draw(), [100] * 4, over_blind=True)
    over = [e.player for e in hand.events if isinstance(e, ev.PostBlind)][-1]
    assert hand.to_act != over and hand.legal().call  # facing the over-blind
    assert out_of_time_in(hand) == Action.fold()
    while hand.to_act != over:
        hand.check_or_call()
    assert hand.legal().can_check  # nobody raised: the over-blind's option
    assert out_of_time_in(hand) == Action.check_or_call()
    before = len(hand.events)
    out_of_time_in(hand).apply(hand)
    assert hand.events[before] == ev.Check(over)


def test_au_11_3_a_out_of_time_at_the_draw_stands_pat() -> None:
    hand = Hand(_au_draw(), [100] * 3, deck_from("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac 2d 3d"))
    while not hand.drawing:
        hand.check_or_call()
    player = hand.to_act
    assert player is not None
    held = list(hand.hole[player])
    assert out_of_time(None, drawing=True) == out_of_time_in(hand) == Action.draw()
    out_of_time_in(hand).apply(hand)
    assert hand.hole[player] == held  # nothing thrown, nothing drawn


def test_cardroom_dead_hands_1_f_out_of_time_facing_a_bet_folds() -> None:
    hand = Hand(house_rules("holdem", None, "2/4"), [100] * 3)
    legal = hand.legal()
    assert legal.call and legal.can_fold
    assert out_of_time(legal) == Action.fold()


def test_a_check_is_taken_where_one_is_allowed_rather_than_a_fold() -> None:
    hand = Hand(house_rules("holdem", None, "2/4"), [100] * 3)
    while not hand.legal().can_check:
        hand.check_or_call()
    assert out_of_time_in(hand) == Action.check_or_call()


def test_betting_out_of_time_needs_what_is_legal() -> None:
    with pytest.raises(ValueError, match="what is legal"):
        out_of_time(None)


# ---------------------------------------------------------------------------------------------
# The session and the server take it


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _stud_session(clock: _Clock) -> Session:
    table = Table(_au_stud("stud5"), 5, buy_in=BuyIn(minimum=40))
    for seat in (1, 2, 3):
        table.sit(seat, f"s{seat}", 100)
    return Session(table, shuffler=SeededShuffler(5), clock=clock, timing=Timing(30, 60))


def test_au_12_2_a_session_expire_bets_for_the_lowest_up_card_instead_of_raising() -> None:
    # Before: Session.expire() raised IllegalAction "may not fold: the lowest up card must open".
    clock = _Clock()
    play = _stud_session(clock)
    hand = play.start_hand()
    turn = play.turn()
    assert turn is not None and turn.legal is not None and not turn.legal.can_fold
    assert turn.legal.raise_range is not None
    clock.now = turn.deadline
    events = play.expire()
    assert events[0] == ev.Bet(turn.player, turn.legal.raise_range[0], 4, False, True)
    assert hand.to_act != turn.player


def test_au_12_2_a_on_the_clock_the_forced_opener_bets_and_the_hand_is_not_dead() -> None:
    clock = _Clock()
    play = _stud_session(clock)
    play.start_hand()
    turn = play.call_clock(play.turn().seat, 10)  # type: ignore[union-attr]
    clock.now = turn.deadline
    assert isinstance(play.expire()[0], ev.Bet)
    assert play.table.events[-1] == ClockExpired(turn.seat, False)


def _server_stud(book: str = "au-casino") -> GameTable:
    game = GameTable(TableSpec(rulebook=book, game="stud5", structure="fixed", stakes="1/2"))
    for seat in (1, 2, 3):
        game.seat(seat, f"p{seat}", 100)
    order = deck_from("2c 3c 4c Kd 5h 9s", game.rules.deck)
    game.start_hand(tuple(int(card) for card in order.cards), 7)
    return game


def test_au_12_2_a_server_table_out_of_time_opens_with_the_least_bet() -> None:
    game = _server_stud()
    hand = game.hand
    assert hand is not None and not hand.legal().can_fold
    low = hand.legal().raise_range
    assert low is not None
    move = game.auto_move()
    assert move == Move("bet_or_raise", low[0])
    seat = game.to_act()
    assert seat is not None
    game.act(seat, move)  # accepted


def test_a_bots_view_at_a_server_table_is_the_reducers_and_holds_no_hidden_card() -> None:
    """The server's bot view is views.Reducer's over the events as the seat sees them: equal
    to SeatView.of the hand, no reference to the hand, and no card the seat may not see."""
    from croupier.bots import SeatView

    game = GameTable(TableSpec(rulebook="au-casino", game="draw", structure="fixed"))
    for seat in (1, 2, 3):
        game.seat(seat, f"p{seat}", 200)
    seed = 5
    order = Deck.shuffled(game.rules.deck, SeededShuffler(seed))
    game.start_hand(tuple(int(card) for card in order.cards), seed)
    hand = game.hand
    assert hand is not None
    rng = random.Random(2)
    checked = 0
    while not hand.over and hand.to_act is not None:
        seat = game.to_act()
        assert seat is not None
        player = game.order.index(seat)
        seen, legal = game.bot_view(seat)
        assert seen == SeatView.of(hand, player)
        assert legal == (None if hand.drawing else hand.legal())
        hidden = {c for p, cards in enumerate(hand.hole) if p != player for c in cards}
        hidden -= set(hand.board) | {c for up in hand.up for c in up}
        assert not _reaches(seen, hand, hidden)
        checked += 1
        game.act(seat, move_of_action(_random_action(hand, rng)))
    assert checked >= 4


def _reaches(root: object, hand: Hand, hidden: set[Card]) -> list[object]:
    """What ``root`` reaches that it must not: the hand, its state, or a card of ``hidden``."""
    import gc
    import types

    found: list[object] = []
    stack, done = [root], set()
    forbidden = {id(hand), id(hand.events), id(hand.hole), id(hand.stacks)}
    while stack:
        obj = stack.pop()
        if id(obj) in done or isinstance(obj, type | types.ModuleType | types.FunctionType):
            continue
        done.add(id(obj))
        state = id(obj) in forbidden or isinstance(obj, Hand | Deck | HandView)
        if state or (isinstance(obj, Card) and obj in hidden):
            found.append(obj)
        stack.extend(gc.get_referents(obj))
    return found
