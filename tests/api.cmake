# The programs that drive the real thing, one per kind of test, each of its
# files below: one program links the libraries once per build rather than
# once per file, and its files compile in unity batches when the build asks
# (cmake/unity_build.cmake). Test names in CTest stay the GoogleTest
# "Suite.Name".
find_package(ZLIB REQUIRED)  # the tests gzip a request body themselves

# api_test: the HTTP API against a real server and a real client
# (api_test.cc); the `cutline` command run as a real process (cli_test.cc,
# CUTLINE_BINARY); the server under a classroom's load: idle and slow
# connections, the cap, deadlines, pipelining, event streams
# (server_test.cc); the lecture's rooms over the real server: driving,
# following, answering, and every refusal (lecture_api_test.cc); the run
# cache (run_cache_test.cc); and `cutline check --logs DIR --format events`
# on logs cutline did not write: the Python example's (examples/events_log),
# run by the test itself (events_log_test.cc, CUTLINE_SOURCE_DIR); and
# `cutline test` running the examples' Python nodes and a node that breaks
# the protocol each way, and its search on them (harness_test.cc,
# cutline_harness).
add_executable(api_test
  ${CMAKE_CURRENT_SOURCE_DIR}/api_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/cli_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/server_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/lecture_api_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/run_cache_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/events_log_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/harness_test.cc)
# cutline_store: the store tests write their stores with the real Store.
target_link_libraries(api_test PRIVATE cutline_server cutline_store cutline_harness PkgConfig::HTTPLIB
                      ZLIB::ZLIB GTest::gtest_main)
target_include_directories(api_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
target_compile_definitions(api_test PRIVATE CUTLINE_BINARY="$<TARGET_FILE:cutline>"
                           CUTLINE_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                           CUTLINE_CL_NODE="$<TARGET_FILE:harness_cl_node>")
add_dependencies(api_test cutline harness_cl_node)
cutline_warnings(api_test)
gtest_discover_tests(api_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)

# cluster_test: the runtime with real processes, mpirun and `cutline node`
# ranks (cluster_test.cc; cutline_store: the tests read the store the run
# wrote, times and all); jobs and locks on real ranks (`cutline cluster
# --app`), judged by their logs (apps_cluster_test.cc); a dataflow on real
# ranks (`cutline cluster --app dataflow`): every mode conserves and counts
# each record once, and a run killed inside a snapshot restores from the
# store with each record counted once (dataflow_cluster_test.cc).
add_executable(cluster_test
  ${CMAKE_CURRENT_SOURCE_DIR}/cluster_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/apps_cluster_test.cc
  ${CMAKE_CURRENT_SOURCE_DIR}/dataflow_cluster_test.cc)
target_link_libraries(cluster_test PRIVATE cutline_store cutline_catalogue cutline_runtime_protocol
                      fmt::fmt nlohmann_json::nlohmann_json GTest::gtest_main)
target_compile_definitions(cluster_test PRIVATE CUTLINE_BINARY="$<TARGET_FILE:cutline>")
add_dependencies(cluster_test cutline)
cutline_warnings(cluster_test)
# Under ASan, Open MPI's own allocations, alive at exit, would read as leaks
# of every rank: the sanitizer still checks memory errors, not leaks.
set(CUTLINE_CLUSTER_TEST_ENV "")
if(CUTLINE_SANITIZE)
  set(CUTLINE_CLUSTER_TEST_ENV "ASAN_OPTIONS=detect_leaks=0")
endif()
# One cluster at a time (RESOURCE_LOCK mpirun: their ranks oversubscribe the
# cores already), but beside the other tests: a cluster's ranks mostly wait
# on their rate, and the suite's other tests fill the idle core. The
# applications' and the dataflow's clusters are shorter: 300 s, not 600.
set(CUTLINE_SHORT_CLUSTERS "AppsClusterTest.*:DataflowClusterTest.*:DataflowStoreTest.*")
gtest_discover_tests(cluster_test DISCOVERY_TIMEOUT 60 TEST_LIST cluster_tests_long
                     TEST_FILTER "-${CUTLINE_SHORT_CLUSTERS}"
                     PROPERTIES TIMEOUT 600 LABELS cluster RESOURCE_LOCK mpirun
                                ENVIRONMENT "${CUTLINE_CLUSTER_TEST_ENV}")
gtest_discover_tests(cluster_test DISCOVERY_TIMEOUT 60 TEST_LIST cluster_tests_short
                     TEST_FILTER "${CUTLINE_SHORT_CLUSTERS}"
                     PROPERTIES TIMEOUT 300 LABELS cluster RESOURCE_LOCK mpirun
                                ENVIRONMENT "${CUTLINE_CLUSTER_TEST_ENV}")
