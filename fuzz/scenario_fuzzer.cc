// libFuzzer target: any bytes as a scenario. The parser and runner must
// never crash, and after any accepted prefix the bank's money must add up.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "scenario/json_output.h"
#include "scenario/runner.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  cutline::scenario::Runner runner;
  (void)runner.RunText(text);  // errors are expected; crashes are not
  if (const cutline::bank::Bank* bank = runner.bank()) {
    cutline::bank::Amount sum = bank->in_flight_amount();
    for (cutline::bank::NodeId n = 0; n < bank->branch_count(); ++n) {
      sum += bank->balance(n);
    }
    if (sum != bank->total()) std::abort();  // money created or destroyed
    for (const auto& s : bank->snapshots()) {
      if (s.complete && bank->SnapshotTotal(s.id) != bank->total()) std::abort();
    }
    (void)cutline::scenario::StateJson(*bank).dump();
  }
  return 0;
}
