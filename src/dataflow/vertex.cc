#include "dataflow/vertex.h"

#include "base/check.h"

namespace cutline::dataflow {

Vertex::Vertex(Role role, std::uint32_t inputs, std::uint32_t outputs, std::uint32_t buffers,
               Alignment alignment)
    : role_(role),
      buffers_(buffers),
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
}

void Vertex::Arrive(ChannelIndex c, Item item) {
  if (item.barrier && unaligned()) {
    TakeBarrier(item.value, c);
    return;
  }
  if (item.barrier) {
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

void Vertex::TakeBarrier(SnapshotId id, ChannelIndex c) {
  const Reply r = WithAgent([&](auto& a) { return a.OnMarker(id, c, state_); });
  // Unaligned: the records waiting in c's buffers were sent before the
  // barrier and are applied after the recording: they are c's state in this
  // snapshot. (An aligned barrier is taken only at the head of its queue.)
  if (unaligned() && r.ok() && !in_[c].empty()) {
    std::vector<std::uint64_t>& jumped = jumped_[id][c];
    for (const Item& item : in_[c]) jumped.push_back(item.value);
  }
  Obey(r, c);
}

void Vertex::Obey(const Reply& r, std::optional<ChannelIndex> from) {
  // Every source starts each snapshot in the same order and channels keep
  // theirs, so no barrier can cross another: anything refused is a bug.
  CUTLINE_CHECK(r.ok());
  if (r.hold_channel && from) held_[*from] = true;
  if (r.record_state) SendBarriers(r.snapshot, r.markers_ahead);
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
      CUTLINE_CHECK(std::get<UnalignedAgent>(agent_).RecordOvertaken(id, o, it->value).ok());
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
    return FinishedPart{f->id, std::move(f->part)};
  });
  if (!out) return out;
  if (auto it = jumped_.find(out->id); it != jumped_.end()) {
    for (auto& [c, keys] : it->second) {
      std::vector<std::uint64_t>& channel = out->part.channels[c];
      channel.insert(channel.end(), keys.begin(), keys.end());
    }
    jumped_.erase(it);
  }
  return out;
}

}  // namespace cutline::dataflow
