#!/usr/bin/env bash
# gotest.sh: the Go tests, package by package, as many at a time as the machine has
# cores, each under a timeout that scales with its own work and with how busy the
# machine is. make test runs it.
#
#   scripts/gotest.sh [--json DIR] [--budget SECONDS] [go test flags, one token each: -run=X] [packages...]
#
# With no packages it tests ./... . --json DIR also writes each package's `go test
# -json` events to DIR/<package path with / as _>.json, from which `go run
# ./tools/testtimes DIR` makes the per-package and per-test table of BENCHMARKS.md.
# --budget gives every package that budget instead of the table's (make notebooks runs
# one test of its own this way).
#
# Why not one `go test ./...`: its one -timeout is a cliff. Long enough for the
# slowest package on a busy machine, it lets a hang in a quick package run for an
# hour; short enough to catch that, it kills a slow package that is only slow. Here:
#
# - Each package has a budget, its tests' wall time on the 2-core reference machine
#   when quiet (the table below; BENCHMARKS.md has the measurement). A package not
#   listed gets DEFAULT_BUDGET.
# - Its limit is MARGIN × its budget, at least MIN_TIMEOUT, in load-adjusted seconds:
#   a watchdog counts every 5 s of wall time as 5 / slowdown, the slowdown being the
#   1-minute load average per core at that moment (at least 1), or
#   TWINTORUS_TEST_SLOWDOWN when set. A machine that gets busy half-way through a
#   package gives that package more wall time; a hang on a quiet machine is caught in
#   MARGIN × budget. Go's own -timeout stays, as a backstop at BACKSTOP × the limit.
# - The slowdown when a package starts is exported to its tests, which stretch their
#   own waits for browsers, servers and child processes by it (internal/testwait).
# - A package that runs out of time is stopped (SIGQUIT, so Go prints every
#   goroutine); the script then names the tests that were still running and how long
#   each had run, from the package's `go test -json` events.
# - The longest packages start first, so that the cores stay busy to the end.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
MARGIN=${MARGIN:-4}
MIN_TIMEOUT=${MIN_TIMEOUT:-180}
BACKSTOP=${BACKSTOP:-20}
DEFAULT_BUDGET=${DEFAULT_BUDGET:-30}

# Quiet wall seconds per package on the 2-core reference machine (BENCHMARKS.md,
# "Where the suite's time goes"). Update them when a package's tests grow.
declare -A budget=(
	[notebooks]=420
	[sim/engine]=200
	[sim/analysis]=70
	[figures]=45
	[sim/experiment]=60
	[cmd/twintorus]=65
	[kernel]=45
	[kernel/relay]=60
	[datasets]=30
	[datasets/claims]=40
	[sim/routing]=25
	[plots]=15
)

json=""
only_budget=""
flags=()
pkgs=()
while (($#)); do
	case "$1" in
	--json)
		json="${2:?--json needs a directory}"
		shift
		;;
	--budget)
		only_budget="${2:?--budget needs seconds}"
		shift
		;;
	-h | --help)
		sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
		exit 0
		;;
	-*=* | -[a-z]*) flags+=("$1") ;; # go test flags, each one token (-run=X, -count=1, -v)
	*) pkgs+=("$1") ;;
	esac
	shift
done
if ((${#pkgs[@]} == 0)); then
	pkgs=(./...)
fi
if [[ -n "$json" ]]; then
	mkdir -p "$json"
fi

module=$("$GO" list -m)
mapfile -t list < <("$GO" list "${pkgs[@]}")

cores=$(nproc)
# load_slowdown FLOOR: the 1-minute load average per core, at least FLOOR.
load_slowdown() {
	local load1
	read -r load1 _ </proc/loadavg
	awk -v l="$load1" -v n="$cores" -v f="$1" 'BEGIN { s = l / n; if (s < f) s = f; printf "%.2f", s }'
}
fixed_slowdown=${TWINTORUS_TEST_SLOWDOWN:-}
slowdown=${fixed_slowdown:-$(load_slowdown 1)}

# Each line: budget, package path, import path; the longest first.
jobs_file=$(mktemp)
logs=$(mktemp -d)
trap 'rm -rf "$jobs_file" "$logs"' EXIT
for p in "${list[@]}"; do
	rel=${p#"$module"}
	rel=${rel#/}
	b=${only_budget:-${budget[$rel]:-$DEFAULT_BUDGET}}
	echo "$b ${rel:-.} $p"
done | sort -k1,1nr >"$jobs_file"

echo "gotest: ${#list[@]} packages, $cores at a time; slowdown now $slowdown; limits $MARGIN x budget (at least ${MIN_TIMEOUT}s) of load-adjusted time (wall time / load per core${fixed_slowdown:+, fixed at $fixed_slowdown by TWINTORUS_TEST_SLOWDOWN})"

# watchdog GOPID LIMIT FLAG: counts load-adjusted seconds while GOPID runs; past LIMIT
# it writes FLAG and stops the test binary (the go command's child) with SIGQUIT.
watchdog() {
	local gopid=$1 limit=$2 flag=$3 used=0 s
	while kill -0 "$gopid" 2>/dev/null; do
		sleep 5
		s=${fixed_slowdown:-$(load_slowdown 1)}
		used=$(awk -v u="$used" -v s="$s" 'BEGIN { printf "%.1f", u + 5 / s }')
		if awk -v u="$used" -v l="$limit" 'BEGIN { exit !(u >= l) }'; then
			echo "$used" >"$flag"
			pkill -QUIT -P "$gopid" 2>/dev/null || true
			return
		fi
	done
}

# run_one budget rel import-path: runs one package's tests, their events to a JSON
# file; a .done file says how it ended.
run_one() {
	local b=$1 rel=$2 p=$3
	local limit backstop name start status=0 jf gopid wpid
	export TWINTORUS_TEST_SLOWDOWN=${fixed_slowdown:-$(load_slowdown 1)}
	limit=$(awk -v b="$b" -v m="$MARGIN" -v min="$MIN_TIMEOUT" 'BEGIN { t = b * m; if (t < min) t = min; printf "%d", t }')
	backstop=$((limit * BACKSTOP))
	name=${rel//\//_}
	jf=${json:-$logs}/$name.json
	start=$SECONDS
	"$GO" test -json "${flags[@]}" -timeout "${backstop}s" "$p" >"$jf" 2>"$logs/$name.err" &
	gopid=$!
	watchdog "$gopid" "$limit" "$logs/$name.timedout" &
	wpid=$!
	wait "$gopid" || status=$?
	kill "$wpid" 2>/dev/null || true
	wait "$wpid" 2>/dev/null || true
	echo "$status $((SECONDS - start)) $limit $rel" >"$logs/$name.done"
}

running=0
while read -r b rel p; do
	if ((running >= cores)); then
		wait -n || true
		running=$((running - 1))
	fi
	run_one "$b" "$rel" "$p" &
	running=$((running + 1))
done <"$jobs_file"
wait || true

failed=()
printf '\ngotest: %-40s %6s %8s %8s\n' package result seconds limit
while read -r b rel p; do
	name=${rel//\//_}
	read -r status secs limit _ <"$logs/$name.done"
	result=ok
	if ((status != 0)); then
		result=FAIL
		failed+=("$rel")
	fi
	printf 'gotest: %-40s %6s %8d %7ds\n' "$rel" "$result" "$secs" "$limit"
done <"$jobs_file"

for rel in "${failed[@]}"; do
	name=${rel//\//_}
	jf=${json:-$logs}/$name.json
	echo
	echo "gotest: ---- $rel failed; its output:"
	cat "$logs/$name.err"
	"$GO" run ./tools/testtimes -output "$jf" || cat "$jf"
	if [[ -f "$logs/$name.timedout" ]]; then
		read -r _ secs limit _ <"$logs/$name.done"
		echo "gotest: $rel ran out of time: $(cat "$logs/$name.timedout") s of load-adjusted time (limit ${limit}s) in ${secs}s of wall time; the tests still running then, with how long each had run:"
		"$GO" run ./tools/testtimes -running "$jf"
	fi
done
if ((${#failed[@]})); then
	echo "gotest: ${#failed[@]} packages failed: ${failed[*]}" >&2
	exit 1
fi
echo "gotest: all ${#list[@]} packages passed"
