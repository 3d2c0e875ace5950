#!/usr/bin/env bash
# setup-slurm.sh: install what cmd/twintorus/internal/slurmtest needs to run a real
# single-host Slurm (Debian 12 ships Slurm 22.05):
#
#   munge         munged, mungekey (authentication between Slurm daemons/clients)
#   slurmctld     the controller
#   slurmd        the compute-node daemon
#   slurm-client  sbatch, squeue, sinfo, scontrol, sacct, scancel, srun
#
# Idempotent: packages already installed are left alone and nothing is
# fetched. Uses sudo only when not root. The packages' postinst scripts try to
# start the services; on a machine without systemd a temporary policy-rc.d
# (exit 101, "action forbidden") tells invoke-rc.d not to. The tests start
# their own daemons with their own configuration, so no service is wanted.
set -euo pipefail

packages=(munge slurmctld slurmd slurm-client)
tools=(munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol sacct)

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
	if ! command -v sudo >/dev/null; then
		echo "setup-slurm: not root and no sudo: cannot install ${packages[*]}" >&2
		exit 1
	fi
	SUDO=(sudo)
fi

missing=()
for p in "${packages[@]}"; do
	if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "setup-slurm: already installed: ${packages[*]}"
else
	echo "setup-slurm: installing Debian packages: ${missing[*]}"
	policy=/usr/sbin/policy-rc.d
	if [ ! -e "$policy" ]; then
		# Only ours to remove if we made it.
		printf '#!/bin/sh\n# temporary, from twintorus scripts/setup-slurm.sh\nexit 101\n' |
			"${SUDO[@]}" tee "$policy" >/dev/null
		"${SUDO[@]}" chmod 755 "$policy"
		trap '"${SUDO[@]}" rm -f "$policy"' EXIT
	fi
	export DEBIAN_FRONTEND=noninteractive
	# Quiet like the other setup scripts: apt's output is kept in a log and shown only
	# when the install fails. Package lists may be absent on a new machine; refresh
	# them once.
	log="$(mktemp "${TMPDIR:-/tmp}/setup-slurm.XXXXXX")"
	if ! "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
		if ! { "${SUDO[@]}" apt-get update -q && "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; } >>"$log" 2>&1; then
			cat "$log" >&2
			echo "setup-slurm: installing ${missing[*]} failed (apt output above)" >&2
			rm -f "$log"
			exit 1
		fi
	fi
	rm -f "$log"
fi

for t in "${tools[@]}"; do
	if ! command -v "$t" >/dev/null && [ ! -x "/usr/sbin/$t" ]; then
		echo "setup-slurm: $t not found after install" >&2
		exit 1
	fi
done
echo "setup-slurm: ok: $(slurmctld -V 2>/dev/null || /usr/sbin/slurmctld -V), $(munged --version 2>/dev/null | head -1 || true)"
