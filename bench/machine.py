"""What the benchmark scripts report about the machine they ran on."""

from __future__ import annotations

import platform


def cpu_model() -> str:
    """The processor's model name (from /proc/cpuinfo on Linux), else what platform says."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def engine() -> str:
    """Whether this croupier runs compiled (mypyc, see setup.py) or as pure Python."""
    import croupier

    compiled = croupier.compiled_modules()
    if not compiled:
        return "croupier pure Python (CROUPIER_PURE=1 or no C compiler at install)"
    return f"croupier compiled with mypyc ({len(compiled)} modules)"
