// The Japanese lines of `cutline store list` and `store show` (sentences.h,
// StoreLine): one case per line.
#include <fmt/format.h>

#include "catalogue/messages.h"
#include "catalogue/sentences.h"

namespace cutline::catalogue {

namespace {

// "、スナップショット 4 から復元", or nothing.
std::string Restored(const StoreSaid& s) {
  return s.restored_from ? fmt::format("、スナップショット {} から復元", *s.restored_from) : "";
}

// Why a snapshot failed, as the store names it ("timeout"); one it does not
// name, quoted.
std::string FailureWord(const std::string& failure) {
  if (failure == "timeout") return "タイムアウト";
  if (failure == "run_ended") return "実行終了";
  if (failure == "run_died") return "実行の異常終了";
  return "「" + failure + "」";
}

// A dataflow vertex's role as the store's JSON names it ("source").
std::string RoleWord(const std::string& role) {
  if (role == "source") return "ソース";
  if (role == "operator") return "オペレータ";
  if (role == "sink") return "シンク";
  return role;
}

}  // namespace

std::string Japanese(StoreLine line, const StoreSaid& s) {
  switch (line) {
    case StoreLine::kNoRuns:
      return "実行なし";
    case StoreLine::kNoSnapshots:
      return "スナップショットなし";
    case StoreLine::kRunBank:
      return fmt::format("実行 {}: {}ランク、{}、合計 {}、開始 {}", s.run, s.count,
                         s.restored_from
                             ? fmt::format("スナップショット {} から復元", *s.restored_from)
                             : fmt::format("各{}", s.state),
                         s.list, s.when);
    case StoreLine::kRunApp:
      return fmt::format("実行 {}: {}ランク、app={}{}、開始 {}", s.run, s.count, s.what,
                         s.state.empty() ? "" : fmt::format("、各{}", s.state), s.when);
    case StoreLine::kRunDataflow:
      return fmt::format("実行 {}: {}ランク、データフロー {}、{} バリア、チャネルごとのバッファ "
                         "{}{}、開始 {}",
                         s.run, s.count, s.what, s.how, s.count2, Restored(s), s.when);
    case StoreLine::kColumnSnapshot:
      return "スナップショット";
    case StoreLine::kColumnRun:
      return "実行";
    case StoreLine::kColumnStatus:
      return "状態";
    case StoreLine::kColumnInitiator:
      return "開始者";
    case StoreLine::kColumnTotal:
      return "合計";
    case StoreLine::kColumnLatency:
      return "遅延";
    case StoreLine::kColumnVerdict:
      return "判定";
    case StoreLine::kStatus:
      return JapaneseStateWord(s.what);
    case StoreLine::kNone:
      return "-";
    case StoreLine::kLatency:
      return fmt::format("{:.3f} ms", s.ms);
    case StoreLine::kFailure:
      return s.list.empty()
                 ? fmt::format("（{}）", FailureWord(s.what))
                 : fmt::format("（{}: {}の部分が届かず）", FailureWord(s.what), s.list);
    case StoreLine::kCostAligned:
      return fmt::format("整列、整列に {:.1f} ms、保留したレコード{}件", s.ms, s.count);
    case StoreLine::kCostUnaligned:
      return fmt::format("{}本中{}本のチャネルが非整列、飛行中のレコード{}件を保持", s.count2,
                         s.count, s.count3);
    case StoreLine::kCostSwitched:
      return fmt::format("タイムアウトで切り替え: {}", s.more);
    case StoreLine::kNotComplete:
      return fmt::format("実行 {} のスナップショット {}: {}、{}が開始。ストアにはその部分がない",
                         s.run, s.snapshot, JapaneseStateWord(s.what), s.who);
    case StoreLine::kShowBank:
      return fmt::format("実行 {} のスナップショット {}: 完了、{}が開始、合計 {}、遅延 {}", s.run,
                         s.snapshot, s.who, s.state, s.more);
    case StoreLine::kShowApp:
      return fmt::format("実行 {} のスナップショット {}（app={}）: 完了、{}が開始、遅延 {}", s.run,
                         s.snapshot, s.what, s.who, s.more);
    case StoreLine::kShowDataflow:
      return fmt::format("実行 {} のスナップショット {}（データフロー {}、{} バリア）: 完了、{}を"
                         "出力、遅延 {}",
                         s.run, s.snapshot, s.what, s.how, s.state, s.more);
    case StoreLine::kItSays:
      return fmt::format("判定: {}", s.state);
    case StoreLine::kItCost:
      return fmt::format("コスト: {}", s.more);
    case StoreLine::kRecordedStates:
      return fmt::format("記録された状態: {}", s.list);
    case StoreLine::kRecordedBalances:
      return fmt::format("記録された残高: {}", s.list);
    case StoreLine::kRecordedVertices:
      return fmt::format("記録された頂点: {}", s.list);
    case StoreLine::kVertex:
      return fmt::format("{}（{}）入力{}件、出力{}件", s.who, RoleWord(s.what), s.count, s.count2);
    case StoreLine::kChannels:
      return s.list.empty()
                 ? fmt::format("チャネル内: {}本すべて空", s.count)
                 : fmt::format("チャネル内: {}。他の{}本は空", s.list, s.count);
    case StoreLine::kChannelsHeading:
      return "チャネル（遅い順）:";
    case StoreLine::kChannelAligned:
      return fmt::format("整列、{:.1f} ms 待機、{}件保留", s.ms, s.count);
    case StoreLine::kChannelUnaligned:
      return fmt::format("{}非整列、飛行中のレコード{}件を保持", s.switched ? "切り替えで" : "",
                         s.count);
    case StoreLine::kVerifiedOne:
      return fmt::format("ok: {} のスナップショット {}（完了）を検証しました", s.where, s.snapshot);
    case StoreLine::kVerifiedNoParts:
      return fmt::format(
          "ok: {} のスナップショット {}（未完了: あるべきとおり部分を持ちません）を検証しました",
          s.where, s.snapshot);
    case StoreLine::kVerifiedAll:
      return fmt::format("ok: {} の完了したスナップショット {} 個を検証しました{}", s.where, s.count,
                         s.count2 ? fmt::format("（ほかに失敗または実行中の {} 個、部分なし）",
                                                s.count2)
                                  : "");
    case StoreLine::kVerifiedNone:
      return fmt::format("検証したものはありません: {} に完了したスナップショットがありません{}", s.where,
                         s.count2 ? fmt::format("（失敗または実行中の {} 個のみ、部分なし）", s.count2)
                                  : "");
    case StoreLine::kPrunedRun:
      return fmt::format("実行 {}: スナップショット {} 個を削除（完了 {} 個、失敗 {} 個）。{}",
                         s.run, s.count, s.count2, s.count3, s.more);
    case StoreLine::kPrunedNothing:
      return fmt::format("実行 {}: 削除なし。{}", s.run, s.more);
    case StoreLine::kPruneKept:
      return fmt::format(
          "完了 {} 個{}{}を残しました", s.count,
          s.count2 ? fmt::format("（うち {} 個は後の実行がそこから復元したため）", s.count2) : "",
          s.count3 ? fmt::format("と失敗または実行中 {} 個", s.count3) : "");
    case StoreLine::kPruned:
      return fmt::format("{} からスナップショット {} 個（{} 行）を削除しました", s.where, s.count,
                         s.count2);
    case StoreLine::kSeparator:
      return "、";
  }
  return "";
}

}  // namespace cutline::catalogue
