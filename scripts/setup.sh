#!/usr/bin/env bash
# Sets up the twintorus notebook kernel; safe to run again (it only adds what is missing).
#
#   scripts/setup.sh [--kernel-only] [twintorus kernel install flags...]
#
# 1. Debian's Jupyter: jupyter-notebook, jupyter-nbconvert, python3-nbclient, and the
#    jupyter-client and jupyter-nbformat tools (`jupyter kernelspec`, `jupyter trust`)
#    (apt-get, through sudo when not root). --kernel-only skips this step, for a Jupyter you
#    already have: the kernelspec goes to ~/.local/share/jupyter/kernels, which any
#    Jupyter of yours reads (or pass --prefix DIR for a virtualenv/conda Jupyter).
# 2. The module's dependencies into the Go module cache, so notebook cells build offline.
# 3. gonb, goimports and gopls (completion and inline docs in cells), at the versions of
#    go.mod's tool lines, and bin/twintorus (which runs gonb behind its relay), into bin/.
# 4. The "twintorus" kernelspec (twintorus kernel install).
# 5. Trust for the shipped notebooks (scripts/trust-notebooks.sh), so that their
#    interactive charts draw when opened, before any cell is run again.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

apt=1
if [[ "${1:-}" == "--kernel-only" ]]; then
	apt=0
	shift
fi

say() { echo "setup: $*"; }

if ! command -v go >/dev/null; then
	echo "setup: the go command is not on PATH; install Go (see go.mod for the version) first" >&2
	exit 1
fi

if ((apt)); then
	packages=(jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client jupyter-nbformat)
	missing=()
	for p in "${packages[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
			missing+=("$p")
		fi
	done
	if ((${#missing[@]})); then
		sudo=()
		if [[ "$(id -u)" != 0 ]]; then
			sudo=(sudo)
		fi
		say "installing Debian packages: ${missing[*]}"
		log="$(mktemp "${TMPDIR:-/tmp}/setup.XXXXXX")"
		if ! { "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
			cat "$log" >&2
			echo "setup: installing ${missing[*]} failed (apt output above)" >&2
			rm -f "$log"
			exit 1
		fi
		rm -f "$log"
	else
		say "Debian packages present: ${packages[*]}"
	fi
fi

# Cells compile against this module in gonb's temporary module; having every
# dependency in the module cache is what lets them build with no network.
say "downloading Go module dependencies into $(go env GOMODCACHE) (no-op when present)"
go mod download

say "building bin/gonb, bin/goimports, bin/gopls (versions from go.mod's tool lines) and bin/twintorus"
mkdir -p bin
go build -o bin/gonb github.com/janpfeifer/gonb
go build -o bin/goimports golang.org/x/tools/cmd/goimports
go build -o bin/gopls golang.org/x/tools/gopls
# With the revision, as make build sets it, so that twintorus version names it.
go build -ldflags "-X github.com/twintorus/twintorus/internal/version.Revision=$(git rev-parse --short HEAD 2>/dev/null)" -o bin/twintorus ./cmd/twintorus

say "installing the kernelspec"
bin/twintorus kernel install --root "$root" "$@"

# With --kernel-only, the user's own Jupyter (first on PATH) keeps the signatures.
if ((!apt)) && [[ -z "${JUPYTER:-}" ]]; then
	JUPYTER="$(command -v jupyter || true)"
fi
if [[ -n "${JUPYTER:-}" || -x /usr/bin/jupyter ]]; then
	JUPYTER="${JUPYTER:-/usr/bin/jupyter}" scripts/trust-notebooks.sh
else
	say "no jupyter command found: notebooks not signed as trusted (scripts/trust-notebooks.sh)"
fi
