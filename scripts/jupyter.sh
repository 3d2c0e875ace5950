#!/usr/bin/env bash
# Starts Debian's Jupyter Notebook on notebooks/ with the "twintorus" kernel, bound to
# 127.0.0.1 and with no browser; Jupyter prints the URL with its login token.
#
#   scripts/jupyter.sh [extra jupyter notebook flags, e.g. --port=8899]
#
# TWINTORUS_NOTEBOOKS serves another directory than notebooks/ (the tests serve copies).
# Run scripts/setup.sh first (make run does both). From another machine, tunnel:
# ssh -L 8888:127.0.0.1:8888 HOST, then open the printed URL.
#
# It first prints which checkout (path and git revision) the kernel runs for the
# served directory: the checkout a notebook is in, whichever checkout installed the
# kernelspec last (twintorus kernel which; TWINTORUS overrides bin/twintorus).
# TWINTORUS_KERNEL_VERBOSE=1 makes the kernels' log verbose.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jupyter="${JUPYTER:-/usr/bin/jupyter}"
if [[ ! -x "$jupyter" ]]; then
	echo "jupyter: $jupyter not found; run scripts/setup.sh first" >&2
	exit 1
fi

dir="${TWINTORUS_NOTEBOOKS:-$root/notebooks}"
mkdir -p "$dir"
args=(notebook --no-browser --ip=127.0.0.1 --notebook-dir="$dir")
if [[ "$(id -u)" == 0 ]]; then
	args+=(--allow-root) # Jupyter refuses to run as root without it
fi
twintorus="${TWINTORUS:-$root/bin/twintorus}"
which=""
if [[ -x "$twintorus" ]] && which="$("$twintorus" kernel which --jupyter "$jupyter" "$dir" 2>&1)"; then
	echo "jupyter: the twintorus kernel runs $which"
else
	echo "jupyter: cannot tell which checkout the twintorus kernel runs (${which:-no $twintorus}); run scripts/setup.sh" >&2
fi
echo "jupyter: serving $dir; open the http://127.0.0.1:...?token=... URL below (Ctrl-C to stop)"
exec "$jupyter" "${args[@]}" "$@"
