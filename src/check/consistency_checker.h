// The independent consistency checker: from a run's history alone (sends,
// deliveries and records, in their causal order), what every complete
// snapshot must have recorded, compared with what the implementation
// claims. The rules are the streaming judge's (stream_judge.h), the one set
// of them; CheckRun feeds it the history.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "apps/app.h"
#include "base/lang.h"
#include "history/history.h"
#include "history/records.h"
#include "sim/network.h"

namespace cutline::check {

// The verdict on one complete snapshot's cut, whatever algorithm took it:
// the transfers it counts twice or loses, by sequence number.
struct SnapshotVerdict {
  SnapshotId id = 0;
  // Received before the receiver recorded, sent after the sender recorded.
  std::vector<sim::Seq> backward;
  // In a recorded channel state, sent after the sender recorded.
  std::vector<sim::Seq> extra;
  // Sent before the sender recorded, neither received before the receiver
  // recorded nor in the channel's recorded state.
  std::vector<sim::Seq> missed;
  // In flight across the cut, and so part of its channel's state, but not
  // in the channel state the snapshot claims: the snapshot lost it although
  // its cut is right (an algorithm that records a channel wrongly).
  std::vector<sim::Seq> unrecorded;
  // An application with a stable property (apps/app.h): its value on the
  // state at the cut, replayed from the history, and the value the
  // snapshot declares from what it recorded. They differ only when the
  // snapshot is wrong.
  std::optional<apps::Verdict> property;
  std::optional<apps::Verdict> declared;
  bool consistent() const {
    return backward.empty() && extra.empty() && missed.empty() && unrecorded.empty() &&
           (!property || *property == *declared);
  }
};

struct CheckReport {
  // One precise line each (findings.h, in the language asked), prefixed
  // "snapshot N: " or "history: ".
  std::vector<std::string> problems;
  int snapshots_checked = 0;
  // One per snapshot checked, in the order of the claims.
  std::vector<SnapshotVerdict> verdicts;

  bool ok() const { return problems.empty(); }
};

// What an implementation claims it recorded for one complete snapshot. The
// checker never derives expectations from these, only compares them.
struct SnapshotClaim {
  SnapshotId id = 0;
  std::uint64_t markers_sent = 0;
  // Recorded balance by NodeId; nullopt = the node claims no recording.
  std::vector<std::optional<cutline::Amount>> balances;
  // Recorded state of every channel, by ChannelId.
  std::vector<history::ChannelRecord> channels;
  // The implementation's own sum of the snapshot, if it reports one.
  std::optional<cutline::Amount> total;
  // False for a stop-the-world snapshot: no marker goes anywhere.
  bool markers = true;
  // Aligned barriers: a branch records once a marker (barrier) has come on
  // every input, so the markers of this snapshot it received before its
  // record are the cut's edge, not messages crossing it.
  bool markers_before_record = false;
  // Lai-Yang: a channel's state keeps only the transfers of an older epoch,
  // that is, sent before their sender recorded; the others that arrive
  // while it records belong to the future.
  bool epochs = false;
};

// Everything the checker reads. Nothing here is derived from the agents
// except `claims`. Every member but `app` has a default (the `{}`s), so that
// a caller names the application and only what else it has:
// RunRecord{.app = ...}.
struct RunRecord {
  std::span<const history::Event> events{};   // the whole history, in order
  const sim::Topology* topology = nullptr;  // REQUIRES set
  std::vector<cutline::Amount> initial_balances{};  // by NodeId
  // For messages; a node without a name is written "#<id>".
  std::vector<std::string> names{};
  // By Seq, the name a log gave each message (a foreign log's ids, and for
  // its markers the line that sent them: events_log.h); a message without
  // one is written "#<seq>".
  std::vector<std::string> message_names{};
  // One per snapshot the implementation says is complete.
  std::vector<SnapshotClaim> claims{};
  // False: channels may reorder (fifo=no), which is then not a problem.
  bool fifo = true;
  // What the branches compute: money is conserved for the bank (d); an
  // application with a stable property has it checked (g). No default: the
  // checker is told the application, never assumes one.
  apps::App app;
};

// Checks every claimed snapshot against the history (the rules, each
// written once, in stream_judge.cc):
//  a. the records form a consistent cut: nothing received inside the cut
//     was sent outside it; a record caused by a marker cuts just before
//     that marker's receipt, and its cause must be the marker its node
//     received in its last message event;
//  b. each claimed recorded balance equals the balance replayed from the
//     history at the record;
//  c. each channel's claimed state is closed and is exactly the transfers
//     sent inside the cut and received outside it, in delivery order;
//  d. (the bank) recorded balances plus channel states add up to the
//     initial total;
//  e. exactly one marker of the snapshot went over each channel, after its
//     sender recorded and before anything else on that channel (none for a
//     stop-the-world snapshot);
//  f. the verdict (SnapshotVerdict): each transfer crossing the cut
//     backwards, in a channel state though sent outside the cut, or sent
//     inside and lost. A channel's recorded state here is the history's: the
//     transfers delivered on it after the receiver recorded and before it
//     closed (its Closed event, or else the marker's delivery), under
//     Lai-Yang only those sent before their sender recorded, plus those an
//     unaligned barrier overtook.
//  g. (not the bank) the property the snapshot declares from its records
//     equals the property of the state replayed at its cut.
// Also reports the claims' own faults (a shape that does not fit the
// network, a snapshot claimed twice, a channel still 'recording', a count of
// markers or a total their records contradict) and a malformed history: an
// event naming what does not exist, a message sent or delivered twice, or
// delivered as something else (after which the snapshots are not checked);
// a channel that is not FIFO, or a record whose cause is not its node's
// last message event (which are only named). Findings come claim by claim,
// after the history's, in `lang`.
// Thread safe: reads its input only.
CheckReport CheckRun(const RunRecord& run, Lang lang = Lang::kEn);

// A vector clock: by NodeId, the number of that node's events that happen
// before an event or are it.
using VectorClock = std::vector<std::uint32_t>;

// One event's place in the causal order, as the checker computes it.
struct EventClock {
  sim::NodeId node = 0;  // where it happened (history::NodeOf)
  VectorClock clock;     // clock[node] is its position on node's timeline, from 1
};

// A send or a delivery (of a transfer or a marker): the events a message
// joins two timelines by. The clocks and drawn cuts count these.
bool IsMessageEvent(const history::Event& e);

// The causal order the cuts are judged by, as vector clocks, one per event
// of run.events in order (cut.cc; ShiViz draws them). Every event ticks its
// node's entry; a delivery first takes the maximum with the sender's clock
// at the send. A history CheckRun would call malformed past repair yields
// the clocks up to the event before that.
std::vector<EventClock> EventClocks(const RunRecord& run);

// The property a snapshot declares: the application's, evaluated on the
// claim's recorded states and channel states.
apps::Verdict DeclaredProperty(apps::App app, const sim::Topology& topology,
                               const SnapshotClaim& claim);

// The naive detector's verdict (an application with a stable property): what
// its reads declare, and the property of the real state when it declared
// it (at its latest read, replayed from the history). Wrong = it declares
// the property while the real state lacks it: a false termination (jobs), a
// phantom deadlock (locks). scenario::Analyze judges it (Analysis::naive).
struct NaiveJudgement {
  apps::Verdict declared;
  std::optional<apps::Verdict> truth;  // nullopt: no read, or no history
  bool wrong() const { return declared.holds && truth && !truth->holds; }
};

}  // namespace cutline::check
