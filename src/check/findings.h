// The checker's sentences, in English and Japanese: every finding the judge
// (stream_judge.h) reports, whichever door fed it, and the lines a check
// ends with, worded here once per language. findings_en.cc and
// findings_ja.cc each implement the whole of `Findings`, so a sentence
// missing in one language does not compile. Each finding returns its
// sentence without its prefix; AboutSnapshot and AboutHistory add it.
//
// A message is named by its reference (`ref`: "#7", or the name a log gave
// it) and `msg` = Message(ref); a transfer's content by `word` (the
// application's word for it: the bank's amount "$40", "job", "grant").
// Names (P1, N0->N1, rank-2.jsonl:14) and amounts are the caller's, written
// the same in both languages.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "apps/app.h"
#include "base/lang.h"
#include "history/history.h"  // cutline::Amount, sim::Seq, SnapshotId

namespace cutline::check {

class Findings {
 public:
  virtual ~Findings() = default;

  // "snapshot N: text", "history: text". A snapshot is named by its id, or
  // (an events log's, docs/logs.md) by the name its log wrote: each
  // sentence naming one takes either (the SnapshotId overloads below).
  virtual std::string AboutSnapshot(std::string_view snapshot, std::string_view text) const = 0;
  std::string AboutSnapshot(SnapshotId id, std::string_view text) const {
    return AboutSnapshot(std::string_view(fmt::format("{}", id)), text);
  }
  virtual std::string AboutHistory(std::string_view text) const = 0;

  // "message #7".
  virtual std::string Message(std::string_view ref) const = 0;
  // "$40 (message #7, N0→N1)": a transfer in a finding about the cut.
  virtual std::string Transfer(std::string_view word, std::string_view msg,
                               std::string_view channel) const = 0;
  // "message #7 ($40 from N0)", "message #7 (marker of snapshot 2 from N0)".
  virtual std::string DescribeTransfer(std::string_view msg, std::string_view word,
                                       std::string_view from) const = 0;
  virtual std::string DescribeMarker(std::string_view msg, std::string_view snapshot,
                                     std::string_view from) const = 0;
  std::string DescribeMarker(std::string_view msg, SnapshotId snapshot,
                             std::string_view from) const {
    return DescribeMarker(msg, std::string_view(fmt::format("{}", snapshot)), from);
  }

  // The claim itself (a simulated history's: its shape, its count).
  virtual std::string ClaimedTwice() const = 0;
  virtual std::string ClaimShapeBalances(std::size_t given, std::size_t branches) const = 0;
  virtual std::string ClaimShapeChannels(std::size_t given, std::size_t channels) const = 0;
  virtual std::string ClaimsMarkersSent(std::uint64_t claimed, std::size_t channels) const = 0;
  // Amounts and states come worded by the application (AppWords: "$40",
  // "2 jobs", "3 records"); a channel's list as "[$40, $10]".
  virtual std::string ClaimsTotal(std::string_view claimed, std::string_view sum) const = 0;

  // Each node records once.
  virtual std::string NeverRecorded(std::string_view node) const = 0;
  virtual std::string RecordedTimes(std::string_view node, int times) const = 0;
  // (b) the recorded balances.
  virtual std::string NoRecordedBalance(std::string_view node) const = 0;
  virtual std::string BalanceNotReplayed(std::string_view node, std::string_view claimed,
                                         std::string_view replayed) const = 0;
  // A rank's log: its part against its record line (`where`: file:line).
  virtual std::string PartWithoutRecord(std::string_view node, std::string_view where) const = 0;
  virtual std::string PartDiffersFromRecord(std::string_view node, std::string_view recorded,
                                            std::string_view said,
                                            std::string_view where) const = 0;
  // (a) the cut: `transfer` as Transfer() says it, `marker` as DescribeMarker.
  virtual std::string TransferCrossesCut(std::string_view transfer, std::string_view to,
                                         std::string_view from) const = 0;
  virtual std::string MarkerCrossesCut(std::string_view to, std::string_view marker,
                                       std::string_view from) const = 0;
  // (c) the channels' states; `recording`: the channel is still being
  // recorded (else it was never recorded).
  virtual std::string ChannelNotClosed(std::string_view channel, bool recording) const = 0;
  virtual std::string ChannelNotAsExpected(std::string_view channel, std::string_view recorded,
                                           std::string_view expected) const = 0;
  // (e) the markers.
  virtual std::string MarkerCount(std::size_t markers, std::string_view channel) const = 0;
  virtual std::string MarkersInStopTheWorld(std::size_t markers,
                                            std::string_view channel) const = 0;
  virtual std::string MarkerSentInside(std::string_view from, std::string_view channel,
                                       std::string_view ref) const = 0;
  virtual std::string MarkerNeverDelivered(std::string_view channel,
                                           std::string_view ref) const = 0;
  virtual std::string SentBeforeMarker(std::string_view from, std::string_view message,
                                       std::string_view channel) const = 0;
  // (d) the money.
  virtual std::string AmountsOverflow() const = 0;
  // What is conserved is the application's: the bank's money, a
  // dataflow's records.
  virtual std::string NotConserved(const apps::App& app, std::string_view balances,
                                   std::string_view channels, std::string_view sum,
                                   std::string_view total) const = 0;
  // (f) the verdict's transfers, `transfer` as Transfer() says it.
  virtual std::string CountedTwice(std::string_view transfer, std::string_view from) const = 0;
  virtual std::string Missed(std::string_view transfer, std::string_view from,
                             std::string_view to) const = 0;
  virtual std::string MissingFromSnapshot(std::string_view word, std::string_view msg,
                                          std::string_view channel) const = 0;

  // (g) a stable property (jobs, locks). A verdict as a finding says it:
  // `branches` and `channels` name its reason.
  virtual std::string Verdict(const apps::App& app, const apps::Verdict& v,
                              std::span<const std::string> branches,
                              std::span<const std::string> channels) const = 0;
  // A declared property (a claim's, read from its records, or a rank's
  // verdict line) against the one on the state replayed at its cut (each
  // as Verdict() says it), and a declared property that no longer holds
  // where the logs end (`branches`, `channels`: why, there).
  virtual std::string DeclaredOtherwise(std::string_view declared,
                                        std::string_view at_cut) const = 0;
  virtual std::string DeclaredTooEarly(const apps::App& app,
                                       std::span<const std::string> branches,
                                       std::span<const std::string> channels) const = 0;

  // The history (AboutHistory). `message` as DescribeTransfer or DescribeMarker.
  virtual std::string NotFifo(std::string_view channel, std::string_view message,
                              std::string_view earlier_ref) const = 0;
  // A message a later one on its channel overtook, never received: lost,
  // named once instead of as a FIFO fault at every later receipt. `msg` as
  // Message(), `word` its content (a transfer's as the application words
  // it, or MarkerWord).
  virtual std::string NeverReceived(std::string_view msg, std::string_view word,
                                    std::string_view channel) const = 0;
  virtual std::string MarkerWord(std::string_view snapshot) const = 0;
  std::string MarkerWord(SnapshotId snapshot) const {
    return MarkerWord(std::string_view(fmt::format("{}", snapshot)));
  }
  virtual std::string DeliveredAsOther(std::size_t event, std::string_view message) const = 0;
  // A record naming as its cause a message (a transfer under Lai-Yang, else
  // a marker of the snapshot) that is not its node's last receipt.
  virtual std::string CauseNotLast(std::size_t event, std::string_view node,
                                   std::string_view snapshot, bool by_transfer,
                                   sim::Seq cause) const = 0;
  std::string CauseNotLast(std::size_t event, std::string_view node, SnapshotId snapshot,
                           bool by_transfer, sim::Seq cause) const {
    return CauseNotLast(event, node, std::string_view(fmt::format("{}", snapshot)), by_transfer,
                        cause);
  }
  virtual std::string LocalStateDiffers(std::string_view node, cutline::Amount said,
                                        cutline::Amount replayed,
                                        std::string_view where) const = 0;
  // An events log (docs/logs.md) whose lines cannot be put in a causal
  // order (AboutHistory), or a part naming a message no log sends
  // (AboutSnapshot); `msg` is the log's id, `where` file:line.
  virtual std::string ReceivedOtherwise(std::string_view node, std::string_view msg,
                                        std::string_view from, std::string_view where,
                                        std::string_view sender,
                                        std::string_view receiver) const = 0;
  virtual std::string ReceivedTwice(std::string_view msg, std::string_view where) const = 0;
  virtual std::string ReceivedUnsent(std::string_view node, std::string_view msg,
                                     std::string_view where) const = 0;
  virtual std::string MarkerUnsent(std::string_view node, std::string_view snapshot,
                                   std::string_view from, std::string_view where) const = 0;
  std::string MarkerUnsent(std::string_view node, SnapshotId snapshot, std::string_view from,
                           std::string_view where) const {
    return MarkerUnsent(node, std::string_view(fmt::format("{}", snapshot)), from, where);
  }
  virtual std::string NoCausalOrder(std::string_view where) const = 0;
  virtual std::string ChannelHoldsUnsent(std::string_view node, std::string_view from,
                                         std::string_view msg, std::string_view where) const = 0;
  // An events log's part-done (`where`) logged before the marker from
  // `from` arrived, so that channel could not be closed yet (AboutSnapshot);
  // a send (`where`) that took its sender's state below 0 (AboutHistory).
  virtual std::string PartBeforeMarker(std::string_view node, std::string_view from,
                                       std::string_view where) const = 0;
  virtual std::string Overdraft(std::string_view node, std::string_view word,
                                std::string_view msg, std::string_view held,
                                std::string_view where) const = 0;
  // Version 2 of the events format. A Lai-Yang send whose epoch is not its
  // sender's count of records when it sent (AboutHistory); a part-done's
  // control count from `from` against the transfers `from` truly sent on
  // the channel before recording (AboutSnapshot); a restart whose state is
  // not what its process recorded for the snapshot it names, or that names
  // one it never recorded (AboutHistory; states as the bank words them).
  virtual std::string EpochNotCount(std::string_view node, std::string_view msg,
                                    cutline::Amount epoch, cutline::Amount records,
                                    std::string_view where) const = 0;
  virtual std::string ControlCountWrong(std::string_view node, std::string_view from,
                                        std::uint64_t said, std::uint64_t sent,
                                        std::string_view where) const = 0;
  virtual std::string RestoredOtherwise(std::string_view node, std::string_view restored,
                                        std::string_view recorded, std::string_view snapshot,
                                        std::string_view where) const = 0;
  virtual std::string RestoredUnrecorded(std::string_view node, std::string_view snapshot,
                                         std::string_view where) const = 0;
  // Notes, not findings: a snapshot aborted (`where` the abort, `why` as
  // its log says it) or cut short by a crash, and so not judged.
  virtual std::string Aborted(std::string_view snapshot, std::string_view node,
                              std::string_view where, std::string_view why) const = 0;
  virtual std::string CutByCrash(std::string_view snapshot, std::string_view node,
                                 std::string_view where) const = 0;
  // A history too broken to judge any snapshot by (the judge stops there).
  virtual std::string InitialStates(std::size_t given, std::size_t nodes) const = 0;
  virtual std::string UnknownNode(std::size_t event) const = 0;
  virtual std::string UnknownChannel(std::size_t event) const = 0;
  virtual std::string SentTwice(std::string_view ref) const = 0;
  virtual std::string NeverSent(std::size_t event, std::string_view ref) const = 0;
  virtual std::string DeliveredTwice(std::string_view ref) const = 0;
  virtual std::string ReplayOverflows(std::size_t event) const = 0;
  virtual std::string NoHistory() const = 0;

  // The lines a check ends with. `problem`: a finding with its prefix.
  virtual std::string Fail(std::string_view problem) const = 0;
  // A snapshot not complete when a scenario ends (`nodes`: the ones that
  // have not finished their part), a note; one that never completed in
  // logs (`part_event`: the format's name for a part's line, "part-done"
  // or "part"), which the caller may also say as a finding (docs/logs.md).
  virtual std::string NotComplete(SnapshotId id, std::span<const std::string> nodes) const = 0;
  virtual std::string NeverCompleted(std::string_view snapshot, std::span<const std::string> nodes,
                                     std::string_view part_event) const = 0;
  std::string NeverCompleted(SnapshotId id, std::span<const std::string> nodes,
                             std::string_view part_event) const {
    return NeverCompleted(std::string_view(fmt::format("{}", id)), nodes, part_event);
  }
  // No snapshot completed, so nothing was judged (exit 3, as `store verify`
  // says of a store with none): of a scenario (`started`: snapshots begun),
  // or of logs of `nodes` processes (`ranks`: a cluster run's) and `events`.
  virtual std::string NothingJudgedInScenario(std::size_t started) const = 0;
  virtual std::string NothingJudgedInLogs(std::size_t nodes, bool ranks,
                                          std::size_t events) const = 0;
  // `total`: the money conserved, as the application writes it.
  virtual std::string AllConserved(int snapshots, std::string_view total) const = 0;
  // `cutline explore`: how much it explored (`schedules` may pass 2^64),
  // then one of its endings (when no schedule starts a snapshot,
  // NothingJudgedInScenario(0)). The counterexample's header ends with a
  // colon: the schedule follows, one command a line.
  virtual std::string Explored(double schedules, std::uint64_t states, std::uint64_t steps,
                               double seconds) const = 0;
  virtual std::string ExploredRight(std::uint64_t states, std::uint64_t judged) const = 0;
  virtual std::string ExploredBroken(std::size_t steps) const = 0;
  // The visited states kept as `bits`-bit fingerprints: at most `chance`
  // that a collision hid a state (explore.h, Result::collision_chance).
  virtual std::string ExploredFingerprints(int bits, double chance) const = 0;
  // A search still running: the distinct states met, the steps up to which
  // every schedule is explored, the states met and not yet explored, and
  // the seconds so far (explore::Progress). Printed every few seconds.
  virtual std::string ExploredSoFar(std::uint64_t states, std::size_t depth, std::uint64_t queued,
                                    double seconds) const = 0;
  // `bound`: "states" or "seconds".
  virtual std::string ExploredBounded(std::string_view bound, std::uint64_t states,
                                      std::size_t depth) const = 0;
  // The judge's findings, closing the last caption of a counterexample
  // played as a demo (explore_json.h): one sentence, with its full stop.
  virtual std::string ExploredFindings(const std::vector<std::string>& findings) const = 0;
  // A snapshot started and not complete in a state where nothing more can
  // happen (nothing to deliver, no command that can run): it never
  // completes. Its cause where the engine knows it (`holding`: branches that
  // keep their markers, broken-late-markers); else `unrecorded` (branches
  // that never record) and `open` (channels "P2→P1" whose recorder waits
  // for a marker for ever). The header of such a counterexample, and the
  // close of its last caption (as ExploredFindings, for these findings).
  virtual std::string NeverCompletes(SnapshotId id, std::span<const std::string> holding,
                                     std::span<const std::string> unrecorded,
                                     std::span<const std::string> open) const = 0;
  virtual std::string ExploredNeverCompletes(std::size_t steps) const = 0;
  virtual std::string ExploredStuck(const std::vector<std::string>& findings) const = 0;
  virtual std::string AllDeclaredAsAtCut(int snapshots, const apps::App& app) const = 0;
  virtual std::string EventsLogOk(int snapshots, std::size_t processes, std::size_t lines,
                                  std::string_view total) const = 0;
  // check --logs: a rank whose log is empty, events after a crash left out,
  // declarations checked for stability only, and the two summaries.
  virtual std::string SilentRank(std::uint32_t rank) const = 0;
  virtual std::string DroppedAfterCrash(std::size_t dropped) const = 0;
  virtual std::string StabilityOnly(std::size_t unchecked) const = 0;
  virtual std::string LogsDeclaredOk(int snapshots, std::uint32_t ranks, std::string_view app,
                                     std::size_t events, std::size_t declared,
                                     std::size_t holding) const = 0;
  virtual std::string LogsConservedOk(int snapshots, std::uint32_t ranks, std::size_t events,
                                      cutline::Amount total) const = 0;
  // A dataflow's logs passed: every record in one place in each snapshot.
  virtual std::string LogsDataflowOk(int snapshots, std::uint32_t vertices, std::string_view topology,
                                     std::size_t events) const = 0;
};

// A whole number with its digits grouped by threes ("43,692,207"), as the
// page prints counts, in either language: explore's counts run to
// millions.
inline std::string Grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A count that may pass 2^64 (explore's schedules): whole and grouped
// below 10^15, else with an exponent ("3.2e+21"), in either language.
inline std::string ExploreCount(double n) {
  return n < 1e15 ? Grouped(static_cast<std::uint64_t>(std::llround(n))) : fmt::format("{:.3g}", n);
}

// The catalogue in `lang`: a constant, alive as long as the program.
const Findings& FindingsIn(Lang lang);
// Each language's (findings_en.cc, findings_ja.cc).
const Findings& EnglishFindings();
const Findings& JapaneseFindings();

}  // namespace cutline::check
