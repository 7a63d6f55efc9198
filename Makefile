# cutline: every target installs what it needs first (Debian packages via
# apt-get, npm packages via npm ci), so a fresh Debian 12 machine needs
# nothing but `make`.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_SECONDS ?= 20
WIRE_FUZZ_SECONDS ?= 10
FUZZER ?= scenario
PORT       ?= 8080
JOBS       ?= $(shell nproc)
# The builds below are the project's own, on the compilers it is tested with
# (Debian 12's g++ and clang++), so a warning fails them. A plain `cmake`
# build leaves warnings as warnings (CUTLINE_WERROR is off by default).
WERROR     := -DCUTLINE_WERROR=ON
# Each target's sources compiled in batches (cmake/unity_build.cmake):
# UNITY=-DCUTLINE_UNITY=OFF for one source per unit, as after many edits.
UNITY      ?= -DCUTLINE_UNITY=ON
# ccache (installed by scripts/install-deps.sh) makes a rebuild of unchanged
# sources nearly free; a fresh machine's first build pays a few per cent.
# It caches clang's precompiled headers (cmake/precompiled_headers.cmake),
# and the objects compiled with one, only when told that the header's
# macros and times may be trusted: hence the sloppiness, set here rather
# than in the user's ccache.conf. Such objects are found again in the same
# build folder only, not in another clone's.
CCACHE     := env;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache
LAUNCHER   := $(if $(shell command -v ccache),"-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE)")
# How many of each property's cases a run makes, in per cent of its full
# count (tests/property_test.cc): all of them in the plain build, and
# under ASan a tenth (which runs each case about ten times slower; the
# plain build has already run them all).
PROPERTY_SHARE      ?= 100
ASAN_PROPERTY_SHARE ?= 10

.PHONY: all deps deps-all build asan-build release-build run test test-long test-unit test-install \
        test-asan test-fuzz test-browser test-browser-steady long-unit long-asan long-browser \
        bench-build \
        bench bench-serve bench-lecture bench-cluster bench-detect bench-scale bench-dataflow bench-logs bench-explore bench-test fuzz clean

all: build

deps:
	@scripts/install-deps.sh

# Everything make test needs: the Debian packages, Chromium, and the npm
# packages of the browser tests.
deps-all:
	@scripts/install-deps.sh --browser
	@$(MAKE) --no-print-directory node_modules/.package-lock.json

# npm ci once per package-lock.json (npm writes node_modules/.package-lock.json
# last), not again for every target that needs the browser tests' packages.
node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# Build 1 of 2 that make test needs: g++ at -O2, as users run it (make run)
# and as the unit, API, cluster and browser tests run it. Debug information
# is line tables only (-g1): enough for a backtrace, and a quarter less
# compile time than full -g. No benchmarks: they build in build-release
# (make bench; make test-long compiles them). Both builds compile in unity
# batches (cmake/unity_build.cmake): on a fresh machine, two-fifths less
# compile time for this one and three-tenths less for asan-build's, at the
# price of a larger recompile after an edit (docs/performance.md).
build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCUTLINE_BENCH=OFF \
	  $(UNITY) $(LAUNCHER) $(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# Build 2 of 2: clang with AddressSanitizer and UBSan, and libFuzzer's
# coverage, so that the same objects run the tests under the sanitizers and
# feed the fuzzer (clang because libFuzzer is clang's; a second compiler's
# warnings come free). -O1, as ASan advises: its reports stay exact and the
# tests run about three times faster than at -O0; line tables (-g1) are all
# its reports need. Debug otherwise, so that assert() stays on.
asan-build: deps
	@CC=clang CXX=clang++ cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	  -DCMAKE_CXX_FLAGS_DEBUG="-g1 -O1" -DCUTLINE_SANITIZE=ON -DCUTLINE_FUZZ=ON \
	  -DCUTLINE_BENCH=OFF $(UNITY) $(LAUNCHER) $(WERROR) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

# The main job: the teaching page at http://127.0.0.1:$(PORT)/
run: build
	./$(BUILD)/cutline serve --port $(PORT)

# Everything, within 30 minutes on 2 cores from a fresh clone: unit, golden,
# property, API and real-MPI tests; the library installed on its own and used
# by the examples (plain, ASan+UBSan, TSan); the tests again under ASan and
# UBSan; the parser fuzzer for $(FUZZ_SECONDS) s and the wire decoders' for
# $(WIRE_FUZZ_SECONDS) s; the browser tests. Ends with
# one line per stage and its seconds (scripts/stages.sh).
test:
	@scripts/stages.sh "make test" install=deps-all build=build unit=test-unit \
	  install-test=test-install build-asan=asan-build asan=test-asan fuzz=test-fuzz \
	  browser=test-browser

# What make test leaves out, about 20 minutes after it: the tests named Long* (a
# million snapshots through the rules) and ten times every property's cases
# in the plain build, the same at full counts under ASan, and the benchmarks
# compiled. Run it before a release and after touching src/core or src/check.
test-long:
	@scripts/stages.sh "make test-long" install=deps-all build=build long-unit=long-unit \
	  build-asan=asan-build long-asan=long-asan long-browser=long-browser build-bench=bench-build

# Tests named Long* (tests/unit.cmake) are make test-long's; so are ten times
# the property tests' cases (PropertyTest.*).
NOT_LONG := -E '\.Long'
LONG     := -R '\.Long|^PropertyTest\.'

test-unit: build
	CUTLINE_PROPERTY_SHARE=$(PROPERTY_SHARE) ctest --test-dir $(BUILD) --output-on-failure \
	  -j $(JOBS) $(NOT_LONG)

long-unit: build
	CUTLINE_PROPERTY_SHARE=1000 ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) $(LONG)

# The library alone (no dependency but a C++20 compiler and CMake) into a
# temporary prefix; every example in examples/CMakeLists.txt built against it
# and run plainly, under ASan+UBSan and under ThreadSanitizer; find_package
# from the build tree; pkg-config (scripts/test-install.sh).
test-install: deps
	scripts/test-install.sh

# Under ASan, make test runs the real clusters (label cluster) one test per
# path of the runtime: the bank, Lai-Yang and stop-the-world over channels
# that reorder, a crash inside a snapshot and its restore, the logs and
# their check, a locks run, a dataflow's timed-out barriers and its
# unaligned snapshot's restore after a kill, and every refusal. They run one at a time and take 1.5 times as long
# under ASan; make test-long runs every one of them under ASan.
ASAN_CLUSTERS := -R '^(ClusterTest\.SnapshotsWhileTransfersFlowAllAddUp|ClusterTest\.LaiYangAndStopTheWorldAddUpOverChannelsThatReorder|StoreTest\.ACrashInsideASnapshotThenARestoreLosesNothing|StoreTest\.ARealRunsLogsPassTheCheckerAndATamperedOneFails|AppsClusterTest\.ALocksRunsDetectedCycleIsRealByTheLogs|DataflowClusterTest\.TheAlignmentTimeout.*|DataflowStoreTest\..*FromAnUnalignedSnapshot|.*\.Bad.*)$$'

# Under ASan, cutline test's runs of the correct example nodes, and the
# reduced search held to the full one (70 s there), are left to the plain
# build: they walk the same harness code as the broken nodes' and the faulty
# one's, which stay, and spend their time in node processes.
ASAN_NOT_LONG := -E '\.Long|^HarnessTest\.The(CorrectNode|LaiYangNode|LibraryNode|Reduction)'

test-asan: asan-build
	CUTLINE_PROPERTY_SHARE=$(ASAN_PROPERTY_SHARE) ctest --test-dir $(ASAN_BUILD) \
	  --output-on-failure -j $(JOBS) $(ASAN_NOT_LONG) -LE cluster
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -L cluster $(ASAN_CLUSTERS)

long-asan: asan-build
	CUTLINE_PROPERTY_SHARE=100 ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) $(LONG)
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -L cluster

test-fuzz: asan-build
	scripts/run-fuzz.sh $(ASAN_BUILD) scenario $(FUZZ_SECONDS)
	scripts/run-fuzz.sh $(ASAN_BUILD) wire $(WIRE_FUZZ_SECONDS)

# The browser tests (tests/browser) in Debian's chromium-headless-shell against the real
# server, two workers with servers of their own (playwright.config.js); those
# tagged @long (the accessibility audit of every demo at every layout) are
# make test-long's.
test-browser: build deps-all
	CUTLINE_BIN=./$(BUILD)/cutline npx playwright test --grep-invert @long

long-browser: build deps-all
	CUTLINE_BIN=./$(BUILD)/cutline npx playwright test --grep @long

# The browser suite three times in a row beside two busy loops, as on a
# loaded machine: steady means no failure (scripts/browser-steady.sh).
test-browser-steady: build deps-all
	CUTLINE_BIN=./$(BUILD)/cutline scripts/browser-steady.sh 3 --grep-invert @long

# One fuzzer until stopped (Ctrl-C): the scenario parser, or FUZZER=wire for
# the wire decoders; the corpus grows in fuzz-corpus/NAME.
fuzz: asan-build
	scripts/run-fuzz.sh $(ASAN_BUILD) $(FUZZER) 0

bench: release-build
	@cmake --build build-release -j $(JOBS) --target cutline_bench
	./build-release/bench/cutline_bench

# A classroom against the real server: 10, 100 and 1,000 keep-alive visitors,
# 5,000 idle connections, slow senders, full load (docs/performance.md).
bench-serve: release-build
	@cmake --build build-release -j $(JOBS) --target cutline serve_load
	./build-release/bench/serve_load --server ./build-release/cutline

# A lecture hall: 1,000 students following a teacher who steps once a second,
# with the server's run cache and without it (docs/performance.md).
bench-lecture: release-build
	@cmake --build build-release -j $(JOBS) --target cutline lecture_load
	./build-release/bench/lecture_load --server ./build-release/cutline

# Chandy-Lamport against stop-the-world on 2, 4 and 8 real ranks, with and
# without a 2 ms link delay (docs/performance.md).
bench-cluster: release-build
	@cmake --build build-release -j $(JOBS) --target cutline cluster_bench
	./build-release/bench/cluster_bench --cutline ./build-release/cutline

# Detection on real ranks: how long after a jobs computation really finished
# (or a locks run really deadlocked) a snapshot says so, at 2, 4 and 8 ranks,
# snapshots every 10, 50 and 200 ms, link delay 0 and 2 ms (docs/performance.md).
bench-detect: release-build
	@cmake --build build-release -j $(JOBS) --target cutline cluster_bench
	./build-release/bench/cluster_bench --cutline ./build-release/cutline --detect

# One Chandy-Lamport run into a store at 2, 4, 8, 16, 32 and 64 ranks
# (oversubscribed): throughput, latency, the collector's share, rank 0's
# memory and CPU, bytes per snapshot (docs/performance.md, "Scale").
# SCALE_RATE: transfers per second per branch, or max.
SCALE_RATE ?= 1000
bench-scale: release-build
	@cmake --build build-release -j $(JOBS) --target cutline cluster_bench
	./build-release/bench/cluster_bench --cutline ./build-release/cutline --scale --rate $(SCALE_RATE)

# A dataflow's aligned, unaligned and timed-out snapshots at 4, 8 and 16
# ranks, with one slow operator and without (docs/performance.md).
bench-dataflow: release-build
	@cmake --build build-release -j $(JOBS) --target cutline cluster_bench
	./build-release/bench/cluster_bench --cutline ./build-release/cutline --dataflow

# `cutline check --logs` against the size of the logs: real 4-rank runs at
# --rate max of 3, 12 and 48 s (docs/performance.md). BEFORE=<cutline> times
# another build too.
bench-explore: release-build
	@cmake --build build-release -j $(JOBS) --target explore_bench cutline
	./build-release/bench/explore_bench
	bench/explore_memory.sh ./build-release/cutline

bench-logs: release-build
	@cmake --build build-release -j $(JOBS) --target cutline
	bench/log_check_bench.sh ./build-release/cutline

# `cutline test` on the examples' Python node and on the library's C++
# node: schedules a second, start-up, every schedule, shrinking
# (docs/harness.md, docs/performance.md).
bench-test: release-build
	@cmake --build build-release -j $(JOBS) --target cutline harness_cl_node
	bench/harness_bench.sh ./build-release/cutline ./build-release/harness_cl_node

# Release, for measuring (the benchmarks): no tests, no debug information.
release-build: deps
	@cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLINE_TESTS=OFF \
	  $(LAUNCHER) >/dev/null

# Every benchmark compiled, so that make test-long catches one that no longer builds.
bench-build: release-build
	@cmake --build build-release -j $(JOBS)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) build-fuzz build-release
