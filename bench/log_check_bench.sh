#!/bin/bash
# `make bench-logs`: `cutline check --logs` against the size of the logs.
# Makes the logs of real runs (`cutline cluster --ranks 4 --rate max`) of
# 1x, 4x and 16x a 3 s run (longer runs, not copies: a copied log is not a
# run), then times `check --logs` on each: events a second and peak RSS
# (/usr/bin/time -v). With BEFORE=<another cutline>, times that one too
# (e.g. main's, to compare). Prints a Markdown table (docs/performance.md).
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
mkdir -p "$work"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | log size | events | checker | time | events/s | peak RSS |"
echo "|---|---|---|---|---|---|---|"

time_check() {  # binary label logs events size scale
  local bin=$1 label=$2 logs=$3 events=$4 size=$5 scale=$6
  local out="$work/out-$label-$scale.txt" t="$work/time-$label-$scale.txt"
  /usr/bin/time -v "$bin" check --logs "$logs" >"$out" 2>"$t" || true
  local wall rss secs
  wall=$(grep 'Elapsed (wall clock)' "$t" | awk '{print $NF}')
  rss=$(grep 'Maximum resident set size' "$t" | awk '{print $NF}')
  secs=$(echo "$wall" | awk -F: '{ if (NF==3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  local rate
  rate=$(awk -v e="$events" -v s="$secs" 'BEGIN { if (s > 0) printf "%.2f M", e / s / 1e6; else print "-" }')
  echo "| ${scale}x ($((3 * scale)) s) | $size | $events | $label | ${secs} s | $rate | $((rss / 1024)) MB |"
  echo "    $label: $(tail -1 "$out" | cut -c1-160)" >>"$work/verdicts.txt"
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
  time_check "$cutline" after "$logs" "$events" "$size" "$scale"
  if [ -n "$before" ] && [[ " $before_scales " == *" $scale "* ]]; then time_check "$(realpath "$before")" before "$logs" "$events" "$size" "$scale"; fi
done
echo
echo "verdicts (last line of each check):"
cat "$work/verdicts.txt"
