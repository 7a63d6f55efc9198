// Cuts: each message's send and delivery compared with the cut's points.
#include "bank/cuts.h"

#include <unordered_map>

namespace cutline::bank {

namespace {

constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();

// One message's life in the history: where it was sent and delivered.
struct Flight {
  const sim::Event* send;
  std::size_t sent_at;
  std::size_t delivered_at = kNever;
};

std::vector<Flight> Flights(const Bank& bank) {
  std::vector<Flight> flights;
  std::unordered_map<sim::Seq, std::size_t> by_seq;
  const auto& events = bank.network().history().events();
  for (std::size_t i = 0; i < events.size(); ++i) {
    const sim::Event& e = events[i];
    if (e.kind == sim::EventKind::kSend) {
      by_seq[e.seq] = flights.size();
      flights.push_back(Flight{&e, i});
    } else if (e.kind == sim::EventKind::kDeliver) {
      flights[by_seq.at(e.seq)].delivered_at = i;
    }
  }
  return flights;
}

CrossingMessage Describe(const Bank& bank, const Flight& f) {
  const sim::ChannelInfo& ch = bank.network().channel(f.send->channel);
  bool transfer = f.send->message == sim::MessageKind::kTransfer;
  return CrossingMessage{f.send->seq, ch.from, ch.to, f.send->message,
                         transfer ? f.send->value : 0};
}

}  // namespace

NaiveAnalysis AnalyzeNaive(const Bank& bank) {
  NaiveAnalysis out;
  std::vector<std::size_t> read_at(bank.branch_count(), kNever);
  for (const NaiveRead& r : bank.naive_reads()) {
    read_at[r.branch] = r.history_index;
    out.total += r.balance;
  }
  out.all_read = bank.naive_reads().size() == bank.branch_count();
  for (const Flight& f : Flights(bank)) {
    const sim::ChannelInfo& ch = bank.network().channel(f.send->channel);
    std::size_t sender_read = read_at[ch.from];
    std::size_t receiver_read = read_at[ch.to];
    if (sender_read == kNever || receiver_read == kNever) continue;
    CrossingMessage m = Describe(bank, f);
    bool transfer = m.kind == sim::MessageKind::kTransfer;
    bool sent_inside = f.sent_at < sender_read;
    bool received_inside = f.delivered_at < receiver_read;  // kNever: no
    if (sent_inside && !received_inside && transfer) out.lost.push_back(m);
    if (!sent_inside && received_inside) {
      out.backward.push_back(m);
      if (transfer) out.counted_twice.push_back(m);
    }
  }
  return out;
}

Cut SnapshotCut(const Bank& bank, SnapshotId id) {
  const auto& events = bank.network().history().events();
  Cut cut(bank.branch_count(), kFuture);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const sim::Event& e = events[i];
    if (e.kind != sim::EventKind::kRecord || e.snapshot != id) continue;
    const sim::Event* before = i > 0 ? &events[i - 1] : nullptr;
    bool by_marker = before && before->kind == sim::EventKind::kDeliver &&
                     before->message == sim::MessageKind::kMarker &&
                     before->node == e.node &&
                     static_cast<SnapshotId>(before->value) == id;
    cut[e.node] = by_marker ? i - 1 : i;
  }
  return cut;
}

std::vector<CrossingMessage> BackwardAcross(const Bank& bank, const Cut& cut) {
  std::vector<CrossingMessage> out;
  for (const Flight& f : Flights(bank)) {
    const sim::ChannelInfo& ch = bank.network().channel(f.send->channel);
    bool sent_outside = cut[ch.from] != kFuture && f.sent_at > cut[ch.from];
    bool received_inside =
        f.delivered_at != kNever && f.delivered_at < cut[ch.to];
    if (sent_outside && received_inside) out.push_back(Describe(bank, f));
  }
  return out;
}

}  // namespace cutline::bank
