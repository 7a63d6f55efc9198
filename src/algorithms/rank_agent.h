// RankAgent: what one rank of the runtime (src/runtime/branch.cc) asks of
// its snapshot algorithm, whatever the rules: the virtual face of one
// SnapshotAgent whose state and messages are amounts, or of stop-the-world's
// rounds (WorldRounds). The simulator hosts
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

// The rank's side of stopping the world (Traits::stops_the_world): the
// coordinator's rounds take the place of markers. A paused rank sends
// nothing new; once everything its peers sent it before they paused has
// arrived, its channels are empty and its state alone is its part. The
// agent counts what leaves and arrives through OnOutgoing and OnMessage,
// which the rank calls for every transfer.
class WorldRounds {
 public:
  virtual ~WorldRounds() = default;
  // Round `id` pauses this rank: by outgoing channel, what left so far.
  virtual std::vector<std::uint64_t> Pause(SnapshotId id) = 0;
  virtual bool paused() const = 0;
  // By incoming channel, what must have arrived before round `id` reads
  // the state (what each peer had sent this rank when it paused).
  virtual void Drain(SnapshotId id, std::vector<std::uint64_t> expect) = 0;
  // The round whose channels have drained, once: read the state now (after
  // the last delivery was applied).
  virtual std::optional<SnapshotId> TakeDrained() = 0;
  virtual void Resume() = 0;
};

// What rides beside a transfer (the rules' Stamp) and a marker (their
// Control) travels as one 64-bit word, and only for rules that have one:
// NoStamp and NoControl are no bytes on the wire and 0 here. Lai-Yang's
// stamp is an epoch (a SnapshotId) and its control a count.
class RankAgent {
 public:
  virtual ~RankAgent() = default;
  // Whether transfers carry a stamp and markers a count (protocol.h's
  // TransferStamp and MarkerCount).
  virtual bool stamps() const = 0;
  virtual bool counts() const = 0;

  virtual Reply Start(SnapshotId id, Amount now) = 0;
  // The marker of `id` came on `c` with `count` (0 for rules without one).
  virtual Reply OnMarker(SnapshotId id, ChannelIndex c, std::uint64_t count, Amount now) = 0;
  // A transfer stamped `stamp` arrived on `c`, before the rank applies it;
  // `now` is the state before it. The Reply may record (a newer epoch: send
  // the markers, as on a first marker), finish a part (a count reached) or
  // name a snapshot that can no longer be right (kCountMismatch): the
  // transfer is taken either way.
  virtual Reply OnMessage(ChannelIndex c, std::uint64_t stamp, Amount amount, Amount now) = 0;
  // A transfer leaves on outgoing `out`: the stamp to send with it.
  virtual Result<std::uint64_t> OnOutgoing(ChannelIndex out) = 0;
  // The count to send in the marker of `id` on outgoing `out`.
  virtual Result<std::uint64_t> ControlFor(SnapshotId id, ChannelIndex out) const = 0;
  // The state recorded for `id`, while its part is kept (until Forget).
  virtual std::optional<Amount> RecordedState(SnapshotId id) const = 0;
  virtual std::vector<Amount> ChannelMessages(SnapshotId id, ChannelIndex c) const = 0;
  virtual Reply Forget(SnapshotId id) = 0;
  virtual Reply Abort(SnapshotId id) = 0;
  virtual std::uint32_t incoming_channels() const = 0;
  // Stop-the-world's rounds, which an algorithm that stops the world
  // answers instead of markers (and of Start, which it refuses); none for
  // the others.
  virtual WorldRounds* world() { return nullptr; }
};

// The rank's agent under `Rules`, whose stamp and control are nothing or
// one word (what the wire carries).
template <class Rules>
class RankAgentOf final : public RankAgent {
  using Agent = SnapshotAgent<Amount, Amount, Rules>;
  using Stamp = typename Rules::Stamp;
  using Control = typename Rules::Control;
  static constexpr bool kStamps = !std::is_same_v<Stamp, NoStamp>;
  static constexpr bool kCounts = !std::is_same_v<Control, NoControl>;
  static_assert(!kStamps || std::is_convertible_v<Stamp, std::uint64_t>,
                "the runtime's wire carries a stamp of one 64-bit word");
  static_assert(!kCounts || std::is_convertible_v<Control, std::uint64_t>,
                "the runtime's wire carries a control of one 64-bit word");

 public:
  RankAgentOf(std::uint32_t incoming, std::uint32_t outgoing) : agent_(incoming, outgoing) {}
  bool stamps() const override { return kStamps; }
  bool counts() const override { return kCounts; }
  Reply Start(SnapshotId id, Amount now) override { return agent_.Start(id, now); }
  Reply OnMarker(SnapshotId id, ChannelIndex c, std::uint64_t count, Amount now) override {
    return agent_.OnControl(id, c, ControlOf(count), now);
  }
  Reply OnMessage(ChannelIndex c, std::uint64_t stamp, Amount amount, Amount now) override {
    if constexpr (kStamps) {
      return agent_.OnMessage(c, static_cast<Stamp>(stamp), amount, now);
    } else {
      // Markers' rules: a transfer only joins channel states (the fast path
      // of one counter test while nothing records) and never records.
      Result<std::size_t> joined = agent_.OnMessage(c, amount);
      return joined.ok() ? Reply::Of(0) : Reply::Refused(joined.error, 0);
    }
  }
  Result<std::uint64_t> OnOutgoing(ChannelIndex out) override {
    return Word(agent_.OnOutgoing(out));
  }
  Result<std::uint64_t> ControlFor(SnapshotId id, ChannelIndex out) const override {
    return Word(agent_.ControlFor(id, out));
  }
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
  static Control ControlOf(std::uint64_t count) {
    if constexpr (kCounts) {
      return static_cast<Control>(count);
    } else {
      return Control{};
    }
  }
  // A stamp or a control as the wire's word (0 for nothing).
  template <class T>
  static Result<std::uint64_t> Word(const Result<T>& r) {
    if constexpr (std::is_convertible_v<T, std::uint64_t>) {
      return {r.error, static_cast<std::uint64_t>(r.value)};
    } else {
      return {r.error, 0};
    }
  }

  Agent agent_;
};

template <class Rules>
std::unique_ptr<RankAgent> MakeRankAgent(std::uint32_t incoming, std::uint32_t outgoing) {
  return std::make_unique<RankAgentOf<Rules>>(incoming, outgoing);
}

}  // namespace cutline::algorithms
