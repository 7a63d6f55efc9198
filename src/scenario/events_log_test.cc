// The events format judged as the simulator's own run: a random run of the
// bank (Chandy-Lamport and its three rules broken on purpose) is written as
// any implementation would log it (docs/logs.md), read back, and must get
// the findings `cutline check` gives the run itself. One judge, two doors.
#include "check/events_log.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "random_runs.h"
#include "scenario/run_record.h"
#include "scenario/runner.h"

namespace cutline::check {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using scenario::CheckSnapshots;
using scenario::ClaimsOf;

// The ids of the transfers a claim's channel state lists, matched in order
// against the channel's deliveries after the receiver recorded: the log
// names messages where the claim names amounts.
std::vector<std::string> IdsOf(const history::ChannelRecord& r,
                               const std::vector<std::pair<sim::Seq, Amount>>& delivered) {
  std::vector<std::string> ids;
  std::size_t at = 0;
  for (Amount a : r.transfers) {
    while (at < delivered.size() && delivered[at].second != a) ++at;
    if (at == delivered.size()) break;
    ids.push_back("#" + std::to_string(delivered[at++].first));
  }
  return ids;
}

// Writes the bank's run into `dir` as one events log per branch.
void WriteEvents(const engine::Engine& bank, const fs::path& dir) {
  const sim::Topology& net = bank.network();
  const std::vector<SnapshotClaim> claims = ClaimsOf(bank);
  std::map<SnapshotId, const SnapshotClaim*> claim_of;
  for (const SnapshotClaim& c : claims) claim_of[c.id] = &c;
  std::vector<std::vector<json>> lines(bank.branch_count());
  for (sim::NodeId n = 0; n < bank.branch_count(); ++n) {
    json inputs = json::array();
    for (sim::ChannelId c : net.Incoming(n)) inputs.push_back(bank.name(net.channel(c).from));
    lines[n].push_back({{"process", bank.name(n)}, {"kind", "start"},
                        {"state", bank.initial_balance(n)}, {"inputs", inputs}});
  }
  // By snapshot and channel: the transfers delivered since its receiver recorded.
  std::map<std::pair<SnapshotId, sim::ChannelId>, std::vector<std::pair<sim::Seq, Amount>>> since;
  std::map<SnapshotId, std::vector<bool>> recorded;
  auto to = [&](sim::ChannelId c) { return bank.name(net.channel(c).to); };
  auto from = [&](sim::ChannelId c) { return bank.name(net.channel(c).from); };
  for (const history::Event& e : bank.history().events()) {
    const sim::NodeId n = history::NodeOf(e, net);
    std::visit(
        Overloaded{
            [&](const history::Sent<history::Transfer>& s) {
              lines[n].push_back({{"process", bank.name(n)}, {"kind", "send"}, {"to", to(s.channel)},
                                  {"msg", "#" + std::to_string(s.seq)}, {"amount", s.what.amount}});
            },
            [&](const history::Delivered<history::Transfer>& d) {
              lines[n].push_back({{"process", bank.name(n)}, {"kind", "receive"},
                                  {"from", from(d.channel)}, {"msg", "#" + std::to_string(d.seq)}});
              for (auto& [id, done] : recorded) {
                if (done[n]) since[{id, d.channel}].emplace_back(d.seq, d.what.amount);
              }
            },
            [&](const history::Sent<history::Marker>& s) {
              lines[n].push_back({{"process", bank.name(n)}, {"kind", "marker-send"},
                                  {"to", to(s.channel)}, {"snapshot", s.what.snapshot}});
            },
            [&](const history::Delivered<history::Marker>& d) {
              lines[n].push_back({{"process", bank.name(n)}, {"kind", "marker-receive"},
                                  {"from", from(d.channel)}, {"snapshot", d.what.snapshot}});
            },
            [&](const history::Recorded& r) {
              auto c = claim_of.find(r.snapshot);
              const Amount state = c == claim_of.end() ? 0 : c->second->balances[n].value_or(0);
              lines[n].push_back({{"process", bank.name(n)}, {"kind", "record"},
                                  {"snapshot", r.snapshot}, {"state", state}});
              recorded.try_emplace(r.snapshot, bank.branch_count(), false).first->second[n] = true;
            },
            [&](const history::PartDone& p) {
              json channels = json::object();
              auto c = claim_of.find(p.snapshot);
              for (sim::ChannelId ch : net.Incoming(n)) {
                if (c == claim_of.end()) {
                  channels[from(ch)] = json::array();
                  continue;
                }
                const history::ChannelRecord& r = c->second->channels[ch];
                if (r.state == ChannelRecording::kNotRecorded) continue;
                channels[from(ch)] = IdsOf(r, since[{p.snapshot, ch}]);
              }
              lines[n].push_back({{"process", bank.name(n)}, {"kind", "part-done"},
                                  {"snapshot", p.snapshot}, {"channels", channels}});
            },
            [](const auto&) {},
        },
        e);
  }
  fs::create_directories(dir);
  for (sim::NodeId n = 0; n < bank.branch_count(); ++n) {
    std::ofstream out(dir / (bank.name(n) + ".jsonl"));
    out << json{{"format", kEventsFormat}, {"version", kEventsVersion}}.dump() << "\n";
    for (const json& l : lines[n]) out << l.dump() << "\n";
  }
}

// Markers have no ids in the format: the run names them "#15", the log
// by the line that sent them. Everything else must be word for word. The
// order may differ where the checker sorts by message number: the log's
// merge numbers messages in an order of its own.
std::vector<std::string> Normalized(std::vector<std::string> problems) {
  static const std::regex marker(R"((#\d+|P\d\.jsonl:\d+)(\)| \(marker))");
  for (std::string& p : problems) p = std::regex_replace(p, marker, "M$2");
  std::sort(problems.begin(), problems.end());
  return problems;
}

// The transfers the findings name ("message #7"), each once.
std::set<std::string> MessagesNamed(const std::vector<std::string>& problems) {
  static const std::regex message(R"(message #\d+)");
  std::set<std::string> named;
  for (const std::string& p : problems) {
    for (auto it = std::sregex_iterator(p.begin(), p.end(), message); it != std::sregex_iterator();
         ++it) {
      named.insert(it->str());
    }
  }
  return named;
}

TEST(EventsLogTest, ARunWrittenAsEventsGetsTheRunsOwnFindings) {
  std::mt19937_64 random(random_runs::Seed("CUTLINE_EVENTS_SEED", "EventsLogTest.*"));
  const fs::path root = fs::temp_directory_path() / ("cutline-events-" + std::to_string(::getpid()));
  int failing_runs = 0;
  for (int run = 0; run < 200; ++run) {
    const std::string algorithm =
        random_runs::kAlgorithms[run % random_runs::kAlgorithms.size()];
    const std::string text = random_runs::Scenario(random, {"P1", "P2", "P3"}, algorithm,
                                                   algorithm != "chandy-lamport");
    scenario::Runner runner;
    random_runs::Run(runner, text);
    ASSERT_NE(runner.bank(), nullptr) << text;
    const CheckReport own = CheckSnapshots(*runner.bank());
    const fs::path dir = root / std::to_string(run);
    WriteEvents(*runner.bank(), dir);
    StatusOr<EventsLog> log = ReadEventsLog(dir.string());
    ASSERT_TRUE(log.ok()) << CodeName(log.status().code()) << "\n" << text;
    const CheckReport judged = CheckEventsLog(*log);
    if (algorithm == "broken-stop-at-first") {
      // Its history says where a branch stopped recording a channel (a
      // Closed event, before the marker); the format, as Chandy-Lamport,
      // knows only the marker. The same transfers are found lost, said as
      // "in flight ... missing" instead of "missed".
      EXPECT_EQ(judged.ok(), own.ok()) << text;
      EXPECT_EQ(MessagesNamed(judged.problems), MessagesNamed(own.problems)) << text;
    } else {
      EXPECT_EQ(Normalized(judged.problems), Normalized(own.problems)) << text;
    }
    EXPECT_EQ(judged.snapshots_checked, own.snapshots_checked) << text;
    if (!own.ok()) ++failing_runs;
    fs::remove_all(dir);
  }
  fs::remove_all(root);
  // The broken rules must have been caught somewhere, or this compared
  // only silences.
  EXPECT_GT(failing_runs, 10);
}

}  // namespace
}  // namespace cutline::check
