/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: the in-kernel interface of perf events.
 *
 * Three audiences read this header, and it is ordered for them:
 *
 *  1. PMU drivers: struct pmu, struct hw_perf_event, the PERF_EF_ and
 *     PERF_HES_ flags, sample data and the output handle.  A driver never
 *     needs anything below the "core objects" section except the helpers
 *     documented as driver-facing.
 *  2. The rest of the kernel: scheduler, fork/exit/exec, mm, tracing, BPF,
 *     ptrace.  Their hooks are in the "hooks" section, with static keys so
 *     that a kernel with no events pays one predicted branch.
 *  3. kernel/events itself, which owns the core objects (struct perf_event
 *     and its contexts).  Only kernel/events may change their fields;
 *     everyone else reads the documented ones.
 *
 * The user ABI lives in <uapi/linux/perf_event.h>.
 */
#ifndef _LINUX_PERF_EVENT_H
#define _LINUX_PERF_EVENT_H

#include <uapi/linux/bpf_perf_event.h>
#include <uapi/linux/perf_event.h>

#ifdef CONFIG_PERF_EVENTS
# include <asm/perf_event.h>
# include <asm/local64.h>
#endif

#ifdef CONFIG_HAVE_HW_BREAKPOINT
# include <linux/rhashtable-types.h>
# include <asm/hw_breakpoint.h>
#endif

#include <linux/atomic.h>
#include <linux/cgroup.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/ftrace.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/jump_label_ratelimit.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/perf/core_types.h>
#include <linux/perf_regs.h>
#include <linux/pid_namespace.h>
#include <linux/rbtree.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/security.h>
#include <linux/spinlock.h>
#include <linux/static_call.h>
#include <linux/static_key.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>
#include <asm/local.h>

struct task_struct;
struct file;
struct bpf_prog;
struct perf_buffer;
struct perf_cgroup;
struct perf_event;
struct perf_event_context;
struct perf_event_pmu_context;
struct perf_output_handle;
struct perf_sample_data;

/* ---------------------------------------------------------------------
 * Virtualisation: what a hypervisor tells the PMU code about its guest.
 */
#define PERF_GUEST_ACTIVE	0x01	/* a guest is running on this CPU */
#define PERF_GUEST_USER		0x02	/* the guest is in user mode */

struct perf_guest_info_callbacks {
	unsigned int	(*state)(void);			/* PERF_GUEST_* bits */
	unsigned long	(*get_ip)(void);		/* the guest's ip */
	unsigned int	(*handle_intel_pt_intr)(void);	/* hand a PT PMI to the guest */
};

/* ---------------------------------------------------------------------
 * Call chains, raw records and branch stacks: variable-size sample parts.
 */

/* One call chain, as PERF_SAMPLE_CALLCHAIN writes it: a count, then ips. */
struct perf_callchain_entry {
	__u64	nr;
	__u64	ip[];	/* up to kernel.perf_event_max_stack entries */
};

/*
 * The state of one stack walk: where entries go, how many may still be
 * stored, and how many PERF_CONTEXT_* markers were used.
 */
struct perf_callchain_entry_ctx {
	struct perf_callchain_entry	*entry;		/* the chain being filled */
	u32				max_stack;
	u32				nr;
	short				contexts;
	bool				contexts_maxed;
};

/* A fragment's copy routine, used in place of memcpy() when it is set. */
typedef unsigned long (*perf_copy_f)(void *dst, const void *src,
				     unsigned long off, unsigned long len);

/*
 * A raw record (PERF_SAMPLE_RAW) may be scattered over several fragments;
 * the last one is the one whose @pad is smaller than a u64 (it then holds
 * the padding the core adds to keep the record u64 aligned).
 */
struct perf_raw_frag {
	union {
		struct perf_raw_frag	*next;	/* the following fragment, */
		unsigned long		pad;	/* or the padding, in the last one */
	};
	perf_copy_f	copy;
	void		*data;
	u32		size;
} __packed;

struct perf_raw_record {
	struct perf_raw_frag	frag;	/* the first fragment */
	u32			size;	/* set by perf_sample_save_raw_data() */
};

/* The last fragment's @pad holds padding, not a pointer (see above). */
static __always_inline bool perf_raw_frag_last(const struct perf_raw_frag *frag)
{
	return frag->pad < sizeof(u64);
}

/*
 * A branch stack sample.  @hw_idx is the hardware's index of the newest
 * entry, or -1ULL when the PMU does not expose one.
 */
struct perf_branch_stack {
	__u64				nr;
	__u64				hw_idx;
	struct perf_branch_entry	entries[];
};

/* ---------------------------------------------------------------------
 * The per-event state a PMU driver owns.
 */

/* An extra (off-core, LBR select) register an x86 event may need. */
struct hw_perf_event_extra {
	u64		config;	/* the value to program */
	unsigned int	reg;	/* the register */
	int		alloc;	/* set once the register is claimed */
	int		idx;	/* slot in the shared register table */
};

/*
 * hw_perf_event.flags: the low 20 bits are the architecture's; the core
 * reserves the top bit for "user space may read this counter directly"
 * and the next one for "this event reads another event's counter"
 * (a rider, kernel/events/share.c).
 */
#define PERF_EVENT_FLAG_ARCH			0x000fffff
#define PERF_EVENT_FLAG_USER_READ_CNT		0x80000000
#define PERF_EVENT_FLAG_SHARE_RIDER		0x40000000

static_assert(((PERF_EVENT_FLAG_USER_READ_CNT | PERF_EVENT_FLAG_SHARE_RIDER) &
	       PERF_EVENT_FLAG_ARCH) == 0);

/*
 * hw_perf_event.state, as the core and drivers share it:
 * STOPPED means the counter is not counting (pmu::stop ran or pmu::add
 * was called without PERF_EF_START); UPTODATE means event->count already
 * holds everything the hardware counted, so a later stop need not read
 * again.  ARCH is free for drivers.
 */
#define PERF_HES_STOPPED	0x01
#define PERF_HES_UPTODATE	0x02
#define PERF_HES_ARCH		0x04

/**
 * struct hw_perf_event - the driver's view of one event
 *
 * The anonymous union holds what each kind of PMU keeps per event; the
 * fields after it are shared by the core and every driver.
 */
struct hw_perf_event {
#ifdef CONFIG_PERF_EVENTS
	union {
		/* counters of a CPU PMU */
		struct {
			u64		config;
			u64		last_tag;
			unsigned long	config_base;	/* control register address */
			unsigned long	event_base;	/* counter register address */
			int		event_base_rdpmc;
			int		idx;
			int		last_cpu;
			int		flags;
			struct hw_perf_event_extra	extra_reg;	/* e.g. offcore */
			struct hw_perf_event_extra	branch_reg;	/* LBR select */
		};
		/* instruction-trace PMUs with an AUX area */
		struct {
			u64		aux_config;
			unsigned int	aux_paused;
		};
		/* cpu-clock and task-clock */
		struct {
			struct hrtimer	hrtimer;
		};
		/* tracepoints: link in the trace event's per-CPU list */
		struct {
			struct list_head	tp_list;
		};
		/* AMD power */
		struct {
			u64	pwr_acc;
			u64	ptsc;
		};
#ifdef CONFIG_HAVE_HW_BREAKPOINT
		/* breakpoints */
		struct {
			struct arch_hw_breakpoint	info;
			struct rhlist_head		bp_list;
		};
#endif
		/* AMD IOMMU */
		struct {
			u8	iommu_bank;
			u8	iommu_cntr;
			u16	padding;
			u64	conf;
			u64	conf1;
		};
	};

	/* The task a per-task event follows, held by a reference; or NULL. */
	struct task_struct		*target;

	/* Address filters as the PMU programmed them, and their generation. */
	void				*addr_filters;
	unsigned long			addr_filters_gen;

	int				state;		/* PERF_HES_* */
	local64_t			prev_count;	/* last raw hardware value */
	u64				sample_period;	/* current period */

	union {
		struct {	/* sampling */
			u64		last_period;
			local64_t	period_left;
		};
		struct {	/* x86 topdown metrics across switches */
			u64		saved_metric;
			u64		saved_slots;
		};
	};

	/* Throttling and frequency mode, maintained by the core. */
	u64				interrupts_seq;
	u64				interrupts;
	u64				freq_time_stamp;
	u64				freq_count_stamp;
#endif
};

/* ---------------------------------------------------------------------
 * struct pmu: what a PMU driver registers.
 */

/* pmu::start_txn flags: which kind of batch is being built. */
#define PERF_PMU_TXN_ADD	0x1
#define PERF_PMU_TXN_READ	0x2

/* pmu::capabilities */
#define PERF_PMU_CAP_NO_INTERRUPT		0x0001	/* cannot sample */
#define PERF_PMU_CAP_NO_NMI			0x0002	/* overflow is not an NMI */
#define PERF_PMU_CAP_AUX_NO_SG			0x0004	/* AUX wants contiguous pages */
#define PERF_PMU_CAP_EXTENDED_REGS		0x0008	/* beyond the base register set */
#define PERF_PMU_CAP_EXCLUSIVE			0x0010	/* one event per PMU at a time */
#define PERF_PMU_CAP_ITRACE			0x0020	/* instruction trace */
#define PERF_PMU_CAP_NO_EXCLUDE			0x0040	/* no exclude_* support */
#define PERF_PMU_CAP_AUX_OUTPUT			0x0080	/* may be an aux_output target */
#define PERF_PMU_CAP_EXTENDED_HW_TYPE		0x0100	/* takes PMU type in config[63:32] */
#define PERF_PMU_CAP_AUX_PAUSE			0x0200	/* AUX pause/resume */
#define PERF_PMU_CAP_AUX_PREFER_LARGE		0x0400	/* prefer large AUX pages */
/* perfcore's own, clear of upstream's bits: identical counting events share */
#define PERF_PMU_CAP_SHARE_COUNTERS		0x8000	/* kernel/events/share.c */

/* What a PMU with a cpumask counts for: pmu::scope. */
enum perf_pmu_scope {
	PERF_PMU_SCOPE_NONE	= 0,	/* no cpumask from the core */
	PERF_PMU_SCOPE_CORE,		/* one core's SMT threads */
	PERF_PMU_SCOPE_DIE,
	PERF_PMU_SCOPE_CLUSTER,
	PERF_PMU_SCOPE_PKG,
	PERF_PMU_SCOPE_SYS_WIDE,	/* every CPU in the system */
	PERF_PMU_MAX_SCOPE,
};

/* pmu::dev value for a PMU that wants no sysfs device. */
#define PMU_NULL_DEV	((void *)(~0UL))

/* Flags of pmu::add, pmu::start and pmu::stop. */
#define PERF_EF_START	0x01	/* add: start counting right away */
#define PERF_EF_RELOAD	0x02	/* start: reprogram from period_left */
#define PERF_EF_UPDATE	0x04	/* stop: fold the hardware count into event->count */
#define PERF_EF_PAUSE	0x08	/* AUX: pause tracing */
#define PERF_EF_RESUME	0x10	/* AUX: resume tracing */

/**
 * struct pmu - a performance monitoring unit as the core sees it
 * @entry: link in the core's PMU list (the core's)
 * @module: owner, pinned while events exist
 * @dev: the sysfs device (the core's), or %PMU_NULL_DEV for none
 * @parent: parent device for sysfs
 * @attr_groups: sysfs groups of the PMU's device (format, events, ...)
 * @attr_update: groups whose visibility is re-evaluated at registration
 * @name: the PMU's name under /sys/bus/event_source/devices
 * @type: attr.type that selects it (set by perf_pmu_register())
 * @capabilities: PERF_PMU_CAP_*
 * @scope: enum perf_pmu_scope, for PMUs that publish a cpumask
 * @pmu_disable_count: per-CPU nesting of perf_pmu_disable() (the core's)
 * @cpu_pmu_context: per-CPU scheduling state (the core's)
 * @exclusive_cnt: PERF_PMU_CAP_EXCLUSIVE users; <0 per-CPU, >0 per-task
 * @task_ctx_nr: perf_hw_context, perf_sw_context or perf_invalid_context
 * @hrtimer_interval_ms: multiplexing interval
 * @nr_addr_filters: address filters the hardware has
 *
 * The callbacks are documented where drivers look for them, below.
 */
struct pmu {
	struct list_head		entry;
	struct module			*module;

	/* sysfs: the device, its parent and its attribute groups */
	struct device			*dev;
	struct device			*parent;
	const struct attribute_group	**attr_groups;
	const struct attribute_group	**attr_update;
	const char			*name;
	int				type;
	int				capabilities;
	unsigned int			scope;

	int __percpu			*pmu_disable_count;
	struct perf_cpu_pmu_context __percpu *cpu_pmu_context;
	atomic_t			exclusive_cnt;
	int				task_ctx_nr;
	int				hrtimer_interval_ms;
	unsigned int			nr_addr_filters;

	/* Optional: bracket a batch of add/del so hardware is written once. */
	void (*pmu_enable)(struct pmu *pmu);
	void (*pmu_disable)(struct pmu *pmu);

	/*
	 * Claim and check an event.  -ENOENT means "not mine, try the next
	 * PMU"; any other error ends perf_event_open() with it.
	 */
	int (*event_init)(struct perf_event *event);

	/* Optional: the event's ring buffer was mapped into / out of @mm. */
	void (*event_mapped)(struct perf_event *event, struct mm_struct *mm);
	void (*event_unmapped)(struct perf_event *event, struct mm_struct *mm);

	/*
	 * Put the event on a counter (add) or take it off (del); start and
	 * stop count without giving the counter up; read folds the hardware
	 * value into event->count.  All run on the event's CPU with
	 * interrupts off.
	 */
	int  (*add)(struct perf_event *event, int flags);
	void (*del)(struct perf_event *event, int flags);
	void (*start)(struct perf_event *event, int flags);
	void (*stop)(struct perf_event *event, int flags);
	void (*read)(struct perf_event *event);

	/*
	 * Optional group transactions: after start_txn the PMU may accept
	 * add() calls without checking, and commit_txn decides for all of
	 * them at once; cancel_txn undoes an uncommitted batch.
	 */
	void (*start_txn)(struct pmu *pmu, unsigned int txn_flags);
	int  (*commit_txn)(struct pmu *pmu);
	void (*cancel_txn)(struct pmu *pmu);

	/* Optional: the index for user-space rdpmc (0 means none). */
	int (*event_idx)(struct perf_event *event);

	/* Optional: context switch notification for PMUs with task state. */
	void (*sched_task)(struct perf_event_pmu_context *pmu_ctx,
			   struct task_struct *task, bool sched_in);
	struct kmem_cache		*task_ctx_cache;
	void (*swap_task_ctx)(struct perf_event_pmu_context *prev_epc,
			      struct perf_event_pmu_context *next_epc);

	/* AUX area: set up and free the PMU's view of the buffer pages. */
	void *(*setup_aux)(struct perf_event *event, void **pages,
			   int nr_pages, bool overwrite);
	void (*free_aux)(void *aux);
	long (*snapshot_aux)(struct perf_event *event,
			     struct perf_output_handle *handle,
			     unsigned long size);

	/* Address filters: validate a parsed list, program the ranges. */
	int (*addr_filters_validate)(struct list_head *filters);
	void (*addr_filters_sync)(struct perf_event *event);

	/* Optional: may @event be an aux_output target of this PMU? */
	int (*aux_output_match)(struct perf_event *event);

	/* Optional: true when this PMU cannot count on @cpu. */
	bool (*filter)(struct pmu *pmu, int cpu);

	/* Optional: refuse a new sample period. */
	int (*check_period)(struct perf_event *event, u64 value);
};

/* ---------------------------------------------------------------------
 * Address filters (instruction trace).
 */
enum perf_addr_filter_action_t {
	PERF_ADDR_FILTER_ACTION_STOP = 0,	/* stop tracing on entering the range */
	PERF_ADDR_FILTER_ACTION_START,		/* start tracing on entering it */
	PERF_ADDR_FILTER_ACTION_FILTER,		/* trace only inside it */
};

/* One parsed filter: a kernel range when @path is empty, else a file's. */
struct perf_addr_filter {
	struct list_head		entry;
	struct path			path;
	unsigned long			offset;
	unsigned long			size;
	enum perf_addr_filter_action_t	action;
};

struct perf_addr_filters_head {
	struct list_head	list;
	raw_spinlock_t		lock;
	unsigned int		nr_file_filters;
};

/* A filter resolved to an address range in the current address space. */
struct perf_addr_filter_range {
	unsigned long	start;
	unsigned long	size;
};

/* ---------------------------------------------------------------------
 * Core objects.
 */


/*
 * The life of an event.  Negative states are not schedulable; read() of
 * an event in ERROR returns 0 bytes.
 */
enum perf_event_state {
	PERF_EVENT_STATE_DEAD		= -4,	/* to be freed soon */
	PERF_EVENT_STATE_EXIT		= -3,	/* its task exited */
	PERF_EVENT_STATE_ERROR		= -2,	/* a pinned group that could not go on */
	PERF_EVENT_STATE_OFF		= -1,	/* disabled */
	PERF_EVENT_STATE_INACTIVE	=  0,	/* enabled, waiting for a counter */
	PERF_EVENT_STATE_ACTIVE		=  1,	/* on its PMU (parked: sched.c) */
};

typedef void (*perf_overflow_handler_t)(struct perf_event *,
					struct perf_sample_data *,
					struct pt_regs *regs);

/* event_caps / group_caps */
#define PERF_EV_CAP_SOFTWARE		BIT(0)	/* a software PMU's event */
#define PERF_EV_CAP_READ_ACTIVE_PKG	BIT(1)	/* readable from any CPU of the package */
/* counts only as a group member: ERROR once its leader leaves */
#define PERF_EV_CAP_SIBLING		BIT(2)
#define PERF_EV_CAP_READ_SCOPE		BIT(3)	/* readable within pmu::scope */
/* counts through its context alone: may stay on across a switch (sched.c) */
#define PERF_EV_CAP_FOLLOWS_CTX		BIT(4)

/* event->attach_state: what the event is attached to. */
#define PERF_ATTACH_CONTEXT	0x0001	/* on its context's event list */
#define PERF_ATTACH_GROUP	0x0002	/* linked into its group */
#define PERF_ATTACH_TASK	0x0004	/* a per-task event */
#define PERF_ATTACH_TASK_DATA	0x0008	/* uses the PMU's per-task data */
#define PERF_ATTACH_ITRACE	0x0010	/* an instruction-trace event */
#define PERF_ATTACH_SCHED_CB	0x0020	/* uses pmu::sched_task */
#define PERF_ATTACH_CHILD	0x0040	/* inherited from a parent event */
#define PERF_ATTACH_EXCLUSIVE	0x0080	/* holds an exclusive PMU */
#define PERF_ATTACH_CALLCHAIN	0x0100	/* holds the callchain buffers */

/* perf_flex_node/queue, perf_tclock, perf_times: <linux/perf/core_types.h> */

#ifdef CONFIG_PROVE_LOCKING
/* Group lists may be walked with the context mutex held or IRQs off. */
#define lockdep_assert_event_ctx(event)					\
	WARN_ON_ONCE(__lockdep_enabled && this_cpu_read(hardirqs_enabled) &&	\
		     lockdep_is_held(&(event)->ctx->mutex) != LOCK_STATE_HELD)
#else
#define lockdep_assert_event_ctx(event)		((void)(event))
#endif

/**
 * for_each_sibling_event - iterate over the members of a group but its leader
 * @sibling: the cursor
 * @event: the group leader (for any other event the loop body never runs)
 */
#define for_each_sibling_event(sibling, event)				\
	lockdep_assert_event_ctx(event);				\
	if ((event)->group_leader == (event))				\
		list_for_each_entry((sibling), &(event)->sibling_list,	\
				    sibling_entry)

/**
 * struct perf_event - one event
 *
 * Fields read outside kernel/events: @attr, @hw, @pmu, @cpu, @oncpu,
 * @state, @group_leader and its sibling list, @attach_state, @parent,
 * @count, @ctx (for its task), @destroy, @pmu_private, @event_caps,
 * @overflow_handler, @prog, @bpf_cookie, the tracing fields and
 * @hlist_entry.  Everything else is the core's.
 *
 * Locking: fields that describe the event's place in a context change
 * under ctx->mutex and ctx->lock; scheduling state (@state, @oncpu,
 * @times) under ctx->lock with interrupts off, on the context's CPU.
 */
struct perf_event {
#ifdef CONFIG_PERF_EVENTS
	/* --- place in the context --- */
	struct list_head		event_entry;	/* ctx->event_list */
	struct list_head		group_entry;	/* pmu_ctx pinned list */
	struct list_head		active_entry;	/* pmu_ctx active groups */
	struct perf_flex_node		flex;		/* pmu_ctx flexible queue */
	u64				flex_charged;	/* running time already charged */
	struct list_head		sibling_list;	/* leader: the members */
	struct list_head		sibling_entry;	/* member: link in it */
	struct hlist_node		hlist_entry;	/* swevent / tracepoint */
	struct list_head		migrate_entry;
	struct perf_event		*group_leader;
	int				nr_siblings;
	int				event_caps;
	int				group_caps;
	unsigned int			group_generation;

	struct pmu			*pmu;
	void				*pmu_private;

	enum perf_event_state		state;
	unsigned int			attach_state;
	local64_t			count;
	atomic64_t			child_count;
	struct perf_times		times;

	struct perf_event_attr		attr;
	u16				header_size;
	u16				id_header_size;
	u16				read_size;
	/* The items of its records, from attr (kernel/events/layout.c). */
	struct perf_sample_layout	sample_layout;
	struct hw_perf_event		hw;

	struct perf_event_context	*ctx;
	struct perf_event_pmu_context	*pmu_ctx;
	atomic_long_t			refcount;

	/* --- inheritance: what exited children counted --- */
	atomic64_t			child_total_time_enabled;
	atomic64_t			child_total_time_running;
	struct mutex			child_mutex;
	struct list_head		child_list;
	struct perf_event		*parent;

	int				oncpu;
	int				cpu;

	/* --- the fd's owner, for prctl --- */
	struct list_head		owner_entry;	/* owner->perf_event_list */
	struct task_struct		*owner;		/* the task that opened it */

	/* --- output --- */
	struct mutex			mmap_mutex;	/* guards @rb, @mmap_count */
	atomic_t			mmap_count;
	struct perf_buffer		*rb;		/* the ring buffer, if any */
	struct list_head		rb_entry;	/* in rb->event_list */
	unsigned long			rcu_batches;	/* RCU state cookie */
	int				rcu_pending;

	wait_queue_head_t		waitq;		/* poll() and read() waiters */
	struct fasync_struct		*fasync;	/* SIGIO on wakeup */

	/* --- work deferred from NMI context --- */
	unsigned int			pending_wakeup;
	unsigned int			pending_kill;
	unsigned int			pending_disable;
	unsigned long			pending_addr;
	struct irq_work			pending_irq;	/* runs the pending wakeup */
	struct irq_work			pending_disable_irq;
	struct callback_head		pending_task;	/* sends the sigtrap */
	unsigned int			pending_work;

	atomic_t			event_limit;	/* overflows left (IOC_REFRESH) */

	/* --- address filters (instruction trace) --- */
	struct perf_addr_filters_head	addr_filters;
	struct perf_addr_filter_range	*addr_filter_ranges;
	unsigned long			addr_filters_gen;

	struct perf_event		*aux_event;	/* the group's AUX-area event */

	void (*destroy)(struct perf_event *event);
	union {
		struct rcu_head		rcu_head;	/* deferred free */
		struct llist_node	grave;		/* or in ctx->graveyard */
	};

	struct pid_namespace		*ns;		/* pids are reported in it */
	u64				id;
	atomic64_t			lost_samples;	/* PERF_FORMAT_LOST */

	u64				(*clock)(void);	/* timestamp source */

	/* --- what runs on overflow --- */
	perf_overflow_handler_t		overflow_handler;
	void				*overflow_handler_context;
	struct bpf_prog			*prog;		/* BPF program, if attached */
	u64				bpf_cookie;

#ifdef CONFIG_EVENT_TRACING
	struct trace_event_call		*tp_event;	/* the tracepoint */
	struct event_filter		*filter;	/* its filter, if set */
#ifdef CONFIG_FUNCTION_TRACER
	struct ftrace_ops		ftrace_ops;	/* for the function event */
#endif
#endif

#ifdef CONFIG_CGROUP_PERF
	struct perf_cgroup		*cgrp;
#endif

#ifdef CONFIG_SECURITY
	void				*security;
#endif
	struct list_head		sb_list;	/* side-band users */
	unsigned int			sb_kinds;	/* announced records wanted */
	__u32				orig_type;	/* attr.type before PMU redirection */
#endif /* CONFIG_PERF_EVENTS */
};

/**
 * struct perf_event_pmu_context - one PMU's share of a context
 * @pmu: the PMU
 * @ctx: the context
 * @pmu_ctx_entry: link in ctx->pmu_ctx_list
 * @pinned_groups: pinned group leaders, in the order they were added
 * @flexible: flexible group leaders, least-run first (struct perf_flex_queue)
 * @active_groups: leaders of the groups now on the PMU
 * @nr_events: events of this PMU in the context
 * @flexible_missed: a flexible group did not fit at the last schedule, so
 *	the multiplexing timer has work to do
 * @task_ctx_data: the PMU's per-task state (pmu::task_ctx_cache)
 * @refcount: events and users holding this
 * @rcu_head: deferred free
 *
 * Allocated on the first event of a PMU in a context, freed with the last.
 * The CPU context's pmu contexts are embedded in struct perf_cpu_pmu_context,
 * a task context's first ones in the context (epc_slots).
 */
struct perf_event_pmu_context {
	struct pmu			*pmu;
	struct perf_event_context	*ctx;
	struct list_head		pmu_ctx_entry;

	struct list_head		pinned_groups;
	struct perf_flex_queue		flexible;
	struct list_head		active_groups;

	unsigned int			nr_events;
	bool				flexible_missed;
	bool				embedded;

	void				*task_ctx_data;
	atomic_t			refcount;
	struct rcu_head			rcu_head;
};

/* How many pmu contexts a task context has room for (epc_slots). */
#define PERF_CTX_EPC_SLOTS	2

/*
 * struct perf_event_context - the events of one task, or of one CPU
 *
 * Locking (owned by kernel/events/context.c, which explains it in full):
 * @mutex serialises changes to the event population; @lock (a raw
 * spinlock, taken with interrupts off) protects scheduling state and is
 * taken on the CPU that runs the context, normally by IPI.
 */
struct perf_event_context {
	raw_spinlock_t			lock;
	struct mutex			mutex;

	struct list_head		pmu_ctx_list;
	struct list_head		event_list;	/* every event */
	int				nr_events;
	int				nr_user;	/* events that exclude kernel */
	int				nr_cgroups;
	int				nr_freq;	/* frequency-mode events */
	int				is_active;	/* EVENT_* bits */

	refcount_t			refcount;
	struct task_struct		*task;		/* NULL for a CPU context */
	int				cpu;		/* a CPU context's CPU */

	struct perf_tclock		clock;

	/*
	 * The "software" PMU's events on the PMU, by attr.config: raising
	 * one walks the chains of this CPU's context and of the task
	 * context scheduled in here (swevent.c).  Changed under lock, read
	 * under RCU.
	 */
	struct hlist_head		sw_events[PERF_COUNT_SW_MAX];

	/*
	 * Clones (kernel/events/clone.c): a task context that is a copy of
	 * clone_of as of that context's generation clone_gen may be traded
	 * with it at a context switch.  generation counts changes of the
	 * event set.  All three under lock, with mutex held to change.
	 */
	struct perf_event_context	*clone_of;
	u64				clone_gen;
	u64				generation;
	/*
	 * SIGTRAP task works its events queued for ctx->task that have not
	 * run yet: until they have, the context must stay that task's.
	 */
	atomic_t			nr_pending_sigtrap;

	/*
	 * Events of an exited task's context, freed with it, after the
	 * grace period of its own free (kernel/events/event.c).
	 */
	struct llist_head		graveyard;
	/*
	 * Room for a task context's first pmu contexts, each handed out
	 * once (kernel/events/context.c): most tasks' events use one or
	 * two PMUs, and a fork with inherited events then allocates none.
	 */
	struct perf_event_pmu_context	epc_slots[PERF_CTX_EPC_SLOTS];
	/*
	 * Memory for the copies a fork makes of the parent's events, right
	 * behind the context in its allocation (kernel/events/context.c);
	 * copy_slots_used of copy_slots_nr handed out.
	 */
	struct perf_event		*copy_slots;
	unsigned int			copy_slots_nr;
	unsigned int			copy_slots_used;
	struct rcu_head			rcu_head;
};

/*
 * struct perf_cpu_pmu_context - one PMU on one CPU
 * @epc: the CPU context's pmu context for this PMU
 * @active_oncpu: events of this PMU now on this CPU's counters
 * @exclusive: an exclusive group holds the PMU
 * @sched_cb_usage: users of pmu::sched_task on this CPU (perf_sched_cb_inc())
 * @sched_cb_entry: link in this CPU's list of PMUs to notify at a switch
 * @mux_lock: protects the timer's state
 * @mux_timer: the multiplexing timer
 * @mux_interval: its period
 * @mux_active: the timer is armed
 */
struct perf_cpu_pmu_context {
	struct perf_event_pmu_context	epc;
	int				active_oncpu;
	int				exclusive;

	raw_spinlock_t			mux_lock;
	struct hrtimer			mux_timer;
	ktime_t				mux_interval;
	bool				mux_active;

	int				sched_cb_usage;
	struct list_head		sched_cb_entry;
};

/*
 * struct perf_cpu_context - a CPU's own context and the task context that
 * is scheduled in on it.
 */
struct perf_cpu_context {
	struct perf_event_context	ctx;
	struct perf_event_context	*task_ctx;	/* scheduled in here, or NULL */
	int				online;		/* events may be opened here */
#ifdef CONFIG_CGROUP_PERF
	struct perf_cgroup		*cgrp;		/* the cgroup now scheduled in */
#endif
};

/* ---------------------------------------------------------------------
 * The output handle: one record being written to a ring buffer.
 */
struct perf_output_handle {
	struct perf_event		*event;
	struct perf_buffer		*rb;
	unsigned long			wakeup;
	unsigned long			size;
	union {
		u64			flags;		/* perf_output_*() */
		u64			aux_flags;	/* perf_aux_output_*() */
		struct {
			u64		skip_read : 1;
		};
	};
	union {
		void			*addr;
		unsigned long		head;
	};
	int				page;
};

/* What a BPF program attached to an event sees as its context. */
struct bpf_perf_event_data_kern {
	bpf_user_pt_regs_t	*regs;	/* the registers at the overflow */
	struct perf_sample_data	*data;	/* the sample being taken */
	struct perf_event	*event;	/* the event that overflowed */
};

#ifdef CONFIG_CGROUP_PERF
/* A perf cgroup's clock on one CPU: a context clock of its own. */
struct perf_cgroup_info {
	struct perf_tclock	clock;
};

struct perf_cgroup {
	struct cgroup_subsys_state	css;
	struct perf_cgroup_info	__percpu *info;
};

/*
 * perf_cgroup_from_task - the perf cgroup of @task.  The caller keeps the
 * css alive: it holds @ctx->lock, or an RCU read section otherwise.
 */
static inline struct perf_cgroup *
perf_cgroup_from_task(struct task_struct *task, struct perf_event_context *ctx)
{
	struct cgroup_subsys_state *css;

	css = task_css_check(task, perf_event_cgrp_id,
			     ctx ? lockdep_is_held(&ctx->lock) : true);
	return container_of(css, struct perf_cgroup, css);
}
#endif /* CONFIG_CGROUP_PERF */

#ifdef CONFIG_PERF_EVENTS

struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs);

/* ---------------------------------------------------------------------
 * Sample data: what an overflow reports.  Drivers fill what they know and
 * set the matching bits of @sample_flags; perf_prepare_sample() fills the
 * rest.  Only the first line of fields is initialised by
 * perf_sample_data_init(), so keep it small.
 */
struct perf_sample_data {
	u64				sample_flags;
	u64				period;
	u64				dyn_size;

	u64				type;
	struct {
		u32	pid;
		u32	tid;
	}				tid_entry;
	u64				time;
	u64				id;
	struct {
		u32	cpu;
		u32	reserved;
	}				cpu_entry;

	u64				ip;
	struct perf_callchain_entry	*callchain;	/* PERF_SAMPLE_CALLCHAIN */
	struct perf_raw_record		*raw;		/* PERF_SAMPLE_RAW */
	struct perf_branch_stack	*br_stack;	/* PERF_SAMPLE_BRANCH_STACK */
	u64				*br_stack_cntr;
	union perf_sample_weight	weight;		/* PERF_SAMPLE_WEIGHT* */
	union perf_mem_data_src		data_src;	/* PERF_SAMPLE_DATA_SRC */
	u64				txn;

	struct perf_regs		regs_user;	/* PERF_SAMPLE_REGS_USER */
	struct perf_regs		regs_intr;	/* PERF_SAMPLE_REGS_INTR */
	u64				stack_user_size;

	u64				stream_id;
	u64				cgroup;
	u64				addr;
	u64				phys_addr;
	u64				data_page_size;
	u64				code_page_size;
	u64				aux_size;
} ____cacheline_aligned;

/* data_src for "not available". */
#define PERF_MEM_NA (PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) |		\
		     PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) |	\
		     PERF_MEM_S(TLB, NA) | PERF_MEM_S(LVLNUM, NA))

/* Start a sample with @period and, when nonzero, the data address @addr. */
static inline void
perf_sample_data_init(struct perf_sample_data *data, u64 addr, u64 period)
{
	data->sample_flags = PERF_SAMPLE_PERIOD;
	data->period = period;
	data->dyn_size = 0;

	if (addr) {
		data->addr = addr;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}
}

/* Take the call chain at @regs: the nr word plus one u64 per entry. */
static inline void
perf_sample_save_callchain(struct perf_sample_data *data, struct perf_event *event,
			   struct pt_regs *regs)
{
	int size = sizeof(u64);

	data->callchain = perf_callchain(event, regs);
	size += data->callchain->nr * sizeof(u64);
	data->dyn_size += size;
	data->sample_flags |= PERF_SAMPLE_CALLCHAIN;
}

/*
 * Attach a raw record to a sample of @event (if it samples RAW): pad the
 * fragments' total so that the u32 size word and the data end on a u64
 * boundary, and account for it in the sample's dynamic size.
 */
static inline void
perf_sample_save_raw_data(struct perf_sample_data *data, struct perf_event *event,
			  struct perf_raw_record *raw)
{
	struct perf_raw_frag *frag = &raw->frag;
	u32 sum = 0;
	int size;

	if (!(event->attr.sample_type & PERF_SAMPLE_RAW))
		return;
	/* A sample carries one raw record; a second one is a driver bug. */
	if (WARN_ON_ONCE(data->sample_flags & PERF_SAMPLE_RAW))
		return;

	/* Sum the fragments, stopping at the last one. */
	for (;;) {
		sum += frag->size;
		if (perf_raw_frag_last(frag))
			break;
		frag = frag->next;
	}

	/* The record is the size word and the data, padded to a u64 boundary. */
	size = round_up(sum + sizeof(u32), sizeof(u64));
	raw->size = size - sizeof(u32);
	frag->pad = raw->size - sum;	/* the last fragment carries the padding */

	data->raw = raw;
	data->dyn_size += size;
	data->sample_flags |= PERF_SAMPLE_RAW;
}

/* Does the event sample the branch stack (PERF_SAMPLE_BRANCH_STACK)? */
static inline bool has_branch_stack(struct perf_event *event)
{
	return event->attr.sample_type & PERF_SAMPLE_BRANCH_STACK;
}

/*
 * Attach a branch stack, and the per-branch counters when the event asks
 * for them, and account for their size.
 */
static inline void
perf_sample_save_brstack(struct perf_sample_data *data, struct perf_event *event,
			 struct perf_branch_stack *brs, u64 *brs_cntr)
{
	u64 nr = brs->nr;
	int size = sizeof(u64);	/* the nr word */

	if (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		size += sizeof(u64);
	size += nr * sizeof(struct perf_branch_entry);
	if (brs_cntr && (event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS))
		size += nr * sizeof(u64);

	data->br_stack = brs;
	data->br_stack_cntr = brs_cntr;
	data->dyn_size += size;
	data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
}

/* The size of the sample record: the fixed header part plus what was added. */
static inline u32
perf_sample_data_size(struct perf_sample_data *data, struct perf_event *event)
{
	return event->header_size + data->dyn_size;
}

/* Branch entries are reused from a buffer: clear what a PMU may not set. */
static inline void perf_clear_branch_entry_bitfields(struct perf_branch_entry *br)
{
	br->mispred = 0;
	br->predicted = 0;
	br->in_tx = 0;
	br->abort = 0;
	br->cycles = 0;
	br->type = 0;
	br->spec = PERF_BR_SPEC_NA;
	br->reserved = 0;
}

#define PERF_BRANCH_SAMPLE_TEST(name, bit)				\
static inline bool branch_sample_##name(const struct perf_event *event)	\
{									\
	return event->attr.branch_sample_type & (bit);			\
}
PERF_BRANCH_SAMPLE_TEST(no_flags, PERF_SAMPLE_BRANCH_NO_FLAGS)
PERF_BRANCH_SAMPLE_TEST(no_cycles, PERF_SAMPLE_BRANCH_NO_CYCLES)
PERF_BRANCH_SAMPLE_TEST(type, PERF_SAMPLE_BRANCH_TYPE_SAVE)
PERF_BRANCH_SAMPLE_TEST(hw_index, PERF_SAMPLE_BRANCH_HW_INDEX)
PERF_BRANCH_SAMPLE_TEST(priv, PERF_SAMPLE_BRANCH_PRIV_SAVE)
PERF_BRANCH_SAMPLE_TEST(counters, PERF_SAMPLE_BRANCH_COUNTERS)
PERF_BRANCH_SAMPLE_TEST(call_stack, PERF_SAMPLE_BRANCH_CALL_STACK)
#undef PERF_BRANCH_SAMPLE_TEST

/* ---------------------------------------------------------------------
 * For PMU drivers.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type);
void perf_pmu_unregister(struct pmu *pmu);
void perf_pmu_disable(struct pmu *pmu);
void perf_pmu_enable(struct pmu *pmu);
void perf_pmu_resched(struct pmu *pmu);
void perf_pmu_migrate_context(struct pmu *pmu, int src_cpu, int dst_cpu);
void perf_sched_cb_inc(struct pmu *pmu);
void perf_sched_cb_dec(struct pmu *pmu);
struct perf_event_context *perf_cpu_task_ctx(void);
void __perf_event_update_userpage(struct perf_event *event);

/**
 * perf_event_update_userpage() - refresh the counter part of the user page
 * @event: the event; nothing happens if it has no buffer
 *
 * Drivers call this at every add, del and counter reload, where most
 * events have no buffer: that test is made here, without a call.
 */
static inline void perf_event_update_userpage(struct perf_event *event)
{
	if (rcu_access_pointer(event->rb))
		__perf_event_update_userpage(event);
}

void perf_event_print_debug(void);
void perf_event_itrace_started(struct perf_event *event);
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id);
void perf_event_addr_filters_sync(struct perf_event *event);
int perf_event_account_interrupt(struct perf_event *event);
void perf_sample_event_took(u64 sample_len_ns);

/* Overflow: returns nonzero when the PMU must stop the event (throttled). */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs);

/* AUX area output. */
void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event);
void perf_aux_output_end(struct perf_output_handle *handle,
			 unsigned long size);
int perf_aux_output_skip(struct perf_output_handle *handle,
			 unsigned long size);
void *perf_get_aux(struct perf_output_handle *handle);
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags);
void perf_aux_irq_begin(void);
void perf_aux_irq_end(void);
long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to);

/* Sample output, for PMUs that write samples themselves (PEBS). */
void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);
void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs);
void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data,
			struct perf_event *event);
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs);
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs);
int perf_event_output(struct perf_event *event,
		      struct perf_sample_data *data, struct pt_regs *regs);
void perf_log_lost_samples(struct perf_event *event, u64 lost);
void perf_event_header__init_id(struct perf_event_header *header,
				struct perf_sample_data *data,
				struct perf_event *event);
void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *sample);

/* Does the event write its samples to its buffer the ordinary way? */
static inline bool is_default_overflow_handler(struct perf_event *event)
{
	perf_overflow_handler_t handler = event->overflow_handler;

	return handler == perf_event_output_forward ||
	       handler == perf_event_output_backward;
}

int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size);
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size);
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size);
void perf_output_end(struct perf_output_handle *handle);
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len);
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len);
#define perf_output_put(handle, x) perf_output_copy((handle), &(x), sizeof(x))

/* For PMUs without PERF_PMU_CAP_NO_EXCLUDE: does the event exclude anything? */
static inline bool event_has_any_exclude_flag(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;

	return attr->exclude_idle || attr->exclude_user || attr->exclude_kernel ||
	       attr->exclude_hv || attr->exclude_guest || attr->exclude_host;
}

/* A sampling event has a period (or a frequency, in the same union). */
static inline bool is_sampling_event(struct perf_event *event)
{
	return event->attr.sample_period != 0;
}

/* Nonzero for an event of a software PMU. */
static inline int is_software_event(struct perf_event *event)
{
	return event->event_caps & PERF_EV_CAP_SOFTWARE;
}

/* Nonzero when the event's context slot is the software one. */
static inline int in_software_context(struct perf_event *event)
{
	return event->pmu_ctx->pmu->task_ctx_nr == perf_sw_context;
}

/* Does the PMU take only one event at a time (PERF_PMU_CAP_EXCLUSIVE)? */
static inline int is_exclusive_pmu(struct pmu *pmu)
{
	return pmu->capabilities & PERF_PMU_CAP_EXCLUSIVE;
}

/* Does the event need branch records, sampled or not? */
static inline bool needs_branch_stack(struct perf_event *event)
{
	return event->attr.branch_sample_type != 0;
}

/* Does the event's PMU write an AUX area? */
static inline bool has_aux(struct perf_event *event)
{
	return event->pmu->setup_aux;
}

/* Does the event act on its group's AUX event (sample, pause, resume)? */
static inline bool has_aux_action(struct perf_event *event)
{
	return event->attr.aux_sample_size || event->attr.aux_pause ||
	       event->attr.aux_resume;
}

/* Does the event fill its ring buffer from the end (attr.write_backward)? */
static inline bool is_write_backward(struct perf_event *event)
{
	return !!event->attr.write_backward;
}

/* Does the event's PMU support address filters? */
static inline bool has_addr_filter(struct perf_event *event)
{
	return event->pmu->nr_addr_filters;
}

/* The filters of an inherited event are its parent's. */
static inline struct perf_addr_filters_head *
perf_event_addr_filters(struct perf_event *event)
{
	if (event->parent)
		return &event->parent->addr_filters;
	return &event->addr_filters;
}

/* Signals for an inherited event go to the fd's owner: the parent. */
static inline struct fasync_struct **perf_event_fasync(struct perf_event *event)
{
	if (event->parent)
		event = event->parent;
	return &event->fasync;
}

/* ---------------------------------------------------------------------
 * For the rest of the kernel.
 */
int perf_event_init_task(struct task_struct *child, u64 clone_flags);
void perf_event_exit_task(struct task_struct *child);
void perf_event_free_task(struct task_struct *task);
void perf_event_delayed_put(struct task_struct *task);
struct file *perf_event_get(unsigned int fd);
const struct perf_event *perf_get_event(struct file *file);
const struct perf_event_attr *perf_event_attrs(struct perf_event *event);
int perf_event_task_disable(void);
int perf_event_task_enable(void);
int perf_event_refresh(struct perf_event *event, int refresh);
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running);

/* Kernel-owned counters (watchdog, KVM, ...). */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t callback,
				 void *context);
int perf_event_release_kernel(struct perf_event *event);
u64 perf_event_read_value(struct perf_event *event,
			  u64 *enabled, u64 *running);
void perf_event_enable(struct perf_event *event);
void perf_event_disable(struct perf_event *event);
void perf_event_disable_local(struct perf_event *event);
void perf_event_disable_inatomic(struct perf_event *event);
int perf_event_period(struct perf_event *event, u64 value);
u64 perf_event_pause(struct perf_event *event, bool reset);

/* Call chains (kernel/events/callchain.c and the arch). */
DECLARE_PER_CPU(struct perf_callchain_entry, perf_callchain_entry);
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs);
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs);
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark);
int get_callchain_buffers(int max_stack);
void put_callchain_buffers(void);
struct perf_callchain_entry *get_callchain_entry(int *rctx);
void put_callchain_entry(int rctx);

extern int sysctl_perf_event_max_stack;
extern int sysctl_perf_event_max_contexts_per_stack;

/* Store a PERF_CONTEXT_* marker; -1 once the marker budget is spent. */
static inline int perf_callchain_store_context(struct perf_callchain_entry_ctx *ctx,
					       u64 ip)
{
	struct perf_callchain_entry *entry = ctx->entry;

	if (ctx->contexts >= sysctl_perf_event_max_contexts_per_stack) {
		ctx->contexts_maxed = true;
		return -1;
	}
	ctx->contexts++;
	entry->ip[entry->nr++] = ip;
	return 0;
}

/* Store one return address; -1 tells the unwinder to stop. */
static inline int perf_callchain_store(struct perf_callchain_entry_ctx *ctx,
				       u64 ip)
{
	struct perf_callchain_entry *entry = ctx->entry;

	if (ctx->contexts_maxed || ctx->nr >= ctx->max_stack)
		return -1;
	ctx->nr++;
	entry->ip[entry->nr++] = ip;
	return 0;
}

/* Software events. */
extern struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr);
int perf_swevent_get_recursion_context(void);
void perf_swevent_put_recursion_context(int rctx);
u64 perf_swevent_set_period(struct perf_event *event);

#ifndef perf_arch_fetch_caller_regs
static inline void perf_arch_fetch_caller_regs(struct pt_regs *regs,
					       unsigned long ip) { }
#endif

/*
 * Registers for an event raised in-line (software events, tracepoints)
 * rather than from an interrupt.  The arch fills what samples need: the
 * ip, the stack pointer for call chains, and whatever user_mode() tests.
 * @regs must be zeroed by the caller.
 */
static inline void perf_fetch_caller_regs(struct pt_regs *regs)
{
	perf_arch_fetch_caller_regs(regs, CALLER_ADDR0);
}

/* Count a software event; costs one patched-out branch while none exists. */
static __always_inline void perf_sw_event(u32 event_id, u64 nr,
					  struct pt_regs *regs, u64 addr)
{
	if (static_key_false(&perf_swevent_enabled[event_id]))
		__perf_sw_event(event_id, nr, regs, addr);
}

/* One register set per recursion level: task, softirq, hardirq, NMI. */
DECLARE_PER_CPU(struct pt_regs, __perf_regs[4]);

/*
 * The scheduler's own software events.  They cannot recurse (the
 * scheduler runs them with preemption off and no other software event
 * schedules), so they use the task-level register set directly.
 */
static __always_inline void
__perf_sw_event_sched(u32 event_id, u64 nr, u64 addr)
{
	struct pt_regs *regs = this_cpu_ptr(&__perf_regs[0]);

	perf_fetch_caller_regs(regs);
	___perf_sw_event(event_id, nr, regs, addr);
}

/* Does any event of software event type @swevt exist? */
static __always_inline bool __perf_sw_enabled(int swevt)
{
	return static_key_false(&perf_swevent_enabled[swevt]);
}

/* Scheduler hooks.  perf_sched_events is on while any task has events. */
extern struct static_key_false perf_sched_events;
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task);
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next);
void perf_event_task_tick(void);

/* Called when @task moves to another CPU; counted when it next runs. */
static inline void perf_event_task_migrate(struct task_struct *task)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS))
		task->sched_migrated = 1;
}

/* @task is about to run on this CPU in place of @prev. */
static inline void
perf_event_task_sched_in(struct task_struct *prev, struct task_struct *task)
{
	bool migrated;

	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_in(prev, task);

	migrated = __perf_sw_enabled(PERF_COUNT_SW_CPU_MIGRATIONS) &&
		   task->sched_migrated;
	if (migrated) {
		task->sched_migrated = 0;
		__perf_sw_event_sched(PERF_COUNT_SW_CPU_MIGRATIONS, 1, 0);
	}
}

/* @prev is about to stop running on this CPU; @next takes its place. */
static inline void
perf_event_task_sched_out(struct task_struct *prev, struct task_struct *next)
{
	if (__perf_sw_enabled(PERF_COUNT_SW_CONTEXT_SWITCHES))
		__perf_sw_event_sched(PERF_COUNT_SW_CONTEXT_SWITCHES, 1, 0);
#ifdef CONFIG_CGROUP_PERF
	if (__perf_sw_enabled(PERF_COUNT_SW_CGROUP_SWITCHES)) {
		struct perf_cgroup *from = perf_cgroup_from_task(prev, NULL);

		if (from != perf_cgroup_from_task(next, NULL))
			__perf_sw_event_sched(PERF_COUNT_SW_CGROUP_SWITCHES, 1, 0);
	}
#endif
	if (static_branch_unlikely(&perf_sched_events))
		__perf_event_task_sched_out(prev, next);
}

/* Side-band notifications. */
void perf_event_mmap(struct vm_area_struct *vma);
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym);
void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags);
void perf_event_exec(void);
void perf_event_comm(struct task_struct *tsk, bool exec);
void perf_event_namespaces(struct task_struct *tsk);
void perf_event_fork(struct task_struct *tsk);
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len);

#ifdef CONFIG_GUEST_PERF_EVENTS
extern struct perf_guest_info_callbacks __rcu *perf_guest_cbs;

/* Static calls to the registered callbacks, for the interrupt paths. */
DECLARE_STATIC_CALL(__perf_guest_handle_intel_pt_intr,
		    *perf_guest_cbs->handle_intel_pt_intr);
DECLARE_STATIC_CALL(__perf_guest_state, *perf_guest_cbs->state);
DECLARE_STATIC_CALL(__perf_guest_get_ip, *perf_guest_cbs->get_ip);

/* PERF_GUEST_* bits for the guest running on this CPU; 0 for none. */
static inline unsigned int perf_guest_state(void)
{
	return static_call(__perf_guest_state)();
}

/* The guest's instruction pointer, for a sample taken while it runs. */
static inline unsigned long perf_guest_get_ip(void)
{
	return static_call(__perf_guest_get_ip)();
}

/* Offer an Intel PT PMI to the guest; nonzero when it was the guest's. */
static inline unsigned int perf_guest_handle_intel_pt_intr(void)
{
	return static_call(__perf_guest_handle_intel_pt_intr)();
}

void perf_register_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);
void perf_unregister_guest_info_callbacks(struct perf_guest_info_callbacks *cbs);
#else
static inline unsigned long perf_guest_get_ip(void) { return 0; }
static inline unsigned int perf_guest_state(void) { return 0; }
static inline unsigned int perf_guest_handle_intel_pt_intr(void) { return 0; }
#endif /* CONFIG_GUEST_PERF_EVENTS */

/* Sysctls and policy. */
extern int sysctl_perf_event_paranoid;		/* kernel.perf_event_paranoid */
extern int sysctl_perf_event_mlock;		/* kernel.perf_event_mlock_kb */
extern int sysctl_perf_event_sample_rate;	/* kernel.perf_event_max_sample_rate */
extern int sysctl_perf_cpu_time_max_percent;	/* kernel.perf_cpu_time_max_percent */

int perf_event_max_sample_rate_handler(const struct ctl_table *table,
				       int write, void *buffer, size_t *lenp,
				       loff_t *ppos);
int perf_cpu_time_max_percent_handler(const struct ctl_table *table,
				      int write, void *buffer, size_t *lenp,
				      loff_t *ppos);
int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos);

/* The LSM hook's request kinds (security_perf_event_open()). */
#define PERF_SECURITY_OPEN		0
#define PERF_SECURITY_CPU		1
#define PERF_SECURITY_KERNEL		2
#define PERF_SECURITY_TRACEPOINT	3

/* kernel.perf_event_paranoid: 3 and above refuse even one's own tasks. */
static inline bool perf_paranoid_any(void)
{
	return sysctl_perf_event_paranoid > 2;
}

/* Any setting above -1 reserves something for privileged users. */
static inline int perf_is_paranoid(void)
{
	return sysctl_perf_event_paranoid > -1;
}

int perf_allow_kernel(void);

/* May the caller open CPU-wide events?  0 or a negative error. */
static inline int perf_allow_cpu(void)
{
	bool restricted = sysctl_perf_event_paranoid > 0;

	if (restricted && !perfmon_capable())
		return -EACCES;
	return security_perf_event_open(PERF_SECURITY_CPU);
}

/* May the caller open tracepoint events?  0 or a negative error. */
static inline int perf_allow_tracepoint(void)
{
	bool restricted = perf_is_paranoid();

	if (restricted && !perfmon_capable())
		return -EPERM;
	return security_perf_event_open(PERF_SECURITY_TRACEPOINT);
}

void perf_event_init(void);
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task);
void perf_bp_event(struct perf_event *event, void *data);

#ifndef perf_misc_flags
/* The generic sample ip and record misc flags: user or kernel, by the regs. */
# define perf_instruction_pointer(regs)	instruction_pointer(regs)
# define perf_misc_flags(regs)					\
		(user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL)
#endif
#ifndef perf_arch_bpf_user_pt_regs
/* What a BPF program sees as its regs: the pt_regs themselves by default. */
# define perf_arch_bpf_user_pt_regs(regs) regs
#endif

#else /* !CONFIG_PERF_EVENTS */

/* Without perf events the hooks do nothing and the lookups fail. */
static inline void *
perf_aux_output_begin(struct perf_output_handle *h, struct perf_event *ev)
{
	return NULL;
}
static inline void
perf_aux_output_end(struct perf_output_handle *h, unsigned long len)	{ }
static inline int
perf_aux_output_skip(struct perf_output_handle *h, unsigned long len)
{
	return -EINVAL;
}
static inline void *perf_get_aux(struct perf_output_handle *h)	{ return NULL; }
static inline void perf_aux_irq_begin(void)				{ }
static inline void perf_aux_irq_end(void)				{ }

/* Scheduler and fork/exit hooks. */
static inline void perf_event_task_migrate(struct task_struct *t)	{ }
static inline void
perf_event_task_sched_in(struct task_struct *p, struct task_struct *t)	{ }
static inline void
perf_event_task_sched_out(struct task_struct *p, struct task_struct *n)	{ }
static inline void perf_event_task_tick(void)			{ }
static inline int
perf_event_init_task(struct task_struct *t, u64 flags)		{ return 0; }
static inline void perf_event_exit_task(struct task_struct *t)	{ }
static inline void perf_event_free_task(struct task_struct *t)	{ }
static inline void perf_event_delayed_put(struct task_struct *t) { }

/* Lookups and reads from other subsystems. */
static inline struct file *perf_event_get(unsigned int fd)
{
	return ERR_PTR(-EINVAL);
}
static inline const struct perf_event *perf_get_event(struct file *f)
{
	return ERR_PTR(-EINVAL);
}
static inline const struct perf_event_attr *
perf_event_attrs(struct perf_event *ev)
{
	return ERR_PTR(-EINVAL);
}
static inline int perf_event_read_local(struct perf_event *ev, u64 *val,
					u64 *ena, u64 *run)
{
	return -EINVAL;
}

/* Control. */
static inline void perf_event_print_debug(void)		{ }
static inline int perf_event_task_disable(void)		{ return -EINVAL; }
static inline int perf_event_task_enable(void)		{ return -EINVAL; }
static inline int perf_event_refresh(struct perf_event *ev, int n)
{
	return -EINVAL;
}
static inline void perf_event_enable(struct perf_event *ev)	{ }
static inline void perf_event_disable(struct perf_event *ev)	{ }
static inline int __perf_event_disable(void *arg)		{ return -1; }
static inline int perf_event_release_kernel(struct perf_event *ev) { return 0; }
static inline int perf_event_period(struct perf_event *ev, u64 val)
{
	return -EINVAL;
}
static inline u64 perf_event_pause(struct perf_event *ev, bool reset)
{
	return 0;
}

/* Software, breakpoint and side-band events. */
static inline void
perf_sw_event(u32 id, u64 nr, struct pt_regs *regs, u64 addr)	{ }
static inline int perf_swevent_get_recursion_context(void)	{ return -1; }
static inline void perf_swevent_put_recursion_context(int rctx) { }
static inline u64 perf_swevent_set_period(struct perf_event *ev) { return 0; }
static inline void perf_bp_event(struct perf_event *bp, void *data) { }
static inline void perf_event_mmap(struct vm_area_struct *area)	{ }
static inline void
perf_event_ksymbol(u16 type, u64 addr, u32 len, bool unreg, const char *name) { }
static inline void
perf_event_bpf_event(struct bpf_prog *p, enum perf_bpf_event_type type, u16 flags) { }
static inline void perf_event_exec(void)			{ }
static inline void perf_event_comm(struct task_struct *t, bool exec) { }
static inline void perf_event_namespaces(struct task_struct *t)	{ }
static inline void perf_event_fork(struct task_struct *t)	{ }
static inline void
perf_event_text_poke(const void *addr, const void *old_insn, size_t old_len,
		     const void *new_insn, size_t new_len)	{ }
static inline void perf_event_init(void)			{ }

/* No guests to report on. */
static inline unsigned long perf_guest_get_ip(void)		{ return 0; }
static inline unsigned int perf_guest_state(void)		{ return 0; }
static inline unsigned int perf_guest_handle_intel_pt_intr(void) { return 0; }
#endif /* CONFIG_PERF_EVENTS */

#if defined(CONFIG_PERF_EVENTS) && defined(CONFIG_CPU_SUP_INTEL)
void perf_restore_debug_store(void);
#else
static inline void perf_restore_debug_store(void) { }
#endif

/* ---------------------------------------------------------------------
 * sysfs descriptions of a PMU's events and formats.
 */
struct perf_pmu_events_attr {
	struct device_attribute	attr;
	u64			id;
	const char		*event_str;
};

/* An event whose encoding depends on whether SMT is on. */
struct perf_pmu_events_ht_attr {
	struct device_attribute	attr;
	u64			id;
	const char		*event_str_ht;		/* with SMT on */
	const char		*event_str_noht;	/* with SMT off */
};

/* An event of a hybrid system, visible on the PMUs in @pmu_type. */
struct perf_pmu_events_hybrid_attr {
	struct device_attribute	attr;
	u64			id;
	const char		*event_str;
	u64			pmu_type;
};

/* A format/ file of a hybrid system, visible on the PMUs in @pmu_type. */
struct perf_pmu_format_hybrid_attr {
	struct device_attribute	attr;
	u64			pmu_type;
};

/* The show function of events/ files that have a fixed string. */
ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *buf);

/* An events/ file whose text a show function computes from @_id. */
#define PMU_EVENT_ATTR(_name, _var, _id, _show)				\
static struct perf_pmu_events_attr _var = {				\
	.id	= _id,							\
	.attr	= __ATTR(_name, 0444, _show, NULL),			\
};

/* An events/ file with a fixed string. */
#define PMU_EVENT_ATTR_STRING(_name, _var, _str)			\
static struct perf_pmu_events_attr _var = {				\
	.event_str	= _str,						\
	.id		= 0,						\
	.attr		= __ATTR(_name, 0444, perf_event_sysfs_show, NULL), \
};

/* An anonymous events/ attribute, for attribute arrays. */
#define PMU_EVENT_ATTR_ID(_name, _show, _id)				\
	(&((struct perf_pmu_events_attr[]) {				\
		{ .id = _id, .attr = __ATTR(_name, 0444, _show, NULL), } \
	})[0].attr.attr)

/* A format/ file: its show function prints @_format. */
#define PMU_FORMAT_ATTR_SHOW(_name, _format)				\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	BUILD_BUG_ON(sizeof(_format) >= PAGE_SIZE);	/* fits the sysfs page */	\
	return sprintf(buf, _format "\n");				\
}

/* The format/ file itself, named format_attr_<name>, and its show function. */
#define PMU_FORMAT_ATTR(_name, _format)					\
	PMU_FORMAT_ATTR_SHOW(_name, _format)				\
	static struct device_attribute format_attr_##_name = __ATTR_RO(_name)

/* CPU hotplug callbacks (CPUHP_PERF_PREPARE, CPUHP_AP_PERF_ONLINE). */
#ifdef CONFIG_PERF_EVENTS
int perf_event_init_cpu(unsigned int cpu);
int perf_event_exit_cpu(unsigned int cpu);
#else
#define perf_event_init_cpu	NULL	/* no callback */
#define perf_event_exit_cpu	NULL	/* no callback */
#endif

/* The arch's chance to fill the user page's time conversion fields. */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now);

/* Taking a branch stack snapshot on demand (BPF). */
typedef int (perf_snapshot_branch_stack_t)(struct perf_branch_entry *buf,
					   unsigned int cnt);
DECLARE_STATIC_CALL(perf_snapshot_branch_stack, perf_snapshot_branch_stack_t);

#ifndef PERF_NEEDS_LOPWR_CB
/* Told when a CPU enters or leaves a low-power state, for PMUs that care. */
static inline void perf_lopwr_cb(bool mode)
{
}
#endif

#endif /* _LINUX_PERF_EVENT_H */
