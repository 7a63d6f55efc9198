// `cutline store list FILE` and `cutline store show FILE ID`: a runtime
// store read (never written), as a table or as JSON; `cutline store verify
// FILE [ID]` re-checks it (read only too); `cutline store prune FILE --keep
// N` deletes old snapshots, the one command here that writes (docs/store.md).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cutline::cli {

// Adds `store` and its subcommands to `app`; after parsing, Run() does
// whichever was chosen. Holds the parsed values, so it must outlive parsing.
class StoreCommand {
 public:
  explicit StoreCommand(CLI::App& app);
  StoreCommand(const StoreCommand&) = delete;
  StoreCommand& operator=(const StoreCommand&) = delete;

  bool chosen() const { return store_->parsed(); }
  // Exit status: 0; 1 when verify found damage; or 2 after one line on
  // standard error.
  int Run() const;

 private:
  CLI::App* store_;
  CLI::App* list_;
  CLI::App* show_;
  CLI::App* verify_;
  CLI::App* prune_;
  std::string keep_;
  std::string path_;
  std::string id_;
  std::string lang_ = "en";  // of refusals
  bool json_ = false;
};

}  // namespace cutline::cli
