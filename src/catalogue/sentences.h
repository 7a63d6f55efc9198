// The sentences a user reads of a run: the narration of each step, `show`,
// the network line, the naive explanation, the lab block, `check`'s lines
// on a property and the headings of `cutline demo`. Like the refusals
// (messages.h), each language's sentences live in one catalogue
// (sentences_en.cc, sentences_ja.cc); the views only gather the facts (a
// Said) and pick the sentence. Each group of sentences is an enum of its
// own with one function per language, so that no function is one long
// switch and the compiler names a sentence a catalogue forgets.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "catalogue/messages.h"

namespace cutline::catalogue {

// The facts a sentence is told with. Names are already the bank's and
// values already written in the application's words; each sentence below
// says which it reads.
struct Said {
  std::string who;            // the branch the sentence is about
  std::string from, to;       // a message's sender and receiver
  std::string channel;        // "P1→P2" (ChannelText)
  std::string what;           // a message in words: "$30", "job"
  std::string state;          // a state, a sum or a verdict in words: "$70", "2 jobs"
  std::string list;           // names or snapshot ids, already joined
  std::string more;           // a clause or part already said
  std::string marker;         // the algorithm's word for a marker
  std::string markers;        // and for several (English)
  std::uint64_t seq = 0;      // a message's number
  std::uint64_t seq2 = 0;     // another message's number
  std::uint64_t id = 0;       // a snapshot's id
  std::uint64_t count = 0;    // how many (English plurals read it)
  std::uint64_t count2 = 0;   // a second number
  bool money = true;          // the application is the bank
};

// A message's life, as the narration tells it.
enum class MessageLine : std::uint8_t {
  kBankSent,        // from, what, to, seq; state: the sender's balance now
  kJobHanded,       // from, to, seq; state: what the sender still holds
  kRequestSent,     // from, to, seq
  kGrantSent,       // from, to, seq
  kBankReceived,    // to, what, from, seq; state: the receiver's balance now
  kJobReceived,     // to, from, seq; state: what the receiver holds now
  kRequestReceived, // to, from, seq
  kGrantReceived,   // to, from, seq
  kOvertakes,       // seq: the barrier, seq2: the transfer; what, channel
  kLateMarkers,     // who, id, list: the receivers; marker(s)
  kJobFinished,     // who, state
  kNothingInFlight, // a drain with nothing to deliver
};
inline constexpr int kMessageLines = static_cast<int>(MessageLine::kNothingInFlight) + 1;

// What a delivered transfer is to the running snapshots, appended to its
// delivery's sentence.
enum class DeliveryClause : std::uint8_t {
  kJoins,   // to, channel, what, list: the snapshots (count of them)
  kMissed,  // from, marker, channel, what, list: the snapshots (count)
  kAfter,   // channel, what, list: the snapshots closed (count)
};
inline constexpr int kDeliveryClauses = static_cast<int>(DeliveryClause::kAfter) + 1;

// What a branch that records does with its markers.
enum class MarkersClause : std::uint8_t {
  kKeeps,       // marker(s): kept until after the next transfer (broken on purpose)
  kNoOutgoing,  // marker
  kSends,       // list: the receivers; marker(s)
};
inline constexpr int kMarkersClauses = static_cast<int>(MarkersClause::kSends) + 1;

// A snapshot's records and its end, as the narration tells them.
enum class SnapshotLine : std::uint8_t {
  kStarts,         // who, id, state: recorded, more: the markers clause
  kJoins,          // who, id, state, more: as another initiator
  kEpochRecord,    // seq, id, who, state, more: a newer epoch made it record
  kStopsTheWorld,  // id, count: the deliveries waited for; money
  kStopsAtFirst,   // to, from, channel, id, marker (broken on purpose)
  kPartDone,       // who, id, marker
  kPartDoneAlone,  // who, id: no incoming channel
  kCompleteTotal,  // id, list: "P1 $70 + ...", what: in channels, state: total
  kCompleteVerdict,// id, state: the verdict
};
inline constexpr int kSnapshotLines = static_cast<int>(SnapshotLine::kCompleteVerdict) + 1;

// The naive reader (the bank) or detector (the others): the narration of
// its reads, and in `show` what they add up to and why that is wrong.
enum class NaiveLine : std::uint8_t {
  kCopiesState,    // who, state
  kDeclares,       // state: the verdict
  kCopiesBalance,  // who, state: the balance
  kTotal,          // state: the naive total, what: the bank's
  kReads,          // list: the reads
  kReadsTotal,     // list, state: their total
  kSays,           // state: the verdict
  kWrong,          // what: what a wrong verdict is, state: the truth
  kCrossing,       // what, from, to, seq: one transfer, as the next two name it
  kLost,           // more: the transfer (kCrossing)
  kCountedTwice,   // more: the transfer (kCrossing)
  kInconsistent,   // the read cut is inconsistent
};
inline constexpr int kNaiveLines = static_cast<int>(NaiveLine::kInconsistent) + 1;

// `show` and the network line.
enum class ShowLine : std::uint8_t {
  kNetworkBank,     // list: the balances, state: the total, count: channels, more: rules
  kNetworkApp,      // list: the states, what: the app, count: channels, more: rules
  kCapacityRule,    // count: transfers per channel
  kOneAtATimeRule,
  kNotFifoRule,
  kStates,          // list: the states
  kBalances,        // list, state: in branches, what: in flight, more: the total
  kEmptyQueue,
  kRunning,
  kCompleteTotal,   // state: the total
  kCompleteVerdict, // state: the verdict
  kInconsistent,    // appended to a status
  kHeadingStopped,  // id, count: deliveries stopped, more: the status
  kHeading,         // id, list: the initiators, more: status, count: markers, count2: channels
  kRecorded,        // list: the records ("-" for none)
  kPartDone,        // appended to a branch's record
  kNotRecorded,     // a channel's recording
  kRecording,       // list: its transfers
  kClosed,          // list: its transfers
  kHeldBack,
};
inline constexpr int kShowLines = static_cast<int>(ShowLine::kHeldBack) + 1;

// `cutline check`'s lines on an application with a property.
enum class CheckLine : std::uint8_t {
  kSnapshotDeclares,     // id, state: what it declares, more: what held at its cut
  kNaiveDeclares,        // state: the verdict
  kNaiveDeclaresWrongly, // state, what: what a wrong verdict is, more: the truth at its last read
};
inline constexpr int kCheckLines = static_cast<int>(CheckLine::kNaiveDeclaresWrongly) + 1;

// The headings of `cutline demo`.
enum class DemoLine : std::uint8_t {
  kTitle,       // id, list: the title
  kStep,        // id: the step's number, list: its command
  kFinalState,
};
inline constexpr int kDemoLines = static_cast<int>(DemoLine::kFinalState) + 1;

// The study note's lab block: its numbers, already written.
struct LabFacts {
  std::string states;    // 'A': 60, 'B': 100
  std::string channels;  // ('A', 'B'): [40]
  std::int64_t state_sum = 0;
  std::int64_t in_flight = 0;
  std::int64_t total = 0;       // their sum
  std::int64_t bank_total = 0;  // what the bank holds
  bool conserved = false;       // total == bank_total
};

// The facts a line of `cutline store` (list, show, verify, prune) is told with
// (sentences_store_en.cc, sentences_store_ja.cc); states, totals and
// messages already in the application's words. Each line says which it reads.
struct StoreSaid {
  std::uint64_t run = 0;       // a run's id
  std::uint64_t snapshot = 0;  // a snapshot's id
  std::uint64_t count = 0;     // ranks, channels, records
  std::uint64_t count2 = 0;
  std::uint64_t count3 = 0;
  double ms = 0;               // a time, in milliseconds
  bool switched = false;       // a dataflow's channel switched to unaligned
  std::optional<std::uint64_t> restored_from = std::nullopt;  // the snapshot a run restored
  std::string who = {};    // a branch: the initiator, a vertex
  std::string what = {};   // an application's or a topology's name, a status, a role, a failure
  std::string how = {};    // an algorithm's name ("aligned")
  std::string state = {};  // a state or a total in the application's words
  std::string list = {};   // names, channels or states, already joined
  std::string more = {};   // a clause already said: a latency, a cost
  std::string when = {};   // "2024-05-01 12:00:00 UTC"
  std::string where = {};  // a store's path
};

// `cutline store list`'s table, `store show`'s lines, and what `store verify`
// and `store prune` report.
enum class StoreLine : std::uint8_t {
  kNoRuns,
  kNoSnapshots,
  kRunBank,           // run, count: ranks, state: each's opening, restored_from, list: total, when
  kRunApp,            // run, count: ranks, what: the app, state: each's opening ("" none), when
  kRunDataflow,       // run, count: ranks, what: topology, how, count2: buffers, restored_from, when
  kColumnSnapshot,    // the table's column titles
  kColumnRun,
  kColumnStatus,
  kColumnInitiator,
  kColumnTotal,
  kColumnLatency,
  kColumnVerdict,
  kStatus,            // what: "complete", "failed", "running"
  kNone,              // a cell with nothing to say
  kLatency,           // ms
  kFailure,           // what: why it failed ("timeout"), list: the ranks never heard from
  kCostAligned,       // ms: aligning, count: records held back
  kCostUnaligned,     // count: channels unaligned, count2: of all, count3: records kept
  kCostSwitched,      // more: the cost
  kNotComplete,       // snapshot, run, what: its status, who: its initiator
  kShowBank,          // snapshot, run, who, state: total, more: latency
  kShowApp,           // snapshot, run, what: the app, who, more: latency
  kShowDataflow,      // snapshot, run, what: topology, how, state: records emitted, more: latency
  kItSays,            // state: the verdict
  kItCost,            // more: the cost
  kRecordedStates,    // list
  kRecordedBalances,  // list
  kRecordedVertices,  // list
  kVertex,            // who: its name, what: its role, count: in, count2: out
  kChannels,          // list: the channels holding messages ("" none), count: the empty ones
  kChannelsHeading,
  kChannelAligned,    // ms: waited, count: held back
  kChannelUnaligned,  // switched, count: records kept
  kVerifiedOne,       // snapshot, where: every part of a complete snapshot sound
  kVerifiedNoParts,   // snapshot, where: a failed or running one rightly holding no parts
  kVerifiedAll,       // count: complete ones, count2: failed or running ones, where
  kVerifiedNone,      // count2: failed or running ones, where: no complete snapshot to judge
  kPrunedRun,         // run, count: removed, count2: of them complete, count3: failed, more: kept
  kPrunedNothing,     // run, more: kept
  kPruneKept,         // count: complete kept, count2: of them origins of a restore, count3: others
  kPruned,            // count: snapshots removed, count2: rows, where
  kSeparator,         // between the items of a list
};
inline constexpr int kStoreLines = static_cast<int>(StoreLine::kSeparator) + 1;

std::string Say(MessageLine line, const Said& s, Lang lang);
std::string Say(DeliveryClause clause, const Said& s, Lang lang);
std::string Say(MarkersClause clause, const Said& s, Lang lang);
std::string Say(SnapshotLine line, const Said& s, Lang lang);
std::string Say(NaiveLine line, const Said& s, Lang lang);
std::string Say(ShowLine line, const Said& s, Lang lang);
std::string Say(CheckLine line, const Said& s, Lang lang);
std::string Say(DemoLine line, const Said& s, Lang lang);
std::string Say(StoreLine line, const StoreSaid& s, Lang lang);
std::string LabText(const LabFacts& lab, Lang lang);

// One per language and group; Say and LabText choose.
std::string English(MessageLine line, const Said& s);
std::string Japanese(MessageLine line, const Said& s);
std::string English(DeliveryClause clause, const Said& s);
std::string Japanese(DeliveryClause clause, const Said& s);
std::string English(MarkersClause clause, const Said& s);
std::string Japanese(MarkersClause clause, const Said& s);
std::string English(SnapshotLine line, const Said& s);
std::string Japanese(SnapshotLine line, const Said& s);
std::string English(NaiveLine line, const Said& s);
std::string Japanese(NaiveLine line, const Said& s);
std::string English(ShowLine line, const Said& s);
std::string Japanese(ShowLine line, const Said& s);
std::string English(CheckLine line, const Said& s);
std::string Japanese(CheckLine line, const Said& s);
std::string English(DemoLine line, const Said& s);
std::string Japanese(DemoLine line, const Said& s);
std::string English(StoreLine line, const StoreSaid& s);
std::string Japanese(StoreLine line, const StoreSaid& s);
std::string EnglishLab(const LabFacts& lab);
std::string JapaneseLab(const LabFacts& lab);

}  // namespace cutline::catalogue
