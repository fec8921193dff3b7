// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the branch trace store (intel/bts.c) against the register
 * model of counters_test.c and a debug store of the case's own: which
 * events are a branch trace and which of those may be one; DEBUGCTL as
 * a trace starts and stops, the driver's other bits left alone; the
 * buffer emptied by the drain, records or none; and the PMI, which a
 * full trace raises with no status bit, claimed for it.
 *
 * The debug store's BTS fields are the hardware's: the cases store the
 * records themselves, as the CPU would, and move the index.
 */

#include <kunit/test.h>
#include <linux/perf_event.h>

#include <asm/intel_ds.h>

#include "counters.h"
#include "counters_test.h"

#define BTS_CODE	0xc4
#define BTS_TEST_RECORDS	8

struct bts_test_record {
	u64	from;
	u64	to;
	u64	flags;
};

/* The fixture's PMU with branch instructions at 0xc4 and BTS or not. */
static struct x86c_pmu *bts_pmu(struct kunit *test, bool has_bts)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;

	p->event_map[PERF_COUNT_HW_BRANCH_INSTRUCTIONS] = BTS_CODE;
	p->bts_period = true;
	p->bts = has_bts;
	return p;
}

/* A user-only event on branch instructions at @period. */
static struct perf_event *bts_event(struct kunit *test, u64 period)
{
	struct perf_event *event;

	event = fake_event(test, -1, BTS_CODE | ARCH_PERFMON_EVENTSEL_INT |
			   ARCH_PERFMON_EVENTSEL_USR, period);
	event->attr.exclude_kernel = 1;
	event->attr.sample_period = period;
	return event;
}

/* A debug store for this CPU, its buffer of BTS_TEST_RECORDS records. */
static struct debug_store *bts_store(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct bts_test_record *buf;
	struct debug_store *ds;

	ds = kunit_kzalloc(test, sizeof(*ds), GFP_KERNEL);
	buf = kunit_kcalloc(test, BTS_TEST_RECORDS, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ds);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	ds->bts_buffer_base = (unsigned long)buf;
	ds->bts_index = ds->bts_buffer_base;
	ds->bts_absolute_maximum = (unsigned long)(buf + BTS_TEST_RECORDS);
	ds->bts_interrupt_threshold = (unsigned long)(buf + BTS_TEST_RECORDS - 2);
	ctx->cpu->ds = ds;
	return ds;
}

/* The CPU stores a branch @from -> @to. */
static void bts_store_branch(struct debug_store *ds, u64 from, u64 to)
{
	struct bts_test_record *r = (void *)(unsigned long)ds->bts_index;

	r->from = from;
	r->to = to;
	ds->bts_index += sizeof(*r);
}

/*
 * A period of 1 on the branch-instructions code, by period, on the
 * host: whether the CPU has BTS or not, and for a period an event
 * would change to.
 */
static void bts_shape_rule(struct kunit *test)
{
	struct x86c_pmu *p = bts_pmu(test, false);
	struct perf_event *event = bts_event(test, 1);

	KUNIT_EXPECT_TRUE(test, x86c_bts_shape(p, event, 1));
	KUNIT_EXPECT_FALSE(test, x86c_bts_shape(p, event, 2));
	event->attr.freq = 1;
	KUNIT_EXPECT_FALSE(test, x86c_bts_shape(p, event, 1));
	event->attr.freq = 0;
	event->attr.exclude_host = 1;
	KUNIT_EXPECT_FALSE(test, x86c_bts_shape(p, event, 1));
	event->attr.exclude_host = 0;
	/* the unit mask is part of the code */
	event->hw.config |= 0x0100;
	KUNIT_EXPECT_FALSE(test, x86c_bts_shape(p, event, 1));
	event->hw.config &= ~0x0100ULL;
	/* AMD's PMUs: no BTS, a period of 1 is a counter's */
	p->bts_period = false;
	KUNIT_EXPECT_FALSE(test, x86c_bts_shape(p, event, 1));
}

/* EOPNOTSUPP without BTS, with kernel branches, with precise_ip. */
static void bts_check_rule(struct kunit *test)
{
	struct x86c_pmu *p = bts_pmu(test, false);
	struct perf_event *event = bts_event(test, 1);

	KUNIT_EXPECT_EQ(test, x86c_bts_check(p, event), -EOPNOTSUPP);
	p->bts = true;
	KUNIT_EXPECT_EQ(test, x86c_bts_check(p, event), 0);
	event->attr.exclude_kernel = 0;
	KUNIT_EXPECT_EQ(test, x86c_bts_check(p, event), -EOPNOTSUPP);
	event->attr.exclude_kernel = 1;
	event->attr.precise_ip = 1;
	KUNIT_EXPECT_EQ(test, x86c_bts_check(p, event), -EOPNOTSUPP);
}

/*
 * Start: TR, BTS, BTINT and BTS_OFF_OS (BTS_OFF_USR too for a kernel-
 * and user-excluding event, which traces nothing), the index back at
 * the base; the driver's freeze bit kept.  Stop: the five bits clear,
 * the freeze bit still set.  One trace per CPU.
 */
static void bts_debugctl(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = bts_pmu(test, true);
	struct perf_event *event = bts_event(test, 1);
	struct debug_store *ds = bts_store(test);
	u64 trace = DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS | DEBUGCTLMSR_BTINT |
		    DEBUGCTLMSR_BTS_OFF_OS;

	x86c_fake->debugctl = DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI;
	ds->bts_index += 3 * sizeof(struct bts_test_record);
	KUNIT_ASSERT_EQ(test, x86c_bts_add(p, ctx->cpu, event, PERF_EF_START), 0);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl,
			trace | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	KUNIT_EXPECT_EQ(test, ds->bts_index, ds->bts_buffer_base);
	KUNIT_EXPECT_EQ(test, x86c_bts_add(p, ctx->cpu, bts_event(test, 1),
					   PERF_EF_START), -EBUSY);

	x86c_bts_del(p, ctx->cpu, event);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl,
			(u64)DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	KUNIT_EXPECT_PTR_EQ(test, ctx->cpu->bts.event, (struct perf_event *)NULL);

	event->attr.exclude_user = 1;
	KUNIT_ASSERT_EQ(test, x86c_bts_add(p, ctx->cpu, event, 0), 0);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl,
			(u64)DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	x86c_bts_start(p, ctx->cpu, event);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl,
			trace | DEBUGCTLMSR_BTS_OFF_USR |
			DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI);
	x86c_bts_stop(p, ctx->cpu, event);
	x86c_bts_del(p, ctx->cpu, event);
}

/*
 * The PMI: a trace with records is claimed (no status bit says so) and
 * its buffer emptied; an empty one, or no trace, is not the PMI's.
 */
static void bts_pmi_drains(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = bts_pmu(test, true);
	struct perf_event *event = bts_event(test, 1);
	struct debug_store *ds = bts_store(test);

	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 0);
	KUNIT_ASSERT_EQ(test, x86c_bts_add(p, ctx->cpu, event, PERF_EF_START), 0);
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 0);
	bts_store_branch(ds, 0x401000, 0x401020);
	bts_store_branch(ds, 0x401030, 0xffffffff81000000ULL);
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, ds->bts_index, ds->bts_buffer_base);
	/* Tracing goes on through the PMI: DEBUGCTL untouched. */
	KUNIT_EXPECT_TRUE(test, x86c_fake->debugctl & DEBUGCTLMSR_BTS);
	/* Leaving drains what is left, then stops. */
	bts_store_branch(ds, 0x401000, 0x401020);
	x86c_bts_del(p, ctx->cpu, event);
	KUNIT_EXPECT_EQ(test, ds->bts_index, ds->bts_buffer_base);
	KUNIT_EXPECT_FALSE(test, x86c_fake->debugctl & DEBUGCTLMSR_BTS);
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 0);
}

static struct kunit_case bts_cases[] = {
	KUNIT_CASE(bts_shape_rule),
	KUNIT_CASE(bts_check_rule),
	KUNIT_CASE(bts_debugctl),
	KUNIT_CASE(bts_pmi_drains),
	{}
};

static struct kunit_suite bts_suite = {
	.name = "perfcore_x86_bts",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = bts_cases,
};

kunit_test_suite(bts_suite);
