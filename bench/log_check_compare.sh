#!/bin/bash
# Two builds of `cutline check --logs` on the same logs and on damaged
# copies of them: the output must be the same, line for line
# (docs/performance.md, "check --logs at the speed of the logs").
#
#   bench/log_check_compare.sh OLD_CUTLINE NEW_CUTLINE LOGS [WORKDIR]
#
# LOGS: a folder of a real run's logs (`cutline cluster --log-dir`), of 4
# ranks or more. Exit 1 if any variant differs (but vcback, which the
# streaming check refuses on purpose: an edited clock that goes back).
set -uo pipefail
old=$(realpath "${1:?usage: $0 OLD NEW LOGS [WORKDIR]}")
new=$(realpath "${2:?}")
src=$(realpath "${3:?}")
work=${4:-$(mktemp -d /tmp/cutline-logcmp.XXXXXX)}
mkdir -p "$work" && cd "$work" || exit 2
differ=0

mk() { rm -rf "v-$1"; cp -r "$src" "v-$1"; }
cut_log() { local f=$1 frac=$2 n; n=$(wc -l <"$f"); head -n $((n * frac / 10)) "$f" >t && mv t "$f"; }
delete_nth() { local f=$1 pattern=$2 k=$3 ln; ln=$(grep -n "$pattern" "$f" | sed -n "${k}p" | cut -d: -f1); [ -n "$ln" ] && sed -i "${ln}d" "$f"; }
# Moves the k-th record line of a log `by` lines later, the clocks kept in place.
move_record() {
  local f=$1 k=$2 by=$3 ln
  ln=$(grep -n '"e":"record"' "$f" | sed -n "${k}p" | cut -d: -f1)
  python3 - "$f" "$ln" "$by" <<'PY'
import re, sys
f, ln, by = sys.argv[1], int(sys.argv[2]) - 1, int(sys.argv[3])
lines = open(f).read().split('\n')
lines.insert(ln + by, lines.pop(ln))
vc = lambda l: re.search(r'"vc":\[[^\]]*\]', l).group(0)
vcs = [vc(lines[i]) for i in range(ln, ln + by + 1)]
vcs = [vcs[-1]] + vcs[:-1]
for j, i in enumerate(range(ln, ln + by + 1)):
    lines[i] = re.sub(r'"vc":\[[^\]]*\]', vcs[j], lines[i])
open(f, 'w').write('\n'.join(lines))
PY
}

mk plain
mk crash1; cut_log v-crash1/rank-1.jsonl 6
mk crash02; cut_log v-crash02/rank-0.jsonl 3; cut_log v-crash02/rank-2.jsonl 5
mk part; perl -pi -e 'if (!$done && s/("e":"part","snapshot":\d+,"balance":)(\d+)/$1.($2+7)/e) { $done = 1 }' v-part/rank-2.jsonl
mk record; perl -pi -e 'if (!$done && s/("e":"record","snapshot":\d+,"balance":)(\d+)/$1.($2+1)/e) { $done = 1 }' v-record/rank-3.jsonl
mk chan; perl -0pi -e 's/("channels":\{[^}]*?\[)(\d+)/$1.($2+3)/e' v-chan/rank-1.jsonl
mk chanempty; perl -0pi -e 's/("channels":\{[^}]*?\[)[\d,]+\]/$1]/' v-chanempty/rank-1.jsonl
mk vcback; perl -0pi -e 's/"vc":\[(\d+)/"vc":[7$1/' v-vcback/rank-3.jsonl
mk noreceive; delete_nth v-noreceive/rank-1.jsonl '"e":"receive","from":0' 500
mk nopart; delete_nth v-nopart/rank-0.jsonl '"e":"part"' 3
mk norecord; delete_nth v-norecord/rank-0.jsonl '"e":"record"' 3
mk nomarker; delete_nth v-nomarker/rank-2.jsonl '"e":"send_marker"' 7
for spec in "1 3 1" "2 5 1" "0 7 2" "3 4 1" "1 9 3" "2 2 2"; do
  set -- $spec
  mk "move-$1-$2-$3"; move_record "v-move-$1-$2-$3/rank-$1.jsonl" "$2" "$3"
done

for d in v-*; do
  v=${d#v-}
  "$old" check --logs "$d" >"old-$v.txt" 2>&1; o=$?
  "$new" check --logs "$d" >"new-$v.txt" 2>&1; n=$?
  sed -i "s#$work/##" "old-$v.txt" "new-$v.txt"
  if [ $o = $n ] && cmp -s "old-$v.txt" "new-$v.txt"; then
    echo "$v: same (exit $o, $(wc -l <"old-$v.txt") lines)"
  else
    echo "$v: DIFFERENT (exit $o before, $n after)"
    diff "old-$v.txt" "new-$v.txt" | head -6
    [ "$v" = vcback ] || differ=1
  fi
done
exit $differ
