// Aligned barriers (asynchronous barrier snapshotting, Flink): only a source
// starts; a barrier holds its channel back; once one has come on every
// input, the branch records, sends barriers on and releases its inputs. No
// channel state is ever kept. FIFO channels, no directed cycle, one
// snapshot at a time.
#include <map>
#include <utility>

#include "algorithms/algorithm.h"
#include "bank/snapshot_host.h"
#include "cutline/barrier_rules.h"

namespace cutline::algorithms {
namespace aligned {
namespace {

using bank::Amount;
using bank::NodeId;

class Host : public bank::SnapshotHost {
 public:
  explicit Host(const sim::Topology& t) {
    for (NodeId n = 0; n < t.nodes(); ++n) {
      rules_.emplace_back(static_cast<std::uint32_t>(t.Incoming(n).size()));
    }
  }

  Step Start(NodeId n, SnapshotId id, Amount now) override {
    return Recorded(n, id, rules_[n].Start(id), now);
  }
  TransferAnswer OnTransfer(bank::ChannelId, const sim::ChannelInfo&, bank::Seq, Amount,
                            Amount) override {
    return {};  // nothing behind a barrier is delivered before the record
  }
  Step OnMarker(bank::ChannelId, const sim::ChannelInfo& ch, bank::Seq, SnapshotId id,
                Amount now) override {
    return Recorded(ch.to, id, rules_[ch.to].OnMarker(id, ch.in_index), now);
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
  bank::ChannelRecord RecordedChannel(SnapshotId id, bank::ChannelId,
                                      const sim::ChannelInfo& ch) const override {
    return bank::ChannelRecord{rules_[ch.to].Channel(id, ch.in_index), {}, {}};
  }
  Amount ChannelsTotal(SnapshotId) const override { return 0; }
  std::vector<ChannelIndex> Waiting(NodeId n, SnapshotId id) const override {
    return rules_[n].Waiting(id);
  }

 private:
  Step Recorded(NodeId n, SnapshotId id, Step step, Amount now) {
    if (step.record_state) recorded_[{id, n}] = now;
    return step;
  }

  std::vector<AlignedBarrierRules> rules_;  // by branch
  std::map<std::pair<SnapshotId, NodeId>, Amount> recorded_;
};

std::unique_ptr<bank::SnapshotHost> MakeHost(const sim::Topology& t, bool) {
  return std::make_unique<Host>(t);
}

}  // namespace

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "aligned",
    .traits = {.needs_fifo = true,
               .needs_acyclic = true,
               .only_sources_start = true,
               .records_after_all_markers = true},
    .words = {.marker = MarkerNoun::kBarrier,
              .rule = RuleNote::kAligned,
              .first_marker = FirstMarkerTale::kAlignsAndRecords,
              .later_marker = LaterMarkerTale::kHoldsChannel,
              .close = CloseTale::kWithMarker},
    .hosts = {.scenario = true},
    .make_bank_host = &MakeHost,
};

}  // namespace aligned

const Algorithm Algorithm::kAligned{&aligned::kDefinition};

}  // namespace cutline::algorithms
