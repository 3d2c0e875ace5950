#!/usr/bin/env bash
# instructions.sh RUN WARM CYCLES [RUN WARM CYCLES ...]: instructions per packet-hop of
# cycles WARM..CYCLES of the engine's counted runs (TestCountedRun: a named run such as
# torus8 or twin4sat, or SPEC@SCHEME@LOAD), each the difference of two runs under
# valgrind's cachegrind that differ only in their length, so that building the network,
# the warm-up and the process itself cancel out. Instruction counts do not depend on what
# else the machine runs (BENCHMARKS.md). ENGINE_TEST names a test binary to measure
# instead of building one (go test -c -o FILE ./sim/engine/).
set -euo pipefail
cd "$(dirname "$0")/.."
if (( $# == 0 || $# % 3 != 0 )); then
  echo "usage: $0 RUN WARM CYCLES [RUN WARM CYCLES ...]  (e.g. torus8 1000 1300, 'twin:4x4x4/A@bubble@0.6' 5000 5300)" >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed (Debian: apt-get install valgrind)" >&2; exit 1; }
bin=${ENGINE_TEST:-}
if [[ -z $bin ]]; then
  bin=$(mktemp)
  trap 'rm -f "$bin"' EXIT
  ${GO:-go} test -c -o "$bin" ./sim/engine/
fi
count() { # run cycles: the instruction count and the run's line
  GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off TT_COUNTED_RUN="$1,$2,$3" \
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" -test.run='^TestCountedRun$' -test.v 2>&1
}
while (( $# )); do
  run=$1 warm=$2 cycles=$3
  shift 3
  a=$(count "$run" "$warm" "$warm") b=$(count "$run" "$warm" "$cycles")
  ia=$(grep -oP 'I\s+refs:\s+\K[\d,]+' <<<"$a" | tr -d ,)
  ib=$(grep -oP 'I\s+refs:\s+\K[\d,]+' <<<"$b" | tr -d ,)
  hops=$(grep -oP 'packet-hops \K\d+' <<<"$b")
  if [[ -z $ia || -z $ib || -z $hops || $hops == 0 ]]; then
    echo "$run: no count (the run printed:)" >&2
    echo "$b" | tail -5 >&2
    exit 1
  fi
  echo "$run $warm..$cycles: $(( (ib - ia) / hops )) instructions per packet-hop [$(grep -oP 'flit-hops.*' <<<"$b")]"
done
