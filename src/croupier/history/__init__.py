"""Hand histories: the Poker Hand History format (PHH) and replays on the engine."""

from croupier.history.log import dump_event_log, event_record
from croupier.history.ohh import OHHError, dump_ohh, ohh_from_hand
from croupier.history.phh import (
    VARIANTS,
    Action,
    ActionKind,
    Amount,
    HandHistory,
    Origin,
    PHHError,
    dump_phh,
    dump_phhs,
    format_phh_cards,
    load_phh,
    load_phhs,
    parse_action,
    parse_phh_cards,
)
from croupier.history.replay import ReplayPot, ReplayResult, replay
from croupier.history.standard import (
    SUPPORTED_VARIANTS,
    chip_scale,
    standard_forced_bets,
    standard_rules,
)
from croupier.history.text import TextHistoryError, Tournament, format_pokerstars
from croupier.history.writer import history_from_hand

__all__ = [
    "SUPPORTED_VARIANTS",
    "VARIANTS",
    "Action",
    "ActionKind",
    "Amount",
    "HandHistory",
    "OHHError",
    "Origin",
    "PHHError",
    "ReplayPot",
    "ReplayResult",
    "TextHistoryError",
    "Tournament",
    "chip_scale",
    "dump_event_log",
    "dump_ohh",
    "dump_phh",
    "dump_phhs",
    "event_record",
    "format_phh_cards",
    "format_pokerstars",
    "history_from_hand",
    "load_phh",
    "load_phhs",
    "ohh_from_hand",
    "parse_action",
    "parse_phh_cards",
    "replay",
    "standard_forced_bets",
    "standard_rules",
]
