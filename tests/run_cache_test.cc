// The server's cache of /api/run answers: the newest kept, the oldest
// forgotten past the capacity, nothing kept at capacity 0; and through the
// real server, a repeated request gets the very answer the first one got.
#include "catalogue/messages.h"
#include "server/run_cache.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

#include "server/server.h"

namespace cutline::server {
namespace {

// An answer made by `make`, counting how often it is made.
struct Maker {
  int made = 0;
  std::function<Response()> For(const std::string& body) {
    return [this, body] {
      ++made;
      return JsonResponse(200, body);
    };
  }
};

TEST(RunCache, KeepsTheNewestAndForgetsTheOldest) {
  RunCache cache(2);
  Maker m;
  EXPECT_EQ(cache.Answer("a", m.For("A")).body, "A");
  EXPECT_EQ(cache.Answer("b", m.For("B")).body, "B");
  EXPECT_EQ(cache.Answer("a", m.For("A")).body, "A");  // kept: "a" is now the newest
  EXPECT_EQ(m.made, 2);
  cache.Answer("c", m.For("C"));  // so "b" goes
  EXPECT_EQ(m.made, 3);
  cache.Answer("a", m.For("A"));
  EXPECT_EQ(m.made, 3);
  cache.Answer("b", m.For("B"));  // made again
  EXPECT_EQ(m.made, 4);
  EXPECT_EQ(cache.size(), 2u);
}

TEST(RunCache, OnlySuccessIsKeptAndCapacityZeroKeepsNothing) {
  RunCache cache(4);
  int made = 0;
  auto refusal = [&] {
    ++made;
    return JsonResponse(422, "{}");
  };
  cache.Answer("x", refusal);
  cache.Answer("x", refusal);
  EXPECT_EQ(made, 2);
  RunCache none(0);
  Maker m;
  none.Answer("a", m.For("A"));
  none.Answer("a", m.For("A"));
  EXPECT_EQ(m.made, 2);
  EXPECT_EQ(none.size(), 0u);
}

TEST(RunCache, AHallAskingAtOnceIsAnsweredByOneRun) {
  RunCache cache(4);
  std::atomic<int> made{0};
  std::vector<std::thread> hall;
  std::vector<std::string> got(16);
  for (int i = 0; i < 16; ++i) {
    hall.emplace_back([&, i] {
      got[i] = cache.Answer("same", [&] {
        ++made;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // a run takes a while
        return JsonResponse(200, "answer");
      }).body;
    });
  }
  for (auto& t : hall) t.join();
  EXPECT_EQ(made.load(), 1);
  for (const std::string& g : got) EXPECT_EQ(g, "answer");
}

TEST(RunCache, TheServerAnswersARepeatedRunAlike) {
  Options options;
  options.port = 0;
  Server server(options);
  cutline::StatusOr<int> started = server.Start();
  ASSERT_TRUE(started.ok()) << cutline::catalogue::Message(started.status(), cutline::Lang::kEn);
  int port = *started;
  httplib::Client client("127.0.0.1", port);
  const std::string body =
      nlohmann::json{{"scenario", "network P1=100 P2=100\ntransfer P1 P2 5\nsnapshot P1\n"}}.dump();
  auto first = client.Post("/api/run", body, "application/json");
  auto second = client.Post("/api/run", body, "application/json");
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(second->status, 200);
  EXPECT_EQ(first->body, second->body);
  EXPECT_NE(first->body.find("\"snapshots\""), std::string::npos);
  // A refusal is answered afresh each time, and the same way.
  auto bad = client.Post("/api/run", R"({"scenario": "transfer P1 P2 5\n"})", "application/json");
  ASSERT_TRUE(bad);
  EXPECT_EQ(bad->status, 422);
  server.Stop();
}

}  // namespace
}  // namespace cutline::server
