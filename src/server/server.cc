// The HTTP server: routes, bad-input handling, static files, clean shutdown.
#include "server/server.h"

#include <httplib.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "scenario/demos.h"
#include "scenario/report.h"
#include "web_assets.h"

namespace cutline::server {

namespace {

using json = scenario::Json;
using scenario::Lang;

void SendJson(httplib::Response& res, int status, const json& body) {
  res.status = status;
  res.set_content(scenario::Dump(body), "application/json; charset=utf-8");
}

void SendError(httplib::Response& res, int status, const std::string& message) {
  SendJson(res, status, json{{"error", message}});
}

std::string ContentType(const std::string& path) {
  auto dot = path.rfind('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  if (ext == "html") return "text/html; charset=utf-8";
  if (ext == "js" || ext == "mjs") return "text/javascript; charset=utf-8";
  if (ext == "css") return "text/css; charset=utf-8";
  if (ext == "svg") return "image/svg+xml";
  if (ext == "png") return "image/png";
  if (ext == "json") return "application/json; charset=utf-8";
  if (ext == "txt") return "text/plain; charset=utf-8";
  if (ext == "ico") return "image/x-icon";
  return "application/octet-stream";
}

// A request path is served only if it names a file under the page's folder:
// no "..", no backslash, no NUL, nothing hidden. httplib has already decoded
// %2e%2e and friends, so they are caught here too.
bool SafePath(const std::string& path) {
  if (path.empty() || path[0] != '/') return false;
  if (path.find('\\') != std::string::npos || path.find('\0') != std::string::npos) {
    return false;
  }
  std::stringstream ss(path.substr(1));
  std::string segment;
  while (std::getline(ss, segment, '/')) {
    if (segment.empty() || segment[0] == '.') return false;
  }
  return path.back() != '/';
}

bool LoadFile(const Options& options, const std::string& path,
              std::string* body) {
  if (!SafePath(path)) return false;
  if (options.web_dir.empty()) {
    for (const WebAsset& asset : WebAssets()) {
      if (path == asset.path) {
        *body = std::string(asset.bytes());
        return true;
      }
    }
    return false;
  }
  const std::string file = options.web_dir + path;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return false;  // a folder
  std::ifstream in(file, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *body = ss.str();
  return !in.bad();
}

std::string BodyTooLarge() {
  return fmt::format("the body is over {} bytes", kMaxBodyBytes);
}

// Reads the body of /api/run here, not in httplib: its limit must hold
// whatever the Content-Type (httplib refuses form-encoded bodies over 8 KiB),
// for chunked bodies and after decompression (httplib checks only
// Content-Length). Past the limit the rest is read and dropped, as httplib
// does, so that the client gets the answer rather than a reset connection.
// Returns 0, or the error status to answer with.
int ReadBody(const httplib::Request& req, httplib::Response& res,
             const httplib::ContentReader& reader, std::string* out) {
  bool too_large = false;
  auto receive = [&](const char* data, std::size_t n) {
    if (too_large || out->size() + n > kMaxBodyBytes) {
      too_large = true;
    } else {
      out->append(data, n);
    }
    return true;
  };
  bool ok = req.is_multipart_form_data()
                ? reader([](const httplib::MultipartFormData&) { return true; },
                         receive)
                : reader(receive);
  if (too_large || res.status == 413) return 413;
  if (!ok) return res.status >= 400 && res.status < 500 ? res.status : 400;
  if (req.is_multipart_form_data()) out->clear();  // form data: not JSON
  return 0;
}

void HandleRun(const httplib::Request& req, httplib::Response& res,
               const httplib::ContentReader& reader) {
  std::string raw;
  if (int status = ReadBody(req, res, reader, &raw); status != 0) {
    return SendError(res, status,
                     status == 413 ? BodyTooLarge() : "the body could not be read");
  }
  json body = json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) return SendError(res, 400, "the body is not valid JSON");
  if (!body.is_object()) return SendError(res, 400, "the body must be a JSON object");
  auto scenario = body.find("scenario");
  if (scenario == body.end()) {
    return SendError(res, 400, "missing field \"scenario\"");
  }
  if (!scenario->is_string()) {
    return SendError(res, 400, "field \"scenario\" must be a string");
  }
  Lang lang = Lang::kEn;
  if (auto l = body.find("lang"); l != body.end()) {
    if (*l == "ja") {
      lang = Lang::kJa;
    } else if (*l != "en") {
      return SendError(res, 400, "field \"lang\" must be \"en\" or \"ja\"");
    }
  }
  // A scenario error is answered with 422, or with the status the caller asks for
  // ("error_status": 200 or 422): the page takes a refusal as an ordinary answer.
  int error_status = 422;
  if (auto e = body.find("error_status"); e != body.end()) {
    if (*e == 200) {
      error_status = 200;
    } else if (*e != 422) {
      return SendError(res, 400, "field \"error_status\" must be 200 or 422");
    }
  }
  const std::string& text = scenario->get_ref<const std::string&>();
  json report;
  Status s = scenario::RunReport(text, lang, kLimits, &report);
  if (!s.ok()) return SendJson(res, error_status, scenario::ErrorJson(s, lang));
  SendJson(res, 200, report);
}

void HandleDemos(const httplib::Request& req, httplib::Response& res) {
  Lang lang = Lang::kEn;
  if (req.has_param("lang")) {
    std::string l = req.get_param_value("lang");
    if (l == "ja") {
      lang = Lang::kJa;
    } else if (l != "en") {
      return SendError(res, 400, "parameter lang must be en or ja");
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
                     {"steps", steps}});
  }
  SendJson(res, 200,
           json{{"presets",
                 {{"bank", scenario::kBankPreset}, {"lab", scenario::kLabPreset}}},
                {"demos", demos}});
}

}  // namespace

void Install(httplib::Server& server, const Options& options) {
  server.set_payload_max_length(kMaxBodyBytes);
  server.set_default_headers({
      {"X-Content-Type-Options", "nosniff"},
      {"Content-Security-Policy",
       "default-src 'self'; img-src 'self' data:; style-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"},
      {"Referrer-Policy", "no-referrer"},
  });
  server.Post("/api/run", HandleRun);
  server.Get("/api/demos", HandleDemos);
  server.Get("/api/health", [](const httplib::Request&, httplib::Response& res) {
    SendJson(res, 200, json{{"ok", true}, {"version", CUTLINE_VERSION}});
  });
  auto not_allowed = [](const httplib::Request& req, httplib::Response& res) {
    SendError(res, 405, fmt::format("{} is not allowed on {}", req.method, req.path));
  };
  for (const char* path : {"/api/run", "/api/demos", "/api/health"}) {
    if (std::string_view(path) != "/api/run") {
      server.Post(path, not_allowed);
    } else {
      server.Get(path, not_allowed);
    }
    server.Put(path, not_allowed);
    server.Delete(path, not_allowed);
    server.Patch(path, not_allowed);
    server.Options(path, not_allowed);
  }
  server.Get(R"(/.*)", [options](const httplib::Request& req,
                                 httplib::Response& res) {
    std::string path = req.path == "/" ? "/index.html" : req.path;
    std::string body;
    if (path.rfind("/api/", 0) == 0 || !LoadFile(options, path, &body)) {
      return SendError(res, 404, "not found");
    }
    res.set_content(body, ContentType(path));
  });
  // httplib's own refusals (413 for a body over the limit, 404 for other
  // methods) get a JSON body too.
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
    std::string message =
        res.status == 413 ? BodyTooLarge() : fmt::format("HTTP {}", res.status);
    SendError(res, res.status, message);
  });
}

int Serve(const Options& options) {
  // Block the stop signals in every thread; one thread waits for them and
  // stops the server, so Ctrl-C ends the process cleanly, not mid-write.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  httplib::Server server;
  Install(server, options);
  // httplib's default, SO_REUSEPORT, would let a second server bind the same
  // port and take a share of its connections; SO_REUSEADDR refuses that.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  // stop() waits for each idle keep-alive connection (an open page) to time
  // out: keep that short so that Ctrl-C ends the process promptly.
  server.set_keep_alive_timeout(1);
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
  } else if (!server.bind_to_port(options.host, port)) {
    port = -1;
  }
  if (port < 0) {
    fmt::print(stderr, "cutline: error: cannot listen on {}:{}\n", options.host,
               options.port);
    return 1;
  }
  std::string host = options.host.find(':') != std::string::npos
                         ? "[" + options.host + "]"
                         : options.host;
  fmt::print("cutline serving http://{}:{}/ (Ctrl-C to stop)\n", host, port);
  std::fflush(stdout);
  std::thread waiter([&] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    server.stop();
  });
  server.listen_after_bind();
  // If the server stopped for another reason, wake the waiter.
  pthread_kill(waiter.native_handle(), SIGTERM);
  waiter.join();
  fmt::print("cutline: stopped\n");
  return 0;
}

}  // namespace cutline::server
