// The Japanese catalogue, continued: the tools' refusals (a store's file, a
// restore, a command's options, the server). The OS's and SQLite's own words
// come as arguments and are passed on as they are, in parentheses.
#include <fmt/format.h>

#include "catalogue/messages.h"

namespace cutline::catalogue {
namespace {

// "ホスト h1 のプロセス 41", or who a half-written lock file cannot name.
std::string Who(std::int64_t pid, const std::string& host) {
  return pid > 0 ? fmt::format("ホスト {} のプロセス {}", host, pid) : "起動中のプロセス";
}

std::string ForeignWal(const std::string& path, const std::string& what) {
  return fmt::format("{}-wal は {} のものではありません: {}（別のストアの先行書き込みログ？）。"
                     "何も変更していません",
                     path, path, what);
}

std::string JapaneseStoreWalReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kWalRunMissing:
      return ForeignWal(w(0), fmt::format("ファイルの実行 {} がそれを通すと見えません", n(1)));
    case Code::kWalRunOther:
      return ForeignWal(w(0), fmt::format("ファイルの実行 {} がそれを通すと別の実行です", n(1)));
    case Code::kWalTopBehind:
      return ForeignWal(w(0), fmt::format("ファイルの最新スナップショットは {} ですが、"
                                          "それを通すと {} です",
                                          n(1), n(2)));
    case Code::kWalTopMissing:
      return ForeignWal(w(0), fmt::format("ファイルの最新スナップショットは {} ですが、"
                                          "それを通すと1つもありません",
                                          n(1)));
    case Code::kWalSnapshotOther:
      return ForeignWal(
          w(0), fmt::format("ファイルのスナップショット {} がそれを通すと別物です", n(1)));
    case Code::kWalCorrupt:
      return fmt::format("{}-wal は {} のものではありません: ファイル単体は健全ですが、"
                         "それを通すと壊れています（{}）。何も変更していません",
                         w(0), w(0), w(1));
    case Code::kWalTableMissing:
      return fmt::format("{}-wal は {} のものではありません: ファイル単体は健全ですが、"
                         "それを通すとテーブル {} がありません。何も変更していません",
                         w(0), w(0), w(1));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}


// The command line itself (src/cli/main.cc). CLI11's refusals come in its
// own (English) words: only what this program adds is Japanese.
std::string JapaneseCommandLineReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kCliUnknownCommand:
      return fmt::format("不明なコマンド '{}'（cutline --help を参照）", w(0));
    case Code::kCliBadArguments:
      return fmt::format("{}（cutline --help を参照）", w(0).empty() ? "引数が正しくありません" : w(0));
    case Code::kCheckNeedsInput:
      return "check にはシナリオの FILE か --logs DIR が必要です";
    case Code::kScenarioIsDirectory:
      return fmt::format("{} を読めません（ディレクトリです）", w(0));
    case Code::kScenarioUnreadable:
      return fmt::format("{} を読めません", w(0));
    case Code::kNoCompleteSnapshot:
      return "完了したスナップショットがありません";
    case Code::kOutOfMemory:
      return "メモリが足りません: シナリオが大きすぎます";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace

std::string JapaneseStoreReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNoSuchFile:
      return fmt::format("{}: そのようなファイルはありません", w(0));
    case Code::kIsDirectory:
      return fmt::format("{} はディレクトリで、cutline のストアではありません", w(0));
    case Code::kCannotRead:
      return fmt::format("{} を読めません（{}）", w(0), w(1));
    case Code::kStoreEmpty:
      return fmt::format("{} は空で、cutline のストアではありません", w(0));
    case Code::kNotSqlite:
      return fmt::format("{} は cutline のストアではありません（SQLite データベースではない）",
                         w(0));
    case Code::kNotCutlineStore:
      return fmt::format("{} は cutline のストアではありません（別の種類の SQLite データベース）",
                         w(0));
    case Code::kStoreNewer:
      return fmt::format("{} は新しい cutline が書いたものです（ストアのスキーマ {}、"
                         "この版が読めるのは {} まで）",
                         w(0), n(1), n(2));
    case Code::kNoSchemaVersion:
      return fmt::format("{} は壊れています: スキーマの版がありません", w(0));
    case Code::kStoreCorrupt:
      return fmt::format("{} は壊れています（{}）", w(0), w(1));
    case Code::kStoreTableMissing:
      return fmt::format("{} は壊れています: テーブル {} がありません", w(0), w(1));
    case Code::kCannotOpen:
      return fmt::format("{} を開けません（{}）", w(0), w(1));
    case Code::kWalNeedsShm:
      return fmt::format("{} を読めません: {}-wal にまだ反映されていない書き込みがあり、"
                         "読むには {}-shm が必要ですが、ここでは作れません（{}）",
                         w(0), w(0), w(0), w(1));
    case Code::kReadOnlyFile:
      return fmt::format("{} はここでは読み取り専用です（{}）: 書き込めません", w(0), w(1));
    case Code::kReadOnlyFolder:
      return fmt::format("{} は読み取り専用のフォルダにあります（{}: {}）: 書き込めません",
                         w(0), w(1), w(2));
    case Code::kReadOnlyHere:
      return fmt::format("{} はここでは読み取り専用です: 書き込めません", w(0));
    case Code::kCannotCreate:
      return fmt::format("{} を作れません（{}）", w(0), w(1));
    case Code::kCannotOpenForWriting:
      return fmt::format("{} を書き込み用に開けません（{}）", w(0), w(1));
    case Code::kNoWalMode:
      return fmt::format("{} を開けません: ここでは WAL モードを使えません", w(0));
    case Code::kWriterBusy:
      return fmt::format("実行 {} がこのストアに書き込み中です（{}）: 1つのストアに書き込める"
                         "のは一度に1つだけです",
                         n(0), Who(n(1), w(2)));
    case Code::kWriterStarting:
      return fmt::format("このストアで実行が始まるところです（{}）: 1つのストアに書き込める"
                         "のは一度に1つだけです",
                         Who(n(0), w(1)));
    case Code::kRunStoppedSilently:
      return fmt::format("実行 {} は何も言わずに止まっていました（ジョブが外から終了されました）: "
                         "died とし、実行中のスナップショットを failed にしました",
                         n(0));
    case Code::kCannotMake:
      return fmt::format("{} を作れません（{}）", w(0), w(1));
    case Code::kCannotLock:
      return fmt::format("{} をロックできません（{}）", w(0), w(1));
    case Code::kStoreFailed:
      return fmt::format("ストアの操作に失敗しました（{}）", w(0));
    case Code::kNoSuchSnapshot:
      return fmt::format("{} にスナップショット {} はありません", w(0), n(1));
    default:
      break;
  }
  return JapaneseStoreWalReason(s);
}

std::string JapaneseRestoreReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kRestoreNothing:
      return fmt::format("{} には復元できる完了したスナップショットがありません", w(0));
    case Code::kRestoreNotComplete:
      return fmt::format("スナップショット {} は{}で、完了していないため復元できません", n(0),
                         JapaneseStateWord(w(1)));
    case Code::kRestoreDamaged:
      return fmt::format("{} のスナップショット {} は損傷しているため復元しません: {}"
                         "（cutline store verify を参照）",
                         w(1), n(0), JapaneseReason(s.reason(2)));
    case Code::kRestoreNoLongerComplete:
      return fmt::format("スナップショット {} は {} でもう完了していません", n(0), w(1));
    case Code::kRestoreWrongApp:
      return fmt::format("スナップショット {} は {} の実行のものです: 復元できるのは銀行か"
                         "データフローのスナップショットだけです",
                         n(0), w(1));
    case Code::kRestoreOtherApp:
      return fmt::format("スナップショット {} は {} の実行のもので、--app {} のものではありません: "
                         "--app {} で実行してください",
                         n(0), w(1), w(2), w(1));
    case Code::kRestoreWrongTopology:
      return fmt::format("スナップショット {} のトポロジーは {} で {} ではありません: "
                         "--topology {} で実行してください",
                         n(0), w(1), w(2), w(1));
    case Code::kRestoreWrongRanks:
      return fmt::format("スナップショット {} のランクは {} で {} ではありません: --ranks {} で"
                         "実行してください",
                         n(0), n(1), n(2), n(1));
    case Code::kRestoreNeedsStore:
      return "--restore には --store FILE が必要です";
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

std::string JapaneseOptionsReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  switch (s.code()) {
    case Code::kNotAnApp:
      return fmt::format("--app: '{}' はアプリケーションではありません（{}）", w(0), w(1));
    case Code::kFlagForOtherApp:
      return fmt::format("{} は --app {} 用で、--app {} には使えません", w(0), w(1), w(2));
    case Code::kNotASnapshotId:
      return fmt::format("{}: '{}' はスナップショットの番号ではありません", w(0), w(1));
    case Code::kSnapshotIdNotNumber:
      return fmt::format("スナップショットの番号 '{}' は数ではありません", w(0));
    case Code::kSnapshotIdTooLarge:
      return fmt::format("スナップショットの番号 '{}' は大きすぎます", w(0));
    case Code::kMaxPagesNeedsStore:
      return "--store-max-pages には --store FILE が必要です";
    case Code::kBadKeep:
      return fmt::format("--keep '{}' は1以上のスナップショット数ではありません（各実行の最新の"
                         "完了したスナップショットは残ります）",
                         w(0));
    case Code::kStoreNeedsCommand:
      return "store にはコマンドが必要です: list、show、verify、prune のどれか"
             "（cutline store --help を参照）";
    case Code::kUnknownStoreCommand:
      return fmt::format("store のコマンド '{}' はありません（cutline store --help を参照）",
                         w(0));
    case Code::kUnknownStoreOption:
      return fmt::format("store のオプション '{}' はありません（cutline store --help を参照）",
                         w(0));
    case Code::kTooFewRanks:
      return "実行には2つ以上のランクが必要です";
    case Code::kKillRankOutOfRange:
      return fmt::format("--kill はランク {} を指していますが、ランクは {} 個です", s.number(0),
                         s.number(1));
    case Code::kBadTopology:
      return fmt::format("--topology '{}' は '-' でつないだ段（各段は1以上のランク数、2段以上）"
                         "ではありません（例: 2-3-1 はソース2つ、オペレータ3つ、シンク1つ）",
                         w(0));
    case Code::kTopologyTooLarge:
      return fmt::format("--topology '{}' はランクが {} 個です。上限は {} 個です", w(0),
                         s.number(1), s.number(2));
    case Code::kAlgorithmNotForApp:
      return fmt::format("--algorithm {} は --app {} では動きません。動くのは {} です", w(0), w(1),
                         w(2));
    case Code::kNotWithDataflow:
      return fmt::format("{} は --app dataflow では使えません", w(0));
    case Code::kSlowRankOutOfRange:
      return fmt::format("--slow はランク {} を指していますが、トポロジーのランクは {} 個です",
                         s.number(0), s.number(1));
    case Code::kTimeoutNeedsAligned:
      return fmt::format("--alignment-timeout は整列バリアを非整列に切り替えるものです。"
                         "--algorithm aligned が必要で、{} では使えません",
                         w(0));
    case Code::kRanksNotTopology:
      return fmt::format("--ranks {} は --topology {}（ランク {} 個）と合いません"
                         "（--ranks は省いてください）",
                         s.number(0), w(1), s.number(2));
    case Code::kReorderNeedsFifo:
      return fmt::format("--algorithm {} は順序の入れ替わるチャネルを受け付けません。"
                         "--reorder を外してください",
                         w(0));
    case Code::kReorderMayBeWrong:
      return fmt::format("{} は FIFO チャネルを前提とします。--reorder の下ではスナップショットが"
                         "誤ることがあり、要約がその数を数えます（wrong_totals）",
                         w(0));
    case Code::kLogsNotWith:
      return fmt::format("--log-dir は {} と一緒には使えません。cutline check --logs が読み戻せるのは、"
                         "開始かマーカーでのみランクが記録する FIFO チャネルの実行です",
                         w(0));
    default:
      break;
  }
  return JapaneseCommandLineReason(s);
}

std::string JapaneseServeReason(const Status& s) {
  if (s.code() == Code::kCannotListen) {
    return fmt::format("{}:{} で待ち受けできません（{}）", s.word(0), s.number(1), s.word(2));
  }
  return std::string(CodeName(s.code()));
}

std::string JapaneseLectureReason(const Status& s) {
  auto w = [&](std::size_t i) -> const std::string& { return s.word(i); };
  auto n = [&](std::size_t i) { return s.number(i); };
  switch (s.code()) {
    case Code::kNoRoom:
      return "このコードの講義はありません（終了したのかもしれません）";
    case Code::kNotTeacher:
      return "これができるのは講義の先生だけです";
    case Code::kNotStudent:
      return "先に講義に参加してください: この学生トークンはこの教室のものではありません";
    case Code::kTooManyRooms:
      return fmt::format("このサーバーではすでに{}件の講義が開かれています。どれかが終わってから"
                         "もう一度試してください",
                         n(0));
    case Code::kRoomFull:
      return fmt::format("この講義は満員です: {}人の学生が参加しています", n(0));
    case Code::kBadState:
      return fmt::format("状態は文字列 \"scenario\" を持つ JSON オブジェクトで、{}バイト以内で"
                         "なければなりません",
                         n(0));
    case Code::kBadQuestion:
      return fmt::format("質問には文字列 \"id\" と、互いに異なる1〜{}個の文字列 \"choices\""
                         "（それぞれ{}バイト以内、全体で{}バイト以内）が必要です",
                         n(0), n(1), n(2));
    case Code::kNoQuestion:
      return "回答を受け付けている質問はありません";
    case Code::kOtherQuestion:
      return "この回答は今開いている質問へのものではありません";
    case Code::kBadChoice:
      return "この回答は質問の選択肢にありません";
    case Code::kAnsweredAlready:
      return "この学生はこの投票でもう回答しています";
    case Code::kBadPhase:
      return fmt::format("質問は「{}」から「{}」へは進めません。質問は 投票、（締切）、"
                         "（話し合い、投票）、答え合わせ の順に進みます",
                         w(0), w(1));
    case Code::kVoteClosed:
      return "投票は締め切られました。次の投票を待ってください";
    case Code::kBadCountdown:
      return fmt::format("カウントダウンは0（なし）から{}までの整数の秒数です", n(0));
    default:
      break;
  }
  return std::string(CodeName(s.code()));
}

}  // namespace cutline::catalogue
