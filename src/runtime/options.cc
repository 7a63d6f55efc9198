#include "runtime/options.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

namespace cutline::runtime {

namespace {

std::optional<double> ParseNumber(const std::string& text) {
  if (text.empty() || !(std::isdigit(static_cast<unsigned char>(text[0])))) return std::nullopt;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<std::uint64_t> ParseCount(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return std::stoull(text);
}

}  // namespace

std::optional<Micros> ParseDuration(const std::string& text) {
  static const std::pair<const char*, double> kUnits[] = {
      {"us", 1}, {"ms", 1e3}, {"s", 1e6}, {"m", 60e6}};
  for (const auto& [unit, micros] : kUnits) {
    std::string u = unit;
    if (text.size() <= u.size() || text.compare(text.size() - u.size(), u.size(), u) != 0) {
      continue;
    }
    std::string number = text.substr(0, text.size() - u.size());
    // "5ms" also ends in "s": the number part must be a number.
    auto value = ParseNumber(number);
    if (!value) continue;
    double total = *value * micros;
    if (total > 1e13) return std::nullopt;  // over 100 days: a typo
    return Micros(static_cast<std::int64_t>(std::llround(total)));
  }
  return std::nullopt;
}

std::string FormatDuration(Micros d) {
  auto us = d.count();
  if (us % 1000000 == 0) return fmt::format("{}s", us / 1000000);
  if (us % 1000 == 0) return fmt::format("{}ms", us / 1000);
  return fmt::format("{}us", us);
}

std::optional<double> ParseRate(const std::string& text) {
  if (text == "max") return 0.0;
  auto value = ParseNumber(text);
  if (!value || *value <= 0 || *value > 1e9) return std::nullopt;
  return value;
}

std::optional<SlowSpec> ParseSlow(const std::string& text) {
  const auto colon = text.find(':');
  if (colon == std::string::npos) return std::nullopt;
  const auto rank = ParseCount(text.substr(0, colon));
  const auto factor = ParseNumber(text.substr(colon + 1));
  // Past a million times slower, a record a second at most: a typo.
  if (!rank || *rank > 1u << 20 || !factor || *factor <= 1 || *factor > 1e6) return std::nullopt;
  return SlowSpec{static_cast<std::uint32_t>(*rank), *factor};
}

std::optional<KillSpec> ParseKill(const std::string& text) {
  auto at = text.find('@');
  if (at == std::string::npos) return std::nullopt;
  auto rank = ParseCount(text.substr(0, at));
  if (!rank || *rank > 1u << 20) return std::nullopt;
  KillSpec kill;
  kill.rank = static_cast<std::uint32_t>(*rank);
  std::string when = text.substr(at + 1);
  const std::string prefix = "snapshot:";
  if (when.rfind(prefix, 0) == 0) {
    auto id = ParseCount(when.substr(prefix.size()));
    if (!id || *id == 0) return std::nullopt;
    kill.snapshot = *id;
  } else {
    kill.at = ParseDuration(when);
    if (!kill.at) return std::nullopt;
  }
  return kill;
}

std::string AlgorithmsRunBy(bool dataflow) {
  std::string names;
  for (Algorithm a : Algorithm::All()) {
    if (dataflow ? a.runs_on_dataflow() : a.runs_on_ranks()) {
      names += (names.empty() ? "" : " or ") + std::string(a.name());
    }
  }
  return names;
}

std::string AlgorithmRefusal(std::string_view name) {
  const std::optional<Algorithm> a = Algorithm::Find(name);
  if (a && (a->runs_on_ranks() || a->runs_on_dataflow())) return "";
  const std::string ranks_run = fmt::format("the ranks run {} ({} with --app dataflow)",
                                            AlgorithmsRunBy(false), AlgorithmsRunBy(true));
  if (!a) return fmt::format("no algorithm is called {}: {}", name, ranks_run);
  if (a->traits().broken_on_purpose) {
    return fmt::format("{} is broken on purpose, for teaching, and runs in scenarios only "
                       "(algorithm={}): {}",
                       name, name, ranks_run);
  }
  return fmt::format("{} runs in scenarios only (algorithm={} in cutline run): {}", name, name,
                     ranks_run);
}

Status ReorderRefusal(const NodeOptions& o) {
  if (o.reorder && o.algorithm.traits().needs_fifo) {
    return Status::Error(Code::kReorderNeedsFifo, o.algorithm.name());
  }
  return Status::Ok();
}

std::optional<Status> ReorderWarning(const NodeOptions& o) {
  if (!o.reorder || o.algorithm.traits().correct_without_fifo) return std::nullopt;
  return Status::Error(Code::kReorderMayBeWrong, o.algorithm.name());
}

Status LogsRefusal(const NodeOptions& o) {
  if (o.log_dir.empty()) return Status::Ok();
  if (o.reorder) return Status::Error(Code::kLogsNotWith, "--reorder");
  if (o.algorithm.traits().tags_messages) {
    return Status::Error(Code::kLogsNotWith, "--algorithm " + std::string(o.algorithm.name()));
  }
  return Status::Ok();
}

std::span<const std::string_view> ClusterFlags(const NodeOptions& o) {
  return o.app.definition().cluster_flags;
}

std::optional<std::string> FlagValue(const NodeOptions& o, std::string_view flag) {
  if (flag == "--balance") return std::to_string(o.balance);
  if (flag == "--rate") return o.rate == 0 ? "max" : fmt::format("{}", o.rate);
  if (flag == "--jobs") return std::to_string(o.jobs);
  if (!o.dataflow) return std::nullopt;
  const DataflowOptions& d = *o.dataflow;
  if (flag == "--topology") return d.topology.spec();
  if (flag == "--buffers") return std::to_string(d.buffers);
  if (flag == "--slow" && d.slow) return fmt::format("{}:{}", d.slow->rank, d.slow->factor);
  if (flag == "--alignment-timeout" && d.alignment_timeout) {
    return FormatDuration(*d.alignment_timeout);
  }
  return std::nullopt;
}

Amount OpeningState(const NodeOptions& o) {
  const std::string_view flag = o.app.definition().opening_flag;
  if (flag == "--balance") return o.balance;
  if (flag == "--jobs") return Amount{o.jobs};
  return 0;
}

std::vector<std::string> NodeArguments(const NodeOptions& o) {
  std::vector<std::string> args = {
      "--app",      std::string(o.app.name()),
      "--lang",     std::string(LangCode(o.lang)),
      "--duration", FormatDuration(o.duration),
      "--link-delay", FormatDuration(o.link_delay),
      "--seed",     std::to_string(o.seed),
      "--algorithm", std::string(o.algorithm.name()),
      "--snapshot-timeout", FormatDuration(o.snapshot_timeout),
      "--tolerable-failures", std::to_string(o.tolerable_failures),
  };
  // Each application's own flags only (the others refuse them); --restore
  // has no value and goes below.
  for (std::string_view flag : ClusterFlags(o)) {
    if (std::optional<std::string> value = FlagValue(o, flag)) {
      args.insert(args.end(), {std::string(flag), *value});
    }
  }
  if (o.snapshot_every) {
    args.insert(args.end(), {"--snapshot-every", FormatDuration(*o.snapshot_every)});
  }
  if (!o.store.empty()) args.insert(args.end(), {"--store", o.store});
  if (o.restore) {
    args.push_back("--restore");
    if (o.restore_id) args.push_back(std::to_string(*o.restore_id));
  }
  if (!o.log_dir.empty()) args.insert(args.end(), {"--log-dir", o.log_dir});
  if (o.reorder) args.push_back("--reorder");
  if (o.store_max_pages > 0) {
    args.insert(args.end(), {"--store-max-pages", std::to_string(o.store_max_pages)});
  }
  if (o.kill) {
    args.push_back("--kill");
    args.push_back(std::to_string(o.kill->rank) + "@" +
                   (o.kill->snapshot ? "snapshot:" + std::to_string(*o.kill->snapshot)
                                     : FormatDuration(*o.kill->at)));
  }
  return args;
}

}  // namespace cutline::runtime
