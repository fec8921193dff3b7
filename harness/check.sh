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
# -icount, their results named <model>.suite.<binary>.<test>.  arm64 has
# one boot: its PMU always counts under -icount.
. "$(dirname "$0")/lib.sh"

HW_TESTS="hwcount hwcount_x86"

# boot_and_parse MODEL TESTS: one boot; its summary line is the last
# line of output.
boot_and_parse() {
	local model=$1 tests=$2 run rc
	run=$(PMU_MODEL=$model bash "$HARNESS/boot.sh" check "$tests" | tail -n 1)
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
		--xfail "$HARNESS/expected-failures"
	rc=$?
	set -e
	log "console log: $run/console.log"
	return $rc
}

boots=(none)
hw_tests=
if [ "$ARCH" = x86_64 ]; then
	for t in $HW_TESTS; do
		if [ -z "${TESTS:-}" ] || [[ " $TESTS " == *" $t "* ]]; then
			hw_tests+=" $t"
		fi
	done
	[ -n "$hw_tests" ] && boots+=(intel amd)
fi

p=0; f=0; s=0; rc=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for model in "${boots[@]}"; do
	tests=${TESTS:-}
	[ "$model" = none ] || tests=${hw_tests# }
	set +e
	boot_and_parse "$model" "$tests" | tee "$out"
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	set -e
	line=$(grep -E '^[a-z0-9_/]+: [0-9]+ passed' "$out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "[harness] $ARCH $model: no summary"; f=$((f + 1)); rc=1
		continue
	fi
	read -r np nf ns < <(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
	p=$((p + np)); f=$((f + nf)); s=$((s + ns))
done
if [ ${#boots[@]} -gt 1 ]; then
	tag=$ARCH/$KERNEL; [ "$PROFILE" = compat ] && tag+=/compat
	[ "$DEBUG" = 1 ] && tag+=/debug
	echo "$tag: $p passed, $f failed, $s skipped (${#boots[@]} boots)"
fi
exit $rc
