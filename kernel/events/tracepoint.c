// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the tracing PMUs and what hangs off them.
 *
 *  - "tracepoint" (PERF_TYPE_TRACEPOINT, config = trace event id), and the
 *    dynamic "kprobe" and "uprobe" PMUs that create a probe for the event
 *    (attr.kprobe_func / uprobe_path and friends).  The tracing code
 *    (kernel/trace/trace_event_perf.c) owns the probes and the per-CPU
 *    lists of events; it hands each hit to perf_tp_event().
 *  - Filters (PERF_EVENT_IOC_SET_FILTER), which for these events are
 *    ftrace filter expressions over the trace record.
 *  - BPF programs attached to an event: on tracing events the tracing
 *    code runs them at the probe; on any other event a
 *    BPF_PROG_TYPE_PERF_EVENT program runs at each overflow and decides
 *    whether the sample is kept (perf_event_run_bpf()).
 *
 * Counting and sampling is the software PMUs' (swevent.c).
 */
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/export.h>
#include <linux/filter.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/syscalls.h>
#include <linux/trace_events.h>

#include "internal.h"

#ifdef CONFIG_EVENT_TRACING

/* ======================================================================
 * Callbacks shared by the three tracing PMUs.
 */
static struct pmu tp_pmu;

static int tp_pmu_add(struct perf_event *event, int flags)
{
	int err;

	/*
	 * perf_trace_add() hooks the event up (period, per-CPU list) and
	 * marks it stopped when asked not to start; starting is ours, as
	 * the state may be left over from an earlier stop.
	 */
	err = perf_trace_add(event, flags);
	if (!err && (flags & PERF_EF_START))
		perf_inline_pmu_start(event, flags);
	return err;
}

static void tp_pmu_del(struct perf_event *event, int flags)
{
	perf_trace_del(event, flags);
}

/* ======================================================================
 * "tracepoint"
 */
static int tp_event_init(struct perf_event *event)
{
	int err;

	if (event->attr.type != PERF_TYPE_TRACEPOINT)
		return -ENOENT;

	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	/* Looks up the trace event by id and registers for it. */
	err = perf_trace_init(event);
	if (err)
		return err;

	event->destroy = perf_trace_destroy;
	return 0;
}

static struct pmu tp_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.event_init	= tp_event_init,
	.add		= tp_pmu_add,
	.del		= tp_pmu_del,
	.start		= perf_inline_pmu_start,
	.stop		= perf_inline_pmu_stop,
	.read		= perf_inline_pmu_read,
};

/* ======================================================================
 * "kprobe" and "uprobe": probes created by perf_event_open() itself.
 *
 * attr.config bit 0 asks for a return probe; for uprobes the upper 32
 * bits are the offset of the USDT reference counter (semaphore).  The
 * format/ files in sysfs describe exactly this layout.
 */
#if defined(CONFIG_KPROBE_EVENTS) || defined(CONFIG_UPROBE_EVENTS)
#define PROBE_CFG_RETPROBE		BIT_ULL(0)
#define PROBE_CFG_REF_CTR_SHIFT		32

PMU_FORMAT_ATTR(retprobe, "config:0");

static bool probe_wants_retprobe(struct perf_event *event)
{
	return event->attr.config & PROBE_CFG_RETPROBE;
}
#endif

#ifdef CONFIG_KPROBE_EVENTS
static struct pmu kprobe_pmu;

static struct attribute *kprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	NULL,
};

static const struct attribute_group kprobe_format = {
	.name	= "format",
	.attrs	= kprobe_format_attrs,
};

static const struct attribute_group *kprobe_groups[] = {
	&kprobe_format,
	NULL,
};

static int kprobe_event_init(struct perf_event *event)
{
	int err;

	if (event->attr.type != kprobe_pmu.type)
		return -ENOENT;

	/* Placing a kprobe is a privileged operation. */
	if (!perfmon_capable())
		return -EACCES;

	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	err = perf_kprobe_init(event, probe_wants_retprobe(event));
	if (err)
		return err;

	event->destroy = perf_kprobe_destroy;
	return 0;
}

static struct pmu kprobe_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.attr_groups	= kprobe_groups,
	.event_init	= kprobe_event_init,
	.add		= tp_pmu_add,
	.del		= tp_pmu_del,
	.start		= perf_inline_pmu_start,
	.stop		= perf_inline_pmu_stop,
	.read		= perf_inline_pmu_read,
};
#endif /* CONFIG_KPROBE_EVENTS */

#ifdef CONFIG_UPROBE_EVENTS
static struct pmu uprobe_pmu;

PMU_FORMAT_ATTR(ref_ctr_offset, "config:32-63");

static struct attribute *uprobe_format_attrs[] = {
	&format_attr_retprobe.attr,
	&format_attr_ref_ctr_offset.attr,
	NULL,
};

static const struct attribute_group uprobe_format = {
	.name	= "format",
	.attrs	= uprobe_format_attrs,
};

static const struct attribute_group *uprobe_groups[] = {
	&uprobe_format,
	NULL,
};

static int uprobe_event_init(struct perf_event *event)
{
	unsigned long ref_ctr;
	int err;

	if (event->attr.type != uprobe_pmu.type)
		return -ENOENT;

	/* Patching another program's text wants full admin rights. */
	if (!capable(CAP_SYS_ADMIN))
		return -EACCES;

	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	ref_ctr = event->attr.config >> PROBE_CFG_REF_CTR_SHIFT;
	err = perf_uprobe_init(event, ref_ctr, probe_wants_retprobe(event));
	if (err)
		return err;

	event->destroy = perf_uprobe_destroy;
	return 0;
}

static struct pmu uprobe_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.attr_groups	= uprobe_groups,
	.event_init	= uprobe_event_init,
	.add		= tp_pmu_add,
	.del		= tp_pmu_del,
	.start		= perf_inline_pmu_start,
	.stop		= perf_inline_pmu_stop,
	.read		= perf_inline_pmu_read,
};
#endif /* CONFIG_UPROBE_EVENTS */

/* Is @event one of ours, i.e. backed by a trace event (event->tp_event)? */
static bool is_tracing_event(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;

#ifdef CONFIG_KPROBE_EVENTS
	if (pmu == &kprobe_pmu)
		return true;
#endif
#ifdef CONFIG_UPROBE_EVENTS
	if (pmu == &uprobe_pmu)
		return true;
#endif
	return pmu == &tp_pmu;
}

/* ======================================================================
 * Delivering trace records.
 */

/*
 * Does @event take this hit?  Not when stopped; not in the kernel when it
 * excludes the kernel (so such events only see uprobes); not when its
 * filter rejects the record.  Filters are set on the event user space
 * opened, so an inherited event uses its parent's.
 */
static bool tp_event_accepts(struct perf_event *event,
			     struct perf_raw_record *raw, struct pt_regs *regs)
{
	struct event_filter *filter;

	if (event->hw.state & PERF_HES_STOPPED)
		return false;

	if (event->attr.exclude_kernel && regs && !user_mode(regs))
		return false;

	filter = perf_event_primary(event)->filter;
	if (filter && !filter_match_preds(filter, raw->frag.data))
		return false;

	return true;
}

static void tp_event_hit(struct perf_event *event, u64 count,
			 struct perf_raw_record *raw,
			 struct perf_sample_data *data, struct pt_regs *regs)
{
	if (!tp_event_accepts(event, raw, regs))
		return;

	/* @data is reused across events: start it afresh each time. */
	perf_sample_data_init(data, 0, 0);
	if (event->attr.sample_type & PERF_SAMPLE_RAW)
		perf_sample_save_raw_data(data, event, raw);

	perf_swevent_count(event, count, data, regs);
}

/*
 * A hit that concerns another task (syscall tracepoints' @task, sched
 * tracepoints naming a wakee, ...): also feed the tracepoint events of
 * that task's context, which are not on this CPU's list since the task
 * is not running here.
 */
static void tp_hit_task(struct task_struct *task, u16 type, u64 count,
			struct perf_raw_record *raw,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	unsigned long flags;
	int cpu = smp_processor_id();

	rcu_read_lock();
	ctx = rcu_dereference(task->perf_event_ctxp);
	if (!ctx)
		goto unlock;

	/* ctx->lock pins the context's event list. */
	raw_spin_lock_irqsave(&ctx->lock, flags);
	list_for_each_entry(event, &ctx->event_list, event_entry) {
		if (event->pmu != &tp_pmu || event->attr.config != type)
			continue;
		/* Enabled events only, and only those that may count here. */
		if (event->state < PERF_EVENT_STATE_INACTIVE)
			continue;
		if (event->cpu != -1 && event->cpu != cpu)
			continue;
		/* A synchronous signal cannot be sent to another task. */
		if (event->attr.sigtrap)
			continue;
		tp_event_hit(event, count, raw, data, regs);
	}
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
unlock:
	rcu_read_unlock();
}

/**
 * perf_tp_event() - deliver one trace record to perf events
 * @event_type: the trace event's id (attr.config of tracepoint events)
 * @count: how much to count (1, or e.g. a runtime for __perf_count())
 * @record: the trace record, from perf_trace_buf_alloc()
 * @entry_size: its size
 * @regs: registers at the hit
 * @head: this CPU's list of events for the trace event
 * @rctx: the recursion level perf_trace_buf_alloc() took; released here
 * @task: a task the record is about, or NULL
 *
 * Runs with preemption disabled, as tracepoint and probe handlers do.
 */
void perf_tp_event(u16 event_type, u64 count, void *record, int entry_size,
		   struct pt_regs *regs, struct hlist_head *head, int rctx,
		   struct task_struct *task)
{
	struct perf_raw_record raw = {
		.frag = {
			.data	= record,
			.size	= entry_size,
		},
	};
	/* Initialised per event hit (tp_event_hit()); not cleared per call. */
	struct perf_sample_data data __uninitialized;
	struct perf_event *event;

	lockdep_assert_preemption_disabled();

	/* Fill in the record's common header (type, pid, flags). */
	perf_trace_buf_update(record, event_type);

	if (head) {
		hlist_for_each_entry_rcu(event, head, hlist_entry)
			tp_event_hit(event, count, &raw, &data, regs);
	}

	if (task && task != current)
		tp_hit_task(task, event_type, count, &raw, &data, regs);

	perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_tp_event);

/**
 * perf_trace_run_bpf_submit() - run a trace event's BPF programs, then
 *	hand the record to perf
 * @record: the trace record; its first word is overwritten with @regs
 *	for the programs
 * @size: record size
 * @rctx: recursion level, released whatever happens
 * @call: the trace event
 * @count: see perf_tp_event()
 * @regs: registers at the hit
 * @head: this CPU's events for @call
 * @task: see perf_tp_event()
 *
 * Used by the generated perf handlers of TRACE_EVENT()s.  A program that
 * returns 0 filters the record out for perf as well.
 */
void perf_trace_run_bpf_submit(void *record, int size, int rctx,
			       struct trace_event_call *call,
			       u64 count, struct pt_regs *regs,
			       struct hlist_head *head, struct task_struct *task)
{
	bool has_progs = bpf_prog_array_valid(call);
	bool deliver = true;

	if (has_progs) {
		*(struct pt_regs **)record = regs;
		deliver = trace_call_bpf(call, record) && !hlist_empty(head);
	}

	if (deliver)
		perf_tp_event(call->event.type, count, record, size, regs,
			      head, rctx, task);
	else
		perf_swevent_put_recursion_context(rctx);
}
EXPORT_SYMBOL_GPL(perf_trace_run_bpf_submit);

#else /* !CONFIG_EVENT_TRACING */

static bool is_tracing_event(struct perf_event *event)
{
	return false;
}

#endif /* CONFIG_EVENT_TRACING */

/**
 * perf_tp_pmus_init() - register the tracepoint, kprobe and uprobe PMUs
 *
 * Called once from perf_event_init().
 */
void perf_tp_pmus_init(void)
{
#ifdef CONFIG_EVENT_TRACING
	WARN_ON(perf_pmu_register(&tp_pmu, "tracepoint",
				  PERF_TYPE_TRACEPOINT));
#endif
#ifdef CONFIG_KPROBE_EVENTS
	WARN_ON(perf_pmu_register(&kprobe_pmu, "kprobe", -1));
#endif
#ifdef CONFIG_UPROBE_EVENTS
	WARN_ON(perf_pmu_register(&uprobe_pmu, "uprobe", -1));
#endif
}

/* ======================================================================
 * Filters.
 */

/**
 * perf_event_set_filter() - PERF_EVENT_IOC_SET_FILTER
 * @event: the event (the one user space holds, not an inherited copy)
 * @arg: user pointer to a NUL-terminated filter string
 *
 * Must be called WITHOUT @event's ctx->mutex held: setting an ftrace
 * filter takes the tracing locks, which nest outside ctx->mutex.
 *
 * Return: 0; -EEXIST if a tracing event already has a filter; -EINVAL
 * for an invalid expression or an event that takes no filters;
 * -EOPNOTSUPP for address filters (not implemented); -EFAULT etc. from
 * copying the string.
 */
int perf_event_set_filter(struct perf_event *event, void __user *arg)
{
	char *text;
	int ret;

	text = strndup_user(arg, PAGE_SIZE);
	if (IS_ERR(text))
		return PTR_ERR(text);

	if (is_tracing_event(event)) {
#ifdef CONFIG_EVENT_TRACING
		ret = ftrace_profile_set_filter(event, event->attr.config,
						text);
#else
		ret = -EINVAL;
#endif
	} else if (has_addr_filter(event)) {
		/* TODO: address filters for instruction-trace PMUs. */
		ret = -EOPNOTSUPP;
	} else {
		ret = -EINVAL;
	}

	kfree(text);
	return ret;
}

/**
 * perf_event_free_filter() - drop a tracing event's filter
 * @event: the event being freed
 */
void perf_event_free_filter(struct perf_event *event)
{
#ifdef CONFIG_EVENT_TRACING
	if (event->filter)
		ftrace_profile_free_filter(event);
#endif
}

/* ======================================================================
 * BPF programs.
 */
#ifdef CONFIG_BPF_SYSCALL
/* A BPF_PROG_TYPE_PERF_EVENT program judging an event's samples. */
static int perf_bpf_handler_attach(struct perf_event *event,
				   struct bpf_prog *prog, u64 cookie)
{
	bool partial_chain;

	/* Breakpoints and in-kernel counters have handlers of their own. */
	if (event->overflow_handler_context)
		return -EINVAL;

	if (prog->type != BPF_PROG_TYPE_PERF_EVENT)
		return event->prog ? -EEXIST : -EINVAL;
	if (event->prog)
		return -EEXIST;

	/*
	 * With precise_ip, bpf_get_stack() must use the sample's call
	 * chain instead of unwinding from the PMU interrupt, which is not
	 * reliable; so require that a complete chain is sampled.
	 */
	partial_chain = !(event->attr.sample_type & PERF_SAMPLE_CALLCHAIN) ||
			event->attr.exclude_callchain_kernel ||
			event->attr.exclude_callchain_user;
	if (event->attr.precise_ip && prog->call_get_stack && partial_chain)
		return -EPROTO;

	event->bpf_cookie = cookie;
	/* Paired with READ_ONCE() in perf_event_run_bpf(). */
	WRITE_ONCE(event->prog, prog);
	return 0;
}

static void perf_bpf_handler_detach(struct perf_event *event)
{
	struct bpf_prog *prog = event->prog;

	if (!prog)
		return;
	WRITE_ONCE(event->prog, NULL);
	bpf_prog_put(prog);
}

/**
 * perf_event_run_bpf() - let @event's perf_event program judge a sample
 * @event: the overflowing event
 * @data: its sample data (prepared here for the program to read)
 * @regs: registers of the overflow
 *
 * For overflow.c's overflow path.  Events without a
 * BPF_PROG_TYPE_PERF_EVENT program are not affected.
 *
 * Return: true if the sample goes ahead, false if the program dropped it
 * or could not run because BPF is already active on this CPU.
 */
bool perf_event_run_bpf(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	struct bpf_perf_event_data_kern bpf_ctx = {
		.data	= data,
		.event	= event,
	};
	struct bpf_prog *prog;
	bool keep = false;

	prog = READ_ONCE(event->prog);
	if (!prog || prog->type != BPF_PROG_TYPE_PERF_EVENT)
		return true;

	bpf_ctx.regs = perf_arch_bpf_user_pt_regs(regs);

	/* No BPF inside BPF on one CPU (a program may overflow an event). */
	if (__this_cpu_inc_return(bpf_prog_active) == 1) {
		rcu_read_lock();
		prog = READ_ONCE(event->prog);
		if (prog) {
			perf_prepare_sample(data, event, regs);
			keep = bpf_prog_run(prog, &bpf_ctx) != 0;
		}
		rcu_read_unlock();
	}
	__this_cpu_dec(bpf_prog_active);

	return keep;
}
#else
static int perf_bpf_handler_attach(struct perf_event *event,
				   struct bpf_prog *prog, u64 cookie)
{
	return -EOPNOTSUPP;
}

static void perf_bpf_handler_detach(struct perf_event *event)
{
}

bool perf_event_run_bpf(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	return true;
}
#endif /* CONFIG_BPF_SYSCALL */

#ifdef CONFIG_EVENT_TRACING
/*
 * A program run by the tracing code at the probe itself.  Each kind of
 * trace event takes its own program type; sleepable programs only make
 * sense where the probe may sleep (uprobes), and overriding the return
 * value only where there is a function to override (kprobes).
 */
static int perf_bpf_tracing_attach(struct perf_event *event,
				   struct bpf_prog *prog, u64 cookie)
{
	struct trace_event_call *call = event->tp_event;
	bool kp = call->flags & TRACE_EVENT_FL_KPROBE;
	bool up = call->flags & TRACE_EVENT_FL_UPROBE;
	bool tp = (call->flags & TRACE_EVENT_FL_TRACEPOINT) ||
		  is_syscall_trace_event(call);
	enum bpf_prog_type want;

	if (kp || up)
		want = BPF_PROG_TYPE_KPROBE;
	else if (tp)
		want = BPF_PROG_TYPE_TRACEPOINT;
	else
		return -EINVAL;	/* e.g. ftrace's own events */

	if (prog->type != want)
		return -EINVAL;
	if (prog->sleepable && !up)
		return -EINVAL;
	if (prog->kprobe_override && !kp)
		return -EINVAL;

	/* A tracepoint program must not read past the record. */
	if (tp && prog->aux->max_ctx_offset > trace_event_get_offsets(call))
		return -EACCES;

	return perf_event_attach_bpf_prog(event, prog, cookie);
}
#endif

/**
 * perf_event_set_bpf_prog() - attach a BPF program to an event
 * @event: the event
 * @prog: the program; on success the event owns the caller's reference
 * @bpf_cookie: value for bpf_get_attach_cookie()
 *
 * For PERF_EVENT_IOC_SET_BPF and BPF perf links.  Takes @event's
 * ctx->mutex, so it must be called without it.
 *
 * Return: 0, -EEXIST if a program is attached already, -EINVAL for a
 * program of the wrong type or an event that takes none, -EACCES for a
 * tracepoint program reading past the record, -EPROTO for a stack
 * reading program on a precise event without full call chains.
 */
int perf_event_set_bpf_prog(struct perf_event *event, struct bpf_prog *prog,
			    u64 bpf_cookie)
{
	struct perf_event_context *ctx;
	int ret;

	ctx = perf_event_ctx_lock(event);
#ifdef CONFIG_EVENT_TRACING
	if (is_tracing_event(event))
		ret = perf_bpf_tracing_attach(event, prog, bpf_cookie);
	else
#endif
		ret = perf_bpf_handler_attach(event, prog, bpf_cookie);
	perf_event_ctx_unlock(event, ctx);

	return ret;
}

/**
 * perf_event_free_bpf_prog() - detach and release @event's program
 * @event: the event (being freed, or its BPF link going away)
 */
void perf_event_free_bpf_prog(struct perf_event *event)
{
#ifdef CONFIG_EVENT_TRACING
	if (is_tracing_event(event)) {
		perf_event_detach_bpf_prog(event);
		return;
	}
#endif
	perf_bpf_handler_detach(event);
}
