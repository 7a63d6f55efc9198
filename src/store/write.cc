// Writing the store: runs begun, progressing and ended, snapshots started,
// completed with every part (and a jobs or locks snapshot's verdict) and
// failed. Each write checks the store's rules first and refuses with
// StoreError (docs/store.md, "One transaction per complete snapshot").
#include "store/store.h"

#include <fmt/format.h>

#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/app.h"
#include "base/lang.h"
#include "store/store_internal.h"

namespace cutline::store {
namespace {

std::int64_t NowUs() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The run snapshot `id` belongs to (REQUIRES: it is there).
std::int64_t RunOf(Connection& c, std::uint64_t id, const std::string& doing) {
  Query q(c, "SELECT run FROM snapshots WHERE id = ?", doing);
  q.Bind(1, SqlId(c, id));
  q.Step();
  return q.Int(0);
}

// SnapshotComplete's steps, one function each so that its one transaction
// reads as what it does: find the snapshot running, refuse a record that is
// not whole, write the parts, write the verdict. A refusal (StoreError) in
// any of them rolls the caller's transaction back: nothing is written.

// The snapshot's row as completing it requires: there, of run `s.run`, and
// running. Returns its run's ranks.
std::int64_t RunningSnapshotRanks(Connection& c, const SnapshotRecord& s, std::int64_t id,
                                  const std::string& doing) {
  Query q(c,
          "SELECT s.run, s.status, r.ranks FROM snapshots s "
          "JOIN runs r ON r.id = s.run WHERE s.id = ?",
          doing);
  q.Bind(1, id);
  if (!q.Step()) c.Refuse(fmt::format("no snapshot {} to complete", s.id));
  if (q.Int(0) != s.run) {
    c.Refuse(fmt::format("snapshot {} belongs to run {}, not {}", s.id, q.Int(0), s.run));
  }
  if (q.Text(1) != "running") {
    c.Refuse(fmt::format("snapshot {} is {}; only a running one can complete", s.id,
                         q.Text(1)));
  }
  return q.Int(2);
}

// A dataflow's snapshot, whole or refused: a vertex for every rank and
// every channel of its topology once.
void RefuseUnlessWholeDataflow(const Connection& c, const SnapshotRecord& s, std::size_t n,
                               const dataflow::Topology& t) {
  if (s.vertices.size() != n || !s.balances.empty()) {
    c.Refuse(fmt::format("snapshot {} has {} vertices and {} balances for a dataflow of {} ranks",
                         s.id, s.vertices.size(), s.balances.size(), n));
  }
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (const StoredChannel& ch : s.channels) {
    if (!seen.insert({ch.from, ch.to}).second) {
      c.Refuse(fmt::format("snapshot {}: channel {} twice", s.id,
                           ChannelText(std::to_string(ch.from), std::to_string(ch.to))));
    }
  }
  if (seen != TopologyChannels(t)) {
    c.Refuse(fmt::format("snapshot {}: its channels are not those of topology {}", s.id, t.spec()));
  }
}

// Whole or refused: a balance for every rank, every ordered pair once, and
// a recording time for every rank if any.
void RefuseUnlessWhole(const Connection& c, const SnapshotRecord& s, std::size_t n) {
  if (!s.vertices.empty()) {
    c.Refuse(fmt::format("snapshot {} has vertices, but its run is no dataflow", s.id));
  }
  if (s.balances.size() != n) {
    c.Refuse(fmt::format("snapshot {} has {} balances for {} ranks", s.id,
                         s.balances.size(), n));
  }
  if (s.channels.size() != n * (n - 1)) {
    c.Refuse(fmt::format("snapshot {} has {} channels; {} ranks have {}", s.id,
                         s.channels.size(), n, n * (n - 1)));
  }
  std::vector<bool> seen(n * n, false);
  for (const StoredChannel& ch : s.channels) {
    if (ch.from >= n || ch.to >= n || ch.from == ch.to || seen[ch.from * n + ch.to]) {
      c.Refuse(fmt::format("snapshot {}: channel {} is not one of the run's, or twice", s.id,
                           ChannelText(std::to_string(ch.from), std::to_string(ch.to))));
    }
    seen[ch.from * n + ch.to] = true;
  }
  if (!s.recorded_us.empty() && s.recorded_us.size() != n) {
    c.Refuse(fmt::format("snapshot {} has {} recording times for {} ranks", s.id,
                         s.recorded_us.size(), n));
  }
}

// Writes the balances, the channels and their transfers of `s`, whole for
// `n` ranks, and returns their sum: the snapshot's total, refused when it
// does not fit in 64 bits. (A dataflow's snapshot has no balances, and its
// channels hold keys: its total is WriteVertices'.)
Amount WriteParts(Connection& c, const SnapshotRecord& s, std::int64_t id, std::size_t n,
                  const std::string& doing) {
  Amount total = 0;
  auto add = [&](Amount a) {
    if (__builtin_add_overflow(total, a, &total)) {
      c.Refuse(fmt::format("snapshot {}: its total does not fit in 64 bits", s.id));
    }
  };
  if (!s.balances.empty()) {
    Query q(c,
            "INSERT INTO balances (snapshot, rank, balance, recorded_us) VALUES (?, ?, ?, ?)",
            doing);
    for (std::size_t r = 0; r < n; ++r) {
      q.Bind(1, id).Bind(2, static_cast<std::int64_t>(r)).Bind(3, s.balances[r]);
      if (s.recorded_us.empty() || s.recorded_us[r] == 0) {
        q.BindNull(4);
      } else {
        q.Bind(4, s.recorded_us[r]);
      }
      q.Run();
      add(s.balances[r]);
    }
  }
  {
    Query channel(c,
                  "INSERT INTO channels (snapshot, from_rank, to_rank, marker_us, unaligned, "
                  "waited_us, held_back) VALUES (?, ?, ?, ?, ?, ?, ?)",
                  doing);
    Query transfer(c,
                   "INSERT INTO transfers (snapshot, from_rank, to_rank, position, amount) "
                   "VALUES (?, ?, ?, ?, ?)",
                   doing);
    for (const StoredChannel& ch : s.channels) {
      channel.Bind(1, id).Bind(2, ch.from).Bind(3, ch.to);
      if (ch.marker_us) {
        channel.Bind(4, *ch.marker_us);
      } else {
        channel.BindNull(4);
      }
      if (ch.cost) {
        channel.Bind(5, std::int64_t{ch.cost->unaligned ? 1 : 0})
            .Bind(6, ch.cost->waited_us)
            .Bind(7, static_cast<std::int64_t>(ch.cost->held_back));
      } else {
        channel.BindNull(5).BindNull(6).BindNull(7);
      }
      channel.Run();
      for (std::size_t i = 0; i < ch.transfers.size(); ++i) {
        transfer.Bind(1, id).Bind(2, ch.from).Bind(3, ch.to)
            .Bind(4, static_cast<std::int64_t>(i)).Bind(5, ch.transfers[i]).Run();
        add(ch.transfers[i]);
      }
    }
  }
  return total;
}

// A dataflow's vertices (instead of balances): each one's state, its keyed
// counts as a JSON list of [key, count] pairs, and its cost. Returns the
// snapshot's total: the records its sources had emitted.
Amount WriteVertices(Connection& c, const SnapshotRecord& s, std::int64_t id,
                     const dataflow::Topology& t, const std::string& doing) {
  Amount total = 0;
  Query q(c,
          "INSERT INTO vertices (snapshot, rank, received, emitted, per_key, alignment_us, "
          "switched, overtaken) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
          doing);
  for (std::uint32_t r = 0; r < s.vertices.size(); ++r) {
    const StoredVertex& v = s.vertices[r];
    const std::string per_key = nlohmann::json(v.per_key).dump();  // outlives the run
    q.Bind(1, id).Bind(2, std::int64_t{r}).Bind(3, static_cast<std::int64_t>(v.received))
        .Bind(4, static_cast<std::int64_t>(v.emitted)).Bind(5, per_key.c_str())
        .Bind(6, v.alignment_us).Bind(7, std::int64_t{v.switched ? 1 : 0})
        .Bind(8, static_cast<std::int64_t>(v.overtaken)).Run();
    if (t.RoleOf(r) == dataflow::Role::kSource &&
        __builtin_add_overflow(total, static_cast<Amount>(v.emitted), &total)) {
      c.Refuse(fmt::format("snapshot {}: its total does not fit in 64 bits", s.id));
    }
  }
  return total;
}

// A jobs or locks snapshot's verdict, its reason as two JSON lists.
void WriteVerdict(Connection& c, std::int64_t id, const StoredVerdict& v,
                  const std::string& doing) {
  std::vector<std::vector<std::uint32_t>> pairs;
  for (const auto& [from, to] : v.channels) pairs.push_back({from, to});
  // Bound texts must outlive the statement's run.
  const std::string branches = nlohmann::json(v.branches).dump();
  const std::string channels = nlohmann::json(pairs).dump();
  Query q(c,
          "INSERT INTO verdicts (snapshot, property, holds, branches, channels) "
          "VALUES (?, ?, ?, ?, ?)",
          doing);
  q.Bind(1, id).Bind(2, v.property.c_str()).Bind(3, std::int64_t{v.holds ? 1 : 0})
      .Bind(4, branches.c_str()).Bind(5, channels.c_str()).Run();
}

}  // namespace

std::int64_t Store::BeginRun(std::uint32_t ranks, Amount balance, Amount total,
                             std::optional<std::uint64_t> restored_from, const std::string& app,
                             const std::optional<StoredDataflow>& dataflow) {
  Connection& c = *impl_;
  const std::string doing = "beginning a run";
  if (ranks == 0) c.Refuse("a run needs at least one rank");
  // A run whose ranks are vertices (a dataflow's), and only such a run.
  const std::optional<apps::App> named = apps::App::Find(app);
  if ((named && named->vertices()) != dataflow.has_value()) {
    c.Refuse("a dataflow's run, and only one, gives its topology");
  }
  if (dataflow) {
    StatusOr<dataflow::Topology> t = dataflow::Topology::Parse(dataflow->topology);
    if (!t.ok() || t->vertices() != ranks) {
      c.Refuse(fmt::format("topology '{}' is not one of {} ranks", dataflow->topology, ranks));
    }
  }
  Transaction tx(c, true, doing);
  if (restored_from) {
    Query q(c,
            "SELECT s.status, r.ranks FROM snapshots s JOIN runs r ON r.id = s.run "
            "WHERE s.id = ?",
            doing);
    q.Bind(1, SqlId(c, *restored_from));
    if (!q.Step()) c.Refuse(fmt::format("no snapshot {} to restore from", *restored_from));
    if (q.Text(0) != "complete") {
      c.Refuse(fmt::format("snapshot {} is {}, not complete: a run cannot restore from it",
                           *restored_from, q.Text(0)));
    }
    if (q.Int(1) != ranks) {
      c.Refuse(fmt::format("snapshot {} has {} ranks, not {}", *restored_from, q.Int(1),
                           ranks));
    }
    const std::optional<dataflow::Topology> origin =
        RunTopology(c, kSchemaVersion, RunOf(c, *restored_from, doing));
    if (origin.has_value() != dataflow.has_value() ||
        (dataflow && origin->spec() != dataflow->topology)) {
      c.Refuse(fmt::format("snapshot {} is not of a run of the same application and topology",
                           *restored_from));
    }
  }
  std::int64_t id = 0;
  {
    Query q(c,
            "INSERT INTO runs (started_us, ranks, balance, total, restored_from, status, "
            "transfers, updated_us, app) VALUES (?, ?, ?, ?, ?, 'live', 0, ?, ?)",
            doing);
    const std::int64_t now = NowUs();
    q.Bind(1, now).Bind(2, ranks).Bind(3, balance).Bind(4, total).Bind(6, now).Bind(7, app.c_str());
    if (restored_from) {
      q.Bind(5, SqlId(c, *restored_from));
    } else {
      q.BindNull(5);
    }
    q.Run();
    id = c.LastInsertRowid();
  }
  if (dataflow) {
    Query q(c,
            "INSERT INTO dataflows (run, topology, algorithm, buffers, alignment_timeout_us) "
            "VALUES (?, ?, ?, ?, ?)",
            doing);
    q.Bind(1, id).Bind(2, dataflow->topology.c_str()).Bind(3, dataflow->algorithm.c_str())
        .Bind(4, std::int64_t{dataflow->buffers});
    if (dataflow->alignment_timeout_us) {
      q.Bind(5, *dataflow->alignment_timeout_us);
    } else {
      q.BindNull(5);
    }
    q.Run();
  }
  tx.Commit();
  return id;
}

void Store::SnapshotStarted(std::int64_t run, std::uint64_t id, std::uint32_t initiator,
                            std::int64_t started_us) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("starting snapshot {}", id);
  Transaction tx(c, true, doing);
  {
    Query q(c, "SELECT ranks FROM runs WHERE id = ?", doing);
    q.Bind(1, run);
    if (!q.Step()) c.Refuse(fmt::format("no run {}", run));
    if (initiator >= q.Int(0)) {
      c.Refuse(fmt::format("run {} has no rank {}", run, initiator));
    }
  }
  {
    Query q(c, "SELECT 1 FROM snapshots WHERE id = ?", doing);
    q.Bind(1, SqlId(c, id));
    if (q.Step()) c.Refuse(fmt::format("snapshot {} is already in the store", id));
  }
  {
    Query q(c,
            "INSERT INTO snapshots (id, run, initiator, started_us, status) "
            "VALUES (?, ?, ?, ?, 'running')",
            doing);
    q.Bind(1, SqlId(c, id)).Bind(2, run).Bind(3, initiator).Bind(4, started_us);
    q.Run();
  }
  tx.Commit();
}

void Store::SnapshotComplete(const SnapshotRecord& s) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("completing snapshot {}", s.id);
  const std::int64_t id = SqlId(c, s.id);
  Transaction tx(c, true, doing);
  const auto n = static_cast<std::size_t>(RunningSnapshotRanks(c, s, id, doing));
  const std::optional<dataflow::Topology> topology = RunTopology(c, kSchemaVersion, s.run);
  if (topology) {
    RefuseUnlessWholeDataflow(c, s, n, *topology);
  } else {
    RefuseUnlessWhole(c, s, n);
  }
  Amount total = WriteParts(c, s, id, n, doing);
  if (topology) total = WriteVertices(c, s, id, *topology, doing);
  {
    Query q(c,
            "UPDATE snapshots SET status = 'complete', completed_us = ?, total = ? "
            "WHERE id = ?",
            doing);
    q.Bind(1, s.completed_us).Bind(2, total).Bind(3, id).Run();
  }
  if (s.verdict) WriteVerdict(c, id, *s.verdict, doing);
  tx.Commit();
}

const char* Store::FailureName(Failure f) {
  switch (f) {
    case Failure::kTimeout: return "timeout";
    case Failure::kRunEnded: return "run_ended";
    case Failure::kRunDied: return "run_died";
  }
  return "run_ended";
}

void Store::SnapshotFailed(std::int64_t run, std::uint64_t id, Failure why,
                           const std::vector<std::uint32_t>& missing) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("failing snapshot {}", id);
  Transaction tx(c, true, doing);
  {
    Query q(c, "SELECT run, status FROM snapshots WHERE id = ?", doing);
    q.Bind(1, SqlId(c, id));
    if (!q.Step()) c.Refuse(fmt::format("no snapshot {} to fail", id));
    if (q.Int(0) != run) {
      c.Refuse(fmt::format("snapshot {} belongs to run {}, not {}", id, q.Int(0), run));
    }
    if (q.Text(1) == "complete") {
      c.Refuse(fmt::format("snapshot {} is complete; it cannot fail", id));
    }
  }
  {
    Query q(c,
            "UPDATE snapshots SET status = 'failed', failure = ?, missing = ? "
            "WHERE id = ? AND status = 'running'",
            doing);
    const std::string ranks = nlohmann::json(missing).dump();  // outlives the run
    q.Bind(1, FailureName(why));
    if (missing.empty()) {
      q.BindNull(2);
    } else {
      q.Bind(2, ranks.c_str());
    }
    q.Bind(3, SqlId(c, id)).Run();
  }
  tx.Commit();
}

void Store::FailRunning(std::int64_t run) {
  Connection& c = *impl_;
  Query q(c,
          "UPDATE snapshots SET status = 'failed', failure = 'run_died' "
          "WHERE run = ? AND status = 'running'",
          fmt::format("failing the running snapshots of run {}", run));
  q.Bind(1, run).Run();
}

void Store::RunProgress(std::int64_t run, std::uint64_t transfers, std::int64_t now_us) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("recording the progress of run {}", run);
  Query q(c,
          "UPDATE runs SET transfers = ?, updated_us = ? WHERE id = ? AND status = 'live'",
          doing);
  q.Bind(1, static_cast<std::int64_t>(transfers)).Bind(2, now_us).Bind(3, run).Run();
}

void Store::EndRun(std::int64_t run, bool died, std::optional<std::uint64_t> transfers,
                   std::int64_t now_us) {
  Connection& c = *impl_;
  const std::string doing = fmt::format("ending run {}", run);
  Transaction tx(c, true, doing);
  {
    Query q(c, "SELECT status FROM runs WHERE id = ?", doing);
    q.Bind(1, run);
    if (!q.Step()) c.Refuse(fmt::format("no run {}", run));
    if (q.Text(0) != "live") {
      c.Refuse(fmt::format("run {} is {}, not live: it cannot end again", run,
                           q.IsNull(0) ? "of schema 1" : q.Text(0)));
    }
  }
  {
    Query q(c,
            "UPDATE runs SET status = ?, ended_us = ?, "
            "updated_us = CASE WHEN ? THEN updated_us ELSE ? END, "
            "transfers = COALESCE(?, transfers) WHERE id = ?",
            doing);
    // A run that died keeps its last heartbeat: its count is that moment's.
    q.Bind(1, died ? "died" : "ended").Bind(2, now_us).Bind(3, died ? 1 : 0).Bind(4, now_us);
    if (transfers) {
      q.Bind(5, static_cast<std::int64_t>(*transfers));
    } else {
      q.BindNull(5);
    }
    q.Bind(6, run).Run();
  }
  {
    Query q(c,
            "UPDATE snapshots SET status = 'failed', failure = ? "
            "WHERE run = ? AND status = 'running'",
            doing);
    q.Bind(1, FailureName(died ? Failure::kRunDied : Failure::kRunEnded)).Bind(2, run).Run();
  }
  tx.Commit();
}

void Store::SetMaxPages(std::uint32_t pages) {
  Connection& c = *impl_;
  std::string sql = fmt::format("PRAGMA max_page_count = {}", pages);
  c.Exec(sql.c_str(), "limiting the file's size");
}

}  // namespace cutline::store
