"""The battery's play families: random legal play, illegal actions and hidden cards, over every
table the shipped rulebooks allow (bench/tables.py).

Each trial is one hand, seeded (the family's seed plus the trial's number), run in the
battery's sandbox (a forked child killed past the time limit); it returns a :class:`Report` of
the checks it made. A failure names the table, the stacks, the seed and the last actions, so
that it can be played again.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import battery
from battery import Failure, Outcome, Sandbox, family
from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.cards import Card, DeckKind
from croupier.hand import Phase, StepKind
from tables import (
    FULL_STATE,
    STATE,
    Deal,
    Setup,
    Table,
    advance,
    all_tables,
    broken_invariant,
    differences,
    full_state,
    new_deal,
    random_setup,
    rebuilt_differs,
    state,
)

MOST_STEPS = 3000  # a hand still going after this many steps does not end


@dataclass
class Report:
    """What one trial (one hand) checked: how many checks held, what failed, what to note."""

    held: int = 0
    failures: list[str] = field(default_factory=list)
    notes: dict[str, int] = field(default_factory=dict)

    def note(self, what: str) -> None:
        self.notes[what] = self.notes.get(what, 0) + 1


def _error(error: BaseException) -> str:
    return f"{type(error).__name__}: {battery._short(str(error))}\n{battery._where(error)}"


def run_trials(name: str, seed: int, seconds: float, check: Callable[[int], Report]) -> Outcome:
    """Trials ``seed * 1000003 + 1``, ``+ 2``, ... of ``check`` in the sandbox until the time
    is up. A failure names its trial's number (``seed N``): ``play_trial(N)``, ``illegal_trial``
    or ``hidden_trial`` plays the same hand again."""
    outcome = Outcome()
    deadline = time.monotonic() + seconds
    trial = seed * 1_000_003
    with Sandbox(check, battery.LIMIT) as sandbox:
        while time.monotonic() < deadline:
            trial += 1
            verdict = sandbox.run(trial)
            if isinstance(verdict, str):  # the trial itself raised, hung or crashed
                outcome.fail(Failure(f"{verdict} ({name} trial {trial})"))
                continue
            outcome.hold(verdict.held)
            for what, count in verdict.notes.items():
                outcome.note(what, count)
            for failure in verdict.failures:
                outcome.fail(Failure(failure))
    return outcome


_TABLES: list[Table] = []


def table_for(trial: int) -> Table:
    """The tables in turn, so that a short run still reaches each."""
    if not _TABLES:
        _TABLES.extend(all_tables())
    return _TABLES[trial % len(_TABLES)]


def start(trial: int, report: Report) -> tuple[Deal, random.Random] | None:
    """The trial's table and hand; None when the book refuses the table (noted, and counted
    as held: a RulebookError is the book's answer) or the hand cannot start (a failure)."""
    rng = random.Random(trial)
    setup: Setup = random_setup(table_for(trial), rng)
    if setup.rules is None:
        report.held += 1
        report.note("tables refused by their book (a RulebookError; counted as held)")
        return None
    try:
        deal = new_deal(setup, rng, trial)
    except Exception as error:
        report.failures.append(f"{_error(error)}\n  starting a hand at {setup}")
        return None
    return deal, rng


# ---------------------------------------------------------------------------------------------
# random-play


def play_trial(trial: int) -> Report:
    """One hand of random legal play: the invariants after every step, and the hand rebuilt
    from its log at the end (and, dealt step by step, once midway)."""
    report = Report()
    started = start(trial, report)
    if started is None:
        return report
    deal, rng = started
    hand = deal.hand
    midway = rng.randint(1, 30) if deal.manual else -1
    steps = 0
    report.note("hands dealt step by step" if deal.manual else "hands dealt automatically")
    while not hand.over:
        steps += 1
        if steps > MOST_STEPS:
            report.failures.append(f"hang: no end after {MOST_STEPS} steps at {deal}")
            return report
        try:
            advance(deal, rng)
        except Exception as error:
            report.failures.append(f"{_error(error)}\n  at {deal}")
            return report
        broken = broken_invariant(hand)
        if broken is not None:
            report.failures.append(f"{broken} at {deal}")
            return report
        report.note("actions checked (chips, cards)")
        if steps == midway:  # the hand plays on after a failure here: the rest still counts
            differs = rebuilt_differs(hand)
            if differs is not None:
                report.failures.append(f"{differs} midway at {deal}")
    differs = rebuilt_differs(hand)
    if differs is not None:
        report.failures.append(f"{differs} at {deal}")
    elif not report.failures:
        report.held += 1
    return report


@family("random-play")
def random_play(seed: int, seconds: float) -> Outcome:
    """Random legal play over every book x game x deck x structure, dealt automatically and
    step by step: chips and cards checked after every action, the log rebuilt at the end."""
    return run_trials("random-play", seed, seconds, play_trial)


# ---------------------------------------------------------------------------------------------
# illegal-actions

BAD_TYPES: list[object] = [
    True, False, 10.0, 10.5, float("inf"), float("nan"), -0.0, "20", "", None, Decimal(20),
    Decimal("20.5"), Decimal("NaN"), Fraction(20), Fraction(41, 2), 20j, [20], (20,), b"20",
    object(),
]  # fmt: skip
try:
    import numpy as np

    BAD_TYPES += [np.float64(20), np.float32(20), np.bool_(True), np.array([20]),
                  np.float64("nan")]  # fmt: skip
    NUMPY_INTS: tuple[type, ...] = (np.int64, np.int32, np.uint64)
except ImportError:  # numpy is a dependency; kept optional here all the same
    NUMPY_INTS = ()

HUGE = (2**63, 2**64 + 1, 10**30, 10**4000)


def bad_amounts(deal: Deal, rng: random.Random) -> Iterator[object]:
    """Amounts no bet or raise may be now: every bad type, and whole numbers outside what is
    legal (negative, huge, below the least, above the most, off the smallest chip)."""
    hand = deal.hand
    yield rng.choice(BAD_TYPES)
    wholes = [-1, 0, -(10**30), rng.choice(HUGE)]
    if hand.phase is Phase.BETTING and hand.to_act is not None:
        legal = hand.legal()
        if legal.raise_range is None:
            wholes += [legal.call, legal.facing + 1, legal.all_in]
        else:
            low, high = legal.raise_range
            wholes += [low - 1, high + 1, high + legal.unit, hand.stacks[hand.to_act] * 2 + 1]
            if legal.unit > 1:
                off = [a for a in range(low + 1, min(high, low + 3 * legal.unit))
                       if a % legal.unit]  # fmt: skip
                wholes += off[:2]
            legal_too = (legal.all_in, low, high)
            wholes = [
                a for a in wholes
                if a not in legal_too and not (low <= a <= high and a % legal.unit == 0)
            ]  # fmt: skip
    else:
        wholes += [10, hand.rules.betting.small_bet]
    amount = rng.choice(wholes)
    yield amount
    if NUMPY_INTS and abs(amount) < 2**62:
        kind = rng.choice(NUMPY_INTS)
        if amount >= 0 or kind is not np.uint64:
            yield kind(amount)


class _SaidYesError(Exception):
    """A query that said yes to an illegal amount."""


def _refuse(answer: bool) -> None:
    """A query's False as the refusal it stands for (IllegalAction); True is a failure."""
    if answer is not False:
        raise _SaidYesError(f"answered {answer!r}")
    raise IllegalAction("the query said no")


def _not_held(deal: Deal, player: int, rng: random.Random, count: int) -> list[Card]:
    hand = deal.hand
    held = set(hand.hole[player])
    others = [c for c in hand.rules.deck.cards if c not in held]
    return rng.sample(others, min(count, len(others)))


def _in_play(deal: Deal) -> list[Card]:
    hand = deal.hand
    return [c for cards in hand.hole + hand.up for c in cards] + hand.board + hand.burned


def _foreign(kind: DeckKind) -> Card | None:
    """A card of the standard deck this short deck has not got."""
    missing = [c for c in DeckKind.STANDARD.cards if c not in kind.cards]
    return missing[0] if missing else None


def illegal_attempts(deal: Deal, rng: random.Random) -> list[tuple[str, Callable[[], object]]]:
    """Things no one may do now, each with what it is: the player's operations with bad
    amounts or out of turn, a draw of cards not held, the dealer's when none is due or with
    the wrong cards."""
    hand = deal.hand
    attempts: list[tuple[str, Callable[[], object]]] = []
    for amount in bad_amounts(deal, rng):
        shown = f"{amount!r:.40}"
        attempts.append((f"bet_or_raise_to({shown})", lambda a=amount: hand.bet_or_raise_to(a)))
        # the query must answer False, and change nothing either (issue 13 item 3)
        attempts.append((f"can_bet_or_raise_to({shown})",
                         lambda a=amount: _refuse(hand.can_bet_or_raise_to(a))))  # fmt: skip
    betting = hand.phase is Phase.BETTING and hand.to_act is not None
    if not betting:
        attempts += [("fold() out of turn", hand.fold),
                     ("check_or_call() out of turn", hand.check_or_call)]  # fmt: skip
    if not betting or hand.legal().bring_in is None:
        attempts.append(("post_bring_in() with no bring-in due", hand.post_bring_in))
    if betting and not hand.legal().can_fold:
        attempts.append(("fold() when checking is free", hand.fold))
    if not hand.drawing or hand.to_act is None:
        attempts.append(("draw([]) with no draw due", lambda: hand.draw([])))
    else:
        player = hand.to_act
        assert player is not None
        held = hand.hole[player]
        foreign = _not_held(deal, player, rng, 2)
        attempts.append((f"draw of cards not held {foreign}", lambda: hand.draw(foreign)))
        if held:
            twice = [held[0], held[0]]
            attempts.append(("draw of a card twice", lambda: hand.draw(twice)))
    attempts += dealer_attempts(deal, rng)
    return attempts


def dealer_attempts(deal: Deal, rng: random.Random) -> list[tuple[str, Callable[[], object]]]:
    hand = deal.hand
    step = hand.next_step()
    stub = list(hand.deck.cards)
    used = _in_play(deal)
    some = rng.sample(stub, min(2, len(stub)))
    attempts: list[tuple[str, Callable[[], object]]] = []
    if step is None:
        attempts += [
            ("burn() with no step due", lambda: hand.burn(some[0] if some else None)),
            ("deal_hole() with no step due", lambda: hand.deal_hole(some[:1])),
            ("deal_board() with no step due", lambda: hand.deal_board(some[:1])),
            ("show_or_muck() with no step due", lambda: hand.show_or_muck(True)),
            ("deal_next() with no step due", hand.deal_next),
        ]
        return attempts
    kind = step.kind
    count = 1 if kind is StepKind.BURN else step.count
    wrong = {
        StepKind.BURN: ("burn", lambda: hand.burn(some[0] if some else None)),
        StepKind.BOARD: ("deal_board", lambda: hand.deal_board(some[:1])),
        StepKind.SHOW: ("show_or_muck", lambda: hand.show_or_muck(True)),
        StepKind.PUSH: ("push", hand.push),
    }
    for other, (name, call) in wrong.items():
        if other is not kind:
            attempts.append((f"{name}() when {step} is due", call))
    if kind in (StepKind.HOLE, StepKind.REPLACE, StepKind.BOARD, StepKind.BURN):
        deal_op: Callable[[list[Card]], object] = {
            StepKind.BURN: lambda cards: hand.burn(cards[0]),
            StepKind.BOARD: hand.deal_board,
        }.get(kind, hand.deal_hole)
        if used:
            card = rng.choice(used)
            given = [card, *stub[: count - 1]]
            attempts.append((f"{step} with {card}, already in play", lambda: deal_op(given)))
        if kind is not StepKind.BURN and len(stub) > count:
            more = stub[: count + 1]
            attempts.append((f"{step} with {count + 1} cards", lambda: deal_op(more)))
            if count > 1:
                twice = [stub[0]] * count
                attempts.append((f"{step} with a card twice", lambda: deal_op(twice)))
                fewer = stub[: count - 1]
                attempts.append((f"{step} with {count - 1} cards", lambda: deal_op(fewer)))
        alien = _foreign(hand.rules.deck)
        if alien is not None:
            given = [alien, *stub[: count - 1]]
            attempts.append((f"{step} with {alien}, not in this deck", lambda: deal_op(given)))
        if kind in (StepKind.HOLE, StepKind.REPLACE):
            cards = stub[:count]
            nobody = hand.players + rng.randrange(3)
            attempts.append((f"{step} given to p{nobody + 1}, not at the table",
                             lambda: hand.deal_hole(cards, player=nobody)))  # fmt: skip
            # The dealer may deal a later player's cards first (reported in another order);
            # with cards already in play that must still be refused and change nothing.
            later = [s.player for s in hand.steps_due[1:] if s.kind is kind and s.player >= 0]
            if later and used:
                other, card = rng.choice(later), rng.choice(used)
                bad = [card, *stub[: count - 1]]
                attempts.append((f"{step} brought forward for p{other + 1} with {card}, in play",
                                 lambda: hand.deal_hole(bad, player=other)))  # fmt: skip
    if kind is StepKind.SHOW:
        nobody = hand.players + rng.randrange(3)
        attempts.append((f"{step} for p{nobody + 1}, not at the table",
                         lambda: hand.show_or_muck(True, player=nobody)))  # fmt: skip
        held = hand.hole[step.player] + hand.up[step.player]
        if held and not hand.hidden[step.player]:
            foreign = _not_held(deal, step.player, rng, len(held))
            attempts.append((f"{step} naming cards not held",
                             lambda: hand.show_or_muck(True, cards=foreign)))  # fmt: skip
    return attempts


def illegal_trial(trial: int) -> Report:
    """A hand in random play; at random states, every illegal attempt must raise IllegalAction
    and leave the hand exactly as it was (its state, its log, and a copy of it)."""
    report = Report()
    started = start(trial, report)
    if started is None:
        return report
    deal, rng = started
    hand = deal.hand
    steps = 0
    while steps <= MOST_STEPS:
        steps += 1
        if rng.random() < 0.35 or hand.over:
            failure = attempt_all(deal, rng, report)
            if failure is not None:  # the hand plays on: later states are still worth trying
                report.failures.append(failure)
                if len(report.failures) >= 3:
                    return report
        if hand.over:
            return report
        try:
            advance(deal, rng)
        except Exception as error:
            report.failures.append(f"{_error(error)}\n  (a legal step) at {deal}")
            return report
    report.failures.append(f"hang: no end after {MOST_STEPS} steps at {deal}")
    return report


def attempt_all(deal: Deal, rng: random.Random, report: Report) -> str | None:
    hand = deal.hand
    before = full_state(hand)
    copied = None
    if rng.random() < 0.2:  # a copy is a rebuild: slower
        try:
            copied = state(hand.copy())
        except Exception as error:
            return f"copy failed: {_error(error)}\n  at {deal}"
    for what, attempt in illegal_attempts(deal, rng):
        try:
            attempt()
        except IllegalAction:
            pass
        except _SaidYesError as error:
            return f"accepted: {what} {error} at {deal}"
        except Exception as error:
            return f"{_error(error)}\n  for {what} (IllegalAction expected) at {deal}"
        else:
            return f"accepted: {what} at {deal}"
        after = full_state(hand)
        if after != before:
            diff = differences(FULL_STATE, before, after)
            return f"changed: {what} was refused but changed the hand: {diff} at {deal}"
        report.held += 1
    if copied is not None:
        again = state(hand.copy())
        if again != copied:
            diff = differences(STATE, copied, again)
            return f"changed: refused attempts changed the hand's copy: {diff} at {deal}"
    return None


@family("illegal-actions")
def illegal_actions(seed: int, seconds: float) -> Outcome:
    """Illegal attempts in random states of hands at every table: bad amounts of every type
    and value, acting out of turn, draws of cards not held, dealer steps not due or with the
    wrong cards. Held: an IllegalAction that changed nothing."""
    return run_trials("illegal-actions", seed, seconds, illegal_trial)


# ---------------------------------------------------------------------------------------------
# hidden-cards

_CARD_RUN = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][cdhs])+(?![A-Za-z0-9])")


def cards_in_text(text: str) -> set[str]:
    """The card names a text holds: runs like ``AhKs``, ``[Ah Ks]``, ``"Ah"``."""
    found = set()
    for run in _CARD_RUN.findall(text):
        found.update(run[i : i + 2] for i in range(0, len(run), 2))
    return found


def cards_in(value: object) -> set[str]:
    """Every card a value holds: dataclasses (a view, events), tuples, lists, dicts."""
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(str(item))
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in fields(item) if f.name != "rules")
    return found


def seen_by(hand: Any, viewer: int) -> set[str]:
    """The cards ``viewer`` has seen, from the house's log: the board, face-up cards, hands
    shown, and a seat's own cards (dealt, drawn and thrown away)."""
    seen: set[Card] = set()
    for event in hand.events:
        if isinstance(event, ev.DealBoard | ev.DealUp | ev.Show | ev.BoardAdded):
            seen.update(event.cards)
        elif isinstance(event, ev.DealHole) and event.player == viewer:
            seen.update(c for c in event.cards if c is not None)
        elif isinstance(event, ev.Draw) and event.player == viewer:
            seen.update(c for c in event.discarded + event.drawn if c is not None)
    return {str(c) for c in seen}


def whose(hand: Any, card: str) -> str:
    """Where a card the viewer should not know lies, for the report."""
    for player, cards in enumerate(hand.hole):
        if card in map(str, cards):
            return f"p{player + 1}'s hole card"
    for name in ("burned", "discards"):
        if card in map(str, getattr(hand, name)):
            return {"burned": "a burn card", "discards": "a discard"}[name]
    return "a stub card" if card in map(str, hand.deck.cards) else "a card"


def exports(deal: Deal, viewer: int) -> Iterator[tuple[str, Callable[[], object]]]:
    """What a finished hand gives ``viewer``: PHH, PokerStars text, OHH, the JSON event log and
    the events themselves."""
    from croupier.history import dump_phh, history_from_hand
    from croupier.history.log import dump_event_log
    from croupier.history.ohh import dump_ohh
    from croupier.history.text import format_pokerstars
    from croupier.views import visible

    hand, setup = deal.hand, deal.setup
    book, options = setup.table.book, setup.options
    yield "phh", lambda: dump_phh(history_from_hand(hand, viewer=viewer, rulebook=book,
                                                    options=options))  # fmt: skip
    yield "pokerstars", lambda: format_pokerstars(hand, viewer=viewer)
    yield "ohh", lambda: dump_ohh(hand, viewer=viewer)
    yield "event log", lambda: json.loads(dump_event_log(hand, viewer))
    yield "events", lambda: visible(hand.events, viewer)


def hidden_trial(trial: int) -> Report:
    """A hand of random play; each seat's and the spectator's view at random moments, and
    every export at the end, may name only the cards that viewer has seen."""
    from croupier.views import SPECTATOR, view

    report = Report()
    started = start(trial, report)
    if started is None:
        return report
    deal, rng = started
    hand = deal.hand
    viewers = [*range(hand.players), SPECTATOR]

    def check(viewer: int, what: str, output: object) -> bool:
        named = cards_in_text(output) if isinstance(output, str) else cards_in(output)
        if what == "event log":
            named = cards_in_text(json.dumps(output))
        leaked = sorted(named - seen_by(hand, viewer))
        if leaked:
            who = "the spectator" if viewer == SPECTATOR else f"p{viewer + 1}"
            shown = ", ".join(f"{c} ({whose(hand, c)})" for c in leaked)
            report.failures.append(f"leak: {what} for {who} names {shown} at {deal}")
            return False
        report.held += 1
        return True

    steps = 0
    while not hand.over and steps <= MOST_STEPS:
        steps += 1
        try:
            advance(deal, rng)
        except Exception as error:
            report.failures.append(f"{_error(error)}\n  (a legal step) at {deal}")
            return report
        if rng.random() < 0.15 or hand.over:
            for viewer in viewers:
                if not check(viewer, "view", view(hand, viewer)):
                    return report
    for viewer in viewers:
        for what, make in exports(deal, viewer):
            try:
                output = make()
            except ValueError as error:  # the format's own error: it cannot say this hand
                kind = type(error).__name__
                report.note(f"{what} exports refused ({kind}: the format cannot say the hand)")
                continue
            except Exception as error:
                report.failures.append(f"{_error(error)}\n  writing {what} for {viewer} at {deal}")
                return report
            if not check(viewer, what, output):
                return report
    return report


@family("hidden-cards")
def hidden_cards(seed: int, seconds: float) -> Outcome:
    """Every seat's and the spectator's view, PHH, PokerStars text, OHH and event log of
    random hands at every table: no card of another player unless shown, no burn or stub."""
    return run_trials("hidden-cards", seed, seconds, hidden_trial)
