// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the AUX area (aux.c) through the real open, mmap, scheduling
 * and output paths, on a fake trace PMU.
 *
 * The fake writes a known byte pattern at the handle's head while it
 * runs: it opens a handle when started and commits what it wrote when
 * stopped, as BTS and SPE drivers do.  Enabling and disabling the event,
 * CPU 0's, is one such run.  The buffers are mapped into
 * the thread's mm (kunit_vm_mmap()), so the control page, the data area's
 * PERF_RECORD_AUX and the AUX bytes are read back as user space would.
 */
#include <kunit/test.h>
#include <linux/anon_inodes.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/mman.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "internal.h"

#define AUX_DATA_PAGES	1
#define AUX_PAGES	2
#define AUX_BYTES	(AUX_PAGES * PAGE_SIZE)
#define AUX_OFFSET	((1 + AUX_DATA_PAGES) * PAGE_SIZE)

/**
 * struct aux_fake - the fake PMU and what its one event does
 * @pmu: registered as "perfcore_kunit_aux"
 * @handle: the handle open while the event runs
 * @writing: @handle is open
 * @chunk: bytes written per run (capped by the room)
 * @truncate: flag the run TRUNCATED when the room was short
 * @set_ups: setup_aux() calls
 * @frees: free_aux() calls
 * @begun_null: runs that found nothing to write into
 */
struct aux_fake {
	struct pmu			pmu;
	struct perf_output_handle	handle;
	bool				writing;
	unsigned long			chunk;
	bool				truncate;
	int				set_ups;
	int				frees;
	int				begun_null;
};

static struct aux_fake aux_fake;

/* The byte at AUX position @pos: its low bits, so any shift shows. */
static u8 aux_pattern(unsigned long pos)
{
	return (u8)(pos * 7 + 3);
}

static int aux_event_init(struct perf_event *event)
{
	return event->attr.type == event->pmu->type ? 0 : -ENOENT;
}

static void *aux_setup(struct perf_event *event, void **pages, int nr_pages,
		       bool overwrite)
{
	aux_fake.set_ups++;
	return pages;
}

static void aux_free_priv(void *priv)
{
	aux_fake.frees++;
}

static void aux_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
	aux_fake.writing = perf_aux_output_begin(&aux_fake.handle, event);
	if (!aux_fake.writing)
		aux_fake.begun_null++;
}

static void aux_stop(struct perf_event *event, int flags)
{
	struct perf_output_handle *h = &aux_fake.handle;
	void **pages;
	unsigned long n, i, pos;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	event->hw.state = PERF_HES_STOPPED;
	if (!aux_fake.writing)
		return;
	aux_fake.writing = false;

	pages = perf_get_aux(h);
	n = h->size ? min(aux_fake.chunk, h->size) : aux_fake.chunk;
	for (i = 0; i < n; i++) {
		pos = (h->head + i) % AUX_BYTES;
		((u8 *)pages[pos / PAGE_SIZE])[pos % PAGE_SIZE] =
			aux_pattern(h->head + i);
	}
	if (aux_fake.truncate && n < aux_fake.chunk)
		perf_aux_output_flag(h, PERF_AUX_FLAG_TRUNCATED);
	/* In overwrite mode the PMU says where it stands. */
	if (!h->size)
		h->head += n;
	perf_aux_output_end(h, n);
}

static int aux_add(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
	if (flags & PERF_EF_START)
		aux_start(event, flags);
	return 0;
}

static void aux_del(struct perf_event *event, int flags)
{
	aux_stop(event, flags);
}

static void aux_read(struct perf_event *event)
{
}

/**
 * struct aux_run - one case's event and its mappings in the test's mm
 * @event: the kernel counter
 * @file: its file
 * @page: the control page's user address
 * @aux: the AUX area's user address
 * @maps: every mapping the case made, for aux_done()
 * @nr_maps: how many
 */
struct aux_run {
	struct perf_event	*event;
	struct file		*file;
	unsigned long		page;
	unsigned long		aux;
	struct {
		unsigned long	addr;
		unsigned long	len;
	} maps[4];
	int			nr_maps;
};

static struct perf_event_mmap_page __user *aux_pg(struct aux_run *run)
{
	return (void __user *)run->page;
}

/* kunit_vm_mmap(), the mapping remembered for aux_done(). */
static unsigned long aux_mmap(struct kunit *test, struct aux_run *run,
			      unsigned long len, int prot, unsigned long off)
{
	unsigned long addr;

	addr = kunit_vm_mmap(test, run->file, 0, len, prot, MAP_SHARED, off);
	if (addr && !IS_ERR_VALUE(addr) &&
	    !WARN_ON(run->nr_maps == ARRAY_SIZE(run->maps))) {
		run->maps[run->nr_maps].addr = addr;
		run->maps[run->nr_maps++].len = len;
	}
	return addr;
}

/* Open the event and map its data area; the AUX area is the case's. */
static struct aux_run *aux_open(struct kunit *test, struct pmu *pmu)
{
	struct perf_event_attr attr = {
		.type		= pmu->type,
		.size		= sizeof(attr),
		.disabled	= 1,
		.sample_id_all	= 0,
	};
	struct aux_run *run;
	u64 where[2] = { AUX_OFFSET, AUX_BYTES };

	run = kunit_kzalloc(test, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	/*
	 * A CPU's event, not the thread's: a thread's would also run (and
	 * commit) at each switch of the thread, which a slow kernel makes
	 * at any point of a case.
	 */
	run->event = perf_event_create_kernel_counter(&attr, 0, NULL,
						      NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(run->event), "open: %ld",
			       PTR_ERR(run->event));
	run->file = anon_inode_getfile("[perf_event]", &perf_fops, run->event,
				       O_RDWR);
	if (IS_ERR(run->file))
		perf_event_release_kernel(run->event);
	KUNIT_ASSERT_FALSE(test, IS_ERR(run->file));
	run->page = aux_mmap(test, run, (1 + AUX_DATA_PAGES) * PAGE_SIZE,
			     PROT_READ | PROT_WRITE, 0);
	KUNIT_ASSERT_TRUE(test, run->page && !IS_ERR_VALUE(run->page));
	KUNIT_ASSERT_EQ(test, copy_to_user(&aux_pg(run)->aux_offset, where,
					   sizeof(where)), 0);
	return run;
}

/* Map the AUX area as the control page announces it. */
static long aux_map(struct kunit *test, struct aux_run *run, int prot)
{
	unsigned long addr;

	addr = aux_mmap(test, run, AUX_BYTES, prot, AUX_OFFSET);
	if (IS_ERR_VALUE(addr))
		return (long)addr;
	run->aux = addr;
	return 0;
}

/*
 * Unmap everything and let the event go, now: the CPU event must be off
 * the fake PMU before the next case (or the suite's exit) uses it, and a
 * kernel thread's last fput is otherwise left to a work item.
 */
static void aux_done(struct aux_run *run)
{
	int i;

	for (i = 0; i < run->nr_maps; i++)
		vm_munmap(run->maps[i].addr, run->maps[i].len);
	fput(run->file);
	flush_delayed_fput();
	/*
	 * Areas are freed a grace period after their last reference: let
	 * this case's go before the next case counts frees.
	 */
	for (i = 0; i < 50 && READ_ONCE(aux_fake.frees) < aux_fake.set_ups;
	     i++)
		msleep(20);
}

/* One run of the fake: the event scheduled in, then out. */
static void aux_cycle(struct aux_run *run)
{
	perf_event_enable(run->event);
	perf_event_disable(run->event);
}

static u64 aux_user_head(struct kunit *test, struct aux_run *run)
{
	u64 head;

	KUNIT_ASSERT_EQ(test, copy_from_user(&head, &aux_pg(run)->aux_head,
					     sizeof(head)), 0);
	return head;
}

/* The PERF_RECORD_AUX records of the data area: {offset, size, flags}. */
static int aux_records(struct kunit *test, struct aux_run *run,
		       u64 (*recs)[3], int max)
{
	u8 __user *data = (u8 __user *)run->page + PAGE_SIZE;
	struct perf_event_header hdr;
	u64 head, off = 0;
	int n = 0;

	KUNIT_ASSERT_EQ(test, copy_from_user(&head, &aux_pg(run)->data_head,
					     sizeof(head)), 0);
	while (off < head) {
		KUNIT_ASSERT_EQ(test, copy_from_user(&hdr, data + off,
						     sizeof(hdr)), 0);
		KUNIT_ASSERT_GE(test, hdr.size, (u16)sizeof(hdr));
		if (hdr.type == PERF_RECORD_AUX) {
			KUNIT_EXPECT_EQ(test, hdr.size, (u16)32);
			KUNIT_ASSERT_LT(test, n, max);
			KUNIT_ASSERT_EQ(test,
					copy_from_user(recs[n++],
						       data + off + sizeof(hdr),
						       24), 0);
		}
		off += hdr.size;
	}
	return n;
}

/* The AUX bytes at [@from, @from + @len) are the pattern's. */
static void aux_expect_bytes(struct kunit *test, struct aux_run *run,
			     unsigned long from, unsigned long len)
{
	u8 __user *aux = (u8 __user *)run->aux;
	unsigned long i, pos;
	u8 b;

	for (i = 0; i < len; i++) {
		pos = (from + i) % AUX_BYTES;
		KUNIT_ASSERT_EQ(test, copy_from_user(&b, aux + pos, 1), 0);
		KUNIT_ASSERT_EQ_MSG(test, b, aux_pattern(from + i), "at %lu",
				    from + i);
	}
}

static void aux_reset(unsigned long chunk, bool truncate)
{
	aux_fake.chunk = chunk;
	aux_fake.truncate = truncate;
	aux_fake.set_ups = 0;
	aux_fake.frees = 0;
	aux_fake.begun_null = 0;
}

/*
 * Two runs commit two records back to back; aux_head is their sum and
 * the bytes are where the records say.
 */
static void aux_commit_records(struct kunit *test)
{
	struct aux_run *run;
	u64 recs[4][3];

	aux_reset(100, false);
	run = aux_open(test, &aux_fake.pmu);
	KUNIT_ASSERT_EQ(test, aux_map(test, run, PROT_READ | PROT_WRITE), 0);
	KUNIT_EXPECT_EQ(test, aux_fake.set_ups, 1);
	aux_cycle(run);
	aux_cycle(run);

	KUNIT_ASSERT_EQ(test, aux_records(test, run, recs, 4), 2);
	KUNIT_EXPECT_EQ(test, recs[0][0], 0ULL);
	KUNIT_EXPECT_EQ(test, recs[0][1], 100ULL);
	KUNIT_EXPECT_EQ(test, recs[0][2], 0ULL);
	KUNIT_EXPECT_EQ(test, recs[1][0], 100ULL);
	KUNIT_EXPECT_EQ(test, recs[1][1], 100ULL);
	KUNIT_EXPECT_EQ(test, aux_user_head(test, run), 200ULL);
	aux_expect_bytes(test, run, 0, 200);
	aux_done(run);
}

/*
 * With aux_tail left at 0 the area fills: the run that finds less room
 * than it wants writes what fits (one byte stays free) and says
 * TRUNCATED; the next finds no room at all and gets no handle.
 */
static void aux_full_area(struct kunit *test)
{
	struct aux_run *run;
	u64 recs[4][3];

	aux_reset(AUX_BYTES - 1000, true);
	run = aux_open(test, &aux_fake.pmu);
	KUNIT_ASSERT_EQ(test, aux_map(test, run, PROT_READ | PROT_WRITE), 0);
	aux_cycle(run);
	aux_cycle(run);
	aux_cycle(run);

	KUNIT_ASSERT_EQ(test, aux_records(test, run, recs, 4), 2);
	KUNIT_EXPECT_EQ(test, recs[1][0], (u64)(AUX_BYTES - 1000));
	KUNIT_EXPECT_EQ(test, recs[1][1], 999ULL);
	KUNIT_EXPECT_EQ(test, recs[1][2], (u64)PERF_AUX_FLAG_TRUNCATED);
	KUNIT_EXPECT_EQ(test, aux_user_head(test, run), (u64)AUX_BYTES - 1);
	KUNIT_EXPECT_EQ(test, aux_fake.begun_null, 1);
	aux_expect_bytes(test, run, 0, AUX_BYTES - 1);
	aux_done(run);
}

/*
 * Read-only mapping: the PMU wraps and reports its position; the record
 * gives that position (not the start) with OVERWRITE, as upstream does.
 */
static void aux_overwrite_mode(struct kunit *test)
{
	struct aux_run *run;
	u64 recs[4][3];

	aux_reset(3000, false);
	run = aux_open(test, &aux_fake.pmu);
	KUNIT_ASSERT_EQ(test, aux_map(test, run, PROT_READ), 0);
	aux_cycle(run);
	aux_cycle(run);
	aux_cycle(run);

	KUNIT_ASSERT_EQ(test, aux_records(test, run, recs, 4), 3);
	KUNIT_EXPECT_EQ(test, recs[2][0], 9000ULL);
	KUNIT_EXPECT_EQ(test, recs[2][1], 3000ULL);
	KUNIT_EXPECT_EQ(test, recs[2][2], (u64)PERF_AUX_FLAG_OVERWRITE);
	KUNIT_EXPECT_EQ(test, aux_user_head(test, run), 9000ULL);
	/* The last area's worth before the head is the newest data. */
	aux_expect_bytes(test, run, 9000 - AUX_BYTES, AUX_BYTES);
	aux_done(run);
}

/*
 * The AUX mapping goes while the PMU writes: its commit goes nowhere
 * (no record, aux_head unchanged) and the area is freed then, once.
 */
static void aux_unmapped_while_writing(struct kunit *test)
{
	struct aux_run *run;
	u64 recs[4][3];
	int i;

	aux_reset(100, false);
	run = aux_open(test, &aux_fake.pmu);
	KUNIT_ASSERT_EQ(test, aux_map(test, run, PROT_READ | PROT_WRITE), 0);
	perf_event_enable(run->event);
	KUNIT_ASSERT_EQ(test, vm_munmap(run->aux, AUX_BYTES), 0);
	KUNIT_EXPECT_EQ(test, aux_fake.frees, 0);
	perf_event_disable(run->event);
	/* Freed from a work item, a grace period after that commit. */
	for (i = 0; i < 50 && !READ_ONCE(aux_fake.frees); i++)
		msleep(20);
	KUNIT_EXPECT_EQ(test, aux_fake.frees, 1);
	KUNIT_EXPECT_EQ(test, aux_records(test, run, recs, 4), 0);
	KUNIT_EXPECT_EQ(test, aux_user_head(test, run), 0ULL);

	/* Mapped again: a new area, written from its start. */
	KUNIT_ASSERT_EQ(test, aux_map(test, run, PROT_READ | PROT_WRITE), 0);
	KUNIT_EXPECT_EQ(test, aux_fake.set_ups, 2);
	aux_cycle(run);
	KUNIT_EXPECT_EQ(test, aux_records(test, run, recs, 4), 1);
	aux_expect_bytes(test, run, 0, 100);
	aux_done(run);
}

/* A second mapping must match the first; a PMU without AUX has none. */
static void aux_mapping_rules(struct kunit *test)
{
	struct aux_run *run;
	unsigned long addr;

	aux_reset(100, false);
	run = aux_open(test, &aux_fake.pmu);
	KUNIT_ASSERT_EQ(test, aux_map(test, run, PROT_READ | PROT_WRITE), 0);
	addr = aux_mmap(test, run, AUX_BYTES, PROT_READ | PROT_WRITE,
			AUX_OFFSET);
	KUNIT_EXPECT_FALSE(test, IS_ERR_VALUE(addr));
	KUNIT_EXPECT_EQ(test, aux_fake.set_ups, 1);
	addr = aux_mmap(test, run, AUX_BYTES / 2, PROT_READ | PROT_WRITE,
			AUX_OFFSET);
	KUNIT_EXPECT_EQ(test, (long)addr, (long)-EINVAL);
	aux_done(run);
}

static int aux_suite_init(struct kunit_suite *suite)
{
	aux_fake.pmu = (struct pmu) {
		.task_ctx_nr	= perf_hw_context,
		.capabilities	= PERF_PMU_CAP_ITRACE,
		.event_init	= aux_event_init,
		.add		= aux_add,
		.del		= aux_del,
		.start		= aux_start,
		.stop		= aux_stop,
		.read		= aux_read,
		.setup_aux	= aux_setup,
		.free_aux	= aux_free_priv,
	};
	return perf_pmu_register(&aux_fake.pmu, "perfcore_kunit_aux", -1);
}

static void aux_suite_exit(struct kunit_suite *suite)
{
	perf_pmu_unregister(&aux_fake.pmu);
}

static struct kunit_case aux_cases[] = {
	KUNIT_CASE(aux_commit_records),
	KUNIT_CASE(aux_full_area),
	KUNIT_CASE(aux_overwrite_mode),
	KUNIT_CASE(aux_unmapped_while_writing),
	KUNIT_CASE(aux_mapping_rules),
	{}
};

static struct kunit_suite aux_suite = {
	.name		= "perfcore_aux",
	.suite_init	= aux_suite_init,
	.suite_exit	= aux_suite_exit,
	.test_cases	= aux_cases,
};

kunit_test_suite(aux_suite);

MODULE_DESCRIPTION("KUnit tests for the AUX area on a fake trace PMU");
MODULE_LICENSE("GPL");
