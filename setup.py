"""Build croupier, compiling the engine's hot modules with mypyc where a C compiler is present.

The compiled modules are the same typed source as the pure-Python ones, and every test runs
against whichever is installed. ``CROUPIER_PURE=1 pip install -e .`` installs without compiling
(and removes extensions an earlier editable install left beside the sources), which is what a
developer editing the engine usually wants: an editable install's extensions shadow the .py files.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import setup

COMPILED = [
    "src/croupier/frozen.py",
    "src/croupier/deck.py",
    "src/croupier/evaluate/scalar.py",
    "src/croupier/events.py",
    "src/croupier/games.py",
    "src/croupier/betting.py",
    "src/croupier/pots.py",
    "src/croupier/hand.py",
    "src/croupier/history/layout.py",
    "src/croupier/history/phh.py",
    "src/croupier/history/dealing.py",
    "src/croupier/history/replay.py",
]


def extensions() -> list[object]:
    if os.environ.get("CROUPIER_PURE", "") not in ("", "0"):
        for built in [*Path("src").glob("croupier*.so"), *Path("src/croupier").rglob("*.so")]:
            built.unlink()  # left by a compiled editable install; it would shadow the source
        return []
    from mypyc.build import mypycify

    modules = mypycify(COMPILED, opt_level="3", group_name="croupier")
    for module in modules:
        module.optional = True  # no C compiler: the pure-Python modules are used instead
    return modules


setup(ext_modules=extensions())
