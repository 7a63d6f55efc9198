#!/usr/bin/env bash
# Runs make targets one after another as named stages, and ends with one line
# per stage and its seconds (also when a stage fails: the lines then say which
# one, and the run stops there). `make test` and `make test-long` use it.
# Usage: scripts/stages.sh TITLE NAME=TARGET [NAME=TARGET ...]
set -uo pipefail
title=$1
shift
lines=()
status=0
start_all=$SECONDS
for stage in "$@"; do
  name=${stage%%=*} target=${stage#*=}
  echo "==> $title: $name (make $target)"
  start=$SECONDS
  make --no-print-directory "$target"
  status=$?
  took=$((SECONDS - start))
  if [[ $status -ne 0 ]]; then
    lines+=("$(printf '%-13s %5d s  FAILED (make %s, exit %d)' "$name" "$took" "$target" "$status")")
    break
  fi
  lines+=("$(printf '%-13s %5d s' "$name" "$took")")
done
echo
echo "$title: seconds per stage"
printf '  %s\n' "${lines[@]}"
if [[ $status -eq 0 ]]; then
  printf '  %-13s %5d s  (%s)\n' "total" "$((SECONDS - start_all))" "all passed"
else
  printf '  %-13s %5d s  (%s)\n' "total" "$((SECONDS - start_all))" "failed"
fi
exit "$status"
