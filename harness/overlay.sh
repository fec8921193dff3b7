#!/usr/bin/env bash
# Build the ours tree (or, with "next", the next tree): a hard-linked copy
# of the stock tree with every path in the flavour's manifests replaced by
# the project's file or removed.
#
# Files are only rewritten when their content changes, so kbuild's
# timestamps stay meaningful and an unchanged overlay costs no rebuild.
# Files are always unlinked before being written: the copy shares inodes
# with the stock tree.
. "$(dirname "$0")/lib.sh"

flavour=${1:-ours}
bash "$HARNESS/base-tree.sh"
stock=$(stock_tree)
ours=$(tree_for "$flavour")
read -r -a manifests <<<"$(manifests_for "$flavour")"
applied=$ours/.perfcore-applied

if [ ! -f "$ours/Makefile" ] || [ "$(cat "$ours/.perfcore-base" 2>/dev/null)" != "$stock" ]; then
	log "creating $flavour tree from $(basename "$stock")"
	rm -rf "$ours"
	mkdir -p "$ours"
	(cd "$stock" && find . -path './.out-*' -prune -o -print0 |
		cpio -0 -pdlm --quiet "$ours")
	echo "$stock" > "$ours/.perfcore-base"
	: > "$applied"
fi

restore() {	# put the stock file back at $1 (or remove it if stock has none)
	rm -f "$ours/$1"
	if [ -e "$stock/$1" ]; then
		mkdir -p "$(dirname "$ours/$1")"
		# A copy, not a link: the stock file is older than the objects
		# built from ours, and only a fresh timestamp makes kbuild
		# rebuild them.
		cp "$stock/$1" "$ours/$1"
	fi
}

now=$(mktemp)
trap 'rm -f "$now"' EXIT
# MANIFEST lines: "replace PATH" or "remove PATH"; '#' starts a comment.
while read -r action path _; do
	case "$action" in ''|'#'*) continue ;; esac
	case "$action" in
	replace)
		[ -f "$ROOT/$path" ] || die "MANIFEST: $path is not in the project"
		if ! cmp -s "$ROOT/$path" "$ours/$path"; then
			rm -f "$ours/$path"
			mkdir -p "$(dirname "$ours/$path")"
			cp "$ROOT/$path" "$ours/$path"
		fi ;;
	remove)
		[ -e "$stock/$path" ] || die "MANIFEST: remove $path: not in the base tree"
		rm -f "$ours/$path" ;;
	config)
		continue ;;	# "config ARCH CONFIG_X=v": read by kbuild.sh
	*)
		die "MANIFEST: unknown action '$action' for $path" ;;
	esac
	echo "$path" >> "$now"
done < <(cat "${manifests[@]}" | sed 's/#.*//')

# Paths the project no longer owns go back to stock.
sort -u "$now" -o "$now"
sort -u "$applied" | comm -23 - "$now" | while read -r path; do
	log "returning $path to stock"
	restore "$path"
done
cp "$now" "$applied"
log "$flavour tree: $(wc -l < "$now") owned paths applied"
