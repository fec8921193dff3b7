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

unsigned long perf_rb_room(unsigned long head, unsigned long tail,
			   unsigned long data_size, bool backward);

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

void perf_rb_locate(unsigned long pos, unsigned int chunk_shift,
		    unsigned long nr_chunks, struct perf_rb_spot *spot);
unsigned long perf_rb_watermark(unsigned long data_size,
				unsigned long requested);
bool perf_rb_wakeup_due(unsigned long written, unsigned long *wakeup,
			unsigned long watermark);

unsigned long perf_aux_room(unsigned long head, unsigned long tail,
			    unsigned long size);
unsigned long perf_aux_watermark(unsigned long size, u32 requested,
				 bool overwrite);
bool perf_aux_wakeup_due(unsigned long head, unsigned long *mark,
			 unsigned long watermark);

#endif /* _KERNEL_EVENTS_RB_MATH_H */
