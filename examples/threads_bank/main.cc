// threads_bank: the snapshot agent in a host of its own, with no simulator.
// Three branches are threads that move money to each other over FIFO queues;
// halfway through, P1 starts a snapshot. The program prints what each branch
// recorded and exits 1 unless the record adds up to the money the bank holds.
#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <iostream>
#include <latch>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include <cutline/snapshot_agent.h>

namespace {

using cutline::ChannelIndex;
using cutline::SnapshotId;
using Amount = std::int64_t;
// A branch records its balance; a recorded channel holds transfer amounts.
using Agent = cutline::SnapshotAgent<Amount, Amount>;

constexpr int kBranches = 3;
constexpr Amount kOpeningBalance = 100;
constexpr Amount kBankTotal = kBranches * kOpeningBalance;
constexpr int kTransfersPerBranch = 2000;
constexpr SnapshotId kSnapshot = 1;

struct Transfer {
  Amount amount;
};
struct Marker {
  SnapshotId snapshot;
};
using Message = std::variant<Transfer, Marker>;

std::string Name(int branch) { return "P" + std::to_string(branch + 1); }

// The agent numbers a branch's incoming channels 0..kBranches-2; the channel
// from `sender` into `receiver` is the sender's position among the others.
ChannelIndex InIndex(int receiver, int sender) {
  return static_cast<ChannelIndex>(sender < receiver ? sender : sender - 1);
}
int Sender(int receiver, ChannelIndex c) {
  return static_cast<int>(c) < receiver ? static_cast<int>(c)
                                        : static_cast<int>(c) + 1;
}

// A branch's incoming channels: one FIFO queue per sender. They share one lock
// so that an idle branch can sleep until any of them has a message.
class Inbox {
 public:
  Inbox() : queues_(kBranches - 1) {}

  void Push(ChannelIndex c, Message m) {
    {
      std::lock_guard lock(mu_);
      queues_[c].push_back(m);
    }
    arrived_.notify_one();
  }

  // The oldest message of one non-empty channel, or nothing if all are empty
  // and `wait` is false. The search starts after the channel served last, so
  // a busy sender cannot starve the others (a marker waiting behind it would
  // hold up the snapshot).
  std::optional<std::pair<ChannelIndex, Message>> Pop(bool wait) {
    std::unique_lock lock(mu_);
    if (wait) arrived_.wait(lock, [&] { return !AllEmpty(); });
    for (std::size_t i = 1; i <= queues_.size(); ++i) {
      const ChannelIndex c =
          static_cast<ChannelIndex>((last_ + i) % queues_.size());
      if (!queues_[c].empty()) {
        Message m = queues_[c].front();
        queues_[c].pop_front();
        last_ = c;
        return std::pair{c, m};
      }
    }
    return std::nullopt;
  }

  // Money still travelling towards this branch. Read after the threads end.
  Amount QueuedAmount() {
    std::lock_guard lock(mu_);
    Amount sum = 0;
    for (const auto& queue : queues_) {
      for (const Message& m : queue) {
        if (const auto* t = std::get_if<Transfer>(&m)) sum += t->amount;
      }
    }
    return sum;
  }

 private:
  bool AllEmpty() const {
    return std::all_of(queues_.begin(), queues_.end(),
                       [](const auto& q) { return q.empty(); });
  }

  std::mutex mu_;
  std::condition_variable arrived_;
  std::vector<std::deque<Message>> queues_;  // by ChannelIndex
  ChannelIndex last_ = 0;
};

// One branch: its balance, its agent, and the loop its thread runs. Only the
// branch's own thread touches balance and agent until the threads are joined.
class Branch {
 public:
  Branch(int id, std::vector<Inbox>& inboxes)
      : id_(id), inboxes_(inboxes), rng_(static_cast<unsigned>(id) + 1) {}

  // Sends its transfers, taking at most one arrival after each, so that
  // messages pile up in the queues and some are in flight when the markers
  // come. Then it keeps receiving until it has its part of the snapshot.
  void Run() {
    for (int sent = 0; sent < kTransfersPerBranch; ++sent) {
      if (id_ == 0 && sent == kTransfersPerBranch / 2) StartSnapshot();
      SendTransfer();
      if (auto in = inboxes_[id_].Pop(/*wait=*/false)) Receive(*in);
    }
    while (!agent_.PartDone(kSnapshot) && !failed_) {
      Receive(*inboxes_[id_].Pop(/*wait=*/true));
    }
  }

  Amount balance() const { return balance_; }
  const Agent& agent() const { return agent_; }
  bool failed() const { return failed_; }

 private:
  void StartSnapshot() {
    const cutline::Step step = agent_.Start(kSnapshot, balance_);
    Obey(step, kSnapshot);
  }

  void SendTransfer() {
    if (balance_ == 0) return;
    std::uniform_int_distribution<int> pick(0, kBranches - 2);
    int to = pick(rng_);
    if (to >= id_) ++to;  // anyone but itself
    std::uniform_int_distribution<Amount> amount(
        1, std::min<Amount>(balance_, 10));
    const Amount a = amount(rng_);
    balance_ -= a;
    Send(to, Transfer{a});
  }

  void Receive(const std::pair<ChannelIndex, Message>& in) {
    const auto& [c, m] = in;
    if (const auto* t = std::get_if<Transfer>(&m)) {
      // The agent sees every arrival: on a channel a snapshot is still
      // recording, the amount is part of that channel's recorded state (the
      // recorded balance was taken before it came).
      agent_.OnMessage(c, t->amount);
      balance_ += t->amount;
    } else {
      const SnapshotId id = std::get<Marker>(m).snapshot;
      Obey(agent_.OnMarker(id, c, balance_), id);
    }
  }

  // The Step's first duty comes before anything else this branch sends.
  void Obey(const cutline::Step& step, SnapshotId id) {
    if (!step.ok()) {
      std::cerr << Name(id_) << ": the agent refused an input (error "
                << static_cast<int>(step.error) << ")\n";
      failed_ = true;
      return;
    }
    if (step.record_state) {
      for (int to = 0; to < kBranches; ++to) {
        if (to != id_) Send(to, Marker{id});
      }
    }
  }

  void Send(int to, Message m) { inboxes_[to].Push(InIndex(to, id_), m); }

  const int id_;
  std::vector<Inbox>& inboxes_;
  std::mt19937 rng_;
  Amount balance_ = kOpeningBalance;
  Agent agent_{kBranches - 1, kBranches - 1};
  bool failed_ = false;
};

}  // namespace

int main() {
  std::vector<Inbox> inboxes(kBranches);
  std::vector<Branch> branches;
  for (int b = 0; b < kBranches; ++b) branches.emplace_back(b, inboxes);
  {
    // Released together, so that the branches really run side by side.
    std::latch start(kBranches);
    std::vector<std::jthread> threads;
    for (Branch& b : branches) {
      threads.emplace_back([&b, &start] {
        start.arrive_and_wait();
        b.Run();
      });
    }
  }

  bool ok = true;
  std::cout << "snapshot " << kSnapshot << ", started by " << Name(0) << "\n"
            << "recorded balances:\n";
  Amount recorded_balances = 0;
  Amount recorded_in_flight = 0;
  for (int b = 0; b < kBranches; ++b) {
    ok = ok && !branches[b].failed();
    const Agent::Recorded* r = branches[b].agent().Find(kSnapshot);
    if (r == nullptr || !branches[b].agent().PartDone(kSnapshot)) {
      std::cout << "  " << Name(b) << " did not finish its part\n";
      ok = false;
      continue;
    }
    std::cout << "  " << Name(b) << " $" << r->state << "\n";
    recorded_balances += r->state;
  }
  std::cout << "recorded channels:\n";
  for (int to = 0; to < kBranches; ++to) {
    const Agent& agent = branches[to].agent();
    for (ChannelIndex c = 0; c < kBranches - 1; ++c) {
      std::cout << "  " << Name(Sender(to, c)) << "->" << Name(to) << ":";
      if (agent.Channel(kSnapshot, c) != cutline::ChannelRecording::kClosed) {
        std::cout << " not closed";
        ok = false;
      }
      const std::vector<Amount> amounts = agent.ChannelMessages(kSnapshot, c);
      if (amounts.empty()) std::cout << " empty";
      for (Amount a : amounts) {
        std::cout << " $" << a;
        recorded_in_flight += a;
      }
      std::cout << "\n";
    }
  }
  const Amount recorded = recorded_balances + recorded_in_flight;
  std::cout << "recorded total: $" << recorded << " (balances $"
            << recorded_balances << " + in flight $" << recorded_in_flight
            << ")\n";

  // The live bank must still hold the same money too: what the branches have
  // now plus the transfers sent after their receivers stopped listening.
  Amount now = 0;
  for (int b = 0; b < kBranches; ++b) {
    now += branches[b].balance() + inboxes[b].QueuedAmount();
  }
  std::cout << "bank total: $" << kBankTotal << ", held now: $" << now << "\n";

  ok = ok && recorded == kBankTotal && now == kBankTotal;
  std::cout << (ok ? "conserved\n" : "NOT conserved\n");
  return ok ? 0 : 1;
}
