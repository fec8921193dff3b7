// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: sample and read layouts (see layout.h).
 *
 * Pure arithmetic: no locks, no allocation, callable from any context.
 */
#include <kunit/visibility.h>
#include <linux/bitops.h>
#include <linux/bug.h>
#include <linux/export.h>
#include <linux/perf_event.h>

#include "layout.h"

/*
 * Each sample item: the sample_type bits that select it and its size
 * when that size does not vary (0 for the variable-size items).  Indexed
 * by enum perf_sample_item, so the table is also the record order.
 */
static const struct {
	u32	bits;
	u8	size;
} perf_sample_items[PERF_SI_NR] = {
	[PERF_SI_IDENTIFIER]	= { PERF_SAMPLE_IDENTIFIER,	8 },
	[PERF_SI_IP]		= { PERF_SAMPLE_IP,		8 },
	[PERF_SI_TID]		= { PERF_SAMPLE_TID,		8 }, /* pid, tid */
	[PERF_SI_TIME]		= { PERF_SAMPLE_TIME,		8 },
	[PERF_SI_ADDR]		= { PERF_SAMPLE_ADDR,		8 },
	[PERF_SI_ID]		= { PERF_SAMPLE_ID,		8 },
	[PERF_SI_STREAM_ID]		= { PERF_SAMPLE_STREAM_ID,	8 },
	[PERF_SI_CPU]		= { PERF_SAMPLE_CPU,		8 }, /* cpu, pad */
	[PERF_SI_PERIOD]		= { PERF_SAMPLE_PERIOD,		8 },
	[PERF_SI_READ]		= { PERF_SAMPLE_READ,		0 },
	[PERF_SI_CALLCHAIN]		= { PERF_SAMPLE_CALLCHAIN,	0 },
	[PERF_SI_RAW]		= { PERF_SAMPLE_RAW,		0 },
	[PERF_SI_BRANCH_STACK]	= { PERF_SAMPLE_BRANCH_STACK,	0 },
	[PERF_SI_REGS_USER]		= { PERF_SAMPLE_REGS_USER,	0 },
	[PERF_SI_STACK_USER]	= { PERF_SAMPLE_STACK_USER,	0 },
	[PERF_SI_WEIGHT]		= { PERF_SAMPLE_WEIGHT_TYPE,	8 },
	[PERF_SI_DATA_SRC]		= { PERF_SAMPLE_DATA_SRC,	8 },
	[PERF_SI_TRANSACTION]	= { PERF_SAMPLE_TRANSACTION,	8 },
	[PERF_SI_REGS_INTR]		= { PERF_SAMPLE_REGS_INTR,	0 },
	[PERF_SI_PHYS_ADDR]		= { PERF_SAMPLE_PHYS_ADDR,	8 },
	[PERF_SI_CGROUP]		= { PERF_SAMPLE_CGROUP,		8 },
	[PERF_SI_DATA_PAGE_SIZE]	= { PERF_SAMPLE_DATA_PAGE_SIZE,	8 },
	[PERF_SI_CODE_PAGE_SIZE]	= { PERF_SAMPLE_CODE_PAGE_SIZE,	8 },
	[PERF_SI_AUX]		= { PERF_SAMPLE_AUX,		0 },
};

/*
 * The sample_id trailer: the identifying items of a sample, in their
 * sample order except that IDENTIFIER goes last, so that a reader walking
 * back from the end of any record finds it in the same place.
 */
static const u8 perf_id_items[PERF_ID_ITEMS_MAX] = {
	PERF_SI_TID, PERF_SI_TIME, PERF_SI_ID, PERF_SI_STREAM_ID, PERF_SI_CPU,
	PERF_SI_IDENTIFIER,
};

/**
 * perf_sample_layout_init - work out an event's record layout
 * @layout: filled in
 * @sample_type: the attr's sample_type, already validated
 * @sample_id_all: the attr's sample_id_all
 */
void perf_sample_layout_init(struct perf_sample_layout *layout,
			     u64 sample_type, bool sample_id_all)
{
	unsigned int i, item;

	BUILD_BUG_ON(BITS_PER_TYPE(layout->variable) < PERF_SI_NR);
	layout->nr_items = 0;
	layout->variable = 0;
	layout->fixed_size = sizeof(struct perf_event_header);
	layout->nr_id_items = 0;
	layout->id_size = 0;
	/* Counting events: the common case, at open and at every fork. */
	if (!sample_type)
		return;
	for (i = 0; i < PERF_SI_NR; i++) {
		if (!(sample_type & perf_sample_items[i].bits))
			continue;
		layout->items[layout->nr_items++] = i;
		layout->fixed_size += perf_sample_items[i].size;
		if (!perf_sample_items[i].size)
			layout->variable |= BIT(i);
	}

	if (!sample_id_all)
		return;
	for (i = 0; i < PERF_ID_ITEMS_MAX; i++) {
		item = perf_id_items[i];
		if (!(sample_type & perf_sample_items[item].bits))
			continue;
		layout->id_items[layout->nr_id_items++] = item;
		layout->id_size += perf_sample_items[item].size;
	}
}
EXPORT_SYMBOL_IF_KUNIT(perf_sample_layout_init);

/**
 * perf_read_size - bytes that read() or PERF_SAMPLE_READ produces
 * @read_format: the attr's read_format
 * @nr_members: events in the group, leader included (ignored without
 *	PERF_FORMAT_GROUP)
 *
 * Return: the size in bytes.
 */
u32 perf_read_size(u64 read_format, unsigned int nr_members)
{
	u32 times = 0, member = sizeof(u64);

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		times += sizeof(u64);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		times += sizeof(u64);
	if (read_format & PERF_FORMAT_ID)
		member += sizeof(u64);
	if (read_format & PERF_FORMAT_LOST)
		member += sizeof(u64);

	if (!(read_format & PERF_FORMAT_GROUP))
		return times + member;
	/* nr, the times once, then every member's values. */
	return sizeof(u64) + times + nr_members * member;
}
EXPORT_SYMBOL_IF_KUNIT(perf_read_size);

/**
 * perf_read_fill_head - the words a read starts with
 * @buf: room for three words
 * @read_format: the attr's read_format
 * @first: a group's number of members with PERF_FORMAT_GROUP, else the
 *	event's value
 * @enabled: time_enabled, for PERF_FORMAT_TOTAL_TIME_ENABLED
 * @running: time_running, for PERF_FORMAT_TOTAL_TIME_RUNNING
 *
 * For writers that cannot lay out the whole read in one buffer (a sample
 * goes out piece by piece); perf_read_fill() is built from the same two
 * pieces.
 *
 * Return: the words written.
 */
unsigned int perf_read_fill_head(u64 *buf, u64 read_format, u64 first,
				 u64 enabled, u64 running)
{
	unsigned int n = 0;

	buf[n++] = first;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		buf[n++] = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		buf[n++] = running;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(perf_read_fill_head);

/**
 * perf_read_fill_member - the words of one member, after the head
 * @buf: room for three words
 * @read_format: the attr's read_format
 * @member: the member's values
 *
 * In a group read every member has its value here; a single event's
 * value is the head's first word instead.
 *
 * Return: the words written.
 */
unsigned int perf_read_fill_member(u64 *buf, u64 read_format,
				   const struct perf_read_member *member)
{
	unsigned int n = 0;

	if (read_format & PERF_FORMAT_GROUP)
		buf[n++] = member->value;
	if (read_format & PERF_FORMAT_ID)
		buf[n++] = member->id;
	if (read_format & PERF_FORMAT_LOST)
		buf[n++] = member->lost;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(perf_read_fill_member);

/**
 * perf_read_fill - lay out a read
 * @buf: where to write, perf_read_size() bytes
 * @read_format: the attr's read_format
 * @enabled: time_enabled, for PERF_FORMAT_TOTAL_TIME_ENABLED
 * @running: time_running, for PERF_FORMAT_TOTAL_TIME_RUNNING
 * @members: the values, leader first; one unless PERF_FORMAT_GROUP
 * @nr_members: entries in @members
 *
 * Return: the bytes written.
 */
size_t perf_read_fill(u64 *buf, u64 read_format, u64 enabled, u64 running,
		      const struct perf_read_member *members,
		      unsigned int nr_members)
{
	bool group = read_format & PERF_FORMAT_GROUP;
	u64 *pos = buf;
	unsigned int i;

	if (WARN_ON_ONCE(!group && nr_members != 1))
		nr_members = 1;

	pos += perf_read_fill_head(pos, read_format,
				   group ? nr_members : members[0].value,
				   enabled, running);
	for (i = 0; i < nr_members; i++)
		pos += perf_read_fill_member(pos, read_format, &members[i]);
	return (pos - buf) * sizeof(u64);
}
EXPORT_SYMBOL_IF_KUNIT(perf_read_fill);
