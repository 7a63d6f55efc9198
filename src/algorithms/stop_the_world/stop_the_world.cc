// Stopping the world: no branch sends, everything in flight is delivered,
// then every balance is read as one snapshot and the world resumes. No
// markers and no channel state (every channel is empty when read). The bank
// runs it as a command (Engine::StopTheWorld) beside its own algorithm; the
// runtime as an algorithm of its own (--algorithm stop-the-world): its
// ranks' side is the WorldAgent below, the coordinator's rounds are the
// branches' policy (src/runtime/branches_policy.cc).
#include <cassert>
#include <map>
#include <utility>

#include "base/check.h"
#include "algorithms/algorithm.h"
#include "algorithms/rank_agent.h"
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

// A rank's side of the runtime's rounds (WorldRounds): it counts what
// leaves and arrives on each channel, and a round reads the state once
// every count its peers paused at has arrived. No markers, no start, no
// channel state: those are refused as messages this algorithm never sends.
class WorldAgent final : public RankAgent, public WorldRounds {
 public:
  WorldAgent(std::uint32_t incoming, std::uint32_t outgoing)
      : received_(incoming, 0), sent_(outgoing, 0) {}

  bool stamps() const override { return false; }
  bool counts() const override { return false; }
  Reply Start(SnapshotId id, Amount) override { return NoMarkers(id); }
  Reply OnMarker(SnapshotId id, ChannelIndex, std::uint64_t, Amount) override {
    return NoMarkers(id);
  }
  Reply OnMessage(ChannelIndex c, std::uint64_t, Amount, Amount) override {
    if (c >= received_.size()) return Reply::Refused(AgentError::kUnknownChannel, 0);
    ++received_[c];
    return Reply::Of(0);
  }
  Result<std::uint64_t> OnOutgoing(ChannelIndex out) override {
    if (out >= sent_.size()) return {AgentError::kUnknownChannel, 0};
    ++sent_[out];
    return {AgentError::kNone, 0};
  }
  Result<std::uint64_t> ControlFor(SnapshotId, ChannelIndex) const override {
    return {AgentError::kUnknownSnapshot, 0};
  }
  std::optional<Amount> RecordedState(SnapshotId) const override { return std::nullopt; }
  std::vector<Amount> ChannelMessages(SnapshotId, ChannelIndex) const override { return {}; }
  Reply Forget(SnapshotId id) override { return NoMarkers(id); }
  Reply Abort(SnapshotId id) override {
    if (draining_ == id) draining_.reset();
    return Reply::Of(id);
  }
  std::uint32_t incoming_channels() const override {
    return static_cast<std::uint32_t>(received_.size());
  }
  WorldRounds* world() override { return this; }

  std::vector<std::uint64_t> Pause(SnapshotId) override {
    paused_ = true;
    return sent_;
  }
  bool paused() const override { return paused_; }
  void Drain(SnapshotId id, std::vector<std::uint64_t> expect) override {
    CUTLINE_CHECK(expect.size() == received_.size());
    expect_ = std::move(expect);
    draining_ = id;
  }
  std::optional<SnapshotId> TakeDrained() override {
    if (!draining_) return std::nullopt;
    for (std::size_t c = 0; c < received_.size(); ++c) {
      if (received_[c] < expect_[c]) return std::nullopt;
    }
    return std::exchange(draining_, std::nullopt);
  }
  void Resume() override { paused_ = false; }

 private:
  static Reply NoMarkers(SnapshotId id) { return Reply::Refused(AgentError::kUnknownSnapshot, id); }

  std::vector<std::uint64_t> received_;  // by incoming channel
  std::vector<std::uint64_t> sent_;      // by outgoing channel
  std::vector<std::uint64_t> expect_;    // the draining round's counts
  std::optional<SnapshotId> draining_;
  bool paused_ = false;
};

std::unique_ptr<RankAgent> MakeWorldAgent(std::uint32_t incoming, std::uint32_t outgoing) {
  return std::make_unique<WorldAgent>(incoming, outgoing);
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
    .make_rank_agent = &MakeWorldAgent,
};

}  // namespace stop_the_world

const Algorithm Algorithm::kStopTheWorld{&stop_the_world::kDefinition};

}  // namespace cutline::algorithms
