// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: Intel's Branch Trace Store behind the branch-instructions
 * event.
 *
 * An event counting branch instructions, sampled at a fixed period of 1,
 * asks for a sample per branch; a counter cannot give that, but BTS can:
 * with DEBUGCTL's TR and BTS set the CPU stores a record (from, to,
 * flags) of every taken branch in a buffer the debug store describes,
 * and raises the PMI when the buffer reaches its interrupt threshold.
 * The event takes no counter: it owns its CPU's trace while it is on
 * it, one such event per CPU (a second waits its turn, as an event with
 * no free counter does).  Each record becomes a sample whose ip is the
 * branch and addr its target.
 *
 * The rules are upstream's, so perf cannot tell: a period of 1 on
 * branch instructions (event and unit mask as the PMU maps the generic
 * event) is BTS's on every Intel core PMU, sampled by period and not by
 * frequency, on the host; refused with EOPNOTSUPP where the CPU has no
 * BTS, when kernel branches are asked for, or precise_ip; and
 * PERF_EVENT_IOC_PERIOD may not turn a counter's event into one
 * (EINVAL).
 *
 * Kernel branches are never traced (BTS_OFF_OS is always set), so the
 * trace needs no stopping while the kernel runs: not around pmu_disable
 * (upstream stops and restarts it there, two DEBUGCTL writes each time)
 * nor while the PMI drains the buffer.  What the hardware still stores
 * are the crossings between user and kernel mode (a system call, an
 * interrupt), whose kernel end is dropped from the samples.  The trace
 * stops, and the buffer is drained, when the event leaves the CPU.
 *
 * The buffers sit in the debug store's part of the CPU entry area
 * (ds.c): they exist while BTS events do, allocated by the first one's
 * event_init and freed by the last one's destroy.
 *
 * Locking: ds.c's for the buffers.  struct x86c_bts_cpu is its CPU's,
 * touched with interrupts off by the PMU callbacks and the PMI, as the
 * rest of struct x86c_cpu.  The debug store's BTS fields are the
 * hardware's and the PMI's: written while the buffers are set up (no
 * event traces then) and by the drain on its own CPU.
 */

#include <linux/perf_event.h>

#include <asm/intel_ds.h>
#include <asm/msr.h>

#include "../counters.h"

/* One stored branch, as the 64-bit debug store format lays it out. */
struct x86c_bts_record {
	u64	from;
	u64	to;
	u64	flags;
};

#define X86C_BTS_RECORDS	(BTS_BUFFER_SIZE / sizeof(struct x86c_bts_record))
/*
 * The PMI comes this many records before the buffer is full: the CPU
 * goes on storing until the NMI is taken, and what passes the end is
 * lost.
 */
#define X86C_BTS_SLACK		(X86C_BTS_RECORDS / 16)

/**
 * x86c_bts_probe - does the CPU store branch traces
 * @p: an Intel core PMU, being probed
 *
 * BTS needs the debug store in its 64-bit format: CPUID's DTES64, and
 * the BTS feature the kernel reads from IA32_MISC_ENABLE.
 */
void x86c_bts_probe(struct x86c_pmu *p)
{
	p->bts_period = true;
	p->bts = boot_cpu_has(X86_FEATURE_BTS) &&
		 boot_cpu_has(X86_FEATURE_DTES64);
}

/**
 * x86c_bts_shape - would @event at @period be a branch trace
 * @p: its PMU
 * @event: an event whose hw.config holds its event code
 * @period: its sampling period, as it is or as it would become
 *
 * Return: whether the PMU takes it for BTS's (upstream's rule, on every
 * Intel core PMU, whether the CPU has BTS or not).
 */
bool x86c_bts_shape(const struct x86c_pmu *p, const struct perf_event *event,
		    u64 period)
{
	u64 code = event->hw.config & (ARCH_PERFMON_EVENTSEL_EVENT |
				       ARCH_PERFMON_EVENTSEL_UMASK);

	return p->bts_period && period == 1 && !event->attr.freq &&
	       !event->attr.exclude_host &&
	       code == p->event_map[PERF_COUNT_HW_BRANCH_INSTRUCTIONS];
}

/**
 * x86c_bts_check - may @event, a branch trace, be one here
 * @p: its PMU
 * @event: an event x86c_bts_shape() took for a trace
 *
 * Return: 0, or -EOPNOTSUPP: no BTS, kernel branches asked for, or
 * precise_ip.
 */
int x86c_bts_check(const struct x86c_pmu *p, const struct perf_event *event)
{
	if (!p->bts || !event->attr.exclude_kernel || event->attr.precise_ip)
		return -EOPNOTSUPP;
	return 0;
}

/* ---- the buffer ----------------------------------------------------- */

static DEFINE_PER_CPU(struct page *, x86c_bts_pages);

/* Describe a CPU's buffer at @base, or none (0), in its debug store. */
static void x86c_bts_describe(struct debug_store *ds, u64 base)
{
	u64 end = base + X86C_BTS_RECORDS * sizeof(struct x86c_bts_record);

	ds->bts_buffer_base = base;
	ds->bts_index = base;
	ds->bts_absolute_maximum = base ? end : 0;
	ds->bts_interrupt_threshold = base ? end - X86C_BTS_SLACK *
					     sizeof(struct x86c_bts_record) : 0;
}

static struct x86c_ds_buffer x86c_bts_buffer = {
	.size		= BTS_BUFFER_SIZE,
	.offset		= offsetof(struct debug_store_buffers, bts_buffer),
	.pages		= &x86c_bts_pages,
	.describe	= x86c_bts_describe,
};

/**
 * x86c_bts_reserve - the buffers, for a new branch-trace event
 *
 * Process context.  Return: 0, or -ENOMEM.
 */
int x86c_bts_reserve(void)
{
	return x86c_ds_reserve(&x86c_bts_buffer);
}

/**
 * x86c_bts_release - a branch-trace event is gone: the last one frees
 *	the buffers
 */
void x86c_bts_release(void)
{
	x86c_ds_release(&x86c_bts_buffer);
}

/* ---- tracing -------------------------------------------------------- */

/*
 * The trace's DEBUGCTL bits.  A CPU that says it has BTS takes them; a
 * refusal is a hypervisor's, said once.
 */
static void x86c_bts_debugctl(struct x86c_pmu *p, u64 set, u64 clear)
{
	if (x86c_debugctl_update(p, set, clear) && x86c_is_host(p))
		pr_warn_once("perf/x86: DEBUGCTL refuses the branch trace's bits %#llx\n",
			     set);
}

#define X86C_BTS_BITS	(DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS | DEBUGCTLMSR_BTINT | \
			 DEBUGCTLMSR_BTS_OFF_OS | DEBUGCTLMSR_BTS_OFF_USR)

/*
 * A record the event's samples keep: with kernel branches excluded,
 * none with a kernel address at either end.
 */
static bool x86c_bts_keeps(const struct perf_event *event,
			   const struct x86c_bts_record *r)
{
	return !event->attr.exclude_kernel ||
	       (!x86c_kernel_ip(r->from) && !x86c_kernel_ip(r->to));
}

/*
 * The records [@first, @end) as samples of @event, in one piece of its
 * ring buffer: all of them, or none (counted lost) where they do not
 * fit.  Their fields other than ip and addr are the drain's, the same
 * for each; no registers (the branch is long past).
 */
static void x86c_bts_output(struct perf_event *event,
			    const struct x86c_bts_record *first,
			    const struct x86c_bts_record *end)
{
	const struct x86c_bts_record *r;
	struct perf_output_handle handle;
	struct perf_event_header header;
	struct perf_sample_data data;
	struct pt_regs none = {};
	unsigned int kept = 0;

	for (r = first; r < end; r++)
		kept += x86c_bts_keeps(event, r);

	perf_sample_data_init(&data, 0, event->hw.last_period);
	rcu_read_lock();
	perf_prepare_sample(&data, event, &none);
	perf_prepare_header(&header, &data, event, &none);
	if (!perf_output_begin(&handle, &data, event, kept * header.size)) {
		for (r = first; r < end; r++) {
			if (!x86c_bts_keeps(event, r))
				continue;
			data.ip = r->from;
			data.addr = r->to;
			perf_output_sample(&handle, &header, &data, event);
		}
		perf_output_end(&handle);
		event->hw.interrupts++;
		event->pending_kill = POLL_IN;
	}
	rcu_read_unlock();
}

/**
 * x86c_bts_drain - the stored branches become samples; the buffer empty
 * @p: the PMU
 * @cpu: this CPU's counters, interrupts off: the PMI, or the event
 *	leaving with its trace stopped
 *
 * Return: 1 if there were records (the PMI was ours), else 0.
 */
int x86c_bts_drain(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct perf_event *event = cpu->bts.event;
	struct debug_store *ds = cpu->ds;
	const struct x86c_bts_record *first, *end;

	if (!event)
		return 0;
	if (x86c_is_bts_aux(event))
		return x86c_bts_aux_drain(p, cpu);
	first = (const void *)(unsigned long)ds->bts_buffer_base;
	end = (const void *)(unsigned long)ds->bts_index;
	if (end <= first)
		return 0;
	/* The CPU stores no kernel branch: nothing comes in meanwhile. */
	ds->bts_index = ds->bts_buffer_base;
	x86c_bts_output(event, first, end);
	return 1;
}

/**
 * x86c_bts_add - a branch-trace event goes on this CPU
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event
 * @flags: PERF_EF_START to trace at once
 *
 * Return: 0, or -EBUSY while another event traces here.
 */
int x86c_bts_add(struct x86c_pmu *p, struct x86c_cpu *cpu,
		 struct perf_event *event, int flags)
{
	if (cpu->bts.event)
		return -EBUSY;
	cpu->bts.event = event;
	event->hw.idx = -1;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		x86c_bts_start(p, cpu, event);
	return 0;
}

/**
 * x86c_bts_start - trace, into an empty buffer
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event tracing here (x86c_bts_add())
 */
void x86c_bts_start(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event)
{
	u64 set = DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS | DEBUGCTLMSR_BTINT |
		  DEBUGCTLMSR_BTS_OFF_OS;

	if (!(event->hw.state & PERF_HES_STOPPED))
		return;
	if (event->attr.exclude_user)
		set |= DEBUGCTLMSR_BTS_OFF_USR;
	cpu->ds->bts_index = cpu->ds->bts_buffer_base;
	event->hw.state = 0;
	x86c_bts_debugctl(p, set, X86C_BTS_BITS);
}

/**
 * x86c_bts_stop - stop tracing; what was traced becomes samples
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event tracing here
 */
void x86c_bts_stop(struct x86c_pmu *p, struct x86c_cpu *cpu,
		   struct perf_event *event)
{
	if (event->hw.state & PERF_HES_STOPPED)
		return;
	x86c_bts_debugctl(p, 0, X86C_BTS_BITS);
	x86c_bts_drain(p, cpu);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/**
 * x86c_bts_del - the tracing event leaves this CPU
 * @p: the PMU
 * @cpu: this CPU's counters
 * @event: the event tracing here
 */
void x86c_bts_del(struct x86c_pmu *p, struct x86c_cpu *cpu,
		  struct perf_event *event)
{
	x86c_bts_stop(p, cpu, event);
	cpu->bts.event = NULL;
	perf_event_update_userpage(event);
}
