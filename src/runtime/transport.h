// A rank's transport over MPI: sending without blocking, polling both
// communicators, and holding every arrival back for --link-delay. It moves
// bytes; what they mean is protocol.h's and the branch's business.
//   bank: the channels. Transfers and markers share it AND one tag, so that
//         MPI's non-overtaking rule makes each ordered pair of ranks a FIFO
//         channel; a marker on a tag of its own could pass the transfers
//         sent before it, and the snapshot would be wrong.
//   ctl:  control and collection, where order against transfers does not
//         matter.
#pragma once

#include <mpi.h>

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "runtime/options.h"
#include "runtime/protocol.h"

namespace cutline::runtime {

using Clock = std::chrono::steady_clock;

struct Envelope {
  Clock::time_point ready;  // when the link delay has passed
  int source;
  bool control;  // from ctl; otherwise a bank frame
  std::string bytes;
};

class Transport {
 public:
  Transport(MPI_Comm bank, MPI_Comm ctl, Micros link_delay)
      : bank_(bank), ctl_(ctl), link_delay_(link_delay) {}
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // A frame on the channel to `to` (cutline/wire.h's bytes).
  void SendFrame(int to, std::string bytes) { Send(bank_, to, std::move(bytes)); }
  void SendControl(int to, const protocol::Control& message) {
    Send(ctl_, to, protocol::Encode(message));
  }
  // Blocks for the first control message from `from` (the Init, before
  // anything else can have been sent to this rank).
  protocol::Control ReceiveControl(int from);

  // Takes everything that arrived on both communicators into the queue of
  // held-back messages. True if anything came.
  bool Poll();
  // The oldest message whose link delay has passed, if any. All messages
  // wait the same, so each sender's order is kept.
  std::optional<Envelope> NextDue();
  // Frees the buffers of sends that completed.
  void Reap();
  // Waits for every send to complete.
  void Flush();

 private:
  void Send(MPI_Comm comm, int to, std::string bytes);
  bool PollOne(MPI_Comm comm, bool control);

  MPI_Comm bank_;
  MPI_Comm ctl_;
  Micros link_delay_;
  std::deque<std::pair<MPI_Request, std::unique_ptr<std::string>>> in_flight_;
  std::deque<Envelope> arrived_;  // in arrival order
};

}  // namespace cutline::runtime
