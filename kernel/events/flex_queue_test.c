// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the fair flexible-group queue (flex_queue.c).
 *
 * Besides the queue operations, the suite drives a model PMU (K generic
 * counters, all-or-nothing group placement, exclusive groups, pinned groups
 * placed first) tick by tick, and checks that every flexible group gets an
 * equal share of PMU time.  The same workloads are run through a model of
 * the classic scheme (fixed order; each tick the first group that got on
 * moves to the tail; no flexible group is tried after the first one that
 * does not fit) to show the position-dependent shares the queue removes.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "flex_queue.h"

#define FQ_TICK		(4 * NSEC_PER_MSEC)
#define FQ_MAX_LAG	(2 * FQ_TICK)
#define FQ_MAX_GROUPS	12

/* The model PMU: generic counters, optionally taken whole by one group. */
struct fq_pmu {
	unsigned int	counters;
	unsigned int	used;
	bool		exclusive;
};

struct fq_group {
	struct perf_flex_node	node;
	unsigned int		size;
	bool			exclusive;
	bool			off;	/* a flexible group not to be tried */
	bool			on;
	bool			error;	/* a pinned group that could not go on */
	unsigned long		ticks;	/* ticks spent on the PMU */
};

struct fq_sim {
	struct fq_pmu		pmu;
	struct perf_flex_queue	q;
	unsigned int		max_misses;
	u64			max_lag;
	struct fq_group		pinned[FQ_MAX_GROUPS];
	unsigned int		nr_pinned;
	struct fq_group		flex[FQ_MAX_GROUPS];
	unsigned int		nr_flex;
	/* flexible groups placed this tick, in placement order */
	struct fq_group		*placed[FQ_MAX_GROUPS];
	unsigned int		nr_placed;
	/* classic model: the fixed order, as indexes into flex[] */
	unsigned int		order[FQ_MAX_GROUPS];
	unsigned long		nr_ticks;
	unsigned long		busy;	/* counter-ticks in use by flexible groups */
};

/* All or nothing: either every event of the group gets a counter or none. */
static int fq_place(struct fq_pmu *pmu, struct fq_group *g)
{
	if (pmu->exclusive)
		return -EBUSY;
	if (g->exclusive && pmu->used)
		return -EBUSY;
	if (pmu->used + g->size > pmu->counters)
		return -EBUSY;
	pmu->used += g->size;
	pmu->exclusive = g->exclusive;
	g->on = true;
	return 0;
}

static int fq_try(struct perf_flex_node *node, void *arg)
{
	struct fq_sim *sim = arg;
	struct fq_group *g = container_of(node, struct fq_group, node);
	int ret;

	if (g->off)
		return PERF_FLEX_SKIP;
	ret = fq_place(&sim->pmu, g);
	if (!ret)
		sim->placed[sim->nr_placed++] = g;
	return ret;
}

static void fq_sim_init(struct fq_sim *sim, unsigned int counters,
			unsigned int max_misses)
{
	memset(sim, 0, sizeof(*sim));
	sim->pmu.counters = counters;
	sim->max_misses = max_misses;
	sim->max_lag = FQ_MAX_LAG;
	perf_flex_queue_init(&sim->q, false);
}

static struct fq_group *fq_add_flex(struct fq_sim *sim, unsigned int size,
				    bool exclusive)
{
	struct fq_group *g = &sim->flex[sim->nr_flex];

	sim->order[sim->nr_flex] = sim->nr_flex;
	sim->nr_flex++;
	g->size = size;
	g->exclusive = exclusive;
	perf_flex_node_init(&g->node);
	perf_flex_add(&sim->q, &g->node);
	return g;
}

static void fq_add_pinned(struct fq_sim *sim, unsigned int size)
{
	sim->pinned[sim->nr_pinned++].size = size;
}

/* Pinned groups go first; one that cannot go on goes to the error state. */
static void fq_tick_begin(struct fq_sim *sim)
{
	unsigned int i;

	sim->pmu.used = 0;
	sim->pmu.exclusive = false;
	sim->nr_placed = 0;
	for (i = 0; i < sim->nr_pinned; i++) {
		struct fq_group *g = &sim->pinned[i];

		if (!g->error && fq_place(&sim->pmu, g))
			g->error = true;
	}
}

static unsigned int fq_tick_end(struct fq_sim *sim)
{
	unsigned int i, used = 0;

	for (i = 0; i < sim->nr_flex; i++) {
		struct fq_group *g = &sim->flex[i];

		if (g->on) {
			g->ticks++;
			used += g->size;
			g->on = false;
		}
	}
	sim->busy += used;
	sim->nr_ticks++;
	return used;
}

/* One tick of our scheme: walk least-run first, then charge what ran. */
static unsigned int fq_tick_fair(struct fq_sim *sim)
{
	unsigned int i;

	fq_tick_begin(sim);
	perf_flex_sched(&sim->q, sim->max_lag, fq_try, sim, sim->max_misses);
	for (i = 0; i < sim->nr_placed; i++)
		perf_flex_charge(&sim->q, &sim->placed[i]->node, FQ_TICK);
	return fq_tick_end(sim);
}

/*
 * One tick of the classic scheme: walk the fixed order, stop trying
 * flexible groups at the first one that does not fit, and if any did not
 * fit, move the first group that ran (or the head, if none ran) to the
 * tail.
 */
static unsigned int fq_tick_classic(struct fq_sim *sim)
{
	unsigned int i, head = sim->nr_flex, pos = 0;
	bool can_add = true, missed = false;

	fq_tick_begin(sim);
	for (i = 0; i < sim->nr_flex; i++) {
		struct fq_group *g = &sim->flex[sim->order[i]];

		if (g->off)
			continue;
		if (can_add && !fq_place(&sim->pmu, g)) {
			if (head == sim->nr_flex)
				head = i;
			continue;
		}
		can_add = false;
		missed = true;
	}
	if (missed) {
		unsigned int moved;

		if (head != sim->nr_flex)
			pos = head;
		moved = sim->order[pos];
		for (i = pos; i + 1 < sim->nr_flex; i++)
			sim->order[i] = sim->order[i + 1];
		sim->order[sim->nr_flex - 1] = moved;
	}
	return fq_tick_end(sim);
}

/* max/min share among groups that are meant to run, in thousandths */
static unsigned long fq_ratio(struct kunit *test, struct fq_sim *sim,
			      const char *name, unsigned int skip)
{
	unsigned long lo = ULONG_MAX, hi = 0;
	unsigned int i;

	for (i = 0; i < sim->nr_flex; i++) {
		const struct fq_group *g = &sim->flex[i];

		kunit_info(test, "%s: group %u (size %u%s): %lu/%lu ticks, %lu.%lu%%\n",
			   name, i, g->size, g->exclusive ? ", exclusive" : "",
			   g->ticks, sim->nr_ticks,
			   g->ticks * 100 / sim->nr_ticks,
			   g->ticks * 1000 / sim->nr_ticks % 10);
		if (i == skip)
			continue;
		lo = min(lo, g->ticks);
		hi = max(hi, g->ticks);
	}
	kunit_info(test, "%s: flexible groups used %lu%% of the counters, max/min share %lu.%03lu\n",
		   name, sim->busy * 100 / (sim->nr_ticks * sim->pmu.counters),
		   lo ? hi / lo : 0, lo ? hi * 1000 / lo % 1000 : 0);
	return lo ? hi * 1000 / lo : ULONG_MAX;
}

/* Every group but @skip within @pct percent of the mean of those groups. */
static void fq_expect_equal(struct kunit *test, struct fq_sim *sim,
			    unsigned int skip, unsigned int pct)
{
	unsigned long total = 0, n = 0;
	unsigned int i;

	for (i = 0; i < sim->nr_flex; i++) {
		if (i != skip) {
			total += sim->flex[i].ticks;
			n++;
		}
	}
	for (i = 0; i < sim->nr_flex; i++) {
		unsigned long scaled = sim->flex[i].ticks * n;

		if (i == skip)
			continue;
		KUNIT_EXPECT_LE_MSG(test, scaled * 100, total * (100 + pct),
				    "group %u got more than its share", i);
		KUNIT_EXPECT_GE_MSG(test, scaled * 100, total * (100 - pct),
				    "group %u got less than its share", i);
	}
}

static void fq_expect_order(struct kunit *test, struct perf_flex_queue *q,
			    struct fq_group *groups, const unsigned int *want,
			    unsigned int n)
{
	struct perf_flex_node *node = perf_flex_first(q);
	unsigned int i;

	for (i = 0; i < n; i++) {
		KUNIT_ASSERT_NOT_NULL(test, node);
		KUNIT_EXPECT_PTR_EQ_MSG(test, node, &groups[want[i]].node,
					"position %u", i);
		node = perf_flex_next(q, node);
	}
	KUNIT_EXPECT_NULL(test, node);
	KUNIT_EXPECT_EQ(test, q->nr, n);
}

static struct fq_sim *fq_sim_alloc(struct kunit *test, unsigned int counters,
				   unsigned int max_misses)
{
	struct fq_sim *sim = kunit_kzalloc(test, sizeof(*sim), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sim);
	fq_sim_init(sim, counters, max_misses);
	return sim;
}

static void flex_order(struct kunit *test)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 0);
	static const unsigned int added[] = { 0, 1, 2, 3, 4 };
	static const unsigned int want[] = { 4, 1, 3, 2, 0 };
	unsigned int i;

	KUNIT_EXPECT_TRUE(test, perf_flex_empty(&sim->q));
	KUNIT_EXPECT_NULL(test, perf_flex_first(&sim->q));
	for (i = 0; i < 5; i++)
		fq_add_flex(sim, 1, false);
	/* same vruntime: insertion order */
	fq_expect_order(test, &sim->q, sim->flex, added, 5);

	perf_flex_charge(&sim->q, &sim->flex[0].node, 30);
	perf_flex_charge(&sim->q, &sim->flex[1].node, 10);
	perf_flex_charge(&sim->q, &sim->flex[2].node, 20);
	perf_flex_charge(&sim->q, &sim->flex[3].node, 10);
	/* least run first; 1 and 3 tie, 1 was charged first */
	fq_expect_order(test, &sim->q, sim->flex, want, 5);
	KUNIT_EXPECT_EQ(test, sim->flex[0].node.vruntime, 30);
	KUNIT_EXPECT_FALSE(test, perf_flex_empty(&sim->q));
}

static void flex_enter_at_min(struct kunit *test)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 0);
	static const unsigned int want[] = { 1, 2, 0 };
	static const unsigned int again[] = { 2, 1, 0 };
	struct fq_group *a, *b, *c;

	a = fq_add_flex(sim, 1, false);
	b = fq_add_flex(sim, 1, false);
	perf_flex_charge(&sim->q, &a->node, 100);
	perf_flex_charge(&sim->q, &b->node, 50);

	/* enters at the least vruntime queued, behind the group there */
	c = fq_add_flex(sim, 1, false);
	KUNIT_EXPECT_EQ(test, c->node.vruntime, 50);
	fq_expect_order(test, &sim->q, sim->flex, want, 3);

	/* re-enabled: no credit for time off, no debt for time run */
	perf_flex_remove(&sim->q, &b->node);
	perf_flex_charge(&sim->q, &c->node, 10);
	perf_flex_add(&sim->q, &b->node);
	KUNIT_EXPECT_EQ(test, b->node.vruntime, 60);
	fq_expect_order(test, &sim->q, sim->flex, again, 3);
	perf_flex_remove(&sim->q, &a->node);
	perf_flex_add(&sim->q, &a->node);
	KUNIT_EXPECT_EQ(test, a->node.vruntime, 60);

	/* an emptied queue keeps its floor */
	perf_flex_remove(&sim->q, &a->node);
	perf_flex_remove(&sim->q, &b->node);
	perf_flex_remove(&sim->q, &c->node);
	KUNIT_EXPECT_TRUE(test, perf_flex_empty(&sim->q));
	perf_flex_add(&sim->q, &c->node);
	KUNIT_EXPECT_EQ(test, c->node.vruntime, 60);
}

/* A group that never fits does not hold the entry point down. */
static void flex_enter_past_starved(struct kunit *test)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 4);
	struct fq_group *huge, *late;
	unsigned int i;

	huge = fq_add_flex(sim, 5, false);
	for (i = 0; i < 4; i++)
		fq_add_flex(sim, 2, false);
	for (i = 0; i < 40; i++)
		fq_tick_fair(sim);
	KUNIT_EXPECT_EQ(test, huge->ticks, 0);
	/* the starved group's lead is capped */
	KUNIT_EXPECT_GE(test, huge->node.vruntime + FQ_MAX_LAG,
			sim->q.min_vruntime);
	KUNIT_EXPECT_GE(test, sim->q.min_vruntime, 19 * FQ_TICK);

	late = fq_add_flex(sim, 2, false);
	KUNIT_EXPECT_EQ(test, late->node.vruntime, sim->q.min_vruntime);
	KUNIT_EXPECT_GT(test, late->node.vruntime, huge->node.vruntime);
}

/* Removal, the same for both kinds of queue. */
static void fq_remove(struct kunit *test, bool all_fit)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 0);
	static const unsigned int want[] = { 0, 2, 4 };
	static const unsigned int want2[] = { 2, 4 };
	unsigned int i;

	perf_flex_queue_init(&sim->q, all_fit);
	for (i = 0; i < 5; i++)
		fq_add_flex(sim, 1, false);
	perf_flex_remove(&sim->q, &sim->flex[3].node);
	perf_flex_remove(&sim->q, &sim->flex[1].node);
	KUNIT_EXPECT_FALSE(test, perf_flex_queued(&sim->flex[1].node));
	KUNIT_EXPECT_FALSE(test, perf_flex_queued(&sim->flex[3].node));
	KUNIT_EXPECT_TRUE(test, perf_flex_queued(&sim->flex[2].node));
	fq_expect_order(test, &sim->q, sim->flex, want, 3);

	perf_flex_remove(&sim->q, &sim->flex[0].node);
	fq_expect_order(test, &sim->q, sim->flex, want2, 2);
	perf_flex_remove(&sim->q, &sim->flex[2].node);
	perf_flex_remove(&sim->q, &sim->flex[4].node);
	KUNIT_EXPECT_TRUE(test, perf_flex_empty(&sim->q));
	KUNIT_EXPECT_NULL(test, perf_flex_first(&sim->q));
	KUNIT_EXPECT_EQ(test,
			perf_flex_sched(&sim->q, sim->max_lag, fq_try, sim, 0),
			0);
}

static void flex_remove(struct kunit *test)
{
	fq_remove(test, false);
}

static void flex_all_fit_remove(struct kunit *test)
{
	fq_remove(test, true);
}

/* Scripted walk: each node answers with a fixed code, visits are logged. */
struct fq_script {
	struct perf_flex_node	nodes[10];
	int			answer[10];
	unsigned int		visited;
	bool			all_fit;	/* the kind of queue walked */
};

static int fq_script_try(struct perf_flex_node *node, void *arg)
{
	struct fq_script *s = arg;

	s->visited++;
	return s->answer[node - s->nodes];
}

static int fq_script_run(struct fq_script *s, const int *answers,
			 unsigned int max_misses)
{
	struct perf_flex_queue q;
	unsigned int i;

	perf_flex_queue_init(&q, s->all_fit);
	for (i = 0; i < ARRAY_SIZE(s->nodes); i++) {
		perf_flex_node_init(&s->nodes[i]);
		perf_flex_add(&q, &s->nodes[i]);
		s->answer[i] = answers[i];
	}
	s->visited = 0;
	return perf_flex_sched(&q, U64_MAX, fq_script_try, s, max_misses);
}

/* The walk's rules, the same for both kinds of queue. */
static void fq_walk_bound(struct kunit *test, bool all_fit)
{
	struct fq_script *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	const int B = -EBUSY, S = PERF_FLEX_SKIP;
	const int all_busy[10] = { B, B, B, B, B, B, B, B, B, B };
	const int mixed[10] = { B, B, 0, B, B, 0, B, B, B, B };
	const int stop[10] = { 0, B, -EINVAL, 0, 0, 0, 0, 0, 0, 0 };
	const int skips[10] = { B, S, B, 0, 0, 0, 0, 0, 0, 0 };
	const int fits[10] = { 0, S, 0, 0, 0, 0, 0, 0, 0, 0 };

	KUNIT_ASSERT_NOT_NULL(test, s);
	s->all_fit = all_fit;

	KUNIT_EXPECT_EQ(test, fq_script_run(s, all_busy, 3), 3);
	KUNIT_EXPECT_EQ(test, s->visited, 3);
	KUNIT_EXPECT_EQ(test, fq_script_run(s, all_busy, 0), 10);
	KUNIT_EXPECT_EQ(test, s->visited, 10);

	/* a group that fits resets the count of misses in a row */
	KUNIT_EXPECT_EQ(test, fq_script_run(s, mixed, 3), 7);
	KUNIT_EXPECT_EQ(test, s->visited, 9);
	KUNIT_EXPECT_EQ(test, fq_script_run(s, mixed, 1), 1);
	KUNIT_EXPECT_EQ(test, s->visited, 1);

	/* any other error ends the walk at once and is passed back */
	KUNIT_EXPECT_EQ(test, fq_script_run(s, stop, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, s->visited, 3);

	/* skipped groups neither count as misses nor end a run of them */
	KUNIT_EXPECT_EQ(test, fq_script_run(s, skips, 2), 2);
	KUNIT_EXPECT_EQ(test, s->visited, 3);
	KUNIT_EXPECT_EQ(test, fq_script_run(s, fits, 1), 0);
	KUNIT_EXPECT_EQ(test, s->visited, 10);
}

static void flex_walk_bound(struct kunit *test)
{
	fq_walk_bound(test, false);
}

static void flex_all_fit_walk_bound(struct kunit *test)
{
	fq_walk_bound(test, true);
}

/*
 * A queue whose groups all fit keeps them in the order they came: no
 * floor to enter at, a group re-added goes to the back, and so does a
 * group charged for time it ran after others missed (round robin).
 */
static void flex_all_fit_order(struct kunit *test)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 0);
	static const unsigned int added[] = { 0, 1, 2, 3, 4 };
	static const unsigned int back[] = { 2, 4, 1, 0 };
	static const unsigned int charged[] = { 4, 1, 0, 2 };
	struct fq_group *g;
	unsigned int i;

	perf_flex_queue_init(&sim->q, true);
	KUNIT_EXPECT_TRUE(test, perf_flex_empty(&sim->q));
	KUNIT_EXPECT_NULL(test, perf_flex_first(&sim->q));
	for (i = 0; i < 5; i++) {
		g = fq_add_flex(sim, 1, false);
		KUNIT_EXPECT_TRUE(test, perf_flex_queued(&g->node));
	}
	fq_expect_order(test, &sim->q, sim->flex, added, 5);

	perf_flex_remove(&sim->q, &sim->flex[3].node);
	perf_flex_remove(&sim->q, &sim->flex[1].node);
	perf_flex_add(&sim->q, &sim->flex[1].node);
	perf_flex_remove(&sim->q, &sim->flex[0].node);
	perf_flex_add(&sim->q, &sim->flex[0].node);
	fq_expect_order(test, &sim->q, sim->flex, back, 4);

	perf_flex_charge(&sim->q, &sim->flex[2].node, 30);
	KUNIT_EXPECT_EQ(test, sim->flex[2].node.vruntime, 30);
	fq_expect_order(test, &sim->q, sim->flex, charged, 4);
	/* not queued: only the vruntime moves */
	perf_flex_charge(&sim->q, &sim->flex[3].node, 5);
	KUNIT_EXPECT_EQ(test, sim->flex[3].node.vruntime, 5);
	KUNIT_EXPECT_FALSE(test, perf_flex_queued(&sim->flex[3].node));
	fq_expect_order(test, &sim->q, sim->flex, charged, 4);

	/* a walk offers them in list order */
	fq_tick_begin(sim);
	KUNIT_EXPECT_EQ(test,
			perf_flex_sched(&sim->q, sim->max_lag, fq_try, sim, 0),
			0);
	KUNIT_ASSERT_EQ(test, sim->nr_placed, 4);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_PTR_EQ(test, sim->placed[i],
				    &sim->flex[charged[i]]);
}

static void flex_all_or_nothing(struct kunit *test)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 0);

	fq_add_flex(sim, 3, false);
	fq_add_flex(sim, 2, false);
	fq_add_flex(sim, 1, false);
	fq_add_flex(sim, 2, false);

	fq_tick_begin(sim);
	KUNIT_EXPECT_EQ(test,
			perf_flex_sched(&sim->q, sim->max_lag, fq_try, sim, 0),
			2);
	KUNIT_EXPECT_TRUE(test, sim->flex[0].on);
	/* no partial placement of the group of 2 ... */
	KUNIT_EXPECT_FALSE(test, sim->flex[1].on);
	/* ... and the group of 1 behind it still got the last counter */
	KUNIT_EXPECT_TRUE(test, sim->flex[2].on);
	KUNIT_EXPECT_FALSE(test, sim->flex[3].on);
	KUNIT_EXPECT_EQ(test, sim->pmu.used, 4);
	fq_tick_end(sim);

	/* the classic walk gives up at the group of 2: a counter stays idle */
	fq_tick_classic(sim);
	KUNIT_EXPECT_EQ(test, sim->flex[2].ticks, 1);
	KUNIT_EXPECT_EQ(test, sim->busy, 4 + 3);
}

static void flex_exclusive(struct kunit *test)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 0);
	struct fq_group *excl, *a, *b;

	excl = fq_add_flex(sim, 1, true);
	a = fq_add_flex(sim, 1, false);
	b = fq_add_flex(sim, 1, false);

	/* at the head it takes the PMU alone */
	fq_tick_begin(sim);
	KUNIT_EXPECT_EQ(test,
			perf_flex_sched(&sim->q, sim->max_lag, fq_try, sim, 0),
			2);
	KUNIT_EXPECT_TRUE(test, excl->on);
	KUNIT_EXPECT_FALSE(test, a->on || b->on);
	KUNIT_EXPECT_EQ(test, sim->pmu.used, 1);
	perf_flex_charge(&sim->q, &excl->node, FQ_TICK);
	fq_tick_end(sim);

	/* behind other groups it cannot go on, and does not stop them */
	fq_tick_begin(sim);
	KUNIT_EXPECT_EQ(test,
			perf_flex_sched(&sim->q, sim->max_lag, fq_try, sim, 0),
			1);
	KUNIT_EXPECT_FALSE(test, excl->on);
	KUNIT_EXPECT_TRUE(test, a->on && b->on);
	perf_flex_charge(&sim->q, &a->node, FQ_TICK);
	perf_flex_charge(&sim->q, &b->node, FQ_TICK);
	fq_tick_end(sim);

	/* a pinned group on the PMU keeps it off even at the head */
	fq_add_pinned(sim, 1);
	perf_flex_charge(&sim->q, &a->node, FQ_TICK);
	fq_tick_begin(sim);
	KUNIT_EXPECT_PTR_EQ(test, perf_flex_first(&sim->q), &excl->node);
	KUNIT_EXPECT_EQ(test,
			perf_flex_sched(&sim->q, sim->max_lag, fq_try, sim, 0),
			1);
	KUNIT_EXPECT_FALSE(test, excl->on);
	KUNIT_EXPECT_TRUE(test, a->on && b->on);
	fq_tick_end(sim);
}

static void flex_pinned_first(struct kunit *test)
{
	struct fq_sim *sim = fq_sim_alloc(test, 4, 2);
	unsigned int i;

	fq_add_pinned(sim, 2);
	fq_add_pinned(sim, 3);	/* does not fit beside the first: error */
	fq_add_flex(sim, 2, false);
	fq_add_flex(sim, 1, false);
	fq_add_flex(sim, 1, false);

	for (i = 0; i < 400; i++)
		KUNIT_EXPECT_EQ(test, fq_tick_fair(sim), 2);
	KUNIT_EXPECT_FALSE(test, sim->pinned[0].error);
	KUNIT_EXPECT_TRUE(test, sim->pinned[1].error);
	KUNIT_EXPECT_TRUE(test, sim->pinned[0].on);
	KUNIT_EXPECT_FALSE(test, sim->pinned[1].on);
	/* the two counters left are shared evenly: half the time each */
	fq_ratio(test, sim, "pinned+flexible", UINT_MAX);
	fq_expect_equal(test, sim, UINT_MAX, 2);
	KUNIT_EXPECT_EQ(test, sim->flex[0].ticks, 200);
}

static void fq_load(struct fq_sim *sim, const unsigned int *sizes,
		    unsigned int n, int exclusive)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		fq_add_flex(sim, sizes[i], (int)i == exclusive);
}

/*
 * K = 4, groups of 3 and six of 1.  Equal shares are possible with every
 * counter busy: the group of 3 plus one single 4/9 of the time, four
 * singles the rest.  The classic walk gives the groups right behind the
 * big one half the share of the others.
 */
static void flex_fair_share(struct kunit *test)
{
	static const unsigned int sizes[] = { 3, 1, 1, 1, 1, 1, 1 };
	struct fq_sim *fair = fq_sim_alloc(test, 4, 2);
	struct fq_sim *classic = fq_sim_alloc(test, 4, 2);
	unsigned long r_fair, r_classic;
	unsigned int i;

	fq_load(fair, sizes, ARRAY_SIZE(sizes), -1);
	fq_load(classic, sizes, ARRAY_SIZE(sizes), -1);
	for (i = 0; i < 9 * 7 * 16; i++) {
		fq_tick_fair(fair);
		fq_tick_classic(classic);
	}
	r_fair = fq_ratio(test, fair, "fair", UINT_MAX);
	r_classic = fq_ratio(test, classic, "classic", UINT_MAX);

	fq_expect_equal(test, fair, UINT_MAX, 2);
	KUNIT_EXPECT_LE(test, r_fair, 1020);
	KUNIT_EXPECT_GE(test, r_classic, 1500);
	KUNIT_EXPECT_LT(test, (r_fair - 1000) * 10, r_classic - 1000);
	/* and nothing is wasted: 4/9 each means every counter busy */
	KUNIT_EXPECT_GE(test, fair->busy * 100, fair->nr_ticks * 4 * 99);
}

/* An exclusive group gets its turn, and the same share, too. */
static void flex_fair_exclusive(struct kunit *test)
{
	static const unsigned int sizes[] = { 1, 1, 1, 1, 1, 1, 1 };
	struct fq_sim *fair = fq_sim_alloc(test, 4, 2);
	struct fq_sim *classic = fq_sim_alloc(test, 4, 2);
	unsigned long r_fair;
	unsigned int i;

	fq_load(fair, sizes, ARRAY_SIZE(sizes), 3);
	fq_load(classic, sizes, ARRAY_SIZE(sizes), 3);
	for (i = 0; i < 1000; i++) {
		fq_tick_fair(fair);
		fq_tick_classic(classic);
	}
	r_fair = fq_ratio(test, fair, "fair", UINT_MAX);
	fq_ratio(test, classic, "classic", UINT_MAX);
	fq_expect_equal(test, fair, UINT_MAX, 2);
	KUNIT_EXPECT_LE(test, r_fair, 1020);
}

/*
 * A group larger than the PMU never runs and costs the others nothing; in
 * the classic walk it idles the PMU whenever it reaches the head and
 * blocks whatever is queued behind it.  A group created later gets an
 * even share from then on.
 */
static void flex_oversized(struct kunit *test)
{
	static const unsigned int sizes[] = { 1, 1, 5, 1, 1, 1, 1 };
	struct fq_sim *fair = fq_sim_alloc(test, 4, 2);
	struct fq_sim *classic = fq_sim_alloc(test, 4, 2);
	unsigned long before[FQ_MAX_GROUPS];
	struct fq_group *late;
	unsigned int i;

	fq_load(fair, sizes, ARRAY_SIZE(sizes), -1);
	fq_load(classic, sizes, ARRAY_SIZE(sizes), -1);
	for (i = 0; i < 600; i++) {
		KUNIT_EXPECT_EQ(test, fq_tick_fair(fair), 4);
		fq_tick_classic(classic);
	}
	fq_ratio(test, fair, "fair", 2);
	fq_ratio(test, classic, "classic", 2);
	KUNIT_EXPECT_EQ(test, fair->flex[2].ticks, 0);
	KUNIT_EXPECT_EQ(test, classic->flex[2].ticks, 0);
	fq_expect_equal(test, fair, 2, 2);
	KUNIT_EXPECT_LT(test, classic->busy, fair->busy);

	for (i = 0; i < fair->nr_flex; i++)
		before[i] = fair->flex[i].ticks;
	late = fq_add_flex(fair, 1, false);
	for (i = 0; i < 700; i++)
		KUNIT_EXPECT_EQ(test, fq_tick_fair(fair), 4);
	for (i = 0; i < fair->nr_flex - 1; i++) {
		if (i == 2)
			continue;
		/* 4 counters, 7 singles: 400 ticks each out of 700 */
		KUNIT_EXPECT_GE(test, fair->flex[i].ticks - before[i], 390);
		KUNIT_EXPECT_LE(test, fair->flex[i].ticks - before[i], 410);
	}
	KUNIT_EXPECT_GE(test, late->ticks, 390);
	KUNIT_EXPECT_LE(test, late->ticks, 410);
}

/*
 * The lead a group builds up while it cannot go on is capped, so when it
 * finally fits (here: the PMU grows) it runs a few ticks in a row to catch
 * up, not as long as it waited.
 */
static unsigned int fq_catch_up(struct kunit *test, u64 max_lag)
{
	static const unsigned int sizes[] = { 6, 2, 2, 2, 2 };
	struct fq_sim *sim = fq_sim_alloc(test, 4, 4);
	unsigned long before[ARRAY_SIZE(sizes)];
	unsigned int i, streak = 0;

	sim->max_lag = max_lag;
	fq_load(sim, sizes, ARRAY_SIZE(sizes), -1);
	for (i = 0; i < 40; i++)
		fq_tick_fair(sim);
	KUNIT_EXPECT_EQ(test, sim->flex[0].ticks, 0);

	sim->pmu.counters = 8;
	for (i = 0; i < 40; i++) {
		fq_tick_fair(sim);
		if (sim->flex[0].ticks == streak)
			break;
		streak++;
	}
	kunit_info(test, "lead cap %s: ran %u ticks in a row once it fitted\n",
		   max_lag == U64_MAX ? "none" : "2 ticks", streak);

	/* then everyone settles to an even share: 4/7 of the time each */
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		before[i] = sim->flex[i].ticks;
	for (i = 0; i < 7 * 60; i++)
		fq_tick_fair(sim);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		KUNIT_EXPECT_GE(test, sim->flex[i].ticks - before[i], 235);
		KUNIT_EXPECT_LE(test, sim->flex[i].ticks - before[i], 245);
	}
	return streak;
}

static void flex_lag_cap(struct kunit *test)
{
	BUILD_BUG_ON(FQ_MAX_LAG != 2 * FQ_TICK);
	KUNIT_EXPECT_LE(test, fq_catch_up(test, FQ_MAX_LAG), 4);
	KUNIT_EXPECT_GE(test, fq_catch_up(test, U64_MAX), 15);
}

static struct kunit_case perfcore_flex_cases[] = {
	KUNIT_CASE(flex_order),
	KUNIT_CASE(flex_enter_at_min),
	KUNIT_CASE(flex_enter_past_starved),
	KUNIT_CASE(flex_remove),
	KUNIT_CASE(flex_all_fit_remove),
	KUNIT_CASE(flex_walk_bound),
	KUNIT_CASE(flex_all_fit_walk_bound),
	KUNIT_CASE(flex_all_fit_order),
	KUNIT_CASE(flex_all_or_nothing),
	KUNIT_CASE(flex_exclusive),
	KUNIT_CASE(flex_pinned_first),
	KUNIT_CASE(flex_fair_share),
	KUNIT_CASE(flex_fair_exclusive),
	KUNIT_CASE(flex_oversized),
	KUNIT_CASE(flex_lag_cap),
	{}
};

static struct kunit_suite perfcore_flex_suite = {
	.name = "perfcore_flex",
	.test_cases = perfcore_flex_cases,
};

kunit_test_suite(perfcore_flex_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore's fair flexible-group queue");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
