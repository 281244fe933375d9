"""The floor: a house's book, ruling on reports about a hand.

``Floor(book).report(hand, report)`` returns the :class:`Ruling` of the book in force and applies
it to the hand (docs/irregularities-spec.md §1.1). Why a floor and not ``hand.report``: the hand is
the pure engine of one deal and knows its settings, not the book they came from; the procedures
are the floor's, held once per table, and the same floor rules on a hand rebuilt from its log. The
hand keeps what a ruling leaves behind (its log, a choice awaited), so a rebuild replays every
ruling and a waiting choice blocks the hand however it is driven.
"""

from __future__ import annotations

from collections.abc import Callable

from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.cards import Card
from croupier.corrections import IrregularityError
from croupier.games import Opener
from croupier.hand import Hand, Phase, StepKind
from croupier.irregularities.model import Plan, Rule, Ruling, refuse, rules_of
from croupier.irregularities.reports import Report, ReportError, parse_report
from croupier.rulebooks import Rulebook, load_rulebook

__all__ = ["Floor", "cut_off_passed", "voluntary_actors"]

_VOLUNTARY = (ev.Fold, ev.Check, ev.Call, ev.Bet, ev.ActionHeld)

Handler = Callable[["Floor", Hand, Report], Plan]
_HANDLERS: dict[type[Report], Handler] = {}


def handles(*kinds: type[Report]) -> Callable[[Handler], Handler]:
    """Register the function that plans the ruling on these reports."""

    def register(handler: Handler) -> Handler:
        for kind in kinds:
            _HANDLERS[kind] = handler
        return handler

    return register


def voluntary_actors(hand: Hand, since: int = 0) -> dict[int, str]:
    """The players who folded, checked, called, bet or raised (or acted out of turn) after log
    index ``since``, with what each did first; forced bets are not actions, nor is a stud
    opener's forced bet (cardroom misdeals 1: 'two players after the forced bet')."""
    acted: dict[int, str] = {}
    street = -1
    opened = False
    for event in hand.events[since:]:
        if isinstance(event, ev.StreetStart):
            street = event.index
        if not isinstance(event, _VOLUNTARY) or event.player in acted:
            continue
        if isinstance(event, ev.Bet) and street == 0 and not opened and _forced_open(hand):
            opened = True
            continue
        acted[event.player] = _describe(event)
    return acted


def _forced_open(hand: Hand) -> bool:
    return hand.rules.game.streets[0].forced_open


def _describe(event: ev.Event) -> str:
    who = f"p{getattr(event, 'player', -1) + 1}"
    if isinstance(event, ev.Fold):
        return f"{who} folded"
    if isinstance(event, ev.Check):
        return f"{who} checked"
    if isinstance(event, ev.Call):
        return f"{who} called"
    if isinstance(event, ev.Bet):
        return f"{who} bet {event.to}"
    assert isinstance(event, ev.ActionHeld)
    return f"{who} acted out of turn"


def cut_off_passed(hand: Hand, mode: str) -> str | None:
    """Why a misdeal may no longer be declared under a book's cut-off (§1.3), or None."""
    if hand.over:
        return "the hand is over: the pot has been pushed"
    acted = voluntary_actors(hand)
    if mode == "first-action" and acted:
        return f"the first round of betting has started ({next(iter(acted.values()))})"
    if mode in ("substantial-action", "two-players") and len(acted) >= 2:
        return f"two players have acted ({', '.join(acted.values())})"
    return None


class Floor:
    """The floor of a house playing by ``book`` (a :class:`Rulebook` or its name)."""

    def __init__(self, book: Rulebook | str, *, denominations: tuple[int, ...] = ()) -> None:
        """``denominations``: the table's chips, for the one-chip rules (league 32-33, cardroom
        betting 15); empty: any chip value is taken as given."""
        self.book = load_rulebook(book) if isinstance(book, str) else book
        self.denominations = tuple(sorted(denominations))
        self._lookup = rules_of(self.book)

    def __repr__(self) -> str:
        return f"Floor({self.book.name!r})"

    # --- the rules -----------------------------------------------------------------------

    def rule(self, question: str) -> Rule:
        """This book's rule on ``question`` (a table of rulings.toml)."""
        found = self._lookup(question)
        if found is None:
            raise IrregularityError(
                f"{self.book.name} has no rule on {question}: the book does not deal the game "
                "where it arises"
            )
        return found

    def cut_off(self, rule: Rule | None = None) -> tuple[str, Rule]:
        """The misdeal cut-off in force (a rule may borrow another's), and its rule."""
        general = self.rule("misdeal-cut-off")
        if rule is not None and rule.cut_off:
            return rule.cut_off, rule
        return general.do, general

    def check_cut_off(self, hand: Hand, rule: Rule | None = None) -> None:
        """IrregularityError when a misdeal may no longer be declared (§1.3)."""
        mode, source = self.cut_off(rule)
        why = cut_off_passed(hand, mode)
        if why is not None:
            raise refuse(source, f"a misdeal may no longer be declared: {why}")

    def before_cut_off(self, hand: Hand, rule: Rule | None = None) -> bool:
        mode, _ = self.cut_off(rule)
        return cut_off_passed(hand, mode) is None

    # --- reports, decisions, actions ------------------------------------------------------

    def plan(self, hand: Hand, report: Report | str) -> Plan:
        """What the ruling on ``report`` would be, without applying it."""
        if isinstance(report, str):
            report = parse_report(report)
        handler = _HANDLERS.get(type(report))
        if handler is None:
            raise ReportError(f"no ruling for {report.verb!r}")
        return handler(self, hand, report)

    def report(self, hand: Hand, report: Report | str) -> Ruling:
        """Rule on a report and apply the ruling; a refused report raises IrregularityError
        and changes nothing."""
        if isinstance(report, str):
            report = parse_report(report)
        if hand.pending is not None:
            hand.record_ruling(ev.RulingMade("", "", "", "", ""))  # raises: a choice awaits
        plan = self.plan(hand, report)
        return self.commit(hand, plan, str(report))

    def decide(self, hand: Hand, choice: str, player: int | None = None) -> Ruling:
        """Answer the choice a ruling awaits (the floor's, or with ``player`` that player's
        own option, au 19.20); returns the final ruling."""
        waiting: ev.Event | None
        if player is not None and player in hand.options:
            waiting = hand.events[hand.options[player]]
        else:
            waiting = hand.pending
        if not isinstance(waiting, ev.RulingMade):
            raise IrregularityError("no ruling awaits a choice")
        plan = self.replan(hand, waiting)
        chosen = plan.options.get(choice)
        if chosen is None:
            raise IrregularityError(
                f"{waiting.clause}: {choice!r} is not a choice here: choose one of "
                f"{', '.join(waiting.choices)}"
            )
        if chosen.player < 0:
            chosen.player = waiting.player if not waiting.blocking else -1
        ruling = self.commit(hand, chosen, waiting.report, choice=choice, waiting=waiting)
        self.follow_up(hand)  # a held action the turn now reaches, in the log
        return ruling

    def follow_up(self, hand: Hand) -> list[Ruling]:
        """Rule on whatever the book does now that the turn has moved: a held out-of-turn
        action the turn reaches (I30), a player passed over by enough actions behind (I31)."""
        from croupier.irregularities.betting import follow_up

        return follow_up(self, hand)

    def replan(self, hand: Hand, waiting: ev.RulingMade) -> Plan:
        """The plan a waiting ruling was made from, again (its report is in the log)."""
        if waiting.report.startswith("!"):
            return self.follow_plan(hand, waiting.report[1:])
        return self.plan(hand, waiting.report)

    def commit(
        self, hand: Hand, plan: Plan, report: str, *, choice: str = "",
        waiting: ev.RulingMade | None = None,
    ) -> Ruling:  # fmt: skip
        """Log the ruling and apply its corrections; all or nothing."""
        rule = plan.rule
        name = self.book.name
        situation = waiting.situation if waiting is not None else plan.situation
        if plan.options and not choice:
            keys = tuple(plan.options)
            event = ev.RulingMade(
                situation, rule.clause, rule.basis, report, plan.outcome, keys,
                blocking=plan.blocking, player=plan.player,
            )  # fmt: skip
            index = hand.record_ruling(event)
            for step in plan.steps:  # what happens at once, whatever is chosen (au 19.20)
                step(hand)
            hand.seal_ruling(index)
            return Ruling(
                situation, name, rule.clause, rule.basis, rule.filled_from, plan.outcome,
                tuple(hand.events[index + 1 :]), plan.choices(), plan.confirm_by, report,
            )  # fmt: skip
        snapshot = hand.copy()
        index = hand.record_ruling(
            ev.RulingMade(
                situation,
                rule.clause,
                rule.basis,
                report,
                plan.outcome,
                choice=choice,
                blocking=waiting.blocking if waiting is not None else True,
                player=plan.player if waiting is not None and not waiting.blocking else -1,
            )
        )
        try:
            for step in plan.steps:
                step(hand)
        except IllegalAction as error:
            events = snapshot.events
            hand.restore_from(snapshot)
            hand.events = events
            raise IrregularityError(f"{rule.clause}: {error}") from None
        hand.seal_ruling(index)
        applied = tuple(hand.events[index + 1 :])
        if plan.options:  # a choice that leads to another choice
            return self.commit(hand, _without_steps(plan), report)
        return Ruling(
            situation, name, rule.clause, rule.basis, rule.filled_from, plan.outcome, applied,
            (), plan.confirm_by, report,
        )  # fmt: skip

    def act(self, hand: Hand, player: int, action: str, amount: int | None = None) -> list[Ruling]:
        """A player's action as the dealer sees it: in turn it is played; out of turn it is
        reported (I30). Then whatever the book does when the turn reaches a player with a held
        action, or passes a skipped one (I30, I31). Returns the rulings made."""
        from croupier.irregularities.betting import apply_action

        if hand.pending is not None:
            hand.record_ruling(ev.RulingMade("", "", "", "", ""))  # raises: a choice awaits
        rulings: list[Ruling] = []
        if hand.to_act != player and hand.phase is Phase.BETTING:
            words = f"out-of-turn p{player + 1} {action}" + (f" {amount}" if amount else "")
            rulings.append(self.report(hand, words))
        else:
            apply_action(hand, player, action, amount)
        rulings.extend(self.follow_up(hand))
        return rulings

    def follow_plan(self, hand: Hand, key: str) -> Plan:
        from croupier.irregularities.betting import follow_plan

        return follow_plan(self, hand, key)


def _without_steps(plan: Plan) -> Plan:
    return Plan(
        plan.situation, plan.rule, plan.outcome, [], plan.options, plan.texts, plan.confirm_by,
        plan.blocking, plan.player,
    )  # fmt: skip


# --- helpers shared by the situations ------------------------------------------------------


def kind_of_game(hand: Hand) -> str:
    """flop, manila, stud or draw: which of the books' procedures a game takes."""
    streets = hand.rules.game.streets
    if any(street.draw for street in streets):
        return "draw"
    if any(street.up for street in streets):
        return "stud"
    if streets[0].board:
        return "manila"
    return "flop"


def next_card(hand: Hand) -> Card | None:
    """The stub's top card where the engine knows the order (it deals from its deck), else a
    card nobody has seen."""
    if hand.auto_deal and hand.deck.cards:
        return hand.deck.cards[0]
    return None


def initial_deal_done(hand: Hand) -> bool:
    return hand.street > 0 or not any(step.kind is StepKind.HOLE for step in hand.steps_due)


def stud_opener_pending(hand: Hand) -> bool:
    street = hand.rules.game.streets[0]
    return street.opener in (Opener.LOWEST_UP_CARD, Opener.HIGHEST_UP_CARD)
