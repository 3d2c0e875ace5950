#!/usr/bin/env bash
# pgo.sh: write cmd/twintorus/default.pgo, the CPU profile that Go's profile-guided
# optimisation builds the twintorus command with (go build picks a main package's
# default.pgo up by itself).
#
# The profile is the engine's benchmarks merged: small networks below and at
# saturation (dimension-order and adaptive routing, bubble and VCs, rr2 and iSLIP,
# wormhole), the KNS and C-switch presets, and a large torus, each weighted by the
# time it runs here. The compiler uses it to inline the calls that are hot in them
# (allocation, enqueue, routing); results do not change (PGO changes how code is
# compiled, not what it computes; BENCHMARKS.md has the check). Regenerate it after
# a large change of the engine: a stale profile still works, only less well.
set -euo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
out=cmd/twintorus/default.pgo
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The test binary is built without a profile, so that the profile describes code
# compiled the plain way (as Go's documentation recommends for a first profile).
$GO test -c -pgo=off -o "$tmp/engine.test" ./sim/engine/

# benchmark regexp and -benchtime
runs=(
	'Torus8x8x8$ 300x'
	'Twin4x4x4Saturated$ 300x'
	'Twin4x4x4SaturatedISLIP$ 100x'
	'Torus8x8x8Adaptive$ 100x'
	'Twin4x4x4AdaptiveSaturated$ 100x'
	'Torus8x8x8Wormhole$ 50x'
	'KNSPreset$ 20x'
	'CSwitchPreset$ 20x'
	'Torus32x32x32$ 10x'
)
profiles=()
for i in "${!runs[@]}"; do
	read -r bench times <<<"${runs[$i]}"
	echo "profiling $bench ($times)"
	(cd sim/engine && "$tmp/engine.test" -test.run=NONE -test.bench="$bench" -test.benchtime="$times" \
		-test.cpuprofile="$tmp/$i.prof" >/dev/null)
	profiles+=("$tmp/$i.prof")
done
$GO tool pprof -proto "${profiles[@]}" >"$out"
echo "wrote $out ($(wc -c <"$out") bytes)"
