"""Rulings on betting: verbal declarations (I25), released chips (I26), chips pushed without a
word and string raises (I27), a single chip (I28), undersized wagers (I29), actions out of turn
(I30) and losing the right to act (I31).

Each of these reports stands for what a player did in turn (or out of turn): the ruling says
which action it is, and applies it. :func:`chip_action` is the pure reading of a push of chips.
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier import events as ev
from croupier.betting import IllegalAction, Legal
from croupier.corrections import IrregularityError
from croupier.hand import Hand, Phase
from croupier.irregularities import reports as r
from croupier.irregularities.floor import Floor, handles
from croupier.irregularities.model import Plan, Rule, Ruling, Step, refuse

__all__ = ["apply_action", "chip_action", "follow_up"]


def _clause(rule: Rule, clause: str) -> Rule:
    return Rule(rule.question, rule.book, rule.do, clause, rule.basis, rule.filled_from)


def chip_action(legal: Legal, chips: Sequence[int], mine: int) -> tuple[str, int]:
    """What a push of ``chips`` without a word means (cardroom betting 14-15, league 32-34):
    ``("call"|"check"|"bet"|"raise", round total)``. ``mine``: the player's bet this round.

    One chip: a call when facing a bet (cardroom 15, league 33); otherwise the largest bet it
    allows (league 32). Several: under the call, a call brought up (cardroom 16); from the call to
    under the call plus half the raise increment, a call and the rest back; from there to the
    smallest raise, that raise completed; at or over it, a raise of all of them, the excess over
    the maximum back (cardroom 14, league 34)."""
    pushed = sum(chips)
    facing = legal.call > 0 or not legal.can_check
    if not facing:
        if legal.raise_range is None:
            return "check", mine
        low, high = legal.raise_range
        return "bet", max(low, min(high, mine + pushed))
    call_to = mine + legal.call
    if len(chips) == 1 or legal.raise_range is None:
        return "call", call_to
    low, high = legal.raise_range
    smallest = low - mine  # the chips the smallest raise adds
    if 2 * pushed < legal.call + smallest:
        return "call", call_to
    if pushed < smallest:
        return "raise", low
    return "raise", min(high, mine + pushed)


def apply_action(hand: Hand, player: int, action: str, to: int | None = None) -> None:
    """``player`` does ``action`` now (their turn): fold, check, call, bet or raise to ``to``."""
    if hand.to_act != player or hand.phase is not Phase.BETTING:
        who = "nobody" if hand.to_act is None else f"p{hand.to_act + 1}"
        raise IllegalAction(f"it is not p{player + 1}'s turn: {who} is to act")
    legal = hand.legal()
    if action == "fold":
        hand.fold()
    elif action == "check":
        if not legal.can_check:
            raise IllegalAction(f"p{player + 1} faces {legal.call}: call or fold; legal: {legal}")
        hand.check_or_call()
    elif action == "call":
        if legal.can_check:
            raise IllegalAction(f"p{player + 1} faces no bet: check or bet; legal: {legal}")
        hand.check_or_call()
    elif action in ("bet", "raise", "all-in"):
        if to is None:
            to = legal.all_in
        hand.bet_or_raise_to(to)
    else:
        raise IllegalAction(f"an action is fold, check, call, bet N or raise N, not {action!r}")


def _act(player: int, action: str, to: int) -> list[Step]:
    return [lambda h: apply_action(h, player, action, to)]


def _describe(player: int, action: str, to: int) -> str:
    who = f"p{player + 1}"
    if action in ("bet", "raise"):
        return f"{who} {action}s to {to}" if action == "raise" else f"{who} bets {to}"
    return f"{who} {'checks' if action == 'check' else action + 's'}"


def _turn(rule: Rule, hand: Hand, player: int) -> Legal:
    if hand.phase is not Phase.BETTING:
        raise refuse(rule, f"no round of betting is under way now ({hand.phase.value})")
    if hand.to_act != player:
        who = "nobody" if hand.to_act is None else f"p{hand.to_act + 1}"
        raise refuse(rule, f"p{player + 1} is not to act ({who} is): report out-of-turn instead")
    return hand.legal()


def chips_plan(
    floor: Floor, hand: Hand, player: int, chips: Sequence[int], rule: Rule, situation: str
) -> Plan:
    """The ruling on a push of chips by ``player`` in turn (I27, I28), or held out of turn."""
    if hand.to_act != player:
        total = hand.bets[player] + sum(chips)
        return out_of_turn_plan(floor, hand, player, "bet", total)
    legal = _turn(rule, hand, player)
    if floor.denominations and len(chips) == 1 and chips[0] not in floor.denominations:
        raise refuse(rule, f"{chips[0]} is not one of the table's chips "
                     f"({', '.join(map(str, floor.denominations))})")  # fmt: skip
    mine = hand.bets[player]
    action, to = chip_action(legal, chips, mine)
    pushed = sum(chips)
    added = to - mine
    back = f"; {pushed - added} goes back" if pushed > added else ""
    short = f"; {added - pushed} more is owed" if added > pushed else ""
    return Plan(situation, rule, f"{_describe(player, action, to)}{back}{short}",
                _act(player, action, to))  # fmt: skip


# --- I25-I29 ----------------------------------------------------------------------------------


@handles(r.Said)
def said(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Said)
    rule = floor.rule("said")
    player = int(report.player)
    _turn(rule, hand, player)
    action = report.action
    if rule.do == "chips-decide" and action in ("bet", "raise", "call"):
        if report.chips is None:
            return Plan("verbal-declaration", rule, "a spoken wager is no wager: the chips "
                        "placed decide, and none were placed")  # fmt: skip
        return chips_plan(floor, hand, player, (report.chips,) if action == "call" else
                          (report.chips, 0), rule, "verbal-declaration")  # fmt: skip
    to = report.amount if report.amount is not None else hand.bets[player]
    if action == "call":
        to = hand.bets[player] + hand.legal().call
    if action not in ("fold", "check", "call", "bet", "raise"):
        raise r.ReportError(f"fold, check, call, bet N or raise N: {report.usage}")
    owed = ""
    if report.chips is not None and action in ("bet", "raise", "call"):
        diff = (to - hand.bets[player]) - report.chips
        owed = f"; {diff} more must go in" if diff > 0 else (f"; {-diff} goes back" if diff
                                                             else "")  # fmt: skip
    binds = f"the declaration binds: {_describe(player, action, to)}{owed}"
    return Plan("verbal-declaration", rule, binds, _act(player, action, to))


@handles(r.Released)
def released(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Released)
    rule = floor.rule("released")
    player = int(report.player)
    legal = _turn(rule, hand, player)
    mine = hand.bets[player]
    action, to = chip_action(legal, (report.amount, 0), mine)
    if legal.call and action == "call" and report.amount < legal.call:
        outcome = f"the chips bind: the call is made right, {legal.call - report.amount} more"
    else:
        outcome = f"the chips bind: {_describe(player, action, to)}"
    stand = Plan("released-chips", rule, outcome, _act(player, action, to))
    if report.unaware and not report.acted_after and legal.call > report.amount:
        withdraw = Plan("released-chips", rule, f"p{player + 1} takes the chips back and acts "
                        "again")  # fmt: skip
        return Plan(
            "released-chips", rule, f"p{player + 1} did not know of the raise and nobody acted "
            "after: the player may withdraw the chips and reconsider",
            options={"withdraw": withdraw, "stand": stand},
        )  # fmt: skip
    return stand


@handles(r.Chips)
def chips(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Chips)
    player = int(report.player)
    if len(report.chips) == 1:
        legal = hand.legal() if hand.to_act == player else None
        facing = legal is not None and not legal.can_check
        rule = floor.rule("single-chip-facing" if facing else "single-chip-open")
        return chips_plan(floor, hand, player, report.chips, rule, "single-chip")
    return chips_plan(floor, hand, player, report.chips, floor.rule("chips"), "several-chips")


@handles(r.String)
def string(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.String)
    rule = floor.rule("string")
    plan = chips_plan(floor, hand, int(report.player), (report.first, 0), rule, "string-raise")
    plan.outcome = f"a string raise: only the first motion counts; {plan.outcome}; the " \
        f"{report.more} of the second motion goes back"  # fmt: skip
    return plan


@handles(r.Short)
def short(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """I29: an undersized wager or call is brought up to the proper size (cardroom betting
    16); a wrongly rounded amount becomes the nearest proper one."""
    assert isinstance(report, r.Short)
    rule = floor.rule("short")
    player = int(report.player)
    legal = _turn(rule, hand, player)
    mine = hand.bets[player]
    if not legal.can_check:
        to = mine + legal.call
        return Plan("undersized-wager", rule, f"brought up to the call: p{player + 1} calls "
                    f"{legal.call}", _act(player, "call", to))  # fmt: skip
    if legal.raise_range is None:
        raise refuse(rule, f"p{player + 1} may not bet now; legal: {legal}")
    low, high = legal.raise_range
    unit = hand.rules.chip_unit
    wanted = mine + report.amount
    if wanted >= low and (wanted % unit or wanted > high):
        to = max(low, min(high, round(wanted / unit) * unit))
        return Plan("undersized-wager", rule, f"rounded to the nearest proper amount: "
                    f"{to}", _act(player, "bet", to))  # fmt: skip
    to = max(low, wanted)
    return Plan("undersized-wager", rule, f"brought up to the proper size: p{player + 1} bets "
                f"{to}", _act(player, "bet", to))  # fmt: skip


# --- I30. Acting out of turn ------------------------------------------------------------------


def out_of_turn_plan(floor: Floor, hand: Hand, player: int, action: str, to: int | None) -> Plan:
    rule = floor.rule("out-of-turn")
    if hand.phase is not Phase.BETTING or hand.round is None:
        raise refuse(rule, "only during a betting round")
    if player == hand.to_act:
        raise refuse(rule, f"it is p{player + 1}'s turn: that is in turn")
    if action not in ("check", "fold", "call", "bet", "raise"):
        raise r.ReportError(f"check, fold, call, bet N or raise N: {r.OutOfTurn.usage}")
    total = to if to is not None else 0
    steps: list[Step] = [lambda h: h.hold_action(player, action, total)]
    who = f"p{player + 1}"
    turn = f"p{(hand.to_act or 0) + 1}"
    outcome = f"{who}'s {action}{f' to {to}' if to else ''} out of turn is held; {turn} acts first"
    maximum = hand.rules.betting.max_wager
    if action in ("bet", "raise") and maximum is not None and rule.do == "qld-s37":
        ceiling = hand.round.current + maximum if action == "raise" else maximum
        if total > ceiling:
            rule = _clause(rule, "qld s37(6)")
            steps.append(lambda h: h.correct_wager(player, ceiling))
            outcome += f"; the excess over the maximum wager goes back (to {ceiling})"
    if action == "check":
        check = floor.rule("out-of-turn-check")
        steps.append(lambda h: h.restrict(player, "no-bet-or-raise"))
        outcome += f"; {who} may not bet or raise on the next turn ({check.clause})"
    return Plan("out-of-turn", rule, outcome, steps)


@handles(r.OutOfTurn)
def out_of_turn(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.OutOfTurn)
    return out_of_turn_plan(floor, hand, int(report.player), report.action, report.amount)


def _held_at(hand: Hand, player: int) -> int:
    for i in range(len(hand.events) - 1, -1, -1):
        event = hand.events[i]
        if isinstance(event, ev.ActionHeld) and event.player == player:
            return i
    return len(hand.events)


def _missed_bets(hand: Hand, player: int) -> list[ev.Event]:
    """What the players acting in turn did after ``player``'s out-of-turn action: bets, calls
    and raises (the books' 'intervening' actions)."""
    since = _held_at(hand, player)
    return [
        e for e in hand.events[since:]
        if isinstance(e, ev.Bet | ev.Call) and e.player != player
    ]  # fmt: skip


def follow_plan(floor: Floor, hand: Hand, key: str) -> Plan:
    """The ruling when the turn reaches a player with an action held out of turn (I30):
    ``key`` is ``held p3``."""
    player = int(key.split()[1][1:]) - 1
    action, total = hand.held_actions[player]
    rule = floor.rule("out-of-turn")
    who = f"p{player + 1}"
    intervening = _missed_bets(hand, player)
    bet_more = [e for e in intervening if isinstance(e, ev.Bet)]
    lost = _lost_turn(hand, player)
    legal = hand.legal()
    stands = _stands(hand, player, action, total, legal)
    if lost is not None:
        return Plan("right-to-act", lost, f"{who}'s {action} stands in its order", stands)
    free = Plan("out-of-turn", rule, f"{who}'s chips go back; {who} acts freely",
                [lambda h: h.resolve_held(player, "return")])  # fmt: skip
    if action == "check":
        checked = floor.rule("out-of-turn-check")
        if bet_more:
            cannot = f"a bet came: {who}'s check cannot stand; {who} may call or fold, not raise"
            return Plan("out-of-turn", checked, cannot, free.steps)
        return Plan("out-of-turn", checked, f"{who}'s check stands", stands)
    if rule.do == "qld-s37":
        if not any(isinstance(e, ev.Bet) and e.to > total for e in intervening):
            clause = {"fold": "qld s37(3)(a)"}.get(action, "qld s37(3)")
            if intervening:
                clause = "qld s37(3)(c)"
            return Plan("out-of-turn", _clause(rule, clause), f"{who}'s {action} stands: "
                        f"{_describe(player, *_read(hand, player, action, total, legal))}",
                        stands)  # fmt: skip
        four = _clause(rule, "qld s37(4)")
        fold = Plan("out-of-turn", _clause(rule, "qld s37(5)"), f"{who} folds: the bet goes back",
                    [lambda h: h.resolve_held(player, "return"),
                     lambda h: apply_action(h, player, "fold")])  # fmt: skip
        call = Plan("out-of-turn", four, f"{who} calls; the held chips count toward it",
                    [lambda h: h.resolve_held(player, "return"),
                     lambda h: apply_action(h, player, "call")])  # fmt: skip
        raise_ = Plan("out-of-turn", four, f"{who} calls and raises (any legal raise)", free.steps)
        return Plan("out-of-turn", four, f"a missed player bet more: {who} may fold, call or raise",
                    options={"fold": fold, "call": call, "raise": raise_})  # fmt: skip
    if rule.do == "league-21":
        minimum = Plan("out-of-turn", _clause(rule, "league 22"), f"{who} may only make the "
                       "minimum", [lambda h: h.resolve_held(player, "return"),
                                   lambda h: h.restrict(player, "min-raise-only")])  # fmt: skip
        if not [e for e in intervening if isinstance(e, ev.Bet)]:
            check = Plan("out-of-turn", rule, f"{who} checks; the chips go back",
                         [lambda h: h.resolve_held(player, "return"),
                          lambda h: apply_action(h, player, "check")])  # fmt: skip
            fold = Plan("out-of-turn", rule, f"{who} folds; the chips go back",
                        [lambda h: h.resolve_held(player, "return"),
                         lambda h: apply_action(h, player, "fold")])  # fmt: skip
            bet = Plan(
                "out-of-turn",
                _clause(rule, "league 22"),
                f"{who} bets the minimum; the rest goes back",
                [
                    *minimum.steps,
                    lambda h: apply_action(h, player, "bet", h.legal().raise_range[0]),  # type: ignore[index]
                ],
            )
            return Plan("out-of-turn", rule, f"nobody bet or raised: {who} need not follow the "
                        "bet: check, fold, or bet only the minimum",
                        options={"check": check, "fold": fold, "bet-minimum": bet})  # fmt: skip
        forfeit = Plan(
            "out-of-turn",
            rule,
            f"{who} withdraws after a bet: the held chips are forfeited to the pot",
            [
                lambda h: h.resolve_held(player, "forfeit"),
                lambda h: apply_action(h, player, "fold"),
            ],
        )
        call = Plan("out-of-turn", rule, f"{who} calls; the held chips count toward it",
                    [lambda h: h.resolve_held(player, "return"),
                     lambda h: apply_action(h, player, "call")])  # fmt: skip
        return Plan("out-of-turn", rule, f"a missed player bet or raised: {who} folds (forfeiting "
                    "the chips), calls, or makes only the minimum raise",
                    options={"fold": forfeit, "call": call, "raise-minimum": minimum})  # fmt: skip
    # cardroom betting 11 (and the books it fills): binding unless someone bet, called or raised
    if intervening:
        return Plan(
            "out-of-turn",
            rule,
            f"a missed player {'bet' if bet_more else 'called'}: "
            f"not binding; {who}'s chips go back and {who} acts freely",
            free.steps,
        )
    binding = Plan("out-of-turn", rule, f"binding: {who}'s {action} stands", stands)
    return Plan(
        "out-of-turn",
        rule,
        f"nobody bet, called or raised after it: the floor may rule {who}'s {action} binding",
        options={"binding": binding, "release": free},
    )


def _read(hand: Hand, player: int, action: str, total: int, legal: Legal) -> tuple[str, int]:
    """The held action as it stands now; a bet that is no longer a legal amount is read as the
    chips pushed in one motion against the bet now faced (qld s37(3)(c) with cardroom 14)."""
    if action in ("fold", "check"):
        return action, hand.bets[player]
    if action == "call" or (not legal.can_check and legal.raise_range is None):
        return "call", hand.bets[player] + legal.call
    low, high = legal.raise_range if legal.raise_range else (total, total)
    if low <= total <= high:
        return ("raise" if legal.facing else "bet"), total
    return chip_action(legal, (total - hand.bets[player], 0), hand.bets[player])


def _stands(hand: Hand, player: int, action: str, total: int, legal: Legal) -> list[Step]:
    """Steps that make the held action the player's action now: as held, or as it reads now
    (:func:`_read`), the held chips counting toward it."""
    kind, to = _read(hand, player, action, total, legal)
    wagers = ("bet", "raise")
    if (kind in wagers and action in wagers and to == total) or (kind == action not in wagers):
        return [lambda h: h.resolve_held(player, "apply")]
    return [lambda h: h.resolve_held(player, "return"), lambda h: apply_action(h, player, kind, to)]


def _lost_turn(hand: Hand, player: int) -> Rule | None:
    """The rule under which a skipped player lost the right to act, when the held actions behind
    them now stand in order (I31 'lose')."""
    held = _held_at(hand, player)
    for event in hand.events[held:]:
        if not isinstance(event, ev.RulingMade) or event.situation != "right-to-act":
            continue
        if event.choice == "lose":
            return Rule("skipped-turn", "", "lose", event.clause, event.basis)
    return None


# --- I31. Losing the right to act -------------------------------------------------------------


def _skipped_plan(floor: Floor, hand: Hand, player: int) -> Plan:
    rule = floor.rule("skipped-turn")
    behind = len(hand.held_actions)
    who = f"p{player + 1}"
    if rule.do == "never":
        raise refuse(rule, f"the dealer must give {who} the chance to act")
    if hand.to_act != player:
        raise refuse(rule, f"{who} is not the player passed over: waiting for a player in front "
                     "never costs the right to act")  # fmt: skip
    needed = 3 if rule.do == "three-behind" else 2
    if behind < needed:
        raise refuse(rule, f"{behind} player(s) acted behind {who}: it takes {needed} to lose the "
                     "right to act")  # fmt: skip
    legal = hand.legal()
    action = "check" if legal.can_check else "fold"
    lose = Plan("right-to-act", rule, f"{who} loses the right to act: the turn counts as a "
                f"{action}; the actions behind stand in order",
                [lambda h: apply_action(h, player, action)])  # fmt: skip
    keep = Plan("right-to-act", rule, f"{who} keeps the right to act and acts now")
    return Plan("right-to-act", rule, f"{behind} players acted behind {who} without a call of "
                "'time': the floor may rule the right to act lost",
                options={"keep": keep, "lose": lose})  # fmt: skip


@handles(r.SkippedTurn)
def skipped_turn(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.SkippedTurn)
    return _skipped_plan(floor, hand, int(report.player))


def follow_up(floor: Floor, hand: Hand) -> list[Ruling]:
    """After an action: rule on a held action the turn has reached (I30), or on a player passed
    over by enough actions behind (I31), until a choice is awaited or nothing is due."""
    made: list[Ruling] = []
    asked: set[int] = set()
    while hand.pending is None and hand.phase is Phase.BETTING and hand.to_act is not None:
        player = hand.to_act
        if player in hand.held_actions:
            plan = follow_plan(floor, hand, f"held p{player + 1}")
            made.append(floor.commit(hand, plan, f"!held p{player + 1}"))
            continue
        if hand.held_actions and player not in asked and not _asked_already(hand, player):
            asked.add(player)
            try:
                plan = _skipped_plan(floor, hand, player)
            except IrregularityError:
                break
            made.append(floor.commit(hand, plan, f"skipped-turn p{player + 1}"))
            continue
        break
    return made


def _asked_already(hand: Hand, player: int) -> bool:
    """Whether the floor was asked about this player's skipped turn in this round already."""
    report = f"skipped-turn p{player + 1}"
    for event in reversed(hand.events):
        if isinstance(event, ev.StreetStart):
            return False
        if isinstance(event, ev.RulingMade) and event.report == report:
            return True
    return False
