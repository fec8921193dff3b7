// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: probing an Arm CPU PMU from its platform device (the device
 * tree's "arm,...-pmu" node, or a device a driver's probe table matches
 * by the CPU's MIDR).
 *
 * Which CPUs the PMU covers comes from its interrupts: one PPI names
 * its CPU partition; otherwise each SPI belongs to the CPU the node's
 * interrupt-affinity list names at its position (or, without that
 * list, to the CPU of that number, with a warning).  A PMU with no
 * interrupt covers every CPU and cannot sample.
 */
#define pr_fmt(fmt) "hw perfevents: " fmt
#define dev_fmt pr_fmt

#include <linux/perf/arm_pmu.h>
#include <linux/platform_device.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/of.h>
#include <linux/percpu.h>

/* The CPU the @i-th interrupt belongs to; nr_cpu_ids if none is up. */
static int armpmu_spi_cpu(struct device *dev, int i, bool have_affinity)
{
	struct device_node *cpu_node;
	int cpu;

	if (!have_affinity)
		return i;
	cpu_node = of_parse_phandle(dev->of_node, "interrupt-affinity", i);
	if (!cpu_node) {
		dev_warn(dev, "interrupt-affinity[%d] names no CPU\n", i);
		return -EINVAL;
	}
	cpu = of_cpu_node_to_id(cpu_node);
	if (cpu < 0) {
		dev_warn(dev, "%pOFn is not a CPU this kernel knows\n", cpu_node);
		cpu = nr_cpu_ids;
	}
	of_node_put(cpu_node);
	return cpu;
}

static int armpmu_parse_irqs(struct arm_pmu *armpmu, struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	bool have_affinity = of_property_present(dev->of_node,
						 "interrupt-affinity");
	int i, nr = platform_irq_count(pdev);

	if (nr < 0)
		return dev_err_probe(dev, nr, "cannot count the PMU's IRQs\n");
	if (!nr) {
		dev_warn(dev, "the PMU has no IRQ: no sampling events\n");
		armpmu->pmu.capabilities |= PERF_PMU_CAP_NO_INTERRUPT;
		cpumask_setall(&armpmu->supported_cpus);
		return 0;
	}

	if (nr == 1) {
		struct cpumask *cpus = &armpmu->supported_cpus;
		int irq = platform_get_irq(pdev, 0);

		if (irq > 0 && irq_is_percpu_devid(irq)) {
			int cpu, ret;

			ret = irq_get_percpu_devid_partition(irq, cpus);
			if (ret)
				return ret;
			for_each_cpu(cpu, cpus)
				per_cpu_ptr(armpmu->hw_events, cpu)->irq = irq;
			return 0;
		}
	}

	if (!have_affinity && nr_cpu_ids > 1)
		dev_warn(dev, "no interrupt-affinity: IRQ i taken as CPU i's\n");
	for (i = 0; i < nr; i++) {
		struct pmu_hw_events *cpuc;
		int irq = platform_get_irq(pdev, i);
		int cpu;

		if (WARN_ON(irq <= 0))
			continue;
		if (irq_is_percpu_devid(irq)) {
			dev_warn(dev, "PPIs mixed with other PMU IRQs\n");
			return -EINVAL;
		}
		cpu = armpmu_spi_cpu(dev, i, have_affinity);
		if (cpu < 0)
			return cpu;
		if (cpu >= nr_cpu_ids)
			continue;
		cpuc = per_cpu_ptr(armpmu->hw_events, cpu);
		if (cpuc->irq) {
			dev_warn(dev, "two PMU IRQs for CPU %d\n", cpu);
			return -EINVAL;
		}
		cpuc->irq = irq;
		cpumask_set_cpu(cpu, &armpmu->supported_cpus);
	}
	return 0;
}

/* The probe table's init function for this CPU's MIDR, or NULL. */
static armpmu_init_fn armpmu_init_for_midr(const struct pmu_probe_info *info)
{
	unsigned int midr = read_cpuid_id();

	pr_info("probing the PMU of CPU %d\n", raw_smp_processor_id());
	for (; info->init; info++)
		if ((midr & info->mask) == info->cpuid)
			return info->init;
	return NULL;
}

static void armpmu_free_irqs(struct arm_pmu *armpmu)
{
	int cpu;

	for_each_cpu(cpu, &armpmu->supported_cpus)
		armpmu_free_irq(per_cpu_ptr(armpmu->hw_events, cpu)->irq, cpu);
}

/*
 * Probe and register: the CPUs from the interrupts (or all of them,
 * for a PMU a MIDR table matched), then the driver's init.
 */
static int armpmu_probe(struct platform_device *pdev, armpmu_init_fn init,
			bool all_cpus)
{
	struct device *dev = &pdev->dev;
	struct arm_pmu *armpmu;
	int cpu, ret;

	armpmu = armpmu_alloc();
	if (!armpmu)
		return -ENOMEM;
	armpmu->plat_device = pdev;
	armpmu->pmu.parent = dev;

	ret = armpmu_parse_irqs(armpmu, pdev);
	if (ret)
		goto out_free;
	if (all_cpus)
		cpumask_setall(&armpmu->supported_cpus);

	/* Only 32-bit Arm can boot secure; the property is moot here. */
	if (of_property_read_bool(dev->of_node, "secure-reg-access")) {
		if (IS_ENABLED(CONFIG_ARM64))
			dev_warn(dev, "secure-reg-access ignored on arm64\n");
		else
			armpmu->secure_access = true;
	}
	ret = init(armpmu);
	if (ret) {
		dev_err(dev, "PMU probe failed: %d\n", ret);
		goto out_free;
	}

	for_each_cpu(cpu, &armpmu->supported_cpus) {
		ret = armpmu_request_irq(per_cpu_ptr(armpmu->hw_events, cpu)->irq,
					 cpu);
		if (ret)
			goto out_free_irqs;
	}

	ret = armpmu_register(armpmu);
	if (ret) {
		dev_err(dev, "PMU registration failed: %d\n", ret);
		goto out_free_irqs;
	}
	return 0;

out_free_irqs:
	armpmu_free_irqs(armpmu);
out_free:
	armpmu_free(armpmu);
	return ret;
}

/**
 * arm_pmu_probe_with() - probe and register a CPU PMU device
 * @pdev: the device
 * @init: the driver's init function for it (armpmu->plat_device is set
 *	when it runs, so it can look at the device's match)
 *
 * Return: 0 with the PMU registered, or an errno with nothing left.
 */
int arm_pmu_probe_with(struct platform_device *pdev, armpmu_init_fn init)
{
	return armpmu_probe(pdev, init, false);
}

/**
 * arm_pmu_device_probe() - probe a CPU PMU device by a driver's tables
 * @pdev: the device
 * @of_table: the driver's device-tree matches, whose data is the init
 *	function
 * @probe_table: without a device-tree match, init functions by MIDR
 *
 * Return: 0 with the PMU registered, or an errno with nothing left.
 */
int arm_pmu_device_probe(struct platform_device *pdev,
			 const struct of_device_id *of_table,
			 const struct pmu_probe_info *probe_table)
{
	armpmu_init_fn init = of_device_get_match_data(&pdev->dev);

	if (init)
		return armpmu_probe(pdev, init, false);
	init = probe_table ? armpmu_init_for_midr(probe_table) : NULL;
	if (!init) {
		dev_err(&pdev->dev, "no PMU driver for this CPU\n");
		return -ENODEV;
	}
	return armpmu_probe(pdev, init, true);
}
