// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the x86 counter arithmetic of period.c, the functions the PMI,
 * read() and every counter load call.  Each case states the exact
 * values a counter of a given width must give, so that an off-by-one in
 * a shift, a clamp or a boundary fails here rather than as a count that
 * is slightly wrong in a perf stat run.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/module.h>

#include "counters.h"

#define MASK48		0xffffffffffffULL	/* a 48-bit counter */
#define MAX48		(MASK48 >> 1)		/* x86c_init_limits()' default */
#define LEGACY_MAX	(BIT_ULL(31) - 1)	/* without full-width writes */

/* ---- x86c_counter_delta ------------------------------------------- */

/* Plain forward counts, no wrap, at the widths x86 parts have. */
static void delta_no_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0x100, 0x250, 48), 0x150ULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0x1000, 0x1000, 48), 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0, 0xffffffff, 32),
			0xffffffffULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0x12, 0xff00000034ULL, 40),
			0xff00000022ULL);
}

/* The counter passed its top and restarted from zero between the reads. */
static void delta_wrap(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xfffffff0, 0x10, 32), 0x20ULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xffffffff00ULL, 0x100, 40),
			0x200ULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xfffffffffff0ULL, 5, 48),
			0x15ULL);
	/* One short of a whole trip: the largest delta there is. */
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(1, 0, 32), 0xffffffffULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(1, 0, 48), MASK48);
}

/*
 * Bits above the width: prev_count is kept sign-extended (what a loaded
 * counter reads as with RDPMC on parts that sign-extend), and a raw
 * read may carry anything there.  Only the low bits may count.
 */
static void delta_high_bits(struct kunit *test)
{
	/* -16 sign-extended, then the counter wrapped to 0x10. */
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xfffffffffffffff0ULL, 0x10, 48),
			0x20ULL);
	/* Both sign-extended, no wrap. */
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xffff800000000000ULL,
						 0xffff800000001000ULL, 48),
			0x1000ULL);
	/* Sign-extended before, zero-extended after: the same counter. */
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xffffffff80000001ULL,
						 0x0000ffff80000101ULL, 48),
			0x100ULL);
	/* Unrelated junk above 48 and above 32 bits. */
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xabcd000000000010ULL,
						 0x1234000000000030ULL, 48),
			0x20ULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_delta(0xdead0000fffffffeULL,
						 0xbeef000000000003ULL, 32),
			5ULL);
}

/* ---- x86c_period_next --------------------------------------------- */

static void expect_next(struct kunit *test, struct x86c_period got,
			s64 left, s64 load, bool elapsed)
{
	KUNIT_EXPECT_EQ(test, got.left, left);
	KUNIT_EXPECT_EQ(test, got.load, load);
	KUNIT_EXPECT_EQ(test, got.elapsed, elapsed);
}

/* Part way through a period: load what is left, no sample. */
static void period_normal(struct kunit *test)
{
	expect_next(test, x86c_period_next(1000, 1000, MAX48), 1000, 1000, false);
	expect_next(test, x86c_period_next(999, 1000, MAX48), 999, 999, false);
	expect_next(test, x86c_period_next(1, 1000, MAX48), 1, 2, false);
}

/*
 * The period ended (left <= 0): a sample, and the next period starts
 * with what the counter already counted past the end taken off it.
 */
static void period_elapsed(struct kunit *test)
{
	expect_next(test, x86c_period_next(0, 1000, MAX48), 1000, 1000, true);
	expect_next(test, x86c_period_next(-5, 1000, MAX48), 995, 995, true);
	expect_next(test, x86c_period_next(-998, 1000, MAX48), 2, 2, true);
	/* One count short of a whole period past: 1 left, loaded as 2. */
	expect_next(test, x86c_period_next(-999, 1000, MAX48), 1, 2, true);
}

/*
 * A whole period or more past the end (a PMI held off that long): a
 * fresh period rather than one shortened to nothing or negative.
 */
static void period_far_past(struct kunit *test)
{
	expect_next(test, x86c_period_next(-1000, 1000, MAX48), 1000, 1000, true);
	expect_next(test, x86c_period_next(-1001, 1000, MAX48), 1000, 1000, true);
	expect_next(test, x86c_period_next(-2500, 1000, MAX48), 1000, 1000, true);
}

/* No counter is loaded for fewer than 2 counts (X86C_MIN_LOAD). */
static void period_min_load(struct kunit *test)
{
	expect_next(test, x86c_period_next(1, 1, MAX48), 1, 2, false);
	expect_next(test, x86c_period_next(0, 1, MAX48), 1, 2, true);
	expect_next(test, x86c_period_next(2, 2, MAX48), 2, 2, false);
	expect_next(test, x86c_period_next(3, 3, MAX48), 3, 3, false);
}

/*
 * A period longer than the counter holds: each load is clamped to the
 * max period, left is kept whole, and only the overflow that ends the
 * period is a sample.  Walked load by load as the PMI would, each
 * overflow taking its load (plus a little skid on the last) off left.
 */
static void period_longer_than_max(struct kunit *test)
{
	const u64 max = LEGACY_MAX;
	const u64 period = 3 * max + 100;
	const s64 expect_loads[] = { max, max, max, 100 };
	struct x86c_period next;
	s64 left = period;
	int i;

	expect_next(test, x86c_period_next(period, period, max), period, max,
		    false);

	for (i = 0; i < ARRAY_SIZE(expect_loads); i++) {
		next = x86c_period_next(left, period, max);
		KUNIT_EXPECT_FALSE_MSG(test, next.elapsed, "load %d", i);
		KUNIT_EXPECT_EQ_MSG(test, next.left, left, "load %d", i);
		KUNIT_EXPECT_EQ_MSG(test, next.load, expect_loads[i], "load %d", i);
		left = next.left - next.load;
	}
	KUNIT_EXPECT_EQ(test, left, 0);

	/* The sample; the next period starts clamped again. */
	expect_next(test, x86c_period_next(left, period, max), period, max, true);
	/* With 7 counts of skid past the end, 7 come off the next one. */
	expect_next(test, x86c_period_next(-7, period, max), period - 7, max,
		    true);
}

/* ---- x86c_counter_load_value -------------------------------------- */

/*
 * What a counter of @cntval_mask holds after a legacy WRMSR of @val:
 * the CPU takes the low 32 bits and sign-extends bit 31 into the rest
 * (SDM: "writes ... to the lower 32 bits ... sign-extended").
 */
static u64 legacy_write(u64 val, u64 cntval_mask)
{
	return (u64)(s64)(s32)lower_32_bits(val) & cntval_mask;
}

/* Full-width writes: the value is minus the load in 48 bits. */
static void load_full_width(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, x86c_counter_load_value(1000, MASK48),
			0xfffffffffc18ULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_load_value(2, MASK48),
			0xfffffffffffeULL);
	KUNIT_EXPECT_EQ(test, x86c_counter_load_value(MAX48, MASK48),
			0x800000000001ULL);
	/* The top bit stays set, which x86c_overflowed_by_sign() needs. */
	KUNIT_EXPECT_TRUE(test, x86c_counter_load_value(MAX48, MASK48) & BIT_ULL(47));
	KUNIT_EXPECT_EQ(test, x86c_counter_load_value(1000, GENMASK_ULL(39, 0)),
			0xfffffffc18ULL);
}

/*
 * Without full-width writes only 32 bits reach the counter, sign-
 * extended: for every load up to the legacy max period that gives the
 * counter the full-width value, so the same overflow point.
 */
static void load_legacy_sign_extends(struct kunit *test)
{
	const s64 loads[] = { LEGACY_MAX, LEGACY_MAX - 1, 0x12345678, 1000, 2 };
	u64 val;
	int i;

	for (i = 0; i < ARRAY_SIZE(loads); i++) {
		val = x86c_counter_load_value(loads[i], MASK48);
		KUNIT_EXPECT_EQ_MSG(test, legacy_write(val, MASK48), val,
				    "load %lld", loads[i]);
	}
	KUNIT_EXPECT_EQ(test, legacy_write(x86c_counter_load_value(LEGACY_MAX, MASK48),
					   MASK48),
			0xffff80000001ULL);
}

/*
 * Past the legacy max the 32-bit write breaks.  At 2^31 itself it still
 * holds (-2^31 has bit 31 set); 2^31 + 1 clears bit 31, and the counter
 * gets 0x7fffffff: it overflows after 2^48 - 2^31 + 1 counts, not after
 * 2^31 + 1.  2^31 - 1 keeps a margin of one below the first bad load
 * and is the most a positive 32-bit value holds.
 */
static void load_legacy_limit(struct kunit *test)
{
	u64 val;

	val = x86c_counter_load_value(BIT_ULL(31), MASK48);
	KUNIT_EXPECT_EQ(test, val, 0xffff80000000ULL);
	KUNIT_EXPECT_EQ(test, legacy_write(val, MASK48), val);

	val = x86c_counter_load_value(BIT_ULL(31) + 1, MASK48);
	KUNIT_EXPECT_EQ(test, val, 0xffff7fffffffULL);
	KUNIT_EXPECT_EQ(test, legacy_write(val, MASK48), 0x7fffffffULL);
	KUNIT_EXPECT_NE(test, legacy_write(val, MASK48), val);

	val = x86c_counter_load_value(BIT_ULL(32) - 1, MASK48);
	KUNIT_EXPECT_EQ(test, legacy_write(val, MASK48), 1ULL);
}

/* ---- x86c_limit_period -------------------------------------------- */

/*
 * The first matching limit applies, alone: a code's own before the
 * one for every event; a load above the minimum is kept, or rounded
 * down to the alignment; no limits, no change.
 */
static void limit_period_first_match(struct kunit *test)
{
	static const struct x86c_period_limit limits[] = {
		{ .code = 0x01c0, .mask = 0xffff, .min = 128, .align = 64 },
		{ .mask = 0, .min = 32 },
		{ }
	};
	const u64 os_usr = BIT_ULL(16) | BIT_ULL(17);

	KUNIT_EXPECT_EQ(test, x86c_limit_period(limits, os_usr | 0x01c0, 1), 128LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(limits, os_usr | 0x01c0, 130), 128LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(limits, os_usr | 0x01c0, 200), 192LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(limits, os_usr | 0x00c0, 1), 32LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(limits, os_usr | 0x00c0, 33), 33LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(limits + 2, 0x00c0, 1), 1LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(NULL, 0x01c0, 1), 1LL);
}

static struct kunit_case period_cases[] = {
	KUNIT_CASE(delta_no_wrap),
	KUNIT_CASE(delta_wrap),
	KUNIT_CASE(delta_high_bits),
	KUNIT_CASE(period_normal),
	KUNIT_CASE(period_elapsed),
	KUNIT_CASE(period_far_past),
	KUNIT_CASE(period_min_load),
	KUNIT_CASE(period_longer_than_max),
	KUNIT_CASE(load_full_width),
	KUNIT_CASE(load_legacy_sign_extends),
	KUNIT_CASE(load_legacy_limit),
	KUNIT_CASE(limit_period_first_match),
	{}
};

static struct kunit_suite period_suite = {
	.name = "perfcore_x86_period",
	.test_cases = period_cases,
};

kunit_test_suite(period_suite);

MODULE_DESCRIPTION("KUnit tests for the x86 counter arithmetic");
MODULE_LICENSE("GPL");
