// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: a change to one PMU's groups re-places that PMU's groups only,
 * through the real enable path and perf_pmu_resched(), on two fake PMUs
 * that share the test thread's hardware context; and a walk of a full
 * PMU's flexible groups stops asking it after a miss, whether it adds
 * member by member or decides groups at commit (two more fake PMUs, of
 * two slots each).
 *
 * Groups of different PMUs never compete for a counter, so taking one
 * PMU's groups off to make room for another's costs time and gains
 * nothing: on x86 each such round trip reprograms counters with MSR
 * writes.  (Stock scopes the same way.)  The fake PMUs count their
 * add() and del() calls; the test thread may be switched out meanwhile,
 * which takes every group off and on once, so the expectation allows
 * one del() per context switch of the thread and no more.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/sched.h>

#include "internal.h"

/**
 * struct resched_fake - a fake counting PMU
 * @pmu: registered under @name
 * @name: its sysfs name
 * @slots: how many events it holds at once; 0 for no limit
 * @own_txn: it has transactions, and decides a group at commit
 * @in_txn: a transaction is open
 * @used: how many it holds
 * @adds: how many times an event of it was added
 * @refused: how many adds, or commits of a transaction, it refused for
 *	want of a slot
 * @dels: how many times an event of it was deleted
 */
struct resched_fake {
	struct pmu	pmu;
	const char	*name;
	int		slots;
	bool		own_txn;
	bool		in_txn;
	int		used;
	int		adds;
	int		refused;
	int		dels;
};

static struct resched_fake *resched_of(struct pmu *pmu)
{
	return container_of(pmu, struct resched_fake, pmu);
}

static int resched_event_init(struct perf_event *event)
{
	return event->attr.type == event->pmu->type ? 0 : -ENOENT;
}

static void resched_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

static void resched_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static int resched_add(struct perf_event *event, int flags)
{
	struct resched_fake *fake = resched_of(event->pmu);

	fake->adds++;
	if (!fake->in_txn && fake->slots && fake->used == fake->slots) {
		fake->refused++;
		return -EAGAIN;
	}
	fake->used++;
	if (flags & PERF_EF_START)
		resched_start(event, flags);
	else
		event->hw.state = PERF_HES_STOPPED;
	return 0;
}

static void resched_del(struct perf_event *event, int flags)
{
	resched_of(event->pmu)->dels++;
	resched_of(event->pmu)->used--;
	resched_stop(event, flags);
}

static void resched_read(struct perf_event *event)
{
}

/* Transactions that decide the whole group at commit, as x86's do. */
static void resched_start_txn(struct pmu *pmu, unsigned int txn_flags)
{
	resched_of(pmu)->in_txn = txn_flags == PERF_PMU_TXN_ADD;
}

static int resched_commit_txn(struct pmu *pmu)
{
	struct resched_fake *fake = resched_of(pmu);

	if (fake->in_txn && fake->slots && fake->used > fake->slots) {
		fake->refused++;
		return -EAGAIN;
	}
	fake->in_txn = false;
	return 0;
}

static void resched_cancel_txn(struct pmu *pmu)
{
	resched_of(pmu)->in_txn = false;
}

static struct resched_fake resched_pmus[] = {
	{ .name = "perfcore_kunit_resched_a" },
	{ .name = "perfcore_kunit_resched_b" },
	{ .name = "perfcore_kunit_resched_c", .slots = 2 },
	{ .name = "perfcore_kunit_resched_d", .slots = 2, .own_txn = true },
};

/* A counting event of @fake on this thread, released when the test ends. */
static struct perf_event *resched_open(struct kunit *test,
				       struct resched_fake *fake, bool disabled)
{
	struct perf_event_attr attr = {
		.type		= fake->pmu.type,
		.size		= sizeof(attr),
		.disabled	= disabled,
	};
	struct perf_event *event;

	event = perf_event_create_kernel_counter(&attr, -1, current, NULL,
						 NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(event), "open: %ld",
			       PTR_ERR(event));
	return event;
}

/* Context switches of this thread so far. */
static unsigned long resched_switches(void)
{
	return current->nvcsw + current->nivcsw;
}

/*
 * Enabling (and disabling) a group of PMU a leaves the group of PMU b
 * that counts beside it on its PMU; a's own group does go on each time.
 */
static void resched_enable_stays_on_its_pmu(struct kunit *test)
{
	struct resched_fake *a = &resched_pmus[0], *b = &resched_pmus[1];
	struct perf_event *on_b, *on_a;
	unsigned long switches;
	int i, b_dels, a_adds;

	on_b = resched_open(test, b, false);
	on_a = resched_open(test, a, true);
	KUNIT_EXPECT_EQ(test, on_b->state, PERF_EVENT_STATE_ACTIVE);

	switches = resched_switches();
	b_dels = b->dels;
	a_adds = a->adds;
	for (i = 0; i < 16; i++) {
		perf_event_enable(on_a);
		perf_event_disable(on_a);
	}
	switches = resched_switches() - switches;

	KUNIT_EXPECT_GE(test, a->adds - a_adds, 16);
	KUNIT_EXPECT_LE_MSG(test, b->dels - b_dels, (int)switches,
			    "b taken off %d times in %lu switches",
			    b->dels - b_dels, switches);
	KUNIT_EXPECT_EQ(test, on_b->state, PERF_EVENT_STATE_ACTIVE);

	perf_event_release_kernel(on_a);
	perf_event_release_kernel(on_b);
}

/*
 * perf_pmu_resched(a), as a driver calls it when a's constraints
 * changed, re-places a's groups and leaves b's alone.  Preemption is off
 * around it: it works on this CPU, and no switch can intervene.
 */
static void resched_pmu_resched_stays_on_its_pmu(struct kunit *test)
{
	struct resched_fake *a = &resched_pmus[0], *b = &resched_pmus[1];
	struct perf_event *on_b, *on_a;
	int b_adds, b_dels, a_adds, a_dels;

	on_b = resched_open(test, b, false);
	on_a = resched_open(test, a, false);

	preempt_disable();
	b_adds = b->adds;
	b_dels = b->dels;
	a_adds = a->adds;
	a_dels = a->dels;
	perf_pmu_resched(&a->pmu);
	a_adds = a->adds - a_adds;
	a_dels = a->dels - a_dels;
	b_adds = b->adds - b_adds;
	b_dels = b->dels - b_dels;
	preempt_enable();

	KUNIT_EXPECT_EQ(test, a_dels, 1);
	KUNIT_EXPECT_EQ(test, a_adds, 1);
	KUNIT_EXPECT_EQ(test, b_dels, 0);
	KUNIT_EXPECT_EQ(test, b_adds, 0);

	perf_event_release_kernel(on_a);
	perf_event_release_kernel(on_b);
}

/*
 * Five groups of one on @fake, which has room for two, re-placed by
 * perf_pmu_resched() with interrupts off (so that the multiplexing timer
 * adds no walk of its own): two go on.  Return: the offers @fake refused.
 */
static int resched_refusals(struct kunit *test, struct resched_fake *fake)
{
	struct perf_event *ev[5];
	unsigned long flags;
	int i, active = 0, refused;

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		ev[i] = resched_open(test, fake, false);

	preempt_disable();
	local_irq_save(flags);
	refused = fake->refused;
	perf_pmu_resched(&fake->pmu);
	refused = fake->refused - refused;
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		active += ev[i]->state == PERF_EVENT_STATE_ACTIVE;
	local_irq_restore(flags);
	preempt_enable();

	KUNIT_EXPECT_EQ(test, active, 2);

	for (i = 0; i < ARRAY_SIZE(ev); i++)
		perf_event_release_kernel(ev[i]);
	KUNIT_EXPECT_EQ(test, fake->used, 0);
	return refused;
}

/*
 * A PMU that adds member by member programs a counter for each add()
 * that succeeds and would for each refused one; once a group has not
 * fit, the walk asks it about no group as large: one refusal, where
 * offering the three that wait would be three.
 */
static void resched_walk_stops_offering_after_a_miss(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, resched_refusals(test, &resched_pmus[2]), 1);
}

/*
 * The same for a PMU that decides groups at commit, as x86's does: its
 * refusal costs no counter write but a run of its counter assignment,
 * which over a walk cost more than all of stock's multiplexing.
 */
static void resched_walk_stops_offering_a_txn_pmu(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, resched_refusals(test, &resched_pmus[3]), 1);
}

static int resched_suite_init(struct kunit_suite *suite)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(resched_pmus); i++) {
		struct resched_fake *fake = &resched_pmus[i];

		fake->pmu = (struct pmu) {
			.task_ctx_nr	= perf_hw_context,
			.event_init	= resched_event_init,
			.add		= resched_add,
			.del		= resched_del,
			.start		= resched_start,
			.stop		= resched_stop,
			.read		= resched_read,
		};
		if (fake->own_txn) {
			fake->pmu.start_txn = resched_start_txn;
			fake->pmu.commit_txn = resched_commit_txn;
			fake->pmu.cancel_txn = resched_cancel_txn;
		}
		err = perf_pmu_register(&fake->pmu, fake->name, -1);
		if (err) {
			while (i--)
				perf_pmu_unregister(&resched_pmus[i].pmu);
			return err;
		}
	}
	return 0;
}

static void resched_suite_exit(struct kunit_suite *suite)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(resched_pmus); i++)
		perf_pmu_unregister(&resched_pmus[i].pmu);
}

static struct kunit_case resched_cases[] = {
	KUNIT_CASE(resched_enable_stays_on_its_pmu),
	KUNIT_CASE(resched_pmu_resched_stays_on_its_pmu),
	KUNIT_CASE(resched_walk_stops_offering_after_a_miss),
	KUNIT_CASE(resched_walk_stops_offering_a_txn_pmu),
	{}
};

static struct kunit_suite resched_suite = {
	.name		= "perfcore_resched",
	.suite_init	= resched_suite_init,
	.suite_exit	= resched_suite_exit,
	.test_cases	= resched_cases,
};

kunit_test_suite(resched_suite);

MODULE_DESCRIPTION("KUnit tests for re-placing one PMU's groups on fake PMUs");
MODULE_LICENSE("GPL");
