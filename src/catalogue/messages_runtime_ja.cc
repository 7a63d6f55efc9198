// The Japanese catalogue, continued: why a rank of a cluster run stopped (a
// runtime::Fault: the protocol between ranks broken, a log not written).
// The protocol's messages keep their names (Init, Drain, Credit).
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

// A message between ranks that cannot be read as one.
std::string JapaneseBrokenMessage(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kRuntimeMessageEnded:
      return "メッセージが途中で終わっています";
    case Code::kRuntimeCountPastEnd:
      return "メッセージが、収まるより多い項目数を示しています";
    case Code::kRuntimeUnknownMessage:
      return fmt::format("不明なコード {} のメッセージです", w(0));
    case Code::kRuntimeBytesLeftOver:
      return fmt::format("{} メッセージに {} バイト余分があります", w(0), s.number(1));
    case Code::kRuntimePartTooLarge:
      return "ワイヤ形式に収まらないほど大きな部分です";
    case Code::kRuntimeNotWirePart:
      return fmt::format("記録のバイト列がワイヤ形式の部分ではない {} です", w(0));
    case Code::kRuntimeCreditTooLarge:
      return "チャネルのバッファ数より多い Credit です";
    case Code::kRuntimeNotAFrame:
      return fmt::format("ランク {} がフレームでないバイト列を送りました", s.number(0));
    case Code::kRuntimeFirstNotInit:
      return fmt::format("最初のメッセージが Init ではなく {} でした", w(0));
    case Code::kRuntimeNotCoordinator:
      return fmt::format("ランク {} がランク {} にコーディネータ宛ての {} メッセージを送りました",
                         s.number(0), s.number(1), w(2));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

std::string JapaneseMisplacedMessage(const Status& s) {
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kRuntimeNotItsMessage:
      return fmt::format("{} は {} メッセージを送らないのに、それが来ました", s.word(0), s.word(1));
    case Code::kRuntimeWordRefused:
      return fmt::format("規則がランク {} にスタンプかカウントを出しませんでした: {}", n(0),
                         s.word(1));
    case Code::kRuntimeMarkerRefused:
      return fmt::format("スナップショット {} のマーカー（ランク {} から）が拒否されました", n(0),
                         n(1));
    case Code::kRuntimeTransferRefused:
      return fmt::format("ランク {} からの送金が拒否されました: {}", n(0), s.word(1));
    case Code::kRuntimeStartedTwice:
      return fmt::format("スナップショット {} が2回開始されました", n(0));
    case Code::kRuntimeDrainRanks:
      return "ランク数の違う Drain メッセージです";
    case Code::kRuntimeDataflowFrame:
      return fmt::format("ランク {} が支店にデータフローのフレームを送りました", n(0));
    case Code::kRuntimeTransferToVertex:
      return fmt::format("ランク {} がデータフローに送金を送りました", n(0));
    case Code::kRuntimeNotInput:
      return fmt::format("入力ではないランク {} が頂点 {} にフレームを送りました", n(0), n(1));
    case Code::kRuntimeNotOutput:
      return fmt::format("出力先ではないランク {} が頂点 {} にクレジットを送りました", n(0), n(1));
    case Code::kRuntimeNoState:
      return fmt::format("頂点 {} に送られた状態が読めません", n(0));
    case Code::kRuntimeBarrierTooLong:
      return fmt::format("ランク {} が長すぎるバリアを送りました", n(0));
    case Code::kRuntimeCreditsNeverSent:
      return fmt::format("ランク {} が送られていないレコードのクレジットを返しました", n(0));
    default:
      break;
  }
  return JapaneseBrokenMessage(s);
}

}  // namespace

std::string JapaneseRuntimeReason(const Status& s) {
  switch (s.code()) {
    case Code::kRankFault:
      return fmt::format("ランク {}: {}", s.number(0), JapaneseReason(s.reason(1)));
    case Code::kRankFailed:
      return fmt::format("ランク {}: {}", s.number(0), s.word(1));  // the library's own words
    case Code::kRuntimeCannotWriteLog:
      return fmt::format("{} に書き込めません（{}）", s.word(0), s.word(1));
    case Code::kRuntimeNoItemClock:
      return fmt::format("項目 {} のクロックが記録されていません", s.number(0));
    case Code::kRuntimeNoBarrierClock:
      return fmt::format("バリア {} のクロックが記録されていません", s.number(0));
    case Code::kRuntimeNotForCoordinator:
      return fmt::format("ランク {} がコーディネータに {} メッセージを送りました", s.number(0),
                         s.word(1));
    case Code::kRuntimePartNamesOther:
      return fmt::format("ランク {} がランク {} を名乗るパートを送りました", s.number(0),
                         s.number(1));
    case Code::kRuntimePartTwice:
      return fmt::format("ランク {} がスナップショット {} のパートを2度送りました", s.number(0),
                         s.number(1));
    case Code::kRuntimePartRefused:
      return fmt::format("ランク {} が送ったスナップショット {} のパートをコレクタが拒否しました: {}",
                         s.number(0), s.number(1), s.word(2));
    case Code::kRuntimeCountsRanks:
      return fmt::format("ランク {} が {} ランク分の送信数を送りました", s.number(0), s.number(1));
    case Code::kRuntimeAnswerUnasked:
      return fmt::format("ランク {} が尋ねられていない問い合わせに答えました", s.number(0));
    default:
      break;
  }
  return JapaneseMisplacedMessage(s);
}

}  // namespace cutline::catalogue
