// Invariants: money, channel queues against the history, snapshot
// bookkeeping against the agents.
#include "engine/invariants.h"

#include <algorithm>

#include <fmt/format.h>

#include "apps/bank/money.h"
#include "base/lang.h"
#include "engine/property.h"

namespace cutline::engine {

using apps::Money;

namespace {

// For the diagnostics only (the JSON's words are history::ChannelRecordingName's).
const char* StateWord(ChannelRecording r) {
  switch (r) {
    case ChannelRecording::kNotRecorded: return "not recorded";
    case ChannelRecording::kRecording: return "recording";
    case ChannelRecording::kClosed: return "closed";
    case ChannelRecording::kHeldBack: return "held back";
  }
  return "?";
}

}  // namespace

std::vector<std::string> Invariants::CheckInvariants(const Engine& bank) {
  std::vector<std::string> out;
  if (bank.app().conserved()) {
    CheckMoney(bank, &out);
  } else {
    CheckProperty(bank, &out);
  }
  if (bank.history().enabled()) CheckHistory(bank, &out);
  if (settled_.size() < bank.snapshots().size()) {
    settled_.resize(bank.snapshots().size(), false);
  }
  for (const SnapshotInfo& s : bank.snapshots()) {
    if (!settled_[s.id - 1]) CheckSnapshot(bank, s, &out);
  }
  return out;
}

void Invariants::CheckMoney(const Engine& bank,
                            std::vector<std::string>* out) {
  Amount balances = 0;
  for (NodeId n = 0; n < bank.branch_count(); ++n) balances += bank.state(n);
  if (balances + bank.in_flight_amount() != bank.total()) {
    out->push_back(fmt::format(
        "money: balances {} + in flight {} = {}, but the bank holds {}",
        Money(balances), Money(bank.in_flight_amount()),
        Money(balances + bank.in_flight_amount()), Money(bank.total())));
  }
  const Network& net = bank.network();
  Amount queued = 0;
  for (ChannelId c = 0; c < net.channel_count(); ++c) {
    net.ForEachQueued(c, [&](const Network::Msg& m) {
      if (const auto* t = std::get_if<history::Transfer>(&m.payload)) {
        queued += t->amount;
      }
    });
  }
  // Where transfers carry epochs (Lai-Yang): a waiting transfer's epoch is
  // a snapshot its sender recorded (or 0, before any).
  if (bank.algorithm().traits().tags_messages) {
    for (ChannelId c = 0; c < net.channel_count(); ++c) {
      NodeId from = net.channel(c).from;
      net.ForEachQueued(c, [&](const Network::Msg& m) {
        if (!std::holds_alternative<history::Transfer>(m.payload)) return;
        std::uint64_t epoch = bank.MessageTag(m.seq);
        if (epoch != 0 && !bank.HasRecorded(from, epoch)) {
          out->push_back(fmt::format(
              "message #{}: carries epoch {}, which {} has not recorded",
              m.seq, epoch, bank.name(from)));
        }
      });
    }
  }
  if (queued != bank.in_flight_amount()) {
    out->push_back(fmt::format(
        "money: the channels hold {} in transfers, but {} is counted in "
        "flight",
        Money(queued), Money(bank.in_flight_amount())));
  }
}

// The application's states make sense, and its property is stable: once it
// holds of the live state, it holds after every later command.
void Invariants::CheckProperty(const Engine& bank, std::vector<std::string>* out) {
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    Amount s = bank.state(n);
    if (s < 0) out->push_back(fmt::format("{}: its state is negative ({})", bank.name(n), s));
    const auto valid = bank.app().definition().valid_state;
    if (valid != nullptr && !valid(s, n, bank.branch_count())) {
      out->push_back(fmt::format("{}: its state {} is not one of app={}'s", bank.name(n), s,
                                 bank.app().name()));
    }
  }
  bool holds = PropertyNow(bank).holds;
  if (held_ && !holds) {
    out->push_back(fmt::format("{}: held before, and no longer does (not stable)",
                               bank.app().definition().property));
  }
  held_ = held_ || holds;
}

void Invariants::CheckHistory(const Engine& bank,
                              std::vector<std::string>* out) {
  if (!replay_) replay_.emplace(bank);
  const auto& events = bank.history().events();
  while (replay_->applied() < events.size()) {
    std::size_t i = replay_->applied();
    Anomaly a = replay_->Apply(events[i]);
    // Overtaking is what a non-FIFO network is for.
    if (a == Anomaly::kNotFifo && !bank.network().fifo()) continue;
    if (a != Anomaly::kNone) {
      out->push_back(fmt::format(
          "history: event {} is malformed (anomaly {}); not replayed further", i,
          static_cast<int>(a)));
      replay_.reset();  // and start again next time, reporting it again
      return;
    }
  }
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    if (replay_->balance(n) != bank.state(n)) {
      out->push_back(fmt::format("{}: holds {}, but the history gives {}",
                                 bank.name(n), Money(bank.state(n)),
                                 Money(replay_->balance(n))));
    }
  }
  const Network& net = bank.network();
  for (ChannelId c = 0; c < net.channel_count(); ++c) {
    std::vector<sim::Seq> queued;
    net.ForEachQueued(c, [&](const Network::Msg& m) {
      queued.push_back(m.seq);
    });
    const std::deque<sim::Seq>& expected = replay_->waiting(c);
    if (!std::equal(queued.begin(), queued.end(), expected.begin(),
                    expected.end())) {
      const sim::ChannelInfo& ch = net.channel(c);
      out->push_back(fmt::format(
          "channel {}: holds {} messages, but the history says {} were "
          "sent on it and not delivered (or in another order)",
          ChannelText(bank.name(ch.from), bank.name(ch.to)), queued.size(),
          expected.size()));
    }
  }
}

void Invariants::CheckSnapshot(const Engine& bank,
                               const SnapshotInfo& s,
                               std::vector<std::string>* out) {
  const Network& net = bank.network();
  auto problem = [&](std::string text) {
    out->push_back(fmt::format("snapshot {}: {}", s.id, text));
  };
  std::uint64_t markers = 0;
  std::uint32_t parts_done = 0;
  for (NodeId n = 0; n < bank.branch_count(); ++n) {
    bool recorded = bank.HasRecorded(n, s.id);
    if (recorded && !s.stop_the_world && !bank.HoldsMarkers(n, s.id)) {
      markers += net.Outgoing(n).size();
    }
    if (bank.PartDone(n, s.id)) {
      ++parts_done;
      if (!recorded) problem(bank.name(n) + " is done without a record");
    }
    for (ChannelId c : net.Incoming(n)) {
      ChannelRecording state = bank.RecordedChannel(s.id, c).state;
      // Aligned barriers: an input is held back (in the agent's state and
      // in the network alike) exactly while its receiver aligns.
      bool held = state == ChannelRecording::kHeldBack;
      if (held != (net.Held(c) && !s.complete && bank.Running() == &s)) {
        const sim::ChannelInfo& ch = net.channel(c);
        problem(fmt::format("channel {} is '{}', but the network {} it",
                            ChannelText(bank.name(ch.from), bank.name(ch.to)),
                            StateWord(state),
                            net.Held(c) ? "holds back" : "does not hold back"));
      }
      bool expected_state_ok =
          !recorded ? (state == ChannelRecording::kNotRecorded || held)
          : bank.PartDone(n, s.id) ? state == ChannelRecording::kClosed
                                   : state != ChannelRecording::kNotRecorded;
      if (!expected_state_ok) {
        const sim::ChannelInfo& ch = net.channel(c);
        problem(fmt::format("channel {} is '{}' at a branch that {}",
                            ChannelText(bank.name(ch.from), bank.name(ch.to)),
                            StateWord(state),
                            !recorded                 ? "has not recorded"
                            : bank.PartDone(n, s.id) ? "is done"
                                                      : "is recording"));
      }
    }
  }
  for (NodeId n : s.initiators) {
    if (!bank.HasRecorded(n, s.id)) {
      problem(bank.name(n) + " started it but has no record");
    }
  }
  if (markers != s.markers_sent) {
    problem(fmt::format("counts {} markers sent, but its recorded branches "
                        "have {} outgoing channels",
                        s.markers_sent, markers));
  }
  if (parts_done != s.parts_done) {
    problem(fmt::format("counts {} parts done, but {} agents are done",
                        s.parts_done, parts_done));
  }
  if (s.complete != (parts_done == bank.branch_count())) {
    problem(fmt::format("is {}complete with {} of {} parts done",
                        s.complete ? "" : "not ", parts_done,
                        bank.branch_count()));
  }
  if (s.stop_the_world &&
      (!s.initiators.empty() || !s.complete || s.markers_sent != 0)) {
    problem("a stop-the-world snapshot has initiators, markers or is not "
            "complete");
  }
  // An algorithm that is not correct over channels that reorder, and does
  // not refuse them (Chandy-Lamport), may take a wrong snapshot there: that
  // is what such a run shows (the checker names it), not a bug.
  const bool may_be_wrong = !bank.AlgorithmOf(s.id).traits().RightOn(net.fifo());
  if (s.complete) {
    if (!may_be_wrong && bank.app().conserved() && bank.SnapshotTotal(s.id) != bank.total()) {
      problem(fmt::format("adds up to {}, but the bank holds {}",
                          Money(bank.SnapshotTotal(s.id)), Money(bank.total())));
    }
    if (out->empty()) settled_[s.id - 1] = true;
  }
}

}  // namespace cutline::engine
