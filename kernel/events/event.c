// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the life of one event.
 *
 * An event is born in perf_event_alloc() with one reference, owned by
 * whoever asked for it (an fd, a kernel user, or an inherited parent that
 * keeps its children on child_list).  Everything it holds on to while it
 * exists -- its PMU, its target task, callchain buffers, the scheduler
 * static key, side-band interest, a cgroup, a BPF program -- is taken
 * here and given back, in reverse, by perf_free_event().  So are the
 * address filter ranges of an instruction-trace event, which its PMU
 * picks up through perf_event_addr_filters_sync() when they change (from
 * its start callback, IRQs off, under the filters' raw spinlock).
 *
 * perf_event_release_kernel() is what happens when the owner lets go: the
 * event leaves its context (so it can no longer count), its inherited
 * children are torn down, and the owner's reference is dropped.  The last
 * put_event() frees the memory after an RCU grace period, because the
 * software and tracepoint paths find events in RCU-protected lists.
 */
#include <linux/bpf.h>
#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/tick.h>
#include <linux/timekeeping.h>
#include <linux/wait_bit.h>

#include "attr.h"
#include "internal.h"

/*
 * attach_state bits private to this file: they remember which of the
 * optional references perf_event_alloc() took, so that perf_free_event()
 * undoes exactly those, whether the event was fully set up or not, and
 * whose memory the event is in.  They sit far above the PERF_ATTACH_*
 * bits of <linux/perf_event.h>.
 */
#define EV_MEM_OF_CTX		0x08000000	/* in a context's copy slot */
#define EV_HELD_SCHED_KEY	0x10000000	/* perf_sched_events_get() */
#define EV_HELD_SIDEBAND	0x20000000	/* perf_event_sb_attach() */
#define EV_HELD_FREQ_TICK	0x40000000	/* perf_freq_tick_get() */

/* Source of event ids; the first id handed out is 1. */
static atomic64_t perf_event_id_last;

/**
 * perf_event_next_id() - a fresh event id
 *
 * Ids are never reused while the system runs; user space relies on them
 * to tell the events of a group or an inherited family apart.
 *
 * Return: the new id.
 */
u64 perf_event_next_id(void)
{
	return atomic64_inc_return(&perf_event_id_last);
}

/*
 * The clock used for PERF_SAMPLE_TIME and friends.  An unknown clock id
 * leaves the default in place: the open path has refused it already
 * (perf_attr_check_bound()), with the errno and at the point the ABI
 * wants.
 */
static perf_clock_fn ev_pick_clock(const struct perf_event_attr *attr)
{
	perf_clock_fn read = NULL;

	if (attr->use_clockid)
		read = perf_attr_clock(attr->clockid, NULL);
	return read ?: local_clock;
}

/*
 * PERF_PMU_CAP_EXCLUSIVE PMUs run one event at a time, so task events and
 * CPU events may not both exist on one.  pmu->exclusive_cnt counts the
 * task events (positive) or the CPU events (negative); whichever kind
 * arrives while the other kind exists is refused.  Clashes within one
 * context are syscall.c's business (it holds ctx->mutex there).
 */
static int ev_exclusive_claim(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;
	bool ok;

	if (!is_exclusive_pmu(pmu))
		return 0;

	if (perf_event_is_task(event))
		ok = atomic_inc_unless_negative(&pmu->exclusive_cnt);
	else
		ok = atomic_dec_unless_positive(&pmu->exclusive_cnt);
	if (!ok)
		return -EBUSY;

	event->attach_state |= PERF_ATTACH_EXCLUSIVE;
	return 0;
}

static void ev_exclusive_release(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

	if (!(event->attach_state & PERF_ATTACH_EXCLUSIVE))
		return;

	/* The task/CPU nature of an event never changes: undo the claim. */
	if (perf_event_is_task(event))
		atomic_dec(&pmu->exclusive_cnt);
	else
		atomic_inc(&pmu->exclusive_cnt);
	event->attach_state &= ~PERF_ATTACH_EXCLUSIVE;
}

/*
 * Does this event need the context switch hooks?  Task events obviously;
 * context-switch records, cgroup events (the cgroup changes with the task)
 * and branch stacks (PMUs save and restore them per task) as well.  An
 * inherited child relies on its parent, which outlives it, holding the
 * key for the whole family.
 */
static bool ev_wants_sched_hooks(struct perf_event *event)
{
	if (event->parent)
		return false;
	return perf_event_is_task(event) || event->attr.context_switch ||
	       is_cgroup_event(event) || has_branch_stack(event);
}

/*
 * A frequency event has its period adjusted by the tick of the CPU it
 * counts on (sched.c), so while one exists no nohz_full CPU may stop its
 * tick: the system-wide perf tick dependency is held from the first such
 * event to the last.  Counted under a mutex so that a set and a clear
 * cannot cross; both sides may sleep.
 */
static DEFINE_MUTEX(perf_freq_tick_mutex);
static unsigned int nr_freq_tick_events;	/* perf_freq_tick_mutex */

static void perf_freq_tick_get(void)
{
	mutex_lock(&perf_freq_tick_mutex);
	if (!nr_freq_tick_events++)
		tick_dep_set(TICK_DEP_BIT_PERF_EVENTS);
	mutex_unlock(&perf_freq_tick_mutex);
}

static void perf_freq_tick_put(void)
{
	mutex_lock(&perf_freq_tick_mutex);
	if (!--nr_freq_tick_events)
		tick_dep_clear(TICK_DEP_BIT_PERF_EVENTS);
	mutex_unlock(&perf_freq_tick_mutex);
}

/*
 * Instruction-trace PMUs keep resolved filter ranges per event.  An
 * inherited event starts from its parent's ranges, which stay valid in
 * the child until it execs.
 */
static int ev_alloc_filter_ranges(struct perf_event *event)
{
	struct perf_addr_filters_head *shared;
	unsigned int nr = event->pmu->nr_addr_filters;
	unsigned long flags;

	if (!has_addr_filter(event))
		return 0;

	event->addr_filter_ranges = kcalloc(nr, sizeof(*event->addr_filter_ranges),
					    GFP_KERNEL);
	if (!event->addr_filter_ranges)
		return -ENOMEM;

	if (event->parent) {
		shared = perf_event_addr_filters(event);
		raw_spin_lock_irqsave(&shared->lock, flags);
		memcpy(event->addr_filter_ranges,
		       event->parent->addr_filter_ranges,
		       nr * sizeof(*event->addr_filter_ranges));
		raw_spin_unlock_irqrestore(&shared->lock, flags);
	}

	/* Make the PMU program the ranges the first time it runs it. */
	event->addr_filters_gen = 1;
	return 0;
}

/*
 * Address filters parsed by PERF_EVENT_IOC_SET_FILTER hold path
 * references.  tracepoint.c's perf_event_free_filter() normally empties
 * the list; whatever is still there now is dropped so nothing leaks.
 */
static void ev_drop_addr_filters(struct perf_event *event)
{
	struct perf_addr_filter *filter, *next;
	unsigned long flags;
	LIST_HEAD(doomed);

	/* Most events have none; nothing else uses an event being freed. */
	if (list_empty(&event->addr_filters.list))
		return;
	raw_spin_lock_irqsave(&event->addr_filters.lock, flags);
	list_splice_init(&event->addr_filters.list, &doomed);
	event->addr_filters.nr_file_filters = 0;
	raw_spin_unlock_irqrestore(&event->addr_filters.lock, flags);

	list_for_each_entry_safe(filter, next, &doomed, entry) {
		list_del(&filter->entry);
		path_put(&filter->path);
		kfree(filter);
	}
}

/**
 * perf_event_addr_filters_sync() - let the PMU program new filter ranges
 * @event: an event of a PMU with address filters
 *
 * Called by the PMU (from its start) when the filters' generation moved on
 * since it last programmed them.
 */
void perf_event_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head;
	unsigned long gen;

	if (!has_addr_filter(event))
		return;

	head = perf_event_addr_filters(event);
	raw_spin_lock(&head->lock);
	gen = event->addr_filters_gen;
	/* Only a newer generation than the PMU has needs reprogramming. */
	if (gen != event->hw.addr_filters_gen) {
		event->hw.addr_filters_gen = gen;
		event->pmu->addr_filters_sync(event);
	}
	raw_spin_unlock(&head->lock);
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);

/* Inherit the parent's overflow program, if any (BPF_PROG_TYPE_PERF_EVENT). */
static void ev_inherit_prog(struct perf_event *event, struct perf_event *parent)
{
#if defined(CONFIG_BPF_SYSCALL) && defined(CONFIG_EVENT_TRACING)
	struct bpf_prog *prog = parent->prog;

	if (prog) {
		bpf_prog_inc(prog);
		event->prog = prog;
	}
#endif
}

/*
 * Events have a cache of their own: a struct perf_event is a little over
 * a kilobyte, which kmalloc would round up to two, and a fork with
 * inherited events allocates one per event and frees them all at exit.
 */
static struct kmem_cache *perf_event_slab;

/**
 * perf_event_slab_init() - create the events' cache, once at boot
 */
void __init perf_event_slab_init(void)
{
	perf_event_slab = KMEM_CACHE(perf_event, SLAB_PANIC);
}

/* Everything that must wait until RCU readers can no longer see us. */
static void ev_free_now(struct perf_event *event)
{
	/* The tracepoint path reads the filter under RCU. */
	perf_event_free_filter(event);
	kfree(event->addr_filter_ranges);
	if (event->ns)
		put_pid_ns(event->ns);
	/* A copy slot goes with its context's block. */
	if (!(event->attach_state & EV_MEM_OF_CTX))
		kmem_cache_free(perf_event_slab, event);
}

static void ev_free_rcu(struct rcu_head *head)
{
	ev_free_now(container_of(head, struct perf_event, rcu_head));
}

/*
 * An event of an exited task's context is laid to rest with it.  The
 * event holds a reference on the context until it is freed, so the
 * context's own grace period (perf_put_ctx() frees it through RCU) starts
 * after the event became unreachable, and the event's memory may wait
 * for that one instead of queueing a grace period of its own: an exit
 * frees all its inherited events at once.  An event in one of the
 * context's copy slots always waits for the context: its memory is the
 * context's.
 */
static bool ev_bury(struct perf_event *event, struct perf_event_context *ctx)
{
	if (READ_ONCE(ctx->task) != TASK_TOMBSTONE &&
	    !(event->attach_state & EV_MEM_OF_CTX))
		return false;
	llist_add(&event->grave, &ctx->graveyard);
	return true;
}

/**
 * perf_event_free_buried() - free the events a context's graveyard held
 * @first: llist_del_all() of the graveyard, from the context's RCU
 *	callback
 */
void perf_event_free_buried(struct llist_node *first)
{
	struct perf_event *event, *next;

	llist_for_each_entry_safe(event, next, first, grave)
		ev_free_now(event);
}

/* The list heads, locks and deferred work an event has from birth. */
static void ev_init_fields(struct perf_event *event)
{
	INIT_LIST_HEAD(&event->event_entry);
	INIT_LIST_HEAD(&event->group_entry);
	INIT_LIST_HEAD(&event->active_entry);
	INIT_LIST_HEAD(&event->sibling_list);
	INIT_LIST_HEAD(&event->sibling_entry);
	INIT_LIST_HEAD(&event->migrate_entry);
	INIT_LIST_HEAD(&event->child_list);
	INIT_LIST_HEAD(&event->owner_entry);
	INIT_LIST_HEAD(&event->rb_entry);
	INIT_LIST_HEAD(&event->sb_list);
	INIT_HLIST_NODE(&event->hlist_entry);
	perf_flex_node_init(&event->flex);
	/* Zero totals, counting nothing until linked into a context. */
	perf_times_init(&event->times, 0, PERF_TIMES_OFF);

	INIT_LIST_HEAD(&event->addr_filters.list);
	raw_spin_lock_init(&event->addr_filters.lock);

	mutex_init(&event->child_mutex);
	mutex_init(&event->mmap_mutex);
	init_waitqueue_head(&event->waitq);

	perf_event_pending_init(event);
}

/**
 * perf_event_alloc() - allocate and initialise an event, bind its PMU
 * @attr: validated attributes (copied into the event)
 * @cpu: the CPU, or -1 for "any CPU the task runs on"
 * @task: the task to follow, or NULL for a CPU event
 * @group_leader: leader of the group to join, or NULL to lead a new one
 * @parent: the event this one is inherited from, or NULL
 * @overflow_handler: in-kernel overflow callback, or NULL for the default
 * @context: cookie for @overflow_handler
 * @cgroup_fd: fd of a cgroup directory for PERF_FLAG_PID_CGROUP, else -1
 * @mem: zeroed memory for the event that its context owns (a copy slot),
 *	or NULL to allocate it
 *
 * The event comes back with one reference, in no context, with its
 * header sizes computed for its group as it is now.  An inherited event
 * (@parent set) takes the parent's clock, overflow handler and
 * enabled/disabled state; it does not hold callchain buffers or the
 * scheduler key, which the parent keeps for the whole family.
 *
 * Return: the event or an ERR_PTR(); -EINVAL for an impossible @cpu or a
 * sigtrap event without a task, the PMU's errno, -EBUSY for a clash on an
 * exclusive PMU, -EOVERFLOW for a too deep callchain, -ENOMEM.
 */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent,
				    perf_overflow_handler_t overflow_handler,
				    void *context, int cgroup_fd,
				    struct perf_event *mem)
{
	struct perf_event *event;
	struct pmu *pmu;
	u64 period;
	int err;

	/* cpu == -1 means "wherever the task runs": only for task events. */
	if ((unsigned int)cpu >= nr_cpu_ids && (!task || cpu != -1))
		return ERR_PTR(-EINVAL);
	/* A signal needs a task to go to. */
	if (attr->sigtrap && !task)
		return ERR_PTR(-EINVAL);

	if (mem) {
		event = mem;
		event->attach_state = EV_MEM_OF_CTX;
	} else {
		event = kmem_cache_alloc_node(perf_event_slab,
					      GFP_KERNEL | __GFP_ZERO,
					      cpu >= 0 ? cpu_to_node(cpu) :
							 NUMA_NO_NODE);
		if (!event)
			return ERR_PTR(-ENOMEM);
	}

	ev_init_fields(event);
	atomic_long_set(&event->refcount, 1);

	event->attr = *attr;
	event->cpu = cpu;
	event->oncpu = -1;
	event->group_leader = group_leader ? group_leader : event;
	event->parent = parent;
	event->ns = get_pid_ns(task_active_pid_ns(current));
	event->id = perf_event_next_id();

	if (parent) {
		/* A child starts the way its parent is now. */
		event->state = parent->state >= PERF_EVENT_STATE_INACTIVE ?
			       PERF_EVENT_STATE_INACTIVE : PERF_EVENT_STATE_OFF;
		event->event_caps = parent->event_caps;
		event->clock = parent->clock;
	} else {
		event->state = attr->disabled ? PERF_EVENT_STATE_OFF :
						PERF_EVENT_STATE_INACTIVE;
		event->clock = ev_pick_clock(attr);
	}

	if (task) {
		event->attach_state |= PERF_ATTACH_TASK;
		/* event_init() needs the target before any context exists. */
		event->hw.target = get_task_struct(task);
	}

	if (!overflow_handler && parent) {
		overflow_handler = parent->overflow_handler;
		context = parent->overflow_handler_context;
		ev_inherit_prog(event, parent);
	}
	if (overflow_handler) {
		event->overflow_handler = overflow_handler;
		event->overflow_handler_context = context;
	} else {
		event->overflow_handler = perf_default_overflow_handler(event);
		event->overflow_handler_context = NULL;
	}

	/*
	 * In frequency mode the real period is found by the tick; start
	 * with the shortest one so the first overflow comes quickly.
	 */
	period = attr->freq ? (attr->sample_freq ? 1 : 0) : attr->sample_period;
	event->hw.sample_period = period;
	event->hw.last_period = period;
	local64_set(&event->hw.period_left, period);

	/*
	 * An inherited copy has its origin's attr and kind of target, and
	 * usually its PMU: rules those passed when the origin was opened
	 * are not asked again.
	 */
	if (!parent) {
		err = perf_attr_check_alloc(&event->attr);
		if (err)
			goto fail;
	}

	err = perf_init_event(event);
	if (err)
		goto fail;
	pmu = event->pmu;

	if (!perf_event_vetted_by_origin(event)) {
		/*
		 * A PMU without task contexts (uncore and the like) counts
		 * the whole package: neither a task nor a cgroup can be
		 * singled out.
		 */
		if (pmu->task_ctx_nr == perf_invalid_context &&
		    (task || cgroup_fd != -1)) {
			err = -EINVAL;
			goto fail;
		}
		err = perf_attr_check_pmu(&event->attr, pmu->capabilities);
		if (err)
			goto fail;
	}
	if (event->attr.aux_start_paused)
		event->hw.aux_paused = 1;

	if (cgroup_fd != -1) {
		err = perf_cgroup_connect(cgroup_fd, event);
		if (err)
			goto fail;
	}

	err = ev_exclusive_claim(event);
	if (err)
		goto fail;

	err = ev_alloc_filter_ranges(event);
	if (err)
		goto fail;

	if (!parent && (event->attr.sample_type & PERF_SAMPLE_CALLCHAIN)) {
		err = get_callchain_buffers(event->attr.sample_max_stack);
		if (err)
			goto fail;
		event->attach_state |= PERF_ATTACH_CALLCHAIN;
	}

	err = security_perf_event_alloc(event);
	if (err)
		goto fail;

	perf_event_compute_sizes(event);

	/* From here on nothing fails: start receiving what we asked for. */
	if (ev_wants_sched_hooks(event)) {
		perf_sched_events_get();
		event->attach_state |= EV_HELD_SCHED_KEY;
	}
	perf_event_sb_attach(event);
	event->attach_state |= EV_HELD_SIDEBAND;
	if (event->attr.freq && tick_nohz_full_enabled()) {
		perf_freq_tick_get();
		event->attach_state |= EV_HELD_FREQ_TICK;
	}

	return event;

fail:
	perf_free_event(event);
	return ERR_PTR(err);
}

/**
 * perf_free_event() - give back everything an event holds and free it
 * @event: an event that is in no context and that nobody else can reach
 *	any more (a failed open, or the last reference just went)
 *
 * Undoes perf_event_alloc(), also a partial one, and drops the context
 * and pmu context references the event took when it was installed.  The
 * memory goes after an RCU grace period (the context's, for an event of
 * an exited task).  May sleep.
 */
void perf_free_event(struct perf_event *event)
{
	struct perf_event *aux = event->aux_event;
	struct perf_event_context *ctx;
	bool buried;

	/* No irq_work or task_work may run on a freed event. */
	perf_event_pending_sync(event);

	if (event->attach_state & EV_HELD_SIDEBAND)
		perf_event_sb_detach(event);
	if (event->attach_state & EV_HELD_SCHED_KEY)
		perf_sched_events_put();
	if (event->attach_state & EV_HELD_FREQ_TICK)
		perf_freq_tick_put();
	event->attach_state &= ~(EV_HELD_SIDEBAND | EV_HELD_SCHED_KEY |
				 EV_HELD_FREQ_TICK);

	security_perf_event_free(event);

	/* Possible for an event whose output was redirected to another's. */
	if (READ_ONCE(event->rb))
		perf_event_detach_buffer(event);

	perf_event_free_bpf_prog(event);
	ev_drop_addr_filters(event);

	if (event->attach_state & PERF_ATTACH_CALLCHAIN) {
		put_callchain_buffers();
		event->attach_state &= ~PERF_ATTACH_CALLCHAIN;
	}

	if (event->pmu)
		ev_exclusive_release(event);

	if (is_cgroup_event(event))
		perf_detach_cgroup(event);

	/* The PMU's destroy() may still look at hw.target (uprobes do). */
	if (event->pmu)
		perf_release_pmu(event);

	if (event->hw.target) {
		put_task_struct(event->hw.target);
		event->hw.target = NULL;
	}

	/*
	 * An aux_output event pins its AUX leader.  Group teardown normally
	 * breaks the link; if it is still there, drop it now.
	 */
	if (aux && aux != event) {
		event->aux_event = NULL;
		put_event(aux);
	}

	/* The pmu context refers to the context: put it first. */
	if (event->pmu_ctx) {
		WARN_ON_ONCE(!event->ctx || event->pmu_ctx->ctx != event->ctx);
		perf_put_pmu_ctx(event->pmu_ctx);
		event->pmu_ctx = NULL;
	}
	ctx = event->ctx;
	event->ctx = NULL;
	if (ctx) {
		buried = ev_bury(event, ctx);
		perf_put_ctx(ctx);
		if (buried)
			return;
	}

	/*
	 * A copy that failed before it had a context: nothing can reach it
	 * through one, and its slot stays with the block.
	 */
	if (event->attach_state & EV_MEM_OF_CTX) {
		ev_free_now(event);
		return;
	}
	call_rcu(&event->rcu_head, ev_free_rcu);
}

/**
 * put_event() - drop a reference to an event
 * @event: the event
 *
 * The last reference frees it: an inherited child first leaves its
 * parent's child_list (taking parent->child_mutex, so the caller must not
 * hold it) and then lets go of the reference it had on the parent.  The
 * child_list link must only ever be removed with list_del_init().
 * May sleep.
 */
void put_event(struct perf_event *event)
{
	struct perf_event *parent;

	if (!atomic_long_dec_and_test(&event->refcount))
		return;

	/*
	 * Whoever took the child off the list (its exit, the parent's
	 * release) did so before dropping the reference that made ours the
	 * last, and nothing puts it back: an empty link needs no lock.
	 */
	parent = event->parent;
	if (parent && !list_empty(&event->child_list)) {
		mutex_lock(&parent->child_mutex);
		list_del_init(&event->child_list);
		mutex_unlock(&parent->child_mutex);
	}

	perf_free_event(event);

	/* The reference inheritance took on the parent. */
	if (parent)
		put_event(parent);
}

/*
 * Take the first inherited child of @event out of its context and off
 * @event's child_list.  Return: the child, whose list reference the
 * caller now owns; NULL when there are no children left; or
 * ERR_PTR(-EAGAIN) when the list changed under us and the caller should
 * look again.
 *
 * child_mutex nests inside ctx->mutex, so with child_mutex held we can
 * only pin the child's context, then drop child_mutex, lock the context
 * and retake child_mutex, and see whether the child is still first.
 * A child's context does not change while it is on the list.
 */
static struct perf_event *ev_reap_first_child(struct perf_event *event)
{
	struct perf_event_context *cctx;
	struct perf_event *child, *first;

	mutex_lock(&event->child_mutex);
	child = list_first_entry_or_null(&event->child_list,
					 struct perf_event, child_list);
	if (!child) {
		mutex_unlock(&event->child_mutex);
		return NULL;
	}
	cctx = READ_ONCE(child->ctx);
	perf_get_ctx(cctx);
	mutex_unlock(&event->child_mutex);

	mutex_lock(&cctx->mutex);
	mutex_lock(&event->child_mutex);
	first = list_first_entry_or_null(&event->child_list,
					 struct perf_event, child_list);
	if (first == child) {
		perf_remove_from_context(child, DETACH_GROUP | DETACH_DEAD);
		list_del_init(&child->child_list);
	}
	mutex_unlock(&event->child_mutex);
	mutex_unlock(&cctx->mutex);
	perf_put_ctx(cctx);

	/*
	 * Someone freeing the child's task (perf_event_free_task()) may be
	 * waiting for the context's references to go; let it look again.
	 */
	smp_mb();
	wake_up_var(&cctx->refcount);

	return first == child ? child : ERR_PTR(-EAGAIN);
}

/**
 * perf_event_release_kernel() - the owner of an event lets go of it
 * @event: an event returned by perf_event_create_kernel_counter(), or the
 *	event of an fd being closed
 *
 * The event is taken out of its context and marked dead, so it counts no
 * more and no further children can be inherited from it; its children
 * are removed from their tasks; then the owner's reference is dropped.
 * The memory stays until the last reference (a pending wakeup, a ring
 * buffer user, an aux_output link) is gone.
 *
 * Return: 0.
 */
int perf_event_release_kernel(struct perf_event *event)
{
	struct perf_event_context *ctx;
	struct perf_event *child;

	/* Never installed: only an error path can get here with this. */
	if (!event->ctx) {
		WARN_ON_ONCE(event->attach_state &
			     (PERF_ATTACH_CONTEXT | PERF_ATTACH_GROUP));
		goto out;
	}

	/* Kernel counters have no owner; an exiting owner may beat us. */
	if (READ_ONCE(event->owner))
		perf_event_clear_owner(event);

	ctx = perf_event_ctx_lock(event);
	/*
	 * Once DEAD is visible under child_mutex (taken by inheritance), no
	 * new child can appear, so the loop below sees every one of them.
	 */
	perf_remove_from_context(event, DETACH_GROUP | DETACH_DEAD);
	perf_event_ctx_unlock(event, ctx);

	for (;;) {
		child = ev_reap_first_child(event);
		if (!child)
			break;
		if (IS_ERR(child))
			continue;
		/* Normally the last reference; this also puts ours on @event. */
		put_event(child);
	}

out:
	put_event(event);
	return 0;
}
EXPORT_SYMBOL_GPL(perf_event_release_kernel);
