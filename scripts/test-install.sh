#!/usr/bin/env bash
# Installs the library from BUILD_DIR into a temporary prefix, then builds
# each example host (examples/threads_bank, examples/mpi_bank) against that
# prefix alone and runs it: the way a user of the installed package would.
# Usage: test-install.sh BUILD_DIR
set -euo pipefail
build=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
build_example() {
  local name=$1
  cmake -S "examples/$name" -B "$tmp/$name" -G Ninja \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" -DCMAKE_CXX_FLAGS=-Werror >/dev/null
  # A cutline installed elsewhere on the machine must not stand in for this one.
  local found
  found=$(sed -n 's/^cutline_DIR:PATH=//p' "$tmp/$name/CMakeCache.txt")
  if [[ "$found" != "$tmp/prefix/"* ]]; then
    echo "test-install: $name found the package at '$found', not in $tmp/prefix" >&2
    exit 1
  fi
  cmake --build "$tmp/$name" >/dev/null
}

# A host that lost a marker would wait for it forever: fail instead.
build_example threads_bank
timeout 60 "$tmp/threads_bank/threads_bank"
build_example mpi_bank
root=()
[[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
timeout 60 mpirun "${root[@]}" --oversubscribe -n 3 "$tmp/mpi_bank/mpi_bank"
