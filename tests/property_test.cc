// Randomized runs of the bank (rapidcheck), each judged by the independent
// consistency checker: every snapshot started completes, conserves money,
// is a consistent cut with exact channel states, and sent one marker per
// channel. A failure prints the run as a scenario (ready to become a golden
// file), the seed, and the command that replays it.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "engine/engine.h"
#include "engine/cuts.h"
#include "check/consistency_checker.h"
#include "check/cut.h"
#include "engine/invariants.h"
#include "engine/property.h"
#include "scenario/analysis.h"
#include "scenario/run_record.h"
#include "test_share.h"

namespace cutline {
namespace {

using cutline::Amount;
using engine::Engine;
using sim::ChannelId;
using sim::NodeId;

// How many random runs each property makes at its full count (below, each
// property names its own), unless RC_PARAMS sets max_success; the bank's
// three make 15,000 together (at least 10,000 wanted).
constexpr int kRunsPerTopology = 6000;
constexpr int kRunsCorrupted = 3000;

// ---------------------------------------------------------------------------
// Running a property with our own run count and replay instructions.

bool MaxSuccessGiven() {
  const char* params = std::getenv("RC_PARAMS");
  return params != nullptr &&
         std::string(params).find("max_success") != std::string::npos;
}

// Each property's number of cases is sized per build by the share of its
// full count (test_share.h); the properties stay the same. Never fewer than
// 50 cases.
using test_support::PropertyShare;

int PropertyRuns(int full) {
  if (MaxSuccessGiven()) return full;  // RC_PARAMS decides (CheckProperty)
  return std::max(50, static_cast<int>(static_cast<long long>(full) * PropertyShare() / 100));
}

// Like RC_GTEST_PROP, but with `runs` cases by default (sized by
// PropertyRuns), and on failure the
// exact command that replays the minimal failing case of this property.
// (rapidcheck itself prints the reproduce string only at exit, without the
// program to run it with.)
// `batch` > 0 draws another batch of cases (the seed moved on by `batch`), for
// a test that must see a rare case at least once.
template <class Property>
void CheckProperty(int runs, Property property, std::uint64_t batch = 0) {
  const ::testing::TestInfo* info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string filter =
      fmt::format("{}.{}", info->test_suite_name(), info->name());
  rc::detail::TestMetadata metadata;
  metadata.id = fmt::format("{}/{}", info->test_suite_name(), info->name());
  metadata.description = info->name();
  // Loading the configuration prints "Using configuration: seed=..." first.
  const rc::detail::Configuration& config = rc::detail::configuration();
  rc::detail::TestParams params = config.testParams;
  if (!MaxSuccessGiven()) {
    params.maxSuccess = PropertyRuns(runs);
    std::cout << params.maxSuccess << " cases (" << PropertyShare() << " % of " << runs
              << ", CUTLINE_PROPERTY_SHARE)\n";
  }
  params.seed += batch;

  const rc::detail::TestResult result =
      rc::detail::checkTestable(std::move(property), metadata, params);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);

  rc::detail::FailureResult failure;
  rc::detail::SuccessResult success;
  if (result.match(failure)) {
    rc::detail::Configuration replay;
    replay.testParams.seed = params.seed;  // informative only
    replay.reproduce[metadata.id] = failure.reproduce;
    FAIL() << message.str()
           << "\n\nSeed of this run: " << params.seed
           << "\nReplay the minimal failing case with:\n  RC_PARAMS=\""
           << rc::detail::configToMinimalString(replay) << "\" "
           << CUTLINE_PROPERTY_TEST_BINARY << " --gtest_filter=" << filter
           << "\nRerun the whole property with:\n  RC_PARAMS=\"seed="
           << params.seed << " max_success=" << params.maxSuccess
           << "\" " << CUTLINE_PROPERTY_TEST_BINARY
           << " --gtest_filter=" << filter << "\n";
  } else if (result.match(success)) {
    std::cout << message.str() << "\n";
    if (!config.reproduce.empty() && success.numSuccess == 0) {
      std::cout << "(reproduce mode: this property was not the one "
                   "reproduced)\n";
    }
  } else {
    FAIL() << message.str();  // gave up, or the property threw
  }
}

// ---------------------------------------------------------------------------
// The random run.

struct NetSpec {
  std::uint32_t nodes = 2;
  std::vector<Amount> balances;
  // nullopt: complete graph. Otherwise a random Hamiltonian cycle plus
  // random extra edges: strongly connected, so every snapshot completes.
  std::optional<std::vector<sim::Link>> links;
  std::uint32_t capacity = 0;
  bool one_at_a_time = false;
  algorithms::Algorithm algorithm = algorithms::Algorithm::kChandyLamport;
  bool fifo = true;
  apps::App app = apps::App::kBank;
};

// The branches, their balances and the channels' capacity (drawn in this
// order, so that a seed replays the same case).
NetSpec GenBranches() {
  NetSpec spec;
  spec.nodes = *rc::gen::inRange<std::uint32_t>(2, 9);
  spec.balances = *rc::gen::container<std::vector<Amount>>(
      spec.nodes, rc::gen::inRange<Amount>(0, 1001));
  spec.capacity = *rc::gen::weightedElement<std::uint32_t>(
      {{3, 0}, {1, 1}, {1, 2}, {1, 3}});
  return spec;
}

// The nodes 0..n-1 in a random order.
std::vector<NodeId> GenOrder(std::uint32_t n) {
  std::vector<std::uint32_t> keys =
      *rc::gen::container<std::vector<std::uint32_t>>(
          n, rc::gen::arbitrary<std::uint32_t>());
  std::vector<NodeId> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](NodeId a, NodeId b) { return keys[a] < keys[b]; });
  return order;
}

NetSpec GenNetwork(bool complete) {
  NetSpec spec = GenBranches();
  spec.one_at_a_time = *rc::gen::arbitrary<bool>();
  if (complete) return spec;

  const std::uint32_t n = spec.nodes;
  const std::vector<NodeId> order = GenOrder(n);
  std::set<sim::Link> links;
  for (std::uint32_t i = 0; i < n; ++i) {
    links.emplace(order[i], order[(i + 1) % n]);
  }
  const int density = *rc::gen::inRange(0, 101);
  std::vector<int> draws = *rc::gen::container<std::vector<int>>(
      n * (n - 1), rc::gen::inRange(0, 100));
  std::size_t k = 0;
  for (NodeId a = 0; a < n; ++a) {
    for (NodeId b = 0; b < n; ++b) {
      if (a != b && draws[k++] < density) links.emplace(a, b);
    }
  }
  spec.links.emplace(links.begin(), links.end());
  return spec;
}

// A network for one of the variants. Aligned barriers get a random acyclic
// network (edges only from earlier to later in a random order, so it has a
// source); the others a complete or strongly connected one.
NetSpec GenVariantNetwork(algorithms::Algorithm algorithm, bool fifo) {
  NetSpec spec;
  if (algorithm != algorithms::Algorithm::kAligned) {
    spec = GenNetwork(*rc::gen::arbitrary<bool>());
  } else {
    spec = GenBranches();
    const std::uint32_t n = spec.nodes;
    const std::vector<NodeId> order = GenOrder(n);
    const int density = *rc::gen::inRange(0, 101);
    std::vector<int> draws = *rc::gen::container<std::vector<int>>(
        n * (n - 1) / 2, rc::gen::inRange(0, 100));
    std::set<sim::Link> links;
    std::size_t k = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::uint32_t j = i + 1; j < n; ++j) {
        if (draws[k++] < density) links.emplace(order[i], order[j]);
      }
    }
    spec.links.emplace(links.begin(), links.end());
  }
  spec.algorithm = algorithm;
  spec.fifo = fifo;
  // The variants run one snapshot at a time.
  if (algorithm != algorithms::Algorithm::kChandyLamport) spec.one_at_a_time = true;
  return spec;
}

enum class OpKind : std::uint8_t {
  kTransfer,
  kDeliver,
  kDeliverNext,
  kRead,
  kSnapshot,
  kJoin,
  kStopTheWorld,
};

// An abstract step: its numbers pick among the choices that are valid at
// the moment it runs, so every op sequence is a valid run and shrinking
// (dropping ops) keeps it valid.
struct Op {
  OpKind kind = OpKind::kTransfer;
  std::uint32_t a = 0;
  std::uint32_t b = 0;
  std::uint32_t c = 0;
};

std::ostream& operator<<(std::ostream& os, const Op& op) {
  return os << "Op{" << static_cast<int>(op.kind) << ", " << op.a << ", "
            << op.b << ", " << op.c << "}";
}

// `stop`: also stop-the-world now and then (the variants' properties);
// `reads`: the weight of the naive reader's reads.
rc::Gen<Op> GenOp(bool stop = false, unsigned reads = 1) {
  return rc::gen::build<Op>(
      rc::gen::set(&Op::kind, rc::gen::weightedElement<OpKind>({
                                  {8, OpKind::kTransfer},
                                  {6, OpKind::kDeliver},
                                  {3, OpKind::kDeliverNext},
                                  {reads, OpKind::kRead},
                                  {3, OpKind::kSnapshot},
                                  {1, OpKind::kJoin},
                                  {stop ? 1u : 0u, OpKind::kStopTheWorld},
                              })),
      rc::gen::set(&Op::a, rc::gen::arbitrary<std::uint32_t>()),
      rc::gen::set(&Op::b, rc::gen::arbitrary<std::uint32_t>()),
      rc::gen::set(&Op::c, rc::gen::arbitrary<std::uint32_t>()));
}

// Fails the case (by throwing) with the run so far, written in the scenario
// language.
void Fail(const std::string& what, const std::string& script) {
  RC_FAIL(fmt::format("{}\nThe run as a scenario:\n{}", what, script));
}

// Drives a bank with abstract ops and keeps the equivalent scenario text.
class Driver {
 public:
  explicit Driver(const NetSpec& spec) : spec_(spec) {
    engine::Config config{.app = spec.app};
    std::string line = "network";
    for (NodeId n = 0; n < spec.nodes; ++n) {
      config.branches.push_back({Name(n), spec.balances[n]});
      line += fmt::format(" {}={}", Name(n), spec.balances[n]);
    }
    if (spec.links) {
      config.links.emplace();
      std::string list;
      for (const auto& [a, b] : *spec.links) {
        config.links->emplace_back(Name(a), Name(b));
        list +=
            fmt::format("{}{}>{}", list.empty() ? "" : ",", Name(a), Name(b));
      }
      line += " links=" + list;
    }
    if (spec.capacity > 0) line += fmt::format(" capacity={}", spec.capacity);
    if (spec.one_at_a_time) line += " snapshots=one";
    if (!spec.fifo) line += " fifo=no";
    if (spec.algorithm != algorithms::Algorithm::kChandyLamport) {
      line += fmt::format(" algorithm={}", engine::AlgorithmName(spec.algorithm));
    }
    if (!spec.app.conserved()) line += fmt::format(" app={}", spec.app.name());
    config.capacity_transfers = spec.capacity;
    config.one_snapshot_at_a_time = spec.one_at_a_time;
    config.fifo = spec.fifo;
    config.algorithm = spec.algorithm;
    Line(line);
    std::optional<Engine> bank;
    Status s = Engine::Create(config, &bank);
    if (!s.ok()) Fail("Create failed: " + std::string(CodeName(s.code())), script_);
    bank_.emplace(std::move(*bank));
  }

  static std::string Name(NodeId n) { return fmt::format("P{}", n + 1); }

  void Apply(const Op& op) {
    switch (op.kind) {
      case OpKind::kTransfer:
        Transfer(op);
        break;
      case OpKind::kDeliver: {
        std::vector<ChannelId> busy;
        for (ChannelId c = 0; c < net().channel_count(); ++c) {
          if (!net().Empty(c) && !net().Held(c)) busy.push_back(c);
        }
        if (busy.empty()) return;
        ChannelId c = busy[op.a % busy.size()];
        const sim::ChannelInfo& ch = net().channel(c);
        // On channels that reorder, any waiting message.
        std::uint32_t at = spec_.fifo ? 1 : 1 + op.b % net().Size(c);
        Do(bank_->Deliver(ch.from, ch.to, at),
           fmt::format("deliver {} {}{}", Name(ch.from), Name(ch.to),
                       at == 1 ? "" : fmt::format(" at={}", at)));
        break;
      }
      case OpKind::kDeliverNext:
        if (net().CanDeliverNext()) Do(bank_->DeliverNext(), "deliver");
        break;
      case OpKind::kStopTheWorld:
        if (bank_->Running() == nullptr) {
          Do(bank_->StopTheWorld(), "stop-the-world");
        }
        break;
      case OpKind::kRead: {
        NodeId n = op.a % spec_.nodes;
        Do(bank_->Read(n), "read " + Name(n));
        break;
      }
      case OpKind::kSnapshot:
        // Under snapshots=one a second snapshot may not start: join instead.
        if (!spec_.one_at_a_time || bank_->Running() == nullptr) {
          std::vector<NodeId> starters = Starters();
          NodeId n = starters[op.a % starters.size()];
          Do(bank_->StartSnapshot(n, std::nullopt), "snapshot " + Name(n));
          break;
        }
        [[fallthrough]];
      case OpKind::kJoin:
        Join(op);
        break;
    }
    CheckInvariants();
  }

  void StartSnapshotIfNone() {
    if (bank_->snapshots().empty()) {
      NodeId n = Starters().front();
      Do(bank_->StartSnapshot(n, std::nullopt), "snapshot " + Name(n));
    }
  }

  void Drain() {
    Do(bank_->Drain(), "drain");
    CheckInvariants();
    // Aligned: a branch downstream of a source that never started cannot
    // align; every source joins, and then the snapshot can finish.
    if (spec_.algorithm == algorithms::Algorithm::kAligned && bank_->Running()) {
      SnapshotId id = bank_->Running()->id;
      for (NodeId n : Starters()) {
        if (!bank_->HasRecorded(n, id)) {
          Do(bank_->StartSnapshot(n, id),
             fmt::format("snapshot {} id={}", Name(n), id));
        }
      }
      Do(bank_->Drain(), "drain");
      CheckInvariants();
    }
  }

  const Engine& bank() const { return *bank_; }
  const std::string& script() const { return script_; }

 private:
  const engine::Network& net() const { return bank_->network(); }
  void Line(const std::string& line) { script_ += line + "\n"; }

  void Do(const Status& s, const std::string& line) {
    Line(line);
    if (!s.ok()) Fail("a valid command was rejected: " + std::string(CodeName(s.code())),
                    script_);
  }

  // Another application's command in place of a transfer: one of its
  // commands on branches drawn by the op. A refusal (a grant nobody asked
  // for) changes nothing and is left out of the script.
  void AppStep(const Op& op) {
    const auto commands = spec_.app.definition().commands;
    const apps::AppCommand& command = commands[op.c % commands.size()];
    std::vector<NodeId> nodes{static_cast<NodeId>(op.a % spec_.nodes)};
    if (command.names == 2) {
      auto out = net().Outgoing(nodes[0]);
      if (out.empty()) return;
      nodes.push_back(net().channel(out[op.b % out.size()]).to);
    }
    std::string line(command.verb);
    for (NodeId n : nodes) line += " " + Name(n);
    if (command.run(*bank_, nodes).ok()) Line(line);
  }

  void Transfer(const Op& op) {
    if (!spec_.app.conserved()) {
      AppStep(op);
      return;
    }
    // Senders with money and an outgoing channel with room.
    std::vector<std::pair<NodeId, std::vector<ChannelId>>> senders;
    for (NodeId n = 0; n < spec_.nodes; ++n) {
      if (bank_->state(n) <= 0) continue;
      std::vector<ChannelId> open;
      for (ChannelId c : net().Outgoing(n)) {
        if (!net().Full(c)) open.push_back(c);
      }
      if (!open.empty()) senders.emplace_back(n, std::move(open));
    }
    if (senders.empty()) return;
    const auto& [from, open] = senders[op.a % senders.size()];
    NodeId to = net().channel(open[op.b % open.size()]).to;
    Amount amount = 1 + static_cast<Amount>(op.c % bank_->state(from));
    Do(bank_->Transfer(from, to, amount),
       fmt::format("transfer {} {} {}", Name(from), Name(to), amount));
  }

  // Who may start a snapshot: everyone, or under aligned barriers the
  // sources (an acyclic network has at least one).
  std::vector<NodeId> Starters() const {
    std::vector<NodeId> out;
    for (NodeId n = 0; n < spec_.nodes; ++n) {
      if (spec_.algorithm != algorithms::Algorithm::kAligned ||
          net().Incoming(n).empty()) {
        out.push_back(n);
      }
    }
    return out;
  }

  void Join(const Op& op) {
    // (snapshot, branch) pairs where the branch may still join.
    std::vector<std::pair<SnapshotId, NodeId>> joins;
    for (const engine::SnapshotInfo& s : bank_->snapshots()) {
      if (s.complete) continue;
      for (NodeId n : Starters()) {
        if (!bank_->HasRecorded(n, s.id)) joins.emplace_back(s.id, n);
      }
    }
    if (joins.empty()) return;
    const auto& [id, n] = joins[op.a % joins.size()];
    Do(bank_->StartSnapshot(n, id),
       fmt::format("snapshot {} id={}", Name(n), id));
  }

  // Money, queues and snapshot bookkeeping hold at every step, not only
  // at the end.
  void CheckInvariants() {
    std::vector<std::string> broken = invariants_.CheckInvariants(*bank_);
    if (broken.empty()) return;
    std::string text;
    for (const std::string& b : broken) text += b + "\n";
    Fail("an invariant broke:\n" + text, script_);
  }

  NetSpec spec_;
  std::optional<Engine> bank_;
  engine::Invariants invariants_;
  std::string script_;
};

// One random run, drained. `force_snapshot`: make sure there is one.
Driver RandomRun(const NetSpec& spec, bool force_snapshot, bool stop = false,
                 unsigned reads = 1) {
  // Up to 3 * size ops (size grows to 100): long enough for several
  // snapshots to overlap with traffic and with each other.
  std::vector<Op> ops =
      *rc::gen::scale(3.0, rc::gen::container<std::vector<Op>>(GenOp(stop, reads)));
  Driver driver(spec);
  for (const Op& op : ops) driver.Apply(op);
  if (force_snapshot) driver.StartSnapshotIfNone();
  driver.Drain();
  return driver;
}

Driver RandomRun(bool complete, bool force_snapshot) {
  return RandomRun(GenNetwork(complete), force_snapshot);
}

void CheckCompleteRun(const Driver& driver) {
  const Engine& bank = driver.bank();
  const std::string& script = driver.script();
  if (bank.network().AnyInFlight()) Fail("drain left messages", script);
  bool money_in_channels = false;
  const engine::Replay replay = engine::Replay::Of(bank);
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    if (!s.complete) {
      Fail(fmt::format("snapshot {} did not complete", s.id), script);
    }
    // Its total and marker count were checked by the invariants after
    // every step; complete, they cover the whole network.
    for (ChannelId c = 0; c < bank.network().channel_count(); ++c) {
      money_in_channels |= !bank.RecordedChannel(s.id, c).transfers.empty();
    }
    // What the page draws: no message crosses the snapshot's cut backwards
    // (under aligned barriers the barriers a branch waited for are the
    // cut's edge, so only transfers count).
    auto backward = engine::BackwardAcross(bank, replay,
                                         engine::SnapshotCut(bank, replay, s.id));
    if (bank.algorithm() == algorithms::Algorithm::kAligned) {
      std::erase_if(backward, [](const auto& m) { return !m.is_transfer(); });
    }
    if (!backward.empty()) {
      Fail(fmt::format("snapshot {}: message #{} crosses its cut backwards", s.id,
                       backward.front().seq),
           script);
    }
  }
  check::CheckReport report = scenario::CheckSnapshots(bank);
  if (!report.ok()) {
    std::string problems;
    for (const std::string& p : report.problems) problems += p + "\n";
    Fail("the consistency checker found:\n" + problems, script);
  }
  if (report.snapshots_checked != static_cast<int>(bank.snapshots().size())) {
    Fail(fmt::format("checked {} of {} snapshots", report.snapshots_checked,
                     bank.snapshots().size()),
         script);
  }
  // Shown after the run, so that one can see the runs are not vacuous.
  RC_TAG(bank.snapshots().empty()       ? "no snapshot"
         : bank.snapshots().size() == 1 ? "1 snapshot"
                                        : "several snapshots",
         money_in_channels ? "money in a recorded channel"
                           : "no money in recorded channels");
}

TEST(PropertyTest, CompleteGraphSnapshotsAreConsistent) {
  CheckProperty(kRunsPerTopology, [] {
    CheckCompleteRun(RandomRun(/*complete=*/true, /*force_snapshot=*/false));
  });
}

TEST(PropertyTest, StronglyConnectedLinksSnapshotsAreConsistent) {
  CheckProperty(kRunsPerTopology, [] {
    CheckCompleteRun(RandomRun(/*complete=*/false, /*force_snapshot=*/false));
  });
}

// The checker is only worth something if it fails on wrong claims: corrupt
// one claimed channel state, recorded balance, record event or marker count
// of an honest run, and it must say so.
TEST(PropertyTest, CheckerCatchesACorruptedClaim) {
  CheckProperty(kRunsCorrupted, [] {
    const bool complete = *rc::gen::arbitrary<bool>();
    Driver driver = RandomRun(complete, /*force_snapshot=*/true);
    const Engine& bank = driver.bank();
    check::RunRecord run = scenario::RunOf(bank);
    std::vector<history::Event> events(run.events.begin(), run.events.end());
    RC_PRE(!run.claims.empty());
    check::SnapshotClaim& claim =
        run.claims[*rc::gen::inRange<std::size_t>(0, run.claims.size())];
    const Amount delta = *rc::gen::element<Amount>(-50, -1, 1, 50);
    std::string what;
    switch (*rc::gen::inRange(0, 5)) {
      case 0: {  // a channel state: drop, change, reorder or add a transfer
        ChannelId c = *rc::gen::inRange<ChannelId>(
            0, static_cast<ChannelId>(claim.channels.size()));
        std::vector<Amount>& t = claim.channels[c].transfers;
        auto distinct =
            std::adjacent_find(t.begin(), t.end(), std::not_equal_to<Amount>());
        if (t.empty()) {
          t.push_back(std::abs(delta));
          what = "added a transfer";
        } else if (distinct != t.end() && *rc::gen::arbitrary<bool>()) {
          std::iter_swap(distinct, distinct + 1);
          what = "swapped two transfers";  // the total is still right
        } else if (*rc::gen::arbitrary<bool>()) {
          t.erase(t.begin() + *rc::gen::inRange<std::size_t>(0, t.size()));
          what = "dropped a transfer";
        } else {
          t[*rc::gen::inRange<std::size_t>(0, t.size())] += delta;
          what = "changed a transfer";
        }
        break;
      }
      case 1: {  // a claimed recorded balance
        NodeId n = *rc::gen::inRange<NodeId>(0, bank.branch_count());
        *claim.balances[n] += delta;
        what = "changed a claimed balance";
        break;
      }
      case 2: {  // the cause written in a record event of the history
        std::vector<history::Recorded*> records;
        for (history::Event& e : events) {
          auto* r = std::get_if<history::Recorded>(&e);
          if (r != nullptr && r->snapshot == claim.id) records.push_back(r);
        }
        history::Recorded& r =
            *records[*rc::gen::inRange<std::size_t>(0, records.size())];
        // A marker's effect said to be a start leaves the marker inside the
        // cut; a start said to be a marker's effect names a marker that was
        // not the branch's last receipt of that snapshot.
        r.cause = r.cause.by_marker() ? history::Cause::Start()
                                      : history::Cause::ByMarker(1);
        what = "changed the cause of a record event";
        break;
      }
      case 3:
        if (delta > 0) {
          ++claim.markers_sent;
        } else {
          --claim.markers_sent;
        }
        what = "changed the marker count";
        break;
      case 4: {
        ChannelId c = *rc::gen::inRange<ChannelId>(
            0, static_cast<ChannelId>(claim.channels.size()));
        claim.channels[c].state = *rc::gen::element(
            ChannelRecording::kNotRecorded, ChannelRecording::kRecording);
        what = "reopened a channel";
        break;
      }
    }
    run.events = events;
    if (check::CheckRun(run).ok()) {
      Fail(fmt::format("the checker accepted snapshot {} after the test {}",
                       claim.id, what),
           driver.script());
    }
  });
}

// ---------------------------------------------------------------------------
// The variants (docs/scenario-language.md, "the variants").

constexpr int kRunsPerVariant = 2000;

// For every complete snapshot, the verdict accounts for its total exactly:
// recorded balances + channel states = the bank's total + what it counts
// twice (backward, extra) - what it loses (missed, unrecorded). Returns how many
// snapshots were inconsistent.
int CheckVerdicts(const Driver& driver, const check::CheckReport& report) {
  const Engine& bank = driver.bank();
  const engine::Replay replay = engine::Replay::Of(bank);
  auto sum = [&](const std::vector<sim::Seq>& seqs) {
    Amount total = 0;
    for (sim::Seq q : seqs) total += replay.Find(q)->amount();
    return total;
  };
  int inconsistent = 0;
  for (const check::SnapshotVerdict& v : report.verdicts) {
    Amount expected =
        bank.total() + sum(v.backward) + sum(v.extra) - sum(v.missed) - sum(v.unrecorded);
    if (bank.SnapshotTotal(v.id) != expected) {
      Fail(fmt::format("snapshot {} adds up to {}, but its verdict accounts "
                       "for {}",
                       v.id, bank.SnapshotTotal(v.id), expected),
           driver.script());
    }
    if (!v.consistent()) ++inconsistent;
  }
  return inconsistent;
}

// A variant's runs: every complete snapshot consistent, its total the
// bank's, the checker content, and every started snapshot complete after
// drain.
void CheckVariant(algorithms::Algorithm algorithm, bool fifo) {
  CheckProperty(kRunsPerVariant, [=] {
    Driver driver = RandomRun(GenVariantNetwork(algorithm, fifo),
                              /*force_snapshot=*/false, /*stop=*/true);
    CheckCompleteRun(driver);
    check::CheckReport report = scenario::CheckSnapshots(driver.bank());
    if (CheckVerdicts(driver, report) != 0) {
      Fail("a snapshot is inconsistent", driver.script());
    }
  });
}

TEST(PropertyTest, LaiYangOverNonFifoSchedules) {
  CheckVariant(algorithms::Algorithm::kLaiYang, /*fifo=*/false);
}

TEST(PropertyTest, AlignedBarriersOverAcyclicNetworks) {
  CheckVariant(algorithms::Algorithm::kAligned, /*fifo=*/true);
}

TEST(PropertyTest, UnalignedBarriersOverFifoSchedules) {
  CheckVariant(algorithms::Algorithm::kUnaligned, /*fifo=*/true);
}

TEST(PropertyTest, ChandyLamportOverFifoSchedulesWithStops) {
  CheckVariant(algorithms::Algorithm::kChandyLamport, /*fifo=*/true);
}

// The other direction, on a real algorithm rather than a corrupted claim:
// Chandy-Lamport over channels that reorder takes wrong snapshots, and the
// checker catches every one (its verdict accounts for the wrong total, and
// it reports a problem). Some runs must be wrong, or this shows nothing.
TEST(PropertyTest, ChandyLamportOverNonFifoIsCaught) {
  int wrong_runs = 0;
  CheckProperty(kRunsPerVariant, [&] {
    Driver driver = RandomRun(
        GenVariantNetwork(algorithms::Algorithm::kChandyLamport, /*fifo=*/false),
        /*force_snapshot=*/true);
    const Engine& bank = driver.bank();
    if (bank.network().AnyInFlight()) Fail("drain left messages", driver.script());
    for (const engine::SnapshotInfo& s : bank.snapshots()) {
      if (!s.complete) {
        Fail(fmt::format("snapshot {} did not complete", s.id), driver.script());
      }
    }
    check::CheckReport report = scenario::CheckSnapshots(bank);
    int inconsistent = CheckVerdicts(driver, report);
    if (inconsistent > 0 && report.ok()) {
      Fail("inconsistent snapshots, but the checker reported no problem",
           driver.script());
    }
    for (const engine::SnapshotInfo& s : bank.snapshots()) {
      if (bank.SnapshotTotal(s.id) != bank.total() && report.ok()) {
        Fail(fmt::format("snapshot {} adds up to {}, and the checker said "
                         "nothing",
                         s.id, bank.SnapshotTotal(s.id)),
             driver.script());
      }
    }
    if (inconsistent > 0) ++wrong_runs;
    RC_TAG(inconsistent > 0 ? "an inconsistent snapshot" : "all consistent");
  });
  EXPECT_GT(wrong_runs, 0) << "no run took a wrong snapshot: the property "
                              "showed nothing";
}

// A rule broken on purpose, against the correct algorithm on the very same
// ops: the checker flags the broken one in some runs, its verdict accounts
// for every wrong total, and it never flags Chandy-Lamport. The checker's
// power, shown on real wrong algorithms (docs/design.md, "Broken on
// purpose"); one test per broken rule below.
void ExpectBrokenRuleCaught(std::string_view name) {
  const std::optional<algorithms::Algorithm> broken = algorithms::Algorithm::Find(name);
  ASSERT_TRUE(broken.has_value()) << name;
  ASSERT_TRUE(broken->traits().broken_on_purpose) << name;
  int caught = 0;
  CheckProperty(kRunsPerVariant, [&] {
    const NetSpec spec =
        GenVariantNetwork(algorithms::Algorithm::kChandyLamport, /*fifo=*/true);
    const std::vector<Op> ops =
        *rc::gen::scale(3.0, rc::gen::container<std::vector<Op>>(GenOp()));
    auto run = [&](algorithms::Algorithm algorithm) {
      NetSpec under = spec;
      under.algorithm = algorithm;
      Driver driver(under);
      for (const Op& op : ops) driver.Apply(op);
      driver.StartSnapshotIfNone();
      driver.Drain();
      return driver;
    };
    Driver right = run(algorithms::Algorithm::kChandyLamport);
    check::CheckReport right_report = scenario::CheckSnapshots(right.bank());
    if (CheckVerdicts(right, right_report) != 0 || !right_report.ok()) {
      Fail("the correct algorithm was flagged", right.script());
    }
    // What the broken rule gets wrong (a channel's recorded state, or the
    // cut itself) is named by the verdict; a wrong total is never silent.
    Driver wrong = run(*broken);
    check::CheckReport report = scenario::CheckSnapshots(wrong.bank());
    const int flawed = CheckVerdicts(wrong, report);
    if (flawed > 0 && report.ok()) {
      Fail("a flawed snapshot, but the checker reported no problem", wrong.script());
    }
    for (const engine::SnapshotInfo& s : wrong.bank().snapshots()) {
      if (s.complete && wrong.bank().SnapshotTotal(s.id) != wrong.bank().total() &&
          report.ok()) {
        Fail(fmt::format("snapshot {} adds up to {}, and the checker said nothing", s.id,
                         wrong.bank().SnapshotTotal(s.id)),
             wrong.script());
      }
    }
    if (!report.ok()) ++caught;
    RC_TAG(report.ok() ? "nothing wrong this time" : "caught");
  });
  EXPECT_GT(caught, 0) << "no run of " << name
                       << " went wrong: the property showed nothing";
}

// A receiver never records one incoming channel.
TEST(PropertyTest, ABrokenRuleIsCaughtAndTheCorrectOneNever) {
  ExpectBrokenRuleCaught("broken-unrecorded-channel");
}
// Markers sent after the branch's next transfer.
TEST(PropertyTest, LateMarkersAreCaughtAndTheCorrectRuleNever) {
  ExpectBrokenRuleCaught("broken-late-markers");
}
// A channel's recording stopped at its first message.
TEST(PropertyTest, RecordingStoppedAtTheFirstMessageIsCaughtAndTheCorrectRuleNever) {
  ExpectBrokenRuleCaught("broken-stop-at-first");
}

// ---------------------------------------------------------------------------
// The applications beside the bank (docs/scenario-language.md, "app="): jobs
// that finish, locks that deadlock. Termination and deadlock are stable, so
// a snapshot can be trusted with them and the naive detector cannot.

constexpr int kRunsPerApp = 2000;

// Every app x algorithm run: the checker content (cut, channel states, and
// each declared property equal to the property replayed at the cut); no
// snapshot declares the property before it held; every snapshot that
// started recording after it held declares it; the naive detector's
// judgement agrees with a walk of the history. Some runs must catch the
// naive detector wrong, where the network has cycles to be wrong along.
void CheckApp(apps::App app, algorithms::Algorithm algorithm, bool fifo) {
  int naive_wrong = 0;
  auto one_run = [&] {
    NetSpec spec = GenVariantNetwork(algorithm, fifo);
    spec.app = app;
    // Jobs: a few each (the numbers drawn for balances, cut down); locks:
    // every branch starts active.
    for (Amount& b : spec.balances) b = app == apps::App::kJobs ? b % 3 : 0;
    // Reads as often as transfers: the naive detector must get a chance to
    // be wrong.
    Driver driver = RandomRun(spec, /*force_snapshot=*/true, /*stop=*/true, /*reads=*/8);
    CheckCompleteRun(driver);
    const Engine& bank = driver.bank();
    const auto& events = bank.history().events();

    // When the property first held of the live state (history position).
    std::optional<std::size_t> held;
    engine::Replay replay(bank);
    auto holds_now = [&] { return engine::PropertyOfReplay(bank, replay).holds; };
    if (holds_now()) held = 0;
    for (std::size_t i = 0; i < events.size() && !held; ++i) {
      replay.Apply(events[i]);
      if (holds_now()) held = i + 1;
    }

    check::CheckReport report = scenario::CheckSnapshots(bank);
    for (const check::SnapshotVerdict& v : report.verdicts) {
      std::size_t first = events.size(), last = 0;
      for (std::size_t i = 0; i < events.size(); ++i) {
        if (const auto* r = std::get_if<history::Recorded>(&events[i]); r && r->snapshot == v.id) {
          // A record a delivery caused (Lai-Yang) cuts before that delivery.
          first = std::min(first, r->cause.by_transfer() ? i - 1 : i);
          last = std::max(last, i);
        }
      }
      if (!v.declared) Fail(fmt::format("snapshot {}: no property judged", v.id), driver.script());
      if (v.declared->holds && (!held || *held > last)) {
        Fail(fmt::format("snapshot {} declares {} before it ever held", v.id,
                         app.definition().property),
             driver.script());
      }
      if (held && *held <= first && !v.declared->holds) {
        Fail(fmt::format("snapshot {} started after {} held, and does not declare it", v.id,
                         app.definition().property),
             driver.script());
      }
    }

    // The naive judgement the program shows (the naive panel's).
    const check::NaiveJudgement naive = *scenario::Analyze(bank).naive;
    std::size_t last_read = 0;
    for (const engine::NaiveRead& r : bank.naive_reads()) {
      last_read = std::max(last_read, r.history_index + 1);
    }
    const bool wrong = naive.declared.holds && !(held && *held <= last_read);
    if (!bank.naive_reads().empty() && naive.wrong() != wrong) {
      Fail(fmt::format("the naive judgement says {}, the history walk {}",
                       naive.wrong() ? "wrong" : "right", wrong ? "wrong" : "right"),
           driver.script());
    }
    if (wrong) ++naive_wrong;
    RC_TAG(held ? "the property held" : "it never held",
           wrong ? "the naive detector was wrong" : "the naive detector was not wrong");
  };
  CheckProperty(kRunsPerApp, one_run);
  // Aligned barriers run on acyclic networks, where no wait cycle forms.
  if (app == apps::App::kLocks && algorithm == algorithms::Algorithm::kAligned) return;
  // The naive detector goes wrong in a few runs per thousand under some
  // algorithms: one batch can miss it by chance (1 in 20 for the rarest at
  // the full count), so further batches are drawn, each checked in full,
  // until one catches it. 42,000 cases without a single catch means it is
  // never wrong, whatever the share a batch holds.
  const std::uint64_t batches = (20 * kRunsPerApp + PropertyRuns(kRunsPerApp) - 1) / PropertyRuns(kRunsPerApp);
  for (std::uint64_t batch = 1; naive_wrong == 0 && batch <= batches && !::testing::Test::HasFailure(); ++batch) {
    CheckProperty(kRunsPerApp, one_run, batch);
  }
  EXPECT_GT(naive_wrong, 0) << "the naive detector was never caught in 42,000 runs: the property "
                               "showed nothing";
}

TEST(PropertyTest, JobsUnderChandyLamport) {
  CheckApp(apps::App::kJobs, algorithms::Algorithm::kChandyLamport, /*fifo=*/true);
}
TEST(PropertyTest, JobsUnderLaiYangOverNonFifo) {
  CheckApp(apps::App::kJobs, algorithms::Algorithm::kLaiYang, /*fifo=*/false);
}
TEST(PropertyTest, JobsUnderAlignedBarriers) {
  CheckApp(apps::App::kJobs, algorithms::Algorithm::kAligned, /*fifo=*/true);
}
TEST(PropertyTest, JobsUnderUnalignedBarriers) {
  CheckApp(apps::App::kJobs, algorithms::Algorithm::kUnaligned, /*fifo=*/true);
}
TEST(PropertyTest, LocksUnderChandyLamport) {
  CheckApp(apps::App::kLocks, algorithms::Algorithm::kChandyLamport, /*fifo=*/true);
}
TEST(PropertyTest, LocksUnderLaiYangOverNonFifo) {
  CheckApp(apps::App::kLocks, algorithms::Algorithm::kLaiYang, /*fifo=*/false);
}
TEST(PropertyTest, LocksUnderAlignedBarriers) {
  CheckApp(apps::App::kLocks, algorithms::Algorithm::kAligned, /*fifo=*/true);
}
TEST(PropertyTest, LocksUnderUnalignedBarriers) {
  CheckApp(apps::App::kLocks, algorithms::Algorithm::kUnaligned, /*fifo=*/true);
}

// A cut drawn on a jobs or locks run (check/cut.h). At a moment of the run
// (each branch's point after its message events so far) the cut is that
// moment's state: the replay there, each branch's own steps up to its next
// message event added, and the messages in flight. The property is stable
// along the consistent cuts as along the run: once it holds at a consistent
// cut it holds at every consistent cut as late or later on every line. Cuts
// are taken at moments (consistent by construction, with messages in flight)
// and at random points (mostly inconsistent, which must not matter to the
// rule).
constexpr int kRunsPerDrawnCutApp = 500;

void CheckDrawnCuts(apps::App app) {
  int held_runs = 0;
  CheckProperty(kRunsPerDrawnCutApp, [app, &held_runs] {
    NetSpec spec = GenNetwork(/*complete=*/*rc::gen::arbitrary<bool>());
    spec.app = app;
    for (Amount& b : spec.balances) b = app == apps::App::kJobs ? b % 3 : 0;
    const Driver driver = RandomRun(spec, /*force_snapshot=*/false, /*stop=*/false, /*reads=*/0);
    const Engine& bank = driver.bank();
    const sim::Topology& net = bank.network();
    const check::RunRecord run = scenario::RunOf(bank);
    const std::vector<std::uint32_t> ends = check::MessageEventCounts(run);
    auto judge = [&](const std::vector<std::int64_t>& cut) {
      check::CutJudgement j;
      Status s = check::JudgeCut(run, cut, &j);
      if (!s.ok() || !j.property) Fail("a cut within the lines was not judged", driver.script());
      return j;
    };

    // Moments of the history, about 30 evenly spaced, each against its oracle.
    std::vector<std::vector<std::int64_t>> cuts;
    const auto& events = bank.history().events();
    std::vector<std::int64_t> at(bank.branch_count(), 0);
    engine::Replay replay(bank);
    const std::size_t every = std::max<std::size_t>(1, events.size() / 30);
    for (std::size_t i = 0; i < events.size(); ++i) {
      replay.Apply(events[i]);
      if (check::IsMessageEvent(events[i])) ++at[history::NodeOf(events[i], net)];
      if (i % every != 0 && i + 1 != events.size()) continue;
      cuts.push_back(at);
      std::vector<Amount> states;
      for (NodeId n = 0; n < bank.branch_count(); ++n) states.push_back(replay.balance(n));
      std::vector<bool> next_seen(bank.branch_count(), false);
      for (std::size_t k = i + 1; k < events.size(); ++k) {
        const NodeId n = history::NodeOf(events[k], net);
        if (next_seen[n]) continue;
        if (check::IsMessageEvent(events[k])) next_seen[n] = true;
        else if (std::holds_alternative<history::Local>(events[k])) states[n] = app.AfterLocal(states[n]);
      }
      const check::CutJudgement j = judge(at);
      if (!j.consistent || j.balances != states ||
          j.property != app.Evaluate({&net, states, engine::InFlightWords(net, replay)})) {
        Fail(fmt::format("the cut ({}) is not the state after event {}", fmt::join(at, ", "), i),
             driver.script());
      }
    }
    if (judge(at).property != engine::PropertyNow(bank)) {
      Fail("the cut at the lines' ends is not the state now", driver.script());
    }
    for (int k = 0; k < 30; ++k) {
      std::vector<std::int64_t> cut;
      for (std::uint32_t e : ends) cut.push_back(*rc::gen::inRange<std::int64_t>(0, e + 1));
      cuts.push_back(std::move(cut));
    }

    std::vector<std::pair<std::vector<std::int64_t>, bool>> consistent;
    for (const auto& cut : cuts) {
      const check::CutJudgement j = judge(cut);
      if (j.consistent) consistent.emplace_back(cut, j.property->holds);
    }
    bool held = false;
    for (const auto& [early, holds] : consistent) {
      if (!holds) continue;
      held = true;
      for (const auto& [late, later_holds] : consistent) {
        bool later = true;
        for (std::size_t n = 0; n < early.size(); ++n) later &= late[n] >= early[n];
        if (later && !later_holds) {
          Fail(fmt::format("{} holds at the cut ({}) and not at the later cut ({})",
                           app.definition().property, fmt::join(early, ", "),
                           fmt::join(late, ", ")),
               driver.script());
        }
      }
    }
    held_runs += held;
    RC_TAG(held ? "the property held at a consistent cut" : "it held at no cut");
  });
  // The stability rule is only tested where the property held somewhere.
  EXPECT_GT(held_runs, PropertyRuns(kRunsPerDrawnCutApp) / 10)
      << "the property held in too few runs to test much";
}

TEST(PropertyTest, JobsAtDrawnCutsIsStable) { CheckDrawnCuts(apps::App::kJobs); }
TEST(PropertyTest, LocksAtDrawnCutsIsStable) { CheckDrawnCuts(apps::App::kLocks); }

}  // namespace
}  // namespace cutline
