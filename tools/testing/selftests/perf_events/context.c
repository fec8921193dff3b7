// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore conformance: the lifetime of a task's context on the CPUs.
 *
 * A task context outlives its events: closing the last one leaves the
 * context with its task until the task exits.  The context switch hooks
 * run only while some task event exists in the system (a static key the
 * last event turns off, a little later).  A CPU must not keep an empty
 * context as its task context across that: once the hooks are off the
 * task leaves the CPU unseen, may exit elsewhere and free the context,
 * and the CPU's tick then reads freed memory, while the next event
 * installed on that CPU finds a context there that is not its task's.
 * Stock never keeps an empty context in a CPU; perfcore did until the
 * fuzzer found it (a KASAN use-after-free in the tick).
 *
 * What the kernel says about it goes to its log, so each case reads the
 * records /dev/kmsg gets while it runs and fails on a warning, a BUG
 * (KASAN's reports among them) or an oops.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <poll.h>

/* Longer than the hooks' switch-off delay (one second). */
#define KEY_OFF_WAIT_MS	2500

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void spin_ms(int ms)
{
	long long end = now_ms() + ms;

	while (now_ms() < end)
		;
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* /dev/kmsg opened at its end: what it gives later is new. */
static int kmsg_open_at_end(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* The first new kernel record that reports a problem, or NULL. */
static const char *kmsg_find_report(int fd, char *buf, size_t len)
{
	static const char *const marks[] = {
		"WARNING:", "BUG:", "Oops", "Call trace:", "Call Trace:",
	};
	ssize_t n;

	for (;;) {
		n = read(fd, buf, len - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: read on */
		if (n <= 0)
			return NULL;
		buf[n] = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(marks); i++)
			if (strstr(buf, marks[i]))
				return buf;
	}
}

static pid_t spawn(void (*fn)(int), int arg)
{
	pid_t pid = fork();

	if (pid == 0) {
		fn(arg);
		_exit(0);
	}
	return pid;
}

/*
 * On CPU @cpu for a while (the parent opens and closes an event on it
 * meanwhile: its context stays, empty), then away to the other CPU and
 * out.
 */
static void run_then_move(int cpu)
{
	if (pin_to(cpu))
		_exit(2);
	spin_ms(300 + KEY_OFF_WAIT_MS);
	if (pin_to(!cpu))
		_exit(2);
	spin_ms(10);
}

/* Until killed: a debug kernel may take longer than any fixed time. */
static void spin_on(int cpu)
{
	if (pin_to(cpu))
		_exit(2);
	spin_ms(120 * 1000);
}

/* Open a counting task-clock on @pid; fd or -1. */
static int open_task_clock(pid_t pid)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 0;
	return sys_perf_event_open(&attr, pid, -1, -1, 0);
}

/*
 * One task runs on each CPU while its only event is opened and closed
 * and the hooks then go off; each then moves to the other CPU and exits
 * there.  The worker that turns the hooks off preempts the task of one
 * CPU, with the hooks still on; the task on the other CPU leaves it only
 * after.  Then an event is installed on a task running on each CPU: it
 * must count, and the kernel must say nothing.  (A CPU that kept the
 * freed context may see the new one at the same address, and take it as
 * already in: the event then counts nothing.)
 */
TEST(empty_task_context_not_left_on_cpu_after_hooks_off)
{
	char buf[1024];
	const char *report;
	int status, kmsg, fd, cpu;
	pid_t movers[2], spinners[2];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	kmsg = kmsg_open_at_end();
	ASSERT_LE(0, kmsg);

	for (cpu = 0; cpu < 2; cpu++) {
		movers[cpu] = spawn(run_then_move, cpu);
		ASSERT_LT(0, movers[cpu]);
	}
	usleep(100 * 1000);
	for (cpu = 0; cpu < 2; cpu++) {
		fd = open_task_clock(movers[cpu]);
		ASSERT_LE(0, fd);
		usleep(20 * 1000);
		close(fd);
	}
	for (cpu = 0; cpu < 2; cpu++) {
		ASSERT_EQ(movers[cpu], waitpid(movers[cpu], &status, 0));
		ASSERT_TRUE(WIFEXITED(status));
		ASSERT_EQ(0, WEXITSTATUS(status));
	}

	/* Grace periods, and ticks on both CPUs, after the contexts went. */
	for (cpu = 0; cpu < 2; cpu++) {
		spinners[cpu] = spawn(spin_on, cpu);
		ASSERT_LT(0, spinners[cpu]);
	}
	usleep(300 * 1000);

	for (cpu = 0; cpu < 2; cpu++) {
		__u64 count = 0;

		/*
		 * From the other CPU: here this task would preempt the
		 * spinner, which would then come back in with its new
		 * context through the switch hook, over what the CPU kept.
		 */
		ASSERT_EQ(0, pin_to(!cpu));
		fd = open_task_clock(spinners[cpu]);
		ASSERT_LE(0, fd);
		usleep(100 * 1000);
		ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
		close(fd);
		/* It counted the running task: its context went in. */
		EXPECT_LT(0, count) {
			TH_LOG("task on CPU %d not counted", cpu);
		}
	}
	for (cpu = 0; cpu < 2; cpu++) {
		kill(spinners[cpu], SIGKILL);
		ASSERT_EQ(spinners[cpu], waitpid(spinners[cpu], &status, 0));
	}

	report = kmsg_find_report(kmsg, buf, sizeof(buf));
	EXPECT_EQ(NULL, report) {
		TH_LOG("kernel reported: %s", report);
	}
	close(kmsg);
}

/*
 * The first event on a task that is already running, and its last one
 * closed while it runs, many times over: its context goes in and out of
 * the CPU while the task runs there, and the counts stay sane.
 */
TEST(context_in_and_out_while_task_runs)
{
	char buf[1024];
	const char *report;
	int status, kmsg, round;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pin_to(0));
	kmsg = kmsg_open_at_end();
	ASSERT_LE(0, kmsg);
	pid = spawn(spin_on, 1);
	ASSERT_LT(0, pid);
	usleep(100 * 1000);

	for (round = 0; round < 50; round++) {
		__u64 count = 0;
		int fd;

		fd = open_task_clock(pid);
		ASSERT_LE(0, fd);
		usleep(5 * 1000);
		ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
		EXPECT_LT(0, count);
		close(fd);
	}
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));

	report = kmsg_find_report(kmsg, buf, sizeof(buf));
	EXPECT_EQ(NULL, report) {
		TH_LOG("kernel reported: %s", report);
	}
	close(kmsg);
}

/* Until killed: short naps on @cpu, each a switch away from its task. */
static void nap_on(int cpu)
{
	if (pin_to(cpu))
		_exit(2);
	for (;;)
		usleep(50);
}

/* @pid's CPU time so far, in nanoseconds. */
static __u64 cpu_time_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * CPU time of the task between two reads past which the second read
 * must count more than the first: a task-clock counts less than the
 * scheduler's CPU time by what each switch costs (much, on a debug
 * kernel), but never nothing of so long a run.
 */
#define TASK_CLOCK_RAN_NS	200000

/*
 * A running task's task-clock, read from another CPU again and again
 * while the task is switched out and back in all the time (a second
 * task on its CPU naps in short steps): where the task ran between two
 * reads, as its own CPU clock tells, the second counts more than the
 * first.  (A read may find the task out; then the count is as of its
 * last switch, which still holds that run.)  A read that
 * finds the task out when its IPI comes and its context back in by the
 * time it looks again must go back to the task's CPU: perfcore keeps a
 * counting task-clock on the CPU across a switch (it stands still with
 * its context's clock) and folds its count only when it is read there,
 * so the count it would report is the previous read's.
 */
TEST(task_clock_reads_keep_up_while_task_switches)
{
	__u64 last = 0, now = 0, ran_after_last = 0, ran_before_now;
	int status, fd, i, stale = 0;
	pid_t spinner, napper;
	clockid_t clock;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, pin_to(0));
	spinner = spawn(spin_on, 1);
	ASSERT_LT(0, spinner);
	napper = spawn(nap_on, 1);
	ASSERT_LT(0, napper);
	ASSERT_EQ(0, clock_getcpuclockid(spinner, &clock));
	usleep(100 * 1000);

	fd = open_task_clock(spinner);
	ASSERT_LE(0, fd);
	for (i = 0; i < 1000; i++) {
		usleep(1000);
		ran_before_now = cpu_time_ns(clock);
		ASSERT_EQ(sizeof(now), read(fd, &now, sizeof(now)));
		if (i && now == last &&
		    ran_before_now - ran_after_last >= TASK_CLOCK_RAN_NS)
			stale++;
		ran_after_last = cpu_time_ns(clock);
		last = now;
	}
	close(fd);
	kill(napper, SIGKILL);
	kill(spinner, SIGKILL);
	ASSERT_EQ(napper, waitpid(napper, &status, 0));
	ASSERT_EQ(spinner, waitpid(spinner, &status, 0));

	EXPECT_EQ(0, stale) {
		TH_LOG("%d of %d reads gave the count of the read before, the task having run",
		       stale, i);
	}
}

TEST_HARNESS_MAIN
