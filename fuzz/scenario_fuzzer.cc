// libFuzzer target: any bytes as a scenario, line by line. The parser and
// runner must never crash; a refused line must change nothing; after every
// accepted line the bank's invariants must hold (engine/invariants.h); and
// every output (text and JSON, including error messages) must be producible.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "engine/invariants.h"
#include "scenario/json_output.h"
#include "scenario/runner.h"
#include "scenario/teller.h"
#include "scenario/text_output.h"

namespace {

using cutline::scenario::Dump;
using cutline::Lang;
using cutline::scenario::StateJson;

// Cheap enough for every line: what any command changes shows up here.
std::string Fingerprint(const cutline::scenario::Runner& runner) {
  const cutline::engine::Engine* bank = runner.bank();
  if (bank == nullptr) return "";
  std::string f = std::to_string(bank->history().size()) + "/" +
                  std::to_string(runner.steps().size()) + "/" +
                  std::to_string(bank->snapshots().size()) + "/" +
                  std::to_string(bank->naive_reads().size());
  for (cutline::sim::NodeId n = 0; n < bank->branch_count(); ++n) {
    f += "," + std::to_string(bank->state(n));
  }
  return f;
}


}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // Limits keep one input cheap, as on the server.
  cutline::scenario::Runner runner;
  runner.set_limits({.max_branches = 12, .max_commands = 200, .max_events = 20000});
  cutline::engine::Invariants invariants;
  // Every step is told in both languages: the narration must never crash.
  cutline::scenario::Teller english(Lang::kEn), japanese(Lang::kJa);
  int line_no = 0;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos
                                                   ? std::string_view::npos
                                                   : nl - start);
    ++line_no;
    std::string before = Fingerprint(runner);
    std::size_t steps_before = runner.steps().size();
    cutline::Status s = runner.Execute(line, line_no);
    if (runner.steps().size() > steps_before) {
      (void)english.Tell(runner);
      (void)japanese.Tell(runner);
    }
    if (!s.ok()) {
      for (Lang lang : {Lang::kEn, Lang::kJa}) {
        std::string message = cutline::catalogue::Message(s, lang);
        if (message.find('\n') != std::string::npos) std::abort();  // one line
        (void)Dump(cutline::scenario::ErrorJson(s, lang));
      }
      // Only a spent event budget is refused after the command ran.
      if (s.code() != cutline::Code::kEventLimit &&
          Fingerprint(runner) != before) {
        std::abort();  // a refused command changed the state
      }
    }
    // Also after a refusal: a spent event budget refuses a command that ran.
    if (runner.bank() != nullptr &&
        !invariants.CheckInvariants(*runner.bank()).empty()) {
      std::abort();  // money, a queue or a snapshot's bookkeeping is wrong
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  if (const cutline::engine::Engine* bank = runner.bank()) {
    (void)Dump(StateJson(*bank));
    (void)cutline::scenario::ShowLines(cutline::scenario::Analyze(*bank), Lang::kJa);
    (void)cutline::scenario::LabBlock(*bank, Lang::kEn);
  }
  return 0;
}
