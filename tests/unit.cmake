# Unit tests of core, the engine and the consistency checker, and the randomized
# property test. Test names in CTest are the GoogleTest "Suite.Name".
#
# A test whose name starts with Long (a million snapshots through the rules)
# is left by `make test` to `make test-long` (the Makefile selects them by
# the name, `\.Long`), beside a shorter test of the same property that
# `make test` runs.
function(cutline_unit_test target source)
  add_executable(${target} ${source})
  target_link_libraries(${target} PRIVATE ${ARGN} GTest::gtest_main)
  cutline_warnings(${target})
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 1800)
endfunction()

cutline_unit_test(marker_rules_test
  ${PROJECT_SOURCE_DIR}/src/core/marker_rules_test.cc cutline_core)
cutline_unit_test(variant_rules_test
  ${PROJECT_SOURCE_DIR}/src/core/variant_rules_test.cc cutline_core)
cutline_unit_test(host_api_test
  ${PROJECT_SOURCE_DIR}/src/core/host_api_test.cc cutline_core)
cutline_unit_test(snapshot_rules_test
  ${PROJECT_SOURCE_DIR}/src/core/snapshot_rules_test.cc cutline_core rapidcheck)
cutline_unit_test(engine_test
  ${PROJECT_SOURCE_DIR}/src/engine/engine_test.cc cutline_engine)
# The checker's tests make their runs with the engine, and read them through
# scenario/run_record.h (the checker itself knows no engine).
cutline_unit_test(consistency_checker_test
  ${PROJECT_SOURCE_DIR}/src/check/consistency_checker_test.cc cutline_scenario
  GTest::gmock)
cutline_unit_test(cut_test ${PROJECT_SOURCE_DIR}/src/check/cut_test.cc cutline_scenario)

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
cutline_unit_test(store_test
  ${PROJECT_SOURCE_DIR}/src/store/store_test.cc cutline_store cutline_catalogue)
# The writer's lock rides in store_test's binary: one link fewer per build.
target_sources(store_test PRIVATE ${PROJECT_SOURCE_DIR}/src/store/writer_lock_test.cc)
cutline_unit_test(messages_test
  ${PROJECT_SOURCE_DIR}/src/catalogue/messages_test.cc cutline_catalogue)
cutline_unit_test(invariants_test
  ${PROJECT_SOURCE_DIR}/src/engine/invariants_test.cc cutline_engine GTest::gmock)
cutline_unit_test(shiviz_test
  ${PROJECT_SOURCE_DIR}/src/scenario/shiviz_test.cc cutline_scenario)
cutline_unit_test(network_test
  ${PROJECT_SOURCE_DIR}/src/sim/network_test.cc cutline_sim)
cutline_unit_test(cost_test
  ${PROJECT_SOURCE_DIR}/src/check/cost_test.cc cutline_scenario)
# The events format against the simulator's own runs (it needs the runner,
# as the cost does): in cost_test's binary, one link fewer per build.
target_sources(cost_test PRIVATE ${PROJECT_SOURCE_DIR}/src/check/events_log_test.cc)
target_include_directories(cost_test PRIVATE ${PROJECT_SOURCE_DIR}/tests)  # random_runs.h
cutline_unit_test(questions_test
  ${PROJECT_SOURCE_DIR}/src/scenario/questions_test.cc cutline_scenario)
# It checks docs/page.md's list of the demos' questions against the engine.
target_compile_definitions(questions_test PRIVATE CUTLINE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
cutline_unit_test(rooms_test
  ${PROJECT_SOURCE_DIR}/src/lecture/rooms_test.cc cutline_lecture cutline_catalogue)
cutline_unit_test(dataflow_test
  ${PROJECT_SOURCE_DIR}/src/dataflow/vertex_test.cc cutline_dataflow)
# `cutline explore`: every schedule of small scenarios, judged.
cutline_unit_test(explore_test ${PROJECT_SOURCE_DIR}/src/explore/explore_test.cc cutline_explore)
