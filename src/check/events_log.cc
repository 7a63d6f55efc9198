#include "check/events_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <utility>

#include "apps/bank/money.h"
#include "check/findings.h"
#include "check/stream_judge.h"
#include "sim/network.h"

namespace cutline::check {

namespace {

using json = nlohmann::json;
using sim::ChannelId;
using sim::NodeId;
using sim::Seq;
using EventKind = StreamEvent::Kind;

enum class Kind : std::uint8_t {
  kStart, kSend, kReceive, kRecord, kMarkerSend, kMarkerReceive, kPartDone,
  // Version 2 (docs/logs.md, "Version 2").
  kDrop, kAbort, kCrash, kRestart,
};

struct KindName {
  Kind kind;
  std::string_view name;
  int since;  // the first version that has it
};
constexpr KindName kKinds[] = {
    {Kind::kStart, "start", 1},         {Kind::kSend, "send", 1},
    {Kind::kReceive, "receive", 1},     {Kind::kRecord, "record", 1},
    {Kind::kMarkerSend, "marker-send", 1}, {Kind::kMarkerReceive, "marker-receive", 1},
    {Kind::kPartDone, "part-done", 1},  {Kind::kDrop, "drop", 2},
    {Kind::kAbort, "abort", 2},         {Kind::kCrash, "crash", 2},
    {Kind::kRestart, "restart", 2},
};

// A line that is not what the format says: why, as a Status (the
// catalogues word it).
struct Malformed {
  Status why;
};

// A line's place: its file and number. A refusal carries both (kLogAt); a
// finding's words show them as "P1.jsonl:7".
struct Where {
  const std::string* file = nullptr;  // interned (Names): a line pays for a pointer
  std::size_t line = 0;
  std::string str() const { return fmt::format("{}:{}", *file, line); }
};

// Strings met on many lines (message ids, process names, file names), held
// once each: a line holds a pointer, and maps key on the pointer or the
// index (0, 1, ... in the order first met) instead of hashing text.
struct Interned {
  std::string text;
  std::uint32_t index = 0;
  // A snapshot id's number once every file is read (1, 2, ...; NumberSnapshots):
  // kept here, where it costs no room, rather than on each line.
  std::uint32_t number = 0;
};
class Names {
 public:
  const Interned* Intern(std::string_view text) {
    if (held_.size() * 2 >= slots_.size()) Grow();
    const std::size_t hash = std::hash<std::string_view>{}(text);
    Slot& slot = slots_[Position(text, hash)];
    if (slot.name == 0) {
      held_.push_back(Interned{std::string(text), static_cast<std::uint32_t>(held_.size())});
      slot = Slot{static_cast<std::uint32_t>(held_.size()), static_cast<std::uint32_t>(hash)};
    }
    return &held_[slot.name - 1];
  }
  Interned& At(std::uint32_t index) { return held_[index]; }
  const Interned& At(std::uint32_t index) const { return held_[index]; }
  const Interned* Find(std::string_view text) const {
    if (slots_.empty()) return nullptr;
    const Slot slot = slots_[Position(text, std::hash<std::string_view>{}(text))];
    return slot.name == 0 ? nullptr : &held_[slot.name - 1];
  }
  std::size_t size() const { return held_.size(); }

 private:
  // Open addressing (a map's node per name was most of a name's cost): a
  // slot holds a name's index + 1, or 0 for none, and the low bits of its
  // hash, so that a probe or a growth reads the name itself only when the
  // hashes agree (reading it was most of a lookup's time); at most half
  // are taken.
  struct Slot {
    std::uint32_t name = 0;
    std::uint32_t hash = 0;
  };
  // The slot that holds `text`, or the empty one it would take.
  std::size_t Position(std::string_view text, std::size_t hash) const {
    const std::size_t mask = slots_.size() - 1;
    const auto low = static_cast<std::uint32_t>(hash);
    for (std::size_t i = low & mask;; i = (i + 1) & mask) {
      const Slot& s = slots_[i];
      if (s.name == 0 || (s.hash == low && held_[s.name - 1].text == text)) return i;
    }
  }
  void Grow() {
    std::vector<Slot> old(std::max<std::size_t>(64, slots_.size() * 2));
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    // A name's first slot is its hash's low 32 bits under the mask, as in
    // Position (fewer than 2^32 slots: an index is 32 bits).
    for (const Slot& s : old) {
      if (s.name == 0) continue;
      std::size_t i = s.hash & mask;
      while (slots_[i].name != 0) i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::deque<Interned> held_;  // a deque: what it holds never moves
  std::vector<Slot> slots_;
};
// The names a log's lines share: its message ids, its process names (as
// lines name peers) and its files.
struct Tables {
  Names messages, processes, files, snapshots;
  bool drops = false;  // some line is a drop (CheckVersion2)
  // False in the second reading: a send's or a receipt's message is not
  // looked up again (Cursor sets the first reading's: Process::msgs).
  bool intern_messages = true;
  // What the first reading keeps of the lines it does not hold (sends and
  // receipts, most of a log): a few bits a message and a few flags, which
  // feed the merge with a second reading of the files (Cursor) and tell
  // whether a check across lines could refuse one of them (HoldEveryLine).
  enum MessageBit : std::uint8_t { kSent = 1, kSentTwice = 2, kAsNumber = 4, kAsText = 8 };
  std::vector<std::uint8_t> message_bits;  // by message index
  std::size_t transfers = 0;                // send lines
  bool epochs = false, no_epochs = false, markers = false, crashes = false;
  bool Sent(const Interned* msg) const {
    return msg->index < message_bits.size() && (message_bits[msg->index] & kSent) != 0;
  }
};

// An id as written (a message's, or in version 2 a snapshot's): a string,
// or a whole number (`number`). The two are kept apart only to refuse one
// id written both ways.
struct Id {
  std::string text;
  bool number = false;
};

// One event, its shape checked; names are resolved once every file is read.
// Sends and receipts are not held (the merge reads them again), but the
// other lines are, and every line is when a check must see them all
// (HoldEveryLine), so a line is packed into 64 bytes (a deque's block then
// holds 8 with none spare): a message id and a snapshot id share a field
// (no kind has both), an epoch is -1 when none, and a snapshot's number is
// its interned id's.
struct Line {
  Where where;
  const Interned* peer = nullptr;  // send and marker-send: `to`; receive and marker-receive: `from`
  // Send, receive and drop: the message's id; lines of a snapshot: its id
  // as written; none on start and crash (HasMsg says which).
  const Interned* id = nullptr;
  cutline::Amount value = 0;  // start, record and restart: the state; send: the amount
  // Version 2: a send's epoch (Lai-Yang), or -1 for none (an epoch is at least 0).
  cutline::Amount epoch_or_none = -1;
  // The rare fields, apart: every line pays for a pointer only (start's
  // inputs and part-done's channels too: one line a process, or a snapshot).
  struct Rare {
    std::vector<std::string> inputs;  // start
    std::vector<std::pair<std::string, std::vector<Id>>> channels;  // part-done
    std::vector<std::pair<std::string, cutline::Amount>> expected;
    std::string why;
  };
  std::unique_ptr<Rare> rare;
  // Version 2: start's or record's `aligned` (barriers, below).
  std::optional<bool> aligned;
  Kind kind = Kind::kStart;
  bool msg_number = false;       // `msg` was written as a number
  bool snapshot_number = false;  // the snapshot's id was written as a number

  static bool HasMsg(Kind k) { return k == Kind::kSend || k == Kind::kReceive || k == Kind::kDrop; }
  const Interned* msg() const { return HasMsg(kind) ? id : nullptr; }
  const Interned* snapshot_id() const { return HasMsg(kind) ? nullptr : id; }
  // Its snapshot's number (0: none).
  SnapshotId snapshot() const { return snapshot_id() != nullptr ? snapshot_id()->number : 0; }
  std::optional<cutline::Amount> epoch() const {
    return epoch_or_none >= 0 ? std::optional(epoch_or_none) : std::nullopt;
  }
  const Rare& rare_or_none() const {
    static const Rare kNone;
    return rare ? *rare : kNone;
  }
  const std::string& snapshot_name() const {
    static const std::string kNone;
    return snapshot_id() != nullptr ? snapshot_id()->text : kNone;
  }
  void SetMsg(const Id& msg, Tables* tables) {
    if (tables->intern_messages) id = tables->messages.Intern(msg.text);
    msg_number = msg.number;
  }
  void SetSnapshot(const Id& snapshot, Tables* tables) {
    id = tables->snapshots.Intern(snapshot.text);
    snapshot_number = snapshot.number;
  }
  const std::vector<std::string>& inputs() const { return rare_or_none().inputs; }
  const std::vector<std::pair<std::string, std::vector<Id>>>& channels() const {
    return rare_or_none().channels;
  }
  const std::vector<std::pair<std::string, cutline::Amount>>& expected() const {
    return rare_or_none().expected;
  }
  Rare& MakeRare() {
    if (!rare) rare = std::make_unique<Rare>();
    return *rare;
  }
};
static_assert(sizeof(Line) <= 64, "a held line outgrew its 64 bytes");

// What a reading saw of a file: its bytes' count and a cheap fingerprint
// of them, the same however the reads split them. The second reading
// compares its own with the first's (Cursor): a file written to between
// the two must not be judged as though it were the one checked.
class Seen {
 public:
  void Add(const char* p, std::size_t n) {
    bytes_ += n;
    for (; n > 0 && tail_bytes_ != 0; --n) Push(*p++);
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t word;
      std::memcpy(&word, p, 8);
      if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
      Mix(word);
    }
    for (; n > 0; --n) Push(*p++);
  }
  bool operator==(const Seen& o) const {
    return bytes_ == o.bytes_ && hash_ == o.hash_ && tail_ == o.tail_ && tail_bytes_ == o.tail_bytes_;
  }

 private:
  // Each step is a bijection of the state for a given word, and of the
  // word for a given state: one word changed always changes the result.
  void Mix(std::uint64_t word) {
    hash_ = (hash_ ^ word) * 0x9e3779b97f4a7c15ULL;
    hash_ ^= hash_ >> 32;
  }
  // Bytes that do not fill a word, first byte lowest (as a word's on a
  // little-endian machine).
  void Push(char c) {
    tail_ |= std::uint64_t{static_cast<unsigned char>(c)} << (8 * tail_bytes_);
    if (++tail_bytes_ == 8) {
      Mix(tail_);
      tail_ = 0;
      tail_bytes_ = 0;
    }
  }
  std::uint64_t bytes_ = 0, hash_ = 0, tail_ = 0;
  unsigned tail_bytes_ = 0;
};

struct Process {
  const std::string* file = nullptr;  // interned (Tables::files)
  std::filesystem::path path;
  // Its lines held (all, or all but the sends and receipts: Held), in its
  // order; a deque: no spare capacity, and lines never move.
  std::deque<Line> lines;
  std::size_t read = 0;           // its lines read, held or not
  Kind last = Kind::kStart;       // its last line's kind
  // Its file as the first reading saw it (Cursor compares).
  int version = 1;
  Seen seen;
  // Its sends' and receipts' messages (their indices), in its order, when
  // they are not held: the second reading's (Cursor), which then need not
  // look each one up again (it was a third of the time). A deque: no spare
  // capacity.
  std::deque<std::uint32_t> msgs;
  // By peer (its interned index): whether a send not held goes to it, and
  // a receipt not held comes from it (HoldEveryLine checks them).
  std::vector<bool> sends_to, receives_from;
};

// The lines the first reading holds when it need not hold them all: the
// rare ones (a process's start, its snapshots' lines, its crashes), which
// the checks and the claims read; sends and receipts are read again.
bool Held(Kind k) { return k != Kind::kSend && k != Kind::kReceive; }

// `what` is wrong at `where`.
[[noreturn]] void Refuse(const Where& where, const Status& what) {
  throw Malformed{Status::Error(Code::kLogAt, *where.file, where.line, what)};
}

// A message id: a string, or a whole number written as one.
Id MessageId(const json& value, const Where& where, std::string_view key) {
  if (value.is_string() && !value.get<std::string>().empty()) return {value.get<std::string>()};
  if (value.is_number_integer()) return {value.dump(), true};
  Refuse(where, Status::Error(Code::kLogNotMessageId, key));
}

const json& Field(const json& o, const Where& where, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end()) Refuse(where, Status::Error(Code::kLogNoField, key));
  return *it;
}

void ReadMsg(const json& o, Line* line, Tables* tables) {
  line->SetMsg(MessageId(Field(o, line->where, "msg"), line->where, "msg"), tables);
}

std::string Name(const json& o, const Where& where, std::string_view key) {
  const json& v = Field(o, where, key);
  if (!v.is_string() || v.get<std::string>().empty()) {
    Refuse(where, Status::Error(Code::kLogNotProcessName, key));
  }
  return v.get<std::string>();
}

bool IsWhole(const json& v, cutline::Amount least) {
  return v.is_number_integer() &&
         !(v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) &&
         v.get<std::int64_t>() >= least;
}

cutline::Amount WholeValue(const json& v, const Where& where, std::string_view key,
                           cutline::Amount least) {
  if (!IsWhole(v, least)) Refuse(where, Status::Error(Code::kLogNotWhole, key, least));
  return v.get<std::int64_t>();
}
cutline::Amount Whole(const json& o, const Where& where, std::string_view key,
                      cutline::Amount least) {
  return WholeValue(Field(o, where, key), where, key, least);
}

// A snapshot's id: in version 1 a whole number of at least 1; in version 2
// also a non-empty string.
Id SnapshotRef(const json& o, const Where& where, int version) {
  const json& v = Field(o, where, "snapshot");
  if (version == 1) return {std::to_string(WholeValue(v, where, "snapshot", 1)), true};
  if (v.is_string() && !v.get<std::string>().empty()) return {v.get<std::string>()};
  if (IsWhole(v, 1)) return {v.dump(), true};
  Refuse(where, Status::Error(Code::kLogNotSnapshotId, "snapshot"));
}

std::vector<std::string> NamesIn(const json& v, const Where& where, std::string_view key) {
  if (!v.is_array()) Refuse(where, Status::Error(Code::kLogNotNames, key));
  std::vector<std::string> names;
  for (const json& n : v) {
    if (!n.is_string() || n.get<std::string>().empty()) {
      Refuse(where, Status::Error(Code::kLogNotNames, key));
    }
    names.push_back(n.get<std::string>());
  }
  return names;
}

// `aligned`, if the line has it: true or false.
std::optional<bool> Aligned(const json& o, const Where& where) {
  auto it = o.find("aligned");
  if (it == o.end()) return std::nullopt;
  if (!it->is_boolean()) Refuse(where, Status::Error(Code::kLogNotBool, "aligned"));
  return it->get<bool>();
}

void ReadPartDone(const json& o, Line* line, int version, Tables* tables) {
  const Where& at = line->where;
  line->SetSnapshot(SnapshotRef(o, at, version), tables);
  const json& channels = Field(o, at, "channels");
  if (!channels.is_object()) Refuse(at, Status::Error(Code::kLogChannelsNotMap));
  for (const auto& [from, ids] : channels.items()) {
    if (!ids.is_array()) Refuse(at, Status::Error(Code::kLogChannelNotList, from));
    std::vector<Id> list;
    for (const json& id : ids) list.push_back(MessageId(id, at, "channels"));
    line->MakeRare().channels.emplace_back(from, std::move(list));
  }
  auto expected = o.find("expected");
  if (version == 1 || expected == o.end()) return;
  if (!expected->is_object()) Refuse(at, Status::Error(Code::kLogExpectedNotMap));
  for (const auto& [from, count] : expected->items()) {
    line->MakeRare().expected.emplace_back(from, WholeValue(count, at, "expected", 0));
  }
}

// The fields each kind must carry (docs/logs.md); other fields are ignored,
// so a writer may add its own (a clock, a time). Version 1 ignores the
// fields version 2 added, as any field it does not know.
void ReadFields(const json& o, Line* line, int version, Tables* tables) {
  const Where& at = line->where;
  const bool v2 = version >= 2;
  switch (line->kind) {
    case Kind::kStart:
      line->value = Whole(o, at, "state", 0);  // a state is at least 0: see Merge::Send
      line->MakeRare().inputs = NamesIn(Field(o, at, "inputs"), at, "inputs");
      if (v2) line->aligned = Aligned(o, at);
      return;
    case Kind::kSend:
      line->peer = tables->processes.Intern(Name(o, at, "to"));
      ReadMsg(o, line, tables);
      line->value = Whole(o, at, "amount", 0);
      if (v2 && o.contains("epoch")) line->epoch_or_none = Whole(o, at, "epoch", 0);
      return;
    case Kind::kReceive:
      line->peer = tables->processes.Intern(Name(o, at, "from"));
      ReadMsg(o, line, tables);
      return;
    case Kind::kRecord:
      line->SetSnapshot(SnapshotRef(o, at, version), tables);
      line->value = Whole(o, at, "state", 0);
      if (v2) line->aligned = Aligned(o, at);
      return;
    case Kind::kMarkerSend:
    case Kind::kMarkerReceive:
      line->peer =
          tables->processes.Intern(Name(o, at, line->kind == Kind::kMarkerSend ? "to" : "from"));
      line->SetSnapshot(SnapshotRef(o, at, version), tables);
      return;
    case Kind::kPartDone:
      ReadPartDone(o, line, version, tables);
      return;
    case Kind::kDrop:
      ReadMsg(o, line, tables);
      tables->drops = true;
      return;
    case Kind::kAbort: {
      line->SetSnapshot(SnapshotRef(o, at, version), tables);
      const json& why = Field(o, at, "why");
      if (!why.is_string() || why.get<std::string>().empty()) {
        Refuse(at, Status::Error(Code::kLogNotText, "why"));
      }
      line->MakeRare().why = why.get<std::string>();
      return;
    }
    case Kind::kCrash:
      return;
    case Kind::kRestart:
      line->value = Whole(o, at, "state", 0);
      line->SetSnapshot(SnapshotRef(o, at, version), tables);
      return;
  }
}

// One line of a file, or nothing for a blank one; `process` is its process.
// The common line read without building a JSON document (which was most
// of the reading's cost): a flat object of plain strings, whole numbers
// and booleans, every field as ReadFields needs it. Anything else (an
// escape, a list, a fraction, a field twice, a field wrong) is left to
// ReadLine's full reading, which says what is wrong: this path only ever
// accepts what that one reads the same.
class FlatLine {
 public:
  // False when the line is not such an object.
  bool Parse(std::string_view text) {
    count_ = 0;
    std::size_t i = 0;
    auto space = [&] {
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
    };
    auto string = [&](std::string_view* out) {
      if (i >= text.size() || text[i] != '"') return false;
      const std::size_t from = ++i;
      // Printable ASCII only: no escape to decode, no UTF-8 to check.
      while (i < text.size() && text[i] != '"') {
        if (text[i] < 0x20 || text[i] > 0x7e || text[i] == '\\') return false;
        ++i;
      }
      if (i >= text.size()) return false;
      *out = text.substr(from, i - from);
      ++i;
      return true;
    };
    space();
    if (i >= text.size() || text[i] != '{') return false;
    ++i;
    space();
    if (i < text.size() && text[i] == '}') return false;  // no field: the full reading refuses it
    for (;;) {
      if (count_ == kMost) return false;
      Value& v = values_[count_];
      space();
      if (!string(&v.key)) return false;
      for (std::size_t k = 0; k < count_; ++k) {
        if (values_[k].key == v.key) return false;
      }
      space();
      if (i >= text.size() || text[i] != ':') return false;
      ++i;
      space();
      if (i >= text.size()) return false;
      if (text[i] == '"') {
        v.type = Value::kString;
        if (!string(&v.text)) return false;
      } else if (text.compare(i, 4, "true") == 0 || text.compare(i, 5, "false") == 0) {
        v.type = Value::kBool;
        v.flag = text[i] == 't';
        i += v.flag ? 4 : 5;
      } else {
        // A whole number of at most 18 digits (it fits in 64 bits), with no
        // leading zero and not -0 (JSON, or the full reading, says those).
        const std::size_t from = i;
        const bool minus = text[i] == '-';
        if (minus) ++i;
        const std::size_t digits = i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
        const std::size_t n = i - digits;
        if (n == 0 || n > 18 || (text[digits] == '0' && (n > 1 || minus))) return false;
        if (i < text.size() && (text[i] == '.' || text[i] == 'e' || text[i] == 'E')) return false;
        v.type = Value::kWhole;
        v.text = text.substr(from, i - from);
        v.whole = 0;
        for (std::size_t d = digits; d < i; ++d) v.whole = v.whole * 10 + (text[d] - '0');
        if (minus) v.whole = -v.whole;
      }
      ++count_;
      space();
      if (i >= text.size()) return false;
      if (text[i] == '}') break;
      if (text[i] != ',') return false;
      ++i;
    }
    ++i;
    space();
    return i == text.size();
  }

  // The line's event, or nothing when the full reading must read it.
  std::optional<Line> Read(const Where& where, int version, std::string* process,
                           Tables* tables) const {
    std::string_view name, kind;
    if (!Text("process", &name) || !Text("kind", &kind)) return std::nullopt;
    Line line;
    line.where = where;
    const bool v2 = version >= 2;
    if (kind == "send") {
      line.kind = Kind::kSend;
      std::string_view to;
      if (!Text("to", &to) || !Msg(&line, tables) || !Whole("amount", 0, &line.value)) return std::nullopt;
      line.peer = tables->processes.Intern(to);
      if (v2 && Find("epoch") != nullptr) {
        cutline::Amount epoch = 0;
        if (!Whole("epoch", 0, &epoch)) return std::nullopt;
        line.epoch_or_none = epoch;
      }
    } else if (kind == "receive" || (v2 && kind == "drop")) {
      line.kind = kind == "drop" ? Kind::kDrop : Kind::kReceive;
      std::string_view from;
      if (line.kind == Kind::kReceive) {
        if (!Text("from", &from)) return std::nullopt;
        line.peer = tables->processes.Intern(from);
      }
      if (!Msg(&line, tables)) return std::nullopt;
      tables->drops |= line.kind == Kind::kDrop;
    } else if (kind == "record") {
      line.kind = Kind::kRecord;
      if (!Snapshot(version, &line, tables) || !Whole("state", 0, &line.value)) return std::nullopt;
      if (v2 && Find("aligned") != nullptr) {
        const Value* a = Find("aligned");
        if (a->type != Value::kBool) return std::nullopt;
        line.aligned = a->flag;
      }
    } else if (kind == "marker-send" || kind == "marker-receive") {
      line.kind = kind == "marker-send" ? Kind::kMarkerSend : Kind::kMarkerReceive;
      std::string_view peer;
      if (!Text(line.kind == Kind::kMarkerSend ? "to" : "from", &peer) ||
          !Snapshot(version, &line, tables)) {
        return std::nullopt;
      }
      line.peer = tables->processes.Intern(peer);
    } else if (v2 && kind == "crash") {
      line.kind = Kind::kCrash;
    } else {
      return std::nullopt;  // rarer kinds, and unknown ones
    }
    process->assign(name);
    return line;
  }

 private:
  struct Value {
    enum Type { kString, kWhole, kBool } type = kString;
    std::string_view key, text;  // text: a string's, or a number's as written
    cutline::Amount whole = 0;
    bool flag = false;
  };
  static constexpr std::size_t kMost = 16;

  const Value* Find(std::string_view key) const {
    for (std::size_t k = 0; k < count_; ++k) {
      if (values_[k].key == key) return &values_[k];
    }
    return nullptr;
  }
  bool Text(std::string_view key, std::string_view* out) const {
    const Value* v = Find(key);
    if (v == nullptr || v->type != Value::kString || v->text.empty()) return false;
    *out = v->text;
    return true;
  }
  bool Whole(std::string_view key, cutline::Amount least, cutline::Amount* out) const {
    const Value* v = Find(key);
    if (v == nullptr || v->type != Value::kWhole || v->whole < least) return false;
    *out = v->whole;
    return true;
  }
  bool Msg(Line* line, Tables* tables) const {
    const Value* v = Find("msg");
    if (v == nullptr || v->type == Value::kBool || v->text.empty()) return false;
    line->SetMsg(Id{std::string(v->text), v->type == Value::kWhole}, tables);
    return true;
  }
  bool Snapshot(int version, Line* line, Tables* tables) const {
    const Value* v = Find("snapshot");
    if (v == nullptr || v->type == Value::kBool || v->text.empty()) return false;
    if (v->type == Value::kWhole && v->whole < 1) return false;
    if (v->type == Value::kString && version == 1) return false;
    line->SetSnapshot(Id{std::string(v->text), v->type == Value::kWhole}, tables);
    return true;
  }

  Value values_[kMost];
  std::size_t count_ = 0;
};

std::optional<Line> ReadLine(const std::string& text, const Where& where, int version,
                             std::string* process, Tables* tables) {
  if (text.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
  if (FlatLine flat; flat.Parse(text)) {
    if (std::optional<Line> line = flat.Read(where, version, process, tables)) return line;
  }
  json o = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!o.is_object()) Refuse(where, Status::Error(Code::kLogNotObject));
  *process = Name(o, where, "process");
  const json& kind = Field(o, where, "kind");
  Line line;
  line.where = where;
  auto known = std::find_if(std::begin(kKinds), std::end(kKinds), [&](const KindName& k) {
    return kind.is_string() && kind.get<std::string>() == k.name;
  });
  if (known == std::end(kKinds)) {
    Refuse(where, Status::Error(Code::kLogUnknownKind, kind.dump()));
  }
  if (known->since > version) {
    Refuse(where, Status::Error(Code::kLogKindNotInVersion, known->name, version));
  }
  line.kind = known->kind;
  ReadFields(o, &line, version, tables);
  return line;
}

// The first line every file must hold (the lowest version's, which every
// reader of the format reads).
std::string Header() {
  return fmt::format("{{\"format\": \"{}\", \"version\": {}}}", kEventsFormat, 1);
}

// The file's version.
int ReadHeader(const std::string& text, const Where& where) {
  json o = json::parse(text, nullptr, false);
  if (!o.is_object() || o.value("format", json()) != kEventsFormat ||
      !o.value("version", json()).is_number_integer()) {
    Refuse(where, Status::Error(Code::kLogNotEventsLog, Header()));
  }
  const std::int64_t version = o["version"].get<std::int64_t>();
  if (version < 1 || version > kEventsVersion) {
    Refuse(where, Status::Error(Code::kLogVersion, version, kEventsFormat, kEventsVersion));
  }
  return static_cast<int>(version);
}

// A file's lines, read a block at a time (a byte at a time through a
// stream was most of the reading's cost).
class LineReader {
 public:
  explicit LineReader(const std::filesystem::path& path)
      : file_(std::fopen(path.c_str(), "rb")), block_(std::size_t{1} << 16) {}
  ~LineReader() {
    if (file_ != nullptr) std::fclose(file_);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  bool opened() const { return file_ != nullptr; }
  bool failed() const { return std::ferror(file_) != 0; }
  // The bytes read so far (Fill: every byte, at the end).
  const Seen& seen() const { return seen_; }
  // Reads to the end, for seen().
  void Drain() {
    while (Fill()) {
    }
  }

  // The next line into *text, without its newline; false at the end. A
  // line longer than kEventsLineBytesMax is refused before it is held.
  bool Next(const Where& where, std::string* text) {
    text->clear();
    for (;;) {
      if (at_ == end_ && !Fill()) return !text->empty();
      const char* from = block_.data() + at_;
      const void* nl = std::memchr(from, '\n', end_ - at_);
      const std::size_t take =
          nl == nullptr ? end_ - at_ : static_cast<std::size_t>(static_cast<const char*>(nl) - from);
      if (text->size() + take > kEventsLineBytesMax) {
        Refuse(where, Status::Error(Code::kLogLineTooLong, kEventsLineBytesMax));
      }
      text->append(from, take);
      at_ += take;
      if (nl != nullptr) {
        ++at_;
        return true;
      }
    }
  }

 private:
  bool Fill() {
    at_ = 0;
    end_ = std::fread(block_.data(), 1, block_.size(), file_);
    seen_.Add(block_.data(), end_);
    return end_ > 0;
  }
  std::FILE* file_;
  std::vector<char> block_;
  std::size_t at_ = 0, end_ = 0;
  Seen seen_;
};

void Mark(std::vector<bool>* by_index, std::uint32_t index) {
  if (by_index->size() <= index) by_index->resize(index + 1);
  (*by_index)[index] = true;
}
void MarkWritten(const Interned* msg, bool number, Tables* tables) {
  std::vector<std::uint8_t>& bits = tables->message_bits;
  if (bits.size() <= msg->index) bits.resize(msg->index + 1, 0);
  bits[msg->index] |= number ? Tables::kAsNumber : Tables::kAsText;
}

// Keeps what the merge and HoldEveryLine need of a line the reading may not hold.
void NoteFacts(const Line& l, Process* p, Tables* tables) {
  switch (l.kind) {
    case Kind::kSend: {
      MarkWritten(l.msg(), l.msg_number, tables);
      std::uint8_t& bits = tables->message_bits[l.msg()->index];
      bits |= (bits & Tables::kSent) != 0 ? Tables::kSentTwice : Tables::kSent;
      ++tables->transfers;
      (l.epoch() ? tables->epochs : tables->no_epochs) = true;
      Mark(&p->sends_to, l.peer->index);
      return;
    }
    case Kind::kReceive:
      MarkWritten(l.msg(), l.msg_number, tables);
      Mark(&p->receives_from, l.peer->index);
      return;
    case Kind::kMarkerSend:
    case Kind::kMarkerReceive:
      tables->markers = true;
      return;
    case Kind::kCrash:
      tables->crashes = true;
      return;
    case Kind::kPartDone:
      for (const auto& [from, ids] : l.channels()) {
        for (const Id& id : ids) MarkWritten(tables->messages.Intern(id.text), id.number, tables);
      }
      return;
    default:
      return;
  }
}

// `hold_every_line`: hold the sends and receipts too (HoldEveryLine).
void ReadFile(const std::filesystem::path& path, std::map<std::string, Process>* processes,
              std::size_t* lines, Tables* tables, bool hold_every_line) {
  const std::string* file = &tables->files.Intern(path.filename().string())->text;
  LineReader in(path);
  if (!in.opened()) throw Malformed{Status::Error(Code::kLogUnreadable, path.string())};
  std::string text;
  std::size_t number = 1;
  int version = 1;
  for (; in.Next(Where{file, number}, &text); ++number) {
    const Where where{file, number};
    if (number == 1) {
      version = ReadHeader(text, where);
      continue;
    }
    std::string name;
    std::optional<Line> line = ReadLine(text, where, version, &name, tables);
    if (!line) continue;
    Process& p = (*processes)[name];
    if (p.file == nullptr) {
      p.file = file;
      p.path = path;
    }
    if (p.file != file) {
      Refuse(where, Status::Error(Code::kLogFileTwice, name, *p.file));
    }
    const bool first = p.read == 0;
    if (first != (line->kind == Kind::kStart)) {
      Refuse(where, Status::Error(first ? Code::kLogFirstNotStart : Code::kLogStartsTwice, name));
    }
    // A crashed process logs nothing until it restarts, and restarts only
    // after a crash.
    const bool crashed = !first && p.last == Kind::kCrash;
    if (crashed != (line->kind == Kind::kRestart)) {
      if (crashed) Refuse(where, Status::Error(Code::kLogAfterCrash, name));
      Refuse(where, Status::Error(Code::kLogRestartNoCrash, name));
    }
    ++p.read;
    p.last = line->kind;
    NoteFacts(*line, &p, tables);
    if (hold_every_line || Held(line->kind)) {
      p.lines.push_back(std::move(*line));
    } else {
      p.msgs.push_back(line->msg()->index);
    }
    ++*lines;
  }
  // A file with no header is no events log, even with nothing else in it.
  if (number == 1) Refuse(Where{file, 1}, Status::Error(Code::kLogEmptyFile, Header()));
  if (in.failed()) throw Malformed{Status::Error(Code::kLogUnreadable, path.string())};
  for (auto& [name, p] : *processes) {
    if (p.file != file) continue;
    p.version = version;
    p.seen = in.seen();
  }
}

// An id is written one way, a number or a string, wherever it is named: 1
// and "1" are refused together rather than read as one (`code` says whose).
class WrittenOneWay {
 public:
  // `ids`: how many there are so far (a part's channel may name one more).
  WrittenOneWay(Code code, std::size_t ids) : code_(code), first_(ids) {}
  void Check(const Interned* id, bool number, const Where& where) {
    if (first_.size() <= id->index) first_.resize(id->index + 1);
    Written& first = first_[id->index];
    if (first.where.file == nullptr) {
      first = Written{number, where};
    } else if (first.number != number) {
      Refuse(where, Status::Error(code_, id->text, first.where.str()));
    }
  }

 private:
  struct Written {
    bool number = false;
    Where where;  // none (no file) until the id is first met
  };
  Code code_;
  std::vector<Written> first_;  // by the id's index
};

void CheckIdsWrittenOneWay(const std::map<std::string, Process>& processes, Tables* tables) {
  WrittenOneWay messages(Code::kLogIdMixed, tables->messages.size()),
      snapshots(Code::kLogSnapshotIdMixed, tables->snapshots.size());
  for (const auto& [name, p] : processes) {
    for (const Line& l : p.lines) {
      if (l.kind == Kind::kSend || l.kind == Kind::kReceive || l.kind == Kind::kDrop) {
        messages.Check(l.msg(), l.msg_number, l.where);
      }
      for (const auto& [from, ids] : l.channels()) {
        for (const Id& id : ids) messages.Check(tables->messages.Intern(id.text), id.number, l.where);
      }
      if (l.snapshot_id() != nullptr) {
        snapshots.Check(l.snapshot_id(), l.snapshot_number, l.where);
      }
    }
  }
}

// Each snapshot's number, in the order of their ids (whole numbers by
// value, then strings), and by number the id as written (`names`, from 1).
void NumberSnapshots(const std::map<std::string, Process>& processes, Tables* tables,
                     std::vector<std::string>* names) {
  auto before = [](const Id& a, const Id& b) {
    if (a.number != b.number) return a.number;
    if (a.number && a.text.size() != b.text.size()) return a.text.size() < b.text.size();
    return a.text < b.text;
  };
  // An id is written one way (CheckIdsWrittenOneWay): any line's says how.
  std::vector<Id> ids(tables->snapshots.size());
  for (const auto& [name, p] : processes) {
    for (const Line& l : p.lines) {
      if (l.snapshot_id() != nullptr) ids[l.snapshot_id()->index] = {l.snapshot_id()->text, l.snapshot_number};
    }
  }
  std::vector<std::uint32_t> order(ids.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return before(ids[a], ids[b]); });
  names->assign(1, "");
  for (std::uint32_t i : order) {
    tables->snapshots.At(i).number = static_cast<std::uint32_t>(names->size());
    names->push_back(ids[i].text);
  }
}

// Version 2's rules across lines: a drop names a message its process sent
// or was sent, that no one receives, once; a log whose sends carry epochs
// (Lai-Yang) carries one on every send and logs no markers.
void CheckVersion2(const std::map<std::string, Process>& processes, const Tables& tables) {
  struct SendOf {
    const std::string* from = nullptr;  // none: not sent
    const std::string* to = nullptr;
  };
  // By message index: its send, the first line receiving it and the first
  // dropping it; only drops need them (a log without is spared their room).
  const std::size_t indexed = tables.drops ? tables.messages.size() : 0;
  std::vector<SendOf> sends(indexed);
  std::vector<const Line*> received(indexed, nullptr);
  const Line* with_epoch = nullptr;
  const Line* without_epoch = nullptr;
  const Line* marker = nullptr;
  for (const auto& [name, p] : processes) {
    for (const Line& l : p.lines) {
      if (l.kind == Kind::kSend) {
        if (indexed > 0 && sends[l.msg()->index].from == nullptr) {
          sends[l.msg()->index] = SendOf{&name, &l.peer->text};
        }
        const Line*& first = l.epoch() ? with_epoch : without_epoch;
        if (first == nullptr) first = &l;
      }
      if (indexed > 0 && l.kind == Kind::kReceive && received[l.msg()->index] == nullptr) {
        received[l.msg()->index] = &l;
      }
      if ((l.kind == Kind::kMarkerSend || l.kind == Kind::kMarkerReceive) && marker == nullptr) {
        marker = &l;
      }
    }
  }
  if (with_epoch != nullptr && without_epoch != nullptr) {
    Refuse(without_epoch->where, Status::Error(Code::kLogEpochMissing, with_epoch->where.str()));
  }
  if (with_epoch != nullptr && marker != nullptr) {
    Refuse(marker->where, Status::Error(Code::kLogMarkersWithEpochs, with_epoch->where.str()));
  }
  std::vector<const Line*> dropped(indexed, nullptr);
  for (const auto& [name, p] : processes) {
    for (const Line& l : p.lines) {
      if (l.kind != Kind::kDrop) continue;
      const std::string& msg = l.msg()->text;
      const SendOf& send = sends[l.msg()->index];
      if (send.from == nullptr) Refuse(l.where, Status::Error(Code::kLogDropUnsent, msg));
      if (*send.from != name && *send.to != name) {
        Refuse(l.where, Status::Error(Code::kLogDropNotOwn, name, msg));
      }
      if (const Line* r = received[l.msg()->index]; r != nullptr) {
        Refuse(l.where, Status::Error(Code::kLogDropReceived, msg, r->where.str()));
      }
      const Line*& first = dropped[l.msg()->index];
      if (first != nullptr) Refuse(l.where, Status::Error(Code::kLogDroppedTwice, msg, first->where.str()));
      first = &l;
    }
  }
}

// The names every line uses must be processes, and channels the inputs
// their receivers declared; a part-done lists every input; a message id is
// sent once.
void CheckNames(const std::map<std::string, Process>& processes, Tables* tables) {
  std::vector<const Line*> first_send(tables->messages.size(), nullptr);  // by message index
  for (const auto& [name, p] : processes) {
    const std::vector<std::string>& inputs = p.lines.front().inputs();
    auto has_input = [&](const std::string& from) {
      return std::find(inputs.begin(), inputs.end(), from) != inputs.end();
    };
    for (const std::string& in : inputs) {
      if (in == name) Refuse(p.lines.front().where, Status::Error(Code::kLogListsItself, name));
      if (!processes.contains(in)) {
        Refuse(p.lines.front().where, Status::Error(Code::kLogInputSilent, name, in));
      }
    }
    // By peer (its interned index): whether this process may send to it,
    // and receive from it, once asked (every message line asks).
    enum Asked : std::uint8_t { kNotAsked, kYes, kNo };
    std::vector<Asked> may_send(tables->processes.size(), kNotAsked);
    std::vector<Asked> may_receive(tables->processes.size(), kNotAsked);
    for (const Line& l : p.lines) {
      const bool sends = l.kind == Kind::kSend || l.kind == Kind::kMarkerSend;
      const bool receives = l.kind == Kind::kReceive || l.kind == Kind::kMarkerReceive;
      if (sends) {
        Asked& may = may_send[l.peer->index];
        if (may == kNotAsked) {
          auto to = processes.find(l.peer->text);
          const auto& their = to == processes.end() ? inputs : to->second.lines.front().inputs();
          const bool ok =
              to != processes.end() && std::find(their.begin(), their.end(), name) != their.end();
          may = ok ? kYes : kNo;
        }
        if (may == kNo) Refuse(l.where, Status::Error(Code::kLogSendNoInput, name, l.peer->text));
      }
      if (receives) {
        Asked& may = may_receive[l.peer->index];
        if (may == kNotAsked) may = has_input(l.peer->text) ? kYes : kNo;
        if (may == kNo) {
          Refuse(l.where, Status::Error(Code::kLogReceiveNotInput, name, l.peer->text));
        }
      }
      if (l.kind == Kind::kSend) {
        const Line*& first = first_send[l.msg()->index];
        if (first != nullptr) {
          Refuse(l.where, Status::Error(Code::kLogSentTwice, l.msg()->text, first->where.str()));
        }
        first = &l;
      }
      for (const auto& [from, ids] : l.channels()) {
        if (!has_input(from)) Refuse(l.where, Status::Error(Code::kLogPartChannel, name, from));
      }
      for (const auto& [from, count] : l.expected()) {
        if (!has_input(from)) Refuse(l.where, Status::Error(Code::kLogPartChannel, name, from));
      }
      if (l.kind != Kind::kPartDone) continue;
      for (const std::string& in : inputs) {
        const bool listed = std::any_of(l.channels().begin(), l.channels().end(),
                                        [&](const auto& ch) { return ch.first == in; });
        if (!listed) {
          Refuse(l.where,
                 Status::Error(Code::kLogPartMissesInput, name, in, l.snapshot_name()));
        }
      }
    }
  }
  CheckIdsWrittenOneWay(processes, tables);
  CheckVersion2(processes, *tables);
}

// Whether the files must be read again holding every line: when a check
// across lines (CheckNames, CheckIdsWrittenOneWay, CheckVersion2) could
// refuse a send or a receipt, which were not held, so that it names the
// same first faulty line as ever; and when the merge needs what only all
// lines show (a drop's and a crash's rules). Otherwise those checks can
// only refuse a held line, and see every held one. And when reading again
// would cost more than holding: the merge reads every process's file at
// once, one open file (and its 64 KiB block) each, so a log of many
// processes would meet the open files' limit (1,024 by default), and a
// file shared by several processes would be read through once for each.
bool HoldEveryLine(const std::map<std::string, Process>& processes, const Tables& tables) {
  if (tables.drops || tables.crashes) return true;
  constexpr std::size_t kMostFilesReadAgain = 64;
  if (processes.size() > kMostFilesReadAgain) return true;
  std::set<const std::string*> files;
  for (const auto& [name, p] : processes) {
    if (!files.insert(p.file).second) return true;
  }
  if (tables.epochs && (tables.no_epochs || tables.markers)) return true;
  for (std::uint8_t bits : tables.message_bits) {
    if ((bits & Tables::kSentTwice) != 0) return true;
    if ((bits & Tables::kAsNumber) != 0 && (bits & Tables::kAsText) != 0) return true;
  }
  auto lists = [](const Process& p, const std::string& name) {
    const std::vector<std::string>& inputs = p.lines.front().inputs();
    return std::find(inputs.begin(), inputs.end(), name) != inputs.end();
  };
  for (const auto& [name, p] : processes) {
    for (std::uint32_t peer = 0; peer < p.sends_to.size(); ++peer) {
      if (!p.sends_to[peer]) continue;
      auto to = processes.find(tables.processes.At(peer).text);
      if (to == processes.end() || !lists(to->second, name)) return true;
    }
    for (std::uint32_t peer = 0; peer < p.receives_from.size(); ++peer) {
      if (p.receives_from[peer] && !lists(p, tables.processes.At(peer).text)) return true;
    }
  }
  return false;
}

// A process's lines in its order, for the merge: its held lines when all
// are held, else its file read again (the first reading did not hold the
// sends and receipts), one line at a time, so that the lines are not all
// in memory at once.
//
// The file may have been written to since the first reading checked it.
// Each line read again must then be one the merge can take without a
// check across lines: every name it holds already interned (the merge's
// tables are sized by them), a held line's kind at its number (the held
// line, the one checked, is fed), a send's or a receipt's peer one the
// first reading saw it with (a channel), its message the first reading's
// (Process::msgs: the id is not looked up again), a send's one sent. At
// the end, the file's bytes and the process's lines must be those of the
// first reading (Finish reads to the end when the merge stops early), so
// that a file changed is refused as a whole (kLogChanged), never judged.
class Cursor {
 public:
  Cursor(const std::string& name, const Process& p, bool every_line_held, Tables* tables)
      : name_(name), p_(p), tables_(tables), read_again_(!every_line_held),
        names_{tables->messages.size(), tables->processes.size(), tables->snapshots.size()} {}
  // The next line, or none at the end.
  const Line* Peek() {
    if (!read_again_) return next_ < p_.lines.size() ? &p_.lines[next_] : nullptr;
    if (line_ == nullptr && !ended_) line_ = ReadNext();
    return line_;
  }
  void Pop() {
    if (!read_again_ || (held_ != nullptr && line_ == held_)) ++next_;
    line_ = held_ = nullptr;
    read_.reset();
  }
  // Reads the file to its end if the merge stopped before: refused if it is
  // not the one the first reading saw.
  void Finish() {
    if (!read_again_ || ended_) return;
    Open();
    in_->Drain();
    End(false);
  }

 private:
  [[noreturn]] void Changed() const {
    throw Malformed{Status::Error(Code::kLogChanged, p_.path.string())};
  }
  void Open() {
    if (in_ != nullptr) return;
    in_ = std::make_unique<LineReader>(p_.path);
    if (!in_->opened()) Changed();
  }
  // A refusal of the first reading's kind (a line that is no event, too
  // long) here means the file changed since.
  bool NextText() try {
    return in_->Next(Where{p_.file, number_ + 1}, &text_);
  } catch (const Malformed&) {
    Changed();
  }
  std::optional<Line> Read(const Where& where) try {
    return ReadLine(text_, where, p_.version, &process_, tables_);
  } catch (const Malformed&) {
    Changed();
  }
  bool NamesKnown() const {
    return tables_->messages.size() == names_[0] && tables_->processes.size() == names_[1] &&
           tables_->snapshots.size() == names_[2];
  }

  const Line* ReadNext() {
    Open();
    while (NextText()) {
      const Where where{p_.file, ++number_};
      if (number_ == 1) continue;  // its header: the bytes compared at the end cover it
      std::optional<Line> line = Read(where);
      if (!NamesKnown()) Changed();
      if (!line) continue;
      // A file read again holds one process's lines (HoldEveryLine): another's
      // is a line the first reading did not see.
      if (process_ != name_) Changed();
      if (++count_ > p_.read) Changed();
      const bool held = next_ < p_.lines.size();
      if (Held(line->kind)) {
        if (!held || p_.lines[next_].kind != line->kind || p_.lines[next_].where.line != number_) {
          Changed();
        }
        return held_ = &p_.lines[next_];
      }
      if (held && p_.lines[next_].where.line <= number_) Changed();
      const std::vector<bool>& peers = line->kind == Kind::kSend ? p_.sends_to : p_.receives_from;
      if (line->peer->index >= peers.size() || !peers[line->peer->index]) Changed();
      if (msg_ >= p_.msgs.size()) Changed();
      line->id = &tables_->messages.At(p_.msgs[msg_++]);
      if (line->kind == Kind::kSend && !tables_->Sent(line->msg())) Changed();
      read_ = std::move(line);
      return &*read_;
    }
    End(true);
    return nullptr;
  }
  // `every_line`: the merge took every line read.
  void End(bool every_line) {
    ended_ = true;
    if (in_->failed()) throw Malformed{Status::Error(Code::kLogUnreadable, p_.path.string())};
    if (!(in_->seen() == p_.seen)) Changed();
    if (every_line && (count_ != p_.read || next_ != p_.lines.size())) Changed();
  }

  const std::string& name_;
  const Process& p_;
  Tables* tables_;
  bool read_again_;
  std::size_t names_[3];  // the names interned by the first reading
  std::size_t next_ = 0;  // its next held line's place
  std::size_t msg_ = 0;   // its next send's or receipt's in Process::msgs
  std::unique_ptr<LineReader> in_;  // read again: the file,
  std::size_t number_ = 0;          // the last line's number,
  std::size_t count_ = 0;           // the process's lines read so far,
  bool ended_ = false;              // and whether the file ended
  std::string text_, process_;
  const Line* line_ = nullptr;  // the next line: held_ or &*read_
  const Line* held_ = nullptr;
  std::optional<Line> read_;
};

sim::Topology TopologyOf(const std::vector<std::string>& names,
                         const std::map<std::string, Process>& processes) {
  std::vector<sim::Link> links;
  for (NodeId to = 0; to < names.size(); ++to) {
    for (const std::string& from : processes.at(names[to]).lines.front().inputs()) {
      const auto it = std::lower_bound(names.begin(), names.end(), from);
      const sim::Link link{static_cast<NodeId>(it - names.begin()), to};
      if (std::find(links.begin(), links.end(), link) == links.end()) links.push_back(link);
    }
  }
  return sim::Topology(static_cast<std::uint32_t>(names.size()), links);
}

// A message sent, as the merge knows it (its send's line is gone once fed).
struct SentMessage {
  Seq seq = 0;
  std::uint64_t n = 0;  // its number on its channel, as the judge knows it
  cutline::Amount value = 0;
  cutline::Amount epoch_or_none = -1;  // as Line's
  ChannelId channel = 0;
  cutline::Amount amount() const { return value; }
  std::optional<cutline::Amount> epoch() const {
    return epoch_or_none >= 0 ? std::optional(epoch_or_none) : std::nullopt;
  }
};

// A snapshot not judged on purpose: aborted, or cut short by a crash.
struct NotJudged {
  NodeId node = 0;
  const Line* line = nullptr;  // the abort or the crash
};

// Puts every process's events in one causal order (a receipt after its
// send, each process's events in their own order: any such order is one
// the judge may be fed) and feeds them to the judge as it goes, each as
// JudgeHistory feeds a simulated history's event.
class Merge {
 public:
  // `cursors`: by node, its lines; `by_node`: its held lines.
  Merge(const std::vector<Process*>& by_node, std::vector<Cursor>* cursors, EventsLog* log,
        const sim::Topology& net, StreamJudge* judge, const Tables& tables)
      : by_node_(by_node), cursors_(*cursors), log_(log), say_(FindingsIn(log->lang)), net_(net), judge_(judge),
        tables_(tables), sent_on_(net.channel_count(), 0),
        in_flight_(net.channel_count()), last_(by_node.size()), records_(by_node.size(), 0),
        state_(log->initial), overdrawn_(by_node.size(), false),
        wrong_epoch_(by_node.size(), false) {
    sent_.resize(tables.messages.size());
    received_.assign(tables.messages.size(), false);
    // Transfers and markers: each is numbered (NextSeq).
    std::size_t sends = tables.transfers;
    // The held lines: every line that is no send or receipt is (Held).
    for (NodeId n = 0; n < by_node_.size(); ++n) {
      std::optional<bool> aligned = by_node_[n]->lines.front().aligned;
      for (const Line& l : by_node_[n]->lines) {
        crashes_ |= l.kind == Kind::kCrash;
        if (l.kind == Kind::kRecord && l.aligned) aligned_of_[{n, l.snapshot()}] = *l.aligned;
        if (l.kind == Kind::kMarkerReceive) ++markers_to_receive_[{net_.Find(Node(l.peer->text), n), l.snapshot()}];
        if (NamesToJudge(l)) ++lines_naming_[l.snapshot()];
        sends += l.kind == Kind::kMarkerSend;
      }
      // Barriers: a process's start says how it takes every snapshot, a
      // record how it takes that one.
      for (const Line& l : by_node_[n]->lines) {
        if (l.kind != Kind::kRecord && l.kind != Kind::kMarkerReceive) continue;
        auto own = aligned_of_.find({n, l.snapshot()});
        const std::optional<bool> a = own != aligned_of_.end() ? std::optional(own->second) : aligned;
        if (a) aligned_of_[{n, l.snapshot()}] = *a;
      }
    }
    sent_by_seq_.reserve(sends);
    judge_->NameMessagesBy([this](Seq seq) { return MessageName(seq); });
    for (NodeId n = 0; n < by_node_.size(); ++n) {
      StreamEvent start;
      start.kind = EventKind::kStart;
      start.amount = log_->initial[n];
      judge_->Apply(n, start);
    }
  }

  // False (with a finding) when no causal order exists. A crash waits
  // until nothing else can happen first: what was sent to the crashing
  // process by then and never arrives is what the crash lost.
  bool Run() {
    for (bool moved = true; moved;) {
      moved = false;
      for (NodeId n = 0; n < by_node_.size(); ++n) {
        for (const Line* l; (l = cursors_[n].Peek()) != nullptr && l->kind != Kind::kCrash &&
                            Emit(n, *l);) {
          cursors_[n].Pop();
          moved = true;
        }
        if (!log_->ordered) return false;
      }
      if (moved) continue;
      for (NodeId n = 0; n < by_node_.size() && !moved; ++n) {
        if (const Line* l = cursors_[n].Peek(); l != nullptr && l->kind == Kind::kCrash) {
          Emit(n, *l);
          cursors_[n].Pop();
          moved = true;
        }
      }
    }
    for (NodeId n = 0; n < by_node_.size(); ++n) {
      if (const Line* l = cursors_[n].Peek(); l != nullptr) return Stuck(*l, n);
    }
    return true;
  }

  const std::map<SnapshotId, std::uint64_t>& markers_sent() const { return markers_sent_; }
  // The message `id` names, if sent (none: never sent, nor interned).
  const SentMessage* Sent(const std::string& id) const { return Sent(tables_.messages.Find(id)); }
  const SentMessage* Sent(const Interned* id) const {
    if (id == nullptr || sent_[id->index].seq == 0) return nullptr;
    return &sent_[id->index];
  }
  bool epochs() const { return epochs_; }
  // By (snapshot, node): the transfers the node had sent on each of its
  // channels when it recorded the snapshot (Lai-Yang's control counts).
  std::uint64_t SentBeforeRecord(SnapshotId id, NodeId from, ChannelId c) const {
    auto it = sent_at_record_.find({id, from});
    return it == sent_at_record_.end() ? 0 : it->second.at(c);
  }
  bool Recorded(SnapshotId id, NodeId n) const { return sent_at_record_.contains({id, n}); }

 private:
  // Feeds the judge unless the history broke; every event counts toward
  // the history's numbering of events (ReplayOverflows names it).
  void Feed(NodeId n, const StreamEvent& e) {
    ++index_;
    if (!broken_) judge_->Apply(n, e);
  }
  void Other(NodeId n) {
    StreamEvent e;
    Feed(n, e);
  }
  // A state past 64 bits: the judge names the event and judges nothing
  // (as a simulated history's, HistoryFeed::Vet).
  void Overflowed() {
    if (broken_) return;
    judge_->HistoryBroken(say_.AboutHistory(say_.ReplayOverflows(index_ - 1)));
    broken_ = true;
  }

  // The lines whose events name their snapshot to the judge.
  static bool NamesToJudge(const Line& l) {
    return l.kind == Kind::kRecord || l.kind == Kind::kMarkerSend ||
           l.kind == Kind::kMarkerReceive;
  }

  // False when the event must wait for a send not yet emitted. The last
  // line naming a snapshot tells the judge so (NoMoreOf): every complete
  // snapshot is claimed only once the logs end, and until then each event
  // would be weighed against every snapshot begun before it.
  bool Emit(NodeId n, const Line& l) {
    if (!EmitOne(n, l)) return false;
    if (NamesToJudge(l) && --lines_naming_[l.snapshot()] == 0 && !broken_) {
      judge_->NoMoreOf(l.snapshot());
    }
    return true;
  }
  bool EmitOne(NodeId n, const Line& l) {
    switch (l.kind) {
      case Kind::kStart:
        return true;
      case Kind::kSend:
        Send(n, l);
        return true;
      case Kind::kReceive:
        return Receive(n, l);
      case Kind::kRecord:
        Record(n, l);
        return true;
      case Kind::kMarkerSend:
        SendMarker(n, l);
        return true;
      case Kind::kMarkerReceive:
        return ReceiveMarker(n, l);
      case Kind::kPartDone:
        Other(n);  // the claim says the part (JudgeHistory's kClaims)
        if (++parts_[l.snapshot()] == by_node_.size()) Other(n);  // completed
        return true;
      case Kind::kDrop:
        return Drop(n, l);
      case Kind::kAbort:
        return true;
      case Kind::kCrash:
        Crash(n);
        return true;
      case Kind::kRestart:
        Restart(n, l);
        return true;
    }
    return true;
  }

  void Send(NodeId n, const Line& l) {
    const ChannelId c = net_.Find(n, Node(l.peer->text));
    const Seq seq = NextSeq(l);
    const std::uint64_t number = ++sent_on_[c];
    sent_[l.msg()->index] = {seq, number, l.value, l.epoch_or_none, c};
    in_flight_[c].insert(number);
    StreamEvent e;
    e.kind = EventKind::kSend;
    e.peer = net_.channel(c).to;
    e.n = number;
    e.amount = l.value;
    Feed(n, e);
    last_[n] = {};
    ++transfers_on_[c];
    if (l.epoch()) {
      epochs_ = true;
      // Lai-Yang: the colour is the sender's count of records when it sent.
      if (*l.epoch() != records_[n] && !wrong_epoch_[n]) {
        wrong_epoch_[n] = true;
        log_->problems.push_back(say_.AboutHistory(
            say_.EpochNotCount(Name(n), say_.Message(l.msg()->text), *l.epoch(), records_[n], l.where.str())));
      }
    }
    // A state is at least 0 (docs/logs.md): a send that takes more than the
    // sender holds is the implementation's fault, named once per process
    // (every later send of an overdrawn process would repeat it).
    if (l.value > state_[n] && !overdrawn_[n]) {
      overdrawn_[n] = true;
      log_->problems.push_back(say_.AboutHistory(say_.Overdraft(
          Name(n), apps::Money(l.value), say_.Message(l.msg()->text), apps::Money(state_[n]),
          l.where.str())));
    }
    if (__builtin_sub_overflow(state_[n], l.value, &state_[n])) {
      state_[n] = INT64_MIN;
      Overflowed();
    }
  }

  bool Receive(NodeId n, const Line& l) {
    const SentMessage* sent = Sent(l.msg());
    if (sent == nullptr) return false;
    const SentMessage& m = *sent;
    const sim::ChannelInfo& ch = net_.channel(m.channel);
    if (ch.to != n || ch.from != Node(l.peer->text)) {
      return Unordered(say_.AboutHistory(say_.ReceivedOtherwise(
          Name(n), l.msg()->text, l.peer->text, l.where.str(), Name(ch.from), Name(ch.to))));
    }
    if (received_[l.msg()->index]) {
      return Unordered(say_.AboutHistory(say_.ReceivedTwice(l.msg()->text, l.where.str())));
    }
    received_[l.msg()->index] = true;
    in_flight_[m.channel].erase(m.n);
    StreamEvent e;
    e.kind = EventKind::kReceive;
    e.peer = ch.from;
    e.n = m.n;
    e.amount = m.amount();
    Feed(n, e);
    last_[n] = {};
    last_[n].transfer = m.seq;
    last_[n].epoch = m.epoch();
    if (__builtin_add_overflow(state_[n], m.amount(), &state_[n])) {
      state_[n] = INT64_MAX;
      Overflowed();
    }
    return true;
  }

  void SendMarker(NodeId n, const Line& l) {
    const ChannelId c = net_.Find(n, Node(l.peer->text));
    const Seq seq = NextSeq(l);
    const std::uint64_t number = ++sent_on_[c];
    markers_[{c, l.snapshot()}].push_back({seq, number});
    ++markers_sent_[l.snapshot()];
    StreamEvent e;
    e.kind = EventKind::kSendMarker;
    e.peer = net_.channel(c).to;
    e.n = number;
    e.snapshot = l.snapshot();
    Feed(n, e);
    last_[n] = {};
  }

  bool ReceiveMarker(NodeId n, const Line& l) {
    const NodeId from = Node(l.peer->text);
    const ChannelId c = net_.Find(from, n);
    std::deque<Marker>& waiting = markers_[{c, l.snapshot()}];
    if (waiting.empty()) return false;
    const Marker m = waiting.front();
    waiting.pop_front();
    ++markers_received_[{c, l.snapshot()}];
    // An unaligned barrier overtakes the transfers still ahead of it on its
    // channel: they are in the channel's recorded state (docs/logs.md).
    auto mode = aligned_of_.find({n, l.snapshot()});
    if (mode != aligned_of_.end() && !mode->second) {
      for (auto it = in_flight_[c].begin(); it != in_flight_[c].end() && *it < m.n; ++it) {
        StreamEvent o;
        o.kind = EventKind::kOvertaken;
        o.incoming = true;
        o.peer = from;
        o.n = *it;
        o.overtaker = m.n;
        Feed(n, o);
      }
    }
    StreamEvent e;
    e.kind = EventKind::kReceiveMarker;
    e.peer = from;
    e.n = m.n;
    e.snapshot = l.snapshot();
    Feed(n, e);
    last_[n] = {};
    last_[n].marker = m.seq;
    last_[n].marker_of = l.snapshot();
    return true;
  }

  // A record right after a marker of its snapshot came is that marker's
  // doing (the checker cuts just before the marker); under Lai-Yang, one
  // right after a transfer of a later epoch than the process's count of
  // records is that transfer's; any other starts it.
  void Record(NodeId n, const Line& l) {
    const Last& last = last_[n];
    StreamEvent e;
    e.kind = EventKind::kRecord;
    e.snapshot = l.snapshot();
    e.amount = l.value;
    if (last.marker != 0 && last.marker_of == l.snapshot()) {
      e.by_marker = true;
      e.cause = last.marker;
    } else if (last.transfer != 0 && last.epoch && *last.epoch > records_[n]) {
      e.by_transfer = true;
      e.cause = last.transfer;
    }
    e.epochs = epochs_any_;
    e.no_markers = epochs_any_;
    auto mode = aligned_of_.find({n, l.snapshot()});
    e.after_markers = mode != aligned_of_.end() && mode->second;
    Feed(n, e);
    ++records_[n];
    std::vector<std::uint64_t>& counts = sent_at_record_[{l.snapshot(), n}];
    if (counts.empty()) {
      counts.assign(net_.channel_count(), 0);
      for (ChannelId c : net_.Outgoing(n)) counts[c] = transfers_on_[c];
    }
  }

  bool Drop(NodeId n, const Line& l) {
    const SentMessage* sent = Sent(l.msg());
    if (sent == nullptr) return false;
    const SentMessage& m = *sent;
    const sim::ChannelInfo& ch = net_.channel(m.channel);
    in_flight_[m.channel].erase(m.n);
    StreamEvent e;
    e.kind = EventKind::kDrop;
    e.incoming = ch.to == n;
    e.peer = e.incoming ? ch.from : ch.to;
    e.n = m.n;
    Feed(n, e);
    return true;
  }

  // What is in flight to a crashing process and will never arrive is lost
  // by the crash: transfers no one receives, and the markers beyond those
  // it receives after it restarts.
  void Crash(NodeId n) {
    for (ChannelId c : net_.Incoming(n)) {
      const NodeId from = net_.channel(c).from;
      for (auto it = in_flight_[c].begin(); it != in_flight_[c].end();) {
        if (received_anywhere_[name_of_number_[{c, *it}]]) {
          ++it;
          continue;
        }
        LostByCrash(n, from, *it);
        it = in_flight_[c].erase(it);
      }
    }
    for (auto& [key, waiting] : markers_) {
      const auto& [c, snapshot] = key;
      if (net_.channel(c).to != n) continue;
      const std::uint64_t coming =
          markers_to_receive_[key] - markers_received_[key];  // the ones it takes later
      while (waiting.size() > coming) {
        LostByCrash(n, net_.channel(c).from, waiting.back().n);
        waiting.pop_back();
      }
    }
    last_[n] = {};
  }
  void LostByCrash(NodeId n, NodeId from, std::uint64_t number) {
    StreamEvent e;
    e.kind = EventKind::kDrop;
    e.incoming = true;
    e.peer = from;
    e.n = number;
    Feed(n, e);
  }

  void Restart(NodeId n, const Line& l) {
    StreamEvent e;
    e.kind = EventKind::kRestart;
    e.amount = l.value;
    Feed(n, e);
    state_[n] = l.value;
    last_[n] = {};
  }

  // Every process left waits on a receipt: name the first one's reason.
  bool Stuck(const Line& l, NodeId n) {
    if (l.kind == Kind::kReceive && !tables_.Sent(l.msg())) {
      return Unordered(say_.AboutHistory(say_.ReceivedUnsent(Name(n), l.msg()->text, l.where.str())));
    }
    if (l.kind == Kind::kMarkerReceive) {
      return Unordered(say_.AboutHistory(say_.MarkerUnsent(
          Name(n), l.snapshot_name(), l.peer->text, l.where.str())));
    }
    return Unordered(say_.AboutHistory(say_.NoCausalOrder(l.where.str())));
  }

  bool Unordered(std::string finding) {
    log_->problems.push_back(std::move(finding));
    log_->ordered = false;
    return false;
  }

  // A message's number for the judge, which names it by its send's line: a
  // transfer by its id, a marker by where it was sent (it has no id). The
  // line itself is gone once fed: a transfer keeps its id's index, a
  // marker (rare) its place.
  Seq NextSeq(const Line& send) {
    const bool marker = send.kind == Kind::kMarkerSend;
    if (marker) marker_sent_at_.emplace(seq_ + 1, send.where);
    sent_by_seq_.push_back(marker ? kMarkerSeq : send.msg()->index);
    return ++seq_;
  }
  std::string MessageName(Seq seq) const {
    if (seq == 0 || seq > sent_by_seq_.size()) return "";
    const std::uint32_t id = sent_by_seq_[seq - 1];
    return id == kMarkerSeq ? marker_sent_at_.at(seq).str() : tables_.messages.At(id).text;
  }
  NodeId Node(const std::string& name) const {
    auto it = std::lower_bound(log_->processes.begin(), log_->processes.end(), name);
    return static_cast<NodeId>(it - log_->processes.begin());
  }
  const std::string& Name(NodeId n) const { return log_->processes[n]; }

 public:
  // Whether the log's sends carry epochs (Lai-Yang): set before Run.
  void EpochsAnywhere(bool any) { epochs_any_ = any; }
  // Names each transfer by its channel and number, and notes every
  // message received, for Crash: set before Run, and held only when a
  // process crashes (then every line is held: HoldEveryLine).
  void IndexTransfers() {
    if (!crashes_) return;
    received_anywhere_.assign(sent_.size(), false);
    for (const Process* p : by_node_) {
      for (const Line& l : p->lines) {
        if (l.kind == Kind::kReceive) received_anywhere_[l.msg()->index] = true;
      }
    }
    std::map<ChannelId, std::uint64_t> on;
    // Numbers follow the merge's order per channel, which is the sender's
    // order of its sends on it (markers included).
    for (NodeId n = 0; n < by_node_.size(); ++n) {
      for (const Line& l : by_node_[n]->lines) {
        if (l.kind != Kind::kSend && l.kind != Kind::kMarkerSend) continue;
        const ChannelId c = net_.Find(n, Node(l.peer->text));
        const std::uint64_t number = ++on[c];
        if (l.kind == Kind::kSend) name_of_number_[{c, number}] = l.msg()->index;
      }
    }
  }

 private:
  struct Marker {
    Seq seq;
    std::uint64_t n;
  };
  // A process's last message event, if a receipt: what a record right
  // after it may name as its cause.
  struct Last {
    Seq marker = 0;
    SnapshotId marker_of = 0;
    Seq transfer = 0;
    std::optional<cutline::Amount> epoch;
  };

  const std::vector<Process*>& by_node_;
  std::vector<Cursor>& cursors_;
  EventsLog* log_;
  const Findings& say_;  // in the log's language
  const sim::Topology& net_;
  StreamJudge* judge_;
  const Tables& tables_;
  std::vector<std::uint64_t> sent_on_;  // by channel: messages sent, markers too
  std::vector<std::set<std::uint64_t>> in_flight_;  // by channel: transfers' numbers
  std::map<ChannelId, std::uint64_t> transfers_on_;  // by channel: transfers sent
  std::vector<SentMessage> sent_;  // by message index (seq 0: not sent yet)
  std::vector<bool> received_, received_anywhere_;  // by message index
  std::map<std::pair<ChannelId, SnapshotId>, std::deque<Marker>> markers_;
  std::map<std::pair<ChannelId, SnapshotId>, std::uint64_t> markers_to_receive_, markers_received_;
  std::map<std::pair<ChannelId, std::uint64_t>, std::uint32_t> name_of_number_;  // message index
  std::map<SnapshotId, std::uint64_t> markers_sent_;
  std::map<SnapshotId, std::size_t> parts_;
  std::map<SnapshotId, std::size_t> lines_naming_;  // NamesToJudge's, not yet emitted
  std::map<std::pair<SnapshotId, NodeId>, std::vector<std::uint64_t>> sent_at_record_;
  std::vector<Last> last_;
  std::vector<cutline::Amount> records_;  // by node: record lines so far
  // By node: its state replayed so far, and whether a send overdrew it or
  // carried a wrong epoch (each named once).
  std::vector<cutline::Amount> state_;
  std::vector<bool> overdrawn_, wrong_epoch_;
  std::map<std::pair<NodeId, SnapshotId>, bool> aligned_of_;
  Seq seq_ = 0;
  // By Seq - 1: a transfer's message index, or kMarkerSeq (NextSeq).
  static constexpr std::uint32_t kMarkerSeq = UINT32_MAX;
  std::vector<std::uint32_t> sent_by_seq_;
  std::map<Seq, Where> marker_sent_at_;
  std::size_t index_ = 0;
  bool broken_ = false;
  bool epochs_ = false, epochs_any_ = false;
  bool crashes_ = false;  // some process crashes
};

// The ids a part lists for the channel from `from`, as the amounts a claim
// holds; an id no log sends is a finding of its own.
void ClaimChannel(NodeId n, const std::string& from, const std::vector<Id>& ids,
                  const Line& part, const Merge& merge, const sim::Topology& net, EventsLog* log,
                  SnapshotClaim* claim) {
  const auto it = std::lower_bound(log->processes.begin(), log->processes.end(), from);
  history::ChannelRecord& r =
      claim->channels[net.Find(static_cast<NodeId>(it - log->processes.begin()), n)];
  r.state = ChannelRecording::kClosed;
  for (const Id& id_as_written : ids) {
    const std::string& msg = id_as_written.text;
    const SentMessage* m = merge.Sent(msg);
    if (m == nullptr) {
      const Findings& say = FindingsIn(log->lang);
      log->problems.push_back(say.AboutSnapshot(
          part.snapshot_name(), say.ChannelHoldsUnsent(log->processes[n], from, msg, part.where.str())));
      continue;
    }
    r.transfers.push_back(m->amount());
  }
}

// The snapshots not judged on purpose: each aborted one, and each one a
// process had begun and not finished when it crashed, with its line.
std::map<SnapshotId, NotJudged> NotJudgedOnPurpose(const std::vector<Process*>& by_node) {
  std::map<SnapshotId, NotJudged> out;
  for (NodeId n = 0; n < by_node.size(); ++n) {
    std::set<SnapshotId> begun, done;
    for (const Line& l : by_node[n]->lines) {
      if (l.kind == Kind::kAbort) out.try_emplace(l.snapshot(), NotJudged{n, &l});
      if (l.kind == Kind::kRecord || l.kind == Kind::kMarkerSend ||
          l.kind == Kind::kMarkerReceive) {
        begun.insert(l.snapshot());
      }
      if (l.kind == Kind::kPartDone) done.insert(l.snapshot());
      if (l.kind != Kind::kCrash) continue;
      for (SnapshotId id : begun) {
        if (!done.contains(id)) out.try_emplace(id, NotJudged{n, &l});
      }
    }
  }
  return out;
}

// A restarted process's state against what it recorded for the snapshot
// it says it restored.
void CheckRestarts(const std::vector<Process*>& by_node, EventsLog* log) {
  const Findings& say = FindingsIn(log->lang);
  for (NodeId n = 0; n < by_node.size(); ++n) {
    std::map<SnapshotId, cutline::Amount> recorded;
    for (const Line& l : by_node[n]->lines) {
      if (l.kind == Kind::kRecord) recorded.try_emplace(l.snapshot(), l.value);
      if (l.kind != Kind::kRestart) continue;
      auto it = recorded.find(l.snapshot());
      if (it == recorded.end()) {
        log->problems.push_back(say.AboutHistory(
            say.RestoredUnrecorded(log->processes[n], l.snapshot_name(), l.where.str())));
      } else if (it->second != l.value) {
        log->problems.push_back(say.AboutHistory(
            say.RestoredOtherwise(log->processes[n], apps::Money(l.value),
                                  apps::Money(it->second), l.snapshot_name(), l.where.str())));
      }
    }
  }
}

// The claims of the snapshots every process finished, from their records
// and their parts' channel contents; the others are listed as incomplete,
// or noted (aborted, cut short by a crash). One pass indexes the lines by
// snapshot; each snapshot then reads its own.
std::vector<SnapshotClaim> Claim(const std::vector<Process*>& by_node, const Merge& merge,
                                 const sim::Topology& net,
                                 const std::vector<std::string>& snapshot_names, EventsLog* log) {
  std::map<SnapshotId, std::vector<std::pair<NodeId, const Line*>>> lines_of;
  for (NodeId n = 0; n < by_node.size(); ++n) {
    for (const Line& l : by_node[n]->lines) {
      if (l.snapshot() != 0 && l.kind != Kind::kRestart) lines_of[l.snapshot()].emplace_back(n, &l);
    }
  }
  const Findings& say = FindingsIn(log->lang);
  const std::map<SnapshotId, NotJudged> not_judged = NotJudgedOnPurpose(by_node);
  std::vector<SnapshotClaim> claims;
  for (const auto& [id, lines] : lines_of) {
    const std::string& name = snapshot_names[id];
    if (auto skip = not_judged.find(id); skip != not_judged.end()) {
      const Line& why = *skip->second.line;
      const std::string& who = log->processes[skip->second.node];
      log->notes.push_back(why.kind == Kind::kAbort
                               ? say.Aborted(name, who, why.where.str(), why.rare->why)
                               : say.CutByCrash(name, who, why.where.str()));
      continue;
    }
    std::set<NodeId> done;
    // By node, the inputs a marker of this snapshot came from so far: a
    // part-done before one of them cannot have closed that channel (under
    // Lai-Yang no marker closes one: its part-done says when).
    std::map<NodeId, std::set<std::string>> markers_from;
    for (const auto& [n, l] : lines) {
      if (l->kind == Kind::kMarkerReceive) markers_from[n].insert(l->peer->text);
      if (l->kind != Kind::kPartDone) continue;
      done.insert(n);
      for (const auto& [from, count] : l->expected()) {
        const NodeId sender = static_cast<NodeId>(
            std::lower_bound(log->processes.begin(), log->processes.end(), from) -
            log->processes.begin());
        if (!merge.Recorded(id, sender)) continue;  // judged as never recorded
        const std::uint64_t sent = merge.SentBeforeRecord(id, sender, net.Find(sender, n));
        if (static_cast<std::uint64_t>(count) != sent) {
          log->problems.push_back(say.AboutSnapshot(
              name, say.ControlCountWrong(log->processes[n], from, static_cast<std::uint64_t>(count),
                                          sent, l->where.str())));
        }
      }
      if (merge.epochs()) continue;
      for (const std::string& from : by_node[n]->lines.front().inputs()) {
        if (markers_from[n].contains(from)) continue;
        log->problems.push_back(
            say.AboutSnapshot(name, say.PartBeforeMarker(log->processes[n], from, l->where.str())));
      }
    }
    if (done.size() < by_node.size()) {
      std::vector<std::string> unfinished;
      for (NodeId n = 0; n < by_node.size(); ++n) {
        if (!done.contains(n)) unfinished.push_back(log->processes[n]);
      }
      log->incomplete.emplace_back(name, std::move(unfinished));
      continue;
    }
    SnapshotClaim claim;
    claim.id = id;
    claim.markers_sent = merge.markers_sent().contains(id) ? merge.markers_sent().at(id) : 0;
    // Lai-Yang's control messages are its own: no marker rule applies, and
    // a channel's state is of the older epoch (as `cutline test` judges).
    claim.markers = !merge.epochs();
    claim.epochs = merge.epochs();
    claim.balances.assign(by_node.size(), std::nullopt);
    claim.channels.assign(net.channel_count(), history::ChannelRecord{});
    for (const auto& [n, l] : lines) {
      if (l->kind == Kind::kRecord && !claim.balances[n]) claim.balances[n] = l->value;
      if (l->kind != Kind::kPartDone) continue;
      for (const auto& [from, ids] : l->channels()) {
        ClaimChannel(n, from, ids, *l, merge, net, log, &claim);
      }
    }
    claims.push_back(std::move(claim));
  }
  return claims;
}

}  // namespace

StatusOr<EventsLog> ReadEventsLog(const std::string& dir, Lang lang,
                                  const std::function<void()>& between_readings) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() == ".jsonl") files.push_back(entry.path());
  }
  if (ec) return Status::Error(Code::kLogFolder, dir, ec.message());
  if (files.empty()) return Status::Error(Code::kLogNoFiles, dir);
  std::sort(files.begin(), files.end());
  EventsLog log;
  log.lang = lang;
  Tables tables;
  std::map<std::string, Process> processes;
  std::vector<std::string> snapshot_names;
  // Two readings: the first checks every line and holds only what the
  // checks across lines and the claims need (Held), the second feeds the
  // merge as it reads (Cursor). A log whose sends or receipts those checks
  // could refuse is read once more, holding every line (HoldEveryLine).
  bool every_line_held = false;
  try {
    for (const fs::path& f : files) ReadFile(f, &processes, &log.lines, &tables, false);
    if (processes.empty()) throw Malformed{Status::Error(Code::kLogNoEvents, dir)};
    if (HoldEveryLine(processes, tables)) {
      every_line_held = true;
      processes.clear();  // before the names its lines point to
      tables = Tables{};
      log.lines = 0;
      for (const fs::path& f : files) ReadFile(f, &processes, &log.lines, &tables, true);
    }
    CheckNames(processes, &tables);
    NumberSnapshots(processes, &tables, &snapshot_names);
  } catch (const Malformed& m) {
    return m.why;
  }
  if (between_readings) between_readings();
  tables.intern_messages = every_line_held;
  std::vector<Process*> by_node;
  std::vector<Cursor> cursors;
  cursors.reserve(processes.size());
  std::vector<std::string> sources;
  for (auto& [name, p] : processes) {
    log.processes.push_back(name);
    log.initial.push_back(p.lines.front().value);
    sources.push_back(*p.file);
    by_node.push_back(&p);
    cursors.emplace_back(name, p, every_line_held, &tables);
  }
  const sim::Topology net = TopologyOf(log.processes, processes);
  // The format's states are numbers its messages move, a send taking and a
  // receipt adding (docs/logs.md): the bank's rules.
  StreamJudge judge(net, log.processes, std::move(sources), apps::App::kBank, lang);
  judge.KeepEveryVerdict();
  judge.NameSnapshots(snapshot_names);
  Merge merge(by_node, &cursors, &log, net, &judge, tables);
  merge.EpochsAnywhere(tables.epochs);
  merge.IndexTransfers();
  try {
    const bool ordered = merge.Run();
    for (Cursor& c : cursors) c.Finish();
    if (!ordered) return log;
  } catch (const Malformed& m) {
    return m.why;  // a file changed since the first reading (Cursor)
  }
  CheckRestarts(by_node, &log);
  const std::vector<SnapshotClaim> claims = Claim(by_node, merge, net, snapshot_names, &log);
  for (const SnapshotClaim& c : claims) {
    StreamEvent e;
    e.kind = EventKind::kClaim;
    e.snapshot = c.id;
    e.claim = &c;
    judge.Apply(0, e);
  }
  log.report = judge.Finish().report;
  return log;
}

CheckReport CheckEventsLog(const EventsLog& log) {
  CheckReport report = log.report;
  report.problems.insert(report.problems.begin(), log.problems.begin(), log.problems.end());
  return report;
}

}  // namespace cutline::check
