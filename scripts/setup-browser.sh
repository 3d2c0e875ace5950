#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (kernel/browsertest); safe to run
# again. Uses sudo when not root. Browser tests skip when /usr/bin/chromium is absent.
set -euo pipefail

packages=(chromium fonts-liberation)
missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing+=("$p")
	fi
done
if ((${#missing[@]} == 0)); then
	echo "setup-browser: Debian packages present: ${packages[*]}"
	exit 0
fi
sudo=()
if [[ "$(id -u)" != 0 ]]; then
	sudo=(sudo)
fi
echo "setup-browser: installing Debian packages: ${missing[*]}"
log="$(mktemp "${TMPDIR:-/tmp}/setup-browser.XXXXXX")"
if ! { "${sudo[@]}" apt-get update -q && "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
	cat "$log" >&2
	echo "setup-browser: installing ${missing[*]} failed (apt output above)" >&2
	rm -f "$log"
	exit 1
fi
rm -f "$log"
echo "setup-browser: $(/usr/bin/chromium --version 2>/dev/null)"
