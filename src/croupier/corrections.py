"""The corrections a ruling applies to a hand: the primitives of docs/irregularities-spec.md §1.2.

Each is a :class:`~croupier.hand.Hand` operation with the verify/can/do triple (``verify_x``
raises, ``can_x`` answers, ``x`` acts and appends one event); the functions here do the work,
``check=True`` only verifying. They are few and orthogonal, every ruling of
:mod:`croupier.irregularities` is a short sequence of them, and a hand rebuilt from its log
(:mod:`croupier.rebuild`) replays each one. Chips are conserved: stacks, bets, the pots, held
chips, chips kept back by a player treated as all-in and a pot carried to the next deal always
add up to the starting stacks.

Cards: :meth:`Hand.give_card` (one card to a named player), :meth:`Hand.expose`,
:meth:`Hand.set_aside`, :meth:`Hand.restack`, :meth:`Hand.discard`, :meth:`Hand.reshuffle`.
Money and flow: :meth:`Hand.void_hand`, :meth:`Hand.kill_hand`, :meth:`Hand.revive`,
:meth:`Hand.award_pots`, :meth:`Hand.cap_round`, :meth:`Hand.void_action`,
:meth:`Hand.hold_action`, :meth:`Hand.resolve_held`, :meth:`Hand.restrict`,
:meth:`Hand.treat_as_all_in`, :meth:`Hand.correct_wager`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from croupier import events as ev
from croupier.betting import IllegalAction
from croupier.cards import Card, CardError
from croupier.deck import Deck, shuffle

if TYPE_CHECKING:
    from croupier.hand import Hand

__all__ = ["ACTIONS", "RESTRICTIONS", "IrregularityError", "put_in"]


class IrregularityError(IllegalAction):
    """A report or correction the book in force does not allow now, or an operation refused
    while a ruling waits; the message names the clause and what is allowed. Nothing changed."""


ACTIONS = ("check", "fold", "call", "bet", "raise")
RESTRICTIONS = ("no-bet-or-raise", "min-raise-only")
_ROLES = ("burn", "board")
_HOW = ("apply", "return", "forfeit")


def _player(hand: Hand, player: object) -> int:
    if isinstance(player, bool) or not isinstance(player, int):
        raise IllegalAction(f"a player is an index 0..{hand.players - 1}, not {player!r}")
    if not 0 <= player < hand.players:
        raise IllegalAction(f"the hand has players 0..{hand.players - 1}, not {player}")
    return player


def _card(card: object) -> Card | None:
    if card is None:
        return None
    try:
        return Card(card)  # type: ignore[arg-type]
    except (CardError, TypeError) as error:
        raise IllegalAction(f"not a card: {error}") from None


def _open(hand: Hand, what: str) -> None:
    if hand.void or hand.settlement is not None or hand.phase.value == "over":
        raise IllegalAction(f"the hand is over: {what} only while it is played")


def _betting(hand: Hand, what: str) -> None:
    _open(hand, what)
    if hand.round is None or hand.phase.value != "betting":
        raise IllegalAction(f"{what} only during a betting round")


def put_in(hand: Hand, player: int) -> int:
    """Every chip ``player`` has put into this hand and not had back: antes, blinds, bets,
    dead money and chips held out of turn."""
    return hand.contributed[player] + hand.bets[player] + hand.dead_paid[player] + hand.held[player]


# --- cards ----------------------------------------------------------------------------------


def give_card(hand: Hand, player: int, card: object, up: bool, check: bool) -> None:
    player = _player(hand, player)
    _open(hand, "a card is dealt to a named player")
    given = _card(card)
    dealt = hand.dealt
    if given is None:
        if up:
            raise IllegalAction("a card dealt face up is seen: name it")
        if dealt.stub() < 1:
            raise IllegalAction("the stub is empty: nothing to deal")
    elif given not in dealt.deck:
        raise IllegalAction(f"{given} cannot be dealt to p{player + 1}: {dealt.whereabouts(given)}")
    if check:
        return
    dealt.take([given], f"p{player + 1}")
    if player in hand.in_hand():
        if up:
            assert given is not None
            dealt.give(player, (), (given,))
        else:
            dealt.give(player, (given,), ())
    elif given is not None:
        dealt.muck.append(given)  # a folded seat's card goes straight to the muck (au 19.12)
    else:
        dealt.unseen_spent += 1
    hand._log(ev.CardGiven(player, given, up))
    if up:
        hand.rename_opener()


def expose(
    hand: Hand, card: object, by: str, to: int | None, player: int | None, stay_up: bool,
    check: bool,
) -> None:  # fmt: skip
    seen = _card(card)
    if seen is None:
        raise IllegalAction("an exposed card is seen: name it")
    if by not in ("dealer", "player"):
        raise IllegalAction(f"a card is exposed by the dealer or a player, not {by!r}")
    if to is not None:
        _player(hand, to)
    if player is not None:
        _player(hand, player)
    dealt = hand.dealt
    zone, owner = dealt.locate(seen)
    if zone == "":
        if player is None or not dealt.hidden[player] or seen not in dealt.deck:
            why = dealt.whereabouts(seen)
            who = f"p{player + 1}" if player is not None else "anyone"
            raise IllegalAction(f"{seen} cannot be exposed as {who}'s card: {why}")
        owner = player
    elif player is not None and zone in ("hole", "up") and owner != player:
        raise IllegalAction(f"{seen} is p{owner + 1}'s card, not p{player + 1}'s")
    if stay_up and owner < 0:
        raise IllegalAction(f"{seen} is in nobody's hand: only a hand stays face up")
    if check:
        return
    if zone == "":
        dealt.name_hidden(owner, seen)
    if to is None:
        if seen not in dealt.exposed:
            dealt.exposed.append(seen)
    else:
        dealt.shown.append((seen, to))
    if stay_up:
        hand.stay_up.add(owner)
    hand._log(ev.Exposed(seen, by, -1 if to is None else to, owner, stay_up))


def set_aside(hand: Hand, card: object, role: str, player: int, check: bool) -> None:
    _open(hand, "a card is set aside")
    kept = _card(card)
    if role not in _ROLES:
        raise IllegalAction(f"a card is set aside for the next burn or board card, not {role!r}")
    _located(hand, kept, player)
    if check:
        return
    player = _owner(hand, kept, player)
    hand.dealt.remove(kept, player)
    face_up = kept is not None and kept in hand.dealt.exposed
    hand.dealt.aside.append((kept, role))
    hand._log(ev.SetAside(kept, role, player, face_up))


def _owner(hand: Hand, card: Card | None, player: int) -> int:
    """Whose hand ``card`` leaves (-1: none), so that every viewer can tell whose it was."""
    if player >= 0 or card is None:
        return player
    zone, owner = hand.dealt.locate(card)
    return owner if zone in ("hole", "up") else -1


def _located(hand: Hand, card: Card | None, player: int) -> None:
    """IllegalAction unless ``card`` can be taken from where it lies (see Dealt.remove)."""
    dealt = hand.dealt
    if player >= 0:
        _player(hand, player)
    if card is None:
        if player >= 0 and not dealt.hidden[player]:
            raise IllegalAction(f"p{player + 1} holds no card nobody has seen")
        if player < 0 and dealt.stub() < 1:
            raise IllegalAction("the stub is empty")
        return
    zone, owner = dealt.locate(card)
    if zone == "" and not (player >= 0 and dealt.hidden[player] and card in dealt.deck):
        raise IllegalAction(f"{card} is not in play: {dealt.whereabouts(card)}")
    if zone in ("hole", "up") and player >= 0 and owner != player:
        raise IllegalAction(f"{card} is p{owner + 1}'s card, not p{player + 1}'s")


def restack(hand: Hand, cards: Sequence[object], check: bool) -> None:
    _open(hand, "cards are put back on the stub")
    given = [_card(c) for c in cards]
    known = [c for c in given if c is not None]
    if len(known) != len(given) or len(set(known)) != len(known):
        raise IllegalAction("cards put back on the stub are named, each once")
    dealt = hand.dealt
    for card in known:
        zone, _ = dealt.locate(card)
        if zone in ("", "stub", "scrap"):
            raise IllegalAction(f"{card} cannot go back on the stub: {dealt.whereabouts(card)}")
    if check:
        return
    owners = tuple(_owner(hand, card, -1) for card in known)
    public = tuple(
        card in dealt.board or card in dealt.exposed or any(card in up for up in dealt.up)
        for card in known
    )
    for card in known:
        dealt.remove(card)
    dealt.deck = Deck(dealt.deck.kind, [*known, *dealt.deck.cards])
    hand._log(ev.Restacked(tuple(known), owners, public))


def discard(hand: Hand, card: object, scrap: bool, player: int, check: bool) -> None:
    _open(hand, "a card is discarded")
    gone = _card(card)
    _located(hand, gone, player)
    if check:
        return
    dealt = hand.dealt
    player = _owner(hand, gone, player)
    zone = dealt.remove(gone, player)
    face_up = gone is not None and gone in dealt.exposed
    if gone is None:
        if scrap and zone == "hole":
            dealt.unseen_out -= 1  # the player's unseen card was no card of the deck (a joker)
        else:
            dealt.unseen_spent += 1
    elif scrap:
        dealt.scrap.append(gone)
    else:
        dealt.muck.append(gone)
    hand._log(ev.Discarded(gone, scrap, player, face_up))


def reshuffle(
    hand: Hand, returned: Sequence[object], order: Sequence[Card] | None, check: bool
) -> None:
    _open(hand, "the stub is reshuffled")
    back = [_card(c) for c in returned]
    dealt = hand.dealt
    known = [c for c in back if c is not None]
    unseen = len(back) - len(known)
    if len(set(known)) != len(known):
        raise IllegalAction("each returned card once")
    for card in known:
        zone, _ = dealt.locate(card)
        if zone not in ("board", "burned", "aside", "muck"):
            raise IllegalAction(
                f"{card} cannot be shuffled back: only the board, burns and cards set aside "
                f"go back into the stub ({dealt.whereabouts(card)})"
            )
    if unseen > dealt.unseen_spent:
        raise IllegalAction(f"only {dealt.unseen_spent} unseen burned cards can go back")
    pool = [*dealt.deck.cards, *known]
    if order is not None and sorted(order) != sorted(pool):
        raise IllegalAction("the reshuffled stub must hold exactly the stub and the returned cards")
    if check:
        return
    for card in known:
        dealt.remove(card)
    dealt.unseen_spent -= unseen
    dealt.unseen_out -= unseen
    if order is None:
        shuffle(pool, hand.shuffler)
    else:
        pool = list(order)
    dealt.deck = Deck(dealt.deck.kind, pool)
    hand._log(ev.StubReshuffled(dealt.stub(), tuple(back), tuple(pool)))


# --- money and flow -------------------------------------------------------------------------


def void_hand(hand: Hand, keep: Iterable[int], check: bool) -> None:
    _open(hand, "the hand is voided")
    kept = tuple(sorted({_player(hand, p) for p in keep}))
    if check:
        return
    returned = [0 if p in kept else put_in(hand, p) for p in range(hand.players)]
    carried = hand.forced.carried + sum(put_in(hand, p) for p in kept)
    for p in range(hand.players):
        hand.stacks[p] = hand.stacks[p] + returned[p]
    _empty_middle(hand)
    hand.carried = carried
    hand.void = True
    hand._log(ev.HandVoided(tuple(returned), carried, kept))
    _over(hand)


def _empty_middle(hand: Hand) -> None:
    count = hand.players
    hand.contributed[:] = [0] * count
    hand.bets[:] = [0] * count
    hand.dead_paid[:] = [0] * count
    hand.held[:] = [0] * count
    hand.held_actions.clear()
    hand.dead = 0


def _over(hand: Hand) -> None:
    """The hand ends without a showdown's settlement: chips kept back come home."""
    from croupier.hand import Phase

    for p in range(hand.players):
        if hand.behind[p]:
            hand.stacks[p] = hand.stacks[p] + hand.behind[p]
            hand.behind[p] = 0
    hand.phase = Phase.OVER
    hand.round = None
    hand.to_act = None
    hand._steps = []
    hand.pending = None
    hand.refresh_guard()
    hand._log(ev.HandOver(tuple(hand.stacks)))


def kill_hand(hand: Hand, player: int, refund: bool, check: bool) -> None:
    player = _player(hand, player)
    _open(hand, "a hand is declared dead")
    if player not in hand.in_hand():
        raise IllegalAction(f"p{player + 1} has no hand to kill: it was folded or killed")
    if check:
        return
    refunded = 0
    if refund:
        refunded = put_in(hand, player)
        hand.stacks[player] = hand.stacks[player] + refunded
        hand.dead = hand.dead - hand.dead_paid[player]
        hand.contributed[player] = hand.bets[player] = hand.dead_paid[player] = 0
        hand.held[player] = 0
        hand.held_actions.pop(player, None)
    hand.killed.add(player)
    hand._log(ev.HandKilled(player, refund, refunded))
    hand.leave(player)


def revive(hand: Hand, player: int, check: bool) -> None:
    player = _player(hand, player)
    _open(hand, "a hand is revived")
    if player in hand.in_hand() and not hand.mucked[player]:
        raise IllegalAction(f"p{player + 1}'s hand is live already")
    if check:
        return
    hand.killed.discard(player)
    hand.rejoin(player)
    hand._log(ev.Revived(player))


def award_pots(hand: Hand, player: int, uncontested: bool, check: bool) -> None:
    player = _player(hand, player)
    _open(hand, "the pots are awarded")
    live = [p for p in hand.in_hand() if not hand.mucked[p]]
    if uncontested and not live:
        raise IllegalAction("no live hand is left: every pot is uncontested")
    if check:
        return
    if not uncontested:
        amount = hand.pot
        hand._log(ev.PotsAwarded(player, amount))
        hand.award(player, amount)
        return
    # The chips above the highest live contribution: no live or all-in hand can win them.
    top = max(hand.contributed[p] + hand.bets[p] for p in live)
    amount = 0
    for p in range(hand.players):
        over = hand.contributed[p] - top
        if over > 0:
            hand.contributed[p] = top
            amount += over
    hand.stacks[player] = hand.stacks[player] + amount
    hand._log(ev.PotsAwarded(player, amount, True))


def cap_round(hand: Hand, to: object, check: bool) -> None:
    _betting(hand, "a round is capped")
    round_ = hand.round
    assert round_ is not None
    if isinstance(to, bool) or not isinstance(to, int) or to < round_.current:
        raise IllegalAction(
            f"a cap is a round total of at least the bet already made ({round_.current}), "
            f"not {to!r}"
        )
    if check:
        return
    round_.cap_to = to
    hand._log(ev.RoundCapped(to))


_ACTION_EVENTS = (ev.Fold, ev.Check, ev.Call, ev.Bet, ev.BringIn)


def last_action(hand: Hand) -> int:
    """The log index of the last betting action, -1 when none; IllegalAction when an operation
    came after it (only the last thing done can be voided)."""
    from croupier.rebuild import OPERATIONS

    for i in range(len(hand.events) - 1, -1, -1):
        event = hand.events[i]
        if isinstance(event, _ACTION_EVENTS):
            return i
        if isinstance(event, ev.RulingMade) or not isinstance(event, OPERATIONS):
            continue
        if not _made_by_engine(hand, i):
            raise IllegalAction(
                f"only the last thing done can be voided: {event} came after the last action"
            )
    return -1


def _made_by_engine(hand: Hand, index: int) -> bool:
    """Cards dealt by the automatic dealer after a round closed are part of that action."""
    event = hand.events[index]
    if not hand.auto_deal:
        return False
    return isinstance(event, ev.DealHole | ev.DealUp | ev.Burn | ev.DealBoard)


def void_action(hand: Hand, check: bool) -> None:
    _open(hand, "an action is voided")
    index = last_action(hand)
    if index < 0:
        raise IllegalAction("nobody has acted: there is no action to void")
    if check:
        return
    from croupier.rebuild import deck_for, rebuild

    kept = hand.events[:index]
    before = rebuild(
        hand.rules, hand.starting, kept, forced=hand.forced, over_blind=hand.over_blind,
        deck=deck_for(hand, kept), shuffler=hand.shuffler,
    )  # fmt: skip
    events = hand.events
    hand.restore_from(before)
    hand.events = events
    hand._log(ev.ActionVoided(index))
    hand.refresh_guard()


def hold_action(hand: Hand, player: int, action: str, to: object, check: bool) -> None:
    player = _player(hand, player)
    _betting(hand, "an out-of-turn action is held")
    round_ = hand.round
    assert round_ is not None
    if action not in ACTIONS:
        raise IllegalAction(f"an action is one of {', '.join(ACTIONS)}, not {action!r}")
    if player not in hand.in_hand() or hand.stacks[player] == 0:
        raise IllegalAction(f"p{player + 1} has no action to take: folded or all-in")
    if player == hand.to_act:
        raise IllegalAction(f"it is p{player + 1}'s turn: that action is in turn")
    if player in hand.held_actions:
        raise IllegalAction(f"p{player + 1} already has an action held")
    stack, bet = hand.stacks[player], hand.bets[player]
    total = bet
    if action == "call":
        total = min(round_.current, bet + stack)
    elif action in ("bet", "raise"):
        if isinstance(to, bool) or not isinstance(to, int) or to <= round_.current:
            raise IllegalAction(
                f"a {action} held out of turn is a round total above the bet ({round_.current})"
            )
        if to > bet + stack:
            raise IllegalAction(f"p{player + 1} has {stack} behind: at most {bet + stack}")
        total = to
    if check:
        return
    amount = total - bet
    hand.stacks[player] = stack - amount
    hand.held[player] = amount
    hand.held_actions[player] = (action, total)
    hand._log(ev.ActionHeld(player, action, total, amount))
    hand.refresh_guard()


def resolve_held(hand: Hand, player: int, how: str, check: bool) -> None:
    player = _player(hand, player)
    _open(hand, "a held action is settled")
    if player not in hand.held_actions:
        raise IllegalAction(f"p{player + 1} has no action held")
    if how not in _HOW:
        raise IllegalAction(f"a held action is settled by {', '.join(_HOW)}, not {how!r}")
    action, total = hand.held_actions[player]
    amount = hand.held[player]
    if how == "apply":
        if hand.to_act != player or hand.phase.value != "betting":
            raise IllegalAction(f"a held action applies on p{player + 1}'s own turn")
        legal = hand.legal()
        if action == "check" and not legal.can_check:
            raise IllegalAction(f"p{player + 1} faces {legal.call}: a check cannot stand")
        if action in ("bet", "raise"):
            hand.verify_bet_or_raise_to(total, legal)
    if check:
        return
    del hand.held_actions[player]
    hand.held[player] = 0
    if how == "forfeit":
        hand.dead = hand.dead + amount
        hand.dead_paid[player] = hand.dead_paid[player] + amount
    else:
        hand.stacks[player] = hand.stacks[player] + amount
    hand.refresh_guard()
    hand._log(ev.HeldResolved(player, how, amount))
    if how != "apply":
        return
    if action == "fold":
        hand.fold()
    elif action in ("check", "call"):
        hand.check_or_call()
    else:
        hand.bet_or_raise_to(total)


def restrict(hand: Hand, player: int, rule: str, check: bool) -> None:
    player = _player(hand, player)
    _open(hand, "a player is restricted")
    if rule not in RESTRICTIONS:
        raise IllegalAction(f"a restriction is one of {', '.join(RESTRICTIONS)}, not {rule!r}")
    if player not in hand.in_hand():
        raise IllegalAction(f"p{player + 1} is out of the hand")
    if check:
        return
    hand.restricted[player] = rule
    hand._log(ev.Restricted(player, rule))


def treat_as_all_in(hand: Hand, player: int, check: bool) -> None:
    player = _player(hand, player)
    _open(hand, "a player is treated as all-in")
    if player not in hand.in_hand():
        raise IllegalAction(f"p{player + 1} is out of the hand")
    if check:
        return
    kept = hand.stacks[player]
    hand.behind[player] = hand.behind[player] + kept
    hand.stacks[player] = 0
    hand.options.pop(player, None)
    hand._log(ev.TreatedAllIn(player, kept))
    hand.recheck_turn()


def correct_wager(hand: Hand, player: int, to: object, check: bool) -> None:
    player = _player(hand, player)
    _betting(hand, "a wager is corrected")
    round_ = hand.round
    assert round_ is not None
    if isinstance(to, bool) or not isinstance(to, int) or to < hand.bets[player]:
        raise IllegalAction(f"a corrected wager is a round total of at least p{player + 1}'s bet")
    held = player in hand.held_actions
    now = hand.bets[player] + hand.held[player] if held else hand.bets[player]
    delta = to - now
    if delta > hand.stacks[player]:
        most = now + hand.stacks[player]
        raise IllegalAction(f"p{player + 1} has {hand.stacks[player]} behind: at most {most}")
    if not held and player not in hand.in_hand():
        raise IllegalAction(f"p{player + 1} is out of the hand")
    if check:
        return
    hand.stacks[player] = hand.stacks[player] - delta
    if held:
        action, _ = hand.held_actions[player]
        hand.held[player] = hand.held[player] + delta
        hand.held_actions[player] = (action, to)
    else:
        hand.bets[player] = to
        if to > round_.current:
            round_.current = round_.full_level = round_.raise_base = to
    hand._log(ev.WagerCorrected(player, to, delta))
