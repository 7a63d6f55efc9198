#include "check/events_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>
#include <utility>

#include "apps/bank/money.h"
#include "check/findings.h"

namespace cutline::check {

namespace {

using json = nlohmann::json;
using sim::ChannelId;
using sim::NodeId;
using sim::Seq;

enum class Kind { kStart, kSend, kReceive, kRecord, kMarkerSend, kMarkerReceive, kPartDone };

struct KindName {
  Kind kind;
  std::string_view name;
};
constexpr KindName kKinds[] = {
    {Kind::kStart, "start"},         {Kind::kSend, "send"},
    {Kind::kReceive, "receive"},     {Kind::kRecord, "record"},
    {Kind::kMarkerSend, "marker-send"}, {Kind::kMarkerReceive, "marker-receive"},
    {Kind::kPartDone, "part-done"},
};

// A line that is not what the format says: its place and one sentence.
// A malformed log: why, as a Status (the catalogues word it).
struct Malformed {
  Status why;
};

// A line's place: its file and number. A refusal carries both (kLogAt); a
// finding's words show them as "P1.jsonl:7".
struct Where {
  std::string file;
  std::size_t line = 0;
  std::string str() const { return fmt::format("{}:{}", file, line); }
};

// A message id as written: a string, or a whole number (`number`). The two
// are kept apart only to refuse one message written both ways.
struct MsgId {
  std::string text;
  bool number = false;
};

// One event, its shape checked; names are resolved once every file is read.
struct Line {
  Kind kind = Kind::kStart;
  Where where;
  std::string peer;   // send and marker-send: `to`; receive and marker-receive: `from`
  std::string msg;    // send and receive
  bool msg_number = false;  // `msg` was written as a number
  SnapshotId snapshot = 0;
  cutline::Amount value = 0;  // start and record: the state; send: the amount
  std::vector<std::string> inputs;  // start
  std::vector<std::pair<std::string, std::vector<MsgId>>> channels;  // part-done
};

struct Process {
  std::string file;
  std::vector<Line> lines;
};

// `what` is wrong at `where`.
[[noreturn]] void Refuse(const Where& where, const Status& what) {
  throw Malformed{Status::Error(Code::kLogAt, where.file, where.line, what)};
}

// A message id: a string, or a whole number written as one.
MsgId Id(const json& value, const Where& where, std::string_view key) {
  if (value.is_string() && !value.get<std::string>().empty()) return {value.get<std::string>()};
  if (value.is_number_integer()) return {value.dump(), true};
  Refuse(where, Status::Error(Code::kLogNotMessageId, key));
}


const json& Field(const json& o, const Where& where, std::string_view key) {
  auto it = o.find(key);
  if (it == o.end()) Refuse(where, Status::Error(Code::kLogNoField, key));
  return *it;
}

void ReadMsg(const json& o, Line* line) {
  MsgId id = Id(Field(o, line->where, "msg"), line->where, "msg");
  line->msg = std::move(id.text);
  line->msg_number = id.number;
}

std::string Name(const json& o, const Where& where, std::string_view key) {
  const json& v = Field(o, where, key);
  if (!v.is_string() || v.get<std::string>().empty()) {
    Refuse(where, Status::Error(Code::kLogNotProcessName, key));
  }
  return v.get<std::string>();
}

cutline::Amount Whole(const json& o, const Where& where, std::string_view key,
                   cutline::Amount least) {
  const json& v = Field(o, where, key);
  if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<std::uint64_t>() >
                                                              static_cast<std::uint64_t>(
                                                                  INT64_MAX)) ||
      v.get<std::int64_t>() < least) {
    Refuse(where, Status::Error(Code::kLogNotWhole, key, least));
  }
  return v.get<std::int64_t>();
}

std::vector<std::string> Names(const json& v, const Where& where, std::string_view key) {
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

// The fields each kind must carry (docs/logs.md); other fields are ignored,
// so a writer may add its own (a clock, a time).
void ReadFields(const json& o, Line* line) {
  const Where& at = line->where;
  switch (line->kind) {
    case Kind::kStart:
      line->value = Whole(o, at, "state", 0);  // a state is at least 0: see Merge::Send
      line->inputs = Names(Field(o, at, "inputs"), at, "inputs");
      return;
    case Kind::kSend:
      line->peer = Name(o, at, "to");
      ReadMsg(o, line);
      line->value = Whole(o, at, "amount", 0);
      return;
    case Kind::kReceive:
      line->peer = Name(o, at, "from");
      ReadMsg(o, line);
      return;
    case Kind::kRecord:
      line->snapshot = static_cast<SnapshotId>(Whole(o, at, "snapshot", 1));
      line->value = Whole(o, at, "state", 0);
      return;
    case Kind::kMarkerSend:
    case Kind::kMarkerReceive:
      line->peer = Name(o, at, line->kind == Kind::kMarkerSend ? "to" : "from");
      line->snapshot = static_cast<SnapshotId>(Whole(o, at, "snapshot", 1));
      return;
    case Kind::kPartDone: {
      line->snapshot = static_cast<SnapshotId>(Whole(o, at, "snapshot", 1));
      const json& channels = Field(o, at, "channels");
      if (!channels.is_object()) {
        Refuse(at, Status::Error(Code::kLogChannelsNotMap));
      }
      for (const auto& [from, ids] : channels.items()) {
        if (!ids.is_array()) Refuse(at, Status::Error(Code::kLogChannelNotList, from));
        std::vector<MsgId> list;
        for (const json& id : ids) list.push_back(Id(id, at, "channels"));
        line->channels.emplace_back(from, std::move(list));
      }
      return;
    }
  }
}

// One line of a file, or nothing for a blank one; `process` is its process.
std::optional<Line> ReadLine(const std::string& text, const Where& where,
                             std::string* process) {
  if (text.find_first_not_of(" \t\r") == std::string::npos) return std::nullopt;
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
  line.kind = known->kind;
  ReadFields(o, &line);
  return line;
}

// The first line every file must hold.
std::string Header() {
  return fmt::format("{{\"format\": \"{}\", \"version\": {}}}", kEventsFormat, kEventsVersion);
}

void ReadHeader(const std::string& text, const Where& where) {
  json o = json::parse(text, nullptr, false);
  const std::string expected = Header();
  if (!o.is_object() || o.value("format", json()) != kEventsFormat ||
      !o.value("version", json()).is_number_integer()) {
    Refuse(where, Status::Error(Code::kLogNotEventsLog, expected));
  }
  const std::int64_t version = o["version"].get<std::int64_t>();
  if (version < 1 || version > kEventsVersion) {
    Refuse(where, Status::Error(Code::kLogVersion, version, kEventsFormat, kEventsVersion));
  }
}

// The next line of `in` into *text, without its newline; false at the end.
// A line longer than kEventsLineBytesMax is refused before it is held.
bool NextLine(std::istream& in, const Where& where, std::string* text) {
  text->clear();
  std::streambuf& buf = *in.rdbuf();
  for (;;) {
    const int c = buf.sbumpc();
    if (c == std::char_traits<char>::eof()) return !text->empty();
    if (c == '\n') return true;
    if (text->size() == kEventsLineBytesMax) {
      Refuse(where, Status::Error(Code::kLogLineTooLong, kEventsLineBytesMax));
    }
    text->push_back(static_cast<char>(c));
  }
}

void ReadFile(const std::filesystem::path& path, std::map<std::string, Process>* processes,
              std::size_t* lines) {
  const std::string file = path.filename().string();
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Malformed{Status::Error(Code::kLogUnreadable, path.string())};
  std::string text;
  std::size_t number = 1;
  for (; NextLine(in, Where{file, number}, &text); ++number) {
    const Where where{file, number};
    if (number == 1) {
      ReadHeader(text, where);
      continue;
    }
    std::string name;
    std::optional<Line> line = ReadLine(text, where, &name);
    if (!line) continue;
    Process& p = (*processes)[name];
    if (p.file.empty()) p.file = file;
    if (p.file != file) {
      Refuse(where, Status::Error(Code::kLogFileTwice, name, p.file));
    }
    const bool first = p.lines.empty();
    if (first != (line->kind == Kind::kStart)) {
      Refuse(where, Status::Error(first ? Code::kLogFirstNotStart : Code::kLogStartsTwice, name));
    }
    p.lines.push_back(std::move(*line));
    ++*lines;
  }
  // A file with no header is no events log, even with nothing else in it.
  if (number == 1) Refuse(Where{file, 1}, Status::Error(Code::kLogEmptyFile, Header()));
  if (in.bad()) throw Malformed{Status::Error(Code::kLogUnreadable, path.string())};
}

// A message sent, as the merge knows it.
struct SentMessage {
  Seq seq = 0;
  ChannelId channel = 0;
  cutline::Amount amount = 0;
};

// Puts every process's events in one causal order: a receipt after its
// send, each process's events in their own order. Any order that keeps
// these is a causal order; the checker's vector clocks need no more.
class Merge {
 public:
  Merge(const std::vector<Process*>& by_node, EventsLog* log)
      : by_node_(by_node), log_(log), say_(FindingsIn(log->lang)), net_(*log->topology),
        next_(by_node.size(), 0),
        last_marker_(by_node.size()), state_(log->initial), overdrawn_(by_node.size(), false) {
    for (const Process* p : by_node_) {
      for (const Line& l : p->lines) {
        if (l.kind == Kind::kSend) sent_anywhere_.insert(l.msg);
      }
    }
  }

  // False (with a finding) when no causal order exists.
  bool Run() {
    for (bool moved = true; moved;) {
      moved = false;
      for (NodeId n = 0; n < by_node_.size(); ++n) {
        while (next_[n] < by_node_[n]->lines.size() && Emit(n, by_node_[n]->lines[next_[n]])) {
          ++next_[n];
          moved = true;
        }
        if (!log_->ordered) return false;
      }
    }
    for (NodeId n = 0; n < by_node_.size(); ++n) {
      if (next_[n] < by_node_[n]->lines.size()) return Stuck(by_node_[n]->lines[next_[n]], n);
    }
    return true;
  }

  const std::map<SnapshotId, std::uint64_t>& markers_sent() const { return markers_sent_; }
  const std::unordered_map<std::string, SentMessage>& sent() const { return sent_; }

 private:
  // False when the event must wait for a send not yet emitted.
  bool Emit(NodeId n, const Line& l) {
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
      case Kind::kMarkerSend: {
        const ChannelId c = net_.Find(n, Node(l.peer));
        const Seq seq = NextSeq(l.where.str());
        log_->events.push_back(history::Sent<history::Marker>{seq, c, {l.snapshot}});
        markers_[{c, l.snapshot}].push_back(seq);
        ++markers_sent_[l.snapshot];
        last_marker_[n].reset();
        return true;
      }
      case Kind::kMarkerReceive:
        return ReceiveMarker(n, l);
      case Kind::kPartDone:
        log_->events.push_back(history::PartDone{l.snapshot, n});
        if (++parts_[l.snapshot] == by_node_.size()) {
          log_->events.push_back(history::Completed{l.snapshot, n});
        }
        return true;
    }
    return true;
  }

  void Send(NodeId n, const Line& l) {
    const ChannelId c = net_.Find(n, Node(l.peer));
    const Seq seq = NextSeq(l.msg);
    sent_[l.msg] = {seq, c, l.value};
    log_->events.push_back(history::Sent<history::Transfer>{seq, c, {l.value}});
    last_marker_[n].reset();
    // A state is at least 0 (docs/logs.md): a send that takes more than the
    // sender holds is the implementation's fault, named once per process
    // (every later send of an overdrawn process would repeat it).
    if (l.value > state_[n]) {
      if (!overdrawn_[n]) {
        overdrawn_[n] = true;
        log_->problems.push_back(say_.AboutHistory(say_.Overdraft(
            Name(n), apps::Money(l.value), say_.Message(l.msg), apps::Money(state_[n]),
            l.where.str())));
      }
    }
    // Past 64 bits the judge names it (ReplayOverflows); here it only stops.
    if (__builtin_sub_overflow(state_[n], l.value, &state_[n])) state_[n] = INT64_MIN;
  }

  bool Receive(NodeId n, const Line& l) {
    auto it = sent_.find(l.msg);
    if (it == sent_.end()) return false;
    const SentMessage& m = it->second;
    const sim::ChannelInfo& ch = net_.channel(m.channel);
    if (ch.to != n || ch.from != Node(l.peer)) {
      return Unordered(say_.AboutHistory(say_.ReceivedOtherwise(
          Name(n), l.msg, l.peer, l.where.str(), Name(ch.from), Name(ch.to))));
    }
    if (!received_.insert(l.msg).second) {
      return Unordered(say_.AboutHistory(say_.ReceivedTwice(l.msg, l.where.str())));
    }
    log_->events.push_back(history::Delivered<history::Transfer>{m.seq, m.channel, {m.amount}});
    last_marker_[n].reset();
    if (__builtin_add_overflow(state_[n], m.amount, &state_[n])) state_[n] = INT64_MAX;
    return true;
  }

  bool ReceiveMarker(NodeId n, const Line& l) {
    const ChannelId c = net_.Find(Node(l.peer), n);
    std::deque<Seq>& waiting = markers_[{c, l.snapshot}];
    if (waiting.empty()) return false;
    const Seq seq = waiting.front();
    waiting.pop_front();
    log_->events.push_back(history::Delivered<history::Marker>{seq, c, {l.snapshot}});
    last_marker_[n] = std::make_pair(l.snapshot, seq);
    return true;
  }

  // A record right after a marker of its snapshot came is that marker's
  // doing (the checker cuts just before the marker); any other starts it.
  void Record(NodeId n, const Line& l) {
    const bool by_marker = last_marker_[n] && last_marker_[n]->first == l.snapshot;
    const history::Cause cause =
        by_marker ? history::Cause::ByMarker(last_marker_[n]->second) : history::Cause::Start();
    log_->events.push_back(history::Recorded{l.snapshot, cause, n});
  }

  // Every process left waits on a receipt: name the first one's reason.
  bool Stuck(const Line& l, NodeId n) {
    if (l.kind == Kind::kReceive && !sent_anywhere_.contains(l.msg)) {
      return Unordered(say_.AboutHistory(say_.ReceivedUnsent(Name(n), l.msg, l.where.str())));
    }
    if (l.kind == Kind::kMarkerReceive) {
      return Unordered(
          say_.AboutHistory(say_.MarkerUnsent(Name(n), l.snapshot, l.peer, l.where.str())));
    }
    return Unordered(say_.AboutHistory(say_.NoCausalOrder(l.where.str())));
  }

  bool Unordered(std::string finding) {
    log_->problems.push_back(std::move(finding));
    log_->ordered = false;
    return false;
  }

  Seq NextSeq(const std::string& name) {
    log_->message_names.push_back(name);
    return static_cast<Seq>(log_->message_names.size() - 1);
  }
  NodeId Node(const std::string& name) const {
    auto it = std::lower_bound(log_->processes.begin(), log_->processes.end(), name);
    return static_cast<NodeId>(it - log_->processes.begin());
  }
  const std::string& Name(NodeId n) const { return log_->processes[n]; }

  const std::vector<Process*>& by_node_;
  EventsLog* log_;
  const Findings& say_;  // in the log's language
  const sim::Topology& net_;
  std::vector<std::size_t> next_;
  std::set<std::string> sent_anywhere_;
  std::unordered_map<std::string, SentMessage> sent_;
  std::set<std::string> received_;
  std::map<std::pair<ChannelId, SnapshotId>, std::deque<Seq>> markers_;
  std::map<SnapshotId, std::uint64_t> markers_sent_;
  std::map<SnapshotId, std::size_t> parts_;
  // By node: the marker its last message event received, if it was one.
  std::vector<std::optional<std::pair<SnapshotId, Seq>>> last_marker_;
  // By node: its state replayed so far, and whether a send overdrew it.
  std::vector<cutline::Amount> state_;
  std::vector<bool> overdrawn_;
};

// A message's id is written one way, a number or a string, wherever it is
// named: 1 and "1" are refused together rather than read as one message.
void CheckIdsWrittenOneWay(const std::map<std::string, Process>& processes) {
  struct Written {
    bool number;
    std::string where;
  };
  std::unordered_map<std::string, Written> first;
  auto check = [&](const std::string& id, bool number, const Where& where) {
    auto [it, fresh] = first.try_emplace(id, Written{number, where.str()});
    if (!fresh && it->second.number != number) {
      Refuse(where, Status::Error(Code::kLogIdMixed, id, it->second.where));
    }
  };
  for (const auto& [name, p] : processes) {
    for (const Line& l : p.lines) {
      if (l.kind == Kind::kSend || l.kind == Kind::kReceive) check(l.msg, l.msg_number, l.where);
      for (const auto& [from, ids] : l.channels) {
        for (const MsgId& id : ids) check(id.text, id.number, l.where);
      }
    }
  }
}

// The names every line uses must be processes, and channels the inputs
// their receivers declared; a part-done lists every input; a message id is
// sent once.
void CheckNames(const std::map<std::string, Process>& processes) {
  std::map<std::string, std::string> first_send;  // id -> where
  for (const auto& [name, p] : processes) {
    const std::vector<std::string>& inputs = p.lines.front().inputs;
    auto has_input = [&](const std::string& from) {
      return std::find(inputs.begin(), inputs.end(), from) != inputs.end();
    };
    for (const std::string& in : inputs) {
      if (in == name) Refuse(p.lines.front().where, Status::Error(Code::kLogListsItself, name));
      if (!processes.contains(in)) {
        Refuse(p.lines.front().where, Status::Error(Code::kLogInputSilent, name, in));
      }
    }
    for (const Line& l : p.lines) {
      const bool sends = l.kind == Kind::kSend || l.kind == Kind::kMarkerSend;
      const bool receives = l.kind == Kind::kReceive || l.kind == Kind::kMarkerReceive;
      if (sends) {
        auto to = processes.find(l.peer);
        const auto& their = to == processes.end() ? inputs : to->second.lines.front().inputs;
        if (to == processes.end() || std::find(their.begin(), their.end(), name) == their.end()) {
          Refuse(l.where, Status::Error(Code::kLogSendNoInput, name, l.peer));
        }
      }
      if (receives && !has_input(l.peer)) {
        Refuse(l.where, Status::Error(Code::kLogReceiveNotInput, name, l.peer));
      }
      if (l.kind == Kind::kSend && !first_send.emplace(l.msg, l.where.str()).second) {
        Refuse(l.where, Status::Error(Code::kLogSentTwice, l.msg, first_send[l.msg]));
      }
      for (const auto& [from, ids] : l.channels) {
        if (!has_input(from)) {
          Refuse(l.where, Status::Error(Code::kLogPartChannel, name, from));
        }
      }
      if (l.kind != Kind::kPartDone) continue;
      for (const std::string& in : inputs) {
        const bool listed = std::any_of(l.channels.begin(), l.channels.end(),
                                        [&](const auto& ch) { return ch.first == in; });
        if (!listed) Refuse(l.where, Status::Error(Code::kLogPartMissesInput, name, in, l.snapshot));
      }
    }
  }
  CheckIdsWrittenOneWay(processes);
}

sim::Topology TopologyOf(const std::vector<std::string>& names,
                         const std::map<std::string, Process>& processes) {
  std::vector<sim::Link> links;
  for (NodeId to = 0; to < names.size(); ++to) {
    for (const std::string& from : processes.at(names[to]).lines.front().inputs) {
      const auto it = std::lower_bound(names.begin(), names.end(), from);
      const sim::Link link{static_cast<NodeId>(it - names.begin()), to};
      if (std::find(links.begin(), links.end(), link) == links.end()) links.push_back(link);
    }
  }
  return sim::Topology(static_cast<std::uint32_t>(names.size()), links);
}

// The ids a part lists for the channel from `from`, as the amounts a claim
// holds; an id no log sends is a finding of its own.
void ClaimChannel(SnapshotId id, NodeId n, const std::string& from,
                  const std::vector<MsgId>& ids, const Line& part, const Merge& merge,
                  EventsLog* log, SnapshotClaim* claim) {
  const auto it = std::lower_bound(log->processes.begin(), log->processes.end(), from);
  history::ChannelRecord& r = claim->channels[log->topology->Find(
      static_cast<NodeId>(it - log->processes.begin()), n)];
  r.state = ChannelRecording::kClosed;
  for (const MsgId& id_as_written : ids) {
    const std::string& msg = id_as_written.text;
    auto m = merge.sent().find(msg);
    if (m == merge.sent().end()) {
      const Findings& say = FindingsIn(log->lang);
      log->problems.push_back(say.AboutSnapshot(
          id, say.ChannelHoldsUnsent(log->processes[n], from, msg, part.where.str())));
      continue;
    }
    r.transfers.push_back(m->second.amount);
  }
}

// The claims of the snapshots every process finished, from their records
// and their parts' channel contents; the others are listed as incomplete.
// One pass indexes the lines by snapshot; each snapshot then reads its own.
void Claim(const std::vector<Process*>& by_node, const Merge& merge, EventsLog* log) {
  std::map<SnapshotId, std::vector<std::pair<NodeId, const Line*>>> lines_of;
  for (NodeId n = 0; n < by_node.size(); ++n) {
    for (const Line& l : by_node[n]->lines) {
      if (l.snapshot != 0) lines_of[l.snapshot].emplace_back(n, &l);
    }
  }
  const Findings& say = FindingsIn(log->lang);
  for (const auto& [id, lines] : lines_of) {
    std::set<NodeId> done;
    // By node, the inputs a marker of this snapshot came from so far: a
    // part-done before one of them cannot have closed that channel.
    std::map<NodeId, std::set<std::string>> markers_from;
    for (const auto& [n, l] : lines) {
      if (l->kind == Kind::kMarkerReceive) markers_from[n].insert(l->peer);
      if (l->kind != Kind::kPartDone) continue;
      done.insert(n);
      for (const std::string& from : by_node[n]->lines.front().inputs) {
        if (markers_from[n].contains(from)) continue;
        log->problems.push_back(say.AboutSnapshot(
            id, say.PartBeforeMarker(log->processes[n], from, l->where.str())));
      }
    }
    if (done.size() < by_node.size()) {
      std::vector<std::string> unfinished;
      for (NodeId n = 0; n < by_node.size(); ++n) {
        if (!done.contains(n)) unfinished.push_back(log->processes[n]);
      }
      log->incomplete.emplace_back(id, std::move(unfinished));
      continue;
    }
    SnapshotClaim claim;
    claim.id = id;
    claim.markers_sent = merge.markers_sent().contains(id) ? merge.markers_sent().at(id) : 0;
    claim.balances.assign(by_node.size(), std::nullopt);
    claim.channels.assign(log->topology->channel_count(), history::ChannelRecord{});
    for (const auto& [n, l] : lines) {
      if (l->kind == Kind::kRecord && !claim.balances[n]) claim.balances[n] = l->value;
      if (l->kind != Kind::kPartDone) continue;
      for (const auto& [from, ids] : l->channels) {
        ClaimChannel(id, n, from, ids, *l, merge, log, &claim);
      }
    }
    log->claims.push_back(std::move(claim));
  }
}

}  // namespace

RunRecord EventsLog::Record() const {
  // The format's states are numbers its messages move, a send taking and a
  // receipt adding (docs/logs.md): the bank's rules.
  RunRecord run{.app = apps::App::kBank};
  run.events = events;
  run.topology = &*topology;
  run.initial_balances = initial;
  run.names = processes;
  run.message_names = message_names;
  run.claims = claims;
  return run;
}

StatusOr<EventsLog> ReadEventsLog(const std::string& dir, Lang lang) {
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
  std::map<std::string, Process> processes;
  try {
    for (const fs::path& f : files) ReadFile(f, &processes, &log.lines);
    if (processes.empty()) throw Malformed{Status::Error(Code::kLogNoEvents, dir)};
    CheckNames(processes);
  } catch (const Malformed& m) {
    return m.why;
  }
  std::vector<Process*> by_node;
  for (auto& [name, p] : processes) {
    log.processes.push_back(name);
    log.initial.push_back(p.lines.front().value);
    by_node.push_back(&p);
  }
  log.topology.emplace(TopologyOf(log.processes, processes));
  log.message_names.push_back("");  // message numbers start at 1
  Merge merge(by_node, &log);
  if (merge.Run()) Claim(by_node, merge, &log);
  return log;
}

CheckReport CheckEventsLog(const EventsLog& log) {
  CheckReport report;
  if (log.ordered) report = CheckRun(log.Record(), log.lang);
  report.problems.insert(report.problems.begin(), log.problems.begin(), log.problems.end());
  return report;
}

}  // namespace cutline::check
