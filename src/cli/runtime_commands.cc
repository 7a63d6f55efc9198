#include "cli/runtime_commands.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <span>
#include <algorithm>

#include "cli/refuse.h"
#include "base/lang.h"
#include "runtime/cluster.h"
#include "check/findings.h"
#include "runtime/log_check.h"
#include "runtime/node.h"
#include "runtime/options.h"
#include "runtime/sink.h"
#include "runtime/store_sink.h"
#include "store/store.h"
#include "catalogue/messages.h"

namespace cutline::cli {

namespace {

using runtime::ParseDuration;

CLI::Validator Duration() {
  return CLI::Validator(
      [](std::string& s) {
        return ParseDuration(s) ? std::string() : "'" + s + "' is not a duration like 250ms or 3s";
      },
      "DURATION");
}

CLI::Validator PositiveDuration() {
  return CLI::Validator(
      [](std::string& s) {
        auto d = ParseDuration(s);
        if (!d) return "'" + s + "' is not a duration like 100ms or 3s";
        return d->count() > 0 ? std::string() : "'" + s + "' must be more than zero";
      },
      "DURATION");
}

std::string SelfPath() {
  char path[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) return "cutline";
  return std::string(path, static_cast<std::size_t>(n));
}

}  // namespace

struct RuntimeCommands::State {
  CLI::App* cluster = nullptr;
  CLI::App* node = nullptr;
  // --app's default, the bank, until Parse sets what --app names.
  runtime::ClusterOptions options{.node = {.app = apps::App::kBank}};
  std::string rate = "1000";
  std::string duration = "5s";
  std::string every;
  std::string timeout = "60s";
  std::string link_delay = "0ms";
  std::string kill;
  std::string restore;
  std::string algorithm = "chandy-lamport";
  std::string app = "bank";
  std::string lang = "en";
  // --app dataflow
  std::string topology = "2-3-1";
  std::uint32_t buffers = 8;
  std::string slow;
  std::string alignment_timeout;

  // The options both commands take, bound to the same storage.
  void AddNodeOptions(CLI::App* cmd) {
    auto& n = options.node;
    cmd->add_option("--app", app, "What the ranks run: bank, jobs, locks or dataflow")
        ->capture_default_str();
    cmd->add_option("--topology", topology,
                    "dataflow: stages of ranks joined all-to-all, sources first (2-3-1)")
        ->capture_default_str();
    cmd->add_option("--buffers", buffers, "dataflow: buffers (credits) per channel")
        ->capture_default_str()
        ->check(CLI::Range(1u, 1'000'000u));
    cmd->add_option("--slow", slow,
                    "dataflow: RANK:FACTOR, that rank handles --rate/FACTOR records a second")
        ->check(CLI::Validator(
            [](std::string& s) {
              return runtime::ParseSlow(s) ? std::string()
                                           : "'" + s + "' is not RANK:FACTOR with a FACTOR above 1";
            },
            "RANK:FACTOR"));
    cmd->add_option("--alignment-timeout", alignment_timeout,
                    "dataflow, aligned: switch a snapshot aligning this long to unaligned")
        ->check(Duration());
    cmd->add_option("--lang", lang, "Language of refusals: en or ja")
        ->capture_default_str()
        ->check(CLI::IsMember({"en", "ja"}));
    cmd->add_option("--jobs", n.jobs,
                    "jobs: each branch's jobs at the start (it may hand out twice as many)")
        ->capture_default_str()
        ->check(CLI::Range(1u, 1'000'000u));
    cmd->add_option("--balance", n.balance, "Each branch's opening balance")
        ->capture_default_str()
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
    cmd->add_option("--rate", rate, "Transfers per second per branch, or max")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string& s) {
              return runtime::ParseRate(s) ? std::string()
                                           : "'" + s + "' is not a positive number or max";
            },
            "RATE"));
    cmd->add_option("--duration", duration, "How long transfers flow")
        ->capture_default_str()
        ->check(PositiveDuration());
    cmd->add_option("--snapshot-every", every, "Start a snapshot this often (e.g. 100ms)")
        ->check(PositiveDuration());
    cmd->add_option("--snapshot-timeout", timeout,
                    "Give up a snapshot not complete this long after it started")
        ->capture_default_str()
        ->check(PositiveDuration());
    cmd->add_option("--tolerable-failures", n.tolerable_failures,
                    "Stop the run (exit 1) once this many snapshots in a row have failed")
        ->capture_default_str()
        ->check(CLI::Range(1u, 1'000'000u));
    cmd->add_option("--algorithm", algorithm,
                    runtime::AlgorithmsRunBy(false) + "; with --app dataflow " +
                        runtime::AlgorithmsRunBy(true) + " (default aligned)")
        ->capture_default_str()
        ->check(CLI::Validator(
            [](std::string& name) { return runtime::AlgorithmRefusal(name); }, "ALGORITHM"));
    cmd->add_option("--store", n.store, "SQLite file to keep complete snapshots in");
    cmd->add_option("--restore", restore,
                    "Start from stored snapshot ID (default: the latest complete one)")
        ->expected(0, 1);
    cmd->add_option("--log-dir", n.log_dir, "Write each rank's events here");
    cmd->add_option("--link-delay", link_delay,
                    "Hand every message over no earlier than this after it was sent")
        ->capture_default_str()
        ->check(Duration());
    cmd->add_flag("--reorder", n.reorder,
                  "Channels that reorder: markers overtake transfers held back at random");
    cmd->add_option("--kill", kill, "Fault injection: RANK@TIME or RANK@snapshot:K")
        ->check(CLI::Validator(
            [](std::string& s) {
              return runtime::ParseKill(s) ? std::string()
                                           : "'" + s + "' is not RANK@TIME or RANK@snapshot:K";
            },
            "RANK@WHEN"));
    cmd->add_option("--store-max-pages", n.store_max_pages,
                    "Fault injection: the store is full past N pages (a full disk)")
        ->check(CLI::Range(1u, 1'000'000'000u));
    cmd->add_option("--seed", n.seed, "Seed of the transfers' random amounts and peers")
        ->capture_default_str();
  }

  // The algorithm, if the application's ranks run it. A dataflow runs
  // Flink's default, aligned barriers, unless told otherwise.
  Status FinishAlgorithm(CLI::App* cmd, runtime::NodeOptions& n, bool dataflow) {
    if (dataflow && cmd->count("--algorithm") == 0) algorithm = "aligned";
    n.algorithm = *runtime::Algorithm::Find(algorithm);  // the validator checked it
    if (dataflow ? !n.algorithm.runs_on_dataflow() : !n.algorithm.runs_on_ranks()) {
      return Status::Error(Code::kAlgorithmNotForApp, algorithm, app, runtime::AlgorithmsRunBy(dataflow));
    }
    return Status::Ok();
  }

  // A flag that means something to another application only is refused
  // rather than silently ignored: the registry's applications own theirs.
  Status RefuseOthersFlags(CLI::App* cmd, const runtime::NodeOptions& n) {
    const std::span<const std::string_view> mine = runtime::ClusterFlags(n);
    auto used_not_mine = [&](std::string_view flag) {
      return cmd->count(std::string(flag)) > 0 &&
             std::find(mine.begin(), mine.end(), flag) == mine.end();
    };
    for (const apps::App& owner : apps::App::All()) {
      for (std::string_view flag : owner.definition().cluster_flags) {
        if (used_not_mine(flag)) return Status::Error(Code::kFlagForOtherApp, flag, owner.name(), app);
      }
    }
    return Status::Ok();
  }

  // --app dataflow's own options; the ranks are the topology's.
  Status FinishDataflow(CLI::App* cmd, runtime::NodeOptions& n) {
    if (cmd->count("--reorder") > 0) return Status::Error(Code::kNotWithDataflow, "--reorder");
    StatusOr<dataflow::Topology> t = dataflow::Topology::Parse(topology);
    if (!t.ok()) return t.status();
    runtime::DataflowOptions d{.topology = *t, .buffers = buffers, .slow = {}, .alignment_timeout = {}};
    if (!slow.empty()) d.slow = runtime::ParseSlow(slow);
    if (d.slow && d.slow->rank >= t->vertices()) {
      return Status::Error(Code::kSlowRankOutOfRange, d.slow->rank, t->vertices());
    }
    if (!alignment_timeout.empty()) {
      if (n.algorithm != runtime::Algorithm::kAligned) {
        return Status::Error(Code::kTimeoutNeedsAligned, n.algorithm.name());
      }
      d.alignment_timeout = ParseDuration(alignment_timeout);
    }
    if (cmd == cluster) {
      if (cmd->count("--ranks") > 0 && options.ranks != t->vertices()) {
        return Status::Error(Code::kRanksNotTopology, options.ranks, topology, t->vertices());
      }
      options.ranks = t->vertices();
    }
    n.dataflow = std::move(d);
    return Status::Ok();
  }

  Status FinishApp(CLI::App* cmd, runtime::NodeOptions& n) {
    const bool dataflow = n.app.vertices();
    if (Status s = FinishAlgorithm(cmd, n, dataflow); !s.ok()) return s;
    if (dataflow) {
      if (Status s = FinishDataflow(cmd, n); !s.ok()) return s;
    }
    return RefuseOthersFlags(cmd, n);
  }

  // Turns the strings the parser checked into options.
  Status Finish(CLI::App* cmd) {
    auto& n = options.node;
    n.lang = ParseLang(lang);
    auto found = apps::App::Find(app);
    if (!found) {
      std::string names;
      for (const apps::App& a : apps::App::All()) {
        names += (names.empty() ? "" : ", ") + std::string(a.name());
      }
      return Status::Error(Code::kNotAnApp, app, names);
    }
    n.app = *found;
    if (Status s = FinishApp(cmd, n); !s.ok()) return s;
    if (Status s = runtime::ReorderRefusal(n); !s.ok()) return s;
    if (Status s = runtime::LogsRefusal(n); !s.ok()) return s;
    n.rate = *runtime::ParseRate(rate);
    n.duration = *ParseDuration(duration);
    if (!every.empty()) n.snapshot_every = ParseDuration(every);
    n.snapshot_timeout = *ParseDuration(timeout);
    n.link_delay = *ParseDuration(link_delay);
    if (!kill.empty()) n.kill = runtime::ParseKill(kill);
    n.restore = cmd->count("--restore") > 0;
    if (!restore.empty()) {
      char* end = nullptr;
      errno = 0;
      unsigned long long id = std::strtoull(restore.c_str(), &end, 10);
      // ERANGE: past 2^64 - 1, which strtoull would answer as that maximum.
      if (restore[0] < '1' || restore[0] > '9' || *end != '\0' || errno == ERANGE) {
        return Status::Error(Code::kNotASnapshotId, "--restore", restore);
      }
      n.restore_id = id;
    }
    if (n.store_max_pages > 0 && n.store.empty()) return Status::Error(Code::kMaxPagesNeedsStore);
    if (n.restore && n.store.empty()) return Status::Error(Code::kRestoreNeedsStore);
    if (n.kill && n.kill->rank >= options.ranks && cmd == cluster) {
      return Status::Error(Code::kKillRankOutOfRange, n.kill->rank, options.ranks);
    }
    return Status::Ok();
  }
};

RuntimeCommands::RuntimeCommands(CLI::App& app) : s_(std::make_unique<State>()) {
  s_->cluster = app.add_subcommand(
      "cluster",
      "Run the bank (or jobs, locks, a dataflow) as real processes (mpirun), taking snapshots while it runs");
  s_->cluster->add_option("--ranks", s_->options.ranks, "Branches, one MPI rank each")
      ->capture_default_str()
      ->check(CLI::Range(2, 256));
  s_->cluster->add_option("--mpirun-arg", s_->options.mpirun_args,
                          "Passed to mpirun as it is (repeat for several; e.g. --hostfile=hosts)")
      ->allow_extra_args(false);
  s_->cluster->add_flag("--json", s_->options.json, "Print the summary as JSON");
  s_->AddNodeOptions(s_->cluster);
  s_->node = app.add_subcommand("node", "One rank of a cluster run (started by mpirun)");
  s_->AddNodeOptions(s_->node);
}

RuntimeCommands::~RuntimeCommands() = default;

std::optional<int> RuntimeCommands::Run(int* argc, char*** argv) {
  CLI::App* chosen = *s_->cluster ? s_->cluster : *s_->node ? s_->node : nullptr;
  if (!chosen) return std::nullopt;
  const Status finished = s_->Finish(chosen);
  const runtime::NodeOptions& node = s_->options.node;
  const Say say = [lang = node.lang](const Status& s) { return catalogue::Message(s, lang); };
  if (!finished.ok()) return Refuse(finished, node.lang);
  auto make_sink = [&node, &say](std::uint32_t) -> std::unique_ptr<runtime::Sink> {
    if (node.store.empty()) return std::make_unique<runtime::NullSink>();
    return runtime::MakeStoreSink(node.store, node.store_max_pages, say);
  };
  if (chosen == s_->node) return runtime::RunNode(node, argc, argv, make_sink, say);
  // Said once, by the command a person typed (not by every rank).
  if (std::optional<Status> warning = runtime::ReorderWarning(node)) {
    fmt::print(stderr, "cutline: warning: {}\n", say(*warning));
  }
  // Everything that can be wrong with the store is found before any process
  // starts, and leaves the file as it was.
  if (!node.store.empty()) {
    if (Status why = runtime::CheckStoreBeforeRun(
            node.store, runtime::RunShapeOf(node, s_->options.ranks), node.restore, node.restore_id);
        !why.ok()) {
      return Refuse(why, node.lang);
    }
  }
  runtime::AfterCrash after_crash;
  if (!node.store.empty()) {
    after_crash = [path = node.store, say](std::int64_t run) {
      return runtime::FailUnfinished(path, run, say);
    };
  }
  return runtime::RunCluster(s_->options, SelfPath(), after_crash);
}

int CheckLogsCommand(const std::string& dir, const std::string& format, Lang lang) {
  if (format == "shiviz") {
    StatusOr<std::string> log = runtime::ShiVizLog(dir);
    if (!log.ok()) return Refuse(log.status(), lang);
    fmt::print("{}", *log);
    return 0;
  }
  StatusOr<runtime::LogCheck> result = runtime::CheckLogs(dir, lang);
  if (!result.ok()) return Refuse(result.status(), lang);
  const check::Findings& say = check::FindingsIn(lang);
  for (const std::string& problem : result->report.problems) {
    fmt::print("{}\n", say.Fail(problem));
  }
  for (std::uint32_t r : result->silent) fmt::print("{}\n", say.SilentRank(r));
  if (result->dropped > 0) fmt::print("{}\n", say.DroppedAfterCrash(result->dropped));
  // A cluster run's snapshot may end unfinished without a fault of the
  // algorithm (a crash, a timeout, the run's end): a note naming the ranks.
  for (const auto& [id, ranks] : result->unfinished) {
    std::vector<std::string> names;
    for (std::uint32_t r : ranks) names.push_back(store::BranchName(r));
    fmt::print("{}\n", say.NeverCompleted(id, names, "part"));
  }
  if (!result->report.ok()) return 1;
  // Stop-the-world logs no cut: its declared properties, checked for
  // stability, are then what was judged.
  if (result->report.snapshots_checked == 0 && result->declared == 0) {
    fmt::print("{}\n", say.NothingJudgedInLogs(result->ranks, true, result->events));
    return kNothingJudged;
  }
  if (!result->topology.empty()) {
    fmt::print("{}\n", say.LogsDataflowOk(result->report.snapshots_checked, result->ranks,
                                         result->topology, result->events));
    return 0;
  }
  if (!apps::App::NamedOrBank(result->app).conserved()) {
    if (result->unchecked > 0) fmt::print("{}\n", say.StabilityOnly(result->unchecked));
    fmt::print("{}\n", say.LogsDeclaredOk(result->report.snapshots_checked, result->ranks,
                                          result->app, result->events,
                                          result->declared - result->unchecked,
                                          result->declared_holding));
    return 0;
  }
  fmt::print("{}\n", say.LogsConservedOk(result->report.snapshots_checked, result->ranks,
                                         result->events, result->total));
  return 0;
}

}  // namespace cutline::cli
