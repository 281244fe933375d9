"""croupier: poker dealing and adjudication exactly as a casino rulebook says."""

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from croupier.cards import Card, CardError, DeckKind, Rank, Suit, format_cards, parse_cards
from croupier.deck import Deck

__version__ = "0.1.0"


def compiled_modules() -> tuple[str, ...]:
    """The croupier modules installed as compiled extensions (mypyc, see setup.py); empty for
    a pure-Python install."""
    package = Path(__file__).parent
    found = {
        ".".join(("croupier", *path.relative_to(package).parent.parts, path.name.split(".")[0]))
        for suffix in EXTENSION_SUFFIXES
        for path in package.rglob(f"*{suffix}")
    }
    return tuple(sorted(found))


__all__ = [
    "Card",
    "CardError",
    "Deck",
    "DeckKind",
    "Rank",
    "Suit",
    "__version__",
    "compiled_modules",
    "format_cards",
    "parse_cards",
]
