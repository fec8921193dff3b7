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

#include <linux/perf/core_types.h>
#include <linux/perf_event.h>
#include <linux/types.h>

/* struct perf_tclock, struct perf_times: <linux/perf/core_types.h> */

void perf_tclock_init(struct perf_tclock *clk);
void perf_tclock_start(struct perf_tclock *clk, u64 now);
void perf_tclock_stop(struct perf_tclock *clk, u64 now);
void perf_tclock_update(struct perf_tclock *clk, u64 now);
u64 perf_tclock_read_lockless(const struct perf_tclock *clk, u64 now);

#define PERF_TIMES_GROWS_ENABLED	0x1
#define PERF_TIMES_GROWS_RUNNING	0x2

/*
 * Time from @from to @to; a @to older than @from (perf_clock() is only
 * monotonic per CPU) reads as no time passed rather than as a huge jump.
 */
static inline u64 perf_times_elapsed(u64 from, u64 to)
{
	s64 d = (s64)(to - from);

	return d > 0 ? (u64)d : 0;
}

/*
 * Add @d to the totals that @mode makes grow; shared by every fold and
 * read so that they cannot disagree.
 */
static inline void perf_times_grow(enum perf_times_mode mode, u64 d,
				   u64 *enabled, u64 *running)
{
	if (mode & PERF_TIMES_GROWS_ENABLED)
		*enabled += d;
	if (mode & PERF_TIMES_GROWS_RUNNING)
		*running += d;
}

/**
 * perf_tclock_read() - the clock's value at @now
 * @clk: the clock
 * @now: current raw clock value
 *
 * Inline: the task-clock event reads it on every read() and switch.  A
 * @now older than the last update reads as no time passed (see times.c).
 * Context: the owning context's lock, or any context where @clk cannot
 * change.
 * Return: the clock time at @now; @clk is not modified.
 */
static inline u64 perf_tclock_read(const struct perf_tclock *clk, u64 now)
{
	if (!clk->running)
		return clk->time;
	return clk->time + perf_times_elapsed(clk->stamp, now);
}

/**
 * perf_times_mode_for() - which totals grow for an event in a given state
 * @leader_state: state of the event's group leader (the event's own state
 *		  for a leader)
 * @state: state of the event
 *
 * A member is held back by its leader: while the leader is off (or worse)
 * the member accumulates nothing, whatever its own state says.  When the
 * leader crosses between off and on, the caller has to set the new mode of
 * every member too.
 *
 * Inline: every state change of every event asks.
 * Return: the mode to pass to perf_times_set_mode().
 */
static inline enum perf_times_mode
perf_times_mode_for(enum perf_event_state leader_state,
		    enum perf_event_state state)
{
	if (leader_state < PERF_EVENT_STATE_INACTIVE)
		return PERF_TIMES_OFF;
	if (state >= PERF_EVENT_STATE_ACTIVE)
		return PERF_TIMES_RUNNING;
	if (state >= PERF_EVENT_STATE_INACTIVE)
		return PERF_TIMES_ENABLED;
	return PERF_TIMES_OFF;
}

void perf_times_init(struct perf_times *pt, u64 clock_now,
		     enum perf_times_mode mode);

/**
 * perf_times_fold() - account the time up to @clock_now in the totals
 * @pt: the totals
 * @clock_now: current time of the event's context clock
 *
 * Afterwards @pt->enabled and @pt->running are exact as of @clock_now.
 * A @clock_now older than the last fold changes nothing.  Inline: every
 * state change of every event folds.
 * Context: the context lock.
 */
static inline void perf_times_fold(struct perf_times *pt, u64 clock_now)
{
	u64 d = perf_times_elapsed(pt->stamp, clock_now);

	if (!d)
		return;
	perf_times_grow(pt->mode, d, &pt->enabled, &pt->running);
	pt->stamp = clock_now;
}

/**
 * perf_times_set_mode() - switch what grows, from @clock_now on
 * @pt: the totals
 * @clock_now: current time of the event's context clock
 * @mode: new mode, usually from perf_times_mode_for()
 *
 * The time since the last fold is accounted under the old mode first, so
 * a state change never applies retroactively.
 * Context: the context lock.
 */
static inline void perf_times_set_mode(struct perf_times *pt, u64 clock_now,
				       enum perf_times_mode mode)
{
	perf_times_fold(pt, clock_now);
	pt->mode = mode;
}

/**
 * perf_times_detach() - stop accounting as an event leaves its context
 * @pt: the totals
 * @clock_now: current time of the clock the event leaves
 *
 * The totals keep what they had at @clock_now and grow no more until
 * perf_times_attach(): an event that moves to another context (a group
 * moved onto a hardware PMU) carries its times with it.
 * Context: the context lock.
 */
static inline void perf_times_detach(struct perf_times *pt, u64 clock_now)
{
	perf_times_set_mode(pt, clock_now, PERF_TIMES_OFF);
}

/**
 * perf_times_attach() - go on accounting on a context's clock
 * @pt: the totals, detached
 * @clock_now: current time of the clock the event joins
 * @mode: the mode for the event's state there
 *
 * Context: the context lock.
 */
static inline void perf_times_attach(struct perf_times *pt, u64 clock_now,
				     enum perf_times_mode mode)
{
	pt->stamp = clock_now;
	pt->mode = mode;
}

void perf_times_read_lockless(const struct perf_times *pt,
			      const struct perf_tclock *clk, u64 now,
			      u64 *enabled, u64 *running);
void perf_times_fill_userpage(const struct perf_times *pt,
			      const struct perf_tclock *clk, u64 now,
			      u64 child_enabled, u64 child_running,
			      struct perf_event_mmap_page *userpg);

#endif /* _KERNEL_EVENTS_TIMES_H */
