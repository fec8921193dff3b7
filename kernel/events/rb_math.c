// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: ring-buffer arithmetic (see rb_math.h).
 *
 * Pure functions of their arguments: no locks, no allocation, safe in
 * NMI.  Page sizes come in as shifts so that KUnit can try others.
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/log2.h>
#include <linux/minmax.h>

#include "rb_math.h"

/**
 * perf_mmap_data_geometry - check an mmap() of an event's buffer
 * @vma_size: bytes mapped, from offset 0
 * @page_shift: log2 of the page size
 * @nr_pages: set to the number of data pages
 *
 * The mapping is the control page plus 0 or a power of two data pages
 * (a power of two so that positions reduce with a mask).  No data pages
 * is allowed: the control page alone still gives the counter's value
 * and times.
 *
 * Return: 0, or -EINVAL for any other size.
 */
int perf_mmap_data_geometry(unsigned long vma_size, unsigned int page_shift,
			    unsigned long *nr_pages)
{
	unsigned long pages = vma_size >> page_shift;

	if (!pages || pages << page_shift != vma_size)
		return -EINVAL;
	pages--;	/* the control page */
	if (pages && !is_power_of_2(pages))
		return -EINVAL;
	*nr_pages = pages;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_mmap_data_geometry);

/**
 * perf_mmap_aux_geometry - check an mmap() of an event's AUX area
 * @vma_size: bytes mapped
 * @pgoff: the mapping's offset, in pages
 * @aux_offset: what user space wrote to the control page's aux_offset
 * @aux_size: what user space wrote to the control page's aux_size
 * @data_size: bytes of the data pages already mapped
 * @page_shift: log2 of the page size
 * @nr_pages: set to the number of AUX pages
 *
 * User space announces the area in the control page first; the mapping
 * must then match it exactly, lie beyond the control and data pages,
 * and be a power of two pages.
 *
 * Return: 0, -ENOMEM for a size no page count can hold, -EINVAL for
 * anything else that does not match.
 */
int perf_mmap_aux_geometry(unsigned long vma_size, unsigned long pgoff,
			   u64 aux_offset, u64 aux_size, u64 data_size,
			   unsigned int page_shift, unsigned long *nr_pages)
{
	unsigned long pages = vma_size >> page_shift;

	if (pages > INT_MAX)
		return -ENOMEM;
	if (aux_offset < data_size + (1ULL << page_shift) ||
	    aux_offset != (u64)pgoff << page_shift ||
	    aux_size != vma_size || (u64)pages << page_shift != aux_size ||
	    !is_power_of_2(pages))
		return -EINVAL;
	*nr_pages = pages;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_mmap_aux_geometry);

/**
 * perf_mlock_user_limit - pages a user may lock for perf without
 *	RLIMIT_MEMLOCK
 * @mlock_kb: kernel.perf_event_mlock_kb
 * @page_shift: log2 of the page size
 * @online_cpus: CPUs online (the allowance grows with them, since tools
 *	map one buffer per CPU)
 *
 * Return: the limit in pages.
 */
unsigned long perf_mlock_user_limit(unsigned int mlock_kb,
				    unsigned int page_shift,
				    unsigned int online_cpus)
{
	return (unsigned long)(mlock_kb >> (page_shift - 10)) * online_cpus;
}
EXPORT_SYMBOL_IF_KUNIT(perf_mlock_user_limit);

/**
 * perf_mlock_charge - split a new mapping's pages between the allowances
 * @pages: pages the mapping locks
 * @user_locked: pages the user already has charged to its perf allowance
 * @user_limit: perf_mlock_user_limit()
 * @split: the result
 *
 * The perf allowance is used up first; what does not fit is pinned
 * memory.  A user already above the limit (the sysctl was lowered) is
 * treated as exactly at it.
 */
void perf_mlock_charge(unsigned long pages, unsigned long user_locked,
		       unsigned long user_limit, struct perf_mlock_split *split)
{
	unsigned long room = user_limit - min(user_locked, user_limit);

	split->to_user = min(pages, room);
	split->to_pinned = pages - split->to_user;
}
EXPORT_SYMBOL_IF_KUNIT(perf_mlock_charge);

/**
 * perf_rb_watermark - how much must be written between reader wakeups
 * @data_size: bytes of data
 * @requested: attr.wakeup_watermark when attr.watermark is set, else 0
 *
 * Return: @requested, at most the whole buffer; half the buffer when
 * nothing (or 0) was requested.
 */
unsigned long perf_rb_watermark(unsigned long data_size,
				unsigned long requested)
{
	unsigned long mark = min(requested, data_size);

	return mark ?: data_size / 2;
}
EXPORT_SYMBOL_IF_KUNIT(perf_rb_watermark);

/**
 * perf_aux_watermark - bytes of AUX data between reader wakeups
 * @size: the area's bytes
 * @requested: attr.aux_watermark, 0 for the default
 * @overwrite: the area overwrites (no wakeups at all)
 *
 * Return: 0 in overwrite mode, else @requested or half the area.
 */
unsigned long perf_aux_watermark(unsigned long size, u32 requested,
				 bool overwrite)
{
	if (overwrite)
		return 0;
	return requested ?: min_t(unsigned long, U32_MAX, size / 2);
}
EXPORT_SYMBOL_IF_KUNIT(perf_aux_watermark);

