// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: Intel's precise event-based sampling (PEBS), for events
 * with precise_ip.
 *
 * A counter whose bit is set in IA32_PEBS_ENABLE raises no PMI of its
 * own when it overflows: the CPU stores a record of the instruction
 * that made it overflow in the PEBS buffer of the debug store (ds.c),
 * reloads the counter from the store's reset value, and raises the PMI
 * (status bit 62, the buffer's) as the buffer reaches its threshold.
 * The record has the instruction's address (the eventing IP: no skid)
 * and, as IA32_PEBS_DATA_CFG asks, the registers after it, memory
 * information, XMM registers and branch records.
 *
 * This driver takes two record formats (IA32_PERF_CAPABILITIES):
 * Ice Lake's and later parts' (format 4 with the adaptive groups), where
 * any general-purpose or fixed counter samples precisely, so precise
 * events are placed as any other but the codes the family's table
 * names; and Skylake's (format 3: one fixed record with the registers,
 * the eventing IP and the TSC), where only some general-purpose
 * counters do, as the family's table says (x86c_event_constraint()).
 * precise_ip 1 and 2 are given (PEBS, and an exact IP): the sample's ip
 * is the eventing IP at 2, the IP after it at 1, as upstream gives
 * them; 3 where the family distributes some samples precisely (Skylake:
 * INST_RETIRED.PREC_DIST on counter 1; Ice Lake and Golden Cove:
 * instructions on fixed counter 0, and on Golden Cove the rest on
 * counter 0, enum x86c_pdist).  A part of no family, and a format 3
 * family, samples its core cycles precisely as instructions retired
 * counted on every cycle (an inverted threshold of 16), which the
 * hardware can record, as upstream does; at precise_ip 3 as
 * INST_RETIRED.PREC_DIST so counted.
 *
 * An event sampled at a fixed period (not by frequency, no wakeup per
 * sample) reloads from the store (auto-reload: the counter starts its
 * next period by itself), and where its samples need nothing but what
 * the record has (upstream's set of sample fields: ip, registers, time
 * from the record's TSC, branch stack from its LBR group, ...) it is
 * "large": while every precise event on the CPU is, the buffer fills
 * to near its end before the PMI, records are drained when an event
 * stops or is read, and a sample costs a record, not an interrupt.
 * Otherwise the threshold is the first record, the counter reloads to
 * 0 and the PMI moves it on to the next period as for any overflow.
 * Either way a precise event counts exactly as without PEBS.  What the
 * record says of a memory access (its address, latency, data source and
 * transaction state) is intel/pebs_mem.c's.  A format 3 record has no branch
 * records: a branch stack comes from the LBR at the PMI, so such an
 * event is never large.  Records of counters that no longer run are
 * dropped.
 *
 * Locking: struct x86c_pebs_cpu and the debug store's PEBS fields are
 * their CPU's, touched with interrupts off by the PMU callbacks and the
 * PMI; the buffers are ds.c's.
 */

#include <linux/perf_event.h>
#include <linux/sched/clock.h>

#include <asm/cpufeature.h>
#include <asm/intel_ds.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/timer.h>
#include <asm/tsc.h>

#include "../counters.h"

/* The records the PMI comes after: one, the smallest a record can be. */
#define X86C_PEBS_THRESHOLD	sizeof(struct pebs_basic)
/* format 4: fixed counter j's reset value after the eight general ones' */
#define X86C_PEBS_RESET_FIXED	8

/* Core cycles as a part of no family samples them precisely. */
#define X86C_PEBS_CYCLES_CODE	0x003cULL
#define X86C_PEBS_CYCLES_ALIAS	(0x00c0ULL | ARCH_PERFMON_EVENTSEL_INV | \
				 (16ULL << 24))
/* ...and at precise_ip 3: INST_RETIRED.PREC_DIST so counted. */
#define X86C_PEBS_PREC_DIST_CYCLES	(X86C_PEBS_CYCLES_ALIAS | 0x0100ULL)

/*
 * Format 3's record (the SDM's "PEBS Record Format" of the 6th
 * generation Core processors): the state after the eventing
 * instruction, the counters it is of, the data access's address,
 * source and latency, the eventing IP, TSX tuning and the TSC.
 */
struct x86c_pebs_fmt3 {
	u64 flags, next_ip;
	u64 ax, bx, cx, dx, si, di, bp, sp;
	u64 r8, r9, r10, r11, r12, r13, r14, r15;
	u64 applicable, data_addr, data_source, latency;
	u64 ip, tsx_tuning, tsc;
};

static DEFINE_PER_CPU(struct page *, x86c_pebs_pages);

/* ---- the probe ------------------------------------------------------ */

/**
 * x86c_pebs_shape - how precise events go on @p, from its records' format
 * @p: an Intel core PMU, being probed
 * @f: the CPU's family, or NULL
 * @format: the PEBS record format (IA32_PERF_CAPABILITIES)
 * @baseline: with the adaptive groups
 *
 * Format 4 with the baseline: precise events on any counter, but where
 * the family's table names their code, and precise_ip 3 where the
 * family has a precise distribution; core cycles as instructions
 * retired on every cycle on a part of no family.  Format 3: on the
 * family's table's counters, or the ones it leaves every other precise
 * event; core cycles likewise.  Sets @p's PEBS fields, max_precise
 * among them: PEBS itself, an exact IP from the record's eventing IP,
 * and the family's precise distribution.
 *
 * Return: whether we drive that format on @f.
 */
bool x86c_pebs_shape(struct x86c_pmu *p, const struct x86c_intel_family *f,
		     int format, bool baseline)
{
	static const struct x86c_intel_family none;
	u64 counters;

	p->pebs_table = NULL;
	p->pebs_any = (struct event_constraint) { };
	p->pebs_pdist = X86C_PDIST_NONE;
	p->pebs_pdist_floor = false;
	if (!f)
		f = &none;
	if (format == 4 && baseline) {
		p->pebs_table = f->pebs_constraints;
		p->pebs_pdist = f->pebs_pdist;
		p->pebs_pdist_floor = f->pebs_pdist_floor;
		p->pebs_cycles_alias = f == &none;
	} else if (format == 3 && f->pebs_constraints) {
		counters = f->pebs_counters & GENMASK_ULL(p->num_gp - 1, 0);
		p->pebs_table = f->pebs_constraints;
		p->pebs_any = (struct event_constraint) {
			.idxmsk64 = counters,
			.weight = hweight64(counters),
		};
		p->pebs_cycles_alias = true;
	} else {
		return false;
	}
	p->pebs_format = format;
	p->max_precise = 2 + (format == 4 ? f->pebs_pdist != X86C_PDIST_NONE :
					    f->pebs_prec_dist);
	x86c_pebs_mem_shape(p, f);
	return true;
}

/**
 * x86c_pebs_probe - does the CPU sample precisely, in a format we take
 * @p: an Intel core PMU, being probed, with its perf_capabilities
 * @f: the CPU's family, or NULL
 *
 * PEBS needs the debug store in its 64-bit format (DTES64), the PEBS
 * feature the kernel reads from IA32_MISC_ENABLE, and a record format
 * x86c_pebs_shape() takes.
 */
/* The record format @p's IA32_PERF_CAPABILITIES gives, shaped by @f */
static bool x86c_pebs_shape_caps(struct x86c_pmu *p,
				 const struct x86c_intel_family *f)
{
	u64 caps = p->perf_capabilities;

	return x86c_pebs_shape(p, f, (caps & PERF_CAP_PEBS_FORMAT) >> 8,
			       caps & PERF_CAP_PEBS_BASELINE);
}

void x86c_pebs_probe(struct x86c_pmu *p, const struct x86c_intel_family *f)
{
	u64 caps = p->perf_capabilities;
	int format = (caps & PERF_CAP_PEBS_FORMAT) >> 8;
	bool baseline = caps & PERF_CAP_PEBS_BASELINE;

	p->pebs = false;
	if (!boot_cpu_has(X86_FEATURE_PEBS) ||
	    !boot_cpu_has(X86_FEATURE_DTES64))
		return;
	if (!x86c_pebs_shape_caps(p, f)) {
		if (x86c_is_host(p))
			pr_info("perf/x86: PEBS record format %d%s is not driven: no precise sampling\n",
				format, baseline ? " with the adaptive groups" : "");
		return;
	}
	p->pebs = true;
	if (x86c_is_host(p))
		pr_info("perf/x86: PEBS, record format %d%s\n", format,
			format == 4 ? " with the adaptive groups" : "");
	p->status_extra |= GLOBAL_STATUS_BUFFER_OVF;
}

/**
 * x86c_pebs_reshape - a hybrid part's E-core PMU takes its own family's
 *	precise rules
 * @p: the E-cores' PMU, a copy of the P-cores' probed one
 * @f: the E-cores' family
 *
 * The record format is the part's, probed once; the table and the
 * precise distribution are each kind of core's own (Gracemont's are not
 * Golden Cove's).
 */
void x86c_pebs_reshape(struct x86c_pmu *p, const struct x86c_intel_family *f)
{
	if (p->pebs)
		p->pebs = x86c_pebs_shape_caps(p, f);
}

/* ---- events --------------------------------------------------------- */

/* How many branch records a record with @groups has. */
static unsigned int x86c_pebs_lbr_nr(u64 groups)
{
	return ((groups >> PEBS_DATACFG_LBR_SHIFT) & 0xff) + 1;
}

/*
 * The groups @event's samples need of a record: the registers, where
 * it asks for general-purpose ones or its ip is the one after the
 * eventing instruction (precise_ip 1); every branch record of @p for a
 * branch stack; the memory group for what the access was
 * (intel/pebs_mem.c).
 */
static u64 x86c_pebs_groups(const struct x86c_pmu *p,
			    const struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	u64 groups = 0;

	if (p->pebs_format != 4)
		return 0;
	if (attr->precise_ip < 2 ||
	    ((attr->sample_type & PERF_SAMPLE_REGS_INTR) &&
	     (attr->sample_regs_intr & PEBS_GP_REGS)) ||
	    ((attr->sample_type & PERF_SAMPLE_REGS_USER) &&
	     (attr->sample_regs_user & PEBS_GP_REGS)))
		groups |= PEBS_DATACFG_GP;
	if ((attr->sample_type & PERF_SAMPLE_BRANCH_STACK) && p->lbr.nr)
		groups |= PEBS_DATACFG_LBRS |
			  (u64)(p->lbr.nr - 1) << PEBS_DATACFG_LBR_SHIFT;
	if (attr->sample_type & X86C_PEBS_MEM_SAMPLE)
		groups |= PEBS_DATACFG_MEMINFO;
	return groups;
}

/* The size of a record of @p with @groups. */
static unsigned int x86c_pebs_record_size(const struct x86c_pmu *p,
					  u64 groups)
{
	unsigned int size = sizeof(struct pebs_basic);

	if (p->pebs_format != 4)
		return sizeof(struct x86c_pebs_fmt3);

	if (groups & PEBS_DATACFG_MEMINFO)
		size += sizeof(struct pebs_meminfo);
	if (groups & PEBS_DATACFG_GP)
		size += sizeof(struct pebs_gprs);
	if (groups & PEBS_DATACFG_XMMS)
		size += sizeof(struct pebs_xmm);
	if (groups & PEBS_DATACFG_LBRS)
		size += sizeof(struct lbr_entry) * x86c_pebs_lbr_nr(groups);
	return size;
}

/*
 * The sample fields a record of @p gives without the PMI's help
 * (upstream's set, so that the same events are large on both): not the
 * time where the event has its own clock, the user registers only of
 * an event that never samples the kernel, registers only the GPR group
 * has, a branch stack only where the record has the branch records.
 */
static u64 x86c_pebs_large_fields(const struct x86c_pmu *p,
				  const struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	u64 fields = LARGE_PEBS_FLAGS | PERF_SAMPLE_TIME;

	if (p->pebs_format == 4)
		fields |= PERF_SAMPLE_BRANCH_STACK;

	if (attr->use_clockid)
		fields &= ~PERF_SAMPLE_TIME;
	if (!attr->exclude_kernel || (attr->sample_regs_user & ~PEBS_GP_REGS))
		fields &= ~PERF_SAMPLE_REGS_USER;
	if (attr->sample_regs_intr & ~PEBS_GP_REGS)
		fields &= ~PERF_SAMPLE_REGS_INTR;
	return fields;
}

/**
 * x86c_pebs_config - an event with precise_ip, at event_init
 * @p: its PMU, which has PEBS
 * @event: the event, its control value (hw.config) made
 *
 * Return: 0, or -EINVAL for an event that does not sample (upstream's
 * rule).
 */
int x86c_pebs_config(struct x86c_pmu *p, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	/* precise_ip above max_precise: refused before (counters.c) */
	if (!is_sampling_event(event))
		return -EINVAL;
	if (p->pebs_cycles_alias &&
	    (hwc->config & X86_RAW_EVENT_MASK) == X86C_PEBS_CYCLES_CODE)
		hwc->config = (hwc->config & ~X86_RAW_EVENT_MASK) |
			      (event->attr.precise_ip == 3 ?
			       X86C_PEBS_PREC_DIST_CYCLES :
			       X86C_PEBS_CYCLES_ALIAS);
	/* The record is the interrupt; adaptive: DATA_CFG's groups. */
	hwc->config &= ~ARCH_PERFMON_EVENTSEL_INT;
	if (p->pebs_format == 4)
		hwc->config |= ICL_EVENTSEL_ADAPTIVE;
	/* A fixed period: the store reloads the counter. */
	if (!event->attr.freq &&
	    !(event->attr.wakeup_events && !event->attr.watermark)) {
		hwc->flags |= PERF_X86_EVENT_AUTO_RELOAD;
		if (!(event->attr.sample_type &
		      ~x86c_pebs_large_fields(p, event)))
			hwc->flags |= PERF_X86_EVENT_LARGE_PEBS;
	}
	return 0;
}

/* ---- the buffer ----------------------------------------------------- */

/* Describe a CPU's buffer at @base, or none (0), in its debug store. */
static void x86c_pebs_describe(struct debug_store *ds, u64 base)
{
	ds->pebs_buffer_base = base;
	ds->pebs_index = base;
	ds->pebs_absolute_maximum = base ? base + PEBS_BUFFER_SIZE : 0;
	ds->pebs_interrupt_threshold = base ? base + X86C_PEBS_THRESHOLD : 0;
	memset(ds->pebs_event_reset, 0, sizeof(ds->pebs_event_reset));
}

static struct x86c_ds_buffer x86c_pebs_buffer = {
	.size		= PEBS_BUFFER_SIZE,
	.offset		= offsetof(struct debug_store_buffers, pebs_buffer),
	.pages		= &x86c_pebs_pages,
	.describe	= x86c_pebs_describe,
};

/**
 * x86c_pebs_reserve - the buffers, for a new precise event
 *
 * Process context.  Return: 0, or -ENOMEM.
 */
int x86c_pebs_reserve(void)
{
	return x86c_ds_reserve(&x86c_pebs_buffer);
}

/** x86c_pebs_release - a precise event is gone */
void x86c_pebs_release(void)
{
	x86c_ds_release(&x86c_pebs_buffer);
}

/* ---- on and off ----------------------------------------------------- */

/*
 * The groups the precise events on this CPU's counters need, together,
 * and whether all of them are large.
 */
static u64 x86c_pebs_cpu_groups(struct x86c_pmu *p, struct x86c_cpu *cpu,
				bool *large)
{
	unsigned long enabled = cpu->pebs.enabled;
	u64 groups = 0;
	int idx;

	*large = true;
	for_each_set_bit(idx, &enabled, X86_PMC_IDX_MAX) {
		groups |= x86c_pebs_groups(p, cpu->owner[idx]);
		if (!(cpu->owner[idx]->hw.flags & PERF_X86_EVENT_LARGE_PEBS))
			*large = false;
	}
	return groups;
}

/*
 * PEBS_ENABLE, DATA_CFG and the threshold for the precise events on
 * this CPU's counters: near the buffer's end while all are large, with
 * room for a record of each counter the NMI may take to come; else
 * after the first record.
 */
static void x86c_pebs_write(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct debug_store *ds = cpu->ds;
	bool large;
	u64 groups = x86c_pebs_cpu_groups(p, cpu, &large);
	u64 room = x86c_pebs_record_size(p, groups) *
		   (p->num_gp + p->num_fixed);

	if (groups != cpu->pebs.data_cfg) {
		p->hw->write_msr(MSR_PEBS_DATA_CFG, groups);
		cpu->pebs.data_cfg = groups;
	}
	ds->pebs_interrupt_threshold = ds->pebs_buffer_base +
		(large && cpu->pebs.enabled ? PEBS_BUFFER_SIZE - room :
					      X86C_PEBS_THRESHOLD);
	p->hw->write_msr(MSR_IA32_PEBS_ENABLE, cpu->pebs.enabled);
}

/* The store's reset value of counter @idx: its next period, or 0. */
static u64 *x86c_pebs_reset(struct debug_store *ds, int idx)
{
	if (idx >= INTEL_PMC_IDX_FIXED)
		idx = X86C_PEBS_RESET_FIXED + idx - INTEL_PMC_IDX_FIXED;
	return &ds->pebs_event_reset[idx];
}

/**
 * x86c_pebs_on - counter @idx is being programmed for a precise event
 * @p: the PMU
 * @cpu: this CPU's counters
 * @idx: the counter, whose owner is the event, loaded for its period
 */
void x86c_pebs_on(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx)
{
	struct hw_perf_event *hwc = &cpu->owner[idx]->hw;

	*x86c_pebs_reset(cpu->ds, idx) =
		hwc->flags & PERF_X86_EVENT_AUTO_RELOAD ?
		-hwc->sample_period & p->cntval_mask : 0;
	if (cpu->pebs.enabled & BIT_ULL(idx))
		return;
	cpu->pebs.enabled |= BIT_ULL(idx);
	x86c_pebs_write(p, cpu);
}

/**
 * x86c_pebs_off - counter @idx stops sampling precisely
 * @p: the PMU
 * @cpu: this CPU's counters
 * @idx: the counter, one of @cpu->pebs.enabled (the caller tells, on
 *	the path that stops every counter)
 *
 * An event that reloads from the store has its records drained first:
 * its count needs them, and a large one's samples are there.
 */
void x86c_pebs_off(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx)
{
	if (cpu->owner[idx]->hw.flags & PERF_X86_EVENT_AUTO_RELOAD)
		x86c_pebs_drain(p, cpu, NULL);
	cpu->pebs.enabled &= ~BIT_ULL(idx);
	x86c_pebs_write(p, cpu);
}

/**
 * x86c_pebs_read - bring the running events that reload from the store
 *	up to date: the records drained, with the counters stopped
 *	meanwhile
 * @p: the PMU
 * @cpu: this CPU's counters
 */
void x86c_pebs_read(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	/* In the PMI (a group's sample) the counters are stopped already. */
	bool stop = !cpu->disabled && !in_nmi();

	if (stop)
		p->vendor->disable_all(p, cpu);
	x86c_pebs_drain(p, cpu, NULL);
	if (stop)
		p->vendor->enable_all(p, cpu);
}

/* ---- records to samples --------------------------------------------- */

/* @regs as they were at @ip, kernel or user by the address. */
static void x86c_pebs_set_ip(struct pt_regs *regs, u64 ip)
{
	regs->ip = ip;
	if (x86c_kernel_ip(ip)) {
		regs->cs = __KERNEL_CS;
		regs->ss = __KERNEL_DS;
	} else {
		regs->cs = __USER_CS;
		regs->ss = __USER_DS;
	}
}

/*
 * Where in struct pt_regs each general-purpose register of a record
 * goes, in the record's order from RAX on: format 4's GPR group (the
 * SDM's: RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8-R15), format 3's
 * record (RAX, RBX, RCX, RDX, RSI, RDI, RBP, RSP, R8-R15).
 */
static const u16 x86c_pebs_gpr_at[] = {
	offsetof(struct pt_regs, ax), offsetof(struct pt_regs, cx),
	offsetof(struct pt_regs, dx), offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, sp), offsetof(struct pt_regs, bp),
	offsetof(struct pt_regs, si), offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
};

static const u16 x86c_pebs_fmt3_gpr_at[] = {
	offsetof(struct pt_regs, ax), offsetof(struct pt_regs, bx),
	offsetof(struct pt_regs, cx), offsetof(struct pt_regs, dx),
	offsetof(struct pt_regs, si), offsetof(struct pt_regs, di),
	offsetof(struct pt_regs, bp), offsetof(struct pt_regs, sp),
	offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9),
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r11),
	offsetof(struct pt_regs, r12), offsetof(struct pt_regs, r13),
	offsetof(struct pt_regs, r14), offsetof(struct pt_regs, r15),
};

static_assert(ARRAY_SIZE(x86c_pebs_gpr_at) == X86C_PEBS_GPRS);
static_assert(ARRAY_SIZE(x86c_pebs_fmt3_gpr_at) == X86C_PEBS_GPRS);
static_assert(sizeof(struct x86c_pebs_fmt3) == 200);

/*
 * The size of the record of @p's format at @at and the counters it is
 * of (@applicable), without the rest: the drain's first pass needs no
 * more.  False where no whole record is at @at, the buffer's records
 * ending at @top.
 */
static bool x86c_pebs_peek(const struct x86c_pmu *p, const void *at,
			   const void *top, unsigned int *size,
			   u64 *applicable)
{
	const struct x86c_pebs_fmt3 *rec = at;
	const struct pebs_basic *basic = at;

	if (p->pebs_format != 4) {
		if (at + sizeof(*rec) > top)
			return false;
		*size = sizeof(*rec);
		*applicable = rec->applicable;
		return true;
	}
	if (at + sizeof(*basic) > top || basic->format_size < sizeof(*basic) ||
	    at + basic->format_size > top)
		return false;
	*size = basic->format_size;
	*applicable = basic->applicable_counters;
	return true;
}

/* The rest of a format 4 record at @at, its size known. */
static void x86c_pebs_decode_fmt4(const void *at, struct x86c_pebs_view *v)
{
	const struct pebs_basic *basic = at;
	const void *next = basic + 1;
	u64 groups;

	groups = basic->format_group;
	v->ip = basic->ip;
	v->tsc = basic->tsc;
	if (groups & PEBS_DATACFG_MEMINFO) {
		const struct pebs_meminfo *mem = next;

		v->mem = true;
		v->data_addr = mem->address;
		v->dse = mem->aux;
		v->latency = mem->mem_latency;
		v->tsx_tuning = mem->tsx_tuning;
		next += sizeof(*mem);
	}
	if (groups & PEBS_DATACFG_GP) {
		const struct pebs_gprs *gprs = next;

		v->flags = gprs->flags;
		v->next_ip = gprs->ip;
		v->gprs = &gprs->ax;
		v->gpr_at = x86c_pebs_gpr_at;
		v->ax = gprs->ax;
	}
	if (groups & PEBS_DATACFG_LBRS) {
		/* The last group of the record. */
		v->nr_lbr = x86c_pebs_lbr_nr(groups);
		v->lbr = (const struct lbr_entry *)(at + v->size) - v->nr_lbr;
	}
}

/* The rest of a format 3 record at @at. */
static void x86c_pebs_decode_fmt3(const void *at, struct x86c_pebs_view *v)
{
	const struct x86c_pebs_fmt3 *rec = at;

	v->ip = rec->ip;
	v->next_ip = rec->next_ip;
	v->flags = rec->flags;
	v->tsc = rec->tsc;
	v->gprs = &rec->ax;
	v->gpr_at = x86c_pebs_fmt3_gpr_at;
	/* Upstream gives them only to an event that asks for them. */
	v->gprs_on_ask = true;
	v->mem = true;
	v->data_addr = rec->data_addr;
	v->dse = rec->data_source;
	v->latency = rec->latency;
	v->tsx_tuning = rec->tsx_tuning;
	v->ax = rec->ax;
}

/**
 * x86c_pebs_decode - a record of @p's format, as the drain reads it
 * @p: the PMU, which has PEBS
 * @at: the record
 * @top: where the buffer's records end
 * @v: what it says
 *
 * Return: false where no whole record is at @at.
 */
bool x86c_pebs_decode(const struct x86c_pmu *p, const void *at,
		      const void *top, struct x86c_pebs_view *v)
{
	memset(v, 0, offsetof(struct x86c_pebs_view, data_addr));
	if (!x86c_pebs_peek(p, at, top, &v->size, &v->applicable))
		return false;
	if (p->pebs_format == 4)
		x86c_pebs_decode_fmt4(at, v);
	else
		x86c_pebs_decode_fmt3(at, v);
	return true;
}

/**
 * x86c_pebs_regs - the registers of a sample from a record
 * @event: the event sampled
 * @v: the record, decoded
 * @regs: the interrupted registers, become the sample's
 *
 * The record's registers where it has them (the state after the
 * eventing instruction); the ip the eventing IP, marked exact, for
 * precise_ip 2, else the one after it.
 */
void x86c_pebs_regs(const struct perf_event *event,
		    const struct x86c_pebs_view *v, struct pt_regs *regs)
{
	bool take_gprs = v->gprs &&
			 (!v->gprs_on_ask ||
			  (event->attr.sample_type & PERF_SAMPLE_REGS_INTR));
	int i;

	if (v->gprs)
		regs->flags = v->flags;
	for (i = 0; take_gprs && i < X86C_PEBS_GPRS; i++)
		*(unsigned long *)((void *)regs + v->gpr_at[i]) = v->gprs[i];
	if (event->attr.precise_ip >= 2 || !v->next_ip) {
		x86c_pebs_set_ip(regs, v->ip);
		regs->flags |= PERF_EFLAGS_EXACT;
	} else {
		x86c_pebs_set_ip(regs, v->next_ip);
		regs->flags &= ~PERF_EFLAGS_EXACT;
	}
}

/*
 * An event that reloads from the store counted @records periods since
 * it was last brought up to date, and what its counter shows beyond
 * the last reload: both go to its count.
 */
static void x86c_pebs_reload_update(struct x86c_pmu *p,
				    struct perf_event *event,
				    unsigned int records)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 now, then;

	then = x86c_sign_extend(p, local64_read(&hwc->prev_count));
	now = x86c_sign_extend(p, p->hw->read_pmc(hwc->event_base_rdpmc));
	local64_set(&hwc->prev_count, now);
	local64_add(now - then + (s64)records * hwc->sample_period,
		    &event->count);
	local64_set(&hwc->period_left, -now);
	perf_event_update_userpage(event);
}

/* The time a record's TSC says, where perf's clock is the TSC's. */
static void x86c_pebs_time(const struct perf_event *event,
			   const struct x86c_pebs_view *v,
			   struct perf_sample_data *data)
{
	if (!(event->attr.sample_type & PERF_SAMPLE_TIME) ||
	    event->attr.use_clockid || !using_native_sched_clock() ||
	    !sched_clock_stable())
		return;
	data->time = native_sched_clock_from_tsc(v->tsc) +
		     __sched_clock_offset;
	data->sample_flags |= PERF_SAMPLE_TIME;
}

/*
 * A record as a sample of a running event: the last one of a PMI's
 * drain is the overflow (throttling, the event's handler), as is the
 * one record of an event that does not reload from the store; the
 * others and those drained elsewhere are output.
 */
static void x86c_pebs_output(struct x86c_pmu *p, struct x86c_cpu *cpu,
			     struct perf_event *event,
			     const struct x86c_pebs_view *v,
			     struct pt_regs *regs, bool overflow,
			     struct perf_sample_data *data)
{
	x86c_pmi_sample_data(p, cpu, event, data);
	x86c_pebs_time(event, v, data);
	/* Out of line only for the events that ask: a large drain's cost. */
	if (event->attr.sample_type & X86C_PEBS_MEM_SAMPLE)
		x86c_pebs_mem_sample(p, event, v, data);
	if (!overflow)
		perf_event_output(event, data, regs);
	else if (perf_event_overflow(event, data, regs))
		x86c_stop(p, cpu, event, 0);
}

/* The running precise events a record of @applicable counters is of. */
static unsigned long x86c_pebs_owners(struct x86c_cpu *cpu, u64 applicable)
{
	return applicable & cpu->pebs.enabled & cpu->running;
}

/**
 * x86c_pebs_drain - the stored records become samples; the buffer empty
 * @p: the PMU
 * @cpu: this CPU's counters, the counters stopped: the PMI, an event
 *	leaving, a read
 * @iregs: where the PMI came, or NULL elsewhere
 *
 * Events that reload from the store are brought up to date first, by
 * the periods their records stand for; each record is then a sample
 * of each running precise event it applies to.
 *
 * Return: how many samples it made, at least 1 if there were records
 * (the PMI was ours).
 */
int x86c_pebs_drain(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct pt_regs *iregs)
{
	u16 records[X86_PMC_IDX_MAX] = {};
	static struct pt_regs none;
	struct debug_store *ds = cpu->ds;
	unsigned long ran, reloads = 0;
	const u8 *base, *top, *at;
	/*
	 * One sample's data for the whole drain: each record's is made
	 * afresh (x86c_pmi_sample_data()), and a large drain has hundreds
	 * of records, which need not each zero a structure on the stack.
	 */
	struct perf_sample_data data;
	struct x86c_pebs_view v;
	unsigned int size;
	int handled = 0, idx;
	bool overflow;
	u64 applicable;

	if (!ds || !ds->pebs_buffer_base || cpu->pebs.draining)
		return 0;
	cpu->pebs.draining = true;
	base = (const u8 *)(unsigned long)ds->pebs_buffer_base;
	top = (const u8 *)(unsigned long)ds->pebs_index;

	for (at = base; x86c_pebs_peek(p, at, top, &size, &applicable);
	     at += size) {
		ran = x86c_pebs_owners(cpu, applicable);
		for_each_set_bit(idx, &ran, X86_PMC_IDX_MAX)
			records[idx]++;
	}
	top = at;
	ran = cpu->pebs.enabled & cpu->running;
	for_each_set_bit(idx, &ran, X86_PMC_IDX_MAX) {
		if (!(cpu->owner[idx]->hw.flags & PERF_X86_EVENT_AUTO_RELOAD))
			continue;
		reloads |= BIT(idx);
		x86c_pebs_reload_update(p, cpu->owner[idx], records[idx]);
	}

	for (at = base; x86c_pebs_decode(p, at, top, &v); at += v.size) {
		ran = x86c_pebs_owners(cpu, v.applicable);
		/* A record's branch records; else the LBR's at the sample. */
		if (ran && v.lbr)
			x86c_intel_lbr_take(p, cpu, v.lbr, v.nr_lbr);
		for_each_set_bit(idx, &ran, X86_PMC_IDX_MAX) {
			struct perf_event *event = cpu->owner[idx];
			struct pt_regs regs = iregs ? *iregs : none;

			x86c_pebs_regs(event, &v, &regs);
			handled++;
			/*
			 * One call of the output (inlined: a large drain
			 * makes it hundreds of times): an event that does
			 * not reload has its period moved on first, and its
			 * record is always its overflow.
			 */
			if (reloads & BIT(idx))
				overflow = iregs && !--records[idx];
			else if (x86c_pmi_advance(p, cpu, event))
				overflow = true;
			else
				continue;
			x86c_pebs_output(p, cpu, event, &v, &regs, overflow,
					 &data);
		}
	}
	/* Not the LBR registers': the next sample reads them. */
	cpu->br.snap_valid = false;
	ds->pebs_index = ds->pebs_buffer_base;
	cpu->pebs.draining = false;
	return handled ?: top > base;
}
