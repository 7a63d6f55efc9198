# The runtime across hosts, on one machine: ranks in network namespaces of
# their own (scripts/local-hosts.sh), with a kill inside a snapshot, a
# restore and the logs checked. Needs root; skipped (77) where namespaces
# cannot be made.
add_test(NAME HostsTest.ThreeHostsSnapshotKillRestoreAndLogs
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/hosts_test.sh $<TARGET_FILE:cutline>
                 ${PROJECT_SOURCE_DIR}/scripts/local-hosts.sh)
# Serial and with leak detection off under ASan, as the other cluster tests
# (api.cmake sets CUTLINE_CLUSTER_TEST_ENV).
set_tests_properties(HostsTest.ThreeHostsSnapshotKillRestoreAndLogs PROPERTIES
                     SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS cluster RESOURCE_LOCK mpirun
                     ENVIRONMENT "${CUTLINE_CLUSTER_TEST_ENV}")
