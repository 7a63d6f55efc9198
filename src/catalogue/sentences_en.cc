// The English sentences of a run's views (sentences.h): one function per
// group, one case per sentence.
#include <fmt/format.h>

#include "base/lang.h"
#include "catalogue/sentences.h"

namespace cutline::catalogue {

namespace {

// "s" where English says more than one, and none for none either.
const char* PluralIfMany(std::uint64_t n) { return n > 1 ? "s" : ""; }

}  // namespace

std::string English(MessageLine line, const Said& s) {
  switch (line) {
    case MessageLine::kBankSent:
      return fmt::format("{} sends {} to {} (message #{}); {} now has {}", s.from, s.what, s.to,
                         s.seq, s.from, s.state);
    case MessageLine::kJobHanded:
      return fmt::format("{} hands a job to {} (message #{}); {} still holds {}", s.from, s.to,
                         s.seq, s.from, s.state);
    case MessageLine::kRequestSent:
      return fmt::format("{} requests {} (message #{}) and waits for it", s.from, s.to, s.seq);
    case MessageLine::kGrantSent:
      return fmt::format("{} grants {}'s request (message #{})", s.from, s.to, s.seq);
    case MessageLine::kBankReceived:
      return fmt::format("{} receives {} from {} (#{}); {} now has {}", s.to, s.what, s.from,
                         s.seq, s.to, s.state);
    case MessageLine::kJobReceived:
      return fmt::format("{} receives a job from {} (#{}); {} now holds {}", s.to, s.from, s.seq,
                         s.to, s.state);
    case MessageLine::kRequestReceived:
      return fmt::format("{} receives {}'s request (#{}) and holds it unanswered", s.to, s.from,
                         s.seq);
    case MessageLine::kGrantReceived:
      return fmt::format("{} receives {}'s grant (#{}) and is active again", s.to, s.from, s.seq);
    case MessageLine::kOvertakes:
      return fmt::format("barrier #{} overtakes the {} (message #{}) on {}: "
                         "the {} is recorded as that channel's state",
                         s.seq, s.what, s.seq2, s.channel, s.what);
    case MessageLine::kLateMarkers:
      return fmt::format("only now, after that transfer, does {} send its {} of "
                         "snapshot {} to {}: the transfer travels ahead of them, "
                         "though it is also in {}'s recorded balance",
                         s.who, s.markers, s.id, s.list, s.who);
    case MessageLine::kJobFinished:
      return fmt::format("{} finishes a job; {} now holds {}", s.who, s.who, s.state);
    case MessageLine::kNothingInFlight:
      return "Nothing is in flight";
  }
  return "";
}

std::string English(DeliveryClause clause, const Said& s) {
  switch (clause) {
    case DeliveryClause::kJoins:
      return fmt::format("; {} is recording {}, so the {} goes into that "
                         "channel's state in snapshot{} {}",
                         s.to, s.channel, s.what, PluralIfMany(s.count), s.list);
    case DeliveryClause::kMissed:
      return fmt::format("; {}'s {} has not come yet, but by the rule broken "
                         "on purpose {} is not being recorded for snapshot{} {}, "
                         "so the {} is missing from it",
                         s.from, s.marker, s.channel, PluralIfMany(s.count), s.list, s.what);
    case DeliveryClause::kAfter:
      return fmt::format("; {} is already closed for snapshot{} {}, so the "
                         "{} is not in it: it belongs to the future",
                         s.channel, PluralIfMany(s.count), s.list, s.what);
  }
  return "";
}

std::string English(MarkersClause clause, const Said& s) {
  switch (clause) {
    case MarkersClause::kKeeps:
      return fmt::format("keeps its {} until after its next transfer (the rule "
                         "broken on purpose)",
                         s.markers);
    case MarkersClause::kNoOutgoing:
      return fmt::format("has no outgoing channel to send a {} on", s.marker);
    case MarkersClause::kSends:
      return fmt::format("sends {} to {}", s.markers, s.list);
  }
  return "";
}

std::string English(SnapshotLine line, const Said& s) {
  switch (line) {
    case SnapshotLine::kStarts:
      return fmt::format("{} starts snapshot {}: records {} and {}", s.who, s.id, s.state, s.more);
    case SnapshotLine::kJoins:
      return fmt::format("{} joins snapshot {} as another initiator: records {} and {}", s.who,
                         s.id, s.state, s.more);
    case SnapshotLine::kEpochRecord:
      return fmt::format("message #{} carries epoch {}, so {} records {} for "
                         "snapshot {} before applying it, and {}",
                         s.seq, s.id, s.who, s.state, s.id, s.more);
    case SnapshotLine::kStopsTheWorld:
      return fmt::format("Stop the world: every branch stops sending; after "
                         "{} deliveries every {} is read as snapshot {}",
                         s.count, s.money ? "balance" : "state", s.id);
    case SnapshotLine::kStopsAtFirst:
      return fmt::format("by the rule broken on purpose, {} stops recording {} for "
                         "snapshot {} at this first message, without waiting for "
                         "{}'s {}",
                         s.to, s.channel, s.id, s.from, s.marker);
    case SnapshotLine::kPartDone:
      return fmt::format("{}'s own part of snapshot {} is done (a {} came on every incoming channel)",
                         s.who, s.id, s.marker);
    case SnapshotLine::kPartDoneAlone:
      return fmt::format("{}'s own part of snapshot {} is done (it has no incoming channel to "
                         "wait for)",
                         s.who, s.id);
    case SnapshotLine::kCompleteTotal:
      return fmt::format("Snapshot {} is complete: {} + {} in channels = {}", s.id, s.list, s.what,
                         s.state);
    case SnapshotLine::kCompleteVerdict:
      return fmt::format("Snapshot {} is complete: {}", s.id, s.state);
  }
  return "";
}

std::string English(NaiveLine line, const Said& s) {
  switch (line) {
    case NaiveLine::kCopiesState:
      return fmt::format("The naive detector copies {}'s state: {}", s.who, s.state);
    case NaiveLine::kDeclares:
      return fmt::format("The naive detector declares: {}", s.state);
    case NaiveLine::kCopiesBalance:
      return fmt::format("The naive reader copies {}'s balance: {}", s.who, s.state);
    case NaiveLine::kTotal:
      return fmt::format("Naive total: {} (the bank holds {})", s.state, s.what);
    case NaiveLine::kReads:
      return fmt::format("naive reads: {}", s.list);
    case NaiveLine::kReadsTotal:
      return fmt::format("naive reads: {} (total {})", s.list, s.state);
    case NaiveLine::kSays:
      return fmt::format("the naive detector says: {}", s.state);
    case NaiveLine::kWrong:
      return fmt::format("wrong ({}); when it last read: {}", s.what, s.state);
    case NaiveLine::kCrossing:
      return fmt::format("{} from {} to {} (#{})", s.what, s.from, s.to, s.seq);
    case NaiveLine::kLost:
      return fmt::format("lost in flight: {}, sent before the sender "
                         "was read, not delivered before the receiver was",
                         s.more);
    case NaiveLine::kCountedTwice:
      return fmt::format("counted twice: {}, sent after the sender was "
                         "read, delivered before the receiver was read",
                         s.more);
    case NaiveLine::kInconsistent:
      return "the naive cut is inconsistent: it holds a receipt without its sending";
  }
  return "";
}

std::string English(ShowLine line, const Said& s) {
  switch (line) {
    case ShowLine::kNetworkBank:
      return fmt::format("Network: {} (total {}); {} channel{}{}", s.list, s.state, s.count,
                         EnglishPlural(s.count), s.more);
    case ShowLine::kNetworkApp:
      return fmt::format("Network: {} (app={}); {} channel{}{}", s.list, s.what, s.count,
                         EnglishPlural(s.count), s.more);
    case ShowLine::kCapacityRule:
      return fmt::format(", at most {} transfer{} per channel", s.count, EnglishPlural(s.count));
    case ShowLine::kOneAtATimeRule:
      return ", one snapshot at a time";
    case ShowLine::kNotFifoRule:
      return ", channels may reorder (not FIFO)";
    case ShowLine::kStates:
      return fmt::format("states: {}", s.list);
    case ShowLine::kBalances:
      return fmt::format("balances: {} ({} in branches + {} in flight = {})", s.list, s.state,
                         s.what, s.more);
    case ShowLine::kEmptyQueue:
      return "empty";
    case ShowLine::kRunning:
      return "running";
    case ShowLine::kCompleteTotal:
      return fmt::format("complete, total {}", s.state);
    case ShowLine::kCompleteVerdict:
      return fmt::format("complete: {}", s.state);
    case ShowLine::kInconsistent:
      return ", inconsistent";
    case ShowLine::kHeadingStopped:
      return fmt::format("snapshot {} (stop the world, stopped for {} deliveries): {}", s.id,
                         s.count, s.more);
    case ShowLine::kHeading:
      return fmt::format("snapshot {} (started by {}): {}, markers {}/{}", s.id, s.list, s.more,
                         s.count, s.count2);
    case ShowLine::kRecorded:
      return fmt::format("recorded: {}", s.list);
    case ShowLine::kPartDone:
      return " (done)";
    case ShowLine::kNotRecorded:
      return "not recorded";
    case ShowLine::kRecording:
      return fmt::format("recording {}", s.list);
    case ShowLine::kClosed:
      return fmt::format("closed {}", s.list);
    case ShowLine::kHeldBack:
      return "held back";
  }
  return "";
}

std::string English(CheckLine line, const Said& s) {
  switch (line) {
    case CheckLine::kSnapshotDeclares:
      return fmt::format("snapshot {} declares {}; at its cut: {}", s.id, s.state, s.more);
    case CheckLine::kNaiveDeclares:
      return fmt::format("naive detector declares {}", s.state);
    case CheckLine::kNaiveDeclaresWrongly:
      return fmt::format("naive detector declares {}, {}; when it last read: {}", s.state, s.what,
                         s.more);
  }
  return "";
}

std::string English(DemoLine line, const Said& s) {
  switch (line) {
    case DemoLine::kTitle:
      return fmt::format("Demo {}: {}", s.id, s.list);
    case DemoLine::kStep:
      return fmt::format("Step {}: {}", s.id, s.list);
    case DemoLine::kFinalState:
      return "Final state:";
  }
  return "";
}

std::string EnglishLab(const LabFacts& lab) {
  return fmt::format(
      "== Recorded global snapshot ==\n"
      "Process states: {{{}}}\n"
      "Messages in channels: {{{}}}\n\n"
      "Sum of process states = {}\n"
      "In channels (in flight) = {}\n"
      "Snapshot total = {} + {} = {}\n"
      "Invariant (total {}) is conserved: {}\n",
      lab.states, lab.channels, lab.state_sum, lab.in_flight, lab.state_sum, lab.in_flight,
      lab.total, lab.bank_total, lab.conserved ? "True" : "False");
}

}  // namespace cutline::catalogue
