// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the intel_bts PMU, Intel's branch trace store straight into
 * a perf AUX area.
 *
 * Where bts.c turns each stored branch into a sample, this PMU lets the
 * CPU store its 24-byte records {from, to, flags} directly into the
 * pages user space maps as the event's AUX area, and only says how many
 * bytes arrived (PERF_RECORD_AUX).  perf's intel-bts decoder reads each
 * such piece as whole records from its start, so every piece begins and
 * ends on a record.
 *
 * The debug store points the CPU at one window of the area: from the
 * AUX handle's head to the end of the physically contiguous chunk it is
 * in, or of the room the reader left, whichever comes first (the CPU
 * writes through the kernel's linear map, so a window cannot span two
 * chunks).  The PMI comes a margin before the window is full (the CPU
 * keeps storing until the NMI is taken) or near the reader's wakeup
 * mark; then the window's records are committed and the next window
 * placed.  Records sit at multiples of their size from the area's start
 * (as upstream's do): what a window cannot use at a chunk's end is
 * zeroed and skipped.  In
 * snapshot mode (a read-only AUX mapping) the area is one chunk and the
 * CPU stores into it as a ring (DEBUGCTL.BTINT clear), with no PMI; each
 * stop reports where it stands, over the whole area.
 *
 * The rules are upstream's: AUX_NO_SG (chunks the PMU can switch between
 * only at its interrupt), ITRACE and EXCLUSIVE (one event per CPU);
 * kernel branches are traced unless excluded, and even an event that
 * excludes them needs kernel-profiling permission (the records of the
 * crossings into the kernel carry kernel addresses); never together
 * with events that use the branch records or bts.c's trace (EBUSY at
 * event_init, whichever came second); no PMU at all under page-table
 * isolation, where user page tables lack the linear map the CPU would
 * store through.
 *
 * Locking: struct x86c_bts_cpu's @event and @handle are this CPU's, used
 * with interrupts off by the callbacks below and the PMI (bts.c's
 * x86c_bts_drain() sends the latter here).  x86c_branch_mutex orders
 * the first claim of each kind of branch user.
 */

#include <linux/perf_event.h>
#include <linux/slab.h>

#include <asm/intel_ds.h>

#include "../counters.h"

#define X86C_BTS_REC		24
/*
 * The PMI comes this far before a window's end: records stored while
 * the NMI is on its way still fit.
 */
#define X86C_BTS_AUX_MARGIN	(170 * X86C_BTS_REC)

/**
 * struct x86c_bts_chunk - a physically contiguous piece of the area
 * @base: its kernel address
 * @offset: where it starts in the area
 * @size: its bytes
 */
struct x86c_bts_chunk {
	void		*base;
	unsigned long	offset;
	unsigned long	size;
};

/**
 * struct x86c_bts_area - what setup_aux() makes of an AUX area
 * @bytes: the area's size, a power of two
 * @snapshot: overwrite mode: one chunk, stored into as a ring
 * @ring_pos: in snapshot mode, where the CPU stands in the ring
 * @nr: chunks
 * @chunk: them, in area order
 */
struct x86c_bts_area {
	unsigned long		bytes;
	bool			snapshot;
	unsigned long		ring_pos;
	unsigned int		nr;
	struct x86c_bts_chunk	chunk[];
};

static struct pmu x86c_bts_aux_pmu;

/* Whether @event, tracing on a CPU, is intel_bts's rather than bts.c's. */
bool x86c_is_bts_aux(const struct perf_event *event)
{
	return event->pmu == &x86c_bts_aux_pmu;
}

/* ---- who may use the branch hardware ------------------------------- */

static atomic_t x86c_branch_users[2];
static DEFINE_MUTEX(x86c_branch_mutex);

/**
 * x86c_branch_claim - a new event uses the branch hardware
 * @kind: X86C_BRANCH_RECORDS (branch stacks, bts.c's trace) or
 *	X86C_BRANCH_AUX_TRACE (this PMU)
 *
 * The two kinds exclude each other for as long as their events exist,
 * as upstream's do.  Process context (event_init).
 *
 * Return: 0, or -EBUSY while events of the other kind exist.
 */
int x86c_branch_claim(enum x86c_branch_kind kind)
{
	int err = 0;

	if (atomic_inc_not_zero(&x86c_branch_users[kind]))
		return 0;
	mutex_lock(&x86c_branch_mutex);
	if (atomic_read(&x86c_branch_users[!kind]))
		err = -EBUSY;
	else
		atomic_inc(&x86c_branch_users[kind]);
	mutex_unlock(&x86c_branch_mutex);
	return err;
}

/**
 * x86c_branch_unclaim - an event x86c_branch_claim() let in is gone
 * @kind: its kind
 */
void x86c_branch_unclaim(enum x86c_branch_kind kind)
{
	atomic_dec(&x86c_branch_users[kind]);
}

/* ---- the area ------------------------------------------------------- */

/* Pages in the chunk @kaddr starts: its order where the core set one. */
static unsigned long x86c_bts_chunk_pages(void *kaddr)
{
	struct page *page = virt_to_page(kaddr);

	return PagePrivate(page) ? 1UL << page_private(page) : 1;
}

static void *x86c_bts_aux_setup(struct perf_event *event, void **pages,
				int nr_pages, bool overwrite)
{
	int node = event->cpu < 0 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	struct x86c_bts_area *area;
	unsigned int nr = 0;
	int i;

	for (i = 0; i < nr_pages; i += x86c_bts_chunk_pages(pages[i]))
		nr++;
	/* Without an interrupt nothing could move the CPU to a next chunk. */
	if (overwrite && nr > 1)
		return NULL;

	area = kzalloc_node(struct_size(area, chunk, nr), GFP_KERNEL, node);
	if (!area)
		return NULL;
	area->bytes = (unsigned long)nr_pages << PAGE_SHIFT;
	area->snapshot = overwrite;
	area->nr = nr;
	for (i = 0, nr = 0; i < nr_pages; nr++) {
		unsigned long n = x86c_bts_chunk_pages(pages[i]);

		area->chunk[nr] = (struct x86c_bts_chunk){
			.base	= pages[i],
			.offset	= (unsigned long)i << PAGE_SHIFT,
			.size	= n << PAGE_SHIFT,
		};
		i += n;
	}
	return area;
}

static void x86c_bts_aux_free(void *data)
{
	kfree(data);
}

/* The chunk the area offset @pos is in. */
static struct x86c_bts_chunk *x86c_bts_chunk_at(struct x86c_bts_area *area,
						unsigned long pos)
{
	unsigned int i;

	for (i = 1; i < area->nr && area->chunk[i].offset <= pos; i++)
		;
	return &area->chunk[i - 1];
}

/* Point the debug store at [@base, @base + @len), the PMI at @thresh. */
static void x86c_bts_window(struct debug_store *ds, void *base,
			    unsigned long len, unsigned long thresh)
{
	ds->bts_buffer_base = (unsigned long)base;
	ds->bts_index = ds->bts_buffer_base;
	ds->bts_absolute_maximum = ds->bts_buffer_base + len;
	ds->bts_interrupt_threshold = ds->bts_buffer_base + thresh;
}

/* Where @c's first record goes: records sit at multiples of their size. */
static unsigned long x86c_bts_chunk_first(const struct x86c_bts_chunk *c)
{
	return roundup(c->offset, X86C_BTS_REC);
}

/* Zero the area's bytes [@from, @to), which a skip leaves unwritten. */
static void x86c_bts_zero(struct x86c_bts_area *area, unsigned long from,
			  unsigned long to)
{
	struct x86c_bts_chunk *c;

	if (from >= to)
		return;
	c = x86c_bts_chunk_at(area, from);
	memset(c->base + (from - c->offset), 0, to - from);
}

/*
 * The next window, from the handle's head to the end of its chunk or of
 * the room, whichever is nearer; but when that leaves no more than the
 * PMI's margin and the next chunk (the area's first, after its last)
 * has more, the rest of this one is skipped for it.  A window also
 * ends not far past the reader's wakeup mark.  The sizes and thresholds
 * are upstream's, so the pieces the reader gets are the same.
 *
 * Return: false when not even one record fits in the room left.
 */
static bool x86c_bts_place(struct x86c_bts_area *area,
			   struct perf_output_handle *h, struct debug_store *ds)
{
	unsigned long pos = h->head & (area->bytes - 1);
	struct x86c_bts_chunk *c = x86c_bts_chunk_at(area, pos);
	unsigned long space, skip, next_space, wake, thresh;
	struct x86c_bts_chunk *next;

	space = c->offset + c->size - pos;
	if (space > h->size)
		space = rounddown(h->size, X86C_BTS_REC);
	if (space <= X86C_BTS_AUX_MARGIN) {
		next = c + 1 < area->chunk + area->nr ? c + 1 : area->chunk;
		skip = c->offset + c->size - pos +
		       x86c_bts_chunk_first(next) - next->offset;
		next_space = next->offset + next->size -
			     x86c_bts_chunk_first(next);
		if (h->size >= skip && next_space + skip > h->size)
			next_space = rounddown(h->size - skip, X86C_BTS_REC);
		if (h->size >= skip && (next_space > space || !space)) {
			x86c_bts_zero(area, pos, c->offset + c->size);
			x86c_bts_zero(area, next->offset,
				      x86c_bts_chunk_first(next));
			if (perf_aux_output_skip(h, skip))
				return false;
			c = next;
			pos = x86c_bts_chunk_first(next);
			space = next_space;
		}
	}
	/* A reader waiting at its watermark is woken near it. */
	wake = X86C_BTS_AUX_MARGIN + X86C_BTS_REC + h->wakeup - h->head;
	if (space > wake)
		space = rounddown(wake, X86C_BTS_REC);
	if (!space)
		return false;

	if (space > X86C_BTS_AUX_MARGIN)
		thresh = space - X86C_BTS_AUX_MARGIN;
	else
		thresh = space > X86C_BTS_REC ? space - X86C_BTS_REC : space;
	x86c_bts_window(ds, c->base + (pos - c->offset), space, thresh);
	return true;
}

/* Snapshot mode: the whole area as a ring, from where the CPU stood. */
static void x86c_bts_place_ring(struct x86c_bts_area *area,
				struct debug_store *ds)
{
	unsigned long len = area->bytes - area->bytes % X86C_BTS_REC;

	/* No threshold the index can reach: no PMI. */
	x86c_bts_window(ds, area->chunk[0].base, len, len + X86C_BTS_REC);
	ds->bts_index = ds->bts_buffer_base + area->ring_pos;
}

/* ---- tracing -------------------------------------------------------- */

#define X86C_BTS_AUX_BITS	(DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS | \
				 DEBUGCTLMSR_BTINT | DEBUGCTLMSR_BTS_OFF_OS | \
				 DEBUGCTLMSR_BTS_OFF_USR)

static void x86c_bts_aux_debugctl(struct x86c_pmu *p, u64 set)
{
	if (x86c_debugctl_update(p, set, X86C_BTS_AUX_BITS) && set &&
	    x86c_is_host(p))
		pr_warn_once("perf/x86: DEBUGCTL refuses intel_bts's bits %#llx\n",
			     set);
}

/* Open a handle, place a window and trace; or stay stopped. */
static void x86c_bts_aux_begin(struct x86c_pmu *p, struct x86c_cpu *cpu,
			       struct perf_event *event)
{
	struct perf_output_handle *h = &cpu->bts.handle;
	struct x86c_bts_area *area;
	u64 set = DEBUGCTLMSR_TR | DEBUGCTLMSR_BTS;

	area = perf_aux_output_begin(h, event);
	if (!area)
		return;
	if (area->snapshot) {
		x86c_bts_place_ring(area, cpu->ds);
	} else if (x86c_bts_place(area, h, cpu->ds)) {
		set |= DEBUGCTLMSR_BTINT;
	} else {
		perf_aux_output_end(h, 0);
		return;
	}
	if (event->attr.exclude_kernel)
		set |= DEBUGCTLMSR_BTS_OFF_OS;
	if (event->attr.exclude_user)
		set |= DEBUGCTLMSR_BTS_OFF_USR;
	event->hw.state = 0;
	perf_event_itrace_started(event);
	x86c_bts_aux_debugctl(p, set);
}

/* Stop storing and commit what the window holds; the handle closes. */
static void x86c_bts_aux_commit(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct perf_output_handle *h = &cpu->bts.handle;
	struct debug_store *ds = cpu->ds;
	struct x86c_bts_area *area = perf_get_aux(h);
	unsigned long stored = ds->bts_index - ds->bts_buffer_base;

	x86c_bts_aux_debugctl(p, 0);
	if (area->snapshot) {
		area->ring_pos = stored;
		h->head = stored;
		perf_aux_output_end(h, area->bytes);
	} else {
		if (ds->bts_index >= ds->bts_absolute_maximum)
			perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
		perf_aux_output_end(h, stored);
	}
	x86c_bts_window(ds, NULL, 0, 0);
}

/**
 * x86c_bts_aux_drain - the PMI, for this PMU's event on this CPU
 * @p: the core PMU
 * @cpu: this CPU's counters
 *
 * Return: 1 if the trace reached its threshold (the PMI was ours).
 */
int x86c_bts_aux_drain(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct perf_event *event = cpu->bts.event;
	struct debug_store *ds = cpu->ds;

	if (!cpu->bts.handle.event ||
	    ds->bts_index < ds->bts_interrupt_threshold)
		return 0;
	x86c_bts_aux_commit(p, cpu);
	event->hw.state = PERF_HES_STOPPED;
	x86c_bts_aux_begin(p, cpu, event);
	return 1;
}

static void x86c_bts_aux_start(struct perf_event *event, int flags)
{
	struct x86c_pmu *p = x86c_here();

	if (!(event->hw.state & PERF_HES_STOPPED))
		return;
	x86c_bts_aux_begin(p, this_cpu_ptr(p->cpus), event);
}

static void x86c_bts_aux_stop(struct perf_event *event, int flags)
{
	struct x86c_pmu *p = x86c_here();
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED;
	if (cpu->bts.handle.event)
		x86c_bts_aux_commit(p, cpu);
}

static int x86c_bts_aux_add(struct perf_event *event, int flags)
{
	struct x86c_pmu *p = x86c_here();
	struct x86c_cpu *cpu = this_cpu_ptr(p->cpus);

	if (cpu->bts.event)
		return -EBUSY;
	cpu->bts.event = event;
	event->hw.state = PERF_HES_STOPPED;
	if (!(flags & PERF_EF_START))
		return 0;
	x86c_bts_aux_start(event, flags);
	/* Nothing to store into: as upstream, the add fails. */
	if (event->hw.state & PERF_HES_STOPPED) {
		cpu->bts.event = NULL;
		return -EINVAL;
	}
	return 0;
}

static void x86c_bts_aux_del(struct perf_event *event, int flags)
{
	struct x86c_cpu *cpu = this_cpu_ptr(x86c_here()->cpus);

	x86c_bts_aux_stop(event, PERF_EF_UPDATE);
	cpu->bts.event = NULL;
}

static void x86c_bts_aux_read(struct perf_event *event)
{
}

static void x86c_bts_aux_destroy(struct perf_event *event)
{
	x86c_branch_unclaim(X86C_BRANCH_AUX_TRACE);
}

static int x86c_bts_aux_init(struct perf_event *event)
{
	int err;

	if (event->attr.type != x86c_bts_aux_pmu.type)
		return -ENOENT;
	if (event->attr.exclude_kernel) {
		err = perf_allow_kernel();
		if (err)
			return err;
	}
	err = x86c_branch_claim(X86C_BRANCH_AUX_TRACE);
	if (err)
		return err;
	event->destroy = x86c_bts_aux_destroy;
	return 0;
}

static struct pmu x86c_bts_aux_pmu = {
	.task_ctx_nr	= perf_sw_context,
	.capabilities	= PERF_PMU_CAP_AUX_NO_SG | PERF_PMU_CAP_ITRACE |
			  PERF_PMU_CAP_EXCLUSIVE,
	.event_init	= x86c_bts_aux_init,
	.add		= x86c_bts_aux_add,
	.del		= x86c_bts_aux_del,
	.start		= x86c_bts_aux_start,
	.stop		= x86c_bts_aux_stop,
	.read		= x86c_bts_aux_read,
	.setup_aux	= x86c_bts_aux_setup,
	.free_aux	= x86c_bts_aux_free,
};

/* After the core PMU (an early initcall) found whether the CPU has BTS. */
static int __init x86c_bts_aux_register(void)
{
	if (!x86c_host || !x86c_host->bts)
		return 0;
	if (boot_cpu_has(X86_FEATURE_PTI)) {
		pr_info("perf/x86: no intel_bts under page-table isolation\n");
		return 0;
	}
	return perf_pmu_register(&x86c_bts_aux_pmu, "intel_bts", -1);
}
arch_initcall(x86c_bts_aux_register);
