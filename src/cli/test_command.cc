#include "cli/test_command.h"

#include <fmt/format.h>

#include <sstream>

#include "apps/bank/money.h"
#include "catalogue/test_lines.h"
#include "check/findings.h"
#include "cli/refuse.h"
#include "harness/schedule_file.h"

namespace cutline::cli {

namespace {

using catalogue::TestLine;
using catalogue::TestSaid;
using harness::Step;

// "--bin 'python3 node.py --break x'" is one word to the shell: its words.
std::vector<std::string> Words(const std::vector<std::string>& given) {
  if (given.size() != 1) return given;
  std::vector<std::string> words;
  std::istringstream in(given[0]);
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// The command that replays `file`, as a user types it.
std::string ReplayCommand(const std::string& file, const std::vector<std::string>& bin) {
  std::string program;
  for (const std::string& w : bin) program += (program.empty() ? "" : " ") + w;
  const bool quote = bin.size() > 1;
  return fmt::format("cutline test --replay {} --bin {}{}{}", file, quote ? "'" : "", program,
                     quote ? "'" : "");
}

// The steps of a schedule as the tester says them, played on the trie the
// search filled (no process runs).
std::vector<std::string> StepLines(harness::Nodes* nodes, const harness::Rules& rules,
                                   const std::vector<Step>& path) {
  harness::World world(nodes, rules);
  std::vector<std::string> lines;
  StatusOr<harness::State> s = world.Start();
  for (const Step& step : path) {
    if (!s.ok()) break;
    lines.push_back(world.Describe(*s, step));
    s = world.Apply(*s, step);
  }
  return lines;
}

}  // namespace

TestCommand::TestCommand(CLI::App& app) {
  test_ = app.add_subcommand(
      "test", "Test any program's snapshots: run it as the nodes, choose every delivery, judge "
              "every snapshot, shrink a failure (docs/harness.md)");
  test_->add_option("--bin", bin_,
                    "The program to run as each node, and its arguments (quoted as one word "
                    "when they start with -)")
      ->required()
      ->expected(1, -1);
  test_->add_option("--replay", replay_,
                    "Play a failing schedule a test wrote, step by step, with each node's stderr");
  test_->add_option("--schedules", schedules_, "random:K (K random schedules) or every")
      ->capture_default_str();
  test_->add_option("--seed", seed_, "The first random schedule's seed, and the workload's")
      ->capture_default_str();
  test_->add_option("--nodes", nodes_, "Nodes")->capture_default_str()->check(CLI::Range(2, 16));
  test_->add_option("--balance", balance_, "Each node's balance at the start")
      ->capture_default_str()
      ->check(CLI::Range(std::int64_t{0}, std::int64_t{1} << 40));
  test_->add_option("--transfers", transfers_, "Transfers in the workload")
      ->capture_default_str()
      ->check(CLI::Range(0, 1000));
  test_->add_option("--snapshots", snapshots_, "Snapshots in the workload (at least 1)")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  test_->add_flag("--reorder", reorder_, "Channels deliver in any order, not FIFO");
  test_->add_option("--drop", lose_,
                    "Random schedules: the chance each of the algorithm's own messages is lost "
                    "(transfers never are)")
      ->check(CLI::Range(0.0, 1.0));
  test_->add_option("--max-states", max_states_, "every: stop after this many states (exit 3)")
      ->capture_default_str();
  test_->add_option("--max-seconds", max_seconds_, "Stop after this many seconds (exit 3)")
      ->check(CLI::NonNegativeNumber);
  test_->add_option("--timeout-ms", timeout_ms_,
                    "How long a node may take to answer one input before it is said to hang")
      ->capture_default_str()
      ->check(CLI::Range(1, 600000));
  test_->add_flag("--no-shrink", no_shrink_, "Report a failure as found, unshrunk");
  test_->add_flag("--no-reduction", no_reduction_,
                  "every: take every interleaving, without the partial-order reduction "
                  "(the same verdicts, more states: for comparison)");
  test_->add_option("--out", out_, "Where a failing schedule is written")->capture_default_str();
  test_->add_option("--lang", lang_, "Language: en or ja")->check(CLI::IsMember({"en", "ja"}));
}

int TestCommand::Run() const {
  const Lang lang = ParseLang(lang_);
  if (!replay_.empty()) return Replay();
  harness::SearchOptions o;
  o.lang = lang;
  if (schedules_ == "every") {
    o.every = true;
  } else {
    std::uint64_t k = 0;
    std::size_t used = 0;
    const bool random = schedules_.rfind("random:", 0) == 0;
    try {
      if (random) k = std::stoull(schedules_.substr(7), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (!random || k == 0 || used != schedules_.size() - 7) {
      return Refuse(Status::Error(Code::kTestBadSchedules, schedules_), lang);
    }
    o.schedules = k;
  }
  if (snapshots_ == 0) return Refuse(Status::Error(Code::kTestNoSnapshots), lang);
  o.seed = seed_;
  o.lose = lose_;
  o.rules.reorder = reorder_;
  o.rules.lose = o.every && lose_ > 0;
  o.max_states = max_states_;
  o.max_seconds = max_seconds_;
  o.shrink = !no_shrink_;
  o.reduction = !no_reduction_;
  const harness::Workload workload =
      harness::Workload::Generate(nodes_, balance_, transfers_, snapshots_, seed_);
  const std::vector<std::string> bin = Words(bin_);
  if (std::string why = harness::NodeProcess::Unrunnable(bin.at(0)); !why.empty()) {
    return Refuse(Status::Error(Code::kTestCannotStart, bin[0], why), lang);
  }
  harness::Nodes nodes(workload, {bin, std::chrono::milliseconds(timeout_ms_)});
  const harness::SearchResult r = harness::Search(&nodes, o);
  nodes.StopAll();
  const std::string total = apps::Money(workload.total());
  TestSaid said;
  using Outcome = harness::SearchResult::Outcome;
  if (r.outcome == Outcome::kOk) {
    if (o.every) {
      said.count = r.states;
      said.count2 = r.schedules;
      said.count3 = r.judged;
      said.count4 = nodes.processes_started();
      said.text = total;
      fmt::print("{}\n", catalogue::Say(TestLine::kEveryOk, said, lang));
    } else {
      said.count = r.schedules;
      said.count2 = nodes_;
      said.count3 = transfers_;
      said.count4 = snapshots_;
      said.id = r.judged;
      said.text = total;
      fmt::print("{}\n", catalogue::Say(TestLine::kRandomOk, said, lang));
    }
    return 0;
  }
  if (r.outcome == Outcome::kBounded) {
    said.text = r.bound;
    said.count = r.states;
    said.count2 = r.schedules;
    fmt::print("{}\n", catalogue::Say(TestLine::kBounded, said, lang));
    return kNothingJudged;  // a bound stopped it: no verdict, as explore says
  }
  const harness::Failure& f = *r.failure;
  said.count = f.found_steps;
  said.id = f.schedule;
  said.seed = f.seed;
  said.count2 = r.states;
  fmt::print("{}\n", catalogue::Say(o.every ? TestLine::kFailedEvery : TestLine::kFailedRandom, said, lang));
  const check::Findings& say = check::FindingsIn(lang);
  for (const std::string& finding : f.findings) fmt::print("{}\n", say.Fail(finding));
  if (o.shrink) {
    said.count = f.path.size();
    said.count2 = f.found_steps;
    said.seconds = f.shrink_seconds;
    said.count3 = f.shrink_runs;
    fmt::print("{}\n", catalogue::Say(TestLine::kShrunk, said, lang));
  }
  harness::Rules rules = o.rules;
  rules.skipped = f.skipped;
  const std::vector<std::string> steps = StepLines(&nodes, rules, f.path);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    fmt::print("  {:>3}. {}\n", i + 1, steps[i]);
  }
  harness::ScheduleFile file{workload, rules, f.path, f.findings, bin, std::nullopt};
  // What happened at each step, for the page (judged again on the trie the
  // search filled: no process runs). A schedule that ends on the program's
  // fault has none: the page cannot draw it, --replay can.
  harness::World traced(&nodes, rules);
  if (StatusOr<harness::Trace> t = harness::TraceOf(traced, f.path); t.ok()) {
    file.trace = std::move(*t);
  }
  nodes.StopAll();
  if (Status s = harness::WriteScheduleFile(out_, file); !s.ok()) {
    PrintError(s, lang);
    return 1;
  }
  said.text = out_;
  said.more = ReplayCommand(out_, bin);
  fmt::print("{}\n", catalogue::Say(TestLine::kWritten, said, lang));
  return 1;
}

// Plays the file's schedule on fresh processes, saying each step, what the
// node it reached wrote, and what it logged; then the judge's verdict now.
int TestCommand::Replay() const {
  const Lang lang = ParseLang(lang_);
  StatusOr<harness::ScheduleFile> file = harness::ReadScheduleFile(replay_);
  if (!file.ok()) return Refuse(file.status(), lang);
  if (std::string why = harness::NodeProcess::Unrunnable(Words(bin_).at(0)); !why.empty()) {
    return Refuse(Status::Error(Code::kTestCannotStart, Words(bin_)[0], why), lang);
  }
  harness::Nodes nodes(file->workload, {Words(bin_), std::chrono::milliseconds(timeout_ms_)});
  harness::World world(&nodes, file->rules);
  const check::Findings& say = check::FindingsIn(lang);
  auto fault = [&](const Status& s) {
    fmt::print("{}\n", say.Fail(catalogue::Message(s, lang)));
    return 1;
  };
  auto show = [&](std::uint32_t local) {
    const harness::Local& l = nodes.local(local);
    TestSaid said;
    said.text = file->workload.nodes[l.node];
    for (const std::string& line : l.lines) {
      said.more = line;
      fmt::print("{}\n", catalogue::Say(TestLine::kReplaySent, said, lang));
    }
    std::istringstream log(l.log);
    for (std::string line; std::getline(log, line);) {
      said.more = line;
      fmt::print("{}\n", catalogue::Say(TestLine::kReplayLog, said, lang));
    }
  };
  StatusOr<harness::State> s = world.Start();
  if (!s.ok()) return fault(s.status());
  for (std::uint32_t n = 0; n < s->local.size(); ++n) show(s->local[n]);
  // The file's steps, then (as the shrinker played it) the first step
  // allowed until none is: on another program the same schedule may need
  // more steps to end.
  std::vector<Step> taken;
  for (std::size_t i = 0;; ++i) {
    const std::vector<Step> enabled = world.Enabled(*s);
    if (i >= file->steps.size() && enabled.empty()) break;
    const Step step = i < file->steps.size() ? file->steps[i] : enabled.front();
    if (!world.Allows(*s, step)) {
      std::string what = step.kind == Step::Kind::kCommand
                             ? file->workload.Describe(file->workload.commands[step.index])
                             : fmt::format("{}→{} #{}", file->workload.nodes[step.from],
                                           file->workload.nodes[step.to], step.index);
      return Refuse(Status::Error(Code::kTestStepImpossible, replay_, i + 1, what), lang);
    }
    TestSaid said;
    said.id = i + 1;
    said.text = world.Describe(*s, step);
    fmt::print("{}\n", catalogue::Say(TestLine::kReplayStep, said, lang));
    StatusOr<harness::State> next = world.Apply(*s, step);
    if (!next.ok()) return fault(next.status());
    s = std::move(next);
    taken.push_back(step);
    if (step.kind == Step::Kind::kCommand) {
      show(s->local[file->workload.commands[step.index].node]);
    } else if (step.kind == Step::Kind::kDeliver) {
      show(s->local[step.to]);
    }
  }
  StatusOr<harness::Verdict> v = harness::Judge(world, taken, lang);
  if (!v.ok()) return fault(v.status());
  // Never a pass about nothing: a schedule shrunk from a protocol fault may
  // leave every snapshot out.
  if (v->ok() && v->judged == 0) {
    fmt::print("{}\n", catalogue::Say(TestLine::kReplayNothing, {}, lang));
    return kNothingJudged;
  }
  TestSaid end;
  end.count = v->findings.size();
  end.count2 = v->judged;
  fmt::print("{}\n", catalogue::Say(TestLine::kReplayEnd, end, lang));
  for (const std::string& finding : v->findings) fmt::print("{}\n", say.Fail(finding));
  return v->ok() ? 0 : 1;
}

}  // namespace cutline::cli
