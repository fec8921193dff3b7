#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Per-function instruction profile of what perf adds to a benchmark, on
# stock and ours, for one arch (an investigation tool; make check and
# make bench never run it):
#
#   ARCH=arm64 bash <this script> [A_BENCH B_BENCH [PER]]
#
# Phase A runs bench's A_BENCH (default fork_exit_0), phase B B_BENCH
# (fork_exit_inherit_8); QEMU logs every translated block the kernel
# executes in each phase (harness/insn_profile.py), and the report gives each
# kernel function's instructions per call of PER (kernel_clone: per
# fork) in both phases and their difference, which is what perf costs.
# Results: build/insn-profile/<arch>-<kernel>/profile.tsv, and the top of
# the comparison on stdout.  INSN_KERNELS=ours (or stock) profiles one.
# Under -icount (arm64; x86_64 script boots) instructions are time.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || die "run as root (the guest image needs device nodes)"
[ "$ARCH" = x86_64 ] || [ "$ARCH" = arm64 ] || die "ARCH=x86_64 or arm64"
a_bench=${1:-fork_exit_0}
b_bench=${2:-fork_exit_inherit_8}
per=${3:-kernel_clone}
# Which kernels: both unless INSN_KERNELS names one.
kernels=${INSN_KERNELS:-stock ours}

out_root=$BUILD/insn-profile
mkdir -p "$out_root"
guest=$out_root/guest.sh
# Short phases (BENCH_MS): the exec log grows by about 100 bytes per
# block executed.  The warm-up run keeps first-time work out of both.
cat > "$guest" <<G
#!/bin/sh
export BENCH_MS=20
/suite/bench $b_bench >/dev/null
sleep 3
echo "@@PROF_START A"
sleep 2
/suite/bench $a_bench
echo "@@PROF_END A"
sleep 2
echo "@@PROF_START B"
sleep 2
/suite/bench $b_bench
echo "@@PROF_END B"
sleep 2
G

for k in $kernels; do
	out=$out_root/$ARCH-$k
	rm -rf "$out"
	mkdir -p "$out"
	log "profiling $ARCH/$k: $a_bench then $b_bench"
	python3 "$HARNESS/insn_profile.py" run "$out" "$ARCH" "$k" "$guest" ||
		die "the $k guest failed"
	[ -s "$out/A.log" ] && [ -s "$out/B.log" ] || die "no exec log for $k"
	obj=$(objdir_for "$k" "$ARCH" 0)
	vmlinux=
	[ "$ARCH" = x86_64 ] && vmlinux=$obj/vmlinux
	python3 "$HARNESS/insn_profile.py" report "$obj/System.map" "$out" "$per" $vmlinux
	rm -f "$out/A.log" "$out/B.log"
done

# The functions that matter most, side by side.
python3 - "$out_root" "$ARCH" $kernels <<'P'
import sys
root, arch, kernels = sys.argv[1], sys.argv[2], sys.argv[3:]
tab = {}
for k in kernels:
    for line in open('%s/%s-%s/profile.tsv' % (root, arch, k)):
        if line.startswith('#'):
            continue
        name, a, b, d, calls = line.split('\t')
        tab.setdefault(name, {})[k] = (float(d), float(calls))
rows = sorted(tab, key=lambda n: -max(abs(v[0]) for v in tab[n].values()))
print('%-40s' % 'B - A per op' + ''.join('%16s' % k for k in kernels))
for name in rows[:40]:
    print('%-40s' % name[:40] + ''.join(
        '%9.0f (%4.1f)' % tab[name].get(k, (0, 0)) for k in kernels))
P
