# Unity builds (CUTLINE_UNITY, off by default): each target's sources are
# compiled in batches, one translation unit per batch, so that the standard
# library's, fmt's, nlohmann/json's and GoogleTest's headers are parsed and
# their templates instantiated and optimized once per batch rather than once
# per source. The Makefile's builds (make build, make asan-build) turn it on:
# a fresh machine's make test compiles them once. Off by default because a
# change to one source recompiles its whole batch: a developer's own build,
# rebuilt after every edit, stays one source per unit. The targets are found,
# not listed (as for the precompiled headers).
#
# A source is left out of the batches (SKIP_UNITY_BUILD_INCLUSION) when its
# names would clash with a batch-mate's (two sources' anonymous namespaces
# are one namespace in a unity source), or when it is big and generated:
# those are listed in the modules' CMakeLists.txt, beside their sources.
option(CUTLINE_UNITY "Compile each target's sources in batches (unity build)" OFF)
# Sources per batch: big enough that the headers are shared, small enough
# that a target's batches keep both cores of a small machine busy.
set(CUTLINE_UNITY_BATCH_SIZE 8 CACHE STRING "Sources per unity batch (CUTLINE_UNITY)")

function(cutline_unity_build)
  if(NOT CUTLINE_UNITY)
    return()
  endif()
  get_property(directories DIRECTORY ${PROJECT_SOURCE_DIR} PROPERTY SUBDIRECTORIES)
  foreach(directory ${directories})
    get_property(targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
    foreach(target ${targets})
      get_target_property(type ${target} TYPE)
      if(type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
        set_target_properties(${target} PROPERTIES
          UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${CUTLINE_UNITY_BATCH_SIZE})
        # g++ takes a source included by the unity source for a header, and
        # warns of a class there whose member's type is another source's
        # anonymous type: true of a header, not of a source.
        target_compile_options(${target} PRIVATE
                               $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
      endif()
    endforeach()
  endforeach()
endfunction()
