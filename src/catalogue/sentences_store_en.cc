// The English lines of `cutline store list` and `store show` (sentences.h,
// StoreLine): one case per line.
#include <fmt/format.h>

#include "base/lang.h"
#include "catalogue/sentences.h"

namespace cutline::catalogue {

namespace {

// ", restored from snapshot 4", or nothing.
std::string Restored(const StoreSaid& s) {
  return s.restored_from ? fmt::format(", restored from snapshot {}", *s.restored_from) : "";
}


}  // namespace

std::string English(StoreLine line, const StoreSaid& s) {
  switch (line) {
    case StoreLine::kNoRuns:
      return "no runs";
    case StoreLine::kNoSnapshots:
      return "no snapshots";
    case StoreLine::kRunBank:
      return fmt::format("run {}: {} ranks, {}, total {}, started {}", s.run, s.count,
                         s.restored_from
                             ? fmt::format("restored from snapshot {}", *s.restored_from)
                             : fmt::format("{} each", s.state),
                         s.list, s.when);
    case StoreLine::kRunApp:
      return fmt::format("run {}: {} ranks, app={}{}, started {}", s.run, s.count, s.what,
                         s.state.empty() ? "" : fmt::format(", {} each", s.state), s.when);
    case StoreLine::kRunDataflow:
      return fmt::format("run {}: {} ranks, dataflow {}, {} barriers, {} buffers a channel{}, "
                         "started {}",
                         s.run, s.count, s.what, s.how, s.count2, Restored(s), s.when);
    case StoreLine::kColumnSnapshot:
      return "snapshot";
    case StoreLine::kColumnRun:
      return "run";
    case StoreLine::kColumnStatus:
      return "status";
    case StoreLine::kColumnInitiator:
      return "initiator";
    case StoreLine::kColumnTotal:
      return "total";
    case StoreLine::kColumnLatency:
      return "latency";
    case StoreLine::kColumnVerdict:
      return "verdict";
    case StoreLine::kStatus:
      return s.what;
    case StoreLine::kNone:
      return "-";
    case StoreLine::kLatency:
      return fmt::format("{:.3f} ms", s.ms);
    case StoreLine::kFailure:
      return s.list.empty() ? fmt::format("({})", s.what)
                            : fmt::format("({}: no part from {})", s.what, s.list);
    case StoreLine::kCostAligned:
      return fmt::format("aligned, {:.1f} ms aligning, {} records held back", s.ms, s.count);
    case StoreLine::kCostUnaligned:
      return fmt::format("{} of {} channels unaligned, {} records in flight kept", s.count,
                         s.count2, s.count3);
    case StoreLine::kCostSwitched:
      return fmt::format("switched by the timeout: {}", s.more);
    case StoreLine::kNotComplete:
      return fmt::format("snapshot {} of run {}: {}, started by {}; the store holds no part of it",
                         s.snapshot, s.run, s.what, s.who);
    case StoreLine::kShowBank:
      return fmt::format("snapshot {} of run {}: complete, started by {}, total {}, latency {}",
                         s.snapshot, s.run, s.who, s.state, s.more);
    case StoreLine::kShowApp:
      return fmt::format("snapshot {} of run {} (app={}): complete, started by {}, latency {}",
                         s.snapshot, s.run, s.what, s.who, s.more);
    case StoreLine::kShowDataflow:
      return fmt::format("snapshot {} of run {} (dataflow {}, {} barriers): complete, {} "
                         "emitted, latency {}",
                         s.snapshot, s.run, s.what, s.how, s.state, s.more);
    case StoreLine::kItSays:
      return fmt::format("it says: {}", s.state);
    case StoreLine::kItCost:
      return fmt::format("it cost: {}", s.more);
    case StoreLine::kRecordedStates:
      return fmt::format("recorded states: {}", s.list);
    case StoreLine::kRecordedBalances:
      return fmt::format("recorded balances: {}", s.list);
    case StoreLine::kRecordedVertices:
      return fmt::format("recorded vertices: {}", s.list);
    case StoreLine::kVertex:
      return fmt::format("{} ({}) {} in, {} out", s.who, s.what, s.count, s.count2);
    case StoreLine::kChannels:
      return s.list.empty()
                 ? fmt::format("in the channels: all {} empty", s.count)
                 : fmt::format("in the channels: {}; the other {} empty", s.list, s.count);
    case StoreLine::kChannelsHeading:
      return "channels, the slowest first:";
    case StoreLine::kChannelAligned:
      return fmt::format("aligned, waited {:.1f} ms, {} held back", s.ms, s.count);
    case StoreLine::kChannelUnaligned:
      return fmt::format("{}unaligned, {} records in flight kept", s.switched ? "switched to " : "",
                         s.count);
    case StoreLine::kVerifiedOne:
      return fmt::format("ok: snapshot {} (complete) verified in {}", s.snapshot, s.where);
    case StoreLine::kVerifiedNoParts:
      return fmt::format(
          "ok: snapshot {} (not complete: it holds no parts, as it should) verified in {}",
          s.snapshot, s.where);
    case StoreLine::kVerifiedAll:
      return fmt::format("ok: {} complete snapshot{} verified in {}{}", s.count, EnglishPlural(s.count),
                         s.where,
                         s.count2 ? fmt::format(" (and {} failed or running, holding no parts)",
                                                s.count2)
                                  : "");
    case StoreLine::kVerifiedNone:
      return fmt::format("nothing verified: {} holds no complete snapshot{}", s.where,
                         s.count2 ? fmt::format(" (only {} failed or running, holding no parts)",
                                                s.count2)
                                  : "");
    case StoreLine::kPrunedRun:
      return fmt::format("run {}: removed {} snapshot{} ({} complete, {} failed); {}", s.run,
                         s.count, EnglishPlural(s.count), s.count2, s.count3, s.more);
    case StoreLine::kPrunedNothing:
      return fmt::format("run {}: removed nothing; {}", s.run, s.more);
    case StoreLine::kPruneKept:
      return fmt::format(
          "kept {} complete{}{}", s.count,
          s.count2 ? fmt::format(" ({} of them because a later run was restored from {})",
                                 s.count2, s.count2 == 1 ? "it" : "them")
                   : "",
          s.count3 ? fmt::format(" and {} failed or running", s.count3) : "");
    case StoreLine::kPruned:
      return fmt::format("removed {} snapshot{} ({} rows) from {}", s.count, EnglishPlural(s.count),
                         s.count2, s.where);
    case StoreLine::kSeparator:
      return ", ";
  }
  return "";
}

}  // namespace cutline::catalogue
