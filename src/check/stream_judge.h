// The streaming judge: the one set of consistency rules (the list at
// CheckRun, consistency_checker.h) applied to a run's events as they come,
// in any causal order (every send before its receipt), judging each
// snapshot once every node's part of it has come and then forgetting it.
// Its memory is bounded by the nodes, the channels and the snapshots still
// open, not by the run's length: it is how `cutline check --logs` judges
// the ranks' logs (src/runtime/log_check.cc reads and merges them and feeds
// it), and how CheckRun judges a simulated history (JudgeHistory below).
//
// Its findings are findings.h's sentences, in the language it is given: the
// same run seen as a history and as a rank's logs gets the same findings,
// up to the messages' numbers (here in the order the events came).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/app.h"
#include "base/lang.h"
#include "check/consistency_checker.h"
#include "check/history_observer.h"

namespace cutline::check {

// One event of one node, as a rank logs it (docs/runtime.md, the log's
// format). Messages are named per channel by `n`, their place in it.
struct StreamEvent {
  enum class Kind : std::uint8_t {
    kStart,           // the node's initial state: `amount`
    kSend,            // a transfer (`amount`) to `peer`
    kSendMarker,      // a marker of `snapshot` to `peer`
    kReceive,         // the transfer from `peer` numbered `n`
    kReceiveMarker,   // the marker from `peer` numbered `n`
    kRecord,          // recorded `amount` for `snapshot`, caused by a marker or not
    kPart,            // its part of `snapshot` done: `amount` and `channels` claimed
    kLocal,           // a step of its own; `amount`: its state after
    kVerdict,         // `verdict` declared for `snapshot` (jobs, locks)
    kClose,           // stopped recording the channel from `peer` for `snapshot`
                      // (a history's Closed; a log says it by the marker's receipt)
    kOvertaken,       // unaligned barriers: the marker numbered `overtaker`, just
                      // sent to `peer` (or, `incoming`, just arrived from it),
                      // overtook transfer `n`, which joins the channel's
                      // recorded state
    kDrop,            // transfer or marker `n` was dropped on purpose (an events
                      // log's drop) or lost by its receiver's crash: never
                      // delivered, not in flight, not a FIFO fault; on the
                      // channel from `peer` (`incoming`: logged at its
                      // receiver) or to `peer` (at its sender). A transfer's
                      // amount leaves the total from its send on.
    kRestart,         // the node crashed and restarted with state `amount`:
                      // the state it had leaves the total, `amount` joins it
    kClaim,           // after every other event: what an implementation
                      // claims of `snapshot` (a simulated history's), judged
                      // at once (see `claim`)
    kOther,           // none of these: only counted
  };
  Kind kind = Kind::kOther;
  std::uint32_t peer = 0;      // to / from
  std::uint64_t n = 0;         // the message's number on its channel
  std::uint64_t overtaker = 0;  // kOvertaken
  bool incoming = false;        // kOvertaken, kDrop: on the channel from `peer`, at its receiver
  SnapshotId snapshot = 0;
  cutline::Amount amount = 0;     // a transfer's amount, or a state
  // kRecord: caused by a message, the node's last receipt: a marker of the
  // snapshot, or (Lai-Yang) a transfer; `cause` names it (0: not named, as
  // in a rank's log: the marker it received last).
  bool by_marker = false;
  bool by_transfer = false;
  sim::Seq cause = 0;
  // kRecord under Lai-Yang: a channel's state keeps only the transfers sent
  // before their sender recorded (the older epoch).
  bool epochs = false;
  // kRecord under aligned barriers: the node recorded once a marker of the
  // snapshot came on every input, so those markers are the cut's edge, not
  // messages crossing it.
  bool after_markers = false;
  // kRecord of a stop-the-world snapshot: it sends no marker.
  bool no_markers = false;
  // kPart: each incoming channel's claimed state, by sender; and (unaligned
  // barriers) what its markers overtook on outgoing channels, by receiver,
  // which follows the receiver's claim in the channel's state.
  std::vector<std::pair<std::uint32_t, std::vector<cutline::Amount>>> channels;
  std::vector<std::pair<std::uint32_t, std::vector<cutline::Amount>>> sent;
  // kReceiveMarker: the marker does not close its channel, a kClose will
  // (Lai-Yang's channel closes once its count of older transfers has come).
  bool keeps_open = false;
  // kLocal from a history: the step says no state, so there is none to
  // compare with the replayed one.
  bool unstated = false;
  apps::Verdict verdict;       // kVerdict
  // kClaim, read during Apply only: judged against the events, as a
  // snapshot's last part is, but by its own shape, states, channel states
  // (with how each channel's recording stands), markers and total, and
  // (jobs, locks) the property it declares from its records (g). A
  // snapshot claimed before is named and not judged again; after
  // HistoryBroken none is judged.
  const SnapshotClaim* claim = nullptr;
  std::size_t line = 0;        // where in its node's source, from 1 (findings name it)
};

// What the judge found when fed every event.
struct StreamResult {
  // The findings and verdicts; `verdicts` holds only the snapshots whose
  // verdict is not consistent (a long run judges thousands) unless every
  // verdict is kept (KeepEveryVerdict).
  CheckReport report;
  std::size_t events = 0;  // as a simulated history would count them
  cutline::Amount total = 0;  // of the nodes that started
  // Nodes with no start event: their state and events are unknown; no
  // snapshot they took part in completes.
  std::vector<std::uint32_t> silent;
  // Snapshots some node recorded or finished that never completed (a
  // node's events ended without its part), by id, each with the nodes that
  // did not do their part.
  std::vector<std::pair<SnapshotId, std::vector<std::uint32_t>>> unfinished;
  // The most the judge held at once: open snapshots, messages in flight,
  // and the per-snapshot items (pending crossings, expected channel
  // transfers, findings) of the snapshots still open.
  std::size_t peak_state = 0;
  std::size_t peak_open_snapshots = 0;
  // The application, and for jobs and locks the properties declared (kVerdict):
  // each is checked against the property on the state replayed at its
  // snapshot's cut, and one that holds must hold where the events end too
  // (it is stable).
  std::string app = "bank";
  std::size_t declared = 0;
  std::size_t declared_holding = 0;  // of the ones checked at their cut
  // Of those, the ones whose snapshot has no cut in the events (stop-the-world
  // logs none): only checked for stability.
  std::size_t unchecked = 0;
};

// How findings refer to message `seq`: the name its log gave it (`names`
// by Seq, as RunRecord::message_names), else "#<seq>".
std::string MessageRef(const std::vector<std::string>& names, sim::Seq seq);

class StreamJudge {
 public:
  // `names`: each node's name in findings; `sources`: each node's source of
  // events (a log's file name), which with StreamEvent::line says where;
  // `lang`: the language of every finding.
  StreamJudge(std::uint32_t nodes, std::vector<std::string> names,
              std::vector<std::string> sources, apps::App app, Lang lang = Lang::kEn);
  // The same on `topology`'s channels (the one above: every ordered pair of
  // nodes). Events name only channels it has.
  StreamJudge(sim::Topology topology, std::vector<std::string> names,
              std::vector<std::string> sources, apps::App app, Lang lang = Lang::kEn);
  ~StreamJudge();
  StreamJudge(const StreamJudge&) = delete;
  StreamJudge& operator=(const StreamJudge&) = delete;

  // Node `node`'s next event. False: a receipt whose send has not come (its
  // sender's events ended before it); the caller then ends this node's
  // events too (CutShort, NodeEnded).
  bool Apply(std::uint32_t node, const StreamEvent& e);
  // Channels may reorder (a `fifo=no` network): a receipt overtaking an
  // older message is then no fault, and is not named.
  void ReorderingIsNoFault();
  // StreamResult::report.verdicts then holds every snapshot judged, not
  // only the inconsistent ones.
  void KeepEveryVerdict();
  // By message number (Seq), the name a log gave each message (RunRecord's
  // message_names); one without is "#<n>". NameMessagesBy asks `name` for a
  // message's name only when a finding names it (the judge numbers sends
  // from 1 as they come), so a long log's names are not copied here.
  void NameMessages(std::vector<std::string> names);
  void NameMessagesBy(std::function<std::string(sim::Seq)> name);
  // By SnapshotId, the name a log wrote each snapshot's id as (an events
  // log's may be a string); one without is its number.
  void NameSnapshots(std::vector<std::string> names);
  // The history is malformed past repair at the events fed so far (a
  // message delivered twice, a node that does not exist): `finding` names
  // it (a "history: ..." line) and no snapshot is judged. The caller stops
  // feeding events.
  void HistoryBroken(std::string finding);
  // A node's events were cut where its sender's ended (a crash): the state
  // where the events end is then not the run's end.
  void CutShort();
  // No more events of `node`: a snapshot it has not finished cannot complete.
  void NodeEnded(std::uint32_t node);
  // No later event names snapshot `id` (its records, markers sent and
  // received: the reader knows its whole log, as an events log's does):
  // once nothing in flight can change it, the judge stops weighing events
  // against it until its claim, which is judged as it would have been.
  // Without it, a snapshot waiting for a claim costs every later event.
  void NoMoreOf(SnapshotId id);
  // The findings, once every node's events are in.
  StreamResult Finish();

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// The simulator's history fed to the streaming judge: each node's start,
// then the history's events in its order (a causal one), as the rank that
// did each would log it, then run.claims, one kClaim event each. Messages
// keep the history's numbers (the judge numbers them in send order, as the
// simulator does); every verdict is kept, one per claim judged, in the
// claims' order. A malformed history (initial states missing, an event
// naming what does not exist, a message sent or delivered twice, or
// delivered as something else, a state that overflows) is named at its
// first fault and nothing is judged. CheckRun is this, reporting only.
//
// kAsLogs judges instead as the logs door does: each snapshot once its last
// part comes, from what its records and parts say (the claims' states, as
// a rank would log them), the claims' own fields unread. The agreement
// tests hold the two ways to each other on runs a rank's log cannot say.
//
// `observers` are shown each event the judge is fed from, on the same walk
// (history_observer.h): the costs ride on it.
enum class HistoryJudging { kClaims, kAsLogs };
StreamResult JudgeHistory(const RunRecord& run, Lang lang = Lang::kEn,
                          HistoryJudging how = HistoryJudging::kClaims,
                          std::initializer_list<HistoryObserver*> observers = {});

}  // namespace cutline::check
