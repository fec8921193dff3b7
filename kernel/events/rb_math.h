/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: the arithmetic of the mmap ring buffer.
 *
 * A buffer is one control page (struct perf_event_mmap_page) followed by
 * a power-of-two number of data pages, optionally followed further on by
 * an AUX area.  The kernel writes records at data_head, user space reads
 * up to it and publishes data_tail; positions only grow (or, for a
 * backward buffer, only shrink) and are reduced modulo the data size.
 *
 * Here: which mmap() requests describe a valid buffer, how the pages it
 * locks are charged, how much a writer may write, where a position falls,
 * and when readers are due a wakeup.  Nothing here touches a buffer, so
 * the ring buffer code keeps only the concurrency.
 *
 * What a writer asks for every record (room, place, wakeup) is inline
 * here: a call each cost more than the arithmetic on the sample and AUX
 * paths.  The rest, for mmap() and setup, is in rb_math.c.  KUnit tests
 * both through this header.
 */
#ifndef _KERNEL_EVENTS_RB_MATH_H
#define _KERNEL_EVENTS_RB_MATH_H

#include <linux/types.h>

int perf_mmap_data_geometry(unsigned long vma_size, unsigned int page_shift,
			    unsigned long *nr_pages);
int perf_mmap_aux_geometry(unsigned long vma_size, unsigned long pgoff,
			   u64 aux_offset, u64 aux_size, u64 data_size,
			   unsigned int page_shift, unsigned long *nr_pages);

/**
 * struct perf_mlock_split - who pays for the pages a mapping locks
 * @to_user: pages charged to the user's perf allowance
 *	(kernel.perf_event_mlock_kb, per online CPU)
 * @to_pinned: pages beyond it, charged to the mm's pinned_vm and so
 *	subject to RLIMIT_MEMLOCK
 */
struct perf_mlock_split {
	unsigned long	to_user;
	unsigned long	to_pinned;
};

unsigned long perf_mlock_user_limit(unsigned int mlock_kb,
				    unsigned int page_shift,
				    unsigned int online_cpus);
void perf_mlock_charge(unsigned long pages, unsigned long user_locked,
		       unsigned long user_limit, struct perf_mlock_split *split);

/**
 * perf_rb_room - bytes a writer may add without overtaking the reader
 * @head: the writer's position
 * @tail: the reader's (data_tail, as user space published it)
 * @data_size: bytes of data, a power of two
 * @backward: the buffer is written towards lower positions
 *
 * One byte always stays free, so that a full buffer is never mistaken
 * for an empty one (head == tail).  The difference is taken modulo the
 * size, so a nonsensical tail from user space yields some room, never a
 * write past the reader's data by more than the buffer.
 *
 * Return: the room, 0 to @data_size - 1.
 */
static inline unsigned long perf_rb_room(unsigned long head,
					 unsigned long tail,
					 unsigned long data_size,
					 bool backward)
{
	unsigned long used = backward ? tail - head : head - tail;

	return (data_size - 1 - used) & (data_size - 1);
}

/**
 * struct perf_rb_spot - where a buffer position lands
 * @page: index of the data chunk (page, or higher-order block)
 * @offset: byte offset inside it
 * @left: bytes from @offset to the end of the chunk
 */
struct perf_rb_spot {
	unsigned long	page;
	unsigned long	offset;
	unsigned long	left;
};

/**
 * perf_rb_locate - where a position falls in the data
 * @pos: a position (any value; reduced modulo the data size)
 * @chunk_shift: log2 of the bytes in one chunk of data (a page, or a
 *	higher-order allocation)
 * @nr_chunks: chunks of data, a power of two
 * @spot: the result
 */
static inline void perf_rb_locate(unsigned long pos,
				  unsigned int chunk_shift,
				  unsigned long nr_chunks,
				  struct perf_rb_spot *spot)
{
	unsigned long chunk = 1UL << chunk_shift;

	spot->page = (pos >> chunk_shift) & (nr_chunks - 1);
	spot->offset = pos & (chunk - 1);
	spot->left = chunk - spot->offset;
}

unsigned long perf_rb_watermark(unsigned long data_size,
				unsigned long requested);

/**
 * perf_rb_wakeup_due - whether a write crossed the next watermark
 * @written: bytes written so far (the head, counted forwards)
 * @wakeup: where the last wakeup was due; advanced by one watermark
 *	when this one is
 * @watermark: perf_rb_watermark()
 *
 * Readers are woken once per watermark's worth of data, not once per
 * record; a write that crosses several marks at once wakes once.
 *
 * Return: true if readers should be woken.
 */
static inline bool perf_rb_wakeup_due(unsigned long written,
				      unsigned long *wakeup,
				      unsigned long watermark)
{
	if (written - *wakeup <= watermark)
		return false;
	*wakeup += watermark;
	return true;
}

/**
 * perf_aux_room - bytes a PMU may write into a non-overwriting AUX area
 * @head: bytes committed so far (free-running)
 * @tail: aux_tail, what the reader has consumed (free-running)
 * @size: the area's bytes, a power of two
 *
 * One byte always stays free, as in upstream's AUX area: PMUs size their
 * writes from this number, so it is the same here.
 *
 * Return: the room, 0 when the area is full (or the reader's tail is
 * past the head, which only a confused reader makes).
 */
static inline unsigned long perf_aux_room(unsigned long head,
					  unsigned long tail,
					  unsigned long size)
{
	unsigned long used = head - tail;

	return used < size ? size - 1 - used : 0;
}

unsigned long perf_aux_watermark(unsigned long size, u32 requested,
				 bool overwrite);

/**
 * perf_aux_wakeup_due - whether committed AUX data reached a watermark
 * @head: bytes committed so far
 * @mark: the last watermark multiple a wakeup was due at; moved to the
 *	multiple at or below @head when this one is
 * @watermark: perf_aux_watermark(), 0 for never
 *
 * Return: true if readers should be woken.
 */
static inline bool perf_aux_wakeup_due(unsigned long head,
				       unsigned long *mark,
				       unsigned long watermark)
{
	if (!watermark || head - *mark < watermark)
		return false;
	*mark = head - head % watermark;
	return true;
}

#endif /* _KERNEL_EVENTS_RB_MATH_H */
