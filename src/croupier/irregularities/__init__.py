"""Irregularities: a floor ruling on what went wrong at the table, by the book in force.

``Floor("qld").report(hand, "exposed p3 Qh")`` answers with the :class:`Ruling` of the house's
book (the situation, the clause in force, how it was decided, what happens, the events applied)
and corrects the hand with the primitives of :mod:`croupier.corrections`. Where the book leaves
the decision to the floor (or a player), the ruling lists the choices and the hand waits:
``floor.decide(hand, "refund")``. A report the book does not allow now raises
:class:`IrregularityError` naming the clause. Every ruling is in the hand's log, so a hand rebuilt
from it (:mod:`croupier.rebuild`) replays it. The situations, their rulings book by book and
their readings: docs/irregularities-spec.md Part 2 (I1-I31); the reports are the dealer
assistant's commands (docs/dealer.md).
"""

from croupier.corrections import IrregularityError
from croupier.irregularities import betting as _betting  # noqa: F401
from croupier.irregularities import board, cards, deal, players  # noqa: F401 - register rulings
from croupier.irregularities.betting import apply_action, chip_action
from croupier.irregularities.floor import Floor, cut_off_passed, voluntary_actors
from croupier.irregularities.model import Choice, Rule, Ruling
from croupier.irregularities.reports import REPORTS, Report, ReportError, parse_report

__all__ = [
    "REPORTS",
    "Choice",
    "Floor",
    "IrregularityError",
    "Report",
    "ReportError",
    "Rule",
    "Ruling",
    "apply_action",
    "chip_action",
    "cut_off_passed",
    "parse_report",
    "voluntary_actors",
]
