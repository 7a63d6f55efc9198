// The checker's sentences in English (findings.h). The goldens, the
// property tests and check --logs's tests compare them word for word.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "check/findings.h"

namespace cutline::check {

namespace {

using cutline::Amount;

// "s" when `n` calls for a plural.
std::string_view S(std::size_t n) { return n == 1 ? "" : "s"; }
std::string_view Not(bool holds) { return holds ? "" : "not "; }

// Why a verdict holds or not, in the application's words for a checker:
// "P1, P2; jobs on P2→P1", "P1 → P2 → P1", "no branch busy".
std::string Reason(const apps::App& app, std::span<const std::string> branches,
                   std::span<const std::string> channels) {
  const apps::AppWordsIn& words = app.words().in(Lang::kEn);
  std::string why = app.definition().reason_is_cycle ? CycleText(branches)
                                                     : fmt::format("{}", fmt::join(branches, ", "));
  if (why.empty()) why = words.reason_none;
  if (!channels.empty()) {
    why += fmt::format("; {} on {}", words.reason_messages, fmt::join(channels, ", "));
  }
  return why;
}

class English final : public Findings {
 public:
  // The SnapshotId overloads (findings.h) beside the ones written here.
  using Findings::AboutSnapshot;
  using Findings::CauseNotLast;
  using Findings::DescribeMarker;
  using Findings::MarkerUnsent;
  using Findings::MarkerWord;
  using Findings::NeverCompleted;
  std::string AboutSnapshot(std::string_view id, std::string_view text) const override {
    return fmt::format("snapshot {}: {}", id, text);
  }
  std::string AboutHistory(std::string_view text) const override {
    return fmt::format("history: {}", text);
  }

  std::string Message(std::string_view ref) const override {
    return fmt::format("message {}", ref);
  }
  std::string Transfer(std::string_view word, std::string_view msg,
                       std::string_view channel) const override {
    return fmt::format("{} ({}, {})", word, msg, channel);
  }
  std::string DescribeTransfer(std::string_view msg, std::string_view word,
                               std::string_view from) const override {
    return fmt::format("{} ({} from {})", msg, word, from);
  }
  std::string DescribeMarker(std::string_view msg, std::string_view snapshot,
                             std::string_view from) const override {
    return fmt::format("{} (marker of snapshot {} from {})", msg, snapshot, from);
  }

  std::string ClaimedTwice() const override { return "claimed complete more than once"; }
  std::string ClaimShapeBalances(std::size_t given, std::size_t branches) const override {
    return fmt::format("claims {} recorded balances for {} branches", given, branches);
  }
  std::string ClaimShapeChannels(std::size_t given, std::size_t channels) const override {
    return fmt::format("claims {} channel states for {} channels", given, channels);
  }
  std::string ClaimsMarkersSent(std::uint64_t claimed, std::size_t channels) const override {
    return fmt::format("claims {} markers sent, but the network has {} channels", claimed,
                       channels);
  }
  std::string ClaimsTotal(std::string_view claimed, std::string_view sum) const override {
    return fmt::format("claims a total of {}, but its records add up to {}", claimed, sum);
  }

  std::string NeverRecorded(std::string_view node) const override {
    return fmt::format("{} never recorded its state", node);
  }
  std::string RecordedTimes(std::string_view node, int times) const override {
    return fmt::format("{} recorded its state {} times", node, times);
  }
  std::string NoRecordedBalance(std::string_view node) const override {
    return fmt::format("{} claims no recorded balance", node);
  }
  std::string BalanceNotReplayed(std::string_view node, std::string_view claimed,
                                 std::string_view replayed) const override {
    return fmt::format("{} recorded {} but its balance replayed from the history at its record "
                       "is {}",
                       node, claimed, replayed);
  }
  std::string PartWithoutRecord(std::string_view node, std::string_view where) const override {
    return fmt::format("{} logged its part without a record ({})", node, where);
  }
  std::string PartDiffersFromRecord(std::string_view node, std::string_view recorded,
                                    std::string_view said, std::string_view where) const override {
    return fmt::format("{} recorded {} but its part says {} ({})", node, recorded, said, where);
  }

  // Money in two places: said as the student would, "counted twice", and why.
  std::string TransferCrossesCut(std::string_view transfer, std::string_view to,
                                 std::string_view from) const override {
    return fmt::format("inconsistent cut: {} counted twice: {} received it before recording, {} "
                       "sent it after recording",
                       transfer, to, from);
  }
  std::string MarkerCrossesCut(std::string_view to, std::string_view marker,
                               std::string_view from) const override {
    return fmt::format("inconsistent cut: {} recorded the receipt of {} but {} recorded before "
                       "sending it",
                       to, marker, from);
  }

  std::string ChannelNotClosed(std::string_view channel, bool recording) const override {
    return fmt::format("channel {} is '{}', not closed", channel,
                       recording ? "recording" : "not recorded");
  }
  std::string ChannelNotAsExpected(std::string_view channel, std::string_view recorded,
                                   std::string_view expected) const override {
    return fmt::format("channel {} recorded {} but expected {}", channel, recorded, expected);
  }

  std::string MarkerCount(std::size_t markers, std::string_view channel) const override {
    return fmt::format("{} markers went over channel {}, not exactly one", markers, channel);
  }
  std::string MarkersInStopTheWorld(std::size_t markers,
                                    std::string_view channel) const override {
    return fmt::format(
        "{} markers went over channel {}, but a stop-the-world snapshot sends none", markers,
        channel);
  }
  std::string MarkerSentInside(std::string_view from, std::string_view channel,
                               std::string_view ref) const override {
    return fmt::format("{} sent its marker on {} ({}) before recording", from, channel, ref);
  }
  std::string MarkerNeverDelivered(std::string_view channel,
                                   std::string_view ref) const override {
    return fmt::format("the marker on {} ({}) was never delivered", channel, ref);
  }
  std::string SentBeforeMarker(std::string_view from, std::string_view message,
                               std::string_view channel) const override {
    return fmt::format("{} sent {} on {} after recording but before the marker", from, message,
                       channel);
  }

  std::string AmountsOverflow() const override { return "its recorded amounts overflow 64 bits"; }
  std::string NotConserved(const apps::App& app, std::string_view balances,
                           std::string_view channels, std::string_view sum,
                           std::string_view total) const override {
    if (app == apps::App::kDataflow) {
      return fmt::format("records are not conserved: recorded states {} + channel states {} = {}, "
                         "but the vertices started with {}",
                         balances, channels, sum, total);
    }
    return fmt::format("money is not conserved: recorded balances {} + channel states {} = {}, "
                       "but the bank holds {}",
                       balances, channels, sum, total);
  }

  std::string CountedTwice(std::string_view transfer, std::string_view from) const override {
    return fmt::format("{} counted twice: it is in the channel's recorded state, but {} sent it "
                       "after recording",
                       transfer, from);
  }
  std::string Missed(std::string_view transfer, std::string_view from,
                     std::string_view to) const override {
    return fmt::format("{} missed: {} sent it before recording, but it is neither in {}'s "
                       "record nor in the channel's recorded state",
                       transfer, from, to);
  }
  std::string MissingFromSnapshot(std::string_view word, std::string_view msg,
                                  std::string_view channel) const override {
    return fmt::format("{} ({}) in flight on {} is missing from the snapshot", word, msg,
                       channel);
  }

  // "not terminated (P1; jobs on P2→P1)": the property, then its reason in
  // the application's words for a checker.
  std::string Verdict(const apps::App& app, const apps::Verdict& v,
                      std::span<const std::string> branches,
                      std::span<const std::string> channels) const override {
    return fmt::format("{}{} ({})", Not(v.holds), app.definition().property,
                       Reason(app, branches, channels));
  }
  std::string DeclaredOtherwise(std::string_view declared,
                                std::string_view at_cut) const override {
    return fmt::format("declared {}, but the state replayed at its cut says {}", declared, at_cut);
  }
  std::string DeclaredTooEarly(const apps::App& app, std::span<const std::string> branches,
                               std::span<const std::string> channels) const override {
    return fmt::format("declared {}, but where the logs end it is not ({}): declared too early",
                       app.definition().property, Reason(app, branches, channels));
  }

  std::string NeverReceived(std::string_view msg, std::string_view word,
                            std::string_view channel) const override {
    return fmt::format("{} ({}) sent on {} was never received", msg, word, channel);
  }
  std::string MarkerWord(std::string_view snapshot) const override {
    return fmt::format("marker of snapshot {}", snapshot);
  }
  std::string PartBeforeMarker(std::string_view node, std::string_view from,
                               std::string_view where) const override {
    return fmt::format("{} logged its part-done ({}) before the marker from {} arrived: its "
                       "channel from {} could not be closed yet",
                       node, where, from, from);
  }
  std::string Overdraft(std::string_view node, std::string_view word, std::string_view msg,
                        std::string_view held, std::string_view where) const override {
    return fmt::format("{} sent {} ({}, {}) holding only {}: its state went below 0", node, word,
                       msg, where, held);
  }
  std::string EpochNotCount(std::string_view node, std::string_view msg, cutline::Amount epoch,
                            cutline::Amount records, std::string_view where) const override {
    return fmt::format("{} sent {} ({}) with epoch {}, but it had recorded {} snapshot{} by then",
                       node, msg, where, epoch, records, records == 1 ? "" : "s");
  }
  std::string ControlCountWrong(std::string_view node, std::string_view from, std::uint64_t said,
                                std::uint64_t sent, std::string_view where) const override {
    return fmt::format("{}'s part-done ({}) expects {} message{} from {}, but {} sent {} on that "
                       "channel before recording",
                       node, where, said, said == 1 ? "" : "s", from, from, sent);
  }
  std::string RestoredOtherwise(std::string_view node, std::string_view restored,
                                std::string_view recorded, std::string_view snapshot,
                                std::string_view where) const override {
    return fmt::format("{} restarted ({}) with {} from snapshot {}, which recorded {} for it",
                       node, where, restored, snapshot, recorded);
  }
  std::string RestoredUnrecorded(std::string_view node, std::string_view snapshot,
                                 std::string_view where) const override {
    return fmt::format("{} restarted ({}) from snapshot {}, which it never recorded", node, where,
                       snapshot);
  }
  std::string Aborted(std::string_view snapshot, std::string_view node, std::string_view where,
                      std::string_view why) const override {
    return fmt::format("snapshot {} was aborted by {} ({}: {}): not judged", snapshot, node, where,
                       why);
  }
  std::string CutByCrash(std::string_view snapshot, std::string_view node,
                         std::string_view where) const override {
    return fmt::format("snapshot {} was cut short by {}'s crash ({}): not judged", snapshot, node,
                       where);
  }
  std::string NotFifo(std::string_view channel, std::string_view message,
                      std::string_view earlier_ref) const override {
    return fmt::format("channel {} is not FIFO: {} arrived while {}, sent earlier, was still "
                       "waiting",
                       channel, message, earlier_ref);
  }
  std::string DeliveredAsOther(std::size_t event, std::string_view message) const override {
    return fmt::format("event {} delivers {}, but it was sent as something else or on another "
                       "channel",
                       event, message);
  }
  std::string CauseNotLast(std::size_t event, std::string_view node, std::string_view snapshot,
                           bool by_transfer, sim::Seq cause) const override {
    return fmt::format("event {}: {} records for snapshot {} naming {} #{} as its cause, which "
                       "is not the {} it received last",
                       event, node, snapshot, by_transfer ? "transfer" : "marker", cause,
                       by_transfer ? "transfer" : "marker of that snapshot");
  }
  std::string LocalStateDiffers(std::string_view node, Amount said, Amount replayed,
                                std::string_view where) const override {
    return fmt::format("{} says its state is {} after a step of its own, but replayed it is {} "
                       "({})",
                       node, said, replayed, where);
  }
  std::string ReceivedOtherwise(std::string_view node, std::string_view msg,
                                std::string_view from, std::string_view where,
                                std::string_view sender,
                                std::string_view receiver) const override {
    return fmt::format("{} receives message {} from {} ({}), but {} sent it to {}", node, msg,
                       from, where, sender, receiver);
  }
  std::string ReceivedTwice(std::string_view msg, std::string_view where) const override {
    return fmt::format("message {} is received twice ({})", msg, where);
  }
  std::string ReceivedUnsent(std::string_view node, std::string_view msg,
                             std::string_view where) const override {
    return fmt::format("{} receives message {} ({}), which no process's log sends", node, msg,
                       where);
  }
  std::string MarkerUnsent(std::string_view node, std::string_view snapshot, std::string_view from,
                           std::string_view where) const override {
    return fmt::format("{} receives a marker of snapshot {} from {} ({}) that {}'s log does not "
                       "send before it",
                       node, snapshot, from, where, from);
  }
  std::string NoCausalOrder(std::string_view where) const override {
    return fmt::format("the logs cannot be put in a causal order: each process waits on a "
                       "receipt whose send comes after it ({} first)",
                       where);
  }
  std::string ChannelHoldsUnsent(std::string_view node, std::string_view from,
                                 std::string_view msg, std::string_view where) const override {
    return fmt::format("{}'s recorded channel from {} holds message {} ({}), which no process's "
                       "log sends",
                       node, from, msg, where);
  }
  std::string InitialStates(std::size_t given, std::size_t nodes) const override {
    return fmt::format("{} initial balances given for {} nodes", given, nodes);
  }
  std::string UnknownNode(std::size_t event) const override {
    return fmt::format("event {} names an unknown node", event);
  }
  std::string UnknownChannel(std::size_t event) const override {
    return fmt::format("event {} names an unknown channel", event);
  }
  std::string SentTwice(std::string_view ref) const override {
    return fmt::format("message {} is sent twice", ref);
  }
  std::string NeverSent(std::size_t event, std::string_view ref) const override {
    return fmt::format("event {} delivers message {}, never sent", event, ref);
  }
  std::string DeliveredTwice(std::string_view ref) const override {
    return fmt::format("message {} is delivered twice", ref);
  }
  std::string ReplayOverflows(std::size_t event) const override {
    return fmt::format("event {}: replaying a balance overflows", event);
  }
  std::string NoHistory() const override {
    return "the bank keeps no history, so its snapshots cannot be checked";
  }

  std::string Fail(std::string_view problem) const override {
    return fmt::format("FAIL {}", problem);
  }
  std::string NotComplete(SnapshotId id, std::span<const std::string> nodes) const override {
    return fmt::format("snapshot {} is not complete when the scenario ends ({} {} not finished {} "
                       "part{}): not checked",
                       id, JoinNames(nodes, Lang::kEn), nodes.size() == 1 ? "has" : "have",
                       nodes.size() == 1 ? "its" : "their", EnglishPlural(nodes.size()));
  }
  std::string NeverCompleted(std::string_view id, std::span<const std::string> nodes,
                             std::string_view part_event) const override {
    return fmt::format("snapshot {} never completed: {} logged no {}", id,
                       JoinNames(nodes, Lang::kEn), part_event);
  }
  std::string NothingJudgedInScenario(std::size_t started) const override {
    if (started == 0) return "nothing judged: the scenario takes no snapshot";
    return fmt::format("nothing judged: the scenario ends with no complete snapshot ({} begun)",
                       started);
  }
  std::string NothingJudgedInLogs(std::size_t nodes, bool ranks,
                                  std::size_t events) const override {
    return fmt::format("nothing judged: the logs of {} {}{} ({} event{}) hold no complete snapshot",
                       nodes, ranks ? "rank" : "process", ranks ? EnglishPlural(nodes)
                                                                : (nodes == 1 ? "" : "es"),
                       events, EnglishPlural(events));
  }
  std::string Explored(double schedules, std::uint64_t states, std::uint64_t steps,
                       double seconds) const override {
    // None explored to its end: a search cut short by what it found, or by a bound.
    if (schedules == 0) {
      return fmt::format("explored {} distinct states ({} steps) in {:.2f} s", Grouped(states),
                         Grouped(steps), seconds);
    }
    return fmt::format("explored {} distinct states and {} schedule{} to their end ({} steps) in "
                       "{:.2f} s",
                       Grouped(states), ExploreCount(schedules), schedules == 1 ? "" : "s",
                       Grouped(steps), seconds);
  }
  std::string ExploredRight(std::uint64_t states, std::uint64_t judged) const override {
    return fmt::format("right in every schedule ({} states; {} complete snapshot{} judged)",
                       Grouped(states), Grouped(judged), judged == 1 ? "" : "s");
  }
  std::string ExploredFingerprints(int bits, double chance) const override {
    return fmt::format("states kept as {}-bit fingerprints: the chance that two shared one and a "
                       "state went unexplored is at most {:.1e} (--exact keeps them whole)",
                       bits, chance);
  }
  std::string ExploredBroken(std::size_t steps) const override {
    return fmt::format("broken: the shortest schedule that breaks it has {} step{}, as a scenario:",
                       steps, steps == 1 ? "" : "s");
  }
  std::string ExploredSoFar(std::uint64_t states, std::size_t depth, std::uint64_t queued,
                            double seconds) const override {
    return fmt::format("exploring: {} distinct states so far, every schedule of up to {} steps "
                       "explored, {} states waiting ({:.0f} s)",
                       Grouped(states), depth, Grouped(queued), seconds);
  }
  std::string ExploredBounded(std::string_view bound, std::uint64_t states,
                              std::size_t depth) const override {
    return fmt::format("stopped by --max-{} after {} states: no schedule explored breaks it, but "
                       "not every schedule was explored (every one up to {} steps was)",
                       bound, Grouped(states), depth);
  }
  std::string ExploredFindings(const std::vector<std::string>& findings) const override {
    return fmt::format("The checker rejects it: {}.", fmt::join(findings, "; "));
  }
  std::string NeverCompletes(SnapshotId id, std::span<const std::string> holding,
                             std::span<const std::string> unrecorded,
                             std::span<const std::string> open) const override {
    std::vector<std::string> why;
    const bool one = holding.size() == 1;
    if (!holding.empty()) {
      why.push_back(fmt::format("{} hold{} {} markers for ever", JoinNames(holding, Lang::kEn),
                                one ? "s" : "", one ? "its" : "their"));
    }
    if (!unrecorded.empty()) {
      why.push_back(fmt::format("{} never record{}", JoinNames(unrecorded, Lang::kEn),
                                unrecorded.size() == 1 ? "s" : ""));
    }
    if (!open.empty()) {
      why.push_back(fmt::format("channel{} {} never close{}", S(open.size()),
                                JoinNames(open, Lang::kEn), open.size() == 1 ? "s" : ""));
    }
    if (why.empty()) return fmt::format("snapshot {} never completes", id);
    return fmt::format("snapshot {} never completes: {}", id, fmt::join(why, "; "));
  }
  std::string ExploredNeverCompletes(std::size_t steps) const override {
    return fmt::format("broken: the shortest schedule after which a snapshot never completes has "
                       "{} step{}, as a scenario:",
                       steps, S(steps));
  }
  std::string ExploredStuck(const std::vector<std::string>& findings) const override {
    return fmt::format("Nothing is left to deliver and no command can run, so {}.",
                       fmt::join(findings, "; "));
  }
  std::string AllConserved(int snapshots, std::string_view total) const override {
    return fmt::format("ok: {} complete snapshot{} checked: consistent cuts, exact channel "
                       "states, total {} conserved",
                       snapshots, S(static_cast<std::size_t>(snapshots)), total);
  }
  std::string AllDeclaredAsAtCut(int snapshots, const apps::App& app) const override {
    return fmt::format("ok: {} complete snapshot{} checked: consistent cuts, exact channel "
                       "states, each verdict on {} the same as at its cut",
                       snapshots, S(static_cast<std::size_t>(snapshots)),
                       app.definition().property);
  }
  std::string EventsLogOk(int snapshots, std::size_t processes, std::size_t lines,
                          std::string_view total) const override {
    return fmt::format("ok: {} complete snapshot{} of {} processes checked from {} logged "
                       "events: consistent cuts, exact channel states, total {} conserved",
                       snapshots, S(static_cast<std::size_t>(snapshots)), processes, lines,
                       total);
  }
  std::string SilentRank(std::uint32_t rank) const override {
    return fmt::format("rank-{}.jsonl holds no events (the rank died before its log was first "
                       "written): nothing it did is checked",
                       rank);
  }
  std::string DroppedAfterCrash(std::size_t dropped) const override {
    return fmt::format("the logs end at different moments (a crash): {} events after the last "
                       "consistent point left out",
                       dropped);
  }
  std::string StabilityOnly(std::size_t unchecked) const override {
    return fmt::format("{} declared propert{} of snapshots with no cut in the logs "
                       "(stop-the-world logs none) checked for stability only",
                       unchecked, unchecked == 1 ? "y" : "ies");
  }
  std::string LogsDeclaredOk(int snapshots, std::uint32_t ranks, std::string_view app,
                             std::size_t events, std::size_t declared,
                             std::size_t holding) const override {
    return fmt::format("ok: {} complete snapshot{} of {} ranks ({}) checked from {} logged "
                       "events: consistent cuts, exact channel states; {} declared propert{} "
                       "({} holding) equal the property at {} cut{}",
                       snapshots, S(static_cast<std::size_t>(snapshots)), ranks, app, events,
                       declared, declared == 1 ? "y" : "ies", holding,
                       declared == 1 ? "its" : "their", S(declared));
  }
  std::string LogsConservedOk(int snapshots, std::uint32_t ranks, std::size_t events,
                              Amount total) const override {
    return fmt::format("ok: {} complete snapshot{} of {} ranks checked from {} logged events: "
                       "consistent cuts, exact channel states, total ${} conserved",
                       snapshots, S(static_cast<std::size_t>(snapshots)), ranks, events, total);
  }
  std::string LogsDataflowOk(int snapshots, std::uint32_t vertices, std::string_view topology,
                             std::size_t events) const override {
    return fmt::format("ok: {} complete snapshot{} of the dataflow {} ({} vertices) checked from {} "
                       "logged events: consistent cuts, exact channel states, every record counted "
                       "once",
                       snapshots, S(static_cast<std::size_t>(snapshots)), topology, vertices, events);
  }
};

}  // namespace

const Findings& EnglishFindings() {
  static const English kEnglish;
  return kEnglish;
}

const Findings& FindingsIn(Lang lang) {
  return lang == Lang::kJa ? JapaneseFindings() : EnglishFindings();
}

}  // namespace cutline::check
