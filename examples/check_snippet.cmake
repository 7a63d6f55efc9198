# docs/library.md shows the host loop of examples/host_loop/process.h: this
# checks that the docs hold that file's text between its "[docs:host]" and
# "[docs:host-end]" lines, byte for byte, so the snippet is code that compiles.
#   cmake -DDOC=docs/library.md -DSOURCE=examples/host_loop/process.h -P check_snippet.cmake
file(READ "${SOURCE}" source)
file(READ "${DOC}" doc)
string(FIND "${source}" "// [docs:host]\n" begin)
string(FIND "${source}" "// [docs:host-end]" end)
if(begin EQUAL -1 OR end EQUAL -1)
  message(FATAL_ERROR "${SOURCE}: no [docs:host] ... [docs:host-end] lines")
endif()
string(LENGTH "// [docs:host]\n" skip)
math(EXPR begin "${begin} + ${skip}")
math(EXPR length "${end} - ${begin}")
string(SUBSTRING "${source}" ${begin} ${length} snippet)
string(STRIP "${snippet}" snippet)
string(FIND "${doc}" "${snippet}" found)
if(found EQUAL -1)
  message(FATAL_ERROR "${DOC} does not show the host loop of ${SOURCE} as it is; "
                      "copy the lines between [docs:host] and [docs:host-end] into it")
endif()
message(STATUS "the docs' host loop is ${SOURCE}'s")
