// What travels on a channel, and the run's history. The history is every event in
// the order it happened, each a type of its own whose fields mean one thing;
// a record says why it happened. The narration, the page's space-time
// diagram, the naive reader's analysis, the invariants and the independent
// consistency checker all read it (through Replay, src/engine/replay.h, when
// they need what it implies).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <variant>
#include <vector>

#include "base/check.h"
#include "base/amount.h"
#include "base/overloaded.h"
#include "cutline/marker_rules.h"
#include "sim/network.h"

namespace cutline::history {

using sim::ChannelId;
using sim::NodeId;
using sim::Seq;
using cutline::Amount;

// What travels on a channel: an application's message (money for the
// bank: `amount` is the application's word, apps/app.h), or a marker of a snapshot (under
// Lai-Yang the markers are its control messages; under the barrier
// algorithms, its barriers). A Lai-Yang transfer's epoch and a control
// message's count ride beside the message in the bank, not in it: both are
// functions of the history (the sender's last record before the send; its
// transfers on the channel before the record), and a 16-byte payload keeps
// an event at 32 bytes.
struct Transfer {
  Amount amount = 0;
  bool operator==(const Transfer&) const = default;
};
struct Marker {
  SnapshotId snapshot = 0;
  bool operator==(const Marker&) const = default;
};
using Payload = std::variant<Transfer, Marker>;

// A channel's capacity counts transfers; markers never count.
struct IsTransfer {
  bool operator()(const Payload& p) const {
    return std::holds_alternative<Transfer>(p);
  }
};

// Why a branch recorded its state: it started (or joined) the snapshot
// itself, or the delivery of message #seq made it: a marker (its first marker
// of that snapshot under Chandy-Lamport and unaligned barriers, its last
// barrier under aligned ones, a control message under Lai-Yang), or, under
// Lai-Yang, a transfer of that snapshot's epoch. The record comes right after
// that delivery in the history and holds the balance from before it: the
// message is outside the cut, its edge.
class Cause {
 public:
  static Cause Start() { return Cause(0); }
  static Cause ByMarker(Seq marker) {
    CUTLINE_CHECK(marker != 0 && marker < kTransferBit);
    return Cause(marker);
  }
  static Cause ByTransfer(Seq transfer) {
    CUTLINE_CHECK(transfer != 0 && transfer < kTransferBit);
    return Cause(transfer | kTransferBit);
  }
  bool by_message() const { return word_ != 0; }
  bool by_marker() const { return by_message() && !by_transfer(); }
  bool by_transfer() const { return (word_ & kTransferBit) != 0; }
  // REQUIRES: by_message().
  Seq message_seq() const {
    CUTLINE_CHECK(by_message());
    return word_ & ~kTransferBit;
  }
  bool operator==(const Cause&) const = default;

 private:
  // One word in every record event: message numbers start at 1, so 0 stands
  // for "started", and they never reach 2^63, so the top bit says "transfer".
  static constexpr Seq kTransferBit = Seq{1} << 63;
  explicit Cause(Seq word) : word_(word) {}
  Seq word_;
};

// The events. Sent and Delivered exist for each payload type.
template <class What>
struct Sent {  // `seq` went onto `channel` (the sender is the channel's from)
  Seq seq;
  ChannelId channel;
  What what;
};
template <class What>
struct Delivered {  // `seq` left `channel` at its receiver
  Seq seq;
  ChannelId channel;
  What what;
};
struct Recorded {  // `node` recorded its state for `snapshot`
  SnapshotId snapshot;
  Cause cause;
  NodeId node;
};
struct Read {  // the naive reader copied `node`'s balance
  Amount balance;
  NodeId node;
};
struct Local {  // `node` took a step of its own, no message (jobs: finish)
  NodeId node;
};
struct Closed {  // `channel`'s receiver closed it for `snapshot`
  SnapshotId snapshot;
  ChannelId channel;
};
struct PartDone {  // `node` has a marker of `snapshot` on every incoming channel
  SnapshotId snapshot;
  NodeId node;
};
struct Completed {  // every part of `snapshot` is done; `node` finished last
  SnapshotId snapshot;
  NodeId node;
};
// Unaligned barriers: marker #barrier, just sent on `channel` at its head,
// overtook transfer #transfer, which joins the channel's recorded state.
struct Overtaken {
  Seq barrier;
  Seq transfer;
  ChannelId channel;
};

// 32 bytes: no alternative is over 24, which keeps a long run's history (and
// a 1000-branch snapshot's three million events) compact.
using Event =
    std::variant<Sent<Transfer>, Sent<Marker>, Delivered<Transfer>,
                 Delivered<Marker>, Recorded, Read, Closed, PartDone, Completed,
                 Overtaken, Local>;
static_assert(sizeof(Event) <= 32);

// The branch an event happened at: a send's or an overtaking's sender, a
// delivery's or a close's receiver, else the node the event names. The
// history's JSON, the checker's vector clocks and the ShiViz log all place
// events by it.
inline NodeId NodeOf(const Event& e, const sim::Topology& net) {
  return std::visit(
      Overloaded{
          [&](const Sent<Transfer>& s) { return net.channel(s.channel).from; },
          [&](const Sent<Marker>& s) { return net.channel(s.channel).from; },
          [&](const Delivered<Transfer>& d) { return net.channel(d.channel).to; },
          [&](const Delivered<Marker>& d) { return net.channel(d.channel).to; },
          [&](const Closed& c) { return net.channel(c.channel).to; },
          [&](const Overtaken& o) { return net.channel(o.channel).from; },
          [](const auto& other) { return other.node; },
      },
      e);
}

class History {
 public:
  explicit History(bool enabled = true) : enabled_(enabled) {}
  // A copy holds room for a step's events (a delivery that makes its
  // branch record adds one for each output, and a close or two) beside the
  // copied ones: `cutline explore` copies a run for every step and then
  // takes one, and a copy that fits exactly would double its buffer at the
  // first event, copying the history twice and holding twice its size.
  History(const History& o) : enabled_(o.enabled_) {
    if (enabled_) events_.reserve(o.events_.size() + kRoomForAStep);
    events_.insert(events_.end(), o.events_.begin(), o.events_.end());
  }
  History& operator=(const History& o) {
    History copy(o);
    return *this = std::move(copy);
  }
  History(History&&) noexcept = default;
  History& operator=(History&&) noexcept = default;
  // Takes one of the event types; built in place, and not at all when the
  // history is off (benchmarks): adding sits on every send and delivery.
  template <class E>
  void Add(E&& e) {
    if (enabled_) events_.emplace_back(std::forward<E>(e));
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
  static constexpr std::size_t kRoomForAStep = 8;
  bool enabled_;
  std::vector<Event> events_;
};

}  // namespace cutline::history
