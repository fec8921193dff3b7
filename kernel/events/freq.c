// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: frequency mode and the sample-rate limits (see freq.h).
 *
 * Pure arithmetic: no locks, no clocks, callable from NMI.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "freq.h"

/**
 * perf_freq_period - the period that would have given the asked-for rate
 * @count: events counted
 * @nsec: over this many nanoseconds
 * @freq: samples a second wanted (attr.sample_freq, at least 1)
 *
 * The period is count / (nsec * freq / NSEC_PER_SEC).  It is computed as
 * the event rate per second, then divided by @freq: for whole numbers,
 * flooring twice gives the same result as flooring once, and neither
 * step can overflow where the answer itself fits.
 *
 * Return: the period, 0 if fewer events came than samples were wanted,
 * U64_MAX if it does not fit.
 */
u64 perf_freq_period(u64 count, u64 nsec, u64 freq)
{
	u64 per_sec;

	if (!nsec || count / nsec >= U64_MAX / NSEC_PER_SEC)
		return U64_MAX;
	per_sec = mul_u64_u64_div_u64(count, NSEC_PER_SEC, nsec);
	return div64_u64(per_sec, freq ?: 1);
}
EXPORT_SYMBOL_IF_KUNIT(perf_freq_period);

/**
 * perf_freq_step - move a period towards a new estimate
 * @period: the period in use
 * @target: what perf_freq_period() estimates now
 *
 * One estimate is noisy (one tick, one overflow), so the period moves an
 * eighth of the way, and at least one, so that it always gets there.
 *
 * Return: the new period, at least 1.
 */
u64 perf_freq_step(u64 period, u64 target)
{
	u64 step;

	if (target >= period) {
		step = DIV_ROUND_UP_ULL(target - period, 8);
		period = period > U64_MAX - step ? U64_MAX : period + step;
	} else {
		step = DIV_ROUND_UP_ULL(period - target, 8);
		period -= step;
	}
	return period ?: 1;
}
EXPORT_SYMBOL_IF_KUNIT(perf_freq_step);

/**
 * perf_rate_limits_set - derive the limits from the two sysctls
 * @lim: filled in
 * @max_sample_rate: kernel.perf_event_max_sample_rate, at least 1
 * @cpu_time_max_percent: kernel.perf_cpu_time_max_percent, 0 to 100
 * @hz: ticks a second
 */
void perf_rate_limits_set(struct perf_rate_limits *lim, u32 max_sample_rate,
			  u32 cpu_time_max_percent, u32 hz)
{
	max_sample_rate = max(max_sample_rate, 1U);
	lim->max_sample_rate = max_sample_rate;
	lim->cpu_time_max_percent = cpu_time_max_percent;
	lim->max_samples_per_tick = DIV_ROUND_UP(max_sample_rate, hz);
	lim->sample_period_ns = NSEC_PER_SEC / max_sample_rate;

	if (!cpu_time_max_percent || cpu_time_max_percent >= 100)
		lim->allowed_ns = 0;
	else
		lim->allowed_ns = max(div_u64(lim->sample_period_ns *
					      cpu_time_max_percent, 100), 1ULL);
}
EXPORT_SYMBOL_IF_KUNIT(perf_rate_limits_set);

/**
 * perf_rate_average - fold one sample's cost into a CPU's running total
 * @running: the total so far, PERF_RATE_AVG_SAMPLES times the average
 * @sample_ns: what the latest sample cost
 *
 * The oldest average sample makes room for the new one, so no count has
 * to be kept; the average starts low and settles within a few hundred
 * samples.
 *
 * Return: the new total.
 */
u64 perf_rate_average(u64 running, u64 sample_ns)
{
	return running - running / PERF_RATE_AVG_SAMPLES + sample_ns;
}
EXPORT_SYMBOL_IF_KUNIT(perf_rate_average);

/**
 * perf_rate_lower - lower the limits if samples cost too much
 * @lim: the limits in force, updated
 * @running: a CPU's total from perf_rate_average()
 * @hz: ticks a second
 *
 * When the average sample costs more than @lim->allowed_ns, the new
 * budget is a quarter above the average seen, and the rate becomes what
 * fits cpu_time_max_percent of each tick at that cost: at least one
 * sample a tick.
 *
 * Return: true if the limits were lowered (the caller reports it and
 * publishes the new kernel.perf_event_max_sample_rate).
 */
bool perf_rate_lower(struct perf_rate_limits *lim, u64 running, u32 hz)
{
	u64 avg = running / PERF_RATE_AVG_SAMPLES;
	u64 budget, tick_share;
	u32 per_tick;

	if (!lim->allowed_ns || avg <= lim->allowed_ns)
		return false;

	budget = avg + avg / 4;
	tick_share = div_u64(NSEC_PER_SEC, hz) / 100 * lim->cpu_time_max_percent;
	per_tick = budget < tick_share ? div64_u64(tick_share, budget) : 1;

	lim->allowed_ns = budget;
	lim->max_samples_per_tick = per_tick;
	lim->max_sample_rate = per_tick * hz;
	lim->sample_period_ns = NSEC_PER_SEC / lim->max_sample_rate;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(perf_rate_lower);
