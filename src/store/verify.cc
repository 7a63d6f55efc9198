// Verifying the store: every run's row and every snapshot re-checked
// against the store's rules, reading only, in one read transaction
// (docs/store.md, "Verifying a store").
#include "store/store.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "store/schema.h"
#include "store/sqlite.h"
#include "store/store_internal.h"

#include <nlohmann/json.hpp>

#include "base/lang.h"
#include "dataflow/property.h"

namespace cutline::store {
namespace {

// A run's row as Verify needs it.
struct RunRow {
  std::int64_t ranks = 0;
  Amount balance = 0, total = 0;
  std::optional<std::int64_t> restored_from;
  std::optional<std::string> status;  // nullopt: NULL (a version-1 row, or no column)
  bool bank = true;  // schema 4: a run of jobs or locks conserves no total
  // Schema 5: a dataflow's topology; its snapshots hold vertices, not
  // balances, and conserve the records at every stage boundary.
  std::optional<dataflow::Topology> topology;
};

std::map<std::int64_t, RunRow> RunRows(Connection& c, std::uint32_t version) {
  std::map<std::int64_t, RunRow> runs;
  Query q(c,
          version >= 4   ? "SELECT id, ranks, balance, total, restored_from, status, app FROM runs"
          : version >= 2 ? "SELECT id, ranks, balance, total, restored_from, status, NULL FROM runs"
                         : "SELECT id, ranks, balance, total, restored_from, NULL, NULL FROM runs",
          "verifying the runs");
  while (q.Step()) {
    RunRow r;
    r.ranks = q.Int(1);
    r.balance = q.Int(2);
    r.total = q.Int(3);
    if (!q.IsNull(4)) r.restored_from = q.Int(4);
    if (!q.IsNull(5)) r.status = q.Text(5);
    r.bank = q.IsNull(6) || q.Text(6) == "bank";
    runs[q.Int(0)] = r;
  }
  for (auto& [id, r] : runs) r.topology = RunTopology(c, version, id);
  return runs;
}

// A snapshot's row, read raw: Verify must see a NULL where SnapshotRow
// would read 0.
struct SnapshotRow_ {
  std::int64_t id = 0, run = 0, initiator = 0;
  std::optional<std::int64_t> completed_us, total;
  std::string status;
};

constexpr const char* kRawSnapshotColumns =
    "SELECT id, run, initiator, completed_us, status, total FROM snapshots";

SnapshotRow_ RawSnapshotRow(const Query& q) {
  SnapshotRow_ s;
  s.id = q.Int(0);
  s.run = q.Int(1);
  s.initiator = q.Int(2);
  if (!q.IsNull(3)) s.completed_us = q.Int(3);
  s.status = q.Text(4);
  if (!q.IsNull(5)) s.total = q.Int(5);
  return s;
}

// A list as the catalogues say it: its first few named ("N0->N1, N0->N2,
// N1->N0") and how many more there are.
constexpr std::size_t kNamed = 3;
struct FirstFew {
  std::string names;
  std::int64_t more = 0;
  explicit FirstFew(const std::vector<std::string>& items) {
    for (std::size_t i = 0; i < items.size() && i < kNamed; ++i) {
      names += (i ? ", " : "") + items[i];
    }
    if (items.size() > kNamed) more = static_cast<std::int64_t>(items.size() - kNamed);
  }
};

// Problems of one kind (gaps, negative amounts): the first few, then how
// many more.
void AddFirstFew(const std::vector<Status>& items, std::vector<Status>* problems) {
  for (std::size_t i = 0; i < items.size() && i < kNamed; ++i) problems->push_back(items[i]);
  if (items.size() > kNamed) {
    problems->push_back(Status::Error(Code::kVerifyMore, items.size() - kNamed));
  }
}

std::string Rank(std::int64_t r) {
  return r >= 0 && r <= std::numeric_limits<std::uint32_t>::max()
             ? BranchName(static_cast<std::uint32_t>(r))
             : fmt::format("rank {}", r);
}
std::string Channel(std::int64_t from, std::int64_t to) {
  return ChannelText(Rank(from), Rank(to));
}

// Adds without overflowing; false once the sum no longer fits.
bool Add(Amount* sum, Amount a) { return !__builtin_add_overflow(*sum, a, sum); }

// CheckSnapshot's steps. It reads a snapshot's parts in three passes
// (balances, channels, transfers), then judges what they show against the
// snapshot's status; one function per pass and per judgement keeps each
// short enough to read, and PartsSeen carries what the passes found to the
// judgements. The problems come out in the order they always have.

// The ranks of the snapshot's run, as the checks ask about one. Without a
// run's row every rank is taken as in range: the missing run is the news,
// not its parts.
struct RunRanks {
  const RunRow* run = nullptr;
  std::int64_t n = 0;  // its ranks; 0 without a run
  // A dataflow's channels (its topology's edges), listed once per snapshot.
  std::optional<std::set<std::pair<std::int64_t, std::int64_t>>> edges;
  bool Has(std::int64_t r) const { return run == nullptr || (r >= 0 && r < n); }
  // A channel the run has: a dataflow's edge, or an ordered pair of ranks.
  bool HasChannel(std::int64_t from, std::int64_t to) const {
    if (edges) return edges->contains({from, to});
    return Has(from) && Has(to) && from != to;
  }
};

// What the three passes found in one snapshot's parts.
struct PartsSeen {
  std::int64_t balance_rows = 0, channel_rows = 0, transfer_rows = 0;
  bool overflow = false;  // the parts add up to more than 64 bits hold
  Amount sum = 0;
  std::vector<bool> has_part;                // by rank of the run: its balance is there
  std::vector<std::string> stray;            // balances of no rank
  std::vector<Status> negative, gaps;        // negative amounts; transfers out of place
  std::set<std::pair<std::int64_t, std::int64_t>> channels;  // recorded, (from, to)
  std::vector<std::string> stray_channels;  // recorded channels that are not the run's
  std::vector<std::string> unrecorded;  // transfers on no recorded channel
  // A dataflow's: each vertex by rank, and each channel's records (keys).
  std::map<std::uint32_t, dataflow::Part> vertices;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::uint64_t>> records;
  std::vector<Status> keyed;  // vertices whose keyed counts are not their records
};

// Balances: one per rank of the run, none negative.
void ReadBalances(Connection& c, const SnapshotRow_& s, const RunRanks& ranks,
                  const std::string& doing, PartsSeen* seen) {
  PartsSeen& p = *seen;
  p.has_part.assign(static_cast<std::size_t>(std::max<std::int64_t>(ranks.n, 0)), false);
  Query q(c, "SELECT rank, balance FROM balances WHERE snapshot = ? ORDER BY rank", doing);
  q.Bind(1, s.id);
  while (q.Step()) {
    ++p.balance_rows;
    const std::int64_t r = q.Int(0);
    const Amount b = q.Int(1);
    if (!ranks.Has(r)) {
      p.stray.push_back(Rank(r));
    } else if (ranks.run != nullptr) {
      p.has_part[static_cast<std::size_t>(r)] = true;
    }
    if (b < 0) p.negative.push_back(Status::Error(Code::kVerifyNegativeBalance, Rank(r), b));
    p.overflow |= !Add(&p.sum, b);
  }
}

// A dataflow's vertices (schema 5), one per rank, in place of balances:
// the sum is the records the sources emitted (the snapshot's total), and
// an operator's or sink's keyed counts add up to the records it received.
void ReadVertices(Connection& c, const SnapshotRow_& s, const RunRanks& ranks,
                  const std::string& doing, PartsSeen* seen) {
  PartsSeen& p = *seen;
  p.has_part.assign(static_cast<std::size_t>(std::max<std::int64_t>(ranks.n, 0)), false);
  Query q(c, "SELECT rank, received, emitted, per_key FROM vertices WHERE snapshot = ? ORDER BY rank",
          doing);
  q.Bind(1, s.id);
  while (q.Step()) {
    ++p.balance_rows;
    const std::int64_t r = q.Int(0);
    if (!ranks.Has(r) || ranks.run == nullptr) {
      p.stray.push_back(Rank(r));
      continue;
    }
    p.has_part[static_cast<std::size_t>(r)] = true;
    dataflow::Part& part = p.vertices[static_cast<std::uint32_t>(r)];
    part.state.received = static_cast<std::uint64_t>(q.Int(1));
    part.state.emitted = static_cast<std::uint64_t>(q.Int(2));
    const dataflow::Topology& t = *ranks.run->topology;
    if (t.RoleOf(static_cast<std::uint32_t>(r)) == dataflow::Role::kSource) {
      p.overflow |= !Add(&p.sum, q.Int(2));
      continue;
    }
    std::int64_t keyed = 0;
    try {
      for (const auto& pair : nlohmann::json::parse(q.Text(3))) {
        keyed += pair.at(1).get<std::int64_t>();
      }
    } catch (const std::exception&) {
      keyed = -1;
    }
    if (keyed != q.Int(1)) {
      p.keyed.push_back(Status::Error(Code::kVerifyKeyedCounts, Rank(r), keyed, q.Int(1)));
    }
  }
}

// A dataflow's snapshot conserves the records at every stage boundary
// (dataflow::Conservation, the rule the run judged it by).
void JudgeConservation(const RunRanks& ranks, PartsSeen* seen, std::vector<Status>* problems) {
  PartsSeen& p = *seen;
  const dataflow::Topology& t = *ranks.run->topology;
  if (p.vertices.size() != t.vertices()) return;  // parts missing: said already
  for (auto& [v, part] : p.vertices) {
    const std::vector<std::uint32_t> inputs = t.Inputs(v);
    part.channels.resize(inputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) part.channels[i] = p.records[{inputs[i], v}];
  }
  for (const dataflow::Boundary& b : dataflow::Conservation(t, p.vertices)) {
    if (!b.holds()) {
      problems->push_back(Status::Error(Code::kVerifyNotConserved, b.stage, b.emitted, b.received,
                                        b.in_flight));
    }
  }
}

// Channels: every ordered pair of the run's ranks, once (the primary key).
void ReadChannels(Connection& c, const SnapshotRow_& s, const RunRanks& ranks,
                  const std::string& doing, PartsSeen* seen) {
  PartsSeen& p = *seen;
  Query q(c, "SELECT from_rank, to_rank FROM channels WHERE snapshot = ?", doing);
  q.Bind(1, s.id);
  while (q.Step()) {
    ++p.channel_rows;
    const std::int64_t from = q.Int(0), to = q.Int(1);
    if (!ranks.HasChannel(from, to)) p.stray_channels.push_back(Channel(from, to));
    p.channels.insert({from, to});
  }
}

// Transfers: on a recorded channel (ReadChannels first), at positions 0,
// 1, ... , none negative.
void ReadTransfers(Connection& c, const SnapshotRow_& s, const std::string& doing,
                   PartsSeen* seen) {
  PartsSeen& p = *seen;
  Query q(c,
          "SELECT from_rank, to_rank, position, amount FROM transfers WHERE snapshot = ? "
          "ORDER BY from_rank, to_rank, position",
          doing);
  q.Bind(1, s.id);
  std::pair<std::int64_t, std::int64_t> at{-1, -1};
  std::int64_t next = 0;
  while (q.Step()) {
    ++p.transfer_rows;
    const std::pair<std::int64_t, std::int64_t> ch{q.Int(0), q.Int(1)};
    const std::int64_t position = q.Int(2);
    const Amount amount = q.Int(3);
    if (ch != at) {
      at = ch;
      next = 0;
      if (p.channels.count(ch) == 0) p.unrecorded.push_back(Channel(ch.first, ch.second));
    }
    if (position != next) {
      p.gaps.push_back(Status::Error(Code::kVerifyTransferGap, Channel(ch.first, ch.second),
                                     position, next));
      next = position;  // one report per gap, not one per later transfer
    }
    ++next;
    if (p.channels.count(ch) != 0 && ch.second >= 0) {
      p.records[ch].push_back(static_cast<std::uint64_t>(amount));
    }
    if (amount < 0) {
      p.negative.push_back(
          Status::Error(Code::kVerifyNegativeTransfer, amount, Channel(ch.first, ch.second)));
    }
    p.overflow |= !Add(&p.sum, amount);
  }
}

// A complete snapshot of a run in the store: the ranks' parts and the
// channels it lacks.
void JudgeMissing(const RunRanks& ranks, const PartsSeen& p, std::vector<Status>* problems) {
  const std::int64_t n = ranks.n;
  std::vector<std::string> missing;
  for (std::int64_t r = 0; r < n; ++r) {
    if (!p.has_part[static_cast<std::size_t>(r)]) missing.push_back(Rank(r));
  }
  if (missing.size() == 1) {
    problems->push_back(Status::Error(Code::kVerifyPartMissing, missing[0]));
  } else if (!missing.empty()) {
    const FirstFew few(missing);
    problems->push_back(
        Status::Error(Code::kVerifyPartsMissing, few.names, few.more, missing.size(), n));
  }
  std::vector<std::string> missing_channels;
  std::int64_t expected = 0;
  auto expect = [&](std::int64_t from, std::int64_t to) {
    ++expected;
    if (p.channels.count({from, to}) == 0) missing_channels.push_back(Channel(from, to));
  };
  if (ranks.edges) {
    for (const auto& [from, to] : *ranks.edges) expect(from, to);
  } else {
    for (std::int64_t from = 0; from < n; ++from) {
      for (std::int64_t to = 0; to < n; ++to) {
        if (from != to) expect(from, to);
      }
    }
  }
  if (!missing_channels.empty()) {
    const FirstFew few(missing_channels);
    problems->push_back(Status::Error(Code::kVerifyChannelsMissing, few.names, few.more,
                                      missing_channels.size(), expected));
  }
}

// A complete snapshot: whole, every part in its place and its shape, and
// adding up to its total (and, for the bank, to its run's).
void JudgeComplete(const SnapshotRow_& s, const RunRanks& ranks, PartsSeen& p,
                   std::vector<Status>* problems) {
  const RunRow* run = ranks.run;
  if (!s.completed_us) problems->push_back(Status::Error(Code::kVerifyNoCompletionTime));
  if (run != nullptr) JudgeMissing(ranks, p, problems);
  if (!p.stray.empty()) {
    const FirstFew few(p.stray);
    problems->push_back(Status::Error(Code::kVerifyStrayPart, few.names, few.more, s.run));
  }
  if (!p.stray_channels.empty()) {
    const FirstFew few(p.stray_channels);
    problems->push_back(Status::Error(Code::kVerifyStrayChannel, few.names, few.more, s.run));
  }
  if (!p.unrecorded.empty()) {
    const FirstFew few(p.unrecorded);
    problems->push_back(Status::Error(Code::kVerifyUnrecorded, few.names, few.more));
  }
  AddFirstFew(p.gaps, problems);
  AddFirstFew(p.negative, problems);
  AddFirstFew(p.keyed, problems);
  if (!s.total) {
    problems->push_back(Status::Error(Code::kVerifyNoTotal));
  } else if (p.overflow) {
    problems->push_back(Status::Error(Code::kVerifySumOverflow));
  } else if (p.sum != *s.total) {
    problems->push_back(Status::Error(Code::kVerifySumNotTotal, p.sum, *s.total));
  }
  if (s.total && run != nullptr && run->bank && *s.total != run->total) {
    problems->push_back(Status::Error(Code::kVerifyTotalNotRuns, *s.total, s.run, run->total));
  }
  if (run != nullptr && run->topology) JudgeConservation(ranks, &p, problems);
}

// A failed or running snapshot: only a complete snapshot has parts, a total
// and a completion time.
void JudgeIncomplete(const SnapshotRow_& s, const PartsSeen& p,
                     std::vector<Status>* problems) {
  if (s.total) problems->push_back(Status::Error(Code::kVerifyIncompleteTotal, s.status));
  if (s.completed_us) {
    problems->push_back(Status::Error(Code::kVerifyIncompleteTime, s.status));
  }
  if (p.balance_rows + p.channel_rows + p.transfer_rows > 0) {
    problems->push_back(Status::Error(Code::kVerifyIncompleteParts, s.status, p.balance_rows,
                                      p.channel_rows, p.transfer_rows));
  }
}

// Everything wrong with one snapshot (nothing when sound). Runs inside the
// caller's read transaction.
std::vector<Status> CheckSnapshot(Connection& c, const std::map<std::int64_t, RunRow>& runs,
                                  const SnapshotRow_& s) {
  const std::string doing = fmt::format("verifying snapshot {}", s.id);
  std::vector<Status> problems;
  auto run_it = runs.find(s.run);
  const RunRow* run = run_it == runs.end() ? nullptr : &run_it->second;
  const std::int64_t n = run ? run->ranks : 0;
  RunRanks ranks{run, n, std::nullopt};
  if (run != nullptr && run->topology) ranks.edges = TopologyChannels(*run->topology);

  if (run == nullptr) problems.push_back(Status::Error(Code::kVerifyRunMissing, s.run));
  // A rank count no run could have (the row is damaged) would have the
  // checks below list billions of missing parts: that run's row is the news.
  constexpr std::int64_t kMostRanks = 1 << 20;
  if (run != nullptr && (n < 1 || n > kMostRanks)) {
    return {Status::Error(Code::kVerifyRunRanks, s.run, n)};
  }
  const bool complete = s.status == "complete";
  if (!complete && s.status != "failed" && s.status != "running") {
    problems.push_back(Status::Error(Code::kVerifySnapshotStatus, s.status));
  }
  if (!ranks.Has(s.initiator)) {
    problems.push_back(Status::Error(Code::kVerifyInitiator, Rank(s.initiator), s.run, n));
  }

  PartsSeen seen;
  const bool dataflow = run != nullptr && run->topology;
  if (!dataflow) ReadBalances(c, s, ranks, doing, &seen);
  ReadChannels(c, s, ranks, doing, &seen);
  ReadTransfers(c, s, doing, &seen);
  if (dataflow) {
    // Its channels hold keys, not money: its sum is its sources' records.
    seen.sum = 0;
    seen.overflow = false;
    ReadVertices(c, s, ranks, doing, &seen);
  }
  if (complete) {
    JudgeComplete(s, ranks, seen, &problems);
  } else {
    JudgeIncomplete(s, seen, &problems);
  }
  return problems;
}

// Everything wrong with a run's row (nothing when sound).
std::vector<Status> CheckRun(Connection& c, std::int64_t id, const RunRow& r) {
  const std::string doing = fmt::format("verifying run {}", id);
  std::vector<Status> problems;
  if (r.ranks < 1) problems.push_back(Status::Error(Code::kVerifyRankCount, r.ranks));
  if (r.balance < 0) problems.push_back(Status::Error(Code::kVerifyNegativeStart, r.balance));
  if (r.status && *r.status != "live" && *r.status != "ended" && *r.status != "died") {
    problems.push_back(Status::Error(Code::kVerifyRunStatus, *r.status));
  }
  if (!r.restored_from) {
    Amount total = 0;
    if (__builtin_mul_overflow(r.balance, r.ranks, &total) || total != r.total) {
      problems.push_back(Status::Error(Code::kVerifyRunTotal, r.total, r.ranks, r.balance));
    }
  } else {
    // The run began from that snapshot: it must be there, complete, of the
    // same ranks, and the run's total is its total.
    Query q(c,
            "SELECT s.status, s.total, r.ranks FROM snapshots s LEFT JOIN runs r ON r.id = s.run "
            "WHERE s.id = ?",
            doing);
    q.Bind(1, *r.restored_from);
    if (!q.Step()) {
      problems.push_back(Status::Error(Code::kVerifyOriginMissing, *r.restored_from));
    } else if (q.Text(0) != "complete") {
      problems.push_back(
          Status::Error(Code::kVerifyOriginNotComplete, *r.restored_from, q.Text(0)));
    } else {
      if (!q.IsNull(2) && q.Int(2) != r.ranks) {
        problems.push_back(
            Status::Error(Code::kVerifyOriginRanks, r.ranks, *r.restored_from, q.Int(2)));
      }
      if (!q.IsNull(1) && q.Int(1) != r.total) {
        problems.push_back(
            Status::Error(Code::kVerifyOriginTotal, r.total, q.Int(1), *r.restored_from));
      }
    }
  }
  return problems;
}

}  // namespace

Verification Store::Verify() const {
  Connection& c = *impl_;
  const std::string doing = "verifying the store";
  Transaction tx(c, false, doing);
  impl_->version = CurrentVersion(c);
  Verification v;
  // Every index against its table first: the rows checked below are read
  // through the indexes too.
  if (std::string verdict = sqlite::IntegrityCheck(c.db); !verdict.empty()) {
    v.problems.push_back(
        {Status::Error(Code::kAboutFile), {Status::Error(Code::kVerifyFileCorrupt, verdict)}});
  }
  const std::map<std::int64_t, RunRow> runs = RunRows(c, impl_->version);
  for (const auto& [id, r] : runs) {
    if (std::vector<Status> what = CheckRun(c, id, r); !what.empty()) {
      v.problems.push_back({Status::Error(Code::kAboutRun, id), std::move(what)});
    }
  }
  // By snapshot id: the snapshots' own problems, and parts of snapshots
  // that are not there (possible only where foreign keys were off).
  std::map<std::int64_t, std::vector<Status>> bad;
  {
    static const std::string sql = std::string(kRawSnapshotColumns) + " ORDER BY id";
    std::vector<SnapshotRow_> rows;
    {
      Query q(c, sql.c_str(), doing);
      while (q.Step()) rows.push_back(RawSnapshotRow(q));
    }
    for (const SnapshotRow_& s : rows) {
      ++(s.status == "complete" ? v.complete : v.other);
      if (std::vector<Status> what = CheckSnapshot(c, runs, s); !what.empty()) bad[s.id] = what;
    }
  }
  {
    Query q(c,
            impl_->version >= 5
                ? "SELECT snapshot, COUNT(*) FROM (SELECT snapshot FROM balances UNION ALL "
                  "SELECT snapshot FROM channels UNION ALL SELECT snapshot FROM transfers UNION ALL "
                  "SELECT snapshot FROM vertices) "
                  "WHERE snapshot NOT IN (SELECT id FROM snapshots) GROUP BY snapshot"
                : "SELECT snapshot, COUNT(*) FROM (SELECT snapshot FROM balances UNION ALL "
                  "SELECT snapshot FROM channels UNION ALL SELECT snapshot FROM transfers) "
                  "WHERE snapshot NOT IN (SELECT id FROM snapshots) GROUP BY snapshot",
            doing);
    while (q.Step()) {
      bad[q.Int(0)] = {Status::Error(Code::kVerifyOrphanParts, q.Int(1))};
    }
  }
  for (auto& [id, what] : bad) {
    v.problems.push_back({Status::Error(Code::kAboutSnapshot, id), std::move(what)});
  }
  tx.Commit();
  return v;
}

std::optional<Verification> Store::Verify(std::uint64_t id) const {
  Connection& c = *impl_;
  const std::int64_t sql_id = SqlId(c, id);
  const std::string doing = fmt::format("verifying snapshot {}", id);
  Transaction tx(c, false, doing);
  impl_->version = CurrentVersion(c);
  std::optional<SnapshotRow_> row;
  {
    static const std::string sql = std::string(kRawSnapshotColumns) + " WHERE id = ?";
    Query q(c, sql.c_str(), doing);
    q.Bind(1, sql_id);
    if (q.Step()) row = RawSnapshotRow(q);
  }
  if (!row) return std::nullopt;
  Verification v;
  ++(row->status == "complete" ? v.complete : v.other);
  if (std::vector<Status> what = CheckSnapshot(c, RunRows(c, impl_->version), *row);
      !what.empty()) {
    v.problems.push_back({Status::Error(Code::kAboutSnapshot, id), std::move(what)});
  }
  tx.Commit();
  return v;
}

}  // namespace cutline::store
