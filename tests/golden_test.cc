// Golden scenario tests (cockroachdb/datadriven style): each testdata/*.txt
// file is a scenario where every command is followed by "----" and the exact
// output it must produce. `golden_test --rewrite` regenerates the expected
// blocks; read the diff like code before committing it.
//
// Besides the scenario language, these test-only directives print views:
//   json        the state as `cutline run --json` prints it
//   lab, lab-ja the latest complete snapshot in the study note's format
//   check       the independent consistency checker's verdict
//   naive       why the naive reader's total is wrong
// After every error the test also verifies that the state did not change,
// and after every command that the bank's invariants hold. Each file is one
// test case (Golden/File.Run/<name>), so a failure names its file.
// Line numbers in errors are those of the scenario the file holds: its
// comments and commands, without the expected blocks and blank lines (so
// they do not move when --rewrite changes an expected block).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "check/consistency_checker.h"
#include "engine/invariants.h"
#include "scenario/json_output.h"
#include "scenario/runner.h"
#include "scenario/teller.h"
#include "scenario/text_output.h"

namespace cutline::scenario {
namespace {

bool g_rewrite = false;

struct Case {
  std::vector<std::string> preamble;  // comments and blank lines before it
  int line = 0;         // 1-based line of the command in the file
  int scenario_line = 0;  // ... in the scenario (comments and commands)
  std::string command;
  std::string expected;
};

std::vector<std::string> ReadLines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Splits a golden file into cases. Output that contains a blank line is
// written between "----" and "----" twice (the datadriven convention).
std::vector<Case> ParseCases(const std::vector<std::string>& lines,
                             std::vector<std::string>* trailer) {
  std::vector<Case> cases;
  Case current;
  std::size_t i = 0;
  int scenario_line = 0;
  while (i < lines.size()) {
    const std::string& l = lines[i];
    bool blank = l.find_first_not_of(" \t") == std::string::npos;
    if (blank || l[l.find_first_not_of(" \t")] == '#') {
      if (!blank) ++scenario_line;
      current.preamble.push_back(l);
      ++i;
      continue;
    }
    current.line = static_cast<int>(i) + 1;
    current.scenario_line = ++scenario_line;
    current.command = l;
    ++i;
    if (i >= lines.size() || lines[i] != "----") {
      ADD_FAILURE() << "line " << current.line << ": expected ---- after '" << l << "'";
      return cases;
    }
    ++i;
    std::string expected;
    if (i < lines.size() && lines[i] == "----") {  // double-separator block
      ++i;
      while (i + 1 < lines.size() && !(lines[i] == "----" && lines[i + 1] == "----")) {
        expected += lines[i++] + "\n";
      }
      i += 2;
    } else {
      while (i < lines.size() && !lines[i].empty()) expected += lines[i++] + "\n";
    }
    current.expected = expected;
    cases.push_back(std::move(current));
    current = Case{};
  }
  *trailer = current.preamble;
  return cases;
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string RunDirective(Runner& runner, const std::string& command,
                         bool* handled) {
  *handled = true;
  const engine::Engine* bank = runner.bank();
  if (command == "json") {
    return bank ? Dump(StateJson(*bank), 2) + "\n" : "no network\n";
  }
  if (command == "lab" || command == "lab-ja") {
    if (!bank) return "no network\n";
    auto block = LabBlock(*bank, command == "lab" ? Lang::kEn : Lang::kJa);
    return block ? *block : "no complete snapshot\n";
  }
  if (command == "check") {
    if (!bank) return "no network\n";
    const Analysis analysis = Analyze(*bank);
    const check::CheckReport& report = analysis.check;
    std::string out = Join(report.problems) + Join(PropertyCheckLines(analysis));
    return out + (report.ok() ? "ok: " : "FAILED: ") +
           std::to_string(report.snapshots_checked) + " complete snapshot(s) checked\n";
  }
  if (command == "naive") {
    if (!bank) return "no network\n";
    auto lines = NaiveExplanation(Analyze(*bank), Lang::kEn);
    return lines.empty() ? "nothing wrong\n" : Join(lines);
  }
  *handled = false;
  return "";
}

std::string Fingerprint(const Runner& runner) {
  const engine::Engine* bank = runner.bank();
  if (!bank) return "none";
  return Dump(StateJson(*bank)) + "#" + std::to_string(bank->history().size()) +
         "#" + std::to_string(runner.steps().size());
}

void RunFile(const std::filesystem::path& path) {
  SCOPED_TRACE(path.string());
  std::vector<std::string> trailer;
  std::vector<Case> cases = ParseCases(ReadLines(path), &trailer);
  Runner runner;
  Teller teller(Lang::kEn);
  engine::Invariants invariants;
  std::string rewritten;
  for (const Case& c : cases) {
    bool handled = false;
    std::string actual = RunDirective(runner, c.command, &handled);
    if (!handled) {
      std::string before = Fingerprint(runner);
      std::size_t steps_before = runner.steps().size();
      Status s = runner.Execute(c.command, c.scenario_line);
      if (!s.ok()) {
        actual = "error: " + cutline::catalogue::Message(s, Lang::kEn) + "\n";
        EXPECT_EQ(before, Fingerprint(runner))
            << "line " << c.line << ": the state changed after an error";
      } else if (runner.steps().size() > steps_before) {
        actual = Join(teller.Tell(runner));
      }
      if (runner.bank() != nullptr) {
        for (const std::string& broken : invariants.CheckInvariants(*runner.bank())) {
          ADD_FAILURE() << path.filename().string() << ":" << c.line << ": "
                        << c.command << ": " << broken;
        }
      }
    }
    for (const auto& p : c.preamble) rewritten += p + "\n";
    rewritten += c.command + "\n----\n";
    bool blank_inside = actual.find("\n\n") != std::string::npos || actual.empty();
    if (blank_inside) {
      rewritten += "----\n" + actual + "----\n----\n";
    } else {
      rewritten += actual;
    }
    if (!g_rewrite) {
      EXPECT_EQ(c.expected, actual) << path.filename().string() << ":" << c.line
                                    << ": " << c.command;
    }
  }
  for (const auto& p : trailer) rewritten += p + "\n";
  if (g_rewrite) {
    std::ofstream(path) << rewritten;
  }
}

std::vector<std::filesystem::path> GoldenFiles() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(CUTLINE_TESTDATA_DIR)) {
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class File : public ::testing::TestWithParam<std::filesystem::path> {};

TEST_P(File, Run) { RunFile(GetParam()); }

INSTANTIATE_TEST_SUITE_P(
    Golden, File, ::testing::ValuesIn(GoldenFiles()),
    [](const ::testing::TestParamInfo<std::filesystem::path>& info) {
      std::string name = info.param.stem().string();
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

// An empty folder would otherwise pass with no test at all.
TEST(Golden, FilesExist) {
  EXPECT_FALSE(GoldenFiles().empty()) << "no golden files in " << CUTLINE_TESTDATA_DIR;
}

}  // namespace
}  // namespace cutline::scenario

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--rewrite") cutline::scenario::g_rewrite = true;
  }
  return RUN_ALL_TESTS();
}
