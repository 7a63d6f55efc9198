// A simulated history read the way a rank's log is read: vetted event by
// event, and each event said as the rank that did it would log it, for
// the streaming judge (JudgeHistory) and the vector clocks (EventClocks),
// which walk it once each and nothing else of the history.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/lang.h"
#include "check/consistency_checker.h"
#include "check/stream_judge.h"

namespace cutline::check {

class HistoryFeed {
 public:
  // `parts`: a PartDone is the node's part (kPart, as a log says it, and
  // the judge judges the snapshot at its last one); else it is only
  // counted, and run.claims are the snapshots' parts (Claims).
  // REQUIRES: run.topology set; run outlives the feed.
  HistoryFeed(const RunRecord& run, Lang lang, bool parts);

  // Before any event: the initial states' fault, if they do not fit the
  // network ("history: ..."); then no event may be read.
  std::optional<std::string> Start() const;
  // History event i (each in order, once): its fault past repair, named
  // ("history: ..."), after which no further event may be read. A channel
  // that is not FIFO is the judge's to name, and not a fault here.
  std::optional<std::string> Vet(std::size_t i);
  // Event i (vetted) as node *at's, in *e; false if it is none for the
  // judge (a Completed, when the judge counts it at the last part).
  bool Next(std::size_t i, std::uint32_t* at, StreamEvent* e);
  // The claims, one kClaim event each, after every other event.
  std::vector<StreamEvent> Claims() const;

 private:
  // A message since its send: where, what, and its number on its channel.
  struct Sent {
    sim::ChannelId channel = 0;
    history::Payload payload;
    std::uint64_t n = 0;
    bool delivered = false;
  };
  // The unnamed fault (Findings' words) of event i, if any.
  std::optional<std::string> VetChannel(std::size_t i, sim::ChannelId c) const;
  std::optional<std::string> VetSend(std::size_t i, sim::Seq seq, sim::ChannelId c,
                                     const history::Payload& payload);
  std::optional<std::string> VetDelivery(std::size_t i, sim::Seq seq, sim::ChannelId c,
                                         const history::Payload& payload);
  std::string AsSent(sim::Seq seq) const;
  const SnapshotClaim* ClaimOf(SnapshotId id) const;
  cutline::Amount Claimed(SnapshotId id, sim::NodeId node) const;
  std::uint64_t Number(sim::Seq seq) const;
  std::uint32_t Send(sim::Seq seq, sim::ChannelId c, StreamEvent::Kind kind, StreamEvent* e);
  std::uint32_t Receive(sim::Seq seq, sim::ChannelId c, StreamEvent::Kind kind, StreamEvent* e);
  std::uint32_t Record(const history::Recorded& r, StreamEvent* e) const;
  void Part(const history::PartDone& p, StreamEvent* e) const;

  const RunRecord& run_;
  const sim::Topology& net_;
  const Lang lang_;
  const bool parts_;
  std::vector<std::string> names_;  // by node, in findings
  std::map<SnapshotId, const SnapshotClaim*> claim_of_;  // each snapshot's first
  std::set<std::pair<SnapshotId, sim::ChannelId>> closed_;  // by a Closed event
  std::vector<std::uint64_t> sent_on_;  // by channel: messages sent on it so far
  std::unordered_map<sim::Seq, Sent> sent_;
  // A conserved application's states, replayed only to find an overflow
  // (the judge replays the states it judges by).
  std::vector<cutline::Amount> money_;
};

}  // namespace cutline::check
