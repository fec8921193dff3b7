// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of arm_spe_pmu.c's pure parts, included at its end so that
 * they run the driver's own functions: the AUX window arithmetic
 * (spe_plan_window) and the decoding of the ID registers
 * (spe_decode_id).  They run at boot with CONFIG_KUNIT.
 */
#include <kunit/test.h>

#define T_PAGES(n)	((u64)(n) * PAGE_SIZE)

static struct spe_window t_window(u64 pages, u64 off, u64 space, u64 wakeup)
{
	return (struct spe_window) {
		.size = T_PAGES(pages), .off = off, .space = space,
		.wakeup = wakeup, .align = 1, .max_record = 64,
	};
}

/*
 * An empty area: perf's free space leaves one byte, so the hardware
 * stops a page short of the end (the limit is page-granular and must
 * not reach unread data); nothing is padded.
 */
static void spe_window_empty(struct kunit *test)
{
	struct spe_window w = t_window(8, 0, T_PAGES(8) - 1, U64_MAX);

	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.pad, 0);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(7));
}

/* Unread data ahead in this lap: stop at the page boundary before it */
static void spe_window_tail(struct kunit *test)
{
	struct spe_window w = t_window(8, 100, T_PAGES(3) + 50, U64_MAX);

	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(3));
}

/* The free space wraps: the end of the area is this stretch's limit */
static void spe_window_to_end(struct kunit *test)
{
	struct spe_window w = t_window(8, T_PAGES(6) + 8, T_PAGES(4), U64_MAX);

	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(8));
}

/*
 * A wakeup ahead: stop at the page boundary after it; one past the free
 * space, or none, changes nothing.
 */
static void spe_window_wakeup(struct kunit *test)
{
	struct spe_window w = t_window(8, 16, T_PAGES(8) - 17, T_PAGES(2));

	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(3));
	w = t_window(8, 16, T_PAGES(2), T_PAGES(5));
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(2));
}

/*
 * Less than a record's room before the wakeup's page boundary: pad to
 * it, once; planned again from there (perf has moved the wakeup on), a
 * short stretch is taken as it is.
 */
static void spe_window_pad_once(struct kunit *test)
{
	struct spe_window w = t_window(8, T_PAGES(1) - 40, T_PAGES(5), 40);

	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_PAD);
	KUNIT_EXPECT_EQ(test, w.pad, 40);
	KUNIT_EXPECT_TRUE(test, w.padded);
	w.off = T_PAGES(1);
	w.space -= 40;
	w.wakeup = T_PAGES(1);
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(2));
	/* already padded once: a short stretch is used */
	w.off = T_PAGES(2) - 40;
	w.wakeup = 40;
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(2));
}

/* At the end of the area, the padding takes the head to its start */
static void spe_window_pad_to_end(struct kunit *test)
{
	struct spe_window w = t_window(8, T_PAGES(8) - 40, T_PAGES(5), U64_MAX);

	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_PAD);
	KUNIT_EXPECT_EQ(test, w.pad, 40);
}

/* No page boundary inside the free space: truncated, the rest padded */
static void spe_window_full(struct kunit *test)
{
	struct spe_window w = t_window(8, 100, 200, U64_MAX);

	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_FULL);
	KUNIT_EXPECT_EQ(test, w.pad, 200);
	w = t_window(8, 100, 0, U64_MAX);
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_FULL);
	KUNIT_EXPECT_EQ(test, w.pad, 0);
}

/* A head off the buffer's alignment is padded to it first */
static void spe_window_align(struct kunit *test)
{
	struct spe_window w = t_window(8, 100, T_PAGES(4), U64_MAX);

	w.align = 64;
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_PAD);
	KUNIT_EXPECT_EQ(test, w.pad, 28);
	KUNIT_EXPECT_FALSE(test, w.padded);
	w.off = 128;
	w.space -= 28;
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, round_down(100 + T_PAGES(4), PAGE_SIZE));
}

/* Snapshot: the head's half, or the next half where no record fits */
static void spe_window_snapshot(struct kunit *test)
{
	struct spe_window w = t_window(8, 100, 0, U64_MAX);

	w.snapshot = true;
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(4));
	KUNIT_EXPECT_EQ(test, w.pad, 0);
	w.off = T_PAGES(8) - 10;
	KUNIT_EXPECT_EQ(test, spe_plan_window(&w), SPE_PLAN_OPEN);
	KUNIT_EXPECT_EQ(test, w.pad, 10);
	KUNIT_EXPECT_EQ(test, w.off, 0);
	KUNIT_EXPECT_EQ(test, w.limit, T_PAGES(4));
}

/*
 * The ID registers of our QEMU's spe=on: SPEv1p1, byte alignment, the
 * event, type and latency filters, instruction intervals of 256 up,
 * 12-bit counters, records of 64 bytes.
 */
static void spe_id_qemu(struct kunit *test)
{
	u64 pmsidr = PMSIDR_EL1_FE | PMSIDR_EL1_FT | PMSIDR_EL1_FL |
		     PMSIDR_EL1_ARCHINST |
		     FIELD_PREP(PMSIDR_EL1_MAXSIZE, 6) |
		     FIELD_PREP(PMSIDR_EL1_COUNTSIZE,
				PMSIDR_EL1_COUNTSIZE_12_BIT_SAT);
	struct spe_pmu spe = { };

	KUNIT_ASSERT_EQ(test, spe_decode_id(&spe, 2, 0, pmsidr), 0);
	KUNIT_EXPECT_EQ(test, spe.version, 2);
	KUNIT_EXPECT_EQ(test, spe.align, 1);
	KUNIT_EXPECT_EQ(test, spe.max_record, 64);
	KUNIT_EXPECT_EQ(test, spe.min_interval, 256);
	KUNIT_EXPECT_EQ(test, spe.count_size, 12);
	KUNIT_EXPECT_EQ(test, spe.caps, SPE_CAN_FILTER_EVENTS |
			SPE_CAN_FILTER_TYPES | SPE_CAN_FILTER_LATENCY |
			SPE_ARCH_INST);
}

/* Intervals, counter sizes and what the driver cannot use */
static void spe_id_limits(struct kunit *test)
{
	u64 base = FIELD_PREP(PMSIDR_EL1_MAXSIZE, 6);
	u64 v1p2 = base | PMSIDR_EL1_FnE | PMSIDR_EL1_ERND |
		   FIELD_PREP(PMSIDR_EL1_INTERVAL, PMSIDR_EL1_INTERVAL_3072) |
		   FIELD_PREP(PMSIDR_EL1_COUNTSIZE,
			      PMSIDR_EL1_COUNTSIZE_16_BIT_SAT);
	u64 tiny = FIELD_PREP(PMSIDR_EL1_MAXSIZE, 3);
	u64 huge = FIELD_PREP(PMSIDR_EL1_MAXSIZE, 12);
	u64 align_4k = FIELD_PREP(PMBIDR_EL1_ALIGN, 12);
	struct spe_pmu spe = { };

	KUNIT_ASSERT_EQ(test, spe_decode_id(&spe, 3, 0, v1p2), 0);
	KUNIT_EXPECT_EQ(test, spe.min_interval, 3072);
	KUNIT_EXPECT_EQ(test, spe.count_size, 16);
	KUNIT_EXPECT_EQ(test, spe.caps, SPE_CAN_EXCLUDE_EVENTS | SPE_ERND);
	/* no SPE; a buffer EL2 owns; records too small or too large */
	KUNIT_EXPECT_EQ(test, spe_decode_id(&spe, 0, 0, base), -ENXIO);
	KUNIT_EXPECT_EQ(test, spe_decode_id(&spe, 2, PMBIDR_EL1_P, base),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, spe_decode_id(&spe, 2, 0, tiny), -ENXIO);
	KUNIT_EXPECT_EQ(test, spe_decode_id(&spe, 2, 0, huge), -ENXIO);
	KUNIT_EXPECT_EQ(test, spe_decode_id(&spe, 2, align_4k, base), -ENXIO);
}

static struct kunit_case spe_test_cases[] = {
	KUNIT_CASE(spe_window_empty),
	KUNIT_CASE(spe_window_tail),
	KUNIT_CASE(spe_window_to_end),
	KUNIT_CASE(spe_window_wakeup),
	KUNIT_CASE(spe_window_pad_once),
	KUNIT_CASE(spe_window_pad_to_end),
	KUNIT_CASE(spe_window_full),
	KUNIT_CASE(spe_window_align),
	KUNIT_CASE(spe_window_snapshot),
	KUNIT_CASE(spe_id_qemu),
	KUNIT_CASE(spe_id_limits),
	{ }
};

static struct kunit_suite spe_test_suite = {
	.name = "arm_spe_pmu",
	.test_cases = spe_test_cases,
};

kunit_test_suite(spe_test_suite);
