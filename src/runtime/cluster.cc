#include "runtime/cluster.h"

#include <algorithm>

#include <fcntl.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

#include "base/lang.h"

namespace cutline::runtime {

namespace {

using json = nlohmann::json;

std::vector<std::string> MpirunCommand(const ClusterOptions& o, const std::string& self) {
  std::vector<std::string> argv = {"mpirun"};
  // Containers and CI run as root; Open MPI refuses that unless told.
  if (::geteuid() == 0) argv.push_back("--allow-run-as-root");
  // More ranks than cores is normal here (ranks sleep when idle).
  argv.push_back("--oversubscribe");
  argv.insert(argv.end(), {"-n", std::to_string(o.ranks)});
  argv.insert(argv.end(), o.mpirun_args.begin(), o.mpirun_args.end());
  argv.insert(argv.end(), {self, "node"});
  auto node = NodeArguments(o.node);
  argv.insert(argv.end(), node.begin(), node.end());
  return argv;
}

std::string StatusLine(const json& s, std::string_view app) {
  if (app == "dataflow") {
    return fmt::format("{:.0f} records/s at the sinks | snapshots: {} complete, {} failed | {:.1f} s left",
                       s["transfers_per_s"].get<double>(), s["complete"].get<std::uint64_t>(),
                       s["failed"].get<std::uint64_t>(),
                       static_cast<double>(s["left_ms"].get<std::int64_t>()) / 1000.0);
  }
  if (!apps::App::NamedOrBank(app).conserved()) {
    // jobs, locks: their words add up to nothing worth showing.
    return fmt::format("{:.0f} messages/s | snapshots: {} complete, {} failed | {:.1f} s left",
                       s["transfers_per_s"].get<double>(), s["complete"].get<std::uint64_t>(),
                       s["failed"].get<std::uint64_t>(),
                       static_cast<double>(s["left_ms"].get<std::int64_t>()) / 1000.0);
  }
  std::string total = s["latest_total"].is_null() ? "-" : fmt::format("${}", s["latest_total"].get<std::int64_t>());
  return fmt::format("{:.0f} transfers/s | snapshots: {} complete, {} failed | latest total {} | {:.1f} s left",
                     s["transfers_per_s"].get<double>(), s["complete"].get<std::uint64_t>(),
                     s["failed"].get<std::uint64_t>(), total,
                     static_cast<double>(s["left_ms"].get<std::int64_t>()) / 1000.0);
}

// jobs and locks: what the run was for. When the first snapshot found the
// property, against when it became true by the ranks' clocks, and how often
// the naive detector was wrong.
void PrintProperty(const json& p) {
  const apps::App app = apps::App::NamedOrBank(p["app"].get<std::string>());
  const apps::AppWordsIn& words = app.words().in(Lang::kEn);
  const std::string property = p["property"];
  if (p["detected_by"].is_null()) {
    fmt::print("{}: no snapshot found it before the run ended{}\n", property,
               p["true_us"].is_null() ? "" : " (it did become true)");
  } else {
    std::string what =
        !app.definition().reason_is_cycle
            ? property
            : fmt::format("{}: {}", property,
                          CycleText(p["cycle"].get<std::vector<std::string>>()));
    std::string truth = p["delay_us"].is_null()
                            ? "which the ranks' final states do not bear out"
                            : fmt::format("{:.2f} ms after {}", p["delay_us"].get<double>() / 1000,
                                          words.became_true);
    fmt::print("{}: detected by snapshot {}, {}\n", what, p["detected_by"].get<std::uint64_t>(),
               truth);
  }
  fmt::print("naive detector: {} rounds of reads, {} declared {}, {} of them {}\n",
             p["naive_rounds"].get<std::uint64_t>(), p["naive_declared"].get<std::uint64_t>(),
             property, p["naive_false"].get<std::uint64_t>(),
             words.naive_false);
}

// A dataflow's summary: throughput, exactly-once at the sinks, and what the
// snapshots cost.
void PrintDataflowSummary(const json& s) {
  // A restored run's counts include what its snapshot had counted.
  const std::string restored =
      s.value("restored_from", json()).is_null()
          ? ""
          : fmt::format(", restored from snapshot {}", s["restored_from"].get<std::uint64_t>());
  fmt::print("run: {} ranks ({}), {}{}, {} records emitted, {} counted at the sinks ({:.0f}/s) {}\n",
             s["ranks"].get<int>(), s["topology"].get<std::string>(),
             s["algorithm"].get<std::string>(), restored, s["emitted"].get<std::uint64_t>(),
             s["transfers"].get<std::uint64_t>(), s["transfers_per_s"].get<double>(),
             s["exactly_once"].get<bool>() ? "(each once)" : "(NOT each once)");
  fmt::print("snapshots: {} complete ({} breaking conservation), {} failed ({} timed out); "
             "duration p50 {:.2f} ms, p99 {:.2f} ms\n",
             s["complete"].get<std::uint64_t>(), s["wrong_totals"].get<std::uint64_t>(),
             s["failed"].get<std::uint64_t>(), s["timed_out"].get<std::uint64_t>(),
             s["latency_p50_us"].get<double>() / 1000, s["latency_p99_us"].get<double>() / 1000);
  fmt::print("alignment p50 {:.2f} ms, p99 {:.2f} ms; per snapshot {:.1f} records held back, "
             "{:.1f} persisted ({:.0f} bytes); {} of {} channels unaligned; {} snapshots switched "
             "by the alignment timeout\n",
             s["alignment_p50_us"].get<double>() / 1000, s["alignment_p99_us"].get<double>() / 1000,
             s["held_back_per_snapshot"].get<double>(),
             s["persisted_records_per_snapshot"].get<double>(),
             s["persisted_bytes_per_snapshot"].get<double>(),
             s["unaligned_channels"].get<std::uint64_t>(), s["channels"].get<std::uint64_t>(),
             s["switched_snapshots"].get<std::uint64_t>());
  std::fflush(stdout);
}

void PrintSummary(const json& s) {
  if (s.value("app", "") == "dataflow") {
    PrintDataflowSummary(s);
    return;
  }
  const bool bank = !s.contains("property");
  fmt::print("run {}: {} ranks, {} {} ({:.0f}/s)\n", s["run"].get<std::int64_t>(),
             s["ranks"].get<int>(), s["transfers"].get<std::uint64_t>(),
             bank ? "transfers" : "messages", s["transfers_per_s"].get<double>());
  if (!bank) {
    fmt::print("snapshots: {} complete, {} failed; latency p50 {:.2f} ms, p99 {:.2f} ms\n",
               s["complete"].get<std::uint64_t>(), s["failed"].get<std::uint64_t>(),
               s["latency_p50_us"].get<double>() / 1000, s["latency_p99_us"].get<double>() / 1000);
    PrintProperty(s["property"]);
    std::fflush(stdout);
    return;
  }
  fmt::print("snapshots: {} complete ({} with a wrong total), {} failed ({} timed out); latency "
             "p50 {:.2f} ms, p99 {:.2f} ms\n",
             s["complete"].get<std::uint64_t>(), s["wrong_totals"].get<std::uint64_t>(),
             s["failed"].get<std::uint64_t>(), s["timed_out"].get<std::uint64_t>(),
             s["latency_p50_us"].get<double>() / 1000, s["latency_p99_us"].get<double>() / 1000);
  if (s["stop_p50_us"].get<double>() > 0) {
    fmt::print("stop time: p50 {:.2f} ms, p99 {:.2f} ms\n", s["stop_p50_us"].get<double>() / 1000,
               s["stop_p99_us"].get<double>() / 1000);
  }
  fmt::print("collector (rank 0): {:.0f} bytes of parts per snapshot; collected p50 {:.2f} ms, "
             "p99 {:.2f} ms after the last channel closed; peak memory {:.1f} MiB, CPU {:.2f} s\n",
             s["collected_bytes_per_snapshot"].get<double>(), s["collect_p50_us"].get<double>() / 1000,
             s["collect_p99_us"].get<double>() / 1000,
             static_cast<double>(s["rank0_peak_rss_bytes"].get<std::uint64_t>()) / (1 << 20),
             s["rank0_cpu_s"].get<double>());
  fmt::print("total at the end: ${} of ${} {}\n", s["final_total"].get<std::int64_t>(),
             s["bank_total"].get<std::int64_t>(),
             s["final_total"] == s["bank_total"] ? "(conserved)" : "(NOT conserved)");
  std::fflush(stdout);
}

}  // namespace

// Ctrl-C or SIGTERM to `cluster`: the number received, and the last one.
static volatile std::sig_atomic_t g_stops = 0;
static volatile std::sig_atomic_t g_stop_signal = 0;
extern "C" void OnStop(int sig) {
  g_stop_signal = sig;
  g_stops = g_stops + 1;
}

namespace {

// RunCluster's steps, each a function of its own: start the job, watch it,
// then report how it ended.

// The job while it runs: mpirun's pid, and the read ends of its standard
// output and error.
struct Job {
  pid_t pid = -1;
  int out = -1;
  int err = -1;
};

// Starts mpirun in a process group of its own, its output and error piped
// back; nothing (after one line on standard error) if the pipes fail.
std::optional<Job> StartJob(std::vector<std::string> command) {
  int out[2], err[2];
  if (::pipe(out) != 0 || ::pipe(err) != 0) {
    fmt::print(stderr, "cutline: error: cannot start mpirun: {}\n", std::strerror(errno));
    return std::nullopt;
  }
  // Asked to stop, `cluster` ends the run itself (WatchJob), so the job has
  // a process group of its own: a terminal's Ctrl-C reaches `cluster` only,
  // not mpirun, which would kill the ranks mid-snapshot.
  struct sigaction stop {};
  stop.sa_handler = OnStop;
  sigemptyset(&stop.sa_mask);
  ::sigaction(SIGINT, &stop, nullptr);
  ::sigaction(SIGTERM, &stop, nullptr);
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    // Out of the terminal's foreground group, reading it would stop mpirun.
    int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    ::close(out[0]);
    ::close(err[0]);
    std::vector<char*> argv;
    for (auto& a : command) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp("mpirun", argv.data());
    fmt::print(stderr, "cannot run mpirun: {}\n", std::strerror(errno));
    _exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  return Job{pid, out[0], err[0]};
}

// What the job said: rank 0's run line and summary, and its standard error,
// which tells how it failed if it did.
struct JobOutput {
  json run, summary;
  std::string err_text;
};

// One line of the job's standard output: rank 0's run, status or summary
// line, else a rank's own output, printed as it is.
void TakeLine(const std::string& line, bool live, JobOutput& got) {
  auto space = line.find(' ');
  std::string kind = line.substr(0, space);
  json body = json::parse(space == std::string::npos ? "" : line.substr(space + 1), nullptr, false);
  if (kind == "cutline-run" && !body.is_discarded()) {
    got.run = body;
  } else if (kind == "cutline-status" && !body.is_discarded()) {
    if (live) fmt::print(stderr, "\r\033[K{}", StatusLine(body, got.run.value("app", "bank")));
  } else if (kind == "cutline-summary" && !body.is_discarded()) {
    got.summary = body;
  } else {
    fmt::print("{}\n", line);  // a rank's own output
  }
}

// Reads the job's output and error until both close, passing a stop
// (Ctrl-C, SIGTERM) on to it as it comes.
JobOutput WatchJob(const Job& job, bool live) {
  JobOutput got;
  std::string out_buffer;
  pollfd fds[2] = {{job.out, POLLIN, 0}, {job.err, POLLIN, 0}};
  int open = 2;
  int stops_passed = 0;
  while (open > 0) {
    if (g_stops > stops_passed) {
      // The first: mpirun passes SIGUSR1 on to every rank, and rank 0 ends
      // the run as at the end of --duration (summary, store, exit). A
      // second: mpirun ends the job at once.
      ::kill(job.pid, stops_passed == 0 ? SIGUSR1 : SIGTERM);
      stops_passed = g_stops;
    }
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n <= 0) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open;
        continue;
      }
      if (i == 1) {
        got.err_text.append(buf, static_cast<std::size_t>(n));
        continue;
      }
      out_buffer.append(buf, static_cast<std::size_t>(n));
      std::size_t end;
      while ((end = out_buffer.find('\n')) != std::string::npos) {
        std::string line = out_buffer.substr(0, end);
        out_buffer.erase(0, end + 1);
        TakeLine(line, live, got);
      }
    }
  }
  return got;
}

// The job ended and rank 0 wrote its summary: prints it; the exit code says
// whether the run was stopped early, gave up, or found a wrong total. (Not
// const: on a mutable json, operator[] reads a missing field as null.)
int ReportSummary(const ClusterOptions& o, json& summary, int signalled,
                  const char* signal_name) {
  if (o.json) {
    fmt::print("{}\n", summary.dump());
  } else {
    PrintSummary(summary);
  }
  if (signalled) {
    fmt::print(stderr, "cutline: stopped by {}: the run ended early\n", signal_name);
    return 128 + signalled;
  }
  if (!summary["gave_up"].empty()) {
    const auto ids = summary["gave_up"].get<std::vector<std::uint64_t>>();
    fmt::print(stderr,
               "cutline: error: snapshots {} failed one after another "
               "(--tolerable-failures {}): the run was stopped\n",
               fmt::join(ids, ", "), ids.size());
    return 1;
  }
  if (summary.contains("exactly_once")) {
    // A dataflow: every snapshot conserved, every record counted once.
    return summary["wrong_totals"] == 0 && summary["exactly_once"].get<bool>() ? 0 : 1;
  }
  if (summary.contains("property")) {
    // A snapshot's declaration before the truth: never expected.
    return summary["wrong_totals"] == 0 && !summary["property"]["early"].get<bool>() ? 0 : 1;
  }
  return summary["wrong_totals"] == 0 && summary["final_total"] == summary["bank_total"] ? 0 : 1;
}

// The job never started: the node's one-line error, which Open MPI's abort
// banner may come before (the ranks' standard errors interleave), else
// mpirun's own complaint.
int ReportNotStarted(const std::string& err_text, int code) {
  std::smatch own;
  if (std::regex_search(err_text, own, std::regex(R"((?:^|\n)(cutline: error: [^\n]*))"))) {
    fmt::print(stderr, "{}\n", own[1].str());
    return 2;
  }
  std::string first = err_text.substr(0, err_text.find('\n'));
  fmt::print(stderr, "cutline: error: mpirun failed (status {}): {}\n", code, first);
  return 2;
}

// The job started but ended without a summary: stopped twice, or a rank
// died and Open MPI ended the job. Says so, with the last complete snapshot.
// (`got` not const, as for ReportSummary.)
int ReportCutShort(JobOutput& got, int signalled, const char* signal_name,
                   const AfterCrash& after_crash) {
  const std::string& err_text = got.err_text;
  std::string latest_stored;
  if (signalled) {
    // Stopped twice: the job was ended at once, like a crash.
    latest_stored = after_crash ? after_crash(got.run["run"].get<std::int64_t>()) : "not stored";
    fmt::print(stderr, "cutline: stopped by {} twice: the job was ended; last complete snapshot: {}\n",
               signal_name, latest_stored);
    return 128 + signalled;
  }
  // A rank died, and Open MPI ended the job.
  std::smatch m;
  std::string who = "a rank";
  if (std::regex_search(err_text, m, std::regex(R"(process rank (\d+) with PID \d+ on node \S+ exited on signal (\d+))"))) {
    who = fmt::format("rank {} (signal {})", m[1].str(), m[2].str());
  } else if (std::regex_search(err_text, m, std::regex(R"(rank (\d+))"))) {
    who = fmt::format("rank {}", m[1].str());
  }
  std::string latest = after_crash ? after_crash(got.run["run"].get<std::int64_t>()) : "not stored";
  // A rank that ended itself on an error (rank 0 whose store cannot be
  // written: a full disk) said why in one line: that line is the news, not
  // Open MPI's report of a death.
  std::smatch own;
  if (std::regex_search(err_text, own, std::regex(R"((?:^|\n)cutline: error: ([^\n]*))"))) {
    fmt::print(stderr, "cutline: error: {}; the job ended; last complete snapshot: {}\n",
               own[1].str(), latest);
    return 1;
  }
  fmt::print(stderr, "cutline: {} died; the job ended; last complete snapshot: {}\n", who, latest);
  return 1;
}

}  // namespace

int RunCluster(const ClusterOptions& o, const std::string& self, const AfterCrash& after_crash) {
  std::optional<Job> job = StartJob(MpirunCommand(o, self));
  if (!job) return 2;
  bool live = ::isatty(2);
  JobOutput got = WatchJob(*job, live);
  int status = 0;
  ::waitpid(job->pid, &status, 0);
  if (live) fmt::print(stderr, "\r\033[K");
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
  const int signalled = g_stops > 0 ? static_cast<int>(g_stop_signal) : 0;
  const char* signal_name = signalled == SIGINT ? "SIGINT" : "SIGTERM";

  // Rank 0 ends with status 1 when its judge found a wrong total, and
  // mpirun passes that on: a run with a summary reports it all the same.
  if (got.summary.is_object()) {
    const int judged = ReportSummary(o, got.summary, signalled, signal_name);
    return code == 0 ? judged : std::max(judged, 1);
  }
  if (!got.run.is_object()) return ReportNotStarted(got.err_text, code);
  return ReportCutShort(got, signalled, signal_name, after_crash);
}

}  // namespace cutline::runtime
