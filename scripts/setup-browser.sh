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
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup-browser: $(/usr/bin/chromium --version)"
