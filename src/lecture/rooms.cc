#include "lecture/rooms.h"

#include <sys/random.h>

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

namespace cutline::lecture {

namespace {

// Read aloud and typed from a projector: no 0/O, 1/I/L, 5/S or 2/Z pairs.
constexpr std::string_view kCodeAlphabet = "ABCDEFGHJKMNPQRTUVWXY346789";
constexpr std::size_t kCodeLength = 6;

void Random(void* out, std::size_t size) {
  auto* bytes = static_cast<unsigned char*>(out);
  while (size > 0) {
    ssize_t got = getrandom(bytes, size, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("the system's randomness is not available");
    }
    bytes += got;
    size -= static_cast<std::size_t>(got);
  }
}

// Compares the whole of both, so that the time taken says nothing of how
// much of a guessed token was right.
bool SameSecret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

}  // namespace

std::string NewToken() {
  std::array<unsigned char, 16> bytes{};
  Random(bytes.data(), bytes.size());
  std::string out;
  for (unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return out;
}

std::string_view PhaseName(Phase phase) {
  switch (phase) {
    case Phase::kVote: return "vote";
    case Phase::kClosed: return "closed";
    case Phase::kDiscuss: return "discuss";
    case Phase::kRevealed: return "revealed";
  }
  return "?";
}

std::optional<Phase> PhaseNamed(std::string_view name) {
  for (Phase p : {Phase::kVote, Phase::kClosed, Phase::kDiscuss, Phase::kRevealed}) {
    if (PhaseName(p) == name) return p;
  }
  return std::nullopt;
}

// One vote on a question: its answers, and when it closes by itself.
struct Vote {
  std::vector<std::uint64_t> counts;  // per choice
  std::set<std::uint64_t> answered;   // student numbers
  std::chrono::seconds countdown{0};  // 0: none
  std::optional<Clock::time_point> deadline;
};

struct Question {
  std::string id;
  std::vector<std::string> choices;
  Json detail;                        // the page's words for it, as the teacher's page sent them
  std::vector<Vote> votes;            // one or two
  Phase phase = Phase::kVote;

  // A vote whose countdown has run out is closed, whoever looks first.
  void Settle(Clock::time_point now) {
    const Vote& v = votes.back();
    if (phase == Phase::kVote && v.deadline && now >= *v.deadline) phase = Phase::kClosed;
  }
  void OpenVote(std::chrono::seconds countdown, Clock::time_point now) {
    Vote v;
    v.counts.assign(choices.size(), 0);
    v.countdown = countdown;
    if (countdown.count() > 0) v.deadline = now + countdown;
    votes.push_back(std::move(v));
    phase = Phase::kVote;
  }
};

struct Rooms::Room {
  std::string code;
  std::string token;
  Json state = nullptr;        // null until the teacher's page first drives
  std::uint64_t version = 0;   // how many times it has been driven
  std::map<std::string, std::uint64_t, std::less<>> students;  // token -> number
  std::optional<Question> question;
  Clock::time_point last;      // the last thing anyone did in it
  std::optional<Clock::time_point> answers_told;  // when pages last heard the count

  // The tallies are the teacher's until the reveal: students answer
  // unswayed. (Whether the teacher's own page shows them during a vote is
  // the teacher's choice, made on that page.) A running countdown is sent as
  // the milliseconds left, which each page counts down by its own clock.
  Json QuestionView(bool teacher, Clock::time_point now) {
    if (!question) return nullptr;
    Question& q = *question;
    q.Settle(now);
    const bool revealed = q.phase == Phase::kRevealed;
    Json votes = Json::array();
    for (const Vote& v : q.votes) {
      Json one{{"answered", v.answered.size()}, {"seconds", v.countdown.count()}};
      if (teacher || revealed) one["counts"] = v.counts;
      votes.push_back(std::move(one));
    }
    const Vote& current = q.votes.back();
    Json left = nullptr;
    if (q.phase == Phase::kVote && current.deadline) {
      left = std::chrono::duration_cast<std::chrono::milliseconds>(*current.deadline - now).count();
    }
    return Json{{"id", q.id},
                {"choices", q.choices},
                {"detail", q.detail},
                {"phase", PhaseName(q.phase)},
                {"vote", q.votes.size()},
                {"revealed", revealed},
                {"answered", current.answered.size()},
                {"ms_left", left},
                {"votes", std::move(votes)}};
  }
  Json View(bool teacher, Clock::time_point now) {
    return Json{{"code", code},
                {"version", version},
                {"state", state},
                {"students", students.size()},
                {"question", QuestionView(teacher, now)},
                {"teacher", teacher}};
  }
};

Rooms::Rooms(Limits limits, std::function<Clock::time_point()> now)
    : limits_(limits), now_(std::move(now)) {}

Rooms::~Rooms() = default;

std::size_t Rooms::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

void Rooms::DropExpired() {
  const Clock::time_point now = now_();
  std::erase_if(rooms_, [&](const auto& entry) {
    return now - entry.second->last >= limits_.idle_lifetime;
  });
}

Rooms::Room* Rooms::Find(std::string_view code) {
  DropExpired();
  auto it = rooms_.find(code);
  return it == rooms_.end() ? nullptr : it->second.get();
}

Result<Rooms::Room*> Rooms::Teacher(std::string_view code, std::string_view token) {
  Room* room = Find(code);
  if (!room) return Status::Error(Code::kNoRoom);
  if (!SameSecret(room->token, token)) return Status::Error(Code::kNotTeacher);
  return room;
}

std::string Rooms::NewCode() {
  for (;;) {
    std::array<unsigned char, kCodeLength> bytes{};
    Random(bytes.data(), bytes.size());
    std::string code;
    // 27 letters: a byte's value modulo 27 leans a little toward the first
    // few, which costs a code nothing of its purpose (it is not a secret).
    for (unsigned char b : bytes) code += kCodeAlphabet[b % kCodeAlphabet.size()];
    if (!rooms_.contains(code)) return code;
  }
}

Result<Created> Rooms::Create() {
  std::lock_guard lock(mutex_);
  DropExpired();
  if (rooms_.size() >= limits_.max_rooms) return Status::Error(Code::kTooManyRooms, limits_.max_rooms);
  auto room = std::make_unique<Room>();
  room->code = NewCode();
  room->token = NewToken();
  room->last = now_();
  Created created{room->code, room->token, room->View(true, room->last)};
  rooms_.emplace(room->code, std::move(room));
  return created;
}

Result<Json> Rooms::View(std::string_view code, std::string_view token) {
  std::lock_guard lock(mutex_);
  Room* room = Find(code);
  if (!room) return Status::Error(Code::kNoRoom);
  return room->View(!token.empty() && SameSecret(room->token, token), now_());
}

Result<Json> Rooms::Join(std::string_view code, std::string_view student) {
  std::lock_guard lock(mutex_);
  Room* room = Find(code);
  if (!room) return Status::Error(Code::kNoRoom);
  room->last = now_();
  if (!student.empty() && room->students.contains(student)) {
    return Json{{"student", student}, {"room", room->View(false, room->last)}};
  }
  if (room->students.size() >= limits_.max_students) return Status::Error(Code::kRoomFull, limits_.max_students);
  std::string token = NewToken();
  room->students.emplace(token, room->students.size());
  return Json{{"student", token}, {"room", room->View(false, room->last)}};
}

Result<Changed> Rooms::Drive(std::string_view code, std::string_view token, const Json& state) {
  std::lock_guard lock(mutex_);
  auto found = Teacher(code, token);
  if (!found.ok()) return found.status();
  Room* room = *found;
  auto scenario = state.is_object() ? state.find("scenario") : state.end();
  if (!state.is_object() || scenario == state.end() || !scenario->is_string() ||
      state.dump().size() > limits_.max_state_bytes) {
    return Status::Error(Code::kBadState, limits_.max_state_bytes);
  }
  room->state = state;
  ++room->version;
  room->last = now_();
  Json data{{"version", room->version}, {"state", room->state}};
  return Changed{data, Event{"state", data}};
}

Result<Changed> Rooms::Ask(std::string_view code, std::string_view token, const Json& question) {
  std::lock_guard lock(mutex_);
  auto found = Teacher(code, token);
  if (!found.ok()) return found.status();
  Room* room = *found;
  auto text_ok = [&](const Json& j) {
    return j.is_string() && !j.get_ref<const std::string&>().empty() &&
           j.get_ref<const std::string&>().size() <= limits_.max_text;
  };
  // One refusal for every way a question can be wrong: it says the limits.
  auto bad_question = [&] {
    return Status::Error(Code::kBadQuestion, limits_.max_choices, limits_.max_text,
                         limits_.max_state_bytes);
  };
  if (!question.is_object() || !question.contains("id") || !text_ok(question["id"]) ||
      !question.contains("choices") || !question["choices"].is_array() ||
      question["choices"].empty() || question["choices"].size() > limits_.max_choices ||
      question.dump().size() > limits_.max_state_bytes) {
    return bad_question();
  }
  Question q;
  q.id = question["id"].get<std::string>();
  q.detail = question.value("detail", Json());
  for (const Json& c : question["choices"]) {
    if (!text_ok(c)) return bad_question();
    std::string choice = c.get<std::string>();
    if (std::find(q.choices.begin(), q.choices.end(), choice) != q.choices.end()) {
      return bad_question();
    }
    q.choices.push_back(std::move(choice));
  }
  auto countdown = Countdown(question.value("seconds", Json(0)));
  if (!countdown.ok()) return countdown.status();
  const Clock::time_point now = now_();
  q.OpenVote(*countdown, now);
  room->question = std::move(q);
  room->answers_told.reset();
  room->last = now;
  return Changed{room->View(true, now), Event{"question", room->QuestionView(false, now)}};
}

Result<std::chrono::seconds> Rooms::Countdown(const Json& seconds) const {
  const auto most = limits_.max_countdown.count();
  if (!seconds.is_number_integer() || seconds.get<std::int64_t>() < 0 || seconds.get<std::int64_t>() > most) {
    return Status::Error(Code::kBadCountdown, most);
  }
  return std::chrono::seconds(seconds.get<std::int64_t>());
}

Result<Changed> Rooms::Advance(std::string_view code, std::string_view token, Phase to,
                               const Json& seconds) {
  std::lock_guard lock(mutex_);
  auto found = Teacher(code, token);
  if (!found.ok()) return found.status();
  Room* room = *found;
  if (!room->question) return Status::Error(Code::kNoQuestion);
  // Only a vote has a countdown.
  auto countdown = Countdown(to == Phase::kVote ? seconds : Json(0));
  if (!countdown.ok()) return countdown.status();
  Question& q = *room->question;
  const Clock::time_point now = now_();
  q.Settle(now);
  const Phase from = q.phase;
  // Revealing twice (a double click, a page that retries) is no change and no news.
  if (from == Phase::kRevealed && to == Phase::kRevealed) return Changed{room->View(true, now), std::nullopt};
  const bool first = q.votes.size() == 1;
  bool allowed = false;
  switch (to) {
    case Phase::kClosed: allowed = from == Phase::kVote; break;
    case Phase::kDiscuss: allowed = first && (from == Phase::kVote || from == Phase::kClosed); break;
    case Phase::kVote: allowed = first && (from == Phase::kDiscuss || from == Phase::kClosed); break;
    case Phase::kRevealed: allowed = from != Phase::kRevealed; break;
  }
  if (!allowed) {
    return Status::Error(Code::kBadPhase, std::string(PhaseName(from)), std::string(PhaseName(to)));
  }
  if (to == Phase::kVote) {
    q.OpenVote(*countdown, now);
    room->answers_told.reset();  // the new vote's first answer is told at once
  } else {
    q.phase = to;
  }
  room->last = now;
  return Changed{room->View(true, now), Event{"question", room->QuestionView(false, now)}};
}

Result<Changed> Rooms::Reveal(std::string_view code, std::string_view token) {
  return Advance(code, token, Phase::kRevealed);
}

Result<Changed> Rooms::Answer(std::string_view code, std::string_view student,
                              std::string_view question, std::string_view choice, int vote) {
  std::lock_guard lock(mutex_);
  Room* room = Find(code);
  if (!room) return Status::Error(Code::kNoRoom);
  auto who = room->students.find(student);
  if (who == room->students.end()) return Status::Error(Code::kNotStudent);
  if (!room->question) return Status::Error(Code::kNoQuestion);
  Question& q = *room->question;
  if (q.id != question) return Status::Error(Code::kOtherQuestion);
  const Clock::time_point now = now_();
  q.Settle(now);
  if (q.phase != Phase::kVote || (vote != 0 && static_cast<std::size_t>(vote) != q.votes.size())) {
    return Status::Error(Code::kVoteClosed);
  }
  auto at = std::find(q.choices.begin(), q.choices.end(), choice);
  if (at == q.choices.end()) return Status::Error(Code::kBadChoice);
  Vote& v = q.votes.back();
  if (!v.answered.insert(who->second).second) return Status::Error(Code::kAnsweredAlready);
  ++v.counts[static_cast<std::size_t>(at - q.choices.begin())];
  room->last = now;
  // Everyone hears how many have answered (what they answered waits for the
  // reveal), a few times a second at most.
  Json data{{"id", q.id}, {"vote", q.votes.size()}, {"answered", v.answered.size()}};
  if (room->answers_told && now - *room->answers_told < limits_.answers_every) return Changed{data, std::nullopt};
  room->answers_told = now;
  return Changed{data, Event{"answers", data}};
}

}  // namespace cutline::lecture
