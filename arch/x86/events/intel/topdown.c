// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: Intel's topdown slots and metrics, on the P-cores that have
 * IA32_PERF_METRICS (Golden Cove and later; the driver turns it on per
 * family, as x86c_pmu.nr_metrics).
 *
 * Fixed counter 3 counts topdown slots (TOPDOWN.SLOTS, the pseudo-code
 * 0x0400).  IA32_PERF_METRICS splits the slots counted since both
 * registers were last cleared into categories (retiring, bad
 * speculation, front-end bound, back-end bound, then Golden Cove's
 * level-2 ones), byte n being category n's share in 255ths.
 *
 * A metric event (event select 0, unit mask 0x80 + n) is category n's
 * slots.  It takes no counter: the framework places it on an index of
 * its own (x86c_is_metric()), and it counts only as the sibling of a
 * slots event leading its group, which neither it nor its leader may
 * sample with.  Such a group is a topdown group: its events carry
 * PERF_X86_EVENT_TOPDOWN, and folding any of them folds all of this
 * CPU's at once, since the registers they share are cleared after each
 * read: the slots event gets the slots counted, each metric its share.
 * A slots event with no metric beside it is an ordinary fixed-counter
 * event.
 *
 * IA32_PERF_GLOBAL_CTRL's bit 48 (EN_PERF_METRICS) stays set where the
 * metrics exist, as every counter's bit does (intel/core.c): fixed
 * counter 3's own control decides whether anything counts.
 *
 * Like every callback of the framework, these run on the CPU whose
 * counters they touch, with interrupts off.  The PMI does not fold a
 * topdown group unless its slots counter overflows, which a group that
 * cannot sample reaches only after 2^47 slots.
 */

#include <linux/math64.h>
#include <linux/perf_event.h>

#include <asm/msr-index.h>
#include <asm/perf_event.h>

#include "../counters.h"

static bool intel_is_slots(u64 config)
{
	return (config & INTEL_ARCH_EVENT_MASK) == INTEL_TD_SLOTS;
}

/**
 * intel_topdown_config - check a slots or metric event at creation
 * @p: a PMU with IA32_PERF_METRICS
 * @event: the new event, its hw.config set
 *
 * Topdown events take no filters (edge, invert, threshold, AnyThread)
 * nor extra registers.  A metric must be a counting sibling of a
 * counting slots leader; the pair then becomes a topdown group.
 *
 * Return: 0, or -EINVAL.
 */
int intel_topdown_config(struct x86c_pmu *p, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	u64 config = event->hw.config;

	if (!p->nr_metrics ||
	    (!intel_is_slots(config) && x86c_metric_of(p, config) < 0))
		return 0;
	if (event->attr.config1 || event->attr.config2 ||
	    (config & (X86_ALL_EVENT_FLAGS | ARCH_PERFMON_EVENTSEL_ANY)))
		return -EINVAL;
	if (intel_is_slots(config))
		return 0;

	if (is_sampling_event(event) || leader == event ||
	    leader->pmu != event->pmu || !intel_is_slots(leader->hw.config) ||
	    is_sampling_event(leader))
		return -EINVAL;
	/* Counted from its leader's counter: it goes on with the leader. */
	event->event_caps |= PERF_EV_CAP_SIBLING;
	leader->hw.flags |= PERF_X86_EVENT_TOPDOWN;
	event->hw.flags |= PERF_X86_EVENT_TOPDOWN;
	return 0;
}

/* Clear both registers: the metrics describe the slots since then. */
static void intel_topdown_clear(struct x86c_pmu *p)
{
	p->hw->write_msr(p->fixed_ctr + 3, 0);
	p->hw->write_msr(MSR_PERF_METRICS, 0);
}

/**
 * intel_topdown_update - fold this CPU's topdown group
 * @p: the PMU
 * @cpu: this CPU's counters, one of whose events is the group's
 *
 * Return: the slots read.
 */
u64 intel_topdown_update(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct perf_event *owner;
	u64 slots, metrics;
	int n;

	slots = p->hw->read_pmc(INTEL_PMC_FIXED_RDPMC_BASE | 3);
	metrics = p->hw->read_pmc(INTEL_PMC_FIXED_RDPMC_METRICS);
	intel_topdown_clear(p);

	owner = cpu->owner[INTEL_PMC_IDX_FIXED_SLOTS];
	if (owner && (owner->hw.flags & PERF_X86_EVENT_TOPDOWN))
		local64_add(slots, &owner->count);
	for (n = 0; n < p->nr_metrics; n++) {
		owner = cpu->owner[INTEL_PMC_IDX_METRIC_BASE + n];
		if (owner)
			local64_add(mul_u64_u32_div(slots,
						    (metrics >> (8 * n)) & 0xff,
						    0xff),
				    &owner->count);
	}
	return slots;
}

/**
 * intel_topdown_start - a topdown event starts
 * @p: the PMU
 * @event: the slots leader, which counts from zero, or a metric, which
 *	has nothing of its own to load
 */
void intel_topdown_start(struct x86c_pmu *p, struct perf_event *event)
{
	if (!x86c_is_metric(event->hw.idx))
		intel_topdown_clear(p);
}
