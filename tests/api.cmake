# The HTTP API against a real server and a real client (api_test), and the
# `cutline` command run as a real process (cli_test).
add_executable(api_test ${CMAKE_CURRENT_SOURCE_DIR}/api_test.cc)
find_package(ZLIB REQUIRED)  # the tests gzip a request body themselves
target_link_libraries(api_test PRIVATE cutline_server PkgConfig::HTTPLIB
                      ZLIB::ZLIB GTest::gtest_main)
target_include_directories(api_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
cutline_warnings(api_test)
gtest_discover_tests(api_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)

add_executable(cli_test ${CMAKE_CURRENT_SOURCE_DIR}/cli_test.cc)
# cutline_store: the store tests write their stores with the real Store.
target_link_libraries(cli_test PRIVATE cutline_server cutline_store
                      PkgConfig::HTTPLIB GTest::gtest_main)
target_compile_definitions(cli_test PRIVATE
  CUTLINE_BINARY="$<TARGET_FILE:cutline>")
add_dependencies(cli_test cutline)
cutline_warnings(cli_test)
gtest_discover_tests(cli_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)

# The server under a classroom's load: idle and slow connections, the cap,
# deadlines, pipelining, event streams.
add_executable(server_test ${CMAKE_CURRENT_SOURCE_DIR}/server_test.cc)
target_link_libraries(server_test PRIVATE cutline_server cutline_store PkgConfig::HTTPLIB
                      ZLIB::ZLIB GTest::gtest_main)
target_include_directories(server_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
cutline_warnings(server_test)
gtest_discover_tests(server_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)

# The runtime with real processes: mpirun and `cutline node` ranks.
add_executable(cluster_test ${CMAKE_CURRENT_SOURCE_DIR}/cluster_test.cc)
# cutline_store: the tests read the store the run wrote, times and all.
target_link_libraries(cluster_test PRIVATE cutline_store cutline_catalogue cutline_runtime_protocol GTest::gtest_main)
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
# on their rate, and the suite's other tests fill the idle core.
gtest_discover_tests(cluster_test DISCOVERY_TIMEOUT 60
                     PROPERTIES TIMEOUT 600 LABELS cluster RESOURCE_LOCK mpirun
                                ENVIRONMENT "${CUTLINE_CLUSTER_TEST_ENV}")

# jobs and locks on real ranks (`cutline cluster --app`), judged by their logs.
add_executable(apps_cluster_test ${CMAKE_CURRENT_SOURCE_DIR}/apps_cluster_test.cc)
target_link_libraries(apps_cluster_test PRIVATE fmt::fmt nlohmann_json::nlohmann_json
                      GTest::gtest_main)
target_compile_definitions(apps_cluster_test PRIVATE CUTLINE_BINARY="$<TARGET_FILE:cutline>")
add_dependencies(apps_cluster_test cutline)
cutline_warnings(apps_cluster_test)
gtest_discover_tests(apps_cluster_test DISCOVERY_TIMEOUT 60
                     PROPERTIES TIMEOUT 300 LABELS cluster RESOURCE_LOCK mpirun
                                ENVIRONMENT "${CUTLINE_CLUSTER_TEST_ENV}")

# A dataflow on real ranks (`cutline cluster --app dataflow`): every mode
# conserves and counts each record once, and a run killed inside a snapshot
# restores from the store with each record counted once.
add_executable(dataflow_cluster_test ${CMAKE_CURRENT_SOURCE_DIR}/dataflow_cluster_test.cc)
target_link_libraries(dataflow_cluster_test PRIVATE fmt::fmt nlohmann_json::nlohmann_json
                      GTest::gtest_main)
target_compile_definitions(dataflow_cluster_test PRIVATE CUTLINE_BINARY="$<TARGET_FILE:cutline>")
add_dependencies(dataflow_cluster_test cutline)
cutline_warnings(dataflow_cluster_test)
gtest_discover_tests(dataflow_cluster_test DISCOVERY_TIMEOUT 60
                     PROPERTIES TIMEOUT 300 LABELS cluster RESOURCE_LOCK mpirun
                                ENVIRONMENT "${CUTLINE_CLUSTER_TEST_ENV}")

# The lecture's rooms over the real server: driving, following, answering,
# and every refusal (tests/lecture_api_test.cc).
add_executable(lecture_api_test ${CMAKE_CURRENT_SOURCE_DIR}/lecture_api_test.cc)
target_link_libraries(lecture_api_test PRIVATE cutline_server PkgConfig::HTTPLIB GTest::gtest_main)
target_include_directories(lecture_api_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
cutline_warnings(lecture_api_test)
gtest_discover_tests(lecture_api_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)

add_executable(run_cache_test ${CMAKE_CURRENT_SOURCE_DIR}/run_cache_test.cc)
target_link_libraries(run_cache_test PRIVATE cutline_server PkgConfig::HTTPLIB GTest::gtest_main)
target_include_directories(run_cache_test PRIVATE ${PROJECT_SOURCE_DIR}/src)
cutline_warnings(run_cache_test)
gtest_discover_tests(run_cache_test DISCOVERY_TIMEOUT 60 PROPERTIES TIMEOUT 120)
# `cutline check --logs DIR --format events` on logs cutline did not write:
# the Python example's (examples/events_log), run by the test itself, in
# cli_test's binary (one link fewer per build).
target_sources(cli_test PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/events_log_test.cc)
target_compile_definitions(cli_test PRIVATE CUTLINE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
