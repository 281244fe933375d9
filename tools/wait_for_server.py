"""Wait until a URL answers (CI starts ``croupier serve`` and waits for it with this):
``python3 tools/wait_for_server.py URL SECONDS``; prints the answer, exits 1 on time out."""

from __future__ import annotations

import sys
import time
import urllib.request


def main() -> int:
    url, seconds = sys.argv[1], float(sys.argv[2])
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                print(reply.read().decode()[:400])
                return 0
        except OSError:
            time.sleep(1)
    print(f"{url} did not answer within {seconds:g} s", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
