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
 *
 * The bts_aux_* cases trace the same loop through the intel_bts PMU and
 * its AUX area (see below).
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
#else
static void bts_loop(unsigned long n) { }
static char bts_top[1], bts_jz[1], bts_j1[1], bts_mid[1], bts_j2[1],
	    bts_out[1], bts_ret[1], bts_loop_end[1];
#endif

static const struct hw_pmu_desc *pmu;

/* Ring pages for a trace of BTS_N iterations: 2 * BTS_N samples of 24 bytes */
#define BTS_N		3000
#define BTS_PAGES	128

/*
 * Intel, with the branch-instructions event (CPUID.0AH: listed, not
 * marked unavailable): the BTS rules apply.  Sets *has_ds to whether
 * the CPU has BTS in a 64-bit debug store: DS and DTES64 in CPUID, and
 * "bts" in /proc/cpuinfo, from IA32_MISC_ENABLE, which only the kernel
 * reads (a debug store for PEBS alone has it clear).
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
	*has_ds = (d & (1U << 21)) && (c & (1U << 2)) &&
		  cpuinfo_flag(" bts ");
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
		SKIP(return, "no BTS in a 64-bit debug store");		\
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

/*
 * The intel_bts PMU: the same trace through an AUX area.  A task maps
 * its event's buffer (the data area), writes aux_offset and aux_size into
 * the user page and maps that many pages at that offset: the AUX area,
 * where the CPU writes its 24-byte records {from, to, flags} unchanged,
 * nothing filtered.  Each time the driver hands records over (the event
 * stops, or the buffer's interrupt threshold is reached) aux_head moves
 * on and a PERF_RECORD_AUX {offset, size, flags} in the data area says
 * which bytes; a PERF_RECORD_ITRACE_START {pid, tid} comes first.  A
 * writable AUX area is not overwritten past aux_tail; a read-only one
 * is a snapshot buffer, written round and round.
 *
 * The rules are stock 6.12's (kernel/events/core.c perf_mmap(),
 * ring_buffer.c, arch/x86/events/intel/bts.c).  Stock registers
 * intel_bts on an Intel CPU with BTS in the 64-bit debug store ("bts",
 * "dtes64" in /proc/cpuinfo) unless the kernel isolates its page tables
 * ("pti"): on such a CPU a kernel without it fails the cases, elsewhere
 * they skip.
 *
 * The model retires a far transfer at the CPL it leaves: a user-only
 * trace holds the SYSCALL and each interrupt of user code (user to
 * kernel), never a return to user mode.
 */
#define BTS_REC		24	/* a record: from, to, flags */
#define AUX_DATA_PAGES	8	/* the data area of every case */
#define AUX_RECS	64	/* PERF_RECORD_AUX records a walk keeps */

struct bts_rec {
	__u64 from, to, flags;
};

struct aux_record {
	struct perf_event_header h;
	__u64 offset, size, flags;
};

struct itrace_record {
	struct perf_event_header h;
	__u32 pid, tid;
};

/* Why there may be no intel_bts here; NULL: stock has it */
static const char *bts_aux_cpu(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	__cpuid(0, a, b, c, d);
	if (b != 0x756e6547)		/* "Genu"ineIntel */
		return "not an Intel CPU";
	if (!cpuinfo_flag(" arch_perfmon "))
		return "no architectural perfmon: no Intel PMU driver";
	if (!cpuinfo_flag(" bts ") || !cpuinfo_flag(" dtes64 "))
		return "no BTS in a 64-bit debug store (/proc/cpuinfo)";
	if (cpuinfo_flag(" pti "))
		return "page table isolation: stock drops intel_bts";
	return NULL;
#else
	return "x86 BTS cases";
#endif
}

/* intel_bts's type into @type: skipped where stock has none */
#define BTS_AUX_REQUIRE(type) do {					\
	const char *why = bts_aux_cpu();				\
									\
	type = pmu_type("intel_bts");					\
	if (type < 0 && why)						\
		SKIP(return, "no intel_bts PMU: %s", why);		\
	ASSERT_LE(0, type)						\
		TH_LOG("no intel_bts in " EVENT_SOURCE " on a CPU with BTS"); \
} while (0)

/* A disabled user-only intel_bts event's attr */
static void attr_intel_bts(struct perf_event_attr *attr, int type)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = type;
	attr->size = sizeof(*attr);
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* Open this task's attr_intel_bts() event, reading @read_format: fd, or -1 */
static int bts_aux_open(int type, __u64 read_format)
{
	struct perf_event_attr attr;

	attr_intel_bts(&attr, type);
	attr.read_format = read_format;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* An event's data area and AUX area */
struct bts_aux {
	struct perf_rb rb;
	unsigned char *aux;
	size_t size;		/* the AUX area's bytes */
};

/*
 * Map AUX_DATA_PAGES data pages of @fd's buffer, writable, and after
 * them @pages AUX pages with @prot.  Return: 0, or the errno of the
 * mmap() that failed.
 */
static int bts_aux_map(struct bts_aux *a, int fd, size_t pages, int prot)
{
	long pg = page_sz();
	void *p;
	int err;

	if (perf_rb_map(&a->rb, fd, AUX_DATA_PAGES))
		return errno;
	a->size = pages * pg;
	a->rb.up->aux_offset = (1 + AUX_DATA_PAGES) * pg;
	a->rb.up->aux_size = a->size;
	p = mmap(NULL, a->size, prot, MAP_SHARED, fd, a->rb.up->aux_offset);
	if (p == MAP_FAILED) {
		err = errno;
		perf_rb_unmap(&a->rb);
		return err;
	}
	a->aux = p;
	return 0;
}

static void bts_aux_unmap(struct bts_aux *a)
{
	munmap(a->aux, a->size);
	perf_rb_unmap(&a->rb);
}

/* Unmap @a's areas and close @fd, their event */
static void bts_aux_close(struct bts_aux *a, int fd)
{
	bts_aux_unmap(a);
	close(fd);
}

/* bts_loop(@n) with @fd enabled around it: the task's switches meanwhile */
static __u64 bts_aux_window(int fd, unsigned long n)
{
	__u64 sw = thread_switches();

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	bts_loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return thread_switches() - sw;
}

/* aux_head, loaded with the acquire the ABI asks for before the data */
static __u64 bts_aux_head(const struct bts_aux *a)
{
	return __atomic_load_n(&a->rb.up->aux_head, __ATOMIC_ACQUIRE);
}

/* The record at byte position @pos of the AUX area, wrapping */
static void bts_aux_rec(const struct bts_aux *a, __u64 pos, struct bts_rec *r)
{
	size_t i;

	for (i = 0; i < sizeof(*r); i++)
		((char *)r)[i] = a->aux[(pos + i) & (a->size - 1)];
}

/* Whether bytes [@from, @to) of the AUX area are all zero */
static bool bts_aux_zero(const struct bts_aux *a, __u64 from, __u64 to)
{
	for (; from < to; from++)
		if (a->aux[from & (a->size - 1)])
			return false;
	return true;
}

/* The data area's records from @rb's read position on */
struct aux_log {
	unsigned long itrace, aux, other, bad_size;
	unsigned long itrace_late;	/* ITRACE_STARTs after an AUX one */
	__u32 pid, tid;			/* the last ITRACE_START's */
	struct {
		__u64 offset, size, flags;
	} rec[AUX_RECS];
};

static void aux_log_read(struct perf_rb *rb, struct aux_log *l)
{
	union {
		struct perf_event_header h;
		struct aux_record aux;
		struct itrace_record it;
	} r;
	int type;

	memset(l, 0, sizeof(*l));
	while ((type = perf_rb_fetch(rb, &r, sizeof(r))) >= 0) {
		if (type == PERF_RECORD_ITRACE_START) {
			l->bad_size += r.h.size != sizeof(r.it);
			l->itrace_late += l->aux > 0;
			l->itrace++;
			l->pid = r.it.pid;
			l->tid = r.it.tid;
		} else if (type == PERF_RECORD_AUX) {
			l->bad_size += r.h.size != sizeof(r.aux);
			if (l->aux < AUX_RECS) {
				l->rec[l->aux].offset = r.aux.offset;
				l->rec[l->aux].size = r.aux.size;
				l->rec[l->aux].flags = r.aux.flags;
			}
			l->aux++;
		} else {
			l->other++;
		}
	}
}

/* Print what @l holds, for a case's log */
static void aux_log_print(struct __test_metadata *_metadata,
			  const struct aux_log *l, __u64 head)
{
	unsigned long i;

	TH_LOG("%lu ITRACE_START, %lu AUX, %lu other; aux_head %llu",
	       l->itrace, l->aux, l->other, (unsigned long long)head);
	for (i = 0; i < l->aux && i < AUX_RECS; i++)
		TH_LOG("AUX %lu: offset %llu size %llu flags %#llx", i,
		       (unsigned long long)l->rec[i].offset,
		       (unsigned long long)l->rec[i].size,
		       (unsigned long long)l->rec[i].flags);
}

/* Read @a's aux_head, then its data area's records into @l; print, return it */
static __u64 bts_aux_log(struct __test_metadata *_metadata, struct bts_aux *a,
			 struct aux_log *l)
{
	__u64 head = bts_aux_head(a);

	aux_log_read(&a->rb, l);
	aux_log_print(_metadata, l, head);
	return head;
}

/*
 * BTS records tallied against passes of bts_loop(n): the loop's
 * branches (in), those out of the order j1 and j2 n - 1 times, then jz
 * and the ret (bad), user branches outside the loop amid a pass
 * (stray); entries into the kernel from user mode (entries); records
 * from a kernel address, from user mode; all-zero ones, ones with
 * flags; PERF_RECORD_AUX ranges whose last record is no entry into the
 * kernel (unended).
 */
struct aux_tally {
	unsigned long recs, in, bad, stray, entries, kernel_from, user_from;
	unsigned long zero, flagged, unended;
};

static bool kernel_addr(__u64 a)
{
	return (__s64)a < 0;
}

static void aux_tally_rec(const struct bts_rec *r, unsigned long n,
			  struct aux_tally *t)
{
	unsigned long i;
	int br;

	t->recs++;
	if (!r->from && !r->to) {
		t->zero++;
		return;
	}
	t->flagged += r->flags != 0;
	if (kernel_addr(r->from))
		t->kernel_from++;
	else
		t->user_from++;
	if (kernel_addr(r->to)) {
		t->entries += !kernel_addr(r->from);
		return;
	}
	if (kernel_addr(r->from))
		return;
	if (!in_loop(r->from)) {
		t->stray += t->in % (2 * n) != 0;
		return;
	}
	br = loop_branch(r->from, r->to);
	i = t->in % (2 * n);
	if (i < 2 * (n - 1) ? br != (int)(i & 1) : br != 2 + (int)(i & 1))
		t->bad++;
	t->in++;
}

/* Tally bytes [@off, @off + @size) of the AUX area, one AUX record's */
static void aux_tally_range(const struct bts_aux *a, __u64 off, __u64 size,
			    unsigned long n, struct aux_tally *t)
{
	struct bts_rec r;
	__u64 pos;

	for (pos = off; pos + BTS_REC <= off + size; pos += BTS_REC) {
		bts_aux_rec(a, pos, &r);
		aux_tally_rec(&r, n, t);
	}
	if (size < BTS_REC)
		return;
	bts_aux_rec(a, off + size - BTS_REC, &r);
	if (kernel_addr(r.from) || !kernel_addr(r.to))
		t->unended++;
}

/* Tally afresh every AUX record of @l, as non-overwrite mode hands them over */
static void aux_tally_log(const struct bts_aux *a, const struct aux_log *l,
			  unsigned long n, struct aux_tally *t)
{
	unsigned long i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < l->aux && i < AUX_RECS; i++)
		aux_tally_range(a, l->rec[i].offset, l->rec[i].size, n, t);
}

/* The loop's trace and windows of the exact case */
#define AUX_EXACT_PAGES	64	/* 256 KiB: no PMI in the windows */
#define AUX_WINDOWS	3
#define AUX_N		600	/* a window: 1200 loop records */

/*
 * A trace in three enable-disable windows of bts_loop(AUX_N) each, in an
 * AUX area of 256 KiB that none of them fills: one ITRACE_START, first,
 * with the task's pid and tid; one PERF_RECORD_AUX per window (and one
 * more at most per context switch), without flags, the ranges
 * contiguous from 0 to aux_head, each ending with the entry into the
 * kernel that stopped it; in them the loop's branches, exactly
 * AUX_WINDOWS passes in order, no record from a kernel address, none
 * zero, no flags; nothing written past aux_head.
 */
TEST(bts_aux_trace_exact)
{
	static struct aux_log log;
	struct aux_tally t = {};
	__u64 head, end = 0, sw;
	struct bts_aux a = {};
	unsigned long i;
	int type, fd, w;

	BTS_AUX_REQUIRE(type);
	fd = bts_aux_open(type, 0);
	ASSERT_LE(0, fd) TH_LOG("intel_bts: %s", strerror(errno));
	ASSERT_EQ(0, bts_aux_map(&a, fd, AUX_EXACT_PAGES,
				 PROT_READ | PROT_WRITE));
	sw = thread_switches();
	for (w = 0; w < AUX_WINDOWS; w++)
		bts_aux_window(fd, AUX_N);
	sw = thread_switches() - sw;
	head = bts_aux_log(_metadata, &a, &log);

	EXPECT_EQ(1, log.itrace);
	EXPECT_EQ(0, log.itrace_late);
	EXPECT_EQ(getpid(), log.pid);
	EXPECT_EQ(syscall(__NR_gettid), log.tid);
	EXPECT_EQ(0, log.other);
	EXPECT_EQ(0, log.bad_size);
	EXPECT_LE(AUX_WINDOWS, log.aux);
	EXPECT_GE(AUX_WINDOWS + sw, log.aux) TH_LOG("%llu switches", sw);
	ASSERT_GE(AUX_RECS, log.aux);
	for (i = 0; i < log.aux; i++) {
		EXPECT_EQ(end, log.rec[i].offset) TH_LOG("AUX %lu", i);
		EXPECT_LT(0, log.rec[i].size);
		EXPECT_EQ(0, log.rec[i].size % BTS_REC);
		EXPECT_EQ(0, log.rec[i].flags);
		end = log.rec[i].offset + log.rec[i].size;
	}
	EXPECT_EQ(end, head);
	EXPECT_EQ(0, a.rb.up->aux_tail);
	ASSERT_GT(a.size, head);
	EXPECT_TRUE(bts_aux_zero(&a, head, a.size));

	aux_tally_log(&a, &log, AUX_N, &t);
	TH_LOG("%lu records: %lu of the loop, %lu entries", t.recs, t.in,
	       t.entries);
	EXPECT_EQ(head / BTS_REC, t.recs);
	EXPECT_EQ(AUX_WINDOWS * 2 * AUX_N, t.in);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.stray);
	EXPECT_EQ(0, t.kernel_from);
	EXPECT_EQ(0, t.zero);
	EXPECT_EQ(0, t.flagged);
	EXPECT_EQ(0, t.unended);
	EXPECT_LE(log.aux, t.entries);
	bts_aux_close(&a, fd);
}

#define RW	(PROT_READ | PROT_WRITE)

static bool aux_zero(const unsigned char *m, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (m[i])
			return false;
	return true;
}

/*
 * The signal a child dies of, writing to the first byte of @fd's AUX
 * area of @pages pages at page @pgoff, mapped writable and read first
 * (the parent's mappings are not inherited); 0 if it does not.
 */
static int aux_write_sig(int fd, size_t pages, size_t pgoff)
{
	unsigned char *m;
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		m = mmap(NULL, pages * page_sz(), RW, MAP_SHARED, fd,
			 pgoff * page_sz());
		if (m == MAP_FAILED)
			_exit(1);
		m[0] = m[1] + 1;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

/*
 * The AUX area's mapping rules, stock's perf_mmap(), EINVAL each: an AUX
 * area before the data area, or before the user page says where; a size
 * other than aux_size, an offset other than aux_offset (one not a page's
 * too); a size not a power of two pages; an offset inside the data area;
 * a private mapping.  Past the data area with room between is fine, as
 * is a user page without data pages.  A second mapping shares the
 * first's pages (whatever its protection) while size and offset stay
 * those of the first, which the user page can no longer change; the
 * data area cannot change its size either.  The pages are the kernel's
 * to write: a store from the user is SIGBUS, writable mapping or not.
 * Once the last AUX mapping is gone, another geometry maps, fresh.
 */
TEST(bts_aux_mmap_rules)
{
	struct perf_event_mmap_page *up;
	unsigned char *m1, *m2;
	long pg = page_sz();
	int type, fd;

	BTS_AUX_REQUIRE(type);
	fd = bts_aux_open(type, 0);
	ASSERT_LE(0, fd) TH_LOG("intel_bts: %s", strerror(errno));

	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 2, RW, MAP_SHARED));
	up = perf_rb_mmap(fd, 1, RW);
	ASSERT_NE(NULL, up);
	EXPECT_EQ(0, up->aux_offset);
	EXPECT_EQ(0, up->aux_size);
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 2, RW, MAP_SHARED));
	up->aux_offset = 2 * pg;
	up->aux_size = 3 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 3, 2, RW, MAP_SHARED));
	up->aux_size = 4 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 3, RW, MAP_SHARED));
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 2, 2, RW, MAP_SHARED));
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 8, 2, RW, MAP_SHARED));
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 2, RW, MAP_PRIVATE));
	up->aux_offset = pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 1, RW, MAP_SHARED));
	up->aux_offset = 2 * pg + 8;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 2, RW, MAP_SHARED));
	up->aux_offset = 4 * pg;
	EXPECT_EQ(0, perf_mmap_err(fd, 4, 4, RW, MAP_SHARED));
	up->aux_offset = 2 * pg;

	m1 = mmap(NULL, 4 * pg, RW, MAP_SHARED, fd, 2 * pg);
	ASSERT_NE(MAP_FAILED, m1) TH_LOG("AUX area: %s", strerror(errno));
	m2 = mmap(NULL, 4 * pg, PROT_READ, MAP_SHARED, fd, 2 * pg);
	ASSERT_NE(MAP_FAILED, m2) TH_LOG("second: %s", strerror(errno));
	EXPECT_EQ(0, perf_mmap_err(fd, 4, 2, RW, MAP_SHARED));
	up->aux_size = 8 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 8, 2, RW, MAP_SHARED));
	up->aux_size = 2 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 2, 2, RW, MAP_SHARED));
	up->aux_size = 4 * pg;
	up->aux_offset = 4 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 4, 4, RW, MAP_SHARED));
	up->aux_offset = 2 * pg;
	EXPECT_EQ(EINVAL, perf_mmap_err(fd, 3, 0, RW, MAP_SHARED));
	/* Both mappings show the one trace */
	bts_aux_window(fd, 10);
	ASSERT_LT(0, up->aux_head);
	ASSERT_GE(4 * pg, up->aux_head);
	EXPECT_FALSE(aux_zero(m1, up->aux_head));
	EXPECT_EQ(0, memcmp(m1, m2, up->aux_head));
	/* The user may not write there, whatever the mapping says */
	EXPECT_EQ(SIGBUS, aux_write_sig(fd, 4, 2));
	munmap(m1, 4 * pg);
	EXPECT_FALSE(aux_zero(m2, up->aux_head));
	munmap(m2, 4 * pg);

	up->aux_size = 8 * pg;
	m1 = mmap(NULL, 8 * pg, RW, MAP_SHARED, fd, 2 * pg);
	ASSERT_NE(MAP_FAILED, m1) TH_LOG("new AUX area: %s", strerror(errno));
	EXPECT_TRUE(aux_zero(m1, 8 * pg));
	munmap(m1, 8 * pg);
	munmap(up, 2 * pg);

	up = perf_rb_mmap(fd, 0, RW);
	ASSERT_NE(NULL, up);
	up->aux_offset = pg;
	up->aux_size = 4 * pg;
	EXPECT_EQ(0, perf_mmap_err(fd, 4, 1, RW, MAP_SHARED));
	munmap(up, pg);
	close(fd);
}

/* The wrap case: the loop of three times the area, then a short one */
#define AUX_WRAP_PAGES	16
#define AUX_WRAP_N	3000	/* 6000 loop records: 144000 bytes */
#define AUX_AFTER_N	200
#define AUX_BURN_NS	100000

/*
 * aux_tail left at 0 under a trace that would fill the 64 KiB area
 * twice over.  Stock's driver splits a writable area in halves (the
 * default watermark, half the area), each holding whole records at
 * offsets that are multiples of 24 in the area; it hands a half over at
 * its interrupt threshold and goes on in the next, skipping (zeroed)
 * the bytes left, and stops where the area is full: aux_head at the
 * last whole record (65520), the last of the three PERF_RECORD_AUX
 * TRUNCATED, the others without flags, aux_head never more than the
 * area past aux_tail.  The records hold the loop from its start, in
 * order.  Switched out and in, the full event no longer runs (stock
 * leaves it enabled but off the CPU where the trace filled up on CPU 0,
 * disables it on any other: its pending_disable is the CPU's number, so
 * the state is not looked at, only time_running).  Enabled again without
 * room, it writes nothing; with aux_tail moved up to aux_head it traces
 * again, from the area's start (the next lap: a record never straddles
 * the end), the second loop exactly.
 */
TEST(bts_aux_wraps)
{
	static struct aux_log log;
	struct aux_tally t = {};
	struct bts_aux a = {};
	__u64 head, end = 0, sw;
	struct read_one r1, r2;
	unsigned long i, n;
	int type, fd;

	BTS_AUX_REQUIRE(type);
	fd = bts_aux_open(type, PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING);
	ASSERT_LE(0, fd) TH_LOG("intel_bts: %s", strerror(errno));
	ASSERT_EQ(0, bts_aux_map(&a, fd, AUX_WRAP_PAGES, RW));
	sw = thread_switches();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	bts_loop(AUX_WRAP_N);
	sw = thread_switches() - sw;
	/* Out and in again: full, it does not run */
	usleep(1000);
	EXPECT_EQ(0, read_one_times(fd, &r1));
	burn_cpu_ns(AUX_BURN_NS);
	EXPECT_EQ(0, read_one_times(fd, &r2));
	EXPECT_GT(AUX_BURN_NS / 2, r2.running - r1.running)
		TH_LOG("running %llu -> %llu", r1.running, r2.running);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	head = bts_aux_log(_metadata, &a, &log);

	EXPECT_EQ(1, log.itrace);
	EXPECT_EQ(0, log.itrace_late);
	EXPECT_EQ(0, log.other);
	EXPECT_EQ(0, log.bad_size);
	EXPECT_LE(3, log.aux);
	EXPECT_GE(3 + sw, log.aux) TH_LOG("%llu switches", sw);
	n = log.aux;
	ASSERT_GE(AUX_RECS, n);
	ASSERT_LT(0, n);
	for (i = 0; i < n; i++) {
		EXPECT_LE(end, log.rec[i].offset) TH_LOG("AUX %lu", i);
		EXPECT_EQ(0, log.rec[i].offset % BTS_REC) TH_LOG("AUX %lu", i);
		EXPECT_LT(0, log.rec[i].size);
		EXPECT_EQ(0, log.rec[i].size % BTS_REC);
		EXPECT_EQ(i == n - 1 ? PERF_AUX_FLAG_TRUNCATED : 0,
			  log.rec[i].flags) TH_LOG("AUX %lu", i);
		EXPECT_TRUE(bts_aux_zero(&a, end, log.rec[i].offset))
			TH_LOG("gap before AUX %lu", i);
		if (i < n - 1)
			aux_tally_range(&a, log.rec[i].offset,
					log.rec[i].size, AUX_WRAP_N, &t);
		end = log.rec[i].offset + log.rec[i].size;
	}
	EXPECT_EQ(0, t.unended);
	aux_tally_range(&a, log.rec[n - 1].offset, log.rec[n - 1].size,
			AUX_WRAP_N, &t);
	EXPECT_EQ(end, head);
	EXPECT_EQ(a.size - a.size % BTS_REC, head);
	EXPECT_EQ(0, a.rb.up->aux_tail);
	TH_LOG("%lu records: %lu of the loop, %lu entries", t.recs, t.in,
	       t.entries);
	EXPECT_LT(0, t.in);
	EXPECT_GT(2 * AUX_WRAP_N, t.in);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.stray);
	EXPECT_EQ(0, t.kernel_from);
	EXPECT_EQ(0, t.zero);
	EXPECT_EQ(0, t.flagged);

	/* No room */
	bts_aux_window(fd, AUX_AFTER_N);
	EXPECT_EQ(head, bts_aux_head(&a));
	aux_log_read(&a.rb, &log);
	EXPECT_EQ(0, log.aux);
	EXPECT_EQ(0, log.itrace);
	EXPECT_EQ(0, log.other);

	/* Room: the next lap */
	__atomic_store_n(&a.rb.up->aux_tail, head, __ATOMIC_RELEASE);
	sw = bts_aux_window(fd, AUX_AFTER_N);
	head = bts_aux_log(_metadata, &a, &log);
	EXPECT_EQ(0, log.itrace);
	EXPECT_EQ(0, log.other);
	EXPECT_LE(1, log.aux);
	EXPECT_GE(1 + sw, log.aux) TH_LOG("%llu switches", sw);
	ASSERT_GE(AUX_RECS, log.aux);
	end = a.size;
	for (i = 0; i < log.aux; i++) {
		EXPECT_EQ(end, log.rec[i].offset) TH_LOG("AUX %lu", i);
		EXPECT_EQ(0, log.rec[i].flags) TH_LOG("AUX %lu", i);
		end = log.rec[i].offset + log.rec[i].size;
	}
	EXPECT_EQ(end, head);
	EXPECT_GE(a.size, head - a.rb.up->aux_tail);
	aux_tally_log(&a, &log, AUX_AFTER_N, &t);
	EXPECT_EQ(2 * AUX_AFTER_N, t.in);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.stray);
	EXPECT_EQ(0, t.kernel_from);
	EXPECT_EQ(0, t.zero);
	EXPECT_EQ(0, t.unended);
	bts_aux_close(&a, fd);
}

/*
 * A walk of a snapshot ring back from @head: the entry into the kernel
 * that stopped the trace (ended), user branches after the loop (tail),
 * then the loop's, newest first (in; bad where out of order), and
 * user branches outside the loop among them (stray).
 */
struct snap_walk {
	unsigned long slots, tail, in, bad, stray, entries, kernel_from;
	unsigned long zero;
	bool ended;
};

static void snap_walk(const struct bts_aux *a, __u64 head, __u64 ring,
		      struct snap_walk *s)
{
	struct bts_rec r;
	__u64 pos = head;
	int want;

	for (s->slots = 0; s->slots < ring / BTS_REC; s->slots++) {
		pos = (pos + ring - BTS_REC) % ring;
		bts_aux_rec(a, pos, &r);
		if (!r.from && !r.to) {
			s->zero++;
		} else if (kernel_addr(r.from)) {
			s->kernel_from++;
		} else if (kernel_addr(r.to)) {
			s->ended |= !s->slots;
			s->entries++;
		} else if (!in_loop(r.from)) {
			if (s->in)
				s->stray++;
			else
				s->tail++;
		} else {
			/* ret, jz, then j2 and j1 in turn */
			want = s->in < 2 ? 3 - (int)s->in : !(s->in & 1);
			s->bad += loop_branch(r.from, r.to) != want;
			s->in++;
		}
	}
}

#define AUX_SNAP_PAGES	16
#define AUX_SNAP_N2	100

/*
 * A read-only AUX area is a snapshot: stock's driver writes it round and
 * round without an interrupt, whole records up to the last that fits
 * (65520 bytes of 64 KiB, the rest left zero), and aux_head is where it
 * would write next, within the area.  At each stop it writes one
 * PERF_RECORD_AUX: offset aux_head, size the whole area, flags
 * PERF_AUX_FLAG_OVERWRITE alone (one per window, one more at most per
 * context switch).  After bts_loop(3000), 6000 records, the ring holds
 * the newest: back from aux_head the entry into the kernel, a few
 * branches after the loop, then the loop's, in order, all the way
 * round.  Enabled again, the trace goes on from aux_head.
 */
TEST(bts_aux_snapshot)
{
	static struct aux_log log;
	struct aux_tally t = {};
	struct snap_walk s = {};
	struct bts_aux a = {};
	__u64 head, ring, pos, sw;
	struct bts_rec r;
	unsigned long i;
	int type, fd;

	BTS_AUX_REQUIRE(type);
	fd = bts_aux_open(type, 0);
	ASSERT_LE(0, fd) TH_LOG("intel_bts: %s", strerror(errno));
	ASSERT_EQ(0, bts_aux_map(&a, fd, AUX_SNAP_PAGES, PROT_READ));
	ring = a.size - a.size % BTS_REC;
	sw = bts_aux_window(fd, AUX_WRAP_N);
	head = bts_aux_log(_metadata, &a, &log);

	EXPECT_EQ(1, log.itrace);
	EXPECT_EQ(0, log.itrace_late);
	EXPECT_EQ(0, log.other);
	EXPECT_EQ(0, log.bad_size);
	EXPECT_LE(1, log.aux);
	EXPECT_GE(1 + sw, log.aux) TH_LOG("%llu switches", sw);
	ASSERT_GE(AUX_RECS, log.aux);
	ASSERT_LT(0, log.aux);
	for (i = 0; i < log.aux; i++) {
		EXPECT_EQ(a.size, log.rec[i].size) TH_LOG("AUX %lu", i);
		EXPECT_EQ(PERF_AUX_FLAG_OVERWRITE, log.rec[i].flags);
	}
	EXPECT_EQ(head, log.rec[log.aux - 1].offset);
	EXPECT_EQ(0, head % BTS_REC);
	EXPECT_GT(ring, head);
	EXPECT_TRUE(bts_aux_zero(&a, ring, a.size));
	snap_walk(&a, head, ring, &s);
	TH_LOG("%lu slots: %lu after the loop, %lu of it, %lu entries",
	       s.slots, s.tail, s.in, s.entries);
	EXPECT_TRUE(s.ended);
	EXPECT_LT(0, s.tail);
	EXPECT_GE(8, s.tail);
	EXPECT_EQ(0, s.bad);
	EXPECT_EQ(0, s.stray);
	EXPECT_EQ(0, s.kernel_from);
	EXPECT_EQ(0, s.zero);
	EXPECT_EQ(s.slots, s.tail + s.in + s.entries);

	/* On from aux_head */
	bts_aux_window(fd, AUX_SNAP_N2);
	pos = head;
	head = bts_aux_log(_metadata, &a, &log);
	EXPECT_EQ(0, log.itrace);
	ASSERT_LT(0, log.aux);
	EXPECT_EQ(head, log.rec[log.aux - 1].offset);
	EXPECT_EQ(PERF_AUX_FLAG_OVERWRITE, log.rec[log.aux - 1].flags);
	for (; pos != head && t.recs < ring / BTS_REC;
	     pos = (pos + BTS_REC) % ring) {
		bts_aux_rec(&a, pos, &r);
		aux_tally_rec(&r, AUX_SNAP_N2, &t);
	}
	bts_aux_rec(&a, (head + ring - BTS_REC) % ring, &r);
	EXPECT_TRUE(!kernel_addr(r.from) && kernel_addr(r.to));
	EXPECT_EQ(2 * AUX_SNAP_N2, t.in);
	EXPECT_EQ(0, t.bad);
	EXPECT_EQ(0, t.stray);
	EXPECT_EQ(0, t.kernel_from);
	EXPECT_EQ(0, t.zero);
	bts_aux_close(&a, fd);
}

/* The branch stack event of bts_beside_lbr */
static void attr_lbr(struct perf_event_attr *attr)
{
	attr_hw(attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->sample_period = 2003;
	attr->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr->branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				   PERF_SAMPLE_BRANCH_USER;
}

/* Open @attr for @pid on @cpu: the fd, or -errno */
static int open_on(struct perf_event_attr *attr, pid_t pid, int cpu)
{
	int fd = sys_perf_event_open(attr, pid, cpu, -1, 0);

	return fd < 0 ? -errno : fd;
}

static void close_fd(int fd)
{
	if (fd >= 0)
		close(fd);
}

/*
 * Who may trace beside whom, stock's rules, EBUSY each: BTS and the last
 * branch records are exclusive across the system (x86_add_exclusive()),
 * so while any intel_bts event exists, the branch-instructions event at
 * a period of 1 and a branch-stack event are refused, and the other way
 * round.  intel_bts is an exclusive PMU to the core: one event of it per
 * task on a CPU (or on any), and per-task and CPU-wide events of it not
 * at once.  A counting event opens beside it; a task's intel_bts events
 * on two CPUs do, and another task's.
 */
TEST(bts_aux_exclusive)
{
	struct perf_event_attr attr, bts, lbr;
	int type, fd, fd2, other, go;
	pid_t child;

	BTS_AUX_REQUIRE(type);
	HW_REQUIRE();
	attr_intel_bts(&attr, type);
	attr_bts(&bts);
	attr_lbr(&lbr);

	fd = open_on(&attr, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("intel_bts: %s", strerror(-fd));
	EXPECT_EQ(-EBUSY, open_on(&bts, 0, -1));
	EXPECT_EQ(-EBUSY, open_on(&lbr, 0, -1));
	other = open_hw_user(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
			     1, -1);
	EXPECT_LE(0, other) TH_LOG("instructions: %s", strerror(errno));
	close_fd(other);
	EXPECT_EQ(-EBUSY, open_on(&attr, 0, -1));
	EXPECT_EQ(-EBUSY, open_on(&attr, 0, 0));
	EXPECT_EQ(-EBUSY, open_on(&attr, -1, 0));
	child = fork_held(&go, NULL);
	ASSERT_LT(0, child);
	other = open_on(&attr, child, -1);
	EXPECT_LE(0, other) TH_LOG("another task: %s", strerror(-other));
	close_fd(other);
	close(go);
	waitpid(child, NULL, 0);
	close(fd);

	fd = open_on(&attr, 0, 0);
	ASSERT_LE(0, fd) TH_LOG("on CPU 0: %s", strerror(-fd));
	fd2 = open_on(&attr, 0, 1);
	EXPECT_LE(0, fd2) TH_LOG("and on CPU 1: %s", strerror(-fd2));
	EXPECT_EQ(-EBUSY, open_on(&attr, 0, -1));
	close_fd(fd2);
	close(fd);

	fd = open_on(&attr, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("CPU 0's: %s", strerror(-fd));
	EXPECT_EQ(-EBUSY, open_on(&attr, 0, -1));
	EXPECT_EQ(-EBUSY, open_on(&attr, -1, 0));
	fd2 = open_on(&attr, -1, 1);
	EXPECT_LE(0, fd2) TH_LOG("CPU 1's: %s", strerror(-fd2));
	close_fd(fd2);
	close(fd);

	other = open_on(&bts, 0, -1);
	ASSERT_LE(0, other) TH_LOG("branches:u -c 1: %s", strerror(-other));
	EXPECT_EQ(-EBUSY, open_on(&attr, 0, -1));
	close(other);
	other = open_on(&lbr, 0, -1);
	ASSERT_LE(0, other) TH_LOG("branch stack: %s", strerror(-other));
	EXPECT_EQ(-EBUSY, open_on(&attr, 0, -1));
	close(other);
	fd = open_on(&attr, 0, -1);
	EXPECT_LE(0, fd) TH_LOG("intel_bts again: %s", strerror(-fd));
	close_fd(fd);
}

/* A child's open of intel_bts: 0, or the errno */
static int open_bts_child(void *arg)
{
	int fd = sys_perf_event_open(arg, 0, -1, -1, 0);

	return fd < 0 ? errno : 0;
}

/*
 * Privilege (stock: the core's rule for kernel events, and bts.c's own
 * for user-only ones, as BTS shows kernel addresses whatever it
 * excludes): for an unprivileged user intel_bts opens at
 * perf_event_paranoid 1 and below, with or without exclude_kernel; at 2
 * both are EACCES, while a user-only counting event opens; at 3
 * everything is.  Root traces the kernel: with exclude_kernel 0 the
 * trace has records from kernel addresses besides the loop; with
 * exclude_user too, only those.
 */
TEST(bts_aux_kernel_rules)
{
	static const struct {
		int paranoid, ek, want, want_insn;
	} tab[] = {
		{ -1, 0, 0, 0 }, { -1, 1, 0, 0 }, { 0, 0, 0, 0 },
		{ 0, 1, 0, 0 }, { 1, 0, 0, 0 }, { 1, 1, 0, 0 },
		{ 2, 0, EACCES, 0 }, { 2, 1, EACCES, 0 },
		{ 3, 0, EACCES, EACCES }, { 3, 1, EACCES, EACCES },
	};
	static struct aux_log log;
	struct perf_event_attr attr;
	struct bts_aux a = {};
	struct aux_tally t;
	unsigned int i;
	int type, fd, eu;

	BTS_AUX_REQUIRE(type);
	for (i = 0; i < ARRAY_SIZE(tab); i++) {
		attr_intel_bts(&attr, type);
		attr.exclude_kernel = tab[i].ek;
		EXPECT_EQ(tab[i].want, run_unprivileged(tab[i].paranoid,
							open_bts_child, &attr))
			TH_LOG("paranoid %d, exclude_kernel %d",
			       tab[i].paranoid, tab[i].ek);
		attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		attr.exclude_kernel = 1;
		EXPECT_EQ(tab[i].want_insn, run_unprivileged(tab[i].paranoid,
							     open_bts_child,
							     &attr))
			TH_LOG("paranoid %d, instructions:u", tab[i].paranoid);
	}

	for (eu = 0; eu <= 1; eu++) {
		attr_intel_bts(&attr, type);
		attr.exclude_kernel = 0;
		attr.exclude_user = eu;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd) TH_LOG("intel_bts: %s", strerror(errno));
		ASSERT_EQ(0, bts_aux_map(&a, fd, AUX_EXACT_PAGES, RW));
		bts_aux_window(fd, AUX_SNAP_N2);
		bts_aux_log(_metadata, &a, &log);
		aux_tally_log(&a, &log, AUX_SNAP_N2, &t);
		TH_LOG("exclude_user %d: %lu records, %lu from kernel, %lu loop",
		       eu, t.recs, t.kernel_from, t.in);
		EXPECT_EQ(1, log.itrace);
		EXPECT_LE(1, log.aux);
		EXPECT_LT(0, t.kernel_from);
		EXPECT_EQ(eu ? 0 : 2 * AUX_SNAP_N2, t.in);
		EXPECT_EQ(0, t.bad);
		EXPECT_EQ(0, eu ? t.user_from : t.stray);
		EXPECT_EQ(0, t.zero);
		bts_aux_close(&a, fd);
	}
}

TEST_HARNESS_MAIN
