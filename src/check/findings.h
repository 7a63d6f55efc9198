// The checker's sentences: every finding that CheckRun (consistency_checker.h)
// and the streaming judge (stream_judge.h) both can report is worded here
// once, so that the two judges say the same thing the same way (the tests
// compare them word for word). Each returns the sentence without its prefix;
// AboutSnapshot and AboutHistory add it.
//
// A message is named by its reference (`ref`: "#7", or the name a log gave
// it) and `msg` = "message " + ref; a transfer's content by `word` (the
// bank's amount, "$40", or an application's kind of message).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "apps/bank/money.h"
#include "history/history.h"  // cutline::Amount, sim::Seq, SnapshotId

namespace cutline::check::findings {

// "snapshot N: text", "history: text".
std::string AboutSnapshot(SnapshotId id, std::string_view text);
std::string AboutHistory(std::string_view text);

// "$40 (message #7, N0->N1)": a transfer in a finding about the cut.
std::string Transfer(std::string_view word, std::string_view msg, std::string_view channel);
// "message #7 ($40 from N0)", "message #7 (marker of snapshot 2 from N0)".
std::string DescribeTransfer(std::string_view msg, std::string_view word, std::string_view from);
std::string DescribeMarker(std::string_view msg, SnapshotId snapshot, std::string_view from);

// Each node records once.
std::string NeverRecorded(std::string_view node);
std::string RecordedTimes(std::string_view node, int times);
// (b) the recorded balances.
std::string NoRecordedBalance(std::string_view node);
std::string BalanceNotReplayed(std::string_view node, cutline::Amount claimed,
                               cutline::Amount replayed);
// (a) the cut: `transfer` as Transfer() says it, `marker` as DescribeMarker.
std::string TransferCrossesCut(std::string_view transfer, std::string_view to,
                               std::string_view from);
std::string MarkerCrossesCut(std::string_view to, std::string_view marker,
                             std::string_view from);
// (c) the channels' states; `state`: how the channel's recording stands.
std::string ChannelNotClosed(std::string_view channel, std::string_view state);
std::string ChannelNotAsExpected(std::string_view channel,
                                 const std::vector<cutline::Amount>& recorded,
                                 const std::vector<cutline::Amount>& expected);
// (e) the markers.
std::string MarkerCount(std::size_t markers, std::string_view channel);
std::string MarkersInStopTheWorld(std::size_t markers, std::string_view channel);
std::string MarkerSentInside(std::string_view from, std::string_view channel,
                             std::string_view ref);
std::string MarkerNeverDelivered(std::string_view channel, std::string_view ref);
std::string SentBeforeMarker(std::string_view from, std::string_view message,
                             std::string_view channel);
// (d) the money.
std::string AmountsOverflow();
std::string NotConserved(cutline::Amount balances, cutline::Amount channels, cutline::Amount sum,
                         cutline::Amount total);
// (f) the verdict's transfers, `transfer` as Transfer() says it.
std::string CountedTwice(std::string_view transfer, std::string_view from);
std::string Missed(std::string_view transfer, std::string_view from, std::string_view to);
std::string MissingFromSnapshot(std::string_view word, std::string_view msg,
                                std::string_view channel);

// The history (AboutHistory). `message` as DescribeTransfer or DescribeMarker.
std::string NotFifo(std::string_view channel, std::string_view message,
                    std::string_view earlier_ref);
std::string DeliveredAsOther(std::size_t event, std::string_view message);
// A record naming as its cause a message (a transfer under Lai-Yang, else
// a marker of the snapshot) that is not its node's last receipt.
std::string CauseNotLast(std::size_t event, std::string_view node, SnapshotId snapshot,
                         bool by_transfer, sim::Seq cause);

}  // namespace cutline::check::findings
