// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the Intel core counter driver.
 *
 * Architectural performance monitoring (SDM vol. 3B, "Architectural
 * Performance Monitoring"), as CPUID leaf 0AH describes it:
 *
 *   version 1	general-purpose counters only, each switched on and off
 *		in its IA32_PERFEVTSELx; overflow seen by the counter's
 *		sign (no status register);
 *   version 2	fixed counters (IA32_FIXED_CTRx, controlled together by
 *		IA32_FIXED_CTR_CTRL) and the global registers: GLOBAL_CTRL
 *		switches every counter at once, GLOBAL_STATUS says which
 *		overflowed, GLOBAL_OVF_CTRL clears that;
 *   version 3	the AnyThread bit;
 *   version 4	streamlined freeze (not used: see below);
 *   version 5	a bitmap of the fixed counters present (ECX), and
 *		AnyThread may be deprecated (EDX bit 15).
 *
 * EBX lists the architectural events a part does not have; those read
 * as absent (-ENOENT) rather than counting zero.  Counters written with
 * WRMSR take 32 bits sign-extended, unless IA32_PERF_CAPABILITIES has
 * full-width writes, which the IA32_A_PMCx aliases take whole: that
 * decides the longest period.
 *
 * Per-family event maps and constraints are data (families.c); a part
 * of no family there counts the architectural events alone.
 *
 * Freeze on PMI: with DEBUGCTL's FREEZE_PERFMON_ON_PMI set, versions 2
 * and 3 clear GLOBAL_CTRL themselves when they raise the PMI, so the
 * counters stop at the overflow rather than when the handler reaches
 * its first WRMSR, and the NMI entry code no longer shows in kernel
 * counts.  The handler turns them back on as it would anyway.  Version 4 changes the freeze
 * into a status bit (GLOBAL_STATUS.CTR_FRZ) that software must clear
 * through GLOBAL_STATUS_RESET, a different protocol that our PMU model
 * does not emulate; there the bit stays clear and the handler's write
 * to GLOBAL_CTRL stops the counters (upstream dropped its version 4
 * freeze support in 5.11).
 */

#include <linux/cpu.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/perf_event.h>
#include <asm/processor.h>

#include "../counters.h"

/* IA32_PERF_CAPABILITIES: counters take full-width writes (IA32_A_PMCx). */
#define INTEL_CAP_FULL_WIDTH_WRITES	BIT_ULL(13)
/* IA32_PERF_CAPABILITIES: IA32_PERF_METRICS exists (topdown.c). */
#define INTEL_CAP_PERF_METRICS		BIT_ULL(PERF_CAP_METRICS_IDX)

/* CPUID.0AH EBX bit i clear: architectural event i is there. */
static const struct {
	int	hw_event;
	u64	code;
} intel_arch_events[] = {
	{ PERF_COUNT_HW_CPU_CYCLES,		0x003c },
	{ PERF_COUNT_HW_INSTRUCTIONS,		0x00c0 },
	{ PERF_COUNT_HW_BUS_CYCLES,		0x013c },
	{ PERF_COUNT_HW_CACHE_REFERENCES,	0x4f2e },
	{ PERF_COUNT_HW_CACHE_MISSES,		0x412e },
	{ PERF_COUNT_HW_BRANCH_INSTRUCTIONS,	0x00c4 },
	{ PERF_COUNT_HW_BRANCH_MISSES,		0x00c5 },
};

/*
 * What each fixed counter counts, as the event code that may use it:
 * instructions, core cycles, and pseudo-codes (event select 0) for
 * reference cycles and topdown slots, which only the fixed counter has;
 * then the E-cores' (Skymont on) level-1 topdown events: bad
 * speculation, front-end bound and retiring, whose codes the
 * general-purpose counters count too.
 */
static const u64 intel_fixed_codes[X86C_MAX_FIXED] = {
	0x00c0, 0x003c, 0x0300, 0x0400, 0x0073, 0x019c, 0x02c2,
};

/* The IA32_FIXED_CTR_CTRL bits of fixed counter @i for control @config. */
static u64 intel_fixed_bits(int i, u64 config)
{
	u64 bits = 0;

	if (config & ARCH_PERFMON_EVENTSEL_OS)
		bits |= INTEL_FIXED_0_KERNEL;
	if (config & ARCH_PERFMON_EVENTSEL_USR)
		bits |= INTEL_FIXED_0_USER;
	if (config & ARCH_PERFMON_EVENTSEL_ANY)
		bits |= INTEL_FIXED_0_ANYTHREAD;
	if (config & ARCH_PERFMON_EVENTSEL_INT)
		bits |= INTEL_FIXED_0_ENABLE_PMI;
	/* A precise event's records have DATA_CFG's groups (pebs.c). */
	if (config & ICL_EVENTSEL_ADAPTIVE)
		bits |= ICL_FIXED_0_ADAPTIVE;
	return bits << (i * INTEL_FIXED_BITS_STRIDE);
}

/*
 * One register controls every fixed counter.  While the counters are
 * disabled (between pmu_disable and pmu_enable, where the core takes
 * groups off and puts them on), a change is only noted: intel_enable_all()
 * writes the result once, and not at all when the fixed counters end up
 * programmed as they were, as when a group is taken off and put back.
 * Otherwise (the PMI, a lone start or stop) it is written at once.
 */
static void intel_set_fixed(struct x86c_pmu *p, struct x86c_cpu *cpu, int i,
			    u64 bits)
{
	u64 mask = (0xfULL | ICL_FIXED_0_ADAPTIVE) <<
		   (i * INTEL_FIXED_BITS_STRIDE);

	cpu->fixed_ctrl = (cpu->fixed_ctrl & ~mask) | bits;
	if (cpu->disabled)
		return;
	p->hw->write_msr(MSR_ARCH_PERFMON_FIXED_CTR_CTRL, cpu->fixed_ctrl);
	cpu->fixed_ctrl_hw = cpu->fixed_ctrl;
}

/*
 * Skylake client microcode of 2019 on uses general counter 3 for a TSX
 * workaround unless MSR_TSX_FORCE_ABORT.RTM_FORCE_ABORT makes every RTM
 * transaction abort instead.  With allow_tsx_force_abort (the default,
 * as upstream's) the driver sets the bit before it programs counter 3
 * and clears it when it enables the PMU without an event there, so TSX
 * works whenever counter 3 is not in use; without it, counter 3 is
 * withheld from every event (x86c_withhold()) and TSX always works.
 */
#define INTEL_TFA_COUNTER	3

static bool intel_allow_tfa = true;
static DEFINE_MUTEX(intel_allow_tfa_mutex);

static void intel_set_tfa(struct x86c_pmu *p, struct x86c_cpu *cpu, bool on)
{
	if (cpu->rtm_force_abort == on)
		return;
	p->hw->write_msr(MSR_TSX_FORCE_ABORT, on ? MSR_TFA_RTM_FORCE_ABORT : 0);
	cpu->rtm_force_abort = on;
}

/*
 * Version 2 and later: GLOBAL_CTRL gates, so a counter is always armed.
 * A topdown metric has no control of its own (topdown.c).
 */
static void intel_program(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx,
			  u64 config)
{
	if (x86c_is_metric(idx))
		return;
	/* A precise event's counter stores records (pebs.c). */
	if (unlikely(cpu->owner[idx] && cpu->owner[idx]->attr.precise_ip))
		x86c_pebs_on(p, cpu, idx);
	if (x86c_is_fixed(idx)) {
		idx -= INTEL_PMC_IDX_FIXED;
		intel_set_fixed(p, cpu, idx, intel_fixed_bits(idx, config));
		return;
	}
	if (idx == INTEL_TFA_COUNTER && p->tsx_force_abort)
		intel_set_tfa(p, cpu, true);
	p->hw->write_msr(p->gp_ctl + idx, config | ARCH_PERFMON_EVENTSEL_ENABLE);
}

static void intel_unprogram(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx)
{
	if (x86c_is_metric(idx))
		return;
	if (unlikely(cpu->pebs.enabled & BIT_ULL(idx)))
		x86c_pebs_off(p, cpu, idx);
	if (x86c_is_fixed(idx))
		intel_set_fixed(p, cpu, idx - INTEL_PMC_IDX_FIXED, 0);
	else
		p->hw->write_msr(p->gp_ctl + idx, 0);
}

static void intel_enable_all(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	if (cpu->rtm_force_abort && !(cpu->owned & BIT_ULL(INTEL_TFA_COUNTER)))
		intel_set_tfa(p, cpu, false);
	if (cpu->fixed_ctrl != cpu->fixed_ctrl_hw) {
		p->hw->write_msr(MSR_ARCH_PERFMON_FIXED_CTR_CTRL,
				 cpu->fixed_ctrl);
		cpu->fixed_ctrl_hw = cpu->fixed_ctrl;
	}
	p->hw->write_msr(MSR_CORE_PERF_GLOBAL_CTRL, x86c_global_enable(p));
}

static void intel_disable_all(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	p->hw->write_msr(MSR_CORE_PERF_GLOBAL_CTRL, 0);
}

static u64 intel_overflowed(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	return p->hw->read_msr(MSR_CORE_PERF_GLOBAL_STATUS);
}

static void intel_ack(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 mask)
{
	p->hw->write_msr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, mask);
}

/* Version 1: each counter's own enable bit is all there is. */
static void intel_v1_program(struct x86c_pmu *p, struct x86c_cpu *cpu,
			     int idx, u64 config)
{
	/* While disabled, the enable that follows writes it. */
	if (cpu->disabled)
		return;
	p->hw->write_msr(p->gp_ctl + idx, config | ARCH_PERFMON_EVENTSEL_ENABLE);
}

static void intel_v1_ack(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 mask)
{
}

/* Set by the probe: AnyThread exists (version 3 on, not deprecated). */
static bool intel_has_anythread;

/* The shortest sampling period of a checkpointed event (2^31 - 1). */
#define INTEL_CHECKPOINTED_MIN_PERIOD	0x7fffffffULL

/* AnyThread: the event counts both threads of the core. */
static int intel_anythread_config(struct perf_event *event)
{
	int err;

	if (!(event->attr.config & ARCH_PERFMON_EVENTSEL_ANY))
		return 0;
	if (!intel_has_anythread)
		return -EINVAL;
	/* Counting the other hyperthread's work is a CPU-wide view. */
	err = perf_allow_cpu();
	if (err)
		return err;
	event->hw.config |= ARCH_PERFMON_EVENTSEL_ANY;
	return 0;
}

/*
 * The transactional filters, where the PMU takes them (x86c_pmu.in_tx;
 * elsewhere the bits are dropped, as upstream drops them): IN_TX counts
 * only inside a transaction, IN_TX_CHECKPOINTED also rolls the count
 * back with an aborted one.  Neither goes with AnyThread or precise
 * sampling, whose results would mean nothing.  A checkpointed counter
 * that overflows inside a transaction aborts it and is rolled back to
 * before the overflow, again and again: such an event does not sample,
 * except with a period long enough to be counting in effect (perf stat
 * in a KVM guest).
 */
static int intel_in_tx_config(struct x86c_pmu *p, struct perf_event *event)
{
	u64 tx = event->attr.config & (HSW_IN_TX | HSW_IN_TX_CHECKPOINTED);

	if (!p->in_tx || !tx)
		return 0;
	event->hw.config |= tx;
	if ((event->hw.config & ARCH_PERFMON_EVENTSEL_ANY) ||
	    event->attr.precise_ip)
		return -EOPNOTSUPP;
	if ((tx & HSW_IN_TX_CHECKPOINTED) && event->attr.sample_period &&
	    event->attr.sample_period < INTEL_CHECKPOINTED_MIN_PERIOD)
		return -EOPNOTSUPP;
	return 0;
}

static int intel_hw_config(struct x86c_pmu *p, struct perf_event *event)
{
	int err;

	err = intel_topdown_config(p, event);
	if (!err)
		err = intel_anythread_config(event);
	if (!err)
		err = intel_in_tx_config(p, event);
	if (!err)
		err = x86c_pebs_mem_config(p, event);
	return err;
}

/*
 * freeze_on_smi: DEBUGCTL's FREEZE_IN_SMM, on every CPU, so that
 * firmware's System Management Mode does not show in the counts.  On
 * by default.
 */
static unsigned long intel_freeze_on_smi = 1;
static DEFINE_MUTEX(intel_freeze_on_smi_mutex);

/**
 * x86c_debugctl_update() - set and clear bits of this CPU's DEBUGCTL
 * @p: the PMU whose registers these are
 * @set: bits to set
 * @clear: bits to clear (@set wins where both name a bit)
 *
 * The one read-modify-write of DEBUGCTL the Intel code does: the other
 * owners' bits (BTF of a ptraced task, bus-lock detection, the other
 * file's recording bits) are kept, nothing is written when nothing
 * changes, and the write is one that may fail, since a hypervisor may
 * refuse any bit with a #GP (KVM refuses the freezes and, without
 * guest LBR, the LBR bits).  What to say of a refusal is the caller's.
 *
 * Return: 0, or the write's error.
 */
int x86c_debugctl_update(struct x86c_pmu *p, u64 set, u64 clear)
{
	u64 old = p->hw->read_msr(MSR_IA32_DEBUGCTLMSR);
	u64 val = (old & ~clear) | set;

	return val == old ? 0 : p->hw->write_msr_safe(MSR_IA32_DEBUGCTLMSR, val);
}

/*
 * This CPU's DEBUGCTL bits that are ours: FREEZE_IN_SMM as the knob
 * says, FREEZE_PERFMON_ON_PMI where the PMU freezes on PMI.  The other
 * bits (BTF of a ptraced task, bus-lock detection) are left as found.
 *
 * A hypervisor may refuse either freeze bit with a #GP (KVM refuses
 * both), so the write is one that may fail, and a refused bit is given
 * up: the PMU's freeze for good (the PMI handler stops the counters
 * itself then, see pmi.c), the SMM freeze for this write only, since
 * the knob may be set again.  Each is said once.
 */
static void intel_apply_debugctl(struct x86c_pmu *p)
{
	const u64 ours = DEBUGCTLMSR_FREEZE_IN_SMM |
			 DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI;
	/* What to do without, the knob's bit first. */
	static const u64 give_up[] = {
		DEBUGCTLMSR_FREEZE_IN_SMM,
		DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI,
		DEBUGCTLMSR_FREEZE_IN_SMM | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI,
	};
	u64 want = 0;
	int i;

	if (READ_ONCE(intel_freeze_on_smi))
		want |= DEBUGCTLMSR_FREEZE_IN_SMM;
	if (p->pmi_freezes)
		want |= DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI;
	if (!x86c_debugctl_update(p, want, ours))
		return;

	for (i = 0; i < ARRAY_SIZE(give_up); i++) {
		if ((want & give_up[i]) != give_up[i] ||
		    x86c_debugctl_update(p, want & ~give_up[i], ours))
			continue;
		if (give_up[i] & DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI)
			p->pmi_freezes = false;
		/* Not for a KUnit model's refusals. */
		if (!x86c_is_host(p))
			return;
		if (give_up[i] & DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI)
			pr_info("perf/x86: DEBUGCTL refuses to freeze the counters on PMI; the PMI handler stops them\n");
		if (give_up[i] & DEBUGCTLMSR_FREEZE_IN_SMM)
			pr_info_once("perf/x86: DEBUGCTL refuses to freeze the counters in SMM; freeze_on_smi has no effect\n");
		return;
	}
	if (x86c_is_host(p))
		pr_warn_once("perf/x86: DEBUGCTL refuses %#llx of its bits\n",
			     want);
}

static void intel_freeze_on_smi_ipi(void *unused)
{
	intel_apply_debugctl(x86c_here());
}

static ssize_t freeze_on_smi_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", READ_ONCE(intel_freeze_on_smi));
}

static ssize_t freeze_on_smi_store(struct device *dev,
				   struct device_attribute *attr,
				   const char *buf, size_t count)
{
	unsigned long val;
	int err;

	err = kstrtoul(buf, 0, &val);
	if (err)
		return err;
	if (val > 1)
		return -EINVAL;

	mutex_lock(&intel_freeze_on_smi_mutex);
	if (val != intel_freeze_on_smi) {
		WRITE_ONCE(intel_freeze_on_smi, val);
		cpus_read_lock();
		on_each_cpu(intel_freeze_on_smi_ipi, NULL, 1);
		cpus_read_unlock();
	}
	mutex_unlock(&intel_freeze_on_smi_mutex);
	return count;
}
static DEVICE_ATTR_RW(freeze_on_smi);

/* Counter 3 in use here: reschedule, so that it moves or stops. */
static void intel_allow_tfa_ipi(void *unused)
{
	struct x86c_pmu *p = x86c_here();

	if (p && (this_cpu_ptr(p->cpus)->owned & BIT_ULL(INTEL_TFA_COUNTER)))
		perf_pmu_resched(&p->pmu);
}

static ssize_t allow_tsx_force_abort_show(struct device *dev,
					  struct device_attribute *attr,
					  char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(intel_allow_tfa));
}

static ssize_t allow_tsx_force_abort_store(struct device *dev,
					   struct device_attribute *attr,
					   const char *buf, size_t count)
{
	struct x86c_pmu *p = x86c_dev_pmu(dev);
	bool val;
	int err;

	err = kstrtobool(buf, &val);
	if (err)
		return err;

	guard(mutex)(&intel_allow_tfa_mutex);
	if (val == intel_allow_tfa)
		return count;
	err = x86c_withhold(p, val ? 0 : BIT_ULL(INTEL_TFA_COUNTER));
	if (err)
		return err;
	WRITE_ONCE(intel_allow_tfa, val);
	cpus_read_lock();
	on_each_cpu(intel_allow_tfa_ipi, NULL, 1);
	cpus_read_unlock();
	return count;
}
static DEVICE_ATTR_RW(allow_tsx_force_abort);

static struct attribute *intel_pmu_attrs[] = {
	&dev_attr_freeze_on_smi.attr,
	&dev_attr_allow_tsx_force_abort.attr,
	NULL,
};

static umode_t intel_pmu_attr_visible(struct kobject *kobj,
				      struct attribute *attr, int i)
{
	struct x86c_pmu *p = x86c_dev_pmu(kobj_to_dev(kobj));

	if (attr == &dev_attr_allow_tsx_force_abort.attr &&
	    !p->tsx_force_abort)
		return 0;
	return attr->mode;
}

/* The Intel-only files beside rdpmc in the PMU's directory. */
const struct attribute_group x86c_intel_pmu_group = {
	.attrs		= intel_pmu_attrs,
	.is_visible	= intel_pmu_attr_visible,
};

static void intel_cpu_starting(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	intel_apply_debugctl(p);
	x86c_intel_lbr_cpu_starting(p);
	x86c_ds_cpu_starting(p, cpu);
	/* Whatever firmware or a kexec'd kernel left: TSX until we need 3. */
	if (p->tsx_force_abort) {
		cpu->rtm_force_abort = true;
		intel_set_tfa(p, cpu, false);
	}
}

static void intel_kind_counters(struct x86c_pmu *p);

/* Not static: counters_test.c drives it against a model of the MSRs. */
const struct x86c_vendor x86c_intel_v2_vendor = {
	.name		= "Intel architectural perfmon",
	.global_ctrl	= true,
	.hw_config	= intel_hw_config,
	.program	= intel_program,
	.unprogram	= intel_unprogram,
	.enable_all	= intel_enable_all,
	.disable_all	= intel_disable_all,
	.overflowed	= intel_overflowed,
	.ack		= intel_ack,
	.cpu_starting	= intel_cpu_starting,
	.topdown_update	= intel_topdown_update,
	.topdown_start	= intel_topdown_start,
	.kind_counters	= intel_kind_counters,
};

static const struct x86c_vendor intel_v1 = {
	.name		= "Intel architectural perfmon v1",
	.hw_config	= intel_hw_config,
	.program	= intel_v1_program,
	.unprogram	= intel_unprogram,
	.enable_all	= x86c_program_each,
	.disable_all	= x86c_program_each,
	.overflowed	= x86c_overflowed_by_sign,
	.ack		= intel_v1_ack,
	.cpu_starting	= intel_cpu_starting,
};

/* caps/pmu_name of a part no family table knows, as upstream names it. */
static const char *intel_generic_name(int version)
{
	if (version >= 5)
		return "generic_arch_v5+";
	return version >= 2 ? "generic_arch_v2+" : "generic_arch_v1";
}

static const struct x86c_intel_family *intel_family(void)
{
	const struct x86c_intel_family *const *f;
	const u8 *model;

	if (boot_cpu_data.x86 != 6)
		return NULL;
	for (f = x86c_intel_families; *f; f++)
		for (model = (*f)->models; *model; model++)
			if (*model == boot_cpu_data.x86_model)
				return *f;
	return NULL;
}

/* False for the code of an architectural event CPUID marks absent. */
static bool intel_code_available(struct x86c_pmu *p, u64 code)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(intel_arch_events); i++)
		if (intel_arch_events[i].code == code)
			return i < p->events_mask_len &&
			       !(p->events_mask & BIT(i));
	return true;
}

/*
 * The generic events: architectural ones CPUID has, then the family's
 * where their code is not one CPUID says is absent (Sapphire Rapids
 * counts ref-cycles with the architectural 0x013c where that is there).
 */
static void intel_event_map(struct x86c_pmu *p,
			    const struct x86c_intel_family *f, u64 fixed)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(intel_arch_events); i++)
		if (intel_code_available(p, intel_arch_events[i].code))
			p->event_map[intel_arch_events[i].hw_event] =
				intel_arch_events[i].code;
	if (fixed & BIT_ULL(2))
		p->event_map[PERF_COUNT_HW_REF_CPU_CYCLES] = intel_fixed_codes[2];
	if (!f)
		return;
	for (i = 0; i < PERF_COUNT_HW_MAX; i++) {
		if (f->event_map[i] && intel_code_available(p, f->event_map[i]))
			p->event_map[i] = f->event_map[i];
		else if (!p->event_map[i] && f->event_fallback[i])
			p->event_map[i] = f->event_fallback[i];
	}
}

/* The fixed counters in @fixed (a bit each) as the events they take. */
static void intel_fixed_events(struct x86c_pmu *p, u64 fixed)
{
	int i;

	/* Fixed counters are numbered by position; a hole stays unused. */
	p->fixed_present = fixed;
	p->num_fixed = fixed ? fls64(fixed) : 0;
	p->nr_fixed_events = 0;
	for (i = 0; i < p->num_fixed; i++) {
		if (!(fixed & BIT_ULL(i)))
			continue;
		p->fixed[p->nr_fixed_events++] = (struct event_constraint) {
			.idxmsk64 = BIT_ULL(INTEL_PMC_IDX_FIXED + i),
			.code = intel_fixed_codes[i],
			.cmask = X86C_FIXED_CMASK,
		};
	}
}

/*
 * The counters of the CPU this runs on, from CPUID leaf 23H
 * (Architectural PerfMon Extension, Meteor Lake on), into @k.  Return:
 * false where the leaf or its counters' subleaf is not there.
 */
static bool intel_ext_counters(struct x86c_kind_counters *k)
{
	union cpuid35_eax eax;
	unsigned int ebx, ecx, edx;

	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON_EXT) ||
	    boot_cpu_data.cpuid_level < ARCH_PERFMON_EXT_LEAF)
		return false;
	cpuid_count(ARCH_PERFMON_EXT_LEAF, 0, &eax.full, &ebx, &ecx, &edx);
	if (!eax.split.cntr_subleaf)
		return false;
	cpuid_count(ARCH_PERFMON_EXT_LEAF, ARCH_PERFMON_NUM_COUNTER_LEAF,
		    &k->gp, &k->fixed, &ecx, &edx);
	k->core_type = get_this_hybrid_cpu_type();
	return k->gp != 0;
}

/**
 * x86c_intel_take_counters - a hybrid kind's counters as CPUID leaf 23H
 *	gives them on one of its CPUs
 * @p: the kind's PMU
 * @k: what the leaf says
 *
 * Counters beyond what we drive are left unused.
 */
void x86c_intel_take_counters(struct x86c_pmu *p,
			      const struct x86c_kind_counters *k)
{
	p->num_gp = min(fls(k->gp), X86C_MAX_GP);
	intel_fixed_events(p, k->fixed & GENMASK(X86C_MAX_FIXED - 1, 0));
}

/* x86c_vendor.kind_counters: on the first CPU of @p's kind. */
static void intel_kind_counters(struct x86c_pmu *p)
{
	struct x86c_kind_counters k;

	if (intel_ext_counters(&k))
		x86c_intel_take_counters(p, &k);
}

/* What family @f (NULL for none) adds to the architectural events. */
static void intel_family_tables(struct x86c_pmu *p,
				const struct x86c_intel_family *f)
{
	memset(p->event_map, 0, sizeof(p->event_map));
	intel_event_map(p, f, p->fixed_present);
	p->table = NULL;
	p->cache_events = NULL;
	p->cache_refused = 0;
	p->named_events = NULL;
	p->tsx_events = NULL;
	p->mem_events = NULL;
	p->pebs_loads_aux = false;
	p->in_tx = false;
	p->nr_extra = 0;
	p->extra_regs = NULL;
	p->perf_metrics = false;
	p->nr_metrics = 0;
	p->period_limits = NULL;
	if (!f) {
		p->family_name = intel_generic_name(p->version);
		return;
	}
	p->table = f->constraints;
	p->family_name = f->name;
	p->cache_events = f->cache_events;
	p->cache_refused = f->cache_refused;
	p->named_events = f->named_events;
	p->mem_events = f->mem_events;
	p->pebs_loads_aux = f->pebs_loads_aux;
	p->period_limits = f->period_limits;
	/* HLE alone (no part has it so) takes the bits without showing them. */
	if (boot_cpu_has(X86_FEATURE_RTM))
		p->tsx_events = f->tsx_events;
	p->in_tx = f->tsx_events && (boot_cpu_has(X86_FEATURE_RTM) ||
				     boot_cpu_has(X86_FEATURE_HLE));
	if (f->extra_regs)
		x86c_extra_probe(p, f->extra_regs, f->nr_extra);
	p->perf_metrics = f->nr_metrics &&
			  (p->perf_capabilities & INTEL_CAP_PERF_METRICS);
	if (p->perf_metrics)
		p->nr_metrics = f->nr_metrics;
}

/**
 * x86c_intel_split_hybrid - a hybrid part's two PMUs, from the one PMU
 *	CPUID describes
 * @p: probed from CPUID 0AH, with family @f's tables already; becomes
 *	the P-cores' PMU
 * @atom: becomes the E-cores' PMU, with @f->atom's tables and precise
 *	rules
 * @f: the part's family
 * @boot: the boot CPU's kind's counters from CPUID leaf 23H, or NULL
 *
 * Alder Lake's and Raptor Lake's CPUID 0AH gives what both kinds of
 * core have: the E-cores' six general-purpose counters and fixed
 * counters 0-2.  A P-core has two general-purpose counters more and
 * fixed counter 3 (topdown slots): the family says so (core_more_gp,
 * core_more_fixed).  Where CPUID already has those fixed counters, it
 * describes the P-cores themselves (firmware turned the E-cores off):
 * nothing is added then.  The P-cores
 * have IA32_PERF_METRICS, which IA32_PERF_CAPABILITIES does not announce
 * (it describes what every kind of core has): the family's metrics are
 * theirs without it, as upstream gives them.
 *
 * Meteor Lake and later say each CPU's own counters in CPUID leaf 23H
 * (@boot): the boot CPU's kind has those (and the family's additions
 * are not needed).  The other kind's can only be read on one of its
 * CPUs, which are not up yet: it has what CPUID 0AH gives until the
 * first of them comes up (x86c_pmu.shape_pending).
 */
void x86c_intel_split_hybrid(struct x86c_pmu *p, struct x86c_pmu *atom,
			     const struct x86c_intel_family *f,
			     const struct x86c_kind_counters *boot)
{
	struct x86c_pmu *boot_kind = p;

	*atom = *p;
	atom->name = "cpu_atom";
	atom->core_type = X86C_INTEL_ATOM;
	intel_family_tables(atom, f->atom);
	x86c_pebs_reshape(atom, f->atom);

	p->name = "cpu_core";
	p->core_type = X86C_INTEL_CORE;
	p->perf_metrics = f->nr_metrics > 0;
	p->nr_metrics = f->nr_metrics;
	if (boot) {
		if (boot->core_type == X86C_INTEL_ATOM)
			boot_kind = atom;
		x86c_intel_take_counters(boot_kind, boot);
		(boot_kind == p ? atom : p)->shape_pending = true;
		return;
	}
	if (f->core_more_fixed & ~p->fixed_present)
		p->num_gp = min(p->num_gp + f->core_more_gp, X86C_MAX_GP);
	intel_fixed_events(p, p->fixed_present | f->core_more_fixed);
}

/**
 * x86c_intel_probe - find and describe Intel's architectural counters
 * @p: filled in: the PMU of the boot CPU's kind
 * @atom: on a hybrid part of a family we know, filled in too: the PMU
 *	of the E-cores (@atom->core_type set); untouched otherwise
 *
 * Return: 0, or -ENODEV without architectural perfmon.
 */
int x86c_intel_probe(struct x86c_pmu *p, struct x86c_pmu *atom)
{
	const struct x86c_intel_family *f = intel_family();
	union cpuid10_eax eax;
	union cpuid10_ebx ebx;
	union cpuid10_edx edx;
	unsigned int ecx;
	struct x86c_kind_counters boot;
	u64 fixed = 0;

	if (!boot_cpu_has(X86_FEATURE_ARCH_PERFMON))
		return -ENODEV;
	cpuid(0xa, &eax.full, &ebx.full, &ecx, &edx.full);
	if (!eax.split.version_id || !eax.split.num_counters)
		return -ENODEV;

	p->version = eax.split.version_id;
	p->num_gp = min_t(int, eax.split.num_counters, X86C_MAX_GP);
	p->width = eax.split.bit_width;
	p->events_mask = ebx.full;
	p->events_mask_len = eax.split.mask_length;
	p->gp_ctl = MSR_ARCH_PERFMON_EVENTSEL0;
	p->gp_ctr = MSR_ARCH_PERFMON_PERFCTR0;
	p->gp_stride = 1;
	p->fixed_ctr = MSR_CORE_PERF_FIXED_CTR0;
	p->raw_mask = X86_RAW_EVENT_MASK;
	p->format = &x86c_intel_format_group;
	p->vendor = p->version >= 2 ? &x86c_intel_v2_vendor : &intel_v1;

	if (p->version >= 2) {
		fixed = GENMASK_ULL(edx.split.num_counters_fixed, 0) >> 1;
		/*
		 * Parts before version 5 may leave EDX empty yet have the
		 * first three; a hypervisor is believed as it says.
		 */
		if (p->version < 5 && !boot_cpu_has(X86_FEATURE_HYPERVISOR))
			fixed |= GENMASK_ULL(2, 0);
		if (p->version >= 5)
			fixed |= ecx;
		fixed &= GENMASK_ULL(X86C_MAX_FIXED - 1, 0);
	}
	p->pmi_freezes = p->version == 2 || p->version == 3;
	intel_has_anythread = p->version >= 3 &&
			      !edx.split.anythread_deprecated;
	/*
	 * perf's parser learns "any" from format/: upstream shows it from
	 * version 2 (the bit itself came with 3) until version 5 says it
	 * is deprecated, and tools written against that expect the same.
	 */
	p->format_any = p->version >= 2 &&
			!(p->version >= 5 && edx.split.anythread_deprecated);

	intel_fixed_events(p, fixed);

	if (boot_cpu_has(X86_FEATURE_PDCM))
		rdmsrl_safe(MSR_IA32_PERF_CAPABILITIES, &p->perf_capabilities);
	if (p->perf_capabilities & INTEL_CAP_FULL_WIDTH_WRITES)
		p->gp_ctr = MSR_IA32_PMC0;
	else
		p->max_period = (1ULL << 31) - 1;

	p->vendor_group = &x86c_intel_pmu_group;
	intel_family_tables(p, f);
	x86c_intel_lbr_probe(p, f);
	x86c_bts_probe(p);
	x86c_pebs_probe(p, f);
	p->tsx_force_abort = f && f->tsx_force_abort && p->num_gp > 3 &&
			     boot_cpu_has(X86_FEATURE_TSX_FORCE_ABORT) &&
			     !boot_cpu_has(X86_FEATURE_RTM_ALWAYS_ABORT);
	p->ht_excl = x86c_ht_wanted(p);
	if (p->ht_excl)
		pr_info("perf/x86: memory events keep their counters from the sibling thread (errata BJ122, BV98, HSD29)\n");
	if (f && f->atom && boot_cpu_has(X86_FEATURE_HYBRID_CPU))
		x86c_intel_split_hybrid(p, atom, f,
					intel_ext_counters(&boot) ? &boot : NULL);
	/*
	 * The metrics are shares of fixed counter 3's slots.  Their events/
	 * files stay without it, as upstream lists them.
	 */
	if (!(p->fixed_present & BIT_ULL(3)))
		p->nr_metrics = 0;
	return 0;
}
