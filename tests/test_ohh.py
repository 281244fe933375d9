"""Open Hand History export, validated by the spec's published implementation (ohh-pydantic).

ohh-pydantic 0.1.1 models the spec (1.4.6) in pydantic; one of its fields is not in the spec:
``bet_limit.action``, which it requires. The validation below makes that one field optional
(the spec's ``bet_limit`` is ``bet_type`` and ``bet_cap``) and keeps every other rule of the
model. Beyond the model, the figures must add up: each player's chips from the actions and the
pots equal the engine's finishing stacks.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Literal

import open_hh_models.models as models
import pytest

from croupier.deck import SeededShuffler
from croupier.events import HOUSE
from croupier.games import game
from croupier.hand import Hand
from croupier.history.ohh import OHHError, dump_ohh, ohh_from_hand
from croupier.rulebooks import load_rulebook
from scripted import play_randomly

WHEN = datetime(2026, 2, 3, 4, 5, 6, tzinfo=UTC)


class SpecBetLimit(models.BetLimit):  # type: ignore[misc, name-defined]
    action: Literal["Dealt Cards", "PotLimit", "FixedLimit"] | None = None


class SpecHandHistory(models.OpenHandHistory):  # type: ignore[misc, name-defined]
    bet_limit: SpecBetLimit


def hands(count: int) -> list[Hand]:
    rng = random.Random(7)
    tables = [
        ("rws", "holdem", "no-limit", {}),
        ("au-casino", "omaha", "pot", {"commission": "percentage", "commission_rate": "5%"}),
        ("cardroom", "holdem", "fixed", {}),
    ]
    out = []
    for k in range(count):
        book, name, structure, options = tables[k % 3]
        rules = load_rulebook(book).rules(name, structure, stakes=(5, 10), **options)  # type: ignore[arg-type]
        if k % 4 == 3:
            rules = replace(rules, game=game("omaha8"))
        if k % 5 == 4:
            rules = replace(rules, ante=2)
        stacks = [rng.choice([40, 150, 400, 1000]) for _ in range(rng.randint(2, 6))]
        hand = Hand(rules, stacks, shuffler=SeededShuffler(100 + k))
        play_randomly(hand, rng, checks=False)
        out.append(hand)
    return out


def stacks_from(ohh: dict[str, Any]) -> dict[int, Decimal]:
    """Each player's chips at the end, from the OHH figures alone."""
    chips = {p["id"]: Decimal(str(p["starting_stack"])) for p in ohh["players"]}
    for round_ in ohh["rounds"]:
        for action in round_["actions"]:
            if action.get("amount") is not None:
                chips[action["player_id"]] -= Decimal(str(action["amount"]))
    put = sum(Decimal(str(p["starting_stack"])) for p in ohh["players"]) - sum(chips.values())
    contested = sum(Decimal(str(pot["amount"])) for pot in ohh["pots"])
    returned = put - contested  # uncalled chips: back to the one who bet them
    for pot in ohh["pots"]:
        paid = sum(Decimal(str(w["win_amount"])) for w in pot["player_wins"])
        assert paid + Decimal(str(pot["rake"])) == Decimal(str(pot["amount"]))
        for win in pot["player_wins"]:
            chips[win["player_id"]] += Decimal(str(win["win_amount"]))
    return {p: c for p, c in chips.items()} | {"returned": returned}  # type: ignore[dict-item]


def test_every_holdem_and_omaha_hand_is_valid_open_hand_history() -> None:
    for hand in hands(90):
        text = dump_ohh(hand, viewer=HOUSE, when=WHEN, hand_id=12, table="t1", max_seats=9)
        data = json.loads(text)
        parsed = SpecHandHistory.model_validate(data["ohh"])
        assert parsed.game_type in ("Holdem", "Omaha", "OmahaHiLo")
        assert parsed.start_date_utc == WHEN
        figures = stacks_from(data["ohh"])
        returned = figures.pop("returned")
        final = {p: figures[p] for p in range(hand.players)}
        uncalled = sum(e.amount for e in hand.events if type(e).__name__ == "ReturnUncalled")
        assert returned == uncalled
        bettor = {e.player: e.amount for e in hand.events if type(e).__name__ == "ReturnUncalled"}
        for player, amount in bettor.items():
            final[player] += amount
        assert final == {p: Decimal(hand.stacks[p]) for p in range(hand.players)}


def test_the_models_own_bet_limit_wants_a_field_the_spec_lacks() -> None:
    data = ohh_from_hand(hands(1)[0], viewer=HOUSE, when=WHEN)
    with pytest.raises(Exception, match="action"):
        models.OpenHandHistory.model_validate(data["ohh"])


def test_a_seats_own_history_has_its_cards_alone() -> None:
    for hand in hands(12):
        for seat in range(hand.players):
            ohh = ohh_from_hand(hand, viewer=seat, when=WHEN)["ohh"]
            SpecHandHistory.model_validate(ohh)
            dealt = [a for r in ohh["rounds"] for a in r["actions"] if a["action"] == "Dealt Cards"]
            assert [a["player_id"] for a in dealt] == [seat]
            assert dealt[0]["cards"] == [str(c) for c in hand.hole[seat]]
            assert ohh["hero_player_id"] == seat


def test_only_finished_holdem_and_omaha_hands() -> None:
    rules = load_rulebook("au-casino").rules("stud7", stakes=10, ante=1)
    hand = Hand(rules, [100, 100], shuffler=SeededShuffler(1))
    with pytest.raises(OHHError, match="finished"):
        ohh_from_hand(hand, viewer=HOUSE, when=WHEN)
    play_randomly(hand, random.Random(1), checks=False)
    with pytest.raises(OHHError, match="not stud7"):
        ohh_from_hand(hand, viewer=HOUSE, when=WHEN)
    holdem = Hand(load_rulebook("rws").rules("holdem", stakes=(1, 2)), [50, 50])
    holdem.fold()
    with pytest.raises(OHHError, match="time zone"):
        ohh_from_hand(holdem, viewer=HOUSE, when=datetime(2026, 1, 1))
