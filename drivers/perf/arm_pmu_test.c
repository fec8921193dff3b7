// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the vendor-neutral parts of the Arm CPU PMU framework that a
 * driver's counters never see directly: where armpmu_take() and
 * armpmu_assign() put events (lowest free, preferred counters first,
 * aligned chained pairs, sets a greedy pass in the given order cannot
 * place), the period and delta arithmetic of armpmu_event_set_period()
 * and armpmu_event_update() at each counter width, run against a fake
 * PMU whose one counter is a variable here, and armpmu_map_event()'s
 * answers for every kind of event type.  Wrong answers in any of these
 * show up on hardware only as groups that will not schedule or counts
 * that are slightly off, so each case states the exact values.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/module.h>
#include <linux/perf/arm_pmu.h>
#include <linux/slab.h>

#define GP4		GENMASK_ULL(3, 0)	/* four general counters */
#define GP6		GENMASK_ULL(5, 0)
#define CYCLES		BIT_ULL(31)		/* PMUv3's cycle counter */
#define INSTRS		BIT_ULL(32)		/* and its instruction counter */

#define SINGLE(a)	((struct armpmu_need){ .allowed = (a) })
#define PAIR(a)		((struct armpmu_need){ .allowed = (a), .pair = true })
#define PREFER(p, a)	((struct armpmu_need){ .prefer = (p), .allowed = (a) })

/* ---- armpmu_take() and armpmu_taken() ------------------------------ */

static void take_single(struct kunit *test)
{
	struct armpmu_need n = SINGLE(GP4);

	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 0);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0)), 1);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0) | BIT_ULL(1)), 2);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0) | BIT_ULL(2)), 1);
	/* Free counters outside allowed do not count. */
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, GP4), -EAGAIN);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, ~0ULL), -EAGAIN);
	n = SINGLE(BIT_ULL(1) | BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 1);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(1)), 3);
}

static void take_prefer(struct kunit *test)
{
	struct armpmu_need n = PREFER(CYCLES, GP4);

	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 31);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, GENMASK_ULL(2, 0)), 31);
	/* Taken: the lowest free allowed one instead. */
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES), 0);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES | BIT_ULL(0)), 1);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES | GP4), -EAGAIN);
	/* Any one of several preferred counters will do. */
	n = PREFER(CYCLES | INSTRS, GP4);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES), 32);
	/* Only the preferred counter. */
	n = PREFER(CYCLES, 0);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 31);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES), -EAGAIN);
}

static void take_pair(struct kunit *test)
{
	struct armpmu_need n = PAIR(GP4);

	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 1);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0)), 3);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(1)), 3);
	/* 1 and 3 free, but no pair of them. */
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0) | BIT_ULL(2)), -EAGAIN);
	/* 1 and 2 free and neighbours, but not an aligned pair. */
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0) | BIT_ULL(3)), -EAGAIN);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, GP4), -EAGAIN);

	/* allowed names the odd counter of the pairs it may take. */
	n = PAIR(BIT_ULL(1) | BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 1);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0)), 3);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(0) | BIT_ULL(2)), -EAGAIN);
	n = PAIR(BIT_ULL(3));
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 3);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, BIT_ULL(2)), -EAGAIN);

	/* A 64-bit cycles event: the cycle counter alone, else a pair. */
	n = PAIR(GP4);
	n.prefer = CYCLES;
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, 0), 31);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES), 1);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES | BIT_ULL(2)), 1);
	KUNIT_EXPECT_EQ(test, armpmu_take(&n, CYCLES | BIT_ULL(0)), 3);
}

static void take_taken(struct kunit *test)
{
	struct armpmu_need n = SINGLE(GP4);

	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 0), BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 3), BIT_ULL(3));
	n = PREFER(CYCLES, GP4);
	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 31), CYCLES);
	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 2), BIT_ULL(2));

	n = PAIR(GP4);
	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 1), GENMASK_ULL(1, 0));
	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 3), GENMASK_ULL(3, 2));
	/* A pair-needing event on its preferred counter takes only that. */
	n.prefer = CYCLES;
	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 31), CYCLES);
	KUNIT_EXPECT_EQ(test, armpmu_taken(&n, 3), GENMASK_ULL(3, 2));
}

/* ---- armpmu_assign() ------------------------------------------------ */

/*
 * Each event on a counter it may have and the PMU has, a pair on an odd
 * counter with the even one below it, nothing shared; the counters each
 * one occupies are worked out here and must match armpmu_taken().
 */
static void expect_placed(struct kunit *test, const struct armpmu_need *need,
			  int nr, u64 usable, const int *idx)
{
	u64 used = 0, bits;
	int i;

	for (i = 0; i < nr; i++) {
		KUNIT_ASSERT_TRUE_MSG(test, idx[i] >= 0 && idx[i] < ARMPMU_MAX_HWEVENTS,
				      "event %d at %d", i, idx[i]);
		KUNIT_EXPECT_TRUE_MSG(test, (need[i].prefer | need[i].allowed) &
				      BIT_ULL(idx[i]), "event %d at %d, not its own", i, idx[i]);
		bits = BIT_ULL(idx[i]);
		if (need[i].pair && !(need[i].prefer & bits)) {
			KUNIT_ASSERT_TRUE_MSG(test, idx[i] & 1, "pair %d at even %d",
					      i, idx[i]);
			bits |= BIT_ULL(idx[i] - 1);
		}
		KUNIT_EXPECT_EQ_MSG(test, armpmu_taken(&need[i], idx[i]), bits,
				    "event %d at %d", i, idx[i]);
		KUNIT_EXPECT_EQ_MSG(test, bits & ~usable, 0ULL,
				    "event %d at %d: not the PMU's", i, idx[i]);
		KUNIT_EXPECT_EQ_MSG(test, bits & used, 0ULL,
				    "event %d at %d: shared", i, idx[i]);
		used |= bits;
	}
}

static void expect_idx(struct kunit *test, const int *idx, const int *want,
		       int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, idx[i], want[i], "event %d", i);
}

/*
 * Singles at 0 and 2 leave a pair nowhere to go (what armpmu_take()
 * meets when add() is handed them in that order); placed as a set, the
 * pair goes first and the singles around it.
 */
static void assign_pair_after_singles(struct kunit *test)
{
	const struct armpmu_need need[] = {
		SINGLE(GP4), SINGLE(BIT_ULL(2) | BIT_ULL(3)), PAIR(GP4),
	};
	const int want[] = { 3, 2, 1 };
	int idx[ARRAY_SIZE(need)];
	u64 used = 0;
	int i;

	/* One at a time in the given order: 0, 2, then no pair. */
	for (i = 0; i < 2; i++) {
		idx[i] = armpmu_take(&need[i], used);
		KUNIT_ASSERT_GE(test, idx[i], 0);
		used |= armpmu_taken(&need[i], idx[i]);
	}
	KUNIT_EXPECT_EQ(test, used, BIT_ULL(0) | BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, armpmu_take(&need[2], used), -EAGAIN);

	KUNIT_ASSERT_EQ(test, armpmu_assign(need, 3, GP4 | CYCLES, idx), 0);
	expect_placed(test, need, 3, GP4 | CYCLES, idx);
	expect_idx(test, idx, want, 3);
}

/*
 * Two cycles events: one gets the cycle counter, the other a general
 * one.  An event that can only have the cycle counter gets it even
 * when one that could go elsewhere comes first.
 */
static void assign_prefer(struct kunit *test)
{
	const struct armpmu_need two[] = {
		PREFER(CYCLES, GP4), PREFER(CYCLES, GP4),
	};
	const struct armpmu_need only[] = {
		PREFER(CYCLES, GP4), PREFER(CYCLES, 0),
	};
	int idx[2];

	KUNIT_ASSERT_EQ(test, armpmu_assign(two, 2, GP4 | CYCLES, idx), 0);
	expect_placed(test, two, 2, GP4 | CYCLES, idx);
	expect_idx(test, idx, (const int []){ 31, 0 }, 2);

	/* Greedy in order gives the first one 31 and fails the second. */
	KUNIT_EXPECT_EQ(test, armpmu_take(&only[0], 0), 31);
	KUNIT_EXPECT_EQ(test, armpmu_take(&only[1], CYCLES), -EAGAIN);

	KUNIT_ASSERT_EQ(test, armpmu_assign(only, 2, GP4 | CYCLES, idx), 0);
	expect_placed(test, only, 2, GP4 | CYCLES, idx);
	expect_idx(test, idx, (const int []){ 0, 31 }, 2);

	/* Without the cycle counter on the PMU, no place for the second. */
	KUNIT_EXPECT_EQ(test, armpmu_assign(only, 2, GP4, idx), -EAGAIN);
}

/* Same set, same answer, whatever idx held before. */
static void assign_deterministic(struct kunit *test)
{
	const struct armpmu_need need[] = {
		SINGLE(GP6), PAIR(GP6), PREFER(CYCLES, GP6), PREFER(CYCLES, GP6),
		PAIR(GP6),
	};
	const int want[] = { 4, 1, 31, 5, 3 };
	const u64 usable = GP6 | CYCLES;
	int a[ARRAY_SIZE(need)], b[ARRAY_SIZE(need)];
	int i;

	for (i = 0; i < ARRAY_SIZE(need); i++) {
		a[i] = -5;
		b[i] = i + 7;
	}
	KUNIT_ASSERT_EQ(test, armpmu_assign(need, ARRAY_SIZE(need), usable, a), 0);
	KUNIT_ASSERT_EQ(test, armpmu_assign(need, ARRAY_SIZE(need), usable, b), 0);
	expect_placed(test, need, ARRAY_SIZE(need), usable, a);
	expect_idx(test, a, want, ARRAY_SIZE(need));
	expect_idx(test, b, a, ARRAY_SIZE(need));
}

static void assign_too_many(struct kunit *test)
{
	const struct armpmu_need need[] = {
		SINGLE(GP4), SINGLE(GP4), PREFER(CYCLES, GP4), SINGLE(GP4),
		SINGLE(GP4), SINGLE(GP4),
	};
	const struct armpmu_need pairs[] = { PAIR(GP4), PAIR(GP4), SINGLE(GP4) };
	struct armpmu_need *lots;
	int idx[ARRAY_SIZE(need)];
	int *many;
	int i;

	/* Four general counters and the cycle counter: five fit, not six. */
	KUNIT_ASSERT_EQ(test, armpmu_assign(need, 5, GP4 | CYCLES, idx), 0);
	expect_placed(test, need, 5, GP4 | CYCLES, idx);
	KUNIT_EXPECT_EQ(test, armpmu_assign(need, 6, GP4 | CYCLES, idx), -EAGAIN);
	/* Counters the events allow but the PMU lacks are not used. */
	KUNIT_EXPECT_EQ(test, armpmu_assign(need, 4, GENMASK_ULL(1, 0) | CYCLES, idx),
			-EAGAIN);

	/* Two pairs fill four counters. */
	KUNIT_ASSERT_EQ(test, armpmu_assign(pairs, 2, GP4, idx), 0);
	expect_placed(test, pairs, 2, GP4, idx);
	expect_idx(test, idx, (const int []){ 1, 3 }, 2);
	KUNIT_EXPECT_EQ(test, armpmu_assign(pairs, 3, GP4, idx), -EAGAIN);

	/* More events than counters there can be. */
	lots = kunit_kcalloc(test, ARMPMU_MAX_HWEVENTS + 1, sizeof(*lots), GFP_KERNEL);
	many = kunit_kcalloc(test, ARMPMU_MAX_HWEVENTS + 1, sizeof(*many), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, lots);
	KUNIT_ASSERT_NOT_NULL(test, many);
	for (i = 0; i <= ARMPMU_MAX_HWEVENTS; i++)
		lots[i] = SINGLE(~0ULL);
	KUNIT_EXPECT_EQ(test, armpmu_assign(lots, ARMPMU_MAX_HWEVENTS + 1, ~0ULL, many),
			-EAGAIN);
	KUNIT_ASSERT_EQ(test, armpmu_assign(lots, ARMPMU_MAX_HWEVENTS,
					    GENMASK_ULL(ARMPMU_MAX_HWEVENTS - 1, 0), many), 0);
	expect_placed(test, lots, ARMPMU_MAX_HWEVENTS,
		      GENMASK_ULL(ARMPMU_MAX_HWEVENTS - 1, 0), many);

	/* Nothing to place: success, idx untouched. */
	idx[0] = -42;
	KUNIT_EXPECT_EQ(test, armpmu_assign(need, 0, GP4, idx), 0);
	KUNIT_EXPECT_EQ(test, idx[0], -42);
}

/* ---- period and delta arithmetic, on a fake PMU --------------------- */

#define FAKE_PMU_TYPE	42

/* A PMU with one counter, the register a variable. */
struct fake_pmu {
	struct arm_pmu	armpmu;
	u64		reg;
	unsigned int	reads;
	unsigned int	writes;
};

static struct fake_pmu *to_fake(struct perf_event *event)
{
	return container_of(to_arm_pmu(event->pmu), struct fake_pmu, armpmu);
}

static u64 fake_read_counter(struct perf_event *event)
{
	to_fake(event)->reads++;
	return to_fake(event)->reg;
}

static void fake_write_counter(struct perf_event *event, u64 val)
{
	to_fake(event)->writes++;
	to_fake(event)->reg = val;
}

/* An event on the fake PMU, @period_left a whole @period. */
static struct perf_event *fake_event(struct kunit *test, u32 flags, u64 period)
{
	struct fake_pmu *fake = kunit_kzalloc(test, sizeof(*fake), GFP_KERNEL);
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fake);
	KUNIT_ASSERT_NOT_NULL(test, event);
	fake->armpmu.read_counter = fake_read_counter;
	fake->armpmu.write_counter = fake_write_counter;
	fake->armpmu.pmu.type = FAKE_PMU_TYPE;
	event->pmu = &fake->armpmu.pmu;
	event->hw.flags = flags;
	event->hw.sample_period = period;
	local64_set(&event->hw.period_left, period);
	return event;
}

static u64 ev_prev(struct perf_event *event)
{
	return local64_read(&event->hw.prev_count);
}

static s64 ev_left(struct perf_event *event)
{
	return local64_read(&event->hw.period_left);
}

static u64 ev_count(struct perf_event *event)
{
	return local64_read(&event->count);
}

/* A 32-bit event through two periods and part of a third. */
static void period_32bit(struct kunit *test)
{
	struct perf_event *event = fake_event(test, 0, 1000);
	struct fake_pmu *fake = to_fake(event);

	KUNIT_EXPECT_EQ(test, armpmu_event_set_period(event), 0);
	KUNIT_EXPECT_EQ(test, fake->reg, 0xfffffc18ULL);
	KUNIT_EXPECT_EQ(test, fake->writes, 1U);
	KUNIT_EXPECT_EQ(test, ev_prev(event), (u64)-1000);
	KUNIT_EXPECT_EQ(test, ev_left(event), 1000LL);
	KUNIT_EXPECT_EQ(test, event->hw.last_period, 0ULL);

	/* 1000 counts: the counter wraps to 0 at 32 bits. */
	fake->reg = (fake->reg + 1000) & U32_MAX;
	KUNIT_EXPECT_EQ(test, armpmu_event_update(event), 0ULL);
	KUNIT_EXPECT_EQ(test, fake->reads, 1U);
	KUNIT_EXPECT_EQ(test, ev_count(event), 1000ULL);
	KUNIT_EXPECT_EQ(test, ev_left(event), 0LL);
	KUNIT_EXPECT_EQ(test, ev_prev(event), 0ULL);

	KUNIT_EXPECT_EQ(test, armpmu_event_set_period(event), 1);
	KUNIT_EXPECT_EQ(test, event->hw.last_period, 1000ULL);
	KUNIT_EXPECT_EQ(test, ev_left(event), 1000LL);
	KUNIT_EXPECT_EQ(test, fake->reg, 0xfffffc18ULL);
	KUNIT_EXPECT_EQ(test, ev_prev(event), (u64)-1000);

	/* 400 more: no period ran out, 600 left to load. */
	fake->reg = (fake->reg + 400) & U32_MAX;
	armpmu_event_update(event);
	KUNIT_EXPECT_EQ(test, ev_count(event), 1400ULL);
	KUNIT_EXPECT_EQ(test, ev_left(event), 600LL);
	KUNIT_EXPECT_EQ(test, armpmu_event_set_period(event), 0);
	KUNIT_EXPECT_EQ(test, fake->reg, (u64)(u32)-600);
}

/* Counted 300 past the end: the next period is 300 short. */
static void period_overshoot(struct kunit *test)
{
	struct perf_event *event = fake_event(test, 0, 1000);
	struct fake_pmu *fake = to_fake(event);

	armpmu_event_set_period(event);
	fake->reg = (fake->reg + 1300) & U32_MAX;
	armpmu_event_update(event);
	KUNIT_EXPECT_EQ(test, ev_count(event), 1300ULL);
	KUNIT_EXPECT_EQ(test, ev_left(event), -300LL);

	KUNIT_EXPECT_EQ(test, armpmu_event_set_period(event), 1);
	KUNIT_EXPECT_EQ(test, ev_left(event), 700LL);
	KUNIT_EXPECT_EQ(test, event->hw.last_period, 1000ULL);
	KUNIT_EXPECT_EQ(test, fake->reg, (u64)(u32)-700);
	KUNIT_EXPECT_EQ(test, ev_prev(event), (u64)-700);
}

/* A whole period or more past the end: a fresh period. */
static void period_far_behind(struct kunit *test)
{
	static const s64 left[] = { 0, -999, -1000, -1001, -2500 };
	static const s64 want[] = { 1000, 1, 1000, 1000, 1000 };
	struct perf_event *event;
	int i;

	for (i = 0; i < ARRAY_SIZE(left); i++) {
		event = fake_event(test, 0, 1000);
		local64_set(&event->hw.period_left, left[i]);
		KUNIT_EXPECT_EQ_MSG(test, armpmu_event_set_period(event), 1,
				    "left %lld", left[i]);
		KUNIT_EXPECT_EQ_MSG(test, ev_left(event), want[i], "left %lld", left[i]);
		KUNIT_EXPECT_EQ_MSG(test, to_fake(event)->reg, (u64)(u32)-want[i],
				    "left %lld", left[i]);
	}
}

/*
 * No load beyond half the counter's range; the period left is kept
 * whole, and the overflow of a clamped load is not the period's end.
 */
static void period_half_width(struct kunit *test)
{
	static const struct {
		u32	flags;
		u64	period;
		u64	reg;
	} c[] = {
		{ 0, 0x7fffffff, 0x80000001 },
		{ 0, 0x80000000, 0x80000001 },
		{ ARMPMU_EVT_64BIT, BIT_ULL(40), 0xffffff0000000000ULL },
		{ ARMPMU_EVT_47BIT, BIT_ULL(50), BIT_ULL(46) + 1 },
		{ ARMPMU_EVT_63BIT, BIT_ULL(62) - 5, BIT_ULL(62) + 5 },
		{ ARMPMU_EVT_63BIT, BIT_ULL(62) + 5, BIT_ULL(62) + 1 },
	};
	struct perf_event *event = fake_event(test, 0, BIT_ULL(40));
	struct fake_pmu *fake = to_fake(event);
	int i;

	KUNIT_EXPECT_EQ(test, armpmu_event_set_period(event), 0);
	KUNIT_EXPECT_EQ(test, fake->reg, 0x80000001ULL);
	KUNIT_EXPECT_EQ(test, ev_prev(event), (u64)-0x7fffffffLL);
	KUNIT_EXPECT_EQ(test, ev_left(event), (s64)BIT_ULL(40));

	fake->reg = (fake->reg + 0x7fffffff) & U32_MAX;
	armpmu_event_update(event);
	KUNIT_EXPECT_EQ(test, ev_count(event), 0x7fffffffULL);
	KUNIT_EXPECT_EQ(test, armpmu_event_set_period(event), 0);
	KUNIT_EXPECT_EQ(test, ev_left(event), (s64)BIT_ULL(40) - 0x7fffffff);
	KUNIT_EXPECT_EQ(test, fake->reg, 0x80000001ULL);

	/* Loaded whole up to half the range, clamped above it. */
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		event = fake_event(test, c[i].flags, c[i].period);
		armpmu_event_set_period(event);
		KUNIT_EXPECT_EQ_MSG(test, to_fake(event)->reg, c[i].reg, "case %d", i);
	}
}

/* The delta of one update, masked to the event's width. */
static void update_widths(struct kunit *test)
{
	static const struct {
		u32	flags;
		u64	prev;
		u64	now;
		u64	delta;
	} c[] = {
		{ 0, 0xfffffff0, 0x10, 0x20 },
		{ 0, (u64)-1000, 0, 1000 },
		/* Bits above the width in a read do not count. */
		{ 0, 0xfffffff0, 0xabcd000000000010ULL, 0x20 },
		{ ARMPMU_EVT_64BIT, U64_MAX - 5, 10, 16 },
		{ ARMPMU_EVT_64BIT, U64_MAX - 5, 0x800000000000000aULL,
		  0x8000000000000010ULL },
		{ ARMPMU_EVT_47BIT, GENMASK_ULL(46, 0) - 0xf, 0x100000010ULL,
		  0x100000020ULL },
		{ ARMPMU_EVT_63BIT, GENMASK_ULL(62, 0) - 0xf, BIT_ULL(48) + 0x10,
		  BIT_ULL(48) + 0x20 },
	};
	struct perf_event *event;
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		event = fake_event(test, c[i].flags, 0);
		local64_set(&event->hw.prev_count, c[i].prev);
		local64_set(&event->count, 5);
		to_fake(event)->reg = c[i].now;

		KUNIT_EXPECT_EQ_MSG(test, armpmu_event_update(event), c[i].now, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ev_count(event), 5 + c[i].delta, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, (u64)ev_left(event), 0 - c[i].delta, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ev_prev(event), c[i].now, "case %d", i);
		KUNIT_EXPECT_EQ_MSG(test, to_fake(event)->reads, 1U, "case %d", i);
	}
}

/* ---- armpmu_map_event() --------------------------------------------- */

static const unsigned int test_event_map[PERF_COUNT_HW_MAX] = {
	PERF_MAP_ALL_UNSUPPORTED,
	[PERF_COUNT_HW_CPU_CYCLES]		= 0x111,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 0x122,
	[PERF_COUNT_HW_MAX - 1]			= 0x133,
};

static const unsigned int test_cache_map[PERF_COUNT_HW_CACHE_MAX]
					[PERF_COUNT_HW_CACHE_OP_MAX]
					[PERF_COUNT_HW_CACHE_RESULT_MAX] = {
	PERF_CACHE_MAP_ALL_UNSUPPORTED,
	[C(L1D)][C(OP_READ)][C(RESULT_ACCESS)]	= 0x201,
	[C(L1D)][C(OP_READ)][C(RESULT_MISS)]	= 0x202,
	[C(L1D)][C(OP_WRITE)][C(RESULT_ACCESS)]	= 0x203,
	[C(NODE)][C(OP_PREFETCH)][C(RESULT_MISS)] = 0x204,
};

#define RAW_MASK	0xffff

static int try_map(struct perf_event *event, u32 type, u64 config, bool tables)
{
	event->attr.type = type;
	event->attr.config = config;
	return armpmu_map_event(event, tables ? &test_event_map : NULL,
				tables ? &test_cache_map : NULL, RAW_MASK);
}

static u64 cache_cfg(unsigned int type, unsigned int op, unsigned int result)
{
	return type | op << 8 | result << 16;
}

static void map_hardware(struct kunit *test)
{
	struct perf_event *event = fake_event(test, 0, 0);
	const u32 hw = PERF_TYPE_HARDWARE;

	KUNIT_EXPECT_EQ(test, try_map(event, hw, PERF_COUNT_HW_CPU_CYCLES, true), 0x111);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, PERF_COUNT_HW_INSTRUCTIONS, true), 0x122);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, PERF_COUNT_HW_MAX - 1, true), 0x133);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, PERF_COUNT_HW_BUS_CYCLES, true), -ENOENT);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, PERF_COUNT_HW_MAX, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, BIT_ULL(32), true), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, U64_MAX, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, PERF_COUNT_HW_CPU_CYCLES, false), -ENOENT);
	KUNIT_EXPECT_EQ(test, try_map(event, hw, PERF_COUNT_HW_MAX, false), -EINVAL);
}

static void map_cache(struct kunit *test)
{
	static const struct {
		u8	type, op, result;
		bool	tables;
		int	want;
	} c[] = {
		{ C(L1D), C(OP_READ), C(RESULT_ACCESS), true, 0x201 },
		{ C(L1D), C(OP_READ), C(RESULT_MISS), true, 0x202 },
		{ C(L1D), C(OP_WRITE), C(RESULT_ACCESS), true, 0x203 },
		{ C(NODE), C(OP_PREFETCH), C(RESULT_MISS), true, 0x204 },
		{ C(LL), C(OP_READ), C(RESULT_MISS), true, -ENOENT },
		{ C(L1D), C(OP_READ), C(RESULT_ACCESS), false, -ENOENT },
		/* Out of range: -EINVAL, with or without a table. */
		{ C(MAX), 0, 0, true, -EINVAL },
		{ 0, C(OP_MAX), 0, true, -EINVAL },
		{ 0, 0, C(RESULT_MAX), true, -EINVAL },
		{ 0xff, 0xff, 0xff, true, -EINVAL },
		{ C(MAX), 0, 0, false, -EINVAL },
	};
	struct perf_event *event = fake_event(test, 0, 0);
	int i;

	for (i = 0; i < ARRAY_SIZE(c); i++)
		KUNIT_EXPECT_EQ_MSG(test, try_map(event, PERF_TYPE_HW_CACHE,
						  cache_cfg(c[i].type, c[i].op, c[i].result),
						  c[i].tables),
				    c[i].want, "case %d", i);
}

static void map_raw_and_other(struct kunit *test)
{
	struct perf_event *event = fake_event(test, 0, 0);

	KUNIT_EXPECT_EQ(test, try_map(event, PERF_TYPE_RAW, 0xabcd1234, true), 0x1234);
	KUNIT_EXPECT_EQ(test, try_map(event, PERF_TYPE_RAW, 0x11, false), 0x11);
	/* The PMU's own type is raw too. */
	KUNIT_EXPECT_EQ(test, try_map(event, FAKE_PMU_TYPE, 0xabcd1234, true), 0x1234);
	KUNIT_EXPECT_EQ(test, try_map(event, FAKE_PMU_TYPE, 0x10008, false), 0x8);
	event->attr.type = FAKE_PMU_TYPE;
	event->attr.config = 0xfff;
	KUNIT_EXPECT_EQ(test, armpmu_map_event(event, NULL, NULL, 0xff), 0xff);

	KUNIT_EXPECT_EQ(test, try_map(event, PERF_TYPE_SOFTWARE, 0, true), -ENOENT);
	KUNIT_EXPECT_EQ(test, try_map(event, PERF_TYPE_TRACEPOINT, 1, true), -ENOENT);
	KUNIT_EXPECT_EQ(test, try_map(event, FAKE_PMU_TYPE + 1, 0x11, true), -ENOENT);
}

static struct kunit_case arm_pmu_cases[] = {
	KUNIT_CASE(take_single),
	KUNIT_CASE(take_prefer),
	KUNIT_CASE(take_pair),
	KUNIT_CASE(take_taken),
	KUNIT_CASE(assign_pair_after_singles),
	KUNIT_CASE(assign_prefer),
	KUNIT_CASE(assign_deterministic),
	KUNIT_CASE(assign_too_many),
	KUNIT_CASE(period_32bit),
	KUNIT_CASE(period_overshoot),
	KUNIT_CASE(period_far_behind),
	KUNIT_CASE(period_half_width),
	KUNIT_CASE(update_widths),
	KUNIT_CASE(map_hardware),
	KUNIT_CASE(map_cache),
	KUNIT_CASE(map_raw_and_other),
	{}
};

static struct kunit_suite arm_pmu_suite = {
	.name = "arm_pmu",
	.test_cases = arm_pmu_cases,
};

kunit_test_suite(arm_pmu_suite);

MODULE_DESCRIPTION("KUnit tests for the Arm CPU PMU framework");
MODULE_LICENSE("GPL");
