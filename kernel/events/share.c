// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: identical counting events share one hardware counter.
 *
 * Upstream gives every event a counter of its own, so two tools counting
 * the same thing at once (a daemon's CPU-wide cycles, a developer's
 * per-task cycles, the same event in two cgroups) take two counters,
 * and once the counters run out every count is multiplexed into an
 * estimate.  A CPU PMU that sets PERF_PMU_CAP_SHARE_COUNTERS lets such
 * events read one counter instead.
 *
 * The rule (perf_events_count_alike()): two counting events -- no
 * sample period, no precise_ip, no branch records -- of the same PMU
 * whose attr.type, config, config1, config2, config3 and exclude bits
 * are equal count the same thing whenever both are on the same CPU at
 * the same time, in whatever context (CPU, task, cgroup) each came.
 * The sysctl kernel.perf_event_share_counters turns it off (0), for
 * comparison or as an escape hatch; events already sharing then go on
 * until they next leave their counter.  A sysctl rather than a file of
 * each PMU's: the PMUs' sysfs directories stay exactly upstream's.
 *
 * The roles.  The first such event the driver puts on a counter is its
 * carrier: it holds the counter as any event does.  One added while the
 * carrier is there becomes a rider: it takes no counter, joins this
 * CPU's rider table (struct perf_share_riders, in the driver's per-CPU
 * state: fixed size, nothing allocated per event) and reads the
 * carrier's counter, hw.idx and the register fields bound to it.  Each
 * sharer keeps its own hw.prev_count, count, state and the core's
 * enabled and running times: it counts the counter's advance while it
 * was itself counting, which is what it would have counted alone.
 *
 *  - A rider starting takes a snapshot of the counter as its
 *    prev_count (perf_share_snapshot()); stopping folds what the
 *    counter advanced since.  Neither writes the hardware.
 *  - While any sharer counts, the carrier counts.  A carrier that stops
 *    or leaves while a rider counts hands its role over to that rider
 *    (perf_share_hand_over()): the counter goes on untouched, nobody is
 *    rescheduled.  A rider starting while its carrier is stopped takes
 *    the role the same way and starts the counter.
 *  - When the counter is loaded while it may count (the overflow
 *    interrupt reloading the carrier, a driver moving the carrier to
 *    another counter), every counting rider's prev_count moves by what
 *    the load moved the counter (perf_share_shift()), so its next delta
 *    is still its own advance.
 *
 * Ordering against the overflow interrupt.  The table and each event's
 * fields are their CPU's, changed with interrupts off; the overflow
 * interrupt may be an NMI arriving between any two lines.  It reloads
 * only the counter's owner (the driver's per-counter event pointer) and
 * then shifts the riders that count and read the same counter (hw.idx),
 * the owner excluded: it never looks at the @carrier column, so a hand
 * over is safe in any order of its stores once the new carrier owns the
 * counter (it counts and so it was shifted like any rider until then).
 * A rider's prev_count is only ever changed by cmpxchg (the driver's
 * update), local64_add (the shift) or the snapshot, which retries while
 * @reloads moved under it.  A rider stops by folding first and only
 * then setting PERF_HES_STOPPED, so an interrupt in between shifts a
 * prev_count that still means something.
 *
 * Not shared: an event of a group whose leader samples is fine (it
 * counts), but the driver may refuse events it cannot share simply
 * (x86: extra registers, paired and exclusive counters, topdown); they
 * take counters of their own as before.  The one thing a rider could
 * tell: the interrupt that reloads a counting carrier every half of the
 * counter's range (2^47 events on Intel) goes through the carrier's
 * overflow path alone; a counting event emits no sample there, and the
 * rider's count is exact all the same.
 */

#include <linux/export.h>
#include <linux/init.h>
#include <linux/perf/counter_share.h>
#include <linux/sysctl.h>

int perf_sysctl_share_counters __read_mostly = 1;

static struct ctl_table perf_share_sysctl[] = {
	{
		.procname	= "perf_event_share_counters",
		.data		= &perf_sysctl_share_counters,
		.maxlen		= sizeof(int),
		.mode		= 0644,
		.proc_handler	= proc_dointvec_minmax,
		.extra1		= SYSCTL_ZERO,
		.extra2		= SYSCTL_ONE,
	},
};

static int __init perf_share_sysctl_init(void)
{
	register_sysctl_init("kernel", perf_share_sysctl);
	return 0;
}
core_initcall(perf_share_sysctl_init);

/**
 * perf_event_may_share() - may @event share a counter with its likes?
 * @event: an event of a CPU PMU
 *
 * Return: whether its PMU shares counters, sharing is on and the event
 * only counts.
 */
bool perf_event_may_share(struct perf_event *event)
{
	if (!(event->pmu->capabilities & PERF_PMU_CAP_SHARE_COUNTERS) ||
	    !READ_ONCE(perf_sysctl_share_counters))
		return false;
	return !is_sampling_event(event) && !event->attr.precise_ip &&
	       !needs_branch_stack(event);
}
EXPORT_SYMBOL_GPL(perf_event_may_share);

/* The exclude bits, which change what the hardware counts, packed. */
static unsigned int perf_share_excludes(const struct perf_event_attr *attr)
{
	return attr->exclude_user | attr->exclude_kernel << 1 |
	       attr->exclude_hv << 2 | attr->exclude_idle << 3 |
	       attr->exclude_host << 4 | attr->exclude_guest << 5;
}

/**
 * perf_events_count_alike() - do two events count the same thing?
 * @a: an event
 * @b: another one
 *
 * The one rule of sharing, for every driver: same PMU, same selection
 * of what is counted, and both may share.
 *
 * Return: whether one may read the other's counter.
 */
bool perf_events_count_alike(struct perf_event *a, struct perf_event *b)
{
	const struct perf_event_attr *x = &a->attr, *y = &b->attr;

	if (x->config != y->config || a->pmu != b->pmu ||
	    x->type != y->type || x->config1 != y->config1 ||
	    x->config2 != y->config2 || x->config3 != y->config3 ||
	    perf_share_excludes(x) != perf_share_excludes(y))
		return false;
	return perf_event_may_share(a) && perf_event_may_share(b);
}
EXPORT_SYMBOL_GPL(perf_events_count_alike);

/**
 * perf_share_join() - make @rider read @carrier's counter
 * @t: this CPU's rider table
 * @rider: an event being added, stopped
 * @carrier: an event of this CPU that holds (or will hold) a counter
 *
 * Return: false when the table is full: the event takes a counter.
 */
bool perf_share_join(struct perf_share_riders *t, struct perf_event *rider,
		     struct perf_event *carrier)
{
	if (t->nr >= PERF_SHARE_MAX_RIDERS)
		return false;
	t->rider[t->nr] = rider;
	t->carrier[t->nr] = carrier;
	t->nr++;
	rider->hw.flags |= PERF_EVENT_FLAG_SHARE_RIDER;
	return true;
}
EXPORT_SYMBOL_GPL(perf_share_join);

/**
 * perf_share_leave() - take a stopped rider out of the table
 * @t: this CPU's rider table
 * @rider: the rider, its count folded
 */
void perf_share_leave(struct perf_share_riders *t, struct perf_event *rider)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		if (t->rider[i] != rider)
			continue;
		t->nr--;
		t->rider[i] = t->rider[t->nr];
		t->carrier[i] = t->carrier[t->nr];
		rider->hw.flags &= ~PERF_EVENT_FLAG_SHARE_RIDER;
		return;
	}
	WARN_ON_ONCE(1);
}
EXPORT_SYMBOL_GPL(perf_share_leave);

/**
 * perf_share_carrier() - the event whose counter @rider reads
 * @t: this CPU's rider table
 * @rider: a rider of it
 *
 * Return: the carrier, or NULL (and a warning) for an event not there.
 */
struct perf_event *perf_share_carrier(const struct perf_share_riders *t,
				      const struct perf_event *rider)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++)
		if (t->rider[i] == rider)
			return t->carrier[i];
	WARN_ON_ONCE(1);
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_share_carrier);

/**
 * perf_share_next_rider() - iterate over a carrier's riders
 * @t: this CPU's rider table
 * @carrier: the carrier
 * @pos: the cursor, 0 at first
 *
 * Return: the next rider, or NULL after the last.
 */
struct perf_event *perf_share_next_rider(const struct perf_share_riders *t,
					 const struct perf_event *carrier,
					 unsigned int *pos)
{
	while (*pos < t->nr) {
		unsigned int i = (*pos)++;

		if (t->carrier[i] == carrier)
			return t->rider[i];
	}
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_share_next_rider);

/**
 * perf_share_counting_rider() - a rider of @carrier that is counting
 * @t: this CPU's rider table
 * @carrier: the carrier
 *
 * Return: the first such rider, or NULL.
 */
struct perf_event *perf_share_counting_rider(const struct perf_share_riders *t,
					     const struct perf_event *carrier)
{
	struct perf_event *r;
	unsigned int pos;

	for (pos = 0; (r = perf_share_next_rider(t, carrier, &pos)); )
		if (perf_share_counting(r))
			return r;
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_share_counting_rider);

/**
 * perf_share_heir() - the rider a carrier leaving its counter hands it to
 * @t: this CPU's rider table
 * @carrier: the carrier
 *
 * One that counts, if there is one: the counter goes on untouched.
 * Else any rider, with which the counter stays, stopped.
 *
 * Return: the rider, or NULL for a carrier without riders.
 */
struct perf_event *perf_share_heir(const struct perf_share_riders *t,
				   const struct perf_event *carrier)
{
	struct perf_event *r = perf_share_counting_rider(t, carrier);
	unsigned int pos = 0;

	return r ?: perf_share_next_rider(t, carrier, &pos);
}
EXPORT_SYMBOL_GPL(perf_share_heir);

/**
 * perf_share_hand_over() - swap the roles of a carrier and its rider
 * @t: this CPU's rider table
 * @carrier: the carrier, which becomes a rider of @rider
 * @rider: one of its riders, which becomes the carrier
 *
 * The table's side only: the driver has already made @rider the owner
 * of the counter wherever it records owners (see the top of the file).
 * The other riders follow the new carrier.
 */
void perf_share_hand_over(struct perf_share_riders *t,
			  struct perf_event *carrier, struct perf_event *rider)
{
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		if (t->rider[i] == rider) {
			t->rider[i] = carrier;
			t->carrier[i] = rider;
		} else if (t->carrier[i] == carrier) {
			t->carrier[i] = rider;
		}
	}
	carrier->hw.flags |= PERF_EVENT_FLAG_SHARE_RIDER;
	rider->hw.flags &= ~PERF_EVENT_FLAG_SHARE_RIDER;
}
EXPORT_SYMBOL_GPL(perf_share_hand_over);

/**
 * perf_share_shift() - the counter @carrier owns was loaded under its riders
 * @t: this CPU's rider table
 * @carrier: the counter's owner, just loaded
 * @shift: what the load moved the counter by (new value minus the value
 *	the carrier last folded), modulo the counter's width
 *
 * Every counting rider reading the same counter keeps its delta: its
 * prev_count moves by @shift too, and its user page follows.  Safe in
 * the overflow interrupt (NMI).
 */
void perf_share_shift(struct perf_share_riders *t,
		      const struct perf_event *carrier, u64 shift)
{
	int idx = carrier->hw.idx;
	unsigned int i;

	for (i = 0; i < t->nr; i++) {
		struct perf_event *r = t->rider[i];

		if (r == carrier || r->hw.idx != idx || !perf_share_counting(r))
			continue;
		local64_add(shift, &r->hw.prev_count);
		perf_event_update_userpage(r);
	}
	WRITE_ONCE(t->reloads, t->reloads + 1);
}
EXPORT_SYMBOL_GPL(perf_share_shift);

/**
 * perf_share_snapshot() - start a rider on its carrier's counting counter
 * @t: this CPU's rider table
 * @rider: the rider, stopped, bound to the counter
 * @read: reads the counter @rider is bound to
 *
 * The rider's prev_count becomes the counter's value and it counts from
 * there.  An overflow interrupt may reload the counter between the read
 * and the rider's state saying it counts, which the shift would then
 * miss: the snapshot is taken again until none came (@reloads the same
 * before and after).
 */
void perf_share_snapshot(struct perf_share_riders *t, struct perf_event *rider,
			 u64 (*read)(struct perf_event *event))
{
	struct hw_perf_event *hwc = &rider->hw;
	unsigned int seen;

	do {
		seen = READ_ONCE(t->reloads);
		barrier();
		local64_set(&hwc->prev_count, read(rider));
		barrier();
		WRITE_ONCE(hwc->state, 0);
		barrier();
	} while (READ_ONCE(t->reloads) != seen);
	perf_event_update_userpage(rider);
}
EXPORT_SYMBOL_GPL(perf_share_snapshot);
