// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the x86 performance monitoring interrupt.
 *
 * The local APIC's performance-counter entry (LVTPC) delivers a counter
 * overflow as an NMI, so a sample can be taken anywhere, interrupts off
 * included, and the APIC masks the entry on delivery.  The handler
 * finds the counters that overflowed, folds their counts, reloads them
 * for the next period and emits a sample for each period that ended;
 * then it unmasks the entry, whatever it found (an NMI cannot tell
 * whether it was a PMI).  Intel's perfmon versions 2 and 3 stop every
 * counter themselves as they raise the PMI (freeze on PMI, which the
 * Intel driver turns on), so the counts end at the overflow; the
 * handler restarts them as it finishes, frozen or not.
 *
 * NMIs are shared (the watchdog of another kind, IPIs of a crash, other
 * PMUs such as AMD IBS): the handler claims one only when it found an
 * overflow of its own, and says how many it handled, since two
 * overflows close together can raise two NMIs of which the second finds
 * nothing (the NMI core swallows that one when the first handled more
 * than one).  AMD's counters may raise their NMI after the handler
 * already dealt with the overflow; an unclaimed NMI shortly after one of
 * ours is taken as such a late one.
 *
 * No kprobe may sit on the way in: a probe hit inside an NMI that came
 * while a probe was being handled would recurse into kprobes.  The
 * handler and the two functions it goes through are blacklisted.
 */

#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/nmi.h>
#include <linux/perf_event.h>
#include <linux/perf/counter_share.h>
#include <linux/sched/clock.h>

#include <asm/apic.h>
#include <asm/hardirq.h>
#include <asm/nmi.h>

#include "counters.h"

/* Enough for any real interrupt storm; more means a stuck status bit. */
#define X86C_PMI_LOOPS		100
/* How long after a PMI an unclaimed NMI is taken as a late one of ours. */
#define X86C_LATE_NMI_MS	100

/**
 * x86c_pmi_sample_data - an overflow's sample of @event, but for what
 *	the registers give
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event
 * @data: the sample: its period, branch stack and the vendor's fields
 */
void x86c_pmi_sample_data(struct x86c_pmu *p, struct x86c_cpu *cpu,
			  struct perf_event *event,
			  struct perf_sample_data *data)
{
	perf_sample_data_init(data, 0, event->hw.last_period);
	if (has_branch_stack(event))
		x86c_br_sample(p, cpu, event, data);
	if (p->vendor->pmi_sample)
		p->vendor->pmi_sample(p, event, data);
}

/**
 * x86c_pmi_advance - an event's counter overflowed: fold its count and
 *	start its next period
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event
 *
 * Return: whether a period elapsed for a sampling event: it samples.
 */
bool x86c_pmi_advance(struct x86c_pmu *p, struct x86c_cpu *cpu,
		      struct perf_event *event)
{
	bool elapsed;
	u64 before;

	before = x86c_sign_extend(p, x86c_event_update(p, event));
	elapsed = x86c_event_set_period(p, event);
	perf_event_update_userpage(event);
	/*
	 * Riders of the counter keep their deltas across the load, and
	 * their user pages' offsets: the shift is taken between the two
	 * values as RDPMC's reader sees them.
	 */
	if (unlikely(cpu->share.nr))
		perf_share_shift(&cpu->share, event,
				 local64_read(&event->hw.prev_count) - before);
	return elapsed && is_sampling_event(event);
}

/**
 * x86c_pmi_event - an event's counter overflowed: fold its count, start
 *	its next period, and sample if one elapsed
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event
 * @regs: the sample's registers: where the PMI came, or the PEBS
 *	record's (intel/pebs.c)
 * @data: the sample, or NULL for x86c_pmi_sample_data()'s
 */
void x86c_pmi_event(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event, struct pt_regs *regs,
		    struct perf_sample_data *data)
{
	struct perf_sample_data own;

	if (!x86c_pmi_advance(p, cpu, event))
		return;

	if (!data) {
		data = &own;
		x86c_pmi_sample_data(p, cpu, event, data);
	}
	if (perf_event_overflow(event, data, regs))
		x86c_stop(p, cpu, event, 0);
}

/*
 * Whether to report a PMU condition now: the first time it is seen, and
 * only for a host PMU (a KUnit model provokes them on purpose).
 */
static bool x86c_pmi_say_once(struct x86c_pmu *p, bool *said)
{
	if (*said)
		return false;
	*said = true;
	return x86c_is_host(p);
}

/*
 * The counters' bits of the overflow status.  Others are not ours to
 * clear: they name features this driver does not drive, or are reserved
 * (some AMD PerfMonV2 microcode sets reserved bits), and acknowledging
 * them could fault, or they come back at once; either way they would
 * keep the handler looping.  Said once.
 */
static u64 x86c_pmi_status(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	u64 status = p->vendor->overflowed(p, cpu);
	u64 ours = p->all_mask;
	u64 others;

	/* Intel's IA32_PERF_METRICS overflowed (intel/topdown.c). */
	if (p->nr_metrics)
		ours |= BIT_ULL(GLOBAL_STATUS_PERF_METRICS_OVF_BIT);
	/* A feature's bit set with the overflows, such as Intel's LBR_FRZ. */
	ours |= p->status_extra;
	others = status & ~ours;
	if (others && x86c_pmi_say_once(p, &p->pmi_others_said))
		pr_warn("perf/x86: overflow status bits %#llx belong to no counter; left alone (a microcode update may help)\n",
			others);
	return status & ours;
}

/*
 * IA32_PERF_METRICS overflowed: the topdown group folds what it counted
 * (which clears the metrics), through its slots leader if there is one.
 */
static void x86c_pmi_metrics(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct perf_event *slots = cpu->owner[INTEL_PMC_IDX_FIXED_SLOTS];

	if (slots && (slots->hw.flags & PERF_X86_EVENT_TOPDOWN))
		x86c_event_update(p, slots);
}

/*
 * The overflow status came back set a hundred times: some counter keeps
 * overflowing (one left programmed by firmware or a previous kernel,
 * one of ours loaded wrongly) or the PMU misbehaves.  Clear every
 * counter under the events, which go on counting, and say so once.
 */
static void x86c_pmi_stuck(struct x86c_pmu *p, struct x86c_cpu *cpu,
			   u64 status)
{
	if (x86c_pmi_say_once(p, &p->pmi_stuck_said))
		pr_warn("perf/x86: CPU %d: overflow status %#llx does not clear; counters reset\n",
			smp_processor_id(), status);
	x86c_reset_running(p, cpu);
}

/**
 * x86c_handle_pmi - deal with the overflows pending on this CPU
 * @p: the PMU
 * @cpu: this CPU's counters
 * @regs: where the interrupt came
 *
 * Return: how many counter overflows and full branch traces it handled
 * (0: not ours).
 */
int x86c_handle_pmi(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct pt_regs *regs)
{
	int handled = 0, loops = 0;
	bool br_stopped = false;
	unsigned long ours;
	u64 status;
	int idx;

	/*
	 * With a global control, stop everything while we work, so that
	 * the counters do not count the handler and a group stays in step.
	 * Where the PMI freezes them (pmi_freezes) they stopped already,
	 * when it was raised, before the NMI entry code ran; the write
	 * stays all the same, since DEBUGCTL is not ours alone: a VM exit
	 * zeroes it until KVM puts the host's value back, and a PMI raised
	 * in between froze nothing.
	 */
	if (p->vendor->global_ctrl)
		p->vendor->disable_all(p, cpu);
	status = x86c_pmi_status(p, cpu);
	/* The branch records hold still while samples read them. */
	if (cpu->br.users)
		br_stopped = x86c_br_pmi_hold(p, cpu, status);
	/*
	 * A full branch trace raises the PMI with no status bit: the
	 * stored branches are the sign.  The trace goes on meanwhile (it
	 * stores no kernel branch).
	 */
	if (unlikely(cpu->bts.event))
		handled += x86c_bts_drain(p, cpu);

	while (status) {
		if (++loops > X86C_PMI_LOOPS) {
			x86c_pmi_stuck(p, cpu, status);
			break;
		}
		p->vendor->ack(p, cpu, status);
		/* The PEBS buffer reached its threshold (intel/pebs.c). */
		if (status & GLOBAL_STATUS_BUFFER_OVF & p->status_extra)
			handled += x86c_pebs_drain(p, cpu, regs);
		/* Acknowledged, and no overflow of its own. */
		status &= ~p->status_extra;
		if (status & BIT_ULL(GLOBAL_STATUS_PERF_METRICS_OVF_BIT)) {
			status &= ~BIT_ULL(GLOBAL_STATUS_PERF_METRICS_OVF_BIT);
			x86c_pmi_metrics(p, cpu);
			handled++;
		}
		/* A stopped counter's late overflow is ours, but has no event. */
		handled += hweight64(status & ~cpu->running);

		ours = status & cpu->running;
		for_each_set_bit(idx, &ours, X86_PMC_IDX_MAX) {
			handled++;
			x86c_pmi_event(p, cpu, cpu->owner[idx], regs, NULL);
		}
		status = x86c_pmi_status(p, cpu);
	}

	/*
	 * The APIC masked the entry if this NMI was a PMI, which it may
	 * have been even with nothing overflowed here (a hypervisor's late
	 * or injected PMI, an overflow whose counter was reprogrammed in
	 * between): unmask it whatever we found, as a second NMI from
	 * elsewhere leaves it as it was.  Before the counters run again:
	 * an overflow while it is masked would raise no PMI, and a freeze
	 * would then hold them stopped.
	 */
	p->hw->unmask_pmi();
	if (cpu->br.users)
		x86c_br_pmi_release(p, cpu, br_stopped);
	if (p->vendor->global_ctrl && !cpu->disabled)
		p->vendor->enable_all(p, cpu);
	return handled;
}

/**
 * x86c_pmi_nmi - an NMI on this CPU, as the PMU sees it
 * @p: the PMU
 * @cpu: this CPU's counters
 * @regs: where the NMI came
 *
 * Return: NMI_DONE when it was not ours, else how many overflows it
 * handled (counted by the NMI core, see the top of this file).
 */
int x86c_pmi_nmi(struct x86c_pmu *p, struct x86c_cpu *cpu,
		 struct pt_regs *regs)
{
	u64 start, took;
	int handled;

	/*
	 * No event here: not ours to claim.  But a PMI whose event was
	 * removed after it overflowed masked the entry, and left masked
	 * the next event on this CPU would never interrupt.
	 */
	if (!cpu->nr && !cpu->bts.event &&
	    time_after_eq(jiffies, cpu->nmi_window_end)) {
		p->hw->unmask_pmi();
		return NMI_DONE;
	}

	start = sched_clock();
	handled = x86c_handle_pmi(p, cpu, regs);
	took = sched_clock() - start;

	if (handled) {
		inc_irq_stat(apic_perf_irqs);
		cpu->nmi_window_end = jiffies +
				      msecs_to_jiffies(X86C_LATE_NMI_MS);
		perf_sample_event_took(took);
		return handled;
	}
	if (p->vendor->late_nmi &&
	    time_before(jiffies, cpu->nmi_window_end))
		return NMI_HANDLED;
	return NMI_DONE;
}

static int x86c_nmi(unsigned int cmd, struct pt_regs *regs)
{
	struct x86c_pmu *p = x86c_here();

	/* An NMI before this CPU's bring-up is no PMI of ours. */
	if (!p)
		return NMI_DONE;
	return x86c_pmi_nmi(p, this_cpu_ptr(p->cpus), regs);
}

/* The way in from the NMI, where no kprobe may sit (see the top). */
NOKPROBE_SYMBOL(x86c_nmi);
NOKPROBE_SYMBOL(x86c_pmi_nmi);
NOKPROBE_SYMBOL(x86c_handle_pmi);

/**
 * x86c_pmi_init - route counter overflows to the NMI handler
 * @p: the host PMU
 *
 * Return: 0 or a negative errno.
 */
int x86c_pmi_init(struct x86c_pmu *p)
{
	perf_events_lapic_init();
	return register_nmi_handler(NMI_LOCAL, x86c_nmi, 0, "PMI");
}

/**
 * perf_events_lapic_init - point this CPU's LVTPC at the NMI
 *
 * Called by the local APIC setup of every CPU, and at the probe.
 */
void perf_events_lapic_init(void)
{
	if (!x86c_host || !boot_cpu_has(X86_FEATURE_APIC))
		return;
	apic_write(APIC_LVTPC, APIC_DM_NMI);
}
