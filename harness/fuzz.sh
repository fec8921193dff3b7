#!/usr/bin/env bash
# make fuzz: for each arch given, boot KERNEL/DEBUG and fuzz the perf
# system calls and their file descriptors for FUZZ_SECONDS with FUZZ_SEED:
# trinity
# (Debian's system-call fuzzer, given only perf_event_open, the calls
# that take its file descriptors, and prctl) beside the suite's own
# seeded stress binary (fuzz.c: groups across PMUs, inheritance through
# fork, vfork, threads and exec, group ioctls, SET_OUTPUT chains,
# enable/disable storms).  x86_64 boots the intel PMU model unless
# PMU_MODEL says otherwise, so that hardware events are in reach;
# arm64's PMU is always there, and PMU_MODEL=spe puts SPE and BRBE in
# reach too.
#
# Fails on any console report results.py knows (oops, BUG, WARNING,
# lockdep, KASAN, RCU stall, hung task), on a guest that does not finish
# in time, and on a fuzzer that does not end when told or a user task
# left in D state.  Ends with "N passed, N failed, N skipped" summed over
# the boots.
#
#   fuzz.sh ARCH...
. "$(dirname "$0")/lib.sh"

: "${FUZZ_SECONDS:=120}"
: "${FUZZ_SEED:=$(date +%s)}"
case "$FUZZ_SECONDS$FUZZ_SEED" in *[!0-9]*)
	die "SECONDS and SEED must be whole numbers" ;;
esac
export FUZZ_SECONDS FUZZ_SEED

p=0; f=0; s=0; rc=0
for ARCH in "$@"; do
	export ARCH
	model=${PMU_MODEL:-none}
	[ "$ARCH" = x86_64 ] && model=${PMU_MODEL:-intel}
	log "fuzz $ARCH $KERNEL debug=$DEBUG model=$model for ${FUZZ_SECONDS}s, seed $FUZZ_SEED"
	run=$(PMU_MODEL=$model bash "$HARNESS/boot.sh" fuzz | tail -n 1)
	[ -n "$run" ] && [ -f "$run/console.log" ] || die "no run directory"
	python3 "$HARNESS/results.py" "$run" --arch "$ARCH" --kernel "$KERNEL" \
		$([ "$DEBUG" = 1 ] && echo --debug) --profile "$PROFILE" \
		$([ "$model" = none ] || echo --model "$model") > "$run/summary.txt" || rc=1
	cat "$run/summary.txt"
	line=$(tail -n 1 "$run/summary.txt")
	sed -n "s/^@@NOTE //p; /^fuzz: seed/p; /Ran [0-9]* syscalls/p" "$run/console.log" | tail -n 4
	log "console log: $run/console.log (make fuzz ARCH=$ARCH KERNEL=$KERNEL DEBUG=$DEBUG SECONDS=$FUZZ_SECONDS SEED=$FUZZ_SEED repeats it)"
	read -r np nf ns < <(sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/\1 \2 \3/' <<<"$line")
	[ -n "${ns:-}" ] || { np=0; nf=1; ns=0; rc=1; }
	p=$((p + np)); f=$((f + nf)); s=$((s + ns))
done
echo "$p passed, $f failed, $s skipped"
exit $rc
