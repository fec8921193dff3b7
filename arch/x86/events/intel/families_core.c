// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the Intel big-core families before Skylake, as data: Core 2,
 * Nehalem, Westmere, Sandy Bridge, Ivy Bridge, Haswell and Broadwell.
 *
 * What each table means, and how to add one, is said at the top of
 * families.c.  The counter limits come from Intel's event lists and the
 * SDM, volume 3B, chapter 20 ("Performance Monitoring Events") for each
 * of these microarchitectures; where a whole code is limited its every
 * unit mask is.  Memory-retirement events (0xd0-0xd3) of Sandy Bridge
 * to Broadwell are limited to counters 0-3: with Hyper-Threading a
 * thread has four counters only, without it these events still do not
 * count on 4-7.
 *
 * The generic cache events are the codes (and the off-core response
 * selections, in the RSP registers' layout of each core) that the stock
 * kernel uses for the same model, so that a cache event counts the same
 * thing on either kernel; the selections are given as the numbers the
 * SDM's OFFCORE_RSP tables compose them into.
 */
#include <linux/bits.h>

#include <asm/msr-index.h>

#include "../counters.h"
#include "families.h"

/* ---- Core 2 (Merom, Penryn, Dunnington) ----------------------------- */

static const u8 core2_models[] = {
	0x0f,	/* Merom */
	0x16,	/* Merom L */
	0x17,	/* Penryn */
	0x1d,	/* Dunnington */
	0
};

/*
 * Core 2 splits its model-specific events between its two counters:
 * floating-point execution, divider busy and retired loads on counter 0;
 * floating-point assists, multiplies, divides and bypass delays on 1.
 */
static struct event_constraint core2_constraints[] = {
	X86C_EVENT_CONSTRAINT(0x10, 0x1),	/* FP_COMP_OPS_EXE */
	X86C_EVENT_CONSTRAINT(0x11, 0x2),	/* FP_ASSIST */
	X86C_EVENT_CONSTRAINT(0x12, 0x2),	/* MUL */
	X86C_EVENT_CONSTRAINT(0x13, 0x2),	/* DIV */
	X86C_EVENT_CONSTRAINT(0x14, 0x1),	/* CYCLES_DIV_BUSY */
	X86C_EVENT_CONSTRAINT(0x18, 0x1),	/* IDLE_DURING_DIV */
	X86C_EVENT_CONSTRAINT(0x19, 0x2),	/* DELAYED_BYPASS */
	X86C_EVENT_CONSTRAINT(0xa1, 0x1),	/* RS_UOPS_DISPATCH_CYCLES */
	X86C_EVENT_CONSTRAINT(0xc9, 0x1),	/* ITLB_MISS_RETIRED */
	X86C_EVENT_CONSTRAINT(0xcb, 0x1),	/* MEM_LOAD_RETIRED */
	X86C_CONSTRAINT_END
};

static const struct x86c_cache_event core2_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0x0f40),
	X86C_CACHE(L1D, READ, MISS, 0x0140),
	X86C_CACHE(L1D, WRITE, ACCESS, 0x0f41),
	X86C_CACHE(L1D, WRITE, MISS, 0x0141),
	X86C_CACHE(L1D, PREFETCH, ACCESS, 0x104e),
	X86C_CACHE(L1I, READ, ACCESS, 0x0080),
	X86C_CACHE(L1I, READ, MISS, 0x0081),
	X86C_CACHE(LL, READ, ACCESS, 0x4f29),
	X86C_CACHE(LL, READ, MISS, 0x4129),
	X86C_CACHE(LL, WRITE, ACCESS, 0x4f2a),
	X86C_CACHE(LL, WRITE, MISS, 0x412a),
	X86C_CACHE(DTLB, READ, ACCESS, 0x0f40),
	X86C_CACHE(DTLB, READ, MISS, 0x0208),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x0f41),
	X86C_CACHE(DTLB, WRITE, MISS, 0x0808),
	X86C_CACHE(ITLB, READ, ACCESS, 0x00c0),
	X86C_CACHE(ITLB, READ, MISS, 0x1282),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x00c5),
	X86C_CACHE_END
};

const struct x86c_intel_family x86c_family_core2 = {
	.name		= "core2",
	.models		= core2_models,
	.constraints	= core2_constraints,
	.cache_events	= core2_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
};

/* ---- Nehalem and Westmere ------------------------------------------ */

static const u8 nehalem_models[] = {
	0x1a,	/* Nehalem EP */
	0x1e,	/* Nehalem */
	0x1f,	/* Nehalem G */
	0x2e,	/* Nehalem EX */
	0
};

/* The L1D events and the lock-cycle count: counters 0 and 1. */
static struct event_constraint nehalem_constraints[] = {
	X86C_RANGE_CONSTRAINT(0x40, 3, ARCH_PERFMON_EVENTSEL_EVENT, 0x3),
						/* L1D_CACHE_LD, _ST, _LOCK, L1D_ALL_REF */
	X86C_EVENT_CONSTRAINT(0x48, 0x3),	/* L1D_PEND_MISS */
	X86C_EVENT_CONSTRAINT(0x4e, 0x3),	/* L1D_PREFETCH */
	X86C_EVENT_CONSTRAINT(0x51, 0x3),	/* L1D */
	X86C_EVENT_CONSTRAINT(0x63, 0x3),	/* CACHE_LOCK_CYCLES */
	X86C_CONSTRAINT_END
};

/*
 * Nehalem has one off-core response register; the load-latency
 * threshold belongs to PEBS (MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD).
 */
static const struct x86c_extra_reg nehalem_extra_regs[] = {
	{ .code = OFFCORE_RSP_0, .msr = MSR_OFFCORE_RSP_0,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
	{ .code = 0x100b, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
};

static const struct x86c_cache_event nehalem_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0x010b),
	X86C_CACHE(L1D, READ, MISS, 0x0151),
	X86C_CACHE(L1D, WRITE, ACCESS, 0x020b),
	X86C_CACHE(L1D, WRITE, MISS, 0x0251),
	X86C_CACHE(L1D, PREFETCH, ACCESS, 0x014e),
	X86C_CACHE(L1D, PREFETCH, MISS, 0x024e),
	X86C_CACHE(L1I, READ, ACCESS, 0x0380),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE_EXTRA(LL, READ, ACCESS, 0x01b7, 0xf701),
	X86C_CACHE_EXTRA(LL, READ, MISS, 0x01b7, 0xf001),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, 0x01b7, 0xf70a),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0xf00a),
	X86C_CACHE_EXTRA(LL, PREFETCH, ACCESS, 0x01b7, 0xf730),
	X86C_CACHE_EXTRA(LL, PREFETCH, MISS, 0x01b7, 0xf030),
	X86C_CACHE(DTLB, READ, ACCESS, 0x0f40),
	X86C_CACHE(DTLB, READ, MISS, 0x0108),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x0f41),
	X86C_CACHE(DTLB, WRITE, MISS, 0x010c),
	X86C_CACHE(ITLB, READ, ACCESS, 0x01c0),
	X86C_CACHE(ITLB, READ, MISS, 0x20c8),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x03e8),
	X86C_CACHE_EXTRA(NODE, READ, ACCESS, 0x01b7, 0x7001),
	X86C_CACHE_EXTRA(NODE, READ, MISS, 0x01b7, 0x2001),
	X86C_CACHE_EXTRA(NODE, WRITE, ACCESS, 0x01b7, 0x700a),
	X86C_CACHE_EXTRA(NODE, WRITE, MISS, 0x01b7, 0x200a),
	X86C_CACHE_EXTRA(NODE, PREFETCH, ACCESS, 0x01b7, 0x7030),
	X86C_CACHE_EXTRA(NODE, PREFETCH, MISS, 0x01b7, 0x2030),
	X86C_CACHE_END
};

/*
 * Stall cycles: uops issued (0x0e) and uops executed on any port
 * (0xb1, unit mask 0x3f), each inverted with a count mask of one.
 */
#define NHM_STALLED_FRONTEND	0x0180010eULL
#define NHM_STALLED_BACKEND	0x01803fb1ULL

/* Nehalem: a period under 32 may lose its interrupt. */
static const struct x86c_period_limit nehalem_period_limits[] = {
	{ .mask = 0, .min = 32 },
	{ }
};

const struct x86c_intel_family x86c_family_nehalem = {
	.name		= "nehalem",
	.models		= nehalem_models,
	.event_map	= {
		[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= NHM_STALLED_FRONTEND,
		[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= NHM_STALLED_BACKEND,
	},
	/*
	 * Erratum AAJ80: the architectural branch-miss event is wrong,
	 * and CPUID says so; BR_MISP_EXEC.ANY counts instead (executed,
	 * not retired, so it counts some speculative misses too).
	 */
	.event_fallback	= {
		[PERF_COUNT_HW_BRANCH_MISSES]	= 0x7f89,
	},
	.constraints	= nehalem_constraints,
	.cache_events	= nehalem_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= nehalem_extra_regs,
	.nr_extra	= ARRAY_SIZE(nehalem_extra_regs),
	.period_limits	= nehalem_period_limits,
};

static const u8 westmere_models[] = {
	0x25,	/* Westmere */
	0x2c,	/* Westmere EP */
	0x2f,	/* Westmere EX */
	0
};

static struct event_constraint westmere_constraints[] = {
	X86C_EVENT_CONSTRAINT(0x51, 0x3),	/* L1D */
	X86C_EVENT_CONSTRAINT(0x60, 0x1),	/* OFFCORE_REQUESTS_OUTSTANDING */
	X86C_EVENT_CONSTRAINT(0x63, 0x3),	/* CACHE_LOCK_CYCLES */
	X86C_EVENT_CONSTRAINT(0xb3, 0x1),	/* SNOOPQ_REQUESTS_OUTSTANDING */
	X86C_CONSTRAINT_END
};

/* Westmere adds the second off-core response register. */
static const struct x86c_extra_reg westmere_extra_regs[] = {
	{ .code = OFFCORE_RSP_0, .msr = MSR_OFFCORE_RSP_0,
	  .valid = GENMASK_ULL(15, 0), .alt = 1 },
	{ .code = OFFCORE_RSP_1, .msr = MSR_OFFCORE_RSP_1,
	  .valid = GENMASK_ULL(15, 0), .alt = 0 },
	{ .code = 0x100b, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
};

static const struct x86c_cache_event westmere_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0x010b),
	X86C_CACHE(L1D, READ, MISS, 0x0151),
	X86C_CACHE(L1D, WRITE, ACCESS, 0x020b),
	X86C_CACHE(L1D, WRITE, MISS, 0x0251),
	X86C_CACHE(L1D, PREFETCH, ACCESS, 0x014e),
	X86C_CACHE(L1D, PREFETCH, MISS, 0x024e),
	X86C_CACHE(L1I, READ, ACCESS, 0x0380),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE_EXTRA(LL, READ, ACCESS, 0x01b7, 0xf701),
	X86C_CACHE_EXTRA(LL, READ, MISS, 0x01b7, 0xf001),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, 0x01b7, 0xf70a),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0xf00a),
	X86C_CACHE_EXTRA(LL, PREFETCH, ACCESS, 0x01b7, 0xf730),
	X86C_CACHE_EXTRA(LL, PREFETCH, MISS, 0x01b7, 0xf030),
	X86C_CACHE(DTLB, READ, ACCESS, 0x010b),
	X86C_CACHE(DTLB, READ, MISS, 0x0108),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x020b),
	X86C_CACHE(DTLB, WRITE, MISS, 0x010c),
	X86C_CACHE(ITLB, READ, ACCESS, 0x01c0),
	X86C_CACHE(ITLB, READ, MISS, 0x0185),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x03e8),
	X86C_CACHE_EXTRA(NODE, READ, ACCESS, 0x01b7, 0x7001),
	X86C_CACHE_EXTRA(NODE, READ, MISS, 0x01b7, 0x2001),
	X86C_CACHE_EXTRA(NODE, WRITE, ACCESS, 0x01b7, 0x700a),
	X86C_CACHE_EXTRA(NODE, WRITE, MISS, 0x01b7, 0x200a),
	X86C_CACHE_EXTRA(NODE, PREFETCH, ACCESS, 0x01b7, 0x7030),
	X86C_CACHE_EXTRA(NODE, PREFETCH, MISS, 0x01b7, 0x2030),
	X86C_CACHE_END
};

const struct x86c_intel_family x86c_family_westmere = {
	.name		= "westmere",
	.models		= westmere_models,
	.event_map	= {
		[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= NHM_STALLED_FRONTEND,
		[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= NHM_STALLED_BACKEND,
	},
	.constraints	= westmere_constraints,
	.cache_events	= westmere_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= westmere_extra_regs,
	.nr_extra	= ARRAY_SIZE(westmere_extra_regs),
};

/* ---- Sandy Bridge to Broadwell -------------------------------------- */

/*
 * The off-core response registers from Sandy Bridge on: the request
 * type in bits 0-15, the supplier in 16-30, the snoop in 31-37; the
 * clients lack some supplier bits the servers have.  Both events may use
 * either register.  The load-latency threshold is PEBS's.
 */
#define SNB_RSP_VALID		0x3f807f8fffULL
#define SNB_SERVER_RSP_VALID	0x3fffff8fffULL

static const struct x86c_extra_reg sandybridge_extra_regs[] = {
	{ .code = OFFCORE_RSP_0, .msr = MSR_OFFCORE_RSP_0,
	  .valid = SNB_RSP_VALID, .alt = 1 },
	{ .code = OFFCORE_RSP_1, .msr = MSR_OFFCORE_RSP_1,
	  .valid = SNB_RSP_VALID, .alt = 0 },
	{ .code = 0x01cd, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
};

/* Sandy Bridge and Ivy Bridge servers, and every Haswell and Broadwell. */
static const struct x86c_extra_reg snb_server_extra_regs[] = {
	{ .code = OFFCORE_RSP_0, .msr = MSR_OFFCORE_RSP_0,
	  .valid = SNB_SERVER_RSP_VALID, .alt = 1 },
	{ .code = OFFCORE_RSP_1, .msr = MSR_OFFCORE_RSP_1,
	  .valid = SNB_SERVER_RSP_VALID, .alt = 0 },
	{ .code = 0x01cd, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
};

/*
 * The top-down level-1 events of Sandy Bridge to Broadwell: as
 * Skylake's (families.c), but recovery cycles are INT_MISC unit mask 3.
 */
static const struct x86c_named_event sandybridge_named_events[] = {
	{ "topdown-total-slots", "event=0x3c,umask=0x0",
	  "event=0x3c,umask=0x0,any=1" },	/* CPU_CLK_UNHALTED.THREAD */
	{ "topdown-total-slots.scale", "4", "2" },
	{ "topdown-slots-issued", "event=0xe,umask=0x1" },	/* UOPS_ISSUED.ANY */
	{ "topdown-slots-retired", "event=0xc2,umask=0x2" },	/* UOPS_RETIRED.RETIRE_SLOTS */
	{ "topdown-fetch-bubbles", "event=0x9c,umask=0x1" },	/* IDQ_UOPS_NOT_DELIVERED.CORE */
	{ "topdown-recovery-bubbles", "event=0xd,umask=0x3,cmask=1",
	  "event=0xd,umask=0x3,cmask=1,any=1" },	/* INT_MISC.RECOVERY_CYCLES */
	{ "topdown-recovery-bubbles.scale", "4", "2" },
	{ }
};

/* Stall cycles: uops issued (0x0e), and uops dispatched (0xb1). */
#define SNB_STALLED_FRONTEND	0x0180010eULL
#define SNB_STALLED_BACKEND	0x018001b1ULL

/*
 * The memory-retirement events: counters 0-3 (see the top).  With
 * Hyper-Threading on, one corrupts what the other thread counts on the
 * counter of the same number (errata BJ122, BV98, HSD29): its counter
 * is the core's while it counts (ht_excl.c).
 */
#define SNB_MEM_RETIRED_CONSTRAINTS {					\
	.idxmsk64 = 0xf,						\
	.code = 0xd0,							\
	.size = 3,							\
	.cmask = ARCH_PERFMON_EVENTSEL_EVENT,				\
	.weight = 4,							\
	.flags = PERF_X86_EVENT_EXCL,					\
}

static const u8 sandybridge_models[] = {
	0x2a,	/* Sandy Bridge */
	0
};

static const u8 sandybridge_server_models[] = {
	0x2d,	/* Sandy Bridge X */
	0
};

/*
 * CYCLE_ACTIVITY (0xa3) counts pending L1D misses on counter 2 only,
 * other pending conditions on 0-3; L1D_PEND_MISS on 2, the precise
 * distribution of retired instructions on 1, the load-latency event
 * on 3.
 */
static struct event_constraint sandybridge_constraints[] = {
	X86C_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_DISPATCH */
	X86C_UEVENT_CONSTRAINT(0x05a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	X86C_UEVENT_CONSTRAINT(0x02a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	X86C_UEVENT_CONSTRAINT(0x06a3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	X86C_EVENT_CONSTRAINT(0x48, 0x4),	/* L1D_PEND_MISS.PENDING */
	X86C_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	X86C_EVENT_CONSTRAINT(0xcd, 0x8),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	SNB_MEM_RETIRED_CONSTRAINTS,
	X86C_CONSTRAINT_END
};

static const struct x86c_cache_event sandybridge_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0xf1d0),
	X86C_CACHE(L1D, READ, MISS, 0x0151),
	X86C_CACHE(L1D, WRITE, ACCESS, 0xf2d0),
	X86C_CACHE(L1D, WRITE, MISS, 0x0851),
	X86C_CACHE(L1D, PREFETCH, MISS, 0x024e),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE_EXTRA(LL, READ, ACCESS, 0x01b7, 0x10081),
	X86C_CACHE_EXTRA(LL, READ, MISS, 0x01b7, 0x3fffc00081),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, 0x01b7, 0x10102),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0x3fffc00102),
	X86C_CACHE_EXTRA(LL, PREFETCH, ACCESS, 0x01b7, 0x10030),
	X86C_CACHE_EXTRA(LL, PREFETCH, MISS, 0x01b7, 0x3fffc00030),
	X86C_CACHE(DTLB, READ, ACCESS, 0x81d0),
	X86C_CACHE(DTLB, READ, MISS, 0x0108),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x82d0),
	X86C_CACHE(DTLB, WRITE, MISS, 0x0149),
	X86C_CACHE(ITLB, READ, ACCESS, 0x1085),
	X86C_CACHE(ITLB, READ, MISS, 0x0185),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x00c5),
	X86C_CACHE_EXTRA(NODE, READ, ACCESS, 0x01b7, 0x1fffc00081),
	X86C_CACHE_EXTRA(NODE, READ, MISS, 0x01b7, 0x1fff800081),
	X86C_CACHE_EXTRA(NODE, WRITE, ACCESS, 0x01b7, 0x1fffc00102),
	X86C_CACHE_EXTRA(NODE, WRITE, MISS, 0x01b7, 0x1fff800102),
	X86C_CACHE_EXTRA(NODE, PREFETCH, ACCESS, 0x01b7, 0x1fffc00030),
	X86C_CACHE_EXTRA(NODE, PREFETCH, MISS, 0x01b7, 0x1fff800030),
	X86C_CACHE_END
};

/*
 * The client parts' off-core response registers lack the DRAM supplier
 * bits (23-30) that the misses and the node events select: those are
 * refused there, as upstream refuses them.
 */
static const struct x86c_cache_event sandybridge_client_cache_events[] = {
	X86C_CACHE_NO_RESULT(LL, READ, MISS),
	X86C_CACHE_NO_RESULT(LL, WRITE, MISS),
	X86C_CACHE_NO_RESULT(LL, PREFETCH, MISS),
	X86C_CACHE_NO_RESULT(NODE, READ, ACCESS),
	X86C_CACHE_NO_RESULT(NODE, READ, MISS),
	X86C_CACHE_NO_RESULT(NODE, WRITE, ACCESS),
	X86C_CACHE_NO_RESULT(NODE, WRITE, MISS),
	X86C_CACHE_NO_RESULT(NODE, PREFETCH, ACCESS),
	X86C_CACHE_NO_RESULT(NODE, PREFETCH, MISS),
	X86C_CACHE_END_THEN(sandybridge_cache_events)
};

const struct x86c_intel_family x86c_family_sandybridge = {
	.name		= "sandybridge",
	.models		= sandybridge_models,
	.event_map	= {
		[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= SNB_STALLED_FRONTEND,
		[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= SNB_STALLED_BACKEND,
	},
	.constraints	= sandybridge_constraints,
	.cache_events	= sandybridge_client_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= sandybridge_extra_regs,
	.nr_extra	= ARRAY_SIZE(sandybridge_extra_regs),
	.named_events	= sandybridge_named_events,
};

/* The server part: more supplier bits in the off-core responses. */
const struct x86c_intel_family x86c_family_sandybridge_server = {
	.name		= "sandybridge",
	.models		= sandybridge_server_models,
	.event_map	= {
		[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= SNB_STALLED_FRONTEND,
		[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= SNB_STALLED_BACKEND,
	},
	.constraints	= sandybridge_constraints,
	.cache_events	= sandybridge_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= snb_server_extra_regs,
	.nr_extra	= ARRAY_SIZE(snb_server_extra_regs),
	.named_events	= sandybridge_named_events,
};

static const u8 ivybridge_models[] = {
	0x3a,	/* Ivy Bridge */
	0
};

static const u8 ivybridge_server_models[] = {
	0x3e,	/* Ivy Bridge X */
	0
};

/* Ivy Bridge renumbers CYCLE_ACTIVITY's unit masks. */
static struct event_constraint ivybridge_constraints[] = {
	X86C_UEVENT_CONSTRAINT(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING */
	X86C_UEVENT_CONSTRAINT(0x0279, 0xf),	/* IDQ.EMPTY */
	X86C_UEVENT_CONSTRAINT(0x019c, 0xf),	/* IDQ_UOPS_NOT_DELIVERED.CORE */
	X86C_UEVENT_CONSTRAINT(0x02a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_LDM_PENDING */
	X86C_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_EXECUTE */
	X86C_UEVENT_CONSTRAINT(0x05a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_L2_PENDING */
	X86C_UEVENT_CONSTRAINT(0x06a3, 0xf),	/* CYCLE_ACTIVITY.STALLS_LDM_PENDING */
	X86C_UEVENT_CONSTRAINT(0x08a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	X86C_UEVENT_CONSTRAINT(0x0ca3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	X86C_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	SNB_MEM_RETIRED_CONSTRAINTS,
	X86C_CONSTRAINT_END
};

/* Sandy Bridge's, but for the DTLB load misses that cause a walk. */
static const struct x86c_cache_event ivybridge_cache_events[] = {
	X86C_CACHE(DTLB, READ, MISS, 0x8108),
	X86C_CACHE_END_THEN(sandybridge_cache_events)
};

/* As on Sandy Bridge, the client parts cannot select DRAM suppliers. */
static const struct x86c_cache_event ivybridge_client_cache_events[] = {
	X86C_CACHE(DTLB, READ, MISS, 0x8108),
	X86C_CACHE_END_THEN(sandybridge_client_cache_events)
};

/* Ivy Bridge has no generic event for backend stalls. */
const struct x86c_intel_family x86c_family_ivybridge = {
	.name		= "ivybridge",
	.models		= ivybridge_models,
	.event_map	= {
		[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= SNB_STALLED_FRONTEND,
	},
	.constraints	= ivybridge_constraints,
	.cache_events	= ivybridge_client_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= sandybridge_extra_regs,
	.nr_extra	= ARRAY_SIZE(sandybridge_extra_regs),
	.named_events	= sandybridge_named_events,
};

const struct x86c_intel_family x86c_family_ivybridge_server = {
	.name		= "ivybridge",
	.models		= ivybridge_server_models,
	.event_map	= {
		[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= SNB_STALLED_FRONTEND,
	},
	.constraints	= ivybridge_constraints,
	.cache_events	= ivybridge_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= snb_server_extra_regs,
	.nr_extra	= ARRAY_SIZE(snb_server_extra_regs),
	.named_events	= sandybridge_named_events,
};

static const u8 haswell_models[] = {
	0x3c,	/* Haswell */
	0x3f,	/* Haswell X */
	0x45,	/* Haswell L */
	0x46,	/* Haswell G */
	0
};

static struct event_constraint haswell_constraints[] = {
	X86C_UEVENT_CONSTRAINT(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING */
	X86C_UEVENT_CONSTRAINT(0x01c0, 0x2),	/* INST_RETIRED.PREC_DIST */
	X86C_EVENT_CONSTRAINT(0xcd, 0x8),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	X86C_UEVENT_CONSTRAINT(0x08a3, 0x4),	/* CYCLE_ACTIVITY.CYCLES_L1D_PENDING */
	X86C_UEVENT_CONSTRAINT(0x0ca3, 0x4),	/* CYCLE_ACTIVITY.STALLS_L1D_PENDING */
	X86C_UEVENT_CONSTRAINT(0x04a3, 0xf),	/* CYCLE_ACTIVITY.CYCLES_NO_EXECUTE */
	SNB_MEM_RETIRED_CONSTRAINTS,
	X86C_CONSTRAINT_END
};

static const struct x86c_cache_event haswell_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0x81d0),
	X86C_CACHE(L1D, READ, MISS, 0x0151),
	X86C_CACHE(L1D, WRITE, ACCESS, 0x82d0),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE_EXTRA(LL, READ, ACCESS, 0x01b7, 0x10001),
	X86C_CACHE_EXTRA(LL, READ, MISS, 0x01b7, 0x3fb8400001),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, 0x01b7, 0x10002),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0x3fb8400002),
	X86C_CACHE(DTLB, READ, ACCESS, 0x81d0),
	X86C_CACHE(DTLB, READ, MISS, 0x0108),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x82d0),
	X86C_CACHE(DTLB, WRITE, MISS, 0x0149),
	X86C_CACHE(ITLB, READ, ACCESS, 0x6085),
	X86C_CACHE(ITLB, READ, MISS, 0x0185),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x00c5),
	X86C_CACHE_EXTRA(NODE, READ, ACCESS, 0x01b7, 0x1f80400001),
	X86C_CACHE_EXTRA(NODE, READ, MISS, 0x01b7, 0x1fb8000001),
	X86C_CACHE_EXTRA(NODE, WRITE, ACCESS, 0x01b7, 0x1f80400002),
	X86C_CACHE_EXTRA(NODE, WRITE, MISS, 0x01b7, 0x1fb8000002),
	X86C_CACHE_END
};

/*
 * Haswell: INST_RETIRED.ALL (0x01c0) needs a period over 100 (erratum
 * HSW11), 128 here; any other event at least 32, as two counters with
 * shorter periods may expire in one NMI.
 */
#define INST_RETIRED_ALL	0x01c0

static const struct x86c_period_limit haswell_period_limits[] = {
	{ .code = INST_RETIRED_ALL, .mask = INTEL_ARCH_EVENT_MASK, .min = 128 },
	{ .mask = 0, .min = 32 },
	{ }
};

/*
 * Haswell's transactional events (TSX): transactions (RTM) and elided
 * locks (HLE) begun, committed, aborted, and aborted for capacity or a
 * conflict; and the cycles spent in transactions, without and with the
 * aborted ones (in_tx, in_tx_cp).
 */
const struct x86c_named_event x86c_haswell_tsx_events[] = {
	{ "tx-start",		"event=0xc9,umask=0x1" },
	{ "tx-commit",		"event=0xc9,umask=0x2" },
	{ "tx-abort",		"event=0xc9,umask=0x4" },
	{ "tx-capacity",	"event=0x54,umask=0x2" },
	{ "tx-conflict",	"event=0x54,umask=0x1" },
	{ "el-start",		"event=0xc8,umask=0x1" },
	{ "el-commit",		"event=0xc8,umask=0x2" },
	{ "el-abort",		"event=0xc8,umask=0x4" },
	{ "el-capacity",	"event=0x54,umask=0x2" },
	{ "el-conflict",	"event=0x54,umask=0x1" },
	{ "cycles-t",		"event=0x3c,in_tx=1" },
	{ "cycles-ct",		"event=0x3c,in_tx=1,in_tx_cp=1" },
	X86C_NAMED_END
};

const struct x86c_intel_family x86c_family_haswell = {
	.name		= "haswell",
	.models		= haswell_models,
	.constraints	= haswell_constraints,
	.cache_events	= haswell_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= snb_server_extra_regs,
	.nr_extra	= ARRAY_SIZE(snb_server_extra_regs),
	.named_events	= sandybridge_named_events,
	.tsx_events	= x86c_haswell_tsx_events,
	.period_limits	= haswell_period_limits,
};

static const u8 broadwell_models[] = {
	0x3d,	/* Broadwell */
	0x47,	/* Broadwell G */
	0x4f,	/* Broadwell X */
	0x56,	/* Broadwell D */
	0
};

/*
 * Broadwell: CYCLE_ACTIVITY with unit-mask bit 3 (L1D misses pending),
 * whatever else the unit mask has, on counter 2.
 */
static struct event_constraint broadwell_constraints[] = {
	X86C_UEVENT_CONSTRAINT(0x0148, 0x4),	/* L1D_PEND_MISS.PENDING */
	X86C_CONSTRAINT(0x08a3, ARCH_PERFMON_EVENTSEL_EVENT | 0x0800, 0x4),
	X86C_EVENT_CONSTRAINT(0xd0, 0xf),	/* MEM_UOPS_RETIRED.* */
	X86C_EVENT_CONSTRAINT(0xd1, 0xf),	/* MEM_LOAD_UOPS_RETIRED.* */
	X86C_EVENT_CONSTRAINT(0xd2, 0xf),	/* MEM_LOAD_UOPS_L3_HIT_RETIRED.* */
	X86C_EVENT_CONSTRAINT(0xcd, 0xf),	/* MEM_TRANS_RETIRED.* */
	X86C_CONSTRAINT_END
};

/*
 * Haswell's, but Broadwell reports an L3 miss served by local DRAM in
 * bit 26 of the off-core response, where Haswell had bit 22.
 */
static const struct x86c_cache_event broadwell_cache_events[] = {
	X86C_CACHE_EXTRA(LL, READ, MISS, 0x01b7, 0x1fbc000001),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0x1fbc000002),
	X86C_CACHE_EXTRA(NODE, READ, ACCESS, 0x01b7, 0x1f84000001),
	X86C_CACHE_EXTRA(NODE, WRITE, ACCESS, 0x01b7, 0x1f84000002),
	X86C_CACHE_END_THEN(haswell_cache_events)
};

/*
 * Broadwell: INST_RETIRED.ALL's period at least 100 (BDM11) with its low
 * six bits clear (BDM55): 128 at least, a multiple of 64.
 */
static const struct x86c_period_limit broadwell_period_limits[] = {
	{ .code = INST_RETIRED_ALL, .mask = INTEL_ARCH_EVENT_MASK, .min = 128,
	  .align = 64 },
	{ }
};

const struct x86c_intel_family x86c_family_broadwell = {
	.name		= "broadwell",
	.models		= broadwell_models,
	.constraints	= broadwell_constraints,
	.cache_events	= broadwell_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= snb_server_extra_regs,
	.nr_extra	= ARRAY_SIZE(snb_server_extra_regs),
	.named_events	= sandybridge_named_events,
	.tsx_events	= x86c_haswell_tsx_events,
	.period_limits	= broadwell_period_limits,
};
