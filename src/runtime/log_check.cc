#include "runtime/log_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <queue>
#include <string_view>
#include <type_traits>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "apps/app.h"
#include "history/history.h"
#include "apps/bank/money.h"
#include "check/shiviz.h"
#include "store/store.h"

namespace cutline::runtime {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct LogEvent {
  std::uint32_t rank = 0;
  std::size_t index = 0;  // position in its rank's log
  json body;
  std::uint64_t clock_sum = 0;
  std::size_t line = 0;  // in its rank's file, from 1
};

struct Logs {
  std::uint32_t ranks = 0;
  std::vector<std::vector<LogEvent>> by_rank;
  std::vector<std::string> names;  // each rank's file name, for messages
};

// The fields each kind of line must have, as numbers (docs/runtime.md, the
// log's format); a kind not listed is skipped by the checker.
struct Shape {
  const char* kind;
  std::vector<const char*> numbers;
};
const std::vector<Shape>& Shapes() {
  static const std::vector<Shape> shapes = {
      {"start", {"balance"}},
      {"send", {"to", "n", "amount"}},
      {"send_marker", {"to", "n", "snapshot"}},
      {"receive", {"from", "n", "amount"}},
      {"receive_marker", {"from", "n", "snapshot"}},
      {"record", {"snapshot", "balance"}},
      {"part", {"snapshot", "balance"}},
      {"local", {"state"}},
      {"verdict", {"snapshot"}},
  };
  return shapes;
}

// Empty if `body` has the fields of its kind, with a peer in 0..ranks-1
// other than `rank`; else what is wrong.
std::string ShapeError(const json& body, std::uint32_t rank, std::uint32_t ranks) {
  const std::string kind = body["e"];
  for (const Shape& shape : Shapes()) {
    if (kind != shape.kind) continue;
    for (const char* field : shape.numbers) {
      if (!body.contains(field) || !body[field].is_number_unsigned()) {
        return fmt::format("a \"{}\" line without a whole number \"{}\"", kind, field);
      }
    }
    for (const char* peer : {"to", "from"}) {
      if (!body.contains(peer)) continue;
      const std::uint64_t p = body[peer];
      if (p >= ranks || p == rank) {
        return fmt::format("a \"{}\" line with \"{}\": {}, not another of {} ranks", kind,
                           peer, p, ranks);
      }
    }
    if (kind == "record" && !(body.contains("cause") && body["cause"].is_string())) {
      return "a \"record\" line without its \"cause\"";
    }
    if (kind == "part" && !(body.contains("channels") && body["channels"].is_object())) {
      return "a \"part\" line without its \"channels\"";
    }
    if (kind == "verdict" && !(body.contains("holds") && body["holds"].is_boolean() &&
                               body.contains("branches") && body["branches"].is_array() &&
                               body.contains("channels") && body["channels"].is_array())) {
      return "a \"verdict\" line without \"holds\", \"branches\" and \"channels\"";
    }
  }
  return "";
}

// DIR's rank-N.jsonl files by rank; nothing, with a one-line reason, if DIR
// is not a folder or holds none. Both readers of the logs start here.
std::optional<std::map<std::uint32_t, fs::path>> LogFiles(const std::string& dir,
                                                          std::string* error) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    *error = fmt::format("{} is not a folder of logs", dir);
    return std::nullopt;
  }
  std::map<std::uint32_t, fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("rank-", 0) != 0 || entry.path().extension() != ".jsonl") continue;
    std::string number = name.substr(5, name.size() - 5 - 6);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
    files[static_cast<std::uint32_t>(std::stoul(number))] = entry.path();
  }
  if (files.empty()) {
    *error = fmt::format("{} holds no rank-N.jsonl logs (see cutline cluster --log-dir)", dir);
    return std::nullopt;
  }
  return files;
}

std::optional<Logs> ReadLogs(const std::string& dir, std::string* error) {
  auto found = LogFiles(dir, error);
  if (!found) return std::nullopt;
  const std::map<std::uint32_t, fs::path>& files = *found;
  Logs logs;
  for (const auto& [rank, path] : files) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));
    std::vector<LogEvent> events;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      const std::size_t line_no = i + 1;
      json body = json::parse(lines[i], nullptr, false);
      if (body.is_discarded() || !body.is_object() || !body.contains("e") ||
          !body["e"].is_string()) {
        // The last line cut short: the rank died while writing it. Anywhere
        // else the log was damaged, and whatever follows cannot be trusted
        // to be checked: say where.
        if (i + 1 == lines.size()) break;
        *error = fmt::format("{}:{} is not a line of a cutline log", path.string(), line_no);
        return std::nullopt;
      }
      if (line_no == 1) {
        if (body["e"] != "rank" || body["rank"] != rank || !body["ranks"].is_number_unsigned()) {
          *error = fmt::format("{} does not begin as rank {}'s log", path.string(), rank);
          return std::nullopt;
        }
        std::uint32_t ranks = body["ranks"];
        if (logs.ranks != 0 && logs.ranks != ranks) {
          *error = fmt::format("{} belongs to a run of {} ranks, not {}", path.string(), ranks,
                               logs.ranks);
          return std::nullopt;
        }
        logs.ranks = ranks;
        continue;
      }
      if (std::string wrong = ShapeError(body, rank, logs.ranks); !wrong.empty()) {
        *error = fmt::format("{}:{}: {}", path.string(), line_no, wrong);
        return std::nullopt;
      }
      LogEvent e{rank, events.size(), body, 0, line_no};
      const json& vc = body.contains("vc") ? body["vc"] : json::array();
      if (!vc.is_array()) {
        *error = fmt::format("{}:{}: \"vc\" is not a vector clock", path.string(), line_no);
        return std::nullopt;
      }
      for (const json& c : vc) {
        if (!c.is_number_unsigned()) {
          *error = fmt::format("{}:{}: \"vc\" is not a vector clock", path.string(), line_no);
          return std::nullopt;
        }
        e.clock_sum += c.get<std::uint64_t>();
      }
      events.push_back(std::move(e));
    }
    // An empty log (or a header alone) is a rank killed before its buffer
    // was first written: it is checked as a rank that logged nothing.
    if (logs.by_rank.size() <= rank) logs.by_rank.resize(rank + 1);
    logs.by_rank[rank] = std::move(events);
  }
  if (logs.ranks == 0) {
    *error = fmt::format("every log in {} is empty: no rank wrote its log", dir);
    return std::nullopt;
  }
  logs.by_rank.resize(std::max<std::size_t>(logs.by_rank.size(), logs.ranks));
  for (std::uint32_t r = 0; r < logs.by_rank.size(); ++r) {
    logs.names.push_back(fmt::format("rank-{}.jsonl", r));
  }
  if (files.size() != logs.ranks || files.rbegin()->first != logs.ranks - 1) {
    *error = fmt::format("{} holds {} logs, but the run had {} ranks", dir, files.size(),
                         logs.ranks);
    return std::nullopt;
  }
  return logs;
}

// One order of all events that every message respects (a send before its
// receive): by the sum of the vector clock, which grows along every causal
// path, then by rank and position.
std::vector<const LogEvent*> CausalOrder(const Logs& logs) {
  std::vector<const LogEvent*> all;
  for (const auto& events : logs.by_rank) {
    for (const LogEvent& e : events) all.push_back(&e);
  }
  std::sort(all.begin(), all.end(), [](const LogEvent* a, const LogEvent* b) {
    return std::tie(a->clock_sum, a->rank, a->index) < std::tie(b->clock_sum, b->rank, b->index);
  });
  return all;
}

}  // namespace

// ---- The streaming check (CheckLogs) ----------------------------------
//
// Each rank's log is read line by line and the logs are merged by vector
// clock sum (each log grows in it; a send's sum is below its receipt's, so
// the merge is a causal order: the order the old whole-history sort gave,
// ties broken by rank). The merge replays every balance and, per snapshot
// still open, what the checker (src/check/consistency_checker.h) would
// judge, with its words; a snapshot is judged and forgotten once its last
// part is read.

namespace {

using cutline::Amount;
using apps::Money;
using sim::ChannelId;
using sim::Seq;

enum class Kind : std::uint8_t {
  kStart, kSend, kSendMarker, kReceive, kReceiveMarker, kRecord, kPart, kLocal, kVerdict, kOther
};

// One log line, parsed.
struct Line {
  Kind kind = Kind::kOther;
  std::uint32_t peer = 0;      // to / from
  std::uint64_t n = 0;         // the message's number on its channel
  SnapshotId snapshot = 0;
  Amount amount = 0;           // a transfer's amount, or a balance
  bool by_marker = false;      // record
  std::vector<std::pair<std::uint32_t, std::vector<Amount>>> channels;  // part
  apps::Verdict verdict;       // verdict
  std::uint64_t sum = 0;       // of the vector clock
  std::size_t line = 0;        // in its file, from 1
};

// The fast path: the exact shape EventLog writes (src/runtime/event_log.cc).
// Anything else (another field order, spaces, a number out of range, a
// wrong peer) goes to the slow path, which says what is wrong.
class Cursor {
 public:
  explicit Cursor(std::string_view s) : p_(s.data()), end_(s.data() + s.size()) {}
  bool Lit(std::string_view lit) {
    if (static_cast<std::size_t>(end_ - p_) < lit.size() ||
        std::memcmp(p_, lit.data(), lit.size()) != 0) {
      return false;
    }
    p_ += lit.size();
    return true;
  }
  bool Char(char c) {
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }
  bool Peek(char c) const { return p_ != end_ && *p_ == c; }
  // A whole number as JSON writes it, at most 2^63 - 1.
  bool Number(std::uint64_t* out) {
    const char* start = p_;
    std::uint64_t v = 0;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') {
      if (p_ - start >= 18) return false;  // 19 digits and more: the slow path
      v = v * 10 + static_cast<std::uint64_t>(*p_ - '0');
      ++p_;
    }
    if (p_ == start || (*start == '0' && p_ - start > 1)) return false;
    *out = v;
    return true;
  }
  bool Field(std::string_view name, std::uint64_t* out) {
    return Char(',') && Char('"') && Lit(name) && Lit("\":") && Number(out);
  }
  bool AtEnd() const { return p_ == end_; }

 private:
  const char* p_;
  const char* end_;
};

bool FastParse(std::string_view s, std::uint32_t rank, std::uint32_t ranks, Line* e) {
  Cursor c(s);
  if (!c.Lit("{\"e\":\"")) return false;
  std::uint64_t v = 0;
  auto peer = [&](std::string_view name) {
    if (!c.Field(name, &v) || v >= ranks || v == rank) return false;
    e->peer = static_cast<std::uint32_t>(v);
    return true;
  };
  auto number = [&](std::string_view name, auto* out) {
    if (!c.Field(name, &v)) return false;
    *out = static_cast<std::remove_pointer_t<decltype(out)>>(v);
    return true;
  };
  if (c.Lit("send\"")) {
    e->kind = Kind::kSend;
    if (!peer("to") || !number("n", &e->n) || !number("amount", &e->amount)) return false;
  } else if (c.Lit("receive\"")) {
    e->kind = Kind::kReceive;
    if (!peer("from") || !number("n", &e->n) || !number("amount", &e->amount)) return false;
  } else if (c.Lit("send_marker\"")) {
    e->kind = Kind::kSendMarker;
    if (!peer("to") || !number("n", &e->n) || !number("snapshot", &e->snapshot)) return false;
  } else if (c.Lit("receive_marker\"")) {
    e->kind = Kind::kReceiveMarker;
    if (!peer("from") || !number("n", &e->n) || !number("snapshot", &e->snapshot)) return false;
  } else if (c.Lit("local\"")) {
    e->kind = Kind::kLocal;
    if (!number("state", &e->amount)) return false;
  } else if (c.Lit("start\"")) {
    e->kind = Kind::kStart;
    if (!number("balance", &e->amount)) return false;
  } else if (c.Lit("record\"")) {
    e->kind = Kind::kRecord;
    if (!number("snapshot", &e->snapshot) || !number("balance", &e->amount)) return false;
    e->by_marker = false;
    if (c.Lit(",\"cause\":\"marker\"")) {
      e->by_marker = true;
    } else if (!c.Lit(",\"cause\":\"start\"")) {
      return false;
    }
  } else if (c.Lit("part\"")) {
    e->kind = Kind::kPart;
    if (!number("snapshot", &e->snapshot) || !number("balance", &e->amount)) return false;
    if (!c.Lit(",\"channels\":{")) return false;
    e->channels.clear();
    while (!c.Char('}')) {
      if (!e->channels.empty() && !c.Char(',')) return false;
      if (!c.Char('"') || !c.Number(&v) || !c.Lit("\":[")) return false;
      if (v >= ranks || v == rank) return false;
      auto& [from, amounts] = e->channels.emplace_back(static_cast<std::uint32_t>(v), std::vector<Amount>{});
      while (!c.Char(']')) {
        if (!amounts.empty() && !c.Char(',')) return false;
        if (!c.Number(&v)) return false;
        amounts.push_back(static_cast<Amount>(v));
      }
    }
  } else {
    return false;  // another kind: the slow path keeps it, unchecked
  }
  if (!c.Lit(",\"vc\":[")) return false;
  e->sum = 0;
  for (bool first = true; !c.Char(']'); first = false) {
    if (!first && !c.Char(',')) return false;
    if (!c.Number(&v)) return false;
    e->sum += v;
  }
  return c.Char('}') && c.AtEnd();
}

// The slow path: nlohmann::json and the checks (and words) of ReadLogs and
// the old whole-history check. Empty *error: `s` is not JSON at all.
bool SlowParse(std::string_view s, std::uint32_t rank, std::uint32_t ranks, Line* e,
               std::string* error, bool* not_a_line) {
  *not_a_line = false;
  json body = json::parse(s, nullptr, false);
  if (body.is_discarded() || !body.is_object() || !body.contains("e") || !body["e"].is_string()) {
    *not_a_line = true;
    return false;
  }
  if (std::string wrong = ShapeError(body, rank, ranks); !wrong.empty()) {
    *error = wrong;
    return false;
  }
  const json& vc = body.contains("vc") ? body["vc"] : json::array();
  if (!vc.is_array()) {
    *error = "\"vc\" is not a vector clock";
    return false;
  }
  e->sum = 0;
  for (const json& c : vc) {
    if (!c.is_number_unsigned()) {
      *error = "\"vc\" is not a vector clock";
      return false;
    }
    e->sum += c.get<std::uint64_t>();
  }
  const std::string kind = body["e"];
  try {
    e->channels.clear();
    if (kind == "start") {
      e->kind = Kind::kStart;
      e->amount = body["balance"].get<Amount>();
    } else if (kind == "send" || kind == "receive") {
      e->kind = kind == "send" ? Kind::kSend : Kind::kReceive;
      e->peer = body[kind == "send" ? "to" : "from"].get<std::uint32_t>();
      e->n = body["n"].get<std::uint64_t>();
      e->amount = body["amount"].get<Amount>();
    } else if (kind == "send_marker" || kind == "receive_marker") {
      e->kind = kind == "send_marker" ? Kind::kSendMarker : Kind::kReceiveMarker;
      e->peer = body[kind == "send_marker" ? "to" : "from"].get<std::uint32_t>();
      e->n = body["n"].get<std::uint64_t>();
      e->snapshot = body["snapshot"].get<SnapshotId>();
    } else if (kind == "record") {
      e->kind = Kind::kRecord;
      e->snapshot = body["snapshot"].get<SnapshotId>();
      e->amount = body["balance"].get<Amount>();
      e->by_marker = body["cause"] == "marker";
    } else if (kind == "part") {
      e->kind = Kind::kPart;
      e->snapshot = body["snapshot"].get<SnapshotId>();
      e->amount = body["balance"].get<Amount>();
      for (const auto& [from, transfers] : body["channels"].items()) {
        std::uint64_t p = 0;
        Cursor key(from);
        if (!key.Number(&p) || !key.AtEnd() || p >= ranks || p == rank) {
          throw std::invalid_argument(fmt::format("channel from \"{}\", not another rank", from));
        }
        e->channels.emplace_back(static_cast<std::uint32_t>(p),
                                 transfers.get<std::vector<Amount>>());
      }
    } else if (kind == "local") {
      e->kind = Kind::kLocal;
      e->amount = body["state"].get<Amount>();
    } else if (kind == "verdict") {
      e->kind = Kind::kVerdict;
      e->snapshot = body["snapshot"].get<SnapshotId>();
      e->verdict.holds = body["holds"].get<bool>();
      e->verdict.branches = body["branches"].get<std::vector<sim::NodeId>>();
      e->verdict.channels = body["channels"].get<std::vector<ChannelId>>();
    } else {
      e->kind = Kind::kOther;
    }
  } catch (const std::exception& x) {
    *error = fmt::format("a \"{}\" line of the wrong shape ({})", kind, x.what());
    return false;
  }
  return true;
}

// One rank's log, read a buffer at a time.
class RankLog {
 public:
  RankLog(std::uint32_t rank, fs::path path) : rank_(rank), path_(std::move(path)) {}
  ~RankLog() {
    if (file_) std::fclose(file_);
  }
  RankLog(const RankLog&) = delete;
  RankLog& operator=(const RankLog&) = delete;

  // Reads the header line. Its ranks, 0 for an empty log; nothing on error.
  std::optional<std::uint32_t> Open(std::string* error) {
    file_ = std::fopen(path_.c_str(), "rb");
    if (!file_) {
      *error = fmt::format("cannot read {}", path_.string());
      return std::nullopt;
    }
    std::string_view first;
    if (!NextLine(&first)) return 0;
    ++line_;
    json body = json::parse(first, nullptr, false);
    if (body.is_discarded() || !body.is_object() || !body.contains("e") || !body["e"].is_string()) {
      if (AtEnd()) return 0;  // the only line, cut short
      *error = fmt::format("{}:1 is not a line of a cutline log", path_.string());
      return std::nullopt;
    }
    if (body["e"] != "rank" || body["rank"] != rank_ || !body["ranks"].is_number_unsigned()) {
      *error = fmt::format("{} does not begin as rank {}'s log", path_.string(), rank_);
      return std::nullopt;
    }
    if (body.contains("app")) {
      std::optional<apps::App> app =
          body["app"].is_string() ? apps::App::Find(body["app"].get<std::string>()) : std::nullopt;
      if (!app) {
        *error = fmt::format("{} names an application cutline does not know: {}", path_.string(),
                             body["app"].dump());
        return std::nullopt;
      }
      app_ = *app;
    }
    return body["ranks"].get<std::uint32_t>();
  }
  apps::App app() const { return app_; }

  // The next event, or false at the end of the log (or on an error, set).
  bool Next(std::uint32_t ranks, Line* e, std::string* error) {
    std::string_view s;
    if (ended_ || !NextLine(&s)) return false;
    ++line_;
    e->line = line_;
    std::string wrong;
    bool not_a_line = false;
    if (FastParse(s, rank_, ranks, e) || SlowParse(s, rank_, ranks, e, &wrong, &not_a_line)) {
      // Every event ticks its rank's clock: the sums grow along a log,
      // which the merge relies on.
      if (e->sum < last_sum_) {
        *error = fmt::format("{}:{}: \"vc\" goes back (its sum {} after {}): not a rank's clock",
                             path_.string(), line_, e->sum, last_sum_);
        return false;
      }
      last_sum_ = e->sum;
      return true;
    }
    if (not_a_line) {
      // The last line cut short: the rank died while writing it. Anywhere
      // else the log was damaged.
      if (AtEnd()) return false;
      *error = fmt::format("{}:{} is not a line of a cutline log", path_.string(), line_);
      return false;
    }
    *error = fmt::format("{}:{}: {}", path_.string(), line_, wrong);
    return false;
  }
  void End() { ended_ = true; }

 private:
  bool Fill() {
    if (eof_) return false;
    if (begin_ > 0) {
      buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(begin_));
      scan_ -= begin_;
      begin_ = 0;
    }
    std::size_t have = buf_.size();
    std::size_t want = std::max<std::size_t>(1 << 20, have);
    buf_.resize(have + want);
    std::size_t got = std::fread(buf_.data() + have, 1, want, file_);
    buf_.resize(have + got);
    if (got == 0) eof_ = true;
    return got > 0;
  }
  bool NextLine(std::string_view* line) {
    for (;;) {
      const char* data = buf_.data();
      const void* nl =
          scan_ < buf_.size() ? std::memchr(data + scan_, '\n', buf_.size() - scan_) : nullptr;
      if (nl != nullptr) {
        std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nl) - data);
        *line = std::string_view(data + begin_, at - begin_);
        begin_ = scan_ = at + 1;
        return true;
      }
      scan_ = buf_.size();
      if (!Fill()) {
        if (begin_ == buf_.size()) return false;
        *line = std::string_view(buf_.data() + begin_, buf_.size() - begin_);
        begin_ = scan_ = buf_.size();
        return true;
      }
    }
  }
  // No line follows the one just read.
  bool AtEnd() {
    if (begin_ < buf_.size()) return false;
    // The line read may point into buf_: keep it by not compacting.
    if (eof_) return true;
    std::size_t have = buf_.size();
    buf_.reserve(have + (1 << 16));  // may move the line; it is not used after
    buf_.resize(have + (1 << 16));
    std::size_t got = std::fread(buf_.data() + have, 1, 1 << 16, file_);
    buf_.resize(have + got);
    if (got == 0) eof_ = true;
    return got == 0;
  }

  std::uint32_t rank_;
  fs::path path_;
  apps::App app_;  // the bank unless the header names another
  std::FILE* file_ = nullptr;
  std::vector<char> buf_;
  std::size_t begin_ = 0;  // the next line's start
  std::size_t scan_ = 0;   // searched for '\n' up to here
  bool eof_ = false;
  bool ended_ = false;
  std::size_t line_ = 0;
  std::uint64_t last_sum_ = 0;
};

// A message between its send and its receipt.
struct Msg {
  Seq seq = 0;
  ChannelId channel = 0;
  std::uint64_t n = 0;
  std::uint64_t index = 0;  // its place among its channel's sends, from 1
  bool marker = false;
  Amount amount = 0;         // a transfer's
  SnapshotId snapshot = 0;   // a marker's
};

// One rank in one open snapshot.
struct RankCut {
  int records = 0;
  std::optional<Amount> recorded;    // the last record line's balance
  std::optional<Amount> said;        // its part's
  Amount replayed = 0;               // the balance replayed at its (first) record
  std::vector<std::uint64_t> sent_at;  // by peer: sends on the channel to it before the record
  std::vector<Msg> pending;          // received before recording, sent after its sender recorded
  bool part = false;
  std::size_t record_event = 0;      // history index of the record
  std::optional<Seq> bad_cause;      // a marker cause that is not its last receipt
};

// One channel in one open snapshot.
struct ChannelCut {
  std::vector<Msg> expected;         // transfers across the cut, in delivery order
  bool claimed = false;              // its receiver's part names it
  std::vector<Amount> transfers;     // what that part says
  int markers = 0;
  Seq marker_seq = 0;
  bool marker_sent_inside = false;
  bool closed = false;               // a marker of the snapshot delivered on it
  std::vector<std::pair<Seq, std::string>> before_marker;  // rule 1
};

struct OpenSnapshot {
  std::vector<RankCut> ranks;
  std::vector<ChannelCut> channels;
  std::vector<Msg> backward;           // confirmed crossings
  std::vector<std::pair<Seq, std::string>> judged;  // extra and missed, by seq
  std::vector<Seq> extra, missed;
  std::uint32_t parts = 0;
};

class Stream {
 public:
  Stream(std::uint32_t n, const std::vector<std::string>& names, apps::App app)
      : n_(n), app_(app), topology_(n, sim::Topology::Complete(n)), names_(names) {
    const std::size_t channels = topology_.channel_count();
    channel_of_.assign(static_cast<std::size_t>(n) * n, sim::kNoChannel);
    for (std::uint32_t f = 0; f < n; ++f) {
      for (std::uint32_t t = 0; t < n; ++t) {
        if (f != t) channel_of_[f * n + t] = topology_.Find(f, t);
      }
    }
    in_flight_.resize(channels);
    sends_.assign(channels, 0);
    balance_.assign(n, 0);
    initial_.assign(n, 0);
    started_.assign(n, false);
    last_delivered_.assign(n, 0);
    last_delivered_marker_.assign(n, std::nullopt);
    last_marker_.assign(n, 0);
    rank_records_.resize(n);
  }

  // False: the receipt's send is not in the logs read so far (the sender's
  // log ended before it): the receiver's log ends here.
  bool Apply(std::uint32_t r, const Line& e) {
    switch (e.kind) {
      case Kind::kStart:
        initial_[r] = e.amount;
        balance_[r] = e.amount;
        started_[r] = true;
        return true;
      case Kind::kSend:
      case Kind::kSendMarker:
        OnSend(r, e);
        return true;
      case Kind::kReceive:
      case Kind::kReceiveMarker:
        return OnReceive(r, e);
      case Kind::kRecord:
        OnRecord(r, e);
        return true;
      case Kind::kPart:
        OnPart(r, e);
        return true;
      case Kind::kLocal:
        ++events_;
        balance_[r] = app_.AfterLocal(balance_[r]);
        if (balance_[r] != e.amount) {
          history_.push_back(
              fmt::format("history: {} says its state is {} after a step of its own, but "
                          "replayed it is {} ({})",
                          Name(r), e.amount, balance_[r], Where(r, e)));
        }
        return true;
      case Kind::kVerdict:
        declared_[e.snapshot] = e.verdict;
        return true;
      case Kind::kOther:
        return true;
    }
    return true;
  }

  // A log was cut where its rank's sender's log ended (a crash).
  void CutShort() { cut_short_ = true; }

  // Rank r's log is over: a snapshot it has not finished cannot complete.
  void RankEnded(std::uint32_t r) {
    any_ended_ = true;
    for (auto it = open_.begin(); it != open_.end();) {
      it = it->second.ranks[r].part ? std::next(it) : open_.erase(it);
    }
    rank_records_[r].clear();
  }

  void Finish(LogCheck* out) {
    Measure();
    out->events = events_;
    for (std::uint32_t r = 0; r < n_; ++r) {
      if (!started_[r]) {
        out->silent.push_back(r);
        continue;
      }
      out->total += initial_[r];
    }
    out->report.problems = std::move(history_);
    for (auto& [id, lines] : findings_) {
      for (std::string& l : lines) out->report.problems.push_back(std::move(l));
    }
    for (std::string& l : part_findings_) out->report.problems.push_back(std::move(l));
    CheckDeclared(out);
    out->report.snapshots_checked = checked_;
    out->report.verdicts = std::move(verdicts_);
    out->peak_state = peak_state_;
    out->peak_open_snapshots = peak_open_;
  }

  // Counts what is held (every so often: cheap next to the events).
  void Measure() {
    std::size_t held = open_.size();
    for (const auto& q : in_flight_) held += q.size();
    for (const auto& m : rank_records_) held += m.size();
    for (const auto& [id, s] : open_) {
      held += s.backward.size() + s.judged.size();
      for (const RankCut& rc : s.ranks) held += rc.pending.size();
      for (const ChannelCut& c : s.channels) {
        held += c.expected.size() + c.transfers.size() + c.before_marker.size();
      }
    }
    peak_state_ = std::max(peak_state_, held);
    peak_open_ = std::max(peak_open_, open_.size());
  }

  std::string Where(std::uint32_t r, const Line& e) const {
    return fmt::format("{}:{}", names_[r], e.line);
  }

  // Each declared property against the one on the state replayed at its
  // cut; one that held must still hold where the logs end (it is stable: a
  // declaration that work or a grant later undid was made too early).
  void CheckDeclared(LogCheck* out) {
    out->app = std::string(app_.name());
    if (!app_.has_property()) return;
    const std::string_view property = app_.definition().property;
    // Where the logs end is the run's end unless a log was cut short (a
    // crash) or is empty.
    const bool whole = !cut_short_ && std::find(started_.begin(), started_.end(), false) ==
                                          started_.end();
    std::optional<apps::Verdict> at_end;
    if (whole) {
      std::vector<std::vector<Amount>> channels(topology_.channel_count());
      for (ChannelId c = 0; c < channels.size(); ++c) {
        for (const Msg& m : in_flight_[c]) {
          if (!m.marker) channels[c].push_back(m.amount);
        }
      }
      at_end = app_.Evaluate({&topology_, balance_, channels});
    }
    for (const auto& [id, declared] : declared_) {
      ++out->declared;
      auto it = computed_.find(id);
      if (declared.holds && it != computed_.end()) ++out->declared_holding;
      if (it == computed_.end()) {
        // No cut of it in the logs (stop-the-world logs none; a crash
        // loses parts): its verdict cannot be replayed, only its stability.
        ++out->unchecked;
      } else if (it->second != declared) {
        out->report.problems.push_back(fmt::format(
            "snapshot {}: declared {}{} ({}), but the state replayed at its cut says {}{} ({})", id,
            declared.holds ? "" : "not ", property, Why(declared), it->second.holds ? "" : "not ",
            property, Why(it->second)));
      }
      if (declared.holds && at_end && !at_end->holds) {
        out->report.problems.push_back(fmt::format(
            "snapshot {}: declared {}, but where the logs end it is not ({}): declared too early",
            id, property, Why(*at_end)));
      }
    }
  }

  std::string Why(const apps::Verdict& v) const {
    std::vector<std::string> parts;
    for (sim::NodeId b : v.branches) parts.push_back(Name(b));
    std::string out = fmt::format("{}", fmt::join(parts, app_ == apps::App::kLocks ? "->" : ", "));
    if (out.empty()) out = app_ == apps::App::kLocks ? "no cycle" : "no branch busy";
    if (!v.channels.empty()) {
      parts.clear();
      for (ChannelId c : v.channels) parts.push_back(ChannelName(c));
      out += fmt::format("; {} on {}", app_ == apps::App::kLocks ? "grants" : "jobs",
                         fmt::join(parts, ", "));
    }
    return out;
  }

 private:
  std::string Name(std::uint32_t r) const { return store::BranchName(r); }
  ChannelId ChannelOf(std::uint32_t from, std::uint32_t to) const {
    return channel_of_[from * n_ + to];
  }
  std::string ChannelName(ChannelId c) const {
    const sim::ChannelInfo& ch = topology_.channel(c);
    return fmt::format("{}->{}", Name(ch.from), Name(ch.to));
  }
  // A message's content in findings: the bank's amount, or the
  // application's kind of message ("job", "grant").
  std::string Word(Amount a) const {
    return app_.conserved() ? fmt::format("{}", Money(a)) : std::string(app_.MessageKind(a));
  }
  std::string Describe(const Msg& m) const {
    const std::uint32_t from = topology_.channel(m.channel).from;
    if (!m.marker) {
      return fmt::format("message #{} ({} from {})", m.seq, Word(m.amount), Name(from));
    }
    return fmt::format("message #{} (marker of snapshot {} from {})", m.seq, m.snapshot, Name(from));
  }

  // The snapshot's state, made if it may still complete (no log has ended).
  OpenSnapshot* Snapshot(SnapshotId id) {
    auto it = open_.find(id);
    if (it != open_.end()) return &it->second;
    if (any_ended_) return nullptr;
    OpenSnapshot& s = open_[id];
    s.ranks.resize(n_);
    s.channels.resize(topology_.channel_count());
    peak_open_ = std::max(peak_open_, open_.size());
    return &s;
  }

  // Sent after its sender recorded snapshot s (outside the cut)?
  bool SentOutside(const OpenSnapshot& s, const Msg& m) const {
    const sim::ChannelInfo& ch = topology_.channel(m.channel);
    const RankCut& from = s.ranks[ch.from];
    return from.records > 0 && m.index > from.sent_at[ch.to];
  }

  void OnSend(std::uint32_t r, const Line& e) {
    ++events_;
    const ChannelId c = ChannelOf(r, e.peer);
    Msg m;
    m.seq = next_seq_++;
    m.channel = c;
    m.n = e.n;
    m.index = ++sends_[c];
    m.marker = e.kind == Kind::kSendMarker;
    if (m.marker) {
      m.snapshot = e.snapshot;
    } else {
      m.amount = e.amount;
      balance_[r] = app_.AfterSend(balance_[r], e.amount, e.peer);
    }
    last_delivered_[r] = 0;
    last_delivered_marker_[r].reset();
    if (m.marker) Snapshot(m.snapshot);  // counts its markers from the first
    for (auto& [id, s] : open_) {
      ChannelCut& ch = s.channels[c];
      if (m.marker && m.snapshot == id) {
        if (++ch.markers == 1) {
          ch.marker_seq = m.seq;
          ch.marker_sent_inside = s.ranks[r].records == 0;
        }
      } else if (ch.markers == 0 && SentOutside(s, m)) {
        ch.before_marker.emplace_back(
            m.seq, fmt::format("{} sent {} on {} after recording but before the marker", Name(r),
                               Describe(m), ChannelName(c)));
      }
    }
    in_flight_[c].push_back(m);
  }

  bool OnReceive(std::uint32_t r, const Line& e) {
    const ChannelId c = ChannelOf(e.peer, r);
    std::deque<Msg>& q = in_flight_[c];
    Msg m;
    if (!q.empty() && q.front().n == e.n) {
      m = q.front();
      q.pop_front();
    } else {
      auto it = std::find_if(q.begin(), q.end(), [&](const Msg& x) { return x.n == e.n; });
      // Not sent in the logs read so far: the sender's log ended (or lost
      // the line) before the send.
      if (it == q.end()) return false;
      m = *it;
      history_.push_back(fmt::format(
          "history: channel {} is not FIFO: {} arrived while #{}, sent earlier, was still waiting",
          ChannelName(c), Describe(m), q.front().seq));
      q.erase(it);
    }
    const bool marker = e.kind == Kind::kReceiveMarker;
    if (marker != m.marker || (marker ? m.snapshot != e.snapshot : m.amount != e.amount)) {
      history_.push_back(fmt::format(
          "history: event {} delivers {}, but it was sent as something else or on another channel",
          events_, Describe(m)));
    }
    ++events_;
    if (!m.marker) balance_[r] = app_.AfterDeliver(balance_[r], m.amount);
    last_delivered_[r] = m.seq;
    last_delivered_marker_[r] = m.marker ? std::optional<SnapshotId>(m.snapshot) : std::nullopt;
    if (m.marker) {
      last_marker_[r] = m.seq;
      Snapshot(m.snapshot);
    }
    for (auto& [id, s] : open_) {
      RankCut& to = s.ranks[r];
      const bool outside = SentOutside(s, m);
      if (to.records == 0) {
        if (outside) to.pending.push_back(m);  // a crossing, if r records later
      } else if (!m.marker) {
        ChannelCut& ch = s.channels[c];
        const bool in_state = !ch.closed;
        auto what = [&] {
          return fmt::format("{} (message #{}, {})", Word(m.amount), m.seq, ChannelName(c));
        };
        if (!outside) ch.expected.push_back(m);
        if (in_state && outside) {
          s.extra.push_back(m.seq);
          s.judged.emplace_back(m.seq, fmt::format("{} counted twice: it is in the channel's "
                                                   "recorded state, but {} sent it after recording",
                                                   what(), Name(e.peer)));
        }
        if (!outside && !in_state) {
          s.missed.push_back(m.seq);
          s.judged.emplace_back(
              m.seq, fmt::format("{} missed: {} sent it before recording, but it is neither in "
                                 "{}'s record nor in the channel's recorded state",
                                 what(), Name(e.peer), Name(r)));
        }
      }
      if (m.marker && m.snapshot == id) s.channels[c].closed = true;
    }
    return true;
  }

  void OnRecord(std::uint32_t r, const Line& e) {
    const std::size_t index = events_++;
    rank_records_[r][e.snapshot] = e.amount;
    OpenSnapshot* s = Snapshot(e.snapshot);
    if (s == nullptr) return;
    RankCut& rc = s->ranks[r];
    rc.recorded = e.amount;
    if (++rc.records > 1) return;
    rc.record_event = index;
    if (e.by_marker) {
      // Its cause: the marker it received last, which must be its last
      // message event and of this snapshot; that receipt is outside the cut.
      const bool ok = last_delivered_[r] != 0 && last_delivered_[r] == last_marker_[r] &&
                      last_delivered_marker_[r] == e.snapshot;
      if (ok) {
        if (!rc.pending.empty() && rc.pending.back().seq == last_delivered_[r]) rc.pending.pop_back();
      } else {
        rc.bad_cause = last_marker_[r];
      }
    }
    rc.replayed = balance_[r];
    rc.sent_at.assign(n_, 0);
    for (std::uint32_t p = 0; p < n_; ++p) {
      if (p != r) rc.sent_at[p] = sends_[ChannelOf(r, p)];
    }
    for (Msg& m : rc.pending) s->backward.push_back(m);
    rc.pending.clear();
    rc.pending.shrink_to_fit();
  }

  void OnPart(std::uint32_t r, const Line& e) {
    ++events_;  // PartDone
    auto rec = rank_records_[r].find(e.snapshot);
    if (rec == rank_records_[r].end()) {
      part_findings_.push_back(fmt::format("snapshot {}: {} logged its part without a record ({})",
                                           e.snapshot, Name(r), Where(r, e)));
    } else {
      if (rec->second != e.amount) {
        part_findings_.push_back(fmt::format("snapshot {}: {} recorded ${} but its part says ${} ({})",
                                             e.snapshot, Name(r), rec->second, e.amount, Where(r, e)));
      }
      rank_records_[r].erase(rec);
    }
    OpenSnapshot* s = Snapshot(e.snapshot);
    if (s == nullptr) return;
    RankCut& rc = s->ranks[r];
    rc.part = true;
    rc.said = e.amount;
    for (const auto& [from, amounts] : e.channels) {
      ChannelCut& ch = s->channels[ChannelOf(from, r)];
      ch.claimed = true;
      ch.transfers = amounts;
    }
    if (++s->parts == n_) {
      ++events_;  // Completed
      Measure();  // the most a snapshot holds is just before it is judged
      Judge(e.snapshot, *s);
      open_.erase(e.snapshot);
    }
  }

  // One complete snapshot under judgement: its findings so far, each said as
  // "snapshot N: ..."; the verdict the checker's tests compare; and the
  // transfers a channel's recorded state lacks, which (f) names.
  struct Judgement {
    const SnapshotId id;
    OpenSnapshot& s;
    std::vector<std::string> out;
    check::SnapshotVerdict v;
    std::vector<Seq> unrecorded;
    void Say(std::string text) { out.push_back(fmt::format("snapshot {}: {}", id, text)); }
  };

  // The checker's findings on a complete snapshot, in its order. Each step
  // is a function of its own below; (a) to (f) need every rank's record.
  void Judge(SnapshotId id, OpenSnapshot& s) {
    ++checked_;
    Judgement j{id, s, {}, {}, {}};
    j.v.id = id;
    NoteBadCauses(j);
    if (JudgeRecords(j)) {
      JudgeBalances(j);   // (b)
      JudgeCut(j);        // (a)
      AddUnsentInFlight(j);
      JudgeChannels(j);   // (c)
      JudgeMarkers(j);    // (e)
      JudgeTotal(j);      // (d)
      JudgeVerdict(j);    // (f)
    }
    if (!j.out.empty()) findings_[id] = std::move(j.out);
    if (!j.v.consistent()) verdicts_.push_back(std::move(j.v));
  }

  // A record naming as its cause a marker that is not its last receipt: a
  // fault in the history, not in the snapshot.
  void NoteBadCauses(const Judgement& j) {
    const OpenSnapshot& s = j.s;
    const SnapshotId id = j.id;
    for (std::uint32_t r = 0; r < n_; ++r) {
      if (s.ranks[r].bad_cause) {
        history_.push_back(fmt::format(
            "history: event {}: {} records for snapshot {} naming marker #{} as its cause, which "
            "is not the marker of that snapshot it received last",
            s.ranks[r].record_event, Name(r), id, *s.ranks[r].bad_cause));
      }
    }
  }

  // Each rank recorded exactly once, else says so; false if one never
  // recorded, when there is no cut to judge.
  bool JudgeRecords(Judgement& j) {
    const OpenSnapshot& s = j.s;
    bool all_recorded = true;
    for (std::uint32_t r = 0; r < n_; ++r) {
      if (s.ranks[r].records == 0) {
        j.Say(fmt::format("{} never recorded its state", Name(r)));
        all_recorded = false;
      } else if (s.ranks[r].records > 1) {
        j.Say(fmt::format("{} recorded its state {} times", Name(r), s.ranks[r].records));
      }
    }
    return all_recorded;
  }

  // (b) each rank's recorded balance against its balance replayed from the
  // history at its record.
  void JudgeBalances(Judgement& j) {
    const OpenSnapshot& s = j.s;
    for (std::uint32_t r = 0; r < n_; ++r) {
      const RankCut& rc = s.ranks[r];
      const std::optional<Amount> claimed = rc.recorded ? rc.recorded : rc.said;
      if (!claimed) {
        j.Say(fmt::format("{} claims no recorded balance", Name(r)));
      } else if (*claimed != rc.replayed) {
        j.Say(fmt::format("{} recorded {} but its balance replayed from the history at its "
                          "record is {}",
                          Name(r), Money(*claimed), Money(rc.replayed)));
      }
    }
  }

  // (a) the cut: a message received before its receiver recorded but sent
  // after its sender did.
  void JudgeCut(Judgement& j) {
    OpenSnapshot& s = j.s;
    check::SnapshotVerdict& v = j.v;
    std::sort(s.backward.begin(), s.backward.end(),
              [](const Msg& a, const Msg& b) { return a.seq < b.seq; });
    for (const Msg& m : s.backward) {
      const sim::ChannelInfo& ch = topology_.channel(m.channel);
      if (!m.marker) {
        v.backward.push_back(m.seq);
        j.Say(fmt::format("inconsistent cut: {} (message #{}, {}) counted twice: {} received it "
                          "before recording, {} sent it after recording",
                          Word(m.amount), m.seq, ChannelName(m.channel), Name(ch.to),
                          Name(ch.from)));
      } else {
        j.Say(fmt::format("inconsistent cut: {} recorded the receipt of {} but {} recorded "
                          "before sending it",
                          Name(ch.to), Describe(m), Name(ch.from)));
      }
    }
  }

  // Transfers sent inside the cut and not delivered (yet): part of their
  // channel's state, after the delivered ones, and missed.
  void AddUnsentInFlight(Judgement& j) {
    OpenSnapshot& s = j.s;
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      for (const Msg& m : in_flight_[c]) {
        if (SentOutside(s, m)) break;  // and so are the later ones
        if (m.marker) continue;
        s.channels[c].expected.push_back(m);
        const sim::ChannelInfo& ch = topology_.channel(c);
        s.missed.push_back(m.seq);
        s.judged.emplace_back(
            m.seq, fmt::format("{} (message #{}, {}) missed: {} sent it before recording, but "
                               "it is neither in {}'s record nor in the channel's recorded state",
                               Word(m.amount), m.seq, ChannelName(c), Name(ch.from),
                               Name(ch.to)));
      }
    }
  }

  // (c) each channel's recorded state (in its receiver's part) against the
  // transfers that crossed the cut on it; the ones it lacks are kept for (f).
  void JudgeChannels(Judgement& j) {
    const OpenSnapshot& s = j.s;
    std::vector<Seq>& unrecorded = j.unrecorded;
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      const ChannelCut& ch = s.channels[c];
      if (!ch.claimed) {
        j.Say(fmt::format("channel {} is 'not recorded', not closed", ChannelName(c)));
      }
      std::vector<Amount> amounts;
      for (const Msg& m : ch.expected) amounts.push_back(m.amount);
      if (amounts != ch.transfers) {
        j.Say(fmt::format("channel {} recorded {} but expected {}", ChannelName(c),
                          apps::AmountList(ch.transfers), apps::AmountList(amounts)));
        std::vector<Amount> left = ch.transfers;
        for (const Msg& m : ch.expected) {
          auto it = std::find(left.begin(), left.end(), m.amount);
          if (it != left.end()) {
            left.erase(it);
          } else {
            unrecorded.push_back(m.seq);
          }
        }
      }
    }
  }

  // (e) exactly one marker on each channel, sent after its sender recorded
  // and delivered; then what was sent between a record and its markers
  // (rule 1), in send order.
  void JudgeMarkers(Judgement& j) {
    const OpenSnapshot& s = j.s;
    std::vector<std::pair<Seq, std::string>> rule1;
    for (ChannelId c = 0; c < s.channels.size(); ++c) {
      const ChannelCut& ch = s.channels[c];
      if (ch.markers != 1) {
        j.Say(fmt::format("{} markers went over channel {}, not exactly one", ch.markers,
                          ChannelName(c)));
        continue;
      }
      if (ch.marker_sent_inside) {
        j.Say(fmt::format("{} sent its marker on {} (#{}) before recording",
                          Name(topology_.channel(c).from), ChannelName(c), ch.marker_seq));
      }
      if (!ch.closed) {
        j.Say(fmt::format("the marker on {} (#{}) was never delivered", ChannelName(c),
                          ch.marker_seq));
      }
      for (const auto& b : ch.before_marker) rule1.push_back(b);
    }
    std::sort(rule1.begin(), rule1.end());
    for (auto& [seq, text] : rule1) j.Say(std::move(text));
  }

  // (d) the total: the money conserved at the cut; for jobs and locks, the
  // property on the state replayed at the cut instead, kept for
  // CheckDeclared.
  void JudgeTotal(Judgement& j) {
    const OpenSnapshot& s = j.s;
    const SnapshotId id = j.id;
    Amount bank_total = 0, balances = 0, channels = 0, sum = 0;
    bool overflow = false;
    for (Amount a : initial_) overflow |= __builtin_add_overflow(bank_total, a, &bank_total);
    for (const RankCut& rc : s.ranks) {
      const std::optional<Amount> b = rc.recorded ? rc.recorded : rc.said;
      if (b) overflow |= __builtin_add_overflow(balances, *b, &balances);
    }
    for (const ChannelCut& ch : s.channels) {
      for (Amount a : ch.transfers) overflow |= __builtin_add_overflow(channels, a, &channels);
    }
    overflow |= __builtin_add_overflow(balances, channels, &sum);
    if (app_.has_property()) {
      // The property on the state replayed at the cut: each rank's state
      // at its record, each channel's words sent inside the cut and
      // received outside it.
      std::vector<Amount> states;
      for (const RankCut& rc : s.ranks) states.push_back(rc.replayed);
      std::vector<std::vector<Amount>> words(s.channels.size());
      for (ChannelId c = 0; c < s.channels.size(); ++c) {
        for (const Msg& m : s.channels[c].expected) words[c].push_back(m.amount);
      }
      computed_[id] = app_.Evaluate({&topology_, states, words});
    } else if (overflow) {
      j.Say("its recorded amounts overflow 64 bits");
    } else if (sum != bank_total) {
      j.Say(fmt::format("money is not conserved: recorded balances {} + channel states {} = {}, "
                        "but the bank holds {}",
                        Money(balances), Money(channels), Money(sum), Money(bank_total)));
    }
  }

  // (f) the verdict: the transfers counted twice or missed, in send order,
  // then the ones missing from a channel's state that were not missed.
  void JudgeVerdict(Judgement& j) {
    OpenSnapshot& s = j.s;
    check::SnapshotVerdict& v = j.v;
    const std::vector<Seq>& unrecorded = j.unrecorded;
    std::sort(s.judged.begin(), s.judged.end());
    for (auto& [seq, text] : s.judged) j.Say(std::move(text));
    v.extra = s.extra;
    v.missed = s.missed;
    std::sort(v.missed.begin(), v.missed.end());
    for (Seq q : unrecorded) {
      if (std::find(v.missed.begin(), v.missed.end(), q) == v.missed.end()) {
        v.unrecorded.push_back(q);
      }
    }
    std::sort(v.unrecorded.begin(), v.unrecorded.end());
    for (Seq q : v.unrecorded) {
      for (const ChannelCut& ch : s.channels) {
        for (const Msg& m : ch.expected) {
          if (m.seq == q) {
            j.Say(fmt::format("{} (message #{}) in flight on {} is missing from the snapshot",
                              Word(m.amount), q, ChannelName(m.channel)));
          }
        }
      }
    }
  }

  const std::uint32_t n_;
  const apps::App app_;
  sim::Topology topology_;
  const std::vector<std::string>& names_;
  // jobs and locks: what rank 0 declared and what the replay finds, by
  // snapshot (a run of these ends at its first holding one: few).
  std::map<SnapshotId, apps::Verdict> declared_, computed_;
  std::vector<ChannelId> channel_of_;
  std::vector<std::deque<Msg>> in_flight_;  // by channel, in send order
  std::vector<std::uint64_t> sends_;        // by channel
  std::vector<Amount> balance_, initial_;
  std::vector<bool> started_;
  std::vector<Seq> last_delivered_;  // 0 after a send
  std::vector<std::optional<SnapshotId>> last_delivered_marker_;
  std::vector<Seq> last_marker_;
  // By rank: the balance of each record line whose part is not read yet.
  std::vector<std::map<SnapshotId, Amount>> rank_records_;
  std::map<SnapshotId, OpenSnapshot> open_;
  bool any_ended_ = false;
  bool cut_short_ = false;
  Seq next_seq_ = 1;
  std::size_t events_ = 0;  // as the old history counted them
  int checked_ = 0;
  std::vector<std::string> history_;
  std::map<SnapshotId, std::vector<std::string>> findings_;  // judged snapshots with findings
  std::vector<std::string> part_findings_;
  std::vector<check::SnapshotVerdict> verdicts_;
  std::size_t peak_state_ = 0, peak_open_ = 0;
};

}  // namespace

std::optional<LogCheck> CheckLogs(const std::string& dir, std::string* error) {
  auto found = LogFiles(dir, error);
  if (!found) return std::nullopt;
  const std::map<std::uint32_t, fs::path>& files = *found;
  std::vector<std::unique_ptr<RankLog>> logs;
  std::uint32_t ranks = 0;
  apps::App app;
  for (const auto& [rank, path] : files) {
    auto log = std::make_unique<RankLog>(rank, path);
    auto r = log->Open(error);
    if (!r) return std::nullopt;
    if (rank == 0) {
      app = log->app();
    } else if (*r != 0 && log->app() != app) {
      *error = fmt::format("{} is a log of {}, but rank 0's is of {}", path.string(),
                           log->app().name(), app.name());
      return std::nullopt;
    }
    if (*r != 0) {
      if (ranks != 0 && ranks != *r) {
        *error = fmt::format("{} belongs to a run of {} ranks, not {}", path.string(), *r, ranks);
        return std::nullopt;
      }
      ranks = *r;
    } else {
      log->End();  // a rank that logged nothing
    }
    logs.push_back(std::move(log));
  }
  if (ranks == 0) {
    *error = fmt::format("every log in {} is empty: no rank wrote its log", dir);
    return std::nullopt;
  }
  if (files.size() != ranks || files.rbegin()->first != ranks - 1) {
    *error = fmt::format("{} holds {} logs, but the run had {} ranks", dir, files.size(), ranks);
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (std::uint32_t r = 0; r < ranks; ++r) names.push_back(fmt::format("rank-{}.jsonl", r));

  LogCheck out;
  out.ranks = ranks;
  Stream stream(ranks, names, app);
  std::vector<Line> head(ranks);
  // The merge: the lowest (clock sum, rank) first.
  using Key = std::pair<std::uint64_t, std::uint32_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> next;
  auto advance = [&](std::uint32_t r) -> bool {
    if (logs[r]->Next(ranks, &head[r], error)) {
      next.emplace(head[r].sum, r);
      return true;
    }
    if (!error->empty()) return false;
    stream.RankEnded(r);
    return true;
  };
  error->clear();
  for (std::uint32_t r = 0; r < ranks; ++r) {
    if (!advance(r)) return std::nullopt;
  }
  std::size_t count = 0;
  while (!next.empty()) {
    const std::uint32_t r = next.top().second;
    next.pop();
    if (!stream.Apply(r, head[r])) {
      // A receipt whose send no log holds (its sender's log ended first):
      // this log is cut here, at a consistent point; the rest is counted.
      ++out.dropped;
      stream.CutShort();
      Line rest;
      while (logs[r]->Next(ranks, &rest, error)) ++out.dropped;
      if (!error->empty()) return std::nullopt;
      logs[r]->End();
      stream.RankEnded(r);
      continue;
    }
    if (++count % 4096 == 0) stream.Measure();
    if (!advance(r)) return std::nullopt;
  }
  stream.Finish(&out);
  return out;
}

std::optional<std::string> ShiVizLog(const std::string& dir, std::string* error) {
  auto logs = ReadLogs(dir, error);
  if (!logs) return std::nullopt;
  std::vector<std::string> hosts;
  for (std::uint32_t r = 0; r < logs->ranks; ++r) hosts.push_back(store::BranchName(r));
  check::ShiVizWriter out;
  for (const LogEvent* e : CausalOrder(*logs)) {
    const json& b = e->body;
    std::vector<std::uint64_t> clock = b.value("vc", std::vector<std::uint64_t>{});
    clock.resize(std::min<std::size_t>(clock.size(), hosts.size()));
    const std::string kind = b["e"];
    std::string what;
    if (kind == "start") {
      what = fmt::format("start with ${}", b["balance"].get<cutline::Amount>());
    } else if (kind == "send") {
      what = fmt::format("send ${} to {}", b["amount"].get<cutline::Amount>(),
                         store::BranchName(b["to"]));
    } else if (kind == "receive") {
      what = fmt::format("receive ${} from {}", b["amount"].get<cutline::Amount>(),
                         store::BranchName(b["from"]));
    } else if (kind == "send_marker") {
      what = fmt::format("marker {} to {}", b["snapshot"].get<SnapshotId>(), store::BranchName(b["to"]));
    } else if (kind == "receive_marker") {
      what = fmt::format("marker {} from {}", b["snapshot"].get<SnapshotId>(),
                         store::BranchName(b["from"]));
    } else if (kind == "record") {
      what = fmt::format("record ${} for snapshot {} ({})", b["balance"].get<cutline::Amount>(),
                         b["snapshot"].get<SnapshotId>(), b["cause"].get<std::string>());
    } else if (kind == "part") {
      what = fmt::format("part of snapshot {} done", b["snapshot"].get<SnapshotId>());
    } else {
      continue;
    }
    out.Add(hosts[e->rank], hosts, std::span<const std::uint64_t>(clock), what);
  }
  return std::move(out).Take();
}

}  // namespace cutline::runtime
