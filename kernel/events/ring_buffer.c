// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the mmap ring buffer of perf events.
 *
 * A buffer is one control page (struct perf_event_mmap_page, "the user
 * page") and a power-of-two number of data pages, all order-0 pages.
 * mmap() maps them in one go: the user page with the protection the
 * caller asked for, the data pages read-only, so that user space can only
 * publish data_tail and never scribble over records.
 *
 * Writers (any context, NMI included) reserve space by moving rb->head
 * with a cmpxchg, copy their record, and only the outermost writer on a
 * CPU publishes the new head in the user page; see rb_writer_leave().
 *
 * Lifetime: every event whose output goes to a buffer holds one
 * reference on it (taken when it is attached, dropped when detached);
 * a mapping keeps its event attached, so pages stay while mapped.  The
 * memory goes an RCU grace period after the last reference, because
 * writers only hold rcu_read_lock().
 *
 * Mapping state: rb->mmap_count counts the VMAs mapping the buffer (of
 * any event), event->mmap_count the VMAs made through that event's fd;
 * both change under that event's mmap_mutex.  When the last VMA of a
 * buffer goes, the events still redirected into it are detached and the
 * locked-memory charge is returned.
 *
 * The AUX area, a second mapping for hardware trace PMUs, is aux.c's;
 * this file only checks the AUX mapping's place and counts it as a
 * mapping of the buffer.  struct perf_buffer itself is in buffer.h,
 * shared by the two.
 */
#include <linux/capability.h>
#include <linux/mm.h>
#include <linux/poll.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "buffer.h"
#include "internal.h"
#include "rb_math.h"

/* kernel.perf_event_mlock_kb: what each user may lock without rlimit. */
int sysctl_perf_event_mlock __read_mostly = 512 + (PAGE_SIZE / 1024);

/* ----------------------------------------------------------------------
 * Allocation and references.
 */

static void rb_release_memory(struct perf_buffer *rb)
{
	unsigned long i;

	WARN_ON_ONCE(rcu_access_pointer(rb->aux));
	for (i = 0; i < rb->nr_pages; i++)
		free_page((unsigned long)rb->data_pages[i]);
	free_page((unsigned long)rb->user_page);
	kvfree(rb);
}

static void rb_free_rcu_cb(struct rcu_head *head)
{
	rb_release_memory(container_of(head, struct perf_buffer, rcu));
}

static void *rb_page_alloc(int node)
{
	struct page *page;

	page = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN,
				0);
	return page ? page_address(page) : NULL;
}

/*
 * A new buffer with one reference (for the event it gets attached to)
 * and its control page filled in.  @requested_mark is the watermark the
 * event asked for, 0 for the default.
 */
static struct perf_buffer *rb_create(unsigned long nr_pages, int cpu,
				     unsigned long requested_mark,
				     bool overwrite)
{
	int node = cpu < 0 ? NUMA_NO_NODE : cpu_to_node(cpu);
	struct perf_event_mmap_page *pg;
	struct perf_buffer *rb;
	unsigned long i;

	rb = kvzalloc_node(struct_size(rb, data_pages, nr_pages),
			   GFP_KERNEL | __GFP_NOWARN, node);
	if (!rb)
		return NULL;

	rb->user_page = rb_page_alloc(node);
	if (!rb->user_page)
		goto fail;
	for (i = 0; i < nr_pages; i++) {
		rb->data_pages[i] = rb_page_alloc(node);
		if (!rb->data_pages[i])
			goto fail;
		rb->nr_pages = i + 1;
	}

	refcount_set(&rb->refcount, 1);
	spin_lock_init(&rb->event_lock);
	INIT_LIST_HEAD(&rb->event_list);
	mutex_init(&rb->aux_mutex);
	rb->overwrite = overwrite;
	rb->watermark = perf_rb_watermark(rb_data_bytes(rb), requested_mark);
	/* Without data pages there is nowhere to write: stay paused. */
	rb->paused = !nr_pages;

	pg = rb->user_page;
	pg->cap_bit0_is_deprecated = 1;
	pg->size = offsetof(struct perf_event_mmap_page, __reserved);
	pg->data_offset = PAGE_SIZE;
	pg->data_size = rb_data_bytes(rb);
	return rb;

fail:
	rb_release_memory(rb);
	return NULL;
}

/* A reference to the buffer @event's records go to, or NULL. */
static struct perf_buffer *rb_get(struct perf_event *event)
{
	struct perf_buffer *rb;

	event = perf_event_primary(event);
	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && !refcount_inc_not_zero(&rb->refcount))
		rb = NULL;
	rcu_read_unlock();
	return rb;
}

void perf_rb_put(struct perf_buffer *rb)
{
	if (!refcount_dec_and_test(&rb->refcount))
		return;
	WARN_ON_ONCE(!list_empty(&rb->event_list));
	call_rcu(&rb->rcu, rb_free_rcu_cb);
}

/*
 * Point @event's output at @rb (NULL: nowhere).  A reference on @rb is
 * handed over by the caller; the one on the old buffer is dropped.
 * Caller holds event->mmap_mutex.
 *
 * event->rb_entry moves from one RCU list to another.  A reader that
 * was on the old list may still be standing on this entry, so it must
 * not be linked elsewhere until a grace period has passed; the removal
 * records a grace-period cookie and the next insertion waits for it
 * (usually long over by then).
 */
static void rb_list_change(struct perf_buffer *rb, struct perf_event *event,
			   bool add)
{
	unsigned long flags;

	lockdep_assert_held(&event->mmap_mutex);
	spin_lock_irqsave(&rb->event_lock, flags);
	if (add)
		list_add_rcu(&event->rb_entry, &rb->event_list);
	else
		list_del_rcu(&event->rb_entry);
	spin_unlock_irqrestore(&rb->event_lock, flags);
}

static void rb_attach(struct perf_event *event, struct perf_buffer *rb)
{
	struct perf_buffer *old = event->rb;

	lockdep_assert_held(&event->mmap_mutex);
	WARN_ON_ONCE(event->parent);

	if (old) {
		rb_list_change(old, event, false);
		event->rcu_batches = get_state_synchronize_rcu();
		event->rcu_pending = 1;
	}
	if (rb) {
		/* Wait out readers that may still stand on rb_entry. */
		if (event->rcu_pending) {
			event->rcu_pending = 0;
			cond_synchronize_rcu(event->rcu_batches);
		}
		rb_list_change(rb, event, true);
	}

	rcu_assign_pointer(event->rb, rb);

	if (old) {
		/* A wakeup aimed at the old buffer's list may have missed us. */
		wake_up_all(&event->waitq);
		perf_rb_put(old);
	}
}

/* ----------------------------------------------------------------------
 * The user page.
 */

/* The rdpmc index user space may use, 0 when it must not read. */
static u32 rb_user_index(struct perf_event *event)
{
	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    (event->hw.state & PERF_HES_STOPPED))
		return 0;
	return event->pmu->event_idx ? event->pmu->event_idx(event) : 0;
}

void __weak arch_perf_update_userpage(struct perf_event *event,
				      struct perf_event_mmap_page *userpg,
				      u64 now)
{
}

/**
 * __perf_event_update_userpage() - refresh the counter part of the user page
 * @event: the event; nothing happens if it has no buffer
 *
 * perf_event_update_userpage() calls this when the event has a buffer.
 * Publishes the rdpmc index, the count offset and enabled/running times
 * inside the page's seqcount (pg->lock), so user space can compute the
 * current values itself.  Callable from any context including NMI; the
 * callers make sure it never nests for one event.
 */
void __perf_event_update_userpage(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;
	struct perf_event_mmap_page *pg;
	u64 child_enabled, child_running;
	struct perf_buffer *rb;
	u64 now, count;
	u32 idx;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (!rb)
		goto out;
	pg = rb->user_page;

	now = perf_clock();
	child_enabled = atomic64_read(&event->child_total_time_enabled);
	child_running = atomic64_read(&event->child_total_time_running);

	/* One CPU for the whole update, or the time fields disagree. */
	preempt_disable();
	WRITE_ONCE(pg->lock, pg->lock + 1);
	barrier();

	idx = rb_user_index(event);
	count = perf_event_count(event);
	/* With rdpmc, user space adds the raw counter to this offset. */
	if (idx)
		count -= local64_read(&event->hw.prev_count);
	pg->index = idx;
	pg->offset = count;
	if (ctx) {
		perf_times_fill_userpage(&event->times, perf_event_tclock(event),
					 now, child_enabled, child_running, pg);
	} else {
		pg->time_enabled = child_enabled;
		pg->time_running = child_running;
	}
	arch_perf_update_userpage(event, pg, now);

	barrier();
	WRITE_ONCE(pg->lock, pg->lock + 1);
	preempt_enable();
out:
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(__perf_event_update_userpage);

/* ----------------------------------------------------------------------
 * Writing records.
 */

static void rb_writer_enter(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;

	/* All nested writers of one buffer must be on one CPU's stack. */
	preempt_disable();
	WRITE_ONCE(rb->nest, READ_ONCE(rb->nest) + 1);
	handle->wakeup = local_read(&rb->wake_seq);
}

/*
 * Finish a write.  Nested writers (an NMI interrupting a writer) only
 * step the nesting count down; the outermost one publishes data_head.
 * It must not publish a stale head: if a nested writer moved rb->head
 * after it was sampled (between our load and our clearing of rb->nest,
 * when the nested writer still saw itself as inner), go around again.
 *
 * Pairs with user space: it loads data_head, then (rmb) the data; we
 * store the data, then (wmb) data_head.  The reader's full barrier
 * between reading data and storing data_tail pairs with the control
 * dependency in rb_reserve() from the data_tail load to our stores.
 */
static void rb_writer_leave(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;
	unsigned int depth = READ_ONCE(rb->nest);
	unsigned long published;

	if (depth > 1) {
		WRITE_ONCE(rb->nest, depth - 1);
		goto done;
	}

	for (;;) {
		barrier();
		published = local_read(&rb->head);
		/* The record's bytes before data_head; user space reads head first. */
		smp_wmb();
		WRITE_ONCE(rb->user_page->data_head, published);
		/* Publish before letting nested writers think they are outer. */
		barrier();
		WRITE_ONCE(rb->nest, 0);
		barrier();
		if (likely(published == local_read(&rb->head)))
			break;
		WRITE_ONCE(rb->nest, 1);
	}

	if (handle->wakeup != local_read(&rb->wake_seq))
		perf_rb_queue_wakeup(handle);
done:
	preempt_enable();
}

static void rb_handle_seek(struct perf_output_handle *handle,
			   unsigned long pos)
{
	struct perf_buffer *rb = handle->rb;
	struct perf_rb_spot spot;

	perf_rb_locate(pos, PAGE_SHIFT, rb->nr_pages, &spot);
	handle->page = spot.page;
	handle->addr = rb->data_pages[spot.page] + spot.offset;
	handle->size = spot.left;
}

/* Move the handle to the start of the next page when this one is full. */
static inline void rb_handle_refill(struct perf_output_handle *handle)
{
	struct perf_buffer *rb = handle->rb;

	if (handle->size)
		return;
	handle->page = (handle->page + 1) & (rb->nr_pages - 1);
	handle->addr = rb->data_pages[handle->page];
	handle->size = PAGE_SIZE;
}

/*
 * PERF_RECORD_LOST in front of the record being written.  Out of line so
 * the sample data it needs is only on the stack when records were lost.
 */
static noinline void rb_emit_lost(struct perf_output_handle *handle,
				  struct perf_event *event, u16 rec_size)
{
	struct perf_sample_data sample;
	struct {
		struct perf_event_header	header;
		u64				id;
		u64				lost;
	} rec;

	perf_sample_data_init(&sample, 0, 0);
	rec.header.type = PERF_RECORD_LOST;
	rec.header.misc = 0;
	rec.header.size = sizeof(rec);
	perf_event_header__init_id(&rec.header, &sample, event);
	rec.header.size = rec_size;
	rec.id = event->id;
	rec.lost = local_xchg(&handle->rb->lost, 0);

	perf_output_copy(handle, &rec, sizeof(rec));
	perf_event__output_id_sample(event, handle, &sample);
}

static int rb_reserve(struct perf_output_handle *handle,
		      struct perf_event *event, unsigned int size,
		      bool backward)
{
	struct perf_buffer *rb;
	unsigned long pos, next, tail, mark, written;
	unsigned int lost_size = 0;

	rcu_read_lock();
	/* Children write into the buffer of the event user space opened. */
	event = perf_event_primary(event);
	rb = rcu_dereference(event->rb);
	if (unlikely(!rb))
		goto fail_unlock;

	if (unlikely(READ_ONCE(rb->paused))) {
		/* A buffer with no data pages never counts anything lost. */
		if (rb->nr_pages) {
			local_inc(&rb->lost);
			atomic64_inc(&event->lost_samples);
		}
		goto fail_unlock;
	}

	handle->rb = rb;
	handle->event = event;

	if (unlikely(local_read(&rb->lost))) {
		lost_size = sizeof(struct perf_event_header) + 2 * sizeof(u64);
		if (event->attr.sample_id_all)
			lost_size += event->id_header_size;
		size += lost_size;
	}

	rb_writer_enter(handle);

	if (unlikely(size > rb_data_bytes(rb)))
		goto fail_leave;

	pos = local_read(&rb->head);
	do {
		if (!rb->overwrite) {
			tail = READ_ONCE(rb->user_page->data_tail);
			if (perf_rb_room(pos, tail, rb_data_bytes(rb),
					 backward) < size)
				goto fail_leave;
		}
		next = backward ? pos - size : pos + size;
	} while (!local_try_cmpxchg(&rb->head, &pos, next));

	/*
	 * The record occupies [start, start + size) and is always written
	 * upwards; a backward buffer just hands out lower addresses.
	 */
	written = backward ? -next : next;
	if (backward)
		pos = next;

	mark = local_read(&rb->wakeup_mark);
	if (perf_rb_wakeup_due(written, &mark, rb->watermark)) {
		local_add(rb->watermark, &rb->wakeup_mark);
		local_inc(&rb->wake_seq);
	}

	rb_handle_seek(handle, pos);
	if (unlikely(lost_size))
		rb_emit_lost(handle, event, lost_size);
	return 0;

fail_leave:
	local_inc(&rb->lost);
	atomic64_inc(&event->lost_samples);
	rb_writer_leave(handle);
fail_unlock:
	rcu_read_unlock();
	return -ENOSPC;
}

/**
 * perf_output_begin_forward() - reserve room for a record
 * @handle: filled in for perf_output_copy() and perf_output_end()
 * @data: the sample data of the record (unused here; the LOST record
 *	that may precede it builds its own)
 * @event: the event whose buffer receives the record
 * @size: bytes of the record, header included
 *
 * On success the caller writes exactly @size bytes and then calls
 * perf_output_end().  When records were lost since the last success, a
 * PERF_RECORD_LOST goes in front first.
 *
 * Return: 0, or -ENOSPC when the record was dropped (no buffer, paused,
 * or full), in which case perf_output_end() must not be called.
 */
int perf_output_begin_forward(struct perf_output_handle *handle,
			      struct perf_sample_data *data,
			      struct perf_event *event, unsigned int size)
{
	return rb_reserve(handle, event, size, false);
}

/**
 * perf_output_begin_backward() - like perf_output_begin_forward() for a
 * write_backward event: records are laid out from the end downwards
 * @handle: see perf_output_begin_forward()
 * @data: see perf_output_begin_forward()
 * @event: see perf_output_begin_forward()
 * @size: see perf_output_begin_forward()
 *
 * Return: 0 or -ENOSPC.
 */
int perf_output_begin_backward(struct perf_output_handle *handle,
			       struct perf_sample_data *data,
			       struct perf_event *event, unsigned int size)
{
	return rb_reserve(handle, event, size, true);
}

/**
 * perf_output_begin() - reserve room in the direction @event writes
 * @handle: see perf_output_begin_forward()
 * @data: see perf_output_begin_forward()
 * @event: see perf_output_begin_forward()
 * @size: see perf_output_begin_forward()
 *
 * Return: 0 or -ENOSPC.
 */
int perf_output_begin(struct perf_output_handle *handle,
		      struct perf_sample_data *data,
		      struct perf_event *event, unsigned int size)
{
	return rb_reserve(handle, event, size,
			  unlikely(is_write_backward(event)));
}

/*
 * The walk shared by the copy helpers: hand out page-sized pieces of the
 * reservation to @step, which returns how much of its piece it could not
 * do; stop early when it fails.  Returns the bytes left undone.
 */
typedef unsigned long (*rb_step_fn)(void *dst, const void *src,
				    unsigned long done, unsigned long n,
				    void *arg);

static unsigned long rb_walk(struct perf_output_handle *handle,
			     const void *src, unsigned long len,
			     bool advance_src, rb_step_fn step, void *arg)
{
	unsigned long done = 0;

	while (len) {
		unsigned long piece, missed;

		rb_handle_refill(handle);
		piece = min(len, handle->size);
		missed = step(handle->addr, src, done, piece, arg);
		piece -= missed;

		handle->addr += piece;
		handle->size -= piece;
		len -= piece;
		done += piece;
		if (advance_src)
			src += piece;
		if (missed)
			break;
	}
	return len;
}

static unsigned long rb_step_memcpy(void *dst, const void *src,
				    unsigned long done, unsigned long n,
				    void *arg)
{
	memcpy(dst, src, n);
	return 0;
}

static unsigned long rb_step_nothing(void *dst, const void *src,
				     unsigned long done, unsigned long n,
				     void *arg)
{
	return 0;
}

/**
 * perf_output_copy() - append bytes to the record being written
 * @handle: from a successful perf_output_begin*()
 * @buf: the bytes
 * @len: how many
 *
 * Return: 0 (bytes not copied; a kernel copy cannot fail).
 */
unsigned int perf_output_copy(struct perf_output_handle *handle,
			      const void *buf, unsigned int len)
{
	return rb_walk(handle, buf, len, true, rb_step_memcpy, NULL);
}

/**
 * perf_output_skip() - leave @len bytes of the record as they are
 * @handle: from a successful perf_output_begin*()
 * @len: how many
 *
 * Return: 0.
 */
unsigned int perf_output_skip(struct perf_output_handle *handle,
			      unsigned int len)
{
	return rb_walk(handle, NULL, len, false, rb_step_nothing, NULL);
}

/**
 * perf_output_count_sample() - count a sample towards attr.wakeup_events
 * @handle: the sample's record, begun and written
 *
 * wakeup_events counts the samples perf_output_sample() writes, not
 * side-band records nor what a driver writes into the buffer itself,
 * so the sample writer says when one is done.
 */
void perf_output_count_sample(struct perf_output_handle *handle)
{
	unsigned int every = handle->event->attr.wakeup_events;
	struct perf_buffer *rb = handle->rb;

	if (!every || handle->event->attr.watermark)
		return;
	if (local_inc_return(&rb->samples) >= every) {
		local_sub(every, &rb->samples);
		local_inc(&rb->wake_seq);
	}
}

/**
 * perf_output_end() - finish the record started by perf_output_begin*()
 * @handle: the handle
 *
 * Publishes data_head once no writer on this CPU is still in the middle
 * of a record, and queues a wakeup if one became due.
 */
void perf_output_end(struct perf_output_handle *handle)
{
	rb_writer_leave(handle);
	rcu_read_unlock();
}

/* ----------------------------------------------------------------------
 * Readers: wakeup, poll, pause.
 */

/**
 * perf_event_wakeup() - wake up the readers of @event's records
 * @event: the event (a child's records go to its parent's buffer)
 *
 * Everyone polling an event attached to the same buffer is woken; then
 * the SIGIO that the overflow asked for (event->pending_kill) is sent.
 * Not from NMI: overflow.c calls it from its irq_work.
 */
void perf_event_wakeup(struct perf_event *event)
{
	struct perf_event *owner = perf_event_primary(event);
	struct perf_event *iter;
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(owner->rb);
	if (rb) {
		list_for_each_entry_rcu(iter, &rb->event_list, rb_entry)
			wake_up_all(&iter->waitq);
	} else {
		wake_up_all(&owner->waitq);
	}
	rcu_read_unlock();

	if (event->pending_kill) {
		kill_fasync(perf_event_fasync(event), SIGIO,
			    event->pending_kill);
		event->pending_kill = 0;
	}
}

/**
 * perf_event_poll_buffer() - poll() state of @event's buffer
 * @event: the event of the fd
 *
 * Whether the event can still produce anything is fops.c's question,
 * asked before this.
 *
 * Return: the EPOLLIN bits a wakeup left since the previous call (they
 * are consumed), 0 with no buffer or nothing new.
 */
__poll_t perf_event_poll_buffer(struct perf_event *event)
{
	__poll_t events = 0;

	mutex_lock(&event->mmap_mutex);
	if (event->rb)
		events = atomic_xchg(&event->rb->poll, 0);
	mutex_unlock(&event->mmap_mutex);
	return events;
}

/**
 * perf_event_pause_output() - PERF_EVENT_IOC_PAUSE_OUTPUT
 * @event: the event
 * @pause: true to drop (and count as lost) records from now on
 *
 * A buffer without data pages stays paused either way.  Nothing happens
 * without a buffer (fops.c answers -EINVAL for that itself).
 */
void perf_event_pause_output(struct perf_event *event, bool pause)
{
	struct perf_buffer *rb;

	rcu_read_lock();
	rb = rcu_dereference(event->rb);
	if (rb && rb->nr_pages)
		WRITE_ONCE(rb->paused, pause);
	rcu_read_unlock();
}

/* ----------------------------------------------------------------------
 * Redirection and detaching.
 */

/* Take two events' mmap_mutex in a fixed (address) order. */
static void rb_lock_pair(struct perf_event *a, struct perf_event *b)
{
	if (a > b)
		swap(a, b);
	mutex_lock(&a->mmap_mutex);
	mutex_lock_nested(&b->mmap_mutex, SINGLE_DEPTH_NESTING);
}

/**
 * perf_event_set_output() - send @event's records to @output's buffer
 * @event: the event to redirect
 * @output: the event whose buffer to share, or NULL to detach
 *
 * The two must be able to share a buffer: same CPU (and, for per-task
 * events, same task), same clock, same direction, and not two AUX
 * producers of different PMUs.  @output must have a mapped buffer and
 * @event must not be mapped itself.
 *
 * Return: 0 or -EINVAL.
 */
int perf_event_set_output(struct perf_event *event, struct perf_event *output)
{
	struct perf_buffer *rb = NULL;
	int ret = -EINVAL;

	if (output) {
		if (output == event || output->cpu != event->cpu)
			return -EINVAL;
		if (event->cpu == -1 && output->hw.target != event->hw.target)
			return -EINVAL;
		if (output->clock != event->clock)
			return -EINVAL;
		if (is_write_backward(output) != is_write_backward(event))
			return -EINVAL;
		if (has_aux(event) && has_aux(output) &&
		    event->pmu != output->pmu)
			return -EINVAL;
		/*
		 * Holding @output's mutex keeps it attached (an unmap has to
		 * take it to detach @output), so either the unmap's sweep of
		 * the event list will find @event, or we see mmap_count 0.
		 */
		rb_lock_pair(event, output);
	} else {
		mutex_lock(&event->mmap_mutex);
	}

	if (atomic_read(&event->mmap_count))
		goto unlock;

	if (output) {
		rb = rb_get(output);
		if (!rb)
			goto unlock;
		if (!atomic_read(&rb->mmap_count)) {
			perf_rb_put(rb);
			goto unlock;
		}
	}

	rb_attach(event, rb);
	ret = 0;
unlock:
	mutex_unlock(&event->mmap_mutex);
	if (output)
		mutex_unlock(&output->mmap_mutex);
	return ret;
}

/**
 * perf_event_detach_buffer() - let go of the buffer when @event is freed
 * @event: the event, no longer reachable from user space
 */
void perf_event_detach_buffer(struct perf_event *event)
{
	if (!READ_ONCE(event->rb))
		return;
	mutex_lock(&event->mmap_mutex);
	if (event->rb)
		rb_attach(event, NULL);
	mutex_unlock(&event->mmap_mutex);
}

/* ----------------------------------------------------------------------
 * mmap.
 */

/*
 * The last mapping of @rb is gone: detach every event still writing into
 * it (their records would reach no one) and return the locked-memory
 * charge.  An event whose refcount already hit zero is skipped; its free
 * path detaches it.
 */
static void rb_unmapped(struct perf_buffer *rb)
{
	struct perf_event *iter;

restart:
	rcu_read_lock();
	list_for_each_entry_rcu(iter, &rb->event_list, rb_entry) {
		if (!perf_event_tryget(iter))
			continue;
		rcu_read_unlock();

		mutex_lock(&iter->mmap_mutex);
		/* It may have been redirected meanwhile; then leave it. */
		if (iter->rb == rb)
			rb_attach(iter, NULL);
		mutex_unlock(&iter->mmap_mutex);
		put_event(iter);
		/* The list changed under the cursor: walk it again. */
		goto restart;
	}
	rcu_read_unlock();

	perf_rb_uncharge(&rb->charge);
}

/* One mapping of @event's buffer goes away. */
static void rb_drop_mapping(struct perf_event *event)
{
	struct perf_buffer *rb;
	bool last;

	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (WARN_ON_ONCE(!rb)) {
		mutex_unlock(&event->mmap_mutex);
		return;
	}
	refcount_inc(&rb->refcount);
	last = atomic_dec_and_test(&rb->mmap_count);
	if (atomic_dec_and_test(&event->mmap_count))
		rb_attach(event, NULL);
	mutex_unlock(&event->mmap_mutex);

	if (last)
		rb_unmapped(rb);
	perf_rb_put(rb);
}

static void perf_mmap_open(struct vm_area_struct *vma)
{
	struct perf_event *event = vma->vm_file->private_data;

	mutex_lock(&event->mmap_mutex);
	atomic_inc(&event->mmap_count);
	atomic_inc(&event->rb->mmap_count);
	if (vma->vm_pgoff)
		perf_aux_mapping_opened(event->rb);
	mutex_unlock(&event->mmap_mutex);

	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
}

static void perf_mmap_close(struct vm_area_struct *vma)
{
	struct perf_event *event = vma->vm_file->private_data;

	if (event->pmu->event_unmapped)
		event->pmu->event_unmapped(event, vma->vm_mm);
	if (vma->vm_pgoff) {
		mutex_lock(&event->mmap_mutex);
		perf_aux_mapping_closed(event->rb);
		mutex_unlock(&event->mmap_mutex);
	}
	rb_drop_mapping(event);
}

/* open/close count whole mappings: splitting one would unbalance them. */
static int perf_mmap_split(struct vm_area_struct *vma, unsigned long addr)
{
	return -EINVAL;
}

/*
 * A write to a page mapped without write permission in a writable
 * mapping: only the control page (offset 0) may be written; the data
 * and AUX pages are the kernel's and the hardware's to fill.  Without
 * this the fault would just make the page writable.
 */
static vm_fault_t perf_mmap_pfn_mkwrite(struct vm_fault *vmf)
{
	return vmf->pgoff ? VM_FAULT_SIGBUS : 0;
}

static const struct vm_operations_struct perf_mmap_vmops = {
	.open		= perf_mmap_open,
	.close		= perf_mmap_close,
	.may_split	= perf_mmap_split,
	.pfn_mkwrite	= perf_mmap_pfn_mkwrite,
};

static inline unsigned long rb_pfn(void *kaddr)
{
	return page_to_pfn(virt_to_page(kaddr));
}

/*
 * Enter the buffer's pages in @vma's page tables.  The user page gets
 * the mapping's own protection (user space writes data_tail there), the
 * data pages a read-only one.
 */
static int rb_map_pages(struct vm_area_struct *vma, struct perf_buffer *rb)
{
	pgprot_t ro = vm_get_page_prot(vma->vm_flags & ~VM_WRITE);
	unsigned long addr = vma->vm_start;
	unsigned long i;
	int err;

	err = remap_pfn_range(vma, addr, rb_pfn(rb->user_page),
			      PAGE_SIZE, vma->vm_page_prot);
	for (i = 0; !err && i < rb->nr_pages; i++) {
		addr += PAGE_SIZE;
		err = remap_pfn_range(vma, addr,
				      rb_pfn(rb->data_pages[i]),
				      PAGE_SIZE, ro);
	}
	return err;
}

/**
 * perf_rb_charge() - charge the pages of a new area to the mapping caller
 * @vma: the mapping being made
 * @pages: pages the area locks
 * @charge: filled in; perf_rb_uncharge() returns it
 *
 * The user's perf allowance is used up first, the rest goes to the mm's
 * pinned_vm under RLIMIT_MEMLOCK.  The data area and the AUX area are
 * charged separately, each when it is created.
 *
 * Return: 0, or -EPERM over the limit without CAP_IPC_LOCK.
 */
int perf_rb_charge(struct vm_area_struct *vma, unsigned long pages,
		   struct perf_mmap_charge *charge)
{
	struct perf_mlock_split split = { };
	unsigned long limit, pinned;

	limit = perf_mlock_user_limit(READ_ONCE(sysctl_perf_event_mlock),
				      PAGE_SHIFT, num_online_cpus());
	perf_mlock_charge(pages, atomic_long_read(&current_user()->perf_mlock),
			  limit, &split);

	pinned = atomic64_read(&vma->vm_mm->pinned_vm) + split.to_pinned;
	if (pinned > rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT &&
	    perf_is_paranoid() && !capable(CAP_IPC_LOCK))
		return -EPERM;

	atomic_long_add(split.to_user, &current_user()->perf_mlock);
	atomic64_add(split.to_pinned, &vma->vm_mm->pinned_vm);
	charge->pages = pages;
	charge->pinned = split.to_pinned;
	charge->user = get_current_user();
	charge->mm = vma->vm_mm;
	mmgrab(charge->mm);
	return 0;
}

/**
 * perf_rb_uncharge() - return what perf_rb_charge() took
 * @charge: the charge; emptied
 */
void perf_rb_uncharge(struct perf_mmap_charge *charge)
{
	if (!charge->user)
		return;
	atomic_long_sub(charge->pages - charge->pinned,
			&charge->user->perf_mlock);
	atomic64_sub(charge->pinned, &charge->mm->pinned_vm);
	free_uid(charge->user);
	mmdrop(charge->mm);
	*charge = (struct perf_mmap_charge){ };
}

/*
 * mmap at a non-zero offset maps the AUX area, once the data area is
 * mapped and its control page says where the AUX area goes (aux_offset,
 * aux_size).  The first such mapping creates the area for the event's
 * PMU; later ones share it.  It counts as a mapping of the event and the
 * buffer too, so the buffer stays while the AUX area is mapped.
 */
static int rb_mmap_aux(struct perf_event *event, struct vm_area_struct *vma)
{
	unsigned long size = vma->vm_end - vma->vm_start;
	struct perf_event_mmap_page *pg;
	unsigned long nr_pages;
	struct perf_buffer *rb;
	int ret;

	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	ret = -EINVAL;
	if (!rb)
		goto out;
	pg = rb->user_page;
	ret = perf_mmap_aux_geometry(size, vma->vm_pgoff,
				     READ_ONCE(pg->aux_offset),
				     READ_ONCE(pg->aux_size),
				     rb_data_bytes(rb), PAGE_SHIFT, &nr_pages);
	if (ret)
		goto out;
	ret = -EINVAL;
	if (!atomic_read(&rb->mmap_count))
		goto out;

	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	ret = perf_aux_create(rb, event, vma, nr_pages);
	if (ret)
		goto out;
	atomic_inc(&rb->mmap_count);
	atomic_inc(&event->mmap_count);
	vma->vm_ops = &perf_mmap_vmops;
out:
	mutex_unlock(&event->mmap_mutex);
	if (!ret && event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
	return ret;
}

/**
 * perf_mmap() - map an event's ring buffer
 * @file: the event fd
 * @vma: the new mapping: offset 0 and 1 + 2^n pages (n >= 0, or just
 *	the user page); shared; writable unless the buffer is to overwrite
 *	old records
 *
 * The first mapping creates the buffer; later ones, of the same size,
 * share it.  An event redirected with SET_OUTPUT maps the buffer it
 * writes to.  The pages are charged to the caller (see perf_rb_charge()).
 *
 * Return: 0, -EINVAL for a bad size, offset, private mapping, inherited
 * per-task event or size mismatch, -EPERM over the locked-memory limit,
 * -ENOMEM, or the LSM's answer.
 */
int perf_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct perf_event *event = file->private_data;
	unsigned long size = vma->vm_end - vma->vm_start;
	struct perf_mmap_charge charge;
	struct perf_buffer *rb;
	unsigned long nr_pages;
	unsigned long mark;
	int ret;

	/* All inherited children would write into one per-task buffer. */
	if (event->cpu == -1 && event->attr.inherit)
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	ret = security_perf_event_read(event);
	if (ret)
		return ret;

	if (vma->vm_pgoff)
		return rb_mmap_aux(event, vma);

	ret = perf_mmap_data_geometry(size, PAGE_SHIFT, &nr_pages);
	if (ret)
		return ret;
	if (nr_pages > INT_MAX)
		return -ENOMEM;

	mutex_lock(&event->mmap_mutex);
	rb = event->rb;
	if (rb) {
		ret = -EINVAL;
		if (rb->nr_pages != nr_pages)
			goto unlock;
		if (atomic_inc_not_zero(&rb->mmap_count))
			goto mapped;
		/*
		 * Its last mapping is going away right now; nobody will
		 * read it any more.  Drop it and start a fresh one.
		 */
		rb_attach(event, NULL);
	}

	/* The limit first: nothing is allocated for a request over it. */
	ret = perf_rb_charge(vma, nr_pages + 1, &charge);
	if (ret)
		goto unlock;
	mark = event->attr.watermark ? event->attr.wakeup_watermark : 0;
	rb = rb_create(nr_pages, event->cpu, mark,
		       !(vma->vm_flags & VM_WRITE));
	if (!rb) {
		perf_rb_uncharge(&charge);
		ret = -ENOMEM;
		goto unlock;
	}
	rb->charge = charge;
	atomic_set(&rb->mmap_count, 1);

	rb_attach(event, rb);
	perf_event_update_userpage(event);

mapped:
	atomic_inc(&event->mmap_count);
	mutex_unlock(&event->mmap_mutex);

	/* Accounting is per mm, so a fork must not inherit the mapping. */
	vm_flags_set(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP);
	ret = rb_map_pages(vma, rb);
	if (ret) {
		/* Nothing may still point at pages we might free now. */
		zap_vma_ptes(vma, vma->vm_start, size);
		rb_drop_mapping(event);
		return ret;
	}
	vma->vm_ops = &perf_mmap_vmops;

	if (event->pmu->event_mapped)
		event->pmu->event_mapped(event, vma->vm_mm);
	return 0;

unlock:
	mutex_unlock(&event->mmap_mutex);
	return ret;
}
