// Two bank branches as two processes (fork) joined by two pipes, one each
// way: everything between them is bytes in the wire format of
// <cutline/wire.h>, each frame behind its length on the byte stream. The
// parent starts snapshots (Chandy-Lamport); the child sends its finished
// parts back over its pipe, encoded with wire::EncodePart, and the parent
// collects them. Exits 1 unless every snapshot adds up to the bank's total.
#include <sys/wait.h>
#include <unistd.h>

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cutline/collector.h>
#include <cutline/snapshot_agent.h>
#include <cutline/wire.h>

namespace {

using Amount = std::int64_t;
using Agent = cutline::SnapshotAgent<Amount, Amount>;
using Part = Agent::Part;
constexpr Amount kTotal = 1000;
constexpr int kSnapshots = 20;

std::string AmountBytes(Amount a) { return std::to_string(a); }
std::optional<Amount> AmountOf(std::string_view bytes) {
  Amount a = 0;
  auto [end, ec] = std::from_chars(bytes.data(), bytes.data() + bytes.size(), a);
  if (ec != std::errc() || end != bytes.data() + bytes.size()) return std::nullopt;
  return a;
}

[[noreturn]] void Die(const std::string& why) {
  std::cerr << "pipes_bank (" << getpid() << "): " << why << "\n";
  std::exit(1);
}

// One end of a pipe pair: frames out behind their length, frames in from
// whatever the pipe delivered so far.
class Link {
 public:
  Link(int in, int out) : in_(in), out_(out) {}
  void Send(std::string_view frame) {
    std::string bytes;
    if (!cutline::wire::AppendLengthPrefixed(&bytes, frame)) Die("frame too long");
    for (std::size_t at = 0; at < bytes.size();) {
      ssize_t n = write(out_, bytes.data() + at, bytes.size() - at);
      if (n <= 0) Die("write failed");
      at += static_cast<std::size_t>(n);
    }
  }
  void Close() { close(out_); }
  // The next frame, or nothing at the end of the stream.
  std::optional<std::string> Receive() {
    for (;;) {
      cutline::wire::StreamFrame f = cutline::wire::NextFrame(have_);
      if (f.status == cutline::wire::StreamStatus::kTooLong) Die("corrupt stream");
      if (f.status == cutline::wire::StreamStatus::kFrame) {
        std::string frame(f.frame);
        have_.erase(0, f.consumed);
        return frame;
      }
      char buf[4096];
      ssize_t n = read(in_, buf, sizeof buf);
      if (n < 0) Die("read failed");
      if (n == 0) {
        if (!have_.empty()) Die("stream ends inside a frame");
        return std::nullopt;
      }
      have_.append(buf, static_cast<std::size_t>(n));
    }
  }

 private:
  int in_, out_;
  std::string have_;
};

// One branch: its balance and agent, and what it does with each frame.
struct Branch {
  Amount balance;
  Agent agent{1, 1};  // one channel in, one out
  Link link;

  void Transfer(Amount amount) {
    balance -= amount;
    link.Send(cutline::wire::EncodeApplication(AmountBytes(amount)));
  }
  // Handles one frame from the other branch; parts go to `collect`.
  template <class Collect>
  void OnFrame(std::string_view bytes, Collect&& collect, bool echo) {
    std::optional<cutline::wire::Frame> frame = cutline::wire::Decode(bytes);
    if (!frame) Die("bytes that are no frame");
    if (frame->kind == cutline::wire::FrameKind::kPart) {
      auto decoded = cutline::wire::DecodePart<Amount, Amount>(frame->payload, AmountOf, AmountOf);
      if (!decoded) Die("a part that does not decode");
      return collect(decoded->snapshot, decoded->from, std::move(decoded->part));
    }
    if (frame->kind == cutline::wire::FrameKind::kMarker) {
      Handle(agent.OnMarker(frame->snapshot, 0, balance), collect);
      return;
    }
    std::optional<Amount> amount = AmountOf(frame->payload);
    if (!amount) Die("a transfer that does not decode");
    Handle(agent.OnMessage(0, cutline::NoStamp{}, *amount, balance), collect);
    balance += *amount;
    if (echo && *amount > 1) Transfer(*amount / 2);  // pass half back
  }
  template <class Collect>
  void Handle(const cutline::Reply& r, Collect&& collect) {
    if (!r.ok()) Die(std::string("refused: ") + std::string(cutline::ToString(r.error)));
    if (r.record_state) link.Send(cutline::wire::EncodeMarker(r.snapshot));
    while (auto done = agent.TakeFinished()) collect(done->id, 0, std::move(done->part));
  }
};

// The child: answers transfers, passes markers on, sends its parts home.
int Child(int in, int out) {
  Branch b{kTotal / 2, Agent(1, 1), Link(in, out)};
  auto send_home = [&](cutline::SnapshotId id, cutline::ProcessIndex, Part part) {
    std::optional<std::string> bytes =
        cutline::wire::EncodePart(id, 1, part, AmountBytes, AmountBytes);
    if (!bytes) Die("a part too large to encode");
    b.link.Send(*bytes);
  };
  while (std::optional<std::string> frame = b.link.Receive()) b.OnFrame(*frame, send_home, true);
  b.link.Close();
  return 0;
}

// The parent: sends transfers and starts snapshots, then reads the child's
// answers and parts until its stream ends, and checks every snapshot.
int Parent(int in, int out, pid_t child) {
  Branch b{kTotal / 2, Agent(1, 1), Link(in, out)};
  cutline::SnapshotCollector<Amount, Amount> collector(std::vector<cutline::PartShape>{{1, 1}, {1, 1}});
  int complete = 0, wrong = 0;
  auto collect = [&](cutline::SnapshotId id, cutline::ProcessIndex from, Part part) {
    cutline::PartAdded added = collector.Add(id, from, std::move(part));
    if (added == cutline::PartAdded::kPending) return;
    if (added != cutline::PartAdded::kComplete) Die(std::string(cutline::ToString(added)));
    Amount sum = 0;
    std::vector<Part> parts = *collector.Take(id);
    for (const Part& p : parts) {
      sum += p.state;
      for (const auto& channel : p.channels) {
        for (Amount a : channel) sum += a;
      }
    }
    ++complete;
    if (sum != kTotal) {
      std::cerr << "snapshot " << id << " adds up to " << sum << "\n";
      ++wrong;
    }
  };
  for (int s = 1; s <= kSnapshots; ++s) {
    for (int t = 0; t < 5; ++t) b.Transfer(1 + (s * 7 + t * 3) % 13);
    b.Handle(b.agent.Start(static_cast<cutline::SnapshotId>(s), b.balance), collect);
  }
  b.link.Close();  // the child ends its stream once it has read ours
  while (std::optional<std::string> frame = b.link.Receive()) b.OnFrame(*frame, collect, false);
  int status = 0;
  waitpid(child, &status, 0);
  std::cout << complete << " of " << kSnapshots << " snapshots complete, " << wrong
            << " not adding up to " << kTotal << "\n";
  return complete == kSnapshots && wrong == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0
             ? 0 : 1;
}

}  // namespace

int main() {
  int down[2], up[2];  // parent -> child, child -> parent
  if (pipe(down) != 0 || pipe(up) != 0) Die("pipe failed");
  pid_t child = fork();
  if (child < 0) Die("fork failed");
  if (child == 0) {
    close(down[1]);
    close(up[0]);
    return Child(down[0], up[1]);
  }
  close(down[0]);
  close(up[1]);
  return Parent(up[0], down[1], child);
}
