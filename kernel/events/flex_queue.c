// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: fair queue of flexible event groups.
 *
 * Locking: every function here expects the caller to hold the lock of the
 * context that owns the queue (the context's raw spinlock, with interrupts
 * off, as on the scheduling and rotation paths).  Nothing here allocates,
 * sleeps or takes a lock, so all of it is safe from the rotation timer and
 * from the context-switch path.  The cost is O(log n) per add, remove and
 * charge; a walk is O(visited nodes).
 *
 * How it is fair.  A group's vruntime grows by the time it was actually
 * on the PMU, charged by the caller when the group comes off.  Groups are
 * offered the PMU in (vruntime, seq) order, so the one that has run least
 * goes first.  A group that does not fit is passed over and the walk goes
 * on with the groups behind it, up to a caller-chosen number of misses in
 * a row; the group keeps its place and, not having been charged, is ahead
 * of the ones that did run at the next walk.  Multiplexing is therefore
 * just charging each group for the time it got since the last tick and
 * walking again: there is no rotation step, and a group's share does not
 * depend on where in the order it happened to be created.
 *
 * Where new groups enter.  A group added or re-enabled enters at the
 * queue's floor (min_vruntime): it then runs about as soon as the least
 * run group that is actually getting PMU time, without a credit that
 * would let it shut the others out while it catches up.  The floor is the
 * vruntime of the first group placed by a walk, never the vruntime of a
 * group that keeps missing (say, one larger than the PMU), and it never
 * goes backwards.  A group that keeps missing is not allowed to fall more
 * than max_lag behind the floor either, so that when it can finally go on
 * it gets a bounded head start rather than an unbounded one.
 *
 * Queues whose groups all fit.  On a PMU that schedules in software (the
 * core's own: software events, the clocks, tracepoints, breakpoints) a
 * group never waits for room, so no order is fairer than another: such
 * a queue (all_fit) is a plain list in the order the groups came, O(1)
 * to add to, remove from and step through, which is what a fork with
 * many inherited software events and every switch of their task pay.
 * Should a group miss all the same (its PMU refused it), a charge sends
 * it to the back: round robin.  There is no floor and no lag to cap.
 */

#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <kunit/visibility.h>

#include "flex_queue.h"

static inline struct perf_flex_node *flex_node(struct rb_node *rb)
{
	return rb_entry_safe(rb, struct perf_flex_node, rb);
}

static bool flex_before(struct rb_node *a, const struct rb_node *b)
{
	const struct perf_flex_node *x = rb_entry(a, struct perf_flex_node, rb);
	const struct perf_flex_node *y = rb_entry(b, struct perf_flex_node, rb);

	if (x->vruntime != y->vruntime)
		return x->vruntime < y->vruntime;
	return x->seq < y->seq;
}

/**
 * perf_flex_queue_init - set up an empty queue
 * @q: the queue
 * @all_fit: the queue's groups never compete for room: a plain list
 */
void perf_flex_queue_init(struct perf_flex_queue *q, bool all_fit)
{
	if (all_fit)
		INIT_LIST_HEAD(&q->fifo);
	else
		q->root = RB_ROOT_CACHED;
	q->all_fit = all_fit;
	q->min_vruntime = 0;
	q->next_seq = 0;
	q->nr = 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_queue_init);

/**
 * perf_flex_node_init - mark a node as not queued
 * @node: the node
 */
void perf_flex_node_init(struct perf_flex_node *node)
{
	RB_CLEAR_NODE(&node->rb);
	node->vruntime = 0;
	node->seq = 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_node_init);

/**
 * perf_flex_add - queue a new or re-enabled group
 * @q: the queue
 * @node: a node that is not queued
 *
 * The node enters at the queue's current minimum vruntime: the floor, or
 * the least vruntime queued if every node is past the floor.  It goes
 * behind the nodes that already have that vruntime.
 */
void perf_flex_add(struct perf_flex_queue *q, struct perf_flex_node *node)
{
	struct perf_flex_node *first;

	if (WARN_ON_ONCE(perf_flex_queued(node)))
		return;

	if (q->all_fit) {
		list_add_tail(&node->entry, &q->fifo);
		q->nr++;
		return;
	}
	first = perf_flex_first(q);
	if (first && first->vruntime > q->min_vruntime)
		q->min_vruntime = first->vruntime;
	node->vruntime = q->min_vruntime;
	node->seq = q->next_seq++;
	rb_add_cached(&node->rb, &q->root, flex_before);
	q->nr++;
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_add);

/**
 * perf_flex_remove - take a group off the queue
 * @q: the queue
 * @node: a node queued on @q
 *
 * The node's vruntime is forgotten: adding it again puts it at the floor.
 */
void perf_flex_remove(struct perf_flex_queue *q, struct perf_flex_node *node)
{
	if (WARN_ON_ONCE(!perf_flex_queued(node)))
		return;

	if (q->all_fit) {
		list_del_init(&node->entry);
	} else {
		rb_erase_cached(&node->rb, &q->root);
		RB_CLEAR_NODE(&node->rb);
	}
	q->nr--;
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_remove);

/**
 * perf_flex_charge - account time a group spent on the PMU
 * @q: the queue
 * @node: the group's node
 * @delta: time it was scheduled since it was last charged
 *
 * Moves the node behind every node with the same vruntime, so groups that
 * ran equally long take turns.  Not to be called during a perf_flex_sched()
 * walk of @q.  Charging a node that is not queued only adds to its
 * vruntime.  In an all_fit queue the node goes to the back.
 */
void perf_flex_charge(struct perf_flex_queue *q, struct perf_flex_node *node,
		      u64 delta)
{
	if (!perf_flex_queued(node)) {
		node->vruntime += delta;
		return;
	}
	if (q->all_fit) {
		node->vruntime += delta;
		list_move_tail(&node->entry, &q->fifo);
		return;
	}

	rb_erase_cached(&node->rb, &q->root);
	node->vruntime += delta;
	node->seq = q->next_seq++;
	rb_add_cached(&node->rb, &q->root, flex_before);
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_charge);

/**
 * perf_flex_first - the group that has run least
 * @q: the queue
 *
 * Return: the first node in (vruntime, seq) order (of an all_fit queue:
 * the first in the list), or NULL if @q is empty.
 */
struct perf_flex_node *perf_flex_first(struct perf_flex_queue *q)
{
	if (q->all_fit)
		return list_first_entry_or_null(&q->fifo, struct perf_flex_node,
						entry);
	return flex_node(rb_first_cached(&q->root));
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_first);

/**
 * perf_flex_next - the group after @node
 * @q: the queue
 * @node: a node queued on @q
 *
 * Return: the next node in (vruntime, seq) order (of an all_fit queue: in
 * the list), or NULL after the last.
 */
struct perf_flex_node *perf_flex_next(struct perf_flex_queue *q,
				      struct perf_flex_node *node)
{
	if (q->all_fit)
		return list_is_last(&node->entry, &q->fifo) ? NULL :
		       list_next_entry(node, entry);
	return flex_node(rb_next(&node->rb));
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_next);

/*
 * Pull nodes that fell more than max_lag behind the floor up to that
 * bound.  They are all at the front, and each one moves at most once, as
 * it keeps its seq and lands at exactly the bound.
 */
static void flex_cap_lag(struct perf_flex_queue *q, u64 max_lag)
{
	struct perf_flex_node *node;
	u64 bound;

	if (q->min_vruntime <= max_lag)
		return;
	bound = q->min_vruntime - max_lag;

	while ((node = perf_flex_first(q)) && node->vruntime < bound) {
		rb_erase_cached(&node->rb, &q->root);
		node->vruntime = bound;
		rb_add_cached(&node->rb, &q->root, flex_before);
	}
}

/**
 * perf_flex_sched - offer the PMU to the groups, least run first
 * @q: the queue
 * @max_lag: how far behind the floor a group that keeps missing may fall,
 *	in the unit of perf_flex_charge(); U64_MAX for no cap.  The caller
 *	passes it on every walk, so a bound that follows a tunable (the
 *	multiplexing interval) is always the current one.
 * @try_fn: places one group, all or nothing (see &perf_flex_try_fn)
 * @arg: passed to @try_fn
 * @max_misses: stop after this many groups in a row did not fit; 0 for
 *	no limit
 *
 * Visits the nodes in (vruntime, seq) order, or an all_fit queue's in
 * its list's.  A group that does not fit
 * is passed over, so smaller groups behind it still get their chance; the
 * bound keeps the walk short once the PMU is full.  Groups that
 * @try_fn skips neither count as misses nor end a run of them.
 *
 * Return: the number of groups tried that did not fit (0: every candidate
 * was placed; more: some wait, so multiplexing is needed; groups left
 * unvisited by the bound are not counted, but a bound is only reached
 * after a miss), or the negative error code @try_fn ended the walk with.
 */
int perf_flex_sched(struct perf_flex_queue *q, u64 max_lag,
		    perf_flex_try_fn try_fn, void *arg, unsigned int max_misses)
{
	struct perf_flex_node *node, *next;
	unsigned int misses = 0, in_a_row = 0;
	bool placed = false;
	int ret;

	if (!q->all_fit)
		flex_cap_lag(q, max_lag);

	for (node = perf_flex_first(q); node; node = next) {
		next = perf_flex_next(q, node);
		ret = try_fn(node, arg);
		if (ret == -EBUSY) {
			misses++;
			if (max_misses && ++in_a_row >= max_misses)
				break;
			continue;
		}
		if (ret == PERF_FLEX_SKIP)
			continue;
		if (ret)
			return ret;

		in_a_row = 0;
		if (!placed && !q->all_fit) {
			/* the least run group that can run: the new floor */
			placed = true;
			if (node->vruntime > q->min_vruntime)
				q->min_vruntime = node->vruntime;
		}
	}
	return misses;
}
EXPORT_SYMBOL_IF_KUNIT(perf_flex_sched);
