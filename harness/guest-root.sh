#!/usr/bin/env bash
# Build build/guest-root-$ARCH/: busybox, perf and trinity (the system-call
# fuzzer make fuzz runs) with their shared library closure, laid out at
# their usual paths.
#
# Everything comes from Debian's packages of the guest's architecture,
# downloaded and unpacked, never installed, so what the host has
# installed plays no part: busybox, trinity and the libraries from
# bookworm through the host's apt lists (multiarch for arm64), and perf
# from linux-perf 6.12 in bookworm-backports, the perf tool of our
# kernel's version, which backports.py fetches and checks against the
# suite's signed Release.  The library closure follows DT_NEEDED
# (readelf) through the unpacked packages of the binaries' dependencies.
. "$(dirname "$0")/lib.sh"

root=$BUILD/guest-root-$ARCH
stamp=$root/.perfcore-root
# The stamp holds this script's hash: a root made by an older version
# (one without a binary added since) is made again.
want=$(sha1sum < "$0" | cut -c1-40)
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && { echo "$root"; exit 0; }
bash "$HARNESS/deps.sh"

case "$ARCH" in
x86_64) darch=amd64; triplet=x86_64-linux-gnu; loader=lib64/ld-linux-x86-64.so.2 ;;
arm64) darch=arm64; triplet=aarch64-linux-gnu; loader=lib/ld-linux-aarch64.so.1 ;;
esac
perf_suite=bookworm-backports

debs=$BUILD/guest-debs-$darch
sysroot=$BUILD/guest-sysroot-$darch
rm -rf "$sysroot"
mkdir -p "$debs" "$sysroot"

# Download (through the host's apt lists) the packages not fetched
# before, in one apt-get (each start reads the whole cache): an
# architecture-independent package by its name, the others for the
# guest's architecture.  The lists are fetched once if this
# architecture's are missing.
fetched() { compgen -G "$debs/${1}_*.deb" >/dev/null; }
fetch() {
	local p todo=() names=() indep
	for p in "$@"; do fetched "$p" || todo+=("$p"); done
	[ ${#todo[@]} -gt 0 ] || return 0
	indep=" $(apt-cache show --no-all-versions "${todo[@]}" 2>/dev/null |
		  awk '/^Package:/ { p = $2 } /^Architecture: all/ { print p }' |
		  tr '\n' ' ')"
	for p in "${todo[@]}"; do
		case "$indep" in *" $p "*) names+=("$p") ;; *) names+=("$p:$darch") ;; esac
	done
	(cd "$debs" && apt-get download -q "${names[@]}" >/dev/null 2>&1) || {
		apt-get update -q >/dev/null
		(cd "$debs" && apt-get download -q "${names[@]}" >/dev/null 2>&1)
	} || die "cannot download: ${names[*]}"
}

# The shared-library packages (lib*, zlib1g) in the Depends closure of
# packages.
lib_closure() {
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances "$@" 2>/dev/null |
		sed -n 's/^\(lib[^ :<>]*\|zlib1g\)\(:[a-z0-9]*\)\?$/\1/p' | sort -u
}

# linux-perf 6.12: its .deb, and the library packages of its Depends.
perf_deb=$(ls "$debs"/linux-perf_6.12.*_"$darch".deb 2>/dev/null | head -n1) || true
if [ -z "$perf_deb" ] || [ ! -s "$debs/linux-perf.depends" ]; then
	out=$(python3 "$HARNESS/backports.py" "$perf_suite" "$darch" linux-perf "$debs") ||
		die "cannot fetch linux-perf from $perf_suite"
	perf_deb=$(head -n1 <<<"$out")
	# One name a line: no versions, the first of alternatives.
	sed -n 2p <<<"$out" | tr ',' '\n' | sed 's/^ *//; s/[ (|].*//' \
		> "$debs/linux-perf.depends"
fi
perf_libs=$(grep -E '^(lib|zlib1g$)' "$debs/linux-perf.depends" | sed "s/\$/:$darch/")

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,lib,lib64,proc,sys,dev,tmp,etc,suite,root}
# shellcheck disable=SC2086
pkgs=(busybox-static trinity $(lib_closure $perf_libs "trinity:$darch"))
fetch "${pkgs[@]}"
for p in "${pkgs[@]}"; do
	dpkg -x "$(compgen -G "$debs/${p}_*.deb" | head -n1)" "$sysroot"
done
dpkg -x "$perf_deb" "$sysroot"
cp "$sysroot/bin/busybox" "$root/bin/busybox"
cp "$sysroot/usr/bin/perf" "$root/usr/bin/perf"
cp "$sysroot/usr/bin/trinity" "$root/usr/bin/trinity"

libdirs=("$sysroot/lib/$triplet" "$sysroot/usr/lib/$triplet" "$sysroot/usr/lib" "$sysroot/lib")
find_lib() { local d; for d in "${libdirs[@]}"; do
	[ -e "$d/$1" ] && { echo "$d/$1"; return 0; }; done; return 1; }
needed() { readelf -d "$1" 2>/dev/null |
	sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'; }
# Copy the DT_NEEDED closure of the binaries into the root.
todo=("$sysroot/usr/bin/perf" "$sysroot/usr/bin/trinity"); seen=" "; missing=()
while [ ${#todo[@]} -gt 0 ]; do
	f=${todo[0]}; todo=("${todo[@]:1}")
	for n in $(needed "$f"); do
		case "$seen" in *" $n "*) continue ;; esac
		seen="$seen$n "
		if l=$(find_lib "$n"); then
			mkdir -p "$root/lib/$triplet"
			cp -L "$l" "$root/lib/$triplet/$n"
			todo+=("$l")
		else
			missing+=("$n")
		fi
	done
done
[ ${#missing[@]} -eq 0 ] || die "library closure unresolved: ${missing[*]}"
mkdir -p "$root/$(dirname "$loader")"
cp -L "$(find_lib "$(basename "$loader")")" "$root/$loader"
echo "$want" > "$stamp"
log "guest root $ARCH: $(du -sh "$root" | cut -f1) (busybox, linux-perf $(dpkg-deb -f "$perf_deb" Version))"
echo "$root"
