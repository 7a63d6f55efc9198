#!/usr/bin/env bash
# Installs the Debian packages cutline needs, only those missing, so that a
# fresh Debian 12 machine needs nothing else. Usage: install-deps.sh [--browser]
#   (no flag)  build the C++ code and its tests
#   --browser  also Chromium's headless shell, CJK fonts and Node.js for the browser tests
set -euo pipefail

packages=(cmake ninja-build g++ clang pkg-config
          nlohmann-json3-dev libcli11-dev libfmt-dev libgtest-dev libgmock-dev
          libbenchmark-dev librapidcheck-dev libcpp-httplib-dev libclang-rt-14-dev
          libboost-dev libsqlite3-dev zlib1g-dev openmpi-bin libopenmpi-dev
          libqrencode-dev  # the lecture's QR code of its join link
          iproute2  # ip netns: the local hosts of tests/hosts_test.sh
          python3   # examples/events_log, whose logs tests/events_log_test.cc checks
          ccache)   # rebuilds of unchanged sources (the Makefile uses it when present)
if [[ "${1:-}" == "--browser" ]]; then
  # The headless shell, not the full browser: the same engine without a browser window's own
  # pages, about a third less CPU per test, and the browser tests are CPU-bound on 2 cores.
  packages+=(chromium-headless-shell fonts-noto-cjk)
  command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}"
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
