#!/usr/bin/env bash
# make test-install: the library as a stranger gets it. Builds the
# library-only configuration (-DCUTLINE_LIBRARY_ONLY=ON) where CMake can find
# no package at all, installs it into a temporary prefix, and builds every
# example listed in examples/CMakeLists.txt against that prefix alone, as a
# consumer project of its own, and runs them (ctest): plainly, under
# ASan+UBSan and under ThreadSanitizer, the library built the same way each
# time. Also checks find_package(cutline) from the build tree, and that
# `pkg-config --cflags --libs cutline` compiles and links a small program.
# Usage: scripts/test-install.sh          (KEEP=1 keeps the temporary folder)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
if [[ "${KEEP:-}" == 1 ]]; then
  echo "test-install: keeping $tmp"
else
  trap 'rm -rf "$tmp"' EXIT
fi

generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

fail() {
  echo "test-install: $*" >&2
  exit 1
}

# Runs a command with its output in a log, shown only if it fails: $log, a
# flavour's own while the flavours build side by side, else last.log.
quiet() {
  local out=${log:-$tmp/last.log}
  if ! "$@" >"$out" 2>&1; then
    cat "$out" >&2
    fail "failed: $*"
  fi
}

# The package a consumer's configure found, which must be the one meant
# (a cutline installed elsewhere on the machine must not stand in for it).
expect_package_in() {
  local build=$1 where=$2 found
  found=$(sed -n 's/^cutline_DIR:PATH=//p' "$build/CMakeCache.txt")
  [[ "$found" == "$where"* ]] ||
    fail "$build found the package at '$found', not in $where"
}

# Plain is built as a user would; the sanitized builds are Debug builds, so
# that the library's own asserts (its REQUIRES) are checked too.
declare -A build_type=([plain]=RelWithDebInfo [asan]=Debug [tsan]=Debug)
declare -A flags=(
  [plain]=""
  [asan]="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
  [tsan]="-fsanitize=thread -fno-omit-frame-pointer"
)
# A report stops the program at once with a non-zero exit; leaks count.
export ASAN_OPTIONS=detect_leaks=1:strict_init_order=1:check_initialization_order=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# ThreadSanitizer in g++ 12 cannot map its shadow memory when the kernel
# randomizes mmap with more bits than it expects (vm.mmap_rnd_bits > 28, as
# newer kernels do): the program dies with "unexpected memory mapping".
# Running it with address randomization off (setarch -R) is the known cure;
# a probe decides whether this machine needs it.
tsan_run=()
probe_tsan() {
  mkdir -p "$tmp/probe"
  cat >"$tmp/probe/probe.cc" <<'EOF'
#include <thread>
int main() {
  int n = 0;
  std::thread t([&] { ++n; });
  t.join();
  return n == 1 ? 0 : 1;
}
EOF
  "${CXX:-c++}" -std=c++20 -fsanitize=thread -pthread "$tmp/probe/probe.cc" \
    -o "$tmp/probe/probe" || fail "cannot build a ThreadSanitizer program"
  if "$tmp/probe/probe" >"$tmp/probe/log" 2>&1; then
    return
  fi
  if setarch "$(uname -m)" -R "$tmp/probe/probe" >/dev/null 2>&1; then
    tsan_run=(setarch "$(uname -m)" -R)
    echo "test-install: ThreadSanitizer needs ASLR off here: runs under setarch -R"
    return
  fi
  cat "$tmp/probe/log" >&2
  fail "a ThreadSanitizer program does not run on this machine"
}

# The library alone: every find_package/find_library/find_path is confined
# to an empty folder, so a dependency beyond the compiler fails the configure.
build_library() {
  local flavour=$1
  local build=$tmp/lib-$flavour
  mkdir -p "$tmp/nothing"
  quiet cmake -S "$root" -B "$build" "${generator[@]}" --no-warn-unused-cli \
    -DCMAKE_BUILD_TYPE="${build_type[$flavour]}" -DCUTLINE_LIBRARY_ONLY=ON \
    -DCUTLINE_WERROR=ON "-DCMAKE_CXX_FLAGS=${flags[$flavour]}" \
    -DCMAKE_FIND_ROOT_PATH="$tmp/nothing" \
    -DCMAKE_FIND_ROOT_PATH_MODE_PACKAGE=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_LIBRARY=ONLY \
    -DCMAKE_FIND_ROOT_PATH_MODE_INCLUDE=ONLY
  quiet cmake --build "$build"
  quiet cmake --install "$build" --prefix "$tmp/prefix-$flavour"
}

# What the install must hold, and nothing in it may point back into the
# source or build tree (the package is used from wherever it was installed).
check_install() {
  local prefix=$tmp/prefix-plain
  local file
  for file in include/cutline/version.h include/cutline/snapshot_agent.h \
              lib/libcutline_core.a lib/pkgconfig/cutline.pc \
              lib/cmake/cutline/cutlineConfig.cmake \
              lib/cmake/cutline/cutlineConfigVersion.cmake \
              lib/cmake/cutline/cutlineTargets.cmake share/doc/cutline/LICENSE; do
    [[ -f "$prefix/$file" ]] || fail "the install has no $file"
  done
  cmp -s "$root/LICENSE" "$prefix/share/doc/cutline/LICENSE" ||
    fail "the installed LICENSE differs from the repository's"
  if grep -rlIF -e "$root" -e "$tmp/lib-plain" "$prefix/lib" "$prefix/include"; then
    fail "the files above name the source or build tree"
  fi
}

# Every example, built against one flavour's install.
build_examples() {
  local flavour=$1
  local build=$tmp/examples-$flavour
  local began=$SECONDS
  quiet cmake -S "$root/examples" -B "$build" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE="${build_type[$flavour]}" \
    -DCMAKE_PREFIX_PATH="$tmp/prefix-$flavour" \
    "-DCMAKE_CXX_FLAGS=-Werror ${flags[$flavour]}"
  expect_package_in "$build" "$tmp/prefix-$flavour/"
  quiet cmake --build "$build"
  echo "test-install: examples built against the $flavour install in $((SECONDS - began)) s"
}

# And run.
run_examples() {
  local flavour=$1
  local run=()
  [[ "$flavour" == tsan ]] && run=("${tsan_run[@]}")
  "${run[@]}" ctest --test-dir "$tmp/examples-$flavour" --output-on-failure --no-tests=error ||
    fail "an example failed ($flavour)"
}

# A small program: every installed header compiles on its own in a
# consumer, the version header agrees with the package, and one function
# compiled into the library links.
write_small_program() {
  local dir=$1 prefix=$2 header
  mkdir -p "$dir"
  {
    for header in "$prefix"/include/cutline/*.h; do
      echo "#include <cutline/$(basename "$header")>"
    done
    cat <<'EOF'
#include <cstring>
#include <iostream>

int main() {
  cutline::MarkerRules rules(2);  // its constructor is in the library
  if (std::strcmp(CUTLINE_VERSION_STRING, EXPECTED_VERSION) != 0) {
    std::cerr << "version.h says " << CUTLINE_VERSION_STRING << "\n";
    return 1;
  }
  std::cout << "cutline " << CUTLINE_VERSION_MAJOR << '.'
            << CUTLINE_VERSION_MINOR << '.' << CUTLINE_VERSION_PATCH << "\n";
  return 0;
}
EOF
  } >"$dir/small.cc"
}

# find_package(cutline) against the library's build tree, not installed.
check_build_tree() {
  local dir=$tmp/from-build-tree version
  version=$(sed -n 's/^#define CUTLINE_VERSION_STRING "\(.*\)"/\1/p' \
            "$tmp/prefix-plain/include/cutline/version.h")
  write_small_program "$dir" "$tmp/prefix-plain"
  cat >"$dir/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
project(small LANGUAGES CXX)
find_package(cutline $version EXACT CONFIG REQUIRED)
add_executable(small small.cc)
target_link_libraries(small PRIVATE cutline::core)
target_compile_definitions(small PRIVATE EXPECTED_VERSION="\${cutline_VERSION}")
EOF
  quiet cmake -S "$dir" -B "$dir/build" "${generator[@]}" \
    -DCMAKE_PREFIX_PATH="$tmp/lib-plain" -DCMAKE_CXX_FLAGS="-Wall -Wextra -Werror"
  expect_package_in "$dir/build" "$tmp/lib-plain"
  quiet cmake --build "$dir/build"
  quiet "$dir/build/small"
  echo "test-install: find_package from the build tree: $(cat "$tmp/last.log")"
}

check_pkg_config() {
  local dir=$tmp/pkg-config prefix=$tmp/prefix-plain
  write_small_program "$dir" "$prefix"
  local pc=(env PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config)
  local version cflags libs
  version=$("${pc[@]}" --modversion cutline) || fail "pkg-config finds no cutline"
  quiet "${pc[@]}" --validate cutline
  cflags=$("${pc[@]}" --cflags cutline)
  libs=$("${pc[@]}" --libs cutline)
  # shellcheck disable=SC2086  # the flags are words
  quiet "${CXX:-c++}" -std=c++20 -Wall -Wextra -Werror \
    -DEXPECTED_VERSION="\"$version\"" $cflags "$dir/small.cc" -o "$dir/small" $libs
  quiet "$dir/small"
  echo "test-install: pkg-config --cflags --libs cutline: $(cat "$tmp/last.log")"
}

start=$SECONDS
probe_tsan
# The three flavours build side by side, each its library then its examples:
# much of a build is one process at a time (configuring, linking,
# installing), which leaves a core idle that another flavour's compiles
# fill. The examples then run one flavour at a time, on a quiet machine.
builds=()
for flavour in plain asan tsan; do
  (
    log=$tmp/$flavour.log
    build_library "$flavour"
    build_examples "$flavour"
  ) &
  builds+=($!)
done
for build in "${builds[@]}"; do
  wait "$build" || fail "a flavour's build failed (above)"
done
echo "test-install: the library alone configured, built and installed, and the" \
     "examples built against it, 3 times in $((SECONDS - start)) s"
check_install
check_build_tree
check_pkg_config
for flavour in plain asan tsan; do
  run_examples "$flavour"
done
echo "test-install: passed in $((SECONDS - start)) s"
