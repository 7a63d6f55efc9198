// ClosedIds: which snapshot ids are over (finished, forgotten, aborted), in
// bounded memory. Shared by every rules class and the collector, so "a
// finished id stays finished" means one thing everywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cutline/step.h"

namespace cutline {

// The bounds a process (a rules class) or a collector holds its ids to.
// Both are limits on snapshots in flight, chosen by the host:
//  - closed_window: how many finished ids above the floor are kept one by
//    one. With at most that many snapshots finishing out of order while an
//    older one is still on its way to this process, every snapshot gets a
//    true answer; past it, the older one is answered kTooOld (never a silent
//    kFinished).
//  - ahead_max: how far above the newest id seen here a new id may be. An id
//    further ahead (a stamp of UINT64_MAX, a marker of garbage) is refused
//    with kTooFarAhead instead of creating a snapshot, or an epoch, that no
//    process started. The default leaves room for ids 2^32 apart.
struct IdLimits {
  static constexpr std::size_t kDefaultWindow = 64;
  static constexpr std::size_t kCollectorWindow = 1024;
  static constexpr SnapshotId kDefaultAheadMax = SnapshotId{1} << 32;

  std::size_t closed_window = kDefaultWindow;
  SnapshotId ahead_max = kDefaultAheadMax;
};

// A floor (every id below it is closed) plus the closed ids at or above it,
// at most `window` of them. Ids mostly close in increasing order, so the
// floor climbs over them; when ids are sparse (5, 10, 15, ...) or finish out
// of order it cannot, and once more than `window` are kept the floor jumps
// past the oldest. The ids that jump skips were never closed here: they are
// kept as a range of forgotten ids, which Check answers kTooOld instead of
// pretending they finished. At most kForgottenRanges ranges are kept; past
// that the two oldest merge, and the closed ids between them are answered
// kTooOld too (unsure, never falsely "finished").
// Callers ask their own running snapshots first: a running id below the
// floor is still running.
//
// Thread-compatible: const members may run concurrently; anything else needs
// exclusive access.
class ClosedIds {
 public:
  static constexpr std::size_t kDefaultWindow = IdLimits::kDefaultWindow;
  static constexpr std::size_t kForgottenRanges = 16;

  explicit ClosedIds(SnapshotId floor = 1, std::size_t window = kDefaultWindow,
                     SnapshotId ahead_max = IdLimits::kDefaultAheadMax)
      : floor_(floor == 0 ? 1 : floor),
        newest_(floor_ - 1),
        window_(window == 0 ? 1 : window),
        ahead_max_(ahead_max) {}
  ClosedIds(SnapshotId floor, const IdLimits& limits)
      : ClosedIds(floor, limits.closed_window, limits.ahead_max) {}

  // Closed, or older than what is remembered (either way not to record).
  bool Contains(SnapshotId id) const {
    return id < floor_ || std::binary_search(above_.begin(), above_.end(), id);
  }

  // Why `id`, not running here, may not be recorded now: kInvalidSnapshot
  // (0), kFinished (closed here), kTooOld (skipped by the window: unknown),
  // kTooFarAhead (beyond ahead_max of the newest id seen), else kNone.
  AgentError Check(SnapshotId id) const {
    if (id == 0) return AgentError::kInvalidSnapshot;
    if (id < floor_) return Forgotten(id) ? AgentError::kTooOld : AgentError::kFinished;
    if (std::binary_search(above_.begin(), above_.end(), id)) return AgentError::kFinished;
    if (id > newest_ && id - newest_ > ahead_max_) return AgentError::kTooFarAhead;
    return AgentError::kNone;
  }

  // `id` is running here (recorded, or an epoch moved to): ids are judged
  // "far ahead" from the newest one seen.
  void Seen(SnapshotId id) { newest_ = std::max(newest_, id); }

  void Add(SnapshotId id) {
    Seen(id);
    if (id < floor_) return;
    auto it = std::lower_bound(above_.begin(), above_.end(), id);
    if (it != above_.end() && *it == id) return;
    above_.insert(it, id);
    if (above_.size() > window_) {
      // The ids between the floor and the oldest kept one were never closed
      // here: from now on nobody knows what became of them.
      Forget(floor_, above_.front());
      floor_ = above_.front() + 1;
      above_.erase(above_.begin());
    }
    Climb();
  }

  // Every id below `floor` is closed from now on (the host said so).
  void RaiseFloor(SnapshotId floor) {
    if (floor <= floor_) return;
    floor_ = floor;
    Seen(floor - 1);
    above_.erase(above_.begin(),
                 std::lower_bound(above_.begin(), above_.end(), floor_));
    Climb();
  }

  SnapshotId floor() const { return floor_; }
  SnapshotId newest() const { return newest_; }
  std::size_t window() const { return window_; }
  SnapshotId ahead_max() const { return ahead_max_; }
  // Closed ids kept one by one (the floor summarizes the rest).
  std::size_t size() const { return above_.size(); }

 private:
  struct Range {
    SnapshotId begin, end;  // [begin, end)
  };
  bool Forgotten(SnapshotId id) const {
    for (const Range& r : forgotten_) {
      if (id >= r.begin && id < r.end) return true;
    }
    return false;
  }
  void Forget(SnapshotId begin, SnapshotId end) {
    if (begin >= end) return;
    if (!forgotten_.empty() && forgotten_.back().end == begin) {
      forgotten_.back().end = end;
      return;
    }
    forgotten_.push_back({begin, end});
    if (forgotten_.size() > kForgottenRanges) {
      forgotten_[1].begin = forgotten_[0].begin;
      forgotten_.erase(forgotten_.begin());
    }
  }
  void Climb() {
    std::size_t n = 0;
    while (n < above_.size() && above_[n] == floor_) {
      ++floor_;
      ++n;
    }
    above_.erase(above_.begin(), above_.begin() + static_cast<std::ptrdiff_t>(n));
  }

  SnapshotId floor_;
  SnapshotId newest_;  // the newest id seen (recorded or closed)
  std::size_t window_;
  SnapshotId ahead_max_;
  std::vector<SnapshotId> above_;  // sorted, all >= floor_
  std::vector<Range> forgotten_;   // below floor_, oldest first, disjoint
};

// Forget of an id not running here: kInvalidSnapshot (0), kFinished,
// kTooOld, or kUnknownSnapshot (never recorded here).
inline Reply ForgetRefusal(SnapshotId id, const ClosedIds& closed) {
  AgentError e = closed.Check(id);
  if (e == AgentError::kNone || e == AgentError::kTooFarAhead) e = AgentError::kUnknownSnapshot;
  return Reply::Refused(e, id);
}

template <class Local, class Drop>
Reply ForgetSnapshot(SnapshotId id, const Local* local, const ClosedIds& closed, Drop&& drop) {
  if (local == nullptr) return ForgetRefusal(id, closed);
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
  // Finished, forgotten or far ahead: refused as Check says.
  if (AgentError e = closed.Check(id); e != AgentError::kNone) return Reply::Refused(e, id);
  // Never seen here: closed now, so its markers (or messages) are ignored.
  closed.Add(id);
  return Reply::Of(id);
}

}  // namespace cutline
