/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: what the files of the Arm CPU PMU framework share and no
 * driver needs (drivers/perf/arm_pmu.c says which file does what).
 */
#ifndef DRIVERS_PERF_ARM_PMU_INTERNAL_H
#define DRIVERS_PERF_ARM_PMU_INTERNAL_H

#include <linux/percpu.h>

struct arm_pmu;

/* The PMU of each CPU that is up, the interrupt handlers' cookie. */
DECLARE_PER_CPU(struct arm_pmu *, armpmu_of_cpu);

void armpmu_irq_cpu_up(int cpu);
void armpmu_irq_cpu_down(int cpu);

#endif /* DRIVERS_PERF_ARM_PMU_INTERNAL_H */
