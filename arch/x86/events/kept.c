// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what upstream's x86 PMU drivers that perfcore keeps building
 * (RAPL, C-state, AMD power, uncore and IBS, the AMD IOMMU PMU) and Xen's
 * PMU code need from the x86 framework, until perfcore's own framework
 * (counters.c) offers them itself.
 *
 * Those drivers and Xen's arch/x86/xen/pmu.c declare these through
 * upstream's private arch/x86/events/perf_event.h; the definitions below
 * follow its declarations; the Xen hook leads into counters.c's PMI.
 */

#include <linux/export.h>
#include <linux/perf_event.h>

#include "counters.h"

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
 * Xen's PV PMU interrupt asks the core counter driver to deal with its
 * counters' overflows, as the NMI handler would.
 */
static int kept_handle_pmi(struct pt_regs *regs)
{
	struct x86c_pmu *p = x86c_here();

	if (!p)
		return 0;
	return x86c_handle_pmi(p, this_cpu_ptr(p->cpus), regs);
}

struct x86_pmu x86_pmu __read_mostly = {
	.name		= "none",
	.handle_irq	= kept_handle_pmi,
};
