"""Rulings on the deal: misdeals (I1-I2), dealing-order errors (I3), wrong card counts (I4-I6).

A report describes how the table differs from the deal the engine recorded; the ruling brings
the hand to what the book says. Where the engine deals from its own stub, that record is the
correct deal from the same stub (docs/irregularities-spec.md's worked examples use stub A).
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.cards import Card
from croupier.hand import Hand, Phase
from croupier.irregularities import reports as r
from croupier.irregularities.floor import Floor, handles, initial_deal_done, next_card
from croupier.irregularities.model import Plan, Rule, Step, call, give_next_card, refuse

__all__ = ["confirmed", "deal_sequence", "misdeal_plan", "play_on", "redeal_from"]


def play_on(situation: str, rule: Rule, outcome: str = "play continues") -> Plan:
    """A ruling that changes nothing: the book lets the hand go on."""
    return Plan(situation, rule, outcome)


def misdeal_plan(floor: Floor, situation: str, rule: Rule, why: str = "") -> Plan:
    """The hand is void: every chip each player put in goes back; a new shuffle and cut, and
    the same button deals again (au 19.1; qld s32(3); rws 5.1; league 11)."""
    void = floor.rule("void")
    if void.do == "void":
        outcome = "the game is void: every chip goes back; the same button deals again"
    else:
        outcome = (
            "misdeal: every chip goes back; a new shuffle and cut, the same button, the same blinds"
        )
    if why:
        outcome = f"{why}: {outcome}"
    plan = Plan(situation, rule, outcome, [lambda hand: hand.void_hand()])
    return confirmed(floor, plan)


def confirmed(floor: Floor, plan: Plan) -> Plan:
    """Under a book where only a supervisor determines a misdeal (au 19.1), the plan waits for
    the supervisor to confirm or reject it."""
    if floor.rule("misdeal").do != "supervisor":
        return plan
    reject = Plan(plan.situation, plan.rule, "the supervisor finds no misdeal: play continues")
    return Plan(
        plan.situation, plan.rule, f"{plan.outcome} (a supervisor decides: au 19.1)",
        options={"confirm": plan, "reject": reject},
        texts={"confirm": plan.outcome, "reject": reject.outcome}, confirm_by="supervisor",
    )  # fmt: skip


def deal_sequence(hand: Hand) -> list[tuple[int, Card]] | None:
    """The initial deal as it came off the stub, one card at a time clockwise from the first
    seat left of the button (rws 3.6, au 12.1(c)): ``(player, card)``; None where a card is
    unseen."""
    street = hand.rules.game.streets[0]
    order: list[tuple[int, Card]] = []
    for cards, count in ((hand.hole, street.hole), (hand.up, street.up)):
        for k in range(count):
            for player in range(hand.players):
                if hand.hidden[player] or len(cards[player]) <= k:
                    return None
                order.append((player, cards[player][k]))
    return order


def redeal_from(hand: Hand, start: int, recipients: Sequence[int]) -> list[Step]:
    """Steps that deal the cards from position ``start`` of the initial deal on (then the
    stub's) to ``recipients`` in turn: the cards dealt so far from there go back on the stub
    first. Only where the deal's cards are known."""
    order = deal_sequence(hand)
    assert order is not None
    held = [card for _, card in order[start:]]
    stub = list(hand.deck.cards)
    cards = [*held, *stub][: len(recipients)]
    up_from = hand.rules.game.streets[0].hole * hand.players
    steps: list[Step] = []
    if held:
        steps.append(call("restack", tuple(held)))
    for k, (player, card) in enumerate(zip(recipients, cards, strict=True)):
        up = start + k >= up_from and start + k < len(order)
        steps.append(call("give_card", player, card, up))
    return steps


def _dealt_at(hand: Hand, card: Card | None) -> int:
    order = deal_sequence(hand)
    if order is None or card is None:
        return -1
    for k, (_, dealt) in enumerate(order):
        if dealt == card:
            return k
    return -1


# --- I1. A bare misdeal ----------------------------------------------------------------------


@handles(r.Misdeal)
def misdeal(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Misdeal)
    if report.cause:
        return floor.plan(hand, report.cause)  # the cause's own ruling (I2-I13)
    rule = floor.rule("misdeal")
    if rule.do == "causes-only":
        raise refuse(
            rule, "a game is void only for its causes: a foreign card (5.1.1), a short or long "
            "deck (5.1.2), two cards exposed in the deal (5.1.3), a wrong count seen (5.1.4), "
            "a hand left out or extra (5.1.5); report the cause",
        )  # fmt: skip
    floor.check_cut_off(hand)
    return misdeal_plan(floor, "misdeal", rule)


# --- I2. The cut and the shuffle ------------------------------------------------------------


@handles(r.CutExposed, r.NoCut, r.NoShuffle)
def cut_and_shuffle(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    rule = floor.rule(report.verb)
    dealt = any(hand.hole) or any(hand.hidden) or any(hand.up) or hand.street > 0
    if isinstance(report, r.CutExposed) and not dealt:
        return Plan(
            "cut-exposed",
            rule,
            "no card was dealt: a new shuffle and cut; the blinds stand",
            [lambda h: h.reshuffle()],
        )
    if not floor.before_cut_off(hand, rule):
        return play_on(report.verb, rule, "too late for a misdeal: the hand is played out")
    return misdeal_plan(floor, report.verb, rule)


# --- I3. Dealing-order errors ----------------------------------------------------------------


def _order_error(
    floor: Floor, hand: Hand, question: str, looked: bool, unfixable: bool,
    reconstruct: list[Step], outcome: str, after: Plan | None = None,
) -> Plan:  # fmt: skip
    rule = floor.rule(question)
    if not floor.before_cut_off(hand, rule):
        late = floor.rule("dealt-order-after-cut-off")
        if late.do == "void":
            return misdeal_plan(floor, question, late)
        return after if after is not None else play_on(question, late, "the deal is played")
    if rule.do == "misdeal":
        return misdeal_plan(floor, question, rule)
    if rule.do == "reconstruct-else-misdeal" and unfixable:
        return misdeal_plan(floor, question, rule, "it cannot be reconstructed")
    if rule.do == "reconstruct-unless-looked" and (looked or unfixable):
        why = "a player looked at a card not theirs" if looked else "it cannot be reconstructed"
        return misdeal_plan(floor, question, rule, why)
    if rule.do == "void-if-looked":
        # rws 5.1.5(b), read as 5.1.4 is: a player who has acted on the hand has looked at it.
        acted = list(_actors(hand).values())
        if looked or acted or unfixable:
            why = (
                "a player has seen their hole cards" if looked
                else f"{acted[0]}: a player who has acted has looked at his hole cards" if acted
                else "it cannot be put right"
            )  # fmt: skip
            return misdeal_plan(floor, question, rule, why)
    return Plan(question, rule, outcome, reconstruct)


@handles(r.FirstTo)
def first_to(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """The first card went to the wrong seat: reconstructed, each player gets the cards a
    correct deal from the same stub gives."""
    assert isinstance(report, r.FirstTo)
    steps: list[Step] = []
    order = deal_sequence(hand)
    if order is not None and initial_deal_done(hand):
        n = hand.players
        # As dealt, the k-th card went to (first + k) mod n: the same cards, in that order.
        physical = sorted(order, key=lambda pc: _slot(pc, order, n, report.player))
        cards = [card for _, card in physical]
        steps.append(call("restack", tuple(cards)))
        up_from = hand.rules.game.streets[0].hole * n
        for k, card in enumerate(cards):
            steps.append(call("give_card", k % n, card, k >= up_from))
    return _order_error(
        floor, hand, "first-to", report.looked, report.unfixable, steps,
        "reconstructed: each player gets the cards a correct deal gives",
    )  # fmt: skip


def _slot(pc: tuple[int, Card], order: list[tuple[int, Card]], n: int, first: int) -> int:
    """Where a card came off the stub when the deal began at ``first``."""
    player = pc[0]
    k = order.index(pc)
    return (k // n) * n + (player - first) % n


@handles(r.OutOfOrder)
def out_of_order(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.OutOfOrder)
    return _order_error(
        floor, hand, "out-of-order", report.looked, report.unfixable, [],
        "reconstructed: each player gets the cards the correct sequence gives",
    )  # fmt: skip


@handles(r.ButtonWrong)
def button_wrong(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    rule = floor.rule("button-wrong")
    if not floor.before_cut_off(hand, rule):
        return play_on("button-wrong", rule, "too late for a misdeal: the deal is played")
    return misdeal_plan(floor, "button-wrong", rule)


@handles(r.Skipped)
def skipped(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Skipped)
    player = report.player
    rule = floor.rule("skipped")
    refund = [lambda h: h.kill_hand(player, refund=True)]
    late = Plan(
        "skipped", floor.rule("dealt-order-after-cut-off"),
        f"the deal is played: p{player + 1} has no hand, and any forced bet comes back",
        refund,
    )  # fmt: skip
    if report.absent and rule.do == "misdeal":
        return Plan(
            "skipped", rule,
            f"p{player + 1} is not entitled (absent, no blind or ante): the hand goes on",
            refund,
        )  # fmt: skip
    fix = _short_to_count(hand, player)
    return _order_error(
        floor, hand, "skipped", report.looked, report.unfixable, fix,
        f"reconstructed: p{player + 1} gets the cards in sequence", late,
    )  # fmt: skip


def _short_to_count(hand: Hand, player: int) -> list[Step]:
    """Deal ``player`` from the stub up to the initial deal's count."""
    street = hand.rules.game.streets[0]
    held = len(hand.hole[player]) + hand.hidden[player] + len(hand.up[player])
    return [give_next_card(player) for _ in range(max(0, street.hole + street.up - held))]


@handles(r.ExtraHand)
def extra_hand(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """Cards dealt to an empty seat: the seat's cards go to the discards (qld s32(6)) and the
    players keep theirs."""
    assert isinstance(report, r.ExtraHand)
    cards = report.cards or (None,) * (hand.rules.game.streets[0].hole)
    steps = [call("discard", card) for card in cards]
    late = Plan(
        "extra-hand", floor.rule("dealt-order-after-cut-off"),
        f"the deal is played: seat {report.seat}'s cards are mucked", steps,
    )  # fmt: skip
    return _order_error(
        floor, hand, "extra-hand", report.looked, report.unfixable, steps,
        f"seat {report.seat}'s cards go to the discards; the players keep theirs", late,
    )  # fmt: skip


@handles(r.NotEntitled)
def not_entitled(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.NotEntitled)
    player = report.player
    kill = [lambda h: h.kill_hand(player)]
    late = Plan(
        "extra-hand", floor.rule("dealt-order-after-cut-off"),
        f"the deal is played: p{player + 1}'s hand is mucked", kill,
    )  # fmt: skip
    return _order_error(
        floor, hand, "extra-hand", False, False, kill,
        f"p{player + 1} was not entitled to a hand: it is mucked", late,
    )  # fmt: skip


# --- I4-I6. The wrong number of hole cards ---------------------------------------------------


def _expected(hand: Hand, player: int) -> int:
    """How many cards ``player`` should hold now."""
    streets = hand.rules.game.streets[: hand.street + 1]
    count = 0
    for street in streets:
        count += street.hole + street.up
    return count


@handles(r.Count, r.ExtraCard)
def wrong_count(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    if isinstance(report, r.ExtraCard):
        player, holds, looked, unfixable = report.player, _expected(hand, report.player) + 1, \
            report.looked, False  # fmt: skip
        extra: Card | None = report.card
    else:
        assert isinstance(report, r.Count)
        player, holds, looked, unfixable = report.player, report.cards, report.looked, \
            report.unfixable  # fmt: skip
        extra = next_card(hand)
    expected = _expected(hand, player)
    if holds == expected:
        raise refuse(floor.rule("wrong-count"), f"p{player + 1} holds the right number ({holds})")
    acted = player in _actors(hand)
    showdown = hand.phase is Phase.SHOWDOWN
    if showdown:
        return _dead_at_showdown(floor, hand, player)
    if not acted and floor.before_cut_off(hand):
        return _before_action(floor, hand, player, holds, expected, looked, unfixable, extra)
    return _dead_hand(floor, hand, player, acted, report)


def _actors(hand: Hand) -> dict[int, str]:
    from croupier.irregularities.floor import voluntary_actors

    return voluntary_actors(hand)


def _before_action(
    floor: Floor, hand: Hand, player: int, holds: int, expected: int, looked: bool,
    unfixable: bool, extra: Card | None,
) -> Plan:  # fmt: skip
    rule = floor.rule("wrong-count")
    who = f"p{player + 1}"
    short = holds < expected
    fixed = (
        f"reconstructed: {who} gets the next card in sequence"
        if short
        else f"reconstructed: the extra card {extra or ''} becomes the next burn".replace("  ", " ")
    )
    fix: list[Step] = [] if short else [lambda h: h.set_aside(extra, "burn")]
    if rule.do == "void-if-seen":
        if looked or any(hand.hole) or any(hand.hidden):  # 5.1.4: any card seen by any player
            return misdeal_plan(floor, "wrong-count", rule, "a card has been seen")
        rule = floor.rule("wrong-count")  # nobody saw a card: the cardroom's rules fill
    if rule.do in ("reconstruct-else-misdeal", "reconstruct-unless-looked"):
        if unfixable or (looked and rule.do == "reconstruct-unless-looked"):
            return misdeal_plan(floor, "wrong-count", rule, "it cannot be reconstructed")
        return Plan("wrong-count", rule, fixed, fix)
    # The cardroom: too few is a misdeal unless the top card goes to the player in sequence
    # (misdeals 2(e)); one too many becomes the burn (irregularities 11); more, misdeal (2(d)).
    if short:
        if expected - holds == 1 and not unfixable:
            return Plan("wrong-count", rule, f"{who} is dealt the top card, in sequence", [])
        return misdeal_plan(floor, "wrong-count", rule)
    earlier = _extra_cards_burned(hand)
    if holds - expected == 1 and hand.street == 0 and not looked and not earlier:
        eleven = Rule(
            "wrong-count", rule.book, "burn", "cardroom irregularities 11", rule.basis,
            rule.filled_from,
        )  # fmt: skip
        return Plan("wrong-count", eleven, fixed, fix)
    two = Rule("wrong-count", rule.book, "misdeal", "cardroom misdeals 2(d)", rule.basis,
               rule.filled_from)  # fmt: skip
    # 2(d) counts the extra cards dealt into the starting hands, not those of one player: one
    # already made the burn (irregularities 11) and this one is the second.
    why = f"{earlier + holds - expected} extra cards in the starting hands" if earlier else ""
    return misdeal_plan(floor, "wrong-count", two, why)


def _extra_cards_burned(hand: Hand) -> int:
    """How many extra cards of the starting hands this hand has already made the burn
    (cardroom irregularities 11, one ruling each)."""
    from croupier import events as ev

    return sum(
        isinstance(event, ev.RulingMade) and event.clause == "cardroom irregularities 11"
        and not event.choices
        for event in hand.events
    )  # fmt: skip


def _dead_hand(floor: Floor, hand: Hand, player: int, acted: bool, report: r.Report) -> Plan:
    """I5: found after the cut-off, or after the player acted."""
    rule = floor.rule("wrong-count-after")
    who = f"p{player + 1}"
    game = hand.rules.game
    if rule.do == "void":
        return misdeal_plan(floor, "wrong-count", rule, "a wrong count with cards seen")
    if rule.do == "dead-keep":
        holds = report.cards if isinstance(report, r.Count) else -1
        last = len(game.streets) - 1
        stud = any(street.up for street in game.streets)
        draw = any(street.draw for street in game.streets)
        if stud and hand.street == last and holds == _expected(hand, player) - 1:
            live = Plan("wrong-count", rule, f"{who}'s hand, missing its final card, is live")
            dead = Plan(
                "wrong-count", rule, f"{who}'s hand is dead; its chips stay in the pot",
                [lambda h: h.kill_hand(player)],
            )  # fmt: skip
            return Plan(
                "wrong-count", rule, "stud: a hand missing only its final card may be ruled live",
                options={"live": live, "dead": dead},
            )  # fmt: skip
        if draw and hand.street == 0 and 0 <= holds < _expected(hand, player):
            return Plan("wrong-count", rule, f"{who} is short before the draw: live, and draws up")
        return Plan(
            "wrong-count", rule, f"{who}'s hand is dead; its chips stay in the pot",
            [lambda h: h.kill_hand(player)],
        )  # fmt: skip
    # au 19.1(f): (i) the player acted: dead, chips back unless the floor finds collusion;
    # (ii) the player did not act, others did: the hand is voided and the chips come back.
    refund = Plan(
        "wrong-count", rule, f"{who}'s hand is dead; every chip {who} put in comes back",
        [lambda h: h.kill_hand(player, refund=True)],
    )  # fmt: skip
    if not acted:
        two = Rule("wrong-count-after", rule.book, rule.do, "au 19.1(f)(ii)", rule.basis)
        return Plan("wrong-count", two, f"{who}'s hand is voided; {who}'s chips come back",
                    refund.steps)  # fmt: skip
    keep = Plan(
        "wrong-count", rule, f"collusion: {who}'s hand is dead and its chips stay",
        [lambda h: h.kill_hand(player)],
    )  # fmt: skip
    return Plan(
        "wrong-count", rule, f"{who}'s hand is dead; the floor looks for collusion",
        options={"refund": refund, "collusion": keep},
    )  # fmt: skip


def _dead_at_showdown(floor: Floor, hand: Hand, player: int) -> Plan:
    """I6: a hand found dead at the showdown (the pots not yet pushed)."""
    rule = floor.rule("dead-at-showdown")
    who = f"p{player + 1}"
    standing = [p for p in hand.in_hand() if p != player and not hand.mucked[p]]
    kill: list[Step] = [lambda h: h.kill_hand(player)]
    if standing:
        if rule.do == "last-folder" and _uncontested(hand, player, standing):
            last = _last_folder(hand, player)
            kill.append(lambda h: h.award_pots(last, uncontested=True))
            five = Rule(rule.question, rule.book, rule.do, "qld s33(5)", rule.basis)
            return Plan(
                "dead-at-showdown", five, f"{who}'s hand is dead: the all-in hands contest the "
                f"pots they are in; p{last + 1}, who folded last, wins the rest", kill,
            )  # fmt: skip
        return Plan(
            "dead-at-showdown", rule, f"{who}'s hand is dead; the hands left play for the pot",
            kill,
        )  # fmt: skip
    if rule.do == "void":
        return misdeal_plan(floor, "dead-at-showdown", rule, f"{who}'s hand is dead")
    if rule.do == "refund-all":
        return Plan(
            "dead-at-showdown", rule, f"{who}'s hand is dead and no live hand is left: every "
            "wager goes back to the player who made it", [lambda h: h.void_hand()],
        )  # fmt: skip
    last = _last_folder(hand, player)
    award = _award_last(hand, player, last)
    if rule.do == "last-folder":
        return Plan(
            "dead-at-showdown", rule, f"{who}'s hand is dead: p{last + 1}, who folded last, "
            "wins what no live hand contests", award,
        )  # fmt: skip
    refund = Plan("dead-at-showdown", rule, "every wager goes back to its player",
                  [lambda h: h.void_hand()])  # fmt: skip
    awarded = Plan("dead-at-showdown", rule, f"p{last + 1}'s hand is retrieved and wins", award)
    return Plan(
        "dead-at-showdown", rule, f"{who}'s hand is dead and no live hand is left: the floor "
        "refunds every wager, or awards the pot to the last live hand", options={
            "refund": refund, f"award-p{last + 1}": awarded,
        },
    )  # fmt: skip


def _uncontested(hand: Hand, dead: int, standing: list[int]) -> bool:
    top = max(hand.contributed[p] for p in standing)
    return any(hand.contributed[p] > top for p in range(hand.players))


def _last_folder(hand: Hand, dead: int) -> int:
    """The player who last gave up the hand (a fold or a muck), other than a dead hand's
    (qld s33(4))."""
    from croupier import events as ev

    for event in reversed(hand.events):
        if not isinstance(event, ev.Fold | ev.Muck):
            continue
        if event.player != dead and event.player not in hand.killed:
            return event.player
    raise refuse(Rule("", "", "", "qld s33(4)"), "nobody folded: no player to award the pot")


def _award_last(hand: Hand, dead: int, last: int) -> list[Step]:
    """The pot goes to the last folder, save what an eligible all-in player still contests
    (qld s33(5)): that player is revived with the others out, and the pot settles."""
    steps: list[Step] = [lambda h: h.kill_hand(dead)]
    if hand.mucked[last]:
        steps.append(lambda h: h.revive(last))
        return steps
    steps.append(lambda h: h.award_pots(last))
    return steps
