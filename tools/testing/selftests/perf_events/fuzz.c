// SPDX-License-Identifier: GPL-2.0
/*
 * A seeded stress of perf_event_open and its file descriptors, for what a
 * generic system-call fuzzer rarely builds on its own: groups that mix
 * PMUs (software, hardware, tracepoint, breakpoint), inheritance with
 * forks, vforks, threads, grandchildren and exec, ioctls on groups,
 * mmap with PERF_EVENT_IOC_SET_OUTPUT chains, sampling with every
 * sample_type bit, and enable/disable storms from several threads.
 *
 *   fuzz SECONDS SEED [WORKERS]
 *
 * Each worker process runs its own stream of operations from SEED and
 * its index, so a run is reproducible as far as scheduling allows.  It
 * is not a test of results: every call may fail, and most errors are
 * expected.  What it looks for is the kernel's reaction, which the
 * harness reads from the console (make fuzz).  The binary itself fails
 * only when a worker does not finish in time (a task stuck in the
 * kernel) or dies of a signal it did not ask for.  A work() that took
 * over 5 s prints the events its worker had open, each with enough of
 * its attributes (period, sample_type, breakpoint word) to open it
 * again in a replay.  It ends with where
 * the workers' time went (per kind of operation: how many, guest ms in
 * all, the longest one), then a summary: operations run, events opened,
 * and how many calls failed.  SIGINT ends the run early: the workers stop
 * after their current operation and the summary follows as usual.
 */
#define _GNU_SOURCE
#include "perf_test.h"

#include <poll.h>
#include <pthread.h>

#define MAX_FDS		48
#define MAX_CHILDREN	4
#define GRACE_S		60	/* after the deadline, for workers to end */
#define SLOW_WORK_MS	5000	/* a work() this long says what was open */
#define FUZZ_ENV	"PERF_FUZZ_EXEC"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* The kinds of operation a worker picks, for the time each took. */
enum op_kind {
	OP_OPEN, OP_IOCTL, OP_MMAP, OP_READ, OP_POLL, OP_CLOSE, OP_TASK,
	OP_STORM, OP_WORK, NR_OPS
};

static const char *const op_names[NR_OPS] = {
	"open", "ioctl", "mmap", "read", "poll", "close", "task", "storm",
	"work",
};

struct stats {
	unsigned long ops, opened, open_failed, calls_failed, tasks;
	/* per kind: how many, guest ms spent, the longest one in ms */
	unsigned long count[NR_OPS], ms[NR_OPS], max_ms[NR_OPS];
};

/* Shared with every worker: the totals. */
static struct stats *total;

static __thread unsigned long long rng;
static int fds[MAX_FDS];
static void *maps[MAX_FDS];
static size_t map_len[MAX_FDS];
static char what[MAX_FDS][96];	/* each open event, in short */
static int worker_id, slow_said;
static volatile long watched[4];
static struct stats st;
static int ncpus;
static long tp_ids[3];
/* intel_bts's type where the CPU has it (an AUX-area PMU), else -1 */
static int aux_pmu_type = -1;
static volatile int storm_stop;
/*
 * The run's deadline, shared with every worker: SIGINT brings it forward
 * to now (the harness ends a run early that the host cannot finish in
 * time), and each worker then ends after its current operation.
 */
static volatile time_t *deadline;

static int past_deadline(void)
{
	return time(NULL) >= *deadline;
}

static void on_interrupt(int sig)
{
	struct timespec now;

	/* time()'s clock, read the way POSIX allows a signal handler. */
	clock_gettime(CLOCK_REALTIME, &now);
	if (now.tv_sec < *deadline)
		*deadline = now.tv_sec;
}

/* xorshift64*: small, seedable, good enough to pick operations. */
static unsigned long long next_rand(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int pick(unsigned int n)
{
	return n ? next_rand() % n : 0;
}

static int chance(unsigned int percent)
{
	return pick(100) < percent;
}

static void random_attr(struct perf_event_attr *a, int leader)
{
	static const __u64 sw[] = {
		PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CONTEXT_SWITCHES,
		PERF_COUNT_SW_CPU_MIGRATIONS, PERF_COUNT_SW_DUMMY,
	};
	static const __u64 hw[] = {
		PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
		PERF_COUNT_HW_BRANCH_INSTRUCTIONS, PERF_COUNT_HW_REF_CPU_CYCLES,
	};

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	switch (pick(aux_pmu_type >= 0 ? 6 : 5)) {
	case 0:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = sw[pick(ARRAY_SIZE(sw))];
		break;
	case 1:
	case 2:
		a->type = PERF_TYPE_HARDWARE;
		a->config = hw[pick(ARRAY_SIZE(hw))];
		break;
	case 3:
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = tp_ids[pick(ARRAY_SIZE(tp_ids))];
		break;
	case 4:
		a->type = PERF_TYPE_BREAKPOINT;
		a->bp_type = chance(50) ? HW_BREAKPOINT_W : HW_BREAKPOINT_RW;
		a->bp_addr = (unsigned long)&watched[pick(4)];
		a->bp_len = HW_BREAKPOINT_LEN_8;
		break;
	case 5:
		a->type = aux_pmu_type;
		break;
	}
	a->disabled = chance(30);
	a->inherit = chance(60);
	a->inherit_stat = a->inherit && chance(30);
	a->pinned = leader && chance(10);
	a->exclusive = leader && chance(5);
	a->exclude_user = chance(10);
	a->exclude_kernel = chance(40);
	a->exclude_hv = chance(50);
	a->exclude_idle = chance(5);
	a->enable_on_exec = chance(15);
	a->remove_on_exec = !a->enable_on_exec && chance(10);
	a->read_format = next_rand() & 0x1f;	/* every read_format bit */
	if (chance(50)) {
		a->freq = chance(30);
		a->sample_period = a->freq ? 1 + pick(4000) : 1000 + pick(200000);
		a->sample_type = next_rand() & ((1ULL << 25) - 1);
		/* Kernel call chains and registers need nothing special. */
		a->sample_regs_user = next_rand() & 0xff;
		a->sample_stack_user = chance(20) ? 1024 : 0;
		a->sample_max_stack = pick(16);
		a->wakeup_events = pick(8);
		a->watermark = chance(10);
		if (a->watermark)
			a->wakeup_watermark = 1 + pick(4096);
	}
	a->mmap = chance(20);
	a->comm = chance(20);
	a->task = chance(20);
	a->sample_id_all = chance(50);
	a->context_switch = chance(10);
	a->mmap2 = chance(10);
	a->namespaces = chance(5);
	a->ksymbol = chance(5);
	a->write_backward = chance(10);
	a->sigtrap = a->remove_on_exec && chance(30);
	a->inherit_thread = a->inherit && chance(20);
}

static int free_slot(void)
{
	int i;

	for (i = 0; i < MAX_FDS; i++)
		if (fds[i] < 0)
			return i;
	return -1;
}

static int any_fd(void)
{
	int i, start = pick(MAX_FDS);

	for (i = 0; i < MAX_FDS; i++)
		if (fds[(start + i) % MAX_FDS] >= 0)
			return fds[(start + i) % MAX_FDS];
	return -1;
}

static void drop(int slot)
{
	if (maps[slot])
		munmap(maps[slot], map_len[slot]);
	maps[slot] = NULL;
	close(fds[slot]);
	fds[slot] = -1;
	what[slot][0] = 0;
}

/* A group of 1 to 5 events on this task, a child, or a CPU. */
static void op_open_group(void)
{
	struct perf_event_attr a;
	int i, n = 1 + pick(5), leader = -1, slot, fd, inherit = 0, n_what;
	int cpu = chance(70) ? -1 : (int)pick(ncpus);
	pid_t pid = cpu >= 0 && chance(30) ? -1 : 0;

	for (i = 0; i < n; i++) {
		slot = free_slot();
		if (slot < 0)
			return;
		random_attr(&a, i == 0);
		/* A group inherits whole or not at all. */
		if (i == 0)
			inherit = a.inherit;
		a.inherit = inherit;
		if (!inherit) {
			a.inherit_stat = 0;
			a.inherit_thread = 0;
		}
		a.sig_data = slot;	/* on_trap() finds the event by it */
		fd = sys_perf_event_open(&a, pid, cpu, leader,
					 chance(10) ? PERF_FLAG_FD_OUTPUT : 0);
		if (fd < 0 && i > 0) {
			/* Retry as a plain counting member. */
			a.sample_period = 0;
			a.sample_type = 0;
			a.freq = 0;
			a.sigtrap = 0;
			fd = sys_perf_event_open(&a, pid, cpu, leader, 0);
		}
		if (fd < 0) {
			st.open_failed++;
			if (i == 0)
				return;
			continue;
		}
		st.opened++;
		fds[slot] = fd;
		/*
		 * type:config, then i inherit, s sampling, T sigtrap, c on
		 * a CPU (pid -1 when c alone, else this task on one CPU);
		 * a sampling event adds /period (f: a frequency), its
		 * sample_type and, for a breakpoint, which watched word.
		 */
		n_what = snprintf(what[slot], sizeof(what[slot]),
				  "%u:%llx%s%s%s%s%s", a.type,
				  (unsigned long long)a.config,
				  a.inherit ? "i" : "",
				  a.sample_period ? "s" : "",
				  a.sigtrap ? "T" : "", cpu >= 0 ? "c" : "",
				  pid ? "" : cpu >= 0 ? "t" : "");
		if (a.sample_period && n_what < (int)sizeof(what[slot]))
			snprintf(what[slot] + n_what,
				 sizeof(what[slot]) - n_what,
				 "/%s%llu/%llx", a.freq ? "f" : "",
				 (unsigned long long)a.sample_period,
				 (unsigned long long)a.sample_type);
		n_what = strlen(what[slot]);
		if (a.type == PERF_TYPE_BREAKPOINT &&
		    n_what < (int)sizeof(what[slot]))
			snprintf(what[slot] + n_what,
				 sizeof(what[slot]) - n_what, "@%d%s",
				 (int)((a.bp_addr - (unsigned long)watched) /
				       sizeof(watched[0])),
				 a.bp_type == HW_BREAKPOINT_W ? "w" : "rw");
		if (i == 0)
			leader = fd;
	}
}

static void op_ioctl(void)
{
	static const unsigned long req[] = {
		PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
		PERF_EVENT_IOC_RESET, PERF_EVENT_IOC_REFRESH,
		PERF_EVENT_IOC_PERIOD, PERF_EVENT_IOC_SET_OUTPUT,
		PERF_EVENT_IOC_ID, PERF_EVENT_IOC_PAUSE_OUTPUT,
		PERF_EVENT_IOC_MODIFY_ATTRIBUTES,
	};
	unsigned long r = req[pick(ARRAY_SIZE(req))];
	int fd = any_fd(), err;
	struct perf_event_attr a;
	__u64 v = 1 + pick(100000);

	if (fd < 0)
		return;
	switch (r) {
	case PERF_EVENT_IOC_PERIOD:
	case PERF_EVENT_IOC_ID:
		err = ioctl(fd, r, &v);
		break;
	case PERF_EVENT_IOC_SET_OUTPUT:
		err = ioctl(fd, r, chance(20) ? -1 : any_fd());
		break;
	case PERF_EVENT_IOC_REFRESH:
		err = ioctl(fd, r, pick(3));
		break;
	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		err = ioctl(fd, r, pick(2));
		break;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		random_attr(&a, 1);
		err = ioctl(fd, r, &a);
		break;
	default:
		err = ioctl(fd, r, chance(50) ? PERF_IOC_FLAG_GROUP : 0);
	}
	if (err)
		st.calls_failed++;
}

static void op_mmap(void)
{
	int slot = pick(MAX_FDS);
	size_t len = (1 + (1U << pick(4))) * page_sz();
	int prot = chance(20) ? PROT_READ : PROT_READ | PROT_WRITE;
	void *p;

	if (fds[slot] < 0 || maps[slot])
		return;
	p = mmap(NULL, len, prot, MAP_SHARED, fds[slot], 0);
	if (p == MAP_FAILED) {
		st.calls_failed++;
		return;
	}
	maps[slot] = p;
	map_len[slot] = len;
	/*
	 * An AUX area where the PMU has one; the user page says where.  Of
	 * 1 to 8 pages, read-only (overwriting) at times, unmapped again at
	 * times while the event runs.
	 */
	if ((prot & PROT_WRITE) && chance(30)) {
		struct perf_event_mmap_page *up = p;
		size_t aux_len = page_sz() << pick(4);
		void *aux;

		up->aux_offset = len;
		up->aux_size = aux_len;
		aux = mmap(NULL, aux_len, chance(30) ? PROT_READ : prot,
			   MAP_SHARED, fds[slot], len);
		if (aux == MAP_FAILED)
			st.calls_failed++;
		else if (chance(30))
			munmap(aux, aux_len);
	}
}

static void op_read(void)
{
	char buf[1024];
	int fd = any_fd();

	if (fd >= 0 && read(fd, buf, 8 + pick(sizeof(buf) - 8)) < 0)
		st.calls_failed++;
}

static void op_poll(void)
{
	struct pollfd p = { .fd = any_fd(), .events = POLLIN };

	if (p.fd >= 0)
		poll(&p, 1, 0);
}

static void op_close(void)
{
	int slot = pick(MAX_FDS);

	if (fds[slot] >= 0)
		drop(slot);
}

/*
 * A work() that took long (contention, or an event that makes every
 * store or fault cost a trap): what this worker had open, to tell
 * which events a slow kernel path belongs to.
 */
static void say_slow_work(unsigned long ms)
{
	int i;

	if (slow_said++ >= 2)
		return;
	printf("fuzz: worker %d: work took %lu ms with events", worker_id, ms);
	for (i = 0; i < MAX_FDS; i++)
		if (fds[i] >= 0)
			printf(" %s", what[i]);
	printf("\n");
	fflush(stdout);
}

/* What a task does while its inherited events count. */
static void work(void)
{
	char *p;
	int i;

	for (i = 0; i < 2000; i++) {
		watched[i & 3] = i;
		if (!(i & 255))
			syscall(SYS_getppid);
	}
	p = fresh(4);
	if (p) {
		for (i = 0; i < 4; i++)
			p[i * page_sz()] = 1;
		munmap(p, 4 * page_sz());
	}
	if (chance(20))
		sched_yield();
}

static void *thread_work(void *arg)
{
	work();
	return NULL;
}

static void reap(int block)
{
	while (waitpid(-1, NULL, block ? 0 : WNOHANG) > 0)
		;
}

/* A child by fork, vfork or exec, a grandchild, or a thread. */
static void op_task(void)
{
	pthread_t t;
	pid_t pid;

	st.tasks++;
	switch (pick(5)) {
	case 0:
		pid = fork();
		if (pid == 0) {
			work();
			_exit(0);
		}
		break;
	case 1:
		pid = vfork();
		if (pid == 0)
			_exit(0);
		break;
	case 2:
		pid = fork();
		if (pid == 0) {
			if (fork() == 0) {
				work();
				_exit(0);
			}
			work();
			reap(1);
			_exit(0);
		}
		break;
	case 3:
		pid = fork();
		if (pid == 0) {
			char *argv[] = { "fuzz-exec", NULL };
			char *envp[] = { FUZZ_ENV "=1", NULL };

			execve("/proc/self/exe", argv, envp);
			_exit(127);
		}
		break;
	case 4:
		if (!pthread_create(&t, NULL, thread_work, NULL))
			pthread_join(t, NULL);
		return;
	}
	reap(0);
}

/*
 * Several threads enabling and disabling the same events at once, until
 * the storm's own thread is done or the run's deadline, whichever comes
 * first.  Not only the former: that thread waits its turn for the same
 * context mutexes, and togglers that went on past the deadline could
 * keep it waiting there, and the worker running, into the harness's
 * limit.
 */
static void *storm(void *arg)
{
	int i = 0;

	while (!storm_stop && !past_deadline()) {
		int fd = fds[i++ % MAX_FDS];

		if (fd >= 0)
			ioctl(fd, i & 1 ? PERF_EVENT_IOC_ENABLE :
				  PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	}
	return NULL;
}

static void op_storm(void)
{
	pthread_t t[3];
	int i, n = 0;

	storm_stop = 0;
	for (i = 0; i < 3; i++)
		if (!pthread_create(&t[i], NULL, storm, NULL))
			n++;
	/*
	 * Up to 200 prctl()s, but none started after the deadline: against
	 * three togglers each one waits its turn for the context mutexes,
	 * and under a debug kernel a storm takes tens of seconds on stock
	 * too.  A prctl() that never returns still keeps the worker from
	 * finishing, which is what the run looks for.
	 */
	for (i = 0; i < 200 && !past_deadline(); i++)
		prctl(i & 1 ? PR_TASK_PERF_EVENTS_ENABLE :
			      PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	work();
	storm_stop = 1;
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
}

static void worker(unsigned long long seed)
{
	int i;

	rng = seed ? seed : 1;
	for (i = 0; i < MAX_FDS; i++)
		fds[i] = -1;
	while (!past_deadline()) {
		enum op_kind kind;
		unsigned long ms;
		struct timespec t0, t1;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		switch (pick(16)) {
		case 0: case 1: case 2: case 3:
			op_open_group();
			kind = OP_OPEN;
			break;
		case 4: case 5: case 6:
			op_ioctl();
			kind = OP_IOCTL;
			break;
		case 7:
			op_mmap();
			kind = OP_MMAP;
			break;
		case 8:
			op_read();
			kind = OP_READ;
			break;
		case 9:
			op_poll();
			kind = OP_POLL;
			break;
		case 10: case 11:
			op_close();
			kind = OP_CLOSE;
			break;
		case 12: case 13:
			op_task();
			kind = OP_TASK;
			break;
		case 14:
			op_storm();
			kind = OP_STORM;
			break;
		default:
			work();
			kind = OP_WORK;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		ms = (t1.tv_sec - t0.tv_sec) * 1000 +
		     (t1.tv_nsec - t0.tv_nsec) / 1000000;
		st.count[kind]++;
		if (kind == OP_WORK && ms >= SLOW_WORK_MS)
			say_slow_work(ms);
		st.ms[kind] += ms;
		if (ms > st.max_ms[kind])
			st.max_ms[kind] = ms;
		st.ops++;
	}
	for (i = 0; i < MAX_FDS; i++)
		if (fds[i] >= 0)
			drop(i);
	reap(1);
	__atomic_add_fetch(&total->ops, st.ops, __ATOMIC_RELAXED);
	__atomic_add_fetch(&total->opened, st.opened, __ATOMIC_RELAXED);
	__atomic_add_fetch(&total->open_failed, st.open_failed,
			   __ATOMIC_RELAXED);
	__atomic_add_fetch(&total->calls_failed, st.calls_failed,
			   __ATOMIC_RELAXED);
	__atomic_add_fetch(&total->tasks, st.tasks, __ATOMIC_RELAXED);
	for (i = 0; i < NR_OPS; i++) {
		unsigned long seen;

		__atomic_add_fetch(&total->count[i], st.count[i],
				   __ATOMIC_RELAXED);
		__atomic_add_fetch(&total->ms[i], st.ms[i], __ATOMIC_RELAXED);
		seen = __atomic_load_n(&total->max_ms[i], __ATOMIC_RELAXED);
		while (st.max_ms[i] > seen &&
		       !__atomic_compare_exchange_n(&total->max_ms[i], &seen,
						    st.max_ms[i], 0,
						    __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED))
			;
	}
	_exit(0);
}

/*
 * A sigtrap event's signal.  The event that sent it is disabled, as the
 * suite's sigtrap tests do: arm64 reports a watchpoint before the store
 * completes and runs the store again after the handler, so a handler
 * that returns with the watchpoint armed traps forever (stock too), and
 * a worker would spin there instead of fuzzing.  glibc's siginfo_t has
 * no field for si_perf_data: it follows si_addr.
 */
static void on_trap(int sig, siginfo_t *si, void *uc)
{
	unsigned long slot;

	memcpy(&slot, (char *)&si->si_addr + sizeof(void *), sizeof(slot));
	if (slot < MAX_FDS && fds[slot] >= 0)
		ioctl(fds[slot], PERF_EVENT_IOC_DISABLE, 0);
}

int main(int argc, char **argv)
{
	static const char *const tps[] = {
		"syscalls/sys_enter_getppid", "sched/sched_switch",
		"sched/sched_process_fork",
	};
	int secs, workers, i, status, bad = 0;
	struct sigaction sa;
	unsigned long long seed;
	pid_t pid[16];
	time_t start;

	if (getenv(FUZZ_ENV)) {		/* the image of an exec'd child */
		work();
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s SECONDS SEED [WORKERS]\n", argv[0]);
		return 2;
	}
	secs = atoi(argv[1]);
	seed = strtoull(argv[2], NULL, 0);
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	workers = argc > 3 ? atoi(argv[3]) : 2 * ncpus;
	if (workers < 1 || workers > 16)
		workers = 4;
	for (i = 0; i < (int)ARRAY_SIZE(tps); i++)
		tp_ids[i] = tracepoint_id(tps[i]);
	aux_pmu_type = pmu_type("intel_bts");
	total = mmap(NULL, sizeof(*total), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (total == MAP_FAILED)
		return 2;
	sa.sa_sigaction = on_trap;	/* sigtrap events */
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTRAP, &sa, NULL);
	signal(SIGIO, SIG_IGN);
	deadline = mmap(NULL, sizeof(*deadline), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (deadline == MAP_FAILED)
		return 2;
	start = time(NULL);
	*deadline = start + secs;
	sa.sa_handler = on_interrupt;
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);

	for (i = 0; i < workers; i++) {
		pid[i] = fork();
		if (pid[i] == 0) {
			worker_id = i;
			worker(seed * 1000003ULL + i);
		}
	}
	for (i = 0; i < workers; i++) {
		while (waitpid(pid[i], &status, WNOHANG) != pid[i] &&
		       time(NULL) <= *deadline + GRACE_S)
			usleep(100000);
		if (time(NULL) > *deadline + GRACE_S) {
			char path[64], wchan[64] = "?";

			/* Stuck in the kernel: it cannot be killed either. */
			snprintf(path, sizeof(path), "/proc/%d/wchan", pid[i]);
			read_file(path, wchan, sizeof(wchan));
			printf("fuzz: worker %d (pid %d) did not finish: wchan %s\n",
			       i, pid[i], wchan);
			bad = 1;
		} else if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("fuzz: worker %d ended with status %#x\n", i,
			       status);
			bad = 1;
		}
	}
	/* Where the time went: what a slow or starved kernel path shows. */
	printf("fuzz: time by operation (count, ms in all, longest ms):");
	for (i = 0; i < NR_OPS; i++)
		printf(" %s %lu/%lu/%lu", op_names[i], total->count[i],
		       total->ms[i], total->max_ms[i]);
	printf("\n");
	printf("fuzz: seed %llu, %d s", seed, secs);
	if (*deadline < start + secs)
		printf(" (ended at %ld s: interrupted)", (long)(*deadline - start));
	printf(", %d workers: %lu operations, ", workers, total->ops);
	printf("%lu events opened, %lu opens refused, %lu calls failed, %lu tasks\n",
	       total->opened, total->open_failed, total->calls_failed,
	       total->tasks);
	return bad;
}
