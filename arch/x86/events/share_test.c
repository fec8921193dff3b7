// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: identical counting events sharing one counter (share.c), on the
 * model of counters_test.c: a carrier placed on a general counter, a
 * rider joining it through x86c_share_add(), the overflow interrupt
 * reloading the counter under the rider, and the carrier's role handed
 * over as it stops and leaves.  Every count is checked against what the
 * model counted while each event was counting.
 */

#include <kunit/test.h>
#include <linux/module.h>
#include <linux/perf_event.h>

#include "counters.h"
#include "counters_test.h"

#define SHARE_CONFIG	(EVTSEL_USR | EVTSEL_INT | 0xc4)

/* A counting event of the model's PMU, on no counter yet. */
static struct perf_event *share_event(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct perf_event *event;

	event = fake_event(test, 0, SHARE_CONFIG, ctx->p->max_period);
	event->pmu = &ctx->p->pmu;
	event->attr.type = PERF_TYPE_RAW;
	event->attr.config = 0xc4;
	event->attr.exclude_kernel = 1;
	event->hw.idx = -1;
	event->hw.extra_reg.idx = -1;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	return event;
}

/* @event in the CPU's list, placed, bound and started on counter @idx. */
static void share_place(struct kunit *test, struct perf_event *event, int idx)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_cpu *cpu = ctx->cpu;
	int n = cpu->nr;

	cpu->events[n] = event;
	cpu->constraint[n] = x86c_constraint(ctx->p, SHARE_CONFIG);
	cpu->assign[n] = idx;
	cpu->nr = n + 1;
	cpu->placed = n + 1;
	x86c_bind(ctx->p, event, idx);
	cpu->owner[idx] = event;
	cpu->owned |= BIT_ULL(idx);
	x86c_start_on(ctx->p, cpu, event, PERF_EF_RELOAD);
}

static void share_init_pmu(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;

	ctx->p->pmu.capabilities = PERF_PMU_CAP_SHARE_COUNTERS;
}

/*
 * A rider joins a counting carrier, both count, the counter overflows
 * and is reloaded by the PMI, both go on; the carrier stops (the rider
 * takes the counter over, which keeps counting) and leaves (its stopped
 * rider state goes with it); the new carrier's leaving stops the
 * counter for good.
 */
static void share_rider_through_pmi_and_hand_over(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct x86c_cpu *cpu = ctx->cpu;
	struct perf_event *c, *r;
	u64 to_wrap;

	share_init_pmu(test);
	c = share_event(test);
	r = share_event(test);
	share_place(test, c, 1);
	x86c_intel_v2_vendor.enable_all(p, cpu);
	fake_count(1, 30);

	KUNIT_ASSERT_TRUE(test, x86c_share_add(p, cpu, r, PERF_EF_START));
	KUNIT_EXPECT_TRUE(test, perf_share_is_rider(r));
	KUNIT_EXPECT_EQ(test, r->hw.idx, 1);
	KUNIT_EXPECT_TRUE(test, perf_share_counting(r));
	KUNIT_EXPECT_EQ(test, cpu->nr, 1);

	/* To the counter's wrap and 5 past it: the PMI reloads it. */
	to_wrap = FAKE_MASK + 1 - x86c_fake->gp[1];
	fake_count(1, to_wrap + 5);
	fake_pmi();
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, ev_count(c), 30 + to_wrap + 5);
	fake_count(1, 100);
	x86c_event_update(p, r);
	x86c_event_update(p, c);
	KUNIT_EXPECT_EQ(test, ev_count(r), to_wrap + 5 + 100);
	KUNIT_EXPECT_EQ(test, ev_count(c), 30 + to_wrap + 5 + 100);

	/* The carrier stops: the rider holds the counter, still counting. */
	KUNIT_EXPECT_TRUE(test, x86c_share_stop(p, cpu, c));
	KUNIT_EXPECT_PTR_EQ(test, cpu->owner[1], r);
	KUNIT_EXPECT_PTR_EQ(test, cpu->events[0], r);
	KUNIT_EXPECT_TRUE(test, perf_share_is_rider(c));
	KUNIT_EXPECT_FALSE(test, perf_share_counting(c));
	KUNIT_EXPECT_TRUE(test, cpu->running & BIT_ULL(1));
	KUNIT_EXPECT_TRUE(test, x86c_fake->evtsel[1] & EVTSEL_EN);
	fake_count(1, 7);
	x86c_event_update(p, r);
	KUNIT_EXPECT_EQ(test, ev_count(r), to_wrap + 5 + 107);
	KUNIT_EXPECT_EQ(test, ev_count(c), 30 + to_wrap + 5 + 100);

	/* The new carrier leaves; nobody counts on: the counter stops. */
	KUNIT_EXPECT_TRUE(test, x86c_share_del(p, cpu, r));
	KUNIT_EXPECT_FALSE(test, perf_share_is_rider(r));
	KUNIT_EXPECT_FALSE(test, perf_share_is_rider(c));
	KUNIT_EXPECT_PTR_EQ(test, cpu->events[0], c);
	KUNIT_EXPECT_PTR_EQ(test, cpu->owner[1], c);
	KUNIT_EXPECT_EQ(test, cpu->share.nr, 0U);
	KUNIT_EXPECT_FALSE(test, cpu->running & BIT_ULL(1));
	KUNIT_EXPECT_FALSE(test, x86c_fake->evtsel[1] & EVTSEL_EN);
	KUNIT_EXPECT_EQ(test, ev_count(r), to_wrap + 5 + 107);

	/* Started again, the old carrier counts from where it stopped. */
	x86c_start_on(p, cpu, c, PERF_EF_RELOAD);
	fake_count(1, 11);
	x86c_event_update(p, c);
	KUNIT_EXPECT_EQ(test, ev_count(c), 30 + to_wrap + 5 + 111);
}

/*
 * A rider that starts while its carrier is stopped takes the counter
 * and starts it; one whose carrier has no counter yet waits and starts
 * when x86c_share_follow() binds it.
 */
static void share_rider_starts_the_counter(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct x86c_cpu *cpu = ctx->cpu;
	struct perf_event *c, *r, *late;

	share_init_pmu(test);
	c = share_event(test);
	r = share_event(test);
	late = share_event(test);
	share_place(test, c, 2);
	x86c_intel_v2_vendor.enable_all(p, cpu);
	x86c_stop(p, cpu, c, PERF_EF_UPDATE);

	KUNIT_ASSERT_TRUE(test, x86c_share_add(p, cpu, r, 0));
	KUNIT_EXPECT_FALSE(test, perf_share_counting(r));
	x86c_share_start(p, cpu, r);
	KUNIT_EXPECT_PTR_EQ(test, cpu->owner[2], r);
	KUNIT_EXPECT_FALSE(test, perf_share_is_rider(r));
	KUNIT_EXPECT_TRUE(test, perf_share_is_rider(c));
	KUNIT_EXPECT_TRUE(test, x86c_fake->evtsel[2] & EVTSEL_EN);
	fake_count(2, 9);
	x86c_event_update(p, r);
	KUNIT_EXPECT_EQ(test, ev_count(r), 9ULL);
	KUNIT_EXPECT_EQ(test, ev_count(c), 0ULL);

	/* A carrier not yet on its counter: the rider waits for it. */
	cpu->owner[2] = NULL;
	cpu->running &= ~BIT_ULL(2);
	KUNIT_ASSERT_TRUE(test, x86c_share_add(p, cpu, late, PERF_EF_START));
	KUNIT_EXPECT_EQ(test, late->hw.idx, -1);
	KUNIT_EXPECT_FALSE(test, perf_share_counting(late));
	cpu->owner[2] = r;
	cpu->running |= BIT_ULL(2);
	x86c_share_follow(p, cpu, r);
	KUNIT_EXPECT_EQ(test, late->hw.idx, 2);
	KUNIT_EXPECT_TRUE(test, perf_share_counting(late));
	fake_count(2, 4);
	x86c_event_update(p, late);
	KUNIT_EXPECT_EQ(test, ev_count(late), 4ULL);
}

/* Sampling events and events of another selection never ride. */
static void share_only_alike_counting(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct x86c_cpu *cpu = ctx->cpu;
	struct perf_event *c, *e;

	share_init_pmu(test);
	c = share_event(test);
	share_place(test, c, 0);

	e = share_event(test);
	e->attr.sample_period = 1000;
	KUNIT_EXPECT_FALSE(test, x86c_share_add(p, cpu, e, PERF_EF_START));
	e = share_event(test);
	e->attr.config1 = 1;
	KUNIT_EXPECT_FALSE(test, x86c_share_add(p, cpu, e, PERF_EF_START));
	e = share_event(test);
	e->hw.config |= EVTSEL_OS;
	KUNIT_EXPECT_FALSE(test, x86c_share_add(p, cpu, e, PERF_EF_START));
	WRITE_ONCE(perf_sysctl_share_counters, 0);
	KUNIT_EXPECT_FALSE(test, x86c_share_add(p, cpu, share_event(test), 0));
	WRITE_ONCE(perf_sysctl_share_counters, 1);
	KUNIT_EXPECT_EQ(test, cpu->share.nr, 0U);
}

static struct kunit_case share_cases[] = {
	KUNIT_CASE(share_rider_through_pmi_and_hand_over),
	KUNIT_CASE(share_rider_starts_the_counter),
	KUNIT_CASE(share_only_alike_counting),
	{}
};

static struct kunit_suite share_suite = {
	.name = "perfcore_x86_share",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = share_cases,
};

kunit_test_suite(share_suite);

MODULE_DESCRIPTION("KUnit tests for x86 counters shared by identical events");
MODULE_LICENSE("GPL");
