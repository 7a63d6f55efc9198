// Lai-Yang with Mattern's counts, for channels that reorder: every transfer
// carries its sender's epoch (the last snapshot it recorded), a transfer of
// a newer epoch makes its receiver record first, and a control message
// carries how many transfers its sender sent on the channel before
// recording, which closes the channel once that many old ones have come.
// One snapshot at a time.
#include <cassert>
#include <map>
#include <utility>

#include "algorithms/algorithm.h"
#include "algorithms/lai_yang/message_tags.h"
#include "bank/snapshot_host.h"
#include "cutline/lai_yang_rules.h"

namespace cutline::algorithms {
namespace lai_yang {
namespace {

using bank::Amount;
using bank::ChannelId;
using bank::NodeId;

class Host : public bank::SnapshotHost {
 public:
  Host(const sim::Topology& t, bool keep_history) : tags_(keep_history) {
    for (NodeId n = 0; n < t.nodes(); ++n) {
      rules_.emplace_back(static_cast<std::uint32_t>(t.Incoming(n).size()),
                          static_cast<std::uint32_t>(t.Outgoing(n).size()));
    }
  }

  Step Start(NodeId n, SnapshotId id, Amount now) override {
    Step step = rules_[n].Start(id);
    if (step.record_state) recorded_[{id, n}] = now;
    return step;
  }
  // Rule 1: a transfer carries its sender's epoch.
  void OnSendTransfer(const sim::ChannelInfo& ch, bank::Seq seq) override {
    tags_.Add(seq, rules_[ch.from].OnSend(ch.out_index));
  }
  void OnSendMarker(const sim::ChannelInfo& ch, bank::Seq seq) override {
    tags_.Add(seq, rules_[ch.from].ControlCount(ch.out_index));
  }
  std::uint64_t Tag(bank::Seq seq) const override { return tags_.Find(seq); }

  // Rule 2: a newer epoch records first (the balance before this transfer);
  // rule 3: an old one received after the record is the channel's state.
  TransferAnswer OnTransfer(ChannelId c, const sim::ChannelInfo& ch,
                            bank::Seq seq, Amount amount, Amount now) override {
    LaiYangRules::MessageStep ms = rules_[ch.to].OnMessage(ch.in_index, tags_.Find(seq));
    tags_.Delivered(seq);
    assert(ms.step.ok());
    if (ms.step.record_state) recorded_[{ms.recorded, ch.to}] = now;
    if (ms.in_channel_state) channel_state_[{ms.snapshot, c}].push_back(amount);
    return {ms.step, ms.step.record_state ? ms.recorded : ms.snapshot};
  }
  Step OnMarker(ChannelId, const sim::ChannelInfo& ch, bank::Seq seq,
                SnapshotId id, Amount now) override {
    Step step = rules_[ch.to].OnControl(id, ch.in_index, tags_.Find(seq));
    tags_.Delivered(seq);
    if (step.record_state) recorded_[{id, ch.to}] = now;
    return step;
  }

  bool HasRecorded(NodeId n, SnapshotId id) const override {
    return rules_[n].HasRecorded(id);
  }
  bool PartDone(NodeId n, SnapshotId id) const override {
    return rules_[n].PartDone(id);
  }
  std::optional<Amount> RecordedBalance(NodeId n, SnapshotId id) const override {
    auto it = recorded_.find({id, n});
    if (it == recorded_.end()) return std::nullopt;
    return it->second;
  }
  bank::ChannelRecord RecordedChannel(SnapshotId id, ChannelId c,
                                      const sim::ChannelInfo& ch) const override {
    auto it = channel_state_.find({id, c});
    return bank::ChannelRecord{
        rules_[ch.to].Channel(id, ch.in_index),
        it == channel_state_.end() ? std::vector<Amount>{} : it->second,
        {}};
  }
  Amount ChannelsTotal(SnapshotId id) const override {
    Amount sum = 0;
    for (auto it = channel_state_.lower_bound({id, 0});
         it != channel_state_.end() && it->first.first == id; ++it) {
      for (Amount a : it->second) sum += a;
    }
    return sum;
  }

 private:
  std::vector<LaiYangRules> rules_;  // by branch
  MessageTags tags_;
  std::map<std::pair<SnapshotId, NodeId>, Amount> recorded_;
  std::map<std::pair<SnapshotId, ChannelId>, std::vector<Amount>> channel_state_;
};

std::unique_ptr<bank::SnapshotHost> MakeHost(const sim::Topology& t, bool keep_history) {
  return std::make_unique<Host>(t, keep_history);
}

}  // namespace

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "lai-yang",
    .traits = {.correct_without_fifo = true,
               .tags_messages = true,
               .sees_every_transfer = true},
    .words = {.marker = MarkerNoun::kControlMessage,
              .rule = RuleNote::kLaiYang,
              .first_marker = FirstMarkerTale::kRecordsWithCount,
              .later_marker = LaterMarkerTale::kTellsCount,
              .close = CloseTale::kCountReached},
    .hosts = {.scenario = true},
    .make_bank_host = &MakeHost,
};

}  // namespace lai_yang

const Algorithm Algorithm::kLaiYang{&lai_yang::kDefinition};

}  // namespace cutline::algorithms
