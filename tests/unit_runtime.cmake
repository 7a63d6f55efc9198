# The runtime's parts that need no MPI launcher: the control protocol's
# round trips.
cutline_unit_test(protocol_test
  ${PROJECT_SOURCE_DIR}/src/runtime/protocol_test.cc cutline_runtime_protocol)
# The store's tests read a version-1 file kept in testdata/.
target_compile_definitions(store_test PRIVATE
  CUTLINE_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/testdata")
# check --logs on hand-written logs: what a crash or damage leaves.
cutline_unit_test(log_check_test
  ${PROJECT_SOURCE_DIR}/src/runtime/log_check_test.cc cutline_runtime)
# The two doors into the judge: cutline check on a simulated run, and
# check --logs on the same run written as its ranks' logs.
# (In log_check_test's binary: one link fewer per build.)
target_sources(log_check_test PRIVATE ${PROJECT_SOURCE_DIR}/src/runtime/log_check_agrees_test.cc)
target_link_libraries(log_check_test PRIVATE cutline_scenario)
target_include_directories(log_check_test PRIVATE ${PROJECT_SOURCE_DIR}/tests)  # random_runs.h
# The goldens' scenarios, through the logs' door too.
target_compile_definitions(log_check_test PRIVATE
  CUTLINE_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/testdata")
# A dataflow's vertices, run in process and logged as ranks log them, then
# judged from their logs (In log_check_test's binary: one link fewer.)
target_sources(log_check_test PRIVATE ${PROJECT_SOURCE_DIR}/src/runtime/vertex_log_test.cc)
# Rank 0's own figures for the summary (peak memory, CPU time).
cutline_unit_test(usage_test ${PROJECT_SOURCE_DIR}/src/runtime/usage_test.cc cutline_runtime)
# The one coordinator loop and its policies, driven without MPI (the test
# plays the ranks and moves the clock).
cutline_unit_test(scheduler_test ${PROJECT_SOURCE_DIR}/src/runtime/scheduler_test.cc cutline_runtime)
