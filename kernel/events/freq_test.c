// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for perfcore's frequency-mode and sample-rate arithmetic
 * (freq.c): the period estimate against its 128-bit definition, the
 * smoothing step and its convergence, and the limits derived from the
 * sysctls and lowered when samples cost too much.
 */
#include <kunit/test.h>
#include <linux/limits.h>
#include <linux/module.h>
#include <linux/time64.h>

#include "freq.h"

static void freq_period_exact_test(struct kunit *test)
{
	/* A million events a second, sampled 1000 times a second. */
	KUNIT_EXPECT_EQ(test, perf_freq_period(1000000, NSEC_PER_SEC, 1000),
			1000);
	/* The same rate seen over one 4 ms tick, at 4 kHz. */
	KUNIT_EXPECT_EQ(test, perf_freq_period(4000, 4 * NSEC_PER_MSEC, 4000),
			250);
	/* Fewer events than samples wanted. */
	KUNIT_EXPECT_EQ(test, perf_freq_period(3, NSEC_PER_SEC, 4000), 0);
	/* Floors, never rounds up. */
	KUNIT_EXPECT_EQ(test, perf_freq_period(1999, NSEC_PER_SEC, 1000), 1);
}

static void freq_period_extremes_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_freq_period(1, 0, 1), U64_MAX);
	KUNIT_EXPECT_EQ(test, perf_freq_period(U64_MAX, 1, 1), U64_MAX);
	KUNIT_EXPECT_EQ(test, perf_freq_period(U64_MAX, 1, U64_MAX), U64_MAX);
	/* Just below where the rate stops fitting: still exact. */
	KUNIT_EXPECT_EQ(test, perf_freq_period(U64_MAX / NSEC_PER_SEC - 1, 1,
					       NSEC_PER_SEC),
			U64_MAX / NSEC_PER_SEC - 1);
	KUNIT_EXPECT_EQ(test, perf_freq_period(0, 12345, 99), 0);
}

static u64 freq_next(u64 *state)
{
	/* xorshift64: reproducible inputs spread over every magnitude. */
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

/* A value of a random magnitude. */
static u64 freq_any(u64 *state)
{
	u64 v = freq_next(state);

	return v >> (freq_next(state) % 64);
}

static void freq_period_reference_test(struct kunit *test)
{
#ifdef CONFIG_ARCH_SUPPORTS_INT128
	u64 state = 0x2545f4914f6cdd1dULL;
	unsigned int i;

	for (i = 0; i < 4000; i++) {
		u64 count = freq_any(&state);
		u64 nsec = freq_any(&state) ?: 1;
		u64 freq = (freq_any(&state) >> 33) ?: 1;
		u64 got = perf_freq_period(count, nsec, freq);
		u128 events, per_period;

		if (count / nsec >= U64_MAX / NSEC_PER_SEC)
			continue;	/* the saturated case, tested above */
		/*
		 * got must be the floor of events / per_period; the kernel
		 * has 128-bit multiplication but no division, so check the
		 * two inequalities that define it.
		 */
		events = (u128)count * NSEC_PER_SEC;
		per_period = (u128)nsec * freq;
		KUNIT_EXPECT_TRUE_MSG(test, (u128)got * per_period <= events &&
				      events < (u128)(got + 1) * per_period,
				      "count %llu nsec %llu freq %llu: %llu",
				      count, nsec, freq, got);
	}
#else
	kunit_skip(test, "no 128-bit arithmetic for the reference");
#endif
}

static void freq_step_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_freq_step(100, 100), 100);
	KUNIT_EXPECT_EQ(test, perf_freq_step(100, 180), 110);
	KUNIT_EXPECT_EQ(test, perf_freq_step(100, 20), 90);
	/* At least one step, either way. */
	KUNIT_EXPECT_EQ(test, perf_freq_step(100, 101), 101);
	KUNIT_EXPECT_EQ(test, perf_freq_step(100, 99), 99);
	KUNIT_EXPECT_EQ(test, perf_freq_step(100, 0), 87);
	/* Never below one, never past the top. */
	KUNIT_EXPECT_EQ(test, perf_freq_step(1, 0), 1);
	KUNIT_EXPECT_EQ(test, perf_freq_step(U64_MAX - 1, U64_MAX), U64_MAX);
	KUNIT_EXPECT_EQ(test, perf_freq_step(U64_MAX, U64_MAX), U64_MAX);
}

static void freq_step_converges_test(struct kunit *test)
{
	u64 period = 1;
	unsigned int steps = 0;

	while (period != 1000000 && steps < 1000) {
		period = perf_freq_step(period, 1000000);
		steps++;
	}
	KUNIT_EXPECT_EQ(test, period, 1000000);
	KUNIT_EXPECT_LT(test, steps, 200);
	/* Once there, it stays. */
	KUNIT_EXPECT_EQ(test, perf_freq_step(period, 1000000), 1000000);

	/* And back down. */
	for (steps = 0; period != 3 && steps < 1000; steps++)
		period = perf_freq_step(period, 3);
	KUNIT_EXPECT_EQ(test, period, 3);
}

static void freq_limits_test(struct kunit *test)
{
	struct perf_rate_limits lim;

	perf_rate_limits_set(&lim, 100000, 25, 250);
	KUNIT_EXPECT_EQ(test, lim.max_sample_rate, 100000);
	KUNIT_EXPECT_EQ(test, lim.max_samples_per_tick, 400);
	KUNIT_EXPECT_EQ(test, lim.sample_period_ns, 10000);
	KUNIT_EXPECT_EQ(test, lim.allowed_ns, 2500);

	perf_rate_limits_set(&lim, 7, 25, 1000);
	KUNIT_EXPECT_EQ(test, lim.max_samples_per_tick, 1);
	KUNIT_EXPECT_EQ(test, lim.sample_period_ns, NSEC_PER_SEC / 7);
	KUNIT_EXPECT_EQ(test, lim.allowed_ns, NSEC_PER_SEC / 7 / 4);

	/* 0 and 100 percent turn the lowering off. */
	perf_rate_limits_set(&lim, 100000, 0, 250);
	KUNIT_EXPECT_EQ(test, lim.allowed_ns, 0);
	perf_rate_limits_set(&lim, 100000, 100, 250);
	KUNIT_EXPECT_EQ(test, lim.allowed_ns, 0);
	/* A budget never rounds down to nothing. */
	perf_rate_limits_set(&lim, NSEC_PER_SEC, 1, 250);
	KUNIT_EXPECT_EQ(test, lim.allowed_ns, 1);
}

static void freq_average_test(struct kunit *test)
{
	u64 running = 0;
	unsigned int i;

	for (i = 0; i < 4000; i++)
		running = perf_rate_average(running, 1000);
	KUNIT_EXPECT_EQ(test, running / PERF_RATE_AVG_SAMPLES, 1000);
	/* The steady state is exactly the cost. */
	running = 1000 * PERF_RATE_AVG_SAMPLES;
	KUNIT_EXPECT_EQ(test, perf_rate_average(running, 1000), running);
}

static void freq_lower_test(struct kunit *test)
{
	struct perf_rate_limits lim;

	perf_rate_limits_set(&lim, 100000, 25, 250);
	/* Within budget: nothing changes. */
	KUNIT_EXPECT_FALSE(test, perf_rate_lower(&lim, 2500 * 128, 250));
	KUNIT_EXPECT_EQ(test, lim.max_sample_rate, 100000);

	/*
	 * 4 us a sample: the budget becomes 5 us, and a quarter of a 4 ms
	 * tick holds 200 of those.
	 */
	KUNIT_EXPECT_TRUE(test, perf_rate_lower(&lim, 4000 * 128, 250));
	KUNIT_EXPECT_EQ(test, lim.allowed_ns, 5000);
	KUNIT_EXPECT_EQ(test, lim.max_samples_per_tick, 200);
	KUNIT_EXPECT_EQ(test, lim.max_sample_rate, 200 * 250);
	KUNIT_EXPECT_EQ(test, lim.sample_period_ns, NSEC_PER_SEC / 50000);

	/* Slower than a tick's share: one sample a tick is the floor. */
	KUNIT_EXPECT_TRUE(test, perf_rate_lower(&lim, 2000000ULL * 128, 250));
	KUNIT_EXPECT_EQ(test, lim.max_samples_per_tick, 1);
	KUNIT_EXPECT_EQ(test, lim.max_sample_rate, 250);

	/* Lowering off: never. */
	perf_rate_limits_set(&lim, 100000, 100, 250);
	KUNIT_EXPECT_FALSE(test, perf_rate_lower(&lim, U64_MAX, 250));
}

static struct kunit_case perfcore_freq_cases[] = {
	KUNIT_CASE(freq_period_exact_test),
	KUNIT_CASE(freq_period_extremes_test),
	KUNIT_CASE(freq_period_reference_test),
	KUNIT_CASE(freq_step_test),
	KUNIT_CASE(freq_step_converges_test),
	KUNIT_CASE(freq_limits_test),
	KUNIT_CASE(freq_average_test),
	KUNIT_CASE(freq_lower_test),
	{}
};

static struct kunit_suite perfcore_freq_suite = {
	.name = "perfcore_freq",
	.test_cases = perfcore_freq_cases,
};

kunit_test_suite(perfcore_freq_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore frequency mode and rate limits");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
