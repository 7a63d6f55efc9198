// AgentHost: the bank's side of an algorithm whose branches each run a
// cutline::SnapshotAgent (which keeps the recorded balance and the transfers
// recorded on each incoming channel). Chandy-Lamport and unaligned barriers
// use it as it is; an algorithm folder adds only what differs.
#pragma once

#include <memory>
#include <vector>

#include "bank/snapshot_host.h"
#include "cutline/snapshot_agent.h"

namespace cutline::algorithms {

template <class Rules>
class AgentHost : public bank::SnapshotHost {
 public:
  using Agent = SnapshotAgent<bank::Amount, bank::Amount, Rules>;

  explicit AgentHost(const sim::Topology& t) {
    agents_.reserve(t.nodes());
    for (bank::NodeId n = 0; n < t.nodes(); ++n) {
      agents_.emplace_back(static_cast<std::uint32_t>(t.Incoming(n).size()));
    }
  }

  Step Start(bank::NodeId n, SnapshotId id, bank::Amount now) override {
    return agents_[n].Start(id, now);
  }
  TransferAnswer OnTransfer(bank::ChannelId, const sim::ChannelInfo& ch, bank::Seq,
                            bank::Amount amount, bank::Amount) override {
    agents_[ch.to].OnMessage(ch.in_index, amount);
    return {};
  }
  Step OnMarker(bank::ChannelId, const sim::ChannelInfo& ch, bank::Seq, SnapshotId id,
                bank::Amount now) override {
    return agents_[ch.to].OnMarker(id, ch.in_index, now);
  }
  bool HasRecorded(bank::NodeId n, SnapshotId id) const override {
    return agents_[n].HasRecorded(id);
  }
  bool PartDone(bank::NodeId n, SnapshotId id) const override {
    return agents_[n].PartDone(id);
  }
  std::optional<bank::Amount> RecordedBalance(bank::NodeId n,
                                              SnapshotId id) const override {
    const typename Agent::Recorded* r = agents_[n].Find(id);
    if (r == nullptr) return std::nullopt;
    return r->state;
  }
  bank::ChannelRecord RecordedChannel(SnapshotId id, bank::ChannelId,
                                      const sim::ChannelInfo& ch) const override {
    return bank::ChannelRecord{agents_[ch.to].Channel(id, ch.in_index),
                               agents_[ch.to].ChannelMessages(id, ch.in_index),
                               {}};
  }
  // The agents keep each branch's channel messages together: one pass.
  bank::Amount ChannelsTotal(SnapshotId id) const override {
    bank::Amount sum = 0;
    for (const Agent& agent : agents_) {
      if (const typename Agent::Recorded* r = agent.Find(id)) {
        for (const auto& message : r->messages) sum += message.second;
      }
    }
    return sum;
  }

 protected:
  std::vector<Agent> agents_;  // by branch
};

}  // namespace cutline::algorithms
