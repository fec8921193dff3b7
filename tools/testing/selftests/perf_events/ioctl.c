// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl(2) on a perf_event fd, and prctl(PR_TASK_PERF_EVENTS_*).
 *
 * Every errno asserted here is the one _perf_ioctl() (kernel/events/core.c)
 * returns for the case:
 *   ENABLE/DISABLE/RESET  act on the event, or with PERF_IOC_FLAG_GROUP on
 *                         the whole group of the event (via its leader)
 *   REFRESH               EINVAL unless a sampling, non-inherited event
 *   PERIOD                EFAULT bad pointer; EINVAL non-sampling, 0,
 *                         bit 63 set, or (freq) above max_sample_rate
 *   SET_OUTPUT            -1 detaches; EBADF not a perf fd; EINVAL self,
 *                         other CPU, other task, no buffer on the target,
 *                         own buffer mapped, different clock/direction
 *   SET_FILTER            EINVAL on an event that is neither a tracepoint
 *                         nor has address filters
 *   ID                    writes the id; EFAULT bad pointer
 *   SET_BPF               EBADF bad fd; EINVAL fd not a bpf program or
 *                         wrong program type; EEXIST second program
 *   PAUSE_OUTPUT          EINVAL without a ring buffer
 *   QUERY_BPF             EINVAL non-tracepoint; E2BIG ids_len > 64
 *   MODIFY_ATTRIBUTES     EINVAL type differs; EOPNOTSUPP for any type
 *                         but breakpoints
 *   anything else         ENOTTY
 *
 * Software events only, except the breakpoint ones (the breakpoint PMU is
 * present on both x86_64 and arm64 guests).  Groups use members of the
 * one software PMU (page-faults, minor-faults, context-switches, dummy).
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include <linux/bpf.h>

#define TIMES_FMT (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

static long page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* Fault in n fresh anonymous pages: at least n page faults. */
static void touch_pages(int n)
{
	long pg = page_size();
	char *p = mmap(NULL, n * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (p == MAP_FAILED)
		return;
	for (i = 0; i < n; i++)
		((volatile char *)p)[i * pg] = 1;
	munmap(p, n * pg);
}

static __u64 count_of(int fd)
{
	__u64 v = ~0ULL;

	if (read_count(fd, &v))
		return ~0ULL;
	return v;
}

/* A disabled page-fault sampling event on the calling thread. */
static int open_pf_sampling(__u64 period, __u64 read_format)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	attr.read_format = read_format;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

#define RB_PAGES 8

static void *rb_map(int fd)
{
	void *p = mmap(NULL, (RB_PAGES + 1) * page_size(),
		       PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void rb_unmap(void *p)
{
	munmap(p, (RB_PAGES + 1) * page_size());
}

static __u64 rb_head(void *p)
{
	struct perf_event_mmap_page *pg = p;

	return __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* Load "r0 = ret; exit" as a program of the given type; fd or -1. */
static int load_trivial_prog(enum bpf_prog_type type, int ret)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = ret },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = 2;
	attr.license = (__u64)(unsigned long)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* Open a syscall-entry tracepoint counting on the calling thread. */
static int open_tracepoint(const char *name)
{
	struct perf_event_attr attr;
	long id = tracepoint_id(name);

	if (id < 0)
		return -2;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

#define TP_GETPPID "syscalls/sys_enter_getppid"

/* ---- ENABLE / DISABLE / RESET ---- */

TEST(ioctl_enable_starts_counting)
{
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1);

	ASSERT_GE(fd, 0);
	touch_pages(8);
	EXPECT_EQ(0, count_of(fd));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	EXPECT_GE(count_of(fd), 8);
	/* Enabling an enabled event is a no-op that succeeds. */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	close(fd);
}

TEST(ioctl_disable_freezes_count)
{
	__u64 a, b;
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);

	ASSERT_GE(fd, 0);
	touch_pages(8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	a = count_of(fd);
	EXPECT_GE(a, 8);
	touch_pages(8);
	b = count_of(fd);
	EXPECT_EQ(a, b);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	/* Re-enabling continues from the frozen value. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	EXPECT_GE(count_of(fd), a + 8);
	close(fd);
}

/* RESET zeroes the count only; the times are left alone. */
TEST(ioctl_reset_zeroes_count_not_times)
{
	__u64 a[3], b[3];
	struct perf_event_attr attr;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.read_format = TIMES_FMT;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(32);
	burn_cpu_ns(2000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(24, read(fd, a, sizeof(a)));
	EXPECT_GE(a[0], 32);
	EXPECT_GT(a[1], 0);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(24, read(fd, b, sizeof(b)));
	EXPECT_EQ(0, b[0]);
	EXPECT_EQ(a[1], b[1]);
	EXPECT_EQ(a[2], b[2]);

	/* On a running event it restarts the count from zero. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(32);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	touch_pages(4);
	ASSERT_EQ(24, read(fd, b, sizeof(b)));
	EXPECT_GE(b[0], 4);
	EXPECT_LT(b[0], 32);
	close(fd);
}

/* ---- REFRESH ---- */

TEST(ioctl_refresh_non_sampling_einval)
{
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1);

	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	/* And it was not enabled as a side effect. */
	touch_pages(4);
	EXPECT_EQ(0, count_of(fd));
	close(fd);
}

TEST(ioctl_refresh_inherited_einval)
{
	struct perf_event_attr attr;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.inherit = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * REFRESH(n) on a sampling event enables it for n more overflows; the
 * n-th overflow disables it again.
 */
TEST(ioctl_refresh_enables_for_n_overflows)
{
	__u64 a, b;
	int fd = open_pf_sampling(1, 0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 2));
	touch_pages(64);
	/* The disable is done from irq_work: give it a moment. */
	usleep(10000);
	a = count_of(fd);
	EXPECT_GE(a, 2);
	EXPECT_LT(a, 64);
	touch_pages(16);
	b = count_of(fd);
	EXPECT_EQ(a, b);

	/* Another REFRESH enables it again. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	touch_pages(16);
	usleep(10000);
	EXPECT_GT(count_of(fd), b);
	close(fd);
}

/* ---- PERIOD ---- */

TEST(ioctl_period_non_sampling_einval)
{
	__u64 p = 1000;
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1);

	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(ioctl_period_bad_values)
{
	__u64 p;
	int fd = open_pf_sampling(1000, 0);

	ASSERT_GE(fd, 0);
	p = 0;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(EINVAL, errno);
	p = 1ULL << 63;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(EINVAL, errno);
	p = ~0ULL;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	p = (1ULL << 63) - 1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	p = 1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	close(fd);
}

/* With attr.freq the value is a frequency, capped by max_sample_rate. */
TEST(ioctl_period_freq_capped_by_max_sample_rate)
{
	struct perf_event_attr attr;
	long max = read_long("/proc/sys/kernel/perf_event_max_sample_rate");
	__u64 p;
	int fd;

	ASSERT_GT(max, 1);
	/*
	 * page-faults, not cpu-clock: the hrtimer clocks turn a frequency
	 * into a fixed period at open and stop being freq events.
	 */
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.freq = 1;
	attr.sample_freq = 10;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	p = max + 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(EINVAL, errno);
	p = 0;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(EINVAL, errno);
	p = max;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	p = 1;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	close(fd);
}

/* A new period takes effect: no samples at a huge period, then some at 1. */
TEST(ioctl_period_changes_sample_period)
{
	__u64 p = 1;
	void *rb;
	int fd = open_pf_sampling(1000000000ULL, 0);

	ASSERT_GE(fd, 0);
	rb = rb_map(fd);
	ASSERT_NE(NULL, rb);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(16);
	EXPECT_EQ(0, rb_head(rb));
	EXPECT_GE(count_of(fd), 16);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	touch_pages(16);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GT(rb_head(rb), 0);
	rb_unmap(rb);
	close(fd);
}

/* ---- SET_OUTPUT ---- */

TEST(ioctl_set_output_minus_one_ok)
{
	int fd = open_pf_sampling(1, 0);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	close(fd);

	/* Also on a counting event without any buffer. */
	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, -1);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	close(fd);
}

TEST(ioctl_set_output_self_einval)
{
	void *rb;
	int fd = open_pf_sampling(1, 0);

	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fd));
	EXPECT_EQ(EINVAL, errno);
	rb = rb_map(fd);
	ASSERT_NE(NULL, rb);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, fd));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(rb);
	close(fd);
}

TEST(ioctl_set_output_not_perf_fd_ebadf)
{
	int fd = open_pf_sampling(1, 0);
	int null = open("/dev/null", O_RDONLY);
	int p[2];

	ASSERT_GE(fd, 0);
	ASSERT_GE(null, 0);
	ASSERT_EQ(0, pipe(p));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, null));
	EXPECT_EQ(EBADF, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]));
	EXPECT_EQ(EBADF, errno);
	close(p[0]);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, p[0]));
	EXPECT_EQ(EBADF, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, 100000));
	EXPECT_EQ(EBADF, errno);
	close(p[1]);
	close(null);
	close(fd);
}

static int open_cpu_pf(int cpu)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	return sys_perf_event_open(&attr, -1, cpu, -1, 0);
}

/*
 * Output only goes to a buffer of the same CPU: a CPU event into another
 * CPU's buffer, and a per-task (cpu == -1) event into a CPU buffer or
 * back, are EINVAL.
 */
TEST(ioctl_set_output_other_cpu_einval)
{
	void *rb, *rb2;
	int a, c, t;

	a = open_cpu_pf(0);
	c = open_cpu_pf(0);
	t = open_pf_sampling(1, 0);
	ASSERT_GE(a, 0);
	ASSERT_GE(c, 0);
	ASSERT_GE(t, 0);
	rb = rb_map(c);
	ASSERT_NE(NULL, rb);
	rb2 = rb_map(t);
	ASSERT_NE(NULL, rb2);
	errno = 0;
	EXPECT_EQ(-1, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, t));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(rb2);
	errno = 0;
	EXPECT_EQ(-1, ioctl(t, PERF_EVENT_IOC_SET_OUTPUT, c));
	EXPECT_EQ(EINVAL, errno);

	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		int b = open_cpu_pf(1);

		ASSERT_GE(b, 0);
		rb2 = rb_map(b);
		ASSERT_NE(NULL, rb2);
		errno = 0;
		EXPECT_EQ(-1, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, b));
		EXPECT_EQ(EINVAL, errno);
		rb_unmap(rb2);
		close(b);
	}

	/* Same CPU, with a mapped buffer: fine. */
	EXPECT_EQ(0, ioctl(a, PERF_EVENT_IOC_SET_OUTPUT, c));
	rb_unmap(rb);
	close(a);
	close(c);
	close(t);
}

/* A per-task buffer (cpu == -1) only takes events of the same task. */
TEST(ioctl_set_output_other_task_einval)
{
	struct perf_event_attr attr;
	int go, mine, theirs, status;
	void *rb;
	pid_t pid;

	pid = fork_held(&go, NULL);
	ASSERT_GE(pid, 0);
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	theirs = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_GE(theirs, 0);
	mine = open_pf_sampling(1, 0);
	ASSERT_GE(mine, 0);
	rb = rb_map(theirs);
	ASSERT_NE(NULL, rb);
	errno = 0;
	EXPECT_EQ(-1, ioctl(mine, PERF_EVENT_IOC_SET_OUTPUT, theirs));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(rb);
	close(mine);
	close(theirs);
	close(go);
	waitpid(pid, &status, 0);
}

/* The target must have a mapped buffer; the source must not. */
TEST(ioctl_set_output_needs_target_buffer)
{
	int src = open_pf_sampling(1, 0);
	int dst = open_pf_sampling(1, 0);
	void *rb, *rb2;

	ASSERT_GE(src, 0);
	ASSERT_GE(dst, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, dst));
	EXPECT_EQ(EINVAL, errno);

	rb = rb_map(dst);
	ASSERT_NE(NULL, rb);
	rb2 = rb_map(src);
	ASSERT_NE(NULL, rb2);
	errno = 0;
	EXPECT_EQ(-1, ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, dst));
	EXPECT_EQ(EINVAL, errno);
	rb_unmap(rb2);
	EXPECT_EQ(0, ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, dst));
	/* Undo it again. */
	EXPECT_EQ(0, ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, -1L));
	rb_unmap(rb);
	close(src);
	close(dst);
}

TEST(ioctl_set_output_mismatched_buffers_einval)
{
	struct perf_event_attr attr;
	int dst = open_pf_sampling(1, 0);
	int clk, back;
	void *rb;

	ASSERT_GE(dst, 0);
	rb = rb_map(dst);
	ASSERT_NE(NULL, rb);

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	clk = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(clk, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(clk, PERF_EVENT_IOC_SET_OUTPUT, dst));
	EXPECT_EQ(EINVAL, errno);

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.write_backward = 1;
	back = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(back, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(back, PERF_EVENT_IOC_SET_OUTPUT, dst));
	EXPECT_EQ(EINVAL, errno);

	close(back);
	close(clk);
	rb_unmap(rb);
	close(dst);
}

/* Samples of the redirected event land in the target's buffer. */
TEST(ioctl_set_output_redirects_samples)
{
	int src = open_pf_sampling(1, 0);
	int dst = open_pf_sampling(1, 0);
	void *rb;
	__u64 h;

	ASSERT_GE(src, 0);
	ASSERT_GE(dst, 0);
	rb = rb_map(dst);
	ASSERT_NE(NULL, rb);
	ASSERT_EQ(0, ioctl(src, PERF_EVENT_IOC_SET_OUTPUT, dst));
	/* Only src runs: whatever arrives in dst's buffer came from src. */
	ASSERT_EQ(0, ioctl(src, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	ASSERT_EQ(0, ioctl(src, PERF_EVENT_IOC_DISABLE, 0));
	h = rb_head(rb);
	EXPECT_GT(h, 0);
	EXPECT_EQ(0, count_of(dst));
	EXPECT_GE(count_of(src), 8);
	rb_unmap(rb);
	close(src);
	close(dst);
}

/* ---- SET_FILTER ---- */

TEST(ioctl_set_filter_non_tracepoint_einval)
{
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, -1);

	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid != 0"));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, ""));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

/*
 * On a tracepoint the filter is parsed (EINVAL if it does not parse or
 * names an unknown field) and applied to counting; an event takes one
 * filter only: a second SET_FILTER is EEXIST.
 */
TEST(ioctl_set_filter_tracepoint)
{
	char filt[64];
	int fd, fd2, i;

	fd = open_tracepoint(TP_GETPPID);
	if (fd == -2)
		SKIP(return, "no %s tracepoint in tracefs", TP_GETPPID);
	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "this is no filter"));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1"));
	EXPECT_EQ(EINVAL, errno);

	/* A filter nobody matches: nothing is counted. */
	snprintf(filt, sizeof(filt), "common_pid == %d", (int)getpid() + 100000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filt));
	snprintf(filt, sizeof(filt), "common_pid == %d", (int)getpid());
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filt));
	EXPECT_EQ(EEXIST, errno);

	/* A filter we match: every call is counted. */
	fd2 = open_tracepoint(TP_GETPPID);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, ioctl(fd2, PERF_EVENT_IOC_SET_FILTER, filt));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(fd2, PERF_EVENT_IOC_ENABLE, 0));
	for (i = 0; i < 5; i++)
		syscall(__NR_getppid);
	EXPECT_EQ(0, count_of(fd));
	EXPECT_EQ(5, count_of(fd2));
	close(fd2);
	close(fd);
}

/* ---- ID ---- */

TEST(ioctl_id_writes_unique_id)
{
	__u64 a = 0, b = 0, c = 0;
	int f1 = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, -1);
	int f2 = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, f1);

	ASSERT_GE(f1, 0);
	ASSERT_GE(f2, 0);
	ASSERT_EQ(0, ioctl(f1, PERF_EVENT_IOC_ID, &a));
	ASSERT_EQ(0, ioctl(f2, PERF_EVENT_IOC_ID, &b));
	ASSERT_EQ(0, ioctl(f1, PERF_EVENT_IOC_ID, &c));
	EXPECT_NE(0, a);
	EXPECT_NE(0, b);
	EXPECT_NE(a, b);
	EXPECT_EQ(a, c);
	errno = 0;
	EXPECT_EQ(-1, ioctl(f1, PERF_EVENT_IOC_ID, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	close(f2);
	close(f1);
}

/* ---- SET_BPF ---- */

TEST(ioctl_set_bpf_bad_fd)
{
	int fd = open_pf_sampling(1, 0);
	int null = open("/dev/null", O_RDONLY);

	ASSERT_GE(fd, 0);
	ASSERT_GE(null, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, -1));
	EXPECT_EQ(EBADF, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, 100000));
	EXPECT_EQ(EBADF, errno);
	/* An open fd that is not a bpf program. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, null));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, fd));
	EXPECT_EQ(EINVAL, errno);
	close(null);
	close(fd);
}

/*
 * A non-tracing event takes one BPF_PROG_TYPE_PERF_EVENT program: other
 * types are EINVAL, a second program EEXIST.  A program returning 0
 * suppresses the samples it sees.
 */
TEST(ioctl_set_bpf_perf_event_prog)
{
	int fd = open_pf_sampling(1, 0);
	int drop, sock, other;
	void *rb;

	ASSERT_GE(fd, 0);
	drop = load_trivial_prog(BPF_PROG_TYPE_PERF_EVENT, 0);
	ASSERT_GE(drop, 0) TH_LOG("BPF_PROG_LOAD perf_event: %s", strerror(errno));
	sock = load_trivial_prog(BPF_PROG_TYPE_SOCKET_FILTER, 0);
	ASSERT_GE(sock, 0) TH_LOG("BPF_PROG_LOAD socket_filter: %s", strerror(errno));
	other = load_trivial_prog(BPF_PROG_TYPE_PERF_EVENT, 1);
	ASSERT_GE(other, 0);

	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, sock));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, drop));
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_BPF, other));
	EXPECT_EQ(EEXIST, errno);

	rb = rb_map(fd);
	ASSERT_NE(NULL, rb);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GE(count_of(fd), 8);
	EXPECT_EQ(0, rb_head(rb));
	rb_unmap(rb);
	close(other);
	close(sock);
	close(drop);
	close(fd);
}

/* ---- PAUSE_OUTPUT ---- */

TEST(ioctl_pause_output_without_buffer_einval)
{
	int fd = open_pf_sampling(1, 0);

	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* While paused nothing is written and each dropped sample counts as lost. */
TEST(ioctl_pause_output_drops_and_counts_lost)
{
	__u64 v[2], h;
	void *rb;
	int fd = open_pf_sampling(1, PERF_FORMAT_LOST);

	ASSERT_GE(fd, 0);
	rb = rb_map(fd);
	ASSERT_NE(NULL, rb);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 1));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_EQ(0, rb_head(rb));
	ASSERT_EQ(16, read(fd, v, sizeof(v)));
	EXPECT_GE(v[0], 8);
	EXPECT_EQ(v[0], v[1]);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PAUSE_OUTPUT, 0));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	h = rb_head(rb);
	EXPECT_GT(h, 0);
	ASSERT_EQ(16, read(fd, v + 0, sizeof(v)));
	rb_unmap(rb);
	close(fd);
}

/* ---- QUERY_BPF ---- */

TEST(ioctl_query_bpf_non_tracepoint_einval)
{
	struct perf_event_query_bpf q = { .ids_len = 0 };
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, -1);

	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &q));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(ioctl_query_bpf_tracepoint)
{
	struct {
		struct perf_event_query_bpf q;
		__u32 ids[4];
	} b;
	int fd = open_tracepoint(TP_GETPPID);
	int prog;

	if (fd == -2)
		SKIP(return, "no %s tracepoint in tracefs", TP_GETPPID);
	ASSERT_GE(fd, 0);
	memset(&b, 0, sizeof(b));
	b.q.prog_cnt = 99;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &b));
	EXPECT_EQ(0, b.q.prog_cnt);

	b.q.ids_len = 65;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &b));
	EXPECT_EQ(E2BIG, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, (void *)8));
	EXPECT_EQ(EFAULT, errno);

	prog = load_trivial_prog(BPF_PROG_TYPE_TRACEPOINT, 0);
	ASSERT_GE(prog, 0) TH_LOG("BPF_PROG_LOAD tracepoint: %s", strerror(errno));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog));
	memset(&b, 0, sizeof(b));
	b.q.ids_len = 4;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_QUERY_BPF, &b));
	EXPECT_EQ(1, b.q.prog_cnt);
	EXPECT_NE(0, b.q.ids[0]);
	EXPECT_EQ(0, b.q.ids[1]);
	close(fd);
	close(prog);
}

/* ---- MODIFY_ATTRIBUTES ---- */

TEST(ioctl_modify_attributes_non_breakpoint)
{
	struct perf_event_attr attr;
	int fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1);

	/*
	 * page-faults keeps type PERF_TYPE_SOFTWARE; task-clock and
	 * cpu-clock are served by PMUs of their own type, so a SOFTWARE
	 * attr would already fail the type comparison there.
	 */
	ASSERT_GE(fd, 0);
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EOPNOTSUPP, errno);
	/* A different type than the event's own is EINVAL. */
	attr.type = PERF_TYPE_BREAKPOINT;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	close(fd);
}

static volatile int bp_a, bp_b;

static void bp_attr(struct perf_event_attr *attr, volatile int *addr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->size = sizeof(*attr);
	attr->bp_type = HW_BREAKPOINT_W;
	attr->bp_addr = (unsigned long)addr;
	attr->bp_len = HW_BREAKPOINT_LEN_4;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* On a breakpoint, MODIFY_ATTRIBUTES moves it to a new address. */
TEST(ioctl_modify_attributes_moves_breakpoint)
{
	struct perf_event_attr attr;
	int fd, i;

	bp_attr(&attr, &bp_a);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("breakpoint open: %s", strerror(errno));
	for (i = 0; i < 3; i++)
		bp_a = i;
	EXPECT_EQ(3, count_of(fd));

	bp_attr(&attr, &bp_b);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	for (i = 0; i < 3; i++)
		bp_a = i;
	EXPECT_EQ(3, count_of(fd));
	bp_b = 1;
	bp_b = 2;
	EXPECT_EQ(5, count_of(fd));

	/* Only the breakpoint fields (and disabled) may change. */
	bp_attr(&attr, &bp_a);
	attr.exclude_user = 1;
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	EXPECT_EQ(EINVAL, errno);
	bp_b = 3;
	EXPECT_EQ(6, count_of(fd));

	/* disabled = 1 through MODIFY_ATTRIBUTES stops it. */
	bp_attr(&attr, &bp_b);
	attr.disabled = 1;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_MODIFY_ATTRIBUTES, &attr));
	bp_b = 4;
	EXPECT_EQ(6, count_of(fd));
	close(fd);
}

/* ---- PERF_IOC_FLAG_GROUP ---- */

struct grp {
	int fd[3];
};

static int open_group(struct grp *g)
{
	static const __u64 cfg[3] = { PERF_COUNT_SW_PAGE_FAULTS,
				      PERF_COUNT_SW_PAGE_FAULTS_MIN,
				      PERF_COUNT_SW_PAGE_FAULTS };
	int i;

	for (i = 0; i < 3; i++) {
		g->fd[i] = open_sw(cfg[i], 1, i ? g->fd[0] : -1);
		if (g->fd[i] < 0)
			return -1;
	}
	return 0;
}

static void close_group(struct grp *g)
{
	int i;

	for (i = 2; i >= 0; i--)
		close(g->fd[i]);
}

TEST(ioctl_group_flag_enable_disable)
{
	__u64 v[3], w[3];
	struct grp g;
	int i;

	ASSERT_EQ(0, open_group(&g));
	/* Through a sibling fd: the whole group, leader included. */
	ASSERT_EQ(0, ioctl(g.fd[2], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	touch_pages(8);
	ASSERT_EQ(0, ioctl(g.fd[1], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 3; i++) {
		v[i] = count_of(g.fd[i]);
		EXPECT_GE(v[i], 8);
	}
	touch_pages(8);
	for (i = 0; i < 3; i++) {
		w[i] = count_of(g.fd[i]);
		EXPECT_EQ(v[i], w[i]);
	}
	close_group(&g);
}

TEST(ioctl_without_group_flag_acts_on_one_event)
{
	struct grp g;

	ASSERT_EQ(0, open_group(&g));
	ASSERT_EQ(0, ioctl(g.fd[0], PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(8);
	EXPECT_GE(count_of(g.fd[0]), 8);
	EXPECT_EQ(0, count_of(g.fd[1]));
	EXPECT_EQ(0, count_of(g.fd[2]));
	close_group(&g);
}

TEST(ioctl_group_flag_reset)
{
	struct grp g;
	int i;

	ASSERT_EQ(0, open_group(&g));
	ASSERT_EQ(0, ioctl(g.fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	touch_pages(8);
	ASSERT_EQ(0, ioctl(g.fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 3; i++)
		EXPECT_GE(count_of(g.fd[i]), 8);

	/* Without the flag only the one event is reset. */
	ASSERT_EQ(0, ioctl(g.fd[1], PERF_EVENT_IOC_RESET, 0));
	EXPECT_GE(count_of(g.fd[0]), 8);
	EXPECT_EQ(0, count_of(g.fd[1]));
	EXPECT_GE(count_of(g.fd[2]), 8);

	ASSERT_EQ(0, ioctl(g.fd[2], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0, count_of(g.fd[i]));
	close_group(&g);
}

/* ---- unknown commands ---- */

TEST(ioctl_unknown_cmd_enotty)
{
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, -1);
	__u64 v = 0;

	ASSERT_GE(fd, 0);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 12), 0));
	EXPECT_EQ(ENOTTY, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IO('$', 0xff), 0));
	EXPECT_EQ(ENOTTY, errno);
	/* The number of PERF_EVENT_IOC_ID with a different size. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IOR('$', 7, __u32), &v));
	EXPECT_EQ(ENOTTY, errno);
	/* ENABLE's number with a different type letter. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, _IO('%', 0), 0));
	EXPECT_EQ(ENOTTY, errno);
	/* A tty ioctl. */
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, 0x5401 /* TCGETS */, &v));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

/* ---- prctl(PR_TASK_PERF_EVENTS_DISABLE / ENABLE) ---- */

TEST(prctl_task_events_disable_enable)
{
	__u64 a[2], b[2];
	int pf = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 0, -1);
	int tc = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);

	ASSERT_GE(pf, 0);
	ASSERT_GE(tc, 0);
	touch_pages(4);
	burn_cpu_ns(1000000);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	a[0] = count_of(pf);
	a[1] = count_of(tc);
	EXPECT_GE(a[0], 4);
	EXPECT_GT(a[1], 0);
	touch_pages(8);
	burn_cpu_ns(2000000);
	b[0] = count_of(pf);
	b[1] = count_of(tc);
	EXPECT_EQ(a[0], b[0]);
	EXPECT_EQ(a[1], b[1]);

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	touch_pages(8);
	burn_cpu_ns(2000000);
	EXPECT_GE(count_of(pf), b[0] + 8);
	EXPECT_GT(count_of(tc), b[1]);
	close(tc);
	close(pf);
}

/*
 * PR_TASK_PERF_EVENTS_ENABLE enables every event this task created,
 * including ones opened disabled and ones that count another task.
 */
TEST(prctl_task_events_enable_covers_all_owned)
{
	struct perf_event_attr attr;
	int go[2], self, other, status;
	pid_t pid;
	char c = 0;

	self = open_sw(PERF_COUNT_SW_PAGE_FAULTS, 1, -1);
	ASSERT_GE(self, 0);

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		touch_pages(8);
		_exit(0);
	}
	close(go[0]);
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	other = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_GE(other, 0);

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	touch_pages(8);
	EXPECT_GE(count_of(self), 8);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_GE(count_of(other), 8);

	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	close(other);
	close(self);
	close(go[1]);
}

TEST_HARNESS_MAIN
