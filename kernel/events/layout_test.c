// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for perfcore's record and read layouts (layout.c), against
 * the ABI as include/uapi/linux/perf_event.h documents it: each sample
 * item's place and size, the sample_id trailer, and read()'s formats.
 */
#include <kunit/test.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>

#include "layout.h"

/* The record order and sizes, written out from the uapi description. */
static const struct {
	u64	bit;
	int	item;
	int	size;		/* -1: variable */
} layout_abi[] = {
	{ PERF_SAMPLE_IDENTIFIER,	PERF_SI_IDENTIFIER,		8 },
	{ PERF_SAMPLE_IP,		PERF_SI_IP,			8 },
	{ PERF_SAMPLE_TID,		PERF_SI_TID,		8 },
	{ PERF_SAMPLE_TIME,		PERF_SI_TIME,		8 },
	{ PERF_SAMPLE_ADDR,		PERF_SI_ADDR,		8 },
	{ PERF_SAMPLE_ID,		PERF_SI_ID,			8 },
	{ PERF_SAMPLE_STREAM_ID,	PERF_SI_STREAM_ID,		8 },
	{ PERF_SAMPLE_CPU,		PERF_SI_CPU,		8 },
	{ PERF_SAMPLE_PERIOD,		PERF_SI_PERIOD,		8 },
	{ PERF_SAMPLE_READ,		PERF_SI_READ,		-1 },
	{ PERF_SAMPLE_CALLCHAIN,	PERF_SI_CALLCHAIN,		-1 },
	{ PERF_SAMPLE_RAW,		PERF_SI_RAW,		-1 },
	{ PERF_SAMPLE_BRANCH_STACK,	PERF_SI_BRANCH_STACK,	-1 },
	{ PERF_SAMPLE_REGS_USER,	PERF_SI_REGS_USER,		-1 },
	{ PERF_SAMPLE_STACK_USER,	PERF_SI_STACK_USER,		-1 },
	{ PERF_SAMPLE_WEIGHT,		PERF_SI_WEIGHT,		8 },
	{ PERF_SAMPLE_WEIGHT_STRUCT,	PERF_SI_WEIGHT,		8 },
	{ PERF_SAMPLE_DATA_SRC,		PERF_SI_DATA_SRC,		8 },
	{ PERF_SAMPLE_TRANSACTION,	PERF_SI_TRANSACTION,	8 },
	{ PERF_SAMPLE_REGS_INTR,	PERF_SI_REGS_INTR,		-1 },
	{ PERF_SAMPLE_PHYS_ADDR,	PERF_SI_PHYS_ADDR,		8 },
	{ PERF_SAMPLE_CGROUP,		PERF_SI_CGROUP,		8 },
	{ PERF_SAMPLE_DATA_PAGE_SIZE,	PERF_SI_DATA_PAGE_SIZE,	8 },
	{ PERF_SAMPLE_CODE_PAGE_SIZE,	PERF_SI_CODE_PAGE_SIZE,	8 },
	{ PERF_SAMPLE_AUX,		PERF_SI_AUX,		-1 },
};

#define HDR	((int)sizeof(struct perf_event_header))
#define ID_BITS	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
		 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)

static void layout_empty_test(struct kunit *test)
{
	struct perf_sample_layout l;

	perf_sample_layout_init(&l, 0, true);
	KUNIT_EXPECT_EQ(test, l.nr_items, 0);
	KUNIT_EXPECT_EQ(test, l.fixed_size, HDR);
	KUNIT_EXPECT_EQ(test, l.nr_id_items, 0);
	KUNIT_EXPECT_EQ(test, l.id_size, 0);
}

static void layout_each_bit_test(struct kunit *test)
{
	struct perf_sample_layout l;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(layout_abi); i++) {
		perf_sample_layout_init(&l, layout_abi[i].bit, false);
		KUNIT_EXPECT_EQ_MSG(test, l.nr_items, 1, "bit %#llx",
				    layout_abi[i].bit);
		KUNIT_EXPECT_EQ_MSG(test, l.items[0], layout_abi[i].item,
				    "bit %#llx", layout_abi[i].bit);
		KUNIT_EXPECT_EQ_MSG(test, l.fixed_size,
				    HDR + max(layout_abi[i].size, 0),
				    "bit %#llx", layout_abi[i].bit);
	}
}

static void layout_all_bits_test(struct kunit *test)
{
	struct perf_sample_layout l;
	unsigned int i;
	int fixed = HDR;
	u64 all = 0;

	for (i = 0; i < ARRAY_SIZE(layout_abi); i++) {
		all |= layout_abi[i].bit;
		/* The two weights are one item, counted once. */
		if (layout_abi[i].bit != PERF_SAMPLE_WEIGHT_STRUCT)
			fixed += max(layout_abi[i].size, 0);
	}
	KUNIT_ASSERT_EQ(test, all, (u64)PERF_SAMPLE_MAX - 1);

	perf_sample_layout_init(&l, all, false);
	KUNIT_EXPECT_EQ(test, l.nr_items, PERF_SI_NR);
	for (i = 0; i < l.nr_items; i++)
		KUNIT_EXPECT_EQ(test, l.items[i], i);
	KUNIT_EXPECT_EQ(test, l.fixed_size, fixed);
}

static void layout_some_bits_test(struct kunit *test)
{
	u64 type = PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_IP | PERF_SAMPLE_CPU |
		   PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	static const u8 order[] = {
		PERF_SI_IDENTIFIER, PERF_SI_IP, PERF_SI_TID, PERF_SI_CPU, PERF_SI_READ,
		PERF_SI_CALLCHAIN,
	};
	struct perf_sample_layout l;
	unsigned int i;

	perf_sample_layout_init(&l, type, false);
	KUNIT_ASSERT_EQ(test, l.nr_items, ARRAY_SIZE(order));
	for (i = 0; i < ARRAY_SIZE(order); i++)
		KUNIT_EXPECT_EQ(test, l.items[i], order[i]);
	KUNIT_EXPECT_EQ(test, l.fixed_size, HDR + 4 * 8);
}

static void layout_id_trailer_test(struct kunit *test)
{
	static const u8 order[] = {
		PERF_SI_TID, PERF_SI_TIME, PERF_SI_ID, PERF_SI_STREAM_ID, PERF_SI_CPU,
		PERF_SI_IDENTIFIER,
	};
	struct perf_sample_layout l;
	unsigned int i;

	/* Non-identifying items never reach the trailer. */
	perf_sample_layout_init(&l, ID_BITS | PERF_SAMPLE_IP |
				PERF_SAMPLE_PERIOD | PERF_SAMPLE_ADDR, true);
	KUNIT_ASSERT_EQ(test, l.nr_id_items, ARRAY_SIZE(order));
	for (i = 0; i < ARRAY_SIZE(order); i++)
		KUNIT_EXPECT_EQ(test, l.id_items[i], order[i]);
	KUNIT_EXPECT_EQ(test, l.id_size, 6 * 8);

	perf_sample_layout_init(&l, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TIME,
				true);
	KUNIT_ASSERT_EQ(test, l.nr_id_items, 2);
	KUNIT_EXPECT_EQ(test, l.id_items[0], PERF_SI_TIME);
	KUNIT_EXPECT_EQ(test, l.id_items[1], PERF_SI_IDENTIFIER);
	KUNIT_EXPECT_EQ(test, l.id_size, 16);

	/* No trailer without sample_id_all. */
	perf_sample_layout_init(&l, ID_BITS, false);
	KUNIT_EXPECT_EQ(test, l.nr_id_items, 0);
	KUNIT_EXPECT_EQ(test, l.id_size, 0);
}

#define F_EN	PERF_FORMAT_TOTAL_TIME_ENABLED
#define F_RUN	PERF_FORMAT_TOTAL_TIME_RUNNING
#define F_ID	PERF_FORMAT_ID
#define F_GRP	PERF_FORMAT_GROUP
#define F_LOST	PERF_FORMAT_LOST

static void layout_read_size_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_read_size(0, 1), 8);
	KUNIT_EXPECT_EQ(test, perf_read_size(0, 5), 8);	/* not a group */
	KUNIT_EXPECT_EQ(test, perf_read_size(F_EN | F_RUN, 1), 24);
	KUNIT_EXPECT_EQ(test, perf_read_size(F_ID, 1), 16);
	KUNIT_EXPECT_EQ(test, perf_read_size(F_LOST, 1), 16);
	KUNIT_EXPECT_EQ(test, perf_read_size(F_EN | F_RUN | F_ID | F_LOST, 1),
			40);
	KUNIT_EXPECT_EQ(test, perf_read_size(F_GRP, 1), 16);
	KUNIT_EXPECT_EQ(test, perf_read_size(F_GRP, 3), 32);
	KUNIT_EXPECT_EQ(test, perf_read_size(F_GRP | F_EN | F_RUN | F_ID |
					     F_LOST, 4), 8 + 16 + 4 * 24);
	/* Where the 16 KiB cap falls for the largest format. */
	KUNIT_EXPECT_LE(test, perf_read_size(F_GRP | F_EN | F_RUN | F_ID |
					     F_LOST, 681), PERF_READ_SIZE_MAX);
	KUNIT_EXPECT_GT(test, perf_read_size(F_GRP | F_EN | F_RUN | F_ID |
					     F_LOST, 682), PERF_READ_SIZE_MAX);
}

static const struct perf_read_member layout_members[] = {
	{ .value = 100, .id = 11, .lost = 1 },
	{ .value = 200, .id = 22, .lost = 2 },
	{ .value = 300, .id = 33, .lost = 3 },
};

static void layout_read_fill_one(struct kunit *test, u64 format,
				 unsigned int nr, const u64 *want,
				 unsigned int nr_want)
{
	u64 buf[32];
	size_t n;
	unsigned int i;

	memset(buf, 0xa5, sizeof(buf));
	n = perf_read_fill(buf, format, 7000, 5000, layout_members, nr);
	KUNIT_ASSERT_EQ_MSG(test, n, nr_want * sizeof(u64), "format %#llx",
			    format);
	KUNIT_EXPECT_EQ(test, n, perf_read_size(format, nr));
	for (i = 0; i < nr_want; i++)
		KUNIT_EXPECT_EQ_MSG(test, buf[i], want[i], "format %#llx [%u]",
				    format, i);
	KUNIT_EXPECT_EQ(test, buf[nr_want], 0xa5a5a5a5a5a5a5a5ULL);
}

#define FILL(fmt, nr, ...) do {						\
	static const u64 want[] = { __VA_ARGS__ };			\
	layout_read_fill_one(test, fmt, nr, want, ARRAY_SIZE(want));	\
} while (0)

static void layout_read_fill_test(struct kunit *test)
{
	FILL(0, 1, 100);
	FILL(F_EN, 1, 100, 7000);
	FILL(F_RUN, 1, 100, 5000);
	FILL(F_EN | F_RUN | F_ID, 1, 100, 7000, 5000, 11);
	FILL(F_ID | F_LOST, 1, 100, 11, 1);
	FILL(F_EN | F_RUN | F_ID | F_LOST, 1, 100, 7000, 5000, 11, 1);
	FILL(F_GRP, 1, 1, 100);
	FILL(F_GRP, 3, 3, 100, 200, 300);
	FILL(F_GRP | F_RUN, 2, 2, 5000, 100, 200);
	FILL(F_GRP | F_ID, 3, 3, 100, 11, 200, 22, 300, 33);
	FILL(F_GRP | F_EN | F_RUN | F_ID | F_LOST, 3, 3, 7000, 5000,
	     100, 11, 1, 200, 22, 2, 300, 33, 3);
	FILL(F_GRP | F_LOST, 2, 2, 100, 1, 200, 2);
}

/* Every format's fill matches its size, for one member and for three. */
static void layout_read_every_format_test(struct kunit *test)
{
	u64 buf[32];
	u64 format;

	for (format = 0; format < PERF_FORMAT_MAX; format++) {
		unsigned int nr = format & F_GRP ? 3 : 1;

		KUNIT_EXPECT_EQ_MSG(test, perf_read_fill(buf, format, 1, 2,
							 layout_members, nr),
				    perf_read_size(format, nr),
				    "format %#llx", format);
	}
}

static struct kunit_case perfcore_layout_cases[] = {
	KUNIT_CASE(layout_empty_test),
	KUNIT_CASE(layout_each_bit_test),
	KUNIT_CASE(layout_all_bits_test),
	KUNIT_CASE(layout_some_bits_test),
	KUNIT_CASE(layout_id_trailer_test),
	KUNIT_CASE(layout_read_size_test),
	KUNIT_CASE(layout_read_fill_test),
	KUNIT_CASE(layout_read_every_format_test),
	{}
};

static struct kunit_suite perfcore_layout_suite = {
	.name = "perfcore_layout",
	.test_cases = perfcore_layout_cases,
};

kunit_test_suite(perfcore_layout_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore record and read layouts");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
