// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the arithmetic of x86 counters, apart from any state so that
 * KUnit (period_test.c) runs exactly what the PMI and read() run.
 *
 * A counter is width bits wide and counts up.  To overflow after n
 * events it is loaded with -n in width bits; the overflow is the carry
 * out of the top bit.  Between two reads it may have wrapped once.
 */

#include <linux/kernel.h>

#include "counters.h"

/*
 * A counter loaded with fewer than this many counts to go may overflow
 * before the load takes effect on some parts; nobody asks for periods
 * that short anyway.
 */
#define X86C_MIN_LOAD	2

/**
 * x86c_counter_delta - events counted between two reads of a counter
 * @prev: the earlier raw value
 * @now: the later one
 * @width: the counter's width in bits
 *
 * Both values may carry anything above @width (RDPMC on some parts
 * sign-extends); only the low @width bits count, and a wrap between
 * the two reads is one trip round.
 *
 * Return: the count, less than 2^@width.
 */
u64 x86c_counter_delta(u64 prev, u64 now, int width)
{
	int shift = 64 - width;

	return ((now << shift) - (prev << shift)) >> shift;
}

/**
 * x86c_period_next - where a sampling counter goes next
 * @left: counts to the end of the current period (hwc->period_left),
 *	zero or less once it ended
 * @period: the sample period
 * @max_period: the most a counter can be loaded with
 *
 * A period longer than the counter can hold is counted in several
 * loads of at most @max_period: the overflows in between only bring
 * @left down, and the sample comes with the one that ends it.  When the
 * counter ran more than a whole period past the end (an interrupt held
 * off that long), the next period starts afresh rather than being
 * shortened to nothing.
 *
 * Return: the new period_left, what to load and whether a period ended.
 */
struct x86c_period x86c_period_next(s64 left, u64 period, u64 max_period)
{
	struct x86c_period next = { .left = left };

	if (left <= -(s64)period) {
		next.left = period;
		next.elapsed = true;
	} else if (left <= 0) {
		next.left = left + period;
		next.elapsed = true;
	}
	next.load = clamp_t(s64, next.left, X86C_MIN_LOAD, max_period);
	return next;
}

/**
 * x86c_counter_load_value - the raw value that overflows after @load counts
 * @load: counts to the overflow, 1 to the max period
 * @cntval_mask: the counter's bits
 *
 * Return: -@load in the counter's width.  A legacy 32-bit write (no
 * full-width writes) sign-extends bit 31 into the rest, which gives the
 * same counter as long as @load is below 2^31: the max period then is
 * chosen so.
 */
u64 x86c_counter_load_value(s64 load, u64 cntval_mask)
{
	return (u64)(-load) & cntval_mask;
}

/**
 * x86c_limit_period - a load the hardware counts right
 * @limits: the family's shortest periods, or NULL
 * @config: the event's control
 * @load: counts to the overflow
 *
 * The first limit whose code matches raises @load to its minimum and
 * rounds it down to its alignment.  A load that comes out longer than
 * the period left leaves the difference in period_left: the next
 * period is that much shorter, so the samples keep their average rate.
 *
 * Return: the load to program.
 */
s64 x86c_limit_period(const struct x86c_period_limit *limits, u64 config,
		      s64 load)
{
	const struct x86c_period_limit *l;

	for (l = limits; l && l->min; l++) {
		if ((config & l->mask) != l->code)
			continue;
		load = max_t(s64, load, l->min);
		if (l->align)
			load &= ~(s64)(l->align - 1);
		break;
	}
	return load;
}
