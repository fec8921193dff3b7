// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: side-band records.
 *
 * Every record kind is one row of perf_sb_defs[] below, in the manner of
 * io_uring's opdef table: the PERF_RECORD_* it writes, the size of its
 * fixed part, which events want it (a test of their attr bits) and the
 * function that writes it.  Two sorts of kinds:
 *
 *  - announced: the rest of the kernel tells perf that something happened
 *    (a mapping, a comm or namespace change, fork and exit, a new cgroup,
 *    a context switch, a kernel symbol, a BPF program, a text poke) and
 *    the record goes to every event that wants it: MMAP and MMAP2, COMM,
 *    FORK, EXIT, NAMESPACES, CGROUP, SWITCH and SWITCH_CPU_WIDE, KSYMBOL,
 *    BPF_EVENT, TEXT_POKE;
 *  - addressed: the kernel names the one event the record is for:
 *    LOST_SAMPLES, THROTTLE, UNTHROTTLE, READ, ITRACE_START, AUX,
 *    AUX_OUTPUT_HW_ID.
 *
 * The table drives the registry too: an event that wants any announced
 * kind is put on a list when it is allocated (perf_event_sb_attach()), and
 * a count per kind lets a hook return at once when nobody listens.
 * Adding a kind is adding a value to enum perf_sb_kind (internal.h), a
 * row, a writer and the hook that calls perf_sb_deliver() or
 * perf_sb_send().
 *
 * PERF_RECORD_LOST is ring_buffer.c's: it is written where the buffer
 * found no room.
 *
 * Context: the announced records come from hooks in task context (mmap
 * with the mmap lock held, exec, fork, exit, namespace and cgroup
 * changes, BPF loads, text pokes; these may sleep before delivery, to
 * allocate a path), except SWITCH, which comes from the context switch
 * with IRQs off and the runqueue locked.  Delivery itself runs under RCU
 * with preemption off.  The addressed records come from the overflow
 * path (THROTTLE; LOST_SAMPLES from a driver's PEBS drain), which may be
 * an NMI, from the tick or a sched in with the context locked
 * (UNTHROTTLE, ITRACE_START), from a PMU driver (AUX, committed from
 * its start, stop or interrupt; AUX_OUTPUT_HW_ID) or
 * from task exit (READ).  So no writer
 * may sleep.  perf_sb_send() is inlined with a constant kind, so that the
 * compiler calls an addressed kind's writer directly: the overflow path
 * pays no indirect call for the table.
 *
 * Locks: perf_sb_lock (raw, IRQs off) serialises attach and detach; it is
 * a leaf, taken under whatever the alloc and free paths hold.  Delivery
 * takes no lock at all, and the ring buffer is reserved locklessly, as
 * for samples.
 */
#include <linux/bpf.h>
#include <linux/buildid.h>
#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/export.h>
#include <linux/hugetlb.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/proc_ns.h>
#include <linux/slab.h>

#include "internal.h"

/* ======================================================================
 * The record kinds
 */

/*
 * The fixed part of each record as it goes into the buffer, header first.
 * A name, path or payload may follow it, then the sample_id trailer.
 */
struct perf_mmap_record {
	struct perf_event_header	header;
	u32				pid;
	u32				tid;
	u64				start;
	u64				len;
	u64				pgoff;
};

/* What MMAP2 adds to MMAP's fixed part; the build id form has 24 bytes too. */
struct perf_mmap2_ext {
	union {
		struct {
			u32	maj;
			u32	min;
			u64	ino;
			u64	ino_generation;
		};
		struct {
			u8	size;
			u8	pad[3];
			u8	id[BUILD_ID_SIZE_MAX];
		} bid;
	};
	u32	prot;
	u32	flags;
};

/* COMM, READ and ITRACE_START: the task, and whatever follows. */
struct perf_pid_tid_record {
	struct perf_event_header	header;
	u32				pid;
	u32				tid;
};

struct perf_task_record {
	struct perf_event_header	header;
	u32				pid;
	u32				ppid;
	u32				tid;
	u32				ptid;
	u64				time;
};

struct perf_ns_record {
	struct perf_event_header	header;
	u32				pid;
	u32				tid;
	u64				nr_namespaces;
};

struct perf_cgroup_record {
	struct perf_event_header	header;
	u64				id;
};

/* SWITCH_CPU_WIDE; SWITCH is the header alone. */
struct perf_switch_record {
	struct perf_event_header	header;
	u32				next_prev_pid;
	u32				next_prev_tid;
};

struct perf_ksym_record {
	struct perf_event_header	header;
	u64				addr;
	u32				len;
	u16				ksym_type;
	u16				flags;
};

/* BPF_EVENT's body, which is also what the hook hands the writer. */
struct perf_sb_bpf_info {
	u16	type;
	u16	flags;
	u32	id;
	u8	tag[BPF_TAG_SIZE];
};

struct perf_bpf_record {
	struct perf_event_header	header;
	struct perf_sb_bpf_info		body;
};

/* The old and new bytes follow right after new_len, unaligned. */
struct perf_poke_record {
	struct perf_event_header	header;
	u64				addr;
	u16				old_len;
	u16				new_len;
} __packed;

struct perf_lost_samples_record {
	struct perf_event_header	header;
	u64				lost;
};

struct perf_throttle_record {
	struct perf_event_header	header;
	u64				time;
	u64				id;
	u64				stream_id;
};

struct perf_aux_id_record {
	struct perf_event_header	header;
	u64				hw_id;
};

/* PERF_RECORD_AUX: where in the AUX area new data landed, and how. */
struct perf_aux_record {
	struct perf_event_header	header;
	u64				aux_offset;
	u64				aux_size;
	u64				flags;
};

/**
 * struct perf_sb_def - what perf knows about one side-band record kind
 * @type: the PERF_RECORD_* written; MMAP and SWITCH have a second form
 *	(MMAP2 for attr.mmap2, SWITCH_CPU_WIDE for a CPU-wide event) that
 *	their writer picks
 * @size: bytes of the fixed part, header included
 * @wants: does an event with this attr want records of this kind?  Asked
 *	when the event is attached, for the count of each kind, and again at
 *	each delivery; so it may look at attr bits only.  NULL for an
 *	addressed kind.
 * @write: write one record for @event; @info is what the hook saw.  A
 *	writer may still skip an event that wants the kind but not this
 *	particular record (an MMAP of data for an event without mmap_data).
 */
struct perf_sb_def {
	u32	type;
	u16	size;
	bool	(*wants)(const struct perf_event_attr *attr);
	void	(*write)(struct perf_event *event,
			 const struct perf_sb_def *def, void *info);
};

/*
 * Who wants what: the attr bits that ask for each announced kind.  FORK
 * and EXIT also go to comm and mmap users, who need them to tell which
 * task a name or mapping belongs to.
 */
static bool perf_wants_mmap(const struct perf_event_attr *a)
{
	return a->mmap || a->mmap2 || a->mmap_data;
}

static bool perf_wants_mmap_build_id(const struct perf_event_attr *a)
{
	return a->mmap2 && a->build_id;
}

static bool perf_wants_comm(const struct perf_event_attr *a)
{
	return a->comm;
}

static bool perf_wants_task(const struct perf_event_attr *a)
{
	return a->comm || a->mmap || a->mmap2 || a->mmap_data || a->task;
}

static bool perf_wants_namespaces(const struct perf_event_attr *a)
{
	return a->namespaces;
}

static bool perf_wants_cgroup(const struct perf_event_attr *a)
{
	return a->cgroup;
}

static bool perf_wants_switch(const struct perf_event_attr *a)
{
	return a->context_switch;
}

static bool perf_wants_ksymbol(const struct perf_event_attr *a)
{
	return a->ksymbol;
}

static bool perf_wants_bpf_event(const struct perf_event_attr *a)
{
	return a->bpf_event;
}

static bool perf_wants_text_poke(const struct perf_event_attr *a)
{
	return a->text_poke;
}

/* The writers, each next to the hook that calls it, further down. */
static void perf_mmap_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info);
static void perf_comm_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info);
static void perf_task_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info);
static void perf_ns_write(struct perf_event *event,
			  const struct perf_sb_def *def, void *info);
static void perf_cgroup_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info);
static void perf_switch_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info);
static void perf_ksym_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info);
static void perf_bpf_write(struct perf_event *event,
			   const struct perf_sb_def *def, void *info);
static void perf_poke_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info);
static void perf_lost_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info);
static void perf_throttle_write(struct perf_event *event,
				const struct perf_sb_def *def, void *info);
static void perf_read_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info);
static void perf_itrace_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info);
static void perf_aux_write(struct perf_event *event,
			   const struct perf_sb_def *def, void *info);
static void perf_aux_id_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info);

static const struct perf_sb_def perf_sb_defs[PERF_SB_NR] = {
	/* announced */
	[PERF_SB_MMAP] = {
		.type	= PERF_RECORD_MMAP,
		.size	= sizeof(struct perf_mmap_record),
		.wants	= perf_wants_mmap,
		.write	= perf_mmap_write,
	},
	/*
	 * Not a record of its own: MMAP2 with a build id in place of the
	 * device and inode, written by perf_mmap_write().  A kind apart so
	 * that perf_event_mmap() reads a file's build id only when someone
	 * will use it.
	 */
	[PERF_SB_MMAP_BUILD_ID] = {
		.type	= PERF_RECORD_MMAP2,
		.size	= sizeof(struct perf_mmap_record) +
			  sizeof(struct perf_mmap2_ext),
		.wants	= perf_wants_mmap_build_id,
	},
	[PERF_SB_COMM] = {
		.type	= PERF_RECORD_COMM,
		.size	= sizeof(struct perf_pid_tid_record),
		.wants	= perf_wants_comm,
		.write	= perf_comm_write,
	},
	[PERF_SB_FORK] = {
		.type	= PERF_RECORD_FORK,
		.size	= sizeof(struct perf_task_record),
		.wants	= perf_wants_task,
		.write	= perf_task_write,
	},
	[PERF_SB_EXIT] = {
		.type	= PERF_RECORD_EXIT,
		.size	= sizeof(struct perf_task_record),
		.wants	= perf_wants_task,
		.write	= perf_task_write,
	},
	[PERF_SB_NAMESPACES] = {
		.type	= PERF_RECORD_NAMESPACES,
		.size	= sizeof(struct perf_ns_record),
		.wants	= perf_wants_namespaces,
		.write	= perf_ns_write,
	},
	[PERF_SB_CGROUP] = {
		.type	= PERF_RECORD_CGROUP,
		.size	= sizeof(struct perf_cgroup_record),
		.wants	= perf_wants_cgroup,
		.write	= perf_cgroup_write,
	},
	[PERF_SB_SWITCH] = {
		.type	= PERF_RECORD_SWITCH,
		.size	= sizeof(struct perf_event_header),
		.wants	= perf_wants_switch,
		.write	= perf_switch_write,
	},
	[PERF_SB_KSYMBOL] = {
		.type	= PERF_RECORD_KSYMBOL,
		.size	= sizeof(struct perf_ksym_record),
		.wants	= perf_wants_ksymbol,
		.write	= perf_ksym_write,
	},
	[PERF_SB_BPF_EVENT] = {
		.type	= PERF_RECORD_BPF_EVENT,
		.size	= sizeof(struct perf_bpf_record),
		.wants	= perf_wants_bpf_event,
		.write	= perf_bpf_write,
	},
	[PERF_SB_TEXT_POKE] = {
		.type	= PERF_RECORD_TEXT_POKE,
		.size	= sizeof(struct perf_poke_record),
		.wants	= perf_wants_text_poke,
		.write	= perf_poke_write,
	},
	/* addressed */
	[PERF_SB_LOST_SAMPLES] = {
		.type	= PERF_RECORD_LOST_SAMPLES,
		.size	= sizeof(struct perf_lost_samples_record),
		.write	= perf_lost_write,
	},
	[PERF_SB_THROTTLE] = {
		.type	= PERF_RECORD_THROTTLE,
		.size	= sizeof(struct perf_throttle_record),
		.write	= perf_throttle_write,
	},
	[PERF_SB_UNTHROTTLE] = {
		.type	= PERF_RECORD_UNTHROTTLE,
		.size	= sizeof(struct perf_throttle_record),
		.write	= perf_throttle_write,
	},
	/* The read_format payload follows; its size is the event's. */
	[PERF_SB_READ] = {
		.type	= PERF_RECORD_READ,
		.size	= sizeof(struct perf_pid_tid_record),
		.write	= perf_read_write,
	},
	[PERF_SB_ITRACE_START] = {
		.type	= PERF_RECORD_ITRACE_START,
		.size	= sizeof(struct perf_pid_tid_record),
		.write	= perf_itrace_write,
	},
	[PERF_SB_AUX] = {
		.type	= PERF_RECORD_AUX,
		.size	= sizeof(struct perf_aux_record),
		.write	= perf_aux_write,
	},
	[PERF_SB_AUX_OUTPUT_HW_ID] = {
		.type	= PERF_RECORD_AUX_OUTPUT_HW_ID,
		.size	= sizeof(struct perf_aux_id_record),
		.write	= perf_aux_id_write,
	},
};

/* The fixed parts are ABI: a change of layout shows here first. */
static_assert(sizeof(struct perf_mmap_record) == 40);
static_assert(sizeof(struct perf_mmap2_ext) == 32);
static_assert(sizeof(struct perf_pid_tid_record) == 16);
static_assert(sizeof(struct perf_task_record) == 32);
static_assert(sizeof(struct perf_ns_record) == 24);
static_assert(sizeof(struct perf_cgroup_record) == 16);
static_assert(sizeof(struct perf_switch_record) == 16);
static_assert(sizeof(struct perf_ksym_record) == 24);
static_assert(sizeof(struct perf_bpf_record) == 24);
static_assert(sizeof(struct perf_poke_record) == 20);
static_assert(sizeof(struct perf_lost_samples_record) == 16);
static_assert(sizeof(struct perf_throttle_record) == 32);
static_assert(sizeof(struct perf_aux_id_record) == 16);
static_assert(sizeof(struct perf_aux_record) == 32);

/* ======================================================================
 * Writing a record
 */

/* Start a non-sample record of @size bytes plus the sample_id trailer. */
static int perf_sb_begin(struct perf_output_handle *handle,
			 struct perf_sample_data *sample,
			 struct perf_event *event,
			 struct perf_event_header *header,
			 u32 type, u16 misc, u16 size)
{
	header->type = type;
	header->misc = misc;
	header->size = size;
	perf_event_header__init_id(header, sample, event);
	return perf_output_begin(handle, sample, event, header->size);
}

static void perf_sb_finish(struct perf_output_handle *handle,
			   struct perf_sample_data *sample,
			   struct perf_event *event)
{
	perf_event__output_id_sample(event, handle, sample);
	perf_output_end(handle);
}

/*
 * Write a whole record of @def's kind with its sample_id trailer: the
 * fixed part (@header first, @def->size bytes in all), then @tail_size
 * bytes from @tail (a name or path, already padded to 8 bytes); dropped,
 * and counted lost, if there is no room.
 */
static void perf_sb_emit_tail(struct perf_event *event,
			      const struct perf_sb_def *def,
			      struct perf_event_header *header, u16 misc,
			      const void *tail, u16 tail_size)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;

	if (perf_sb_begin(&handle, &sample, event, header, def->type, misc,
			  def->size + tail_size))
		return;
	perf_output_copy(&handle, header, def->size);
	if (tail_size)
		perf_output_copy(&handle, tail, tail_size);
	perf_sb_finish(&handle, &sample, event);
}

/* A record that is all fixed part. */
static void perf_sb_emit(struct perf_event *event,
			 const struct perf_sb_def *def,
			 struct perf_event_header *header)
{
	perf_sb_emit_tail(event, def, header, 0, NULL, 0);
}

/* Pad a NUL-terminated string in @buf to a multiple of 8 with zeros. */
static unsigned int perf_pad_string(char *buf)
{
	unsigned int len = strlen(buf) + 1;
	unsigned int padded = ALIGN(len, sizeof(u64));

	memset(buf + len, 0, padded - len);
	return padded;
}

/* ======================================================================
 * Who gets a record
 */

/*
 * Events that want announced records are on one of these RCU lists: the
 * list of their CPU, or for events that follow a task on any CPU the
 * global one.  A record is offered to both lists of the CPU it happens on.
 * Writers (attach, detach) take perf_sb_lock; the per-CPU heads are set up
 * on first use, so that attaching needs no init hook.
 */
static DEFINE_RAW_SPINLOCK(perf_sb_lock);
static LIST_HEAD(perf_sb_any_cpu);
static DEFINE_PER_CPU(struct list_head, perf_sb_on_cpu);
static bool perf_sb_ready;

/* How many attached events want each announced kind (perf_sb_wanted()). */
atomic_t perf_sb_nr[PERF_SB_NR_ANNOUNCED];

/*
 * The announced kinds @attr asks for, one bit per kind.  Asked once per
 * event, when it is attached, and not even then for an inherited copy,
 * which has its origin's attr: every fork of an inheriting event attaches
 * and detaches a copy, and every record offered walks the attached ones.
 */
static unsigned int perf_sb_kinds_of(const struct perf_event_attr *attr)
{
	unsigned int kinds = 0;
	int kind;

	BUILD_BUG_ON(PERF_SB_NR_ANNOUNCED > 32);
	for (kind = 0; kind < PERF_SB_NR_ANNOUNCED; kind++) {
		if (perf_sb_defs[kind].wants(attr))
			kinds |= BIT(kind);
	}
	return kinds;
}

/* Add @delta to the count of every announced kind @event wants. */
static void perf_sb_count(struct perf_event *event, int delta)
{
	unsigned long kinds = event->sb_kinds;
	int kind;

	for_each_set_bit(kind, &kinds, PERF_SB_NR_ANNOUNCED)
		atomic_add(delta, &perf_sb_nr[kind]);
}

static struct list_head *perf_sb_head(int cpu)
{
	return cpu < 0 ? &perf_sb_any_cpu : per_cpu_ptr(&perf_sb_on_cpu, cpu);
}

/**
 * perf_event_sb_attach() - start offering announced records to @event
 * @event: a new event; its attr says which records it wants
 */
void perf_event_sb_attach(struct perf_event *event)
{
	unsigned long flags;
	int cpu;

	event->sb_kinds = event->parent ? event->parent->sb_kinds :
			  perf_sb_kinds_of(&event->attr);
	if (!event->sb_kinds)
		return;

	raw_spin_lock_irqsave(&perf_sb_lock, flags);
	if (!perf_sb_ready) {
		for_each_possible_cpu(cpu)
			INIT_LIST_HEAD(per_cpu_ptr(&perf_sb_on_cpu, cpu));
		/* Readers that see the flag see initialised heads. */
		smp_store_release(&perf_sb_ready, true);
	}
	list_add_rcu(&event->sb_list, perf_sb_head(event->cpu));
	perf_sb_count(event, 1);
	raw_spin_unlock_irqrestore(&perf_sb_lock, flags);
}

/**
 * perf_event_sb_detach() - stop offering announced records to @event
 * @event: the event; it may be freed only after an RCU grace period
 *
 * Safe for an event that was never attached, and to call twice.
 */
void perf_event_sb_detach(struct perf_event *event)
{
	unsigned long flags;

	if (!event->sb_kinds)
		return;

	raw_spin_lock_irqsave(&perf_sb_lock, flags);
	/* prev is NULL for a zeroed (never attached) or detached event. */
	if (event->sb_list.prev && !list_empty(&event->sb_list)) {
		list_del_rcu(&event->sb_list);
		/* Readers only follow ->next; this marks "detached". */
		event->sb_list.prev = NULL;
		perf_sb_count(event, -1);
	}
	raw_spin_unlock_irqrestore(&perf_sb_lock, flags);
}

/*
 * May @event see a record that happens now, on this CPU?  It must be
 * enabled, in a context (not half set up), bound to no other CPU or
 * cgroup, and, for a task event, be the event of the task that runs.
 * Whether its PMU counts on this CPU does not matter: a task's mmap on
 * an E-core is the task's all the same.
 */
static bool perf_sb_visible(struct perf_event *event)
{
	/* Pairs with the install that publishes ctx once it is complete. */
	struct perf_event_context *ctx = smp_load_acquire(&event->ctx);
	struct task_struct *task;

	if (!ctx || READ_ONCE(event->state) < PERF_EVENT_STATE_INACTIVE)
		return false;
	task = READ_ONCE(ctx->task);
	if (task && task != current)
		return false;
	return perf_event_cpu_match(event);
}

static void perf_sb_walk(struct list_head *head, enum perf_sb_kind kind,
			 void *info)
{
	const struct perf_sb_def *def = &perf_sb_defs[kind];
	struct perf_event *event;

	list_for_each_entry_rcu(event, head, sb_list) {
		if ((event->sb_kinds & BIT(kind)) && perf_sb_visible(event))
			def->write(event, def, info);
	}
}

/*
 * Offer a record of an announced @kind to every event that wants it and
 * can see it; @info is what the hook saw, for the kind's writer.
 */
static void perf_sb_deliver(enum perf_sb_kind kind, void *info)
{
	/* Pairs with perf_event_sb_attach(): the heads are initialised. */
	if (!smp_load_acquire(&perf_sb_ready))
		return;

	rcu_read_lock();
	preempt_disable();
	perf_sb_walk(this_cpu_ptr(&perf_sb_on_cpu), kind, info);
	perf_sb_walk(&perf_sb_any_cpu, kind, info);
	preempt_enable();
	rcu_read_unlock();
}

/*
 * Write a record of an addressed @kind for @event.  Inline with a
 * constant @kind, so that the compiler calls the writer directly: the
 * overflow path may be in an NMI.
 */
static __always_inline void perf_sb_send(struct perf_event *event,
					 enum perf_sb_kind kind, void *info)
{
	const struct perf_sb_def *def = &perf_sb_defs[kind];

	def->write(event, def, info);
}

/* ======================================================================
 * Records addressed to one event
 */

static void perf_lost_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info)
{
	struct perf_lost_samples_record rec = { .lost = *(u64 *)info };

	perf_sb_emit(event, def, &rec.header);
}

/**
 * perf_log_lost_samples() - PERF_RECORD_LOST_SAMPLES
 * @event: the event that dropped samples
 * @lost: how many
 */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	perf_sb_send(event, PERF_SB_LOST_SAMPLES, &lost);
}

/* THROTTLE and UNTHROTTLE: the same record under two types. */
static void perf_throttle_write(struct perf_event *event,
				const struct perf_sb_def *def, void *info)
{
	struct perf_throttle_record rec = {
		.time		= perf_event_now(event),
		.id		= perf_event_primary(event)->id,
		.stream_id	= event->id,
	};

	perf_sb_emit(event, def, &rec.header);
}

/**
 * perf_log_throttle() - PERF_RECORD_THROTTLE or PERF_RECORD_UNTHROTTLE
 * @event: the event
 * @enable: nonzero for UNTHROTTLE (sampling resumes)
 */
void perf_log_throttle(struct perf_event *event, int enable)
{
	if (enable)
		perf_sb_send(event, PERF_SB_UNTHROTTLE, NULL);
	else
		perf_sb_send(event, PERF_SB_THROTTLE, NULL);
}

static void perf_read_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info)
{
	struct task_struct *task = info;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct perf_pid_tid_record rec = {
		.pid = perf_event_pid(event, task),
		.tid = perf_event_tid(event, task),
	};

	if (perf_sb_begin(&handle, &sample, event, &rec.header, def->type, 0,
			  def->size + event->read_size))
		return;
	handle.skip_read = 0;
	perf_output_put(&handle, rec);
	perf_output_read(&handle, event);
	perf_sb_finish(&handle, &sample, event);
}

/**
 * perf_event_read_event() - PERF_RECORD_READ for an exiting child's counts
 * @event: the inherited event (attr.inherit_stat)
 * @task: the task that exits
 */
void perf_event_read_event(struct perf_event *event, struct task_struct *task)
{
	perf_sb_send(event, PERF_SB_READ, task);
}

/**
 * perf_event_itrace_started() - an instruction-trace PMU started tracing
 * @event: the event
 *
 * Once set, no PERF_RECORD_ITRACE_START is written for the event.
 */
void perf_event_itrace_started(struct perf_event *event)
{
	event->attach_state |= PERF_ATTACH_ITRACE;
}

static void perf_itrace_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info)
{
	struct perf_pid_tid_record rec;

	rec.pid = perf_event_pid(event, current);
	rec.tid = perf_event_tid(event, current);
	perf_sb_emit(event, def, &rec.header);
}

/**
 * perf_log_itrace_start_record() - PERF_RECORD_ITRACE_START for a trace
 *	PMU event (perf_log_itrace_start() asks whether it is one)
 * @event: the event about to be added to its PMU
 *
 * Written once, before the PMU reports tracing as started, so that the
 * decoder learns which task the trace that follows belongs to.
 */
void perf_log_itrace_start_record(struct perf_event *event)
{
	event = perf_event_primary(event);
	if (event->attach_state & PERF_ATTACH_ITRACE)
		return;
	perf_sb_send(event, PERF_SB_ITRACE_START, NULL);
}

static void perf_aux_write(struct perf_event *event,
			   const struct perf_sb_def *def, void *info)
{
	struct perf_aux_record *rec = info;

	perf_sb_emit(event, def, &rec->header);
}

/**
 * perf_log_aux() - PERF_RECORD_AUX
 * @event: the event whose PMU committed AUX data (a child's goes to its
 *	parent's buffer with its own sample_id)
 * @offset: where the data starts in the AUX area (in overwrite mode,
 *	where it ends: the PMU's position, as upstream reports it)
 * @size: bytes committed
 * @flags: PERF_AUX_FLAG_*
 */
void perf_log_aux(struct perf_event *event, u64 offset, u64 size, u64 flags)
{
	struct perf_aux_record rec = {
		.aux_offset	= offset,
		.aux_size	= size,
		.flags		= flags,
	};

	perf_sb_send(event, PERF_SB_AUX, &rec);
}

static void perf_aux_id_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info)
{
	struct perf_aux_id_record rec = { .hw_id = *(u64 *)info };

	perf_sb_emit(event, def, &rec.header);
}

/**
 * perf_report_aux_output_id() - PERF_RECORD_AUX_OUTPUT_HW_ID
 * @event: the event whose AUX data the hardware tags
 * @hw_id: the hardware's id for it
 */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
	perf_sb_send(perf_event_primary(event), PERF_SB_AUX_OUTPUT_HW_ID,
		     &hw_id);
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);

/* ======================================================================
 * Records announced to every event that wants them
 */

/* --- FORK and EXIT --- */

static void perf_task_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info)
{
	struct task_struct *task = info, *parent;
	struct perf_task_record rec;

	rec.pid = perf_event_pid(event, task);
	rec.tid = perf_event_tid(event, task);
	if (def->type == PERF_RECORD_FORK) {
		/* The forking task is the one running. */
		rec.ppid = perf_event_pid(event, current);
		rec.ptid = perf_event_tid(event, current);
	} else {
		/* An exit names the parent process in both fields. */
		parent = rcu_dereference(task->real_parent);
		rec.ppid = perf_event_pid(event, parent);
		rec.ptid = rec.ppid;
	}
	rec.time = perf_event_now(event);

	perf_sb_emit(event, def, &rec.header);
}

/**
 * perf_event_fork() - side-band records for a new task
 * @tsk: the child, not yet running; current is its parent
 */
void perf_event_fork(struct task_struct *tsk)
{
	if (perf_sb_wanted(PERF_SB_FORK))
		perf_sb_deliver(PERF_SB_FORK, tsk);
	perf_event_namespaces(tsk);
}

/**
 * perf_event_task_exit_output() - PERF_RECORD_EXIT for an exiting task
 * @task: the task, which is current
 *
 * Call it while the task's own events are still in their context (after
 * they stopped counting), so that they see the record too.
 */
void perf_event_task_exit_output(struct task_struct *task)
{
	if (perf_sb_wanted(PERF_SB_EXIT))
		perf_sb_deliver(PERF_SB_EXIT, task);
}

/* --- COMM --- */

struct perf_sb_comm_info {
	struct task_struct	*task;
	char			*comm;
	unsigned int		size;
	bool			exec;
};

static void perf_comm_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info)
{
	struct perf_sb_comm_info *ci = info;
	struct perf_pid_tid_record rec;

	rec.pid = perf_event_pid(event, ci->task);
	rec.tid = perf_event_tid(event, ci->task);
	perf_sb_emit_tail(event, def, &rec.header,
			  ci->exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
			  ci->comm, ci->size);
}

/**
 * perf_event_comm() - PERF_RECORD_COMM after a task's name changed
 * @tsk: the task
 * @exec: the change comes from exec()
 */
void perf_event_comm(struct task_struct *tsk, bool exec)
{
	char name[ALIGN(TASK_COMM_LEN, sizeof(u64))];
	struct perf_sb_comm_info ci = { .task = tsk, .comm = name, .exec = exec };

	if (!perf_sb_wanted(PERF_SB_COMM))
		return;

	/* Unlocked, as the name may change under us: at worst a torn name. */
	strscpy_pad(name, tsk->comm, sizeof(name));
	ci.size = perf_pad_string(name);
	perf_sb_deliver(PERF_SB_COMM, &ci);
}

/* --- NAMESPACES --- */

struct perf_sb_ns_info {
	struct task_struct	*task;
	struct perf_ns_link_info links[NR_NAMESPACES];
};

static void perf_ns_write(struct perf_event *event,
			  const struct perf_sb_def *def, void *info)
{
	struct perf_sb_ns_info *ni = info;
	struct perf_ns_record rec;

	rec.pid = perf_event_pid(event, ni->task);
	rec.tid = perf_event_tid(event, ni->task);
	rec.nr_namespaces = NR_NAMESPACES;
	perf_sb_emit_tail(event, def, &rec.header, 0,
			  ni->links, sizeof(ni->links));
}

/* Namespaces a task has, in the ABI's index order where configured. */
static const struct {
	unsigned int				idx;
	const struct proc_ns_operations		*ops;
} perf_ns_kinds[] = {
#ifdef CONFIG_NET_NS
	{ NET_NS_INDEX,		&netns_operations },
#endif
#ifdef CONFIG_UTS_NS
	{ UTS_NS_INDEX,		&utsns_operations },
#endif
#ifdef CONFIG_IPC_NS
	{ IPC_NS_INDEX,		&ipcns_operations },
#endif
#ifdef CONFIG_PID_NS
	{ PID_NS_INDEX,		&pidns_operations },
#endif
#ifdef CONFIG_USER_NS
	{ USER_NS_INDEX,	&userns_operations },
#endif
	{ MNT_NS_INDEX,		&mntns_operations },
#ifdef CONFIG_CGROUPS
	{ CGROUP_NS_INDEX,	&cgroupns_operations },
#endif
};

/**
 * perf_event_namespaces() - PERF_RECORD_NAMESPACES for a task
 * @tsk: the task (new, or having changed namespaces)
 *
 * Each namespace is named by the device and inode of its nsfs file;
 * kinds the kernel does not have are reported as zeros.
 */
void perf_event_namespaces(struct task_struct *tsk)
{
	struct perf_sb_ns_info ni = { .task = tsk };
	struct path ns_path;
	unsigned int i;

	if (!perf_sb_wanted(PERF_SB_NAMESPACES))
		return;

	for (i = 0; i < ARRAY_SIZE(perf_ns_kinds); i++) {
		struct perf_ns_link_info *link = &ni.links[perf_ns_kinds[i].idx];
		struct inode *inode;

		if (ns_get_path(&ns_path, tsk, perf_ns_kinds[i].ops))
			continue;
		inode = d_inode(ns_path.dentry);
		link->dev = new_encode_dev(inode->i_sb->s_dev);
		link->ino = inode->i_ino;
		path_put(&ns_path);
	}
	perf_sb_deliver(PERF_SB_NAMESPACES, &ni);
}

/* --- CGROUP --- */

struct perf_sb_cgroup_info {
	u64		id;
	char		*path;
	unsigned int	size;
};

/* In the table whatever the config; only the hook needs cgroup support. */
static void perf_cgroup_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info)
{
	struct perf_sb_cgroup_info *ci = info;
	struct perf_cgroup_record rec = { .id = ci->id };

	perf_sb_emit_tail(event, def, &rec.header, 0, ci->path, ci->size);
}

#ifdef CONFIG_CGROUP_PERF
/**
 * perf_event_cgroup() - PERF_RECORD_CGROUP for a cgroup coming online
 * @cgrp: the cgroup
 *
 * Tells tools which path a cgroup id (PERF_SAMPLE_CGROUP) stands for.
 */
void perf_event_cgroup(struct cgroup *cgrp)
{
	struct perf_sb_cgroup_info ci = { .id = cgroup_id(cgrp) };
	char fallback[16] = "//enomem";
	char *buf;

	if (!perf_sb_wanted(PERF_SB_CGROUP))
		return;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	ci.path = fallback;
	if (buf) {
		/* Leave room to pad the name to 8 bytes. */
		cgroup_path(cgrp, buf, PATH_MAX - sizeof(u64));
		ci.path = buf;
	}
	ci.size = perf_pad_string(ci.path);
	perf_sb_deliver(PERF_SB_CGROUP, &ci);
	kfree(buf);
}
#else
void perf_event_cgroup(struct cgroup *cgrp)
{
}
#endif

/* --- MMAP and MMAP2 --- */

struct perf_sb_mmap_info {
	struct vm_area_struct	*vma;
	const char		*name;
	unsigned int		name_size;
	u32			maj, min;
	u64			ino, ino_generation;
	u32			prot, flags;
	u32			build_id_size;
	u8			build_id[BUILD_ID_SIZE_MAX];
};

static void perf_mmap_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info)
{
	struct perf_sb_mmap_info *mi = info;
	struct vm_area_struct *vma = mi->vma;
	struct perf_event_attr *a = &event->attr;
	bool exec = vma->vm_flags & VM_EXEC;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	u16 misc = PERF_RECORD_MISC_USER;
	u32 type = def->type;
	bool with_build_id = false;
	struct perf_mmap_record rec;
	struct perf_mmap2_ext ext;
	u16 size = def->size + mi->name_size;

	/* Executable mappings for mmap/mmap2, the others for mmap_data. */
	if (exec ? !(a->mmap || a->mmap2) : !a->mmap_data)
		return;

	if (!exec)
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (a->mmap2) {
		type = PERF_RECORD_MMAP2;
		size += sizeof(ext);
		with_build_id = a->build_id && mi->build_id_size;
		if (with_build_id)
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	}

	rec.pid = perf_event_pid(event, current);
	rec.tid = perf_event_tid(event, current);
	rec.start = vma->vm_start;
	rec.len = vma->vm_end - vma->vm_start;
	rec.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;

	if (perf_sb_begin(&handle, &sample, event, &rec.header, type, misc,
			  size))
		return;
	perf_output_put(&handle, rec);
	if (a->mmap2) {
		memset(&ext, 0, sizeof(ext));
		if (with_build_id) {
			ext.bid.size = mi->build_id_size;
			memcpy(ext.bid.id, mi->build_id, BUILD_ID_SIZE_MAX);
		} else {
			ext.maj = mi->maj;
			ext.min = mi->min;
			ext.ino = mi->ino;
			ext.ino_generation = mi->ino_generation;
		}
		ext.prot = mi->prot;
		ext.flags = mi->flags;
		perf_output_put(&handle, ext);
	}
	perf_output_copy(&handle, mi->name, mi->name_size);
	perf_sb_finish(&handle, &sample, event);
}

/* The prot and flags of mmap(2) that describe @vma. */
static void perf_vma_prot_flags(struct vm_area_struct *vma, u32 *prot,
				u32 *flags)
{
	vm_flags_t vmf = vma->vm_flags;

	*prot = (vmf & VM_READ ? PROT_READ : 0) |
		(vmf & VM_WRITE ? PROT_WRITE : 0) |
		(vmf & VM_EXEC ? PROT_EXEC : 0);
	*flags = (vmf & VM_MAYSHARE) ? MAP_SHARED : MAP_PRIVATE;
	if (vmf & VM_LOCKED)
		*flags |= MAP_LOCKED;
	if (is_vm_hugetlb_page(vma))
		*flags |= MAP_HUGETLB;
}

/* A name for a mapping without a file: the special mapping's, or a kind. */
static const char *perf_anon_vma_name(struct vm_area_struct *vma)
{
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma_is_initial_heap(vma))
		return "[heap]";
	if (vma_is_initial_stack(vma))
		return "[stack]";
	return "//anon";
}

/**
 * perf_event_mmap() - PERF_RECORD_MMAP/MMAP2 for a new mapping of current
 * @vma: the mapping, with the mmap lock held
 */
void perf_event_mmap(struct vm_area_struct *vma)
{
	struct perf_sb_mmap_info mi = { .vma = vma };
	struct file *file = vma->vm_file;
	char small[16];
	char *buf = NULL;
	char *name;

	if (!perf_sb_wanted(PERF_SB_MMAP))
		return;

	perf_vma_prot_flags(vma, &mi.prot, &mi.flags);

	if (file) {
		const struct inode *inode = file_user_inode(file);

		buf = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!buf) {
			strscpy(small, "//enomem", sizeof(small));
			name = small;
			goto named;
		}
		/* d_path() fills from the end: keep 8 bytes for the padding. */
		name = d_path(file_user_path(file), buf,
			      PATH_MAX - sizeof(u64));
		if (IS_ERR(name)) {
			strscpy(small, "//toolong", sizeof(small));
			name = small;
			goto named;
		}
		mi.maj = MAJOR(inode->i_sb->s_dev);
		mi.min = MINOR(inode->i_sb->s_dev);
		mi.ino = inode->i_ino;
		mi.ino_generation = inode->i_generation;
	} else {
		strscpy(small, perf_anon_vma_name(vma), sizeof(small));
		name = small;
	}
named:
	mi.name = name;
	mi.name_size = perf_pad_string(name);

	if (perf_sb_wanted(PERF_SB_MMAP_BUILD_ID))
		build_id_parse_nofault(vma, mi.build_id, &mi.build_id_size);

	perf_sb_deliver(PERF_SB_MMAP, &mi);
	kfree(buf);
}

/* --- SWITCH and SWITCH_CPU_WIDE --- */

struct perf_sb_switch_info {
	struct task_struct	*other;
	u16			misc;
};

static void perf_switch_write(struct perf_event *event,
			      const struct perf_sb_def *def, void *info)
{
	struct perf_sb_switch_info *si = info;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct perf_switch_record rec;
	bool cpu_wide = !event->ctx->task;

	/* Only a CPU-wide event may learn who else runs on the CPU. */
	if (perf_sb_begin(&handle, &sample, event, &rec.header,
			  cpu_wide ? PERF_RECORD_SWITCH_CPU_WIDE : def->type,
			  si->misc, cpu_wide ? sizeof(rec) : def->size))
		return;
	if (cpu_wide) {
		rec.next_prev_pid = perf_event_pid(event, si->other);
		rec.next_prev_tid = perf_event_tid(event, si->other);
		perf_output_put(&handle, rec);
	} else {
		perf_output_put(&handle, rec.header);
	}
	perf_sb_finish(&handle, &sample, event);
}

/**
 * perf_event_switch_output() - context switch records
 * @task: the task switching out (@sched_in false) or in; it is current
 * @next_prev: the task switching in next, or the one that ran before
 * @sched_in: which half of the switch this is
 *
 * Called by sched.c while perf_sb_wanted(PERF_SB_SWITCH).
 */
void perf_event_switch_output(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in)
{
	struct perf_sb_switch_info si = { .other = next_prev };

	if (!sched_in) {
		si.misc = PERF_RECORD_MISC_SWITCH_OUT;
		/* Still runnable when it goes: it was preempted. */
		if (task_is_runnable(task))
			si.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	perf_sb_deliver(PERF_SB_SWITCH, &si);
}

/* --- KSYMBOL and BPF_EVENT --- */

struct perf_sb_ksym_info {
	u64		addr;
	u32		len;
	u16		ksym_type;
	u16		flags;
	char		*name;
	unsigned int	name_size;
};

static void perf_ksym_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info)
{
	struct perf_sb_ksym_info *ki = info;
	struct perf_ksym_record rec = {
		.addr		= ki->addr,
		.len		= ki->len,
		.ksym_type	= ki->ksym_type,
		.flags		= ki->flags,
	};

	perf_sb_emit_tail(event, def, &rec.header, 0, ki->name, ki->name_size);
}

/**
 * perf_event_ksymbol() - PERF_RECORD_KSYMBOL
 * @ksym_type: PERF_RECORD_KSYMBOL_TYPE_*
 * @addr: start of the symbol
 * @len: its length
 * @unregister: the symbol goes away
 * @sym: its name
 */
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym)
{
	char name[KSYM_NAME_LEN];
	struct perf_sb_ksym_info ki = {
		.addr		= addr,
		.len		= len,
		.ksym_type	= ksym_type,
		.flags		= unregister ?
				  PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0,
		.name		= name,
	};

	BUILD_BUG_ON(KSYM_NAME_LEN % sizeof(u64));

	if (!perf_sb_wanted(PERF_SB_KSYMBOL))
		return;
	if (WARN_ONCE(ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
		      ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX,
		      "perf: bad ksymbol type %u\n", ksym_type))
		return;

	/* KSYM_NAME_LEN is a multiple of 8: the padding always fits. */
	strscpy(name, sym, KSYM_NAME_LEN);
	ki.name_size = perf_pad_string(name);
	perf_sb_deliver(PERF_SB_KSYMBOL, &ki);
}

static void perf_bpf_ksymbols(struct bpf_prog *prog, bool unload)
{
	struct bpf_prog *part = prog;
	u32 i = 0;

	/* The main program, then its sub-programs (func[0] is the main). */
	do {
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
				   (u64)(unsigned long)part->bpf_func,
				   part->jited_len, unload,
				   part->aux->ksym.name);
		if (++i >= prog->aux->func_cnt)
			break;
		part = prog->aux->func[i];
	} while (true);
}

static void perf_bpf_write(struct perf_event *event,
			   const struct perf_sb_def *def, void *info)
{
	struct perf_bpf_record rec = { .body = *(struct perf_sb_bpf_info *)info };

	perf_sb_emit(event, def, &rec.header);
}

/**
 * perf_event_bpf_event() - records for a BPF program load or unload
 * @prog: the program
 * @type: PERF_BPF_EVENT_PROG_LOAD or _UNLOAD
 * @flags: record flags
 *
 * The program's symbols come first (PERF_RECORD_KSYMBOL), then
 * PERF_RECORD_BPF_EVENT with its id and tag.
 */
void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags)
{
	struct perf_sb_bpf_info bi = { .type = type, .flags = flags };

	BUILD_BUG_ON(BPF_TAG_SIZE % sizeof(u64));

	if (type != PERF_BPF_EVENT_PROG_LOAD &&
	    type != PERF_BPF_EVENT_PROG_UNLOAD)
		return;

	if (perf_sb_wanted(PERF_SB_KSYMBOL))
		perf_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	if (!perf_sb_wanted(PERF_SB_BPF_EVENT))
		return;

	bi.id = prog->aux->id;
	memcpy(bi.tag, prog->tag, BPF_TAG_SIZE);
	perf_sb_deliver(PERF_SB_BPF_EVENT, &bi);
}

/* --- TEXT_POKE --- */

struct perf_sb_poke_info {
	u64		addr;
	const void	*old_bytes;
	const void	*new_bytes;
	u16		old_len;
	u16		new_len;
	u16		pad;
};

static void perf_poke_write(struct perf_event *event,
			    const struct perf_sb_def *def, void *info)
{
	struct perf_sb_poke_info *pi = info;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct perf_poke_record rec = {
		.addr		= pi->addr,
		.old_len	= pi->old_len,
		.new_len	= pi->new_len,
	};
	u64 zero = 0;

	if (perf_sb_begin(&handle, &sample, event, &rec.header, def->type,
			  PERF_RECORD_MISC_KERNEL,
			  def->size + pi->old_len + pi->new_len + pi->pad))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, pi->old_bytes, pi->old_len);
	perf_output_copy(&handle, pi->new_bytes, pi->new_len);
	if (pi->pad)
		perf_output_copy(&handle, &zero, pi->pad);
	perf_sb_finish(&handle, &sample, event);
}

/**
 * perf_event_text_poke() - PERF_RECORD_TEXT_POKE for modified kernel text
 * @addr: where the text changed
 * @old_bytes: what was there
 * @old_len: its length
 * @new_bytes: what is there now
 * @new_len: its length
 */
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len)
{
	/* addr, the two lengths and the bytes, padded to a u64 boundary. */
	size_t body = sizeof(u64) + 2 * sizeof(u16) + old_len + new_len;
	struct perf_sb_poke_info pi = {
		.addr		= (unsigned long)addr,
		.old_bytes	= old_bytes,
		.new_bytes	= new_bytes,
		.old_len	= old_len,
		.new_len	= new_len,
		.pad		= ALIGN(body, sizeof(u64)) - body,
	};

	if (!perf_sb_wanted(PERF_SB_TEXT_POKE))
		return;
	perf_sb_deliver(PERF_SB_TEXT_POKE, &pi);
}
