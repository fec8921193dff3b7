// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: cloned task contexts, and trading them at a context switch.
 *
 * A task that forks with inherited events gets a context holding one copy
 * of each of its parent's events.  While neither context changes, the two
 * are interchangeable: every copy reports to the same original event, and
 * the counts are only ever read summed over an original and all its
 * copies.  A switch between two tasks with interchangeable contexts can
 * therefore leave the events on the PMU and trade the contexts between the
 * tasks, instead of taking every event off and putting every copy on.
 * That is the everyday case of `perf stat` on a forking or multi-threaded
 * program: parent and child, or two threads, taking turns on a CPU.
 *
 * What is observable, and the same upstream: after a trade the original
 * events may count for (and exit with) a child task, while the parent
 * runs with copies; the sums read through the original's fd do not
 * change.
 *
 * Bookkeeping:
 *  - ctx->generation counts the changes of a context's set of events
 *    (context.c bumps it on every link and unlink).
 *  - A clone records the context it is a copy of (clone_of, holding a
 *    reference) and that context's generation at the time (clone_gen).  A
 *    copy of a clone records what that clone recorded, so all the copies
 *    made from one unchanged context are clones of that one context.
 *  - Two contexts are interchangeable when one is a clone of the other at
 *    the other's current generation, or both are clones of the same
 *    context at the same generation.
 *  - Whoever changes a context in a way its twins do not see (an event
 *    opened on the task, exec's enable_on_exec and remove_on_exec, exit)
 *    first claims it with perf_task_ctx_claim(): that unclones it (drops
 *    clone_of, bumps the generation, so nothing matches it any more) and
 *    checks it is still the task's, since it may have been traded while
 *    the claimer slept on its mutex.
 *
 * Only plain contexts become clones: every event of the parent copied,
 * none with inherit_stat (the per-task totals would have to be traded
 * too) or in the error state, and no PMU keeping per-task data in the
 * context.  And the trade is skipped while a PMU on this CPU wants
 * sched_task calls.  Anything else takes the full switch.
 *
 * Locking: clone_of, clone_gen and generation change under ctx->lock with
 * ctx->mutex held, so either lock is enough to read them.  The trade holds
 * both task contexts' locks: the outgoing one (scheduled in on this CPU),
 * then the incoming task's.  The incoming task runs nowhere, so no other
 * CPU can be trading the same pair the other way round.
 */

#include <kunit/visibility.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>

#include "internal.h"

/*
 * Forget what @ctx is a clone of and make it match nothing.  Return: the
 * context it was a clone of, whose reference the caller drops once it
 * no longer holds ctx->lock (dropping may free, which takes other locks).
 */
static struct perf_event_context *
perf_ctx_unclone(struct perf_event_context *ctx)
{
	struct perf_event_context *was = ctx->clone_of;

	lockdep_assert_held(&ctx->lock);
	ctx->clone_of = NULL;
	ctx->generation++;
	return was;
}

/**
 * perf_task_ctx_claim - make @ctx @task's own for a change
 * @ctx: a task context, its mutex held
 * @task: the task it was found through
 *
 * Unclones @ctx, so that it is never traded again until a fork copies it
 * afresh (which needs the mutex the caller holds), and checks that it is
 * still @task's context: it may have been traded before the claim.
 *
 * Return: true when @ctx is @task's; false when the caller must look up
 * @task's context again.
 */
bool perf_task_ctx_claim(struct perf_event_context *ctx,
			 struct task_struct *task)
{
	struct perf_event_context *was;
	bool mine;

	lockdep_assert_held(&ctx->mutex);

	raw_spin_lock_irq(&ctx->lock);
	was = perf_ctx_unclone(ctx);
	mine = rcu_access_pointer(task->perf_event_ctxp) == ctx ||
	       ctx->task == TASK_TOMBSTONE;
	raw_spin_unlock_irq(&ctx->lock);

	if (was)
		perf_put_ctx(was);
	return mine;
}

/* Can a copy of @ctx, made now, stand in for it? */
static bool perf_ctx_cloneable(struct perf_event_context *ctx)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *event;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (epc->task_ctx_data)
			return false;
	}
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->attr.inherit_stat)
			return false;
		/*
		 * A pinned group that lost its counter is copied as off, not
		 * as failed; a trade would leave the parent with a copy that
		 * never counts again.  Upstream trades anyway.
		 */
		if (event->state == PERF_EVENT_STATE_ERROR)
			return false;
	}
	return true;
}

/**
 * perf_ctx_clone_origin - what a copy of @parent is a clone of
 * @parent: the context being copied
 * @gen: set to the generation the copy matches
 *
 * A copy of an unchanged clone is a clone of the same context as its
 * parent, at the same generation, so that all the copies made from one
 * context match each other however deep the fork tree.
 *
 * Return: the context to record in the copy's clone_of.
 */
struct perf_event_context *
perf_ctx_clone_origin(struct perf_event_context *parent, u64 *gen)
{
	if (parent->clone_of) {
		*gen = parent->clone_gen;
		return parent->clone_of;
	}
	*gen = parent->generation;
	return parent;
}
EXPORT_SYMBOL_IF_KUNIT(perf_ctx_clone_origin);

/**
 * perf_ctx_mark_clone - record that @child is a copy of @parent
 * @child: a new task's context, just filled by inheritance
 * @parent: the context it was filled from, its mutex held
 *
 * Does nothing unless every event of @parent was copied and @parent is
 * plain enough to be traded (see the top of this file).
 */
void perf_ctx_mark_clone(struct perf_event_context *child,
			 struct perf_event_context *parent)
{
	struct perf_event_context *of;
	u64 gen;

	lockdep_assert_held(&parent->mutex);

	if (child->nr_events != parent->nr_events ||
	    !perf_ctx_cloneable(parent))
		return;

	raw_spin_lock_irq(&parent->lock);
	of = perf_ctx_clone_origin(parent, &gen);
	perf_get_ctx(of);
	raw_spin_unlock_irq(&parent->lock);

	raw_spin_lock_irq(&child->lock);
	child->clone_of = of;
	child->clone_gen = gen;
	raw_spin_unlock_irq(&child->lock);
}

/**
 * perf_ctx_interchangeable - may two task contexts be traded?
 * @a: a context
 * @b: another
 *
 * Return: true when one is a clone of the other at the other's current
 * generation, or both are clones of one context at the same generation.
 */
bool perf_ctx_interchangeable(const struct perf_event_context *a,
			      const struct perf_event_context *b)
{
	if (a->clone_of == b && a->clone_gen == b->generation)
		return true;
	if (b->clone_of == a && b->clone_gen == a->generation)
		return true;
	return a->clone_of && a->clone_of == b->clone_of &&
	       a->clone_gen == b->clone_gen;
}
EXPORT_SYMBOL_IF_KUNIT(perf_ctx_interchangeable);

/**
 * __perf_task_ctx_trade - hand @ctx to @next instead of switching it out
 * @prev: the task leaving this CPU
 * @ctx: its context, scheduled in here
 * @next: the task coming in
 * @next_ctx: @next's context as perf_task_ctx_trade() found it, another
 *	than @ctx, and one of the two a clone
 *
 * When @next's context is interchangeable with @ctx, the two tasks swap
 * contexts and @ctx stays on the PMU, now as @next's; @next's switch-in
 * then finds it already in place.  perf_task_ctx_trade() looked without
 * locks; this looks again with them and decides.
 *
 * Not while either context has a SIGTRAP queued for its task: the signal
 * goes only to the task of the event's context when the work runs, and
 * a task can be switched out between the overflow and its way back to
 * user space, where the work runs (a syscall's exit reschedules first).
 * Traded meanwhile, the context would belong to the other task and the
 * signal be dropped.  @ctx's count can only grow here from an NMI of
 * this CPU in the few instructions of the trade itself.
 *
 * Context: the context switch, interrupts off, and no PMU on this CPU
 * wanting sched_task calls (the caller checks).
 * Return: true when traded; false when @ctx has to be switched out.
 */
bool __perf_task_ctx_trade(struct task_struct *prev,
			   struct perf_event_context *ctx,
			   struct task_struct *next,
			   struct perf_event_context *next_ctx)
{
	bool traded = false;

	raw_spin_lock(&ctx->lock);
	raw_spin_lock_nested(&next_ctx->lock, SINGLE_DEPTH_NESTING);
	if (rcu_access_pointer(next->perf_event_ctxp) == next_ctx &&
	    !next_ctx->is_active && perf_ctx_interchangeable(ctx, next_ctx) &&
	    !atomic_read(&ctx->nr_pending_sigtrap) &&
	    !atomic_read(&next_ctx->nr_pending_sigtrap)) {
		WRITE_ONCE(ctx->task, next);
		WRITE_ONCE(next_ctx->task, prev);
		rcu_assign_pointer(prev->perf_event_ctxp, next_ctx);
		rcu_assign_pointer(next->perf_event_ctxp, ctx);
		traded = true;
	}
	raw_spin_unlock(&next_ctx->lock);
	raw_spin_unlock(&ctx->lock);
	return traded;
}
