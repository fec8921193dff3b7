#!/usr/bin/env bash
# Unpack Debian's linux-source-6.12 once into build/linux-<version>/ and
# print the version.  The tree is never modified afterwards: it is the
# stock kernel, the oracle every conformance test is checked against.
. "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || bash "$HARNESS/deps.sh"
[ -f "$tarball" ] || die "$tarball missing after installing linux-source-6.12"

if ! base_version >/dev/null 2>&1; then
	log "unpacking $tarball"
	rm -rf "$BUILD/linux-source-6.12"
	tar xf "$tarball" -C "$BUILD"
	ver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3}
		END{print v "." p "." s}' "$BUILD/linux-source-6.12/Makefile")
	mv "$BUILD/linux-source-6.12" "$BUILD/linux-$ver"
	# Make the files read-only so nothing writes through the hard links
	# that the ours tree shares with this one.
	find "$BUILD/linux-$ver" -type f -exec chmod a-w {} +
fi
ver=$(base_version)
pkg=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo unknown)
echo "$ver (Debian linux-source-6.12 $pkg)" > "$BUILD/base-version"
log "base tree: linux $ver (Debian linux-source-6.12 $pkg)"
