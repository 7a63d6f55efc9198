# Precompiled headers (CUTLINE_PCH, on by default): the standard library,
# fmt, nlohmann/json and, for the tests, GoogleTest and rapidcheck are
# parsed once per build instead of once per source file. Every module's
# library and the cutline binary share one precompiled header, the tests
# compiled at -O0 another, the tests compiled at the build's level a third
# (a precompiled header is only used with the flags it was made with). The
# targets are found, not listed: a module or a test added later is covered
# without a line here.
#
# Left out: cutline_core (the installed library: it compiles with nothing
# but the standard library, as a user builds it), the fuzzers (flags of
# their own), the benchmarks, and g++'s builds (below). A source that uses
# one of these headers without including it still compiles where the
# precompiled header is on; the plain build (g++) fails on it.
option(CUTLINE_PCH "Precompile the standard library's and the dependencies' headers" ON)

set(CUTLINE_PCH_HEADERS
  <algorithm> <chrono> <cstdint> <filesystem> <fstream> <functional> <map>
  <memory> <optional> <set> <sstream> <string> <string_view> <utility>
  <variant> <vector> <fmt/format.h> <nlohmann/json.hpp>)
set(CUTLINE_PCH_TEST_HEADERS ${CUTLINE_PCH_HEADERS} <gtest/gtest.h> <gmock/gmock.h>)

# A target that holds only the precompiled header, compiled with the flags
# of the targets that reuse it. fmt::fmt defines FMT_SHARED, which fmt's
# headers test, and a source compiled with the header should see it defined
# as the header was made (g++ refuses the header otherwise; clang silently
# takes the header's): every target that reuses one defines it too (on
# Linux it changes nothing but a visibility that is the default already).
function(cutline_pch_holder name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "HEADERS;OPTIONS;LIBRARIES")
  set(source ${PROJECT_BINARY_DIR}/pch/${name}.cc)
  file(CONFIGURE OUTPUT ${source} CONTENT "// ${name}: its precompiled header only.\n")
  add_library(${name} OBJECT ${source})
  target_link_libraries(${name} PRIVATE fmt::fmt nlohmann_json::nlohmann_json ${arg_LIBRARIES})
  target_compile_options(${name} PRIVATE ${arg_OPTIONS})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # clang records the headers' times in a precompiled header and refuses
    # it when one differs, as for one ccache made in another build folder.
    target_compile_options(${name} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
  endif()
  cutline_warnings(${name})
  target_precompile_headers(${name} PRIVATE ${arg_HEADERS})
endfunction()

function(cutline_precompiled_headers)
  if(NOT CUTLINE_PCH)
    return()
  endif()
  # Not with g++: loading its precompiled header costs about a third of
  # parsing the headers, so it saved about a second per source file, and
  # g++ 12 forgets there the headers' own #pragma GCC diagnostic, so that
  # libstdc++'s std::string (char_traits.h, which silences these) warns of
  # bounds in store/verify.cc and -Werror stops the build. clang loads its
  # precompiled header lazily, nearly free: the sanitized build gains.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  cutline_pch_holder(cutline_pch_src HEADERS ${CUTLINE_PCH_HEADERS})
  if(CUTLINE_TESTS)
    cutline_pch_holder(cutline_pch_tests HEADERS ${CUTLINE_PCH_TEST_HEADERS}
                       OPTIONS -O0 LIBRARIES GTest::gmock)
    cutline_pch_holder(cutline_pch_tests_optimized
                       HEADERS ${CUTLINE_PCH_TEST_HEADERS} <rapidcheck.h>
                       LIBRARIES GTest::gmock rapidcheck)
  endif()
  get_property(directories DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY SUBDIRECTORIES)
  foreach(directory ${directories})
    file(RELATIVE_PATH folder ${PROJECT_SOURCE_DIR} ${directory})
    get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      if(NOT type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
        continue()
      endif()
      set(holder "")
      if(folder MATCHES "^src/" AND NOT target STREQUAL "cutline_core")
        set(holder cutline_pch_src)
      elseif(folder STREQUAL "tests")
        get_target_property(libraries ${target} LINK_LIBRARIES)
        get_target_property(options ${target} COMPILE_OPTIONS)
        if(NOT "${libraries}" MATCHES "GTest::")
          # No GoogleTest: not a test the holders' flags fit.
        elseif("-O0" IN_LIST options)
          set(holder cutline_pch_tests)
        else()
          set(holder cutline_pch_tests_optimized)
        endif()
      endif()
      if(holder)
        target_precompile_headers(${target} REUSE_FROM ${holder})
        target_compile_definitions(${target} PRIVATE FMT_SHARED)
      endif()
    endforeach()
  endforeach()
endfunction()
