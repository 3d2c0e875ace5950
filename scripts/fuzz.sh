#!/usr/bin/env bash
# fuzz.sh: run every parser's fuzz target for FUZZTIME (default 2s) each, one after
# the other, and print per target how many inputs it executed.
#
# Go minimises every new interesting input for up to -fuzzminimizetime, 60 s by
# default, and that time comes out of -fuzztime: with a slow target (a spec parse
# builds networks) a 15 s budget went to minimisation and the target ran a dozen
# inputs. FUZZMINIMIZETIME (default 1s) keeps minimisation short. A target that runs
# fewer than FUZZ_MIN_EXECS inputs (default 500) fails the run, so that a budget
# swallowed again does not pass unnoticed.
#
# make test runs each target for FUZZTIME=2s, a smoke run that the suite's time allows
# (some 2 minutes for the twenty-three targets, half of it starting them; 4 s each took
# 2.8 minutes and the suite past 20), make
# test-long for a minute each, and a developer changing a parser fuzzes it for longer
# (go test -fuzz=FuzzX -fuzztime=10m ./pkg/). A target may name its own budget as a
# multiple of FUZZTIME (third field): the experiment package's targets and the topology
# parsers build networks for every input and run at thousands of inputs a second, not
# tens of thousands, so they get two budgets (the spec parser four: gathering its
# baseline coverage alone takes some 4 s).
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-2s}
FUZZMINIMIZETIME=${FUZZMINIMIZETIME:-1s}
FUZZ_MIN_EXECS=${FUZZ_MIN_EXECS:-500}

# package target [budget multiple]
targets=(
	"./sim/topology/ FuzzParse 2"
	"./sim/topology/ FuzzReadJSON 2"
	"./sim/topology/ FuzzReadAnynet"
	"./sim/routing/ FuzzReadTable"
	"./sim/routing/ FuzzParseSelection"
	"./sim/routing/ FuzzParseDuatoOptions"
	"./sim/routing/ FuzzParseTwistedAdaptiveOptions"
	"./sim/engine/ FuzzParseAllocator"
	"./sim/engine/ FuzzParsePacketLengths"
	"./sim/booksim/ FuzzParseBookSim"
	"./sim/booksim/ FuzzReadOutput"
	"./sim/traffic/ FuzzParsePattern"
	"./sim/traffic/ FuzzParseSizes"
	"./sim/experiment/ FuzzParseSpec 4"
	"./sim/experiment/ FuzzUnmarshalRecord 2"
	"./sim/experiment/ FuzzParseShard 2"
	"./sim/experiment/ FuzzReadSummaryCSV 2"
	"./sim/experiment/ FuzzSlurmScript 2"
	"./sim/workload/ FuzzParseSpec"
	"./sim/workload/ FuzzReadTrace"
	"./sim/workload/ FuzzReadOTF2Events"
	"./sim/workload/ FuzzParseSize"
	"./sim/workload/ FuzzParseMapping"
)

# deadline_race: whether a failed run's log is only Go's own fuzztime race. Before Go
# 1.27, the coordinator can report the -fuzztime deadline itself as a failure ("context
# deadline exceeded", golang/go#75804) when a worker is mid-input as time runs out; then
# no input failed, none was written to testdata/fuzz, and nothing else is reported. A
# real failure names its input ("Failing input written to ...") or a panic or an error
# of the target, and stays a failure.
deadline_race() {
	grep -q '^    context deadline exceeded$' "$1" &&
		! grep -q -E 'Failing input written|panic:|^\s+[A-Za-z0-9_]+\.go:[0-9]+:' "$1"
}

log=$(mktemp)
trap 'rm -f "$log"' EXIT
summary=()
failed=0
for t in "${targets[@]}"; do
	read -r pkg name times <<<"$t"
	budget=$FUZZTIME
	if [ -n "${times:-}" ] && [[ $FUZZTIME =~ ^[0-9]+[smhx]$ ]]; then
		# A whole number of seconds, minutes or hours, or an input count (Nx), scales;
		# any other duration is used as it is.
		budget="$(( ${FUZZTIME%[smhx]} * times ))${FUZZTIME: -1}"
	fi
	echo "fuzz: $name in $pkg for $budget (minimisation at most $FUZZMINIMIZETIME)"
	status=0
	"$GO" test -run=NONE -fuzz="^${name}\$" -fuzztime="$budget" -fuzzminimizetime="$FUZZMINIMIZETIME" "$pkg" 2>&1 | tee "$log" || status=$?
	# The last progress line: "fuzz: elapsed: 15s, execs: 123456 (8230/sec), new interesting: ..."
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
	execs=${execs:-0}
	verdict=ok
	if [ "$status" -ne 0 ] && deadline_race "$log"; then
		verdict="ok (stopped by Go's fuzztime deadline race, golang/go#75804; no input failed)"
	elif [ "$status" -ne 0 ]; then
		verdict=FAILED
		failed=1
	elif [ "$execs" -lt "$FUZZ_MIN_EXECS" ]; then
		verdict="TOO FEW (want at least $FUZZ_MIN_EXECS)"
		failed=1
	fi
	summary+=("$(printf '%-22s %-20s %6s %12s executions  %s' "$name" "$pkg" "$budget" "$execs" "$verdict")")
done

echo
echo "fuzz: executions per target (budget $FUZZTIME each unless named)"
printf '%s\n' "${summary[@]}"
exit "$failed"
