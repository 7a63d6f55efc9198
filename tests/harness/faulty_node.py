#!/usr/bin/env python3
"""A node that breaks `cutline test`'s protocol in one way (--fault), for the
tests that show each is named in one line: the node, what it did, what was
expected. Until its fault shows, it is a correct node for a workload without
transfers: a snapshot records every balance and no channel."""
import json
import os
import sys

fault = sys.argv[sys.argv.index("--fault") + 1]
me, others, balance, recorded = None, [], 0, set()


def out(dest, body):
    print(json.dumps({"src": me, "dest": dest, "body": body}), flush=True)


def record(snapshot):
    if snapshot in recorded:
        return
    recorded.add(snapshot)
    out("c0", {"type": "record", "snapshot": snapshot, "balance": balance})
    join = {"type": "join", "snapshot": snapshot}
    if fault == "nondeterministic":
        join["pid"] = os.getpid()  # a different answer in every process
    for n in others:
        out(n, join)
    channels = {n: [] for n in others}
    if fault == "unsent-report":
        channels[others[0]] = [77]
    out("c0", {"type": "part_done", "snapshot": snapshot, "channels": channels})


for line in sys.stdin:
    msg = json.loads(line)
    body = msg["body"]
    kind = body["type"]
    if kind == "init":
        me, balance = body["node_id"], body["balance"]
        others = [n for n in body["node_ids"] if n != me]
        if fault != "no-init-ok":
            out("c0", {"type": "init_ok", "in_reply_to": body["msg_id"]})
    elif kind == "sync":
        out("c0", {"type": "sync_ok", "in_reply_to": body["msg_id"]})
    elif fault == "not-json":
        print("balance is now 70", flush=True)
    elif fault == "no-type":
        out("c0", {"in_reply_to": body.get("msg_id")})
    elif fault == "exit":
        sys.exit(3)
    elif fault == "hang":
        while True:
            pass
    elif fault == "bad-dest":
        out("n9", {"type": "join"})
    elif kind in ("snapshot", "join"):
        record(body["snapshot"])
        if kind == "snapshot":
            out("c0", {"type": "snapshot_ok", "in_reply_to": body["msg_id"]})
