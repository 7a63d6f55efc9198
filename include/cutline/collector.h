// SnapshotCollector: the other end of the agents. Each process, when its part
// of a snapshot is done, sends what it recorded to one collector; the
// collector assembles the parts and says when a snapshot is whole. Pure, like
// the agent: the host moves the parts and decides what to do with a whole
// snapshot (store it, print it) and with one that cannot finish (a process
// died, or it took too long: Abandon it, or AbandonOlderThan a bound).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cutline/closed_ids.h"
#include "cutline/step.h"

namespace cutline {

using ProcessIndex = std::uint32_t;

// One process's part of one snapshot, as SnapshotAgent::TakeFinished hands
// it and SnapshotCollector assembles it.
template <class State, class Payload>
struct SnapshotPart {
  State state{};
  // For each incoming channel (by the process's ChannelIndex), the messages
  // recorded on it by this process, the receiver, in arrival order.
  std::vector<std::vector<Payload>> channels;
  // For each outgoing channel (by the process's outgoing index), messages
  // recorded by this process, the sender, as belonging to that channel's
  // state: what an unaligned barrier overtook, in channel order. They come
  // after what the receiver recorded on the channel. Empty for the other
  // algorithms.
  std::vector<std::vector<Payload>> sent = {};
  // Equal when every field is (for State and Payload that compare).
  bool operator==(const SnapshotPart&) const = default;
};

// What Add says.
enum class PartAdded : std::uint8_t {
  kPending,         // kept; parts from other processes are still missing
  kComplete,        // that was the last part: Take(id) gives the snapshot
  kDuplicate,       // this process already gave its part of this snapshot
  kUnknownProcess,  // process index out of range
  kClosed,          // the snapshot was taken or abandoned already
  // Added in 0.3: the answers that used to be kClosed or a silent kPending.
  kTooOld,          // older than the closed ids the collector remembers (its
                    // closed_window): it cannot be assembled any more; the host
                    // counts it lost (more snapshots were in flight than the window)
  kTooFarAhead,     // an id more than ahead_max above the newest seen: garbage
  kInvalidSnapshot, // id 0
  kWrongShape,      // the part's channels (or sent) do not match the process's
                    // declared channels (PartShape)
};

// How many incoming and outgoing channels a process has: the shape of its
// parts (channels.size() == incoming; sent.size() == outgoing, or sent empty).
struct PartShape {
  std::uint32_t incoming = 0;
  std::uint32_t outgoing = 0;
};

constexpr std::string_view ToString(PartAdded a) {
  switch (a) {
    case PartAdded::kPending: return "pending";
    case PartAdded::kComplete: return "complete";
    case PartAdded::kDuplicate: return "duplicate";
    case PartAdded::kUnknownProcess: return "unknown_process";
    case PartAdded::kClosed: return "closed";
    case PartAdded::kTooOld: return "too_old";
    case PartAdded::kTooFarAhead: return "too_far_ahead";
    case PartAdded::kInvalidSnapshot: return "invalid_snapshot";
    case PartAdded::kWrongShape: return "wrong_shape";
  }
  return "unknown_added";
}

// The stable name of `a`, followed for the answers of a bound by that bound
// (see ToString(AgentError, IdLimits)): "too_old (closed_window 64)".
inline std::string ToString(PartAdded a, const IdLimits& limits) {
  switch (a) {
    case PartAdded::kTooOld: return ToString(AgentError::kTooOld, limits);
    case PartAdded::kTooFarAhead: return ToString(AgentError::kTooFarAhead, limits);
    default: return std::string(ToString(a));
  }
}

// Memory: the pending snapshots' parts plus a ClosedIds (bounded whatever
// the ids). The host bounds the pending ones: AbandonOlderThan(newest -
// bound) drops every snapshot that has waited too long.
//
// Thread-compatible: const members may run concurrently; every other call
// needs exclusive access (a collector fed by several threads is locked by
// its host).
template <class State, class Payload>
class SnapshotCollector {
 public:
  using Part = SnapshotPart<State, Payload>;
  using Added = PartAdded;

  // `first_id`: the first snapshot id of this run (a restored run continues
  // the ids of the one it restores); any id below it counts as closed.
  // `limits`: the agents' IdLimits type and defaults (closed_ids.h):
  // closed_window is how many snapshots may complete while an older one
  // still waits for its first part before that part is answered kTooOld;
  // ahead_max how far above the newest id completed here (or first_id - 1)
  // a new id may be (kTooFarAhead beyond); running_max is not used here
  // (AbandonOlderThan is the collector's age bound).
  // This constructor does not know the processes' channels: parts of any
  // shape are taken. Give PartShapes to have wrong ones refused.
  explicit SnapshotCollector(ProcessIndex processes, SnapshotId first_id = 1,
                             const IdLimits& limits = {})
      : processes_(processes), closed_(first_id, limits) {}
  // One shape per process: a part that does not match it is kWrongShape.
  explicit SnapshotCollector(std::vector<PartShape> shapes, SnapshotId first_id = 1,
                             const IdLimits& limits = {})
      : processes_(static_cast<ProcessIndex>(shapes.size())),
        shapes_(std::move(shapes)),
        closed_(first_id, limits) {}
  // 0.3's forms, with the window and ahead_max as two numbers (and, left
  // out, a window of 1024 where IdLimits says 64).
  [[deprecated("pass IdLimits{.closed_window = w, .ahead_max = a}")]]
  SnapshotCollector(ProcessIndex processes, SnapshotId first_id, std::size_t closed_window,
                    SnapshotId ahead_max = IdLimits::kDefaultAheadMax)
      : SnapshotCollector(processes, first_id, IdLimits{closed_window, ahead_max}) {}
  [[deprecated("pass IdLimits{.closed_window = w, .ahead_max = a}")]]
  SnapshotCollector(std::vector<PartShape> shapes, SnapshotId first_id,
                    std::size_t closed_window, SnapshotId ahead_max = IdLimits::kDefaultAheadMax)
      : SnapshotCollector(std::move(shapes), first_id, IdLimits{closed_window, ahead_max}) {}

  Added Add(SnapshotId id, ProcessIndex from, Part part) {
    if (from >= processes_) return Added::kUnknownProcess;
    if (!shapes_.empty() && !Fits(part, shapes_[from])) return Added::kWrongShape;
    auto it = pending_.find(id);
    if (it == pending_.end()) {
      switch (closed_.Check(id)) {
        case AgentError::kNone: break;
        case AgentError::kInvalidSnapshot: return Added::kInvalidSnapshot;
        case AgentError::kTooOld: return Added::kTooOld;
        case AgentError::kTooFarAhead: return Added::kTooFarAhead;
        default: return Added::kClosed;
      }
      // A part vouches for nothing (ahead_max): Take does, once every
      // process has sent one.
      it = pending_.emplace(id, Assembly{}).first;
      it->second.parts.resize(processes_);
    }
    Assembly& p = it->second;
    if (p.parts[from]) return Added::kDuplicate;
    p.parts[from] = std::move(part);
    return ++p.received == processes_ ? Added::kComplete : Added::kPending;
  }

  // The parts of a whole snapshot, by process, and forgets it. Nothing if
  // `id` is not whole.
  std::optional<std::vector<Part>> Take(SnapshotId id) {
    auto it = pending_.find(id);
    if (it == pending_.end() || it->second.received != processes_) return std::nullopt;
    std::vector<Part> out;
    out.reserve(processes_);
    for (auto& part : it->second.parts) out.push_back(std::move(*part));
    pending_.erase(it);
    closed_.Seen(id);
    closed_.Add(id);
    return out;
  }

  // Gives up on `id` (a process died, or it took too long): its parts are
  // dropped, and any part that still arrives is refused as kClosed.
  void Abandon(SnapshotId id) {
    pending_.erase(id);
    closed_.Add(id);
  }

  // Gives up on every snapshot below `id` at once, pending or not yet seen;
  // returns the pending ones it dropped, in id order. A host calls it with
  // (newest id - bound) to put an age limit on pending parts.
  std::vector<SnapshotId> AbandonOlderThan(SnapshotId id) {
    std::vector<SnapshotId> dropped;
    auto end = pending_.lower_bound(id);
    for (auto it = pending_.begin(); it != end; ++it) dropped.push_back(it->first);
    pending_.erase(pending_.begin(), end);
    closed_.RaiseFloor(id);
    return dropped;
  }

  // Snapshots with at least one part and not yet whole, in id order.
  std::vector<SnapshotId> Pending() const {
    std::vector<SnapshotId> out;
    for (const auto& [id, p] : pending_) out.push_back(id);
    return out;
  }
  // How many parts of `id` have arrived.
  ProcessIndex Received(SnapshotId id) const {
    auto it = pending_.find(id);
    return it == pending_.end() ? 0 : it->second.received;
  }
  // The processes whose part of `id` has not arrived, in order: every one
  // for an id with no part yet. What a host says when it gives `id` up
  // (which processes it waited for).
  std::vector<ProcessIndex> Missing(SnapshotId id) const {
    std::vector<ProcessIndex> out;
    auto it = pending_.find(id);
    for (ProcessIndex p = 0; p < processes_; ++p) {
      if (it == pending_.end() || !it->second.parts[p]) out.push_back(p);
    }
    return out;
  }
  bool IsClosed(SnapshotId id) const {
    return pending_.count(id) == 0 && closed_.Contains(id);
  }
  ProcessIndex processes() const { return processes_; }
  // The limits given at construction.
  IdLimits limits() const { return closed_.limits(); }
  // Entries held: pending snapshots plus closed ids kept one by one.
  std::size_t retained() const { return pending_.size() + closed_.size(); }

 private:
  struct Assembly {
    std::vector<std::optional<Part>> parts;
    ProcessIndex received = 0;
  };

  static bool Fits(const Part& part, const PartShape& shape) {
    return part.channels.size() == shape.incoming &&
           (part.sent.empty() || part.sent.size() == shape.outgoing);
  }

  ProcessIndex processes_;
  std::vector<PartShape> shapes_;  // by process; empty: not checked
  ClosedIds closed_;
  std::map<SnapshotId, Assembly> pending_;
};

}  // namespace cutline
