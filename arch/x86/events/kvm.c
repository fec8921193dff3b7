// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what KVM and the rest of arch/x86 ask the host's counter
 * driver.  KVM sizes the virtual PMU it offers guests from the host's
 * (perf_get_x86_pmu_capability), turns the guest's architectural events
 * into host events (perf_get_hw_event_config), and on Intel swaps
 * IA32_PERF_GLOBAL_CTRL around each VM entry so that host events that
 * exclude the guest stop counting in it and guest-only events count
 * only there (perf_guest_get_msrs).  On AMD the event select's
 * HostOnly bit does the same once SVM is on.
 *
 * Without counters (x86c_host NULL) every answer is "nothing".  On a
 * hybrid part the two kinds of core have different counters, and a
 * vCPU may run on either: there is no one PMU to offer, and the
 * capability is "nothing" too (KVM then offers no vPMU, as upstream).
 */

#include <linux/export.h>
#include <linux/nospec.h>
#include <linux/perf_event.h>
#include <linux/string.h>

#include <asm/intel_ds.h>
#include <asm/perf_event.h>

#include "counters.h"

/**
 * perf_get_x86_pmu_capability - the counters the host driver offers
 * @cap: filled in; all zero without counters or on a hybrid part
 */
void perf_get_x86_pmu_capability(struct x86_pmu_capability *cap)
{
	struct x86c_pmu *p = x86c_host;

	memset(cap, 0, sizeof(*cap));
	if (!p || p->core_type)
		return;
	cap->version = p->version;
	cap->num_counters_gp = p->num_gp;
	cap->num_counters_fixed = p->num_fixed;
	cap->bit_width_gp = p->width;
	cap->bit_width_fixed = p->num_fixed ? p->width : 0;
	cap->events_mask = p->events_mask;
	cap->events_mask_len = p->events_mask_len;
}
EXPORT_SYMBOL_GPL(perf_get_x86_pmu_capability);

/**
 * perf_get_hw_event_config - the host's code for a generic hardware event
 * @hw_event: a PERF_COUNT_HW_* value
 *
 * Return: the event code, 0 when the host does not count it.
 */
u64 perf_get_hw_event_config(int hw_event)
{
	if (!x86c_host || hw_event < 0 || hw_event >= PERF_COUNT_HW_MAX)
		return 0;
	return x86c_host->event_map[array_index_nospec(hw_event,
						       PERF_COUNT_HW_MAX)];
}
EXPORT_SYMBOL_GPL(perf_get_hw_event_config);

/**
 * x86_perf_rdpmc_index - the RDPMC number of an event on a counter
 * @event: a hardware event of the cpu PMU, active on this CPU
 *
 * Return: the number to give RDPMC in ECX.
 */
int x86_perf_rdpmc_index(struct perf_event *event)
{
	lockdep_assert_irqs_disabled();
	return event->hw.event_base_rdpmc;
}

/* Microcode reload: no erratum of the counters depends on it here. */
void perf_check_microcode(void)
{
}

#ifdef CONFIG_CPU_SUP_INTEL
/*
 * The Intel debug store, where PEBS and BTS hardware write records.  The
 * CPU entry area maps it on every Intel CPU at boot, driver or not, so
 * it exists even while nothing uses it.
 */
DEFINE_PER_CPU_PAGE_ALIGNED(struct debug_store, cpu_debug_store);

/**
 * perf_guest_get_msrs - PMU MSRs to switch around a guest's run
 * @nr: set to how many
 * @data: KVM's state of the guest PMU (not needed)
 *
 * Called by VMX with interrupts off before each VM entry.
 *
 * Return: IA32_PERF_GLOBAL_CTRL as the host has it and as the guest
 * must: without the counters of events that exclude the guest, and
 * with those of guest-only events only in the guest.  NULL on a CPU
 * without global control.
 */
struct perf_guest_switch_msr *perf_guest_get_msrs(int *nr, void *data)
{
	struct x86c_pmu *p = x86c_here();
	struct perf_guest_switch_msr *msr;
	struct x86c_cpu *cpu;
	u64 host_only = 0, guest_only = 0;
	unsigned long owned;
	int idx;

	*nr = 0;
	if (!p || !p->vendor->global_ctrl)
		return NULL;
	cpu = this_cpu_ptr(p->cpus);
	owned = cpu->owned;
	for_each_set_bit(idx, &owned, X86_PMC_IDX_MAX) {
		struct perf_event_attr *attr = &cpu->owner[idx]->attr;

		if (attr->exclude_guest)
			host_only |= BIT_ULL(idx);
		if (attr->exclude_host)
			guest_only |= BIT_ULL(idx);
	}

	msr = &cpu->guest_msr;
	msr->msr = MSR_CORE_PERF_GLOBAL_CTRL;
	msr->host = x86c_global_enable(p) & ~guest_only;
	msr->guest = x86c_global_enable(p) & ~host_only;
	*nr = 1;
	return msr;
}
EXPORT_SYMBOL_GPL(perf_guest_get_msrs);

/**
 * x86_perf_get_lbr - the host's last-branch-record geometry
 * @lbr: filled in; all zero: KVM's guests get no LBR from perfcore yet
 */
void x86_perf_get_lbr(struct x86_pmu_lbr *lbr)
{
	memset(lbr, 0, sizeof(*lbr));
}
EXPORT_SYMBOL_GPL(x86_perf_get_lbr);

/*
 * Resume from hibernation or suspend: the boot CPU's debug store
 * address, for BTS and PEBS to write to (the other CPUs come up again).
 */
void perf_restore_debug_store(void)
{
	x86c_ds_resume();
}

/* VMX on or off: no Intel PT tracing to stop around it. */
void intel_pt_handle_vmx(int on)
{
}
EXPORT_SYMBOL_GPL(intel_pt_handle_vmx);
#endif

#ifdef CONFIG_CPU_SUP_AMD
/*
 * KVM calls these on each CPU as it turns SVM on and off there.  With
 * SVM on, HostOnly means what it says, so events that exclude the guest
 * keep it; with SVM off it would stop the counter, so it is stripped.
 */
static void amd_pmu_virt_mask(u64 mask)
{
	struct x86c_pmu *p = x86c_here();
	unsigned long flags;

	if (!p)
		return;
	local_irq_save(flags);
	x86c_set_virt_mask(p, this_cpu_ptr(p->cpus), mask);
	local_irq_restore(flags);
}

/* SVM on, on this CPU. */
void amd_pmu_enable_virt(void)
{
	amd_pmu_virt_mask(0);
}
EXPORT_SYMBOL_GPL(amd_pmu_enable_virt);

/* SVM off, on this CPU. */
void amd_pmu_disable_virt(void)
{
	if (x86c_host)
		amd_pmu_virt_mask(x86c_host->virt_mask);
}
EXPORT_SYMBOL_GPL(amd_pmu_disable_virt);
#endif
