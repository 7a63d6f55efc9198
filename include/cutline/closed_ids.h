// ClosedIds: which snapshot ids are over (finished, forgotten, aborted), in
// bounded memory. Shared by every rules class and the collector, so "a
// finished id stays finished" means one thing everywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "cutline/step.h"

namespace cutline {

// A floor (every id below it is closed) plus the closed ids at or above it,
// at most `window` of them. Ids mostly close in increasing order, so the
// floor climbs over them; when ids are sparse (5, 10, 15, ...) it cannot,
// and once more than `window` are kept the floor is raised past the oldest.
// The price of the bound: an id never seen before that is older than the
// window counts as closed (a snapshot that old is not worth starting).
// Callers ask their own running snapshots first: a running id below the
// floor is still running.
//
// Thread-compatible: const members may run concurrently; anything else needs
// exclusive access.
class ClosedIds {
 public:
  static constexpr std::size_t kDefaultWindow = 64;

  explicit ClosedIds(SnapshotId floor = 1, std::size_t window = kDefaultWindow)
      : floor_(floor), window_(window == 0 ? 1 : window) {}

  bool Contains(SnapshotId id) const {
    return id < floor_ || std::binary_search(above_.begin(), above_.end(), id);
  }

  void Add(SnapshotId id) {
    if (id < floor_) return;
    auto it = std::lower_bound(above_.begin(), above_.end(), id);
    if (it != above_.end() && *it == id) return;
    above_.insert(it, id);
    if (above_.size() > window_) {
      floor_ = above_.front() + 1;
      above_.erase(above_.begin());
    }
    Climb();
  }

  // Every id below `floor` is closed from now on.
  void RaiseFloor(SnapshotId floor) {
    if (floor <= floor_) return;
    floor_ = floor;
    above_.erase(above_.begin(),
                 std::lower_bound(above_.begin(), above_.end(), floor_));
    Climb();
  }

  SnapshotId floor() const { return floor_; }
  // Closed ids kept one by one (the floor summarizes the rest).
  std::size_t size() const { return above_.size(); }

 private:
  void Climb() {
    std::size_t n = 0;
    while (n < above_.size() && above_[n] == floor_) {
      ++floor_;
      ++n;
    }
    above_.erase(above_.begin(), above_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  SnapshotId floor_;
  std::size_t window_;
  std::vector<SnapshotId> above_;  // sorted, all >= floor_
};

// The contract's Forget and Abort (snapshot_rules.h), for a rules class that
// keeps each running snapshot as a `local` (null if not running here) with a
// count of channels still `open`, and ends one with `drop(local)` (which adds
// its id to `closed`). One place for when each is refused.
template <class Local, class Drop>
Reply ForgetSnapshot(SnapshotId id, const Local* local, const ClosedIds& closed, Drop&& drop) {
  if (local == nullptr) {
    return Reply::Refused(closed.Contains(id) ? AgentError::kFinished
                                              : AgentError::kUnknownSnapshot,
                          id);
  }
  if (local->open != 0) return Reply::Refused(AgentError::kNotDone, id);
  drop(local);
  return Reply::Of(id);
}

template <class Local, class Drop>
Reply AbortSnapshot(SnapshotId id, const Local* local, ClosedIds& closed, Drop&& drop) {
  if (id == 0) return Reply::Refused(AgentError::kInvalidSnapshot, id);
  if (local != nullptr) {
    drop(local);
    return Reply::Of(id);
  }
  if (closed.Contains(id)) return Reply::Refused(AgentError::kFinished, id);
  // Never seen here: closed now, so its markers (or messages) are ignored.
  closed.Add(id);
  return Reply::Of(id);
}

}  // namespace cutline
