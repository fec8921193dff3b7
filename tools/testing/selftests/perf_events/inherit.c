// SPDX-License-Identifier: GPL-2.0
/*
 * Inheritance of per-task events: fork, clone and threads, folding of
 * child counts into the parent at child exit, inherit_thread,
 * enable_on_exec, remove_on_exec, sigtrap, and reading inherited groups.
 *
 * Page-fault counts are the workhorse: a child that writes to N fresh
 * anonymous pages takes exactly N minor faults, which makes "was the
 * child counted?" a question with a crisp answer.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <pthread.h>

#define PAGE		((size_t)sysconf(_SC_PAGESIZE))
#define NPAGES		256
#define WORK_ENV	"PERF_INHERIT_WORK"

/* glibc's siginfo_t lacks the perf fields: kernel layout after si_addr. */
#define SI_PERF_DATA(si) (*(unsigned long *)((char *)&(si)->si_addr + sizeof(void *)))
#define SI_PERF_TYPE(si) (*(__u32 *)((char *)&(si)->si_addr + 2 * sizeof(void *)))
#ifndef TRAP_PERF
#define TRAP_PERF	6
#endif

static void touch_pages(char *p, int n)
{
	for (int i = 0; i < n; i++)
		((volatile char *)p)[(size_t)i * PAGE] = 1;
}

static char *map_pages(int n)
{
	void *p = mmap(NULL, (size_t)n * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * When re-executed with PERF_INHERIT_WORK=touch:N in the environment, the
 * binary touches N fresh pages and exits before the harness runs.
 */
__attribute__((constructor)) static void exec_worker(void)
{
	const char *w = getenv(WORK_ENV);
	char *p;
	int n;

	if (!w || strncmp(w, "touch:", 6))
		return;
	n = atoi(w + 6);
	p = map_pages(n);
	if (!p)
		_exit(2);
	touch_pages(p, n);
	_exit(0);
}

static void exec_self_touch(int n)
{
	char env[64];
	char *argv[] = { "inherit-worker", NULL };
	char *envp[] = { env, NULL };

	snprintf(env, sizeof(env), WORK_ENV "=touch:%d", n);
	execve("/proc/self/exe", argv, envp);
	_exit(127);
}

static int open_pf(int inherit, int disabled)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = inherit;
	attr.disabled = disabled;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static int wait_exit0(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Child of fork(): touch n fresh pages (mapped before the fork) and exit. */
static pid_t fork_toucher(char *p, int n)
{
	pid_t pid = fork();

	if (pid == 0) {
		touch_pages(p, n);
		_exit(0);
	}
	return pid;
}

TEST(inherit_fork_child_page_faults_folded_at_exit)
{
	char *p = map_pages(NPAGES);
	__u64 v = 0;
	int fd;

	ASSERT_NE(NULL, p);
	fd = open_pf(1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, wait_exit0(fork_toucher(p, NPAGES)));
	ASSERT_EQ(0, read_count(fd, &v));
	/* The child's N faults plus a handful of COW faults on both sides. */
	EXPECT_GE(v, NPAGES);
	EXPECT_LE(v, NPAGES + 64);
	close(fd);
	munmap(p, NPAGES * PAGE);
}

/*
 * Some of the parent's events are closed while a child that inherited
 * them lives: their copies leave the child then, and the copy that is
 * left still counts the child's faults into the parent at its exit.
 * Ours keeps a fork's copies in one block that goes with the child's
 * context; this frees copies from it while the context is in use (run
 * it under DEBUG=1, KASAN, too).
 */
TEST(inherit_copies_closed_while_child_lives)
{
	char *p = map_pages(NPAGES);
	int fds[3], go[2];
	__u64 v = 0;
	pid_t pid;
	char c = 0;

	ASSERT_NE(NULL, p);
	for (int i = 0; i < 3; i++) {
		fds[i] = open_pf(1, 0);
		ASSERT_GE(fds[i], 0);
	}
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		/* Its fds too: the parent's close is the last, below. */
		close(fds[0]);
		close(fds[2]);
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(2);
		touch_pages(p, NPAGES);
		_exit(0);
	}
	close(go[0]);
	/* Released: the child's copies of these two go, the child lives. */
	close(fds[0]);
	close(fds[2]);
	ASSERT_EQ(1, write(go[1], &c, 1));
	ASSERT_EQ(0, wait_exit0(pid));
	close(go[1]);
	ASSERT_EQ(0, read_count(fds[1], &v));
	EXPECT_GE(v, NPAGES);
	EXPECT_LE(v, NPAGES + 64);
	close(fds[1]);
	munmap(p, NPAGES * PAGE);
}

/*
 * The task an event was opened on exits while a child it forked lives on
 * and forks again: the grandchild is still counted.  Inheritance follows
 * the event, not its task; perf stat on a program whose first process
 * exits early (a daemon, a shell that execs into a pipeline) relies on it.
 */
static void fork_orphan_then_grandchild(void)
{
	pid_t first = getpid(), pid;

	pid = fork();
	if (pid != 0)
		_exit(pid < 0);		/* the opened-on task exits at once */
	/* Wait to be orphaned: the event's own task has gone by then. */
	while (getppid() == first)
		usleep(1000);
	pid = fork();
	if (pid == 0) {
		char *p = map_pages(NPAGES);

		if (!p)
			_exit(2);
		touch_pages(p, NPAGES);
		_exit(0);
	}
	_exit(pid < 0 || wait_exit0(pid));
}

TEST(inherit_grandchild_after_origin_task_exit_counted)
{
	struct perf_event_attr attr;
	int done[2], go, fd;
	__u64 v = 0;
	pid_t pid;
	char c;

	/* Both descendants inherit the write end; EOF says both are gone. */
	ASSERT_EQ(0, pipe(done));
	pid = fork_held(&go, fork_orphan_then_grandchild);
	ASSERT_GT(pid, 0);
	close(done[1]);

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.disabled = 0;
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, release_held(go));
	close(go);
	ASSERT_EQ(0, wait_exit0(pid));
	ASSERT_EQ(0, read(done[0], &c, 1));
	close(done[0]);

	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_GE(v, NPAGES);
	close(fd);
}

TEST(inherit_zero_fork_child_not_counted)
{
	char *p = map_pages(NPAGES);
	__u64 v = 0;
	int fd;

	ASSERT_NE(NULL, p);
	fd = open_pf(0, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, wait_exit0(fork_toucher(p, NPAGES)));
	ASSERT_EQ(0, read_count(fd, &v));
	/* Only the parent's own few COW faults after fork(). */
	EXPECT_LT(v, 64);
	close(fd);
	munmap(p, NPAGES * PAGE);
}

TEST(inherit_fork_child_task_clock_folded_at_exit)
{
	struct perf_event_attr attr;
	__u64 before = 0, after = 0;
	pid_t pid;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.disabled = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, read_count(fd, &before));
	pid = fork();
	if (pid == 0) {
		burn_cpu_ns(30000000);
		_exit(0);
	}
	ASSERT_EQ(0, wait_exit0(pid));
	ASSERT_EQ(0, read_count(fd, &after));
	/* The child's 30 ms of CPU time are in the parent's count. */
	EXPECT_GE(after - before, 30000000ULL);
	close(fd);
}

TEST(inherit_read_includes_live_child)
{
	char *p = map_pages(NPAGES);
	int ready[2], done[2];
	__u64 v = 0;
	char c;
	pid_t pid;
	int fd;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(done));
	fd = open_pf(1, 0);
	ASSERT_GE(fd, 0);
	pid = fork();
	if (pid == 0) {
		touch_pages(p, NPAGES);
		if (write(ready[1], "r", 1) != 1 || read(done[0], &c, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));
	/* The child is still alive: its inherited event is summed in. */
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_GE(v, NPAGES);
	ASSERT_EQ(1, write(done[1], "d", 1));
	ASSERT_EQ(0, wait_exit0(pid));
	close(fd);
}

TEST(inherit_ioctl_enable_reaches_children)
{
	char *p = map_pages(NPAGES);
	int go[2];
	__u64 v = 0;
	char c;
	pid_t pid;
	int fd;

	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pipe(go));
	/* Disabled at fork: the child's copy is disabled too. */
	fd = open_pf(1, 1);
	ASSERT_GE(fd, 0);
	pid = fork();
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		touch_pages(p, NPAGES);
		_exit(0);
	}
	/* Enabling the parent's event enables the inherited copies. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(0, wait_exit0(pid));
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_GE(v, NPAGES);
	EXPECT_LE(v, NPAGES + 16);
	close(fd);
}

/*
 * Parent and child take turns on one CPU, each touching a fresh page per
 * turn, so that every switch is between the two tasks.  Their contexts
 * are clones, and the switch may trade them (upstream does; so do we):
 * after that the original event counts for the child and exits with it,
 * while the parent runs with the copy.  Nothing of that may show in the
 * counts, nor in what the parent's fd controls.
 */
#define TURNS	128

static int pin_to_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/*
 * Pin to CPU 0, fork, and take TURNS turns with the child, each side
 * touching one fresh page of its own per turn.  Returns 0 once the child
 * has exited cleanly, -1 on any error.
 */
static int take_turns(void)
{
	char *mine = map_pages(TURNS), *theirs = map_pages(TURNS);
	int to_child[2], to_parent[2], i, ok = 0;
	pid_t pid;
	char c = 0;

	if (!mine || !theirs || pin_to_cpu0())
		return -1;
	if (pipe(to_child) || pipe(to_parent))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		for (i = 0; i < TURNS; i++) {
			if (read(to_child[0], &c, 1) != 1)
				_exit(1);
			touch_pages(theirs + (size_t)i * PAGE, 1);
			if (write(to_parent[1], &c, 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	for (i = 0; i < TURNS && !ok; i++) {
		touch_pages(mine + (size_t)i * PAGE, 1);
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			ok = -1;
	}
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	if (wait_exit0(pid) || ok)
		return -1;
	munmap(mine, TURNS * PAGE);
	munmap(theirs, TURNS * PAGE);
	return 0;
}

TEST(inherit_turns_on_one_cpu_count_both_tasks)
{
	__u64 v = 0;
	int fd;

	fd = open_pf(1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, take_turns());
	ASSERT_EQ(0, read_count(fd, &v));
	/* One fault per page on each side, plus a few COW faults. */
	EXPECT_GE(v, 2 * TURNS);
	EXPECT_LE(v, 2 * TURNS + 64);
	close(fd);
}

TEST(inherit_turns_then_parent_fd_still_controls_parent)
{
	char *more = map_pages(2 * NPAGES);
	__u64 before = 0, v = 0;
	int fd;

	ASSERT_NE(NULL, more);
	fd = open_pf(1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, take_turns());

	/* The child has gone; whatever counts the parent now obeys the fd. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_count(fd, &before));
	touch_pages(more, NPAGES);
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_EQ(before, v);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	touch_pages(more + (size_t)NPAGES * PAGE, NPAGES);
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_GE(v, before + NPAGES);
	EXPECT_LE(v, before + NPAGES + 16);
	close(fd);
}

static char *clone_area;

static int clone_fn(void *arg)
{
	touch_pages(clone_area, NPAGES);
	return 0;
}

TEST(inherit_clone_vm_child_counted)
{
	size_t stack_sz = 256 * 1024;
	char *stack = map_pages(stack_sz / PAGE);
	__u64 v = 0;
	pid_t pid;
	int fd;

	clone_area = map_pages(NPAGES);
	ASSERT_NE(NULL, clone_area);
	ASSERT_NE(NULL, stack);
	touch_pages(stack, stack_sz / PAGE);
	fd = open_pf(1, 0);
	ASSERT_GE(fd, 0);
	/* Shares the address space: the pages are fresh for the child. */
	pid = clone(clone_fn, stack + stack_sz,
		    CLONE_VM | CLONE_FS | CLONE_FILES | SIGCHLD, NULL);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, wait_exit0(pid));
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_GE(v, NPAGES);
	EXPECT_LE(v, NPAGES + 16);
	close(fd);
	munmap(clone_area, NPAGES * PAGE);
	munmap(stack, stack_sz);
}

static void *thread_touch(void *arg)
{
	touch_pages(arg, NPAGES);
	return NULL;
}

static __u64 count_thread_and_fork(struct __test_metadata *_metadata,
				   int inherit_thread, __u64 *forked)
{
	struct perf_event_attr attr;
	char *a = map_pages(NPAGES), *b = map_pages(NPAGES);
	pthread_t t;
	__u64 v0 = 0, v1 = 0, v2 = 0;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.inherit_thread = inherit_thread;
	attr.disabled = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0 || !a || !b)
		return 0;
	read_count(fd, &v0);
	pthread_create(&t, NULL, thread_touch, a);
	pthread_join(t, NULL);
	read_count(fd, &v1);
	wait_exit0(fork_toucher(b, NPAGES));
	read_count(fd, &v2);
	close(fd);
	munmap(a, NPAGES * PAGE);
	munmap(b, NPAGES * PAGE);
	*forked = v2 - v1;
	return v1 - v0;
}

TEST(inherit_pthread_counted)
{
	__u64 forked, threaded = count_thread_and_fork(_metadata, 0, &forked);

	EXPECT_GE(threaded, NPAGES);
	EXPECT_LE(threaded, NPAGES + 48);
	EXPECT_GE(forked, NPAGES);
}

TEST(inherit_thread_only_clone_thread_children)
{
	__u64 forked, threaded = count_thread_and_fork(_metadata, 1, &forked);

	/* inherit_thread: the pthread is counted, the fork()ed child not. */
	EXPECT_GE(threaded, NPAGES);
	EXPECT_LE(threaded, NPAGES + 48);
	EXPECT_LT(forked, 64);
}

TEST(inherit_thread_without_inherit_einval)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit_thread = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST(inherit_group_mismatch_einval)
{
	struct perf_event_attr attr;
	int leader, fd;

	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 0;
	fd = sys_perf_event_open(&attr, 0, -1, leader, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	close(leader);
}

TEST(inherit_group_read_includes_children)
{
	struct perf_event_attr attr;
	struct { __u64 nr, time_enabled, v[2]; } g;
	char *p = map_pages(NPAGES);
	int leader, sib;

	ASSERT_NE(NULL, p);
	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.inherit = 1;
	attr.disabled = 0;
	sib = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(sib, 0);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, wait_exit0(fork_toucher(p, NPAGES)));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(g), read(leader, &g, sizeof(g)));
	EXPECT_EQ(2, g.nr);
	EXPECT_GT(g.time_enabled, 0);
	EXPECT_GT(g.v[0], 0);
	EXPECT_GE(g.v[1], NPAGES);
	EXPECT_LE(g.v[1], NPAGES + 64);
	close(sib);
	close(leader);
	munmap(p, NPAGES * PAGE);
}

TEST(inherit_mmap_per_task_any_cpu_einval)
{
	struct perf_event_attr attr;
	void *rb;
	int fd;

	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.inherit = 1;
	attr.sample_period = 1000000;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	/* An inherited per-task event on all CPUs has no single buffer. */
	rb = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT_EQ(MAP_FAILED, rb);
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(enable_on_exec_counts_only_after_exec)
{
	struct perf_event_attr attr;
	struct { __u64 v, ena, run; } r;
	int go[2], ready[2];
	char c;
	pid_t pid;
	int fd;

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	pid = fork();
	if (pid == 0) {
		char *p = map_pages(NPAGES);

		if (!p || read(go[0], &c, 1) != 1)
			_exit(1);
		/* Before exec: not counted. */
		touch_pages(p, NPAGES);
		if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(1);
		exec_self_touch(2 * NPAGES);
	}
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.enable_on_exec = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	if (fd < 0)
		kill(pid, SIGKILL);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(sizeof(r), read(fd, &r, sizeof(r)));
	EXPECT_EQ(0, r.v);
	EXPECT_EQ(0, r.ena);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(0, wait_exit0(pid));
	ASSERT_EQ(sizeof(r), read(fd, &r, sizeof(r)));
	/* The new image's 2N pages plus its startup faults. */
	EXPECT_GE(r.v, 2 * NPAGES);
	EXPECT_LT(r.v, 3 * NPAGES);
	EXPECT_GT(r.ena, 0);
	close(fd);
}

TEST(enable_on_exec_with_remove_on_exec_einval)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.enable_on_exec = 1;
	attr.remove_on_exec = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST(remove_on_exec_inherited_event_stops_at_exec)
{
	struct perf_event_attr attr;
	__u64 removed = 0, kept = 0;
	int fd_rm, fd_keep;
	pid_t pid;

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	attr.inherit = 1;
	attr.remove_on_exec = 1;
	fd_rm = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd_rm, 0);
	attr.remove_on_exec = 0;
	fd_keep = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd_keep, 0);
	pid = fork();
	if (pid == 0)
		exec_self_touch(2 * NPAGES);
	ASSERT_EQ(0, wait_exit0(pid));
	ASSERT_EQ(0, read_count(fd_rm, &removed));
	ASSERT_EQ(0, read_count(fd_keep, &kept));
	EXPECT_GE(kept, 2 * NPAGES);
	/* Only the pre-exec part of the child (and the parent) counted. */
	EXPECT_LT(removed, 64);
	/* The parent's own event is still there and counting. */
	EXPECT_EQ(0, ioctl(fd_rm, PERF_EVENT_IOC_ENABLE, 0));
	close(fd_rm);
	close(fd_keep);
}

TEST(remove_on_exec_task_event_stops_at_exec)
{
	struct perf_event_attr attr;
	int go[2];
	__u64 v = 0;
	pid_t pid;
	char c;
	int fd;

	ASSERT_EQ(0, pipe(go));
	pid = fork();
	if (pid == 0) {
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		exec_self_touch(2 * NPAGES);
	}
	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.disabled = 0;
	attr.remove_on_exec = 1;
	fd = sys_perf_event_open(&attr, pid, -1, -1, 0);
	if (fd < 0)
		kill(pid, SIGKILL);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(0, wait_exit0(pid));
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_LT(v, 64);
	close(fd);
}

static volatile sig_atomic_t trap_count;
static volatile unsigned long trap_data;
static volatile __u32 trap_type;
static volatile int trap_code;
static void *volatile trap_addr;
static volatile int trap_disable_fd = -1;

/*
 * Breakpoint tests disable the event in the handler.  arm64 reports a
 * watchpoint before the access completes and single-steps it only after
 * the SIGTRAP frame is set up, so on return from the handler the store is
 * re-executed; were the watchpoint still armed, it would fire forever
 * (stock 6.12 livelocks there).  Disabling it in the handler is the
 * documented pattern and gives the same counts on every arch.
 */
static void sigtrap_handler(int sig, siginfo_t *si, void *uc)
{
	if (trap_disable_fd >= 0)
		ioctl(trap_disable_fd, PERF_EVENT_IOC_DISABLE, 0);
	trap_count++;
	trap_code = si->si_code;
	trap_addr = si->si_addr;
	trap_data = SI_PERF_DATA(si);
	trap_type = SI_PERF_TYPE(si);
}

static void install_sigtrap(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sigtrap_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
	trap_count = 0;
	trap_code = 0;
	trap_data = 0;
	trap_type = ~0u;
	trap_addr = NULL;
	trap_disable_fd = -1;
}

TEST(sigtrap_without_remove_on_exec_einval)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.sigtrap = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST(sigtrap_task_clock_overflow_delivers_trap_perf)
{
	struct perf_event_attr attr;
	int fd;

	install_sigtrap();
	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;	/* 1 ms of task time */
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = 0x5eed1234;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 500 && !trap_count; i++)
		burn_cpu_ns(1000000);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_GT(trap_count, 0);
	EXPECT_EQ(TRAP_PERF, trap_code);
	EXPECT_EQ(0x5eed1234UL, trap_data);
	EXPECT_EQ(PERF_TYPE_SOFTWARE, trap_type);
	close(fd);
	signal(SIGTRAP, SIG_DFL);
}

static volatile long watched;

TEST(sigtrap_breakpoint_write_delivers_trap_perf)
{
	struct perf_event_attr attr;
	int fd;

	install_sigtrap();
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&watched;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.sample_period = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = 0xbeef;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	trap_disable_fd = fd;
	for (int i = 1; i <= 3; i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		watched = i;
		EXPECT_EQ(i, trap_count);
	}
	/* Disabled by the handler: this write does not trap. */
	watched = 3;
	EXPECT_EQ(3, trap_count);
	EXPECT_EQ(TRAP_PERF, trap_code);
	EXPECT_EQ(0xbeefUL, trap_data);
	EXPECT_EQ(PERF_TYPE_BREAKPOINT, trap_type);
	EXPECT_EQ((void *)&watched, trap_addr);
	EXPECT_EQ(3, watched);
	close(fd);
	signal(SIGTRAP, SIG_DFL);
}

static void *thread_write_watched(void *arg)
{
	watched = 42;
	return NULL;
}

TEST(sigtrap_inherited_to_thread)
{
	struct perf_event_attr attr;
	pthread_t t;
	int fd;

	install_sigtrap();
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&watched;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.sample_period = 1;
	attr.inherit = 1;
	attr.inherit_thread = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	attr.sig_data = 0x7777;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	trap_disable_fd = fd;
	ASSERT_EQ(0, pthread_create(&t, NULL, thread_write_watched, NULL));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(1, trap_count);
	EXPECT_EQ(TRAP_PERF, trap_code);
	EXPECT_EQ(0x7777UL, trap_data);
	EXPECT_EQ((void *)&watched, trap_addr);
	close(fd);
	signal(SIGTRAP, SIG_DFL);
}

/*
 * Every thread's SIGTRAPs arrive, however the threads are scheduled:
 * THREADS threads (more than CPUs, so they keep switching) each make
 * CALLS getppid() calls under a syscalls:sys_enter_getppid event with
 * sample_period 1 and sigtrap, inherited with CLONE_THREAD; each thread
 * must take exactly CALLS signals, all TRAP_PERF.
 *
 * The signal is queued as task work on the syscall's way out, and a
 * reschedule can come first.  The threads' contexts are clones of one
 * another, so the switch may hand the running context to the next
 * thread instead of switching it out; if the queued work's event went
 * with it, the work then found its context belonging to another task
 * and dropped the signal.  perf test 73 ("Sigtrap", the same pattern with
 * a breakpoint) lost ~5% of them on ours in one x86 run in three with
 * truly parallel vCPUs (issue 13).  Stock passes.
 */
#define SIGTRAP_THREADS	6
#define SIGTRAP_CALLS	2000

static __thread int thread_traps;
static __thread int thread_bad_code;

static void sigtrap_count_handler(int sig, siginfo_t *si, void *uc)
{
	thread_traps++;
	if (si->si_code != TRAP_PERF)
		thread_bad_code++;
}

struct sigtrap_thread {
	pthread_t t;
	int traps, bad_code;
};

static void *sigtrap_calls(void *arg)
{
	struct sigtrap_thread *st = arg;

	for (int i = 0; i < SIGTRAP_CALLS; i++)
		syscall(__NR_getppid);
	st->traps = thread_traps;
	st->bad_code = thread_bad_code;
	return NULL;
}

TEST(sigtrap_threads_none_lost)
{
	struct sigtrap_thread st[SIGTRAP_THREADS];
	struct perf_event_attr attr;
	struct sigaction sa;
	long id = tracepoint_id("syscalls/sys_enter_getppid");
	int fd, round, i, lost = 0, misplaced = 0;

	ASSERT_GT(id, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = sigtrap_count_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	ASSERT_EQ(0, sigaction(SIGTRAP, &sa, NULL));

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.inherit = 1;
	attr.inherit_thread = 1;
	attr.sigtrap = 1;
	attr.remove_on_exec = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);

	/* A few rounds: the race needs a switch in a narrow window. */
	for (round = 0; round < 3; round++) {
		for (i = 0; i < SIGTRAP_THREADS; i++)
			ASSERT_EQ(0, pthread_create(&st[i].t, NULL,
						    sigtrap_calls, &st[i]));
		for (i = 0; i < SIGTRAP_THREADS; i++) {
			ASSERT_EQ(0, pthread_join(st[i].t, NULL));
			lost += SIGTRAP_CALLS - st[i].traps;
			misplaced += st[i].bad_code;
		}
	}
	EXPECT_EQ(0, lost) TH_LOG("%d of %d SIGTRAPs not delivered", lost,
				  3 * SIGTRAP_THREADS * SIGTRAP_CALLS);
	EXPECT_EQ(0, misplaced);
	/* The main thread made no getppid() call. */
	EXPECT_EQ(0, thread_traps);
	close(fd);
	signal(SIGTRAP, SIG_DFL);
}

TEST_HARNESS_MAIN
