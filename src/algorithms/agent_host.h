// AgentHost<Rules>: the bank's side of any algorithm whose rules class
// satisfies cutline::SnapshotRules, with one cutline::SnapshotAgent per
// branch keeping what the branch recorded (its balance, the transfers of
// each recorded incoming channel, what its barriers overtook). An algorithm
// folder names its rules class and its Definition; nothing else differs.
// The tags an algorithm stamps on its messages (Rules::Stamp, ::Control:
// Lai-Yang's epochs and counts) ride beside them in MessageTags.
#pragma once

#include <algorithm>
#include <cstddef>
#include <concepts>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "base/check.h"
#include "algorithms/message_tags.h"
#include "algorithms/snapshot_host.h"
#include "cutline/snapshot_agent.h"

namespace cutline::algorithms {

template <class Rules>
class AgentHost : public algorithms::SnapshotHost {
 public:
  using Agent = SnapshotAgent<cutline::Amount, cutline::Amount, Rules>;
  using Stamp = typename Rules::Stamp;
  using Control = typename Rules::Control;
  static constexpr bool kStamps = !std::is_same_v<Stamp, NoStamp>;
  static constexpr bool kCounts = !std::is_same_v<Control, NoControl>;
  // Rules that stamp a message with its sender's epoch and tell their own
  // (LaiYangRules): a message of the receiver's epoch records nothing and
  // joins no channel state (LaiYangRules::OnMessage).
  static constexpr bool kEpochStamps = requires(const Rules& rules) {
    { rules.Epoch() } -> std::same_as<Stamp>;
  };

  AgentHost(const sim::Topology& t, bool keep_history)
      : tags_(keep_history), open_(t.nodes()) {
    agents_.reserve(t.nodes());
    for (sim::NodeId n = 0; n < t.nodes(); ++n) {
      agents_.emplace_back(static_cast<std::uint32_t>(t.Incoming(n).size()),
                           static_cast<std::uint32_t>(t.Outgoing(n).size()));
    }
  }

  std::unique_ptr<algorithms::SnapshotHost> Clone() const override {
    return std::make_unique<AgentHost>(*this);
  }

  Step Start(sim::NodeId n, SnapshotId id, cutline::Amount now) override {
    return Track(n, agents_[n].Start(id, now));
  }

  void OnTransfer(sim::ChannelId, const sim::ChannelInfo& ch, sim::Seq seq,
                  cutline::Amount amount, cutline::Amount now,
                  std::vector<Reply>* out,
                  std::vector<SnapshotId>* joined) override {
    if (!open_[ch.to].empty()) [[unlikely]] {
      OnTransferWhileOpen(ch, seq, amount, now, out, joined);
      return;
    }
    // No snapshot open here (Lai-Yang sees every transfer): the message
    // closes nothing, and may only record. What runs at every delivery is
    // kept here and small (no call but the rare ones, last, so that no
    // register is saved): the tag taken, and with epoch stamps the test.
    Stamp stamp = StampOf(seq);
    if constexpr (kEpochStamps) {
      // A message of the receiver's own epoch (Lai-Yang's common case) only
      // counts: its Reply says nothing, so testing here spares the delivery
      // the Reply's checks (g++ keeps a Reply in memory).
      Agent& agent = agents_[ch.to];
      if (stamp == agent.rules().Epoch()) [[likely]] {
        Reply r = agent.OnMessage(ch.in_index, stamp, amount, now);
        CUTLINE_CHECK(r.ok() && !r.record_state && !r.part_done);
        (void)r;
        return;
      }
    }
    OnTransferNoneOpen(ch, stamp, amount, now, out);
  }

  Step OnMarker(sim::ChannelId, const sim::ChannelInfo& ch, sim::Seq seq,
                SnapshotId id, cutline::Amount now) override {
    return Track(ch.to, agents_[ch.to].OnControl(id, ch.in_index, ControlOf(seq), now));
  }

  void OnSendTransfer(const sim::ChannelInfo& ch, sim::Seq seq) override {
    Result<Stamp> stamp = agents_[ch.from].OnOutgoing(ch.out_index);
    CUTLINE_CHECK(stamp.ok());
    if constexpr (kStamps) tags_.Add(seq, stamp.value);
  }
  void OnSendMarker(const sim::ChannelInfo& ch, sim::Seq seq, SnapshotId id) override {
    Result<Control> control = agents_[ch.from].ControlFor(id, ch.out_index);
    CUTLINE_CHECK(control.ok());
    if constexpr (kCounts) tags_.Add(seq, control.value);
  }
  std::uint64_t Tag(sim::Seq seq) const override { return tags_.Find(seq); }

  void OnOvertaken(SnapshotId id, const sim::ChannelInfo& ch, cutline::Amount amount) override {
    Reply r = agents_[ch.from].RecordOvertaken(id, ch.out_index, amount);
    CUTLINE_CHECK(r.ok());
    (void)r;
  }

  bool HasRecorded(sim::NodeId n, SnapshotId id) const override {
    return agents_[n].HasRecorded(id);
  }
  bool PartDone(sim::NodeId n, SnapshotId id) const override {
    return agents_[n].PartDone(id);
  }
  std::optional<cutline::Amount> RecordedBalance(sim::NodeId n,
                                              SnapshotId id) const override {
    const typename Agent::Recorded* r = agents_[n].Find(id);
    if (r == nullptr) return std::nullopt;
    return r->state;
  }
  // What the receiver recorded on the channel, then what the sender's
  // barrier overtook on it (delivered after the barrier).
  history::ChannelRecord RecordedChannel(SnapshotId id, sim::ChannelId,
                                      const sim::ChannelInfo& ch) const override {
    history::ChannelRecord r{agents_[ch.to].Channel(id, ch.in_index),
                          agents_[ch.to].ChannelMessages(id, ch.in_index),
                          {}};
    if (const typename Agent::Recorded* sender = agents_[ch.from].Find(id)) {
      for (const auto& [out, amount] : sender->overtaken) {
        if (out == ch.out_index) r.overtaken.push_back(amount);
      }
    }
    r.transfers.insert(r.transfers.end(), r.overtaken.begin(), r.overtaken.end());
    return r;
  }
  // The agents keep each branch's channel messages together: one pass.
  cutline::Amount ChannelsTotal(SnapshotId id) const override {
    cutline::Amount sum = 0;
    for (const Agent& agent : agents_) {
      if (const typename Agent::Recorded* r = agent.Find(id)) {
        for (const auto& message : r->messages) sum += message.second;
        for (const auto& message : r->overtaken) sum += message.second;
      }
    }
    return sum;
  }
  std::vector<ChannelIndex> Waiting(sim::NodeId n, SnapshotId id) const override {
    if constexpr (requires(const Rules& rules) { rules.Waiting(SnapshotId{}); }) {
      return agents_[n].rules().Waiting(id);
    } else {
      return {};
    }
  }

 private:
  // Keeps open_[n]: the snapshots n has recorded whose part is not done.
  // Once per marker: the flags are tested on the Step's word (StepWord).
  const Reply& Track(sim::NodeId n, const Reply& r) {
    CUTLINE_CHECK(r.ok());
    constexpr std::uint64_t kDone = detail::kStepBit<&Step::part_done>;
    constexpr std::uint64_t kRecord = detail::kStepBit<&Step::record_state>;
    const std::uint64_t w = detail::StepWord(r);
    if ((w & (kDone | kRecord)) == 0) [[likely]] return r;
    Opened(n, r);
    return r;
  }
  // Track's rare part (a record or a part done), out of line: the marker's
  // path (most markers close or hold a channel) then saves fewer registers.
  [[gnu::noinline]] void Opened(sim::NodeId n, Reply r) {
    constexpr std::uint64_t kDone = detail::kStepBit<&Step::part_done>;
    const std::uint64_t w = detail::StepWord(r);
    OpenList& open = open_[n];
    if ((w & kDone) != 0) {
      open.Erase(r.snapshot);
    } else {
      open.Add(r.snapshot);
    }
  }
  // OnTransfer at a branch with no snapshot open: the message may record.
  [[gnu::noinline]] void OnTransferNoneOpen(const sim::ChannelInfo& ch, Stamp stamp,
                                            cutline::Amount amount, cutline::Amount now,
                                            std::vector<Reply>* out) {
    Reply r = agents_[ch.to].OnMessage(ch.in_index, stamp, amount, now);
    CUTLINE_CHECK(r.ok());
    if (r.record_state) out->push_back(Track(ch.to, r));
  }
  // OnTransfer at a branch with a snapshot open. The agent tells a record,
  // not the channels a message closes (Lai-Yang closes on counts): those are
  // the open snapshots whose channel stops recording. Few run at a time.
  // Out of line: the delivery without a snapshot stays small.
  [[gnu::noinline]] void OnTransferWhileOpen(const sim::ChannelInfo& ch, sim::Seq seq,
                                             cutline::Amount amount, cutline::Amount now,
                                             std::vector<Reply>* out,
                                             std::vector<SnapshotId>* joined) {
    Agent& agent = agents_[ch.to];
    recording_.clear();
    kept_.clear();
    open_[ch.to].ForEach([&](SnapshotId id) {
      if (agent.Channel(id, ch.in_index) == ChannelRecording::kRecording) {
        recording_.push_back(id);
      }
      kept_.emplace_back(id, Kept(agent, id));
    });
    Reply r = agent.OnMessage(ch.in_index, StampOf(seq), amount, now);
    CUTLINE_CHECK(r.ok());
    if (r.record_state) out->push_back(Track(ch.to, r));
    // A snapshot's recorded messages grew: the transfer joined its channel
    // state (what the agent kept, whatever the channel's state says).
    for (const auto& [id, before] : kept_) {
      if (Kept(agent, id) > before) joined->push_back(id);
    }
    for (SnapshotId id : recording_) {
      if (agent.Channel(id, ch.in_index) == ChannelRecording::kRecording) continue;
      Reply closed = Reply::Of(id);
      closed.closed_channel = true;
      closed.part_done = agent.PartDone(id);
      out->push_back(Track(ch.to, closed));
    }
  }
  // How many messages `agent` has recorded for `id` on all its channels.
  static std::size_t Kept(const Agent& agent, SnapshotId id) {
    const typename Agent::Recorded* r = agent.Find(id);
    return r == nullptr ? 0 : r->messages.size();
  }
  // What message #seq carries, taken from the tags (it is being delivered).
  Stamp StampOf(sim::Seq seq) {
    if constexpr (kStamps) {
      return tags_.Take(seq);
    } else {
      return Stamp{};
    }
  }
  Control ControlOf(sim::Seq seq) {
    if constexpr (kCounts) {
      return tags_.Take(seq);
    } else {
      return Control{};
    }
  }

  // The snapshots a branch has recorded and not finished, in the order it
  // recorded them. The first one sits in place: one snapshot at a time (the
  // common case) allocates nothing, where a vector per branch allocated at
  // each branch's first record, a fixed cost per branch that a small
  // network's snapshot felt (at n = 10 this and the agents' queue of
  // finished parts were 9 % of the snapshot's instructions). The delivery's
  // test reads one word.
  class OpenList {
   public:
    bool empty() const { return first_ == 0; }  // id 0 names no snapshot
    void Add(SnapshotId id) {
      CUTLINE_CHECK(id != 0);
      if (first_ == 0) {
        first_ = id;
      } else {
        more_.push_back(id);
      }
    }
    void Erase(SnapshotId id) {
      if (first_ == id) {
        if (more_.empty()) {
          first_ = 0;
        } else {
          first_ = more_.front();
          more_.erase(more_.begin());
        }
      } else {
        std::erase(more_, id);
      }
    }
    template <class Fn>
    void ForEach(Fn&& fn) const {
      if (first_ == 0) return;
      fn(first_);
      for (SnapshotId id : more_) fn(id);
    }

   private:
    SnapshotId first_ = 0;
    std::vector<SnapshotId> more_;  // the others, while several are open
  };

  std::vector<Agent> agents_;  // by branch
  MessageTags tags_;
  std::vector<OpenList> open_;  // by branch
  std::vector<SnapshotId> recording_;          // OnTransfer's scratch
  // OnTransfer's scratch: each open snapshot's recorded messages before.
  std::vector<std::pair<SnapshotId, std::size_t>> kept_;
};

// The factory a folder's Definition names.
template <class Rules>
std::unique_ptr<algorithms::SnapshotHost> MakeAgentHost(const sim::Topology& t,
                                                  bool keep_history) {
  return std::make_unique<AgentHost<Rules>>(t, keep_history);
}

}  // namespace cutline::algorithms
