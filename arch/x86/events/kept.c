// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what upstream's x86 PMU drivers that perfcore keeps building
 * (RAPL, C-state, AMD power, uncore and IBS, the AMD IOMMU PMU) and Xen's
 * PMU code need from the x86 framework, until perfcore's own framework
 * (the Intel and AMD core counter drivers) provides it.
 *
 * Those drivers and Xen's arch/x86/xen/pmu.c declare these through
 * upstream's private arch/x86/events/perf_event.h; the definitions below
 * follow its declarations.  The counter framework's bookkeeping is not
 * here: nothing drives the core counters yet.
 */

#include <linux/export.h>
#include <linux/perf_event.h>

#include "perf_event.h"

/**
 * events_sysfs_show - show an x86 PMU's event attribute
 * @dev: the PMU's device
 * @attr: the attribute, inside a struct perf_pmu_events_attr
 * @page: the output buffer
 *
 * The kept drivers describe every event by its string, which is what
 * the core's show routine prints; generic hardware events (a config
 * without a string) belong to the core counter driver, which is absent.
 *
 * Return: the length written, 0 for an event without a string.
 */
ssize_t events_sysfs_show(struct device *dev, struct device_attribute *attr,
			  char *page)
{
	return perf_event_sysfs_show(dev, attr, page);
}
EXPORT_SYMBOL_GPL(events_sysfs_show);

/*
 * Xen's PV PMU interrupt asks the core counter driver whether one of
 * its counters overflowed.  None is driven, so none did: the interrupt
 * is not ours.
 */
static int kept_no_counter_overflowed(struct pt_regs *regs)
{
	return 0;
}

struct x86_pmu x86_pmu __read_mostly = {
	.name		= "none",
	.handle_irq	= kept_no_counter_overflowed,
};
