#!/usr/bin/env bash
# cutline cluster over three local hosts (network namespaces with their own
# hostnames, TCP between them): snapshots while transfers flow, a rank
# killed inside snapshot 3, the crashed run's logs checked, a restore over
# the same hosts that ends with the bank's total, its logs checked, and no
# snapshot left running. Usage: hosts_test.sh CUTLINE LOCAL_HOSTS_SCRIPT
set -uo pipefail
cutline=$1
hosts=$2

fail() { echo "FAIL: $*" >&2; exit 1; }
if [[ $(id -u) -ne 0 ]]; then echo "SKIP: needs root for network namespaces"; exit 77; fi
probe="clprobe$$"
if ! ip netns add "$probe" 2>/dev/null; then
  echo "SKIP: this machine cannot make network namespaces"; exit 77
fi
ip netns del "$probe"

dir=$(mktemp -d /tmp/cutline-hosts-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
store=$dir/bank.db

# 1. Six ranks over three hosts; rank 4 dies right after recording snapshot 3.
"$hosts" 3 "$cutline" cluster --ranks 6 --duration 20s --snapshot-every 50ms \
  --store "$store" --log-dir "$dir/logs1" --kill 4@snapshot:3 >"$dir/out1" 2>"$dir/err1"
code=$?
cat "$dir/out1" "$dir/err1"
[[ $code -eq 1 ]] || fail "the killed run exited $code, not 1"
grep -q "rank 4" "$dir/err1" || fail "the killed run does not name rank 4"

# The ranks really ran on three hosts (each log's header names its host).
hostnames=$(grep -ho '"host":"[^"]*"' "$dir"/logs1/rank-*.jsonl | sort -u | wc -l)
[[ $hostnames -eq 3 ]] || fail "the ranks ran on $hostnames hostnames, not 3"

# 2. The crashed run's logs: a consistent prefix, checked.
"$cutline" check --logs "$dir/logs1" || fail "check --logs on the crashed run's logs"

# 3. Restore over the same hosts: the bank's total at the end.
"$hosts" 3 "$cutline" cluster --ranks 6 --duration 2s --snapshot-every 100ms \
  --store "$store" --restore --log-dir "$dir/logs2" >"$dir/out2" 2>"$dir/err2"
code=$?
cat "$dir/out2" "$dir/err2"
[[ $code -eq 0 ]] || fail "the restored run exited $code"
grep -q 'total at the end: \$6000 of \$6000 (conserved)' "$dir/out2" || fail "the restored run lost money"
"$cutline" check --logs "$dir/logs2" || fail "check --logs on the restored run's logs"

# 4. The store: nothing left running, every complete snapshot $6000.
"$cutline" store list "$store" --json >"$dir/list.json" || fail "store list"
grep -q '"status": "running"' "$dir/list.json" && fail "a snapshot is left running"
if grep -o '"total": [0-9][0-9]*' "$dir/list.json" | grep -v '"total": 6000$' >/dev/null; then
  fail "a stored total is not \$6000"
fi
echo "ok: three hosts, a kill inside snapshot 3, a restore, the logs checked"
