// A bank branch for `cutline test` (docs/harness.md), written on cutline's
// own library: the snapshot is SnapshotAgent's (Chandy-Lamport's rules);
// this file is only the host: the JSON lines of the protocol in and out,
// the balance, and the markers the agent says to send. One process is one
// node; the tester runs one per node and carries every message.
//
//   cutline test --schedules every --bin build/harness_cl_node
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include <cutline/snapshot_agent.h>

namespace {

using json = nlohmann::json;

// What a recorded channel keeps of a transfer: its amount, and its msg_id,
// by which the node's part_done names it to the tester.
struct Transfer {
  std::int64_t amount = 0;
  std::int64_t id = 0;
};
using Agent = cutline::SnapshotAgent<std::int64_t, Transfer>;

class Branch {
 public:
  void Handle(const json& m) {
    const json& body = m["body"];
    const std::string type = body["type"];
    const std::string src = m["src"];
    if (type == "init") {
      me_ = body["node_id"];
      for (const std::string n : body["node_ids"]) {
        if (n != me_) others_.push_back(n);
      }
      balance_ = body["balance"];
      const auto channels = static_cast<std::uint32_t>(others_.size());
      agent_.emplace(channels, channels);  // one in and one out to every other node
      Reply(body, "init_ok");
    } else if (type == "sync") {
      Reply(body, "sync_ok");
    } else if (type == "transfer" && src == "c0") {
      const std::int64_t amount = body["amount"];
      balance_ -= amount;
      Send(body["to"], {{"type", "transfer"}, {"amount", amount}});
      Reply(body, "transfer_ok");
    } else if (type == "transfer") {
      const Transfer t{body["amount"], body["msg_id"]};
      Follow(agent_->OnMessage(Input(src), cutline::NoStamp{}, t, balance_));  // before applying it
      balance_ += t.amount;
    } else if (type == "snapshot") {
      Follow(agent_->Start(body["snapshot"], balance_));
      Reply(body, "snapshot_ok");
    } else if (type == "marker") {
      Follow(agent_->OnMarker(body["snapshot"], Input(src), balance_));
    }
  }

 private:
  // What the agent says to do: record (tell the tester, send a marker on
  // every outgoing channel before anything else), then hand over the parts
  // it finished.
  void Follow(const cutline::Reply& r) {
    if (!r.ok()) {
      std::cerr << me_ << ": the agent refused: " << cutline::ToString(r.error) << "\n";
      return;
    }
    if (r.record_state) {
      Out("c0", {{"type", "record"}, {"snapshot", r.snapshot}, {"balance", balance_}});
      for (const std::string& n : others_) Send(n, {{"type", "marker"}, {"snapshot", r.snapshot}});
    }
    while (std::optional<Agent::FinishedPart> done = agent_->TakeFinished()) {
      json channels = json::object();
      for (std::size_t c = 0; c < others_.size(); ++c) {
        json ids = json::array();
        for (const Transfer& t : done->part.channels[c]) ids.push_back(t.id);
        channels[others_[c]] = ids;
      }
      Out("c0", {{"type", "part_done"}, {"snapshot", done->id}, {"channels", channels}});
    }
  }

  cutline::ChannelIndex Input(const std::string& from) const {
    for (std::size_t c = 0; c < others_.size(); ++c) {
      if (others_[c] == from) return static_cast<cutline::ChannelIndex>(c);
    }
    return static_cast<cutline::ChannelIndex>(others_.size());  // the agent refuses it
  }
  void Out(const std::string& dest, const json& body) {
    std::cout << json{{"src", me_}, {"dest", dest}, {"body", body}}.dump() << '\n';
  }
  void Send(const std::string& dest, json body) {
    body["msg_id"] = ++next_id_;
    Out(dest, body);
  }
  void Reply(const json& request, const char* type) {
    Out("c0", {{"type", type}, {"in_reply_to", request["msg_id"]}});
  }

  std::string me_;
  std::vector<std::string> others_;  // by channel index, in and out
  std::int64_t balance_ = 0;
  std::int64_t next_id_ = 0;
  std::optional<Agent> agent_;
};

}  // namespace

int main() {
  std::ios::sync_with_stdio(false);
  Branch branch;
  for (std::string line; std::getline(std::cin, line);) {
    if (line.empty()) continue;
    branch.Handle(json::parse(line));
    std::cout.flush();  // the tester waits for the answer to each line
  }
  return 0;
}
