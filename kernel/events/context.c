// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: task and CPU contexts, and the events' place in them.
 *
 * A context is the set of events that count together: those of one task
 * (task->perf_event_ctxp) or those of one CPU (per-CPU perf_cpu_context).
 * Within a context every PMU has its own part (struct
 * perf_event_pmu_context) with the pinned list and the fair flexible
 * queue; sched.c walks those.  This file changes the population: it puts
 * events in and takes them out, and enables and disables them; task.c
 * follows the task through fork (inheritance), exec and exit.
 *
 * Locks: the one list for all of kernel/events.  A lock's owner file
 * says more about it; here is what each protects and the order they
 * nest in, outermost first.  No lock is taken while one further down the
 * list is held.
 *
 * Sleeping locks:
 *
 *  1. mm->mmap_lock, held for writing by the mm core around perf_mmap():
 *     the buffer's mapping nests event->mmap_mutex inside it.
 *  2. task->signal->exec_update_lock (read, syscall.c): from the
 *     permission check on a task target until its event is installed, so
 *     that an exec cannot change the target's credentials in between.
 *  3. cpu_hotplug_lock (cpus_read_lock()): hw_breakpoint.c holds it
 *     around creating one breakpoint per CPU (each takes a ctx->mutex);
 *     pmu.c around reading the CPUs of a PMU's scope.
 *  4. task->perf_event_mutex: the task's list of the events it opened
 *     (event->owner_entry, for prctl) and the creation of its context.
 *  5. ctx->mutex: the context's population (event_list, pmu_ctx_list and
 *     each pmu context's lists, nr_events, a leader's sibling_list) and
 *     every change of an event's attributes or state from outside the
 *     scheduler; held across perf_ctx_call().  Two at once: a parent's
 *     then its child's at fork (the child's held through the whole
 *     inheritance, so it is also the lock that guards a copied group's
 *     siblings while the PMU's event_init looks at them), and a source
 *     CPU's then a destination's when a PMU's events migrate, each as
 *     SINGLE_DEPTH_NESTING.  The CPU contexts' mutexes have a lockdep
 *     class of their own (see perf_cpu_ctx_mutex_key below).
 *  6. event->child_mutex: the parent's child_list.  It nests inside the
 *     mutex of the context being changed, so code that walks the
 *     children to lock their contexts drops it first.
 *  7. event->mmap_mutex (ring_buffer.c): event->rb, event->mmap_count,
 *     the buffer's mmap_count and its locked-memory charge.  Two at once
 *     (PERF_EVENT_IOC_SET_OUTPUT) in address order, rb_lock_pair().
 *  8. Leaves, nothing nests inside them: perf_pmus_mutex (pmu.c: the PMU
 *     list and type IDR, registration and the sysfs devices; lookups use
 *     the pmus_srcu SRCU domain instead), perf_sched_key_mutex (this
 *     file: the context-switch static key), perf_freq_tick_mutex
 *     (event.c: the nohz_full tick dependency of frequency events),
 *     swevent_tables_mutex (swevent.c: the per-CPU hash tables),
 *     callchain_lock (callchain.c: the call-chain buffers and their
 *     sysctl) and bp_slots_lock (hw_breakpoint.c: the slot accounting).
 *
 * Spinning locks, interrupts off:
 *
 *  9. cpuctx->ctx.lock, then the task context's ctx->lock (raw;
 *     perf_ctx_lock() takes both in this order), on the CPU that runs
 *     the context: what scheduling reads and writes (the table below).
 *     At a context switch that trades two clones, the outgoing task's
 *     context lock, then the incoming one's (clone.c, nested).
 * 10. cpc->mux_lock (raw, sched.c): a PMU's multiplexing timer on one
 *     CPU, its interval and whether it is armed; inside the context
 *     locks, or alone when sysfs changes the interval.
 * 11. rb->event_lock (ring_buffer.c): the buffer's list of the events
 *     writing into it; inside event->mmap_mutex.  Writers of records
 *     take no lock at all (rcu_read_lock() and a cmpxchg on the head).
 * 12. perf_sb_lock (raw, sideband.c): changes of the side-band
 *     registry's lists; readers walk them under RCU.
 * 13. event->addr_filters.lock (raw): an event's address filters and the
 *     ranges the PMU was given; the head is the parent's, shared by the
 *     inherited family.
 *
 * What the context locks (9) protect, field by field; "mutex + lock"
 * means both are held to change it, either to read it:
 *
 *   perf_event_context   lock: is_active, clock, sw_events (read under
 *                        RCU by whoever raises a software event on the
 *                        CPU where the context is in); mutex + lock:
 *                        event_list, pmu_ctx_list, nr_events, nr_user,
 *                        nr_cgroups, nr_freq, clone_of, clone_gen,
 *                        generation, copy_slots_used; lock: which of
 *                        epc_slots are handed out;
 *                        atomic: refcount, nr_pending_sigtrap; lockless
 *                        (llist): graveyard, added to as events of an
 *                        exited task are freed, emptied by the RCU free
 *                        of the context; task is set at creation and
 *                        cleared (mutex + lock) when the task exits.
 *   perf_event_pmu_ctx   mutex + lock: pinned_groups, the flexible
 *                        queue's membership, nr_events, pmu_ctx_entry;
 *                        lock: active_groups, flexible_missed, the
 *                        queue's order (flex_queue.c).
 *   perf_cpu_context     its lock and the task context's, on its CPU:
 *                        task_ctx, a task context only while that has
 *                        events and its task runs there (sched.c): the
 *                        switch hooks that keep it so are off while no
 *                        task event exists, and no CPU may keep one then.
 *   perf_cpu_pmu_context lock: active_oncpu, exclusive; mux_lock: the
 *                        timer fields; sched_cb_usage and sched_cb_entry:
 *                        this CPU with interrupts off (drivers count
 *                        themselves in from pmu::add and pmu::del).
 *   perf_event           mutex + lock: group_leader, sibling_list,
 *                        nr_siblings, group_generation, group_caps,
 *                        event_entry, group_entry, attr (after open, only the
 *                        changes ioctl may make); lock: state, oncpu (for a
 *                        group parked on its PMU the CPU its context was
 *                        last on, -1 for one parked off it, sched.c),
 *                        times, hlist_entry (swevent.c),
 *                        active_entry, flex, flex_charged, pending_disable
 *                        (set from NMI, read under it); atomic or NMI-safe:
 *                        count, child_count, event_limit, the other pending_*
 *                        fields; child_mutex: child_list; mmap_mutex: rb,
 *                        rb_entry, mmap_count; perf_sb_lock: sb_list;
 *                        sb_kinds is written once, before the event is on a
 *                        side-band list.
 *
 * A task's context is not always the one it started with: a switch
 * between two tasks whose contexts are clones of each other may trade
 * them (clone.c).  Code that changes a task's context through the task
 * claims it first (perf_task_ctx_claim()), under its mutex.
 *
 * Changing an active context means running on its CPU: perf_ctx_call()
 * sends an IPI there (to the CPU of the event for a CPU context, to the
 * CPU the task runs on for a task context) and runs the change with both
 * context locks held.  A task context that is not running anywhere is
 * changed in place under its lock, which the scheduler also takes before
 * it can schedule the context in.
 *
 * Counter sharing (share.c) adds no lock.  A PMU's rider table is its
 * CPU's, changed only by the struct pmu callbacks (under the context
 * locks, interrupts off) and read by the PMU's overflow interrupt, an
 * NMI on x86 (a pseudo-NMI on arm64 where the irqchip has them);
 * share.c's header gives the order of stores that keeps the two
 * consistent.  Sharers on one CPU may come from different contexts (the
 * CPU's, a task's, a cgroup's): the table knows events only, and an
 * event leaves it in its pmu::del, under its own context's lock.
 *
 * Reference counts: a task context holds one reference for its task
 * pointer, one per event and one per clone of it; a CPU context is
 * static.  Events hold their context until they are freed, so event->ctx
 * is stable once installed.
 */

#include <linux/cpu.h>
#include <linux/hw_breakpoint.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "internal.h"

DEFINE_PER_CPU(struct perf_cpu_context, perf_cpu_context);

/* ----------------------------------------------------------------------
 * The static key that turns the context switch hooks on.
 */
DEFINE_STATIC_KEY_FALSE(perf_sched_events);

/*
 * Users of the hooks, plus one while a switch-off is pending: the last
 * user does not drop its count but leaves that to the delayed work,
 * which turns the hooks off if nobody came back meanwhile.  A workload
 * that opens and closes events in a loop thus neither patches code nor
 * takes the mutex on every open.
 */
static atomic_t nr_task_events;
static DEFINE_MUTEX(perf_sched_key_mutex);

static void perf_sched_key_off(struct work_struct *work)
{
	mutex_lock(&perf_sched_key_mutex);
	if (atomic_dec_and_test(&nr_task_events))
		static_branch_disable(&perf_sched_events);
	mutex_unlock(&perf_sched_key_mutex);
}

static DECLARE_DELAYED_WORK(perf_sched_key_work, perf_sched_key_off);

/**
 * perf_sched_events_get - a task event came into existence
 *
 * The hooks must be on before the event can be scheduled, so the first
 * user turns the key on synchronously (this may sleep).
 */
void perf_sched_events_get(void)
{
	if (atomic_inc_not_zero(&nr_task_events))
		return;
	mutex_lock(&perf_sched_key_mutex);
	if (!atomic_read(&nr_task_events)) {
		static_branch_enable(&perf_sched_events);
		/*
		 * A context switch that read the key while it was off runs
		 * neither hook, and one may be under way now, switching in
		 * the very task whose event the caller is about to install:
		 * perf_ctx_call() would find that task not running yet and
		 * install in place, and the switch would then not bring the
		 * context in.  A switch runs with interrupts off, so once a
		 * grace period has passed, every switch reads the key on.
		 */
		synchronize_rcu();
	}
	atomic_inc(&nr_task_events);
	mutex_unlock(&perf_sched_key_mutex);
}

/**
 * perf_sched_events_put - a task event went away
 *
 * The last one leaves its count to perf_sched_key_off(), a little later
 * and from a worker: callers may hold locks.
 */
void perf_sched_events_put(void)
{
	if (!atomic_add_unless(&nr_task_events, -1, 1))
		schedule_delayed_work(&perf_sched_key_work, HZ);
}

/* ----------------------------------------------------------------------
 * Context objects.
 */
static void perf_ctx_init(struct perf_event_context *ctx,
			  struct task_struct *task, int cpu)
{
	raw_spin_lock_init(&ctx->lock);
	mutex_init(&ctx->mutex);
	INIT_LIST_HEAD(&ctx->pmu_ctx_list);
	INIT_LIST_HEAD(&ctx->event_list);
	refcount_set(&ctx->refcount, 1);
	perf_tclock_init(&ctx->clock);
	ctx->task = task;
	ctx->cpu = cpu;
}

/*
 * Copies a fork makes in the allocation of the child's context at most:
 * past that it would be of a higher order still; the copies beyond get a
 * slab object each.
 */
#define PERF_CTX_COPY_SLOTS_MAX	16

/* Where a context's copy slots start, within its own allocation. */
#define PERF_CTX_SLOTS_OFFSET \
	ALIGN(sizeof(struct perf_event_context), __alignof__(struct perf_event))

/**
 * perf_ctx_alloc - a new task context
 * @task: its task, which it takes a reference on
 * @copies: how many events a fork is about to copy into it; 0 otherwise
 *
 * A fork with inherited events allocated one event per copy and freed
 * them one by one at exit.  A context made for @copies of them has room
 * for them (up to PERF_CTX_COPY_SLOTS_MAX) right behind it, in one
 * allocation that goes with the context, which its copies hold until
 * they are freed (event.c lets a copy in a slot wait for it).  Without
 * memory for that, or for a single copy, the context comes alone and
 * the copies are allocated as any event is.
 *
 * Return: the context, or NULL.
 */
struct perf_event_context *perf_ctx_alloc(struct task_struct *task,
					  unsigned int copies)
{
	struct perf_event_context *ctx = NULL;

	copies = min_t(unsigned int, copies, PERF_CTX_COPY_SLOTS_MAX);
	if (copies >= 2) {
		/* The slots are zeroed one at a time, as they are used. */
		ctx = kmalloc(PERF_CTX_SLOTS_OFFSET +
			      copies * sizeof(struct perf_event),
			      GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY);
		if (ctx) {
			memset(ctx, 0, sizeof(*ctx));
			ctx->copy_slots = (void *)ctx + PERF_CTX_SLOTS_OFFSET;
			ctx->copy_slots_nr = copies;
		}
	}
	if (!ctx)
		ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return NULL;
	perf_ctx_init(ctx, get_task_struct(task), -1);
	return ctx;
}

/**
 * perf_ctx_copy_slot - zeroed memory in @ctx for the next copy, or NULL
 * @ctx: the context the copy goes into, its mutex held
 *
 * Return: a slot of those perf_ctx_alloc() made room for, each handed out
 * once; NULL when there is none (left), for an allocation of its own.
 */
struct perf_event *perf_ctx_copy_slot(struct perf_event_context *ctx)
{
	struct perf_event *slot;

	lockdep_assert_held(&ctx->mutex);

	if (ctx->copy_slots_used >= ctx->copy_slots_nr)
		return NULL;
	slot = &ctx->copy_slots[ctx->copy_slots_used++];
	memset(slot, 0, sizeof(*slot));
	return slot;
}

/**
 * perf_get_ctx - take a reference on a context
 * @ctx: the context
 */
void perf_get_ctx(struct perf_event_context *ctx)
{
	refcount_inc(&ctx->refcount);
}

/* The context and the events buried with it (event.c), unreachable now. */
static void perf_ctx_free_rcu(struct rcu_head *head)
{
	struct perf_event_context *ctx;

	ctx = container_of(head, struct perf_event_context, rcu_head);
	perf_event_free_buried(llist_del_all(&ctx->graveyard));
	kfree(ctx);	/* and its copy slots */
}

/**
 * perf_put_ctx - drop a reference; the last one frees a task context
 * @ctx: the context
 */
void perf_put_ctx(struct perf_event_context *ctx)
{
	struct task_struct *task;

	if (!refcount_dec_and_test(&ctx->refcount))
		return;
	task = ctx->task;
	if (task && task != TASK_TOMBSTONE)
		put_task_struct(task);
	if (ctx->clone_of)
		perf_put_ctx(ctx->clone_of);
	call_rcu(&ctx->rcu_head, perf_ctx_free_rcu);
}

/*
 * The context of @task with a reference, or NULL.  The RCU read section
 * keeps the memory; the reference count decides whether it is still live.
 */
struct perf_event_context *perf_task_ctx_get(struct task_struct *task)
{
	struct perf_event_context *ctx;

	rcu_read_lock();
	ctx = rcu_dereference(task->perf_event_ctxp);
	if (ctx && !refcount_inc_not_zero(&ctx->refcount))
		ctx = NULL;
	rcu_read_unlock();
	return ctx;
}

/*
 * The context of @task, created on first use.  Return: it with a
 * reference, or ERR_PTR(-ESRCH) if @task is exiting, or ERR_PTR(-ENOMEM).
 */
static struct perf_event_context *perf_task_ctx_find(struct task_struct *task)
{
	struct perf_event_context *ctx, *fresh;

	for (;;) {
		ctx = perf_task_ctx_get(task);
		if (ctx)
			return ctx;

		fresh = perf_ctx_alloc(task, 0);
		if (!fresh)
			return ERR_PTR(-ENOMEM);

		mutex_lock(&task->perf_event_mutex);
		if (task->flags & PF_EXITING) {
			mutex_unlock(&task->perf_event_mutex);
			perf_put_ctx(fresh);
			return ERR_PTR(-ESRCH);
		}
		if (!rcu_access_pointer(task->perf_event_ctxp)) {
			/* One reference for the task, one for the caller. */
			perf_get_ctx(fresh);
			rcu_assign_pointer(task->perf_event_ctxp, fresh);
			/*
			 * Orders the store above before perf_ctx_call()'s
			 * task_curr() test, as the scheduler orders its
			 * rq->curr store before the switch-in hook's load of
			 * the pointer: either that hook finds the context and
			 * takes its lock, or the install sees the task
			 * running and goes to its CPU.  Otherwise both could
			 * miss, and the first event would stay out while the
			 * task runs.
			 */
			smp_mb();
			mutex_unlock(&task->perf_event_mutex);
			return fresh;
		}
		/* Lost a race with another opener: use theirs. */
		mutex_unlock(&task->perf_event_mutex);
		perf_put_ctx(fresh);
	}
}

/**
 * perf_find_lock_context - the context an event for (@task, @cpu) joins
 * @task: the task, or NULL for a CPU event
 * @cpu: the CPU of a CPU event
 *
 * Return: the context with a reference and its mutex held, or
 * ERR_PTR(-ESRCH) if @task has exited, ERR_PTR(-ENODEV) if @cpu is
 * offline, or ERR_PTR(-ENOMEM).
 */
struct perf_event_context *perf_find_lock_context(struct task_struct *task,
						  int cpu)
{
	struct perf_cpu_context *cpuctx;
	struct perf_event_context *ctx;

	if (!task) {
		cpuctx = per_cpu_ptr(&perf_cpu_context, cpu);
		ctx = &cpuctx->ctx;
		perf_get_ctx(ctx);
		mutex_lock(&ctx->mutex);
		/* The mutex holds off CPU hotplug's teardown of the context. */
		if (!cpuctx->online) {
			mutex_unlock(&ctx->mutex);
			perf_put_ctx(ctx);
			return ERR_PTR(-ENODEV);
		}
		return ctx;
	}

	for (;;) {
		ctx = perf_task_ctx_find(task);
		if (IS_ERR(ctx))
			return ctx;
		mutex_lock(&ctx->mutex);
		if (READ_ONCE(ctx->task) == TASK_TOMBSTONE) {
			mutex_unlock(&ctx->mutex);
			perf_put_ctx(ctx);
			return ERR_PTR(-ESRCH);
		}
		/* A new event makes it differ from its clones. */
		if (perf_task_ctx_claim(ctx, task))
			return ctx;
		/* Traded away while we waited for the mutex: look again. */
		mutex_unlock(&ctx->mutex);
		perf_put_ctx(ctx);
	}
}

/**
 * perf_epc_init - set up @pmu's part of @ctx, empty and in no list
 * @epc: the pmu context
 * @pmu: its PMU
 * @ctx: its context
 */
void perf_epc_init(struct perf_event_pmu_context *epc, struct pmu *pmu,
		   struct perf_event_context *ctx)
{
	epc->pmu = pmu;
	epc->ctx = ctx;
	INIT_LIST_HEAD(&epc->pmu_ctx_entry);
	INIT_LIST_HEAD(&epc->pinned_groups);
	INIT_LIST_HEAD(&epc->active_groups);
	perf_flex_queue_init(&epc->flexible, perf_pmu_groups_all_fit(pmu));
}

/* @pmu's part of the task context @ctx with a reference, or NULL. */
static struct perf_event_pmu_context *
perf_task_epc_get_locked(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->lock);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (epc->pmu == pmu) {
			atomic_inc(&epc->refcount);
			return epc;
		}
	}
	return NULL;
}

/*
 * @pmu's part of the task context @ctx made in room the context has for
 * it (ctx->epc_slots), or NULL when all of it was handed out.  A slot
 * serves once: after its last put it stays unlinked, and its memory goes
 * with the context's, which outlives every reader of the part (event->
 * pmu_ctx holds a context reference through the event).
 */
static struct perf_event_pmu_context *
perf_task_epc_from_slot(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_event_pmu_context *epc;
	int i;

	lockdep_assert_held(&ctx->lock);
	for (i = 0; i < PERF_CTX_EPC_SLOTS; i++) {
		epc = &ctx->epc_slots[i];
		if (epc->ctx)
			continue;
		perf_epc_init(epc, pmu, ctx);
		epc->embedded = true;
		atomic_set(&epc->refcount, 1);
		list_add(&epc->pmu_ctx_entry, &ctx->pmu_ctx_list);
		return epc;
	}
	return NULL;
}

/*
 * @pmu's part of the task context @ctx with a reference: the one there is,
 * or one made in the context's room for it; NULL when it must be
 * allocated.
 */
static struct perf_event_pmu_context *
perf_task_epc_find_locked(struct perf_event_context *ctx, struct pmu *pmu)
{
	struct perf_event_pmu_context *epc;

	epc = perf_task_epc_get_locked(ctx, pmu);
	if (!epc && !pmu->task_ctx_cache)
		epc = perf_task_epc_from_slot(ctx, pmu);
	return epc;
}

/**
 * perf_find_get_pmu_context - @pmu's part of @ctx, with a reference
 * @pmu: the PMU
 * @ctx: the context, its mutex held
 * @event: the event that will use it (a CPU context's part is per CPU)
 *
 * Return: the pmu context or ERR_PTR(-ENOMEM).
 */
struct perf_event_pmu_context *
perf_find_get_pmu_context(struct pmu *pmu, struct perf_event_context *ctx,
			  struct perf_event *event)
{
	struct perf_event_pmu_context *epc, *fresh = NULL;
	void *task_data = NULL;

	if (!ctx->task) {
		struct perf_cpu_pmu_context *cpc;

		cpc = per_cpu_ptr(pmu->cpu_pmu_context, event->cpu);
		epc = &cpc->epc;
		raw_spin_lock_irq(&ctx->lock);
		if (!epc->ctx)
			perf_epc_init(epc, pmu, ctx);
		epc->embedded = true;
		if (list_empty(&epc->pmu_ctx_entry)) {
			atomic_set(&epc->refcount, 1);
			list_add(&epc->pmu_ctx_entry, &ctx->pmu_ctx_list);
		} else {
			atomic_inc(&epc->refcount);
		}
		raw_spin_unlock_irq(&ctx->lock);
		return epc;
	}

	/* Usually there is one already, or room for it. */
	raw_spin_lock_irq(&ctx->lock);
	epc = perf_task_epc_find_locked(ctx, pmu);
	raw_spin_unlock_irq(&ctx->lock);
	if (epc)
		return epc;

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL);
	if (!fresh)
		return ERR_PTR(-ENOMEM);
	if (pmu->task_ctx_cache) {
		task_data = kmem_cache_zalloc(pmu->task_ctx_cache, GFP_KERNEL);
		if (!task_data) {
			kfree(fresh);
			return ERR_PTR(-ENOMEM);
		}
	}

	raw_spin_lock_irq(&ctx->lock);
	epc = perf_task_epc_get_locked(ctx, pmu);
	if (epc) {
		/* Made by someone else while we allocated. */
		raw_spin_unlock_irq(&ctx->lock);
		if (task_data)
			kmem_cache_free(pmu->task_ctx_cache, task_data);
		kfree(fresh);
		return epc;
	}
	perf_epc_init(fresh, pmu, ctx);
	atomic_set(&fresh->refcount, 1);
	fresh->task_ctx_data = task_data;
	list_add(&fresh->pmu_ctx_entry, &ctx->pmu_ctx_list);
	raw_spin_unlock_irq(&ctx->lock);
	return fresh;
}

static void perf_epc_free_rcu(struct rcu_head *head)
{
	struct perf_event_pmu_context *epc;

	epc = container_of(head, struct perf_event_pmu_context, rcu_head);
	if (epc->task_ctx_data)
		kmem_cache_free(epc->pmu->task_ctx_cache, epc->task_ctx_data);
	kfree(epc);
}

/**
 * perf_put_pmu_ctx - drop a reference on a pmu context
 * @epc: the pmu context
 *
 * The last reference unlinks it from its context; a task context's part
 * is then freed after a grace period (sched paths walk the list).
 */
void perf_put_pmu_ctx(struct perf_event_pmu_context *epc)
{
	struct perf_event_context *ctx = epc->ctx;
	unsigned long flags;

	/* Only the last reference takes the lock the finder holds. */
	if (!atomic_dec_and_raw_lock_irqsave(&epc->refcount, &ctx->lock, flags))
		return;
	WARN_ON_ONCE(!list_empty(&epc->pinned_groups) ||
		     !perf_flex_empty(&epc->flexible) ||
		     !list_empty(&epc->active_groups));
	list_del_init(&epc->pmu_ctx_entry);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);

	if (!epc->embedded)
		call_rcu(&epc->rcu_head, perf_epc_free_rcu);
}

/**
 * perf_event_ctx_lock_nested - lock the mutex of @event's context
 * @event: the event
 * @nesting: lockdep subclass
 *
 * event->ctx only changes while both the old and the new context's
 * mutexes are held (moving events between CPUs), so re-checking after
 * taking the mutex gives a stable answer.
 *
 * Return: the locked context, with a reference for the caller.
 */
struct perf_event_context *
perf_event_ctx_lock_nested(struct perf_event *event, int nesting)
{
	struct perf_event_context *ctx;
	bool pinned;

	for (;;) {
		rcu_read_lock();
		ctx = READ_ONCE(event->ctx);
		pinned = refcount_inc_not_zero(&ctx->refcount);
		rcu_read_unlock();
		if (!pinned)
			continue;	/* being freed: event->ctx is about to change */

		mutex_lock_nested(&ctx->mutex, nesting);
		if (READ_ONCE(event->ctx) == ctx)
			return ctx;
		mutex_unlock(&ctx->mutex);
		perf_put_ctx(ctx);
	}
}

/* ----------------------------------------------------------------------
 * Running a change where the context runs.
 */
struct perf_ctx_call_args {
	struct perf_event	*event;
	perf_ctx_fn		fn;
	void			*data;
};

/*
 * Run @fn for @event on this CPU, where its context is in or, for a task
 * context whose task is current, comes in now: the switch hook left it
 * out because it had no events (its first is being installed) or did
 * not exist yet.  Under this CPU's context lock and the task context's
 * (for a change of the CPU's own context, the task context in here,
 * whose groups a re-placement moves too: perf_ctx_resched()), with the
 * changed context's clock frozen.  A task context the change leaves
 * empty leaves the CPU: see perf_task_ctx_sched_in() for why.
 */
static void perf_ctx_run_here(struct perf_cpu_context *cpuctx,
			      struct perf_event *event, perf_ctx_fn fn,
			      void *data)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_event_context *task_ctx;

	task_ctx = ctx->task ? ctx : cpuctx->task_ctx;
	perf_ctx_lock(cpuctx, task_ctx);
	if (ctx->task && cpuctx->task_ctx != ctx) {
		WARN_ON_ONCE(cpuctx->task_ctx);
		perf_task_ctx_start(cpuctx, ctx);
	}
	if (ctx->is_active) {
		perf_ctx_update_time(ctx);
		ctx->is_active |= EVENT_FROZEN;
	}
	fn(event, cpuctx, ctx, data);
	ctx->is_active &= ~EVENT_FROZEN;
	if (ctx->task && !ctx->nr_events)
		perf_task_ctx_stop(cpuctx, ctx);
	perf_ctx_unlock(cpuctx, task_ctx);
}

/*
 * On the target CPU with IRQs off.  For a task context, the task must be
 * current here, else the caller retries: it moved or stopped running.
 */
static int perf_ctx_call_remote(void *info)
{
	struct perf_ctx_call_args *args = info;
	struct perf_event_context *ctx = args->event->ctx;

	if (ctx->task && ctx->task != current)
		return -EAGAIN;
	perf_ctx_run_here(this_cpu_ptr(&perf_cpu_context), args->event,
			  args->fn, args->data);
	return 0;
}

/**
 * perf_cpu_call - run a function on a CPU, directly if it is this one
 * @cpu: where @func must run
 * @func: run with interrupts off, as in an IPI
 * @info: passed to @func
 *
 * smp_call_function_single() with wait: when @cpu is this CPU it runs
 * @func right here, as the cross-call would, but without setting up and
 * locking a call descriptor: the common case of a task changing or
 * reading its own events.
 *
 * Return: 0, or the cross-call's error (-ENXIO for an offline @cpu).
 */
int perf_cpu_call(int cpu, smp_call_func_t func, void *info)
{
	unsigned long flags;
	int err = 0;

	if (cpu == get_cpu()) {
		local_irq_save(flags);
		func(info);
		local_irq_restore(flags);
	} else {
		err = smp_call_function_single(cpu, func, info, 1);
	}
	put_cpu();
	return err;
}

static void perf_ctx_call_ipi(void *info)
{
	struct perf_ctx_call_args *args = info;

	/* The result travels back in ->fn being cleared. */
	if (!perf_ctx_call_remote(info))
		args->fn = NULL;
}

/* The context is not on any CPU: change it in place, under its lock. */
static void perf_ctx_call_inactive(struct perf_ctx_call_args *args)
{
	args->fn(args->event, NULL, args->event->ctx, args->data);
}

/**
 * perf_ctx_call - run a change of @event's context where the context runs
 * @event: an event installed in a context (ctx->mutex held by the caller,
 *	or for an inherited copy its parent's child_mutex)
 * @fn: the change, see &perf_ctx_fn
 * @data: passed to @fn
 */
void perf_ctx_call(struct perf_event *event, perf_ctx_fn fn, void *data)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_ctx_call_args args;
	struct task_struct *task;

	/*
	 * What keeps event->ctx: its mutex, or for an inherited copy (which
	 * never changes context) its parent's child_mutex, under which the
	 * parent's fd applies a change to every copy (fops.c).
	 */
	if (event->parent)
		lockdep_assert(lockdep_is_held(&ctx->mutex) ||
			       lockdep_is_held(&event->parent->child_mutex));
	else
		lockdep_assert_held(&ctx->mutex);

	if (!ctx->task) {
		args = (struct perf_ctx_call_args){ event, fn, data };
		if (!perf_cpu_call(event->cpu, perf_ctx_call_ipi, &args) &&
		    !args.fn)
			return;
		/* The CPU is offline: nothing of it is on a PMU. */
		raw_spin_lock_irq(&ctx->lock);
		args.fn = fn;
		perf_ctx_call_inactive(&args);
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}

	task = READ_ONCE(ctx->task);
	for (;;) {
		if (task != TASK_TOMBSTONE && task_curr(task)) {
			args = (struct perf_ctx_call_args){ event, fn, data };
			if (!perf_cpu_call(task_cpu(task), perf_ctx_call_ipi,
					   &args) &&
			    !args.fn)
				return;
		}

		raw_spin_lock_irq(&ctx->lock);
		/*
		 * The switch hook takes this lock after the task became
		 * current, and leaves an empty context out: an active
		 * context or a current task means it runs somewhere now.
		 * That the hook runs at all and finds the context is what
		 * perf_sched_events_get() and perf_task_ctx_find() see to.
		 */
		if (task != TASK_TOMBSTONE &&
		    (ctx->is_active || task_curr(task))) {
			/* Scheduled in meanwhile: go to where it runs. */
			raw_spin_unlock_irq(&ctx->lock);
			cpu_relax();
			task = READ_ONCE(ctx->task);
			continue;
		}
		args = (struct perf_ctx_call_args){ event, fn, data };
		perf_ctx_call_inactive(&args);
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}
}

/*
 * Run @fn for @event on this CPU, from a context that cannot send IPIs
 * (irq_work): only when the event's context is here or nowhere.
 */
static void perf_ctx_call_local(struct perf_event *event, perf_ctx_fn fn,
				void *data)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx = event->ctx;
	unsigned long flags;

	local_irq_save(flags);
	if (ctx->task && cpuctx->task_ctx != ctx) {
		raw_spin_lock(&ctx->lock);
		if (!ctx->is_active)
			fn(event, NULL, ctx, data);
		raw_spin_unlock(&ctx->lock);
		local_irq_restore(flags);
		return;
	}
	if (!ctx->task && ctx != &cpuctx->ctx) {
		local_irq_restore(flags);
		return;
	}
	perf_ctx_run_here(cpuctx, event, fn, data);
	local_irq_restore(flags);
}

/* ----------------------------------------------------------------------
 * Installing and removing events.
 */

void perf_ctx_link_event(struct perf_event *event,
			 struct perf_event_context *ctx)
{
	struct perf_event *leader = event->group_leader;
	enum perf_times_mode mode;

	mode = perf_times_mode_for(leader->state, event->state);
	perf_times_attach(&event->times, perf_event_ctx_time(event), mode);

	list_add_tail(&event->event_entry, &ctx->event_list);
	ctx->nr_events++;
	ctx->generation++;
	event->pmu_ctx->nr_events++;
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		ctx->nr_user++;
	if (is_cgroup_event(event))
		ctx->nr_cgroups++;
	if (event->attr.freq)
		ctx->nr_freq++;
	event->attach_state |= PERF_ATTACH_CONTEXT;

	if (leader == event) {
		event->group_caps = event->event_caps;
		perf_add_group_to_lists(event);
		return;
	}
	list_add_tail(&event->sibling_entry, &leader->sibling_list);
	leader->nr_siblings++;
	leader->group_generation++;
	leader->group_caps &= event->event_caps;
	leader->attach_state |= PERF_ATTACH_GROUP;
	event->attach_state |= PERF_ATTACH_GROUP;
	perf_event_update_group_sizes(leader);
}

/**
 * perf_ctx_link_copy - put an inherited copy into its new context
 * @copy: the copy, event->ctx set
 * @ctx: the child task's context, its mutex held
 * @pmu: the PMU whose part of @ctx the copy joins (its group leader's)
 *
 * A fork does this for every copy: the pmu context is found and the copy
 * linked under one taking of the lock, unless the part must be allocated.
 *
 * Return: 0, or -ENOMEM with the copy in no context.
 */
int perf_ctx_link_copy(struct perf_event *copy, struct perf_event_context *ctx,
		       struct pmu *pmu)
{
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->mutex);

	raw_spin_lock_irq(&ctx->lock);
	epc = perf_task_epc_find_locked(ctx, pmu);
	if (!epc) {
		raw_spin_unlock_irq(&ctx->lock);
		epc = perf_find_get_pmu_context(pmu, ctx, copy);
		if (IS_ERR(epc))
			return PTR_ERR(epc);
		raw_spin_lock_irq(&ctx->lock);
	}
	copy->pmu_ctx = epc;
	perf_ctx_link_event(copy, ctx);
	raw_spin_unlock_irq(&ctx->lock);
	return 0;
}

void perf_ctx_unlink_event(struct perf_event *event,
			   struct perf_event_context *ctx)
{
	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;
	event->attach_state &= ~PERF_ATTACH_CONTEXT;
	perf_times_detach(&event->times, perf_event_ctx_time(event));

	ctx->nr_events--;
	ctx->generation++;
	event->pmu_ctx->nr_events--;
	if (event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT)
		ctx->nr_user--;
	if (is_cgroup_event(event))
		ctx->nr_cgroups--;
	if (event->attr.freq)
		ctx->nr_freq--;
	list_del_init(&event->event_entry);
	if (event->group_leader == event)
		perf_del_group_from_lists(event);
}

/*
 * Break @event out of its group.  A sibling leaves its leader; a leader
 * leaves its siblings behind as groups of their own, which then compete
 * for the PMU like any other group of the context.
 */
void perf_group_detach(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event *sib, *tmp;

	if (!(event->attach_state & PERF_ATTACH_GROUP))
		return;
	event->attach_state &= ~PERF_ATTACH_GROUP;

	if (leader != event) {
		list_del_init(&event->sibling_entry);
		leader->nr_siblings--;
		leader->group_generation++;
		event->group_leader = event;
		perf_event_update_group_sizes(leader);
		perf_event_update_group_sizes(event);
		return;
	}

	list_for_each_entry_safe(sib, tmp, &event->sibling_list, sibling_entry) {
		list_del_init(&sib->sibling_entry);
		sib->group_leader = sib;
		sib->attach_state &= ~PERF_ATTACH_GROUP;
		sib->group_caps = sib->event_caps;
		if ((sib->attach_state & PERF_ATTACH_CONTEXT) &&
		    (sib->event_caps & PERF_EV_CAP_SIBLING)) {
			/*
			 * It counts only beside its leader (Intel's topdown
			 * metrics): off its PMU for good, in ERROR, which
			 * enabling it again does not undo.
			 */
			perf_event_sched_out(sib, sib->ctx);
			perf_event_set_state(sib, PERF_EVENT_STATE_ERROR);
			perf_add_group_to_lists(sib);
		} else if (sib->attach_state & PERF_ATTACH_CONTEXT) {
			/* A member on the PMU stays there, as a group of one. */
			perf_event_set_state(sib, sib->state);
			perf_event_update_time(sib);
			perf_add_group_to_lists(sib);
			if (sib->state == PERF_EVENT_STATE_ACTIVE)
				list_add_tail(&sib->active_entry,
					      &sib->pmu_ctx->active_groups);
		}
		perf_event_update_group_sizes(sib);
	}
	event->nr_siblings = 0;
	event->group_generation++;
	perf_event_update_group_sizes(event);
}

/*
 * May a change to @ctx go on the PMU right here?  @cpuctx is set when the
 * change runs on the context's CPU (perf_ctx_call()).  A task context is
 * on only while its task runs, and then it is active.  A CPU context may
 * still be off on its online CPU: nothing has scheduled it since boot, or
 * since the CPU came back online.  The resched that follows puts it on,
 * so that the event installed or enabled in it counts from now, as with
 * stock.
 */
static bool perf_ctx_schedulable(struct perf_cpu_context *cpuctx,
				 struct perf_event_context *ctx)
{
	return cpuctx && (ctx->is_active || !ctx->task);
}

static void perf_install_fn(struct perf_event *event,
			    struct perf_cpu_context *cpuctx,
			    struct perf_event_context *ctx, void *data)
{
	perf_ctx_link_event(event, ctx);
	if (cpuctx && is_cgroup_event(event))
		perf_cgroup_sync_cpuctx(cpuctx);
	if (perf_ctx_schedulable(cpuctx, ctx) &&
	    event->state >= PERF_EVENT_STATE_INACTIVE &&
	    event->group_leader->state >= PERF_EVENT_STATE_INACTIVE)
		perf_ctx_resched(cpuctx, cpuctx->task_ctx, ctx,
				 event->pmu_ctx->pmu,
				 perf_group_kind(event->group_leader));
}

/**
 * perf_install_in_context - add a new event to its context
 * @ctx: the context, whose reference the event now owns; mutex held
 * @event: the event, its pmu_ctx and cpu set
 */
void perf_install_in_context(struct perf_event_context *ctx,
			     struct perf_event *event)
{
	lockdep_assert_held(&ctx->mutex);

	WRITE_ONCE(event->ctx, ctx);
	if (event->cpu != -1)
		event->oncpu = -1;
	perf_ctx_call(event, perf_install_fn, NULL);
}

static void perf_remove_fn(struct perf_event *event,
			   struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx, void *data)
{
	unsigned long flags = (unsigned long)data;
	bool leader = event->group_leader == event;
	bool promotes = leader && (flags & DETACH_GROUP) && event->nr_siblings;
	struct pmu *group_pmu = event->pmu_ctx->pmu;
	enum perf_event_state state = event->state;

	if (event->state == PERF_EVENT_STATE_ACTIVE) {
		if (leader && !promotes) {
			perf_group_sched_out(event, ctx);
		} else {
			/* Members that become groups of their own keep going. */
			perf_event_sched_out(event, ctx);
			if (leader)
				list_del_init(&event->active_entry);
		}
	}

	if (flags & DETACH_EXIT)
		state = PERF_EVENT_STATE_EXIT;
	else if (flags & DETACH_DEAD)
		state = PERF_EVENT_STATE_DEAD;
	else if (event->state > PERF_EVENT_STATE_OFF)
		state = PERF_EVENT_STATE_OFF;
	else
		state = event->state;

	if (flags & DETACH_GROUP)
		perf_group_detach(event);
	perf_ctx_unlink_event(event, ctx);
	perf_event_set_state(event, state);
	if (cpuctx && is_cgroup_event(event))
		perf_cgroup_sync_cpuctx(cpuctx);
	/* Former members that were waiting may fit now. */
	if (promotes && cpuctx && ctx->is_active)
		perf_ctx_resched(cpuctx, cpuctx->task_ctx, ctx, group_pmu,
				 EVENT_ALL);
}

/**
 * perf_remove_from_context - take an event out of its context
 * @event: the event (ctx->mutex held)
 * @flags: DETACH_*
 *
 * The event keeps its context pointer (and reference) until it is freed.
 */
void perf_remove_from_context(struct perf_event *event, unsigned long flags)
{
	struct perf_event_context *ctx = event->ctx;

	lockdep_assert_held(&ctx->mutex);

	if (!(event->attach_state & PERF_ATTACH_CONTEXT)) {
		/* Already out (its task exited); still mark it. */
		raw_spin_lock_irq(&ctx->lock);
		if (flags & DETACH_DEAD)
			perf_event_set_state(event, PERF_EVENT_STATE_DEAD);
		if (flags & DETACH_GROUP)
			perf_group_detach(event);
		raw_spin_unlock_irq(&ctx->lock);
		return;
	}
	perf_ctx_call(event, perf_remove_fn, (void *)flags);
}

/*
 * Empty the group lists of every pmu context of @ctx at once, leaving each
 * leader unqueued: taking the groups off one by one would rebalance a
 * queue that is about to be empty anyway.
 */
static void perf_ctx_forget_groups(struct perf_event_context *ctx)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *event;

	lockdep_assert_held(&ctx->lock);

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		INIT_LIST_HEAD(&epc->pinned_groups);
		INIT_LIST_HEAD(&epc->active_groups);
		perf_flex_queue_init(&epc->flexible, epc->flexible.all_fit);
	}
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		INIT_LIST_HEAD(&event->group_entry);
		INIT_LIST_HEAD(&event->active_entry);
		perf_flex_node_init(&event->flex);
	}
}

/**
 * perf_ctx_exit_events - take every event out of an exiting task's context
 * @ctx: the context of the exiting task, which is current; mutex held,
 *	the task's pointer to it cleared
 * @gone: where the events go, linked through their event_entry
 *
 * What perf_remove_from_context() does at exit, for all the events in one
 * pass under the locks and with interrupts off (the caller's): the
 * context leaves this CPU for good and becomes TASK_TOMBSTONE, and each
 * event comes off its PMU (perf_event_exit_state()) and out of the
 * context.  An inherited copy also leaves its group (it is freed next),
 * while the task's own events keep theirs for their fds to read.  The
 * caller takes each event off @gone with list_del_init() before it lets
 * go of it.
 */
void perf_ctx_exit_events(struct perf_event_context *ctx,
			  struct list_head *gone)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event *event, *tmp;

	lockdep_assert_held(&ctx->mutex);
	lockdep_assert_irqs_disabled();

	perf_ctx_lock(cpuctx, ctx);
	perf_task_ctx_stop(cpuctx, ctx);
	WRITE_ONCE(ctx->task, TASK_TOMBSTONE);
	WARN_ON_ONCE(ctx->is_active & EVENT_ALL);
	perf_ctx_forget_groups(ctx);
	list_for_each_entry_safe(event, tmp, &ctx->event_list, event_entry) {
		perf_event_exit_state(event, ctx);
		if (event->parent)
			perf_group_detach(event);
		perf_ctx_unlink_event(event, ctx);
		list_add_tail(&event->event_entry, gone);
	}
	perf_ctx_unlock(cpuctx, ctx);
}

/* ----------------------------------------------------------------------
 * Enable and disable.
 */
static void perf_enable_fn(struct perf_event *event,
			   struct perf_cpu_context *cpuctx,
			   struct perf_event_context *ctx, void *data)
{
	struct perf_event *leader = event->group_leader;

	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state < PERF_EVENT_STATE_ERROR)
		return;

	perf_event_enable_state(event);

	if (!perf_ctx_schedulable(cpuctx, ctx))
		return;
	if (leader != event && leader->state != PERF_EVENT_STATE_ACTIVE &&
	    leader->state != PERF_EVENT_STATE_INACTIVE)
		return;
	if (!perf_event_filter_match(event))
		return;
	perf_ctx_resched(cpuctx, cpuctx->task_ctx, ctx, leader->pmu_ctx->pmu,
			 perf_group_kind(leader));
}

/**
 * __perf_event_enable_locked - enable an event (ctx->mutex held)
 * @event: the event
 *
 * An event in the error state is enabled afresh, as if it had been off.
 */
void __perf_event_enable_locked(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;
	if (event->state >= PERF_EVENT_STATE_INACTIVE ||
	    event->state < PERF_EVENT_STATE_ERROR)
		return;
	/* A sibling-only event its leader left stays in ERROR. */
	if ((event->event_caps & PERF_EV_CAP_SIBLING) &&
	    event->group_leader == event)
		return;

	raw_spin_lock_irq(&ctx->lock);
	if (event->state == PERF_EVENT_STATE_ERROR)
		perf_event_set_state(event, PERF_EVENT_STATE_OFF);
	raw_spin_unlock_irq(&ctx->lock);

	perf_ctx_call(event, perf_enable_fn, NULL);
}

static void perf_disable_fn(struct perf_event *event,
			    struct perf_cpu_context *cpuctx,
			    struct perf_event_context *ctx, void *data)
{
	if (event->state < PERF_EVENT_STATE_INACTIVE)
		return;

	if (event->state == PERF_EVENT_STATE_ACTIVE) {
		if (event->group_leader == event)
			perf_group_sched_out(event, ctx);
		else
			perf_event_sched_out(event, ctx);
	}
	perf_event_set_state(event, PERF_EVENT_STATE_OFF);
	event->pending_disable = 0;
}

/**
 * __perf_event_disable_locked - disable an event (ctx->mutex held)
 * @event: the event; a leader takes its whole group off the PMU
 */
void __perf_event_disable_locked(struct perf_event *event)
{
	if (!(event->attach_state & PERF_ATTACH_CONTEXT))
		return;
	if (event->state <= PERF_EVENT_STATE_OFF)
		return;
	perf_ctx_call(event, perf_disable_fn, NULL);
}

/**
 * perf_event_disable_local - disable @event from this CPU without IPIs
 * @event: the event
 *
 * For deferred disables (irq_work after an overflow asked for it): the
 * event's context runs here, or nowhere.
 */
void perf_event_disable_local(struct perf_event *event)
{
	perf_ctx_call_local(event, perf_disable_fn, NULL);
}

/* ----------------------------------------------------------------------
 * Owners, for prctl(PR_TASK_PERF_EVENTS_ENABLE/DISABLE).
 */

/**
 * perf_event_set_owner - record the task whose fd the event is
 * @event: the event
 * @owner: the task (current at open)
 */
void perf_event_set_owner(struct perf_event *event, struct task_struct *owner)
{
	mutex_lock(&owner->perf_event_mutex);
	WRITE_ONCE(event->owner, owner);
	list_add_tail(&event->owner_entry, &owner->perf_event_list);
	mutex_unlock(&owner->perf_event_mutex);
}

/**
 * perf_event_clear_owner - forget the owner (the fd is being released)
 * @event: the event
 *
 * Races with the owner's exit, which clears the owners of everything on
 * its list; whoever gets the owner's mutex first does the unlinking.
 */
void perf_event_clear_owner(struct perf_event *event)
{
	struct task_struct *owner;

	rcu_read_lock();
	owner = READ_ONCE(event->owner);
	if (owner && owner != TASK_TOMBSTONE)
		get_task_struct(owner);
	else
		owner = NULL;
	rcu_read_unlock();
	if (!owner)
		return;

	mutex_lock(&owner->perf_event_mutex);
	if (READ_ONCE(event->owner) == owner) {
		list_del_init(&event->owner_entry);
		WRITE_ONCE(event->owner, NULL);
	}
	mutex_unlock(&owner->perf_event_mutex);
	put_task_struct(owner);
}

/* ----------------------------------------------------------------------
 * CPU hotplug and PMU migration.
 */

/**
 * perf_event_init_cpu - a CPU is coming up
 * @cpu: the CPU
 *
 * Return: 0.
 */
int perf_event_init_cpu(unsigned int cpu)
{
	struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_context, cpu);

	mutex_lock(&cpuctx->ctx.mutex);
	cpuctx->online = 1;
	mutex_unlock(&cpuctx->ctx.mutex);
	return 0;
}

static void perf_cpu_offline_ipi(void *info)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *ctx = &cpuctx->ctx;
	struct perf_event_pmu_context *epc;
	struct perf_event *leader, *tmp;

	perf_ctx_lock(cpuctx, NULL);
	/* Groups go off at the instant the clock stops. */
	perf_ctx_update_time(ctx);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		list_for_each_entry_safe(leader, tmp, &epc->active_groups,
					 active_entry)
			perf_group_sched_out(leader, ctx);
	}
	perf_tclock_stop(&ctx->clock, ctx->clock.stamp);
	ctx->is_active = 0;
	perf_ctx_unlock(cpuctx, NULL);
}

/**
 * perf_event_exit_cpu - a CPU is going down: its events stop counting
 * @cpu: the CPU
 *
 * Return: 0.
 */
int perf_event_exit_cpu(unsigned int cpu)
{
	struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_context, cpu);

	mutex_lock(&cpuctx->ctx.mutex);
	smp_call_function_single(cpu, perf_cpu_offline_ipi, NULL, 1);
	cpuctx->online = 0;
	mutex_unlock(&cpuctx->ctx.mutex);
	return 0;
}

static void perf_migrate_events(struct list_head *moving, struct pmu *pmu,
				struct perf_event_context *src,
				struct perf_event_context *dst, int dst_cpu,
				bool leaders)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *event, *tmp;

	list_for_each_entry_safe(event, tmp, moving, migrate_entry) {
		if (leaders != (event->group_leader == event))
			continue;
		list_del_init(&event->migrate_entry);
		perf_put_pmu_ctx(event->pmu_ctx);
		event->cpu = dst_cpu;
		epc = perf_find_get_pmu_context(pmu, dst, event);
		if (WARN_ON_ONCE(IS_ERR(epc)))
			continue;
		event->pmu_ctx = epc;
		if (event->state >= PERF_EVENT_STATE_OFF)
			event->state = PERF_EVENT_STATE_INACTIVE;
		perf_get_ctx(dst);
		perf_install_in_context(dst, event);
		perf_put_ctx(src);
	}
}

/**
 * perf_pmu_migrate_context - move a PMU's CPU events to another CPU
 * @pmu: the PMU (uncore-style, counting for a set of CPUs)
 * @src_cpu: the CPU going away
 * @dst_cpu: the CPU taking over
 */
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu)
{
	struct perf_event_context *src = &per_cpu_ptr(&perf_cpu_context, src_cpu)->ctx;
	struct perf_event_context *dst = &per_cpu_ptr(&perf_cpu_context, dst_cpu)->ctx;
	struct perf_event *event, *tmp;
	LIST_HEAD(moving);

	mutex_lock(&src->mutex);
	mutex_lock_nested(&dst->mutex, SINGLE_DEPTH_NESTING);

	list_for_each_entry_safe(event, tmp, &src->event_list, event_entry) {
		if (event->pmu != pmu)
			continue;
		perf_remove_from_context(event, 0);
		list_add_tail(&event->migrate_entry, &moving);
	}
	synchronize_rcu();

	/* Two passes, leaders first, so that siblings find their group. */
	perf_migrate_events(&moving, pmu, src, dst, dst_cpu, true);
	perf_migrate_events(&moving, pmu, src, dst, dst_cpu, false);

	mutex_unlock(&dst->mutex);
	mutex_unlock(&src->mutex);
}
EXPORT_SYMBOL_GPL(perf_pmu_migrate_context);

/* ----------------------------------------------------------------------
 * Subsystem init.
 */

static struct lock_class_key perf_cpu_ctx_lock_key;
static struct lock_class_key perf_cpu_ctx_mutex_key;

/**
 * perf_event_init - set perf events up, early at boot
 */
void __init perf_event_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct perf_cpu_context *cpuctx = per_cpu_ptr(&perf_cpu_context, cpu);

		perf_ctx_init(&cpuctx->ctx, NULL, cpu);
		/*
		 * A CPU context's lock is always taken before the task
		 * context's (perf_ctx_lock()): a class of its own lets lockdep
		 * check that order instead of seeing one lock taken twice.
		 */
		lockdep_set_class(&cpuctx->ctx.lock, &perf_cpu_ctx_lock_key);
		/*
		 * Its mutex too: CPU hotplug takes it under cpu_hotplug_lock
		 * (perf_event_init_cpu()), while a task context's is held
		 * where events are freed and their PMUs take their own
		 * mutexes (event_mutex for trace events, which kprobes nest
		 * above cpu_hotplug_lock).  One class would join the two into
		 * a cycle that no pair of real mutexes can close.
		 */
		lockdep_set_class(&cpuctx->ctx.mutex, &perf_cpu_ctx_mutex_key);
	}

	perf_event_slab_init();
	perf_event_init_cpu(smp_processor_id());
	perf_swevent_pmus_init();
	perf_tp_pmus_init();
	WARN(init_hw_breakpoint(), "perf: breakpoints are unavailable\n");
}
