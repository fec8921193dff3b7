#!/usr/bin/env bash
# Install the Debian packages the harness needs, once.  Root only; on a
# machine where everything is present this prints nothing and is quick.
. "$(dirname "$0")/lib.sh"

pkgs=(linux-source-6.12 qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu
      libc6-dev-arm64-cross ccache flex bison libelf-dev
      libssl-dev bc cpio kmod xz-utils rsync python3 perl
      # the guests' busybox, perf and trinity are downloaded, not
      # installed (guest-root.sh); backports.py checks the suite it
      # fetches linux-perf 6.12 from against Debian's keyring
      gpgv debian-archive-keyring
      # our QEMU (harness/qemu.sh): Debian's source and what it builds with
      dpkg-dev patch meson ninja-build pkg-config libglib2.0-dev
      libpixman-1-dev libfdt-dev zlib1g-dev
      # the UEFI firmware of the arm64 ACPI boot (boot.sh PMU_MODEL=acpi)
      qemu-efi-aarch64)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
# arm64 packages for the arm64 guest (busybox, perf's and trinity's
# libraries) come from Debian's arm64 archive through multiarch.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
	need_update=1
fi
if [ ${#missing[@]} -gt 0 ] || [ -n "${need_update:-}" ]; then
	[ "$(id -u)" = 0 ] || die "need root to install: ${missing[*]}"
	log "installing: ${missing[*]:-(arm64 package lists)}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null
	[ ${#missing[@]} -eq 0 ] || apt-get install -y -q "${missing[@]}" >/dev/null
fi
