// `cutline test`'s lines in Japanese.
#include <fmt/format.h>

#include "catalogue/test_lines.h"

namespace cutline::catalogue {

std::string Japanese(TestLine line, const TestSaid& s) {
  switch (line) {
    case TestLine::kNeverCompleted: {
      std::string text =
          fmt::format("届けるものが残っていないのに完了しません: {}がpart_doneを送っていません",
                      JoinNames(s.nodes, Lang::kJa));
      if (!s.others.empty()) {
        text += fmt::format("（{}は状態を記録していません）", JoinNames(s.others, Lang::kJa));
      }
      return text;
    }
    case TestLine::kRandomOk:
      return fmt::format(
          "合格: {}ノードのランダムなスケジュール{}件（各{}件の送金と{}件のスナップショット）で、完了した"
          "スナップショット{}件を判定し、すべて一貫したカットで通信路の状態も正確、{}が保存されています",
          s.count2, s.count, s.count3, s.count4, s.id, s.text);
    case TestLine::kEveryOk:
      return fmt::format(
          "すべてのスケジュールで合格: 状態{}個、終状態{}個、完了したスナップショット{}件を判定、{}が保存"
          "されています（ノードのプロセスを{}回起動）",
          s.count, s.count2, s.count3, s.text, s.count4);
    case TestLine::kBounded:
      return fmt::format(
          "判定なし: {}の上限で探索が止まりました（状態{}個、判定した終状態{}個、ここまではすべて正しい）",
          s.text == "states" ? "状態数" : "時間", s.count, s.count2);
    case TestLine::kFailedRandom:
      return fmt::format("不合格 ランダムなスケジュール{}（シード{}）、{}ステップ:", s.id, s.seed,
                         s.count);
    case TestLine::kFailedEvery:
      return fmt::format("不合格: 失敗する最短のスケジュール、{}ステップ（状態{}個を探索して発見）:",
                         s.count, s.count2);
    case TestLine::kShrunk:
      return fmt::format("{}ステップから{}ステップに縮めました（{:.2f}秒、試行{}回）", s.count2,
                         s.count, s.seconds, s.count3);
    case TestLine::kWritten:
      return fmt::format("スケジュールは{}にあります。一歩ずつ再生するには: {}", s.text, s.more);
    case TestLine::kReplayStep:
      return fmt::format("ステップ{}: {}", s.id, s.text);
    case TestLine::kReplaySent:
      return fmt::format("  {}の出力: {}", s.text, s.more);
    case TestLine::kReplayLog:
      return fmt::format("  {}のログ: {}", s.text, s.more);
    case TestLine::kReplayEnd:
      return s.count == 0
                 ? fmt::format("再生しました: このスケジュールの完了したスナップショット{}件は今は合格です",
                               s.count2)
                          : fmt::format("再生しました: 指摘{}件:", s.count);
    case TestLine::kReplayNothing:
      return "再生しました: 判定なし: このスケジュールはスナップショットをすべて除いています（失敗はスナップ"
             "ショットではなくプログラムの誤りでした）";
    case TestLine::kFaultInSchedule:
      return fmt::format("不合格 スケジュール{}（シード{}）: プログラムがプロトコルを破りました:",
                         s.id, s.seed);
  }
  return {};
}

}  // namespace cutline::catalogue
