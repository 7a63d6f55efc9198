#include "runtime/event_log.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "runtime/fault.h"

namespace cutline::runtime {

EventLog::EventLog(const std::string& dir, int rank, int ranks, apps::App app,
                   std::string_view topology)
    : rank_(rank), clock_(static_cast<std::size_t>(ranks), 0) {
  std::error_code ignored;  // if it cannot be made, opening the file says why
  std::filesystem::create_directories(dir, ignored);
  std::string path = fmt::format("{}/rank-{}.jsonl", dir, rank);
  file_ = std::fopen(path.c_str(), "w");
  if (!file_) {
    throw Fault(Status::Error(Code::kRuntimeCannotWriteLog, path, std::strerror(errno)));
  }
  // Buffered: a log line per message would otherwise cost a system call. A
  // rank that kills itself (--kill) flushes first; one that really crashes
  // loses its last lines, and the reader drops a line cut short.
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 16);
  // The host it ran on: across hosts, which rank ran where.
  char host[256] = "";
  ::gethostname(host, sizeof host - 1);
  // The header names the application but the bank, since a log that names
  // none reads as the bank's (App::NamedOrBank), as logs did before there
  // were others; a dataflow's also names its topology.
  std::string which = app == apps::App::kBank ? "" : fmt::format(",\"app\":\"{}\"", app.name());
  if (!topology.empty()) which += fmt::format(",\"topology\":\"{}\"", topology);
  fmt::print(file_, "{{\"e\":\"rank\",\"rank\":{},\"ranks\":{},\"host\":{}{}}}\n", rank, ranks,
             nlohmann::json(std::string(host)).dump(), which);
}

EventLog::~EventLog() {
  if (file_) std::fclose(file_);
}

void EventLog::Merge(Reader& clock) {
  for (auto& c : clock_) c = std::max(c, clock.U64());
}

std::string EventLog::Clock() const {
  Bytes b;
  for (auto c : clock_) b.U64(c);
  return b.str();
}

void EventLog::Write(const std::string& head) {
  std::string line = head + ",\"vc\":[";
  for (std::size_t i = 0; i < clock_.size(); ++i) {
    if (i) line += ',';
    line += std::to_string(clock_[i]);
  }
  line += "]}\n";
  std::fwrite(line.data(), 1, line.size(), file_);
}

void EventLog::Start(Amount balance) {
  Tick();
  Write(fmt::format("{{\"e\":\"start\",\"balance\":{}", balance));
}

std::string EventLog::Send(int to, std::uint64_t n, Amount amount) {
  Tick();
  Write(fmt::format("{{\"e\":\"send\",\"to\":{},\"n\":{},\"amount\":{}", to, n, amount));
  return Clock();
}

std::string EventLog::SendMarker(int to, std::uint64_t n, SnapshotId id) {
  Tick();
  Write(fmt::format("{{\"e\":\"send_marker\",\"to\":{},\"n\":{},\"snapshot\":{}", to, n, id));
  return Clock();
}

void EventLog::Receive(int from, std::uint64_t n, Amount amount, Reader& clock) {
  Merge(clock);
  Tick();
  Write(fmt::format("{{\"e\":\"receive\",\"from\":{},\"n\":{},\"amount\":{}", from, n, amount));
}

void EventLog::ReceiveMarker(int from, std::uint64_t n, SnapshotId id, Reader& clock) {
  Merge(clock);
  Tick();
  Write(fmt::format("{{\"e\":\"receive_marker\",\"from\":{},\"n\":{},\"snapshot\":{}", from, n,
                    id));
}

void EventLog::Record(SnapshotId id, Amount balance, std::string_view cause, bool aligned) {
  Tick();
  Write(fmt::format("{{\"e\":\"record\",\"snapshot\":{},\"balance\":{},\"cause\":\"{}\"{}", id,
                    balance, cause, aligned ? ",\"aligned\":true" : ""));
}

void EventLog::Overtaken(int to, std::uint64_t n, std::uint64_t by) {
  Tick();
  Write(fmt::format("{{\"e\":\"overtaken\",\"to\":{},\"n\":{},\"by\":{}", to, n, by));
}

void EventLog::OvertakenOnArrival(int from, std::uint64_t n, std::uint64_t by, Reader& clock) {
  Merge(clock);
  Tick();
  Write(fmt::format("{{\"e\":\"overtaken\",\"from\":{},\"n\":{},\"by\":{}", from, n, by));
}

namespace {
// {"1":[5,7],"2":[]}: each peer's list.
std::string ByPeerJson(const EventLog::ByPeer& lists) {
  std::string out;
  for (const auto& [peer, amounts] : lists) {
    if (!out.empty()) out += ',';
    out += fmt::format("\"{}\":[{}]", peer, fmt::join(amounts, ","));
  }
  return out;
}
}  // namespace

void EventLog::Part(SnapshotId id, Amount balance, const ByPeer& channels, const ByPeer& sent) {
  Tick();
  Write(fmt::format("{{\"e\":\"part\",\"snapshot\":{},\"balance\":{},\"channels\":{{{}}}{}", id,
                    balance, ByPeerJson(channels),
                    sent.empty() ? "" : fmt::format(",\"sent\":{{{}}}", ByPeerJson(sent))));
}

void EventLog::Local(Amount state) {
  Tick();
  Write(fmt::format("{{\"e\":\"local\",\"state\":{}", state));
}

void EventLog::Verdict(SnapshotId id, const apps::Verdict& verdict) {
  Tick();
  Write(fmt::format("{{\"e\":\"verdict\",\"snapshot\":{},\"holds\":{},\"branches\":[{}],"
                    "\"channels\":[{}]",
                    id, verdict.holds, fmt::join(verdict.branches, ","),
                    fmt::join(verdict.channels, ",")));
}

void EventLog::Flush() { std::fflush(file_); }

}  // namespace cutline::runtime
