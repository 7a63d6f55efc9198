// `cutline test`'s lines in English.
#include <fmt/format.h>

#include "catalogue/test_lines.h"

namespace cutline::catalogue {

std::string English(TestLine line, const TestSaid& s) {
  const auto p = [](std::uint64_t n) { return EnglishPlural(n); };
  switch (line) {
    case TestLine::kNeverCompleted: {
      std::string text = fmt::format("never completed: {} sent no part_done",
                                     JoinNames(s.nodes, Lang::kEn));
      if (!s.others.empty()) {
        text += fmt::format(" ({} never recorded)", JoinNames(s.others, Lang::kEn));
      }
      return text + ", though nothing was left to deliver";
    }
    case TestLine::kRandomOk:
      return fmt::format(
          "ok: {} random schedule{} of {} nodes ({} transfer{} and {} snapshot{} each): {} "
          "complete snapshot{} judged, every one a consistent cut with exact channel states, {} "
          "conserved",
          s.count, p(s.count), s.count2, s.count3, p(s.count3), s.count4, p(s.count4), s.id,
          p(s.id), s.text);
    case TestLine::kEveryOk:
      return fmt::format(
          "ok in every schedule: {} state{}, {} end state{}, {} complete snapshot{} judged, {} "
          "conserved ({} node process{} started)",
          s.count, p(s.count), s.count2, p(s.count2), s.count3, p(s.count3), s.text, s.count4,
          s.count4 == 1 ? "" : "es");
    case TestLine::kBounded:
      return fmt::format(
          "no verdict: the bound on {} stopped the search after {} state{} ({} end state{} "
          "judged, all right so far)",
          s.text, s.count, p(s.count), s.count2, p(s.count2));
    case TestLine::kFailedRandom:
      return fmt::format("FAIL in random schedule {} (seed {}), {} step{}:", s.id, s.seed,
                         s.count, p(s.count));
    case TestLine::kFailedEvery:
      return fmt::format("FAIL: the shortest failing schedule, {} step{} (found after {} state{}):",
                         s.count, p(s.count), s.count2, p(s.count2));
    case TestLine::kShrunk:
      return fmt::format("shrunk to {} step{} from {} in {:.2f} s ({} run{} tried)", s.count,
                         p(s.count), s.count2, s.seconds, s.count3, p(s.count3));
    case TestLine::kWritten:
      return fmt::format("the schedule is in {}; replay it step by step with: {}", s.text, s.more);
    case TestLine::kReplayStep:
      return fmt::format("step {}: {}", s.id, s.text);
    case TestLine::kReplaySent:
      return fmt::format("  {} wrote {}", s.text, s.more);
    case TestLine::kReplayLog:
      return fmt::format("  {} logged: {}", s.text, s.more);
    case TestLine::kReplayEnd:
      return s.count == 0 ? fmt::format("replayed: the {} complete snapshot{} of this schedule pass now",
                                        s.count2, p(s.count2))
                          : fmt::format("replayed: {} finding{}:", s.count, p(s.count));
    case TestLine::kReplayNothing:
      return "replayed: nothing judged: the schedule leaves every snapshot out (it failed on the "
             "program's fault, not a snapshot)";
    case TestLine::kTraceStart:
      return fmt::format("The tester starts {} with {} each. It gives them the workload's commands "
                         "and carries every message between them, choosing each step.",
                         JoinNames(s.nodes, Lang::kEn), s.text);
    case TestLine::kTraceAsksTransfer:
      return fmt::format("The tester asks {} to move {} to {}.", s.nodes.at(0), s.text, s.nodes.at(1));
    case TestLine::kTraceAsksSnapshot:
      return fmt::format("The tester asks {} to start snapshot {}.", s.nodes.at(0), s.id);
    case TestLine::kTraceMessage:
      return s.more.empty() ? fmt::format("a {}", s.text)
                            : fmt::format("transfer {} ({})", s.nodes.at(0), s.more);
    case TestLine::kTraceDelivers:
      return fmt::format("The tester delivers {} from {} to {}.", s.text, s.nodes.at(0), s.nodes.at(1));
    case TestLine::kTraceLoses:
      return fmt::format("The tester loses {} from {} to {}: it never arrives.", s.text,
                         s.nodes.at(0), s.nodes.at(1));
    case TestLine::kTraceSends:
      return fmt::format("{} sends {}.", s.nodes.at(0), JoinNames(s.others, Lang::kEn));
    case TestLine::kTraceSentTo:
      return fmt::format("{} to {}", s.text, s.nodes.at(0));
    case TestLine::kTraceRecords:
      return fmt::format("{} records its state for snapshot {}: {}.", s.nodes.at(0), s.id, s.text);
    case TestLine::kTraceChannel:
      return s.others.empty() ? fmt::format("{}→{} empty", s.nodes.at(0), s.nodes.at(1))
                              : fmt::format("{}→{} holding {}", s.nodes.at(0), s.nodes.at(1),
                                            JoinNames(s.others, Lang::kEn));
    case TestLine::kTracePartDone:
      return s.others.empty()
                 ? fmt::format("{}'s part of snapshot {} is done.", s.nodes.at(0), s.id)
                 : fmt::format("{}'s part of snapshot {} is done: it recorded {}.", s.nodes.at(0),
                               s.id, JoinNames(s.others, Lang::kEn));
    case TestLine::kTraceEndFail:
      return fmt::format("Nothing is left to deliver. The judge's finding{}:", p(s.count));
    case TestLine::kTraceEndOk:
      return fmt::format("Nothing is left to deliver: the {} complete snapshot{} of this schedule "
                         "pass{}.",
                         s.count, p(s.count), s.count == 1 ? "es" : "");
    case TestLine::kTraceEndNothing:
      return "Nothing is left to deliver, and no snapshot completed: nothing was judged.";
    case TestLine::kTraceNone:
      return "this schedule has no trace of what happened at each step, so the page cannot show "
             "it: cutline test writes one with every failure it shrinks, except one that ends on "
             "the program's fault (replay that with cutline test --replay)";
    case TestLine::kTraceTooBig:
      return fmt::format("too large for the page to draw: {} step{} of {} nodes with {} snapshot{} "
                         "is over {} node states (replay it with cutline test --replay)",
                         s.count, p(s.count), s.count2, s.count3, p(s.count3), s.count4);
    case TestLine::kFaultInSchedule:
      return fmt::format("FAIL in schedule {} (seed {}): the program broke the protocol:", s.id,
                         s.seed);
  }
  return {};
}

}  // namespace cutline::catalogue
