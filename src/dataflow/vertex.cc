#include "dataflow/vertex.h"

#include "base/check.h"

namespace cutline::dataflow {

Vertex::Vertex(Role role, std::uint32_t inputs, std::uint32_t outputs, std::uint32_t buffers,
               Alignment alignment, std::optional<std::int64_t> alignment_timeout_us)
    : role_(role),
      buffers_(buffers),
      alignment_timeout_us_(alignment_timeout_us),
      agent_(alignment == Alignment::kAligned
                 ? decltype(agent_)(std::in_place_type<AlignedAgent>, inputs, outputs)
                 : decltype(agent_)(std::in_place_type<UnalignedAgent>, inputs, outputs)),
      in_(inputs),
      in_records_(inputs, 0),
      held_(inputs, false),
      out_(outputs),
      credits_(outputs, buffers),
      out_records_(outputs, 0) {
  CUTLINE_CHECK(buffers >= 1);
  // Unaligned barriers never wait, so a timeout for them is a host's mistake.
  CUTLINE_CHECK(!alignment_timeout_us || (alignment == Alignment::kAligned &&
                                          *alignment_timeout_us >= 0));
}

void Vertex::Arrive(ChannelIndex c, Item item, std::int64_t now_us) {
  See(now_us);
  if (item.barrier) {
    NoteArrival(item.value, c);
    if (TakenOnArrival(item.value, c)) return TakeJumping(item.value, c);
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
  out_[o].push_back(Item{false, key});
  ++out_records_[o];
  ++state_.emitted;
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
        const SnapshotId id = q.front().value;
        q.pop_front();
        --queued_barriers_;
        TakeBarrier(id, c);
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
    const std::uint64_t key = q.front().value;
    if (role_ == Role::kOperator && !Room(Route(key))) continue;
    q.pop_front();
    --in_records_[c];
    Apply(c, key);
    next_input_ = (c + 1) % n;
    return c;
  }
  return std::nullopt;
}

void Vertex::Apply(ChannelIndex c, std::uint64_t key) {
  // The agent sees the record before it changes the state: a snapshot whose
  // channel c is open records it as in flight.
  // (Refused only for a record taken from a held input: Process never does.)
  const Reply r = WithAgent([&](auto& a) { return a.OnMessage(c, NoStamp{}, key, state_); });
  CUTLINE_CHECK(r.ok() && !r.record_state);
  ++state_.received;
  ++state_.per_key[key];
  if (role_ == Role::kOperator) Put(Route(key), key);
}

void Vertex::Start(SnapshotId id) {
  CUTLINE_CHECK(role_ == Role::kSource);
  Obey(WithAgent([&](auto& a) { return a.Start(id, state_); }), std::nullopt);
}

bool Vertex::TakenOnArrival(SnapshotId id, ChannelIndex c) {
  if (unaligned()) return true;
  // The records before it on c were in flight when the switch recorded.
  return std::get<AlignedAgent>(agent_).Channel(id, c) == ChannelRecording::kRecording;
}

void Vertex::TakeJumping(SnapshotId id, ChannelIndex c) {
  // Barriers of older switched snapshots may still wait in c's queue: only
  // records are in flight. Each is applied later, after this record.
  if (in_records_[c] > 0) {
    std::vector<std::uint64_t>& jumped = jumped_[id][c];
    for (const Item& item : in_[c]) {
      if (!item.barrier) jumped.push_back(item.value);
    }
  }
  TakeBarrier(id, c);
}

void Vertex::TakeBarrier(SnapshotId id, ChannelIndex c) {
  Obey(WithAgent([&](auto& a) { return a.OnMarker(id, c, state_); }), c);
}

void Vertex::Tick(std::int64_t now_us) {
  See(now_us);
  if (!alignment_timeout_us_) return;
  AlignedAgent& agent = std::get<AlignedAgent>(agent_);
  const SnapshotId id = agent.rules().aligning();
  if (id == 0 || now_us_ - CostOf(id).first_arrival < *alignment_timeout_us_) return;
  CostOf(id).cost.switched = true;
  Obey(agent.Unalign(id, state_), std::nullopt);
}

void Vertex::Obey(const Reply& r, std::optional<ChannelIndex> from) {
  // Every source starts each snapshot in the same order and channels keep
  // theirs, so no barrier can cross another: anything refused is a bug.
  CUTLINE_CHECK(r.ok());
  if (r.hold_channel && from) held_[*from] = true;
  if (r.record_state) {
    NoteRecord(r.snapshot);
    SendBarriers(r.snapshot, r.markers_ahead);
  }
  if (r.release_inputs) held_.assign(held_.size(), false);
}

void Vertex::SendBarriers(SnapshotId id, bool ahead) {
  const Item barrier{true, id};
  for (ChannelIndex o = 0; o < out_.size(); ++o) {
    std::deque<Item>& q = out_[o];
    if (!ahead) {
      q.push_back(barrier);
      continue;
    }
    auto place = UnalignedBarrierPlace(q.begin(), q.end(), [](const Item& i) { return i.barrier; });
    for (auto it = place; it != q.end(); ++it) {
      const std::uint64_t key = it->value;
      CUTLINE_CHECK(WithAgent([&](auto& a) { return a.RecordOvertaken(id, o, key); }).ok());
    }
    q.insert(place, barrier);
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
  std::optional<FinishedPart> out = WithAgent([](auto& a) -> std::optional<FinishedPart> {
    auto f = a.TakeFinished();
    if (!f) return std::nullopt;
    return FinishedPart{f->id, std::move(f->part), {}};
  });
  if (!out) return out;
  if (auto it = jumped_.find(out->id); it != jumped_.end()) {
    for (auto& [c, keys] : it->second) {
      std::vector<std::uint64_t>& channel = out->part.channels[c];
      channel.insert(channel.end(), keys.begin(), keys.end());
    }
    jumped_.erase(it);
  }
  out->cost = TakeCost(out->id, out->part);
  return out;
}

Vertex::Costing& Vertex::CostOf(SnapshotId id) {
  auto [it, first] = costs_.try_emplace(id);
  if (first) {
    it->second.first_arrival = now_us_;
    it->second.arrived.resize(inputs());
    it->second.cost.inputs.resize(inputs());
  }
  return it->second;
}

void Vertex::NoteArrival(SnapshotId id, ChannelIndex c) { CostOf(id).arrived[c] = now_us_; }

void Vertex::NoteRecord(SnapshotId id) {
  Costing& k = CostOf(id);  // a source's first sight of it: no alignment
  k.cost.alignment_us = now_us_ - k.first_arrival;
  for (ChannelIndex c = 0; c < inputs(); ++c) {
    ChannelCost& in = k.cost.inputs[c];
    // A switch leaves the inputs without a barrier recording.
    in.unaligned = unaligned() || std::get<AlignedAgent>(agent_).Channel(id, c) ==
                                      ChannelRecording::kRecording;
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
