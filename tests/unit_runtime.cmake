# The runtime's parts that need no MPI launcher, in unit_test (unit.cmake):
# the control protocol's round trips.
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/runtime/protocol_test.cc cutline_runtime_protocol)
# check --logs on hand-written logs: what a crash or damage leaves.
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/runtime/log_check_test.cc cutline_runtime)
# The two doors into the judge: cutline check on a simulated run, and
# check --logs on the same run written as its ranks' logs; the goldens'
# scenarios (CUTLINE_TESTDATA_DIR) through the logs' door too.
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/runtime/log_check_agrees_test.cc cutline_scenario)
# A dataflow's vertices, run in process and logged as ranks log them, then
# judged from their logs.
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/runtime/vertex_log_test.cc cutline_runtime)
# What cluster says of its store after a crash, when the store will not
# take a write (src/runtime/store_sink.cc).
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/runtime/store_sink_test.cc cutline_runtime)
# Rank 0's own figures for the summary (peak memory, CPU time).
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/runtime/usage_test.cc cutline_runtime)
# The one coordinator loop and its policies, driven without MPI (the test
# plays the ranks and moves the clock).
cutline_unit_test(${PROJECT_SOURCE_DIR}/src/runtime/scheduler_test.cc cutline_runtime)
# Its names (Options, the Sink it records) meet log_check_test.cc's in one
# namespace: out of the unity batches (cmake/unity_build.cmake).
set_source_files_properties(${PROJECT_SOURCE_DIR}/src/runtime/scheduler_test.cc
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
