// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the AMD core counter driver.
 *
 * AMD's core counters (AMD64 APM vol. 2, "Performance Monitoring
 * Counters") are one kind: every event may use every counter.  Three
 * layouts:
 *
 *   legacy		4 counters, PERF_CTL0-3 at C001_0000h and PERF_CTR0-3
 *			at C001_0004h; no CPUID bit says they exist;
 *   PerfCtrExtCore	(CPUID 8000_0001h ECX[23]) 6 counters, CTL and CTR
 *			interleaved from C001_0200h, of which the legacy
 *			MSRs are aliases;
 *   PerfMonV2		(CPUID 8000_0022h EAX[0]) adds a global control,
 *			status and status-clear register, and says how many
 *			core counters there are (EBX[3:0]).
 *
 * Without PerfMonV2 nothing switches all counters at once, so a group
 * starts and stops one counter after the other, and an overflow is seen
 * by the counter's sign: counters.c has the helpers for both.  The
 * counters are 48 bits wide.
 *
 * Paired counters: from family 17h on, an event that can count more
 * than 15 in a cycle (Retired SSE/AVX FLOPs) needs an even counter and
 * the odd one after it, programmed with the Merge event, which carries
 * the even one's count on: the assignment gives such an event both
 * (PERF_X86_EVENT_PAIR in its constraint), this file programs the odd
 * one, and counters.c loads it.
 *
 * Host and guest: the event select's HostOnly and GuestOnly bits tell a
 * counter to count in one of them.  With SVM off, HostOnly would stop
 * the counter altogether, so a CPU strips it until KVM turns SVM on
 * there (amd_pmu_enable_virt(), kvm.c).
 */

#include <linux/bitops.h>
#include <linux/init.h>
#include <linux/perf_event.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../counters.h"

#define AMD_WIDTH	48

/* The Merge event, on the odd counter of a pair. */
#define AMD_MERGE_CONTROL	(0xfULL << 32 | 0xff | ARCH_PERFMON_EVENTSEL_ENABLE)
#define AMD_EVEN_COUNTERS	0x5555555555555555ULL

/* Family 17h on: the events that take a pair (filled in at probe). */
static struct event_constraint amd_pair_table[] = {
	{ .code = 0x03, .cmask = AMD64_EVENTSEL_EVENT,
	  .flags = PERF_X86_EVENT_PAIR },	/* Retired SSE/AVX FLOPs */
	X86C_CONSTRAINT_END
};

/*
 * Family 15h (Bulldozer to Excavator): which of the six counters an
 * event may use follows the unit it counts in, bits 7:4 of its event
 * code (BKDG for family 15h, "Core Performance Monitor Counters"):
 * floating point on counters 3-5, load/store and data cache on all six,
 * the combined unit, instruction cache and decode on 0-2, the
 * northbridge on none of them (its own counters, the NB PMU).  Some
 * codes have counters of their own, and three depend on their unit
 * mask: 0x000 with both halves of it set, and 0x004 with more than one
 * bit, count on counter 3 only; 0x031 with more than one bit counts
 * nowhere.  The first row that matches wins, so every exception comes
 * before its unit's row; the unit rows match bits 7:4 alone.
 */
#define F15H_PMC0	BIT_ULL(0)
#define F15H_PMC0_2	GENMASK_ULL(2, 0)
#define F15H_PMC3	BIT_ULL(3)
#define F15H_PMC0_3	(BIT_ULL(0) | BIT_ULL(3))
#define F15H_PMC3_5	GENMASK_ULL(5, 3)
#define F15H_PMC0_5	GENMASK_ULL(5, 0)

/* Bit 8 of an event code, where the event select has it. */
#define F15H_HI		BIT_ULL(32)

#define F15H_EVENT(code, counters) \
	X86C_CONSTRAINT(code, AMD64_EVENTSEL_EVENT, counters)
#define F15H_UMASK(code, umask, counters) \
	X86C_CONSTRAINT((code) | (umask) << 8, AMD64_EVENTSEL_EVENT | \
			ARCH_PERFMON_EVENTSEL_UMASK, counters)
/* @n units from @first's */
#define F15H_UNITS(first, n, counters) \
	X86C_RANGE_CONSTRAINT(first, ((n) - 1) << 4, 0xf0, counters)

struct event_constraint x86c_amd_f15h_table[] = {
	/* 0x000: one half of the unit mask, or none, is an FP unit event */
	X86C_CONSTRAINT(0x000, AMD64_EVENTSEL_EVENT | 0xf000, F15H_PMC3_5),
	X86C_CONSTRAINT(0x000, AMD64_EVENTSEL_EVENT | 0x0f00, F15H_PMC3_5),
	F15H_EVENT(0x000, F15H_PMC3),
	/* 0x004 and 0x031: at most one unit mask bit */
	F15H_UMASK(0x004, 0x00, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x01, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x02, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x04, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x08, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x10, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x20, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x40, F15H_PMC3_5),
	F15H_UMASK(0x004, 0x80, F15H_PMC3_5),
	F15H_EVENT(0x004, F15H_PMC3),
	F15H_UMASK(0x031, 0x00, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x01, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x02, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x04, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x08, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x10, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x20, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x40, F15H_PMC0_2),
	F15H_UMASK(0x031, 0x80, F15H_PMC0_2),
	F15H_EVENT(0x031, 0),
	/* codes with counters of their own */
	F15H_EVENT(0x003, F15H_PMC3),
	F15H_EVENT(0x00b, F15H_PMC3),
	F15H_EVENT(0x00d, F15H_PMC3),
	F15H_EVENT(0x023, F15H_PMC0_2),
	F15H_EVENT(0x02d, F15H_PMC3),
	F15H_EVENT(0x02e, F15H_PMC0_3),
	F15H_EVENT(0x043, F15H_PMC0_2),
	F15H_EVENT(0x045, F15H_PMC0_2),
	F15H_EVENT(0x046, F15H_PMC0_2),
	F15H_EVENT(0x054, F15H_PMC0_2),
	F15H_EVENT(0x055, F15H_PMC0_2),
	F15H_EVENT(0x08f, F15H_PMC0),
	X86C_RANGE_CONSTRAINT(0x0db, 4, AMD64_EVENTSEL_EVENT, F15H_PMC0_5),
	F15H_EVENT(F15H_HI | 0xc0, F15H_PMC3_5),	/* 0x1c0 */
	F15H_EVENT(F15H_HI | 0x87, F15H_PMC0),	/* 0x187 */
	F15H_EVENT(F15H_HI | 0x88, F15H_PMC0),	/* 0x188 */
	F15H_EVENT(F15H_HI | 0xd6, F15H_PMC0_5),	/* 0x1d6 */
	F15H_EVENT(F15H_HI | 0xd8, F15H_PMC0_5),	/* 0x1d8 */
	/* the units */
	F15H_UNITS(0x00, 2, F15H_PMC3_5),	/* floating point */
	F15H_UNITS(0x20, 4, F15H_PMC0_5),	/* load/store, data cache */
	F15H_UNITS(0x60, 4, F15H_PMC0_2),	/* combined unit, IC, decode */
	F15H_UNITS(0xa0, 2, 0),			/* none */
	F15H_UNITS(0xc0, 1, F15H_PMC0_5),	/* execution, load/store */
	F15H_UNITS(0xd0, 1, F15H_PMC0_2),	/* decode */
	F15H_UNITS(0xe0, 2, 0),			/* northbridge: the NB PMU */
	X86C_CONSTRAINT_END
};

/* Core generations whose generic event codes differ. */
enum amd_generation {
	AMD_PRE_ZEN,
	AMD_ZEN1,
	AMD_ZEN2,	/* and Zen 3 */
	AMD_ZEN4,	/* and later */
	AMD_GENERATIONS
};

/* The code of each generic event, per generation; 0: not counted. */
static const u64 amd_event_codes[PERF_COUNT_HW_MAX][AMD_GENERATIONS] = {
	/*					pre-Zen	 Zen 1	  Zen 2-3  Zen 4+ */
	[PERF_COUNT_HW_CPU_CYCLES]		= { 0x0076, 0x0076, 0x0076, 0x0076 },
	[PERF_COUNT_HW_INSTRUCTIONS]		= { 0x00c0, 0x00c0, 0x00c0, 0x00c0 },
	[PERF_COUNT_HW_CACHE_REFERENCES]	= { 0x077d, 0xff60, 0xff60, 0xff60 },
	[PERF_COUNT_HW_CACHE_MISSES]		= { 0x077e, 0x0964, 0x0964, 0x0964 },
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= { 0x00c2, 0x00c2, 0x00c2, 0x00c2 },
	[PERF_COUNT_HW_BRANCH_MISSES]		= { 0x00c3, 0x00c3, 0x00c3, 0x00c3 },
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= { 0x00d0, 0x0287, 0x00a9, 0x00a9 },
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= { 0x00d1, 0x0187, 0, 0 },
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= { 0, 0, 0, 0x100000120 },
};

/*
 * The generic cache events (perf's L1-dcache-loads and the like), per
 * family: before 17h (K8 to the Jaguar cores) and from 17h on (Zen, and
 * Hygon's 18h).  Instruction fetches serve for ITLB accesses before Zen,
 * and data cache accesses for DTLB ones.
 */
static const struct x86c_cache_event amd_cache_events_pre_zen[] = {
	X86C_CACHE(L1D,  READ,     ACCESS, 0x0040),	/* data cache accesses */
	X86C_CACHE(L1D,  READ,     MISS,   0x0141),	/* data cache misses */
	X86C_CACHE(L1D,  PREFETCH, ACCESS, 0x0267),	/* prefetch attempts */
	X86C_CACHE(L1D,  PREFETCH, MISS,   0x0167),	/* prefetches cancelled */
	X86C_CACHE(L1I,  READ,     ACCESS, 0x0080),	/* instruction fetches */
	X86C_CACHE(L1I,  READ,     MISS,   0x0081),	/* instruction cache misses */
	X86C_CACHE(L1I,  PREFETCH, ACCESS, 0x014b),	/* prefetch instructions */
	X86C_CACHE(LL,   READ,     ACCESS, 0x037d),	/* L2 requests, IC and DC */
	X86C_CACHE(LL,   READ,     MISS,   0x037e),	/* L2 misses, IC and DC */
	X86C_CACHE(LL,   WRITE,    ACCESS, 0x017f),	/* L2 fills and writebacks */
	X86C_CACHE(DTLB, READ,     ACCESS, 0x0040),
	X86C_CACHE(DTLB, READ,     MISS,   0x0746),	/* L1 and L2 DTLB misses */
	X86C_CACHE(ITLB, READ,     ACCESS, 0x0080),
	X86C_CACHE(ITLB, READ,     MISS,   0x0385),	/* L1 and L2 ITLB misses */
	X86C_CACHE(BPU,  READ,     ACCESS, 0x00c2),	/* retired branches */
	X86C_CACHE(BPU,  READ,     MISS,   0x00c3),	/* and mispredicted */
	X86C_CACHE(NODE, READ,     ACCESS, 0xb8e9),	/* memory requests */
	X86C_CACHE(NODE, READ,     MISS,   0x98e9),	/* remote ones */
	X86C_CACHE_END
};

static const struct x86c_cache_event amd_cache_events_zen[] = {
	X86C_CACHE(L1D,  READ,     ACCESS, 0x0040),	/* data cache accesses */
	X86C_CACHE(L1D,  READ,     MISS,   0xc860),	/* L2 accesses of DC misses */
	X86C_CACHE(L1D,  PREFETCH, ACCESS, 0xff5a),	/* hardware prefetch fills */
	X86C_CACHE(L1I,  READ,     ACCESS, 0x0080),	/* instruction fetches */
	X86C_CACHE(L1I,  READ,     MISS,   0x0081),	/* instruction cache misses */
	X86C_CACHE(DTLB, READ,     ACCESS, 0xff45),	/* L2 DTLB accesses */
	X86C_CACHE(DTLB, READ,     MISS,   0xf045),	/* L2 DTLB misses: walks */
	X86C_CACHE(ITLB, READ,     ACCESS, 0x0084),	/* L1 ITLB misses, L2 hits */
	X86C_CACHE(ITLB, READ,     MISS,   0xff85),	/* L1 and L2 ITLB misses */
	X86C_CACHE(BPU,  READ,     ACCESS, 0x00c2),	/* retired branches */
	X86C_CACHE(BPU,  READ,     MISS,   0x00c3),	/* and mispredicted */
	X86C_CACHE_END
};

/*
 * Operations these caches do not have, in both families: nothing writes
 * to the instruction side or to the branch predictor, and nothing
 * prefetches into a TLB, the predictor or another node.
 */
#define AMD_CACHE_REFUSED						\
	(X86C_CACHE_NO(L1I, WRITE) |					\
	 X86C_CACHE_NO(ITLB, WRITE) | X86C_CACHE_NO(ITLB, PREFETCH) |	\
	 X86C_CACHE_NO(BPU, WRITE) | X86C_CACHE_NO(BPU, PREFETCH) |	\
	 X86C_CACHE_NO(NODE, WRITE) | X86C_CACHE_NO(NODE, PREFETCH))

/* Family 17h holds Zen 1 and 2, 19h Zen 3 and 4: the feature flags tell. */
static enum amd_generation amd_generation(void)
{
	unsigned int family = boot_cpu_data.x86;

	if (family >= 0x1a || boot_cpu_has(X86_FEATURE_ZEN4))
		return AMD_ZEN4;
	if (family >= 0x19 || boot_cpu_has(X86_FEATURE_ZEN2))
		return AMD_ZEN2;
	if (boot_cpu_has(X86_FEATURE_ZEN1))
		return AMD_ZEN1;
	return AMD_PRE_ZEN;
}

static bool amd_paired(struct x86c_cpu *cpu, int idx)
{
	return cpu->owner[idx] &&
	       (cpu->owner[idx]->hw.flags & PERF_X86_EVENT_PAIR);
}

/*
 * Without PerfMonV2, a counter started while the counters are disabled
 * is written by the enable that follows (x86c_program_each()).  The
 * odd counter of a pair merges at once: it only counts what the even
 * one carries, so it needs no switching on and off of its own.
 */
static void amd_program(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx,
			u64 config)
{
	if (amd_paired(cpu, idx))
		p->hw->write_msr(p->gp_ctl + (idx + 1) * p->gp_stride,
				 AMD_MERGE_CONTROL);
	if (cpu->disabled && !p->vendor->global_ctrl)
		return;
	p->hw->write_msr(p->gp_ctl + idx * p->gp_stride,
			 config | ARCH_PERFMON_EVENTSEL_ENABLE);
}

static void amd_unprogram(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx)
{
	p->hw->write_msr(p->gp_ctl + idx * p->gp_stride, 0);
	if (amd_paired(cpu, idx))
		p->hw->write_msr(p->gp_ctl + (idx + 1) * p->gp_stride, 0);
}

static void amd_no_ack(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 mask)
{
}

static int amd_hw_config(struct x86c_pmu *p, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	/* Neither host nor guest: the counter counts in no mode at all. */
	if (event->attr.exclude_host && event->attr.exclude_guest)
		hwc->config &= ~(ARCH_PERFMON_EVENTSEL_USR |
				 ARCH_PERFMON_EVENTSEL_OS);
	else if (event->attr.exclude_host)
		hwc->config |= AMD64_EVENTSEL_GUESTONLY;
	else if (event->attr.exclude_guest)
		hwc->config |= AMD64_EVENTSEL_HOSTONLY;
	return 0;
}

/*
 * The core counters skid; IBS tags the instruction itself.  Where the
 * CPU has IBS, a precise event goes to its op PMU (cycles become IBS
 * op sampling, what IBS cannot count is refused there), as upstream
 * does, so that "cycles:pp" works on AMD.
 */
static int amd_precise(struct x86c_pmu *p, struct perf_event *event)
{
	return get_ibs_caps() ? forward_event_to_ibs(event) : -EOPNOTSUPP;
}

/* PerfMonV2: the global registers. */
static void amd_v2_enable_all(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	p->hw->write_msr(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, p->all_mask);
}

static void amd_v2_disable_all(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	p->hw->write_msr(MSR_AMD64_PERF_CNTR_GLOBAL_CTL, 0);
}

static u64 amd_v2_overflowed(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	return p->hw->read_msr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS);
}

static void amd_v2_ack(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 mask)
{
	p->hw->write_msr(MSR_AMD64_PERF_CNTR_GLOBAL_STATUS_CLR, mask);
}

/* Not static: counters_test.c drives it against a model of the MSRs. */
const struct x86c_vendor x86c_amd_vendor = {
	.name		= "AMD core counters",
	.late_nmi	= true,
	.precise	= amd_precise,
	.hw_config	= amd_hw_config,
	.program	= amd_program,
	.unprogram	= amd_unprogram,
	.enable_all	= x86c_program_each,
	.disable_all	= x86c_program_each,
	.overflowed	= x86c_overflowed_by_sign,
	.ack		= amd_no_ack,
};

const struct x86c_vendor x86c_amd_v2_vendor = {
	.name		= "AMD PerfMonV2",
	.global_ctrl	= true,
	.late_nmi	= true,
	.precise	= amd_precise,
	.hw_config	= amd_hw_config,
	.program	= amd_program,
	.unprogram	= amd_unprogram,
	.enable_all	= amd_v2_enable_all,
	.disable_all	= amd_v2_disable_all,
	.overflowed	= amd_v2_overflowed,
	.ack		= amd_v2_ack,
};

/**
 * x86c_amd_probe - describe AMD's core counters
 * @p: filled in
 *
 * Return: 0, or -ENODEV before the K7.
 */
int x86c_amd_probe(struct x86c_pmu *p)
{
	enum amd_generation gen = amd_generation();
	unsigned int eax, ebx, ecx, edx;
	int i;

	if (boot_cpu_data.x86 < 6)
		return -ENODEV;

	p->width = AMD_WIDTH;
	p->raw_mask = AMD64_RAW_EVENT_MASK;
	p->virt_mask = AMD64_EVENTSEL_HOSTONLY;
	p->format = &x86c_amd_format_group;
	p->vendor = &x86c_amd_vendor;
	if (boot_cpu_has(X86_FEATURE_PERFCTR_CORE)) {
		p->num_gp = AMD64_NUM_COUNTERS_CORE;
		p->gp_ctl = MSR_F15H_PERF_CTL;
		p->gp_ctr = MSR_F15H_PERF_CTR;
		p->gp_stride = 2;
	} else {
		p->num_gp = AMD64_NUM_COUNTERS;
		p->gp_ctl = MSR_K7_EVNTSEL0;
		p->gp_ctr = MSR_K7_PERFCTR0;
		p->gp_stride = 1;
	}
	if (boot_cpu_has(X86_FEATURE_PERFMON_V2)) {
		cpuid(0x80000022, &eax, &ebx, &ecx, &edx);
		p->version = 2;
		p->num_gp = clamp_t(int, ebx & 0xf, 1, X86C_MAX_GP);
		p->vendor = &x86c_amd_v2_vendor;
	}
	for (i = 0; i < PERF_COUNT_HW_MAX; i++)
		p->event_map[i] = amd_event_codes[i][gen];
	p->cache_events = boot_cpu_data.x86 >= 0x17 ? amd_cache_events_zen :
						      amd_cache_events_pre_zen;
	p->cache_refused = AMD_CACHE_REFUSED;
	if (boot_cpu_data.x86 == 0x15)
		p->table = x86c_amd_f15h_table;
	if (boot_cpu_data.x86 >= 0x17 && p->num_gp >= 2) {
		/* The even counters that have an odd one after them. */
		u64 even = GENMASK_ULL(p->num_gp - 2, 0) & AMD_EVEN_COUNTERS;

		amd_pair_table[0].idxmsk64 = even;
		amd_pair_table[0].weight = hweight64(even);
		p->table = amd_pair_table;
	}
	return 0;
}
