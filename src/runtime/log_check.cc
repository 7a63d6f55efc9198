#include "runtime/log_check.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "bank/history.h"
#include "check/shiviz.h"
#include "store/store.h"

namespace cutline::runtime {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct LogEvent {
  std::uint32_t rank = 0;
  std::size_t index = 0;  // position in its rank's log
  json body;
  std::uint64_t clock_sum = 0;
};

struct Logs {
  std::uint32_t ranks = 0;
  std::vector<std::vector<LogEvent>> by_rank;
};

std::optional<Logs> ReadLogs(const std::string& dir, std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *error = fmt::format("{} is not a folder of logs", dir);
    return std::nullopt;
  }
  Logs logs;
  std::map<std::uint32_t, fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("rank-", 0) != 0 || entry.path().extension() != ".jsonl") continue;
    std::string number = name.substr(5, name.size() - 5 - 6);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
    files[static_cast<std::uint32_t>(std::stoul(number))] = entry.path();
  }
  if (files.empty()) {
    *error = fmt::format("{} holds no rank-N.jsonl logs (see cutline cluster --log-dir)", dir);
    return std::nullopt;
  }
  for (const auto& [rank, path] : files) {
    std::ifstream in(path);
    std::string line;
    std::vector<LogEvent> events;
    std::size_t line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      json body = json::parse(line, nullptr, false);
      // A line cut short ends the log: the rank died while writing it.
      if (body.is_discarded() || !body.is_object() || !body.contains("e")) break;
      if (line_no == 1) {
        if (body["e"] != "rank" || body["rank"] != rank) {
          *error = fmt::format("{} does not begin as rank {}'s log", path.string(), rank);
          return std::nullopt;
        }
        std::uint32_t ranks = body["ranks"];
        if (logs.ranks != 0 && logs.ranks != ranks) {
          *error = fmt::format("{} belongs to a run of {} ranks, not {}", path.string(), ranks,
                               logs.ranks);
          return std::nullopt;
        }
        logs.ranks = ranks;
        continue;
      }
      LogEvent e{rank, events.size(), body, 0};
      for (std::uint64_t c : body.value("vc", json::array())) e.clock_sum += c;
      events.push_back(std::move(e));
    }
    if (line_no == 0) {
      *error = fmt::format("{} is empty", path.string());
      return std::nullopt;
    }
    if (logs.by_rank.size() <= rank) logs.by_rank.resize(rank + 1);
    logs.by_rank[rank] = std::move(events);
  }
  if (files.size() != logs.ranks || files.rbegin()->first != logs.ranks - 1) {
    *error = fmt::format("{} holds {} logs, but the run had {} ranks", dir, files.size(),
                         logs.ranks);
    return std::nullopt;
  }
  return logs;
}

// Logs of a run that ended in a crash stop at different moments: a rank may
// have logged receiving a message whose sender's log ends before the send.
// Each log is cut before the first such receive, until every receive left
// has its send (a consistent cut of the logs). Returns the events dropped.
std::size_t CutToConsistent(Logs* logs) {
  std::size_t dropped = 0;
  for (bool changed = true; changed;) {
    changed = false;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, bool> sent;
    for (const auto& events : logs->by_rank) {
      for (const LogEvent& e : events) {
        const std::string kind = e.body["e"];
        if (kind == "send" || kind == "send_marker") sent[{e.rank, e.body["to"], e.body["n"]}] = true;
      }
    }
    for (auto& events : logs->by_rank) {
      for (std::size_t i = 0; i < events.size(); ++i) {
        const std::string kind = events[i].body["e"];
        if ((kind == "receive" || kind == "receive_marker") &&
            !sent.count({events[i].body["from"], events[i].rank, events[i].body["n"]})) {
          dropped += events.size() - i;
          events.resize(i);
          changed = true;
          break;
        }
      }
    }
  }
  return dropped;
}

// One order of all events that every message respects (a send before its
// receive): by the sum of the vector clock, which grows along every causal
// path, then by rank and position.
std::vector<const LogEvent*> CausalOrder(const Logs& logs) {
  std::vector<const LogEvent*> all;
  for (const auto& events : logs.by_rank) {
    for (const LogEvent& e : events) all.push_back(&e);
  }
  std::sort(all.begin(), all.end(), [](const LogEvent* a, const LogEvent* b) {
    return std::tie(a->clock_sum, a->rank, a->index) < std::tie(b->clock_sum, b->rank, b->index);
  });
  return all;
}

}  // namespace

std::optional<LogCheck> CheckLogs(const std::string& dir, std::string* error) {
  auto logs = ReadLogs(dir, error);
  if (!logs) return std::nullopt;
  LogCheck out;
  out.ranks = logs->ranks;
  out.dropped = CutToConsistent(&*logs);
  const std::uint32_t n = logs->ranks;
  sim::Topology topology(n, sim::Topology::Complete(n));

  std::vector<bank::Event> history;
  std::vector<bank::Amount> initial(n, 0);
  std::vector<bool> started(n, false);
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint64_t>, sim::Seq> seq_of;
  std::vector<sim::Seq> last_marker(n, 0);  // the marker a rank received last
  std::map<SnapshotId, check::SnapshotClaim> claims;
  std::map<SnapshotId, std::uint32_t> parts;
  sim::Seq next_seq = 1;
  try {
    for (const LogEvent* e : CausalOrder(*logs)) {
      const json& b = e->body;
      const std::string kind = b["e"];
      const std::uint32_t r = e->rank;
      if (kind == "start") {
        initial[r] = b["balance"];
        started[r] = true;
      } else if (kind == "send" || kind == "send_marker") {
        std::uint32_t to = b["to"];
        sim::ChannelId c = topology.Find(r, to);
        sim::Seq seq = next_seq++;
        seq_of[{r, to, b["n"]}] = seq;
        if (kind == "send") {
          history.push_back(bank::Sent<bank::Transfer>{seq, c, {b["amount"].get<bank::Amount>()}});
        } else {
          history.push_back(bank::Sent<bank::Marker>{seq, c, {b["snapshot"].get<SnapshotId>()}});
        }
      } else if (kind == "receive" || kind == "receive_marker") {
        std::uint32_t from = b["from"];
        sim::ChannelId c = topology.Find(from, r);
        sim::Seq seq = seq_of.at({from, r, b["n"]});
        if (kind == "receive") {
          history.push_back(
              bank::Delivered<bank::Transfer>{seq, c, {b["amount"].get<bank::Amount>()}});
        } else {
          history.push_back(
              bank::Delivered<bank::Marker>{seq, c, {b["snapshot"].get<SnapshotId>()}});
          last_marker[r] = seq;
        }
      } else if (kind == "record") {
        bank::Cause cause = b["cause"] == "marker" ? bank::Cause::ByMarker(last_marker[r])
                                                   : bank::Cause::Start();
        history.push_back(bank::Recorded{b["snapshot"].get<SnapshotId>(), cause, r});
      } else if (kind == "part") {
        SnapshotId id = b["snapshot"];
        check::SnapshotClaim& claim = claims[id];
        if (claim.balances.empty()) {
          claim.id = id;
          claim.balances.assign(n, std::nullopt);
          claim.channels.assign(topology.channel_count(), {});
          claim.markers_sent = topology.channel_count();  // one per channel, by rule 1
        }
        claim.balances[r] = b["balance"].get<bank::Amount>();
        for (const auto& [from, transfers] : b["channels"].items()) {
          sim::ChannelId c = topology.Find(static_cast<std::uint32_t>(std::stoul(from)), r);
          claim.channels[c].state = ChannelRecording::kClosed;
          claim.channels[c].transfers = transfers.get<std::vector<bank::Amount>>();
        }
        history.push_back(bank::PartDone{id, r});
        if (++parts[id] == n) history.push_back(bank::Completed{id, r});
      }
    }
  } catch (const std::exception& e) {
    *error = fmt::format("the logs in {} do not fit together: {}", dir, e.what());
    return std::nullopt;
  }
  for (std::uint32_t r = 0; r < n; ++r) {
    if (!started[r]) {
      *error = fmt::format("rank {}'s log has no start", r);
      return std::nullopt;
    }
    out.total += initial[r];
  }
  check::RunRecord run;
  run.events = history;
  run.topology = &topology;
  run.initial_balances = initial;
  for (std::uint32_t r = 0; r < n; ++r) run.names.push_back(store::BranchName(r));
  for (auto& [id, claim] : claims) {
    if (parts[id] == n) run.claims.push_back(std::move(claim));
  }
  out.events = history.size();
  out.report = check::CheckRun(run);
  return out;
}

std::optional<std::string> ShiVizLog(const std::string& dir, std::string* error) {
  auto logs = ReadLogs(dir, error);
  if (!logs) return std::nullopt;
  std::vector<std::string> hosts;
  for (std::uint32_t r = 0; r < logs->ranks; ++r) hosts.push_back(store::BranchName(r));
  check::ShiVizWriter out;
  for (const LogEvent* e : CausalOrder(*logs)) {
    const json& b = e->body;
    std::vector<std::uint64_t> clock = b.value("vc", std::vector<std::uint64_t>{});
    clock.resize(std::min<std::size_t>(clock.size(), hosts.size()));
    const std::string kind = b["e"];
    std::string what;
    if (kind == "start") {
      what = fmt::format("start with ${}", b["balance"].get<bank::Amount>());
    } else if (kind == "send") {
      what = fmt::format("send ${} to {}", b["amount"].get<bank::Amount>(),
                         store::BranchName(b["to"]));
    } else if (kind == "receive") {
      what = fmt::format("receive ${} from {}", b["amount"].get<bank::Amount>(),
                         store::BranchName(b["from"]));
    } else if (kind == "send_marker") {
      what = fmt::format("marker {} to {}", b["snapshot"].get<SnapshotId>(), store::BranchName(b["to"]));
    } else if (kind == "receive_marker") {
      what = fmt::format("marker {} from {}", b["snapshot"].get<SnapshotId>(),
                         store::BranchName(b["from"]));
    } else if (kind == "record") {
      what = fmt::format("record ${} for snapshot {} ({})", b["balance"].get<bank::Amount>(),
                         b["snapshot"].get<SnapshotId>(), b["cause"].get<std::string>());
    } else if (kind == "part") {
      what = fmt::format("part of snapshot {} done", b["snapshot"].get<SnapshotId>());
    } else {
      continue;
    }
    out.Add(hosts[e->rank], hosts, std::span<const std::uint64_t>(clock), what);
  }
  return std::move(out).Take();
}

}  // namespace cutline::runtime
