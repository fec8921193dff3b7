/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: fair queue of flexible event groups.
 *
 * Flexible groups compete for scarce PMU counters.  Instead of a list that
 * is rotated by one position per tick, the queue orders groups by how long
 * each has been scheduled so far (its vruntime): the group that has run
 * least is offered the PMU first, and a group that does not fit does not
 * keep the groups behind it off the PMU.  See flex_queue.c for the rules
 * and the locking expectations.
 */
#ifndef _KERNEL_EVENTS_FLEX_QUEUE_H
#define _KERNEL_EVENTS_FLEX_QUEUE_H

#include <linux/build_bug.h>
#include <linux/list.h>
#include <linux/perf/core_types.h>
#include <linux/stddef.h>
#include <linux/types.h>

/* struct perf_flex_node, struct perf_flex_queue: <linux/perf/core_types.h> */

/*
 * Returned by a perf_flex_sched() callback for a group that is not a
 * candidate right now (turned off, filtered out): neither placed nor a
 * miss.
 */
#define PERF_FLEX_SKIP	1

/**
 * typedef perf_flex_try_fn - try to put one group on the PMU
 * @node: the group's queue node
 * @arg: the caller's cookie, passed through from perf_flex_sched()
 *
 * Must place the whole group or nothing, and must not add, remove or charge
 * nodes of the queue being walked.
 *
 * Return: 0 if the group was placed, -EBUSY if it did not fit,
 * %PERF_FLEX_SKIP if it is not a candidate now, or a negative error code
 * to end the walk.
 */
typedef int (*perf_flex_try_fn)(struct perf_flex_node *node, void *arg);

void perf_flex_queue_init(struct perf_flex_queue *q, bool all_fit);
void perf_flex_node_init(struct perf_flex_node *node);
void perf_flex_add(struct perf_flex_queue *q, struct perf_flex_node *node);
void perf_flex_remove(struct perf_flex_queue *q, struct perf_flex_node *node);
void perf_flex_charge(struct perf_flex_queue *q, struct perf_flex_node *node,
		      u64 delta);
struct perf_flex_node *perf_flex_first(struct perf_flex_queue *q);
struct perf_flex_node *perf_flex_next(struct perf_flex_queue *q,
				      struct perf_flex_node *node);
int perf_flex_sched(struct perf_flex_queue *q, u64 max_lag,
		    perf_flex_try_fn try_fn, void *arg, unsigned int max_misses);

/**
 * perf_flex_queued - whether a node is in a queue
 * @node: a node set up with perf_flex_node_init()
 *
 * Return: true between perf_flex_add() and perf_flex_remove().
 */
static inline bool perf_flex_queued(const struct perf_flex_node *node)
{
	/*
	 * Either link's first word points at the node itself when it is in
	 * no queue: RB_CLEAR_NODE() makes it so, and so does list_del_init()
	 * of @entry, which lies over @rb; in a list it points at the next
	 * entry or the head, never at itself.
	 */
	BUILD_BUG_ON(offsetof(struct rb_node, __rb_parent_color) !=
		     offsetof(struct list_head, next));
	return !RB_EMPTY_NODE(&node->rb);
}

/**
 * perf_flex_empty - whether a queue holds no node
 * @q: the queue
 *
 * Return: true if nothing is queued.
 */
static inline bool perf_flex_empty(const struct perf_flex_queue *q)
{
	return !q->nr;
}

#endif /* _KERNEL_EVENTS_FLEX_QUEUE_H */
