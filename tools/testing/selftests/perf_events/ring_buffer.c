// SPDX-License-Identifier: GPL-2.0
/*
 * The mmap ring buffer and its user page (struct perf_event_mmap_page).
 *
 * Most tests sample the page-faults software event with sample_period=1
 * and sample_type=PERF_SAMPLE_ADDR: touching N fresh anonymous pages gives
 * exactly N records of 16 bytes each (header + fault address), which makes
 * the ring-buffer arithmetic exact.  Code paths are warmed up (and the
 * ring pages themselves faulted in) before the event is enabled so that
 * no stray page faults are counted.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <poll.h>
#include <stddef.h>

#define REC_SZ	16	/* header + PERF_SAMPLE_ADDR */

struct rec_lost {
	struct perf_event_header h;
	__u64 id;
	__u64 lost;
};

/* page-faults, period 1, sample ADDR, disabled, on this thread. */
static int open_pf(int cpu, pid_t pid, __u64 read_format)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_ADDR;
	attr.read_format = read_format;
	attr.exclude_kernel = 1;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

static void __attribute__((noinline)) touch(char *p, int n)
{
	long pg = page_sz();
	int i;

	for (i = 0; i < n; i++)
		((volatile char *)p)[i * pg + 8] = 1;
}

/* Enable fd, write-touch n fresh pages, disable; warmed first. */
static void fault_pages(int fd, int n)
{
	char *warm = fresh(1);
	char *p = fresh(n ? n : 1);

	touch(warm, 1);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch(p, n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap(warm, page_sz());
	munmap(p, (n ? n : 1) * page_sz());
}

TEST(rb_mmap_size_one_plus_power_of_two)
{
	long pg = page_sz();
	static const struct { int pages; int ok; } tab[] = {
		{ 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 0 }, { 5, 1 }, { 6, 0 },
		{ 7, 0 }, { 9, 1 }, { 17, 1 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		int fd = open_pf(-1, 0, 0);
		void *p;

		ASSERT_GE(fd, 0);
		p = mmap(NULL, tab[i].pages * pg, PROT_READ | PROT_WRITE,
			 MAP_SHARED, fd, 0);
		if (tab[i].ok) {
			EXPECT_NE(MAP_FAILED, p) TH_LOG("%d pages", tab[i].pages);
			if (p != MAP_FAILED)
				munmap(p, tab[i].pages * pg);
		} else {
			EXPECT_EQ(MAP_FAILED, p) TH_LOG("%d pages", tab[i].pages);
			EXPECT_EQ(EINVAL, errno);
		}
		close(fd);
	}
}

TEST(rb_mmap_private_and_inherit_einval)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	void *p;
	int fd = open_pf(-1, 0, 0);

	ASSERT_GE(fd, 0);
	/* the buffer must be a shared mapping */
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* nonzero offset without an AUX area set up */
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, pg);
	EXPECT_EQ(MAP_FAILED, p);
	close(fd);

	/* per-task inherited events cannot be mmapped */
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(rb_user_page_initial_fields)
{
	long pg = page_sz();
	struct perf_event_mmap_page *up;
	int fd = open_pf(-1, 0, 0);

	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	EXPECT_EQ(0, up->version);
	EXPECT_EQ(0, up->compat_version);
	EXPECT_EQ(1, (int)up->cap_bit0_is_deprecated);
	EXPECT_EQ(0, (int)up->cap_bit0);
	/* software events cannot be read with rdpmc */
	EXPECT_EQ(0, (int)up->cap_user_rdpmc);
	EXPECT_EQ(offsetof(struct perf_event_mmap_page, __reserved), up->size);
	EXPECT_EQ((__u64)pg, up->data_offset);
	EXPECT_EQ((__u64)(4 * pg), up->data_size);
	EXPECT_EQ(0, up->data_head);
	EXPECT_EQ(0, up->data_tail);
	EXPECT_EQ(0, up->aux_offset);
	EXPECT_EQ(0, up->aux_size);
	EXPECT_EQ(0, up->lock & 1);
	EXPECT_EQ(0, up->index);
	munmap(up, 5 * pg);
	close(fd);
}

/* The documented seqlock read of index/offset/time_enabled/time_running. */
static void read_self(struct perf_event_mmap_page *up, __u32 *index,
		      __s64 *offset, __u64 *enabled, __u64 *running)
{
	__u32 seq;

	do {
		seq = __atomic_load_n(&up->lock, __ATOMIC_ACQUIRE);
		*index = up->index;
		*offset = up->offset;
		*enabled = up->time_enabled;
		*running = up->time_running;
		__atomic_thread_fence(__ATOMIC_ACQ_REL);
	} while (__atomic_load_n(&up->lock, __ATOMIC_ACQUIRE) != seq || (seq & 1));
}

TEST(rb_user_page_self_monitoring_snapshot)
{
	long pg = page_sz();
	struct perf_event_mmap_page *up;
	__u32 index, lock0;
	__s64 offset;
	__u64 en, run, count = 0;
	int fd = open_pf(-1, 0, 0);

	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	lock0 = up->lock;
	fault_pages(fd, 3);
	ASSERT_EQ(0, read_count(fd, &count));
	EXPECT_EQ(3, count);
	/*
	 * The user page is refreshed when the event is scheduled in: after
	 * re-enabling, offset holds the count so far (index is 0: a software
	 * event has no hardware counter to add).
	 */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	read_self(up, &index, &offset, &en, &run);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ(0, index);
	EXPECT_EQ(3, offset);
	/* (the times may be 0 with a jiffies-resolution sched_clock) */
	EXPECT_LE(run, en);
	EXPECT_NE(lock0, up->lock);
	EXPECT_EQ(0, up->lock & 1);
	/* 3 records of header+addr */
	EXPECT_EQ(3 * REC_SZ, perf_rb_head(up));
	munmap(up, 2 * pg);
	close(fd);
}

TEST(rb_data_head_advances_with_records)
{
	long pg = page_sz();
	struct perf_event_header h;
	void *up;
	__u64 pos;
	int fd = open_pf(-1, 0, 0);
	int n = 0;

	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	fault_pages(fd, 7);
	EXPECT_EQ(7 * REC_SZ, perf_rb_head(up));
	for (pos = 0; pos < perf_rb_head(up); pos += h.size) {
		perf_rb_copy(up, pos, &h, sizeof(h));
		EXPECT_EQ(PERF_RECORD_SAMPLE, h.type);
		EXPECT_EQ(PERF_RECORD_MISC_USER, h.misc & PERF_RECORD_MISC_CPUMODE_MASK);
		EXPECT_EQ(REC_SZ, h.size);
		if (h.size == 0)
			break;
		n++;
	}
	EXPECT_EQ(7, n);
	munmap(up, 3 * pg);
	close(fd);
}

/*
 * Writable mapping: the kernel never overwrites unread data.  The usable
 * space is data_size - 1 bytes, so a one-page buffer holds
 * (page - 1) / 16 records; the rest are counted as lost and reported by a
 * PERF_RECORD_LOST as soon as data_tail makes room again.
 */
TEST(rb_data_tail_limits_writes_and_lost_follows)
{
	long pg = page_sz();
	struct perf_event_mmap_page *up;
	struct rec_lost lost;
	__u64 fit = (pg - 1) / REC_SZ, id = 0, rf[2];
	int fd = open_pf(-1, 0, PERF_FORMAT_LOST);
	int n = fit + 20;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	up = perf_rb_mmap(fd, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	fault_pages(fd, n);
	EXPECT_EQ(fit * REC_SZ, perf_rb_head(up));
	ASSERT_EQ(sizeof(rf), read(fd, rf, sizeof(rf)));
	EXPECT_EQ(n, rf[0]);
	EXPECT_EQ(n - fit, rf[1]);

	/* consume everything */
	__atomic_store_n(&up->data_tail, perf_rb_head(up), __ATOMIC_RELEASE);
	fault_pages(fd, 1);
	EXPECT_EQ(fit * REC_SZ + sizeof(lost) + REC_SZ, perf_rb_head(up));
	perf_rb_copy(up, fit * REC_SZ, &lost, sizeof(lost));
	EXPECT_EQ(PERF_RECORD_LOST, lost.h.type);
	EXPECT_EQ(sizeof(lost), lost.h.size);
	EXPECT_EQ(id, lost.id);
	EXPECT_EQ(n - fit, lost.lost);
	munmap(up, 2 * pg);
	close(fd);
}

/* A PROT_READ mapping means overwrite mode: nothing is ever lost. */
TEST(rb_readonly_mapping_overwrites)
{
	long pg = page_sz();
	void *up;
	__u64 rf[2], addr;
	int fd = open_pf(-1, 0, PERF_FORMAT_LOST);
	int n = pg / REC_SZ + 40;
	struct { struct perf_event_header h; __u64 addr; } r;
	char *p;

	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 1, PROT_READ);
	ASSERT_NE(NULL, up);
	/* same as fault_pages, but remember the last address */
	p = fresh(n);
	ASSERT_NE(NULL, p);
	touch(p, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch(p, n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ((__u64)n * REC_SZ, perf_rb_head(up));
	ASSERT_EQ(sizeof(rf), read(fd, rf, sizeof(rf)));
	EXPECT_EQ(n, rf[0]);
	EXPECT_EQ(0, rf[1]);
	/* the newest record is the last one before head */
	perf_rb_copy(up, perf_rb_head(up) - REC_SZ, &r, sizeof(r));
	addr = (__u64)(unsigned long)(p + (n - 1) * pg + 8);
	EXPECT_EQ(PERF_RECORD_SAMPLE, r.h.type);
	EXPECT_EQ(addr, r.addr);
	munmap(p, n * pg);
	munmap(up, 2 * pg);
	close(fd);
}

TEST(rb_write_backward_head_goes_negative)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	struct { struct perf_event_header h; __u64 addr; } r;
	void *up;
	char *p;
	int fd, i;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_ADDR;
	attr.exclude_kernel = 1;
	attr.write_backward = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 1, PROT_READ);
	ASSERT_NE(NULL, up);
	p = fresh(3);
	ASSERT_NE(NULL, p);
	touch(p, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch(p, 3);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	EXPECT_EQ((__u64)-(3 * REC_SZ), perf_rb_head(up));
	/* reading forward from head gives the newest record first */
	for (i = 0; i < 3; i++) {
		perf_rb_copy(up, perf_rb_head(up) + i * REC_SZ, &r, sizeof(r));
		EXPECT_EQ(PERF_RECORD_SAMPLE, r.h.type);
		EXPECT_EQ(REC_SZ, r.h.size);
		EXPECT_EQ((__u64)(unsigned long)(p + (2 - i) * pg + 8), r.addr);
	}
	munmap(p, 3 * pg);
	munmap(up, 2 * pg);
	close(fd);
}

TEST(rb_set_output_redirects_records)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	struct { struct perf_event_header h; __u64 id; } r;
	struct perf_event_mmap_page *ub;
	void *up;
	__u64 pos, ida = 0, idb = 0;
	int a, b, na = 0, nb = 0;

	/* a: page-faults sampler with the buffer; b: a second one without */
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IDENTIFIER;
	attr.exclude_kernel = 1;
	a = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(a, 0);
	b = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(b, 0);
	ioctl(a, PERF_EVENT_IOC_ID, &ida);
	ioctl(b, PERF_EVENT_IOC_ID, &idb);
	up = perf_rb_mmap(a, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));

	/* b's records now land in a's buffer */
	fault_pages(b, 4);
	fault_pages(a, 2);
	for (pos = 0; pos < perf_rb_head(up); pos += r.h.size) {
		perf_rb_copy(up, pos, &r, sizeof(r));
		ASSERT_NE(0, r.h.size);
		if (r.h.type != PERF_RECORD_SAMPLE)
			continue;
		if (r.id == ida)
			na++;
		else if (r.id == idb)
			nb++;
	}
	EXPECT_EQ(2, na);
	EXPECT_EQ(4, nb);

	/*
	 * Mapping b (which has no buffer of its own): a different size is
	 * refused; on 6.12 the same size maps the shared buffer.
	 */
	ub = mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, b, 0);
	EXPECT_EQ(MAP_FAILED, ub);
	EXPECT_EQ(EINVAL, errno);
	/* ... the same size maps the shared buffer */
	ub = mmap(NULL, 3 * pg, PROT_READ, MAP_SHARED, b, 0);
	ASSERT_NE(MAP_FAILED, ub);
	EXPECT_EQ(perf_rb_head(up), ub->data_head);
	munmap(ub, 3 * pg);

	/*
	 * SET_OUTPUT -1 detaches b again: its records go nowhere.  The
	 * argument is an unsigned long compared with -1, so pass a long.
	 */
	ASSERT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	pos = perf_rb_head(up);
	fault_pages(b, 2);
	EXPECT_EQ(pos, perf_rb_head(up));
	munmap(up, 3 * pg);
	close(b);
	close(a);
}

TEST(rb_set_output_flag_fd_output_at_open)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	void *up;
	int a, b;

	a = open_pf(-1, 0, 0);
	ASSERT_GE(a, 0);
	up = perf_rb_mmap(a, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_ADDR;
	attr.exclude_kernel = 1;
	b = sys_perf_event_open(&attr, 0, -1, a,
				PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);
	ASSERT_GE(b, 0);
	fault_pages(b, 3);
	EXPECT_EQ(3 * REC_SZ, perf_rb_head(up));
	munmap(up, 2 * pg);
	close(b);
	close(a);
}

TEST(rb_set_output_einval_cases)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	void *up, *ub, *ub0;
	int a, b, c0, c1, mono, back;

	a = open_pf(-1, 0, 0);
	ASSERT_GE(a, 0);
	up = perf_rb_mmap(a, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);

	/* to itself */
	EXPECT_EQ(-1, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);

	/* per-cpu events on different CPUs, and task vs cpu */
	attr_sw(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 1000000;
	c0 = sys_perf_event_open(&attr, -1, 0, -1, 0);
	ASSERT_GE(c0, 0);
	ub0 = perf_rb_mmap(c0, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, ub0);
	EXPECT_EQ(-1, ioctl(c0, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, c0));
	EXPECT_EQ(EINVAL, errno);
	/* (the cross-CPU case needs a second CPU) */
	c1 = -1;
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		c1 = sys_perf_event_open(&attr, -1, 1, -1, 0);
		ASSERT_GE(c1, 0);
		EXPECT_EQ(-1, ioctl(c1, PERF_EVENT_IOC_SET_OUTPUT, c0));
		EXPECT_EQ(EINVAL, errno);
	}

	/* different clocks */
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC_RAW;
	mono = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(mono, 0);
	EXPECT_EQ(-1, ioctl(mono, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);

	/* backward vs forward */
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.write_backward = 1;
	back = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(back, 0);
	EXPECT_EQ(-1, ioctl(back, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);

	/* an event that has its own mapping cannot be redirected */
	b = open_pf(-1, 0, 0);
	ASSERT_GE(b, 0);
	ub = perf_rb_mmap(b, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, ub);
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));
	EXPECT_EQ(EINVAL, errno);
	munmap(ub, 2 * pg);
	/* ... but after unmapping it can */
	EXPECT_EQ(0, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, a));

	/* not a perf fd */
	EXPECT_EQ(-1, ioctl(b, PERF_EVENT_IOC_SET_OUTPUT, 0));
	EXPECT_EQ(EBADF, errno);

	close(b);
	close(back);
	close(mono);
	if (c1 >= 0)
		close(c1);
	munmap(ub0, 2 * pg);
	close(c0);
	munmap(up, 2 * pg);
	close(a);
}

TEST(rb_pause_output_counts_lost)
{
	long pg = page_sz();
	struct perf_event_mmap_page *up;
	struct rec_lost lost;
	__u64 id = 0, rf[2];
	int fd = open_pf(-1, 0, PERF_FORMAT_LOST);

	ASSERT_GE(fd, 0);
	ioctl(fd, PERF_EVENT_IOC_ID, &id);
	/* no buffer yet */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	up = perf_rb_mmap(fd, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	fault_pages(fd, 2);
	EXPECT_EQ(2 * REC_SZ, perf_rb_head(up));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	fault_pages(fd, 5);
	EXPECT_EQ(2 * REC_SZ, perf_rb_head(up));
	ASSERT_EQ(sizeof(rf), read(fd, rf, sizeof(rf)));
	EXPECT_EQ(7, rf[0]);
	EXPECT_EQ(5, rf[1]);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	fault_pages(fd, 1);
	EXPECT_EQ(3 * REC_SZ + sizeof(lost), perf_rb_head(up));
	perf_rb_copy(up, 2 * REC_SZ, &lost, sizeof(lost));
	EXPECT_EQ(PERF_RECORD_LOST, lost.h.type);
	EXPECT_EQ(id, lost.id);
	EXPECT_EQ(5, lost.lost);
	munmap(up, 2 * pg);
	close(fd);
}

TEST(rb_poll_wakeup_events)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	struct pollfd pfd;
	void *up;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_ADDR;
	attr.exclude_kernel = 1;
	attr.wakeup_events = 4;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);

	/* without a buffer, poll reports POLLHUP */
	pfd.fd = fd;
	pfd.events = POLLIN;
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLHUP, pfd.revents);

	up = perf_rb_mmap(fd, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fault_pages(fd, 3);
	EXPECT_EQ(3 * REC_SZ, perf_rb_head(up));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fault_pages(fd, 1);
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN, pfd.revents & (POLLIN | POLLHUP));
	/* the readiness is consumed by poll */
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fault_pages(fd, 3);
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fault_pages(fd, 1);
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	munmap(up, 3 * pg);
	close(fd);
}

TEST(rb_poll_wakeup_watermark)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	struct pollfd pfd;
	void *up;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_ADDR;
	attr.exclude_kernel = 1;
	attr.watermark = 1;
	attr.wakeup_watermark = 5 * REC_SZ;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	pfd.fd = fd;
	pfd.events = POLLIN;
	/* wakeup once more than wakeup_watermark bytes are pending */
	fault_pages(fd, 5);
	EXPECT_EQ(5 * REC_SZ, perf_rb_head(up));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	fault_pages(fd, 1);
	EXPECT_EQ(1, poll(&pfd, 1, 0));
	EXPECT_EQ(POLLIN, pfd.revents & (POLLIN | POLLHUP));
	munmap(up, 3 * pg);
	close(fd);
}

TEST(rb_poll_hup_after_monitored_child_exits)
{
	long pg = page_sz();
	struct perf_event_attr attr;
	struct pollfd pfd;
	int go[2], status;
	void *up;
	pid_t pid;
	int fd;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_TID;
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	pfd.fd = fd;
	pfd.events = POLLIN;
	EXPECT_EQ(0, poll(&pfd, 1, 0));
	ASSERT_EQ(1, write(go[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(1, poll(&pfd, 1, 1000));
	EXPECT_NE(0, pfd.revents & POLLHUP);
	close(go[1]);
	munmap(up, 2 * pg);
	close(fd);
}

/*
 * With O_ASYNC and an owner set, every overflow queues a SIGIO (not only
 * wakeups); F_SETSIG makes it carry si_fd and si_code POLL_IN.
 */
TEST(rb_sigio_on_overflow_with_o_async)
{
	long pg = page_sz();
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	sigset_t set, old;
	siginfo_t si;
	void *up;
	int fd, sig;

	fd = open_pf(-1, 0, 0);
	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 1, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, &old));
	ASSERT_EQ(0, fcntl(fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(fd, F_SETSIG, SIGIO));

	/* owner set but no O_ASYNC: no signal */
	fault_pages(fd, 1);
	EXPECT_EQ(-1, sigtimedwait(&set, &si, &ts));
	EXPECT_EQ(EAGAIN, errno);

	ASSERT_EQ(0, fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC));
	fault_pages(fd, 1);
	ts.tv_sec = 2;
	ts.tv_nsec = 0;
	sig = sigtimedwait(&set, &si, &ts);
	EXPECT_EQ(SIGIO, sig);
	if (sig == SIGIO) {
		EXPECT_EQ(fd, si.si_fd);
		EXPECT_EQ(POLL_IN, si.si_code);
	}
	EXPECT_EQ(2 * REC_SZ, perf_rb_head(up));
	sigprocmask(SIG_SETMASK, &old, NULL);
	munmap(up, 2 * pg);
	close(fd);
}

TEST(rb_munmap_then_remap_gets_fresh_buffer)
{
	long pg = page_sz();
	struct perf_event_mmap_page *up, *up2;
	int fd = open_pf(-1, 0, 0);

	ASSERT_GE(fd, 0);
	up = perf_rb_mmap(fd, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	/* a second mapping of the same size shares the buffer ... */
	up2 = mmap(NULL, 3 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, up2);
	/* ... a different size is refused while it exists */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 5 * pg, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	fault_pages(fd, 2);
	EXPECT_EQ(2 * REC_SZ, perf_rb_head(up));
	EXPECT_EQ(2 * REC_SZ, perf_rb_head(up2));
	munmap(up2, 3 * pg);
	/* still mapped once: the buffer survives */
	fault_pages(fd, 1);
	EXPECT_EQ(3 * REC_SZ, perf_rb_head(up));
	munmap(up, 3 * pg);

	/* last unmap frees it: a new mapping, any valid size, starts empty */
	fault_pages(fd, 1);
	up = perf_rb_mmap(fd, 4, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	EXPECT_EQ(0, up->data_head);
	EXPECT_EQ((__u64)(4 * pg), up->data_size);
	fault_pages(fd, 1);
	EXPECT_EQ(REC_SZ, perf_rb_head(up));
	munmap(up, 5 * pg);
	close(fd);
}

/*
 * An AUX area for an event whose PMU has none (cpu-clock): with the data
 * area mapped and the user page's aux_offset and aux_size set, the
 * mapping at aux_offset is EOPNOTSUPP; a geometry that is wrong anyway
 * is EINVAL first, as is any AUX mapping before the data area.  The
 * failures leave the buffer alone: unmapped, it goes, and one of another
 * size maps.
 */
TEST(rb_aux_mmap_no_aux_pmu)
{
	struct perf_event_mmap_page *up;
	struct perf_event_attr attr;
	long pg = page_sz();
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_CPU_CLOCK);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 3, PROT_READ | PROT_WRITE,
					MAP_SHARED));
	up = perf_rb_mmap(fd, 2, PROT_READ | PROT_WRITE);
	ASSERT_NE(NULL, up);
	up->aux_offset = 3 * pg;
	up->aux_size = 4 * pg;
	EXPECT_EQ(EOPNOTSUPP, perf_mmap_err(fd, 4, 3, PROT_READ | PROT_WRITE,
					    MAP_SHARED));
	EXPECT_EQ(EOPNOTSUPP, perf_mmap_err(fd, 4, 3, PROT_READ, MAP_SHARED));
	/* Wrong whatever the PMU */
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 4, PROT_READ | PROT_WRITE,
					MAP_SHARED));
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 2, 3, PROT_READ | PROT_WRITE,
					MAP_SHARED));
	up->aux_size = 3 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 3, 3, PROT_READ | PROT_WRITE,
					MAP_SHARED));
	up->aux_offset = 2 * pg;
	up->aux_size = 4 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 2, PROT_READ | PROT_WRITE,
					MAP_SHARED));
	munmap(up, 3 * pg);
	up = perf_rb_mmap(fd, 4, PROT_READ | PROT_WRITE);
	EXPECT_NE(NULL, up) TH_LOG("a new buffer: %s", strerror(errno));
	if (up)
		munmap(up, 5 * pg);
	close(fd);
}

/*
 * The signal a child takes storing into page @page of @fd's buffer (1
 * data page), mapped writable and read first; 0 if the store is let be.
 */
static int rb_store_sig(int fd, int page)
{
	char *m;
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		m = perf_rb_mmap(fd, 1, PROT_READ | PROT_WRITE);
		if (!m)
			_exit(100);
		m[page * page_sz() + 8] = 1;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status);
}

/*
 * In a writable mapping only the user page takes stores (data_tail and
 * the AUX fields); a store into a data page is SIGBUS, on stock too:
 * the records are the kernel's.
 */
TEST(rb_data_pages_refuse_stores)
{
	struct perf_event_attr attr;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_CPU_CLOCK);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, rb_store_sig(fd, 0));
	EXPECT_EQ(SIGBUS, rb_store_sig(fd, 1));
	close(fd);
}

TEST_HARNESS_MAIN
