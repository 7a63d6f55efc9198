// What `cutline test` says (src/harness, src/cli/test_command.cc): the
// verdict on a program's schedules, a snapshot that never completed, the
// shrinking, and the replay's steps. The harness gathers the facts; the
// words are here, in each language (test_lines_en.cc, test_lines_ja.cc).
// A program's faults are refusal codes (status.h, kNode*), worded by the
// messages catalogue.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/lang.h"

namespace cutline::catalogue {

// The facts a line is told with; each line below says which it reads.
struct TestSaid {
  std::uint64_t id = 0;               // a snapshot's id, or a schedule's number
  std::vector<std::string> nodes;     // names
  std::vector<std::string> others;    // more names
  std::uint64_t count = 0, count2 = 0, count3 = 0, count4 = 0;
  double seconds = 0;
  std::string text;                   // a step, a line, a file, a command, money
  std::string more;
  std::uint64_t seed = 0;
};

enum class TestLine : std::uint8_t {
  kNeverCompleted,  // id; nodes: sent no part_done; others: never recorded
  kRandomOk,        // count: schedules, count2: nodes, count3: transfers, count4: snapshots
                    // each; id: complete snapshots judged; text: the total
  kEveryOk,         // count: states, count2: end states, count3: snapshots judged,
                    // count4: node processes started; text: the total
  kBounded,         // text: the bound ("states", "seconds"), count: states, count2: end states judged
  kFailedRandom,    // id: the schedule's number, seed, count: its steps
  kFailedEvery,     // count: its steps, count2: states searched
  kShrunk,          // count: steps now, count2: steps before, seconds, count3: runs tried
  kWritten,         // text: the file; more: the command that replays it
  kReplayStep,      // id: the step's number; text: the step
  kReplaySent,      // text: node, more: the line it wrote
  kReplayLog,       // text: node, more: a line of its stderr
  kReplayEnd,       // count: findings (0: none), count2: complete snapshots judged
  kReplayNothing,   // the schedule ran, but no snapshot of it was judged (all left out)
  kFaultInSchedule, // id: schedule, seed (a program's fault, printed after it)
  // The page's captions for a schedule file's trace (server/trace_route.cc):
  kTraceStart,         // nodes: every node; text: each one's balance
  kTraceAsksTransfer,  // nodes: the node asked, the receiver; text: the amount
  kTraceAsksSnapshot,  // nodes: the node asked; id: the snapshot
  kTraceMessage,       // a message: text: its type; more: a transfer's amount, else empty;
                       // nodes: a transfer's name (harness::TransferName)
  kTraceDelivers,      // nodes: sender, receiver; text: the message (kTraceMessage)
  kTraceLoses,         // nodes: sender, receiver; text: the message (kTraceMessage)
  kTraceSends,         // nodes: the sender; others: each message with its receiver
                       // (kTraceSentTo)
  kTraceSentTo,        // text: the message (kTraceMessage); nodes: its receiver
  kTraceRecords,       // nodes: the node; id: the snapshot; text: the recorded balance
  kTraceChannel,       // nodes: sender, receiver; others: its recorded transfers (kTraceMessage)
  kTracePartDone,      // nodes: the node; id: the snapshot; others: its channels (kTraceChannel)
  kTraceEndFail,       // count: findings (each follows as a sentence of its own)
  kTraceEndOk,         // count: complete snapshots judged (at least 1)
  kTraceEndNothing,    // no finding, and no complete snapshot judged
  kTraceNone,          // the file has no trace (a refusal of the page's)
  kTraceTooBig,        // count: steps, count2: nodes, count3: snapshots; count4: the bound on
                       // their product (a refusal of the page's)
};

std::string Say(TestLine line, const TestSaid& s, Lang lang);
std::string English(TestLine line, const TestSaid& s);
std::string Japanese(TestLine line, const TestSaid& s);

}  // namespace cutline::catalogue
