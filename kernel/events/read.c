// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: reading an event's count and times.
 *
 * An event on a PMU counts in hardware (or in its PMU's own state) until
 * something folds that into event->count: the PMU's read(), on the CPU
 * the event is on.  perf_event_read() gets there (an IPI when that is
 * another CPU) or, for an event that is not on a PMU, brings only its
 * times up to date under the context lock.  Groups parked on their PMU
 * (sched.c) are read wherever their context went out; groups parked
 * off it folded their count when they gave the counters back.
 */

#include <linux/perf_event.h>
#include <linux/smp.h>

#include "internal.h"

struct perf_read_args {
	struct perf_event	*event;
	bool			group;
	bool			done;	/* counts and times brought up to date */
};

/*
 * Have the PMU fold what @event (with @group, its active members too)
 * counted into its count.  @event is ACTIVE; its context locked.
 */
static void perf_read_from_pmu(struct perf_event *event, bool group)
{
	struct pmu *pmu = event->pmu;
	struct perf_event *sib;

	if (!group) {
		pmu->read(event);
		return;
	}
	pmu->start_txn(pmu, PERF_PMU_TXN_READ);
	pmu->read(event);
	list_for_each_entry(sib, &event->sibling_list, sibling_entry) {
		if (sib->state == PERF_EVENT_STATE_ACTIVE)
			sib->pmu->read(sib);
	}
	pmu->commit_txn(pmu);
}

static void perf_read_on_cpu(void *info)
{
	struct perf_read_args *args = info;
	struct perf_event *event = args->event;
	struct perf_event_context *ctx = event->ctx;
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);

	/* Only if the context is really here; it may have moved on. */
	if (ctx->task && cpuctx->task_ctx != ctx)
		return;

	raw_spin_lock(&ctx->lock);
	if (ctx->is_active)
		perf_ctx_update_time(ctx);
	perf_event_update_time(event);
	args->done = true;
	if (event->state == PERF_EVENT_STATE_ACTIVE &&
	    event->oncpu == smp_processor_id())
		perf_read_from_pmu(event, args->group);
	raw_spin_unlock(&ctx->lock);
}

/*
 * Not on a PMU (or its context moved on while we looked): the count is
 * what it is, and the times need only the clock, which anyone holding
 * the context lock may bring up to date.  A parked group is the
 * exception: its counters stood still with their context's clock, but
 * one may not have folded in what it counted before the switch; with
 * the context out, its PMU reads it from anywhere.
 *
 * Return: false, with nothing done, where the event's task context is
 * back in on a CPU and the event on its PMU: its task was switched out
 * when the IPI came and back in since.  A parked group folds nothing
 * at the switch, so its count is only as new as its last read there:
 * the caller must go to that CPU again.
 */
static bool perf_read_off_pmu(struct perf_event *event, bool group)
{
	struct perf_event_context *ctx = event->ctx;
	unsigned long flags;

	if (!ctx)
		return true;
	raw_spin_lock_irqsave(&ctx->lock, flags);
	if (ctx->task && ctx->is_active &&
	    event->state == PERF_EVENT_STATE_ACTIVE) {
		raw_spin_unlock_irqrestore(&ctx->lock, flags);
		return false;
	}
	if (ctx->is_active & EVENT_TIME)
		perf_ctx_update_time(ctx);
	perf_event_update_time(event);
	if (!ctx->is_active && event->state == PERF_EVENT_STATE_ACTIVE &&
	    perf_group_parks(event->group_leader))
		perf_read_from_pmu(event, group);
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return true;
}

/**
 * perf_event_read - bring @event's count and times up to date
 * @event: the event
 * @group: with all members of its group (@event is the leader)
 *
 * Afterwards event->count (the members' too with @group) and
 * event->times.enabled/.running are as of now, so the caller reads them
 * directly rather than consulting the clock again.  A group read
 * reports the leader's times for the whole group, so the members'
 * totals are left to fold at their next state change.
 */
void perf_event_read(struct perf_event *event, bool group)
{
	struct perf_read_args args = { .event = event, .group = group };
	int cpu;

	do {
		cpu = READ_ONCE(event->oncpu);
		if (event->state == PERF_EVENT_STATE_ACTIVE && cpu >= 0)
			perf_cpu_call(cpu, perf_read_on_cpu, &args);
	} while (!args.done && !perf_read_off_pmu(event, group));
}

/**
 * perf_event_read_times - enabled and running time of @event, now
 * @event: the event
 * @enabled: set to time_enabled
 * @running: set to time_running
 */
void perf_event_read_times(struct perf_event *event, u64 *enabled,
			   u64 *running)
{
	if (!event->ctx) {
		*enabled = event->times.enabled;
		*running = event->times.running;
		return;
	}
	/*
	 * Callers hold ctx->lock, or read from an NMI that may have landed
	 * inside a fold: every field is loaded once, lockless.
	 */
	perf_times_read_lockless(&event->times, perf_event_tclock(event),
				 perf_clock(), enabled, running);
}
