// SPDX-License-Identifier: GPL-2.0
/*
 * perf_events micro-benchmarks (not a kselftest).
 *
 *   bench [name]
 *
 * Prints one line per benchmark:
 *
 *   BENCH <name> <value> <unit> <baseline>
 *
 * where value is the mean cost in nanoseconds (CLOCK_MONOTONIC, i.e. guest
 * time: under QEMU -icount that is deterministic) per operation, except
 * rb_throughput which is MB/s of sample records written and consumed.
 * On our QEMU's x86 PMU models with pmu-access-counts=on (make bench's hw
 * boot), a second line gives the PMU register accesses per operation:
 *
 *   BENCHPMU <name> <rdmsr> <wrmsr> <rdpmc> <faulted>
 *
 * summed over both CPUs, in the same timed parts as the time.
 * baseline names the benchmark that does the same operation without any
 * event ("-" if none): a context switch or a fork costs far more than
 * perf adds to it, so the harness compares value minus the baseline's
 * value, the part perf is responsible for, between kernels.
 * A benchmark that needs what this machine or kernel does not have (the
 * hw_ ones without a hardware PMU) prints "n/a" as its value, says why on
 * stderr, and is not a failure.
 *
 * Arguments select what runs: a benchmark's name, "hw" (every hw_
 * benchmark: hardware events), "lbr" (every lbr_, pebs_ and spe_ one:
 * branch records, precise samples and SPE, which need a PMU model with
 * them) or "sw"
 * (all the others); none runs all.
 * BENCH_MS (environment) sets the time each benchmark aims to measure for
 * (default 200 ms).
 *
 * The whole process is pinned to CPU 0 so that ping-pong partners share
 * a CPU and every run sees the same scheduling.
 */
#include "perf_test.h"
#include "hw_test.h"

static long target_ns = 200 * 1000000L;
static int failed;

/*
 * What a run() returns when the benchmark cannot run here (no hardware
 * PMU, no user RDPMC); na_why says why.
 */
#define NOT_AVAILABLE	(-2.0)
static char na_why[160];

static double not_available(const char *what, int err)
{
	snprintf(na_why, sizeof(na_why), "%s%s%s", what, err ? ": " : "",
		 err ? strerror(err) : "");
	return NOT_AVAILABLE;
}

static __u64 now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/*
 * Time a run() spent waiting on purpose (settle()), which measure() does
 * not count towards its target: it is neither the operation nor setup
 * that grows with n.
 */
static __u64 settled_ns;

/* Sleep @us microseconds, outside what measure() counts. */
static void settle(long us)
{
	__u64 t0 = now_ns();

	usleep(us);
	settled_ns += now_ns() - t0;
}

static void die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

/*
 * PMU register accesses.  Under -icount an RDMSR or WRMSR costs one
 * instruction, where silicon pays a hundred cycles or more and a KVM
 * guest a VM exit, so guest time cannot show a driver that touches its
 * registers needlessly.  Our QEMU's x86 PMU model counts them when asked
 * (the pmu-access-counts property, harness/qemu/0017) and reports the
 * counts of all vCPUs through a CPUID leaf of its own: the first leaf
 * says "perfcorePMUa", the next one gives RDMSR, WRMSR, RDPMC and faulted
 * accesses, each modulo 2^32.
 */
#define PMU_ACCESS_CPUID	0x4fffff00u
/* RDMSR, WRMSR, RDPMC and faulted, in the order the leaf gives them. */
#define PMU_ACCESS_KINDS	4

static int have_pmu_access;
/* The timed parts' accesses since measure() began counting. */
static double access_sum[PMU_ACCESS_KINDS];
/* What span_begin() read, as raw 32-bit counts. */
static unsigned int span_access[PMU_ACCESS_KINDS];
/* The accesses measure() found per operation. */
static double access_per_op[PMU_ACCESS_KINDS];

static void pmu_access_read(unsigned int r[PMU_ACCESS_KINDS])
{
#if defined(__x86_64__)
	__cpuid(PMU_ACCESS_CPUID + 1, r[0], r[1], r[2], r[3]);
#else
	memset(r, 0, PMU_ACCESS_KINDS * sizeof(*r));
#endif
}

static int pmu_access_probe(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	__cpuid(PMU_ACCESS_CPUID, a, b, c, d);
	return a == PMU_ACCESS_CPUID + 1 && b == 0x66726570 &&
	       c == 0x65726f63 && d == 0x61554d50;	/* "perfcorePMUa" */
#else
	return 0;
#endif
}

/*
 * The timed part of a run() is what lies between span_begin() and
 * span_end(), both of which return now_ns(); the PMU register accesses
 * in between go to access_sum.  Spans do not nest.
 */
static __u64 span_begin(void)
{
	if (have_pmu_access)
		pmu_access_read(span_access);
	return now_ns();
}

static __u64 span_end(void)
{
	__u64 t = now_ns();
	unsigned int r[PMU_ACCESS_KINDS];
	int k;

	if (have_pmu_access) {
		pmu_access_read(r);
		/* unsigned: a count that wrapped in between still subtracts */
		for (k = 0; k < PMU_ACCESS_KINDS; k++)
			access_sum[k] += r[k] - span_access[k];
	}
	return t;
}

/*
 * Scales the accesses added to access_sum since it was @before by
 * @factor: for a run() whose operations are not the spans it timed.
 */
static void access_scale(const double before[PMU_ACCESS_KINDS], double factor)
{
	int k;

	for (k = 0; k < PMU_ACCESS_KINDS; k++)
		access_sum[k] = before[k] + (access_sum[k] - before[k]) * factor;
}

/*
 * Each benchmark provides run(n, arg): do n operations and return the
 * nanoseconds they took (setup and teardown outside the timed part), or a
 * negative value on error.  measure() grows n until the accumulated time
 * reaches target_ns and returns the mean per operation.
 */
typedef double (*run_fn)(long n, long arg);

static double measure(run_fn run, long arg, long n0)
{
	double total = 0, spent = 0, t;
	long ops = 0, n = n0;
	int k;
	__u64 t0;

	/* Warm-up: caches, page tables, first-time allocations. */
	t = run(n0 > 4 ? n0 / 4 : 1, arg);
	if (t < 0)
		return t;
	memset(access_sum, 0, sizeof(access_sum));
	/*
	 * Stop on the time actually spent (run() may report less than it
	 * took, e.g. a difference against a baseline).
	 */
	while (spent < target_ns) {
		__u64 took;

		settled_ns = 0;
		t0 = now_ns();
		t = run(n, arg);
		if (t < 0)
			return t;
		took = now_ns() - t0 - settled_ns;
		spent += took;
		total += t;
		ops += n;
		if (took < target_ns / 4 && n < (1L << 24))
			n *= 2;
	}
	for (k = 0; k < PMU_ACCESS_KINDS; k++)
		access_per_op[k] = access_sum[k] / ops;
	return total / ops;
}

/* ---- context-switch ping-pong --------------------------------------- */

/*
 * Events a ping-pong task opens on itself: nev of them, the i-th by
 * opener(i), into fds[]; 0, or -1 with errno set (and none left open).
 */
typedef int (*open_fn)(int i);

static int open_events(int *fds, int nev, open_fn opener)
{
	int i, err;

	for (i = 0; i < nev; i++) {
		fds[i] = opener(i);
		if (fds[i] < 0) {
			err = errno;
			while (i--)
				close(fds[i]);
			errno = err;
			return -1;
		}
	}
	return 0;
}

static void close_events(int *fds, int nev)
{
	while (nev--)
		close(fds[nev]);
}

/*
 * Pipe ping-pong between this process (the pinger) and a child, both on
 * CPU 0: one operation is one round trip (two context switches).  nev
 * events, the i-th opened by opener(i), are open on the pinger and, with
 * both, each task has nev of its own.  Returns the ns of the n round
 * trips, or -1 with errno set if the pinger's events did not open.
 */
static double pingpong(long n, int nev, open_fn opener, int both)
{
	int p1[2], p2[2], *fds, i;
	__u64 t0, t1;
	pid_t pid;
	char c = 0;

	fds = calloc(nev ? nev : 1, sizeof(*fds));
	if (!fds)
		die("calloc");
	if (pipe(p1) || pipe(p2))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(p1[1]);
		close(p2[0]);
		if (both && nev && open_events(fds, nev, opener)) {
			/* The pinger's next write fails (SIGPIPE). */
			fprintf(stderr, "bench: ping-pong child: perf_event_open: %s\n",
				strerror(errno));
			_exit(1);
		}
		while (read(p1[0], &c, 1) == 1)
			if (write(p2[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(p1[0]);
	close(p2[1]);

	if (nev && open_events(fds, nev, opener)) {
		int err = errno;

		close(p1[1]);	/* the child sees EOF and exits */
		close(p2[0]);
		waitpid(pid, NULL, 0);
		free(fds);
		errno = err;
		return -1;
	}
	for (i = 0; i < 8; i++) {	/* let both sides settle */
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			die("pipe i/o");
	}
	t0 = span_begin();
	for (i = 0; i < n; i++) {
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			die("pipe i/o");
	}
	t1 = span_end();

	close_events(fds, nev);
	free(fds);
	close(p1[1]);
	close(p2[0]);
	waitpid(pid, NULL, 0);
	return (double)(t1 - t0);
}

static int open_ctxsw(int i)
{
	return open_sw(PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1);
}

static int open_migrations(int i)
{
	return open_sw(PERF_COUNT_SW_CPU_MIGRATIONS, 0, -1);
}

static double sw_pingpong(long n, int nev, open_fn opener)
{
	double t = pingpong(n, nev, opener, 0);

	if (t < 0)
		die("perf_event_open (ping-pong)");
	return t;
}

/* Per-task context-switch events: they count on every switch. */
static double run_ctxsw(long n, long nev)
{
	return sw_pingpong(n, nev, open_ctxsw);
}

/*
 * Events that are scheduled in and out with the task but never fire
 * (cpu-migrations, everything pinned to one CPU): the cost of switching
 * a context with that many events in it.
 */
static double run_sched_in(long n, long nev)
{
	return sw_pingpong(n, nev, open_migrations);
}

/* ---- read() ----------------------------------------------------------- */

static double run_read_1(long n, long arg)
{
	__u64 v, t0, t1;
	long i;
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);

	if (fd < 0)
		die("perf_event_open (read_1)");
	t0 = span_begin();
	for (i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			die("read");
	t1 = span_end();
	close(fd);
	return (double)(t1 - t0);
}

static double run_read_group(long n, long nev)
{
	struct perf_event_attr attr;
	__u64 buf[1 + 64], t0, t1;
	int fds[64], i;
	long j;
	ssize_t want = (1 + nev) * sizeof(__u64);

	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	attr.read_format = PERF_FORMAT_GROUP;
	fds[0] = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fds[0] < 0)
		die("perf_event_open (group leader)");
	for (i = 1; i < nev; i++) {
		fds[i] = open_sw(i & 1 ? PERF_COUNT_SW_CONTEXT_SWITCHES :
				 PERF_COUNT_SW_TASK_CLOCK, 0, fds[0]);
		if (fds[i] < 0)
			die("perf_event_open (group sibling)");
	}
	t0 = span_begin();
	for (j = 0; j < n; j++)
		if (read(fds[0], buf, sizeof(buf)) != want)
			die("read group");
	t1 = span_end();
	for (i = nev - 1; i >= 0; i--)
		close(fds[i]);
	return (double)(t1 - t0);
}

/*
 * ioctl(PERF_EVENT_IOC_ENABLE) then ioctl(PERF_EVENT_IOC_DISABLE), both
 * with PERF_IOC_FLAG_GROUP, on a group of nev counting events of this
 * task, the i-th opened by opener(i) into the first one's group: one
 * operation is the pair.  perf stat -D, perf record --control and the
 * fuzzer's enable/disable storms do this.
 */
typedef int (*group_open_fn)(int i, int group_fd);

/* nev events into fds[], a group; 0, or -1 with errno set (none left open). */
static int open_group(int *fds, int nev, group_open_fn opener)
{
	int i, err;

	for (i = 0; i < nev; i++) {
		fds[i] = opener(i, i ? fds[0] : -1);
		if (fds[i] < 0) {
			err = errno;
			close_events(fds, i);
			errno = err;
			return -1;
		}
	}
	return 0;
}

/* n enable + disable pairs of the group led by fd: the ns they took. */
static double toggle_n(int fd, long n)
{
	__u64 t0, t1;
	long j;

	t0 = span_begin();
	for (j = 0; j < n; j++)
		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) ||
		    ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP))
			die("ioctl (toggle group)");
	t1 = span_end();
	return (double)(t1 - t0);
}

static double toggle_group(long n, int nev, group_open_fn opener)
{
	int fds[8] = { -1 };
	double t;

	if (open_group(fds, nev, opener))
		return -1;
	t = toggle_n(fds[0], n);
	close_events(fds, nev);
	return t;
}

static int open_sw_member(int i, int group_fd)
{
	return open_sw(i & 1 ? PERF_COUNT_SW_CONTEXT_SWITCHES :
		       PERF_COUNT_SW_TASK_CLOCK, 1, group_fd);
}

static double run_toggle_group(long n, long nev)
{
	double t = toggle_group(n, nev, open_sw_member);

	if (t < 0)
		die("perf_event_open (toggle_group)");
	return t;
}

/* ---- open/close ------------------------------------------------------- */

static double run_open_close(long n, long arg)
{
	struct perf_event_attr attr;
	__u64 t0, t1;
	long i;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_CONTEXT_SWITCHES);
	t0 = span_begin();
	for (i = 0; i < n; i++) {
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd < 0)
			die("perf_event_open (open_close)");
		close(fd);
	}
	t1 = span_end();
	return (double)(t1 - t0);
}

/* ---- fork/exit with inherited events ---------------------------------- */

/*
 * fork(), _exit() and waitpid() of a child that does nothing, with nev
 * inherited events open on this task, each copied into the child and
 * folded back into its parent at exit.  nev 0 is the baseline.
 */
static double run_fork_inherit(long n, long nev)
{
	struct perf_event_attr attr;
	int fds[64], i, status;
	__u64 t0, t1;
	long j;
	pid_t pid;

	for (i = 0; i < nev; i++) {
		attr_sw(&attr, i & 1 ? PERF_COUNT_SW_TASK_CLOCK :
			PERF_COUNT_SW_CONTEXT_SWITCHES);
		attr.disabled = 0;
		attr.inherit = 1;
		fds[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fds[i] < 0)
			die("perf_event_open (inherit)");
	}
	t0 = span_begin();
	for (j = 0; j < n; j++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
	}
	t1 = span_end();
	for (i = 0; i < nev; i++)
		close(fds[i]);
	return (double)(t1 - t0);
}

/* ---- sampling into the ring buffer ------------------------------------ */

#define RB_PAGES	64	/* data pages of the ring buffer */

static long page_size;

/* Fault in npages fresh anonymous pages; returns the ns spent touching. */
static double touch_fresh(long npages)
{
	__u64 t0, t1;
	char *p;
	long i;

	p = mmap(NULL, npages * page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
#ifdef MADV_NOHUGEPAGE
	madvise(p, npages * page_size, MADV_NOHUGEPAGE);
#endif
	t0 = span_begin();
	for (i = 0; i < npages; i++)
		p[i * page_size] = 1;
	t1 = span_end();
	munmap(p, npages * page_size);
	return (double)(t1 - t0);
}

static int open_fault_sampler(__u64 sample_type, struct perf_event_mmap_page **mp)
{
	struct perf_event_attr attr;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	attr.sample_period = 1;
	attr.sample_type = sample_type;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		die("perf_event_open (page-faults sampler)");
	*mp = mmap(NULL, (1 + RB_PAGES) * page_size, PROT_READ | PROT_WRITE,
		   MAP_SHARED, fd, 0);
	if (*mp == MAP_FAILED)
		die("mmap ring buffer");
	return fd;
}

/* Throw away everything written so far; returns the bytes dropped. */
static __u64 rb_drop(struct perf_event_mmap_page *mp)
{
	__u64 head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = mp->data_tail;

	__atomic_store_n(&mp->data_tail, head, __ATOMIC_RELEASE);
	return head - tail;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define SAMPLE_PAIR	64	/* faults in each half of a base/with pair */

/*
 * Per page fault: cost with a sample_period=1 page-faults event writing
 * IP|TID|TIME samples, minus the cost of the same faults with the event
 * disabled.  The two alternate in short runs and the median difference
 * per fault is taken: a fault's cost drifts over a long run (page
 * allocator, caches), and one run of each would measure the drift as
 * much as perf's part of it.
 */
static double run_sample_write(long n, long arg)
{
	long pairs = (n + SAMPLE_PAIR - 1) / SAMPLE_PAIR, i, c;
	struct perf_event_mmap_page *mp;
	double base, with, med, *diff;
	int fd;

	diff = calloc(pairs, sizeof(*diff));
	if (!diff)
		die("calloc");
	fd = open_fault_sampler(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME, &mp);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < pairs; i++) {
		c = n - i * SAMPLE_PAIR;
		if (c > SAMPLE_PAIR)
			c = SAMPLE_PAIR;
		base = touch_fresh(c);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		with = touch_fresh(c);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		rb_drop(mp);
		diff[i] = (with - base) / c;
	}
	munmap(mp, (1 + RB_PAGES) * page_size);
	close(fd);
	qsort(diff, pairs, sizeof(*diff), cmp_double);
	med = diff[pairs / 2];
	free(diff);
	return med > 0 ? med * n : 0;
}

/*
 * Ring-buffer throughput: page-fault samples (64-byte records) written
 * by the kernel and consumed (walked record by record) by the same
 * thread between chunks of faults.  One operation here is one chunk; the
 * result is turned into MB/s by the caller.
 */
static double rb_bytes, rb_ns;

static __u64 rb_consume(struct perf_event_mmap_page *mp)
{
	const char *data = (const char *)mp + page_size;
	__u64 head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = mp->data_tail, bytes = 0, sum = 0;
	const __u64 size = RB_PAGES * page_size;

	while (tail < head) {
		const struct perf_event_header *h =
			(const void *)(data + (tail % size));

		if (!h->size)
			break;
		if (h->type == PERF_RECORD_SAMPLE)
			sum += ((const __u64 *)(h + 1))[0];
		bytes += h->size;
		tail += h->size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
	rb_bytes += bytes;
	return sum;
}

#define RB_REGION	64	/* pages re-faulted per chunk */

static double run_rb_throughput(long n, long arg)
{
	struct perf_event_mmap_page *mp;
	volatile __u64 sink = 0;
	__u64 t0, t1;
	double bytes0;
	long i, j;
	char *p;
	int fd;

	p = mmap(NULL, RB_REGION * page_size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
#ifdef MADV_NOHUGEPAGE
	madvise(p, RB_REGION * page_size, MADV_NOHUGEPAGE);
#endif
	fd = open_fault_sampler(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
				PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
				PERF_SAMPLE_PERIOD, &mp);
	rb_consume(mp);
	bytes0 = rb_bytes;
	t0 = span_begin();
	for (i = 0; i < n; i++) {
		/*
		 * Replace the region with fresh zero pages so that every
		 * touch faults again (the guest's tinyconfig kernel has no
		 * madvise(), so MADV_DONTNEED is not an option).
		 */
		if (mmap(p, RB_REGION * page_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != p)
			die("mmap MAP_FIXED");
		for (j = 0; j < RB_REGION; j++)
			p[j * page_size] = 1;
		sink += rb_consume(mp);
	}
	t1 = span_end();
	if (rb_bytes == bytes0) {
		fprintf(stderr, "bench: rb_throughput: no records consumed\n");
		return -1;
	}
	rb_ns += (double)(t1 - t0);
	munmap(mp, (1 + RB_PAGES) * page_size);
	close(fd);
	munmap(p, RB_REGION * page_size);
	(void)sink;
	return (double)(t1 - t0);
}

/* ---- hardware events ------------------------------------------------- */

/*
 * The hw_ benchmarks: hardware counters, as perf stat, perf record and
 * self-monitoring programs use them.  The harness runs them on x86_64
 * under our QEMU's intel PMU model (-icount shift=0: architectural
 * perfmon v2, counting each vCPU's instructions exactly, see hw_test.h)
 * and on arm64's PMUv3.  Without a hardware PMU, in CPUID (x86) or in
 * the kernel (no counter driver: PERF_TYPE_HARDWARE fails with ENOENT),
 * they report n/a.
 */
static const char *hw_absent_why;

/* Whether hardware events are out of the question here (see na_why). */
static int hw_absent(void)
{
	static int probed;

	if (!probed) {
		probed = 1;
		hw_absent_why = hw_pmu_probe()->absent;
		/*
		 * As in the hardware tests (hw_test.h): the perf NMI
		 * watchdog (x86's HARDLOCKUP_DETECTOR_PERF) holds a cycles
		 * counter on every CPU and takes an NMI now and then; a
		 * perf user turns it off to have every counter, and so do
		 * we.  A kernel that cannot drive it refuses the write.
		 */
		if (!hw_absent_why)
			write_file("/proc/sys/kernel/nmi_watchdog", "0");
	}
	if (hw_absent_why)
		not_available(hw_absent_why, 0);
	return hw_absent_why != NULL;
}

/*
 * A hardware open failed: n/a if the kernel has no PMU for it (no
 * counter driver, or the event is not one this PMU has), fatal otherwise.
 */
static double hw_open_failed(const char *what)
{
	int err = errno;

	if (err == ENOENT || err == ENODEV || err == EOPNOTSUPP)
		return not_available("perf_event_open(PERF_TYPE_HARDWARE)", err);
	errno = err;
	die(what);
	return -1;
}

/* A counting PERF_TYPE_HARDWARE event on this task. */
static int hw_open(__u64 config, int disabled, int user_only)
{
	struct perf_event_attr attr;

	attr_hw(&attr, PERF_TYPE_HARDWARE, config);
	attr.disabled = disabled;
	attr.exclude_kernel = user_only;
	attr.exclude_hv = user_only;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* read() of one counting instructions event of this task, on the PMU. */
static double run_hw_read_1(long n, long arg)
{
	__u64 v, t0, t1;
	long i;
	int fd;

	if (hw_absent())
		return NOT_AVAILABLE;
	fd = hw_open(PERF_COUNT_HW_INSTRUCTIONS, 0, 0);
	if (fd < 0)
		return hw_open_failed("perf_event_open (hw_read_1)");
	t0 = span_begin();
	for (i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			die("read");
	t1 = span_end();
	close(fd);
	return (double)(t1 - t0);
}

/*
 * A counter as user space reads it, by the index the mmap page gives
 * less one: x86's RDPMC takes it as is (fixed counters have bit 30);
 * on arm64 (with kernel.perf_user_access=1, which the PMU driver turns
 * into PMUSERENR_EL0 for the task) 31 is the cycle counter and the
 * others are the event counters PMEVCNTR<n>_EL0.
 */
#if defined(__x86_64__)
static inline __u64 user_counter(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (__u64)hi << 32;
}
#elif defined(__aarch64__)
#define READ_SYSREG(r)	({ __u64 v; asm volatile("mrs %0, " #r : "=r" (v)); v; })

static inline __u64 user_counter(unsigned int counter)
{
	switch (counter) {
	case 0: return READ_SYSREG(pmevcntr0_el0);
	case 1: return READ_SYSREG(pmevcntr1_el0);
	case 2: return READ_SYSREG(pmevcntr2_el0);
	case 3: return READ_SYSREG(pmevcntr3_el0);
	case 4: return READ_SYSREG(pmevcntr4_el0);
	case 5: return READ_SYSREG(pmevcntr5_el0);
	case 31: return READ_SYSREG(pmccntr_el0);
	}
	return 0;
}
#endif

#define barrier()	asm volatile("" ::: "memory")

/*
 * The self-monitoring read of include/uapi/linux/perf_event.h, as
 * written there: under the page's seqlock, offset plus the
 * sign-extended counter read at index - 1.
 */
static inline __u64 mmap_read_self(volatile struct perf_event_mmap_page *pc)
{
	__u32 seq, idx, width;
	__u64 count, pmc;

	do {
		seq = pc->lock;
		barrier();
		idx = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && idx) {
			width = pc->pmc_width;
			pmc = user_counter(idx - 1);
			pmc <<= 64 - width;
			count += (__u64)((__s64)pmc >> (64 - width));
		}
		barrier();
	} while (pc->lock != seq);
	return count;
}

/*
 * The user-readable event hw_rdpmc reads: on arm64 it must ask for
 * user access (config1 bit 1, "rdpmc" in the PMU's format/) and, where
 * the PMU has 64-bit event counters, for one of them (bit 0, "long"),
 * which a counter read whole needs no sign extension for; a PMU without
 * them refuses the pair, and then the 32-bit counter serves.
 */
static int hw_open_user_readable(void)
{
	struct perf_event_attr attr;
	int fd;

	attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
#if defined(__aarch64__)
	if (write_file("/proc/sys/kernel/perf_user_access", "1"))
		return -1;
	attr.config1 = 0x3;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd >= 0 || errno != EOPNOTSUPP)
		return fd;
	attr.config1 = 0x2;
#endif
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	return fd;
}

/*
 * One user-only instructions event of this task read from user space
 * (RDPMC, or arm64's counter registers) through its mmap page: the
 * kernel is not involved, so this is the cost of the read sequence (and
 * of whatever the kernel does to the page or the counter meanwhile: a
 * retry, a tick).
 */
static double run_hw_rdpmc(long n, long arg)
{
	struct perf_event_mmap_page *pc;
	volatile __u64 sink = 0;
	__u64 t0, t1;
	long i;
	int fd;

	if (hw_absent())
		return NOT_AVAILABLE;
	fd = hw_open_user_readable();
	if (fd < 0)
		return hw_open_failed("perf_event_open (hw_rdpmc)");
	pc = perf_rb_mmap(fd, 0, PROT_READ);
	if (!pc)
		die("mmap (hw_rdpmc user page)");
	/* Enabled once mapped: scheduling it in fills the page. */
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	if (!pc->cap_user_rdpmc || !pc->index) {
		munmap(pc, page_size);
		close(fd);
		return not_available("no user counter read (cap_user_rdpmc or index 0)", 0);
	}
	t0 = span_begin();
	for (i = 0; i < n; i++)
		sink += mmap_read_self(pc);
	t1 = span_end();
	munmap(pc, page_size);
	close(fd);
	(void)sink;
	return (double)(t1 - t0);
}

/*
 * Context switches of two tasks with nev hardware counting events each
 * (instructions and cycles, alternately, user and kernel: for 4, on
 * Intel fixed counters 0 and 1 and two general-purpose ones, on arm64
 * the cycle counter and event counters), every switch taking nev off the
 * PMU and putting nev on: the ping-pong with those events, per round
 * trip.  Each task's events are its own (not inherited), so no context
 * is swapped whole.  Its baseline, hw_ctxsw_0, is the same ping-pong
 * without events in the same boot: the intel PMU model is another CPU
 * than the software benchmarks' x86_64 one, so ctxsw_0 would not do.
 *
 * The third and fourth events differ from the first two in exclude_hv,
 * which changes nothing they count but keeps perfcore from sharing a
 * counter between them (kernel/events/share.c): four counters, as on
 * stock.  hw_ctxsw_same_4 is the shared case: four identical
 * instructions events, four counters on stock, one on perfcore.
 */
static int open_hw_counting(int i)
{
	struct perf_event_attr attr;

	attr_hw(&attr, PERF_TYPE_HARDWARE, i & 1 ? PERF_COUNT_HW_CPU_CYCLES :
		PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.exclude_hv = !!(i & 2);
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static int open_hw_same(int i)
{
	return hw_open(PERF_COUNT_HW_INSTRUCTIONS, 0, 0);
}

static double run_hw_ctxsw_with(long n, long nev, open_fn opener)
{
	double t;

	/*
	 * The baseline (nev 0) opens no event and runs with or without a
	 * PMU, but calls hw_absent() too: that turns the NMI watchdog off,
	 * and the baseline must see the machine its scenarios see.
	 */
	if (hw_absent() && nev)
		return NOT_AVAILABLE;
	t = pingpong(n, nev, opener, 1);
	if (t < 0)
		return hw_open_failed("perf_event_open (hw_ctxsw)");
	return t;
}

static double run_hw_ctxsw(long n, long nev)
{
	return run_hw_ctxsw_with(n, nev, open_hw_counting);
}

static double run_hw_ctxsw_same(long n, long nev)
{
	return run_hw_ctxsw_with(n, nev, open_hw_same);
}

/*
 * Branch records ("lbr", on a PMU model that has them): a context switch
 * where the pinger samples with a call-stack event (perf record
 * --call-graph lbr) and its partner records nothing (lbr_ctxsw_callstack),
 * and one where both do (lbr_ctxsw_callstack_both).  The records of a
 * call-stack task must survive its switches and another task's must not
 * leak to it: stock saves and restores them at each switch, perfcore
 * leaves them in place while no other task records and wipes them when
 * one does.  The period is never reached: the cost is the switch's.
 */
static int open_lbr_callstack(int i)
{
	struct perf_event_attr attr;

	attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = 1ULL << 40;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK |
				  PERF_SAMPLE_BRANCH_USER;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/* arg: 0 the baseline (no event), 1 the pinger's event, 2 both's. */
static double run_lbr_ctxsw(long n, long arg)
{
	double t;

	if (hw_absent() && arg)
		return NOT_AVAILABLE;
	t = pingpong(n, arg ? 1 : 0, open_lbr_callstack, arg == 2);
	if (t < 0)
		return hw_open_failed("perf_event_open (lbr_ctxsw)");
	return t;
}

/*
 * Where open_hw_member() opens: this task (pid 0, cpu -1) by default,
 * inherited or not.
 */
static int member_pid, member_cpu = -1, member_inherit;

/* A counting hardware event in group_fd's group. */
static int open_hw_member(int i, int group_fd)
{
	struct perf_event_attr attr;

	attr_hw(&attr, PERF_TYPE_HARDWARE, i & 1 ? PERF_COUNT_HW_CPU_CYCLES :
		PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 1;
	attr.inherit = member_inherit;
	return sys_perf_event_open(&attr, member_pid, member_cpu, group_fd, 0);
}

/* toggle_group() on a group of nev hardware events. */
static double run_hw_toggle_group(long n, long nev)
{
	double t;

	if (hw_absent())
		return NOT_AVAILABLE;
	t = toggle_group(n, nev, open_hw_member);
	if (t < 0)
		return hw_open_failed("perf_event_open (hw_toggle_group)");
	return t;
}

/*
 * toggle_group() on a CPU-wide group of nev hardware events of CPU 1,
 * from CPU 0: each change is a cross-CPU call.  Needs two CPUs.
 */
static double run_hw_toggle_cpu_group(long n, long nev)
{
	double t;

	if (hw_absent())
		return NOT_AVAILABLE;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return not_available("one CPU online", 0);
	member_pid = -1;
	member_cpu = 1;
	t = toggle_group(n, nev, open_hw_member);
	member_pid = 0;
	member_cpu = -1;
	if (t < 0)
		return hw_open_failed("perf_event_open (hw_toggle_cpu_group)");
	return t;
}

/*
 * toggle_group() on an inherited group of nev hardware events of this
 * task, with a child that forked after the group opened and waits: each
 * change is made to the child's copies as well, in a context that is
 * not running.
 */
static double run_hw_toggle_inherited(long n, long nev)
{
	int fds[8], go[2], status, err;
	pid_t child;
	double t;

	if (hw_absent())
		return NOT_AVAILABLE;
	member_inherit = 1;
	err = open_group(fds, nev, open_hw_member);
	member_inherit = 0;
	if (err)
		return hw_open_failed("perf_event_open (hw_toggle_inherited)");
	if (pipe(go))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		char c;

		close(go[1]);
		_exit(read(go[0], &c, 1) < 0);
	}
	close(go[0]);
	t = toggle_n(fds[0], n);
	close(go[1]);
	waitpid(child, &status, 0);
	close_events(fds, nev);
	return t;
}

/*
 * toggle_group() on a group of four software events while nev hardware
 * events of the task count beside it: enabling a group of one PMU has
 * no business with the others' counters.
 */
static double run_hw_toggle_beside(long n, long nev)
{
	int fds[8];
	double t;

	if (hw_absent())
		return NOT_AVAILABLE;
	if (open_events(fds, nev, open_hw_counting))
		return hw_open_failed("perf_event_open (hw_toggle_sw_beside)");
	t = toggle_group(n, 4, open_sw_member);
	close_events(fds, nev);
	if (t < 0)
		die("perf_event_open (hw_toggle_sw_beside)");
	return t;
}

/*
 * Multiplexing: a user loop (one operation: hwc_loop() of a million
 * instructions, a millisecond of guest time under -icount shift=0)
 * while ngroups flexible groups of two hardware events (cycles leading
 * instructions) of this task compete for the counters, more than the
 * PMU holds at once, so the multiplexing timer swaps them all the
 * while.  Against hw_mux_0 (the loop alone), what is left is the cost
 * of the timer's rounds, which take groups off and offer the PMU to the
 * waiting ones: perf stat -e with more events than counters pays it for
 * as long as it runs.
 */
#define MUX_LOOP	(1000000 / LOOP_K)

static double run_hw_mux(long n, long ngroups)
{
	int fds[2 * 32], i, err = 0, shared;
	__u64 t0, t1;
	long j;

	if (hw_absent() && ngroups)
		return NOT_AVAILABLE;
	/* The groups are identical: perfcore would share, not multiplex. */
	shared = hw_share_counters(0);
	for (i = 0; i < ngroups && !err; i++)
		err = open_group(&fds[2 * i], 2, open_hw_member);
	if (err) {
		close_events(fds, 2 * (i - 1));
		if (shared >= 0)
			hw_share_counters(shared);
		return hw_open_failed("perf_event_open (hw_mux)");
	}
	for (i = 0; i < ngroups; i++)
		if (ioctl(fds[2 * i], PERF_EVENT_IOC_ENABLE,
			  PERF_IOC_FLAG_GROUP))
			die("ioctl (hw_mux)");
	t0 = span_begin();
	for (j = 0; j < n; j++)
		hwc_loop(MUX_LOOP);
	t1 = span_end();
	close_events(fds, 2 * ngroups);
	if (shared >= 0)
		hw_share_counters(shared);
	return (double)(t1 - t0);
}

/*
 * Sampling: a user-only instructions event with sample_period
 * PMI_PERIOD (IP, TID, TIME and PERIOD, as perf record writes) over a
 * user loop, one PMI and one sample record every PMI_PERIOD loop
 * instructions.  One operation is one sample: (loop time with the
 * event - the same loop without it) / samples written.  The ring buffer
 * is drained between chunks of PMI_CHUNK samples, outside the timing.
 *
 * At this rate (100,000 samples a second of guest time) the kernel's
 * interrupt throttling would decide what is measured: the default
 * perf_event_max_sample_rate allows 400 samples a tick, about what the
 * loop makes, and perf_cpu_time_max_percent lowers it as soon as the
 * PMIs take over 25% of the CPU.  So the benchmark raises the rate and
 * turns the dynamic limit off (the kernel logs "Dynamic interrupt
 * throttling disabled"), as one does to sample at a high rate, and puts
 * both back when bench exits.
 *
 * The same with the event precise (precise_ip 2), on a PMU with PEBS
 * (intel-lbr): pebs_sample_pmi asks for a wakeup per sample, which
 * keeps the driver at a PMI per record; pebs_sample_large asks for
 * nothing a record does not have, so the records pile up in the PEBS
 * buffer and a PMI drains hundreds ("large PEBS").  Their ring buffer
 * holds a whole PEBS buffer's worth of samples.
 *
 * And with a branch stack of every user branch (perf record -b), on a
 * PMU with branch records (the "lbr" group's boots: x86's LBR, arm64's
 * BRBE): lbr_brstack_sample, the PMI's reading of the records and their
 * copy to the ring buffer (1.5 KiB a sample with BRBE's 64) on top.
 */
#define PMI_PERIOD	10000
#define PMI_CHUNK	256
#define PMI_PAGES	16	/* 64 KiB: 1600 records of 40 bytes */
#define PEBS_PAGES	128	/* 512 KiB: 13,000 records */
enum { SAMPLE_PMI, SAMPLE_PEBS, SAMPLE_LARGE, SAMPLE_BRSTACK };

struct pmi_tally {
	long samples, throttles, lost;
};

/* Count and hand back every record written so far in @pages' buffer. */
static void pmi_drain(struct perf_event_mmap_page *mp, int pages,
		      struct pmi_tally *t)
{
	const char *data = (const char *)mp + page_size;
	__u64 head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	__u64 tail = mp->data_tail;
	const __u64 size = pages * page_size;

	while (tail < head) {
		const struct perf_event_header *h =
			(const void *)(data + (tail % size));

		if (!h->size)
			break;
		if (h->type == PERF_RECORD_SAMPLE)
			t->samples++;
		else if (h->type == PERF_RECORD_THROTTLE)
			t->throttles++;
		else if (h->type == PERF_RECORD_LOST)
			t->lost++;
		tail += h->size;
	}
	__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

static double run_hw_sample_pmi(long n, long arg)
{
	const unsigned long loop = PMI_CHUNK * PMI_PERIOD / LOOP_K;
	const int pages = arg == SAMPLE_PMI ? PMI_PAGES : PEBS_PAGES;
	const char *name = arg == SAMPLE_PMI ? "hw_sample_pmi" :
			   arg == SAMPLE_PEBS ? "pebs_sample_pmi" :
			   arg == SAMPLE_BRSTACK ? "lbr_brstack_sample" :
			   "pebs_sample_large";
	struct perf_event_mmap_page *mp;
	struct perf_event_attr attr;
	struct pmi_tally tally = { 0 };
	double before[PMU_ACCESS_KINDS];
	long c, chunks = (n + PMI_CHUNK - 1) / PMI_CHUNK;
	double base = 0, with = 0;
	__u64 t0;
	int fd;

	if (hw_absent())
		return NOT_AVAILABLE;
	if (no_throttling())
		fprintf(stderr, "bench: %s: cannot turn throttling off\n", name);
	for (c = 0; c < chunks; c++) {
		t0 = now_ns();
		hwc_loop(loop);
		base += now_ns() - t0;
	}

	attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = PMI_PERIOD;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (arg == SAMPLE_PEBS || arg == SAMPLE_LARGE)
		attr.precise_ip = 2;
	if (arg == SAMPLE_PEBS)
		attr.wakeup_events = 1;
	if (arg == SAMPLE_BRSTACK) {
		attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	}
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	/* Not precise (no PEBS), no branch records: nothing to measure. */
	if (fd < 0 && arg != SAMPLE_PMI && errno == EOPNOTSUPP)
		return NOT_AVAILABLE;
	if (fd < 0)
		return hw_open_failed("perf_event_open (hw_sample_pmi)");
	mp = perf_rb_mmap(fd, pages, PROT_READ | PROT_WRITE);
	if (!mp)
		die("mmap (hw_sample_pmi ring buffer)");
	memcpy(before, access_sum, sizeof(before));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (c = 0; c < chunks; c++) {
		t0 = span_begin();
		hwc_loop(loop);
		with += span_end() - t0;
		pmi_drain(mp, pages, &tally);
	}
	/* A large PEBS event's last records come out as it stops. */
	t0 = span_begin();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	with += span_end() - t0;
	pmi_drain(mp, pages, &tally);
	munmap(mp, (1 + pages) * page_size);
	close(fd);

	if (!tally.samples) {
		fprintf(stderr, "bench: %s: no samples\n", name);
		return -1;
	}
	if (tally.throttles || tally.lost)
		fprintf(stderr, "bench: %s: %ld throttle and %ld lost records in %ld samples\n",
			name, tally.throttles, tally.lost, tally.samples);
	/* Per sample, in measure()'s terms of n operations. */
	access_scale(before, (double)n / tally.samples);
	return with > base ? (with - base) * n / tally.samples : 0;
}

/*
 * The Statistical Profiling Extension (arm64, make bench's spe boot):
 * what perf costs per SPE sample.  A user loop sampled by an arm_spe
 * event every SPE_BENCH_PERIOD instructions, its AUX area read as it
 * fills, with a wakeup every page (aux_watermark), so that the buffer
 * stops at each page boundary and the driver hands the page to perf
 * and opens the next stretch: time with the event minus time without,
 * per record found in the area.  Our QEMU's model writes a record in no
 * guest time, so the figure is the driver's and the core's work, the
 * buffer interrupt and its AUX records, spread over the page's records.
 */
#define SPE_BENCH_PERIOD	1024
#define SPE_BENCH_CHUNK		256	/* samples between reads */
#define SPE_BENCH_AUX_PAGES	64
#define SPE_BENCH_DATA_PAGES	8
/*
 * Each run opens and tears down its own event and AUX area, and part of
 * a teardown happens a grace period later (the event and its buffer on
 * both kernels, the AUX pages on ours): tens of thousands of
 * instructions that landed in the next run's timed loops, its baseline
 * or its sampled part by chance, and moved the figure by up to a third.
 * Each run first sleeps past them.
 */
#define SPE_BENCH_SETTLE_US	50000

/*
 * Records between @tail and @head of @size-byte @aux (free running,
 * wrapping): SPE's packets walked as their headers give their sizes, a
 * record ending at an end or timestamp packet.  -1 on a header SPE
 * does not have.
 */
static long spe_count_records(const unsigned char *aux, __u64 size,
			      __u64 tail, __u64 head)
{
	long records = 0;

	while (tail < head) {
		unsigned char h = aux[tail % size];
		int len = spe_payload_size(h);

		if (len < 0)
			return -1;
		if (h == 0x01 || h == 0x71)	/* a record's last packet */
			records++;
		tail += 1 + len;
	}
	return records;
}

static double run_spe_sample(long n, long arg)
{
	const unsigned long loop = SPE_BENCH_CHUNK * SPE_BENCH_PERIOD / LOOP_K;
	const size_t aux_size = SPE_BENCH_AUX_PAGES * page_size;
	struct perf_event_mmap_page *mp;
	struct perf_event_attr attr;
	long c, chunks = (n + SPE_BENCH_CHUNK - 1) / SPE_BENCH_CHUNK;
	long records = 0, r;
	double base = 0, with = 0;
	unsigned char *aux;
	char name[64];
	__u64 t0, tail = 0, head;
	int fd;

	if (find_pmu_named("arm_spe_", name, sizeof(name)))
		return not_available("no arm_spe PMU", 0);
	settle(SPE_BENCH_SETTLE_US);
	for (c = 0; c < chunks; c++) {
		t0 = now_ns();
		hwc_loop(loop);
		base += now_ns() - t0;
	}

	attr_arm_spe(&attr, pmu_type(name), 0, SPE_BENCH_PERIOD);
	attr.aux_watermark = page_size;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		die("perf_event_open (spe_sample)");
	mp = perf_rb_mmap(fd, SPE_BENCH_DATA_PAGES, PROT_READ | PROT_WRITE);
	if (!mp)
		die("mmap (spe_sample data area)");
	mp->aux_offset = (1 + SPE_BENCH_DATA_PAGES) * page_size;
	mp->aux_size = aux_size;
	aux = mmap(NULL, aux_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   mp->aux_offset);
	if (aux == MAP_FAILED)
		die("mmap (spe_sample AUX area)");
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (c = 0; c < chunks; c++) {
		t0 = span_begin();
		hwc_loop(loop);
		with += span_end() - t0;
		/* Read what is there and hand it back, as perf would. */
		head = __atomic_load_n(&mp->aux_head, __ATOMIC_ACQUIRE);
		r = spe_count_records(aux, aux_size, tail, head);
		if (r < 0) {
			fprintf(stderr, "bench: spe_sample: a packet SPE does not have\n");
			records = -1;
			break;
		}
		records += r;
		tail = head;
		__atomic_store_n(&mp->aux_tail, tail, __ATOMIC_RELEASE);
		/* The data area's PERF_RECORD_AUX records: nothing to keep */
		__atomic_store_n(&mp->data_tail,
				 __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE),
				 __ATOMIC_RELEASE);
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap(aux, aux_size);
	munmap(mp, (1 + SPE_BENCH_DATA_PAGES) * page_size);
	close(fd);

	if (records <= 0) {
		fprintf(stderr, "bench: spe_sample: no records\n");
		return -1;
	}
	/* Per sample, in measure()'s terms of n operations. */
	return with > base ? (with - base) * n / records : 0;
}

/* ---- driver ----------------------------------------------------------- */

enum kind { NS_PER_OP, MB_PER_S };

/*
 * base: the benchmark doing the same operation without events, whose
 * value the harness subtracts to get perf's part of this one; NULL when
 * the operation is all perf, or already measured against its baseline
 * (sample_write, hw_sample_pmi).  A baseline is in its benchmark's group
 * (hw or sw), so that it runs in the same boot, on the same CPU model.
 */
static const struct bench {
	const char *name;
	run_fn run;
	long arg;
	long n0;
	enum kind kind;
	const char *base;
} benches[] = {
	{ "ctxsw_0",		run_ctxsw,		0,	64,	NS_PER_OP, NULL },
	{ "ctxsw_1",		run_ctxsw,		1,	64,	NS_PER_OP, "ctxsw_0" },
	{ "ctxsw_8",		run_ctxsw,		8,	64,	NS_PER_OP, "ctxsw_0" },
	{ "ctxsw_64",		run_ctxsw,		64,	32,	NS_PER_OP, "ctxsw_0" },
	{ "read_1",		run_read_1,		0,	256,	NS_PER_OP, NULL },
	{ "read_group_8",	run_read_group,		8,	256,	NS_PER_OP, NULL },
	{ "open_close",		run_open_close,		0,	64,	NS_PER_OP, NULL },
	{ "toggle_group_4",	run_toggle_group,	4,	64,	NS_PER_OP, NULL },
	{ "fork_exit_0",	run_fork_inherit,	0,	16,	NS_PER_OP, NULL },
	{ "fork_exit_inherit_8", run_fork_inherit,	8,	16,	NS_PER_OP, "fork_exit_0" },
	{ "sample_write",	run_sample_write,	0,	256,	NS_PER_OP, NULL },
	{ "rb_throughput",	run_rb_throughput,	0,	8,	MB_PER_S, NULL },
	{ "sched_in_1",		run_sched_in,		1,	64,	NS_PER_OP, "ctxsw_0" },
	{ "sched_in_16",	run_sched_in,		16,	64,	NS_PER_OP, "ctxsw_0" },
	{ "sched_in_256",	run_sched_in,		256,	16,	NS_PER_OP, "ctxsw_0" },
	/*
	 * Hardware events ("hw"); n/a where there is no PMU, except
	 * hw_ctxsw_0, which opens none.
	 */
	{ "hw_read_1",		run_hw_read_1,		0,	256,	NS_PER_OP, NULL },
	{ "hw_toggle_group_4",	run_hw_toggle_group,	4,	64,	NS_PER_OP, NULL },
	{ "hw_toggle_sw_beside_4", run_hw_toggle_beside,	4,	64,	NS_PER_OP, NULL },
	{ "hw_toggle_cpu_group_4", run_hw_toggle_cpu_group,	4,	64,	NS_PER_OP, NULL },
	{ "hw_toggle_inherited_4", run_hw_toggle_inherited,	4,	64,	NS_PER_OP, NULL },
	{ "hw_rdpmc",		run_hw_rdpmc,		0,	1024,	NS_PER_OP, NULL },
	{ "hw_ctxsw_0",		run_hw_ctxsw,		0,	64,	NS_PER_OP, NULL },
	{ "hw_ctxsw_4",		run_hw_ctxsw,		4,	64,	NS_PER_OP, "hw_ctxsw_0" },
	{ "hw_ctxsw_same_4",	run_hw_ctxsw_same,	4,	64,	NS_PER_OP, "hw_ctxsw_0" },
	{ "hw_sample_pmi",	run_hw_sample_pmi,	SAMPLE_PMI, PMI_CHUNK, NS_PER_OP, NULL },
	{ "hw_mux_0",		run_hw_mux,		0,	16,	NS_PER_OP, NULL },
	{ "hw_mux_16",		run_hw_mux,		16,	16,	NS_PER_OP, "hw_mux_0" },
	/* Branch records ("lbr"): on a PMU model with them. */
	{ "lbr_ctxsw_0",	run_lbr_ctxsw,		0,	64,	NS_PER_OP, NULL },
	{ "lbr_ctxsw_callstack", run_lbr_ctxsw,		1,	64,	NS_PER_OP, "lbr_ctxsw_0" },
	{ "lbr_ctxsw_callstack_both", run_lbr_ctxsw,	2,	64,	NS_PER_OP, "lbr_ctxsw_0" },
	/* Precise samples (the "lbr" group's boot): on a PMU with PEBS. */
	{ "pebs_sample_pmi",	run_hw_sample_pmi, SAMPLE_PEBS, PMI_CHUNK, NS_PER_OP, NULL },
	{ "pebs_sample_large",	run_hw_sample_pmi, SAMPLE_LARGE, PMI_CHUNK, NS_PER_OP, NULL },
	/* Branch stacks (the "lbr" group's boots: LBR, BRBE). */
	{ "lbr_brstack_sample",	run_hw_sample_pmi, SAMPLE_BRSTACK, PMI_CHUNK, NS_PER_OP, NULL },
	/* Statistical profiling (the "lbr" group's boot on arm64). */
	{ "spe_sample",		run_spe_sample,		0,	SPE_BENCH_CHUNK, NS_PER_OP, NULL },
};

/* Whether b is the baseline of one of the nb benchmarks. */
static int is_baseline(const struct bench *b, size_t nb)
{
	size_t i;

	for (i = 0; i < nb; i++)
		if (benches[i].base && !strcmp(benches[i].base, b->name))
			return 1;
	return 0;
}

/*
 * A baseline measures its operation without perf, and perf is not gone
 * when the last event closes: the perf_sched_events static key, which
 * keeps the scheduler's perf hooks on, goes off HZ later (from delayed
 * work, in stock and ours alike).  A baseline run right after another
 * benchmark (hw_ctxsw_0 after hw_read_1, fork_exit_0 after open_close)
 * would count the hooks, visiting this task's emptied context, as part
 * of the operation, and hide that cost from the perf part.  So each
 * baseline first sleeps for longer than that.
 */
#define QUIESCE_S	2

static void run_bench(const struct bench *b, size_t nb)
{
	const char *base = b->base ? b->base : "-";
	double v;

	if (is_baseline(b, nb))
		sleep(QUIESCE_S);
	rb_bytes = 0;
	rb_ns = 0;
	na_why[0] = 0;
	v = measure(b->run, b->arg, b->n0);
	if (v == NOT_AVAILABLE) {
		fprintf(stderr, "bench: %s: n/a: %s\n", b->name, na_why);
		printf("BENCH %s n/a %s %s\n", b->name,
		       b->kind == MB_PER_S ? "MB/s" : "ns", base);
		fflush(stdout);
		return;
	}
	if (v < 0) {
		printf("BENCH %s error - %s\n", b->name, base);
		failed = 1;
		return;
	}
	if (b->kind == MB_PER_S) {
		/* Bytes consumed over the time spent producing them. */
		printf("BENCH %s %.1f MB/s %s\n", b->name,
		       rb_ns > 0 ? rb_bytes / rb_ns * 1e9 / 1e6 : 0.0, base);
	} else {
		printf("BENCH %s %.1f ns %s\n", b->name, v, base);
	}
	if (have_pmu_access)
		printf("BENCHPMU %s %.2f %.2f %.2f %.2f\n", b->name,
		       access_per_op[0], access_per_op[1],
		       access_per_op[2], access_per_op[3]);
	fflush(stdout);
}

/* A benchmark's group: "hw", "lbr" by its name's prefix, else "sw". */
static const char *group_of(const char *name)
{
	if (!strncmp(name, "hw_", 3))
		return "hw";
	if (!strncmp(name, "lbr_", 4) || !strncmp(name, "pebs_", 5) ||
	    !strncmp(name, "spe_", 4))
		return "lbr";
	return "sw";
}

/* Whether argument sel (a name, or a group: "hw", "lbr", "sw") selects b. */
static int selects(const char *sel, const struct bench *b)
{
	if (!strcmp(sel, "hw") || !strcmp(sel, "lbr") || !strcmp(sel, "sw"))
		return !strcmp(sel, group_of(b->name));
	return !strcmp(sel, b->name);
}

/*
 * Whether every baseline is a benchmark of its scenario's group, which
 * the harness runs in the same boot (else it would subtract a figure of
 * another CPU model, or find none), in the same unit, and has no
 * baseline of its own.
 */
static int baselines_ok(size_t nb)
{
	size_t i, j;

	for (i = 0; i < nb; i++) {
		if (!benches[i].base)
			continue;
		for (j = 0; j < nb; j++)
			if (!strcmp(benches[j].name, benches[i].base))
				break;
		if (j == nb || strcmp(group_of(benches[j].name),
				      group_of(benches[i].name)) ||
		    benches[j].kind != benches[i].kind || benches[j].base) {
			fprintf(stderr, "bench: %s: bad baseline %s\n",
				benches[i].name, benches[i].base);
			return 0;
		}
	}
	return 1;
}

int main(int argc, char **argv)
{
	const char *env = getenv("BENCH_MS");
	size_t i, nb = sizeof(benches) / sizeof(benches[0]);
	int a, ran = 0;

	if (!baselines_ok(nb))
		return 2;

	if (env && atol(env) > 0)
		target_ns = atol(env) * 1000000L;
	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (a = 1; a < argc; a++) {
		for (i = 0; i < nb; i++)
			if (selects(argv[a], &benches[i]))
				break;
		if (i == nb) {
			fprintf(stderr, "bench: unknown benchmark '%s'; hw, sw or one of:",
				argv[a]);
			for (i = 0; i < nb; i++)
				fprintf(stderr, " %s", benches[i].name);
			fprintf(stderr, "\n");
			return 2;
		}
	}
	if (pin_to_cpu(0))
		die("sched_setaffinity");
	have_pmu_access = pmu_access_probe();

	for (i = 0; i < nb; i++) {
		for (a = 1; a < argc; a++)
			if (selects(argv[a], &benches[i]))
				break;
		if (argc > 1 && a == argc)
			continue;
		run_bench(&benches[i], nb);
		ran++;
	}
	return failed || !ran;
}
