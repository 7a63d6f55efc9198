#!/usr/bin/env bash
# Runs the scenario fuzzer from the seeds in fuzz/seeds for N seconds
# (0 = until stopped). Usage: run-fuzz.sh BUILD_DIR SECONDS
set -euo pipefail
build=$1 seconds=$2
mkdir -p fuzz-corpus
cp -n fuzz/seeds/* fuzz-corpus/ 2>/dev/null || true
args=(-max_len=4096 -timeout=10 -print_final_stats=1 -dict=fuzz/scenario.dict fuzz-corpus)
[[ "$seconds" != 0 ]] && args=(-max_total_time="$seconds" "${args[@]}")
echo "fuzz: $build/fuzz/scenario_fuzzer ${args[*]}"
"$build/fuzz/scenario_fuzzer" "${args[@]}" 2>&1 | tail -n 15
exit "${PIPESTATUS[0]}"
