// Cuts: each message's flight (from the replay) compared with the cut's
// points.
#include "engine/cuts.h"

#include "history/crossing.h"

namespace cutline::engine {

namespace {

CrossingMessage Describe(const Engine& bank, const Flight& f) {
  const sim::ChannelInfo& ch = bank.network().channel(f.channel);
  return CrossingMessage{f.seq, ch.from, ch.to, f.payload};
}

}  // namespace

NaiveAnalysis AnalyzeNaive(const Engine& bank, const Replay& replay) {
  NaiveAnalysis out;
  std::vector<std::size_t> read_at(bank.branch_count(), kNever);
  for (const NaiveRead& r : bank.naive_reads()) {
    read_at[r.branch] = r.history_index;
    out.total += r.balance;
  }
  out.all_read = bank.naive_reads().size() == bank.branch_count();
  for (const Flight& f : replay.flights()) {
    const sim::ChannelInfo& ch = bank.network().channel(f.channel);
    std::size_t sender_read = read_at[ch.from];
    std::size_t receiver_read = read_at[ch.to];
    if (sender_read == kNever || receiver_read == kNever) continue;
    CrossingMessage m = Describe(bank, f);
    const bool sent_inside = f.sent_at < sender_read;
    const bool received_inside = f.delivered_at < receiver_read;  // kNever: no
    const history::Crossing crossing = history::CrossingOf(sent_inside, received_inside);
    if (crossing == history::Crossing::kForward && f.is_transfer()) {
      out.lost.push_back(m);
    }
    if (crossing == history::Crossing::kBackward) {
      out.backward.push_back(m);
      if (f.is_transfer()) out.counted_twice.push_back(m);
    }
  }
  return out;
}

Cut SnapshotCut(const Engine& bank, const Replay& replay, SnapshotId id) {
  const auto& events = bank.history().events();
  Cut cut(bank.branch_count(), kFuture);
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Recorded* r = std::get_if<Recorded>(&events[i]);
    if (r == nullptr || r->snapshot != id) continue;
    const Flight* marker =
        r->cause.by_message() ? replay.Find(r->cause.message_seq()) : nullptr;
    cut[r->node] = marker != nullptr ? marker->delivered_at : i;
  }
  return cut;
}

std::vector<CrossingMessage> BackwardAcross(const Engine& bank,
                                            const Replay& replay,
                                            const Cut& cut) {
  std::vector<CrossingMessage> out;
  for (const Flight& f : replay.flights()) {
    const sim::ChannelInfo& ch = bank.network().channel(f.channel);
    const bool sent_outside = cut[ch.from] != kFuture && f.sent_at > cut[ch.from];
    const bool received_inside = f.delivered() && f.delivered_at < cut[ch.to];
    if (history::CrossingOf(!sent_outside, received_inside) == history::Crossing::kBackward) {
      out.push_back(Describe(bank, f));
    }
  }
  return out;
}

std::vector<CrossingMessage> BackwardAcrossSnapshot(const Engine& bank,
                                                    const Replay& replay,
                                                    SnapshotId id) {
  std::vector<CrossingMessage> out =
      BackwardAcross(bank, replay, SnapshotCut(bank, replay, id));
  std::erase_if(out, [id](const CrossingMessage& m) {
    const auto* marker = std::get_if<Marker>(&m.payload);
    return marker != nullptr && marker->snapshot == id;
  });
  return out;
}

}  // namespace cutline::engine
