// Heap accounting for the benchmarks: the binary replaces the global
// operator new/delete and counts the usable size (malloc_usable_size) of
// every block, so live and peak bytes of C++ allocations can be read at any
// point. It does not see malloc's per-block headers, fragmentation or memory
// the allocator keeps after free: peak RSS (measured in a child process, see
// bench_snapshot.cc) covers those.
#pragma once

#include <cstddef>

namespace cutline::bench {

std::size_t HeapLive();   // bytes currently allocated through operator new
std::size_t HeapPeak();   // highest HeapLive() since the last ResetHeapPeak()
void ResetHeapPeak();     // peak := live

}  // namespace cutline::bench
