#!/usr/bin/env bash
# How long the README's lines take on a fresh machine: a clean copy of the checkout (no build
# folder), a new venv in a temporary folder and an empty pip cache; then the first line (install
# and the main job) and the test line's install. Target: the first line in at most 150 s here.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work=$(mktemp -d -t croupier-install.XXXXXX)
trap 'rm -rf "$work"' EXIT
(cd "$root" && git ls-files -z | xargs -0 cp --parents -t "$work")
cd "$work"
python3 -m venv venv
source venv/bin/activate
export PIP_CACHE_DIR="$work/pip-cache" PIP_DISABLE_PIP_VERSION_CHECK=1
main=$(python3 tools/readme_commands.py main)
tests=$(python3 tools/readme_commands.py tests)
seconds() { python3 -c "import time; print(f'{time.time() - $1:6.1f}')"; }
start=$(python3 -c "import time; print(time.time())")
bash -c "$main" > main.log 2>&1 || { tail -20 main.log; exit 1; }
first=$(seconds "$start")
start=$(python3 -c "import time; print(time.time())")
bash -c "${tests%%&&*}" > tests.log 2>&1 || { tail -20 tests.log; exit 1; }
second=$(seconds "$start")
cpu=$(python3 -c "import sys; sys.path.insert(0, 'bench'); import machine; print(machine.cpu_model())")
echo "machine       $cpu, $(nproc) cores"
echo "first line    $first s  (install, then croupier play --auto --hands 5; target <= 150 s)"
echo "test install  $second s  (the test line's install; compiled modules reused, not rebuilt)"
echo "compiled      $(python3 -c 'import croupier; print(len(croupier.compiled_modules()))') modules"
