/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: time accounting for perf events.
 *
 * Two pieces:
 *
 *  - struct perf_tclock, a context clock.  It follows perf_clock() while
 *    its context (or cgroup) is scheduled in and stands still while it is
 *    out, so every event of the context sees the same notion of "context
 *    time".  Lockless readers (NMI, the user page) compute the current
 *    value from a single offset.
 *
 *  - struct perf_times, the per-event enabled/running totals measured on
 *    such a clock.  Which totals grow is decided by a mode derived from
 *    the event's state and its group leader's state; changing the mode
 *    first folds the time elapsed under the old mode into the totals.
 *
 * All of it is plain arithmetic on caller-supplied timestamps: nothing
 * here reads a clock or takes a lock, which keeps it testable and lets
 * the caller choose where the time comes from.
 */
#ifndef _KERNEL_EVENTS_TIMES_H
#define _KERNEL_EVENTS_TIMES_H

#include <linux/perf_event.h>
#include <linux/types.h>

/* Types: see flex_queue.h on PERFCORE_CORE_TYPES. */
#ifndef PERFCORE_CORE_TYPES
/**
 * struct perf_tclock - a clock that advances only while started
 * @time:	accumulated time, valid as of @stamp
 * @stamp:	raw clock value (perf_clock()) of the last update
 * @offset:	@time - @stamp, so that a running clock reads raw_now + @offset
 *		without having to see @time and @stamp consistently
 * @running:	true while the clock advances
 *
 * Writers serialise on the lock of the owning context.  Readers that cannot
 * take it use perf_tclock_read_lockless().
 */
struct perf_tclock {
	u64	time;
	u64	stamp;
	u64	offset;
	bool	running;
};

#endif

void perf_tclock_init(struct perf_tclock *clk);
void perf_tclock_start(struct perf_tclock *clk, u64 now);
void perf_tclock_stop(struct perf_tclock *clk, u64 now);
void perf_tclock_update(struct perf_tclock *clk, u64 now);
u64 perf_tclock_read(const struct perf_tclock *clk, u64 now);
u64 perf_tclock_read_lockless(const struct perf_tclock *clk, u64 now);

#ifndef PERFCORE_CORE_TYPES
/**
 * enum perf_times_mode - which totals of an event grow with its clock
 * @PERF_TIMES_OFF:	neither (event off, errored, exited, or its leader is)
 * @PERF_TIMES_ENABLED:	time_enabled only (event enabled but not on the PMU)
 * @PERF_TIMES_RUNNING:	time_enabled and time_running (event on the PMU)
 *
 * Bit 0 means "enabled grows", bit 1 "running grows"; running never grows
 * without enabled, so 2 is not a valid mode.
 */
enum perf_times_mode {
	PERF_TIMES_OFF		= 0,
	PERF_TIMES_ENABLED	= 1,
	PERF_TIMES_RUNNING	= 3,
};

/**
 * struct perf_times - enabled/running totals of one event
 * @enabled:	time_enabled, valid as of @stamp
 * @running:	time_running, valid as of @stamp
 * @stamp:	context-clock time of the last fold
 * @mode:	what grows from @stamp on
 *
 * All times are on the clock of the event's context (for a cgroup event,
 * its cgroup's clock).  Mutators run under the context lock.
 */
struct perf_times {
	u64			enabled;
	u64			running;
	u64			stamp;
	enum perf_times_mode	mode;
};

#endif

enum perf_times_mode perf_times_mode_for(enum perf_event_state leader_state,
					 enum perf_event_state state);
void perf_times_init(struct perf_times *pt, u64 clock_now,
		     enum perf_times_mode mode);
void perf_times_fold(struct perf_times *pt, u64 clock_now);
void perf_times_set_mode(struct perf_times *pt, u64 clock_now,
			 enum perf_times_mode mode);
void perf_times_read(const struct perf_times *pt, u64 clock_now,
		     u64 *enabled, u64 *running);
void perf_times_read_lockless(const struct perf_times *pt,
			      const struct perf_tclock *clk, u64 now,
			      u64 *enabled, u64 *running);
void perf_times_fill_userpage(const struct perf_times *pt,
			      const struct perf_tclock *clk, u64 now,
			      u64 child_enabled, u64 child_running,
			      struct perf_event_mmap_page *userpg);
void perf_times_move(struct perf_times *pt, u64 old_clock_now,
		     u64 new_clock_now);

#endif /* _KERNEL_EVENTS_TIMES_H */
