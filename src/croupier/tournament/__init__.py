"""Multi-table tournaments under the league's rules (the league rulebook, seeds/004).

A :class:`Tournament` is a deterministic state machine: an injected clock, a seed, and an event
log from which it can be rebuilt. It draws the seats and the button (league 2), runs the levels
and the clock, keeps the blinds due across hands (league 12), balances and breaks tables
(league 14), colours up chips (league 18, 48), takes late entries (league 19), treats absent and
penalised players (league 25, 27, 35, 36), and pays out. Hands are played by any table engine
through :class:`HandPlayer` (:mod:`croupier.tournament.interface`); :class:`EngineHands` does it
with the hand engine and bots.
"""

from croupier.tournament.chips import ColourUp, Race, RaceEntry, colour_up
from croupier.tournament.clock import Clock, ManualClock, StageClock
from croupier.tournament.core import Tournament
from croupier.tournament.driver import DealtHand, EngineHands, hand_forced_bets
from croupier.tournament.interface import ForcedBets, HandPlayer, HandResult, HandSetup, SeatInHand
from croupier.tournament.payouts import icm_deal, icm_equities, prizes
from croupier.tournament.runner import run, standard_settings
from croupier.tournament.seating import Positions, hands_until_big_blind
from croupier.tournament.settings import (
    AddOn,
    Break,
    Level,
    PayoutPlan,
    PayoutRange,
    Purchase,
    Rebuys,
    TournamentError,
    TournamentSettings,
)
from croupier.tournament.state import Standing, Status

__all__ = [
    "AddOn",
    "Break",
    "Clock",
    "ColourUp",
    "DealtHand",
    "EngineHands",
    "ForcedBets",
    "HandPlayer",
    "HandResult",
    "HandSetup",
    "Level",
    "ManualClock",
    "PayoutPlan",
    "PayoutRange",
    "Positions",
    "Purchase",
    "Race",
    "RaceEntry",
    "Rebuys",
    "SeatInHand",
    "StageClock",
    "Standing",
    "Status",
    "Tournament",
    "TournamentError",
    "TournamentSettings",
    "colour_up",
    "hand_forced_bets",
    "hands_until_big_blind",
    "icm_deal",
    "icm_equities",
    "prizes",
    "run",
    "standard_settings",
]
