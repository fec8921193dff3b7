// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what each Intel core family adds to the architectural
 * performance-monitoring events.
 *
 * CPUID leaf 0AH says how many counters a core has and which of the
 * architectural events it counts.  It does not say which of the
 * model-specific events a general-purpose counter cannot take, nor
 * which generic event (PERF_COUNT_HW_*) is better counted with another
 * code on a given core.  This file holds those facts, as plain data,
 * one set of tables per family of cores:
 *
 *  - the family 6 model numbers of the family (<asm/intel-family.h>);
 *  - the generic events whose code differs from the architectural
 *    one; 0 leaves the architectural code in place;
 *  - the general-purpose counters that an event code is limited to.
 *
 * The restrictions come from Intel's event lists (the "Counter" field
 * of each event at github.com/intel/perfmon, copied into the kernel
 * under tools/perf/pmu-events/arch/x86/) and from the Intel SDM,
 * volume 3B, "Performance Monitoring".  Where Intel limits a whole run
 * of event codes, the tables follow the runs the stock kernel applies,
 * since the test suite compares against that kernel: reserved codes
 * inside a run are limited as well.
 *
 * A counter mask has bit i set for general-purpose counter i.  Fixed
 * counters, PEBS and the topdown metrics are not described here: the
 * framework builds the fixed-counter events from CPUID.  A mask may
 * name counters a CPU lacks (a Skylake core has eight general-purpose
 * counters with Hyper-Threading off and four with it on, and a guest
 * may have fewer still): the Intel probe has to narrow each mask, and
 * recount its weight, to the counters the CPU reports.
 *
 * Events are matched by exact code, so a run of codes is written one
 * code a line.  The first matching entry wins: an entry for an event
 * code and unit mask must come before the entry for the event code
 * alone.
 *
 * To add a family: give it a models array ended by 0, a constraint
 * array ended by X86C_CONSTRAINT_END (not const, for the probe's
 * narrowing) and a place in x86c_intel_families[] before the NULL
 * that ends it.  A model belongs to one family only.  The families of
 * one kind of core share a file: the big cores before Skylake in
 * families_core.c, the Atoms in families_atom.c, Skylake and later
 * here.  hwfamily.c in the suite
 * holds each family to the stock kernel on a model of it.  A hybrid
 * part's family describes its P-cores and points to its E-cores' tables
 * (.atom); the probe makes a PMU of each.
 */
#include <linux/bits.h>

#include <asm/msr-index.h>

#include "../counters.h"
#include "families.h"

/*
 * Skylake microarchitecture: Skylake client and server, Kaby Lake,
 * Coffee Lake (the Kaby Lake model numbers) and Comet Lake.
 */
static const u8 skylake_models[] = {
	0x4e,	/* Skylake mobile */
	0x5e,	/* Skylake desktop */
	0x55,	/* Skylake server, Cascade Lake, Cooper Lake */
	0x8e,	/* Kaby Lake, Coffee Lake, mobile */
	0x9e,	/* Kaby Lake, Coffee Lake, desktop */
	0xa5,	/* Comet Lake desktop */
	0xa6,	/* Comet Lake mobile */
	0
};

static struct event_constraint skylake_constraints[] = {
	X86C_UEVENT_CONSTRAINT(0x01c0, 0x02),	/* INST_RETIRED.PREC_DIST: counter 1 */
	/* memory and front-end retirement events: counters 0-3 */
	X86C_EVENT_CONSTRAINT(0xc6, 0x0f),	/* FRONTEND_RETIRED.* */
	X86C_EVENT_CONSTRAINT(0xcd, 0x0f),	/* MEM_TRANS_RETIRED.* */
	X86C_EVENT_CONSTRAINT(0xd0, 0x0f),	/* MEM_INST_RETIRED.* */
	X86C_EVENT_CONSTRAINT(0xd1, 0x0f),	/* MEM_LOAD_RETIRED.* */
	X86C_EVENT_CONSTRAINT(0xd2, 0x0f),	/* MEM_LOAD_L3_HIT_RETIRED.* */
	X86C_CONSTRAINT_END
};

/*
 * Off-core response selections (MSR_OFFCORE_RSP_x) of the Skylake
 * cores: the request (demand data reads, RFOs), the response (any, no
 * supplier, an L3 miss to local or remote DRAM) and the snoop bits.
 */
#define SKL_RSP_DEMAND_READ	BIT_ULL(0)
#define SKL_RSP_DEMAND_RFO	BIT_ULL(1)
#define SKL_RSP_ANY		BIT_ULL(16)
#define SKL_RSP_NO_SUPPLIER	BIT_ULL(17)
#define SKL_RSP_LOCAL_DRAM	BIT_ULL(26)
#define SKL_RSP_REMOTE_DRAM	GENMASK_ULL(29, 27)	/* 0, 1, 2+ hops */
#define SKL_RSP_L3_MISS		(SKL_RSP_LOCAL_DRAM | SKL_RSP_REMOTE_DRAM)
#define SKL_RSP_DRAM_SNOOPS	GENMASK_ULL(36, 30)	/* all but non-DRAM */
#define SKL_RSP_ANY_SNOOP	GENMASK_ULL(37, 30)
#define SKL_RSP_VALID		(GENMASK_ULL(11, 0) | GENMASK_ULL(37, 15))

/* LLC: an access is any response, a miss one from beyond the L3. */
#define SKL_LL_ACCESS(req)	((req) | SKL_RSP_ANY | SKL_RSP_ANY_SNOOP)
#define SKL_LL_MISS(req)	((req) | SKL_RSP_L3_MISS | SKL_RSP_ANY_SNOOP | \
				 SKL_RSP_NO_SUPPLIER)
/* The node: local DRAM is an access, remote DRAM a miss. */
#define SKL_NODE_ACCESS(req)	((req) | SKL_RSP_LOCAL_DRAM | SKL_RSP_DRAM_SNOOPS)
#define SKL_NODE_MISS(req)	((req) | SKL_RSP_REMOTE_DRAM | SKL_RSP_DRAM_SNOOPS)

/*
 * Either off-core response event may use the other's register.  The
 * load-latency threshold (MEM_TRANS_RETIRED.LOAD_LATENCY) and the
 * front-end event selection (FRONTEND_RETIRED) are PEBS's registers:
 * without PEBS they are absent, and so are those events.
 */
static const struct x86c_extra_reg skylake_extra_regs[] = {
	{ .code = OFFCORE_RSP_0, .msr = MSR_OFFCORE_RSP_0,
	  .valid = SKL_RSP_VALID, .alt = 1 },
	{ .code = OFFCORE_RSP_1, .msr = MSR_OFFCORE_RSP_1,
	  .valid = SKL_RSP_VALID, .alt = 0 },
	{ .code = 0x01cd, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
	{ .code = 0x01c6, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x7fff17, .alt = -1 },	/* 0-2, 4, 8-22 */
};

static const struct x86c_cache_event skylake_cache_events[] = {
	X86C_CACHE(L1D,  READ,  ACCESS, 0x81d0),	/* MEM_INST_RETIRED.ALL_LOADS */
	X86C_CACHE(L1D,  READ,  MISS,   0x0151),	/* L1D.REPLACEMENT */
	X86C_CACHE(L1D,  WRITE, ACCESS, 0x82d0),	/* MEM_INST_RETIRED.ALL_STORES */
	X86C_CACHE(L1I,  READ,  MISS,   0x0283),	/* ICACHE_64B.IFTAG_MISS */
	X86C_CACHE_EXTRA(LL, READ, ACCESS, OFFCORE_RSP_0,
			 SKL_LL_ACCESS(SKL_RSP_DEMAND_READ)),
	X86C_CACHE_EXTRA(LL, READ, MISS, OFFCORE_RSP_0,
			 SKL_LL_MISS(SKL_RSP_DEMAND_READ)),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, OFFCORE_RSP_0,
			 SKL_LL_ACCESS(SKL_RSP_DEMAND_RFO)),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, OFFCORE_RSP_0,
			 SKL_LL_MISS(SKL_RSP_DEMAND_RFO)),
	X86C_CACHE(DTLB, READ,  ACCESS, 0x81d0),	/* all loads */
	X86C_CACHE(DTLB, READ,  MISS,   0x0e08),	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x82d0),	/* all stores */
	X86C_CACHE(DTLB, WRITE, MISS,   0x0e49),	/* DTLB_STORE_MISSES.WALK_COMPLETED */
	X86C_CACHE(ITLB, READ,  ACCESS, 0x2085),	/* ITLB_MISSES.STLB_HIT */
	X86C_CACHE(ITLB, READ,  MISS,   0x0e85),	/* ITLB_MISSES.WALK_COMPLETED */
	X86C_CACHE(BPU,  READ,  ACCESS, 0x00c4),	/* BR_INST_RETIRED.ALL_BRANCHES */
	X86C_CACHE(BPU,  READ,  MISS,   0x00c5),	/* BR_MISP_RETIRED.ALL_BRANCHES */
	X86C_CACHE_EXTRA(NODE, READ, ACCESS, OFFCORE_RSP_0,
			 SKL_NODE_ACCESS(SKL_RSP_DEMAND_READ)),
	X86C_CACHE_EXTRA(NODE, READ, MISS, OFFCORE_RSP_0,
			 SKL_NODE_MISS(SKL_RSP_DEMAND_READ)),
	X86C_CACHE_EXTRA(NODE, WRITE, ACCESS, OFFCORE_RSP_0,
			 SKL_NODE_ACCESS(SKL_RSP_DEMAND_RFO)),
	X86C_CACHE_EXTRA(NODE, WRITE, MISS, OFFCORE_RSP_0,
			 SKL_NODE_MISS(SKL_RSP_DEMAND_RFO)),
	X86C_CACHE_END
};

/*
 * The top-down analysis events of the Haswell to Skylake cores, as perf
 * finds them in events/: four issue slots per cycle, the slots issued
 * and retired, the slots the front end left empty and the cycles spent
 * recovering from a mispredict (unit mask 1 on Skylake).  Where a core
 * runs two threads, the cycles are counted for both (AnyThread) and
 * shared out with a scale of 2.
 */
static const struct x86c_named_event skylake_named_events[] = {
	{ "topdown-total-slots", "event=0x3c,umask=0x0",
	  "event=0x3c,umask=0x0,any=1" },	/* CPU_CLK_UNHALTED.THREAD */
	{ "topdown-total-slots.scale", "4", "2" },
	{ "topdown-slots-issued", "event=0xe,umask=0x1" },	/* UOPS_ISSUED.ANY */
	{ "topdown-slots-retired", "event=0xc2,umask=0x2" },	/* UOPS_RETIRED.RETIRE_SLOTS */
	{ "topdown-fetch-bubbles", "event=0x9c,umask=0x1" },	/* IDQ_UOPS_NOT_DELIVERED.CORE */
	{ "topdown-recovery-bubbles", "event=0xd,umask=0x1,cmask=1",
	  "event=0xd,umask=0x1,cmask=1,any=1" },	/* INT_MISC.RECOVERY_CYCLES */
	{ "topdown-recovery-bubbles.scale", "4", "2" },
	{ }
};

/*
 * Ice Lake's off-core response selections: the supplier field grows to
 * bit 37 (bit 14 stays reserved).  The front-end and load-latency
 * registers are as Skylake's.
 */
static const struct x86c_extra_reg icelake_extra_regs[] = {
	{ .code = OFFCORE_RSP_0, .msr = MSR_OFFCORE_RSP_0,
	  .valid = 0x3fffffbfffULL, .alt = 1 },
	{ .code = OFFCORE_RSP_1, .msr = MSR_OFFCORE_RSP_1,
	  .valid = 0x3fffffbfffULL, .alt = 0 },
	{ .code = 0x01cd, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
	{ .code = 0x01c6, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x7fff17, .alt = -1 },	/* 0-2, 4, 8-22 */
};

/* Skylake's cache events, but Ice Lake has no ITLB access event. */
static const struct x86c_cache_event icelake_cache_events[] = {
	X86C_CACHE_NO_RESULT(ITLB, READ, ACCESS),
	X86C_CACHE_END_THEN(skylake_cache_events)
};

/*
 * Sunny Cove, Willow Cove and Cypress Cove cores: Ice Lake client and
 * server, Tiger Lake, Rocket Lake.
 */
static const u8 icelake_models[] = {
	0x6a,	/* Ice Lake server */
	0x6c,	/* Ice Lake D */
	0x7d,	/* Ice Lake desktop */
	0x7e,	/* Ice Lake mobile */
	0x8c,	/* Tiger Lake mobile */
	0x8d,	/* Tiger Lake desktop */
	0xa7,	/* Rocket Lake */
	0
};

/*
 * Ice Lake cores have eight counters; the runs of codes below count on
 * 0-3 only.  The precise-distribution instructions event counts on
 * fixed counter 0, and its new pseudo-code there alone; topdown slots
 * are fixed counter 3's, the four level-1 metrics IA32_PERF_METRICS'.
 */
static struct event_constraint icelake_constraints[] = {
	X86C_FIXED_ONLY_CONSTRAINT(0x0100, 0),	/* INST_RETIRED.PREC_DIST */
	X86C_FIXED_CONSTRAINT(0x01c0, 0),	/* its code before Ice Lake */
	X86C_FIXED_ONLY_CONSTRAINT(0x0400, 3),	/* TOPDOWN.SLOTS */
	X86C_UEVENT_CONSTRAINT(0x8000, X86C_METRIC_COUNTER(0)),
	X86C_UEVENT_CONSTRAINT(0x8100, X86C_METRIC_COUNTER(1)),
	X86C_UEVENT_CONSTRAINT(0x8200, X86C_METRIC_COUNTER(2)),
	X86C_UEVENT_CONSTRAINT(0x8300, X86C_METRIC_COUNTER(3)),
	X86C_EVENT_RANGE(0x03, 0x7, 0x0f),	/* 0x03-0x0a */
	X86C_EVENT_RANGE(0x1f, 0x9, 0x0f),	/* 0x1f-0x28 */
	X86C_EVENT_CONSTRAINT(0x32, 0x0f),	/* SW_PREFETCH_ACCESS.* */
	X86C_EVENT_RANGE(0x48, 0xe, 0x0f),	/* 0x48-0x56 */
	X86C_EVENT_RANGE(0x60, 0x2b, 0x0f),	/* 0x60-0x8b */
	/* CYCLE_ACTIVITY: three unit masks run anywhere, the rest on 0-3 */
	X86C_UEVENT_CONSTRAINT(0x04a3, 0xff),	/* STALLS_TOTAL */
	X86C_UEVENT_CONSTRAINT(0x10a3, 0xff),	/* CYCLES_MEM_ANY */
	X86C_UEVENT_CONSTRAINT(0x14a3, 0xff),	/* STALLS_MEM_ANY */
	X86C_EVENT_CONSTRAINT(0xa3, 0x0f),
	X86C_EVENT_RANGE(0xa8, 0x8, 0x0f),	/* 0xa8-0xb0 */
	X86C_EVENT_RANGE(0xb7, 0x6, 0x0f),	/* 0xb7-0xbd */
	X86C_EVENT_RANGE(0xd0, 0x16, 0x0f),	/* 0xd0-0xe6 */
	X86C_EVENT_RANGE(0xef, 0x5, 0x0f),	/* 0xef-0xf4 */
	X86C_CONSTRAINT_END
};

/* Golden Cove server cores: Sapphire Rapids, Emerald Rapids. */
static const u8 sapphire_rapids_models[] = {
	0x8f,	/* Sapphire Rapids */
	0xcf,	/* Emerald Rapids */
	0
};

/*
 * Golden Cove cores have eight counters.  Event codes below 0x90 run
 * on counters 0-3 only, except 0x2e (LONGEST_LAT_CACHE) and 0x3c
 * (CPU_CLK_UNHALTED), which run anywhere and so have no entry.  Codes
 * from 0x90 up run anywhere, except those listed after the run.
 */
static struct event_constraint sapphire_rapids_constraints[] = {
	X86C_FIXED_ONLY_CONSTRAINT(0x0100, 0),	/* INST_RETIRED.PREC_DIST */
	X86C_FIXED_CONSTRAINT(0x013c, 2),	/* CPU_CLK_UNHALTED.REF_TSC_P */
	X86C_FIXED_ONLY_CONSTRAINT(0x0400, 3),	/* TOPDOWN.SLOTS */
	/* the eight level-1 and level-2 metrics of IA32_PERF_METRICS */
	X86C_UEVENT_CONSTRAINT(0x8000, X86C_METRIC_COUNTER(0)),
	X86C_UEVENT_CONSTRAINT(0x8100, X86C_METRIC_COUNTER(1)),
	X86C_UEVENT_CONSTRAINT(0x8200, X86C_METRIC_COUNTER(2)),
	X86C_UEVENT_CONSTRAINT(0x8300, X86C_METRIC_COUNTER(3)),
	X86C_UEVENT_CONSTRAINT(0x8400, X86C_METRIC_COUNTER(4)),
	X86C_UEVENT_CONSTRAINT(0x8500, X86C_METRIC_COUNTER(5)),
	X86C_UEVENT_CONSTRAINT(0x8600, X86C_METRIC_COUNTER(6)),
	X86C_UEVENT_CONSTRAINT(0x8700, X86C_METRIC_COUNTER(7)),
	/* load latency: any counter but 0, store samples: 0 alone */
	X86C_UEVENT_CONSTRAINT(0x01cd, 0xfe),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	X86C_UEVENT_CONSTRAINT(0x02cd, 0x01),	/* MEM_TRANS_RETIRED.STORE_SAMPLE */
	/*
	 * 0x01-0x8f on 0-3, but for the last-level cache events (0x2e)
	 * and the cycle events (0x3c), which count anywhere.
	 */
	X86C_EVENT_RANGE(0x01, 0x2c, 0x0f),	/* 0x01-0x2d */
	X86C_EVENT_RANGE(0x2f, 0xc, 0x0f),	/* 0x2f-0x3b */
	X86C_EVENT_RANGE(0x3d, 0x52, 0x0f),	/* 0x3d-0x8f */
	/* CYCLE_ACTIVITY, three unit masks: counters 0-3 */
	X86C_UEVENT_CONSTRAINT(0x01a3, 0x0f),	/* CYCLES_L2_MISS */
	X86C_UEVENT_CONSTRAINT(0x02a3, 0x0f),
	X86C_UEVENT_CONSTRAINT(0x08a3, 0x0f),	/* CYCLES_L1D_MISS */
	/* counter 0 only */
	X86C_UEVENT_CONSTRAINT(0x04a4, 0x01),	/* TOPDOWN.BAD_SPEC_SLOTS */
	X86C_UEVENT_CONSTRAINT(0x08a4, 0x01),	/* TOPDOWN.BR_MISPREDICT_SLOTS */
	X86C_EVENT_CONSTRAINT(0xce, 0x01),
	X86C_EVENT_RANGE(0xd0, 0xf, 0x0f),	/* 0xd0-0xdf */
	X86C_CONSTRAINT_END
};

/*
 * Alder Lake and Raptor Lake: hybrid clients, Golden Cove (Raptor Cove)
 * P-cores beside Gracemont E-cores.
 */
static const u8 alderlake_hybrid_models[] = {
	0x97,	/* Alder Lake */
	0x9a,	/* Alder Lake mobile */
	0xb7,	/* Raptor Lake */
	0xba,	/* Raptor Lake P */
	0xbf,	/* Raptor Lake S */
	0
};

/*
 * Golden Cove's extra registers.  Either off-core response event may
 * use the other's register; FRONTEND_RETIRED and the load-latency
 * threshold are PEBS's (absent without it).  FRONTEND's selection bits
 * are 0-4 and 8-22.
 */
#define GLC_RSP_VALID	GENMASK_ULL(37, 0)

static const struct x86c_extra_reg golden_cove_extra_regs[] = {
	{ .code = 0x012a, .msr = MSR_OFFCORE_RSP_0,
	  .valid = GLC_RSP_VALID, .alt = 1 },
	{ .code = 0x012b, .msr = MSR_OFFCORE_RSP_1,
	  .valid = GLC_RSP_VALID, .alt = 0 },
	{ .code = 0x01cd, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
	{ .code = 0x01c6, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x7fff1f, .alt = -1 },
	{ .code = 0x40ad, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x7, .alt = -1 },
	{ .code = 0x04c2, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x8, .alt = -1 },
};

/*
 * Redwood Cove (Granite Rapids): FRONTEND_RETIRED's selection by unit
 * mask, 2 (latency only) and 3 (the rest), beside Golden Cove's others.
 */
static const struct x86c_extra_reg redwood_cove_extra_regs[] = {
	{ .code = 0x012a, .msr = MSR_OFFCORE_RSP_0,
	  .valid = GLC_RSP_VALID, .alt = 1 },
	{ .code = 0x012b, .msr = MSR_OFFCORE_RSP_1,
	  .valid = GLC_RSP_VALID, .alt = 0 },
	{ .code = 0x01cd, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
	{ .code = 0x02c6, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x9, .alt = -1 },
	{ .code = 0x03c6, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x7fff1f, .alt = -1 },
	{ .code = 0x40ad, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x7, .alt = -1 },
	{ .code = 0x04c2, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x8, .alt = -1 },
};

/*
 * Fixed counter 3's slots and the four level-1 categories of
 * IA32_PERF_METRICS (intel/topdown.c), from Ice Lake on; none of them
 * where the CPU does not have the metrics.
 */
static const struct x86c_named_event icelake_topdown_events[] = {
	{ "slots",		"event=0x00,umask=0x4", .needs_metrics = true },
	{ "topdown-retiring",	"event=0x00,umask=0x80", .needs_metrics = true },
	{ "topdown-bad-spec",	"event=0x00,umask=0x81", .needs_metrics = true },
	{ "topdown-fe-bound",	"event=0x00,umask=0x82", .needs_metrics = true },
	{ "topdown-be-bound",	"event=0x00,umask=0x83", .needs_metrics = true },
	X86C_NAMED_END
};

/* Golden Cove's four level-2 categories, then Ice Lake's. */
static const struct x86c_named_event golden_cove_topdown_events[] = {
	{ "topdown-heavy-ops",	   "event=0x00,umask=0x84", .needs_metrics = true },
	{ "topdown-br-mispredict", "event=0x00,umask=0x85", .needs_metrics = true },
	{ "topdown-fetch-lat",	   "event=0x00,umask=0x86", .needs_metrics = true },
	{ "topdown-mem-bound",	   "event=0x00,umask=0x87", .needs_metrics = true },
	X86C_NAMED_END_THEN(icelake_topdown_events)
};

/* A hybrid part's P-cores show the load and store events of perf mem. */
static const struct x86c_named_event redwood_cove_hybrid_named_events[] = {
	{ "mem-loads",		"event=0xcd,umask=0x1,ldlat=3" },
	{ "mem-stores",		"event=0xcd,umask=0x2" },
	X86C_NAMED_END_THEN(golden_cove_topdown_events)
};

/* Alder Lake's need the auxiliary load event too (as Sapphire Rapids). */
static const struct x86c_named_event golden_cove_hybrid_named_events[] = {
	{ "mem-loads-aux",	"event=0x03,umask=0x82" },
	X86C_NAMED_END_THEN(redwood_cove_hybrid_named_events)
};

/*
 * Golden Cove's off-core response selection (MSR_OFFCORE_RSP_0/1, events
 * 0x2a/0x2b with unit mask 1), the bits the cache events use: the request
 * type, then either "any response" or the supplier of the data together
 * with the outcome of the snoop it needed.  PMM: persistent memory.
 */
#define GLC_RSP_DEMAND_READ	BIT_ULL(0)		/* demand data reads */
#define GLC_RSP_DEMAND_RFO	BIT_ULL(1)		/* demand reads for ownership */
#define GLC_RSP_ANY		BIT_ULL(16)		/* whatever answered */
#define GLC_RSP_L3_HIT		GENMASK_ULL(21, 18)	/* supplied by the L3 */
#define GLC_RSP_LOCAL_PMM	GENMASK_ULL(23, 22)	/* this socket's PMM */
#define GLC_RSP_REMOTE_PMM	GENMASK_ULL(25, 24)	/* another socket's PMM */
#define GLC_RSP_LOCAL_DRAM	GENMASK_ULL(27, 26)	/* this socket's DRAM (both SNC) */
#define GLC_RSP_REMOTE		GENMASK_ULL(29, 28)	/* another socket's DRAM, cache */
/* supplied from beyond the L3: memory, or another socket */
#define GLC_RSP_L3_MISS		(GLC_RSP_LOCAL_PMM | GLC_RSP_REMOTE_PMM | \
				 GLC_RSP_LOCAL_DRAM | GLC_RSP_REMOTE)
#define GLC_RSP_SNOOP_NONE	BIT_ULL(31)		/* no snoop sent */
#define GLC_RSP_SNOOP_NOT_NEEDED BIT_ULL(32)		/* no snoop needed */
/* snoop not needed, missed, hit without/with forward, hit modified; non-DRAM */
#define GLC_RSP_SNOOPS		GENMASK_ULL(37, 32)

/* LLC: an access is a read with any response, or an RFO from anywhere. */
#define GLC_LL_READ_ACCESS	(GLC_RSP_DEMAND_READ | GLC_RSP_ANY)
#define GLC_LL_READ_MISS	(GLC_RSP_DEMAND_READ | GLC_RSP_L3_MISS | \
				 GLC_RSP_SNOOP_NONE | GLC_RSP_SNOOPS)
#define GLC_LL_WRITE_ACCESS	(GLC_RSP_DEMAND_RFO | GLC_RSP_L3_HIT | \
				 GLC_RSP_L3_MISS | GLC_RSP_SNOOPS)
#define GLC_LL_WRITE_MISS	(GLC_RSP_DEMAND_RFO | GLC_RSP_L3_MISS | \
				 GLC_RSP_SNOOPS)
/* The node: this socket's DRAM is an access, another socket's a miss. */
#define GLC_NODE_READ_ACCESS	(GLC_RSP_DEMAND_READ | GLC_RSP_LOCAL_DRAM | \
				 GLC_RSP_SNOOP_NOT_NEEDED)
#define GLC_NODE_READ_MISS	(GLC_RSP_DEMAND_READ | GLC_RSP_REMOTE_PMM | \
				 GLC_RSP_REMOTE | GLC_RSP_SNOOP_NONE | \
				 GLC_RSP_SNOOPS)

#define GLC_OCR_0		0x012a	/* OCR.*, with MSR_OFFCORE_RSP_0 */

static const struct x86c_cache_event golden_cove_cache_events[] = {
	X86C_CACHE(L1D,  READ,  ACCESS, 0x81d0),	/* MEM_INST_RETIRED.ALL_LOADS */
	X86C_CACHE(L1D,  READ,  MISS,   0xe124),	/* L2_RQSTS.ALL_DEMAND_DATA_RD */
	X86C_CACHE(L1D,  WRITE, ACCESS, 0x82d0),	/* MEM_INST_RETIRED.ALL_STORES */
	X86C_CACHE(L1I,  READ,  MISS,   0xe424),	/* L2_RQSTS.ALL_CODE_RD */
	/* OCR.DEMAND_DATA_RD.ANY_RESPONSE */
	X86C_CACHE_EXTRA(LL, READ, ACCESS, GLC_OCR_0, GLC_LL_READ_ACCESS),
	/* OCR.DEMAND_DATA_RD.L3_MISS */
	X86C_CACHE_EXTRA(LL, READ, MISS, GLC_OCR_0, GLC_LL_READ_MISS),
	/* OCR.DEMAND_RFO, any supplier (L3 or beyond) */
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, GLC_OCR_0, GLC_LL_WRITE_ACCESS),
	/* OCR.DEMAND_RFO, supplied from beyond the L3 */
	X86C_CACHE_EXTRA(LL, WRITE, MISS, GLC_OCR_0, GLC_LL_WRITE_MISS),
	X86C_CACHE(DTLB, READ,  ACCESS, 0x81d0),	/* all loads */
	X86C_CACHE(DTLB, READ,  MISS,   0x0e12),	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x82d0),	/* all stores */
	X86C_CACHE(DTLB, WRITE, MISS,   0x0e13),	/* DTLB_STORE_MISSES.WALK_COMPLETED */
	X86C_CACHE_NO_RESULT(ITLB, READ, ACCESS),
	X86C_CACHE(ITLB, READ,  MISS,   0x0e11),	/* ITLB_MISSES.WALK_COMPLETED */
	/* unit mask 4: all branches (Skylake's ALL_BRANCHES_PEBS) */
	X86C_CACHE(BPU,  READ,  ACCESS, 0x04c4),	/* BR_INST_RETIRED */
	X86C_CACHE(BPU,  READ,  MISS,   0x04c5),	/* BR_MISP_RETIRED */
	/* OCR.DEMAND_DATA_RD, this socket's DRAM */
	X86C_CACHE_EXTRA(NODE, READ, ACCESS, GLC_OCR_0, GLC_NODE_READ_ACCESS),
	/* OCR.DEMAND_DATA_RD, another socket's memory or cache */
	X86C_CACHE_EXTRA(NODE, READ, MISS, GLC_OCR_0, GLC_NODE_READ_MISS),
	X86C_CACHE_END
};

/* Writes to the instruction side and the predictor, ITLB/BPU prefetches. */
#define GOLDEN_COVE_CACHE_REFUSED					\
	(X86C_CACHE_NO(L1I, WRITE) |					\
	 X86C_CACHE_NO(ITLB, WRITE) | X86C_CACHE_NO(ITLB, PREFETCH) |	\
	 X86C_CACHE_NO(BPU, WRITE) | X86C_CACHE_NO(BPU, PREFETCH))

/*
 * Golden Cove's transactional events: transactions begun, aborted and
 * committed, capacity aborts by reads and by writes (tx-capacity-write
 * keeps Haswell's tx-capacity code), conflicts, and the cycles in
 * transactions without and with the aborted ones.
 */
static const struct x86c_named_event golden_cove_tsx_events[] = {
	{ "tx-start",		"event=0xc9,umask=0x1" },
	{ "tx-abort",		"event=0xc9,umask=0x4" },
	{ "tx-commit",		"event=0xc9,umask=0x2" },
	{ "tx-capacity-read",	"event=0x54,umask=0x80" },
	{ "tx-capacity-write",	"event=0x54,umask=0x2" },
	{ "tx-conflict",	"event=0x54,umask=0x1" },
	{ "cycles-t",		"event=0x3c,in_tx=1" },
	{ "cycles-ct",		"event=0x3c,in_tx=1,in_tx_cp=1" },
	X86C_NAMED_END
};

/*
 * Ice Lake's: elided locks (HLE) as well, and, as on Golden Cove,
 * capacity aborts told apart by reads and writes.
 */
static const struct x86c_named_event icelake_tsx_events[] = {
	{ "el-start",		"event=0xc8,umask=0x1" },
	{ "el-abort",		"event=0xc8,umask=0x4" },
	{ "el-commit",		"event=0xc8,umask=0x2" },
	{ "el-capacity-read",	"event=0x54,umask=0x80" },
	{ "el-capacity-write",	"event=0x54,umask=0x2" },
	{ "el-conflict",	"event=0x54,umask=0x1" },
	X86C_NAMED_END_THEN(golden_cove_tsx_events)
};

/*
 * A precise event's row names its code with every bit that changes what
 * is counted (PEBS_UEVENT_CMASK, families.h): a code so modified goes
 * where the rest go.  The load and store latency events' rows name
 * event and unit mask alone.
 */
#define PEBS_FIXED0		BIT_ULL(INTEL_PMC_IDX_FIXED)
#define PEBS_FIXED3		BIT_ULL(INTEL_PMC_IDX_FIXED + 3)

/*
 * Skylake's precise events (PEBS record format 3, intel/pebs.c):
 * INST_RETIRED.PREC_DIST, plain or counted on every cycle (an inverted
 * threshold of 16: precise_ip 3's core cycles), on counter 1, whose
 * records alone are distributed precisely; every other precise event
 * on counters 0-3 (pebs_counters), the memory events included.
 */
static struct event_constraint skylake_pebs_constraints[] = {
	X86C_CONSTRAINT(0x01c0, PEBS_UEVENT_CMASK, 0x2),
	X86C_CONSTRAINT(0x108001c0, PEBS_UEVENT_CMASK, 0x2),
	X86C_CONSTRAINT_END
};

/*
 * Ice Lake's precise events that do not go where they would go counted
 * (format 4: any other samples precisely where it counts):
 * INST_RETIRED.PREC_DIST in both its codes on fixed counter 0 alone,
 * TOPDOWN.SLOTS on fixed counter 3, load latency on any general-purpose
 * counter, and the retired memory instructions and loads (event codes
 * D0H to D4H, whatever their unit mask) on counters 0-3.
 */
static struct event_constraint icelake_pebs_constraints[] = {
	X86C_CONSTRAINT(0x01c0, PEBS_UEVENT_CMASK, PEBS_FIXED0),
	X86C_CONSTRAINT(0x0100, PEBS_UEVENT_CMASK, PEBS_FIXED0),
	X86C_CONSTRAINT(0x0400, PEBS_UEVENT_CMASK, PEBS_FIXED3),
	X86C_UEVENT_CONSTRAINT(0x01cd, 0xff),
	X86C_RANGE_CONSTRAINT(0xd0, 4, PEBS_EVENT_CMASK, 0xf),
	X86C_CONSTRAINT_END
};

/*
 * Golden Cove's: as Ice Lake's, but instructions retired in every unit
 * mask (the new INST_RETIRED.PREC_DIST code aside) on counters 1-7, load
 * latency likewise, and store latency (MEM_TRANS_RETIRED.STORE_SAMPLE)
 * on counter 0 alone.  Instructions' generic code at precise_ip 3 is
 * fixed counter 0's (X86C_PDIST_COUNTER0).
 */
static struct event_constraint golden_cove_pebs_constraints[] = {
	X86C_CONSTRAINT(0x0100, PEBS_UEVENT_CMASK, PEBS_FIXED0),
	X86C_CONSTRAINT(0x0400, PEBS_UEVENT_CMASK, PEBS_FIXED3),
	X86C_CONSTRAINT(0xc0, PEBS_EVENT_CMASK, 0xfe),
	X86C_UEVENT_CONSTRAINT(0x01cd, 0xfe),
	X86C_UEVENT_CONSTRAINT(0x02cd, 0x1),
	X86C_RANGE_CONSTRAINT(0xd0, 4, PEBS_EVENT_CMASK, 0xf),
	X86C_CONSTRAINT_END
};

/*
 * Lion Cove's: INST_RETIRED.PREC_DIST on fixed counter 0 and
 * TOPDOWN.SLOTS on fixed counter 3, as before; the off-core response
 * events (OCR, 0x2a and 0x2b) on counter 0 alone; load latency on
 * counters 2-9, store latency on 0-1.  Instructions retired sample
 * where they count, fixed counter 0 first.
 */
static struct event_constraint lion_cove_pebs_constraints[] = {
	X86C_CONSTRAINT(0x0100, PEBS_UEVENT_CMASK, PEBS_FIXED0),
	X86C_CONSTRAINT(0x0400, PEBS_UEVENT_CMASK, PEBS_FIXED3),
	X86C_CONSTRAINT(0x012a, PEBS_UEVENT_CMASK, 0x1),
	X86C_CONSTRAINT(0x012b, PEBS_UEVENT_CMASK, 0x1),
	X86C_UEVENT_CONSTRAINT(0x01cd, 0x3fc),
	X86C_UEVENT_CONSTRAINT(0x02cd, 0x3),
	X86C_CONSTRAINT_END
};

/*
 * The precise memory events (intel/pebs_mem.c) from Skylake on: load
 * latency; MEM_INST_RETIRED's loads (STLB misses, locked, split, all)
 * and stores; the retired loads by where they hit (MEM_LOAD_*_RETIRED,
 * event codes D1H to D3H, D4H from Ice Lake on), whatever the unit
 * mask.  Ice Lake has no locked stores; Golden Cove adds store latency.
 */
static const struct x86c_pebs_mem_row skylake_loads_stores[] = {
	X86C_PEBS_MEM(0x11d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0x12d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_ST_HSW),
	X86C_PEBS_MEM(0x21d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0x41d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0x42d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_ST_HSW),
	X86C_PEBS_MEM(0x81d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0x82d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_ST_HSW),
	X86C_PEBS_MEM(0xd1, PEBS_EVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0xd2, PEBS_EVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0xd3, PEBS_EVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM_END
};

static const struct x86c_pebs_mem_row skylake_pebs_mem[] = {
	X86C_PEBS_MEM(0x01cd, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_LDLAT),
	X86C_PEBS_MEM(0x22d0, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_ST_HSW),
	X86C_PEBS_MEM_THEN(skylake_loads_stores)
};

static const struct x86c_pebs_mem_row icelake_pebs_mem[] = {
	X86C_PEBS_MEM(0x01cd, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_LDLAT),
	X86C_PEBS_MEM(0xd4, PEBS_EVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM_THEN(skylake_loads_stores)
};

static const struct x86c_pebs_mem_row golden_cove_pebs_mem[] = {
	X86C_PEBS_MEM(0x01cd, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_LDLAT),
	X86C_PEBS_MEM(0x02cd, PEBS_UEVENT_CMASK, PERF_X86_EVENT_PEBS_STLAT),
	X86C_PEBS_MEM(0xd4, PEBS_EVENT_CMASK, PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM_THEN(skylake_loads_stores)
};

/* Lion Cove's: the latency events alone, read as the E-cores' are. */
static const struct x86c_pebs_mem_row lion_cove_pebs_mem[] = {
	X86C_PEBS_MEM(0x01cd, PEBS_UEVENT_CMASK,
		      PERF_X86_EVENT_PEBS_LAT_HYBRID | PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0x02cd, PEBS_UEVENT_CMASK,
		      PERF_X86_EVENT_PEBS_LAT_HYBRID | PERF_X86_EVENT_PEBS_ST_HSW),
	X86C_PEBS_MEM_END
};

/* The servers, whose memory past the L3 is persistent memory. */
static const u8 skylake_pmem_models[] = {
	0x55,	/* Skylake server, Cascade Lake, Cooper Lake */
	0
};

static const u8 icelake_pmem_models[] = {
	0x6a,	/* Ice Lake server */
	0x6c,	/* Ice Lake D */
	0
};

/*
 * perf mem's events from Haswell to Ice Lake: loads above a latency of
 * 3 cycles (MEM_TRANS_RETIRED.LOAD_LATENCY), all stores
 * (MEM_INST_RETIRED.ALL_STORES).
 */
static const struct x86c_named_event skylake_mem_events[] = {
	{ "mem-loads",	"event=0xcd,umask=0x1,ldlat=3" },
	{ "mem-stores",	"event=0xd0,umask=0x82" },
	{ }
};

static const struct x86c_intel_family x86c_family_skylake = {
	.name		= "skylake",
	.models		= skylake_models,
	/* every generic event keeps its architectural code */
	.constraints	= skylake_constraints,
	.cache_events	= skylake_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= skylake_extra_regs,
	.nr_extra	= ARRAY_SIZE(skylake_extra_regs),
	.named_events	= skylake_named_events,
	.tsx_events	= x86c_haswell_tsx_events,
	.tsx_force_abort = true,
	.lbr_info_nr	= 32,
	.pebs_constraints = skylake_pebs_constraints,
	.pebs_counters	= 0x0f,
	.pebs_prec_dist	= true,
	.pebs_mem	= skylake_pebs_mem,
	.pebs_dse	= &x86c_dse_skylake,
	.pebs_pmem_models = skylake_pmem_models,
	.mem_events	= skylake_mem_events,
};

static const struct x86c_intel_family x86c_family_icelake = {
	.name		= "icelake",
	.models		= icelake_models,
	/* every generic event keeps its architectural code */
	.constraints	= icelake_constraints,
	.cache_events	= icelake_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= icelake_extra_regs,
	.nr_extra	= ARRAY_SIZE(icelake_extra_regs),
	.named_events	= icelake_topdown_events,
	.tsx_events	= icelake_tsx_events,
	.nr_metrics	= 4,	/* level 1 only */
	.lbr_info_nr	= 32,
	.pebs_constraints = icelake_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_FIXED0,
	.pebs_mem	= icelake_pebs_mem,
	.pebs_dse	= &x86c_dse_skylake,
	.pebs_pmem_models = icelake_pmem_models,
	.mem_events	= skylake_mem_events,
};

/*
 * perf mem's events on Golden Cove servers: loads above a latency of 3
 * cycles, and the store-latency event for stores.
 */
static const struct x86c_named_event golden_cove_mem_events[] = {
	{ "mem-loads",	"event=0xcd,umask=0x1,ldlat=3" },
	{ "mem-stores",	"event=0xcd,umask=0x2" },
	{ }
};

/*
 * On Sapphire Rapids a load-latency PEBS event needs this auxiliary
 * event as its group leader: perf mem opens it first.
 */
static const struct x86c_named_event sapphire_rapids_named_events[] = {
	{ "mem-loads-aux", "event=0x03,umask=0x82" },
	X86C_NAMED_END_THEN(golden_cove_topdown_events)
};

static const struct x86c_intel_family x86c_family_sapphire_rapids = {
	.name		= "sapphire_rapids",
	.models		= sapphire_rapids_models,
	.event_map	= {
		/*
		 * CPU_CLK_UNHALTED.REF_TSC_P, which a general-purpose
		 * counter can take as well as fixed counter 2.  The
		 * stock kernel uses it only when CPUID 0AH EBX bit 2
		 * is clear (the reference-cycles event is there);
		 * otherwise it keeps the architectural code.
		 */
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= sapphire_rapids_constraints,
	.cache_events	= golden_cove_cache_events,
	.cache_refused	= GOLDEN_COVE_CACHE_REFUSED,
	.extra_regs	= golden_cove_extra_regs,
	.nr_extra	= ARRAY_SIZE(golden_cove_extra_regs),
	.named_events	= sapphire_rapids_named_events,
	.tsx_events	= golden_cove_tsx_events,
	.nr_metrics	= INTEL_TD_METRIC_NUM,
	.pebs_constraints = golden_cove_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTER0,
	.pebs_pdist_floor = true,
	.pebs_mem	= golden_cove_pebs_mem,
	.pebs_dse	= &x86c_dse_golden_cove,
	.pebs_pmem_models = sapphire_rapids_models,
	.pebs_loads_aux	= true,
	.mem_events	= golden_cove_mem_events,
};

static const u8 granite_rapids_models[] = {
	0xad,	/* Granite Rapids X */
	0xae,	/* Granite Rapids D */
	0
};

/* Redwood Cove cores: Golden Cove's tables but the front-end events'. */
static const struct x86c_intel_family x86c_family_granite_rapids = {
	.name		= "granite_rapids",
	.models		= granite_rapids_models,
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= sapphire_rapids_constraints,
	.cache_events	= golden_cove_cache_events,
	.cache_refused	= GOLDEN_COVE_CACHE_REFUSED,
	.extra_regs	= redwood_cove_extra_regs,
	.nr_extra	= ARRAY_SIZE(redwood_cove_extra_regs),
	.named_events	= golden_cove_topdown_events,
	.tsx_events	= golden_cove_tsx_events,
	.nr_metrics	= INTEL_TD_METRIC_NUM,
	.pebs_constraints = golden_cove_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTER0,
	.pebs_pdist_floor = true,
	.pebs_mem	= golden_cove_pebs_mem,
	.pebs_dse	= &x86c_dse_golden_cove,
	.pebs_pmem_models = granite_rapids_models,
	.mem_events	= golden_cove_mem_events,
};

static const struct x86c_intel_family x86c_family_alderlake_hybrid = {
	.name		= "alderlake_hybrid",
	.models		= alderlake_hybrid_models,
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	/* Golden Cove, as Sapphire Rapids' cores */
	.constraints	= sapphire_rapids_constraints,
	.cache_events	= golden_cove_cache_events,
	.cache_refused	= GOLDEN_COVE_CACHE_REFUSED,
	.extra_regs	= golden_cove_extra_regs,
	.nr_extra	= ARRAY_SIZE(golden_cove_extra_regs),
	.named_events	= golden_cove_hybrid_named_events,
	.tsx_events	= golden_cove_tsx_events,
	.nr_metrics	= INTEL_TD_METRIC_NUM,
	.core_more_gp	= 2,
	.core_more_fixed = BIT_ULL(3),	/* topdown slots */
	.pebs_constraints = golden_cove_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTER0,
	.pebs_pdist_floor = true,
	.pebs_mem	= golden_cove_pebs_mem,
	.pebs_dse	= &x86c_dse_golden_cove,
	.pebs_loads_aux	= true,
	.atom		= &x86c_family_gracemont_hybrid,
};

/*
 * Meteor Lake (and Arrow Lake U): Redwood Cove P-cores beside Crestmont
 * E-cores, each with their server siblings' extra registers.
 */
static const u8 meteorlake_hybrid_models[] = {
	0xaa,	/* Meteor Lake L */
	0xac,	/* Meteor Lake */
	0xb5,	/* Arrow Lake U */
	0
};

static const struct x86c_intel_family x86c_family_meteorlake_hybrid = {
	.name		= "meteorlake_hybrid",
	.models		= meteorlake_hybrid_models,
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= sapphire_rapids_constraints,
	.cache_events	= golden_cove_cache_events,
	.cache_refused	= GOLDEN_COVE_CACHE_REFUSED,
	.extra_regs	= redwood_cove_extra_regs,
	.nr_extra	= ARRAY_SIZE(redwood_cove_extra_regs),
	.named_events	= redwood_cove_hybrid_named_events,
	.tsx_events	= golden_cove_tsx_events,
	.nr_metrics	= INTEL_TD_METRIC_NUM,
	.pebs_constraints = golden_cove_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTER0_LATENCY,
	.pebs_pdist_floor = true,
	.pebs_mem	= golden_cove_pebs_mem,
	.pebs_dse	= &x86c_dse_golden_cove,
	.atom		= &x86c_family_crestmont_hybrid,
};

/*
 * Lunar Lake and Arrow Lake (desktop): Lion Cove P-cores beside Skymont
 * E-cores.  Arrow Lake H is not here: the stock kernel gives it no
 * hybrid tables either.
 */
static const u8 lunarlake_hybrid_models[] = {
	0xbd,	/* Lunar Lake M */
	0xc6,	/* Arrow Lake */
	0
};

/*
 * Lion Cove has ten general-purpose counters.  Unlike Golden Cove, the
 * codes below 0x90 are not limited as a run, only one by one.
 */
static struct event_constraint lion_cove_constraints[] = {
	X86C_FIXED_ONLY_CONSTRAINT(0x0100, 0),	/* INST_RETIRED.PREC_DIST */
	X86C_FIXED_CONSTRAINT(0x013c, 2),	/* CPU_CLK_UNHALTED.REF_TSC_P */
	X86C_FIXED_ONLY_CONSTRAINT(0x0400, 3),	/* TOPDOWN.SLOTS */
	X86C_UEVENT_CONSTRAINT(0x8000, X86C_METRIC_COUNTER(0)),
	X86C_UEVENT_CONSTRAINT(0x8100, X86C_METRIC_COUNTER(1)),
	X86C_UEVENT_CONSTRAINT(0x8200, X86C_METRIC_COUNTER(2)),
	X86C_UEVENT_CONSTRAINT(0x8300, X86C_METRIC_COUNTER(3)),
	X86C_UEVENT_CONSTRAINT(0x8400, X86C_METRIC_COUNTER(4)),
	X86C_UEVENT_CONSTRAINT(0x8500, X86C_METRIC_COUNTER(5)),
	X86C_UEVENT_CONSTRAINT(0x8600, X86C_METRIC_COUNTER(6)),
	X86C_UEVENT_CONSTRAINT(0x8700, X86C_METRIC_COUNTER(7)),
	X86C_EVENT_CONSTRAINT(0x20, 0x0f),	/* OFFCORE_REQUESTS_OUTSTANDING */
	X86C_UEVENT_CONSTRAINT(0x012a, 0x0f),	/* OCR, MSR_OFFCORE_RSP_0 */
	X86C_UEVENT_CONSTRAINT(0x012b, 0x0f),	/* OCR, MSR_OFFCORE_RSP_1 */
	X86C_UEVENT_CONSTRAINT(0x0148, 0x04),	/* L1D_PEND_MISS.PENDING */
	X86C_UEVENT_CONSTRAINT(0x0175, 0x04),
	X86C_UEVENT_CONSTRAINT(0x08a3, 0x04),	/* CYCLE_ACTIVITY.CYCLES_L1D_MISS */
	X86C_UEVENT_CONSTRAINT(0x0ca3, 0x04),	/* CYCLE_ACTIVITY.STALLS_L1D_MISS */
	X86C_UEVENT_CONSTRAINT(0x04a4, 0x01),	/* TOPDOWN.BAD_SPEC_SLOTS */
	X86C_UEVENT_CONSTRAINT(0x08a4, 0x01),	/* TOPDOWN.BR_MISPREDICT_SLOTS */
	X86C_UEVENT_CONSTRAINT(0x10a4, 0x08),	/* TOPDOWN.MEMORY_BOUND_SLOTS */
	X86C_UEVENT_CONSTRAINT(0x01b1, 0x08),	/* UOPS_EXECUTED.THREAD */
	X86C_UEVENT_CONSTRAINT(0x01cd, 0x3fc),	/* MEM_TRANS_RETIRED.LOAD_LATENCY */
	X86C_UEVENT_CONSTRAINT(0x02cd, 0x03),	/* MEM_TRANS_RETIRED.STORE_SAMPLE */
	/* all memory instructions count anywhere, the rest of 0xd0-0xdf not */
	X86C_UEVENT_CONSTRAINT(0x87d0, 0x3ff),
	X86C_EVENT_RANGE(0xd0, 0xf, 0x0f),	/* 0xd0-0xdf */
	X86C_UEVENT_CONSTRAINT(0x00e0, 0x0f),
	X86C_CONSTRAINT_END
};

/*
 * Lion Cove's extra registers: Redwood Cove's, with six more supplier
 * bits in the off-core response registers (0-43) and one more
 * selection bit for the front-end event 0x40ad.
 */
#define LNC_RSP_VALID	GENMASK_ULL(43, 0)

static const struct x86c_extra_reg lion_cove_extra_regs[] = {
	{ .code = 0x012a, .msr = MSR_OFFCORE_RSP_0,
	  .valid = LNC_RSP_VALID, .alt = 1 },
	{ .code = 0x012b, .msr = MSR_OFFCORE_RSP_1,
	  .valid = LNC_RSP_VALID, .alt = 0 },
	{ .code = 0x01cd, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
	{ .code = 0x02c6, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x9, .alt = -1 },
	{ .code = 0x03c6, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x7fff1f, .alt = -1 },
	{ .code = 0x40ad, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0xf, .alt = -1 },
	{ .code = 0x04c2, .msr = MSR_PEBS_FRONTEND,
	  .valid = 0x8, .alt = -1 },
};

static const struct x86c_intel_family x86c_family_lunarlake_hybrid = {
	.name		= "lunarlake_hybrid",
	.models		= lunarlake_hybrid_models,
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= lion_cove_constraints,
	.cache_events	= golden_cove_cache_events,
	.cache_refused	= GOLDEN_COVE_CACHE_REFUSED,
	.extra_regs	= lion_cove_extra_regs,
	.nr_extra	= ARRAY_SIZE(lion_cove_extra_regs),
	/* the P-cores' topdown events are Meteor Lake's */
	.named_events	= redwood_cove_hybrid_named_events,
	.tsx_events	= golden_cove_tsx_events,
	.nr_metrics	= INTEL_TD_METRIC_NUM,
	.pebs_constraints = lion_cove_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTER0_LATENCY,
	.pebs_pdist_floor = true,
	.pebs_mem	= lion_cove_pebs_mem,
	.pebs_dse	= &x86c_dse_lion_cove,
	.atom		= &x86c_family_skymont_hybrid,
};

/* Every family a model may belong to, ended by NULL. */
const struct x86c_intel_family *const x86c_intel_families[] = {
	&x86c_family_core2,
	&x86c_family_nehalem,
	&x86c_family_westmere,
	&x86c_family_sandybridge,
	&x86c_family_sandybridge_server,
	&x86c_family_ivybridge,
	&x86c_family_ivybridge_server,
	&x86c_family_haswell,
	&x86c_family_broadwell,
	&x86c_family_skylake,
	&x86c_family_icelake,
	&x86c_family_sapphire_rapids,
	&x86c_family_granite_rapids,
	&x86c_family_alderlake_hybrid,
	&x86c_family_meteorlake_hybrid,
	&x86c_family_lunarlake_hybrid,
	&x86c_family_bonnell,
	&x86c_family_silvermont,
	&x86c_family_knights_landing,
	&x86c_family_goldmont,
	&x86c_family_goldmont_plus,
	&x86c_family_tremont,
	&x86c_family_gracemont,
	&x86c_family_crestmont,
	NULL
};
