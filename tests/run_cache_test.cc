// The server's cache of /api/run answers: the newest kept, the oldest
// forgotten past the capacity, nothing kept at capacity 0; and through the
// real server, a repeated request gets the very answer the first one got.
#include "server/run_cache.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <memory>
#include <nlohmann/json.hpp>

#include "server/server.h"

namespace cutline::server {
namespace {

Response Answer(const std::string& body) { return JsonResponse(200, body); }

TEST(RunCache, KeepsTheNewestAndForgetsTheOldest) {
  RunCache cache(2);
  cache.Keep("a", Answer("A"));
  cache.Keep("b", Answer("B"));
  ASSERT_TRUE(cache.Find("a"));  // "a" is now the newest
  cache.Keep("c", Answer("C"));  // so "b" goes
  EXPECT_FALSE(cache.Find("b"));
  ASSERT_TRUE(cache.Find("a"));
  EXPECT_EQ(cache.Find("a")->body, "A");
  EXPECT_EQ(cache.Find("c")->body, "C");
  EXPECT_FALSE(cache.Find("d"));
}

TEST(RunCache, CapacityZeroKeepsNothing) {
  RunCache cache(0);
  cache.Keep("a", Answer("A"));
  EXPECT_FALSE(cache.Find("a"));
}

TEST(RunCache, TheServerAnswersARepeatedRunAlike) {
  Options options;
  options.port = 0;
  Server server(options);
  std::string error;
  int port = server.Start(&error);
  ASSERT_GT(port, 0) << error;
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
