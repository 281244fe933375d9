#!/usr/bin/env bash
# The project's own Python environment, .venv in the checkout, made when it is missing.
#
# Debian's and Ubuntu's python3 refuse `pip install` outside a virtual environment (PEP 668),
# and make venvs only with their python3-venv package, which a stock system may lack: then it
# is installed with apt-get (as root, or with sudo), as tools/chromium.sh does for Chromium.
# The README's lines then install into .venv and run from it.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -x .venv/bin/python ] && .venv/bin/python -m pip --version >/dev/null 2>&1; then
    exit 0
fi
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        sudo="sudo"
    fi
    echo "tools/venv.sh: installing Debian's python3-venv (python3 cannot make a venv without it)" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq python3-venv >/dev/null
fi
rm -rf .venv
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
echo "tools/venv.sh: made .venv (activate it with: . .venv/bin/activate)" >&2
