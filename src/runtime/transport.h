// A rank's transport over MPI: sending without blocking, polling both
// communicators, and holding every arrival back for --link-delay. It moves
// bytes; what they mean is protocol.h's and the branch's business.
//   bank: the channels. Transfers and markers share it AND (without
//         --reorder) one tag, so that
//         MPI's non-overtaking rule makes each ordered pair of ranks a FIFO
//         channel; a marker on a tag of its own could pass the transfers
//         sent before it, and the snapshot would be wrong.
//   ctl:  control and collection, where order against transfers does not
//         matter.
//
// --reorder makes the channels stop being FIFO, on purpose, to show which
// algorithms need them: each lane of a channel (transfers, markers, the end
// of the stream) goes on a tag of its own, and every arriving transfer is
// held back a random time (up to kMostHeldBack, drawn from --seed), so that
// a later transfer, and any marker, can overtake it. The end of a stream
// is never handed over before a transfer that came ahead of it from the
// same sender: a rank's final balance must still count every transfer.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "runtime/epoch.h"
#include "runtime/options.h"
#include "runtime/protocol.h"

namespace cutline::runtime {

// The longest a transfer is held back under --reorder: well above the time
// between two transfers on a channel at the rates a run uses, so that
// overtaking is common, and far below any snapshot timeout.
inline constexpr Micros kMostHeldBack{2000};

// Which stream of a channel a frame travels in. Without --reorder the three
// are one stream (one tag, FIFO); with it, each is a tag of its own.
enum class Lane : std::uint8_t {
  kTransfers,  // held back a random time under --reorder
  kMarkers,    // handed over as soon as the link delay has passed
  kBehind,     // the end of the stream: behind every transfer before it
};

// --reorder's hold-back; a zero `most_held` leaves the channels FIFO.
struct Reorder {
  Micros most_held{0};
  std::uint64_t seed = 0;
};

struct Envelope {
  Clock::time_point ready;  // when the link delay (and any hold-back) has passed
  int source;
  bool control;  // from ctl; otherwise a bank frame
  std::string bytes;
  std::uint64_t arrival = 0;  // the order it arrived in
};

class Transport {
 public:
  Transport(MPI_Comm bank, MPI_Comm ctl, Micros link_delay, Reorder reorder = {});
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // A frame on the channel to `to` (cutline/wire.h's bytes), in `lane`.
  void SendFrame(int to, std::string bytes, Lane lane = Lane::kTransfers);
  void SendControl(int to, const protocol::Control& message) {
    Send(ctl_, to, 0, protocol::Encode(message));
  }
  // Blocks for the first control message from `from` (the Init, before
  // anything else can have been sent to this rank).
  protocol::Control ReceiveControl(int from);

  // Takes everything that arrived on both communicators into the queue of
  // held-back messages. True if anything came.
  bool Poll();
  // The message due first whose time has come, if any; of two due at once,
  // the one that arrived first. Without --reorder all messages wait the
  // same, so each sender's order is kept.
  std::optional<Envelope> NextDue();
  // Frees the buffers of sends that completed.
  void Reap();
  // Waits for every send to complete.
  void Flush();

 private:
  void Send(MPI_Comm comm, int to, int tag, std::string bytes);
  bool PollOne(MPI_Comm comm, bool control);
  // When a bank frame that arrived now in `lane` from `source` is due.
  Clock::time_point DueTime(Clock::time_point now, int source, Lane lane);

  MPI_Comm bank_;
  MPI_Comm ctl_;
  Micros link_delay_;
  Reorder reorder_;
  std::mt19937_64 rng_;
  std::deque<std::pair<MPI_Request, std::unique_ptr<std::string>>> in_flight_;
  // Held back, as a heap: the earliest due (then the first arrived) on top.
  std::vector<Envelope> held_;
  std::uint64_t arrivals_ = 0;
  // Under --reorder, by source: when its latest transfer falls due (an end
  // of stream waits for it).
  std::vector<Clock::time_point> last_transfer_due_;
};

}  // namespace cutline::runtime
