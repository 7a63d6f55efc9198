# Golden scenario files in testdata/ (run with --rewrite to regenerate).
add_executable(golden_test ${CMAKE_CURRENT_SOURCE_DIR}/golden_test.cc)
target_link_libraries(golden_test PRIVATE cutline_scenario cutline_check GTest::gtest)
target_compile_definitions(golden_test PRIVATE
  CUTLINE_TESTDATA_DIR="${PROJECT_SOURCE_DIR}/testdata")
cutline_warnings(golden_test)
gtest_discover_tests(golden_test DISCOVERY_TIMEOUT 60)
