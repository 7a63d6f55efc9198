// Reading a store for people (a short table) and for tools (JSON whose
// snapshot object has the shape of `cutline run --json`'s, so that one set
// of tools reads both).
#include "cli/store_commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <ctime>
#include <optional>

#include "cli/refuse.h"
#include "scenario/format.h"
#include "scenario/json_output.h"
#include "catalogue/messages.h"
#include "catalogue/sentences.h"
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

using catalogue::Say;
using catalogue::StoreLine;
using catalogue::StoreSaid;

// Names, channels or states as one list, each language's way.
std::string Joined(const std::vector<std::string>& items, Lang lang) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : Say(StoreLine::kSeparator, {}, lang)) + item;
  return out;
}

// A complete snapshot's latency; a failed one's reason, where known, and
// the parts it never got ("(timeout: no part from N2, N4)").
std::string Latency(const SnapshotRecord& s, Lang lang) {
  if (s.status == "failed" && !s.failure.empty()) {
    std::vector<std::string> from;
    for (std::uint32_t r : s.missing) from.push_back(store::BranchName(r));
    return Say(StoreLine::kFailure, {.what = s.failure, .list = Joined(from, lang)}, lang);
  }
  if (s.status != "complete") return Say(StoreLine::kNone, {}, lang);
  return Say(StoreLine::kLatency, {.ms = static_cast<double>(s.completed_us - s.started_us) / 1000},
             lang);
}

// Jobs and locks: a snapshot's verdict in words, in place of a total that
// no rule keeps ("deadlocked: N0 → N2 → N0", "not terminated: N1 is busy").
std::string VerdictWords(apps::App app, const store::StoredVerdict& v, Lang lang) {
  std::vector<std::string> branches, channels;
  for (std::uint32_t b : v.branches) branches.push_back(store::BranchName(b));
  for (const auto& [from, to] : v.channels) {
    channels.push_back(ChannelText(store::BranchName(from), store::BranchName(to)));
  }
  return scenario::VerdictText(app, v.holds, branches, channels, lang);
}

// A dataflow's snapshot's cost, after its latency: "aligned, 47.1 ms
// aligning, 14 records held back", "6 of 6 channels unaligned, 15 records
// in flight kept", "switched by the timeout: ...".
std::string CostWords(const store::StoredCost& c, Lang lang) {
  std::string words =
      c.unaligned == 0
          ? Say(StoreLine::kCostAligned,
                {.count = c.held_back, .ms = static_cast<double>(c.alignment_us) / 1000}, lang)
          : Say(StoreLine::kCostUnaligned,
                {.count = c.unaligned, .count2 = c.channels, .count3 = c.persisted}, lang);
  return c.switched ? Say(StoreLine::kCostSwitched, {.more = words}, lang) : words;
}

// A run's line: a dataflow's, a jobs or locks run's, or the bank's.
std::string RunLine(const store::StoredRun& r, apps::App app, Lang lang) {
  StoreSaid said{.run = static_cast<std::uint64_t>(r.id),
                 .count = r.ranks,
                 .restored_from = r.restored_from,
                 .when = When(r.started_us)};
  if (r.dataflow) {
    said.what = r.dataflow->topology;
    said.how = r.dataflow->algorithm;
    said.count2 = r.dataflow->buffers;
    return Say(StoreLine::kRunDataflow, said, lang);
  }
  if (!app.conserved()) {
    said.what = app.name();
    // What every rank opened with, when the application sets it.
    if (!app.definition().opening_flag.empty()) said.state = app.words().state(r.balance, {}, lang);
    return Say(StoreLine::kRunApp, said, lang);
  }
  said.state = app.words().state(r.balance, {}, lang);
  said.list = app.words().state(r.total, {}, lang);
  return Say(StoreLine::kRunBank, said, lang);
}

int List(const store::Store& store, bool json, Lang lang) {
  std::vector<store::StoredRun> runs = store.Runs();
  std::vector<SnapshotRecord> snapshots = store.Snapshots();
  if (json) {
    fmt::print("{}\n", scenario::Dump(store::ListJson(store), 2));
    return 0;
  }
  // Each snapshot's application, from its run's row, before a line is
  // printed: a snapshot whose run is gone refuses the listing whole.
  std::vector<apps::App> app_of;
  for (const SnapshotRecord& s : snapshots) app_of.push_back(store::AppOf(store::RunOf(runs, s.run)));
  if (runs.empty()) fmt::print("{}\n", Say(StoreLine::kNoRuns, {}, lang));
  for (const store::StoredRun& r : runs) fmt::print("{}\n", RunLine(r, store::AppOf(r), lang));
  if (snapshots.empty()) {
    fmt::print("{}\n", Say(StoreLine::kNoSnapshots, {}, lang));
    return 0;
  }
  // A store that holds a jobs or locks run gets a last column for their
  // snapshots' verdicts.
  const bool verdicts = std::any_of(runs.begin(), runs.end(),
                                    [](const store::StoredRun& r) {
                                      return !store::AppOf(r).conserved();
                                    });
  const std::string latency_title = Say(StoreLine::kColumnLatency, {}, lang);
  std::vector<std::string> latencies;
  std::size_t latency_width = latency_title.size();
  for (const SnapshotRecord& s : snapshots) {
    latencies.push_back(Latency(s, lang));
    latency_width = std::max(latency_width, latencies.back().size());
  }
  const std::string latency_header =
      verdicts ? fmt::format("{:<{}}  {}", latency_title, latency_width,
                             Say(StoreLine::kColumnVerdict, {}, lang))
               : latency_title;
  fmt::print("{:>8}  {:>4}  {:<8}  {:<9}  {:>12}  {}\n", Say(StoreLine::kColumnSnapshot, {}, lang),
             Say(StoreLine::kColumnRun, {}, lang), Say(StoreLine::kColumnStatus, {}, lang),
             Say(StoreLine::kColumnInitiator, {}, lang), Say(StoreLine::kColumnTotal, {}, lang),
             latency_header);
  for (std::size_t i = 0; i < snapshots.size(); ++i) {
    const SnapshotRecord& s = snapshots[i];
    const apps::App app = app_of[i];
    // A snapshot's total in its application's words ("$300", "812
    // records"); a jobs or locks snapshot's verdict in the last column, the
    // total column left empty (their words are not conserved).
    std::string total =
        s.total ? app.words().state(*s.total, {}, lang) : Say(StoreLine::kNone, {}, lang);
    std::string latency = latencies[i];
    if (s.cost) {
      // A dataflow's: what it cost.
      latency = fmt::format("{:<{}}  {}", latency, latency_width, CostWords(*s.cost, lang));
    } else if (!app.conserved()) {
      total = Say(StoreLine::kNone, {}, lang);
      if (s.verdict) {
        latency = fmt::format("{:<{}}  {}", latency, latency_width,
                              VerdictWords(app, *s.verdict, lang));
      }
    }
    fmt::print("{:>8}  {:>4}  {:<8}  {:<9}  {:>12}  {}\n", s.id, s.run,
               Say(StoreLine::kStatus, {.what = s.status}, lang), store::BranchName(s.initiator),
               total, latency);
  }
  return 0;
}

// "in the channels: N1→N0 [$40]; the other 5 empty", each recorded message
// in the application's words.
void PrintChannels(const SnapshotRecord& s, apps::App app, Lang lang) {
  std::vector<std::string> busy;
  std::uint64_t empty = 0;
  for (const store::StoredChannel& c : s.channels) {
    if (c.transfers.empty()) {
      ++empty;
      continue;
    }
    std::string words;
    for (Amount a : c.transfers) words += (words.empty() ? "" : " ") + app.words().message(a, lang);
    busy.push_back(fmt::format("{} [{}]",
                               ChannelText(store::BranchName(c.from), store::BranchName(c.to)),
                               words));
  }
  fmt::print("{}\n", Say(StoreLine::kChannels, {.count = empty, .list = Joined(busy, lang)}, lang));
}

// A complete snapshot's heading and its recorded states: a jobs or locks
// snapshot's with its verdict, the bank's with its total.
int ShowApp(const SnapshotRecord& s, apps::App app, Lang lang) {
  std::vector<std::string> names;
  for (std::uint32_t r = 0; r < s.balances.size(); ++r) names.push_back(store::BranchName(r));
  const bool bank = app.conserved();
  StoreSaid said{.run = static_cast<std::uint64_t>(s.run),
                 .snapshot = s.id,
                 .who = store::BranchName(s.initiator),
                 .what = std::string(app.name()),
                 .state = bank ? app.words().state(*s.total, {}, lang) : "",
                 .more = Latency(s, lang)};
  fmt::print("{}\n", Say(bank ? StoreLine::kShowBank : StoreLine::kShowApp, said, lang));
  if (s.verdict) {
    fmt::print("{}\n", Say(StoreLine::kItSays, {.state = VerdictWords(app, *s.verdict, lang)}, lang));
  }
  std::vector<std::string> states;
  for (std::uint32_t r = 0; r < s.balances.size(); ++r) {
    states.push_back(names[r] + " " + scenario::StateText(app, s.balances[r], names, lang));
  }
  fmt::print("{}\n", Say(bank ? StoreLine::kRecordedBalances : StoreLine::kRecordedStates,
                         {.list = Joined(states, lang)}, lang));
  PrintChannels(s, app, lang);
  return 0;
}

// A complete dataflow snapshot: what it cost, each vertex's counts, and
// each channel, the slowest first (the order SnapshotJson gives them).
int ShowDataflow(const store::Store& store, const SnapshotRecord& s, Lang lang) {
  const Json j = store::SnapshotJson(store, s);
  const apps::AppWords& records = apps::App::kDataflow.words();
  fmt::print("{}\n", Say(StoreLine::kShowDataflow,
                         {.run = static_cast<std::uint64_t>(s.run),
                          .snapshot = s.id,
                          .what = j["dataflow"]["topology"].get<std::string>(),
                          .how = j["dataflow"]["algorithm"].get<std::string>(),
                          .state = records.state(*s.total, {}, lang),
                          .more = Latency(s, lang)},
                         lang));
  if (s.cost) fmt::print("{}\n", Say(StoreLine::kItCost, {.more = CostWords(*s.cost, lang)}, lang));
  std::vector<std::string> vertices;
  for (const Json& v : j["recorded"]) {
    vertices.push_back(Say(StoreLine::kVertex,
                           {.count = v["received"].get<std::uint64_t>(),
                            .count2 = v["emitted"].get<std::uint64_t>(),
                            .who = v["name"].get<std::string>(),
                            .what = v["role"].get<std::string>()},
                           lang));
  }
  fmt::print("{}\n", Say(StoreLine::kRecordedVertices, {.list = Joined(vertices, lang)}, lang));
  fmt::print("{}\n", Say(StoreLine::kChannelsHeading, {}, lang));
  for (const Json& c : j["channels"]) {
    std::string how =
        !c.contains("aligned") ? Say(StoreLine::kNone, {}, lang)
        : c["aligned"].get<bool>()
            ? Say(StoreLine::kChannelAligned,
                  {.count = c["held_back"].get<std::uint64_t>(),
                   .ms = c["waited_us"].get<double>() / 1000},
                  lang)
            : Say(StoreLine::kChannelUnaligned,
                  {.count = c["persisted"].get<std::uint64_t>(),
                   .switched = c["switched"].get<bool>()},
                  lang);
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
    fmt::print("{}\n", Say(StoreLine::kNotComplete,
                           {.run = static_cast<std::uint64_t>(s->run),
                            .snapshot = s->id,
                            .who = store::BranchName(s->initiator),
                            .what = s->status},
                           lang));
    return 0;
  }
  const std::vector<store::StoredRun> runs = store.Runs();
  const store::StoredRun& run = store::RunOf(runs, s->run);
  if (run.dataflow) return ShowDataflow(store, *s, lang);
  return ShowApp(*s, store::AppOf(run), lang);
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
    fmt::print("{}\n", Say(v->complete ? StoreLine::kVerifiedOne : StoreLine::kVerifiedNoParts,
                           {.snapshot = *id, .where = store.path()}, lang));
  } else if (v->complete == 0) {
    // Sound, but no snapshot's parts were there to judge: not an "ok".
    fmt::print("{}\n", Say(StoreLine::kVerifiedNone, {.count2 = v->other, .where = store.path()},
                           lang));
    return 3;
  } else {
    fmt::print("{}\n", Say(StoreLine::kVerifiedAll,
                           {.count = v->complete, .count2 = v->other, .where = store.path()},
                           lang));
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
    const std::string kept = Say(StoreLine::kPruneKept,
                                 {.count = r.kept_complete, .count2 = r.kept_origins,
                                  .count3 = r.kept_other},
                                 lang);
    const auto run = static_cast<std::uint64_t>(r.run);
    if (gone == 0) {
      fmt::print("{}\n", Say(StoreLine::kPrunedNothing, {.run = run, .more = kept}, lang));
    } else {
      fmt::print("{}\n", Say(StoreLine::kPrunedRun,
                             {.run = run, .count = gone, .count2 = r.removed_complete,
                              .count3 = r.removed_failed, .more = kept},
                             lang));
    }
  }
  fmt::print("{}\n",
             Say(StoreLine::kPruned, {.count = removed, .count2 = pruned.rows, .where = path}, lang));
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
    sub->add_option("--lang", lang_, "Language: en or ja")
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
  try {
    return id ? Show(*store, *id, json_, lang) : List(*store, json_, lang);
  } catch (const store::StoreError& e) {
    // A damaged file (a snapshot whose run is gone: store::RunOf) or a
    // failed read: one line, nothing printed as if it were sound.
    return Refuse(e.status(), lang);
  }
}

}  // namespace cutline::cli
