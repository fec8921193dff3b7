// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the Intel Atom families, as data: Bonnell, Silvermont and
 * Airmont, Knights Landing and Mill (Silvermont-based), Goldmont,
 * Goldmont Plus, Tremont, Gracemont (alone, Alder Lake N, and as the
 * E-cores of Alder Lake and Raptor Lake), Crestmont and Skymont (the
 * E-cores of Lunar Lake and Arrow Lake).
 *
 * What each table means, and how to add one, is said at the top of
 * families.c.  These cores take every event on every general-purpose
 * counter: their limits are fixed-counter ones (reference cycles on
 * fixed counter 2 from Gracemont on).  Their off-core response events
 * are 0xb7 with unit masks 1 and 2 (not 0xbb), each able to use the
 * other's register; Crestmont adds the snoop response registers.  The
 * top-down events are plain events here, each family its own.
 *
 * As in families_core.c, the cache events and off-core selections are
 * the codes the stock kernel uses for the same model.
 */
#include <linux/bits.h>

#include <asm/msr-index.h>

#include "../counters.h"
#include "families.h"

/* For a family reached only through a hybrid family's .atom. */
static const u8 no_models[] = { 0 };

/* ---- Bonnell and Saltwell ------------------------------------------ */

static const u8 bonnell_models[] = {
	0x1c,	/* Bonnell: Diamondville, Pineview */
	0x26,	/* Bonnell mid: Silverthorne, Lincroft */
	0x27,	/* Saltwell mid: Penwell */
	0x35,	/* Saltwell tablet: Cloverview */
	0x36,	/* Saltwell: Cedarview */
	0
};

static const struct x86c_cache_event bonnell_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0x2140),
	X86C_CACHE(L1D, WRITE, ACCESS, 0x2240),
	X86C_CACHE(L1I, READ, ACCESS, 0x0380),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE(LL, READ, ACCESS, 0x4f29),
	X86C_CACHE(LL, READ, MISS, 0x4129),
	X86C_CACHE(LL, WRITE, ACCESS, 0x4f2a),
	X86C_CACHE(LL, WRITE, MISS, 0x412a),
	X86C_CACHE(DTLB, READ, ACCESS, 0x2140),
	X86C_CACHE(DTLB, READ, MISS, 0x0508),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x2240),
	X86C_CACHE(DTLB, WRITE, MISS, 0x0608),
	X86C_CACHE(ITLB, READ, ACCESS, 0x00c0),
	X86C_CACHE(ITLB, READ, MISS, 0x0282),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x00c5),
	X86C_CACHE_END
};

const struct x86c_intel_family x86c_family_bonnell = {
	.name		= "bonnell",
	.models		= bonnell_models,
	.cache_events	= bonnell_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
};

/* ---- Silvermont, Airmont, Knights Landing ---------------------------- */

static const u8 silvermont_models[] = {
	0x37,	/* Silvermont: Bay Trail */
	0x4a,	/* Silvermont mid: Merriefield */
	0x4c,	/* Airmont: Cherry Trail, Braswell */
	0x4d,	/* Silvermont D: Avoton, Rangeley */
	0x5a,	/* Airmont mid: Moorefield */
	0
};

static const struct x86c_extra_reg silvermont_extra_regs[] = {
	{ .code = 0x01b7, .msr = MSR_OFFCORE_RSP_0,
	  .valid = 0x768005ffffULL, .alt = 1 },
	{ .code = 0x02b7, .msr = MSR_OFFCORE_RSP_1,
	  .valid = 0x368005ffffULL, .alt = 0 },
};

static const struct x86c_cache_event silvermont_cache_events[] = {
	X86C_CACHE(L1D, READ, MISS, 0x0104),
	X86C_CACHE(L1I, READ, ACCESS, 0x0380),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE_EXTRA(LL, READ, ACCESS, 0x01b7, 0x10001),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, 0x01b7, 0x10002),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0x3680000002),
	X86C_CACHE_EXTRA(LL, PREFETCH, ACCESS, 0x01b7, 0x10030),
	X86C_CACHE_EXTRA(LL, PREFETCH, MISS, 0x01b7, 0x3680000030),
	X86C_CACHE(DTLB, READ, MISS, 0x0804),
	X86C_CACHE(ITLB, READ, ACCESS, 0x00c0),
	X86C_CACHE(ITLB, READ, MISS, 0x40205),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x00c5),
	X86C_CACHE_END
};

/*
 * Silvermont's top-down events: two slots a cycle; uops retired count
 * both the slots issued and retired; front-end bubbles are the cycles
 * the front end starved the back end of (NO_ALLOC_CYCLES.NOT_DELIVERED),
 * two slots each.
 */
static const struct x86c_named_event silvermont_named_events[] = {
	{ "topdown-total-slots", "event=0x3c" },
	{ "topdown-total-slots.scale", "2" },
	{ "topdown-slots-issued", "event=0xc2,umask=0x10" },
	{ "topdown-slots-retired", "event=0xc2,umask=0x10" },
	{ "topdown-fetch-bubbles", "event=0xca,umask=0x50" },
	{ "topdown-fetch-bubbles.scale", "2" },
	{ }
};

const struct x86c_intel_family x86c_family_silvermont = {
	.name		= "silvermont",
	.models		= silvermont_models,
	.cache_events	= silvermont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= silvermont_extra_regs,
	.nr_extra	= ARRAY_SIZE(silvermont_extra_regs),
	.named_events	= silvermont_named_events,
};

static const u8 knights_landing_models[] = {
	0x57,	/* Knights Landing */
	0x85,	/* Knights Mill */
	0
};

static const struct x86c_extra_reg knights_landing_extra_regs[] = {
	{ .code = 0x01b7, .msr = MSR_OFFCORE_RSP_0,
	  .valid = 0x799ffbb6e7ULL, .alt = 1 },
	{ .code = 0x02b7, .msr = MSR_OFFCORE_RSP_1,
	  .valid = 0x399ffbffe7ULL, .alt = 0 },
};

/*
 * Silvermont's cache events, but for the write misses and prefetches,
 * which would select bits Knights Landing's first off-core response
 * register lacks (4, 33-34): refused, as upstream refuses them.
 */
static const struct x86c_cache_event knights_landing_cache_events[] = {
	X86C_CACHE_NO_RESULT(LL, WRITE, MISS),
	X86C_CACHE_NO_RESULT(LL, PREFETCH, ACCESS),
	X86C_CACHE_NO_RESULT(LL, PREFETCH, MISS),
	X86C_CACHE_END_THEN(silvermont_cache_events)
};

const struct x86c_intel_family x86c_family_knights_landing = {
	.name		= "knights-landing",
	.models		= knights_landing_models,
	.cache_events	= knights_landing_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= knights_landing_extra_regs,
	.nr_extra	= ARRAY_SIZE(knights_landing_extra_regs),
};

/* ---- Goldmont and Goldmont Plus -------------------------------------- */

static const u8 goldmont_models[] = {
	0x5c,	/* Goldmont: Apollo Lake */
	0x5f,	/* Goldmont D: Denverton */
	0
};

static const u8 goldmont_plus_models[] = {
	0x7a,	/* Goldmont Plus: Gemini Lake */
	0
};

static const struct x86c_extra_reg goldmont_extra_regs[] = {
	{ .code = 0x01b7, .msr = MSR_OFFCORE_RSP_0,
	  .valid = 0x760005ffbfULL, .alt = 1 },
	{ .code = 0x02b7, .msr = MSR_OFFCORE_RSP_1,
	  .valid = 0x360005ffbfULL, .alt = 0 },
};

static const struct x86c_cache_event goldmont_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0x81d0),
	X86C_CACHE(L1D, WRITE, ACCESS, 0x82d0),
	X86C_CACHE(L1I, READ, ACCESS, 0x0380),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE_EXTRA(LL, READ, ACCESS, 0x01b7, 0x10001),
	X86C_CACHE_EXTRA(LL, READ, MISS, 0x01b7, 0x3600000001),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, 0x01b7, 0x10002),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0x3600000002),
	X86C_CACHE_EXTRA(LL, PREFETCH, ACCESS, 0x01b7, 0x10030),
	X86C_CACHE_EXTRA(LL, PREFETCH, MISS, 0x01b7, 0x3600000030),
	X86C_CACHE(DTLB, READ, ACCESS, 0x81d0),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x82d0),
	X86C_CACHE(ITLB, READ, ACCESS, 0x00c0),
	X86C_CACHE(ITLB, READ, MISS, 0x0481),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x00c5),
	X86C_CACHE_END
};

static const struct x86c_cache_event goldmont_plus_cache_events[] = {
	X86C_CACHE(L1D, READ, ACCESS, 0x81d0),
	X86C_CACHE(L1D, WRITE, ACCESS, 0x82d0),
	X86C_CACHE(L1I, READ, ACCESS, 0x0380),
	X86C_CACHE(L1I, READ, MISS, 0x0280),
	X86C_CACHE_EXTRA(LL, READ, ACCESS, 0x01b7, 0x10001),
	X86C_CACHE_EXTRA(LL, READ, MISS, 0x01b7, 0x3600000001),
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, 0x01b7, 0x10002),
	X86C_CACHE_EXTRA(LL, WRITE, MISS, 0x01b7, 0x3600000002),
	X86C_CACHE(DTLB, READ, ACCESS, 0x81d0),
	X86C_CACHE(DTLB, READ, MISS, 0x0e08),
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x82d0),
	X86C_CACHE(DTLB, WRITE, MISS, 0x0e49),
	X86C_CACHE(ITLB, READ, ACCESS, 0x00c0),
	X86C_CACHE(ITLB, READ, MISS, 0x0481),
	X86C_CACHE(BPU, READ, ACCESS, 0x00c4),
	X86C_CACHE(BPU, READ, MISS, 0x00c5),
	X86C_CACHE_END
};

/*
 * Goldmont's top-down events: slots from the cycles (three a cycle on
 * Goldmont, four on Goldmont Plus: the scale is the family's), uops
 * issued and retired, front-end bubbles, and recovery cycles
 * (ISSUE_SLOTS_NOT_CONSUMED.RECOVERY).
 */
static const struct x86c_named_event goldmont_named_events[] = {
	{ "topdown-total-slots", "event=0x3c" },
	{ "topdown-total-slots.scale", "3" },
	{ "topdown-slots-issued", "event=0x0e" },
	{ "topdown-slots-retired", "event=0xc2" },
	{ "topdown-fetch-bubbles", "event=0x9c" },
	{ "topdown-recovery-bubbles", "event=0xca,umask=0x02" },
	{ }
};

static const struct x86c_named_event goldmont_plus_named_events[] = {
	{ "topdown-total-slots", "event=0x3c" },
	{ "topdown-total-slots.scale", "4" },
	{ "topdown-slots-issued", "event=0x0e" },
	{ "topdown-slots-retired", "event=0xc2" },
	{ "topdown-fetch-bubbles", "event=0x9c" },
	{ "topdown-recovery-bubbles", "event=0xca,umask=0x02" },
	{ }
};

const struct x86c_intel_family x86c_family_goldmont = {
	.name		= "goldmont",
	.models		= goldmont_models,
	.cache_events	= goldmont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= goldmont_extra_regs,
	.nr_extra	= ARRAY_SIZE(goldmont_extra_regs),
	.named_events	= goldmont_named_events,
};

const struct x86c_intel_family x86c_family_goldmont_plus = {
	.name		= "goldmont_plus",
	.models		= goldmont_plus_models,
	.cache_events	= goldmont_plus_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= goldmont_extra_regs,
	.nr_extra	= ARRAY_SIZE(goldmont_extra_regs),
	.named_events	= goldmont_plus_named_events,
};

/* ---- Tremont, Gracemont, Crestmont ----------------------------------- */

/*
 * Tremont's off-core response selection (OFFCORE_RESPONSE_0/1, event
 * 0xb7 with unit mask 1 or 2), which Gracemont and Crestmont keep; the
 * cache events count the LLC misses as the local DRAM's answers with
 * any snoop outcome.  Tremont, Gracemont and Crestmont share them.
 */
#define GRT_RSP_DEMAND_READ	BIT_ULL(0)		/* demand data reads */
#define GRT_RSP_DEMAND_RFO	BIT_ULL(1)		/* demand reads for ownership */
#define GRT_RSP_ANY		BIT_ULL(16)		/* whatever answered */
#define GRT_RSP_LOCAL_DRAM	BIT_ULL(26)		/* supplied by local DRAM */
/* snoop not needed, missed, hit without/with forward, hit modified; non-DRAM */
#define GRT_RSP_SNOOPS		GENMASK_ULL(37, 32)

#define GRT_LL_ACCESS(req)	((req) | GRT_RSP_ANY)
#define GRT_LL_MISS(req)	((req) | GRT_RSP_LOCAL_DRAM | GRT_RSP_SNOOPS)

static const struct x86c_cache_event tremont_cache_events[] = {
	X86C_CACHE(L1D,  READ,  ACCESS, 0x81d0),	/* MEM_UOPS_RETIRED.ALL_LOADS */
	X86C_CACHE(L1D,  WRITE, ACCESS, 0x82d0),	/* MEM_UOPS_RETIRED.ALL_STORES */
	X86C_CACHE(L1I,  READ,  ACCESS, 0x0380),	/* ICACHE.ACCESSES */
	X86C_CACHE(L1I,  READ,  MISS,   0x0280),	/* ICACHE.MISSES */
	/* OCR.DEMAND_DATA_RD.ANY_RESPONSE */
	X86C_CACHE_EXTRA(LL, READ, ACCESS, OFFCORE_RSP_0,
			 GRT_LL_ACCESS(GRT_RSP_DEMAND_READ)),
	/* OCR.DEMAND_DATA_RD, answered by local DRAM */
	X86C_CACHE_EXTRA(LL, READ, MISS, OFFCORE_RSP_0,
			 GRT_LL_MISS(GRT_RSP_DEMAND_READ)),
	/* OCR.DEMAND_RFO.ANY_RESPONSE */
	X86C_CACHE_EXTRA(LL, WRITE, ACCESS, OFFCORE_RSP_0,
			 GRT_LL_ACCESS(GRT_RSP_DEMAND_RFO)),
	/* OCR.DEMAND_RFO, answered by local DRAM */
	X86C_CACHE_EXTRA(LL, WRITE, MISS, OFFCORE_RSP_0,
			 GRT_LL_MISS(GRT_RSP_DEMAND_RFO)),
	X86C_CACHE(DTLB, READ,  ACCESS, 0x81d0),	/* all loads */
	X86C_CACHE(DTLB, READ,  MISS,   0x0e08),	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
	X86C_CACHE(DTLB, WRITE, ACCESS, 0x82d0),	/* all stores */
	X86C_CACHE(DTLB, WRITE, MISS,   0x0e49),	/* DTLB_STORE_MISSES.WALK_COMPLETED */
	X86C_CACHE_NO_RESULT(ITLB, READ, ACCESS),
	/* event 0x81 unit mask 4: Goldmont's ITLB.MISS, not in Gracemont's list */
	X86C_CACHE(ITLB, READ,  MISS,   0x0481),
	X86C_CACHE(BPU,  READ,  ACCESS, 0x00c4),	/* BR_INST_RETIRED.ALL_BRANCHES */
	X86C_CACHE(BPU,  READ,  MISS,   0x00c5),	/* BR_MISP_RETIRED.ALL_BRANCHES */
	X86C_CACHE_END
};

static const u8 tremont_models[] = {
	0x86,	/* Tremont D: Jacobsville */
	0x96,	/* Tremont: Elkhart Lake */
	0x9c,	/* Tremont L: Jasper Lake */
	0
};

static const struct x86c_extra_reg tremont_extra_regs[] = {
	{ .code = 0x01b7, .msr = MSR_OFFCORE_RSP_0,
	  .valid = 0x800ff0ffffff9fffULL, .alt = 1 },
	{ .code = 0x02b7, .msr = MSR_OFFCORE_RSP_1,
	  .valid = 0xff0ffffff9fffULL, .alt = 0 },
};

/*
 * Tremont's level-1 top-down events (TOPDOWN_FE_BOUND, _RETIRING,
 * _BAD_SPECULATION, _BE_BOUND), which Gracemont keeps.
 */
static const struct x86c_named_event tremont_named_events[] = {
	{ "topdown-fe-bound", "event=0x71,umask=0x0" },
	{ "topdown-retiring", "event=0xc2,umask=0x0" },
	{ "topdown-bad-spec", "event=0x73,umask=0x6" },
	{ "topdown-be-bound", "event=0x74,umask=0x0" },
	{ }
};

/*
 * Tremont's precise events sample where they count; precise_ip 3 puts
 * instructions retired on fixed counter 0 or counter 0, everything else
 * on counter 0, with no shortest period.
 */
const struct x86c_intel_family x86c_family_tremont = {
	.name		= "Tremont",	/* so capitalised upstream */
	.models		= tremont_models,
	.cache_events	= tremont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= tremont_extra_regs,
	.nr_extra	= ARRAY_SIZE(tremont_extra_regs),
	.named_events	= tremont_named_events,
	.pebs_pdist	= X86C_PDIST_EITHER0,
};

/*
 * The precise events of Gracemont and the E-cores after it that do not
 * sample where they count: load latency (MEM_UOPS_RETIRED.LOAD_LATENCY)
 * on counters 0-1, store latency on 0-5.  Every other one samples where
 * it counts (format 4).  At precise_ip 3 these take a period of
 * X86C_PDIST_MIN_PERIOD at least.
 */
static struct event_constraint gracemont_pebs_constraints[] = {
	X86C_UEVENT_CONSTRAINT(0x05d0, 0x3),
	X86C_UEVENT_CONSTRAINT(0x06d0, 0x3f),
	X86C_CONSTRAINT_END
};

/*
 * Their precise memory events (intel/pebs_mem.c): the latency events,
 * read in the E-core's own layout.
 */
static const struct x86c_pebs_mem_row gracemont_pebs_mem[] = {
	X86C_PEBS_MEM(0x05d0, PEBS_UEVENT_CMASK,
		      PERF_X86_EVENT_PEBS_LAT_HYBRID | PERF_X86_EVENT_PEBS_LD_HSW),
	X86C_PEBS_MEM(0x06d0, PEBS_UEVENT_CMASK,
		      PERF_X86_EVENT_PEBS_LAT_HYBRID | PERF_X86_EVENT_PEBS_ST_HSW),
	X86C_PEBS_MEM_END
};

/* perf mem's events on the E-cores, where their PEBS is driven */
static const struct x86c_named_event gracemont_mem_events[] = {
	{ "mem-loads",	"event=0xd0,umask=0x5,ldlat=3" },
	{ "mem-stores",	"event=0xd0,umask=0x6" },
	{ }
};

/* Reference cycles (REF_TSC_P) on fixed counter 2 as well. */
static struct event_constraint gracemont_constraints[] = {
	X86C_FIXED_CONSTRAINT(0x013c, 2),	/* CPU_CLK_UNHALTED.REF_TSC_P */
	X86C_CONSTRAINT_END
};

/*
 * Gracemont: every general-purpose counter takes every event.  Its
 * off-core response events (OFFCORE_RESPONSE_0/1, 0xb7 with unit mask
 * 1 or 2) may use either register; the load-latency threshold is
 * PEBS's.
 */
#define GRT_RSP_VALID	GENMASK_ULL(37, 0)

static const struct x86c_extra_reg gracemont_extra_regs[] = {
	{ .code = 0x01b7, .msr = MSR_OFFCORE_RSP_0,
	  .valid = GRT_RSP_VALID, .alt = 1 },
	{ .code = 0x02b7, .msr = MSR_OFFCORE_RSP_1,
	  .valid = GRT_RSP_VALID, .alt = 0 },
	{ .code = 0x05d0, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
};

static const u8 gracemont_models[] = {
	0xbe,	/* Gracemont alone: Alder Lake N */
	0
};

const struct x86c_intel_family x86c_family_gracemont = {
	.name		= "gracemont",
	.models		= gracemont_models,
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= gracemont_constraints,
	.cache_events	= tremont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= gracemont_extra_regs,
	.nr_extra	= ARRAY_SIZE(gracemont_extra_regs),
	.named_events	= tremont_named_events,
	.pebs_constraints = gracemont_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_EITHER0,
	.pebs_pdist_floor = true,
	.pebs_mem	= gracemont_pebs_mem,
	.pebs_dse	= &x86c_dse_gracemont,
	.mem_events	= gracemont_mem_events,
};

/* The four top-down levels are plain events on Gracemont. */
static const struct x86c_named_event gracemont_hybrid_named_events[] = {
	{ "topdown-retiring",	"event=0xc2,umask=0x0" },
	{ "topdown-bad-spec",	"event=0x73,umask=0x0" },
	{ "topdown-fe-bound",	"event=0x71,umask=0x0" },
	{ "topdown-be-bound",	"event=0x74,umask=0x0" },
	{ "mem-loads",		"event=0xd0,umask=0x5,ldlat=3" },
	{ "mem-stores",		"event=0xd0,umask=0x6" },
	{ }
};

/*
 * Both kinds of core count reference cycles with REF_TSC_P (0x013c),
 * which a general-purpose counter takes too, where CPUID has it.
 */
const struct x86c_intel_family x86c_family_gracemont_hybrid = {
	.name		= "alderlake_hybrid",
	.models		= no_models,	/* reached as alderlake_hybrid's .atom */
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.cache_events	= tremont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= gracemont_extra_regs,
	.nr_extra	= ARRAY_SIZE(gracemont_extra_regs),
	.named_events	= gracemont_hybrid_named_events,
	.constraints	= gracemont_constraints,
	.pebs_constraints = gracemont_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_EITHER0,
	.pebs_pdist_floor = true,
	.pebs_mem	= gracemont_pebs_mem,
	.pebs_dse	= &x86c_dse_gracemont,
};

static const u8 crestmont_models[] = {
	0xaf,	/* Crestmont X: Sierra Forest */
	0xb6,	/* Crestmont: Grand Ridge */
	0
};

/*
 * Crestmont's off-core response registers take more supplier bits, and
 * it has two snoop response registers (SNOOP_RESPONSE_0/1, 0x27 with
 * unit masks 1 and 2), each event its own.
 */
static const struct x86c_extra_reg crestmont_extra_regs[] = {
	{ .code = 0x01b7, .msr = MSR_OFFCORE_RSP_0,
	  .valid = 0x800ff3ffffffffffULL, .alt = 1 },
	{ .code = 0x02b7, .msr = MSR_OFFCORE_RSP_1,
	  .valid = 0xff3ffffffffffULL, .alt = 0 },
	{ .code = 0x05d0, .msr = MSR_PEBS_LD_LAT_THRESHOLD,
	  .valid = GENMASK_ULL(15, 0), .alt = -1 },
	{ .code = 0x0127, .msr = MSR_SNOOP_RSP_0, .valid = ~0ULL, .alt = -1 },
	{ .code = 0x0227, .msr = MSR_SNOOP_RSP_1, .valid = ~0ULL, .alt = -1 },
};

/* Crestmont's level-1 top-down events: retiring and bad speculation moved. */
static const struct x86c_named_event crestmont_named_events[] = {
	{ "topdown-fe-bound", "event=0x71,umask=0x0" },
	{ "topdown-retiring", "event=0x72,umask=0x0" },
	{ "topdown-bad-spec", "event=0x73,umask=0x0" },
	{ "topdown-be-bound", "event=0x74,umask=0x0" },
	{ }
};

const struct x86c_intel_family x86c_family_crestmont = {
	.name		= "crestmont",
	.models		= crestmont_models,
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= gracemont_constraints,
	.cache_events	= tremont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= crestmont_extra_regs,
	.nr_extra	= ARRAY_SIZE(crestmont_extra_regs),
	.named_events	= crestmont_named_events,
	.pebs_constraints = gracemont_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTERS01,
	.pebs_pdist_floor = true,
	.pebs_mem	= gracemont_pebs_mem,
	.pebs_dse	= &x86c_dse_crestmont,
	.mem_events	= gracemont_mem_events,
};

/* Crestmont as Meteor Lake's E-cores. */
const struct x86c_intel_family x86c_family_crestmont_hybrid = {
	.name		= "meteorlake_hybrid",
	.models		= no_models,	/* reached as meteorlake_hybrid's .atom */
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= gracemont_constraints,
	.cache_events	= tremont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= crestmont_extra_regs,
	.nr_extra	= ARRAY_SIZE(crestmont_extra_regs),
	.named_events	= gracemont_hybrid_named_events,
	.pebs_constraints = gracemont_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTERS01,
	.pebs_pdist_floor = true,
	.pebs_mem	= gracemont_pebs_mem,
	.pebs_dse	= &x86c_dse_crestmont,
};

/*
 * Skymont's level-1 top-down events, as the E-cores of Lunar Lake show
 * them: retiring, front-end and back-end bound have new codes.
 */
static const struct x86c_named_event skymont_hybrid_named_events[] = {
	{ "topdown-retiring",	"event=0xc2,umask=0x02" },
	{ "topdown-bad-spec",	"event=0x73,umask=0x0" },
	{ "topdown-fe-bound",	"event=0x9c,umask=0x01" },
	{ "topdown-be-bound",	"event=0xa4,umask=0x02" },
	{ "mem-loads",		"event=0xd0,umask=0x5,ldlat=3" },
	{ "mem-stores",		"event=0xd0,umask=0x6" },
	{ }
};

/*
 * Skymont as Lunar Lake's and Arrow Lake's E-cores, with Crestmont's
 * extra registers.  Skymont adds fixed counters 4-6 for the level-1
 * top-down events (0x0073, 0x019c, 0x02c2): CPUID leaf 23H says them,
 * and the fixed counters' events (intel/core.c) take them.
 */
const struct x86c_intel_family x86c_family_skymont_hybrid = {
	.name		= "lunarlake_hybrid",
	.models		= no_models,	/* reached as lunarlake_hybrid's .atom */
	.event_map	= {
		[PERF_COUNT_HW_REF_CPU_CYCLES]	= 0x013c,
	},
	.constraints	= gracemont_constraints,
	.cache_events	= tremont_cache_events,
	.cache_refused	= INTEL_CACHE_REFUSED,
	.extra_regs	= crestmont_extra_regs,
	.nr_extra	= ARRAY_SIZE(crestmont_extra_regs),
	.named_events	= skymont_hybrid_named_events,
	.pebs_constraints = gracemont_pebs_constraints,
	.pebs_pdist	= X86C_PDIST_COUNTERS01,
	.pebs_pdist_floor = true,
	.pebs_mem	= gracemont_pebs_mem,
	.pebs_dse	= &x86c_dse_crestmont,
};
