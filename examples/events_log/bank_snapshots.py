#!/usr/bin/env python3
"""A Chandy-Lamport snapshot that is not cutline's, checked by cutline.

Three bank branches, P1, P2 and P3, move money over one-way FIFO channels
(every branch to every other) while P1 takes snapshots. Each branch writes
its own log in cutline's open events format (docs/logs.md), so that

    python3 bank_snapshots.py --out logs
    cutline check --logs logs --format events

judges this implementation with the same checker cutline's own runs get.

The branches run in one process, one step at a time, in an order drawn from
--seed: the same seed writes the same logs. Two rules can be broken on
purpose, to watch the checker catch them:

  --break lose-message         a branch leaves out of a channel's recorded
                               state the first message it should keep
  --break record-after-marker  the initiator sends its markers before it
                               records its state
"""

import argparse
import collections
import json
import os
import random
import sys

FORMAT = {"format": "cutline-events", "version": 1}


class Branch:
    def __init__(self, name, balance, inputs, outputs, log, breaks):
        self.name = name
        self.balance = balance
        self.inputs = inputs
        self.outputs = outputs  # name -> the receiver's incoming deque from us
        self.log = log
        self.breaks = breaks
        self.sent = 0
        self.recorded = {}  # snapshot -> {input: [message ids] or None once closed}
        self.closed = {}    # snapshot -> set of inputs whose marker came
        self.lost_one = False
        self.done = set()           # snapshots whose part this branch finished
        self.event("start", state=balance, inputs=inputs)

    def event(self, kind, **fields):
        self.log.write(json.dumps({"process": self.name, "kind": kind, **fields}) + "\n")

    def transfer(self, to, amount):
        self.sent += 1
        msg = f"{self.name}-{self.sent}"
        self.balance -= amount
        self.outputs[to].append(("money", msg, amount))
        self.event("send", to=to, msg=msg, amount=amount)

    def send_markers(self, snapshot):
        for to in sorted(self.outputs):
            self.outputs[to].append(("marker", snapshot, None))
            self.event("marker-send", to=to, snapshot=snapshot)

    def record(self, snapshot):
        self.recorded[snapshot] = {i: [] for i in self.inputs}
        self.closed[snapshot] = set()
        self.event("record", snapshot=snapshot, state=self.balance)

    def start_snapshot(self, snapshot):
        if "record-after-marker" in self.breaks:
            self.send_markers(snapshot)
            self.record(snapshot)
        else:
            self.record(snapshot)
            self.send_markers(snapshot)
        self.maybe_done(snapshot)

    def deliver(self, frm, item):
        kind, what, amount = item
        if kind == "money":
            self.balance += amount
            self.event("receive", **{"from": frm}, msg=what)
            for snapshot, channels in self.recorded.items():
                if frm in self.closed[snapshot]:
                    continue
                if "lose-message" in self.breaks and not self.lost_one:
                    self.lost_one = True  # the rule broken: this one is not kept
                    continue
                channels[frm].append(what)
            return
        snapshot = what
        self.event("marker-receive", **{"from": frm}, snapshot=snapshot)
        if snapshot not in self.recorded:
            self.record(snapshot)
            self.send_markers(snapshot)
        self.closed[snapshot].add(frm)
        self.maybe_done(snapshot)

    def maybe_done(self, snapshot):
        if self.closed[snapshot] == set(self.inputs):
            self.event("part-done", snapshot=snapshot, channels=self.recorded[snapshot])
            self.done.add(snapshot)


def run(out, seed, snapshots, steps, breaks):
    rng = random.Random(seed)
    names = ["P1", "P2", "P3"]
    os.makedirs(out, exist_ok=True)
    channels = {(a, b): collections.deque() for a in names for b in names if a != b}
    logs = {n: open(os.path.join(out, f"{n}.jsonl"), "w") for n in names}
    for log in logs.values():
        log.write(json.dumps(FORMAT) + "\n")
    branches = {}
    for n in names:
        inputs = [m for m in names if m != n]
        outputs = {m: channels[(n, m)] for m in names if m != n}
        branches[n] = Branch(n, 100, inputs, outputs, logs[n], breaks)
    taken = 0
    for step in range(steps):
        busy = [c for c, q in channels.items() if q]
        everyone_done = all(taken in b.done for b in branches.values())
        if taken < snapshots and (taken == 0 or everyone_done) and rng.random() < 0.1:
            taken += 1
            branches["P1"].start_snapshot(taken)
        elif busy and rng.random() < 0.6:
            frm, to = rng.choice(busy)
            branches[to].deliver(frm, channels[(frm, to)].popleft())
        else:
            b = branches[rng.choice(names)]
            if b.balance > 0:
                b.transfer(rng.choice(sorted(b.outputs)), rng.randint(1, min(b.balance, 30)))
    # Deliver what is left, so that every snapshot finishes.
    while any(channels.values()):
        frm, to = next(c for c, q in channels.items() if q)
        branches[to].deliver(frm, channels[(frm, to)].popleft())
    for log in logs.values():
        log.close()
    return taken


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder for the logs (P1.jsonl, ...)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--snapshots", type=int, default=3)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--break", dest="breaks", action="append", default=[],
                        choices=["lose-message", "record-after-marker"])
    args = parser.parse_args()
    taken = run(args.out, args.seed, args.snapshots, args.steps, tuple(args.breaks))
    print(f"wrote {args.out}/P1.jsonl, P2.jsonl, P3.jsonl: {taken} snapshot(s), seed {args.seed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
