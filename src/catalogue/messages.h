// The words of a refusal: a Status (code, arguments, line) becomes one line
// of English or Japanese here, and nowhere else. Each language's sentences
// live in one catalogue (messages_en.cc, messages_ja.cc). So do the words an
// algorithm chooses by code (algorithms/words.h): what its markers are
// called, its note in the network line, and how its marker deliveries and
// closes are told.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/words.h"
#include "base/lang.h"
#include "base/status.h"

namespace cutline::catalogue {

// The languages the project speaks (base/lang.h).
using cutline::Lang;

// The reason alone, e.g. "P1 has only $70, cannot send $100".
// REQUIRES: !s.ok().
std::string Reason(const Status& s, Lang lang);
// With the line when there is one: "line 3: P1 has only ...", "3行目: ...".
std::string Message(const Status& s, Lang lang);

// One line of `store verify`: whom it is about (kAboutFile, kAboutRun,
// kAboutSnapshot), then every problem with it, e.g. "snapshot 3: its run 7 is
// not in the store; its parts add up to $295, not its total $300".
std::string ProblemLine(const Status& about, const std::vector<Status>& problems, Lang lang);

// "marker" / "markers", "control message", "バリア", ...
std::string MarkerWord(algorithms::MarkerNoun noun, bool plural, Lang lang);
// ", Lai-Yang snapshots" (empty for RuleNote::kNone).
std::string RuleNoteText(algorithms::RuleNote note, Lang lang);

// What a marker tale is told with; the names are already the bank's, the
// balance and markers clause already written.
struct MarkerTale {
  std::string to, from;   // the receiver, the sender
  std::string channel;    // "P1→P2" (ChannelText)
  std::uint64_t id = 0;   // the snapshot
  std::string marker;     // MarkerWord(noun, false)
  std::string balance;    // "$60": what the receiver recorded
  std::string markers;    // "sends markers to P2 and P3"
  std::uint64_t count = 0;               // a control message's count
  std::vector<std::int64_t> contents;    // the channel's recorded state (amounts)
  std::string listed;  // the same in the application's words; "" = amounts
};
std::string FirstMarkerSentence(algorithms::FirstMarkerTale tale,
                                const MarkerTale& t, Lang lang);
std::string LaterMarkerSentence(algorithms::LaterMarkerTale tale,
                                const MarkerTale& t, Lang lang);
// Empty for CloseTale::kWithMarker.
std::string CloseSentence(algorithms::CloseTale tale, const MarkerTale& t,
                          Lang lang);

// The groups status.h declares the refusal codes in (CUTLINE_ERROR_CODES):
// each catalogue has one function per group, so that none is one long switch.
enum class CodeGroup {
  kOk, kNetwork, kWords, kRun, kCut, kVariants, kApps, kLimits,
  kStore, kRestore, kOptions, kServe,  // the store, restore, commands' options, the server
  kLecture,                            // a lecture room
  kVerify,                             // store verify's problems
  kLogs,                               // reading logs in the events format
  kRuntime,                            // a rank's faults (runtime::Fault)
  kTest,                               // cutline test: a program's faults, the tester's refusals
};
CodeGroup GroupOf(Code code);

// One per language; Reason, Message and the functions above choose.
std::string EnglishReason(const Status& s);
std::string EnglishAtLine(int line, const std::string& reason);
std::string JapaneseReason(const Status& s);
std::string JapaneseAtLine(int line, const std::string& reason);
// The tools' groups (messages_tools_en.cc, messages_tools_ja.cc).
std::string EnglishStoreReason(const Status& s);
std::string EnglishRestoreReason(const Status& s);
std::string EnglishOptionsReason(const Status& s);
std::string EnglishServeReason(const Status& s);
std::string EnglishLectureReason(const Status& s);
std::string EnglishVerifyReason(const Status& s);
std::string EnglishLogsReason(const Status& s);
std::string JapaneseStoreReason(const Status& s);
std::string JapaneseRestoreReason(const Status& s);
std::string JapaneseOptionsReason(const Status& s);
std::string JapaneseServeReason(const Status& s);
std::string JapaneseLectureReason(const Status& s);
std::string JapaneseVerifyReason(const Status& s);
// Store verify's problems with one thing, joined as each language joins
// sentences: "; " and "。".
std::string EnglishProblems(const std::vector<Status>& problems);
std::string JapaneseProblems(const std::vector<Status>& problems);
// A snapshot's state as the store keeps it ("failed"), in Japanese (失敗).
std::string JapaneseStateWord(const std::string& state);
std::string JapaneseLogsReason(const Status& s);
// A rank's faults (messages_runtime_en.cc, messages_runtime_ja.cc).
std::string EnglishRuntimeReason(const Status& s);
std::string JapaneseRuntimeReason(const Status& s);
// cutline test's (messages_harness_en.cc, messages_harness_ja.cc).
std::string EnglishTestReason(const Status& s);
std::string JapaneseTestReason(const Status& s);
std::string EnglishMarkerWord(algorithms::MarkerNoun noun, bool plural);
std::string JapaneseMarkerWord(algorithms::MarkerNoun noun);
std::string EnglishRuleNote(algorithms::RuleNote note);
std::string JapaneseRuleNote(algorithms::RuleNote note);
std::string EnglishFirstMarker(algorithms::FirstMarkerTale tale, const MarkerTale& t);
std::string JapaneseFirstMarker(algorithms::FirstMarkerTale tale, const MarkerTale& t);
std::string EnglishLaterMarker(algorithms::LaterMarkerTale tale, const MarkerTale& t);
std::string JapaneseLaterMarker(algorithms::LaterMarkerTale tale, const MarkerTale& t);
std::string EnglishClose(algorithms::CloseTale tale, const MarkerTale& t);
std::string JapaneseClose(algorithms::CloseTale tale, const MarkerTale& t);

}  // namespace cutline::catalogue
