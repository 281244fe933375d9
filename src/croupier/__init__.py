"""croupier: poker dealing and adjudication exactly as a casino rulebook says."""

from croupier.cards import Card, CardError, Deck, DeckKind, Rank, Suit, format_cards, parse_cards

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardError",
    "Deck",
    "DeckKind",
    "Rank",
    "Suit",
    "__version__",
    "format_cards",
    "parse_cards",
]
