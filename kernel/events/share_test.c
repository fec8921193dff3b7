// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for counter sharing (share.c): the rule that says which
 * events count alike, and the rider table the drivers keep, on events
 * made here (only the fields share.c reads are set; no ring buffer, so
 * the user page updates do nothing).
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/perf/counter_share.h>

static struct pmu share_test_pmu = {
	.capabilities	= PERF_PMU_CAP_SHARE_COUNTERS,
};

static struct pmu share_test_other_pmu = {
	.capabilities	= PERF_PMU_CAP_SHARE_COUNTERS,
};

/* A stopped counting event of the test PMU, instructions:u, on no counter. */
static struct perf_event *share_event(struct kunit *test)
{
	struct perf_event *event;

	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	event->pmu = &share_test_pmu;
	event->attr.type = PERF_TYPE_HARDWARE;
	event->attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	event->attr.exclude_kernel = 1;
	event->hw.idx = -1;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	return event;
}

static void share_rule_test(struct kunit *test)
{
	struct perf_event *a = share_event(test);
	struct perf_event *b = share_event(test);

	KUNIT_EXPECT_TRUE(test, perf_events_count_alike(a, b));

	b->attr.config1 = 1;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->attr.config1 = 0;
	b->attr.exclude_kernel = 0;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->attr.exclude_kernel = 1;
	b->attr.exclude_guest = 1;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->attr.exclude_guest = 0;
	b->attr.type = PERF_TYPE_RAW;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->attr.type = PERF_TYPE_HARDWARE;
	b->pmu = &share_test_other_pmu;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->pmu = &share_test_pmu;

	/* Sampling, precise or branch-recording events never share. */
	b->attr.sample_period = 1000;
	KUNIT_EXPECT_FALSE(test, perf_event_may_share(b));
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->attr.sample_period = 0;
	b->attr.precise_ip = 1;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->attr.precise_ip = 0;
	b->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	b->attr.branch_sample_type = 0;
	KUNIT_EXPECT_TRUE(test, perf_events_count_alike(a, b));

	/* The sysctl, and a PMU that never opted in. */
	WRITE_ONCE(perf_sysctl_share_counters, 0);
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	WRITE_ONCE(perf_sysctl_share_counters, 1);
	share_test_pmu.capabilities = 0;
	KUNIT_EXPECT_FALSE(test, perf_events_count_alike(a, b));
	share_test_pmu.capabilities = PERF_PMU_CAP_SHARE_COUNTERS;
	KUNIT_EXPECT_TRUE(test, perf_events_count_alike(a, b));
}

static void share_table_test(struct kunit *test)
{
	struct perf_share_riders *t;
	struct perf_event *carrier = share_event(test);
	struct perf_event *other = share_event(test);
	struct perf_event *r[PERF_SHARE_MAX_RIDERS + 1];
	struct perf_event *e;
	unsigned int pos, n = 0;
	int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i <= PERF_SHARE_MAX_RIDERS; i++)
		r[i] = share_event(test);

	for (i = 0; i < PERF_SHARE_MAX_RIDERS; i++) {
		e = i % 2 ? other : carrier;
		KUNIT_ASSERT_TRUE(test, perf_share_join(t, r[i], e));
	}
	/* Full: the next one takes a counter of its own. */
	KUNIT_EXPECT_FALSE(test, perf_share_join(t, r[i], carrier));
	KUNIT_EXPECT_FALSE(test, perf_share_is_rider(r[i]));
	KUNIT_EXPECT_TRUE(test, perf_share_is_rider(r[0]));
	KUNIT_EXPECT_PTR_EQ(test, perf_share_carrier(t, r[3]), other);

	for (pos = 0; (e = perf_share_next_rider(t, carrier, &pos)); ) {
		KUNIT_EXPECT_PTR_EQ(test, perf_share_carrier(t, e), carrier);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, PERF_SHARE_MAX_RIDERS / 2);
	KUNIT_EXPECT_NULL(test, perf_share_counting_rider(t, carrier));
	r[4]->hw.state = 0;
	KUNIT_EXPECT_PTR_EQ(test, perf_share_counting_rider(t, carrier), r[4]);

	perf_share_leave(t, r[0]);
	KUNIT_EXPECT_FALSE(test, perf_share_is_rider(r[0]));
	KUNIT_EXPECT_EQ(test, t->nr, PERF_SHARE_MAX_RIDERS - 1);
	for (pos = 0; (e = perf_share_next_rider(t, carrier, &pos)); )
		KUNIT_EXPECT_PTR_NE(test, e, r[0]);
	KUNIT_EXPECT_TRUE(test, perf_share_join(t, r[i], carrier));
}

static void share_hand_over_test(struct kunit *test)
{
	struct perf_share_riders *t;
	struct perf_event *c = share_event(test);
	struct perf_event *r1 = share_event(test);
	struct perf_event *r2 = share_event(test);
	struct perf_event *x = share_event(test);
	struct perf_event *other = share_event(test);

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	perf_share_join(t, r1, c);
	perf_share_join(t, x, other);
	perf_share_join(t, r2, c);

	/* The heir: one that counts if any, else the first. */
	KUNIT_EXPECT_PTR_EQ(test, perf_share_heir(t, c), r1);
	r2->hw.state = 0;
	KUNIT_EXPECT_PTR_EQ(test, perf_share_heir(t, c), r2);
	r2->hw.state = PERF_HES_STOPPED;
	KUNIT_EXPECT_NULL(test, perf_share_heir(t, r1));

	perf_share_hand_over(t, c, r1);
	KUNIT_EXPECT_FALSE(test, perf_share_is_rider(r1));
	KUNIT_EXPECT_TRUE(test, perf_share_is_rider(c));
	KUNIT_EXPECT_PTR_EQ(test, perf_share_carrier(t, c), r1);
	KUNIT_EXPECT_PTR_EQ(test, perf_share_carrier(t, r2), r1);
	KUNIT_EXPECT_PTR_EQ(test, perf_share_carrier(t, x), other);
	KUNIT_EXPECT_EQ(test, t->nr, 3U);
}

static void share_shift_test(struct kunit *test)
{
	struct perf_share_riders *t;
	struct perf_event *c = share_event(test);
	struct perf_event *on = share_event(test);
	struct perf_event *off = share_event(test);
	struct perf_event *elsewhere = share_event(test);

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	c->hw.idx = 2;
	on->hw.idx = 2;
	off->hw.idx = 2;
	elsewhere->hw.idx = 3;
	c->hw.state = 0;
	on->hw.state = 0;
	elsewhere->hw.state = 0;
	local64_set(&c->hw.prev_count, 50);
	local64_set(&on->hw.prev_count, 10);
	local64_set(&off->hw.prev_count, 20);
	local64_set(&elsewhere->hw.prev_count, 30);
	perf_share_join(t, on, c);
	perf_share_join(t, off, c);
	perf_share_join(t, elsewhere, c);
	/* A rider that already owns the counter (mid hand-over) is left. */
	perf_share_join(t, c, on);

	perf_share_shift(t, c, -7ULL);
	KUNIT_EXPECT_EQ(test, local64_read(&on->hw.prev_count), 3);
	KUNIT_EXPECT_EQ(test, local64_read(&off->hw.prev_count), 20);
	KUNIT_EXPECT_EQ(test, local64_read(&elsewhere->hw.prev_count), 30);
	KUNIT_EXPECT_EQ(test, local64_read(&c->hw.prev_count), 50);
	KUNIT_EXPECT_EQ(test, t->reloads, 1U);
}

/*
 * The counter as the snapshot reads it: the first read is interrupted
 * by a reload of the counter (what an overflow NMI between the read and
 * the rider's state would do), the second is not.
 */
static struct perf_share_riders *share_snap_table;
static struct perf_event *share_snap_carrier;
static int share_snap_reads;

static u64 share_snap_read(struct perf_event *event)
{
	if (share_snap_reads++ == 0) {
		perf_share_shift(share_snap_table, share_snap_carrier, 1000);
		return 5;
	}
	return 7;
}

static void share_snapshot_test(struct kunit *test)
{
	struct perf_event *c = share_event(test);
	struct perf_event *r = share_event(test);

	share_snap_table = kunit_kzalloc(test, sizeof(*share_snap_table),
					 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, share_snap_table);
	share_snap_carrier = c;
	share_snap_reads = 0;
	c->hw.idx = 1;
	r->hw.idx = 1;
	perf_share_join(share_snap_table, r, c);

	perf_share_snapshot(share_snap_table, r, share_snap_read);
	KUNIT_EXPECT_EQ(test, share_snap_reads, 2);
	KUNIT_EXPECT_EQ(test, local64_read(&r->hw.prev_count), 7);
	KUNIT_EXPECT_TRUE(test, perf_share_counting(r));
}

static struct kunit_case perfcore_share_cases[] = {
	KUNIT_CASE(share_rule_test),
	KUNIT_CASE(share_table_test),
	KUNIT_CASE(share_hand_over_test),
	KUNIT_CASE(share_shift_test),
	KUNIT_CASE(share_snapshot_test),
	{}
};

static struct kunit_suite perfcore_share_suite = {
	.name = "perfcore_share",
	.test_cases = perfcore_share_cases,
};

kunit_test_suite(perfcore_share_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore's counter sharing");
MODULE_LICENSE("GPL");
