// Reading a store for people (a short table) and for tools (JSON whose
// snapshot object has the shape of `cutline run --json`'s, so that one set
// of tools reads both).
#include "cli/store_commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <ctime>
#include <functional>
#include <map>
#include <optional>

#include "cli/refuse.h"
#include "scenario/format.h"
#include "scenario/json_output.h"
#include "catalogue/messages.h"
#include "store/store.h"
#include "store/store_json.h"

namespace cutline::cli {
namespace {

using scenario::Json;
using store::SnapshotRecord;

// "2024-05-01 12:00:00 UTC", from microseconds since the epoch.
std::string When(std::int64_t us) {
  std::time_t t = static_cast<std::time_t>(us / 1'000'000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

// A complete snapshot's latency; a failed one's reason, where known, and
// the parts it never got ("(timeout: no part from N2, N4)").
std::string Latency(const SnapshotRecord& s) {
  if (s.status == "failed" && !s.failure.empty()) {
    std::string from;
    for (std::uint32_t r : s.missing) from += (from.empty() ? "" : ", ") + store::BranchName(r);
    return "(" + s.failure + (from.empty() ? "" : ": no part from " + from) + ")";
  }
  if (s.status != "complete") return "-";
  return fmt::format("{:.3f} ms", static_cast<double>(s.completed_us - s.started_us) / 1000);
}

// Jobs and locks: a snapshot's verdict in words, in place of a total that
// no rule keeps ("deadlocked: N0 → N2 → N0", "not terminated: N1 is busy").
std::string VerdictWords(apps::App app, const store::StoredVerdict& v) {
  std::vector<std::string> branches, channels;
  for (std::uint32_t b : v.branches) branches.push_back(store::BranchName(b));
  for (const auto& [from, to] : v.channels) {
    channels.push_back(ChannelText(store::BranchName(from), store::BranchName(to)));
  }
  return scenario::VerdictText(app, v.holds, branches, channels, Lang::kEn);
}

// A dataflow's snapshot's cost, after its latency: "aligned, 47.1 ms
// aligning, 14 records held back", "6 of 6 channels unaligned, 15 records
// in flight kept", "switched by the timeout: ...".
std::string CostWords(const store::StoredCost& c) {
  std::string words = c.unaligned == 0
                          ? fmt::format("aligned, {:.1f} ms aligning, {} records held back",
                                        static_cast<double>(c.alignment_us) / 1000, c.held_back)
                          : fmt::format("{} of {} channels unaligned, {} records in flight kept",
                                        c.unaligned, c.channels, c.persisted);
  return c.switched ? "switched by the timeout: " + words : words;
}

int List(const store::Store& store, bool json) {
  std::vector<store::StoredRun> runs = store.Runs();
  std::vector<SnapshotRecord> snapshots = store.Snapshots();
  if (json) {
    fmt::print("{}\n", scenario::Dump(store::ListJson(store), 2));
    return 0;
  }
  if (runs.empty()) fmt::print("no runs\n");
  std::map<std::int64_t, apps::App> app_of;
  for (const store::StoredRun& r : runs) {
    const apps::App app = apps::App::NamedOrBank(r.app);
    app_of[r.id] = app;
    if (r.dataflow) {
      const std::string from = r.restored_from
                                   ? fmt::format(", restored from snapshot {}", *r.restored_from)
                                   : "";
      fmt::print("run {}: {} ranks, dataflow {}, {} barriers, {} buffers a channel{}, started {}\n",
                 r.id, r.ranks, r.dataflow->topology, r.dataflow->algorithm, r.dataflow->buffers,
                 from, When(r.started_us));
      continue;
    }
    if (!app.conserved()) {
      // What every rank opened with, when the application sets it.
      std::string start =
          app.definition().opening_flag.empty()
              ? std::string()
              : fmt::format(", {} each", app.words().state(r.balance, {}, Lang::kEn));
      fmt::print("run {}: {} ranks, app={}{}, started {}\n", r.id, r.ranks, app.name(), start,
                 When(r.started_us));
      continue;
    }
    std::string from = r.restored_from
                           ? fmt::format("restored from snapshot {}", *r.restored_from)
                           : fmt::format("${} each", r.balance);
    fmt::print("run {}: {} ranks, {}, total ${}, started {}\n", r.id, r.ranks, from,
               r.total, When(r.started_us));
  }
  if (snapshots.empty()) {
    fmt::print("no snapshots\n");
    return 0;
  }
  // A store that holds a jobs or locks run gets a last column for their
  // snapshots' verdicts.
  const bool verdicts = std::any_of(runs.begin(), runs.end(),
                                    [](const store::StoredRun& r) {
                                      return !apps::App::NamedOrBank(r.app).conserved();
                                    });
  std::vector<std::string> latencies;
  std::size_t latency_width = std::string_view("latency").size();
  for (const SnapshotRecord& s : snapshots) {
    latencies.push_back(Latency(s));
    latency_width = std::max(latency_width, latencies.back().size());
  }
  const std::string latency_header =
      verdicts ? fmt::format("{:<{}}  verdict", "latency", latency_width) : "latency";
  fmt::print("{:>8}  {:>4}  {:<8}  {:<9}  {:>12}  {}\n", "snapshot", "run", "status",
             "initiator", "total", latency_header);
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    const SnapshotRecord& s = snapshots[i];
    const apps::App app = app_of.contains(s.run) ? app_of[s.run] : apps::App::kBank;
    std::string total = s.total ? fmt::format("${}", *s.total) : "-";
    // A jobs or locks snapshot: its verdict in the last column, the total
    // column left empty (their words are not conserved).
    std::string latency = latencies[i];
    if (s.cost) {
      // A dataflow's: records emitted by the cut, and what it cost.
      total = fmt::format("{} records", *s.total);
      latency = fmt::format("{:<{}}  {}", latency, latency_width, CostWords(*s.cost));
    } else if (!app.conserved()) {
      total = "-";
      if (s.verdict) {
        latency = fmt::format("{:<{}}  {}", latency, latency_width, VerdictWords(app, *s.verdict));
      }
    }
    fmt::print("{:>8}  {:>4}  {:<8}  {:<9}  {:>12}  {}\n", s.id, s.run, s.status,
               store::BranchName(s.initiator), total, latency);
  }
  return 0;
}

// "in the channels: N1→N0 [$40]; the other 5 empty", each recorded message
// in `word`'s words.
void PrintChannels(const SnapshotRecord& s, const std::function<std::string(Amount)>& word) {
  std::string busy;
  std::size_t empty = 0;
  for (const store::StoredChannel& c : s.channels) {
    if (c.transfers.empty()) {
      ++empty;
      continue;
    }
    std::string words;
    for (Amount a : c.transfers) words += (words.empty() ? "" : " ") + word(a);
    busy += fmt::format("{}{} [{}]", busy.empty() ? "" : ", ",
                        ChannelText(store::BranchName(c.from), store::BranchName(c.to)), words);
  }
  fmt::print("in the channels: {}{}{} empty\n", busy, busy.empty() ? "" : "; ",
             busy.empty() ? fmt::format("all {}", empty) : fmt::format("the other {}", empty));
}

// A complete jobs or locks snapshot: its verdict, each branch's recorded
// state and the messages in its channel states, in the application's words.
int ShowApp(const SnapshotRecord& s, apps::App app) {
  std::vector<std::string> names;
  for (std::uint32_t r = 0; r < s.balances.size(); ++r) names.push_back(store::BranchName(r));
  fmt::print("snapshot {} of run {} (app={}): complete, started by {}, latency {}\n", s.id,
             s.run, app.name(), store::BranchName(s.initiator), Latency(s));
  if (s.verdict) fmt::print("it says: {}\n", VerdictWords(app, *s.verdict));
  std::string states;
  for (std::uint32_t r = 0; r < s.balances.size(); ++r) {
    states += fmt::format("{}{} {}", r ? ", " : "", names[r],
                          scenario::StateText(app, s.balances[r], names, Lang::kEn));
  }
  fmt::print("recorded states: {}\n", states);
  PrintChannels(s, [&](Amount a) { return std::string(app.MessageKind(a)); });
  return 0;
}

// A complete dataflow snapshot: what it cost, each vertex's counts, and
// each channel, the slowest first (the order SnapshotJson gives them).
int ShowDataflow(const store::Store& store, const SnapshotRecord& s) {
  const Json j = store::SnapshotJson(store, s);
  fmt::print("snapshot {} of run {} (dataflow {}, {} barriers): complete, {} records emitted, "
             "latency {}\n",
             s.id, s.run, j["dataflow"]["topology"].get<std::string>(),
             j["dataflow"]["algorithm"].get<std::string>(), *s.total, Latency(s));
  if (s.cost) fmt::print("it cost: {}\n", CostWords(*s.cost));
  std::string vertices;
  for (const Json& v : j["recorded"]) {
    vertices += fmt::format("{}{} ({}) {} in, {} out", vertices.empty() ? "" : ", ",
                            v["name"].get<std::string>(), v["role"].get<std::string>(),
                            v["received"].get<std::uint64_t>(), v["emitted"].get<std::uint64_t>());
  }
  fmt::print("recorded vertices: {}\n", vertices);
  fmt::print("channels, the slowest first:\n");
  for (const Json& c : j["channels"]) {
    std::string how = !c.contains("aligned") ? "-"
                      : c["aligned"].get<bool>()
                          ? fmt::format("aligned, waited {:.1f} ms, {} held back",
                                        c["waited_us"].get<double>() / 1000,
                                        c["held_back"].get<std::uint64_t>())
                          : fmt::format("{}unaligned, {} records in flight kept",
                                        c["switched"].get<bool>() ? "switched to " : "",
                                        c["persisted"].get<std::uint64_t>());
    fmt::print("  {}: {}\n", ChannelText(c["from"].get<std::string>(), c["to"].get<std::string>()),
               how);
  }
  return 0;
}

int Show(const store::Store& store, std::uint64_t id, bool json, Lang lang) {
  std::optional<SnapshotRecord> s = store.Find(id);
  if (!s) return Refuse(Status::Error(Code::kNoSuchSnapshot, store.path(), id), lang);
  if (json) {
    fmt::print("{}\n", scenario::Dump(store::SnapshotJson(store, *s), 2));
    return 0;
  }
  if (s->status != "complete") {
    fmt::print("snapshot {} of run {}: {}, started by {}; the store holds no part of it\n",
               s->id, s->run, s->status, store::BranchName(s->initiator));
    return 0;
  }
  apps::App app = apps::App::kBank;
  for (const store::StoredRun& r : store.Runs()) {
    if (r.id == s->run && r.dataflow) return ShowDataflow(store, *s);
    if (r.id == s->run) app = apps::App::NamedOrBank(r.app);
  }
  if (!app.conserved()) return ShowApp(*s, app);
  fmt::print("snapshot {} of run {}: complete, started by {}, total ${}, latency {}\n",
             s->id, s->run, store::BranchName(s->initiator), *s->total, Latency(*s));
  std::string balances;
  for (std::uint32_t r = 0; r < s->balances.size(); ++r) {
    balances += fmt::format("{}{} ${}", r ? ", " : "", store::BranchName(r), s->balances[r]);
  }
  fmt::print("recorded balances: {}\n", balances);
  PrintChannels(*s, [](Amount a) { return fmt::format("${}", a); });
  return 0;
}

// A snapshot id as typed: digits only (no sign, no spaces, no 0x).
StatusOr<std::uint64_t> ParseId(const std::string& text) {
  std::uint64_t id = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, id);
  if (!text.empty() && ptr == end && ec == std::errc::result_out_of_range) {
    return Status::Error(Code::kSnapshotIdTooLarge, text);
  }
  if (text.empty() || ec != std::errc() || ptr != end) {
    return Status::Error(Code::kSnapshotIdNotNumber, text);
  }
  return id;
}

// Exit 0 and one line when every snapshot checked is sound; 1 and one line
// per bad snapshot (or run) otherwise; 2 for an id not in the store.
int Verify(const store::Store& store, std::optional<std::uint64_t> id, Lang lang) {
  std::optional<store::Verification> v;
  if (id) {
    v = store.Verify(*id);
    if (!v) return Refuse(Status::Error(Code::kNoSuchSnapshot, store.path(), *id), lang);
  } else {
    v = store.Verify();
  }
  for (const store::Problem& p : v->problems) {
    fmt::print("{}\n", catalogue::ProblemLine(p.about, p.what, lang));
  }
  if (!v->ok()) return 1;
  if (id) {
    fmt::print("ok: snapshot {} ({}) verified in {}\n", *id,
               v->complete ? "complete" : "not complete: it holds no parts, as it should",
               store.path());
  } else {
    fmt::print("ok: {} complete snapshot{} verified in {}{}\n", v->complete,
               v->complete == 1 ? "" : "s", store.path(),
               v->other ? fmt::format(" (and {} failed or running, holding no parts)", v->other)
                        : "");
  }
  return 0;
}

// --keep as typed: a whole number, at least 1 (a run always keeps its
// latest complete snapshot: it is what --restore starts from).
StatusOr<std::uint32_t> ParseKeep(const std::string& text) {
  std::uint32_t keep = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, keep);
  if (text.empty() || ec != std::errc() || ptr != end || keep == 0) {
    return Status::Error(Code::kBadKeep, text);
  }
  return keep;
}

int Prune(const std::string& path, std::uint32_t keep, Lang lang) {
  StatusOr<store::Store> store = store::Store::Open(path, /*create=*/false);
  if (!store.ok()) return Refuse(store.status(), lang);
  store::PruneResult pruned;
  try {
    pruned = store->Prune(keep);
  } catch (const store::StoreError& e) {
    // Refused, or failed midway: the transaction rolled back, nothing changed.
    return Refuse(e.status(), lang);
  }
  std::uint64_t removed = 0;
  for (const store::PrunedRun& r : pruned.runs) {
    const std::uint64_t gone = r.removed_complete + r.removed_failed;
    removed += gone;
    std::string kept = fmt::format("kept {} complete", r.kept_complete);
    if (r.kept_origins) {
      kept += fmt::format(" ({} of them because a later run was restored from {})",
                          r.kept_origins, r.kept_origins == 1 ? "it" : "them");
    }
    if (r.kept_other) kept += fmt::format(" and {} failed or running", r.kept_other);
    if (gone == 0) {
      fmt::print("run {}: removed nothing; {}\n", r.run, kept);
    } else {
      fmt::print("run {}: removed {} snapshot{} ({} complete, {} failed); {}\n", r.run, gone,
                 gone == 1 ? "" : "s", r.removed_complete, r.removed_failed, kept);
    }
  }
  fmt::print("removed {} snapshot{} ({} rows) from {}\n", removed, removed == 1 ? "" : "s",
             pruned.rows, path);
  return 0;
}

}  // namespace

StoreCommand::StoreCommand(CLI::App& app) {
  store_ = app.add_subcommand(
      "store", "Read a runtime's store (its runs and snapshots), verify it or prune it");
  list_ = store_->add_subcommand("list", "List the store's runs and snapshots");
  list_->add_option("file", path_, "The store (an SQLite file)")->required();
  list_->add_flag("--json", json_, "Print JSON");
  show_ = store_->add_subcommand("show", "Show one snapshot: balances and channels");
  show_->add_option("file", path_, "The store (an SQLite file)")->required();
  show_->add_option("id", id_, "Snapshot id")->required();
  show_->add_flag("--json", json_, "Print the snapshot as `cutline run --json` does");
  verify_ = store_->add_subcommand(
      "verify",
      "Re-check every snapshot (or only ID): each complete one whole (a balance per rank, "
      "every channel) and adding up to its run's total, every row in its shape. Reads only. "
      "Exit 0: ok; 1: one line per bad snapshot");
  verify_->add_option("file", path_, "The store (an SQLite file)")->required();
  verify_->add_option("id", id_, "Only this snapshot");
  prune_ = store_->add_subcommand(
      "prune",
      "Delete old snapshots: keep each run's latest N complete ones (and running ones, those a "
      "run was restored from, the highest id), in one transaction. Refused while a run is live");
  prune_->add_option("file", path_, "The store (an SQLite file)")->required();
  prune_->add_option("--keep", keep_, "N >= 1: complete snapshots kept per run")->required();
  for (CLI::App* sub : {list_, show_, verify_, prune_}) {
    sub->add_option("--lang", lang_, "Language of refusals: en or ja")
        ->check(CLI::IsMember({"en", "ja"}));
  }
  // Left to Run(), which can name an unknown word (CLI11 would only say that
  // a subcommand is required).
  store_->allow_extras();
  list_->allow_extras(false);
  show_->allow_extras(false);
  verify_->allow_extras(false);
  prune_->allow_extras(false);
}

int StoreCommand::Run() const {
  const Lang lang = ParseLang(lang_);
  if (!list_->parsed() && !show_->parsed() && !verify_->parsed() && !prune_->parsed()) {
    const std::vector<std::string> words = store_->remaining();
    if (words.empty()) return Refuse(Status::Error(Code::kStoreNeedsCommand), lang);
    const bool option = words.front().rfind('-', 0) == 0;
    return Refuse(Status::Error(option ? Code::kUnknownStoreOption : Code::kUnknownStoreCommand,
                                words.front()),
                  lang);
  }
  std::optional<std::uint64_t> id;
  if (prune_->parsed()) {
    // Checked before the file is even opened: bad arguments touch nothing.
    StatusOr<std::uint32_t> keep = ParseKeep(keep_);
    if (!keep.ok()) return Refuse(keep.status(), lang);
    return Prune(path_, *keep, lang);
  }
  if (show_->parsed() || (verify_->parsed() && verify_->get_option("id")->count() > 0)) {
    // Checked before the file is even opened: bad arguments touch nothing.
    StatusOr<std::uint64_t> parsed = ParseId(id_);
    if (!parsed.ok()) return Refuse(parsed.status(), lang);
    id = *parsed;
  }
  StatusOr<store::Store> store = store::Store::OpenReadOnly(path_, /*brief=*/true);
  if (!store.ok()) return Refuse(store.status(), lang);
  if (verify_->parsed()) return Verify(*store, id, lang);
  return id ? Show(*store, *id, json_, lang) : List(*store, json_);
}

}  // namespace cutline::cli
