#!/usr/bin/env bash
# Sets up the twintorus notebook kernel; safe to run again (it only adds what is missing).
#
#   scripts/setup.sh [--kernel-only] [twintorus kernel install flags...]
#
# 0. Go: the go command must be at least the version on go.mod's go line; when it is
#    missing or older, setup says how to install Go and stops, before anything else.
# 1. Debian's Jupyter: jupyter-notebook, jupyter-nbconvert, python3-nbclient, and the
#    jupyter-client and jupyter-nbformat tools (`jupyter kernelspec`, `jupyter trust`)
#    (apt-get, through sudo when not root). --kernel-only skips this step, for a Jupyter you
#    already have: the kernelspec goes to ~/.local/share/jupyter/kernels, which any
#    Jupyter of yours reads (or pass --prefix DIR for a virtualenv/conda Jupyter).
#    Also the OTF2 and MPI tools of real application traces (twintorus trace record and
#    trace import, and their tests): libotf2-trace-dev (libotf2, otf2-config), otf2-tools
#    (otf2-print), python3-otf2 (the OTF2 reader the importer runs), openmpi-bin (mpirun),
#    libopenmpi-dev (mpicc, which builds the recorder) and hpcc (the HPC Challenge suite,
#    the real MPI program the stored traces record).
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

# version_key prints a Go version (1.26.8, 1.26, 1.26rc1) as four numbers that compare
# field by field: major, minor, patch, and 1 for a release (0 for a pre-release,
# which comes before the release of the same minor version).
version_key() {
	local re='^([0-9]+)\.([0-9]+)(\.([0-9]+))?(.*)$'
	[[ "$1" =~ $re ]] || return 1
	local release=1
	[[ -n "${BASH_REMATCH[5]}" ]] && release=0
	echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[4]:-0} $release"
}

# version_ge says whether Go version $1 is at least $2.
version_ge() {
	local a b i ka kb
	ka="$(version_key "$1")" && kb="$(version_key "$2")" || return 1
	read -ra a <<<"$ka"
	read -ra b <<<"$kb"
	for i in 0 1 2 3; do
		((a[i] > b[i])) && return 0
		((a[i] < b[i])) && return 1
	done
	return 0
}

# check_go stops setup, saying what to install, unless the go command is at least
# go.mod's go version. It asks the installed go (GOTOOLCHAIN=local, outside this
# module): in this checkout a go 1.21 or newer with GOTOOLCHAIN=auto would download
# and run the newer toolchain instead of reporting its own version.
check_go() {
	local need toolchain have="" line arch
	need="$(sed -n 's/^go[[:space:]]\{1,\}\([0-9][^[:space:]]*\).*/\1/p' go.mod | head -1)"
	toolchain="$(sed -n 's/^toolchain[[:space:]]\{1,\}go\([^[:space:]]*\).*/\1/p' go.mod | head -1)"
	if [[ -z "$need" ]] || ! version_key "$need" >/dev/null; then
		echo "setup: cannot read the Go version from go.mod's go line ('${need}')" >&2
		exit 1
	fi
	case "$(uname -m)" in
	x86_64 | amd64) arch=amd64 ;;
	aarch64 | arm64) arch=arm64 ;;
	i?86) arch=386 ;;
	armv6l | armv7l) arch=armv6l ;;
	*) arch="$(uname -m)" ;;
	esac
	if command -v go >/dev/null; then
		line="$(cd / && GOTOOLCHAIN=local go version 2>&1 | head -1 || true)"
		if [[ "$line" =~ ^go\ version\ devel ]]; then
			say "$(command -v go) is a development build ($line); go.mod asks for Go ${need} or newer"
			return
		fi
		if [[ "$line" =~ ^go\ version\ go([0-9][^ ]*) ]]; then
			have="${BASH_REMATCH[1]}"
			if version_ge "$have" "$need"; then
				say "go ${have} at $(command -v go) (go.mod asks for ${need} or newer)"
				return
			fi
			echo "setup: go.mod asks for Go ${need} or newer, and $(command -v go) is go ${have}." >&2
		else
			echo "setup: go.mod asks for Go ${need} or newer, and $(command -v go) does not say its version ($line)." >&2
		fi
	else
		echo "setup: the go command is not on PATH; go.mod asks for Go ${need} or newer." >&2
		if [[ -x /usr/local/go/bin/go ]]; then
			echo "setup: /usr/local/go/bin/go exists: if it is new enough, put it on PATH (export PATH=/usr/local/go/bin:\$PATH) and run this again." >&2
		fi
	fi
	cat >&2 <<EOF
setup: install Go ${need} from https://go.dev/dl into /usr/local/go:
setup:     curl -fLO https://go.dev/dl/go${need}.linux-${arch}.tar.gz
setup:     sudo rm -rf /usr/local/go && sudo tar -C /usr/local -xzf go${need}.linux-${arch}.tar.gz
setup:     export PATH=/usr/local/go/bin:\$PATH    # and add this line to ~/.profile
setup: then run this again. Debian's golang-go package does only if 'apt-cache policy golang-go'
setup: shows ${need} or newer: bookworm's is Go 1.19.
EOF
	if [[ -n "$toolchain" ]]; then
		echo "setup: (go.mod also names toolchain go${toolchain}, which a go 1.21 or newer with GOTOOLCHAIN=auto downloads and runs in this checkout; setup wants an installed Go all the same.)" >&2
	elif [[ "$have" =~ ^1\.(2[1-9]|[3-9][0-9]) ]]; then
		echo "setup: (With GOTOOLCHAIN=auto, the default of Go's own builds, this go would download go${need} from the module proxy the first time it runs in this checkout and run that. Setup does not count on it: it needs the network, GOTOOLCHAIN=local forbids it (yours: $(cd / && go env GOTOOLCHAIN 2>/dev/null)), and the kernel would run cells with a toolchain inside the module cache, which go clean -modcache deletes.)" >&2
	fi
	exit 1
}

# Go first, before apt: everything after it needs go.
check_go

if ((apt)); then
	packages=(jupyter-notebook jupyter-nbconvert python3-nbclient jupyter-client jupyter-nbformat
		libotf2-trace-dev otf2-tools python3-otf2 openmpi-bin libopenmpi-dev hpcc)
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
