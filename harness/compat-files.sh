#!/usr/bin/env bash
# make compat-files [ARCH=...]: every configured .c file that uses the perf
# API, compiled for stock and for ours in Debian's exact configuration
# (package linux-config-6.12: amd64_none_amd64, arm64_none_arm64).
#
# A distribution builds thousands of files against <linux/perf_event.h>;
# building all of Debian's kernel is out of reach here, so this compiles
# the ones that use the API directly, with kbuild's own commands:
#   1. configure each tree with Debian's config and `make prepare`;
#   2. the configured files are those whose compile `make -n vmlinux
#      modules` lists (kbuild's own commands); the perf users among them are those that include a
#      perf header or call the API (PERF_USERS below);
#   3. those objects are built as single targets with `make -k`; an object
#      exists afterwards exactly when its file compiled.
# Verdicts, per file: both compile; stock only (a failure); ours only (a
# file of ours); or stock builds it and ours does not (a failure unless
# ours owns the path, see harness/MANIFEST, or harness/compat-not-built
# names it with its reason).  Results: build/compat-files-<arch>.tsv.
#
# Transitive includers (a file that reaches perf_event.h through, say,
# kvm_host.h) are not listed here; make compat builds and links them in
# its smaller configuration.  Not run by CI: about 7 minutes per arch.
. "$(dirname "$0")/lib.sh"

PERF_USERS='#include[[:space:]]*<(linux/perf_event\.h|asm/perf_event\.h|linux/perf/[a-z_0-9]+\.h|linux/hw_breakpoint\.h)>|\b(perf_pmu_register|perf_event_create_kernel_counter|perf_register_guest_info_callbacks|register_user_hw_breakpoint|register_wide_hw_breakpoint|perf_trace_buf_alloc|perf_event_update_userpage|perf_aux_output_begin)\b'

# Debian's configuration for ARCH, of the same Debian version as the base
# tree.  The arm64 one comes from the arm64 package (multiarch download,
# nothing installed).
debian_config() {
	local ver dir=$BUILD/debian-config deb
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	mkdir -p "$dir"
	case "$ARCH" in
	x86_64) deb=amd64; name=config.amd64_none_amd64 ;;
	arm64) deb=arm64; name=config.arm64_none_arm64 ;;
	esac
	if [ ! -f "$dir/$name-$ver" ]; then
		log "fetching Debian's $name ($ver)"
		rm -rf "$dir/x" && mkdir -p "$dir/x"
		(cd "$dir/x" && apt-get download -q "linux-config-6.12:$deb=$ver" >/dev/null 2>&1) ||
			{ apt-get update -q >/dev/null
			  (cd "$dir/x" && apt-get download -q "linux-config-6.12:$deb=$ver" >/dev/null); } ||
			die "cannot download linux-config-6.12:$deb=$ver"
		dpkg-deb -x "$dir"/x/linux-config-6.12_*.deb "$dir/x/root"
		xz -dc "$dir/x/root/usr/src/linux-config-6.12/$name.xz" > "$dir/$name-$ver"
		rm -rf "$dir/x"
	fi
	echo "$dir/$name-$ver"
}

# Prepare FLAVOUR's tree in Debian's config and print its object dir.
prepare_tree() {
	local flavour=$1 src obj
	if [ "$flavour" = stock ]; then bash "$HARNESS/base-tree.sh" 2>/dev/null
	else bash "$HARNESS/overlay.sh" "$flavour" 2>/dev/null; fi
	src=$(tree_for "$flavour")
	obj=$src/.out-$ARCH-debian
	mkdir -p "$obj"
	if ! cmp -s "$cfg" "$obj/.perfcore-debian-config"; then
		cp "$cfg" "$obj/.config"
		kmake_in "$src" "$obj" olddefconfig >/dev/null
		cp "$cfg" "$obj/.perfcore-debian-config"
	fi
	kmake_in "$src" "$obj" -j"$JOBS" prepare >/dev/null 2>"$obj/prepare.log" ||
		{ tail -n 20 "$obj/prepare.log" >&2; echo "$obj PREPARE-FAILED"; return; }
	echo "$obj"
}

# The .c files FLAVOUR's kbuild compiles for vmlinux and modules.
configured_files() {
	local src=$1 obj=$2
	# The compile commands read "... -c -o dir/x.o ../dir/x.c".
	{ kmake_in "$src" "$obj" -n -k vmlinux modules 2>/dev/null || true; } |
		{ grep -oE ' -c -o [^ ]+\.o \.\./[^ ]+\.c' || true; } |
		awk '{print $NF}' | sed 's|^\.\./||' | sort -u |
		while read -r f; do if [ -f "$src/$f" ]; then echo "$f"; fi; done
}

# Build each object of $@ in one make -k; print the files that compiled.
compile_files() {
	local src=$1 obj=$2; shift 2
	local f objs=()
	for f in "$@"; do rm -f "$obj/${f%.c}.o"; objs+=("${f%.c}.o"); done
	kmake_in "$src" "$obj" -k -j"$JOBS" "${objs[@]}" > "$obj/compat-files.log" 2>&1 || true
	for f in "$@"; do if [ -f "$obj/${f%.c}.o" ]; then echo "$f"; fi; done
	# An object left behind is up to date, so the next make -n would not
	# list its file as configured.
	for f in "$@"; do rm -f "$obj/${f%.c}.o"; done
}

owned() {	# is PATH replaced or removed by the overlay?
	sed 's/#.*//' "$HARNESS/MANIFEST" | awk '$1 == "replace" || $1 == "remove" {print $2}' |
		grep -qxF "$1"
}

cfg=$(debian_config)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for flavour in stock ours; do
	log "compat-files $ARCH: preparing $flavour in Debian's configuration"
	obj=$(prepare_tree "$flavour")
	src=$(tree_for "$flavour")
	case "$obj" in *PREPARE-FAILED)
		log "$flavour: make prepare failed in Debian's configuration"
		: > "$tmp/$flavour.users"; : > "$tmp/$flavour.ok"
		echo failed > "$tmp/$flavour.prepare"; continue ;; esac
	configured_files "$src" "$obj" > "$tmp/$flavour.configured"
	(cd "$src" && xargs grep -lE "$PERF_USERS" < "$tmp/$flavour.configured") |
		sort -u > "$tmp/$flavour.users" || true
	log "$flavour: $(wc -l < "$tmp/$flavour.configured") configured files," \
		"$(wc -l < "$tmp/$flavour.users") use the perf API; compiling them"
	mapfile -t users < "$tmp/$flavour.users"
	compile_files "$src" "$obj" "${users[@]}" | sort -u > "$tmp/$flavour.ok"
	cp "$obj/compat-files.log" "$BUILD/compat-files-$ARCH-$flavour.log"
done

out=$BUILD/compat-files-$ARCH.tsv
bad=0
printf 'file\tstock\tours\tverdict\n' > "$out"
sort -u "$tmp/stock.users" "$tmp/ours.users" | while read -r f; do
	s=-; o=-
	grep -qxF "$f" "$tmp/stock.users" && { s=fail; grep -qxF "$f" "$tmp/stock.ok" && s=ok; }
	grep -qxF "$f" "$tmp/ours.users" && { o=fail; grep -qxF "$f" "$tmp/ours.ok" && o=ok; }
	case "$s/$o" in
	ok/ok|fail/fail) v=same ;;
	-/ok) v="ours only" ;;
	-/fail) v="FAIL: a file only ours builds does not compile" ;;
	*/fail) v="FAIL: compiles on stock only" ;;
	ok/-)
		if owned "$f"; then v="owned by ours"
		elif r=$(compat_reason "$f"); then v="not built by ours: $r"
		else v="FAIL: built by stock, not by ours, not listed"; fi ;;
	*) v="?" ;;
	esac
	printf '%s\t%s\t%s\t%s\n' "$f" "$s" "$o" "$v"
done >> "$out"
[ -f "$tmp/ours.prepare" ] && bad=1
grep -q 'FAIL' "$out" && bad=1
grep -E 'FAIL' "$out" | sed 's/^/  /' >&2 || true
n=$(($(wc -l < "$out") - 1))
nf=$(grep -c 'FAIL' "$out" || true)
log "compat-files $ARCH: $n perf-API files, $nf failing only on ours (table: $out)"
echo "compat-files/$ARCH: $((n - nf)) passed, $nf failed"
exit $bad
