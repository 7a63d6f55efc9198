// Text views of a run's state.
#include "scenario/text_output.h"

#include "check/consistency_checker.h"

#include <fmt/format.h>

#include "engine/cuts.h"
#include "scenario/format.h"
#include "catalogue/sentences.h"

namespace cutline::scenario {

// The sentences of the catalogue (catalogue/sentences.h).
using catalogue::CheckLine;
using catalogue::LabFacts;
using catalogue::LabText;
using catalogue::NaiveLine;
using catalogue::Said;
using catalogue::Say;
using catalogue::ShowLine;

using catalogue::RuleNoteText;

using cutline::Amount;
using sim::NodeId;

std::string NetworkSummary(const engine::Engine& bank, Lang lang) {
  const auto& config = bank.config();
  Said rule;
  rule.count = config.capacity_transfers;
  Said s;
  if (config.capacity_transfers > 0) s.more += Say(ShowLine::kCapacityRule, rule, lang);
  if (config.one_snapshot_at_a_time) s.more += Say(ShowLine::kOneAtATimeRule, rule, lang);
  if (!config.fifo) s.more += Say(ShowLine::kNotFifoRule, rule, lang);
  s.more += RuleNoteText(config.algorithm.words().rule, lang);
  s.list = Balances(bank, lang);
  s.count = bank.network().channel_count();
  if (!bank.app().conserved()) {
    s.what = bank.app().name();
    return Say(ShowLine::kNetworkApp, s, lang);
  }
  s.state = Money(bank.total());
  return Say(ShowLine::kNetworkBank, s, lang);
}

namespace {

void Append(std::vector<std::string>& out, std::vector<std::string> more) {
  for (std::string& line : more) out.push_back(std::move(line));
}

// The parts of `show` follow, each a function of its own so that ShowLines
// reads as the list of them.

// The branches' states; for the bank, also where its money is.
std::string BalancesLine(const engine::Engine& bank, Lang lang) {
  Said s;
  s.list = Balances(bank, lang);
  if (!bank.app().conserved()) return Say(ShowLine::kStates, s, lang);
  s.state = Money(bank.total() - bank.in_flight_amount());
  s.what = Money(bank.in_flight_amount());
  s.more = Money(bank.total());
  return Say(ShowLine::kBalances, s, lang);
}

// One line per channel: what waits on it, oldest first.
std::vector<std::string> QueueLines(const engine::Engine& bank, Lang lang) {
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
    if (queue.empty()) queue = Say(ShowLine::kEmptyQueue, {}, lang);
    out.push_back(fmt::format("  {}: {}", ChannelName(bank, c), queue));
  }
  return out;
}

// How a snapshot stands: running, or complete with its total (with the
// application's verdict at its cut instead, for jobs and locks), and
// whether the checker found it inconsistent.
std::string SnapshotStatus(const engine::Engine& bank, const SnapshotFacts& f, Lang lang) {
  Said s;
  ShowLine line = ShowLine::kRunning;
  if (f.declared) {
    line = ShowLine::kCompleteVerdict;
    s.state = VerdictText(bank, *f.declared, lang);
  } else if (f.info->complete) {
    line = ShowLine::kCompleteTotal;
    s.state = Money(*f.total);
  }
  std::string status = Say(line, s, lang);
  if (f.verdict && !f.verdict->consistent()) status += Say(ShowLine::kInconsistent, s, lang);
  return status;
}

// A snapshot's first line: how it was started (by whom, or by stopping the
// world) and its status.
std::string SnapshotHeading(const engine::Engine& bank, const engine::SnapshotInfo& s,
                            const std::string& status, Lang lang) {
  Said said;
  said.id = s.id;
  said.more = status;
  if (s.stop_the_world) {
    said.count = s.stopped_deliveries;
    return Say(ShowLine::kHeadingStopped, said, lang);
  }
  std::vector<std::string> initiators;
  for (NodeId n : s.initiators) initiators.push_back(bank.name(n));
  said.list = JoinNames(initiators, lang);
  said.count = s.markers_sent;
  said.count2 = bank.network().channel_count();
  return Say(ShowLine::kHeading, said, lang);
}

// What a snapshot recorded: each branch's state (and whether its part is
// done), then each channel's recording.
std::vector<std::string> RecordedLines(const engine::Engine& bank, const SnapshotFacts& s,
                                       Lang lang) {
  const auto& net = bank.network();
  std::vector<std::string> out;
  Said recorded;
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    if (const std::optional<Amount>& b = s.recorded[n]) {
      recorded.list += fmt::format("{}{} {}{}", recorded.list.empty() ? "" : ", ",
                                   bank.name(n), StateText(bank, *b, lang),
                                   s.parts_done[n] ? Say(ShowLine::kPartDone, {}, lang) : "");
    }
  }
  if (recorded.list.empty()) recorded.list = "-";
  out.push_back("  " + Say(ShowLine::kRecorded, recorded, lang));
  for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
    const history::ChannelRecord& r = s.channels[c];
    Said state;
    ShowLine line = ShowLine::kNotRecorded;
    switch (r.state) {
      case ChannelRecording::kNotRecorded:
        break;
      case ChannelRecording::kRecording:
        line = ShowLine::kRecording;
        break;
      case ChannelRecording::kClosed:
        line = ShowLine::kClosed;
        break;
      case ChannelRecording::kHeldBack:
        line = ShowLine::kHeldBack;
        break;
    }
    state.list = MessagesText(bank, r.transfers, lang);
    out.push_back(fmt::format("  {}: {}", ChannelName(bank, c), Say(line, state, lang)));
  }
  return out;
}

// The naive reader's reads and their total, then why that total is wrong.
std::vector<std::string> NaiveReadLines(const Analysis& analysis, Lang lang) {
  const engine::Engine& bank = analysis.bank;
  std::vector<std::string> out;
  Said s;
  Amount total = 0;
  for (const engine::NaiveRead& r : bank.naive_reads()) {
    s.list += fmt::format("{}{} {}", s.list.empty() ? "" : ", ", bank.name(r.branch),
                          StateText(bank, r.balance, lang));
    total += r.balance;
  }
  s.state = Money(total);
  if (!s.list.empty()) {
    out.push_back(Say(bank.app().conserved() ? NaiveLine::kReadsTotal : NaiveLine::kReads, s, lang));
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
  // The checker's verdict marks the snapshots that are wrong (Chandy-Lamport
  // over channels that reorder).
  for (const SnapshotFacts& s : a.snapshots) {
    out.push_back(SnapshotHeading(bank, *s.info, SnapshotStatus(bank, s, lang), lang));
    Append(out, RecordedLines(bank, s, lang));
  }
  Append(out, NaiveReadLines(a, lang));
  return out;
}

std::vector<std::string> PropertyCheckLines(const Analysis& a, Lang lang) {
  const engine::Engine& bank = a.bank;
  std::vector<std::string> out;
  if (!bank.app().has_property()) return out;
  for (const check::SnapshotVerdict& v : a.check.verdicts) {
    if (!v.property) continue;
    Said s;
    s.id = v.id;
    s.state = VerdictText(bank, *v.declared, lang);
    s.more = VerdictText(bank, *v.property, lang);
    out.push_back(Say(CheckLine::kSnapshotDeclares, s, lang));
  }
  const check::NaiveJudgement& j = *a.naive;  // every application with a property
  if (j.truth) {
    Said s;
    s.state = VerdictText(bank, j.declared, lang);
    if (j.wrong()) {
      s.what = NaiveWrongText(bank.app(), lang);
      s.more = VerdictText(bank, *j.truth, lang);
    }
    out.push_back(Say(j.wrong() ? CheckLine::kNaiveDeclaresWrongly : CheckLine::kNaiveDeclares, s,
                      lang));
  }
  return out;
}

std::vector<std::string> NaiveExplanation(const Analysis& analysis, Lang lang) {
  const engine::Engine& bank = analysis.bank;
  std::vector<std::string> out;
  Said s;
  if (!bank.app().conserved()) {
    if (bank.naive_reads().empty()) return out;
    // What the detector declares, and (when it declares the property) the
    // real state at its last read, which the history knows.
    CUTLINE_CHECK(analysis.naive.has_value());  // Analyze judges every property
    const check::NaiveJudgement& j = *analysis.naive;
    s.state = VerdictText(bank, j.declared, lang);
    out.push_back(Say(NaiveLine::kSays, s, lang));
    if (j.wrong()) {
      s.what = NaiveWrongText(bank.app(), lang);
      s.state = VerdictText(bank, *j.truth, lang);
      out.push_back(Say(NaiveLine::kWrong, s, lang));
    }
    return out;
  }
  CUTLINE_CHECK(analysis.naive_reads.has_value());  // REQUIRES: a history
  const engine::NaiveAnalysis& a = *analysis.naive_reads;
  // Each transfer named the same way in either line.
  auto crossing = [&](const engine::CrossingMessage& m) {
    Said c;
    c.what = Money(m.amount());
    c.from = bank.name(m.from);
    c.to = bank.name(m.to);
    c.seq = m.seq;
    s.more = Say(NaiveLine::kCrossing, c, lang);
    return s;
  };
  for (const auto& m : a.lost) out.push_back(Say(NaiveLine::kLost, crossing(m), lang));
  for (const auto& m : a.counted_twice) {
    out.push_back(Say(NaiveLine::kCountedTwice, crossing(m), lang));
  }
  if (!a.consistent()) out.push_back(Say(NaiveLine::kInconsistent, s, lang));
  return out;
}

// Numbers here are plain (100, [40]), not Money: the block copies the study
// note's Python notation so that the two can be compared line by line.
std::optional<std::string> LabBlock(const engine::Engine& bank, Lang lang) {
  return LabBlock(Analyze(bank), lang);
}

std::optional<std::string> LabBlock(const Analysis& a, Lang lang) {
  const engine::Engine& bank = a.bank;
  const SnapshotFacts* latest = a.LatestComplete();
  if (latest == nullptr) return std::nullopt;
  const auto& net = bank.network();
  LabFacts lab;
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    Amount b = latest->recorded[n].value_or(0);
    lab.state_sum += b;
    lab.states += fmt::format("{}'{}': {}", n ? ", " : "", bank.name(n), b);
  }
  for (sim::ChannelId c = 0; c < net.channel_count(); ++c) {
    const auto& ch = net.channel(c);
    std::string list;
    for (Amount w : latest->channels[c].transfers) {
      list += fmt::format("{}{}", list.empty() ? "" : ", ", w);
      lab.in_flight += w;
    }
    lab.channels += fmt::format("{}('{}', '{}'): [{}]", c ? ", " : "",
                                bank.name(ch.from), bank.name(ch.to), list);
  }
  lab.total = lab.state_sum + lab.in_flight;
  lab.bank_total = bank.total();
  lab.conserved = lab.total == lab.bank_total;
  return LabText(lab, lang);
}

}  // namespace cutline::scenario
