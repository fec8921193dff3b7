#!/usr/bin/env bash
# make bench: boot stock and ours (same config) under the same -icount
# setting, run the same micro-benchmarks in both, print ours/stock ratios
# and write them to build/bench.json.  Under -icount guest time advances
# with instructions executed, so the figures are deterministic enough to
# compare without repetition.
#
# Some scenarios are mostly not perf (a context switch, a fork), so their
# ratio says little about perf's own cost.  bench.c names for each of
# those a baseline, the same operation without events, run in the same
# boot; the "perf part" column is (ours - ours' baseline) / (stock -
# stock's baseline), "-" without a baseline or one of the four figures.
#
# On x86_64's hw boot our QEMU's PMU model also counts the PMU register
# accesses (RDMSR, WRMSR, RDPMC; pmu-access-counts) in each benchmark's
# timed part, which guest time under -icount cannot show: a second table
# gives them per operation, ours beside stock (bench.c's BENCHPMU lines).
#
# BENCH selects what runs: benchmark names (bench.c's), hw (the hw_ ones,
# hardware events), lbr (the lbr_, pebs_ and spe_ ones, branch records,
# precise samples and SPE) or sw (all the others); every group by
# default.
# Scenarios without the hardware they need (no PMU, or a kernel without
# a counter driver for it) show n/a and fail nothing.
. "$(dirname "$0")/lib.sh"

sel=${BENCH:-sw hw lbr}
# The boots of an arch, "PMU_MODEL:groups" each.  x86_64's software
# benchmarks run as they always have, on -cpu max,pmu=off under -icount.
# Its hardware ones need our QEMU's PMU model, also under -icount
# shift=0 but on another CPU (-cpu max,vendor=GenuineIntel, which also
# brings the perf NMI watchdog to life): a boot of their own on intel,
# so the software figures stay comparable with earlier runs.  The branch
# record and precise-sample ones ("lbr") boot intel-lbr, whose
# Architectural LBR and PEBS they need.
# arm64's PMUv3 always counts: one boot runs both; its "lbr" group
# (SPE's samples) boots the spe model.
boots_for() {
	case "$1" in
	x86_64) echo "none:sw intel:hw intel-lbr:lbr" ;;
	arm64) echo "none:sw,hw spe:lbr" ;;
	esac
}
# The part of $sel that a boot running groups $1 (comma separated) runs.
pick() {
	local w g out=
	for w in $sel; do
		case "$w" in
		hw|hw_*) g=hw ;;
		lbr|lbr_*|pebs_*|spe_*) g=lbr ;;
		*) g=sw ;;
		esac
		[[ ",$1," == *",$g,"* ]] && out+=" $w"
	done
	echo $out
}

arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(x86_64 arm64)
tsv=$BUILD/bench.tsv
pmu_tsv=$BUILD/bench-pmu.tsv
: > "$tsv"
: > "$pmu_tsv"
# The "ours" column is KERNEL's flavour: ours by default, next to measure
# work in progress (KERNEL=next make bench).
mine=${KERNEL:-ours}
[ "$mine" = stock ] && mine=ours
# The "stock" column is BENCH_REFERENCE's: stock by default, mainline
# for what only a newer upstream has a driver for (arm64's BRBE:
# BENCH_REFERENCE=mainline BENCH=lbr_brstack_sample ... arm64).
ref=${BENCH_REFERENCE:-stock}
case "$ref" in stock|mainline) ;; *) die "BENCH_REFERENCE must be stock or mainline" ;; esac
[ "$ref" = stock ] || log "reference kernel: $ref (in the stock column)"
for a in "${arches[@]}"; do
	for boot in $(boots_for "$a"); do
		model=${boot%%:*}
		want=$(pick "${boot#*:}")
		[ -n "$want" ] || continue
		for k in "$ref" "$mine"; do
			run=$(ARCH=$a KERNEL=$k DEBUG=0 PMU_MODEL=$model BENCH_SEL="$want" \
				bash "$HARNESS/boot.sh" bench | tail -n 1)
			grep -q '^@@RESULT bench 0' "$run/console.log" ||
				die "bench failed on $a/$k (log: $run/console.log)"
			col=ours; [ "$k" = "$ref" ] && col=stock
			# $5: the baseline's name, "-" for none (or from a
			# bench without that field).
			awk -v a="$a" -v k="$col" -v OFS='\t' '$1 == "BENCH" {
				print a, k, $2, $3, $4, ($5 == "" ? "-" : $5) }' \
				"$run/console.log" >> "$tsv"
			awk -v a="$a" -v k="$col" -v OFS='\t' '$1 == "BENCHPMU" {
				print a, k, $2, $3, $4, $5, $6 }' \
				"$run/console.log" >> "$pmu_tsv"
		done
	done
done
python3 - "$tsv" "$BUILD/bench.json" "$(cat "$BUILD/base-version")" "$pmu_tsv" <<'PY'
import json, sys
tsv, out, ver, pmu_tsv = sys.argv[1:5]
rows = {}
for line in open(tsv):
    arch, kernel, name, value, unit, base = line.rstrip('\n').split('\t')
    r = rows.setdefault((arch, name), {'unit': unit, 'base': None})
    # n/a: the scenario could not run there (no hardware PMU).
    r[kernel] = None if value == 'n/a' else float(value)
    if base != '-':
        r['base'] = base


def perf_part(arch, r, k):
    """A kernel's figure minus its baseline's, None if either is missing."""
    b = rows.get((arch, r['base']), {})
    if r.get(k) is None or b.get(k) is None:
        return None
    return r[k] - b[k]


table = []
print(f"{'arch':8} {'benchmark':24} {'stock':>12} {'ours':>12} {'unit':8} "
      f"{'ours/stock':>10} {'perf part':>10}")
for (arch, name), r in rows.items():
    s, o = r.get('stock'), r.get('ours')
    ratio = (o / s) if s and o is not None else None
    sp = op = pratio = None
    if r['base']:
        sp, op = perf_part(arch, r, 'stock'), perf_part(arch, r, 'ours')
        # Only a positive stock part makes a ratio that means something.
        pratio = op / sp if op is not None and sp and sp > 0 else None
    table.append({'arch': arch, 'benchmark': name, 'unit': r['unit'],
                  'stock': s, 'ours': o, 'ratio': ratio,
                  'baseline': r['base'], 'stock_perf': sp, 'ours_perf': op,
                  'perf_ratio': pratio})
    fmt = lambda k: (f"{'-':>12}" if k not in r else
                     f"{'n/a':>12}" if r[k] is None else f'{r[k]:12.1f}')
    rat = lambda v: f'{v:10.2f}' if v is not None else f"{'-':>10}"
    print(f"{arch:8} {name:24} {fmt('stock')} {fmt('ours')} {r['unit']:8} "
          f"{rat(ratio)} {rat(pratio)}")
# PMU register accesses per operation (x86_64 hw boot only).
access = {}
for line in open(pmu_tsv):
    arch, kernel, name, rd, wr, pmc, gp = line.rstrip('\n').split('\t')
    access.setdefault((arch, name), {})[kernel] = {
        'rdmsr': float(rd), 'wrmsr': float(wr), 'rdpmc': float(pmc),
        'faulted': float(gp)}
if access:
    print()
    print('PMU register accesses per operation (our QEMU counts them; '
          'RDMSR/WRMSR/RDPMC, faulted)')
    print(f"{'arch':8} {'benchmark':24} {'stock':>24} {'ours':>24} "
          f"{'ours/stock':>10}")
    cell = lambda a: (f"{'-':>24}" if a is None else
                      f"{a['rdmsr']:.1f}/{a['wrmsr']:.1f}/{a['rdpmc']:.1f}, "
                      f"{a['faulted']:.0f}".rjust(24))
    total = lambda a: a['rdmsr'] + a['wrmsr'] + a['rdpmc']
    above = []
    for (arch, name), r in access.items():
        s, o = r.get('stock'), r.get('ours')
        ratio = (total(o) / total(s) if s and o and total(s) > 0 else None)
        rat = f'{ratio:10.2f}' if ratio is not None else f"{'-':>10}"
        # Averages over runs of different lengths: a tenth of an access
        # per operation is noise (timer ticks, the watchdog's NMI).
        if s and o and total(o) > total(s) + 0.1:
            above.append(name)
        print(f"{arch:8} {name:24} {cell(s)} {cell(o)} {rat}")
    if above:
        print(f"ours touches the PMU more than stock in: {' '.join(above)}")
    for row in table:
        r = access.get((row['arch'], row['benchmark']))
        if r:
            row['pmu_access'] = r
json.dump({'linux': ver, 'results': table}, open(out, 'w'), indent=1)
print(f'written to {out}')
PY
