// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what happens when an event overflows, and side-band records.
 *
 * Samples themselves are sample.c's.  What is left here, in this order:
 *
 *  1. Side-band record plumbing, and the records addressed to one event
 *     (LOST_SAMPLES, THROTTLE, READ, ITRACE_START, AUX_OUTPUT_HW_ID).
 *  2. Overflow: the sample-rate sysctls, throttling, frequency
 *     bookkeeping, event_limit, SIGTRAP, the BPF hook, the overflow
 *     handler and the deferred (irq_work and task_work) actions that NMI
 *     context cannot do itself.
 *  3. Side-band records (mmap, comm, fork/exit, switch, ...), sent to the
 *     events that registered interest in them.
 *
 * Nothing here takes a context lock: overflows happen in the PMU
 * interrupt (often an NMI) and side-band records come from hooks of the
 * rest of the kernel, under RCU with preemption off.
 */
#include <linux/bpf.h>
#include <linux/buildid.h>
#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/hugetlb.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pgtable.h>
#include <linux/pid_namespace.h>
#include <linux/proc_ns.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/task_work.h>
#include <linux/tick.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "layout.h"
#include "freq.h"

/* ======================================================================
 * 1. Side-band record plumbing
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

/* ======================================================================
 * 2. Overflow
 */

/* --- sample rate limits --- */

#define PERF_DEFAULT_SAMPLE_RATE	100000
#define PERF_DEFAULT_CPU_PERCENT	25

int sysctl_perf_event_sample_rate __read_mostly = PERF_DEFAULT_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly = PERF_DEFAULT_CPU_PERCENT;
int max_samples_per_tick __read_mostly =
	DIV_ROUND_UP(PERF_DEFAULT_SAMPLE_RATE, HZ);

/*
 * The limits as freq.c derives them.  Samples read @perf_allowed_ns
 * locklessly (from NMI); the sysctl handlers and the automatic lowering
 * rewrite it, the latter from any CPU, which at worst loses one lowering
 * to another.
 */
static u64 perf_allowed_ns __read_mostly =
	NSEC_PER_SEC / PERF_DEFAULT_SAMPLE_RATE * PERF_DEFAULT_CPU_PERCENT / 100;
static DEFINE_PER_CPU(u64, perf_sample_cost);

static void perf_limits_snapshot(struct perf_rate_limits *lim)
{
	lim->max_sample_rate = READ_ONCE(sysctl_perf_event_sample_rate);
	lim->cpu_time_max_percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	lim->max_samples_per_tick = READ_ONCE(max_samples_per_tick);
	lim->sample_period_ns = NSEC_PER_SEC / max(lim->max_sample_rate, 1U);
	lim->allowed_ns = READ_ONCE(perf_allowed_ns);
}

static void perf_limits_publish(const struct perf_rate_limits *lim)
{
	WRITE_ONCE(max_samples_per_tick, lim->max_samples_per_tick);
	WRITE_ONCE(sysctl_perf_event_sample_rate, lim->max_sample_rate);
	WRITE_ONCE(perf_allowed_ns, lim->allowed_ns);
}

/* Rebuild the limits from the two sysctls after a write. */
static void perf_limits_from_sysctls(void)
{
	struct perf_rate_limits lim;

	perf_rate_limits_set(&lim, READ_ONCE(sysctl_perf_event_sample_rate),
			     READ_ONCE(sysctl_perf_cpu_time_max_percent), HZ);
	perf_limits_publish(&lim);
}

/**
 * perf_event_max_sample_rate_handler() - kernel.perf_event_max_sample_rate
 * @table: the sysctl
 * @write: a write?
 * @buffer: user data
 * @lenp: its length
 * @ppos: file position
 *
 * With the CPU time limit off (0 or 100 percent) nothing would ever lower
 * the rate again, so the rate may not be set then.
 *
 * Return: 0 or an errno.
 */
int perf_event_max_sample_rate_handler(const struct ctl_table *table,
				       int write, void *buffer, size_t *lenp,
				       loff_t *ppos)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	int ret;

	if (write && (percent == 0 || percent == 100))
		return -EINVAL;

	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	perf_limits_from_sysctls();
	return 0;
}

/**
 * perf_cpu_time_max_percent_handler() - kernel.perf_cpu_time_max_percent
 * @table: the sysctl
 * @write: a write?
 * @buffer: user data
 * @lenp: its length
 * @ppos: file position
 *
 * Return: 0 or an errno.
 */
int perf_cpu_time_max_percent_handler(const struct ctl_table *table,
				      int write, void *buffer, size_t *lenp,
				      loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	int percent;

	if (ret || !write)
		return ret;

	percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	if (percent == 0 || percent == 100)
		pr_warn("perf: sample rate no longer adapts to interrupt cost; a high rate can hang the system\n");
	perf_limits_from_sysctls();
	return 0;
}

/* What the last lowering saw, for the message printed outside NMI. */
static u64 perf_report_cost, perf_report_budget;

static void perf_report_lowered(struct irq_work *work)
{
	pr_info_ratelimited("perf: samples cost %llu ns on average (budget %llu ns); kernel.perf_event_max_sample_rate lowered to %d\n",
			    READ_ONCE(perf_report_cost),
			    READ_ONCE(perf_report_budget),
			    READ_ONCE(sysctl_perf_event_sample_rate));
}

static DEFINE_IRQ_WORK(perf_lowered_work, perf_report_lowered);

/**
 * perf_sample_event_took() - account the cost of one sample
 * @sample_len_ns: how long the PMU interrupt took
 *
 * Keeps a running average per CPU; when it exceeds the share of CPU time
 * kernel.perf_cpu_time_max_percent allows, the maximum sample rate (and
 * with it the per-tick throttling threshold) is lowered.  NMI safe.
 */
void perf_sample_event_took(u64 sample_len_ns)
{
	struct perf_rate_limits lim;
	u64 total;

	if (!READ_ONCE(perf_allowed_ns))
		return;

	total = perf_rate_average(__this_cpu_read(perf_sample_cost),
				  sample_len_ns);
	__this_cpu_write(perf_sample_cost, total);

	perf_limits_snapshot(&lim);
	if (!perf_rate_lower(&lim, total, HZ))
		return;

	WRITE_ONCE(perf_report_cost, total / PERF_RATE_AVG_SAMPLES);
	WRITE_ONCE(perf_report_budget, READ_ONCE(perf_allowed_ns));
	perf_limits_publish(&lim);
	irq_work_queue(&perf_lowered_work);
}

/* --- frequency mode --- */

/*
 * Frequency events re-estimate their period from the rate at which they
 * count: hw.freq_count_stamp and hw.freq_time_stamp mark the last
 * estimate, made at an overflow or at a tick, whichever came last.  A
 * window longer than two ticks means the event was not counting for a
 * while (switched out, multiplexed): it says nothing about the rate, so it
 * only restarts the window.
 */
static bool perf_freq_estimate(struct perf_event *event, u64 now,
			       u64 *period)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 count = local64_read(&event->count);
	s64 elapsed = now - hwc->freq_time_stamp;
	s64 counted = count - hwc->freq_count_stamp;

	hwc->freq_time_stamp = now;
	hwc->freq_count_stamp = count;

	if (elapsed <= 0 || elapsed >= 2 * TICK_NSEC || counted <= 0)
		return false;

	*period = perf_freq_step(hwc->sample_period,
				 perf_freq_period(counted, elapsed,
						  event->attr.sample_freq));
	return true;
}

/*
 * At an overflow: only the period the next reload uses changes; the
 * counter that is already programmed is left alone.
 */
static void perf_freq_overflow(struct perf_event *event)
{
	u64 period;

	if (!event->attr.sample_freq)
		return;
	if (perf_freq_estimate(event, perf_clock(), &period))
		event->hw.sample_period = period;
}

/**
 * perf_adjust_freq_event() - the tick's period adjustment of a freq event
 * @event: an active event with attr.freq, on this CPU, ctx->lock held
 * @now_ns: the time of this tick
 *
 * Refreshes the count, re-estimates the period and, when the time left in
 * the current period is far longer than the new period asks for, restarts
 * the counter so that the new period applies now rather than after it.
 * The window is timed with perf_clock(), as at overflows, so that both
 * agree whatever clock the caller read @now_ns from.
 */
void perf_adjust_freq_event(struct perf_event *event, u64 now_ns)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period;
	s64 left;

	if (!event->attr.freq || !event->attr.sample_freq)
		return;
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	/* Throttled or stopped: the unthrottling tick starts it again. */
	if (hwc->interrupts == MAX_INTERRUPTS ||
	    (hwc->state & PERF_HES_STOPPED))
		return;

	event->pmu->read(event);
	if (!perf_freq_estimate(event, perf_clock(), &period))
		return;
	if (period == hwc->sample_period)
		return;

	hwc->sample_period = period;
	left = local64_read(&hwc->period_left);
	if (left > 0 && (u64)left / 8 > period) {
		event->pmu->stop(event, PERF_EF_UPDATE);
		/* Nothing left: the restart loads a whole new period. */
		local64_set(&hwc->period_left, 0);
		event->pmu->start(event, PERF_EF_RELOAD);
	}
}

/* --- throttling --- */

/*
 * Interrupts are counted per tick: hw.interrupts_seq holds the jiffy of
 * the count, and a new jiffy starts a new count.  An event that reaches
 * max_samples_per_tick within one is throttled: hw.interrupts becomes
 * MAX_INTERRUPTS and the PMU stops it until sched.c's tick restarts it
 * (perf_event_unthrottle()).  The tick must keep running on this CPU
 * for that, even on a nohz_full CPU.
 */
static int perf_account_interrupt(struct perf_event *event, int throttle)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 tick = get_jiffies_64();
	int stop = 0;

	if (hwc->interrupts_seq != tick) {
		hwc->interrupts_seq = tick;
		hwc->interrupts = 1;
	} else if (hwc->interrupts == MAX_INTERRUPTS) {
		/* Throttled already and still interrupting: stop it again. */
		stop = 1;
	} else {
		hwc->interrupts++;
	}

	if (throttle && !stop &&
	    hwc->interrupts >= READ_ONCE(max_samples_per_tick)) {
		hwc->interrupts = MAX_INTERRUPTS;
		__this_cpu_write(perf_throttled_here, true);
		tick_dep_set_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
		perf_log_throttle(event, 0);
		stop = 1;
	}

	if (event->attr.freq)
		perf_freq_overflow(event);
	return stop;
}

/**
 * perf_event_account_interrupt() - count an interrupt that takes no sample
 * @event: the event
 *
 * For drivers that drop a sample but must still feed throttling and
 * frequency mode.
 *
 * Return: nonzero when the event is now throttled and must be stopped.
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	return perf_account_interrupt(event, 1);
}

/* --- deferred actions --- */

/**
 * perf_event_disable_inatomic() - disable an event from NMI/IRQ context
 * @event: the event
 *
 * The disable itself needs the context lock, so it runs from an irq_work
 * on the CPU the event counts on.
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
	irq_work_queue(&event->pending_disable_irq);
}

static void perf_pending_disable_run(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_disable_irq);
	int rctx = perf_swevent_get_recursion_context();
	int cpu = READ_ONCE(event->oncpu);

	/*
	 * Not on a PMU any more: whoever scheduled it out saw
	 * pending_disable.  Moved to another CPU since the work was queued:
	 * follow it there.
	 */
	if (cpu >= 0) {
		if (cpu != smp_processor_id()) {
			irq_work_queue_on(work, cpu);
		} else if (READ_ONCE(event->pending_disable)) {
			WRITE_ONCE(event->pending_disable, 0);
			perf_event_disable_local(event);
		}
	}

	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

static void perf_pending_irq_run(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_irq);
	int rctx = perf_swevent_get_recursion_context();

	/* Wakeups go to the buffer's readers wherever the event runs now. */
	if (READ_ONCE(event->pending_wakeup)) {
		WRITE_ONCE(event->pending_wakeup, 0);
		perf_event_wakeup(event);
	}

	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/*
 * SIGTRAP for attr.sigtrap, on the way back to user space of the task the
 * overflow interrupted.  Only that task gets it, and only while it is
 * still the event's task (it may have exited or exec'd meanwhile).
 */
static void perf_send_sigtrap(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	if (!ctx || READ_ONCE(ctx->task) != current)
		return;
	send_sig_perf((void __user *)event->pending_addr, event->orig_type,
		      event->attr.sig_data);
}

static void perf_pending_task_run(struct callback_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event,
						pending_task);
	int rctx = perf_swevent_get_recursion_context();

	if (event->pending_work) {
		event->pending_work = 0;
		perf_send_sigtrap(event);
		atomic_dec(&event->ctx->nr_pending_sigtrap);
	}
	/* The reference the overflow took for this work. */
	put_event(event);

	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/**
 * perf_event_pending_init() - set up the event's deferred work items
 * @event: a new event
 */
void perf_event_pending_init(struct perf_event *event)
{
	init_irq_work(&event->pending_irq, perf_pending_irq_run);
	/* Disabling takes raw locks only: fine in hard IRQ, even on RT. */
	event->pending_disable_irq = IRQ_WORK_INIT_HARD(perf_pending_disable_run);
	init_task_work(&event->pending_task, perf_pending_task_run);
}

/**
 * perf_event_pending_sync() - wait for the event's deferred work items
 * @event: an event about to be freed
 *
 * A queued SIGTRAP task_work holds a reference, so by the time the event
 * is freed it has run; should one still be queued, it is cancelled.
 * May sleep.
 */
void perf_event_pending_sync(struct perf_event *event)
{
	irq_work_sync(&event->pending_irq);
	irq_work_sync(&event->pending_disable_irq);

	if (WARN_ON_ONCE(READ_ONCE(event->pending_work)) && event->hw.target &&
	    task_work_cancel(event->hw.target, &event->pending_task)) {
		event->pending_work = 0;
		atomic_dec(&event->ctx->nr_pending_sigtrap);
	}
}

/* --- the overflow path --- */

/*
 * An interrupt that arrived in the kernel for an event that excludes the
 * kernel (skid) does not describe user space: its address is not reported
 * to the SIGTRAP handler.
 */
static bool perf_sample_in_scope(struct perf_event *event,
				 struct pt_regs *regs)
{
	return !event->attr.exclude_kernel || (regs && user_mode(regs));
}

static void perf_queue_sigtrap(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	bool in_scope = perf_sample_in_scope(event, regs);
	unsigned int site = 1;

	/* Identifies the overflow site, to tell a repeat from progress. */
	if (regs)
		site = hash32_ptr((void *)instruction_pointer(regs)) ?: 1;

	if (!event->pending_work &&
	    !task_work_add(current, &event->pending_task,
			   in_nmi() ? TWA_NMI_CURRENT : TWA_RESUME)) {
		WARN_ON_ONCE(!perf_event_tryget(event));
		/* Keeps the context with this task until the work ran. */
		atomic_inc(&event->ctx->nr_pending_sigtrap);
		event->pending_work = site;
		event->pending_addr = 0;
		if (in_scope && (data->sample_flags & PERF_SAMPLE_ADDR))
			event->pending_addr = data->addr;
		return;
	}

	/*
	 * One SIGTRAP is still queued.  A user-only event cannot overflow
	 * again before the task returns to user space and takes it, unless
	 * it overflows again at the same place (a timer-driven event).
	 */
	if (event->attr.exclude_kernel && in_scope)
		WARN_ON_ONCE(event->pending_work != site);
}

/**
 * __perf_event_overflow() - an event's period ran out
 * @event: the event
 * @throttle: whether this overflow counts towards throttling
 * @data: the sample data the PMU prepared
 * @regs: the interrupted registers
 *
 * Return: nonzero when the PMU must stop the event: it is throttled, or
 * its PERF_EVENT_IOC_REFRESH budget ran out.
 */
int __perf_event_overflow(struct perf_event *event, int throttle,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	perf_overflow_handler_t handler;
	int stop;

	/* Counting events may still take interrupts to widen the counter. */
	if (unlikely(!is_sampling_event(event)))
		return 0;

	stop = perf_account_interrupt(event, throttle);

	if (event->attr.aux_pause && event->aux_event)
		perf_event_aux_pause(event->aux_event, true);

	if (event->prog && event->prog->type == BPF_PROG_TYPE_PERF_EVENT &&
	    !perf_event_run_bpf(event, data, regs))
		goto done;

	event->pending_kill = POLL_IN;
	/* PERF_EVENT_IOC_REFRESH: the last allowed overflow disables. */
	if (atomic_read(&event->event_limit) &&
	    atomic_dec_and_test(&event->event_limit)) {
		stop = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}

	if (event->attr.sigtrap)
		perf_queue_sigtrap(event, data, regs);

	handler = READ_ONCE(event->overflow_handler);
	if (!handler)
		handler = perf_default_overflow_handler(event);
	handler(event, data, regs);

	/* SIGIO for fasync users, sent from the irq_work. */
	if (*perf_event_fasync(event) && event->pending_kill) {
		WRITE_ONCE(event->pending_wakeup, 1);
		irq_work_queue(&event->pending_irq);
	}

done:
	if (event->attr.aux_resume && event->aux_event)
		perf_event_aux_pause(event->aux_event, false);
	return stop;
}

/**
 * perf_event_overflow() - overflow entry point for PMU drivers
 * @event: the event
 * @data: the sample data
 * @regs: the interrupted registers
 *
 * Called with IRQs off (from the PMU interrupt), which keeps the event on
 * its context while the sample is written.
 *
 * Return: nonzero when the PMU must stop the event.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	lockdep_assert_irqs_disabled();
	return __perf_event_overflow(event, 1, data, regs);
}

/* ======================================================================
 * 3. Side-band records
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
