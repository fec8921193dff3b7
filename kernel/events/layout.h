/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: the shapes of what an event writes, worked out once.
 *
 * A sample's items, their order and every size that does not depend on
 * the moment follow from the attr alone, so they are computed when the
 * event is opened and the overflow path only walks a short list.  The
 * same goes for read(): its layout follows from read_format and the
 * group's size.  Everything here is arithmetic on the ABI (see the
 * record descriptions in include/uapi/linux/perf_event.h).
 */
#ifndef _KERNEL_EVENTS_LAYOUT_H
#define _KERNEL_EVENTS_LAYOUT_H

#include <linux/perf/core_types.h>
#include <linux/types.h>

/* enum perf_sample_item, struct perf_sample_layout: <linux/perf/core_types.h> */

void perf_sample_layout_init(struct perf_sample_layout *layout,
			     u64 sample_type, bool sample_id_all);

/**
 * struct perf_read_member - one event's values in a read
 * @value: its count, children's included
 * @id: its PERF_EVENT_IOC_ID
 * @lost: records it lost (PERF_FORMAT_LOST)
 */
struct perf_read_member {
	u64	value;
	u64	id;
	u64	lost;
};

/* A read of a group may not exceed what one record can carry. */
#define PERF_READ_SIZE_MAX	(16 * 1024)

u32 perf_read_size(u64 read_format, unsigned int nr_members);
unsigned int perf_read_fill_head(u64 *buf, u64 read_format, u64 first,
				 u64 enabled, u64 running);
unsigned int perf_read_fill_member(u64 *buf, u64 read_format,
				   const struct perf_read_member *member);
size_t perf_read_fill(u64 *buf, u64 read_format, u64 enabled, u64 running,
		      const struct perf_read_member *members,
		      unsigned int nr_members);

#endif /* _KERNEL_EVENTS_LAYOUT_H */
