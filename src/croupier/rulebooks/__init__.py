"""Rulebooks as data: each shipped profile is a TOML file in this package.

``load_rulebook("qld").rules("holdem", "pot", stakes=10)`` gives the
:class:`~croupier.hand.Rules` for a Queensland full-pot table with a $10 minimum wager; a user's
own file loads the same way by path, and may start from a shipped profile with
``extends = "cardroom"`` (see :mod:`croupier.rulebooks.loader`).

Every setting carries the clause it comes from. The citation form differs per book, as each
book numbers its rules differently:

==========  =====================================================================  ==============
profile     form                                                                   example
==========  =====================================================================  ==============
au-casino   ``au`` rule.sub-rule, then lettered paragraph and roman item           au 11.5(g)
            as printed; definitions by term                                        au 1.1 'Raise'
rws         ``rws`` rule number as printed; definitions by term                   rws 3.14.3
qld         ``qld s`` section, subsection, paragraph of Schedule 14                qld s28(4)(b)
cardroom    ``cardroom`` section heading (buy-in, misdeals, dead hands,            cardroom ties
            irregularities, betting, showdown, ties), then the rule number         5(b)
league      ``league`` paragraph number, counting the rules' paragraphs from the   league 12
            top (dress standards = 1, odd chips = 15); headed parts by name        league one-chip
==========  =====================================================================  ==============
"""

from croupier.rulebooks.book import PARAMETERS, Rulebook
from croupier.rulebooks.loader import load_rulebook, rulebook_names
from croupier.rulebooks.schema import (
    SPECS,
    Combination,
    GameEntry,
    Gap,
    RulebookError,
    Setting,
    Spec,
    format_value,
)

__all__ = [
    "PARAMETERS",
    "SPECS",
    "Combination",
    "GameEntry",
    "Gap",
    "Rulebook",
    "RulebookError",
    "Setting",
    "Spec",
    "format_value",
    "load_rulebook",
    "rulebook_names",
]
