#!/usr/bin/env bash
# Build build/guest-root-$ARCH/: busybox, Debian's perf and trinity (the
# system-call fuzzer make fuzz runs) with their shared library closure,
# laid out at their usual paths.  x86_64 takes the host's installed
# binaries; arm64 unpacks Debian's arm64 packages (multiarch download,
# nothing installed) and follows DT_NEEDED with readelf, mapping each
# missing library to its Debian package through the host's amd64 copy.
. "$(dirname "$0")/lib.sh"

root=$BUILD/guest-root-$ARCH
stamp=$root/.perfcore-root
# The stamp holds this script's hash: a root made by an older version
# (one without a binary added since) is made again.
want=$(sha1sum < "$0" | cut -c1-40)
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && { echo "$root"; exit 0; }
bash "$HARNESS/deps.sh"
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,lib,lib64,proc,sys,dev,tmp,etc,suite,root}

if [ "$ARCH" = x86_64 ]; then
	cp /bin/busybox "$root/bin/busybox"
	cp /usr/bin/perf "$root/usr/bin/perf"
	cp /usr/bin/trinity "$root/usr/bin/trinity"
	for lib in $(ldd /usr/bin/perf /usr/bin/trinity |
		     awk '/=>/ {print $3} /ld-linux/ {print $1}' | sort -u); do
		[ -f "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
	# glibc's loader is also reached through /lib64 on x86_64.
	[ -e "$root/lib64/ld-linux-x86-64.so.2" ] ||
		cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"
else
	sysroot=$BUILD/arm64-sysroot
	debs=$BUILD/arm64-debs
	mkdir -p "$sysroot" "$debs"
	fetch() {	# download and unpack arm64 packages not fetched before
		local p
		for p in "$@"; do
			ls "$debs/${p}"_*_arm64.deb >/dev/null 2>&1 && continue
			(cd "$debs" && apt-get download -q "$p:arm64" >/dev/null 2>&1) ||
				die "cannot download $p:arm64"
			dpkg -x "$(ls "$debs/${p}"_*_arm64.deb | head -n1)" "$sysroot"
		done
	}
	fetch busybox-static linux-perf trinity libc6
	cp "$sysroot/bin/busybox" "$root/bin/busybox"
	perf_bin=$sysroot/usr/bin/perf
	cp "$perf_bin" "$root/usr/bin/perf"
	cp "$sysroot/usr/bin/trinity" "$root/usr/bin/trinity"
	libdirs=("$sysroot/lib/aarch64-linux-gnu" "$sysroot/usr/lib/aarch64-linux-gnu"
		 "$sysroot/usr/lib" "$sysroot/lib")
	find_lib() { local d; for d in "${libdirs[@]}"; do
		[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }; done; return 1; }
	needed() { readelf -d "$1" 2>/dev/null |
		sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'; }
	# The package of a library's amd64 copy, by its exact path: a
	# substring search would also match files that merely embed the
	# name (libglib2.0-dev's gdb script for libglib-2.0.so.0).
	amd64_package() {
		local out
		# dpkg -S fails when it knows either path not (with usrmerge
		# a package lists one of the two), so its status says nothing.
		out=$(dpkg -S "/lib/x86_64-linux-gnu/$1" "/usr/lib/x86_64-linux-gnu/$1" 2>/dev/null) || true
		awk -F: '!/^diversion/ { print $1; exit }' <<<"$out"
	}
	# Walk perf's DT_NEEDED closure, copying what resolves and fetching
	# the packages of what does not, until everything resolves.
	for _ in $(seq 1 10); do
		todo=("$perf_bin" "$sysroot/usr/bin/trinity"); seen=" "; missing=()
		while [ ${#todo[@]} -gt 0 ]; do
			f=${todo[0]}; todo=("${todo[@]:1}")
			for n in $(needed "$f"); do
				case "$seen" in *" $n "*) continue ;; esac
				seen="$seen$n "
				if l=$(find_lib "$n"); then
					mkdir -p "$root/lib/aarch64-linux-gnu"
					cp -L "$l" "$root/lib/aarch64-linux-gnu/$n"
					todo+=("$l")
				else
					missing+=("$n")
				fi
			done
		done
		[ ${#missing[@]} -eq 0 ] && break
		pkgs=()
		for n in "${missing[@]}"; do
			case "$n" in
			libunwind-aarch64*) p=libunwind8 ;;	# amd64 has -x86_64
			*) p=$(amd64_package "$n") ;;
			esac
			[ -n "$p" ] || die "no package provides $n"
			pkgs+=("$p")
		done
		fetch $(printf '%s\n' "${pkgs[@]}" | sort -u)
	done
	[ ${#missing[@]} -eq 0 ] || die "library closure unresolved: ${missing[*]}"
	cp -L "$(find_lib ld-linux-aarch64.so.1)" "$root/lib/ld-linux-aarch64.so.1"
fi
echo "$want" > "$stamp"
log "guest root $ARCH: $(du -sh "$root" | cut -f1) (busybox, perf $("$root/usr/bin/perf" --version 2>/dev/null || echo "for $ARCH"))"
echo "$root"
