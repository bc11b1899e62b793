#!/bin/sh
# Every benchmark of bench/README.md, one after another, from the repo root.
# Each prints its ratio as its last line. About 1-2 minutes each on a 2-core laptop.
set -e
cd "$(dirname "$0")/.."
PY=.venv/bin/python
for b in parse_speed scan_speed memory lint_speed; do
    [ -f "bench/$b.py" ] || continue
    echo "== bench/$b.py"
    "$PY" "bench/$b.py"
    echo
done
