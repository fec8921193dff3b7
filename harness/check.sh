#!/usr/bin/env bash
# One arch's share of make check: boot ARCH/KERNEL/DEBUG in check mode,
# parse the console, apply the expected-failures list (ours only), print
# failures and the summary line.  TESTS limits the suite to some binaries
# (then the perf-tool workflows are left out).
. "$(dirname "$0")/lib.sh"

run=$(bash "$HARNESS/boot.sh" check "${TESTS:-}" | tail -n 1)
[ -n "$run" ] && [ -f "$run/console.log" ] || die "no run directory"
if [ -n "${TESTS:-}" ] || [ "${VERBOSE:-0}" = 1 ]; then
	# Show the guest's own output for the binaries asked for.
	sed -n '/^@@BEGIN suite\./,/^@@RESULT suite\./p' "$run/console.log"
fi
set +e
python3 "$HARNESS/results.py" "$run" --arch "$ARCH" --kernel "$KERNEL" \
	$([ "$DEBUG" = 1 ] && echo --debug) --profile "$PROFILE" \
	--xfail "$HARNESS/expected-failures"
rc=$?
set -e
log "console log: $run/console.log"
exit $rc
