"""Build croupier, compiling the engine's hot modules with mypyc where a C compiler is present.

The compiled modules are the same typed source as the pure-Python ones, and every test runs
against whichever is installed. ``CROUPIER_PURE=1 pip install -e .`` installs without compiling
(and removes extensions an earlier editable install left beside the sources), which is what a
developer editing the engine usually wants: an editable install's extensions shadow the .py files.

Compiled extensions are kept under ``build/compiled/``, keyed by a hash of the C code mypyc
generated (and of the compiler and Python), so installing again from an unchanged source, as the
README's test line does after its first line, copies them instead of compiling twice.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/croupier/frozen.py",
    "src/croupier/deck.py",
    "src/croupier/evaluate/scalar.py",
    "src/croupier/events.py",
    "src/croupier/games.py",
    "src/croupier/betting.py",
    "src/croupier/pots.py",
    "src/croupier/forced.py",
    "src/croupier/rules.py",
    "src/croupier/positions.py",
    "src/croupier/dealt.py",
    "src/croupier/valuation.py",
    "src/croupier/steps.py",
    "src/croupier/hand_state.py",
    "src/croupier/hand.py",
    "src/croupier/views.py",
    "src/croupier/autoplay.py",
    "src/croupier/history/layout.py",
    "src/croupier/history/errors.py",
    "src/croupier/history/actions.py",
    "src/croupier/history/fields.py",
    "src/croupier/history/phh.py",
    "src/croupier/history/dealing.py",
    "src/croupier/history/standard.py",
    "src/croupier/history/replay.py",
    "src/croupier/history/log.py",
    "src/croupier/server/rooms/game_table.py",
    "src/croupier/server/rooms/room.py",
]
CACHE = Path("build", "compiled")
# A shared library's functions are interposable by default: every call between the engine's own
# functions goes through the PLT and none can be inlined. The engine exports nothing but its
# module initialisers (which Python marks visible), so bind its calls locally (bench/hands.py:
# 12% more hands a second).
LINUX_FLAGS = ["-fno-semantic-interposition", "-fvisibility=hidden", "-fno-plt"]


def pure() -> bool:
    return os.environ.get("CROUPIER_PURE", "") not in ("", "0")


def extensions() -> list[object]:
    if {"egg_info", "dist_info"} & set(sys.argv[1:]):
        return []  # pip asking for requirements or metadata: mypyc's type check (15 s) waits
    if pure():
        for built in [*Path("src").glob("croupier*.so"), *Path("src/croupier").rglob("*.so")]:
            built.unlink()  # left by a compiled editable install; it would shadow the source
        return []
    from mypyc.build import mypycify

    # The build type-checks with its own configuration (mypyc.ini): pip's isolated build
    # environment holds only the build requirements, not numpy or numba, and no compiled module
    # needs their types. The project's strict check is `mypy --strict src`, run by CI.
    options = ["--config-file", "mypyc.ini"]
    modules = mypycify([*options, *COMPILED], opt_level="3", group_name="croupier")
    for module in modules:
        module.optional = True  # no C compiler: the pure-Python modules are used instead
        if sys.platform.startswith("linux"):
            module.extra_compile_args += LINUX_FLAGS
    return modules


class CachedBuildExt(build_ext):  # type: ignore[misc]
    """build_ext that reuses an extension compiled earlier from the very same C code."""

    def build_extension(self, ext: object) -> None:
        target = Path(self.get_ext_fullpath(ext.name))  # type: ignore[attr-defined]
        cached = CACHE / _fingerprint(ext) / target.name
        if cached.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            # A fresh modification time: an editable install copies the build into the source
            # tree only over an older file, so copy2's old time kept a stale extension there.
            shutil.copy(cached, target)
            return
        super().build_extension(ext)
        if target.exists():  # an optional extension that failed to compile leaves nothing
            cached.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(target, cached)


def _fingerprint(ext: object) -> str:
    """What the compiled extension depends on: its C sources and the headers mypyc wrote
    beside them, the flags, mypyc's version (its runtime is included) and this Python."""
    import mypy.version

    digest = hashlib.sha256()
    settings = (
        ext.name, ext.extra_compile_args, ext.define_macros,  # type: ignore[attr-defined]
        mypy.version.__version__, sys.version, sysconfig.get_config_var("EXT_SUFFIX"),
        sysconfig.get_config_var("CC"), sysconfig.get_config_var("CFLAGS"),
    )  # fmt: skip
    digest.update(repr(settings).encode())
    sources = [Path(s) for s in ext.sources]  # type: ignore[attr-defined]
    headers = sorted({h for s in sources for h in s.parent.glob("*.h")})
    for path in [*sources, *headers]:
        digest.update(str(path).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


setup(ext_modules=extensions(), cmdclass={"build_ext": CachedBuildExt})
