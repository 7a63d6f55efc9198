// work_queue: the snapshot library in a host that is not a bank. Five worker
// threads create string work items, pass them to each other over channels
// and finish them; one SnapshotAgent per worker, hosted the same way under
// each of the four algorithms, takes concurrent snapshots started by several
// initiators. Every complete snapshot must satisfy the workers' own
// conservation law:
//   items created = items finished + items in work queues + items in channels
// and hold each live item exactly once. The program exits 1 if any snapshot
// breaks it, if a snapshot is neither completed nor refused by name, or if
// the library answers with an error the host did not expect.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <cutline/barrier_rules.h>
#include <cutline/collector.h>
#include <cutline/lai_yang_rules.h>
#include <cutline/marker_rules.h>
#include <cutline/snapshot_agent.h>

namespace {

using cutline::AgentError;
using cutline::ChannelIndex;
using cutline::PartAdded;
using cutline::Reply;
using cutline::SnapshotId;

constexpr int kWorkers = 5;
constexpr int kItemsPerCreator = 500;
constexpr int kSnapshots = 16;  // per algorithm

// What a worker records: its counters and the items waiting in its queue.
struct Work {
  long created = 0;
  long finished = 0;
  std::vector<std::string> queue;  // "w<worker>-<n>/<hops left>"
};
using Part = cutline::SnapshotPart<Work, std::string>;

// An item's name without its hop count: the same item keeps it as it moves.
std::string_view ItemName(std::string_view item) {
  return item.substr(0, item.find('/'));
}

struct Edge {
  int from, to;
  ChannelIndex out, in;
};

// The graph: complete for three of the algorithms; for aligned barriers a
// dataflow DAG with two sources (0, 1) and one sink (4), since only sources
// start aligned snapshots.
std::vector<Edge> Graph(bool dag) {
  std::vector<std::pair<int, int>> links;
  if (dag) {
    links = {{0, 2}, {1, 2}, {0, 3}, {2, 3}, {2, 4}, {3, 4}, {1, 4}};
  } else {
    for (int i = 0; i < kWorkers; ++i) {
      for (int j = 0; j < kWorkers; ++j) {
        if (i != j) links.emplace_back(i, j);
      }
    }
  }
  std::vector<ChannelIndex> outs(kWorkers, 0), ins(kWorkers, 0);
  std::vector<Edge> edges;
  for (auto [from, to] : links) edges.push_back(Edge{from, to, outs[from]++, ins[to]++});
  return edges;
}

// Mail from the collector (or a fellow initiator) to a worker.
struct Mail {
  enum Kind { kJoin, kAbort } kind;
  SnapshotId id;
};

template <class Rules>
class Run {
 public:
  using Agent = cutline::SnapshotAgent<Work, std::string, Rules>;
  struct Msg {
    bool control = false;
    SnapshotId id = 0;
    std::string item;
    typename Rules::Stamp stamp{};
    typename Rules::Control control_data{};
  };
  struct Channel {
    std::mutex mu;
    std::deque<Msg> queue;
  };

  // Each worker's channels: the collector refuses a part of another shape.
  static std::vector<cutline::PartShape> Shapes(const std::vector<Edge>& edges) {
    std::vector<cutline::PartShape> shapes(kWorkers);
    for (const Edge& e : edges) {
      ++shapes[static_cast<std::size_t>(e.to)].incoming;
      ++shapes[static_cast<std::size_t>(e.from)].outgoing;
    }
    return shapes;
  }

  // `spacing`: worker loops between two starts of the first initiator.
  // `after_own_part`: start the next snapshot only once the initiator's own
  // part of the previous one is done (see main).
  Run(std::string name, bool dag, bool fifo, long spacing, bool after_own_part)
      : name_(std::move(name)), dag_(dag), fifo_(fifo), spacing_(spacing),
        after_own_part_(after_own_part), edges_(Graph(dag)),
        channels_(edges_.size()), mail_(kWorkers), collector_(Shapes(edges_)) {
    for (int w = 0; w < kWorkers; ++w) {
      std::uint32_t in = 0, out = 0;
      for (const Edge& e : edges_) {
        in += e.to == w;
        out += e.from == w;
      }
      ins_.push_back(in);
      outs_.push_back(out);
      // Creators: workers with an outgoing channel; initiators: every worker
      // (aligned: the sources).
      if (!dag_ || in == 0) initiators_.push_back(w);
    }
  }

  // Runs the workers to the end; false if any promise was broken.
  bool Go() {
    std::vector<std::thread> threads;
    for (int w = 0; w < kWorkers; ++w) threads.emplace_back([this, w] { Worker(w); });
    for (auto& t : threads) t.join();
    std::lock_guard<std::mutex> lock(collector_mu_);
    if (failed_.empty() && complete_ == 0) failed_ = "no snapshot completed";
    std::cout << name_ << ": " << complete_ << " snapshots complete, " << refused_.size()
              << " refused by name";
    for (const auto& [id, why] : refused_) std::cout << " (" << id << ": " << why << ")";
    std::cout << "; " << overlapping_.load() << " started while another ran; "
              << items_checked_ << " live items checked\n";
    if (!failed_.empty()) std::cout << name_ << ": FAILED: " << failed_ << "\n";
    return failed_.empty();
  }

 private:
  struct Mailbox {
    std::mutex mu;
    std::deque<Mail> mail;
  };

  void Post(int w, Mail m) {
    std::lock_guard<std::mutex> lock(mail_[w].mu);
    mail_[w].mail.push_back(m);
  }

  void Fail(const std::string& why) {
    std::lock_guard<std::mutex> lock(collector_mu_);
    if (failed_.empty()) failed_ = why;
  }

  // Whether `n` snapshots are complete or refused by now.
  bool ResolvedUpTo(SnapshotId n) {
    std::lock_guard<std::mutex> lock(collector_mu_);
    return static_cast<SnapshotId>(complete_) + refused_.size() >= n;
  }

  bool Resolved() {
    std::lock_guard<std::mutex> lock(collector_mu_);
    return !failed_.empty() || complete_ + static_cast<int>(refused_.size()) == kSnapshots;
  }

  // One worker: its own agent, touched by this thread alone.
  void Worker(int w) {
    Agent agent(ins_[w], outs_[w]);
    Work work;
    std::mt19937 rng(static_cast<unsigned>(w * 7919 + 17));
    std::vector<std::size_t> in_edges, out_edges;
    for (std::size_t e = 0; e < edges_.size(); ++e) {
      if (edges_[e].to == w) in_edges.push_back(e);
      if (edges_[e].from == w) out_edges.push_back(e);
    }
    std::vector<bool> held(in_edges.size(), false);
    const bool creator = !out_edges.empty();
    const bool first_initiator = w == initiators_.front();
    long loops = 0;
    // A host that lost a control would wait for ever: give up loudly instead.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(90);

    // What every Reply obliges this host to do (docs/library.md).
    auto handle = [&](const Reply& r, std::optional<std::size_t> in_pos, bool start) {
      if (!r.ok()) {
        if (r.error == AgentError::kFinished) return;  // a late join or control
        // The refusals that doom a snapshot: abort it everywhere. (Under
        // kOutOfOrder the refused barrier's snapshot is the one aborted, so
        // its barrier is dropped; barrier_rules.h.)
        if (r.error == AgentError::kSuperseded || r.error == AgentError::kOutOfOrder ||
            r.error == AgentError::kTooOld || r.error == AgentError::kCountMismatch) {
          RequestAbort(r.snapshot, std::string(cutline::ToString(r.error)));
          return;
        }
        Fail("worker " + std::to_string(w) + ": " + std::string(cutline::ToString(r.error)) +
             (start ? " on Start" : ""));
        return;
      }
      if (r.hold_channel && in_pos) held[*in_pos] = true;
      if (r.record_state) {
        for (std::size_t e : out_edges) {
          auto control = agent.ControlFor(r.snapshot, edges_[e].out);
          if (!control.ok()) return Fail("ControlFor: " + std::string(cutline::ToString(control.error)));
          Msg m;
          m.control = true;
          m.id = r.snapshot;
          m.control_data = control.value;
          std::lock_guard<std::mutex> lock(channels_[e].mu);
          if (r.markers_ahead) {
            // Ahead of the items waiting, behind any barrier queued already.
            auto& queue = channels_[e].queue;
            auto place = cutline::UnalignedBarrierPlace(
                queue.begin(), queue.end(), [](const Msg& q) { return q.control; });
            for (auto it = place; it != queue.end(); ++it) {
              agent.RecordOvertaken(r.snapshot, edges_[e].out, it->item);
            }
            queue.insert(place, std::move(m));
          } else {
            channels_[e].queue.push_back(std::move(m));
          }
        }
      }
      if (r.release_inputs) held.assign(held.size(), false);
      while (auto done = agent.TakeFinished()) Deliver(done->id, w, std::move(done->part));
    };

    auto send = [&](std::string item) {
      std::size_t e = out_edges[rng() % out_edges.size()];
      auto stamp = agent.OnOutgoing(edges_[e].out);
      if (!stamp.ok()) return Fail("OnOutgoing: " + std::string(cutline::ToString(stamp.error)));
      Msg m;
      m.item = std::move(item);
      m.stamp = stamp.value;
      std::lock_guard<std::mutex> lock(channels_[e].mu);
      channels_[e].queue.push_back(std::move(m));
    };

    while (!stop_.load()) {
      ++loops;
      std::this_thread::yield();  // five busy threads share few cores
      // Mail: joins (a further initiator) and aborts (a refused snapshot).
      std::deque<Mail> mail;
      {
        std::lock_guard<std::mutex> lock(mail_[w].mu);
        mail.swap(mail_[w].mail);
      }
      for (const Mail& m : mail) {
        if (m.kind == Mail::kJoin) {
          handle(agent.Start(m.id, work), std::nullopt, true);
        } else {
          Reply r = agent.Abort(m.id);
          if (r.ok() && r.release_inputs) held.assign(held.size(), false);
        }
      }
      // The first initiator starts the snapshots and asks another to join.
      const SnapshotId last = next_id_ - 1;
      // Two at a time, unless the rules need the previous one recorded
      // everywhere first (after_own_part_): the pair always overlaps.
      if (first_initiator && next_id_ <= kSnapshots && loops % spacing_ == 0 &&
          (!after_own_part_ || last == 0 || agent.IsFinished(last))) {
        for (int k = after_own_part_ ? 1 : 2; k > 0 && next_id_ <= kSnapshots; --k) {
          SnapshotId id = next_id_++;
          if (!ResolvedUpTo(id - 1)) overlapping_.fetch_add(1);
          handle(agent.Start(id, work), std::nullopt, true);
          if (dag_) {
            for (int s : initiators_) if (s != w) Post(s, Mail{Mail::kJoin, id});
          } else {
            Post(initiators_[(id * 2) % initiators_.size()], Mail{Mail::kJoin, id});
          }
        }
      }
      // One arrival from each incoming channel that is not held back.
      for (std::size_t k = 0; k < in_edges.size(); ++k) {
        if (held[k]) continue;
        std::size_t e = in_edges[k];
        std::optional<Msg> m;
        {
          std::lock_guard<std::mutex> lock(channels_[e].mu);
          auto& q = channels_[e].queue;
          if (!q.empty()) {
            // Lai-Yang's channels reorder: any waiting message may go next.
            std::size_t pos = fifo_ ? 0 : rng() % q.size();
            m = std::move(q[pos]);
            q.erase(q.begin() + static_cast<std::ptrdiff_t>(pos));
          }
        }
        if (!m) continue;
        ChannelIndex c = edges_[e].in;
        if (m->control) {
          handle(agent.OnControl(m->id, c, m->control_data, work), k, false);
        } else {
          // Recorded first (if it belongs to a channel state), then applied.
          handle(agent.OnMessage(c, m->stamp, m->item, work), k, false);
          work.queue.push_back(std::move(m->item));
        }
      }
      // Work on the oldest item: pass it on, or finish it.
      if (!work.queue.empty()) {
        std::string item = std::move(work.queue.front());
        work.queue.erase(work.queue.begin());
        auto slash = item.find('/');
        int hops = std::stoi(item.substr(slash + 1));
        if (hops == 0 || out_edges.empty()) {
          ++work.finished;
          finished_.fetch_add(1);
        } else {
          send(item.substr(0, slash) + "/" + std::to_string(hops - 1));
        }
      }
      // Create an item now and then.
      if (creator && work.created < kItemsPerCreator && rng() % 3 == 0) {
        ++work.created;
        created_.fetch_add(1);
        work.queue.push_back("w" + std::to_string(w) + "-" + std::to_string(work.created) +
                             "/" + std::to_string(rng() % 6));
      }
      if (w == 0 && loops % 64 == 0) {
        MaybeStop();
        if (std::chrono::steady_clock::now() > give_up) {
          Fail("snapshots neither completed nor refused after 90 s");
          stop_.store(true);
        }
      }
    }
  }

  void MaybeStop() {
    long creators = 0;
    for (int w = 0; w < kWorkers; ++w) creators += outs_[w] > 0;
    bool work_done = created_.load() == creators * kItemsPerCreator &&
                     finished_.load() == created_.load();
    if ((work_done && Resolved() && next_id_ > kSnapshots) || !failed_empty()) stop_.store(true);
  }
  bool failed_empty() {
    std::lock_guard<std::mutex> lock(collector_mu_);
    return failed_.empty();
  }

  // The collector's side: parts from the workers, and aborts.
  void Deliver(SnapshotId id, int from, Part part) {
    std::lock_guard<std::mutex> lock(collector_mu_);
    PartAdded added = collector_.Add(id, static_cast<cutline::ProcessIndex>(from), std::move(part));
    if (added == PartAdded::kClosed && refused_.count(id)) return;  // refused meanwhile
    if (added == PartAdded::kComplete) {
      Check(id, *collector_.Take(id));
    } else if (added != PartAdded::kPending) {
      if (failed_.empty()) failed_ = "collector: " + std::string(cutline::ToString(added));
    }
  }

  void RequestAbort(SnapshotId id, std::string why) {
    {
      std::lock_guard<std::mutex> lock(collector_mu_);
      if (refused_.count(id)) return;
      if (collector_.IsClosed(id)) {
        if (failed_.empty()) failed_ = "a complete snapshot was refused later";
        return;
      }
      refused_[id] = std::move(why);
      collector_.Abandon(id);
    }
    for (int w = 0; w < kWorkers; ++w) Post(w, Mail{Mail::kAbort, id});
  }

  // The workers' law, on one whole snapshot. REQUIRES: collector_mu_ held.
  void Check(SnapshotId id, const std::vector<Part>& parts) {
    long created = 0, finished = 0, waiting = 0;
    std::set<std::string_view> live;
    bool twice = false;
    auto count = [&](const std::string& item) {
      ++waiting;
      twice = !live.insert(ItemName(item)).second || twice;
    };
    for (const Part& p : parts) {
      created += p.state.created;
      finished += p.state.finished;
      for (const auto& item : p.state.queue) count(item);
      for (const auto& channel : p.channels) for (const auto& item : channel) count(item);
      for (const auto& channel : p.sent) for (const auto& item : channel) count(item);
    }
    items_checked_ += waiting;
    ++complete_;
    if (created != finished + waiting || twice) {
      failed_ = "snapshot " + std::to_string(id) + ": created " + std::to_string(created) +
                ", finished " + std::to_string(finished) + ", waiting " +
                std::to_string(waiting) + (twice ? ", an item held twice" : "");
    }
  }

  std::string name_;
  bool dag_, fifo_;
  long spacing_;
  bool after_own_part_;
  std::vector<Edge> edges_;
  std::vector<Channel> channels_;
  std::vector<std::uint32_t> ins_, outs_;
  std::vector<int> initiators_;
  std::vector<Mailbox> mail_;
  std::atomic<bool> stop_{false};
  std::atomic<long> created_{0}, finished_{0};
  std::atomic<int> overlapping_{0};
  std::atomic<SnapshotId> next_id_{1};  // handed out by the first initiator

  std::mutex collector_mu_;  // guards what follows
  cutline::SnapshotCollector<Work, std::string> collector_;
  int complete_ = 0;
  long items_checked_ = 0;
  std::map<SnapshotId, std::string> refused_;
  std::string failed_;
};

}  // namespace

int main() {
  bool ok = true;
  // Snapshots overlap: a new one starts every few hundred loops, before the
  // last one is complete. Under Lai-Yang a snapshot is refused (kSuperseded)
  // at a process that a newer epoch reaches first, so its initiator waits
  // for its own part of the last one: by then every process has recorded it
  // (each sent its control after recording), nothing can supersede it, and
  // the snapshots still overlap (the others are still recording).
  ok = Run<cutline::MarkerRules>("chandy-lamport", false, true, 60, false).Go() && ok;
  ok = Run<cutline::LaiYangRules>("lai-yang (reordering channels)", false, false, 60, true)
           .Go() && ok;
  ok = Run<cutline::AlignedBarrierRules>("aligned barriers (DAG)", true, true, 60, false).Go() && ok;
  ok = Run<cutline::UnalignedBarrierRules>("unaligned barriers", false, true, 60, false).Go() && ok;
  std::cout << (ok ? "every complete snapshot conserved the work items\n"
                   : "a snapshot broke the law\n");
  return ok ? 0 : 1;
}
