// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: probing the Arm CPU PMUs from ACPI.
 *
 * ACPI has no PMU node: each CPU's MADT GICC entry names its PMU
 * interrupt (and those of SPE and TRBE, which get platform devices
 * here so that their drivers probe as with a device tree).  The kind of
 * PMU is the CPU's kind, so the probe makes one PMU per distinct MIDR
 * among the CPUs online at the time, named "<driver's name>_<n>"; a CPU
 * that comes up later joins the PMU of its MIDR from its hotplug
 * callback, which runs before the framework's own.
 *
 * Locking: the per-CPU variables are written by the probe, once at
 * boot, and by a CPU's own starting callback; a CPU that comes up while
 * the probe runs may join a PMU being set up, as it would a registered
 * one.
 */
#define pr_fmt(fmt) "hw perfevents: " fmt

#include <linux/perf/arm_pmu.h>
#include <linux/acpi.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <asm/cpu.h>
#include <asm/cputype.h>

/* The PMU each CPU belongs to, once probed; its interrupt from the MADT. */
static DEFINE_PER_CPU(struct arm_pmu *, armpmu_acpi_pmu);
static DEFINE_PER_CPU(int, armpmu_acpi_irq);

/*
 * The Linux interrupt for @cpu's PMU, 0 for none, or an errno.  A GSI
 * of 0 is what QEMU puts in the MADT for "no interrupt" (no hardware
 * is known to use it).  The MADT has no polarity for it: GICs fix the
 * polarity in hardware, so "active high" only satisfies the interface.
 */
static int armpmu_acpi_cpu_irq(int cpu)
{
	struct acpi_madt_generic_interrupt *gicc = acpi_cpu_get_madt_gicc(cpu);
	int trigger;

	if (!gicc->performance_interrupt)
		return 0;
	trigger = gicc->flags & ACPI_MADT_PERFORMANCE_IRQ_MODE ?
		  ACPI_EDGE_SENSITIVE : ACPI_LEVEL_SENSITIVE;
	return acpi_register_gsi(NULL, gicc->performance_interrupt, trigger,
				 ACPI_ACTIVE_HIGH);
}

/* Undo armpmu_acpi_request_irqs() up to here: each GSI once. */
static void armpmu_acpi_release_irqs(void)
{
	int cpu, other;

	for_each_possible_cpu(cpu) {
		int irq = per_cpu(armpmu_acpi_irq, cpu);

		if (!irq)
			continue;
		/* A PPI is every CPU's: free it for all of them at once. */
		for_each_possible_cpu(other) {
			if (per_cpu(armpmu_acpi_irq, other) != irq)
				continue;
			armpmu_free_irq(irq, other);
			per_cpu(armpmu_acpi_irq, other) = 0;
		}
		acpi_unregister_gsi(acpi_cpu_get_madt_gicc(cpu)->performance_interrupt);
	}
}

/*
 * Every CPU's interrupt is requested before any PMU exists, since the
 * PMU of a CPU not yet up is only known when it comes up.
 */
static int armpmu_acpi_request_irqs(void)
{
	int cpu, irq, err;

	for_each_possible_cpu(cpu) {
		irq = armpmu_acpi_cpu_irq(cpu);
		if (irq < 0) {
			pr_warn("CPU%d: the MADT's PMU interrupt is unusable: %d\n",
				cpu, irq);
			err = irq;
			goto out;
		}
		if (!irq)
			pr_warn("CPU%d: no PMU interrupt in the MADT\n", cpu);
		per_cpu(armpmu_acpi_irq, cpu) = irq;
		err = armpmu_request_irq(irq, cpu);
		if (err)
			goto out;
	}
	return 0;
out:
	armpmu_acpi_release_irqs();
	return err;
}

/*
 * Whether @irq can join the PMU's: the same PPI as the others, or SPIs
 * throughout.  A PMU whose CPUs name different PPIs is misdescribed.
 */
static bool armpmu_acpi_irq_fits(struct arm_pmu *armpmu, int irq)
{
	int cpu;

	for_each_cpu(cpu, &armpmu->supported_cpus) {
		int other = per_cpu_ptr(armpmu->hw_events, cpu)->irq;

		if (!irq || !other || other == irq)
			continue;
		if (irq_is_percpu_devid(irq) || irq_is_percpu_devid(other)) {
			pr_warn("CPU PMU interrupts are different PPIs\n");
			return false;
		}
	}
	return true;
}

static void armpmu_acpi_join(struct arm_pmu *armpmu, int cpu)
{
	int irq = per_cpu(armpmu_acpi_irq, cpu);

	per_cpu(armpmu_acpi_pmu, cpu) = armpmu;
	if (armpmu_acpi_irq_fits(armpmu, irq))
		per_cpu_ptr(armpmu->hw_events, cpu)->irq = irq;
	cpumask_set_cpu(cpu, &armpmu->supported_cpus);
}

/* A CPU coming up after the probe: the PMU of its kind, if there is one. */
static int armpmu_acpi_cpu_starting(unsigned int cpu)
{
	unsigned long midr = read_cpuid_id();
	int other;

	if (per_cpu(armpmu_acpi_pmu, cpu))
		return 0;
	for_each_possible_cpu(other) {
		struct arm_pmu *armpmu = per_cpu(armpmu_acpi_pmu, other);

		if (armpmu && armpmu->acpi_cpuid == midr) {
			armpmu_acpi_join(armpmu, cpu);
			return 0;
		}
	}
	pr_warn_ratelimited("CPU%d: no PMU of its kind\n", cpu);
	return 0;
}

/* The online CPUs of one kind get a PMU, initialised by @init. */
static int armpmu_acpi_probe_kind(armpmu_init_fn init, unsigned long midr,
				  int *nr_pmus)
{
	struct arm_pmu *armpmu = armpmu_alloc();
	char *driver_name;
	int cpu, ret;

	if (!armpmu)
		return -ENOMEM;
	armpmu->acpi_cpuid = midr;
	for_each_online_cpu(cpu)
		if (per_cpu(cpu_data, cpu).reg_midr == midr)
			armpmu_acpi_join(armpmu, cpu);

	ret = init(armpmu);
	if (ret)
		goto out_forget;
	driver_name = armpmu->name;
	armpmu->name = kasprintf(GFP_KERNEL, "%s_%d", driver_name, *nr_pmus);
	if (!armpmu->name) {
		ret = -ENOMEM;
		goto out_forget;
	}
	ret = armpmu_register(armpmu);
	if (ret) {
		kfree(armpmu->name);
		goto out_forget;
	}
	(*nr_pmus)++;
	return 0;

out_forget:
	for_each_cpu(cpu, &armpmu->supported_cpus)
		per_cpu(armpmu_acpi_pmu, cpu) = NULL;
	armpmu_free(armpmu);
	return ret;
}

/**
 * arm_pmu_acpi_probe() - make the CPU PMUs an ACPI machine has
 * @init: the driver's init function, tried on each kind of CPU
 *
 * A kind @init answers -ENODEV for (not its PMU) is left without one.
 *
 * Return: 0, or the first other errno.
 */
int arm_pmu_acpi_probe(armpmu_init_fn init)
{
	cpumask_var_t tried;
	int cpu, nr_pmus = 0, ret;

	ret = armpmu_acpi_request_irqs();
	if (ret)
		return ret;
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_PERF_ARM_ACPI_STARTING,
					"perf/arm/pmu_acpi:starting",
					armpmu_acpi_cpu_starting, NULL);
	if (ret)
		return ret;
	if (!zalloc_cpumask_var(&tried, GFP_KERNEL))
		return -ENOMEM;

	/*
	 * Only the kinds online now: registering a PMU from a hotplug
	 * callback would add a hotplug instance from inside one.
	 */
	for_each_online_cpu(cpu) {
		unsigned long midr = per_cpu(cpu_data, cpu).reg_midr;
		int other;

		if (per_cpu(armpmu_acpi_pmu, cpu) || cpumask_test_cpu(cpu, tried))
			continue;
		for_each_online_cpu(other)
			if (per_cpu(cpu_data, other).reg_midr == midr)
				cpumask_set_cpu(other, tried);
		ret = armpmu_acpi_probe_kind(init, midr, &nr_pmus);
		if (ret == -ENODEV) {
			ret = 0;
			continue;
		}
		if (ret) {
			pr_warn("CPU%d: no PMU: %d\n", cpu, ret);
			break;
		}
	}
	free_cpumask_var(tried);
	return ret;
}

/*
 * SPE and TRBE: a platform device each when every CPU's MADT entry is
 * recent enough to name their interrupt and all name the same one (a
 * PPI) on CPUs of one kind; their drivers then probe it.
 */
static int __init armpmu_acpi_add_device(const char *name, u8 min_len,
					 u16 (*gsi_of)(struct acpi_madt_generic_interrupt *))
{
	struct platform_device *pdev;
	struct resource res = { .flags = IORESOURCE_IRQ };
	int cpu, hetid = -1, gsi = -1, irq;

	for_each_possible_cpu(cpu) {
		struct acpi_madt_generic_interrupt *gicc =
			acpi_cpu_get_madt_gicc(cpu);
		int this_hetid = find_acpi_cpu_topology_hetero_id(cpu);

		if (gicc->header.length < min_len)
			return gsi > 0 ? -ENXIO : 0;
		if (gsi < 0) {
			gsi = gsi_of(gicc);
			hetid = this_hetid;
		} else if (gsi != gsi_of(gicc) || hetid != this_hetid) {
			pr_warn("ACPI: %s: CPUs differ: not registered\n", name);
			return -ENXIO;
		}
	}
	if (gsi <= 0)
		return 0;

	irq = acpi_register_gsi(NULL, gsi, ACPI_LEVEL_SENSITIVE,
				ACPI_ACTIVE_HIGH);
	if (irq < 0) {
		pr_warn("ACPI: %s: GSI %d unusable: %d\n", name, gsi, irq);
		return -ENXIO;
	}
	res.start = irq;
	res.end = irq;
	pdev = platform_device_register_simple(name, -1, &res, 1);
	if (IS_ERR(pdev)) {
		acpi_unregister_gsi(gsi);
		return PTR_ERR(pdev);
	}
	return 0;
}

static u16 __init armpmu_acpi_spe_gsi(struct acpi_madt_generic_interrupt *gicc)
{
	return gicc->spe_interrupt;
}

static u16 __init armpmu_acpi_trbe_gsi(struct acpi_madt_generic_interrupt *gicc)
{
	return gicc->trbe_interrupt;
}

static int __init armpmu_acpi_devices_init(void)
{
	if (acpi_disabled)
		return 0;
	if (IS_ENABLED(CONFIG_ARM_SPE_PMU) &&
	    armpmu_acpi_add_device(ARMV8_SPE_PDEV_NAME, ACPI_MADT_GICC_SPE,
				   armpmu_acpi_spe_gsi))
		pr_warn("ACPI: SPE: no device\n");
	if (IS_ENABLED(CONFIG_CORESIGHT_TRBE) &&
	    armpmu_acpi_add_device(ARMV8_TRBE_PDEV_NAME, ACPI_MADT_GICC_TRBE,
				   armpmu_acpi_trbe_gsi))
		pr_warn("ACPI: TRBE: no device\n");
	return 0;
}
subsys_initcall(armpmu_acpi_devices_init);
