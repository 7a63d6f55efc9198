// The scenario language's syntax (docs/scenario-language.md): words, names,
// numbers and options. Meaning (does the branch exist?) is the Runner's job.
#include "scenario/parser.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace cutline::scenario {

std::vector<std::string_view> SplitWords(std::string_view line) {
  if (auto hash = line.find('#'); hash != std::string_view::npos) {
    line = line.substr(0, hash);
  }
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' ||
                               line[i] == '\r')) {
      ++i;
    }
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' &&
           line[i] != '\r') {
      ++i;
    }
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

namespace {

bool IsName(std::string_view s) { return engine::IsValidBranchName(s); }

// Words are quoted in errors; anything unprintable is shown as '?', so that
// an error stays one readable line whatever the input held.
std::string Shown(std::string_view s) {
  std::size_t cut = std::min<std::size_t>(s.size(), 40);
  // Never split a UTF-8 character: back up over continuation bytes.
  while (cut < s.size() && cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) {
    --cut;
  }
  std::string out;
  for (char c : s.substr(0, cut)) {
    out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
  }
  if (cut < s.size()) out += "...";
  return out;
}

Status ParseName(std::string_view word, std::string* out) {
  if (!IsName(word)) {
    return Status::Error(Code::kInvalidBranchName, Shown(word));
  }
  *out = std::string(word);
  return Status::Ok();
}

Status WrongArity(std::string_view command, std::string_view usage) {
  return Status::Error(Code::kWrongArity, command, usage);
}

// What ParseNetwork has read of the line so far: the command, the options
// already given (each may be given once), and what app=locks decides on,
// which is known only at the line's end since app= may come last.
struct NetworkLine {
  NetworkCmd cmd;
  bool capacity_seen = false, snapshots_seen = false, fifo_seen = false,
       algorithm_seen = false, app_seen = false;
  // A branch named alone (app=locks), and the first one written with a
  // state that is not 0, which app=locks refuses.
  std::optional<std::string_view> bare;
  std::optional<std::string> busy;
};

// links=FROM>TO,...: a list of its own inside one word.
Status ParseLinks(std::string_view value, NetworkCmd& cmd) {
  cmd.links.emplace();
  std::size_t start = 0;
  while (true) {
    auto comma = value.find(',', start);
    std::string_view link = value.substr(
        start, comma == std::string_view::npos ? value.npos : comma - start);
    auto gt = link.find('>');
    if (gt == std::string_view::npos) {
      return Status::Error(Code::kBadLink, Shown(link));
    }
    std::string from, to;
    if (Status s = ParseName(link.substr(0, gt), &from); !s.ok()) return s;
    if (Status s = ParseName(link.substr(gt + 1), &to); !s.ok()) return s;
    cmd.links->emplace_back(from, to);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return Status::Ok();
}

// capacity=N: a number with a range of its own.
Status ParseCapacity(std::string_view value, NetworkCmd& cmd) {
  std::int64_t n;
  if (Status s = ParseAmount(value, "capacity", &n); !s.ok()) return s;
  constexpr std::int64_t kMax = std::numeric_limits<std::uint32_t>::max() - 1;
  if (n < 1 || n > kMax) {
    return Status::Error(Code::kCapacityOutOfRange, kMax);
  }
  cmd.capacity_transfers = static_cast<std::uint32_t>(n);
  return Status::Ok();
}

// NAME=BALANCE, once the key is no option: a branch, or why it is not one.
Status ParseBranchBalance(std::string_view key, std::string_view value, NetworkLine& net) {
  if (!IsName(key)) {
    return Status::Error(Code::kNotBranchOrOption, Shown(key));
  }
  if (!value.empty() && std::isalpha(static_cast<unsigned char>(value[0]))) {
    // NAME=word: a balance cannot start with a letter, so this is most
    // likely a misspelt option.
    return Status::Error(Code::kUnknownNetworkOption, Shown(key));
  }
  engine::BranchSpec branch;
  branch.name = std::string(key);
  if (Status s = ParseAmount(value, "balance", &branch.balance); !s.ok()) return s;
  if (branch.balance != 0 && !net.busy) net.busy = branch.name;
  net.cmd.branches.push_back(std::move(branch));
  return Status::Ok();
}

// One KEY=VALUE word of the network line: an option, else a branch and its
// balance. Options come first, since their names are valid branch names.
Status ParseNetworkSetting(std::string_view word, std::size_t eq, NetworkLine& net) {
  NetworkCmd& cmd = net.cmd;
  std::string_view key = word.substr(0, eq);
  std::string_view value = word.substr(eq + 1);
  if (key == "links") {
    if (cmd.links) return Status::Error(Code::kOptionTwice, "links");
    return ParseLinks(value, cmd);
  }
  if (key == "capacity") {
    if (net.capacity_seen) return Status::Error(Code::kOptionTwice, "capacity");
    net.capacity_seen = true;
    return ParseCapacity(value, cmd);
  }
  if (key == "snapshots") {
    if (net.snapshots_seen) return Status::Error(Code::kOptionTwice, "snapshots");
    net.snapshots_seen = true;
    if (value == "one") {
      cmd.one_snapshot_at_a_time = true;
    } else if (value != "many") {
      return Status::Error(Code::kBadSnapshotsMode, Shown(value));
    }
    return Status::Ok();
  }
  if (key == "fifo") {
    if (net.fifo_seen) return Status::Error(Code::kOptionTwice, "fifo");
    net.fifo_seen = true;
    if (value != "yes" && value != "no") {
      return Status::Error(Code::kUnknownOption, Shown(word));
    }
    cmd.fifo = value == "yes";
    return Status::Ok();
  }
  if (key == "algorithm") {
    if (net.algorithm_seen) return Status::Error(Code::kOptionTwice, "algorithm");
    net.algorithm_seen = true;
    // Any algorithm of the registry that the bank's branches can run.
    std::optional<algorithms::Algorithm> a = algorithms::Algorithm::Find(value);
    if (!a || !a->hosts().scenario) {
      return Status::Error(Code::kUnknownOption, Shown(word));
    }
    cmd.algorithm = *a;
    return Status::Ok();
  }
  if (key == "app") {
    if (net.app_seen) return Status::Error(Code::kOptionTwice, "app");
    net.app_seen = true;
    std::optional<apps::App> a = apps::App::Find(value);
    // A dataflow's ranks are vertices, which no network line describes.
    if (!a || !a->in_scenarios()) return Status::Error(Code::kUnknownOption, Shown(word));
    cmd.app = *a;
    return Status::Ok();
  }
  return ParseBranchBalance(key, value, net);
}

// What only the whole line decides: app=locks against the branches' states,
// the number of branches, and the algorithm against snapshots= and fifo=.
Status CheckNetwork(NetworkLine& net) {
  NetworkCmd& cmd = net.cmd;
  if (!cmd.app.definition().initial_state_settable) {
    if (net.busy) return Status::Error(Code::kLocksStartActive, *net.busy);
  } else if (net.bare) {
    return Status::Error(Code::kExpectedBranchOrOption, Shown(*net.bare));
  }
  if (cmd.branches.size() < 2) {
    return Status::Error(Code::kNetworkTooSmall);
  }
  const algorithms::Traits& traits = cmd.algorithm.traits();
  if (!traits.concurrent_snapshots) {
    // The variants run one snapshot at a time.
    if (net.snapshots_seen && !cmd.one_snapshot_at_a_time) {
      return Status::Error(Code::kManySnapshotsNeedCl,
                           std::string(cmd.algorithm.name()));
    }
    cmd.one_snapshot_at_a_time = true;
  }
  if (!cmd.fifo && traits.needs_fifo) {
    return Status::Error(Code::kBarriersNeedFifo, std::string(cmd.algorithm.name()));
  }
  return Status::Ok();
}

// The network line: each word, then what only the whole line decides.
Status ParseNetwork(const std::vector<std::string_view>& w,
                    std::optional<Command>* out) {
  NetworkLine net;
  for (std::size_t i = 1; i < w.size(); ++i) {
    std::string_view word = w[i];
    auto eq = word.find('=');
    if (eq == std::string_view::npos) {
      if (!IsName(word)) {
        return Status::Error(Code::kExpectedBranchOrOption, Shown(word));
      }
      if (!net.bare) net.bare = word;
      net.cmd.branches.push_back(engine::BranchSpec{std::string(word), 0});
      continue;
    }
    if (Status s = ParseNetworkSetting(word, eq, net); !s.ok()) return s;
  }
  if (Status s = CheckNetwork(net); !s.ok()) return s;
  *out = std::move(net.cmd);
  return Status::Ok();
}

}  // namespace

Status ParseAmount(std::string_view text, std::string_view what,
                   std::int64_t* out) {
  bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return c >= '0' && c <= '9';
  });
  if (!digits) {
    return Status::Error(Code::kNotAWholeNumber, what, Shown(text));
  }
  std::int64_t value = 0;
  for (char c : text) {
    if (__builtin_mul_overflow(value, 10, &value) ||
        __builtin_add_overflow(value, c - '0', &value)) {
      return Status::Error(Code::kNumberTooLarge, what, Shown(text));
    }
  }
  *out = value;
  return Status::Ok();
}

Status ParseLine(std::string_view line, std::optional<Command>* out) {
  std::vector<std::string_view> w = SplitWords(line);
  if (w.empty()) {
    *out = std::nullopt;
    return Status::Ok();
  }
  std::string_view verb = w[0];
  if (verb == "network") return ParseNetwork(w, out);
  if (verb == "transfer") {
    if (w.size() != 4) return WrongArity(verb, "transfer FROM TO AMOUNT");
    TransferCmd cmd;
    if (Status s = ParseName(w[1], &cmd.from); !s.ok()) return s;
    if (Status s = ParseName(w[2], &cmd.to); !s.ok()) return s;
    if (Status s = ParseAmount(w[3], "amount", &cmd.amount); !s.ok()) return s;
    *out = std::move(cmd);
    return Status::Ok();
  }
  if (verb == "deliver") {
    if (w.size() == 1) {
      *out = DeliverNextCmd{};
      return Status::Ok();
    }
    if (w.size() != 3 && w.size() != 4) {
      return WrongArity(verb, "deliver [FROM TO [at=K]]");
    }
    DeliverCmd cmd;
    if (Status s = ParseName(w[1], &cmd.from); !s.ok()) return s;
    if (Status s = ParseName(w[2], &cmd.to); !s.ok()) return s;
    if (w.size() == 4) {
      std::string_view opt = w[3];
      if (opt.find('=') == std::string_view::npos) {
        return WrongArity(verb, "deliver [FROM TO [at=K]]");
      }
      if (opt.substr(0, 3) != "at=") {
        auto eq = opt.find('=');
        return Status::Error(Code::kUnknownOption, Shown(opt.substr(0, eq)));
      }
      std::int64_t at;
      if (Status s = ParseAmount(opt.substr(3), "at", &at); !s.ok()) return s;
      cmd.at = static_cast<std::uint64_t>(at);
    }
    *out = std::move(cmd);
    return Status::Ok();
  }
  if (verb == "drain" || verb == "show" || verb == "stop-the-world") {
    if (w.size() != 1) {
      return Status::Error(Code::kTakesNoArguments, verb);
    }
    if (verb == "drain") {
      *out = DrainCmd{};
    } else if (verb == "stop-the-world") {
      *out = StopTheWorldCmd{};
    } else {
      *out = ShowCmd{};
    }
    return Status::Ok();
  }
  if (verb == "read") {
    if (w.size() != 2) return WrongArity(verb, "read BRANCH");
    ReadCmd cmd;
    if (Status s = ParseName(w[1], &cmd.branch); !s.ok()) return s;
    *out = std::move(cmd);
    return Status::Ok();
  }
  if (verb == "snapshot") {
    if (w.size() != 2 && w.size() != 3) return WrongArity(verb, "snapshot BRANCH [id=N]");
    SnapshotCmd cmd;
    if (Status s = ParseName(w[1], &cmd.branch); !s.ok()) return s;
    if (w.size() == 3) {
      std::string_view opt = w[2];
      if (opt.substr(0, 3) != "id=") {
        auto eq = opt.find('=');
        return Status::Error(Code::kUnknownOption, Shown(opt.substr(0, eq)));
      }
      std::int64_t id;
      if (Status s = ParseAmount(opt.substr(3), "id", &id); !s.ok()) return s;
      cmd.id = static_cast<SnapshotId>(id);
    }
    *out = std::move(cmd);
    return Status::Ok();
  }
  if (auto found = apps::App::FindCommand(verb)) {
    const apps::AppCommand& c = *found->second;
    if (w.size() != c.names + 1) return WrongArity(verb, c.usage);
    AppCmd cmd;
    cmd.verb = std::string(verb);
    for (std::size_t i = 1; i < w.size(); ++i) {
      if (Status s = ParseName(w[i], &cmd.branches.emplace_back()); !s.ok()) return s;
    }
    *out = std::move(cmd);
    return Status::Ok();
  }
  return Status::Error(Code::kUnknownCommand, Shown(verb));
}

}  // namespace cutline::scenario
