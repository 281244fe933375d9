"""Colouring up: taking a chip denomination out of play once no level needs it (league 18).

League 48 has the players stack their chips to be exchanged; the book describes no race for the
chips that do not make a whole larger chip, so the common procedure is used (as the TDA's):

1. Each player's small chips are exchanged for larger ones at full value as far as they go;
   the rest (less than one larger chip) are the player's odd chips.
2. At each table, the players holding odd chips are dealt one card face up per odd chip from a
   shuffled deck, starting with seat 1, each player receiving all their cards before the next.
3. The larger chips go one each, never two to a player, to the highest cards (rank, then suit:
   spades, hearts, diamonds, clubs). A player whose whole stack is odd chips gets a chip before
   the race (nobody is raced out) when the table has one for them.

How many larger chips a table races for: the rooms round each table's odd value to the nearest
chip, which makes or destroys chips. Here the tournament's odd value is exactly a whole number
of larger chips whenever every chip sold is (the settings check it), and those chips are shared
among the tables by largest remainder (ties by a seeded draw), so the total is kept to the chip.
Only if a player's removal by the director (league 36) took an odd amount out of play is the
total rounded, to the nearest larger chip, and the difference is reported.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from croupier.cards import Card, DeckKind
from croupier.deck import Deck, SeededShuffler

__all__ = ["ColourUp", "Race", "RaceEntry", "colour_up"]


@dataclass(frozen=True)
class RaceEntry:
    """One player at a chip race: the odd chips they held, the cards they were dealt for them,
    and whether they got a larger chip. ``guaranteed``: given one before the race, as their
    last chips; ``raced``: their cards counted (when a table has too few chips for all the
    players down to odd chips, only those race)."""

    seat: int
    player: str
    odd_chips: int
    cards: tuple[Card, ...]
    won: bool
    guaranteed: bool = False
    raced: bool = True


@dataclass(frozen=True)
class Race:
    """The race at one table: ``chips`` larger chips for the players' odd chips."""

    table: int
    chips: int
    entries: tuple[RaceEntry, ...]


@dataclass(frozen=True)
class ColourUp:
    """A denomination leaving play: every player's stack after it, the races, and the chips
    made (positive) or taken (negative) by rounding, 0 unless a removal made it necessary."""

    removed: int
    to: int
    stacks: tuple[tuple[str, int], ...]
    races: tuple[Race, ...]
    adjustment: int


def colour_up(
    tables: Mapping[int, Sequence[tuple[int, str, int]]], removed: int, to: int, seed: int
) -> ColourUp:
    """Colour ``removed`` chips up to ``to`` at every table; ``tables`` maps a table to its
    players as (seat, player, stack), each stack a multiple of ``removed``."""
    rng = random.Random(seed)
    shuffler = SeededShuffler(seed)
    odd = {t: sum(stack % to for _, _, stack in players) for t, players in tables.items()}
    total = sum(odd.values())
    whole, left = divmod(total, to)
    chips = whole + (2 * left >= to)  # exact unless chips left play unevenly (module docstring)
    share = {t: value // to for t, value in odd.items()}
    order = sorted(odd, key=lambda t: (-(odd[t] % to), rng.random()))
    for table in order[: chips - sum(share.values())]:
        share[table] += 1
    stacks: list[tuple[str, int]] = []
    races = []
    for table, players in tables.items():
        race = _race(table, players, removed, to, share[table], shuffler)
        won = {entry.player for entry in race.entries if entry.won}
        stacks.extend(
            (player, stack - stack % to + to * (player in won)) for _, player, stack in players
        )
        if race.entries:
            races.append(race)
    return ColourUp(removed, to, tuple(stacks), tuple(races), chips * to - total)


def _race(
    table: int,
    players: Sequence[tuple[int, str, int]],
    removed: int,
    to: int,
    chips: int,
    shuffler: SeededShuffler,
) -> Race:
    holders = sorted((seat, player, stack) for seat, player, stack in players if stack % to)
    deck = Deck.shuffled(DeckKind.STANDARD, shuffler)
    dealt = {player: deck.deal((stack % to) // removed) for _, player, stack in holders}
    short = [player for _, player, stack in holders if stack < to]
    rest = [player for _, player, stack in holders if stack >= to]
    enough = chips >= len(short)
    guaranteed = short if enough else []
    racing = rest if enough else short
    places = chips - len(guaranteed)
    by_card = sorted(racing, key=lambda player: max(dealt[player]), reverse=True)
    winners = set(guaranteed) | set(by_card[:places])
    entries = tuple(
        RaceEntry(
            seat,
            player,
            (stack % to) // removed,
            dealt[player],
            player in winners,
            player in guaranteed,
            player in racing,
        )
        for seat, player, stack in holders
    )
    return Race(table, chips, entries)
