#!/usr/bin/env bash
# Debian's Chromium for the browser tests (tests/test_browser*.py drive it with playwright).
# Installs the `chromium` package with apt when it is missing; does nothing when it is there.
# The tests never download a browser of their own.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq chromium >/dev/null
command -v chromium >/dev/null || { echo "tools/chromium.sh: chromium did not install" >&2; exit 1; }
