# perfcore: the entry point.  See README.md.
#
#   make run     [ARCH=x86_64|arm64] [KERNEL=ours|stock]
#   make check   [ARCH=x86_64|arm64] [KERNEL=ours|stock] [DEBUG=1] [TESTS="attr read"]
#   make check   KERNEL=mainline [TESTS=...]   arm64 only: upstream 7.3, the BRBE oracle
#   make bench   [ARCH=x86_64|arm64] [BENCH="hw"|"sw"|names]
#   make compat  [ARCH=x86_64|arm64]     distribution-like build, stock and ours
#   make compat-files [ARCH=...]         Debian's configs, file by file
#   make fuzz    [ARCH=...] [KERNEL=...] [DEBUG=1] [SECONDS=120] [SEED=n]
#   make families                      stock's hwfamily answers per Intel model
#   make patches
#   make deps | kernel | suite | clean | distclean
#
# Without ARCH, run, check and bench do both arches (KERNEL=mainline:
# arm64 alone, the only arch it is built for).  QEMU=debian boots
# Debian's packaged QEMU instead of ours (harness/qemu.sh).

KERNEL	?= ours
ARCHES	:= $(if $(ARCH),$(ARCH),$(if $(filter mainline,$(KERNEL)),arm64,x86_64 arm64))
DEBUG	?= 0
export KERNEL DEBUG TESTS BENCH

.PHONY: all run check bench fuzz compat compat-files families patches deps kernel suite clean distclean

all: check

deps:
	@bash harness/deps.sh
	@bash harness/qemu.sh >/dev/null

run: deps
	@set -e; for a in $(ARCHES); do ARCH=$$a bash harness/run.sh; done

check: deps
	@bash harness/check-all.sh $(ARCHES)

bench: deps
	@bash harness/bench.sh $(ARCHES)

# SECONDS is bash's own variable: it reaches the scripts as FUZZ_SECONDS.
fuzz: deps
	@FUZZ_SECONDS=$(SECONDS) FUZZ_SEED=$(SEED) bash harness/fuzz.sh $(ARCHES)

compat: deps
	@bash harness/compat.sh $(ARCHES)

compat-files: deps
	@set -e; rc=0; for a in $(ARCHES); do ARCH=$$a bash harness/compat-files.sh || rc=1; done; exit $$rc

families: deps
	@ARCH=x86_64 bash harness/families.sh

patches: deps
	@bash harness/patches.sh

kernel: deps
	@set -e; for a in $(ARCHES); do ARCH=$$a bash harness/kbuild.sh; done

suite: deps
	@set -e; for a in $(ARCHES); do ARCH=$$a bash harness/suite-build.sh; done

clean:
	rm -rf build/logs build/suite-* build/patches build/bench.json

distclean:
	rm -rf build
