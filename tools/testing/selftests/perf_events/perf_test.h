/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the perfcore conformance suite.
 *
 * Every test binary includes this after kselftest_harness.h.  Everything
 * here is static inline so each binary stays a single translation unit.
 *
 * The guest the suite runs in: root, /proc, /sys, tracefs at
 * /sys/kernel/tracing, debugfs at /sys/kernel/debug, cgroup2 at
 * /sys/fs/cgroup, tmpfs /tmp, two CPUs.  On x86_64 under TCG there is no
 * hardware PMU; on arm64 (-cpu max, -icount) PMUv3 is there and counts
 * instructions exactly.
 */
#ifndef PERF_TEST_H
#define PERF_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/hw_breakpoint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC	(1UL << 3)
#endif

#define UNPRIV_UID	65534
#define UNPRIV_GID	65534
#define PARANOID_PATH	"/proc/sys/kernel/perf_event_paranoid"
#define TRACEFS		"/sys/kernel/tracing"
#define EVENT_SOURCE	"/sys/bus/event_source/devices"

static inline int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				      int cpu, int group_fd,
				      unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* A disabled software counting event for the calling thread's attr. */
static inline void attr_sw(struct perf_event_attr *attr, __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	attr->config = config;
	attr->disabled = 1;
}

/* Open a software event on the calling thread; returns fd or -1. */
static inline int open_sw(__u64 config, int disabled, int group_fd)
{
	struct perf_event_attr attr;

	attr_sw(&attr, config);
	attr.disabled = disabled;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* read() one u64 count; returns 0 on success. */
static inline int read_count(int fd, __u64 *val)
{
	return read(fd, val, sizeof(*val)) == sizeof(*val) ? 0 : -1;
}

static inline int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

static inline int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

static inline long read_long(const char *path)
{
	char buf[64];

	if (read_file(path, buf, sizeof(buf)) < 0)
		return LONG_MIN;
	return strtol(buf, NULL, 0);
}

static inline int write_long(const char *path, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return write_file(path, buf);
}

/* The type number a dynamic PMU registered under, or -1. */
static inline int pmu_type(const char *pmu)
{
	char path[256];
	long v;

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/type", pmu);
	v = read_long(path);
	return v == LONG_MIN ? -1 : (int)v;
}

/* The tracepoint id of "sys/name" from tracefs, or -1. */
static inline long tracepoint_id(const char *sys_name)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/events/%s/id", sys_name);
	return read_long(path) == LONG_MIN ? -1 : read_long(path);
}

/* Whether the hardware cycles/instructions events can be opened here. */
static inline int have_hw_pmu(void)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_HARDWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

/*
 * Run fn(arg) in a child that has dropped to an unprivileged uid with no
 * capabilities; returns the child's exit status (fn's return value), or
 * -1 if it died.  The paranoid level is set around the call and restored.
 */
static inline int run_unprivileged(int paranoid, int (*fn)(void *), void *arg)
{
	long old = read_long(PARANOID_PATH);
	pid_t pid;
	int status;

	if (paranoid != INT_MIN && write_long(PARANOID_PATH, paranoid))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (setgroups(0, NULL) || setresgid(UNPRIV_GID, UNPRIV_GID, UNPRIV_GID) ||
		    setresuid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID))
			_exit(126);
		_exit(fn(arg));
	}
	waitpid(pid, &status, 0);
	if (paranoid != INT_MIN)
		write_long(PARANOID_PATH, old);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Spin for roughly ns nanoseconds of this thread's CPU time. */
static inline void burn_cpu_ns(long ns)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

static inline __u64 thread_cpu_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (__u64)t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* Pin the calling thread to one CPU; returns 0 on success. */
static inline int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

#endif /* PERF_TEST_H */
