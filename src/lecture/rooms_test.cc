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
  EXPECT_EQ(asked.event->data["phase"], "vote");
  EXPECT_EQ(asked.event->data["vote"], 1);
  EXPECT_TRUE(asked.event->data["ms_left"].is_null());  // no countdown
  EXPECT_FALSE(asked.event->data["votes"][0].contains("counts"));  // what students hear
  EXPECT_EQ(asked.reply["question"]["votes"][0]["counts"], (Json{0, 0, 0}));  // what the teacher reads

  for (int i = 0; i < 4; ++i) {
    Changed a = Ok(rooms.Answer(c.code, students[i], "q1", i < 3 ? "yes" : "no"));
    EXPECT_EQ(a.reply["answered"], i + 1);
    EXPECT_EQ(a.reply["vote"], 1);
    if (a.event) {
      EXPECT_EQ(a.event->name, "answers");
      EXPECT_EQ(a.event->data, (Json{{"id", "q1"}, {"vote", 1}, {"answered", i + 1}}));
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
  EXPECT_EQ(student_view["votes"], (Json{{{"answered", 4}, {"seconds", 0}}}));
  EXPECT_FALSE(student_view.contains("counts"));
  EXPECT_EQ(Ok(rooms.View(c.code, c.token))["question"]["votes"][0]["counts"], (Json{3, 1, 0}));

  Changed revealed = Ok(rooms.Reveal(c.code, c.token));
  EXPECT_EQ(revealed.event->data["votes"][0]["counts"], (Json{3, 1, 0}));
  EXPECT_TRUE(revealed.event->data["revealed"]);
  EXPECT_EQ(revealed.event->data["phase"], "revealed");
  // After the reveal nobody answers, and the next question starts from zero.
  EXPECT_EQ(Refused(rooms.Answer(c.code, students[4], "q1", "yes")), Code::kVoteClosed);
  EXPECT_EQ(Ok(rooms.View(c.code))["question"]["answered"], 4);
  Ok(rooms.Ask(c.code, c.token, Q("q2", {"yes", "no"})));
  Ok(rooms.Answer(c.code, students[0], "q2", "no"));
  Json q2 = Ok(rooms.View(c.code, c.token))["question"];
  EXPECT_EQ(q2["votes"], (Json{{{"answered", 1}, {"seconds", 0}, {"counts", {0, 1}}}}));
  EXPECT_EQ(q2["phase"], "vote");
  EXPECT_FALSE(q2["revealed"]);
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

// Peer instruction: a room with a question's students and a clock the test
// moves (never sleeps).
struct Hall {
  explicit Hall(int n) : c(Ok(rooms.Create())) {
    for (int i = 0; i < n; ++i) students.push_back(Ok(rooms.Join(c.code, ""))["student"]);
  }
  Changed Ask(Json seconds = nullptr) {
    Json q = Q("q", {"a", "b", "c"});
    if (!seconds.is_null()) q["seconds"] = seconds;
    return Ok(rooms.Ask(c.code, c.token, q));
  }
  Result<Changed> To(Phase phase, const Json& seconds = 0) {
    return rooms.Advance(c.code, c.token, phase, seconds);
  }
  Result<Changed> Vote(int student, const std::string& choice, int vote = 0) {
    return rooms.Answer(c.code, students[static_cast<std::size_t>(student)], "q", choice, vote);
  }
  Json Teacher() { return Ok(rooms.View(c.code, c.token)); }
  Json Student() { return Ok(rooms.View(c.code)); }
  Json Counts(std::size_t vote) { return Teacher()["question"]["votes"][vote - 1]["counts"]; }

  FakeClock clock;
  Rooms rooms{Limits{}, clock.fn()};
  Created c;
  std::vector<std::string> students;
};

// Whether a question's view shows any tally at all.
bool AnyCounts(const Json& question) {
  if (question.contains("counts")) return true;
  for (const Json& v : question["votes"]) {
    if (v.contains("counts")) return true;
  }
  return false;
}

TEST(Rooms, ThePeerInstructionPathKeepsEachVotesCounts) {
  Hall h(6);
  h.Ask();
  for (int i = 0; i < 6; ++i) Ok(h.Vote(i, i < 4 ? "a" : "b"));

  Changed closed = Ok(h.To(Phase::kClosed));
  EXPECT_EQ(closed.event->name, "question");
  EXPECT_EQ(closed.event->data["phase"], "closed");
  EXPECT_EQ(closed.event->data["vote"], 1);
  EXPECT_EQ(closed.event->data["answered"], 6);
  EXPECT_EQ(closed.reply["question"]["votes"][0]["counts"], (Json{4, 2, 0}));

  Changed discuss = Ok(h.To(Phase::kDiscuss));
  EXPECT_EQ(discuss.event->data["phase"], "discuss");
  EXPECT_EQ(discuss.event->data["vote"], 1);
  EXPECT_TRUE(discuss.event->data["ms_left"].is_null());

  h.clock.t += std::chrono::seconds(90);  // the class talks it over
  Changed second = Ok(h.To(Phase::kVote, 60));
  EXPECT_EQ(second.event->data["phase"], "vote");
  EXPECT_EQ(second.event->data["vote"], 2);
  EXPECT_EQ(second.event->data["answered"], 0);
  EXPECT_EQ(second.event->data["ms_left"], 60000);
  EXPECT_EQ(second.event->data["votes"],
            (Json{{{"answered", 6}, {"seconds", 0}}, {{"answered", 0}, {"seconds", 60}}}));
  EXPECT_EQ(second.reply["question"]["votes"][0]["counts"], (Json{4, 2, 0}));
  EXPECT_EQ(second.reply["question"]["votes"][1]["counts"], (Json{0, 0, 0}));

  // Five answer again, most of them changed; the sixth does not answer.
  for (int i = 0; i < 5; ++i) {
    Changed a = Ok(h.Vote(i, i == 0 ? "a" : "b"));
    EXPECT_EQ(a.reply, (Json{{"id", "q"}, {"vote", 2}, {"answered", i + 1}}));
    if (i == 0) {
      ASSERT_TRUE(a.event);  // the last "answers" was told in vote 1, 90 s ago
      EXPECT_EQ(a.event->data, a.reply);
    }
  }
  EXPECT_EQ(h.Counts(1), (Json{4, 2, 0}));
  EXPECT_EQ(h.Counts(2), (Json{1, 4, 0}));
  EXPECT_EQ(h.Student()["question"]["answered"], 5);

  h.clock.t += std::chrono::seconds(10);
  Changed closed2 = Ok(h.To(Phase::kClosed));
  EXPECT_EQ(closed2.event->data["phase"], "closed");
  EXPECT_EQ(closed2.event->data["vote"], 2);
  Changed revealed = Ok(h.To(Phase::kRevealed));
  EXPECT_EQ(revealed.event->data["phase"], "revealed");
  EXPECT_TRUE(revealed.event->data["revealed"]);
  EXPECT_EQ(revealed.event->data["vote"], 2);
  EXPECT_EQ(revealed.event->data["votes"],
            (Json{{{"answered", 6}, {"seconds", 0}, {"counts", {4, 2, 0}}},
                  {{"answered", 5}, {"seconds", 60}, {"counts", {1, 4, 0}}}}));
  EXPECT_EQ(h.Student()["question"], revealed.event->data);
}

TEST(Rooms, AStudentAnswersOncePerVoteAndAgainInTheSecond) {
  Hall h(2);
  h.Ask();
  EXPECT_EQ(Ok(h.Vote(0, "a")).reply["answered"], 1);
  EXPECT_EQ(Refused(h.Vote(0, "b")), Code::kAnsweredAlready);
  Ok(h.To(Phase::kDiscuss));
  EXPECT_EQ(Refused(h.Vote(1, "a")), Code::kVoteClosed);  // talking, not voting
  Ok(h.To(Phase::kVote));
  EXPECT_EQ(Ok(h.Vote(0, "b")).reply["answered"], 1);
  EXPECT_EQ(Refused(h.Vote(0, "a")), Code::kAnsweredAlready);
  EXPECT_EQ(Ok(h.Vote(1, "b")).reply["answered"], 2);
  Json votes = h.Teacher()["question"]["votes"];
  EXPECT_EQ(votes, (Json{{{"answered", 1}, {"seconds", 0}, {"counts", {1, 0, 0}}},
                         {{"answered", 2}, {"seconds", 0}, {"counts", {0, 2, 0}}}}));
}

TEST(Rooms, StudentsSeeNoCountsOfEitherVoteUntilTheRevealTheTeacherAlways) {
  Hall h(3);
  auto check = [&](const Changed& changed, const char* phase) {
    SCOPED_TRACE(phase);
    EXPECT_EQ(changed.event->data["phase"], phase);
    EXPECT_FALSE(AnyCounts(changed.event->data));
    EXPECT_FALSE(AnyCounts(h.Student()["question"]));
    // A student's token is no teacher's.
    EXPECT_FALSE(AnyCounts(Ok(h.rooms.View(h.c.code, h.students[0]))["question"]));
    for (const Json& v : changed.reply["question"]["votes"]) EXPECT_TRUE(v.contains("counts"));
    const Json teacher = h.Teacher();  // kept: a range over a temporary's member would dangle
    for (const Json& v : teacher["question"]["votes"]) EXPECT_TRUE(v.contains("counts"));
  };
  check(h.Ask(), "vote");
  for (int i = 0; i < 3; ++i) Ok(h.Vote(i, "c"));
  check(Ok(h.To(Phase::kClosed)), "closed");
  check(Ok(h.To(Phase::kDiscuss)), "discuss");
  check(Ok(h.To(Phase::kVote)), "vote");
  Ok(h.Vote(0, "a"));
  check(Ok(h.To(Phase::kClosed)), "closed");

  Changed revealed = Ok(h.rooms.Reveal(h.c.code, h.c.token));
  const Json both = Json{Json{0, 0, 3}, Json{1, 0, 0}};
  for (const Json& q : {revealed.event->data, h.Student()["question"], h.Teacher()["question"]}) {
    ASSERT_EQ(q["votes"].size(), 2u);
    EXPECT_EQ(q["votes"][0]["counts"], both[0]);
    EXPECT_EQ(q["votes"][1]["counts"], both[1]);
  }
}

// Every phase the question can be in, against every phase the teacher can
// ask for: what the diagram in rooms.h allows goes, the rest is refused with
// both names and leaves the room as it was, for the teacher and the class.
TEST(Rooms, EveryPhaseChangeIsAllowedOrRefusedAndARefusalChangesNothing) {
  using enum Phase;
  struct Start {
    const char* name;
    std::vector<Phase> path;  // after the question is asked
    std::set<Phase> allowed;
  };
  const std::vector<Start> starts = {
      {"vote", {}, {kClosed, kDiscuss, kRevealed}},
      {"closed", {kClosed}, {kDiscuss, kVote, kRevealed}},
      {"discuss", {kDiscuss}, {kVote, kRevealed}},
      {"discuss", {kClosed, kDiscuss}, {kVote, kRevealed}},
      {"vote", {kDiscuss, kVote}, {kClosed, kRevealed}},
      {"closed", {kDiscuss, kVote, kClosed}, {kRevealed}},
      {"revealed", {kRevealed}, {}},
      {"revealed", {kClosed, kRevealed}, {}},
      {"revealed", {kDiscuss, kVote, kRevealed}, {}},
  };
  for (const Start& start : starts) {
    for (Phase to : {kVote, kClosed, kDiscuss, kRevealed}) {
      Hall h(2);
      h.Ask(20);
      Ok(h.Vote(0, "a"));
      for (Phase p : start.path) {
        Ok(h.To(p));
        if (p == kVote) Ok(h.Vote(0, "b"));
      }
      SCOPED_TRACE(std::string(start.name) + " after " + std::to_string(start.path.size()) + " step(s), to " +
                   std::string(PhaseName(to)));
      const std::size_t votes = h.Teacher()["question"]["votes"].size();
      ASSERT_EQ(h.Teacher()["question"]["phase"], start.name);
      const Json teacher = h.Teacher(), student = h.Student();
      Result<Changed> moved = h.To(to, 30);
      if (to == kRevealed && std::string(start.name) == "revealed") {
        // Revealed again (a double click): no error, no change, no news.
        ASSERT_TRUE(moved.ok()) << CodeName(moved.status().code());
        EXPECT_FALSE(moved.value().event);
        EXPECT_EQ(h.Teacher(), teacher);
        EXPECT_EQ(h.Student(), student);
        continue;
      }
      if (start.allowed.contains(to)) {
        ASSERT_TRUE(moved.ok()) << CodeName(moved.status().code());
        EXPECT_EQ(moved.value().event->data["phase"], PhaseName(to));
        EXPECT_EQ(h.Student()["question"]["phase"], PhaseName(to));
        EXPECT_EQ(h.Teacher()["question"]["votes"].size(), to == kVote ? 2u : votes);
        if (to == kVote) {
          EXPECT_EQ(h.Student()["question"]["ms_left"], 30000);
        }
        continue;
      }
      ASSERT_EQ(Refused(moved), Code::kBadPhase);
      EXPECT_EQ(moved.status().word(0), start.name);
      EXPECT_EQ(moved.status().word(1), PhaseName(to));
      EXPECT_NE(catalogue::Reason(moved.status(), Lang::kEn)
                    .find("from \"" + std::string(start.name) + "\" to \"" + std::string(PhaseName(to)) + "\""),
                std::string::npos);
      EXPECT_EQ(h.Teacher(), teacher);
      EXPECT_EQ(h.Student(), student);
    }
  }
  // With no question there is no phase to change.
  Hall h(1);
  const Json teacher = h.Teacher();
  for (Phase to : {kVote, kClosed, kDiscuss, kRevealed}) EXPECT_EQ(Refused(h.To(to)), Code::kNoQuestion);
  EXPECT_EQ(Refused(h.rooms.Reveal(h.c.code, h.c.token)), Code::kNoQuestion);
  EXPECT_EQ(h.Teacher(), teacher);
}

TEST(Rooms, ACountdownClosesTheVoteByItself) {
  Hall h(3);
  Changed asked = h.Ask(20);
  EXPECT_EQ(asked.event->data["ms_left"], 20000);
  EXPECT_EQ(asked.event->data["votes"][0]["seconds"], 20);
  h.clock.t += std::chrono::seconds(5);
  EXPECT_EQ(h.Student()["question"]["ms_left"], 15000);
  EXPECT_EQ(h.Teacher()["question"]["ms_left"], 15000);
  Ok(h.Vote(0, "a"));
  h.clock.t += std::chrono::milliseconds(14999);
  EXPECT_EQ(h.Student()["question"]["ms_left"], 1);
  Ok(h.Vote(1, "b"));  // just in time
  h.clock.t += std::chrono::milliseconds(1);
  // The deadline: closed for everyone, though nobody asked it to close.
  for (const Json& room : {h.Student(), h.Teacher()}) {
    EXPECT_EQ(room["question"]["phase"], "closed");
    EXPECT_TRUE(room["question"]["ms_left"].is_null());
  }
  EXPECT_EQ(Refused(h.Vote(2, "a")), Code::kVoteClosed);
  EXPECT_EQ(h.Counts(1), (Json{1, 1, 0}));
  EXPECT_EQ(h.Teacher()["question"]["answered"], 2);
  EXPECT_EQ(Refused(h.To(Phase::kClosed)), Code::kBadPhase);  // it is closed already

  // The second vote's countdown runs from its own opening.
  h.clock.t += std::chrono::minutes(3);
  Ok(h.To(Phase::kDiscuss));
  Changed second = Ok(h.To(Phase::kVote, 30));
  EXPECT_EQ(second.event->data["ms_left"], 30000);
  EXPECT_EQ(second.event->data["votes"][0]["seconds"], 20);
  EXPECT_EQ(second.event->data["votes"][1]["seconds"], 30);
  Ok(h.Vote(2, "c"));
  h.clock.t += std::chrono::seconds(31);
  EXPECT_EQ(h.Student()["question"]["phase"], "closed");
  EXPECT_EQ(Refused(h.Vote(0, "c")), Code::kVoteClosed);
  EXPECT_EQ(h.Counts(2), (Json{0, 0, 1}));
  EXPECT_EQ(Ok(h.To(Phase::kRevealed)).event->data["phase"], "revealed");
}

TEST(Rooms, AnAnswerMeantForAnotherVoteIsRefused) {
  Hall h(3);
  h.Ask();
  EXPECT_EQ(Refused(h.Vote(0, "a", 2)), Code::kVoteClosed);  // vote 2 is not open yet
  Ok(h.Vote(0, "a", 1));
  Ok(h.To(Phase::kDiscuss));
  Ok(h.To(Phase::kVote));
  // Sent during vote 1, arriving in vote 2: not counted in the wrong vote.
  for (int vote : {1, 3, -1}) EXPECT_EQ(Refused(h.Vote(1, "a", vote)), Code::kVoteClosed) << vote;
  EXPECT_EQ(h.Teacher()["question"]["votes"][1]["answered"], 0);
  EXPECT_EQ(h.Counts(2), (Json{0, 0, 0}));
  EXPECT_EQ(h.Counts(1), (Json{1, 0, 0}));
  Ok(h.Vote(1, "b", 2));
  Ok(h.Vote(2, "b"));  // 0: whichever is open
  EXPECT_EQ(h.Counts(2), (Json{0, 2, 0}));
}

TEST(Rooms, ABadCountdownIsRefusedAndChangesNothing) {
  Hall h(1);
  const std::vector<Json> bad = {Json(-1), Json(601), Json(1.5), Json(20.0), Json("20"), Json(true),
                                 Json(nullptr), Json::array({20}), Json(std::uint64_t{1} << 63)};
  for (const Json& seconds : bad) {
    Json q = Q("q", {"a", "b"});
    q["seconds"] = seconds;
    EXPECT_EQ(Refused(h.rooms.Ask(h.c.code, h.c.token, q)), Code::kBadCountdown) << seconds.dump();
  }
  EXPECT_TRUE(h.Teacher()["question"].is_null());

  EXPECT_EQ(h.Ask(600).reply["question"]["ms_left"], 600000);  // the most
  Ok(h.Vote(0, "a"));
  Ok(h.To(Phase::kDiscuss));
  const Json teacher = h.Teacher(), student = h.Student();
  for (const Json& seconds : bad) {
    Json q = Q("other", {"a", "b"});
    q["seconds"] = seconds;
    EXPECT_EQ(Refused(h.rooms.Ask(h.c.code, h.c.token, q)), Code::kBadCountdown) << seconds.dump();
    Result<Changed> second = h.To(Phase::kVote, seconds);
    EXPECT_EQ(Refused(second), Code::kBadCountdown) << seconds.dump();
    EXPECT_NE(catalogue::Reason(second.status(), Lang::kEn).find("to 600"), std::string::npos);
  }
  EXPECT_EQ(h.Teacher(), teacher);
  EXPECT_EQ(h.Student(), student);
  EXPECT_TRUE(h.Teacher()["question"]["ms_left"].is_null());
  Changed none = Ok(h.To(Phase::kVote, 0));  // 0: no countdown
  EXPECT_TRUE(none.event->data["ms_left"].is_null());
  EXPECT_EQ(none.event->data["votes"][1]["seconds"], 0);
}

TEST(Rooms, ASingleVoteIsRevealedStraightFromTheVote) {
  Hall h(3);
  h.Ask(20);
  Ok(h.Vote(0, "a"));
  Ok(h.Vote(1, "a"));
  Ok(h.Vote(2, "b"));
  Changed revealed = Ok(h.rooms.Reveal(h.c.code, h.c.token));
  EXPECT_EQ(revealed.event->data["phase"], "revealed");
  EXPECT_TRUE(revealed.event->data["revealed"]);
  EXPECT_EQ(revealed.event->data["vote"], 1);
  EXPECT_TRUE(revealed.event->data["ms_left"].is_null());
  EXPECT_EQ(revealed.event->data["votes"], (Json{{{"answered", 3}, {"seconds", 20}, {"counts", {2, 1, 0}}}}));
  EXPECT_EQ(h.Student()["question"], revealed.event->data);
  EXPECT_EQ(Refused(h.Vote(0, "b")), Code::kVoteClosed);
  EXPECT_EQ(Refused(h.To(Phase::kVote)), Code::kBadPhase);  // no second vote after the reveal
  EXPECT_FALSE(Ok(h.rooms.Reveal(h.c.code, h.c.token)).event);  // again: nothing new
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
      {Code::kAnsweredAlready, "answered_already"}, {Code::kBadPhase, "bad_phase"},
      {Code::kVoteClosed, "vote_closed"},   {Code::kBadCountdown, "bad_countdown"}};
  for (const auto& [code, name] : named) EXPECT_EQ(CodeName(code), name);
}

}  // namespace
}  // namespace cutline::lecture
