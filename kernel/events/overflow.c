// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what happens when an event's period runs out.
 *
 * Owns:
 *  - the overflow path, perf_event_overflow() and __perf_event_overflow():
 *    count the interrupt, pause the AUX event, let a perf_event BPF
 *    program drop the sample, spend the PERF_EVENT_IOC_REFRESH budget
 *    (event_limit), queue SIGTRAP, then call the overflow handler
 *    (sample.c's writer unless the creator named another);
 *  - frequency mode: the period re-estimated at overflows and ticks;
 *  - throttling and unthrottling: an event that interrupts
 *    max_samples_per_tick times in one tick is stopped until the next
 *    tick; this CPU's nohz_full tick dependency is set at the throttle
 *    and cleared by the tick that lets it go.  sched.c's tick walks the
 *    active groups and hands each event to perf_tick_event() here (the
 *    system-wide dependency that frequency events hold for their whole
 *    life is event.c's);
 *  - kernel.perf_event_max_sample_rate and perf_cpu_time_max_percent, and
 *    the lowering of the rate when samples cost too much CPU time;
 *  - the deferred actions an NMI cannot do itself: disabling the event
 *    and waking readers (irq_work), sending SIGTRAP (task_work).
 *
 * Context: overflows come from the PMU interrupt (an NMI on x86, and on
 * arm64 with pseudo-NMIs), from hrtimers, or from a software event's hook
 * at any level from task to NMI; always with IRQs off, on the CPU the
 * event counts on.  perf_tick_claim_throttled() and perf_tick_event() run
 * in the tick, IRQs off, the latter with the event's context locked;
 * perf_event_unthrottle() also at sched in and period changes, with the
 * context locked.  The irq_works run from the irq_work interrupt of the
 * CPU that queued them (the disable one follows the event to its new CPU;
 * on PREEMPT_RT the wakeup one runs in a thread), the SIGTRAP task_work
 * on the interrupted task's way back to user space, the sysctl handlers
 * in the writing task.
 *
 * Locks: none of its own.  An event's throttle and frequency state
 * (hw.interrupts, hw.freq_*) is only touched on the CPU it counts on:
 * by its overflows, and by the tick, sched in and period changes with
 * the context locked and IRQs off.  The rate limits are read locklessly,
 * from NMI; a racing update at worst loses one lowering to another.
 */
#include <linux/bpf.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/sched/signal.h>
#include <linux/sysctl.h>
#include <linux/task_work.h>
#include <linux/tick.h>

#include "internal.h"
#include "freq.h"

/* --- sample rate limits --- */

#define PERF_DEFAULT_SAMPLE_RATE	100000
#define PERF_DEFAULT_CPU_PERCENT	25

int sysctl_perf_event_sample_rate __read_mostly = PERF_DEFAULT_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly = PERF_DEFAULT_CPU_PERCENT;
static int max_samples_per_tick __read_mostly =
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

/*
 * The tick's period adjustment of an active freq event on this CPU, its
 * context locked: refresh the count, re-estimate the period and, when
 * the time left in the current period is far longer than the new period
 * asks for, restart the counter so that the new period applies now
 * rather than after it.  The window is timed with perf_clock(), as at
 * overflows, so that both agree whatever clock the caller read @now_ns
 * from.
 */
static void perf_adjust_freq_event(struct perf_event *event, u64 now_ns)
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

/* --- throttling and unthrottling --- */

/*
 * Interrupts are counted per tick: hw.interrupts_seq holds the jiffy of
 * the count, and a new jiffy starts a new count.  An event that reaches
 * max_samples_per_tick within one is throttled: hw.interrupts becomes
 * MAX_INTERRUPTS and the PMU stops it.  It runs again at the next tick
 * (perf_tick_event()), or earlier if it is scheduled in again or given a
 * new period (perf_event_unthrottle()).
 *
 * That tick must come even on a nohz_full CPU, so a throttle sets this
 * CPU's perf tick dependency together with perf_throttled_here, and the
 * tick that consumes the flag clears both (perf_tick_claim_throttled()).
 * Written by overflows, read and cleared by the tick, all on this CPU.
 */
static DEFINE_PER_CPU(bool, perf_throttled_here);

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

/**
 * perf_event_unthrottle() - let a throttled event count again
 * @event: the event, its context locked, on this CPU
 * @start: restart it on the PMU (it is active and stopped)
 */
void perf_event_unthrottle(struct perf_event *event, bool start)
{
	event->hw.interrupts = 0;
	perf_log_throttle(event, 1);
	if (start)
		event->pmu->start(event, 0);
}

/**
 * perf_tick_claim_throttled() - take this CPU's pending unthrottle
 *
 * Called by the tick, IRQs off, before it walks this CPU's contexts.
 *
 * Return: true if an event was throttled here since the last tick: the
 * walk must then offer every active event to perf_tick_event().
 */
bool perf_tick_claim_throttled(void)
{
	if (!__this_cpu_read(perf_throttled_here))
		return false;
	/*
	 * This tick unthrottles every throttled event of this CPU that is
	 * still on it (one taken off is unthrottled when it goes back on),
	 * so a nohz_full CPU may stop ticking again.  A throttle from here
	 * on sets both again.
	 */
	__this_cpu_write(perf_throttled_here, false);
	tick_dep_clear_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
	return true;
}

/**
 * perf_tick_event() - the tick's work for one event of this CPU
 * @event: an event of a context scheduled in here, the context locked
 * @now: the time of this tick
 *
 * A throttled event that is still active runs again; a frequency event
 * has its period adjusted.
 */
void perf_tick_event(struct perf_event *event, u64 now)
{
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	if (event->hw.interrupts == MAX_INTERRUPTS)
		perf_event_unthrottle(event, true);
	if (event->attr.freq && event->attr.sample_freq)
		perf_adjust_freq_event(event, now);
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
	int rctx = perf_recursion_enter();
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
		perf_recursion_leave(rctx);
}

static void perf_pending_irq_run(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_irq);
	int rctx = perf_recursion_enter();

	/* Wakeups go to the buffer's readers wherever the event runs now. */
	if (READ_ONCE(event->pending_wakeup)) {
		WRITE_ONCE(event->pending_wakeup, 0);
		perf_event_wakeup(event);
	}

	if (rctx >= 0)
		perf_recursion_leave(rctx);
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
	int rctx = perf_recursion_enter();

	if (event->pending_work) {
		event->pending_work = 0;
		perf_send_sigtrap(event);
		atomic_dec(&event->ctx->nr_pending_sigtrap);
	}
	/* The reference the overflow took for this work. */
	put_event(event);

	if (rctx >= 0)
		perf_recursion_leave(rctx);
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
