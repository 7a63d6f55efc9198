// Narrator: one sentence per thing that happened, grouped the way a person
// tells it ("P2 receives its first marker: records $60, sends markers...").
#include "scenario/narrator.h"

#include <fmt/format.h>

namespace cutline::scenario {

using bank::Amount;
using bank::NodeId;
using sim::Event;
using sim::EventKind;
using sim::MessageKind;

std::string Money(Amount amount) { return fmt::format("${}", amount); }

std::string JoinNames(const std::vector<std::string>& names, Lang lang) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) {
      if (lang == Lang::kJa) {
        out += i + 1 == names.size() ? "と" : "、";
      } else {
        out += i + 1 == names.size() ? " and " : ", ";
      }
    }
    out += names[i];
  }
  return out;
}

std::string ChannelName(const bank::Bank& bank, bank::ChannelId c) {
  const sim::ChannelInfo& ch = bank.network().channel(c);
  return bank.name(ch.from) + "->" + bank.name(ch.to);
}

std::string AmountList(const std::vector<Amount>& amounts) {
  std::string out = "[";
  for (std::size_t i = 0; i < amounts.size(); ++i) {
    out += (i ? ", " : "") + Money(amounts[i]);
  }
  return out + "]";
}

std::vector<std::string> Narrator::Narrate(const bank::Bank& bank,
                                           std::size_t begin, std::size_t end,
                                           Lang lang) {
  const bool ja = lang == Lang::kJa;
  const auto& events = bank.network().history().events();
  const auto& net = bank.network();
  if (balances_.empty()) {
    for (NodeId n = 0; n < bank.branch_count(); ++n) {
      balances_.push_back(bank.initial_balance(n));
    }
  }
  auto name = [&](NodeId n) { return bank.name(n); };
  std::vector<std::string> out;

  // Consumes the marker sends that follow a record at `node`, from index i.
  auto take_markers = [&](std::size_t& i, NodeId node) {
    std::vector<std::string> to;
    while (i < end && events[i].kind == EventKind::kSend &&
           events[i].message == MessageKind::kMarker && events[i].node == node) {
      to.push_back(name(net.channel(events[i].channel).to));
      ++i;
    }
    if (to.empty()) {
      return std::string(ja ? "マーカーを送る出力チャネルはない"
                            : "has no outgoing channel to send a marker on");
    }
    return ja ? fmt::format("{}へマーカーを送信", JoinNames(to, lang))
              : fmt::format("sends markers to {}", JoinNames(to, lang));
  };

  for (std::size_t i = begin; i < end;) {
    const Event& e = events[i];
    switch (e.kind) {
      case EventKind::kSend: {
        const auto& ch = net.channel(e.channel);
        ++i;
        if (e.message != MessageKind::kTransfer) break;  // grouped elsewhere
        balances_[ch.from] -= e.value;
        out.push_back(
            ja ? fmt::format("{}が{}へ{}を送金（メッセージ#{}）。{}の残高は{}",
                             name(ch.from), name(ch.to), Money(e.value), e.seq,
                             name(ch.from), Money(balances_[ch.from]))
               : fmt::format("{} sends {} to {} (message #{}); {} now has {}",
                             name(ch.from), Money(e.value), name(ch.to), e.seq,
                             name(ch.from), Money(balances_[ch.from])));
        break;
      }
      case EventKind::kDeliver: {
        const auto& ch = net.channel(e.channel);
        std::string channel = ChannelName(bank, e.channel);
        ++i;
        if (e.message == MessageKind::kTransfer) {
          balances_[ch.to] += e.value;
          std::string s =
              ja ? fmt::format("{}が{}から{}を受信（#{}）。{}の残高は{}",
                               name(ch.to), name(ch.from), Money(e.value), e.seq,
                               name(ch.to), Money(balances_[ch.to]))
                 : fmt::format("{} receives {} from {} (#{}); {} now has {}",
                               name(ch.to), Money(e.value), name(ch.from), e.seq,
                               name(ch.to), Money(balances_[ch.to]));
          std::vector<std::string> recording, closed;
          for (const auto& [id, node] : recorded_) {
            if (node != ch.to) continue;
            (closed_.count({id, e.channel}) ? closed : recording)
                .push_back(std::to_string(id));
          }
          if (!recording.empty()) {
            s += ja ? fmt::format("。{}は{}を記録中なので、{}はスナップショット{}の"
                                  "チャネル状態に入る",
                                  name(ch.to), channel, Money(e.value),
                                  JoinNames(recording, lang))
                    : fmt::format("; {} is recording {}, so the {} goes into "
                                  "that channel's state in snapshot{} {}",
                                  name(ch.to), channel, Money(e.value),
                                  recording.size() > 1 ? "s" : "",
                                  JoinNames(recording, lang));
          }
          if (!closed.empty()) {
            s += ja ? fmt::format("。{}はスナップショット{}で確定済みなので、{}は"
                                  "そこに入らない（未来に属する）",
                                  channel, JoinNames(closed, lang), Money(e.value))
                    : fmt::format("; {} is already closed for snapshot{} {}, so "
                                  "the {} is not in it: it belongs to the future",
                                  channel, closed.size() > 1 ? "s" : "",
                                  JoinNames(closed, lang), Money(e.value));
          }
          out.push_back(s);
          break;
        }
        // A marker: either the first of its snapshot here (a record follows)
        // or a later one (a close follows).
        SnapshotId id = static_cast<SnapshotId>(e.value);
        if (i < end && events[i].kind == EventKind::kRecord &&
            events[i].node == ch.to) {
          Amount balance = events[i].value;
          recorded_.insert({id, ch.to});
          ++i;
          std::string markers = take_markers(i, ch.to);
          if (i < end && events[i].kind == EventKind::kClose) {
            closed_.insert({id, events[i].channel});
            ++i;
          }
          out.push_back(
              ja ? fmt::format("{}が{}からスナップショット{}の最初のマーカーを受信: "
                               "{}を記録し、{}。{}は空として記録",
                               name(ch.to), name(ch.from), id, Money(balance),
                               markers, channel)
                 : fmt::format("{} receives {}'s marker of snapshot {}, its first: "
                               "records {}, {}; {} is recorded as empty",
                               name(ch.to), name(ch.from), id, Money(balance),
                               markers, channel));
        } else {
          if (i < end && events[i].kind == EventKind::kClose) {
            closed_.insert({id, events[i].channel});
            ++i;
          }
          auto contents = bank.RecordedChannel(id, e.channel).transfers;
          std::string how =
              contents.empty()
                  ? (ja ? fmt::format("{}は空で確定", channel)
                        : fmt::format("{} closed, empty", channel))
                  : (ja ? fmt::format("{}を{}で確定", channel, AmountList(contents))
                        : fmt::format("{} closed with {}", channel,
                                      AmountList(contents)));
          out.push_back(ja ? fmt::format("{}が{}からスナップショット{}のマーカーを受信: {}",
                                         name(ch.to), name(ch.from), id, how)
                           : fmt::format("{} receives {}'s marker of snapshot {}: {}",
                                         name(ch.to), name(ch.from), id, how));
        }
        break;
      }
      case EventKind::kRecord: {  // a start: records not caused by a marker
        NodeId n = e.node;
        SnapshotId id = e.snapshot;
        recorded_.insert({id, n});
        ++i;
        std::string markers = take_markers(i, n);
        const bank::SnapshotInfo* info = bank.FindSnapshot(id);
        bool first = info && !info->initiators.empty() && info->initiators[0] == n;
        out.push_back(
            first ? (ja ? fmt::format("{}がスナップショット{}を開始: {}を記録し、{}",
                                      name(n), id, Money(e.value), markers)
                        : fmt::format("{} starts snapshot {}: records {} and {}",
                                      name(n), id, Money(e.value), markers))
                  : (ja ? fmt::format("{}が別の開始者としてスナップショット{}に参加: "
                                      "{}を記録し、{}",
                                      name(n), id, Money(e.value), markers)
                        : fmt::format("{} joins snapshot {} as another initiator: "
                                      "records {} and {}",
                                      name(n), id, Money(e.value), markers)));
        break;
      }
      case EventKind::kClose:
        closed_.insert({e.snapshot, e.channel});
        ++i;
        break;
      case EventKind::kPartDone:
        ++i;
        if (net.Incoming(e.node).empty()) {
          out.push_back(
              ja ? fmt::format("{}のスナップショット{}の担当分が完了（入力チャネルが"
                               "ないので記録だけで終わる）",
                               name(e.node), e.snapshot)
                 : fmt::format("{}'s own part of snapshot {} is done (it has no "
                               "incoming channel to wait for)",
                               name(e.node), e.snapshot));
        } else {
          out.push_back(
              ja ? fmt::format("{}のスナップショット{}の担当分が完了（すべての入力"
                               "チャネルからマーカーを受信）",
                               name(e.node), e.snapshot)
                 : fmt::format("{}'s own part of snapshot {} is done (a marker "
                               "came on every incoming channel)",
                               name(e.node), e.snapshot));
        }
        break;
      case EventKind::kComplete: {
        ++i;
        // A complete snapshot records nothing more: forget it, so that a
        // delivery only looks at the snapshots still running.
        std::erase_if(recorded_, [&](const auto& p) { return p.first == e.snapshot; });
        std::erase_if(closed_, [&](const auto& p) { return p.first == e.snapshot; });
        std::string sum;
        Amount balances = 0;
        for (NodeId n = 0; n < bank.branch_count(); ++n) {
          Amount b = bank.RecordedBalance(n, e.snapshot).value_or(0);
          balances += b;
          sum += fmt::format("{}{} {}", n ? " + " : "", name(n), Money(b));
        }
        Amount total = bank.SnapshotTotal(e.snapshot);
        Amount in_channels = total - balances;
        out.push_back(
            ja ? fmt::format("スナップショット{}が完了: {} + チャネル内 {} = {}",
                             e.snapshot, sum, Money(in_channels), Money(total))
               : fmt::format("Snapshot {} is complete: {} + {} in channels = {}",
                             e.snapshot, sum, Money(in_channels), Money(total)));
        break;
      }
      case EventKind::kRead: {
        ++i;
        out.push_back(ja ? fmt::format("素朴な読み取り: {}の残高{}を写す",
                                       name(e.node), Money(e.value))
                         : fmt::format("The naive reader copies {}'s balance: {}",
                                       name(e.node), Money(e.value)));
        reads_[e.node] = e.value;
        if (reads_.size() == bank.branch_count()) {
          Amount sum = 0;
          for (const auto& [node, value] : reads_) sum += value;
          out.push_back(ja ? fmt::format("素朴な合計: {}（銀行の総額は{}）", Money(sum),
                                         Money(bank.total()))
                           : fmt::format("Naive total: {} (the bank holds {})",
                                         Money(sum), Money(bank.total())));
        }
        break;
      }
    }
  }
  return out;
}

}  // namespace cutline::scenario
