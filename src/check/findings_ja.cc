// The checker's sentences in Japanese (findings.h), in the terms of the
// scenario's catalogue (messages_ja.cc): スナップショット, マーカー, チャネル,
// 記録, 送金. Names, amounts and file:line stay as the caller writes them.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <utility>

#include "check/findings.h"

namespace cutline::check {

namespace {

using cutline::Amount;

// The application's own words for a verdict, with its reason.
std::string VerdictWords(const apps::App& app, bool holds, std::span<const std::string> branches,
                         std::span<const std::string> channels) {
  return app.words().verdict(holds, branches, channels, Lang::kJa);
}

// The summaries share their middle: what every complete snapshot was found to be.
constexpr std::string_view kCutsAndChannels = "カットは整合し、チャネル状態は正確";

class Japanese final : public Findings {
 public:
  // The SnapshotId overloads (findings.h) beside the ones written here.
  using Findings::AboutSnapshot;
  using Findings::CauseNotLast;
  using Findings::DescribeMarker;
  using Findings::MarkerUnsent;
  using Findings::MarkerWord;
  using Findings::NeverCompleted;
  std::string AboutSnapshot(std::string_view id, std::string_view text) const override {
    return fmt::format("スナップショット{}: {}", id, text);
  }
  std::string AboutHistory(std::string_view text) const override {
    return fmt::format("履歴: {}", text);
  }

  std::string Message(std::string_view ref) const override {
    return fmt::format("メッセージ{}", ref);
  }
  std::string Transfer(std::string_view word, std::string_view msg,
                       std::string_view channel) const override {
    return fmt::format("{}（{}、{}）", word, msg, channel);
  }
  std::string DescribeTransfer(std::string_view msg, std::string_view word,
                               std::string_view from) const override {
    return fmt::format("{}（{}からの{}）", msg, from, word);
  }
  std::string DescribeMarker(std::string_view msg, std::string_view snapshot,
                             std::string_view from) const override {
    return fmt::format("{}（{}からのスナップショット{}のマーカー）", msg, from, snapshot);
  }

  std::string ClaimedTwice() const override { return "完了の申告が2回以上あります"; }
  std::string ClaimShapeBalances(std::size_t given, std::size_t branches) const override {
    return fmt::format("支店は{}つですが、記録した残高の申告は{}件です", branches, given);
  }
  std::string ClaimShapeChannels(std::size_t given, std::size_t channels) const override {
    return fmt::format("チャネルは{}本ですが、チャネル状態の申告は{}件です", channels, given);
  }
  std::string ClaimsMarkersSent(std::uint64_t claimed, std::size_t channels) const override {
    return fmt::format("マーカーを{}個送ったと申告していますが、ネットワークのチャネルは{}本です",
                       claimed, channels);
  }
  std::string ClaimsTotal(std::string_view claimed, std::string_view sum) const override {
    return fmt::format("合計を{}と申告していますが、記録を足すと{}です", claimed, sum);
  }

  std::string NeverRecorded(std::string_view node) const override {
    return fmt::format("{}は状態を一度も記録していません", node);
  }
  std::string RecordedTimes(std::string_view node, int times) const override {
    return fmt::format("{}は状態を{}回記録しています", node, times);
  }
  std::string NoRecordedBalance(std::string_view node) const override {
    return fmt::format("{}の記録した残高が申告にありません", node);
  }
  std::string BalanceNotReplayed(std::string_view node, std::string_view claimed,
                                 std::string_view replayed) const override {
    return fmt::format("{}は{}を記録しましたが、記録の時点で履歴から再生した残高は{}です", node,
                       claimed, replayed);
  }
  std::string PartWithoutRecord(std::string_view node, std::string_view where) const override {
    return fmt::format("{}は記録なしに担当分の完了をログに書いています（{}）", node, where);
  }
  std::string PartDiffersFromRecord(std::string_view node, std::string_view recorded,
                                    std::string_view said, std::string_view where) const override {
    return fmt::format("{}は{}を記録しましたが、担当分の完了では{}です（{}）", node, recorded,
                       said, where);
  }

  std::string TransferCrossesCut(std::string_view transfer, std::string_view to,
                                 std::string_view from) const override {
    return fmt::format("不整合なカット: {}が二重に数えられています。{}は記録前に受け取り、{}は"
                       "記録後に送りました",
                       transfer, to, from);
  }
  std::string MarkerCrossesCut(std::string_view to, std::string_view marker,
                               std::string_view from) const override {
    return fmt::format("不整合なカット: {}は{}の受信を記録に含めましたが、{}はそれを送る前に記録"
                       "しました",
                       to, marker, from);
  }

  std::string ChannelNotClosed(std::string_view channel, bool recording) const override {
    return fmt::format("チャネル{}は「{}」のままで、確定していません", channel,
                       recording ? "記録中" : "未記録");
  }
  std::string ChannelNotAsExpected(std::string_view channel, std::string_view recorded,
                                   std::string_view expected) const override {
    return fmt::format("チャネル{}の記録は{}ですが、正しくは{}です", channel, recorded, expected);
  }

  std::string MarkerCount(std::size_t markers, std::string_view channel) const override {
    return fmt::format("チャネル{}を通ったマーカーは{}個で、ちょうど1個ではありません", channel,
                       markers);
  }
  std::string MarkersInStopTheWorld(std::size_t markers,
                                    std::string_view channel) const override {
    return fmt::format("チャネル{}を通ったマーカーは{}個ですが、世界を止めるスナップショットは"
                       "マーカーを送りません",
                       channel, markers);
  }
  std::string MarkerSentInside(std::string_view from, std::string_view channel,
                               std::string_view ref) const override {
    return fmt::format("{}は{}のマーカー（{}）を記録より前に送りました", from, channel, ref);
  }
  std::string MarkerNeverDelivered(std::string_view channel,
                                   std::string_view ref) const override {
    return fmt::format("{}のマーカー（{}）は届きませんでした", channel, ref);
  }
  std::string SentBeforeMarker(std::string_view from, std::string_view message,
                               std::string_view channel) const override {
    return fmt::format("{}は記録後、マーカーより先に{}を{}で送りました", from, message, channel);
  }

  std::string AmountsOverflow() const override {
    return "記録した金額の合計が64ビットに収まりません";
  }
  std::string NotConserved(const apps::App& app, std::string_view balances,
                           std::string_view channels, std::string_view sum,
                           std::string_view total) const override {
    if (app == apps::App::kDataflow) {
      return fmt::format("レコードが保存されていません: 記録した状態{} + チャネル状態{} = {}ですが、"
                         "頂点の始めの合計は{}です",
                         balances, channels, sum, total);
    }
    return fmt::format("お金が保存されていません: 記録した残高{} + チャネル状態{} = {}ですが、"
                       "銀行の総額は{}です",
                       balances, channels, sum, total);
  }

  std::string CountedTwice(std::string_view transfer, std::string_view from) const override {
    return fmt::format("{}が二重に数えられています: チャネルの記録に入っていますが、{}は記録後に"
                       "送りました",
                       transfer, from);
  }
  std::string Missed(std::string_view transfer, std::string_view from,
                     std::string_view to) const override {
    return fmt::format("{}が抜けています: {}は記録前に送りましたが、{}の記録にもチャネルの記録"
                       "にもありません",
                       transfer, from, to);
  }
  std::string MissingFromSnapshot(std::string_view word, std::string_view msg,
                                  std::string_view channel) const override {
    return fmt::format("{}を飛行中の{}（{}）がスナップショットにありません", channel, word, msg);
  }

  std::string Verdict(const apps::App& app, const apps::Verdict& v,
                      std::span<const std::string> branches,
                      std::span<const std::string> channels) const override {
    return VerdictWords(app, v.holds, branches, channels);
  }
  std::string DeclaredOtherwise(std::string_view declared,
                                std::string_view at_cut) const override {
    return fmt::format("「{}」と宣言しましたが、カットで再生した状態は「{}」です", declared,
                       at_cut);
  }
  std::string DeclaredTooEarly(const apps::App& app, std::span<const std::string> branches,
                               std::span<const std::string> channels) const override {
    return fmt::format("成り立つと宣言しましたが、ログの終わりでは「{}」です: 宣言が早すぎます",
                       VerdictWords(app, false, branches, channels));
  }

  std::string NeverReceived(std::string_view msg, std::string_view word,
                            std::string_view channel) const override {
    return fmt::format("{}で送った{}（{}）は受け取られませんでした", channel, msg, word);
  }
  std::string MarkerWord(std::string_view snapshot) const override {
    return fmt::format("スナップショット{}のマーカー", snapshot);
  }
  std::string PartBeforeMarker(std::string_view node, std::string_view from,
                               std::string_view where) const override {
    return fmt::format("{}は{}からのマーカーが届く前に担当分の完了（{}）をログに書きました: "
                       "{}からのチャネルはまだ閉じられません",
                       node, from, where, from);
  }
  std::string Overdraft(std::string_view node, std::string_view word, std::string_view msg,
                        std::string_view held, std::string_view where) const override {
    return fmt::format("{}は{}しか持たないのに{}（{}、{}）を送りました: 状態が0を下回りました",
                       node, held, word, msg, where);
  }
  std::string EpochNotCount(std::string_view node, std::string_view msg, cutline::Amount epoch,
                            cutline::Amount records, std::string_view where) const override {
    return fmt::format("{}は{}（{}）をエポック{}で送りましたが、そのときまでに記録したスナップショットは"
                       "{}件です",
                       node, msg, where, epoch, records);
  }
  std::string ControlCountWrong(std::string_view node, std::string_view from, std::uint64_t said,
                                std::uint64_t sent, std::string_view where) const override {
    return fmt::format("{}の担当分の完了（{}）は{}からのメッセージを{}件としていますが、{}が記録の前に"
                       "そのチャネルに送ったのは{}件です",
                       node, where, from, said, from, sent);
  }
  std::string RestoredOtherwise(std::string_view node, std::string_view restored,
                                std::string_view recorded, std::string_view snapshot,
                                std::string_view where) const override {
    return fmt::format("{}はスナップショット{}から{}で再起動しました（{}）が、そのスナップショットが"
                       "{}について記録したのは{}です",
                       node, snapshot, restored, where, node, recorded);
  }
  std::string RestoredUnrecorded(std::string_view node, std::string_view snapshot,
                                 std::string_view where) const override {
    return fmt::format("{}はスナップショット{}から再起動しました（{}）が、そのスナップショットを"
                       "記録していません",
                       node, snapshot, where);
  }
  std::string Aborted(std::string_view snapshot, std::string_view node, std::string_view where,
                      std::string_view why) const override {
    return fmt::format("スナップショット{}は{}が中止しました（{}: {}）: 判定しません", snapshot,
                       node, where, why);
  }
  std::string CutByCrash(std::string_view snapshot, std::string_view node,
                         std::string_view where) const override {
    return fmt::format("スナップショット{}は{}のクラッシュで途切れました（{}）: 判定しません",
                       snapshot, node, where);
  }
  std::string NotFifo(std::string_view channel, std::string_view message,
                      std::string_view earlier_ref) const override {
    return fmt::format("チャネル{}はFIFOではありません: 先に送られた{}がまだ待っている間に{}が"
                       "届きました",
                       channel, earlier_ref, message);
  }
  std::string DeliveredAsOther(std::size_t event, std::string_view message) const override {
    return fmt::format("イベント{}は{}を届けていますが、それは別のものとして、または別のチャネル"
                       "で送られました",
                       event, message);
  }
  std::string CauseNotLast(std::size_t event, std::string_view node, std::string_view snapshot,
                           bool by_transfer, sim::Seq cause) const override {
    return fmt::format("イベント{}: {}はスナップショット{}の記録の原因を{}#{}としていますが、"
                       "それは最後に受け取った{}ではありません",
                       event, node, snapshot, by_transfer ? "送金" : "マーカー", cause,
                       by_transfer ? "送金" : "そのスナップショットのマーカー");
  }
  std::string LocalStateDiffers(std::string_view node, Amount said, Amount replayed,
                                std::string_view where) const override {
    return fmt::format("{}は自分だけの一歩の後の状態を{}としていますが、再生すると{}です（{}）",
                       node, said, replayed, where);
  }
  std::string ReceivedOtherwise(std::string_view node, std::string_view msg,
                                std::string_view from, std::string_view where,
                                std::string_view sender,
                                std::string_view receiver) const override {
    return fmt::format("{}は{}からメッセージ{}を受け取っています（{}）が、{}はそれを{}へ送り"
                       "ました",
                       node, from, msg, where, sender, receiver);
  }
  std::string ReceivedTwice(std::string_view msg, std::string_view where) const override {
    return fmt::format("メッセージ{}が2回受け取られています（{}）", msg, where);
  }
  std::string ReceivedUnsent(std::string_view node, std::string_view msg,
                             std::string_view where) const override {
    return fmt::format("{}はメッセージ{}を受け取っています（{}）が、どのプロセスのログもそれを"
                       "送っていません",
                       node, msg, where);
  }
  std::string MarkerUnsent(std::string_view node, std::string_view snapshot, std::string_view from,
                           std::string_view where) const override {
    return fmt::format("{}は{}からスナップショット{}のマーカーを受け取っています（{}）が、{}の"
                       "ログはそれより前にそのマーカーを送っていません",
                       node, from, snapshot, where, from);
  }
  std::string NoCausalOrder(std::string_view where) const override {
    return fmt::format("ログを因果順に並べられません: どのプロセスも、送信が後にある受信を待って"
                       "います（最初は{}）",
                       where);
  }
  std::string ChannelHoldsUnsent(std::string_view node, std::string_view from,
                                 std::string_view msg, std::string_view where) const override {
    return fmt::format("{}が記録した{}からのチャネルにメッセージ{}があります（{}）が、どの"
                       "プロセスのログもそれを送っていません",
                       node, from, msg, where);
  }
  std::string InitialStates(std::size_t given, std::size_t nodes) const override {
    return fmt::format("ノードは{}個ですが、初期残高は{}個です", nodes, given);
  }
  std::string UnknownNode(std::size_t event) const override {
    return fmt::format("イベント{}は存在しないノードを指しています", event);
  }
  std::string UnknownChannel(std::size_t event) const override {
    return fmt::format("イベント{}は存在しないチャネルを指しています", event);
  }
  std::string SentTwice(std::string_view ref) const override {
    return fmt::format("メッセージ{}が2回送られています", ref);
  }
  std::string NeverSent(std::size_t event, std::string_view ref) const override {
    return fmt::format("イベント{}は一度も送られていないメッセージ{}を届けています", event, ref);
  }
  std::string DeliveredTwice(std::string_view ref) const override {
    return fmt::format("メッセージ{}が2回届けられています", ref);
  }
  std::string ReplayOverflows(std::size_t event) const override {
    return fmt::format("イベント{}: 残高を再生すると64ビットに収まりません", event);
  }
  std::string NoHistory() const override {
    return "銀行が履歴を残していないため、スナップショットを検査できません";
  }

  std::string Fail(std::string_view problem) const override {
    return fmt::format("不合格 {}", problem);
  }
  std::string NotComplete(SnapshotId id, std::span<const std::string> nodes) const override {
    return fmt::format("スナップショット{}はシナリオの終わりで完了していません（{}が担当分を"
                       "終えていません）: 検査しません",
                       id, JoinNames(nodes, Lang::kJa));
  }
  std::string NeverCompleted(std::string_view id, std::span<const std::string> nodes,
                             std::string_view part_event) const override {
    return fmt::format("スナップショット{}は完了しませんでした: {}が{}をログに書いていません", id,
                       JoinNames(nodes, Lang::kJa), part_event);
  }
  std::string NothingJudgedInScenario(std::size_t started) const override {
    if (started == 0) return "判定したものはありません: シナリオはスナップショットを取りません";
    return fmt::format("判定したものはありません: シナリオの終わりに完了したスナップショットが"
                       "ありません（始まったもの{}件）",
                       started);
  }
  std::string NothingJudgedInLogs(std::size_t nodes, bool ranks,
                                  std::size_t events) const override {
    return fmt::format("判定したものはありません: {}{}のログ（イベント{}件）に完了した"
                       "スナップショットがありません",
                       nodes, ranks ? "ランク" : "プロセス", events);
  }
  std::string Explored(double schedules, std::uint64_t states, std::uint64_t steps,
                       double seconds) const override {
    if (schedules == 0) {
      return fmt::format("異なる状態{}個（ステップ{}回）を{:.2f}秒で探索しました", Grouped(states),
                         Grouped(steps), seconds);
    }
    return fmt::format("異なる状態{}個と、最後まで進んだスケジュール{}通り（ステップ{}回）を{:.2f}秒で探索しました",
                       Grouped(states), ExploreCount(schedules), Grouped(steps), seconds);
  }
  std::string ExploredRight(std::uint64_t states, std::uint64_t judged) const override {
    return fmt::format("どのスケジュールでも正しい（状態{}個、完了したスナップショット{}件を判定）",
                       Grouped(states), Grouped(judged));
  }
  std::string ExploredFingerprints(int bits, double chance) const override {
    return fmt::format("状態は{}ビットの指紋で記録: 二つの状態が指紋を共有して一方が探索されなかった確率は"
                       "高々 {:.1e}（--exact で状態をそのまま記録）",
                       bits, chance);
  }
  std::string ExploredBroken(std::size_t steps) const override {
    return fmt::format("誤り: 破る最短のスケジュールは{}ステップです。シナリオとして:", steps);
  }
  std::string ExploredSoFar(std::uint64_t states, std::size_t depth, std::uint64_t queued,
                            double seconds) const override {
    return fmt::format("探索中: これまでに異なる状態を{}個発見、{}ステップまでのスケジュールはすべて探索済み、"
                       "探索待ちの状態{}個（経過{:.0f}秒）",
                       Grouped(states), depth, Grouped(queued), seconds);
  }
  std::string ExploredBounded(std::string_view bound, std::uint64_t states,
                              std::size_t depth) const override {
    return fmt::format("--max-{} により状態{}個で止まりました: 探索したスケジュールに誤りはありませんが、"
                       "すべては探索していません（{}ステップまではすべて探索しました）",
                       bound, Grouped(states), depth);
  }
  std::string ExploredFindings(const std::vector<std::string>& findings) const override {
    return fmt::format("検査はこれを不合格とします: {}。", fmt::join(findings, "。"));
  }
  std::string NeverCompletes(SnapshotId id, std::span<const std::string> holding,
                             std::span<const std::string> unrecorded,
                             std::span<const std::string> open) const override {
    // Each reason in two forms: joined by its continuative form, the last
    // one ending the sentence.
    std::vector<std::pair<std::string, std::string>> why;
    if (!holding.empty()) {
      const std::string who = JoinNames(holding, Lang::kJa);
      why.emplace_back(who + "がマーカーを送らずに持ち続け", who + "がマーカーを送らずに持ち続けます");
    }
    if (!unrecorded.empty()) {
      const std::string who = JoinNames(unrecorded, Lang::kJa);
      why.emplace_back(who + "は状態を一度も記録せず", who + "は状態を一度も記録しません");
    }
    if (!open.empty()) {
      const std::string which = JoinNames(open, Lang::kJa);
      why.emplace_back("チャネル" + which + "は閉じず", "チャネル" + which + "は閉じません");
    }
    std::string out = fmt::format("スナップショット{}は完了しません", id);
    for (std::size_t i = 0; i < why.size(); ++i) {
      out += i == 0 ? ": " : "、";
      out += i + 1 == why.size() ? why[i].second : why[i].first;
    }
    return out;
  }
  std::string ExploredNeverCompletes(std::size_t steps) const override {
    return fmt::format("誤り: スナップショットが完了しないまま終わる最短のスケジュールは{}ステップです。"
                       "シナリオとして:",
                       steps);
  }
  std::string ExploredStuck(const std::vector<std::string>& findings) const override {
    return fmt::format("届けるメッセージも実行できるコマンドも残っていないため、{}。",
                       fmt::join(findings, "。"));
  }
  std::string AllConserved(int snapshots, std::string_view total) const override {
    return fmt::format("合格: 完了したスナップショット{}件を検査しました: {}で、総額{}は保存"
                       "されています",
                       snapshots, kCutsAndChannels, total);
  }
  std::string AllDeclaredAsAtCut(int snapshots, const apps::App&) const override {
    return fmt::format("合格: 完了したスナップショット{}件を検査しました: {}で、どの判定もその"
                       "カットでの判定と同じです",
                       snapshots, kCutsAndChannels);
  }
  std::string EventsLogOk(int snapshots, std::size_t processes, std::size_t lines,
                          std::string_view total) const override {
    return fmt::format("合格: {}プロセスの完了したスナップショット{}件を、ログの{}イベントから"
                       "検査しました: {}で、総額{}は保存されています",
                       processes, snapshots, lines, kCutsAndChannels, total);
  }
  std::string SilentRank(std::uint32_t rank) const override {
    return fmt::format("rank-{}.jsonlにはイベントがありません（ランクはログを初めて書く前に"
                       "終了しました）: その動作は検査されません",
                       rank);
  }
  std::string DroppedAfterCrash(std::size_t dropped) const override {
    return fmt::format("ログの終わる時点がそろっていません（クラッシュ）: 最後の整合する時点より"
                       "後のイベント{}件を除きました",
                       dropped);
  }
  std::string StabilityOnly(std::size_t unchecked) const override {
    return fmt::format("ログにカットのないスナップショット（世界を止めるものはカットを残しません）"
                       "の宣言{}件は、安定性だけを検査しました",
                       unchecked);
  }
  std::string LogsDeclaredOk(int snapshots, std::uint32_t ranks, std::string_view app,
                             std::size_t events, std::size_t declared,
                             std::size_t holding) const override {
    return fmt::format("合格: {}ランク（{}）の完了したスナップショット{}件を、ログの{}イベント"
                       "から検査しました: {}で、宣言{}件（成り立つもの{}件）はカットでの性質と"
                       "一致します",
                       ranks, app, snapshots, events, kCutsAndChannels, declared, holding);
  }
  std::string LogsConservedOk(int snapshots, std::uint32_t ranks, std::size_t events,
                              Amount total) const override {
    return fmt::format("合格: {}ランクの完了したスナップショット{}件を、ログの{}イベントから"
                       "検査しました: {}で、総額${}は保存されています",
                       ranks, snapshots, events, kCutsAndChannels, total);
  }
  std::string LogsDataflowOk(int snapshots, std::uint32_t vertices, std::string_view topology,
                             std::size_t events) const override {
    return fmt::format("合格: データフロー {}（頂点{}個）の完了したスナップショット{}件を、ログの{}イベントから"
                       "検査しました: {}で、どのレコードもちょうど一度数えられています",
                       topology, vertices, snapshots, events, kCutsAndChannels);
  }
};

}  // namespace

const Findings& JapaneseFindings() {
  static const Japanese kJapanese;
  return kJapanese;
}

}  // namespace cutline::check
