// The Japanese catalogue, continued: what `cutline test` says of a program
// that breaks the protocol, and the tester's own refusals.
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {

std::string JapaneseTestReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kNodeNotJson:
      return fmt::format("{}が{}への応答にJSONでない行を書きました: {}（標準出力には1行に1つのJSON"
                         "メッセージを書きます。ログは標準エラーへ）",
                         w(0), w(2), w(1));
    case Code::kNodeNoType:
      return fmt::format("{}が{}への応答に、bodyがないか文字列の\"type\"がないメッセージを書きました: {}",
                         w(0), w(2), w(1));
    case Code::kNodeWrongSrc:
      return fmt::format("{}が自分のidでない\"src\"のメッセージを書きました: {}", w(0), w(1));
    case Code::kNodeNoSuchDest:
      return fmt::format("{}が{}宛てにメッセージを送りましたが、それは他のノードでもテスター（\"c0\"）"
                         "でもありません: {}",
                         w(0), w(1), w(2));
    case Code::kNodeNoInitOk:
      return fmt::format("{}がinitにinit_okで応答しませんでした", w(0));
    case Code::kNodeExited:
      return fmt::format("{}は{}の処理中に終了しました（終了ステータス{}）", w(0), w(2), s.number(1));
    case Code::kNodeKilled:
      return fmt::format("{}は{}の処理中にシグナル{}で終了しました", w(0), w(2), s.number(1));
    case Code::kNodeClosedOutput:
      return fmt::format("{}は{}の処理中に出力を閉じました", w(0), w(1));
    case Code::kNodeHangs:
      return fmt::format("{}が止まっています: {}の後のsyncに{}ミリ秒以内に応答がありません", w(0),
                         w(2), s.number(1));
    case Code::kNodeBadTransfer:
      return fmt::format("{}が整数の\"msg_id\"か0以上の\"amount\"のない送金を送りました: {}", w(0),
                         w(1));
    case Code::kNodeBadReport:
      return fmt::format("{}の{}の報告がdocs/harness.mdの形と違います: {}", w(0), w(1), w(2));
    case Code::kNodeUnknownReport:
      return fmt::format("{}がテスターに型\"{}\"のbodyを送りましたが、テスターはそれを読みません"
                         "（読むのはinit_ok、transfer_ok、snapshot_ok、sync_ok、record、part_done）",
                         w(0), w(1));
    case Code::kNodeAnsweredError:
      return fmt::format("{}が{}にエラーで応答しました: {}", w(0), w(2), w(1));
    case Code::kNodeReportNoChannel:
      return fmt::format("{}のpart_doneが\"{}\"からの通信路を挙げていますが、それは他のノードではあり"
                         "ません",
                         w(0), w(1));
    case Code::kNodeUnknownSnapshot:
      return fmt::format("{}がスナップショット{}について報告しましたが、テスターはそれを開始していません",
                         w(0), s.number(1));
    case Code::kNodeReportUnsent:
      return fmt::format("{}のスナップショット{}のpart_doneが{}からの送金{}を挙げていますが、それは{}に"
                         "まだ届いていません（通信路の状態にはそこで受け取った送金を挙げます）",
                         w(0), s.number(1), w(2), s.number(3), w(0));
    case Code::kNodeTransferIdTwice:
      return fmt::format("{}が2つの送金にmsg_id {}を付けました（報告は送金をmsg_idで名指すので一意"
                         "でなければなりません）",
                         w(0), s.number(1));
    case Code::kNodeNondeterministic:
      return fmt::format("{}は決定的ではありません: 同じ入力をもう一度与えると{}への応答が変わりました:"
                         " 最初は{}、今は{}",
                         w(0), w(1), w(2), w(3));
    case Code::kTestCannotStart:
      return fmt::format("{}を起動できません: {}", w(0), w(1));
    case Code::kTestNotSchedule:
      return fmt::format("{}: cutline testが書いたスケジュールではありません（\"{}\"がないか違います）",
                         w(0), w(1));
    case Code::kTestStepImpossible:
      return fmt::format("{}: ステップ{}（{}）を実行できません: プログラムの振る舞いがスケジュールを"
                         "書いたときと変わっています",
                         w(0), s.number(1), w(2));
    case Code::kTestNoSnapshots:
      return "ワークロードには少なくとも1つのスナップショットが必要です（なければ何も判定されません）";
    case Code::kTestBadSchedules:
      return fmt::format("--schedules {}: everyか、1以上のKでrandom:Kを指定してください", w(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace cutline::catalogue
