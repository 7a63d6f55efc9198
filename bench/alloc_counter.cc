// Replacement global operator new/delete that keep live/peak byte counts.
#include "alloc_counter.h"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace cutline::bench {
namespace {

std::atomic<std::size_t> g_live{0};
std::atomic<std::size_t> g_peak{0};

void* Allocate(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  std::size_t live =
      g_live.fetch_add(malloc_usable_size(p), std::memory_order_relaxed) +
      malloc_usable_size(p);
  std::size_t peak = g_peak.load(std::memory_order_relaxed);
  while (live > peak &&
         !g_peak.compare_exchange_weak(peak, live, std::memory_order_relaxed)) {
  }
  return p;
}

void Release(void* p) noexcept {
  if (p == nullptr) return;
  g_live.fetch_sub(malloc_usable_size(p), std::memory_order_relaxed);
  std::free(p);
}

}  // namespace

std::size_t HeapLive() { return g_live.load(std::memory_order_relaxed); }
std::size_t HeapPeak() { return g_peak.load(std::memory_order_relaxed); }
void ResetHeapPeak() {
  g_peak.store(g_live.load(std::memory_order_relaxed),
               std::memory_order_relaxed);
}

}  // namespace cutline::bench

// Over-aligned new/delete are left to the library (nothing here uses them);
// they are consistently uncounted.
void* operator new(std::size_t size) { return cutline::bench::Allocate(size); }
void* operator new[](std::size_t size) {
  return cutline::bench::Allocate(size);
}
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return cutline::bench::Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return cutline::bench::Allocate(size);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { cutline::bench::Release(p); }
void operator delete[](void* p) noexcept { cutline::bench::Release(p); }
void operator delete(void* p, std::size_t) noexcept {
  cutline::bench::Release(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  cutline::bench::Release(p);
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  cutline::bench::Release(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  cutline::bench::Release(p);
}
