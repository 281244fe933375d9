"""Starting points for a tournament's settings: level structures and payout plans a director
picks and then edits (the tournament director's console in the browser offers them). They are
house choices, not any book's: the league book sets no blind structure and no payouts. Each is
a tournament file's fields (:mod:`croupier.tournament.fileformat`), checked by
:func:`check_templates` (a test loads every one with every payout plan).
"""

from __future__ import annotations

from typing import Any

from croupier.tournament.fileformat import tournament_from_mapping
from croupier.tournament.settings import TournamentSettings

__all__ = ["LEVEL_TEMPLATES", "PAYOUT_TEMPLATES", "check_templates", "templates"]

DENOMINATIONS = [25, 100, 500, 1000, 5000]

# Small blind, big blind, big-blind ante; the minutes come from the template.
_LADDER = [
    (25, 50, 0), (50, 100, 0), (75, 150, 0), (100, 200, 200), (150, 300, 300),
    (200, 400, 400), (300, 600, 600), (400, 800, 800), (500, 1000, 1000),
    (700, 1400, 1400), (1000, 2000, 2000), (1500, 3000, 3000), (2000, 4000, 4000),
]  # fmt: skip


def _levels(minutes: int, break_every: int, break_minutes: int, count: int) -> list[Any]:
    levels: list[Any] = []
    for number, (small, big, ante) in enumerate(_LADDER[:count], start=1):
        level: dict[str, int] = {"small_blind": small, "big_blind": big, "minutes": minutes}
        if ante:
            level["big_blind_ante"] = ante
        levels.append(level)
        if number % break_every == 0 and number < count:
            levels.append({"break": break_minutes})
    return levels


LEVEL_TEMPLATES: dict[str, dict[str, Any]] = {
    "regular": {
        "title": "Regular: 20-minute levels, a 10-minute break every 4",
        "chips": 10000,
        "levels": _levels(20, 4, 10, 13),
    },
    "turbo": {
        "title": "Turbo: 10-minute levels, a 5-minute break every 6",
        "chips": 5000,
        "levels": _levels(10, 6, 5, 13),
    },
    "deep": {
        "title": "Deep stack: 30-minute levels, a 15-minute break every 3",
        "chips": 20000,
        "levels": _levels(30, 3, 15, 13),
    },
}

PAYOUT_TEMPLATES: dict[str, dict[str, Any]] = {
    "default": {"title": "The house default: 15% of the field paid, 1/place shares", "plan": None},
    "top3": {
        "title": "Top three: 50 / 30 / 20",
        "plan": {"unit": 1, "ranges": [{"from": 2, "percent": [50, 30, 20]}]},
    },
    "winner": {
        "title": "Winner takes all",
        "plan": {"unit": 1, "ranges": [{"from": 2, "percent": [100]}]},
    },
    "by_field": {
        "title": "By the field: 1 paid to 5 entries, 2 to 9, 3 to 18, then 5",
        "plan": {
            "unit": 1,
            "ranges": [
                {"from": 2, "to": 5, "percent": [100]},
                {"from": 6, "to": 9, "percent": [65, 35]},
                {"from": 10, "to": 18, "percent": [50, 30, 20]},
                {"from": 19, "percent": [40, 25, 16, 11, 8]},
            ],
        },
    },
}


def templates() -> dict[str, Any]:
    """The templates as the console offers them: the chips in play, each level structure and
    each payout plan, with its title."""
    return {
        "denominations": DENOMINATIONS,
        "levels": LEVEL_TEMPLATES,
        "payouts": PAYOUT_TEMPLATES,
    }


def check_templates() -> list[TournamentSettings]:
    """Every level template with every payout plan, as settings (raises on a bad one)."""
    made = []
    for name, levels in LEVEL_TEMPLATES.items():
        for plan in PAYOUT_TEMPLATES.values():
            data: dict[str, Any] = {
                "name": name,
                "denominations": DENOMINATIONS,
                "buy_in": {"price": 1000, "fee": 100, "chips": levels["chips"]},
                "levels": levels["levels"],
            }
            if plan["plan"] is not None:
                data["payouts"] = plan["plan"]
            made.append(tournament_from_mapping(data, f"template {name}"))
    return made
