"""Rulings on cards in the deal: exposed hole cards (I7), stud up cards (I8, I9), draw (I10),
boxed cards (I11), defective decks (I12) and jokers (I13)."""

from __future__ import annotations

from croupier import events as ev
from croupier.cards import Card
from croupier.hand import Hand, Phase
from croupier.irregularities import reports as r
from croupier.irregularities.deal import deal_sequence, misdeal_plan, play_on, redeal_from
from croupier.irregularities.floor import (
    Floor,
    handles,
    initial_deal_done,
    kind_of_game,
    next_card,
    voluntary_actors,
)  # fmt: skip
from croupier.irregularities.model import Plan, Rule, Step, call, give_next_card, refuse

__all__: list[str] = []


def _clause(rule: Rule, clause: str) -> Rule:
    return Rule(rule.question, rule.book, rule.do, clause, rule.basis, rule.filled_from)


def _pairs(report: r.Exposed) -> list[tuple[int, Card]]:
    """The exposed cards of a report: ``p3 Qh`` and any more ``p4 Jc`` pairs."""
    pairs = [(int(report.player), report.card)]
    words = list(report.more)
    if len(words) % 2:
        raise r.ReportError(f"cards come in pairs of a player and a card: {report.usage}")
    for k in range(0, len(words), 2):
        player = r.parse_report(f"retrieve {words[k]}")
        assert isinstance(player, r.Retrieve)
        pairs.append((int(player.player), Card(words[k + 1])))
    return pairs


def _earlier_exposures(hand: Hand) -> int:
    """Hole cards the dealer exposed earlier in this deal (rulings logged before)."""
    return sum(
        1
        for e in hand.events
        if isinstance(e, ev.Exposed) and e.by == "dealer" and e.player >= 0 and hand.street == 0
    )


# --- I7-I10: a card exposed in the deal ------------------------------------------------------


@handles(r.Exposed, r.Flashed, r.OffTable)
def exposed(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Exposed)
    kind = kind_of_game(hand)
    pairs = _pairs(report)
    if isinstance(report, r.Flashed) and report.looked:
        rule = floor.rule("flashed-looked")
        if rule.do == "plays":
            return play_on(
                "exposed-hole-card", rule, "the player looked before asking for a ruling: the "
                "card plays",
            )  # fmt: skip
    if kind == "stud":
        return _stud(floor, hand, pairs, report.unfixable)
    if kind == "draw":
        return _draw(floor, hand, pairs)
    return _flop(floor, hand, pairs, kind == "manila")


def _expose_steps(pairs: list[tuple[int, Card]]) -> list[Step]:
    return [call("expose", c, player=p) for p, c in pairs]


def _flop(floor: Floor, hand: Hand, pairs: list[tuple[int, Card]], manila: bool) -> Plan:
    situation = "exposed-hole-card"
    rule = floor.rule("exposed-hole-card")
    if _earlier_exposures(hand) + len(pairs) >= 2:
        two = floor.rule("exposed-two-cards")
        if manila and two.book == "au-casino":
            two = _clause(two, "au 19.1(o)")
        if not floor.before_cut_off(hand, two) and two.book != "rws":
            return play_on(situation, two, "too late for a misdeal: the hand is played")
        return misdeal_plan(floor, situation, two, "two or more cards exposed in the deal")
    player, card = pairs[0]
    if rule.do == "misdeal":
        if not floor.before_cut_off(hand, rule):
            return play_on(situation, rule, "too late for a misdeal: the card plays")
        return misdeal_plan(floor, situation, rule)
    if not initial_deal_done(hand):
        raise refuse(rule, "finish the deal first: the card is replaced once the deal is done")
    position = _position(hand, player, card)
    if rule.do == "first-two-misdeal-else-swap" and 0 <= position < 2:
        return misdeal_plan(floor, situation, rule, "the first or second card of the hand")
    if rule.do == "league-10":
        return _league_10(hand, rule, player, card, position)
    swap = _clause(rule, "au 19.22") if manila and rule.book == "au-casino" else rule
    if swap.do == "first-two-misdeal-else-swap":
        swap = _clause(swap, "cardroom misdeals 2(f)")
    top = next_card(hand)
    return Plan(
        situation, swap,
        f"p{player + 1} gets the card that was to be the first burn"
        f"{f' ({top})' if top else ''}; {card} becomes that burn",
        [
            lambda h: h.expose(card, player=player),
            lambda h: h.give_card(player, next_card(h)),
            lambda h: h.set_aside(card, "burn"),
        ],
    )  # fmt: skip


def _position(hand: Hand, player: int, card: Card) -> int:
    """Where ``card`` came off the stub in the initial deal (-1: unknown)."""
    order = deal_sequence(hand)
    if order is None:
        return -1
    return next((k for k, pc in enumerate(order) if pc == (player, card)), -1)


def _league_10(hand: Hand, rule: Rule, player: int, card: Card, position: int) -> Plan:
    """league 10: the exposed card is shown and burned; the deal goes on in order, skipping the
    player once, who gets the deal's last card; the button's first card: the next card goes to
    the button at once."""
    steps: list[Step] = [
        lambda h: h.expose(card, player=player),
        lambda h: h.set_aside(card, "burn"),
    ]
    order = deal_sequence(hand)
    n = hand.players
    button = player == n - 1 and 0 <= position < n
    if order is None or position < 0:
        steps.append(lambda h: h.give_card(player, None))  # unseen cards: the count is what shows
    else:
        after = [p for p, _ in order[position + 1 :]]
        recipients = [player, *after] if button else [*after, player]
        steps.extend(redeal_from(hand, position + 1, recipients))
    where = "the next card at once (the button's card)" if button else "the last card of the deal"
    return Plan(
        "exposed-hole-card", rule, f"{card} is shown and burned; p{player + 1} gets {where}",
        steps,
    )  # fmt: skip


def _stud(floor: Floor, hand: Hand, pairs: list[tuple[int, Card]], unfixable: bool) -> Plan:
    """I8: cards dealt face up that should have been down, in stud's first round. The report
    lists, per player, the cards that came up, in order."""
    situation = "stud-card-up"
    rule = floor.rule("stud-card-up")
    seven = len(hand.rules.game.streets) == 5
    if hand.street != 0 or voluntary_actors(hand):
        return play_on(situation, rule, "the opener was named and acted: play continues")
    per: dict[int, list[Card]] = {}
    for player, card in pairs:
        if card not in hand.hole[player] and card not in hand.up[player]:
            raise refuse(rule, f"{card} is not p{player + 1}'s card")
        per.setdefault(player, []).append(card)
    if rule.do == "first-two-misdeal-else-au":
        order = deal_sequence(hand)
        if order is not None and any(pc in order[:2] for pc in pairs):
            return misdeal_plan(floor, situation, rule, "the first or second card of the hand")
        if len(pairs) >= 2:
            two = _clause(rule, "cardroom misdeals 2(b)")
            return misdeal_plan(floor, situation, two, "two or more cards exposed")
    if unfixable:
        clause = "au 19.1(l)" if seven else "au 19.1(j)"
        return misdeal_plan(floor, situation, _clause(rule, clause), "it cannot be corrected")
    if any(len(cards) >= 3 for cards in per.values()):
        return misdeal_plan(floor, situation, _clause(rule, "au 19.1(n)"), "three cards up")
    doubled = [p for p, cards in per.items() if len(cards) >= 2]
    if len(doubled) >= 2:
        clause = "au 19.1(m)" if seven else "au 19.1(k)"
        return misdeal_plan(floor, situation, _clause(rule, clause), "two players with two up")
    if doubled:
        rule = _clause(rule, "au 19.15" if seven else "au 19.8")
    else:
        rule = _clause(rule, "au 19.14" if seven else "au 19.7")
    steps: list[Step] = []
    outcome = []
    for player, listed in per.items():
        first = listed[0]
        held = (*hand.hole[player], *hand.up[player])
        down = [c for c in held if c not in listed]
        # The first card that came up stays up; the others go down (19.7, 19.14).
        steps += [call("expose", c, player=player) for c in listed]
        steps += [call("restack", held), call("give_card", player, first, True)]
        steps += [call("give_card", player, c) for c in down]
        outcome.append(f"p{player + 1}'s {first} stays up, {' '.join(map(str, down))} down")
        if len(listed) == 2:
            # Two up: after the deal the second is swapped for the would-be first burn, dealt
            # down; the swapped card becomes the first burn (19.8, 19.15).
            steps += [call("set_aside", listed[1], "burn"), give_next_card(player)]
            outcome.append(f"{listed[1]} is swapped for the first burn card, dealt down")
    return Plan(situation, rule, "; ".join(outcome), steps)


def _draw(floor: Floor, hand: Hand, pairs: list[tuple[int, Card]]) -> Plan:
    """I10: draw poker, a card exposed in the initial deal or the draw."""
    situation = "draw-exposed"
    rule = floor.rule("draw-exposed")
    drawing = hand.street > 0 or hand.phase is Phase.DRAWING
    if drawing:
        used = _clause(rule, "au 19.1(i)")
        return Plan(
            situation, used, "exposed during the draw: the cards are used in sequence",
            _expose_steps(pairs),
        )  # fmt: skip
    if _earlier_exposures(hand) + len(pairs) >= 2:
        return misdeal_plan(floor, situation, rule, "two or more cards exposed in the deal")
    player, card = pairs[0]
    position = _position(hand, player, card)
    one = Rule(situation, rule.book, "replace", "cardroom misdeals 2(a)", "fill" if
               rule.book == "au-casino" else "own", "cardroom misdeals 2(a)")  # fmt: skip
    if 0 <= position < 2:
        return misdeal_plan(floor, situation, one, "the first or second card of the hand")
    replaced = _clause(one, "cardroom misdeals 2(f)")
    return Plan(
        situation, replaced, f"{card} goes to the muck and p{player + 1} gets the next card",
        [
            lambda h: h.expose(card, player=player),
            lambda h: h.give_card(player, next_card(h)),
            lambda h: h.discard(card),
        ],
    )  # fmt: skip


@handles(r.SeventhUp)
def seventh_up(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """I9 (au 19.20): the first seventh card up: all are dealt up, the previous opener opens;
    a later one: the player may choose to be treated as all-in, before substantial action."""
    assert isinstance(report, r.SeventhUp)
    rule = floor.rule("seventh-up")
    last = len(hand.rules.game.streets) - 1
    if kind_of_game(hand) != "stud" or len(hand.rules.game.streets) != 5 or hand.street != last:
        raise refuse(rule, "only a seventh card of seven card stud, as it is dealt")
    player, card = int(report.player), report.card
    if report.first:
        seats = [p for p in hand.in_hand() if hand.hole[p] and not hand.hidden[p]]
        sevenths = [(p, hand.hole[p][-1]) for p in seats]
        steps: list[Step] = [call("restack", tuple(c for _, c in sevenths))]
        steps += [call("give_card", p, c, True) for p, c in sevenths]
        return Plan(
            "seventh-up", rule, "the first seventh card was up: every seventh card is dealt up, "
            "and the opener of the previous round opens", steps,
        )  # fmt: skip
    expose = Plan("seventh-up", rule, f"{card} is exposed",
                  [lambda h: h.expose(card, player=player)])  # fmt: skip
    all_in = Plan("seventh-up", rule, f"p{player + 1} is treated as all-in",
                  [lambda h: h.treat_as_all_in(player)])  # fmt: skip
    play = Plan("seventh-up", rule, f"p{player + 1} plays on")
    if any(isinstance(e, ev.Exposed) and e.card == card for e in hand.events):
        return Plan(
            "seventh-up", rule, f"p{player + 1} may be treated as all-in; without a choice "
            "before substantial action, p{player + 1} is", options={"all-in": all_in,
                                                                   "play": play},
            blocking=False, player=player,
        )  # fmt: skip
    expose.options = {"all-in": all_in, "play": play}
    expose.blocking = False
    expose.player = player
    expose.outcome = (
        f"{card} is exposed: p{player + 1} may choose to be treated as all-in; without a choice "
        f"before substantial action, p{player + 1} is"
    )
    return expose


@handles(r.DrawOrder)
def draw_order(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    """au 19.6: draw cards dealt out of sequence: the wrong player, who looked, keeps them; the
    next cards go to the player who should have had them; then the sequence resumes."""
    assert isinstance(report, r.DrawOrder)
    rule = floor.rule("draw-order")
    wrong, owner = int(report.player), int(report.owner)
    draws = {e.player: e for e in hand.events if isinstance(e, ev.Draw)}
    if wrong not in draws or owner not in draws:
        raise refuse(rule, "both players' draws must be dealt before the order is put right")
    if report.unlooked:
        return play_on("draw-order", rule, "unlooked: the cards go to the player they were for")
    theirs = [c for c in draws[owner].drawn if c is not None]
    mine = [c for c in draws[wrong].drawn if c is not None][: len(theirs)]
    if len(theirs) != len(draws[owner].drawn) or len(mine) < len(theirs):
        raise refuse(rule, "name the drawn cards to put them right")
    steps: list[Step] = [lambda h: h.restack((*theirs, *mine))]
    steps += [call("give_card", wrong, c) for c in theirs]
    steps += [call("give_card", owner, c) for c in mine]
    return Plan(
        "draw-order", rule, f"p{wrong + 1} keeps {' '.join(map(str, theirs))}; p{owner + 1} "
        f"gets the next cards, {' '.join(map(str, mine))}", steps,
    )  # fmt: skip


# --- I11. A boxed card -------------------------------------------------------------------------


@handles(r.Boxed)
def boxed(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Boxed)
    rule = floor.rule("boxed")
    card = report.card
    earlier = sum(
        1 for e in hand.events if isinstance(e, ev.RulingMade) and e.situation == "boxed-card"
        and not e.choices
    )  # fmt: skip
    zone, owner = hand.dealt.locate(card)
    hole_deal = hand.street == 0 and zone in ("hole", "up", "stub") and not voluntary_actors(hand)
    if rule.do == "muck" and earlier + 1 >= 5:
        defective = _clause(floor.rule("defective-deck"), "au 1.1 defective-deck")
        return misdeal_plan(floor, "boxed-card", defective, "five boxed cards: a defective deck")
    if rule.do == "misdeal-in-hole-deal" and hole_deal and floor.before_cut_off(hand, rule):
        return misdeal_plan(floor, "boxed-card", rule, "a card face up in the deck")
    if rule.do != "muck" and earlier >= 1 and floor.before_cut_off(hand, rule):
        two = Rule(
            "boxed",
            rule.book,
            "misdeal",
            "cardroom misdeals 2(c)",
            "own" if rule.book == "cardroom" else "fill",
            "cardroom misdeals 2(c)",
        )
        return misdeal_plan(floor, "boxed-card", two, "two boxed cards")
    if rule.do == "misdeal-in-hole-deal":
        rule = Rule("boxed", rule.book, "scrap", "cardroom irregularities 7", "fill",
                    "cardroom irregularities 7")  # fmt: skip
    scrap = rule.do == "scrap"
    where = "to the muck" if not scrap else "out of the game, a scrap of paper"
    steps: list[Step] = [lambda h: h.expose(card)]
    if zone == "board":
        steps += [
            lambda h: h.discard(card, scrap),
            lambda h: h.deal_board([next_card(h)], extra=True),
        ]
    elif zone in ("hole", "up"):
        position = _position(hand, owner, card)
        order = deal_sequence(hand)
        if order is None or position < 0:
            steps += [lambda h: h.discard(card, scrap), lambda h: h.give_card(owner, None)]
        else:
            after = [p for p, _ in order[position + 1 :]]
            recipients = [*after, owner] if report.late else [owner, *after]
            steps.append(lambda h: h.discard(card, scrap))
            steps.extend(redeal_from(hand, position + 1, recipients))
    else:
        steps.append(lambda h: h.discard(card, scrap))
    late = " (its place comes after the round's other cards)" if report.late else ""
    return Plan("boxed-card", rule, f"{card} goes {where}; the next card replaces it{late}", steps)


# --- I12-I13. A defective deck; a joker ------------------------------------------------------


def _void_or_stand(floor: Floor, hand: Hand, rule: Rule, why: str) -> Plan:
    if hand.over:
        return play_on("defective-deck", rule, f"{why}: the pot was pushed, the result stands")
    aware = [e for e in hand.events if isinstance(e, ev.RulingMade) and e.situation == "aware"]
    plan = misdeal_plan(floor, "defective-deck", rule, why)
    if not aware or floor.rule("aware").do != "floor":
        return plan
    players = sorted({int(r.parse_report(e.report).player) for e in aware})  # type: ignore[attr-defined]
    keep = Plan(
        "defective-deck", floor.rule("aware"),
        f"void; {', '.join(f'p{p + 1}' for p in players)}'s chips stay in the pot for the next "
        "deal", [lambda h: h.void_hand(players)],
    )  # fmt: skip
    refund = Plan("defective-deck", rule, plan.outcome, plan.steps)
    return Plan(
        "defective-deck", floor.rule("aware"), f"{why}: void; a player knew of the defect",
        options={"refund": refund, "keep": keep},
    )  # fmt: skip


@handles(r.Duplicate, r.OddBack, r.Foreign, r.DeckCount)
def defective_deck(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    rule = floor.rule("defective-deck")
    situation = "defective-deck"
    if rule.do == "void-before-push":
        if hand.over:
            return play_on(situation, rule, "the pot was pushed: the result stands")
        return misdeal_plan(floor, situation, rule, "a defective deck")
    if rule.do == "void":
        clause = "rws 5.1.2" if isinstance(report, r.DeckCount) else "rws 5.1.1"
        if hand.over:
            return play_on(situation, _clause(rule, clause), "earlier games stand")
        return misdeal_plan(floor, situation, _clause(rule, clause), "void; new cards")
    # The cardroom (and the books it fills).
    if isinstance(report, r.Duplicate):
        return _void_or_stand(floor, hand, _clause(rule, "cardroom irregularities 4"),
                              "a duplicate card")  # fmt: skip
    if isinstance(report, r.OddBack | r.Foreign):
        if report.stub:
            return play_on(situation, rule, "found in the stub: all action stands")
        note = "a foreign card" if isinstance(report, r.Foreign) else "a card with another back"
        return _void_or_stand(floor, hand, rule, note)
    assert isinstance(report, r.DeckCount)
    ten = _clause(rule, "cardroom irregularities 10")
    return play_on(situation, ten, "missing or extra cards do not void the hand: the result stands")


@handles(r.Aware)
def aware(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Aware)
    rule = floor.rule("aware")
    who = f"p{report.player + 1}"
    if rule.do == "refund":
        return play_on("aware", rule, f"noted: {rule.clause} returns every chip, {who}'s too")
    return play_on(
        "aware", rule, f"noted: {who} knew of the defect; if the hand is voided the floor may "
        f"keep {who}'s chips for the next deal",
    )  # fmt: skip


@handles(r.Joker)
def joker(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Joker)
    rule = floor.rule("joker")
    if rule.do == "void":
        if hand.over:
            return play_on("joker", rule, "the pot was pushed: the result stands")
        return misdeal_plan(floor, "joker", rule, "a joker in a deck without one")
    if report.stub or report.player is None:
        return play_on("joker", rule, "a scrap of paper: the next card takes its place")
    player = int(report.player)
    who = f"p{player + 1}"
    if report.acted or player in voluntary_actors(hand):
        dead = _clause(rule, "cardroom dead-hands 1(e)")
        return Plan(
            "joker", dead, f"{who} acted holding a joker: the hand is dead and its chips stay",
            [lambda h: h.kill_hand(player)],
        )  # fmt: skip
    if hand.hidden[player]:
        steps: list[Step] = [
            lambda h: h.discard(None, scrap=True, player=player),
            lambda h: h.give_card(player, None),
        ]
    else:
        steps = []
    return Plan("joker", rule, f"the joker is a scrap of paper: {who} gets the next card", steps)
