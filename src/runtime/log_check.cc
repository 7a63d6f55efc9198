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
  std::size_t line = 0;  // in its rank's file, from 1
};

struct Logs {
  std::uint32_t ranks = 0;
  std::vector<std::vector<LogEvent>> by_rank;
  std::vector<std::string> names;  // each rank's file name, for messages
};

// The fields each kind of line must have, as numbers (docs/runtime.md, the
// log's format); a kind not listed is skipped by the checker.
struct Shape {
  const char* kind;
  std::vector<const char*> numbers;
};
const std::vector<Shape>& Shapes() {
  static const std::vector<Shape> shapes = {
      {"start", {"balance"}},
      {"send", {"to", "n", "amount"}},
      {"send_marker", {"to", "n", "snapshot"}},
      {"receive", {"from", "n", "amount"}},
      {"receive_marker", {"from", "n", "snapshot"}},
      {"record", {"snapshot", "balance"}},
      {"part", {"snapshot", "balance"}},
  };
  return shapes;
}

// Empty if `body` has the fields of its kind, with a peer in 0..ranks-1
// other than `rank`; else what is wrong.
std::string ShapeError(const json& body, std::uint32_t rank, std::uint32_t ranks) {
  const std::string kind = body["e"];
  for (const Shape& shape : Shapes()) {
    if (kind != shape.kind) continue;
    for (const char* field : shape.numbers) {
      if (!body.contains(field) || !body[field].is_number_unsigned()) {
        return fmt::format("a \"{}\" line without a whole number \"{}\"", kind, field);
      }
    }
    for (const char* peer : {"to", "from"}) {
      if (!body.contains(peer)) continue;
      const std::uint64_t p = body[peer];
      if (p >= ranks || p == rank) {
        return fmt::format("a \"{}\" line with \"{}\": {}, not another of {} ranks", kind,
                           peer, p, ranks);
      }
    }
    if (kind == "record" && !(body.contains("cause") && body["cause"].is_string())) {
      return "a \"record\" line without its \"cause\"";
    }
    if (kind == "part" && !(body.contains("channels") && body["channels"].is_object())) {
      return "a \"part\" line without its \"channels\"";
    }
  }
  return "";
}

// Where an event was read: "rank-1.jsonl:7".
std::string Where(const Logs& logs, const LogEvent& e) {
  return fmt::format("{}:{}", logs.names[e.rank], e.line);
}

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
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
    std::vector<LogEvent> events;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::size_t line_no = i + 1;
      json body = json::parse(lines[i], nullptr, false);
      if (body.is_discarded() || !body.is_object() || !body.contains("e") ||
          !body["e"].is_string()) {
        // The last line cut short: the rank died while writing it. Anywhere
        // else the log was damaged, and whatever follows cannot be trusted
        // to be checked: say where.
        if (i + 1 == lines.size()) break;
        *error = fmt::format("{}:{} is not a line of a cutline log", path.string(), line_no);
        return std::nullopt;
      }
      if (line_no == 1) {
        if (body["e"] != "rank" || body["rank"] != rank || !body["ranks"].is_number_unsigned()) {
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
      if (std::string wrong = ShapeError(body, rank, logs.ranks); !wrong.empty()) {
        *error = fmt::format("{}:{}: {}", path.string(), line_no, wrong);
        return std::nullopt;
      }
      LogEvent e{rank, events.size(), body, 0, line_no};
      const json& vc = body.contains("vc") ? body["vc"] : json::array();
      if (!vc.is_array()) {
        *error = fmt::format("{}:{}: \"vc\" is not a vector clock", path.string(), line_no);
        return std::nullopt;
      }
      for (const json& c : vc) {
        if (!c.is_number_unsigned()) {
          *error = fmt::format("{}:{}: \"vc\" is not a vector clock", path.string(), line_no);
          return std::nullopt;
        }
        e.clock_sum += c.get<std::uint64_t>();
      }
      events.push_back(std::move(e));
    }
    // An empty log (or a header alone) is a rank killed before its buffer
    // was first written: it is checked as a rank that logged nothing.
    if (logs.by_rank.size() <= rank) logs.by_rank.resize(rank + 1);
    logs.by_rank[rank] = std::move(events);
  }
  if (logs.ranks == 0) {
    *error = fmt::format("every log in {} is empty: no rank wrote its log", dir);
    return std::nullopt;
  }
  logs.by_rank.resize(std::max<std::size_t>(logs.by_rank.size(), logs.ranks));
  for (std::uint32_t r = 0; r < logs.by_rank.size(); ++r) {
    logs.names.push_back(fmt::format("rank-{}.jsonl", r));
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
  // What each rank's record line says it recorded: the claim a snapshot is
  // checked against (its part line repeats it, and must agree).
  std::map<std::pair<SnapshotId, std::uint32_t>, bank::Amount> recorded;
  std::vector<std::string> findings;
  sim::Seq next_seq = 1;
  const LogEvent* at = nullptr;  // the event being read, for messages
  try {
    for (const LogEvent* e : CausalOrder(*logs)) {
      at = e;
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
        const SnapshotId id = b["snapshot"].get<SnapshotId>();
        history.push_back(bank::Recorded{id, cause, r});
        recorded[{id, r}] = b["balance"].get<bank::Amount>();
      } else if (kind == "part") {
        SnapshotId id = b["snapshot"];
        check::SnapshotClaim& claim = claims[id];
        if (claim.balances.empty()) {
          claim.id = id;
          claim.balances.assign(n, std::nullopt);
          claim.channels.assign(topology.channel_count(), {});
          claim.markers_sent = topology.channel_count();  // one per channel, by rule 1
        }
        const bank::Amount said = b["balance"].get<bank::Amount>();
        auto rec = recorded.find({id, r});
        if (rec == recorded.end()) {
          findings.push_back(fmt::format("snapshot {}: {} logged its part without a record ({})",
                                         id, store::BranchName(r), Where(*logs, *e)));
        } else if (rec->second != said) {
          findings.push_back(fmt::format("snapshot {}: {} recorded ${} but its part says ${} ({})",
                                         id, store::BranchName(r), rec->second, said,
                                         Where(*logs, *e)));
        }
        claim.balances[r] = rec != recorded.end() ? rec->second : said;
        for (const auto& [from, transfers] : b["channels"].items()) {
          sim::ChannelId c = topology.Find(static_cast<std::uint32_t>(std::stoul(from)), r);
          claim.channels[c].state = ChannelRecording::kClosed;
          claim.channels[c].transfers = transfers.get<std::vector<bank::Amount>>();
        }
        history.push_back(bank::PartDone{id, r});
        if (++parts[id] == n) history.push_back(bank::Completed{id, r});
      }
    }
  } catch (const json::exception& e) {
    // A line of the wrong shape (a field missing or of another type).
    *error = fmt::format("{}: a \"{}\" line of the wrong shape ({})", Where(*logs, *at),
                         at->body["e"].get<std::string>(), e.what());
    return std::nullopt;
  } catch (const std::out_of_range&) {
    *error = fmt::format("{}: receives message {} that no log sent", Where(*logs, *at),
                         at->body.value("n", json()).dump());
    return std::nullopt;
  }
  for (std::uint32_t r = 0; r < n; ++r) {
    // A rank that logged nothing (killed before its log was first written)
    // took part in no complete snapshot; what the others did is checked.
    if (!started[r]) {
      out.silent.push_back(r);
      continue;
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
  for (std::string& f : findings) out.report.problems.push_back(std::move(f));
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
