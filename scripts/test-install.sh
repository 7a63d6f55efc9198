#!/usr/bin/env bash
# Installs the library from BUILD_DIR into a temporary prefix, then builds
# examples/threads_bank against that prefix alone and runs it: the way a user
# of the installed package would. Usage: test-install.sh BUILD_DIR
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
cmake -S examples/threads_bank -B "$tmp/example" -G Ninja \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CXX_FLAGS=-Werror >/dev/null
# A cutline installed elsewhere on the machine must not stand in for this one.
found=$(sed -n 's/^cutline_DIR:PATH=//p' "$tmp/example/CMakeCache.txt")
if [[ "$found" != "$tmp/prefix/"* ]]; then
  echo "test-install: found the package at '$found', not in $tmp/prefix" >&2
  exit 1
fi
cmake --build "$tmp/example" >/dev/null
# A host that lost a marker would wait for it forever: fail instead.
timeout 60 "$tmp/example/threads_bank"
