#include "store/store_json.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <string>
#include <utility>

#include "apps/app.h"
#include "apps/app_json.h"
#include "history/records.h"
#include "store/error.h"
#include "dataflow/topology.h"
#include "store/summary.h"

namespace cutline::store {

namespace {

// The ranks' names (N1, N2, ...), by rank.
std::vector<std::string> RankNames(std::uint32_t ranks) {
  std::vector<std::string> names;
  for (std::uint32_t r = 0; r < ranks; ++r) names.push_back(BranchName(r));
  return names;
}

// Ranks by name: N1, N3.
std::vector<std::string> RankNamesOf(const std::vector<std::uint32_t>& ranks) {
  std::vector<std::string> names;
  for (std::uint32_t r : ranks) names.push_back(BranchName(r));
  return names;
}

// A branch's state under its application's key, as run --json writes it:
// "balance": 70, "jobs": 2, "waiting_for": "N2" or null.
std::pair<std::string, Json> StateEntry(apps::App app, Amount state,
                                        const std::vector<std::string>& names) {
  return {std::string(app.definition().state_key), apps::StateJson(app, state, names)};
}

// A jobs or locks snapshot's stored verdict, under run --json's keys: the
// application is the one whose property the store names.
Json VerdictJson(const StoredVerdict& v) {
  std::vector<std::string> branches;
  for (std::uint32_t b : v.branches) branches.push_back(BranchName(b));
  apps::ChannelNames why;
  for (const auto& [from, to] : v.channels) why.emplace_back(BranchName(from), BranchName(to));
  for (apps::App app : apps::App::All()) {
    if (app.has_property() && app.definition().property == v.property) {
      return apps::VerdictJson(app, v.holds, branches, why);
    }
  }
  return Json{{v.property, v.holds}};  // a property no application of this build has
}

template <typename T>
Json Nullable(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json MomentJson(const CriticalPath::Moment& m) {
  return {{"from", BranchName(m.from)}, {"to", BranchName(m.to)}, {"at_us", m.at_us}};
}

Json CostJson(const StoredCost& c) {
  return {{"alignment_us", c.alignment_us}, {"switched", c.switched},
          {"channels", c.channels},         {"unaligned", c.unaligned},
          {"persisted", c.persisted},       {"held_back", c.held_back}};
}

Json DataflowJson(const StoredDataflow& d) {
  return {{"topology", d.topology},
          {"algorithm", d.algorithm},
          {"buffers", d.buffers},
          {"alignment_timeout_us", Nullable(d.alignment_timeout_us)}};
}

// How long a channel kept its snapshot waiting, for "slowest first": the
// time its barrier waited aligning, then the records it held back or kept
// in flight.
std::tuple<std::int64_t, std::uint64_t> Slowness(const StoredChannel& c) {
  if (!c.cost) return {0, c.transfers.size()};
  return {c.cost->waited_us, c.cost->held_back + c.transfers.size()};
}

// A topology's channels: each vertex's inputs.
std::size_t ChannelCount(const dataflow::Topology& t) {
  std::size_t n = 0;
  for (std::uint32_t v = 0; v < t.vertices(); ++v) n += t.Inputs(v).size();
  return n;
}

// A dataflow's snapshot (a run of `topology`): its vertices' states and
// costs, and its channels, the slowest first, each aligned or not.
Json DataflowSnapshotJson(const SnapshotRecord& s, const StoredDataflow& d) {
  StatusOr<dataflow::Topology> t = dataflow::Topology::Parse(d.topology);
  const bool complete = s.status == "complete";
  Json recorded = Json::array(), channels = Json::array(), parts_done = nullptr;
  if (complete) {
    parts_done = Json::array();
    for (std::uint32_t r = 0; r < s.vertices.size(); ++r) {
      const StoredVertex& v = s.vertices[r];
      const char* role = !t.ok() ? "unknown"
                         : t->RoleOf(r) == dataflow::Role::kSource ? "source"
                         : t->RoleOf(r) == dataflow::Role::kSink   ? "sink"
                                                                   : "operator";
      Json per_key = Json::object();
      for (const auto& [key, count] : v.per_key) per_key[std::to_string(key)] = count;
      recorded.push_back({{"name", BranchName(r)},
                          {"role", role},
                          {"emitted", v.emitted},
                          {"received", v.received},
                          {"per_key", per_key},
                          {"alignment_us", v.alignment_us},
                          {"switched", v.switched},
                          {"overtaken", v.overtaken}});
      parts_done.push_back(BranchName(r));
    }
    std::vector<const StoredChannel*> slowest;
    for (const StoredChannel& c : s.channels) slowest.push_back(&c);
    std::stable_sort(slowest.begin(), slowest.end(), [](const StoredChannel* a, const StoredChannel* b) {
      return Slowness(*a) > Slowness(*b);
    });
    for (const StoredChannel* c : slowest) {
      Json channel = {{"from", BranchName(c->from)},
                      {"to", BranchName(c->to)},
                      {"state", history::ChannelRecordingName(ChannelRecording::kClosed)},
                      {"records", c->transfers}};
      if (c->cost) {
        channel["aligned"] = !c->cost->unaligned;
        // Aligned barriers that switched: the run asked for aligned ones.
        channel["switched"] = c->cost->unaligned && d.algorithm == "aligned";
        channel["waited_us"] = c->cost->waited_us;
        channel["held_back"] = c->cost->held_back;
        channel["persisted"] = c->transfers.size();
      }
      channels.push_back(std::move(channel));
    }
  }
  Json out = {{"id", s.id},
              {"initiators", Json::array({BranchName(s.initiator)})},
              {"complete", complete},
              {"markers_sent", complete ? Json(s.channels.size()) : Json(nullptr)},
              {"recorded", recorded},
              {"channels", channels},
              {"dataflow", DataflowJson(d)}};
  if (complete) out["total"] = *s.total;
  if (s.cost) out["cost"] = CostJson(*s.cost);
  if (!s.failure.empty()) out["failure"] = s.failure;
  if (!s.missing.empty()) out["missing"] = RankNamesOf(s.missing);
  out["parts_done"] = parts_done;
  out["markers_expected"] = t.ok() ? Json(ChannelCount(*t)) : Json(nullptr);
  return out;
}

}  // namespace

const StoredRun& RunOf(const std::vector<StoredRun>& runs, std::int64_t id) {
  auto it = std::find_if(runs.begin(), runs.end(), [id](const StoredRun& r) { return r.id == id; });
  if (it == runs.end()) throw StoreError(Status::Error(Code::kVerifyRunMissing, id));
  return *it;
}

apps::App AppOf(const StoredRun& run) {
  return run.dataflow ? apps::App::kDataflow : apps::App::NamedOrBank(run.app);
}

// The snapshot object of `cutline run --json` (docs/scenario-language.md),
// key for key and in its order, from what the store holds. The store keeps
// a snapshot's parts only once it is complete, so for a failed or running
// one `recorded` and `channels` are empty and what the run knew about its
// progress (`markers_sent`, `parts_done`) is null: unknown. `backward` is
// left out, as `run --json` does without a history: no history is stored.
Json SnapshotJson(const Store& store, const SnapshotRecord& s) {
  const std::vector<StoredRun> runs = store.Runs();
  const StoredRun& run = RunOf(runs, s.run);
  if (run.dataflow) return DataflowSnapshotJson(s, *run.dataflow);
  const std::uint32_t ranks = run.ranks;
  const apps::App app = AppOf(run);
  const bool complete = s.status == "complete";
  const Json channel_count = std::uint64_t{ranks} * (ranks - 1);
  Json recorded = Json::array(), channels = Json::array(), parts_done = nullptr;
  if (complete) {
    parts_done = Json::array();
    const std::vector<std::string> names = RankNames(ranks);
    for (std::uint32_t r = 0; r < s.balances.size(); ++r) {
      recorded.push_back({{"name", BranchName(r)}, StateEntry(app, s.balances[r], names)});
      parts_done.push_back(BranchName(r));
    }
    for (const StoredChannel& c : s.channels) {
      Json channel = {{"from", BranchName(c.from)},
                      {"to", BranchName(c.to)},
                      {"state", history::ChannelRecordingName(ChannelRecording::kClosed)},
                      {"transfers", c.transfers}};
      if (!app.conserved()) {
        // As run --json: the messages' kinds, not their words.
        Json kinds = Json::array();
        for (Amount w : c.transfers) kinds.push_back(app.MessageKind(w));
        channel.erase("transfers");
        channel["messages"] = kinds;
      }
      channels.push_back(std::move(channel));
    }
  }
  Json out = {{"id", s.id},
              {"initiators", Json::array({BranchName(s.initiator)})},
              {"complete", complete},
              // Each branch sends one marker on each outgoing channel.
              {"markers_sent", complete ? channel_count : Json(nullptr)},
              {"recorded", recorded},
              {"channels", channels}};
  if (complete) out["total"] = *s.total;
  // jobs, locks: what the run's collector found.
  if (s.verdict) out["property"] = VerdictJson(*s.verdict);
  out["parts_done"] = parts_done;
  out["markers_expected"] = channel_count;
  return out;
}

Json ListJson(const Store& store) {
  std::vector<StoredRun> runs = store.Runs();
  std::vector<SnapshotRecord> snapshots = store.Snapshots();
  Json out = {{"runs", Json::array()}, {"snapshots", Json::array()}};
  for (const StoredRun& r : runs) {
    out["runs"].push_back(
        {{"id", r.id},
         {"ranks", r.ranks},
         {"total", r.total},
         {"balance", r.balance},
         {"started_us", r.started_us},
         {"restored_from", r.restored_from ? Json(*r.restored_from) : Json(nullptr)},
         {"app", r.app}});
    if (r.dataflow) out["runs"].back()["dataflow"] = DataflowJson(*r.dataflow);
  }
  for (const SnapshotRecord& s : snapshots) {
    Json j = {{"id", s.id},
              {"run", s.run},
              {"status", s.status},
              {"total", Nullable(s.total)},
              {"initiators", Json::array({BranchName(s.initiator)})},
              {"started_us", s.started_us},
              {"completed_us", s.status == "complete" ? Json(s.completed_us) : Json(nullptr)}};
    // Why it failed (schema 3), where the store knows.
    if (!s.failure.empty()) j["failure"] = s.failure;
    // Its root cause, as far as the run knew it: the parts that never came.
    if (!s.missing.empty()) j["missing"] = RankNamesOf(s.missing);
    // A dataflow's: what it cost (alignment, records held back or kept).
    if (s.cost) j["cost"] = CostJson(*s.cost);
    // A jobs or locks snapshot's verdict, which the store page lists.
    if (s.verdict) j["property"] = VerdictJson(*s.verdict);
    out["snapshots"].push_back(std::move(j));
  }
  return out;
}

Json SummariesJson(const std::vector<StoredRun>& runs,
                   const std::vector<SnapshotRecord>& snapshots, std::int64_t now_us) {
  Json out = Json::array();
  for (const StoredRun& r : runs) {
    RunSummary s = Summarize(r, snapshots, now_us);
    out.push_back({{"run", s.run},
                   {"state", s.state},
                   {"ended_us", Nullable(r.ended_us)},
                   {"updated_us", Nullable(r.updated_us)},
                   {"duration_us", Nullable(s.duration_us)},
                   {"transfers", Nullable(s.transfers)},
                   {"transfers_per_s", Nullable(s.transfers_per_s)},
                   {"complete", s.complete},
                   {"failed", s.failed},
                   {"running", s.running},
                   {"latency_p50_us", Nullable(s.latency_p50_us)},
                   {"latency_p99_us", Nullable(s.latency_p99_us)},
                   {"latency_max_us", Nullable(s.latency_max_us)}});
  }
  return out;
}

Json CriticalPathJson(const SnapshotRecord& s) {
  std::optional<CriticalPath> path = CriticalPathOf(s);
  if (!path) return nullptr;
  Json recorded = Json::array(), markers = Json::array();
  for (const auto& m : path->recorded) {
    recorded.push_back({{"name", BranchName(m.from)}, {"at_us", m.at_us}});
  }
  for (const auto& m : path->markers) markers.push_back(MomentJson(m));
  return {{"recorded", recorded},
          {"markers", markers},
          {"last", path->last ? MomentJson(*path->last) : Json(nullptr)},
          {"collected_us", path->collected_us}};
}

}  // namespace cutline::store
