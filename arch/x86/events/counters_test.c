// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the x86 core counter framework and the Intel perfmon v2 driver
 * against a model of the hardware, which this file holds for
 * vendor_test.c's cases too (AMD's HostOnly handling and paired
 * counters, Intel's hybrid parts and topdown metrics).
 *
 * The framework reaches MSRs and RDPMC only through struct x86c_hw_ops,
 * so a register file in memory can stand in for the CPU: four general
 * and three fixed 48-bit counters at Intel's addresses, IA32_PERFEVTSELx,
 * IA32_FIXED_CTR_CTRL and the global control, status and overflow
 * registers, DEBUGCTL, a P-core's slots counter and PERF_METRICS, the
 * last branch records of either kind (branches_test.c), and the LVTPC
 * mask.  The cases then run the
 * framework's own functions (counter loads, updates, stop, overflow by
 * sign, limits and constraints, the PMI handler) and the driver's
 * program, unprogram and DEBUGCTL setup, and check exactly what reached
 * each register and each event.  None of this needs a PMU in the guest,
 * so it also runs on the boots without one; one case looks at the real
 * DEBUGCTL where the boot has an Intel PMU.
 *
 * The PMI cases use counting events only: a sampling one would go on to
 * perf_event_overflow(), which these bare events cannot take.
 */

#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/bits.h>
#include <linux/cpu.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/perf_event.h>

#include <asm/msr.h>
#include <asm/nmi.h>

#include "counters.h"
#include "counters_test.h"

/*
 * The ops take no context: they find the register file of the case
 * running here.  KUnit runs one case at a time.
 */
struct fake_hw *x86c_fake;

/* An access the model has no register for: the CPU would #GP. */
static void fake_bad(const char *what, u32 msr, u64 val)
{
	struct kunit *test = kunit_get_current_test();

	if (test)
		KUNIT_FAIL(test, "%s of %#x (%#llx): not in the model",
			   what, msr, val);
}

/* The @overflowing counters still enabled flag their overflow again. */
static void fake_overflow_again(void)
{
	int i;

	for (i = 0; i < FAKE_GP; i++)
		if ((x86c_fake->overflowing & BIT_ULL(i)) &&
		    (x86c_fake->evtsel[i] & EVTSEL_EN))
			x86c_fake->global_status |= BIT_ULL(i);
}

/* The records take one more branch, the youngest. */
static void fake_lbr_branch(u64 from, u64 to)
{
	struct fake_hw *hw = x86c_fake;
	int top = 0;

	if (hw->lbr_arch) {
		memmove(&hw->lbr_from[1], hw->lbr_from,
			(FAKE_LBR - 1) * sizeof(u64));
		memmove(&hw->lbr_to[1], hw->lbr_to, (FAKE_LBR - 1) * sizeof(u64));
		memmove(&hw->lbr_info[1], hw->lbr_info,
			(FAKE_LBR - 1) * sizeof(u64));
	} else {
		hw->lbr_tos = (hw->lbr_tos + 1) % FAKE_LBR;
		top = hw->lbr_tos;
	}
	hw->lbr_from[top] = from;
	hw->lbr_to[top] = to;
	hw->lbr_info[top] = 0;
}

/* Where last branch record register @msr is kept, or NULL. */
static u64 *fake_lbr_reg(u32 msr)
{
	bool arch = x86c_fake->lbr_arch;
	u32 from = arch ? M_ARCH_LBR_FROM : M_LBR_FROM;
	u32 to = arch ? M_ARCH_LBR_TO : M_LBR_TO;
	u32 info = arch ? M_ARCH_LBR_INFO : M_LBR_INFO;

	if (msr >= from && msr < from + FAKE_LBR)
		return &x86c_fake->lbr_from[msr - from];
	if (msr >= to && msr < to + FAKE_LBR)
		return &x86c_fake->lbr_to[msr - to];
	if (msr >= info && msr < info + FAKE_LBR)
		return &x86c_fake->lbr_info[msr - info];
	if (arch && msr == M_ARCH_LBR_CTL)
		return &x86c_fake->lbr_ctl;
	if (arch && msr == M_ARCH_LBR_DEPTH)
		return &x86c_fake->lbr_depth;
	if (!arch && msr == M_LBR_SELECT)
		return &x86c_fake->lbr_select;
	if (!arch && msr == M_LBR_TOS)
		return &x86c_fake->lbr_tos;
	return NULL;
}

/* Where @msr is kept, or NULL.  The counters are handled apart. */
static u64 *fake_reg(u32 msr)
{
	if (msr >= M_EVTSEL0 && msr < M_EVTSEL0 + FAKE_GP)
		return &x86c_fake->evtsel[msr - M_EVTSEL0];
	if (msr >= M_K7_EVTSEL0 && msr < M_K7_EVTSEL0 + FAKE_GP)
		return &x86c_fake->evtsel[msr - M_K7_EVTSEL0];
	switch (msr) {
	case M_FIXED_CTR_CTRL:
		return &x86c_fake->fixed_ctrl;
	case M_GLOBAL_CTRL:
	case M_AMD_GLOBAL_CTL:
		return &x86c_fake->global_ctrl;
	case M_GLOBAL_STATUS:
	case M_AMD_GLOBAL_STATUS:
		return &x86c_fake->global_status;
	case M_DEBUGCTL:
		return &x86c_fake->debugctl;
	case M_FIXED_CTR3:
		return &x86c_fake->slots;
	case M_PERF_METRICS:
		return &x86c_fake->metrics;
	case M_TSX_FORCE_ABORT:
		return x86c_fake->has_tfa ? &x86c_fake->tfa : NULL;
	case M_PEBS_ENABLE:
		return &x86c_fake->pebs_enable;
	case M_PEBS_DATA_CFG:
		return &x86c_fake->pebs_data_cfg;
	}
	return fake_lbr_reg(msr);
}

/* A counter's storage by MSR; *legacy set for the 32-bit write alias. */
static u64 *fake_counter(u32 msr, bool *legacy)
{
	*legacy = false;
	if (msr >= M_A_PMC0 && msr < M_A_PMC0 + FAKE_GP)
		return &x86c_fake->gp[msr - M_A_PMC0];
	if (msr >= M_FIXED_CTR0 && msr < M_FIXED_CTR0 + FAKE_FIXED)
		return &x86c_fake->fixed[msr - M_FIXED_CTR0];
	if (msr >= M_K7_PERFCTR0 && msr < M_K7_PERFCTR0 + FAKE_GP)
		return &x86c_fake->gp[msr - M_K7_PERFCTR0];
	if (msr >= M_PERFCTR0 && msr < M_PERFCTR0 + FAKE_GP) {
		*legacy = true;
		return &x86c_fake->gp[msr - M_PERFCTR0];
	}
	return NULL;
}

static u64 fake_read_msr(u32 msr)
{
	bool legacy;
	u64 *reg = fake_counter(msr, &legacy);

	if (!reg)
		reg = fake_reg(msr);
	if (!reg) {
		fake_bad("read", msr, 0);
		return 0;
	}
	return *reg;
}

static void fake_write_msr(u32 msr, u64 val)
{
	bool legacy;
	u64 *reg = fake_counter(msr, &legacy);

	if (reg)
		x86c_fake->ctrl_at_load = x86c_fake->global_ctrl;
	if (reg && x86c_fake->counters_dead)
		return;
	if (reg && legacy) {
		/* Only the low 32 bits are written, bit 31 sign-extended. */
		*reg = (u64)(s64)(s32)lower_32_bits(val) & FAKE_MASK;
		return;
	}
	if (reg) {
		/* Bits above the width are reserved: the CPU would #GP. */
		if (val & ~FAKE_MASK)
			fake_bad("reserved bits in a write", msr, val);
		*reg = val & FAKE_MASK;
		return;
	}
	if (msr == M_AMD_GLOBAL_STATUS_CLR) {
		/* AMD ignores the reserved bits of a write. */
		x86c_fake->global_status &= ~(val & FAKE_CTRL_BITS);
		return;
	}
	if (msr == M_GLOBAL_OVF_CTRL) {
		/*
		 * The counters' bits, and OvfBuf and CondChgd; the rest are
		 * reserved (or name features the model lacks): #GP.
		 */
		if (val & ~(FAKE_OVF_CTRL_BITS |
			    (x86c_fake->lbr_frz ? STATUS_LBR_FRZ : 0)))
			fake_bad("reserved bits in a write", msr, val);
		if (val & x86c_fake->global_status & STATUS_LBR_FRZ)
			fake_lbr_branch(FAKE_HANDLER_BRANCH,
					FAKE_HANDLER_BRANCH + 0x40);
		x86c_fake->global_status &= ~val;
		fake_overflow_again();
		return;
	}
	if (msr == M_GLOBAL_STATUS || msr == M_AMD_GLOBAL_STATUS) {
		fake_bad("write (read-only)", msr, val);
		return;
	}
	if (msr == M_GLOBAL_CTRL &&
	    (val & ~(FAKE_CTRL_BITS |
		     (x86c_fake->has_metrics ? BIT_ULL(48) : 0))))
		fake_bad("reserved bits in a write", msr, val);
	if (msr == M_DEBUGCTL && (val & x86c_fake->debugctl_refused)) {
		fake_bad("refused bits in a write", msr, val);
		return;
	}
	if (msr == M_EVTSEL0 + 3 && (val & EVTSEL_EN) && x86c_fake->has_tfa &&
	    !(x86c_fake->tfa & BIT_ULL(0)))
		fake_bad("counter 3 enabled while TSX may take it", msr, val);
	if (msr == M_TSX_FORCE_ABORT && (val & ~BIT_ULL(0)))
		fake_bad("reserved bits in a write", msr, val);
	reg = fake_reg(msr);
	if (!reg) {
		fake_bad("write", msr, val);
		return;
	}
	x86c_fake->fixed_ctrl_writes += msr == M_FIXED_CTR_CTRL;
	x86c_fake->rec_ctl_writes += msr == M_DEBUGCTL ||
				     (x86c_fake->lbr_arch ? msr == M_ARCH_LBR_CTL :
				      msr == M_LBR_SELECT);
	*reg = val;
	/* A write of Architectural LBR's depth clears the records. */
	if (x86c_fake->lbr_arch && msr == M_ARCH_LBR_DEPTH) {
		memset(x86c_fake->lbr_from, 0, sizeof(x86c_fake->lbr_from));
		memset(x86c_fake->lbr_to, 0, sizeof(x86c_fake->lbr_to));
		memset(x86c_fake->lbr_info, 0, sizeof(x86c_fake->lbr_info));
	}
}

static int fake_read_msr_safe(u32 msr, u64 *val)
{
	*val = fake_read_msr(msr);
	return 0;
}

/* As fake_write_msr(), but a refused write is the caller's to handle. */
static int fake_write_msr_safe(u32 msr, u64 val)
{
	if (msr == M_DEBUGCTL && (val & x86c_fake->debugctl_refused))
		return -EIO;
	fake_write_msr(msr, val);
	return 0;
}

static u64 fake_read_pmc(u32 ecx)
{
	u32 i = ecx & ~RDPMC_FIXED;

	if (ecx == RDPMC_METRICS)
		return x86c_fake->metrics;
	if (ecx & RDPMC_FIXED) {
		if (i < FAKE_FIXED)
			return x86c_fake->fixed[i];
		if (i == 3)
			return x86c_fake->slots;
	} else if (i < FAKE_GP) {
		return x86c_fake->gp[i];
	}
	fake_bad("RDPMC", ecx, 0);
	return 0;
}

static void fake_unmask_pmi(void)
{
	x86c_fake->masked = false;
	x86c_fake->unmasks++;
	x86c_fake->ctrl_at_unmask = x86c_fake->global_ctrl;
}

static const struct x86c_hw_ops fake_hw_ops = {
	.read_msr	= fake_read_msr,
	.read_msr_safe	= fake_read_msr_safe,
	.write_msr	= fake_write_msr,
	.write_msr_safe	= fake_write_msr_safe,
	.read_pmc	= fake_read_pmc,
	.unmask_pmi	= fake_unmask_pmi,
};

/* Counter @idx counts @n events: it wraps at 48 bits, flagging overflow. */
void fake_count(int idx, u64 n)
{
	u64 *c = x86c_is_fixed(idx) ? &x86c_fake->fixed[idx - INTEL_PMC_IDX_FIXED] :
				      &x86c_fake->gp[idx];

	if (*c + n > FAKE_MASK)
		x86c_fake->global_status |= BIT_ULL(idx);
	*c = (*c + n) & FAKE_MASK;
}

/*
 * The CPU raises the PMI for an overflow: with the freeze on, all stop,
 * and the APIC masks the LVTPC as it delivers the NMI.
 */
void fake_pmi(void)
{
	if (x86c_fake->debugctl & DBG_FREEZE_ON_PMI)
		x86c_fake->global_ctrl = 0;
	x86c_fake->masked = true;
}

/* ---- fixture ------------------------------------------------------- */

/*
 * The PMU as the Intel probe fills it for perfmon v2 with full-width
 * writes: 4 + 3 counters of 48 bits, one constraint per fixed counter
 * (instructions, cycles, and reference cycles, a pseudo-code no general
 * counter can count).  x86c_init_limits() derives the rest.
 */
int counters_test_init(struct kunit *test)
{
	static const u64 fixed_codes[FAKE_FIXED] = { 0x00c0, 0x003c, 0x0300 };
	struct counters_ctx *ctx;
	struct x86c_pmu *p;
	int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx);
	ctx->p = kunit_kzalloc(test, sizeof(*ctx->p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->p);
	ctx->cpu = kunit_kzalloc(test, sizeof(*ctx->cpu), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ctx->cpu);

	p = ctx->p;
	p->vendor = &x86c_intel_v2_vendor;
	p->hw = &fake_hw_ops;
	p->version = 2;
	p->num_gp = FAKE_GP;
	p->num_fixed = FAKE_FIXED;
	p->width = FAKE_WIDTH;
	p->gp_ctl = M_EVTSEL0;
	p->gp_ctr = M_A_PMC0;
	p->gp_stride = 1;
	p->fixed_ctr = M_FIXED_CTR0;
	p->raw_mask = X86_RAW_EVENT_MASK;
	for (i = 0; i < FAKE_FIXED; i++) {
		p->fixed[i] = (struct event_constraint) {
			.idxmsk64 = BIT_ULL(FIX(i)),
			.code = fixed_codes[i],
			.cmask = X86C_FIXED_CMASK,
		};
	}
	p->nr_fixed_events = FAKE_FIXED;
	x86c_init_limits(p);

	x86c_fake = &ctx->hw;
	test->priv = ctx;
	return 0;
}

void counters_test_exit(struct kunit *test)
{
	x86c_fake = NULL;
}

/* The Intel family called @name, or NULL. */
const struct x86c_intel_family *fake_family(const char *name)
{
	const struct x86c_intel_family *const *f;

	for (f = x86c_intel_families; *f; f++)
		if (!strcmp((*f)->name, name))
			return *f;
	return NULL;
}

/*
 * A bare event on counter @idx, its register fields as binding it to
 * the counter sets them and its period as event creation sets it.
 * Only hw and count are used: with no ring buffer (rb NULL),
 * perf_event_update_userpage() returns at once.
 */
struct perf_event *fake_event(struct kunit *test, int idx, u64 config,
			      u64 period)
{
	struct counters_ctx *ctx = test->priv;
	struct perf_event *event;
	struct hw_perf_event *hwc;

	event = kunit_kzalloc(test, sizeof(*event), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, event);
	hwc = &event->hw;
	hwc->idx = idx;
	hwc->config = config;
	if (x86c_is_fixed(idx)) {
		hwc->config_base = M_FIXED_CTR_CTRL;
		hwc->event_base = M_FIXED_CTR0 + idx - INTEL_PMC_IDX_FIXED;
		hwc->event_base_rdpmc = RDPMC_FIXED | (idx - INTEL_PMC_IDX_FIXED);
	} else {
		hwc->config_base = M_EVTSEL0 + idx;
		hwc->event_base = ctx->p->gp_ctr + idx;
		hwc->event_base_rdpmc = idx;
	}
	hwc->sample_period = period;
	hwc->last_period = period;
	local64_set(&hwc->period_left, period);
	return event;
}

/* ---- limits and constraints ---------------------------------------- */

static void counters_init_limits(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;

	KUNIT_EXPECT_EQ(test, p->cntval_mask, 0xffffffffffffULL);
	KUNIT_EXPECT_EQ(test, p->max_period, 0x7fffffffffffULL);
	KUNIT_EXPECT_EQ(test, p->all_mask, 0x70000000fULL);
	/* Instructions and cycles: their fixed counter or any general one. */
	KUNIT_EXPECT_EQ(test, p->fixed[0].idxmsk64, 0x10000000fULL);
	KUNIT_EXPECT_EQ(test, p->fixed[0].weight, 5);
	KUNIT_EXPECT_EQ(test, p->fixed[1].idxmsk64, 0x20000000fULL);
	KUNIT_EXPECT_EQ(test, p->fixed[1].weight, 5);
	/* Reference cycles' pseudo-code: fixed counter 2 alone. */
	KUNIT_EXPECT_EQ(test, p->fixed[2].idxmsk64, 0x400000000ULL);
	KUNIT_EXPECT_EQ(test, p->fixed[2].weight, 1);
	KUNIT_EXPECT_EQ(test, p->any_gp.idxmsk64, 0xfULL);
	KUNIT_EXPECT_EQ(test, p->any_gp.weight, 4);
}

/* The bits outside the event code (USR, OS, INT, EN) match any constraint. */
static void counters_constraint(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;

	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x5300c0), &p->fixed[0]);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x13003c), &p->fixed[1]);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x530300), &p->fixed[2]);
	/* Another unit mask is another event. */
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x5301c0), &p->any_gp);
	KUNIT_EXPECT_PTR_EQ(test, x86c_constraint(p, 0x5300c4), &p->any_gp);
}

/* ---- placing events on counters ------------------------------------ */

/*
 * A group added in one transaction that fits beside the events already
 * on counters leaves those where they are: moving one means stopping
 * it and loading another counter for nothing.  Here a full placement
 * would move both (the lighter {0, 1} event first takes counter 0),
 * so the case fails if x86c_place() placed the list again.  A group
 * that does not fit so still gets the arrangement that fits.
 */
static void counters_place_keeps_placed(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct event_constraint low2 = { .idxmsk64 = 0x3, .weight = 2 };
	struct event_constraint only0 = { .idxmsk64 = 0x1, .weight = 1 };
	struct x86c_cpu *cpu = ctx->cpu;
	struct x86c_pmu *p = ctx->p;

	/* Placed one at a time: any GP on 0, then {0, 1} on 1. */
	cpu->constraint[0] = &p->any_gp;
	cpu->constraint[1] = &low2;
	cpu->assign[0] = 0;
	cpu->assign[1] = 1;
	cpu->nr = 2;
	cpu->placed = 2;

	/* A transaction of two more. */
	cpu->constraint[2] = &p->any_gp;
	cpu->constraint[3] = &p->fixed[0];
	cpu->nr = 4;
	KUNIT_ASSERT_EQ(test, x86c_place(p, cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu->placed, 4);
	KUNIT_EXPECT_EQ(test, cpu->assign[0], 0);
	KUNIT_EXPECT_EQ(test, cpu->assign[1], 1);
	KUNIT_EXPECT_EQ(test, cpu->assign[2], 2);
	KUNIT_EXPECT_EQ(test, cpu->assign[3], FIX(0));

	/* Counter 0 only: the others make room. */
	cpu->constraint[4] = &only0;
	cpu->nr = 5;
	KUNIT_ASSERT_EQ(test, x86c_place(p, cpu), 0);
	KUNIT_EXPECT_EQ(test, cpu->placed, 5);
	KUNIT_EXPECT_EQ(test, cpu->assign[4], 0);
	KUNIT_EXPECT_EQ(test, cpu->assign[3], FIX(0));

	/* One more any-GP event: five on four GP counters cannot be. */
	cpu->constraint[5] = &p->any_gp;
	cpu->constraint[6] = &p->any_gp;
	cpu->nr = 7;
	KUNIT_EXPECT_EQ(test, x86c_place(p, cpu), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpu->placed, 5);
	KUNIT_EXPECT_EQ(test, cpu->assign[4], 0);
}

/*
 * Hyper-Threading's exclusive events (ht_excl.c): two threads of a core
 * place on one struct x86c_ht_core.  Thread 0's exclusive event takes a
 * counter the other thread then cannot use at all, and while it is
 * there each thread has half the general-purpose counters: three events
 * on thread 1 do not fit, two do, off counter 0.  A second exclusive
 * event on thread 0 avoids the two thread 1 uses; a third event there
 * is one more than half.  Once thread 0's events are gone
 * (x86c_ht_publish() after a removal), thread 1 takes all four.
 */
static void counters_ht_excl_sibling(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct event_constraint excl = {
		.idxmsk64 = 0xf, .weight = 4, .flags = PERF_X86_EVENT_EXCL,
	};
	struct x86c_cpu *t0 = ctx->cpu, *t1;
	struct x86c_pmu *p = ctx->p;
	struct x86c_ht_core *core;
	int i;

	t1 = kunit_kzalloc(test, sizeof(*t1), GFP_KERNEL);
	core = kunit_kzalloc(test, sizeof(*core), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t1);
	KUNIT_ASSERT_NOT_NULL(test, core);
	raw_spin_lock_init(&core->lock);
	t0->ht = core;
	t0->ht_thread = 0;
	t1->ht = core;
	t1->ht_thread = 1;

	t0->constraint[0] = &excl;
	t0->nr = 1;
	KUNIT_ASSERT_EQ(test, x86c_place(p, t0), 0);
	KUNIT_EXPECT_EQ(test, t0->assign[0], 0);
	KUNIT_EXPECT_EQ(test, core->excl[0], BIT_ULL(0));

	for (i = 0; i < 4; i++)
		t1->constraint[i] = &p->any_gp;
	t1->nr = 3;
	KUNIT_EXPECT_EQ(test, x86c_place(p, t1), -EINVAL);
	KUNIT_EXPECT_EQ(test, t1->placed, 0);
	KUNIT_EXPECT_EQ(test, core->used[1], 0ULL);
	t1->nr = 2;
	KUNIT_ASSERT_EQ(test, x86c_place(p, t1), 0);
	KUNIT_EXPECT_EQ(test, core->used[1], GENMASK_ULL(2, 1));

	t0->constraint[1] = &excl;
	t0->nr = 2;
	KUNIT_ASSERT_EQ(test, x86c_place(p, t0), 0);
	KUNIT_EXPECT_EQ(test, t0->assign[1], 3);
	KUNIT_EXPECT_EQ(test, core->excl[0], BIT_ULL(0) | BIT_ULL(3));
	t0->constraint[2] = &p->any_gp;
	t0->nr = 3;
	KUNIT_EXPECT_EQ(test, x86c_place(p, t0), -EINVAL);
	KUNIT_EXPECT_EQ(test, t0->placed, 2);

	t0->nr = 0;
	t0->placed = 0;
	x86c_ht_publish(t0);
	KUNIT_EXPECT_EQ(test, core->used[0], 0ULL);
	KUNIT_EXPECT_EQ(test, core->excl[0], 0ULL);
	t1->nr = 4;
	KUNIT_EXPECT_EQ(test, x86c_place(p, t1), 0);
	t0->ht = NULL;
}

/* ---- loads and updates --------------------------------------------- */

/*
 * A sampling event of period 1000 on general counter 0: the load, two
 * updates (part way, then at the overflow), and the reload at the end
 * of the period.
 */
static void counters_period_and_update(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct perf_event *event = fake_event(test, 0, 0x1300c0, 1000);

	KUNIT_EXPECT_FALSE(test, x86c_event_set_period(ctx->p, event));
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[0], 0xfffffffffc18ULL);
	/* prev_count is kept sign-extended, 64-bit -1000. */
	KUNIT_EXPECT_EQ(test, ev_prev(event), 0xfffffffffffffc18ULL);

	fake_count(0, 300);
	KUNIT_EXPECT_EQ(test, x86c_event_update(ctx->p, event),
			0xfffffffffd44ULL);
	KUNIT_EXPECT_EQ(test, ev_count(event), 300ULL);
	KUNIT_EXPECT_EQ(test, ev_left(event), 700LL);
	KUNIT_EXPECT_EQ(test, ev_prev(event), 0xfffffffffd44ULL);

	fake_count(0, 700);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, x86c_event_update(ctx->p, event), 0ULL);
	KUNIT_EXPECT_EQ(test, ev_count(event), 1000ULL);
	KUNIT_EXPECT_EQ(test, ev_left(event), 0LL);

	/* Period over: a sample, and a whole period loaded again. */
	KUNIT_EXPECT_TRUE(test, x86c_event_set_period(ctx->p, event));
	KUNIT_EXPECT_EQ(test, ev_left(event), 1000LL);
	KUNIT_EXPECT_EQ(test, event->hw.last_period, 1000ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[0], 0xfffffffffc18ULL);
	/* Nothing else was touched. */
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[1], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[0], 0ULL);
}

/*
 * A counting event (period = max period, as event creation sets it) on
 * fixed counter 1 runs through the 48-bit wrap, 5 counts past the
 * overflow before the update sees it: nothing is lost, and those 5 come
 * off the next load.
 */
static void counters_update_across_wrap(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct perf_event *event = fake_event(test, FIX(1), 0x13003c,
					      FAKE_MAX_PERIOD);
	u64 total;

	KUNIT_EXPECT_FALSE(test, x86c_event_set_period(ctx->p, event));
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed[1], 0x800000000001ULL);

	fake_count(FIX(1), FAKE_MAX_PERIOD - 5);
	KUNIT_EXPECT_EQ(test, x86c_event_update(ctx->p, event),
			0xfffffffffffbULL);
	KUNIT_EXPECT_EQ(test, ev_count(event), FAKE_MAX_PERIOD - 5);
	KUNIT_EXPECT_EQ(test, ev_left(event), 5LL);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, 0ULL);

	fake_count(FIX(1), 10);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed[1], 5ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, BIT_ULL(FIX(1)));
	KUNIT_EXPECT_EQ(test, x86c_event_update(ctx->p, event), 5ULL);
	total = FAKE_MAX_PERIOD + 5;
	KUNIT_EXPECT_EQ(test, ev_count(event), total);
	KUNIT_EXPECT_EQ(test, ev_left(event), -5LL);

	KUNIT_EXPECT_TRUE(test, x86c_event_set_period(ctx->p, event));
	KUNIT_EXPECT_EQ(test, ev_left(event), (s64)FAKE_MAX_PERIOD - 5);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed[1], 0x800000000006ULL);
	KUNIT_EXPECT_EQ(test, ev_prev(event), 0xffff800000000006ULL);

	/* The next update counts from the new load, not from the old one. */
	fake_count(FIX(1), 42);
	x86c_event_update(ctx->p, event);
	KUNIT_EXPECT_EQ(test, ev_count(event), total + 42);
}

/*
 * Without full-width writes (the probe then counts through IA32_PMCx and
 * caps the period at 2^31 - 1) a period longer than that is counted in
 * several loads.  Each 32-bit write, sign-extended by the model as by
 * the CPU, must leave the counter at minus the load in 48 bits, and the
 * sample comes only with the last overflow.
 */
static void counters_legacy_long_period(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 period = 2 * LEGACY_MAX_PERIOD + 100;
	const u64 loads[] = { LEGACY_MAX_PERIOD, LEGACY_MAX_PERIOD, 100 };
	const u64 expect_ctr[] = { 0xffff80000001ULL, 0xffff80000001ULL,
				   0xffffffffff9cULL };
	struct perf_event *event;
	u64 counted = 0;
	int i;

	ctx->p->gp_ctr = M_PERFCTR0;
	ctx->p->max_period = LEGACY_MAX_PERIOD;
	event = fake_event(test, 2, 0x1300c0, period);

	for (i = 0; i < ARRAY_SIZE(loads); i++) {
		KUNIT_EXPECT_FALSE_MSG(test, x86c_event_set_period(ctx->p, event),
				       "load %d", i);
		KUNIT_EXPECT_EQ_MSG(test, x86c_fake->gp[2], expect_ctr[i], "load %d", i);
		fake_count(2, loads[i]);
		KUNIT_EXPECT_EQ_MSG(test, x86c_fake->gp[2], 0ULL, "load %d", i);
		x86c_event_update(ctx->p, event);
		counted += loads[i];
		KUNIT_EXPECT_EQ_MSG(test, ev_count(event), counted, "load %d", i);
		KUNIT_EXPECT_EQ_MSG(test, ev_left(event), (s64)(period - counted),
				    "load %d", i);
	}
	KUNIT_EXPECT_EQ(test, counted, period);
	KUNIT_EXPECT_TRUE(test, x86c_event_set_period(ctx->p, event));
	KUNIT_EXPECT_EQ(test, ev_left(event), (s64)period);
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[2], 0xffff80000001ULL);
}

/* ---- overflow ------------------------------------------------------- */

/*
 * Version 1 has no status register: a running counter whose top bit
 * cleared wrapped.  Counters not running never count, whatever they
 * hold.
 */
static void counters_overflowed_by_sign(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_cpu *cpu = ctx->cpu;
	const int idx[] = { 0, 3, FIX(0) };
	struct perf_event *event;
	int i;

	for (i = 0; i < ARRAY_SIZE(idx); i++) {
		event = fake_event(test, idx[i], 0x1300c0, 100);
		x86c_event_set_period(ctx->p, event);
		cpu->owner[idx[i]] = event;
		cpu->running |= BIT_ULL(idx[i]);
	}
	/* General counter 1 holds 0 (top bit clear) but is not running. */
	KUNIT_EXPECT_EQ(test, x86c_overflowed_by_sign(ctx->p, cpu), 0ULL);

	fake_count(3, 100);
	KUNIT_EXPECT_EQ(test, x86c_overflowed_by_sign(ctx->p, cpu), BIT_ULL(3));
	fake_count(FIX(0), 150);
	fake_count(0, 99);
	KUNIT_EXPECT_EQ(test, x86c_overflowed_by_sign(ctx->p, cpu),
			BIT_ULL(3) | BIT_ULL(FIX(0)));

	cpu->running &= ~BIT_ULL(3);
	KUNIT_EXPECT_EQ(test, x86c_overflowed_by_sign(ctx->p, cpu),
			BIT_ULL(FIX(0)));
}

/* Version 2: GLOBAL_STATUS says which; OVF_CTRL clears what it is told. */
static void intel_overflowed_and_ack(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_vendor *v = &x86c_intel_v2_vendor;
	struct perf_event *a = fake_event(test, 1, 0x1300c0, 10);
	struct perf_event *b = fake_event(test, FIX(2), 0x130300, 10);

	x86c_event_set_period(ctx->p, a);
	x86c_event_set_period(ctx->p, b);
	KUNIT_EXPECT_EQ(test, v->overflowed(ctx->p, ctx->cpu), 0ULL);
	fake_count(1, 10);
	fake_count(FIX(2), 10);
	KUNIT_EXPECT_EQ(test, v->overflowed(ctx->p, ctx->cpu),
			BIT_ULL(1) | BIT_ULL(FIX(2)));
	v->ack(ctx->p, ctx->cpu, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, v->overflowed(ctx->p, ctx->cpu), BIT_ULL(FIX(2)));
	v->ack(ctx->p, ctx->cpu, BIT_ULL(FIX(2)));
	KUNIT_EXPECT_EQ(test, v->overflowed(ctx->p, ctx->cpu), 0ULL);
}

/*
 * A CPU coming up (or back from suspend) with overflows pending, left by
 * firmware or by the kernel before a kexec: the reset clears them, and
 * writes GLOBAL_OVF_CTRL no bit the PMU lacks (the CPU would raise #GP:
 * "unchecked MSR access error: WRMSR to 0x390" at every CPU's bring-up,
 * issue 23).  Then the global control is on and nothing is programmed.
 */
static void counters_cpu_reset_acks_what_exists(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;

	x86c_fake->global_status = BIT_ULL(0) | BIT_ULL(FIX(1));
	x86c_fake->evtsel[2] = EVTSEL_EN | 0xc0;
	x86c_fake->fixed_ctrl = 0x3;
	x86c_cpu_reset(ctx->p, ctx->cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, ctx->p->all_mask);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[2], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0ULL);
	KUNIT_EXPECT_EQ(test, ctx->cpu->owned, 0ULL);
}

/* ---- the Intel driver's controls ------------------------------------ */

/*
 * IA32_FIXED_CTR_CTRL: 4 bits per fixed counter, OS bit 0, USR bit 1,
 * AnyThread bit 2, PMI bit 3.  Programming one counter keeps the
 * others' bits.  While disabled, one write at the enable (or none).
 */
static void intel_fixed_ctrl_bits(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_vendor *v = &x86c_intel_v2_vendor;
	struct x86c_cpu *cpu = ctx->cpu;
	struct x86c_pmu *p = ctx->p;
	int writes;

	v->program(p, cpu, FIX(1), EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0x3c);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0xb0ULL);
	KUNIT_EXPECT_EQ(test, cpu->fixed_ctrl, 0xb0ULL);

	v->program(p, cpu, FIX(0), EVTSEL_USR | EVTSEL_INT | 0xc0);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0xbaULL);

	v->program(p, cpu, FIX(2), EVTSEL_OS | EVTSEL_ANY | 0x0300);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0x5baULL);

	/* Reprogrammed: its old nibble goes. */
	v->program(p, cpu, FIX(1), EVTSEL_OS | 0x3c);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0x51aULL);

	v->unprogram(p, cpu, FIX(0));
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0x510ULL);
	v->unprogram(p, cpu, FIX(2));
	v->unprogram(p, cpu, FIX(1));
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0ULL);
	KUNIT_EXPECT_EQ(test, cpu->fixed_ctrl, 0ULL);

	/*
	 * While the counters are disabled a change waits for the enable,
	 * which writes the register once, and not at all when the fixed
	 * counters end up as they were (a group taken off and put back).
	 */
	writes = x86c_fake->fixed_ctrl_writes;
	cpu->disabled = true;
	v->program(p, cpu, FIX(0), EVTSEL_USR | 0xc0);
	v->program(p, cpu, FIX(1), EVTSEL_USR | 0x3c);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0ULL);
	cpu->disabled = false;
	v->enable_all(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0x22ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl_writes, writes + 1);
	cpu->disabled = true;
	v->unprogram(p, cpu, FIX(1));
	v->program(p, cpu, FIX(1), EVTSEL_USR | 0x3c);
	cpu->disabled = false;
	v->enable_all(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl_writes, writes + 1);

	/* Fixed counters have no event select. */
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[0] | x86c_fake->evtsel[1] |
			      x86c_fake->evtsel[2] | x86c_fake->evtsel[3], 0ULL);
}

/*
 * A general counter's IA32_PERFEVTSELx gets the control whole plus the
 * enable bit (22): with GLOBAL_CTRL gating, a programmed counter is
 * always armed.
 */
static void intel_gp_evtsel(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_vendor *v = &x86c_intel_v2_vendor;
	struct x86c_cpu *cpu = ctx->cpu;
	struct x86c_pmu *p = ctx->p;

	v->program(p, cpu, 2, EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc0);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[2], 0x5300c0ULL);
	/* Counter mask 1, invert, unit mask 0x4f: passed through as they are. */
	v->program(p, cpu, 3, 0x01000000 | EVTSEL_INV | EVTSEL_INT |
			      EVTSEL_OS | EVTSEL_USR | 0x4f2e);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[3], 0x01d34f2eULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[0] | x86c_fake->evtsel[1], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed_ctrl, 0ULL);

	v->unprogram(p, cpu, 2);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[2], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[3], 0x01d34f2eULL);

	/* Every counter the PMU has, on and off at once. */
	v->enable_all(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, 0x70000000fULL);
	v->disable_all(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, 0ULL);
}

/*
 * x86c_stop() with PERF_EF_UPDATE: the counter's control cleared, the
 * count folded in once, and a second stop adds nothing even though the
 * counter moved since (it is no longer the event's).
 */
static void counters_stop_folds_once(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc0;
	struct x86c_cpu *cpu = ctx->cpu;
	struct perf_event *event = fake_event(test, 1, config, 500);

	x86c_event_set_period(ctx->p, event);
	x86c_intel_v2_vendor.program(ctx->p, cpu, 1, config);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[1], 0x5300c0ULL);
	cpu->owner[1] = event;
	cpu->owned |= BIT_ULL(1);
	cpu->running |= BIT_ULL(1);
	event->hw.state = 0;

	fake_count(1, 123);
	x86c_stop(ctx->p, cpu, event, PERF_EF_UPDATE);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[1], 0ULL);
	KUNIT_EXPECT_EQ(test, cpu->running, 0ULL);
	KUNIT_EXPECT_EQ(test, event->hw.state,
			PERF_HES_STOPPED | PERF_HES_UPTODATE);
	KUNIT_EXPECT_EQ(test, ev_count(event), 123ULL);
	KUNIT_EXPECT_EQ(test, ev_left(event), 377LL);

	fake_count(1, 5);
	x86c_stop(ctx->p, cpu, event, PERF_EF_UPDATE);
	KUNIT_EXPECT_EQ(test, ev_count(event), 123ULL);
}

/* ---- DEBUGCTL and the PMI ------------------------------------------ */

/*
 * The driver owns two DEBUGCTL bits: FREEZE_IN_SMM (the freeze_on_smi
 * knob, 1 at boot) and FREEZE_PERFMON_ON_PMI where the PMU freezes on
 * PMI.  Anything else there (here BTF, as a ptraced task's block
 * stepping sets it) stays.
 */
static void intel_debugctl_bits(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_vendor *v = &x86c_intel_v2_vendor;

	x86c_fake->debugctl = DBG_BTF;
	ctx->p->pmi_freezes = true;
	v->cpu_starting(ctx->p, ctx->cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl,
			DBG_BTF | DBG_FREEZE_ON_PMI | DBG_FREEZE_IN_SMM);

	/* A PMU without it clears a freeze that firmware may have left on. */
	ctx->p->pmi_freezes = false;
	v->cpu_starting(ctx->p, ctx->cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl, DBG_BTF | DBG_FREEZE_IN_SMM);
}

/*
 * A KVM guest: DEBUGCTL refuses both freeze bits (KVM grants only BTF,
 * LBR and bus-lock detection).  Bringing a CPU up must not take a #GP
 * (an "unchecked MSR access" on every CPU of every cloud VM with a
 * vPMU): without the freeze the PMI handler stops the counters itself,
 * and SMM goes uncounted as well as the hypervisor allows.  Other bits
 * stay as they were.
 */
static void intel_debugctl_refused(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const struct x86c_vendor *v = &x86c_intel_v2_vendor;

	x86c_fake->debugctl = DBG_BTF;
	x86c_fake->debugctl_refused = DBG_FREEZE_ON_PMI | DBG_FREEZE_IN_SMM;
	ctx->p->pmi_freezes = true;
	v->cpu_starting(ctx->p, ctx->cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl, DBG_BTF);
	KUNIT_EXPECT_FALSE(test, ctx->p->pmi_freezes);

	/* Only the SMM freeze refused: the PMI freeze is still taken. */
	x86c_fake->debugctl_refused = DBG_FREEZE_IN_SMM;
	ctx->p->pmi_freezes = true;
	v->cpu_starting(ctx->p, ctx->cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl, DBG_BTF | DBG_FREEZE_ON_PMI);
	KUNIT_EXPECT_TRUE(test, ctx->p->pmi_freezes);
}

/* This CPU's DEBUGCTL refuses FREEZE_PERFMON_ON_PMI (left as it was). */
static bool debugctl_refuses_freeze(void)
{
	bool refused = true;
	u64 old;

	preempt_disable();
	if (!rdmsrl_safe(M_DEBUGCTL, &old) &&
	    !wrmsrl_safe(M_DEBUGCTL, old | DBG_FREEZE_ON_PMI)) {
		wrmsrl(M_DEBUGCTL, old);
		refused = false;
	}
	preempt_enable();
	return refused;
}

/*
 * On a boot with an Intel PMU, every CPU's real DEBUGCTL as the probe
 * and the CPU bring-up left it: the freeze is on for versions 2 and 3
 * (the harness's PMU models are version 2), off from version 4, and
 * off where DEBUGCTL refuses it (the intel-kvm model, as KVM does).
 */
static void intel_debugctl_on_every_cpu(struct kunit *test)
{
	struct x86c_pmu *p = x86c_host;
	unsigned int cpu;
	u64 debugctl;

	if (!p || p->vendor != &x86c_intel_v2_vendor)
		kunit_skip(test, "no Intel perfmon v2 or later PMU on this boot");
	if (p->version <= 3 && !p->pmi_freezes)
		KUNIT_EXPECT_TRUE_MSG(test, debugctl_refuses_freeze(),
				      "the freeze was given up, but DEBUGCTL takes it");
	else
		KUNIT_EXPECT_EQ(test, p->pmi_freezes, p->version <= 3);

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		KUNIT_ASSERT_EQ(test, rdmsrl_on_cpu(cpu, M_DEBUGCTL, &debugctl), 0);
		KUNIT_EXPECT_EQ_MSG(test, !!(debugctl & DBG_FREEZE_ON_PMI),
				    p->pmi_freezes, "cpu %u", cpu);
	}
	cpus_read_unlock();
}

/* A counting event placed and started on counter @idx, as add() leaves it. */
struct perf_event *fake_running(struct kunit *test, int idx, u64 config,
				u64 period)
{
	struct counters_ctx *ctx = test->priv;
	struct perf_event *event = fake_event(test, idx, config, period);
	struct x86c_cpu *cpu = ctx->cpu;

	x86c_event_set_period(ctx->p, event);
	x86c_intel_v2_vendor.program(ctx->p, cpu, idx, config);
	cpu->owner[idx] = event;
	cpu->owned |= BIT_ULL(idx);
	cpu->running |= BIT_ULL(idx);
	cpu->nr++;
	event->hw.state = 0;
	return event;
}

/*
 * A PMI with the freeze on: the CPU stopped everything as it raised it;
 * the handler folds the count of the counter that overflowed (only that
 * one), reloads it for the next period with the counters still stopped,
 * acknowledges, unmasks the LVTPC before anything counts again, and then
 * restarts every counter.
 */
static void pmi_frozen_reload_restart(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *a, *b;

	p->pmi_freezes = true;
	x86c_fake->debugctl = DBG_FREEZE_ON_PMI;
	a = fake_running(test, 1, config | 0xc4, 100);
	b = fake_running(test, FIX(0), config | 0xc0, 1000);
	x86c_intel_v2_vendor.enable_all(p, ctx->cpu);

	fake_count(1, 100);
	fake_count(FIX(0), 40);
	fake_pmi();
	KUNIT_ASSERT_EQ(test, x86c_fake->global_ctrl, 0ULL);

	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, ev_count(a), 100ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[1], FAKE_MASK - 99);
	KUNIT_EXPECT_EQ(test, x86c_fake->ctrl_at_load, 0ULL);
	KUNIT_EXPECT_EQ(test, ev_count(b), 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->fixed[0], FAKE_MASK - 959);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->unmasks, 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->ctrl_at_unmask, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, p->all_mask);
}

/*
 * The same PMI on a PMU that freezes, where the freeze did not happen
 * (a VM exit had zeroed DEBUGCTL): the handler still stops the counters
 * before it reloads.
 */
static void pmi_unfrozen_stops_first(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc4;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *a;

	p->pmi_freezes = true;
	a = fake_running(test, 2, config, 50);
	x86c_intel_v2_vendor.enable_all(p, ctx->cpu);
	fake_count(2, 50);
	fake_pmi();
	KUNIT_ASSERT_EQ(test, x86c_fake->global_ctrl, p->all_mask);

	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, ev_count(a), 50ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[2], FAKE_MASK - 49);
	KUNIT_EXPECT_EQ(test, x86c_fake->ctrl_at_load, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->ctrl_at_unmask, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, p->all_mask);
}

/*
 * A PMI taken inside a pmu_disable() section: handled, but the counters
 * stay off for pmu_enable() to restart.
 */
static void pmi_while_disabled(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc4;
	struct x86c_pmu *p = ctx->p;

	x86c_fake->debugctl = DBG_FREEZE_ON_PMI;
	fake_running(test, 0, config, 10);
	fake_count(0, 10);
	ctx->cpu->disabled = true;
	fake_pmi();

	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->unmasks, 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, 0ULL);
}

/*
 * An NMI in which no counter overflowed is not claimed and leaves the
 * counters running, but it may still have been a PMI (one a hypervisor
 * injected, or raised as the overflowed event went away), which masked
 * the LVTPC: it is unmasked all the same, or that CPU would never see a
 * PMI again.  A late overflow of a counter already stopped is claimed
 * without touching any event.
 */
static void pmi_not_ours_and_late(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc4;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *a;

	x86c_fake->debugctl = DBG_FREEZE_ON_PMI;
	a = fake_running(test, 0, config, 10);
	x86c_intel_v2_vendor.enable_all(p, ctx->cpu);
	fake_count(0, 3);

	x86c_fake->masked = true;
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 0);
	KUNIT_EXPECT_FALSE(test, x86c_fake->masked);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, p->all_mask);
	KUNIT_EXPECT_EQ(test, ev_count(a), 0ULL);

	x86c_fake->global_status = BIT_ULL(3);
	fake_pmi();
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, ev_count(a), 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, 0ULL);
	KUNIT_EXPECT_FALSE(test, x86c_fake->masked);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, p->all_mask);
}

/*
 * A PMI on a CPU that has no event left (its event was removed between
 * the overflow and the NMI): nothing to do and not claimed, but the
 * entry is unmasked, so that the next event on this CPU gets its PMIs
 * (sampling, and the hard-lockup watchdog's counter).
 */
static void pmi_on_cpu_without_events(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;

	ctx->cpu->nmi_window_end = jiffies - 1;
	x86c_fake->global_status = BIT_ULL(1);
	fake_pmi();
	KUNIT_EXPECT_EQ(test, x86c_pmi_nmi(ctx->p, ctx->cpu, NULL), NMI_DONE);
	KUNIT_EXPECT_FALSE(test, x86c_fake->masked);
}

/*
 * An overflow status with a bit of no counter (reserved here; some AMD
 * PerfMonV2 microcode sets one): the counters' overflows are handled
 * and acknowledged, the other bit is left alone, neither written to
 * the acknowledge register (a reserved bit there raises #GP) nor
 * looped on.
 */
static void pmi_status_other_bits(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc0;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *a;

	a = fake_running(test, 0, config, 100);
	x86c_intel_v2_vendor.enable_all(p, ctx->cpu);
	fake_count(0, 100);
	x86c_fake->global_status |= BIT_ULL(50);
	fake_pmi();

	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, BIT_ULL(50));
	KUNIT_EXPECT_EQ(test, ev_count(a), 100ULL);
	KUNIT_EXPECT_TRUE(test, p->pmi_others_said);
	KUNIT_EXPECT_FALSE(test, p->pmi_stuck_said);
}

#ifdef CONFIG_CPU_SUP_AMD
/* The model's counters as an AMD PMU: no fixed ones, AMD's MSRs. */
void fake_as_amd(struct x86c_pmu *p, const struct x86c_vendor *vendor,
		 int version)
{
	p->vendor = vendor;
	p->version = version;
	p->num_fixed = 0;
	p->nr_fixed_events = 0;
	p->gp_ctl = M_K7_EVTSEL0;
	p->gp_ctr = M_K7_PERFCTR0;
	x86c_init_limits(p);
}

/*
 * AMD may raise a PMI after its overflow was handled, PerfMonV2 (with
 * its global control) as much as the legacy counters: an NMI nobody
 * claims shortly after one of ours is taken as such a late one, not
 * left to the NMI core to report as unknown.  Intel's are not late.
 */
static void pmi_late_nmi_per_vendor(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc0;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *a;
	int first, late;

	KUNIT_EXPECT_TRUE(test, x86c_amd_vendor.late_nmi);
	KUNIT_EXPECT_TRUE(test, x86c_amd_v2_vendor.late_nmi);
	KUNIT_EXPECT_FALSE(test, x86c_intel_v2_vendor.late_nmi);

	/* PerfMonV2 on the model's counters. */
	fake_as_amd(p, &x86c_amd_v2_vendor, 2);

	a = fake_running(test, 0, config, 100);
	a->hw.config_base = M_K7_EVTSEL0;
	a->hw.event_base = M_K7_PERFCTR0;
	p->vendor->enable_all(p, ctx->cpu);
	fake_count(0, 100);

	local_irq_disable();
	first = x86c_pmi_nmi(p, ctx->cpu, NULL);
	late = x86c_pmi_nmi(p, ctx->cpu, NULL);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, first, 1);
	KUNIT_EXPECT_EQ(test, late, NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, ev_count(a), 100ULL);
}
#endif

/*
 * A counter nobody owns, left enabled with its interrupt on (by
 * firmware, a previous kernel), overflows again as soon as it is
 * acknowledged: the status never clears.  After its hundred rounds the
 * handler clears every counter, so that one stops, while ours goes on
 * counting from where it was: folded, reloaded, started again.
 */
static void pmi_stuck_status_resets(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	const u64 config = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT | 0xc0;
	struct x86c_pmu *p = ctx->p;
	struct perf_event *a;

	a = fake_running(test, 0, config, 1000);
	x86c_intel_v2_vendor.enable_all(p, ctx->cpu);
	fake_count(0, 10);
	x86c_fake->evtsel[3] = EVTSEL_EN | EVTSEL_INT | 0xc0;
	x86c_fake->overflowing = BIT_ULL(3);
	x86c_fake->global_status = BIT_ULL(3);
	fake_pmi();

	x86c_handle_pmi(p, ctx->cpu, NULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[3], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->evtsel[0], config | EVTSEL_EN);
	KUNIT_EXPECT_EQ(test, ctx->cpu->running, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, ev_count(a), 10ULL);
	KUNIT_EXPECT_EQ(test, ev_left(a), 990LL);
	KUNIT_EXPECT_EQ(test, x86c_fake->gp[0], FAKE_MASK + 1 - 990);
	KUNIT_EXPECT_FALSE(test, x86c_fake->masked);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_ctrl, p->all_mask);
	KUNIT_EXPECT_TRUE(test, p->pmi_stuck_said);
}

/*
 * The NMI handler and the functions it enters through are blacklisted
 * for kprobes (a probe there, hit in an NMI that came while another
 * probe was being handled, would recurse), as upstream's handler is.
 */
static void pmi_path_not_probed(struct kunit *test)
{
	static const char *const path[] = {
		"x86c_nmi", "x86c_pmi_nmi", "x86c_handle_pmi",
	};
	int i, err;

	if (!IS_ENABLED(CONFIG_KPROBES))
		kunit_skip(test, "no kprobes in this kernel");
	for (i = 0; i < ARRAY_SIZE(path); i++) {
		struct kprobe kp = { .symbol_name = path[i] };

		err = register_kprobe(&kp);
		if (!err)
			unregister_kprobe(&kp);
		KUNIT_EXPECT_EQ_MSG(test, err, -EINVAL, "%s", path[i]);
	}
}

/*
 * The probe's write-and-read-back of counter 0, through the legacy
 * 32-bit alias as parts without full-width writes have it: a count with
 * bit 31 set must not make working counters look dead (a probe value
 * derived from the old count came back sign-extended); counters whose
 * writes are dropped must still look dead.
 */
static void counters_work_probe(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;

	p->gp_ctr = M_PERFCTR0;
	x86c_fake->gp[0] = 0x80001234ULL;
	KUNIT_EXPECT_TRUE(test, x86c_counters_work(p));
	x86c_fake->gp[0] = 0xffff80000000ULL;
	KUNIT_EXPECT_TRUE(test, x86c_counters_work(p));

	p->gp_ctr = M_A_PMC0;
	x86c_fake->gp[0] = 0x8000ffffffffULL;
	KUNIT_EXPECT_TRUE(test, x86c_counters_work(p));

	x86c_fake->counters_dead = true;
	KUNIT_EXPECT_FALSE(test, x86c_counters_work(p));
	p->gp_ctr = M_PERFCTR0;
	KUNIT_EXPECT_FALSE(test, x86c_counters_work(p));
}

/* ---- extra registers ----------------------------------------------- */

/*
 * Two off-core response registers, each event code's own first, the
 * other when its own holds another selection: events agree per
 * register, a third selection does not fit, an event that moves to the
 * other register takes its code, and a put frees the register for
 * another selection.  Asking (commit false) changes no event.
 */
static void extra_regs_shared(struct kunit *test)
{
	static const struct x86c_extra_reg regs[] = {
		{ .code = 0x01b7, .msr = 0x1a6, .valid = 0xff, .alt = 1 },
		{ .code = 0x01bb, .msr = 0x1a7, .valid = 0xff, .alt = 0 },
	};
	const u64 base = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;
	struct counters_ctx *ctx = test->priv;
	struct x86c_extra_state st = {}, ask = {};
	struct x86c_pmu *p = ctx->p;
	struct perf_event *e[5];
	int i;

	p->extra_regs = regs;
	p->nr_extra = ARRAY_SIZE(regs);
	p->extra_absent = 0;
	for (i = 0; i < ARRAY_SIZE(e); i++)
		e[i] = fake_event(test, i, base | (i == 3 ? 0x01bb : 0x01b7), 0);

	/* A selection the register does not have; a register not there. */
	KUNIT_EXPECT_EQ(test, x86c_extra_config(p, e[0], 0x100), -EINVAL);
	p->extra_absent = BIT(0);
	KUNIT_EXPECT_EQ(test, x86c_extra_config(p, e[0], 0x1), -ENXIO);
	p->extra_absent = 0;
	/* Another code needs none, whatever config1 says. */
	e[4]->hw.config = base | 0x00c0;
	KUNIT_EXPECT_EQ(test, x86c_extra_config(p, e[4], 0x100), 0);
	KUNIT_EXPECT_EQ(test, e[4]->hw.extra_reg.reg, 0U);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[4], true), 0);

	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[0], 0x1), 0);
	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[1], 0x2), 0);
	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[2], 0x3), 0);
	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[3], 0x1), 0);
	KUNIT_EXPECT_EQ(test, e[0]->hw.extra_reg.reg, 0x1a6U);
	KUNIT_EXPECT_EQ(test, e[3]->hw.extra_reg.reg, 0x1a7U);

	/* Asking: a third selection does not fit; nobody changed. */
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &ask, e[0], false), 0);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &ask, e[1], false), 0);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &ask, e[2], false), -EBUSY);
	KUNIT_EXPECT_EQ(test, e[1]->hw.config & 0xffff, 0x01b7ULL);
	KUNIT_EXPECT_EQ(test, e[1]->hw.extra_reg.alloc, 0);

	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[0], true), 0);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[1], true), 0);
	KUNIT_EXPECT_EQ(test, e[1]->hw.config, base | 0x01bb);
	KUNIT_EXPECT_EQ(test, e[1]->hw.extra_reg.reg, 0x1a7U);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[2], true), -EBUSY);
	KUNIT_EXPECT_EQ(test, e[2]->hw.config, base | 0x01b7);
	/* 0x01bb with the first selection joins the first register. */
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[3], true), 0);
	KUNIT_EXPECT_EQ(test, e[3]->hw.config, base | 0x01b7);
	KUNIT_EXPECT_EQ(test, st.users[0], 2);
	KUNIT_EXPECT_EQ(test, st.users[1], 1);

	/* Both users of the first gone: the third selection takes it. */
	x86c_extra_put(p, &st, e[0]);
	x86c_extra_put(p, &st, e[3]);
	x86c_extra_put(p, &st, e[3]);
	KUNIT_EXPECT_EQ(test, st.users[0], 0);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[2], true), 0);
	KUNIT_EXPECT_EQ(test, st.value[0], 0x3ULL);
	KUNIT_EXPECT_EQ(test, e[2]->hw.extra_reg.reg, 0x1a6U);
}

/*
 * Two event codes that select through one register (Golden Cove's
 * front-end events): they agree on its value whatever their codes, and
 * a put by either frees it for another value.
 */
static void extra_regs_one_msr(struct kunit *test)
{
	static const struct x86c_extra_reg regs[] = {
		{ .code = 0x01c6, .msr = 0x3f7, .valid = 0xff, .alt = -1 },
		{ .code = 0x40ad, .msr = 0x3f7, .valid = 0x07, .alt = -1 },
	};
	const u64 base = EVTSEL_OS | EVTSEL_USR | EVTSEL_INT;
	struct counters_ctx *ctx = test->priv;
	struct x86c_extra_state st = {};
	struct x86c_pmu *p = ctx->p;
	struct perf_event *e[3];

	p->extra_regs = regs;
	p->nr_extra = ARRAY_SIZE(regs);
	p->extra_absent = 0;
	e[0] = fake_event(test, 0, base | 0x01c6, 0);
	e[1] = fake_event(test, 1, base | 0x40ad, 0);
	e[2] = fake_event(test, 2, base | 0x40ad, 0);
	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[0], 0x1), 0);
	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[1], 0x1), 0);
	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[2], 0x2), 0);
	/* Each code's own valid bits. */
	KUNIT_EXPECT_EQ(test, x86c_extra_config(p, e[2], 0x8), -EINVAL);
	KUNIT_ASSERT_EQ(test, x86c_extra_config(p, e[2], 0x2), 0);

	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[0], true), 0);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[1], true), 0);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[2], true), -EBUSY);
	KUNIT_EXPECT_EQ(test, st.users[0], 2);
	KUNIT_EXPECT_EQ(test, st.users[1], 0);
	x86c_extra_put(p, &st, e[1]);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[2], true), -EBUSY);
	x86c_extra_put(p, &st, e[0]);
	KUNIT_EXPECT_EQ(test, x86c_extra_get(p, &st, e[2], true), 0);
	KUNIT_EXPECT_EQ(test, st.value[0], 0x2ULL);
}

static struct kunit_case counters_cases[] = {
	KUNIT_CASE(counters_init_limits),
	KUNIT_CASE(counters_constraint),
	KUNIT_CASE(counters_place_keeps_placed),
	KUNIT_CASE(counters_ht_excl_sibling),
	KUNIT_CASE(counters_period_and_update),
	KUNIT_CASE(counters_update_across_wrap),
	KUNIT_CASE(counters_legacy_long_period),
	KUNIT_CASE(counters_overflowed_by_sign),
	KUNIT_CASE(intel_overflowed_and_ack),
	KUNIT_CASE(counters_cpu_reset_acks_what_exists),
	KUNIT_CASE(intel_fixed_ctrl_bits),
	KUNIT_CASE(intel_gp_evtsel),
	KUNIT_CASE(counters_stop_folds_once),
	KUNIT_CASE(intel_debugctl_bits),
	KUNIT_CASE(intel_debugctl_refused),
	KUNIT_CASE(intel_debugctl_on_every_cpu),
	KUNIT_CASE(pmi_frozen_reload_restart),
	KUNIT_CASE(pmi_unfrozen_stops_first),
	KUNIT_CASE(pmi_while_disabled),
	KUNIT_CASE(pmi_not_ours_and_late),
	KUNIT_CASE(pmi_on_cpu_without_events),
	KUNIT_CASE(pmi_stuck_status_resets),
	KUNIT_CASE(pmi_status_other_bits),
#ifdef CONFIG_CPU_SUP_AMD
	KUNIT_CASE(pmi_late_nmi_per_vendor),
#endif
	KUNIT_CASE(pmi_path_not_probed),
	KUNIT_CASE(counters_work_probe),
	KUNIT_CASE(extra_regs_shared),
	KUNIT_CASE(extra_regs_one_msr),
	{}
};

static struct kunit_suite counters_suite = {
	.name = "perfcore_x86_counters",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = counters_cases,
};

kunit_test_suite(counters_suite);

MODULE_DESCRIPTION("KUnit tests for the x86 core counter framework on a model of the MSRs");
MODULE_LICENSE("GPL");
