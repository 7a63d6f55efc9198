// RankAgent: what one rank of the runtime (src/runtime/branch.cc) asks of
// its snapshot algorithm, whatever the rules: the virtual face of one
// SnapshotAgent whose state and messages are amounts. The simulator hosts
// every algorithm through AgentHost (agent_host.h); the runtime hosts the
// ones whose Definition names a maker (make_rank_agent), and no other, so
// that an algorithm cannot be offered to `cutline cluster --algorithm`
// without saying how its ranks run it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <vector>

#include "base/amount.h"
#include "cutline/snapshot_agent.h"

namespace cutline::algorithms {

class RankAgent {
 public:
  virtual ~RankAgent() = default;
  virtual Reply Start(SnapshotId id, Amount now) = 0;
  virtual Reply OnMarker(SnapshotId id, ChannelIndex c, Amount now) = 0;
  // An application message arrived on `c`, before the rank applies it.
  virtual void OnMessage(ChannelIndex c, Amount amount) = 0;
  // The state recorded for `id`, while its part is kept (until Forget).
  virtual std::optional<Amount> RecordedState(SnapshotId id) const = 0;
  virtual std::vector<Amount> ChannelMessages(SnapshotId id, ChannelIndex c) const = 0;
  virtual Reply Forget(SnapshotId id) = 0;
  virtual Reply Abort(SnapshotId id) = 0;
  virtual std::uint32_t incoming_channels() const = 0;
};

// The rank's agent under `Rules`. The runtime's wire carries markers and
// amounts only: rules that stamp messages or count controls (Lai-Yang)
// need more than it carries, and are refused here, at compile time.
template <class Rules>
class RankAgentOf final : public RankAgent {
  using Agent = SnapshotAgent<Amount, Amount, Rules>;
  static_assert(std::is_same_v<typename Rules::Stamp, NoStamp> &&
                    std::is_same_v<typename Rules::Control, NoControl>,
                "the runtime's wire carries no stamps or control counts");

 public:
  RankAgentOf(std::uint32_t incoming, std::uint32_t outgoing) : agent_(incoming, outgoing) {}
  Reply Start(SnapshotId id, Amount now) override { return agent_.Start(id, now); }
  Reply OnMarker(SnapshotId id, ChannelIndex c, Amount now) override {
    return agent_.OnMarker(id, c, now);
  }
  void OnMessage(ChannelIndex c, Amount amount) override { agent_.OnMessage(c, amount); }
  std::optional<Amount> RecordedState(SnapshotId id) const override {
    const typename Agent::Recorded* r = agent_.Find(id);
    return r ? std::optional<Amount>(r->state) : std::nullopt;
  }
  std::vector<Amount> ChannelMessages(SnapshotId id, ChannelIndex c) const override {
    return agent_.ChannelMessages(id, c);
  }
  Reply Forget(SnapshotId id) override { return agent_.Forget(id); }
  Reply Abort(SnapshotId id) override { return agent_.Abort(id); }
  std::uint32_t incoming_channels() const override { return agent_.incoming_channels(); }

 private:
  Agent agent_;
};

template <class Rules>
std::unique_ptr<RankAgent> MakeRankAgent(std::uint32_t incoming, std::uint32_t outgoing) {
  return std::make_unique<RankAgentOf<Rules>>(incoming, outgoing);
}

}  // namespace cutline::algorithms
