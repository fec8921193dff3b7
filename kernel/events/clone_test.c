// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the clone bookkeeping of task contexts (clone.c): which
 * contexts may be traded at a context switch, and what a copy of a
 * context records as its origin.  Only the three clone fields of the
 * contexts are looked at; the rest stays zero.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/perf_event.h>

#include "internal.h"

/*
 * A zeroed context at generation @gen.  Allocated: a context is too large
 * for several of them to sit on a test's stack.
 */
static struct perf_event_context *clone_ctx(struct kunit *test, u64 gen)
{
	struct perf_event_context *ctx;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->generation = gen;
	return ctx;
}

/* What perf_ctx_mark_clone() records in @child for a copy of @parent. */
static void clone_copy(struct perf_event_context *child,
		       struct perf_event_context *parent)
{
	child->clone_of = perf_ctx_clone_origin(parent, &child->clone_gen);
}

static void clone_parent_and_child_test(struct kunit *test)
{
	struct perf_event_context *parent = clone_ctx(test, 7);
	struct perf_event_context *child = clone_ctx(test, 0);

	clone_copy(child, parent);
	KUNIT_EXPECT_PTR_EQ(test, child->clone_of, parent);
	KUNIT_EXPECT_EQ(test, child->clone_gen, 7ULL);
	KUNIT_EXPECT_TRUE(test, perf_ctx_interchangeable(parent, child));
	KUNIT_EXPECT_TRUE(test, perf_ctx_interchangeable(child, parent));

	/* An event opened in the parent: the copy no longer matches. */
	parent->generation++;
	KUNIT_EXPECT_FALSE(test, perf_ctx_interchangeable(parent, child));
	KUNIT_EXPECT_FALSE(test, perf_ctx_interchangeable(child, parent));
}

static void clone_siblings_test(struct kunit *test)
{
	struct perf_event_context *parent = clone_ctx(test, 3);
	struct perf_event_context *a = clone_ctx(test, 0);
	struct perf_event_context *b = clone_ctx(test, 0);
	struct perf_event_context *late = clone_ctx(test, 0);

	clone_copy(a, parent);
	clone_copy(b, parent);
	KUNIT_EXPECT_TRUE(test, perf_ctx_interchangeable(a, b));

	/* The parent changed between two forks: their copies differ. */
	parent->generation++;
	clone_copy(late, parent);
	KUNIT_EXPECT_FALSE(test, perf_ctx_interchangeable(a, late));
	/* Still twins of each other, though their parent moved on. */
	KUNIT_EXPECT_TRUE(test, perf_ctx_interchangeable(a, b));
}

static void clone_of_a_clone_test(struct kunit *test)
{
	struct perf_event_context *top = clone_ctx(test, 5);
	struct perf_event_context *child = clone_ctx(test, 0);
	struct perf_event_context *grandchild = clone_ctx(test, 0);

	clone_copy(child, top);
	clone_copy(grandchild, child);
	/* Flattened: the grandchild is a clone of the top, like its parent. */
	KUNIT_EXPECT_PTR_EQ(test, grandchild->clone_of, top);
	KUNIT_EXPECT_EQ(test, grandchild->clone_gen, 5ULL);
	KUNIT_EXPECT_TRUE(test, perf_ctx_interchangeable(child, grandchild));
	KUNIT_EXPECT_TRUE(test, perf_ctx_interchangeable(top, grandchild));
}

static void clone_unrelated_test(struct kunit *test)
{
	struct perf_event_context *a = clone_ctx(test, 0);
	struct perf_event_context *b = clone_ctx(test, 0);
	struct perf_event_context *pa = clone_ctx(test, 0);
	struct perf_event_context *pb = clone_ctx(test, 0);

	/* Neither is a clone: nothing to trade. */
	KUNIT_EXPECT_FALSE(test, perf_ctx_interchangeable(a, b));
	/* Clones of different contexts at equal generations. */
	clone_copy(a, pa);
	clone_copy(b, pb);
	KUNIT_EXPECT_FALSE(test, perf_ctx_interchangeable(a, b));
	/* A claimed context (clone_of dropped) matches nothing. */
	clone_copy(b, pa);
	KUNIT_EXPECT_TRUE(test, perf_ctx_interchangeable(a, b));
	b->clone_of = NULL;
	b->generation++;
	KUNIT_EXPECT_FALSE(test, perf_ctx_interchangeable(a, b));
}

static struct kunit_case perfcore_clone_cases[] = {
	KUNIT_CASE(clone_parent_and_child_test),
	KUNIT_CASE(clone_siblings_test),
	KUNIT_CASE(clone_of_a_clone_test),
	KUNIT_CASE(clone_unrelated_test),
	{}
};

static struct kunit_suite perfcore_clone_suite = {
	.name = "perfcore_clone",
	.test_cases = perfcore_clone_cases,
};

kunit_test_suite(perfcore_clone_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore's cloned task contexts");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
