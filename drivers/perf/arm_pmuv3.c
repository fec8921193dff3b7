// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the Arm PMUv3 driver (Armv8.0 to Armv9), on the Arm CPU PMU
 * framework (arm_pmu.c).
 *
 * The counters: PMCR_EL0.N event counters (indices 0 to N-1), the
 * cycle counter (index 31) and, with FEAT_PMUv3_ICNTR, the instruction
 * counter (index 32).  Event counters are 32 bits wide up to PMUv3p4
 * and 64 bits from PMUv3p5 (PMCR_EL0.LP, which we always set there);
 * the cycle counter is 64 bits (PMCR_EL0.LC).
 *
 * Widths.  An event asks for a 64-bit count with config1 bit 0 ("long");
 * else it counts 32 bits.  A 32-bit count on a 64-bit counter is
 * "biased": the counter is loaded with the top half all ones, so it
 * overflows (and interrupts) when the low half wraps.  A 64-bit count
 * on 32-bit event counters takes a chained pair: the even counter
 * counts the event, the odd one above it counts CHAIN (the even one's
 * overflows); the pair's event sits at the odd index, which alone
 * raises the interrupt.  counters_for() says which counters an event
 * may take; the framework places it.
 *
 * User-space reads: config1 bit 1 ("rdpmc") on a task's event, with the
 * kernel.perf_user_access sysctl on, lets the task read its counter
 * with MRS (PMUSERENR_EL0.ER and CR, set while a task context with such
 * events is on the CPU).  Such an event never takes a pair: one MRS
 * must read it whole.
 *
 * All register access goes through struct armv8pmu_hw_ops, so a KUnit
 * model can stand in for the registers.
 */
#define pr_fmt(fmt) "hw perfevents: " fmt

#include <linux/perf/arm_pmu.h>
#include <linux/perf/arm_pmuv3.h>
#include <linux/acpi.h>
#include <linux/bitfield.h>
#include <linux/nmi.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/sched_clock.h>
#include <linux/smp.h>
#include <linux/sysctl.h>
#include <clocksource/arm_arch_timer.h>
#include <kvm/arm_pmu.h>
#include <asm/arm_pmuv3.h>
#include <asm/irq_regs.h>
#include <asm/kvm_host.h>
#include <asm/virt.h>

#include "arm_brbe.h"

/* ---- register access ---------------------------------------------- */

/**
 * struct armv8pmu_hw_ops - the driver's only access to PMU registers
 * @pmcr: read PMCR_EL0
 * @set_pmcr: write it
 * @counter: read counter @idx (an event counter, 31 the cycle counter,
 *	32 the instruction counter)
 * @set_counter: write it
 * @set_type: write what counter @idx counts (PMEVTYPER<n>_EL0,
 *	PMCCFILTR_EL0 or PMICFILTR_EL0)
 * @count_on: PMCNTENSET_EL0: let the counters in @mask count
 * @count_off: PMCNTENCLR_EL0
 * @irq_on: PMINTENSET_EL0: their overflows interrupt
 * @irq_off: PMINTENCLR_EL0
 * @overflows: PMOVSCLR_EL0: the counters that overflowed
 * @clear_overflows: write PMOVSCLR_EL0
 * @set_userenr: PMUSERENR_EL0 (through KVM while a guest's is loaded)
 * @brbe: the branch record buffer's registers (arm_brbe.h), where the
 *	PMU has branch records
 */
struct armv8pmu_hw_ops {
	u64	(*pmcr)(void);
	void	(*set_pmcr)(u64 val);
	u64	(*counter)(int idx);
	void	(*set_counter)(int idx, u64 val);
	void	(*set_type)(int idx, u64 val);
	void	(*count_on)(u64 mask);
	void	(*count_off)(u64 mask);
	void	(*irq_on)(u64 mask);
	void	(*irq_off)(u64 mask);
	u64	(*overflows)(void);
	void	(*clear_overflows)(u64 mask);
	void	(*set_userenr)(u64 val);
	const struct brbe_hw_ops *brbe;
};

static u64 armv8pmu_native_counter(int idx)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		return read_pmccntr();
	if (idx == ARMV8_PMU_INSTR_IDX)
		return read_pmicntr();
	return read_pmevcntrn(idx);
}

static void armv8pmu_native_set_counter(int idx, u64 val)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		write_pmccntr(val);
	else if (idx == ARMV8_PMU_INSTR_IDX)
		write_pmicntr(val);
	else
		write_pmevcntrn(idx, val);
}

static void armv8pmu_native_set_type(int idx, u64 val)
{
	if (idx == ARMV8_PMU_CYCLE_IDX)
		write_pmccfiltr(val);
	else if (idx == ARMV8_PMU_INSTR_IDX)
		write_pmicfiltr(val);
	else
		write_pmevtypern(idx, val);
}

static void armv8pmu_native_set_pmcr(u64 val)
{
	/* Configuration written before must take effect first. */
	isb();
	write_pmcr(val);
}

static void armv8pmu_native_count_on(u64 mask)
{
	/* The counters' types must be in place before they count. */
	isb();
	write_pmcntenset(mask);
}

static void armv8pmu_native_count_off(u64 mask)
{
	write_pmcntenclr(mask);
	/* Stopped before anything reprograms them. */
	isb();
}

static void armv8pmu_native_irq_off(u64 mask)
{
	write_pmintenclr(mask);
	isb();
}

static void armv8pmu_native_clear_overflows(u64 mask)
{
	write_pmovsclr(mask);
	isb();
}

static void armv8pmu_native_set_userenr(u64 val)
{
	lockdep_assert_irqs_disabled();
	/* While a vCPU's PMUSERENR is loaded, KVM keeps the host's. */
	if (!kvm_set_pmuserenr(val))
		write_pmuserenr(val);
}

static const struct armv8pmu_hw_ops armv8pmu_native_hw = {
	.pmcr		= read_pmcr,
	.set_pmcr	= armv8pmu_native_set_pmcr,
	.counter	= armv8pmu_native_counter,
	.set_counter	= armv8pmu_native_set_counter,
	.set_type	= armv8pmu_native_set_type,
	.count_on	= armv8pmu_native_count_on,
	.count_off	= armv8pmu_native_count_off,
	.irq_on		= write_pmintenset,
	.irq_off	= armv8pmu_native_irq_off,
	.overflows	= read_pmovsclr,
	.clear_overflows = armv8pmu_native_clear_overflows,
	.set_userenr	= armv8pmu_native_set_userenr,
#ifdef CONFIG_ARM64
	.brbe		= &brbe_native_hw,
#endif
};

/* The PMU's register access: the native one, or a KUnit model's. */
static const struct armv8pmu_hw_ops *armv8pmu_hw_of(struct arm_pmu *armpmu)
{
	return armpmu->driver_data;
}

static const struct armv8pmu_hw_ops *armv8pmu_event_hw(struct perf_event *event)
{
	return armv8pmu_hw_of(to_arm_pmu(event->pmu));
}

/* ---- the event ABI (config, config1) ------------------------------ */

/*
 * config is the event number; config1 holds the rest.  The threshold
 * control PMEVTYPER<n>_EL0.TC is split in two fields here: its low bit
 * (count) and its upper two (compare).
 */
#define ARMV8PMU_CONFIG_EVENT		GENMASK_ULL(15, 0)
#define ARMV8PMU_CONFIG1_LONG		BIT_ULL(0)
#define ARMV8PMU_CONFIG1_RDPMC		BIT_ULL(1)
#define ARMV8PMU_CONFIG1_TH_COUNT	BIT_ULL(2)
#define ARMV8PMU_CONFIG1_TH_COMPARE	GENMASK_ULL(4, 3)
#define ARMV8PMU_CONFIG1_THRESHOLD	GENMASK_ULL(16, 5)

PMU_FORMAT_ATTR(event, "config:0-15");
PMU_FORMAT_ATTR(long, "config1:0");
PMU_FORMAT_ATTR(rdpmc, "config1:1");
PMU_FORMAT_ATTR(threshold_count, "config1:2");
PMU_FORMAT_ATTR(threshold_compare, "config1:3-4");
PMU_FORMAT_ATTR(threshold, "config1:5-16");

static int sysctl_perf_user_access __read_mostly;

static bool armv8pmu_wants_long(struct perf_event *event)
{
	return event->attr.config1 & ARMV8PMU_CONFIG1_LONG;
}

static bool armv8pmu_wants_rdpmc(struct perf_event *event)
{
	return event->attr.config1 & ARMV8PMU_CONFIG1_RDPMC;
}

static u32 armv8pmu_threshold(struct perf_event_attr *attr)
{
	return FIELD_GET(ARMV8PMU_CONFIG1_THRESHOLD, attr->config1);
}

static bool armv8pmu_user_reads(struct perf_event *event)
{
	return event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT;
}

/* PMUv3p5's 64-bit event counters; AArch32 could not read their tops. */
static bool armv8pmu_long_counters(struct arm_pmu *armpmu)
{
	return IS_ENABLED(CONFIG_ARM64) && is_pmuv3p5(armpmu->pmuver);
}

/* The largest threshold PMEVTYPER<n>_EL0.TH takes (0: no FEAT_PMUv3_TH). */
static u32 armv8pmu_threshold_max(struct arm_pmu *armpmu)
{
	/* AArch32 cannot write the top half of PMEVTYPER. */
	if (IS_ENABLED(CONFIG_ARM))
		return 0;
	return BIT(FIELD_GET(ARMV8_PMU_THWIDTH, armpmu->reg_pmmir)) - 1;
}

/*
 * How an event's count sits on its counters, decided once when the event
 * is set up (armv8pmu_set_width()) and kept in hw.flags beside the
 * framework's width: a 64-bit count that an event counter gives only as
 * a chained pair, and a 32-bit count that a 64-bit event counter
 * carries biased.
 */
#define ARMV8PMU_EVT_PAIR	BIT(8)
#define ARMV8PMU_EVT_BIAS	BIT(9)
static_assert(!((ARMV8PMU_EVT_PAIR | ARMV8PMU_EVT_BIAS) & ~PERF_EVENT_FLAG_ARCH));

static void armv8pmu_set_width(struct arm_pmu *armpmu, struct perf_event *event)
{
	bool long_counters = armv8pmu_long_counters(armpmu);
	int *flags = &event->hw.flags;

	*flags &= ~(ARMPMU_EVT_64BIT | ARMV8PMU_EVT_PAIR | ARMV8PMU_EVT_BIAS);
	if (!armv8pmu_wants_long(event)) {
		if (long_counters)
			*flags |= ARMV8PMU_EVT_BIAS;
		return;
	}
	*flags |= ARMPMU_EVT_64BIT;
	/* One MRS reads a user-read event: it never takes a pair. */
	if (!long_counters && !armv8pmu_user_reads(event))
		*flags |= ARMV8PMU_EVT_PAIR;
}

/* On an event counter, a pair; the cycle counter is 64 bits itself. */
static bool armv8pmu_chained(struct perf_event *event)
{
	return (event->hw.flags & ARMV8PMU_EVT_PAIR) &&
	       event->hw.idx < ARMV8_PMU_MAX_GENERAL_COUNTERS;
}

/* A 32-bit count on a 64-bit counter: the top half is kept all ones. */
static bool armv8pmu_biased(struct perf_event *event)
{
	if (event->hw.flags & ARMPMU_EVT_64BIT)
		return false;
	return (event->hw.flags & ARMV8PMU_EVT_BIAS) ||
	       event->hw.idx >= ARMV8_PMU_MAX_GENERAL_COUNTERS;
}

/* ---- counters ----------------------------------------------------- */

static u64 armv8pmu_read_counter(struct perf_event *event)
{
	const struct armv8pmu_hw_ops *hw = armv8pmu_event_hw(event);
	int idx = event->hw.idx;
	u64 hi, lo;

	if (!armv8pmu_chained(event)) {
		lo = hw->counter(idx);
		return armv8pmu_biased(event) ? lower_32_bits(lo) : lo;
	}
	/* The low half may carry into the high one between two reads. */
	do {
		hi = hw->counter(idx);
		lo = hw->counter(idx - 1);
	} while (hw->counter(idx) != hi);
	return hi << 32 | lower_32_bits(lo);
}

static void armv8pmu_write_counter(struct perf_event *event, u64 val)
{
	const struct armv8pmu_hw_ops *hw = armv8pmu_event_hw(event);
	int idx = event->hw.idx;

	if (armv8pmu_biased(event))
		val |= GENMASK_ULL(63, 32);
	if (armv8pmu_chained(event)) {
		hw->set_counter(idx - 1, lower_32_bits(val));
		hw->set_counter(idx, upper_32_bits(val));
	} else {
		hw->set_counter(idx, val);
	}
}

/* The counters an event's count uses: both of a pair. */
static u64 armv8pmu_counter_bits(struct perf_event *event)
{
	int idx = event->hw.idx;

	return armv8pmu_chained(event) ? BIT_ULL(idx) | BIT_ULL(idx - 1) :
					 BIT_ULL(idx);
}

/*
 * Write a counter's type, unless it holds that type already: a task
 * switch hands each counter to the next task's event, which counts the
 * same thing more often than not.  On VHE, KVM rewrites the type of a
 * counter whose event counts only for the host or only for guests
 * (exclude_host != exclude_guest) as vCPUs load and put: its type is
 * not known after it.
 */
static void armv8pmu_set_type(const struct armv8pmu_hw_ops *hw,
			      struct pmu_hw_events *cpuc, int idx, u64 type,
			      bool kvm_switches)
{
	if (cpuc->types[idx] == type)
		return;
	hw->set_type(idx, type);
	cpuc->types[idx] = kvm_switches ? U64_MAX : type;
}

/* What the event's counter's type register holds (hw.config_base's part). */
static u64 armv8pmu_type_of(struct perf_event *event)
{
	u64 keep = ARMV8_PMU_EVTYPE_EVENT | ARMV8_PMU_INCLUDE_EL2 |
		   ARMV8_PMU_EXCLUDE_EL0 | ARMV8_PMU_EXCLUDE_EL1;

	if (IS_ENABLED(CONFIG_ARM64))
		keep |= ARMV8_PMU_EVTYPE_TC | ARMV8_PMU_EVTYPE_TH;
	return event->hw.config_base & keep;
}

/* This CPU's counters, with the driver's records of its enables. */
static struct pmu_hw_events *armv8pmu_cpuc(struct perf_event *event)
{
	return this_cpu_ptr(to_arm_pmu(event->pmu)->hw_events);
}

/*
 * Bring the counters' enables to what the events want, one write each
 * way: at start, or at once when the PMU is not held stopped.  A
 * counter handed from one event to the next inside pmu_disable is left
 * enabled, so a context switch between two tasks whose events take
 * the same counters writes no enable at all.
 */
static void armv8pmu_sync_counting(const struct armv8pmu_hw_ops *hw,
				   struct pmu_hw_events *cpuc)
{
	u64 off = cpuc->counting & ~cpuc->to_count;
	u64 on = cpuc->to_count & ~cpuc->counting;

	if (off) {
		hw->count_off(off);
		/* What they raised before they stopped is nobody's now. */
		hw->clear_overflows(off);
	}
	if (on)
		hw->count_on(on);
	cpuc->counting = cpuc->to_count;
}

static void armv8pmu_set_counting(const struct armv8pmu_hw_ops *hw,
				  struct pmu_hw_events *cpuc, u64 to_count)
{
	cpuc->to_count = to_count;
	if (!cpuc->stopped)
		armv8pmu_sync_counting(hw, cpuc);
}

/*
 * Let @irq interrupt and keep @quiet from it.  An interrupt enable
 * stays set when its counter's event goes: a counter that does not
 * count cannot overflow, and the next event on it wants it again.
 */
static void armv8pmu_set_irqs(const struct armv8pmu_hw_ops *hw,
			      struct pmu_hw_events *cpuc, u64 irq, u64 quiet)
{
	if (cpuc->irqs_on & quiet) {
		hw->irq_off(cpuc->irqs_on & quiet);
		cpuc->irqs_on &= ~quiet;
	}
	if (~cpuc->irqs_on & irq) {
		hw->irq_on(irq);
		cpuc->irqs_on |= irq;
	}
}

/* Does KVM rewrite the event's type (armv8pmu_set_type())? */
static bool armv8pmu_kvm_switches(struct perf_event *event)
{
	return event->attr.exclude_host != event->attr.exclude_guest;
}

/*
 * Give the event's counter (a pair's two) its type and interrupt.  Out
 * of line: at a task switch the next task's event on a counter mostly
 * counts what the last one did, and the interrupt enable stays, so
 * armv8pmu_enable() seldom needs this.
 */
static noinline void armv8pmu_prepare(const struct armv8pmu_hw_ops *hw,
				      struct pmu_hw_events *cpuc,
				      struct perf_event *event)
{
	u64 bits = armv8pmu_counter_bits(event);
	bool kvm_switches = armv8pmu_kvm_switches(event);
	u64 irq = BIT_ULL(event->hw.idx);
	int idx = event->hw.idx;

	if (armv8pmu_chained(event)) {
		/* The high half counts the low one's overflows, at any EL. */
		armv8pmu_set_type(hw, cpuc, idx - 1, armv8pmu_type_of(event),
				  kvm_switches);
		armv8pmu_set_type(hw, cpuc, idx, ARMV8_PMUV3_PERFCTR_CHAIN |
				  ARMV8_PMU_INCLUDE_EL2, false);
	} else {
		armv8pmu_set_type(hw, cpuc, idx, armv8pmu_type_of(event),
				  kvm_switches);
	}
	/* A pair's low half wraps every 2^32: only the high half's ends it. */
	armv8pmu_set_irqs(hw, cpuc, irq, bits & ~irq);
}

/*
 * Program one counter and let it count (at the PMU's start when it is
 * held stopped).  Its value was loaded just before.
 */
static void armv8pmu_enable(struct perf_event *event)
{
	const struct armv8pmu_hw_ops *hw = armv8pmu_event_hw(event);
	struct pmu_hw_events *cpuc = armv8pmu_cpuc(event);
	u64 bits = armv8pmu_counter_bits(event);
	int idx = event->hw.idx;

	if (armv8pmu_chained(event) ||
	    cpuc->types[idx] != armv8pmu_type_of(event) ||
	    !(cpuc->irqs_on & BIT_ULL(idx)))
		armv8pmu_prepare(hw, cpuc, event);

	kvm_set_pmu_events(bits, &event->attr);
	/* A guest-only event is switched by KVM at guest entry and exit. */
	if (!kvm_pmu_counter_deferred(&event->attr))
		armv8pmu_set_counting(hw, cpuc, cpuc->to_count | bits);
}

static void armv8pmu_disable(struct perf_event *event)
{
	struct pmu_hw_events *cpuc = armv8pmu_cpuc(event);
	u64 bits = armv8pmu_counter_bits(event);

	kvm_clr_pmu_events(bits);
	armv8pmu_set_counting(armv8pmu_event_hw(event), cpuc,
			      cpuc->to_count & ~bits);
}

/* ---- the whole PMU ------------------------------------------------ */

static void armv8pmu_set_userenr(const struct armv8pmu_hw_ops *hw,
				 struct pmu_hw_events *cpuc, u64 val)
{
	if (cpuc->user_access == val)
		return;
	hw->set_userenr(val);
	cpuc->user_access = val;
}

static void armv8pmu_user_access(struct arm_pmu *armpmu, bool on)
{
	const struct armv8pmu_hw_ops *hw = armv8pmu_hw_of(armpmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);
	int idx;

	if (!on) {
		armv8pmu_set_userenr(hw, cpuc, 0);
		return;
	}
	/* What other tasks left in the free counters is not this one's. */
	for_each_andnot_bit(idx, armpmu->cntr_mask, cpuc->used_mask,
			    ARMPMU_MAX_HWEVENTS)
		hw->set_counter(idx, 0);
	armv8pmu_set_userenr(hw, cpuc,
			     ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR);
}

static void armv8pmu_start(struct arm_pmu *armpmu)
{
	const struct armv8pmu_hw_ops *hw = armv8pmu_hw_of(armpmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);
	struct perf_event_context *ctx = perf_cpu_task_ctx();
	bool user_reads = sysctl_perf_user_access && ctx && ctx->nr_user;

	armv8pmu_sync_counting(hw, cpuc);
	armv8pmu_user_access(armpmu, user_reads);
	kvm_vcpu_pmu_resync_el0();
	/* Branches recorded from here, as the counters count from here. */
	if (cpuc->branch_users)
		brbe_enable(hw->brbe, cpuc);
	hw->set_pmcr((hw->pmcr() | ARMV8_PMU_PMCR_E) & ARMV8_PMU_PMCR_MASK);
}

static void armv8pmu_stop(struct arm_pmu *armpmu)
{
	const struct armv8pmu_hw_ops *hw = armv8pmu_hw_of(armpmu);

	if (this_cpu_ptr(armpmu->hw_events)->branch_users)
		brbe_disable(hw->brbe);
	hw->set_pmcr(hw->pmcr() & ~ARMV8_PMU_PMCR_E & ARMV8_PMU_PMCR_MASK);
}

/* ---- branch records (BRBE, arm_brbe.c) ---------------------------- */

static void armv8pmu_branch_read(struct arm_pmu *armpmu,
				 struct perf_event *event,
				 struct perf_branch_stack *stack)
{
	brbe_read(armv8pmu_hw_of(armpmu)->brbe, event, armpmu->branch_records,
		  stack);
}

/*
 * A task coming in must not see the last one's branches.  The core
 * calls this between a pmu_disable and a pmu_enable, and the PMU's
 * start empties the buffer (brbe_enable()): what the callback is for is
 * that bracket, at a switch where no task context would stop and start
 * the PMU (a CPU-wide branch event alone).  Nothing is left to do here.
 */
static void armv8pmu_sched_task(struct perf_event_pmu_context *pmu_ctx,
				struct task_struct *task, bool sched_in)
{
}

static void armv8pmu_reset(void *info)
{
	struct arm_pmu *armpmu = info;
	const struct armv8pmu_hw_ops *hw = armv8pmu_hw_of(armpmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);
	u64 all, pmcr;

	bitmap_to_arr64(&all, armpmu->cntr_mask, ARMPMU_MAX_HWEVENTS);
	/* Enables and interrupt enables are unknown out of reset. */
	hw->count_off(all);
	hw->irq_off(all);
	hw->clear_overflows(all);
	kvm_clr_pmu_events(all);
	cpuc->counting = 0;
	cpuc->to_count = 0;
	cpuc->irqs_on = 0;
	cpuc->user_access = U64_MAX;
	memset(cpuc->types, 0xff, sizeof(cpuc->types));

	/*
	 * Reset every counter; the cycle counter overflows at 64 bits and
	 * 32-bit counts on it are biased.
	 */
	pmcr = ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_LC;
	if (armv8pmu_long_counters(armpmu))
		pmcr |= ARMV8_PMU_PMCR_LP;
	hw->set_pmcr(pmcr);

	/* Branch records are unknown out of reset too. */
	if (armpmu->branch_records) {
		brbe_disable(hw->brbe);
		hw->brbe->invalidate();
	}
}

static irqreturn_t armv8pmu_handle_irq(struct arm_pmu *armpmu)
{
	const struct armv8pmu_hw_ops *hw = armv8pmu_hw_of(armpmu);
	u64 overflowed = hw->overflows() & ARMV8_PMU_OVERFLOWED_MASK;

	hw->clear_overflows(overflowed);
	return armpmu_handle_overflow(armpmu, overflowed, get_irq_regs());
}

/*
 * Where an event may count: CPU_CYCLES on the cycle counter first, and
 * INST_RETIRED on the instruction counter (neither with a threshold,
 * which only event counters have); otherwise an event counter, or a
 * chained pair of them.  A user-read 64-bit cycles event on 32-bit
 * event counters has only the cycle counter: a pair cannot be read
 * with one MRS.
 */
static void armv8pmu_counters_for(struct arm_pmu *armpmu,
				  struct perf_event *event,
				  struct armpmu_need *need)
{
	u64 general = armpmu_counter_mask(armpmu) &
		      GENMASK_ULL(ARMV8_PMU_MAX_GENERAL_COUNTERS - 1, 0);
	u32 code = event->hw.config_base & ARMV8_PMU_EVTYPE_EVENT;
	bool plain = !armv8pmu_threshold(&event->attr);

	need->prefer = 0;
	need->pair = event->hw.flags & ARMV8PMU_EVT_PAIR;
	need->allowed = need->pair ? general & 0xaaaaaaaaULL : general;
	/* 64 bits read by one MRS: only the cycle counter has them here. */
	if ((event->hw.flags & ARMPMU_EVT_64BIT) && armv8pmu_user_reads(event) &&
	    !armv8pmu_long_counters(armpmu))
		need->allowed = 0;

	/*
	 * A counter overflow pauses BRBE, so that a sample's branch stack
	 * ends where its period did; the cycle counter's does not.
	 */
	if (has_branch_stack(event))
		return;
	if (code == ARMV8_PMUV3_PERFCTR_CPU_CYCLES && plain) {
		need->prefer = BIT_ULL(ARMV8_PMU_CYCLE_IDX);
	} else if (code == ARMV8_PMUV3_PERFCTR_INST_RETIRED && plain &&
		   (armpmu_counter_mask(armpmu) & BIT_ULL(ARMV8_PMU_INSTR_IDX)) &&
		   !armv8pmu_wants_rdpmc(event)) {
		/* User space is not told about the instruction counter. */
		need->prefer = BIT_ULL(ARMV8_PMU_INSTR_IDX);
	}
}

/* The counter index a user-space read uses, plus one; 0: no access. */
static int armv8pmu_event_idx(struct perf_event *event)
{
	if (!sysctl_perf_user_access || !armv8pmu_user_reads(event))
		return 0;
	return event->hw.idx + 1;
}

/*
 * Privilege filters.  With VHE the kernel runs at EL2, so "kernel" is
 * EL2 (and EL1 is a guest's); without it the kernel is EL1 and EL2 is
 * the hypervisor's.  exclude_idle is not something counters can do.
 */
static int armv8pmu_set_event_filter(struct hw_perf_event *hwc,
				     struct perf_event_attr *attr)
{
	struct perf_event *event = container_of(attr, struct perf_event, attr);
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	u32 th = armv8pmu_threshold(attr);
	unsigned long filter = 0;

	if (attr->exclude_idle)
		return -EOPNOTSUPP;

	if (is_kernel_in_hyp_mode()) {
		if (!attr->exclude_kernel && !attr->exclude_host)
			filter |= ARMV8_PMU_INCLUDE_EL2;
		if (attr->exclude_guest)
			filter |= ARMV8_PMU_EXCLUDE_EL1;
		if (attr->exclude_host)
			filter |= ARMV8_PMU_EXCLUDE_EL0;
	} else if (!attr->exclude_hv && !attr->exclude_host) {
		filter |= ARMV8_PMU_INCLUDE_EL2;
	}
	if (attr->exclude_kernel)
		filter |= ARMV8_PMU_EXCLUDE_EL1;
	if (attr->exclude_user)
		filter |= ARMV8_PMU_EXCLUDE_EL0;

	/* Without FEAT_PMUv3_TH the largest threshold is 0. */
	if (th > armv8pmu_threshold_max(armpmu))
		return -EINVAL;
	if (th) {
		u8 tc = FIELD_GET(ARMV8PMU_CONFIG1_TH_COMPARE, attr->config1) << 1 |
			FIELD_GET(ARMV8PMU_CONFIG1_TH_COUNT, attr->config1);

		filter |= FIELD_PREP(ARMV8_PMU_EVTYPE_TH, th) |
			  FIELD_PREP(ARMV8_PMU_EVTYPE_TC, tc);
	}
	hwc->config_base = filter;
	return 0;
}

/* ---- event numbers ------------------------------------------------ */

/* One generic event: its id as attr.config has it, and its number. */
struct armv8pmu_event_row {
	u32	id;
	u16	code;
};

#define CACHE_ID(cache, op, result) \
	(PERF_COUNT_HW_CACHE_##cache | PERF_COUNT_HW_CACHE_OP_##op << 8 | \
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/* What the architecture's common events give, where PMCEID says so. */
static const struct armv8pmu_event_row armv8pmu_generic_rows[] = {
	{ PERF_COUNT_HW_CPU_CYCLES,		0x0011 },	/* CPU_CYCLES */
	{ PERF_COUNT_HW_INSTRUCTIONS,		0x0008 },	/* INST_RETIRED */
	{ PERF_COUNT_HW_CACHE_REFERENCES,	0x0004 },	/* L1D_CACHE */
	{ PERF_COUNT_HW_CACHE_MISSES,		0x0003 },	/* L1D_CACHE_REFILL */
	{ PERF_COUNT_HW_BRANCH_MISSES,		0x0010 },	/* BR_MIS_PRED */
	{ PERF_COUNT_HW_BUS_CYCLES,		0x001d },	/* BUS_CYCLES */
	{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, 0x0023 },	/* STALL_FRONTEND */
	{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND,	0x0024 },	/* STALL_BACKEND */
	{}
};

static const struct armv8pmu_event_row armv8pmu_common_cache_rows[] = {
	{ CACHE_ID(L1D, READ, ACCESS),	0x0004 },	/* L1D_CACHE */
	{ CACHE_ID(L1D, READ, MISS),	0x0003 },	/* L1D_CACHE_REFILL */
	{ CACHE_ID(L1I, READ, ACCESS),	0x0014 },	/* L1I_CACHE */
	{ CACHE_ID(L1I, READ, MISS),	0x0001 },	/* L1I_CACHE_REFILL */
	{ CACHE_ID(DTLB, READ, ACCESS),	0x0025 },	/* L1D_TLB */
	{ CACHE_ID(DTLB, READ, MISS),	0x0005 },	/* L1D_TLB_REFILL */
	{ CACHE_ID(ITLB, READ, ACCESS),	0x0026 },	/* L1I_TLB */
	{ CACHE_ID(ITLB, READ, MISS),	0x0002 },	/* L1I_TLB_REFILL */
	{ CACHE_ID(LL, READ, ACCESS),	0x0036 },	/* LL_CACHE_RD */
	{ CACHE_ID(LL, READ, MISS),	0x0037 },	/* LL_CACHE_MISS_RD */
	{ CACHE_ID(BPU, READ, ACCESS),	0x0012 },	/* BR_PRED */
	{ CACHE_ID(BPU, READ, MISS),	0x0010 },	/* BR_MIS_PRED */
	{}
};

/* Implementation-defined cache events of particular cores. */
static const struct armv8pmu_event_row armv8pmu_a53_cache_rows[] = {
	{ CACHE_ID(L1D, PREFETCH, MISS),	0x00c2 },
	{ CACHE_ID(NODE, READ, ACCESS),		0x0060 },
	{ CACHE_ID(NODE, WRITE, ACCESS),	0x0061 },
	{}
};

static const struct armv8pmu_event_row armv8pmu_a57_cache_rows[] = {
	{ CACHE_ID(L1D, READ, ACCESS),		0x0040 },
	{ CACHE_ID(L1D, WRITE, ACCESS),		0x0041 },
	{ CACHE_ID(L1D, READ, MISS),		0x0042 },
	{ CACHE_ID(L1D, WRITE, MISS),		0x0043 },
	{ CACHE_ID(DTLB, READ, MISS),		0x004c },
	{ CACHE_ID(DTLB, WRITE, MISS),		0x004d },
	{ CACHE_ID(NODE, READ, ACCESS),		0x0060 },
	{ CACHE_ID(NODE, WRITE, ACCESS),	0x0061 },
	{}
};

static const struct armv8pmu_event_row armv8pmu_a73_cache_rows[] = {
	{ CACHE_ID(L1D, READ, ACCESS),		0x0040 },
	{ CACHE_ID(L1D, WRITE, ACCESS),		0x0041 },
	{}
};

static const struct armv8pmu_event_row armv8pmu_thunder_cache_rows[] = {
	{ CACHE_ID(L1D, READ, ACCESS),		0x0040 },
	{ CACHE_ID(L1D, WRITE, ACCESS),		0x0041 },
	{ CACHE_ID(L1D, READ, MISS),		0x0042 },
	{ CACHE_ID(L1D, WRITE, MISS),		0x00e9 },
	{ CACHE_ID(L1D, PREFETCH, ACCESS),	0x00ec },
	{ CACHE_ID(L1D, PREFETCH, MISS),	0x00ed },
	{ CACHE_ID(L1I, PREFETCH, ACCESS),	0x00ee },
	{ CACHE_ID(L1I, PREFETCH, MISS),	0x00ef },
	{ CACHE_ID(DTLB, READ, ACCESS),		0x004e },
	{ CACHE_ID(DTLB, WRITE, ACCESS),	0x004f },
	{ CACHE_ID(DTLB, READ, MISS),		0x004c },
	{ CACHE_ID(DTLB, WRITE, MISS),		0x004d },
	{}
};

static const struct armv8pmu_event_row armv8pmu_vulcan_cache_rows[] = {
	{ CACHE_ID(L1D, READ, ACCESS),		0x0040 },
	{ CACHE_ID(L1D, WRITE, ACCESS),		0x0041 },
	{ CACHE_ID(L1D, READ, MISS),		0x0042 },
	{ CACHE_ID(L1D, WRITE, MISS),		0x0043 },
	{ CACHE_ID(DTLB, READ, ACCESS),		0x004e },
	{ CACHE_ID(DTLB, WRITE, ACCESS),	0x004f },
	{ CACHE_ID(DTLB, READ, MISS),		0x004c },
	{ CACHE_ID(DTLB, WRITE, MISS),		0x004d },
	{ CACHE_ID(NODE, READ, ACCESS),		0x0060 },
	{ CACHE_ID(NODE, WRITE, ACCESS),	0x0061 },
	{}
};

/* The common events' row for @id, or -ENOENT. */
static int armv8pmu_row(const struct armv8pmu_event_row *rows, u64 id)
{
	for (; rows && rows->code; rows++)
		if (rows->id == id)
			return rows->code;
	return -ENOENT;
}

/* A cache event's id, or -EINVAL where a field is beyond the ABI's. */
static int armv8pmu_cache_id_ok(u64 config)
{
	if ((config & 0xff) >= PERF_COUNT_HW_CACHE_MAX ||
	    ((config >> 8) & 0xff) >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    ((config >> 16) & 0xff) >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	return 0;
}

/*
 * Branch instructions: BR_RETIRED where the CPU has it, else the
 * writes to the PC it retires (PC_WRITE_RETIRED), else none.
 */
static int armv8pmu_branches(struct arm_pmu *armpmu)
{
	static const u16 choices[] = {
		ARMV8_PMUV3_PERFCTR_BR_RETIRED,
		ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(choices); i++)
		if (test_bit(choices[i], armpmu->pmceid_bitmap))
			return choices[i];
	return -ENOENT;
}

/*
 * The architecture's number for a generic or raw event (a raw event is
 * its own number), before asking whether this CPU implements it.
 */
static int armv8pmu_common_code(struct arm_pmu *armpmu, struct perf_event *event)
{
	u64 config = event->attr.config;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		if (config >= PERF_COUNT_HW_MAX)
			return -EINVAL;
		if (config == PERF_COUNT_HW_BRANCH_INSTRUCTIONS)
			return armv8pmu_branches(armpmu);
		return armv8pmu_row(armv8pmu_generic_rows, config);
	case PERF_TYPE_HW_CACHE:
		return armv8pmu_cache_id_ok(config) ?:
		       armv8pmu_row(armv8pmu_common_cache_rows, config & 0xffffff);
	default:
		return config & ARMV8_PMU_EVTYPE_EVENT;
	}
}

/* Where the common events do not have it: the core's own events. */
static int armv8pmu_model_code(const struct armv8pmu_event_row *cache,
			       struct perf_event *event)
{
	u64 config = event->attr.config;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		return config >= PERF_COUNT_HW_MAX ? -EINVAL : -ENOENT;
	case PERF_TYPE_HW_CACHE:
		return armv8pmu_cache_id_ok(config) ?:
		       armv8pmu_row(cache, config & 0xffffff);
	default:
		return config & ARMV8_PMU_EVTYPE_EVENT;
	}
}

static int armv8pmu_map_with(const struct armv8pmu_event_row *cache,
			     struct perf_event *event)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	int code;

	if (event->attr.type != PERF_TYPE_HARDWARE &&
	    event->attr.type != PERF_TYPE_HW_CACHE &&
	    event->attr.type != PERF_TYPE_RAW &&
	    event->attr.type != event->pmu->type)
		return -ENOENT;

	code = armv8pmu_common_code(armpmu, event);
	/* CHAIN counts another counter's overflows: never on its own. */
	if (code == ARMV8_PMUV3_PERFCTR_CHAIN)
		return -EINVAL;

	/*
	 * A user-read event is a task's, and one MRS must read it: on
	 * 32-bit event counters only cycles (on the cycle counter) can
	 * be 64 bits.
	 */
	if (armv8pmu_wants_rdpmc(event)) {
		if (!(event->attach_state & PERF_ATTACH_TASK))
			return -EINVAL;
		if (armv8pmu_wants_long(event) &&
		    code != ARMV8_PMUV3_PERFCTR_CPU_CYCLES &&
		    !armv8pmu_long_counters(armpmu))
			return -EOPNOTSUPP;
		event->hw.flags |= PERF_EVENT_FLAG_USER_READ_CNT;
	}

	if (code <= 0 || code >= ARMV8_PMUV3_MAX_COMMON_EVENTS ||
	    !test_bit(code, armpmu->pmceid_bitmap))
		code = armv8pmu_model_code(cache, event);
	if (code >= 0)
		armv8pmu_set_width(armpmu, event);
	return code;
}

/*
 * struct arm_pmu.map_event has no room for the core's cache table:
 * one small function per table.
 */
static int armv8pmu_map_generic(struct perf_event *event)
{
	return armv8pmu_map_with(NULL, event);
}

static int armv8pmu_map_a53(struct perf_event *event)
{
	return armv8pmu_map_with(armv8pmu_a53_cache_rows, event);
}

static int armv8pmu_map_a57(struct perf_event *event)
{
	return armv8pmu_map_with(armv8pmu_a57_cache_rows, event);
}

static int armv8pmu_map_a73(struct perf_event *event)
{
	return armv8pmu_map_with(armv8pmu_a73_cache_rows, event);
}

static int armv8pmu_map_thunder(struct perf_event *event)
{
	return armv8pmu_map_with(armv8pmu_thunder_cache_rows, event);
}

static int armv8pmu_map_vulcan(struct perf_event *event)
{
	return armv8pmu_map_with(armv8pmu_vulcan_cache_rows, event);
}

typedef int (*armv8pmu_map_fn)(struct perf_event *event);

static armv8pmu_map_fn armv8pmu_map_for(const struct armv8pmu_event_row *cache)
{
	static const struct {
		const struct armv8pmu_event_row	*cache;
		armv8pmu_map_fn			fn;
	} fns[] = {
		{ armv8pmu_a53_cache_rows,	armv8pmu_map_a53 },
		{ armv8pmu_a57_cache_rows,	armv8pmu_map_a57 },
		{ armv8pmu_a73_cache_rows,	armv8pmu_map_a73 },
		{ armv8pmu_thunder_cache_rows,	armv8pmu_map_thunder },
		{ armv8pmu_vulcan_cache_rows,	armv8pmu_map_vulcan },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(fns); i++)
		if (fns[i].cache == cache)
			return fns[i].fn;
	return armv8pmu_map_generic;
}

/* ---- sysfs -------------------------------------------------------- */

static ssize_t armv8pmu_event_show(struct device *dev,
				   struct device_attribute *attr, char *page)
{
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr);

	return sysfs_emit(page, "event=0x%04llx\n", ev->id);
}

#define PMUV3_EVENT(name, code) \
	PMU_EVENT_ATTR_ID(name, armv8pmu_event_show, code)

/*
 * The common events by their Arm ARM names, shown where PMCEID says the
 * CPU has them.  SW_INCR is left out: EL0 cannot write PMSWINC_EL0, and
 * which counter it would bump changes as events rotate.
 */
static struct attribute *armv8pmu_event_attrs[] = {
	PMUV3_EVENT(l1i_cache_refill, 0x0001),
	PMUV3_EVENT(l1i_tlb_refill, 0x0002),
	PMUV3_EVENT(l1d_cache_refill, 0x0003),
	PMUV3_EVENT(l1d_cache, 0x0004),
	PMUV3_EVENT(l1d_tlb_refill, 0x0005),
	PMUV3_EVENT(ld_retired, 0x0006),
	PMUV3_EVENT(st_retired, 0x0007),
	PMUV3_EVENT(inst_retired, 0x0008),
	PMUV3_EVENT(exc_taken, 0x0009),
	PMUV3_EVENT(exc_return, 0x000a),
	PMUV3_EVENT(cid_write_retired, 0x000b),
	PMUV3_EVENT(pc_write_retired, 0x000c),
	PMUV3_EVENT(br_immed_retired, 0x000d),
	PMUV3_EVENT(br_return_retired, 0x000e),
	PMUV3_EVENT(unaligned_ldst_retired, 0x000f),
	PMUV3_EVENT(br_mis_pred, 0x0010),
	PMUV3_EVENT(cpu_cycles, 0x0011),
	PMUV3_EVENT(br_pred, 0x0012),
	PMUV3_EVENT(mem_access, 0x0013),
	PMUV3_EVENT(l1i_cache, 0x0014),
	PMUV3_EVENT(l1d_cache_wb, 0x0015),
	PMUV3_EVENT(l2d_cache, 0x0016),
	PMUV3_EVENT(l2d_cache_refill, 0x0017),
	PMUV3_EVENT(l2d_cache_wb, 0x0018),
	PMUV3_EVENT(bus_access, 0x0019),
	PMUV3_EVENT(memory_error, 0x001a),
	PMUV3_EVENT(inst_spec, 0x001b),
	PMUV3_EVENT(ttbr_write_retired, 0x001c),
	PMUV3_EVENT(bus_cycles, 0x001d),
	PMUV3_EVENT(l1d_cache_allocate, 0x001f),
	PMUV3_EVENT(l2d_cache_allocate, 0x0020),
	PMUV3_EVENT(br_retired, 0x0021),
	PMUV3_EVENT(br_mis_pred_retired, 0x0022),
	PMUV3_EVENT(stall_frontend, 0x0023),
	PMUV3_EVENT(stall_backend, 0x0024),
	PMUV3_EVENT(l1d_tlb, 0x0025),
	PMUV3_EVENT(l1i_tlb, 0x0026),
	PMUV3_EVENT(l2i_cache, 0x0027),
	PMUV3_EVENT(l2i_cache_refill, 0x0028),
	PMUV3_EVENT(l3d_cache_allocate, 0x0029),
	PMUV3_EVENT(l3d_cache_refill, 0x002a),
	PMUV3_EVENT(l3d_cache, 0x002b),
	PMUV3_EVENT(l3d_cache_wb, 0x002c),
	PMUV3_EVENT(l2d_tlb_refill, 0x002d),
	PMUV3_EVENT(l2i_tlb_refill, 0x002e),
	PMUV3_EVENT(l2d_tlb, 0x002f),
	PMUV3_EVENT(l2i_tlb, 0x0030),
	PMUV3_EVENT(remote_access, 0x0031),
	PMUV3_EVENT(ll_cache, 0x0032),
	PMUV3_EVENT(ll_cache_miss, 0x0033),
	PMUV3_EVENT(dtlb_walk, 0x0034),
	PMUV3_EVENT(itlb_walk, 0x0035),
	PMUV3_EVENT(ll_cache_rd, 0x0036),
	PMUV3_EVENT(ll_cache_miss_rd, 0x0037),
	PMUV3_EVENT(remote_access_rd, 0x0038),
	PMUV3_EVENT(l1d_cache_lmiss_rd, 0x0039),
	PMUV3_EVENT(op_retired, 0x003a),
	PMUV3_EVENT(op_spec, 0x003b),
	PMUV3_EVENT(stall, 0x003c),
	PMUV3_EVENT(stall_slot_backend, 0x003d),
	PMUV3_EVENT(stall_slot_frontend, 0x003e),
	PMUV3_EVENT(stall_slot, 0x003f),
	PMUV3_EVENT(sample_pop, 0x4000),
	PMUV3_EVENT(sample_feed, 0x4001),
	PMUV3_EVENT(sample_filtrate, 0x4002),
	PMUV3_EVENT(sample_collision, 0x4003),
	PMUV3_EVENT(cnt_cycles, 0x4004),
	PMUV3_EVENT(stall_backend_mem, 0x4005),
	PMUV3_EVENT(l1i_cache_lmiss, 0x4006),
	PMUV3_EVENT(l2d_cache_lmiss_rd, 0x4009),
	PMUV3_EVENT(l2i_cache_lmiss, 0x400a),
	PMUV3_EVENT(l3d_cache_lmiss_rd, 0x400b),
	PMUV3_EVENT(trb_wrap, 0x400c),
	PMUV3_EVENT(trb_trig, 0x400e),
	PMUV3_EVENT(trcextout0, 0x4010),
	PMUV3_EVENT(trcextout1, 0x4011),
	PMUV3_EVENT(trcextout2, 0x4012),
	PMUV3_EVENT(trcextout3, 0x4013),
	PMUV3_EVENT(cti_trigout4, 0x4018),
	PMUV3_EVENT(cti_trigout5, 0x4019),
	PMUV3_EVENT(cti_trigout6, 0x401a),
	PMUV3_EVENT(cti_trigout7, 0x401b),
	PMUV3_EVENT(ldst_align_lat, 0x4020),
	PMUV3_EVENT(ld_align_lat, 0x4021),
	PMUV3_EVENT(st_align_lat, 0x4022),
	PMUV3_EVENT(mem_access_checked, 0x4024),
	NULL,
};

static umode_t armv8pmu_event_visible(struct kobject *kobj,
				      struct attribute *attr, int unused)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));
	struct arm_pmu *armpmu = to_arm_pmu(pmu);
	struct perf_pmu_events_attr *ev =
		container_of(attr, struct perf_pmu_events_attr, attr.attr);
	u64 id = ev->id;

	if (id < ARMV8_PMUV3_MAX_COMMON_EVENTS)
		return test_bit(id, armpmu->pmceid_bitmap) ? attr->mode : 0;
	id -= ARMV8_PMUV3_EXT_COMMON_EVENT_BASE;
	if (ev->id >= ARMV8_PMUV3_EXT_COMMON_EVENT_BASE &&
	    id < ARMV8_PMUV3_MAX_COMMON_EVENTS &&
	    test_bit(id, armpmu->pmceid_ext_bitmap))
		return attr->mode;
	return 0;
}

static const struct attribute_group armv8pmu_events_group = {
	.name		= "events",
	.attrs		= armv8pmu_event_attrs,
	.is_visible	= armv8pmu_event_visible,
};

static struct attribute *armv8pmu_format_attrs[] = {
	&format_attr_event.attr,
	&format_attr_threshold.attr,
	&format_attr_long.attr,
	&format_attr_threshold_count.attr,
	&format_attr_rdpmc.attr,
	&format_attr_threshold_compare.attr,
	NULL,
};

static const struct attribute_group armv8pmu_format_group = {
	.name	= "format",
	.attrs	= armv8pmu_format_attrs,
};

/* PMMIR_EL1 (PMUv3p4): the fields caps/ shows. */
static u32 armv8pmu_pmmir_field(struct device *dev, u64 field)
{
	struct arm_pmu *armpmu = to_arm_pmu(dev_get_drvdata(dev));

	return (armpmu->reg_pmmir & field) >> __ffs64(field);
}

static ssize_t slots_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  armv8pmu_pmmir_field(dev, ARMV8_PMU_SLOTS));
}
static DEVICE_ATTR_RO(slots);

static ssize_t bus_slots_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  armv8pmu_pmmir_field(dev, ARMV8_PMU_BUS_SLOTS));
}
static DEVICE_ATTR_RO(bus_slots);

/* PMMIR's BUS_WIDTH is log2 of the bytes plus one; 0 is unknown. */
static ssize_t bus_width_show(struct device *dev,
			      struct device_attribute *attr, char *page)
{
	u32 enc = armv8pmu_pmmir_field(dev, ARMV8_PMU_BUS_WIDTH);

	return sysfs_emit(page, "0x%08x\n",
			  enc > 2 && enc < 13 ? 1U << (enc - 1) : 0);
}
static DEVICE_ATTR_RO(bus_width);

static ssize_t threshold_max_show(struct device *dev,
				  struct device_attribute *attr, char *page)
{
	return sysfs_emit(page, "0x%08x\n",
			  armv8pmu_threshold_max(to_arm_pmu(dev_get_drvdata(dev))));
}
static DEVICE_ATTR_RO(threshold_max);

/* The records a branch stack can have (BRBE); absent without. */
static ssize_t branches_show(struct device *dev, struct device_attribute *attr,
			     char *page)
{
	return sysfs_emit(page, "%d\n",
			  to_arm_pmu(dev_get_drvdata(dev))->branch_records);
}
static DEVICE_ATTR_RO(branches);

static struct attribute *armv8pmu_caps_attrs[] = {
	&dev_attr_threshold_max.attr,
	&dev_attr_slots.attr,
	&dev_attr_bus_width.attr,
	&dev_attr_bus_slots.attr,
	&dev_attr_branches.attr,
	NULL,
};

static umode_t armv8pmu_caps_visible(struct kobject *kobj,
				     struct attribute *attr, int unused)
{
	struct arm_pmu *armpmu = to_arm_pmu(dev_get_drvdata(kobj_to_dev(kobj)));

	if (attr == &dev_attr_branches.attr && !armpmu->branch_records)
		return 0;
	return attr->mode;
}

static const struct attribute_group armv8pmu_caps_group = {
	.name		= "caps",
	.attrs		= armv8pmu_caps_attrs,
	.is_visible	= armv8pmu_caps_visible,
};

/* ---- kernel.perf_user_access -------------------------------------- */

static void armv8pmu_user_access_off(void *unused)
{
	armv8pmu_native_hw.set_userenr(0);
}

/* Turning it off takes effect at once on every CPU, not at next start. */
static int armv8pmu_user_access_sysctl(const struct ctl_table *table,
				       int write, void *buffer, size_t *lenp,
				       loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (!ret && write && !sysctl_perf_user_access)
		on_each_cpu(armv8pmu_user_access_off, NULL, 1);
	return ret;
}

static struct ctl_table armv8pmu_sysctls[] = {
	{
		.procname	= "perf_user_access",
		.data		= &sysctl_perf_user_access,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= armv8pmu_user_access_sysctl,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

/* ---- probe -------------------------------------------------------- */

/* What one CPU of the PMU's kind says about its PMU (run on it). */
static void armv8pmu_read_ids(void *info)
{
	struct arm_pmu *armpmu = info;
	int pmuver = read_pmuver();
	u64 ceid0, ceid1;
	u32 words[2];

	if (!pmuv3_implemented(pmuver))
		return;
	armpmu->pmuver = pmuver;

	bitmap_set(armpmu->cntr_mask, 0,
		   FIELD_GET(ARMV8_PMU_PMCR_N, read_pmcr()));
	set_bit(ARMV8_PMU_CYCLE_IDX, armpmu->cntr_mask);
	if (pmuv3_has_icntr())
		set_bit(ARMV8_PMU_INSTR_IDX, armpmu->cntr_mask);

	/* PMCEID0/1: events 0x0-0x3f in the low halves, 0x4000+ high. */
	ceid0 = read_pmceid0();
	ceid1 = read_pmceid1();
	words[0] = lower_32_bits(ceid0);
	words[1] = lower_32_bits(ceid1);
	bitmap_from_arr32(armpmu->pmceid_bitmap, words,
			  ARMV8_PMUV3_MAX_COMMON_EVENTS);
	words[0] = upper_32_bits(ceid0);
	words[1] = upper_32_bits(ceid1);
	bitmap_from_arr32(armpmu->pmceid_ext_bitmap, words,
			  ARMV8_PMUV3_MAX_COMMON_EVENTS);

	armpmu->reg_pmmir = is_pmuv3p4(pmuver) ? read_pmmir() : 0;
	armpmu->branch_records = brbe_probe_cpu();
}

static int armv8pmu_init(struct arm_pmu *armpmu, char *name,
			 const struct armv8pmu_event_row *cache)
{
	static atomic_t sysctl_done = ATOMIC_INIT(0);
	int ret;

	armpmu->pmuver = 0;
	ret = smp_call_function_any(&armpmu->supported_cpus, armv8pmu_read_ids,
				    armpmu, 1);
	if (ret)
		return ret;
	if (!pmuv3_implemented(armpmu->pmuver))
		return -ENODEV;

	armpmu->driver_data		= &armv8pmu_native_hw;
	armpmu->name			= name;
	armpmu->map_event		= armv8pmu_map_for(cache);
	armpmu->set_event_filter	= armv8pmu_set_event_filter;
	armpmu->counters_for		= armv8pmu_counters_for;
	armpmu->enable			= armv8pmu_enable;
	armpmu->disable			= armv8pmu_disable;
	armpmu->read_counter		= armv8pmu_read_counter;
	armpmu->write_counter		= armv8pmu_write_counter;
	armpmu->start			= armv8pmu_start;
	armpmu->stop			= armv8pmu_stop;
	armpmu->reset			= armv8pmu_reset;
	armpmu->handle_irq		= armv8pmu_handle_irq;
	armpmu->pmu.event_idx		= armv8pmu_event_idx;
	armpmu->attr_groups[ARMPMU_ATTR_GROUP_EVENTS] = &armv8pmu_events_group;
	armpmu->attr_groups[ARMPMU_ATTR_GROUP_FORMATS] = &armv8pmu_format_group;
	armpmu->attr_groups[ARMPMU_ATTR_GROUP_CAPS] = &armv8pmu_caps_group;
	if (armpmu->branch_records) {
		armpmu->branch_init		= brbe_event_init;
		armpmu->branch_read		= armv8pmu_branch_read;
		armpmu->pmu.sched_task		= armv8pmu_sched_task;
	}

	if (atomic_cmpxchg(&sysctl_done, 0, 1) == 0)
		register_sysctl("kernel", armv8pmu_sysctls);
	return 0;
}

/**
 * struct armv8pmu_core - what the device tree's compatible says of a core
 * @name: the PMU's name in sysfs
 * @cache: the core's implementation-defined cache events, or NULL
 */
struct armv8pmu_core {
	char				*name;
	const struct armv8pmu_event_row	*cache;
};

#define ARMV8PMU_CORE(pmu_name, rows) \
	(&(const struct armv8pmu_core){ .name = pmu_name, .cache = rows })

static const struct of_device_id armv8pmu_of_ids[] = {
	{ .compatible = "arm,armv8-pmuv3",
	  .data = ARMV8PMU_CORE("armv8_pmuv3", NULL) },
	{ .compatible = "arm,cortex-a34-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a34", NULL) },
	{ .compatible = "arm,cortex-a35-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a35", armv8pmu_a53_cache_rows) },
	{ .compatible = "arm,cortex-a53-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a53", armv8pmu_a53_cache_rows) },
	{ .compatible = "arm,cortex-a55-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a55", NULL) },
	{ .compatible = "arm,cortex-a57-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a57", armv8pmu_a57_cache_rows) },
	{ .compatible = "arm,cortex-a65-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a65", NULL) },
	{ .compatible = "arm,cortex-a72-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a72", armv8pmu_a57_cache_rows) },
	{ .compatible = "arm,cortex-a73-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a73", armv8pmu_a73_cache_rows) },
	{ .compatible = "arm,cortex-a75-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a75", NULL) },
	{ .compatible = "arm,cortex-a76-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a76", NULL) },
	{ .compatible = "arm,cortex-a77-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a77", NULL) },
	{ .compatible = "arm,cortex-a78-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_a78", NULL) },
	{ .compatible = "arm,cortex-a510-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_a510", NULL) },
	{ .compatible = "arm,cortex-a520-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_a520", NULL) },
	{ .compatible = "arm,cortex-a710-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_a710", NULL) },
	{ .compatible = "arm,cortex-a715-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_a715", NULL) },
	{ .compatible = "arm,cortex-a720-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_a720", NULL) },
	{ .compatible = "arm,cortex-a725-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_a725", NULL) },
	{ .compatible = "arm,cortex-x1-pmu",
	  .data = ARMV8PMU_CORE("armv8_cortex_x1", NULL) },
	{ .compatible = "arm,cortex-x2-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_x2", NULL) },
	{ .compatible = "arm,cortex-x3-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_x3", NULL) },
	{ .compatible = "arm,cortex-x4-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_x4", NULL) },
	{ .compatible = "arm,cortex-x925-pmu",
	  .data = ARMV8PMU_CORE("armv9_cortex_x925", NULL) },
	{ .compatible = "arm,neoverse-e1-pmu",
	  .data = ARMV8PMU_CORE("armv8_neoverse_e1", NULL) },
	{ .compatible = "arm,neoverse-n1-pmu",
	  .data = ARMV8PMU_CORE("armv8_neoverse_n1", NULL) },
	{ .compatible = "arm,neoverse-n2-pmu",
	  .data = ARMV8PMU_CORE("armv9_neoverse_n2", NULL) },
	{ .compatible = "arm,neoverse-n3-pmu",
	  .data = ARMV8PMU_CORE("armv9_neoverse_n3", NULL) },
	{ .compatible = "arm,neoverse-v1-pmu",
	  .data = ARMV8PMU_CORE("armv8_neoverse_v1", NULL) },
	{ .compatible = "arm,neoverse-v2-pmu",
	  .data = ARMV8PMU_CORE("armv8_neoverse_v2", NULL) },
	{ .compatible = "arm,neoverse-v3-pmu",
	  .data = ARMV8PMU_CORE("armv8_neoverse_v3", NULL) },
	{ .compatible = "arm,neoverse-v3ae-pmu",
	  .data = ARMV8PMU_CORE("armv8_neoverse_v3ae", NULL) },
	{ .compatible = "cavium,thunder-pmu",
	  .data = ARMV8PMU_CORE("armv8_cavium_thunder", armv8pmu_thunder_cache_rows) },
	{ .compatible = "brcm,vulcan-pmu",
	  .data = ARMV8PMU_CORE("armv8_brcm_vulcan", armv8pmu_vulcan_cache_rows) },
	{ .compatible = "nvidia,carmel-pmu",
	  .data = ARMV8PMU_CORE("armv8_nvidia_carmel", NULL) },
	{ .compatible = "nvidia,denver-pmu",
	  .data = ARMV8PMU_CORE("armv8_nvidia_denver", NULL) },
	{}
};

static int armv8pmu_generic_init(struct arm_pmu *armpmu)
{
	return armv8pmu_init(armpmu, "armv8_pmuv3", NULL);
}

/* A device-tree PMU: its match says which core. */
static int armv8pmu_dt_init(struct arm_pmu *armpmu)
{
	const struct armv8pmu_core *core;

	core = of_device_get_match_data(&armpmu->plat_device->dev);
	if (!core)
		return armv8pmu_generic_init(armpmu);
	return armv8pmu_init(armpmu, core->name, core->cache);
}

static int armv8pmu_device_probe(struct platform_device *pdev)
{
	return arm_pmu_probe_with(pdev, armv8pmu_dt_init);
}

static struct platform_driver armv8pmu_driver = {
	.driver		= {
		.name			= ARMV8_PMU_PDEV_NAME,
		.of_match_table		= armv8pmu_of_ids,
		.suppress_bind_attrs	= true,
	},
	.probe		= armv8pmu_device_probe,
};

static int __init armv8pmu_driver_init(void)
{
	int ret;

	if (acpi_disabled)
		ret = platform_driver_register(&armv8pmu_driver);
	else
		ret = arm_pmu_acpi_probe(armv8pmu_generic_init);
	/* The perf hard-lockup detector waited for a PMU: it has one now. */
	if (!ret)
		lockup_detector_retry_init();
	return ret;
}
device_initcall(armv8pmu_driver_init)

/* ---- the user page ------------------------------------------------ */

/*
 * Besides the counter (cap_user_rdpmc, pmc_width), the page tells user
 * space how to turn the architected timer's count, which EL0 can read,
 * into perf's clock, when sched_clock is that timer.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	unsigned int seq;
	u64 base_ns;

	userpg->cap_user_rdpmc = armv8pmu_user_reads(event);
	if (userpg->cap_user_rdpmc)
		userpg->pmc_width = event->hw.flags & ARMPMU_EVT_64BIT ? 64 : 32;
	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;
	userpg->cap_user_time_short = 0;

	for (;;) {
		struct clock_read_data *rd = sched_clock_read_begin(&seq);

		/* Only the architected timer can be read at EL0. */
		if (rd->read_sched_clock != arch_timer_read_counter)
			return;
		/*
		 * time_zero is the clock at a count of 0, so readers that
		 * ignore time_cycles still convert right until a wrap.
		 */
		base_ns = mul_u64_u32_shr(rd->epoch_cyc, rd->mult, rd->shift);
		userpg->time_zero = rd->epoch_ns - base_ns;
		userpg->time_cycles = rd->epoch_cyc;
		userpg->time_mask = rd->sched_clock_mask;
		userpg->time_shift = rd->shift;
		userpg->time_mult = rd->mult;
		if (!sched_clock_read_retry(seq))
			break;
	}

	userpg->time_offset = userpg->time_zero - now;
	/* Readers shift a 64-bit product: 32 would lose the top bit. */
	if (userpg->time_shift == 32) {
		userpg->time_shift = 31;
		userpg->time_mult >>= 1;
	}
	userpg->cap_user_time = 1;
	userpg->cap_user_time_zero = 1;
	userpg->cap_user_time_short = 1;
}

/* KUnit: the driver's own functions against a register model. */
#if IS_BUILTIN(CONFIG_KUNIT)
#include "arm_pmuv3_test.c"
#endif
