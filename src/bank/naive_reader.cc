// AnalyzeNaive: compares each message's send and delivery with the reads.
#include "bank/naive_reader.h"

#include <limits>
#include <unordered_map>

namespace cutline::bank {

NaiveAnalysis AnalyzeNaive(const Bank& bank) {
  constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();
  NaiveAnalysis out;
  std::vector<std::size_t> read_at(bank.branch_count(), kNever);
  for (const NaiveRead& r : bank.naive_reads()) {
    read_at[r.branch] = r.history_index;
    out.total += r.balance;
  }
  out.all_read = bank.naive_reads().size() == bank.branch_count();

  struct Flight {
    const sim::Event* send;
    std::size_t sent_at;
    std::size_t delivered_at = kNever;
  };
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
  for (const Flight& f : flights) {
    const sim::ChannelInfo& ch = bank.network().channel(f.send->channel);
    std::size_t sender_read = read_at[ch.from];
    std::size_t receiver_read = read_at[ch.to];
    if (sender_read == kNever || receiver_read == kNever) continue;
    bool transfer = f.send->message == sim::MessageKind::kTransfer;
    CrossingMessage m{f.send->seq, ch.from, ch.to, f.send->message,
                      transfer ? f.send->value : 0};
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

}  // namespace cutline::bank
