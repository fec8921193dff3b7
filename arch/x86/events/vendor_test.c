// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: what a vendor driver adds to the x86 framework, on the model of
 * the registers in counters_test.c: AMD's HostOnly handling, paired
 * counters and family 15h constraints; Intel's hybrid parts and their
 * topdown metrics, and the TSX workaround's counter 3.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/perf_event.h>
#include <linux/slab.h>

#include "counters.h"
#include "counters_test.h"

/* ---- AMD: HostOnly while SVM is off -------------------------------- */

#ifdef CONFIG_CPU_SUP_AMD
/*
 * KVM turns SVM on and off one CPU at a time, and with SVM off HostOnly
 * would stop the counter.  So each CPU strips it until SVM is on there:
 * a counter running on that CPU gets it back at once, another CPU keeps
 * stripping it, and SVM off strips it again.  With one mask for all
 * CPUs, one CPU's SVM going off changed what every other one counted.
 */
static void amd_host_only_per_cpu(struct kunit *test)
{
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0x76;
	struct counters_ctx *ctx = test->priv;
	struct x86c_cpu *here = ctx->cpu, *other;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *event;

	other = kunit_kzalloc(test, sizeof(*other), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, other);
	/* The legacy layout: four counters, no global control. */
	p->virt_mask = AMD_HOST_ONLY;
	fake_as_amd(p, &x86c_amd_vendor, 0);
	x86c_cpu_reset(p, here);
	x86c_cpu_reset(p, other);

	/* An event that excludes the guest, running on counter 1. */
	event = fake_event(test, 1, config | AMD_HOST_ONLY, 1000);
	event->hw.config_base = M_K7_EVTSEL0 + 1;
	event->hw.event_base = M_K7_PERFCTR0 + 1;
	here->owner[1] = event;
	here->owned = BIT_ULL(1);
	here->running = BIT_ULL(1);
	x86c_program_each(p, here);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[1], config | EVTSEL_EN);

	local_irq_disable();
	x86c_set_virt_mask(p, here, 0);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[1],
			config | AMD_HOST_ONLY | EVTSEL_EN);
	KUNIT_EXPECT_EQ(test, other->virt_mask, AMD_HOST_ONLY);

	local_irq_disable();
	x86c_set_virt_mask(p, here, p->virt_mask);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[1], config | EVTSEL_EN);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[0] | x86c_fake->evtsel[2] |
			      x86c_fake->evtsel[3], 0ULL);
}

/*
 * AMD family 17h on: a paired event takes an even counter and the odd
 * one after it.  Placed one at a time, nothing else goes on the odd
 * one; a second pair does not fit beside a pair and another event on
 * four counters.  Programmed, the odd counter gets the count's sign
 * extension and the Merge event while the pair runs, and is cleared
 * with it.
 */
static void amd_paired_counters(struct kunit *test)
{
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0x03;
	const u64 merge = 0xfULL << 32 | 0xff | EVTSEL_EN;
	struct event_constraint pair = {
		.idxmsk64 = 0x5, .weight = 2, .flags = PERF_X86_EVENT_PAIR,
	};
	struct counters_ctx *ctx = test->priv;
	struct x86c_cpu *cpu = ctx->cpu;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *event;

	fake_as_amd(p, &x86c_amd_vendor, 0);
	x86c_cpu_reset(p, cpu);

	cpu->constraint[0] = &pair;
	cpu->nr = 1;
	KUNIT_ASSERT_EQ(test, x86c_place(p, cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu->assign[0], 0);
	cpu->constraint[1] = &p->any_gp;
	cpu->nr = 2;
	KUNIT_ASSERT_EQ(test, x86c_place(p, cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu->assign[1], 2);
	cpu->constraint[2] = &pair;
	cpu->nr = 3;
	KUNIT_EXPECT_EQ(test, x86c_place(p, cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpu->placed, 2);

	event = fake_event(test, 0, config, 1000);
	event->hw.flags |= PERF_X86_EVENT_PAIR;
	event->hw.config_base = M_K7_EVTSEL0;
	cpu->owner[0] = event;
	x86c_event_set_period(p, event);
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[0], FAKE_MASK - 999);
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[1], 0xffffULL);
	p->vendor->program(p, cpu, 0, config);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[0], config | EVTSEL_EN);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[1], merge);
	p->vendor->unprogram(p, cpu, 0);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[0], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[1], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[2] | x86c_fake->evtsel[3], 0ULL);
}

/*
 * AMD family 15h: the counters an event may use, by its unit, its code
 * and, for 0x000, 0x004 and 0x031, its unit mask.  The table covers
 * every code: no config reaches the unconstrained default.
 */
static void amd_f15h_constraints(struct kunit *test)
{
	static const struct { u64 config, counters; } rows[] = {
		{ 0x010, 0x38 }, { 0x000, 0x38 }, { 0x0f00, 0x38 },
		{ 0xf000, 0x38 }, { 0x1100, 0x08 }, { 0x003, 0x08 },
		{ 0x0104, 0x38 }, { 0x0304, 0x08 }, { 0x020, 0x3f },
		{ 0x0c0, 0x3f }, { 0x1ULL << 32 | 0x23, 0x3f }, { 0x023, 0x07 },
		{ 0x02d, 0x08 }, { 0x02e, 0x09 }, { 0x0431, 0x07 },
		{ 0x0631, 0 }, { 0x1ULL << 32 | 0xc0, 0x38 },
		{ 0x1ULL << 32 | 0xc1, 0x3f }, { 0x060, 0x07 }, { 0x0d0, 0x07 },
		{ 0x08f, 0x01 }, { 0x1ULL << 32 | 0x8f, 0x07 },
		{ 0x1ULL << 32 | 0x87, 0x01 }, { 0x0dd, 0x3f },
		{ 0x1ULL << 32 | 0xd8, 0x3f }, { 0x0e9, 0 }, { 0x0a0, 0 },
	};
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct event_constraint *c;
	int i;

	fake_as_amd(p, &x86c_amd_vendor, 0);
	p->table = x86c_amd_f15h_table;
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		u64 config = rows[i].config | EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;

		c = x86c_constraint(p, config);
		KUNIT_EXPECT_PTR_NE_MSG(test, c, &p->any_gp,
					"config %#llx", rows[i].config);
		KUNIT_EXPECT_EQ_MSG(test, c->idxmsk64, rows[i].counters,
				    "config %#llx", rows[i].config);
	}
	/* Every row within the six counters, its weight its count. */
	for (c = x86c_amd_f15h_table; c->cmask; c++) {
		KUNIT_EXPECT_EQ(test, c->idxmsk64 & ~GENMASK_ULL(5, 0), 0ULL);
		KUNIT_EXPECT_EQ(test, c->weight, hweight64(c->idxmsk64));
	}
}
#endif

/* ---- hybrid parts and topdown -------------------------------------- */

/*
 * A hybrid part's PMUs from the one CPUID describes: the P-cores get two
 * general-purpose counters more and fixed counter 3 (topdown slots), the
 * E-cores keep CPUID's, and each kind gets its own tables; CPUID giving
 * the P-cores' eight already (E-cores off) adds nothing.
 */
static void intel_hybrid_split(struct kunit *test)
{
	static struct event_constraint core_table[] = {
		X86C_EVENT_CONSTRAINT(0x01, 0x0f),
		X86C_CONSTRAINT_END
	};
	static struct event_constraint core_pebs[] = {
		X86C_UEVENT_CONSTRAINT(0x01cd, 0xfe),
		X86C_CONSTRAINT_END
	};
	static const struct x86c_intel_family atom_family = {
		.name	= "test_hybrid",
		.event_map = { [PERF_COUNT_HW_REF_CPU_CYCLES] = 0x013c },
		.pebs_pdist = X86C_PDIST_EITHER0,
	};
	static const struct x86c_intel_family core_family = {
		.name		= "test_hybrid",
		.constraints	= core_table,
		.core_more_gp	= 2,
		.core_more_fixed = BIT_ULL(3),
		.pebs_constraints = core_pebs,
		.pebs_pdist	= X86C_PDIST_COUNTER0,
		.pebs_pdist_floor = true,
		.atom		= &atom_family,
	};
	/* A later part whose P-cores CPUID 0AH describes as they are. */
	static const struct x86c_intel_family plain_family = {
		.name		= "test_hybrid_plain",
		.atom		= &atom_family,
	};
	/* Leaf 23H's counters on either kind (fixed 2 absent on the P-core). */
	static const struct x86c_kind_counters core_ext = {
		.core_type = X86C_INTEL_CORE, .gp = 0xff, .fixed = 0xb,
	};
	static const struct x86c_kind_counters atom_ext = {
		.core_type = X86C_INTEL_ATOM, .gp = 0xff, .fixed = 0x7,
	};
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p, *atom;

	atom = kunit_kzalloc(test, sizeof(*atom), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, atom);
	p->num_gp = 6;
	p->fixed_present = GENMASK_ULL(2, 0);
	p->table = core_table;
	p->events_mask_len = 7;
	x86c_intel_split_hybrid(p, atom, &core_family, NULL);
	x86c_init_limits(p);
	x86c_init_limits(atom);

	KUNIT_EXPECT_STREQ(test, p->name, "cpu_core");
	KUNIT_EXPECT_EQ(test, p->core_type, X86C_INTEL_CORE);
	KUNIT_EXPECT_EQ(test, p->num_gp, 8);
	KUNIT_EXPECT_EQ(test, p->num_fixed, 4);
	KUNIT_EXPECT_EQ(test, p->nr_fixed_events, 4);
	KUNIT_EXPECT_EQ(test, p->fixed[3].code, 0x0400ULL);
	KUNIT_EXPECT_EQ(test, p->fixed[3].idxmsk64, BIT_ULL(FIX(3)));
	KUNIT_EXPECT_EQ(test, p->all_mask, 0xf000000ffULL);
	KUNIT_EXPECT_PTR_EQ(test, p->table, &core_table[0]);

	KUNIT_EXPECT_STREQ(test, atom->name, "cpu_atom");
	KUNIT_EXPECT_EQ(test, atom->core_type, X86C_INTEL_ATOM);
	KUNIT_EXPECT_EQ(test, atom->num_gp, 6);
	KUNIT_EXPECT_EQ(test, atom->num_fixed, 3);
	KUNIT_EXPECT_EQ(test, atom->all_mask, 0x70000003fULL);
	KUNIT_EXPECT_NULL(test, atom->table);
	KUNIT_EXPECT_EQ(test, atom->event_map[PERF_COUNT_HW_REF_CPU_CYCLES],
			0x013cULL);
	KUNIT_EXPECT_PTR_EQ(test, atom->hw, p->hw);

	/* E-cores off: CPUID has the P-cores' counters already. */
	p->num_gp = 8;
	p->fixed_present = GENMASK_ULL(3, 0);
	x86c_intel_split_hybrid(p, atom, &core_family, NULL);
	KUNIT_EXPECT_EQ(test, p->num_gp, 8);
	KUNIT_EXPECT_EQ(test, p->num_fixed, 4);

	/* A family with nothing more: both kinds get CPUID's counters. */
	p->num_gp = 6;
	p->fixed_present = GENMASK_ULL(2, 0);
	x86c_intel_split_hybrid(p, atom, &plain_family, NULL);
	KUNIT_EXPECT_EQ(test, p->num_gp, 6);
	KUNIT_EXPECT_EQ(test, p->num_fixed, 3);
	KUNIT_EXPECT_EQ(test, atom->num_gp, 6);

	/*
	 * CPUID leaf 23H on a P-core boot CPU: the P-cores get what it
	 * says, not the family's additions; the E-cores CPUID 0AH's.
	 */
	x86c_intel_split_hybrid(p, atom, &core_family, &core_ext);
	KUNIT_EXPECT_EQ(test, p->num_gp, 8);
	KUNIT_EXPECT_EQ(test, p->fixed_present, 0xbULL);
	KUNIT_EXPECT_EQ(test, p->nr_fixed_events, 3);
	KUNIT_EXPECT_EQ(test, atom->num_gp, 6);
	KUNIT_EXPECT_EQ(test, atom->fixed_present, 0x7ULL);
	/* On an E-core boot CPU, the E-cores do. */
	p->num_gp = 6;
	p->fixed_present = GENMASK_ULL(2, 0);
	x86c_intel_split_hybrid(p, atom, &plain_family, &atom_ext);
	KUNIT_EXPECT_EQ(test, p->num_gp, 6);
	KUNIT_EXPECT_EQ(test, atom->num_gp, 8);
	KUNIT_EXPECT_EQ(test, atom->fixed_present, 0x7ULL);

	/*
	 * PEBS probed on the P-cores' family: the E-cores take the same
	 * record format with their own family's table and precise rules.
	 */
	p->perf_capabilities = PERF_CAP_PEBS_BASELINE | (4ULL << 8);
	KUNIT_ASSERT_TRUE(test, x86c_pebs_shape(p, &core_family, 4, true));
	p->pebs = true;
	x86c_intel_split_hybrid(p, atom, &core_family, NULL);
	KUNIT_EXPECT_PTR_EQ(test, p->pebs_table, &core_pebs[0]);
	KUNIT_EXPECT_EQ(test, p->pebs_pdist, X86C_PDIST_COUNTER0);
	KUNIT_EXPECT_TRUE(test, p->pebs_pdist_floor);
	KUNIT_EXPECT_TRUE(test, atom->pebs);
	KUNIT_EXPECT_EQ(test, atom->pebs_format, 4);
	KUNIT_EXPECT_NULL(test, atom->pebs_table);
	KUNIT_EXPECT_EQ(test, atom->pebs_pdist, X86C_PDIST_EITHER0);
	KUNIT_EXPECT_FALSE(test, atom->pebs_pdist_floor);
	KUNIT_EXPECT_EQ(test, atom->max_precise, 3);
}

/*
 * Lunar Lake's P-cores have ten general-purpose counters, as CPUID leaf
 * 23H says on the boot CPU: all ten are driven (and scheduled: ten
 * events of any counter fit, an eleventh does not), a row naming
 * counters 2-9 (Lion Cove's load-latency event) keeps all eight after
 * the limits narrow the table, and a leaf naming more counters than we
 * drive is cut to those.
 */
static void intel_ten_counter_core(struct kunit *test)
{
	static struct event_constraint lnc_table[] = {
		X86C_UEVENT_CONSTRAINT(0x01cd, 0x3fc),
		X86C_CONSTRAINT_END
	};
	static const struct x86c_intel_family atom_family = {
		.name	= "test_ten",
	};
	static const struct x86c_intel_family lnc_family = {
		.name		= "test_ten",
		.constraints	= lnc_table,
		.atom		= &atom_family,
	};
	static const struct x86c_kind_counters lnc_ext = {
		.core_type = X86C_INTEL_CORE, .gp = 0x3ff, .fixed = 0xf,
	};
	static const struct x86c_kind_counters wider_ext = {
		.core_type = X86C_INTEL_CORE, .gp = 0xfff, .fixed = 0xf,
	};
	struct counters_ctx *ctx = test->priv;
	struct x86c_cpu *cpu = ctx->cpu;
	struct x86c_pmu *p = ctx->p, *atom;
	int i;

	atom = kunit_kzalloc(test, sizeof(*atom), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, atom);
	p->num_gp = 8;
	p->fixed_present = GENMASK_ULL(2, 0);
	p->table = lnc_table;
	x86c_intel_split_hybrid(p, atom, &lnc_family, &lnc_ext);
	x86c_init_limits(p);

	KUNIT_EXPECT_EQ(test, p->num_gp, 10);
	KUNIT_EXPECT_EQ(test, p->any_gp.idxmsk64, 0x3ffULL);
	KUNIT_EXPECT_EQ(test, p->all_mask, 0xf000003ffULL);
	KUNIT_EXPECT_EQ(test, lnc_table[0].idxmsk64, 0x3fcULL);
	KUNIT_EXPECT_EQ(test, lnc_table[0].weight, 8);
	KUNIT_EXPECT_EQ(test, atom->num_gp, 8);

	/* The load-latency event and nine others: each its own counter. */
	cpu->constraint[0] = &lnc_table[0];
	for (i = 1; i < 10; i++)
		cpu->constraint[i] = &p->any_gp;
	cpu->nr = 10;
	cpu->placed = 0;
	KUNIT_ASSERT_EQ(test, x86c_place(p, cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu->placed, 10);
	KUNIT_EXPECT_GE(test, cpu->assign[0], 2);
	for (i = 1; i < 10; i++)
		KUNIT_EXPECT_LT(test, cpu->assign[i], 10);
	cpu->constraint[10] = &p->any_gp;
	cpu->nr = 11;
	KUNIT_EXPECT_EQ(test, x86c_place(p, cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpu->placed, 10);

	x86c_intel_split_hybrid(p, atom, &lnc_family, &wider_ext);
	KUNIT_EXPECT_EQ(test, p->num_gp, X86C_MAX_GP);
}

/* What CPUID leaf 23H says on a Skymont E-core of Lunar Lake. */
static void skymont_counters(struct x86c_pmu *p)
{
	static const struct x86c_kind_counters skt_ext = {
		.core_type = X86C_INTEL_ATOM, .gp = 0xff, .fixed = 0x77,
	};

	x86c_intel_take_counters(p, &skt_ext);
}

/*
 * The E-cores of a hybrid part whose boot CPU is a P-core are sized on
 * the first E-core to come up, from what it says there (eight
 * general-purpose counters where CPUID 0AH gave every kind six, and
 * fixed counters 0-2 and 4-6): until then their table keeps the rows
 * as the family wrote them, since a row narrowed to six counters could
 * not grow back.  Skymont's fixed counters 4-6 take its level-1 topdown
 * events, beside eight events on the general-purpose counters.
 */
static void intel_kind_sized_late(struct kunit *test)
{
	static struct event_constraint skt_table[] = {
		X86C_FIXED_CONSTRAINT(0x013c, 2),
		X86C_CONSTRAINT_END
	};
	static const struct x86c_intel_family skt_family = {
		.name		= "test_skt",
		.constraints	= skt_table,
	};
	static const struct x86c_intel_family lnc_family = {
		.name		= "test_lnc",
		.atom		= &skt_family,
	};
	static const struct x86c_kind_counters lnc_ext = {
		.core_type = X86C_INTEL_CORE, .gp = 0x3ff, .fixed = 0xf,
	};
	static const u64 topdown[] = { 0x0073, 0x019c, 0x02c2 };
	const u64 bits = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;
	struct counters_ctx *ctx = test->priv;
	struct x86c_cpu *cpu = ctx->cpu;
	struct x86c_pmu *p = ctx->p, *atom;
	struct x86c_vendor *vendor;
	int i;

	atom = kunit_kzalloc(test, sizeof(*atom), GFP_KERNEL);
	vendor = kunit_kzalloc(test, sizeof(*vendor), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, atom);
	KUNIT_ASSERT_NOT_NULL(test, vendor);
	p->num_gp = 6;
	p->fixed_present = GENMASK_ULL(2, 0);
	x86c_intel_split_hybrid(p, atom, &lnc_family, &lnc_ext);
	KUNIT_EXPECT_FALSE(test, p->shape_pending);
	KUNIT_ASSERT_TRUE(test, atom->shape_pending);
	x86c_init_limits(atom);
	KUNIT_EXPECT_EQ(test, atom->num_gp, 6);
	KUNIT_EXPECT_EQ(test, skt_table[0].idxmsk64,
			BIT_ULL(FIX(2)) | GENMASK_ULL(X86C_MAX_GP - 1, 0));

	*vendor = *atom->vendor;
	vendor->kind_counters = skymont_counters;
	atom->vendor = vendor;
	x86c_size_kind(atom, 1);
	KUNIT_EXPECT_FALSE(test, atom->shape_pending);
	KUNIT_EXPECT_EQ(test, atom->num_gp, 8);
	KUNIT_EXPECT_EQ(test, atom->num_fixed, 7);
	KUNIT_EXPECT_EQ(test, atom->nr_fixed_events, 6);
	KUNIT_EXPECT_EQ(test, atom->all_mask, 0x77000000ffULL);
	KUNIT_EXPECT_EQ(test, skt_table[0].idxmsk64, BIT_ULL(FIX(2)) | 0xff);

	/* Eight events on any counter and the three topdown ones: all fit. */
	for (i = 0; i < 8; i++)
		cpu->constraint[i] = &atom->any_gp;
	for (i = 0; i < ARRAY_SIZE(topdown); i++) {
		struct event_constraint *c;

		c = x86c_constraint(atom, topdown[i] | bits);
		KUNIT_EXPECT_EQ(test, c->idxmsk64, BIT_ULL(FIX(4 + i)) | 0xff);
		cpu->constraint[8 + i] = c;
	}
	cpu->nr = 8 + ARRAY_SIZE(topdown);
	cpu->placed = 0;
	KUNIT_ASSERT_EQ(test, x86c_place(atom, cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu->placed, cpu->nr);
	for (i = 0; i < ARRAY_SIZE(topdown); i++)
		KUNIT_EXPECT_EQ(test, cpu->assign[8 + i], FIX(4 + i));
}

/* Intel's transactional filters, as the SDM numbers them. */
#define EVTSEL_IN_TX		BIT_ULL(32)
#define EVTSEL_IN_TXCP		BIT_ULL(33)
#define EVTSEL_CMASK1		BIT_ULL(24)

/*
 * A fixed counter counts its code and nothing else: an event of that
 * code with a bit that changes what is counted (invert, a threshold,
 * the transactional filters) takes a general-purpose counter, whether
 * the code is a fixed counter's own or a family's row.  An event with
 * IN_TX_CHECKPOINTED counts on general-purpose counter 2 alone where
 * the PMU takes the filters, and nowhere when its code may not use
 * counter 2; where it does not (AMD: event select bit 9), the bit
 * changes nothing.
 */
static void intel_exact_fixed_and_checkpointed(struct kunit *test)
{
	static struct event_constraint table[] = {
		X86C_FIXED_CONSTRAINT(0x013c, 2),
		X86C_UEVENT_CONSTRAINT(0x01cd, 0x3),
		X86C_CONSTRAINT_END
	};
	static const struct x86c_kind_counters v2 = {
		.gp = 0xf, .fixed = 0x7,
	};
	const u64 bits = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct event_constraint *c;

	x86c_intel_take_counters(p, &v2);
	p->table = table;
	x86c_init_limits(p);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x00c0 | bits),
			    &p->fixed[0]);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x013c | bits), &table[0]);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x00c0 | bits |
						  EVTSEL_CMASK1), &p->any_gp);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x013c | bits |
						  EVTSEL_INV), &p->any_gp);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x00c0 | bits |
						  EVTSEL_IN_TX), &p->any_gp);

	p->in_tx = false;
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x00c4 | bits |
						  EVTSEL_IN_TXCP), &p->any_gp);
	p->in_tx = true;
	c = x86c_constraint(p, 0x00c4 | bits | EVTSEL_IN_TXCP);
	KUNIT_EXPECT_EQ(test, c->idxmsk64, BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, c->weight, 1);
	c = x86c_constraint(p, 0x003c | bits | EVTSEL_IN_TX | EVTSEL_IN_TXCP);
	KUNIT_EXPECT_EQ(test, c->idxmsk64, BIT_ULL(2));
	c = x86c_constraint(p, 0x01cd | bits | EVTSEL_IN_TXCP);
	KUNIT_EXPECT_EQ(test, c->weight, 0);
}

/*
 * A topdown group: the metrics are placed on their own indexes, and a
 * fold credits the slots leader with the slots and each metric with its
 * share, then clears both registers, so that a second fold adds nothing.
 */
static void intel_topdown_fold(struct kunit *test)
{
	const u64 bits = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct x86c_cpu *cpu = ctx->cpu;
	struct perf_event *slots, *ret, *bad;

	p->nr_metrics = 2;
	x86c_init_limits(p);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, bits | 0x8100),
			    &p->metric[1]);
	KUNIT_EXPECT_EQ(test, p->metric[1].idxmsk64,
			BIT_ULL(INTEL_PMC_IDX_METRIC_BASE + 1));
	/* Beyond the metrics this CPU has: an ordinary code. */
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, bits | 0x8200), &p->any_gp);

	slots = fake_event(test, FIX(3), bits | 0x0400, 0);
	ret = fake_event(test, INTEL_PMC_IDX_METRIC_BASE, bits | 0x8000, 0);
	bad = fake_event(test, INTEL_PMC_IDX_METRIC_BASE + 1, bits | 0x8100, 0);
	slots->hw.flags |= PERF_X86_EVENT_TOPDOWN;
	ret->hw.flags |= PERF_X86_EVENT_TOPDOWN;
	bad->hw.flags |= PERF_X86_EVENT_TOPDOWN;
	cpu->owner[FIX(3)] = slots;
	cpu->owner[INTEL_PMC_IDX_METRIC_BASE] = ret;
	cpu->owner[INTEL_PMC_IDX_METRIC_BASE + 1] = bad;

	x86c_fake->slots = 1000;
	x86c_fake->metrics = 0x40 << 8 | 0xbf;
	KUNIT_EXPECT_EQ(test, intel_topdown_update(p, cpu), 1000ULL);
	KUNIT_EXPECT_EQ(test, ev_count(slots), 1000ULL);
	KUNIT_EXPECT_EQ(test, ev_count(ret), 1000ULL * 0xbf / 0xff);
	KUNIT_EXPECT_EQ(test, ev_count(bad), 1000ULL * 0x40 / 0xff);
	KUNIT_EXPECT_EQ(test, x86c_fake->slots, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->metrics, 0ULL);

	KUNIT_EXPECT_EQ(test, intel_topdown_update(p, cpu), 0ULL);
	KUNIT_EXPECT_EQ(test, ev_count(slots), 1000ULL);

	/*
	 * A metric has no control to program; the enable sets
	 * EN_PERF_METRICS beside every counter's bit.
	 */
	x86c_fake->has_metrics = true;
	p->vendor->program(p, cpu, INTEL_PMC_IDX_METRIC_BASE, bits | 0x8000);
	p->vendor->unprogram(p, cpu, INTEL_PMC_IDX_METRIC_BASE);
	p->vendor->enable_all(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl,
			p->all_mask | BIT_ULL(48));

	/* Starting the leader starts both registers from zero. */
	x86c_fake->slots = 5;
	x86c_fake->metrics = 0xff;
	intel_topdown_start(p, ret);
	KUNIT_EXPECT_EQ(test, x86c_fake->slots, 5ULL);
	intel_topdown_start(p, slots);
	KUNIT_EXPECT_EQ(test, x86c_fake->slots, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->metrics, 0ULL);
}

/*
 * A Skylake client whose microcode takes counter 3 for TSX: the driver
 * sets RTM_FORCE_ABORT before it enables counter 3 (the model fails the
 * case otherwise), clears it once counter 3 is free at an enable, and
 * leaves it alone for the other counters.  Withholding counter 3 (what
 * allow_tsx_force_abort=0 does) narrows every constraint that names it,
 * one that names it alone to none, and giving it back restores them.
 */
static void intel_tsx_force_abort(struct kunit *test)
{
	static struct event_constraint table[] = {
		X86C_EVENT_CONSTRAINT(0x48, 0x8),	/* counter 3 only */
		X86C_EVENT_CONSTRAINT(0xa3, 0xc),
		X86C_CONSTRAINT_END
	};
	const u64 bits = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;
	struct x86c_cpu *cpu = ctx->cpu;
	struct event_constraint *c;

	p->table = table;
	x86c_init_limits(p);
	p->tsx_force_abort = true;
	x86c_fake->has_tfa = true;
	x86c_fake->tfa = 1;
	x86c_intel_v2_vendor.cpu_starting(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->tfa, 0ULL);

	x86c_intel_v2_vendor.program(p, cpu, 2, bits | 0xc4);
	KUNIT_EXPECT_EQ(test, x86c_fake->tfa, 0ULL);
	x86c_intel_v2_vendor.program(p, cpu, 3, bits | 0xc4);
	KUNIT_EXPECT_EQ(test, x86c_fake->tfa, 1ULL);
	cpu->owned = BIT_ULL(2) | BIT_ULL(3);
	x86c_intel_v2_vendor.enable_all(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->tfa, 1ULL);
	x86c_intel_v2_vendor.unprogram(p, cpu, 3);
	cpu->owned = BIT_ULL(2);
	x86c_intel_v2_vendor.enable_all(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->tfa, 0ULL);

	KUNIT_ASSERT_EQ(test, x86c_withhold(p, BIT_ULL(3)), 0);
	c = x86c_constraint(p, bits | 0xc4);
	KUNIT_EXPECT_EQ(test, c->idxmsk64, 0x7ULL);
	KUNIT_EXPECT_EQ(test, c->weight, 3);
	KUNIT_EXPECT_EQ(test, x86c_constraint(p, bits | 0xa3)->idxmsk64, 0x4ULL);
	KUNIT_EXPECT_EQ(test, x86c_constraint(p, bits | 0x48)->weight, 0);
	/* A fixed counter's event keeps it, and loses counter 3. */
	c = x86c_constraint(p, bits | 0xc0);
	KUNIT_EXPECT_EQ(test, c->idxmsk64, BIT_ULL(FIX(0)) | 0x7);
	KUNIT_EXPECT_EQ(test, x86c_withhold(p, BIT_ULL(2)), -EINVAL);

	KUNIT_ASSERT_EQ(test, x86c_withhold(p, 0), 0);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, bits | 0xc4), &p->any_gp);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, bits | 0x48), &table[0]);
	KUNIT_EXPECT_EQ(test, table[0].weight, 1);
	kfree(p->narrowed);
	p->narrowed = NULL;
}

static struct kunit_case vendor_cases[] = {
#ifdef CONFIG_CPU_SUP_AMD
	KUNIT_CASE(amd_host_only_per_cpu),
	KUNIT_CASE(amd_paired_counters),
	KUNIT_CASE(amd_f15h_constraints),
#endif
	KUNIT_CASE(intel_hybrid_split),
	KUNIT_CASE(intel_ten_counter_core),
	KUNIT_CASE(intel_kind_sized_late),
	KUNIT_CASE(intel_exact_fixed_and_checkpointed),
	KUNIT_CASE(intel_topdown_fold),
	KUNIT_CASE(intel_tsx_force_abort),
	{}
};

static struct kunit_suite vendor_suite = {
	.name = "perfcore_x86_vendors",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = vendor_cases,
};

kunit_test_suite(vendor_suite);
