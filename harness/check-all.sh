#!/usr/bin/env bash
# make check: run check.sh for each arch given, then print one closing line
# "N passed, N failed, N skipped" summed over them; exit 1 on any failure.
set -uo pipefail
here=$(dirname "$0")
p=0; f=0; s=0; rc=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for arch in "$@"; do
	ARCH=$arch bash "$here/check.sh" 2>&1 | tee "$out"
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
	line=$(grep -E '^[a-z0-9_]+/[a-z]+(/debug)?: [0-9]+ passed' "$out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "[harness] $arch: no summary (harness failure)"; f=$((f + 1)); rc=1
		continue
	fi
	p=$((p + $(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")))
	f=$((f + $(sed -E 's/.* ([0-9]+) failed.*/\1/' <<<"$line")))
	s=$((s + $(sed -E 's/.* ([0-9]+) skipped.*/\1/' <<<"$line")))
done
# The version of the tree that was built: the base tree's, or for
# KERNEL=mainline the newer one's (mainline-tree.sh).
version=base-version; [ "${KERNEL:-ours}" = mainline ] && version=mainline-version
echo
echo "check: KERNEL=${KERNEL:-ours} DEBUG=${DEBUG:-0} ARCH=$* linux $(cat "$here/../build/$version" 2>/dev/null)"
echo "$p passed, $f failed, $s skipped"
exit $rc
