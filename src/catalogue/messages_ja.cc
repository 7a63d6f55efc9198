// The Japanese catalogue: one sentence per refusal code, and the words the
// algorithms choose by code. Words of the
// scenario language (network, links=, id=, FROM, ...) stay as written,
// since that is what the reader types; everything else is Japanese.
#include <fmt/format.h>

#include "apps/bank/money.h"
#include "catalogue/messages.h"

namespace cutline::catalogue {

namespace {

// The parser names the number it refused by its place in the language.
std::string Field(const std::string& field) {
  if (field == "amount") return "金額";
  if (field == "balance") return "残高";
  return field;  // capacity, id: option names, typed as such
}

// One function per group of status.h's codes (CodeGroup), so that no switch
// holds them all; JapaneseReason dispatches.

// The network line's refusals (and Engine::Create's): branches, links= and options.
std::string JapaneseNetworkReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNetworkTooSmall:
      return "ネットワークには2つ以上の支店が必要です";
    case Code::kTooManyBranches:
      return "支店が多すぎます";
    case Code::kInvalidBranchName:
      return fmt::format("'{}'は支店名として正しくありません", w(0));
    case Code::kBranchDeclaredTwice:
      return fmt::format("支店{}が2回宣言されています", w(0));
    case Code::kNegativeBalance:
      return fmt::format("支店{}の残高が負です", w(0));
    case Code::kTotalOverflow:
      return "銀行の総額が64ビットに収まりません";
    case Code::kLinkUnknownBranch:
      return fmt::format("links= に未知の支店{}があります", w(0));
    case Code::kLinkSelfLoop:
      return fmt::format("links= に自己ループ{}>{}があります", w(0), w(1));
    case Code::kLinkTwice:
      return fmt::format("links= に{}>{}が2回あります", w(0), w(1));
    case Code::kBadLink:
      return fmt::format("links= には FROM>TO が必要ですが '{}' があります",
                         w(0));
    case Code::kOptionTwice:
      return fmt::format("{}= が2回あります", w(0));
    case Code::kCapacityOutOfRange:
      return fmt::format("capacity は1から{}まででなければなりません", n(0));
    case Code::kBadSnapshotsMode:
      return fmt::format("snapshots= は one か many です（'{}' ではなく）",
                         w(0));
    case Code::kNotBranchOrOption:
      return fmt::format("'{}' は支店名でもオプションでもありません", w(0));
    case Code::kUnknownNetworkOption:
      return fmt::format("不明なオプション '{}'（残高なら整数が必要）", w(0));
    case Code::kExpectedBranchOrOption:
      return fmt::format(
          "NAME=BALANCE かオプションが必要ですが '{}' があります", w(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// Words and numbers the parser cannot read: commands, options, usage, amounts.
std::string JapaneseWordsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kNotAWholeNumber:
      return fmt::format("{} '{}' は整数（数字のみ）ではありません",
                         Field(w(0)), w(1));
    case Code::kNumberTooLarge:
      return fmt::format("{} '{}' は64ビット符号付き整数に収まりません",
                         Field(w(0)), w(1));
    case Code::kUnknownCommand:
      return fmt::format("不明なコマンド '{}'", w(0));
    case Code::kUnknownOption:
      return fmt::format("不明なオプション '{}'", w(0));
    case Code::kWrongArity:
      return fmt::format("{} の書式: {}", w(0), w(1));
    case Code::kTakesNoArguments:
      return fmt::format("{} は引数を取りません", w(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The run's refusals: a command naming what is not there, or not possible now.
std::string JapaneseRunReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNetworkFirst:
      return "最初のコマンドは network でなければなりません";
    case Code::kNetworkTwice:
      return fmt::format("network が2回あります（最初は{}行目）", n(0));
    case Code::kNoNetwork:
      return "シナリオに network コマンドがありません";
    case Code::kUnknownBranch:
      return fmt::format("支店 {} はありません", w(0));
    case Code::kNoBranchNumber:
      return fmt::format("支店番号{}はありません", n(0));
    case Code::kChannelToItself:
      return fmt::format("{}から自分自身へのチャネルはありません", w(0));
    case Code::kNoChannel:
      return fmt::format("チャネル{}はありません", ChannelText(w(0), w(1)));
    case Code::kAmountTooSmall:
      return "送金額は" + apps::Money(1) + "以上でなければなりません";
    case Code::kInsufficientFunds:
      return fmt::format("{}の残高は{}しかなく、{}は送れません", w(0),
                         apps::Money(n(1)), apps::Money(n(2)));
    case Code::kChannelFull:
      return fmt::format("チャネル{}は満杯です（送金{}件まで）", ChannelText(w(0), w(1)),
                         n(2));
    case Code::kChannelEmpty:
      return fmt::format("チャネル{}は空で、配送するものがありません", ChannelText(w(0), w(1)));
    case Code::kNothingInFlight:
      return "飛行中のメッセージはなく、配送するものがありません";
    case Code::kSnapshotNotStarted:
      return fmt::format("スナップショット{}は開始されていません", n(0));
    case Code::kSnapshotComplete:
      return fmt::format("スナップショット{}はすでに完了しています", n(0));
    case Code::kAlreadyRecorded:
      return fmt::format("{}はスナップショット{}の状態をすでに記録しています",
                         w(0), n(1));
    case Code::kSnapshotRunning:
      return fmt::format(
          "スナップショット{}がまだ実行中です（snapshots=one）。参加するには id={}",
          n(0), n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// A cut drawn on the space-time diagram (POST /api/cut) that is no cut.
std::string JapaneseCutReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kCutWrongSize:
      return fmt::format("カットには支店ごとに1つの点が必要です: {}支店に{}点が指定されました",
                         n(1), n(0));
    case Code::kCutPastEnd:
      return fmt::format("{}のカットの点{}が最後のイベントを越えています（最大{}）",
                         w(0), n(1), n(2));
    case Code::kCutBadPoint:
      return fmt::format("{}のカットの点{}はイベントの数（0以上の整数）ではありません",
                         w(0), w(1));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The variants' refusals (scenario language v2): fifo=, at= and the algorithms' rules.
std::string JapaneseVariantReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kAtOnFifo:
      return fmt::format(
          "チャネル{}はFIFOなので、届けられるのは最も古いメッセージだけです"
          "（at={}は不可。順序の入れ替えには fifo=no）",
          ChannelText(w(0), w(1)), n(2));
    case Code::kAtOutOfRange:
      return fmt::format(
          "{}の at={}: このチャネルのメッセージは{}件です（at=1 が最も古い）",
          ChannelText(w(0), w(1)), n(2), n(3));
    case Code::kManySnapshotsNeedCl:
      return fmt::format(
          "snapshots=many は algorithm=chandy-lamport でのみ使えます"
          "（{}はスナップショットを一つずつ実行します）",
          w(0));
    case Code::kBarriersNeedFifo:
      return fmt::format(
          "algorithm={}にはFIFOチャネルが必要です（バリアは fifo=no では働きません）",
          w(0));
    case Code::kAlignedCycle:
      return fmt::format(
          "algorithm=aligned には閉路のないネットワークが必要ですが、{}が閉路です"
          "（整列バリアが互いを永遠に待ちます）",
          w(0));
    case Code::kAlignedNotSource:
      return fmt::format(
          "algorithm=aligned でスナップショットを始められるのは入力チャネルのない"
          "支店だけです。{}には入力があります（複数の始点は id= で参加）",
          w(0));
    case Code::kChannelHeldBack:
      return fmt::format(
          "チャネル{}は保留中です。{}がスナップショット{}を整列中で、"
          "まだ{}のバリアを待っています",
          ChannelText(w(0), w(1)), w(1), n(2), w(3));
    case Code::kStopWhileSnapshot:
      return fmt::format(
          "スナップショット{}の実行中は stop-the-world を実行できません", n(0));
    case Code::kNothingDeliverable:
      return "いま届けられるメッセージはありません（すべてバリアの後ろで待っています）";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The applications' refusals (app=): a command of another app, or out of turn.
std::string JapaneseAppReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kWrongApp:
      return fmt::format("「{}」は app={} のコマンドです（このネットワークは app={}）",
                         w(0), w(1), w(2));
    case Code::kLocksStartActive:
      return fmt::format("app=locks では支店は動いている状態から始まります（{} または {}=0 と書いてください）",
                         w(0), w(0));
    case Code::kIdleHandsOut:
      return fmt::format("{}は手が空いています。仕事を渡せるのは仕事中の支店だけです", w(0));
    case Code::kNoJobToFinish:
      return fmt::format("{}には終える仕事がありません", w(0));
    case Code::kAlreadyWaiting:
      return fmt::format("{}はすでに{}を待っています", w(0), w(1));
    case Code::kGrantWhileWaiting:
      return fmt::format("{}は{}を待っています。待っている支店は許可を出せません", w(0), w(1));
    case Code::kNoRequestToGrant:
      return fmt::format("{}は{}からの未回答の要求を持っていません", w(0), w(1));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

// The limits of one run (Limits): branches, commands and events.
std::string JapaneseLimitReason(const Status& s) {
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kBranchLimit:
      return fmt::format("ここで使える支店は{}までです", n(0));
    case Code::kCommandLimit:
      return fmt::format("ここで使えるコマンドは{}までです", n(0));
    case Code::kEventLimit:
      return fmt::format("実行が{}イベントを超え、ここでの上限を超えました", n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

std::string JapaneseAtLine(int line, const std::string& reason) {
  return fmt::format("{}行目: {}", line, reason);
}

std::string JapaneseReason(const Status& s) {
  switch (GroupOf(s.code())) {
    case CodeGroup::kOk:
      return "成功";
    case CodeGroup::kNetwork:
      return JapaneseNetworkReason(s);
    case CodeGroup::kWords:
      return JapaneseWordsReason(s);
    case CodeGroup::kRun:
      return JapaneseRunReason(s);
    case CodeGroup::kCut:
      return JapaneseCutReason(s);
    case CodeGroup::kVariants:
      return JapaneseVariantReason(s);
    case CodeGroup::kApps:
      return JapaneseAppReason(s);
    case CodeGroup::kLimits:
      return JapaneseLimitReason(s);
    case CodeGroup::kStore:
      return JapaneseStoreReason(s);
    case CodeGroup::kRestore:
      return JapaneseRestoreReason(s);
    case CodeGroup::kOptions:
      return JapaneseOptionsReason(s);
    case CodeGroup::kServe:
      return JapaneseServeReason(s);
    case CodeGroup::kLecture:
      return JapaneseLectureReason(s);
    case CodeGroup::kVerify:
      return JapaneseVerifyReason(s);
    case CodeGroup::kLogs:
      return JapaneseLogsReason(s);
    case CodeGroup::kRuntime:
      return JapaneseRuntimeReason(s);
    case CodeGroup::kTest:
      return JapaneseTestReason(s);
  }
  return std::string(CodeName(s.code()));
}

// The words the algorithms choose (algorithms/words.h).

std::string JapaneseMarkerWord(algorithms::MarkerNoun noun) {
  using algorithms::MarkerNoun;
  switch (noun) {
    case MarkerNoun::kMarker: return "マーカー";
    case MarkerNoun::kControlMessage: return "制御メッセージ";
    case MarkerNoun::kBarrier: return "バリア";
  }
  return "マーカー";
}

std::string JapaneseRuleNote(algorithms::RuleNote note) {
  using algorithms::RuleNote;
  switch (note) {
    case RuleNote::kNone: return "";
    case RuleNote::kLaiYang: return "、アルゴリズムはLai-Yang";
    case RuleNote::kAligned: return "、整列バリア";
    case RuleNote::kUnaligned: return "、非整列バリア";
  }
  return "";
}

std::string JapaneseFirstMarker(algorithms::FirstMarkerTale tale, const MarkerTale& t) {
  using algorithms::FirstMarkerTale;
  switch (tale) {
    case FirstMarkerTale::kAlignsAndRecords:
      return fmt::format(
          "{}が{}からスナップショット{}の最後のバリアを受信して整列: "
          "{}を記録し、{}。すべての入力を空で確定して再開",
          t.to, t.from, t.id, t.balance, t.markers);
    case FirstMarkerTale::kRecordsWithCount:
      return fmt::format(
          "{}が{}からスナップショット{}の最初の制御メッセージを受信"
          "（記録前の送金{}件）: {}を記録し、{}",
          t.to, t.from, t.id, t.count, t.balance, t.markers);
    case FirstMarkerTale::kRecordsChannelEmpty:
      break;
  }
  return fmt::format("{}が{}からスナップショット{}の最初の{}を受信: "
                     "{}を記録し、{}。{}は空として記録",
                     t.to, t.from, t.id, t.marker, t.balance, t.markers, t.channel);
}

std::string JapaneseLaterMarker(algorithms::LaterMarkerTale tale, const MarkerTale& t) {
  using algorithms::LaterMarkerTale;
  switch (tale) {
    case LaterMarkerTale::kHoldsChannel:
      return fmt::format(
          "{}が{}からスナップショット{}のバリアを受信: 他の入力の"
          "バリアが来るまで{}を保留",
          t.to, t.from, t.id, t.channel);
    case LaterMarkerTale::kTellsCount:
      return fmt::format(
          "{}が{}からスナップショット{}の制御メッセージを受信: "
          "{}が記録前に{}で送った送金は{}件",
          t.to, t.from, t.id, t.from, t.channel, t.count);
    case LaterMarkerTale::kClosesChannel:
      break;
  }
  std::string how = t.contents.empty()
                        ? fmt::format("{}は空で確定", t.channel)
                        : fmt::format("{}を{}で確定", t.channel,
                                      (t.listed.empty() ? apps::AmountList(t.contents) : t.listed));
  return fmt::format("{}が{}からスナップショット{}の{}を受信: {}", t.to, t.from, t.id,
                     t.marker, how);
}

std::string JapaneseClose(algorithms::CloseTale tale, const MarkerTale& t) {
  using algorithms::CloseTale;
  switch (tale) {
    case CloseTale::kCountReached:
      return fmt::format("{}の送金がすべて届いたので、スナップショット{}の{}を{}で確定",
                         t.channel, t.id, t.channel, (t.listed.empty() ? apps::AmountList(t.contents) : t.listed));
    case CloseTale::kWithMarker:
      break;
  }
  return "";
}

}  // namespace cutline::catalogue
