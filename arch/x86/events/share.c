// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: x86 counters shared by identical counting events.
 *
 * kernel/events/share.c has the rule, the carrier and rider roles and
 * their ordering against the overflow interrupt; this file is what the
 * framework does for them.  A carrier is an ordinary event of the CPU's
 * list (x86c_cpu.events) that holds a counter; a rider is in the CPU's
 * rider table only, never in the list, so placement (assign.c, ht_excl.c)
 * never sees it and sharing can neither fail nor move a placement.  A
 * rider is bound (x86c_bind()) to its carrier's counter whenever the
 * carrier has one, so the framework's own update reads it.
 *
 * Not shared here, each keeping a counter of its own: an event with an
 * extra register (its selection is one more thing to keep equal through
 * the alternate-register dance of extra.c), a paired or exclusive event
 * (their counters are placed by rules of their own), a topdown event.
 */

#include <linux/perf/counter_share.h>

#include "counters.h"

static bool x86c_share_kind(const struct perf_event *event,
			    const struct event_constraint *c)
{
	return event->hw.extra_reg.idx < 0 &&
	       !(event->hw.flags & PERF_X86_EVENT_TOPDOWN) &&
	       !(c->flags & (PERF_X86_EVENT_PAIR | PERF_X86_EVENT_EXCL));
}

/*
 * An event of this CPU's list that @event may ride on, or NULL.  Equal
 * controls first, the cheap test that fails for nearly every pair; an
 * equal control also means an equal constraint.
 */
static struct perf_event *x86c_share_find(struct x86c_cpu *cpu,
					  struct perf_event *event)
{
	int i;

	if (!perf_event_may_share(event))
		return NULL;
	for (i = 0; i < cpu->nr; i++) {
		struct perf_event *e = cpu->events[i];

		if (e->hw.config == event->hw.config &&
		    x86c_share_kind(e, cpu->constraint[i]) &&
		    x86c_share_kind(event, cpu->constraint[i]) &&
		    perf_events_count_alike(e, event))
			return e;
	}
	return NULL;
}

/* Does @carrier hold the counter it is bound to (placed and applied)? */
static bool x86c_share_bound(struct x86c_cpu *cpu, struct perf_event *carrier)
{
	int idx = carrier->hw.idx;

	return idx >= 0 && cpu->owner[idx] == carrier;
}

/*
 * A rider's snapshot, sign-extended as RDPMC's reader extends it: its
 * user page's offset is its count minus prev_count (rdpmc.c).
 */
static u64 x86c_share_read(struct perf_event *event)
{
	struct x86c_pmu *p = container_of(event->pmu, struct x86c_pmu, pmu);

	return x86c_sign_extend(p, p->hw->read_pmc(event->hw.event_base_rdpmc));
}

/*
 * @rider takes over @carrier's place: in the list, as the owner of the
 * counter, and in the table.  Owner first (see kernel/events/share.c).
 */
static void x86c_share_swap(struct x86c_cpu *cpu, struct perf_event *carrier,
			    struct perf_event *rider)
{
	int idx = carrier->hw.idx;
	int i;

	/* Stopped by stop(), it stays so as a rider (x86c_share_follow()). */
	if (!perf_share_counting(carrier))
		carrier->hw.state |= PERF_HES_ARCH;
	if (idx >= 0 && cpu->owner[idx] == carrier)
		WRITE_ONCE(cpu->owner[idx], rider);
	for (i = 0; i < cpu->nr; i++)
		if (cpu->events[i] == carrier)
			cpu->events[i] = rider;
	perf_share_hand_over(&cpu->share, carrier, rider);
}

/**
 * x86c_share_start - start(), for a rider
 * @p: the PMU
 * @cpu: this CPU's counters
 * @rider: the rider, stopped
 *
 * With its carrier counting, from a snapshot of the counter; with its
 * carrier stopped, it becomes the carrier and starts the counter;
 * without a counter yet, when x86c_apply() binds one.
 */
void x86c_share_start(struct x86c_pmu *p, struct x86c_cpu *cpu,
		      struct perf_event *rider)
{
	struct perf_event *carrier = perf_share_carrier(&cpu->share, rider);
	struct hw_perf_event *hwc = &rider->hw;

	hwc->state &= ~PERF_HES_ARCH;
	if (!carrier || !x86c_share_bound(cpu, carrier))
		return;
	if (WARN_ON_ONCE(perf_share_counting(rider)))
		return;
	if (cpu->running & BIT_ULL(carrier->hw.idx)) {
		perf_share_snapshot(&cpu->share, rider, x86c_share_read);
		return;
	}
	x86c_share_swap(cpu, carrier, rider);
	x86c_start_on(p, cpu, rider, PERF_EF_RELOAD);
}

/* Stop @rider: fold what it counted, then say it stopped. */
static void x86c_share_stop_rider(struct x86c_pmu *p, struct perf_event *rider)
{
	struct hw_perf_event *hwc = &rider->hw;

	if (perf_share_counting(rider))
		x86c_event_update(p, rider);
	WRITE_ONCE(hwc->state, hwc->state | PERF_HES_STOPPED |
			       PERF_HES_UPTODATE | PERF_HES_ARCH);
}

/**
 * x86c_share_add - add @event as a rider, if it may ride on another
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event being added
 * @flags: add()'s flags
 *
 * Return: whether it did; else it needs a counter of its own.
 */
bool x86c_share_add(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event, int flags)
{
	struct perf_event *carrier = x86c_share_find(cpu, event);
	struct hw_perf_event *hwc = &event->hw;

	if (!carrier || !perf_share_join(&cpu->share, event, carrier))
		return false;
	hwc->state = PERF_HES_UPTODATE | PERF_HES_STOPPED | PERF_HES_ARCH;
	hwc->idx = -1;
	if (x86c_share_bound(cpu, carrier)) {
		x86c_bind(p, event, carrier->hw.idx);
		perf_event_update_userpage(event);
	}
	if (flags & PERF_EF_START)
		x86c_share_start(p, cpu, event);
	return true;
}

/**
 * x86c_share_stop - stop(), for a rider or a carrier with riders
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event
 *
 * A carrier that a counting rider leans on gives the counter to it
 * instead of stopping it, and becomes a stopped rider itself.
 *
 * Return: whether it was dealt with; else x86c_stop() stops it.
 */
bool x86c_share_stop(struct x86c_pmu *p, struct x86c_cpu *cpu,
		     struct perf_event *event)
{
	struct perf_event *rider;

	if (perf_share_is_rider(event)) {
		x86c_share_stop_rider(p, event);
		return true;
	}
	rider = perf_share_counting_rider(&cpu->share, event);
	if (!rider)
		return false;
	/* Folded and stopped before it gives the counter up. */
	x86c_share_stop_rider(p, event);
	x86c_share_swap(cpu, event, rider);
	return true;
}

/**
 * x86c_share_del - del(), for a rider or a carrier with riders
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event leaving
 *
 * A carrier with riders leaves them the counter (stopped, if none of
 * them counts) and leaves as a rider.
 *
 * Return: whether it was dealt with; else it leaves as any event does.
 */
bool x86c_share_del(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event)
{
	struct perf_share_riders *t = &cpu->share;
	struct perf_event *rider;

	if (!perf_share_is_rider(event)) {
		rider = perf_share_heir(t, event);
		if (!rider)
			return false;
		/* Nobody counting on, the counter stops with it. */
		if (perf_share_counting(rider))
			x86c_share_stop_rider(p, event);
		else
			x86c_stop(p, cpu, event, PERF_EF_UPDATE);
		x86c_share_swap(cpu, event, rider);
	}
	x86c_share_stop_rider(p, event);
	x86c_extra_put(p, &cpu->extra, event);
	perf_share_leave(t, event);
	event->hw.idx = -1;
	perf_event_update_userpage(event);
	return true;
}

/**
 * x86c_share_fold - fold what @carrier's counting riders counted
 * @p: the PMU
 * @cpu: this CPU's counters
 * @carrier: a carrier whose counter is about to be loaded or left
 *
 * With the CPU's counters disabled; x86c_share_follow() then rebinds
 * them to where the carrier counts next.
 */
void x86c_share_fold(struct x86c_pmu *p, struct x86c_cpu *cpu,
		     struct perf_event *carrier)
{
	struct perf_share_riders *t = &cpu->share;
	struct perf_event *r;
	unsigned int pos;

	for (pos = 0; (r = perf_share_next_rider(t, carrier, &pos)); )
		if (perf_share_counting(r))
			x86c_event_update(p, r);
}

/**
 * x86c_share_follow - bind @carrier's riders to the counter it now holds
 * @p: the PMU
 * @cpu: this CPU's counters, disabled (the loaded counter holds still)
 * @carrier: the carrier, bound, just loaded or left stopped
 *
 * A counting rider (folded by x86c_share_fold()) goes on from the
 * carrier's load; one waiting for a counter starts now, from the same
 * load if the carrier counts, else by taking the carrier's role.
 */
void x86c_share_follow(struct x86c_pmu *p, struct x86c_cpu *cpu,
		       struct perf_event *carrier)
{
	struct perf_share_riders *t = &cpu->share;
	struct perf_event *r;
	unsigned int pos;

	for (pos = 0; (r = perf_share_next_rider(t, carrier, &pos)); ) {
		x86c_bind(p, r, carrier->hw.idx);
		if (perf_share_counting(r))
			local64_set(&r->hw.prev_count,
				    local64_read(&carrier->hw.prev_count));
		perf_event_update_userpage(r);
	}
	/* Riders waiting to start; each start may change the carrier. */
	for (;;) {
		for (pos = 0; (r = perf_share_next_rider(t, carrier, &pos)); )
			if (!perf_share_counting(r) &&
			    !(r->hw.state & PERF_HES_ARCH))
				break;
		if (!r)
			return;
		x86c_share_start(p, cpu, r);
		if (!perf_share_is_rider(r))
			carrier = r;
	}
}
