/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: frequency mode and the sample-rate limits, as arithmetic.
 *
 * An event opened with attr.freq asks for sample_freq samples a second
 * rather than one sample every sample_period events; the core keeps
 * re-estimating the period that gives that rate.  Independently, all
 * sampling is held to kernel.perf_event_max_sample_rate, and that limit
 * is lowered by itself when samples take more than
 * kernel.perf_cpu_time_max_percent of the CPU.
 *
 * This file has the numbers only; the core decides when to apply them
 * (at each overflow and each tick) and owns the per-CPU state.
 */
#ifndef _KERNEL_EVENTS_FREQ_H
#define _KERNEL_EVENTS_FREQ_H

#include <linux/types.h>

u64 perf_freq_period(u64 count, u64 nsec, u64 freq);
u64 perf_freq_step(u64 period, u64 target);

/**
 * struct perf_rate_limits - the sampling limits in force
 * @max_sample_rate: kernel.perf_event_max_sample_rate
 * @cpu_time_max_percent: kernel.perf_cpu_time_max_percent; 0 or 100
 *	turn the automatic lowering off
 * @max_samples_per_tick: overflows one event may take in one tick
 *	before it is throttled
 * @sample_period_ns: the shortest time between samples at
 *	@max_sample_rate
 * @allowed_ns: what one sample may cost on average before the rate is
 *	lowered; 0 when lowering is off
 */
struct perf_rate_limits {
	u32	max_sample_rate;
	u32	cpu_time_max_percent;
	u32	max_samples_per_tick;
	u64	sample_period_ns;
	u64	allowed_ns;
};

/* Samples a CPU's running average spans. */
#define PERF_RATE_AVG_SAMPLES	128

void perf_rate_limits_set(struct perf_rate_limits *lim, u32 max_sample_rate,
			  u32 cpu_time_max_percent, u32 hz);
u64 perf_rate_average(u64 running, u64 sample_ns);
bool perf_rate_lower(struct perf_rate_limits *lim, u64 running, u32 hz);

#endif /* _KERNEL_EVENTS_FREQ_H */
