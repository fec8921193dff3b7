#!/usr/bin/env bash
# One arch's share of make check: boot ARCH/KERNEL/DEBUG in check mode,
# parse the console, apply the expected-failures list (ours only), print
# failures and the summary line.  TESTS limits the suite to some binaries
# (then the perf-tool workflows are left out).
#
# x86_64 boots more than once.  The whole suite runs without a PMU and
# without -icount, so that the vCPUs run truly in parallel (the
# concurrency tests and perf test need that); then the hardware-counter
# binaries (HW_TESTS) run again on each of our QEMU's PMU models under
# -icount, their results named <model>.suite.<binary>.<test> (the intel
# boot then runs the perf-tool workflows, on cycles and instructions too,
# and perf test, each test's result held to stock's in perf-test-expected:
# intel.perftest.<N>; intel-kvm is the intel model refusing what KVM's
# vPMU refuses, its console held to the same check as every boot's);
# and the perf NMI watchdog's test (hardlockup,
# which locks a CPU up for good) gets a boot of its own on the intel model.
#
# arm64's PMU always counts under -icount, so its first boot runs the
# hardware cases too, on -cpu max (PMUv3 for Armv8.5: 64-bit event
# counters).  The hardware-counter binary then runs again on a
# Cortex-A72 (a72: 32-bit event counters, 64-bit events chained) and
# with the PMU interrupt as a pseudo-NMI (nmi) and through UEFI with
# ACPI (acpi: the PMU probed from the MADT), and the hard-lockup
# detector's test, which needs that NMI, gets a boot of its own on nmi.
. "$(dirname "$0")/lib.sh"

HW_TESTS="hwcount hwcount_x86 inherit_group share"

# boot_and_parse MODEL[+perf|+wf] TESTS: one boot; its summary line is
# the last line of output.  +perf: the perf-tool workflows and perf test
# run there too (boot.sh's PERF_WORKFLOWS), perf test held to stock's
# results in perf-test-expected; +wf: the workflows alone.
boot_and_parse() {
	local model=${1%+*} tests=$2 run rc perf=0 no_perftest=()
	[ "$1" = "$model" ] || perf=1
	[ "$1" = "$model+wf" ] && no_perftest=(PERF_TEST=0)
	# The lockup boot lasts seconds when it works and can hang when it
	# does not (a CPU spins with interrupts off): a short limit.
	local limit=${CHECK_TIMEOUT:-1500}
	[ "$tests" = hardlockup ] && limit=180
	run=$(env "${no_perftest[@]}" CHECK_TIMEOUT=$limit PMU_MODEL=$model \
		PERF_WORKFLOWS=$perf bash "$HARNESS/boot.sh" check "$tests" |
		tail -n 1)
	[ -n "$run" ] && [ -f "$run/console.log" ] || die "no run directory"
	if [ -n "${TESTS:-}" ] || [ "${VERBOSE:-0}" = 1 ]; then
		# Show the guest's own output for the binaries asked for
		# (not for the PMU-model boots make check adds by itself).
		sed -n '/^@@BEGIN suite\./,/^@@RESULT suite\./p' "$run/console.log"
	fi
	set +e
	python3 "$HARNESS/results.py" "$run" --arch "$ARCH" --kernel "$KERNEL" \
		$([ "$DEBUG" = 1 ] && echo --debug) --profile "$PROFILE" \
		$([ "$model" = none ] || echo --model "$model") \
		--xfail "$HARNESS/expected-failures" \
		--perftest-expect "$HARNESS/perf-test-expected"
	rc=$?
	set -e
	log "console log: $run/console.log"
	return $rc
}

# wanted NAME: is binary NAME part of this make check?
wanted() { [ -z "${TESTS:-}" ] || [[ " $TESTS " == *" $1 "* ]]; }

# Each boot is "MODEL TESTS..."; no TESTS on the first: the whole suite
# (or $TESTS).
boots=("none ${TESTS:-}")
if [ "$ARCH" = x86_64 ]; then
	hw_tests=
	for t in $HW_TESTS; do wanted "$t" && hw_tests+=" $t"; done
	# The intel boot also runs the perf-tool workflows on the hardware
	# events, and perf test against stock's results on that model
	# (not with TESTS, which leaves the workflows out everywhere).
	intel=intel; [ -z "${TESTS:-}" ] && intel=intel+perf
	[ -n "$hw_tests" ] &&
		boots+=("$intel$hw_tests" "intel-kvm$hw_tests"
			"intel-v5$hw_tests" "amd$hw_tests" "amd-v2$hw_tests")
	# Branch stacks: Architectural LBR on the model that has it, and
	# the Skylake model's LBR below.
	# The Branch Trace Store: on the same model (pmu-bts), and
	# precise sampling through PEBS (pmu-pebs), with what its records
	# say of memory accesses (pebs_mem).
	lbr_boot=
	wanted lbr && lbr_boot+=" lbr"
	wanted bts && lbr_boot+=" bts"
	wanted pebs && lbr_boot+=" pebs"
	wanted pebs_mem && lbr_boot+=" pebs_mem"
	[ -n "$lbr_boot" ] && boots+=("intel-lbr$lbr_boot")
	# The Skylake model differs from intel by stock's model tables
	# (cache events, off-core response, constraints, LBR, PEBS format
	# 3): the x86 cases, the branch stacks and precise sampling.
	skl=
	wanted hwcount_x86 && skl+=" hwcount_x86"
	wanted lbr && skl+=" lbr"
	wanted pebs && skl+=" pebs"
	wanted pebs_mem && skl+=" pebs_mem"
	[ -n "$skl" ] && boots+=("intel-skl$skl")
	# A Sapphire Rapids with PEBS format 4 and Architectural LBR:
	# stock's Golden Cove tables for precise events, the precise
	# distribution on counter 0; and a debug store without BTS, where
	# a period of 1 on branches is refused.
	spr=$skl
	wanted bts && spr+=" bts"
	[ -n "$spr" ] && boots+=("intel-spr$spr")
	# The amd model as family 15h, where stock applies that family's
	# counter constraints.
	wanted hwcount_x86 && boots+=("amd-f15h hwcount_x86")
	# A Sandy Bridge with Hyper-Threading on, where stock keeps the
	# memory events' counters from the sibling thread (BJ122).
	wanted hwcount_x86 && boots+=("intel-s2a hwcount_x86")
	# Each Intel family's tables, held to stock's recorded answers
	# (hwfamily.golden): one short boot per model of lib.sh's list.
	if wanted hwfamily; then
		# The models with topdown metrics run hwcount_x86 too, for
		# x86_topdown_group (no other model has IA32_PERF_METRICS
		# without being hybrid).
		for m in $INTEL_FAMILY_MODELS $INTEL_HYBRID_MODELS; do
			model=$(intel_family_pmu "$m") more=
			[[ $model == intel-t* ]] && wanted hwcount_x86 &&
				more=" hwcount_x86"
			boots+=("$model hwfamily$more")
		done
	fi
	# The hybrid model: its own cases (every other binary expects one
	# "cpu" PMU, but pebs_mem, which takes both of its PMUs), and the
	# perf-tool workflows on both of its PMUs.
	hybrid=intel-hybrid; [ -z "${TESTS:-}" ] && hybrid=intel-hybrid+wf
	hybrid_tests=
	wanted hwcount_hybrid && hybrid_tests+=" hwcount_hybrid"
	wanted pebs_mem && hybrid_tests+=" pebs_mem"
	[ -n "$hybrid_tests" ] && boots+=("$hybrid$hybrid_tests")
	wanted hardlockup && boots+=("intel hardlockup")
	# Without TESTS the first boot runs the suite's list, which
	# leaves hardlockup out; with TESTS it must not run there.
	[ -n "${TESTS:-}" ] && boots[0]="none $(sed 's/\bhardlockup\b//' <<<"$TESTS")"
fi
if [ "$ARCH" = arm64 ]; then
	wanted hwcount && boots+=("a72 hwcount" "nmi hwcount" "acpi hwcount")
	# True SMP (no -icount): the share cases written for it.
	wanted share_smp && boots+=("smp share_smp")
	# The Statistical Profiling Extension and the Branch Record Buffer
	# Extension: the model that has them.
	spe=
	wanted spe && spe+=" spe"
	wanted brbe && spe+=" brbe"
	[ -n "$spe" ] && boots+=("spe$spe")
	wanted hardlockup && boots+=("nmi hardlockup")
	[ -n "${TESTS:-}" ] && boots[0]="none $(sed 's/\bhardlockup\b//' <<<"$TESTS")"
fi
p=0; f=0; s=0; rc=0; nboots=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for boot in "${boots[@]}"; do
	read -r model tests <<<"$boot"
	# TESTS=hardlockup alone leaves the first boot with nothing to run.
	[ "$model" = none ] && [ -n "${TESTS:-}" ] && [ -z "$tests" ] && continue
	nboots=$((nboots + 1))
	set +e
	boot_and_parse "$model" "$tests" | tee "$out"
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	set -e
	line=$(grep -E '^[a-z0-9_/-]+: [0-9]+ passed' "$out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "[harness] $ARCH $model: no summary"; f=$((f + 1)); rc=1
		continue
	fi
	read -r np nf ns < <(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
	p=$((p + np)); f=$((f + nf)); s=$((s + ns))
done
# One boot on a PMU model names its summary after the model, which
# check-all.sh does not take for the arch's: say it again without.
if [ $nboots -gt 1 ] || { [ $nboots = 1 ] && [ "$model" != none ]; }; then
	tag=$ARCH/$KERNEL; [ "$PROFILE" = compat ] && tag+=/compat
	[ "$DEBUG" = 1 ] && tag+=/debug
	echo "$tag: $p passed, $f failed, $s skipped ($nboots boots)"
fi
exit $rc
