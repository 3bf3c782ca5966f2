#!/usr/bin/env bash
# `make test` after its set-up: lint, then the type check and the test suite side by side.
#
# Most of the suite waits (on servers, browsers, brokers and simulated tables), so the type check
# runs beside it on the cores the tests leave idle instead of before it. Either failing fails the
# run; each one's output is printed whole, and pytest's closing line is repeated last so that it
# stays the run's closing line. pytest's exit 5 (no tests collected) fails on purpose.
set -uo pipefail
BIN=${BIN:-.venv/bin}
"$BIN/ruff" check . || exit 1
"$BIN/ruff" format --check . || exit 1

# bytecode once, before the workers and servers start (each would otherwise compile it again)
"$BIN/python" -m compileall -q -j 0 engine bridge vision firmware >/dev/null || exit 1

typelog=$(mktemp)
pytestlog=$(mktemp)
trap 'rm -f "$typelog" "$pytestlog"' EXIT
"$BIN/mypy" >"$typelog" 2>&1 &
typecheck=$!

"$BIN/python" -m pytest "$@" 2>&1 | tee "$pytestlog"
rc=${PIPESTATUS[0]}
if [ "$rc" -eq 5 ]; then
    echo "pytest collected no tests: failing on purpose"
    rc=1
fi

wait "$typecheck"
trc=$?
echo "--- mypy ---"
cat "$typelog"
[ "$trc" -eq 0 ] || echo "mypy failed (exit $trc)"
echo "--- pytest ---"
tail -n 1 "$pytestlog"
[ "$rc" -eq 0 ] && [ "$trc" -eq 0 ]
