#include "runtime/log_check.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <queue>
#include <string_view>
#include <type_traits>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "apps/app.h"
#include "dataflow/topology.h"
#include "algorithms/words.h"
#include "catalogue/messages.h"
#include "check/shiviz.h"
#include "check/stream_judge.h"
#include "store/store.h"

namespace cutline::runtime {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

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
      {"overtaken", {"n", "by"}},
  };
  return shapes;
}

// Ok if `body` has the fields of its kind, with a peer in 0..ranks-1 other
// than `rank`; else what is wrong.
Status ShapeError(const json& body, std::uint32_t rank, std::uint32_t ranks) {
  const std::string kind = body["e"];
  for (const Shape& shape : Shapes()) {
    if (kind != shape.kind) continue;
    for (const char* field : shape.numbers) {
      // A balance may be below 0: a dataflow's source has sent more
      // records than it received (none).
      const bool ok = std::string_view(field) == "balance" ? body.contains(field) && body[field].is_number_integer()
                                                           : body.contains(field) && body[field].is_number_unsigned();
      if (!ok) {
        return Status::Error(Code::kRankLogNoNumber, kind, field);
      }
    }
    for (const char* peer : {"to", "from"}) {
      if (!body.contains(peer)) continue;
      const std::uint64_t p = body[peer];
      if (p >= ranks || p == rank) {
        return Status::Error(Code::kRankLogBadPeer, kind, peer, p, ranks);
      }
    }
    if (kind == "overtaken" && body.contains("to") == body.contains("from")) {
      return Status::Error(Code::kRankLogOvertakenPeer);
    }
    if (kind == "record" && !(body.contains("cause") && body["cause"].is_string())) {
      return Status::Error(Code::kRankLogNoCause);
    }
    if (kind == "part" && !(body.contains("channels") && body["channels"].is_object())) {
      return Status::Error(Code::kRankLogNoChannels);
    }
    if (kind == "verdict" && !(body.contains("holds") && body["holds"].is_boolean() &&
                               body.contains("branches") && body["branches"].is_array() &&
                               body.contains("channels") && body["channels"].is_array())) {
      return Status::Error(Code::kRankLogNoVerdict);
    }
  }
  return Status::Ok();
}

// DIR's rank-N.jsonl files by rank; refused if DIR is not a folder or holds
// none.
StatusOr<std::map<std::uint32_t, fs::path>> LogFiles(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Status::Error(Code::kRankLogNotFolder, dir);
  std::map<std::uint32_t, fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("rank-", 0) != 0 || entry.path().extension() != ".jsonl") continue;
    std::string number = name.substr(5, name.size() - 5 - 6);
    if (number.empty() || number.find_first_not_of("0123456789") != std::string::npos) continue;
    files[static_cast<std::uint32_t>(std::stoul(number))] = entry.path();
  }
  if (files.empty()) return Status::Error(Code::kRankLogNone, dir);
  return files;
}

// `wrong` at line `line` of `path`.
Status At(const fs::path& path, std::size_t line, const Status& wrong) {
  return Status::Error(Code::kLogAt, path.string(), line, wrong);
}

}  // namespace

// ---- The one reader of the logs -----------------------------------------
//
// Each rank's log is read line by line and the logs are merged by vector
// clock sum (each log grows in it; a send's sum is below its receipt's, so
// the merge is a causal order, ties broken by rank). The merged events feed
// the streaming judge (src/check/stream_judge.h), which holds the checker's
// rules and words, or the ShiViz log.

namespace {

using cutline::Amount;
using sim::ChannelId;
using Kind = check::StreamEvent::Kind;

// One log line, parsed: the judge's event, and the sum of its vector clock
// the merge orders by.
struct Line : check::StreamEvent {
  std::uint64_t sum = 0;
  std::vector<std::uint64_t> clock;  // the clock itself, only where the reader keeps clocks
  std::string cause;                 // a record's: "start", "marker", "timeout"
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
  // A balance: a whole number, perhaps below 0.
  bool Balance(cutline::Amount* out) {
    std::uint64_t v = 0;
    if (!(Char(',') && Lit("\"balance\":"))) return false;
    const bool negative = Char('-');
    if (!Number(&v)) return false;
    *out = negative ? -static_cast<cutline::Amount>(v) : static_cast<cutline::Amount>(v);
    return true;
  }
  bool AtEnd() const { return p_ == end_; }

 private:
  const char* p_;
  const char* end_;
};

bool FastParse(std::string_view s, std::uint32_t rank, std::uint32_t ranks, bool clocks, Line* e) {
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
    if (!c.Balance(&e->amount)) return false;
  } else if (c.Lit("record\"")) {
    e->kind = Kind::kRecord;
    if (!number("snapshot", &e->snapshot) || !c.Balance(&e->amount)) return false;
    e->by_marker = false;
    if (c.Lit(",\"cause\":\"marker\"")) {
      e->by_marker = true;
      e->cause = "marker";
    } else if (c.Lit(",\"cause\":\"start\"")) {
      e->cause = "start";
    } else if (c.Lit(",\"cause\":\"timeout\"")) {
      e->cause = "timeout";
    } else {
      return false;
    }
    e->after_markers = c.Lit(",\"aligned\":true");
  } else if (c.Lit("part\"")) {
    e->kind = Kind::kPart;
    if (!number("snapshot", &e->snapshot) || !c.Balance(&e->amount)) return false;
    // {"<rank>":[amount,...],...} into *lists.
    auto lists = [&](auto* out) {
      out->clear();
      while (!c.Char('}')) {
        if (!out->empty() && !c.Char(',')) return false;
        if (!c.Char('"') || !c.Number(&v) || !c.Lit("\":[")) return false;
        if (v >= ranks || v == rank) return false;
        auto& [peer, amounts] = out->emplace_back(static_cast<std::uint32_t>(v), std::vector<Amount>{});
        while (!c.Char(']')) {
          if (!amounts.empty() && !c.Char(',')) return false;
          if (!c.Number(&v)) return false;
          amounts.push_back(static_cast<Amount>(v));
        }
      }
      return true;
    };
    if (!c.Lit(",\"channels\":{") || !lists(&e->channels)) return false;
    e->sent.clear();
    if (c.Lit(",\"sent\":{") && !lists(&e->sent)) return false;
  } else if (c.Lit("overtaken\"")) {
    e->kind = Kind::kOvertaken;
    e->incoming = !c.Lit(",\"to\":");
    if (e->incoming && !c.Lit(",\"from\":")) return false;
    if (!c.Number(&v) || v >= ranks || v == rank) return false;
    e->peer = static_cast<std::uint32_t>(v);
    if (!number("n", &e->n) || !number("by", &e->overtaker)) return false;
  } else {
    return false;  // another kind: the slow path keeps it, unchecked
  }
  if (!c.Lit(",\"vc\":[")) return false;
  e->sum = 0;
  e->clock.clear();
  for (bool first = true; !c.Char(']'); first = false) {
    if (!first && !c.Char(',')) return false;
    if (!c.Number(&v)) return false;
    e->sum += v;
    if (clocks) e->clock.push_back(v);
  }
  return c.Char('}') && c.AtEnd();
}

// The slow path: nlohmann::json and the checks of each kind's shape
// (ShapeError). False, with *not_a_line when `s` is not JSON at all, else
// with what is wrong in *wrong.
bool SlowParse(std::string_view s, std::uint32_t rank, std::uint32_t ranks, bool clocks, Line* e,
               Status* wrong, bool* not_a_line) {
  *not_a_line = false;
  json body = json::parse(s, nullptr, false);
  if (body.is_discarded() || !body.is_object() || !body.contains("e") || !body["e"].is_string()) {
    *not_a_line = true;
    return false;
  }
  if (Status shape = ShapeError(body, rank, ranks); !shape.ok()) {
    *wrong = std::move(shape);
    return false;
  }
  const json& vc = body.contains("vc") ? body["vc"] : json::array();
  if (!vc.is_array()) {
    *wrong = Status::Error(Code::kRankLogNotClock);
    return false;
  }
  e->sum = 0;
  e->clock.clear();
  for (const json& c : vc) {
    if (!c.is_number_unsigned()) {
      *wrong = Status::Error(Code::kRankLogNotClock);
      return false;
    }
    e->sum += c.get<std::uint64_t>();
    if (clocks) e->clock.push_back(c.get<std::uint64_t>());
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
      e->cause = body["cause"].get<std::string>();
      e->by_marker = e->cause == "marker";
      e->after_markers = body.contains("aligned") && body["aligned"].get<bool>();
    } else if (kind == "part") {
      e->kind = Kind::kPart;
      e->snapshot = body["snapshot"].get<SnapshotId>();
      e->amount = body["balance"].get<Amount>();
      e->sent.clear();
      auto lists = [&](const json& by_peer, const char* way, decltype(e->channels)* out) {
        if (!by_peer.is_object()) {
          throw std::invalid_argument(fmt::format("\"{}\" is not an object", way));
        }
        for (const auto& [peer, transfers] : by_peer.items()) {
          std::uint64_t p = 0;
          Cursor key(peer);
          if (!key.Number(&p) || !key.AtEnd() || p >= ranks || p == rank) {
            throw std::invalid_argument(fmt::format("channel {} \"{}\", not another rank", way, peer));
          }
          out->emplace_back(static_cast<std::uint32_t>(p), transfers.get<std::vector<Amount>>());
        }
      };
      lists(body["channels"], "from", &e->channels);
      if (body.contains("sent")) lists(body["sent"], "to", &e->sent);
    } else if (kind == "overtaken") {
      e->kind = Kind::kOvertaken;
      e->incoming = body.contains("from");
      e->peer = body[e->incoming ? "from" : "to"].get<std::uint32_t>();
      e->n = body["n"].get<std::uint64_t>();
      e->overtaker = body["by"].get<std::uint64_t>();
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
    *wrong = Status::Error(Code::kRankLogWrongShape, kind, x.what());
    return false;
  }
  return true;
}

// One rank's log, read a buffer at a time.
class RankLog {
 public:
  // `clocks`: each event keeps its vector clock (Line::clock), not only
  // its sum.
  RankLog(std::uint32_t rank, fs::path path, bool clocks)
      : rank_(rank), path_(std::move(path)), clocks_(clocks) {}
  ~RankLog() {
    if (file_) std::fclose(file_);
  }
  RankLog(const RankLog&) = delete;
  RankLog& operator=(const RankLog&) = delete;

  // Reads the header line. Its ranks (at least 1, above this rank), 0 for
  // an empty log; or why not.
  StatusOr<std::uint32_t> Open() {
    file_ = std::fopen(path_.c_str(), "rb");
    if (!file_) return Status::Error(Code::kRankLogUnreadable, path_.string());
    std::string_view first;
    if (!NextLine(&first)) return 0;
    ++line_;
    json body = json::parse(first, nullptr, false);
    if (body.is_discarded() || !body.is_object() || !body.contains("e") || !body["e"].is_string()) {
      if (AtEnd()) return 0u;  // the only line, cut short
      return Status::Error(Code::kRankLogNotLine, path_.string(), 1);
    }
    if (body["e"] != "rank" || body["rank"] != rank_ || !body["ranks"].is_number_unsigned()) {
      return Status::Error(Code::kRankLogBadStart, path_.string(), rank_);
    }
    // A header no run can write (rank 1 of 0 ranks, or of more ranks than
    // a count holds) would otherwise be read as an empty log (0) or as a
    // run of another size, and the lines after it skipped or misjudged.
    const std::uint64_t ranks = body["ranks"].get<std::uint64_t>();
    if (rank_ >= ranks || ranks > std::numeric_limits<std::uint32_t>::max()) {
      return Status::Error(Code::kRankLogBadRanks, path_.string(), rank_, body["ranks"].dump());
    }
    if (body.contains("app")) {
      std::optional<apps::App> app =
          body["app"].is_string() ? apps::App::Find(body["app"].get<std::string>()) : std::nullopt;
      if (!app) return Status::Error(Code::kRankLogUnknownApp, path_.string(), body["app"].dump());
      app_ = *app;
    }
    if (app_.vertices()) {
      // A dataflow's log: its records, on its topology's channels.
      const json& spec = body.contains("topology") ? body["topology"] : json();
      if (!spec.is_string()) return Status::Error(Code::kRankLogBadTopology, path_.string(), spec.dump());
      StatusOr<dataflow::Topology> t = dataflow::Topology::Parse(spec.get<std::string>());
      if (!t.ok() || t->vertices() != body["ranks"]) {
        return Status::Error(Code::kRankLogBadTopology, path_.string(), spec.dump());
      }
      topology_ = *t;
    }
    return body["ranks"].get<std::uint32_t>();
  }
  apps::App app() const { return app_; }
  // A dataflow's (its header names it), else none.
  const std::optional<dataflow::Topology>& topology() const { return topology_; }
  const fs::path& path() const { return path_; }

  // The next event in *e (true), or false at the end of the log; or what is
  // wrong with the log there.
  StatusOr<bool> Next(std::uint32_t ranks, Line* e) {
    std::string_view s;
    if (ended_ || !NextLine(&s)) return false;
    ++line_;
    e->line = line_;
    Status wrong = Status::Ok();
    bool not_a_line = false;
    if (FastParse(s, rank_, ranks, clocks_, e) ||
        SlowParse(s, rank_, ranks, clocks_, e, &wrong, &not_a_line)) {
      // Every event ticks its rank's clock: the sums grow along a log,
      // which the merge relies on.
      if (e->sum < last_sum_) {
        return At(path_, line_, Status::Error(Code::kRankLogClockBack, e->sum, last_sum_));
      }
      last_sum_ = e->sum;
      return true;
    }
    if (not_a_line) {
      // The last line cut short: the rank died while writing it. Anywhere
      // else the log was damaged.
      if (AtEnd()) return false;
      return Status::Error(Code::kRankLogNotLine, path_.string(), line_);
    }
    return At(path_, line_, wrong);
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
  bool clocks_;
  apps::App app_ = apps::App::kBank;  // a header without "app" is a bank's (event_log.cc)
  std::optional<dataflow::Topology> topology_;
  std::FILE* file_ = nullptr;
  std::vector<char> buf_;
  std::size_t begin_ = 0;  // the next line's start
  std::size_t scan_ = 0;   // searched for '\n' up to here
  bool eof_ = false;
  bool ended_ = false;
  std::size_t line_ = 0;
  std::uint64_t last_sum_ = 0;
};

// A dataflow's channels as the judge's topology: each vertex to each of its
// outputs.
sim::Topology JudgeTopology(const dataflow::Topology& t) {
  std::vector<sim::Link> links;
  for (std::uint32_t v = 0; v < t.vertices(); ++v) {
    for (std::uint32_t to : t.Outputs(v)) links.push_back({v, to});
  }
  return sim::Topology(t.vertices(), links);
}

// The first channel line `e` of rank r names that `t` lacks, as (from, to).
std::optional<std::pair<std::uint32_t, std::uint32_t>> OffTopology(const Line& e, std::uint32_t r,
                                                                   const sim::Topology& t) {
  auto lacks = [&](std::uint32_t from, std::uint32_t to) { return t.Find(from, to) == sim::kNoChannel; };
  switch (e.kind) {
    case Kind::kSend:
    case Kind::kSendMarker:
      if (lacks(r, e.peer)) return std::pair(r, e.peer);
      break;
    case Kind::kReceive:
    case Kind::kReceiveMarker:
      if (lacks(e.peer, r)) return std::pair(e.peer, r);
      break;
    case Kind::kOvertaken:
      if (e.incoming ? lacks(e.peer, r) : lacks(r, e.peer)) {
        return e.incoming ? std::pair(e.peer, r) : std::pair(r, e.peer);
      }
      break;
    case Kind::kPart:
      for (const auto& [from, amounts] : e.channels) {
        if (lacks(from, r)) return std::pair(from, r);
      }
      for (const auto& [to, amounts] : e.sent) {
        if (lacks(r, to)) return std::pair(r, to);
      }
      break;
    default:
      break;
  }
  return std::nullopt;
}

std::string_view KindName(Kind k) {
  switch (k) {
    case Kind::kSend: return "send";
    case Kind::kSendMarker: return "send_marker";
    case Kind::kReceive: return "receive";
    case Kind::kReceiveMarker: return "receive_marker";
    case Kind::kOvertaken: return "overtaken";
    case Kind::kPart: return "part";
    default: return "";
  }
}

// A run's logs opened as one: every rank's header read, each held to the
// lowest rank's that logged anything (of the same application, or dataflow
// topology) and to the others' count of ranks, and every rank's log there. Both readers start here.
struct RunLogs {
  std::vector<std::unique_ptr<RankLog>> by_rank;
  std::uint32_t ranks = 0;
  apps::App app = apps::App::kBank;  // the lowest non-empty log's (OpenRun always sets it)
  std::optional<dataflow::Topology> dataflow;    // its, if a dataflow's
  std::optional<sim::Topology> channels;         // the dataflow's, as the judge reads them
  std::vector<std::string> names;                // each rank's file name, for findings
};

StatusOr<RunLogs> OpenRun(const std::string& dir, bool clocks) {
  auto found = LogFiles(dir);
  if (!found.ok()) return found.status();
  const std::map<std::uint32_t, fs::path>& files = *found;
  RunLogs run;
  // "bank", or "dataflow 2-3-1": what a log says it is of.
  auto of = [](const RankLog& log) {
    return log.topology() ? fmt::format("dataflow {}", log.topology()->spec())
                          : std::string(log.app().name());
  };
  // The run is of what its lowest rank that logged anything says: rank 0's
  // log, unless a kill of the whole job left it empty, which names nothing
  // (an empty log is no bank's more than a dataflow's).
  std::optional<std::uint32_t> named_by;
  std::string of_run;
  for (const auto& [rank, path] : files) {
    auto log = std::make_unique<RankLog>(rank, path, clocks);
    StatusOr<std::uint32_t> r = log->Open();
    if (!r.ok()) return r.status();
    if (*r == 0) {
      log->End();  // a rank that logged nothing
      run.by_rank.push_back(std::move(log));
      continue;
    }
    if (!named_by) {
      named_by = rank;
      run.app = log->app();
      run.dataflow = log->topology();
      of_run = of(*log);
    } else if (of(*log) != of_run) {
      return Status::Error(Code::kRankLogOtherApp, path.string(), of(*log), *named_by, of_run);
    }
    if (run.ranks != 0 && run.ranks != *r) {
      return Status::Error(Code::kRankLogOtherRun, path.string(), *r, run.ranks);
    }
    run.ranks = *r;
    run.by_rank.push_back(std::move(log));
  }
  if (run.ranks == 0) return Status::Error(Code::kRankLogAllEmpty, dir);
  if (files.size() != run.ranks || files.rbegin()->first != run.ranks - 1) {
    return Status::Error(Code::kRankLogCount, dir, files.size(), run.ranks);
  }
  for (std::uint32_t r = 0; r < run.ranks; ++r) run.names.push_back(fmt::format("rank-{}.jsonl", r));
  if (run.dataflow) run.channels = JudgeTopology(*run.dataflow);
  return run;
}

// Every event of the run's logs once, in the merge's causal order, each on a
// channel the run has: `take(r, line)` takes rank r's next event, and false
// cuts that log there (the rest is still read and checked, and counted in
// *dropped); `ended(r)` once rank r's log has ended or was cut.
template <typename Take, typename Ended>
Status Merge(RunLogs& run, Take take, Ended ended, std::size_t* dropped) {
  std::vector<Line> head(run.ranks);
  // The merge: the lowest (clock sum, rank) first.
  using Key = std::pair<std::uint64_t, std::uint32_t>;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> next;
  // The next event of rank r into the merge, or the rank ended; or why the
  // log cannot be read on.
  auto advance = [&](std::uint32_t r) -> Status {
    StatusOr<bool> got = run.by_rank[r]->Next(run.ranks, &head[r]);
    if (!got.ok()) return got.status();
    if (*got) {
      next.emplace(head[r].sum, r);
    } else {
      ended(r);
    }
    return Status::Ok();
  };
  for (std::uint32_t r = 0; r < run.ranks; ++r) {
    if (Status s = advance(r); !s.ok()) return s;
  }
  while (!next.empty()) {
    const std::uint32_t r = next.top().second;
    next.pop();
    RankLog& log = *run.by_rank[r];
    if (run.channels) {
      if (auto off = OffTopology(head[r], r, *run.channels)) {
        return At(log.path(), head[r].line,
                  Status::Error(Code::kRankLogNoChannel, KindName(head[r].kind),
                                run.dataflow->spec(), off->first, off->second));
      }
    }
    if (!take(r, head[r])) {
      ++*dropped;
      Line rest;
      for (;;) {
        StatusOr<bool> got = log.Next(run.ranks, &rest);
        if (!got.ok()) return got.status();
        if (!*got) break;
        ++*dropped;
      }
      log.End();
      ended(r);
      continue;
    }
    if (Status s = advance(r); !s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace

StatusOr<LogCheck> CheckLogs(const std::string& dir, Lang lang) {
  StatusOr<RunLogs> run = OpenRun(dir, /*clocks=*/false);
  if (!run.ok()) return run.status();
  LogCheck out;
  out.ranks = run->ranks;
  if (run->dataflow) out.topology = run->dataflow->spec();
  std::vector<std::string> branches;
  for (std::uint32_t r = 0; r < run->ranks; ++r) branches.push_back(store::BranchName(r));
  check::StreamJudge judge =
      run->channels
          ? check::StreamJudge(*run->channels, std::move(branches), run->names, run->app, lang)
          : check::StreamJudge(run->ranks, std::move(branches), run->names, run->app, lang);
  Status read = Merge(
      *run,
      [&](std::uint32_t r, const Line& e) {
        if (judge.Apply(r, e)) return true;
        // A receipt whose send no log holds (its sender's log ended first):
        // this log is cut here, at a consistent point; the rest is counted.
        judge.CutShort();
        return false;
      },
      [&](std::uint32_t r) { judge.NodeEnded(r); }, &out.dropped);
  if (!read.ok()) return read;
  static_cast<check::StreamResult&>(out) = judge.Finish();
  return out;
}

StatusOr<std::string> ShiVizLog(const std::string& dir) {
  StatusOr<RunLogs> run = OpenRun(dir, /*clocks=*/true);
  if (!run.ok()) return run.status();
  std::vector<std::string> hosts;
  for (std::uint32_t r = 0; r < run->ranks; ++r) hosts.push_back(store::BranchName(r));
  // In the application's words: the bank's money, a dataflow's records and
  // barriers, jobs' and locks' states and messages.
  const apps::AppWords& words = run->app.words();
  auto state = [&](Amount a) { return words.state(a, hosts, Lang::kEn); };
  auto message = [&](Amount a) { return words.message(a, Lang::kEn); };
  const std::string marker = catalogue::EnglishMarkerWord(
      run->dataflow ? algorithms::MarkerNoun::kBarrier : algorithms::MarkerNoun::kMarker, false);
  check::ShiVizWriter out;
  std::size_t dropped = 0;  // none: every event is taken
  Status read = Merge(
      *run,
      [&](std::uint32_t r, Line& e) {
        std::string what;
        switch (e.kind) {
          case Kind::kStart:
            what = fmt::format("start with {}", state(e.amount));
            break;
          case Kind::kSend:
            what = fmt::format("send {} to {}", message(e.amount), hosts[e.peer]);
            break;
          case Kind::kReceive:
            what = fmt::format("receive {} from {}", message(e.amount), hosts[e.peer]);
            break;
          case Kind::kSendMarker:
            what = fmt::format("{} {} to {}", marker, e.snapshot, hosts[e.peer]);
            break;
          case Kind::kReceiveMarker:
            what = fmt::format("{} {} from {}", marker, e.snapshot, hosts[e.peer]);
            break;
          case Kind::kRecord:
            what = fmt::format("record {} for snapshot {} ({})", state(e.amount), e.snapshot,
                               e.cause);
            break;
          case Kind::kPart:
            what = fmt::format("part of snapshot {} done", e.snapshot);
            break;
          default:
            return true;  // not drawn
        }
        e.clock.resize(std::min(e.clock.size(), hosts.size()));
        out.Add(hosts[r], hosts, std::span<const std::uint64_t>(e.clock), what);
        return true;
      },
      [](std::uint32_t) {}, &dropped);
  if (!read.ok()) return read;
  return std::move(out).Take();
}

}  // namespace cutline::runtime
