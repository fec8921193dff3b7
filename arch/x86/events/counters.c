// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the x86 core counter framework, the "cpu" PMU.
 *
 * Layout of arch/x86/events (perfcore's files):
 *
 *   counters.c	this file: the struct pmu callbacks (event setup,
 *		putting events on counters, enable and disable), the probe
 *		and CPU bring-up.  Vendor neutral.
 *   counters.h	the types shared by the framework and the drivers.
 *   assign.c	which event gets which counter, perf_assign_events().
 *   ht_excl.c	counters one thread of a core keeps from the other.
 *   extra.c	extra registers: MSRs some events take a selection from
 *		(Intel's off-core response), one value per CPU.
 *   period.c	counter arithmetic: deltas, periods, load values.
 *   share.c	identical counting events reading one counter.
 *   pmi.c	the overflow interrupt, an NMI.
 *   branches.c	branch records in samples (intel/lbr.c the hardware's).
 *   intel/ds.c	the debug store the next two write through.
 *   intel/bts.c	the branch trace store: branch instructions at a
 *		period of 1, an event that takes no counter.
 *   intel/pebs.c	precise sampling: events with precise_ip.
 *   rdpmc.c	user-space reads: the mmap page's index, CR4.PCE per mm,
 *		the sysfs rdpmc knob.
 *   sysfs.c	the PMU's format/, events/ and caps/.
 *   kvm.c	what KVM and the rest of arch/x86 ask the host PMU.
 *   core.c	the arch hooks that need no counters (call chains,
 *		sample ip and mode, user-page time).
 *   intel/core.c, intel/families.c	the Intel driver and its
 *		per-family tables, intel/topdown.c its topdown slots and
 *		metrics; amd/core.c the AMD driver.
 *   kept.c	what upstream's other PMUs built here need.
 *
 * A hybrid Intel part has two PMUs, one per kind of core (cpu_core,
 * cpu_atom), sharing the per-CPU struct x86c_cpu: each CPU belongs to
 * one of them from its bring-up on (x86c_here()), and the other one's
 * callbacks leave its counters alone.
 *
 * A driver is a struct x86c_vendor (counters.h): a few callbacks that
 * program one counter, switch all of them on or off, and find and clear
 * overflows, reaching the hardware only through struct x86c_hw_ops.  The
 * probe fills a struct x86c_pmu with what CPUID says.
 *
 * How an event reaches a counter.  add() appends the event to its CPU's
 * list and finds a counter for it: where it fits beside the events
 * already placed (the lowest free fixed counter it may use, else the
 * lowest free general-purpose one) they stay where they are, and so
 * does a transaction's group when all its events fit so; otherwise
 * perf_assign_events() places the whole list again, which finds an
 * arrangement whenever one exists.  Nothing is programmed yet: the core
 * adds a group between pmu_disable and pmu_enable, and pmu_enable
 * moves the events whose counter changed (stop and fold the count,
 * then load the new counter) before the vendor switches everything on
 * at once.  So a group starts and stops counting together (Intel: one
 * write of IA32_PERF_GLOBAL_CTRL).  A transaction (start_txn) only
 * appends; commit_txn places the lot.
 *
 * Locking: struct x86c_cpu is its CPU's, touched with interrupts off,
 * by the callbacks (the core calls them so) and the PMI.  An NMI can
 * come between any two lines of those callbacks; it only reads the
 * counters marked running and updates their events, which the
 * cmpxchg on prev_count in x86c_event_update() makes safe against a
 * concurrent read().  x86c_withhold_lock (a mutex, innermost, in
 * process context: a vendor's sysfs knob may hold its own around it)
 * serializes changes of x86c_pmu.withheld and .narrowed;
 * x86c_constraint() reads them without it, the copies being complete
 * before the mask that selects them is published.  Where the two
 * threads of a core share out their counters, x86c_ht_core.lock
 * (ht_excl.c) nests inside either CPU's context lock, in add, commit
 * and del.
 */

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/perf/counter_share.h>
#include <linux/slab.h>
#include <linux/static_call.h>

#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/msr.h>

#include "counters.h"

struct x86c_pmu *x86c_host;
DEFINE_PER_CPU(struct x86c_pmu *, x86c_here_pmu);
static struct x86c_pmu x86c_host_pmu;
/* A hybrid part's E-cores (core_type 0 elsewhere). */
static struct x86c_pmu x86c_atom_pmu;
/* Every CPU's counters, whichever of the two PMUs drives them. */
static DEFINE_PER_CPU(struct x86c_cpu, x86c_host_cpus);
/* x86c_atom_pmu is registered beside x86c_host_pmu. */
static DEFINE_STATIC_KEY_FALSE(x86c_hybrid);

/* ---- hardware access ---------------------------------------------- */

static u64 x86c_native_rdmsr(u32 msr)
{
	u64 val;

	rdmsrl(msr, val);
	return val;
}

static int x86c_native_rdmsr_safe(u32 msr, u64 *val)
{
	return rdmsrl_safe(msr, val) ? -EIO : 0;
}

static void x86c_native_wrmsr(u32 msr, u64 val)
{
	wrmsrl(msr, val);
}

static int x86c_native_wrmsr_safe(u32 msr, u64 val)
{
	return wrmsrl_safe(msr, val) ? -EIO : 0;
}

static u64 x86c_native_rdpmc(u32 ecx)
{
	u64 val;

	rdpmcl(ecx, val);
	return val;
}

static void x86c_native_unmask_pmi(void)
{
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}

const struct x86c_hw_ops x86c_native_hw = {
	.read_msr	= x86c_native_rdmsr,
	.read_msr_safe	= x86c_native_rdmsr_safe,
	.write_msr	= x86c_native_wrmsr,
	.write_msr_safe	= x86c_native_wrmsr_safe,
	.read_pmc	= x86c_native_rdpmc,
	.unmask_pmi	= x86c_native_unmask_pmi,
};

static inline struct x86c_pmu *x86c_of(struct perf_event *event)
{
	return container_of(event->pmu, struct x86c_pmu, pmu);
}

/* ---- counters and events ------------------------------------------ */

/* The counters an event on @idx takes: a paired one, the next too. */
static u64 x86c_taken(const struct event_constraint *c, int idx)
{
	if (c->flags & PERF_X86_EVENT_PAIR)
		return BIT_ULL(idx) | BIT_ULL(idx + 1);
	return BIT_ULL(idx);
}

/* Point @event's register fields at counter @idx. */
void x86c_bind(struct x86c_pmu *p, struct perf_event *event, int idx)
{
	struct hw_perf_event *hwc = &event->hw;

	hwc->idx = idx;
	if (x86c_is_metric(idx)) {
		/* No register of its own: RDPMC reads PERF_METRICS. */
		hwc->config_base = 0;
		hwc->event_base = 0;
		hwc->event_base_rdpmc = INTEL_PMC_FIXED_RDPMC_METRICS;
	} else if (x86c_is_fixed(idx)) {
		idx -= INTEL_PMC_IDX_FIXED;
		hwc->config_base = MSR_ARCH_PERFMON_FIXED_CTR_CTRL;
		hwc->event_base = p->fixed_ctr + idx;
		hwc->event_base_rdpmc = INTEL_PMC_FIXED_RDPMC_BASE | idx;
	} else {
		hwc->config_base = p->gp_ctl + idx * p->gp_stride;
		hwc->event_base = p->gp_ctr + idx * p->gp_stride;
		hwc->event_base_rdpmc = idx;
	}
}

/**
 * x86c_event_update - fold what a counter counted into its event
 * @p: the PMU
 * @event: an event on one of its counters
 *
 * Safe against the PMI doing the same: whoever swaps prev_count owns
 * the delta up to the value it read.
 *
 * Return: the raw counter value read.
 */
u64 x86c_event_update(struct x86c_pmu *p, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	if (hwc->idx < 0)
		return 0;
	if (unlikely(hwc->flags & PERF_X86_EVENT_TOPDOWN))
		return p->vendor->topdown_update(p, this_cpu_ptr(p->cpus));
	prev = local64_read(&hwc->prev_count);
	do {
		now = p->hw->read_pmc(hwc->event_base_rdpmc);
	} while (!local64_try_cmpxchg(&hwc->prev_count, &prev, now));

	delta = x86c_counter_delta(prev, now, p->width);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return now;
}

/**
 * x86c_event_limit - a load the hardware counts right for an event
 * @p: its PMU
 * @event: the event, its control value made
 * @load: counts to the overflow
 *
 * @load raised as the family's limits by code say (x86c_limit_period()),
 * and at precise_ip 3 to the precise distribution's shortest period
 * where it has one.  The one rule for loads, new periods and
 * PERF_EVENT_IOC_PERIOD.
 *
 * Return: the load to program.
 */
s64 x86c_event_limit(const struct x86c_pmu *p, const struct perf_event *event,
		     s64 load)
{
	load = x86c_limit_period(p->period_limits, event->hw.config, load);
	if (unlikely(event->attr.precise_ip == 3) && p->pebs_pdist_floor)
		load = max_t(s64, load, X86C_PDIST_MIN_PERIOD);
	return load;
}

/**
 * x86c_event_set_period - load an event's counter for the rest of its period
 * @p: the PMU
 * @event: the event, on a counter that is not counting
 *
 * Counting events use the max period too: the overflow then only
 * folds the count before the counter could wrap unseen.  The caller
 * refreshes the event's mmap page, whose offset depends on prev_count.
 * A paired event's count goes on in the next counter (AMD's Merge
 * event), which gets the load's sign extension: the pair then wraps
 * when the counter alone would, and so raises the PMI at the period.
 *
 * Return: true when a sample period ended since the last load.
 */
bool x86c_event_set_period(struct x86c_pmu *p, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct x86c_period next;

	/* Never sampling: a topdown group counts its slots from zero. */
	if (unlikely(hwc->flags & PERF_X86_EVENT_TOPDOWN)) {
		p->vendor->topdown_start(p, event);
		return false;
	}
	next = x86c_period_next(local64_read(&hwc->period_left),
				hwc->sample_period, p->max_period);
	next.load = x86c_event_limit(p, event, next.load);
	if (next.elapsed) {
		local64_set(&hwc->period_left, next.left);
		hwc->last_period = hwc->sample_period;
	}
	/* prev_count as RDPMC sign-extended would read it: see rdpmc.c. */
	local64_set(&hwc->prev_count, (u64)-next.load);
	p->hw->write_msr(hwc->event_base,
			 x86c_counter_load_value(next.load, p->cntval_mask));
	if (hwc->flags & PERF_X86_EVENT_PAIR)
		p->hw->write_msr(hwc->event_base + p->gp_stride,
				 GENMASK_ULL(63 - p->width, 0));
	return next.elapsed;
}

/* The control @hwc's counter is programmed with on this CPU. */
static u64 x86c_control(struct x86c_cpu *cpu, struct hw_perf_event *hwc)
{
	return hwc->config & ~cpu->virt_mask;
}

/* Start @event on the counter it is bound to (PERF_EF_RELOAD: load it). */
void x86c_start_on(struct x86c_pmu *p, struct x86c_cpu *cpu,
		   struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;

	if (flags & PERF_EF_RELOAD) {
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
		x86c_event_set_period(p, event);
	}
	hwc->state = 0;
	cpu->running |= BIT_ULL(idx);
	if (hwc->extra_reg.reg)
		p->hw->write_msr(hwc->extra_reg.reg, hwc->extra_reg.config);
	p->vendor->program(p, cpu, idx, x86c_control(cpu, hwc));
	perf_event_update_userpage(event);
}

/**
 * x86c_stop - stop an event's counter
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event
 * @flags: PERF_EF_UPDATE to fold the count in
 */
void x86c_stop(struct x86c_pmu *p, struct x86c_cpu *cpu,
	       struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;
	int idx = hwc->idx;

	if (idx < 0 || cpu->owner[idx] != event) {
		/* Not on a counter yet: the next pmu_enable leaves it off. */
		hwc->state |= PERF_HES_STOPPED | PERF_HES_ARCH;
		return;
	}
	if (cpu->running & BIT_ULL(idx)) {
		p->vendor->unprogram(p, cpu, idx);
		cpu->running &= ~BIT_ULL(idx);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		x86c_event_update(p, event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

/*
 * Program the events whose counter changed: first every event leaving
 * a counter stops (its count folded), then every event arriving is
 * loaded and, unless it was stopped, started.  Two passes, because an
 * event may arrive on a counter another one leaves.
 */
static void x86c_apply(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct perf_event *event;
	struct hw_perf_event *hwc;
	int i, old, idx;

	for (i = 0; i < cpu->nr; i++) {
		event = cpu->events[i];
		hwc = &event->hw;
		old = hwc->idx;
		if (old < 0 || cpu->owner[old] != event ||
		    old == cpu->assign[i])
			continue;
		if (hwc->state & PERF_HES_STOPPED)
			hwc->state |= PERF_HES_ARCH;
		if (unlikely(cpu->share.nr))
			x86c_share_fold(p, cpu, event);
		x86c_stop(p, cpu, event, PERF_EF_UPDATE);
		cpu->owner[old] = NULL;
		cpu->owned &= ~BIT_ULL(old);
	}

	for (i = 0; i < cpu->nr; i++) {
		event = cpu->events[i];
		hwc = &event->hw;
		idx = cpu->assign[i];
		if (cpu->owner[idx] == event)
			continue;
		x86c_bind(p, event, idx);
		cpu->owner[idx] = event;
		cpu->owned |= BIT_ULL(idx);
		cpu->used_ever |= x86c_taken(cpu->constraint[i], idx);
		if (!(hwc->state & PERF_HES_ARCH))
			x86c_start_on(p, cpu, event, PERF_EF_RELOAD);
		if (unlikely(cpu->share.nr))
			x86c_share_follow(p, cpu, event);
	}
	cpu->moved = false;
}

/**
 * x86c_program_each - switch every running counter on or off, one by one
 * @p: the PMU
 * @cpu: this CPU's counters: off if marked disabled, else on
 *
 * For PMUs without a global control (AMD before PerfMonV2, Intel
 * version 1), as both their enable_all and disable_all; their
 * program() leaves the control alone while the counters are disabled.
 * The same write per counter on the way on and off, so that counters
 * switched one after the other still count the same span.
 */
void x86c_program_each(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	u64 enable = cpu->disabled ? 0 : ARCH_PERFMON_EVENTSEL_ENABLE;
	unsigned long running = cpu->running;
	struct hw_perf_event *hwc;
	int idx;

	for_each_set_bit(idx, &running, X86_PMC_IDX_MAX) {
		hwc = &cpu->owner[idx]->hw;
		p->hw->write_msr(hwc->config_base,
				 x86c_control(cpu, hwc) | enable);
	}
}

/**
 * x86c_set_virt_mask - change the control bits a CPU strips
 * @p: the PMU
 * @cpu: this CPU's counters, with interrupts off
 * @mask: the bits stripped from now on
 *
 * KVM switches virtualization on and off one CPU at a time, so what
 * HostOnly does is a CPU's own state.  The counters already running
 * are programmed again at once: an event that excludes the guest stops
 * counting in it from the moment SVM is on.
 */
void x86c_set_virt_mask(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 mask)
{
	unsigned long running = cpu->running;
	int idx;

	lockdep_assert_irqs_disabled();
	if (cpu->virt_mask == mask)
		return;
	cpu->virt_mask = mask;
	for_each_set_bit(idx, &running, X86_PMC_IDX_MAX)
		p->vendor->program(p, cpu, idx,
				   x86c_control(cpu, &cpu->owner[idx]->hw));
}

/**
 * x86c_overflowed_by_sign - overflowed counters, for PMUs without a status
 * @p: the PMU
 * @cpu: this CPU's counters
 *
 * A counter is loaded with minus its period, so its top bit is set
 * until it wraps: the running counters whose top bit is clear are the
 * ones that overflowed.
 *
 * Return: their mask.
 */
u64 x86c_overflowed_by_sign(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	unsigned long running = cpu->running;
	u64 overflowed = 0;
	int idx;

	for_each_set_bit(idx, &running, X86_PMC_IDX_MAX) {
		u64 val = p->hw->read_pmc(cpu->owner[idx]->hw.event_base_rdpmc);

		if (!(val & BIT_ULL(p->width - 1)))
			overflowed |= BIT_ULL(idx);
	}
	return overflowed;
}

/* Program what moved, now if the counters are on, else at pmu_enable. */
static void x86c_apply_soon(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	cpu->moved = true;
	if (cpu->disabled)
		return;
	cpu->disabled = true;
	p->vendor->disable_all(p, cpu);
	x86c_apply(p, cpu);
	cpu->disabled = false;
	p->vendor->enable_all(p, cpu);
}

/* The rows of a constraint table (or none: NULL), the end not counted. */
static int x86c_nr_rows(const struct event_constraint *table)
{
	const struct event_constraint *c;
	int n = 0;

	for (c = table; c && c->cmask; c++)
		n++;
	return n;
}

/*
 * Where x86c_withhold() keeps the narrowed copy of @c, one of @p's: the
 * family table's rows, @fixed, @any_gp, then the precise events' rows
 * and @pebs_any where there is a table for those.
 */
static int x86c_narrowed_at(struct x86c_pmu *p, struct event_constraint *c)
{
	int rows = x86c_nr_rows(p->table);
	int gp_at = rows + p->nr_fixed_events;
	int pebs_rows = x86c_nr_rows(p->pebs_table);

	if (c == &p->any_gp)
		return gp_at;
	if (c == &p->pebs_any)
		return gp_at + 1 + pebs_rows;
	if (c >= p->fixed && c < p->fixed + p->nr_fixed_events)
		return rows + (c - p->fixed);
	if (p->pebs_table && c >= p->pebs_table &&
	    c < p->pebs_table + pebs_rows)
		return gp_at + 1 + (c - p->pebs_table);
	return c - p->table;
}

/* How many copies x86c_withhold() makes. */
static int x86c_nr_narrowed(struct x86c_pmu *p)
{
	return x86c_nr_rows(p->table) + p->nr_fixed_events + 1 +
	       (p->pebs_table ? x86c_nr_rows(p->pebs_table) + 1 : 0);
}

/*
 * The counters an event's code may use: a topdown metric's own index
 * first, then the family's table, then the
 * fixed counters' events, which may use any general-purpose counter
 * too, then any general-purpose counter.  A precise event (@precise)
 * of a PMU that places some of those by a table of their own: that
 * table's row; else, at PEBS format 3, @pebs_any, as the hardware
 * samples precisely on those counters alone, and at format 4, where
 * every counter does, what the event would take without precise_ip.  Where that names a
 * counter x86c_withhold() holds back, its narrowed copy instead.
 */
static struct event_constraint *x86c_code_constraint(struct x86c_pmu *p,
						     u64 config, bool precise)
{
	struct event_constraint *c;
	int i;

	i = x86c_metric_of(p, config);
	if (i >= 0)
		return &p->metric[i];

	if (precise && p->pebs_table) {
		for (c = p->pebs_table; c->cmask; c++)
			if (constraint_match(c, config))
				goto found;
		c = &p->pebs_any;
		if (p->pebs_format != 4)
			goto found;
	}
	for (c = p->table; c && c->cmask; c++)
		if (constraint_match(c, config))
			goto found;
	for (c = p->fixed; c < p->fixed + p->nr_fixed_events; c++)
		if (constraint_match(c, config))
			goto found;
	c = &p->any_gp;
found:
	/* Pairs with the release in x86c_withhold(): the copies are set. */
	if (unlikely(c->idxmsk64 & smp_load_acquire(&p->withheld)))
		return &p->narrowed[x86c_narrowed_at(p, c)];
	return c;
}

/* Intel's checkpointed events: general-purpose counter 2, or none. */
static struct event_constraint x86c_counter2 = X86C_CONSTRAINT(0, 0, BIT_ULL(2));
static struct event_constraint x86c_no_counter = X86C_CONSTRAINT(0, 0, 0);
/* The counters of the precise distribution (enum x86c_pdist) */
static struct event_constraint x86c_pdist_counter0 =
	X86C_CONSTRAINT(0, 0, BIT_ULL(0));
static struct event_constraint x86c_pdist_counter1 =
	X86C_CONSTRAINT(0, 0, BIT_ULL(1));
static struct event_constraint x86c_pdist_counters01 =
	X86C_CONSTRAINT(0, 0, GENMASK_ULL(1, 0));
static struct event_constraint x86c_pdist_fixed0 =
	X86C_FIXED_ONLY_CONSTRAINT(0x00c0, 0);
static struct event_constraint x86c_pdist_fixed0_counter0 =
	X86C_CONSTRAINT(0, 0, BIT_ULL(INTEL_PMC_IDX_FIXED) | BIT_ULL(0));
static struct event_constraint x86c_pdist_fixed0_counters01 =
	X86C_CONSTRAINT(0, 0, BIT_ULL(INTEL_PMC_IDX_FIXED) | GENMASK_ULL(1, 0));
/* Instructions with their retire latency: anywhere but fixed 0 and 0 */
static struct event_constraint x86c_pdist_counters1_7 =
	X86C_CONSTRAINT(0, 0, GENMASK_ULL(7, 1));

/*
 * Where precise_ip 3 puts an event of @config that would otherwise use
 * @c, by the precise distribution @pdist (enum x86c_pdist, not NONE).
 */
static struct event_constraint *x86c_pdist_constraint(u8 pdist, u64 config,
						      struct event_constraint *c)
{
	bool insns = constraint_match(&x86c_pdist_fixed0, config);

	switch (pdist) {
	case X86C_PDIST_FIXED0:
		return insns ? &x86c_pdist_fixed0 : c;
	case X86C_PDIST_COUNTER0:
	case X86C_PDIST_COUNTER0_LATENCY:
		if (insns)
			return &x86c_pdist_fixed0;
		return c->idxmsk64 & BIT_ULL(0) ? &x86c_pdist_counter0 :
						   &x86c_no_counter;
	case X86C_PDIST_EITHER0:
		return insns ? &x86c_pdist_fixed0_counter0 :
			       &x86c_pdist_counter0;
	case X86C_PDIST_COUNTERS01:
		if (insns)
			return &x86c_pdist_fixed0_counters01;
		switch (c->idxmsk64 & GENMASK_ULL(1, 0)) {
		case BIT_ULL(0):
			return &x86c_pdist_counter0;
		case BIT_ULL(1):
			return &x86c_pdist_counter1;
		case GENMASK_ULL(1, 0):
			return &x86c_pdist_counters01;
		}
		return &x86c_no_counter;
	}
	return c;
}

/*
 * Those of @config's code (x86c_code_constraint()), except that an
 * Intel event with IN_TX_CHECKPOINTED counts on general-purpose counter
 * 2 alone, and nowhere if its code may not use that one: the hardware
 * checkpoints only that counter.  At @precise 3 those of the family's
 * precise distribution (@p->pebs_pdist), where it has one at format 4.
 */
static struct event_constraint *x86c_constraint_of(struct x86c_pmu *p,
						   u64 config, int precise)
{
	struct event_constraint *c = x86c_code_constraint(p, config, precise);

	if (unlikely(config & HSW_IN_TX_CHECKPOINTED) && p->in_tx)
		c = c->idxmsk64 & BIT_ULL(2) ? &x86c_counter2 :
					       &x86c_no_counter;
	if (unlikely(precise == 3) && p->pebs_pdist != X86C_PDIST_NONE)
		return x86c_pdist_constraint(p->pebs_pdist, config, c);
	return c;
}

/**
 * x86c_constraint - the counters an event that is not precise may use
 * @p: the PMU
 * @config: the event's control value (hwc->config)
 *
 * Return: the constraint, never NULL.
 */
struct event_constraint *x86c_constraint(struct x86c_pmu *p, u64 config)
{
	return x86c_constraint_of(p, config, 0);
}

/**
 * x86c_event_constraint - the counters an event may use
 * @p: its PMU
 * @event: the event, its control value (hwc->config) made
 *
 * As x86c_constraint(), but a precise event's where the PMU places
 * those apart.  Return: the constraint, never NULL.
 */
struct event_constraint *x86c_event_constraint(struct x86c_pmu *p,
					       struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;

	if (unlikely(p->pebs_pdist == X86C_PDIST_COUNTER0_LATENCY) &&
	    attr->precise_ip && (attr->sample_type & PERF_SAMPLE_WEIGHT_TYPE) &&
	    constraint_match(&x86c_pdist_fixed0, event->hw.config))
		return attr->precise_ip == 3 ? &x86c_no_counter :
					       &x86c_pdist_counters1_7;
	return x86c_constraint_of(p, event->hw.config, attr->precise_ip);
}

/* Serializes x86c_withhold(), of every PMU. */
static DEFINE_MUTEX(x86c_withhold_lock);

/**
 * x86c_withhold - keep general-purpose counters from every event, or
 *	give them back
 * @p: the PMU
 * @mask: the counters; 0 gives every one back
 *
 * Events that become unable to take a counter are refused from then on,
 * as upstream refuses them.  One already on a withheld counter keeps it
 * until it is scheduled again: the caller reschedules where one is.
 * The copies are made once, for the first @mask: a PMU withholds one
 * set of counters or none.  Process context.
 *
 * Return: 0, -ENOMEM, or -EINVAL for a second set.
 */
int x86c_withhold(struct x86c_pmu *p, u64 mask)
{
	struct event_constraint *c, *copies;
	int i, n = x86c_nr_narrowed(p);

	guard(mutex)(&x86c_withhold_lock);
	if (!mask || p->narrowed) {
		if (mask && p->narrowed[x86c_narrowed_at(p, &p->any_gp)].idxmsk64 !=
			    (p->any_gp.idxmsk64 & ~mask))
			return -EINVAL;
		/* Pairs with x86c_constraint()'s acquire, as below. */
		smp_store_release(&p->withheld, mask);
		return 0;
	}
	copies = kcalloc(n, sizeof(*copies), GFP_KERNEL);
	if (!copies)
		return -ENOMEM;
	i = 0;
	for (c = p->table; c && c->cmask; c++)
		copies[i++] = *c;
	for (c = p->fixed; c < p->fixed + p->nr_fixed_events; c++)
		copies[i++] = *c;
	copies[i++] = p->any_gp;
	if (p->pebs_table) {
		for (c = p->pebs_table; c->cmask; c++)
			copies[i++] = *c;
		copies[i] = p->pebs_any;
	}
	for (i = 0; i < n; i++) {
		copies[i].idxmsk64 &= ~mask;
		copies[i].weight = hweight64(copies[i].idxmsk64);
	}
	p->narrowed = copies;
	/* The copies complete before x86c_constraint() can pick one. */
	smp_store_release(&p->withheld, mask);
	return 0;
}

/*
 * The events added since the last placement beside the placed ones,
 * where those are: each in list order takes the lowest free fixed
 * counter it allows, else the lowest free general-purpose one (a paired
 * event: the lowest free one whose next one is free too).  Return:
 * whether every one found a counter (their cpu->assign[] entries are
 * written either way, and mean nothing until cpu->placed covers them).
 */
static bool x86c_fit_new(struct x86c_cpu *cpu,
			 struct event_constraint **constraint, int gpmax)
{
	u64 used = 0, allowed, gp;
	int i, idx;

	for (i = 0; i < cpu->placed; i++)
		used |= x86c_taken(constraint[i], cpu->assign[i]);
	for (i = cpu->placed; i < cpu->nr; i++) {
		const struct event_constraint *c = constraint[i];

		allowed = c->idxmsk64 & ~used;
		gp = allowed & X86C_GP_MASK;
		if (c->flags & PERF_X86_EVENT_PAIR)
			gp &= ~(used >> 1) & (X86C_GP_MASK >> 1);
		if (allowed & ~X86C_GP_MASK)
			idx = __ffs64(allowed & ~X86C_GP_MASK);
		else if (gp)
			idx = __ffs64(gp);
		else
			return false;
		used |= x86c_taken(c, idx);
		if (hweight64(used & X86C_GP_MASK) > gpmax)
			return false;
		cpu->assign[i] = idx;
	}
	return true;
}

/*
 * Counters for every event of the list, each within @constraint's entry
 * for it and at most @gpmax of them general-purpose: 0 and all placed,
 * or -EINVAL with the placed ones as they were.  The whole list is
 * placed again only when the new events do not fit beside the others:
 * that moves counters (and costs a matching), which a group that fits
 * as things are, the common case, need not pay.
 */
int x86c_place_with(struct x86c_cpu *cpu, struct event_constraint **constraint,
		    int gpmax)
{
	int assign[X86C_MAX_EVENTS];
	int i;

	if (x86c_fit_new(cpu, constraint, gpmax)) {
		cpu->placed = cpu->nr;
		return 0;
	}
	if (perf_assign_events(constraint, cpu->nr, 0, 0, gpmax, assign))
		return -EINVAL;
	for (i = 0; i < cpu->nr; i++)
		cpu->assign[i] = assign[i];
	cpu->placed = cpu->nr;
	return 0;
}

/* The list's counters, and the core's thread to share them with. */
int x86c_place(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	if (cpu->ht)
		return x86c_ht_place(p, cpu);
	return x86c_place_with(cpu, cpu->constraint, p->num_gp);
}

/*
 * The general-purpose counters the placed events use, and those of them
 * that exclusive events (PERF_X86_EVENT_EXCL) use.
 */
void x86c_placed_gp(const struct x86c_cpu *cpu, u64 *used, u64 *excl)
{
	u64 taken;
	int i;

	*used = 0;
	*excl = 0;
	for (i = 0; i < cpu->placed; i++) {
		taken = x86c_taken(cpu->constraint[i], cpu->assign[i]) &
			X86C_GP_MASK;
		*used |= taken;
		if (cpu->constraint[i]->flags & PERF_X86_EVENT_EXCL)
			*excl |= taken;
	}
}

/* ---- struct pmu ----------------------------------------------------- */

/*
 * A generic cache event: the cache, the operation and the result in the
 * config's low three bytes.  Out of range, or an operation the cache
 * does not have, is an invalid config; one this CPU has no event for is
 * absent.  *@config1 gets the event's extra register selection.
 */
static int x86c_cache_code(struct x86c_pmu *p, u64 config, u64 *code,
			   u64 *config1)
{
	unsigned int cache = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	const struct x86c_cache_event *e;

	if (cache >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	if (p->cache_refused & BIT(cache * PERF_COUNT_HW_CACHE_OP_MAX + op))
		return -EINVAL;
	for (e = p->cache_events; e; e = e->code ? e + 1 : e->then) {
		if (e->code && e->id == (config & 0xffffff)) {
			if (e->code == X86C_CACHE_REFUSED_CODE)
				return -EINVAL;
			*code = e->code;
			*config1 = e->config1;
			return 0;
		}
	}
	return -ENOENT;
}

/* The event code, and the selection of an extra register it may need. */
static int x86c_event_code(struct x86c_pmu *p, struct perf_event *event,
			   u64 *code, u64 *config1)
{
	u64 config = event->attr.config;

	*config1 = event->attr.config1;
	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		config &= PERF_HW_EVENT_MASK;
		if (config >= PERF_COUNT_HW_MAX)
			return -EINVAL;
		*code = p->event_map[array_index_nospec(config,
							PERF_COUNT_HW_MAX)];
		return *code ? 0 : -ENOENT;
	case PERF_TYPE_HW_CACHE:
		return x86c_cache_code(p, config, code, config1);
	default:
		*code = config & p->raw_mask;
		return 0;
	}
}

/*
 * Do @event's branch records, if it has any, go with those of the
 * group's members before it (*@first: the first with records, or NULL)?
 */
static bool x86c_br_fits(struct perf_event **first, struct perf_event *event)
{
	if (!has_branch_stack(event))
		return true;
	if (!*first)
		*first = event;
	return x86c_br_agree(*first, event);
}

/*
 * The counters @e asks for in a group's check, or NULL for a branch
 * trace, which takes none (it still counts against the group's size,
 * as upstream counts it).
 */
static struct event_constraint *x86c_group_constraint(struct x86c_pmu *p,
						      struct perf_event *e)
{
	if (unlikely(x86c_bts_shape(p, e, e->hw.sample_period)))
		return NULL;
	return x86c_event_constraint(p, e);
}

/*
 * Would the group still fit an empty PMU with @event in it?  Counted as
 * the scheduler will: the leader whatever its state, the other members
 * unless they are off.
 */
static int x86c_validate_group(struct x86c_pmu *p, struct perf_event *event)
{
	struct event_constraint *c[X86C_MAX_EVENTS + 1];
	struct perf_event *leader = event->group_leader, *sibling;
	struct perf_event *br_first = NULL;
	struct x86c_extra_state extra = {};
	int max = p->num_gp + p->num_fixed;
	int n = 0, members = 0;

	/*
	 * A new leader has no members yet, and no context either, whose
	 * mutex a walk of its members asserts: it fits if a counter can
	 * count it, which the caller checked.
	 */
	if (leader == event)
		return 0;
	if (leader->pmu == event->pmu) {
		x86c_extra_get(p, &extra, leader, false);
		x86c_br_fits(&br_first, leader);
		members++;
		c[n] = x86c_group_constraint(p, leader);
		n += !!c[n];
	}
	for_each_sibling_event(sibling, leader) {
		if (sibling->pmu != event->pmu ||
		    sibling->state <= PERF_EVENT_STATE_OFF)
			continue;
		if (members >= max ||
		    x86c_extra_get(p, &extra, sibling, false) ||
		    !x86c_br_fits(&br_first, sibling))
			return -EINVAL;
		members++;
		c[n] = x86c_group_constraint(p, sibling);
		n += !!c[n];
	}
	if (event != leader) {
		if (members >= max || x86c_extra_get(p, &extra, event, false) ||
		    !x86c_br_fits(&br_first, event))
			return -EINVAL;
		c[n] = x86c_group_constraint(p, event);
		n += !!c[n];
	}
	return perf_assign_events(c, n, 0, 0, p->num_gp, NULL) ? -EINVAL : 0;
}

/*
 * An Intel event that uses the branch records (or is bts.c's trace)
 * excludes intel_bts's events (intel/bts_aux.c) while it exists.
 */
static bool x86c_claims_branches(struct x86c_pmu *p, struct perf_event *event,
				 bool bts)
{
	return p->bts_period && (bts || has_branch_stack(event));
}

static void x86c_event_destroy(struct perf_event *event)
{
	x86c_br_free(event);
	if (event->attr.precise_ip)
		x86c_pebs_release();
	if (x86c_claims_branches(x86c_of(event), event, false))
		x86c_branch_unclaim(X86C_BRANCH_RECORDS);
}

static void x86c_bts_event_destroy(struct perf_event *event)
{
	x86c_br_free(event);
	x86c_bts_release();
	x86c_branch_unclaim(X86C_BRANCH_RECORDS);
}

/*
 * What an event keeps until it is destroyed: its claim on the branch
 * hardware, the branch trace's buffers (@bts) or a precise event's,
 * room for its call stack.  All or none.
 */
static int x86c_event_take(struct x86c_pmu *p, struct perf_event *event,
			   bool bts)
{
	bool claim = x86c_claims_branches(p, event, bts);
	int err;

	if (claim) {
		err = x86c_branch_claim(X86C_BRANCH_RECORDS);
		if (err)
			return err;
	}
	err = x86c_br_alloc(p, event);
	if (err)
		goto unclaim;
	if (bts) {
		err = x86c_bts_reserve();
		if (err)
			goto free;
		event->destroy = x86c_bts_event_destroy;
	} else if (event->attr.precise_ip) {
		err = x86c_pebs_reserve();
		if (err)
			goto free;
		event->destroy = x86c_event_destroy;
	} else if (event->pmu_private || claim) {
		event->destroy = x86c_event_destroy;
	}
	return 0;

free:
	x86c_br_free(event);
unclaim:
	if (claim)
		x86c_branch_unclaim(X86C_BRANCH_RECORDS);
	return err;
}

static int x86c_event_init(struct perf_event *event)
{
	struct x86c_pmu *p = x86c_of(event);
	struct hw_perf_event *hwc = &event->hw;
	struct event_constraint *c;
	u64 code, config1;
	bool bts;
	int err;

	/*
	 * Raw events are those of our own type: PERF_TYPE_RAW, or a hybrid
	 * part's second PMU's.
	 */
	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
	case PERF_TYPE_HW_CACHE:
		break;
	default:
		if (event->attr.type != p->pmu.type)
			return -ENOENT;
	}
	/* A hybrid PMU's CPU event on a CPU of the other kind: not ours. */
	if (p->core_type && event->cpu >= 0 &&
	    !cpumask_test_cpu(event->cpu, &p->supported))
		return -ENOENT;
	/*
	 * Without PEBS a precise event goes where the vendor sends it;
	 * with it, more precision than the PMU gives is refused first.
	 */
	if (event->attr.precise_ip && !p->pebs)
		return p->vendor->precise ? p->vendor->precise(p, event) :
					    -EOPNOTSUPP;
	if (event->attr.precise_ip > p->max_precise)
		return -EOPNOTSUPP;
	/* Branch records: the hardware's filter, what samples keep. */
	if (has_branch_stack(event)) {
		err = x86c_br_config(p, event);
		if (err)
			return err;
	}

	err = x86c_event_code(p, event, &code, &config1);
	if (err)
		return err;
	hwc->config = ARCH_PERFMON_EVENTSEL_INT | code;
	if (!event->attr.exclude_user)
		hwc->config |= ARCH_PERFMON_EVENTSEL_USR;
	if (!event->attr.exclude_kernel)
		hwc->config |= ARCH_PERFMON_EVENTSEL_OS;
	/*
	 * A period shorter than the family takes: refused, as upstream
	 * refuses it, before the vendor's own checks (the errno of an
	 * event that fails both is upstream's).
	 */
	if (is_sampling_event(event) && !event->attr.freq &&
	    x86c_event_limit(p, event, event->attr.sample_period) >
	    event->attr.sample_period)
		return -EINVAL;
	err = p->vendor->hw_config(p, event);
	if (err)
		return err;
	bts = x86c_bts_shape(p, event, hwc->sample_period);
	if (bts) {
		err = x86c_bts_check(p, event);
		if (err)
			return err;
	} else if (event->attr.precise_ip) {
		err = x86c_pebs_config(p, event);
		if (err)
			return err;
	}
	/* An event only counters this part lacks can count could never run. */
	c = x86c_event_constraint(p, event);
	if (!c->weight)
		return -EINVAL;
	if (c->flags & PERF_X86_EVENT_PAIR)
		hwc->flags |= PERF_X86_EVENT_PAIR;
	err = x86c_extra_config(p, event, config1);
	if (err)
		return err;

	hwc->idx = -1;
	if (!is_sampling_event(event)) {
		hwc->sample_period = p->max_period;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	/* A large PEBS event's count is in its records too: no RDPMC. */
	if (READ_ONCE(x86c_rdpmc_knob) &&
	    !(hwc->flags & PERF_X86_EVENT_LARGE_PEBS))
		hwc->flags |= PERF_EVENT_FLAG_USER_READ_CNT;

	err = x86c_validate_group(p, event);
	if (err)
		return err;
	/* Last: nothing may fail after them (a refused event is not destroyed). */
	return x86c_event_take(p, event, bts);
}

/*
 * PERF_EVENT_IOC_PERIOD: the new period, held to the same limit; and
 * never the branch trace's, which a counter cannot become.
 */
static int x86c_check_period(struct perf_event *event, u64 value)
{
	struct x86c_pmu *p = x86c_of(event);

	if (x86c_bts_shape(p, event, value))
		return -EINVAL;
	return x86c_event_limit(p, event, value) > value ? -EINVAL : 0;
}

/* The branch-trace event on this CPU, which no counter holds (intel/bts.c) */
static inline bool x86c_is_bts_here(struct x86c_cpu *cpu,
				    struct perf_event *event)
{
	return unlikely(cpu->bts.event == event);
}

static int x86c_add(struct perf_event *event, int flags)
{
	struct x86c_pmu *p = x86c_of(event);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);
	struct hw_perf_event *hwc = &event->hw;
	int n = cpu->nr;

	if (unlikely(p->bts && x86c_bts_shape(p, event, hwc->sample_period)))
		return x86c_bts_add(p, cpu, event, flags);
	if (x86c_share_add(p, cpu, event, flags))
		return 0;
	if (n >= X86C_MAX_EVENTS)
		return -EINVAL;
	/* First its extra register: taking the other one changes its code. */
	if (x86c_extra_get(p, &cpu->extra, event, true))
		return -EINVAL;
	if (x86c_br_get(p, cpu, event)) {
		x86c_extra_put(p, &cpu->extra, event);
		return -EINVAL;
	}
	cpu->events[n] = event;
	cpu->constraint[n] = x86c_event_constraint(p, event);
	cpu->nr = n + 1;
	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED;
	if (!(flags & PERF_EF_START))
		hwc->state |= PERF_HES_ARCH;

	if (cpu->txn)
		return 0;
	if (x86c_place(p, cpu)) {
		cpu->nr = n;
		x86c_extra_put(p, &cpu->extra, event);
		x86c_br_put(p, cpu, event);
		return -EINVAL;
	}
	x86c_apply_soon(p, cpu);
	return 0;
}

static void x86c_del(struct perf_event *event, int flags)
{
	struct x86c_pmu *p = x86c_of(event);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);
	int idx = event->hw.idx;
	int i;

	if (x86c_is_bts_here(cpu, event)) {
		x86c_bts_del(p, cpu, event);
		return;
	}
	if (unlikely(cpu->share.nr) && x86c_share_del(p, cpu, event))
		return;
	for (i = 0; i < cpu->nr; i++)
		if (cpu->events[i] == event)
			break;
	if (WARN_ON_ONCE(i == cpu->nr))
		return;

	x86c_stop(p, cpu, event, PERF_EF_UPDATE);
	x86c_extra_put(p, &cpu->extra, event);
	x86c_br_put(p, cpu, event);
	if (idx >= 0 && cpu->owner[idx] == event) {
		cpu->owner[idx] = NULL;
		cpu->owned &= ~BIT_ULL(idx);
	}
	/* The others keep their counters: the order is all that changes. */
	if (i < cpu->placed)
		cpu->placed--;
	cpu->nr--;
	for (; i < cpu->nr; i++) {
		cpu->events[i] = cpu->events[i + 1];
		cpu->constraint[i] = cpu->constraint[i + 1];
		cpu->assign[i] = cpu->assign[i + 1];
	}
	if (cpu->ht)
		x86c_ht_publish(cpu);
	perf_event_update_userpage(event);
}

static void x86c_start(struct perf_event *event, int flags)
{
	struct x86c_pmu *p = x86c_of(event);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);
	struct hw_perf_event *hwc = &event->hw;

	if (unlikely(perf_share_is_rider(event))) {
		x86c_share_start(p, cpu, event);
		return;
	}
	if (x86c_is_bts_here(cpu, event)) {
		x86c_bts_start(p, cpu, event);
		return;
	}
	if (hwc->idx < 0 || cpu->owner[hwc->idx] != event) {
		/* Placed, not programmed: the next pmu_enable starts it. */
		hwc->state &= ~PERF_HES_ARCH;
		return;
	}
	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	x86c_start_on(p, cpu, event, flags);
}

static void x86c_stop_event(struct perf_event *event, int flags)
{
	struct x86c_pmu *p = x86c_of(event);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (unlikely(cpu->share.nr) && x86c_share_stop(p, cpu, event))
		return;
	if (x86c_is_bts_here(cpu, event)) {
		x86c_bts_stop(p, cpu, event);
		return;
	}
	x86c_stop(p, cpu, event, flags);
}

static void x86c_read(struct perf_event *event)
{
	struct x86c_pmu *p = x86c_of(event);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);
	int idx = event->hw.idx;

	/* A stopped rider's counter counts for others. */
	if (unlikely(perf_share_is_rider(event)) &&
	    !perf_share_counting(event))
		return;

	/* A branch trace counts nothing: its samples are its output. */
	if (x86c_is_bts_here(cpu, event))
		return;
	/* Periods its counter reloaded from the store are in its records. */
	if (unlikely(event->hw.flags & PERF_X86_EVENT_AUTO_RELOAD) &&
	    idx >= 0 && cpu->owner[idx] == event &&
	    (cpu->running & BIT_ULL(idx)))
		x86c_pebs_read(p, cpu);
	x86c_event_update(p, event);
}

/*
 * On a hybrid part a task context holds events of both PMUs, and the
 * core switches each PMU of the context on and off on every CPU the
 * task runs on (only placing an event asks pmu.filter): a PMU must not
 * touch the other kind's counters.
 */
static inline bool x86c_elsewhere(struct x86c_pmu *p)
{
	return static_branch_unlikely(&x86c_hybrid) && x86c_here() != p;
}

static void x86c_pmu_enable(struct pmu *pmu)
{
	struct x86c_pmu *p = container_of(pmu, struct x86c_pmu, pmu);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (!cpu->disabled || x86c_elsewhere(p))
		return;
	if (cpu->moved)
		x86c_apply(p, cpu);
	cpu->disabled = false;
	p->vendor->enable_all(p, cpu);
}

static void x86c_pmu_disable(struct pmu *pmu)
{
	struct x86c_pmu *p = container_of(pmu, struct x86c_pmu, pmu);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (cpu->disabled || x86c_elsewhere(p))
		return;
	cpu->disabled = true;
	p->vendor->disable_all(p, cpu);
}

/*
 * Only registered where branch records or the vendor have a use for
 * task switches, and only called on a CPU where an event asked for them
 * (perf_sched_cb_inc()).
 */
static void x86c_sched_task(struct perf_event_pmu_context *pmu_ctx,
			    struct task_struct *task, bool sched_in)
{
	struct x86c_pmu *p = container_of(pmu_ctx->pmu, struct x86c_pmu, pmu);

	if (sched_in)
		x86c_br_sched_in(p, this_cpu_ptr(p->cpus), task);
	else
		x86c_br_sched_out(p, this_cpu_ptr(p->cpus), task);
	if (p->vendor->sched_task)
		p->vendor->sched_task(p, pmu_ctx, task, sched_in);
}

/*
 * Transactions: a group's events are appended by add() and placed
 * together at commit, so that a group either fits as a whole or leaves
 * the list as it was.  Only PERF_PMU_TXN_ADD is worth batching.
 */
static void x86c_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	struct x86c_pmu *p = container_of(pmu, struct x86c_pmu, pmu);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (txn_flags & ~PERF_PMU_TXN_ADD)
		return;
	perf_pmu_disable(pmu);
	cpu->txn = true;
}

static int x86c_commit_txn(struct pmu *pmu)
{
	struct x86c_pmu *p = container_of(pmu, struct x86c_pmu, pmu);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (!cpu->txn)
		return 0;
	if (x86c_place(p, cpu))
		return -EINVAL;
	cpu->txn = false;
	x86c_apply_soon(p, cpu);
	perf_pmu_enable(pmu);
	return 0;
}

static void x86c_cancel_txn(struct pmu *pmu)
{
	struct x86c_pmu *p = container_of(pmu, struct x86c_pmu, pmu);
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (!cpu->txn)
		return;
	/* The events the transaction added and del() has not taken. */
	while (cpu->nr > cpu->placed) {
		struct perf_event *event = cpu->events[--cpu->nr];

		x86c_extra_put(p, &cpu->extra, event);
		x86c_br_put(p, cpu, event);
	}
	cpu->txn = false;
	perf_pmu_enable(pmu);
}

/* ---- probe and bring-up --------------------------------------------- */

/**
 * x86c_init_limits - derive masks, periods and the fixed events' constraints
 * @p: a PMU whose driver filled the counts, width and MSRs
 *
 * The fixed constraints come in with only their fixed counter; those
 * events may take any general-purpose counter as well, except the
 * pseudo-events no general-purpose counter can count (a code whose
 * event select is 0).
 */
void x86c_init_limits(struct x86c_pmu *p)
{
	u64 gp = GENMASK_ULL(p->num_gp - 1, 0);
	struct event_constraint *c;
	int i;

	p->cntval_mask = GENMASK_ULL(p->width - 1, 0);
	if (!p->max_period)
		p->max_period = p->cntval_mask >> 1;
	p->all_mask = gp;
	for (i = 0; i < p->nr_fixed_events; i++) {
		c = &p->fixed[i];
		p->all_mask |= c->idxmsk64;
		if (c->code & ARCH_PERFMON_EVENTSEL_EVENT)
			c->idxmsk64 |= gp;
		c->weight = hweight64(c->idxmsk64);
	}
	p->any_gp.idxmsk64 = gp;
	p->any_gp.weight = p->num_gp;
	for (i = 0; i < p->nr_metrics; i++)
		p->metric[i] = (struct event_constraint) {
			.idxmsk64 = BIT_ULL(INTEL_PMC_IDX_METRIC_BASE + i),
			.code = INTEL_TD_METRIC_RETIRING + (i << 8),
			.cmask = ARCH_PERFMON_EVENTSEL_EVENT |
				 ARCH_PERFMON_EVENTSEL_UMASK,
			.weight = 1,
		};

	/*
	 * A family's table names up to X86C_MAX_GP counters; fewer may be
	 * there.  Not yet where a CPU of the PMU's kind is still to say
	 * how many: narrowing cannot be undone.
	 */
	for (c = p->table; c && c->cmask && !p->shape_pending; c++) {
		c->idxmsk64 &= p->all_mask;
		c->weight = hweight64(c->idxmsk64);
	}
}

/**
 * x86c_counters_work - do the counters keep what is written to them
 * @p: the probed PMU
 *
 * A hypervisor that advertises counters but ignores their MSRs (QEMU
 * without a PMU model, some others) would have us count nothing in
 * silence: write the first counter and read it back.  The value written
 * is below 2^16 and differs from what the counter held, so it reads
 * back the same through either kind of write: a full-width one, or the
 * legacy 32-bit one that sign-extends bit 31 (which a value derived
 * from the old count would make differ).  The old count is put back as
 * far as the write allows; nothing counts yet.
 *
 * Firmware that keeps a counter enabled for itself is said once: our
 * events would overwrite it, and it may overwrite ours.
 *
 * Return: true if the counter holds the value.
 */
bool x86c_counters_work(struct x86c_pmu *p)
{
	u64 old, val, probe, ctl;
	int i;

	for (i = 0; i < p->num_gp; i++) {
		if (p->hw->read_msr_safe(p->gp_ctl + i * p->gp_stride, &ctl))
			return false;
		if (ctl & ARCH_PERFMON_EVENTSEL_ENABLE)
			pr_warn_once(FW_BUG "perf/x86: counter %d is in use by the firmware (control %#llx); its counts and ours may be wrong\n",
				     i, ctl);
	}
	if (p->hw->read_msr_safe(p->gp_ctr, &old))
		return false;
	probe = (old & 0xffff) ^ 0xabcd;
	if (p->hw->write_msr_safe(p->gp_ctr, probe) ||
	    p->hw->read_msr_safe(p->gp_ctr, &val))
		return false;
	p->hw->write_msr_safe(p->gp_ctr, old);
	return val == probe;
}

/*
 * Every counter's control cleared and its overflow acknowledged: what
 * was left programmed (by firmware, a previous kernel, a bug) stops.
 */
static void x86c_clear_counters(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	int idx;

	for (idx = 0; idx < X86_PMC_IDX_MAX; idx++)
		if (p->all_mask & BIT_ULL(idx))
			p->vendor->unprogram(p, cpu, idx);
	/*
	 * Only the counters' own bits: the other bits of Intel's
	 * GLOBAL_OVF_CTRL and AMD's GLOBAL_STATUS_CLR are reserved or
	 * belong to features this PMU may lack, and the CPU (and KVM)
	 * raise #GP on a reserved one.
	 */
	p->vendor->ack(p, cpu, p->all_mask);
}

/**
 * x86c_reset_running - clear this CPU's counters under its events
 * @p: the PMU
 * @cpu: this CPU's counters, with interrupts off
 *
 * For an overflow status that does not clear (pmi.c): the running
 * events stop with their counts folded, every counter is cleared, and
 * the events start again from what is left of their periods, so that
 * a counter nobody owns that keeps overflowing is silenced and ours
 * lose nothing.
 */
void x86c_reset_running(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	unsigned long running = cpu->running;
	int idx;

	for_each_set_bit(idx, &running, X86_PMC_IDX_MAX) {
		x86c_share_fold(p, cpu, cpu->owner[idx]);
		x86c_stop(p, cpu, cpu->owner[idx], PERF_EF_UPDATE);
	}
	x86c_clear_counters(p, cpu);
	for_each_set_bit(idx, &running, X86_PMC_IDX_MAX) {
		x86c_start_on(p, cpu, cpu->owner[idx], PERF_EF_RELOAD);
		x86c_share_follow(p, cpu, cpu->owner[idx]);
	}
}

/**
 * x86c_cpu_reset - put a CPU's counters in the state the framework expects
 * @p: the PMU
 * @cpu: the CPU's counters, on that CPU with interrupts off
 *
 * At CPU bring-up and resume: nothing programmed, nothing overflowed,
 * the global control on, virtualization taken as off.
 */
void x86c_cpu_reset(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	memset(cpu, 0, sizeof(*cpu));
	cpu->virt_mask = p->virt_mask;
	x86c_clear_counters(p, cpu);
	if (p->vendor->cpu_starting)
		p->vendor->cpu_starting(p, cpu);
	p->vendor->enable_all(p, cpu);
}

/**
 * x86c_size_kind - size a hybrid PMU on the first CPU of its kind
 * @p: a PMU with x86c_pmu.shape_pending
 * @cpu: this CPU, for the log
 *
 * The CPU says the kind's own counters (the vendor's kind_counters):
 * the PMU takes them, and its limits follow.  Only the running kernel's
 * PMUs log it: a KUnit model sized here is not the machine's.  No CPU of the kind was up
 * before, so no event holds one of its counters.
 */
void x86c_size_kind(struct x86c_pmu *p, unsigned int cpu)
{
	p->vendor->kind_counters(p);
	p->shape_pending = false;
	x86c_init_limits(p);
	if (x86c_is_host(p))
		pr_info("perf/x86: %s: %d general-purpose counters, %d fixed, as CPU %u says\n",
			p->name, p->num_gp, p->num_fixed, cpu);
}

/*
 * CPU bring-up: on a hybrid part the CPU's kind says its PMU.  A kind
 * neither PMU is for (a part newer than our tables) keeps the boot
 * CPU's PMU, which then counts there as on a part of one kind.
 */
static int x86c_cpu_starting(unsigned int cpu)
{
	struct x86c_pmu *p = x86c_host;

	if (static_branch_unlikely(&x86c_hybrid) &&
	    get_this_hybrid_cpu_type() == x86c_atom_pmu.core_type)
		p = &x86c_atom_pmu;
	if (unlikely(p->shape_pending))
		x86c_size_kind(p, cpu);
	if (p->core_type)
		cpumask_set_cpu(cpu, &p->supported);
	per_cpu(x86c_here_pmu, cpu) = p;
	x86c_cpu_reset(p, per_cpu_ptr(p->cpus, cpu));
	x86c_ht_attach(p, cpu);
	perf_events_lapic_init();
	return 0;
}

static int x86c_cpu_dying(unsigned int cpu)
{
	struct x86c_pmu *p = per_cpu(x86c_here_pmu, cpu);

	if (p && p->core_type)
		cpumask_clear_cpu(cpu, &p->supported);
	return 0;
}

/* A hybrid PMU's events are not placed on the other kind's CPUs. */
static bool x86c_filter(struct pmu *pmu, int cpu)
{
	struct x86c_pmu *p = container_of(pmu, struct x86c_pmu, pmu);

	return !cpumask_test_cpu(cpu, &p->supported);
}

/**
 * x86c_pmu_is_ours - is @pmu one of this driver's PMUs
 * @pmu: any PMU
 */
bool x86c_pmu_is_ours(const struct pmu *pmu)
{
	return pmu->event_init == x86c_event_init;
}

/**
 * x86c_register - register a probed PMU
 * @p: filled by a vendor probe
 *
 * The first registered is PERF_TYPE_RAW, where PERF_TYPE_HARDWARE and
 * PERF_TYPE_HW_CACHE events without a PMU type in their config go; a
 * hybrid part's second gets a type of its own.  Hybrid PMUs take a PMU
 * type in config[63:32] of those (perf's cpu_atom/cycles/).
 *
 * Return: 0 or a negative errno.
 */
int x86c_register(struct x86c_pmu *p)
{
	p->pmu = (struct pmu) {
		.task_ctx_nr	= perf_hw_context,
		.pmu_enable	= x86c_pmu_enable,
		.pmu_disable	= x86c_pmu_disable,
		.event_init	= x86c_event_init,
		.check_period	= x86c_check_period,
		.add		= x86c_add,
		.del		= x86c_del,
		.start		= x86c_start,
		.stop		= x86c_stop_event,
		.read		= x86c_read,
		.start_txn	= x86c_start_txn,
		.commit_txn	= x86c_commit_txn,
		.cancel_txn	= x86c_cancel_txn,
		.event_idx	= x86c_event_idx,
		.event_mapped	= x86c_event_mapped,
		.event_unmapped	= x86c_event_unmapped,
		.attr_groups	= x86c_attr_groups,
		.capabilities	= PERF_PMU_CAP_SHARE_COUNTERS,
	};
	if (p->vendor->sched_task || p->lbr.nr)
		p->pmu.sched_task = x86c_sched_task;
	if (p->core_type) {
		p->pmu.capabilities |= PERF_PMU_CAP_EXTENDED_HW_TYPE;
		p->pmu.filter = x86c_filter;
	}
	return perf_pmu_register(&p->pmu, p->name ?: "cpu",
				 p == x86c_host ? PERF_TYPE_RAW : -1);
}

/* The E-core PMU of a hybrid part, after the boot CPU's. */
static void __init x86c_register_atom(struct x86c_pmu *p)
{
	int err = x86c_register(p);

	if (err) {
		pr_err("perf/x86: cannot register %s: %d; no hardware events on its CPUs\n",
		       p->name, err);
		return;
	}
	pr_info("perf/x86: %s %s, %d general-purpose counters, %d fixed\n",
		p->vendor->name, p->name, p->num_gp, p->num_fixed);
}

static int __init x86c_init(void)
{
	struct x86c_pmu *p = &x86c_host_pmu;
	int err;

	p->hw = &x86c_native_hw;
	p->cpus = &x86c_host_cpus;
	switch (boot_cpu_data.x86_vendor) {
	case X86_VENDOR_INTEL:
		err = x86c_intel_probe(p, &x86c_atom_pmu);
		break;
	case X86_VENDOR_AMD:
	case X86_VENDOR_HYGON:
		err = x86c_amd_probe(p);
		break;
	default:
		err = -ENODEV;
	}
	if (err) {
		pr_info("perf/x86: no core counters this driver knows, software events only\n");
		return 0;
	}
	x86c_init_limits(p);
	if (!x86c_counters_work(p)) {
		pr_info("perf/x86: %s: the counters do not keep what is written to them (a hypervisor without a PMU?), software events only\n",
			p->vendor->name);
		return 0;
	}

	x86c_host = p;
	x86c_sysfs_init(p);
	if (x86c_atom_pmu.core_type) {
		/* Before any CPU comes up: bring-up picks the PMU. */
		x86c_init_limits(&x86c_atom_pmu);
		x86c_sysfs_init(&x86c_atom_pmu);
		static_branch_enable(&x86c_hybrid);
	}
	err = x86c_pmi_init(p);
	if (!err)
		err = cpuhp_setup_state(CPUHP_AP_PERF_X86_STARTING,
					"perf/x86:starting", x86c_cpu_starting,
					x86c_cpu_dying);
	if (!err)
		err = x86c_register(p);
	if (err) {
		x86c_host = NULL;
		pr_err("perf/x86: cannot register the cpu PMU: %d\n", err);
		return 0;
	}
	pr_info("perf/x86: %s%s%s (%s), %d general-purpose counters, %d fixed, %d bits wide, max period %#llx\n",
		p->vendor->name, p->core_type ? " " : "",
		p->core_type ? p->name : "", p->family_name ?: "no family table",
		p->num_gp, p->num_fixed, p->width, p->max_period);
	if (static_branch_unlikely(&x86c_hybrid))
		x86c_register_atom(&x86c_atom_pmu);
	if (p->lbr.nr)
		static_call_update(perf_snapshot_branch_stack, x86c_br_snapshot);
	return 0;
}
early_initcall(x86c_init);
