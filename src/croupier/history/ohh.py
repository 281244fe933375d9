"""Open Hand History (OHH, spec 1.4.6): the open JSON standard of tracker software.

:func:`ohh_from_hand` gives a finished hold'em or Omaha hand (hi, hi-lo; no-limit, pot-limit,
limit) as the ``{"ohh": {...}}`` object the spec describes: the game and its limits, the
players by seat, one round per street with its cards and actions (``Dealt Cards``, ``Post
Ante``/``Post SB``/``Post BB``/``Straddle``/``Post Dead``, ``Fold``, ``Check``, ``Call``,
``Bet``, ``Raise``, ``Shows Cards``, ``Mucks Cards``), and the pots with each winner's share and
the rake. Like the PokerStars text it is written from :class:`croupier.views.Reducer` for one
viewer: a seat's own history has that seat as ``hero_player_id`` and only its hole cards.

Amounts: an action's ``amount`` is what it puts in (a raise: the chips added, which is what
trackers add up); a pot's ``amount`` is what was contested, uncalled chips returned. Chips are
written as they are, or at ``chip_value`` per chip in ``currency``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from croupier import events as ev
from croupier.betting import Structure
from croupier.cards import Card, DeckKind
from croupier.forced import BlindKind
from croupier.hand import Hand
from croupier.views import Reducer, check_viewer, visible

__all__ = ["SPEC_VERSION", "OHHError", "dump_ohh", "ohh_from_hand"]

SPEC_VERSION = "1.4.6"
_GAME_TYPES = {"holdem": "Holdem", "omaha": "Omaha", "omaha8": "OmahaHiLo"}
_BET_TYPES = {Structure.NO_LIMIT: "NL", Structure.POT: "PL", Structure.FIXED: "FL"}
_STREETS = ("Preflop", "Flop", "Turn", "River")


class OHHError(ValueError):
    """A hand OHH cannot describe here (another game, an unfinished hand), or a bad option."""


def dump_ohh(hand: Hand, *, viewer: int, **options: Any) -> str:
    """:func:`ohh_from_hand` as JSON text (one object, ``{"ohh": ...}``)."""
    return json.dumps(ohh_from_hand(hand, viewer=viewer, **options), indent=1)


def ohh_from_hand(
    hand: Hand,
    *,
    viewer: int,
    when: datetime | None = None,
    hand_id: int | str = 1,
    table: str = "croupier",
    names: Sequence[str] | None = None,
    seats: Sequence[int] | None = None,
    max_seats: int | None = None,
    chip_value: Decimal | None = None,
    currency: str = "CHIPS",
    site: str = "croupier",
) -> dict[str, Any]:
    """The finished hand as an OHH object, as ``viewer`` saw it (a player's index, or
    :data:`~croupier.events.HOUSE`; never a default). ``when``: the start, with its time zone
    (default now); ``names``/``seats`` per player in deal order (default ``p1``.., 1..n), the
    button the last player; ``chip_value``: what a chip is worth in ``currency``."""
    _check(hand)
    viewer = check_viewer(viewer, hand.players)
    count = hand.players
    names = list(names) if names is not None else [f"p{p + 1}" for p in range(count)]
    seats = list(seats) if seats is not None else list(range(1, count + 1))
    if len(names) != count or len(seats) != count:
        raise OHHError(f"give a name and a seat for each of the {count} players")
    start = when or datetime.now(UTC)
    if start.tzinfo is None or start.utcoffset() is None:
        raise OHHError(f"the hand's time needs its time zone (OHH gives UTC), got {start}")
    money = _Money(chip_value)
    rules = hand.rules
    structure = rules.betting.structures[0]
    blinds = [b.amount for b in hand.forced.blinds if b.kind is BlindKind.BLIND]
    if structure is Structure.FIXED:
        small = rules.betting.small_bet
        stakes = [small // 2, small] if not blinds else blinds[:2]
    else:
        stakes = blinds[:2] or [rules.betting.small_bet // 2, rules.betting.small_bet]
    if len(stakes) == 1:
        stakes = [0, stakes[0]]
    antes = [a for a in hand.forced.antes if a]
    ohh: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "site_name": site,
        "network_name": site,
        "internal_version": "croupier",
        "tournament": False,
        "game_number": str(hand_id),
        "start_date_utc": start.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "table_name": table,
        "game_type": _GAME_TYPES[rules.game.name],
        "bet_limit": {"bet_type": _BET_TYPES[structure], "bet_cap": 0},
        "table_size": max_seats if max_seats is not None else count,
        "currency": currency,
        "dealer_seat": seats[-1],
        "small_blind_amount": money(stakes[0]),
        "big_blind_amount": money(stakes[1]),
        "ante_amount": money(max(antes, default=0)),
    }
    if 0 <= viewer < count:
        ohh["hero_player_id"] = viewer
    else:
        ohh["flags"] = ["Observed"]
    ohh["players"] = [
        {"id": p, "seat": seats[p], "name": names[p], "starting_stack": money(hand.starting[p])}
        for p in range(count)
    ]
    ohh["rounds"] = _rounds(hand, viewer, money)
    ohh["pots"] = _pots(hand, money)
    return {"ohh": ohh}


def _check(hand: Hand) -> None:
    if not hand.over:
        raise OHHError("only a finished hand can be written as a hand history")
    rules = hand.rules
    structures = set(rules.betting.structures)
    if (
        rules.game.name not in _GAME_TYPES
        or rules.deck is not DeckKind.STANDARD
        or len(structures) != 1
        or next(iter(structures)) not in _BET_TYPES
    ):
        raise OHHError(
            "OHH is written for no-limit, pot-limit and limit hold'em, Omaha and Omaha hi-lo "
            f"on the 52-card deck, not {rules.game.name} on {rules.deck.size} cards with "
            f"{', '.join(s.value for s in rules.betting.structures)} betting"
        )


class _Money:
    def __init__(self, value: Decimal | None) -> None:
        if value is not None and value <= 0:
            raise OHHError(f"a chip is worth more than nothing, got {value}")
        self.value = value

    def __call__(self, chips: int) -> float | int:
        if self.value is None:
            return chips
        return float(chips * self.value)


def _rounds(hand: Hand, viewer: int, money: _Money) -> list[dict[str, Any]]:
    reducer = Reducer(hand.starting, viewer)
    rounds: list[dict[str, Any]] = [{"id": 0, "street": "Preflop", "actions": []}]
    number = 0
    posted = 0
    live = len(hand.forced.live)

    def add(player: int, action: str, **fields: Any) -> None:
        nonlocal number
        rounds[-1]["actions"].append(
            {"action_number": number, "player_id": player, "action": action, **fields}
        )
        number += 1

    for event in visible(hand.events, viewer):
        current = reducer.current  # the bet to match before this event
        reducer.apply(event)
        match event:
            case ev.PostAnte(player=player, amount=amount):
                add(player, "Post Ante", amount=money(amount), is_allin=_all_in(reducer, player))
            case ev.PostBlind(player=player, amount=amount):
                kind = "Post BB" if live == 1 or posted == 1 else "Post SB"
                kind = "Straddle" if posted >= 2 else kind
                posted += 1
                add(player, kind, amount=money(amount), is_allin=event.all_in)
            case ev.PostDead(player=player, amount=amount):
                add(player, "Post Dead", amount=money(amount))
            case ev.DealHole(player=player, cards=cards):
                if all(card is not None for card in cards):
                    add(player, "Dealt Cards", cards=_cards(cards))
            case ev.DealBoard(cards=cards):
                street = _STREETS[min(len(rounds), 3)]
                rounds.append({"id": len(rounds), "street": street, "cards": _cards(cards),
                               "actions": []})  # fmt: skip
            case ev.Fold(player=player):
                add(player, "Fold")
            case ev.Check(player=player):
                add(player, "Check")
            case ev.Call(player=player, amount=amount):
                add(player, "Call", amount=money(amount), is_allin=event.all_in)
            case ev.Bet(player=player, amount=amount):
                kind = "Bet" if current == 0 else "Raise"
                add(player, kind, amount=money(amount), is_allin=event.all_in)
            case ev.Show(player=player, cards=cards):
                _showdown(rounds)
                add(player, "Shows Cards", cards=_cards(cards))
            case ev.Muck(player=player):
                _showdown(rounds)
                add(player, "Mucks Cards")
            case _:
                pass
    return rounds


def _all_in(reducer: Reducer, player: int) -> bool:
    return reducer.stacks[player] == 0


def _showdown(rounds: list[dict[str, Any]]) -> None:
    if rounds[-1]["street"] != "Showdown":
        rounds.append({"id": len(rounds), "street": "Showdown", "actions": []})


def _pots(hand: Hand, money: _Money) -> list[dict[str, Any]]:
    wins: dict[int, dict[int, int]] = {}
    pots: list[dict[str, Any]] = []
    for event in hand.events:
        if isinstance(event, ev.Announce):
            pots.append({"number": event.pot, "amount": money(event.amount),
                         "rake": money(event.commission)})  # fmt: skip
            wins[event.pot] = {}
        elif isinstance(event, ev.Collect):
            share = wins[event.pot]
            share[event.player] = share.get(event.player, 0) + event.amount
    pots.sort(key=lambda pot: pot["number"])
    for pot in pots:
        pot["player_wins"] = [
            {"player_id": p, "win_amount": money(won)} for p, won in wins[pot["number"]].items()
        ]
    return pots


def _cards(cards: Sequence[Card | None]) -> list[str]:
    return [str(card) for card in cards if card is not None]
