// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: precise sampling (intel/pebs.c).  Records of format 4 with the
 * adaptive groups, as the CPU stores them, decoded into a sample's
 * registers: the eventing IP, exact, at precise_ip 2; the IP after it,
 * not exact, at 1; the general-purpose registers found behind the
 * memory group where both are there; kernel or user by the address.
 * And the rule that makes a precise event's control: no interrupt of
 * its own, the adaptive bit, a part of no family's cycles alias.
 */

#include <kunit/test.h>
#include <linux/perf_event.h>

#include <asm/perf_event.h>

#include "counters.h"
#include "counters_test.h"

#define PEBS_TEST_EVENTING_IP	0x401000ULL
#define PEBS_TEST_NEXT_IP	0x401001ULL
#define PEBS_TEST_BX		0x5eedULL

/* A record as the CPU lays it out: basic, memory, registers. */
struct pebs_test_record {
	struct pebs_basic	basic;
	struct pebs_meminfo	mem;
	struct pebs_gprs	gprs;
};

/* A record of @groups (only MEMINFO and GP are laid out here). */
static void pebs_test_fill(struct pebs_test_record *rec, u64 groups)
{
	void *gprs_at = &rec->mem;

	memset(rec, 0, sizeof(*rec));
	rec->basic.format_group = groups;
	rec->basic.ip = PEBS_TEST_EVENTING_IP;
	rec->basic.applicable_counters = BIT_ULL(0);
	rec->basic.format_size = sizeof(rec->basic);
	if (groups & PEBS_DATACFG_MEMINFO) {
		rec->basic.format_size += sizeof(rec->mem);
		gprs_at = &rec->gprs;
	}
	if (groups & PEBS_DATACFG_GP) {
		struct pebs_gprs *gprs = gprs_at;

		rec->basic.format_size += sizeof(*gprs);
		gprs->ip = PEBS_TEST_NEXT_IP;
		gprs->bx = PEBS_TEST_BX;
		gprs->flags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
	}
}

static struct perf_event *pebs_test_event(struct kunit *test, u8 precise)
{
	struct perf_event *event;

	event = fake_event(test, -1, 0x00c0 | ARCH_PERFMON_EVENTSEL_INT |
			   ARCH_PERFMON_EVENTSEL_USR, 100003);
	event->attr.precise_ip = precise;
	event->attr.sample_period = 100003;
	return event;
}

static void pebs_record_regs(struct kunit *test)
{
	struct pebs_test_record *rec;
	struct pt_regs regs;

	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);

	/* Basic group alone, precise_ip 2: the eventing IP, exact. */
	pebs_test_fill(rec, 0);
	memset(&regs, 0, sizeof(regs));
	regs.bx = 1;
	x86c_pebs_regs(pebs_test_event(test, 2), rec, &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_EVENTING_IP);
	KUNIT_EXPECT_TRUE(test, regs.flags & PERF_EFLAGS_EXACT);
	KUNIT_EXPECT_EQ(test, regs.cs, (unsigned long)__USER_CS);
	/* No registers in the record: the interrupted ones stay. */
	KUNIT_EXPECT_EQ(test, regs.bx, 1UL);

	/* With the registers, precise_ip 1: the IP after it, not exact. */
	pebs_test_fill(rec, PEBS_DATACFG_GP);
	memset(&regs, 0, sizeof(regs));
	regs.flags = PERF_EFLAGS_EXACT;
	x86c_pebs_regs(pebs_test_event(test, 1), rec, &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_NEXT_IP);
	KUNIT_EXPECT_FALSE(test, regs.flags & PERF_EFLAGS_EXACT);
	KUNIT_EXPECT_EQ(test, regs.bx, PEBS_TEST_BX);
	KUNIT_EXPECT_TRUE(test, regs.flags & X86_EFLAGS_IF);

	/* Memory group first: the registers are found behind it. */
	pebs_test_fill(rec, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP);
	memset(&regs, 0, sizeof(regs));
	x86c_pebs_regs(pebs_test_event(test, 2), rec, &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_EVENTING_IP);
	KUNIT_EXPECT_TRUE(test, regs.flags & PERF_EFLAGS_EXACT);
	KUNIT_EXPECT_EQ(test, regs.bx, PEBS_TEST_BX);

	/* A kernel address is a kernel sample. */
	pebs_test_fill(rec, 0);
	rec->basic.ip = 0xffffffff81000000ULL;
	memset(&regs, 0, sizeof(regs));
	x86c_pebs_regs(pebs_test_event(test, 2), rec, &regs);
	KUNIT_EXPECT_EQ(test, regs.cs, (unsigned long)__KERNEL_CS);
}

static void pebs_config_rule(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *event;

	p->pebs = true;
	p->max_precise = 2;

	/* The record is the interrupt; the groups are DATA_CFG's. */
	p->pebs_cycles_alias = false;
	event = pebs_test_event(test, 2);
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_FALSE(test, event->hw.config & ARCH_PERFMON_EVENTSEL_INT);
	KUNIT_EXPECT_TRUE(test, event->hw.config & ICL_EVENTSEL_ADAPTIVE);
	KUNIT_EXPECT_EQ(test, event->hw.config & X86_RAW_EVENT_MASK, 0xc0ULL);

	/* Cycles: as they are on a family, the alias on a part of none. */
	event = pebs_test_event(test, 2);
	event->hw.config = (event->hw.config & ~X86_RAW_EVENT_MASK) | 0x3c;
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_EQ(test, event->hw.config & X86_RAW_EVENT_MASK, 0x3cULL);
	p->pebs_cycles_alias = true;
	event = pebs_test_event(test, 2);
	event->hw.config = (event->hw.config & ~X86_RAW_EVENT_MASK) | 0x3c;
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_EQ(test, event->hw.config & X86_RAW_EVENT_MASK,
			0xc0ULL | ARCH_PERFMON_EVENTSEL_INV | (16ULL << 24));
	KUNIT_EXPECT_TRUE(test, event->hw.config & ARCH_PERFMON_EVENTSEL_USR);

	/* A precise event that does not sample: upstream's EINVAL. */
	event = pebs_test_event(test, 1);
	event->attr.sample_period = 0;
	event->hw.sample_period = 0;
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), -EINVAL);
}

static struct kunit_case pebs_cases[] = {
	KUNIT_CASE(pebs_record_regs),
	KUNIT_CASE(pebs_config_rule),
	{}
};

static struct kunit_suite pebs_suite = {
	.name = "perfcore_x86_pebs",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = pebs_cases,
};

kunit_test_suite(pebs_suite);
