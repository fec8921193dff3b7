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

#include <linux/types.h>

/**
 * enum perf_sample_item - the items of PERF_RECORD_SAMPLE, in record order
 *
 * Record order is not sample_type bit order: IDENTIFIER comes first, so
 * that a reader can find the event before knowing the layout.  WEIGHT
 * stands for either weight flavour.
 */
enum perf_sample_item {
	PSI_IDENTIFIER,
	PSI_IP,
	PSI_TID,
	PSI_TIME,
	PSI_ADDR,
	PSI_ID,
	PSI_STREAM_ID,
	PSI_CPU,
	PSI_PERIOD,
	PSI_READ,
	PSI_CALLCHAIN,
	PSI_RAW,
	PSI_BRANCH_STACK,
	PSI_REGS_USER,
	PSI_STACK_USER,
	PSI_WEIGHT,
	PSI_DATA_SRC,
	PSI_TRANSACTION,
	PSI_REGS_INTR,
	PSI_PHYS_ADDR,
	PSI_CGROUP,
	PSI_DATA_PAGE_SIZE,
	PSI_CODE_PAGE_SIZE,
	PSI_AUX,
	PSI_NR
};

/* The sample_id trailer holds at most these six items. */
#define PERF_ID_ITEMS_MAX	6

/**
 * struct perf_sample_layout - what one event's records look like
 * @items: the sample items its sample_type selects, in record order
 * @nr_items: how many of @items are used
 * @id_items: the items of the sample_id trailer, in trailer order
 * @nr_id_items: how many of @id_items are used (0 without sample_id_all)
 * @fixed_size: bytes of a sample without its variable-size items:
 *	header plus every fixed-size item; PERF_SAMPLE_READ is left out
 *	because a group's read grows with the group (see perf_read_size())
 * @id_size: bytes of the sample_id trailer that other records carry
 */
struct perf_sample_layout {
	u8	items[PSI_NR];
	u8	nr_items;
	u8	id_items[PERF_ID_ITEMS_MAX];
	u8	nr_id_items;
	u16	fixed_size;
	u16	id_size;
};

void perf_sample_layout_init(struct perf_sample_layout *layout,
			     u64 sample_type, bool sample_id_all);
u32 perf_sample_fixed_size(u64 sample_type);
u32 perf_sample_id_size(u64 sample_type, bool sample_id_all);

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
size_t perf_read_fill(u64 *buf, u64 read_format, u64 enabled, u64 running,
		      const struct perf_read_member *members,
		      unsigned int nr_members);

#endif /* _KERNEL_EVENTS_LAYOUT_H */
