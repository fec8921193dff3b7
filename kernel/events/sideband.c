// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: side-band records.
 *
 * Owns:
 *  - the records the kernel writes for one event it names: LOST_SAMPLES,
 *    THROTTLE and UNTHROTTLE, READ, ITRACE_START, AUX_OUTPUT_HW_ID;
 *  - the records the rest of the kernel announces to whoever wants them:
 *    MMAP and MMAP2, COMM, FORK and EXIT, NAMESPACES, CGROUP, SWITCH and
 *    SWITCH_CPU_WIDE, KSYMBOL, BPF_EVENT, TEXT_POKE;
 *  - the registry of events that want the latter (perf_event_sb_attach()
 *    at alloc, perf_event_sb_detach() at free) and their delivery.
 *
 * PERF_RECORD_LOST is ring_buffer.c's: it is written where the buffer
 * found no room.
 *
 * Context: the announced records come from hooks in task context (mmap
 * with the mmap lock held, exec, fork, exit, namespace and cgroup
 * changes, BPF loads, text pokes; these may sleep before delivery, to
 * allocate a path), except SWITCH, which comes from the context switch
 * with IRQs off and the runqueue locked.  Delivery itself runs under RCU
 * with preemption off.  The records for one event come from the
 * overflow path (THROTTLE; LOST_SAMPLES from a driver's PEBS drain),
 * which may be an NMI, from the tick or a sched in with the context
 * locked (UNTHROTTLE), from a PMU driver (AUX_OUTPUT_HW_ID; nothing
 * calls perf_log_itrace_start() yet) or from task exit (READ).
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
 * Plumbing, and the records for one event
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
 * Write a whole record with its sample_id trailer: the fixed part (@header
 * first, @size bytes in all), then @tail_size bytes from @tail (a name or
 * path, already padded to 8 bytes); dropped, and counted lost, if there
 * is no room.
 */
static void perf_sb_emit_tail(struct perf_event *event,
			      struct perf_event_header *header,
			      u32 type, u16 misc, u16 size,
			      const void *tail, u16 tail_size)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;

	if (perf_sb_begin(&handle, &sample, event, header, type, misc,
			  size + tail_size))
		return;
	perf_output_copy(&handle, header, size);
	if (tail_size)
		perf_output_copy(&handle, tail, tail_size);
	perf_sb_finish(&handle, &sample, event);
}

/* A record that is all fixed part. */
static void perf_sb_emit(struct perf_event *event,
			 struct perf_event_header *header,
			 u32 type, u16 misc, u16 size)
{
	perf_sb_emit_tail(event, header, type, misc, size, NULL, 0);
}

/**
 * perf_log_lost_samples() - PERF_RECORD_LOST_SAMPLES
 * @event: the event that dropped samples
 * @lost: how many
 */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	struct {
		struct perf_event_header	header;
		u64				lost;
	} rec = { .lost = lost };

	perf_sb_emit(event, &rec.header, PERF_RECORD_LOST_SAMPLES, 0, sizeof(rec));
}

/**
 * perf_log_throttle() - PERF_RECORD_THROTTLE or PERF_RECORD_UNTHROTTLE
 * @event: the event
 * @enable: nonzero for UNTHROTTLE (sampling resumes)
 */
void perf_log_throttle(struct perf_event *event, int enable)
{
	struct {
		struct perf_event_header	header;
		u64				time;
		u64				id;
		u64				stream_id;
	} rec = {
		.time		= perf_event_now(event),
		.id		= perf_event_primary(event)->id,
		.stream_id	= event->id,
	};
	u32 type = enable ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE;

	perf_sb_emit(event, &rec.header, type, 0, sizeof(rec));
}

/**
 * perf_event_read_event() - PERF_RECORD_READ for an exiting child's counts
 * @event: the inherited event (attr.inherit_stat)
 * @task: the task that exits
 */
void perf_event_read_event(struct perf_event *event, struct task_struct *task)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
	} rec = {
		.pid = perf_event_pid(event, task),
		.tid = perf_event_tid(event, task),
	};

	if (perf_sb_begin(&handle, &sample, event, &rec.header,
			  PERF_RECORD_READ, 0,
			  sizeof(rec) + event->read_size))
		return;
	handle.skip_read = 0;
	perf_output_put(&handle, rec);
	perf_output_read(&handle, event);
	perf_sb_finish(&handle, &sample, event);
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

/**
 * perf_log_itrace_start() - PERF_RECORD_ITRACE_START for a trace PMU event
 * @event: the event about to be added to its PMU
 *
 * Written once, before the PMU reports tracing as started, so that the
 * decoder learns which task the trace that follows belongs to.
 */
void perf_log_itrace_start(struct perf_event *event)
{
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
	} rec;

	event = perf_event_primary(event);
	if (!(event->pmu->capabilities & PERF_PMU_CAP_ITRACE))
		return;
	if (event->attach_state & PERF_ATTACH_ITRACE)
		return;

	rec.pid = perf_event_pid(event, current);
	rec.tid = perf_event_tid(event, current);
	perf_sb_emit(event, &rec.header, PERF_RECORD_ITRACE_START, 0, sizeof(rec));
}

/**
 * perf_report_aux_output_id() - PERF_RECORD_AUX_OUTPUT_HW_ID
 * @event: the event whose AUX data the hardware tags
 * @hw_id: the hardware's id for it
 */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
	struct {
		struct perf_event_header	header;
		u64				hw_id;
	} rec = { .hw_id = hw_id };

	event = perf_event_primary(event);
	perf_sb_emit(event, &rec.header, PERF_RECORD_AUX_OUTPUT_HW_ID, 0, sizeof(rec));
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);

/* ======================================================================
 * Records announced to every event that wants them
 */

/*
 * Events that want side-band records are on one of these RCU lists: the
 * list of their CPU, or for events that follow a task on any CPU the
 * global one.  A record is offered to both lists of the CPU it happens on.
 * Writers (attach, detach) take perf_sb_lock; the per-CPU heads are set up
 * on first use, so that attaching needs no init hook.
 */
static DEFINE_RAW_SPINLOCK(perf_sb_lock);
static LIST_HEAD(perf_sb_any_cpu);
static DEFINE_PER_CPU(struct list_head, perf_sb_on_cpu);
static bool perf_sb_ready;

static atomic_t nr_sb_mmap, nr_sb_build_id, nr_sb_comm, nr_sb_task;
static atomic_t nr_sb_namespaces, nr_sb_cgroup, nr_sb_ksymbol, nr_sb_bpf;
static atomic_t nr_sb_text_poke;
atomic_t nr_switch_events;

static bool perf_event_wants_sb(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;

	return a->mmap || a->mmap2 || a->mmap_data || a->comm || a->task ||
	       a->namespaces || a->ksymbol || a->bpf_event || a->cgroup ||
	       a->text_poke || a->context_switch;
}

/* Add @delta to the counters of every record kind @event wants. */
static void perf_sb_count(struct perf_event *event, int delta)
{
	struct perf_event_attr *a = &event->attr;

	if (a->mmap || a->mmap2 || a->mmap_data)
		atomic_add(delta, &nr_sb_mmap);
	if (a->build_id)
		atomic_add(delta, &nr_sb_build_id);
	if (a->comm)
		atomic_add(delta, &nr_sb_comm);
	if (a->task)
		atomic_add(delta, &nr_sb_task);
	if (a->namespaces)
		atomic_add(delta, &nr_sb_namespaces);
	if (a->cgroup)
		atomic_add(delta, &nr_sb_cgroup);
	if (a->ksymbol)
		atomic_add(delta, &nr_sb_ksymbol);
	if (a->bpf_event)
		atomic_add(delta, &nr_sb_bpf);
	if (a->text_poke)
		atomic_add(delta, &nr_sb_text_poke);
	if (a->context_switch)
		atomic_add(delta, &nr_switch_events);
}

static struct list_head *perf_sb_head(int cpu)
{
	return cpu < 0 ? &perf_sb_any_cpu : per_cpu_ptr(&perf_sb_on_cpu, cpu);
}

/**
 * perf_event_sb_attach() - start offering side-band records to @event
 * @event: a new event; its attr says which records it wants
 */
void perf_event_sb_attach(struct perf_event *event)
{
	unsigned long flags;
	int cpu;

	if (!perf_event_wants_sb(event))
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
 * perf_event_sb_detach() - stop offering side-band records to @event
 * @event: the event; it may be freed only after an RCU grace period
 *
 * Safe for an event that was never attached, and to call twice.
 */
void perf_event_sb_detach(struct perf_event *event)
{
	unsigned long flags;

	if (!perf_event_wants_sb(event))
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

typedef void (*perf_sb_emit_fn)(struct perf_event *event, void *rec);

/*
 * May @event see a record that happens now, on this CPU?  It must be
 * enabled, in a context (not half set up), count here, and, for a task
 * event, be the event of the task that runs.
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
	return perf_event_filter_match(event);
}

static void perf_sb_walk(struct list_head *head, perf_sb_emit_fn emit,
			 void *rec)
{
	struct perf_event *event;

	list_for_each_entry_rcu(event, head, sb_list) {
		if (perf_sb_visible(event))
			emit(event, rec);
	}
}

/* Offer a record to every interested event that can see it. */
static void perf_sb_deliver(perf_sb_emit_fn emit, void *rec)
{
	/* Pairs with perf_event_sb_attach(): the heads are initialised. */
	if (!smp_load_acquire(&perf_sb_ready))
		return;

	rcu_read_lock();
	preempt_disable();
	perf_sb_walk(this_cpu_ptr(&perf_sb_on_cpu), emit, rec);
	perf_sb_walk(&perf_sb_any_cpu, emit, rec);
	preempt_enable();
	rcu_read_unlock();
}

/* Pad a NUL-terminated string in @buf to a multiple of 8 with zeros. */
static unsigned int perf_pad_string(char *buf)
{
	unsigned int len = strlen(buf) + 1;
	unsigned int padded = ALIGN(len, sizeof(u64));

	memset(buf + len, 0, padded - len);
	return padded;
}

/* --- FORK and EXIT --- */

struct perf_task_rec {
	struct task_struct	*task;
	bool			fork;
};

static void perf_task_emit(struct perf_event *event, void *arg)
{
	struct perf_task_rec *tr = arg;
	struct task_struct *task = tr->task, *parent;
	struct perf_event_attr *a = &event->attr;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				ppid;
		u32				tid;
		u32				ptid;
		u64				time;
	} rec;

	if (!(a->comm || a->mmap || a->mmap2 || a->mmap_data || a->task))
		return;

	rec.pid = perf_event_pid(event, task);
	rec.tid = perf_event_tid(event, task);
	if (tr->fork) {
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

	perf_sb_emit(event, &rec.header, tr->fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 0, sizeof(rec));
}

static void perf_event_task_record(struct task_struct *task, bool fork)
{
	struct perf_task_rec tr = { .task = task, .fork = fork };

	if (!atomic_read(&nr_sb_comm) && !atomic_read(&nr_sb_mmap) &&
	    !atomic_read(&nr_sb_task))
		return;
	perf_sb_deliver(perf_task_emit, &tr);
}

/**
 * perf_event_fork() - side-band records for a new task
 * @tsk: the child, not yet running; current is its parent
 */
void perf_event_fork(struct task_struct *tsk)
{
	perf_event_task_record(tsk, true);
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
	perf_event_task_record(task, false);
}

/* --- COMM --- */

struct perf_comm_rec {
	struct task_struct	*task;
	char			*comm;
	unsigned int		size;
	bool			exec;
};

static void perf_comm_emit(struct perf_event *event, void *arg)
{
	struct perf_comm_rec *cr = arg;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
	} rec;

	if (!event->attr.comm)
		return;

	rec.pid = perf_event_pid(event, cr->task);
	rec.tid = perf_event_tid(event, cr->task);
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_COMM,
			  cr->exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
			  sizeof(rec), cr->comm, cr->size);
}

/**
 * perf_event_comm() - PERF_RECORD_COMM after a task's name changed
 * @tsk: the task
 * @exec: the change comes from exec()
 */
void perf_event_comm(struct task_struct *tsk, bool exec)
{
	char name[ALIGN(TASK_COMM_LEN, sizeof(u64))];
	struct perf_comm_rec cr = { .task = tsk, .comm = name, .exec = exec };

	if (!atomic_read(&nr_sb_comm))
		return;

	/* Unlocked, as the name may change under us: at worst a torn name. */
	strscpy_pad(name, tsk->comm, sizeof(name));
	cr.size = perf_pad_string(name);
	perf_sb_deliver(perf_comm_emit, &cr);
}

/* --- NAMESPACES --- */

struct perf_ns_rec {
	struct task_struct	*task;
	struct perf_ns_link_info links[NR_NAMESPACES];
};

static void perf_ns_emit(struct perf_event *event, void *arg)
{
	struct perf_ns_rec *nr = arg;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
		u64				nr_namespaces;
	} rec;

	if (!event->attr.namespaces)
		return;

	rec.pid = perf_event_pid(event, nr->task);
	rec.tid = perf_event_tid(event, nr->task);
	rec.nr_namespaces = NR_NAMESPACES;
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_NAMESPACES, 0,
			  sizeof(rec), nr->links, sizeof(nr->links));
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
	struct perf_ns_rec nr = { .task = tsk };
	struct path ns_path;
	unsigned int i;

	if (!atomic_read(&nr_sb_namespaces))
		return;

	for (i = 0; i < ARRAY_SIZE(perf_ns_kinds); i++) {
		struct perf_ns_link_info *link = &nr.links[perf_ns_kinds[i].idx];
		struct inode *inode;

		if (ns_get_path(&ns_path, tsk, perf_ns_kinds[i].ops))
			continue;
		inode = d_inode(ns_path.dentry);
		link->dev = new_encode_dev(inode->i_sb->s_dev);
		link->ino = inode->i_ino;
		path_put(&ns_path);
	}
	perf_sb_deliver(perf_ns_emit, &nr);
}

/* --- CGROUP --- */

#ifdef CONFIG_CGROUP_PERF
struct perf_cgroup_rec {
	u64		id;
	char		*path;
	unsigned int	size;
};

static void perf_cgroup_emit(struct perf_event *event, void *arg)
{
	struct perf_cgroup_rec *cr = arg;
	struct {
		struct perf_event_header	header;
		u64				id;
	} rec = { .id = cr->id };

	if (!event->attr.cgroup)
		return;
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_CGROUP, 0,
			  sizeof(rec), cr->path, cr->size);
}

/**
 * perf_event_cgroup() - PERF_RECORD_CGROUP for a cgroup coming online
 * @cgrp: the cgroup
 *
 * Tells tools which path a cgroup id (PERF_SAMPLE_CGROUP) stands for.
 */
void perf_event_cgroup(struct cgroup *cgrp)
{
	struct perf_cgroup_rec cr = { .id = cgroup_id(cgrp) };
	char fallback[16] = "//enomem";
	char *buf;

	if (!atomic_read(&nr_sb_cgroup))
		return;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	cr.path = fallback;
	if (buf) {
		/* Leave room to pad the name to 8 bytes. */
		cgroup_path(cgrp, buf, PATH_MAX - sizeof(u64));
		cr.path = buf;
	}
	cr.size = perf_pad_string(cr.path);
	perf_sb_deliver(perf_cgroup_emit, &cr);
	kfree(buf);
}
#else
void perf_event_cgroup(struct cgroup *cgrp)
{
}
#endif

/* --- MMAP and MMAP2 --- */

struct perf_mmap_rec {
	struct vm_area_struct	*vma;
	const char		*name;
	unsigned int		name_size;
	u32			maj, min;
	u64			ino, ino_generation;
	u32			prot, flags;
	u32			build_id_size;
	u8			build_id[BUILD_ID_SIZE_MAX];
};

static void perf_mmap_emit(struct perf_event *event, void *arg)
{
	struct perf_mmap_rec *mr = arg;
	struct vm_area_struct *vma = mr->vma;
	struct perf_event_attr *a = &event->attr;
	bool exec = vma->vm_flags & VM_EXEC;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	u16 misc = PERF_RECORD_MISC_USER;
	u32 type = PERF_RECORD_MMAP;
	bool with_build_id = false;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
		u64				start;
		u64				len;
		u64				pgoff;
	} rec;
	/* MMAP2's extra fields; the build id form has the same 24 bytes. */
	struct {
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
	} ext;
	u16 size = sizeof(rec) + mr->name_size;

	/* Executable mappings for mmap/mmap2, the others for mmap_data. */
	if (exec ? !(a->mmap || a->mmap2) : !a->mmap_data)
		return;

	if (!exec)
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (a->mmap2) {
		type = PERF_RECORD_MMAP2;
		size += sizeof(ext);
		with_build_id = a->build_id && mr->build_id_size;
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
			ext.bid.size = mr->build_id_size;
			memcpy(ext.bid.id, mr->build_id, BUILD_ID_SIZE_MAX);
		} else {
			ext.maj = mr->maj;
			ext.min = mr->min;
			ext.ino = mr->ino;
			ext.ino_generation = mr->ino_generation;
		}
		ext.prot = mr->prot;
		ext.flags = mr->flags;
		perf_output_put(&handle, ext);
	}
	perf_output_copy(&handle, mr->name, mr->name_size);
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
	struct perf_mmap_rec mr = { .vma = vma };
	struct file *file = vma->vm_file;
	char small[16];
	char *buf = NULL;
	char *name;

	if (!atomic_read(&nr_sb_mmap))
		return;

	perf_vma_prot_flags(vma, &mr.prot, &mr.flags);

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
		mr.maj = MAJOR(inode->i_sb->s_dev);
		mr.min = MINOR(inode->i_sb->s_dev);
		mr.ino = inode->i_ino;
		mr.ino_generation = inode->i_generation;
	} else {
		strscpy(small, perf_anon_vma_name(vma), sizeof(small));
		name = small;
	}
named:
	mr.name = name;
	mr.name_size = perf_pad_string(name);

	if (atomic_read(&nr_sb_build_id))
		build_id_parse_nofault(vma, mr.build_id, &mr.build_id_size);

	perf_sb_deliver(perf_mmap_emit, &mr);
	kfree(buf);
}

/* --- SWITCH and SWITCH_CPU_WIDE --- */

struct perf_switch_rec {
	struct task_struct	*other;
	u16			misc;
};

static void perf_switch_emit(struct perf_event *event, void *arg)
{
	struct perf_switch_rec *sr = arg;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header	header;
		u32				next_prev_pid;
		u32				next_prev_tid;
	} rec;
	bool cpu_wide = !event->ctx->task;

	if (!event->attr.context_switch)
		return;

	/* Only a CPU-wide event may learn who else runs on the CPU. */
	if (perf_sb_begin(&handle, &sample, event, &rec.header,
			  cpu_wide ? PERF_RECORD_SWITCH_CPU_WIDE :
				     PERF_RECORD_SWITCH,
			  sr->misc,
			  cpu_wide ? sizeof(rec) : sizeof(rec.header)))
		return;
	if (cpu_wide) {
		rec.next_prev_pid = perf_event_pid(event, sr->other);
		rec.next_prev_tid = perf_event_tid(event, sr->other);
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
 * Called by sched.c while nr_switch_events is nonzero.
 */
void perf_event_switch_output(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in)
{
	struct perf_switch_rec sr = { .other = next_prev };

	if (!sched_in) {
		sr.misc = PERF_RECORD_MISC_SWITCH_OUT;
		/* Still runnable when it goes: it was preempted. */
		if (task_is_runnable(task))
			sr.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	perf_sb_deliver(perf_switch_emit, &sr);
}

/* --- KSYMBOL and BPF_EVENT --- */

struct perf_ksym_rec {
	u64		addr;
	u32		len;
	u16		ksym_type;
	u16		flags;
	char		*name;
	unsigned int	name_size;
};

static void perf_ksym_emit(struct perf_event *event, void *arg)
{
	struct perf_ksym_rec *kr = arg;
	struct {
		struct perf_event_header	header;
		u64				addr;
		u32				len;
		u16				ksym_type;
		u16				flags;
	} rec = {
		.addr		= kr->addr,
		.len		= kr->len,
		.ksym_type	= kr->ksym_type,
		.flags		= kr->flags,
	};

	if (!event->attr.ksymbol)
		return;
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_KSYMBOL, 0,
			  sizeof(rec), kr->name, kr->name_size);
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
	struct perf_ksym_rec kr = {
		.addr		= addr,
		.len		= len,
		.ksym_type	= ksym_type,
		.flags		= unregister ?
				  PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0,
		.name		= name,
	};

	BUILD_BUG_ON(KSYM_NAME_LEN % sizeof(u64));

	if (!atomic_read(&nr_sb_ksymbol))
		return;
	if (WARN_ONCE(ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
		      ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX,
		      "perf: bad ksymbol type %u\n", ksym_type))
		return;

	/* KSYM_NAME_LEN is a multiple of 8: the padding always fits. */
	strscpy(name, sym, KSYM_NAME_LEN);
	kr.name_size = perf_pad_string(name);
	perf_sb_deliver(perf_ksym_emit, &kr);
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

struct perf_bpf_rec {
	u16	type;
	u16	flags;
	u32	id;
	u8	tag[BPF_TAG_SIZE];
};

static void perf_bpf_emit(struct perf_event *event, void *arg)
{
	struct perf_bpf_rec *br = arg;
	struct {
		struct perf_event_header	header;
		struct perf_bpf_rec		body;
	} rec = { .body = *br };

	if (!event->attr.bpf_event)
		return;
	perf_sb_emit(event, &rec.header, PERF_RECORD_BPF_EVENT, 0, sizeof(rec));
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
	struct perf_bpf_rec br = { .type = type, .flags = flags };

	BUILD_BUG_ON(BPF_TAG_SIZE % sizeof(u64));

	if (type != PERF_BPF_EVENT_PROG_LOAD &&
	    type != PERF_BPF_EVENT_PROG_UNLOAD)
		return;

	if (atomic_read(&nr_sb_ksymbol))
		perf_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	if (!atomic_read(&nr_sb_bpf))
		return;

	br.id = prog->aux->id;
	memcpy(br.tag, prog->tag, BPF_TAG_SIZE);
	perf_sb_deliver(perf_bpf_emit, &br);
}

/* --- TEXT_POKE --- */

struct perf_poke_rec {
	u64		addr;
	const void	*old_bytes;
	const void	*new_bytes;
	u16		old_len;
	u16		new_len;
	u16		pad;
};

static void perf_poke_emit(struct perf_event *event, void *arg)
{
	struct perf_poke_rec *pr = arg;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header	header;
		u64				addr;
		u16				old_len;
		u16				new_len;
	} __packed rec = {
		.addr		= pr->addr,
		.old_len	= pr->old_len,
		.new_len	= pr->new_len,
	};
	u64 zero = 0;

	if (!event->attr.text_poke)
		return;
	if (perf_sb_begin(&handle, &sample, event, &rec.header,
			  PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL,
			  sizeof(rec) + pr->old_len + pr->new_len + pr->pad))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, pr->old_bytes, pr->old_len);
	perf_output_copy(&handle, pr->new_bytes, pr->new_len);
	if (pr->pad)
		perf_output_copy(&handle, &zero, pr->pad);
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
	struct perf_poke_rec pr = {
		.addr		= (unsigned long)addr,
		.old_bytes	= old_bytes,
		.new_bytes	= new_bytes,
		.old_len	= old_len,
		.new_len	= new_len,
		.pad		= ALIGN(body, sizeof(u64)) - body,
	};

	if (!atomic_read(&nr_sb_text_poke))
		return;
	perf_sb_deliver(perf_poke_emit, &pr);
}
