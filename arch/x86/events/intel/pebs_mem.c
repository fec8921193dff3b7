// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what a PEBS record says of its instruction's memory access.
 *
 * A record has the access's linear address, its latency, where the data
 * came from (the data source: which level of the hierarchy, whether the
 * access missed the second-level TLB, was locked or had to wait for a
 * store) and, for an instruction in a transaction, the abort's cause
 * and cost.  Format 3 puts that in every record; format 4 in its memory
 * group, which the records have while an event on the CPU samples one
 * of X86C_PEBS_MEM_SAMPLE (intel/pebs.c asks for it).
 *
 * What the data source field holds depends on the event.  Each family
 * lists its memory events (struct x86c_pebs_mem_row), and such an event
 * takes one of upstream's PERF_X86_EVENT_PEBS_* kinds at event_init:
 *
 *  - load latency (LDLAT) and store latency (STLAT, Golden Cove): the
 *    source of the load or store in the core's layout (struct
 *    x86c_pebs_dse), the store without the bits that say why a load
 *    waited;
 *  - the latency events of a hybrid part's E-cores and of Lion Cove
 *    (LAT_HYBRID, with LD_HSW for loads or ST_HSW for stores): the
 *    core's layout, whole;
 *  - the precise loads and stores with a data address (LD_HSW, ST_HSW,
 *    NA_HSW alone): no source, but whether it was a load or a store,
 *    and for a store whether it hit the L1 (bit 0).
 *
 * Any other event's source is "not available", as the generic core
 * gives it.  The weight is the latency: format 4's where the record has
 * one, format 3's only for load latency; else the cycles of an aborted
 * transaction.  A reserved encoding of the data source reads as a load
 * from an unknown level (upstream leaves some of those at 0, which says
 * nothing at all).
 */

#include <linux/perf_event.h>

#include <asm/perf_event.h>

#include "../counters.h"

/* The kinds of records whose data source field is a source. */
#define X86C_PEBS_LATENCY	(PERF_X86_EVENT_PEBS_LDLAT |		\
				 PERF_X86_EVENT_PEBS_STLAT |		\
				 PERF_X86_EVENT_PEBS_LAT_HYBRID)
/* ...and of those that are known to be loads or stores. */
#define X86C_PEBS_DATALA	(PERF_X86_EVENT_PEBS_LD_HSW |		\
				 PERF_X86_EVENT_PEBS_ST_HSW |		\
				 PERF_X86_EVENT_PEBS_NA_HSW)
#define X86C_PEBS_MEM_KINDS	(X86C_PEBS_LATENCY | X86C_PEBS_DATALA)

/* ---- the data sources ----------------------------------------------- */

#define SRC(field, what)	PERF_MEM_S(field, what)
/* A load that hit somewhere. */
#define LD_HIT			(SRC(OP, LOAD) | SRC(LVL, HIT))
/* ...in level @lvl (the old bit), number @num, the snoop's @snoop. */
#define LD_AT(lvl, num, snoop)	(LD_HIT | SRC(LVL, lvl) |		\
				 SRC(LVLNUM, num) | SRC(SNOOP, snoop))
/* ...at level number @num alone, where no old bit names it. */
#define LD_IN(num)		(LD_HIT | SRC(LVLNUM, num))
/* ...forwarded by another core's cache. */
#define LD_FWD(num)		(LD_IN(num) | SRC(SNOOPX, FWD))
#define ON_REMOTE		SRC(REMOTE, REMOTE)
#define SNOOP_NONE_MISS		(SRC(SNOOP, NONE) | SRC(SNOOP, MISS))
/* A load that missed the L3, not known where it went. */
#define LD_PAST_L3		(SRC(OP, LOAD) | SRC(LVL, MISS) |	\
				 SRC(LVLNUM, L3) | SRC(SNOOP, NA))
/* What a reserved encoding reads as. */
#define LD_SOMEWHERE		(SRC(OP, LOAD) | SRC(LVLNUM, NA) | SRC(SNOOP, NA))

/*
 * Skylake's, Ice Lake's and Golden Cove's encodings (the SDM's "Data
 * Source Encoding for Load Latency Record").  0x08 and 0x09 name the
 * memory past the L3: an L4 cache, or persistent memory on a server
 * (x86c_pmu.pebs_pmem).
 */
static const u64 skylake_sources[] = {
	[0x00] = LD_PAST_L3,
	[0x01] = LD_AT(L1, L1, NONE),
	[0x02] = LD_AT(LFB, LFB, NONE),
	[0x03] = LD_AT(L2, L2, NONE),
	[0x04] = LD_AT(L3, L3, NONE),
	[0x05] = LD_AT(L3, L3, MISS),
	[0x06] = LD_AT(L3, L3, HIT),
	[0x07] = LD_AT(L3, L3, HITM),
	[0x08] = LD_IN(L4) | SRC(SNOOP, HIT),
	[0x09] = LD_IN(L4) | SRC(SNOOP, HIT) | ON_REMOTE,
	[0x0a] = LD_AT(LOC_RAM, RAM, HIT),
	[0x0b] = LD_IN(RAM) | SRC(SNOOP, NONE) | ON_REMOTE,
	[0x0c] = LD_FWD(ANY_CACHE) | ON_REMOTE,
	[0x0d] = LD_IN(ANY_CACHE) | SRC(SNOOP, HITM) | ON_REMOTE,
	[0x0e] = LD_AT(IO, NA, NONE),
	[0x0f] = LD_AT(UNC, NA, NONE),
};

/* Gracemont's: its L3 snoops and forwards differ; the rest as before. */
static const u64 gracemont_sources[] = {
	[0x00] = LD_PAST_L3,
	[0x01] = LD_AT(L1, L1, NONE),
	[0x02] = LD_AT(LFB, LFB, NONE),
	[0x03] = LD_AT(L2, L2, NONE),
	[0x04] = LD_AT(L3, L3, NONE),
	[0x05] = LD_AT(L3, L3, HIT),
	[0x06] = LD_AT(L3, L3, HITM),
	[0x07] = LD_AT(L3, L3, HITM),
	[0x08] = LD_FWD(L3) | SRC(LVL, L3),
	[0x09] = LD_AT(REM_CCE1, L3, HITM) | ON_REMOTE,
	[0x0a] = LD_AT(LOC_RAM, RAM, HIT),
	[0x0b] = LD_AT(REM_RAM1, L3, HIT) | ON_REMOTE,
	[0x0c] = LD_HIT | SRC(LVL, LOC_RAM) | SRC(LVLNUM, RAM) |
		 SNOOP_NONE_MISS,
	[0x0d] = LD_HIT | SRC(LVL, REM_RAM1) | SRC(LVLNUM, RAM) |
		 SNOOP_NONE_MISS | ON_REMOTE,
	[0x0e] = LD_AT(IO, NA, NONE),
	[0x0f] = LD_AT(UNC, NA, NONE),
};

/* Crestmont's and Skymont's: five bits, of which 0x10 up are reserved. */
static const u64 crestmont_sources[] = {
	[0x00] = LD_PAST_L3,
	[0x01] = LD_AT(L1, L1, NONE),
	[0x02] = LD_AT(LFB, LFB, NONE),
	[0x03] = LD_AT(L2, L2, NONE),
	[0x04] = LD_AT(L3, L3, NONE),
	[0x05] = LD_AT(L3, L3, MISS),
	[0x06] = LD_AT(L3, L3, HIT),
	[0x07] = LD_FWD(L3) | SRC(LVL, L3),
	[0x08] = LD_AT(L3, L3, HITM),
	[0x09] = LD_AT(REM_CCE1, L3, HITM) | ON_REMOTE,
	[0x0a] = LD_AT(LOC_RAM, RAM, NONE),
	[0x0b] = LD_IN(RAM) | SRC(SNOOP, NONE) | ON_REMOTE,
	[0x0c] = LD_FWD(RAM) | ON_REMOTE,
	[0x0d] = LD_IN(RAM) | SRC(SNOOP, HITM) | ON_REMOTE,
	[0x0e] = LD_AT(IO, NA, NONE),
	[0x0f] = LD_AT(UNC, NA, NONE),
};

/* Lion Cove's: eight bits, with the miss handling buffers and a MSC. */
static const u64 lion_cove_sources[] = {
	[0x00] = LD_PAST_L3,
	[0x01] = LD_AT(L1, L1, NONE),
	[0x02] = LD_AT(L1, L1, NONE),
	[0x03] = LD_AT(LFB, LFB, NONE),
	[0x05] = LD_AT(L2, L2, NONE),
	[0x06] = LD_IN(L2_MHB) | SRC(SNOOP, NONE),
	[0x08] = LD_AT(L3, L3, NONE),
	[0x0c] = LD_FWD(L3) | SRC(LVL, L3),
	[0x0d] = LD_AT(L3, L3, HITM),
	[0x0f] = LD_PAST_L3 | SRC(LVL, L3) | SRC(SNOOP, HITM),
	[0x10] = LD_IN(MSC) | SRC(SNOOP, NONE),
	[0x11] = LD_AT(LOC_RAM, RAM, NONE),
};

/* Skylake and Ice Lake: the TLB and lock bits, nothing of blocking. */
const struct x86c_pebs_dse x86c_dse_skylake = {
	.sources	= skylake_sources,
	.nr_sources	= ARRAY_SIZE(skylake_sources),
	.mask		= 0xf,
	.stlb_miss	= 4,
	.locked		= 5,
};

/* Golden Cove (and Redwood Cove): why a load waited, bits 6 and 7. */
const struct x86c_pebs_dse x86c_dse_golden_cove = {
	.sources	= skylake_sources,
	.nr_sources	= ARRAY_SIZE(skylake_sources),
	.mask		= 0xf,
	.stlb_miss	= 4,
	.locked		= 5,
	.data_blk	= 6,
	.addr_blk	= 7,
	.split_latency	= true,
};

/*
 * Gracemont: the lock in bit 4 and the TLB miss in bit 5, as upstream
 * reads the field (the other cores have them the other way round).
 */
const struct x86c_pebs_dse x86c_dse_gracemont = {
	.sources	= gracemont_sources,
	.nr_sources	= ARRAY_SIZE(gracemont_sources),
	.mask		= 0xf,
	.stlb_miss	= 5,
	.locked		= 4,
	.data_blk	= 6,
	.split_latency	= true,
};

const struct x86c_pebs_dse x86c_dse_crestmont = {
	.sources	= crestmont_sources,
	.nr_sources	= ARRAY_SIZE(crestmont_sources),
	.mask		= 0x1f,
	.locked		= 5,
	.stlb_miss	= 6,
	.data_blk	= 7,
	.split_latency	= true,
};

const struct x86c_pebs_dse x86c_dse_lion_cove = {
	.sources	= lion_cove_sources,
	.nr_sources	= ARRAY_SIZE(lion_cove_sources),
	.mask		= 0xff,
	.stlb_miss	= 10,
	.locked		= 11,
	.data_blk	= 12,
	.addr_blk	= 13,
	.split_latency	= true,
};

static bool x86c_dse_has(u64 dse, u8 bit)
{
	return bit && (dse & BIT_ULL(bit));
}

/*
 * The source of a latency event's access, from @d's layout; @blocks:
 * with why a load waited, where the layout says.
 */
static u64 x86c_dse_source(const struct x86c_pebs_dse *d, bool pmem,
			   u64 dse, bool blocks)
{
	union perf_mem_data_src src;
	unsigned int enc = dse & d->mask;
	u8 blk = 0;

	src.val = enc < d->nr_sources ? d->sources[enc] : 0;
	if (!src.val)
		src.val = LD_SOMEWHERE;
	if (pmem && src.mem_lvl_num == PERF_MEM_LVLNUM_L4)
		src.mem_lvl_num = PERF_MEM_LVLNUM_PMEM;

	if (x86c_dse_has(dse, d->stlb_miss))
		src.mem_dtlb = PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2;
	else
		src.mem_dtlb = PERF_MEM_TLB_HIT | PERF_MEM_TLB_L1 |
			       PERF_MEM_TLB_L2;
	if (x86c_dse_has(dse, d->locked))
		src.mem_lock = PERF_MEM_LOCK_LOCKED;

	if (blocks && x86c_dse_has(dse, d->data_blk))
		blk |= PERF_MEM_BLK_DATA;
	if (blocks && x86c_dse_has(dse, d->addr_blk))
		blk |= PERF_MEM_BLK_ADDR;
	src.mem_blk = blk ?: PERF_MEM_BLK_NA;
	return src.val;
}

/* A precise load or store: what it was, and a store's L1 hit (bit 0). */
static u64 x86c_datala_source(u32 kind, u64 dse)
{
	union perf_mem_data_src src = { .val = PERF_MEM_NA };

	if (kind & PERF_X86_EVENT_PEBS_ST_HSW) {
		src.mem_op = PERF_MEM_OP_STORE;
		src.mem_lvl = PERF_MEM_LVL_L1 |
			      (dse & 1 ? PERF_MEM_LVL_HIT : PERF_MEM_LVL_MISS);
	} else if (kind & PERF_X86_EVENT_PEBS_LD_HSW) {
		src.mem_op = PERF_MEM_OP_LOAD;
	}
	return src.val;
}

/**
 * x86c_pebs_data_src - the sample's data source from a record's field
 * @p: the PMU the event is on
 * @kind: the event's PERF_X86_EVENT_PEBS_* kind, or 0
 * @dse: the record's data source field
 *
 * Return: the generic data source (union perf_mem_data_src).
 */
u64 x86c_pebs_data_src(const struct x86c_pmu *p, u32 kind, u64 dse)
{
	union perf_mem_data_src src;

	if (!(kind & X86C_PEBS_LATENCY) || !p->pebs_dse)
		return kind & X86C_PEBS_DATALA ?
		       x86c_datala_source(kind, dse) : PERF_MEM_NA;

	src.val = x86c_dse_source(p->pebs_dse, p->pebs_pmem, dse,
				  !(kind & PERF_X86_EVENT_PEBS_STLAT));
	if (kind & (PERF_X86_EVENT_PEBS_STLAT | PERF_X86_EVENT_PEBS_ST_HSW))
		src.mem_op = PERF_MEM_OP_STORE;
	else
		src.mem_op = PERF_MEM_OP_LOAD;
	return src.val;
}

/* ---- events --------------------------------------------------------- */

/**
 * x86c_pebs_mem_shape - @p's memory events and data sources, @f's
 * @p: an Intel core PMU with PEBS, being probed or reshaped
 * @f: its family, or NULL
 *
 * Persistent memory is a server's, known by the running CPU's model;
 * a KUnit model sets it itself.
 */
void x86c_pebs_mem_shape(struct x86c_pmu *p, const struct x86c_intel_family *f)
{
	const u8 *model;

	p->pebs_mem = f ? f->pebs_mem : NULL;
	p->pebs_dse = f ? f->pebs_dse : NULL;
	p->pebs_pmem = false;
	if (!f || !f->pebs_pmem_models || !x86c_is_host(p))
		return;
	for (model = f->pebs_pmem_models; *model; model++)
		if (*model == boot_cpu_data.x86_model)
			p->pebs_pmem = true;
}

/* MEM_TRANS_RETIRED.LOAD_LATENCY, and the event that must go with it. */
#define X86C_MEM_LOADS		0x01cd
#define X86C_MEM_LOADS_AUX	0x8203

static bool x86c_event_is(const struct perf_event *event, u64 code)
{
	return (event->attr.config & INTEL_ARCH_EVENT_MASK) == code;
}

/*
 * Where the family says so, a load-latency event that samples the data
 * source needs MEM_LOADS_AUX in its group, before it: its leader or a
 * sibling (upstream's rule, -ENODATA).
 */
static int x86c_loads_aux_check(const struct x86c_pmu *p,
				struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sibling;

	if (!p->pebs_loads_aux ||
	    !(event->attr.sample_type & PERF_SAMPLE_DATA_SRC) ||
	    !x86c_event_is(event, X86C_MEM_LOADS))
		return 0;
	if (leader == event)
		return -ENODATA;
	if (x86c_event_is(leader, X86C_MEM_LOADS_AUX))
		return 0;
	for_each_sibling_event(sibling, leader)
		if (x86c_event_is(sibling, X86C_MEM_LOADS_AUX))
			return 0;
	return -ENODATA;
}

/**
 * x86c_pebs_mem_config - an Intel event's memory kind, at event_init
 * @p: its PMU
 * @event: the event, its hw.config made
 *
 * A precise event of a code the family's memory events name takes their
 * kind; then the load-latency group rule.
 *
 * Return: 0, or -ENODATA.
 */
int x86c_pebs_mem_config(const struct x86c_pmu *p, struct perf_event *event)
{
	const struct x86c_pebs_mem_row *row;

	event->hw.flags &= ~X86C_PEBS_MEM_KINDS;
	row = event->attr.precise_ip ? p->pebs_mem : NULL;
	while (row && (!row->cmask ||
		       (event->hw.config & row->cmask) != row->code))
		row = row->cmask ? row + 1 : row->then;
	if (row)
		event->hw.flags |= row->kind;
	return x86c_loads_aux_check(p, event);
}

/* ---- samples -------------------------------------------------------- */

/* The cycles an aborted transaction took, from the record. */
static u64 x86c_tsx_weight(u64 tsx_tuning)
{
	return lower_32_bits(tsx_tuning);
}

/* The transaction flags, and an explicit abort's code from RAX. */
static u64 x86c_tsx_txn(u64 tsx_tuning, u64 ax)
{
	u64 txn = (tsx_tuning >> 32) & 0xff;

	if ((txn & PERF_TXN_TRANSACTION) && (ax & 1))
		txn |= ((ax >> 24) & 0xff) << PERF_TXN_ABORT_SHIFT;
	return txn;
}

/* The weight a record gives @event's sample of @type. */
static u64 x86c_pebs_weight(const struct x86c_pmu *p,
			    const struct perf_event *event,
			    const struct x86c_pebs_view *v, u64 type)
{
	u64 latency = v->latency;
	u64 instr = 0;

	if (p->pebs_format != 4)
		return event->hw.flags & PERF_X86_EVENT_PEBS_LDLAT ?
		       latency : x86c_tsx_weight(v->tsx_tuning);

	if (p->pebs_dse && p->pebs_dse->split_latency) {
		instr = latency & 0xffff;
		latency = (latency >> 32) & 0xffff;
	}
	if (type & PERF_SAMPLE_WEIGHT)
		return latency ?: x86c_tsx_weight(v->tsx_tuning);
	/* PERF_SAMPLE_WEIGHT_STRUCT: var1_dw the latency, var2_w the instruction's */
	return (lower_32_bits(latency) ?: x86c_tsx_weight(v->tsx_tuning)) |
	       instr << 32;
}

/**
 * x86c_pebs_mem_sample - a sample's memory fields, from its record
 * @p: the PMU
 * @event: the event sampled
 * @v: the record
 * @data: the sample, made (x86c_pmi_sample_data())
 *
 * The fields @event samples, where the record has them (@v->mem); the
 * generic core fills the others as for any event.  The caller calls it
 * only for an event that samples one of X86C_PEBS_MEM_SAMPLE.
 */
void x86c_pebs_mem_sample(const struct x86c_pmu *p,
			  const struct perf_event *event,
			  const struct x86c_pebs_view *v,
			  struct perf_sample_data *data)
{
	u64 type = event->attr.sample_type;

	if (!v->mem)
		return;
	if (type & PERF_SAMPLE_WEIGHT_TYPE) {
		data->weight.full = x86c_pebs_weight(p, event, v, type);
		data->sample_flags |= PERF_SAMPLE_WEIGHT_TYPE;
	}
	if (type & PERF_SAMPLE_DATA_SRC) {
		data->data_src.val = x86c_pebs_data_src(p, event->hw.flags,
							v->dse);
		data->sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
	if (type & (PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR |
		    PERF_SAMPLE_DATA_PAGE_SIZE)) {
		data->addr = v->data_addr;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
	if (type & PERF_SAMPLE_TRANSACTION) {
		data->txn = x86c_tsx_txn(v->tsx_tuning, v->ax);
		data->sample_flags |= PERF_SAMPLE_TRANSACTION;
	}
}
