#!/usr/bin/env bash
# Executes notebooks headless with the "twintorus" kernel and fails if any cell fails.
# Cells see QUICK=1 (unless QUICK is set otherwise) and run their quick mode, and
# TWINTORUS_NO_CONTROLS=1: no browser builds kernel.Explore's controls.
#
#   scripts/run-notebooks.sh [--inplace] [--out DIR] [--timeout SECONDS] [notebook.ipynb...]
#
# With no notebook arguments it runs notebooks/*.ipynb. Executed copies go to a new
# temporary directory (printed at the end), or to --out DIR; --inplace rewrites the
# notebooks themselves with their new outputs. Run scripts/setup.sh first.
# JUPYTER overrides the jupyter command (default: Debian's /usr/bin/jupyter).
# The kernels log one line each (the checkout they run) and errors;
# TWINTORUS_KERNEL_VERBOSE=1 adds gonb's log.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jupyter="${JUPYTER:-/usr/bin/jupyter}"
timeout=900
inplace=0
out=""
notebooks=()

usage() { sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

while (($#)); do
	case "$1" in
	--inplace) inplace=1 ;;
	--out) out="${2:?--out needs a directory}"; shift ;;
	--timeout) timeout="${2:?--timeout needs seconds}"; shift ;;
	-h | --help) usage 0 ;;
	-*) echo "run-notebooks: unknown flag $1" >&2; usage ;;
	*) notebooks+=("$1") ;;
	esac
	shift
done

if ((${#notebooks[@]} == 0)); then
	shopt -s nullglob
	notebooks=("$root"/notebooks/*.ipynb)
	shopt -u nullglob
	if ((${#notebooks[@]} == 0)); then
		echo "run-notebooks: no notebooks in $root/notebooks"
		exit 0
	fi
fi

if [[ ! -x "$jupyter" ]]; then
	echo "run-notebooks: $jupyter not found; run scripts/setup.sh (or set JUPYTER)" >&2
	exit 1
fi
# jupyter's own python sees the same kernelspec paths as nbconvert will.
python="$(head -1 "$jupyter" | sed -n 's/^#! *//p' | cut -d' ' -f1)"
python="${python:-/usr/bin/python3}"
if ! "$python" -c 'from jupyter_client.kernelspec import KernelSpecManager as M; M().get_kernel_spec("twintorus")' 2>/dev/null; then
	echo "run-notebooks: no \"twintorus\" kernelspec; run scripts/setup.sh" >&2
	exit 1
fi

export QUICK="${QUICK:-1}"
# No browser builds widgets here: kernel.Explore shows its static picture at once.
export TWINTORUS_NO_CONTROLS=1

if ((!inplace)) && [[ -z "$out" ]]; then
	out="$(mktemp -d "${TMPDIR:-/tmp}/twintorus-notebooks.XXXXXX")"
fi

args=(nbconvert --to notebook --execute
	--ExecutePreprocessor.kernel_name=twintorus
	--ExecutePreprocessor.timeout="$timeout")
if ((inplace)); then
	args+=(--inplace)
else
	mkdir -p "$out"
	args+=(--output-dir "$out")
fi

# A cell fails when its code does not compile or its program fails (a panic, a
# non-zero exit): the kernel's relay (kernel/relay) reports both as errors, and
# nbconvert stops at the first.
failed=()
for nb in "${notebooks[@]}"; do
	echo "run-notebooks: executing $nb (QUICK=$QUICK)"
	start=$SECONDS
	if "$jupyter" "${args[@]}" "$nb"; then
		echo "run-notebooks: ok $nb ($((SECONDS - start))s)"
	else
		echo "run-notebooks: FAILED $nb ($((SECONDS - start))s)" >&2
		failed+=("$nb")
	fi
done

if ((!inplace)); then
	echo "run-notebooks: executed notebooks are in $out"
fi
if ((${#failed[@]})); then
	echo "run-notebooks: ${#failed[@]} of ${#notebooks[@]} notebooks failed: ${failed[*]}" >&2
	exit 1
fi
echo "run-notebooks: all ${#notebooks[@]} notebooks ran"
