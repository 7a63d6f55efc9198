#include "harness/nodes.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace cutline::harness {

namespace {

using json = nlohmann::json;

// The tester's msg_ids are functions of a node's history, never of the
// schedule, so that an input reads the same in every schedule that gives
// it: init is 1, command i is 2 + i, the sync after input k is kSyncBase + k.
constexpr std::int64_t kInitMsgId = 1;
constexpr std::int64_t kSyncBase = 1000000000;
constexpr std::chrono::milliseconds kStartUp{10000};

// A line as a fault quotes it: long ones cut, so that the fault stays one line.
std::string Quote(const std::string& line) {
  constexpr std::size_t kMost = 160;
  if (line.size() <= kMost) return line;
  return line.substr(0, kMost) + "...";
}

std::string Envelope(const std::string& dest, const std::string& src, const json& body) {
  return json{{"src", src}, {"dest", dest}, {"body", body}}.dump();
}

}  // namespace

Nodes::Nodes(const Workload& workload, NodeOptions options)
    : workload_(workload), options_(std::move(options)), live_(workload.nodes.size()) {
  for (std::vector<Live>& pool : live_) pool.reserve(kLivePerNode);  // a Live& stays valid
}

Nodes::Live& Nodes::Pick(std::uint32_t node, std::uint32_t parent) {
  std::vector<Live>& pool = live_[node];
  ++clock_;
  Live* best = nullptr;
  if (parent != kRoot) {
    // The deepest history on the way from `parent` up to init at which a
    // process of this node stands: feeding it forward costs least.
    for (std::uint32_t h = parent; h != kRoot && best == nullptr; h = locals_[h].parent) {
      for (Live& l : pool) {
        if (l.process && l.at == h) {
          best = &l;
          break;
        }
      }
    }
  }
  if (best == nullptr) {
    if (pool.size() < kLivePerNode) {
      best = &pool.emplace_back();
    } else {
      best = &*std::min_element(pool.begin(), pool.end(),
                                [](const Live& a, const Live& b) { return a.used < b.used; });
    }
    best->process.reset();  // started afresh when fed
    best->at = kRoot;
  }
  best->used = clock_;
  return *best;
}

std::string Nodes::InputLine(std::uint32_t node, const Input& input) const {
  const std::string& me = workload_.nodes[node];
  switch (input.kind) {
    case Input::Kind::kInit:
      return Envelope(me, kTesterId,
                      {{"type", "init"}, {"msg_id", kInitMsgId}, {"node_id", me},
                       {"node_ids", workload_.nodes}, {"balance", workload_.balance}});
    case Input::Kind::kCommand: {
      const Command& c = workload_.commands[input.id];
      const std::int64_t id = 2 + static_cast<std::int64_t>(input.id);
      if (c.kind == Command::Kind::kSnapshot) {
        return Envelope(me, kTesterId,
                        {{"type", "snapshot"}, {"msg_id", id}, {"snapshot", c.snapshot}});
      }
      return Envelope(me, kTesterId,
                      {{"type", "transfer"}, {"msg_id", id}, {"to", workload_.nodes[c.to]},
                       {"amount", c.amount}});
    }
    case Input::Kind::kDeliver: {
      const Carried& m = messages_[input.id];
      return Envelope(me, workload_.nodes[m.from], m.body);
    }
  }
  return {};
}

std::string Nodes::Describe(const Input& input) const {
  switch (input.kind) {
    case Input::Kind::kInit:
      return "init";
    case Input::Kind::kCommand:
      return workload_.Describe(workload_.commands[input.id]);
    case Input::Kind::kDeliver:
      break;
  }
  const Carried& m = messages_[input.id];
  return fmt::format("{}'s {}", workload_.nodes[m.from], Quote(m.body.dump()));
}

StatusOr<std::uint32_t> Nodes::Root(std::uint32_t node) {
  return Ask(kRoot, node, Input{Input::Kind::kInit, node});
}

StatusOr<std::uint32_t> Nodes::Step(std::uint32_t at, const Input& input) {
  return Ask(at, locals_[at].node, input);
}

StatusOr<std::uint32_t> Nodes::Ask(std::uint32_t parent, std::uint32_t node,
                                   const Input& input) {
  const auto key = std::make_tuple(parent, static_cast<std::uint8_t>(input.kind), input.id, node);
  if (auto it = children_.find(key); it != children_.end()) return it->second;
  Local local;
  local.node = node;
  local.parent = parent;
  local.input = input;
  local.depth = parent == kRoot ? 0 : locals_[parent].depth + 1;
  Live& live = Pick(node, parent);
  Status s = parent != kRoot ? Bring(&live, node, parent) : Status::Ok();
  if (s.ok()) s = Feed(&live, node, input, local.depth, &local.lines, &local.log);
  if (s.ok()) s = Parse(&local);
  if (!s.ok()) {
    // Where the process stands is no history the trie knows: start afresh
    // when it is next asked.
    live.process.reset();
    live.at = kRoot;
    return s;
  }
  const auto id = static_cast<std::uint32_t>(locals_.size());
  locals_.push_back(std::move(local));
  children_.emplace(key, id);
  live.at = id;
  return id;
}

Status Nodes::Bring(Live* live_process, std::uint32_t node, std::uint32_t at) {
  Live& live = *live_process;
  std::vector<std::uint32_t> path;  // from `at` up to the live history, or the root
  for (std::uint32_t h = at; h != kRoot; h = locals_[h].parent) {
    if (live.process && h == live.at) break;
    path.push_back(h);
  }
  if (!path.empty() && locals_[path.back()].parent == kRoot) live.process.reset();
  std::reverse(path.begin(), path.end());
  for (std::uint32_t h : path) {
    std::vector<std::string> lines;
    std::string log;
    if (Status s = Feed(&live, node, locals_[h].input, locals_[h].depth, &lines, &log); !s.ok()) {
      return s;
    }
    if (lines != locals_[h].lines) {
      // The first line that differs, each side's.
      const std::vector<std::string>& first = locals_[h].lines;
      std::size_t i = 0;
      while (i < first.size() && i < lines.size() && first[i] == lines[i]) ++i;
      auto at = [&](const std::vector<std::string>& v) {
        return i < v.size() ? Quote(v[i]) : std::string("(nothing more)");
      };
      return Status::Error(Code::kNodeNondeterministic, workload_.nodes[node],
                           Describe(locals_[h].input), at(first), at(lines));
    }
    live.at = h;
  }
  return Status::Ok();
}

Status Nodes::Feed(Live* live_process, std::uint32_t node, const Input& input,
                   std::uint32_t depth, std::vector<std::string>* lines, std::string* log) {
  Live& live = *live_process;
  const std::string& me = workload_.nodes[node];
  if (!live.process) {
    StatusOr<NodeProcess> p = Fresh();
    if (!p.ok()) return p.status();
    live.process = std::move(*p);
  }
  ++fed_;
  const std::int64_t sync = kSyncBase + depth;
  const std::string text =
      InputLine(node, input) + "\n" +
      Envelope(me, kTesterId, {{"type", "sync"}, {"msg_id", sync}}) + "\n";
  auto ended = [&] {
    live.process->WaitEnded(std::chrono::milliseconds(500));
    const Ending how = live.process->Stop();
    *log += live.process->TakeStderr();
    live.process.reset();
    switch (how.how) {
      case Ending::How::kExited:
        return Status::Error(Code::kNodeExited, me, static_cast<std::uint64_t>(how.number),
                             Describe(input));
      case Ending::How::kKilled:
        return Status::Error(Code::kNodeKilled, me, static_cast<std::uint64_t>(how.number),
                             Describe(input));
      case Ending::How::kRunning:
        break;
    }
    return Status::Error(Code::kNodeClosedOutput, me, Describe(input));
  };
  if (!live.process->Write(text)) return ended();
  for (;;) {
    std::string line;
    // Init waits for the program's start-up too (an interpreter's can take
    // a second on a busy machine): never less than kStartUp.
    const auto limit = input.kind == Input::Kind::kInit
                           ? std::max<std::chrono::milliseconds>(options_.timeout, kStartUp)
                           : options_.timeout;
    const NodeProcess::Read read = live.process->ReadLine(&line, limit);
    if (read == NodeProcess::Read::kEnded) return ended();
    if (read == NodeProcess::Read::kTimedOut) {
      *log += live.process->TakeStderr();
      live.process.reset();
      return Status::Error(Code::kNodeHangs, me,
                           static_cast<std::uint64_t>(options_.timeout.count()),
                           Describe(input));
    }
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    json m = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (m.is_discarded()) {
      return Status::Error(Code::kNodeNotJson, me, Quote(line), Describe(input));
    }
    const json* body = m.is_object() && m.contains("body") ? &m["body"] : nullptr;
    if (body == nullptr || !body->is_object() || !body->contains("type") ||
        !(*body)["type"].is_string()) {
      return Status::Error(Code::kNodeNoType, me, Quote(line), Describe(input));
    }
    // The answer to the sync ends the node's answer to the input: a
    // sync_ok, or the error a Maelstrom library gives a type it lacks.
    if (body->value("in_reply_to", json()) == sync && m.value("dest", json()) == kTesterId) {
      *log += live.process->TakeStderr();
      return Status::Ok();
    }
    lines->push_back(m.dump());
  }
}

Status Nodes::Parse(Local* local) {
  const std::string& me = workload_.nodes[local->node];
  bool init_ok = false;
  for (const std::string& line : local->lines) {
    const json m = json::parse(line);
    const json& body = m["body"];
    const std::string type = body["type"].get<std::string>();
    if (m.value("src", json()) != me) {
      return Status::Error(Code::kNodeWrongSrc, me, Quote(line));
    }
    const json dest = m.value("dest", json());
    if (dest == kTesterId) {
      if (type == "init_ok" || type == "transfer_ok" || type == "snapshot_ok") {
        init_ok |= type == "init_ok";
        continue;
      }
      if (type == "error") {
        return Status::Error(Code::kNodeAnsweredError, me, Quote(line),
                             Describe(local->input));
      }
      if (type != "record" && type != "part_done") {
        return Status::Error(Code::kNodeUnknownReport, me, type);
      }
      Output out;
      const json snapshot = body.value("snapshot", json());
      if (!snapshot.is_number_unsigned() || snapshot.get<std::uint64_t>() == 0) {
        return Status::Error(Code::kNodeBadReport, me, type, Quote(line));
      }
      out.snapshot = snapshot.get<SnapshotId>();
      const bool asked = std::any_of(
          workload_.commands.begin(), workload_.commands.end(), [&](const Command& c) {
            return c.kind == Command::Kind::kSnapshot && c.snapshot == out.snapshot;
          });
      if (!asked) return Status::Error(Code::kNodeUnknownSnapshot, me, out.snapshot);
      if (type == "record") {
        out.kind = Output::Kind::kRecord;
        const json balance = body.value("balance", json());
        if (!balance.is_number_integer()) {
          return Status::Error(Code::kNodeBadReport, me, type, Quote(line));
        }
        out.balance = balance.get<std::int64_t>();
        const json before = body.value("before_input", json(false));
        if (!before.is_boolean()) return Status::Error(Code::kNodeBadReport, me, type, Quote(line));
        out.before_input = before.get<bool>();
      } else {
        out.kind = Output::Kind::kPartDone;
        const json channels = body.value("channels", json());
        if (!channels.is_object()) return Status::Error(Code::kNodeBadReport, me, type, Quote(line));
        for (const auto& [from, ids] : channels.items()) {
          auto it = std::find(workload_.nodes.begin(), workload_.nodes.end(), from);
          if (it == workload_.nodes.end() || from == me) {
            return Status::Error(Code::kNodeReportNoChannel, me, from);
          }
          std::vector<std::int64_t> list;
          if (!ids.is_array()) return Status::Error(Code::kNodeBadReport, me, type, Quote(line));
          for (const json& id : ids) {
            if (!id.is_number_integer()) {
              return Status::Error(Code::kNodeBadReport, me, type, Quote(line));
            }
            list.push_back(id.get<std::int64_t>());
          }
          out.channels.emplace_back(static_cast<std::uint32_t>(it - workload_.nodes.begin()),
                                    std::move(list));
        }
      }
      local->outputs.push_back(std::move(out));
      continue;
    }
    auto to = dest.is_string()
                  ? std::find(workload_.nodes.begin(), workload_.nodes.end(), dest.get<std::string>())
                  : workload_.nodes.end();
    if (to == workload_.nodes.end() || *to == me) {
      return Status::Error(Code::kNodeNoSuchDest, me, dest.dump(), Quote(line));
    }
    Carried c;
    c.from = local->node;
    c.to = static_cast<std::uint32_t>(to - workload_.nodes.begin());
    c.body = body;
    if (type == "transfer") {
      c.transfer = true;
      const json id = body.value("msg_id", json());
      const json amount = body.value("amount", json());
      if (!id.is_number_integer() || !amount.is_number_integer() ||
          amount.get<std::int64_t>() < 0) {
        return Status::Error(Code::kNodeBadTransfer, me, Quote(line));
      }
      c.id = id.get<std::int64_t>();
      c.amount = amount.get<std::int64_t>();
    }
    Output out;
    out.kind = Output::Kind::kSend;
    // One number per distinct message: a receiver answers what it reads, so
    // the same body from the same sender is the same input whichever of the
    // sender's histories sent it (the trie and the states merge there).
    const auto [it, fresh] = interned_.try_emplace(
        fmt::format("{} {} {}", c.from, c.to, c.body.dump()),
        static_cast<std::uint32_t>(messages_.size()));
    if (fresh) messages_.push_back(std::move(c));
    out.message = it->second;
    local->outputs.push_back(std::move(out));
  }
  if (local->input.kind == Input::Kind::kInit && !init_ok) {
    return Status::Error(Code::kNodeNoInitOk, me);
  }
  return Status::Ok();
}

StatusOr<NodeProcess> Nodes::Fresh() {
  while (warm_.size() < live_.size() + 1) {
    std::string why;
    std::optional<NodeProcess> p = NodeProcess::Start(options_.argv, &why);
    if (!p) return Status::Error(Code::kTestCannotStart, options_.argv[0], why);
    ++started_;
    warm_.push_back(std::move(*p));
  }
  NodeProcess p = std::move(warm_.front());
  warm_.erase(warm_.begin());
  return p;
}

void Nodes::StopAll() {
  for (std::vector<Live>& pool : live_) pool.clear();
  warm_.clear();
}

}  // namespace cutline::harness
