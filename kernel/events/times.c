// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: time accounting for perf events; see times.h for the model.
 *
 * Every interval is computed by perf_times_elapsed() (times.h), which
 * treats a timestamp older than the previous one as "no time passed".
 * perf_clock() is only monotonic per CPU, and a context can be updated
 * from another CPU than the one that stamped it last; a small step
 * backwards must not turn into an almost-2^64 jump of a total.
 */
#include <kunit/visibility.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <asm/barrier.h>

#include "times.h"

/**
 * perf_tclock_init() - reset a context clock to zero, stopped
 * @clk: the clock
 */
void perf_tclock_init(struct perf_tclock *clk)
{
	clk->time = 0;
	clk->stamp = 0;
	clk->offset = 0;
	clk->running = false;
}
EXPORT_SYMBOL_IF_KUNIT(perf_tclock_init);

/*
 * Publish @time and @offset for lockless readers.  The offset form lets
 * such a reader compute the current time from one word it loads and one
 * raw clock value it reads itself.
 */
static void tc_publish(struct perf_tclock *clk, u64 time, u64 stamp)
{
	WRITE_ONCE(clk->time, time);
	clk->stamp = stamp;
	WRITE_ONCE(clk->offset, time - stamp);
}

/**
 * perf_tclock_update() - bring a running clock up to @now
 * @clk: the clock
 * @now: current raw clock value
 *
 * Does nothing to a stopped clock: its time does not depend on @now.
 * Context: the owning context's lock.
 */
void perf_tclock_update(struct perf_tclock *clk, u64 now)
{
	u64 d;

	if (!clk->running)
		return;
	d = perf_times_elapsed(clk->stamp, now);
	if (d)
		tc_publish(clk, clk->time + d, now);
}
EXPORT_SYMBOL_IF_KUNIT(perf_tclock_update);

/**
 * perf_tclock_start() - let the clock advance from @now on
 * @clk: the clock
 * @now: current raw clock value
 *
 * Starting a running clock only updates it.
 * Context: the owning context's lock.
 */
void perf_tclock_start(struct perf_tclock *clk, u64 now)
{
	if (clk->running) {
		perf_tclock_update(clk, now);
		return;
	}
	tc_publish(clk, clk->time, now);
	/*
	 * A lockless reader that sees running must also see the offset
	 * written just above, not one left over from an earlier run.
	 */
	smp_store_release(&clk->running, true);
}
EXPORT_SYMBOL_IF_KUNIT(perf_tclock_start);

/**
 * perf_tclock_stop() - freeze the clock at its value at @now
 * @clk: the clock
 * @now: current raw clock value
 *
 * Context: the owning context's lock.
 */
void perf_tclock_stop(struct perf_tclock *clk, u64 now)
{
	if (!clk->running)
		return;
	perf_tclock_update(clk, now);
	/* A reader that sees the clock stopped must see its final time. */
	smp_store_release(&clk->running, false);
}
EXPORT_SYMBOL_IF_KUNIT(perf_tclock_stop);

/**
 * perf_tclock_read_lockless() - the clock's value at @now, without the lock
 * @clk: the clock
 * @now: current raw clock value
 *
 * For NMI and other readers that cannot take the context lock.  A reader
 * racing with perf_tclock_stop() may still use the offset and overshoot
 * the frozen value by the time it took to stop the clock; it never reads
 * a torn pair of @time and @stamp.
 *
 * Return: the clock time at @now.
 */
u64 perf_tclock_read_lockless(const struct perf_tclock *clk, u64 now)
{
	/*
	 * Pairs with the releases in start/stop: running seen true means the
	 * offset of that run is visible, seen false the final time.
	 */
	if (!smp_load_acquire(&clk->running))
		return READ_ONCE(clk->time);
	return now + READ_ONCE(clk->offset);
}
EXPORT_SYMBOL_IF_KUNIT(perf_tclock_read_lockless);

/**
 * perf_times_init() - start accounting with zero totals
 * @pt: the totals
 * @clock_now: current time of the event's context clock
 * @mode: initial mode
 */
void perf_times_init(struct perf_times *pt, u64 clock_now,
		     enum perf_times_mode mode)
{
	pt->enabled = 0;
	pt->running = 0;
	pt->stamp = clock_now;
	pt->mode = mode;
}
EXPORT_SYMBOL_IF_KUNIT(perf_times_init);

/**
 * perf_times_read_lockless() - the totals now, from any context
 * @pt: the totals
 * @clk: the clock @pt is measured on
 * @now: current raw clock value (perf_clock())
 * @enabled: returns time_enabled
 * @running: returns time_running
 *
 * For NMI-safe readers.  Each field is loaded once; as with any lockless
 * reader, an NMI that lands inside a fold on the same CPU can see a mix of
 * old and new fields.
 */
void perf_times_read_lockless(const struct perf_times *pt,
			      const struct perf_tclock *clk, u64 now,
			      u64 *enabled, u64 *running)
{
	u64 clock_now = perf_tclock_read_lockless(clk, now);

	*enabled = READ_ONCE(pt->enabled);
	*running = READ_ONCE(pt->running);
	perf_times_grow(READ_ONCE(pt->mode),
			perf_times_elapsed(READ_ONCE(pt->stamp), clock_now),
			enabled, running);
}
EXPORT_SYMBOL_IF_KUNIT(perf_times_read_lockless);

/**
 * perf_times_fill_userpage() - export the totals in the mmap'ed user page
 * @pt: the totals
 * @clk: the clock @pt is measured on
 * @now: current raw clock value; must be the value handed to the
 *	 architecture's user-page update, which sets @userpg->time_offset so
 *	 that userspace's computed delta is (its own clock - @now)
 * @child_enabled: time_enabled of exited inherited children
 * @child_running: time_running of exited inherited children
 * @userpg: the user page, inside its seqcount write section
 *
 * Userspace reads time_enabled and time_running and adds the delta to the
 * first, and also to the second while the event is on the PMU (index set).
 * That reproduces perf_times_read_lockless() at its own later time as
 * long as the mode and the clock did not change since; every such change
 * is followed by a new fill.
 */
void perf_times_fill_userpage(const struct perf_times *pt,
			      const struct perf_tclock *clk, u64 now,
			      u64 child_enabled, u64 child_running,
			      struct perf_event_mmap_page *userpg)
{
	u64 enabled, running;

	perf_times_read_lockless(pt, clk, now, &enabled, &running);
	userpg->time_enabled = enabled + child_enabled;
	userpg->time_running = running + child_running;
}
EXPORT_SYMBOL_IF_KUNIT(perf_times_fill_userpage);
