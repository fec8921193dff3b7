// SPDX-License-Identifier: GPL-2.0
/*
 * Inherited groups whose events come from different PMUs: software,
 * hardware, tracepoint and breakpoint events in one group, copied into
 * every task the opener creates (fork, vfork, a thread, a grandchild, a
 * child that execs with enable_on_exec), and what the copies counted
 * coming back to the opener's group read().
 *
 * A group with a hardware member makes the PMU's event_init look at the
 * group's siblings for every copy made at fork, under the lock that
 * guards them; a kernel that takes that lock twice leaves the forking
 * task in D state for good.  So each case runs its tasks in a worker
 * process and waits for it with a deadline: a fork that never returns
 * is a failure with the worker's state and wait channel, not a stuck
 * boot.  A hung worker is left behind (it cannot be killed).
 *
 * A unit of work (ig_work()) runs IG_LOOPS passes of hwc_loop() (exactly
 * IG_LOOPS * LOOP_K user instructions under -icount), IG_CALLS getppid()
 * calls (the tracepoint), IG_CALLS stores to a watched word (the
 * breakpoint) and touches IG_PAGES fresh pages (page faults).  Every
 * case's counts are checked against the number of units its tasks ran:
 * exactly for the tracepoint and the breakpoint, within a small slack
 * for what the tasks do around the work otherwise.
 *
 * Cases with a hardware event skip on x86_64 without a PMU model
 * (hw_test.h) and run on the intel and amd models and on arm64.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

#include <pthread.h>

#define IG_LOOPS	250000		/* 1M instructions per unit */
#define IG_CALLS	100
#define IG_PAGES	32
/* User instructions a task runs around its units (fork, exit, libc). */
#define IG_INSN_SLACK	150000
/* Page faults a task takes around its units (COW after fork, stacks). */
#define IG_PF_SLACK	200
#define IG_DEADLINE_S	20
#define IG_MAX		3
#define IG_EXEC_ENV	"PERF_IG_EXEC_WORK"

enum ig_kind { IG_TASK_CLOCK, IG_PAGE_FAULTS, IG_INSN, IG_CYCLES, IG_TP,
	       IG_BP };

static const char *const ig_kind_name[] = {
	"task-clock", "page-faults", "instructions:u", "cycles:u",
	"syscalls:sys_enter_getppid", "mem:w8",
};

struct ig_comp {
	int n;
	enum ig_kind kind[IG_MAX];	/* kind[0] leads */
};

enum ig_mode { IG_FORK, IG_VFORK, IG_THREAD, IG_EXEC, IG_NESTED };

/* Shared by the test, its worker and every task the worker creates. */
struct ig_shared {
	__u64 cpu_ns;			/* the units' own CPU time, summed */
	int fail_line, fail_errno;	/* the worker step that failed */
	__u64 ids[IG_MAX];		/* PERF_EVENT_IOC_ID of each event */
	ssize_t len;			/* bytes the group read() returned */
	__u64 buf[3 + 2 * IG_MAX];	/* nr, enabled, running, {value, id} */
	/* inherit_stat: the children and the PERF_RECORD_READs written */
	pid_t child[2];
	int nr_reads;
	struct ig_read_record {
		struct perf_event_header header;
		__u32 pid, tid;
		__u64 nr, enabled, running;
		struct { __u64 value, id; } v[IG_MAX];
	} reads[8];
};

static struct ig_shared *ig_sh;

#define IG_TRY(cond) do {						\
	if (!(cond)) {							\
		ig_sh->fail_errno = errno;				\
		ig_sh->fail_line = __LINE__;				\
		_exit(1);						\
	}								\
} while (0)

/* One unit of work; its CPU time goes to the shared total. */
static void ig_work(volatile __u64 *watch)
{
	__u64 t0 = thread_cpu_ns();
	char *p;
	int i;

	hwc_loop(IG_LOOPS);
	for (i = 0; i < IG_CALLS; i++)
		syscall(SYS_getppid);
	for (i = 0; i < IG_CALLS; i++)
		*watch = i;
	p = fresh(IG_PAGES);
	if (p) {
		for (i = 0; i < IG_PAGES; i++)
			((volatile char *)p)[(size_t)i * page_sz()] = 1;
		munmap(p, IG_PAGES * page_sz());
	}
	__atomic_add_fetch(&ig_sh->cpu_ns, thread_cpu_ns() - t0,
			   __ATOMIC_RELAXED);
}

/*
 * The image a child of an exec case runs: "fd:addr" in the environment
 * names the shared memory and the watched page, which is mapped again at
 * the same address so that the inherited breakpoint still watches it.
 */
__attribute__((constructor)) static void ig_exec_image(void)
{
	const char *w = getenv(IG_EXEC_ENV);
	unsigned long addr;
	void *page;
	int fd;

	if (!w || sscanf(w, "%d:%lx", &fd, &addr) != 2)
		return;
	ig_sh = mmap(NULL, sizeof(*ig_sh), PROT_READ | PROT_WRITE, MAP_SHARED,
		     fd, 0);
	if (ig_sh == MAP_FAILED)
		_exit(3);
	page = mmap((void *)addr, page_sz(), PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	IG_TRY(page == (void *)addr);
	ig_work(page);
	_exit(0);
}

static int ig_attr(struct perf_event_attr *a, enum ig_kind k, void *watch)
{
	long id;

	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->inherit = 1;
	a->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			 PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	switch (k) {
	case IG_TASK_CLOCK:
	case IG_PAGE_FAULTS:
		a->type = PERF_TYPE_SOFTWARE;
		a->config = k == IG_TASK_CLOCK ? PERF_COUNT_SW_TASK_CLOCK :
						 PERF_COUNT_SW_PAGE_FAULTS;
		break;
	case IG_INSN:
	case IG_CYCLES:
		a->type = PERF_TYPE_HARDWARE;
		a->config = k == IG_INSN ? PERF_COUNT_HW_INSTRUCTIONS :
					   PERF_COUNT_HW_CPU_CYCLES;
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		break;
	case IG_TP:
		id = tracepoint_id("syscalls/sys_enter_getppid");
		if (id < 0)
			return -1;
		a->type = PERF_TYPE_TRACEPOINT;
		a->config = id;
		break;
	case IG_BP:
		a->type = PERF_TYPE_BREAKPOINT;
		a->bp_type = HW_BREAKPOINT_W;
		a->bp_addr = (unsigned long)watch;
		a->bp_len = HW_BREAKPOINT_LEN_8;
		break;
	}
	return 0;
}

/*
 * Open @c on the calling task (on @cpu, -1: any), leader first.  For an
 * exec case the leader starts disabled with enable_on_exec.  Returns the
 * leader's fd; the others stay open until the worker exits.
 */
static int ig_open(const struct ig_comp *c, enum ig_mode m, void *watch,
		   int cpu, int inherit_stat)
{
	struct perf_event_attr a;
	int i, fd, leader = -1;

	for (i = 0; i < c->n; i++) {
		IG_TRY(!ig_attr(&a, c->kind[i], watch));
		a.inherit_stat = inherit_stat;
		if (i == 0 && m == IG_EXEC) {
			a.disabled = 1;
			a.enable_on_exec = 1;
		}
		fd = sys_perf_event_open(&a, 0, cpu, leader, 0);
		IG_TRY(fd >= 0);
		IG_TRY(!ioctl(fd, PERF_EVENT_IOC_ID, &ig_sh->ids[i]));
		if (i == 0)
			leader = fd;
	}
	return leader;
}

static pid_t ig_last_tid;

static void *ig_thread(void *watch)
{
	ig_last_tid = gettid();
	ig_work(watch);
	return NULL;
}

/*
 * pthread_join() returns when the kernel clears the thread's tid, which
 * it does before the thread's events fold into their origins; the
 * thread leaves /proc/self/task only after that.
 */
static void ig_wait_thread_gone(void)
{
	char path[64];
	int i;

	snprintf(path, sizeof(path), "/proc/self/task/%d", ig_last_tid);
	for (i = 0; i < 1000 && access(path, F_OK) == 0; i++)
		usleep(1000);
	IG_TRY(i < 1000);
}

static void ig_wait0(pid_t pid)
{
	int status;

	IG_TRY(pid > 0);
	IG_TRY(waitpid(pid, &status, 0) == pid);
	errno = 0;
	IG_TRY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* An exec case's child: work that must not count, then the image. */
static void ig_exec_child(volatile __u64 *watch, int shm_fd)
{
	char env[96];
	char *argv[] = { "inherit_group-exec", NULL };
	char *envp[] = { env, NULL };
	int i;

	hwc_loop(3 * IG_LOOPS);
	for (i = 0; i < 3 * IG_CALLS; i++) {
		syscall(SYS_getppid);
		*watch = i;
	}
	snprintf(env, sizeof(env), IG_EXEC_ENV "=%d:%lx", shm_fd,
		 (unsigned long)watch);
	execve("/proc/self/exe", argv, envp);
	_exit(127);
}

/* Run @m's tasks, each doing units of work; returns the units run. */
static int ig_run_tasks(enum ig_mode m, volatile __u64 *watch, int shm_fd)
{
	pthread_t t;
	pid_t pid;
	int i;

	switch (m) {
	case IG_FORK:
	case IG_VFORK:
		for (i = 0; i < 2; i++) {
			/* Not into ig_sh directly: the child would write 0. */
			pid = m == IG_VFORK ? vfork() : fork();
			if (pid == 0) {
				ig_work(watch);
				_exit(0);
			}
			ig_sh->child[i] = pid;
			ig_wait0(pid);
		}
		return 2;
	case IG_THREAD:
		for (i = 0; i < 2; i++) {
			errno = pthread_create(&t, NULL, ig_thread,
					       (void *)watch);
			IG_TRY(!errno);
			IG_TRY(!pthread_join(t, NULL));
			ig_wait_thread_gone();
		}
		return 2;
	case IG_EXEC:
		pid = fork();
		if (pid == 0)
			ig_exec_child(watch, shm_fd);
		ig_wait0(pid);
		return 1;
	case IG_NESTED:
		pid = fork();
		if (pid == 0) {
			pid = fork();
			if (pid == 0) {
				ig_work(watch);
				_exit(0);
			}
			ig_wait0(pid);
			ig_work(watch);
			_exit(0);
		}
		ig_wait0(pid);
		return 2;
	}
	return 0;
}

static void ig_worker(const struct ig_comp *c, enum ig_mode m, int shm_fd)
{
	volatile __u64 *watch = (void *)fresh(1);
	int leader;

	IG_TRY(watch);
	*watch = 0;
	leader = ig_open(c, m, (void *)watch, -1, 0);
	ig_run_tasks(m, watch, shm_fd);
	ig_sh->len = read(leader, ig_sh->buf, sizeof(ig_sh->buf));
	IG_TRY(ig_sh->len > 0);
	_exit(0);
}

/*
 * Fork a worker that runs fn(c, m, shm_fd) and wait for it until the
 * deadline.  Return: 0 when it exited 0, else -1 (logged).
 */
static int ig_supervise(struct __test_metadata *_metadata,
			void (*fn)(const struct ig_comp *, enum ig_mode, int),
			const struct ig_comp *c, enum ig_mode m)
{
	int fd, status, i;
	pid_t pid;

	fd = memfd_create("inherit_group", 0);
	if (fd < 0 || ftruncate(fd, sizeof(*ig_sh)))
		return -1;
	ig_sh = mmap(NULL, sizeof(*ig_sh), PROT_READ | PROT_WRITE, MAP_SHARED,
		     fd, 0);
	if (ig_sh == MAP_FAILED)
		return -1;
	pid = fork();
	if (pid == 0)
		fn(c, m, fd);
	close(fd);
	for (i = 0; i < IG_DEADLINE_S * 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		usleep(10000);
	}
	if (i == IG_DEADLINE_S * 100) {
		char path[64], stat[256] = "", wchan[64] = "?";
		char *state;

		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		read_file(path, stat, sizeof(stat));
		state = strrchr(stat, ')');
		snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
		read_file(path, wchan, sizeof(wchan));
		TH_LOG("worker %d still running after %ds: state %c, wchan %s",
		       pid, IG_DEADLINE_S, state ? state[2] : '?', wchan);
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		TH_LOG("worker failed at line %d: %s (status %#x)",
		       ig_sh->fail_line, strerror(ig_sh->fail_errno), status);
		return -1;
	}
	return 0;
}

static bool ig_has(const struct ig_comp *c, enum ig_kind k)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (c->kind[i] == k)
			return true;
	return false;
}

static bool ig_has_hw(const struct ig_comp *c)
{
	return ig_has(c, IG_INSN) || ig_has(c, IG_CYCLES);
}

/* See ig_check_value(). */
static bool ig_lossy(const struct ig_comp *c, int i)
{
	return i > 0 && !ig_has_hw(c);
}

/*
 * Check @val of kind @k against @units units of work by @tasks tasks
 * (those that ran units plus the one that opened the group).
 *
 * @lossy: a member of a group of software events only.  Stock 6.12
 * loses, at random, what one copy of such a member counted: the
 * tracepoint and breakpoint members of one child of two (vfork, fork,
 * threads), a page-faults member beside a task-clock leader, in about
 * one run in four on x86_64, while the leader counts both children and
 * every member of a group led by a hardware event counts exactly.  A
 * lossy tracepoint or breakpoint member must still count whole units,
 * all of them or all but one.
 */
static void ig_check_value(struct __test_metadata *_metadata, enum ig_kind k,
			   __u64 val, int units, int tasks, __u64 cpu_ns,
			   bool lossy)
{
	__u64 insn = (__u64)units * IG_LOOPS * LOOP_K;

	TH_LOG("%s: %llu for %d units", ig_kind_name[k],
	       (unsigned long long)val, units);
	if (lossy && (k == IG_TP || k == IG_BP)) {
		EXPECT_EQ(0, val % IG_CALLS);
		EXPECT_GE(val, (__u64)(units - 1) * IG_CALLS);
		EXPECT_LE(val, (__u64)units * IG_CALLS);
		return;
	}
	if (lossy && k == IG_TASK_CLOCK) {
		EXPECT_GT(val, 0);
		return;
	}
	switch (k) {
	case IG_TASK_CLOCK:
		/* At least half the CPU time the units measured in-task. */
		EXPECT_GE(val, cpu_ns / 2);
		EXPECT_GT(val, 0);
		break;
	case IG_PAGE_FAULTS:
		EXPECT_GE(val, (__u64)units * IG_PAGES);
		EXPECT_LE(val, (__u64)units * IG_PAGES + tasks * IG_PF_SLACK);
		break;
	case IG_INSN:
		EXPECT_GE(val, insn);
		EXPECT_LE(val, insn + (__u64)tasks * IG_INSN_SLACK);
		break;
	case IG_CYCLES:
		EXPECT_GE(val, insn * pmu->cycles_per_insn * 9 / 10);
		EXPECT_LE(val, (insn + (__u64)tasks * IG_INSN_SLACK) *
			       pmu->cycles_per_insn * 2);
		break;
	case IG_TP:
	case IG_BP:
		EXPECT_EQ(val, (__u64)units * IG_CALLS);
		break;
	}
}

static void ig_case(struct __test_metadata *_metadata,
		    const struct ig_comp *c, enum ig_mode m)
{
	static const int units[] = {
		[IG_FORK] = 2, [IG_VFORK] = 2, [IG_THREAD] = 2, [IG_EXEC] = 1,
		[IG_NESTED] = 2,
	};
	int i;

	if (ig_has_hw(c))
		HW_REQUIRE();
	else
		pmu = hw_pmu_probe();
	if (ig_has(c, IG_TP))
		ASSERT_LE(0, tracepoint_id("syscalls/sys_enter_getppid"));

	ASSERT_EQ(0, ig_supervise(_metadata, ig_worker, c, m));
	ASSERT_EQ((3 + 2 * c->n) * sizeof(__u64), ig_sh->len);
	ASSERT_EQ(c->n, ig_sh->buf[0]);
	/* Never multiplexed: the group fits, in the opener and each copy. */
	EXPECT_GT(ig_sh->buf[1], 0);
	EXPECT_EQ(ig_sh->buf[1], ig_sh->buf[2]);
	for (i = 0; i < c->n; i++) {
		EXPECT_EQ(ig_sh->ids[i], ig_sh->buf[4 + 2 * i]);
		ig_check_value(_metadata, c->kind[i], ig_sh->buf[3 + 2 * i],
			       units[m], units[m] + 1, ig_sh->cpu_ns,
			       ig_lossy(c, i));
	}
}

/* Every composition across every way of making a task. */
#define IG_COMP(name, ...)						\
	static const struct ig_comp ig_##name = {			\
		.n = sizeof((enum ig_kind[]){ __VA_ARGS__ }) /		\
		     sizeof(enum ig_kind),				\
		.kind = { __VA_ARGS__ },				\
	};								\
	TEST(inherit_group_##name##_fork)				\
	{ ig_case(_metadata, &ig_##name, IG_FORK); }			\
	TEST(inherit_group_##name##_vfork)				\
	{ ig_case(_metadata, &ig_##name, IG_VFORK); }			\
	TEST(inherit_group_##name##_thread)				\
	{ ig_case(_metadata, &ig_##name, IG_THREAD); }			\
	TEST(inherit_group_##name##_exec)				\
	{ ig_case(_metadata, &ig_##name, IG_EXEC); }			\
	TEST(inherit_group_##name##_grandchild)				\
	{ ig_case(_metadata, &ig_##name, IG_NESTED); }

/* Software leader, hardware member: perf stat -e '{task-clock,instructions}' */
IG_COMP(sw_hw, IG_TASK_CLOCK, IG_INSN)
IG_COMP(hw_hw, IG_CYCLES, IG_INSN)
IG_COMP(hw_sw, IG_INSN, IG_PAGE_FAULTS)
/* Led by page-faults, whose count stock keeps exact (ig_check_value()). */
IG_COMP(sw_sw, IG_PAGE_FAULTS, IG_TASK_CLOCK)
IG_COMP(hw_tp_bp, IG_INSN, IG_TP, IG_BP)
IG_COMP(sw_bp_hw, IG_TASK_CLOCK, IG_BP, IG_INSN)
IG_COMP(sw_tp_bp, IG_PAGE_FAULTS, IG_TP, IG_BP)

/*
 * inherit_stat with a group read_format: the origin's total includes both
 * children, as without it.  The copies are meant to write, as their task
 * exits, a PERF_RECORD_READ of their own group (not the family's total)
 * under the origin's ids into the origin's buffer; stock 6.12 writes none
 * (its exit marks the context's task dead before the copies are synced,
 * and the record needs a live task), 6.18 does.  So the records are
 * checked for what they say, where there are any, not counted.  mmap()
 * of an inherited event needs a CPU: the worker and its children stay on
 * CPU 0.
 */
static void ig_stat_worker(const struct ig_comp *c, enum ig_mode m,
			   int shm_fd)
{
	volatile __u64 *watch = (void *)fresh(1);
	struct ig_read_record *r;
	struct perf_rb rb;
	int leader, type;

	IG_TRY(watch);
	IG_TRY(!pin_to_cpu(0));
	leader = ig_open(c, m, (void *)watch, 0, 1);
	IG_TRY(!perf_rb_map(&rb, leader, 8));
	ig_run_tasks(IG_FORK, watch, shm_fd);
	for (;;) {
		r = &ig_sh->reads[ig_sh->nr_reads];
		type = perf_rb_next(&rb, r, sizeof(*r));
		if (type < 0)
			break;
		if (type == PERF_RECORD_READ &&
		    ++ig_sh->nr_reads == ARRAY_SIZE(ig_sh->reads))
			break;
	}
	ig_sh->len = read(leader, ig_sh->buf, sizeof(ig_sh->buf));
	IG_TRY(ig_sh->len > 0);
	_exit(0);
}

static void ig_stat_case(struct __test_metadata *_metadata,
			 const struct ig_comp *c)
{
	struct ig_read_record *r;
	int i, j;

	if (ig_has_hw(c))
		HW_REQUIRE();
	else
		pmu = hw_pmu_probe();
	ASSERT_EQ(0, ig_supervise(_metadata, ig_stat_worker, c, IG_FORK));
	/* The origin's total includes both children. */
	ASSERT_EQ((3 + 2 * c->n) * sizeof(__u64), ig_sh->len);
	for (i = 0; i < c->n; i++)
		ig_check_value(_metadata, c->kind[i], ig_sh->buf[3 + 2 * i],
			       2, 3, ig_sh->cpu_ns, ig_lossy(c, i));
	/*
	 * Each record is one child's: its own unit of work (not the
	 * family's total) under the origin's ids.
	 */
	for (j = 0; j < ig_sh->nr_reads; j++) {
		r = &ig_sh->reads[j];
		TH_LOG("READ %d: pid %u tid %u nr %llu enabled %llu running %llu",
		       j, r->pid, r->tid, (unsigned long long)r->nr,
		       (unsigned long long)r->enabled,
		       (unsigned long long)r->running);
		EXPECT_TRUE(r->pid == (__u32)ig_sh->child[0] ||
			    r->pid == (__u32)ig_sh->child[1]);
		ASSERT_GE(c->n, r->nr);
		for (i = 0; i < (int)r->nr; i++) {
			EXPECT_EQ(ig_sh->ids[i], r->v[i].id);
			if (c->kind[i] == IG_TASK_CLOCK) {
				EXPECT_GT(r->v[i].value, 0);
				continue;
			}
			ig_check_value(_metadata, c->kind[i], r->v[i].value,
				       1, 1, 0, false);
		}
	}
}

TEST(inherit_group_stat_sw_hw)
{
	ig_stat_case(_metadata, &ig_sw_hw);
}

TEST(inherit_group_stat_sw_sw)
{
	ig_stat_case(_metadata, &ig_sw_sw);
}

TEST_HARNESS_MAIN
