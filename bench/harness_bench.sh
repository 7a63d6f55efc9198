#!/bin/bash
# `make bench-test`: what `cutline test` costs, for the Python node
# (examples/harness/chandy_lamport.py) and the node on cutline's own library
# (harness_cl_node): random schedules a second at 3 and 5 nodes, a node
# process's start-up on its own, every schedule of small workloads, and the
# shrinking of a failure. Prints Markdown (docs/performance.md).
#
#   bench/harness_bench.sh CUTLINE CL_NODE
set -euo pipefail
cutline=$(realpath "${1:?usage: $0 CUTLINE CL_NODE}")
cl=$(realpath "${2:?usage: $0 CUTLINE CL_NODE}")
root=$(cd "$(dirname "$0")/.." && pwd)
python="/usr/bin/python3 $root/examples/harness/chandy_lamport.py"
work=$(mktemp -d /tmp/cutline-harnessbench.XXXXXX)
cd "$work"

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"

seconds() {  # the wall time of a command, in seconds
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/out.txt" 2>&1 || true
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

echo
echo "| node | nodes | workload | schedules | time | schedules/s |"
echo "|---|---|---|---|---|---|"
for who in python cl; do
  bin=$python
  k=100
  if [ "$who" = cl ]; then bin=$cl; k=300; fi
  for n in 3 5; do
    t=$(seconds "$cutline" test --schedules random:$k --nodes $n --transfers 4 --snapshots 2 --bin "$bin")
    grep -q '^ok:' "$work/out.txt" || { echo "not ok: $(head -2 "$work/out.txt")" >&2; exit 1; }
    echo "| $who | $n | 4 transfers, 2 snapshots | $k random | $t s | $(awk -v k=$k -v t="$t" 'BEGIN { printf "%.0f", k / t }') |"
  done
done

echo
echo "| node | one process started and ended (100 in a row) |"
echo "|---|---|"
for who in python cl; do
  bin=$python
  if [ "$who" = cl ]; then bin=$cl; fi
  t=$(seconds bash -c "for i in \$(seq 100); do $bin </dev/null >/dev/null; done")
  echo "| $who | $(awk -v t="$t" 'BEGIN { printf "%.1f ms", t * 10 }') |"
done

echo
echo "| node | workload (3 nodes) | reduction | states | end states | processes started | time |"
echo "|---|---|---|---|---|---|---|"
every() {  # who bin transfers snapshots [--no-reduction]
  local t
  t=$(seconds "$cutline" test --schedules every --max-states 0 --max-seconds 120 --transfers "$3" --snapshots "$4" ${5:-} --bin "$2")
  local line
  line=$(head -1 "$work/out.txt")
  local states ends procs
  states=$(echo "$line" | grep -o '[0-9]* states\?' | head -1 | cut -d' ' -f1 || true)
  ends=$(echo "$line" | grep -o '[0-9]* end states\?' | head -1 | cut -d' ' -f1 || true)
  procs=$(echo "$line" | grep -o '[0-9]* node process' | cut -d' ' -f1 || true)
  case "$line" in no\ verdict*) ends="(stopped at 120 s) ${ends:-0}" ;; esac
  local reduction=ample
  [ -n "${5:-}" ] && reduction=none
  echo "| $1 | $3 transfers, $4 snapshots | $reduction | $states | $ends | ${procs:--} | $t s |"
}
every python "$python" 1 1
every cl "$cl" 1 1
every cl "$cl" 2 1
every cl "$cl" 1 2
every cl "$cl" 1 2 --no-reduction
every cl "$cl" 4 2
every cl "$cl" 4 2 --no-reduction

echo
echo "| broken node | found in | shrunk to | shrinking |"
echo "|---|---|---|---|"
for rule in unrecorded-channel late-record late-markers; do
  "$cutline" test --schedules random:100 --bin "$python --break $rule" >"$work/out.txt" 2>&1 || true
  found=$(grep -o 'random schedule [0-9]* (seed [0-9]*), [0-9]* steps\?' "$work/out.txt" | head -1 || true)
  shrunk=$(grep -o 'shrunk to .*' "$work/out.txt" | head -1 || true)
  echo "| $rule | $found | $(echo "$shrunk" | cut -d' ' -f3-6) | $(echo "$shrunk" | cut -d' ' -f7-) |"
done
rm -rf "$work"
