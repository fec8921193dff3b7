// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what PEBS records say of memory accesses (intel/pebs_mem.c).
 * The data source of each core's layout, from the SDM's encodings: the
 * level and snoop of an encoding, the TLB, lock and blocking bits where
 * each core has them, a server's persistent memory, a reserved
 * encoding; the precise loads' and stores' sources; the values the
 * stock kernel gives for a record with a zero field (our QEMU's),
 * which the suite compares on the models.  The families' memory events
 * and the kind each gives an event; the load-latency group rule.  And
 * the sample's fields from a record of each format: the memory group
 * asked for where a field needs it, the address, the weight (split on
 * Golden Cove, format 3's only for load latency) and the transaction.
 */

#include <kunit/test.h>
#include <linux/perf_event.h>

#include <asm/intel_ds.h>
#include <asm/perf_event.h>

#include "counters.h"
#include "counters_test.h"

#define S(field, what)	PERF_MEM_S(field, what)
#define TLB_HIT		(S(TLB, HIT) | S(TLB, L1) | S(TLB, L2))
#define TLB_MISS	(S(TLB, MISS) | S(TLB, L2))

#define LDLAT		PERF_X86_EVENT_PEBS_LDLAT
#define STLAT		PERF_X86_EVENT_PEBS_STLAT
#define HYBRID_LD	(PERF_X86_EVENT_PEBS_LAT_HYBRID | PERF_X86_EVENT_PEBS_LD_HSW)
#define HYBRID_ST	(PERF_X86_EVENT_PEBS_LAT_HYBRID | PERF_X86_EVENT_PEBS_ST_HSW)

static u64 src(struct x86c_pmu *p, const struct x86c_pebs_dse *d, u32 kind,
	       u64 dse)
{
	p->pebs_dse = d;
	return x86c_pebs_data_src(p, kind, dse);
}

static void pebs_mem_sources(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	const struct x86c_pebs_dse *skl = &x86c_dse_skylake;
	const struct x86c_pebs_dse *glc = &x86c_dse_golden_cove;
	const u64 l1 = S(OP, LOAD) | S(LVL, HIT) | S(LVL, L1) |
		       S(LVLNUM, L1) | S(SNOOP, NONE);

	p->pebs_pmem = false;
	/* Skylake: an L1 hit, through the TLB, nothing of blocking. */
	KUNIT_EXPECT_EQ(test, src(p, skl, LDLAT, 0x01),
			l1 | TLB_HIT | S(BLK, NA));
	/* bit 4 the STLB miss, bit 5 the lock; 6 and 7 are not Skylake's */
	KUNIT_EXPECT_EQ(test, src(p, skl, LDLAT, 0x01 | BIT(4) | BIT(5) |
				  BIT(6) | BIT(7)),
			l1 | TLB_MISS | S(LOCK, LOCKED) | S(BLK, NA));
	/* Another core's cache forwarded it, on another node. */
	KUNIT_EXPECT_EQ(test, src(p, skl, LDLAT, 0x0c),
			S(OP, LOAD) | S(LVL, HIT) | S(LVLNUM, ANY_CACHE) |
			S(REMOTE, REMOTE) | S(SNOOPX, FWD) | TLB_HIT |
			S(BLK, NA));
	/* Past the L3: an L4 cache, or a server's persistent memory. */
	KUNIT_EXPECT_EQ(test, src(p, skl, LDLAT, 0x08),
			S(OP, LOAD) | S(LVL, HIT) | S(LVLNUM, L4) |
			S(SNOOP, HIT) | TLB_HIT | S(BLK, NA));
	p->pebs_pmem = true;
	KUNIT_EXPECT_EQ(test, src(p, skl, LDLAT, 0x08),
			S(OP, LOAD) | S(LVL, HIT) | S(LVLNUM, PMEM) |
			S(SNOOP, HIT) | TLB_HIT | S(BLK, NA));
	p->pebs_pmem = false;

	/* Golden Cove: why a load waited; never for a store. */
	KUNIT_EXPECT_EQ(test, src(p, glc, LDLAT, 0x01 | BIT(6)),
			l1 | TLB_HIT | S(BLK, DATA));
	KUNIT_EXPECT_EQ(test, src(p, glc, LDLAT, 0x01 | BIT(6) | BIT(7)),
			l1 | TLB_HIT | S(BLK, DATA) | S(BLK, ADDR));
	KUNIT_EXPECT_EQ(test, src(p, glc, STLAT, 0x01 | BIT(4) | BIT(6)),
			(l1 & ~S(OP, LOAD)) | S(OP, STORE) | TLB_MISS |
			S(BLK, NA));

	/* Gracemont: lock in bit 4, STLB miss in 5; its L3 forward. */
	KUNIT_EXPECT_EQ(test, src(p, &x86c_dse_gracemont, HYBRID_LD,
				  0x08 | BIT(4)),
			S(OP, LOAD) | S(LVL, HIT) | S(LVL, L3) |
			S(LVLNUM, L3) | S(SNOOPX, FWD) | TLB_HIT |
			S(LOCK, LOCKED) | S(BLK, NA));
	KUNIT_EXPECT_EQ(test, src(p, &x86c_dse_gracemont, HYBRID_ST,
				  0x01 | BIT(5) | BIT(6)),
			(l1 & ~S(OP, LOAD)) | S(OP, STORE) | TLB_MISS |
			S(BLK, DATA));

	/* Crestmont: five bits; 0x13 is reserved; 5 lock, 6 TLB, 7 block. */
	KUNIT_EXPECT_EQ(test, src(p, &x86c_dse_crestmont, HYBRID_LD,
				  0x13 | BIT(5) | BIT(6) | BIT(7)),
			S(OP, LOAD) | S(LVLNUM, NA) | S(SNOOP, NA) |
			TLB_MISS | S(LOCK, LOCKED) | S(BLK, DATA));
	KUNIT_EXPECT_EQ(test, src(p, &x86c_dse_crestmont, HYBRID_LD, 0x07),
			S(OP, LOAD) | S(LVL, HIT) | S(LVL, L3) |
			S(LVLNUM, L3) | S(SNOOPX, FWD) | TLB_HIT |
			S(BLK, NA));

	/* Lion Cove: eight bits; the memory-side cache; bits 10-13. */
	KUNIT_EXPECT_EQ(test, src(p, &x86c_dse_lion_cove, HYBRID_LD, 0x10),
			S(OP, LOAD) | S(LVL, HIT) | S(LVLNUM, MSC) |
			S(SNOOP, NONE) | TLB_HIT | S(BLK, NA));
	KUNIT_EXPECT_EQ(test, src(p, &x86c_dse_lion_cove, HYBRID_LD,
				  0x04 | BIT(10) | BIT(11) | BIT(13)),
			S(OP, LOAD) | S(LVLNUM, NA) | S(SNOOP, NA) |
			TLB_MISS | S(LOCK, LOCKED) | S(BLK, ADDR));

	/* The precise loads and stores: only what they were. */
	KUNIT_EXPECT_EQ(test, src(p, skl, PERF_X86_EVENT_PEBS_ST_HSW, 1),
			(PERF_MEM_NA & ~(S(OP, NA) | S(LVL, NA))) |
			S(OP, STORE) | S(LVL, L1) | S(LVL, HIT));
	KUNIT_EXPECT_EQ(test, src(p, skl, PERF_X86_EVENT_PEBS_NA_HSW, 1),
			(u64)PERF_MEM_NA);
	KUNIT_EXPECT_EQ(test, src(p, skl, 0, 0x01), (u64)PERF_MEM_NA);

	/*
	 * A zero field, as our QEMU's records have it: the values the stock
	 * kernel gives (0x81d0, 0x82d0 and 0x02cd sampled on the models).
	 */
	KUNIT_EXPECT_EQ(test, src(p, skl, PERF_X86_EVENT_PEBS_LD_HSW, 0),
			0x1e05080022ULL);
	KUNIT_EXPECT_EQ(test, src(p, skl, PERF_X86_EVENT_PEBS_ST_HSW, 0),
			0x1e05080184ULL);
	KUNIT_EXPECT_EQ(test, src(p, glc, STLAT, 0), 0x10668080084ULL);
}

/* An event of @config (event select and unit mask) at @precise. */
static struct perf_event *mem_event(struct kunit *test, u64 config,
				    u8 precise)
{
	struct perf_event *event;

	event = fake_event(test, -1, config | ARCH_PERFMON_EVENTSEL_USR,
			   1000);
	event->attr.config = config;
	event->attr.precise_ip = precise;
	event->group_leader = event;
	return event;
}

/* The kind the family @name's PMU gives @config at @precise. */
static u32 mem_kind(struct kunit *test, struct x86c_pmu *p,
		    const struct x86c_intel_family *f, u64 config, u8 precise)
{
	struct perf_event *event = mem_event(test, config, precise);

	x86c_pebs_mem_shape(p, f);
	KUNIT_EXPECT_EQ(test, x86c_pebs_mem_config(p, event), 0);
	return event->hw.flags & (PERF_X86_EVENT_PEBS_LDLAT |
				  PERF_X86_EVENT_PEBS_STLAT |
				  PERF_X86_EVENT_PEBS_LAT_HYBRID |
				  PERF_X86_EVENT_PEBS_LD_HSW |
				  PERF_X86_EVENT_PEBS_ST_HSW |
				  PERF_X86_EVENT_PEBS_NA_HSW);
}

static void pebs_mem_kinds(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	const struct x86c_intel_family *skl = fake_family("skylake");
	const struct x86c_intel_family *icl = fake_family("icelake");
	const struct x86c_intel_family *spr = fake_family("sapphire_rapids");
	const struct x86c_intel_family *adl = fake_family("alderlake_hybrid");
	struct perf_event *event, *aux;

	KUNIT_ASSERT_NOT_NULL(test, skl);
	KUNIT_ASSERT_NOT_NULL(test, icl);
	KUNIT_ASSERT_NOT_NULL(test, spr);
	KUNIT_ASSERT_NOT_NULL(test, adl);

	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x01cd, 2), LDLAT);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x81d0, 2),
			PERF_X86_EVENT_PEBS_LD_HSW);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x82d0, 1),
			PERF_X86_EVENT_PEBS_ST_HSW);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x04d1, 2),
			PERF_X86_EVENT_PEBS_LD_HSW);
	/* Locked stores are Skylake's, not Ice Lake's; D4H the other way. */
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x22d0, 2),
			PERF_X86_EVENT_PEBS_ST_HSW);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, icl, 0x22d0, 2), 0U);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x01d4, 2), 0U);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, icl, 0x01d4, 2),
			PERF_X86_EVENT_PEBS_LD_HSW);
	/* A modified code, an event that is not precise: no kind. */
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x81d0 |
				       ARCH_PERFMON_EVENTSEL_INV, 2), 0U);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, skl, 0x81d0, 0), 0U);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, spr, 0x02cd, 2), STLAT);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, adl, 0x01cd, 2), LDLAT);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, adl->atom, 0x05d0, 2),
			HYBRID_LD);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, adl->atom, 0x06d0, 2),
			HYBRID_ST);
	KUNIT_EXPECT_PTR_EQ(test, p->pebs_dse, &x86c_dse_gracemont);
	KUNIT_EXPECT_EQ(test, mem_kind(test, p, adl->atom, 0x01cd, 2), 0U);

	/*
	 * Load latency sampling its data source where the family needs
	 * MEM_LOADS_AUX: refused alone, taken behind that event.
	 */
	p->pebs_loads_aux = true;
	event = mem_event(test, 0x01cd, 2);
	KUNIT_EXPECT_EQ(test, x86c_pebs_mem_config(p, event), 0);
	event->attr.sample_type |= PERF_SAMPLE_DATA_SRC;
	KUNIT_EXPECT_EQ(test, x86c_pebs_mem_config(p, event), -ENODATA);
	aux = mem_event(test, 0x8203, 0);
	event->group_leader = aux;
	KUNIT_EXPECT_EQ(test, x86c_pebs_mem_config(p, event), 0);
	p->pebs_loads_aux = false;
	event->group_leader = event;
	KUNIT_EXPECT_EQ(test, x86c_pebs_mem_config(p, event), 0);
}

#define MEM_TEST_ADDR	0x7ffdada000ULL
#define MEM_TEST_AX	((0x42ULL << 24) | 1)	/* an XABORT(0x42)'s RAX */
/* TSX tuning: 300 cycles, an RTM abort (PERF_TXN_TRANSACTION's bit) */
#define MEM_TEST_TSX	((u64)PERF_TXN_TRANSACTION << 32 | 300)

/* A format 4 record: basic, memory and registers groups. */
struct mem_test_record {
	struct pebs_basic	basic;
	struct pebs_meminfo	mem;
	struct pebs_gprs	gprs;
};

static void pebs_mem_samples(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	const struct x86c_intel_family *spr = fake_family("sapphire_rapids");
	struct perf_sample_data data;
	struct mem_test_record *rec;
	struct perf_event *event;
	struct x86c_pebs_view v;
	u64 fmt3[25] = {};

	KUNIT_ASSERT_NOT_NULL(test, spr);
	rec = kunit_kzalloc(test, sizeof(*rec), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	p->pebs_format = 4;
	x86c_pebs_mem_shape(p, spr);

	rec->basic.format_group = PEBS_DATACFG_MEMINFO | PEBS_DATACFG_GP;
	rec->basic.format_size = sizeof(*rec);
	rec->basic.applicable_counters = BIT_ULL(0);
	rec->mem.address = MEM_TEST_ADDR;
	rec->mem.aux = 0x01;
	/* Golden Cove: the cache latency 40, the instruction's 7 */
	rec->mem.mem_latency = (40ULL << 32) | 7;
	rec->mem.tsx_tuning = MEM_TEST_TSX;
	rec->gprs.ax = MEM_TEST_AX;
	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, rec, (void *)(rec + 1), &v));
	KUNIT_EXPECT_TRUE(test, v.mem);

	event = mem_event(test, 0x01cd, 2);
	KUNIT_ASSERT_EQ(test, x86c_pebs_mem_config(p, event), 0);
	event->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
				  PERF_SAMPLE_DATA_SRC |
				  PERF_SAMPLE_WEIGHT_STRUCT |
				  PERF_SAMPLE_TRANSACTION;
	perf_sample_data_init(&data, 0, 1000);
	x86c_pebs_mem_sample(p, event, &v, &data);
	KUNIT_EXPECT_EQ(test, data.addr, MEM_TEST_ADDR);
	KUNIT_EXPECT_EQ(test, data.data_src.val,
			x86c_pebs_data_src(p, LDLAT, 0x01));
	KUNIT_EXPECT_EQ(test, data.weight.var1_dw, 40U);
	KUNIT_EXPECT_EQ(test, data.weight.var2_w, 7U);
	KUNIT_EXPECT_EQ(test, data.txn, (u64)PERF_TXN_TRANSACTION |
			(0x42ULL << PERF_TXN_ABORT_SHIFT));
	KUNIT_EXPECT_EQ(test, data.sample_flags & (PERF_SAMPLE_ADDR |
			PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT_TYPE |
			PERF_SAMPLE_TRANSACTION),
			PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC |
			PERF_SAMPLE_WEIGHT_TYPE | PERF_SAMPLE_TRANSACTION);

	/* No latency: the aborted transaction's cycles weigh. */
	rec->mem.mem_latency = 0;
	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, rec, (void *)(rec + 1), &v));
	event->attr.sample_type = PERF_SAMPLE_WEIGHT;
	perf_sample_data_init(&data, 0, 1000);
	x86c_pebs_mem_sample(p, event, &v, &data);
	KUNIT_EXPECT_EQ(test, data.weight.full, 300ULL);

	/* A record without the memory group gives nothing. */
	rec->basic.format_group = PEBS_DATACFG_GP;
	rec->basic.format_size = sizeof(rec->basic) + sizeof(rec->gprs);
	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, rec, (void *)(rec + 1), &v));
	KUNIT_EXPECT_FALSE(test, v.mem);
	perf_sample_data_init(&data, 0, 1000);
	x86c_pebs_mem_sample(p, event, &v, &data);
	KUNIT_EXPECT_FALSE(test, data.sample_flags & PERF_SAMPLE_WEIGHT_TYPE);

	/*
	 * Format 3 (Skylake): address, source, latency and TSX words at
	 * 19-21 and 23; the latency weighs only for load latency.
	 */
	p->pebs_format = 3;
	x86c_pebs_mem_shape(p, fake_family("skylake"));
	fmt3[2] = MEM_TEST_AX;
	fmt3[18] = BIT_ULL(0);
	fmt3[19] = MEM_TEST_ADDR;
	fmt3[20] = 0x03;
	fmt3[21] = 55;
	fmt3[23] = MEM_TEST_TSX;
	KUNIT_ASSERT_TRUE(test, x86c_pebs_decode(p, fmt3, fmt3 + 25, &v));
	event = mem_event(test, 0x01cd, 2);
	KUNIT_ASSERT_EQ(test, x86c_pebs_mem_config(p, event), 0);
	event->attr.sample_type = PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT |
				  PERF_SAMPLE_DATA_SRC;
	perf_sample_data_init(&data, 0, 1000);
	x86c_pebs_mem_sample(p, event, &v, &data);
	KUNIT_EXPECT_EQ(test, data.addr, MEM_TEST_ADDR);
	KUNIT_EXPECT_EQ(test, data.weight.full, 55ULL);
	KUNIT_EXPECT_EQ(test, data.data_src.val,
			S(OP, LOAD) | S(LVL, HIT) | S(LVL, L2) | S(LVLNUM, L2) |
			S(SNOOP, NONE) | TLB_HIT | S(BLK, NA));
	event = mem_event(test, 0x81d0, 2);
	KUNIT_ASSERT_EQ(test, x86c_pebs_mem_config(p, event), 0);
	event->attr.sample_type = PERF_SAMPLE_WEIGHT;
	perf_sample_data_init(&data, 0, 1000);
	x86c_pebs_mem_sample(p, event, &v, &data);
	KUNIT_EXPECT_EQ(test, data.weight.full, 300ULL);
}

/* The memory group goes into PEBS_DATA_CFG with an event that needs it. */
static void pebs_mem_group(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct x86c_cpu *cpu = ctx->cpu;
	struct debug_store *ds;
	struct perf_event *event;

	ds = kunit_kzalloc(test, sizeof(*ds), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ds);
	cpu->ds = ds;
	p->pebs = true;
	p->pebs_format = 4;
	p->max_precise = 2;

	event = mem_event(test, 0x81d0, 2);
	event->attr.sample_period = 1000;
	event->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PHYS_ADDR;
	KUNIT_ASSERT_EQ(test, x86c_pebs_config(p, event), 0);
	event->hw.idx = 0;
	cpu->owner[0] = event;
	x86c_pebs_on(p, cpu, 0);
	KUNIT_EXPECT_EQ(test, x86c_fake->pebs_data_cfg, PEBS_DATACFG_MEMINFO);
	x86c_pebs_off(p, cpu, 0);

	event->attr.sample_type = PERF_SAMPLE_IP;
	x86c_pebs_on(p, cpu, 0);
	KUNIT_EXPECT_EQ(test, x86c_fake->pebs_data_cfg, 0ULL);
	x86c_pebs_off(p, cpu, 0);
	cpu->owner[0] = NULL;
	cpu->ds = NULL;
}

static struct kunit_case pebs_mem_cases[] = {
	KUNIT_CASE(pebs_mem_sources),
	KUNIT_CASE(pebs_mem_kinds),
	KUNIT_CASE(pebs_mem_samples),
	KUNIT_CASE(pebs_mem_group),
	{}
};

static struct kunit_suite pebs_mem_suite = {
	.name = "perfcore_x86_pebs_mem",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = pebs_mem_cases,
};

kunit_test_suite(pebs_mem_suite);
