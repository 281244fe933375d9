"""Who is dealt in, where the button is and who posts which blind: one hand's plan at a table.

Seats are numbered clockwise; the button's seat may be empty or belong to a player not dealt in
(a *dead button*). Two policies move the blinds from hand to hand:

- :attr:`BlindPolicy.MOVING_BUTTON` (rws 'Dealer Button', qld s18(2)): the button moves to the
  next player dealt in and the blinds are the players after it. When players leave, someone may
  skip the big blind; one correction keeps last hand's big blind from posting it again.
- :attr:`BlindPolicy.MOVING_BIG_BLIND` (au 1.1 'Dead Button', league 12): the big blind moves to
  the next player clockwise after last hand's big blind, so every player takes a turn at it. The
  small blind is the seat that had the big blind, and is not posted when that player has gone
  ("the small blind may miss out"); the button is the seat that had the small blind, even an
  empty one ("the previous dealer may have to deal again"). Heads-up the table's heads-up rule
  places the button and small blind, and the big blind still goes to the player due it.

Players coming into a game in progress (no book rules them: the house's settings):

- :class:`NewPlayer`: a newcomer waits for the big blind (the default), posts a big blind to be
  dealt in at once, or plays at once (a tournament, where every seat is blinded in turn).
- :class:`MissedBlinds`: a player back after missing blinds posts them (the big blind live, the
  small one dead: the default) or waits for the big blind.

A player entering by posting is never dealt in on the button or between it and the small blind;
reaching the big blind settles whatever a player owes. The functions here are pure: the
:class:`~croupier.table.Table` keeps the seats and records what each plan did.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from croupier.forced import BlindKind

__all__ = [
    "BlindPolicy",
    "Bust",
    "FirstButton",
    "MissedBlinds",
    "NewPlayer",
    "Plan",
    "Positions",
    "SeatState",
    "State",
    "TableRules",
    "plan_hand",
    "propose_correction",
]


class BlindPolicy(enum.Enum):
    """How the button and the blinds move from hand to hand (module docstring)."""

    MOVING_BUTTON = "moving-button"  # rws 1 'Dealer Button', 3.7; qld s18(2)
    MOVING_BIG_BLIND = "moving-big-blind"  # au 1.1 'Dead Button'; league 12


class Bust(enum.Enum):
    """What happens to a player who cannot play the next hand (no chips, or under qld s31(2))."""

    SIT_OUT = "sit-out"  # keeps the seat, dealt out until chips are added (cardroom buy-in 2)
    LEAVE = "leave"  # the seat is freed (qld s31(4); tournament elimination, league)


class FirstButton(enum.Enum):
    """Where the button is for the first hand (a seat number may be given instead)."""

    DEALER_RIGHT = "dealer-right"  # on the dealer's right: the highest seat (au 11.1(b), qld s18)
    DEALER_LEFT = "dealer-left"  # on the dealer's left: the lowest seat (rws 3.1)
    HIGH_CARD = "high-card"  # the highest card drawn (cardroom ties 2; league 2)


@dataclass(frozen=True)
class TableRules:
    """What a rulebook rules of the table around its hands, carried by the
    :class:`~croupier.rules.Rules` it builds (:attr:`~croupier.rules.Rules.table`) so that a
    :class:`~croupier.table.Table` made from those rules takes them by itself: where the first
    button goes, how the button and blinds move, and what becomes of a player with no chips.
    ``None`` in a field: the table's own default."""

    first_button: FirstButton | None = None
    blind_policy: BlindPolicy | None = None
    bust: Bust | None = None


class NewPlayer(enum.Enum):
    """How a player seated in a game in progress is dealt in (no book rules it: house setting)."""

    WAIT = "wait-for-big-blind"  # dealt in when the big blind reaches the seat (the default)
    POST = "post"  # posts a live big blind out of position and is dealt in at once
    PLAY = "play"  # dealt in at once without posting (tournaments: every seat is blinded)


class MissedBlinds(enum.Enum):
    """What a player who missed blinds while away does on return (no book rules it: house)."""

    POST_DEAD = "post-dead"  # posts the big blind live and the small blind dead (the default)
    WAIT = "wait"  # waits for the big blind


class State(enum.Enum):
    """Where one occupied seat stands before a hand is planned."""

    PLAYING = "playing"  # dealt in as the positions fall
    AWAY = "away"  # cannot be dealt in (stepped away, or no chips): may miss blinds
    WAIT = "wait"  # waiting for the big blind
    POST = "post"  # enters by posting what it owes
    PLAY = "play"  # a newcomer dealt in at once without posting


@dataclass(frozen=True)
class SeatState:
    seat: int
    state: State
    owes_small: bool = False  # a small blind missed (posted dead on entering)
    owes_big: bool = False  # a big blind missed, or a newcomer's entry post (posted live)


@dataclass(frozen=True)
class Positions:
    """The button's seat and the seat due each blind, in posting order (the big blind last).
    A seat due a blind may post nothing: empty, or its player not dealt in."""

    button: int
    blinds: tuple[int, ...] = ()

    @property
    def big_blind(self) -> int | None:
        return self.blinds[-1] if self.blinds else None


@dataclass(frozen=True)
class Plan:
    """One hand: its positions, the seats dealt in (first after the button), each blind as
    ``(seat, amount, kind)`` in posting order, who missed which blind, and who waits."""

    positions: Positions
    order: tuple[int, ...]
    blinds: tuple[tuple[int, int, BlindKind], ...]
    missed: tuple[tuple[int, bool, bool], ...]  # (seat, missed the small, missed the big)
    waiting: tuple[int, ...]

    @property
    def dead_button(self) -> bool:
        """The button is on a seat not dealt in (au 1.1 'Dead Button')."""
        return self.positions.button not in self.order


_AROUND = 1 << 16  # any modulus above the highest seat keeps the seats' clockwise order


def _offset(origin: int, seat: int) -> int:
    return (seat - origin) % _AROUND


def inside(start: int, seat: int, end: int) -> bool:
    """Whether ``seat`` lies strictly between ``start`` and ``end`` clockwise (with ``start ==
    end``: anywhere but that seat)."""
    span = _offset(start, end) or _AROUND
    return 0 < _offset(start, seat) < span


def after(seats: Iterable[int], seat: int) -> int:
    """The first of ``seats`` clockwise after ``seat`` (never ``seat`` itself)."""
    return min((s for s in seats if s != seat), key=lambda s: _offset(seat, s))


def before(seats: Iterable[int], seat: int) -> int:
    """The first of ``seats`` counterclockwise before ``seat``."""
    return max((s for s in seats if s != seat), key=lambda s: _offset(seat, s))


def deal_order(seats: Iterable[int], button: int) -> tuple[int, ...]:
    """``seats`` clockwise from the one after the button; the button (if among them) last."""
    return tuple(sorted(seats, key=lambda s: _offset(button, s) or _AROUND))


def chain(
    seats: Sequence[int], button: int, count: int, heads_up_button_small: bool
) -> tuple[int, ...]:
    """The seats posting the positional blinds from ``button`` among ``seats``, as
    :func:`croupier.forced.forced_bets` places them: the players after the button, or heads-up
    the button first where the table says so (rws 3.7)."""
    order = deal_order(seats, button)
    count = min(count, len(order))
    if len(order) == 2 and heads_up_button_small and count == 2:
        return (order[1], order[0])
    return order[:count]


def plan_hand(
    policy: BlindPolicy,
    amounts: Sequence[int],
    heads_up_button_small: bool,
    seats: Sequence[SeatState],
    last: Positions | None,
    first_button: int | None = None,
    given: Positions | None = None,
) -> Plan | None:
    """Plan the next hand; ``None`` when fewer than two players can be dealt in.

    ``amounts``: the blinds in posting order; ``last``: last hand's positions (``None``: the
    game's first hand, with the button on ``first_button``, a seat of ``seats``); ``given``:
    positions the floor placed (cardroom irregularities 1), used as they are."""
    planned = _plan(policy, amounts, heads_up_button_small, seats, last, first_button, given)
    if planned is not None and len(planned.order) >= 2:
        return planned
    # Too few would be dealt: the game starts again, everyone present dealt in as they sit.
    fresh = [SeatState(s.seat, State.PLAYING) if s.state is not State.AWAY else s for s in seats]
    return _plan(policy, amounts, heads_up_button_small, fresh, last, first_button, given)


def _plan(
    policy: BlindPolicy,
    amounts: Sequence[int],
    hu: bool,
    seats: Sequence[SeatState],
    last: Positions | None,
    first_button: int | None,
    given: Positions | None,
) -> Plan | None:
    states = {s.seat: s for s in seats}
    present = sorted(s.seat for s in seats if s.state is not State.AWAY)
    if len(present) < 2:
        return None
    n = len(amounts)
    if last is None or (given is None and (n == 0 or len(last.blinds) != n)):
        # The first hand, a game with no blinds, or new blinds: everyone present plays, the
        # button moves on (or is placed), the blinds follow it.
        if last is None:
            if first_button is None or first_button not in present:
                raise ValueError(f"the first button must be on a player's seat, not {first_button}")
            button = first_button
        else:
            button = after(present, last.button)
        positions = Positions(button, chain(present, button, n, hu))
        fresh = {s: SeatState(s, State.PLAYING) for s in present}
        return _finish(positions, present, amounts, {**states, **fresh}, (), last, policy)
    if given is not None:
        return _placed(given, present, amounts, states, last, policy)
    if policy is BlindPolicy.MOVING_BUTTON:
        return _moving_button(present, amounts, hu, states, last)
    return _moving_big_blind(present, amounts, hu, states, last)


def _moving_button(
    present: list[int],
    amounts: Sequence[int],
    hu: bool,
    states: dict[int, SeatState],
    last: Positions,
) -> Plan | None:
    seated = (State.PLAYING, State.PLAY)
    core = [s for s in present if states[s].state in seated]
    positions = _button_positions(core, last, len(amounts), hu)
    if positions is None:
        return None
    # A player coming in takes the big blind when, counted in, they would post it; a player
    # posting comes in anywhere else but between the button and the first seat dealt.
    button = positions.button
    for seat in deal_order((s for s in present if states[s].state not in seated), button):
        grown = sorted([*core, seat])
        trial = (
            _button_positions(grown, last, len(amounts), hu)
            if _from_heads_up(last, grown, len(amounts))
            else Positions(button, chain(grown, button, len(amounts), hu))
        )
        if trial is not None and trial.blinds and trial.blinds[-1] == seat:
            core, positions, button = grown, trial, trial.button
            break
    first = deal_order(core, button)[0]
    core += [
        s for s in present
        if states[s].state is State.POST and s not in core and not inside(button, s, first)
    ]  # fmt: skip
    waiting = tuple(s for s in present if s not in core)
    return _finish(positions, core, amounts, states, waiting, last, BlindPolicy.MOVING_BUTTON)


def _button_positions(core: list[int], last: Positions, count: int, hu: bool) -> Positions | None:
    """The next player after last hand's button (au 11.1(b), qld s18(2), rws 'Dealer Button');
    when that would make last hand's big blind post it again (going heads-up, rws 3.7), one
    seat further, so the big blind moves on."""
    if len(core) < 2:
        return None
    if _from_heads_up(last, core, count):
        # No book says where the button goes when a heads-up game gains a player (rws, qld
        # silent). Decided by the principle the books' blinds keep (au 1.1 'Dead Button',
        # league 12): nobody skips a blind. Last hand's big blind posts the small blind, the
        # big blind moves on to the player after it, the button is the player before it (the
        # plain move would give last hand's big blind the button and no small blind).
        button = before(core, last.blinds[-1])
        return Positions(button, chain(core, button, count, hu))
    button = after(core, last.button)
    blinds = chain(core, button, count, hu)
    if blinds and last.blinds and blinds[-1] == last.blinds[-1]:
        button = after(core, button)
        blinds = chain(core, button, count, hu)
    return Positions(button, blinds)


def _from_heads_up(last: Positions, core: Sequence[int], count: int) -> bool:
    """Last hand was heads-up with two blinds or more (its button posted one of them), its big
    blind plays this one, and three or more players do."""
    return count >= 2 and len(core) >= 3 and last.button in last.blinds and last.blinds[-1] in core


def _moving_big_blind(
    present: list[int],
    amounts: Sequence[int],
    hu: bool,
    states: dict[int, SeatState],
    last: Positions,
) -> Plan | None:
    big = after(present, last.blinds[-1])
    due = (*last.blinds[1:], big)
    button = last.blinds[0]
    if not inside(big, button, due[0]):
        # From heads-up, or players seated since: the player last before the small blind.
        button = before(present, due[0])
    dealt, held, waiting = [big], [], []
    for seat in present:
        state = states[seat].state
        if seat == big:
            continue
        between = inside(button, seat, due[0])
        if state is State.WAIT or (state is State.POST and (seat == button or between)):
            waiting.append(seat)
        elif between:
            held.append(seat)  # a player seated between the button and the small blind
        else:
            dealt.append(seat)
    if held and len(dealt) < 3:  # too few would play: nobody sits out, the button moves back
        button, dealt = before(present, due[0]), dealt + held
    else:
        waiting += held
    dealt.sort()
    if len(dealt) == 2:
        other = next(s for s in dealt if s != big)
        if len(amounts) == 1:
            positions = Positions(other, (big,))
        elif hu:
            positions = Positions(other, (other, big))
        else:
            positions = Positions(big, (other, big))
    else:
        positions = Positions(button, due)
    return _finish(
        positions, dealt, amounts, states, tuple(sorted(waiting)), last,
        BlindPolicy.MOVING_BIG_BLIND,
    )  # fmt: skip


def _placed(
    given: Positions,
    present: list[int],
    amounts: Sequence[int],
    states: dict[int, SeatState],
    last: Positions,
    policy: BlindPolicy,
) -> Plan:
    """Positions placed by the floor: everyone present plays but for those waiting."""
    first = given.blinds[0] if given.blinds else given.button
    front = {given.button, *given.blinds[:-1]}
    dealt, waiting = [], []
    for seat in present:
        state = states[seat].state
        entering_early = state is State.POST and (
            seat in front or inside(given.button, seat, first)
        )
        if seat != given.big_blind and (state is State.WAIT or entering_early):
            waiting.append(seat)
        else:
            dealt.append(seat)
    return _finish(given, dealt, amounts, states, tuple(waiting), last, policy)


def _finish(
    positions: Positions,
    dealt: Sequence[int],
    amounts: Sequence[int],
    states: dict[int, SeatState],
    waiting: tuple[int, ...],
    last: Positions | None,
    policy: BlindPolicy,
) -> Plan:
    order = deal_order(dealt, positions.button)
    extra: list[tuple[int, int, BlindKind]] = []
    if amounts:
        for seat in order:  # players entering post what they owe (before the positional blinds)
            state = states[seat]
            if seat in positions.blinds or state.state is not State.POST:
                continue  # a blind in position settles what is owed
            if state.owes_big:
                extra.append((seat, amounts[-1], BlindKind.POSTED))
            if state.owes_small and len(amounts) > 1:
                extra.append((seat, amounts[0], BlindKind.DEAD))
    posted = [
        (seat, amount, BlindKind.BLIND)
        for seat, amount in zip(positions.blinds, amounts, strict=False)
        if seat in order
    ]
    missed = _missed(positions, amounts, states, last, policy)
    return Plan(positions, order, (*extra, *posted), missed, waiting)


def _missed(
    positions: Positions,
    amounts: Sequence[int],
    states: dict[int, SeatState],
    last: Positions | None,
    policy: BlindPolicy,
) -> tuple[tuple[int, bool, bool], ...]:
    """The blinds that passed each away player's seat: the big blind moved from last hand's
    big blind past it, or the small blind past it or onto it."""
    if last is None or not amounts or not last.blinds or not positions.blinds:
        return ()
    big_from, big_to = last.blinds[-1], positions.blinds[-1]
    small_from, small_to = last.blinds[0], positions.blinds[0]
    if policy is BlindPolicy.MOVING_BIG_BLIND and len(last.blinds) == len(amounts):
        small_to = last.blinds[-1]  # due the small blind, whether or not it was posted
    missed = []
    for seat, state in sorted(states.items()):
        if state.state is not State.AWAY:
            continue
        big = _passed(big_from, seat, big_to)
        small = len(amounts) > 1 and (seat == small_to or _passed(small_from, seat, small_to))
        if small or big:
            missed.append((seat, small, big))
    return tuple(missed)


def _passed(start: int, seat: int, end: int) -> bool:
    """Whether a blind moving from ``start`` to ``end`` went past ``seat``."""
    return start != end and inside(start, seat, end)


def propose_correction(
    players: Sequence[int], last_correct_big: int, since: Iterable[int], count: int
) -> Positions:
    """Cardroom irregularities 1: after a misplaced button, the big blind goes to the first
    player clockwise from the last correctly placed big blind who has not posted it since
    (``since``: the big blinds posted after it); the other blinds and the button are the
    players before it, as the moving big blind places them."""
    seats = sorted(players)
    if len(seats) < 3 or count < 1:
        raise ValueError("a button correction needs blinds and at least three players")
    posted = set(since)
    big = after(seats, last_correct_big)
    for _ in seats:
        if big not in posted:
            break
        big = after(seats, big)
    blinds = [big]
    for _ in range(min(count, len(seats) - 1) - 1):
        blinds.insert(0, before(seats, blinds[0]))
    return Positions(before(seats, blinds[0]), tuple(blinds))
