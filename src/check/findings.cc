#include "check/findings.h"

#include <fmt/format.h>

namespace cutline::check::findings {

using cutline::Amount;
using apps::Money;

std::string AboutSnapshot(SnapshotId id, std::string_view text) {
  return fmt::format("snapshot {}: {}", id, text);
}
std::string AboutHistory(std::string_view text) { return fmt::format("history: {}", text); }

std::string Transfer(std::string_view word, std::string_view msg, std::string_view channel) {
  return fmt::format("{} ({}, {})", word, msg, channel);
}
std::string DescribeTransfer(std::string_view msg, std::string_view word, std::string_view from) {
  return fmt::format("{} ({} from {})", msg, word, from);
}
std::string DescribeMarker(std::string_view msg, SnapshotId snapshot, std::string_view from) {
  return fmt::format("{} (marker of snapshot {} from {})", msg, snapshot, from);
}

std::string NeverRecorded(std::string_view node) {
  return fmt::format("{} never recorded its state", node);
}
std::string RecordedTimes(std::string_view node, int times) {
  return fmt::format("{} recorded its state {} times", node, times);
}
std::string NoRecordedBalance(std::string_view node) {
  return fmt::format("{} claims no recorded balance", node);
}
std::string BalanceNotReplayed(std::string_view node, Amount claimed, Amount replayed) {
  return fmt::format("{} recorded {} but its balance replayed from the history at its record "
                     "is {}",
                     node, Money(claimed), Money(replayed));
}

// Money in two places: said as the student would, "counted twice", and why.
std::string TransferCrossesCut(std::string_view transfer, std::string_view to,
                               std::string_view from) {
  return fmt::format("inconsistent cut: {} counted twice: {} received it before recording, {} "
                     "sent it after recording",
                     transfer, to, from);
}
std::string MarkerCrossesCut(std::string_view to, std::string_view marker,
                             std::string_view from) {
  return fmt::format("inconsistent cut: {} recorded the receipt of {} but {} recorded before "
                     "sending it",
                     to, marker, from);
}

std::string ChannelNotClosed(std::string_view channel, std::string_view state) {
  return fmt::format("channel {} is '{}', not closed", channel, state);
}
std::string ChannelNotAsExpected(std::string_view channel, const std::vector<Amount>& recorded,
                                 const std::vector<Amount>& expected) {
  return fmt::format("channel {} recorded {} but expected {}", channel,
                     apps::AmountList(recorded), apps::AmountList(expected));
}

std::string MarkerCount(std::size_t markers, std::string_view channel) {
  return fmt::format("{} markers went over channel {}, not exactly one", markers, channel);
}
std::string MarkersInStopTheWorld(std::size_t markers, std::string_view channel) {
  return fmt::format("{} markers went over channel {}, but a stop-the-world snapshot sends none",
                     markers, channel);
}
std::string MarkerSentInside(std::string_view from, std::string_view channel,
                             std::string_view ref) {
  return fmt::format("{} sent its marker on {} ({}) before recording", from, channel, ref);
}
std::string MarkerNeverDelivered(std::string_view channel, std::string_view ref) {
  return fmt::format("the marker on {} ({}) was never delivered", channel, ref);
}
std::string SentBeforeMarker(std::string_view from, std::string_view message,
                             std::string_view channel) {
  return fmt::format("{} sent {} on {} after recording but before the marker", from, message,
                     channel);
}

std::string AmountsOverflow() { return "its recorded amounts overflow 64 bits"; }
std::string NotConserved(Amount balances, Amount channels, Amount sum, Amount total) {
  return fmt::format("money is not conserved: recorded balances {} + channel states {} = {}, "
                     "but the bank holds {}",
                     Money(balances), Money(channels), Money(sum), Money(total));
}

std::string CountedTwice(std::string_view transfer, std::string_view from) {
  return fmt::format("{} counted twice: it is in the channel's recorded state, but {} sent it "
                     "after recording",
                     transfer, from);
}
std::string Missed(std::string_view transfer, std::string_view from, std::string_view to) {
  return fmt::format("{} missed: {} sent it before recording, but it is neither in {}'s record "
                     "nor in the channel's recorded state",
                     transfer, from, to);
}
std::string MissingFromSnapshot(std::string_view word, std::string_view msg,
                                std::string_view channel) {
  return fmt::format("{} ({}) in flight on {} is missing from the snapshot", word, msg, channel);
}

std::string NotFifo(std::string_view channel, std::string_view message,
                    std::string_view earlier_ref) {
  return fmt::format("channel {} is not FIFO: {} arrived while {}, sent earlier, was still "
                     "waiting",
                     channel, message, earlier_ref);
}
std::string DeliveredAsOther(std::size_t event, std::string_view message) {
  return fmt::format("event {} delivers {}, but it was sent as something else or on another "
                     "channel",
                     event, message);
}
std::string CauseNotLast(std::size_t event, std::string_view node, SnapshotId snapshot,
                         bool by_transfer, sim::Seq cause) {
  return fmt::format("event {}: {} records for snapshot {} naming {} #{} as its cause, which is "
                     "not the {} it received last",
                     event, node, snapshot, by_transfer ? "transfer" : "marker", cause,
                     by_transfer ? "transfer" : "marker of that snapshot");
}

}  // namespace cutline::check::findings
