# Unit tests of core, the engine and the consistency checker, and the randomized
# property test. Test names in CTest are the GoogleTest "Suite.Name".
#
# A test whose name starts with Long (a million snapshots through the rules)
# is left by `make test` to `make test-long` (the Makefile selects them by
# the name, `\.Long`), beside a shorter test of the same property that
# `make test` runs.
# The unit tests compiled without optimization are one program, unit_test:
# each of its parts below is a test file and what it links. One program
# links the libraries once per build rather than once per file, and its
# files compile in unity batches when the build asks (cmake/unity_build.cmake).
add_executable(unit_test)
target_link_libraries(unit_test PRIVATE GTest::gtest_main)
cutline_warnings(unit_test)
gtest_discover_tests(unit_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 1800)
function(cutline_unit_test source)
  target_sources(unit_test PRIVATE ${source})
  target_link_libraries(unit_test PRIVATE ${ARGN})
endfunction()
# The store's tests read a version-1 file kept in testdata/, and the logs'
# tests the goldens' scenarios; random_runs.h is the events format's and the
# logs' tests'.
target_compile_definitions(unit_test PRIVATE
  CUTLINE_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/testdata")
target_include_directories(unit_test PRIVATE ${PROJECT_SOURCE_DIR}/tests)

cutline_unit_test(${PROJECT_SOURCE_DIR}/src/core/marker_rules_test.cc cutline_core)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/core/variant_rules_test.cc cutline_core)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/core/host_api_test.cc cutline_core)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/engine/engine_test.cc cutline_engine)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/algorithms/rank_agents_test.cc cutline_algorithms)
# The checker's own tests judge histories written by hand: like the checker,
# they know no engine. Its judgements of the engine's runs (read through
# scenario/run_record.h), its cost and the events format against the
# simulator's runs are tested above both, in src/scenario.
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/check/consistency_checker_test.cc cutline_check
  GTest::gmock)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/scenario/checker_runs_test.cc cutline_scenario
  GTest::gmock)
# Its helper Said shares store_test.cc's name: out of the unity batches
# (cmake/unity_build.cmake).
set_source_files_properties(${PROJECT_SOURCE_DIR}/src/store/writer_lock_test.cc
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)

# The rules' properties, driven many times through header-only templates:
# compiled at the build's level (tests/CMakeLists.txt), a program of its own.
add_executable(snapshot_rules_test ${PROJECT_SOURCE_DIR}/src/core/snapshot_rules_test.cc)
target_link_libraries(snapshot_rules_test PRIVATE cutline_core rapidcheck GTest::gtest_main)
cutline_warnings(snapshot_rules_test)
gtest_discover_tests(snapshot_rules_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 1800)

# Random runs (rapidcheck) judged by the checker. A failure prints the
# command that replays it, naming this binary. CUTLINE_PROPERTY_SHARE sizes
# their case counts (the Makefile sets it per build; property_test.cc).
add_executable(property_test ${PROJECT_SOURCE_DIR}/tests/property_test.cc)
target_link_libraries(property_test PRIVATE cutline_scenario rapidcheck
                      GTest::gtest_main)
target_compile_definitions(property_test PRIVATE
  CUTLINE_PROPERTY_TEST_BINARY="$<TARGET_FILE:property_test>")
cutline_warnings(property_test)
gtest_discover_tests(property_test DISCOVERY_TIMEOUT 60
                     PROPERTIES TIMEOUT 600 LABELS property)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/store/store_test.cc cutline_store cutline_catalogue)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/store/writer_lock_test.cc)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/catalogue/messages_test.cc cutline_catalogue)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/engine/invariants_test.cc cutline_engine GTest::gmock)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/scenario/shiviz_test.cc cutline_scenario)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/sim/network_test.cc cutline_sim)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/scenario/cost_test.cc cutline_scenario)
# The events format against the simulator's own runs (it needs the runner,
# as the cost does).
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/scenario/events_log_test.cc cutline_scenario)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/scenario/questions_test.cc cutline_scenario)
# It checks docs/page.md's list of the demos' questions against the engine.
target_compile_definitions(unit_test PRIVATE CUTLINE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/lecture/rooms_test.cc cutline_lecture cutline_catalogue)
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/dataflow/vertex_test.cc cutline_dataflow)
# `cutline explore`: every schedule of small scenarios, judged.
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/explore/explore_test.cc cutline_explore)
