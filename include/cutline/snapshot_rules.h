// SnapshotRules: the one interface every algorithm's rules class offers
// (MarkerRules, LaiYangRules, AlignedBarrierRules, UnalignedBarrierRules),
// so that SnapshotAgent and any host can drive them all the same way.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

#include "cutline/step.h"

namespace cutline {

namespace detail {
// Stands in for the host's callback in the concept's OnMessage requirement.
struct JoinProbe {
  void operator()(const Reply&) const {}
};
}  // namespace detail

// A rules class is one process's side of one snapshot algorithm: pure
// bookkeeping, no I/O, clock or threads; every input answers with a Reply
// naming the snapshot it is about, and a refused input changes nothing.
//
// Types:
//   R::Stamp    what rides on every application message (Lai-Yang: the
//               sender's epoch; the others: NoStamp).
//   R::Control  what rides on a control message / marker / barrier besides
//               its id (Lai-Yang: Mattern's count; the others: NoControl).
// Construction: R(incoming_channels, outgoing_channels).
// Inputs (all refuse a bad channel index or id 0 with an error value):
//   Start(id)                  this process starts or joins snapshot id. A
//                              second initiator joining a running snapshot
//                              gets an ok Reply without record_state.
//   OnControl(id, c, control)  the control message of id arrived on incoming c.
//   OnMessage(c, stamp, join)  an application message arrived on incoming c,
//                              before the host applies it. The Reply carries
//                              record_state if the message records a snapshot
//                              first (Lai-Yang); join(reply) is called, in id
//                              order, once per snapshot whose channel state the
//                              message belongs to, that reply saying whether it
//                              closed the channel and finished the part.
//   OnOutgoing(out)            an application message leaves on outgoing out:
//                              the Stamp to put on it.
//   ControlFor(id, out)        the Control to send with id's marker on out.
//   Forget(id)                 the part of id is done and collected: drop it.
//   Abort(id)                  give up on id (running or not yet seen here).
//   After Forget or Abort the id stays finished: Start, OnControl answer
//   kFinished (kTooOld once more newer ids finished out of order than the
//   closed window holds). An id or stamp more than ahead_max above the newest
//   seen is refused with kTooFarAhead. Memory is bounded by the running
//   snapshots plus a ClosedIds. The library's rules classes also take an
//   IdLimits as a third constructor argument (closed_ids.h).
// Queries: HasRecorded, PartDone, IsFinished, Channel, incoming_channels,
//   outgoing_channels, retained (entries held: running snapshots plus closed
//   ids kept one by one; what a memory test counts).
template <class R>
concept SnapshotRules =
    std::constructible_from<R, std::uint32_t, std::uint32_t> &&
    std::equality_comparable<typename R::Stamp> &&
    requires(R& r, const R& cr, SnapshotId id, ChannelIndex c,
             const typename R::Stamp& stamp,
             const typename R::Control& control, detail::JoinProbe join) {
      { r.Start(id) } -> std::same_as<Reply>;
      { r.OnControl(id, c, control) } -> std::same_as<Reply>;
      { r.OnMessage(c, stamp, join) } -> std::same_as<Reply>;
      { r.OnOutgoing(c) } -> std::same_as<Result<typename R::Stamp>>;
      { cr.ControlFor(id, c) } -> std::same_as<Result<typename R::Control>>;
      { r.Forget(id) } -> std::same_as<Reply>;
      { r.Abort(id) } -> std::same_as<Reply>;
      { cr.HasRecorded(id) } -> std::same_as<bool>;
      { cr.PartDone(id) } -> std::same_as<bool>;
      { cr.IsFinished(id) } -> std::same_as<bool>;
      { cr.Channel(id, c) } -> std::same_as<ChannelRecording>;
      { cr.incoming_channels() } -> std::same_as<std::uint32_t>;
      { cr.outgoing_channels() } -> std::same_as<std::uint32_t>;
      { cr.retained() } -> std::same_as<std::size_t>;
    };

}  // namespace cutline
