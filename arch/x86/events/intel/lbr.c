// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: Intel's last branch records (SDM vol. 3B, "Last Branch,
 * Call Stack, Interrupt, and Exception Recording"), the hardware behind
 * ../branches.c.
 *
 * Two kinds are driven:
 *
 *   Architectural LBR	CPUID.07H:EDX[19], described by leaf 1CH (the
 *			depths, whether it filters by privilege and by
 *			type, call-stack mode, what LBR_INFO holds): one
 *			control, IA32_LBR_CTL; record i in IA32_LBR_i_INFO,
 *			_FROM_IP and _TO_IP, record 0 the youngest; a write
 *			of IA32_LBR_DEPTH clears them.
 *   LBR_INFO format	Skylake to Tiger Lake (PERF_CAPABILITIES' LBR
 *			format 5, known by the family: its depth is no
 *			CPUID's): a ring of records, MSR_LBR_TOS the
 *			youngest, LBR_SELECT's bits suppressing what is
 *			not wanted, DEBUGCTL.LBR to record.
 *
 * Older formats (the flags in the source address, no cycles) are not
 * driven: their parts go without branch records, as on a CPU without
 * them.
 *
 * Freezing.  DEBUGCTL.FREEZE_LBRS_ON_PMI stops recording when a counter
 * overflow raises the PMI, so that the records end at the sampled
 * instruction instead of holding the NMI's entry: perfmon version 4
 * and later then set GLOBAL_STATUS.LBR_FRZ, which the PMI handler
 * acknowledges with the overflows (x86c_pmu.status_extra), earlier ones
 * clear DEBUGCTL.LBR, which the enable after the handler sets again.
 * In call-stack mode it stays off: a PMI next to a call or a return
 * could leave the stack one frame off (the SDM's advice).  With LBR_FRZ
 * the handler reads the records before its acknowledgment lets them go
 * and writes no LBR register; else it stops recording while samples read
 * them (x86c_br_pmi_hold()), so that without the freeze the records read
 * are the same but for the NMI's entry.
 *
 * KVM's guest LBR (x86_perf_get_lbr(), its vLBR event) is not offered:
 * a guest sees no branch records.
 */

#include <linux/bitfield.h>
#include <linux/perf_event.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../counters.h"

/* IA32_PERF_CAPABILITIES[5:0]: the LBR format */
#define INTEL_CAP_LBR_FORMAT		GENMASK_ULL(5, 0)
#define INTEL_LBR_FORMAT_INFO		5

/* CPUID leaf 1CH */
#define ARCH_LBR_LEAF			0x1c
#define ARCH_LBR_EAX_DEPTHS		GENMASK(7, 0)	/* bit n: 8(n + 1) */
#define ARCH_LBR_EBX_CPL		BIT(0)
#define ARCH_LBR_EBX_FILTER		BIT(1)
#define ARCH_LBR_EBX_CALL_STACK		BIT(2)
#define ARCH_LBR_ECX_MISPRED		BIT(0)
#define ARCH_LBR_ECX_TIMED		BIT(1)
#define ARCH_LBR_ECX_TYPE		BIT(2)

/* IA32_LBR_CTL: the privilege and call-stack bits; the types from 16 */
#define ARCH_LBR_CTL_OS			BIT_ULL(1)
#define ARCH_LBR_CTL_USR		BIT_ULL(2)
#define ARCH_LBR_CTL_CALL_STACK		BIT_ULL(3)
#define ARCH_LBR_CTL_TYPES_SHIFT	16	/* X86C_LBR_JCC ... _OTHER */

/* MSR_LBR_SELECT: a set bit suppresses; call-stack mode enables */
#define LBR_SELECT_NO_CPL0		BIT_ULL(0)
#define LBR_SELECT_NO_CPL123		BIT_ULL(1)
#define LBR_SELECT_CALL_STACK		BIT_ULL(9)
#define LBR_SELECT_TYPES		GENMASK_ULL(8, 2)

/* MSR_LBR_SELECT's suppress bit of each X86C_LBR_* type */
static const u8 lbr_select_bit[] = {
	[__builtin_ctz(X86C_LBR_JCC)]		= 2,
	[__builtin_ctz(X86C_LBR_REL_CALL)]	= 3,
	[__builtin_ctz(X86C_LBR_IND_CALL)]	= 4,
	[__builtin_ctz(X86C_LBR_RET)]		= 5,
	[__builtin_ctz(X86C_LBR_IND_JMP)]	= 6,
	[__builtin_ctz(X86C_LBR_REL_JMP)]	= 7,
	[__builtin_ctz(X86C_LBR_OTHER)]		= 8,
};

/* Architectural LBR's LBR_INFO branch types (bits 59:56) as kinds */
static const u16 arch_lbr_kind[16] = {
	[0] = X86C_BR_JCC,
	[1] = X86C_BR_IND_JMP,
	[2] = X86C_BR_JMP,
	[3] = X86C_BR_IND_CALL,
	[4] = X86C_BR_CALL,
	[5] = X86C_BR_RET,
	/* 8 and above: other branches, which software tells apart */
};

static bool intel_lbr_call_stack(struct x86c_pmu *p, u64 config)
{
	if (p->lbr.arch)
		return config & ARCH_LBR_CTL_CALL_STACK;
	return config & LBR_SELECT_CALL_STACK;
}

/*
 * DEBUGCTL's recording bits: @lbr (legacy records' enable) and the
 * freeze.  A hypervisor may refuse them (KVM without guest LBR): said
 * once; the records then hold what they hold.
 */
static void intel_lbr_debugctl(struct x86c_pmu *p, u64 set, u64 clear)
{
	if (x86c_debugctl_update(p, set, clear) && x86c_is_host(p))
		pr_warn_once("perf/x86: DEBUGCTL refuses to set %#llx, clear %#llx: branch records may not freeze on PMI\n",
			     set, clear);
}

/* The freeze, unless in call-stack mode. */
static u64 intel_lbr_freeze(struct x86c_pmu *p, u64 config)
{
	return intel_lbr_call_stack(p, config) ? 0 :
	       DEBUGCTLMSR_FREEZE_LBRS_ON_PMI;
}

/* ---- Architectural LBR ---------------------------------------------- */

static u64 arch_lbr_encode(struct x86c_pmu *p, u32 want)
{
	u64 ctl = (u64)(want & X86C_LBR_TYPES) << ARCH_LBR_CTL_TYPES_SHIFT;

	if (want & X86C_LBR_KERNEL)
		ctl |= ARCH_LBR_CTL_OS;
	if (want & X86C_LBR_USER)
		ctl |= ARCH_LBR_CTL_USR;
	if (want & X86C_LBR_CALL_STACK)
		ctl |= ARCH_LBR_CTL_CALL_STACK;
	return ctl;
}

static void arch_lbr_enable(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	u64 freeze = intel_lbr_freeze(p, cpu->br.config);

	intel_lbr_debugctl(p, freeze, DEBUGCTLMSR_FREEZE_LBRS_ON_PMI & ~freeze);
	p->hw->write_msr(MSR_ARCH_LBR_CTL, cpu->br.config | ARCH_LBR_CTL_LBREN);
}

static void arch_lbr_disable(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	p->hw->write_msr(MSR_ARCH_LBR_CTL, 0);
}

static void arch_lbr_wipe(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	p->hw->write_msr(MSR_ARCH_LBR_DEPTH, p->lbr.nr);
}

/* ---- the LBR_INFO format's ring --------------------------------------- */

static u64 skl_lbr_encode(struct x86c_pmu *p, u32 want)
{
	u64 sel = LBR_SELECT_TYPES;
	int i;

	for (i = 0; i < ARRAY_SIZE(lbr_select_bit); i++)
		if (want & BIT(i))
			sel &= ~BIT_ULL(lbr_select_bit[i]);
	if (!(want & X86C_LBR_KERNEL))
		sel |= LBR_SELECT_NO_CPL0;
	if (!(want & X86C_LBR_USER))
		sel |= LBR_SELECT_NO_CPL123;
	if (want & X86C_LBR_CALL_STACK)
		sel |= LBR_SELECT_CALL_STACK;
	return sel;
}

static void skl_lbr_enable(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	u64 freeze = intel_lbr_freeze(p, cpu->br.config);

	p->hw->write_msr(MSR_LBR_SELECT, cpu->br.config);
	intel_lbr_debugctl(p, DEBUGCTLMSR_LBR | freeze,
			   DEBUGCTLMSR_FREEZE_LBRS_ON_PMI & ~freeze);
}

static void skl_lbr_disable(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	intel_lbr_debugctl(p, 0, DEBUGCTLMSR_LBR);
}

static void skl_lbr_wipe(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	int i;

	for (i = 0; i < p->lbr.nr; i++) {
		p->hw->write_msr(p->lbr.from + i, 0);
		p->hw->write_msr(p->lbr.to + i, 0);
		p->hw->write_msr(p->lbr.info + i, 0);
	}
}

/* ---- reading ----------------------------------------------------------- */

/* The slot of the @i-th youngest record, the ring's top at @tos. */
static int intel_lbr_slot(struct x86c_pmu *p, u64 tos, int i)
{
	return p->lbr.arch ? i : (tos - i) & (p->lbr.nr - 1);
}

/* A record's LBR_INFO @info into @e's flags; its kind where INFO says it. */
static void intel_lbr_info(struct x86c_pmu *p, u64 info,
			   struct perf_branch_entry *e, u16 *kind)
{
	perf_clear_branch_entry_bitfields(e);
	if (p->lbr.has_mispred) {
		e->mispred = !!(info & LBR_INFO_MISPRED);
		e->predicted = !e->mispred;
	}
	e->in_tx = !!(info & LBR_INFO_IN_TX);
	e->abort = !!(info & LBR_INFO_ABORT);
	/* Architectural LBR says whether the count is valid. */
	if (p->lbr.has_cycles &&
	    (!p->lbr.arch || (info & LBR_INFO_CYC_CNT_VALID)))
		e->cycles = info & LBR_INFO_CYCLES;
	*kind = 0;
	if (p->lbr.has_types)
		*kind = arch_lbr_kind[FIELD_GET(LBR_INFO_BR_TYPE, info)];
	if (e->abort)
		*kind = X86C_BR_ABORT;
}

/* One record from its registers into @e. */
static void intel_lbr_record(struct x86c_pmu *p, int slot,
			     struct perf_branch_entry *e, u16 *kind)
{
	e->to = p->hw->read_msr(p->lbr.to + slot);
	intel_lbr_info(p, p->hw->read_msr(p->lbr.info + slot), e, kind);
}

/**
 * x86c_intel_lbr_take - records a PEBS record holds, as the ones read
 * @p: the PMU
 * @cpu: this CPU's counters, in a drain
 * @rec: the records, youngest first, as the LBR registers hold them
 * @nr: how many
 *
 * They become @cpu's snapshot, to the first empty one, for the sample
 * of the PEBS record (x86c_br_sample()); the drain invalidates it.
 */
void x86c_intel_lbr_take(struct x86c_pmu *p, struct x86c_cpu *cpu,
			 const struct lbr_entry *rec, int nr)
{
	struct x86c_br_stack *snap = &cpu->br.snap;
	int i;

	for (i = 0; i < min(nr, p->lbr.nr) && rec[i].from; i++) {
		snap->e[i].from = rec[i].from;
		snap->e[i].to = rec[i].to;
		intel_lbr_info(p, rec[i].info, &snap->e[i], &cpu->br.kind[i]);
	}
	snap->stack.nr = i;
	snap->stack.hw_idx = 0;
	cpu->br.snap_valid = true;
}

/*
 * The records, youngest first, until the first empty one (a wiped
 * record, or in call-stack mode one a return popped).
 */
static void intel_lbr_read(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct x86c_br_stack *snap = &cpu->br.snap;
	int nr = p->lbr.nr, i, slot;
	u64 tos = 0;

	if (!p->lbr.arch)
		tos = p->hw->read_msr(MSR_LBR_TOS) & (nr - 1);
	for (i = 0; i < nr; i++) {
		slot = intel_lbr_slot(p, tos, i);
		snap->e[i].from = p->hw->read_msr(p->lbr.from + slot);
		if (!snap->e[i].from)
			break;
		intel_lbr_record(p, slot, &snap->e[i], &cpu->br.kind[i]);
	}
	snap->stack.nr = i;
	/*
	 * Where the youngest record is, for perf's stitching of stacks:
	 * the ring's top, or Architectural LBR's record 0 (as upstream).
	 */
	snap->stack.hw_idx = tos;
}

/* A call stack as it stands, to the first empty record. */
static void intel_lbr_save(struct x86c_pmu *p, struct x86c_br_save *s)
{
	u64 tos = p->lbr.arch ? 0 : p->hw->read_msr(MSR_LBR_TOS);
	int i, slot;

	for (i = 0; i < p->lbr.nr; i++) {
		slot = intel_lbr_slot(p, tos, i);
		s->from[i] = p->hw->read_msr(p->lbr.from + slot);
		if (!s->from[i])
			break;
		s->to[i] = p->hw->read_msr(p->lbr.to + slot);
		s->info[i] = p->hw->read_msr(p->lbr.info + slot);
	}
	s->nr = i;
}

/*
 * Back into wiped records: Architectural LBR's from record 0, the
 * ring's with its top at the youngest.
 */
static void intel_lbr_restore(struct x86c_pmu *p, const struct x86c_br_save *s)
{
	u64 tos = s->nr ? s->nr - 1 : 0;
	int i, slot;

	if (!p->lbr.arch)
		p->hw->write_msr(MSR_LBR_TOS, tos);
	for (i = 0; i < s->nr; i++) {
		slot = intel_lbr_slot(p, tos, i);
		p->hw->write_msr(p->lbr.from + slot, s->from[i]);
		p->hw->write_msr(p->lbr.to + slot, s->to[i]);
		p->hw->write_msr(p->lbr.info + slot, s->info[i]);
	}
}

/* Not static: branches_test.c drives them against a model of the MSRs. */
const struct x86c_lbr_ops x86c_arch_lbr_ops = {
	.encode		= arch_lbr_encode,
	.enable		= arch_lbr_enable,
	.disable	= arch_lbr_disable,
	.wipe		= arch_lbr_wipe,
	.read		= intel_lbr_read,
	.save		= intel_lbr_save,
	.restore	= intel_lbr_restore,
};

const struct x86c_lbr_ops x86c_skl_lbr_ops = {
	.encode		= skl_lbr_encode,
	.enable		= skl_lbr_enable,
	.disable	= skl_lbr_disable,
	.wipe		= skl_lbr_wipe,
	.read		= intel_lbr_read,
	.save		= intel_lbr_save,
	.restore	= intel_lbr_restore,
};

/* ---- probe ------------------------------------------------------------- */

/*
 * Whether record 0's registers are there: a hypervisor may lack them,
 * or only pretend to have them (reads of zero, writes dropped).
 */
static bool intel_lbr_present(struct x86c_pmu *p, u32 other)
{
	u64 val;

	return !p->hw->read_msr_safe(other, &val) &&
	       !p->hw->read_msr_safe(p->lbr.to, &val) &&
	       !p->hw->read_msr_safe(p->lbr.info, &val) &&
	       x86c_msr_keeps(p, p->lbr.from, ~0ULL);
}

static void arch_lbr_probe(struct x86c_pmu *p)
{
	unsigned int eax, ebx, ecx, edx;
	struct x86c_lbr *lbr = &p->lbr;

	if (boot_cpu_data.cpuid_level < ARCH_LBR_LEAF)
		return;
	cpuid_count(ARCH_LBR_LEAF, 0, &eax, &ebx, &ecx, &edx);
	lbr->nr = min(8 * fls(eax & ARCH_LBR_EAX_DEPTHS), X86C_LBR_MAX);
	lbr->arch = true;
	lbr->from = MSR_ARCH_LBR_FROM_0;
	lbr->to = MSR_ARCH_LBR_TO_0;
	lbr->info = MSR_ARCH_LBR_INFO_0;
	if (ebx & ARCH_LBR_EBX_CPL)
		lbr->can |= X86C_LBR_USER | X86C_LBR_KERNEL;
	if (ebx & ARCH_LBR_EBX_FILTER)
		lbr->can |= X86C_LBR_TYPES;
	if (ebx & ARCH_LBR_EBX_CALL_STACK)
		lbr->can |= X86C_LBR_CALL_STACK;
	lbr->has_mispred = ecx & ARCH_LBR_ECX_MISPRED;
	lbr->has_cycles = ecx & ARCH_LBR_ECX_TIMED;
	lbr->has_types = ecx & ARCH_LBR_ECX_TYPE;
	lbr->ops = &x86c_arch_lbr_ops;
	if (!lbr->nr || !intel_lbr_present(p, MSR_ARCH_LBR_CTL))
		lbr->nr = 0;
}

/*
 * Where the registers are there (a hypervisor may have none, and then
 * nothing is said) in another format than the family's, it is said.
 */
static void skl_lbr_probe(struct x86c_pmu *p, int nr)
{
	struct x86c_lbr *lbr = &p->lbr;
	u64 format = p->perf_capabilities & INTEL_CAP_LBR_FORMAT;

	lbr->from = MSR_LBR_NHM_FROM;
	lbr->to = MSR_LBR_NHM_TO;
	lbr->info = MSR_LBR_INFO_0;
	if (!intel_lbr_present(p, MSR_LBR_TOS))
		return;
	if (format != INTEL_LBR_FORMAT_INFO) {
		if (x86c_is_host(p))
			pr_info("perf/x86: LBR format %llu is not driven: no branch records\n",
				format);
		return;
	}
	lbr->nr = nr;
	lbr->can = X86C_LBR_TYPES | X86C_LBR_USER | X86C_LBR_KERNEL |
		   X86C_LBR_CALL_STACK;
	lbr->has_mispred = true;
	lbr->has_cycles = true;
	lbr->ops = &x86c_skl_lbr_ops;
}

/**
 * x86c_intel_lbr_probe - find the branch records
 * @p: the PMU, probed from CPUID 0AH and PERF_CAPABILITIES
 * @f: the CPU's family, or NULL
 */
void x86c_intel_lbr_probe(struct x86c_pmu *p, const struct x86c_intel_family *f)
{
	memset(&p->lbr, 0, sizeof(p->lbr));
	p->status_extra = 0;
	/* The freeze on PMI is a version 2 thing; the depth a power of 2. */
	if (p->version < 2)
		return;
	if (boot_cpu_has(X86_FEATURE_ARCH_LBR))
		arch_lbr_probe(p);
	else if (f && f->lbr_info_nr && is_power_of_2(f->lbr_info_nr))
		skl_lbr_probe(p, f->lbr_info_nr);
	if (!p->lbr.nr) {
		p->lbr.ops = NULL;
		return;
	}
	if (p->version >= 4) {
		p->lbr.frozen_status = GLOBAL_STATUS_LBRS_FROZEN;
		p->status_extra = p->lbr.frozen_status;
	}
	if (x86c_is_host(p))
		pr_info("perf/x86: %d-deep %sLBR\n", p->lbr.nr,
			p->lbr.arch ? "Architectural " : "");
}

/**
 * x86c_intel_lbr_cpu_starting - a CPU's records as it comes up
 * @p: its PMU
 *
 * Not recording; Architectural LBR at the depth in use (which clears
 * the records).
 */
void x86c_intel_lbr_cpu_starting(struct x86c_pmu *p)
{
	if (!p->lbr.nr)
		return;
	if (p->lbr.arch) {
		p->hw->write_msr_safe(MSR_ARCH_LBR_CTL, 0);
		p->hw->write_msr_safe(MSR_ARCH_LBR_DEPTH, p->lbr.nr);
	} else {
		intel_lbr_debugctl(p, 0, DEBUGCTLMSR_LBR |
				   DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	}
}
