/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: plain value types of the perf events core.
 *
 * They are embedded in the core's objects (<linux/perf_event.h>) and
 * manipulated only by the pure arithmetic of kernel/events/flex_queue.c,
 * times.c and layout.c, whose KUnit suites build them on their own;
 * hence a header of their own, with nothing but the types.
 */
#ifndef _LINUX_PERF_CORE_TYPES_H
#define _LINUX_PERF_CORE_TYPES_H

#include <linux/rbtree.h>
#include <linux/types.h>

/**
 * struct perf_flex_node - one flexible group's place in a queue
 * @rb: link in &perf_flex_queue.root (a fair queue)
 * @entry: link in &perf_flex_queue.fifo (a queue whose groups all fit)
 * @vruntime: time the group has been scheduled, in the unit the caller
 *	charges (normally nanoseconds), offset by the value it entered at
 * @seq: tie-breaker among equal @vruntime: lower means queued earlier
 *
 * Embedded in the group leader.  Initialise with perf_flex_node_init()
 * before the first perf_flex_add().
 */
struct perf_flex_node {
	union {
		struct rb_node		rb;
		struct list_head	entry;
	};
	u64		vruntime;
	u64		seq;
};

/**
 * struct perf_flex_queue - flexible groups waiting for a PMU
 * @root: a fair queue: the tree, ordered by (vruntime, seq), with its
 *	leftmost (least run) node cached
 * @fifo: a queue whose groups all fit: the groups in the order they came
 * @min_vruntime: the floor that new and re-enabled nodes enter at; it
 *	never goes backwards
 * @next_seq: source of &perf_flex_node.seq values
 * @nr: number of queued nodes
 * @all_fit: which of the two the queue is (flex_queue.c)
 */
struct perf_flex_queue {
	union {
		struct rb_root_cached	root;
		struct list_head	fifo;
	};
	u64			min_vruntime;
	u64			next_seq;
	unsigned int		nr;
	bool			all_fit;
};

/**
 * struct perf_tclock - a clock that advances only while started
 * @time:	accumulated time, valid as of @stamp
 * @stamp:	raw clock value (perf_clock()) of the last update
 * @offset:	@time - @stamp, so that a running clock reads raw_now + @offset
 *		without having to see @time and @stamp consistently
 * @running:	true while the clock advances
 *
 * Writers serialise on the lock of the owning context.  Readers that cannot
 * take it use perf_tclock_read_lockless().
 */
struct perf_tclock {
	u64	time;
	u64	stamp;
	u64	offset;
	bool	running;
};

/**
 * enum perf_times_mode - which totals of an event grow with its clock
 * @PERF_TIMES_OFF:	neither (event off, errored, exited, or its leader is)
 * @PERF_TIMES_ENABLED:	time_enabled only (event enabled but not on the PMU)
 * @PERF_TIMES_RUNNING:	time_enabled and time_running (event on the PMU)
 *
 * Bit 0 means "enabled grows", bit 1 "running grows"; running never grows
 * without enabled, so 2 is not a valid mode.
 */
enum perf_times_mode {
	PERF_TIMES_OFF		= 0,
	PERF_TIMES_ENABLED	= 1,
	PERF_TIMES_RUNNING	= 3,
};

/**
 * struct perf_times - enabled/running totals of one event
 * @enabled:	time_enabled, valid as of @stamp
 * @running:	time_running, valid as of @stamp
 * @stamp:	context-clock time of the last fold
 * @mode:	what grows from @stamp on
 *
 * All times are on the clock of the event's context (for a cgroup event,
 * its cgroup's clock).  Mutators run under the context lock.
 */
struct perf_times {
	u64			enabled;
	u64			running;
	u64			stamp;
	enum perf_times_mode	mode;
};

/*
 * The items of PERF_RECORD_SAMPLE, in record order, one per sample_type
 * bit (PERF_SI_NR counts them); named as the bits are.
 *
 * Record order is not sample_type bit order: IDENTIFIER comes first, so
 * that a reader can find the event before knowing the layout.  WEIGHT
 * stands for either weight flavour.
 */
enum perf_sample_item {
	PERF_SI_IDENTIFIER,
	PERF_SI_IP,
	PERF_SI_TID,
	PERF_SI_TIME,
	PERF_SI_ADDR,
	PERF_SI_ID,
	PERF_SI_STREAM_ID,
	PERF_SI_CPU,
	PERF_SI_PERIOD,
	PERF_SI_READ,
	PERF_SI_CALLCHAIN,
	PERF_SI_RAW,
	PERF_SI_BRANCH_STACK,
	PERF_SI_REGS_USER,
	PERF_SI_STACK_USER,
	PERF_SI_WEIGHT,
	PERF_SI_DATA_SRC,
	PERF_SI_TRANSACTION,
	PERF_SI_REGS_INTR,
	PERF_SI_PHYS_ADDR,
	PERF_SI_CGROUP,
	PERF_SI_DATA_PAGE_SIZE,
	PERF_SI_CODE_PAGE_SIZE,
	PERF_SI_AUX,
	PERF_SI_NR
};

/* The sample_id trailer holds at most these six items. */
#define PERF_ID_ITEMS_MAX	6

/**
 * struct perf_sample_layout - what one event's records look like
 * @items: the sample items its sample_type selects, in record order
 * @nr_items: how many of @items are used
 * @id_items: the items of the sample_id trailer, in trailer order
 * @nr_id_items: how many of @id_items are used (0 without sample_id_all)
 * @variable: BIT(item) for each item kind whose size varies from sample
 *	to sample (the rest are one u64 each)
 * @fixed_size: bytes of a sample without its variable-size items:
 *	header plus every fixed-size item; PERF_SAMPLE_READ is left out
 *	because a group's read grows with the group (see perf_read_size())
 * @id_size: bytes of the sample_id trailer that other records carry
 */
struct perf_sample_layout {
	u8	items[PERF_SI_NR];
	u8	nr_items;
	u8	id_items[PERF_ID_ITEMS_MAX];
	u8	nr_id_items;
	u32	variable;
	u16	fixed_size;
	u16	id_size;
};

#endif /* _LINUX_PERF_CORE_TYPES_H */
