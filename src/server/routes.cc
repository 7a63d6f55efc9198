#include "server/routes.h"

#include <fmt/format.h>

#include <chrono>

#include <nlohmann/json.hpp>

#include "cutline/version.h"

#include "scenario/demos.h"
#include "scenario/json_output.h"
#include "scenario/report.h"
#include "server/static_files.h"
#include "server/store_watch.h"

namespace cutline::server {

namespace {

using json = scenario::Json;
using scenario::Lang;

Response Json(int status, const json& body) {
  return JsonResponse(status, scenario::Dump(body));
}

Response HandleRun(const Request& req, const Site&) {
  json body = json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return ErrorResponse(400, "the body is not valid JSON");
  if (!body.is_object()) return ErrorResponse(400, "the body must be a JSON object");
  auto scenario = body.find("scenario");
  if (scenario == body.end()) {
    return ErrorResponse(400, "missing field \"scenario\"");
  }
  if (!scenario->is_string()) {
    return ErrorResponse(400, "field \"scenario\" must be a string");
  }
  Lang lang = Lang::kEn;
  if (auto l = body.find("lang"); l != body.end()) {
    if (*l == "ja") {
      lang = Lang::kJa;
    } else if (*l != "en") {
      return ErrorResponse(400, "field \"lang\" must be \"en\" or \"ja\"");
    }
  }
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
  const std::string& text = scenario->get_ref<const std::string&>();
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

Response HandleDemos(const Request& req, const Site&) {
  Lang lang = Lang::kEn;
  if (auto l = req.query.find("lang"); l != req.query.end()) {
    if (l->second == "ja") {
      lang = Lang::kJa;
    } else if (l->second != "en") {
      return ErrorResponse(400, "parameter lang must be en or ja");
    }
  }
  json demos = json::array();
  for (const scenario::Demo& d : scenario::Demos()) {
    json steps = json::array();
    for (const scenario::DemoStep& s : d.steps) {
      steps.push_back({{"command", s.command}, {"caption", s.caption.in(lang)}});
    }
    demos.push_back({{"id", d.id},
                     {"title", d.title.in(lang)},
                     {"preset", d.preset},
                     {"network", scenario::PresetScenario(d)},
                     {"steps", steps}});
  }
  json presets = json::object();
  for (const char* name : {"bank", "lab", "dataflow"}) {
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
    {"/api/demos", "GET", HandleDemos},
    {"/api/health", "GET", HandleHealth},
    {"/api/events", "GET", HandleEvents},
    {"/api/store", "GET", HandleStore},
    {"/api/store/snapshot", "GET", HandleStoreSnapshot},
};

bool IsGet(const std::string& method) { return method == "GET" || method == "HEAD"; }

}  // namespace

Response Route(const Request& req, const Site& site) {
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
