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
 * This driver takes the record format of Ice Lake and later parts
 * (format 4 with the adaptive groups, IA32_PERF_CAPABILITIES): any
 * general-purpose or fixed counter samples precisely, so precise events
 * are placed as any other.  precise_ip 1 and 2 are given (PEBS, and an
 * exact IP): the sample's ip is the eventing IP at 2, the IP after it
 * at 1, as upstream gives them.  A part of no family samples its core
 * cycles precisely as instructions retired counted on every cycle
 * (an inverted threshold of 16), which the hardware can record, as
 * upstream does for such parts.
 *
 * One record per PMI for now: the threshold is the first record, the
 * counter reloads to 0 and the PMI moves it on to the next period as
 * for any overflow, so a precise event counts and samples exactly as
 * the same event without PEBS, and the sample's other fields (time,
 * branch stack from the LBR registers, addr and data_src unknown) are
 * the PMI's.  Records of counters that no longer run are dropped.
 *
 * Locking: struct x86c_pebs_cpu and the debug store's PEBS fields are
 * their CPU's, touched with interrupts off by the PMU callbacks and the
 * PMI; the buffers are ds.c's.
 */

#include <linux/perf_event.h>

#include <asm/cpufeature.h>
#include <asm/intel_ds.h>
#include <asm/msr.h>
#include <asm/perf_event.h>

#include "../counters.h"

/* The records the PMI comes after: one, the smallest a record can be. */
#define X86C_PEBS_THRESHOLD	sizeof(struct pebs_basic)

/* Core cycles as a part of no family samples them precisely. */
#define X86C_PEBS_CYCLES_CODE	0x003cULL
#define X86C_PEBS_CYCLES_ALIAS	(0x00c0ULL | ARCH_PERFMON_EVENTSEL_INV | \
				 (16ULL << 24))

/* The general-purpose registers of perf_regs: the record's GPR group. */
#define X86C_PEBS_GP_REGS	(GENMASK_ULL(PERF_REG_X86_R15, PERF_REG_X86_R8) | \
				 GENMASK_ULL(PERF_REG_X86_FLAGS, PERF_REG_X86_AX))

static DEFINE_PER_CPU(struct page *, x86c_pebs_pages);

/* ---- the probe ------------------------------------------------------ */

/**
 * x86c_pebs_probe - does the CPU sample precisely, in a format we take
 * @p: an Intel core PMU, being probed, with its perf_capabilities and
 *	the family tables
 *
 * PEBS needs the debug store in its 64-bit format (DTES64), the PEBS
 * feature the kernel reads from IA32_MISC_ENABLE, and record format 4
 * with the baseline (adaptive) groups.
 */
void x86c_pebs_probe(struct x86c_pmu *p)
{
	u64 caps = p->perf_capabilities;
	int format = (caps & PERF_CAP_PEBS_FORMAT) >> 8;

	bool baseline = caps & PERF_CAP_PEBS_BASELINE;

	p->pebs = false;
	if (!boot_cpu_has(X86_FEATURE_PEBS) ||
	    !boot_cpu_has(X86_FEATURE_DTES64))
		return;
	if (format != 4 || !baseline) {
		if (x86c_is_host(p))
			pr_info("perf/x86: PEBS record format %d%s is not driven: no precise sampling\n",
				format, baseline ? " with the adaptive groups" : "");
		return;
	}
	p->pebs = true;
	if (x86c_is_host(p))
		pr_info("perf/x86: PEBS, record format 4 with the adaptive groups\n");
	/* PEBS itself, and an exact IP from the record's eventing IP */
	p->max_precise = 2;
	p->status_extra |= GLOBAL_STATUS_BUFFER_OVF;
	p->pebs_cycles_alias = !p->family_name ||
			       !strncmp(p->family_name, "generic", 7);
}

/* ---- events --------------------------------------------------------- */

/*
 * The groups @event's samples need of a record: the registers, where
 * it asks for general-purpose ones or its ip is the one after the
 * eventing instruction (precise_ip 1).
 */
static u64 x86c_pebs_groups(const struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;

	if (attr->precise_ip < 2 ||
	    ((attr->sample_type & PERF_SAMPLE_REGS_INTR) &&
	     (attr->sample_regs_intr & X86C_PEBS_GP_REGS)) ||
	    ((attr->sample_type & PERF_SAMPLE_REGS_USER) &&
	     (attr->sample_regs_user & X86C_PEBS_GP_REGS)))
		return PEBS_DATACFG_GP;
	return 0;
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
			      X86C_PEBS_CYCLES_ALIAS;
	/* The record is the interrupt; adaptive: DATA_CFG's groups. */
	hwc->config &= ~ARCH_PERFMON_EVENTSEL_INT;
	hwc->config |= ICL_EVENTSEL_ADAPTIVE;
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

/* The groups the precise events on this CPU's counters need, together. */
static u64 x86c_pebs_cpu_groups(struct x86c_cpu *cpu)
{
	unsigned long enabled = cpu->pebs.enabled;
	u64 groups = 0;
	int idx;

	for_each_set_bit(idx, &enabled, X86_PMC_IDX_MAX)
		if (cpu->owner[idx])
			groups |= x86c_pebs_groups(cpu->owner[idx]);
	return groups;
}

static void x86c_pebs_write(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	u64 groups = x86c_pebs_cpu_groups(cpu);

	if (groups != cpu->pebs.data_cfg) {
		p->hw->write_msr(MSR_PEBS_DATA_CFG, groups);
		cpu->pebs.data_cfg = groups;
	}
	p->hw->write_msr(MSR_IA32_PEBS_ENABLE, cpu->pebs.enabled);
}

/**
 * x86c_pebs_on - counter @idx is being programmed for a precise event
 * @p: the PMU
 * @cpu: this CPU's counters
 * @idx: the counter, whose owner is the event
 */
void x86c_pebs_on(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx)
{
	if (cpu->pebs.enabled & BIT_ULL(idx))
		return;
	cpu->pebs.enabled |= BIT_ULL(idx);
	x86c_pebs_write(p, cpu);
}

/**
 * x86c_pebs_off - counter @idx stops sampling precisely
 * @p: the PMU
 * @cpu: this CPU's counters
 * @idx: the counter
 */
void x86c_pebs_off(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx)
{
	if (!(cpu->pebs.enabled & BIT_ULL(idx)))
		return;
	cpu->pebs.enabled &= ~BIT_ULL(idx);
	x86c_pebs_write(p, cpu);
}

/* ---- records to samples --------------------------------------------- */

/* @regs as they were at @ip, kernel or user by the address. */
static void x86c_pebs_set_ip(struct pt_regs *regs, u64 ip)
{
	regs->ip = ip;
	if (ip >= TASK_SIZE_MAX) {
		regs->cs = __KERNEL_CS;
		regs->ss = __KERNEL_DS;
	} else {
		regs->cs = __USER_CS;
		regs->ss = __USER_DS;
	}
}

/**
 * x86c_pebs_regs - the registers of a sample from a record
 * @event: the event sampled
 * @rec: the record, of its own format_size
 * @regs: the interrupted registers, become the sample's
 *
 * The record's registers where it has them (the state after the
 * eventing instruction); the ip the eventing IP, marked exact, for
 * precise_ip 2, else the one after it.
 */
void x86c_pebs_regs(const struct perf_event *event, const void *rec,
		    struct pt_regs *regs)
{
	const struct pebs_basic *basic = rec;
	const void *next = basic + 1;
	const struct pebs_gprs *gprs = NULL;

	if (basic->format_group & PEBS_DATACFG_MEMINFO)
		next += sizeof(struct pebs_meminfo);
	if (basic->format_group & PEBS_DATACFG_GP)
		gprs = next;

	if (gprs) {
		regs->flags = gprs->flags;
		regs->ax = gprs->ax;
		regs->cx = gprs->cx;
		regs->dx = gprs->dx;
		regs->bx = gprs->bx;
		regs->sp = gprs->sp;
		regs->bp = gprs->bp;
		regs->si = gprs->si;
		regs->di = gprs->di;
		regs->r8 = gprs->r8;
		regs->r9 = gprs->r9;
		regs->r10 = gprs->r10;
		regs->r11 = gprs->r11;
		regs->r12 = gprs->r12;
		regs->r13 = gprs->r13;
		regs->r14 = gprs->r14;
		regs->r15 = gprs->r15;
	}
	if (event->attr.precise_ip >= 2 || !gprs) {
		x86c_pebs_set_ip(regs, basic->ip);
		regs->flags |= PERF_EFLAGS_EXACT;
	} else {
		x86c_pebs_set_ip(regs, gprs->ip);
		regs->flags &= ~PERF_EFLAGS_EXACT;
	}
}

/**
 * x86c_pebs_drain - the stored records become samples; the buffer empty
 * @p: the PMU
 * @cpu: this CPU's counters, in the PMI (the counters stopped)
 * @iregs: where the PMI came
 *
 * Return: how many samples it made, at least 1 if there were records
 * (the PMI was ours).
 */
int x86c_pebs_drain(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct pt_regs *iregs)
{
	struct debug_store *ds = cpu->ds;
	const u8 *at, *top;
	int handled = 0;

	if (!ds || !ds->pebs_buffer_base)
		return 0;
	at = (const u8 *)(unsigned long)ds->pebs_buffer_base;
	top = (const u8 *)(unsigned long)ds->pebs_index;
	if (top <= at)
		return 0;

	while (at + sizeof(struct pebs_basic) <= top) {
		const struct pebs_basic *basic = (const void *)at;
		unsigned long ran;
		int idx;

		if (basic->format_size < sizeof(*basic) ||
		    at + basic->format_size > top)
			break;
		ran = basic->applicable_counters & cpu->pebs.enabled &
		      cpu->running;
		for_each_set_bit(idx, &ran, X86_PMC_IDX_MAX) {
			struct pt_regs regs = *iregs;

			x86c_pebs_regs(cpu->owner[idx], basic, &regs);
			x86c_pmi_event(p, cpu, cpu->owner[idx], &regs);
			handled++;
		}
		at += basic->format_size;
	}
	ds->pebs_index = ds->pebs_buffer_base;
	return handled ?: 1;
}
