// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the Arm CPU PMU framework.
 *
 * Layout of perfcore's Arm CPU PMU files:
 *
 *   arm_pmu.c		this file: the struct pmu callbacks (event setup,
 *			putting events on counters, start and stop),
 *			counter arithmetic, CPU hotplug and power-down,
 *			registration and sysfs's cpus.  Vendor neutral.
 *   arm_pmu_assign.c	which counter an event gets; pure, KUnit-tested.
 *   arm_pmu_irq.c	the overflow interrupts: PPI or SPI, pseudo-NMI
 *			where the irqchip gives one.
 *   arm_pmu_platform.c	probe from the device tree (or a platform
 *			device a probe table matches).
 *   arm_pmu_acpi.c	probe from ACPI's MADT: one PMU per kind of CPU.
 *   arm_pmu_internal.h	what these files share and drivers do not see.
 *   arm_pmuv3.c	the PMUv3 driver; its register access goes through
 *			struct armv8pmu_hw_ops, for the KUnit model of
 *			arm_pmuv3_test.c.
 *   arm_pmu_test.c	KUnit: placement, counter arithmetic, mapping.
 *   include/linux/perf/arm_pmu.h	what drivers, KVM and the
 *			watchdog see.
 *
 * A driver is a struct arm_pmu (arm_pmu.h): callbacks that program one
 * counter, start and stop them all, and handle the interrupt, filled in
 * by the probe's init function.  Two ways to place events: a driver with
 * counters_for() says what each event may take and the framework
 * places them (arm_pmu_assign.c), moving events already placed when a
 * new one fits only so; a driver with get_event_idx() picks itself, one
 * event at a time (Apple's M1, which has no pairs).
 *
 * How an event counts.  add() gives it a counter, start() loads the
 * counter with minus the period left (or half the counter's range for a
 * counting event, so an overflow interrupt folds the count long before
 * it could wrap twice) and enables it; the core brackets a group's adds
 * with pmu_disable and pmu_enable, which stop and start the CPU's
 * counters together.  stop() and read() fold the counter's progress
 * into the count.
 *
 * Locking: struct pmu_hw_events is its CPU's, changed with interrupts
 * off by the callbacks (the core calls them so) and read by the
 * overflow interrupt, which may be an NMI arriving between any two of
 * their lines: it only touches the events on counters, and the cmpxchg
 * on prev_count in armpmu_event_update() keeps it and a concurrent
 * read() from counting one delta twice.  struct arm_pmu is written at
 * probe only.
 */
#define pr_fmt(fmt) "hw perfevents: " fmt

#include <linux/bitmap.h>
#include <linux/cpu_pm.h>
#include <linux/cpuhotplug.h>
#include <linux/export.h>
#include <linux/perf/arm_pmu.h>
#include <linux/perf/counter_share.h>
#include <linux/slab.h>

#include "arm_pmu_internal.h"

/* ---- event numbers ------------------------------------------------ */

/* A generic cache event: type, op and result in config's low bytes. */
static int armpmu_cache_event(const unsigned int *map, u64 config)
{
	unsigned int type = config & 0xff;
	unsigned int op = (config >> 8) & 0xff;
	unsigned int result = (config >> 16) & 0xff;
	unsigned int code;

	if (type >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX)
		return -EINVAL;
	if (!map)
		return -ENOENT;
	code = map[(type * PERF_COUNT_HW_CACHE_OP_MAX + op) *
		   PERF_COUNT_HW_CACHE_RESULT_MAX + result];
	return code == CACHE_OP_UNSUPPORTED ? -ENOENT : code;
}

/*
 * armpmu_map_event() (arm_pmu.h) hands its tables over flat: the cache
 * table's [type][op][result] entry is at that index of the flattened
 * array.
 */
int armpmu_map_event_flat(struct perf_event *event, const unsigned int *event_map,
			  const unsigned int *cache_map, u32 raw_event_mask)
{
	u64 config = event->attr.config;
	unsigned int code;

	if (event->attr.type == event->pmu->type ||
	    event->attr.type == PERF_TYPE_RAW)
		return config & raw_event_mask;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		if (config >= PERF_COUNT_HW_MAX)
			return -EINVAL;
		if (!event_map)
			return -ENOENT;
		code = event_map[config];
		return code == HW_OP_UNSUPPORTED ? -ENOENT : code;
	case PERF_TYPE_HW_CACHE:
		return armpmu_cache_event(cache_map, config);
	default:
		return -ENOENT;
	}
}

/* ---- counter arithmetic ------------------------------------------- */

/* The largest value the event's count takes on its counter. */
static u64 armpmu_width_mask(const struct perf_event *event)
{
	u32 flags = event->hw.flags;

	if (flags & ARMPMU_EVT_64BIT)
		return U64_MAX;
	if (flags & ARMPMU_EVT_63BIT)
		return GENMASK_ULL(62, 0);
	if (flags & ARMPMU_EVT_47BIT)
		return GENMASK_ULL(46, 0);
	return GENMASK_ULL(31, 0);
}

/*
 * Load the event's counter for its next overflow.
 *
 * When the period has run out (period_left at or below 0), the next
 * one begins: what it overshot counts towards it, unless it overshot by
 * a whole period or more (the count was far behind), which starts a
 * fresh one.  The counter is loaded with at most half its range, so an
 * overflow taken late still finds it short of a second wrap.
 */
static __always_inline int __armpmu_event_set_period(struct perf_event *event)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	s64 period = hwc->sample_period;
	s64 left = local64_read(&hwc->period_left);
	u64 mask = armpmu_width_mask(event);
	int ran_out = 0;

	if (left <= 0) {
		left = left <= -period ? period : left + period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		ran_out = 1;
	}
	left = min_t(u64, left, mask >> 1);

	local64_set(&hwc->prev_count, (u64)-left);
	armpmu->write_counter(event, (u64)-left & mask);
	perf_event_update_userpage(event);
	return ran_out;
}

/**
 * armpmu_event_set_period() - load the event's counter for its next
 *	overflow
 * @event: an event on a counter
 *
 * Return: 1 when a period ran out (the caller owes a sample), else 0.
 */
int armpmu_event_set_period(struct perf_event *event)
{
	return __armpmu_event_set_period(event);
}

/* Fold the counter's progress into the count; return what it read. */
static __always_inline u64 __armpmu_event_update(struct perf_event *event)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	/* An NMI may read the same counter between our read and store. */
	do {
		prev = local64_read(&hwc->prev_count);
		now = armpmu->read_counter(event);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = (now - prev) & armpmu_width_mask(event);
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return now;
}

/**
 * armpmu_event_update() - fold the counter's progress into the count
 * @event: an event on a counter
 *
 * Return: the counter's value, as read.
 */
u64 armpmu_event_update(struct perf_event *event)
{
	return __armpmu_event_update(event);
}

/* ---- the struct pmu callbacks ------------------------------------- */

static void armpmu_read(struct perf_event *event)
{
	/* A stopped rider's counter counts for others. */
	if (unlikely(perf_share_is_rider(event)) &&
	    !perf_share_counting(event))
		return;
	armpmu_event_update(event);
}

/*
 * Arm counters cannot all be stopped alone on every implementation, so
 * stop() always folds the count (PERF_EF_UPDATE or not) and start()
 * always loads the counter again (PERF_EF_RELOAD or not).  Both are
 * inlined into add and del, which every context switch calls for each
 * event it moves; the arithmetic is too.
 */
static __always_inline void armpmu_stop(struct perf_event *event, int flags)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	to_arm_pmu(event->pmu)->disable(event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	__armpmu_event_update(event);
}

static __always_inline void armpmu_start(struct perf_event *event, int flags)
{
	WARN_ON_ONCE((flags & PERF_EF_RELOAD) &&
		     !(event->hw.state & PERF_HES_UPTODATE));
	event->hw.state = 0;
	__armpmu_event_set_period(event);
	to_arm_pmu(event->pmu)->enable(event);
}

/* ---- identical counting events on one counter ------------------- */

/*
 * kernel/events/share.c has the rule, the carrier and rider roles and
 * their ordering against the overflow interrupt.  A carrier is the
 * event in cpuc->events[] holding a counter; its riders are in the
 * CPU's rider table only, their hw.idx the carrier's counter, so
 * placement never sees them.  A carrier always has a counter here (add
 * places it at once), so a rider is bound from the start.
 */

/* An event on this CPU's counters that @event may ride on, or NULL. */
static struct perf_event *armpmu_share_find(struct pmu_hw_events *cpuc,
					    struct perf_event *event)
{
	int idx;

	if (!perf_event_may_share(event))
		return NULL;
	for_each_set_bit(idx, cpuc->used_mask, ARMPMU_MAX_HWEVENTS) {
		struct perf_event *e = cpuc->events[idx];

		if (e && e->hw.config_base == event->hw.config_base &&
		    perf_events_count_alike(e, event))
			return e;
	}
	return NULL;
}

static u64 armpmu_share_read(struct perf_event *event)
{
	return to_arm_pmu(event->pmu)->read_counter(event);
}

/*
 * @rider takes over @carrier's counter: the owner first, then the table
 * (see kernel/events/share.c).  A carrier stopped by stop() stays so.
 */
static void armpmu_share_swap(struct pmu_hw_events *cpuc,
			      struct perf_event *carrier,
			      struct perf_event *rider)
{
	if (!perf_share_counting(carrier))
		carrier->hw.state |= PERF_HES_ARCH;
	rider->hw.last_tag = carrier->hw.last_tag;
	WRITE_ONCE(cpuc->events[carrier->hw.idx], rider);
	perf_share_hand_over(&cpuc->share, carrier, rider);
}

/* Stop @rider: fold what it counted, then say it stopped. */
static void armpmu_share_stop_rider(struct perf_event *rider)
{
	struct hw_perf_event *hwc = &rider->hw;

	if (perf_share_counting(rider))
		__armpmu_event_update(rider);
	WRITE_ONCE(hwc->state, hwc->state | PERF_HES_STOPPED |
			       PERF_HES_UPTODATE | PERF_HES_ARCH);
}

/*
 * Start @rider: from a snapshot of its carrier's counter while that
 * counts, else as the new carrier, starting the counter.
 */
static void armpmu_share_start(struct pmu_hw_events *cpuc,
			       struct perf_event *rider)
{
	struct perf_event *carrier = perf_share_carrier(&cpuc->share, rider);

	rider->hw.state &= ~PERF_HES_ARCH;
	if (!carrier || WARN_ON_ONCE(perf_share_counting(rider)))
		return;
	if (perf_share_counting(carrier)) {
		perf_share_snapshot(&cpuc->share, rider, armpmu_share_read);
		return;
	}
	armpmu_share_swap(cpuc, carrier, rider);
	armpmu_start(rider, PERF_EF_RELOAD);
}

/* add() for an event that may ride on another: whether it did. */
static bool armpmu_share_add(struct pmu_hw_events *cpuc,
			     struct perf_event *event, int flags)
{
	struct perf_event *carrier = armpmu_share_find(cpuc, event);
	struct hw_perf_event *hwc = &event->hw;

	if (!carrier || !perf_share_join(&cpuc->share, event, carrier))
		return false;
	hwc->idx = carrier->hw.idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE | PERF_HES_ARCH;
	if (flags & PERF_EF_START)
		armpmu_share_start(cpuc, event);
	else
		perf_event_update_userpage(event);
	return true;
}

/*
 * del() for a rider, or a carrier with riders, which leaves them the
 * counter (stopped, if none of them counts) and leaves as a rider.
 * Return: whether it was dealt with.
 */
static bool armpmu_share_del(struct pmu_hw_events *cpuc,
			     struct perf_event *event)
{
	struct perf_share_riders *t = &cpuc->share;
	struct perf_event *rider;

	if (!perf_share_is_rider(event)) {
		rider = perf_share_heir(t, event);
		if (!rider)
			return false;
		/* Nobody counting on, the counter stops with it. */
		if (perf_share_counting(rider))
			armpmu_share_stop_rider(event);
		else
			armpmu_stop(event, PERF_EF_UPDATE);
		armpmu_share_swap(cpuc, event, rider);
	}
	armpmu_share_stop_rider(event);
	perf_share_leave(t, event);
	event->hw.idx = -1;
	perf_event_update_userpage(event);
	return true;
}

/* Fold what @carrier's counting riders counted: its counter is leaving. */
static void armpmu_share_fold(struct pmu_hw_events *cpuc,
			      struct perf_event *carrier)
{
	struct perf_share_riders *t = &cpuc->share;
	struct perf_event *r;
	unsigned int pos;

	for (pos = 0; (r = perf_share_next_rider(t, carrier, &pos)); )
		if (perf_share_counting(r))
			__armpmu_event_update(r);
}

/*
 * @carrier's riders read the counter it now holds, loaded and not yet
 * counting (the PMU stopped): the counting ones from its load.
 */
static void armpmu_share_follow(struct pmu_hw_events *cpuc,
				struct perf_event *carrier)
{
	struct perf_share_riders *t = &cpuc->share;
	struct perf_event *r;
	unsigned int pos;

	for (pos = 0; (r = perf_share_next_rider(t, carrier, &pos)); ) {
		r->hw.idx = carrier->hw.idx;
		if (perf_share_counting(r))
			local64_set(&r->hw.prev_count,
				    local64_read(&carrier->hw.prev_count));
		perf_event_update_userpage(r);
	}
}

static void armpmu_start_event(struct perf_event *event, int flags)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);

	if (unlikely(perf_share_is_rider(event))) {
		armpmu_share_start(this_cpu_ptr(armpmu->hw_events), event);
		return;
	}
	armpmu_start(event, flags);
}

/*
 * stop(): a carrier that a counting rider leans on gives it the counter
 * instead of stopping it, and becomes a stopped rider itself.
 */
static void armpmu_stop_event(struct perf_event *event, int flags)
{
	struct pmu_hw_events *cpuc =
		this_cpu_ptr(to_arm_pmu(event->pmu)->hw_events);
	struct perf_event *rider;

	if (unlikely(cpuc->share.nr)) {
		if (perf_share_is_rider(event)) {
			armpmu_share_stop_rider(event);
			return;
		}
		rider = perf_share_counting_rider(&cpuc->share, event);
		if (rider) {
			armpmu_share_stop_rider(event);
			armpmu_share_swap(cpuc, event, rider);
			return;
		}
	}
	armpmu_stop(event, flags);
}

/*
 * Mark @taken, the counters an event placed at @idx holds (a pair's both
 * halves), used; they are the event's home from now on (armpmu_place()).
 */
static void armpmu_hold(struct pmu_hw_events *cpuc, struct perf_event *event,
			u64 taken, int idx)
{
	u64 used = armpmu_bits64(cpuc->used_mask) | taken;

	if (taken != BIT_ULL(idx))
		cpuc->paired |= BIT_ULL(idx);
	bitmap_from_arr64(cpuc->used_mask, &used, ARMPMU_MAX_HWEVENTS);
	event->hw.last_tag = taken;
}

/*
 * Place @event when armpmu_take() finds nothing free for it beside the
 * events already placed: place them all again and move those whose
 * counter changed.  Called between pmu_disable and pmu_enable.
 */
static int armpmu_replace_all(struct arm_pmu *armpmu,
			      struct pmu_hw_events *cpuc,
			      struct perf_event *event,
			      const struct armpmu_need *need)
{
	struct armpmu_need needs[ARMPMU_MAX_HWEVENTS];
	struct perf_event *on[ARMPMU_MAX_HWEVENTS];
	int idx[ARMPMU_MAX_HWEVENTS];
	bool restart[ARMPMU_MAX_HWEVENTS];
	int i, n = 0;

	for (i = 0; i < ARMPMU_MAX_HWEVENTS; i++) {
		if (!cpuc->events[i])
			continue;
		on[n] = cpuc->events[i];
		armpmu->counters_for(armpmu, on[n], &needs[n]);
		n++;
	}
	if (n == ARMPMU_MAX_HWEVENTS)
		return -EAGAIN;
	on[n] = event;
	needs[n] = *need;
	if (armpmu_assign(needs, n + 1, armpmu_counter_mask(armpmu), idx))
		return -EAGAIN;

	for (i = 0; i < n; i++) {
		restart[i] = false;
		if (idx[i] == on[i]->hw.idx)
			continue;
		restart[i] = !(on[i]->hw.state & PERF_HES_STOPPED);
		if (unlikely(cpuc->share.nr))
			armpmu_share_fold(cpuc, on[i]);
		armpmu_stop(on[i], PERF_EF_UPDATE);
		cpuc->events[on[i]->hw.idx] = NULL;
	}
	cpuc->paired = 0;
	bitmap_zero(cpuc->used_mask, ARMPMU_MAX_HWEVENTS);
	for (i = 0; i <= n; i++)
		armpmu_hold(cpuc, on[i], armpmu_taken(&needs[i], idx[i]), idx[i]);
	for (i = 0; i < n; i++) {
		if (idx[i] == on[i]->hw.idx)
			continue;
		on[i]->hw.idx = idx[i];
		cpuc->events[idx[i]] = on[i];
		if (restart[i])
			armpmu_start(on[i], PERF_EF_RELOAD);
		perf_event_update_userpage(on[i]);
		if (unlikely(cpuc->share.nr))
			armpmu_share_follow(cpuc, on[i]);
	}
	return idx[n];
}

/*
 * armpmu_place() for an event whose home is taken or that has none yet:
 * ask the driver what it may take.  Out of line, to keep the way home
 * short.
 */
static noinline int armpmu_place_anew(struct arm_pmu *armpmu,
				      struct pmu_hw_events *cpuc,
				      struct perf_event *event, u64 used)
{
	struct armpmu_need need;
	int idx;

	armpmu->counters_for(armpmu, event, &need);
	idx = armpmu_take(&need, used);
	if (idx < 0) {
		u64 free = armpmu_counter_mask(armpmu) & ~used;

		/*
		 * Moving others only helps when enough counters are free:
		 * not when the PMU is full, which is every add that
		 * multiplexing tries and fails.  (A placed pair could
		 * also shrink onto its preferred counter; missing that
		 * rare case costs the event a rotation, as upstream.)
		 */
		if (!free || (need.pair && !(free & (free - 1))))
			return -EAGAIN;
		return armpmu_replace_all(armpmu, cpuc, event, &need);
	}
	armpmu_hold(cpuc, event, armpmu_taken(&need, idx), idx);
	return idx;
}

/*
 * A counter for @event on this CPU, marked used; or -EAGAIN.
 *
 * What counters_for() says of an event never changes, so the counters
 * it held last (its home, hw.last_tag; 0 before it had any) suit it
 * still, on any CPU of the PMU: when they are free it takes them again
 * without asking.  Each event of a task switching in thus goes back
 * where it was.  A home that is not the preferred counter (taken when
 * that was busy) is kept until a placement fails and
 * armpmu_replace_all() places everything anew.
 */
static int armpmu_place(struct arm_pmu *armpmu, struct pmu_hw_events *cpuc,
			struct perf_event *event)
{
	u64 used = armpmu_bits64(cpuc->used_mask);
	u64 home = event->hw.last_tag;
	int idx;

	if (!armpmu->counters_for)
		return armpmu->get_event_idx(cpuc, event);

	if (home && !(used & home)) {
		idx = fls64(home) - 1;
		armpmu_hold(cpuc, event, home, idx);
		return idx;
	}
	return armpmu_place_anew(armpmu, cpuc, event, used);
}

static void armpmu_unplace(struct arm_pmu *armpmu, struct pmu_hw_events *cpuc,
			   struct perf_event *event)
{
	u64 bit = BIT_ULL(event->hw.idx);
	u64 used;

	if (!armpmu->counters_for) {
		armpmu->clear_event_idx(cpuc, event);
		return;
	}
	used = armpmu_bits64(cpuc->used_mask) & ~bit;
	if (cpuc->paired & bit)
		used &= ~(bit >> 1);
	cpuc->paired &= ~bit;
	bitmap_from_arr64(cpuc->used_mask, &used, ARMPMU_MAX_HWEVENTS);
}

static int armpmu_add(struct perf_event *event, int flags)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	if (armpmu_share_add(cpuc, event, flags))
		return 0;
	idx = armpmu_place(armpmu, cpuc, event);
	if (idx < 0)
		return idx;
	WARN_ON_ONCE(cpuc->events[idx]);
	hwc->idx = idx;
	cpuc->events[idx] = event;
	/* The records are the CPU's: a task switch must empty them. */
	if (has_branch_stack(event)) {
		cpuc->branch_users++;
		perf_sched_cb_inc(event->pmu);
	}
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* Either way the user page learns the counter's index. */
	if (flags & PERF_EF_START)
		armpmu_start(event, PERF_EF_RELOAD);
	else
		perf_event_update_userpage(event);
	return 0;
}

static void armpmu_del(struct perf_event *event, int flags)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);

	if (unlikely(cpuc->share.nr) && armpmu_share_del(cpuc, event))
		return;
	armpmu_stop(event, PERF_EF_UPDATE);
	if (has_branch_stack(event)) {
		cpuc->branch_users--;
		perf_sched_cb_dec(event->pmu);
	}
	cpuc->events[event->hw.idx] = NULL;
	armpmu_unplace(armpmu, cpuc, event);
	event->hw.idx = -1;
	perf_event_update_userpage(event);
}

static void armpmu_enable(struct pmu *pmu)
{
	struct arm_pmu *armpmu = to_arm_pmu(pmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);

	/* The core calls this on every CPU a task of ours runs on. */
	if (!cpumask_test_cpu(smp_processor_id(), &armpmu->supported_cpus))
		return;
	cpuc->stopped = false;
	if (!bitmap_empty(cpuc->used_mask, ARMPMU_MAX_HWEVENTS))
		armpmu->start(armpmu);
}

static void armpmu_disable(struct pmu *pmu)
{
	struct arm_pmu *armpmu = to_arm_pmu(pmu);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);

	if (!cpumask_test_cpu(smp_processor_id(), &armpmu->supported_cpus))
		return;
	cpuc->stopped = true;
	armpmu->stop(armpmu);
}

/*
 * Whether a group member takes a counter when the group goes on: not
 * in an error state, and not disabled unless exec will enable it.
 * The new event is judged the same way.
 */
static bool armpmu_group_member_counts(struct perf_event *member)
{
	if (member->state < PERF_EVENT_STATE_OFF)
		return false;
	return member->state != PERF_EVENT_STATE_OFF ||
	       member->attr.enable_on_exec;
}

/*
 * Add @member to the members of @event's group that need this PMU's
 * counters: 0, or -EINVAL for another PMU's hardware event (no group
 * spans two) or one member too many.
 */
static int armpmu_group_collect(struct perf_event *event,
				struct perf_event *member,
				struct perf_event **members, int *nr)
{
	if (is_software_event(member))
		return 0;
	if (member->pmu != event->pmu)
		return -EINVAL;
	if (!armpmu_group_member_counts(member))
		return 0;
	if (*nr == ARMPMU_MAX_HWEVENTS)
		return -EINVAL;
	members[(*nr)++] = member;
	return 0;
}

/*
 * Whether @event's group fits on an empty PMU of this kind: the same
 * placement add() would make, so a group that passes here can be
 * scheduled.  Software events ride along.
 */
static int armpmu_group_fits(struct perf_event *event)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	struct perf_event *leader = event->group_leader, *member;
	struct perf_event *members[ARMPMU_MAX_HWEVENTS];
	struct armpmu_need needs[ARMPMU_MAX_HWEVENTS];
	int idx[ARMPMU_MAX_HWEVENTS];
	struct pmu_hw_events *scratch;
	int i, nr = 0, ret;

	ret = armpmu_group_collect(event, leader, members, &nr);
	/*
	 * A new leader has no siblings yet, and its context (whose mutex
	 * guards the sibling list) may not be locked: a kernel counter's.
	 */
	if (!ret && event != leader) {
		for_each_sibling_event(member, leader) {
			if (!ret)
				ret = armpmu_group_collect(event, member,
							   members, &nr);
		}
		if (!ret)
			ret = armpmu_group_collect(event, event, members, &nr);
	}
	if (ret)
		return ret;

	if (armpmu->counters_for) {
		for (i = 0; i < nr; i++)
			armpmu->counters_for(armpmu, members[i], &needs[i]);
		return armpmu_assign(needs, nr, armpmu_counter_mask(armpmu),
				     idx) ? -EINVAL : 0;
	}

	/* A driver that picks its own counters: let it pick on a blank. */
	scratch = kzalloc(sizeof(*scratch), GFP_KERNEL);
	if (!scratch)
		return -ENOMEM;
	for (i = 0; i < nr && !ret; i++)
		if (armpmu->get_event_idx(scratch, members[i]) < 0)
			ret = -EINVAL;
	kfree(scratch);
	return ret;
}

static int armpmu_event_init(struct perf_event *event)
{
	struct arm_pmu *armpmu = to_arm_pmu(event->pmu);
	struct hw_perf_event *hwc = &event->hw;
	int code, ret;

	/* A CPU-bound event only on a CPU of this PMU's kind. */
	if (event->cpu != -1 &&
	    !cpumask_test_cpu(event->cpu, &armpmu->supported_cpus))
		return -ENOENT;
	if (has_branch_stack(event) && !armpmu->branch_records)
		return -EOPNOTSUPP;

	hwc->flags = 0;
	code = armpmu->map_event(event);
	if (code < 0)
		return code;

	hwc->idx = -1;
	hwc->last_tag = 0;	/* no home yet: armpmu_place() */
	hwc->config = 0;
	hwc->config_base = 0;
	hwc->event_base = 0;
	if (armpmu->set_event_filter) {
		ret = armpmu->set_event_filter(hwc, &event->attr);
		if (ret)
			return ret;
	}
	if (has_branch_stack(event)) {
		ret = armpmu->branch_init(event);
		if (ret)
			return ret;
	}
	hwc->config_base |= code;

	if (!is_sampling_event(event)) {
		hwc->sample_period = armpmu_width_mask(event) >> 1;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	return armpmu_group_fits(event);
}

/*
 * On big.LITTLE a CPU of another kind is not this PMU's to schedule: a
 * task's event meets such CPUs.  The core asks this before it adds an
 * event, so add need not.
 */
static bool armpmu_filter(struct pmu *pmu, int cpu)
{
	return !cpumask_test_cpu(cpu, &to_arm_pmu(pmu)->supported_cpus);
}

/* ---- the overflow interrupt's common part ------------------------- */

/**
 * armpmu_handle_overflow() - sample the events whose counters overflowed
 * @armpmu: the PMU
 * @overflowed: the overflowed counters, as the driver read and cleared
 *	them
 * @regs: the interrupted registers
 *
 * Stops the CPU's counters while it works (unless the interrupt came
 * inside a pmu_disable, which keeps them stopped), folds each
 * overflowed counter, loads it for the next period, and hands a sample
 * to the core; an event the core throttles is disabled.  A counter with
 * no event (one just removed) is only acknowledged.
 *
 * Return: IRQ_HANDLED when any counter overflowed, else IRQ_NONE.
 */
irqreturn_t armpmu_handle_overflow(struct arm_pmu *armpmu, u64 overflowed,
				   struct pt_regs *regs)
{
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);
	bool was_running = !cpuc->stopped;
	u64 pending = overflowed;

	if (!overflowed)
		return IRQ_NONE;
	if (was_running)
		armpmu->stop(armpmu);

	while (pending) {
		int idx = __ffs64(pending);
		struct perf_event *event = idx < ARMPMU_MAX_HWEVENTS ?
					   cpuc->events[idx] : NULL;
		struct perf_sample_data sample;
		u64 period, before;
		int ran_out;

		pending &= pending - 1;
		if (!event)
			continue;
		/* The sample is of the period that just ended. */
		period = event->hw.last_period;
		before = armpmu_event_update(event);
		ran_out = armpmu_event_set_period(event);
		/* Riders of the counter keep their deltas across the load. */
		if (unlikely(cpuc->share.nr))
			perf_share_shift(&cpuc->share, event,
					 local64_read(&event->hw.prev_count) -
					 before);
		if (!ran_out)
			continue;
		perf_sample_data_init(&sample, 0, period);
		if (has_branch_stack(event)) {
			armpmu->branch_read(armpmu, event, cpuc->branches);
			perf_sample_save_brstack(&sample, event, cpuc->branches,
						 NULL);
		}
		if (perf_event_overflow(event, &sample, regs))
			armpmu->disable(event);
	}

	/*
	 * What the samples queued as irq_work (wakeups, throttling) runs
	 * from the self-IPI irq_work raised: never here, which may be an
	 * NMI.
	 */
	if (was_running)
		armpmu->start(armpmu);
	return IRQ_HANDLED;
}

/* ---- CPU hotplug and power-down ----------------------------------- */

/*
 * A CPU coming up has its PMU's registers in an unknown state: reset
 * them before its interrupt is let in.
 */
static int armpmu_cpu_starting(unsigned int cpu, struct hlist_node *node)
{
	struct arm_pmu *armpmu = hlist_entry_safe(node, struct arm_pmu, node);

	if (!cpumask_test_cpu(cpu, &armpmu->supported_cpus))
		return 0;
	if (armpmu->reset)
		armpmu->reset(armpmu);
	per_cpu(armpmu_of_cpu, cpu) = armpmu;
	armpmu_irq_cpu_up(cpu);
	return 0;
}

static int armpmu_cpu_dying(unsigned int cpu, struct hlist_node *node)
{
	struct arm_pmu *armpmu = hlist_entry_safe(node, struct arm_pmu, node);

	if (!cpumask_test_cpu(cpu, &armpmu->supported_cpus))
		return 0;
	armpmu_irq_cpu_down(cpu);
	per_cpu(armpmu_of_cpu, cpu) = NULL;
	return 0;
}

#ifdef CONFIG_CPU_PM
/*
 * A CPU powering down loses its counters: fold each event's count on
 * the way down, reset the registers on the way up and load every event
 * again, as if it had been removed and added back.
 */
static int armpmu_cpu_pm_notify(struct notifier_block *nb, unsigned long cmd,
				void *unused)
{
	struct arm_pmu *armpmu = container_of(nb, struct arm_pmu, cpu_pm_nb);
	struct pmu_hw_events *cpuc = this_cpu_ptr(armpmu->hw_events);
	bool going_down = cmd == CPU_PM_ENTER;
	int idx;

	if (!cpumask_test_cpu(smp_processor_id(), &armpmu->supported_cpus))
		return NOTIFY_DONE;
	if (cmd != CPU_PM_ENTER && cmd != CPU_PM_EXIT &&
	    cmd != CPU_PM_ENTER_FAILED)
		return NOTIFY_DONE;

	/* Registers are unknown after power-up, events or not. */
	if (cmd == CPU_PM_EXIT && armpmu->reset)
		armpmu->reset(armpmu);
	if (bitmap_empty(cpuc->used_mask, ARMPMU_MAX_HWEVENTS))
		return NOTIFY_OK;

	if (going_down)
		armpmu->stop(armpmu);
	for (idx = 0; idx < ARMPMU_MAX_HWEVENTS; idx++) {
		struct perf_event *event = cpuc->events[idx];

		if (!event)
			continue;
		if (going_down) {
			armpmu_share_fold(cpuc, event);
			armpmu_stop(event, PERF_EF_UPDATE);
		} else {
			armpmu_start(event, PERF_EF_RELOAD);
			armpmu_share_follow(cpuc, event);
		}
	}
	if (!going_down)
		armpmu->start(armpmu);
	return NOTIFY_OK;
}

static int armpmu_cpu_pm_register(struct arm_pmu *armpmu)
{
	armpmu->cpu_pm_nb.notifier_call = armpmu_cpu_pm_notify;
	return cpu_pm_register_notifier(&armpmu->cpu_pm_nb);
}

static void armpmu_cpu_pm_unregister(struct arm_pmu *armpmu)
{
	cpu_pm_unregister_notifier(&armpmu->cpu_pm_nb);
}
#else
static int armpmu_cpu_pm_register(struct arm_pmu *armpmu)
{
	return 0;
}

static void armpmu_cpu_pm_unregister(struct arm_pmu *armpmu) { }
#endif

/* ---- allocation, registration, sysfs ------------------------------ */

/* sysfs cpus: the CPUs the PMU counts on, as a list (perf reads it). */
static ssize_t cpus_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	const struct cpumask *cpus = &to_arm_pmu(dev_get_drvdata(dev))->supported_cpus;

	return cpumap_print_to_pagebuf(true, buf, cpus);
}
static DEVICE_ATTR_RO(cpus);

static struct attribute *armpmu_common_attrs[] = { &dev_attr_cpus.attr, NULL };

static const struct attribute_group armpmu_common_group = {
	.attrs = armpmu_common_attrs,
};

/**
 * armpmu_alloc() - a blank CPU PMU for a probe to fill
 *
 * Return: the PMU with its struct pmu callbacks and per-CPU state, or
 * NULL when memory is short.
 */
struct arm_pmu *armpmu_alloc(void)
{
	struct arm_pmu *armpmu;
	int cpu;

	armpmu = kzalloc(sizeof(*armpmu), GFP_KERNEL);
	if (!armpmu)
		return NULL;
	armpmu->hw_events = alloc_percpu(struct pmu_hw_events);
	if (!armpmu->hw_events) {
		kfree(armpmu);
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		struct pmu_hw_events *cpuc = per_cpu_ptr(armpmu->hw_events, cpu);

		cpuc->percpu_pmu = armpmu;
		cpuc->user_access = U64_MAX;
		memset(cpuc->types, 0xff, sizeof(cpuc->types));
	}

	armpmu->attr_groups[ARMPMU_ATTR_GROUP_COMMON] = &armpmu_common_group;
	armpmu->pmu = (struct pmu) {
		.event_init	= armpmu_event_init,
		.add		= armpmu_add,
		.del		= armpmu_del,
		.start		= armpmu_start_event,
		.stop		= armpmu_stop_event,
		.read		= armpmu_read,
		.pmu_enable	= armpmu_enable,
		.pmu_disable	= armpmu_disable,
		.filter		= armpmu_filter,
		.attr_groups	= armpmu->attr_groups,
		/*
		 * On big.LITTLE there is one such PMU per kind of CPU:
		 * generic hardware events name theirs in config's top
		 * bits.
		 */
		.capabilities	= PERF_PMU_CAP_EXTENDED_REGS |
				  PERF_PMU_CAP_EXTENDED_HW_TYPE |
				  PERF_PMU_CAP_SHARE_COUNTERS,
	};
	return armpmu;
}

static void armpmu_free_branch_stacks(struct arm_pmu *armpmu)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct pmu_hw_events *cpuc = per_cpu_ptr(armpmu->hw_events, cpu);

		kfree(cpuc->branches);
		cpuc->branches = NULL;
	}
}

/* Each CPU's room for a branch stack, where the PMU records branches. */
static int armpmu_alloc_branch_stacks(struct arm_pmu *armpmu)
{
	size_t size = struct_size_t(struct perf_branch_stack, entries,
				    armpmu->branch_records);
	int cpu;

	if (!armpmu->branch_records)
		return 0;
	for_each_cpu(cpu, &armpmu->supported_cpus) {
		struct pmu_hw_events *cpuc = per_cpu_ptr(armpmu->hw_events, cpu);

		cpuc->branches = kzalloc_node(size, GFP_KERNEL, cpu_to_node(cpu));
		if (!cpuc->branches) {
			armpmu_free_branch_stacks(armpmu);
			return -ENOMEM;
		}
	}
	return 0;
}

/**
 * armpmu_free() - undo armpmu_alloc() for a PMU that was not registered
 * @armpmu: the PMU
 */
void armpmu_free(struct arm_pmu *armpmu)
{
	armpmu_free_branch_stacks(armpmu);
	free_percpu(armpmu->hw_events);
	kfree(armpmu);
}

/**
 * armpmu_register() - make a probed PMU live
 * @armpmu: the PMU, its driver's init done and interrupts requested
 *
 * Gives each of its CPUs room for a branch stack (where the driver found
 * branch records), brings their counters up (reset, interrupt enabled),
 * registers it with the core under armpmu->name and offers it to KVM.
 *
 * Return: 0 or an errno, with nothing left registered.
 */
int armpmu_register(struct arm_pmu *armpmu)
{
	int ret;

	ret = armpmu_alloc_branch_stacks(armpmu);
	if (ret)
		return ret;
	ret = cpuhp_state_add_instance(CPUHP_AP_PERF_ARM_STARTING,
				       &armpmu->node);
	if (ret)
		goto out_branches;
	ret = armpmu_cpu_pm_register(armpmu);
	if (ret)
		goto out_hotplug;

	if (!armpmu->set_event_filter)
		armpmu->pmu.capabilities |= PERF_PMU_CAP_NO_EXCLUDE;
	/*
	 * On every CPU there can be, the PMU has no CPU to turn away:
	 * spare the core its question at each event's sched in.
	 */
	if (cpumask_subset(cpu_possible_mask, &armpmu->supported_cpus))
		armpmu->pmu.filter = NULL;
	ret = perf_pmu_register(&armpmu->pmu, armpmu->name, -1);
	if (ret)
		goto out_pm;

	pr_info("enabled with %s PMU driver, %d (%*pb) counters available%s\n",
		armpmu->name,
		bitmap_weight(armpmu->cntr_mask, ARMPMU_MAX_HWEVENTS),
		ARMPMU_MAX_HWEVENTS, armpmu->cntr_mask,
		arm_pmu_irq_is_nmi() ? ", using NMIs" : "");
	kvm_host_pmu_init(armpmu);
	return 0;

out_pm:
	armpmu_cpu_pm_unregister(armpmu);
out_hotplug:
	cpuhp_state_remove_instance_nocalls(CPUHP_AP_PERF_ARM_STARTING,
					    &armpmu->node);
out_branches:
	armpmu_free_branch_stacks(armpmu);
	return ret;
}

static int __init armpmu_hotplug_init(void)
{
	int ret;

	ret = cpuhp_setup_state_multi(CPUHP_AP_PERF_ARM_STARTING,
				      "perf/arm/pmu:starting",
				      armpmu_cpu_starting, armpmu_cpu_dying);
	if (ret)
		pr_err("no CPU hotplug state for the CPU PMUs: %d\n", ret);
	return ret;
}
subsys_initcall(armpmu_hotplug_init);
