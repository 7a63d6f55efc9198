#include "runtime/transport.h"

#include <algorithm>

namespace cutline::runtime {

namespace {
// The one tag of the ctl communicator, and of the bank's without --reorder
// (see transport.h); under it, a bank frame's tag is its lane.
constexpr int kTag = 0;

int TagOf(Lane lane) { return static_cast<int>(lane); }

// The heap's order: the envelope due later (then arrived later) below.
bool DueLater(const Envelope& a, const Envelope& b) {
  return a.ready != b.ready ? a.ready > b.ready : a.arrival > b.arrival;
}
}  // namespace

Transport::Transport(MPI_Comm bank, MPI_Comm ctl, Micros link_delay, Reorder reorder)
    : bank_(bank), ctl_(ctl), link_delay_(link_delay), reorder_(reorder), rng_(reorder.seed) {}

void Transport::SendFrame(int to, std::string bytes, Lane lane) {
  Send(bank_, to, reorder_.most_held.count() > 0 ? TagOf(lane) : kTag, std::move(bytes));
}

void Transport::Send(MPI_Comm comm, int to, int tag, std::string bytes) {
  // The buffer must live until MPI is done with it: kept with its request.
  auto buffer = std::make_unique<std::string>(std::move(bytes));
  MPI_Request request;
  MPI_Isend(buffer->data(), static_cast<int>(buffer->size()), MPI_BYTE, to, tag, comm, &request);
  in_flight_.emplace_back(request, std::move(buffer));
}

protocol::Control Transport::ReceiveControl(int from) {
  MPI_Status status;
  MPI_Probe(from, kTag, ctl_, &status);
  int size = 0;
  MPI_Get_count(&status, MPI_BYTE, &size);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  MPI_Recv(bytes.data(), size, MPI_BYTE, from, kTag, ctl_, MPI_STATUS_IGNORE);
  return protocol::DecodeControl(bytes);
}

Clock::time_point Transport::DueTime(Clock::time_point now, int source, Lane lane) {
  Clock::time_point due = now + link_delay_;
  if (reorder_.most_held.count() == 0 || lane == Lane::kMarkers) return due;
  auto k = static_cast<std::size_t>(source);
  if (last_transfer_due_.size() <= k) last_transfer_due_.resize(k + 1);
  if (lane == Lane::kBehind) return std::max(due, last_transfer_due_[k]);
  std::uniform_int_distribution<std::int64_t> hold(0, reorder_.most_held.count());
  due += Micros(hold(rng_));
  last_transfer_due_[k] = std::max(last_transfer_due_[k], due);
  return due;
}

bool Transport::PollOne(MPI_Comm comm, bool control) {
  // Any tag on the bank: its lanes, under --reorder. Probing every tag at
  // once keeps each sender's order of arrival; the hold-back alone reorders.
  const int tag = control ? kTag : MPI_ANY_TAG;
  bool any = false;
  for (;;) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &flag, &status);
    if (!flag) return any;
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    MPI_Recv(bytes.data(), size, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm,
             MPI_STATUS_IGNORE);
    const Clock::time_point now = Clock::now();
    const Clock::time_point ready =
        control ? now + link_delay_
                : DueTime(now, status.MPI_SOURCE, static_cast<Lane>(status.MPI_TAG));
    held_.push_back({ready, status.MPI_SOURCE, control, std::move(bytes), arrivals_++});
    std::push_heap(held_.begin(), held_.end(), DueLater);
    any = true;
  }
}

bool Transport::Poll() {
  bool any = PollOne(bank_, false);
  any |= PollOne(ctl_, true);
  return any;
}

std::optional<Envelope> Transport::NextDue() {
  if (held_.empty() || held_.front().ready > Clock::now()) return std::nullopt;
  std::pop_heap(held_.begin(), held_.end(), DueLater);
  Envelope e = std::move(held_.back());
  held_.pop_back();
  return e;
}

void Transport::Reap() {
  while (!in_flight_.empty()) {
    int done = 0;
    MPI_Test(&in_flight_.front().first, &done, MPI_STATUS_IGNORE);
    if (!done) break;
    in_flight_.pop_front();
  }
}

void Transport::Flush() {
  for (auto& [request, buffer] : in_flight_) MPI_Wait(&request, MPI_STATUS_IGNORE);
  in_flight_.clear();
}

}  // namespace cutline::runtime
