// The run's history: every event in the order it happened. The space-time
// diagram, the narration, the naive reader's analysis and the independent
// consistency checker are all computed from it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cutline/marker_rules.h"

namespace cutline::sim {

using NodeId = std::uint32_t;
using ChannelId = std::uint32_t;
using Seq = std::uint64_t;  // global send sequence number, from 1

enum class MessageKind : std::uint8_t { kTransfer, kMarker };

enum class EventKind : std::uint8_t {
  kSend,       // node sent message `seq` on `channel`
  kDeliver,    // node received message `seq` from `channel`
  kRecord,     // node recorded its state (`value`) for `snapshot`
  kRead,       // the naive reader copied node's balance (`value`)
  kClose,      // node closed incoming `channel` for `snapshot`
  kPartDone,   // node has a marker of `snapshot` from every incoming channel
  kComplete,   // `snapshot` is complete (node = the one that finished last)
};

struct Event {
  EventKind kind;
  MessageKind message = MessageKind::kTransfer;  // kSend / kDeliver
  NodeId node = 0;
  ChannelId channel = 0;  // kSend / kDeliver / kClose
  Seq seq = 0;            // kSend / kDeliver
  std::int64_t value = 0;  // amount, marker's snapshot id, or a balance
  SnapshotId snapshot = 0;  // kRecord / kClose / kPartDone / kComplete
};

class History {
 public:
  explicit History(bool enabled = true) : enabled_(enabled) {}
  void Add(const Event& e) {
    if (enabled_) events_.push_back(e);
  }
  // Makes room for `more` further events at once (no-op when disabled), so
  // that a burst such as a snapshot does not double the buffer midway and
  // hold the old and new copies at the same moment.
  void Reserve(std::size_t more) {
    if (!enabled_ || events_.capacity() - events_.size() >= more) return;
    events_.reserve(std::max(events_.size() + more, 2 * events_.capacity()));
  }
  const std::vector<Event>& events() const { return events_; }
  std::size_t size() const { return events_.size(); }
  bool enabled() const { return enabled_; }

 private:
  bool enabled_;
  std::vector<Event> events_;
};

}  // namespace cutline::sim
