// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the AUX area of a ring buffer.
 *
 * Hardware that traces (Intel BTS and PT, Arm SPE, CoreSight) writes its
 * own data, faster than any record-by-record output could, into a second
 * area of the buffer that user space maps at the control page's
 * aux_offset.  The PMU gets the area's pages once (pmu->setup_aux()) and
 * writes between perf_aux_output_begin(), which says where and how much,
 * and perf_aux_output_end(), which commits: it moves aux_head in the
 * control page and writes a PERF_RECORD_AUX (offset, size, flags) into
 * the data area, so that the reader knows what arrived and whether any
 * was lost (PERF_AUX_FLAG_TRUNCATED and the PMU's own flags).
 *
 * Two modes, chosen by the AUX mapping's protection as for the data
 * area: writable, the reader gives space back through aux_tail, and a
 * full area stops the writer (the event is disabled until user space
 * enables it again); read-only, the hardware overwrites the oldest data
 * and aux_head is only where it stands (snapshot mode, every record
 * flagged PERF_AUX_FLAG_OVERWRITE).
 *
 * Pages: order-0, unless the PMU needs (PERF_PMU_CAP_AUX_NO_SG) or
 * prefers (AUX_PREFER_LARGE) physically contiguous chunks: then chunks
 * of a watermark's size, or the whole area at once in overwrite mode.
 * A chunk's first page carries its order in page_private() with
 * PagePrivate set, which is how PMU drivers find chunk boundaries.
 *
 * Lifetime: struct perf_aux_area holds a reference on its buffer and
 * has one of its own for being mapped plus one per open handle.  The
 * last AUX mapping going unpublishes it (rb->aux = NULL) and drops the
 * mapping's reference.  A PMU with a handle still open keeps writing
 * into pages nobody maps any more until its perf_aux_output_end(),
 * which commits nothing (the area is no longer the buffer's) and drops
 * the last reference.  perf_aux_output_begin() finds the area under RCU
 * before it takes its reference, so the area is freed only after a
 * grace period, and from a work item, since a PMU's free_aux() may
 * sleep (vunmap()): queue_rcu_work(), reached through an irq_work where
 * the last reference went in an NMI.  The unmap itself does not wait
 * for the grace period (it did, and every munmap of an AUX area took a
 * few ticks: a profiler's exit, and each of make bench's spe_sample
 * runs, paid it).  Upstream instead stops every writer with cross-calls
 * before the unmap returns; this way the mmap path need not find other
 * CPUs' events.
 *
 * Locking: rb->aux_mutex serialises creating the area and counting its
 * mappings (@mmap_count), inside the mapping event's mmap_mutex.  The
 * writer side takes no lock: a buffer has one handle open at a time
 * (rb->aux_writer), opened and closed on one CPU with interrupts off by
 * its PMU, in pmu::start/stop and the PMU's interrupt.
 */
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "buffer.h"
#include "internal.h"

/**
 * struct perf_aux_area - the AUX area of one buffer
 * @refs: one while mapped, one per open handle
 * @mmap_count: VMAs mapping the area (under rb->aux_mutex)
 * @rb: the buffer, referenced until the area is freed
 * @pgoff: the mmap offset it lives at, in pages
 * @overwrite: mapped read-only: the hardware wraps, nothing waits
 * @head: bytes committed, free-running (the open handle's writer's)
 * @wakeup_mark: the watermark multiple readers were last woken at
 * @watermark: bytes between wakeups, 0 in overwrite mode
 * @charge: the pages' locked-memory charge
 * @free_aux: the PMU's release of @priv
 * @priv: what the PMU's setup_aux() made of the pages
 * @free_irq_work: the hop out of NMI for a free that cannot happen there
 * @free_rwork: where the free happens, a grace period after the last put
 * @nr_pages: pages in @pages (while allocating: how many so far)
 * @pages: the pages' kernel addresses
 */
struct perf_aux_area {
	refcount_t		refs;
	int			mmap_count;
	struct perf_buffer	*rb;
	unsigned long		pgoff;
	bool			overwrite;
	unsigned long		head;
	unsigned long		wakeup_mark;
	unsigned long		watermark;
	struct perf_mmap_charge	charge;
	void			(*free_aux)(void *priv);
	void			*priv;
	struct irq_work		free_irq_work;
	struct rcu_work		free_rwork;
	unsigned long		nr_pages;
	void			*pages[];
};

static inline unsigned long aux_bytes(struct perf_aux_area *aux)
{
	return aux->nr_pages << PAGE_SHIFT;
}

/* ----------------------------------------------------------------------
 * Pages.
 */

/* The order of the chunk @kaddr starts, 0 for a lone page. */
static unsigned int aux_chunk_order(void *kaddr)
{
	struct page *page = virt_to_page(kaddr);

	return PagePrivate(page) ? page_private(page) : 0;
}

/* A zeroed chunk of at most 2^@order pages, smaller if memory is short. */
static struct page *aux_alloc_chunk(int node, int order)
{
	gfp_t gfp = GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN;
	struct page *page;

	for (; order >= 0; order--) {
		page = alloc_pages_node(node, order ? gfp | __GFP_NORETRY : gfp,
					order);
		if (!page)
			continue;
		if (order) {
			set_page_private(page, order);
			SetPagePrivate(page);
		}
		return page;
	}
	return NULL;
}

static void aux_free_pages(struct perf_aux_area *aux)
{
	unsigned long i = 0;

	while (i < aux->nr_pages) {
		struct page *page = virt_to_page(aux->pages[i]);
		unsigned int order = aux_chunk_order(aux->pages[i]);

		ClearPagePrivate(page);
		set_page_private(page, 0);
		__free_pages(page, order);
		i += 1UL << order;
	}
}

/*
 * The largest chunk worth asking for: the PMU's interrupt comes at a
 * watermark, so a chunk that size is what it can use whole; in overwrite
 * mode it wraps by itself, so the whole area in one piece.
 */
static int aux_max_order(struct pmu *pmu, unsigned long nr_pages,
			 unsigned long watermark, bool overwrite)
{
	int order;

	if (!(pmu->capabilities &
	      (PERF_PMU_CAP_AUX_NO_SG | PERF_PMU_CAP_AUX_PREFER_LARGE)))
		return 0;
	order = overwrite ? ilog2(nr_pages) : get_order(watermark);
	return min(order, MAX_PAGE_ORDER);
}

static int aux_alloc_pages(struct perf_aux_area *aux, struct pmu *pmu,
			   unsigned long nr_pages, int node)
{
	int max_order = aux_max_order(pmu, nr_pages, aux->watermark,
				      aux->overwrite);

	while (aux->nr_pages < nr_pages) {
		int order = min(max_order, ilog2(nr_pages - aux->nr_pages));
		struct page *page = aux_alloc_chunk(node, order);
		unsigned long last;

		if (!page)
			return -ENOMEM;
		last = aux->nr_pages + (1UL << aux_chunk_order(page_address(page)));
		while (aux->nr_pages < last)
			aux->pages[aux->nr_pages++] = page_address(page++);
	}

	/*
	 * A PMU without scatter-gather cannot switch chunks by itself in
	 * overwrite mode, where no interrupt comes at a chunk's end.
	 */
	if ((pmu->capabilities & PERF_PMU_CAP_AUX_NO_SG) && aux->overwrite &&
	    aux_chunk_order(aux->pages[0]) != ilog2(nr_pages))
		return -ENOMEM;
	return 0;
}

/* ----------------------------------------------------------------------
 * Creation and release.
 */

static void aux_free(struct perf_aux_area *aux)
{
	if (aux->priv)
		aux->free_aux(aux->priv);
	aux_free_pages(aux);
	perf_rb_uncharge(&aux->charge);
	perf_rb_put(aux->rb);
	kvfree(aux);
}

static void aux_free_work(struct work_struct *work)
{
	aux_free(container_of(to_rcu_work(work), struct perf_aux_area,
			      free_rwork));
}

/* Free @aux once no perf_aux_output_begin() can still be looking at it */
static void aux_free_after_rcu(struct perf_aux_area *aux)
{
	queue_rcu_work(system_wq, &aux->free_rwork);
}

static void aux_free_irq_work(struct irq_work *work)
{
	aux_free_after_rcu(container_of(work, struct perf_aux_area,
					free_irq_work));
}

/*
 * Drop a PMU handle's reference, from its start, stop or interrupt
 * (interrupts off, maybe an NMI): the last one frees, out of the NMI.
 */
static void aux_put(struct perf_aux_area *aux)
{
	if (refcount_dec_and_test(&aux->refs))
		irq_work_queue(&aux->free_irq_work);
}

/* Drop a reference in task context: the last one frees after RCU. */
static void aux_put_sleepable(struct perf_aux_area *aux)
{
	if (refcount_dec_and_test(&aux->refs))
		aux_free_after_rcu(aux);
}

/*
 * Enter the area's pages in @vma, read-only: user space reads what the
 * hardware wrote, a write faults (SIGBUS, ring_buffer.c's pfn_mkwrite).
 */
static int aux_map_pages(struct vm_area_struct *vma, struct perf_aux_area *aux)
{
	pgprot_t ro = vm_get_page_prot(vma->vm_flags & ~VM_WRITE);
	unsigned long i;
	int err = 0;

	for (i = 0; !err && i < aux->nr_pages; i++)
		err = remap_pfn_range(vma, vma->vm_start + i * PAGE_SIZE,
				      page_to_pfn(virt_to_page(aux->pages[i])),
				      PAGE_SIZE, ro);
	if (err)
		zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
	return err;
}

/* A new area for @event's PMU, with the mapping's reference, unmapped. */
static struct perf_aux_area *aux_alloc(struct perf_buffer *rb,
				       struct perf_event *event,
				       struct vm_area_struct *vma,
				       unsigned long nr_pages)
{
	int node = event->cpu < 0 ? NUMA_NO_NODE : cpu_to_node(event->cpu);
	bool overwrite = !(vma->vm_flags & VM_WRITE);
	struct perf_aux_area *aux;
	int ret;

	aux = kvzalloc_node(struct_size(aux, pages, nr_pages), GFP_KERNEL, node);
	if (!aux)
		return ERR_PTR(-ENOMEM);
	refcount_set(&aux->refs, 1);
	refcount_inc(&rb->refcount);
	aux->rb = rb;
	aux->pgoff = vma->vm_pgoff;
	aux->overwrite = overwrite;
	aux->watermark = perf_aux_watermark(nr_pages << PAGE_SHIFT,
					    event->attr.aux_watermark,
					    overwrite);
	aux->free_aux = event->pmu->free_aux;
	init_irq_work(&aux->free_irq_work, aux_free_irq_work);
	INIT_RCU_WORK(&aux->free_rwork, aux_free_work);

	ret = perf_rb_charge(vma, nr_pages, &aux->charge);
	if (!ret)
		ret = aux_alloc_pages(aux, event->pmu, nr_pages, node);
	if (!ret) {
		aux->priv = event->pmu->setup_aux(event, aux->pages, nr_pages,
						  overwrite);
		if (!aux->priv)
			ret = -ENOMEM;
	}
	if (ret) {
		aux_free(aux);
		return ERR_PTR(ret);
	}
	return aux;
}

/**
 * perf_aux_create() - map the AUX area, creating it on the first mapping
 * @rb: the buffer, mapped
 * @event: the event whose fd is mapped (its PMU gets a new area)
 * @vma: the mapping, its place already checked against the control page
 * @nr_pages: its size in pages
 *
 * Caller holds @event's mmap_mutex.
 *
 * Return: 0 with the pages mapped, -EOPNOTSUPP for an event whose PMU
 * has no AUX area, -EINVAL when an existing area is elsewhere or of
 * another size, -EPERM over the locked-memory limit, -ENOMEM.
 */
int perf_aux_create(struct perf_buffer *rb, struct perf_event *event,
		    struct vm_area_struct *vma, unsigned long nr_pages)
{
	struct perf_aux_area *aux;
	bool created = false;
	int ret;

	lockdep_assert_held(&event->mmap_mutex);
	mutex_lock(&rb->aux_mutex);
	aux = rcu_dereference_protected(rb->aux,
					lockdep_is_held(&rb->aux_mutex));
	if (aux) {
		ret = -EINVAL;
		if (aux->pgoff != vma->vm_pgoff || aux->nr_pages != nr_pages)
			goto unlock;
	} else {
		ret = -EOPNOTSUPP;
		if (!has_aux(event))
			goto unlock;
		aux = aux_alloc(rb, event, vma, nr_pages);
		ret = PTR_ERR_OR_ZERO(aux);
		if (ret)
			goto unlock;
		created = true;
	}

	ret = aux_map_pages(vma, aux);
	if (ret) {
		if (created) {
			/* The locked memory is back now, the pages later. */
			perf_rb_uncharge(&aux->charge);
			aux_put_sleepable(aux);
		}
		goto unlock;
	}
	aux->mmap_count++;
	if (created)
		rcu_assign_pointer(rb->aux, aux);
unlock:
	mutex_unlock(&rb->aux_mutex);
	return ret;
}

/**
 * perf_aux_mapping_opened() - a copy of an AUX mapping was made
 * @rb: the buffer
 *
 * Caller holds the mapping event's mmap_mutex.
 */
void perf_aux_mapping_opened(struct perf_buffer *rb)
{
	struct perf_aux_area *aux;

	mutex_lock(&rb->aux_mutex);
	aux = rcu_dereference_protected(rb->aux,
					lockdep_is_held(&rb->aux_mutex));
	if (!WARN_ON_ONCE(!aux))
		aux->mmap_count++;
	mutex_unlock(&rb->aux_mutex);
}

/**
 * perf_aux_mapping_closed() - an AUX mapping went away
 * @rb: the buffer
 *
 * The last one retires the area: no new handle finds it once this
 * returns, and the locked memory is given back now.  Caller holds the
 * mapping event's mmap_mutex; may sleep.
 */
void perf_aux_mapping_closed(struct perf_buffer *rb)
{
	struct perf_aux_area *aux;

	mutex_lock(&rb->aux_mutex);
	aux = rcu_dereference_protected(rb->aux,
					lockdep_is_held(&rb->aux_mutex));
	if (WARN_ON_ONCE(!aux) || --aux->mmap_count) {
		mutex_unlock(&rb->aux_mutex);
		return;
	}
	RCU_INIT_POINTER(rb->aux, NULL);
	mutex_unlock(&rb->aux_mutex);

	/* A handle opening now may still take a reference: the free waits. */
	perf_rb_uncharge(&aux->charge);
	aux_put_sleepable(aux);
}

/* ----------------------------------------------------------------------
 * The PMU's side: one handle at a time per buffer.
 */

/*
 * Wakeups from the PMU's own interrupt.  A reader due a wakeup is woken
 * from overflow.c's irq_work, because a handle may be closed where no
 * task may be woken: in NMI, or in pmu::stop under the context lock,
 * which the scheduler takes with its runqueue locked.  That irq_work
 * costs an interrupt of its own (a self-IPI on arm64), and a PMU that
 * stops at every watermark, as SPE does, paid one after each buffer
 * interrupt for a wakeup its handler could have done itself.  So a
 * PMU's handler that runs as a plain hard interrupt, with no perf lock
 * held, brackets its AUX work with perf_aux_irq_begin() and
 * perf_aux_irq_end(); a wakeup due in between is done at the end,
 * directly, as the irq_work would have done it.  Upstream has no such
 * bracket.  PREEMPT_RT keeps the irq_work: there the readers' wait
 * queue lock may sleep.
 */
struct perf_aux_irq {
	bool			active;
	struct perf_event	*wakee;
};

static DEFINE_PER_CPU(struct perf_aux_irq, perf_aux_irq);

/* Readers of @handle's buffer are due a wakeup: now, or at the bracket's end. */
static void aux_wakeup(struct perf_output_handle *handle)
{
	struct perf_aux_irq *air = this_cpu_ptr(&perf_aux_irq);

	if (air->active && (!air->wakee || air->wakee == handle->event)) {
		perf_rb_note_wakeup(handle);
		air->wakee = handle->event;
		return;
	}
	perf_rb_queue_wakeup(handle);
}

/**
 * perf_aux_irq_begin() - a PMU's interrupt handler starts its AUX work
 *
 * From a hard interrupt handler (not an NMI, not a threaded handler)
 * that holds no perf lock; end with perf_aux_irq_end() before it
 * returns.  Everything else about the handles is as without it.
 */
void perf_aux_irq_begin(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT) || WARN_ON_ONCE(in_nmi()))
		return;
	lockdep_assert_irqs_disabled();
	this_cpu_write(perf_aux_irq.active, true);
}
EXPORT_SYMBOL_GPL(perf_aux_irq_begin);

/**
 * perf_aux_irq_end() - the handler's AUX work is done: wake the readers
 *	that are due a wakeup
 */
void perf_aux_irq_end(void)
{
	struct perf_aux_irq *air = this_cpu_ptr(&perf_aux_irq);
	struct perf_event *event = air->wakee;

	air->active = false;
	air->wakee = NULL;
	/* Alive: it cannot leave this CPU's PMU while we interrupt it. */
	if (event)
		perf_event_wakeup(event);
}
EXPORT_SYMBOL_GPL(perf_aux_irq_end);

/* Is @aux still the area of its buffer, that is, still mapped? */
static inline bool aux_published(struct perf_aux_area *aux)
{
	return rcu_access_pointer(aux->rb->aux) == aux;
}

/*
 * Show the reader the new head, if @aux is still its area.  Return:
 * whether a wakeup is due (a watermark reached).
 */
static bool aux_publish(struct perf_aux_area *aux)
{
	if (!aux_published(aux))
		return false;
	WRITE_ONCE(aux->rb->user_page->aux_head, aux->head);
	return perf_aux_wakeup_due(aux->head, &aux->wakeup_mark,
				   aux->watermark);
}

/**
 * perf_aux_output_begin() - open a handle for writing AUX data
 * @handle: filled in: head (where to write, free-running), size (room,
 *	0 in overwrite mode), wakeup (the head at which a reader wants
 *	waking)
 * @event: the AUX event (a child writes into its parent's buffer)
 *
 * Call with interrupts off, from the PMU's start or interrupt; close
 * with perf_aux_output_end() on the same CPU before the event stops.
 * A full area disables the event and wakes the reader.
 *
 * Return: the PMU's setup_aux() result, or NULL with nothing to write
 * into (no buffer, no AUX area, or no room).
 */
void *perf_aux_output_begin(struct perf_output_handle *handle,
			    struct perf_event *event)
{
	struct perf_aux_area *aux = NULL;
	struct perf_buffer *rb;
	unsigned long tail;

	handle->event = NULL;

	rcu_read_lock();
	rb = rcu_dereference(perf_event_primary(event)->rb);
	if (rb)
		aux = rcu_dereference(rb->aux);
	if (aux && !refcount_inc_not_zero(&aux->refs))
		aux = NULL;
	rcu_read_unlock();
	if (!aux)
		return NULL;
	if (WARN_ON_ONCE(rb->aux_writer))
		goto put;

	handle->rb = rb;
	handle->event = event;
	handle->head = aux->head;
	handle->size = 0;
	handle->aux_flags = 0;
	if (!aux->overwrite) {
		/* Reading the tail before the hardware may write: acquire. */
		tail = smp_load_acquire(&rb->user_page->aux_tail);
		handle->wakeup = aux->wakeup_mark + aux->watermark;
		handle->size = perf_aux_room(aux->head, tail, aux_bytes(aux));
		if (!handle->size) {
			perf_event_disable_inatomic(event);
			aux_wakeup(handle);
			handle->event = NULL;
			goto put;
		}
	}
	rb->aux_writer = aux;
	return aux->priv;

put:
	aux_put(aux);
	return NULL;
}
EXPORT_SYMBOL_GPL(perf_aux_output_begin);

/**
 * perf_aux_output_end() - commit AUX data and close the handle
 * @handle: from perf_aux_output_begin()
 * @size: bytes the hardware wrote from the handle's head; in overwrite
 *	mode the PMU sets handle->head to where the hardware stands
 *
 * The PMU makes the hardware's writes visible before calling this.  A
 * PERF_RECORD_AUX says what arrived, unless nothing did and no flag but
 * the PMU's format or OVERWRITE has news; readers are woken at each
 * watermark and when data was truncated (which also disables the event).
 */
void perf_aux_output_end(struct perf_output_handle *handle,
			 unsigned long size)
{
	struct perf_buffer *rb = handle->rb;
	struct perf_aux_area *aux = rb->aux_writer;
	u64 flags = handle->aux_flags & ~(u64)PERF_AUX_FLAG_OVERWRITE;
	bool truncated = flags & PERF_AUX_FLAG_TRUNCATED;
	unsigned long offset;

	rb->aux_writer = NULL;
	if (aux->overwrite) {
		flags |= PERF_AUX_FLAG_OVERWRITE;
		aux->head = handle->head;
		offset = aux->head;
	} else {
		offset = aux->head;
		aux->head += size;
	}

	/* An unmapped area's data goes nowhere: no record, no wakeup. */
	if (aux_published(aux)) {
		if (size || (flags & ~(u64)(PERF_AUX_FLAG_PMU_FORMAT_TYPE_MASK |
					    PERF_AUX_FLAG_OVERWRITE)))
			perf_log_aux(handle->event, offset, size, flags);
		if (aux_publish(aux) || truncated) {
			if (truncated)
				perf_event_disable_inatomic(handle->event);
			aux_wakeup(handle);
		}
	}
	handle->event = NULL;
	aux_put(aux);
}
EXPORT_SYMBOL_GPL(perf_aux_output_end);

/**
 * perf_aux_output_skip() - step over AUX space the hardware cannot use
 * @handle: an open handle
 * @size: bytes to skip (e.g. to a boundary the hardware needs)
 *
 * Return: 0, or -ENOSPC when there is not that much room.
 */
int perf_aux_output_skip(struct perf_output_handle *handle,
			 unsigned long size)
{
	struct perf_aux_area *aux = handle->rb->aux_writer;

	if (size > handle->size)
		return -ENOSPC;
	aux->head += size;
	if (aux_publish(aux)) {
		aux_wakeup(handle);
		handle->wakeup = aux->wakeup_mark + aux->watermark;
	}
	handle->head = aux->head;
	handle->size -= size;
	return 0;
}
EXPORT_SYMBOL_GPL(perf_aux_output_skip);

/**
 * perf_get_aux() - the PMU's setup_aux() result behind an open handle
 * @handle: the handle
 *
 * Return: it, or NULL when the handle is not open.
 */
void *perf_get_aux(struct perf_output_handle *handle)
{
	if (!handle->event)
		return NULL;
	return handle->rb->aux_writer->priv;
}
EXPORT_SYMBOL_GPL(perf_get_aux);

/**
 * perf_aux_output_flag() - add PERF_AUX_FLAG_* to the coming AUX record
 * @handle: an open handle
 * @flags: flags to add (OVERWRITE is the core's to set, not the PMU's)
 */
void perf_aux_output_flag(struct perf_output_handle *handle, u64 flags)
{
	if (WARN_ON_ONCE(flags & PERF_AUX_FLAG_OVERWRITE))
		return;
	handle->aux_flags |= flags;
}
EXPORT_SYMBOL_GPL(perf_aux_output_flag);

/**
 * perf_output_copy_aux() - copy AUX data into a record being written
 * @aux_handle: an open AUX handle
 * @handle: the record's handle
 * @from: where to start in the AUX area (free-running or not)
 * @to: where to stop; equal to @from for the whole area
 *
 * Return: bytes copied.
 */
long perf_output_copy_aux(struct perf_output_handle *aux_handle,
			  struct perf_output_handle *handle,
			  unsigned long from, unsigned long to)
{
	struct perf_aux_area *aux = aux_handle->rb->aux_writer;
	unsigned long mask = aux_bytes(aux) - 1;
	unsigned long left = ((to - from) & mask) ?: aux_bytes(aux);
	long copied = 0;

	from &= mask;
	while (left) {
		unsigned long n = min(left, PAGE_SIZE - offset_in_page(from));

		perf_output_copy(handle, aux->pages[from >> PAGE_SHIFT] +
				 offset_in_page(from), n);
		copied += n;
		left -= n;
		from = (from + n) & mask;
	}
	return copied;
}

/* PERF_SAMPLE_AUX (attr.aux_sample_size): not implemented, samples carry none. */
unsigned long perf_aux_sample_size(struct perf_event *event,
				   unsigned long size)
{
	return 0;
}

void perf_aux_sample_output(struct perf_event *event,
			    struct perf_output_handle *handle,
			    unsigned long size)
{
}

void perf_event_aux_pause(struct perf_event *aux_event, bool pause)
{
}
