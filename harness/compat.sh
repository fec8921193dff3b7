#!/usr/bin/env bash
# make compat [ARCH=...]: perfcore as a distribution would build it.
#
# For each arch: build vmlinux and the modules of the compat configuration
# (configs/compat-$ARCH.config on top of the test config: KVM, Xen, PSI,
# hibernation, BPF and tracing, the lockup detectors, every perf driver
# of the arch) for stock and for ours; compare what each built; boot ours
# in it and run the quick part of the suite (COMPAT_TESTS) with the KUnit
# results and the console checks.  Every difference between stock and
# ours must be one harness/compat-not-built explains.
#
# Prints "compat/<arch>: N passed, N failed, N skipped" per arch and a
# closing line summed over them; exits 1 on any failure.
set -uo pipefail
here=$(dirname "$0")
export PROFILE=compat
COMPAT_TESTS=${COMPAT_TESTS:-attr read ioctl swevent sample sysfs hwcount}

p=0; f=0; s=0; rc=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
verdict() {	# NAME ok|fail [detail]
	if [ "$2" = ok ]; then echo "PASS compat.$ARCH.$1"; p=$((p + 1))
	else echo "FAIL compat.$ARCH.$1${3:+: $3}"; f=$((f + 1)); rc=1; fi
}

for ARCH in "$@"; do
	export ARCH
	. "$here/lib.sh"
	set +e
	for k in stock ours; do
		if KERNEL=$k bash "$HARNESS/kbuild.sh" > /dev/null; then
			verdict "$k.build" ok
		else
			verdict "$k.build" fail "vmlinux or modules did not build and link"
		fi
	done
	sobj=$(objdir_for stock "$ARCH" 0 compat)
	oobj=$(objdir_for ours "$ARCH" 0 compat)

	# The fragment must take whole on stock, or it proves less than it says.
	if [ -s "$sobj/.perfcore-dropped" ]; then
		verdict stock.config fail "fragment lines dropped: $(tr '\n' ' ' < "$sobj/.perfcore-dropped")"
	else
		verdict stock.config ok
	fi
	# What ours drops or does not build must be explained.
	unexplained=()
	while IFS= read -r line; do
		sym=${line%%=*}
		compat_reason "$sym" >/dev/null || unexplained+=("$line")
	done < <(cat "$oobj/.perfcore-dropped" 2>/dev/null)
	while IFS= read -r ko; do
		compat_reason "$ko" >/dev/null || unexplained+=("$ko")
	done < <(comm -23 <(sort "$sobj/modules.order" 2>/dev/null) \
			  <(sort "$oobj/modules.order" 2>/dev/null))
	if [ ${#unexplained[@]} -eq 0 ]; then
		verdict ours.same-as-stock ok
	else
		verdict ours.same-as-stock fail "not in compat-not-built: ${unexplained[*]}"
	fi

	# Our in-kernel headers must not take names the rest of the kernel
	# may use: a collision shows only in the configuration that has both.
	hdrs=$(sed 's/#.*//' "$HARNESS/MANIFEST" |
		awk '$1 == "replace" && $2 ~ /^include\/linux\/.*\.h$/ {print $2}')
	if (cd "$ROOT" && python3 "$HARNESS/header_names.py" "$(stock_tree)" $hdrs); then
		verdict ours.header-names ok
	else
		verdict ours.header-names fail "unprefixed names in our headers (see above)"
	fi

	# Boot ours in the compat configuration: the quick suite, KUnit and
	# the console checks.
	KERNEL=ours TESTS="$COMPAT_TESTS" bash "$here/check.sh" 2>&1 | tee "$out"
	line=$(grep -E '^[a-z0-9_]+/[a-z]+(/[a-z]+)*: [0-9]+ passed' "$out" | tail -n 1)
	if [ -z "$line" ]; then
		verdict ours.boot fail "no summary from the boot"
	else
		p=$((p + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
		f=$((f + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
		s=$((s + $(sed -E 's/.* ([0-9]+) skipped.*/\1/' <<<"$line")))
		grep -qE ' 0 failed' <<<"$line" || rc=1
	fi
	set -e
done
echo
echo "compat: ARCH=$* linux $(cat "$here/../build/base-version" 2>/dev/null)"
echo "$p passed, $f failed, $s skipped"
exit $rc
