// SnapshotCollector: the other end of the agents. Each process, when its part
// of a snapshot is done, sends what it recorded to one collector; the
// collector assembles the parts and says when a snapshot is whole. Pure, like
// the agent: the host moves the parts and decides what to do with a whole
// snapshot (store it, print it) and with one that cannot finish (a process
// died: Abandon it).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "cutline/marker_rules.h"

namespace cutline {

using ProcessIndex = std::uint32_t;

template <class State, class Payload>
class SnapshotCollector {
 public:
  // One process's part: its recorded state and, for each of its incoming
  // channels, the messages recorded on it in arrival order.
  struct Part {
    State state{};
    std::vector<std::vector<Payload>> channels;  // by the process's ChannelIndex
  };

  enum class Added : std::uint8_t {
    kPending,         // kept; parts from other processes are still missing
    kComplete,        // that was the last part: Take(id) gives the snapshot
    kDuplicate,       // this process already gave its part of this snapshot
    kUnknownProcess,  // process index out of range
    kClosed,          // the snapshot was taken or abandoned already
  };

  // `first_id`: the first snapshot id of this run (a restored run continues
  // the ids of the one it restores); any id below it counts as closed.
  explicit SnapshotCollector(ProcessIndex processes, SnapshotId first_id = 1)
      : processes_(processes), next_open_(first_id) {}

  Added Add(SnapshotId id, ProcessIndex from, Part part) {
    if (from >= processes_) return Added::kUnknownProcess;
    if (IsClosed(id)) return Added::kClosed;
    Assembly& p = pending_[id];
    if (p.parts.empty()) p.parts.resize(processes_);
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
    Close(id);
    return out;
  }

  // Gives up on `id` (a process died, or it took too long): its parts are
  // dropped, and any part that still arrives is refused as kClosed.
  void Abandon(SnapshotId id) {
    pending_.erase(id);
    Close(id);
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
  ProcessIndex processes() const { return processes_; }

 private:
  struct Assembly {
    std::vector<std::optional<Part>> parts;
    ProcessIndex received = 0;
  };
  bool IsClosed(SnapshotId id) const { return id < next_open_ || closed_.count(id) > 0; }
  // Ids are handed out increasing, so the closed ones are remembered as a
  // floor plus the few above it that closed out of order.
  void Close(SnapshotId id) {
    if (id < next_open_) return;
    closed_.insert(id);
    while (closed_.count(next_open_)) closed_.erase(next_open_++);
  }

  ProcessIndex processes_;
  SnapshotId next_open_;             // every id below it is closed
  std::set<SnapshotId> closed_;      // closed ids at or above next_open_
  std::map<SnapshotId, Assembly> pending_;
};

}  // namespace cutline
