// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the software PMUs.
 *
 * Three PMUs live here:
 *
 *  - "software" (PERF_TYPE_SOFTWARE): counters the kernel bumps in-line
 *    through perf_sw_event() (page faults, context switches, migrations,
 *    ...).  An event on the PMU sits in its context's chain for its
 *    attr.config (ctx->sw_events); raising a software event walks, under
 *    RCU, that chain of this CPU's context and of the task context
 *    scheduled in here.  Nothing of it is per CPU, so a task's software
 *    groups need not come off and go on again at every context switch:
 *    they follow their context (PERF_EV_CAP_FOLLOWS_CTX, sched.c), and
 *    switching a task with many of them costs what switching one does.
 *
 *  - "cpu_clock" and "task_clock": nanosecond counters that sample from
 *    an hrtimer; a counting task-clock follows its context too.  They
 *    take PERF_TYPE_SOFTWARE with config PERF_COUNT_SW_CPU_CLOCK /
 *    PERF_COUNT_SW_TASK_CLOCK: the software PMU hands those over by
 *    rewriting attr.type to the clock PMU's dynamic type and answering
 *    -ENOENT, which makes the registry look again.  They have no sysfs
 *    device, so only "software" shows up under
 *    /sys/bus/event_source/devices.
 *
 * The counting and overflow logic shared with tracepoints, kprobes,
 * uprobes and breakpoints is perf_swevent_count() below.
 */
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rculist.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/irq_regs.h>

#include "internal.h"

/* One static key per software event id: perf_sw_event() tests it. */
struct static_key perf_swevent_enabled[PERF_COUNT_SW_MAX];
EXPORT_SYMBOL_GPL(perf_swevent_enabled);

/* Register sets for events raised without registers, one per level. */
DEFINE_PER_CPU(struct pt_regs, __perf_regs[4]);

/* ======================================================================
 * Recursion protection.
 *
 * A software event or tracepoint raised while perf already handles one
 * at the same interrupt level would recurse into the output code; the
 * guard lets each level (task, softirq, hardirq, NMI) in only once.  The
 * counters are current's: the work is done with preemption disabled, so
 * the task cannot move while it holds a level.
 */

/**
 * perf_swevent_get_recursion_context() - claim this interrupt level
 *
 * Must be called with preemption disabled.
 *
 * Return: the level (0..3) to hand back to
 * perf_swevent_put_recursion_context(), or -1 when perf is already busy
 * at this level and the caller must drop its event.
 */
int perf_swevent_get_recursion_context(void)
{
	return perf_recursion_enter();
}
EXPORT_SYMBOL_GPL(perf_swevent_get_recursion_context);

/**
 * perf_swevent_put_recursion_context() - release a level
 * @rctx: what perf_swevent_get_recursion_context() returned
 */
void perf_swevent_put_recursion_context(int rctx)
{
	perf_recursion_leave(rctx);
}
EXPORT_SYMBOL_GPL(perf_swevent_put_recursion_context);

/* ======================================================================
 * Sampling period bookkeeping.
 *
 * event->count grows by the amount reported; hw.period_left runs
 * alongside it as a negative number that climbs towards zero.  Once an
 * addition makes it non-negative at least one period has elapsed, and
 * perf_swevent_set_period() works out how many and pushes period_left
 * back below zero.
 */

/**
 * perf_swevent_set_period() - consume the periods that have elapsed
 * @event: a sampling event using hw.period_left
 *
 * Also makes hw.sample_period the period in force from now on (it may
 * have been changed by the frequency logic or an ioctl).
 *
 * Return: how many whole periods hw.period_left says have passed; 0 if
 * the current one is still running.
 */
u64 perf_swevent_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 elapsed_period = hwc->last_period;
	s64 left, rearmed;
	u64 crossed;

	hwc->last_period = hwc->sample_period;
	if (unlikely(!elapsed_period))
		return 0;

	left = local64_read(&hwc->period_left);
	do {
		if (left < 0)
			return 0;
		/* left == 0 means exactly one period has just ended. */
		crossed = div64_u64((u64)left, elapsed_period) + 1;
		rearmed = left - (s64)(crossed * elapsed_period);
	} while (!local64_try_cmpxchg(&hwc->period_left, &left, rearmed));

	return crossed;
}

/*
 * Deliver @overflows samples (0: find out from period_left).  Only the
 * first may skip the throttle accounting; the rest of a burst counts
 * against the event like separate interrupts would.
 */
static void swevent_emit(struct perf_event *event, u64 overflows,
			 struct perf_sample_data *data, struct pt_regs *regs)
{
	int may_throttle = 0;

	if (!overflows)
		overflows = perf_swevent_set_period(event);

	/* Throttled: the tick will let it go again. */
	if (event->hw.interrupts == MAX_INTERRUPTS)
		return;

	while (overflows) {
		if (__perf_event_overflow(event, may_throttle, data, regs))
			break;
		may_throttle = 1;
		overflows--;
	}
}

/**
 * perf_swevent_count() - count @nr occurrences and sample if due
 * @event: an event of one of the in-line PMUs (software, tracepoint,
 *	   kprobe, uprobe, breakpoint)
 * @nr: how many occurrences
 * @data: sample data, initialised by the caller (addr, raw record)
 * @regs: the registers at the occurrence, or NULL to only count
 *
 * Called with preemption (or interrupts) disabled, which is what keeps
 * @event alive: it is reached through RCU lists or under ctx->lock.
 */
void perf_swevent_count(struct perf_event *event, u64 nr,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned long flags;
	bool fixed;

	lockdep_assert_preemption_disabled();

	local64_add(nr, &event->count);

	if (!regs || !is_sampling_event(event))
		return;

	/*
	 * Sampling must not race with the event leaving its context: the
	 * removal runs by IPI on this CPU, so with interrupts off the event
	 * is either still active here or already gone from the PMU.
	 */
	local_irq_save(flags);
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		goto out;

	fixed = !event->attr.freq;

	if (fixed && (event->attr.sample_type & PERF_SAMPLE_PERIOD)) {
		/* The period can be reported exactly: sample every time. */
		data->period = nr;
		swevent_emit(event, 1, data, regs);
		goto out;
	}

	data->period = hwc->last_period;

	if (fixed && nr == 1 && hwc->sample_period == 1) {
		/* Every occurrence is a sample; skip the arithmetic. */
		swevent_emit(event, 1, data, regs);
	} else if (!local64_add_negative(nr, &hwc->period_left)) {
		swevent_emit(event, 0, data, regs);
	}
out:
	local_irq_restore(flags);
}

/*
 * Whether an in-line event ignores an occurrence: it is stopped, or the
 * privilege level of @regs is excluded.  Without registers there is no
 * privilege level to test.
 */
static bool swevent_excluded(struct perf_event *event, struct pt_regs *regs)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return true;
	if (!regs)
		return false;
	if (user_mode(regs))
		return event->attr.exclude_user;
	return event->attr.exclude_kernel;
}

/* ======================================================================
 * Raising software events.
 */

/*
 * Raise the event in one context's chain.  @data is the caller's: a
 * kernel built with stack auto-initialisation clears a struct
 * perf_sample_data on every call that declares one, and this runs twice
 * per software event.  An empty chain (most often this CPU's) costs only
 * the test; inlined into its one caller, which calls it twice.
 */
static __always_inline void
swevent_raise_in(struct perf_event_context *ctx, u32 event_id, u64 nr,
		 struct pt_regs *regs, u64 addr, struct perf_sample_data *data)
{
	struct hlist_head *chain = &ctx->sw_events[event_id];
	struct perf_event *event;

	if (hlist_empty(chain))
		return;
	hlist_for_each_entry_rcu(event, chain, hlist_entry) {
		if (swevent_excluded(event, regs))
			continue;
		/* A counting event only adds: no sample data to prepare. */
		if (!is_sampling_event(event)) {
			perf_swevent_count(event, nr, NULL, NULL);
			continue;
		}
		/*
		 * Fresh sample data per event: preparing a sample records
		 * in it what was already filled in.
		 */
		perf_sample_data_init(data, addr, 0);
		perf_swevent_count(event, nr, data, regs);
	}
}

/**
 * ___perf_sw_event() - count a software event on this CPU, unguarded
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many occurrences
 * @regs: registers at the occurrence (required)
 * @addr: data address to report, or 0
 *
 * The caller provides recursion protection (or, like the scheduler's
 * hooks, knows it cannot recurse) and has preemption disabled.
 */
void ___perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *task_ctx;
	/*
	 * Initialised per sampling event; most events only count.  Left
	 * alone by CONFIG_INIT_STACK_ALL_ZERO, which would clear all of it
	 * at every context switch and page fault.
	 */
	struct perf_sample_data data __uninitialized;

	if (WARN_ON_ONCE(!regs || event_id >= PERF_COUNT_SW_MAX))
		return;

	/*
	 * Contexts are freed after a grace period, events too, and an
	 * event leaves its chain with hlist_del_rcu(): what we reach here
	 * stays readable until the unlock.  The task context is the one
	 * scheduled in on this CPU, so its events are current's.
	 */
	rcu_read_lock();
	swevent_raise_in(&cpuctx->ctx, event_id, nr, regs, addr, &data);
	task_ctx = READ_ONCE(cpuctx->task_ctx);
	if (task_ctx)
		swevent_raise_in(task_ctx, event_id, nr, regs, addr, &data);
	rcu_read_unlock();
}

/**
 * __perf_sw_event() - count a software event, with recursion protection
 * @event_id: PERF_COUNT_SW_*
 * @nr: how many occurrences
 * @regs: registers at the occurrence, or NULL for the caller's
 * @addr: data address to report, or 0
 *
 * The slow path of perf_sw_event(), taken when some event of @event_id
 * exists.
 */
void __perf_sw_event(u32 event_id, u64 nr, struct pt_regs *regs, u64 addr)
{
	int level;

	preempt_disable_notrace();

	level = perf_recursion_enter();
	if (unlikely(level < 0))
		goto done;

	if (!regs) {
		/* Use this level's spare register set. */
		regs = this_cpu_ptr(&__perf_regs[level]);
		memset(regs, 0, sizeof(*regs));
		perf_fetch_caller_regs(regs);
	}

	___perf_sw_event(event_id, nr, regs, addr);
	perf_recursion_leave(level);
done:
	preempt_enable_notrace();
}

/* ======================================================================
 * The "software" PMU.
 */
static struct pmu swevent_pmu;
static struct pmu cpu_clock_pmu;
static struct pmu task_clock_pmu;

/*
 * Software, tracepoint and probe events and breakpoints count in line:
 * the code that sees the counted thing adds to event->count then and
 * there, so starting and stopping only gate that, and a read has nothing
 * to fold in.  Their PMUs all share these three callbacks.
 */
void perf_inline_pmu_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
}

void perf_inline_pmu_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

void perf_inline_pmu_read(struct perf_event *event)
{
}

/*
 * add and del change only the event's context, under its lock, never
 * anything of this CPU: a group that followed its context to another CPU
 * (sched.c) may be taken off there, or from a CPU where the context does
 * not run at all.
 */
static int swevent_pmu_add(struct perf_event *event, int flags)
{
	struct perf_event_context *ctx = event->ctx;
	struct hw_perf_event *hwc = &event->hw;

	lockdep_assert_held(&ctx->lock);

	if (is_sampling_event(event)) {
		/*
		 * A period that ran out while the event was off yields no
		 * sample; a partly used one carries on.
		 */
		hwc->last_period = hwc->sample_period;
		perf_swevent_set_period(event);
	}

	hwc->state = (flags & PERF_EF_START) ? 0 : PERF_HES_STOPPED;

	hlist_add_head_rcu(&event->hlist_entry,
			   &ctx->sw_events[event->attr.config]);
	perf_event_update_userpage(event);
	return 0;
}

static void swevent_pmu_del(struct perf_event *event, int flags)
{
	lockdep_assert_held(&event->ctx->lock);
	hlist_del_rcu(&event->hlist_entry);
}

static void swevent_destroy(struct perf_event *event)
{
	static_key_slow_dec(&perf_swevent_enabled[event->attr.config]);
}

static int swevent_event_init(struct perf_event *event)
{
	u64 id = event->attr.config;

	if (event->attr.type != PERF_TYPE_SOFTWARE)
		return -ENOENT;

	/* Nothing here records branches. */
	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	/* The clocks are PMUs of their own: send the event there. */
	if (id == PERF_COUNT_SW_CPU_CLOCK) {
		event->attr.type = cpu_clock_pmu.type;
		return -ENOENT;
	}
	if (id == PERF_COUNT_SW_TASK_CLOCK) {
		event->attr.type = task_clock_pmu.type;
		return -ENOENT;
	}

	if (id >= PERF_COUNT_SW_MAX)
		return -ENOENT;

	/*
	 * An inherited copy counts under its origin's key: the origin holds
	 * it until it is freed, which is after its last copy.
	 */
	if (!event->parent) {
		static_key_slow_inc(&perf_swevent_enabled[id]);
		event->destroy = swevent_destroy;
	}
	event->event_caps |= PERF_EV_CAP_FOLLOWS_CTX;
	return 0;
}

static struct pmu swevent_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.event_init	= swevent_event_init,
	.add		= swevent_pmu_add,
	.del		= swevent_pmu_del,
	.start		= perf_inline_pmu_start,
	.stop		= perf_inline_pmu_stop,
	.read		= perf_inline_pmu_read,
};

/* ======================================================================
 * cpu-clock and task-clock.
 *
 * Both count nanoseconds from hw.prev_count; they differ in the clock:
 * cpu-clock reads local_clock(), task-clock the context clock, which
 * stands still while the context is scheduled out.  Sampling events run
 * a pinned hrtimer of period hw.sample_period nanoseconds; when the
 * timer is stopped, what was left of the period is kept in
 * hw.period_left so that a restart resumes it.
 *
 * hw.state is PERF_HES_STOPPED while not counting.  The timer callback
 * tests it after an overflow: the overflow path may stop the event from
 * inside the callback, and then the timer must not rearm.
 */

/* Shortest timer period, to keep a tiny period from live-locking a CPU. */
#define SWCLOCK_MIN_NS	10000ULL

static u64 swclock_read_clock(struct perf_event *event)
{
	if (event->pmu == &task_clock_pmu)
		return perf_event_clock_now(event);
	return local_clock();
}

/*
 * The clock at the instant of a scheduling operation (add and del).  The
 * pass that calls them has just brought the context clock up to date, and
 * reading it again would cost a clock read per event; it also makes a
 * task-clock count exactly the time_running the same pass accounts.
 */
static u64 swclock_sched_clock(struct perf_event *event)
{
	if (event->pmu == &task_clock_pmu)
		return perf_event_ctx_time(event);
	return local_clock();
}

/* Add the time from the last fold to @now to the count. */
static void swclock_fold_at(struct perf_event *event, u64 now)
{
	u64 then = local64_xchg(&event->hw.prev_count, now);

	local64_add(now - then, &event->count);
}

static void swclock_fold(struct perf_event *event)
{
	swclock_fold_at(event, swclock_read_clock(event));
}

static enum hrtimer_restart swclock_timer_fn(struct hrtimer *timer)
{
	struct perf_event *event = container_of(timer, struct perf_event,
						hw.hrtimer);
	struct hw_perf_event *hwc = &event->hw;
	struct perf_sample_data data;
	struct pt_regs *regs;
	bool excluded;

	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    (hwc->state & PERF_HES_STOPPED))
		return HRTIMER_NORESTART;

	/* Bring the count up to date for PERF_SAMPLE_READ. */
	swclock_fold(event);

	/* A timer that did not interrupt anything has nothing to report. */
	regs = get_irq_regs();
	if (regs) {
		excluded = swevent_excluded(event, regs) ||
			   (event->attr.exclude_idle && is_idle_task(current));
		if (!excluded) {
			perf_sample_data_init(&data, 0, hwc->last_period);
			if (__perf_event_overflow(event, 1, &data, regs))
				return HRTIMER_NORESTART;
		}
	}

	if (hwc->state & PERF_HES_STOPPED)
		return HRTIMER_NORESTART;

	hrtimer_forward_now(timer,
			    ns_to_ktime(max(SWCLOCK_MIN_NS, hwc->sample_period)));
	return HRTIMER_RESTART;
}

static void swclock_timer_arm(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 ns;

	if (!is_sampling_event(event))
		return;

	/* Resume a period that a stop interrupted, else a full one. */
	ns = local64_xchg(&hwc->period_left, 0);
	if (ns == 0)
		ns = max(SWCLOCK_MIN_NS, hwc->sample_period);
	else if (ns < 0)
		ns = SWCLOCK_MIN_NS;	/* it was due already */

	hrtimer_start(&hwc->hrtimer, ns_to_ktime(ns),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static void swclock_timer_disarm(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	ktime_t rest;

	if (!is_sampling_event(event))
		return;

	rest = hrtimer_get_remaining(&hwc->hrtimer);
	local64_set(&hwc->period_left, ktime_to_ns(rest));
	/*
	 * The timer is pinned to this CPU and we run with interrupts off,
	 * so its callback can only be running if it is our caller; then
	 * it sees PERF_HES_STOPPED and does not rearm.  Waiting for it
	 * (hrtimer_cancel) would deadlock in that case.
	 */
	hrtimer_try_to_cancel(&hwc->hrtimer);
}

static void swclock_start_at(struct perf_event *event, u64 now)
{
	/*
	 * Already counting (a throttled event being let go again): only
	 * the timer needs restarting, the count carries on.
	 */
	if (event->hw.state & PERF_HES_STOPPED) {
		local64_set(&event->hw.prev_count, now);
		event->hw.state = 0;
	}
	swclock_timer_arm(event);
}

static void swclock_stop_at(struct perf_event *event, u64 now)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	swclock_timer_disarm(event);
	swclock_fold_at(event, now);
}

static void swclock_start(struct perf_event *event, int flags)
{
	swclock_start_at(event, swclock_read_clock(event));
}

static void swclock_stop(struct perf_event *event, int flags)
{
	swclock_stop_at(event, swclock_read_clock(event));
}

static int swclock_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		swclock_start_at(event, swclock_sched_clock(event));
	perf_event_update_userpage(event);
	return 0;
}

static void swclock_del(struct perf_event *event, int flags)
{
	swclock_stop_at(event, swclock_sched_clock(event));
}

static void swclock_read(struct perf_event *event)
{
	if (!(event->hw.state & PERF_HES_STOPPED))
		swclock_fold(event);
}

/*
 * Set up sampling.  An hrtimer ticks at a fixed rate, so a frequency is
 * turned into the matching period once, here, and the event is a plain
 * period event from then on (children inherit the converted attr).
 */
static void swclock_setup_sampling(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!is_sampling_event(event))
		return;

	hrtimer_init(&hwc->hrtimer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hwc->hrtimer.function = swclock_timer_fn;

	if (event->attr.freq) {
		u64 ns = div64_u64(NSEC_PER_SEC, event->attr.sample_freq);

		event->attr.freq = 0;
		event->attr.sample_period = max_t(u64, ns, 1);
	}
	hwc->sample_period = event->attr.sample_period;
	hwc->last_period = hwc->sample_period;
	/* Zero: the first start arms a full period. */
	local64_set(&hwc->period_left, 0);
}

static int swclock_claim(struct perf_event *event, struct pmu *pmu, u64 id)
{
	if (event->attr.type != pmu->type || event->attr.config != id)
		return -ENOENT;

	if (has_branch_stack(event))
		return -EOPNOTSUPP;

	swclock_setup_sampling(event);
	/*
	 * A counting task-clock reads its context's clock, which stands
	 * still while the task is out, so it may stay on across a switch
	 * as the software PMU's events do.  A sampling one has a timer
	 * pinned to its CPU and must come off.
	 */
	if (pmu == &task_clock_pmu && !is_sampling_event(event))
		event->event_caps |= PERF_EV_CAP_FOLLOWS_CTX;
	return 0;
}

static int cpu_clock_event_init(struct perf_event *event)
{
	return swclock_claim(event, &cpu_clock_pmu, PERF_COUNT_SW_CPU_CLOCK);
}

static int task_clock_event_init(struct perf_event *event)
{
	return swclock_claim(event, &task_clock_pmu, PERF_COUNT_SW_TASK_CLOCK);
}

static struct pmu cpu_clock_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.dev		= PMU_NULL_DEV,
	.event_init	= cpu_clock_event_init,
	.add		= swclock_add,
	.del		= swclock_del,
	.start		= swclock_start,
	.stop		= swclock_stop,
	.read		= swclock_read,
};

static struct pmu task_clock_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_NO_NMI,
	.dev		= PMU_NULL_DEV,
	.event_init	= task_clock_event_init,
	.add		= swclock_add,
	.del		= swclock_del,
	.start		= swclock_start,
	.stop		= swclock_stop,
	.read		= swclock_read,
};

/* ======================================================================
 * Breakpoints report their hits through the same counting path.
 */
#ifdef CONFIG_HAVE_HW_BREAKPOINT
/**
 * perf_bp_event() - a hardware breakpoint fired
 * @bp: the breakpoint's event
 * @data: the trap's struct pt_regs
 *
 * Called by the architecture's breakpoint handler, interrupts off.
 */
void perf_bp_event(struct perf_event *bp, void *data)
{
	struct pt_regs *regs = data;
	struct perf_sample_data sd;

	lockdep_assert_irqs_disabled();

	if (bp->hw.state || swevent_excluded(bp, regs))
		return;

	perf_sample_data_init(&sd, bp->attr.bp_addr, 0);
	perf_swevent_count(bp, 1, &sd, regs);
}
#endif

/**
 * perf_swevent_pmus_init() - register the software PMUs
 *
 * Called once from perf_event_init().  "software" takes the fixed type
 * PERF_TYPE_SOFTWARE; the clocks get dynamic types and no sysfs device.
 */
void perf_swevent_pmus_init(void)
{
	WARN_ON(perf_pmu_register(&swevent_pmu, "software",
				  PERF_TYPE_SOFTWARE));
	WARN_ON(perf_pmu_register(&cpu_clock_pmu, "cpu_clock", -1));
	WARN_ON(perf_pmu_register(&task_clock_pmu, "task_clock", -1));
}
