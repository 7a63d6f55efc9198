#include "runtime/transport.h"

namespace cutline::runtime {

namespace {
constexpr int kTag = 0;  // one tag for everything: see transport.h
}  // namespace

void Transport::Send(MPI_Comm comm, int to, std::string bytes) {
  // The buffer must live until MPI is done with it: kept with its request.
  auto buffer = std::make_unique<std::string>(std::move(bytes));
  MPI_Request request;
  MPI_Isend(buffer->data(), static_cast<int>(buffer->size()), MPI_BYTE, to, kTag, comm, &request);
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

bool Transport::PollOne(MPI_Comm comm, bool control) {
  bool any = false;
  for (;;) {
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kTag, comm, &flag, &status);
    if (!flag) return any;
    int size = 0;
    MPI_Get_count(&status, MPI_BYTE, &size);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    MPI_Recv(bytes.data(), size, MPI_BYTE, status.MPI_SOURCE, kTag, comm, MPI_STATUS_IGNORE);
    // Held back for the link delay from its arrival.
    arrived_.push_back({Clock::now() + link_delay_, status.MPI_SOURCE, control, std::move(bytes)});
    any = true;
  }
}

bool Transport::Poll() {
  bool any = PollOne(bank_, false);
  any |= PollOne(ctl_, true);
  return any;
}

std::optional<Envelope> Transport::NextDue() {
  if (arrived_.empty() || arrived_.front().ready > Clock::now()) return std::nullopt;
  Envelope e = std::move(arrived_.front());
  arrived_.pop_front();
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
