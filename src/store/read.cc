// Reading the store: its runs and snapshots as listed, one snapshot's full
// record, the latest complete one and the next id. Every read asks the
// file's schema first (a writer may have migrated it meanwhile) and reads
// the columns an older file lacks as unknown (docs/store.md, "Versions").
#include "store/store.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/schema.h"
#include "store/store_internal.h"

namespace cutline::store {
namespace {

// The query of the columns SnapshotRow reads (`failure` only from schema 3
// on): every snapshot by id, or one (`WHERE id = ?`). Literals that live as
// long as the program: the connection caches statements by their SQL's
// address.
const char* SnapshotsSql(std::uint32_t version, bool one) {
  auto sql = [](const char* later, const char* rest) {
    return std::string("SELECT id, run, initiator, started_us, completed_us, status, total, ") +
           later + " FROM snapshots" + rest;
  };
  static const char* const later[3] = {"NULL, NULL", "failure, NULL", "failure, missing"};
  static const std::string all[3] = {sql(later[0], " ORDER BY id"), sql(later[1], " ORDER BY id"),
                                     sql(later[2], " ORDER BY id")};
  static const std::string by_id[3] = {sql(later[0], " WHERE id = ?"),
                                       sql(later[1], " WHERE id = ?"),
                                       sql(later[2], " WHERE id = ?")};
  return (one ? by_id : all)[version >= 5 ? 2 : version >= 3 ? 1 : 0].c_str();
}

SnapshotRecord SnapshotRow(const Query& q) {
  SnapshotRecord s;
  s.id = static_cast<std::uint64_t>(q.Int(0));
  s.run = q.Int(1);
  s.initiator = static_cast<std::uint32_t>(q.Int(2));
  s.started_us = q.Int(3);
  s.completed_us = q.IsNull(4) ? 0 : q.Int(4);
  s.status = q.Text(5);
  if (!q.IsNull(6)) s.total = q.Int(6);
  if (!q.IsNull(7)) s.failure = q.Text(7);
  if (!q.IsNull(8)) {
    // A damaged list is read as unknown: it is a failed snapshot's comment.
    const nlohmann::json missing = nlohmann::json::parse(q.Text(8), nullptr, false);
    if (missing.is_array()) {
      for (const auto& r : missing) {
        if (r.is_number_unsigned()) s.missing.push_back(r.get<std::uint32_t>());
      }
    }
  }
  return s;
}

// A dataflow's vertices (schema 5), by rank, into `s`.
void ReadVertices(Connection& c, std::int64_t id, const std::string& doing, SnapshotRecord* s) {
  Query q(c,
          "SELECT received, emitted, per_key, alignment_us, switched, overtaken FROM vertices "
          "WHERE snapshot = ? ORDER BY rank",
          doing);
  q.Bind(1, id);
  while (q.Step()) {
    StoredVertex v;
    v.received = static_cast<std::uint64_t>(q.Int(0));
    v.emitted = static_cast<std::uint64_t>(q.Int(1));
    try {
      for (const auto& pair : nlohmann::json::parse(q.Text(2))) {
        v.per_key[pair.at(0).get<std::uint64_t>()] = pair.at(1).get<std::uint64_t>();
      }
    } catch (const std::exception&) {
      c.Refuse(fmt::format("snapshot {}: a vertex's keyed counts are damaged", id));
    }
    v.alignment_us = q.Int(3);
    v.switched = q.Int(4) != 0;
    v.overtaken = static_cast<std::uint64_t>(q.Int(5));
    s->vertices.push_back(std::move(v));
  }
}

// A verdict's row from column `at` on (property, holds, branches, channels):
// its reason's two JSON lists parsed, or the snapshot refused as damaged.
StoredVerdict VerdictRow(Connection& c, Query& q, int at, std::int64_t id) {
  StoredVerdict v;
  v.property = q.Text(at);
  v.holds = q.Int(at + 1) != 0;
  const nlohmann::json branches = nlohmann::json::parse(q.Text(at + 2), nullptr, false);
  const nlohmann::json channels = nlohmann::json::parse(q.Text(at + 3), nullptr, false);
  try {
    v.branches = branches.get<std::vector<std::uint32_t>>();
    for (const auto& p : channels.get<std::vector<std::vector<std::uint32_t>>>()) {
      if (p.size() != 2) throw std::invalid_argument("not a pair");
      v.channels.emplace_back(p[0], p[1]);
    }
  } catch (const std::exception&) {
    c.Refuse(fmt::format("snapshot {}: its verdict's reason is damaged", id));
  }
  return v;
}

// Dataflow snapshots' costs (schema 5), summed from their vertices and
// channels by SQL: every snapshot's, or `one`'s. The one place a
// snapshot's cost is added up, for a listing and a full record alike.
std::map<std::int64_t, StoredCost> ReadCosts(Connection& c, std::optional<std::int64_t> one) {
  std::map<std::int64_t, StoredCost> costs;
  static const char* const kVertices =
      "SELECT snapshot, MAX(alignment_us), MAX(switched) FROM vertices "
      "WHERE ?1 IS NULL OR snapshot = ?1 GROUP BY snapshot";
  static const char* const kChannels =
      "SELECT c.snapshot, COUNT(*), SUM(c.unaligned), SUM(c.held_back), "
      "(SELECT COUNT(*) FROM transfers t WHERE t.snapshot = c.snapshot) "
      "FROM channels c WHERE c.unaligned IS NOT NULL AND (?1 IS NULL OR c.snapshot = ?1) "
      "GROUP BY c.snapshot";
  const std::string doing = "reading the snapshots' costs";
  {
    Query q(c, kVertices, doing);
    if (one) q.Bind(1, *one); else q.BindNull(1);
    while (q.Step()) {
      StoredCost& cost = costs[q.Int(0)];
      cost.alignment_us = q.Int(1);
      cost.switched = q.Int(2) != 0;
    }
  }
  {
    Query q(c, kChannels, doing);
    if (one) q.Bind(1, *one); else q.BindNull(1);
    while (q.Step()) {
      StoredCost& cost = costs[q.Int(0)];
      cost.channels = static_cast<std::uint64_t>(q.Int(1));
      cost.unaligned = static_cast<std::uint64_t>(q.Int(2));
      cost.held_back = static_cast<std::uint64_t>(q.Int(3));
      cost.persisted = static_cast<std::uint64_t>(q.Int(4));
    }
  }
  return costs;
}

// The full record, inside the caller's read transaction (so that its parts
// come from one moment of the file).
std::optional<SnapshotRecord> FindIn(Connection& c, std::uint32_t version, std::int64_t id) {
  const std::string doing = fmt::format("reading snapshot {}", id);

  SnapshotRecord s;
  {
    Query q(c, SnapshotsSql(version, true), doing);
    q.Bind(1, id);
    if (!q.Step()) return std::nullopt;
    s = SnapshotRow(q);
  }
  if (s.status != "complete") return s;
  {
    Query q(c,
            version >= 2
                ? "SELECT balance, recorded_us FROM balances WHERE snapshot = ? ORDER BY rank"
                : "SELECT balance, NULL FROM balances WHERE snapshot = ? ORDER BY rank",
            doing);
    q.Bind(1, id);
    while (q.Step()) {
      s.balances.push_back(q.Int(0));
      s.recorded_us.push_back(q.IsNull(1) ? 0 : q.Int(1));
    }
  }
  std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> index;
  {
    Query q(c,
            version >= 5   ? "SELECT from_rank, to_rank, marker_us, unaligned, waited_us, held_back "
                             "FROM channels WHERE snapshot = ? ORDER BY from_rank, to_rank"
            : version >= 2 ? "SELECT from_rank, to_rank, marker_us, NULL, NULL, NULL FROM channels "
                             "WHERE snapshot = ? ORDER BY from_rank, to_rank"
                           : "SELECT from_rank, to_rank, NULL, NULL, NULL, NULL FROM channels "
                             "WHERE snapshot = ? ORDER BY from_rank, to_rank",
            doing);
    q.Bind(1, id);
    while (q.Step()) {
      index[{q.Int(0), q.Int(1)}] = s.channels.size();
      StoredChannel ch{static_cast<std::uint32_t>(q.Int(0)), static_cast<std::uint32_t>(q.Int(1)),
                       {}, std::nullopt};
      if (!q.IsNull(2)) ch.marker_us = q.Int(2);
      if (!q.IsNull(3)) {
        ch.cost = StoredChannel::Cost{q.Int(3) != 0, q.IsNull(4) ? 0 : q.Int(4),
                                      q.IsNull(5) ? 0 : static_cast<std::uint64_t>(q.Int(5))};
      }
      s.channels.push_back(std::move(ch));
    }
  }
  if (version >= 5) {
    ReadVertices(c, id, doing, &s);
    if (auto costs = ReadCosts(c, id); !costs.empty()) s.cost = costs.begin()->second;
  }
  {
    Query q(c,
            "SELECT from_rank, to_rank, amount FROM transfers WHERE snapshot = ? "
            "ORDER BY from_rank, to_rank, position",
            doing);
    q.Bind(1, id);
    while (q.Step()) {
      auto it = index.find({q.Int(0), q.Int(1)});
      // The foreign key makes this impossible in a sound file.
      if (it == index.end()) c.Refuse(fmt::format("snapshot {}: a transfer on no channel", id));
      s.channels[it->second].transfers.push_back(q.Int(2));
    }
  }
  if (version >= 4) {
    Query q(c, "SELECT property, holds, branches, channels FROM verdicts WHERE snapshot = ?",
            doing);
    q.Bind(1, id);
    if (q.Step()) s.verdict = VerdictRow(c, q, 0, id);
  }
  return s;
}

}  // namespace

std::string BranchName(std::uint32_t rank) { return fmt::format("N{}", rank); }

std::optional<dataflow::Topology> RunTopology(Connection& c, std::uint32_t version,
                                              std::int64_t run) {
  if (version < 5) return std::nullopt;
  Query q(c, "SELECT topology FROM dataflows WHERE run = ?", "reading a run's topology");
  q.Bind(1, run);
  if (!q.Step()) return std::nullopt;
  StatusOr<dataflow::Topology> t = dataflow::Topology::Parse(q.Text(0));
  if (!t.ok()) return std::nullopt;
  return *std::move(t);
}

std::vector<StoredRun> Store::Runs() const {
  Connection& c = *impl_;
  std::vector<StoredRun> runs;
  impl_->version = CurrentVersion(c);
  // Schema 1 has none of the last four columns: read as unknown.
  Query q(c,
          impl_->version >= 4   ? "SELECT id, started_us, ranks, balance, total, restored_from, "
                                  "status, ended_us, transfers, updated_us, app FROM runs ORDER BY id"
          : impl_->version >= 2 ? "SELECT id, started_us, ranks, balance, total, restored_from, "
                                  "status, ended_us, transfers, updated_us, NULL FROM runs "
                                  "ORDER BY id"
                                : "SELECT id, started_us, ranks, balance, total, restored_from, "
                                  "NULL, NULL, NULL, NULL, NULL FROM runs ORDER BY id",
          "listing runs");
  while (q.Step()) {
    StoredRun r;
    r.id = q.Int(0);
    r.started_us = q.Int(1);
    r.ranks = static_cast<std::uint32_t>(q.Int(2));
    r.balance = q.Int(3);
    r.total = q.Int(4);
    if (!q.IsNull(5)) r.restored_from = static_cast<std::uint64_t>(q.Int(5));
    r.status = q.Text(6);
    if (!q.IsNull(7)) r.ended_us = q.Int(7);
    if (!q.IsNull(8)) r.transfers = static_cast<std::uint64_t>(q.Int(8));
    if (!q.IsNull(9)) r.updated_us = q.Int(9);
    if (!q.IsNull(10)) r.app = q.Text(10);
    runs.push_back(r);
  }
  if (impl_->version >= 5) {
    Query d(c,
            "SELECT run, topology, algorithm, buffers, alignment_timeout_us FROM dataflows "
            "ORDER BY run",
            "listing runs");
    auto at = runs.begin();
    while (d.Step()) {
      while (at != runs.end() && at->id < d.Int(0)) ++at;
      if (at == runs.end() || at->id != d.Int(0)) continue;
      StoredDataflow f{d.Text(1), d.Text(2), static_cast<std::uint32_t>(d.Int(3)), std::nullopt};
      if (!d.IsNull(4)) f.alignment_timeout_us = d.Int(4);
      at->dataflow = std::move(f);
    }
  }
  return runs;
}

std::vector<SnapshotRecord> Store::Snapshots() const {
  Connection& c = *impl_;
  std::vector<SnapshotRecord> snapshots;
  impl_->version = CurrentVersion(c);
  {
    Query q(c, SnapshotsSql(impl_->version, false), "listing snapshots");
    while (q.Step()) snapshots.push_back(SnapshotRow(q));
  }
  // Jobs and locks: each complete snapshot's verdict, which a listing shows
  // in place of a total (one query; the rows are by id, as the list is).
  if (impl_->version >= 4) {
    Query q(c, "SELECT snapshot, property, holds, branches, channels FROM verdicts ORDER BY snapshot",
            "listing verdicts");
    auto at = snapshots.begin();
    while (q.Step()) {
      const std::int64_t id = q.Int(0);
      while (at != snapshots.end() && static_cast<std::int64_t>(at->id) < id) ++at;
      if (at != snapshots.end() && static_cast<std::int64_t>(at->id) == id) {
        at->verdict = VerdictRow(c, q, 1, id);
      }
    }
  }
  if (impl_->version >= 5) {
    const std::map<std::int64_t, StoredCost> costs = ReadCosts(c, std::nullopt);
    for (SnapshotRecord& s : snapshots) {
      if (auto it = costs.find(static_cast<std::int64_t>(s.id)); it != costs.end()) s.cost = it->second;
    }
  }
  return snapshots;
}

std::optional<SnapshotRecord> Store::Find(std::uint64_t id) const {
  Connection& c = *impl_;
  Transaction tx(c, false, fmt::format("reading snapshot {}", id));
  impl_->version = CurrentVersion(c);
  std::optional<SnapshotRecord> s = FindIn(c, impl_->version, SqlId(c, id));
  tx.Commit();
  return s;
}

std::optional<SnapshotRecord> Store::LatestComplete() const {
  Connection& c = *impl_;
  const std::string doing = "reading the latest complete snapshot";
  Transaction tx(c, false, doing);
  impl_->version = CurrentVersion(c);
  std::optional<SnapshotRecord> s;
  std::optional<std::int64_t> id;
  {
    Query q(c, "SELECT MAX(id) FROM snapshots WHERE status = 'complete'", doing);
    if (q.Step() && !q.IsNull(0)) id = q.Int(0);
  }
  if (id) s = FindIn(c, impl_->version, *id);
  tx.Commit();
  return s;
}

std::uint64_t Store::NextSnapshotId() const {
  Connection& c = *impl_;
  Query q(c, "SELECT COALESCE(MAX(id), 0) + 1 FROM snapshots", "finding the next snapshot id");
  q.Step();
  return static_cast<std::uint64_t>(q.Int(0));
}

std::uint64_t Store::DataVersion() const {
  Connection& c = *impl_;
  Query q(c, "PRAGMA data_version", "asking whether the store changed");
  q.Step();
  return static_cast<std::uint64_t>(q.Int(0));
}

}  // namespace cutline::store
