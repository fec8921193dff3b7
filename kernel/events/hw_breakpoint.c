// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the breakpoint PMU and its debug-register accounting.
 *
 * Hardware breakpoints and watchpoints are perf events of type
 * PERF_TYPE_BREAKPOINT, whoever asks for them: perf_event_open(2), ptrace
 * (gdb's "watch"), kgdb, or kernel code through register_*_hw_breakpoint().
 * The architecture has a handful of debug registers per CPU, one set for
 * instruction breakpoints and one for data watchpoints (a single shared
 * set where CONFIG_HAVE_MIXED_BREAKPOINTS_REGS), and every breakpoint is
 * pinned: once created it must be able to go on whenever its task runs.
 * So the registers are handed out when an event is created, not when it
 * is scheduled, and creation fails with -ENOSPC when they could run out.
 *
 * The rule.  On a CPU, the registers of one kind that can be in use at
 * the same time are those of the CPU-bound breakpoints (no task) plus
 * those of whichever single task is running there.  A new breakpoint
 * fits if, on every CPU it could run on,
 *
 *	cpu_bound(cpu) + tasks(cpu) + its weight <= registers
 *
 * where tasks(cpu) is, for a task breakpoint, its own task's breakpoints
 * that can run on that CPU (bound to it, or to no CPU), and for a
 * CPU-bound breakpoint the largest such count over all tasks.
 *
 * Bookkeeping.  CPU-bound counts live in a per-CPU array.  Each task that
 * holds breakpoints has a struct bp_task, found by task pointer in a
 * small hash table, with its count for "any CPU" and, only once it binds
 * a breakpoint to a particular CPU, a per-CPU array.  A task record goes
 * away with its last breakpoint.
 *
 * Locking: bp_slots_lock, a mutex owned by this file, covers all of the
 * bookkeeping.  Every caller can sleep (event creation and destruction)
 * except the kernel debugger, which runs with the world stopped and goes
 * through dbg_reserve_bp_slot()/dbg_release_bp_slot(): those refuse if
 * the mutex is held and otherwise work without it.
 */

#include <linux/bug.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/hw_breakpoint.h>
#include <linux/init.h>
#include <linux/irqflags.h>
#include <linux/kdebug.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "internal.h"

#ifndef hw_breakpoint_weight
/* Registers one breakpoint takes; an architecture may say otherwise. */
static inline int hw_breakpoint_weight(struct perf_event *bp)
{
	return 1;
}
#endif

/**
 * struct bp_task - the breakpoints one task holds
 * @node: link in bp_tasks
 * @task: the task (its events hold a reference to it)
 * @nr: breakpoints held, of every kind
 * @any_cpu: weight of the breakpoints not bound to a CPU, per kind
 * @on_cpu: weight of those bound to a CPU, [kind * nr_cpu_ids + cpu];
 *	NULL while the task has never bound one
 */
struct bp_task {
	struct hlist_node	node;
	struct task_struct	*task;
	unsigned int		nr;
	unsigned int		any_cpu[TYPE_MAX];
	unsigned int		*on_cpu;
};

struct bp_cpu_bound {
	unsigned int	weight[TYPE_MAX];
};

static DEFINE_MUTEX(bp_slots_lock);
static DEFINE_HASHTABLE(bp_tasks, 6);
static DEFINE_PER_CPU(struct bp_cpu_bound, bp_cpu_bound);
/* Registers per kind, read from the architecture once at boot. */
static int bp_registers[TYPE_MAX];

static enum bp_type_idx bp_kind(u64 bp_type)
{
	return bp_type & HW_BREAKPOINT_RW ? TYPE_DATA : TYPE_INST;
}

static struct bp_task *bp_task_find(struct task_struct *task)
{
	struct bp_task *t;

	hash_for_each_possible(bp_tasks, t, node, (unsigned long)task)
		if (t->task == task)
			return t;
	return NULL;
}

/* Weight of @t's breakpoints of kind @kind that can be on @cpu. */
static unsigned int bp_task_weight(const struct bp_task *t,
				   enum bp_type_idx kind, int cpu)
{
	unsigned int w = t->any_cpu[kind];

	if (t->on_cpu)
		w += t->on_cpu[kind * nr_cpu_ids + cpu];
	return w;
}

/* The most registers of @kind that any one task can use on @cpu. */
static unsigned int bp_busiest_task(enum bp_type_idx kind, int cpu)
{
	unsigned int most = 0;
	struct bp_task *t;
	int bkt;

	hash_for_each(bp_tasks, bkt, t, node)
		most = max(most, bp_task_weight(t, kind, cpu));
	return most;
}

/*
 * Registers of @kind already spoken for on the CPU where they are
 * scarcest, among the CPUs @bp can run on, as seen by @bp: its own task
 * if it has one, else the busiest task.
 */
static unsigned int bp_in_use(struct perf_event *bp, enum bp_type_idx kind,
			      struct bp_task *own)
{
	const struct cpumask *cpus = bp->cpu >= 0 ? cpumask_of(bp->cpu) :
						    cpu_possible_mask;
	unsigned int most = 0, used;
	int cpu;

	for_each_cpu(cpu, cpus) {
		used = per_cpu(bp_cpu_bound, cpu).weight[kind];
		if (!bp->hw.target)
			used += bp_busiest_task(kind, cpu);
		else if (own)
			used += bp_task_weight(own, kind, cpu);
		most = max(most, used);
	}
	return most;
}

static struct bp_task *bp_task_get(struct task_struct *task, gfp_t gfp)
{
	struct bp_task *t = bp_task_find(task);

	if (t)
		return t;
	t = kzalloc(sizeof(*t), gfp);
	if (!t)
		return NULL;
	t->task = task;
	hash_add(bp_tasks, &t->node, (unsigned long)task);
	return t;
}

/* Forget @t once it holds no breakpoint. */
static void bp_task_put_idle(struct bp_task *t)
{
	if (t->nr)
		return;
	hash_del(&t->node);
	kfree(t->on_cpu);
	kfree(t);
}

/* Add @delta registers of @kind to @bp's account: its CPU's or its task's. */
static void bp_charge(struct perf_event *bp, enum bp_type_idx kind,
		      struct bp_task *own, int delta)
{
	if (!own)
		per_cpu(bp_cpu_bound, bp->cpu).weight[kind] += delta;
	else if (bp->cpu < 0)
		own->any_cpu[kind] += delta;
	else
		own->on_cpu[kind * nr_cpu_ids + bp->cpu] += delta;
}

static int bp_reserve_locked(struct perf_event *bp, u64 bp_type, gfp_t gfp)
{
	enum bp_type_idx kind = bp_kind(bp_type);
	struct task_struct *task = bp->hw.target;
	struct bp_task *own = NULL;

	if (bp_type == HW_BREAKPOINT_EMPTY || bp_type == HW_BREAKPOINT_INVALID)
		return -EINVAL;

	if (task)
		own = bp_task_find(task);
	if (bp_in_use(bp, kind, own) + hw_breakpoint_weight(bp) >
	    bp_registers[kind])
		return -ENOSPC;

	if (task) {
		own = bp_task_get(task, gfp);
		if (!own)
			return -ENOMEM;
		if (bp->cpu >= 0 && !own->on_cpu)
			own->on_cpu = kcalloc(TYPE_MAX * nr_cpu_ids,
					      sizeof(*own->on_cpu), gfp);
		if (bp->cpu >= 0 && !own->on_cpu) {
			bp_task_put_idle(own);
			return -ENOMEM;
		}
		own->nr++;
	}
	bp_charge(bp, kind, own, hw_breakpoint_weight(bp));
	return 0;
}

static void bp_release_locked(struct perf_event *bp, u64 bp_type)
{
	struct task_struct *task = bp->hw.target;
	struct bp_task *own = NULL;

	if (task) {
		own = bp_task_find(task);
		if (WARN_ON_ONCE(!own))
			return;
	}
	bp_charge(bp, bp_kind(bp_type), own, -hw_breakpoint_weight(bp));
	if (own) {
		own->nr--;
		bp_task_put_idle(own);
	}
}

/**
 * reserve_bp_slot - claim debug registers for a breakpoint event
 * @bp: the event, with its attr, cpu and target task set
 *
 * Return: 0, -ENOSPC if the registers could run out on a CPU the event
 * can run on, -EINVAL for an empty or invalid breakpoint type, -ENOMEM.
 */
int reserve_bp_slot(struct perf_event *bp)
{
	int ret;

	mutex_lock(&bp_slots_lock);
	ret = bp_reserve_locked(bp, bp->attr.bp_type, GFP_KERNEL);
	mutex_unlock(&bp_slots_lock);
	return ret;
}

/**
 * release_bp_slot - give back what reserve_bp_slot() claimed
 * @bp: the event
 */
void release_bp_slot(struct perf_event *bp)
{
	mutex_lock(&bp_slots_lock);
	bp_release_locked(bp, bp->attr.bp_type);
	mutex_unlock(&bp_slots_lock);
}

/* Move @bp's claim to a new breakpoint type, or leave it as it was. */
static int bp_change_type(struct perf_event *bp, u64 old_type, u64 new_type)
{
	int ret;

	mutex_lock(&bp_slots_lock);
	bp_release_locked(bp, old_type);
	ret = bp_reserve_locked(bp, new_type, GFP_KERNEL);
	/* What was just given back is there to take again. */
	if (ret)
		WARN_ON(bp_reserve_locked(bp, old_type, GFP_KERNEL));
	mutex_unlock(&bp_slots_lock);
	return ret;
}

/**
 * dbg_reserve_bp_slot - reserve_bp_slot() for the kernel debugger
 * @bp: the event
 *
 * The debugger stops every other CPU, possibly inside the accounting, so
 * it cannot wait for the lock; it backs off if the lock is taken.
 *
 * Return: as reserve_bp_slot(), or -1 if the accounting is busy.
 */
int dbg_reserve_bp_slot(struct perf_event *bp)
{
	int ret;

	if (mutex_is_locked(&bp_slots_lock))
		return -1;
	lockdep_off();
	ret = bp_reserve_locked(bp, bp->attr.bp_type, GFP_ATOMIC);
	lockdep_on();
	return ret;
}

/**
 * dbg_release_bp_slot - release_bp_slot() for the kernel debugger
 * @bp: the event
 *
 * Return: 0, or -1 if the accounting is busy.
 */
int dbg_release_bp_slot(struct perf_event *bp)
{
	if (mutex_is_locked(&bp_slots_lock))
		return -1;
	lockdep_off();
	bp_release_locked(bp, bp->attr.bp_type);
	lockdep_on();
	return 0;
}

/**
 * hw_breakpoint_is_used - whether any breakpoint holds debug registers
 *
 * Return: true if a breakpoint exists anywhere.
 */
bool hw_breakpoint_is_used(void)
{
	bool used;
	int cpu, kind;

	mutex_lock(&bp_slots_lock);
	used = !hash_empty(bp_tasks);
	for_each_possible_cpu(cpu)
		for (kind = 0; kind < TYPE_MAX; kind++)
			used |= !!per_cpu(bp_cpu_bound, cpu).weight[kind];
	mutex_unlock(&bp_slots_lock);
	return used;
}

/*
 * Let the architecture translate @attr into register settings, then
 * refuse breakpoints on kernel addresses to those who may not have them:
 * a breakpoint in the trap path itself would recurse.
 */
static int bp_parse(struct perf_event *bp, const struct perf_event_attr *attr,
		    struct arch_hw_breakpoint *hw)
{
	int err = hw_breakpoint_arch_parse(bp, attr, hw);

	if (err || !arch_check_bp_in_kernelspace(hw))
		return err;
	if (attr->exclude_kernel)
		return -EINVAL;
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

/**
 * register_perf_hw_breakpoint - claim registers for and parse a new event
 * @bp: a breakpoint event being created
 *
 * Return: 0 or -errno; on failure nothing stays claimed.
 */
int register_perf_hw_breakpoint(struct perf_event *bp)
{
	struct arch_hw_breakpoint hw = { };
	int err;

	err = reserve_bp_slot(bp);
	if (err)
		return err;
	err = bp_parse(bp, &bp->attr, &hw);
	if (err) {
		release_bp_slot(bp);
		return err;
	}
	bp->hw.info = hw;
	return 0;
}

/**
 * register_user_hw_breakpoint - a breakpoint on a user task
 * @attr: the breakpoint
 * @triggered: called when it hits
 * @context: passed to @triggered
 * @tsk: the task whose address space @attr->bp_addr is in
 *
 * Return: the event, or an ERR_PTR().
 */
struct perf_event *
register_user_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered,
			    void *context, struct task_struct *tsk)
{
	return perf_event_create_kernel_counter(attr, -1, tsk, triggered,
						context);
}
EXPORT_SYMBOL_GPL(register_user_hw_breakpoint);

/**
 * modify_user_hw_breakpoint_check - change a breakpoint's address, length,
 *	type or disabled bit
 * @bp: the breakpoint, disabled by the caller
 * @attr: the new attr
 * @check: refuse (-EINVAL) an @attr that differs from the current one in
 *	anything else, as PERF_EVENT_IOC_MODIFY_ATTRIBUTES must
 *
 * Return: 0 or -errno; on failure @bp is unchanged.
 */
int modify_user_hw_breakpoint_check(struct perf_event *bp,
				    struct perf_event_attr *attr, bool check)
{
	struct arch_hw_breakpoint hw = { };
	struct perf_event_attr merged;
	int err;

	err = bp_parse(bp, attr, &hw);
	if (err)
		return err;

	merged = bp->attr;
	merged.bp_addr = attr->bp_addr;
	merged.bp_type = attr->bp_type;
	merged.bp_len = attr->bp_len;
	merged.disabled = attr->disabled;
	if (check && memcmp(&merged, attr, sizeof(merged)))
		return -EINVAL;

	if (merged.bp_type != bp->attr.bp_type) {
		err = bp_change_type(bp, bp->attr.bp_type, merged.bp_type);
		if (err)
			return err;
	}
	bp->attr = merged;
	bp->hw.info = hw;
	return 0;
}

/*
 * Take @bp off before changing it.  ptrace can get here with interrupts
 * off, where the cross-CPU disable cannot be sent; the breakpoint is then
 * the current task's own and can be turned off right here.
 */
static void bp_quiesce(struct perf_event *bp)
{
	if (!irqs_disabled() || !bp->ctx || bp->ctx->task != current) {
		perf_event_disable(bp);
		return;
	}
	perf_event_disable_local(bp);
}

/**
 * modify_user_hw_breakpoint - change a user breakpoint (ptrace)
 * @bp: the breakpoint
 * @attr: the new attr; only address, length, type and disabled are taken
 *
 * Return: 0 or -errno.
 */
int modify_user_hw_breakpoint(struct perf_event *bp,
			      struct perf_event_attr *attr)
{
	int err;

	bp_quiesce(bp);
	err = modify_user_hw_breakpoint_check(bp, attr, false);
	/* Back on, whether or not the change took, unless it is to be off. */
	if (!bp->attr.disabled)
		perf_event_enable(bp);
	return err;
}
EXPORT_SYMBOL_GPL(modify_user_hw_breakpoint);

/**
 * unregister_hw_breakpoint - remove a breakpoint made by this API
 * @bp: the breakpoint, or NULL
 */
void unregister_hw_breakpoint(struct perf_event *bp)
{
	if (bp)
		perf_event_release_kernel(bp);
}
EXPORT_SYMBOL_GPL(unregister_hw_breakpoint);

/**
 * register_wide_hw_breakpoint - a kernel breakpoint on every online CPU
 * @attr: the breakpoint
 * @triggered: called when it hits
 * @context: passed to @triggered
 *
 * Return: a per-CPU array of the events, or an ERR_PTR(); all or none.
 */
struct perf_event * __percpu *
register_wide_hw_breakpoint(struct perf_event_attr *attr,
			    perf_overflow_handler_t triggered, void *context)
{
	struct perf_event * __percpu *events;
	struct perf_event *bp;
	long err = 0;
	int cpu;

	events = alloc_percpu(struct perf_event *);
	if (!events)
		return (void __percpu __force *)ERR_PTR(-ENOMEM);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		bp = perf_event_create_kernel_counter(attr, cpu, NULL,
						      triggered, context);
		if (IS_ERR(bp)) {
			err = PTR_ERR(bp);
			break;
		}
		*per_cpu_ptr(events, cpu) = bp;
	}
	cpus_read_unlock();

	if (err) {
		unregister_wide_hw_breakpoint(events);
		return (void __percpu __force *)ERR_PTR(err);
	}
	return events;
}
EXPORT_SYMBOL_GPL(register_wide_hw_breakpoint);

/**
 * unregister_wide_hw_breakpoint - undo register_wide_hw_breakpoint()
 * @cpu_events: what it returned
 */
void unregister_wide_hw_breakpoint(struct perf_event * __percpu *cpu_events)
{
	int cpu;

	for_each_possible_cpu(cpu)
		unregister_hw_breakpoint(*per_cpu_ptr(cpu_events, cpu));
	free_percpu(cpu_events);
}
EXPORT_SYMBOL_GPL(unregister_wide_hw_breakpoint);

/* ---- the PMU ---------------------------------------------------------- */

static void bp_event_destroy(struct perf_event *bp)
{
	release_bp_slot(bp);
}

static int bp_event_init(struct perf_event *bp)
{
	int err;

	if (bp->attr.type != PERF_TYPE_BREAKPOINT)
		return -ENOENT;
	/* A kind this CPU has no registers for; no branch stacks either. */
	if (!bp_registers[bp_kind(bp->attr.bp_type)] || has_branch_stack(bp))
		return -EOPNOTSUPP;

	err = register_perf_hw_breakpoint(bp);
	if (!err)
		bp->destroy = bp_event_destroy;
	return err;
}

static int bp_event_add(struct perf_event *bp, int flags)
{
	struct hw_perf_event *hwc = &bp->hw;

	hwc->state = flags & PERF_EF_START ? 0 : PERF_HES_STOPPED;
	/* A sampling breakpoint counts hits down like a software event. */
	if (is_sampling_event(bp)) {
		hwc->last_period = hwc->sample_period;
		perf_swevent_set_period(bp);
	}
	return arch_install_hw_breakpoint(bp);
}

static void bp_event_del(struct perf_event *bp, int flags)
{
	arch_uninstall_hw_breakpoint(bp);
}

static struct pmu bp_pmu = {
	/* Scheduled with the software events: it never fails to go on. */
	.task_ctx_nr	= perf_sw_context,
	.event_init	= bp_event_init,
	.add		= bp_event_add,
	.del		= bp_event_del,
	.start		= perf_inline_pmu_start,
	.stop		= perf_inline_pmu_stop,
	.read		= hw_breakpoint_pmu_read,
};

/* The architecture's debug exceptions must see a hit before anyone else. */
static struct notifier_block bp_exception_nb = {
	.notifier_call	= hw_breakpoint_exceptions_notify,
	.priority	= INT_MAX,
};

/**
 * init_hw_breakpoint - register the breakpoint PMU
 *
 * Called once from the core's initialisation.
 *
 * Return: 0 or -errno.
 */
int __init init_hw_breakpoint(void)
{
	int kind, err;

	for (kind = 0; kind < TYPE_MAX; kind++)
		bp_registers[kind] = hw_breakpoint_slots(kind);

	err = perf_pmu_register(&bp_pmu, "breakpoint", PERF_TYPE_BREAKPOINT);
	if (err)
		return err;
	return register_die_notifier(&bp_exception_nb);
}
