// Text views of a run's state.
#include "scenario/text_output.h"

#include <set>

#include "check/consistency_checker.h"

#include <fmt/format.h>

#include "engine/cuts.h"
#include "scenario/format.h"

namespace cutline::scenario {

using cutline::Amount;
using sim::NodeId;

std::string NetworkSummary(const engine::Engine& bank, Lang lang) {
  const bool ja = lang == Lang::kJa;
  std::string branches = Balances(bank, lang);
  const auto& config = bank.config();
  std::string rules;
  if (config.capacity_transfers > 0) {
    rules += ja ? fmt::format("、各チャネル送金{}件まで", config.capacity_transfers)
                : fmt::format(", at most {} transfer{} per channel",
                              config.capacity_transfers,
                              config.capacity_transfers == 1 ? "" : "s");
  }
  if (config.one_snapshot_at_a_time) {
    rules += ja ? "、スナップショットは一度に1つ" : ", one snapshot at a time";
  }
  if (!config.fifo) {
    rules += ja ? "、チャネルは順序を入れ替えうる（非FIFO）"
                : ", channels may reorder (not FIFO)";
  }
  rules += RuleNoteText(config.algorithm.words().rule, lang);
  std::size_t channels = bank.network().channel_count();
  if (!bank.app().conserved()) {
    return ja ? fmt::format("ネットワーク: {}（app={}）、チャネル{}本{}", branches,
                            bank.app().name(), channels, rules)
              : fmt::format("Network: {} (app={}); {} channel{}{}", branches,
                            bank.app().name(), channels, channels == 1 ? "" : "s", rules);
  }
  return ja ? fmt::format("ネットワーク: {}（総額{}）、チャネル{}本{}", branches,
                          Money(bank.total()), channels, rules)
            : fmt::format("Network: {} (total {}); {} channel{}{}", branches,
                          Money(bank.total()), channels,
                          channels == 1 ? "" : "s", rules);
}

namespace {

void Append(std::vector<std::string>& out, std::vector<std::string> more) {
  for (std::string& line : more) out.push_back(std::move(line));
}

// The parts of `show` follow, each a function of its own so that ShowLines
// reads as the list of them.

// The branches' states; for the bank, also where its money is.
std::string BalancesLine(const engine::Engine& bank, Lang lang) {
  const bool ja = lang == Lang::kJa;
  std::string balances = Balances(bank, lang);
  if (!bank.app().conserved()) {
    return fmt::format("{}: {}", ja ? "状態" : "states", balances);
  }
  Amount in_branches = bank.total() - bank.in_flight_amount();
  return ja ? fmt::format("残高: {}（支店 {} + 飛行中 {} = {}）", balances,
                          Money(in_branches), Money(bank.in_flight_amount()),
                          Money(bank.total()))
            : fmt::format("balances: {} ({} in branches + {} in flight = {})",
                          balances, Money(in_branches),
                          Money(bank.in_flight_amount()),
                          Money(bank.total()));
}

// One line per channel: what waits on it, oldest first.
std::vector<std::string> QueueLines(const engine::Engine& bank, Lang lang) {
  const bool ja = lang == Lang::kJa;
  const auto& net = bank.network();
  std::vector<std::string> out;
  for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
    std::string queue;
    net.ForEachQueued(c, [&](const engine::Network::Msg& m) {
      queue += queue.empty() ? "" : ", ";
      if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
        queue += fmt::format("{} #{}", MessageText(bank, t->amount, lang), m.seq);
      } else {
        queue += fmt::format("marker({}) #{}",
                             std::get<history::Marker>(m.payload).snapshot, m.seq);
      }
    });
    if (queue.empty()) queue = ja ? "空" : "empty";
    out.push_back(fmt::format("  {}: {}", ChannelName(bank, c), queue));
  }
  return out;
}

// How a snapshot stands: running, or complete with its total (with the
// application's verdict at its cut instead, for jobs and locks), and
// whether the checker found it inconsistent.
std::string SnapshotStatus(const engine::Engine& bank, const engine::SnapshotInfo& s,
                           bool inconsistent, Lang lang) {
  const bool ja = lang == Lang::kJa;
  const auto& net = bank.network();
  std::string status =
      s.complete
          ? (ja ? fmt::format("完了、総額{}", Money(bank.SnapshotTotal(s.id)))
                : fmt::format("complete, total {}", Money(bank.SnapshotTotal(s.id))))
          : (ja ? "実行中" : "running");
  if (s.complete && bank.app().has_property()) {
    check::SnapshotClaim claim;
    for (NodeId n = 0; n < bank.branch_count(); ++n) {
      claim.balances.push_back(bank.RecordedBalance(n, s.id));
    }
    for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
      claim.channels.push_back(bank.RecordedChannel(s.id, c));
    }
    status = fmt::format(
        "{}: {}", ja ? "完了" : "complete",
        VerdictText(bank, check::DeclaredProperty(bank.app(), net, claim), lang));
  }
  if (inconsistent) status += ja ? "、一貫していない" : ", inconsistent";
  return status;
}

// A snapshot's first line: how it was started (by whom, or by stopping the
// world) and its status.
std::string SnapshotHeading(const engine::Engine& bank, const engine::SnapshotInfo& s,
                            const std::string& status, Lang lang) {
  const bool ja = lang == Lang::kJa;
  if (s.stop_the_world) {
    return ja ? fmt::format("スナップショット{}（世界を止めて、配送{}件の間停止）: {}",
                            s.id, s.stopped_deliveries, status)
              : fmt::format("snapshot {} (stop the world, stopped for {} "
                            "deliveries): {}",
                            s.id, s.stopped_deliveries, status);
  }
  std::vector<std::string> initiators;
  for (NodeId n : s.initiators) initiators.push_back(bank.name(n));
  const auto& net = bank.network();
  return ja ? fmt::format("スナップショット{}（開始: {}）: {}、マーカー {}/{}",
                          s.id, JoinNames(initiators, lang), status,
                          s.markers_sent, net.channel_count())
            : fmt::format("snapshot {} (started by {}): {}, markers {}/{}",
                          s.id, JoinNames(initiators, lang), status,
                          s.markers_sent, net.channel_count());
}

// What a snapshot recorded: each branch's state (and whether its part is
// done), then each channel's recording.
std::vector<std::string> RecordedLines(const engine::Engine& bank, const engine::SnapshotInfo& s,
                                       Lang lang) {
  const bool ja = lang == Lang::kJa;
  const auto& net = bank.network();
  std::vector<std::string> out;
  std::string recorded;
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    if (auto b = bank.RecordedBalance(n, s.id)) {
      recorded += fmt::format("{}{} {}{}", recorded.empty() ? "" : ", ",
                              bank.name(n), StateText(bank, *b, lang),
                              bank.PartDone(n, s.id) ? (ja ? "（完了）" : " (done)") : "");
    }
  }
  out.push_back(fmt::format("  {}: {}", ja ? "記録" : "recorded",
                            recorded.empty() ? "-" : recorded));
  for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
    history::ChannelRecord r = bank.RecordedChannel(s.id, c);
    std::string state;
    switch (r.state) {
      case ChannelRecording::kNotRecorded:
        state = ja ? "未記録" : "not recorded";
        break;
      case ChannelRecording::kRecording:
        state = fmt::format("{} {}", ja ? "記録中" : "recording",
                            MessagesText(bank, r.transfers, lang));
        break;
      case ChannelRecording::kClosed:
        state = fmt::format("{} {}", ja ? "確定" : "closed",
                            MessagesText(bank, r.transfers, lang));
        break;
      case ChannelRecording::kHeldBack:
        state = ja ? "保留中" : "held back";
        break;
    }
    out.push_back(fmt::format("  {}: {}", ChannelName(bank, c), state));
  }
  return out;
}

// The naive reader's reads and their total, then why that total is wrong.
std::vector<std::string> NaiveReadLines(const Analysis& analysis, Lang lang) {
  const engine::Engine& bank = analysis.bank;
  const bool ja = lang == Lang::kJa;
  std::vector<std::string> out;
  std::string reads;
  Amount total = 0;
  for (const engine::NaiveRead& r : bank.naive_reads()) {
    reads += fmt::format("{}{} {}", reads.empty() ? "" : ", ", bank.name(r.branch),
                         StateText(bank, r.balance, lang));
    total += r.balance;
  }
  if (!reads.empty() && !bank.app().conserved()) {
    out.push_back(fmt::format("{}: {}", ja ? "素朴な読み取り" : "naive reads", reads));
  } else if (!reads.empty()) {
    out.push_back(ja ? fmt::format("素朴な読み取り: {}（合計{}）", reads, Money(total))
                     : fmt::format("naive reads: {} (total {})", reads, Money(total)));
  }
  if (analysis.has_history) {
    for (const std::string& line : NaiveExplanation(analysis, lang)) {
      out.push_back("  " + line);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> ShowLines(const Analysis& a, Lang lang) {
  const engine::Engine& bank = a.bank;
  std::vector<std::string> out = {BalancesLine(bank, lang)};
  Append(out, QueueLines(bank, lang));
  // The checker's verdicts, for the snapshots that are wrong (Chandy-Lamport
  // over channels that reorder).
  std::set<SnapshotId> inconsistent;
  if (a.has_history) {
    for (const auto& v : a.check.verdicts) {
      if (!v.consistent()) inconsistent.insert(v.id);
    }
  }
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    std::string status = SnapshotStatus(bank, s, inconsistent.count(s.id) > 0, lang);
    out.push_back(SnapshotHeading(bank, s, status, lang));
    Append(out, RecordedLines(bank, s, lang));
  }
  Append(out, NaiveReadLines(a, lang));
  return out;
}

std::vector<std::string> PropertyCheckLines(const Analysis& a, Lang lang) {
  const engine::Engine& bank = a.bank;
  const check::CheckReport& report = a.check;
  const bool ja = lang == Lang::kJa;
  std::vector<std::string> out;
  if (!bank.app().has_property()) return out;
  for (const check::SnapshotVerdict& v : report.verdicts) {
    if (!v.property) continue;
    const std::string declared = VerdictText(bank, *v.declared, lang);
    const std::string at_cut = VerdictText(bank, *v.property, lang);
    out.push_back(ja ? fmt::format("スナップショット{}の宣言: {}。そのカットでは: {}", v.id,
                                   declared, at_cut)
                     : fmt::format("snapshot {} declares {}; at its cut: {}", v.id, declared,
                                   at_cut));
  }
  const check::NaiveJudgement& j = *a.naive;  // every application with a property
  if (j.truth) {
    const std::string declared = VerdictText(bank, j.declared, lang);
    if (!j.wrong()) {
      out.push_back(ja ? fmt::format("素朴な検出の宣言: {}", declared)
                       : fmt::format("naive detector declares {}", declared));
    } else {
      const std::string wrong = NaiveWrongText(bank.app(), lang);
      const std::string truth = VerdictText(bank, *j.truth, lang);
      out.push_back(ja ? fmt::format("素朴な検出の宣言: {}。誤り（{}）。最後の読み取りの時点の"
                                     "実際: {}",
                                     declared, wrong, truth)
                       : fmt::format("naive detector declares {}, {}; when it last read: {}",
                                     declared, wrong, truth));
    }
  }
  return out;
}

std::vector<std::string> NaiveExplanation(const Analysis& analysis, Lang lang) {
  const engine::Engine& bank = analysis.bank;
  const bool ja = lang == Lang::kJa;
  std::vector<std::string> out;
  if (!bank.app().conserved()) {
    if (bank.naive_reads().empty()) return out;
    // What the detector declares, and (when it declares the property) the
    // real state at its last read, which the history knows.
    CUTLINE_CHECK(analysis.naive.has_value());  // Analyze judges every property
    const check::NaiveJudgement& j = *analysis.naive;
    out.push_back(fmt::format("{}: {}", ja ? "素朴な検出の判定" : "the naive detector says",
                              VerdictText(bank, j.declared, lang)));
    if (j.wrong()) {
      const std::string wrong = NaiveWrongText(bank.app(), lang);
      out.push_back(ja ? fmt::format("誤り（{}）。最後の読み取りの時点の実際: {}", wrong,
                                     VerdictText(bank, *j.truth, lang))
                       : fmt::format("wrong ({}); when it last read: {}", wrong,
                                     VerdictText(bank, *j.truth, lang)));
    }
    return out;
  }
  CUTLINE_CHECK(analysis.naive_reads.has_value());  // REQUIRES: a history
  const engine::NaiveAnalysis& a = *analysis.naive_reads;
  auto describe = [&](const engine::CrossingMessage& m) {
    return ja ? fmt::format("{}から{}への{}（#{}）", bank.name(m.from),
                            bank.name(m.to), Money(m.amount()), m.seq)
              : fmt::format("{} from {} to {} (#{})", Money(m.amount()),
                            bank.name(m.from), bank.name(m.to), m.seq);
  };
  for (const auto& m : a.lost) {
    out.push_back(ja ? fmt::format("飛行中で消えた: {}。送り手の読み取り前に送られ、"
                                   "受け手の読み取り前に届いていない",
                                   describe(m))
                     : fmt::format("lost in flight: {}, sent before the sender "
                                   "was read, not delivered before the receiver was",
                                   describe(m)));
  }
  for (const auto& m : a.counted_twice) {
    out.push_back(ja ? fmt::format("二重に数えた: {}。送り手の読み取り後に送られ、"
                                   "受け手の読み取り前に届いた",
                                   describe(m))
                     : fmt::format("counted twice: {}, sent after the sender was "
                                   "read, delivered before the receiver was read",
                                   describe(m)));
  }
  if (!a.consistent()) {
    out.push_back(ja ? "素朴な切断面は一貫していない: 送信を含まない受信を含む"
                     : "the naive cut is inconsistent: it holds a receipt "
                       "without its sending");
  }
  return out;
}

// Numbers here are plain (100, [40]), not Money: the block copies the study
// note's Python notation so that the two can be compared line by line.
std::optional<std::string> LabBlock(const engine::Engine& bank, Lang lang) {
  const engine::SnapshotInfo* latest = nullptr;
  for (const engine::SnapshotInfo& s : bank.snapshots()) {
    if (s.complete) latest = &s;
  }
  if (latest == nullptr) return std::nullopt;
  const bool ja = lang == Lang::kJa;
  const auto& net = bank.network();
  std::string states;
  Amount state_sum = 0;
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    Amount b = bank.RecordedBalance(n, latest->id).value_or(0);
    state_sum += b;
    states += fmt::format("{}'{}': {}", n ? ", " : "", bank.name(n), b);
  }
  std::string channels;
  Amount in_flight = 0;
  for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
    const auto& ch = net.channel(c);
    std::string list;
    for (Amount a : bank.RecordedChannel(latest->id, c).transfers) {
      list += fmt::format("{}{}", list.empty() ? "" : ", ", a);
      in_flight += a;
    }
    channels += fmt::format("{}('{}', '{}'): [{}]", c ? ", " : "",
                            bank.name(ch.from), bank.name(ch.to), list);
  }
  Amount total = state_sum + in_flight;
  const char* held = total == bank.total() ? "True" : "False";
  if (ja) {
    return fmt::format(
        "== 記録された大域スナップショット ==\n"
        "プロセス状態: {{{}}}\n"
        "チャネル内メッセージ: {{{}}}\n\n"
        "プロセス状態合計 = {}\n"
        "チャネル内(飛行中) = {}\n"
        "スナップショット総額 = {} + {} = {}\n"
        "不変量(総額{})が保存されている: {}\n",
        states, channels, state_sum, in_flight, state_sum, in_flight, total,
        bank.total(), held);
  }
  return fmt::format(
      "== Recorded global snapshot ==\n"
      "Process states: {{{}}}\n"
      "Messages in channels: {{{}}}\n\n"
      "Sum of process states = {}\n"
      "In channels (in flight) = {}\n"
      "Snapshot total = {} + {} = {}\n"
      "Invariant (total {}) is conserved: {}\n",
      states, channels, state_sum, in_flight, state_sum, in_flight, total,
      bank.total(), held);
}

}  // namespace cutline::scenario
