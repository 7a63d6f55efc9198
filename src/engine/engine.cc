// Engine: validation first, then the change; markers follow the Steps of the
// algorithm's host, which is the only part that knows which algorithm runs.
#include "engine/engine.h"
#include "base/check.h"
#include "base/lang.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <set>
#include <unordered_map>

namespace cutline::engine {

bool IsValidBranchName(std::string_view s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  });
}

namespace {

// A directed cycle of the topology, as "P1 → P2 → P1" (CycleText), or "" if it has none
// (an iterative depth-first search: white, grey on the path, black done).
std::string FindCycle(const sim::Topology& t,
                      const std::vector<std::string>& names) {
  std::vector<std::uint8_t> colour(t.nodes(), 0);
  std::vector<NodeId> parent(t.nodes(), 0);
  for (NodeId root = 0; root < t.nodes(); ++root) {
    if (colour[root] != 0) continue;
    std::vector<std::pair<NodeId, std::size_t>> stack{{root, 0}};
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      auto out = t.Outgoing(n);
      if (next == out.size()) {
        colour[n] = 2;
        stack.pop_back();
        continue;
      }
      NodeId m = t.channel(out[next++]).to;
      if (colour[m] == 1) {  // back edge: the cycle is m ... n -> m
        std::vector<NodeId> path{m};
        for (NodeId v = n; v != m; v = parent[v]) path.push_back(v);
        // path is m, n, parent(n), ...; the cycle starts at m and goes
        // along the path reversed: m, ..., n (CycleText returns to m).
        std::vector<std::string> cycle{names[m]};
        for (auto it = path.rbegin(); it + 1 != path.rend(); ++it) cycle.push_back(names[*it]);
        return CycleText(cycle);
      }
      if (colour[m] == 0) {
        colour[m] = 1;
        parent[m] = n;
        stack.emplace_back(m, 0);
      }
    }
  }
  return "";
}

}  // namespace

Status Engine::Create(const Config& config, std::optional<Engine>* out) {
  const auto& branches = config.branches;
  if (branches.size() < 2) {
    return Status::Error(Code::kNetworkTooSmall);
  }
  if (branches.size() > std::numeric_limits<NodeId>::max() / 2) {
    return Status::Error(Code::kTooManyBranches);
  }
  std::vector<std::string> names;
  std::unordered_map<std::string, NodeId> index;
  Amount total = 0;
  for (const BranchSpec& b : branches) {
    if (!IsValidBranchName(b.name)) {
      return Status::Error(Code::kInvalidBranchName, b.name);
    }
    if (!index.emplace(b.name, static_cast<NodeId>(names.size())).second) {
      return Status::Error(Code::kBranchDeclaredTwice, b.name);
    }
    if (b.balance < 0) {
      return Status::Error(Code::kNegativeBalance, b.name);
    }
    if (__builtin_add_overflow(total, b.balance, &total)) {
      return Status::Error(Code::kTotalOverflow);
    }
    names.push_back(b.name);
  }
  std::vector<sim::Link> links;
  if (config.links) {
    std::set<sim::Link> seen;
    for (const auto& [a, b] : *config.links) {
      for (const std::string* n : {&a, &b}) {
        if (!index.count(*n)) {
          return Status::Error(Code::kLinkUnknownBranch, *n);
        }
      }
      NodeId from = index.at(a), to = index.at(b);
      if (from == to) {
        return Status::Error(Code::kLinkSelfLoop, a, b);
      }
      if (!seen.insert({from, to}).second) {
        return Status::Error(Code::kLinkTwice, a, b);
      }
      links.emplace_back(from, to);
    }
  } else {
    links = sim::Topology::Complete(static_cast<std::uint32_t>(names.size()));
  }
  Network network(static_cast<std::uint32_t>(names.size()), links,
                  config.capacity_transfers, config.fifo);
  if (config.algorithm.traits().needs_acyclic) {
    if (std::string cycle = FindCycle(network, names); !cycle.empty()) {
      return Status::Error(Code::kAlignedCycle, cycle);
    }
  }
  out->emplace(Engine(config, std::move(names), std::move(index), std::move(network)));
  (*out)->total_ = total;
  return Status::Ok();
}

Engine::Engine(Config config, std::vector<std::string> names,
           std::unordered_map<std::string, NodeId> index, Network network)
    : fixed_(std::make_shared<const Fixed>(Fixed{std::move(config), std::move(names), std::move(index)})),
      network_(std::move(network)),
      history_(fixed_->config.keep_history),
      host_(fixed_->config.algorithm.definition().make_engine_host(network_,
                                                          fixed_->config.keep_history)),
      sees_every_transfer_(fixed_->config.algorithm.traits().sees_every_transfer),
      tags_messages_(fixed_->config.algorithm.traits().tags_messages),
      app_conserved_(fixed_->config.app.conserved()) {
  balances_.reserve(fixed_->names.size());
  for (NodeId n = 0; n < fixed_->names.size(); ++n) {
    balances_.push_back(fixed_->config.branches[n].balance);
  }
  if (fixed_->config.algorithm.traits().markers_after_next_transfer) held_markers_.resize(fixed_->names.size());
}

std::optional<NodeId> Engine::FindBranch(const std::string& name) const {
  auto it = fixed_->index.find(name);
  if (it == fixed_->index.end()) return std::nullopt;
  return it->second;
}

Status Engine::CheckBranch(NodeId n) const {
  if (n >= fixed_->names.size()) {
    return Status::Error(Code::kNoBranchNumber, n);
  }
  return Status::Ok();
}

Status Engine::CheckChannel(NodeId from, NodeId to, ChannelId* c) const {
  if (Status s = CheckBranch(from); !s.ok()) return s;
  if (Status s = CheckBranch(to); !s.ok()) return s;
  if (from == to) {
    return Status::Error(Code::kChannelToItself, fixed_->names[from]);
  }
  *c = network_.Find(from, to);
  if (*c == sim::kNoChannel) {
    return Status::Error(Code::kNoChannel, fixed_->names[from], fixed_->names[to]);
  }
  return Status::Ok();
}

// The part of a send every application shares: the algorithm's tag, the
// message, and the markers a broken rule kept until now. Inlined: the
// bank's transfers are the benchmarks' hot path.
[[gnu::always_inline]] inline void Engine::SendWord(ChannelId c, NodeId from, Amount word) {
  if (tags_messages_) host_->OnSendTransfer(network_.channel(c), network_.last_seq() + 1);
  Send(c, history::Transfer{word});
  // Broken on purpose: the markers a record kept go only now, behind it.
  if (!held_markers_.empty() && !held_markers_[from].empty()) [[unlikely]] {
    std::vector<SnapshotId> held = std::move(held_markers_[from]);
    held_markers_[from].clear();
    for (SnapshotId id : held) SendMarkers(from, Step{}, MutableSnapshot(id));
  }
}

Status Engine::Transfer(NodeId from, NodeId to, Amount amount) {
  ChannelId c;
  if (Status s = CheckChannel(from, to, &c); !s.ok()) return s;
  if (amount < 1) return Status::Error(Code::kAmountTooSmall);
  if (amount > balances_[from]) {
    return Status::Error(Code::kInsufficientFunds, fixed_->names[from], balances_[from], amount);
  }
  if (network_.Full(c)) {
    return Status::Error(Code::kChannelFull, fixed_->names[from], fixed_->names[to], fixed_->config.capacity_transfers);
  }
  balances_[from] -= amount;
  in_flight_amount_ += amount;
  // Money conserved, the cheap half (engine::Invariants sums the rest): what
  // travels is never more than the bank holds.
  CUTLINE_CHECK(in_flight_amount_ <= total_);
  SendWord(c, from, amount);
  return Status::Ok();
}

Status Engine::SendMessage(NodeId from, NodeId to, Amount word) {
  ChannelId c;
  if (Status s = CheckChannel(from, to, &c); !s.ok()) return s;
  if (network_.Full(c)) {
    return Status::Error(Code::kChannelFull, fixed_->names[from], fixed_->names[to], fixed_->config.capacity_transfers);
  }
  balances_[from] = fixed_->config.app.AfterSend(balances_[from], word, to);
  SendWord(c, from, word);
  return Status::Ok();
}

bool Engine::Carries(ChannelId c, Amount word) const {
  bool found = false;
  network_.ForEachQueued(c, [&](const Network::Msg& m) {
    const auto* t = std::get_if<history::Transfer>(&m.payload);
    found |= t != nullptr && t->amount == word;
  });
  return found;
}

Status Engine::LocalStep(NodeId n) {
  if (Status s = CheckBranch(n); !s.ok()) return s;
  balances_[n] = fixed_->config.app.AfterLocal(balances_[n]);
  history_.Add(Local{n});
  return Status::Ok();
}

Status Engine::Deliver(NodeId from, NodeId to, std::uint64_t at) {
  ChannelId c;
  if (Status s = CheckChannel(from, to, &c); !s.ok()) return s;
  if (network_.Empty(c)) {
    return Status::Error(Code::kChannelEmpty, fixed_->names[from], fixed_->names[to]);
  }
  if (network_.fifo() && at != 1) {
    return Status::Error(Code::kAtOnFifo, fixed_->names[from], fixed_->names[to], at);
  }
  if (at == 0 || at > network_.Size(c)) {
    return Status::Error(Code::kAtOutOfRange, fixed_->names[from], fixed_->names[to], at,
                         network_.Size(c));
  }
  if (network_.Held(c)) {
    // Only aligned barriers hold channels, and they run one snapshot at a
    // time (traits: not concurrent_snapshots).
    const SnapshotInfo* running = Running();
    CUTLINE_CHECK(running != nullptr);
    std::string waits;
    for (ChannelId w : AlignmentWaits(to, running->id)) {
      if (!waits.empty()) waits += ", ";
      waits += ChannelText(fixed_->names[network_.channel(w).from], fixed_->names[to]);
    }
    return Status::Error(Code::kChannelHeldBack, fixed_->names[from], fixed_->names[to],
                         running->id, waits);
  }
  Receive(network_.DeliverAt(c, static_cast<std::uint32_t>(at)));
  return Status::Ok();
}

Status Engine::DeliverNext() {
  if (!network_.AnyInFlight()) {
    return Status::Error(Code::kNothingInFlight);
  }
  if (!network_.CanDeliverNext()) {
    return Status::Error(Code::kNothingDeliverable);
  }
  Receive(network_.DeliverNext());
  return Status::Ok();
}

Status Engine::Drain() {
  while (network_.CanDeliverNext()) Receive(network_.DeliverNext());
  return Status::Ok();
}

Status Engine::StopTheWorld() {
  if (const SnapshotInfo* running = Running()) {
    return Status::Error(Code::kStopWhileSnapshot, running->id);
  }
  SnapshotInfo fresh;
  fresh.id = snapshots_.size() + 1;
  fresh.stop_the_world = true;
  // Nothing is held back with no snapshot running, so this empties every
  // channel; each of these deliveries is time no branch may send.
  while (network_.AnyInFlight()) {
    Receive(network_.DeliverNext());
    ++fresh.stopped_deliveries;
  }
  snapshots_.push_back(fresh);
  SnapshotInfo& snapshot = snapshots_.back();
  if (!stop_host_) {
    stop_host_ = Algorithm::kStopTheWorld.definition().make_engine_host(
        network_, fixed_->config.keep_history);
  }
  for (NodeId n = 0; n < fixed_->names.size(); ++n) {
    stop_host_->Start(n, snapshot.id, balances_[n]);
    history_.Add(Recorded{snapshot.id, Cause::Start(), n});
  }
  for (ChannelId c = 0; c < network_.channel_count(); ++c) {
    history_.Add(Closed{snapshot.id, c});
  }
  for (NodeId n = 0; n < fixed_->names.size(); ++n) {
    history_.Add(history::PartDone{snapshot.id, n});
  }
  snapshot.parts_done = static_cast<std::uint32_t>(fixed_->names.size());
  snapshot.complete = true;
  history_.Add(Completed{snapshot.id, static_cast<NodeId>(fixed_->names.size() - 1)});
  return Status::Ok();
}

Status Engine::Read(NodeId branch) {
  if (Status s = CheckBranch(branch); !s.ok()) return s;
  NaiveRead read{branch, balances_[branch], history_.size()};
  history_.Add(history::Read{balances_[branch], branch});
  auto it = std::find_if(naive_.begin(), naive_.end(),
                         [&](const NaiveRead& r) { return r.branch == branch; });
  if (it == naive_.end()) {
    naive_.push_back(read);
  } else {
    *it = read;
  }
  return Status::Ok();
}

Status Engine::StartSnapshot(NodeId branch, std::optional<SnapshotId> id) {
  if (Status s = CheckBranch(branch); !s.ok()) return s;
  if (id) {
    const SnapshotInfo* s = FindSnapshot(*id);
    if (s == nullptr) {
      return Status::Error(Code::kSnapshotNotStarted, *id);
    }
    if (s->complete) {
      return Status::Error(Code::kSnapshotComplete, *id);
    }
    if (HasRecorded(branch, *id)) {
      return Status::Error(Code::kAlreadyRecorded, fixed_->names[branch], *id);
    }
    if (fixed_->config.algorithm.traits().only_sources_start &&
        !network_.Incoming(branch).empty()) {
      return Status::Error(Code::kAlignedNotSource, fixed_->names[branch]);
    }
  } else {
    if (fixed_->config.algorithm.traits().only_sources_start &&
        !network_.Incoming(branch).empty()) {
      return Status::Error(Code::kAlignedNotSource, fixed_->names[branch]);
    }
    const SnapshotInfo* running = Running();
    if (fixed_->config.one_snapshot_at_a_time && running != nullptr) {
      return Status::Error(Code::kSnapshotRunning, running->id);
    }
    // A snapshot adds 3 events per channel (marker sent, delivered, channel
    // closed) and 2 per branch (record, part done), plus its completion.
    history_.Reserve(3 * network_.channel_count() + 2 * fixed_->names.size() + 1);
    SnapshotInfo fresh;
    fresh.id = snapshots_.size() + 1;
    snapshots_.push_back(fresh);
    ++running_;
    id = fresh.id;
  }
  SnapshotInfo& snapshot = MutableSnapshot(*id);
  snapshot.initiators.push_back(branch);
  Step step = host_->Start(branch, *id, balances_[branch]);
  CUTLINE_CHECK(step.ok() && step.record_state);
  FinishStep(branch, step, snapshot, Cause::Start(), std::nullopt);
  return Status::Ok();
}

void Engine::Send(ChannelId c, const Payload& payload) {
  Network::Msg m = network_.Send(c, payload);
  if (!history_.enabled()) return;
  std::visit(
      [&](const auto& what) {
        history_.Add(Sent<std::decay_t<decltype(what)>>{m.seq, c, what});
      },
      payload);
}

void Engine::Receive(const Network::Msg& m) {
  const sim::ChannelInfo& ch = network_.channel(m.channel);
  NodeId to = ch.to;
  if (const auto* transfer = std::get_if<history::Transfer>(&m.payload)) {
    history_.Add(Delivered<history::Transfer>{m.seq, m.channel, *transfer});
    // With no snapshot running, no channel is being recorded: most
    // algorithms need not see the transfer (the common, fast case).
    if (running_ != 0 || sees_every_transfer_) {
      // Before the transfer is applied: a record it causes holds the
      // balance from before it.
      replies_.clear();
      host_->OnTransfer(m.channel, ch, m.seq, transfer->amount, balances_[to], &replies_,
                        &joined_);
      // Left empty between deliveries, so that most pay one test.
      if (!joined_.empty()) [[unlikely]] {
        if (history_.enabled()) joins_.emplace(m.seq, joined_);
        joined_.clear();
      }
      for (const Reply& r : replies_) {
        CUTLINE_CHECK(r.ok());
        FinishStep(to, r, MutableSnapshot(r.snapshot), Cause::ByTransfer(m.seq), m.channel);
      }
    }
    if (app_conserved_) [[likely]] {
      balances_[to] += transfer->amount;
      in_flight_amount_ -= transfer->amount;
      CUTLINE_CHECK(in_flight_amount_ >= 0);  // nothing arrives that was not sent
    } else {
      balances_[to] = fixed_->config.app.AfterDeliver(balances_[to], transfer->amount);
    }
    return;
  }
  const Marker& marker = std::get<Marker>(m.payload);
  history_.Add(Delivered<Marker>{m.seq, m.channel, marker});
  Step step = host_->OnMarker(m.channel, ch, m.seq, marker.snapshot, balances_[to]);
  // Markers are only ever sent by this class, once per channel and id.
  CUTLINE_CHECK(step.ok());
  // Tested on the Step's word (detail::StepWord), once per marker.
  const std::uint64_t w = detail::StepWord(step);
  if ((w & detail::kStepBit<&Step::hold_channel>) != 0) network_.Hold(m.channel);
  // A barrier that only holds its channel (aligned barriers: every one at a
  // branch but its last) leaves nothing for FinishStep to do: skipping the
  // call spares most of an aligned snapshot's markers its prologue.
  constexpr std::uint64_t kFinishes =
      detail::kStepBit<&Step::record_state> | detail::kStepBit<&Step::closed_channel> |
      detail::kStepBit<&Step::part_done> | detail::kStepBit<&Step::release_inputs>;
  if ((w & kFinishes) == 0) return;
  FinishStep(to, step, MutableSnapshot(marker.snapshot), Cause::ByMarker(m.seq),
             m.channel);
}

void Engine::FinishStep(NodeId n, const Step& step, SnapshotInfo& snapshot,
                      Cause cause, std::optional<ChannelId> closed) {
  if (step.record_state) {
    history_.Add(Recorded{snapshot.id, cause, n});
    if (held_markers_.empty() || cause != Cause::Start()) [[likely]] {
      SendMarkers(n, step, snapshot);
    } else {
      held_markers_[n].push_back(snapshot.id);  // until n's next transfer
    }
  }
  if (step.release_inputs) {
    // Aligned: every input closed (empty) at the record, and released.
    for (ChannelId c : network_.Incoming(n)) {
      network_.Release(c);
      history_.Add(Closed{snapshot.id, c});
    }
  } else if (step.closed_channel && closed) {
    history_.Add(Closed{snapshot.id, *closed});
  }
  if (step.part_done) {
    history_.Add(history::PartDone{snapshot.id, n});
    if (++snapshot.parts_done == fixed_->names.size()) {
      snapshot.complete = true;
      --running_;
      history_.Add(Completed{snapshot.id, n});
    }
  }
}

void Engine::SendMarkers(NodeId n, const Step& step, SnapshotInfo& snapshot) {
  for (ChannelId c : network_.Outgoing(n)) {
    ++snapshot.markers_sent;
    if (step.markers_ahead) {
      // Unaligned: the barrier jumps the queue; what it overtakes is the
      // channel's state, recorded here by the sender.
      std::vector<Network::Msg> behind;
      network_.ForEachQueued(c, [&](const Network::Msg& m) { behind.push_back(m); });
      Network::Msg barrier = network_.SendAhead(c, Marker{snapshot.id});
      history_.Add(Sent<Marker>{barrier.seq, c, Marker{snapshot.id}});
      for (const Network::Msg& m : behind) {
        if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
          host_->OnOvertaken(snapshot.id, network_.channel(c), t->amount);
          history_.Add(Overtaken{barrier.seq, m.seq, c});
        }
      }
      continue;
    }
    if (tags_messages_) {
      host_->OnSendMarker(network_.channel(c), network_.last_seq() + 1, snapshot.id);
    }
    Send(c, Marker{snapshot.id});
  }
}

SnapshotInfo& Engine::MutableSnapshot(SnapshotId id) {
  CUTLINE_CHECK(id >= 1 && id <= snapshots_.size());
  return snapshots_[id - 1];
}

const SnapshotInfo* Engine::FindSnapshot(SnapshotId id) const {
  if (id < 1 || id > snapshots_.size()) return nullptr;
  return &snapshots_[id - 1];
}

const SnapshotInfo* Engine::Running() const {
  for (auto it = snapshots_.rbegin(); it != snapshots_.rend(); ++it) {
    if (!it->complete) return &*it;
  }
  return nullptr;
}

Algorithm Engine::AlgorithmOf(SnapshotId id) const {
  const SnapshotInfo* s = FindSnapshot(id);
  CUTLINE_CHECK(s != nullptr);
  return s->stop_the_world ? Algorithm::kStopTheWorld : fixed_->config.algorithm;
}

const SnapshotHost& Engine::HostOf(SnapshotId id) const {
  const SnapshotInfo* s = FindSnapshot(id);
  return s != nullptr && s->stop_the_world ? *stop_host_ : *host_;
}

bool Engine::HasRecorded(NodeId n, SnapshotId id) const {
  return HostOf(id).HasRecorded(n, id);
}

bool Engine::PartDone(NodeId n, SnapshotId id) const {
  return HostOf(id).PartDone(n, id);
}

std::optional<Amount> Engine::RecordedBalance(NodeId n, SnapshotId id) const {
  return HostOf(id).RecordedBalance(n, id);
}

ChannelRecord Engine::RecordedChannel(SnapshotId id, ChannelId c) const {
  return HostOf(id).RecordedChannel(id, c, network_.channel(c));
}

bool Engine::HoldsMarkers(NodeId n, SnapshotId id) const {
  if (held_markers_.empty()) return false;
  return std::find(held_markers_[n].begin(), held_markers_[n].end(), id) !=
         held_markers_[n].end();
}

const std::vector<SnapshotId>& Engine::JoinedBy(Seq transfer) const {
  static const std::vector<SnapshotId> kNone;
  auto it = joins_.find(transfer);
  return it == joins_.end() ? kNone : it->second;
}

std::vector<ChannelId> Engine::AlignmentWaits(NodeId n, SnapshotId id) const {
  std::vector<ChannelId> out;
  auto in = network_.Incoming(n);
  for (ChannelIndex i : HostOf(id).Waiting(n, id)) out.push_back(in[i]);
  return out;
}

Amount Engine::SnapshotTotal(SnapshotId id) const {
  Amount sum = 0;
  for (NodeId n = 0; n < fixed_->names.size(); ++n) {
    if (auto b = RecordedBalance(n, id)) sum += *b;
  }
  return sum + HostOf(id).ChannelsTotal(id);
}

}  // namespace cutline::engine
