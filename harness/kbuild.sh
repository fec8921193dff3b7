#!/usr/bin/env bash
# Configure and build the kernel for ARCH/KERNEL/DEBUG/PROFILE; print the
# image path.
#
# The config is tinyconfig + configs/common.config + configs/$ARCH.config
# (+ configs/compat-$ARCH.config with PROFILE=compat, which also builds
# the modules) (+ configs/debug.config), identical for stock and ours;
# KERNEL=mainline (a newer upstream tree, arm64 only) adds
# configs/mainline-$ARCH.config after the arch's fragment.
# It is only regenerated when a fragment changes.  Every fragment option
# that did not survive olddefconfig is reported, and listed in
# $obj/.perfcore-dropped, so a silently dropped dependency shows.
. "$(dirname "$0")/lib.sh"

# Concurrent callers (helpers, make check of both arches) serialise on
# the tree, then on the object directory.
exec 8>"$BUILD/.overlay.lock"
flock 8
case "$KERNEL" in
stock) bash "$HARNESS/base-tree.sh" ;;
mainline) bash "$HARNESS/mainline-tree.sh" ;;
*) bash "$HARNESS/overlay.sh" "$KERNEL" ;;
esac
src=$(tree_for "$KERNEL")
obj=$(objdir_for "$KERNEL" "$ARCH" "$DEBUG" "$PROFILE")
mkdir -p "$obj"
exec 9>"$obj.lock"
flock 9
flock -u 8
label="$KERNEL $ARCH"; [ "$DEBUG" = 1 ] && label="$label debug"
[ "$PROFILE" = test ] || label="$label $PROFILE"

frags=("$HARNESS/configs/common.config" "$HARNESS/configs/$ARCH.config")
# What the mainline tree is there for and 6.12 lacks (BRBE's driver).
[ "$KERNEL" = mainline ] && frags+=("$HARNESS/configs/mainline-$ARCH.config")
[ "$PROFILE" = compat ] && frags+=("$HARNESS/configs/compat-$ARCH.config")
[ "$DEBUG" = 1 ] && frags+=("$HARNESS/configs/debug.config")
# Temporary config deltas for ours and next ("config ARCH|all CONFIG_X=v"
# in their manifests), e.g. a driver left off until its perfcore port lands.
# stock and mainline are untouched upstream trees: no manifests.
overlaid=0
case "$KERNEL" in ours|next) overlaid=1 ;; esac
if [ "$overlaid" = 1 ]; then
	delta=$obj/.perfcore-ours.config
	read -r -a manifests <<<"$(manifests_for "$KERNEL")"
	cat "${manifests[@]}" | sed 's/#.*//' |
		awk -v a="$ARCH" '$1 == "config" && ($2 == a || $2 == "all") {
			if ($3 ~ /=n$/) { sub(/=n$/, "", $3); print "# " $3 " is not set" }
			else print $3 }' > "$delta"
	if [ -s "$delta" ]; then
		log "config delta for $KERNEL: $(tr '\n' ' ' < "$delta")"
		frags+=("$delta")
	fi
fi

kmake() { kmake_in "$src" "$obj" "$@"; }

# The fragments' meaning also depends on the Kconfig files ours owns: a
# symbol whose dependencies change there must be configured afresh, or
# a .config made before keeps what olddefconfig then decided.
kconfigs=()
if [ "$overlaid" = 1 ]; then
	while read -r path; do
		kconfigs+=("$src/$path")
	done < <(cat "${manifests[@]}" | sed 's/#.*//' |
		 awk '$1 == "replace" && $2 ~ /(^|\/)Kconfig[^\/]*$/ { print $2 }')
fi
want=$(cat "${frags[@]}" "${kconfigs[@]}" | sha1sum | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.perfcore-config" 2>/dev/null)" != "$want" ]; then
	log "configuring $label"
	kmake tinyconfig >/dev/null
	(cd "$obj" && "$src/scripts/kconfig/merge_config.sh" -m -O "$obj" \
		"$obj/.config" "${frags[@]}" >/dev/null)
	kmake olddefconfig >/dev/null
	# Report fragment lines that did not take effect.
	: > "$obj/.perfcore-dropped"
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) grep -qxF "$line" "$obj/.config" || {
			log "config: $line did not stick"
			echo "$line" >> "$obj/.perfcore-dropped"; } ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }; sym=${sym%% *}
			grep -q "^$sym=y" "$obj/.config" && { log "config: $sym still set"
				echo "$line" >> "$obj/.perfcore-dropped"; } ;;
		esac
	done < <(cat "${frags[@]}")
	[ -s "$obj/.perfcore-dropped" ] &&
		log "config: some fragment options were dropped (see above)"
	echo "$want" > "$obj/.perfcore-config"
fi

log "building $label (linux $(kernel_version "$KERNEL"), $JOBS jobs)"
start=$(date +%s)
targets=("$(basename "$IMAGE")")
[ "$PROFILE" = compat ] && targets+=(modules)
if ! kmake -j"$JOBS" "${targets[@]}" > "$obj/perfcore-build.log" 2>&1; then
	tail -n 40 "$obj/perfcore-build.log" >&2
	die "kernel build failed: $label (log: $obj/perfcore-build.log)"
fi
[ -f "$obj/$IMAGE" ] || die "no image at $obj/$IMAGE"
log "built in $(( $(date +%s) - start ))s: $obj/$IMAGE"
echo "$obj/$IMAGE"
