#!/usr/bin/env bash
# The browser suite N times in a row (default 3) while two CPU-bound loops run
# beside it, as when other work shares a 2-core machine: the suite is steady
# if no run fails. Stops at the first failing run; prints each run's seconds.
# Usage: CUTLINE_BIN=./build/cutline scripts/browser-steady.sh [N [PLAYWRIGHT ARGS...]]
set -uo pipefail
runs=${1:-3}
shift || true
busy=()
for _ in 1 2; do
  ( while :; do :; done ) &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT
echo "browser-steady: ${runs} runs beside two busy loops (pids ${busy[*]})"
lines=()
status=0
for ((i = 1; i <= runs; i++)); do
  start=$SECONDS
  npx playwright test "$@"
  status=$?
  lines+=("run $i: $((SECONDS - start)) s, $([[ $status -eq 0 ]] && echo passed || echo "FAILED (exit $status)")")
  [[ $status -ne 0 ]] && break
done
printf 'browser-steady: %s\n' "${lines[@]}"
exit "$status"
