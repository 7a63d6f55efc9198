// The lecture's HTTP API (docs/api.md, "Lecture rooms"): the teacher's page
// creates a room and drives it, students' pages join it and follow its event
// stream. Rooms (src/lecture) decides; this file maps paths, bodies and
// refusals onto it and publishes what changed to the room's stream.
#include "server/lecture_routes.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <cctype>
#include <string>
#include <string_view>

#include "catalogue/messages.h"
#include "lecture/rooms.h"
#include "server/qr_svg.h"

namespace cutline::server {

namespace {

using lecture::Json;

// The teacher's page sends its token in this header: never in a URL, which
// logs and browser histories keep.
constexpr const char* kTeacherHeader = "x-cutline-teacher";

int HttpStatus(Code code) {
  switch (code) {
    case Code::kNoRoom: return 404;
    case Code::kNotTeacher:
    case Code::kNotStudent: return 403;
    case Code::kTooManyRooms:
    case Code::kRoomFull: return 503;
    case Code::kNoQuestion:
    case Code::kOtherQuestion:
    case Code::kAnsweredAlready:
    case Code::kBadPhase:
    case Code::kVoteClosed: return 409;
    default: return 400;  // kBadState, kBadQuestion, kBadChoice, kBadCountdown
  }
}

// The page says a refusal in its reader's language by its code; "error" is
// the catalogue's English, for a person reading the API.
Response Refuse(const Status& refusal) {
  return JsonResponse(HttpStatus(refusal.code()),
                      Json{{"error", catalogue::Reason(refusal, Lang::kEn)},
                           {"code", CodeName(refusal.code())}}
                          .dump());
}

Response Reply(int status, const Json& body) {
  return JsonResponse(status, body.dump(-1, ' ', false, Json::error_handler_t::replace));
}

// The address a student's phone opens: this server as the teacher's browser
// reached it (its Host header), at the page, with the room's code.
std::string JoinLink(const Request& req, std::string_view code) {
  std::string host = req.Header("host");
  if (host.empty()) host = "127.0.0.1";
  return fmt::format("http://{}/?room={}", host, code);
}

// Codes are read off a projector and typed on phones: any case will do.
std::string NormalizeCode(std::string_view text) {
  std::string code(text);
  for (char& c : code) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return code;
}

// A body that must be a JSON object; nullopt (with the 400 in *bad) if not.
std::optional<Json> ObjectBody(const Request& req, Response* bad) {
  Json body = Json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    *bad = ErrorResponse(400, "the body is not valid JSON");
    return std::nullopt;
  }
  if (!body.is_object()) {
    *bad = ErrorResponse(400, "the body must be a JSON object");
    return std::nullopt;
  }
  return body;
}

std::string StringField(const Json& body, const char* name) {
  auto it = body.find(name);
  return it != body.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string Topic(std::string_view code) { return fmt::format("room/{}", code); }


// Answers a change and tells the room about it.
Response Publish(const lecture::Result<lecture::Changed>& result, std::string_view code,
                 const Site& site) {
  if (!result.ok()) return Refuse(result.status());
  const lecture::Changed& changed = result.value();
  if (site.publish && changed.event) site.publish(Topic(code), changed.event->name, changed.event->data.dump());
  return Reply(200, changed.reply);
}

bool IsGet(const std::string& method) { return method == "GET" || method == "HEAD"; }

Response WrongMethod(const Request& req) {
  return ErrorResponse(405, fmt::format("{} is not allowed on {}", req.method, req.path));
}

}  // namespace

Response LectureRoute(const Request& req, const Site& site) {
  if (!site.rooms) return ErrorResponse(404, "not found");
  lecture::Rooms& rooms = *site.rooms;
  constexpr std::string_view kRoot = "/api/rooms";
  std::string_view rest = std::string_view(req.path).substr(kRoot.size());

  // POST /api/rooms: a new lecture.
  if (rest.empty() || rest == "/") {
    if (req.method != "POST") return WrongMethod(req);
    auto created = rooms.Create();
    if (!created.ok()) return Refuse(created.status());
    const lecture::Created& c = created.value();
    return Reply(201, Json{{"code", c.code}, {"token", c.token}, {"join", JoinLink(req, c.code)},
                           {"room", c.view}});
  }
  if (rest.front() != '/') return ErrorResponse(404, "not found");
  rest.remove_prefix(1);
  const std::size_t slash = rest.find('/');
  const std::string code = NormalizeCode(rest.substr(0, slash));
  const std::string_view action = slash == std::string_view::npos ? "" : rest.substr(slash + 1);
  const std::string token = req.Header(kTeacherHeader);

  if (action.empty()) {  // GET /api/rooms/CODE
    if (!IsGet(req.method)) return WrongMethod(req);
    auto view = rooms.View(code, token);
    if (!view.ok()) return Refuse(view.status());
    Json body = view.value();
    body["join"] = JoinLink(req, code);
    return Reply(200, body);
  }
  if (action == "events") {
    if (!IsGet(req.method)) return WrongMethod(req);
    // Only a room's own stream: a mistyped code hears of its mistake at once.
    auto view = rooms.View(code);
    if (!view.ok()) return Refuse(view.status());
    Response stream;
    stream.event_stream = true;
    stream.stream_topic = Topic(code);
    return stream;
  }
  if (action == "qr.svg") {
    if (!IsGet(req.method)) return WrongMethod(req);
    auto view = rooms.View(code);
    if (!view.ok()) return Refuse(view.status());
    auto svg = QrSvg(JoinLink(req, code));
    if (!svg) return ErrorResponse(500, "the QR code could not be drawn");
    Response image;
    image.content_type = "image/svg+xml";
    image.body = std::move(*svg);
    image.headers = {{"Cache-Control", "no-store"}};
    return image;
  }

  if (req.method != "POST") {
    return action == "join" || action == "state" || action == "question" || action == "phase" ||
                   action == "reveal" || action == "answer"
               ? WrongMethod(req)
               : ErrorResponse(404, "not found");
  }
  if (action == "reveal") return Publish(rooms.Reveal(code, token), code, site);
  Response bad;
  std::optional<Json> body = ObjectBody(req, &bad);
  if (!body) return bad;
  if (action == "join") {
    auto joined = rooms.Join(code, StringField(*body, "student"));
    if (!joined.ok()) return Refuse(joined.status());
    return Reply(200, joined.value());
  }
  if (action == "state") return Publish(rooms.Drive(code, token, *body), code, site);
  if (action == "question") return Publish(rooms.Ask(code, token, *body), code, site);
  if (action == "phase") {
    // {"phase": "closed" | "discuss" | "vote" | "revealed", "seconds": N}
    auto phase = lecture::PhaseNamed(StringField(*body, "phase"));
    if (!phase) {
      return ErrorResponse(400, "\"phase\" must be one of \"closed\", \"discuss\", \"vote\", \"revealed\"");
    }
    return Publish(rooms.Advance(code, token, *phase, body->value("seconds", Json(0))), code, site);
  }
  if (action == "answer") {
    const Json vote = body->value("vote", Json(0));
    if (!vote.is_number_integer() || vote.get<std::int64_t>() < 0 || vote.get<std::int64_t>() > 2) {
      return ErrorResponse(400, "\"vote\" must be 1 or 2");
    }
    return Publish(rooms.Answer(code, StringField(*body, "student"), StringField(*body, "question"),
                                StringField(*body, "choice"), vote.get<int>()),
                   code, site);
  }
  return ErrorResponse(404, "not found");
}

}  // namespace cutline::server
