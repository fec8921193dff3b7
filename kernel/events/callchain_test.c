// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for perfcore's callchain scratch space (callchain.c): the
 * reference count and its -EOVERFLOW rule, the one-entry-per-level claim
 * that keeps a nested sample from overwriting an entry being filled, and
 * the sysctl gate that keeps the entries' size fixed while they exist.
 *
 * These run at boot, before anything else can hold callchain buffers.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/string.h>
#include <linux/sysctl.h>

/* Write @text through perf_event_max_stack_handler() into *@limit. */
static int cc_sysctl_write(int *limit, const char *text)
{
	struct ctl_table table = {
		.procname	= "perfcore_test_limit",
		.data		= limit,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_INT_MAX,
	};
	char buf[16];
	size_t len = strscpy(buf, text, sizeof(buf));
	loff_t pos = 0;

	return perf_event_max_stack_handler(&table, 1, buf, &len, &pos);
}

static void callchain_overflow_test(struct kunit *test)
{
	int limit = 7;

	KUNIT_EXPECT_EQ(test, get_callchain_buffers(sysctl_perf_event_max_stack + 1),
			-EOVERFLOW);
	/* The refused request left no user behind: the sysctl still moves. */
	KUNIT_EXPECT_EQ(test, cc_sysctl_write(&limit, "9"), 0);
	KUNIT_EXPECT_EQ(test, limit, 9);
}

static void callchain_sysctl_busy_test(struct kunit *test)
{
	int limit = 7;

	KUNIT_ASSERT_EQ(test, get_callchain_buffers(sysctl_perf_event_max_stack), 0);
	KUNIT_ASSERT_EQ(test, get_callchain_buffers(1), 0);
	KUNIT_EXPECT_EQ(test, cc_sysctl_write(&limit, "9"), -EBUSY);
	KUNIT_EXPECT_EQ(test, limit, 7);
	put_callchain_buffers();
	KUNIT_EXPECT_EQ(test, cc_sysctl_write(&limit, "9"), -EBUSY);
	put_callchain_buffers();
	KUNIT_EXPECT_EQ(test, cc_sysctl_write(&limit, "9"), 0);
	KUNIT_EXPECT_EQ(test, limit, 9);
	/* Out-of-range values are refused by the parser, as for any int. */
	KUNIT_EXPECT_EQ(test, cc_sysctl_write(&limit, "-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, limit, 9);
}

static void callchain_entry_claim_test(struct kunit *test)
{
	struct perf_callchain_entry *a, *b;
	int ra, rb;

	/* No buffers, no entry. */
	rcu_read_lock();
	preempt_disable();
	a = get_callchain_entry(&ra);
	preempt_enable();
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, a);

	KUNIT_ASSERT_EQ(test, get_callchain_buffers(sysctl_perf_event_max_stack), 0);
	rcu_read_lock();
	preempt_disable();
	a = get_callchain_entry(&ra);
	b = get_callchain_entry(&rb);	/* same level: refused */
	if (a)
		put_callchain_entry(ra);
	preempt_enable();
	rcu_read_unlock();
	KUNIT_EXPECT_NOT_NULL(test, a);
	KUNIT_EXPECT_GE(test, ra, 0);
	KUNIT_EXPECT_LT(test, ra, PERF_NR_CONTEXTS);
	KUNIT_EXPECT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, rb, -1);

	/* Released: the same level gets the same entry again. */
	rcu_read_lock();
	preempt_disable();
	b = get_callchain_entry(&rb);
	if (b)
		put_callchain_entry(rb);
	preempt_enable();
	rcu_read_unlock();
	KUNIT_EXPECT_PTR_EQ(test, a, b);
	KUNIT_EXPECT_EQ(test, ra, rb);
	put_callchain_buffers();
}

static void callchain_empty_request_test(struct kunit *test)
{
	struct perf_callchain_entry *e;

	KUNIT_ASSERT_EQ(test, get_callchain_buffers(sysctl_perf_event_max_stack), 0);
	rcu_read_lock();
	preempt_disable();
	/* Neither part asked for: an empty chain, not a failure. */
	e = get_perf_callchain(NULL, false, false, 8, false, true);
	KUNIT_EXPECT_NOT_NULL(test, e);
	if (e)
		KUNIT_EXPECT_EQ(test, e->nr, 0);
	/* Another task's user stack alone cannot be walked. */
	e = get_perf_callchain(NULL, false, true, 8, true, true);
	KUNIT_EXPECT_NULL(test, e);
	/* The entry was released both times. */
	e = get_perf_callchain(NULL, false, false, 8, false, false);
	KUNIT_EXPECT_NOT_NULL(test, e);
	preempt_enable();
	rcu_read_unlock();
	put_callchain_buffers();
}

static struct kunit_case perfcore_callchain_cases[] = {
	KUNIT_CASE(callchain_overflow_test),
	KUNIT_CASE(callchain_sysctl_busy_test),
	KUNIT_CASE(callchain_entry_claim_test),
	KUNIT_CASE(callchain_empty_request_test),
	{}
};

static struct kunit_suite perfcore_callchain_suite = {
	.name = "perfcore_callchain",
	.test_cases = perfcore_callchain_cases,
};

kunit_test_suite(perfcore_callchain_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore callchain buffers");
MODULE_LICENSE("GPL");
