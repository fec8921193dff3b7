// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: PERF_RECORD_ITRACE_START, through the real open, mmap, output
 * and scheduling paths, on fake instruction-trace PMUs.
 *
 * No PMU of the test guests has PERF_PMU_CAP_ITRACE (TCG emulates no
 * SPE, PT or BTS), so the suite registers its own: they count nothing
 * and, when added, write a PERF_RECORD_AUX_OUTPUT_HW_ID as Intel PT
 * does, which shows in the buffer whether ITRACE_START came first.  The
 * event is a kernel counter on the test's own thread with a file and a
 * ring buffer mapped into the thread's mm (kunit_vm_mmap()), so the
 * records go through perf_mmap() and the output path as a user's do.
 *
 * The rule (stock's too): the record is written each time the event is
 * scheduled in, before the PMU's add(), until the PMU says tracing has
 * started (perf_event_itrace_started()); PMUs without the capability
 * never get one.
 */
#include <kunit/test.h>
#include <linux/anon_inodes.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/mman.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "internal.h"

#define ITRACE_HW_ID		0x5eedULL
#define ITRACE_DATA_BYTES	PAGE_SIZE

/**
 * struct itrace_fake - a fake trace PMU
 * @pmu: registered under @name
 * @name: its sysfs name
 * @caps: its capabilities
 * @ack_start: call perf_event_itrace_started() when started, as PT's
 *	driver does once the hardware traces
 * @adds: how many times it was added
 */
struct itrace_fake {
	struct pmu	pmu;
	const char	*name;
	int		caps;
	bool		ack_start;
	int		adds;
};

static struct itrace_fake *itrace_of(struct pmu *pmu)
{
	return container_of(pmu, struct itrace_fake, pmu);
}

static int itrace_event_init(struct perf_event *event)
{
	return event->attr.type == event->pmu->type ? 0 : -ENOENT;
}

static void itrace_start(struct perf_event *event, int flags)
{
	event->hw.state = 0;
	if (itrace_of(event->pmu)->ack_start)
		perf_event_itrace_started(event);
}

static void itrace_stop(struct perf_event *event, int flags)
{
	event->hw.state = PERF_HES_STOPPED;
}

static int itrace_add(struct perf_event *event, int flags)
{
	itrace_of(event->pmu)->adds++;
	perf_report_aux_output_id(event, ITRACE_HW_ID);
	if (flags & PERF_EF_START)
		itrace_start(event, flags);
	else
		event->hw.state = PERF_HES_STOPPED;
	return 0;
}

static void itrace_del(struct perf_event *event, int flags)
{
	itrace_stop(event, flags);
}

static void itrace_read(struct perf_event *event)
{
}

static struct itrace_fake itrace_pmus[] = {
	{ .name = "perfcore_kunit_itrace", .caps = PERF_PMU_CAP_ITRACE },
	{ .name = "perfcore_kunit_plain" },
};

/**
 * struct itrace_run - one case's event and what user space would see
 * @event: the kernel counter
 * @file: its file, as perf_event_open() would make it
 * @page: the user page's address in the test thread's mm
 */
struct itrace_run {
	struct perf_event	*event;
	struct file		*file;
	unsigned long		page;
};

/* Open a disabled event of @fake on this thread and map its buffer. */
static struct itrace_run *itrace_open(struct kunit *test,
				      struct itrace_fake *fake)
{
	struct perf_event_attr attr = {
		.type	= fake->pmu.type,
		.size	= sizeof(attr),
		.disabled = 1,
	};
	struct itrace_run *run;

	run = kunit_kzalloc(test, sizeof(*run), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, run);
	run->event = perf_event_create_kernel_counter(&attr, -1, current,
						      NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(run->event), "open: %ld",
			       PTR_ERR(run->event));
	run->file = anon_inode_getfile("[perf_event]", &perf_fops, run->event,
				       O_RDWR);
	if (IS_ERR(run->file))
		perf_event_release_kernel(run->event);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(run->file), "file: %ld",
			       PTR_ERR(run->file));
	/* The mapping holds the file; the event goes when it is unmapped. */
	run->page = kunit_vm_mmap(test, run->file, 0,
				  PAGE_SIZE + ITRACE_DATA_BYTES,
				  PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	fput(run->file);
	KUNIT_ASSERT_TRUE_MSG(test, run->page && !IS_ERR_VALUE(run->page),
			      "mmap: %ld", (long)run->page);
	return run;
}

/* Enable then disable: one scheduling in and out on this thread. */
static void itrace_cycle(struct itrace_run *run)
{
	perf_event_enable(run->event);
	perf_event_disable(run->event);
}

/* The record types in the buffer, in order; returns how many. */
static int itrace_records(struct kunit *test, struct itrace_run *run,
			  u32 *types, int max)
{
	struct perf_event_mmap_page __user *pg = (void __user *)run->page;
	u8 __user *data = (u8 __user *)run->page + PAGE_SIZE;
	struct perf_event_header hdr;
	u32 ids[2];
	u64 head, off = 0;
	unsigned long left;
	int n = 0;

	KUNIT_ASSERT_EQ(test, copy_from_user(&head, &pg->data_head,
					     sizeof(head)), 0);
	KUNIT_ASSERT_LE(test, head, (u64)ITRACE_DATA_BYTES);
	while (off < head && n < max) {
		KUNIT_ASSERT_EQ(test, copy_from_user(&hdr, data + off,
						     sizeof(hdr)), 0);
		KUNIT_ASSERT_GE(test, hdr.size, (u16)sizeof(hdr));
		types[n++] = hdr.type;
		if (hdr.type == PERF_RECORD_ITRACE_START) {
			/* pid and tid of the task it was scheduled in for */
			KUNIT_EXPECT_EQ(test, hdr.size, (u16)16);
			left = copy_from_user(ids, data + off + sizeof(hdr),
					      sizeof(ids));
			KUNIT_ASSERT_EQ(test, left, 0UL);
			KUNIT_EXPECT_EQ(test, ids[0], (u32)task_tgid_nr(current));
			KUNIT_EXPECT_EQ(test, ids[1], (u32)task_pid_nr(current));
		}
		off += hdr.size;
	}
	KUNIT_EXPECT_EQ(test, off, head);
	return n;
}

/*
 * Schedule @fake's event in and out twice, then check the buffer: an
 * AUX_OUTPUT_HW_ID for every add(), each preceded by an ITRACE_START
 * while the PMU has not said it started (@once: only the first).  The
 * thread may be switched out in between, which adds more of both: the
 * expectation follows the adds counted, not a fixed number.
 */
static void itrace_check(struct kunit *test, struct itrace_fake *fake,
			 bool ack_start, bool want_itrace, bool once)
{
	struct itrace_run *run;
	u32 types[32];
	int i, n, adds, want = 0;

	fake->ack_start = ack_start;
	fake->adds = 0;
	run = itrace_open(test, fake);
	itrace_cycle(run);
	itrace_cycle(run);
	adds = fake->adds;
	KUNIT_ASSERT_GE(test, adds, 2);
	KUNIT_ASSERT_LE(test, adds, 8);

	n = itrace_records(test, run, types, ARRAY_SIZE(types));
	for (i = 0; i < adds; i++) {
		if (want_itrace && (!once || i == 0)) {
			KUNIT_ASSERT_LT(test, want, n);
			KUNIT_EXPECT_EQ_MSG(test, types[want],
					    (u32)PERF_RECORD_ITRACE_START,
					    "record %d (add %d)", want, i);
			want++;
		}
		KUNIT_ASSERT_LT(test, want, n);
		KUNIT_EXPECT_EQ_MSG(test, types[want],
				    (u32)PERF_RECORD_AUX_OUTPUT_HW_ID,
				    "record %d (add %d)", want, i);
		want++;
	}
	KUNIT_EXPECT_EQ(test, n, want);
}

/* The PMU acknowledges the start: one ITRACE_START, before the first add. */
static void itrace_start_once(struct kunit *test)
{
	itrace_check(test, &itrace_pmus[0], true, true, true);
}

/* Never acknowledged: the record comes again before every add. */
static void itrace_start_until_started(struct kunit *test)
{
	itrace_check(test, &itrace_pmus[0], false, true, false);
}

/* A PMU that does not trace gets no ITRACE_START. */
static void itrace_start_needs_capability(struct kunit *test)
{
	itrace_check(test, &itrace_pmus[1], false, false, false);
}

static int itrace_suite_init(struct kunit_suite *suite)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(itrace_pmus); i++) {
		struct itrace_fake *fake = &itrace_pmus[i];

		fake->pmu = (struct pmu) {
			.task_ctx_nr	= perf_hw_context,
			.capabilities	= fake->caps,
			.event_init	= itrace_event_init,
			.add		= itrace_add,
			.del		= itrace_del,
			.start		= itrace_start,
			.stop		= itrace_stop,
			.read		= itrace_read,
		};
		err = perf_pmu_register(&fake->pmu, fake->name, -1);
		if (err) {
			while (i--)
				perf_pmu_unregister(&itrace_pmus[i].pmu);
			return err;
		}
	}
	return 0;
}

static void itrace_suite_exit(struct kunit_suite *suite)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(itrace_pmus); i++)
		perf_pmu_unregister(&itrace_pmus[i].pmu);
}

static struct kunit_case itrace_cases[] = {
	KUNIT_CASE(itrace_start_once),
	KUNIT_CASE(itrace_start_until_started),
	KUNIT_CASE(itrace_start_needs_capability),
	{}
};

static struct kunit_suite itrace_suite = {
	.name		= "perfcore_itrace_start",
	.suite_init	= itrace_suite_init,
	.suite_exit	= itrace_suite_exit,
	.test_cases	= itrace_cases,
};

kunit_test_suite(itrace_suite);

MODULE_DESCRIPTION("KUnit tests for PERF_RECORD_ITRACE_START on fake trace PMUs");
MODULE_LICENSE("GPL");
