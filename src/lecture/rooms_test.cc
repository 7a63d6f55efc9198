// Lecture rooms without a server: who may drive, who may answer and how
// often, the limits, and what each change tells the room.
#include "lecture/rooms.h"

#include <gtest/gtest.h>

#include <set>

#include "catalogue/messages.h"

namespace cutline::lecture {
namespace {

// By value: the result is a temporary more often than not.
template <class T>
T Ok(const Result<T>& r) {
  if (!r.ok()) {
    ADD_FAILURE() << "refused: " << CodeName(r.status().code());
    return T{};
  }
  return r.value();
}

// The refusal's code (kOk when there was none, which fails the test).
template <class T>
Code Refused(const Result<T>& r) {
  EXPECT_FALSE(r.ok()) << "expected a refusal";
  return r.status().code();
}

// A clock the test moves.
struct FakeClock {
  Clock::time_point t{};
  std::function<Clock::time_point()> fn() {
    return [this] { return t; };
  }
};

Json State(const std::string& scenario) { return Json{{"scenario", scenario}, {"demo", nullptr}}; }
Json Q(const std::string& id, std::vector<std::string> choices) {
  return Json{{"id", id}, {"choices", choices}};
}

TEST(Rooms, CodesAreShortAndTokensUnguessableAndDistinct) {
  Rooms rooms;
  std::set<std::string> codes, tokens;
  for (int i = 0; i < 50; ++i) {
    Created c = Ok(rooms.Create());
    EXPECT_EQ(c.code.size(), 6u);
    EXPECT_EQ(c.code.find_first_not_of("ABCDEFGHJKMNPQRTUVWXY346789"), std::string::npos) << c.code;
    EXPECT_EQ(c.token.size(), 32u);
    EXPECT_EQ(c.token.find_first_not_of("0123456789abcdef"), std::string::npos);
    codes.insert(c.code);
    tokens.insert(c.token);
  }
  EXPECT_EQ(codes.size(), 50u);
  EXPECT_EQ(tokens.size(), 50u);
}

TEST(Rooms, OnlyTheTeachersTokenDrivesAndARefusalChangesNothing) {
  Rooms rooms;
  Created c = Ok(rooms.Create());
  Changed first = Ok(rooms.Drive(c.code, c.token, State("network P1=100 P2=100")));
  EXPECT_EQ(first.event->name, "state");
  EXPECT_EQ(first.event->data["version"], 1);
  EXPECT_EQ(first.event->data["state"]["scenario"], "network P1=100 P2=100");

  std::string student = Ok(rooms.Join(c.code, ""))["student"];
  for (const std::string& forged : {std::string(), student, c.code, c.token.substr(0, 31) + "0",
                                    std::string(c.token.size(), '0')}) {
    if (forged == c.token) continue;
    EXPECT_EQ(Refused(rooms.Drive(c.code, forged, State("network P1=1"))), Code::kNotTeacher);
    EXPECT_EQ(Refused(rooms.Ask(c.code, forged, Q("q", {"a", "b"}))), Code::kNotTeacher);
    EXPECT_EQ(Refused(rooms.Reveal(c.code, forged)), Code::kNotTeacher);
  }
  Json view = Ok(rooms.View(c.code));
  EXPECT_EQ(view["version"], 1);
  EXPECT_EQ(view["state"]["scenario"], "network P1=100 P2=100");
  EXPECT_TRUE(view["question"].is_null());
  EXPECT_FALSE(view["teacher"]);
  EXPECT_TRUE(Ok(rooms.View(c.code, c.token))["teacher"]);
  EXPECT_FALSE(Ok(rooms.View(c.code, student))["teacher"]);
}

TEST(Rooms, ABadStateOrQuestionIsRefusedAndTheRoomKeepsWhatItHad) {
  Rooms rooms;
  Created c = Ok(rooms.Create());
  Ok(rooms.Drive(c.code, c.token, State("network P1=5")));
  for (const Json& bad : {Json(nullptr), Json("network P1=1"), Json{{"scenario", 3}},
                          Json{{"demo", 1}}, Json{{"scenario", std::string(70 * 1024, 'x')}}}) {
    EXPECT_EQ(Refused(rooms.Drive(c.code, c.token, bad)), Code::kBadState) << bad.dump().substr(0, 40);
  }
  EXPECT_EQ(Ok(rooms.View(c.code))["state"]["scenario"], "network P1=5");
  EXPECT_EQ(Ok(rooms.View(c.code))["version"], 1);

  Ok(rooms.Ask(c.code, c.token, Q("first", {"yes", "no"})));
  for (const Json& bad : {Json(nullptr), Q("", {"a"}), Q("x", {}), Q("x", {"a", "a"}),
                          Q(std::string(201, 'q'), {"a"}),
                          Q("x", std::vector<std::string>(13, "c")),
                          Json{{"id", "x"}, {"choices", {1, 2}}}}) {
    EXPECT_EQ(Refused(rooms.Ask(c.code, c.token, bad)), Code::kBadQuestion) << bad.dump();
  }
  EXPECT_EQ(Ok(rooms.View(c.code))["question"]["id"], "first");
}

TEST(Rooms, EachStudentAnswersOnceAndTheTallyWaitsForTheReveal) {
  Rooms rooms;
  Created c = Ok(rooms.Create());
  std::vector<std::string> students;
  for (int i = 0; i < 5; ++i) students.push_back(Ok(rooms.Join(c.code, ""))["student"]);
  EXPECT_EQ(Refused(rooms.Answer(c.code, students[0], "q1", "yes")), Code::kNoQuestion);

  Json q1 = Q("q1", {"yes", "no", "maybe"});
  q1["detail"] = Json{{"kind", "naive_total"}, {"branch", "P3"}};
  Changed asked = Ok(rooms.Ask(c.code, c.token, q1));
  EXPECT_EQ(asked.event->name, "question");
  EXPECT_EQ(asked.event->data["detail"], q1["detail"]);
  EXPECT_FALSE(asked.event->data.contains("counts"));  // what students hear

  for (int i = 0; i < 4; ++i) {
    Changed a = Ok(rooms.Answer(c.code, students[i], "q1", i < 3 ? "yes" : "no"));
    EXPECT_EQ(a.reply["answered"], i + 1);
    if (a.event) {
      EXPECT_EQ(a.event->name, "answers");
      EXPECT_EQ(a.event->data["answered"], i + 1);
      EXPECT_FALSE(a.event->data.contains("counts"));
    }
  }
  // Twice, to another question, a choice it does not offer, or as nobody: refused, tally unchanged.
  EXPECT_EQ(Refused(rooms.Answer(c.code, students[0], "q1", "no")), Code::kAnsweredAlready);
  EXPECT_EQ(Refused(rooms.Answer(c.code, students[4], "q0", "no")), Code::kOtherQuestion);
  EXPECT_EQ(Refused(rooms.Answer(c.code, students[4], "q1", "never")), Code::kBadChoice);
  EXPECT_EQ(Refused(rooms.Answer(c.code, "not-a-student", "q1", "no")), Code::kNotStudent);
  EXPECT_EQ(Refused(rooms.Answer(c.code, c.token, "q1", "no")), Code::kNotStudent);

  Json student_view = Ok(rooms.View(c.code))["question"];
  EXPECT_EQ(student_view["answered"], 4);
  EXPECT_FALSE(student_view.contains("counts"));
  EXPECT_EQ(Ok(rooms.View(c.code, c.token))["question"]["counts"], (Json{3, 1, 0}));

  Changed revealed = Ok(rooms.Reveal(c.code, c.token));
  EXPECT_EQ(revealed.event->data["counts"], (Json{3, 1, 0}));
  EXPECT_TRUE(revealed.event->data["revealed"]);
  // After the reveal nobody answers, and the next question starts from zero.
  EXPECT_EQ(Refused(rooms.Answer(c.code, students[4], "q1", "yes")), Code::kNoQuestion);
  Ok(rooms.Ask(c.code, c.token, Q("q2", {"yes", "no"})));
  Ok(rooms.Answer(c.code, students[0], "q2", "no"));
  EXPECT_EQ(Ok(rooms.View(c.code, c.token))["question"]["counts"], (Json{0, 1}));
}

TEST(Rooms, AHallsAnswersAreToldAFewTimesASecondNotOneEventEach) {
  FakeClock clock;
  Rooms rooms(Limits{}, clock.fn());
  Created c = Ok(rooms.Create());
  Ok(rooms.Ask(c.code, c.token, Q("q", {"a", "b"})));
  int told = 0;
  Json last;
  for (int i = 0; i < 100; ++i) {
    clock.t += std::chrono::milliseconds(10);  // 100 answers in a second
    std::string student = Ok(rooms.Join(c.code, ""))["student"];
    Changed a = Ok(rooms.Answer(c.code, student, "q", "a"));
    if (a.event) {
      ++told;
      last = a.event->data;
    }
  }
  EXPECT_EQ(told, 4);  // at 10 ms, then every 250 ms
  EXPECT_EQ(last["answered"], 76);
  // The tally itself is whole at once.
  EXPECT_EQ(Ok(rooms.View(c.code, c.token))["question"]["answered"], 100);
}

TEST(Rooms, AReloadingStudentKeepsItsTokenAndPlace) {
  Rooms rooms;
  Created c = Ok(rooms.Create());
  std::string s = Ok(rooms.Join(c.code, ""))["student"];
  EXPECT_EQ(Ok(rooms.Join(c.code, s))["student"], s);
  EXPECT_EQ(Ok(rooms.View(c.code))["students"], 1);
  // Another room's token is no token here.
  Created other = Ok(rooms.Create());
  EXPECT_NE(Ok(rooms.Join(other.code, s))["student"], s);
}

TEST(Rooms, LimitsAreRefusedCleanly) {
  Limits limits;
  limits.max_rooms = 2;
  limits.max_students = 3;
  Rooms rooms(limits);
  Created a = Ok(rooms.Create());
  Ok(rooms.Create());
  Result<Created> third = rooms.Create();
  EXPECT_EQ(Refused(third), Code::kTooManyRooms);
  EXPECT_EQ(rooms.size(), 2u);
  for (int i = 0; i < 3; ++i) Ok(rooms.Join(a.code, ""));
  Result<Json> fourth = rooms.Join(a.code, "");
  EXPECT_EQ(Refused(fourth), Code::kRoomFull);
  EXPECT_EQ(Ok(rooms.View(a.code))["students"], 3);
  // The refusals carry the limits, which their words say, in both languages.
  EXPECT_NE(catalogue::Reason(fourth.status(), Lang::kEn).find("3 students"), std::string::npos);
  EXPECT_NE(catalogue::Reason(third.status(), Lang::kEn).find("2 lectures"), std::string::npos);
  EXPECT_NE(catalogue::Reason(fourth.status(), Lang::kJa).find("3人"), std::string::npos);
}

TEST(Rooms, AnIdleRoomExpiresAndAnActiveOneDoesNot) {
  FakeClock clock;
  Limits limits;
  limits.idle_lifetime = std::chrono::minutes(10);
  Rooms rooms(limits, clock.fn());
  Created idle = Ok(rooms.Create());
  Created busy = Ok(rooms.Create());
  for (int minute = 0; minute < 15; ++minute) {
    clock.t += std::chrono::minutes(1);
    Ok(rooms.Drive(busy.code, busy.token, State("network P1=1")));
  }
  EXPECT_EQ(Refused(rooms.View(idle.code)), Code::kNoRoom);
  EXPECT_EQ(Refused(rooms.Drive(idle.code, idle.token, State("x"))), Code::kNoRoom);
  EXPECT_EQ(Ok(rooms.View(busy.code))["version"], 15);
  EXPECT_EQ(rooms.size(), 1u);
}

// The page tells a refusal by its code's name (web/): the names stay what
// they were when the rooms had codes of their own. (Their words, in both
// languages, are walked with every other code by MessagesTest.)
TEST(Rooms, EveryRefusalKeepsThePagesName) {
  const std::pair<Code, std::string_view> named[] = {
      {Code::kNoRoom, "no_room"},           {Code::kNotTeacher, "not_teacher"},
      {Code::kNotStudent, "not_student"},   {Code::kTooManyRooms, "too_many_rooms"},
      {Code::kRoomFull, "room_full"},       {Code::kBadState, "bad_state"},
      {Code::kBadQuestion, "bad_question"}, {Code::kNoQuestion, "no_question"},
      {Code::kOtherQuestion, "other_question"}, {Code::kBadChoice, "bad_choice"},
      {Code::kAnsweredAlready, "answered_already"}};
  for (const auto& [code, name] : named) EXPECT_EQ(CodeName(code), name);
}

}  // namespace
}  // namespace cutline::lecture
