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
    case TestLine::kTraceStart:
      return fmt::format("テスターが{}をそれぞれ{}で起動します。ワークロードのコマンドを与え、ノード間の"
                         "メッセージをすべて運び、一歩ずつ順序を選びます。",
                         JoinNames(s.nodes, Lang::kJa), s.text);
    case TestLine::kTraceAsksTransfer:
      return fmt::format("テスターが{}に{}を{}へ送金するよう頼みます。", s.nodes.at(0), s.text,
                         s.nodes.at(1));
    case TestLine::kTraceAsksSnapshot:
      return fmt::format("テスターが{}にスナップショット{}を開始するよう頼みます。", s.nodes.at(0), s.id);
    case TestLine::kTraceMessage:
      return s.more.empty() ? fmt::format("{}", s.text)
                            : fmt::format("送金{}（{}）", s.nodes.at(0), s.more);
    case TestLine::kTraceDelivers:
      return fmt::format("テスターが{}から{}への{}を届けます。", s.nodes.at(0), s.nodes.at(1), s.text);
    case TestLine::kTraceLoses:
      return fmt::format("テスターが{}から{}への{}を失わせます（届きません）。", s.nodes.at(0),
                         s.nodes.at(1), s.text);
    case TestLine::kTraceSends:
      return fmt::format("{}が{}を送ります。", s.nodes.at(0), JoinNames(s.others, Lang::kJa));
    case TestLine::kTraceSentTo:
      return fmt::format("{}への{}", s.nodes.at(0), s.text);
    case TestLine::kTraceRecords:
      return fmt::format("{}がスナップショット{}の状態を記録します: {}。", s.nodes.at(0), s.id, s.text);
    case TestLine::kTraceChannel:
      return s.others.empty() ? fmt::format("{}→{}は空", s.nodes.at(0), s.nodes.at(1))
                              : fmt::format("{}→{}に{}", s.nodes.at(0), s.nodes.at(1),
                                            JoinNames(s.others, Lang::kJa));
    case TestLine::kTracePartDone:
      return s.others.empty()
                 ? fmt::format("{}のスナップショット{}の担当分が終わります。", s.nodes.at(0), s.id)
                 : fmt::format("{}のスナップショット{}の担当分が終わります（記録: {}）。", s.nodes.at(0),
                               s.id, JoinNames(s.others, Lang::kJa));
    case TestLine::kTraceEndFail:
      return fmt::format("届けるものはもう残っていません。判定の指摘（{}件）:", s.count);
    case TestLine::kTraceEndOk:
      return fmt::format("届けるものはもう残っていません: このスケジュールの完了したスナップショット{}件は"
                         "合格です。",
                         s.count);
    case TestLine::kTraceEndNothing:
      return "届けるものはもう残っていません。完了したスナップショットがないため、何も判定していません。";
    case TestLine::kTraceNone:
      return "このスケジュールには各ステップで起きたことの記録（trace）がないため、ページでは表示できません:"
             " cutline testは縮小した失敗ごとに記録を書きますが、プログラムの誤りで終わったものは除きます"
             "（それはcutline test --replayで再生してください）";
    case TestLine::kTraceTooBig:
      return fmt::format("ページで描くには大きすぎます: {}ノード・スナップショット{}件の{}ステップはノードの"
                         "状態{}個を超えます（cutline test --replayで再生してください）",
                         s.count2, s.count3, s.count, s.count4);
    case TestLine::kFaultInSchedule:
      return fmt::format("不合格 スケジュール{}（シード{}）: プログラムがプロトコルを破りました:",
                         s.id, s.seed);
  }
  return {};
}

}  // namespace cutline::catalogue
