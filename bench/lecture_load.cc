// `make bench-lecture`: a lecture hall against the real `cutline serve`. One
// room; N students (1,000) join it and follow its event stream; the teacher
// steps once a second through demo 3. For every step and every student it
// measures the time from the teacher's request to the student's stream
// receiving the step, and, as a page does next, to the student's own
// POST /api/run of that step being answered. Every ten steps the teacher puts
// a question to the class as peer instruction does: a first vote (with a
// countdown), a discussion, a second vote, the reveal. Each student answers
// each vote after a moment's thought, some changing their answer in the
// second. For every vote and every student it measures the time from the
// teacher's request opening the vote to the student's stream showing it, and
// it checks that no answer was lost: every answer sent was accepted, and
// each vote's tally, as the teacher reads it at the reveal, is the answers
// sent in that vote, choice by choice.
//
// It plays the hall twice, in one run: with the server's run cache (the
// default) and without it (--run-cache 0), the obvious alternative where
// every page's run is computed afresh. One event-driven client thread plays
// every connection, on the same cores as the server: the figures include
// that competition. It prints a Markdown table (docs/performance.md) with the
// machine it ran on.
#include <sys/resource.h>

#include <utility>  // before Asio: its awaitable.hpp uses std::exchange

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "base/percentile.h"
#include "scenario/demos.h"

#include "machine.h"
#include "server_process.h"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using asio::awaitable;
using asio::use_awaitable;
using Clock = std::chrono::steady_clock;
using json = nlohmann::json;
using namespace std::chrono_literals;

constexpr auto kTimeout = 30s;

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

// One vote on one question, as the client saw it.
struct VoteRecord {
  Clock::time_point opened;                // the teacher's request opening it was sent
  Clock::time_point last_answer;           // the last answer accepted
  int sent = 0;                            // answers sent
  int accepted = 0;                        // of which answered 200
  std::vector<std::uint64_t> sent_counts;  // per choice, as sent
  json tallied;                            // per choice, the teacher's tally at the reveal
};

// What each question offers.
const json kChoices = {"yes", "no"};
constexpr int kCountdown = 20;  // seconds, each vote's

struct Hall {
  tcp::endpoint endpoint;
  std::string code;
  std::string token;
  // When the teacher sent step v (v = 1, 2, ...), and its scenario.
  std::map<std::uint64_t, Clock::time_point> sent;
  std::vector<double> push_ms;  // step sent -> a student's stream has it
  std::vector<double> run_ms;   // step sent -> that student's run answered
  std::vector<double> answer_ms;
  int answers = 0;
  int answer_failures = 0;
  int run_failures = 0;
  int dropped = 0;  // streams that ended before the lecture did
  int teacher_failures = 0;  // the teacher's requests not answered 200
  // Per question and vote (1, 2).
  std::map<std::pair<std::string, int>, VoteRecord> votes;
  std::vector<double> vote_ms;  // vote opened -> a student's stream shows it
  std::uint64_t steps = 0;
  bool over = false;
};

http::request<http::string_body> Request(http::verb verb, const std::string& target, const std::string& body,
                                         const std::string& token = "") {
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  if (!token.empty()) req.set("X-Cutline-Teacher", token);
  req.prepare_payload();
  return req;
}

// One request and its answer on a keep-alive connection, reconnecting once.
awaitable<std::optional<http::response<http::string_body>>> Exchange(beast::tcp_stream& s, beast::flat_buffer& buf,
                                                                     const tcp::endpoint& at,
                                                                     const http::request<http::string_body>& req) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    beast::error_code ec;
    if (!s.socket().is_open()) {
      buf.clear();
      s.expires_after(kTimeout);
      co_await s.async_connect(at, asio::redirect_error(use_awaitable, ec));
      if (ec) continue;
    }
    s.expires_after(kTimeout);
    co_await http::async_write(s, req, asio::redirect_error(use_awaitable, ec));
    if (!ec) {
      http::response<http::string_body> res;
      co_await http::async_read(s, buf, res, asio::redirect_error(use_awaitable, ec));
      if (!ec) co_return res;
    }
    s.close();
  }
  co_return std::nullopt;
}

awaitable<void> Sleep(Clock::duration d) {
  asio::steady_timer timer(co_await asio::this_coro::executor, d);
  co_await timer.async_wait(use_awaitable);
}

// A student's page as a browser runs it: the stream is read as events come,
// and what an event starts (a run, an answer) goes on beside it, so that a
// slow run never delays the reading of the next step.
struct Page {
  Page(asio::any_io_executor ex, Hall& h, unsigned seed, bool ja)
      : hall(h), rng(seed), japanese(ja), api(ex), runs(ex) {}
  Hall& hall;
  std::mt19937 rng;
  bool japanese;
  std::string student;
  beast::tcp_stream api;  // joins and answers
  beast::flat_buffer api_buf;
  beast::tcp_stream runs;  // /api/run, one at a time, as the page's queue makes them
  beast::flat_buffer runs_buf;
  bool running = false;
  std::deque<std::pair<std::uint64_t, std::string>> waiting;  // steps to run, in order
  std::map<std::string, std::string> first;  // question -> the choice in its first vote
};

// Runs the waiting steps in order; a step that arrives meanwhile waits for the run before it.
awaitable<void> RunSteps(std::shared_ptr<Page> page) {
  while (!page->waiting.empty()) {
    auto [version, scenario] = std::move(page->waiting.front());
    page->waiting.pop_front();
    json run{{"scenario", scenario}, {"lang", page->japanese ? "ja" : "en"}, {"error_status", 200}};
    auto answered = co_await Exchange(page->runs, page->runs_buf, page->hall.endpoint,
                                      Request(http::verb::post, "/api/run", run.dump()));
    if (answered && answered->result_int() == 200) {
      page->hall.run_ms.push_back(Ms(Clock::now() - page->hall.sent[version]));
    } else {
      ++page->hall.run_failures;
    }
  }
  page->running = false;
}

awaitable<void> AnswerVote(std::shared_ptr<Page> page, std::string id, int vote) {
  // A moment's thought, then one answer. In the second vote, half of those
  // who said "no" have been talked round to "yes".
  co_await Sleep(std::chrono::milliseconds(page->rng() % 2500));
  std::size_t choice = page->rng() % kChoices.size();
  if (vote == 2) {
    const bool said_no = page->first[id] == "no";
    choice = said_no && page->rng() % 2 != 0 ? 1 : 0;
  }
  const std::string said = kChoices[choice];
  if (vote == 1) page->first[id] = said;
  json answer{{"student", page->student}, {"question", id}, {"choice", said}, {"vote", vote}};
  Hall& hall = page->hall;
  VoteRecord& record = hall.votes[{id, vote}];
  ++record.sent;
  ++record.sent_counts[choice];
  auto asked = Clock::now();
  auto res = co_await Exchange(page->api, page->api_buf, hall.endpoint,
                               Request(http::verb::post, "/api/rooms/" + hall.code + "/answer", answer.dump()));
  if (res && res->result_int() == 200) {
    ++hall.answers;
    ++record.accepted;
    hall.answer_ms.push_back(Ms(Clock::now() - asked));
    record.last_answer = std::max(record.last_answer, Clock::now());
  } else {
    ++hall.answer_failures;
  }
}

// A student: joins, follows the room's stream, runs each step as the page
// does, and answers each vote once.
awaitable<void> Student(Hall& hall, unsigned seed, bool japanese) {
  auto ex = co_await asio::this_coro::executor;
  auto page = std::make_shared<Page>(ex, hall, seed, japanese);
  auto joined = co_await Exchange(page->api, page->api_buf, hall.endpoint,
                                  Request(http::verb::post, "/api/rooms/" + hall.code + "/join", "{}"));
  if (!joined || joined->result_int() != 200) {
    ++hall.dropped;
    co_return;
  }
  page->student = json::parse(joined->body())["student"];

  tcp::socket stream(ex);
  beast::error_code ec;
  co_await stream.async_connect(hall.endpoint, asio::redirect_error(use_awaitable, ec));
  std::string head = "GET /api/rooms/" + hall.code + "/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  co_await asio::async_write(stream, asio::buffer(head), asio::redirect_error(use_awaitable, ec));
  std::string buffer;
  while (!ec) {
    std::size_t n = co_await asio::async_read_until(stream, asio::dynamic_buffer(buffer), "\n\n",
                                                    asio::redirect_error(use_awaitable, ec));
    if (ec) break;
    const auto now = Clock::now();
    std::string block = buffer.substr(0, n);
    buffer.erase(0, n);
    auto event_at = block.find("event: ");
    auto data_at = block.find("data: ");
    if (event_at == std::string::npos || data_at == std::string::npos) continue;
    std::string event = block.substr(event_at + 7, block.find('\n', event_at) - event_at - 7);
    std::string data = block.substr(data_at + 6, block.find('\n', data_at) - data_at - 6);
    if (event == "state") {
      json d = json::parse(data);
      std::uint64_t v = d["version"];
      auto sent = hall.sent.find(v);
      if (sent == hall.sent.end()) continue;
      hall.push_ms.push_back(Ms(now - sent->second));
      page->waiting.emplace_back(v, d["state"]["scenario"].get<std::string>());
      if (!page->running) {
        page->running = true;
        asio::co_spawn(ex, RunSteps(page), asio::detached);
      }
    } else if (event == "question") {
      json q = json::parse(data);
      if (q["phase"] != "vote") continue;
      const std::string id = q["id"];
      const int vote = q["vote"];
      auto record = hall.votes.find({id, vote});
      if (record == hall.votes.end()) continue;
      hall.vote_ms.push_back(Ms(now - record->second.opened));
      asio::co_spawn(ex, AnswerVote(page, id, vote), asio::detached);
    }
  }
  if (!hall.over) ++hall.dropped;
}

// One request of the teacher's; its answer's body if it was 200.
awaitable<std::optional<json>> Teach(beast::tcp_stream& api, beast::flat_buffer& buf, Hall& hall,
                                     const std::string& action, const json& body) {
  auto res = co_await Exchange(api, buf, hall.endpoint,
                               Request(http::verb::post, "/api/rooms/" + hall.code + "/" + action, body.dump(),
                                       hall.token));
  if (!res || res->result_int() != 200) {
    ++hall.teacher_failures;
    co_return std::nullopt;
  }
  co_return json::parse(res->body(), nullptr, false);
}

// The teacher: a step a second through demo 3 and, every ten steps, a
// question: vote 1 opens with the step (a 20 s countdown), the class
// discusses four steps later, vote 2 opens the step after (20 s again), and
// the tallies are revealed on the tenth step. Answers take 0-2.5 s, so every
// vote is answered before the teacher moves on (the countdowns never run out).
awaitable<void> Teacher(Hall& hall, int steps) {
  auto ex = co_await asio::this_coro::executor;
  beast::tcp_stream api(ex);
  beast::flat_buffer buf;
  const auto* demo = cutline::scenario::FindDemo(3);
  std::vector<std::string> script = {cutline::scenario::PresetScenario(*demo)};
  for (const auto& s : demo->steps) script.push_back(s.command);
  co_await Sleep(2s);  // let the hall settle after the joins
  for (int i = 1; i <= steps; ++i) {
    std::string text;
    const std::size_t upto = 1 + static_cast<std::size_t>(i) % script.size();
    for (std::size_t k = 0; k < upto && k < script.size(); ++k) text += script[k] + "\n";
    json state{{"scenario", text}, {"demo", nullptr}};
    hall.sent[static_cast<std::uint64_t>(i)] = Clock::now();
    co_await Exchange(api, buf, hall.endpoint,
                      Request(http::verb::post, "/api/rooms/" + hall.code + "/state", state.dump(), hall.token));
    const int cycle_start = (i - 1) / 10 * 10 + 1;  // the question's first step
    const std::string id = fmt::format("q{}", cycle_start);
    auto open = [&](int vote) {
      VoteRecord& record = hall.votes[{id, vote}];
      record.sent_counts.assign(kChoices.size(), 0);
      record.opened = Clock::now();
    };
    if (cycle_start + 9 <= steps) {  // the question ends within the lecture
      // (Each body is built before its co_await: GCC 12 cannot keep a
      // string literal's array alive across one.)
      std::string action = "phase";
      json body;
      switch (i - cycle_start) {
        case 0:
          open(1);
          action = "question";
          body = json::object();
          body["id"] = id;
          body["choices"] = kChoices;
          body["detail"] = nullptr;
          body["seconds"] = kCountdown;
          break;
        case 4:
          body["phase"] = "discuss";
          break;
        case 5:
          open(2);
          body["phase"] = "vote";
          body["seconds"] = kCountdown;
          break;
        case 9:
          body["phase"] = "revealed";
          break;
        default:
          break;
      }
      if (!body.is_null()) {
        auto answer = co_await Teach(api, buf, hall, action, body);
        if (answer && body.value("phase", std::string()) == "revealed") {
          // The tallies as the teacher reads them at the reveal.
          const json& votes = (*answer)["question"]["votes"];
          for (std::size_t k = 0; k < votes.size(); ++k) {
            hall.votes[{id, static_cast<int>(k) + 1}].tallied = votes[k]["counts"];
          }
        }
      }
    }
    co_await Sleep(1s);
  }
  co_await Sleep(3s);  // the last runs and answers come in
  hall.over = true;
}

struct Result {
  Hall hall;
  int students = 0;
  std::string server;
};

Result Play(const std::string& binary, const std::vector<std::string>& server_args, int students, int steps) {
  cutline::bench::ServerProcess server;
  cutline::bench::StartServer(binary, &server, server_args);
  Result r;
  r.students = students;
  Hall& hall = r.hall;
  hall.endpoint = tcp::endpoint(asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>(server.port));
  asio::io_context ioc(1);
  asio::co_spawn(ioc, [&]() -> awaitable<void> {
    beast::tcp_stream s(co_await asio::this_coro::executor);
    beast::flat_buffer b;
    auto created = co_await Exchange(s, b, hall.endpoint, Request(http::verb::post, "/api/rooms", "{}"));
    if (!created || created->result_int() != 201) throw std::runtime_error("no room");
    json c = json::parse(created->body());
    hall.code = c["code"];
    hall.token = c["token"];
  }, asio::detached);
  ioc.run();
  ioc.restart();
  for (int i = 0; i < students; ++i) {
    asio::co_spawn(ioc, Student(hall, static_cast<unsigned>(i + 1), i % 10 == 0), asio::detached);
  }
  asio::co_spawn(ioc, Teacher(hall, steps), asio::detached);
  // The students' streams stay open: stop once the teacher is done.
  asio::steady_timer stop(ioc);
  std::function<void()> check = [&] {
    if (hall.over) {
      ioc.stop();
      return;
    }
    stop.expires_after(100ms);
    stop.async_wait([&](beast::error_code) { check(); });
  };
  check();
  ioc.run();
  hall.steps = static_cast<std::uint64_t>(steps);
  return r;
}

std::string Row(const std::string& what, const Result& r) {
  const Hall& h = r.hall;
  auto p = [](const std::vector<double>& v, double q) { return cutline::Percentile(v, q); };
  auto mx = [](const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); };
  const std::size_t expected = static_cast<std::size_t>(r.students) * h.steps;
  const std::size_t votes_expected = static_cast<std::size_t>(r.students) * h.votes.size();
  // Answers per second while votes were open: every answer over the time
  // from each vote's opening to its last answer. A vote is tallied right
  // when the teacher's tally at the reveal is, choice by choice, what was
  // sent in it, and every answer sent was accepted.
  double open_seconds = 0;
  int sent = 0, tallied = 0, wrong = 0;
  for (const auto& [key, v] : h.votes) {
    if (v.last_answer > v.opened) open_seconds += std::chrono::duration<double>(v.last_answer - v.opened).count();
    sent += v.sent;
    if (v.tallied.is_array()) {
      for (const json& n : v.tallied) tallied += n.get<int>();
    }
    if (v.tallied != json(v.sent_counts) || v.accepted != v.sent) ++wrong;
  }
  return fmt::format("| {} | {} / {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {} "
                     "| {} / {} | {:.1f} | {:.1f} | {:.1f} | {} / {} | {} ({} of {} votes off) | {:.0f} | {:.1f} | {} |",
                     what, h.push_ms.size(), expected, p(h.push_ms, 50), p(h.push_ms, 99), mx(h.push_ms),
                     p(h.run_ms, 50), p(h.run_ms, 99), mx(h.run_ms), h.run_failures,
                     h.vote_ms.size(), votes_expected, p(h.vote_ms, 50), p(h.vote_ms, 99), mx(h.vote_ms),
                     h.answers, sent, tallied, wrong, h.votes.size(),
                     open_seconds > 0 ? h.answers / open_seconds : 0.0, p(h.answer_ms, 99), h.dropped);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"A lecture hall of students following one teacher on `cutline serve`"};
  std::string binary = "build-release/cutline";
  int students = 1000;
  int steps = 30;
  app.add_option("--server", binary, "The cutline binary to start")->capture_default_str();
  app.add_option("--students", students, "Students in the room")->capture_default_str()->check(CLI::Range(1, 5000));
  app.add_option("--steps", steps, "Steps the teacher takes, one a second (a question every 10)")
      ->capture_default_str()
      ->check(CLI::Range(10, 600));
  CLI11_PARSE(app, argc, argv);

  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);

  fmt::print("Machine: {}; server: {}; client: one thread, same machine.\n", cutline::bench::Machine(), binary);
  fmt::print("One room, {} students (one in ten in Japanese), the teacher stepping once a second for {} s through "
             "demo 3; every 10 steps a question in two votes ({} s countdowns), discussed between them.\n\n",
             students, steps, kCountdown);
  fmt::print("| server | steps received | push p50 ms | push p99 ms | push max ms | run p50 ms | run p99 ms | run max ms "
             "| runs failed | votes received | vote p50 ms | vote p99 ms | vote max ms | answers accepted / sent "
             "| tallied | answers/s | answer p99 ms | dropped |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::fflush(stdout);
  try {
    for (const auto& [what, args] : {std::pair<std::string, std::vector<std::string>>{"run cache (default)", {}},
                                     {"no run cache (--run-cache 0)", {"--run-cache", "0"}}}) {
      Result played = Play(binary, args, students, steps);
      fmt::print("{}\n", Row(what, played));
      if (played.hall.teacher_failures > 0) {
        fmt::print(stderr, "bench-lecture: {} of the teacher's requests were refused\n", played.hall.teacher_failures);
      }
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    fmt::print(stderr, "bench-lecture: {}\n", e.what());
    return 1;
  }
  return 0;
}
