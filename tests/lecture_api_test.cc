// The lecture's HTTP API against the real server over real sockets: a teacher
// creates a room and drives it; students join, follow its event stream and
// answer; forged and excess requests are refused and change nothing.
#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "raw_http.h"
#include "catalogue/messages.h"
#include "server/server.h"

namespace {

using nlohmann::json;

class LectureTest : public ::testing::Test {
 protected:
  void Start(cutline::lecture::Limits limits = {}) {
    cutline::server::Options options;
    options.port = 0;
    options.lecture = limits;
    server_ = std::make_unique<cutline::server::Server>(options);
    cutline::StatusOr<int> started = server_->Start();
    ASSERT_TRUE(started.ok()) << cutline::catalogue::Message(started.status(), cutline::Lang::kEn);
    port_ = *started;
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
  }
  void SetUp() override { Start(); }
  void TearDown() override {
    if (server_) server_->Stop();
  }

  struct Answer {
    int status = 0;
    json body;
  };
  Answer Call(const std::string& method, const std::string& path, const json& body = nullptr,
              const std::string& token = "") {
    httplib::Headers headers;
    if (!token.empty()) headers.emplace("X-Cutline-Teacher", token);
    httplib::Result r = method == "GET"
                            ? client_->Get(path, headers)
                            : client_->Post(path, headers, body.is_null() ? "{}" : body.dump(),
                                            "application/json");
    if (!r) return {};
    json parsed = json::parse(r->body, nullptr, false);
    return {r->status, parsed};
  }
  // A new room: its code and the teacher's token.
  std::pair<std::string, std::string> NewRoom() {
    Answer a = Call("POST", "/api/rooms");
    EXPECT_EQ(a.status, 201) << a.body.dump();
    return {a.body.value("code", ""), a.body.value("token", "")};
  }
  std::string Join(const std::string& code) {
    Answer a = Call("POST", "/api/rooms/" + code + "/join");
    EXPECT_EQ(a.status, 200) << a.body.dump();
    return a.body.value("student", "");
  }
  // A student page's event stream, subscribed (its `ready` read).
  std::unique_ptr<RawConnection> Listen(const std::string& code) {
    auto l = std::make_unique<RawConnection>(port_);
    EXPECT_TRUE(l->Send("GET /api/rooms/" + code + "/events HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_TRUE(l->ReadUntil("event: ready\n")) << l->received();
    return l;
  }

  // The room as the teacher and as a student read it, a running countdown's
  // milliseconds left aside (they run on): what a refusal must not change.
  json Still(const std::string& code, const std::string& token) {
    json both = json::array();
    for (const std::string& who : {token, std::string()}) {
      json view = Call("GET", "/api/rooms/" + code, nullptr, who).body;
      if (view["question"].is_object()) view["question"]["ms_left"] = view["question"]["ms_left"].is_number();
      both.push_back(std::move(view));
    }
    return both;
  }

  std::unique_ptr<cutline::server::Server> server_;
  std::unique_ptr<httplib::Client> client_;
  int port_ = 0;
};

const json kState = {{"scenario", "network P1=100 P2=100 P3=100\ntransfer P1 P2 10\n"},
                     {"demo", {{"id", 1}, {"pos", 2}}}};

TEST_F(LectureTest, TheTeachersStepReachesEveryStudentInItsRoomAndNoOther) {
  auto [code, token] = NewRoom();
  auto [other, other_token] = NewRoom();
  std::vector<std::unique_ptr<RawConnection>> students;
  for (int i = 0; i < 20; ++i) students.push_back(Listen(code));
  auto outsider = Listen(other);

  Answer driven = Call("POST", "/api/rooms/" + code + "/state", kState, token);
  ASSERT_EQ(driven.status, 200) << driven.body.dump();
  EXPECT_EQ(driven.body["version"], 1);
  for (auto& s : students) {
    // nlohmann orders keys: "version" ends the event's one line of data.
    ASSERT_TRUE(s->ReadUntil("\"version\":1}\n\n")) << s->received();
    std::string got = s->received();
    std::string line = got.substr(got.find("data: ", got.find("event: state")) + 6);
    json data = json::parse(line.substr(0, line.find('\n')));
    EXPECT_EQ(data["version"], 1);
    EXPECT_EQ(data["state"], kState);
  }
  // The other room hears nothing of it: a step of its own arrives first.
  ASSERT_EQ(Call("POST", "/api/rooms/" + other + "/state", json{{"scenario", "network A=1"}}, other_token).status,
            200);
  ASSERT_TRUE(outsider->ReadUntil("event: state\n"));
  EXPECT_EQ(outsider->received().find("P1=100"), std::string::npos) << outsider->received();

  // A late joiner reads the room as it is now.
  Answer late = Call("GET", "/api/rooms/" + code);
  ASSERT_EQ(late.status, 200);
  EXPECT_EQ(late.body["state"], kState);
  EXPECT_EQ(late.body["version"], 1);
  EXPECT_EQ(late.body["join"], "http://127.0.0.1:" + std::to_string(port_) + "/?room=" + code);
}

TEST_F(LectureTest, AStudentOrAForgerCannotDriveAndNothingChanges) {
  auto [code, token] = NewRoom();
  ASSERT_EQ(Call("POST", "/api/rooms/" + code + "/state", kState, token).status, 200);
  std::string student = Join(code);
  auto listener = Listen(code);
  for (const std::string& forged : {std::string(), student, code, std::string(32, 'a')}) {
    for (const std::string action : {"state", "question", "phase", "reveal"}) {
      json body = action == "question" ? json{{"id", "q"}, {"choices", {"a"}}}
                  : action == "phase"  ? json{{"phase", "revealed"}}
                                       : json{{"scenario", "network X=1"}};
      Answer a = Call("POST", "/api/rooms/" + code + "/" + action, body, forged);
      EXPECT_EQ(a.status, 403) << action << " " << a.body.dump();
      EXPECT_EQ(a.body["code"], "not_teacher");
      EXPECT_EQ(a.body["error"], "only the lecture's teacher can do this");
    }
  }
  Answer view = Call("GET", "/api/rooms/" + code);
  EXPECT_EQ(view.body["state"], kState);
  EXPECT_EQ(view.body["version"], 1);
  EXPECT_TRUE(view.body["question"].is_null());
  // Nothing was published: the next event the stream gets is the teacher's.
  ASSERT_EQ(Call("POST", "/api/rooms/" + code + "/state", json{{"scenario", "network Y=2"}}, token).status, 200);
  ASSERT_TRUE(listener->ReadUntil("event: state\n"));
  EXPECT_EQ(listener->received().find("X=1"), std::string::npos);
  EXPECT_EQ(listener->received().find("event: question"), std::string::npos);
}

TEST_F(LectureTest, TheClassAnswersOnceEachAndTheTeacherSeesTheCounts) {
  auto [code, token] = NewRoom();
  std::vector<std::string> students;
  for (int i = 0; i < 6; ++i) students.push_back(Join(code));
  auto listener = Listen(code);
  const json question = {{"id", "demo3-step4"}, {"choices", {"yes", "no"}},
                         {"detail", {{"kind", "delivery_recorded"}, {"snapshot", 1}}}};
  ASSERT_EQ(Call("POST", "/api/rooms/" + code + "/question", question, token).status, 200);
  ASSERT_TRUE(listener->ReadUntil("\"kind\":\"delivery_recorded\""));  // students ask it themselves
  for (int i = 0; i < 5; ++i) {
    Answer a = Call("POST", "/api/rooms/" + code + "/answer",
                    json{{"student", students[i]}, {"question", "demo3-step4"}, {"choice", i < 2 ? "yes" : "no"}});
    ASSERT_EQ(a.status, 200) << a.body.dump();
    EXPECT_EQ(a.body["answered"], i + 1);
  }
  // A second answer, a made-up student, a wrong choice: refused, and the tally stays.
  Answer twice = Call("POST", "/api/rooms/" + code + "/answer",
                      json{{"student", students[0]}, {"question", "demo3-step4"}, {"choice", "no"}});
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(twice.body["code"], "answered_already");
  Answer forged = Call("POST", "/api/rooms/" + code + "/answer",
                       json{{"student", std::string(32, 'f')}, {"question", "demo3-step4"}, {"choice", "no"}});
  EXPECT_EQ(forged.status, 403);
  EXPECT_EQ(forged.body["code"], "not_student");
  Answer odd = Call("POST", "/api/rooms/" + code + "/answer",
                    json{{"student", students[5]}, {"question", "demo3-step4"}, {"choice", "perhaps"}});
  EXPECT_EQ(odd.status, 400);
  EXPECT_EQ(odd.body["code"], "bad_choice");

  // Students see how many answered, not what; the teacher sees the counts.
  Answer seen = Call("GET", "/api/rooms/" + code);
  EXPECT_EQ(seen.body["question"]["answered"], 5);
  EXPECT_EQ(seen.body["question"]["votes"], (json{{{"answered", 5}, {"seconds", 0}}}));
  Answer teacher = Call("GET", "/api/rooms/" + code, nullptr, token);
  EXPECT_EQ(teacher.body["question"]["votes"][0]["counts"], (json{2, 3}));
  EXPECT_TRUE(teacher.body["teacher"]);

  // The short way: revealed straight from the first vote.
  ASSERT_EQ(Call("POST", "/api/rooms/" + code + "/reveal", nullptr, token).status, 200);
  ASSERT_TRUE(listener->ReadUntil("\"revealed\":true"));
  EXPECT_NE(listener->received().find("\"counts\":[2,3]"), std::string::npos) << listener->received();
  EXPECT_NE(listener->received().find("event: answers\n"), std::string::npos);
  Answer shown = Call("GET", "/api/rooms/" + code);
  EXPECT_EQ(shown.body["question"]["phase"], "revealed");
  EXPECT_EQ(shown.body["question"]["votes"], (json{{{"answered", 5}, {"seconds", 0}, {"counts", {2, 3}}}}));
  Answer after = Call("POST", "/api/rooms/" + code + "/answer",
                      json{{"student", students[5]}, {"question", "demo3-step4"}, {"choice", "no"}});
  EXPECT_EQ(after.status, 409);
  EXPECT_EQ(after.body["code"], "vote_closed");
}

// Every "question" event's data on a stream, in order.
std::vector<json> QuestionEvents(const std::string& received) {
  std::vector<json> out;
  const std::string head = "event: question\ndata: ";
  for (auto at = received.find(head); at != std::string::npos; at = received.find(head, at + 1)) {
    const auto start = at + head.size();
    out.push_back(json::parse(received.substr(start, received.find('\n', start) - start)));
  }
  return out;
}

// Peer instruction through the server: vote, close, discuss, vote again,
// reveal, each step on the room's stream; every refusal on the way has its
// status and code and changes nothing. (The countdowns here never run out:
// the unit tests move a clock for that.)
TEST_F(LectureTest, AQuestionGoesVoteDiscussVoteRevealAndEveryRefusalChangesNothing) {
  // Named, not a structured binding: the lambdas below capture the token, and
  // clang (C++20) does not capture structured bindings.
  const auto made = NewRoom();
  const std::string code = made.first, token = made.second;
  const std::string room = "/api/rooms/" + code;
  std::vector<std::string> students;
  for (int i = 0; i < 4; ++i) students.push_back(Join(code));
  auto listener = Listen(code);
  auto phase = [&](const json& body) { return Call("POST", room + "/phase", body, token); };
  auto answer = [&](int student, const std::string& choice, const json& vote) {
    json body{{"student", students[static_cast<std::size_t>(student)]}, {"question", "q"}, {"choice", choice}};
    if (!vote.is_null()) body["vote"] = vote;
    return Call("POST", room + "/answer", body);
  };
  // Each refusal: its status, its code (none for a body the route reads
  // itself) and the room as it was.
  auto refused = [&](const Answer& a, int status, const std::string& error_code) {
    EXPECT_EQ(a.status, status) << a.body.dump();
    EXPECT_EQ(a.body.value("code", ""), error_code) << a.body.dump();
    EXPECT_FALSE(a.body.value("error", "").empty());
  };
  // The next "question" event the stream must see: phase, and vote number.
  auto heard = [&](const std::string& p, int vote) {
    const std::string text = "\"phase\":\"" + p + "\",\"revealed\":" + (p == "revealed" ? "true" : "false") +
                             ",\"vote\":" + std::to_string(vote) + ",";
    EXPECT_TRUE(listener->ReadUntil(text)) << text << "\n" << listener->received();
  };

  Answer none = phase(json{{"phase", "closed"}});
  refused(none, 409, "no_question");

  Answer asked = Call("POST", room + "/question",
                      json{{"id", "q"}, {"choices", {"yes", "no"}}, {"seconds", 300}}, token);
  ASSERT_EQ(asked.status, 200) << asked.body.dump();
  EXPECT_EQ(asked.body["question"]["phase"], "vote");
  EXPECT_GT(asked.body["question"]["ms_left"].get<int>(), 290000);
  heard("vote", 1);
  for (int i = 0; i < 4; ++i) {
    Answer a = answer(i, i < 2 ? "yes" : "no", i % 2 == 0 ? json(1) : json());
    ASSERT_EQ(a.status, 200) << a.body.dump();
    EXPECT_EQ(a.body, (json{{"id", "q"}, {"vote", 1}, {"answered", i + 1}}));
  }
  json before = Still(code, token);
  refused(phase(json{{"phase", "vote"}}), 409, "bad_phase");  // vote 1 is open
  refused(phase(json{{"phase", "open"}}), 400, "");
  refused(phase(json::object()), 400, "");
  refused(answer(0, "no", 2), 409, "vote_closed");  // no vote 2 yet
  refused(answer(0, "no", "1"), 400, "");
  refused(answer(0, "no", 1.5), 400, "");
  refused(answer(0, "no", 4294967297LL), 400, "");  // not vote 1 by wrapping round
  refused(answer(0, "no", -1), 400, "");
  refused(Call("POST", room + "/question", json{{"id", "r"}, {"choices", {"a"}}, {"seconds", -1}}, token), 400,
          "bad_countdown");
  EXPECT_EQ(Still(code, token), before);

  ASSERT_EQ(phase(json{{"phase", "closed"}}).status, 200);
  heard("closed", 1);
  Answer discuss = phase(json{{"phase", "discuss"}});
  ASSERT_EQ(discuss.status, 200) << discuss.body.dump();
  EXPECT_EQ(discuss.body["question"]["votes"][0]["counts"], (json{2, 2}));  // the reply is the teacher's view
  heard("discuss", 1);
  before = Still(code, token);
  refused(phase(json{{"phase", "closed"}}), 409, "bad_phase");
  refused(phase(json{{"phase", "vote"}, {"seconds", 601}}), 400, "bad_countdown");
  refused(phase(json{{"phase", "vote"}, {"seconds", 2.5}}), 400, "bad_countdown");
  refused(answer(0, "yes", json()), 409, "vote_closed");
  EXPECT_EQ(Still(code, token), before);

  Answer second = phase(json{{"phase", "vote"}, {"seconds", 300}});
  ASSERT_EQ(second.status, 200) << second.body.dump();
  EXPECT_EQ(second.body["question"]["vote"], 2);
  EXPECT_EQ(second.body["question"]["answered"], 0);
  heard("vote", 2);
  for (int i = 0; i < 4; ++i) {
    Answer a = answer(i, i < 3 ? "yes" : "no", i % 2 == 0 ? json(2) : json());
    ASSERT_EQ(a.status, 200) << a.body.dump();
    EXPECT_EQ(a.body["vote"], 2);
  }
  before = Still(code, token);
  refused(answer(0, "no", json()), 409, "answered_already");
  refused(answer(1, "no", 1), 409, "vote_closed");  // meant for vote 1
  refused(phase(json{{"phase", "discuss"}}), 409, "bad_phase");
  refused(phase(json{{"phase", "vote"}}), 409, "bad_phase");
  EXPECT_EQ(Still(code, token), before);
  // Students see how many answered in each vote, not what; the teacher sees both tallies.
  EXPECT_EQ(before[1]["question"]["votes"],
            (json{{{"answered", 4}, {"seconds", 300}}, {{"answered", 4}, {"seconds", 300}}}));
  EXPECT_EQ(before[0]["question"]["votes"][0]["counts"], (json{2, 2}));
  EXPECT_EQ(before[0]["question"]["votes"][1]["counts"], (json{3, 1}));

  ASSERT_EQ(phase(json{{"phase", "closed"}}).status, 200);
  heard("closed", 2);
  ASSERT_EQ(phase(json{{"phase", "revealed"}}).status, 200);
  heard("revealed", 2);
  before = Still(code, token);
  // Revealed again (a double click): answered as it is, nothing published.
  EXPECT_EQ(phase(json{{"phase", "revealed"}}).status, 200);
  EXPECT_EQ(Call("POST", room + "/reveal", nullptr, token).status, 200);
  refused(phase(json{{"phase", "discuss"}}), 409, "bad_phase");
  refused(answer(2, "no", json()), 409, "vote_closed");
  EXPECT_EQ(Still(code, token), before);
  EXPECT_EQ(before[1]["question"]["votes"][0]["counts"], (json{2, 2}));  // the class sees both now
  EXPECT_EQ(before[1]["question"]["votes"][1]["counts"], (json{3, 1}));

  // The stream heard each step once, in order, and no refusal: the tallies only at the reveal.
  const std::vector<json> events = QuestionEvents(listener->received());
  const std::vector<std::pair<std::string, int>> path = {{"vote", 1},    {"closed", 1}, {"discuss", 1},
                                                         {"vote", 2},    {"closed", 2}, {"revealed", 2}};
  ASSERT_EQ(events.size(), path.size()) << listener->received();
  for (std::size_t i = 0; i < path.size(); ++i) {
    EXPECT_EQ(events[i]["phase"], path[i].first) << i;
    EXPECT_EQ(events[i]["vote"], path[i].second) << i;
    EXPECT_EQ(events[i]["votes"].size(), static_cast<std::size_t>(path[i].second)) << i;
    EXPECT_EQ(events[i]["votes"][0].contains("counts"), i + 1 == path.size()) << i;
  }
  EXPECT_EQ(events.back()["votes"], before[1]["question"]["votes"]);
}

TEST_F(LectureTest, LimitsAreRefusedCleanly) {
  cutline::lecture::Limits limits;
  limits.max_rooms = 1;
  limits.max_students = 2;
  server_->Stop();
  Start(limits);
  auto [code, token] = NewRoom();
  Answer second = Call("POST", "/api/rooms");
  EXPECT_EQ(second.status, 503);
  EXPECT_EQ(second.body["code"], "too_many_rooms");
  EXPECT_EQ(second.body["error"], "this server holds 1 lectures already; try again when one ends");
  Join(code);
  Join(code);
  Answer third = Call("POST", "/api/rooms/" + code + "/join");
  EXPECT_EQ(third.status, 503);
  EXPECT_EQ(third.body["code"], "room_full");
  EXPECT_EQ(Call("GET", "/api/rooms/" + code).body["students"], 2);
}

TEST_F(LectureTest, BadRequestsGetOneLineAndTheRoomIsUnchanged) {
  auto [code, token] = NewRoom();
  ASSERT_EQ(Call("POST", "/api/rooms/" + code + "/state", kState, token).status, 200);
  struct Case {
    std::string method, path, body;
    int status;
    std::string error;
  };
  const std::string room = "/api/rooms/" + code;
  std::vector<Case> cases = {
      {"GET", "/api/rooms/ZZZZZZ", "", 404, "no lecture has this code (it may have ended)"},
      {"GET", "/api/rooms/ZZZZZZ/events", "", 404, "no lecture has this code (it may have ended)"},
      {"GET", "/api/rooms/ZZZZZZ/qr.svg", "", 404, "no lecture has this code (it may have ended)"},
      {"GET", "/api/rooms", "", 405, "GET is not allowed on /api/rooms"},
      {"GET", room + "/state", "", 405, "GET is not allowed on " + room + "/state"},
      {"POST", room + "/state", "not json", 400, "the body is not valid JSON"},
      {"POST", room + "/state", "[1]", 400, "the body must be a JSON object"},
      {"POST", room + "/state", R"({"scenario": 5})", 400,
       "the state must be a JSON object with a string \"scenario\", at most 65536 bytes"},
      {"POST", room + "/question", R"({"id": "q", "choices": []})", 400,
       "a question needs a string \"id\" and 1 to 12 distinct string \"choices\", each at most 200 bytes, "
       "and at most 65536 bytes in all"},
      {"POST", room + "/reveal", "", 409, "no question is open for answers"},
      {"POST", room + "/phase", R"({"phase": "closed"})", 409, "no question is open for answers"},
      {"POST", room + "/phase", R"({"phase": "Closed"})", 400,
       "\"phase\" must be one of \"closed\", \"discuss\", \"vote\", \"revealed\""},
      {"GET", room + "/phase", "", 405, "GET is not allowed on " + room + "/phase"},
      {"POST", room + "/nonsense", "{}", 404, "not found"},
  };
  for (const Case& c : cases) {
    httplib::Headers headers{{"X-Cutline-Teacher", token}};
    httplib::Result r = c.method == "GET" ? client_->Get(c.path, headers)
                                          : client_->Post(c.path, headers, c.body, "application/json");
    ASSERT_TRUE(r) << c.path;
    EXPECT_EQ(r->status, c.status) << c.method << " " << c.path << " " << c.body;
    json body = json::parse(r->body, nullptr, false);
    EXPECT_EQ(body.value("error", ""), c.error) << c.path;
    EXPECT_EQ(r->body.find('\n'), std::string::npos);
  }
  Answer view = Call("GET", room, nullptr, token);
  EXPECT_EQ(view.body["state"], kState);
  EXPECT_EQ(view.body["version"], 1);
  EXPECT_TRUE(view.body["question"].is_null());
}

TEST_F(LectureTest, CodesAreReadInAnyCaseAndTheQrCodeIsAnSvgOfTheJoinLink) {
  auto [code, token] = NewRoom();
  std::string lower = code;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(Call("GET", "/api/rooms/" + lower).body["code"], code);
  httplib::Result qr = client_->Get("/api/rooms/" + code + "/qr.svg");
  ASSERT_TRUE(qr);
  EXPECT_EQ(qr->status, 200);
  EXPECT_EQ(qr->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_EQ(qr->body.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  // A join link of ~40 characters fits QR version 3 (29 modules) at level M,
  // plus 4 modules of quiet zone on each side: 37. The browser test scans it.
  EXPECT_NE(qr->body.find("viewBox=\"0 0 37 37\""), std::string::npos) << qr->body.substr(0, 120);
}

}  // namespace
