// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the Arm CPU PMU's overflow interrupts.
 *
 * A CPU's PMU interrupt is either a PPI, one interrupt number private to
 * each CPU (requested once, for all of them), or an SPI routed to that
 * CPU alone.  Either is asked for as a pseudo-NMI first, which the GICv3
 * gives when priority masking is on (irqchip.gicv3_pseudo_nmi=1), so
 * that samples land inside code that runs with interrupts masked and
 * the perf hard-lockup detector can work; where the irqchip refuses, it
 * is an ordinary interrupt.  The kind a CPU got is remembered per CPU;
 * enabling, disabling and freeing switch on it.
 *
 * Every handler's cookie is this CPU's slot of armpmu_of_cpu, which the
 * hotplug callbacks (arm_pmu.c) set while the CPU is up, so one
 * interrupt number serves whichever PMU a CPU has.
 *
 * Locking: the per-CPU variables below change only in probe (under the
 * probe's serialisation, before the CPU's interrupt is enabled) and in
 * the CPU's own hotplug callbacks; the handler reads armpmu_of_cpu.
 */
#define pr_fmt(fmt) "hw perfevents: " fmt

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdesc.h>
#include <linux/perf/arm_pmu.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>

#include "arm_pmu_internal.h"

#define ARMPMU_IRQ_PERCPU	BIT(0)	/* a PPI */
#define ARMPMU_IRQ_NMI		BIT(1)	/* delivered as a pseudo-NMI */

DEFINE_PER_CPU(struct arm_pmu *, armpmu_of_cpu);
static DEFINE_PER_CPU(int, armpmu_irq);
static DEFINE_PER_CPU(u8, armpmu_irq_kind);

static bool armpmu_got_nmi;

/**
 * arm_pmu_irq_is_nmi() - whether the PMU interrupt arrives as an NMI
 *
 * The perf hard-lockup detector only works so: it asks before it
 * starts (arch/arm64/kernel/watchdog_hld.c).
 *
 * Return: true once any CPU's PMU interrupt was granted as an NMI.
 */
bool arm_pmu_irq_is_nmi(void)
{
	return armpmu_got_nmi;
}

static irqreturn_t armpmu_irq_handler(int irq, void *cookie)
{
	struct arm_pmu *armpmu = *(struct arm_pmu **)cookie;
	irqreturn_t ret;
	u64 t0;

	if (WARN_ON_ONCE(!armpmu))
		return IRQ_NONE;

	t0 = sched_clock();
	ret = armpmu->handle_irq(armpmu);
	perf_sample_event_took(sched_clock() - t0);
	return ret;
}

/* CPUs whose PMU interrupt is @irq. */
static int armpmu_irq_sharers(int irq)
{
	int cpu, n = 0;

	for_each_possible_cpu(cpu)
		n += per_cpu(armpmu_irq, cpu) == irq;
	return n;
}

static int armpmu_request_spi(int irq, int cpu, u8 *kind)
{
	const unsigned long flags = IRQF_PERCPU | IRQF_NOBALANCING |
				    IRQF_NO_AUTOEN | IRQF_NO_THREAD;
	void *cookie = per_cpu_ptr(&armpmu_of_cpu, cpu);
	int err;

	err = irq_force_affinity(irq, cpumask_of(cpu));
	if (err && num_possible_cpus() > 1) {
		pr_warn("IRQ%d cannot be routed to CPU %d alone\n", irq, cpu);
		return err;
	}
	if (!request_nmi(irq, armpmu_irq_handler, flags, "arm-pmu", cookie)) {
		*kind = ARMPMU_IRQ_NMI;
		return 0;
	}
	*kind = 0;
	return request_irq(irq, armpmu_irq_handler, flags, "arm-pmu", cookie);
}

static int armpmu_request_ppi(int irq, int cpu, u8 *kind)
{
	int other;

	/* Requested once for every CPU: reuse what the first one got. */
	for_each_possible_cpu(other) {
		if (other != cpu && per_cpu(armpmu_irq, other) == irq) {
			*kind = per_cpu(armpmu_irq_kind, other);
			return 0;
		}
	}
	if (!request_percpu_nmi(irq, armpmu_irq_handler, "arm-pmu",
				&armpmu_of_cpu)) {
		*kind = ARMPMU_IRQ_PERCPU | ARMPMU_IRQ_NMI;
		return 0;
	}
	*kind = ARMPMU_IRQ_PERCPU;
	return request_percpu_irq(irq, armpmu_irq_handler, "arm-pmu",
				  &armpmu_of_cpu);
}

/**
 * armpmu_request_irq() - request @cpu's PMU interrupt
 * @irq: its number, 0 for none
 * @cpu: the CPU
 *
 * The interrupt stays disabled until the CPU comes up with its PMU.
 *
 * Return: 0 or the errno of the request.
 */
int armpmu_request_irq(int irq, int cpu)
{
	u8 kind;
	int err;

	if (!irq)
		return 0;
	if (irq_is_percpu_devid(irq))
		err = armpmu_request_ppi(irq, cpu, &kind);
	else
		err = armpmu_request_spi(irq, cpu, &kind);
	if (err) {
		pr_err("cannot get IRQ%d for the PMU counters of CPU %d: %d\n",
		       irq, cpu, err);
		return err;
	}
	if (kind & ARMPMU_IRQ_NMI)
		armpmu_got_nmi = true;
	per_cpu(armpmu_irq, cpu) = irq;
	per_cpu(armpmu_irq_kind, cpu) = kind;
	return 0;
}

/**
 * armpmu_free_irq() - give back what armpmu_request_irq() got for @cpu
 * @irq: the number it was given
 * @cpu: the CPU
 *
 * A PPI is freed with its last CPU.
 */
void armpmu_free_irq(int irq, int cpu)
{
	u8 kind = per_cpu(armpmu_irq_kind, cpu);

	if (!per_cpu(armpmu_irq, cpu) ||
	    WARN_ON(per_cpu(armpmu_irq, cpu) != irq))
		return;

	if (!(kind & ARMPMU_IRQ_PERCPU)) {
		void *cookie = per_cpu_ptr(&armpmu_of_cpu, cpu);

		if (kind & ARMPMU_IRQ_NMI)
			free_nmi(irq, cookie);
		else
			free_irq(irq, cookie);
	} else if (armpmu_irq_sharers(irq) == 1) {
		if (kind & ARMPMU_IRQ_NMI)
			free_percpu_nmi(irq, &armpmu_of_cpu);
		else
			free_percpu_irq(irq, &armpmu_of_cpu);
	}
	per_cpu(armpmu_irq, cpu) = 0;
	per_cpu(armpmu_irq_kind, cpu) = 0;
}

/* Called on @cpu as it comes up: let its PMU interrupt in. */
void armpmu_irq_cpu_up(int cpu)
{
	int irq = per_cpu(armpmu_irq, cpu);

	if (!irq)
		return;
	switch (per_cpu(armpmu_irq_kind, cpu)) {
	case ARMPMU_IRQ_PERCPU | ARMPMU_IRQ_NMI:
		if (!prepare_percpu_nmi(irq))
			enable_percpu_nmi(irq, IRQ_TYPE_NONE);
		break;
	case ARMPMU_IRQ_PERCPU:
		enable_percpu_irq(irq, IRQ_TYPE_NONE);
		break;
	case ARMPMU_IRQ_NMI:
		enable_nmi(irq);
		break;
	default:
		enable_irq(irq);
		break;
	}
}

/* Called on @cpu as it goes down: its PMU interrupt stays out. */
void armpmu_irq_cpu_down(int cpu)
{
	int irq = per_cpu(armpmu_irq, cpu);

	if (!irq)
		return;
	switch (per_cpu(armpmu_irq_kind, cpu)) {
	case ARMPMU_IRQ_PERCPU | ARMPMU_IRQ_NMI:
		disable_percpu_nmi(irq);
		teardown_percpu_nmi(irq);
		break;
	case ARMPMU_IRQ_PERCPU:
		disable_percpu_irq(irq);
		break;
	case ARMPMU_IRQ_NMI:
		disable_nmi_nosync(irq);
		break;
	default:
		disable_irq_nosync(irq);
		break;
	}
}
