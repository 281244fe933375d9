"""Print one of the README's two command lines, so that CI runs exactly what a new user types.

``python3 tools/readme_commands.py main`` prints the first ``sh`` block (install and run the main
job), ``tests`` the second (install the test dependencies and run the suite).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = ("main", "tests")


def commands(text: str) -> dict[str, str]:
    """The README's ``sh`` blocks by name: each must be exactly one command line."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    if len(blocks) < len(BLOCKS):
        raise SystemExit(f"README.md has {len(blocks)} sh blocks, expected {len(BLOCKS)}")
    found = {}
    for name, block in zip(BLOCKS, blocks, strict=False):
        lines = [line for line in block.splitlines() if line.strip()]
        if len(lines) != 1:
            raise SystemExit(f"README.md's {name} block must be one line, got {len(lines)}")
        found[name] = lines[0]
    return found


if __name__ == "__main__":
    which = sys.argv[1] if len(sys.argv) > 1 else ""
    if which not in BLOCKS:
        raise SystemExit(f"usage: readme_commands.py {'|'.join(BLOCKS)}")
    print(commands(README.read_text(encoding="utf-8"))[which])
