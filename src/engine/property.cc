// The property of a moment: the states and the messages in flight, handed
// to the application's Evaluate.
#include "engine/property.h"

namespace cutline::engine {

apps::Verdict PropertyNow(const Engine& bank) {
  const Network& net = bank.network();
  std::vector<Amount> states;
  for (NodeId n = 0; n < bank.branch_count(); ++n) states.push_back(bank.state(n));
  std::vector<std::vector<Amount>> channels(net.channel_count());
  for (ChannelId c = 0; c < net.channel_count(); ++c) {
    net.ForEachQueued(c, [&](const Network::Msg& m) {
      if (const auto* t = std::get_if<Transfer>(&m.payload)) channels[c].push_back(t->amount);
    });
  }
  return bank.app().Evaluate({&net, states, channels});
}

std::vector<std::vector<Amount>> InFlightWords(const sim::Topology& topology,
                                               const Replay& replay) {
  std::vector<std::vector<Amount>> channels(topology.channel_count());
  for (ChannelId c = 0; c < channels.size(); ++c) {
    for (Seq seq : replay.waiting(c)) {
      const Flight* f = replay.Find(seq);
      if (f->is_transfer()) channels[c].push_back(f->amount());
    }
  }
  return channels;
}

apps::Verdict PropertyOfReplay(const Engine& bank, const Replay& replay) {
  std::vector<Amount> states;
  for (NodeId n = 0; n < bank.branch_count(); ++n) states.push_back(replay.balance(n));
  return bank.app().Evaluate({&bank.network(), states, InFlightWords(bank.network(), replay)});
}

}  // namespace cutline::engine
