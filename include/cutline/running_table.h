// RunningTable: a rules class's running (and done, not yet forgotten)
// snapshots, sorted by id. Not API: the rules classes' private store.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "cutline/step.h"

namespace cutline::detail {

// A sorted vector whose Erase only marks the slot, and squeezes the marked
// slots out once they are half of it: erasing n entries in any order costs
// O(n log n) in all, where erasing from a vector's front cost O(n^2)
// (forgetting 200,000 untaken parts, oldest first, took 24 s in 0.3).
// Lookups stay a binary search over one array, and a scan in id order (a
// message joining every recording snapshot) stays a walk along it.
// Local must have a `SnapshotId id` member.
template <class Local>
class RunningTable {
 public:
  const Local* Find(SnapshotId id) const {
    auto it = LowerBound(id);
    return (it != slots_.end() && it->local.id == id && it->live) ? &it->local : nullptr;
  }
  Local* Find(SnapshotId id) { return const_cast<Local*>(std::as_const(*this).Find(id)); }

  // REQUIRES: no live entry has local.id (a closed id is never recorded again).
  Local& Insert(Local local) {
    const SnapshotId id = local.id;
    auto it = LowerBound(id);
    if (it != slots_.end() && it->local.id == id) {  // a dead slot of that id
      it->local = std::move(local);
      it->live = true;
      --dead_;
      return it->local;
    }
    return slots_.insert(it, Slot{std::move(local), true})->local;
  }

  // `id` no longer runs here: nothing if no live entry has it.
  void Erase(SnapshotId id) {
    auto it = LowerBound(id);
    if (it == slots_.end() || it->local.id != id || !it->live) return;
    it->live = false;
    ++dead_;
    // The newest entries go in O(1), so that back() stays live.
    while (!slots_.empty() && !slots_.back().live) {
      slots_.pop_back();
      --dead_;
    }
    if (dead_ * 2 > slots_.size()) {
      std::erase_if(slots_, [](const Slot& s) { return !s.live; });
      dead_ = 0;
    }
  }

  // fn(local) for every live entry, in id order.
  template <class Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& s : slots_) {
      if (s.live) fn(s.local);
    }
  }
  template <class Fn>
  void ForEach(Fn&& fn) {
    for (Slot& s : slots_) {
      if (s.live) fn(s.local);
    }
  }
  // fn(local) for every live entry with an id above `id`, in id order; the
  // walk starts from the newest end, so a few new ones cost a few steps.
  template <class Fn>
  void ForEachAbove(SnapshotId id, Fn&& fn) {
    std::size_t first = slots_.size();
    while (first > 0 && slots_[first - 1].local.id > id) --first;
    for (std::size_t i = first; i < slots_.size(); ++i) {
      if (slots_[i].live) fn(slots_[i].local);
    }
  }

  // The newest live entry. REQUIRES: !empty().
  const Local& back() const { return slots_.back().local; }
  bool empty() const { return slots_.empty(); }
  std::size_t size() const { return slots_.size() - dead_; }

 private:
  struct Slot {
    Local local;
    bool live;
  };
  auto LowerBound(SnapshotId id) const {
    return std::lower_bound(slots_.begin(), slots_.end(), id,
                            [](const Slot& s, SnapshotId v) { return s.local.id < v; });
  }
  auto LowerBound(SnapshotId id) {
    return std::lower_bound(slots_.begin(), slots_.end(), id,
                            [](const Slot& s, SnapshotId v) { return s.local.id < v; });
  }

  std::vector<Slot> slots_;  // sorted by id; the last one is live
  std::size_t dead_ = 0;     // slots erased but not yet squeezed out
};

}  // namespace cutline::detail
