# shellcheck shell=bash
# Common settings for the harness scripts.  Sourced, never run.
#
# Layout under build/ (git-ignored):
#   linux-<ver>/             the untouched base tree (KERNEL=stock)
#   ours/                    hard-linked copy with the overlay (KERNEL=ours)
#   <tree>/.out-<arch>[-debug]   object directories, one level below the
#                            tree so kbuild uses relative paths and ccache
#                            shares objects between stock and ours
#   guest-<arch>/            suite binaries and initramfs staging
#   logs/                    console logs and results of every boot
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HARNESS=$ROOT/harness
BUILD=$ROOT/build
LOGS=$BUILD/logs
SUITE_SRC=$ROOT/tools/testing/selftests/perf_events
mkdir -p "$BUILD" "$LOGS"

: "${ARCH:=x86_64}"
: "${KERNEL:=ours}"
: "${DEBUG:=0}"
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

case "$ARCH" in
x86_64)
	KARCH=x86_64; CROSS=; IMAGE=arch/x86/boot/bzImage
	TARGET_CC=gcc ;;
arm64)
	KARCH=arm64; CROSS=aarch64-linux-gnu-; IMAGE=arch/arm64/boot/Image
	TARGET_CC=aarch64-linux-gnu-gcc ;;
*)
	echo "ARCH must be x86_64 or arm64, not '$ARCH'" >&2; exit 2 ;;
esac
case "$KERNEL" in ours|stock|next) ;; *)
	echo "KERNEL must be ours, stock or next, not '$KERNEL'" >&2; exit 2 ;;
esac

log() { printf '[harness] %s\n' "$*" >&2; }
die() { printf '[harness] error: %s\n' "$*" >&2; exit 1; }

# The base tree's version, e.g. 6.12.117, from the unpacked Makefile.
base_version() {
	local mk
	mk=$(ls -d "$BUILD"/linux-6.12.*/Makefile 2>/dev/null | head -n1) || true
	[ -n "$mk" ] || return 1
	awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3}
	     END{print v "." p "." s}' "$mk"
}

stock_tree() { echo "$BUILD/linux-$(base_version)"; }
ours_tree() { echo "$BUILD/ours"; }
next_tree() { echo "$BUILD/next"; }
tree_for() {
	case "$1" in stock) stock_tree ;; next) next_tree ;; *) ours_tree ;; esac
}
# The manifests a flavour applies, in order: ours is MANIFEST; next is
# MANIFEST then MANIFEST.next (work in progress, see README).
manifests_for() {
	case "$1" in
	ours) echo "$HARNESS/MANIFEST" ;;
	next) echo "$HARNESS/MANIFEST $HARNESS/MANIFEST.next" ;;
	esac
}
objdir_for() {	# kernel arch debug
	local t; t=$(tree_for "$1")
	if [ "$3" = 1 ]; then echo "$t/.out-$2-debug"; else echo "$t/.out-$2"; fi
}
