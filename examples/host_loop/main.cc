// The host loop of docs/library.md (process.h), as a program: three processes on FIFO
// channels (0 -> 1, 0 -> 2, 1 -> 2) pass items and take snapshots under each
// of the four algorithms with one and the same host code. Every complete
// snapshot must balance (what 0 sent = what 1 and 2 hold + what is in the
// channels); exits 1 if one does not, or if any input is refused.
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <optional>
#include <random>
#include <string_view>
#include <utility>
#include <vector>

#include <cutline/barrier_rules.h>
#include <cutline/collector.h>
#include <cutline/lai_yang_rules.h>
#include <cutline/marker_rules.h>
#include <cutline/snapshot_agent.h>

#include "process.h"

namespace {

using cutline::ChannelIndex;
using cutline::ProcessIndex;
using cutline::Reply;
using cutline::Result;
using cutline::SnapshotId;

struct Edge {
  ProcessIndex from, to;
  ChannelIndex out, in;  // the channel's index at its sender and receiver
};
const std::vector<Edge> kEdges = {{0, 1, 0, 0}, {0, 2, 1, 0}, {1, 2, 0, 1}};
const std::vector<cutline::PartShape> kShapes = {{0, 2}, {1, 1}, {2, 0}};
constexpr int kSnapshots = 40;

template <class Rules>
class Network {
 public:
  using Proc = host_loop::Process<Rules, Network<Rules>>;
  struct Frame {
    bool control = false;
    SnapshotId id = 0;
    typename Proc::Control control_data{};
    typename Proc::Agent::Stamp stamp{};
    int item = 0;
  };

  explicit Network(unsigned seed) : rng_(seed), queues_(kEdges.size()), collector_(kShapes) {
    for (ProcessIndex p = 0; p < 3; ++p) {
      procs_.emplace_back(*this, p, kShapes[p].incoming, kShapes[p].outgoing);
    }
  }

  void SendControl(Proc& from, ChannelIndex out, SnapshotId id,
                   const typename Proc::Control& control, bool ahead) {
    std::deque<Frame>& q = queues_[EdgeOf(&from, out)];
    Frame f{true, id, control, {}, 0};
    auto place = q.end();
    if (ahead) {
      place = cutline::UnalignedBarrierPlace(q.begin(), q.end(),
                                             [](const Frame& g) { return g.control; });
      for (auto it = place; it != q.end(); ++it) from.agent().RecordOvertaken(id, out, it->item);
    }
    q.insert(place, f);
  }
  void SendItem(ProcessIndex p, ChannelIndex out) {
    Result<typename Proc::Agent::Stamp> stamp = procs_[p].agent().OnOutgoing(out);
    if (!stamp.ok()) return Refused(p, Reply::Refused(stamp.error, 0));
    procs_[p].state() -= 1;
    queues_[EdgeOf(&procs_[p], out)].push_back(Frame{false, 0, {}, stamp.value, 1});
  }
  void Refused(ProcessIndex p, const Reply& r) {
    std::cerr << "process " << p << " refused snapshot " << r.snapshot << ": "
              << cutline::ToString(r.error) << "\n";
    failed_ = true;
  }
  void Collect(SnapshotId id, ProcessIndex from, typename Proc::Agent::Part part) {
    cutline::PartAdded added = collector_.Add(id, from, std::move(part));
    if (added == cutline::PartAdded::kComplete) return Check(id, *collector_.Take(id));
    if (added != cutline::PartAdded::kPending) {
      std::cerr << "collector: " << cutline::ToString(added) << "\n";
      failed_ = true;
    }
  }
  // Runs until kSnapshots are complete; true if all balanced.
  bool Run();

 private:
  std::size_t EdgeOf(const Proc* p, ChannelIndex out) const {
    for (std::size_t e = 0; e < kEdges.size(); ++e) {
      if (&procs_[kEdges[e].from] == p && kEdges[e].out == out) return e;
    }
    std::abort();
  }
  void Deliver(std::size_t e) {
    Frame f = queues_[e].front();
    queues_[e].pop_front();
    Proc& to = procs_[kEdges[e].to];
    if (f.control) {
      to.OnControl(f.id, kEdges[e].in, f.control_data);
    } else {
      to.OnMessage(kEdges[e].in, f.stamp, f.item);
    }
  }
  void Check(SnapshotId id, const std::vector<typename Proc::Agent::Part>& parts) {
    long sum = 0;
    for (const auto& part : parts) {
      sum += part.state;
      for (const auto& channel : part.channels) sum += static_cast<long>(channel.size());
      for (const auto& sent : part.sent) sum += static_cast<long>(sent.size());
    }
    if (sum != 0) {
      std::cerr << "snapshot " << id << " does not balance: " << sum << "\n";
      failed_ = true;
    }
    ++complete_;
  }

  std::mt19937 rng_;
  std::vector<std::deque<Frame>> queues_;
  std::deque<Proc> procs_;
  cutline::SnapshotCollector<int, int> collector_;
  SnapshotId next_id_ = 1;
  int complete_ = 0;
  bool failed_ = false;
};

template <class Rules>
bool Network<Rules>::Run() {
  for (long step = 0; complete_ < kSnapshots && !failed_; ++step) {
    if (step > 1000000) {
      std::cerr << "snapshots neither complete nor refused\n";
      return false;
    }
    std::uint32_t dice = rng_() % 8;
    if (dice < 2) SendItem(0, rng_() % 2);
    if (dice == 2 && procs_[1].state() > 0) SendItem(1, 0);
    // A new snapshot every so often, at the source (aligned barriers start
    // there only); two may run at once.
    if (dice == 3 && step % 16 == 0 && next_id_ <= kSnapshots &&
        next_id_ <= static_cast<SnapshotId>(complete_) + 2) {
      procs_[0].Start(next_id_++);
    }
    std::size_t e = rng_() % kEdges.size();
    if (dice >= 4 && !queues_[e].empty() && !procs_[kEdges[e].to].held(kEdges[e].in)) Deliver(e);
  }
  return !failed_;
}

template <class Rules>
bool RunOne(std::string_view name, unsigned seed) {
  Network<Rules> net(seed);
  bool ok = net.Run();
  std::cout << name << ": " << (ok ? "every snapshot balanced" : "FAILED") << "\n";
  return ok;
}

}  // namespace

int main() {
  const unsigned seed = std::random_device{}();
  std::cout << "host_loop seed " << seed << "\n";
  bool ok = RunOne<cutline::MarkerRules>("Chandy-Lamport", seed);
  ok = RunOne<cutline::LaiYangRules>("Lai-Yang", seed) && ok;
  ok = RunOne<cutline::AlignedBarrierRules>("aligned barriers", seed) && ok;
  ok = RunOne<cutline::UnalignedBarrierRules>("unaligned barriers", seed) && ok;
  return ok ? 0 : 1;
}
