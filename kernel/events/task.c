// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: a task's life as its events see it: fork, exec and exit.
 *
 * Fork: a child gets a copy of every event of its parent's context that
 * asks for inheritance (attr.inherit, and attr.inherit_thread only for
 * threads), group by group, each copy reporting to the original event;
 * when the copy is exact, the child's context is marked a clone of the
 * parent's so that a switch between the two can trade them (clone.c).
 * Exec: events with enable_on_exec are enabled, those with
 * remove_on_exec leave.  Exit: the task's events stop, and an inherited
 * copy folds its counts and times into its parent before it goes.
 *
 * Everything here runs in the task concerned (or its parent at fork), in
 * process context, and takes the contexts' mutexes and then their locks
 * as context.c's lock page orders them; context.c does the installing and
 * removing itself.
 */

#include <linux/sched/task.h>
#include <linux/slab.h>

#include "internal.h"

/* ----------------------------------------------------------------------
 * Fork: inheritance.
 */

/*
 * Make @child_ctx's copy of @event (an event of the parent task's
 * context).  The copy reports to the original event (the one with the fd),
 * never to an intermediate inherited copy.
 */
static struct perf_event *
perf_inherit_event(struct perf_event *event, struct task_struct *child,
		   struct perf_event_context *child_ctx,
		   struct perf_event *child_leader)
{
	struct perf_event *origin = event->parent ? event->parent : event;
	struct perf_event *copy;
	struct pmu *pmu;
	int err;

	/*
	 * An origin whose task has exited (EXIT) still has children: they
	 * and their own children keep counting for it.  Only a released
	 * origin (DEAD, checked below) takes no new ones.
	 */
	if (!perf_event_tryget(origin))
		return NULL;

	copy = perf_event_alloc(&origin->attr, origin->cpu, child, child_leader,
				origin, NULL, NULL, -1,
				perf_ctx_copy_slot(child_ctx));
	if (IS_ERR(copy)) {
		put_event(origin);
		return copy;
	}

	copy->state = event->state >= PERF_EVENT_STATE_INACTIVE ?
		      PERF_EVENT_STATE_INACTIVE : PERF_EVENT_STATE_OFF;
	if (origin->attr.freq) {
		copy->hw.sample_period = event->hw.sample_period;
		local64_set(&copy->hw.period_left, event->hw.sample_period);
	}

	perf_get_ctx(child_ctx);
	WRITE_ONCE(copy->ctx, child_ctx);

	/*
	 * Releasing the origin marks it DEAD and then reaps the children it
	 * finds on its child_list: test and link under child_mutex, so that
	 * either the release sees the copy or we see DEAD.  The reaper also
	 * takes the child context's mutex, which our caller holds until the
	 * copy is in the context (or off the list again).
	 */
	mutex_lock(&origin->child_mutex);
	if (origin->state == PERF_EVENT_STATE_DEAD) {
		mutex_unlock(&origin->child_mutex);
		perf_free_event(copy);
		put_event(origin);
		return NULL;
	}
	list_add_tail(&copy->child_list, &origin->child_list);
	mutex_unlock(&origin->child_mutex);
	copy->attach_state |= PERF_ATTACH_CHILD;

	/*
	 * A copied group lives in the same PMU's part of the context as the
	 * group it copies, which is not always its leader's own PMU: a
	 * software group that took a hardware member moved over to that
	 * member's PMU (syscall.c).  Left in the software part, the
	 * hardware member is added to its PMU inside the software PMU's
	 * disable/enable bracket, never its own: arm_pmu, which starts
	 * counting in pmu_enable(), then counts nothing.
	 */
	pmu = child_leader ? child_leader->pmu_ctx->pmu : event->pmu_ctx->pmu;
	err = perf_ctx_link_copy(copy, child_ctx, pmu);
	if (err) {
		mutex_lock(&origin->child_mutex);
		list_del_init(&copy->child_list);
		mutex_unlock(&origin->child_mutex);
		perf_free_event(copy);
		put_event(origin);
		return ERR_PTR(err);
	}
	return copy;
}

static int perf_inherit_group(struct perf_event *leader,
			      struct task_struct *child,
			      struct perf_event_context *child_ctx)
{
	struct perf_event *copy_leader, *sib, *copy;

	copy_leader = perf_inherit_event(leader, child, child_ctx, NULL);
	if (IS_ERR(copy_leader))
		return PTR_ERR(copy_leader);
	if (!copy_leader)
		return 0;

	list_for_each_entry(sib, &leader->sibling_list, sibling_entry) {
		copy = perf_inherit_event(sib, child, child_ctx, copy_leader);
		if (IS_ERR(copy))
			return PTR_ERR(copy);
	}

	/*
	 * A group read adds the copies up member by member only while each
	 * has its origin's shape (fops.c compares generations).  Linking
	 * the members counted this copy's own history, which need not be
	 * the original's: a group that moved to a hardware PMU when its
	 * first hardware member joined was taken apart and put together
	 * again.  The copy has the shape of what it was copied from.
	 */
	raw_spin_lock_irq(&child_ctx->lock);
	copy_leader->group_generation = leader->group_generation;
	raw_spin_unlock_irq(&child_ctx->lock);
	return 0;
}

static bool perf_event_inherits(struct perf_event *event, u64 clone_flags)
{
	if (!event->attr.inherit)
		return false;
	if (event->attr.inherit_thread && !(clone_flags & CLONE_THREAD))
		return false;
	/* sigtrap events only follow threads that share the handlers. */
	if (event->attr.sigtrap && (clone_flags & CLONE_CLEAR_SIGHAND))
		return false;
	return true;
}

/**
 * perf_event_init_task - set up a new task's perf state; inherit events
 * @child: the new task
 * @clone_flags: its clone flags
 *
 * Return: 0, or an errno with every copy made so far torn down again:
 * copy_process() calls perf_event_free_task() only for the steps after
 * this one fail, not when this one does.
 */
int perf_event_init_task(struct task_struct *child, u64 clone_flags)
{
	struct perf_event_context *parent_ctx, *child_ctx = NULL;
	struct perf_event *event;
	unsigned int nr = 0;
	int err = 0;

	child->perf_event_ctxp = NULL;
	mutex_init(&child->perf_event_mutex);
	INIT_LIST_HEAD(&child->perf_event_list);

	parent_ctx = perf_task_ctx_get(current);
	if (!parent_ctx)
		return 0;

	mutex_lock(&parent_ctx->mutex);
	/* A group is copied whole when its leader is inherited. */
	list_for_each_entry(event, &parent_ctx->event_list, event_entry) {
		if (perf_event_inherits(event->group_leader, clone_flags))
			nr++;
	}
	list_for_each_entry(event, &parent_ctx->event_list, event_entry) {
		if (event->group_leader != event ||
		    !perf_event_inherits(event, clone_flags))
			continue;
		if (!child_ctx) {
			child_ctx = perf_ctx_alloc(child, nr);
			if (!child_ctx) {
				err = -ENOMEM;
				break;
			}
			rcu_assign_pointer(child->perf_event_ctxp, child_ctx);
			mutex_lock_nested(&child_ctx->mutex,
					  SINGLE_DEPTH_NESTING);
		}
		err = perf_inherit_group(event, child, child_ctx);
		if (err)
			break;
	}
	if (child_ctx) {
		if (!err)
			perf_ctx_mark_clone(child_ctx, parent_ctx);
		mutex_unlock(&child_ctx->mutex);
	}
	mutex_unlock(&parent_ctx->mutex);
	perf_put_ctx(parent_ctx);
	/*
	 * The copies already made are on their origins' child lists; left
	 * there, the next walk of those lists (an ioctl, prctl, read)
	 * reaches a context whose task copy_process() is about to free.
	 */
	if (err)
		perf_event_free_task(child);
	return err;
}

/*
 * Fold what an inherited event counted into its parent, then drop it.
 * The parent's child_mutex decides who frees the child: whoever takes it
 * off the parent's list.
 */
static void perf_event_exit_child(struct perf_event *child,
				  struct task_struct *task)
{
	struct perf_event *parent = child->parent;
	/* Final: the state change to EXIT folded them and stopped them. */
	u64 enabled = child->times.enabled, running = child->times.running;
	bool mine = false;

	if (child->attr.inherit_stat && task)
		perf_event_read_event(child, task);

	mutex_lock(&parent->child_mutex);
	if (!list_empty(&child->child_list)) {
		atomic64_add(perf_event_count(child), &parent->child_count);
		atomic64_add(enabled, &parent->child_total_time_enabled);
		atomic64_add(running, &parent->child_total_time_running);
		list_del_init(&child->child_list);
		mine = true;
	}
	mutex_unlock(&parent->child_mutex);

	if (mine) {
		/*
		 * Someone may poll the parent's fd for the hang-up that its
		 * last child's exit brings (fops.c).  The poller tests
		 * child_list under child_mutex after queueing itself, so an
		 * empty queue here means nobody can miss this exit.
		 */
		if (wq_has_sleeper(&parent->waitq))
			wake_up_all(&parent->waitq);
		/* put_event() of a child also drops its hold on the parent. */
		put_event(child);
	}
}

/**
 * perf_event_exit_task - a task exits: its events stop, children fold in
 * @child: the exiting task (current)
 */
void perf_event_exit_task(struct task_struct *child)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp;
	LIST_HEAD(gone);

	/* Its fds outlive it: forget it as their owner. */
	mutex_lock(&child->perf_event_mutex);
	list_for_each_entry_safe(event, tmp, &child->perf_event_list,
				 owner_entry) {
		list_del_init(&event->owner_entry);
		WRITE_ONCE(event->owner, NULL);
	}
	mutex_unlock(&child->perf_event_mutex);

	for (;;) {
		ctx = perf_task_ctx_get(child);
		if (!ctx) {
			perf_event_task_exit_output(child);
			return;
		}
		mutex_lock(&ctx->mutex);
		if (perf_task_ctx_claim(ctx, child))
			break;
		/* Traded to another task while we slept on the mutex. */
		mutex_unlock(&ctx->mutex);
		perf_put_ctx(ctx);
	}
	perf_event_task_exit_output(child);

	/*
	 * Off the PMU for good; from now on the context runs nowhere.  With
	 * the pointer cleared first (no new context can appear: the task is
	 * PF_EXITING), a later switch back to this task finds nothing; with
	 * interrupts off, none comes before the events are off.
	 */
	local_irq_disable();
	RCU_INIT_POINTER(child->perf_event_ctxp, NULL);
	perf_ctx_exit_events(ctx, &gone);
	local_irq_enable();

	list_for_each_entry_safe(event, tmp, &gone, event_entry) {
		list_del_init(&event->event_entry);
		if (event->parent)
			perf_event_exit_child(event, child);
		else
			perf_event_wakeup(event);
	}
	mutex_unlock(&ctx->mutex);

	/* The context's reference on the task (ctx->task no longer says). */
	put_task_struct(child);
	perf_put_ctx(ctx);	/* ours */
	perf_put_ctx(ctx);	/* the task pointer's */
}

/**
 * perf_event_free_task - free the inherited events of a task that failed
 * to fork
 * @task: the half-made task
 */
void perf_event_free_task(struct task_struct *task)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp;

	ctx = rcu_access_pointer(task->perf_event_ctxp);
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	raw_spin_lock_irq(&ctx->lock);
	RCU_INIT_POINTER(task->perf_event_ctxp, NULL);
	WRITE_ONCE(ctx->task, TASK_TOMBSTONE);
	raw_spin_unlock_irq(&ctx->lock);
	put_task_struct(task);

	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		raw_spin_lock_irq(&ctx->lock);
		perf_group_detach(event);
		perf_ctx_unlink_event(event, ctx);
		perf_event_set_state(event, PERF_EVENT_STATE_DEAD);
		raw_spin_unlock_irq(&ctx->lock);
		perf_event_exit_child(event, NULL);
	}
	mutex_unlock(&ctx->mutex);
	perf_put_ctx(ctx);
}

/**
 * perf_event_delayed_put - last look at a dead task's perf state
 * @task: the task being freed
 */
void perf_event_delayed_put(struct task_struct *task)
{
	WARN_ON_ONCE(rcu_access_pointer(task->perf_event_ctxp));
}

/* ----------------------------------------------------------------------
 * Exec: enable_on_exec and remove_on_exec.
 */
static void perf_exec_enable_fn(struct perf_event *event,
				struct perf_cpu_context *cpuctx,
				struct perf_event_context *ctx, void *data)
{
	struct perf_event *e;
	bool any = false;

	list_for_each_entry(e, &ctx->event_list, event_entry) {
		if (!e->attr.enable_on_exec)
			continue;
		e->attr.enable_on_exec = 0;
		if (e->state >= PERF_EVENT_STATE_INACTIVE)
			continue;
		perf_event_enable_state(e);
		any = true;
	}
	if (any && cpuctx && ctx->is_active)
		perf_ctx_resched(cpuctx, ctx, ctx, NULL, EVENT_ALL);
}

/**
 * perf_event_exec - current has exec'ed a new program
 */
void perf_event_exec(void)
{
	struct perf_event_context *ctx;
	struct perf_event *event, *tmp, *first;
	bool removing;

again:
	ctx = perf_task_ctx_get(current);
	if (!ctx)
		return;

	mutex_lock(&ctx->mutex);
	first = NULL;
	removing = false;
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->attr.enable_on_exec && !first)
			first = event;
		if (event->attr.remove_on_exec)
			removing = true;
	}
	if (!first && !removing)
		goto out;
	/* What changes here does not change in the clones. */
	if (!perf_task_ctx_claim(ctx, current)) {
		mutex_unlock(&ctx->mutex);
		perf_put_ctx(ctx);
		goto again;
	}

	if (first)
		perf_ctx_call(first, perf_exec_enable_fn, NULL);

	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		if (!event->attr.remove_on_exec)
			continue;
		if (event->parent) {
			perf_remove_from_context(event, DETACH_GROUP | DETACH_EXIT);
			perf_event_exit_child(event, current);
		} else {
			perf_remove_from_context(event, DETACH_GROUP |
						 DETACH_EXIT);
		}
	}
out:
	mutex_unlock(&ctx->mutex);
	perf_put_ctx(ctx);
}
