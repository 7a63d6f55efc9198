// One vertex of a dataflow (a source, an operator or a sink) as a rank runs
// it, without the transport: its input and output queues, the credits of
// its outputs, its keyed state, and its side of the snapshot algorithm
// (aligned or unaligned barriers, through the library's SnapshotAgent).
// The host moves items and credits between vertices; everything a vertex
// decides is here, so that the runtime's ranks and the tests' in-process
// network run the same code.
//
// Flow control is credit-based, as in Flink's network stack: each channel
// has `buffers` buffers at its receiver. A sender spends one credit per
// record it puts on the wire and has none to spend once the receiver's
// buffers are full; the receiver gives a credit back when it has processed
// a record. Each output also queues at most `buffers` records before the
// vertex stops producing for it. So one slow vertex fills its inputs, its
// senders' outputs fill behind them, and the sources stop: backpressure.
// Barriers take no buffer and no credit.
//
// Aligned barriers (Flink's exactly-once default) are taken in their place
// in the input's order; an input whose barrier came waits (its records stay
// in its buffers, and its sender soon has no credit) until every input's
// barrier has come; the vertex then records its state and puts the barrier
// behind the records already queued on each output. No record is ever in a
// snapshot's channel state; the price is the wait.
//
// Unaligned barriers are taken when they arrive, ahead of the records
// waiting in the input's buffers, and go ahead of the records queued on each
// output (behind older barriers). What they jump over, on either side, is
// in flight: it is recorded as the channel's state (the receiver's side by
// this class, the sender's by the agent's RecordOvertaken).
//
// Aligned with a timeout (Flink's aligned checkpoint timeout, counted as
// Flink counts it since 1.14: from the snapshot's start at the sources,
// which every barrier carries). Once a snapshot is older than the timeout,
// its barriers stop waiting anywhere in this vertex:
//  - aligning here, it switches to unaligned (AlignedBarrierRules::Unalign):
//    the vertex records, sends its barriers ahead as an unaligned vertex
//    does and releases its inputs; each input still without the barrier
//    records until it comes (the records processed from it meanwhile join
//    the channel state through the agent's OnMessage);
//  - a barrier of it waiting in an input's queue, or arriving, is taken at
//    once, jumping the records ahead of it (they are in flight);
//  - a barrier of it queued on an output behind records jumps them (behind
//    older barriers), and they are recorded as that channel's state on the
//    sending side. So that this can happen after the record, a vertex with
//    a timeout hands a finished part over only once its barriers have left
//    every output queue.
// So no barrier waits longer than the timeout at any vertex: a snapshot
// takes at most the timeout and then about one unaligned snapshot's time.

// The vertex has no clock of its own: the host passes its time (in
// microseconds) to Arrive and Tick, and the vertex's "now" is the latest
// time it was given. From it each finished part carries a SnapshotCost.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <memory>
#include <utility>
#include <vector>

#include "cutline/barrier_rules.h"
#include "cutline/snapshot_agent.h"
#include "dataflow/topology.h"
#include "dataflow/vertex_agent.h"

namespace cutline::dataflow {

// What travels on a channel: a record (its key) or a barrier (its id).
struct Item {
  bool barrier = false;
  std::uint64_t value = 0;
  // A barrier's: when its snapshot started at the sources (the host's
  // clock), from which the alignment timeout counts.
  std::int64_t started_us = 0;
  // Its number on its channel, from 1, in the order its sender put items
  // on that output (records and barriers share the count). Only the logs
  // read it (Step); a barrier that jumps records keeps its number.
  std::uint64_t n = 0;
  // What the item is, not the number its log gives it.
  bool operator==(const Item& o) const {
    return barrier == o.barrier && value == o.value && started_us == o.started_us;
  }
};

// Why a vertex recorded its state.
enum class RecordCause : std::uint8_t {
  kStart,    // a source started the snapshot
  kBarrier,  // the barrier it just took (aligned: the last one; unaligned: the first)
  kTimeout,  // the alignment timeout switched it to unaligned while it aligned
};

// One thing a vertex did, in the order it did it, for a host that logs
// them (KeepSteps): the events `cutline check --logs` judges (a rank's log,
// docs/runtime.md). Channels are the vertex's own input and output
// indexes; items are named by their number on the channel (Item::n).
struct Step {
  enum class Kind : std::uint8_t {
    kPut,         // record `n` onto output `channel`, counted emitted (or replayed)
    kBarrierOut,  // barrier `n` of `snapshot` onto output `channel`
    kJumpOut,     // barrier `by` went ahead of record `n` on output `channel`
    kApply,       // record `n` from input `channel` applied
    kJumpIn,      // barrier `by`, arrived on input `channel`, taken ahead of item `n` waiting there
    kBarrierIn,   // barrier `n` of `snapshot` from input `channel` taken
    kRecord,      // the state recorded for `snapshot`: `state`, `cause`, `aligned`
  };
  Kind kind = Kind::kPut;
  ChannelIndex channel = 0;
  std::uint64_t n = 0;
  std::uint64_t by = 0;
  SnapshotId snapshot = 0;
  // kRecord: records received minus records emitted, which a record's
  // arrival raises and its departure lowers by one (the unit the logs'
  // judge counts, as a bank counts money).
  std::int64_t state = 0;
  RecordCause cause = RecordCause::kStart;
  // kRecord under aligned barriers: the barriers taken before it are the
  // cut's edge, not messages that crossed it.
  bool aligned = false;
  bool operator==(const Step&) const = default;
};

// What one snapshot cost at one vertex on one input channel.
struct ChannelCost {
  // Its barrier was taken on arrival, ahead of what waited: every input
  // under unaligned barriers (whether or not records waited), and the
  // inputs a switch found without their barrier.
  bool unaligned = false;
  std::int64_t waited_us = 0;   // aligned: from its barrier's arrival to the record
  std::uint64_t persisted = 0;  // its records in the snapshot's channel state
  std::uint64_t held_back = 0;  // aligned: records behind its barrier in its buffers at the record
  bool operator==(const ChannelCost&) const = default;
};

// What one snapshot cost at one vertex. It does not travel in the part's
// state (EncodeState): a host that wants it sends it beside the part.
struct SnapshotCost {
  std::int64_t alignment_us = 0;  // from the first barrier's arrival here to the record (0 at a source)
  bool switched = false;          // the alignment timeout switched it to unaligned here
  std::vector<ChannelCost> inputs;  // by input channel
  std::uint64_t overtaken = 0;    // records its barriers jumped on the outputs (persisted by the sender)
  bool operator==(const SnapshotCost&) const = default;
};

struct FinishedPart {
  SnapshotId id = 0;
  Part part;
  SnapshotCost cost;
};

class Vertex {
 public:
  // The snapshot algorithm's rules as `make_agent` makes them (the
  // registry's make_vertex_agent; vertex_agent.h). alignment_timeout_us:
  // aligned rules only; none waits for every barrier.
  Vertex(Role role, std::uint32_t inputs, std::uint32_t outputs, std::uint32_t buffers,
         VertexAgentMaker make_agent,
         std::optional<std::int64_t> alignment_timeout_us = std::nullopt);

  // A restored run's vertex, before anything else happens to it: the state
  // a snapshot recorded, and by output the keys of the records that
  // snapshot held in flight on that channel. They leave first, in order,
  // and are not counted as emitted again (the state counted them). An
  // output may then hold more than `buffers` records: the vertex makes and
  // forwards none for it until it has drained.
  void Restore(VertexState state, const std::vector<std::vector<std::uint64_t>>& in_flight);

  // --- what the network brings
  // An item arrived on input `c` at the host's time `now_us`. A record takes
  // one of c's buffers (its sender spent a credit for it).
  void Arrive(ChannelIndex c, Item item, std::int64_t now_us);
  // The receiver at the end of output `o` freed `n` buffers.
  void Credit(ChannelIndex o, std::uint32_t n) { credits_[o] += n; }

  // --- the vertex's own steps
  // A source makes a record of `key` (routed to output key % outputs):
  // false, and nothing made, if that output is full (backpressure).
  bool Emit(std::uint64_t key);
  // Takes the next record it may (round robin over the inputs not held,
  // whose record's output has room) and applies it; an aligned barrier at
  // an input's head is taken on the way. The input the record came from,
  // whose sender gets a credit back; nothing if no record could be taken.
  std::optional<ChannelIndex> Process();
  // A source starts snapshot `id` at the host's time `now_us`.
  void Start(SnapshotId id, std::int64_t now_us);
  // The item that may leave on output `o` now, taken off its queue: its
  // head if a barrier, or a record if a credit is left.
  std::optional<Item> Send(ChannelIndex o);
  // The host's time, often: the barriers of a snapshot older than the
  // timeout stop waiting (above). Nothing without a timeout.
  void Tick(std::int64_t now_us);
  // A part this vertex finished, taken (in the order they finished), with
  // its cost.
  std::optional<FinishedPart> TakeFinished();

  // From now on the vertex keeps its steps until the host takes them; a
  // host that logs asks before anything happens (before Restore).
  void KeepSteps() { keep_steps_ = true; }
  std::vector<Step> TakeSteps() { return std::exchange(steps_, {}); }

  Role role() const { return role_; }
  const VertexState& state() const { return state_; }
  std::uint32_t inputs() const { return static_cast<std::uint32_t>(in_.size()); }
  std::uint32_t outputs() const { return static_cast<std::uint32_t>(out_.size()); }
  // Records waiting in input c's buffers; items queued on output o.
  std::size_t Waiting(ChannelIndex c) const { return in_records_[c]; }
  std::size_t Queued(ChannelIndex o) const { return out_[o].size(); }
  bool Held(ChannelIndex c) const { return held_[c]; }

 private:
  // A running snapshot's cost, filled as it goes.
  struct Costing {
    std::int64_t started_us = 0;     // at the sources: its barriers carry it
    std::int64_t first_arrival = 0;  // of its first barrier here
    std::vector<std::optional<std::int64_t>> arrived;  // by input: its barrier's arrival
    SnapshotCost cost;
  };

  bool Room(ChannelIndex o) const;
  ChannelIndex Route(std::uint64_t key) const {
    return static_cast<ChannelIndex>(key % out_.size());
  }
  // A record of `key` onto its output, counted as emitted. REQUIRES: room.
  void Put(ChannelIndex o, std::uint64_t key);
  void TakeBarriersAtHeads();
  // Whether a barrier of `id` arriving on c is taken at once: always when
  // unaligned, and for a switched snapshot that still records c.
  bool TakenOnArrival(SnapshotId id, ChannelIndex c) const;
  // A barrier taken ahead of its queue's records: the first `ahead` items
  // of c's queue were sent before it and are applied after the record, so
  // their records are c's state in `id` (on arrival: all of them).
  void TakeJumping(SnapshotId id, ChannelIndex c, std::size_t ahead, std::uint64_t n);
  // The alignment timeout's steps (above); false without a timeout.
  bool Aged(std::int64_t started_us) const {
    return alignment_timeout_us_ && now_us_ - started_us >= *alignment_timeout_us_;
  }
  void UnalignIfAged();
  bool TakeAgedQueuedBarrier();
  void JumpAgedOutputBarriers();
  // Records a barrier of `id` overtook on output o: into the agent's part,
  // or the held part once the agent has handed it over.
  void RecordOvertaken(SnapshotId id, ChannelIndex o, std::uint64_t key);
  // Barrier `n` of `id` taken from input c (aligned: at the head of its
  // queue; else on arrival).
  void TakeBarrier(SnapshotId id, ChannelIndex c, std::uint64_t n);
  // What a Reply obliges: record (for `cause`), send barriers, hold or
  // release inputs.
  void Obey(const Reply& r, RecordCause cause, std::optional<ChannelIndex> from);
  void Note(Step step) {
    if (keep_steps_) steps_.push_back(step);
  }
  void SendBarriers(SnapshotId id, bool ahead);
  // The cost record: a barrier's arrival, and the record.
  void NoteArrival(SnapshotId id, ChannelIndex c, std::int64_t started_us);
  void NoteRecord(SnapshotId id);
  Costing& CostOf(SnapshotId id);
  // The agent's next finished part, with the records its barriers jumped
  // in the input queues.
  std::optional<FinishedPart> TakeFromAgent();
  // A barrier of `id` waits on some output.
  bool BarrierQueued(SnapshotId id) const;
  // The finished part's cost, with what its channels hold, forgotten here.
  SnapshotCost TakeCost(SnapshotId id, const Part& part);
  // The vertex's time never goes back, even if two host threads' do.
  void See(std::int64_t now_us) { now_us_ = std::max(now_us_, now_us); }
  void Apply(ChannelIndex c, const Item& record);
  // `item` onto output o's queue at `at`, numbered; its number.
  std::uint64_t Enqueue(ChannelIndex o, Item item, std::deque<Item>::iterator at);

  const Role role_;
  const std::uint32_t buffers_;
  const std::optional<std::int64_t> alignment_timeout_us_;
  std::int64_t now_us_ = 0;  // the latest time the host gave
  std::unique_ptr<VertexAgent> agent_;
  VertexState state_;
  std::vector<std::deque<Item>> in_;   // by input: records (and aligned barriers) waiting
  std::vector<std::uint32_t> in_records_;  // records (not barriers) in in_: at most buffers_
  std::vector<bool> held_;             // aligned: the input's barrier came, it waits
  std::uint32_t queued_barriers_ = 0;  // aligned barriers in in_, not yet taken
  std::vector<std::deque<Item>> out_;  // by output: what waits to leave
  std::vector<std::uint32_t> credits_;
  std::vector<std::uint32_t> out_records_;  // records (not barriers) in out_
  std::vector<std::uint64_t> out_numbered_;  // by output: items numbered so far
  bool keep_steps_ = false;
  std::vector<Step> steps_;
  ChannelIndex next_input_ = 0;        // where Process's round robin starts
  // Records a barrier taken on arrival jumped in an input's buffers, by snapshot
  // and input; they join that channel's state when the part is taken.
  std::map<SnapshotId, std::map<ChannelIndex, std::vector<std::uint64_t>>> jumped_;
  std::map<SnapshotId, Costing> costs_;  // until the part is taken
  // With a timeout: finished parts held until their barriers have left
  // every output queue, in the order they finished.
  std::vector<FinishedPart> held_parts_;
};

}  // namespace cutline::dataflow
