// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the PMUv3 driver's register programming against a model of the
 * PMU registers.  arm_pmuv3.c includes this file at its end when KUnit
 * is built in, so that the cases can call the driver's own static
 * functions; the model stands in for the registers through struct
 * armv8pmu_hw_ops.  Those ops take no context, so the model is one
 * static struct: KUnit runs a suite's cases one after another, and each
 * starts from a zeroed model and a fresh PMU from armpmu_alloc().
 */

#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/irqflags.h>
#include <linux/preempt.h>
#include <linux/sched.h>

/* ID_AA64DFR0_EL1.PMUVer of PMUv3 for Armv8.0: 32-bit event counters. */
#define PMUV3_TEST_VER_V3	0x1

/* The counter indices the model has: event counters, 31 and 32. */
#define PMUV3_TEST_NR		(ARMV8_PMU_INSTR_IDX + 1)

/* The event ABI, as the format attributes publish it. */
#define PMUV3_TEST_LONG		BIT_ULL(0)
#define PMUV3_TEST_RDPMC	BIT_ULL(1)
#define PMUV3_TEST_TH_COUNT	BIT_ULL(2)
#define PMUV3_TEST_TH_COMPARE(c) ((u64)(c) << 3)
#define PMUV3_TEST_TH(th)	((u64)(th) << 5)

/* The fake PMU's counters: six event counters and the cycle counter. */
#define PMUV3_TEST_GENERAL	GENMASK_ULL(5, 0)
#define PMUV3_TEST_ODD		(BIT_ULL(1) | BIT_ULL(3) | BIT_ULL(5))
#define PMUV3_TEST_CYCLES	BIT_ULL(ARMV8_PMU_CYCLE_IDX)

/*
 * One CPU's PMU registers: PMCR_EL0, the counters, their types, the
 * count and interrupt enables, the overflow status and PMUSERENR_EL0;
 * enable_writes counts the writes of the two enables' set and clear
 * registers, type_writes those of the counters' types.
 * Counter glitch_idx reads as glitch_val for glitch_reads more reads;
 * bad_idx records an index beyond the model's.
 */
struct pmuv3_test_regs {
	u64		pmcr;
	u64		counter[PMUV3_TEST_NR];
	u64		type[PMUV3_TEST_NR];
	u64		cnten, inten, ovs, userenr;
	unsigned int	enable_writes;
	unsigned int	type_writes;
	int		glitch_idx;
	unsigned int	glitch_reads;
	u64		glitch_val;
	bool		bad_idx;
};

static struct pmuv3_test_regs pmuv3_test_regs;

static bool pmuv3_test_idx_ok(int idx)
{
	if (idx >= 0 && idx < PMUV3_TEST_NR)
		return true;
	pmuv3_test_regs.bad_idx = true;
	return false;
}

static u64 pmuv3_test_pmcr(void)
{
	return pmuv3_test_regs.pmcr;
}

static void pmuv3_test_set_pmcr(u64 val)
{
	pmuv3_test_regs.pmcr = val;
}

static u64 pmuv3_test_counter(int idx)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;

	if (!pmuv3_test_idx_ok(idx))
		return 0;
	if (idx == r->glitch_idx && r->glitch_reads) {
		r->glitch_reads--;
		return r->glitch_val;
	}
	return r->counter[idx];
}

static void pmuv3_test_set_counter(int idx, u64 val)
{
	if (pmuv3_test_idx_ok(idx))
		pmuv3_test_regs.counter[idx] = val;
}

static void pmuv3_test_set_type(int idx, u64 val)
{
	if (pmuv3_test_idx_ok(idx))
		pmuv3_test_regs.type[idx] = val;
	pmuv3_test_regs.type_writes++;
}

static void pmuv3_test_count_on(u64 mask)
{
	pmuv3_test_regs.cnten |= mask;
	pmuv3_test_regs.enable_writes++;
}

static void pmuv3_test_count_off(u64 mask)
{
	pmuv3_test_regs.cnten &= ~mask;
	pmuv3_test_regs.enable_writes++;
}

static void pmuv3_test_irq_on(u64 mask)
{
	pmuv3_test_regs.inten |= mask;
	pmuv3_test_regs.enable_writes++;
}

static void pmuv3_test_irq_off(u64 mask)
{
	pmuv3_test_regs.inten &= ~mask;
	pmuv3_test_regs.enable_writes++;
}

static u64 pmuv3_test_overflows(void)
{
	return pmuv3_test_regs.ovs;
}

static void pmuv3_test_clear_overflows(u64 mask)
{
	pmuv3_test_regs.ovs &= ~mask;
}

static void pmuv3_test_set_userenr(u64 val)
{
	pmuv3_test_regs.userenr = val;
}

static const struct armv8pmu_hw_ops pmuv3_test_hw = {
	.pmcr		= pmuv3_test_pmcr,
	.set_pmcr	= pmuv3_test_set_pmcr,
	.counter	= pmuv3_test_counter,
	.set_counter	= pmuv3_test_set_counter,
	.set_type	= pmuv3_test_set_type,
	.count_on	= pmuv3_test_count_on,
	.count_off	= pmuv3_test_count_off,
	.irq_on		= pmuv3_test_irq_on,
	.irq_off	= pmuv3_test_irq_off,
	.overflows	= pmuv3_test_overflows,
	.clear_overflows = pmuv3_test_clear_overflows,
	.set_userenr	= pmuv3_test_set_userenr,
};

/* ---- the fake PMU and its events ---------------------------------- */

static int pmuv3_test_init(struct kunit *test)
{
	struct arm_pmu *armpmu;

	memset(&pmuv3_test_regs, 0, sizeof(pmuv3_test_regs));
	armpmu = armpmu_alloc();
	if (!armpmu)
		return -ENOMEM;
	armpmu->driver_data = &pmuv3_test_hw;
	armpmu->pmuver = PMUV3_TEST_VER_V3;
	armpmu->reg_pmmir = 0;
	bitmap_set(armpmu->cntr_mask, 0, 6);
	set_bit(ARMV8_PMU_CYCLE_IDX, armpmu->cntr_mask);
	set_bit(ARMV8_PMUV3_PERFCTR_L1D_CACHE, armpmu->pmceid_bitmap);
	set_bit(ARMV8_PMUV3_PERFCTR_INST_RETIRED, armpmu->pmceid_bitmap);
	set_bit(ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED, armpmu->pmceid_bitmap);
	set_bit(ARMV8_PMUV3_PERFCTR_CPU_CYCLES, armpmu->pmceid_bitmap);
	set_bit(ARMV8_PMUV3_PERFCTR_BR_RETIRED, armpmu->pmceid_bitmap);
	test->priv = armpmu;
	return 0;
}

static void pmuv3_test_exit(struct kunit *test)
{
	KUNIT_EXPECT_FALSE_MSG(test, pmuv3_test_regs.bad_idx,
			       "a register op got a counter index out of range");
	if (test->priv)
		armpmu_free(test->priv);
}

static struct arm_pmu *pmuv3_test_pmu(struct kunit *test)
{
	return test->priv;
}

/* An event as event_init leaves it: config_base holds its number. */
static struct perf_event *pmuv3_test_event(struct kunit *test, u32 type,
					   u64 config, u64 config1, int idx)
{
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, event);
	event->pmu = &pmuv3_test_pmu(test)->pmu;
	event->attr.type = type;
	event->attr.config = config;
	event->attr.config1 = config1;
	event->hw.idx = idx;
	event->hw.config_base = config & ARMV8_PMU_EVTYPE_EVENT;
	/* The width flags, as mapping the event leaves them. */
	armv8pmu_set_width(pmuv3_test_pmu(test), event);
	return event;
}

/* The driver's per-event and per-PMU calls run with interrupts off. */
static void pmuv3_test_ev_call(struct perf_event *event,
			       void (*fn)(struct perf_event *event))
{
	preempt_disable();
	local_irq_disable();
	fn(event);
	local_irq_enable();
	preempt_enable();
}

static void pmuv3_test_call(struct arm_pmu *armpmu,
			    void (*fn)(struct arm_pmu *armpmu))
{
	preempt_disable();
	local_irq_disable();
	fn(armpmu);
	local_irq_enable();
	preempt_enable();
}

static void pmuv3_test_reset_pmu(struct arm_pmu *armpmu)
{
	armv8pmu_reset(armpmu);
}

/* ---- chained pairs ------------------------------------------------ */

/* A 64-bit count on PMUv3 8.0: counters 2 (low) and 3 (high, CHAIN). */
static void pmuv3_test_chained_pair(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct perf_event *event;

	event = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_L1D_CACHE,
				 PMUV3_TEST_LONG, 3);
	/* NS_EL1 is not a bit the driver programs: it must not reach the type. */
	event->hw.config_base |= ARMV8_PMU_EXCLUDE_EL0 | ARMV8_PMU_EXCLUDE_NS_EL1;

	armv8pmu_write_counter(event, 0x123456789abcdef0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[2], 0x9abcdef0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[3], 0x12345678ULL);
	KUNIT_EXPECT_EQ(test, r->counter[1], 0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[4], 0ULL);
	KUNIT_EXPECT_EQ(test, armv8pmu_read_counter(event), 0x123456789abcdef0ULL);

	/* The driver keeps records per CPU: stay on one. */
	migrate_disable();
	/* Counter 5 belongs to another event: left alone throughout. */
	r->cnten = BIT_ULL(5);
	r->inten = BIT_ULL(5);
	pmuv3_test_ev_call(event, armv8pmu_enable);
	KUNIT_EXPECT_EQ(test, r->type[2],
			(u64)(ARMV8_PMUV3_PERFCTR_L1D_CACHE | ARMV8_PMU_EXCLUDE_EL0));
	KUNIT_EXPECT_EQ(test, r->type[3],
			(u64)(ARMV8_PMUV3_PERFCTR_CHAIN | ARMV8_PMU_INCLUDE_EL2));
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(2) | BIT_ULL(3) | BIT_ULL(5));
	/* Only the high half's overflow ends the 64-bit count. */
	KUNIT_EXPECT_EQ(test, r->inten, BIT_ULL(3) | BIT_ULL(5));

	r->ovs = BIT_ULL(3) | BIT_ULL(5);
	pmuv3_test_ev_call(event, armv8pmu_disable);
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(5));
	/* A counter that does not count keeps its interrupt enable. */
	KUNIT_EXPECT_EQ(test, r->inten, BIT_ULL(3) | BIT_ULL(5));
	KUNIT_EXPECT_EQ(test, r->ovs, BIT_ULL(5));

	/* Singles on both halves, then the pair again: 2 stays quiet. */
	event->hw.flags &= ~ARMV8PMU_EVT_PAIR;
	event->hw.idx = 2;
	pmuv3_test_ev_call(event, armv8pmu_enable);
	KUNIT_EXPECT_EQ(test, r->inten, BIT_ULL(2) | BIT_ULL(3) | BIT_ULL(5));
	pmuv3_test_ev_call(event, armv8pmu_disable);
	event->hw.flags |= ARMV8PMU_EVT_PAIR;
	event->hw.idx = 3;
	pmuv3_test_ev_call(event, armv8pmu_enable);
	KUNIT_EXPECT_EQ(test, r->inten, BIT_ULL(3) | BIT_ULL(5));
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(2) | BIT_ULL(3) | BIT_ULL(5));
	migrate_enable();
}

/* One task's event off counter 2 and another's on, as a switch does. */
static void pmuv3_test_swap(struct arm_pmu *armpmu)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);
	struct perf_event *from = cpuc->events[2], *to = cpuc->events[3];

	/* What the framework's pmu_disable does. */
	cpuc->stopped = true;
	armv8pmu_stop(armpmu);
	armv8pmu_disable(from);
	armv8pmu_enable(to);
	cpuc->stopped = false;
	armv8pmu_start(armpmu);
}

/*
 * Inside pmu_disable the enables change only at start: a counter that
 * one event leaves and the next takes is not written at all, and one
 * left empty goes off with its overflow dropped, in one write.
 */
static void pmuv3_test_enables_at_start(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct pmu_hw_events *cpuc;
	struct perf_event *a, *b;
	unsigned int writes;

	a = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
			     0, 2);
	b = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_L1D_CACHE,
			     0, 2);
	/* The driver keeps records per CPU: stay on one. */
	migrate_disable();
	pmuv3_test_call(armpmu, pmuv3_test_reset_pmu);
	pmuv3_test_ev_call(a, armv8pmu_enable);
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, r->inten, BIT_ULL(2));

	preempt_disable();
	cpuc = this_cpu_ptr(armpmu->hw_events);
	cpuc->events[2] = a;
	cpuc->events[3] = b;
	preempt_enable();
	writes = r->enable_writes;
	pmuv3_test_call(armpmu, pmuv3_test_swap);
	KUNIT_EXPECT_EQ(test, r->enable_writes, writes);
	KUNIT_EXPECT_EQ(test, r->type[2], (u64)ARMV8_PMUV3_PERFCTR_L1D_CACHE);
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(2));
	KUNIT_EXPECT_TRUE(test, r->pmcr & ARMV8_PMU_PMCR_E);

	/* Now b leaves and nothing comes: counter 2 goes off, once. */
	preempt_disable();
	cpuc = this_cpu_ptr(armpmu->hw_events);
	cpuc->events[2] = b;
	cpuc->events[3] = b;
	preempt_enable();
	r->ovs = BIT_ULL(2);
	pmuv3_test_call(armpmu, pmuv3_test_swap);
	/* b went off and on again: nothing to write. */
	KUNIT_EXPECT_EQ(test, r->enable_writes, writes);
	preempt_disable();
	local_irq_disable();
	cpuc = this_cpu_ptr(armpmu->hw_events);
	cpuc->stopped = true;
	armv8pmu_disable(b);
	cpuc->stopped = false;
	armv8pmu_start(armpmu);
	local_irq_enable();
	preempt_enable();
	migrate_enable();
	KUNIT_EXPECT_EQ(test, r->enable_writes, writes + 1);
	KUNIT_EXPECT_EQ(test, r->cnten, 0ULL);
	KUNIT_EXPECT_EQ(test, r->ovs, 0ULL);
}

/*
 * The low half wraps between the reads: the first read of the high
 * half gives 0x11, every later one 0x12, the low half reads 5.  Only
 * 0x12_00000005 is a count the pair really held.
 */
static void pmuv3_test_chained_read_retry(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct perf_event *event;

	event = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
				 PMUV3_TEST_LONG, 3);
	r->counter[3] = 0x12;
	r->counter[2] = 0x5;
	r->glitch_idx = 3;
	r->glitch_reads = 1;
	r->glitch_val = 0x11;

	KUNIT_EXPECT_EQ(test, armv8pmu_read_counter(event), 0x1200000005ULL);
	KUNIT_EXPECT_EQ(test, r->glitch_reads, 0U);

	/* Steady: the same pair, no stale value left over. */
	KUNIT_EXPECT_EQ(test, armv8pmu_read_counter(event), 0x1200000005ULL);
}

/* ---- counter widths and bias -------------------------------------- */

static void pmuv3_test_bias(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *event;

	/* v8.0: a 32-bit event counter holds a 32-bit count as it is. */
	event = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
				 0, 2);
	armv8pmu_write_counter(event, 0xfffffff0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[2], 0xfffffff0ULL);
	KUNIT_EXPECT_EQ(test, armv8pmu_read_counter(event), 0xfffffff0ULL);

	/* v8.0: a 32-bit count on the 64-bit cycle counter is biased. */
	event = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
				 0, ARMV8_PMU_CYCLE_IDX);
	armv8pmu_write_counter(event, 0xfffffff0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[31], 0xfffffffffffffff0ULL);
	r->counter[31] = 0xffffffff00000010ULL;
	KUNIT_EXPECT_EQ(test, armv8pmu_read_counter(event), 0x10ULL);

	/* v8.5: 64-bit event counters; a 32-bit count on one is biased. */
	armpmu->pmuver = ARMV8_PMU_DFR_VER_V3P5;
	memset(r->counter, 0, sizeof(r->counter));
	event = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
				 0, 2);
	armv8pmu_write_counter(event, 0xfffffff0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[2], 0xfffffffffffffff0ULL);
	r->counter[2] = 0xffffffff00000010ULL;
	KUNIT_EXPECT_EQ(test, armv8pmu_read_counter(event), 0x10ULL);

	/* v8.5: a 64-bit count takes one counter, whole, unbiased. */
	event = pmuv3_test_event(test, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_INST_RETIRED,
				 PMUV3_TEST_LONG, 2);
	armv8pmu_write_counter(event, 0x123456789abcdef0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[2], 0x123456789abcdef0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[1], 0ULL);
	KUNIT_EXPECT_EQ(test, r->counter[3], 0ULL);
	r->counter[2] = 0xffffffff00000010ULL;
	KUNIT_EXPECT_EQ(test, armv8pmu_read_counter(event), 0xffffffff00000010ULL);

	pmuv3_test_ev_call(event, armv8pmu_enable);
	KUNIT_EXPECT_EQ(test, r->type[2], (u64)ARMV8_PMUV3_PERFCTR_INST_RETIRED);
	KUNIT_EXPECT_EQ(test, r->type[1], 0ULL);
	KUNIT_EXPECT_EQ(test, r->type[3], 0ULL);
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, r->inten, BIT_ULL(2));
}

/* ---- counters_for() ----------------------------------------------- */

/*
 * An event's counters on v8.0 or v8.5, with or without the instruction
 * counter.  A user-read event is flagged as map_event flags it.
 */
static void pmuv3_test_counters_for(struct kunit *test)
{
	static const struct {
		bool	v85, icntr;
		u16	code;
		u64	config1;
		u64	prefer, allowed;
		bool	pair;
	} c[] = {
		{ false, false, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, 0,
		  PMUV3_TEST_CYCLES, PMUV3_TEST_GENERAL, false },
		/* 64-bit cycles on v8.0: the cycle counter, else a pair. */
		{ false, false, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, PMUV3_TEST_LONG,
		  PMUV3_TEST_CYCLES, PMUV3_TEST_ODD, true },
		/* Read by user space: one MRS, so the cycle counter only. */
		{ false, false, ARMV8_PMUV3_PERFCTR_CPU_CYCLES,
		  PMUV3_TEST_LONG | PMUV3_TEST_RDPMC, PMUV3_TEST_CYCLES, 0, false },
		{ true, false, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, PMUV3_TEST_LONG,
		  PMUV3_TEST_CYCLES, PMUV3_TEST_GENERAL, false },
		/* The cycle counter has no threshold. */
		{ false, false, ARMV8_PMUV3_PERFCTR_CPU_CYCLES, PMUV3_TEST_TH(3),
		  0, PMUV3_TEST_GENERAL, false },
		{ false, false, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0,
		  0, PMUV3_TEST_GENERAL, false },
		/* The instruction counter, but not for a user-space reader. */
		{ false, true, ARMV8_PMUV3_PERFCTR_INST_RETIRED, 0,
		  BIT_ULL(ARMV8_PMU_INSTR_IDX), PMUV3_TEST_GENERAL, false },
		{ false, true, ARMV8_PMUV3_PERFCTR_INST_RETIRED, PMUV3_TEST_RDPMC,
		  0, PMUV3_TEST_GENERAL, false },
		{ false, false, ARMV8_PMUV3_PERFCTR_L1D_CACHE, 0,
		  0, PMUV3_TEST_GENERAL, false },
		{ false, false, ARMV8_PMUV3_PERFCTR_L1D_CACHE, PMUV3_TEST_LONG,
		  0, PMUV3_TEST_ODD, true },
		{ true, false, ARMV8_PMUV3_PERFCTR_L1D_CACHE, PMUV3_TEST_LONG,
		  0, PMUV3_TEST_GENERAL, false },
	};
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *ev;
	struct armpmu_need need;
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		armpmu->pmuver = c[i].v85 ? ARMV8_PMU_DFR_VER_V3P5 :
					    PMUV3_TEST_VER_V3;
		assign_bit(ARMV8_PMU_INSTR_IDX, armpmu->cntr_mask, c[i].icntr);
		ev = pmuv3_test_event(test, PERF_TYPE_RAW, c[i].code, c[i].config1, -1);
		if (c[i].config1 & PMUV3_TEST_RDPMC) {
			ev->hw.flags |= PERF_EVENT_FLAG_USER_READ_CNT;
			armv8pmu_set_width(armpmu, ev);
		}
		/* All set: whatever the driver leaves unwritten shows. */
		need = (struct armpmu_need){ .prefer = ~0ULL, .allowed = ~0ULL, .pair = true };
		armv8pmu_counters_for(armpmu, ev, &need);
		KUNIT_EXPECT_EQ_MSG(test, need.prefer, c[i].prefer, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, need.allowed, c[i].allowed, "row %d", i);
		KUNIT_EXPECT_EQ_MSG(test, need.pair, c[i].pair, "row %d", i);
	}
}

/* ---- event mapping ------------------------------------------------ */

/* As event_init calls map_event: with hw.flags cleared first. */
static int pmuv3_test_map(int (*map)(struct perf_event *event),
			  struct perf_event *event, u32 type, u64 config,
			  u64 config1)
{
	event->attr.type = type;
	event->attr.config = config;
	event->attr.config1 = config1;
	event->hw.flags = 0;
	return map(event);
}

#define PMUV3_TEST_L1D_READ	(PERF_COUNT_HW_CACHE_L1D | \
				 PERF_COUNT_HW_CACHE_OP_READ << 8 | \
				 PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16)

/*
 * Row by row: first take event @clear out of PMCEID (for good, if not
 * -1), then map.  Generic events are gated by PMCEID, raw ones are not.
 */
static void pmuv3_test_map_generic(struct kunit *test)
{
	static const struct {
		bool	a57;
		u32	type;
		u64	config;
		int	clear, want;
	} c[] = {
		{ false, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1, 0x08 },
		{ false, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, -1, 0x11 },
		{ false, PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX, -1, -EINVAL },
		/* Branches: BR_RETIRED, else PC_WRITE_RETIRED, else none. */
		{ false, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, -1, 0x21 },
		{ false, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		  ARMV8_PMUV3_PERFCTR_BR_RETIRED, 0x0c },
		{ false, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
		  ARMV8_PMUV3_PERFCTR_PC_WRITE_RETIRED, -ENOENT },
		/* The common cache event first, else the core's own. */
		{ false, PERF_TYPE_HW_CACHE, PMUV3_TEST_L1D_READ, -1, 0x04 },
		{ true, PERF_TYPE_HW_CACHE, PMUV3_TEST_L1D_READ, -1, 0x04 },
		{ false, PERF_TYPE_HW_CACHE, PMUV3_TEST_L1D_READ,
		  ARMV8_PMUV3_PERFCTR_L1D_CACHE, -ENOENT },
		{ true, PERF_TYPE_HW_CACHE, PMUV3_TEST_L1D_READ, -1, 0x40 },
		{ false, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
		  ARMV8_PMUV3_PERFCTR_INST_RETIRED, -ENOENT },
		{ false, PERF_TYPE_RAW, 0x08, -1, 0x08 },
		{ false, PERF_TYPE_RAW, 0x1234, -1, 0x1234 },
		{ false, PERF_TYPE_RAW, ARMV8_PMUV3_PERFCTR_CHAIN, -1, -EINVAL },
	};
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *ev = pmuv3_test_event(test, 0, 0, 0, -1);
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		if (c[i].clear >= 0)
			clear_bit(c[i].clear, armpmu->pmceid_bitmap);
		KUNIT_EXPECT_EQ_MSG(test, pmuv3_test_map(c[i].a57 ? armv8pmu_map_a57 :
							 armv8pmu_map_generic, ev,
							 c[i].type, c[i].config, 0),
				    c[i].want, "row %d", i);
	}
}

/* The count's width and user-space reads, on v8.0 or v8.5. */
static void pmuv3_test_map_widths(struct kunit *test)
{
	static const struct {
		bool	v85, task;
		u32	type;
		u64	config, config1;
		int	want;
		u32	flags;
	} c[] = {
		{ false, false, PERF_TYPE_RAW, 0x08, PMUV3_TEST_LONG, 0x08,
		  ARMPMU_EVT_64BIT | ARMV8PMU_EVT_PAIR },
		{ false, false, PERF_TYPE_RAW, 0x08, 0, 0x08, 0 },
		/* User-space reads are for a task's events only. */
		{ false, false, PERF_TYPE_RAW, 0x08, PMUV3_TEST_RDPMC, -EINVAL },
		{ false, true, PERF_TYPE_RAW, 0x08, PMUV3_TEST_RDPMC, 0x08,
		  PERF_EVENT_FLAG_USER_READ_CNT },
		/* v8.0: a pair cannot be read with one MRS; cycles need none. */
		{ false, true, PERF_TYPE_RAW, 0x08, PMUV3_TEST_RDPMC | PMUV3_TEST_LONG,
		  -EOPNOTSUPP },
		{ false, true, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
		  PMUV3_TEST_RDPMC | PMUV3_TEST_LONG, 0x11,
		  PERF_EVENT_FLAG_USER_READ_CNT | ARMPMU_EVT_64BIT },
		/* v8.5: 64-bit event counters read whole. */
		{ true, true, PERF_TYPE_RAW, 0x08, PMUV3_TEST_RDPMC | PMUV3_TEST_LONG, 0x08,
		  PERF_EVENT_FLAG_USER_READ_CNT | ARMPMU_EVT_64BIT },
	};
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *ev = pmuv3_test_event(test, 0, 0, 0, -1);
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		armpmu->pmuver = c[i].v85 ? ARMV8_PMU_DFR_VER_V3P5 :
					    PMUV3_TEST_VER_V3;
		ev->attach_state = c[i].task ? PERF_ATTACH_TASK : 0;
		KUNIT_EXPECT_EQ_MSG(test, pmuv3_test_map(armv8pmu_map_generic, ev, c[i].type,
							 c[i].config, c[i].config1),
				    c[i].want, "row %d", i);
		if (c[i].want >= 0)
			KUNIT_EXPECT_EQ_MSG(test, (u32)ev->hw.flags, c[i].flags, "row %d", i);
	}
}

/* ---- privilege and threshold filters ------------------------------ */

static int pmuv3_test_filter(struct perf_event *event)
{
	event->hw.config_base = 0;
	return armv8pmu_set_event_filter(&event->hw, &event->attr);
}

static void pmuv3_test_event_filter(struct kunit *test)
{
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *ev = pmuv3_test_event(test, PERF_TYPE_RAW, 0x08, 0, -1);
	const u64 el0 = ARMV8_PMU_EXCLUDE_EL0, el1 = ARMV8_PMU_EXCLUDE_EL1;

	ev->attr.exclude_idle = 1;
	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), -EOPNOTSUPP);
	ev->attr.exclude_idle = 0;

	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), 0);
	KUNIT_EXPECT_EQ(test, ev->hw.config_base & (el0 | el1), 0ULL);

	ev->attr.exclude_user = 1;
	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), 0);
	KUNIT_EXPECT_EQ(test, ev->hw.config_base & (el0 | el1), el0);

	ev->attr.exclude_user = 0;
	ev->attr.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), 0);
	KUNIT_EXPECT_EQ(test, ev->hw.config_base & (el0 | el1), el1);
	ev->attr.exclude_kernel = 0;

	/* No FEAT_PMUv3_TH: no threshold at all. */
	ev->attr.config1 = PMUV3_TEST_TH(1);
	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), -EINVAL);

	/* A 4-bit TH: thresholds up to 15. */
	armpmu->reg_pmmir = FIELD_PREP(ARMV8_PMU_THWIDTH, 4);
	ev->attr.config1 = PMUV3_TEST_TH(15) | PMUV3_TEST_TH_COMPARE(2) |
			   PMUV3_TEST_TH_COUNT;
	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), 0);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ARMV8_PMU_EVTYPE_TH, ev->hw.config_base), 15ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ARMV8_PMU_EVTYPE_TC, ev->hw.config_base),
			(u64)(2 << 1 | 1));

	ev->attr.config1 = PMUV3_TEST_TH(3) | PMUV3_TEST_TH_COMPARE(1);
	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), 0);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ARMV8_PMU_EVTYPE_TH, ev->hw.config_base), 3ULL);
	KUNIT_EXPECT_EQ(test, FIELD_GET(ARMV8_PMU_EVTYPE_TC, ev->hw.config_base),
			(u64)(1 << 1));

	ev->attr.config1 = PMUV3_TEST_TH(16);
	KUNIT_EXPECT_EQ(test, pmuv3_test_filter(ev), -EINVAL);
}

/* ---- user-space read index ---------------------------------------- */

static void pmuv3_test_event_idx(struct kunit *test)
{
	struct perf_event *ev = pmuv3_test_event(test, PERF_TYPE_RAW, 0x08,
						 PMUV3_TEST_RDPMC, 4);
	int saved = sysctl_perf_user_access;

	ev->hw.flags = PERF_EVENT_FLAG_USER_READ_CNT;
	sysctl_perf_user_access = 0;
	KUNIT_EXPECT_EQ(test, armv8pmu_event_idx(ev), 0);

	sysctl_perf_user_access = 1;
	KUNIT_EXPECT_EQ(test, armv8pmu_event_idx(ev), 5);
	ev->hw.idx = ARMV8_PMU_CYCLE_IDX;
	KUNIT_EXPECT_EQ(test, armv8pmu_event_idx(ev), ARMV8_PMU_CYCLE_IDX + 1);

	ev->hw.flags = 0;
	KUNIT_EXPECT_EQ(test, armv8pmu_event_idx(ev), 0);

	sysctl_perf_user_access = saved;
}

/* ---- the whole PMU ------------------------------------------------ */

static void pmuv3_test_reset(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	const u64 mask = PMUV3_TEST_GENERAL | PMUV3_TEST_CYCLES;
	const u64 pmcr_bits = ARMV8_PMU_PMCR_E | ARMV8_PMU_PMCR_P |
			      ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_LC |
			      ARMV8_PMU_PMCR_LP;
	const u64 v80 = ARMV8_PMU_PMCR_P | ARMV8_PMU_PMCR_C | ARMV8_PMU_PMCR_LC;

	r->cnten = U64_MAX;
	r->inten = U64_MAX;
	r->ovs = U64_MAX;
	pmuv3_test_call(armpmu, pmuv3_test_reset_pmu);
	KUNIT_EXPECT_EQ(test, r->cnten & mask, 0ULL);
	KUNIT_EXPECT_EQ(test, r->inten & mask, 0ULL);
	KUNIT_EXPECT_EQ(test, r->ovs & mask, 0ULL);
	KUNIT_EXPECT_EQ(test, r->pmcr & pmcr_bits, v80);

	armpmu->pmuver = ARMV8_PMU_DFR_VER_V3P5;
	r->pmcr = 0;
	pmuv3_test_call(armpmu, pmuv3_test_reset_pmu);
	KUNIT_EXPECT_EQ(test, r->pmcr & pmcr_bits, v80 | ARMV8_PMU_PMCR_LP);
}

static void pmuv3_test_start_stop(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	const u64 other = ARMV8_PMU_PMCR_LC | ARMV8_PMU_PMCR_LP | ARMV8_PMU_PMCR_D;
	int saved = sysctl_perf_user_access;

	/* No user-read events here: start takes EL0's access away. */
	sysctl_perf_user_access = 0;
	r->pmcr = other;
	r->userenr = ARMV8_PMU_USERENR_ER | ARMV8_PMU_USERENR_CR;
	pmuv3_test_call(armpmu, armv8pmu_start);
	sysctl_perf_user_access = saved;
	KUNIT_EXPECT_EQ(test, r->pmcr, other | ARMV8_PMU_PMCR_E);
	KUNIT_EXPECT_EQ(test, r->userenr, 0ULL);

	pmuv3_test_call(armpmu, armv8pmu_stop);
	KUNIT_EXPECT_EQ(test, r->pmcr, other);
	pmuv3_test_call(armpmu, armv8pmu_stop);
	KUNIT_EXPECT_EQ(test, r->pmcr, other);

	/* Nothing else in the model changes. */
	KUNIT_EXPECT_EQ(test, r->cnten, 0ULL);
	KUNIT_EXPECT_EQ(test, r->inten, 0ULL);
}

/* ---- placement through the framework ------------------------------ */

/* The framework's calls into this driver, as armv8pmu_init() sets them. */
static void pmuv3_test_driver(struct arm_pmu *armpmu)
{
	armpmu->counters_for = armv8pmu_counters_for;
	armpmu->enable = armv8pmu_enable;
	armpmu->disable = armv8pmu_disable;
	armpmu->read_counter = armv8pmu_read_counter;
	armpmu->write_counter = armv8pmu_write_counter;
	cpumask_setall(&armpmu->supported_cpus);
}

static int pmuv3_test_add_ret;

static void pmuv3_test_add(struct perf_event *event)
{
	pmuv3_test_add_ret = event->pmu->add(event, PERF_EF_START);
}

static void pmuv3_test_del(struct perf_event *event)
{
	event->pmu->del(event, 0);
}

static int pmuv3_test_add_idx(struct kunit *test, struct perf_event *event)
{
	pmuv3_test_add_ret = -1;
	pmuv3_test_ev_call(event, pmuv3_test_add);
	KUNIT_EXPECT_EQ(test, pmuv3_test_add_ret, 0);
	return event->hw.idx;
}

/*
 * An event goes back to the counter it held last when that is free,
 * though a lower one is free too (a task switching in puts its events
 * where they were); when another event holds it, the event is placed
 * as any, and that counter is its home from then on.
 */
static void pmuv3_test_home(struct kunit *test)
{
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *ev[4];
	int i;

	/* Identical events: counters of their own, not one shared. */
	WRITE_ONCE(perf_sysctl_share_counters, 0);
	pmuv3_test_driver(armpmu);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		ev[i] = pmuv3_test_event(test, PERF_TYPE_RAW,
					 ARMV8_PMUV3_PERFCTR_L1D_CACHE, 0, -1);
	/* The driver keeps records per CPU: stay on one. */
	migrate_disable();
	pmuv3_test_call(armpmu, pmuv3_test_reset_pmu);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, pmuv3_test_add_idx(test, ev[i]), i);
	for (i = 0; i < 3; i++)
		pmuv3_test_ev_call(ev[i], pmuv3_test_del);

	KUNIT_EXPECT_EQ(test, pmuv3_test_add_idx(test, ev[2]), 2);
	KUNIT_EXPECT_EQ(test, pmuv3_test_add_idx(test, ev[1]), 1);
	KUNIT_EXPECT_EQ(test, pmuv3_test_add_idx(test, ev[3]), 0);
	KUNIT_EXPECT_EQ(test, pmuv3_test_add_idx(test, ev[0]), 3);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		pmuv3_test_ev_call(ev[i], pmuv3_test_del);
	KUNIT_EXPECT_EQ(test, pmuv3_test_add_idx(test, ev[0]), 3);
	pmuv3_test_ev_call(ev[0], pmuv3_test_del);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, pmuv3_test_regs.cnten, 0ULL);
	WRITE_ONCE(perf_sysctl_share_counters, 1);
}

static void pmuv3_test_read(struct perf_event *event)
{
	event->pmu->read(event);
}

/*
 * Identical counting events share a counter (kernel/events/share.c):
 * the second reads the first's, and what the counter advances counts
 * for both; the first's leaving hands the counter over, still enabled,
 * untouched; the last one's leaving stops it.
 */
static void pmuv3_test_shared(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *a, *b;
	int idx;

	pmuv3_test_driver(armpmu);
	a = pmuv3_test_event(test, PERF_TYPE_RAW,
			     ARMV8_PMUV3_PERFCTR_L1D_CACHE, 0, -1);
	b = pmuv3_test_event(test, PERF_TYPE_RAW,
			     ARMV8_PMUV3_PERFCTR_L1D_CACHE, 0, -1);
	armpmu->pmu.capabilities |= PERF_PMU_CAP_SHARE_COUNTERS;
	migrate_disable();
	pmuv3_test_call(armpmu, pmuv3_test_reset_pmu);
	idx = pmuv3_test_add_idx(test, a);
	KUNIT_EXPECT_EQ(test, pmuv3_test_add_idx(test, b), idx);
	KUNIT_EXPECT_TRUE(test, perf_share_is_rider(b));
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(idx));

	r->counter[idx] += 100;
	pmuv3_test_ev_call(a, pmuv3_test_read);
	pmuv3_test_ev_call(b, pmuv3_test_read);
	KUNIT_EXPECT_EQ(test, local64_read(&a->count), 100);
	KUNIT_EXPECT_EQ(test, local64_read(&b->count), 100);

	pmuv3_test_ev_call(a, pmuv3_test_del);
	KUNIT_EXPECT_FALSE(test, perf_share_is_rider(b));
	KUNIT_EXPECT_EQ(test, b->hw.idx, idx);
	KUNIT_EXPECT_EQ(test, r->cnten, BIT_ULL(idx));
	r->counter[idx] += 20;
	pmuv3_test_ev_call(b, pmuv3_test_read);
	KUNIT_EXPECT_EQ(test, local64_read(&b->count), 120);
	KUNIT_EXPECT_EQ(test, local64_read(&a->count), 100);

	pmuv3_test_ev_call(b, pmuv3_test_del);
	KUNIT_EXPECT_EQ(test, r->cnten, 0ULL);
	migrate_enable();
}

/*
 * A counter's type is written only when it changes: the next event on the
 * counter that counts the same thing (another task's, at a switch) writes
 * nothing.  Not after a reset (the CPU may have lost its registers), nor
 * after an event that counts for the host or a guest only, whose type KVM
 * rewrites behind the driver.
 */
static void pmuv3_test_types(struct kunit *test)
{
	struct pmuv3_test_regs *r = &pmuv3_test_regs;
	struct arm_pmu *armpmu = pmuv3_test_pmu(test);
	struct perf_event *l1d = pmuv3_test_event(test, PERF_TYPE_RAW,
				ARMV8_PMUV3_PERFCTR_L1D_CACHE, 0, 2);
	struct perf_event *again = pmuv3_test_event(test, PERF_TYPE_RAW,
				ARMV8_PMUV3_PERFCTR_L1D_CACHE, 0, 2);
	struct perf_event *br = pmuv3_test_event(test, PERF_TYPE_RAW,
				ARMV8_PMUV3_PERFCTR_BR_RETIRED, 0, 2);
	struct perf_event *host = pmuv3_test_event(test, PERF_TYPE_RAW,
				ARMV8_PMUV3_PERFCTR_L1D_CACHE, 0, 2);

	host->attr.exclude_guest = 1;
	migrate_disable();
	pmuv3_test_call(armpmu, pmuv3_test_reset_pmu);
	r->type_writes = 0;

	pmuv3_test_ev_call(l1d, armv8pmu_enable);
	pmuv3_test_ev_call(l1d, armv8pmu_disable);
	KUNIT_EXPECT_EQ(test, r->type_writes, 1U);
	pmuv3_test_ev_call(again, armv8pmu_enable);
	pmuv3_test_ev_call(again, armv8pmu_disable);
	KUNIT_EXPECT_EQ(test, r->type_writes, 1U);
	KUNIT_EXPECT_EQ(test, r->type[2], (u64)ARMV8_PMUV3_PERFCTR_L1D_CACHE);

	pmuv3_test_ev_call(br, armv8pmu_enable);
	pmuv3_test_ev_call(br, armv8pmu_disable);
	KUNIT_EXPECT_EQ(test, r->type_writes, 2U);
	KUNIT_EXPECT_EQ(test, r->type[2], (u64)ARMV8_PMUV3_PERFCTR_BR_RETIRED);

	/* Host only: KVM flips EL0 counting in the type at a vCPU load. */
	pmuv3_test_ev_call(host, armv8pmu_enable);
	r->type[2] |= ARMV8_PMU_EXCLUDE_EL0;
	pmuv3_test_ev_call(host, armv8pmu_disable);
	pmuv3_test_ev_call(l1d, armv8pmu_enable);
	pmuv3_test_ev_call(l1d, armv8pmu_disable);
	KUNIT_EXPECT_EQ(test, r->type[2], (u64)ARMV8_PMUV3_PERFCTR_L1D_CACHE);

	/* The registers are unknown after a reset. */
	pmuv3_test_call(armpmu, pmuv3_test_reset_pmu);
	r->type[2] = 0;
	pmuv3_test_ev_call(l1d, armv8pmu_enable);
	pmuv3_test_ev_call(l1d, armv8pmu_disable);
	KUNIT_EXPECT_EQ(test, r->type[2], (u64)ARMV8_PMUV3_PERFCTR_L1D_CACHE);
	migrate_enable();
}

static struct kunit_case pmuv3_test_cases[] = {
	KUNIT_CASE(pmuv3_test_chained_pair),
	KUNIT_CASE(pmuv3_test_enables_at_start),
	KUNIT_CASE(pmuv3_test_chained_read_retry),
	KUNIT_CASE(pmuv3_test_bias),
	KUNIT_CASE(pmuv3_test_counters_for),
	KUNIT_CASE(pmuv3_test_map_generic),
	KUNIT_CASE(pmuv3_test_map_widths),
	KUNIT_CASE(pmuv3_test_event_filter),
	KUNIT_CASE(pmuv3_test_event_idx),
	KUNIT_CASE(pmuv3_test_reset),
	KUNIT_CASE(pmuv3_test_start_stop),
	KUNIT_CASE(pmuv3_test_home),
	KUNIT_CASE(pmuv3_test_shared),
	KUNIT_CASE(pmuv3_test_types),
	{}
};

static struct kunit_suite pmuv3_test_suite = {
	.name		= "arm_pmuv3",
	.init		= pmuv3_test_init,
	.exit		= pmuv3_test_exit,
	.test_cases	= pmuv3_test_cases,
};

kunit_test_suite(pmuv3_test_suite);
