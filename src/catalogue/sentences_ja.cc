// The Japanese sentences of a run's views (sentences.h): one function per
// group, one case per sentence. Japanese has no plural: the counts English
// needs for one are read here only where a number is said.
#include <fmt/format.h>

#include "catalogue/sentences.h"

namespace cutline::catalogue {

std::string Japanese(MessageLine line, const Said& s) {
  switch (line) {
    case MessageLine::kBankSent:
      return fmt::format("{}が{}へ{}を送金（メッセージ#{}）。{}の残高は{}", s.from, s.to, s.what,
                         s.seq, s.from, s.state);
    case MessageLine::kJobHanded:
      return fmt::format("{}が{}へ仕事を渡す（メッセージ#{}）。{}は{}のまま", s.from, s.to, s.seq,
                         s.from, s.state);
    case MessageLine::kRequestSent:
      return fmt::format("{}が{}へ要求を送り（メッセージ#{}）、{}を待つ", s.from, s.to, s.seq,
                         s.to);
    case MessageLine::kGrantSent:
      return fmt::format("{}が{}の要求に許可を返す（メッセージ#{}）", s.from, s.to, s.seq);
    case MessageLine::kBankReceived:
      return fmt::format("{}が{}から{}を受信（#{}）。{}の残高は{}", s.to, s.from, s.what, s.seq,
                         s.to, s.state);
    case MessageLine::kJobReceived:
      return fmt::format("{}が{}から仕事を受信（#{}）。{}は{}", s.to, s.from, s.seq, s.to,
                         s.state);
    case MessageLine::kRequestReceived:
      return fmt::format("{}が{}の要求を受信（#{}）。未回答のまま持つ", s.to, s.from, s.seq);
    case MessageLine::kGrantReceived:
      return fmt::format("{}が{}の許可を受信（#{}）。{}は再び稼働中", s.to, s.from, s.seq, s.to);
    case MessageLine::kOvertakes:
      return fmt::format("バリア#{}が{}で{}（メッセージ#{}）を追い越す: {}は"
                         "チャネル状態として記録",
                         s.seq, s.channel, s.what, s.seq2, s.what);
    case MessageLine::kLateMarkers:
      return fmt::format("送金の後で、{}はようやくスナップショット{}の{}を{}へ送信。"
                         "その送金はこれらの{}より先に進み、記録済みの残高にも入っている",
                         s.who, s.id, s.marker, s.list, s.marker);
    case MessageLine::kJobFinished:
      return fmt::format("{}が仕事を1件終える。{}は{}", s.who, s.who, s.state);
    case MessageLine::kNothingInFlight:
      return "飛行中のメッセージはない";
  }
  return "";
}

std::string Japanese(DeliveryClause clause, const Said& s) {
  switch (clause) {
    case DeliveryClause::kJoins:
      return fmt::format("。{}は{}を記録中なので、{}はスナップショット{}の"
                         "チャネル状態に入る",
                         s.to, s.channel, s.what, s.list);
    case DeliveryClause::kMissed:
      return fmt::format("。{}のマーカーはまだ届いていないが、わざと破った規則のため"
                         "{}はスナップショット{}で記録されていないので、{}はそこから漏れる",
                         s.from, s.channel, s.list, s.what);
    case DeliveryClause::kAfter:
      return fmt::format("。{}はスナップショット{}で確定済みなので、{}は"
                         "そこに入らない（未来に属する）",
                         s.channel, s.list, s.what);
  }
  return "";
}

std::string Japanese(MarkersClause clause, const Said& s) {
  switch (clause) {
    case MarkersClause::kKeeps:
      return fmt::format("わざと破った規則のため、次の送金の後まで{}を送らない", s.marker);
    case MarkersClause::kNoOutgoing:
      return fmt::format("{}を送る出力チャネルはない", s.marker);
    case MarkersClause::kSends:
      return fmt::format("{}へ{}を送信", s.list, s.marker);
  }
  return "";
}

std::string Japanese(SnapshotLine line, const Said& s) {
  switch (line) {
    case SnapshotLine::kStarts:
      return fmt::format("{}がスナップショット{}を開始: {}を記録し、{}", s.who, s.id, s.state,
                         s.more);
    case SnapshotLine::kJoins:
      return fmt::format("{}が別の開始者としてスナップショット{}に参加: {}を記録し、{}", s.who,
                         s.id, s.state, s.more);
    case SnapshotLine::kEpochRecord:
      return fmt::format("メッセージ#{}はエポック{}なので、{}は適用する前に"
                         "スナップショット{}の{}を記録し、{}",
                         s.seq, s.id, s.who, s.id, s.state, s.more);
    case SnapshotLine::kStopsTheWorld:
      return fmt::format("世界を止める: 全支店が{}を止め、{}件の配送を待ってから"
                         "{}をスナップショット{}として読む",
                         s.money ? "送金" : "送信", s.count, s.money ? "全残高" : "全支店の状態",
                         s.id);
    case SnapshotLine::kStopsAtFirst:
      return fmt::format("わざと破った規則のため、{}は{}のマーカーを待たずに、この最初の"
                         "メッセージでスナップショット{}の{}の記録を止める",
                         s.to, s.from, s.id, s.channel);
    case SnapshotLine::kPartDone:
      return fmt::format("{}のスナップショット{}の担当分が完了（すべての入力チャネルから{}を受信）",
                         s.who, s.id, s.marker);
    case SnapshotLine::kPartDoneAlone:
      return fmt::format("{}のスナップショット{}の担当分が完了（入力チャネルがないので記録だけで"
                         "終わる）",
                         s.who, s.id);
    case SnapshotLine::kCompleteTotal:
      return fmt::format("スナップショット{}が完了: {} + チャネル内 {} = {}", s.id, s.list, s.what,
                         s.state);
    case SnapshotLine::kCompleteVerdict:
      return fmt::format("スナップショット{}が完了: {}", s.id, s.state);
  }
  return "";
}

std::string Japanese(NaiveLine line, const Said& s) {
  switch (line) {
    case NaiveLine::kCopiesState:
      return fmt::format("素朴な検出: {}の状態（{}）を写す", s.who, s.state);
    case NaiveLine::kDeclares:
      return fmt::format("素朴な検出の判定: {}", s.state);
    case NaiveLine::kCopiesBalance:
      return fmt::format("素朴な読み取り: {}の残高{}を写す", s.who, s.state);
    case NaiveLine::kTotal:
      return fmt::format("素朴な合計: {}（銀行の総額は{}）", s.state, s.what);
    case NaiveLine::kReads:
      return fmt::format("素朴な読み取り: {}", s.list);
    case NaiveLine::kReadsTotal:
      return fmt::format("素朴な読み取り: {}（合計{}）", s.list, s.state);
    case NaiveLine::kSays:
      return fmt::format("素朴な検出の判定: {}", s.state);
    case NaiveLine::kWrong:
      return fmt::format("誤り（{}）。最後の読み取りの時点の実際: {}", s.what, s.state);
    case NaiveLine::kCrossing:
      return fmt::format("{}から{}への{}（#{}）", s.from, s.to, s.what, s.seq);
    case NaiveLine::kLost:
      return fmt::format("飛行中で消えた: {}。送り手の読み取り前に送られ、"
                         "受け手の読み取り前に届いていない",
                         s.more);
    case NaiveLine::kCountedTwice:
      return fmt::format("二重に数えた: {}。送り手の読み取り後に送られ、"
                         "受け手の読み取り前に届いた",
                         s.more);
    case NaiveLine::kInconsistent:
      return "素朴な切断面は一貫していない: 送信を含まない受信を含む";
  }
  return "";
}

std::string Japanese(ShowLine line, const Said& s) {
  switch (line) {
    case ShowLine::kNetworkBank:
      return fmt::format("ネットワーク: {}（総額{}）、チャネル{}本{}", s.list, s.state, s.count,
                         s.more);
    case ShowLine::kNetworkApp:
      return fmt::format("ネットワーク: {}（app={}）、チャネル{}本{}", s.list, s.what, s.count,
                         s.more);
    case ShowLine::kCapacityRule:
      return fmt::format("、各チャネル送金{}件まで", s.count);
    case ShowLine::kOneAtATimeRule:
      return "、スナップショットは一度に1つ";
    case ShowLine::kNotFifoRule:
      return "、チャネルは順序を入れ替えうる（非FIFO）";
    case ShowLine::kStates:
      return fmt::format("状態: {}", s.list);
    case ShowLine::kBalances:
      return fmt::format("残高: {}（支店 {} + 飛行中 {} = {}）", s.list, s.state, s.what, s.more);
    case ShowLine::kEmptyQueue:
      return "空";
    case ShowLine::kRunning:
      return "実行中";
    case ShowLine::kCompleteTotal:
      return fmt::format("完了、総額{}", s.state);
    case ShowLine::kCompleteVerdict:
      return fmt::format("完了: {}", s.state);
    case ShowLine::kInconsistent:
      return "、一貫していない";
    case ShowLine::kHeadingStopped:
      return fmt::format("スナップショット{}（世界を止めて、配送{}件の間停止）: {}", s.id, s.count,
                         s.more);
    case ShowLine::kHeading:
      return fmt::format("スナップショット{}（開始: {}）: {}、マーカー {}/{}", s.id, s.list, s.more,
                         s.count, s.count2);
    case ShowLine::kRecorded:
      return fmt::format("記録: {}", s.list);
    case ShowLine::kPartDone:
      return "（完了）";
    case ShowLine::kNotRecorded:
      return "未記録";
    case ShowLine::kRecording:
      return fmt::format("記録中 {}", s.list);
    case ShowLine::kClosed:
      return fmt::format("確定 {}", s.list);
    case ShowLine::kHeldBack:
      return "保留中";
  }
  return "";
}

std::string Japanese(CheckLine line, const Said& s) {
  switch (line) {
    case CheckLine::kSnapshotDeclares:
      return fmt::format("スナップショット{}の宣言: {}。その切断面での実際: {}", s.id, s.state,
                         s.more);
    case CheckLine::kNaiveDeclares:
      return fmt::format("素朴な検出の宣言: {}", s.state);
    case CheckLine::kNaiveDeclaresWrongly:
      return fmt::format("素朴な検出の宣言: {}、{}。最後の読み取りの時点の実際: {}", s.state,
                         s.what, s.more);
  }
  return "";
}

std::string Japanese(DemoLine line, const Said& s) {
  switch (line) {
    case DemoLine::kTitle:
      return fmt::format("デモ {}: {}", s.id, s.list);
    case DemoLine::kStep:
      return fmt::format("ステップ {}: {}", s.id, s.list);
    case DemoLine::kFinalState:
      return "最終状態:";
  }
  return "";
}

std::string JapaneseLab(const LabFacts& lab) {
  return fmt::format(
      "== 記録された大域スナップショット ==\n"
      "プロセス状態: {{{}}}\n"
      "チャネル内メッセージ: {{{}}}\n\n"
      "プロセス状態合計 = {}\n"
      "チャネル内(飛行中) = {}\n"
      "スナップショット総額 = {} + {} = {}\n"
      "不変量(総額{})が保存されている: {}\n",
      lab.states, lab.channels, lab.state_sum, lab.in_flight, lab.state_sum, lab.in_flight,
      lab.total, lab.bank_total, lab.conserved ? "True" : "False");
}

}  // namespace cutline::catalogue
