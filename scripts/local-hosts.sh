#!/usr/bin/env bash
# Local "hosts" for the runtime on one machine (docs/runtime.md, "Across
# hosts"): N network namespaces, each with its own network stack and
# hostname (host1 .. hostN), joined by a bridge on a private /24 of this
# script's own, reached by Open MPI's rsh launcher through an agent script
# instead of ssh. Needs root (ip netns), iproute2 and util-linux.
#
#   scripts/local-hosts.sh N                 print the --mpirun-arg flags,
#                                            keep the hosts up until Ctrl-C
#   scripts/local-hosts.sh N COMMAND ARG...  run COMMAND ARG... with the
#                                            flags appended (e.g. cutline cluster)
#
# The hosts, the bridge and the files are removed on exit, whatever ends it.
# Names carry this script's PID, so that runs side by side cannot collide;
# traffic stays on the bridge (nothing else is addressed).
set -euo pipefail

if [[ $# -lt 1 || ! $1 =~ ^[1-9][0-9]*$ || $1 -gt 32 ]]; then
  echo "usage: $0 N [COMMAND ARG...]   (N hosts, 1 to 32)" >&2
  exit 2
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "local-hosts: needs root (ip netns add)" >&2
  exit 2
fi
n=$1
shift

id=$$
net="10.213.$((id % 250))"   # a /24 of this run's own
bridge="clb${id}"
dir=$(mktemp -d /tmp/cutline-hosts.XXXXXX)
namespaces=()

cleanup() {
  local ns
  for ns in "${namespaces[@]}"; do ip netns del "$ns" 2>/dev/null || true; done
  ip link del "$bridge" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

ip link add "$bridge" type bridge
ip addr add "$net.254/24" dev "$bridge"
ip link set "$bridge" up
for i in $(seq 1 "$n"); do
  ns="cl${id}h${i}"
  ip netns add "$ns"
  namespaces+=("$ns")
  ip link add "clv${id}a${i}" type veth peer name "clv${id}b${i}"
  ip link set "clv${id}b${i}" netns "$ns"
  ip link set "clv${id}a${i}" master "$bridge" up
  ip -n "$ns" addr add "$net.$i/24" dev "clv${id}b${i}"
  ip -n "$ns" link set "clv${id}b${i}" up
  ip -n "$ns" link set lo up
  echo "$net.$i slots=2" >> "$dir/hostfile"
done

# What Open MPI's rsh launcher runs instead of `ssh HOST COMMAND`: COMMAND
# inside HOST's namespace, under HOST's own hostname.
cat > "$dir/agent.sh" <<AGENT
#!/bin/sh
# Options a launcher may pass ssh (-x, -o ...) come before the host.
while [ \$# -gt 0 ]; do
  case "\$1" in
    -o|-l|-p) shift 2 ;;
    -*) shift ;;
    *) break ;;
  esac
done
host="\$1"; shift
i="\${host##*.}"
exec ip netns exec "cl${id}h\$i" unshare --uts sh -c "hostname host\$i; \$*"
AGENT
chmod +x "$dir/agent.sh"

flags=(--mpirun-arg=--hostfile "--mpirun-arg=$dir/hostfile"
       --mpirun-arg=--mca --mpirun-arg=plm_rsh_agent "--mpirun-arg=$dir/agent.sh"
       --mpirun-arg=--mca --mpirun-arg=btl --mpirun-arg=tcp,self
       --mpirun-arg=--mca --mpirun-arg=btl_tcp_if_include "--mpirun-arg=$net.0/24"
       --mpirun-arg=--mca --mpirun-arg=oob_tcp_if_include "--mpirun-arg=$net.0/24")

if [[ $# -eq 0 ]]; then
  echo "${n} hosts up ($net.1 .. $net.$n); give cutline cluster these flags:" >&2
  printf '%s ' "${flags[@]}"
  echo
  echo "Ctrl-C removes them." >&2
  while true; do sleep 3600; done
fi
"$@" "${flags[@]}"
