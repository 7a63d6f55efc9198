// Bank: validation first, then the change; markers follow the agents' Steps.
#include "bank/bank.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <limits>
#include <set>
#include <unordered_map>

namespace cutline::bank {

bool IsValidBranchName(std::string_view s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
  });
}

Status Bank::Create(const Config& config, std::optional<Bank>* out) {
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
                  config.capacity_transfers);
  out->emplace(Bank(config, std::move(names), std::move(index), std::move(network)));
  (*out)->total_ = total;
  return Status::Ok();
}

Bank::Bank(Config config, std::vector<std::string> names,
           std::unordered_map<std::string, NodeId> index, Network network)
    : config_(std::move(config)),
      names_(std::move(names)),
      index_(std::move(index)),
      network_(std::move(network)),
      history_(config_.keep_history) {
  for (NodeId n = 0; n < names_.size(); ++n) {
    balances_.push_back(config_.branches[n].balance);
    agents_.emplace_back(
        static_cast<std::uint32_t>(network_.Incoming(n).size()));
  }
}

std::optional<NodeId> Bank::FindBranch(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

Status Bank::CheckBranch(NodeId n) const {
  if (n >= names_.size()) {
    return Status::Error(Code::kNoBranchNumber, n);
  }
  return Status::Ok();
}

Status Bank::CheckChannel(NodeId from, NodeId to, ChannelId* c) const {
  if (Status s = CheckBranch(from); !s.ok()) return s;
  if (Status s = CheckBranch(to); !s.ok()) return s;
  if (from == to) {
    return Status::Error(Code::kChannelToItself, names_[from]);
  }
  *c = network_.Find(from, to);
  if (*c == sim::kNoChannel) {
    return Status::Error(Code::kNoChannel, names_[from], names_[to]);
  }
  return Status::Ok();
}

Status Bank::Transfer(NodeId from, NodeId to, Amount amount) {
  ChannelId c;
  if (Status s = CheckChannel(from, to, &c); !s.ok()) return s;
  if (amount < 1) return Status::Error(Code::kAmountTooSmall);
  if (amount > balances_[from]) {
    return Status::Error(Code::kInsufficientFunds, names_[from], balances_[from], amount);
  }
  if (network_.Full(c)) {
    return Status::Error(Code::kChannelFull, names_[from], names_[to], config_.capacity_transfers);
  }
  balances_[from] -= amount;
  in_flight_amount_ += amount;
  Send(c, bank::Transfer{amount});
  return Status::Ok();
}

Status Bank::Deliver(NodeId from, NodeId to) {
  ChannelId c;
  if (Status s = CheckChannel(from, to, &c); !s.ok()) return s;
  if (network_.Empty(c)) {
    return Status::Error(Code::kChannelEmpty, names_[from], names_[to]);
  }
  Receive(network_.DeliverFrom(c));
  return Status::Ok();
}

Status Bank::DeliverNext() {
  if (!network_.AnyInFlight()) {
    return Status::Error(Code::kNothingInFlight);
  }
  Receive(network_.DeliverNext());
  return Status::Ok();
}

Status Bank::Drain() {
  while (network_.AnyInFlight()) Receive(network_.DeliverNext());
  return Status::Ok();
}

Status Bank::Read(NodeId branch) {
  if (Status s = CheckBranch(branch); !s.ok()) return s;
  NaiveRead read{branch, balances_[branch], history_.size()};
  history_.Add(bank::Read{balances_[branch], branch});
  auto it = std::find_if(naive_.begin(), naive_.end(),
                         [&](const NaiveRead& r) { return r.branch == branch; });
  if (it == naive_.end()) {
    naive_.push_back(read);
  } else {
    *it = read;
  }
  return Status::Ok();
}

Status Bank::StartSnapshot(NodeId branch, std::optional<SnapshotId> id) {
  if (Status s = CheckBranch(branch); !s.ok()) return s;
  if (id) {
    const SnapshotInfo* s = FindSnapshot(*id);
    if (s == nullptr) {
      return Status::Error(Code::kSnapshotNotStarted, *id);
    }
    if (s->complete) {
      return Status::Error(Code::kSnapshotComplete, *id);
    }
    if (agents_[branch].HasRecorded(*id)) {
      return Status::Error(Code::kAlreadyRecorded, names_[branch], *id);
    }
  } else {
    const SnapshotInfo* running = Running();
    if (config_.one_snapshot_at_a_time && running != nullptr) {
      return Status::Error(Code::kSnapshotRunning, running->id);
    }
    // A snapshot adds 3 events per channel (marker sent, delivered, channel
    // closed) and 2 per branch (record, part done), plus its completion.
    history_.Reserve(3 * network_.channel_count() + 2 * names_.size() + 1);
    SnapshotInfo fresh;
    fresh.id = snapshots_.size() + 1;
    snapshots_.push_back(fresh);
    id = fresh.id;
  }
  SnapshotInfo& snapshot = MutableSnapshot(*id);
  snapshot.initiators.push_back(branch);
  Step step = agents_[branch].Start(*id, balances_[branch]);
  assert(step.ok() && step.record_state);
  FinishStep(branch, step, snapshot, Cause::Start(), std::nullopt);
  return Status::Ok();
}

void Bank::Send(ChannelId c, const Payload& payload) {
  Network::Msg m = network_.Send(c, payload);
  if (!history_.enabled()) return;
  std::visit(
      [&](const auto& what) {
        history_.Add(Sent<std::decay_t<decltype(what)>>{m.seq, c, what});
      },
      payload);
}

void Bank::Receive(const Network::Msg& m) {
  const sim::ChannelInfo& ch = network_.channel(m.channel);
  NodeId to = ch.to;
  if (const auto* transfer = std::get_if<bank::Transfer>(&m.payload)) {
    history_.Add(Delivered<bank::Transfer>{m.seq, m.channel, *transfer});
    agents_[to].OnMessage(ch.in_index, transfer->amount);
    balances_[to] += transfer->amount;
    in_flight_amount_ -= transfer->amount;
    return;
  }
  const Marker& marker = std::get<Marker>(m.payload);
  history_.Add(Delivered<Marker>{m.seq, m.channel, marker});
  Step step = agents_[to].OnMarker(marker.snapshot, ch.in_index, balances_[to]);
  // Markers are only ever sent by this class, once per channel and id.
  assert(step.ok());
  FinishStep(to, step, MutableSnapshot(marker.snapshot), Cause::ByMarker(m.seq),
             m.channel);
}

void Bank::FinishStep(NodeId n, const Step& step, SnapshotInfo& snapshot,
                      Cause cause, std::optional<ChannelId> closed) {
  if (step.record_state) {
    history_.Add(Recorded{snapshot.id, cause, n});
    for (ChannelId c : network_.Outgoing(n)) {
      Send(c, Marker{snapshot.id});
      ++snapshot.markers_sent;
    }
  }
  if (step.closed_channel && closed) {
    history_.Add(Closed{snapshot.id, *closed});
  }
  if (step.part_done) {
    history_.Add(bank::PartDone{snapshot.id, n});
    if (++snapshot.parts_done == names_.size()) {
      snapshot.complete = true;
      history_.Add(Completed{snapshot.id, n});
    }
  }
}

SnapshotInfo& Bank::MutableSnapshot(SnapshotId id) {
  assert(id >= 1 && id <= snapshots_.size());
  return snapshots_[id - 1];
}

const SnapshotInfo* Bank::FindSnapshot(SnapshotId id) const {
  if (id < 1 || id > snapshots_.size()) return nullptr;
  return &snapshots_[id - 1];
}

const SnapshotInfo* Bank::Running() const {
  for (auto it = snapshots_.rbegin(); it != snapshots_.rend(); ++it) {
    if (!it->complete) return &*it;
  }
  return nullptr;
}

bool Bank::HasRecorded(NodeId n, SnapshotId id) const {
  return agents_[n].HasRecorded(id);
}

bool Bank::PartDone(NodeId n, SnapshotId id) const {
  return agents_[n].PartDone(id);
}

std::optional<Amount> Bank::RecordedBalance(NodeId n, SnapshotId id) const {
  const Agent::Recorded* r = agents_[n].Find(id);
  if (r == nullptr) return std::nullopt;
  return r->state;
}

ChannelRecord Bank::RecordedChannel(SnapshotId id, ChannelId c) const {
  const sim::ChannelInfo& ch = network_.channel(c);
  const Agent& agent = agents_[ch.to];
  return ChannelRecord{agent.Channel(id, ch.in_index),
                       agent.ChannelMessages(id, ch.in_index)};
}

Amount Bank::SnapshotTotal(SnapshotId id) const {
  Amount sum = 0;
  for (NodeId n = 0; n < names_.size(); ++n) {
    if (const Agent::Recorded* r = agents_[n].Find(id)) {
      sum += r->state;
      for (const auto& message : r->messages) sum += message.second;
    }
  }
  return sum;
}

}  // namespace cutline::bank
