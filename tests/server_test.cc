// The page's server under a classroom: many connections held open, slow and
// silent senders, the connection cap, deadlines, pipelining, event streams
// and stopping. Each test runs the real cutline::server::Server on a free
// port and talks to it over real sockets. The tests assert that answers come
// and connections end as they should, never how fast: speed is measured by
// `make bench-serve` (docs/performance.md).
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include <zlib.h>

#include "raw_http.h"
#include "catalogue/messages.h"
#include "server/server.h"
#include "server/static_files.h"
#include "server/web_assets.h"
#include "store/store.h"

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

const std::string kRun = json{{"scenario", "network A=5 B=5\ntransfer A B 2\n"}}.dump();

std::string Post(const std::string& body, bool keep_alive = true) {
  return "POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\n" +
         std::string(keep_alive ? "" : "Connection: close\r\n") +
         "Content-Type: application/json\r\nContent-Length: " +
         std::to_string(body.size()) + "\r\n\r\n" + body;
}

const std::string kHealth = "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

class ClassroomTest : public ::testing::Test {
 protected:
  void Start(cutline::server::HttpOptions http = {}) {
    cutline::server::Options options;
    options.port = 0;
    options.http = std::move(http);
    server_ = std::make_unique<cutline::server::Server>(options);
    cutline::StatusOr<int> started = server_->Start();
    ASSERT_TRUE(started.ok()) << cutline::catalogue::Message(started.status(), cutline::Lang::kEn);
    port_ = *started;
  }
  void TearDown() override {
    if (server_) server_->Stop();
  }
  // Accepting is asynchronous: waits (for at most 30 s) until the server
  // counts `n` open connections, and says whether it did.
  bool AwaitConnections(std::size_t n) {
    for (int i = 0; i < 3000; ++i) {
      if (server_->connections() == n) return true;
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }
  // A run on a fresh connection, as a new visitor's first click.
  void ExpectRunAnswered() {
    RawResponse res = RawExchange(port_, Post(kRun, /*keep_alive=*/false));
    ASSERT_EQ(res.status, 200) << res.head;
    EXPECT_EQ(json::parse(res.body)["state"]["total"], 10);
  }

  std::unique_ptr<cutline::server::Server> server_;
  int port_ = -1;
};

// Open pages: connections that made a request and then sit idle, and
// connections that never said anything. They hold no worker, so requests
// from others are answered while they stay open, and they are still served
// afterwards.
TEST_F(ClassroomTest, HundredsOfIdleConnectionsDoNotHoldUpRequests) {
  Start();
  std::vector<RawConnection> idle;
  for (int i = 0; i < 400; ++i) {
    idle.emplace_back(port_);
    ASSERT_TRUE(idle.back().connected()) << i;
    if (i % 2 == 0) {
      ASSERT_EQ(idle.back().Exchange(kHealth).status, 200) << i;
    }
  }
  ASSERT_TRUE(AwaitConnections(400)) << server_->connections();

  for (int i = 0; i < 20; ++i) ExpectRunAnswered();
  httplib::Client client("127.0.0.1", port_);
  auto res = client.Post("/api/run", kRun, "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);

  // Every idle connection is still open and answers its next request.
  EXPECT_GE(server_->connections(), 400u);
  for (std::size_t i = 0; i < idle.size(); i += 7) {
    RawResponse again = idle[i].Exchange(Post(kRun));
    EXPECT_EQ(again.status, 200) << i;
  }
}

// Slow senders: each has sent half a request header and then nothing.
TEST_F(ClassroomTest, ManySlowSendersDoNotHoldUpARequest) {
  Start();
  std::vector<RawConnection> slow;
  for (int i = 0; i < 300; ++i) {
    slow.emplace_back(port_);
    ASSERT_TRUE(slow.back().Send("POST /api/run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"))
        << i;
  }
  ASSERT_TRUE(AwaitConnections(300)) << server_->connections();
  for (int i = 0; i < 10; ++i) ExpectRunAnswered();
  // They are still waited for (the request deadline is 10 s): one finishes
  // its request and gets its answer.
  ASSERT_TRUE(slow[0].Send("ngth: " + std::to_string(kRun.size()) + "\r\n\r\n" + kRun));
  RawResponse late = slow[0].Read();
  EXPECT_EQ(late.status, 200) << late.head;
}

// Past the cap, a new connection is told so (503, JSON) and closed; once a
// place is free, the next one is served.
TEST_F(ClassroomTest, ConnectionsPastTheCapAreRefusedWith503) {
  cutline::server::HttpOptions http;
  http.max_connections = 5;
  Start(http);
  std::vector<RawConnection> held;
  for (int i = 0; i < 5; ++i) {
    held.emplace_back(port_);
    ASSERT_EQ(held.back().Exchange(kHealth).status, 200);
  }
  ASSERT_TRUE(AwaitConnections(5));

  RawResponse refused = RawExchange(port_, Post(kRun, false));
  EXPECT_EQ(refused.status, 503) << refused.head;
  ASSERT_EQ(refused.Header("Content-Type").rfind("application/json", 0), 0u) << refused.head;
  EXPECT_EQ(json::parse(refused.body)["error"],
            "the server has too many open connections; try again soon");
  EXPECT_EQ(refused.Header("Connection"), "close");
  // The held connections were not disturbed.
  EXPECT_EQ(held[4].Exchange(kHealth).status, 200);

  held.pop_back();  // one visitor leaves
  ASSERT_TRUE(AwaitConnections(4));
  ExpectRunAnswered();
}

// A request begun and not finished is closed at the request deadline, with
// no answer; a silent connection at the idle deadline; a connection that
// keeps sending a byte now and then gains nothing.
TEST_F(ClassroomTest, DeadlinesCloseSilentAndHalfSentRequests) {
  cutline::server::HttpOptions http;
  http.request_timeout = 1s;
  http.idle_timeout = 2s;
  Start(http);

  RawConnection half(port_, /*timeout_seconds=*/30);
  ASSERT_TRUE(half.Send("GET /api/health HTTP/1.1\r\nHost: 127.0"));
  RawConnection dribble(port_, 30);
  ASSERT_TRUE(dribble.Send("G"));
  RawConnection silent(port_, 30);
  RawConnection after_answer(port_, 30);
  ASSERT_EQ(after_answer.Exchange(kHealth).status, 200);
  ASSERT_TRUE(AwaitConnections(4));

  std::thread trickle([&] {
    for (char c : std::string("ET /api/health HTTP/1.1\r\nHost: x\r\n")) {
      if (!dribble.Send(std::string(1, c))) break;
      std::this_thread::sleep_for(200ms);
    }
  });
  EXPECT_TRUE(half.ClosedByPeer());
  EXPECT_EQ(half.received(), "");  // closed without an answer
  EXPECT_TRUE(silent.ClosedByPeer());
  EXPECT_EQ(silent.received(), "");
  EXPECT_TRUE(after_answer.ClosedByPeer());
  trickle.join();
  EXPECT_TRUE(dribble.ClosedByPeer());
  EXPECT_EQ(dribble.received(), "");
  EXPECT_TRUE(AwaitConnections(0)) << server_->connections();
  ExpectRunAnswered();
}

// Requests sent back to back on one connection, before any answer, are
// answered each in turn, in the order sent.
TEST_F(ClassroomTest, PipelinedRequestsAreAnsweredInOrder) {
  Start();
  RawConnection conn(port_);
  ASSERT_TRUE(conn.Send(Post(json{{"scenario", "network A=1 B=2\n"}}.dump()) + kHealth +
                        "GET /nope.html HTTP/1.1\r\nHost: x\r\n\r\n" +
                        Post(json{{"scenario", "network A=3 B=4\n"}}.dump()) +
                        Post("{bad") + Post(json{{"scenario", "network A=5 B=6\n"}}.dump()) +
                        "HEAD /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  RawResponse first = conn.Read();
  ASSERT_EQ(first.status, 200);
  EXPECT_EQ(json::parse(first.body)["state"]["total"], 3);
  RawResponse health = conn.Read();
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(json::parse(health.body)["ok"], true);
  EXPECT_EQ(conn.Read().status, 404);
  RawResponse fourth = conn.Read();
  ASSERT_EQ(fourth.status, 200);
  EXPECT_EQ(json::parse(fourth.body)["state"]["total"], 7);
  EXPECT_EQ(conn.Read().status, 400);
  RawResponse sixth = conn.Read();
  ASSERT_EQ(sixth.status, 200);
  EXPECT_EQ(json::parse(sixth.body)["state"]["total"], 11);
  // HEAD: the headers of GET, with its length, and no body.
  RawResponse head = conn.Read();
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.Header("Content-Length"), std::to_string(health.body.size()));
  EXPECT_EQ(head.body, "");
  EXPECT_TRUE(conn.ClosedByPeer());  // the last one said Connection: close
}

// GET /api/events: the server's push channel. Every listener gets every
// event published after its `ready`, in order; listeners cost no thread, so
// a hundred of them do not hold up a request.
TEST_F(ClassroomTest, EventStreamsReceiveEveryPublishedEvent) {
  Start();
  std::vector<RawConnection> listeners;
  for (int i = 0; i < 100; ++i) {
    listeners.emplace_back(port_);
    ASSERT_TRUE(listeners.back().Send("GET /api/events HTTP/1.1\r\nHost: x\r\n"
                                      "Accept: text/event-stream\r\n\r\n"));
  }
  for (RawConnection& l : listeners) {
    ASSERT_TRUE(l.ReadUntil("event: ready\ndata: {}\n\n")) << l.received();
    EXPECT_EQ(l.received().rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
    EXPECT_NE(l.received().find("Content-Type: text/event-stream"), std::string::npos);
    EXPECT_NE(l.received().find("Content-Security-Policy:"), std::string::npos);
  }
  ExpectRunAnswered();
  server_->Publish("store", R"({"snapshot":1})");
  server_->Publish("store", "two\nlines");
  for (RawConnection& l : listeners) {
    ASSERT_TRUE(l.ReadUntil("data: two\ndata: lines\n\n")) << l.received();
    const std::string& got = l.received();
    auto first = got.find("id: 1\nevent: store\ndata: {\"snapshot\":1}\n\n");
    auto second = got.find("id: 2\nevent: store\ndata: two\ndata: lines\n\n");
    EXPECT_NE(first, std::string::npos) << got;
    EXPECT_LT(first, second);
  }
  // A listener that hangs up is forgotten.
  listeners.pop_back();
  EXPECT_TRUE(AwaitConnections(99)) << server_->connections();
  // Only GET subscribes.
  EXPECT_EQ(RawExchange(port_, Post("{}", false).replace(5, 8, "/api/events")).status, 405);
}

// Stop() ends idle connections and event streams at once, and lets an
// answer being written finish.
TEST_F(ClassroomTest, StopClosesIdleConnectionsAndStreams) {
  Start();
  RawConnection idle(port_, 30);
  ASSERT_EQ(idle.Exchange(kHealth).status, 200);
  RawConnection listener(port_, 30);
  ASSERT_TRUE(listener.Send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(listener.ReadUntil("event: ready"));
  ASSERT_TRUE(AwaitConnections(2));
  server_->Stop();
  EXPECT_TRUE(idle.ClosedByPeer());
  EXPECT_TRUE(listener.ClosedByPeer());
  // Nothing listens any more.
  EXPECT_FALSE(RawConnection(port_).connected());
}

}  // namespace

// ---------------------------------------------------------------------------
// `serve --store FILE`: a runtime's store, read through the API and watched.

namespace {

class StoreRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("cutline_server_store_" + std::to_string(::getpid()) + ".db");
    std::filesystem::remove(path_);
    auto store = cutline::store::Store::Open(path_.string(), true);
    ASSERT_TRUE(store.ok()) << cutline::catalogue::Message(store.status(), cutline::Lang::kEn);
    run_ = store->BeginRun(2, 100, 200, std::nullopt);
    Complete(*store, 1, {70, 100}, {30});
    store->SnapshotStarted(run_, 2, 1, 1000);
    cutline::server::Options options;
    options.port = 0;
    options.store = path_.string();
    server_ = std::make_unique<cutline::server::Server>(options);
    cutline::StatusOr<int> started = server_->Start();
    ASSERT_TRUE(started.ok()) << cutline::catalogue::Message(started.status(), cutline::Lang::kEn);
    port_ = *started;
  }
  void TearDown() override {
    if (server_) server_->Stop();
    for (const char* suffix : {"", "-wal", "-shm"}) {
      std::filesystem::remove(path_.string() + suffix);
    }
  }
  // Snapshot `id`: N0 recorded balances[0], N1 balances[1]; N0->N1 held
  // `in_flight`.
  void Complete(cutline::store::Store& store, std::uint64_t id, std::vector<std::int64_t> balances,
                std::vector<std::int64_t> in_flight) {
    if (!store.Find(id)) store.SnapshotStarted(run_, id, 0, 1000);
    cutline::store::SnapshotRecord s;
    s.id = id;
    s.run = run_;
    s.started_us = 1000;
    s.completed_us = 2000;
    s.status = "complete";
    s.balances = std::move(balances);
    s.channels = {{0, 1, std::move(in_flight)}, {1, 0, {}}};
    store.SnapshotComplete(s);
  }
  json Get(const std::string& target, int status) {
    RawResponse res = RawExchange(port_, "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    EXPECT_EQ(res.status, status) << target << "\n" << res.body;
    return json::parse(res.body, nullptr, false);
  }
  std::filesystem::path path_;
  std::int64_t run_ = 0;
  std::unique_ptr<cutline::server::Server> server_;
  int port_ = -1;
};

TEST_F(StoreRoutesTest, ListsTheStoreAndShowsASnapshot) {
  json list = Get("/api/store", 200);
  ASSERT_EQ(list["snapshots"].size(), 2u) << list;
  EXPECT_EQ(list["snapshots"][0]["status"], "complete");
  EXPECT_EQ(list["snapshots"][0]["total"], 200);
  EXPECT_EQ(list["snapshots"][1]["status"], "running");
  EXPECT_TRUE(list["snapshots"][1]["total"].is_null());
  json one = Get("/api/store/snapshot?id=1", 200);
  EXPECT_EQ(one["total"], 200);
  EXPECT_EQ(one["recorded"][0]["name"], "N0");
  EXPECT_EQ(one["channels"][0]["transfers"], json::array({30}));
}

TEST_F(StoreRoutesTest, BadSnapshotIdsAreRefused) {
  for (const char* bad : {"?id=x", "?id=", "?id=-1", "?id=1e3", ""}) {
    json error = Get(std::string("/api/store/snapshot") + bad, 400);
    EXPECT_TRUE(error["error"].is_string()) << bad;
  }
  EXPECT_TRUE(Get("/api/store/snapshot?id=99", 404)["error"].is_string());
}

// A commit to the store reaches every open page as a `store` event.
TEST_F(StoreRoutesTest, ACommitIsPublishedToOpenPages) {
  RawConnection listener(port_, 30);
  ASSERT_TRUE(listener.Send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n"));
  ASSERT_TRUE(listener.ReadUntil("event: ready"));
  {
    auto store = cutline::store::Store::Open(path_.string(), false);
    ASSERT_TRUE(store.ok()) << cutline::catalogue::Message(store.status(), cutline::Lang::kEn);
    Complete(*store, 2, {50, 120}, {30});
  }
  ASSERT_TRUE(listener.ReadUntil("event: store\ndata: {\"changed\":true}")) << listener.received();
  json list = Get("/api/store", 200);
  EXPECT_EQ(list["snapshots"][1]["status"], "complete") << list;
}

// The operator's figures: each run's summary, computed by the server from the
// store, and a snapshot's critical path from the times its parts carried.
TEST_F(StoreRoutesTest, SummariesAndTheCriticalPath) {
  {
    auto store = cutline::store::Store::Open(path_.string(), false);
    ASSERT_TRUE(store.ok()) << cutline::catalogue::Message(store.status(), cutline::Lang::kEn);
    store->SnapshotStarted(run_, 3, 0, 10'000);
    cutline::store::SnapshotRecord s;
    s.id = 3;
    s.run = run_;
    s.completed_us = 14'000;
    s.balances = {100, 100};
    s.recorded_us = {10'100, 11'000};
    s.channels = {{0, 1, {}, 11'000}, {1, 0, {}, 13'500}};
    store->SnapshotComplete(s);
    store->EndRun(run_, false, 5'000, store->Runs()[0].started_us + 2'000'000);
  }
  json list = Get("/api/store", 200);
  ASSERT_EQ(list["summaries"].size(), 1u) << list;
  const json& sum = list["summaries"][0];
  EXPECT_EQ(sum["run"], run_);
  EXPECT_EQ(sum["state"], "ended");
  EXPECT_EQ(sum["transfers"], 5000);
  EXPECT_DOUBLE_EQ(sum["transfers_per_s"].get<double>(), 2500.0);
  EXPECT_EQ(sum["complete"], 2);
  EXPECT_EQ(sum["failed"], 1);  // snapshot 2 was running when the run ended
  EXPECT_EQ(sum["running"], 0);
  EXPECT_EQ(sum["latency_max_us"], 4000);
  EXPECT_TRUE(list["now_us"].is_number());
  // The list itself keeps `cutline store list --json`'s shape.
  EXPECT_EQ(list["runs"][0].size(), 7u) << list["runs"][0];

  json three = Get("/api/store/snapshot?id=3", 200);
  const json& path = three["critical_path"];
  ASSERT_TRUE(path.is_object()) << three;
  EXPECT_EQ(path["last"], (json{{"from", "N1"}, {"to", "N0"}, {"at_us", 3500}}));
  EXPECT_EQ(path["markers"][0]["at_us"], 1000);
  EXPECT_EQ(path["recorded"][0], (json{{"name", "N0"}, {"at_us", 100}}));
  EXPECT_EQ(path["collected_us"], 4000);
  // Without times (as a version-1 file's), the path has no markers and no last.
  json one = Get("/api/store/snapshot?id=1", 200);
  EXPECT_TRUE(one["critical_path"]["markers"].empty());
  EXPECT_TRUE(one["critical_path"]["last"].is_null());
  // A snapshot that did not complete has none.
  EXPECT_TRUE(Get("/api/store/snapshot?id=2", 200)["critical_path"].is_null());
}

TEST(StoreRoutesWithoutAStore, Are404) {
  cutline::server::Options options;
  options.port = 0;
  cutline::server::Server server(options);
  cutline::StatusOr<int> started = server.Start();
  ASSERT_TRUE(started.ok()) << cutline::catalogue::Message(started.status(), cutline::Lang::kEn);
  int port = *started;
  RawResponse res = RawExchange(port, "GET /api/store HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(res.status, 404);
  EXPECT_EQ(json::parse(res.body)["error"], "no store: start the server with --store FILE");
  server.Stop();
}

// --- the page's files: gzip, validators, caching ----------------------------

std::string Gunzip(const std::string& data) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, 15 + 16), Z_OK);  // gzip only, no raw deflate
  std::string out;
  char buffer[16384];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - z.avail_out);
  }
  EXPECT_EQ(rc, Z_STREAM_END) << "not a whole gzip stream";
  inflateEnd(&z);
  return out;
}

std::string Embedded(const std::string& path) {
  for (const auto& asset : cutline::server::WebAssets()) {
    if (path == asset.path) return std::string(asset.bytes());
  }
  ADD_FAILURE() << path << " is not embedded";
  return "";
}

class StaticFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cutline::server::Options options;
    options.port = 0;
    server_ = std::make_unique<cutline::server::Server>(options);
    cutline::StatusOr<int> started = server_->Start();
    ASSERT_TRUE(started.ok()) << cutline::catalogue::Message(started.status(), cutline::Lang::kEn);
    port_ = *started;
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    // The bytes as they came over the wire: this test does the gunzipping.
    client_->set_decompress(false);
  }
  void TearDown() override {
    client_.reset();
    if (server_) server_->Stop();
  }
  httplib::Result Get(const std::string& path, httplib::Headers headers) {
    return client_->Get(path.c_str(), headers);
  }
  std::unique_ptr<cutline::server::Server> server_;
  std::unique_ptr<httplib::Client> client_;
  int port_ = -1;
};

TEST_F(StaticFilesTest, AGzipClientGetsGzipOfTheEmbeddedFile) {
  for (const char* path : {"/index.html", "/app.js", "/style.css", "/store.js"}) {
    auto res = Get(path, {{"Accept-Encoding", "gzip, deflate, br"}});
    ASSERT_TRUE(res) << path;
    EXPECT_EQ(res->status, 200) << path;
    EXPECT_EQ(res->get_header_value("Content-Encoding"), "gzip") << path;
    EXPECT_EQ(res->get_header_value("Vary"), "Accept-Encoding") << path;
    EXPECT_EQ(res->get_header_value("Cache-Control"), "no-cache") << path;
    EXPECT_FALSE(res->get_header_value("ETag").empty()) << path;
    std::string plain = Embedded(path);
    EXPECT_LT(res->body.size(), plain.size()) << path;
    EXPECT_EQ(Gunzip(res->body), plain) << path;
    // The security headers stay on a compressed answer.
    EXPECT_EQ(res->get_header_value("X-Content-Type-Options"), "nosniff");
  }
}

// A client that does not accept gzip, in each way it can say so, gets the
// file's own bytes, unencoded, and a tag of their own.
TEST_F(StaticFilesTest, AClientWithoutGzipGetsTheFileAsIs) {
  const std::string plain = Embedded("/app.js");
  auto gz = Get("/app.js", {{"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(gz);
  for (const char* accept : {"identity", "gzip;q=0, identity", "deflate, br", "*;q=0",
                             "br, gzip;q=0.000"}) {
    auto res = Get("/app.js", {{"Accept-Encoding", accept}});
    ASSERT_TRUE(res) << accept;
    EXPECT_EQ(res->status, 200) << accept;
    EXPECT_FALSE(res->has_header("Content-Encoding")) << accept;
    EXPECT_EQ(res->body, plain) << accept;
    EXPECT_EQ(res->get_header_value("Vary"), "Accept-Encoding") << accept;
    EXPECT_NE(res->get_header_value("ETag"), gz->get_header_value("ETag")) << accept;
  }
  // No Accept-Encoding at all (a raw request; httplib may add its own).
  RawResponse raw =
      RawExchange(port_, "GET /app.js HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(raw.status, 200);
  EXPECT_EQ(raw.Header("Content-Encoding"), "");
  EXPECT_EQ(raw.body, plain);
  // "*" admits gzip.
  auto any = Get("/app.js", {{"Accept-Encoding", "*"}});
  ASSERT_TRUE(any);
  EXPECT_EQ(any->get_header_value("Content-Encoding"), "gzip");
}

TEST_F(StaticFilesTest, IfNoneMatchWithTheTagIsAnswered304) {
  for (const char* accept : {"gzip", "identity"}) {
    auto first = Get("/index.html", {{"Accept-Encoding", accept}});
    ASSERT_TRUE(first);
    const std::string etag = first->get_header_value("ETag");
    ASSERT_FALSE(etag.empty());
    for (std::string match : {etag, "\"other\", " + etag, "W/" + etag, std::string("*")}) {
      auto again = Get("/index.html", {{"Accept-Encoding", accept}, {"If-None-Match", match}});
      ASSERT_TRUE(again) << match;
      EXPECT_EQ(again->status, 304) << accept << " " << match;
      EXPECT_TRUE(again->body.empty());
      EXPECT_EQ(again->get_header_value("ETag"), etag);
      EXPECT_EQ(again->get_header_value("Cache-Control"), "no-cache");
      EXPECT_EQ(again->get_header_value("Vary"), "Accept-Encoding");
    }
    // Another tag, or the other encoding's tag: the whole file again.
    auto stale = Get("/index.html", {{"Accept-Encoding", accept}, {"If-None-Match", "\"old\""}});
    ASSERT_TRUE(stale);
    EXPECT_EQ(stale->status, 200);
    EXPECT_FALSE(stale->body.empty());
  }
  auto gz = Get("/index.html", {{"Accept-Encoding", "gzip"}});
  auto plain = Get("/index.html", {{"Accept-Encoding", "identity"},
                                   {"If-None-Match", gz->get_header_value("ETag")}});
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->status, 200);
  EXPECT_EQ(plain->body, Embedded("/index.html"));
}

// HEAD says what a GET would carry, for both encodings; a 304 to HEAD too.
TEST_F(StaticFilesTest, HeadAnswersLikeGetWithoutTheBody) {
  auto gz = Get("/app.js", {{"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(gz);
  RawResponse head = RawExchange(
      port_, "HEAD /app.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.Header("Content-Encoding"), "gzip");
  EXPECT_EQ(head.Header("Content-Length"), std::to_string(gz->body.size()));
  EXPECT_EQ(head.Header("ETag"), gz->get_header_value("ETag"));
  EXPECT_TRUE(head.body.empty());
  RawResponse not_modified = RawExchange(
      port_, "HEAD /app.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\nIf-None-Match: " +
                 gz->get_header_value("ETag") + "\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(not_modified.status, 304);
}

// The folder of --web-dir is read on each request, so an edit shows at
// once, with a new tag.
TEST(StaticFilesFromAFolder, AnEditGetsANewTag) {
  auto dir = std::filesystem::temp_directory_path() /
             ("cutline-web-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto write = [&](const std::string& text) {
    std::ofstream(dir / "page.html", std::ios::binary | std::ios::trunc) << text;
  };
  write("<p>one</p>");
  cutline::server::StaticFiles files(dir.string());
  cutline::server::Request req;
  req.method = "GET";
  req.path = "/page.html";
  auto one = files.Answer(req);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->body, "<p>one</p>");
  write("<p>two</p>");
  auto two = files.Answer(req);
  ASSERT_TRUE(two);
  EXPECT_EQ(two->body, "<p>two</p>");
  auto tag = [](const cutline::server::Response& r) {
    for (const auto& [name, value] : r.headers) {
      if (name == "ETag") return value;
    }
    return std::string();
  };
  EXPECT_NE(tag(*one), tag(*two));
  req.headers["if-none-match"] = tag(*two);
  EXPECT_EQ(files.Answer(req)->status, 304);
  req.path = "/../page.html";
  EXPECT_FALSE(files.Answer(req));
  std::filesystem::remove_all(dir);
}

TEST(AcceptEncoding, ReadsCodingsAndWeights) {
  using cutline::server::AcceptsGzip;
  EXPECT_TRUE(AcceptsGzip("gzip"));
  EXPECT_TRUE(AcceptsGzip("GZIP;Q=0.5"));
  EXPECT_TRUE(AcceptsGzip("deflate, x-gzip"));
  EXPECT_TRUE(AcceptsGzip("*"));
  EXPECT_TRUE(AcceptsGzip("gzip;q=0.001"));
  EXPECT_FALSE(AcceptsGzip(""));
  EXPECT_FALSE(AcceptsGzip("identity"));
  EXPECT_FALSE(AcceptsGzip("gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("*, gzip;q=0"));
  EXPECT_FALSE(AcceptsGzip("gzips"));
}

}  // namespace
