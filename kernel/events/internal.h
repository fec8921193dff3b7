/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: what the files of kernel/events share and nobody else sees.
 *
 * Where things live (one concern per file):
 *
 *   syscall.c	  perf_event_open(2) and kernel counters: attr, permission,
 *		  target, group, fd
 *   event.c	  an event's allocation, identity, references and freeing;
 *		  its address filter ranges
 *   pmu.c	  the PMU registry, event -> PMU binding, sysfs bus
 *   context.c	  task and CPU contexts; putting events in and taking them
 *		  out (on the context's CPU); enable/disable; CPU hotplug;
 *		  subsystem init; the lock page
 *   task.c	  a task's events through fork (inheritance), exec, exit
 *   clone.c	  cloned task contexts, traded between tasks at a switch
 *   sched.c	  scheduling groups on and off PMUs: context switch, pinned
 *		  and flexible, parking, multiplexing, the tick's walk of
 *		  the active groups
 *   read.c	  reading counts and times, on the event's CPU or off it
 *   fops.c	  the event fd: read, ioctl, poll, fasync, release; prctl;
 *		  the in-kernel read/enable/period API
 *   ring_buffer.c  buffers, mmap, the user page, output begin/end
 *   aux.c	  the AUX area: its pages, mappings and the PMU's handle
 *   sample.c	  record sizes, the sample_id trailer, preparing and
 *		  writing samples
 *   overflow.c	  the overflow path: throttling and unthrottling (with
 *		  the nohz_full tick dependency), frequency, sample-rate
 *		  limits, deferred (irq_work, task_work) wakeups and signals
 *   sideband.c	  side-band records, one table row per kind: who wants
 *		  it, its size, its writer; the registry and delivery
 *   swevent.c	  the software PMU, cpu-clock and task-clock
 *   tracepoint.c tracepoint, kprobe and uprobe PMUs, filters, BPF attach
 *   cgroup.c	  the perf_event cgroup controller and cgroup time
 *   callchain.c  call chain buffers; hw_breakpoint.c the breakpoint PMU
 *   guest.c	  a hypervisor's callbacks: the guest running on this CPU
 *   share.c	  identical counting events on one counter: the rule, the
 *		  rider table CPU PMU drivers keep, the sysctl
 *
 * and, taking no locks and reading no clocks, each with its own header
 * and a KUnit suite in <name>_test.c: attr.c (attr validation), times.c
 * (context clocks, enabled/running), flex_queue.c (the fair queue of
 * flexible groups), layout.c (record layouts), freq.c (frequency and
 * rate arithmetic), rb_math.c (buffer positions); abi_check.c holds the
 * ABI's layout asserts.
 *
 * Locks: context.c's header is the one list of every lock here, what
 * each protects (field by field for contexts and events) and the order
 * they nest in; the core of it:
 *
 *   ctx->mutex (a child event's context may nest inside its parent's)
 *     event->child_mutex (a parent's list of inherited children)
 *       event->mmap_mutex
 *         cpuctx->ctx.lock (raw, IRQs off)
 *           task ctx->lock (raw)
 *
 * A context's scheduling state changes only on the CPU that runs it, with
 * its lock held and IRQs off; code elsewhere asks that CPU by IPI
 * (perf_ctx_call()).
 */
#ifndef _KERNEL_EVENTS_INTERNAL_H
#define _KERNEL_EVENTS_INTERNAL_H

#include <linux/perf_event.h>
#include <linux/hardirq.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>
#include <linux/refcount.h>

#include "flex_queue.h"
#include "times.h"

/* ctx->is_active and the @type of sched in/out */
#define EVENT_FLEXIBLE	0x01
#define EVENT_PINNED	0x02
#define EVENT_TIME	0x04	/* the context clock runs */
#define EVENT_FROZEN	0x10	/* one operation in progress: the clock holds */
/* sched out for a task switch: groups that follow their context stay on */
#define EVENT_PARK	0x20
#define EVENT_ALL	(EVENT_FLEXIBLE | EVENT_PINNED)

/* ctx->task of a task context whose task has exited. */
#define TASK_TOMBSTONE		((struct task_struct *)-1L)

/* hw.interrupts once an event is throttled. */
#define MAX_INTERRUPTS		(~0ULL)

/* Flags of perf_event_open(2) that are accepted. */
#define PERF_FLAG_ALL	(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT | \
			 PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)

DECLARE_PER_CPU(struct perf_cpu_context, perf_cpu_context);

/* ======================================================================
 * event.c
 */

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
 * @mem: zeroed memory for the event that its context owns (a copy slot,
 *	perf_ctx_copy_slot()), or NULL to allocate it
 *
 * Runs pmu.c's perf_init_event(), sets the header sizes, takes the
 * references the event needs (task, PMU module, callchain buffers, static
 * keys) and registers side-band interest.  The event is not in any
 * context yet; undo with perf_free_event().
 *
 * Return: the event or an ERR_PTR().
 */
struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent,
				    perf_overflow_handler_t overflow_handler,
				    void *context, int cgroup_fd,
				    struct perf_event *mem);

/*
 * Has @event, bound to its PMU, been vetted already?  An inherited copy
 * that its origin's PMU took: it has the origin's attr and kind of
 * target, which passed every rule between them and that PMU when the
 * origin was opened (and its event_caps are the origin's).
 */
static inline bool perf_event_vetted_by_origin(const struct perf_event *event)
{
	return event->parent && event->pmu == event->parent->pmu;
}

/* Free an event that is in no context (an error path, or after removal). */
void perf_free_event(struct perf_event *event);
/* Free the events an exited task's context kept (its RCU callback). */
void perf_event_free_buried(struct llist_node *first);

/* Drop a reference; the last one removes the event and frees it. */
void put_event(struct perf_event *event);

/* Take a reference unless the event is already on its way out. */
static inline bool perf_event_tryget(struct perf_event *event)
{
	return atomic_long_inc_not_zero(&event->refcount);
}

/* The event a child event reports to: its parent, else itself. */
static inline struct perf_event *perf_event_primary(struct perf_event *event)
{
	return event->parent ? event->parent : event;
}

/* Unique, never reused event id (PERF_FORMAT_ID, PERF_EVENT_IOC_ID). */
u64 perf_event_next_id(void);

/* ======================================================================
 * pmu.c
 */
extern struct srcu_struct pmus_srcu;

/*
 * perf_init_event() - find the PMU for @event->attr and let it claim the
 * event (pmu::event_init); sets @event->pmu and takes a module reference.
 * Return: 0, or the errno to give perf_event_open() (-ENOENT when no PMU
 * knows attr.type).
 */
int perf_init_event(struct perf_event *event);

/* Undo perf_init_event(): the destroy callback and the module reference. */
void perf_release_pmu(struct perf_event *event);

const struct cpumask *perf_pmu_scope_span(unsigned int scope, int cpu);

/* ======================================================================
 * context.c
 */

/**
 * perf_find_lock_context() - the context an event for (@task, @cpu) joins
 * @task: the task, or NULL for the CPU context of @cpu
 * @cpu: the CPU (for @task == NULL), ignored otherwise
 *
 * Creates the task's context on first use, and claims it for the task
 * (clone.c) so that it stays the task's while the caller fills it.
 * Return: the context with a reference and its mutex held, or an ERR_PTR
 * (-ESRCH for a task that has exited, -ENODEV for an offline CPU).
 */
struct perf_event_context *perf_find_lock_context(struct task_struct *task,
						  int cpu);
void perf_get_ctx(struct perf_event_context *ctx);
void perf_put_ctx(struct perf_event_context *ctx);

/*
 * What task.c needs of context.c to build and tear down a task's
 * context at fork and exit: a new (empty, unreferenced by any task)
 * context, @task's context with a reference (or NULL), and the list
 * bookkeeping of one event, under the context's mutex and lock.
 */
struct perf_event_context *perf_ctx_alloc(struct task_struct *task,
					  unsigned int copies);
struct perf_event *perf_ctx_copy_slot(struct perf_event_context *ctx);
struct perf_event_context *perf_task_ctx_get(struct task_struct *task);
void perf_ctx_link_event(struct perf_event *event,
			 struct perf_event_context *ctx);
void perf_ctx_unlink_event(struct perf_event *event,
			   struct perf_event_context *ctx);
void perf_group_detach(struct perf_event *event);

/*
 * The per-PMU part of @ctx for @event's PMU, created on first use, with a
 * reference for the event.  Called with ctx->mutex held.
 */
struct perf_event_pmu_context *
perf_find_get_pmu_context(struct pmu *pmu, struct perf_event_context *ctx,
			  struct perf_event *event);
void perf_put_pmu_ctx(struct perf_event_pmu_context *epc);

/*
 * Lock @event's context mutex; the context pointer is stable for the
 * caller until perf_event_ctx_unlock().  Returns the context.
 */
struct perf_event_context *
perf_event_ctx_lock_nested(struct perf_event *event, int nesting);

static inline struct perf_event_context *
perf_event_ctx_lock(struct perf_event *event)
{
	return perf_event_ctx_lock_nested(event, 0);
}

static inline void perf_event_ctx_unlock(struct perf_event *event,
					 struct perf_event_context *ctx)
{
	mutex_unlock(&ctx->mutex);
	perf_put_ctx(ctx);
}

/*
 * The function run by perf_ctx_call(): on the context's CPU, IRQs off,
 * cpuctx->ctx.lock and (for a task context) ctx->lock held.  @cpuctx is
 * NULL when the context is not scheduled in anywhere (a sleeping task):
 * then only ctx->lock is held and nothing is on a PMU.
 */
typedef void (*perf_ctx_fn)(struct perf_event *event,
			    struct perf_cpu_context *cpuctx,
			    struct perf_event_context *ctx, void *data);

/* Run @fn for @event where its context runs (see perf_ctx_fn). */
void perf_ctx_call(struct perf_event *event, perf_ctx_fn fn, void *data);

/* Add a newly allocated event (and its group links) to @ctx; ctx->mutex held. */
void perf_install_in_context(struct perf_event_context *ctx,
			     struct perf_event *event);

/* perf_remove_from_context() flags */
#define DETACH_GROUP	0x01	/* break the event's group up */
#define DETACH_DEAD	0x04	/* mark PERF_EVENT_STATE_DEAD */
#define DETACH_EXIT	0x08	/* mark PERF_EVENT_STATE_EXIT */

void perf_epc_init(struct perf_event_pmu_context *epc, struct pmu *pmu,
		   struct perf_event_context *ctx);

/*
 * Do @pmu's groups never wait for room?  The PMUs of the software context
 * that are not exclusive (the core's own: software events, the clocks,
 * tracepoints, probes, breakpoints; and a few drivers', x86's msr one)
 * take every group; the exclusive ones (AUX and trace PMUs use that
 * context too) run one event at a time.  The flexible queues of the
 * former are plain lists (flex_queue.c).
 */
static inline bool perf_pmu_groups_all_fit(const struct pmu *pmu)
{
	return pmu->task_ctx_nr == perf_sw_context &&
	       !(pmu->capabilities & PERF_PMU_CAP_EXCLUSIVE);
}

/* An inherited copy into the child's context, at fork (task.c). */
int perf_ctx_link_copy(struct perf_event *copy, struct perf_event_context *ctx,
		       struct pmu *pmu);

void perf_remove_from_context(struct perf_event *event, unsigned long flags);
void perf_ctx_exit_events(struct perf_event_context *ctx,
			  struct list_head *gone);

/* With ctx->mutex held (the perf_event_enable() family lock it). */
void __perf_event_enable_locked(struct perf_event *event);
void __perf_event_disable_locked(struct perf_event *event);

/* Owner bookkeeping for prctl(PR_TASK_PERF_EVENTS_*). */
void perf_event_set_owner(struct perf_event *event, struct task_struct *owner);
void perf_event_clear_owner(struct perf_event *event);

/* Number of task events in existence: drives perf_sched_events. */
void perf_sched_events_get(void);
void perf_sched_events_put(void);

/* ======================================================================
 * sched.c
 */

/*
 * Context lock helpers for a CPU: take the CPU context lock and the task
 * context's (if any), in that order.
 */
void perf_ctx_lock(struct perf_cpu_context *cpuctx,
		   struct perf_event_context *ctx);
void perf_ctx_unlock(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx);

/* Run @func on @cpu, directly when that is this CPU (context.c). */
int perf_cpu_call(int cpu, smp_call_func_t func, void *info);

/* event.c: the cache events are allocated from (perf_event_init()). */
void perf_event_slab_init(void);

/* clone.c: cloned task contexts and trading them at a switch. */
bool perf_task_ctx_claim(struct perf_event_context *ctx,
			 struct task_struct *task);
void perf_ctx_mark_clone(struct perf_event_context *child,
			 struct perf_event_context *parent);
/* The pure part of the two above, for clone_test.c. */
struct perf_event_context *
perf_ctx_clone_origin(struct perf_event_context *parent, u64 *gen);
bool perf_ctx_interchangeable(const struct perf_event_context *a,
			      const struct perf_event_context *b);
bool __perf_task_ctx_trade(struct task_struct *prev,
			   struct perf_event_context *ctx,
			   struct task_struct *next,
			   struct perf_event_context *next_ctx);

/*
 * perf_task_ctx_trade - hand @ctx to @next instead of switching it out
 *
 * The unlocked first look is inline, for every task switch to make:
 * only a context that is a clone, or has one, can be traded.
 * __perf_task_ctx_trade() (clone.c) takes the locks and decides.
 */
static inline bool perf_task_ctx_trade(struct task_struct *prev,
				       struct perf_event_context *ctx,
				       struct task_struct *next)
{
	struct perf_event_context *next_ctx;

	next_ctx = rcu_dereference_raw(next->perf_event_ctxp);
	if (!next_ctx || next_ctx == ctx ||
	    (!READ_ONCE(ctx->clone_of) && !READ_ONCE(next_ctx->clone_of)))
		return false;
	return __perf_task_ctx_trade(prev, ctx, next, next_ctx);
}

/* Fold the time up to now into @event's totals (ctx->lock held). */
void perf_event_update_time(struct perf_event *event);
/* Update the context clock (ctx->lock held). */
void perf_ctx_update_time(struct perf_event_context *ctx);

/*
 * Change @event's state and its time mode, folding elapsed time first
 * (ctx->lock held).  Siblings of a leader follow via their own calls.
 */
void perf_event_set_state(struct perf_event *event,
			  enum perf_event_state state);
/* Off or errored to INACTIVE; a flexible group re-enters at the floor. */
void perf_event_enable_state(struct perf_event *event);

/*
 * Re-evaluate this CPU's contexts after the set of enabled groups of
 * @changed on @pmu (NULL: any PMU) changed: schedule out what must make
 * room and schedule in what can run (on the context's CPU, locks held as
 * for perf_ctx_fn).
 */
void perf_ctx_resched(struct perf_cpu_context *cpuctx,
		      struct perf_event_context *task_ctx,
		      struct perf_event_context *changed, struct pmu *pmu,
		      int event_type);

/* EVENT_PINNED or EVENT_FLEXIBLE: which pass schedules @leader's group. */
static inline int perf_group_kind(struct perf_event *leader)
{
	return leader->attr.pinned ? EVENT_PINNED : EVENT_FLEXIBLE;
}

/*
 * May @leader's group stay on its PMU while its task is switched out
 * (sched.c's parking: groups that count through their context alone)?
 */
static inline bool perf_group_parks(struct perf_event *leader)
{
	return (leader->group_caps & PERF_EV_CAP_FOLLOWS_CTX) &&
	       leader->cpu == -1;
}

/*
 * ACTIVE without a CPU: its task is out and its group gave the PMU back
 * at the switch, to have it again when the task returns (sched.c,
 * perf_group_parks_off()).  Its count is folded and it holds no counter:
 * nothing may start, stop or read it on a PMU.
 */
static inline bool perf_event_parked_off(struct perf_event *event)
{
	return event->state == PERF_EVENT_STATE_ACTIVE && event->oncpu < 0;
}

/* Take @event (a group leader or member) off the PMU if it is on it. */
void perf_event_sched_out(struct perf_event *event,
			  struct perf_event_context *ctx);
void perf_group_sched_out(struct perf_event *leader,
			  struct perf_event_context *ctx);

/* Add/remove a group leader to/from its pmu context's pinned or flexible set. */
void perf_add_group_to_lists(struct perf_event *leader);
void perf_del_group_from_lists(struct perf_event *leader);

/*
 * Bring @event->count up to date: if it is active, read the hardware on
 * its CPU (IPI); with @group, the whole group in one go.  Then
 * perf_event_read_times() gives enabled/running as of now.
 */
void perf_event_read(struct perf_event *event, bool group);
void perf_event_read_times(struct perf_event *event, u64 *enabled,
			   u64 *running);

/* Count including what exited children folded in. */
static inline u64 perf_event_count(struct perf_event *event)
{
	return local64_read(&event->count) + atomic64_read(&event->child_count);
}

/* Sched a whole task context out / in on this CPU (exec, exit, enable). */
void perf_task_ctx_sched_out(struct perf_event_context *ctx, int event_type);
void perf_task_ctx_sched_in(struct perf_event_context *ctx);

/*
 * A task context in or out of this CPU, under both context locks: in for
 * the install of its first event while its task runs here; out for an
 * exit (then each event goes off its PMU straight into EXIT, context.c's
 * exit pass) or when its last event left.
 */
void perf_task_ctx_start(struct perf_cpu_context *cpuctx,
			 struct perf_event_context *ctx);
void perf_task_ctx_stop(struct perf_cpu_context *cpuctx,
			struct perf_event_context *ctx);
void perf_event_exit_state(struct perf_event *event,
			   struct perf_event_context *ctx);

/* Multiplexing: interval per PMU and CPU, and its sysfs knob. */
void perf_mux_init_cpu(struct pmu *pmu, int cpu);
void perf_mux_set_interval(struct pmu *pmu, int interval_ms);

/* ======================================================================
 * fops.c
 */
extern const struct file_operations perf_fops;

/* The event behind an fd if it is a perf event fd, with the file held. */
int perf_fget_event(int fd, struct fd *f, struct perf_event **event);

static inline bool is_perf_file(struct file *file)
{
	return file->f_op == &perf_fops;
}

/* ======================================================================
 * ring_buffer.c
 */

/* mmap of an event fd (data and AUX areas). */
int perf_mmap(struct file *file, struct vm_area_struct *vma);

/* PERF_EVENT_IOC_SET_OUTPUT: send @event's records to @output's buffer. */
int perf_event_set_output(struct perf_event *event, struct perf_event *output);

/* PERF_EVENT_IOC_PAUSE_OUTPUT */
void perf_event_pause_output(struct perf_event *event, bool pause);

/* poll(): EPOLLIN/EPOLLHUP state of the event's buffer (0 if none). */
__poll_t perf_event_poll_buffer(struct perf_event *event);

/* Detach the buffer when the event goes away. */
void perf_event_detach_buffer(struct perf_event *event);

/* Wake readers of @event's buffer and the event itself (not from NMI). */
void perf_event_wakeup(struct perf_event *event);

/* ======================================================================
 * sample.c
 */

/* Header sizes of records from @event (attr.sample_type, read_format). */
void perf_event_compute_sizes(struct perf_event *event);
/* Read and sample sizes of a group change as members come and go. */
void perf_event_update_group_sizes(struct perf_event *leader);

/* The sample writer an event gets when its creator names no handler. */
perf_overflow_handler_t perf_default_overflow_handler(struct perf_event *event);

/* The read_format payload, for samples and PERF_RECORD_READ alike. */
void perf_output_read(struct perf_output_handle *handle,
		      struct perf_event *event);

/* ring_buffer.c, for sample.c: the sample writer counts its samples. */
void perf_output_count_sample(struct perf_output_handle *handle);
/* aux.c, for sample.c: PERF_SAMPLE_AUX. */
unsigned long perf_aux_sample_size(struct perf_event *event,
				   unsigned long size);
void perf_aux_sample_output(struct perf_event *event,
			    struct perf_output_handle *handle,
			    unsigned long size);

/* ======================================================================
 * overflow.c
 */

/* Set up the event's irq_work and task_work for deferred actions. */
void perf_event_pending_init(struct perf_event *event);
/* Cancel them before the event is freed (may sleep). */
void perf_event_pending_sync(struct perf_event *event);

/* The full overflow path; @throttle: whether the event may be throttled. */
int __perf_event_overflow(struct perf_event *event, int throttle,
			  struct perf_sample_data *data, struct pt_regs *regs);

/*
 * Throttling: let a throttled event count again (context locked, on its
 * CPU; @start restarts it on the PMU).  The tick first claims this CPU's
 * pending unthrottle, which says whether it must offer every active event
 * to perf_tick_event() or only frequency ones.
 */
void perf_event_unthrottle(struct perf_event *event, bool start);
bool perf_tick_claim_throttled(void);
void perf_tick_event(struct perf_event *event, u64 now);

/* aux.c, for overflow.c: pause or resume an AUX event. */
void perf_event_aux_pause(struct perf_event *aux_event, bool pause);

/* tracepoint.c, for overflow.c: run a perf_event BPF program; false drops. */
bool perf_event_run_bpf(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs);

/* ======================================================================
 * sideband.c
 */

/*
 * The side-band record kinds, one row each in sideband.c's perf_sb_defs[].
 * Announced kinds go to every event whose attr asks for them; addressed
 * kinds to the one event the kernel names.
 */
enum perf_sb_kind {
	PERF_SB_MMAP,		/* MMAP, or MMAP2 for attr.mmap2 */
	PERF_SB_MMAP_BUILD_ID,	/* MMAP2 carrying a build id */
	PERF_SB_COMM,
	PERF_SB_FORK,
	PERF_SB_EXIT,
	PERF_SB_NAMESPACES,
	PERF_SB_CGROUP,
	PERF_SB_SWITCH,		/* SWITCH, or SWITCH_CPU_WIDE */
	PERF_SB_KSYMBOL,
	PERF_SB_BPF_EVENT,
	PERF_SB_TEXT_POKE,
	PERF_SB_NR_ANNOUNCED,

	PERF_SB_LOST_SAMPLES = PERF_SB_NR_ANNOUNCED,
	PERF_SB_THROTTLE,
	PERF_SB_UNTHROTTLE,
	PERF_SB_READ,
	PERF_SB_ITRACE_START,
	PERF_SB_AUX,
	PERF_SB_AUX_OUTPUT_HW_ID,
	PERF_SB_NR
};

/* How many events want each announced kind. */
extern atomic_t perf_sb_nr[PERF_SB_NR_ANNOUNCED];

/* Does any event want records of @kind?  Lets a hook skip its work. */
static inline bool perf_sb_wanted(enum perf_sb_kind kind)
{
	return atomic_read(&perf_sb_nr[kind]);
}

/* Interest in announced records is registered at alloc, dropped at free. */
void perf_event_sb_attach(struct perf_event *event);
void perf_event_sb_detach(struct perf_event *event);

/* PERF_RECORD_SWITCH(_CPU_WIDE) at a context switch. */
void perf_event_switch_output(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in);

/* PERF_RECORD_EXIT for @task (called from context.c on exit). */
void perf_event_task_exit_output(struct task_struct *task);

/* PERF_RECORD_READ for an inherited event whose task exits. */
void perf_event_read_event(struct perf_event *event, struct task_struct *task);

/* PERF_RECORD_THROTTLE / UNTHROTTLE */
void perf_log_throttle(struct perf_event *event, int enable);

/* PERF_RECORD_CGROUP for a cgroup that came online. */
void perf_event_cgroup(struct cgroup *cgrp);
/* PERF_RECORD_AUX, for aux.c when a PMU commits AUX data. */
void perf_log_aux(struct perf_event *event, u64 offset, u64 size, u64 flags);

/* PERF_RECORD_ITRACE_START, before an AUX event goes on its PMU. */
void perf_log_itrace_start_record(struct perf_event *event);

/* Only a trace PMU's events log it: asked inline at every sched in. */
static inline void perf_log_itrace_start(struct perf_event *event)
{
	if (perf_event_primary(event)->pmu->capabilities & PERF_PMU_CAP_ITRACE)
		perf_log_itrace_start_record(event);
}

/* ======================================================================
 * swevent.c, tracepoint.c, cgroup.c, hw_breakpoint.c
 */
/* Count @nr for a software-style event and sample on overflow. */
void perf_swevent_count(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs);
void perf_swevent_pmus_init(void);
void perf_tp_pmus_init(void);
/* start, stop and read of every PMU whose events count in line */
void perf_inline_pmu_start(struct perf_event *event, int flags);
void perf_inline_pmu_stop(struct perf_event *event, int flags);
void perf_inline_pmu_read(struct perf_event *event);

/* PERF_EVENT_IOC_SET_FILTER */
int perf_event_set_filter(struct perf_event *event, void __user *arg);
void perf_event_free_filter(struct perf_event *event);
/* PERF_EVENT_IOC_SET_BPF and bpf links */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie);
void perf_event_free_bpf_prog(struct perf_event *event);

#ifdef CONFIG_CGROUP_PERF
int perf_cgroup_connect(int fd, struct perf_event *event);
void perf_detach_cgroup(struct perf_event *event);
/* Does @event's cgroup contain current (cgroup events only)? */
bool perf_cgroup_match(struct perf_event *event);
/* The clock of @event's cgroup on @event's CPU. */
struct perf_tclock *perf_cgroup_event_clock(struct perf_event *event);
void perf_cgroup_update_time(struct perf_cpu_context *cpuctx);
/* Bring cpuctx->cgrp in line after the CPU context's nr_cgroups changed. */
void perf_cgroup_sync_cpuctx(struct perf_cpu_context *cpuctx);
/* sched.c, for a cgroup switch: this CPU's cgroup groups off / on again. */
void perf_cpu_ctx_sched_out_cgroup(struct perf_cpu_context *cpuctx);
void perf_cpu_ctx_sched_in_cgroup(struct perf_cpu_context *cpuctx);
/* Called by sched.c on a switch between tasks of different cgroups. */
void perf_cgroup_switch(struct task_struct *next);
static inline bool is_cgroup_event(struct perf_event *event)
{
	return event->cgrp != NULL;
}
#else
static inline int perf_cgroup_connect(int fd, struct perf_event *event)
{
	return -EINVAL;
}
static inline void perf_detach_cgroup(struct perf_event *event) { }
static inline bool perf_cgroup_match(struct perf_event *event) { return true; }
static inline struct perf_tclock *
perf_cgroup_event_clock(struct perf_event *event)
{
	return NULL;
}
static inline void perf_cgroup_update_time(struct perf_cpu_context *cpuctx) { }
static inline void perf_cgroup_switch(struct task_struct *next) { }
static inline void perf_cgroup_sync_cpuctx(struct perf_cpu_context *cpuctx) { }
static inline bool is_cgroup_event(struct perf_event *event) { return false; }
#endif

/* ======================================================================
 * Small shared helpers.
 */

/* perf's clock: the same one the user page and PERF_SAMPLE_TIME use. */
static inline u64 perf_clock(void)
{
	return local_clock();
}

/*
 * The time stamp of @event's records (PERF_SAMPLE_TIME, and the time in
 * THROTTLE, FORK and EXIT): its attr.use_clockid clock, else perf's
 * (event.c sets event->clock when it allocates the event).
 */
static inline u64 perf_event_now(struct perf_event *event)
{
	return event->clock();
}

/*
 * The clock @event's enabled and running times are measured on: its
 * context's, or for a cgroup event its cgroup's on its CPU.  One rule
 * for every reader, locked or not.
 */
static inline struct perf_tclock *perf_event_tclock(struct perf_event *event)
{
	if (is_cgroup_event(event))
		return perf_cgroup_event_clock(event);
	return &event->ctx->clock;
}

/*
 * The time of @event's clock as of its last update (ctx->lock held):
 * every state change in one scheduling operation uses the same instant,
 * so members of a group see identical times.  Inline: every state change
 * of every event asks.
 */
static inline u64 perf_event_ctx_time(struct perf_event *event)
{
	return READ_ONCE(perf_event_tclock(event)->time);
}

/* @event's clock now; lockless, NMI safe. */
static inline u64 perf_event_clock_now(struct perf_event *event)
{
	return perf_tclock_read_lockless(perf_event_tclock(event),
					 perf_clock());
}

/* Which recursion level we are in: 0 task, 1 softirq, 2 hardirq, 3 NMI. */
static __always_inline int perf_recursion_level(void)
{
	unsigned char rctx = interrupt_context_level();

	return rctx;
}

static inline int get_recursion_context(u8 *recursion)
{
	int rctx = perf_recursion_level();

	if (recursion[rctx])
		return -1;
	recursion[rctx]++;
	barrier();
	return rctx;
}

static inline void put_recursion_context(u8 *recursion, int rctx)
{
	barrier();
	recursion[rctx]--;
}

/*
 * Claim and release current's level for perf's own work (swevent.c says
 * why there are levels): what perf_swevent_get_recursion_context() and
 * its put do for other subsystems, inline for the callers in here, which
 * run on every software event and every deferred wakeup.
 */
static __always_inline int perf_recursion_enter(void)
{
	return get_recursion_context(current->perf_recursion);
}

static __always_inline void perf_recursion_leave(int rctx)
{
	put_recursion_context(current->perf_recursion, rctx);
}

/*
 * Does @event's context apply to this CPU right now (CPU binding,
 * cgroup)?  What sideband records go by: a task's mmap is the task's
 * wherever it runs.
 */
static inline bool perf_event_cpu_match(struct perf_event *event)
{
	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return false;
	return !is_cgroup_event(event) || perf_cgroup_match(event);
}

/* Does @pmu count on this CPU (pmu::filter: big.LITTLE, hybrid x86)? */
static inline bool perf_pmu_counts_here(struct pmu *pmu)
{
	return !pmu->filter || !pmu->filter(pmu, smp_processor_id());
}

/*
 * May @event count on this CPU right now: its context applies, and its
 * PMU counts here.  The PMU asked is the one the event's group goes on:
 * a software leader with a hybrid PMU's members has that PMU's CPUs.
 */
static inline bool perf_event_filter_match(struct perf_event *event)
{
	struct pmu *pmu = event->pmu_ctx ? event->pmu_ctx->pmu : event->pmu;

	return perf_event_cpu_match(event) && perf_pmu_counts_here(pmu);
}

/* Task events and their context type. */
static inline bool perf_event_is_task(struct perf_event *event)
{
	return event->attach_state & PERF_ATTACH_TASK;
}

/* The pid/tid of @p as @event's namespace sees it. */
u32 perf_event_pid(struct perf_event *event, struct task_struct *p);
u32 perf_event_tid(struct perf_event *event, struct task_struct *p);

#endif /* _KERNEL_EVENTS_INTERNAL_H */
