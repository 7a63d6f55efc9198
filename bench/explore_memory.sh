#!/bin/bash
# `make bench-explore`'s second half: `cutline explore` as its user runs it,
# one process a search, for what a process as a whole spends: distinct
# states a second, and peak RSS divided by the states visited (the graph
# that gives each state's path, for the counterexample and to rebuild the
# frontier's states; the fingerprints; the sleep sets; the frontier's
# numbers; the engines of the state being expanded and its children; not
# the fingerprints alone). The bank as a line of transfers on 3, 4 and 5
# branches with one and two snapshots (as explore_bench.cc), and demo 15
# (the locks with two snapshots), each stopped at MAX_STATES (default
# 600,000). With BEFORE=<another cutline>, that one too, each search right
# after the other's (e.g. an older build, to compare). Prints a Markdown
# table (docs/performance.md).
#
#   bench/explore_memory.sh CUTLINE
#   BEFORE=/path/to/old/cutline MAX_STATES=200000 bench/explore_memory.sh ...
set -euo pipefail
cutline=$(realpath "${1:?usage: $0 CUTLINE}")
before=${BEFORE:-}
max=${MAX_STATES:-600000}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
[ -x /usr/bin/python3 ] || { echo "needs /usr/bin/python3 (to read the JSON)" >&2; exit 2; }
work=$(mktemp -d /tmp/cutline-explorebench.XXXXXX)
trap 'rm -rf "$work"' EXIT

line() {  # branches snapshots: the bank as explore_bench.cc writes it
  local n=$1 s=$2 b
  printf 'network'; for ((b = 1; b <= n; b++)); do printf ' P%d=100' "$b"; done; echo
  for ((b = 1; b < n; b++)); do
    echo "transfer P$b P$((b + 1)) 10"
    [ "$b" -eq 1 ] && echo "snapshot P1"
  done
  [ "$s" -eq 2 ] && echo "snapshot P$n"
  return 0
}
for n in 3 4 5; do for s in 1 2; do line "$n" "$s" >"$work/bank-$n-$s.txt"; done; done
# Demo 15 as the page plays it (its commands, deliveries included: explore
# leaves the written deliveries to the search).
cat >"$work/demo15.txt" <<'EOF'
network P1 P2 P3 app=locks
request P1 P2
deliver P1 P2
grant P2 P1
request P2 P1
snapshot P1
drain
grant P1 P2
deliver P1 P2
request P1 P2
request P2 P3
request P3 P1
snapshot P2
drain
EOF

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| search | cutline | answer | states | seconds | states/s | peak RSS | bytes/state |"
echo "|---|---|---|---|---|---|---|---|"

run() {  # binary label file name
  local bin=$1 label=$2 file=$3 name=$4 t="$work/time.txt" out="$work/out.txt"
  /usr/bin/time -v "$bin" explore "$file" --max-states "$max" --json >"$out" 2>"$t" || true
  local rss states secs answer
  rss=$(grep 'Maximum resident set size' "$t" | awk '{print $NF}')
  read -r answer states secs < <(/usr/bin/python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
print(r["outcome"], r["states"], max(r["seconds"], 1e-3))' "$out")
  awk -v n="$name" -v l="$label" -v a="$answer" -v st="$states" -v s="$secs" -v r="$rss" 'BEGIN {
    printf "| %s | %s | %s | %d | %.2f | %.0f | %.0f MB | %.0f |\n", n, l, a, st, s, st / s, r / 1024, r * 1024 / st }'
}

for file in "$work"/bank-*.txt "$work/demo15.txt"; do
  base=$(basename "$file" .txt)
  case $base in
    bank-*)
      IFS=- read -r _ n s <<<"$base"
      name="bank, $n branches, $s snapshot"
      [ "$s" -eq 2 ] && name+="s"
      ;;
    *) name="demo 15" ;;
  esac
  if [ -n "$before" ]; then
    run "$before" before "$file" "$name"
    run "$cutline" after "$file" "$name"
  else
    run "$cutline" this "$file" "$name"
  fi
done
