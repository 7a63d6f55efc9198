// The `cutline` command: run, check and explain scenarios; print the demos
// and the study note's lab; serve the page; read a runtime's store.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "apps/bank/money.h"
#include "base/error_line.h"
#include "check/consistency_checker.h"
#include "check/events_log.h"
#include "check/findings.h"
#include "explore/explore.h"
#include "explore/explore_json.h"
#include "scenario/demos.h"
#include "scenario/json_output.h"
#include "scenario/runner.h"
#include "catalogue/sentences.h"
#include "scenario/shiviz.h"
#include "scenario/teller.h"
#include "scenario/text_output.h"
#include "cli/refuse.h"
#include "cli/runtime_commands.h"
#include "server/server.h"
#include "cli/store_commands.h"
#include "cli/test_command.h"

namespace {

using cutline::Lang;
using cutline::Status;
using cutline::scenario::Runner;
using cutline::scenario::Teller;
using cutline::catalogue::DemoLine;
using cutline::catalogue::Said;
using cutline::catalogue::Say;

using cutline::cli::kUsageError;
using cutline::cli::ParseLang;
using cutline::cli::PrintError;
using cutline::cli::Refuse;
using cutline::Code;

// A scenario from a file, or from standard input for "-"; on error prints
// why (in `lang`) and returns false.
bool ReadInput(const std::string& path, std::string* out, Lang lang) {
  if (path == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    *out = ss.str();
    return true;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    PrintError(Status::Error(Code::kScenarioIsDirectory, path), lang);
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    PrintError(Status::Error(Code::kCannotRead, path, std::strerror(errno)), lang);
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    PrintError(Status::Error(Code::kScenarioUnreadable, path), lang);
    return false;
  }
  *out = ss.str();
  return true;
}

// Runs a scenario; on error prints it (in `lang`) and returns false.
bool RunScenario(const std::string& text, Runner* runner, Lang lang,
                 const std::function<void(const cutline::scenario::StepResult&)>&
                     on_step = {}) {
  Status s = runner->RunText(text, on_step);
  if (s.ok() && runner->bank() == nullptr) {
    s = Status::Error(Code::kNoNetwork);
  }
  if (!s.ok()) {
    Refuse(s, lang);
    return false;
  }
  return true;
}

int RunCommand(const std::string& path, const std::string& format, Lang lang) {
  std::string text;
  if (!ReadInput(path, &text, lang)) return kUsageError;
  Runner runner;
  Teller teller(lang);
  // The text format tells each step as it runs, so that the steps before an
  // error are printed too.
  std::function<void(const cutline::scenario::StepResult&)> print_step;
  if (format == "text") {
    print_step = [&](const cutline::scenario::StepResult& step) {
      fmt::print("{}\n", step.command);
      for (const std::string& line : teller.Tell(runner)) {
        fmt::print("  {}\n", line);
      }
    };
  }
  bool ok = RunScenario(text, &runner, lang, print_step);
  if (!ok) return kUsageError;
  if (format == "json") {
    fmt::print("{}\n", cutline::scenario::Dump(cutline::scenario::StateJson(*runner.bank()), 2));
  } else if (format == "shiviz") {
    fmt::print("{}", cutline::scenario::ShiVizLog(*runner.bank()));
  } else if (format == "lab") {
    auto block = cutline::scenario::LabBlock(*runner.bank(), lang);
    if (!block) {
      PrintError(Status::Error(Code::kNoCompleteSnapshot), lang);
      return 1;
    }
    fmt::print("{}", *block);
  }
  return 0;
}

// Any implementation's logs in the open events format (docs/logs.md),
// judged by the same checker as a scenario's run.
int CheckEventsCommand(const std::string& dir, Lang lang) {
  cutline::StatusOr<cutline::check::EventsLog> log = cutline::check::ReadEventsLog(dir, lang);
  if (!log.ok()) return Refuse(log.status(), lang);
  const cutline::check::Findings& say = cutline::check::FindingsIn(lang);
  const cutline::check::CheckReport report = cutline::check::CheckEventsLog(*log);
  for (const std::string& problem : report.problems) fmt::print("{}\n", say.Fail(problem));
  // Snapshots aborted or cut short by a crash: notes, not findings.
  for (const std::string& note : log->notes) fmt::print("{}\n", note);
  // A snapshot never completed in logs that end is the implementation's
  // failure, unless none completed and nothing else is wrong: then nothing
  // was judged, and each is named as the reason (docs/logs.md).
  const bool judged = report.snapshots_checked > 0 || !report.ok();
  for (const auto& [id, processes] : log->incomplete) {
    const std::string line = say.NeverCompleted(id, processes, "part-done");
    fmt::print("{}\n", judged ? say.Fail(line) : line);
  }
  if (!report.ok() || (judged && !log->incomplete.empty())) return 1;
  if (!judged) {
    fmt::print("{}\n", say.NothingJudgedInLogs(log->processes.size(), false, log->lines));
    return cutline::cli::kNothingJudged;
  }
  cutline::Amount total = 0;
  for (cutline::Amount a : log->initial) total += a;
  fmt::print("{}\n", say.EventsLogOk(report.snapshots_checked, log->processes.size(), log->lines,
                                     cutline::apps::Money(total)));
  return 0;
}

int CheckCommand(const std::string& path, Lang lang) {
  std::string text;
  if (!ReadInput(path, &text, lang)) return kUsageError;
  Runner runner;
  if (!RunScenario(text, &runner, lang)) return kUsageError;
  const cutline::engine::Engine& bank = *runner.bank();
  const cutline::check::Findings& say = cutline::check::FindingsIn(lang);
  const cutline::scenario::Analysis analysis = cutline::scenario::Analyze(bank, nullptr, lang);
  const cutline::check::CheckReport& report = analysis.check;
  for (const std::string& problem : report.problems) fmt::print("{}\n", say.Fail(problem));
  // A scenario may end before its snapshots do: each is a note naming who
  // has not finished, not a finding (the script stopped, not the algorithm).
  for (const auto& s : bank.snapshots()) {
    if (s.complete) continue;
    std::vector<std::string> unfinished;
    for (cutline::sim::NodeId n = 0; n < bank.names().size(); ++n) {
      if (!bank.PartDone(n, s.id)) unfinished.push_back(bank.name(n));
    }
    fmt::print("{}\n", say.NotComplete(s.id, unfinished));
  }
  for (const std::string& line : cutline::scenario::PropertyCheckLines(analysis, lang)) {
    fmt::print("{}\n", line);
  }
  if (!report.ok()) return 1;
  if (report.snapshots_checked == 0) {
    fmt::print("{}\n", say.NothingJudgedInScenario(bank.snapshots().size()));
    return cutline::cli::kNothingJudged;
  }
  if (!bank.app().conserved()) {
    fmt::print("{}\n", say.AllDeclaredAsAtCut(report.snapshots_checked, bank.app()));
  } else {
    fmt::print("{}\n", say.AllConserved(report.snapshots_checked,
                                        cutline::apps::Money(bank.total())));
  }
  return 0;
}

int DemoCommand(int id, Lang lang) {
  // 1..5 the page's demos, 6..10 the variants', 16..18 the rules broken on
  // purpose (the lab run is `cutline lab`).
  const cutline::scenario::Demo* demo = cutline::scenario::FindDemo(id);
  Said title;
  title.id = static_cast<std::uint64_t>(id);
  title.list = demo->title.in(lang);
  fmt::print("{}\n", Say(DemoLine::kTitle, title, lang));
  Runner runner;
  Teller teller(lang);
  Status s = runner.Execute(cutline::scenario::PresetScenario(*demo), 1);
  if (!s.ok()) return 1;  // the presets are constants; cannot fail
  fmt::print("{}\n\n", teller.Tell(runner).front());
  int line = 2;
  for (const auto& step : demo->steps) {
    s = runner.Execute(step.command, line);
    if (!s.ok()) {
      fmt::print(stderr, "cutline: internal error in demo {}: {}\n", id,
                 cutline::catalogue::Message(s, Lang::kEn));
      return 1;
    }
    Said heading;
    heading.id = static_cast<std::uint64_t>(line - 1);
    heading.list = step.command;
    fmt::print("{}\n", Say(DemoLine::kStep, heading, lang));
    fmt::print("  {}\n", step.caption.in(lang));
    for (const std::string& l : teller.Tell(runner)) {
      fmt::print("  - {}\n", l);
    }
    fmt::print("\n");
    ++line;
  }
  fmt::print("{}\n", Say(DemoLine::kFinalState, {}, lang));
  const cutline::scenario::Analysis analysis = cutline::scenario::Analyze(*runner.bank());
  for (const std::string& l : cutline::scenario::ShowLines(analysis, lang)) {
    fmt::print("  {}\n", l);
  }
  return 0;
}

int LabCommand(Lang lang) {
  const auto* demo = cutline::scenario::FindDemo(cutline::scenario::kLabDemoId);
  Runner runner;
  Status s = runner.RunText(cutline::scenario::DemoScenario(*demo));
  if (!s.ok()) return 1;
  fmt::print("{}", cutline::scenario::LabBlock(*runner.bank(), lang).value_or(""));
  return 0;
}

// What the scenario commands (run, check, demo, lab) were given. CLI11
// writes into it while parsing, so it lives as long as main.
struct ScenarioArgs {
  CLI::App* run = nullptr;
  CLI::App* check = nullptr;
  CLI::App* demo = nullptr;
  CLI::App* lab = nullptr;
  std::string run_path, run_format = "text";
  bool run_json = false;
  std::string lang = "en";  // run's, check's, demo's and lab's --lang
  std::string check_path, check_logs, check_format = "text";
  int demo_id = 0;
  CLI::App* explore = nullptr;
  std::string explore_path, explore_starts = "as-written";
  cutline::explore::Options explore_options;
  bool explore_json = false;
};

// `run FILE` and its options. Each command is added by a function of its
// own, so that main reads as the list of them.
void AddRunCommand(CLI::App& app, ScenarioArgs& a) {
  a.run = app.add_subcommand("run", "Run a scenario file (or - for stdin)");
  a.run->add_option("file", a.run_path, "Scenario file, or - for standard input")
      ->required();
  auto* json_flag = a.run->add_flag("--json", a.run_json, "Print the final state as JSON");
  a.run->add_option("--format", a.run_format,
                    "Output: text, json, lab or shiviz (the history for ShiViz)")
      ->check(CLI::IsMember({"text", "json", "lab", "shiviz"}))
      ->excludes(json_flag);
  a.run->add_option("--lang", a.lang, "Language of the narration: en or ja")
      ->check(CLI::IsMember({"en", "ja"}));
}

// `check FILE` or `check --logs DIR [--format ...]`.
void AddCheckCommand(CLI::App& app, ScenarioArgs& a) {
  a.check = app.add_subcommand(
      "check", "Verify every complete snapshot: of a scenario, or of a real run's logs");
  auto* check_file =
      a.check->add_option("file", a.check_path, "Scenario file, or - for standard input");
  auto* logs_option =
      a.check->add_option("--logs", a.check_logs,
                          "A folder of logs: a cluster run's --log-dir, or any implementation's "
                          "logs in the events format (--format events)")
          ->excludes(check_file);
  a.check->add_option("--format", a.check_format,
                      "With --logs: text (check a cluster run's logs), events (check logs in the "
                      "open events format, docs/logs.md) or shiviz (a cluster run's logs for "
                      "ShiViz)")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "events", "shiviz"}))
      ->needs(logs_option);
  a.check->add_option("--lang", a.lang, "Language of the findings and the verdict: en or ja")
      ->check(CLI::IsMember({"en", "ja"}));
}

// `explore FILE`: every schedule of a scenario, judged.
void AddExploreCommand(CLI::App& app, ScenarioArgs& a) {
  a.explore = app.add_subcommand(
      "explore", "Judge a scenario's snapshots in every schedule; find the shortest that breaks one");
  a.explore->add_option("file", a.explore_path, "Scenario file, or - for standard input")->required();
  a.explore->add_option("--starts", a.explore_starts,
                        "as-written: snapshots start where the scenario starts them; anywhere: "
                        "each start at every point of the schedule")
      ->capture_default_str()
      ->check(CLI::IsMember({"as-written", "anywhere"}));
  a.explore->add_option("--max-states", a.explore_options.max_states,
                        "Stop after this many distinct states (exit 3); 0: no bound")
      ->capture_default_str();
  a.explore->add_option("--max-seconds", a.explore_options.max_seconds,
                        "Stop after this many seconds (exit 3); 0: no bound")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  a.explore->add_flag("--exact", a.explore_options.exact,
                      "Keep each visited state whole, not as a 64-bit fingerprint (more memory, no "
                      "chance of a collision)");
  a.explore->add_flag("--json", a.explore_json, "Print the result as JSON");
  a.explore->add_option("--lang", a.lang, "Language: en or ja")->check(CLI::IsMember({"en", "ja"}));
}

// 0: right in every schedule; 1: broken, or a snapshot that never completes
// (the shortest schedule printed as a scenario, every other line a comment,
// so that the output runs as it is); 3: a bound stopped it, or no schedule
// starts a snapshot; 2: refused.
int ExploreCommand(const ScenarioArgs& a) {
  const Lang lang = ParseLang(a.lang);
  std::string text;
  if (!ReadInput(a.explore_path, &text, lang)) return kUsageError;
  cutline::explore::Options options = a.explore_options;
  options.starts_anywhere = a.explore_starts == "anywhere";
  options.lang = lang;
  // On stderr: standard output stays a scenario that runs as it is.
  options.progress = [lang](const cutline::explore::Progress& p) {
    fmt::print(stderr, "# {}\n",
               cutline::check::FindingsIn(lang).ExploredSoFar(p.states, p.depth, p.queued, p.seconds));
    std::fflush(stderr);
  };
  cutline::StatusOr<cutline::explore::Result> found = cutline::explore::Explore(text, options);
  if (!found.ok()) return Refuse(found.status(), lang);
  const cutline::explore::Result& r = *found;
  using cutline::explore::Outcome;
  // A bound, or no snapshot to judge: no verdict.
  const int code = r.outcome == Outcome::kRight ? 0 : r.outcome == Outcome::kBroken ? 1 : 3;
  const nlohmann::json out = cutline::explore::ResultJson(r, options);
  if (a.explore_json) {
    fmt::print("{}\n", out.dump(2));
    return code;
  }
  // The same sentences as the JSON's, as comments: the output runs as a scenario.
  fmt::print("# {}\n", out["summary"].get<std::string>());
  if (out.contains("fingerprints")) fmt::print("# {}\n", out["fingerprints"].get<std::string>());
  fmt::print("# {}\n", out["verdict"].get<std::string>());
  if (r.outcome == Outcome::kBroken) {
    const cutline::check::Findings& say = cutline::check::FindingsIn(lang);
    for (const std::string& line : r.counterexample) fmt::print("{}\n", line);
    for (const std::string& finding : r.findings) fmt::print("# {}\n", say.Fail(finding));
  }
  return code;
}

// `demo N` and `lab`: the demos' table played with narration.
void AddDemoCommands(CLI::App& app, ScenarioArgs& a) {
  a.demo = app.add_subcommand("demo", "Narrate one of the page's demos");
  a.demo->add_option("n", a.demo_id,
                     "Demo number: 1 to 10, 12 to 15 (jobs and locks), or 16 to 18 "
                     "(rules broken on purpose)")
      ->required()
      ->check(CLI::Range(1, 10) | CLI::Range(cutline::scenario::kFirstAppDemo,
                                             cutline::scenario::kLastBrokenDemo));
  a.demo->add_option("--lang", a.lang, "Language: en or ja")
      ->check(CLI::IsMember({"en", "ja"}));

  a.lab = app.add_subcommand("lab", "The study note's two-account run");
  a.lab->add_option("--lang", a.lang, "Language: en or ja")
      ->check(CLI::IsMember({"en", "ja"}));
}

// What `serve` was given: the server's options, and its timeouts in seconds
// until they are set in those options after parsing.
struct ServeArgs {
  CLI::App* serve = nullptr;
  cutline::server::Options options;
  int idle_seconds = 60;
  int request_seconds = 10;
};

// `serve` and its options: where, and the server's limits and timeouts.
void AddServeCommand(CLI::App& app, ServeArgs& a) {
  cutline::server::Options& o = a.options;
  a.serve = app.add_subcommand("serve", "Serve the teaching page");
  a.serve->add_option("--host", o.host, "Address to bind")->capture_default_str();
  a.serve->add_option("--port", o.port, "Port to listen on")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  a.serve->add_option("--web-dir", o.web_dir,
                      "Serve the page from this folder instead of the embedded copy");
  a.serve->add_option("--store", o.store,
                      "Also show this runtime store's snapshots, live while a run writes it");
  a.serve->add_option("--max-connections", o.http.max_connections,
                      "Open connections at once; past it a new one gets 503")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  a.serve->add_option("--max-lectures", o.lecture.max_rooms,
                      "Lectures (rooms) held at once; past it a new one is refused")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  a.serve->add_option("--max-students", o.lecture.max_students,
                      "Students one lecture admits; past it a join is refused")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  a.serve->add_option("--run-cache", o.run_cache,
                      "Answers to /api/run kept by request, for a class asking the same run "
                      "(0: none)")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{0}, std::size_t{4096}));
  a.serve->add_option("--idle-timeout", a.idle_seconds,
                      "Seconds a silent connection stays open between requests")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
  a.serve->add_option("--request-timeout", a.request_seconds,
                      "Seconds a request may take to arrive, once begun")
      ->capture_default_str()
      ->check(CLI::Range(1, 3600));
}

// Parses the command line: nothing to go on with, else the exit code (the
// help was printed, or the usage error in one line, in English: no --lang
// has been read yet).
std::optional<int> ParseArguments(CLI::App& app, int argc, char** argv) {
  // CLI11 would call an unknown word "a missing subcommand"; say what it is.
  if (argc > 1 && argv[1][0] != '-' && app.get_subcommands([&](CLI::App* sub) {
        return sub->get_name() == argv[1];
      }).empty()) {
    return Refuse(Status::Error(Code::kCliUnknownCommand, argv[1]), Lang::kEn);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return Refuse(Status::Error(Code::kCliBadArguments, e.what()), Lang::kEn);
  }
  return std::nullopt;
}

// run, check, demo or lab, if one was chosen: its exit code.
std::optional<int> RunScenarioCommand(const ScenarioArgs& a) {
  if (*a.run) {
    return RunCommand(a.run_path, a.run_json ? "json" : a.run_format, ParseLang(a.lang));
  }
  if (*a.check) {
    const Lang lang = ParseLang(a.lang);
    if (!a.check_logs.empty() && a.check_format == "events") {
      return CheckEventsCommand(a.check_logs, lang);
    }
    if (!a.check_logs.empty()) {
      return cutline::cli::CheckLogsCommand(a.check_logs, a.check_format, lang);
    }
    if (a.check_path.empty()) {
      return Refuse(Status::Error(Code::kCheckNeedsInput), lang);
    }
    return CheckCommand(a.check_path, lang);
  }
  if (*a.explore) return ExploreCommand(a);
  if (*a.demo) return DemoCommand(a.demo_id, ParseLang(a.lang));
  if (*a.lab) return LabCommand(ParseLang(a.lang));
  return std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "cutline: global snapshots (Chandy-Lamport) of a bank that never stops"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every subcommand");

  ScenarioArgs scenario;
  AddRunCommand(app, scenario);
  AddCheckCommand(app, scenario);
  AddExploreCommand(app, scenario);
  AddDemoCommands(app, scenario);
  ServeArgs serve;
  AddServeCommand(app, serve);
  cutline::cli::RuntimeCommands runtime_commands(app);
  cutline::cli::StoreCommand store_command(app);
  cutline::cli::TestCommand test_command(app);

  if (std::optional<int> code = ParseArguments(app, argc, argv)) return *code;

  // A scenario can ask for more than the machine has (a network line of
  // thousands of branches has millions of channels): one line, not a crash.
  try {
    if (std::optional<int> code = RunScenarioCommand(scenario)) return *code;
    if (auto code = runtime_commands.Run(&argc, &argv)) return *code;
    if (store_command.chosen()) return store_command.Run();
    if (test_command.chosen()) return test_command.Run();
    if (*serve.serve) {
      serve.options.http.idle_timeout = std::chrono::seconds(serve.idle_seconds);
      serve.options.http.request_timeout = std::chrono::seconds(serve.request_seconds);
      return cutline::server::Serve(serve.options);
    }
  } catch (const std::bad_alloc&) {
    // A scenario command's --lang (the commands a scenario can make too large).
    PrintError(Status::Error(Code::kOutOfMemory), ParseLang(scenario.lang));
  } catch (const std::exception& e) {
    cutline::PrintErrorLine(e.what());  // unexpected: its own words, as they are
  }
  return kUsageError;
}
