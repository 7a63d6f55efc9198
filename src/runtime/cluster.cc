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

#include "base/error_line.h"
#include "base/lang.h"
#include "catalogue/cluster_lines.h"

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

using catalogue::ClusterLine;
using catalogue::EndingLine;

// The application a line of rank 0 names (the bank for a line that names
// none, as lines did before applications).
apps::App AppOf(const json& line) { return apps::App::NamedOrBank(line.value("app", "")); }

double Ms(const json& us) { return us.get<double>() / 1000; }

// The figures of rank 0's status line or summary, in the application's
// words, as the catalogue tells them (catalogue/cluster_lines.h).
catalogue::RunFigures FiguresOf(const json& s, apps::App app, Lang lang) {
  catalogue::RunFigures f;
  f.work = app.definition().work;
  // A total or a final state in the application's words ("$300", "12 records").
  auto in_words = [&](const json& v) { return app.words().state(v.get<Amount>(), {}, lang); };
  f.run = s.value("run", std::int64_t{0});
  f.ranks = s.value("ranks", 0);
  f.work_done = s.value("transfers", std::uint64_t{0});
  f.per_s = s.value("transfers_per_s", 0.0);
  f.complete = s.value("complete", std::uint64_t{0});
  f.failed = s.value("failed", std::uint64_t{0});
  f.wrong = s.value("wrong_totals", std::uint64_t{0});
  f.timed_out = s.value("timed_out", std::uint64_t{0});
  if (s.contains("restored_from") && !s["restored_from"].is_null()) {
    f.restored_from = s["restored_from"].get<std::uint64_t>();
  }
  if (s.contains("latest_total") && !s["latest_total"].is_null()) {
    f.latest_total = in_words(s["latest_total"]);
  }
  f.left_s = static_cast<double>(s.value("left_ms", std::int64_t{0})) / 1000.0;
  if (!s.contains("latency_p50_us")) return f;  // a status line
  f.p50_ms = Ms(s["latency_p50_us"]);
  f.p99_ms = Ms(s["latency_p99_us"]);
  f.peak_mib = static_cast<double>(s.value("rank0_peak_rss_bytes", std::uint64_t{0})) / (1 << 20);
  f.cpu_s = s.value("rank0_cpu_s", 0.0);
  if (app.vertices()) {
    f.topology = s["topology"].get<std::string>();
    f.algorithm = s["algorithm"].get<std::string>();
    f.emitted = s["emitted"].get<std::uint64_t>();
    f.exactly_once = s["exactly_once"].get<bool>();
    f.alignment_p50_ms = Ms(s["alignment_p50_us"]);
    f.alignment_p99_ms = Ms(s["alignment_p99_us"]);
    f.held_back = s["held_back_per_snapshot"].get<double>();
    f.persisted = s["persisted_records_per_snapshot"].get<double>();
    f.persisted_bytes = s["persisted_bytes_per_snapshot"].get<double>();
    f.unaligned_channels = s["unaligned_channels"].get<std::uint64_t>();
    f.channels = s["channels"].get<std::uint64_t>();
    f.switched = s["switched_snapshots"].get<std::uint64_t>();
    return f;
  }
  f.stop_p50_ms = Ms(s["stop_p50_us"]);
  f.stop_p99_ms = Ms(s["stop_p99_us"]);
  f.collected_bytes = s["collected_bytes_per_snapshot"].get<double>();
  f.collect_p50_ms = Ms(s["collect_p50_us"]);
  f.collect_p99_ms = Ms(s["collect_p99_us"]);
  f.final_total = in_words(s["final_total"]);
  f.bank_total = in_words(s["bank_total"]);
  f.conserved = s["final_total"] == s["bank_total"];
  if (!s.contains("property")) return f;
  // jobs and locks: what the run was for. When the first snapshot found
  // the property, against when it became true by the ranks' clocks, and
  // how often the naive detector was wrong.
  const json& p = s["property"];
  const apps::AppWords& words = app.words();
  f.property = p["property"].get<std::string>();
  f.became_true = !p["true_us"].is_null();
  if (!p["detected_by"].is_null()) {
    f.detected_by = p["detected_by"].get<std::uint64_t>();
    // The verdict in the application's words and the run's language
    // ("terminated", "deadlocked: P1 → P2 → P1").
    std::vector<std::string> cycle;
    if (p.contains("cycle") && p["cycle"].is_array()) cycle = p["cycle"].get<std::vector<std::string>>();
    f.detected = words.in(lang).verdict(true, cycle, {});
  }
  if (!p["delay_us"].is_null()) f.delay_ms = Ms(p["delay_us"]);
  f.became_true_how = std::string(words.in(lang).became_true);
  f.naive_false_what = std::string(words.in(lang).naive_false);
  f.naive_rounds = p["naive_rounds"].get<std::uint64_t>();
  f.naive_declared = p["naive_declared"].get<std::uint64_t>();
  f.naive_false = p["naive_false"].get<std::uint64_t>();
  return f;
}

std::string StatusLine(const json& s, apps::App app, Lang lang) {
  return catalogue::ClusterText(ClusterLine::kStatus, FiguresOf(s, app, lang), lang);
}

// The summary's lines: the application's own figures, in its words.
void PrintSummary(const json& s, Lang lang) {
  const apps::App app = AppOf(s);
  const catalogue::RunFigures f = FiguresOf(s, app, lang);
  std::vector<ClusterLine> lines;
  if (app.vertices()) {
    lines = {ClusterLine::kDataflowRun, ClusterLine::kDataflowSnapshots, ClusterLine::kDataflowCost};
  } else if (app.has_property()) {
    lines = {ClusterLine::kRun, ClusterLine::kSnapshots,
             f.detected_by ? ClusterLine::kPropertyDetected : ClusterLine::kPropertyMissed,
             ClusterLine::kNaive};
  } else {
    lines = {ClusterLine::kRun, ClusterLine::kSnapshots};
    if (f.stop_p50_ms > 0) lines.push_back(ClusterLine::kStopTime);
    lines.insert(lines.end(), {ClusterLine::kCollector, ClusterLine::kTotal});
  }
  for (ClusterLine line : lines) fmt::print("{}\n", catalogue::ClusterText(line, f, lang));
  std::fflush(stdout);
}

// One line on standard error about how the run ended; an error's carries
// the error's prefix.
void PrintEnding(EndingLine line, const catalogue::Ending& e, Lang lang, bool error) {
  const std::string text = catalogue::EndingText(line, e, lang);
  if (error) {
    PrintErrorLine(text);
  } else {
    fmt::print(stderr, "cutline: {}\n", text);
  }
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
std::optional<Job> StartJob(std::vector<std::string> command, Lang lang) {
  int out[2], err[2];
  if (::pipe(out) != 0 || ::pipe(err) != 0) {
    catalogue::Ending e;
    e.first_line = std::strerror(errno);
    PrintEnding(EndingLine::kNoMpirun, e, lang, true);
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
    // Read back by the parent as the failed job's first line.
    catalogue::Ending e;
    e.first_line = std::strerror(errno);
    fmt::print(stderr, "{}\n", catalogue::EndingText(EndingLine::kNoMpirun, e, lang));
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

// One line of the job's standard output: rank 0's run, status, summary or
// notice line, else a rank's own output, printed as it is.
void TakeLine(const std::string& line, bool live, Lang lang, JobOutput& got) {
  auto space = line.find(' ');
  std::string kind = line.substr(0, space);
  json body = json::parse(space == std::string::npos ? "" : line.substr(space + 1), nullptr, false);
  if (kind == "cutline-run" && !body.is_discarded()) {
    got.run = body;
  } else if (kind == "cutline-status" && !body.is_discarded()) {
    if (live) fmt::print(stderr, "\r\033[K{}", StatusLine(body, AppOf(got.run), lang));
  } else if (kind == "cutline-summary" && !body.is_discarded()) {
    got.summary = body;
  } else if (kind == "cutline-notice" && body.is_string()) {
    // Said to the person, beside the output: `--json` keeps standard
    // output one JSON object.
    fmt::print(stderr, "{}cutline: {}\n", live ? "\r\033[K" : "", body.get<std::string>());
  } else {
    fmt::print("{}\n", line);  // a rank's own output
  }
}

// Reads the job's output and error until both close, passing a stop
// (Ctrl-C, SIGTERM) on to it as it comes.
JobOutput WatchJob(const Job& job, bool live, Lang lang) {
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
        TakeLine(line, live, lang, got);
      }
    }
  }
  return got;
}

// The job ended and rank 0 wrote its summary: prints it; the exit code says
// whether the run was stopped early, gave up, or was judged wrong (rank 0's
// own verdict, "exit_code").
int ReportSummary(const ClusterOptions& o, const json& summary, int signalled,
                  const char* signal_name) {
  const Lang lang = o.node.lang;
  if (o.json) {
    fmt::print("{}\n", summary.dump());
  } else {
    PrintSummary(summary, lang);
  }
  catalogue::Ending e;
  if (signalled) {
    e.signal = signal_name;
    PrintEnding(EndingLine::kStoppedEarly, e, lang, false);
    return 128 + signalled;
  }
  const auto gave_up = summary.value("gave_up", std::vector<std::uint64_t>{});
  if (!gave_up.empty()) {
    e.ids = fmt::format("{}", fmt::join(gave_up, ", "));
    e.count = gave_up.size();
    PrintEnding(EndingLine::kGaveUp, e, lang, true);
    return 1;
  }
  return summary.value("exit_code", 1);
}

// The job never started: the node's one-line error, which Open MPI's abort
// banner may come before (the ranks' standard errors interleave), else
// mpirun's own complaint.
int ReportNotStarted(const std::string& err_text, int code, Lang lang) {
  std::smatch own;
  if (std::regex_search(err_text, own, std::regex(R"((?:^|\n)(cutline: error: [^\n]*))"))) {
    fmt::print(stderr, "{}\n", own[1].str());
    return 2;
  }
  catalogue::Ending e;
  e.status = code;
  e.first_line = err_text.substr(0, err_text.find('\n'));
  PrintEnding(EndingLine::kMpirunFailed, e, lang, true);
  return 2;
}

// The job started but ended without a summary: stopped twice, or a rank
// died and Open MPI ended the job. Says so, with the last complete snapshot.
int ReportCutShort(const JobOutput& got, int signalled, const char* signal_name,
                   const AfterCrash& after_crash, Lang lang) {
  const std::string& err_text = got.err_text;
  const std::int64_t run = got.run.value("run", std::int64_t{0});
  catalogue::Ending e;
  e.latest = after_crash ? after_crash(run) : "not stored";
  if (signalled) {
    // Stopped twice: the job was ended at once, like a crash.
    e.signal = signal_name;
    PrintEnding(EndingLine::kStoppedTwice, e, lang, false);
    return 128 + signalled;
  }
  // A rank that ended itself on an error (rank 0 whose store cannot be
  // written: a full disk) said why in one line: that line is the news, not
  // Open MPI's report of a death.
  std::smatch m;
  if (std::regex_search(err_text, m, std::regex(R"((?:^|\n)cutline: error: ([^\n]*))"))) {
    e.reason = m[1].str();
    PrintEnding(EndingLine::kRankErrored, e, lang, true);
    return 1;
  }
  // A rank died, and Open MPI ended the job.
  if (std::regex_search(err_text, m, std::regex(R"(process rank (\d+) with PID \d+ on node \S+ exited on signal (\d+))"))) {
    e.who = m[1].str();
    e.by_signal = std::stoi(m[2].str());
  } else if (std::regex_search(err_text, m, std::regex(R"(rank (\d+))"))) {
    e.who = m[1].str();
  }
  PrintEnding(EndingLine::kRankDied, e, lang, false);
  return 1;
}

}  // namespace

int RunCluster(const ClusterOptions& o, const std::string& self, const AfterCrash& after_crash) {
  const Lang lang = o.node.lang;
  std::optional<Job> job = StartJob(MpirunCommand(o, self), lang);
  if (!job) return 2;
  bool live = ::isatty(2);
  JobOutput got = WatchJob(*job, live, lang);
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
  if (!got.run.is_object()) return ReportNotStarted(got.err_text, code, lang);
  return ReportCutShort(got, signalled, signal_name, after_crash, lang);
}

}  // namespace cutline::runtime
