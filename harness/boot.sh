#!/usr/bin/env bash
# Boot ARCH/KERNEL/DEBUG in QEMU and run one job in the guest:
#
#   boot.sh MODE [TESTS]     MODE: check | run | bench | fuzz | script
#
# fuzz (harness/fuzz.sh) runs trinity and the suite's fuzz binary for
# FUZZ_SECONDS with FUZZ_SEED.
#
# script runs the shell script named by SCRIPT= in the guest (as
# /suite/script, with the suite binaries beside it): for one-off
# investigations such as perf test -v N, not for anything make check
# relies on.
#
# Builds whatever is missing first.  The console is logged to
# build/logs/<run>/console.log; the run directory is printed on stdout.
# A guest that does not finish within the mode's time limit is killed and
# the log says so (the parser turns that into a failure).
. "$(dirname "$0")/lib.sh"

mode=${1:?usage: boot.sh check|run|bench|script [TESTS]}
tests=${2:-}
[ "$(id -u)" = 0 ] || die "run as root (the guest image needs device nodes)"

image=$(bash "$HARNESS/kbuild.sh" | tail -n 1)
qemu_dir=$(bash "$HARNESS/qemu.sh" | tail -n 1)
root=$(bash "$HARNESS/guest-root.sh" | tail -n 1)
suite_tests=$tests
[ "$mode" = fuzz ] && suite_tests=fuzz
suite=$(SUITE_TESTS="$suite_tests" bash "$HARNESS/suite-build.sh" | tail -n 1) ||
	log "suite build had errors; running what was built"

dbg=; [ "$DEBUG" = 1 ] && dbg=-debug
[ "$PROFILE" = test ] || dbg=-$PROFILE$dbg
if [ "$ARCH" = x86_64 ]; then
	: "${PMU_MODEL:=$([ "$mode" = run ] && echo intel-lbr || echo none)}"
fi
# make run on arm64 profiles on the CPU with SPE too (an arm_spe profile
# beside the PMUv3 ones).
[ "$ARCH" = arm64 ] && [ "$mode" = run ] && : "${PMU_MODEL:=spe}"
: "${PMU_MODEL:=none}"
[ "$PMU_MODEL" = none ] || dbg=$dbg-$PMU_MODEL
tag=$ARCH-$KERNEL$dbg-$mode
run=$LOGS/$tag-$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$run/stage/suite"
ln -sfn "$(basename "$run")" "$LOGS/$tag-latest"

# The guest root is one cached cpio archive; the job-specific files are a
# second one.  The kernel unpacks concatenated archives in order.
base_cpio=$BUILD/guest-root-$ARCH.cpio
if [ ! -f "$base_cpio" ] || [ "$root/.perfcore-root" -nt "$base_cpio" ]; then
	mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || true
	mknod -m 666 "$root/dev/null" c 1 3 2>/dev/null || true
	(cd "$root" && find . ! -name .perfcore-root | cpio -o -H newc -R 0:0 --quiet) > "$base_cpio.$$"
	mv "$base_cpio.$$" "$base_cpio"
fi
install -m 755 "$HARNESS/guest/init" "$run/stage/init"
# perf test (PERF_TEST=1) runs in check boots, except under DEBUG=1
# unless asked for: under KASAN and lockdep it adds minutes (two and a
# half on arm64) to the boot, and the debug boots are there for the
# kernel's own checks, which the suite and make fuzz exercise.
perf_test=${PERF_TEST:-1}
[ "$DEBUG" = 1 ] && perf_test=${PERF_TEST:-0}
if [ "$mode" = fuzz ]; then
	cp "$suite/fuzz" "$run/stage/suite/" || die "no fuzz binary"
elif [ -n "$tests" ]; then
	for t in $tests; do
		[ -x "$suite/$t" ] && cp "$suite/$t" "$run/stage/suite/" ||
			log "no binary for $t (did it compile?)"
		echo "$t" >> "$run/expected-binaries"
	done
else
	for t in $(make -s -C "$SUITE_SRC" list); do
		[ -x "$suite/$t" ] && cp "$suite/$t" "$run/stage/suite/" ||
			log "no binary for $t (did it compile?)"
		echo "$t" >> "$run/expected-binaries"
	done
	[ "$mode" = check ] && touch "$run/stage/suite/.perf-workflows"
	# perf test: x86's whole-suite boot has no PMU, so its results are
	# not held to stock's (the intel boot's are); arm64's are (the
	# "arm64" lines of perf-test-expected).
	[ "$mode" = check ] && [ "$perf_test" = 1 ] &&
		touch "$run/stage/suite/.perf-test"
fi
# PERF_WORKFLOWS=1 (check.sh, on the intel PMU-model boot): the perf-tool
# workflows and perf test run after the binaries asked for, as on a full
# suite boot.  On a PMU model they also count and sample the hardware
# events (.perf-hw), and perf test's results are held against stock's.
if [ "$mode" = check ] && [ -n "$tests" ] && [ "${PERF_WORKFLOWS:-0}" = 1 ]; then
	touch "$run/stage/suite/.perf-workflows"
	[ "$ARCH" = x86_64 ] && [ "$perf_test" = 1 ] &&
		touch "$run/stage/suite/.perf-test"
fi
[ "$ARCH" = x86_64 ] && [ "${PMU_MODEL:-none}" != none ] &&
	touch "$run/stage/suite/.perf-hw"
# Where the model has branch records and lbr is asked for, the perf
# tool's branch-record workflows run after it (.perf-lbr).
case "${PMU_MODEL:-none}" in
intel-lbr|intel-skl)
	[ "$mode" = check ] && [[ " $tests " == *" lbr "* ]] &&
		touch "$run/stage/suite/.perf-lbr" ;;
esac
# Where the CPU has SPE and spe is asked for, the perf tool's arm_spe
# workflow runs after it (.perf-spe).
[ "${PMU_MODEL:-none}" = spe ] && [ "$mode" = check ] &&
	[[ " $tests " == *" spe "* ]] && touch "$run/stage/suite/.perf-spe"
# And its branch records (BRBE), where brbe is asked for: perf record -b.
[ "${PMU_MODEL:-none}" = spe ] && [ "$mode" = check ] &&
	[[ " $tests " == *" brbe "* ]] && touch "$run/stage/suite/.perf-brbe"
# On the hybrid model the workflows count on both PMUs (.perf-hybrid).
[ "${PMU_MODEL:-none}" = intel-hybrid ] &&
	touch "$run/stage/suite/.perf-hybrid"
[ -x "$suite/bench" ] && cp "$suite/bench" "$run/stage/suite/"
[ "$mode" = script ] && [ -x "$suite/fuzz" ] && cp "$suite/fuzz" "$run/stage/suite/"
if [ "$mode" = script ]; then
	[ -f "${SCRIPT:-}" ] || die "mode script needs SCRIPT=<file>"
	install -m 755 "$SCRIPT" "$run/stage/suite/script"
fi
(cd "$run/stage" && find . | cpio -o -H newc -R 0:0 --quiet) > "$run/job.cpio"
cat "$base_cpio" "$run/job.cpio" > "$run/initramfs.cpio"
rm -rf "$run/stage" "$run/job.cpio"

# Boot messages (KUnit's results among them) at the default level; the
# guest's init then keeps only warnings and worse on the console.
# nokaslr: System.map's addresses are the running ones, so that the dump
# of a guest that does not finish in time names functions.
append="panic=-1 oops=panic nokaslr perfcore.mode=$mode"
# Which kernel this is, for the cases that hold perfcore to more than
# upstream does (share.c: identical events share a counter).
append+=" perfcore.kernel=$KERNEL"
# x86_64 check boots make CPU 1 a nohz_full CPU (the config has
# NO_HZ_FULL): the suite's tick-dependency tests need one, and the rest
# runs the same.  Not under -icount (arm64, x86's PMU models): there the
# vCPUs take turns, and a task spinning alone on a CPU without a tick
# keeps the other one waiting (hwcount's busy-sibling case timed out,
# stock and ours).
[ "$mode" = check ] && [ "$ARCH" = x86_64 ] && [ "$PMU_MODEL" = none ] &&
	append+=" nohz_full=1"
# BENCH_SEL: what a bench job runs (bench's arguments: names, hw, sw),
# set by bench.sh per boot; all of it when empty.
[ "$mode" = bench ] && [ -n "${BENCH_SEL:-}" ] &&
	append+=" perfcore.bench=$(echo $BENCH_SEL | tr ' ' ,)"
case "$mode" in
check) limit=${CHECK_TIMEOUT:-1500} ;;
bench) limit=900 ;;
# The fuzzing time, 90 s for the fuzzers to end and the scan, and
# the boot (minutes under lockdep and KASAN).
# A debug guest's second under the fuzzers' load is nearly two host
# seconds on an idle host, three when another guest or a build shares
# it (arm64 SECONDS=1800 runs did not finish in 3300 s, nor in 5400 s
# beside other work); the limit is there for a guest that stopped.
fuzz)	limit=$(( ${FUZZ_SECONDS:-120} + 480 ))
	[ "$DEBUG" = 1 ] && limit=$(( ${FUZZ_SECONDS:-120} * 4 + 900 )) ;;
# SCRIPT_TIMEOUT: a longer limit for a one-off script.
script) limit=${SCRIPT_TIMEOUT:-600} ;;
*) limit=600 ;;
esac
# The guest ends its fuzzing early when this many of the host's seconds
# (from its init's start) are gone, leaving 400 for the boot, the
# fuzzers' ending and the scan: a guest running slow is cut short and
# says so, where it would otherwise run into the limit (guest/init).
[ "$mode" = fuzz ] &&
	append+=" perfcore.fuzz=${FUZZ_SECONDS:-120},${FUZZ_SEED:-1},$((limit - 400))"
# KERNEL_APPEND: more kernel parameters for one-off investigations.
[ -n "${KERNEL_APPEND:-}" ] && append+=" $KERNEL_APPEND"
# Every -icount boot is precise (shift=N, which the PMU models need) with
# one nanosecond of guest time per instruction, except a fuzz job's:
# there the guest is kept busy for a span of its own time, and at 1 ns
# per instruction a busy guest's second costs TCG many seconds.  At 16 ns
# (shift=4, about what TCG runs here) guest and host time go roughly
# together, so make fuzz's SECONDS are about wall-clock seconds.  Not
# under DEBUG=1: KASAN and lockdep make the kernel's every step many
# times longer, and a 62.5 MIPS guest then spends its seconds in ticks
# and sample interrupts (a 600 s arm64 fuzz ran no trinity call at all;
# x86's reported soft lockups).  At 4 ns (shift=2) the debug guest is
# about as fast as TCG runs it, and gets done a fifth of what the plain
# one does per guest second.
icount=shift=0
fuzz_shift=4
[ "$DEBUG" = 1 ] && fuzz_shift=2
[ "$mode" = fuzz ] && icount=shift=${FUZZ_ICOUNT_SHIFT:-$fuzz_shift}
# arm64's hard-lockup boot: the kernel takes a CPU without cpufreq for a
# 5 GHz one, so at watchdog_thresh=1 the watchdog's period is five
# seconds of QEMU's 1 GHz cycle counter, and the report comes 10-15 s
# of guest time after the lockup.  A spinning CPU runs those at about
# ten host seconds each with one instruction per nanosecond; at 8 ns
# (shift=3) the boot takes a minute.  Nothing there counts instructions
# against time.
[ "$mode" = check ] && [ "$ARCH" = arm64 ] && [ "$tests" = hardlockup ] &&
	icount=shift=3
case "$ARCH" in
x86_64)
	# No VGA and no parallel port: our QEMU builds neither (the serial
	# console is all the harness reads).
	# tsc=reliable: on a busy host a TCG vCPU can stall long enough for
	# the clocksource watchdog to call the TSC unstable and move the
	# guest to a slower, coarser clock for the rest of the boot, which
	# turns the suite's timing relations into a matter of host load.
	qemu=("$qemu_dir/qemu-system-x86_64" -machine pc -smp 2 -m 2G
	      -vga none -parallel none
	      -append "console=ttyS0 tsc=reliable $append")
	# Our QEMU's PMU model counts only under -icount, where each vCPU's
	# instruction count is exact: PMU_MODEL=intel (architectural
	# perfmon v2: 4 general and 3 fixed counters, and, as on the parts
	# of that version, no full-width counter writes: a counter takes 32
	# bits sign-extended), intel-kvm (a perfmon v2 PMU as a KVM guest's
	# vPMU sees it: full-width writes, DEBUGCTL refuses the freeze bits,
	# no SMM freeze in PERF_CAPABILITIES), intel-v5 (perfmon v5, whose
	# fixed counters 0 and 2 are there but not 1), intel-lbr (perfmon
	# v5 with Architectural LBR: CPUID leaf 1CH, 32 records, CPL, type
	# and call-stack filters, timed records; branch instructions
	# counted; the Branch Trace Store), intel-skl (the
	# intel model as a Skylake, family 6 model 5EH, Hyper-Threading
	# off: 8 general counters, stock's model tables, the off-core
	# response registers, the 2019 microcode's TSX force-abort MSR,
	# Skylake's LBR, perfmon v4 and PEBS with Skylake's record format
	# 3), intel-spr (the intel-lbr model as a Sapphire Rapids, family 6
	# model 8FH: 8 general counters, fixed counter 3 and
	# IA32_PERF_METRICS, stock's Golden Cove tables, PEBS format 4),
	# intel-hybrid (an Alder Lake, family 6
	# model 97H: CPU 0 a P-core with 8 general counters, fixed
	# counters 0-3 and PERF_METRICS, CPU 1 an E-core with 6 and 0-2,
	# so that the kernel registers cpu_core and cpu_atom; PEBS format
	# 4 on both, as the part has it), intel-mNN
	# (the intel model as family 6 model NNH, with the off-core
	# response registers and 8 general counters, as from Sandy Bridge
	# on without Hyper-Threading, so that limits to counters 0-3
	# show: the stock kernel's tables for that model,
	# as hwfamily records and checks them; harness/lib.sh lists the
	# models make check boots), intel-sNN (the same with
	# Hyper-Threading on: the two vCPUs are the threads of one core,
	# with 4 general counters each, as those parts have them then),
	# intel-tNN (the same as intel-mNN, perfmon v5 with
	# fixed counter 3 and IA32_PERF_METRICS, as Ice Lake and later
	# have them: the topdown events), intel-hNN (the hybrid model as
	# family 6 model NNH, for hwfamily likewise; with CPUID leaf 23H
	# for the models of INTEL_PERFMON_EXT_MODELS; intel-mNN, -tNN and
	# -hNN take intel_family_cpu_extra's properties: each hybrid core
	# type's own counters, RTM where listed), amd (Zen core
	# counters, 6)
	# or amd-v2 (the same with PerfMonV2's global control and status,
	# CPUID 0x80000022), or amd-f15h (the amd model as a family 15h
	# core, a Piledriver: stock's family 15h counter constraints)
	# boots with it; none without a PMU.  Run mode
	# shows hardware events, so it defaults to intel; the rest to none.
	# Bench mode has the model count its register accesses, which
	# bench.c reads through the model's own CPUID leaf (pmu-access-counts).
	pmu_extra=
	[ "$mode" = bench ] && pmu_extra=,pmu-access-counts=on
	case "$PMU_MODEL" in
	intel)
		qemu+=(-cpu max,vendor=GenuineIntel,pmu-full-width=off$pmu_extra
		       -icount $icount) ;;
	intel-kvm)
		qemu+=(-cpu max,vendor=GenuineIntel,pmu-kvm=on$pmu_extra -icount $icount) ;;
	intel-v5)
		qemu+=(-cpu max,vendor=GenuineIntel,pmu-version=5,pmu-fixed-mask=0x5$pmu_extra
		       -icount $icount) ;;
	intel-lbr)
		qemu+=(-cpu max,vendor=GenuineIntel,pmu-version=5,pmu-arch-lbr=on,pmu-branches=on,pmu-bts=on,pmu-pebs=on$pmu_extra
		       -icount $icount) ;;
	intel-skl)
		skl_cpu=max,vendor=GenuineIntel,family=6,model=94,stepping=3
		qemu+=(-cpu "$skl_cpu,pmu-version=4,pmu-offcore=on,pmu-gp-counters=8,pmu-tsx-force-abort=on,pmu-lbr=on,pmu-pebs=on,pmu-pebs-format=3$pmu_extra"
		       -icount $icount) ;;
	intel-spr)
		spr_cpu=max,vendor=GenuineIntel,family=6,model=143,stepping=8
		spr_cpu+=,pmu-version=5,pmu-metrics=on,pmu-offcore=on,pmu-gp-counters=8
		qemu+=(-cpu "$spr_cpu,pmu-arch-lbr=on,pmu-branches=on,pmu-pebs=on$pmu_extra"
		       -icount $icount) ;;
	intel-m[0-9a-f][0-9a-f])
		fam_cpu=max,vendor=GenuineIntel,family=6,model=$((16#${PMU_MODEL#intel-m}))
		fam_cpu+=$(intel_family_cpu_extra "${PMU_MODEL#intel-m}")
		qemu+=(-cpu "$fam_cpu,pmu-full-width=off,pmu-offcore=on,pmu-gp-counters=8$pmu_extra"
		       -icount $icount) ;;
	intel-s[0-9a-f][0-9a-f])
		fam_cpu=max,vendor=GenuineIntel,family=6,model=$((16#${PMU_MODEL#intel-s}))
		qemu+=(-cpu "$fam_cpu,pmu-full-width=off,pmu-offcore=on,pmu-gp-counters=4$pmu_extra"
		       -smp 2,sockets=1,cores=1,threads=2 -icount $icount) ;;
	intel-t[0-9a-f][0-9a-f])
		td_cpu=max,vendor=GenuineIntel,family=6,model=$((16#${PMU_MODEL#intel-t}))
		td_cpu+=$(intel_family_cpu_extra "${PMU_MODEL#intel-t}")
		qemu+=(-cpu "$td_cpu,pmu-version=5,pmu-metrics=on,pmu-offcore=on,pmu-gp-counters=8$pmu_extra"
		       -icount $icount) ;;
	intel-h[0-9a-f][0-9a-f])
		hybrid_cpu=max,vendor=GenuineIntel,family=6,model=$((16#${PMU_MODEL#intel-h})),stepping=2
		[[ " $INTEL_PERFMON_EXT_MODELS " == *" ${PMU_MODEL#intel-h} "* ]] &&
			hybrid_cpu+=,pmu-perfmon-ext=on
		hybrid_cpu+=$(intel_family_cpu_extra "${PMU_MODEL#intel-h}")
		qemu+=(-cpu "$hybrid_cpu,pmu-version=5,pmu-hybrid=on,pmu-offcore=on$pmu_extra"
		       -icount $icount) ;;
	intel-hybrid)
		hybrid_cpu=max,vendor=GenuineIntel,family=6,model=151,stepping=2
		hybrid_cpu+=,pmu-version=5,pmu-hybrid=on,pmu-offcore=on,pmu-pebs=on
		qemu+=(-cpu "$hybrid_cpu$pmu_extra" -icount $icount) ;;
	amd|amd-v2|amd-f15h)	# EPYC without the features TCG lacks (each would warn)
		amd_cpu=EPYC,pmu=on,-rdseed,-sha-ni,-xsavec,-3dnowprefetch,-misalignsse,-osvw,-topoext,-fxsr-opt,-nrip-save
		[ "$PMU_MODEL" = amd-v2 ] &&
			amd_cpu+=,xlevel=0x80000022,pmu-perfmon-v2=on
		[ "$PMU_MODEL" = amd-f15h ] &&
			amd_cpu+=,family=21,model=2,stepping=0
		qemu+=(-cpu "$amd_cpu$pmu_extra" -icount $icount) ;;
	none)
		qemu+=(-cpu max,pmu=off)
		[ "$mode" = bench ] || [ "$mode" = script ] &&
			qemu+=(-icount $icount) ;;
	*) die "PMU_MODEL must be intel, intel-kvm, intel-v5, intel-lbr, intel-skl, intel-spr," \
	       "intel-mNN, intel-sNN, intel-tNN, intel-hybrid, intel-hNN," \
	       "amd, amd-v2, amd-f15h or none," \
	       "not '$PMU_MODEL'" ;;
	esac ;;
arm64)
	# -icount: QEMU only offers INST_RETIRED with it, and it makes
	# instruction counts exact and guest time deterministic.  The CPU
	# always has a PMU; PMU_MODEL picks the CPU and interrupt
	# controller around it: none (-cpu max: PMUv3 for Armv8.5, 64-bit
	# event counters through PMCR.LP; GICv2), nmi (the same with a
	# GICv3 and the kernel's pseudo-NMIs, so that the PMU interrupt is
	# an NMI and the perf hard-lockup detector runs) or a72 (a
	# Cortex-A72: PMUv3 for Armv8.0, whose event counters are 32 bits
	# wide, so 64-bit events take chained pairs) or acpi (-cpu max
	# booted through UEFI firmware with ACPI instead of a device tree:
	# the PMU is found from the MADT, as on most arm64 servers).
	# smp: true SMP, the one boot without -icount: each vCPU on a host
	# thread of its own (MTTCG), both running at once, with the a72's
	# 32-bit event counters (a counting event is reloaded every 2^31
	# cycles, about two seconds of the 1 GHz clock) and pseudo-NMIs;
	# no INST_RETIRED there, and nothing exact.  perfcore.true_smp=1
	# tells the cases written for it (share.c) where they are.
	# spe: -cpu max with our models of the Statistical Profiling
	# Extension (spe=on: SPEv1p1, its interrupt as PPI 5 in the device
	# tree; sampling architected instructions exactly under -icount)
	# and of the Branch Record Buffer Extension (brbe=on: 64 records;
	# perfcore.brbe=64 tells the suite, since no kernel file does).
	machine=virt cpu=max firmware=() timing=(-icount "$icount")
	case "${PMU_MODEL:-none}" in
	none) ;;
	nmi)	machine=virt,gic-version=3
		append+=" irqchip.gicv3_pseudo_nmi=1" ;;
	a72)	cpu=cortex-a72 ;;
	spe)	cpu=max,spe=on,brbe=on
		append+=" perfcore.brbe=64" ;;
	acpi)	firmware=(-bios /usr/share/qemu-efi-aarch64/QEMU_EFI.fd)
		append+=" acpi=force" ;;
	smp)	machine=virt,gic-version=3 cpu=cortex-a72
		timing=(-accel tcg,thread=multi)
		append+=" irqchip.gicv3_pseudo_nmi=1 perfcore.true_smp=1" ;;
	*) die "PMU_MODEL on arm64 must be none, nmi, a72, acpi, smp or spe, not '$PMU_MODEL'" ;;
	esac
	qemu=("$qemu_dir/qemu-system-aarch64" -machine $machine -cpu $cpu
	      "${firmware[@]}" -smp 2 -m 2G "${timing[@]}"
	      -append "console=ttyAMA0 $append") ;;
esac
# No network: the guest needs none, and our QEMU builds no NIC model.
qemu+=(-nic none)
# QEMU_EXTRA: more QEMU options for one-off investigations (a monitor
# socket, -d logging); never set by make check or make bench.
[ -n "${QEMU_EXTRA:-}" ] && read -r -a extra <<<"$QEMU_EXTRA" && qemu+=("${extra[@]}")

{
	echo "perfcore: linux $(version_line "$KERNEL") kernel=$KERNEL arch=$ARCH debug=$DEBUG profile=$PROFILE mode=$mode"
	echo "perfcore: ${qemu[*]} -kernel $image"
} > "$run/console.log"
log "booting $tag (limit ${limit}s), log: $run/console.log"
# At the limit a watcher asks QEMU's monitor where each vCPU is (a hang
# with interrupts off on every CPU prints nothing by itself), and
# vcpu-dump.py ends the guest; timeout(1) is there for a monitor that
# does not answer.
mon=$(mktemp -u /tmp/perfcore-mon.XXXXXX)
qemu+=(-monitor "unix:$mon,server=on,wait=off")
obj=$(dirname "$(dirname "$(dirname "$(dirname "$image")")")")
(
	t=0
	while [ "$t" -lt "$limit" ]; do sleep 5; t=$((t + 5)); done
	touch "$run/.timed-out"
	python3 "$HARNESS/vcpu-dump.py" "$mon" "$ARCH" "$obj/System.map" \
		> "$run/vcpus.txt" 2>&1
) < /dev/null > /dev/null 2>&1 &
watcher=$!
start=$(date +%s)
set +e
timeout -k 10 $((limit + 90)) "${qemu[@]}" -nographic -no-reboot -kernel "$image" \
	-initrd "$run/initramfs.cpio" < /dev/null 2>&1 | stdbuf -oL tr -d '\r' >> "$run/console.log"
rc=${PIPESTATUS[0]}
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
set -e
rm -f "$run/initramfs.cpio" "$mon"
if [ -f "$run/.timed-out" ]; then
	rc=124
	cat "$run/vcpus.txt" >> "$run/console.log" 2>/dev/null
	rm -f "$run/.timed-out"
fi
[ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "@@TIMEOUT after ${limit}s" >> "$run/console.log"
log "guest finished in $(( $(date +%s) - start ))s (qemu rc=$rc)"
echo "$run"
