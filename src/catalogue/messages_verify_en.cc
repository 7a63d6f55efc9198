// The English catalogue, continued: what `cutline store verify` finds wrong
// with a store's file, a run's row or a snapshot (store::Verification).
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

// "N0→N1, N0→N2, N1→N0 and 4 more": a list's first names and how many
// more there are.
std::string Listed(const std::string& first, std::int64_t more) {
  return more > 0 ? fmt::format("{} and {} more", first, more) : first;
}

// A run's problems, and the snapshot's parts being read.
std::string EnglishRunProblem(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kVerifyRankCount:
      return fmt::format("it has {} ranks", n(0));
    case Code::kVerifyNegativeStart:
      return fmt::format("its starting balance ${} is negative", n(0));
    case Code::kVerifyRunStatus:
      return fmt::format("its status '{}' is not live, ended or died", w(0));
    case Code::kVerifyRunTotal:
      return fmt::format("its total ${} is not {} ranks of ${}", n(0), n(1), n(2));
    case Code::kVerifyOriginMissing:
      return fmt::format("it was restored from snapshot {}, which is not in the store", n(0));
    case Code::kVerifyOriginNotComplete:
      return fmt::format("it was restored from snapshot {}, which is {}", n(0), w(1));
    case Code::kVerifyOriginRanks:
      return fmt::format("it has {} ranks, but snapshot {} it was restored from has {}", n(0),
                         n(1), n(2));
    case Code::kVerifyOriginTotal:
      return fmt::format("its total ${} is not ${}, that of snapshot {} it was restored from",
                         n(0), n(1), n(2));
    case Code::kVerifyTransferGap:
      return fmt::format("a transfer of {} is at position {} where {} belongs", w(0), n(1), n(2));
    case Code::kVerifyNegativeBalance:
      return fmt::format("{}'s recorded balance is ${}", w(0), n(1));
    case Code::kVerifyNegativeTransfer:
      return fmt::format("a transfer of ${} on {}", n(0), w(1));
    case Code::kVerifyMore:
      return fmt::format("and {} more", n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

std::string EnglishVerifyReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kAboutFile:
      return "the file";
    case Code::kAboutRun:
      return fmt::format("run {}", n(0));
    case Code::kAboutSnapshot:
      return fmt::format("snapshot {}", n(0));
    case Code::kVerifyFileCorrupt:
      return w(0);
    case Code::kVerifyRunMissing:
      return fmt::format("its run {} is not in the store", n(0));
    case Code::kVerifyRunRanks:
      return fmt::format("its run {} has {} ranks", n(0), n(1));
    case Code::kVerifySnapshotStatus:
      return fmt::format("its status '{}' is not running, complete or failed", w(0));
    case Code::kVerifyInitiator:
      return fmt::format("its initiator {} is not a rank of run {} ({} ranks)", w(0), n(1), n(2));
    case Code::kVerifyNoCompletionTime:
      return "it is complete without a completion time";
    case Code::kVerifyPartMissing:
      return fmt::format("rank {}'s part is missing", w(0));
    case Code::kVerifyPartsMissing:
      return fmt::format("the parts of {} are missing ({} of {} ranks)", Listed(w(0), n(1)), n(2),
                         n(3));
    case Code::kVerifyChannelsMissing:
      return n(2) == 1 ? fmt::format("channel {} is missing (1 of {})", Listed(w(0), n(1)), n(3))
                       : fmt::format("channels {} are missing ({} of {})", Listed(w(0), n(1)),
                                     n(2), n(3));
    case Code::kVerifyStrayPart:
      return fmt::format("it has a part for {}, not a rank of run {}", Listed(w(0), n(1)), n(2));
    case Code::kVerifyStrayChannel:
      return fmt::format("it has channel {}, not one of run {}'s", Listed(w(0), n(1)), n(2));
    case Code::kVerifyUnrecorded:
      return fmt::format("it has transfers on {}, a channel it did not record",
                         Listed(w(0), n(1)));
    case Code::kVerifyNoTotal:
      return "it is complete without a total";
    case Code::kVerifySumOverflow:
      return "its parts add up to more than 64 bits hold";
    case Code::kVerifySumNotTotal:
      return fmt::format("its parts add up to ${}, not its total ${}", n(0), n(1));
    case Code::kVerifyTotalNotRuns:
      return fmt::format("its total ${} is not run {}'s ${}", n(0), n(1), n(2));
    case Code::kVerifyNotConserved:
      return fmt::format("stage {} emitted {} records, but stage {} received {} and {} are in "
                         "flight between them",
                         n(0), n(1), n(0) + 1, n(2), n(3));
    case Code::kVerifyKeyedCounts:
      return n(1) < 0 ? fmt::format("{}'s keyed counts are unreadable", w(0))
                      : fmt::format("{}'s keyed counts add up to {}, not the {} records it received",
                                    w(0), n(1), n(2));
    case Code::kVerifyIncompleteTotal:
      return fmt::format("it is {} yet has a total", w(0));
    case Code::kVerifyIncompleteTime:
      return fmt::format("it is {} yet has a completion time", w(0));
    case Code::kVerifyIncompleteParts:
      return fmt::format("it is {} yet holds parts ({} balance, {} channel and {} transfer rows)",
                         w(0), n(1), n(2), n(3));
    case Code::kVerifyOrphanParts:
      return fmt::format("it is not in the store, yet parts of it are ({} rows)", n(0));
    default:
      break;
  }
  return EnglishRunProblem(s);
}

std::string EnglishProblems(const std::vector<Status>& problems) {
  std::string out;
  for (const Status& p : problems) {
    if (!out.empty()) out += "; ";
    out += EnglishReason(p);
  }
  return out;
}

}  // namespace cutline::catalogue
