/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KUnit: the model of the x86 PMU registers that the framework's and the
 * drivers' cases run against (counters_test.c, vendor_test.c), in place
 * of the CPU behind struct x86c_hw_ops.  counters_test.c describes it
 * and holds it.
 */
#ifndef ARCH_X86_EVENTS_COUNTERS_TEST_H
#define ARCH_X86_EVENTS_COUNTERS_TEST_H

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/perf_event.h>

#include "counters.h"

#define FAKE_GP			4
#define FAKE_FIXED		3
#define FAKE_WIDTH		48
#define FAKE_MASK		0xffffffffffffULL	/* FAKE_WIDTH bits */
#define FAKE_MAX_PERIOD		(FAKE_MASK >> 1)
#define LEGACY_MAX_PERIOD	(BIT_ULL(31) - 1)

/*
 * The model's addresses, from the SDM rather than the kernel's headers,
 * so that a wrong constant in the code under test shows as a stray MSR.
 */
#define M_PERFCTR0		0x0c1	/* IA32_PMC0: 32-bit writes */
#define M_EVTSEL0		0x186	/* IA32_PERFEVTSEL0 */
#define M_FIXED_CTR0		0x309	/* IA32_FIXED_CTR0 */
#define M_FIXED_CTR_CTRL	0x38d	/* IA32_FIXED_CTR_CTRL */
#define M_GLOBAL_STATUS		0x38e	/* IA32_PERF_GLOBAL_STATUS */
#define M_GLOBAL_CTRL		0x38f	/* IA32_PERF_GLOBAL_CTRL */
#define M_GLOBAL_OVF_CTRL	0x390	/* IA32_PERF_GLOBAL_OVF_CTRL */
#define M_DEBUGCTL		0x1d9	/* IA32_DEBUGCTL */
#define M_A_PMC0		0x4c1	/* IA32_A_PMC0: full-width writes */
#define M_FIXED_CTR3		0x30c	/* IA32_FIXED_CTR3: topdown slots */
#define M_PERF_METRICS		0x329	/* IA32_PERF_METRICS */
#define M_TSX_FORCE_ABORT	0x10f	/* MSR_TSX_FORCE_ABORT */
#define M_PEBS_ENABLE		0x3f1	/* IA32_PEBS_ENABLE */
#define M_PEBS_DATA_CFG		0x3f2	/* IA32_PEBS_DATA_CFG */
#define RDPMC_METRICS		BIT(29)	/* RDPMC ECX: IA32_PERF_METRICS */
/* Last branch records: Skylake's ring, then Architectural LBR's. */
#define M_LBR_SELECT		0x1c8	/* MSR_LBR_SELECT */
#define M_LBR_TOS		0x1c9	/* MSR_LASTBRANCH_TOS */
#define M_LBR_FROM		0x680	/* MSR_LASTBRANCH_0_FROM_IP */
#define M_LBR_TO		0x6c0	/* MSR_LASTBRANCH_0_TO_IP */
#define M_LBR_INFO		0xdc0	/* MSR_LBR_INFO_0 */
#define M_ARCH_LBR_CTL		0x14ce	/* IA32_LBR_CTL */
#define M_ARCH_LBR_DEPTH	0x14cf	/* IA32_LBR_DEPTH */
#define M_ARCH_LBR_INFO		0x1200	/* IA32_LBR_0_INFO */
#define M_ARCH_LBR_FROM		0x1500	/* IA32_LBR_0_FROM_IP */
#define M_ARCH_LBR_TO		0x1600	/* IA32_LBR_0_TO_IP */
#define FAKE_LBR		32	/* records */
/* The branch the model records once a frozen PMI is acknowledged. */
#define FAKE_HANDLER_BRANCH	0xffffffff81fff000ULL
#define STATUS_LBR_FRZ		BIT_ULL(58)	/* GLOBAL_STATUS.LBR_FRZ */
/* AMD's legacy counters, the same registers for the AMD case. */
#define M_K7_EVTSEL0		0xc0010000	/* PERF_CTL0 */
#define M_K7_PERFCTR0		0xc0010004	/* PERF_CTR0 */
/* PerfMonV2's global registers, kept in the Intel ones' places. */
#define M_AMD_GLOBAL_STATUS	0xc0000300	/* PerfCntrGlobalStatus */
#define M_AMD_GLOBAL_CTL	0xc0000301	/* PerfCntrGlobalCtl */
#define M_AMD_GLOBAL_STATUS_CLR	0xc0000302	/* PerfCntrGlobalStatusClr */
#define RDPMC_FIXED		BIT(30)	/* RDPMC ECX: a fixed counter */

/* Control bits, as the SDM numbers them. */
#define EVTSEL_USR		BIT_ULL(16)
#define EVTSEL_OS		BIT_ULL(17)
#define EVTSEL_INT		BIT_ULL(20)
#define EVTSEL_ANY		BIT_ULL(21)
#define EVTSEL_EN		BIT_ULL(22)
#define EVTSEL_INV		BIT_ULL(23)
#define AMD_HOST_ONLY		BIT_ULL(41)

/* IA32_DEBUGCTL bits. */
#define DBG_LBR			BIT_ULL(0)
#define DBG_BTF			BIT_ULL(1)
#define DBG_FREEZE_LBRS		BIT_ULL(11)
#define DBG_FREEZE_ON_PMI	BIT_ULL(12)
#define DBG_FREEZE_IN_SMM	BIT_ULL(14)

#define FIX(i)			(INTEL_PMC_IDX_FIXED + (i))

/* The bits IA32_PERF_GLOBAL_CTRL and _OVF_CTRL take: others #GP. */
#define FAKE_CTRL_BITS		(GENMASK_ULL(FAKE_GP - 1, 0) |		\
				 GENMASK_ULL(FIX(FAKE_FIXED - 1), FIX(0)))
#define FAKE_OVF_CTRL_BITS	(FAKE_CTRL_BITS | BIT_ULL(62) | BIT_ULL(63))

/**
 * struct fake_hw - the register file the model's x86c_hw_ops reach
 * @evtsel: IA32_PERFEVTSELx
 * @gp: the general-purpose counters, as the hardware holds them
 * @fixed: the fixed counters
 * @fixed_ctrl: IA32_FIXED_CTR_CTRL
 * @fixed_ctrl_writes: how many times it was written
 * @global_ctrl: IA32_PERF_GLOBAL_CTRL
 * @global_status: IA32_PERF_GLOBAL_STATUS, set by fake_count() on a wrap
 *	and cleared through IA32_PERF_GLOBAL_OVF_CTRL, as on the CPU
 * @debugctl: IA32_DEBUGCTL; FREEZE_PERFMON_ON_PMI makes fake_pmi() clear
 *	@global_ctrl, the legacy freeze of perfmon versions 2 and 3
 * @debugctl_refused: DEBUGCTL bits the model refuses with #GP, as KVM
 *	does FREEZE_IN_SMM and FREEZE_PERFMON_ON_PMI for its guests
 * @masked: the LVTPC is masked, as the APIC leaves it when it delivers a
 *	PMI (fake_pmi()); an overflow then raises no PMI
 * @unmasks: how many times the LVTPC was unmasked
 * @ctrl_at_unmask: @global_ctrl when it last was
 * @ctrl_at_load: @global_ctrl when a counter was last written
 * @counters_dead: writes to the counters are dropped, as by a hypervisor
 *	that advertises counters without having them
 * @overflowing: general counters that overflow again at once whenever
 *	their overflow is acknowledged while they are enabled (a counter
 *	loaded at its top with a tiny period, in effect)
 * @slots: IA32_FIXED_CTR3, the topdown slots of a P-core
 * @metrics: IA32_PERF_METRICS, a share of @slots in 255ths per byte
 * @has_metrics: the model is such a P-core: IA32_PERF_GLOBAL_CTRL
 *	takes EN_PERF_METRICS (bit 48) too
 * @tfa: MSR_TSX_FORCE_ABORT, on a model with @has_tfa (a Skylake client
 *	whose microcode takes general counter 3 for TSX unless bit 0 is
 *	set): enabling counter 3 with the bit clear fails the case
 * @lbr_arch: the records are Architectural LBR's (at its addresses,
 *	with IA32_LBR_CTL and _DEPTH, whose write clears them); else
 *	Skylake's ring (LBR_SELECT, TOS); either way @lbr_from, @lbr_to
 *	and @lbr_info hold record (or slot) i
 * @lbr_select: MSR_LBR_SELECT
 * @lbr_tos: MSR_LASTBRANCH_TOS
 * @lbr_ctl: IA32_LBR_CTL
 * @lbr_depth: IA32_LBR_DEPTH
 * @lbr_frz: IA32_PERF_GLOBAL_OVF_CTRL takes LBR_FRZ (perfmon v4 on);
 *	acknowledging a set LBR_FRZ lets the records go on, and the model
 *	then records FAKE_HANDLER_BRANCH (the handler's own branches)
 * @rec_ctl_writes: writes of the registers that start and stop
 *	recording (IA32_LBR_CTL, MSR_LBR_SELECT, DEBUGCTL)
 * @pebs_enable: IA32_PEBS_ENABLE
 * @pebs_data_cfg: IA32_PEBS_DATA_CFG (the model stores no records: a
 *	case writes them into its debug store as the CPU would)
 */
struct fake_hw {
	u64	evtsel[FAKE_GP];
	u64	gp[FAKE_GP];
	u64	fixed[FAKE_FIXED];
	u64	fixed_ctrl;
	int	fixed_ctrl_writes;
	u64	global_ctrl;
	u64	global_status;
	u64	debugctl;
	u64	debugctl_refused;
	bool	masked;
	int	unmasks;
	u64	ctrl_at_unmask;
	u64	ctrl_at_load;
	bool	counters_dead;
	u64	overflowing;
	u64	slots;
	u64	metrics;
	bool	has_metrics;
	u64	tfa;
	bool	has_tfa;
	bool	lbr_arch;
	u64	lbr_from[FAKE_LBR];
	u64	lbr_to[FAKE_LBR];
	u64	lbr_info[FAKE_LBR];
	u64	lbr_select;
	u64	lbr_tos;
	u64	lbr_ctl;
	u64	lbr_depth;
	bool	lbr_frz;
	int	rec_ctl_writes;
	u64	pebs_enable;
	u64	pebs_data_cfg;
};

/* The register file of the case running now; KUnit runs one at a time. */
extern struct fake_hw *x86c_fake;

struct counters_ctx {
	struct x86c_pmu		*p;
	struct x86c_cpu		*cpu;
	struct fake_hw		hw;
};

/* A case's fixture: the Intel perfmon v2 PMU on the model (test->priv). */
int counters_test_init(struct kunit *test);
void counters_test_exit(struct kunit *test);
struct perf_event *fake_event(struct kunit *test, int idx, u64 config,
			      u64 period);
struct perf_event *fake_running(struct kunit *test, int idx, u64 config,
				u64 period);
const struct x86c_intel_family *fake_family(const char *name);
void fake_count(int idx, u64 n);
void fake_pmi(void);
#ifdef CONFIG_CPU_SUP_AMD
void fake_as_amd(struct x86c_pmu *p, const struct x86c_vendor *vendor,
		 int version);
#endif

static inline u64 ev_count(struct perf_event *event)
{
	return local64_read(&event->count);
}

static inline s64 ev_left(struct perf_event *event)
{
	return local64_read(&event->hw.period_left);
}

static inline u64 ev_prev(struct perf_event *event)
{
	return local64_read(&event->hw.prev_count);
}

#endif /* ARCH_X86_EVENTS_COUNTERS_TEST_H */
