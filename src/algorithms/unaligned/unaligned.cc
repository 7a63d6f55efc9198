// Unaligned barriers (Flink's unaligned checkpoints): Chandy-Lamport's
// rules, except that a recording branch puts its barriers at the head of its
// outgoing channels, and what they overtake there is those channels' state,
// recorded by the sender. FIFO channels; one snapshot at a time.
#include <map>
#include <utility>

#include "algorithms/agent_host.h"
#include "algorithms/algorithm.h"
#include "cutline/barrier_rules.h"

namespace cutline::algorithms {
namespace unaligned {
namespace {

class Host : public AgentHost<UnalignedBarrierRules> {
 public:
  using AgentHost::AgentHost;

  void OnOvertaken(SnapshotId id, bank::ChannelId c, bank::Amount amount) override {
    overtaken_[{id, c}].push_back(amount);
  }
  // Received since recording (delivered before the barrier), then the
  // transfers the barrier overtook (delivered after it).
  bank::ChannelRecord RecordedChannel(SnapshotId id, bank::ChannelId c,
                                      const sim::ChannelInfo& ch) const override {
    bank::ChannelRecord r = AgentHost::RecordedChannel(id, c, ch);
    if (auto it = overtaken_.find({id, c}); it != overtaken_.end()) {
      r.overtaken = it->second;
    }
    r.transfers.insert(r.transfers.end(), r.overtaken.begin(), r.overtaken.end());
    return r;
  }
  bank::Amount ChannelsTotal(SnapshotId id) const override {
    bank::Amount sum = AgentHost::ChannelsTotal(id);
    for (auto it = overtaken_.lower_bound({id, 0});
         it != overtaken_.end() && it->first.first == id; ++it) {
      for (bank::Amount a : it->second) sum += a;
    }
    return sum;
  }

 private:
  // By (snapshot, channel), in the order overtaken.
  std::map<std::pair<SnapshotId, bank::ChannelId>, std::vector<bank::Amount>> overtaken_;
};

std::unique_ptr<bank::SnapshotHost> MakeHost(const sim::Topology& t, bool) {
  return std::make_unique<Host>(t);
}

}  // namespace

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "unaligned",
    .traits = {.needs_fifo = true, .sender_records_overtaken = true},
    .words = {.marker = MarkerNoun::kBarrier,
              .rule = RuleNote::kUnaligned,
              .first_marker = FirstMarkerTale::kRecordsChannelEmpty,
              .later_marker = LaterMarkerTale::kClosesChannel,
              .close = CloseTale::kWithMarker},
    .hosts = {.scenario = true},
    .make_bank_host = &MakeHost,
};

}  // namespace unaligned

const Algorithm Algorithm::kUnaligned{&unaligned::kDefinition};

}  // namespace cutline::algorithms
