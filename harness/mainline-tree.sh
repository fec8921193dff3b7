#!/usr/bin/env bash
# Unpack Debian's linux-source-$MAINLINE_SERIES (from $MAINLINE_SUITE, see
# lib.sh) once into build/linux-mainline-<version>/; its version is
# written to build/mainline-version.
# The tree is never modified afterwards: like the stock tree, it is an
# oracle (KERNEL=mainline), for what the 6.12 base tree has no driver
# for (arm64's BRBE branch records).
#
# The package is downloaded, not installed: the host (Debian 12) has no
# apt source for the suite, and backports.py checks the .deb against the
# suite's signed InRelease as apt would.  The .deb is kept in
# build/mainline-debs/, so a removed tree is unpacked again without a
# download.
. "$(dirname "$0")/lib.sh"

if ! mainline_version >/dev/null 2>&1; then
	pkg=linux-source-$MAINLINE_SERIES
	debs=$BUILD/mainline-debs
	mkdir -p "$debs"
	deb=$(compgen -G "$debs/${pkg}_*_all.deb" | head -n1) || true
	if [ -z "$deb" ]; then
		# Python and gpgv for backports.py, Debian's keyring.
		bash "$HARNESS/deps.sh"
		log "downloading $pkg from $MAINLINE_SUITE"
		# The package is Architecture: all, but it is looked up in
		# binary-amd64's index: the mirror's binary-all/Packages.xz
		# has been seen stale (its hash not the one InRelease
		# gives), and the suite says No-Support-for-Architecture-all:
		# Packages, i.e. every arch's index lists the arch-all
		# packages too.  amd64 whatever the host or guest.
		out=$(python3 "$HARNESS/backports.py" "$MAINLINE_SUITE" amd64 "$pkg" "$debs") ||
			die "cannot fetch $pkg from $MAINLINE_SUITE"
		deb=$(head -n1 <<<"$out")
	fi
	log "unpacking $(basename "$deb")"
	# Into a scratch name first: mainline_version only finds the tree
	# once it is whole, so an interrupted unpack is started over.
	rm -rf "$BUILD/linux-source-$MAINLINE_SERIES"
	dpkg-deb --fsys-tarfile "$deb" |
		tar -xO "./usr/src/$pkg.tar.xz" | tar -xJ -C "$BUILD" ||
		die "cannot unpack $deb"
	src=$BUILD/linux-source-$MAINLINE_SERIES
	[ -f "$src/Makefile" ] || die "$deb has no $pkg tree"
	ver=$(awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3}
		END{print v "." p "." s}' "$src/Makefile")
	# Read-only, as the stock tree: nothing is to be built into it.
	find "$src" -type f -exec chmod a-w {} +
	mv "$src" "$BUILD/linux-mainline-$ver"
	dpkg-deb -f "$deb" Version > "$BUILD/linux-mainline-$ver/.perfcore-debian-version"
fi
ver=$(mainline_version)
dver=$(cat "$(mainline_tree)/.perfcore-debian-version" 2>/dev/null || echo unknown)
echo "$ver (Debian linux-source-$MAINLINE_SERIES $dver)" > "$BUILD/mainline-version"
log "mainline tree: linux $ver (Debian linux-source-$MAINLINE_SERIES $dver)"
