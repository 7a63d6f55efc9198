// The doors into the one judge (design.md, "One judge, three doors"): a
// simulated run checked by `cutline check` (its history, judged claim by
// claim: check::JudgeHistory, which the goldens hold to their words) and
// the same run written as the ranks' own logs checked by `cutline check
// --logs` must get the same findings. Random runs of Chandy-Lamport and its
// rules broken on purpose, on three branches named as the ranks are (N0,
// N1, N2), are written through the runtime's EventLog exactly as branch.cc
// writes them, and both checks are compared; for the algorithms a rank's
// log cannot say, the history judged claim by claim must get what it gets
// judged as the logs door judges (each snapshot as it completes, from its
// records and parts).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "check/consistency_checker.h"
#include "check/stream_judge.h"
#include "runtime/event_log.h"
#include "runtime/log_check.h"
#include "random_runs.h"
#include "scenario/run_record.h"
#include "scenario/runner.h"

namespace cutline::runtime {
namespace {

namespace fs = std::filesystem;

// Writes the bank's run as its ranks would have logged it.
void WriteRankLogs(const engine::Engine& bank, const fs::path& dir) {
  const sim::Topology& net = bank.network();
  const int ranks = static_cast<int>(bank.branch_count());
  const std::vector<check::SnapshotClaim> claims = scenario::ClaimsOf(bank);
  std::map<SnapshotId, const check::SnapshotClaim*> claim_of;
  for (const auto& c : claims) claim_of[c.id] = &c;
  std::vector<std::unique_ptr<EventLog>> logs;
  for (int r = 0; r < ranks; ++r) {
    logs.push_back(std::make_unique<EventLog>(dir.string(), r, ranks, apps::App::kBank));
    logs.back()->Start(bank.initial_balance(static_cast<sim::NodeId>(r)));
  }
  std::map<std::pair<int, int>, std::uint64_t> out_n, in_n;
  std::map<sim::Seq, std::string> clocks;
  auto balance = [&](SnapshotId id, sim::NodeId n) -> Amount {
    auto c = claim_of.find(id);
    return c == claim_of.end() ? 0 : c->second->balances[n].value_or(0);
  };
  for (const history::Event& e : bank.history().events()) {
    std::visit(
        Overloaded{
            [&](const history::Sent<history::Transfer>& s) {
              const auto& ch = net.channel(s.channel);
              clocks[s.seq] = logs[ch.from]->Send(static_cast<int>(ch.to),
                                                  ++out_n[{ch.from, ch.to}], s.what.amount);
            },
            [&](const history::Sent<history::Marker>& s) {
              const auto& ch = net.channel(s.channel);
              clocks[s.seq] = logs[ch.from]->SendMarker(static_cast<int>(ch.to),
                                                        ++out_n[{ch.from, ch.to}], s.what.snapshot);
            },
            [&](const history::Delivered<history::Transfer>& d) {
              const auto& ch = net.channel(d.channel);
              Reader clock(clocks.at(d.seq));
              logs[ch.to]->Receive(static_cast<int>(ch.from), ++in_n[{ch.to, ch.from}],
                                   d.what.amount, clock);
            },
            [&](const history::Delivered<history::Marker>& d) {
              const auto& ch = net.channel(d.channel);
              Reader clock(clocks.at(d.seq));
              logs[ch.to]->ReceiveMarker(static_cast<int>(ch.from), ++in_n[{ch.to, ch.from}],
                                         d.what.snapshot, clock);
            },
            [&](const history::Recorded& r) {
              logs[r.node]->Record(r.snapshot, balance(r.snapshot, r.node),
                                   r.cause.by_marker() ? "marker" : "start");
            },
            [&](const history::PartDone& p) {
              EventLog::ByPeer by_sender;
              auto c = claim_of.find(p.snapshot);
              for (sim::ChannelId ch : net.Incoming(p.node)) {
                by_sender.emplace_back(static_cast<int>(net.channel(ch).from),
                                       c != claim_of.end() ? c->second->channels[ch].transfers
                                                           : std::vector<Amount>{});
              }
              logs[p.node]->Part(p.snapshot, balance(p.snapshot, p.node), by_sender);
            },
            [](const auto&) {},
        },
        e);
  }
  for (auto& l : logs) l->Flush();
}

// The logs number messages in the order their merge meets them, the run
// in the order they were sent: the findings are compared without the
// numbers, and in sorted order (the checker sorts some by number).
std::vector<std::string> Normalized(std::vector<std::string> problems) {
  static const std::regex number("#\\d+");
  for (std::string& p : problems) p = std::regex_replace(p, number, "#");
  std::sort(problems.begin(), problems.end());
  return problems;
}

// Every verdict, whole: the history's door keeps the messages' numbers.
std::vector<std::string> Verdicts(const std::vector<check::SnapshotVerdict>& verdicts) {
  std::vector<std::string> out;
  for (const check::SnapshotVerdict& v : verdicts) {
    out.push_back(fmt::format("{}: backward {} extra {} missed {} unrecorded {}", v.id,
                              v.backward, v.extra, v.missed, v.unrecorded));
  }
  return out;
}

// The verdicts that are not consistent (check --logs keeps only those), each
// as its snapshot and how many transfers it counts twice or loses, by kind
// (the numbers differ, as above). `lost_as_one`: missed and unrecorded
// together (see broken-stop-at-first below).
std::vector<std::string> Inconsistent(const std::vector<check::SnapshotVerdict>& verdicts,
                                      bool lost_as_one) {
  std::vector<std::string> out;
  for (const check::SnapshotVerdict& v : verdicts) {
    if (v.consistent()) continue;
    const std::size_t lost = v.missed.size() + v.unrecorded.size();
    out.push_back(lost_as_one ? fmt::format("{}: backward {} extra {} lost {}", v.id,
                                            v.backward.size(), v.extra.size(), lost)
                              : fmt::format("{}: backward {} extra {} missed {} unrecorded {}",
                                            v.id, v.backward.size(), v.extra.size(),
                                            v.missed.size(), v.unrecorded.size()));
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(LogCheckAgreesTest, ARunsLogsGetTheRunsOwnFindings) {
  std::mt19937_64 random(random_runs::Seed("CUTLINE_AGREE_SEED", "LogCheckAgreesTest.*"));
  const fs::path root = fs::temp_directory_path() / ("cutline-agree-" + std::to_string(::getpid()));
  int differ = 0, failing = 0;
  for (int run = 0; run < 100; ++run) {
    const std::string algorithm =
        random_runs::kAlgorithms[run % random_runs::kAlgorithms.size()];
    const std::string text =
        random_runs::Scenario(random, {"N0", "N1", "N2"}, algorithm, /*one_snapshot_at_a_time=*/true);
    scenario::Runner runner;
    random_runs::Run(runner, text);
    ASSERT_NE(runner.bank(), nullptr);
    const check::CheckReport own = scenario::CheckSnapshots(*runner.bank());
    const fs::path dir = root / std::to_string(run);
    fs::create_directories(dir);
    WriteRankLogs(*runner.bank(), dir);
    StatusOr<LogCheck> logs = CheckLogs(dir.string());
    ASSERT_TRUE(logs.ok()) << CodeName(logs.status().code());
    // The history judged as the logs are (each snapshot as it completes)
    // gets the same, with the history's own message numbers.
    const check::StreamResult fed = check::JudgeHistory(
        scenario::RunOf(*runner.bank()), Lang::kEn, check::HistoryJudging::kAsLogs);
    EXPECT_EQ(own.snapshots_checked, fed.report.snapshots_checked) << text;
    EXPECT_EQ(own.problems, fed.report.problems) << text;
    EXPECT_EQ(Verdicts(own.verdicts), Verdicts(fed.report.verdicts)) << text;
    if (algorithm == "broken-stop-at-first") {
      // Its history says where a branch stopped recording a channel (a
      // Closed event, before the marker); a rank's log, as Chandy-Lamport,
      // knows only the marker. The same transfers are found lost, said as
      // "in flight ... missing" instead of "missed": compare the verdicts.
      EXPECT_EQ(own.ok(), logs->report.ok()) << text;
      EXPECT_EQ(own.snapshots_checked, logs->report.snapshots_checked) << text;
      EXPECT_EQ(Inconsistent(own.verdicts, true), Inconsistent(logs->report.verdicts, true))
          << text;
      continue;
    }
    EXPECT_EQ(own.snapshots_checked, logs->report.snapshots_checked) << text;
    EXPECT_EQ(Inconsistent(own.verdicts, false), Inconsistent(logs->report.verdicts, false))
        << text;
    if (!own.ok()) ++failing;
    const std::vector<std::string> a = Normalized(own.problems),
                                   b = Normalized(logs->report.problems);
    if (a != b) {
      ++differ;
      ADD_FAILURE() << algorithm << "\n" << text << "\n--- cutline check:\n"
                    << ::testing::PrintToString(a) << "\n--- check --logs:\n"
                    << ::testing::PrintToString(b);
    }
    fs::remove_all(dir);
  }
  fs::remove_all(root);
  EXPECT_EQ(differ, 0);
  // The broken rules were caught in many runs: the comparison was not only
  // of silences.
  EXPECT_GT(failing, 10);
}

// The goldens' own scenarios through the logs' door: each golden whose run
// a rank's log can say (the bank on a complete network of FIFO channels, by
// Chandy-Lamport or a rule broken on purpose that keeps its lines: one
// network line, no stop-the-world) gets from check --logs the findings
// `cutline check` gives it, which the golden holds; the branches' names
// read as the ranks' (the first N0, ...), message numbers left out.
TEST(LogCheckAgreesTest, TheGoldensScenariosGetTheirFindingsFromTheirLogs) {
  const fs::path root =
      fs::temp_directory_path() / ("cutline-agree-goldens-" + std::to_string(::getpid()));
  int compared = 0, failing = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(CUTLINE_TESTDATA_DIR)) {
    if (entry.path().extension() != ".txt") continue;
    std::ifstream in(entry.path());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::string text;  // a golden's commands: each line just before "----"
    int networks = 0;
    for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
      if (lines[i + 1] != "----") continue;
      text += lines[i] + "\n";
      networks += lines[i].starts_with("network");
    }
    static const std::regex unsaid(
        R"(app=|fifo=no|links=|stop-the-world|algorithm=(?!chandy-lamport|broken-late-markers|broken-unrecorded-channel))");
    if (networks != 1 || std::regex_search(text, unsaid)) continue;
    SCOPED_TRACE(entry.path().filename().string());
    scenario::Runner runner;
    random_runs::Run(runner, text);
    if (runner.bank() == nullptr) continue;
    const engine::Engine& bank = *runner.bank();
    check::CheckReport own = scenario::CheckSnapshots(bank);
    for (std::string& p : own.problems) {
      for (sim::NodeId n = 0; n < bank.branch_count(); ++n) {
        p = std::regex_replace(p, std::regex("\\b" + bank.name(n) + "\\b"), fmt::format("N{}", n));
      }
    }
    const fs::path dir = root / entry.path().stem();
    fs::create_directories(dir);
    WriteRankLogs(bank, dir);
    StatusOr<LogCheck> logs = CheckLogs(dir.string());
    ASSERT_TRUE(logs.ok()) << CodeName(logs.status().code());
    EXPECT_EQ(own.snapshots_checked, logs->report.snapshots_checked) << text;
    EXPECT_EQ(Normalized(own.problems), Normalized(logs->report.problems)) << text;
    ++compared;
    failing += !own.ok();
  }
  fs::remove_all(root);
  EXPECT_GT(compared, 5);  // the goldens of Chandy-Lamport were found
  EXPECT_GT(failing, 0);   // and a rule broken on purpose among them
}

// The history's door alone, for the algorithms a rank's log cannot say
// (their claims need more than Chandy-Lamport's lines): aligned barriers on
// a network without cycles, stop-the-world snapshots among Chandy-Lamport's,
// Lai-Yang, unaligned barriers. Judged as the logs door judges (each
// snapshot as it completes, from its records and parts), the history gets
// exactly cutline check's findings and verdicts (claim by claim, at the
// history's end), message numbers and all.
TEST(LogCheckAgreesTest, AHistoryFedToTheStreamingJudgeGetsTheRunsOwnFindings) {
  std::mt19937_64 random(random_runs::Seed("CUTLINE_AGREE_SEED", "LogCheckAgreesTest.*"));
  // "stop-the-world": Chandy-Lamport with every other snapshot taken by
  // stopping the world instead (no marker).
  // Lai-Yang and Chandy-Lamport on channels that reorder (every other
  // delivery takes the second message waiting, when there is one).
  const std::vector<std::string> algorithms = {"aligned", "stop-the-world", "lai-yang",
                                               "chandy-lamport fifo=no", "unaligned"};
  int checked = 0, stopped = 0, by_transfer = 0, overtaken = 0;
  for (int run = 0; run < 500; ++run) {
    const std::string algorithm = algorithms[run % algorithms.size()];
    std::string text = random_runs::Scenario(
        random, {"N0", "N1", "N2"},
        algorithm == "stop-the-world" ? "chandy-lamport" : algorithm.substr(0, algorithm.find(' ')),
        /*one_snapshot_at_a_time=*/true);
    if (algorithm == "lai-yang" || algorithm.ends_with("fifo=no")) {
      text.insert(text.find(" algorithm="), " fifo=no");
      bool second = false;
      for (std::size_t at = text.find("\ndeliver "); at != std::string::npos;
           at = text.find("\ndeliver ", at + 1)) {
        if ((second = !second)) text.insert(text.find('\n', at + 1), " at=2");
      }
    }
    if (algorithm == "aligned") {
      // Aligned barriers need a network without cycles: N0 feeds N1 and
      // N2, N1 feeds N2 (the lines on other channels are refused).
      text.insert(text.find(" algorithm="), " links=N0>N1,N0>N2,N1>N2");
    }
    if (algorithm == "stop-the-world") {
      bool stop = false;
      for (std::size_t at = text.find("\nsnapshot "); at != std::string::npos;
           at = text.find("\nsnapshot ", at + 1)) {
        const std::size_t end = text.find('\n', at + 1);
        if ((stop = !stop)) text.replace(at + 1, end - at - 1, "stop-the-world");
      }
    }
    scenario::Runner runner;
    random_runs::Run(runner, text);
    ASSERT_NE(runner.bank(), nullptr);
    const check::CheckReport own = scenario::CheckSnapshots(*runner.bank());
    const check::StreamResult fed = check::JudgeHistory(
        scenario::RunOf(*runner.bank()), Lang::kEn, check::HistoryJudging::kAsLogs);
    EXPECT_EQ(own.snapshots_checked, fed.report.snapshots_checked) << text;
    EXPECT_EQ(own.problems, fed.report.problems) << text;
    EXPECT_EQ(Verdicts(own.verdicts), Verdicts(fed.report.verdicts)) << text;
    checked += own.snapshots_checked;
    for (const check::SnapshotClaim& c : scenario::ClaimsOf(*runner.bank())) stopped += !c.markers;
    for (const history::Event& e : runner.bank()->history().events()) {
      const auto* r = std::get_if<history::Recorded>(&e);
      by_transfer += r != nullptr && r->cause.by_transfer();
      overtaken += std::holds_alternative<history::Overtaken>(e);
    }
  }
  EXPECT_GT(checked, 200);  // not only empty runs
  EXPECT_GT(stopped, 20);
  EXPECT_GT(by_transfer, 10);  // Lai-Yang's records a transfer caused
  EXPECT_GT(overtaken, 10);    // transfers an unaligned barrier overtook
}

}  // namespace
}  // namespace cutline::runtime
