// SPDX-License-Identifier: GPL-2.0
/*
 * read(2) on a perf_event fd: every read_format layout, group reads, the
 * buffer-size check and the time_enabled/time_running bookkeeping.
 *
 * Only software events are used (task-clock, cpu-clock, page-faults,
 * context-switches, dummy), so everything here runs on x86_64 TCG, which
 * has no hardware PMU, as well as on arm64.
 *
 * Layout (perf_event_open(2), include/uapi/linux/perf_event.h):
 *   single:  { value; [time_enabled]; [time_running]; [id]; [lost]; }
 *   group:   { nr; [time_enabled]; [time_running];
 *              { value; [id]; [lost]; } cntr[nr]; }   leader first, then
 *            the siblings in the order they were added to the group.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#define ALL_FMT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
		 PERF_FORMAT_ID | PERF_FORMAT_LOST)
#define TIMES_FMT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* Open a software event on the calling thread with a read_format. */
static int open_fmt(__u64 config, __u64 fmt, int disabled, int group_fd)
{
	struct perf_event_attr attr;

	attr_sw(&attr, config);
	attr.disabled = disabled;
	attr.read_format = fmt;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

static __u64 event_id(int fd)
{
	__u64 id = 0;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
		return 0;
	return id;
}

/* Fault in n fresh anonymous pages: at least n page faults. */
static void touch_pages(int n)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < n; i++)
		((volatile char *)p)[i * pg] = 1;
	munmap(p, n * pg);
}

/* Size in bytes the kernel documents for a read of this format. */
static size_t read_size(__u64 fmt, int nr)
{
	size_t entry = 8, hdr = 0;

	if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
		hdr += 8;
	if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
		hdr += 8;
	if (fmt & PERF_FORMAT_ID)
		entry += 8;
	if (fmt & PERF_FORMAT_LOST)
		entry += 8;
	if (fmt & PERF_FORMAT_GROUP)
		return hdr + 8 + nr * entry;
	return hdr + entry;
}

TEST(read_format_none_one_value)
{
	__u64 buf[8];
	int fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK, 0, 0, -1);

	ASSERT_GE(fd, 0);
	burn_cpu_ns(2000000);
	memset(buf, 0xa5, sizeof(buf));
	/* A larger buffer is fine; exactly one u64 comes back. */
	ASSERT_EQ(8, read(fd, buf, sizeof(buf)));
	EXPECT_GT(buf[0], 0);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[1]);
	close(fd);
}

TEST(read_format_time_enabled)
{
	__u64 buf[4];
	int fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK,
			  PERF_FORMAT_TOTAL_TIME_ENABLED, 0, -1);

	ASSERT_GE(fd, 0);
	burn_cpu_ns(2000000);
	ASSERT_EQ(16, read(fd, buf, sizeof(buf)));
	EXPECT_GT(buf[0], 0);
	EXPECT_GT(buf[1], 0);
	close(fd);
}

TEST(read_format_time_running)
{
	__u64 buf[4];
	int fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK,
			  PERF_FORMAT_TOTAL_TIME_RUNNING, 0, -1);

	ASSERT_GE(fd, 0);
	burn_cpu_ns(2000000);
	ASSERT_EQ(16, read(fd, buf, sizeof(buf)));
	EXPECT_GT(buf[0], 0);
	EXPECT_GT(buf[1], 0);
	close(fd);
}

TEST(read_format_id_matches_ioc_id)
{
	__u64 buf[4], id1, id2;
	int fd1 = open_fmt(PERF_COUNT_SW_TASK_CLOCK, PERF_FORMAT_ID, 1, -1);
	int fd2 = open_fmt(PERF_COUNT_SW_TASK_CLOCK, PERF_FORMAT_ID, 1, -1);

	ASSERT_GE(fd1, 0);
	ASSERT_GE(fd2, 0);
	id1 = event_id(fd1);
	id2 = event_id(fd2);
	EXPECT_NE(0, id1);
	EXPECT_NE(id1, id2);
	ASSERT_EQ(16, read(fd1, buf, sizeof(buf)));
	EXPECT_EQ(0, buf[0]);
	EXPECT_EQ(id1, buf[1]);
	ASSERT_EQ(16, read(fd2, buf, sizeof(buf)));
	EXPECT_EQ(id2, buf[1]);
	close(fd1);
	close(fd2);
}

TEST(read_format_lost_zero_for_counting)
{
	__u64 buf[4];
	int fd = open_fmt(PERF_COUNT_SW_PAGE_FAULTS, PERF_FORMAT_LOST, 0, -1);

	ASSERT_GE(fd, 0);
	touch_pages(8);
	ASSERT_EQ(16, read(fd, buf, sizeof(buf)));
	EXPECT_GE(buf[0], 8);
	EXPECT_EQ(0, buf[1]);
	close(fd);
}

TEST(read_format_all_combined_layout)
{
	__u64 buf[8];
	int fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK, ALL_FMT, 0, -1);

	ASSERT_GE(fd, 0);
	burn_cpu_ns(2000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	memset(buf, 0xa5, sizeof(buf));
	/* value, time_enabled, time_running, id, lost */
	ASSERT_EQ(40, read(fd, buf, sizeof(buf)));
	EXPECT_GT(buf[0], 0);
	EXPECT_GT(buf[1], 0);
	EXPECT_GT(buf[2], 0);
	EXPECT_LE(buf[2], buf[1]);
	EXPECT_EQ(event_id(fd), buf[3]);
	EXPECT_EQ(0, buf[4]);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[5]);
	close(fd);
}

/*
 * Group read: nr, one set of times, then {value, id, lost} for the leader
 * and each sibling in creation order.  Compared against each member's own
 * non-group read once the whole group is stopped, so values must match
 * exactly and in that order.
 */
TEST(read_group_layout_and_order)
{
	__u64 cfg[4] = { PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
			 PERF_COUNT_SW_DUMMY, PERF_COUNT_SW_CONTEXT_SWITCHES };
	__u64 fmt = PERF_FORMAT_GROUP | ALL_FMT;
	__u64 buf[32], one[32];
	int fd[4], i;

	for (i = 0; i < 4; i++) {
		fd[i] = open_fmt(cfg[i], fmt, i == 0, i ? fd[0] : -1);
		ASSERT_GE(fd[i], 0);
	}
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu_ns(1000000);
	touch_pages(16);
	usleep(1000);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	memset(buf, 0xa5, sizeof(buf));
	ASSERT_EQ(read_size(fmt, 4), read(fd[0], buf, sizeof(buf)));
	ASSERT_EQ(4 * 24 + 24, read_size(fmt, 4));
	EXPECT_EQ(4, buf[0]);
	EXPECT_GT(buf[1], 0);		/* time_enabled */
	EXPECT_GT(buf[2], 0);		/* time_running */
	for (i = 0; i < 4; i++) {
		__u64 *e = &buf[3 + 3 * i];

		/* Leader first, then siblings in the order they were added. */
		EXPECT_EQ(event_id(fd[i]), e[1]);
		EXPECT_EQ(0, e[2]);
		/* Any member's read returns the same whole-group image. */
		ASSERT_EQ(read_size(fmt, 4), read(fd[i], one, sizeof(one)));
		EXPECT_EQ(0, memcmp(buf, one, read_size(fmt, 4)));
	}
	EXPECT_GT(buf[3], 0);		/* task-clock */
	EXPECT_GE(buf[6], 16);		/* page-faults */
	EXPECT_EQ(0, buf[9]);		/* dummy */
	EXPECT_GE(buf[12], 1);		/* context-switches (usleep) */
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[15]);
	for (i = 0; i < 4; i++)
		close(fd[i]);
}

/* Values in a group read equal each member's own read (group stopped). */
TEST(read_group_values_match_member_reads)
{
	__u64 cfg[3] = { PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_TASK_CLOCK,
			 PERF_COUNT_SW_CPU_CLOCK };
	__u64 buf[16], v;
	int fd[3], gfd, i;

	for (i = 0; i < 3; i++) {
		fd[i] = open_fmt(cfg[i], 0, i == 0, i ? fd[0] : -1);
		ASSERT_GE(fd[i], 0);
	}
	/* A fourth member that reads the group (no GROUP on the others). */
	gfd = open_fmt(PERF_COUNT_SW_DUMMY, PERF_FORMAT_GROUP, 0, fd[0]);
	ASSERT_GE(gfd, 0);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(10);
	burn_cpu_ns(1000000);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));

	/* Reading the group through a sibling returns the whole group. */
	ASSERT_EQ(8 + 4 * 8, read(gfd, buf, sizeof(buf)));
	EXPECT_EQ(4, buf[0]);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, read_count(fd[i], &v));
		EXPECT_EQ(v, buf[1 + i]);
	}
	EXPECT_GE(buf[1], 10);
	EXPECT_GT(buf[2], 0);
	EXPECT_GT(buf[3], 0);
	EXPECT_EQ(0, buf[4]);
	for (i = 0; i < 3; i++)
		close(fd[i]);
	close(gfd);
}

/*
 * The layout of a group read follows the read_format of the fd being
 * read, not the leader's: the same group read through two members with
 * different formats.
 */
TEST(read_group_layout_follows_reading_fd)
{
	__u64 a[16], b[16];
	int lead, sib;

	lead = open_fmt(PERF_COUNT_SW_PAGE_FAULTS, PERF_FORMAT_GROUP, 1, -1);
	ASSERT_GE(lead, 0);
	sib = open_fmt(PERF_COUNT_SW_DUMMY,
		       PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_RUNNING,
		       0, lead);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(4);
	burn_cpu_ns(2000000);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));

	/* nr, {value} x 2 */
	ASSERT_EQ(24, read(lead, a, sizeof(a)));
	EXPECT_EQ(2, a[0]);
	EXPECT_GE(a[1], 4);
	EXPECT_EQ(0, a[2]);
	/* nr, time_running, {value, id} x 2 */
	ASSERT_EQ(48, read(sib, b, sizeof(b)));
	EXPECT_EQ(2, b[0]);
	EXPECT_GT(b[1], 0);
	EXPECT_EQ(a[1], b[2]);
	EXPECT_EQ(event_id(lead), b[3]);
	EXPECT_EQ(0, b[4]);
	EXPECT_EQ(event_id(sib), b[5]);
	close(sib);
	close(lead);
}

TEST(read_too_small_buffer_enospc)
{
	__u64 buf[32];
	int fd, s1, s2;

	fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK, 0, 1, -1);
	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, read(fd, buf, 7));
	EXPECT_EQ(ENOSPC, errno);
	errno = 0;
	EXPECT_EQ(-1, read(fd, buf, 0));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(8, read(fd, buf, 8));
	close(fd);

	fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK, ALL_FMT, 1, -1);
	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, read(fd, buf, 39));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(40, read(fd, buf, 40));
	close(fd);

	/* Group: the size grows with each sibling added. */
	s1 = open_fmt(PERF_COUNT_SW_TASK_CLOCK, PERF_FORMAT_GROUP | PERF_FORMAT_ID, 1, -1);
	ASSERT_GE(s1, 0);
	EXPECT_EQ(24, read(s1, buf, sizeof(buf)));
	s2 = open_fmt(PERF_COUNT_SW_DUMMY, 0, 1, s1);
	ASSERT_GE(s2, 0);
	errno = 0;
	EXPECT_EQ(-1, read(s1, buf, 24));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(40, read(s1, buf, 40));
	EXPECT_EQ(2, buf[0]);
	close(s2);
	close(s1);
}

TEST(read_disabled_event_times_zero)
{
	__u64 buf[4];
	int fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK, TIMES_FMT, 1, -1);

	ASSERT_GE(fd, 0);
	burn_cpu_ns(2000000);
	ASSERT_EQ(24, read(fd, buf, sizeof(buf)));
	EXPECT_EQ(0, buf[0]);
	EXPECT_EQ(0, buf[1]);
	EXPECT_EQ(0, buf[2]);
	close(fd);
}

/*
 * A lone software event on its own task is always scheduled while the task
 * runs, so it is running for (about) all the time it is enabled.  The
 * difference is what elapses between the state updates of one
 * enable/disable, so allow a small slack.
 */
TEST(read_sw_event_enabled_close_to_running)
{
	__u64 buf[4];
	int fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK, TIMES_FMT, 1, -1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu_ns(5000000);
	usleep(2000);
	burn_cpu_ns(5000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(24, read(fd, buf, sizeof(buf)));
	EXPECT_GE(buf[1], 10000000);
	EXPECT_LE(buf[2], buf[1]);
	EXPECT_GE(buf[2], buf[1] - buf[1] / 20);
	close(fd);
}

/*
 * A sibling that is itself enabled does not count while its leader is
 * disabled, and its times do not advance either: its effective state is
 * the leader's.
 */
TEST(read_sibling_of_disabled_leader_counts_nothing)
{
	__u64 buf[4];
	int lead, sib;

	lead = open_fmt(PERF_COUNT_SW_TASK_CLOCK, 0, 1, -1);
	ASSERT_GE(lead, 0);
	sib = open_fmt(PERF_COUNT_SW_PAGE_FAULTS, TIMES_FMT, 0, lead);
	ASSERT_GE(sib, 0);
	touch_pages(8);
	burn_cpu_ns(1000000);
	ASSERT_EQ(24, read(sib, buf, sizeof(buf)));
	EXPECT_EQ(0, buf[0]);
	EXPECT_EQ(0, buf[1]);
	EXPECT_EQ(0, buf[2]);

	/* Enabling only the leader lets the already enabled sibling run. */
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	/* Span a clock tick: the x86 TCG guest's clock is tick-granular. */
	burn_cpu_ns(2000000);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(24, read(sib, buf, sizeof(buf)));
	EXPECT_GE(buf[0], 8);
	EXPECT_GT(buf[1], 0);
	EXPECT_GT(buf[2], 0);
	close(sib);
	close(lead);
}

TEST(read_time_enabled_frozen_while_disabled)
{
	__u64 a[3], b[3], c[3];
	int fd = open_fmt(PERF_COUNT_SW_TASK_CLOCK, TIMES_FMT, 1, -1);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu_ns(3000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(24, read(fd, a, sizeof(a)));
	EXPECT_GT(a[1], 0);

	burn_cpu_ns(3000000);
	usleep(2000);
	ASSERT_EQ(24, read(fd, b, sizeof(b)));
	EXPECT_EQ(a[0], b[0]);
	EXPECT_EQ(a[1], b[1]);
	EXPECT_EQ(a[2], b[2]);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu_ns(3000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(24, read(fd, c, sizeof(c)));
	EXPECT_GT(c[0], b[0]);
	EXPECT_GT(c[1], b[1]);
	EXPECT_GT(c[2], b[2]);
	/* At least the 3 ms burnt while enabled was added. */
	EXPECT_GE(c[1] - b[1], 2500000);
	close(fd);
}

/*
 * Closing a group leader turns its siblings into singleton groups that
 * keep counting; a group read on the former sibling then reports only
 * itself.
 */
TEST(read_sibling_after_leader_closed)
{
	__u64 buf[8], before;
	int lead, sib;

	/*
	 * The group is built with the leader disabled and started with one
	 * ENABLE of the leader: every member is then scheduled together.
	 */
	lead = open_fmt(PERF_COUNT_SW_TASK_CLOCK, 0, 1, -1);
	ASSERT_GE(lead, 0);
	sib = open_fmt(PERF_COUNT_SW_PAGE_FAULTS, PERF_FORMAT_GROUP | PERF_FORMAT_ID, 0, lead);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(4);
	ASSERT_EQ(8 + 2 * 16, read(sib, buf, sizeof(buf)));
	EXPECT_EQ(2, buf[0]);
	EXPECT_EQ(event_id(lead), buf[2]);
	EXPECT_EQ(event_id(sib), buf[4]);
	EXPECT_GE(buf[3], 4);

	close(lead);
	ASSERT_EQ(8 + 16, read(sib, buf, sizeof(buf)));
	EXPECT_EQ(1, buf[0]);
	EXPECT_EQ(event_id(sib), buf[2]);
	before = buf[1];
	EXPECT_GE(before, 4);
	touch_pages(8);
	ASSERT_EQ(8 + 16, read(sib, buf, sizeof(buf)));
	EXPECT_GE(buf[1], before + 8);
	close(sib);
}

static void burn_5ms(void)
{
	burn_cpu_ns(5000000);
}

/*
 * An event on another task that has exited still reads: it returns the
 * final count, which no longer changes.
 */
TEST(read_exited_child_final_value)
{
	__u64 a[3], b[3];
	struct perf_event_attr attr;
	int go, fd, status;
	pid_t pid;

	pid = fork_held(&go, burn_5ms);
	ASSERT_GE(pid, 0);
	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	attr.read_format = TIMES_FMT;
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, release_held(go));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	ASSERT_EQ(24, read(fd, a, sizeof(a)));
	EXPECT_GE(a[0], 4000000);
	EXPECT_GT(a[1], 0);
	EXPECT_GT(a[2], 0);
	usleep(5000);
	ASSERT_EQ(24, read(fd, b, sizeof(b)));
	EXPECT_EQ(a[0], b[0]);
	EXPECT_EQ(a[1], b[1]);
	EXPECT_EQ(a[2], b[2]);
	close(fd);
	close(go);
}

/*
 * Software events in one group are scheduled together: after the leader
 * is disabled every member reports the same time_enabled and
 * time_running, and they equal the group read's single pair of times.
 */
TEST(read_group_sw_members_share_times)
{
	__u64 cfg[4] = { PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
			 PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES };
	__u64 t[4][3], g[16], sw0, sw1;
	int fd[4], gfd, i;

	for (i = 0; i < 4; i++) {
		fd[i] = open_fmt(cfg[i], TIMES_FMT, i == 0, i ? fd[0] : -1);
		ASSERT_GE(fd[i], 0);
	}
	sw0 = thread_switches();
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu_ns(2000000);
	touch_pages(4);
	usleep(1000);
	burn_cpu_ns(2000000);
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_DISABLE, 0));
	sw1 = thread_switches();

	for (i = 0; i < 4; i++)
		ASSERT_EQ(24, read(fd[i], t[i], sizeof(t[i])));
	EXPECT_GT(t[0][1], 0);
	EXPECT_GT(t[0][2], 0);
	for (i = 1; i < 4; i++) {
		EXPECT_EQ(t[0][1], t[i][1]);
		EXPECT_EQ(t[0][2], t[i][2]);
	}
	EXPECT_GT(t[0][0], 0);
	EXPECT_GT(t[1][0], 0);
	EXPECT_GE(t[2][0], 4);
	/*
	 * Whether usleep(1000) switches depends on how fast the guest runs
	 * (on a loaded host the timer can expire before the task blocks),
	 * so compare with the scheduler's own count: only a switch between
	 * a getrusage() and an ioctl() can be missing.
	 */
	EXPECT_LE(t[3][0], sw1 - sw0);
	EXPECT_GE(t[3][0] + 2, sw1 - sw0);

	/* The same through a group read from another fd in the group. */
	gfd = open_fmt(PERF_COUNT_SW_DUMMY, PERF_FORMAT_GROUP | TIMES_FMT, 0, fd[0]);
	ASSERT_GE(gfd, 0);
	ASSERT_EQ(8 + 16 + 5 * 8, read(gfd, g, sizeof(g)));
	EXPECT_EQ(5, g[0]);
	EXPECT_EQ(t[0][1], g[1]);
	EXPECT_EQ(t[0][2], g[2]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(t[i][0], g[3 + i]);
	EXPECT_EQ(0, g[7]);
	close(gfd);
	for (i = 0; i < 4; i++)
		close(fd[i]);
}

/* Reading does not consume anything: two reads of a stopped event match. */
TEST(read_is_idempotent_on_stopped_event)
{
	__u64 a[5], b[5];
	int fd = open_fmt(PERF_COUNT_SW_PAGE_FAULTS, ALL_FMT, 0, -1);

	ASSERT_GE(fd, 0);
	touch_pages(4);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(40, read(fd, a, sizeof(a)));
	ASSERT_EQ(40, read(fd, b, sizeof(b)));
	EXPECT_EQ(0, memcmp(a, b, sizeof(a)));
	EXPECT_GE(a[0], 4);
	close(fd);
}

/*
 * A lone cpu-clock:u is never multiplexed, so however it was attached its
 * time_enabled equals its time_running exactly, not just nearly: both
 * advance from the same instants.  This is what perf test "Event times"
 * checks; the five cases are its five ways of attaching.  ENABLE on an
 * event that is already enabled must not disturb either time.
 */
static int open_clock_u(pid_t pid, int cpu, int disabled, int on_exec)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = disabled;
	attr.enable_on_exec = on_exec;
	attr.read_format = TIMES_FMT;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

static void expect_exact_times(struct __test_metadata *_metadata, int fd)
{
	__u64 buf[3];

	ASSERT_EQ(24, read(fd, buf, sizeof(buf)));
	EXPECT_GT(buf[1], 0);
	EXPECT_EQ(buf[1], buf[2])
		TH_LOG("enabled %llu running %llu", (unsigned long long)buf[1],
		       (unsigned long long)buf[2]);
}

static void exec_true(void)
{
	execlp("true", "true", (char *)NULL);
	_exit(127);
}

TEST(read_times_exact_enable_on_exec_child)
{
	int go, fd, status;
	pid_t pid;

	pid = fork_held(&go, exec_true);
	ASSERT_GE(pid, 0);
	fd = open_clock_u(pid, -1, 1, 1);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, release_held(go));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	expect_exact_times(_metadata, fd);
	close(fd);
	close(go);
}

static void times_exact_attached(struct __test_metadata *_metadata,
				 pid_t pid, int cpu, int disabled)
{
	int fd = open_clock_u(pid, cpu, disabled, 0);

	ASSERT_GE(fd, 0);
	if (disabled)
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu_ns(20000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	expect_exact_times(_metadata, fd);
	close(fd);
}

TEST(read_times_exact_current_enabled)
{
	times_exact_attached(_metadata, 0, -1, 0);
}

TEST(read_times_exact_current_disabled)
{
	times_exact_attached(_metadata, 0, -1, 1);
}

TEST(read_times_exact_cpu0_enabled)
{
	times_exact_attached(_metadata, -1, 0, 0);
}

TEST(read_times_exact_cpu0_disabled)
{
	times_exact_attached(_metadata, -1, 0, 1);
}

TEST_HARNESS_MAIN
