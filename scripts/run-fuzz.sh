#!/usr/bin/env bash
# Runs one fuzzer (fuzz/NAME_fuzzer.cc) from its seeds in fuzz/seeds/NAME,
# with its dictionary fuzz/NAME.dict, for SECONDS (0 = until stopped). The
# corpus grows in fuzz-corpus/NAME. Usage: run-fuzz.sh BUILD_DIR NAME SECONDS
set -euo pipefail
build=$1 name=$2 seconds=$3
corpus=fuzz-corpus/$name
mkdir -p "$corpus"
cp -n fuzz/seeds/"$name"/* "$corpus"/ 2>/dev/null || true
args=(-max_len=4096 -timeout=10 -print_final_stats=1 -dict=fuzz/"$name".dict "$corpus")
[[ "$seconds" != 0 ]] && args=(-max_total_time="$seconds" "${args[@]}")
echo "fuzz: $build/fuzz/${name}_fuzzer ${args[*]}"
"$build/fuzz/${name}_fuzzer" "${args[@]}" 2>&1 | tail -n 15
exit "${PIPESTATUS[0]}"
