// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: intel_pt_validate_cap(), the CPUID 0x14 decoder KVM sizes a
 * guest's Intel PT with, on leaves whose fields are known.
 */

#include <kunit/test.h>
#include <asm/intel_pt.h>

/* Sub-leaf 0 then 1, EAX..EDX each. */
static u32 pt_test_leaf[PT_CPUID_LEAVES * PT_CPUID_REGS_NUM] = {
	/*
	 * 0: max sub-leaf 1; EBX: CR3 filter, MTC, PTWRITE; ECX: ToPA,
	 * single range, LIP payloads
	 */
	0x1, 0x19, 0x80000005, 0,
	/*
	 * 1: 2 address ranges, MTC period mask 0x249; cycle thresholds
	 * 0x3fff, PSB periods 0x3f
	 */
	0x02490002, 0x003f3fff, 0, 0,
};

static void pt_caps_single_bits(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_cr3_filtering), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_psb_cyc), 0U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_mtc), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_ptwrite), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_topa_output), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf,
						    PT_CAP_topa_multiple_entries), 0U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf,
						    PT_CAP_single_range_output), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_payloads_lip), 1U);
}

static void pt_caps_fields(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_max_subleaf), 1U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf,
						    PT_CAP_num_address_ranges), 2U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_mtc_periods),
			0x249U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf,
						    PT_CAP_cycle_thresholds), 0x3fffU);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_cap(pt_test_leaf, PT_CAP_psb_periods),
			0x3fU);
}

/* The host has no PT driver: it offers nothing, whatever the CPU has. */
static void pt_caps_host_offers_none(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, intel_pt_validate_hw_cap(PT_CAP_topa_output), 0U);
	KUNIT_EXPECT_EQ(test, intel_pt_validate_hw_cap(PT_CAP_max_subleaf), 0U);
}

static struct kunit_case pt_caps_cases[] = {
	KUNIT_CASE(pt_caps_single_bits),
	KUNIT_CASE(pt_caps_fields),
	KUNIT_CASE(pt_caps_host_offers_none),
	{}
};

static struct kunit_suite pt_caps_suite = {
	.name = "perfcore_x86_pt_caps",
	.test_cases = pt_caps_cases,
};

kunit_test_suite(pt_caps_suite);
