// The Japanese lines of `cutline cluster` (cluster_lines.h).
#include <fmt/format.h>

#include "catalogue/cluster_lines.h"

namespace cutline::catalogue {

namespace {
std::string_view JapaneseWorkNoun(apps::Work w) {
  switch (w) {
    case apps::Work::kTransfers:
      return "送金";
    case apps::Work::kMessages:
      return "メッセージ";
    case apps::Work::kRecords:
      return "レコード";
  }
  return "";
}
std::string JapaneseRunRestored(const std::optional<std::uint64_t>& from) {
  return from ? fmt::format("、スナップショット{}から復元", *from) : "";
}
}  // namespace

std::string JapaneseCluster(ClusterLine line, const RunFigures& f) {
  switch (line) {
    case ClusterLine::kStatus: {
      const std::string head =
          f.work == apps::Work::kRecords
              ? fmt::format("シンクで毎秒{:.0f}レコード", f.per_s)
              : fmt::format("毎秒{:.0f}件の{}", f.per_s, JapaneseWorkNoun(f.work));
      const std::string total = f.work == apps::Work::kTransfers
                                    ? fmt::format(" | 最新の合計 {}", f.latest_total.value_or("-"))
                                    : "";
      return fmt::format("{} | スナップショット: 完了{}件、失敗{}件{} | 残り{:.1f}秒", head,
                         f.complete, f.failed, total, f.left_s);
    }
    case ClusterLine::kRun:
      return fmt::format("実行{}: ランク{}個{}、{}{}件（毎秒{:.0f}件）", f.run, f.ranks,
                         JapaneseRunRestored(f.restored_from), JapaneseWorkNoun(f.work), f.work_done, f.per_s);
    case ClusterLine::kSnapshots:
      if (f.work != apps::Work::kTransfers) {
        return fmt::format("スナップショット: 完了{}件、失敗{}件。遅延 p50 {:.2f} ms、p99 {:.2f} ms",
                           f.complete, f.failed, f.p50_ms, f.p99_ms);
      }
      return fmt::format("スナップショット: 完了{}件（合計の誤り{}件）、失敗{}件（うち時間切れ{}件）。"
                         "遅延 p50 {:.2f} ms、p99 {:.2f} ms",
                         f.complete, f.wrong, f.failed, f.timed_out, f.p50_ms, f.p99_ms);
    case ClusterLine::kStopTime:
      return fmt::format("停止時間: p50 {:.2f} ms、p99 {:.2f} ms", f.stop_p50_ms, f.stop_p99_ms);
    case ClusterLine::kCollector:
      return fmt::format("コレクタ（ランク0）: スナップショット1件あたりパート{:.0f}バイト。"
                         "最後のチャネルが閉じてから収集まで p50 {:.2f} ms、p99 {:.2f} ms。"
                         "最大メモリ {:.1f} MiB、CPU {:.2f}秒",
                         f.collected_bytes, f.collect_p50_ms, f.collect_p99_ms, f.peak_mib, f.cpu_s);
    case ClusterLine::kTotal:
      return fmt::format("終了時の合計: {}（元は{}）{}", f.final_total, f.bank_total,
                         f.conserved ? "（保存されている）" : "（保存されていない）");
    case ClusterLine::kPropertyMissed:
      return fmt::format("{}: 実行の終わりまでにどのスナップショットも検出しなかった{}", f.property,
                         f.became_true ? "（実際には成り立った）" : "");
    case ClusterLine::kPropertyDetected: {
      const std::string truth =
          f.delay_ms ? fmt::format("{}から{:.2f} ms後", f.became_true_how, *f.delay_ms)
                     : "ただしランクの最終状態はそれを裏付けない";
      return fmt::format("{}: スナップショット{}が検出、{}", f.detected, f.detected_by.value_or(0),
                         truth);
    }
    case ClusterLine::kNaive:
      return fmt::format("素朴な検出: 読み取り{}巡、「{}」の宣言{}回、うち{}回が{}", f.naive_rounds,
                         f.property, f.naive_declared, f.naive_false, f.naive_false_what);
    case ClusterLine::kDataflowRun:
      return fmt::format("実行: ランク{}個（{}）、{}{}、送出{}レコード、シンクで{}レコード"
                         "（毎秒{:.0f}）{}",
                         f.ranks, f.topology, f.algorithm, JapaneseRunRestored(f.restored_from), f.emitted,
                         f.work_done, f.per_s,
                         f.exactly_once ? "（各1回）" : "（各1回ではない）");
    case ClusterLine::kDataflowSnapshots:
      return fmt::format("スナップショット: 完了{}件（保存則の破れ{}件）、失敗{}件（うち時間切れ{}件）。"
                         "所要時間 p50 {:.2f} ms、p99 {:.2f} ms",
                         f.complete, f.wrong, f.failed, f.timed_out, f.p50_ms, f.p99_ms);
    case ClusterLine::kDataflowCost:
      return fmt::format("整列 p50 {:.2f} ms、p99 {:.2f} ms。スナップショット1件あたり保留{:.1f}"
                         "レコード、永続化{:.1f}レコード（{:.0f}バイト）。非整列のチャネル{}/{}。"
                         "整列タイムアウトで切り替わったスナップショット{}件",
                         f.alignment_p50_ms, f.alignment_p99_ms, f.held_back, f.persisted,
                         f.persisted_bytes, f.unaligned_channels, f.channels, f.switched);
  }
  return "";
}

std::string JapaneseEnding(EndingLine line, const Ending& e) {
  switch (line) {
    case EndingLine::kStoppedEarly:
      return fmt::format("{}で停止: 実行は早めに終わった", e.signal);
    case EndingLine::kStoppedTwice:
      return fmt::format("{}を2回受けて停止: ジョブを終了した。最後の完了スナップショット: {}",
                         e.signal, e.latest);
    case EndingLine::kGaveUp:
      return fmt::format("スナップショット{}が続けて失敗した（--tolerable-failures {}）: "
                         "実行を止めた",
                         e.ids, e.count);
    case EndingLine::kRankDied: {
      const std::string who =
          e.who.empty() ? "あるランク"
                        : (e.by_signal ? fmt::format("ランク{}（シグナル{}）", e.who, *e.by_signal)
                                       : fmt::format("ランク{}", e.who));
      return fmt::format("{}が落ちた。ジョブは終了した。最後の完了スナップショット: {}", who,
                         e.latest);
    }
    case EndingLine::kRankErrored:
      return fmt::format("{}。ジョブは終了した。最後の完了スナップショット: {}", e.reason, e.latest);
    case EndingLine::kMpirunFailed:
      return fmt::format("mpirun が失敗した（終了状態{}）: {}", e.status, e.first_line);
    case EndingLine::kNoMpirun:
      return fmt::format("mpirun を起動できない: {}", e.first_line);
  }
  return "";
}

}  // namespace cutline::catalogue
