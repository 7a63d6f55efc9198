#include "server/routes.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/cut.h"
#include "cutline/version.h"
#include "explore/explore.h"
#include "explore/explore_json.h"
#include "scenario/compare.h"
#include "scenario/demos.h"
#include "scenario/json_output.h"
#include "scenario/report.h"
#include "scenario/run_record.h"
#include "scenario/runner.h"
#include "server/lecture_routes.h"
#include "server/run_cache.h"
#include "server/static_files.h"
#include "server/store_watch.h"
#include "server/trace_route.h"

namespace cutline::server {

namespace {

using json = scenario::Json;
using cutline::Lang;

Response Json(int status, const json& body) {
  return JsonResponse(status, scenario::Dump(body));
}

// What /api/run, /api/cut and /api/compare bodies share: a JSON object with
// a string "scenario" and an optional "lang" ("en" or "ja"). A body that is
// not one is answered with the 400 this returns.
struct ScenarioBody {
  json body;
  std::string scenario;
  Lang lang = Lang::kEn;
};

std::optional<Response> ReadScenarioBody(const Request& req, ScenarioBody* out) {
  out->body = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  const json& body = out->body;
  if (body.is_discarded()) return ErrorResponse(400, "the body is not valid JSON");
  if (!body.is_object()) return ErrorResponse(400, "the body must be a JSON object");
  auto scenario = body.find("scenario");
  if (scenario == body.end()) return ErrorResponse(400, "missing field \"scenario\"");
  if (!scenario->is_string()) return ErrorResponse(400, "field \"scenario\" must be a string");
  out->scenario = scenario->get<std::string>();
  if (auto l = body.find("lang"); l != body.end()) {
    if (*l == "ja") {
      out->lang = Lang::kJa;
    } else if (*l != "en") {
      return ErrorResponse(400, "field \"lang\" must be \"en\" or \"ja\"");
    }
  }
  return std::nullopt;
}

Response RunAnswer(const Request& req) {
  ScenarioBody in;
  if (auto bad = ReadScenarioBody(req, &in)) return *bad;
  const json& body = in.body;
  const Lang lang = in.lang;
  // A scenario error is answered with 422, or with the status the caller asks for
  // ("error_status": 200 or 422): the page takes a refusal as an ordinary answer.
  int error_status = 422;
  if (auto e = body.find("error_status"); e != body.end()) {
    if (*e == 200) {
      error_status = 200;
    } else if (*e != 422) {
      return ErrorResponse(400, "field \"error_status\" must be 200 or 422");
    }
  }
  // "format": "shiviz" asks for the run's history as a ShiViz log instead.
  bool shiviz = false;
  if (auto f = body.find("format"); f != body.end()) {
    if (*f == "shiviz") {
      shiviz = true;
    } else if (*f != "report") {
      return ErrorResponse(400, "field \"format\" must be \"report\" or \"shiviz\"");
    }
  }
  const std::string& text = in.scenario;
  if (shiviz) {
    std::string log;
    Status s = scenario::RunShiViz(text, kLimits, &log);
    if (!s.ok()) return Json(error_status, scenario::ErrorJson(s, lang));
    return Json(200, json{{"shiviz", std::move(log)}});
  }
  json report;
  Status s = scenario::RunReport(text, lang, kLimits, &report);
  if (!s.ok()) return Json(error_status, scenario::ErrorJson(s, lang));
  return Json(200, report);
}

// A run is a function of its request: the same body always gets the same
// answer, so a lecture's thousand identical requests after a step cost one run.
Response HandleRun(const Request& req, const Site& site) {
  if (!site.runs) return RunAnswer(req);
  return site.runs->Answer(req.body, [&req] { return RunAnswer(req); });
}

// POST /api/cut: a cut drawn on the space-time diagram, judged by the
// checker (check/cut.h) on the scenario's run. Words stay on the page; the
// answer is names, amounts and positions.
json CrossingsJson(const std::vector<check::CutCrossing>& list, const engine::Engine& bank) {
  json out = json::array();
  for (const check::CutCrossing& m : list) {
    json item{{"seq", m.seq},
              {"kind", m.transfer ? "transfer" : "marker"},
              {"amount", m.amount},
              {"from", bank.name(m.from)},
              {"to", bank.name(m.to)},
              {"send", m.send},
              {"deliver", m.deliver == 0 ? json(nullptr) : json(m.deliver)}};
    // Jobs and locks: a message is its kind ("job", "request", "grant"), as in /api/run.
    if (m.transfer && !bank.app().conserved()) {
      item["kind"] = bank.app().MessageKind(m.amount);
      item.erase("amount");
    }
    out.push_back(std::move(item));
  }
  return out;
}

Response HandleCut(const Request& req, const Site&) {
  ScenarioBody in;
  if (auto bad = ReadScenarioBody(req, &in)) return *bad;
  const Lang lang = in.lang;
  auto points = in.body.find("cut");
  if (points == in.body.end()) return ErrorResponse(400, "missing field \"cut\"");
  if (!points->is_array()) return ErrorResponse(400, "field \"cut\" must be an array");
  auto refuse = [&](const Status& s) { return Json(422, scenario::ErrorJson(s, lang)); };
  scenario::Runner runner;
  runner.set_limits(kLimits);
  if (Status s = runner.RunText(in.scenario); !s.ok()) return refuse(s);
  if (runner.bank() == nullptr) return refuse(Status::Error(Code::kNoNetwork));
  const engine::Engine& bank = *runner.bank();
  const check::RunRecord run = scenario::RunOf(bank);
  if (points->size() != bank.branch_count()) {
    return refuse(Status::Error(Code::kCutWrongSize, static_cast<std::int64_t>(points->size()),
                                static_cast<std::int64_t>(bank.branch_count())));
  }
  std::vector<std::int64_t> cut;
  for (std::size_t n = 0; n < points->size(); ++n) {
    const json& p = (*points)[n];
    if (p.is_number_unsigned()) {
      // Beyond any branch's events, whatever its size: refused as past the end.
      cut.push_back(static_cast<std::int64_t>(
          std::min<std::uint64_t>(p.get<std::uint64_t>(), INT64_MAX)));
    } else if (p.is_number_integer()) {
      cut.push_back(p.get<std::int64_t>());
    } else {
      // Echoed in ASCII and cut short: the point may be any JSON, of any size.
      std::string shown = p.dump(-1, ' ', /*ensure_ascii=*/true);
      if (shown.size() > 40) shown = shown.substr(0, 37) + "...";
      return refuse(Status::Error(Code::kCutBadPoint, bank.name(static_cast<sim::NodeId>(n)),
                                  std::move(shown)));
    }
  }
  check::CutJudgement j;
  if (Status s = check::JudgeCut(run, cut, &j); !s.ok()) return refuse(s);
  const std::vector<std::uint32_t> events = check::MessageEventCounts(run);
  json branches = json::array();
  for (std::size_t n = 0; n < cut.size(); ++n) {
    json b{{"name", bank.name(static_cast<sim::NodeId>(n))}, {"point", cut[n]}, {"events", events[n]}};
    // "balance", "jobs" or "waiting_for", as /api/run names a branch's state.
    b[std::string(bank.app().definition().state_key)] = scenario::StateValue(bank, j.balances[n]);
    branches.push_back(std::move(b));
  }
  json out{{"consistent", j.consistent},
           {"branches", std::move(branches)},
           {"backward", CrossingsJson(j.backward, bank)},
           {"forward", CrossingsJson(j.forward, bank)}};
  if (bank.app().conserved()) {
    out["in_channels"] = j.in_channels;
    out["total"] = j.total;
    out["bank_total"] = j.bank_total;
  }
  // Jobs and locks: what a snapshot recording at this cut would declare.
  if (j.property) out["property"] = scenario::PropertyJson(bank, *j.property);
  return Json(200, out);
}

// POST /api/compare: the scenario under each algorithm (scenario/compare.h).
// The body is /api/run's ("scenario", "lang"); a refused scenario is a 422.
Response HandleCompare(const Request& req, const Site&) {
  ScenarioBody in;
  if (auto bad = ReadScenarioBody(req, &in)) return *bad;
  json out;
  Status s = scenario::CompareAlgorithms(in.scenario, in.lang, kCompareLimits, &out);
  if (!s.ok()) return Json(422, scenario::ErrorJson(s, in.lang));
  return Json(200, out);
}

// POST /api/explore: every schedule of the scenario, judged (explore/explore.h),
// within the server's bounds (kExploreBounds): past them the answer is
// "bounded", saying how far it got. Body: /api/run's, and "starts"
// ("as-written" or "anywhere"). A counterexample comes with "demo", the
// schedule as the page's demos are given. One search at a time runs on the
// whole server (it holds a worker for up to its seconds); another asked
// meanwhile is refused with 503, and the same one asked again waits for the
// first's answer (RunCache), so a lecture hall's pages cost one search.
Response ExploreAnswer(const ScenarioBody& in) {
  explore::Options options;
  options.max_states = kExploreBounds.max_states;
  options.max_seconds = kExploreBounds.max_seconds;
  options.limits = kLimits;
  options.lang = in.lang;
  if (auto st = in.body.find("starts"); st != in.body.end()) {
    if (*st == "anywhere") {
      options.starts_anywhere = true;
    } else if (*st != "as-written") {
      return ErrorResponse(400, "field \"starts\" must be \"as-written\" or \"anywhere\"");
    }
  }
  static std::atomic<bool> exploring{false};
  if (exploring.exchange(true)) {
    return ErrorResponse(503, "the server is exploring another scenario's schedules: try again in a few seconds");
  }
  struct Done {
    ~Done() { exploring = false; }
  } done;
  StatusOr<explore::Result> found = explore::Explore(in.scenario, options);
  if (!found.ok()) return Json(422, scenario::ErrorJson(found.status(), in.lang));
  json out = explore::ResultJson(*found, options);
  out["bounds"] = {{"max_states", options.max_states}, {"max_seconds", options.max_seconds}};
  if (found->outcome == explore::Outcome::kBroken) out["demo"] = explore::CounterexampleDemo(*found, in.lang);
  return Json(200, out);
}

Response HandleExplore(const Request& req, const Site& site) {
  ScenarioBody in;
  if (auto bad = ReadScenarioBody(req, &in)) return *bad;
  auto answer = [&in] { return ExploreAnswer(in); };
  // Kept apart from /api/run's answers by the key's first line.
  return site.runs ? site.runs->Answer("explore\n" + req.body, answer) : answer();
}

Response HandleDemos(const Request& req, const Site&) {
  Lang lang = Lang::kEn;
  if (std::optional<Response> bad = QueryLang(req, &lang)) return *bad;
  json demos = json::array();
  for (const scenario::Demo& d : scenario::Demos()) {
    json steps = json::array();
    for (const scenario::DemoStep& s : d.steps) {
      steps.push_back({{"command", s.command}, {"caption", s.caption.in(lang)}});
    }
    demos.push_back({{"id", d.id},
                     {"title", d.title.in(lang)},
                     {"preset", d.preset},
                     {"group", scenario::DemoGroup(d)},
                     {"network", scenario::PresetScenario(d)},
                     {"steps", steps}});
  }
  json presets = json::object();
  for (const char* name : {"bank", "lab", "dataflow", "jobs", "locks"}) {
    presets[name] = scenario::PresetNetwork(name);
  }
  return Json(200, json{{"presets", presets}, {"demos", demos}});
}

// `store`: whether this server shows a runtime's store (the page links to
// its view only then).
Response HandleHealth(const Request&, const Site& site) {
  return Json(200, json{{"ok", true}, {"version", CUTLINE_VERSION_STRING}, {"store", site.store != nullptr}});
}

// GET /api/store: the runs and snapshots of `serve --store FILE`.
Response HandleStore(const Request&, const Site& site) {
  if (!site.store) return ErrorResponse(404, "no store: start the server with --store FILE");
  auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count();
  return Json(200, site.store->List(now));
}

// GET /api/store/snapshot?id=N: one snapshot, as `cutline store show --json`.
Response HandleStoreSnapshot(const Request& req, const Site& site) {
  if (!site.store) return ErrorResponse(404, "no store: start the server with --store FILE");
  auto id = req.query.find("id");
  if (id == req.query.end()) return ErrorResponse(400, "parameter id is missing");
  const std::string& text = id->second;
  if (text.empty() || text.size() > 19 ||
      text.find_first_not_of("0123456789") != std::string::npos) {
    return ErrorResponse(400, "parameter id must be a snapshot number");
  }
  auto snapshot = site.store->Snapshot(std::stoull(text));
  if (!snapshot) return ErrorResponse(404, fmt::format("no snapshot {} in the store", text));
  return Json(200, *snapshot);
}

// POST /api/trace: a schedule file's trace as the page's player draws it
// (trace_route.h); nothing is run.
Response HandleTrace(const Request& req, const Site&) { return HandleTraceRequest(req); }

Response HandleEvents(const Request&, const Site&) {
  Response stream;
  stream.event_stream = true;
  return stream;
}

struct ApiRoute {
  const char* path;
  const char* method;  // the one method it answers (GET also answers HEAD)
  Response (*handle)(const Request&, const Site&);  // every handler gets the site
};

constexpr ApiRoute kApi[] = {
    {"/api/run", "POST", HandleRun},
    {"/api/cut", "POST", HandleCut},
    {"/api/compare", "POST", HandleCompare},
    {"/api/explore", "POST", HandleExplore},
    {"/api/trace", "POST", HandleTrace},
    {"/api/demos", "GET", HandleDemos},
    {"/api/health", "GET", HandleHealth},
    {"/api/events", "GET", HandleEvents},
    {"/api/store", "GET", HandleStore},
    {"/api/store/snapshot", "GET", HandleStoreSnapshot},
};

bool IsGet(const std::string& method) { return method == "GET" || method == "HEAD"; }

}  // namespace

Response Route(const Request& req, const Site& site) {
  if (req.path == "/api/rooms" || req.path.rfind("/api/rooms/", 0) == 0) return LectureRoute(req, site);
  for (const ApiRoute& route : kApi) {
    if (req.path != route.path) continue;
    bool allowed = std::string_view(route.method) == "GET" ? IsGet(req.method)
                                                           : req.method == route.method;
    if (!allowed) {
      return ErrorResponse(405, fmt::format("{} is not allowed on {}", req.method, req.path));
    }
    return route.handle(req, site);
  }
  // Everything else is one of the page's files, or nothing.
  if (!IsGet(req.method) || req.path.rfind("/api/", 0) == 0) {
    return ErrorResponse(404, "not found");
  }
  std::optional<Response> file = site.files ? site.files->Answer(req) : std::nullopt;
  if (!file) return ErrorResponse(404, "not found");
  return std::move(*file);
}

}  // namespace cutline::server
