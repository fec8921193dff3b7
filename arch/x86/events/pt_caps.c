// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: Intel Processor Trace capabilities, as the rest of the
 * kernel asks for them.
 *
 * KVM decides which PT features and MSRs a guest gets from a copy of
 * CPUID leaf 0x14 (sub-leaves 0 and 1, four registers each), decoded one
 * named capability at a time; the crash and kexec paths stop any trace
 * in flight.  Those questions exist whether or not a PT driver runs.
 * perfcore has no PT driver yet, so the host side answers as for a CPU
 * whose PT could not be set up: no capability, no PT event, nothing to
 * stop.  The decoder itself is exact, for whatever leaf it is given.
 */

#include <linux/bits.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/perf_event.h>

#include <asm/intel_pt.h>

/*
 * Where each capability sits in the leaf: the sub-leaf, the register
 * (0 to 3: EAX, EBX, ECX, EDX) and the field's mask within it (SDM vol.
 * 3C, "CPUID Leaf 14H").
 */
struct pt_cap_field {
	u8	subleaf;
	u8	reg;
	u32	mask;
};

enum { PT_EAX, PT_EBX, PT_ECX, PT_EDX };

static const struct pt_cap_field pt_cap_fields[] = {
	[PT_CAP_max_subleaf]		= { 0, PT_EAX, GENMASK(31, 0) },
	[PT_CAP_cr3_filtering]		= { 0, PT_EBX, BIT(0) },
	[PT_CAP_psb_cyc]		= { 0, PT_EBX, BIT(1) },
	[PT_CAP_ip_filtering]		= { 0, PT_EBX, BIT(2) },
	[PT_CAP_mtc]			= { 0, PT_EBX, BIT(3) },
	[PT_CAP_ptwrite]		= { 0, PT_EBX, BIT(4) },
	[PT_CAP_power_event_trace]	= { 0, PT_EBX, BIT(5) },
	[PT_CAP_event_trace]		= { 0, PT_EBX, BIT(7) },
	[PT_CAP_tnt_disable]		= { 0, PT_EBX, BIT(8) },
	[PT_CAP_topa_output]		= { 0, PT_ECX, BIT(0) },
	[PT_CAP_topa_multiple_entries]	= { 0, PT_ECX, BIT(1) },
	[PT_CAP_single_range_output]	= { 0, PT_ECX, BIT(2) },
	[PT_CAP_output_subsys]		= { 0, PT_ECX, BIT(3) },
	[PT_CAP_payloads_lip]		= { 0, PT_ECX, BIT(31) },
	[PT_CAP_num_address_ranges]	= { 1, PT_EAX, GENMASK(2, 0) },
	[PT_CAP_mtc_periods]		= { 1, PT_EAX, GENMASK(31, 16) },
	[PT_CAP_cycle_thresholds]	= { 1, PT_EBX, GENMASK(15, 0) },
	[PT_CAP_psb_periods]		= { 1, PT_EBX, GENMASK(31, 16) },
};

/**
 * intel_pt_validate_cap - one capability field of a CPUID 0x14 copy
 * @caps: PT_CPUID_LEAVES sub-leaves of PT_CPUID_REGS_NUM registers each
 * @cap: which field
 *
 * Return: the field's value, shifted down to bit 0; 0 for a @cap this
 * kernel does not know.
 */
u32 intel_pt_validate_cap(u32 *caps, enum pt_capabilities cap)
{
	const struct pt_cap_field *f;

	if (cap >= ARRAY_SIZE(pt_cap_fields))
		return 0;
	f = &pt_cap_fields[cap];
	return (caps[f->subleaf * PT_CPUID_REGS_NUM + f->reg] & f->mask) >>
	       __ffs(f->mask);
}
EXPORT_SYMBOL_GPL(intel_pt_validate_cap);

/**
 * intel_pt_validate_hw_cap - a capability of the host's PT driver
 * @cap: which field
 *
 * Return: 0.  No PT driver runs, so the host offers none, and KVM sets
 * up no PT pass-through that would rely on the host's PT interrupt.
 */
u32 intel_pt_validate_hw_cap(enum pt_capabilities cap)
{
	return 0;
}
EXPORT_SYMBOL_GPL(intel_pt_validate_hw_cap);

/**
 * is_intel_pt_event - whether @event traces with Intel PT
 * @event: any event
 *
 * Return: 0: with no PT PMU registered, no event can be one.
 */
int is_intel_pt_event(struct perf_event *event)
{
	return 0;
}

/* Crash and kexec stop tracing first; no trace can be running. */
void cpu_emergency_stop_pt(void)
{
}
