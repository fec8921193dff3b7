#!/usr/bin/env bash
# Build the conformance suite (and benchmarks) for ARCH as static binaries
# into build/suite-$ARCH/.  UAPI headers come from the base tree's
# headers_install: the ABI is identical for stock and ours by definition,
# so one suite binary serves both kernels.
. "$(dirname "$0")/lib.sh"

bash "$HARNESS/base-tree.sh" 2>/dev/null
src=$(stock_tree)
hdr=$BUILD/hdr-$ARCH
if [ ! -f "$hdr/include/linux/perf_event.h" ] ||
   [ "$src/include/uapi/linux/perf_event.h" -nt "$hdr/include/linux/perf_event.h" ]; then
	log "installing $ARCH uapi headers"
	make -s -C "$src" O="$BUILD/hdr-obj-$ARCH" ARCH="$KARCH" \
		INSTALL_HDR_PATH="$hdr" headers_install >/dev/null
fi
out=$BUILD/suite-$ARCH
targets=()
for t in ${SUITE_TESTS:-}; do targets+=("$out/$t"); done
# -k: one area that does not compile must not keep the others from running;
# the missing binary is reported as a failure by the parser.
make -k -s -C "$SUITE_SRC" ARCH="$ARCH" KSRC="$src" HDR="$hdr/include" \
	OUTPUT="$out" "${targets[@]}" >&2 || log "suite: some binaries failed to build"
echo "$BUILD/suite-$ARCH"
