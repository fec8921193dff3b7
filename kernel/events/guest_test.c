// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the guest-info callbacks of guest.c, through the same static
 * calls the PMU drivers' interrupt paths use.
 */

#include <kunit/test.h>
#include <linux/perf_event.h>

static unsigned int guest_test_state(void)
{
	return PERF_GUEST_ACTIVE | PERF_GUEST_USER;
}

static unsigned long guest_test_ip(void)
{
	return 0x1234000;
}

static unsigned int guest_test_pt_intr(void)
{
	return 1;
}

static struct perf_guest_info_callbacks guest_test_cbs = {
	.state		= guest_test_state,
	.get_ip		= guest_test_ip,
};

/* Skip rather than disturb a hypervisor that registered at boot. */
static void guest_test_need_free_slot(struct kunit *test)
{
	if (rcu_access_pointer(perf_guest_cbs))
		kunit_skip(test, "a hypervisor's callbacks are registered");
}

static void guest_cbs_answer_then_fall_silent(struct kunit *test)
{
	guest_test_need_free_slot(test);
	KUNIT_EXPECT_EQ(test, perf_guest_state(), 0U);
	KUNIT_EXPECT_EQ(test, perf_guest_get_ip(), 0UL);

	perf_register_guest_info_callbacks(&guest_test_cbs);
	KUNIT_EXPECT_PTR_EQ(test, rcu_access_pointer(perf_guest_cbs),
			    &guest_test_cbs);
	KUNIT_EXPECT_EQ(test, perf_guest_state(),
			PERF_GUEST_ACTIVE | PERF_GUEST_USER);
	KUNIT_EXPECT_EQ(test, perf_guest_get_ip(), 0x1234000UL);
	/* Not provided: still "not the guest's". */
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 0U);

	perf_unregister_guest_info_callbacks(&guest_test_cbs);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(perf_guest_cbs));
	KUNIT_EXPECT_EQ(test, perf_guest_state(), 0U);
	KUNIT_EXPECT_EQ(test, perf_guest_get_ip(), 0UL);
}

static void guest_cbs_optional_pt_handler(struct kunit *test)
{
	struct perf_guest_info_callbacks cbs = guest_test_cbs;

	guest_test_need_free_slot(test);
	cbs.handle_intel_pt_intr = guest_test_pt_intr;
	perf_register_guest_info_callbacks(&cbs);
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 1U);
	perf_unregister_guest_info_callbacks(&cbs);
	KUNIT_EXPECT_EQ(test, perf_guest_handle_intel_pt_intr(), 0U);
}

static struct kunit_case guest_cases[] = {
	KUNIT_CASE(guest_cbs_answer_then_fall_silent),
	KUNIT_CASE(guest_cbs_optional_pt_handler),
	{}
};

static struct kunit_suite guest_suite = {
	.name = "perfcore_guest",
	.test_cases = guest_cases,
};

kunit_test_suite(guest_suite);
