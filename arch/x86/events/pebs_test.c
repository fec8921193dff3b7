// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: precise sampling (intel/pebs.c).  Records of format 4 with the
 * adaptive groups, as the CPU stores them, decoded into a sample's
 * registers: the eventing IP, exact, at precise_ip 2; the IP after it,
 * not exact, at 1; the general-purpose registers found behind the
 * memory group where both are there; kernel or user by the address.
 * Format 3's fixed records (Skylake's) likewise, walked in a buffer,
 * their registers in that record's order and only for an event that
 * asks for them; the precise control at format 3 (no adaptive bit,
 * cycles as INST_RETIRED.PREC_DIST at precise_ip 3, never large with a
 * branch stack); and the Skylake family's counters for precise events.
 * The rule that makes a precise event's control: no interrupt of its
 * own, the adaptive bit, a part of no family's cycles alias, the
 * store's reload at a fixed period and large PEBS where the sample
 * needs nothing else.  And large PEBS on the register model with a
 * debug store of the case's own: PEBS_ENABLE, the reset value and the
 * threshold near the buffer's end; a drain's count (the periods its
 * records stand for, and the counter past the last reload) and its
 * samples; the threshold after one record once a precise event that
 * is not large joins.
 */

#include <kunit/test.h>
#include <linux/perf_event.h>

#include <asm/intel_ds.h>
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
		gprs->sp = PEBS_TEST_BX + 1;
		gprs->r15 = PEBS_TEST_BX + 2;
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

/* @rec, decoded as @p's format, into @regs of a sample of @event */
static void pebs_test_regs(struct kunit *test, const struct x86c_pmu *p,
			   const struct perf_event *event, const void *rec,
			   size_t size, struct pt_regs *regs)
{
	struct x86c_pebs_view v;

	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, rec, rec + size, &v));
	x86c_pebs_regs(event, &v, regs);
}

static void pebs_record_regs(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct pebs_test_record *rec;
	struct pt_regs regs;

	p->pebs_format = 4;
	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);

	/* Basic group alone, precise_ip 2: the eventing IP, exact. */
	pebs_test_fill(rec, 0);
	memset(&regs, 0, sizeof(regs));
	regs.bx = 1;
	pebs_test_regs(test, p, pebs_test_event(test, 2), rec, sizeof(*rec),
		       &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_EVENTING_IP);
	KUNIT_EXPECT_TRUE(test, regs.flags & PERF_EFLAGS_EXACT);
	KUNIT_EXPECT_EQ(test, regs.cs, (unsigned long)__USER_CS);
	/* No registers in the record: the interrupted ones stay. */
	KUNIT_EXPECT_EQ(test, regs.bx, 1UL);

	/* With the registers, precise_ip 1: the IP after it, not exact. */
	pebs_test_fill(rec, PEBS_DATACFG_GP);
	memset(&regs, 0, sizeof(regs));
	regs.flags = PERF_EFLAGS_EXACT;
	pebs_test_regs(test, p, pebs_test_event(test, 1), rec, sizeof(*rec),
		       &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_NEXT_IP);
	KUNIT_EXPECT_FALSE(test, regs.flags & PERF_EFLAGS_EXACT);
	KUNIT_EXPECT_EQ(test, regs.bx, PEBS_TEST_BX);
	KUNIT_EXPECT_EQ(test, regs.sp, PEBS_TEST_BX + 1);
	KUNIT_EXPECT_EQ(test, regs.r15, PEBS_TEST_BX + 2);
	KUNIT_EXPECT_EQ(test, regs.ax, 0UL);
	KUNIT_EXPECT_TRUE(test, regs.flags & X86_EFLAGS_IF);

	/* Memory group first: the registers are found behind it. */
	pebs_test_fill(rec, PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP);
	memset(&regs, 0, sizeof(regs));
	pebs_test_regs(test, p, pebs_test_event(test, 2), rec, sizeof(*rec),
		       &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_EVENTING_IP);
	KUNIT_EXPECT_TRUE(test, regs.flags & PERF_EFLAGS_EXACT);
	KUNIT_EXPECT_EQ(test, regs.bx, PEBS_TEST_BX);

	/* A kernel address is a kernel sample. */
	pebs_test_fill(rec, 0);
	rec->basic.ip = 0xffffffff81000000ULL;
	memset(&regs, 0, sizeof(regs));
	pebs_test_regs(test, p, pebs_test_event(test, 2), rec, sizeof(*rec),
		       &regs);
	KUNIT_EXPECT_EQ(test, regs.cs, (unsigned long)__KERNEL_CS);
}

static void pebs_config_rule(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *event;

	p->pebs = true;
	p->pebs_format = 4;
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

#define PEBS_TEST_PERIOD	1000
#define PEBS_TEST_BUFFER	PEBS_BUFFER_SIZE

/* Store a basic record of counter @idx, as the CPU would. */
static void pebs_test_store(struct debug_store *ds, int idx)
{
	struct pebs_basic *rec = (void *)(unsigned long)ds->pebs_index;

	memset(rec, 0, sizeof(*rec));
	rec->format_size = sizeof(*rec);
	rec->ip = PEBS_TEST_EVENTING_IP;
	rec->applicable_counters = BIT_ULL(idx);
	ds->pebs_index += sizeof(*rec);
}

static void pebs_large_drain(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct x86c_cpu *cpu = ctx->cpu;
	struct perf_event *large, *other;
	struct debug_store *ds;
	void *buf;

	ds = kunit_kzalloc(test, sizeof(*ds), GFP_KERNEL);
	buf = kunit_kzalloc(test, PEBS_TEST_BUFFER, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ds);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	ds->pebs_buffer_base = (unsigned long)buf;
	ds->pebs_index = ds->pebs_buffer_base;
	ds->pebs_absolute_maximum = ds->pebs_buffer_base + PEBS_TEST_BUFFER;
	cpu->ds = ds;
	p->pebs = true;
	p->pebs_format = 4;
	p->max_precise = 2;

	/* A fixed period, ip alone: large, reloaded by the store. */
	large = pebs_test_event(test, 2);
	large->attr.sample_type = PERF_SAMPLE_IP;
	large->hw.sample_period = PEBS_TEST_PERIOD;
	large->attr.sample_period = PEBS_TEST_PERIOD;
	KUNIT_ASSERT_EQ(test, x86c_pebs_config(p, large), 0);
	KUNIT_EXPECT_TRUE(test, large->hw.flags & PERF_X86_EVENT_LARGE_PEBS);
	KUNIT_EXPECT_TRUE(test, large->hw.flags & PERF_X86_EVENT_AUTO_RELOAD);
	large->hw.idx = 0;
	large->hw.event_base_rdpmc = 0;
	cpu->owner[0] = large;
	cpu->running |= BIT_ULL(0);
	/* Loaded for its period, as x86c_event_set_period() leaves it. */
	x86c_fake->gp[0] = -PEBS_TEST_PERIOD & p->cntval_mask;
	local64_set(&large->hw.prev_count, -PEBS_TEST_PERIOD);

	x86c_pebs_on(p, cpu, 0);
	KUNIT_EXPECT_EQ(test, x86c_fake->pebs_enable, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, ds->pebs_event_reset[0],
			-PEBS_TEST_PERIOD & p->cntval_mask);
	KUNIT_EXPECT_GT(test, ds->pebs_interrupt_threshold,
			ds->pebs_buffer_base + PEBS_TEST_BUFFER / 2);
	KUNIT_EXPECT_LT(test, ds->pebs_interrupt_threshold,
			ds->pebs_absolute_maximum);

	/* Three periods reloaded, then 7 events into the fourth. */
	pebs_test_store(ds, 0);
	pebs_test_store(ds, 0);
	pebs_test_store(ds, 0);
	x86c_fake->gp[0] = (-PEBS_TEST_PERIOD + 7) & p->cntval_mask;
	KUNIT_EXPECT_EQ(test, x86c_pebs_drain(p, cpu, NULL), 3);
	KUNIT_EXPECT_EQ(test, ev_count(large), 3ULL * PEBS_TEST_PERIOD + 7);
	KUNIT_EXPECT_EQ(test, ev_left(large), PEBS_TEST_PERIOD - 7);
	KUNIT_EXPECT_EQ(test, ds->pebs_index, ds->pebs_buffer_base);
	/* Nothing stored since: nothing more counted. */
	KUNIT_EXPECT_EQ(test, x86c_pebs_drain(p, cpu, NULL), 0);
	KUNIT_EXPECT_EQ(test, ev_count(large), 3ULL * PEBS_TEST_PERIOD + 7);

	/* A frequency-sampled precise event joins: a PMI per record. */
	other = pebs_test_event(test, 2);
	other->attr.freq = 1;
	KUNIT_ASSERT_EQ(test, x86c_pebs_config(p, other), 0);
	KUNIT_EXPECT_FALSE(test, other->hw.flags & PERF_X86_EVENT_AUTO_RELOAD);
	other->hw.idx = 1;
	cpu->owner[1] = other;
	cpu->running |= BIT_ULL(1);
	x86c_pebs_on(p, cpu, 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->pebs_enable, BIT_ULL(0) | BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, ds->pebs_event_reset[1], 0ULL);
	KUNIT_EXPECT_EQ(test, ds->pebs_interrupt_threshold,
			ds->pebs_buffer_base + sizeof(struct pebs_basic));

	/* Leaving: the large one's records drained, PEBS off for both. */
	pebs_test_store(ds, 0);
	x86c_pebs_off(p, cpu, 0);
	KUNIT_EXPECT_EQ(test, ds->pebs_index, ds->pebs_buffer_base);
	KUNIT_EXPECT_EQ(test, ev_count(large), 4ULL * PEBS_TEST_PERIOD + 7);
	cpu->running &= ~BIT_ULL(1);
	x86c_pebs_off(p, cpu, 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->pebs_enable, 0ULL);
	cpu->owner[0] = NULL;
	cpu->owner[1] = NULL;
	cpu->running = 0;
	cpu->ds = NULL;
}

/* A format 3 record (200 bytes) of @applicable at @ip, as the CPU writes it */
#define PEBS_TEST_FMT3_WORDS	25
#define PEBS_TEST_TSC		0x7e57ULL

static void pebs_test_fmt3(u64 *rec, u64 applicable, u64 ip)
{
	memset(rec, 0, PEBS_TEST_FMT3_WORDS * sizeof(u64));
	rec[0] = X86_EFLAGS_IF | X86_EFLAGS_FIXED;	/* RFLAGS */
	rec[1] = ip + 1;				/* the next IP */
	rec[2] = 0xa;					/* RAX */
	rec[3] = PEBS_TEST_BX;				/* RBX */
	rec[6] = 0x51;					/* RSI */
	rec[9] = PEBS_TEST_BX + 1;			/* RSP */
	rec[17] = PEBS_TEST_BX + 2;			/* R15 */
	rec[18] = applicable;				/* applicable counters */
	rec[19] = 0xdada;				/* data linear address */
	rec[22] = ip;					/* the eventing IP */
	rec[24] = PEBS_TEST_TSC;
}

static void pebs_fmt3_records(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *event;
	struct x86c_pebs_view v;
	struct pt_regs regs;
	u64 *buf;

	p->pebs_format = 3;
	buf = kunit_kzalloc(test, 3 * PEBS_TEST_FMT3_WORDS * sizeof(u64),
			    GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	pebs_test_fmt3(buf, BIT_ULL(1), PEBS_TEST_EVENTING_IP);
	pebs_test_fmt3(buf + PEBS_TEST_FMT3_WORDS, BIT_ULL(0) | BIT_ULL(2),
		       PEBS_TEST_EVENTING_IP + 0x10);

	/* A fixed size; a part of a record is none. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, buf, buf + 40, &v));
	KUNIT_EXPECT_EQ(test, v.size, 200U);
	KUNIT_EXPECT_EQ(test, v.applicable, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, v.ip, PEBS_TEST_EVENTING_IP);
	KUNIT_EXPECT_EQ(test, v.next_ip, PEBS_TEST_EVENTING_IP + 1);
	KUNIT_EXPECT_EQ(test, v.tsc, PEBS_TEST_TSC);
	KUNIT_EXPECT_NULL(test, v.lbr);
	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, buf + 25, buf + 50, &v));
	KUNIT_EXPECT_EQ(test, v.applicable, BIT_ULL(0) | BIT_ULL(2));
	KUNIT_EXPECT_FALSE(test, x86c_pebs_decode(p, buf + 50, buf + 74, &v));

	/* precise_ip 2: the eventing IP, exact; no registers unasked. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, buf, buf + 25, &v));
	event = pebs_test_event(test, 2);
	memset(&regs, 0, sizeof(regs));
	regs.bx = 1;
	x86c_pebs_regs(event, &v, &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_EVENTING_IP);
	KUNIT_EXPECT_TRUE(test, regs.flags & PERF_EFLAGS_EXACT);
	KUNIT_EXPECT_TRUE(test, regs.flags & X86_EFLAGS_IF);
	KUNIT_EXPECT_EQ(test, regs.bx, 1UL);

	/* Asked for, in the record's order: RAX, RBX, RCX, RDX, RSI, ... */
	event->attr.sample_type |= PERF_SAMPLE_REGS_INTR;
	memset(&regs, 0, sizeof(regs));
	x86c_pebs_regs(event, &v, &regs);
	KUNIT_EXPECT_EQ(test, regs.ax, 0xaUL);
	KUNIT_EXPECT_EQ(test, regs.bx, PEBS_TEST_BX);
	KUNIT_EXPECT_EQ(test, regs.si, 0x51UL);
	KUNIT_EXPECT_EQ(test, regs.sp, PEBS_TEST_BX + 1);
	KUNIT_EXPECT_EQ(test, regs.r15, PEBS_TEST_BX + 2);
	KUNIT_EXPECT_EQ(test, regs.cx, 0UL);

	/* precise_ip 1: the next IP, not exact. */
	event = pebs_test_event(test, 1);
	regs.flags = PERF_EFLAGS_EXACT;
	x86c_pebs_regs(event, &v, &regs);
	KUNIT_EXPECT_EQ(test, regs.ip, PEBS_TEST_EVENTING_IP + 1);
	KUNIT_EXPECT_FALSE(test, regs.flags & PERF_EFLAGS_EXACT);
}

static void pebs_fmt3_config(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_intel_family *skl = fake_family("skylake");
	struct x86c_pmu *p = ctx->p;
	struct perf_event *event;

	KUNIT_ASSERT_NOT_NULL(test, skl);
	/* Format 3 on no family, or with the adaptive bit: not driven. */
	KUNIT_EXPECT_FALSE(test, x86c_pebs_shape(p, NULL, 3, false));
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, skl, 3, false));
	p->pebs = true;
	KUNIT_EXPECT_EQ(test, p->max_precise, 3);
	KUNIT_EXPECT_EQ(test, p->pebs_format, 3);

	/* No adaptive bit; core cycles as counted instructions. */
	event = pebs_test_event(test, 2);
	event->hw.config = (event->hw.config & ~X86_RAW_EVENT_MASK) | 0x3c;
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_FALSE(test, event->hw.config & ICL_EVENTSEL_ADAPTIVE);
	KUNIT_EXPECT_EQ(test, event->hw.config & X86_RAW_EVENT_MASK,
			0x108000c0ULL);
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->idxmsk64, 0xfULL);
	/* ...at precise_ip 3 as INST_RETIRED.PREC_DIST: counter 1. */
	event = pebs_test_event(test, 3);
	event->hw.config = (event->hw.config & ~X86_RAW_EVENT_MASK) | 0x3c;
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_EQ(test, event->hw.config & X86_RAW_EVENT_MASK,
			0x108001c0ULL);
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->idxmsk64, 0x2ULL);

	/* Instructions: counters 0-3, not the fixed one it would count on. */
	event = pebs_test_event(test, 2);
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_PTR_EQ(test, x86c_event_constraint(p, event),
			    &p->pebs_any);
	event->attr.precise_ip = 0;
	KUNIT_EXPECT_PTR_EQ(test, x86c_event_constraint(p, event),
			    x86c_constraint(p, event->hw.config));
	KUNIT_EXPECT_TRUE(test, x86c_event_constraint(p, event)->idxmsk64 &
			  BIT_ULL(INTEL_PMC_IDX_FIXED));

	/* A branch stack is not in the record: never large. */
	event = pebs_test_event(test, 2);
	event->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_TRUE(test, event->hw.flags & PERF_X86_EVENT_AUTO_RELOAD);
	KUNIT_EXPECT_FALSE(test, event->hw.flags & PERF_X86_EVENT_LARGE_PEBS);
	event = pebs_test_event(test, 2);
	event->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_EXPECT_TRUE(test, event->hw.flags & PERF_X86_EVENT_LARGE_PEBS);

	/* Counter 3 withheld (TSX force-abort): not for precise events. */
	event = pebs_test_event(test, 2);
	KUNIT_EXPECT_EQ(test, x86c_pebs_config(p, event), 0);
	KUNIT_ASSERT_EQ(test, x86c_withhold(p, BIT_ULL(3)), 0);
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->idxmsk64, 0x7ULL);
	KUNIT_ASSERT_EQ(test, x86c_withhold(p, 0), 0);
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->idxmsk64, 0xfULL);
	kfree(p->narrowed);
	p->narrowed = NULL;
}

/* The event of @code, @precise, as pebs_test_event() */
static struct perf_event *pebs_test_code(struct kunit *test, u64 code,
					 u8 precise)
{
	struct perf_event *event = pebs_test_event(test, precise);

	event->hw.config = (event->hw.config & ~X86_RAW_EVENT_MASK) | code;
	return event;
}

/* The counters @code may use at @precise on @p */
static u64 pebs_test_counters(struct kunit *test, struct x86c_pmu *p,
			      u64 code, u8 precise)
{
	return x86c_event_constraint(p, pebs_test_code(test, code,
						       precise))->idxmsk64;
}

static void pebs_fmt4_families(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_intel_family *icl = fake_family("icelake");
	const struct x86c_intel_family *glc =
		fake_family("sapphire_rapids");
	struct x86c_pmu *p = ctx->p;
	u64 any, fixed0 = BIT_ULL(FIX(0));
	struct perf_event *event;

	KUNIT_ASSERT_NOT_NULL(test, icl);
	KUNIT_ASSERT_NOT_NULL(test, glc);
	any = x86c_constraint(p, 0x00c0)->idxmsk64;

	/* No family: placed as counted, cycles aliased, 2 at most. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, NULL, 4, true));
	p->pebs = true;
	KUNIT_EXPECT_EQ(test, p->max_precise, 2);
	KUNIT_EXPECT_TRUE(test, p->pebs_cycles_alias);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 2), any);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x81d0, 2),
			x86c_constraint(p, 0x81d0)->idxmsk64);
	/* Without the adaptive groups format 4 is not driven. */
	KUNIT_EXPECT_FALSE(test, x86c_pebs_shape(p, icl, 4, false));

	/* Ice Lake: the table's codes, instructions:ppp on fixed 0. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, icl, 4, true));
	KUNIT_EXPECT_EQ(test, p->max_precise, 3);
	KUNIT_EXPECT_FALSE(test, p->pebs_cycles_alias);
	KUNIT_EXPECT_EQ(test, p->pebs_format, 4);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 2), any);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 3), fixed0);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x01c0, 2), fixed0);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x81d0, 2), 0xfULL);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x01d4, 2), 0xfULL);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x01d5, 2),
			x86c_constraint(p, 0x01d5)->idxmsk64);
	/* A threshold changes what is counted: not the table's row. */
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x010081d0, 2),
			x86c_constraint(p, 0x010081d0)->idxmsk64);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x81d0, 0),
			x86c_constraint(p, 0x81d0)->idxmsk64);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 3),
			x86c_constraint(p, 0x003c)->idxmsk64);
	event = pebs_test_code(test, 0x003c, 3);
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 100), 100);

	/*
	 * Golden Cove: instructions on 1-7 but at 3 (fixed 0), anything
	 * else at 3 on counter 0 or nowhere, for 128 at least.
	 */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, glc, 4, true));
	KUNIT_EXPECT_EQ(test, p->max_precise, 3);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 2), 0xfeULL);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 3), fixed0);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x01c0, 2), 0xfeULL);
	event = pebs_test_code(test, 0x01c0, 3);
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->weight, 0);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 3), BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 2),
			x86c_constraint(p, 0x003c)->idxmsk64);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x02cd, 2), BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x01cd, 2), 0xfeULL);
	event = pebs_test_code(test, 0x003c, 3);
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 100), 128);
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 1000), 1000);
	event->attr.precise_ip = 2;
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 100), 100);

	/* A PMU probed again with no family loses the family's rules. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, NULL, 4, true));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 3),
			x86c_constraint(p, 0x003c)->idxmsk64);
	KUNIT_EXPECT_NULL(test, p->pebs_table);
}

/*
 * The hybrid parts' and the Atoms' rules at format 4 (stock's glc, rwc,
 * lnc, tnt and cmt constraints and glc_limit_period): each kind of core
 * its own table and precise distribution.
 */
static void pebs_fmt4_hybrid_atoms(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_intel_family *adl =
		fake_family("alderlake_hybrid");
	const struct x86c_intel_family *mtl =
		fake_family("meteorlake_hybrid");
	const struct x86c_intel_family *lnl =
		fake_family("lunarlake_hybrid");
	const struct x86c_intel_family *tnt = fake_family("Tremont");
	const struct x86c_intel_family *srf = fake_family("crestmont");
	struct x86c_pmu *p = ctx->p;
	u64 fixed0 = BIT_ULL(FIX(0));
	struct perf_event *event;

	KUNIT_ASSERT_NOT_NULL(test, adl);
	KUNIT_ASSERT_NOT_NULL(test, mtl);
	KUNIT_ASSERT_NOT_NULL(test, lnl);
	KUNIT_ASSERT_NOT_NULL(test, tnt);
	KUNIT_ASSERT_NOT_NULL(test, srf);
	KUNIT_ASSERT_NOT_NULL(test, adl->atom);
	p->pebs = true;

	/* Alder Lake's P-cores: Golden Cove's table and rule. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, adl, 4, true));
	KUNIT_EXPECT_EQ(test, p->max_precise, 3);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 2), 0xfeULL);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 3), fixed0);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 3), BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x81d0, 2), 0xfULL);
	event = pebs_test_code(test, 0x003c, 3);
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 100), 128);

	/*
	 * Its E-cores (Gracemont): latency rows, instructions:ppp on fixed
	 * 0 or counter 0, anything else on counter 0, 128 at least.
	 */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, adl->atom, 4, true));
	KUNIT_EXPECT_EQ(test, p->max_precise, 3);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x05d0, 2), 0x3ULL);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x06d0, 2), 0x3fULL);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 3),
			fixed0 | BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 3), BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 2),
			x86c_constraint(p, 0x003c)->idxmsk64);
	event = pebs_test_code(test, 0x003c, 3);
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 100), 128);

	/* Tremont: the same distribution, no table, no shortest period. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, tnt, 4, true));
	KUNIT_EXPECT_EQ(test, p->max_precise, 3);
	KUNIT_EXPECT_NULL(test, p->pebs_table);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 3),
			fixed0 | BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x05d0, 3), BIT_ULL(0));
	event = pebs_test_code(test, 0x003c, 3);
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 100), 100);

	/*
	 * Crestmont (alone, and as Meteor Lake's E-cores): counters 0 and
	 * 1 at precise_ip 3, instructions on fixed 0 too; a code counter 0
	 * may not use goes on 1 alone.
	 */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, srf, 4, true));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 3),
			fixed0 | GENMASK_ULL(1, 0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x003c, 3),
			GENMASK_ULL(1, 0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x05d0, 3),
			GENMASK_ULL(1, 0));
	event = pebs_test_code(test, 0x003c, 3);
	KUNIT_EXPECT_EQ(test, x86c_event_limit(p, event, 100), 128);
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, mtl->atom, 4, true));
	KUNIT_EXPECT_EQ(test, p->pebs_pdist, X86C_PDIST_COUNTERS01);
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, lnl->atom, 4, true));
	KUNIT_EXPECT_EQ(test, p->pebs_pdist, X86C_PDIST_COUNTERS01);

	/*
	 * Meteor Lake's P-cores: Golden Cove's, but instructions sampled
	 * with their retire latency never on fixed counter 0: counters 1-7
	 * at 2, nowhere at 3.
	 */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, mtl, 4, true));
	event = pebs_test_code(test, 0x00c0, 2);
	event->attr.sample_type |= PERF_SAMPLE_WEIGHT_TYPE;
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->idxmsk64,
			GENMASK_ULL(7, 1));
	event->attr.precise_ip = 3;
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->weight, 0);
	event->attr.sample_type &= ~PERF_SAMPLE_WEIGHT_TYPE;
	KUNIT_EXPECT_EQ(test, x86c_event_constraint(p, event)->idxmsk64, fixed0);

	/* Lunar Lake's P-cores: Lion Cove's table, OCR on counter 0. */
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, lnl, 4, true));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x012a, 2), BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x02cd, 2), 0x3ULL);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x0100, 2), fixed0);
	KUNIT_EXPECT_EQ(test, pebs_test_counters(test, p, 0x00c0, 2),
			x86c_constraint(p, 0x00c0)->idxmsk64);
}

static struct kunit_case pebs_cases[] = {
	KUNIT_CASE(pebs_record_regs),
	KUNIT_CASE(pebs_config_rule),
	KUNIT_CASE(pebs_large_drain),
	KUNIT_CASE(pebs_fmt3_records),
	KUNIT_CASE(pebs_fmt3_config),
	KUNIT_CASE(pebs_fmt4_families),
	KUNIT_CASE(pebs_fmt4_hybrid_atoms),
	{}
};

static struct kunit_suite pebs_suite = {
	.name = "perfcore_x86_pebs",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = pebs_cases,
};

kunit_test_suite(pebs_suite);
