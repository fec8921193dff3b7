/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the perfcore conformance suite.
 *
 * Every test binary includes this after kselftest_harness.h.  Everything
 * here is static inline so each binary stays a single translation unit.
 *
 * The guest the suite runs in: root, /proc, /sys, tracefs at
 * /sys/kernel/tracing, debugfs at /sys/kernel/debug, cgroup2 at
 * /sys/fs/cgroup, tmpfs /tmp, two CPUs.  On x86_64 under TCG there is a
 * hardware PMU only with the harness's QEMU under -icount (see hw_test.h);
 * on arm64 (-cpu max, -icount) PMUv3 is there and counts instructions
 * exactly.
 */
#ifndef PERF_TEST_H
#define PERF_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <dirent.h>
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
#include <sys/resource.h>
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

/*
 * The kernel's interrupt throttling (perf_event_max_sample_rate, and
 * perf_cpu_time_max_percent lowering it once a PMI took long) would
 * decide how many samples a binary that samples at a high rate on
 * purpose gets: no_throttling() turns both off, once, and puts them
 * back at the exit of the process that did (not of its children).
 * Return: 0, or -1 if either could not be written.
 */
#define PERF_MAX_RATE_PATH	"/proc/sys/kernel/perf_event_max_sample_rate"
#define PERF_CPU_PCT_PATH	"/proc/sys/kernel/perf_cpu_time_max_percent"

struct throttling {
	long	rate;
	long	pct;
	pid_t	owner;
};

static inline struct throttling *throttling_saved(void)
{
	static struct throttling saved = { LONG_MIN, LONG_MIN, 0 };

	return &saved;
}

static inline void restore_throttling(void)
{
	struct throttling *t = throttling_saved();

	if (getpid() != t->owner)
		return;
	/* The rate can only be written with the dynamic limit on. */
	if (t->pct != LONG_MIN)
		write_long(PERF_CPU_PCT_PATH, t->pct);
	if (t->rate != LONG_MIN)
		write_long(PERF_MAX_RATE_PATH, t->rate);
}

static inline int no_throttling(void)
{
	struct throttling *t = throttling_saved();

	if (t->owner)
		return 0;
	t->owner = getpid();
	t->rate = read_long(PERF_MAX_RATE_PATH);
	t->pct = read_long(PERF_CPU_PCT_PATH);
	atexit(restore_throttling);
	if (write_long(PERF_MAX_RATE_PATH, 1000000) ||
	    write_long(PERF_CPU_PCT_PATH, 0))
		return -1;
	return 0;
}

/* The type number a dynamic PMU registered under, or -1. */
/*
 * The first PMU in sysfs whose name starts with @prefix, into @name:
 * 0, or -1 where there is none (or its name does not fit in @len).
 */
static inline int find_pmu_named(const char *prefix, char *name, size_t len)
{
	DIR *d = opendir(EVENT_SOURCE);
	struct dirent *de;
	int found = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, prefix, strlen(prefix)) &&
		    strlen(de->d_name) < len) {
			memcpy(name, de->d_name, strlen(de->d_name) + 1);
			found = 0;
			break;
		}
	}
	closedir(d);
	return found;
}

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

/*
 * Fork a child that waits until the parent writes one byte to *go (so the
 * parent can attach events to it first), then runs fn() (NULL: nothing)
 * and exits 0; if *go is closed instead it exits at once.  Returns the
 * child's pid, or -1; *go is the write end, for the parent to close.
 */
static inline pid_t fork_held(int *go, void (*fn)(void))
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) == 1 && fn)
			fn();
		_exit(0);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

/* Let a child of fork_held() go on. */
static inline int release_held(int go)
{
	char c = 0;

	return write(go, &c, 1) == 1 ? 0 : -1;
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

/*
 * The calling thread's context switches as the scheduler accounts them
 * (voluntary + involuntary).  The scheduler bumps these exactly where it
 * emits the context-switches software event and sched:sched_switch for
 * the outgoing task, so they are the ground truth for both.
 */
static inline __u64 thread_switches(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (__u64)ru.ru_nvcsw + (__u64)ru.ru_nivcsw;
}

/* Pin the calling thread to one CPU; returns 0 on success. */
static inline int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* The page size: buffers and test mappings come in whole pages. */
static inline long page_sz(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* n fresh (not yet faulted in) private anonymous pages, or NULL. */
static inline char *fresh(int n)
{
	char *p = mmap(NULL, n * page_sz(), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* mmap() @pages pages of @fd at page @pgoff: 0, or its errno */
static inline int perf_mmap_err(int fd, size_t pages, size_t pgoff, int prot,
				int flags)
{
	long pg = page_sz();
	void *p = mmap(NULL, pages * pg, prot, flags, fd, pgoff * pg);

	if (p == MAP_FAILED)
		return errno;
	munmap(p, pages * pg);
	return 0;
}

/*
 * The mmap ring buffer (perf_event_open(2), "MMAP layout"): one user page
 * (struct perf_event_mmap_page) then a power-of-two number of data pages.
 * data_head and data_tail are free-running byte positions, so a record
 * can wrap around the end of the data area: records are copied out byte
 * by byte with the position masked, never read in place.
 */

/*
 * Map 1 + pages pages of fd's buffer with prot (PROT_READ alone is the
 * overwrite mode) and fault all of them in now: several tests count page
 * faults exactly, and reading the buffer later must not add any.
 * Returns the user page, or NULL.
 */
static inline void *perf_rb_mmap(int fd, size_t pages, int prot)
{
	long pg = page_sz();
	void *p = mmap(NULL, (1 + pages) * pg, prot, MAP_SHARED, fd, 0);
	volatile char *c = p;
	size_t i;

	if (p == MAP_FAILED)
		return NULL;
	for (i = 0; i <= pages; i++)
		(void)c[i * pg];
	return p;
}

/* data_head, loaded with the acquire the ABI asks for before the data. */
static inline __u64 perf_rb_head(const struct perf_event_mmap_page *up)
{
	return __atomic_load_n(&up->data_head, __ATOMIC_ACQUIRE);
}

/* Copy n bytes starting at byte position pos of the data area, wrapping. */
static inline void perf_rb_read(const struct perf_event_mmap_page *up,
				__u64 pos, void *dst, size_t n)
{
	const char *data = (const char *)up + up->data_offset;
	__u64 mask = up->data_size - 1;
	size_t i;

	for (i = 0; i < n; i++)
		((char *)dst)[i] = data[(pos + i) & mask];
}

/*
 * Copy the record at pos, at most len bytes of it, with no checks: for
 * tests that pick the position themselves (overwrite or backward
 * buffers, a record at a known offset).
 */
static inline void perf_rb_copy(const struct perf_event_mmap_page *up,
				__u64 pos, void *buf, size_t len)
{
	struct perf_event_header h;

	perf_rb_read(up, pos, &h, sizeof(h));
	if (h.size < len)
		len = h.size;
	perf_rb_read(up, pos, buf, len);
}

/* A reader walking the buffer from the start, record by record. */
struct perf_rb {
	struct perf_event_mmap_page *up;
	__u64 pos;		/* our read position: the next record */
	size_t pages;		/* data pages, for perf_rb_unmap() */
};

/* Map a writable buffer of pages data pages on fd; 0 or -1. */
static inline int perf_rb_map(struct perf_rb *rb, int fd, size_t pages)
{
	rb->pos = 0;
	rb->pages = pages;
	rb->up = perf_rb_mmap(fd, pages, PROT_READ | PROT_WRITE);
	return rb->up ? 0 : -1;
}

static inline void perf_rb_unmap(struct perf_rb *rb)
{
	munmap(rb->up, (1 + rb->pages) * page_sz());
}

/*
 * Copy out the next record into buf (zero-filled first, at most len
 * bytes of the record) and step past it, leaving data_tail alone: the
 * space is not handed back to the kernel.  Returns the record type, or
 * -1 when there is no further record (or its header is malformed).
 */
static inline int perf_rb_fetch(struct perf_rb *rb, void *buf, size_t len)
{
	__u64 head = perf_rb_head(rb->up);
	struct perf_event_header h;

	if (rb->pos >= head)
		return -1;
	perf_rb_read(rb->up, rb->pos, &h, sizeof(h));
	if (h.size < sizeof(h))
		return -1;
	memset(buf, 0, len);
	perf_rb_read(rb->up, rb->pos, buf, h.size < len ? h.size : len);
	rb->pos += h.size;
	return h.type;
}

/*
 * perf_rb_fetch(), then publish data_tail: in a writable mapping the
 * kernel never overwrites unread data, so a reader that keeps up must
 * give the space back or later records are lost.
 */
static inline int perf_rb_next(struct perf_rb *rb, void *buf, size_t len)
{
	int type = perf_rb_fetch(rb, buf, len);

	if (type >= 0)
		__atomic_store_n(&rb->up->data_tail, rb->pos, __ATOMIC_RELEASE);
	return type;
}

/*
 * Arm SPE.  A task's user-only arm_spe event of PMU @type, disabled,
 * with timestamps (ts_enable) and @config's other fields, sampling
 * every @period operations.
 */
static inline void attr_arm_spe(struct perf_event_attr *attr, int type,
				__u64 config, __u64 period)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config | 1;
	attr->sample_period = period;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->disabled = 1;
}

/*
 * The payload bytes after an SPE packet's short header @h (the packets
 * SPEv1p1 writes: Arm ARM, "Statistical Profiling Extension packets"):
 * 0 for padding (0x00) and the end packet (0x01), -1 for a header the
 * format does not have.  A record ends at an end or timestamp (0x71)
 * packet.
 */
static inline int spe_payload_size(unsigned char h)
{
	if (h == 0x00 || h == 0x01)
		return 0;
	if ((h & 0xfc) == 0x48)			/* operation type */
		return 1;
	if ((h & 0xf8) == 0xb0 ||		/* address */
	    (h & 0xf8) == 0x98 ||		/* counter */
	    (h & 0xfc) == 0x64 ||		/* context */
	    (h & 0xcf) == 0x42 ||		/* events */
	    (h & 0xcf) == 0x43 ||		/* data source */
	    h == 0x71)				/* timestamp */
		return 1 << ((h >> 4) & 3);
	return -1;
}

#endif /* PERF_TEST_H */
