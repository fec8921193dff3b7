// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for perfcore's ring-buffer arithmetic (rb_math.c): mmap
 * geometry for the data and AUX areas, the mlock split, writer room in
 * both directions with wrapping positions, locating a position, and the
 * reader wakeup rule.  Page sizes are passed in, so 4 KiB and 64 KiB
 * pages are both tried whatever the kernel runs on.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/module.h>

#include "rb_math.h"

#define SZ4K	12
#define SZ64K	16

static void rb_data_geometry_test(struct kunit *test)
{
	static const struct {
		unsigned long	pages;		/* mapped, control page included */
		int		err;
	} cases[] = {
		{ 1, 0 }, { 2, 0 }, { 3, 0 }, { 5, 0 }, { 9, 0 }, { 1025, 0 },
		{ 4, -EINVAL }, { 6, -EINVAL }, { 8, -EINVAL }, { 1024, -EINVAL },
	};
	unsigned long nr = 12345;
	unsigned int i, shift;

	for (shift = SZ4K; shift <= SZ64K; shift += SZ64K - SZ4K) {
		for (i = 0; i < ARRAY_SIZE(cases); i++) {
			int err = perf_mmap_data_geometry(cases[i].pages << shift,
							  shift, &nr);

			KUNIT_EXPECT_EQ_MSG(test, err, cases[i].err,
					    "%lu pages of 2^%u", cases[i].pages,
					    shift);
			if (!err)
				KUNIT_EXPECT_EQ(test, nr, cases[i].pages - 1);
		}
		/* Not whole pages, or nothing at all. */
		KUNIT_EXPECT_EQ(test, perf_mmap_data_geometry((2UL << shift) + 8,
							      shift, &nr),
				-EINVAL);
		KUNIT_EXPECT_EQ(test, perf_mmap_data_geometry(0, shift, &nr),
				-EINVAL);
	}
}

static void rb_aux_geometry_test(struct kunit *test)
{
	const unsigned long pg = 1UL << SZ4K;
	const u64 data = 8 * pg;	/* 8 data pages after the control page */
	unsigned long nr = 0;

	/* Right after the data, 4 pages, announced as such. */
	KUNIT_EXPECT_EQ(test, perf_mmap_aux_geometry(4 * pg, 9, 9 * pg, 4 * pg,
						     data, SZ4K, &nr), 0);
	KUNIT_EXPECT_EQ(test, nr, 4);
	/* Further on is fine too. */
	KUNIT_EXPECT_EQ(test, perf_mmap_aux_geometry(4 * pg, 32, 32 * pg,
						     4 * pg, data, SZ4K, &nr),
			0);
	/* Overlapping the data or the control page. */
	KUNIT_EXPECT_EQ(test, perf_mmap_aux_geometry(4 * pg, 8, 8 * pg, 4 * pg,
						     data, SZ4K, &nr), -EINVAL);
	/* Not where it was announced. */
	KUNIT_EXPECT_EQ(test, perf_mmap_aux_geometry(4 * pg, 10, 9 * pg,
						     4 * pg, data, SZ4K, &nr),
			-EINVAL);
	/* Not the announced size, or not a power of two. */
	KUNIT_EXPECT_EQ(test, perf_mmap_aux_geometry(4 * pg, 9, 9 * pg, 8 * pg,
						     data, SZ4K, &nr), -EINVAL);
	KUNIT_EXPECT_EQ(test, perf_mmap_aux_geometry(3 * pg, 9, 9 * pg, 3 * pg,
						     data, SZ4K, &nr), -EINVAL);
	/* More pages than can be counted. */
	KUNIT_EXPECT_EQ(test, perf_mmap_aux_geometry(ULONG_MAX & ~(pg - 1), 9,
						     9 * pg, 4 * pg, data, SZ4K,
						     &nr), -ENOMEM);
}

static void rb_mlock_test(struct kunit *test)
{
	struct perf_mlock_split s;

	/* 516 KiB per CPU with 4 KiB pages: 129 pages, 4 CPUs. */
	KUNIT_EXPECT_EQ(test, perf_mlock_user_limit(516, SZ4K, 4), 516);
	KUNIT_EXPECT_EQ(test, perf_mlock_user_limit(516, SZ64K, 4), 32);

	perf_mlock_charge(129, 0, 516, &s);
	KUNIT_EXPECT_EQ(test, s.to_user, 129);
	KUNIT_EXPECT_EQ(test, s.to_pinned, 0);

	/* Filling up the allowance, then spilling into pinned memory. */
	perf_mlock_charge(129, 450, 516, &s);
	KUNIT_EXPECT_EQ(test, s.to_user, 66);
	KUNIT_EXPECT_EQ(test, s.to_pinned, 63);

	/* Already over (the sysctl was lowered): all of it is pinned. */
	perf_mlock_charge(17, 900, 516, &s);
	KUNIT_EXPECT_EQ(test, s.to_user, 0);
	KUNIT_EXPECT_EQ(test, s.to_pinned, 17);
}

static void rb_room_test(struct kunit *test)
{
	const unsigned long size = 4096;
	unsigned long base;

	/* Try near 0 and across the wrap of an unsigned long. */
	for (base = 0; base != 2 * size; base += size) {
		unsigned long t = base ? ULONG_MAX - 100 : 0;

		/* Empty: all but one byte. */
		KUNIT_EXPECT_EQ(test, perf_rb_room(t, t, size, false), size - 1);
		KUNIT_EXPECT_EQ(test, perf_rb_room(t + 1000, t, size, false),
				size - 1001);
		KUNIT_EXPECT_EQ(test, perf_rb_room(t + size - 1, t, size, false),
				0);
		/* Backward: the head goes down from the tail. */
		KUNIT_EXPECT_EQ(test, perf_rb_room(t, t, size, true), size - 1);
		KUNIT_EXPECT_EQ(test, perf_rb_room(t - 1000, t, size, true),
				size - 1001);
		KUNIT_EXPECT_EQ(test, perf_rb_room(t - size + 1, t, size, true),
				0);
	}
	/* A tail from nowhere still gives a room inside the buffer. */
	KUNIT_EXPECT_LT(test, perf_rb_room(100, 987654321, size, false), size);
}

static void rb_locate_test(struct kunit *test)
{
	struct perf_rb_spot s;

	perf_rb_locate(0, SZ4K, 8, &s);
	KUNIT_EXPECT_EQ(test, s.page, 0);
	KUNIT_EXPECT_EQ(test, s.offset, 0);
	KUNIT_EXPECT_EQ(test, s.left, 4096);

	perf_rb_locate(3 * 4096 + 100, SZ4K, 8, &s);
	KUNIT_EXPECT_EQ(test, s.page, 3);
	KUNIT_EXPECT_EQ(test, s.offset, 100);
	KUNIT_EXPECT_EQ(test, s.left, 3996);

	/* Positions wrap around the data. */
	perf_rb_locate(8 * 4096 + 5 * 4096 + 8, SZ4K, 8, &s);
	KUNIT_EXPECT_EQ(test, s.page, 5);
	KUNIT_EXPECT_EQ(test, s.offset, 8);

	/* One higher-order chunk holding all the data. */
	perf_rb_locate(70000, SZ64K, 1, &s);
	KUNIT_EXPECT_EQ(test, s.page, 0);
	KUNIT_EXPECT_EQ(test, s.offset, 70000 - 65536);
	KUNIT_EXPECT_EQ(test, s.left, 65536 - (70000 - 65536));
}

static void rb_watermark_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(32768, 0), 16384);
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(32768, 4096), 4096);
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(32768, 1 << 20), 32768);
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(32768, 1), 1);
	/* A buffer with no data pages has no watermark. */
	KUNIT_EXPECT_EQ(test, perf_rb_watermark(0, 4096), 0);
}

static void rb_wakeup_test(struct kunit *test)
{
	unsigned long wakeup = 0, written = 0, woken = 0;
	unsigned int i;

	/* 100 records of 48 bytes, a watermark of 1000: every ~21 records. */
	for (i = 0; i < 100; i++) {
		written += 48;
		woken += perf_rb_wakeup_due(written, &wakeup, 1000);
	}
	KUNIT_EXPECT_EQ(test, woken, 4);
	KUNIT_EXPECT_EQ(test, wakeup, 4000);

	/* Exactly at the mark is not past it. */
	wakeup = 0;
	KUNIT_EXPECT_FALSE(test, perf_rb_wakeup_due(1000, &wakeup, 1000));
	KUNIT_EXPECT_TRUE(test, perf_rb_wakeup_due(1001, &wakeup, 1000));
	/* A large write past several marks wakes once, and catches up later. */
	KUNIT_EXPECT_TRUE(test, perf_rb_wakeup_due(5000, &wakeup, 1000));
	KUNIT_EXPECT_EQ(test, wakeup, 2000);
	KUNIT_EXPECT_TRUE(test, perf_rb_wakeup_due(5000, &wakeup, 1000));
	KUNIT_EXPECT_EQ(test, wakeup, 3000);
}

static void aux_room_test(struct kunit *test)
{
	/* Empty: all but the one byte that always stays free. */
	KUNIT_EXPECT_EQ(test, perf_aux_room(0, 0, 8192), 8191);
	KUNIT_EXPECT_EQ(test, perf_aux_room(8000, 0, 8192), 191);
	KUNIT_EXPECT_EQ(test, perf_aux_room(8191, 0, 8192), 0);
	/* Positions run on past the size; only their distance counts. */
	KUNIT_EXPECT_EQ(test, perf_aux_room(20000, 16384, 8192), 4575);
	KUNIT_EXPECT_EQ(test, perf_aux_room(ULONG_MAX, ULONG_MAX - 9, 8192),
			8182);
	/* A tail past the head (a confused reader) leaves no room. */
	KUNIT_EXPECT_EQ(test, perf_aux_room(100, 200, 8192), 0);
}

static void aux_watermark_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_aux_watermark(65536, 0, false), 32768);
	KUNIT_EXPECT_EQ(test, perf_aux_watermark(65536, 4096, false), 4096);
	KUNIT_EXPECT_EQ(test, perf_aux_watermark(65536, 4096, true), 0);
	KUNIT_EXPECT_EQ(test, perf_aux_watermark(1UL << 34, 0, false),
			(unsigned long)U32_MAX);
}

static void aux_wakeup_test(struct kunit *test)
{
	unsigned long mark = 0;

	KUNIT_EXPECT_FALSE(test, perf_aux_wakeup_due(4095, &mark, 4096));
	/* Reaching the mark is enough; the mark snaps to its multiple. */
	KUNIT_EXPECT_TRUE(test, perf_aux_wakeup_due(4096, &mark, 4096));
	KUNIT_EXPECT_EQ(test, mark, 4096);
	KUNIT_EXPECT_TRUE(test, perf_aux_wakeup_due(13000, &mark, 4096));
	KUNIT_EXPECT_EQ(test, mark, 12288);
	KUNIT_EXPECT_FALSE(test, perf_aux_wakeup_due(16000, &mark, 4096));
	/* Overwrite mode has no watermark and never wakes. */
	mark = 0;
	KUNIT_EXPECT_FALSE(test, perf_aux_wakeup_due(1UL << 20, &mark, 0));
}

static struct kunit_case perfcore_rb_math_cases[] = {
	KUNIT_CASE(rb_data_geometry_test),
	KUNIT_CASE(rb_aux_geometry_test),
	KUNIT_CASE(rb_mlock_test),
	KUNIT_CASE(rb_room_test),
	KUNIT_CASE(rb_locate_test),
	KUNIT_CASE(rb_watermark_test),
	KUNIT_CASE(rb_wakeup_test),
	KUNIT_CASE(aux_room_test),
	KUNIT_CASE(aux_watermark_test),
	KUNIT_CASE(aux_wakeup_test),
	{}
};

static struct kunit_suite perfcore_rb_math_suite = {
	.name = "perfcore_rb_math",
	.test_cases = perfcore_rb_math_cases,
};

kunit_test_suite(perfcore_rb_math_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore ring-buffer arithmetic");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
