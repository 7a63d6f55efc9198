// The English catalogue, continued: what `cutline test` says of a program
// that breaks the protocol (docs/harness.md), each naming the node, what it
// did and what was expected, and the tester's own refusals.
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {

std::string EnglishTestReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kNodeNotJson:
      return fmt::format("{} wrote a line that is not JSON in answer to {}: {} (expected one "
                         "JSON message a line on stdout; logs go to stderr)",
                         w(0), w(2), w(1));
    case Code::kNodeNoType:
      return fmt::format("{} wrote a message without a body or a body without a string \"type\" in "
                         "answer to {}: {}",
                         w(0), w(2), w(1));
    case Code::kNodeWrongSrc:
      return fmt::format("{} wrote a message whose \"src\" is not its own id: {}", w(0), w(1));
    case Code::kNodeNoSuchDest:
      return fmt::format("{} sent a message to {}, which is no other node and not the tester "
                         "(\"c0\"): {}",
                         w(0), w(1), w(2));
    case Code::kNodeNoInitOk:
      return fmt::format("{} did not answer init with init_ok", w(0));
    case Code::kNodeExited:
      return fmt::format("{} exited with status {} while handling {}", w(0), s.number(1), w(2));
    case Code::kNodeKilled:
      return fmt::format("{} was killed by signal {} while handling {}", w(0), s.number(1), w(2));
    case Code::kNodeClosedOutput:
      return fmt::format("{} closed its output while handling {}", w(0), w(1));
    case Code::kNodeHangs:
      return fmt::format("{} hangs: no answer to the sync after {} within {} ms", w(0), w(2),
                         s.number(1));
    case Code::kNodeBadTransfer:
      return fmt::format("{} sent a transfer without a whole-number \"msg_id\" or an \"amount\" "
                         "of at least 0: {}",
                         w(0), w(1));
    case Code::kNodeBadReport:
      return fmt::format("{} sent a {} report that is not as docs/harness.md says: {}", w(0), w(1),
                         w(2));
    case Code::kNodeUnknownReport:
      return fmt::format("{} sent the tester a body of type \"{}\", which it does not read (it "
                         "reads init_ok, transfer_ok, snapshot_ok, sync_ok, record and part_done)",
                         w(0), w(1));
    case Code::kNodeAnsweredError:
      return fmt::format("{} answered {} with an error: {}", w(0), w(2), w(1));
    case Code::kNodeReportNoChannel:
      return fmt::format("{}'s part_done lists a channel from \"{}\", which is no other node", w(0),
                         w(1));
    case Code::kNodeUnknownSnapshot:
      return fmt::format("{} reported on snapshot {}, which the tester never started", w(0),
                         s.number(1));
    case Code::kNodeReportUnsent:
      return fmt::format("{}'s part_done of snapshot {} lists transfer {} from {}, which had not "
                         "reached {} (a channel's state lists transfers received on it)",
                         w(0), s.number(1), s.number(3), w(2), w(0));
    case Code::kNodeTransferIdTwice:
      return fmt::format("{} gave msg_id {} to two transfers (a transfer's msg_id names it in the "
                         "reports, so it must be unique)",
                         w(0), s.number(1));
    case Code::kNodeNondeterministic:
      return fmt::format("{} is nondeterministic: given the same inputs again, it answered {} "
                         "differently: first {}, now {}",
                         w(0), w(1), w(2), w(3));
    case Code::kTestCannotStart:
      return fmt::format("cannot start {}: {}", w(0), w(1));
    case Code::kTestNotSchedule:
      return fmt::format("{}: not a schedule cutline test wrote (\"{}\" is missing or wrong)",
                         w(0), w(1));
    case Code::kTestStepImpossible:
      return fmt::format("{}: step {} ({}) cannot be taken: the program now behaves otherwise "
                         "than when the schedule was written",
                         w(0), s.number(1), w(2));
    case Code::kTestNoSnapshots:
      return "a workload needs at least one snapshot: with none, nothing would be judged";
    case Code::kTestBadSchedules:
      return fmt::format("--schedules {}: expected every, or random:K with K at least 1", w(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace cutline::catalogue
