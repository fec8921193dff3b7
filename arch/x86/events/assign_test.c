// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: perf_assign_events(), the x86 framework's counter assignment,
 * on sets of constraints whose answer is known: what the greedy pass
 * places, what only a matching places, what cannot be placed, the
 * general-purpose limit, and small random sets against an exhaustive
 * search.
 */

#include <kunit/test.h>
#include <linux/bitops.h>
#include <linux/module.h>
#include <linux/perf_event.h>

#include "perf_event.h"

#define FX(i)		BIT_ULL(INTEL_PMC_IDX_FIXED + (i))
#define GP(i)		BIT_ULL(i)
#define UNSET		(-100)

struct assign_set {
	struct event_constraint	c[X86_PMC_IDX_MAX];
	struct event_constraint	*cp[X86_PMC_IDX_MAX];
	int			assign[X86_PMC_IDX_MAX];
	int			n;
	int			wmin;
	int			wmax;
};

static void set_fill(struct assign_set *s, const u64 *masks, int n)
{
	int i;

	s->n = n;
	s->wmin = X86_PMC_IDX_MAX;
	s->wmax = 0;
	for (i = 0; i < X86_PMC_IDX_MAX; i++) {
		s->cp[i] = &s->c[i];
		s->assign[i] = UNSET;
	}
	for (i = 0; i < n; i++) {
		s->c[i].idxmsk64 = masks[i];
		s->c[i].weight = hweight64(masks[i]);
		s->wmin = min(s->wmin, s->c[i].weight);
		s->wmax = max(s->wmax, s->c[i].weight);
	}
}

static struct assign_set *set_new(struct kunit *test, const u64 *masks, int n)
{
	struct assign_set *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	set_fill(s, masks, n);
	return s;
}

static int set_run(struct assign_set *s, int gpmax)
{
	return perf_assign_events(s->cp, s->n, s->wmin, s->wmax, gpmax, s->assign);
}

/* Each event on a counter of its mask, none shared, gpmax respected. */
static void expect_valid(struct kunit *test, struct assign_set *s, int gpmax)
{
	u64 used = 0;
	int i, gp = 0;

	for (i = 0; i < s->n; i++) {
		int idx = s->assign[i];

		KUNIT_ASSERT_TRUE_MSG(test, idx >= 0 && idx < X86_PMC_IDX_MAX,
				      "event %d on %d", i, idx);
		KUNIT_EXPECT_TRUE_MSG(test, s->c[i].idxmsk64 & BIT_ULL(idx),
				      "event %d on %d, outside its mask", i, idx);
		KUNIT_EXPECT_FALSE_MSG(test, used & BIT_ULL(idx),
				       "counter %d given twice", idx);
		used |= BIT_ULL(idx);
		if (idx < INTEL_PMC_IDX_FIXED)
			gp++;
	}
	KUNIT_EXPECT_LE(test, gp, gpmax);
}

static void expect_assign(struct kunit *test, struct assign_set *s,
			  const int *want)
{
	int i;

	for (i = 0; i < s->n; i++)
		KUNIT_EXPECT_EQ_MSG(test, s->assign[i], want[i], "event %d", i);
}

static void expect_untouched(struct kunit *test, struct assign_set *s)
{
	int i;

	for (i = 0; i < X86_PMC_IDX_MAX; i++)
		KUNIT_EXPECT_EQ_MSG(test, s->assign[i], UNSET, "event %d", i);
}

static void assign_none(struct kunit *test)
{
	struct assign_set *s = set_new(test, NULL, 0);

	KUNIT_EXPECT_EQ(test, set_run(s, 0), 0);
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 0);
	expect_untouched(test, s);
	KUNIT_EXPECT_EQ(test, perf_assign_events(NULL, 0, 0, 0, 0, NULL), 0);
}

/* Lightest first, ties in order, each on its lowest free counter. */
static void assign_greedy_order(struct kunit *test)
{
	static const u64 masks[] = { 0xf, GP(0), GP(0) | GP(1), 0xf, 0xff };
	static const int want[] = { 2, 0, 1, 3, 4 };
	struct assign_set *s = set_new(test, masks, ARRAY_SIZE(masks));

	KUNIT_EXPECT_EQ(test, set_run(s, 8), 0);
	expect_assign(test, s, want);
	expect_valid(test, s, 8);
}

/*
 * A fixed counter when the mask has a free one, even for the heaviest;
 * a general-purpose counter when its fixed counters are taken.
 */
static void assign_fixed_first(struct kunit *test)
{
	static const u64 masks[] = {
		0xf | FX(0),		/* fixed 0 is taken: general-purpose */
		FX(0),
		0xf | FX(1),
		0xf,
		0xf | FX(1) | FX(2),	/* fixed 1 is taken: fixed 2 */
	};
	static const int want[] = {
		1, INTEL_PMC_IDX_FIXED, INTEL_PMC_IDX_FIXED + 1, 0,
		INTEL_PMC_IDX_FIXED + 2,
	};
	struct assign_set *s = set_new(test, masks, ARRAY_SIZE(masks));

	KUNIT_EXPECT_EQ(test, set_run(s, 4), 0);
	expect_assign(test, s, want);
	expect_valid(test, s, 4);
}

/* Sets the greedy pass leaves an event of, each placed by a matching. */
static void assign_beyond_greedy(struct kunit *test)
{
	/*
	 * {0, 1} is lighter than the others, takes 0, and the last
	 * {0, 1, 2} has nothing left.
	 */
	static const u64 overlap[] = { 0x9, 0x7, 0x7, 0x7 };
	static const int overlap_want[] = { 3, 1, 2, 0 };
	/*
	 * The fixed-only event takes fixed 0 first, {0, 1} takes 0, and
	 * {0, fixed 0} finds both of its counters taken.
	 */
	static const u64 fixed[] = { GP(0) | GP(1), GP(0) | FX(0), FX(0) };
	static const int fixed_want[] = { 1, 0, INTEL_PMC_IDX_FIXED };
	/* Equal weights: the first takes 0, which the last one needed. */
	static const u64 ties[] = { GP(0) | GP(1), GP(0) | GP(2), GP(0) | GP(2) };
	static const int ties_want[] = { 1, 2, 0 };
	struct assign_set *s;

	s = set_new(test, overlap, ARRAY_SIZE(overlap));
	KUNIT_EXPECT_EQ(test, set_run(s, 4), 0);
	expect_valid(test, s, 4);
	expect_assign(test, s, overlap_want);

	s = set_new(test, fixed, ARRAY_SIZE(fixed));
	KUNIT_EXPECT_EQ(test, set_run(s, 2), 0);
	expect_valid(test, s, 2);
	expect_assign(test, s, fixed_want);

	s = set_new(test, ties, ARRAY_SIZE(ties));
	KUNIT_EXPECT_EQ(test, set_run(s, 3), 0);
	expect_valid(test, s, 3);
	expect_assign(test, s, ties_want);
}

/* The return is how many are left out; assign[] stays as it was. */
static void assign_impossible(struct kunit *test)
{
	static const u64 three_on_two[] = { 0x3, 0x3, 0x3 };
	static const u64 five_on_one[] = { GP(0), GP(0), GP(0), GP(0), GP(0) };
	static const u64 empty[] = { 0x3, 0, 0x3 };
	static const u64 fixed[] = { FX(0), FX(0) | FX(1), FX(1), FX(0) | FX(1), 0xf };
	struct assign_set *s;

	s = set_new(test, three_on_two, ARRAY_SIZE(three_on_two));
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 1);
	expect_untouched(test, s);
	/* Without assign[], as a group's validation asks. */
	KUNIT_EXPECT_EQ(test, perf_assign_events(s->cp, s->n, s->wmin, s->wmax,
						 8, NULL), 1);

	s = set_new(test, five_on_one, ARRAY_SIZE(five_on_one));
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 4);
	expect_untouched(test, s);

	s = set_new(test, empty, ARRAY_SIZE(empty));
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 1);
	expect_untouched(test, s);

	s = set_new(test, fixed, ARRAY_SIZE(fixed));
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 2);
	expect_untouched(test, s);
}

/* No more than gpmax events on general-purpose counters. */
static void assign_gpmax(struct kunit *test)
{
	static const u64 gp_only[] = { 0xf, 0xf, 0xf, 0xf };
	static const u64 with_fixed[] = { 0xf | FX(0), 0xf | FX(1), 0xf, 0xf };
	static const int with_fixed_want[] = {
		INTEL_PMC_IDX_FIXED, INTEL_PMC_IDX_FIXED + 1, 0, 1,
	};
	/* {0, 1} may not move to 1: it would take a second GP slot. */
	static const u64 no_room[] = { GP(0) | GP(1), GP(0) | FX(0), FX(0) };
	/*
	 * Greedy: fixed 2 and 3 for the first two, fixed 0 for the third,
	 * general-purpose 1 for the fourth, which uses the only GP slot,
	 * and nothing for the last.  The matching gives the last counter 2
	 * and the slot with it, the fourth moving to fixed 0 and the third
	 * to fixed 1.
	 */
	static const u64 slot[] = {
		FX(2), FX(3), FX(0) | FX(1), GP(1) | FX(0), GP(2) | FX(2) | FX(3),
	};
	static const int slot_want[] = {
		INTEL_PMC_IDX_FIXED + 2, INTEL_PMC_IDX_FIXED + 3,
		INTEL_PMC_IDX_FIXED + 1, INTEL_PMC_IDX_FIXED, 2,
	};
	struct assign_set *s;
	int gpmax;

	s = set_new(test, gp_only, ARRAY_SIZE(gp_only));
	for (gpmax = 0; gpmax <= 5; gpmax++)
		KUNIT_EXPECT_EQ_MSG(test, set_run(s, gpmax), max(4 - gpmax, 0),
				    "gpmax %d", gpmax);
	expect_valid(test, s, 4);

	s = set_new(test, with_fixed, ARRAY_SIZE(with_fixed));
	KUNIT_EXPECT_EQ(test, set_run(s, 1), 1);
	expect_untouched(test, s);
	KUNIT_EXPECT_EQ(test, set_run(s, 2), 0);
	expect_valid(test, s, 2);
	expect_assign(test, s, with_fixed_want);

	s = set_new(test, no_room, ARRAY_SIZE(no_room));
	KUNIT_EXPECT_EQ(test, set_run(s, 1), 1);
	KUNIT_EXPECT_EQ(test, set_run(s, 0), 2);
	KUNIT_EXPECT_EQ(test, set_run(s, 2), 0);
	expect_valid(test, s, 2);

	s = set_new(test, slot, ARRAY_SIZE(slot));
	KUNIT_EXPECT_EQ(test, set_run(s, 1), 0);
	expect_valid(test, s, 1);
	expect_assign(test, s, slot_want);
	KUNIT_EXPECT_EQ(test, set_run(s, 0), 1);
}

/*
 * Paired events (AMD's large-increment ones) take an even counter and
 * the odd one after it, both against gpmax: on six counters, three
 * pairs, or two and two others, or one and four; never a seventh
 * counter's worth, and never an odd counter under a pair.
 */
static void assign_pairs(struct kunit *test)
{
	static const u64 even = GP(0) | GP(2) | GP(4), any = 0x3f;
	static const u64 three[] = { even, even, even };
	static const u64 mixed[] = { any, even, any, even };
	static const int mixed_want[] = { 4, 0, 5, 2 };
	static const u64 four[] = { even, even, even, even };
	static const u64 one_too_many[] = { any, even, any, any, any, any };
	struct assign_set *s;
	int i;

	s = set_new(test, three, ARRAY_SIZE(three));
	for (i = 0; i < s->n; i++)
		s->c[i].flags = PERF_X86_EVENT_PAIR;
	KUNIT_EXPECT_EQ(test, set_run(s, 6), 0);
	KUNIT_EXPECT_EQ(test, s->assign[0], 0);
	KUNIT_EXPECT_EQ(test, s->assign[1], 2);
	KUNIT_EXPECT_EQ(test, s->assign[2], 4);
	/* gpmax counts both halves of a pair. */
	KUNIT_EXPECT_EQ(test, set_run(s, 5), 1);

	s = set_new(test, mixed, ARRAY_SIZE(mixed));
	s->c[1].flags = PERF_X86_EVENT_PAIR;
	s->c[3].flags = PERF_X86_EVENT_PAIR;
	KUNIT_EXPECT_EQ(test, set_run(s, 6), 0);
	expect_assign(test, s, mixed_want);

	s = set_new(test, four, ARRAY_SIZE(four));
	for (i = 0; i < s->n; i++)
		s->c[i].flags = PERF_X86_EVENT_PAIR;
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 1);
	expect_untouched(test, s);

	s = set_new(test, one_too_many, ARRAY_SIZE(one_too_many));
	s->c[1].flags = PERF_X86_EVENT_PAIR;
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 1);
	expect_untouched(test, s);
	s->n = 5;
	KUNIT_EXPECT_EQ(test, set_run(s, 8), 0);
	KUNIT_EXPECT_EQ(test, s->assign[1], 0);
	for (i = 0; i < s->n; i++)
		KUNIT_EXPECT_NE_MSG(test, s->assign[i], 1, "event %d", i);
}

/* Same input, same output; the constraints are only read. */
static void assign_deterministic(struct kunit *test)
{
	static const u64 masks[] = {
		0x9, 0x7, 0x7, 0x7 | FX(0), FX(0) | FX(1), 0xff | FX(1), 0x30,
		FX(2), 0xf0 | FX(2),
	};
	struct assign_set *a = set_new(test, masks, ARRAY_SIZE(masks));
	struct assign_set *b = set_new(test, masks, ARRAY_SIZE(masks));
	int i;

	KUNIT_EXPECT_EQ(test, set_run(a, 6), 0);
	expect_valid(test, a, 6);
	KUNIT_EXPECT_EQ(test, set_run(b, 6), 0);
	expect_assign(test, b, a->assign);
	KUNIT_EXPECT_EQ(test, set_run(b, 6), 0);
	expect_assign(test, b, a->assign);
	for (i = 0; i < ARRAY_SIZE(masks); i++) {
		KUNIT_EXPECT_EQ(test, b->c[i].idxmsk64, masks[i]);
		KUNIT_EXPECT_EQ(test, b->c[i].weight, hweight64(masks[i]));
	}
}

/* All 64 counters, up to fixed bit 31 (bit 63). */
static void assign_all_counters(struct kunit *test)
{
	u64 masks[X86_PMC_IDX_MAX];
	int want[X86_PMC_IDX_MAX];
	struct assign_set *s;
	int i;

	/* Fixed counters first, in order, then general-purpose ones. */
	for (i = 0; i < X86_PMC_IDX_MAX; i++) {
		masks[i] = ~0ULL;
		want[i] = (i + INTEL_PMC_IDX_FIXED) % X86_PMC_IDX_MAX;
	}
	s = set_new(test, masks, X86_PMC_IDX_MAX);
	KUNIT_EXPECT_EQ(test, set_run(s, INTEL_PMC_IDX_FIXED), 0);
	expect_assign(test, s, want);
	KUNIT_EXPECT_EQ(test, set_run(s, INTEL_PMC_IDX_FIXED - 1), 1);

	/* Each on one fixed counter only, highest first. */
	for (i = 0; i < 32; i++) {
		masks[i] = BIT_ULL(63 - i);
		want[i] = 63 - i;
	}
	s = set_new(test, masks, 32);
	KUNIT_EXPECT_EQ(test, set_run(s, 0), 0);
	expect_assign(test, s, want);

	/*
	 * A chain only a matching places: event i may use fixed i or i + 1,
	 * the last one only fixed 0 (its general-purpose counter is barred
	 * by gpmax).  The greedy pass gives event i fixed i and leaves the
	 * last one out; the augmenting path moves all the others up by one.
	 */
	for (i = 0; i < 31; i++) {
		masks[i] = FX(i) | FX(i + 1);
		want[i] = INTEL_PMC_IDX_FIXED + i + 1;
	}
	masks[31] = FX(0) | GP(0);
	want[31] = INTEL_PMC_IDX_FIXED;
	s = set_new(test, masks, 32);
	KUNIT_EXPECT_EQ(test, set_run(s, 0), 0);
	expect_assign(test, s, want);
	expect_valid(test, s, 0);
}

/*
 * Random small sets (4 general-purpose and 2 fixed counters, up to 6
 * events) against an exhaustive search for the most events that fit,
 * and, where the greedy pass fits them all, against that pass.
 */
#define RAND_COUNTERS	6
#define RAND_SETS	400

static int rand_counter(int k)
{
	return k < 4 ? k : INTEL_PMC_IDX_FIXED + k - 4;
}

static int rand_best(const u64 *masks, int n, int i, u64 used, int gpleft)
{
	int best, k;

	if (i == n)
		return 0;
	best = rand_best(masks, n, i + 1, used, gpleft);
	for (k = 0; k < RAND_COUNTERS && best < n - i; k++) {
		int idx = rand_counter(k);
		bool gp = idx < INTEL_PMC_IDX_FIXED;

		if (!(masks[i] & BIT_ULL(idx)) || (used & BIT_ULL(idx)) ||
		    (gp && !gpleft))
			continue;
		best = max(best, 1 + rand_best(masks, n, i + 1, used | BIT_ULL(idx),
					       gpleft - gp));
	}
	return best;
}

/* The greedy pass as specified; true when it places every event. */
static bool rand_greedy(struct assign_set *s, int gpmax, int *out)
{
	u64 used = 0;
	int w, i, gp = 0;

	for (w = 0; w <= X86_PMC_IDX_MAX; w++) {
		for (i = 0; i < s->n; i++) {
			u64 avail = s->c[i].idxmsk64 & ~used;
			u64 fixed = avail & ~GENMASK_ULL(INTEL_PMC_IDX_FIXED - 1, 0);

			if (s->c[i].weight != w)
				continue;
			if (fixed) {
				out[i] = __ffs64(fixed);
			} else if ((avail & ~fixed) && gp < gpmax) {
				out[i] = __ffs64(avail);
				gp++;
			} else {
				return false;
			}
			used |= BIT_ULL(out[i]);
		}
	}
	return true;
}

static void assign_random_exhaustive(struct kunit *test)
{
	struct assign_set *s = set_new(test, NULL, 0);
	u32 seed = 0x2545f491;
	u64 masks[RAND_COUNTERS];
	int greedy[RAND_COUNTERS];
	int set, beyond = 0, short_sets = 0;

	for (set = 0; set < RAND_SETS; set++) {
		int n, gpmax, i, best, ret;

		seed = seed * 1664525 + 1013904223;
		n = 2 + (seed >> 24) % (RAND_COUNTERS - 1);
		gpmax = 1 + (seed >> 16) % 4;
		for (i = 0; i < n; i++) {
			int k;

			seed = seed * 1664525 + 1013904223;
			masks[i] = 0;
			for (k = 0; k < RAND_COUNTERS; k++)
				if (seed & BIT(8 + k))
					masks[i] |= BIT_ULL(rand_counter(k));
		}
		set_fill(s, masks, n);
		best = rand_best(masks, n, 0, 0, gpmax);
		ret = set_run(s, gpmax);
		KUNIT_EXPECT_EQ_MSG(test, ret, n - best, "set %d", set);
		if (ret) {
			short_sets++;
			continue;
		}
		expect_valid(test, s, gpmax);
		if (rand_greedy(s, gpmax, greedy))
			expect_assign(test, s, greedy);
		else
			beyond++;
	}
	/* The sets did exercise both paths and the failures. */
	KUNIT_EXPECT_GT(test, beyond, 0);
	KUNIT_EXPECT_GT(test, short_sets, 0);
	kunit_info(test, "%d sets: %d beyond greedy, %d short\n",
		   RAND_SETS, beyond, short_sets);
}

static struct kunit_case assign_cases[] = {
	KUNIT_CASE(assign_none),
	KUNIT_CASE(assign_greedy_order),
	KUNIT_CASE(assign_fixed_first),
	KUNIT_CASE(assign_beyond_greedy),
	KUNIT_CASE(assign_impossible),
	KUNIT_CASE(assign_gpmax),
	KUNIT_CASE(assign_pairs),
	KUNIT_CASE(assign_deterministic),
	KUNIT_CASE(assign_all_counters),
	KUNIT_CASE(assign_random_exhaustive),
	{}
};

static struct kunit_suite assign_suite = {
	.name = "perfcore_x86_assign",
	.test_cases = assign_cases,
};

kunit_test_suite(assign_suite);

MODULE_DESCRIPTION("KUnit tests for the x86 counter assignment, perf_assign_events()");
MODULE_LICENSE("GPL");
