// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the perf_event cgroup controller and cgroup time.
 *
 * A cgroup event is a CPU event that only counts while a task of its
 * cgroup (or of a descendant) runs on that CPU.  Two things make that
 * work:
 *
 *  - Each CPU context remembers in cpuctx->cgrp the perf cgroup of the
 *    task running on it, as long as the context has cgroup events.  A
 *    switch to a task of another cgroup (or a task moved to another cgroup
 *    while it runs) takes the CPU context's cgroup events off the PMUs and
 *    puts back those that match the new cgroup (perf_cgroup_switch()).
 *
 *  - Each perf cgroup has a clock per CPU (struct perf_cgroup_info, a
 *    struct perf_tclock driven by the same times.c functions as a
 *    context's clock).  It runs while its cgroup or a descendant is
 *    cpuctx->cgrp and the CPU context's own clock runs; cgroup events
 *    measure their enabled and running time on it rather than on the
 *    CPU context's clock.
 *
 * cpuctx->cgrp is owned by this file.  It is set the first time this file
 * sees the CPU context with cgroup events (ctx.nr_cgroups != 0) and
 * cleared the first time it sees it without; while set it holds a
 * reference on the css, so a stale value can never point to freed memory.
 * All changes happen on the context's CPU under cpuctx->ctx.lock with
 * interrupts off.
 *
 * Clock updates are single-writer (that CPU); readers that cannot take the
 * lock (NMI, a remote read of a stopped clock) use
 * perf_tclock_read_lockless().
 */

#include <linux/cgroup.h>
#include <linux/file.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include "internal.h"

static inline struct perf_cgroup *css_to_perf_cgroup(struct cgroup_subsys_state *css)
{
	return css ? container_of(css, struct perf_cgroup, css) : NULL;
}

static inline struct perf_cgroup *perf_cgroup_parent(struct perf_cgroup *cgrp)
{
	return css_to_perf_cgroup(cgrp->css.parent);
}

/* ----------------------------------------------------------------------
 * One cgroup's clock on one CPU.
 */

/*
 * The clocks of @cgrp and of its ancestors all run together: an event of
 * an ancestor counts for the whole subtree.  These walk the chain on this
 * CPU; @cgrp may be NULL.
 */
static void cgrp_chain_start(struct perf_cgroup *cgrp, u64 now)
{
	for (; cgrp; cgrp = perf_cgroup_parent(cgrp))
		perf_tclock_start(&this_cpu_ptr(cgrp->info)->clock, now);
}

static void cgrp_chain_stop(struct perf_cgroup *cgrp, u64 now)
{
	for (; cgrp; cgrp = perf_cgroup_parent(cgrp))
		perf_tclock_stop(&this_cpu_ptr(cgrp->info)->clock, now);
}

static void cgrp_chain_advance(struct perf_cgroup *cgrp, u64 now)
{
	for (; cgrp; cgrp = perf_cgroup_parent(cgrp))
		perf_tclock_update(&this_cpu_ptr(cgrp->info)->clock, now);
}

/* ----------------------------------------------------------------------
 * The CPU context's cgroup.
 */

/*
 * Replace cpuctx->cgrp by @cgrp (which may be NULL) and return the old
 * value; the caller owns the old reference and drops it when convenient.
 * @cgrp belongs to a task that is running here, so its css is alive.
 */
static struct perf_cgroup *cpuctx_set_cgrp(struct perf_cpu_context *cpuctx,
					   struct perf_cgroup *cgrp)
{
	struct perf_cgroup *old = cpuctx->cgrp;

	if (cgrp)
		css_get(&cgrp->css);
	WRITE_ONCE(cpuctx->cgrp, cgrp);
	return old;
}

static void perf_cgroup_put(struct perf_cgroup *cgrp)
{
	if (cgrp)
		css_put(&cgrp->css);
}

void perf_cgroup_sync_cpuctx(struct perf_cpu_context *cpuctx)
{
	struct perf_cgroup *cgrp = cpuctx->cgrp;

	lockdep_assert_irqs_disabled();

	if (cpuctx->ctx.nr_cgroups && !cgrp) {
		/* First cgroup event here: follow the running task from now. */
		cgrp = perf_cgroup_from_task(current, NULL);
		perf_cgroup_put(cpuctx_set_cgrp(cpuctx, cgrp));
		if (cpuctx->ctx.clock.running)
			cgrp_chain_start(cgrp, perf_clock());
	} else if (!cpuctx->ctx.nr_cgroups && cgrp) {
		/* Last one gone: nobody needs these clocks on this CPU. */
		cgrp_chain_stop(cgrp, perf_clock());
		perf_cgroup_put(cpuctx_set_cgrp(cpuctx, NULL));
	}
}

/**
 * perf_cgroup_match() - does @event's cgroup contain the running task?
 * @event: a cgroup event of this CPU's context
 *
 * Cgroup scope is hierarchical: the event counts for its cgroup and for
 * every descendant.  "The running task" is the one cpuctx->cgrp follows,
 * which during a cgroup switch is already the incoming task.
 *
 * Return: true if @event may count now.
 */
bool perf_cgroup_match(struct perf_event *event)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_cgroup *cur = READ_ONCE(cpuctx->cgrp);

	if (!event->cgrp)
		return true;

	/* Not tracking yet (first cgroup event): ask the task itself. */
	if (!cur)
		cur = perf_cgroup_from_task(current, NULL);

	return cgroup_is_descendant(cur->css.cgroup, event->cgrp->css.cgroup);
}

/**
 * perf_cgroup_event_clock() - the clock @event's times are measured on
 * @event: a cgroup event
 *
 * Its cgroup's clock on its CPU.  Only that CPU writes it, under its CPU
 * context's lock; others read it with perf_tclock_read_lockless().
 *
 * Return: the clock, never NULL.
 */
struct perf_tclock *perf_cgroup_event_clock(struct perf_event *event)
{
	int cpu = event->cpu >= 0 ? event->cpu : raw_smp_processor_id();

	return &per_cpu_ptr(event->cgrp->info, cpu)->clock;
}

/**
 * perf_cgroup_update_time() - bring this CPU's running cgroup clocks to now
 * @cpuctx: this CPU's context, its lock held
 */
void perf_cgroup_update_time(struct perf_cpu_context *cpuctx)
{
	perf_cgroup_sync_cpuctx(cpuctx);
	cgrp_chain_advance(cpuctx->cgrp, perf_clock());
}

/*
 * Caller holds cpuctx->ctx.lock.  Every PMU of the CPU context is held
 * disabled so that the outgoing and incoming groups reach the hardware in
 * one go.
 */
static void cpuctx_pmus_disable(struct perf_cpu_context *cpuctx)
{
	struct perf_event_pmu_context *epc;

	list_for_each_entry(epc, &cpuctx->ctx.pmu_ctx_list, pmu_ctx_entry)
		perf_pmu_disable(epc->pmu);
}

static void cpuctx_pmus_enable(struct perf_cpu_context *cpuctx)
{
	struct perf_event_pmu_context *epc;

	list_for_each_entry(epc, &cpuctx->ctx.pmu_ctx_list, pmu_ctx_entry)
		perf_pmu_enable(epc->pmu);
}

/**
 * perf_cgroup_switch() - follow a change of the running task's cgroup
 * @next: the task about to run (or, after a cgroup move, the running one)
 *
 * Called by the scheduler hook on a task switch and by the controller's
 * attach on the CPU of a moved task, with interrupts or preemption off
 * and no context lock held.  Cheap when this CPU has no cgroup events or
 * @next is in the cgroup already followed.
 */
void perf_cgroup_switch(struct task_struct *next)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_cgroup *to, *from, *drop = NULL;
	unsigned long flags;
	u64 now;

	if (!READ_ONCE(cpuctx->cgrp) && !READ_ONCE(cpuctx->ctx.nr_cgroups))
		return;

	to = perf_cgroup_from_task(next, NULL);
	if (READ_ONCE(cpuctx->cgrp) == to)
		return;

	local_irq_save(flags);
	perf_ctx_lock(cpuctx, NULL);

	/* Re-check under the lock; this may also adopt or drop a cgroup. */
	perf_cgroup_sync_cpuctx(cpuctx);
	from = cpuctx->cgrp;
	if (!from || from == to)
		goto unlock;

	cpuctx_pmus_disable(cpuctx);

	/*
	 * One instant for the whole switch: events going off fold their time
	 * on the outgoing clocks as of @now, and those clocks stop at @now,
	 * so no time passes on them while their events are off (which would
	 * count as enabled but not running).  The new chain starts at the
	 * same instant, so a common ancestor of both cgroups loses no time.
	 */
	now = perf_clock();
	cgrp_chain_advance(from, now);
	perf_cpu_ctx_sched_out_cgroup(cpuctx);
	cgrp_chain_stop(from, now);
	drop = cpuctx_set_cgrp(cpuctx, to);
	if (cpuctx->ctx.clock.running)
		cgrp_chain_start(to, now);

	perf_cpu_ctx_sched_in_cgroup(cpuctx);

	cpuctx_pmus_enable(cpuctx);
unlock:
	perf_ctx_unlock(cpuctx, NULL);
	local_irq_restore(flags);

	perf_cgroup_put(drop);
}

/* ----------------------------------------------------------------------
 * Binding events to cgroups.
 */

/**
 * perf_cgroup_connect() - make @event a cgroup event
 * @fd: an open cgroup directory (v1 perf_event hierarchy or v2)
 * @event: a CPU event being allocated; event->group_leader set
 *
 * Takes a reference on the cgroup that perf_detach_cgroup() drops.  Every
 * member of a group must watch the same cgroup, since the group goes on
 * and off the PMU as a whole.
 *
 * Return: 0, -EBADF for a bad fd, -EINVAL for a group mismatch, or the
 * error of looking the cgroup up (-EBADF, -ENOENT for a dying cgroup).
 */
int perf_cgroup_connect(int fd, struct perf_event *event)
{
	struct cgroup_subsys_state *css;
	struct perf_event *leader = event->group_leader;
	struct perf_cgroup *cgrp;
	CLASS(fd, f)(fd);

	if (fd_empty(f))
		return -EBADF;

	css = css_tryget_online_from_dir(fd_file(f)->f_path.dentry,
					 &perf_event_cgrp_subsys);
	if (IS_ERR(css))
		return PTR_ERR(css);

	cgrp = css_to_perf_cgroup(css);
	event->cgrp = cgrp;

	if (leader && leader != event && leader->cgrp != cgrp) {
		perf_detach_cgroup(event);
		return -EINVAL;
	}
	return 0;
}

/**
 * perf_detach_cgroup() - drop @event's cgroup (when it is freed)
 * @event: a cgroup event, in no context any more
 */
void perf_detach_cgroup(struct perf_event *event)
{
	struct perf_cgroup *cgrp = event->cgrp;

	if (!cgrp)
		return;
	event->cgrp = NULL;
	css_put(&cgrp->css);
}

/* ----------------------------------------------------------------------
 * The controller.
 */

static struct cgroup_subsys_state *
perf_cgroup_css_alloc(struct cgroup_subsys_state *parent_css)
{
	struct perf_cgroup *cgrp;

	cgrp = kzalloc(sizeof(*cgrp), GFP_KERNEL);
	if (!cgrp)
		return ERR_PTR(-ENOMEM);

	/* Zeroed: every clock starts stopped at time 0. */
	cgrp->info = alloc_percpu(struct perf_cgroup_info);
	if (!cgrp->info) {
		kfree(cgrp);
		return ERR_PTR(-ENOMEM);
	}
	return &cgrp->css;
}

static void perf_cgroup_css_free(struct cgroup_subsys_state *css)
{
	struct perf_cgroup *cgrp = css_to_perf_cgroup(css);

	free_percpu(cgrp->info);
	kfree(cgrp);
}

struct perf_cgroup_move {
	struct task_struct	*task;
	bool			missed;	/* the task left that CPU: retry */
};

/* Runs on the moved task's CPU; only a running task needs a switch now. */
static void perf_cgroup_move_here(void *arg)
{
	struct perf_cgroup_move *move = arg;

	move->missed = task_cpu(move->task) != smp_processor_id();
	if (!move->missed && move->task == current)
		perf_cgroup_switch(move->task);
}

/*
 * The tasks are already in their new css_set, so a task that is not
 * running picks its new cgroup up at its next switch in.  A running one
 * is told on its CPU; if it migrated meanwhile, ask again where it went.
 */
static void perf_cgroup_attach(struct cgroup_taskset *tset)
{
	struct cgroup_subsys_state *css;
	struct task_struct *task;

	cgroup_taskset_for_each(task, css, tset) {
		struct perf_cgroup_move move = { .task = task };

		do {
			move.missed = false;
			if (smp_call_function_single(task_cpu(task),
						     perf_cgroup_move_here,
						     &move, 1))
				break;
		} while (move.missed);
	}
}

/* A new cgroup: tell tools its path (PERF_RECORD_CGROUP). */
static int perf_cgroup_css_online(struct cgroup_subsys_state *css)
{
	perf_event_cgroup(css->cgroup);
	return 0;
}

struct cgroup_subsys perf_event_cgrp_subsys = {
	.css_online	= perf_cgroup_css_online,
	.css_alloc	= perf_cgroup_css_alloc,
	.css_free	= perf_cgroup_css_free,
	.attach		= perf_cgroup_attach,
	/*
	 * On cgroup2 the controller needs no enabling, so that events can
	 * always be scoped by a v2 path unless perf_event is bound to a v1
	 * hierarchy; and it works per thread in threaded subtrees.
	 */
	.implicit_on_dfl = true,
	.threaded	= true,
};
