// The description of each event, in the words of the narration but one
// event at a time; the clocks are the checker's (check::EventClocks).
#include "scenario/shiviz.h"

#include <fmt/format.h>

#include <unordered_map>

#include "apps/bank/money.h"
#include "base/overloaded.h"
#include "check/consistency_checker.h"
#include "check/shiviz.h"
#include "scenario/format.h"
#include "scenario/run_record.h"

namespace cutline::scenario {

namespace {

using apps::Money;

class Describer {
 public:
  explicit Describer(const engine::Engine& bank)
      : bank_(bank),
        tags_(bank.algorithm().traits().tags_messages),
        marker_("a " + catalogue::EnglishMarkerWord(bank.algorithm().words().marker,
                                                    false)) {}

  std::string operator()(const history::Sent<history::Transfer>& e) {
    amounts_[e.seq] = e.what.amount;
    const sim::ChannelInfo& ch = bank_.network().channel(e.channel);
    return fmt::format("{} sends {} to {} ({})", Name(ch.from), MessageText(bank_, e.what.amount, Lang::kEn), Name(ch.to),
                       Tag(e.seq, "epoch"));
  }
  std::string operator()(const history::Delivered<history::Transfer>& e) {
    const sim::ChannelInfo& ch = bank_.network().channel(e.channel);
    return fmt::format("{} receives {} from {} ({})", Name(ch.to), MessageText(bank_, e.what.amount, Lang::kEn),
                       Name(ch.from), Tag(e.seq, "epoch"));
  }
  std::string operator()(const history::Sent<history::Marker>& e) {
    const sim::ChannelInfo& ch = bank_.network().channel(e.channel);
    return fmt::format("{} sends {} of snapshot {} to {} ({})", Name(ch.from), MarkerWord(),
                       e.what.snapshot, Name(ch.to), Tag(e.seq, "count"));
  }
  std::string operator()(const history::Delivered<history::Marker>& e) {
    const sim::ChannelInfo& ch = bank_.network().channel(e.channel);
    return fmt::format("{} receives {} of snapshot {} from {} ({})", Name(ch.to), MarkerWord(),
                       e.what.snapshot, Name(ch.from), Tag(e.seq, "count"));
  }
  std::string operator()(const history::Recorded& e) {
    const engine::SnapshotInfo* s = bank_.FindSnapshot(e.snapshot);
    std::string why =
        e.cause.by_transfer() ? fmt::format("on receiving #{} of epoch {}, before applying it",
                                            e.cause.message_seq(), e.snapshot)
        : e.cause.by_marker() ? fmt::format("on receiving #{}", e.cause.message_seq())
        : s != nullptr && bank_.AlgorithmOf(s->id).traits().stops_the_world
            ? "the world is stopped"
                                            : "on its own";
    return fmt::format("{} records {} for snapshot {} ({})", Name(e.node),
                       StateText(bank_, bank_.RecordedBalance(e.node, e.snapshot).value_or(0), Lang::kEn), e.snapshot,
                       why);
  }
  std::string operator()(const history::Read& e) {
    return fmt::format("the naive reader copies {}'s balance: {}", Name(e.node),
                       StateText(bank_, e.balance, Lang::kEn));
  }
  std::string operator()(const history::Closed& e) {
    return fmt::format("{} closes {} for snapshot {}, recording {}",
                       Name(bank_.network().channel(e.channel).to), Channel(e.channel),
                       e.snapshot,
                       apps::AmountList(bank_.RecordedChannel(e.snapshot, e.channel).transfers));
  }
  std::string operator()(const history::PartDone& e) {
    return fmt::format("{} has done its part of snapshot {}", Name(e.node), e.snapshot);
  }
  std::string operator()(const history::Completed& e) {
    if (!bank_.app().conserved()) return fmt::format("snapshot {} is complete", e.snapshot);
    return fmt::format("snapshot {} is complete: total {}", e.snapshot,
                       Money(bank_.SnapshotTotal(e.snapshot)));
  }
  std::string operator()(const history::Local& e) {
    return fmt::format("{} finishes a job", Name(e.node));
  }
  std::string operator()(const history::Overtaken& e) {
    auto amount = amounts_.find(e.transfer);
    return fmt::format("{}'s barrier #{} overtakes #{} ({}) on {}",
                       Name(bank_.network().channel(e.channel).from), e.barrier, e.transfer,
                       amount == amounts_.end() ? "?" : MessageText(bank_, amount->second, Lang::kEn),
                       Channel(e.channel));
  }

 private:
  const std::string& Name(sim::NodeId n) const { return bank_.name(n); }
  // A channel in the log's own spelling, "P1->P2": the ShiViz log is a file
  // for another tool, in ASCII, and stays as it was when the views took
  // ChannelText's arrow (issue 28).
  std::string Channel(sim::ChannelId c) const {
    const sim::ChannelInfo& ch = bank_.network().channel(c);
    return Name(ch.from) + "->" + Name(ch.to);
  }
  // A message's number, and where the algorithm tags its messages
  // (Lai-Yang) the epoch (transfer) or count (control message) beside it.
  std::string Tag(sim::Seq seq, const char* what) const {
    if (!tags_) return fmt::format("#{}", seq);
    return fmt::format("#{}, {} {}", seq, what, bank_.MessageTag(seq));
  }
  // What the network's algorithm calls its markers (ShiViz is English).
  const std::string& MarkerWord() const { return marker_; }

  const engine::Engine& bank_;
  const bool tags_;
  const std::string marker_;
  std::unordered_map<sim::Seq, cutline::Amount> amounts_;  // transfers sent so far
};

}  // namespace

std::string ShiVizLog(const engine::Engine& bank) {
  const std::vector<history::Event>& events = bank.history().events();
  std::vector<std::string> hosts;
  for (sim::NodeId n = 0; n < bank.branch_count(); ++n) hosts.push_back(bank.name(n));
  const std::vector<check::EventClock> clocks = check::EventClocks(RunOf(bank));
  check::ShiVizWriter log;
  Describer describe(bank);
  // The bank's own history is never malformed, so every event has its clock.
  for (std::size_t i = 0; i < clocks.size(); ++i) {
    log.Add(hosts[clocks[i].node], hosts, clocks[i].clock, std::visit(describe, events[i]));
  }
  return std::move(log).Take();
}

}  // namespace cutline::scenario
