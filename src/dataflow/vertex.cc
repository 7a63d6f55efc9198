#include "dataflow/vertex.h"

#include "base/check.h"

namespace cutline::dataflow {

Vertex::Vertex(Role role, std::uint32_t inputs, std::uint32_t outputs, std::uint32_t buffers,
               VertexAgentMaker make_agent, std::optional<std::int64_t> alignment_timeout_us)
    : role_(role),
      buffers_(buffers),
      alignment_timeout_us_(alignment_timeout_us),
      agent_(make_agent(inputs, outputs)),
      in_(inputs),
      in_records_(inputs, 0),
      held_(inputs, false),
      out_(outputs),
      credits_(outputs, buffers),
      out_records_(outputs, 0),
      out_numbered_(outputs, 0) {
  CUTLINE_CHECK(buffers >= 1);
  // Unaligned barriers never wait, so a timeout for them is a host's mistake.
  CUTLINE_CHECK(!alignment_timeout_us || (agent_->aligned() && *alignment_timeout_us >= 0));
}

void Vertex::Restore(VertexState state, const std::vector<std::vector<std::uint64_t>>& in_flight) {
  CUTLINE_CHECK(state_ == VertexState{} && in_flight.size() == out_.size());
  state_ = std::move(state);
  for (ChannelIndex o = 0; o < out_.size(); ++o) {
    CUTLINE_CHECK(out_[o].empty());
    for (std::uint64_t key : in_flight[o]) {
      Note({.kind = Step::Kind::kPut, .channel = o, .n = Enqueue(o, Item{false, key}, out_[o].end())});
    }
    out_records_[o] = static_cast<std::uint32_t>(in_flight[o].size());
  }
}

void Vertex::Arrive(ChannelIndex c, Item item, std::int64_t now_us) {
  See(now_us);
  if (item.barrier) {
    NoteArrival(item.value, c, item.started_us);
    // Older snapshots' barriers stop waiting first: a barrier never passes
    // an older one.
    Tick(now_us);
    if (TakenOnArrival(item.value, c)) return TakeJumping(item.value, c, in_[c].size(), item.n);
    if (Aged(item.started_us)) {
      TakeJumping(item.value, c, in_[c].size(), item.n);
      return UnalignIfAged();
    }
    ++queued_barriers_;
  } else {
    // A record beyond c's buffers was sent without a credit: the sender broke
    // the flow control, and counts would no longer bound what waits here.
    CUTLINE_CHECK(in_records_[c] < buffers_);
    ++in_records_[c];
  }
  in_[c].push_back(item);
}

bool Vertex::Room(ChannelIndex o) const { return out_records_[o] < buffers_; }

bool Vertex::Emit(std::uint64_t key) {
  CUTLINE_CHECK(role_ == Role::kSource);
  const ChannelIndex o = Route(key);
  if (!Room(o)) return false;
  Put(o, key);
  return true;
}

void Vertex::Put(ChannelIndex o, std::uint64_t key) {
  const std::uint64_t n = Enqueue(o, Item{false, key}, out_[o].end());
  ++out_records_[o];
  ++state_.emitted;
  Note({.kind = Step::Kind::kPut, .channel = o, .n = n});
}

std::uint64_t Vertex::Enqueue(ChannelIndex o, Item item, std::deque<Item>::iterator at) {
  item.n = ++out_numbered_[o];
  out_[o].insert(at, item);
  return item.n;
}

void Vertex::TakeBarriersAtHeads() {
  // Aligned barriers are taken in their place. Taking one may release every
  // input (the last barrier came), which may bring another to a free head.
  // Most calls find none queued: one test, not a scan of every input.
  for (bool taken = queued_barriers_ > 0; taken;) {
    taken = false;
    for (ChannelIndex c = 0; c < in_.size(); ++c) {
      std::deque<Item>& q = in_[c];
      while (!held_[c] && !q.empty() && q.front().barrier) {
        const Item barrier = q.front();
        q.pop_front();
        --queued_barriers_;
        TakeBarrier(barrier.value, c, barrier.n);
        taken = true;
      }
    }
  }
}

std::optional<ChannelIndex> Vertex::Process() {
  TakeBarriersAtHeads();
  const auto n = static_cast<ChannelIndex>(in_.size());
  for (ChannelIndex k = 0; k < n; ++k) {
    const ChannelIndex c = (next_input_ + k) % n;
    std::deque<Item>& q = in_[c];
    if (held_[c] || q.empty()) continue;
    const Item record = q.front();
    if (role_ == Role::kOperator && !Room(Route(record.value))) continue;
    q.pop_front();
    --in_records_[c];
    Apply(c, record);
    next_input_ = (c + 1) % n;
    return c;
  }
  return std::nullopt;
}

void Vertex::Apply(ChannelIndex c, const Item& record) {
  const std::uint64_t key = record.value;
  Note({.kind = Step::Kind::kApply, .channel = c, .n = record.n});
  // The agent sees the record before it changes the state: a snapshot whose
  // channel c is open records it as in flight.
  // (Refused only for a record taken from a held input: Process never does.)
  const Reply r = agent_->OnRecord(c, key, state_);
  CUTLINE_CHECK(r.ok() && !r.record_state);
  ++state_.received;
  ++state_.per_key[key];
  if (role_ == Role::kOperator) Put(Route(key), key);
}

void Vertex::Start(SnapshotId id, std::int64_t now_us) {
  CUTLINE_CHECK(role_ == Role::kSource);
  See(now_us);
  CostOf(id).started_us = now_us;
  Obey(agent_->Start(id, state_), RecordCause::kStart, std::nullopt);
}

bool Vertex::TakenOnArrival(SnapshotId id, ChannelIndex c) const {
  // Aligned: the records before it on c were in flight when the switch
  // recorded.
  return !agent_->aligned() || agent_->Recording(id, c);
}

void Vertex::TakeJumping(SnapshotId id, ChannelIndex c, std::size_t ahead, std::uint64_t n) {
  // Barriers of older snapshots may still wait in c's queue: only records
  // are in flight. Each is applied later, after this record.
  CostOf(id).cost.inputs[c].unaligned = true;
  for (std::size_t i = 0; i < ahead; ++i) {
    Note({.kind = Step::Kind::kJumpIn, .channel = c, .n = in_[c][i].n, .by = n});
  }
  if (in_records_[c] > 0) {
    std::vector<std::uint64_t>& jumped = jumped_[id][c];
    for (std::size_t i = 0; i < ahead; ++i) {
      if (!in_[c][i].barrier) jumped.push_back(in_[c][i].value);
    }
  }
  TakeBarrier(id, c, n);
}

void Vertex::TakeBarrier(SnapshotId id, ChannelIndex c, std::uint64_t n) {
  Note({.kind = Step::Kind::kBarrierIn, .channel = c, .n = n, .snapshot = id});
  Obey(agent_->OnBarrier(id, c, state_), RecordCause::kBarrier, c);
}

void Vertex::Tick(std::int64_t now_us) {
  See(now_us);
  if (!alignment_timeout_us_) return;
  // Oldest first, as the queues hold them: the aligning snapshot is older
  // than any barrier queued behind a held input.
  UnalignIfAged();
  while (TakeAgedQueuedBarrier()) UnalignIfAged();
  JumpAgedOutputBarriers();
}

void Vertex::UnalignIfAged() {
  const SnapshotId id = agent_->aligning();
  if (id == 0 || !Aged(CostOf(id).started_us)) return;
  CostOf(id).cost.switched = true;
  Obey(agent_->Unalign(id, state_), RecordCause::kTimeout, std::nullopt);
}

bool Vertex::TakeAgedQueuedBarrier() {
  if (queued_barriers_ == 0) return false;
  // The oldest aged barrier waiting in an input queue, wherever it is.
  std::optional<std::pair<ChannelIndex, std::size_t>> at;
  SnapshotId oldest = 0;
  for (ChannelIndex c = 0; c < in_.size(); ++c) {
    for (std::size_t i = 0; i < in_[c].size(); ++i) {
      const Item& item = in_[c][i];
      if (!item.barrier) continue;
      if (Aged(item.started_us) && (!at || item.value < oldest)) {
        at = {c, i};
        oldest = item.value;
      }
      break;  // a later barrier on c waits behind this one
    }
  }
  if (!at) return false;
  const auto [c, i] = *at;
  CostOf(oldest).cost.switched = true;
  // Out of the queue first: the records ahead of it are what it jumps.
  const std::uint64_t n = in_[c][i].n;
  in_[c].erase(in_[c].begin() + static_cast<std::ptrdiff_t>(i));
  --queued_barriers_;
  TakeJumping(oldest, c, i, n);
  return true;
}

void Vertex::JumpAgedOutputBarriers() {
  for (ChannelIndex o = 0; o < out_.size(); ++o) {
    std::deque<Item>& q = out_[o];
    for (std::size_t i = 0; i < q.size(); ++i) {
      if (!q[i].barrier || !Aged(q[i].started_us)) continue;
      const auto at = q.begin() + static_cast<std::ptrdiff_t>(i);
      const auto place = UnalignedBarrierPlace(q.begin(), at, [](const Item& x) { return x.barrier; });
      if (place == at) continue;  // nothing to jump
      const Item barrier = *at;
      CostOf(barrier.value).cost.switched = true;
      for (auto it = place; it != at; ++it) {
        RecordOvertaken(barrier.value, o, it->value);
        Note({.kind = Step::Kind::kJumpOut, .channel = o, .n = it->n, .by = barrier.n});
      }
      // Positions, not iterators: erasing from a deque's middle invalidates
      // every iterator into it.
      const auto to = place - q.begin();
      q.erase(at);
      q.insert(q.begin() + to, barrier);
    }
  }
}

void Vertex::RecordOvertaken(SnapshotId id, ChannelIndex o, std::uint64_t key) {
  for (FinishedPart& held : held_parts_) {
    if (held.id == id) {
      held.part.sent[o].push_back(key);
      return;
    }
  }
  CUTLINE_CHECK(agent_->RecordOvertaken(id, o, key).ok());
}

void Vertex::Obey(const Reply& r, RecordCause cause, std::optional<ChannelIndex> from) {
  // Every source starts each snapshot in the same order and channels keep
  // theirs, so no barrier can cross another: anything refused is a bug.
  CUTLINE_CHECK(r.ok());
  if (r.hold_channel && from) held_[*from] = true;
  if (r.record_state) {
    NoteRecord(r.snapshot);
    Note({.kind = Step::Kind::kRecord,
          .snapshot = r.snapshot,
          .state = static_cast<std::int64_t>(state_.received) - static_cast<std::int64_t>(state_.emitted),
          .cause = cause,
          .aligned = agent_->aligned()});
    SendBarriers(r.snapshot, r.markers_ahead);
  }
  if (r.release_inputs) held_.assign(held_.size(), false);
}

void Vertex::SendBarriers(SnapshotId id, bool ahead) {
  const Item barrier{true, id, CostOf(id).started_us};
  for (ChannelIndex o = 0; o < out_.size(); ++o) {
    std::deque<Item>& q = out_[o];
    auto place = ahead ? UnalignedBarrierPlace(q.begin(), q.end(),
                                               [](const Item& i) { return i.barrier; })
                       : q.end();
    const auto at = place - q.begin();  // Enqueue may move the queue
    const std::uint64_t n = Enqueue(o, barrier, place);
    Note({.kind = Step::Kind::kBarrierOut, .channel = o, .n = n, .snapshot = id});
    for (auto k = static_cast<std::size_t>(at) + 1; k < q.size(); ++k) {
      RecordOvertaken(id, o, q[k].value);
      Note({.kind = Step::Kind::kJumpOut, .channel = o, .n = q[k].n, .by = n});
    }
  }
}

std::optional<Item> Vertex::Send(ChannelIndex o) {
  std::deque<Item>& q = out_[o];
  if (q.empty()) return std::nullopt;
  const Item head = q.front();
  if (!head.barrier) {
    if (credits_[o] == 0) return std::nullopt;
    --credits_[o];
    --out_records_[o];
  }
  q.pop_front();
  return head;
}

std::optional<FinishedPart> Vertex::TakeFinished() {
  while (std::optional<FinishedPart> done = TakeFromAgent()) {
    if (!alignment_timeout_us_) return done;
    held_parts_.push_back(std::move(*done));
  }
  // With a timeout, a part waits while a barrier of its snapshot is queued
  // on an output: it may yet jump records, which join the part.
  for (auto it = held_parts_.begin(); it != held_parts_.end(); ++it) {
    if (BarrierQueued(it->id)) continue;
    FinishedPart out = std::move(*it);
    held_parts_.erase(it);
    out.cost = TakeCost(out.id, out.part);
    return out;
  }
  return std::nullopt;
}

std::optional<FinishedPart> Vertex::TakeFromAgent() {
  auto taken = agent_->TakeFinished();
  if (!taken) return std::nullopt;
  std::optional<FinishedPart> out = FinishedPart{taken->first, std::move(taken->second), {}};
  if (auto it = jumped_.find(out->id); it != jumped_.end()) {
    for (auto& [c, keys] : it->second) {
      std::vector<std::uint64_t>& channel = out->part.channels[c];
      channel.insert(channel.end(), keys.begin(), keys.end());
    }
    jumped_.erase(it);
  }
  if (!alignment_timeout_us_) out->cost = TakeCost(out->id, out->part);
  return out;
}

bool Vertex::BarrierQueued(SnapshotId id) const {
  for (const std::deque<Item>& q : out_) {
    for (const Item& item : q) {
      if (item.barrier && item.value == id) return true;
    }
  }
  return false;
}

Vertex::Costing& Vertex::CostOf(SnapshotId id) {
  auto [it, first] = costs_.try_emplace(id);
  if (first) {
    it->second.started_us = now_us_;  // lowered by what its barriers carry
    it->second.first_arrival = now_us_;
    it->second.arrived.resize(inputs());
    it->second.cost.inputs.resize(inputs());
  }
  return it->second;
}

void Vertex::NoteArrival(SnapshotId id, ChannelIndex c, std::int64_t started_us) {
  Costing& k = CostOf(id);
  k.arrived[c] = now_us_;
  // Each source stamps its own start, so stamps may disagree a little; an
  // older snapshot is never younger than a newer one (its barriers come
  // first everywhere, and must stop waiting first).
  for (auto it = costs_.begin(); it != costs_.end() && it->first <= id; ++it) {
    it->second.started_us = std::min(it->second.started_us, started_us);
  }
}

void Vertex::NoteRecord(SnapshotId id) {
  Costing& k = CostOf(id);  // a source's first sight of it: no alignment
  k.cost.alignment_us = now_us_ - k.first_arrival;
  for (ChannelIndex c = 0; c < inputs(); ++c) {
    ChannelCost& in = k.cost.inputs[c];
    // A switch leaves the inputs without a barrier recording.
    // (and an input whose barrier was taken ahead of its records, already
    // marked).
    in.unaligned = in.unaligned || TakenOnArrival(id, c);
    if (in.unaligned) continue;
    in.waited_us = now_us_ - k.arrived[c].value_or(now_us_);
    // Held (or just taken at its head): every record in c came after it.
    in.held_back = in_records_[c];
  }
}

SnapshotCost Vertex::TakeCost(SnapshotId id, const Part& part) {
  SnapshotCost cost;
  if (auto it = costs_.find(id); it != costs_.end()) {
    cost = std::move(it->second.cost);
    costs_.erase(it);
  }
  cost.inputs.resize(part.channels.size());
  for (ChannelIndex c = 0; c < part.channels.size(); ++c) {
    cost.inputs[c].persisted = part.channels[c].size();
  }
  for (const auto& keys : part.sent) cost.overtaken += keys.size();
  return cost;
}

}  // namespace cutline::dataflow
