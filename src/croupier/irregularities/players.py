"""Rulings on what players do with their cards: cards a player exposes or drops (I20), mucked
hands retrieved or fouled (I22), a request to see a hand at the showdown (I23), cards or chips
pushed forward (I24), and cards shown to one player (I32: show one, show all)."""

from __future__ import annotations

from croupier.betting import Structure
from croupier.cards import Card
from croupier.hand import Hand, Phase, StepKind
from croupier.irregularities import reports as r
from croupier.irregularities.floor import Floor, handles, kind_of_game
from croupier.irregularities.model import Plan, Rule, Step, call, refuse

__all__: list[str] = []


def _clause(rule: Rule, clause: str) -> Rule:
    return Rule(rule.question, rule.book, rule.do, clause, rule.basis, rule.filled_from)


@handles(r.Shows, r.Dropped)
def player_exposed(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """I20: a card a player exposes or drops plays (au 19.5; cardroom irregularities 12, 14);
    cards turned up going all-in before the betting is over stay up (league 26)."""
    assert isinstance(report, r.Shows)
    rule = floor.rule("player-exposed")
    player = int(report.player)
    if hand.over:
        raise refuse(rule, "the hand is over")
    all_in = hand.stacks[player] == 0 and hand.phase is not Phase.SHOWDOWN
    stay = rule.do == "plays-stay-up" and all_in
    if rule.do == "plays-stay-up" and not stay:
        rule = Rule(rule.question, rule.book, "plays", "cardroom irregularities 14"
                    if isinstance(report, r.Dropped) else "cardroom irregularities 12", "fill",
                    "cardroom irregularities 12")  # fmt: skip
    elif rule.book == "cardroom" and not isinstance(report, r.Dropped):
        rule = _clause(rule, "cardroom irregularities 12")
    steps = [
        call("expose", card, by="player", player=player, stay_up=stay) for card in report.cards
    ]
    tail = "; they stay face up for the rest of the hand" if stay else ""
    return Plan("player-exposed-card", rule, f"the card plays{tail}", steps)


@handles(r.Retrieve)
def retrieve(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """I22: a mucked hand retrieved at the floor's discretion (cardroom dead-hands 2)."""
    assert isinstance(report, r.Retrieve)
    rule = floor.rule("retrieve")
    player = int(report.player)
    if rule.do == "refused":
        why = {
            "qld": "cards in the discards are a fold",
            "league": "cards across the line are mucked; a folded hand is not picked up again",
        }.get(rule.book, "refused")
        raise refuse(rule, why)
    if hand.over:
        raise refuse(rule, "the hand is over")
    if player in hand.in_hand() and not hand.mucked[player]:
        raise refuse(rule, f"p{player + 1}'s hand is live")
    misled = " (folded on false information: an extra effort to allow it)" if report.misled else ""
    back = Plan("retrieve", rule, f"p{player + 1}'s hand is retrieved and live, facing the bet",
                [lambda h: h.revive(player)])  # fmt: skip
    dead = Plan("retrieve", rule, f"p{player + 1}'s hand stays dead")
    return Plan(
        "retrieve", rule, f"a clearly identifiable hand may be retrieved{misled}",
        options={"retrieve": back, "dead": dead},
    )  # fmt: skip


@handles(r.Into)
def into(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """I22: cards thrown into another hand are dead (cardroom dead-hands 3); the receiving hand
    is dead only if its own cards cannot be told apart (decision)."""
    assert isinstance(report, r.Into)
    rule = floor.rule("into")
    player, other = int(report.player), int(report.other)
    steps: list[Step] = [lambda h: h.kill_hand(player)]
    outcome = f"p{player + 1}'s cards are dead"
    if report.mixed:
        steps.append(lambda h: h.kill_hand(other))
        outcome += f"; p{other + 1}'s own cards cannot be told apart: dead too"
    else:
        outcome += f"; p{other + 1}'s hand stays live"
    return Plan("into-another-hand", rule, outcome, steps)


def _pot_winner(hand: Hand) -> int:
    """Who would take the main pot now, among the hands still standing."""
    standing = [p for p in hand.in_hand() if not hand.mucked[p]]
    if len(standing) == 1:
        return standing[0]
    return max(standing, key=lambda p: hand.valuation.value(p, hand.dealt.cards_of(p),
                                                             hand.board))  # fmt: skip


@handles(r.See)
def see(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """I23: a hand asked to be seen at the showdown: dead and shown, unless the pot winner asked
    (au 19.4; cardroom showdown 5)."""
    assert isinstance(report, r.See)
    rule = floor.rule("see")
    player, by = int(report.player), int(report.by)
    if report.by_word != "by":
        raise r.ReportError(f"write it as: {report.usage}")
    if rule.do == "refused":
        raise refuse(rule, "a player must not look at the cards of a player who has folded")
    push = hand.next_step()
    if hand.over or push is None or push.kind is not StepKind.PUSH:
        raise refuse(rule, "only at the showdown, before the pot is pushed")
    if not hand.mucked[player]:
        raise refuse(rule, f"p{player + 1}'s hand was not mucked")
    if hand.hidden[player]:
        raise refuse(rule, f"p{player + 1}'s cards were not seen: name them as the dealer shows")
    winner = _pot_winner(hand)
    show = [call("expose", c) for c in (*hand.hole[player], *hand.up[player])]
    if by == winner:
        live = "both hands stay live, and the better one wins" if rule.do == "showdown-5" else \
            "the hand is shown live and can still win"  # fmt: skip
        return Plan("request-to-see", rule, f"the pot winner asked: {live}",
                    [*show, lambda h: h.revive(player)])  # fmt: skip
    return Plan(
        "request-to-see", rule, f"p{player + 1}'s hand is shown dead: it cannot win",
        [*show, lambda h: h.kill_hand(player)],
    )  # fmt: skip


@handles(r.Throw)
def throw(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Throw)
    rule = floor.rule("throw")
    player = int(report.player)
    if not report.induced:
        return Plan("forward-motion", rule, "no player acted on it: the hand stays live")
    return Plan(
        "forward-motion", rule, f"p{player + 1} threw the hand forward and a player behind acted: "
        "the hand is dead; its chips stay", [lambda h: h.kill_hand(player)],
    )  # fmt: skip


@handles(r.Upcards)
def upcards(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Upcards)
    rule = floor.rule("upcards")
    player = int(report.player)
    if kind_of_game(hand) != "stud":
        raise refuse(rule, "only stud has up cards")
    round_ = hand.round
    facing = round_ is not None and round_.current > hand.bets[player]
    if not facing:
        return Plan("forward-motion", rule, "not facing a bet: the hand stays live")
    return Plan(
        "forward-motion", rule, f"p{player + 1} mishandled the up cards facing a bet: the hand is "
        "dead", [lambda h: h.kill_hand(player)],
    )  # fmt: skip


@handles(r.OverLine)
def over_line(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.OverLine)
    player = int(report.player)
    if report.what == "cards":
        rule = floor.rule("over-line-cards")
        if rule.do == "fold" or report.induced:
            return Plan(
                "forward-motion", rule, f"p{player + 1}'s cards crossed the line: the hand is "
                "dead (a fold)", [lambda h: h.kill_hand(player)],
            )  # fmt: skip
        return Plan("forward-motion", rule, "no player acted on it: the hand stays live")
    if report.what != "chips":
        raise r.ReportError(f"cards or chips: {report.usage}")
    rule = floor.rule("over-line-chips")
    from croupier.irregularities.betting import chips_plan

    if rule.do == "committed":
        return chips_plan(floor, hand, player, report.chips, rule, "forward-motion")
    return _limit_motion(floor, hand, player, sum(report.chips), rule)


@handles(r.Forward)
def forward(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Forward)
    return _limit_motion(floor, hand, int(report.player), report.amount, floor.rule("forward"))


def _limit_motion(floor: Floor, hand: Hand, player: int, amount: int, rule: Rule) -> Plan:
    """cardroom betting 8: in limit, chips moved forward that made another player act may bind
    the action (the floor's call); at pot and no limit it does not bind unless released."""
    from croupier.irregularities.betting import chips_plan

    structure = hand.rules.betting.structure(max(hand.street, 0))
    if structure is not Structure.FIXED:
        decision = Rule(rule.question, rule.book, "none", "cardroom betting 8", "decision")
        return Plan("forward-motion", decision, "not limit play: chips not released do not bind")
    bind = chips_plan(floor, hand, player, (amount,), rule, "forward-motion")
    release = Plan("forward-motion", rule, f"p{player + 1} acts freely")
    return Plan(
        "forward-motion", _clause(rule, "cardroom betting 8"), "the forward motion made another "
        "player act: the floor may bind the action", options={"bind": bind, "release": release},
    )  # fmt: skip


@handles(r.ShowedTo)
def showed_to(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """I32: show one, show all: cards a player showed to one other player go to the whole
    table when the book says (au 18.4; league 5, 6; cardroom showdown 6, which fills)."""
    assert isinstance(report, r.ShowedTo)
    if report.to_word != "to" or not report.cards:
        raise r.ReportError(f"write it as: {report.usage}")
    rule = floor.rule("show-one")
    player, to = int(report.player), int(report.to)
    if player == to:
        raise refuse(rule, "a player shows cards to another player")
    over = hand.over
    shown = " ".join(map(str, report.cards))
    seen = set(hand.dealt.shown)
    one: list[Step] = [call("expose", c, by="player", to=to, player=player)
                       for c in report.cards if (c, to) not in seen]  # fmt: skip
    everyone = [call("expose", c, by="player", player=player) for c in report.cards]

    def on_request(rule: Rule, when: str) -> Plan:
        if report.requested:
            outcome = f"{when}: {shown} shown to every player, as asked"
            return Plan("show-one-show-all", rule, outcome, one + everyone)
        outcome = f"p{to + 1} saw {shown}; {when}, every player may ask to see them"
        return Plan("show-one-show-all", rule, outcome, one)

    if rule.do == "after-hand" and over:
        return on_request(rule, "the hand is over")
    if rule.do == "after-fold":
        if over or player not in hand.in_hand():
            return on_request(rule, "shown after folding")
        if to in hand.in_hand():
            return Plan("show-one-show-all", _clause(rule, "league 5"),
                        f"p{player + 1} showed a live hand to p{to + 1}, who is still in it: a "
                        "penalty may follow (league 35)", one)  # fmt: skip
    if rule.do == "qld-s38" and not over:
        ruled = _qld_s38(rule, hand, player, to, report.cards, one)
        if ruled is not None:
            return ruled
    if rule.do != "showdown-6":
        rule = Rule(rule.question, rule.book, "showdown-6", "cardroom showdown 6", "fill",
                    "cardroom showdown 6")  # fmt: skip
    if over:
        return on_request(rule, "after the deal")
    when = _when_shown_to_all(hand, to)
    if when == "now":
        return Plan("show-one-show-all", rule, f"{shown} shown to every player at once",
                    one + everyone)  # fmt: skip
    return Plan("show-one-show-all", rule,
                f"p{to + 1} saw {shown}; withheld from the others {when} (report it again then)",
                one)  # fmt: skip


def _qld_s38(
    rule: Rule, hand: Hand, player: int, to: int, cards: tuple[Card, ...], one: list[Step]
) -> Plan | None:
    """qld s38(8): what a player learns of the hand of a player who has bet and not been called
    goes to every other player; s38(7): what an active player learns of an inactive player's
    cards (folded or all in) goes to every other active player. Both at once, during the round
    of play. None where neither applies (the book is silent: the cardroom's rule fills)."""
    shown = " ".join(map(str, cards))
    seen = set(hand.dealt.shown)
    if _bet_not_called(hand, player):
        everyone = [call("expose", c, by="player", player=player) for c in cards]
        return Plan(
            "show-one-show-all", _clause(rule, "qld s38(8)"), f"p{player + 1} has bet and not "
            f"been called: what p{to + 1} saw ({shown}) is given to every other player at once",
            one + everyone,
        )  # fmt: skip
    active = [p for p in hand.in_hand() if hand.stacks[p] > 0]
    if to not in active or player in active:
        return None
    others = [p for p in active if p != to]
    steps = one + [
        call("expose", c, by="player", to=p, player=player)
        for p in others for c in cards if (c, p) not in seen
    ]  # fmt: skip
    told = ", ".join(f"p{p + 1}" for p in others) or "nobody else is active"
    return Plan(
        "show-one-show-all", _clause(rule, "qld s38(7)"), f"p{to + 1}, an active player, saw "
        f"inactive p{player + 1}'s {shown}: given at once to every other active player ({told})",
        steps,
    )  # fmt: skip


def _bet_not_called(hand: Hand, player: int) -> bool:
    """Whether ``player`` has made the round's bet (a blind counts, qld s2 'bet') and nobody
    has called it yet."""
    round_ = hand.round
    if hand.phase is not Phase.BETTING or round_ is None or player not in hand.in_hand():
        return False
    top = round_.bets[player]
    return top > 0 and all(
        round_.bets[p] < top for p in range(hand.players) if p != player
    )  # fmt: skip


def _when_shown_to_all(hand: Hand, to: int) -> str:
    """When cards shown to ``to`` alone go to the table during a deal (cardroom showdown 6):
    at once if ``to`` might still bet this round, at its end if only in later rounds, once the
    betting is over if ``to`` cannot use them in wagering."""
    live = hand.in_hand()
    able = [p for p in live if hand.stacks[p] > 0]
    if hand.phase in (Phase.SHOWDOWN, Phase.OVER) or len(able) < 2:
        return "now"  # no wagering is left for the information to sway
    if to not in able:
        return "until the betting is over"
    round_ = hand.round
    if hand.phase is not Phase.BETTING or round_ is None:
        return "now"  # the round in which they were shown is over
    current, reopened = max(round_.bets), round_.reopen_count

    def owes(p: int) -> bool:
        return round_.acted_at[p] != reopened or round_.bets[p] < current

    def may_raise(p: int) -> bool:
        return owes(p) and hand.stacks[p] > current - round_.bets[p]

    if owes(to) or any(may_raise(p) for p in able if p != to):
        return "now"  # ``to`` may yet have to act on this round
    return "until the end of this betting round"
