// The program under test, as the tester sees it: every node's answers to
// every sequence of inputs it was given, asked of real processes only once.
//
// A node is a deterministic function of the inputs it has received (init,
// the tester's commands, the messages delivered to it), so its answers are
// kept in a trie of local histories, one per node. A schedule that gives a
// node an input sequence some earlier schedule gave it reads the answer from
// the trie; a new one brings that node's process to the history's parent
// (feeding the inputs it lacks, or starting it afresh and replaying them)
// and asks. A replay that answers differently from the first time is the
// program's nondeterminism, named with both answers. The search (search.h)
// thus costs one process step per distinct local history, however many
// global states share it.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "base/status.h"
#include "harness/node_process.h"
#include "harness/workload.h"

namespace cutline::harness {

// The tester's id on the network (a Maelstrom client's): the `src` of its
// requests and the `dest` of the nodes' replies and reports.
inline constexpr const char* kTesterId = "c0";

// A message from one node to another, carried by the tester.
struct Carried {
  std::uint32_t from = 0, to = 0;
  nlohmann::json body;  // as the sender wrote it
  bool transfer = false;  // body type "transfer": it moves money
  cutline::Amount amount = 0;  // a transfer's
  std::int64_t id = 0;         // a transfer's msg_id: the reports name it so
};

// What a node did in answer to one input, in its order.
struct Output {
  enum class Kind : std::uint8_t { kSend, kRecord, kPartDone };
  Kind kind = Kind::kSend;
  std::uint32_t message = 0;    // kSend: the Carried's number
  SnapshotId snapshot = 0;      // kRecord, kPartDone
  cutline::Amount balance = 0;  // kRecord
  // kRecord: recorded before the input it answers took effect (a node that
  // records when a transfer of a newer epoch arrives, before applying it).
  bool before_input = false;
  // kPartDone: by sending node, the ids of the transfers it recorded on
  // the channel from it, in its order.
  std::vector<std::pair<std::uint32_t, std::vector<std::int64_t>>> channels;
};

struct Input {
  enum class Kind : std::uint8_t { kInit, kDeliver, kCommand };
  Kind kind = Kind::kInit;
  std::uint32_t id = 0;  // kDeliver: the Carried's number; kCommand: its index
};

// One node's history up to one input, and its answer to that input.
struct Local {
  std::uint32_t node = 0;
  std::uint32_t parent = 0;  // kRoot at init
  Input input;
  std::uint32_t depth = 0;  // inputs after init
  std::vector<std::string> lines;  // the answer as written, each compact JSON
  std::vector<Output> outputs;
  std::string log;  // what the node wrote to stderr meanwhile
};

struct NodeOptions {
  std::vector<std::string> argv;  // the program and its arguments
  // How long a node may take to answer one input before it is said to hang.
  std::chrono::milliseconds timeout{5000};
};

class Nodes {
 public:
  static constexpr std::uint32_t kRoot = UINT32_MAX;

  Nodes(const Workload& workload, NodeOptions options);

  // The node's history after init; after `input` from history `at`. A
  // fault of the program (kNode*, naming the node, the input and what was
  // expected) when it answers outside the protocol.
  StatusOr<std::uint32_t> Root(std::uint32_t node);
  StatusOr<std::uint32_t> Step(std::uint32_t at, const Input& input);

  const Local& local(std::uint32_t id) const { return locals_[id]; }
  const Carried& message(std::uint32_t id) const { return messages_[id]; }
  const Workload& workload() const { return workload_; }
  // The line the tester writes for an input, as the node reads it.
  std::string InputLine(std::uint32_t node, const Input& input) const;
  // An input in a few words for a fault's line: "init", "transfer n1 n2 30",
  // "n2's transfer (msg_id 3)".
  std::string Describe(const Input& input) const;

  std::uint64_t processes_started() const { return started_; }
  std::uint64_t inputs_fed() const { return fed_; }
  std::uint64_t histories() const { return locals_.size(); }
  // Kills every node's process (the destructor does too).
  void StopAll();

 private:
  // A node's running process and the history it has been given. Each node
  // keeps several, standing at different histories: the search asks for
  // histories in breadth-first order, not along one path, and one process
  // per node was restarted for nearly every new history (5,529 starts for
  // 5,530 histories); a pool lets most requests feed a process forward.
  struct Live {
    std::optional<NodeProcess> process;
    std::uint32_t at = kRoot;  // the history it has been given
    std::uint64_t used = 0;    // when it was last picked: the least recent is replaced
  };
  static constexpr std::size_t kLivePerNode = 16;
  // The process to extend `parent` with (kRoot: to give init): the one
  // standing deepest on the way from `parent` up to init, else a new one
  // (replacing the least recently used when the node has kLivePerNode).
  Live& Pick(std::uint32_t node, std::uint32_t parent);
  // A started process, from the warm ones when there are; refills them.
  StatusOr<NodeProcess> Fresh();
  StatusOr<std::uint32_t> Ask(std::uint32_t parent, std::uint32_t node, const Input& input);
  Status Bring(Live* live, std::uint32_t node, std::uint32_t at);
  Status Feed(Live* live, std::uint32_t node, const Input& input, std::uint32_t depth,
              std::vector<std::string>* lines, std::string* log);
  Status Parse(Local* local);

  Workload workload_;
  NodeOptions options_;
  std::vector<Local> locals_;
  std::map<std::tuple<std::uint32_t, std::uint8_t, std::uint32_t, std::uint32_t>, std::uint32_t>
      children_;  // (parent, input kind, input id, node) -> history
  std::vector<Carried> messages_;
  std::unordered_map<std::string, std::uint32_t> interned_;  // "from to body" -> its number
  std::vector<std::vector<Live>> live_;  // by node
  std::uint64_t clock_ = 0;
  // Processes started ahead and not yet given init: every node is the same
  // program until init names it, and an interpreter's start-up (a Python
  // node's takes tenths of a second) then overlaps the other nodes' work.
  std::vector<NodeProcess> warm_;
  std::uint64_t started_ = 0, fed_ = 0;
};

}  // namespace cutline::harness
