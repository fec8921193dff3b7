/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: identical counting events share one hardware counter.
 *
 * What a CPU PMU driver that sets PERF_PMU_CAP_SHARE_COUNTERS uses; the
 * rule, the roles and the ordering against the overflow interrupt are
 * described in kernel/events/share.c.
 */
#ifndef _LINUX_PERF_COUNTER_SHARE_H
#define _LINUX_PERF_COUNTER_SHARE_H

#include <linux/perf_event.h>
#include <linux/types.h>

/* kernel.perf_event_share_counters: 1 shares (the default), 0 does not. */
extern int perf_sysctl_share_counters;

/* Riders one CPU's table holds; an event beyond takes a counter. */
#define PERF_SHARE_MAX_RIDERS	32

/**
 * struct perf_share_riders - one CPU's events that read another's counter
 * @nr: entries in use, the first @nr of @rider and @carrier
 * @reloads: bumped each time a counter with riders is loaded while it
 *	may count (the overflow interrupt): a rider starting reads it
 *	around its snapshot (perf_share_snapshot())
 * @rider: the riding events, PERF_EVENT_FLAG_SHARE_RIDER set
 * @carrier: for each, the event that holds the counter it reads
 *
 * Embedded in the driver's per-CPU state; only its CPU touches it, with
 * interrupts off, the overflow interrupt included.  Nothing is
 * allocated per event.
 */
struct perf_share_riders {
	unsigned int		nr;
	unsigned int		reloads;
	struct perf_event	*rider[PERF_SHARE_MAX_RIDERS];
	struct perf_event	*carrier[PERF_SHARE_MAX_RIDERS];
};

/* Does @event read a carrier's counter instead of holding one? */
static inline bool perf_share_is_rider(const struct perf_event *event)
{
	return event->hw.flags & PERF_EVENT_FLAG_SHARE_RIDER;
}

/* Is @event (a rider, or a carrier) counting? */
static inline bool perf_share_counting(const struct perf_event *event)
{
	return !(event->hw.state & PERF_HES_STOPPED);
}

bool perf_event_may_share(struct perf_event *event);
bool perf_events_count_alike(struct perf_event *a, struct perf_event *b);

bool perf_share_join(struct perf_share_riders *t, struct perf_event *rider,
		     struct perf_event *carrier);
void perf_share_leave(struct perf_share_riders *t, struct perf_event *rider);
struct perf_event *perf_share_carrier(const struct perf_share_riders *t,
				      const struct perf_event *rider);
struct perf_event *perf_share_next_rider(const struct perf_share_riders *t,
					 const struct perf_event *carrier,
					 unsigned int *pos);
struct perf_event *perf_share_counting_rider(const struct perf_share_riders *t,
					     const struct perf_event *carrier);
struct perf_event *perf_share_heir(const struct perf_share_riders *t,
				   const struct perf_event *carrier);
void perf_share_hand_over(struct perf_share_riders *t,
			  struct perf_event *carrier, struct perf_event *rider);
void perf_share_shift(struct perf_share_riders *t,
		      const struct perf_event *carrier, u64 shift);
void perf_share_snapshot(struct perf_share_riders *t, struct perf_event *rider,
			 u64 (*read)(struct perf_event *event));

#endif /* _LINUX_PERF_COUNTER_SHARE_H */
