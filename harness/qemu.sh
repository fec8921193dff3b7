#!/usr/bin/env bash
# The QEMU every boot uses.  Prints the directory that holds
# qemu-system-x86_64 and qemu-system-aarch64.
#
#   QEMU=ours (default)  Debian's qemu source package, the version of the
#                        installed qemu-system-x86, with the project's
#                        series harness/qemu/*.patch applied on top; built
#                        once into build/qemu-bin-<key>/, where <key> hashes
#                        the source version, the series and this script,
#                        so a change to any of them builds anew (ccache
#                        keeps that cheap).
#   QEMU=debian          Debian's packaged binaries, for comparison.
#   QEMU_DIR=<dir>       binaries from <dir>: for working on the series.
#
# The source comes through apt's own client: the deb-src twins of the
# machine's configured Debian sources, in a private list directory, so
# the system's apt configuration is left alone.
. "$(dirname "$0")/lib.sh"

: "${QEMU:=ours}"
if [ -n "${QEMU_DIR:-}" ]; then
	bin=qemu-system-x86_64; [ "$ARCH" = arm64 ] && bin=qemu-system-aarch64
	[ -x "$QEMU_DIR/$bin" ] || die "QEMU_DIR=$QEMU_DIR has no $bin"
	echo "$QEMU_DIR"
	exit 0
fi
case "$QEMU" in
debian) echo /usr/bin; exit 0 ;;
ours) ;;
*) die "QEMU must be ours or debian, not '$QEMU'" ;;
esac

series=("$HARNESS"/qemu/*.patch)
version=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed (make deps)"
key=$( { echo "$version"; cat "${series[@]}" "$0"; } | sha256sum | cut -c1-12)
out=$BUILD/qemu-bin-$key
[ -f "$out/.done" ] && { echo "$out"; exit 0; }

exec 9>"$BUILD/qemu.lock"
flock 9
[ -f "$out/.done" ] && { echo "$out"; exit 0; }

# Debian's source, downloaded once per version.
upstream=${version#*:}
dl=$BUILD/qemu-dl
dsc=$dl/qemu_$upstream.dsc
if [ ! -f "$dsc" ]; then
	apt_dir=$BUILD/qemu-apt
	rm -rf "$apt_dir"
	mkdir -p "$apt_dir/parts" "$apt_dir/lists/partial" "$dl"
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" > "$apt_dir/parts/${f##*/}"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] && sed -n 's/^deb \(.*\)/deb-src \1/p' "$f" > "$apt_dir/parts/${f##*/}"
	done
	apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt_dir/parts"
		  -o "Dir::State::Lists=$apt_dir/lists")
	log "fetching Debian's qemu source $version"
	apt-get -q "${apt_opts[@]}" update >/dev/null ||
		die "apt-get update of the deb-src lists failed"
	(cd "$dl" && apt-get -q "${apt_opts[@]}" source --download-only "qemu=$version" >/dev/null 2>&1) ||
		die "cannot download the source of qemu $version"
fi

src=$BUILD/qemu-src
rm -rf "$src" "$BUILD"/qemu-bin-*
# apt checked the files against the archive's signed index; dpkg-source
# has no key to check the .dsc's own signature with.
dpkg-source --no-check --no-copy -x "$dsc" "$src" >/dev/null
for p in "${series[@]}"; do
	patch -d "$src" -p1 --quiet --no-backup-if-mismatch < "$p" ||
		die "harness/qemu/${p##*/} does not apply to qemu $version"
done

log "building QEMU $version + ${#series[@]} patches (${JOBS} jobs)"
start=$(date +%s)
mkdir -p "$src/b"
(
	cd "$src/b"
	# Only the two system emulators and the two boards the harness boots
	# (configs/devices/*/perfcore.mak, from the series); firmware from
	# Debian's qemu-system-data, seabios and ipxe-qemu packages, which
	# the +dfsg source does not carry.
	../configure --target-list=x86_64-softmmu,aarch64-softmmu \
		--without-default-features --without-default-devices \
		--with-devices-x86_64=perfcore --with-devices-aarch64=perfcore \
		--disable-docs --disable-tools --disable-werror \
		--cc="ccache gcc" \
		--firmwarepath=/usr/share/qemu:/usr/share/seabios:/usr/lib/ipxe/qemu
	nice ninja -j"$JOBS" qemu-system-x86_64 qemu-system-aarch64
) > "$BUILD/qemu-build.log" 2>&1 || die "QEMU build failed, see $BUILD/qemu-build.log"
mkdir -p "$out"
cp "$src/b/qemu-system-x86_64" "$src/b/qemu-system-aarch64" "$out/"
rm -rf "$src"
touch "$out/.done"
log "QEMU built in $(( $(date +%s) - start ))s: $out"
echo "$out"
