#!/usr/bin/env bash
# make patches: the overlay as a git format-patch series against the base
# tree, one patch per area, in build/patches/.
#
# A scratch repository holds only the touched paths: first commit the
# stock versions, then one commit per area with the project's versions.
# Subjects and messages come from harness/patches.txt.
. "$(dirname "$0")/lib.sh"

bash "$HARNESS/base-tree.sh" 2>/dev/null
stock=$(stock_tree)
scratch=$BUILD/patches-repo
out=$BUILD/patches
rm -rf "$scratch" "$out"
mkdir -p "$scratch" "$out"
git -C "$scratch" init -q
gitc() { git -C "$scratch" -c user.name=perfcore -c user.email=perfcore@localhost \
	-c commit.gpgsign=false "$@"; }

# Every path the series touches: the MANIFEST plus the project's own
# additions to the tree (selftests, documentation).
paths=$(
	sed 's/#.*//' "$HARNESS/MANIFEST" | awk 'NF == 2 { print $2 }'
	cd "$ROOT" && git ls-files --cached --others --exclude-standard \
		tools/testing/selftests/perf_events Documentation 2>/dev/null
)
paths=$(printf '%s\n' $paths | sort -u)
for p in $paths; do
	[ -f "$stock/$p" ] || continue
	mkdir -p "$scratch/$(dirname "$p")"
	cp "$stock/$p" "$scratch/$p"
done
gitc add -A && gitc commit -q --allow-empty -m "linux $(base_version) (Debian linux-source-6.12)"
base=$(git -C "$scratch" rev-parse HEAD)

# patches.txt: blocks of "area: PATH-PREFIX...", "subject: ...", body, "%%".
python3 - "$HARNESS/patches.txt" > "$BUILD/patches-areas" <<'PY'
import sys
blocks = open(sys.argv[1]).read().split('\n%%\n')
for b in blocks:
    lines = [l for l in b.strip('\n').split('\n') if not l.startswith('#')]
    if not lines:
        continue
    area = lines[0].split(':', 1)[1].split()
    subject = lines[1].split(':', 1)[1].strip()
    body = '\n'.join(lines[2:]).strip()
    print('\x1e'.join([' '.join(area), subject, body.replace('\n', '\x1f')]))
PY
manifest_action() { awk -v p="$1" '$2 == p { print $1 }' <(sed 's/#.*//' "$HARNESS/MANIFEST"); }
while IFS=$'\x1e' read -r prefixes subject body; do
	changed=0
	for p in $paths; do
		match=0
		for pre in $prefixes; do case "$p" in "$pre"*) match=1 ;; esac; done
		[ $match = 1 ] || continue
		if [ "$(manifest_action "$p")" = remove ]; then
			git -C "$scratch" rm -q --ignore-unmatch "$p"
		elif [ -f "$ROOT/$p" ]; then
			mkdir -p "$scratch/$(dirname "$p")"
			cp "$ROOT/$p" "$scratch/$p"
			gitc add "$p"
		fi
		changed=1
	done
	[ $changed = 1 ] || continue
	git -C "$scratch" diff --cached --quiet && continue
	printf '%s\n\n%s\n' "$subject" "$(tr '\037' '\n' <<<"$body")" |
		gitc commit -q -F -
done < "$BUILD/patches-areas"
# Anything no area claimed still goes out, so the series is complete.
for p in $paths; do
	[ -f "$ROOT/$p" ] && { mkdir -p "$scratch/$(dirname "$p")"; cp "$ROOT/$p" "$scratch/$p"; }
done
gitc add -A
git -C "$scratch" diff --cached --quiet ||
	gitc commit -q -m "perfcore: files no area in harness/patches.txt claims"
n=$(git -C "$scratch" rev-list --count "$base"..HEAD)
[ "$n" -gt 0 ] || die "the overlay is empty: no patches"
git -C "$scratch" format-patch -q --no-signature -o "$out" "$base"..HEAD
ls "$out"
log "$n patches against linux $(base_version) in $out (apply with: cd linux-$(base_version) && git am or patch -p1)"
