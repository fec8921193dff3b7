/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: a ring buffer's insides, shared by the two files that own
 * them: ring_buffer.c (the data area, mmap, record output) and aux.c
 * (the AUX area).  Nothing else includes this; the rest of the core
 * sees struct perf_buffer through internal.h's functions only.
 */
#ifndef _KERNEL_EVENTS_BUFFER_H
#define _KERNEL_EVENTS_BUFFER_H

#include <linux/irq_work.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/poll.h>
#include <linux/refcount.h>

#include "rb_math.h"

struct perf_aux_area;

/**
 * struct perf_mmap_charge - the locked-memory charge of one mapped area
 * @user: who is charged the pages within the perf allowance
 * @mm: the address space charged the pinned rest
 * @pages: all pages charged
 * @pinned: of those, the ones charged to @mm's pinned_vm
 *
 * Taken by perf_rb_charge() when an area is created, returned whole by
 * perf_rb_uncharge() when its last mapping goes.
 */
struct perf_mmap_charge {
	struct user_struct	*user;
	struct mm_struct	*mm;
	unsigned long		pages;
	unsigned long		pinned;
};

/**
 * struct perf_buffer - one ring buffer
 * @refcount: one per attached event, plus short-lived users
 * @rcu: deferred free
 * @nr_pages: data pages (0 or a power of two)
 * @overwrite: the mapping is read-only, so the reader never frees space
 * @paused: drop records (PAUSE_OUTPUT, or no data pages at all)
 * @poll: EPOLL* bits for the next poll(), set by wakeups
 * @head: the writers' position (may run ahead of what is published)
 * @nest: writers in progress on the CPU that writes
 * @wake_seq: bumped whenever readers are due a wakeup
 * @wakeup_mark: position at which the last watermark wakeup was due
 * @samples: PERF_RECORD_SAMPLEs since the last wakeup_events wakeup
 * @lost: records dropped since the last PERF_RECORD_LOST
 * @watermark: bytes between watermark wakeups
 * @event_lock: protects @event_list against concurrent changes
 * @event_list: the events writing here (event->rb_entry), RCU-walked
 * @mmap_count: VMAs that map the buffer, its AUX area's included
 * @charge: the data area's locked-memory charge
 * @aux_mutex: serialises creating and retiring the AUX area, which
 *	events sharing the buffer may map through their own fds; nests
 *	inside the mapping event's mmap_mutex
 * @aux: the AUX area while it is mapped (aux.c), RCU-published
 * @aux_writer: the area a PMU writes through its open handle, NULL
 *	when none is open: a buffer has one AUX writer at a time
 * @user_page: the control page
 * @data_pages: the data pages' kernel addresses
 */
struct perf_buffer {
	refcount_t			refcount;
	struct rcu_head			rcu;
	unsigned long			nr_pages;
	bool				overwrite;
	int				paused;
	atomic_t			poll;

	local_t				head;
	unsigned int			nest;
	local_t				wake_seq;
	local_t				wakeup_mark;
	local_t				samples;
	local_t				lost;
	unsigned long			watermark;

	struct list_head		event_list;
	spinlock_t			event_lock;	/* @event_list */

	atomic_t			mmap_count;
	struct perf_mmap_charge		charge;

	struct mutex			aux_mutex;	/* @aux's creation */
	struct perf_aux_area __rcu	*aux;
	struct perf_aux_area		*aux_writer;

	struct perf_event_mmap_page	*user_page;
	void				*data_pages[];
};

static inline unsigned long rb_data_bytes(struct perf_buffer *rb)
{
	return rb->nr_pages << PAGE_SHIFT;
}

/*
 * Readers are due a wakeup: what poll() and SIGIO will report.  The
 * wakeup itself is perf_event_wakeup()'s.
 */
static inline void perf_rb_note_wakeup(struct perf_output_handle *handle)
{
	struct perf_event *event = handle->event;

	atomic_set(&handle->rb->poll, EPOLLIN | EPOLLRDNORM);
	if (!event->pending_kill && *perf_event_fasync(event))
		event->pending_kill = POLL_IN;
}

/*
 * Readers are due a wakeup: tell overflow.c's irq_work to do it.  Inline:
 * the data area's writers and the AUX area's commit both come here at
 * each watermark, from NMI or a PMU's interrupt.
 */
static inline void perf_rb_queue_wakeup(struct perf_output_handle *handle)
{
	perf_rb_note_wakeup(handle);
	handle->event->pending_wakeup = 1;
	irq_work_queue(&handle->event->pending_irq);
}

/* ring_buffer.c */
void perf_rb_put(struct perf_buffer *rb);
int perf_rb_charge(struct vm_area_struct *vma, unsigned long pages,
		   struct perf_mmap_charge *charge);
void perf_rb_uncharge(struct perf_mmap_charge *charge);

/* aux.c */
int perf_aux_create(struct perf_buffer *rb, struct perf_event *event,
		    struct vm_area_struct *vma, unsigned long nr_pages);
void perf_aux_mapping_opened(struct perf_buffer *rb);
void perf_aux_mapping_closed(struct perf_buffer *rb);

#endif /* _KERNEL_EVENTS_BUFFER_H */
