// ClosedIds: which snapshot ids are over (finished, forgotten, aborted), in
// bounded memory. Shared by every rules class and the collector, so "a
// finished id stays finished" means one thing everywhere.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cutline/step.h"

namespace cutline {

// The bounds a process (a rules class, an agent) or a collector holds its
// ids to: one type, one set of defaults, for both. All are limits on
// snapshots in flight, chosen by the host:
//  - closed_window: how many finished ids above the floor are kept one by
//    one. With at most that many snapshots finishing out of order while an
//    older one is still on its way (to this process, or its part to the
//    collector), every snapshot gets a true answer; past it, the older one is
//    answered kTooOld (never a silent kFinished).
//  - ahead_max: how far a new id may be above the newest id this process
//    has vouched for: one it started itself, one whose part finished here
//    (a marker of it came on every input), one the host named (a collector's
//    completed snapshot, RaiseFloor). An id or stamp further ahead (garbage,
//    UINT64_MAX, a real id with a high bit flipped) is refused with
//    kTooFarAhead instead of creating a snapshot or an epoch that no process
//    started. A refused or merely recorded id vouches for nothing, so garbage
//    that is accepted (it is within the bound) cannot raise the bound for the
//    next garbage. The default, 2^20 - 1, refuses a vouched id with any one
//    of bits 20 to 63 flipped (0.3's 2^32 let bit 32 through); no bound can
//    tell a flip of a lower bit from a real id.
//  - running_max: how many newer snapshots may record at a process while a
//    part there is unfinished. Past it, SnapshotAgent::TakeOverdue names the
//    part (kOverdue): a Lai-Yang count too high, or a marker lost, would
//    otherwise leave it unfinished for ever, silently.
struct IdLimits {
  static constexpr std::size_t kDefaultWindow = 64;
  static constexpr SnapshotId kDefaultAheadMax = (SnapshotId{1} << 20) - 1;
  static constexpr std::size_t kDefaultRunningMax = 64;

  std::size_t closed_window = kDefaultWindow;
  SnapshotId ahead_max = kDefaultAheadMax;
  std::size_t running_max = kDefaultRunningMax;
};

// The stable name of `e`, followed for the answers of a bound by that bound
// as the host set it: "too_old (closed_window 64)", "too_far_ahead
// (ahead_max 1048576)", "overdue (running_max 64)". For logs; words for
// people are the host's (its catalogue, keyed by the enum, may show the
// same numbers).
inline std::string ToString(AgentError e, const IdLimits& limits) {
  std::string out(ToString(e));
  auto with = [&](const char* bound, std::uint64_t value) {
    out += " (";
    out += bound;
    out += ' ';
    out += std::to_string(value);
    out += ')';
  };
  if (e == AgentError::kTooOld) with("closed_window", limits.closed_window);
  if (e == AgentError::kTooFarAhead) with("ahead_max", limits.ahead_max);
  if (e == AgentError::kOverdue) with("running_max", limits.running_max);
  return out;
}

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
      : ClosedIds(floor, limits.closed_window, limits.ahead_max) {
    running_max_ = limits.running_max;
  }
  // The limits given (running_max is only kept here, for its owner to say).
  IdLimits limits() const { return {window_, ahead_max_, running_max_}; }

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

  // `id` is vouched for (IdLimits::ahead_max): ids are judged "far ahead"
  // from the newest one vouched for. Being recorded, or closed, vouches for
  // nothing: a marker of garbage records too.
  void Seen(SnapshotId id) { newest_ = std::max(newest_, id); }

  void Add(SnapshotId id) {
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
  SnapshotId newest_;  // the newest id vouched for (Seen)
  std::size_t window_;
  SnapshotId ahead_max_;
  std::size_t running_max_ = IdLimits::kDefaultRunningMax;
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

// A done part is vouched for: its marker (or count) came on every input.
template <class Local, class Drop>
Reply ForgetSnapshot(SnapshotId id, const Local* local, ClosedIds& closed, Drop&& drop) {
  if (local == nullptr) return ForgetRefusal(id, closed);
  if (local->open != 0) return Reply::Refused(AgentError::kNotDone, id);
  closed.Seen(id);
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
  // An abort vouches for nothing (ahead_max): the host may be aborting garbage.
  closed.Add(id);
  return Reply::Of(id);
}

}  // namespace cutline
