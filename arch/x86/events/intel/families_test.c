// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the Intel family tables (families*.c) as the driver reads them.
 *
 * The suite's hwfamily compares what the kernel accepts with the stock
 * kernel, one model per family, on the counters our QEMU has.  These
 * cases check what that cannot see, on every family at once: that each
 * model has one family, that every constraint row is reachable through
 * x86c_constraint() (an earlier row does not hide it) and names only
 * counters a core can have, that a cache table says each event once and
 * counts it with an extra register the family has, with a selection
 * that register takes, and that extra registers pair up sanely.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "../counters.h"
#include "families.h"

/* Every family, the hybrid ones' E-core tables too; NULL after the last. */
static const struct x86c_intel_family *family_at(int n)
{
	const struct x86c_intel_family *const *f;

	for (f = x86c_intel_families; *f; f++) {
		if (!n--)
			return *f;
		if ((*f)->atom && !n--)
			return (*f)->atom;
	}
	return NULL;
}

/* A model belongs to one family; every listed family has one. */
static void families_models_unique(struct kunit *test)
{
	const struct x86c_intel_family *const *f, *const *g;
	const u8 *m, *n;
	bool other;

	for (f = x86c_intel_families; *f; f++) {
		KUNIT_EXPECT_NE_MSG(test, (*f)->models[0], 0, "%s", (*f)->name);
		for (m = (*f)->models; *m; m++)
			for (g = f; *g; g++)
				for (n = (*g)->models; *n; n++) {
					other = *n == *m && n != m;
					KUNIT_EXPECT_FALSE_MSG(test, other,
							       "model %#x in %s and %s",
							       *m, (*f)->name,
							       (*g)->name);
				}
	}
}

/* The counters a row may name: general, fixed, topdown metrics. */
#define FAMILY_COUNTERS	(GENMASK_ULL(X86C_MAX_GP - 1, 0) |		\
			 GENMASK_ULL(INTEL_PMC_IDX_FIXED + X86C_MAX_FIXED - 1, \
				     INTEL_PMC_IDX_FIXED) |		\
			 X86C_METRIC_MASK)

/*
 * Each row: its counters within what a core can have, its weight theirs,
 * its code within its mask, and the first and last code it covers found
 * by x86c_constraint() as that row, not an earlier one.
 */
static void families_constraints_reachable(struct kunit *test)
{
	struct x86c_pmu *p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	const struct x86c_intel_family *f;
	struct event_constraint *c;
	int n;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (n = 0; (f = family_at(n)); n++) {
		p->table = f->constraints;
		for (c = f->constraints; c && c->cmask; c++) {
			KUNIT_EXPECT_EQ_MSG(test, c->idxmsk64 & ~FAMILY_COUNTERS,
					    0ULL, "%s %#llx", f->name, c->code);
			KUNIT_EXPECT_EQ_MSG(test, c->weight,
					    hweight64(c->idxmsk64),
					    "%s %#llx", f->name, c->code);
			KUNIT_EXPECT_EQ_MSG(test, c->code & ~c->cmask, 0ULL,
					    "%s %#llx", f->name, c->code);
			KUNIT_EXPECT_PTR_EQ_MSG(test, x86c_constraint(p, c->code),
						c, "%s %#llx hidden", f->name,
						c->code);
			KUNIT_EXPECT_PTR_EQ_MSG(test,
						x86c_constraint(p, c->code + c->size),
						c, "%s %#llx+%#llx hidden", f->name,
						c->code, (u64)c->size);
		}
	}
}

/* The extra-register entry of @f whose event code is @code, or NULL. */
static const struct x86c_extra_reg *family_extra(const struct x86c_intel_family *f,
						 u64 code)
{
	int i;

	for (i = 0; i < f->nr_extra; i++)
		if (f->extra_regs[i].code == code)
			return &f->extra_regs[i];
	return NULL;
}

/* Does a table before @seg in @f's chain say @id? */
static bool cache_said_before(const struct x86c_intel_family *f,
			      const struct x86c_cache_event *seg, u32 id)
{
	const struct x86c_cache_event *d;

	for (d = f->cache_events; d && d != seg; d = d->code ? d + 1 : d->then)
		if (d->code && d->id == id)
			return true;
	return false;
}

/*
 * Each cache event once in a table (a later entry would never be read;
 * a table that ends in another says what differs from that one, so the
 * other's entry for the same event is not read either, and not checked),
 * none for an operation the family refuses, and one counted through an
 * extra register only with a register the family has and a selection
 * it takes.
 */
static void families_cache_events_sane(struct kunit *test)
{
	const struct x86c_cache_event *e, *d, *seg;
	const struct x86c_intel_family *f;
	const struct x86c_extra_reg *x;
	u32 cache, op, result;
	int n;

	for (n = 0; (f = family_at(n)); n++) {
		for (seg = f->cache_events; seg; ) {
			for (e = seg; e->code; e++) {
				if (cache_said_before(f, seg, e->id))
					continue;
				cache = e->id & 0xff;
				op = (e->id >> 8) & 0xff;
				result = e->id >> 16;
				KUNIT_EXPECT_LT(test, cache, PERF_COUNT_HW_CACHE_MAX);
				KUNIT_EXPECT_LT(test, op, PERF_COUNT_HW_CACHE_OP_MAX);
				KUNIT_EXPECT_LT(test, result,
						PERF_COUNT_HW_CACHE_RESULT_MAX);
				KUNIT_EXPECT_FALSE_MSG(test, f->cache_refused &
					BIT(cache * PERF_COUNT_HW_CACHE_OP_MAX + op),
					"%s: %#x refused", f->name, e->id);
				for (d = seg; d != e; d++)
					KUNIT_EXPECT_NE_MSG(test, d->id, e->id,
							    "%s: %#x twice",
							    f->name, e->id);
				if (!e->config1)
					continue;
				x = family_extra(f, e->code);
				KUNIT_EXPECT_NOT_NULL_MSG(test, x, "%s: %#x",
							  f->name, e->id);
				if (x)
					KUNIT_EXPECT_EQ_MSG(test,
							    e->config1 & ~x->valid,
							    0ULL, "%s: %#x",
							    f->name, e->id);
			}
			seg = e->then;
		}
	}
}

/*
 * At most X86C_MAX_EXTRA entries of distinct codes; an alternate is
 * mutual and another register; entries sharing one register have none
 * (the register is already theirs in common).
 */
static void families_extra_regs_sane(struct kunit *test)
{
	const struct x86c_intel_family *f;
	const struct x86c_extra_reg *x;
	int n, i, j;

	for (n = 0; (f = family_at(n)); n++) {
		KUNIT_EXPECT_LE(test, f->nr_extra, X86C_MAX_EXTRA);
		for (i = 0; i < f->nr_extra; i++) {
			x = &f->extra_regs[i];
			for (j = 0; j < i; j++) {
				const struct x86c_extra_reg *y = &f->extra_regs[j];
				bool paired = x->alt >= 0 || y->alt >= 0;

				KUNIT_EXPECT_NE_MSG(test, y->code, x->code, "%s",
						    f->name);
				if (y->msr == x->msr)
					KUNIT_EXPECT_FALSE_MSG(test, paired,
							       "%s %#llx", f->name,
							       x->code);
			}
			if (x->alt < 0)
				continue;
			KUNIT_ASSERT_LT(test, x->alt, f->nr_extra);
			KUNIT_EXPECT_EQ_MSG(test, f->extra_regs[x->alt].alt, i,
					    "%s %#llx", f->name, x->code);
			KUNIT_EXPECT_NE_MSG(test, f->extra_regs[x->alt].msr,
					    x->msr, "%s %#llx", f->name, x->code);
		}
	}
}

/*
 * Named events, chained tables included: a name once, a value each, no
 * more than sysfs.c has slots for, and topdown events only in a family
 * with the metrics.
 */
static void families_named_events_sane(struct kunit *test)
{
	const struct x86c_named_event *e, *d;
	const struct x86c_intel_family *f;
	int n, count;

	for (n = 0; (f = family_at(n)); n++) {
		count = 0;
		x86c_for_each_named(e, f->named_events) {
			KUNIT_EXPECT_NOT_NULL(test, e->value);
			KUNIT_EXPECT_TRUE_MSG(test, !e->needs_metrics ||
					      f->nr_metrics, "%s %s",
					      f->name, e->name);
			x86c_for_each_named(d, f->named_events) {
				if (d == e)
					break;
				KUNIT_EXPECT_STRNEQ_MSG(test, d->name, e->name,
							"%s", f->name);
			}
			count++;
		}
		KUNIT_EXPECT_LE_MSG(test, count, X86C_MAX_NAMED, "%s", f->name);
	}
}

/*
 * The errata the families' period limits stand for: Nehalem loses the
 * interrupt of a period under 32; Haswell's INST_RETIRED.ALL needs over
 * 100 (HSW11) and any other event 32; Broadwell's needs over 100 with
 * the low six bits clear (BDM11, BDM55); Skylake has none.
 */
static void families_period_limits(struct kunit *test)
{
	const u64 inst_all = ARCH_PERFMON_EVENTSEL_USR | 0x01c0;
	const u64 cycles = ARCH_PERFMON_EVENTSEL_USR | 0x003c;

	KUNIT_EXPECT_EQ(test, x86c_limit_period(x86c_family_nehalem.period_limits,
						cycles, 1), 32LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(x86c_family_haswell.period_limits,
						inst_all, 100), 128LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(x86c_family_haswell.period_limits,
						cycles, 1), 32LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(x86c_family_broadwell.period_limits,
						inst_all, 1000), 960LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(x86c_family_broadwell.period_limits,
						cycles, 1), 1LL);
	KUNIT_EXPECT_EQ(test, x86c_limit_period(x86c_family_westmere.period_limits,
						cycles, 1), 1LL);
}

static struct kunit_case families_cases[] = {
	KUNIT_CASE(families_models_unique),
	KUNIT_CASE(families_constraints_reachable),
	KUNIT_CASE(families_cache_events_sane),
	KUNIT_CASE(families_extra_regs_sane),
	KUNIT_CASE(families_named_events_sane),
	KUNIT_CASE(families_period_limits),
	{}
};

static struct kunit_suite families_suite = {
	.name = "perfcore_x86_intel_families",
	.test_cases = families_cases,
};

kunit_test_suite(families_suite);
