#!/bin/bash
# make families: record the stock kernel's hwfamily report on each Intel
# model of INTEL_FAMILY_MODELS and INTEL_HYBRID_MODELS (lib.sh) into the
# suite's hwfamily.golden,
# which hwfamily then holds every kernel to (make check boots ours on
# each model).  Run it after a change of the model list, of hwfamily's
# report, or of the base tree; commit the file it writes.
HARNESS=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HARNESS/lib.sh"

[ "$ARCH" = x86_64 ] || die "make families is x86_64's"
KERNEL=stock bash "$HARNESS/kbuild.sh"
bash "$HARNESS/suite-build.sh"
golden=$SUITE_SRC/hwfamily.golden
script=$(mktemp)
new=$(mktemp)
trap 'rm -f "$script" "$new"' EXIT
cat > "$script" <<'GUEST'
#!/bin/sh
echo "@@REPORT-BEGIN"
/suite/hwfamily --report
echo "@@REPORT-END"
GUEST
{
	echo "# hwfamily.c's report on the stock kernel ($(cat "$BUILD/base-version")),"
	echo "# a section per Intel family 6 model of our QEMU (PMU_MODEL=intel-mNN,"
	echo "# intel-tNN for those with topdown metrics, intel-hNN for the hybrid"
	echo "# ones)."
	echo "# Written by make families (harness/families.sh); do not edit."
} > "$new"
for m in $INTEL_FAMILY_MODELS $INTEL_HYBRID_MODELS; do
	run=$(KERNEL=stock PMU_MODEL=$(intel_family_pmu "$m") SCRIPT=$script \
		bash "$HARNESS/boot.sh" script hwfamily | tail -n 1)
	# A console line a kernel developer would stop at means the model
	# is not good enough to record stock's answers on.
	if grep -qE 'unchecked MSR access|Call Trace:|NMI received for unknown reason|Uhhuh|Dazed and confused' \
		"$run/console.log"; then
		die "model $m: the stock kernel's console is not clean ($run/console.log)"
	fi
	sed -n '/^@@REPORT-BEGIN/,/^@@REPORT-END/p' "$run/console.log" |
		grep -v '^@@' > "$run/report.txt"
	grep -q "^\[06-$m\]\$" "$run/report.txt" ||
		die "model $m: no report ($run/console.log)"
	cat "$run/report.txt" >> "$new"
	log "model $m: $(grep -c . "$run/report.txt") lines"
done
cp "$new" "$golden"
log "wrote $golden"
