// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing-backed and other special PMUs: tracepoints (with filters), the
 * kprobe and uprobe PMUs, tracefs kprobe events, hardware breakpoints and
 * cgroup-scoped events.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <elf.h>
#include <sys/auxv.h>
#include <sys/mount.h>

#define N_CALLS		50

#if defined(__x86_64__)
#define SYS_GETPPID_FUNC	"__x64_sys_getppid"
#elif defined(__aarch64__)
#define SYS_GETPPID_FUNC	"__arm64_sys_getppid"
#else
#error "unsupported architecture"
#endif

static void call_getppid(int n)
{
	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static int open_tp(const char *sys_name, pid_t pid, int cpu)
{
	struct perf_event_attr attr;
	long id = tracepoint_id(sys_name);

	if (id < 0)
		return -2;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* Enable fd, make n getppid() calls, disable, return the count. */
static __u64 count_getppid(int fd, int n)
{
	__u64 v = ~0ULL;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	call_getppid(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read_count(fd, &v))
		return ~0ULL;
	return v;
}

TEST(tracepoint_sys_enter_getppid_exact)
{
	int fd = open_tp("syscalls/sys_enter_getppid", 0, -1);

	if (fd == -2)
		SKIP(return, "no syscalls:sys_enter_getppid in tracefs");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, count_getppid(fd, N_CALLS));
	EXPECT_EQ(2 * N_CALLS, count_getppid(fd, 2 * N_CALLS));
	close(fd);
}

TEST(tracepoint_sys_exit_getppid_exact)
{
	int fd = open_tp("syscalls/sys_exit_getppid", 0, -1);

	if (fd == -2)
		SKIP(return, "no syscalls:sys_exit_getppid in tracefs");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, count_getppid(fd, N_CALLS));
	close(fd);
}

TEST(tracepoint_sched_switch_counts_sleeps)
{
	struct timespec ts = { 0, 1000000 };
	int fd = open_tp("sched/sched_switch", 0, -1);
	__u64 v = 0, before, after;

	if (fd == -2)
		SKIP(return, "no sched:sched_switch in tracefs");
	ASSERT_GE(fd, 0);
	before = thread_switches();
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < 20; i++)
		nanosleep(&ts, NULL);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	after = thread_switches();
	ASSERT_EQ(0, read_count(fd, &v));
	/*
	 * Whether a 1 ms sleep blocks depends on how fast the guest runs (an
	 * expired timer returns without switching), so compare with the
	 * scheduler's own count instead of the number of sleeps.  Only a
	 * switch between a getrusage() and an ioctl() can be missing.
	 */
	EXPECT_LE(v, after - before);
	EXPECT_GE(v + 2, after - before);
	EXPECT_GE(v, 10);
	close(fd);
}

TEST(tracepoint_unknown_id_einval)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = 0x7ffffff0;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

static int open_tp_filtered(const char *sys_name, pid_t pid, int cpu,
			    const char *fmt, int arg)
{
	char filter[64];
	int fd = open_tp(sys_name, pid, cpu);

	if (fd < 0)
		return fd;
	snprintf(filter, sizeof(filter), fmt, arg);
	if (ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		close(fd);
		return -1;
	}
	return fd;
}

TEST(tracepoint_filter_common_pid)
{
	int fd;

	ASSERT_EQ(0, pin_to_cpu(0));
	/* CPU-wide on CPU 0, where we run: the filter alone picks us. */
	fd = open_tp_filtered("syscalls/sys_enter_getppid", -1, 0,
			      "common_pid == %d", getpid());
	if (fd == -2)
		SKIP(return, "no syscalls:sys_enter_getppid in tracefs");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, count_getppid(fd, N_CALLS));
	close(fd);
	fd = open_tp_filtered("syscalls/sys_enter_getppid", -1, 0,
			      "common_pid != %d", getpid());
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, count_getppid(fd, N_CALLS));
	close(fd);
}

TEST(tracepoint_filter_per_task_excluding_self_counts_zero)
{
	int fd = open_tp_filtered("syscalls/sys_enter_getppid", 0, -1,
				  "common_pid == %d", getpid() + 100000);

	if (fd == -2)
		SKIP(return, "no syscalls:sys_enter_getppid in tracefs");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, count_getppid(fd, N_CALLS));
	close(fd);
}

TEST(tracepoint_filter_second_set_eexist)
{
	int fd = open_tp_filtered("syscalls/sys_enter_getppid", 0, -1,
				  "common_pid == %d", getpid());

	if (fd == -2)
		SKIP(return, "no syscalls:sys_enter_getppid in tracefs");
	ASSERT_GE(fd, 0);
	/* A tracepoint event's filter is set once for its lifetime. */
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid != 0"));
	EXPECT_EQ(EEXIST, errno);
	/* And the first filter stays in force. */
	EXPECT_EQ(N_CALLS, count_getppid(fd, N_CALLS));
	close(fd);
}

TEST(tracepoint_filter_invalid_einval)
{
	int fd = open_tp("syscalls/sys_enter_getppid", 0, -1);

	if (fd == -2)
		SKIP(return, "no syscalls:sys_enter_getppid in tracefs");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "no_such_field == 1"));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

TEST(tracepoint_filter_on_software_event_einval)
{
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, 1, -1);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "common_pid == 1"));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/* "config:N" from a PMU's format file, or -1. */
static int format_bit(const char *pmu, const char *name)
{
	char path[256], buf[64];

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/format/%s", pmu, name);
	if (read_file(path, buf, sizeof(buf)) < 0 || strncmp(buf, "config:", 7))
		return -1;
	return atoi(buf + 7);
}

static int open_kprobe(const char *func, int retprobe)
{
	struct perf_event_attr attr;
	int type = pmu_type("kprobe");
	int bit = format_bit("kprobe", "retprobe");

	if (type < 0 || (retprobe && bit < 0))
		return -2;
	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.kprobe_func = (unsigned long)func;
	attr.probe_offset = 0;
	attr.config = retprobe ? 1ULL << bit : 0;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

TEST(kprobe_pmu_getppid_exact)
{
	int fd = open_kprobe(SYS_GETPPID_FUNC, 0);

	if (fd == -2)
		SKIP(return, "no kprobe PMU");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, count_getppid(fd, N_CALLS));
	close(fd);
}

TEST(kprobe_pmu_retprobe_getppid_exact)
{
	int fd = open_kprobe(SYS_GETPPID_FUNC, 1);

	if (fd == -2)
		SKIP(return, "no kprobe PMU");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, count_getppid(fd, N_CALLS));
	close(fd);
}

/* A noinline function of this binary for the uprobe to hit. */
__attribute__((noinline)) int uprobe_target(int x)
{
	asm volatile("" : "+r"(x));
	return x + 1;
}

static int (*volatile uprobe_target_ptr)(int) = uprobe_target;

/*
 * The file offset of uprobe_target in /proc/self/exe: its link-time
 * address (runtime address less the load bias) inside the PT_LOAD segment
 * that maps it.
 */
static long uprobe_target_offset(void)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	unsigned long addr = (unsigned long)uprobe_target, bias = 0;
	unsigned long phdr_rt = getauxval(AT_PHDR);
	long off = -1;
	int fd = open("/proc/self/exe", O_RDONLY);

	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh))
		goto out;
	/* Find the bias from PT_PHDR, or the segment mapping the phdrs. */
	for (int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * eh.e_phentsize) != sizeof(ph))
			goto out;
		if (ph.p_type == PT_PHDR)
			bias = phdr_rt - ph.p_vaddr;
		else if (ph.p_type == PT_LOAD && eh.e_phoff >= ph.p_offset &&
			 eh.e_phoff < ph.p_offset + ph.p_filesz && !bias)
			bias = phdr_rt - (ph.p_vaddr + eh.e_phoff - ph.p_offset);
	}
	addr -= bias;
	for (int i = 0; i < eh.e_phnum; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * eh.e_phentsize) != sizeof(ph))
			goto out;
		if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
		    addr >= ph.p_vaddr && addr < ph.p_vaddr + ph.p_filesz) {
			off = addr - ph.p_vaddr + ph.p_offset;
			break;
		}
	}
out:
	close(fd);
	return off;
}

static int open_uprobe(struct __test_metadata *_metadata, int retprobe)
{
	struct perf_event_attr attr;
	static char path[PATH_MAX];
	int type = pmu_type("uprobe");
	int bit = format_bit("uprobe", "retprobe");
	long off;
	ssize_t n;

	if (type < 0 || (retprobe && bit < 0))
		return -2;
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	if (n <= 0)
		return -1;
	path[n] = '\0';
	off = uprobe_target_offset();
	if (off < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.uprobe_path = (unsigned long)path;
	attr.probe_offset = off;
	attr.config = retprobe ? 1ULL << bit : 0;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

static __u64 count_uprobe_calls(int fd, int n)
{
	__u64 v = ~0ULL;
	int x = 0;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (int i = 0; i < n; i++)
		x = uprobe_target_ptr(x);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (x != n || read_count(fd, &v))
		return ~0ULL;
	return v;
}

TEST(uprobe_pmu_counts_calls)
{
	int fd = open_uprobe(_metadata, 0);

	if (fd == -2)
		SKIP(return, "no uprobe PMU");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, count_uprobe_calls(fd, N_CALLS));
	close(fd);
}

TEST(uprobe_pmu_retprobe_counts_returns)
{
	int fd = open_uprobe(_metadata, 1);

	if (fd == -2)
		SKIP(return, "no uprobe PMU");
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, count_uprobe_calls(fd, N_CALLS));
	close(fd);
}

/* tracefs kprobe_events: define a probe, open it as a tracepoint. */
#define KPROBE_EVENTS	TRACEFS "/kprobe_events"
#define KP_GROUP	"perfcore"
#define KP_NAME		"trace_getppid"

static int append_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_APPEND);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -1;
}

/*
 * Not a fixture: the probe is removed before anything is asserted, so a
 * failure cannot leave it behind.
 */
TEST(tracefs_kprobe_as_tracepoint_exact)
{
	__u64 v = ~0ULL;
	int fd, created, removed;

	if (access(KPROBE_EVENTS, W_OK))
		SKIP(return, "no " KPROBE_EVENTS);
	append_file(KPROBE_EVENTS, "-:" KP_GROUP "/" KP_NAME);
	created = append_file(KPROBE_EVENTS,
			      "p:" KP_GROUP "/" KP_NAME " " SYS_GETPPID_FUNC);
	fd = open_tp(KP_GROUP "/" KP_NAME, 0, -1);
	if (fd >= 0) {
		v = count_getppid(fd, N_CALLS);
		close(fd);
	}
	removed = created ? 0 : append_file(KPROBE_EVENTS, "-:" KP_GROUP "/" KP_NAME);
	ASSERT_EQ(0, created);
	EXPECT_EQ(0, removed);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(N_CALLS, v);
	/* Gone from tracefs with the definition. */
	EXPECT_EQ(-1, tracepoint_id(KP_GROUP "/" KP_NAME));
}

/* Hardware breakpoints. */
static volatile __u8 bp_u8;
static volatile __u16 bp_u16;
static volatile __u32 bp_u32;
static volatile __u64 bp_u64;

static int open_bp(int type, void *addr, int len)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = type;
	attr.bp_addr = (unsigned long)addr;
	attr.bp_len = len;
	attr.disabled = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

TEST(breakpoint_write_counts_exact)
{
	__u64 v = ~0ULL;
	int fd = open_bp(HW_BREAKPOINT_W, (void *)&bp_u64, HW_BREAKPOINT_LEN_8);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < N_CALLS; i++)
		bp_u64 = i;
	/* Reads do not trigger a write watchpoint. */
	for (int i = 0; i < N_CALLS; i++)
		(void)bp_u64;
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_EQ(N_CALLS, v);
	close(fd);
}

TEST(breakpoint_len_variants_count_exact)
{
	struct { volatile void *p; int len; } c[] = {
		{ &bp_u8, HW_BREAKPOINT_LEN_1 }, { &bp_u16, HW_BREAKPOINT_LEN_2 },
		{ &bp_u32, HW_BREAKPOINT_LEN_4 }, { &bp_u64, HW_BREAKPOINT_LEN_8 },
	};

	for (int k = 0; k < 4; k++) {
		__u64 v = ~0ULL;
		int fd = open_bp(HW_BREAKPOINT_W, (void *)c[k].p, c[k].len);

		ASSERT_GE(fd, 0) TH_LOG("bp_len %d", c[k].len);
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
		for (int i = 0; i < 10 + k; i++) {
			switch (c[k].len) {
			case 1: bp_u8 = i; break;
			case 2: bp_u16 = i; break;
			case 4: bp_u32 = i; break;
			default: bp_u64 = i; break;
			}
		}
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
		ASSERT_EQ(0, read_count(fd, &v));
		EXPECT_EQ(10 + k, v) TH_LOG("bp_len %d", c[k].len);
		close(fd);
	}
}

TEST(breakpoint_exec_counts_calls)
{
	/* x86 wants bp_len == sizeof(long) for X, arm64 an A64 insn (4). */
#ifdef __x86_64__
	int len = sizeof(long);
#else
	int len = HW_BREAKPOINT_LEN_4;
#endif
	__u64 v = ~0ULL;
	int fd = open_bp(HW_BREAKPOINT_X, (void *)uprobe_target, len);
	int x = 0;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	for (int i = 0; i < N_CALLS; i++)
		x = uprobe_target_ptr(x);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_EQ(N_CALLS, x);
	EXPECT_EQ(N_CALLS, v);
	close(fd);
}

TEST(breakpoint_invalid_type_einval)
{
	/* HW_BREAKPOINT_EMPTY and HW_BREAKPOINT_INVALID (RW|X). */
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_EMPTY, (void *)&bp_u64, HW_BREAKPOINT_LEN_8));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_bp(HW_BREAKPOINT_INVALID, (void *)&bp_u64, HW_BREAKPOINT_LEN_8));
	EXPECT_EQ(EINVAL, errno);
}

/* cgroup-scoped events. */
#define CG_NAME		"perfcore_trace_cg"

static int cgroup2_root(char *buf, size_t len)
{
	char line[512], dev[128], mnt[256], type[64];
	FILE *f = fopen("/proc/mounts", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %255s %63s", dev, mnt, type) == 3 &&
		    !strcmp(type, "cgroup2")) {
			snprintf(buf, len, "%s", mnt);
			found = 0;
			break;
		}
	}
	fclose(f);
	return found;
}

static int open_cgroup_event(int dirfd, __u64 config)
{
	struct perf_event_attr attr;

	attr_sw(&attr, config);
	attr.disabled = 0;
	return sys_perf_event_open(&attr, dirfd, 0, -1, PERF_FLAG_PID_CGROUP);
}

/*
 * perf_event is an implicit controller on cgroup2: it is never listed in
 * cgroup.controllers and cannot be written to cgroup.subtree_control.
 * Child cgroups only get a perf_event css once the root's control masks
 * have been recomputed, which happens when any controller is enabled in
 * the root's subtree_control (systemd does this at boot) or when a
 * controller is rebound between hierarchies.  The suite's kernel has no
 * other cgroup2 controller, so when the event cannot find the css
 * (ENOENT), bind perf_event to a throw-away v1 hierarchy and release it:
 * moving it back to the default hierarchy recomputes the root's masks and
 * gives every cgroup2 directory its perf_event css.
 */
static int enable_perf_event_controller(int dirfd)
{
	const char *mnt = "/tmp/perfcore_cgv1";
	int fd = open_cgroup_event(dirfd, PERF_COUNT_SW_CPU_CLOCK);

	if (fd >= 0 || errno != ENOENT)
		goto out;
	mkdir(mnt, 0755);
	if (mount("perfcore", mnt, "cgroup", 0, "perf_event") == 0)
		umount2(mnt, 0);
	rmdir(mnt);
	/* The v1 root is released asynchronously. */
	for (int i = 0; i < 300; i++) {
		fd = open_cgroup_event(dirfd, PERF_COUNT_SW_CPU_CLOCK);
		if (fd >= 0 || errno != ENOENT)
			break;
		usleep(10000);
	}
out:
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

FIXTURE(cgroup) {
	char root[256];
	char dir[320];
	int dirfd;
	pid_t child;
};

FIXTURE_SETUP(cgroup)
{
	self->dirfd = -1;
	self->child = 0;
	self->dir[0] = '\0';
	if (cgroup2_root(self->root, sizeof(self->root)))
		SKIP(return, "no cgroup2 mount");
	snprintf(self->dir, sizeof(self->dir), "%s/" CG_NAME, self->root);
	rmdir(self->dir);
	ASSERT_EQ(0, mkdir(self->dir, 0755));
	self->dirfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_GE(self->dirfd, 0);
	ASSERT_EQ(0, enable_perf_event_controller(self->dirfd));
}

FIXTURE_TEARDOWN(cgroup)
{
	if (self->child > 0) {
		kill(self->child, SIGKILL);
		waitpid(self->child, NULL, 0);
	}
	if (self->dirfd >= 0)
		close(self->dirfd);
	if (self->dir[0])
		EXPECT_EQ(0, rmdir(self->dir));
}

/* Burn ns of CPU on CPU 0 inside the cgroup (in a child). */
static int burn_in_cgroup(FIXTURE_DATA(cgroup) *self, long ns)
{
	char procs[400], pid[32];
	int go[2], status;
	char c;

	if (pipe(go))
		return -1;
	self->child = fork();
	if (self->child == 0) {
		if (read(go[0], &c, 1) != 1 || pin_to_cpu(0))
			_exit(1);
		burn_cpu_ns(ns);
		_exit(0);
	}
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", self->dir);
	snprintf(pid, sizeof(pid), "%d", self->child);
	if (write_file(procs, pid) || write(go[1], "g", 1) != 1)
		return -1;
	close(go[0]);
	close(go[1]);
	if (waitpid(self->child, &status, 0) != self->child)
		return -1;
	self->child = 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

TEST_F(cgroup, cgroup_task_clock_counts_only_members)
{
	__u64 outside = ~0ULL, inside = ~0ULL;
	int fd;

	fd = open_cgroup_event(self->dirfd, PERF_COUNT_SW_TASK_CLOCK);
	ASSERT_GE(fd, 0);
	/* We are not in the cgroup: our CPU time on CPU 0 is not counted. */
	ASSERT_EQ(0, pin_to_cpu(0));
	burn_cpu_ns(20000000);
	ASSERT_EQ(0, read_count(fd, &outside));
	ASSERT_EQ(0, burn_in_cgroup(self, 30000000));
	ASSERT_EQ(0, read_count(fd, &inside));
	close(fd);
	EXPECT_LT(outside, 1000000);
	EXPECT_GE(inside - outside, 30000000ULL * 95 / 100);
	EXPECT_LT(inside - outside, 30000000ULL * 3);
}

TEST_F(cgroup, cgroup_cpu_clock_counts_only_members)
{
	__u64 outside = ~0ULL, inside = ~0ULL;
	int fd;

	fd = open_cgroup_event(self->dirfd, PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pin_to_cpu(0));
	burn_cpu_ns(20000000);
	ASSERT_EQ(0, read_count(fd, &outside));
	ASSERT_EQ(0, burn_in_cgroup(self, 30000000));
	ASSERT_EQ(0, read_count(fd, &inside));
	close(fd);
	EXPECT_LT(outside, 1000000);
	EXPECT_GE(inside - outside, 30000000ULL * 95 / 100);
	EXPECT_LT(inside - outside, 30000000ULL * 3);
}

TEST_F(cgroup, cgroup_event_needs_cpu_einval)
{
	struct perf_event_attr attr;

	attr_sw(&attr, PERF_COUNT_SW_CPU_CLOCK);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, self->dirfd, -1, -1,
					  PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(EINVAL, errno);
}

TEST(cgroup_flag_with_non_cgroup_fd_fails)
{
	struct perf_event_attr attr;
	int fd = open("/proc/self/stat", O_RDONLY);

	ASSERT_GE(fd, 0);
	attr_sw(&attr, PERF_COUNT_SW_CPU_CLOCK);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, fd, 0, -1, PERF_FLAG_PID_CGROUP));
	close(fd);
}

TEST_HARNESS_MAIN
