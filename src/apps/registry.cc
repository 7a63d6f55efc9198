// The applications the language, the JSON and the checker know by name.
#include <array>

#include "apps/app.h"

namespace cutline::apps {

const App App::kBank{&kBankDefinition};
const App App::kJobs{&kJobsDefinition};
const App App::kLocks{&kLocksDefinition};
const App App::kDataflow{&kDataflowDefinition};

namespace {
const std::array<App, 4> kAll{App::kBank, App::kJobs, App::kLocks, App::kDataflow};
}  // namespace

Verdict NoProperty(const GlobalState&) { return {}; }
Verdict NoNaive(std::span<const std::optional<Amount>>) { return {}; }
std::string NoVerdictWords(bool, std::span<const std::string>, std::span<const std::string>) {
  return {};
}

const AppDefinition& App::definition() const { return *def_; }

std::span<const App> App::All() { return kAll; }

std::optional<std::pair<App, const AppCommand*>> App::FindCommand(std::string_view verb) {
  for (const App& a : kAll) {
    for (const AppCommand& c : a.definition().commands) {
      if (c.verb == verb) return std::make_pair(a, &c);
    }
  }
  return std::nullopt;
}

std::optional<App> App::Find(std::string_view name) {
  for (const App& a : kAll) {
    if (a.name() == name) return a;
  }
  return std::nullopt;
}

}  // namespace cutline::apps
