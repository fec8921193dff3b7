# shellcheck shell=bash
# Common settings for the harness scripts.  Sourced, never run.
#
# Layout under build/ (git-ignored):
#   linux-<ver>/             the untouched base tree (KERNEL=stock)
#   ours/                    hard-linked copy with the overlay (KERNEL=ours)
#   linux-mainline-<ver>/    a newer upstream kernel, untouched
#                            (KERNEL=mainline, arm64 only; mainline-tree.sh)
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

: "${KERNEL:=ours}"
# KERNEL=mainline is built for arm64 alone (below): its default arch.
[ "$KERNEL" = mainline ] && : "${ARCH:=arm64}"
: "${ARCH:=x86_64}"
: "${DEBUG:=0}"
# PROFILE: which configuration the kernel is built in.  test (the default)
# is tinyconfig plus configs/common.config and configs/$ARCH.config, all
# the suite needs; compat adds configs/compat-$ARCH.config, every in-tree
# user of the perf API a distribution turns on (make compat).
: "${PROFILE:=test}"
JOBS=${JOBS:-$(nproc)}
# The family 6 Intel models hwfamily is held to stock on (PMU_MODEL
# intel-mNN, one boot each in make check; make families records them),
# one per set of tables the stock kernel has for a family: Core 2
# (Penryn), Nehalem, Westmere, Sandy Bridge and its server part, Ivy
# Bridge and its server part, Haswell, Broadwell, Knights Landing,
# Bonnell, Silvermont, Goldmont, Goldmont Plus, Tremont, Skylake, Ice
# Lake and its server part, Sapphire Rapids, Granite Rapids, Sierra
# Forest (Crestmont) and Alder Lake-N (Gracemont alone).
INTEL_FAMILY_MODELS="17 1a 2c 2a 2d 3a 3e 3c 3d 57 1c 37 5c 7a 86 5e 7e 6a 8f ad af be"
# The hybrid ones (PMU_MODEL intel-hNN, our hybrid model: a P-core and
# an E-core): Alder Lake, Meteor Lake, Lunar Lake and Arrow Lake.
INTEL_HYBRID_MODELS="97 aa bd c6"
# Those of INTEL_FAMILY_MODELS booted with the topdown metrics (PMU_MODEL
# intel-tNN: perfmon v5, fixed counter 3 and IA32_PERF_METRICS), as the
# parts are: Ice Lake client, Sapphire Rapids, Granite Rapids.  Ice
# Lake's server part (6a) stays intel-mNN, without them, as a KVM
# guest's perfmon v2 shows the same cores.
INTEL_TOPDOWN_MODELS="7e 8f ad"
# The hybrid ones whose CPUs say their own counters in CPUID leaf 23H
# (pmu-perfmon-ext=on), as Meteor Lake and later do; Alder Lake's not.
INTEL_PERFMON_EXT_MODELS="aa bd c6"

# Those booted with RTM (rtm-abort=on: every transaction aborts as it
# begins, as the SDM allows), so that stock's transactional filters and
# events show: one model per set of stock's TSX events (Haswell's,
# Skylake's, Ice Lake's, Golden Cove's, the hybrid P-cores'); the other
# models of each family keep the path without RTM.
INTEL_RTM_MODELS="3c 5e 6a 8f 97"

# intel_family_cpu_extra NN: the -cpu properties model NN gets beyond
# its kind of boot (intel-mNN, -tNN, -hNN): a hybrid model's core types
# with their own counters, as the parts have them (leaf 23H says so):
# Meteor Lake's Crestmont E-cores 8 general-purpose counters; Lunar
# Lake's and Arrow Lake's Lion Cove P-cores 10, their Skymont E-cores 8
# and fixed counters 4-6 (Alder Lake's are the model's own: P-cores 8,
# E-cores 6); and RTM where INTEL_RTM_MODELS lists NN.
intel_family_cpu_extra() {
	case "$1" in
	aa) echo -n ",pmu-atom-gp-counters=8" ;;
	bd|c6) echo -n ",pmu-core-gp-counters=10,pmu-atom-gp-counters=8,pmu-atom-fixed-mask=0x77" ;;
	esac
	[[ " $INTEL_RTM_MODELS " == *" $1 "* ]] && echo -n ",rtm-abort=on"
	echo
}

# intel_family_pmu NN: the PMU_MODEL that boots model NN for hwfamily.
intel_family_pmu() {
	if [[ " $INTEL_HYBRID_MODELS " == *" $1 "* ]]; then
		echo "intel-h$1"
	elif [[ " $INTEL_TOPDOWN_MODELS " == *" $1 "* ]]; then
		echo "intel-t$1"
	else
		echo "intel-m$1"
	fi
}

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
case "$PROFILE" in test|compat) ;; *)
	echo "PROFILE must be test or compat, not '$PROFILE'" >&2; exit 2 ;;
esac
case "$KERNEL" in ours|stock|next|mainline) ;; *)
	echo "KERNEL must be ours, stock, next or mainline, not '$KERNEL'" >&2; exit 2 ;;
esac
# KERNEL=mainline exists as the oracle for what 6.12 has no driver for on
# arm64 (BRBE's branch records); its config fragment is arm64's alone,
# and nothing on x86_64 is held to it.
if [ "$KERNEL" = mainline ] && [ "$ARCH" != arm64 ]; then
	echo "KERNEL=mainline is arm64 only (the BRBE oracle), not ARCH=$ARCH;" \
	     "use ARCH=arm64" >&2
	exit 2
fi
# The mainline flavour's source: Debian's linux-source-<series> from a
# suite that carries a newer kernel than the base tree's (downloaded and
# checked by backports.py, unpacked by mainline-tree.sh).  7.3 has
# upstream's BRBE driver (merged in 6.17).
MAINLINE_SUITE=trixie-backports
MAINLINE_SERIES=7.3

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

# The mainline tree's version, e.g. 7.3.4, from its unpacked Makefile.
mainline_version() {
	local mk
	mk=$(ls -d "$BUILD"/linux-mainline-*/Makefile 2>/dev/null | head -n1) || true
	[ -n "$mk" ] || return 1
	awk '/^VERSION =/{v=$3} /^PATCHLEVEL =/{p=$3} /^SUBLEVEL =/{s=$3}
	     END{print v "." p "." s}' "$mk"
}
# The version KERNEL flavour $1 is built from (ours and next are the
# base tree's).
kernel_version() {
	if [ "$1" = mainline ]; then mainline_version; else base_version; fi
}
# The line a boot's console log and make check's summary name the
# kernel by, e.g. "6.12.118 (Debian linux-source-6.12 6.12.118-1~deb12u1)",
# written by base-tree.sh and mainline-tree.sh.
version_line() {
	local f=$BUILD/base-version
	[ "$1" = mainline ] && f=$BUILD/mainline-version
	cat "$f" 2>/dev/null || true
}

stock_tree() { echo "$BUILD/linux-$(base_version)"; }
ours_tree() { echo "$BUILD/ours"; }
next_tree() { echo "$BUILD/next"; }
mainline_tree() { echo "$BUILD/linux-mainline-$(mainline_version)"; }
tree_for() {
	case "$1" in
	stock) stock_tree ;; next) next_tree ;; mainline) mainline_tree ;;
	*) ours_tree ;;
	esac
}
# The manifests a flavour applies, in order: ours is MANIFEST; next is
# MANIFEST then MANIFEST.next (work in progress, see README).
manifests_for() {
	case "$1" in
	ours) echo "$HARNESS/MANIFEST" ;;
	next) echo "$HARNESS/MANIFEST $HARNESS/MANIFEST.next" ;;
	esac
}
objdir_for() {	# kernel arch debug [profile]
	local t d=; t=$(tree_for "$1")
	[ "${4:-test}" = compat ] && d=$d-compat
	[ "$3" = 1 ] && d=$d-debug
	echo "$t/.out-$2$d"
}

# make in kernel tree $1 with object directory $2 for ARCH, the way every
# harness build does (ccache, fixed build stamps so ccache hits across
# trees and runs).
kmake_in() {	# src obj make-args...
	local src=$1 obj=$2; shift 2
	make -s -C "$src" O="$obj" ARCH="$KARCH" CROSS_COMPILE="$CROSS" \
		CC="ccache ${CROSS}gcc" HOSTCC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2024-11-17 00:00:00 UTC" KBUILD_BUILD_USER=perfcore \
		KBUILD_BUILD_HOST=qemu "$@"
}

# Why ours does not build PATH (a file, module or CONFIG_ symbol) that stock
# does, from harness/compat-not-built; fails if it is not listed there.
compat_reason() {	# path
	awk -v p="$1" '$1 == p { $1 = ""; sub(/^ +/, ""); print; found = 1; exit }
		END { exit !found }' "$HARNESS/compat-not-built"
}
