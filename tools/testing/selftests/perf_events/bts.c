// SPDX-License-Identifier: GPL-2.0
/*
 * Intel's Branch Trace Store behind the branch-instructions event: an
 * Intel x86 driver takes PERF_COUNT_HW_BRANCH_INSTRUCTIONS sampled at a
 * fixed period of 1 as a request for a trace of every taken branch,
 * which the hardware writes into the BTS buffer of the debug store,
 * and turns each record into a sample: ip the branch, addr its target.
 * perf record -e branches:u -c 1 asks for this.
 *
 * The loop is written in assembly, so its trace is known:
 *
 *   bts_top:  dec %rdi
 *   bts_jz:   jz bts_out		(taken once, at the end)
 *   bts_j1:   jmp bts_mid
 *   bts_mid:
 *   bts_j2:   jmp bts_top
 *   bts_out:
 *   bts_ret:  ret
 *
 * bts_loop(n) takes bts_j1 and bts_j2 n - 1 times, then bts_jz and the
 * ret: 2n branches from inside it, in that order, and a user-only trace
 * of it must hold exactly those.
 *
 * The rules are stock 6.12's (arch/x86/events/intel/core.c): the period
 * of 1 is BTS's, refused (EOPNOTSUPP) where the CPU has none, with
 * kernel branches asked for, or with precise_ip; a period cannot be
 * changed to 1 (PERF_EVENT_IOC_PERIOD: EINVAL), whatever the CPU has.
 *
 * The model (harness/boot.sh's intel-lbr, pmu-bts in our QEMU) has the
 * debug store in its 64-bit format (CPUID.01H:EDX[21], ECX[2]) with BTS
 * available in IA32_MISC_ENABLE; it never sets a record's predicted bit.
 * On the intel model's CPUs without a debug store the trace cases skip.
 * Skipped on AMD, which has no BTS, and on arm64.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

#if defined(__x86_64__)
asm(".text\n"
	".p2align 4\n"
	".globl bts_loop\n"
	".type bts_loop, @function\n"
	"bts_loop:\n"
	"bts_top:\n\tdec %rdi\n"
	"bts_jz:\n\tjz bts_out\n"
	"bts_j1:\n\tjmp bts_mid\n"
	"\tud2\n"
	"bts_mid:\n"
	"bts_j2:\n\tjmp bts_top\n"
	"bts_out:\n"
	"bts_ret:\n\tret\n"
	"bts_loop_end:\n"
	".size bts_loop, .-bts_loop\n");

void bts_loop(unsigned long n);
extern char bts_top[], bts_jz[], bts_j1[], bts_mid[], bts_j2[], bts_out[],
	    bts_ret[], bts_loop_end[];
#endif

static const struct hw_pmu_desc *pmu;

/* Ring pages for a trace of BTS_N iterations: 2 * BTS_N samples of 24 bytes */
#define BTS_N		3000
#define BTS_PAGES	128

/*
 * Intel, with the branch-instructions event (CPUID.0AH: listed, not
 * marked unavailable): the BTS rules apply.  Sets *has_ds to whether
 * the CPU has a 64-bit debug store, where the model keeps BTS.
 */
static const char *bts_cpu(bool *has_ds)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;
	char vendor[13];

	__cpuid(0, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	if (strcmp(vendor, "GenuineIntel"))
		return "not an Intel CPU: no BTS";
	__cpuid(0xa, a, b, c, d);
	if (((a >> 24) & 0xff) <= 5 || (b & (1U << 5)))
		return "CPUID.0AH: no branch instructions event";
	__cpuid(1, a, b, c, d);
	*has_ds = (d & (1U << 21)) && (c & (1U << 2));
	return NULL;
#else
	return "x86 BTS cases";
#endif
}

#define BTS_REQUIRE(has_ds) do {					\
	const char *why;						\
									\
	HW_REQUIRE();							\
	why = bts_cpu(&(has_ds));					\
	if (why)							\
		SKIP(return, "%s", why);				\
} while (0)

static void attr_bts(struct perf_event_attr *attr)
{
	attr_hw(attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
	attr->sample_period = 1;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ADDR;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* Opening the period-1 event as asked: the fd, or -errno */
static int open_bts(struct perf_event_attr *attr)
{
	int fd = sys_perf_event_open(attr, 0, -1, -1, 0);

	return fd < 0 ? -errno : fd;
}

/*
 * A period of 1 is BTS's: with kernel branches or precise_ip it is
 * refused, and where the CPU has no BTS at all.
 */
TEST(bts_period_one_rules)
{
	struct perf_event_attr attr;
	bool has_ds = false;
	int fd;

	BTS_REQUIRE(has_ds);
	attr_bts(&attr);
	attr.exclude_kernel = 0;
	EXPECT_EQ(-EOPNOTSUPP, open_bts(&attr));
	attr_bts(&attr);
	attr.precise_ip = 1;
	EXPECT_EQ(-EOPNOTSUPP, open_bts(&attr));
	attr_bts(&attr);
	fd = open_bts(&attr);
	/* Opened where the CPU traces, else EOPNOTSUPP */
	EXPECT_EQ(has_ds ? 0 : -EOPNOTSUPP, fd < 0 ? fd : 0)
		TH_LOG("branches:u -c 1: %s", fd < 0 ? strerror(-fd) : "opened");
	if (fd >= 0)
		close(fd);
	/* A frequency, or another period, is the counter's as ever */
	attr_bts(&attr);
	attr.sample_period = 2;
	attr.exclude_kernel = 0;
	fd = open_bts(&attr);
	EXPECT_LE(0, fd) TH_LOG("branches -c 2: %s", strerror(-fd));
	if (fd >= 0)
		close(fd);
}

/* PERF_EVENT_IOC_PERIOD may not make a counter's event BTS's */
TEST(bts_period_cannot_become_one)
{
	struct perf_event_attr attr;
	bool has_ds = false;
	__u64 period;
	int fd;

	BTS_REQUIRE(has_ds);
	attr_bts(&attr);
	attr.sample_period = 100000;
	fd = open_bts(&attr);
	ASSERT_LE(0, fd) TH_LOG("branches:u -c 100000: %s", strerror(-fd));
	period = 1;
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	EXPECT_EQ(EINVAL, errno);
	period = 2;
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	close(fd);
}

#if defined(__x86_64__)
/* Which of the loop's branches @from -> @to is, in trace order; -1: none */
static int loop_branch(__u64 from, __u64 to)
{
	static const struct {
		const char *from, *to;
	} br[] = {
		{ bts_j1, bts_mid }, { bts_j2, bts_top }, { bts_jz, bts_out },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(br); i++)
		if (from == (unsigned long)br[i].from &&
		    to == (unsigned long)br[i].to)
			return i;
	/* the ret, to its caller outside the loop */
	if (from == (unsigned long)bts_ret &&
	    (to < (unsigned long)bts_top || to >= (unsigned long)bts_loop_end))
		return 3;
	return -1;
}

static bool in_loop(__u64 ip)
{
	return ip >= (unsigned long)bts_top && ip < (unsigned long)bts_loop_end;
}
#endif

/*
 * The samples of @rb's trace in the loop: checked against its trace
 * order (j1 and j2 n - 1 times, then jz and the ret), as counts: in the
 * loop, out of order, with a kernel address, records lost.
 */
struct bts_tally {
	unsigned long in, bad, kernel, lost;
};

#if defined(__x86_64__)
static void bts_tally(struct perf_rb *rb, unsigned long n,
		      struct bts_tally *t)
{
	struct {
		struct perf_event_header h;
		__u64 ip, addr;
	} s;
	int type, br;

	while ((type = perf_rb_fetch(rb, &s, sizeof(s))) >= 0) {
		if (type == PERF_RECORD_LOST)
			t->lost++;
		if (type != PERF_RECORD_SAMPLE)
			continue;
		if ((__s64)s.ip < 0 || (__s64)s.addr < 0)
			t->kernel++;
		if (!in_loop(s.ip))
			continue;
		br = loop_branch(s.ip, s.addr);
		if (t->in < 2 * (n - 1) ? br != (int)(t->in & 1)
					: br != 2 + (int)(t->in & 1))
			t->bad++;
		t->in++;
	}
}
#endif

/* The trace cases: skipped without a debug store, where BTS is */
#define BTS_TRACE_REQUIRE(has_ds) do {					\
	BTS_REQUIRE(has_ds);						\
	if (!(has_ds))							\
		SKIP(return, "no debug store: no BTS");			\
} while (0)

/* Open @attr's trace on @cpu in group @group, its ring in @rb */
#define BTS_OPEN(fd, attr, cpu, group, rb) do {			\
	fd = sys_perf_event_open(attr, 0, cpu, group, 0);		\
	ASSERT_LE(0, fd) TH_LOG("branches:u -c 1: %s", strerror(errno)); \
	ASSERT_EQ(0, perf_rb_map(rb, fd, BTS_PAGES));			\
} while (0)

#if defined(__x86_64__)
/* Tally the trace of @n iterations from @rb, then unmap and close it */
static void bts_collect(struct perf_rb *rb, int fd, unsigned long n,
			struct bts_tally *t)
{
	bts_tally(rb, n, t);
	perf_rb_unmap(rb);
	close(fd);
}
#endif

/* Exactly the loop's 2 * @n branches, in order, nothing else or lost */
#define EXPECT_TRACE_EXACT(t, n) do {					\
	EXPECT_EQ(0, (t).lost);						\
	EXPECT_EQ(0, (t).kernel);					\
	EXPECT_EQ(0, (t).bad);						\
	EXPECT_EQ(2 * (n), (t).in);					\
} while (0)

/*
 * The trace of a loop holds its 2n branches, each once, in the order
 * they were taken, and no kernel address: every sample's ip is the
 * branch, addr its target.
 */
TEST(bts_trace_exact)
{
#if defined(__x86_64__)
	struct bts_tally t = {};
	struct perf_event_attr attr;
	bool has_ds = false;
	struct perf_rb rb;
	int fd;

	BTS_TRACE_REQUIRE(has_ds);
	attr_bts(&attr);
	BTS_OPEN(fd, &attr, -1, -1, &rb);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	bts_loop(BTS_N);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	bts_collect(&rb, fd, BTS_N, &t);
	EXPECT_TRACE_EXACT(t, BTS_N);
#else
	SKIP(return, "x86 BTS cases");
#endif
}

/*
 * An inherited trace: a child forked after the event was enabled runs
 * the loop while the parent waits, its trace goes to the parent's
 * buffer through its own copy of the event (whose event_init takes the
 * trace's buffers again), and the parent traced nothing of the loop.
 * The child's trace is exactly the loop's, across the switches between
 * the two tasks on their one CPU.  The event is CPU 0's, as perf record
 * opens one per CPU: an inherited event of any CPU cannot be mapped.
 */
TEST(bts_trace_inherited)
{
#if defined(__x86_64__)
	struct bts_tally t = {};
	struct perf_event_attr attr;
	bool has_ds = false;
	struct perf_rb rb;
	int fd, status;
	pid_t pid;

	BTS_TRACE_REQUIRE(has_ds);
	ASSERT_EQ(0, pin_to_cpu(0));
	attr_bts(&attr);
	attr.inherit = 1;
	BTS_OPEN(fd, &attr, 0, -1, &rb);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		bts_loop(BTS_N);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	bts_collect(&rb, fd, BTS_N, &t);
	EXPECT_TRACE_EXACT(t, BTS_N);
#else
	SKIP(return, "x86 BTS cases");
#endif
}

/*
 * The trace beside last branch records: a task samples its branch stack
 * (Architectural LBR, whose freeze on PMI shares DEBUGCTL with BTS's
 * bits) while it traces.  Neither disturbs the other: the trace stays
 * exact, and the stack samples taken in the loop hold records.
 */
TEST(bts_beside_lbr)
{
#if defined(__x86_64__)
	struct {
		struct perf_event_header h;
		__u64 ip, nr;
	} ls;
	unsigned long lbr_samples = 0, empty = 0;
	struct perf_event_attr attr;
	struct bts_tally t = {};
	struct perf_rb rb, lrb;
	unsigned int a, b, c, d;
	bool has_ds = false;
	int fd, lfd, type;

	BTS_TRACE_REQUIRE(has_ds);
	__cpuid_count(7, 0, a, b, c, d);
	if (!(d & (1U << 19)))
		SKIP(return, "no Architectural LBR");
	attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = 2003;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	lfd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, lfd) TH_LOG("branch stack: %s", strerror(errno));
	ASSERT_EQ(0, perf_rb_map(&lrb, lfd, 64));
	attr_bts(&attr);
	BTS_OPEN(fd, &attr, -1, -1, &rb);
	ioctl(lfd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	bts_loop(BTS_N);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(lfd, PERF_EVENT_IOC_DISABLE, 0);

	bts_collect(&rb, fd, BTS_N, &t);
	while ((type = perf_rb_fetch(&lrb, &ls, sizeof(ls))) >= 0) {
		if (type != PERF_RECORD_SAMPLE || !in_loop(ls.ip))
			continue;
		lbr_samples++;
		empty += !ls.nr;
	}
	perf_rb_unmap(&lrb);
	close(lfd);
	EXPECT_TRACE_EXACT(t, BTS_N);
	EXPECT_LT(2, lbr_samples);
	EXPECT_EQ(0, empty);
#else
	SKIP(return, "x86 BTS cases");
#endif
}

/*
 * A trace in a group takes no counter: as many events on general-purpose
 * counters as the CPU has fit beside it, one more does not (the group
 * has more than the counters), and the group runs with its trace exact.
 * The events are raw 0x2e, unit mask 0x4f (LLC references, which only
 * the general-purpose counters count), on (a member that is off is not
 * checked).  Upstream gives the trace a counter of its own that is none
 * of the CPU's.
 */
TEST(bts_group_takes_no_counter)
{
#if defined(__x86_64__)
	struct perf_event_attr attr;
	struct bts_tally t = {};
	int fd, member[HW_MAX_COUNTERS], i, extra;
	bool has_ds = false;
	struct perf_rb rb;

	BTS_TRACE_REQUIRE(has_ds);
	ASSERT_GT(HW_MAX_COUNTERS, pmu->gp_counters);
	attr_bts(&attr);
	BTS_OPEN(fd, &attr, -1, -1, &rb);
	for (i = 0; i < pmu->gp_counters; i++) {
		member[i] = open_hw_user(PERF_TYPE_RAW, 0x4f2e, 0, fd);
		ASSERT_LE(0, member[i])
			TH_LOG("member %d of %d: %s", i + 1, pmu->gp_counters,
			       strerror(errno));
	}
	extra = open_hw_user(PERF_TYPE_RAW, 0x4f2e, 0, fd);
	EXPECT_EQ(-1, extra);
	EXPECT_EQ(EINVAL, errno);
	if (extra >= 0)
		close(extra);

	ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	bts_loop(BTS_N);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < pmu->gp_counters; i++)
		close(member[i]);
	bts_collect(&rb, fd, BTS_N, &t);
	EXPECT_TRACE_EXACT(t, BTS_N);
#else
	SKIP(return, "x86 BTS cases");
#endif
}

TEST_HARNESS_MAIN
