// One branch of the bank as a rank runs it: its balance, the transfers it
// sends at the rate asked, and the snapshot agent that watches its channels
// (or answers stop-the-world's rounds). It talks through the Transport and knows the
// coordinator only as rank 0.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string_view>
#include <vector>

#include "cutline/snapshot_agent.h"
#include "runtime/event_log.h"
#include "algorithms/rank_agent.h"
#include "apps/rank_work.h"
#include "runtime/options.h"
#include "runtime/protocol.h"
#include "runtime/roles.h"
#include "runtime/transport.h"

namespace cutline::runtime {

class Branch final : public RankRole, private apps::RankHost {
 public:
  Branch(const NodeOptions& options, int rank, int ranks, Transport& transport);

  // Where to start (the coordinator's Init): the balance, and the restored
  // transfers to re-send before anything new.
  void Begin(const protocol::Init& init) override;
  // Every rank has begun: transfers flow from `now` (and --kill's time
  // counts from it).
  void Go(Clock::time_point now) override;
  // A frame from rank `from` on the bank channels.
  void OnFrame(int from, std::string_view bytes) override;
  // A control message meant for a branch; false if it is not one (then it is
  // the coordinator's).
  bool OnControl(const protocol::Control& message) override;
  // Sends the transfers that fell due, the counts the status line wants,
  // and fires --kill at its time. True if it sent anything.
  bool Tick(Clock::time_point now) override;
  // Flushes the log (the end of a run).
  void Finish() override;
  // Rank 0: the coordinator's verdict on a complete snapshot, into this
  // rank's log (for `cutline check --logs`).
  void LogVerdict(SnapshotId id, const apps::Verdict& verdict);

  // The final balance went to the coordinator: this rank has nothing left
  // to do.
  bool final_sent() const override { return final_sent_; }

 private:
  // When this rank recorded its state for a snapshot, and when each incoming
  // channel's marker came (the moment that channel was closed).
  struct Timing {
    std::int64_t recorded_us = 0;
    std::vector<std::int64_t> marker_us;  // by incoming channel index
  };

  ChannelIndex In(int sender) const {
    return static_cast<ChannelIndex>(sender < rank_ ? sender : sender - 1);
  }
  // The outgoing channel to rank `to` (numbered as the incoming ones).
  ChannelIndex Out(int to) const { return In(to); }
  int SenderOf(ChannelIndex c) const {
    return static_cast<int>(c) < rank_ ? static_cast<int>(c) : static_cast<int>(c) + 1;
  }
  void SendTransfer(int to, Amount amount);
  // A new message of the application (a transfer, a job, a request, a
  // grant): sent and counted. A restored channel's messages are sent again
  // with SendTransfer alone: the run that sent them counted them.
  void SendNew(int to, Amount word);
  void SendMarker(int to, SnapshotId id);
  // The rules' stamp or count as the bytes of `Message` (protocol.h's
  // TransferStamp or MarkerCount).
  template <class Message>
  std::string Word(const Result<std::uint64_t>& word) const;
  // A refusal the rank lives with (true): a marker of a snapshot given up,
  // or a snapshot Lai-Yang can no longer take right (the coordinator is
  // asked to give it up). False for a refusal that is a bug.
  bool Refused(const Reply& reply);
  void OnMarkerFrame(int from, SnapshotId id, std::string_view payload);
  // Channel `c` of snapshot `id` closed now (for the part's timings).
  void Closed(SnapshotId id, ChannelIndex c);
  // A delivered transfer through the rules, before it is applied.
  void Watch(int from, std::uint64_t stamp, Amount amount);
  [[noreturn]] void Die();
  void AfterStep(SnapshotId id, const Step& step, bool started_here);
  void Recorded(SnapshotId id, bool started_here);
  bool MaybeTransfer(Clock::time_point now);
  // The state word changed now (the truth the detectors are judged by).
  void Changed() { changed_us_ = EpochMicros(); }
  // What the application's rank work may do here (apps/rank_work.h).
  Amount state() const override { return balance_; }
  void Send(int to, Amount word) override;
  void Local() override;
  int RandomPeer() override;
  std::uint64_t Random() override { return rng_(); }
  void CheckDrained();
  void BeginFlush();
  void MaybeFinal();

  const NodeOptions& o_;
  const int rank_;
  const int n_;
  Transport& transport_;
  // The algorithm's rules at this rank, from the registry (rank_agent.h),
  // and their rounds if they stop the world (else none).
  std::unique_ptr<algorithms::RankAgent> agent_;
  algorithms::WorldRounds* const world_;
  // The agent, for a message of `kind` that only markers' rules take; the
  // rounds, for one of stopping the world. Either faults if the algorithm
  // sends no such message.
  algorithms::RankAgent& agent(std::string_view kind);
  algorithms::WorldRounds& world(std::string_view kind);
  bool paused() const { return world_ != nullptr && world_->paused(); }
  std::mt19937_64 rng_;
  std::unique_ptr<EventLog> log_;  // --log-dir

  Amount balance_ = 0;
  bool sending_ = false;  // transfers flow (not before Begin, not while stopped)
  bool stopped_ = false;  // Stop came: flushing
  bool final_sent_ = false;
  int ends_received_ = 0;
  std::uint64_t transfers_sent_ = 0;
  std::map<SnapshotId, Timing> timing_;  // snapshots this rank is taking part in
  Clock::time_point start_;
  Clock::time_point next_transfer_;
  Clock::time_point next_counts_;
  // Logged messages (transfers and markers) per channel, for the log's "n".
  std::vector<std::uint64_t> out_n_, in_n_;

  // What the application does between messages (apps/rank_work.h); none
  // for a conserved one, whose transfers MaybeTransfer paces.
  std::unique_ptr<apps::RankWork> work_;
  std::int64_t changed_us_ = 0;
};

}  // namespace cutline::runtime
