// The host loop of docs/library.md, whole: the docs show this file's lines
// between [docs:host] and [docs:host-end], which compile as they are (main.cc
// includes them; examples/check_snippet.cmake checks the docs hold them).
#pragma once

// [docs:host]
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <cutline/snapshot_agent.h>   // and the rules': marker_rules.h, lai_yang_rules.h, ...

namespace host_loop {

using cutline::ChannelIndex;
using cutline::ProcessIndex;
using cutline::Reply;
using cutline::Result;
using cutline::SnapshotId;

// One process. Rules: MarkerRules, LaiYangRules, AlignedBarrierRules or
// UnalignedBarrierRules. Net: the host's own transport, with
//   SendControl(process, out, id, control, ahead)  the control on an outgoing
//       channel: at the tail, or when `ahead` at UnalignedBarrierPlace,
//       calling agent().RecordOvertaken for each message it overtakes;
//   Collect(id, me, part)  the part to the collector;
//   Refused(me, reply)     log ToString(reply.error) and act on it ("Errors").
template <class Rules, class Net>
class Process {
 public:
  using Agent = cutline::SnapshotAgent<int, int, Rules>;   // <State, Payload, Rules>
  using Control = typename Agent::Control;

  Process(Net& net, ProcessIndex me, std::uint32_t incoming, std::uint32_t outgoing)
      : net_(net), me_(me), agent_(incoming, outgoing), held_(incoming, false) {}

  // What every Reply obliges the host to do, in this order.
  void Handle(const Reply& r, std::optional<ChannelIndex> arrived_on) {
    if (!r.ok()) net_.Refused(me_, r);                 // named; nothing was recorded
    if (r.hold_channel) held_[*arrived_on] = true;     // aligned barriers
    if (r.record_state) {                              // before sending anything else:
      for (ChannelIndex out = 0; out < agent_.outgoing_channels(); ++out) {
        Result<Control> control = agent_.ControlFor(r.snapshot, out);
        if (!control.ok()) return net_.Refused(me_, Reply::Refused(control.error, r.snapshot));
        // At the head under unaligned barriers (behind older barriers); what
        // it overtakes is recorded with RecordOvertaken. Else at the tail.
        net_.SendControl(*this, out, r.snapshot, control.value, r.markers_ahead);
      }
    }
    if (r.release_inputs) held_.assign(held_.size(), false);  // aligned barriers
    while (auto done = agent_.TakeFinished()) {        // parts now finished, even
      net_.Collect(done->id, me_, std::move(done->part));  // after a refusal
    }
    while (auto late = agent_.TakeOverdue()) {         // unfinished past running_max
      net_.Refused(me_, *late);                        // (kOverdue): abort it
    }
  }
  // Every input goes through Handle; the state passed is the one *before*
  // the input is applied.
  void Start(SnapshotId id) { Handle(agent_.Start(id, state_), std::nullopt); }
  void OnControl(SnapshotId id, ChannelIndex c, const Control& control) {
    Handle(agent_.OnControl(id, c, control, state_), c);
  }
  void OnMessage(ChannelIndex c, const typename Agent::Stamp& stamp, int item) {
    Handle(agent_.OnMessage(c, stamp, item, state_), c);
    state_ += item;  // applied only after the agent has seen it
  }

  Agent& agent() { return agent_; }
  bool held(ChannelIndex c) const { return held_[c]; }
  int& state() { return state_; }

 private:
  Net& net_;
  ProcessIndex me_;
  Agent agent_;
  std::vector<bool> held_;
  int state_ = 0;  // what this process holds
};

}  // namespace host_loop
// [docs:host-end]
