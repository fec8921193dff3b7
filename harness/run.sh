#!/usr/bin/env bash
# make run: boot ARCH/KERNEL and profile a small workload with the real
# perf tool (perf stat, perf record -g, perf report --stdio); show it.
. "$(dirname "$0")/lib.sh"

run=$(bash "$HARNESS/boot.sh" run | tail -n 1)
echo "=== linux $(version_line "$KERNEL"), KERNEL=$KERNEL, ARCH=$ARCH"
# The guest's output from its first line on, without boot chatter.
sed -n '/^@@BEGIN-RUN/,$p' "$run/console.log" | grep -v '^@@DONE' | sed 's/^@@//'
grep -q '^@@RESULT run 0' "$run/console.log" || die "perf run failed (log: $run/console.log)"
log "console log: $run/console.log"
