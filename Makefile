# cutline: every target installs what it needs first (Debian packages via
# apt-get, npm packages via npm ci), so a fresh Debian 12 machine needs
# nothing but `make`.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
PORT       ?= 8080
JOBS       ?= $(shell nproc)
# The builds below are the project's own, on the compilers it is tested with
# (Debian 12's g++ and clang++), so a warning fails them. A plain `cmake`
# build leaves warnings as warnings (CUTLINE_WERROR is off by default).
WERROR     := -DCUTLINE_WERROR=ON

.PHONY: all deps build release-build run test test-unit test-install test-asan test-fuzz test-browser bench bench-serve bench-lecture bench-cluster bench-detect bench-scale bench-logs fuzz clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(WERROR) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: the teaching page at http://127.0.0.1:$(PORT)/
run: build
	./$(BUILD)/cutline serve --port $(PORT)

# Everything: unit, golden, property and API tests; the library installed on
# its own and used by the examples (plain, ASan+UBSan, TSan); the tests again
# under ASan and UBSan; the parser fuzzer for $(FUZZ_SECONDS) s; the browser
# tests.
test: test-unit test-install test-asan test-fuzz test-browser
	@echo "make test: all suites passed"

test-unit: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The library alone (no dependency but a C++20 compiler and CMake) into a
# temporary prefix; every example in examples/CMakeLists.txt built against it
# and run plainly, under ASan+UBSan and under ThreadSanitizer; find_package
# from the build tree; pkg-config (scripts/test-install.sh).
test-install: deps
	scripts/test-install.sh

test-asan: deps
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCUTLINE_SANITIZE=ON \
	  -DCUTLINE_BENCH=OFF $(WERROR) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)
	ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS)

test-fuzz: fuzz-build
	scripts/run-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

test-browser: build
	@scripts/install-deps.sh --browser
	npm ci --no-audit --no-fund --loglevel=error
	CUTLINE_BIN=./$(BUILD)/cutline npx playwright test

fuzz-build: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCUTLINE_FUZZ=ON $(WERROR) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)

# The parser fuzzer until stopped (Ctrl-C); the corpus grows in fuzz-corpus/.
fuzz: fuzz-build
	scripts/run-fuzz.sh $(FUZZ_BUILD) 0

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

# `cutline check --logs` against the size of the logs: real 4-rank runs at
# --rate max of 3, 12 and 48 s (docs/performance.md). BEFORE=<cutline> times
# another build too.
bench-logs: release-build
	@cmake --build build-release -j $(JOBS) --target cutline
	bench/log_check_bench.sh ./build-release/cutline

release-build: deps
	@cmake -S . -B build-release -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUTLINE_TESTS=OFF >/dev/null

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) build-release
