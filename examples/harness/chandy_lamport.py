#!/usr/bin/env python3
"""A bank branch taking Chandy-Lamport snapshots, as a node for `cutline test`.

One process is one node. It speaks Maelstrom's protocol on stdin and stdout
(one JSON message a line) and the snapshot workload of docs/harness.md:
the tester sends `init` (with the starting balance), `transfer` (move an
amount to another node) and `snapshot` (start snapshot N); the node reports
`record` when it records its balance and `part_done` with the transfers it
recorded on each input channel. Markers are its own messages; the tester
carries them without reading them.

--break RULE breaks one rule on purpose, to watch `cutline test` catch it:
  late-markers        hold the markers until the next transfer it is asked for
  unrecorded-channel  record no channel's contents
  late-record         record the balance one input late (after a transfer is applied)
  lose-message        drop the first transfer that arrives while a snapshot records
Run under `cutline test --reorder`, the correct node fails too: Chandy-Lamport
needs FIFO channels.
"""
import argparse
import json
import sys


class Branch:
    def __init__(self, broken):
        self.broken = broken
        self.me = None
        self.others = []
        self.balance = 0
        self.next_id = 0
        self.snapshots = {}   # id -> {"open": set of inputs still recording, "channels": {input: [ids]}}
        self.held = []        # late-markers: markers waiting for the next transfer
        self.pending_record = []  # late-record: snapshots to record after the next input
        self.lost_one = False

    def send(self, dest, body):
        if dest != "c0" or "msg_id" not in body:
            self.next_id += 1
            body.setdefault("msg_id", self.next_id)
        print(json.dumps({"src": self.me, "dest": dest, "body": body}), flush=False)

    def reply(self, msg, body):
        body["in_reply_to"] = msg["body"]["msg_id"]
        print(json.dumps({"src": self.me, "dest": msg["src"], "body": body}), flush=False)

    def record(self, sid, marker_from=None):
        """Record the balance for snapshot `sid` and send its markers."""
        if self.broken == "late-record" and marker_from != "now":
            self.pending_record.append((sid, marker_from))
            self.start_recording(sid, marker_from, report=False)
            return
        self.start_recording(sid, marker_from, report=True)

    def start_recording(self, sid, marker_from, report):
        if report:
            self.send("c0", {"type": "record", "snapshot": sid, "balance": self.balance})
        if sid in self.snapshots:
            return
        inputs = [p for p in self.others if p != marker_from]
        self.snapshots[sid] = {"open": set(inputs), "channels": {p: [] for p in self.others}}
        for p in self.others:
            marker = {"type": "marker", "snapshot": sid}
            if self.broken == "late-markers":
                self.held.append((p, marker))
            else:
                self.send(p, marker)
        self.maybe_done(sid)

    def maybe_done(self, sid):
        s = self.snapshots[sid]
        if not s["open"] and not s.get("done"):
            s["done"] = True
            channels = s["channels"]
            if self.broken == "unrecorded-channel":
                channels = {p: [] for p in self.others}
            self.send("c0", {"type": "part_done", "snapshot": sid, "channels": channels})

    def handle(self, msg):
        body = msg["body"]
        kind = body["type"]
        late = self.pending_record
        self.pending_record = []
        if kind == "init":
            self.me = body["node_id"]
            self.others = [n for n in body["node_ids"] if n != self.me]
            self.balance = body["balance"]
            self.reply(msg, {"type": "init_ok"})
        elif kind == "sync":
            self.pending_record = late  # a sync is not an input of the workload
            late = []
            self.reply(msg, {"type": "sync_ok"})
        elif kind == "transfer" and msg["src"] == "c0":
            self.balance -= body["amount"]
            self.send(body["to"], {"type": "transfer", "amount": body["amount"]})
            for dest, marker in self.held:
                self.send(dest, marker)
            self.held = []
            self.reply(msg, {"type": "transfer_ok"})
        elif kind == "transfer":
            recording = [s for s in self.snapshots.values() if msg["src"] in s["open"]]
            if self.broken == "lose-message" and recording and not self.lost_one:
                self.lost_one = True
            else:
                self.balance += body["amount"]
                for s in recording:
                    s["channels"][msg["src"]].append(body["msg_id"])
        elif kind == "snapshot":
            self.record(body["snapshot"])
            self.reply(msg, {"type": "snapshot_ok"})
        elif kind == "marker":
            sid = body["snapshot"]
            if sid not in self.snapshots:
                self.record(sid, marker_from=msg["src"])
            else:
                self.snapshots[sid]["open"].discard(msg["src"])
                self.maybe_done(sid)
        else:
            self.reply(msg, {"type": "error", "code": 10, "text": "not supported: " + kind})
        for sid, _ in late:  # late-record: the balance after this input
            self.send("c0", {"type": "record", "snapshot": sid, "balance": self.balance})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--break", dest="broken", default=None,
                        choices=["late-markers", "unrecorded-channel", "late-record", "lose-message"])
    args = parser.parse_args()
    branch = Branch(args.broken)
    for line in sys.stdin:
        if line.strip():
            branch.handle(json.loads(line))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
