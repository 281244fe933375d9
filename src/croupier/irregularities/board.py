"""Rulings on the board and the stub: burn errors (I14), extra board cards (I15), premature
streets (I16), exposed stub cards and the cap they put on a round (I17), the stub running out in
stud (I18) and a fouled stub (I21).

As everywhere, a report is read against the deal the engine recorded: where the engine deals from
its stub, its board is the one a correct deal gives, so "as if no error" is that record, and a
ruling that lets an error stand rearranges it into the cards that stand.
"""

from __future__ import annotations

from croupier import events as ev
from croupier.cards import Card
from croupier.hand import Hand, Phase
from croupier.irregularities import reports as r
from croupier.irregularities.deal import play_on
from croupier.irregularities.floor import (
    Floor,
    handles,
    kind_of_game,
    next_card,
    voluntary_actors,
)  # fmt: skip
from croupier.irregularities.model import Plan, Rule, Step, call, refuse

__all__: list[str] = []


def _clause(rule: Rule, clause: str) -> Rule:
    return Rule(rule.question, rule.book, rule.do, clause, rule.basis, rule.filled_from)


def _street_dealt(hand: Hand) -> tuple[int, list[Card], Card | None, int]:
    """The board street last dealt: its index, its cards, its burn, and the log index of its
    cards (IrregularityError where no board street was dealt)."""
    for i in range(len(hand.events) - 1, -1, -1):
        event = hand.events[i]
        if isinstance(event, ev.DealBoard):
            burn = hand.events[i - 1] if i and isinstance(hand.events[i - 1], ev.Burn) else None
            card = burn.card if isinstance(burn, ev.Burn) else None
            street = sum(1 for e in hand.events[: i + 1] if isinstance(e, ev.DealBoard))
            return street, list(event.cards), card, i
    raise refuse(Rule("", "", "", "the board"), "no board street has been dealt")


# --- I14. The burn missed or doubled ---------------------------------------------------------


@handles(r.BurnMissed, r.BurnDouble)
def burn_error(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    missed = isinstance(report, r.BurnMissed)
    street, cards, burn, at = _street_dealt(hand)
    acted = voluntary_actors(hand, at)
    flop = len(cards) == 3 and street == 1
    before = floor.rule("burn-error")
    after = floor.rule("burn-error-after-action")
    situation = "burn-error"
    au = before.do == "au"
    if au and len(acted) < 2:
        if missed and flop:
            return _au_new_flop(hand, _clause(before, "au 19.26"), cards, burn, bool(acted))
        return Plan(situation, before, "reconstructed: the correct burn, and the cards as dealt "
                    "without the error")  # fmt: skip
    if not au and not acted:
        clause = before.clause
        if before.do == "correct" and before.book == "qld":
            clause = "qld s35(1)" if flop else ("qld s35(2)" if missed else clause)
            if not missed:
                before = Rule(before.question, before.book, "correct", "cardroom irregularities 16",
                              "fill", "cardroom irregularities 16")  # fmt: skip
                clause = before.clause
        done = (
            f"corrected: {cards[0] if missed else 'the extra burn'} goes back; the street is "
            f"{' '.join(map(str, cards))} as if there had been no error"
        )
        return Plan(situation, _clause(before, clause), done)
    if burn is None:
        raise refuse(after, "the street's burn is not known: name the cards")
    # The cards as dealt stand; later cards come as if there had been no error (cardroom 16), or
    # for au from the stub as it stands (19.3).
    last = cards[-1]
    if missed:
        steps: list[Step] = [
            lambda h: h.restack((last,)),
            lambda h: h.set_aside(burn, "board"),
            lambda h: h.deal_board([None], extra=True),
        ]
        if after.do == "stand":
            steps.append(lambda h: h.burn(last, extra=True))
        shown = [burn, *cards[:-1]]
    else:
        burned = [e.card for e in hand.events[:at] if isinstance(e, ev.Burn)]
        extra_burn = burned[-2] if len(burned) >= 2 else None
        steps = [
            lambda h: h.restack((last,)),
            lambda h: h.burn(last, extra=True),
            lambda h: h.deal_board([next_card(h)], extra=True),
        ]
        if after.do == "stand" and extra_burn is not None:
            steps.append(lambda h: h.set_aside(extra_burn, "burn"))
        shown = [*cards[:-1], hand.deck.cards[0] if hand.deck.cards else last]
    how = "later cards as if there had been no error" if after.do == "stand" else \
        "later cards come from the stub as it stands"  # fmt: skip
    return Plan(
        situation, after, f"players acted on the cards: {' '.join(map(str, shown))} stand; {how}",
        steps,
    )  # fmt: skip


def _au_new_flop(hand: Hand, rule: Rule, cards: list[Card], burn: Card | None, undo: bool) -> Plan:
    """au 19.26: the flop is taken back, shuffled with the stub and cut; a burn and a new
    flop. One action already taken on it is undone first (decision: its cards are replaced)."""
    steps: list[Step] = [lambda h: h.void_action()] if undo else []
    steps += [lambda h: h.reshuffle([burn, *cards]), *_new_flop()]
    return Plan(
        "burn-error", rule, "the flop goes back into the stub, which is shuffled and cut; a burn "
        "and a new flop", steps,
    )  # fmt: skip


def _new_flop() -> list[Step]:
    """A burn and a new flop from the reshuffled stub. Where the engine does not deal (a live
    dealer), the dealer deals them: the board waits for three cards."""
    return [
        lambda h: h.burn(next_card(h), extra=True) if h.auto_deal else None,
        lambda h: h.deal_board(list(h.deck.cards[:3]), extra=True) if h.auto_deal else None,
    ]


# --- I15. An extra card turned with a street; a burn card exposed -------------------------------


@handles(r.ExtraBoard, r.BurnExposed)
def extra_board(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    extras = list(report.cards) if isinstance(report, r.ExtraBoard) else [report.card]  # type: ignore[attr-defined]
    rule = floor.rule("extra-board")
    street, cards, burn, _ = _street_dealt(hand)
    situation = "extra-board-card"
    last = street == _board_streets(hand)
    manila = kind_of_game(hand) == "manila"
    show: list[Step] = [call("expose", c) for c in extras]
    if last:
        clause = {"au-casino": "au 19.24" if manila else "au 19.30", "qld": "qld s34(3)"}.get(
            rule.book, rule.clause)  # fmt: skip
        return Plan(
            situation, _clause(rule, clause),
            f"no more cards to deal: {' '.join(map(str, extras))} to the muck",
            [*show, *(call("discard", c) for c in extras)],
        )  # fmt: skip
    if rule.do == "au":
        if street == 1 and not manila:
            return Plan(
                situation, _clause(rule, "au 19.27"), "the flop has too many cards: the flop "
                "and its burn go back into the stub, which is shuffled and cut; a burn and a "
                "new flop", [
                    *show, lambda h: h.reshuffle([burn, *cards]), *_new_flop(),
                ],
            )  # fmt: skip
        clause = "au 19.24" if manila else "au 19.30"
        if len(extras) > 1:
            return Plan(
                situation, _clause(rule, clause), "only the correct card stays: the others go "
                "back into the stub, which is shuffled and cut", [*show, lambda h: h.reshuffle()],
            )  # fmt: skip
        return Plan(
            situation, _clause(rule, clause), f"{extras[0]} becomes the next burn",
            [*show, lambda h: h.set_aside(extras[0], "burn")],
        )  # fmt: skip
    if rule.do == "reshuffle":
        return Plan(
            situation, rule, f"{' '.join(map(str, extras))} go back into the stub, which is "
            "reshuffled; the cards dealt correctly stand", [*show, lambda h: h.reshuffle()],
        )  # fmt: skip
    # The next burn (qld s34(2)); further extras were board cards: premature, shuffled back.
    steps = [*show, lambda h: h.set_aside(extras[0], "burn")]
    outcome = f"{extras[0]}, seen by all, becomes the next burn"
    if len(extras) > 1:
        steps.append(lambda h: h.reshuffle())
        outcome += "; the other cards go back into the stub, which is reshuffled"
    clause = "qld s34(2)" if rule.book == "qld" else rule.clause
    if rule.book == "qld" and len(extras) > 1:
        rule = Rule(rule.question, "qld", rule.do, "cardroom irregularities 16", "fill",
                    "cardroom irregularities 16")  # fmt: skip
        clause = rule.clause
    return Plan(situation, _clause(rule, clause), outcome, steps)


def _board_streets(hand: Hand) -> int:
    return sum(1 for street in hand.rules.game.streets if street.board)


# --- I16-I17. Premature streets; exposed stub cards; the cap ------------------------------------


def _cap(floor: Floor, hand: Hand) -> tuple[Rule, int] | None:
    """The cap a card exposed before the round ends puts on it, under this book: (rule, the
    most any total may be), or None."""
    rule = floor.rule("exposure-cap")
    round_ = hand.round
    if round_ is None or rule.do == "none":
        return None
    if rule.do == "most-wagered":
        kind = kind_of_game(hand)
        seven = len(hand.rules.game.streets) == 5
        clause = {"stud": "au 19.18" if seven else "au 19.11", "manila": "au 19.23"}.get(
            kind, "au 19.29")  # fmt: skip
        return _clause(rule, clause), round_.current
    if round_.current:
        return _clause(rule, "qld s36(3)(a)"), round_.current
    return _clause(rule, "qld s36(3)(b)"), hand.rules.betting.small_bet


def _betting(rule: Rule, hand: Hand) -> None:
    if hand.phase is not Phase.BETTING or hand.round is None:
        raise refuse(rule, "only during a betting round")


@handles(r.Premature)
def premature(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.Premature)
    rule = floor.rule("premature")
    _betting(rule, hand)
    situation = "premature-board"
    upcoming = hand.rules.game.streets[hand.street + 1] if hand.street + 1 < len(
        hand.rules.game.streets) else None  # fmt: skip
    if upcoming is None or not upcoming.board:
        raise refuse(rule, "no board card is due after this round")
    cards = list(report.cards)
    burned = len(cards) == upcoming.board + 1
    if not burned and len(cards) != upcoming.board:
        raise refuse(rule, f"the next street has {upcoming.board} card(s), with or without a burn")
    board = cards[1:] if burned else cards
    flop = upcoming.board == 3
    show: list[Step] = [call("expose", c) for c in cards]
    if rule.do == "reshuffle" or (rule.do == "au" and flop):
        clause = "au 19.28" if rule.do == "au" else rule.clause
        return Plan(
            situation, _clause(rule, clause), "the premature cards do not play: they go back "
            "into the stub (with the burn), which is reshuffled; after the round, a burn and the "
            "street as usual", [*show, lambda h: h.reshuffle()],
        )  # fmt: skip
    # The cards stay and are dealt in their place; the round is capped (au 19.29, qld s36).
    aside: list[Step] = []
    if burned:
        aside.append(lambda h: h.set_aside(cards[0], "burn"))
    aside += [call("set_aside", c, "board") for c in board]
    capped = _cap(floor, hand)
    cap: list[Step] = []
    text = ""
    if capped is not None:
        cap_rule, to = capped
        cap = [lambda h: h.cap_round(to)]
        text = f"; the round is capped at {to} ({cap_rule.clause})"
    clause = "qld s36(2)" if rule.book == "qld" else "au 19.29"
    return Plan(
        situation, _clause(rule, clause),
        f"{' '.join(map(str, board))} stay and are dealt in their place{text}",
        [*show, *aside, *cap],
    )  # fmt: skip


@handles(r.ExposedStub)
def exposed_stub(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    assert isinstance(report, r.ExposedStub)
    card = report.card
    rule = floor.rule("exposure-cap")
    _betting(rule, hand)
    situation = "exposure-cap"
    if card not in hand.deck:
        raise refuse(rule, f"{card} is not in the stub: {hand.dealt.whereabouts(card)}")
    show: list[Step] = [lambda h: h.expose(card)]
    if rule.do == "most-wagered" and kind_of_game(hand) == "flop" and hand.street == 0:
        return Plan(
            situation, _clause(rule, "au 19.28"), f"{card} would be a flop card, which 19.29 "
            "excepts: as a premature flop it goes back into the stub, which is reshuffled",
            [*show, lambda h: h.reshuffle()],
        )  # fmt: skip
    capped = _cap(floor, hand)
    if capped is not None:
        cap_rule, to = capped
        what = "nobody may bet: the round is checked out" if to == 0 else (
            f"no total above {to}: no raise; callers may call up to it")  # fmt: skip
        return Plan(
            situation, cap_rule, f"{card} is used in its place; the round is capped: {what}",
            [*show, lambda h: h.cap_round(to)],
        )  # fmt: skip
    upcoming = hand.street + 1 < len(hand.rules.game.streets)
    burn_next = upcoming and hand.rules.game.streets[hand.street + 1].burn
    if burn_next and hand.auto_deal and hand.deck.cards and hand.deck.cards[0] == card:
        return Plan(situation, rule, f"{card} would be the next burn: it is used as that burn",
                    show)  # fmt: skip
    return Plan(
        situation, rule, f"{card} would be a board card: premature, it goes back into the stub, "
        "which is reshuffled; no cap", [*show, lambda h: h.reshuffle()],
    )  # fmt: skip


# --- I18. Stud: the stub runs out ---------------------------------------------------------------


@handles(r.StubOut)
def stub_out(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    rule = floor.rule("stub-out")
    if kind_of_game(hand) != "stud":
        raise refuse(rule, "only stud deals each player a card until the stub runs out")
    seven = len(hand.rules.game.streets) == 5
    rule = _clause(rule, "au 19.16" if seven else "au 19.9")
    restocked = any(isinstance(e, ev.Reshuffle) for e in hand.events[_street_start(hand) :])
    community = bool(hand.board) and hand.street == len(hand.rules.game.streets) - 1
    if community:
        thirteen = _clause(rule, "au 13.4(a)" if seven else "au 12.4(a)")
        return play_on(
            "stub-out", thirteen, "the stub and the burns together were too few: one community "
            "card was burned for and dealt to all (the engine did it before the round)",
        )  # fmt: skip
    if restocked:
        return play_on(
            "stub-out", rule, "the burns were shuffled to finish the deal (the engine did it "
            "when the stub ran short)",
        )  # fmt: skip
    raise refuse(rule, f"the stub holds {hand.dealt.stub()} cards: it has not run out")


def _street_start(hand: Hand) -> int:
    for i in range(len(hand.events) - 1, -1, -1):
        if isinstance(hand.events[i], ev.RoundEnd):
            return i
    return 0


# --- I21. A fouled stub ----------------------------------------------------------------------


@handles(r.FouledStub)
def fouled_stub(floor: Floor, hand: Hand, report: r.Report) -> Plan:
    rule = floor.rule("fouled-stub")
    if hand.over:
        raise refuse(rule, "the hand is over")
    restore = Plan("fouled-stub", rule, "the stub is put back in its known order; the hand "
                   "is played out")  # fmt: skip
    shuffle = Plan("fouled-stub", rule, "the stub is shuffled and cut; the hand is played out",
                   [lambda h: h.reshuffle()])  # fmt: skip
    return Plan(
        "fouled-stub", rule, "the hand is played out and the deck put together as fairly as "
        "possible (reshuffle when nobody can say the order)",
        options={"restore": restore, "reshuffle": shuffle},
    )  # fmt: skip
