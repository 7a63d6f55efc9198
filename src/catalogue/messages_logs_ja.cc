// The Japanese catalogue, continued: why a folder of logs in the events
// format (docs/logs.md) cannot be read, each naming the file and line.
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

std::string JapaneseRankLogsReason(const Status& s);

std::string JapaneseNetworkOfLogs(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kLogFileTwice:
      return fmt::format("{} のイベントが {} にもあります: 1つのプロセスに1つのファイルです", w(0),
                         w(1));
    case Code::kLogFirstNotStart:
      return fmt::format("{} の最初のイベントは start でなければなりません", w(0));
    case Code::kLogStartsTwice:
      return fmt::format("{} が2回 start しています", w(0));
    case Code::kLogListsItself:
      return fmt::format("{} が自分自身を入力に挙げています", w(0));
    case Code::kLogInputSilent:
      return fmt::format("{} の入力 {} はイベントを1つも記録していません", w(0), w(1));
    case Code::kLogSendNoInput:
      return fmt::format("{} が {} に送っていますが、{} の入力に {} がありません", w(0), w(1), w(1),
                         w(0));
    case Code::kLogReceiveNotInput:
      return fmt::format("{} が {} から受け取っていますが、{} は入力にありません", w(0), w(1), w(1));
    case Code::kLogSentTwice:
      return fmt::format("メッセージ {} が2回送られています（最初は {}）", w(0), w(1));
    case Code::kLogPartChannel:
      return fmt::format("{} の部分が {} からのチャネルを挙げていますが、{} は入力にありません",
                         w(0), w(1), w(1));
    case Code::kLogPartMissesInput:
      return fmt::format("{} のスナップショット {} の part-done に {} からのチャネルがありません: "
                         "入力はすべて挙げてください（何も記録しなかったチャネルは []）",
                         w(0), w(2), w(1));
    case Code::kLogIdMixed:
      return fmt::format("メッセージの識別子 {} がここと {} とで、数と文字列の別々の書き方をされています: "
                         "一つのメッセージの識別子は同じ書き方にしてください",
                         w(0), w(1));
    case Code::kLogSnapshotIdMixed:
      return fmt::format("スナップショットの識別子 {} がここと {} とで、数と文字列の別々の書き方をされています: "
                         "一つのスナップショットの識別子は同じ書き方にしてください",
                         w(0), w(1));
    case Code::kLogDropUnsent:
      return fmt::format("メッセージ {} を捨てていますが、どのプロセスも送っていません", w(0));
    case Code::kLogDropNotOwn:
      return fmt::format("{} がメッセージ {} を捨てていますが、自分が送ったものでも受け取るはずの"
                         "ものでもありません: drop はメッセージの送り手か受け手が記録します",
                         w(0), w(1));
    case Code::kLogDropReceived:
      return fmt::format("メッセージ {} がここで捨てられ、{} で受け取られています", w(0), w(1));
    case Code::kLogDroppedTwice:
      return fmt::format("メッセージ {} が2回捨てられています（最初は {}）", w(0), w(1));
    case Code::kLogAfterCrash:
      return fmt::format("{} がクラッシュの後にイベントを記録しています: 次のイベントは restart "
                         "でなければなりません",
                         w(0));
    case Code::kLogRestartNoCrash:
      return fmt::format("{} がクラッシュせずに restart しています", w(0));
    case Code::kLogEpochMissing:
      return fmt::format("この send には \"epoch\" がありませんが、ログの send には epoch があります"
                         "（{} など）: Lai-Yang のログではすべての send に epoch を付けてください",
                         w(0));
    case Code::kLogMarkersWithEpochs:
      return fmt::format("send に epoch があるログ（{} など）にマーカーがあります: Lai-Yang の"
                         "制御メッセージはその実装のもので、マーカーではありません",
                         w(0));
    default:
      break;
  }
  return JapaneseRankLogsReason(s);
}


// A cluster run's own logs (rank-N.jsonl, check --logs DIR).
std::string JapaneseRankLogsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kRankLogNotFolder:
      return fmt::format("{} はログのフォルダではありません", w(0));
    case Code::kRankLogNone:
      return fmt::format("{} に rank-N.jsonl のログがありません（cutline cluster --log-dir を参照）",
                         w(0));
    case Code::kRankLogNotLine:
      return fmt::format("{} の {} 行目は cutline のログの行ではありません", w(0), n(1));
    case Code::kRankLogBadStart:
      return fmt::format("{} はランク {} のログとして始まっていません", w(0), n(1));
    case Code::kRankLogBadRanks:
      return fmt::format(
          "{} の先頭行は全 {} ランクの実行のランク {} を名乗っていますが、そのような実行はありません"
          "（ランクは 1 個以上で、0 から番号が付きます）",
          w(0), w(2), n(1));
    case Code::kRankLogOtherRun:
      return fmt::format("{} は {} ランクの実行のもので、{} ランクではありません", w(0), n(1), n(2));
    case Code::kRankLogNoNumber:
      return fmt::format("\"{}\" の行に整数の \"{}\" がありません", w(0), w(1));
    case Code::kRankLogBadPeer:
      return fmt::format("\"{}\" の行の \"{}\" が {} で、{} ランクの他のランクではありません",
                         w(0), w(1), n(2), n(3));
    case Code::kRankLogNoCause:
      return "\"record\" の行に \"cause\" がありません";
    case Code::kRankLogNoChannels:
      return "\"part\" の行に \"channels\" がありません";
    case Code::kRankLogNoVerdict:
      return "\"verdict\" の行に \"holds\"、\"branches\"、\"channels\" がありません";
    case Code::kRankLogNotClock:
      return "\"vc\" はベクタークロックではありません";
    case Code::kRankLogClockBack:
      return fmt::format("\"vc\" が戻っています（合計 {} が {} の後）: ランクのクロックではありません",
                         n(0), n(1));
    case Code::kRankLogWrongShape:
      return fmt::format("\"{}\" の行の形が違います（{}）", w(0), w(1));
    case Code::kRankLogAllEmpty:
      return fmt::format("{} のログはどれも空です: どのランクもログを書いていません", w(0));
    case Code::kRankLogCount:
      return fmt::format("{} のログは {} 個ですが、実行のランクは {} 個でした", w(0), n(1), n(2));
    case Code::kRankLogUnreadable:
      return fmt::format("{} を読めません", w(0));
    case Code::kRankLogUnknownApp:
      return fmt::format("{} は cutline の知らないアプリケーションを挙げています: {}", w(0), w(1));
    case Code::kRankLogOtherApp:
      return fmt::format("{} は {} のログですが、ランク {} のログは {} のものです", w(0), w(1), n(2),
                         w(3));
    case Code::kRankLogBadTopology:
      return fmt::format("{} のデータフローのトポロジーを cutline は読めません: {}", w(0), w(1));
    case Code::kRankLogNoChannel:
      return fmt::format("\"{}\" の行が {} のものですが、データフロー {} にそのチャネルはありません",
                         w(0), ChannelText(fmt::format("N{}", n(2)), fmt::format("N{}", n(3))), w(1));
    case Code::kRankLogOvertakenPeer:
      return "\"overtaken\" の行はチャネルを \"to\" か \"from\" のどちらか一つで示します";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

std::string JapaneseLogsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kLogAt:
      return fmt::format("{} の {} 行目: {}", w(0), s.number(1), JapaneseReason(s.reason(2)));
    case Code::kLogUnreadable:
      return fmt::format("{}: 読めません", w(0));
    case Code::kLogChanged:
      return fmt::format("{}: 読んでいる間に変わりました。書き終えてから判定し直してください", w(0));
    case Code::kLogFolder:
      return fmt::format("フォルダ {} を読めません（{}）", w(0), w(1));
    case Code::kLogNoFiles:
      return fmt::format("{} に .jsonl ファイルがありません（docs/logs.md を参照）", w(0));
    case Code::kLogNoEvents:
      return fmt::format("{} にイベントがありません", w(0));
    case Code::kLogNotEventsLog:
      return "events 形式のログではありません: 最初の行は " + w(0) + " でなければなりません";
    case Code::kLogEmptyFile:
      return "ファイルが空です: events 形式のログの最初の行は " + w(0) + " でなければなりません";
    case Code::kLogLineTooLong:
      return fmt::format("行が {} バイトを超えています。events 形式のログの1行はそれまでです",
                         s.number(0));
    case Code::kLogVersion:
      return fmt::format("{1} の版 {0} はこの cutline では読めません（読めるのは 1 から {2} まで）",
                         s.number(0), w(1), s.number(2));
    case Code::kLogNotObject:
      return "JSON オブジェクトではありません";
    case Code::kLogNoField:
      return fmt::format("\"{}\" がありません", w(0));
    case Code::kLogNotMessageId:
      return fmt::format("\"{}\" はメッセージの id（文字列か整数）でなければなりません", w(0));
    case Code::kLogNotProcessName:
      return fmt::format("\"{}\" はプロセス名（空でない文字列）でなければなりません", w(0));
    case Code::kLogNotWhole:
      return fmt::format("\"{}\" は{}以上の整数でなければなりません", w(0), s.number(1));
    case Code::kLogNotNames:
      return fmt::format("\"{}\" はプロセス名のリストでなければなりません", w(0));
    case Code::kLogChannelsNotMap:
      return "\"channels\" は入力ごとに記録したメッセージ id を対応させなければなりません";
    case Code::kLogChannelNotList:
      return fmt::format("{} からのチャネルは id のリストでなければなりません", w(0));
    case Code::kLogUnknownKind:
      return fmt::format("kind {} は start、send、receive、record、marker-send、marker-receive、"
                         "part-done（版 2 ではさらに drop、abort、crash、restart）のどれでもありません",
                         w(0));
    case Code::kLogKindNotInVersion:
      return fmt::format("kind {} は版 2 からのものですが、このファイルの最初の行は版 {} です",
                         w(0), s.number(1));
    case Code::kLogNotSnapshotId:
      return fmt::format("\"{}\" はスナップショットの id（空でない文字列か1以上の整数）でなければ"
                         "なりません",
                         w(0));
    case Code::kLogNotBool:
      return fmt::format("\"{}\" は true か false でなければなりません", w(0));
    case Code::kLogNotText:
      return fmt::format("\"{}\" は空でない文字列でなければなりません", w(0));
    case Code::kLogExpectedNotMap:
      return "\"expected\" は入力ごとに来るはずのメッセージの数を対応させなければなりません";
    default:
      break;
  }
  return JapaneseNetworkOfLogs(s);
}

}  // namespace cutline::catalogue
