#!/bin/bash
# `make bench-logs`: `cutline check --logs` against the size of the logs.
# Makes the logs of real runs (`cutline cluster --ranks 4 --rate max`) of
# 1x, 4x and 16x a 3 s run (longer runs, not copies: a copied log is not a
# run), and beside each a foreign log in the events format (docs/logs.md)
# of as many scales, written by examples/events_log/bank_snapshots.py
# (100,000 steps and 50 snapshots a scale), then times `check --logs` on
# each: events a second, peak RSS and RSS per event (/usr/bin/time -v).
# With BEFORE=<another cutline>, times that one too (e.g. main's, to
# compare). Prints a Markdown table (docs/performance.md).
#
#   bench/log_check_bench.sh CUTLINE [WORKDIR]
#   BEFORE=/path/to/old/cutline BEFORE_SCALES="1" bench/log_check_bench.sh ...
set -euo pipefail
cutline=$(realpath "${1:?usage: $0 CUTLINE [WORKDIR]}")
work=${2:-$(mktemp -d /tmp/cutline-logbench.XXXXXX)}
scales=${SCALES:-1 4 16}
before=${BEFORE:-}
before_scales=${BEFORE_SCALES:-$scales}  # the old checker is slow: limit it
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -x /usr/bin/python3 ] || { echo "needs /usr/bin/python3 (the foreign log's writer)" >&2; exit 2; }
writer="$(dirname "$(realpath "$0")")/../examples/events_log/bank_snapshots.py"
mkdir -p "$work"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | log | log size | events | checker | time | events/s | peak RSS | bytes/event |"
echo "|---|---|---|---|---|---|---|---|---|"

time_check() {  # binary label logs events size scale format
  local bin=$1 label=$2 logs=$3 events=$4 size=$5 scale=$6 format=$7
  local out="$work/out-$label-$format-$scale.txt" t="$work/time-$label-$format-$scale.txt"
  local how=()
  [ "$format" = events ] && how=(--format events)
  /usr/bin/time -v "$bin" check --logs "$logs" "${how[@]}" >"$out" 2>"$t" || true
  local wall rss secs
  wall=$(grep 'Elapsed (wall clock)' "$t" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$t" | awk '{print $NF}')
  secs=$(echo "$wall" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  local rate
  rate=$(awk -v e="$events" -v s="$secs" 'BEGIN { if (s > 0) printf "%.2f M", e / s / 1e6; else print "-" }')
  local per
  per=$(awk -v r="$rss" -v e="$events" 'BEGIN { printf "%.0f", r * 1024 / e }')
  echo "| ${scale}x | $format | $size | $events | $label | ${secs} s | $rate | $((rss / 1024)) MB | $per |"
  echo "    $label ($format): $(tail -1 "$out" | cut -c1-160)" >>"$work/verdicts.txt"
}

for scale in $scales; do
  logs="$work/logs-${scale}x"
  if [ ! -d "$logs" ]; then
    "$cutline" cluster --ranks 4 --duration "$((3 * scale))s" --rate max \
      --snapshot-every 100ms --log-dir "$logs" >"$work/run-${scale}x.txt" 2>&1
  fi
  events=$(cat "$logs"/rank-*.jsonl | wc -l)
  events=$((events - 4))  # the header lines
  size=$(du -sh "$logs" | cut -f1)
  echo "${scale}x:" >>"$work/verdicts.txt"
  time_check "$cutline" after "$logs" "$events" "$size" "$scale" cluster
  if [ -n "$before" ] && [[ " $before_scales " == *" $scale "* ]]; then time_check "$(realpath "$before")" before "$logs" "$events" "$size" "$scale" cluster; fi
  foreign="$work/foreign-${scale}x"
  if [ ! -d "$foreign" ]; then
    /usr/bin/python3 "$writer" --out "$foreign" --steps "$((100000 * scale))" \
      --snapshots "$((50 * scale))" >"$work/foreign-${scale}x.txt" 2>&1
  fi
  files=$(ls "$foreign"/*.jsonl | wc -l)
  events=$(cat "$foreign"/*.jsonl | wc -l)
  events=$((events - files))  # the header lines
  size=$(du -sh "$foreign" | cut -f1)
  time_check "$cutline" after "$foreign" "$events" "$size" "$scale" events
  if [ -n "$before" ] && [[ " $before_scales " == *" $scale "* ]]; then time_check "$(realpath "$before")" before "$foreign" "$events" "$size" "$scale" events; fi
done
echo
echo "verdicts (last line of each check):"
cat "$work/verdicts.txt"
