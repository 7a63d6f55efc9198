// Stopping the world: no branch sends, everything in flight is delivered,
// then every balance is read as one snapshot and the world resumes. No
// markers and no channel state (every channel is empty when read). The bank
// runs it as a command (Engine::StopTheWorld) beside its own algorithm; the
// runtime as an algorithm of its own (--algorithm stop-the-world).
#include <cassert>
#include <map>
#include <utility>

#include "base/check.h"
#include "algorithms/algorithm.h"
#include "algorithms/snapshot_host.h"

namespace cutline::algorithms {
namespace stop_the_world {
namespace {

using cutline::Amount;
using sim::NodeId;

class Host : public algorithms::SnapshotHost {
 public:
  std::unique_ptr<algorithms::SnapshotHost> Clone() const override {
    return std::make_unique<Host>(*this);
  }
  // The stopped bank reads every balance: each read is one "start".
  Step Start(NodeId n, SnapshotId id, Amount now) override {
    // The bank reads branch 0, 1, ... of a fresh id: each key is the
    // largest yet, so the end is the hint (no search down the tree).
    recorded_.insert_or_assign(recorded_.end(), {id, n}, now);
    Step step;
    step.record_state = true;
    step.part_done = true;
    return step;
  }
  void OnTransfer(sim::ChannelId, const sim::ChannelInfo&, sim::Seq, Amount,
                  Amount, std::vector<Reply>*, std::vector<SnapshotId>*) override {
    // The world only stops between deliveries: they are the bank's own.
  }
  Step OnMarker(sim::ChannelId, const sim::ChannelInfo&, sim::Seq, SnapshotId,
                Amount) override {
    CUTLINE_CHECK(!"stopping the world sends no markers");
    return {};
  }
  bool HasRecorded(NodeId n, SnapshotId id) const override {
    return recorded_.count({id, n}) != 0;
  }
  bool PartDone(NodeId n, SnapshotId id) const override { return HasRecorded(n, id); }
  std::optional<Amount> RecordedBalance(NodeId n, SnapshotId id) const override {
    auto it = recorded_.find({id, n});
    if (it == recorded_.end()) return std::nullopt;
    return it->second;
  }
  history::ChannelRecord RecordedChannel(SnapshotId, sim::ChannelId,
                                      const sim::ChannelInfo&) const override {
    return history::ChannelRecord{ChannelRecording::kClosed, {}, {}};
  }
  Amount ChannelsTotal(SnapshotId) const override { return 0; }

 private:
  std::map<std::pair<SnapshotId, NodeId>, Amount> recorded_;
};

std::unique_ptr<algorithms::SnapshotHost> MakeHost(const sim::Topology&, bool) {
  return std::make_unique<Host>();
}

}  // namespace

extern const Definition kDefinition;
const Definition kDefinition{
    .name = "stop-the-world",
    // Right over channels that reorder: it waits for the counts of what was
    // sent, whatever the order it arrives in.
    .traits = {.correct_without_fifo = true, .stops_the_world = true},
    .words = {},
    .hosts = {.scenario = false},
    .make_engine_host = &MakeHost,
};

}  // namespace stop_the_world

const Algorithm Algorithm::kStopTheWorld{&stop_the_world::kDefinition};

}  // namespace cutline::algorithms
