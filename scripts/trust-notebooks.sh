#!/usr/bin/env bash
# Signs the shipped notebooks as trusted for this user (`jupyter trust`), so that Jupyter
# runs their stored HTML outputs, the interactive charts, when they are opened. Without
# it a notebook opens "Not Trusted": its charts stay blank until its cells are run again
# (or File > Trust Notebook). Safe to run again; setup runs it.
#
#   scripts/trust-notebooks.sh [notebook.ipynb...]     (default: notebooks/*.ipynb)
#
# The signatures live in Jupyter's data directory ($JUPYTER_DATA_DIR, else
# ~/.local/share/jupyter/nbsignatures.db); a notebook changed outside Jupyter (git pull)
# needs signing again. JUPYTER overrides the jupyter command (default /usr/bin/jupyter).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jupyter="${JUPYTER:-/usr/bin/jupyter}"
if (($# == 0)); then
	shopt -s nullglob
	set -- "$root"/notebooks/*.ipynb
	shopt -u nullglob
fi
if (($# == 0)); then
	exit 0
fi
if ! "$jupyter" trust --help >/dev/null 2>&1; then
	echo "trust-notebooks: \`$jupyter trust\` is missing (Debian package jupyter-nbformat); run scripts/setup.sh" >&2
	exit 1
fi
if ! out="$("$jupyter" trust "$@" 2>&1)"; then
	echo "$out" >&2
	exit 1
fi
echo "trust-notebooks: signed $# notebooks as trusted"
