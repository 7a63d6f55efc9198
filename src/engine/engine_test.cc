// Unit tests of Engine: each operation's effect, each refusal's code and that
// an error changes nothing, and the naive reader's two classic failures.
#include "engine/engine.h"
#include "base/check.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "algorithms/message_tags.h"
#include "engine/cuts.h"

namespace cutline::engine {
namespace {

constexpr NodeId kP1 = 0;
constexpr NodeId kP2 = 1;
constexpr NodeId kP3 = 2;

Config ThreeBranches() {
  Config config{.app = apps::App::kBank};
  config.branches = {{"P1", 100}, {"P2", 100}, {"P3", 100}};
  return config;
}

// A refusal as "code arg, arg": the bank speaks codes; the words are the
// scenario layer's (its catalogues are tested there).
std::string Said(const Status& s) {
  std::string out(CodeName(s.code()));
  for (std::size_t i = 0; i < s.args().size(); ++i) {
    out += i ? ", " : " ";
    const ErrorArg& a = s.args()[i];
    out += std::holds_alternative<std::string>(a)
               ? std::get<std::string>(a)
               : std::to_string(std::get<std::int64_t>(a));
  }
  return out;
}

Engine MakeBank(const Config& config) {
  std::optional<Engine> bank;
  Status s = Engine::Create(config, &bank);
  EXPECT_TRUE(s.ok()) << Said(s);
  if (!bank) ADD_FAILURE() << "no bank";
  return std::move(*bank);
}

// Everything observable about a bank, as text, so that "nothing changed"
// is one comparison and a failure shows what did change.
std::string StateOf(const Engine& bank) {
  const Network& net = bank.network();
  std::string out;
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    out += fmt::format("{}=${} ", bank.name(n), bank.state(n));
  }
  out += fmt::format("\ntotal={} in_flight={} last_seq={} history={}\n",
                     bank.total(), bank.in_flight_amount(), net.last_seq(),
                     bank.history().size());
  for (ChannelId c = 0; c < net.channel_count(); ++c) {
    out += fmt::format("{}->{}:", bank.name(net.channel(c).from),
                       bank.name(net.channel(c).to));
    net.ForEachQueued(c, [&](const Network::Msg& m) {
      if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
        out += fmt::format(" #{}${}", m.seq, t->amount);
      } else {
        out += fmt::format(" #{}m{}", m.seq,
                           std::get<Marker>(m.payload).snapshot);
      }
    });
    out += "\n";
  }
  for (const SnapshotInfo& s : bank.snapshots()) {
    out += fmt::format("snapshot {} markers={} parts={} complete={} by", s.id,
                       s.markers_sent, s.parts_done, s.complete);
    for (NodeId n : s.initiators) out += " " + bank.name(n);
    out += "\n";
    for (NodeId n = 0; n < bank.branch_count(); ++n) {
      std::optional<Amount> b = bank.RecordedBalance(n, s.id);
      out += fmt::format("  {} recorded={} done={} balance={}\n", bank.name(n),
                         bank.HasRecorded(n, s.id), bank.PartDone(n, s.id),
                         b ? std::to_string(*b) : "-");
    }
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      ChannelRecord r = bank.RecordedChannel(s.id, c);
      out +=
          fmt::format("  channel {} state={} [", c, static_cast<int>(r.state));
      for (Amount a : r.transfers) out += fmt::format(" {}", a);
      out += " ]\n";
    }
  }
  for (const NaiveRead& r : bank.naive_reads()) {
    out += fmt::format("read {} ${} at {}\n", bank.name(r.branch), r.balance,
                       r.history_index);
  }
  return out;
}

std::string CreateError(const Config& config) {
  std::optional<Engine> bank;
  Status s = Engine::Create(config, &bank);
  EXPECT_FALSE(s.ok());
  EXPECT_FALSE(bank.has_value()) << "a failed Create must not make a bank";
  return Said(s);
}

TEST(BankTest, CreateRejectsBadConfigurations) {
  Config one{.app = apps::App::kBank};
  one.branches = {{"P1", 100}};
  EXPECT_EQ(CreateError(one), "network_too_small");

  for (const char* bad : {"", "1A", "a-b", "P 1", "_x"}) {
    Config c = ThreeBranches();
    c.branches[1].name = bad;
    EXPECT_EQ(CreateError(c),
              fmt::format("invalid_branch_name {}", bad));
  }

  Config twice = ThreeBranches();
  twice.branches[2].name = "P1";
  EXPECT_EQ(CreateError(twice), "branch_declared_twice P1");

  Config negative = ThreeBranches();
  negative.branches[0].balance = -1;
  EXPECT_EQ(CreateError(negative), "negative_balance P1");

  Config huge = ThreeBranches();
  huge.branches[0].balance = std::numeric_limits<Amount>::max();
  EXPECT_EQ(CreateError(huge), "total_overflow");

  Config unknown = ThreeBranches();
  unknown.links = {{{"P1", "P2"}, {"P2", "X"}}};
  EXPECT_EQ(CreateError(unknown), "link_unknown_branch X");
  unknown.links = {{{"Y", "P2"}}};
  EXPECT_EQ(CreateError(unknown), "link_unknown_branch Y");

  Config loop = ThreeBranches();
  loop.links = {{{"P1", "P2"}, {"P3", "P3"}}};
  EXPECT_EQ(CreateError(loop), "link_self_loop P3, P3");

  Config dup = ThreeBranches();
  dup.links = {{{"P1", "P2"}, {"P2", "P1"}, {"P1", "P2"}}};
  EXPECT_EQ(CreateError(dup), "link_twice P1, P2");
}

TEST(BankTest, CreateBuildsTheTopology) {
  Engine complete = MakeBank(ThreeBranches());
  EXPECT_EQ(complete.network().channel_count(), 6u);
  EXPECT_EQ(complete.total(), 300);
  EXPECT_EQ(complete.FindBranch("P2"), kP2);
  EXPECT_EQ(complete.FindBranch("p2"), std::nullopt);  // case sensitive

  Config ring = ThreeBranches();
  ring.links = {{{"P1", "P2"}, {"P2", "P3"}, {"P3", "P1"}}};
  Engine b = MakeBank(ring);
  EXPECT_EQ(b.network().channel_count(), 3u);
  EXPECT_NE(b.network().Find(kP3, kP1), sim::kNoChannel);
  EXPECT_EQ(b.network().Find(kP1, kP3), sim::kNoChannel);
}

// A bank in the middle of things: a complete snapshot, a running one, money
// in flight, a full channel, a naive read. Every error below must leave all
// of it exactly as it was.
class BankErrorTest : public ::testing::Test {
 protected:
  BankErrorTest() : bank_(MakeBank(Busy())) {
    Expect(bank_.StartSnapshot(kP1, std::nullopt));  // snapshot 1
    Expect(bank_.Drain());
    Expect(bank_.Transfer(kP1, kP2, 30));
    Expect(bank_.Transfer(kP1, kP2, 20));
    Expect(bank_.Transfer(kP3, kP1, 5));
    Expect(bank_.Read(kP1));
    Expect(bank_.StartSnapshot(kP2, std::nullopt));  // snapshot 2
    Expect(bank_.Deliver(kP1, kP2));                 // the $30
    Expect(bank_.Transfer(kP1, kP2, 10));            // P1->P2 full again
    before_ = StateOf(bank_);
  }

  static Config Busy() {
    Config config = ThreeBranches();
    // Everything but P1->P3.
    config.links = {
        {{"P1", "P2"}, {"P2", "P1"}, {"P2", "P3"}, {"P3", "P2"}, {"P3", "P1"}}};
    config.capacity_transfers = 2;
    config.one_snapshot_at_a_time = true;
    return config;
  }
  static void Expect(const Status& s) { ASSERT_TRUE(s.ok()) << Said(s); }

  void ExpectError(const Status& s, const std::string& message) {
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(Said(s), message);
    EXPECT_EQ(StateOf(bank_), before_) << "after: " << message;
  }

  Engine bank_;
  std::string before_;
};

TEST_F(BankErrorTest, TheSetupIsWhatTheTestsAssume) {
  EXPECT_TRUE(bank_.snapshots()[0].complete);
  EXPECT_FALSE(bank_.snapshots()[1].complete);
  EXPECT_EQ(bank_.state(kP2), 130);
  EXPECT_TRUE(bank_.network().Full(bank_.network().Find(kP1, kP2)));
  EXPECT_EQ(bank_.RecordedChannel(2, bank_.network().Find(kP1, kP2)).transfers,
            std::vector<Amount>{30});
}

TEST_F(BankErrorTest, Transfer) {
  ExpectError(bank_.Transfer(kP1, kP1, 5),
              "channel_to_itself P1");
  ExpectError(bank_.Transfer(kP1, kP3, 5), "no_channel P1, P3");
  ExpectError(bank_.Transfer(kP2, kP1, 0), "amount_too_small");
  ExpectError(bank_.Transfer(kP2, kP1, -5), "amount_too_small");
  ExpectError(bank_.Transfer(kP2, kP1, 131),
              "insufficient_funds P2, 130, 131");
  ExpectError(bank_.Transfer(kP1, kP2, 1),
              "channel_full P1, P2, 2");
}

TEST_F(BankErrorTest, Deliver) {
  ExpectError(bank_.Deliver(kP2, kP2), "channel_to_itself P2");
  ExpectError(bank_.Deliver(kP1, kP3), "no_channel P1, P3");
  ExpectError(bank_.Deliver(kP3, kP2),
              "channel_empty P3, P2");
}

TEST_F(BankErrorTest, BranchNumberOutOfRange) {
  ExpectError(bank_.Transfer(7, kP1, 5), "no_branch_number 7");
  ExpectError(bank_.Transfer(kP1, 7, 5), "no_branch_number 7");
  ExpectError(bank_.Deliver(kP1, 9), "no_branch_number 9");
  ExpectError(bank_.Read(3), "no_branch_number 3");
  ExpectError(bank_.StartSnapshot(3, std::nullopt), "no_branch_number 3");
}

TEST_F(BankErrorTest, StartSnapshot) {
  ExpectError(bank_.StartSnapshot(kP1, 0), "snapshot_not_started 0");
  ExpectError(bank_.StartSnapshot(kP1, 3), "snapshot_not_started 3");
  ExpectError(bank_.StartSnapshot(kP3, 1), "snapshot_complete 1");
  ExpectError(bank_.StartSnapshot(kP2, 2),
              "already_recorded P2, 2");
  ExpectError(bank_.StartSnapshot(kP3, std::nullopt),
              "snapshot_running 2");
  // Joining the running one is allowed under snapshots=one.
  EXPECT_TRUE(bank_.StartSnapshot(kP3, 2).ok());
  EXPECT_EQ(bank_.snapshots()[1].initiators, (std::vector<NodeId>{kP2, kP3}));
}

TEST(BankTest, DeliverNextWithNothingInFlight) {
  Engine bank = MakeBank(ThreeBranches());
  std::string before = StateOf(bank);
  Status s = bank.DeliverNext();
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(Said(s), "nothing_in_flight");
  EXPECT_EQ(StateOf(bank), before);
  EXPECT_TRUE(bank.Drain().ok());  // draining nothing is not an error
  EXPECT_EQ(StateOf(bank), before);
}

TEST(BankTest, FullChannelOfCapacityOne) {
  Config config = ThreeBranches();
  config.capacity_transfers = 1;
  Engine bank = MakeBank(config);
  ASSERT_TRUE(bank.Transfer(kP1, kP2, 10).ok());
  std::string before = StateOf(bank);
  Status s = bank.Transfer(kP1, kP2, 10);
  EXPECT_EQ(Said(s), "channel_full P1, P2, 1");
  EXPECT_EQ(StateOf(bank), before);
  // Markers never count against the capacity.
  ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
  std::vector<Payload> queued;
  bank.network().ForEachQueued(
      bank.network().Find(kP1, kP2),
      [&](const Network::Msg& m) { queued.push_back(m.payload); });
  EXPECT_EQ(queued,
            (std::vector<Payload>{history::Transfer{10}, Marker{1}}));
}

TEST(BankTest, TransferAndDeliverMoveMoney) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.Transfer(kP1, kP2, 30).ok());
  EXPECT_EQ(bank.state(kP1), 70);
  EXPECT_EQ(bank.state(kP2), 100);
  EXPECT_EQ(bank.in_flight_amount(), 30);
  ASSERT_TRUE(bank.Transfer(kP3, kP2, 100).ok());  // the whole balance
  EXPECT_EQ(bank.state(kP3), 0);
  ASSERT_TRUE(bank.Deliver(kP3, kP2).ok());  // not the oldest: that is fine
  EXPECT_EQ(bank.state(kP2), 200);
  EXPECT_EQ(bank.in_flight_amount(), 30);
  ASSERT_TRUE(bank.DeliverNext().ok());
  EXPECT_EQ(bank.state(kP2), 230);
  EXPECT_EQ(bank.in_flight_amount(), 0);
  EXPECT_EQ(bank.total(), 300);
  const auto& events = bank.history().events();
  ASSERT_EQ(events.size(), 4u);
  ASSERT_TRUE(std::holds_alternative<Sent<history::Transfer>>(events[0]));
  EXPECT_EQ(std::get<Sent<history::Transfer>>(events[0]).seq, 1u);
  EXPECT_EQ(std::get<Sent<history::Transfer>>(events[0]).what.amount, 30);
  ASSERT_TRUE(std::holds_alternative<Delivered<history::Transfer>>(events[2]));
  EXPECT_EQ(std::get<Delivered<history::Transfer>>(events[2]).seq, 2u);
  EXPECT_EQ(std::get<Delivered<history::Transfer>>(events[3]).seq, 1u);
}

TEST(BankTest, DeliverNextTakesTheLowestSequenceNumber) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.Transfer(kP3, kP1, 1).ok());  // #1
  ASSERT_TRUE(bank.Transfer(kP1, kP2, 2).ok());  // #2
  ASSERT_TRUE(bank.Transfer(kP3, kP1, 3).ok());  // #3
  ASSERT_TRUE(bank.Deliver(kP3, kP1).ok());      // #1 by hand
  auto last_delivered = [&] {
    return std::get<Delivered<history::Transfer>>(bank.history().events().back()).seq;
  };
  ASSERT_TRUE(bank.DeliverNext().ok());
  EXPECT_EQ(last_delivered(), 2u);
  ASSERT_TRUE(bank.DeliverNext().ok());
  EXPECT_EQ(last_delivered(), 3u);
}

// The classic case of the scenario spec: P2's $40 is in flight when P1
// starts the snapshot; the snapshot finds it in channel P2->P1.
TEST(BankTest, SnapshotRecordsMoneyInFlight) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.Transfer(kP2, kP1, 40).ok());
  ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
  // Markers leave in the order the receivers were declared: P2, then P3.
  const auto& events = bank.history().events();
  ASSERT_EQ(events.size(), 4u);
  ASSERT_TRUE(std::holds_alternative<Recorded>(events[1]));
  EXPECT_EQ(std::get<Recorded>(events[1]).cause, Cause::Start());
  EXPECT_EQ(bank.RecordedBalance(kP1, 1), 100);
  const auto& to_p2 = std::get<Sent<Marker>>(events[2]);
  const auto& to_p3 = std::get<Sent<Marker>>(events[3]);
  EXPECT_EQ(bank.network().channel(to_p2.channel).to, kP2);
  EXPECT_EQ(bank.network().channel(to_p3.channel).to, kP3);
  EXPECT_EQ(to_p3.seq, 3u);
  // P2's record says which marker caused it.
  ASSERT_TRUE(bank.Deliver(kP1, kP2).ok());
  // [4] delivers P1's marker to P2, [5] is the record it caused.
  const auto& caused = std::get<Recorded>(bank.history().events()[5]);
  EXPECT_EQ(caused.node, kP2);
  EXPECT_EQ(caused.cause, Cause::ByMarker(to_p2.seq));
  ASSERT_NE(bank.Running(), nullptr);
  EXPECT_EQ(bank.Running()->id, 1u);

  ASSERT_TRUE(bank.Drain().ok());
  const SnapshotInfo* s = bank.FindSnapshot(1);
  ASSERT_NE(s, nullptr);
  EXPECT_TRUE(s->complete);
  EXPECT_EQ(s->markers_sent, 6u);
  EXPECT_EQ(s->parts_done, 3u);
  EXPECT_EQ(bank.Running(), nullptr);
  EXPECT_EQ(bank.RecordedBalance(kP1, 1), 100);
  EXPECT_EQ(bank.RecordedBalance(kP2, 1), 60);
  EXPECT_EQ(bank.RecordedBalance(kP3, 1), 100);
  ChannelRecord p2p1 = bank.RecordedChannel(1, bank.network().Find(kP2, kP1));
  EXPECT_EQ(p2p1.state, ChannelRecording::kClosed);
  EXPECT_EQ(p2p1.transfers, std::vector<Amount>{40});
  EXPECT_EQ(bank.SnapshotTotal(1), 300);
  EXPECT_EQ(bank.state(kP1), 140);
}

TEST(BankTest, ConcurrentSnapshotsAndJoins) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
  ASSERT_TRUE(bank.Transfer(kP3, kP2, 25).ok());
  ASSERT_TRUE(bank.StartSnapshot(kP3, std::nullopt).ok());  // id 2
  ASSERT_TRUE(bank.StartSnapshot(kP2, 1).ok());             // joins 1
  EXPECT_EQ(bank.snapshots().size(), 2u);
  EXPECT_EQ(bank.snapshots()[0].initiators, (std::vector<NodeId>{kP1, kP2}));
  EXPECT_EQ(bank.Running()->id, 2u);  // the newest incomplete
  ASSERT_TRUE(bank.Drain().ok());
  for (SnapshotId id : {1, 2}) {
    EXPECT_TRUE(bank.FindSnapshot(id)->complete);
    EXPECT_EQ(bank.FindSnapshot(id)->markers_sent, 6u);
    EXPECT_EQ(bank.SnapshotTotal(id), 300);
  }
  // Snapshot 1: P2 recorded before the $25 arrived and P3 after sending
  // it, so it is in P3->P2's state. Snapshot 2: P3 recorded after sending
  // it and P2 after receiving it (its marker came behind), so it is in P2's
  // recorded balance instead.
  ChannelId c = bank.network().Find(kP3, kP2);
  EXPECT_EQ(bank.RecordedChannel(1, c).transfers, std::vector<Amount>{25});
  EXPECT_EQ(bank.RecordedChannel(2, c).transfers, std::vector<Amount>{});
  EXPECT_EQ(bank.RecordedBalance(kP3, 1), 75);
  EXPECT_EQ(bank.RecordedBalance(kP2, 1), 100);
  EXPECT_EQ(bank.RecordedBalance(kP2, 2), 125);
}

TEST(BankTest, BranchWithoutIncomingChannels) {
  Config config = ThreeBranches();
  config.links = {{{"P1", "P2"}, {"P2", "P3"}}};
  Engine bank = MakeBank(config);
  ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
  EXPECT_TRUE(bank.PartDone(kP1, 1));  // nothing to wait for
  ASSERT_TRUE(bank.Drain().ok());
  EXPECT_TRUE(bank.FindSnapshot(1)->complete);
  // From P3 no marker reaches P1 or P2, and P3 waits forever for P2's:
  // that snapshot never completes.
  ASSERT_TRUE(bank.StartSnapshot(kP3, std::nullopt).ok());
  ASSERT_TRUE(bank.Drain().ok());
  EXPECT_FALSE(bank.FindSnapshot(2)->complete);
  EXPECT_TRUE(bank.HasRecorded(kP3, 2));
  EXPECT_FALSE(bank.PartDone(kP3, 2));
  EXPECT_FALSE(bank.HasRecorded(kP1, 2));
  EXPECT_FALSE(bank.HasRecorded(kP2, 2));
}

TEST(BankTest, ReadsKeepFirstReadOrderAndTheLatestValue) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.Read(kP2).ok());
  ASSERT_TRUE(bank.Transfer(kP2, kP1, 10).ok());
  ASSERT_TRUE(bank.Read(kP1).ok());
  ASSERT_TRUE(bank.Read(kP2).ok());
  ASSERT_EQ(bank.naive_reads().size(), 2u);
  EXPECT_EQ(bank.naive_reads()[0].branch, kP2);
  EXPECT_EQ(bank.naive_reads()[0].balance, 90);
  EXPECT_EQ(bank.naive_reads()[1].branch, kP1);
  EXPECT_EQ(bank.naive_reads()[1].balance, 100);
  // A read changes no money and goes into the history.
  EXPECT_EQ(bank.state(kP2), 90);
  EXPECT_TRUE(std::holds_alternative<history::Read>(bank.history().events().back()));
}

// Classic case 1: $30 leaves P1 after P2 was read and before P1 is: the
// reader sees it nowhere.
// Every algorithm of the registry that the bank's branches run, whatever it
// is: on a DAG (so that aligned barriers may run), over FIFO channels, with a
// transfer in flight on every channel and more sent while the snapshot runs,
// the snapshot completes, every branch has recorded and done its part, and
// it adds up to the bank's total. A new algorithm's folder is tested here
// without a line of this test changing.
TEST(RegistryTest, EveryBankAlgorithmTakesAConsistentSnapshot) {
  int ran = 0;
  for (Algorithm a : Algorithm::All()) {
    // Rules broken on purpose are wrong by design: BrokenRulesTest below.
    if (!a.hosts().scenario || a.traits().broken_on_purpose) continue;
    SCOPED_TRACE(std::string(a.name()));
    Config config{.app = apps::App::kBank};
    config.branches = {{"P1", 100}, {"P2", 100}, {"P3", 100}, {"P4", 100}};
    config.links = {{{"P1", "P2"}, {"P1", "P3"}, {"P2", "P3"}, {"P2", "P4"}, {"P3", "P4"}}};
    config.algorithm = a;
    config.one_snapshot_at_a_time = !a.traits().concurrent_snapshots;
    std::optional<Engine> bank;
    ASSERT_TRUE(Engine::Create(config, &bank).ok());
    for (ChannelId c = 0; c < bank->network().channel_count(); ++c) {
      const sim::ChannelInfo& ch = bank->network().channel(c);
      ASSERT_TRUE(bank->Transfer(ch.from, ch.to, 5 + c).ok());
    }
    ASSERT_TRUE(bank->StartSnapshot(kP1, std::nullopt).ok());
    ASSERT_TRUE(bank->DeliverNext().ok());
    ASSERT_TRUE(bank->Transfer(kP2, 3, 7).ok());
    ASSERT_TRUE(bank->Drain().ok());
    const SnapshotInfo* s = bank->FindSnapshot(1);
    ASSERT_NE(s, nullptr);
    EXPECT_TRUE(s->complete);
    EXPECT_EQ(s->markers_sent, bank->network().channel_count());
    for (NodeId n = 0; n < bank->branch_count(); ++n) {
      EXPECT_TRUE(bank->HasRecorded(n, 1));
      EXPECT_TRUE(bank->PartDone(n, 1));
    }
    EXPECT_EQ(bank->SnapshotTotal(1), bank->total());
    EXPECT_EQ(bank->AlgorithmOf(1), a);
    ++ran;
  }
  EXPECT_GE(ran, 4);
}

TEST(RegistryTest, NamesAreUniqueAndFound) {
  for (Algorithm a : Algorithm::All()) {
    std::optional<Algorithm> found = Algorithm::Find(a.name());
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(*found, a);
    EXPECT_NE(a.definition().make_engine_host, nullptr);
  }
  EXPECT_FALSE(Algorithm::Find("chandy_lamport").has_value());
  EXPECT_EQ(Algorithm::Find("lai-yang"), Algorithm::kLaiYang);
  EXPECT_TRUE(Algorithm::kStopTheWorld.traits().stops_the_world);
}

// Without a history, a Lai-Yang tag is forgotten once its message is
// delivered (the tags kept are those of the messages in flight); with one,
// every tag stays, because the history's readers name them.
TEST(RegistryTest, LaiYangTagsOutliveTheirMessagesOnlyWithAHistory) {
  for (bool history : {false, true}) {
    Config config = ThreeBranches();
    config.algorithm = Algorithm::kLaiYang;
    config.fifo = false;
    config.one_snapshot_at_a_time = true;
    config.keep_history = history;
    std::optional<Engine> bank;
    ASSERT_TRUE(Engine::Create(config, &bank).ok());
    ASSERT_TRUE(bank->StartSnapshot(kP1, std::nullopt).ok());
    ASSERT_TRUE(bank->Transfer(kP1, kP2, 10).ok());  // epoch 1
    Seq transfer = bank->network().last_seq();
    EXPECT_EQ(bank->MessageTag(transfer), 1u);
    ASSERT_TRUE(bank->Drain().ok());
    EXPECT_EQ(bank->MessageTag(transfer), history ? 1u : 0u) << "history " << history;
    EXPECT_EQ(bank->SnapshotTotal(1), bank->total());
  }
}

// Which snapshots a delivered transfer joined is the host's word, kept with
// the history: demo 3's $40 joins snapshot 1's P2->P1; the $30 that reaches
// P3 after P3 recorded joins nothing (its channel P1->P3 is closed).
TEST(BankTest, JoinedByNamesTheSnapshotsATransferJoined) {
  for (bool history : {true, false}) {
    Config config = ThreeBranches();
    config.keep_history = history;
    Engine bank = MakeBank(config);
    ASSERT_TRUE(bank.Transfer(kP2, kP1, 40).ok());
    const Seq forty = bank.network().last_seq();
    ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
    ASSERT_TRUE(bank.Transfer(kP1, kP3, 30).ok());
    const Seq thirty = bank.network().last_seq();
    EXPECT_TRUE(bank.JoinedBy(forty).empty());  // not delivered yet
    ASSERT_TRUE(bank.Deliver(kP2, kP1, 1).ok());
    ASSERT_TRUE(bank.Drain().ok());
    EXPECT_EQ(bank.JoinedBy(forty), history ? std::vector<SnapshotId>{1}
                                            : std::vector<SnapshotId>{})
        << "history " << history;
    EXPECT_TRUE(bank.JoinedBy(thirty).empty());
    EXPECT_EQ(bank.SnapshotTotal(1), 300);
  }
}

// The rules broken on purpose (docs/design.md): each does what its name
// says, and its snapshot completes wrong.
Engine BrokenBank(std::string_view name) {
  Config config = ThreeBranches();
  std::optional<Algorithm> a = Algorithm::Find(name);
  EXPECT_TRUE(a.has_value()) << name;
  if (a) config.algorithm = *a;
  return MakeBank(config);
}

TEST(BrokenRulesTest, LateMarkersWaitForTheInitiatorsNextTransfer) {
  Engine bank = BrokenBank("broken-late-markers");
  ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
  EXPECT_TRUE(bank.HoldsMarkers(kP1, 1));
  EXPECT_EQ(bank.FindSnapshot(1)->markers_sent, 0u);
  EXPECT_FALSE(bank.network().AnyInFlight());
  ASSERT_TRUE(bank.Transfer(kP1, kP3, 30).ok());
  EXPECT_FALSE(bank.HoldsMarkers(kP1, 1));
  EXPECT_EQ(bank.FindSnapshot(1)->markers_sent, 2u);
  // On P1->P3 the transfer is ahead of the marker.
  const ChannelId c = bank.network().Find(kP1, kP3);
  std::vector<bool> is_transfer;
  bank.network().ForEachQueued(c, [&](const Network::Msg& m) {
    is_transfer.push_back(std::holds_alternative<Transfer>(m.payload));
  });
  EXPECT_EQ(is_transfer, (std::vector<bool>{true, false}));
  ASSERT_TRUE(bank.Drain().ok());
  ASSERT_TRUE(bank.FindSnapshot(1)->complete);
  EXPECT_EQ(bank.RecordedBalance(kP3, 1), 130);
  EXPECT_EQ(bank.SnapshotTotal(1), 330);  // the $30 counted twice
  // A branch recording on a marker sent its own at once.
  EXPECT_FALSE(bank.HoldsMarkers(kP3, 1));
}

TEST(BrokenRulesTest, RecordingStopsAtTheFirstMessage) {
  Engine bank = BrokenBank("broken-stop-at-first");
  ASSERT_TRUE(bank.Transfer(kP2, kP1, 40).ok());
  const Seq forty = bank.network().last_seq();
  ASSERT_TRUE(bank.Transfer(kP2, kP1, 20).ok());
  const Seq twenty = bank.network().last_seq();
  ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
  const ChannelId c = bank.network().Find(kP2, kP1);
  EXPECT_EQ(bank.RecordedChannel(1, c).state, ChannelRecording::kRecording);
  ASSERT_TRUE(bank.Deliver(kP2, kP1, 1).ok());
  EXPECT_EQ(bank.JoinedBy(forty), std::vector<SnapshotId>{1});
  EXPECT_EQ(bank.RecordedChannel(1, c).state, ChannelRecording::kClosed);
  ASSERT_TRUE(bank.Deliver(kP2, kP1, 1).ok());
  EXPECT_TRUE(bank.JoinedBy(twenty).empty());
  ASSERT_TRUE(bank.Drain().ok());
  ASSERT_TRUE(bank.FindSnapshot(1)->complete);
  EXPECT_EQ(bank.RecordedChannel(1, c).transfers, std::vector<Amount>{40});
  EXPECT_EQ(bank.SnapshotTotal(1), 280);  // the $20 is missing
}

TEST(BrokenRulesTest, NeverOfferedToTheRuntime) {
  int broken = 0;
  for (Algorithm a : Algorithm::All()) {
    if (!a.traits().broken_on_purpose) continue;
    ++broken;
    EXPECT_TRUE(a.hosts().scenario) << a.name();
    EXPECT_FALSE(a.runs_on_ranks()) << a.name();
  }
  EXPECT_EQ(broken, 3);
}

// MessageTags is a ring indexed by sequence number: tags taken in any order
// come back right across the ring's growth and wrap-around, and without a
// history only the span from the oldest undelivered message is kept.
TEST(MessageTagsTest, TakesInAnyOrderAndForgetsOnlyWithoutHistory) {
  for (bool keep : {false, true}) {
    algorithms::MessageTags tags(keep);
    EXPECT_EQ(tags.Find(1), 0u);
    EXPECT_EQ(tags.Take(1), 0u);
    Seq next = 1;
    // Rounds of 100 sends then deliveries in a shuffled order, the oldest
    // of each round left behind until the end, so the kept span grows past
    // the first room (64) and wraps.
    std::vector<Seq> left;
    for (int round = 0; round < 20; ++round) {
      std::vector<Seq> sent;
      for (int i = 0; i < 100; ++i, ++next) {
        if (next % 7 == 0) continue;  // an untagged message: a gap
        tags.Add(next, next * 3);
        sent.push_back(next);
      }
      left.push_back(sent.front());
      // Each round's first stays behind: the kept span is the whole run.
      for (std::size_t i = 1; i < sent.size(); ++i) {
        Seq s = sent[(i * 37) % (sent.size() - 1) + 1];  // a permutation of 1..size-1
        EXPECT_EQ(tags.Find(s), s * 3);
        EXPECT_EQ(tags.Take(s), s * 3) << "keep " << keep << " seq " << s;
        EXPECT_EQ(tags.Find(s), keep ? s * 3 : 0u);
      }
    }
    for (Seq s : left) EXPECT_EQ(tags.Take(s), s * 3);
    for (Seq s : left) EXPECT_EQ(tags.Find(s), keep ? s * 3 : 0u);
    EXPECT_EQ(tags.Find(7), 0u);  // never tagged
    if (keep) {
      EXPECT_EQ(tags.size(), next - 1);
    } else {
      EXPECT_EQ(tags.size(), 0u) << "every message delivered: nothing kept";
      // After draining, the ring starts again at the next send.
      tags.Add(next, 5);
      EXPECT_EQ(tags.size(), 1u);
      EXPECT_EQ(tags.Take(next), 5u);
      EXPECT_EQ(tags.size(), 0u);
    }
  }
}

TEST(MessageTagsTest, KeepsOnlyTheSpanInFlightWithoutHistory) {
  algorithms::MessageTags tags(false);
  for (Seq s = 1; s <= 10000; ++s) {
    tags.Add(s, s);
    if (s > 3) {
      EXPECT_EQ(tags.Take(s - 3), s - 3);  // three in flight
    }
    EXPECT_LE(tags.size(), 3u);
  }
}

TEST(NaiveReaderTest, LosesMoneyInFlight) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.Read(kP2).ok());
  ASSERT_TRUE(bank.Transfer(kP1, kP2, 30).ok());
  ASSERT_TRUE(bank.Read(kP1).ok());
  NaiveAnalysis early = AnalyzeNaive(bank, Replay::Of(bank));
  EXPECT_FALSE(early.all_read);
  ASSERT_TRUE(bank.Read(kP3).ok());
  ASSERT_TRUE(bank.Drain().ok());  // arrives after P2 was read

  NaiveAnalysis a = AnalyzeNaive(bank, Replay::Of(bank));
  EXPECT_TRUE(a.all_read);
  EXPECT_EQ(a.total, 270);
  ASSERT_EQ(a.lost.size(), 1u);
  EXPECT_EQ(a.lost[0].seq, 1u);
  EXPECT_EQ(a.lost[0].from, kP1);
  EXPECT_EQ(a.lost[0].to, kP2);
  EXPECT_EQ(a.lost[0].amount(), 30);
  EXPECT_TRUE(a.counted_twice.empty());
  // Losing money in flight is still a consistent cut: the channel state is
  // what the naive reader does not have.
  EXPECT_TRUE(a.consistent());
}

// Classic case 2: $30 leaves P1 after P1 was read and reaches P2 before P2
// is: the reader counts it twice, and the cut is inconsistent.
TEST(NaiveReaderTest, CountsMoneyTwice) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.Read(kP1).ok());
  ASSERT_TRUE(bank.Transfer(kP1, kP2, 30).ok());
  ASSERT_TRUE(bank.Deliver(kP1, kP2).ok());
  ASSERT_TRUE(bank.Read(kP2).ok());
  ASSERT_TRUE(bank.Read(kP3).ok());

  NaiveAnalysis a = AnalyzeNaive(bank, Replay::Of(bank));
  EXPECT_TRUE(a.all_read);
  EXPECT_EQ(a.total, 330);
  EXPECT_TRUE(a.lost.empty());
  ASSERT_EQ(a.counted_twice.size(), 1u);
  EXPECT_EQ(a.counted_twice[0].seq, 1u);
  EXPECT_EQ(a.counted_twice[0].amount(), 30);
  ASSERT_EQ(a.backward.size(), 1u);
  EXPECT_FALSE(a.consistent());
}

TEST(NaiveReaderTest, MarkersCrossingBackwardsMakeTheCutInconsistent) {
  Engine bank = MakeBank(ThreeBranches());
  ASSERT_TRUE(bank.Read(kP1).ok());
  ASSERT_TRUE(bank.StartSnapshot(kP1, std::nullopt).ok());
  ASSERT_TRUE(bank.Deliver(kP1, kP2).ok());  // a marker
  ASSERT_TRUE(bank.Read(kP2).ok());
  ASSERT_TRUE(bank.Read(kP3).ok());
  NaiveAnalysis a = AnalyzeNaive(bank, Replay::Of(bank));
  EXPECT_EQ(a.total, 300);
  EXPECT_TRUE(a.counted_twice.empty());
  ASSERT_EQ(a.backward.size(), 1u);
  EXPECT_FALSE(a.backward[0].is_transfer());
  EXPECT_FALSE(a.consistent());
}

// The snapshot cut that the page draws. A record caused by a marker sits at
// that marker's delivery, so the marker itself never counts as crossing.
TEST(SnapshotCutTest, NoMessageCrossesAChandyLamportCut) {
  std::optional<Engine> bank;
  Config config{.app = apps::App::kBank};
  config.branches = {{"P1", 100}, {"P2", 100}, {"P3", 100}};
  ASSERT_TRUE(Engine::Create(config, &bank).ok());
  ASSERT_TRUE(bank->Transfer(1, 0, 40).ok());
  ASSERT_TRUE(bank->StartSnapshot(0, std::nullopt).ok());
  ASSERT_TRUE(bank->Transfer(0, 2, 30).ok());  // behind P1's marker
  Replay running = Replay::Of(*bank);
  EXPECT_TRUE(BackwardAcross(*bank, running, SnapshotCut(*bank, running, 1))
                  .empty());
  ASSERT_TRUE(bank->Drain().ok());
  ASSERT_TRUE(bank->snapshots()[0].complete);
  Replay replay = Replay::Of(*bank);
  Cut cut = SnapshotCut(*bank, replay, 1);
  // P1 started (its record event); P2 and P3 recorded on a marker, so their
  // points are the deliveries of the markers their records name.
  const auto& events = bank->history().events();
  EXPECT_TRUE(std::holds_alternative<Recorded>(events[cut[0]]));
  for (std::size_t i = 0; i < events.size(); ++i) {
    const auto* r = std::get_if<Recorded>(&events[i]);
    if (r == nullptr || r->node == 0) continue;
    ASSERT_TRUE(r->cause.by_marker());
    const auto& marker = std::get<Delivered<Marker>>(events[cut[r->node]]);
    EXPECT_EQ(marker.seq, r->cause.message_seq());
    EXPECT_EQ(bank->network().channel(marker.channel).to, r->node);
  }
  EXPECT_TRUE(BackwardAcross(*bank, replay, cut).empty());
}

// Aligned barriers: P4 receives P2's barrier before it records (it waits
// for P3's). Through the raw cut that barrier crosses backwards; the
// snapshot's own markers are its edge, so the snapshot's list leaves it out.
TEST(SnapshotCutTest, AnAligningBranchsBarriersDoNotCrossItsCut) {
  std::optional<Engine> bank;
  Config config{.app = apps::App::kBank};
  config.branches = {{"P1", 100}, {"P2", 100}, {"P3", 100}, {"P4", 100}};
  config.links = {{{"P1", "P2"}, {"P1", "P3"}, {"P2", "P4"}, {"P3", "P4"}}};
  config.algorithm = Algorithm::kAligned;
  ASSERT_TRUE(Engine::Create(config, &bank).ok());
  ASSERT_TRUE(bank->StartSnapshot(0, std::nullopt).ok());
  ASSERT_TRUE(bank->Deliver(0, 1).ok());  // P2 records, barrier to P4
  ASSERT_TRUE(bank->Deliver(1, 3).ok());  // P4 holds P2->P4 back
  Replay replay = Replay::Of(*bank);
  auto raw = BackwardAcross(*bank, replay, SnapshotCut(*bank, replay, 1));
  ASSERT_EQ(raw.size(), 1u);
  EXPECT_FALSE(raw[0].is_transfer());
  EXPECT_TRUE(BackwardAcrossSnapshot(*bank, replay, 1).empty());
}

// BackwardAcross can fail: through the read points of the counted-twice
// case, the $30's receipt is inside and its sending outside.
TEST(SnapshotCutTest, BackwardAcrossFindsTheCountedTwiceReceipt) {
  std::optional<Engine> bank;
  Config config{.app = apps::App::kBank};
  config.branches = {{"P1", 100}, {"P2", 100}};
  ASSERT_TRUE(Engine::Create(config, &bank).ok());
  ASSERT_TRUE(bank->Read(0).ok());
  ASSERT_TRUE(bank->Transfer(0, 1, 30).ok());
  ASSERT_TRUE(bank->Deliver(0, 1).ok());
  ASSERT_TRUE(bank->Read(1).ok());
  Cut reads = {bank->naive_reads()[0].history_index,
               bank->naive_reads()[1].history_index};
  Replay replay = Replay::Of(*bank);
  auto backward = BackwardAcross(*bank, replay, reads);
  ASSERT_EQ(backward.size(), 1u);
  EXPECT_EQ(backward[0].seq, 1u);
  EXPECT_EQ(backward[0].amount(), 30);
  // With P2's point still to come, the receipt is inside all the same.
  EXPECT_EQ(BackwardAcross(*bank, replay, Cut{reads[0], kFuture}).size(), 1u);
  // Before P1's read nothing was sent: no crossing.
  EXPECT_TRUE(BackwardAcross(*bank, replay, Cut{kFuture, reads[1]}).empty());
}

}  // namespace
}  // namespace cutline::engine

namespace cutline::engine {
namespace {

// CUTLINE_CHECK stays on where assert() is compiled out: this test is built
// with the project's default flags (-DNDEBUG included) and still sees it
// stop the process, naming the condition.
TEST(CutlineCheckTest, StaysOnInTheDefaultBuild) {
#ifdef NDEBUG
  const bool asserts_compiled_out = true;
#else
  const bool asserts_compiled_out = false;
#endif
  RecordProperty("asserts_compiled_out", asserts_compiled_out ? "yes" : "no");
  volatile int two = 2;
  EXPECT_DEATH(CUTLINE_CHECK(two == 3), "CUTLINE_CHECK\\(two == 3\\) failed");
}

}  // namespace
}  // namespace cutline::engine
