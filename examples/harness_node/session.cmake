# Plays session.jsonl to NODE as `cutline test` would (the tester's lines
# and n2's), and checks what n1 answers: init_ok, its transfer out, the
# record of its $70 before the marker it sends, and its part with n2's $5
# transfer (msg_id 1) recorded on the channel from n2.
#   cmake -DNODE=harness_node -DSESSION=session.jsonl -P session.cmake
execute_process(COMMAND ${NODE} INPUT_FILE ${SESSION}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE status)
message("${out}${err}")
if(NOT status EQUAL 0)
  message(FATAL_ERROR "the node exited with ${status}")
endif()
foreach(expected
    [["type":"init_ok"]]
    [["body":{"amount":30,"msg_id":1,"type":"transfer"},"dest":"n2"]]
    [["body":{"balance":70,"snapshot":1,"type":"record"},"dest":"c0"]]
    [["body":{"msg_id":2,"snapshot":1,"type":"marker"},"dest":"n2"]]
    [["body":{"channels":{"n2":[1]},"snapshot":1,"type":"part_done"},"dest":"c0"]]
    [["in_reply_to":4,"type":"sync_ok"]])
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the node did not answer ${expected}")
  endif()
endforeach()
