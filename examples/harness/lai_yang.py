#!/usr/bin/env python3
"""A bank branch taking Lai-Yang snapshots, as a node for `cutline test`:
right on channels that reorder (`cutline test --reorder`), where
Chandy-Lamport's markers are not enough.

No marker has to arrive before anything: every transfer carries its
sender's epoch (how many snapshots it has recorded). A node records
snapshot k when the tester asks, when a transfer of epoch k or later
arrives (before applying it), or when another node's count for snapshot k
arrives. After recording k it tells each other node how many transfers it
had sent it before (its count); the channel's state for k is then the
transfers of an older epoch that arrive after the record, and it is
complete once as many older ones have arrived as the count says. The
protocol is the one in docs/harness.md, like chandy_lamport.py's.
"""
import json
import sys


class Branch:
    def __init__(self):
        self.me = None
        self.others = []
        self.balance = 0
        self.epoch = 0            # snapshots recorded: 1..epoch
        self.next_id = 0
        self.sent = {}            # node -> transfers sent to it so far
        self.older = {}           # node -> epochs of the transfers received from it, in order
        self.snapshots = {}       # k -> {"counts": {node: n}, "channels": {node: [ids]}, "done": bool}

    def out(self, dest, body):
        print(json.dumps({"src": self.me, "dest": dest, "body": body}))

    def send(self, dest, body):
        self.next_id += 1
        body["msg_id"] = self.next_id
        self.out(dest, body)

    def record_through(self, k, before_input=False):
        while self.epoch < k:
            self.epoch += 1
            e = self.epoch
            record = {"type": "record", "snapshot": e, "balance": self.balance}
            if before_input:
                record["before_input"] = True  # the transfer that made it record is outside
            self.out("c0", record)
            self.snapshots.setdefault(e, {"counts": {}, "channels": {}, "done": False})
            self.snapshots[e]["channels"] = {p: [] for p in self.others}
            for p in self.others:
                self.send(p, {"type": "count", "snapshot": e, "count": self.sent[p]})

    def check_done(self):
        for k in sorted(self.snapshots):
            s = self.snapshots[k]
            if s["done"] or k > self.epoch:
                continue
            if all(p in s["counts"] and
                   sum(1 for e in self.older[p] if e < k) == s["counts"][p]
                   for p in self.others):
                s["done"] = True
                self.out("c0", {"type": "part_done", "snapshot": k, "channels": s["channels"]})

    def handle(self, msg):
        body = msg["body"]
        kind = body["type"]
        src = msg["src"]
        if kind == "init":
            self.me = body["node_id"]
            self.others = [n for n in body["node_ids"] if n != self.me]
            self.balance = body["balance"]
            self.sent = {p: 0 for p in self.others}
            self.older = {p: [] for p in self.others}
            self.out(src, {"type": "init_ok", "in_reply_to": body["msg_id"]})
        elif kind == "sync":
            self.out(src, {"type": "sync_ok", "in_reply_to": body["msg_id"]})
        elif kind == "transfer" and src == "c0":
            self.balance -= body["amount"]
            self.sent[body["to"]] += 1
            self.send(body["to"], {"type": "transfer", "amount": body["amount"], "epoch": self.epoch})
            self.out(src, {"type": "transfer_ok", "in_reply_to": body["msg_id"]})
        elif kind == "transfer":
            self.record_through(body["epoch"], before_input=True)  # record, then apply it
            self.balance += body["amount"]
            self.older[src].append(body["epoch"])
            for k, s in self.snapshots.items():
                if k <= self.epoch and body["epoch"] < k and not s["done"]:
                    s["channels"][src].append(body["msg_id"])
        elif kind == "snapshot":
            self.record_through(body["snapshot"])
            self.out(src, {"type": "snapshot_ok", "in_reply_to": body["msg_id"]})
        elif kind == "count":
            k = body["snapshot"]
            self.snapshots.setdefault(k, {"counts": {}, "channels": {}, "done": False})
            self.snapshots[k]["counts"][src] = body["count"]
            self.record_through(k)
        self.check_done()


def main():
    branch = Branch()
    for line in sys.stdin:
        if line.strip():
            branch.handle(json.loads(line))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
