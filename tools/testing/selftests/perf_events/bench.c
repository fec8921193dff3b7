// SPDX-License-Identifier: GPL-2.0
/*
 * perf_events micro-benchmarks (not a kselftest).
 *
 *   bench [name]
 *
 * Prints one line per benchmark:
 *
 *   BENCH <name> <value> <unit>
 *
 * where value is the mean cost in nanoseconds (CLOCK_MONOTONIC, i.e. guest
 * time: under QEMU -icount that is deterministic) per operation, except
 * rb_throughput which is MB/s of sample records written and consumed.
 * With a name argument only that benchmark runs.  BENCH_MS (environment)
 * sets the time each benchmark aims to measure for (default 200 ms).
 *
 * The whole process is pinned to CPU 0 so that ping-pong partners share
 * a CPU and every run sees the same scheduling.
 */
#include "perf_test.h"

static long target_ns = 200 * 1000000L;
static int failed;

static __u64 now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static void die(const char *what)
{
	fprintf(stderr, "bench: %s: %s\n", what, strerror(errno));
	exit(1);
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
	__u64 t0;

	/* Warm-up: caches, page tables, first-time allocations. */
	if (run(n0 > 4 ? n0 / 4 : 1, arg) < 0)
		return -1;
	/*
	 * Stop on the time actually spent (run() may report less than it
	 * took, e.g. a difference against a baseline).
	 */
	while (spent < target_ns) {
		t0 = now_ns();
		t = run(n, arg);
		if (t < 0)
			return -1;
		spent += now_ns() - t0;
		total += t;
		ops += n;
		if (now_ns() - t0 < target_ns / 4 && n < (1L << 24))
			n *= 2;
	}
	return total / ops;
}

/* ---- context-switch ping-pong --------------------------------------- */

/*
 * Pipe ping-pong between this process (the pinger) and a child, both on
 * CPU 0: one operation is one round trip (two context switches).  nev
 * enabled per-task software events of type config are open on the
 * pinger only.
 */
static double pingpong(long n, int nev, __u64 config)
{
	int p1[2], p2[2], *fds = NULL, i;
	__u64 t0, t1;
	pid_t pid;
	char c = 0;

	if (pipe(p1) || pipe(p2))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		close(p1[1]);
		close(p2[0]);
		while (read(p1[0], &c, 1) == 1)
			if (write(p2[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(p1[0]);
	close(p2[1]);

	if (nev) {
		fds = calloc(nev, sizeof(*fds));
		for (i = 0; i < nev; i++) {
			fds[i] = open_sw(config, 0, -1);
			if (fds[i] < 0)
				die("perf_event_open (ping-pong)");
		}
	}
	for (i = 0; i < 8; i++) {	/* let both sides settle */
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			die("pipe i/o");
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		if (write(p1[1], &c, 1) != 1 || read(p2[0], &c, 1) != 1)
			die("pipe i/o");
	}
	t1 = now_ns();

	for (i = 0; i < nev; i++)
		close(fds[i]);
	free(fds);
	close(p1[1]);
	close(p2[0]);
	waitpid(pid, NULL, 0);
	return (double)(t1 - t0);
}

/* Per-task context-switch events: they count on every switch. */
static double run_ctxsw(long n, long nev)
{
	return pingpong(n, nev, PERF_COUNT_SW_CONTEXT_SWITCHES);
}

/*
 * Events that are scheduled in and out with the task but never fire
 * (cpu-migrations, everything pinned to one CPU): the cost of switching
 * a context with that many events in it.
 */
static double run_sched_in(long n, long nev)
{
	return pingpong(n, nev, PERF_COUNT_SW_CPU_MIGRATIONS);
}

/* ---- read() ----------------------------------------------------------- */

static double run_read_1(long n, long arg)
{
	__u64 v, t0, t1;
	long i;
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 0, -1);

	if (fd < 0)
		die("perf_event_open (read_1)");
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			die("read");
	t1 = now_ns();
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
	t0 = now_ns();
	for (j = 0; j < n; j++)
		if (read(fds[0], buf, sizeof(buf)) != want)
			die("read group");
	t1 = now_ns();
	for (i = nev - 1; i >= 0; i--)
		close(fds[i]);
	return (double)(t1 - t0);
}

/* ---- open/close ------------------------------------------------------- */

static double run_open_close(long n, long arg)
{
	struct perf_event_attr attr;
	__u64 t0, t1;
	long i;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_CONTEXT_SWITCHES);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd < 0)
			die("perf_event_open (open_close)");
		close(fd);
	}
	t1 = now_ns();
	return (double)(t1 - t0);
}

/* ---- fork/exit with inherited events ---------------------------------- */

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
	t0 = now_ns();
	for (j = 0; j < n; j++) {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid)
			die("waitpid");
	}
	t1 = now_ns();
	for (i = 0; i < nev; i++)
		close(fds[i]);
	return (double)(t1 - t0);
}

/* ---- sampling into the ring buffer ------------------------------------ */

#define RB_PAGES	64	/* data pages of the ring buffer */
#define FAULT_CHUNK	512	/* pages faulted between ring-buffer drains */

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
	t0 = now_ns();
	for (i = 0; i < npages; i++)
		p[i * page_size] = 1;
	t1 = now_ns();
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

/*
 * Per page fault: cost with a sample_period=1 page-faults event writing
 * IP|TID|TIME samples, minus the cost of the same faults without it.
 */
static double run_sample_write(long n, long arg)
{
	struct perf_event_mmap_page *mp;
	double base = 0, with = 0;
	long done, c;
	int fd;

	for (done = 0; done < n; done += c) {
		c = n - done < FAULT_CHUNK ? n - done : FAULT_CHUNK;
		base += touch_fresh(c);
	}
	fd = open_fault_sampler(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				PERF_SAMPLE_TIME, &mp);
	for (done = 0; done < n; done += c) {
		c = n - done < FAULT_CHUNK ? n - done : FAULT_CHUNK;
		with += touch_fresh(c);
		rb_drop(mp);
	}
	munmap(mp, (1 + RB_PAGES) * page_size);
	close(fd);
	return with > base ? with - base : 0;
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
	t0 = now_ns();
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
	t1 = now_ns();
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

/* ---- driver ----------------------------------------------------------- */

enum kind { NS_PER_OP, MB_PER_S };

static const struct bench {
	const char *name;
	run_fn run;
	long arg;
	long n0;
	enum kind kind;
} benches[] = {
	{ "ctxsw_0",		run_ctxsw,		0,	64,	NS_PER_OP },
	{ "ctxsw_1",		run_ctxsw,		1,	64,	NS_PER_OP },
	{ "ctxsw_8",		run_ctxsw,		8,	64,	NS_PER_OP },
	{ "ctxsw_64",		run_ctxsw,		64,	32,	NS_PER_OP },
	{ "read_1",		run_read_1,		0,	256,	NS_PER_OP },
	{ "read_group_8",	run_read_group,		8,	256,	NS_PER_OP },
	{ "open_close",		run_open_close,		0,	64,	NS_PER_OP },
	{ "fork_exit_inherit_8", run_fork_inherit,	8,	16,	NS_PER_OP },
	{ "sample_write",	run_sample_write,	0,	256,	NS_PER_OP },
	{ "rb_throughput",	run_rb_throughput,	0,	8,	MB_PER_S },
	{ "sched_in_1",		run_sched_in,		1,	64,	NS_PER_OP },
	{ "sched_in_16",	run_sched_in,		16,	64,	NS_PER_OP },
	{ "sched_in_256",	run_sched_in,		256,	16,	NS_PER_OP },
};

static void run_bench(const struct bench *b)
{
	double v;

	rb_bytes = 0;
	rb_ns = 0;
	v = measure(b->run, b->arg, b->n0);
	if (v < 0) {
		printf("BENCH %s error -\n", b->name);
		failed = 1;
		return;
	}
	if (b->kind == MB_PER_S) {
		/* Bytes consumed over the time spent producing them. */
		printf("BENCH %s %.1f MB/s\n", b->name,
		       rb_ns > 0 ? rb_bytes / rb_ns * 1e9 / 1e6 : 0.0);
	} else {
		printf("BENCH %s %.1f ns\n", b->name, v);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	const char *only = argc > 1 ? argv[1] : NULL;
	const char *env = getenv("BENCH_MS");
	size_t i;
	int ran = 0;

	if (env && atol(env) > 0)
		target_ns = atol(env) * 1000000L;
	page_size = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (pin_to_cpu(0))
		die("sched_setaffinity");

	for (i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		if (only && strcmp(only, benches[i].name))
			continue;
		run_bench(&benches[i]);
		ran++;
	}
	if (only && !ran) {
		fprintf(stderr, "bench: unknown benchmark '%s'; one of:", only);
		for (i = 0; i < sizeof(benches) / sizeof(benches[0]); i++)
			fprintf(stderr, " %s", benches[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	return failed;
}
