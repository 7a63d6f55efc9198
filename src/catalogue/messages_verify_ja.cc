// The Japanese catalogue, continued: what `cutline store verify` finds wrong
// with a store's file, a run's row or a snapshot (store::Verification).
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

// "N0→N1, N0→N2, N1→N0 ほか4件".
std::string Listed(const std::string& first, std::int64_t more) {
  return more > 0 ? fmt::format("{} ほか{}件", first, more) : first;
}


std::string JapaneseRunProblem(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kVerifyRankCount:
      return fmt::format("ランク数が {} です", n(0));
    case Code::kVerifyNegativeStart:
      return fmt::format("初期残高 ${} が負です", n(0));
    case Code::kVerifyRunStatus:
      return fmt::format("状態 '{}' は live、ended、died のどれでもありません", w(0));
    case Code::kVerifyRunTotal:
      return fmt::format("総額 ${} が {} ランク × ${} と合いません", n(0), n(1), n(2));
    case Code::kVerifyOriginMissing:
      return fmt::format("復元元のスナップショット {} がストアにありません", n(0));
    case Code::kVerifyOriginNotComplete:
      return fmt::format("復元元のスナップショット {} は{}です", n(0), JapaneseStateWord(w(1)));
    case Code::kVerifyOriginRanks:
      return fmt::format("ランク数 {} が復元元のスナップショット {} の {} と違います", n(0), n(1),
                         n(2));
    case Code::kVerifyOriginTotal:
      return fmt::format("総額 ${} が ${}（復元元のスナップショット {} の総額）と違います", n(0),
                         n(1), n(2));
    case Code::kVerifyTransferGap:
      return fmt::format("{} の送金が位置 {} にありますが、そこには {} が入るはずです", w(0), n(1),
                         n(2));
    case Code::kVerifyNegativeBalance:
      return fmt::format("{} の記録された残高が ${} です", w(0), n(1));
    case Code::kVerifyNegativeTransfer:
      return fmt::format("{} に ${} の送金があります", w(1), n(0));
    case Code::kVerifyMore:
      return fmt::format("ほか{}件", n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

// A snapshot's state as the store names it; one it does not name, quoted.
std::string JapaneseStateWord(const std::string& state) {
  if (state == "failed") return "失敗";
  if (state == "running") return "実行中";
  if (state == "complete") return "完了";
  if (state == "gone") return "削除済み";
  return "「" + state + "」";
}

std::string JapaneseVerifyReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kAboutFile:
      return "ファイル";
    case Code::kAboutRun:
      return fmt::format("実行 {}", n(0));
    case Code::kAboutSnapshot:
      return fmt::format("スナップショット {}", n(0));
    case Code::kVerifyFileCorrupt:
      return fmt::format("壊れています（{}）", w(0));
    case Code::kVerifyRunMissing:
      return fmt::format("実行 {} がストアにありません", n(0));
    case Code::kVerifyRunRanks:
      return fmt::format("実行 {} のランク数が {} です", n(0), n(1));
    case Code::kVerifySnapshotStatus:
      return fmt::format("状態 '{}' は running、complete、failed のどれでもありません", w(0));
    case Code::kVerifyInitiator:
      return fmt::format("開始したランク {} は実行 {}（{} ランク）のランクではありません", w(0),
                         n(1), n(2));
    case Code::kVerifyNoCompletionTime:
      return "完了しているのに完了時刻がありません";
    case Code::kVerifyPartMissing:
      return fmt::format("ランク {} の部分がありません", w(0));
    case Code::kVerifyPartsMissing:
      return fmt::format("{} の部分がありません（{} ランク中 {}）", Listed(w(0), n(1)), n(3), n(2));
    case Code::kVerifyChannelsMissing:
      return fmt::format("チャネル {} がありません（{} 本中 {}）", Listed(w(0), n(1)), n(3), n(2));
    case Code::kVerifyStrayPart:
      return fmt::format("{} の部分がありますが、実行 {} のランクではありません",
                         Listed(w(0), n(1)), n(2));
    case Code::kVerifyStrayChannel:
      return fmt::format("チャネル {} がありますが、実行 {} のチャネルではありません",
                         Listed(w(0), n(1)), n(2));
    case Code::kVerifyUnrecorded:
      return fmt::format("記録していないチャネル {} に送金があります", Listed(w(0), n(1)));
    case Code::kVerifyNoTotal:
      return "完了しているのに総額がありません";
    case Code::kVerifySumOverflow:
      return "部分の合計が64ビットに収まりません";
    case Code::kVerifySumNotTotal:
      return fmt::format("部分の合計 ${} が総額 ${} と合いません", n(0), n(1));
    case Code::kVerifyTotalNotRuns:
      return fmt::format("総額 ${} が実行 {} の総額 ${} と違います", n(0), n(1), n(2));
    case Code::kVerifyNotConserved:
      return fmt::format("段 {} が送り出したレコードは {} 件ですが、段 {} が受け取ったのは {} 件、"
                         "その間を送信中なのは {} 件です",
                         n(0), n(1), n(0) + 1, n(2), n(3));
    case Code::kVerifyKeyedCounts:
      return n(1) < 0 ? fmt::format("{} のキーごとの件数が読めません", w(0))
                      : fmt::format("{} のキーごとの件数の合計 {} が受け取ったレコード {} 件と"
                                    "合いません",
                                    w(0), n(1), n(2));
    case Code::kVerifyIncompleteTotal:
      return fmt::format("{}なのに総額があります", JapaneseStateWord(w(0)));
    case Code::kVerifyIncompleteTime:
      return fmt::format("{}なのに完了時刻があります", JapaneseStateWord(w(0)));
    case Code::kVerifyIncompleteParts:
      return fmt::format("{}なのに部分があります（残高 {} 行、チャネル {} 行、送金 {} 行）",
                         JapaneseStateWord(w(0)), n(1), n(2), n(3));
    case Code::kVerifyOrphanParts:
      return fmt::format("ストアにないのに、その部分があります（{} 行）", n(0));
    default:
      break;
  }
  return JapaneseRunProblem(s);
}

std::string JapaneseProblems(const std::vector<Status>& problems) {
  std::string out;
  for (const Status& p : problems) {
    if (!out.empty()) out += "。";
    out += JapaneseReason(p);
  }
  return out;
}

}  // namespace cutline::catalogue
