// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) permissions: kernel.perf_event_paranoid levels for an
 * unprivileged user (uid 65534, no capabilities), CAP_PERFMON and
 * CAP_SYS_ADMIN, and the ptrace-style check for monitoring other tasks.
 *
 * Checked against 6.12 (Debian 6.12.117): kernel/events/core.c,
 * include/linux/perf_event.h (perf_allow_kernel/cpu/tracepoint) and
 * kernel/trace/trace_event_perf.c.  Debian carries the
 * perf_event_paranoid=3 patch: at a level above 2, perf_event_open()
 * returns EACCES unless the caller has CAP_SYS_ADMIN (CAP_PERFMON is not
 * enough).  The default level is 2 (no SECURITY_PERF_EVENTS_RESTRICT).
 *
 * The helper functions run in the dropped child and return 0 if the open
 * succeeded and the errno otherwise, which becomes the exit status.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <linux/capability.h>

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

struct open_req {
	struct perf_event_attr attr;
	pid_t pid;
	int cpu;
};

static int do_open(void *arg)
{
	struct open_req *req = arg;
	int fd = sys_perf_event_open(&req->attr, req->pid, req->cpu, -1, 0);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A per-task, user-only software counter: the least privileged event. */
static void req_user(struct open_req *req, __u64 config)
{
	memset(req, 0, sizeof(*req));
	attr_sw(&req->attr, config);
	req->attr.exclude_kernel = 1;
	req->attr.exclude_hv = 1;
	req->pid = 0;
	req->cpu = -1;
}

static int sys_capset(__u64 caps)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
		.pid = 0,
	};
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	data[0].effective = data[0].permitted = (__u32)caps;
	data[1].effective = data[1].permitted = (__u32)(caps >> 32);
	return syscall(__NR_capset, &hdr, data);
}

/*
 * Like run_unprivileged(), but the child keeps exactly the capabilities
 * in @caps (a bit mask of CAP_*) across the switch to uid 65534.
 */
static int run_with_caps(int paranoid, __u64 caps, int (*fn)(void *), void *arg)
{
	long old = read_long(PARANOID_PATH);
	pid_t pid;
	int status;

	if (paranoid != INT_MIN && write_long(PARANOID_PATH, paranoid))
		return -1;
	pid = fork();
	if (pid == 0) {
		if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
		    setresgid(UNPRIV_GID, UNPRIV_GID, UNPRIV_GID) ||
		    setresuid(UNPRIV_UID, UNPRIV_UID, UNPRIV_UID) ||
		    sys_capset(caps))
			_exit(126);
		_exit(fn(arg));
	}
	waitpid(pid, &status, 0);
	if (paranoid != INT_MIN)
		write_long(PARANOID_PATH, old);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define CAPBIT(c)	(1ULL << (c))

/* A task that sleeps until killed, optionally as another uid. */
static pid_t spawn_target(int uid, int dumpable)
{
	int pfd[2];
	pid_t pid;
	char c;

	if (pipe(pfd))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		if (uid >= 0 &&
		    (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		     setresuid(uid, uid, uid)))
			_exit(1);
		/* A uid change makes the task non-dumpable; optionally undo. */
		if (dumpable >= 0 && prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0))
			_exit(1);
		if (write(pfd[1], "x", 1) != 1)
			_exit(1);
		for (;;)
			pause();
	}
	close(pfd[1]);
	if (pid < 0 || read(pfd[0], &c, 1) != 1) {
		close(pfd[0]);
		if (pid > 0) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
		}
		return -1;
	}
	close(pfd[0]);
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static int open_self_by_pid(void *arg)
{
	struct open_req *req = arg;

	/* run_unprivileged()'s uid switch left us non-dumpable. */
	if (prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) != 0)
		return 200;
	req->pid = getpid();
	return do_open(req);
}

/* ---- paranoid levels, no capabilities --------------------------------- */

TEST(perm_paranoid2_user_only_task_event_allowed)
{
	static const __u64 cfgs[] = {
		PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS,
		PERF_COUNT_SW_CONTEXT_SWITCHES, PERF_COUNT_SW_DUMMY,
	};
	struct open_req req;
	unsigned int i;

	for (i = 0; i < sizeof(cfgs) / sizeof(cfgs[0]); i++) {
		req_user(&req, cfgs[i]);
		EXPECT_EQ(0, run_unprivileged(2, do_open, &req));
	}
	/* Explicitly naming our own pid is the same. */
	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(0, run_unprivileged(2, open_self_by_pid, &req));
}

TEST(perm_paranoid2_kernel_counting_eacces)
{
	struct open_req req;

	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	req.attr.exclude_kernel = 0;
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));
	/* exclude_hv alone does not help. */
	req.attr.exclude_hv = 1;
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));

	/* Kernel callchains are kernel data too. */
	req_user(&req, PERF_COUNT_SW_PAGE_FAULTS);
	req.attr.sample_period = 1000;
	req.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));
	req.attr.exclude_callchain_kernel = 1;
	EXPECT_EQ(0, run_unprivileged(2, do_open, &req));

	/* So are physical addresses. */
	req_user(&req, PERF_COUNT_SW_PAGE_FAULTS);
	req.attr.sample_period = 1000;
	req.attr.sample_type = PERF_SAMPLE_PHYS_ADDR;
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));

	/*
	 * A kernel branch filter is checked while copying the attr, before
	 * the PMU could say it has no branch stacks at all.
	 */
	req_user(&req, PERF_COUNT_SW_PAGE_FAULTS);
	req.attr.sample_period = 1000;
	req.attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	req.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL;
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));
	req.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(EOPNOTSUPP, run_unprivileged(2, do_open, &req));
}

TEST(perm_paranoid1_kernel_counting_allowed)
{
	struct open_req req;

	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	req.attr.exclude_kernel = 0;
	req.attr.exclude_hv = 0;
	EXPECT_EQ(0, run_unprivileged(1, do_open, &req));

	req_user(&req, PERF_COUNT_SW_PAGE_FAULTS);
	req.attr.sample_period = 1000;
	req.attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN |
			       PERF_SAMPLE_PHYS_ADDR;
	EXPECT_EQ(0, run_unprivileged(1, do_open, &req));
}

TEST(perm_cpu_wide_event_needs_paranoid_0)
{
	struct open_req req;

	req_user(&req, PERF_COUNT_SW_CPU_CLOCK);
	req.pid = -1;
	req.cpu = 0;
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));
	EXPECT_EQ(EACCES, run_unprivileged(1, do_open, &req));
	EXPECT_EQ(0, run_unprivileged(0, do_open, &req));
	EXPECT_EQ(0, run_unprivileged(-1, do_open, &req));

	/* A task event bound to one cpu is still a task event. */
	req.pid = 0;
	EXPECT_EQ(0, run_unprivileged(2, do_open, &req));
}

TEST(perm_paranoid3_denies_unprivileged)
{
	struct open_req req;

	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(EACCES, run_unprivileged(3, do_open, &req));
	req_user(&req, PERF_COUNT_SW_DUMMY);
	EXPECT_EQ(EACCES, run_unprivileged(3, do_open, &req));
	/* Higher values behave as 3. */
	EXPECT_EQ(EACCES, run_unprivileged(4, do_open, &req));
	/* The attr is still validated first. */
	req.attr.__reserved_2 = 1;
	EXPECT_EQ(EINVAL, run_unprivileged(3, do_open, &req));
}

TEST(perm_paranoid3_needs_cap_sys_admin)
{
	struct open_req req;

	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	/* CAP_PERFMON does not pass the paranoid > 2 gate. */
	EXPECT_EQ(EACCES, run_with_caps(3, CAPBIT(CAP_PERFMON), do_open, &req));
	EXPECT_EQ(0, run_with_caps(3, CAPBIT(CAP_SYS_ADMIN), do_open, &req));
	/* And with CAP_SYS_ADMIN even kernel and cpu-wide counting. */
	req.attr.exclude_kernel = 0;
	req.pid = -1;
	req.cpu = 0;
	EXPECT_EQ(0, run_with_caps(3, CAPBIT(CAP_SYS_ADMIN), do_open, &req));
}

/* ---- tracepoints ------------------------------------------------------ */

static void req_tracepoint(struct open_req *req, long id, int raw)
{
	memset(req, 0, sizeof(*req));
	req->attr.type = PERF_TYPE_TRACEPOINT;
	req->attr.size = sizeof(req->attr);
	req->attr.config = id;
	req->attr.disabled = 1;
	req->attr.exclude_kernel = 1;
	if (raw) {
		req->attr.sample_period = 1;
		req->attr.sample_type = PERF_SAMPLE_RAW;
	}
	req->pid = 0;
	req->cpu = -1;
}

TEST(perm_tracepoint_counting_unprivileged)
{
	long id = tracepoint_id("sched/sched_switch");
	struct open_req req;

	ASSERT_GT(id, 0);
	/* Counting a tracepoint for one's own task leaks nothing. */
	req_tracepoint(&req, id, 0);
	EXPECT_EQ(0, run_unprivileged(2, do_open, &req));
	/* Without exclude_kernel it is kernel counting. */
	req.attr.exclude_kernel = 0;
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));
	EXPECT_EQ(0, run_unprivileged(1, do_open, &req));
}

TEST(perm_tracepoint_raw_samples_need_paranoid_minus1)
{
	long id = tracepoint_id("sched/sched_switch");
	struct open_req req;

	ASSERT_GT(id, 0);
	/* Raw tracepoint data: EPERM unless paranoid is -1. */
	req_tracepoint(&req, id, 1);
	EXPECT_EQ(EPERM, run_unprivileged(2, do_open, &req));
	EXPECT_EQ(EPERM, run_unprivileged(0, do_open, &req));
	EXPECT_EQ(0, run_unprivileged(-1, do_open, &req));
	EXPECT_EQ(0, run_with_caps(2, CAPBIT(CAP_PERFMON), do_open, &req));

	/* Syscall tracepoints are exempt for per-task events. */
	id = tracepoint_id("syscalls/sys_enter_getpid");
	ASSERT_GT(id, 0);
	req_tracepoint(&req, id, 1);
	EXPECT_EQ(0, run_unprivileged(2, do_open, &req));
}

/* ---- capabilities ----------------------------------------------------- */

static void check_privileged_opens(struct __test_metadata *_metadata, __u64 caps)
{
	struct open_req req;

	/* Kernel counting on a task. */
	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	req.attr.exclude_kernel = 0;
	req.attr.exclude_hv = 0;
	EXPECT_EQ(0, run_with_caps(2, caps, do_open, &req));
	/* A cpu-wide event including the kernel. */
	req.pid = -1;
	req.cpu = 0;
	EXPECT_EQ(0, run_with_caps(2, caps, do_open, &req));
	/* Kernel callchains and namespaces records. */
	req_user(&req, PERF_COUNT_SW_PAGE_FAULTS);
	req.attr.sample_period = 1000;
	req.attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	req.attr.namespaces = 1;
	EXPECT_EQ(0, run_with_caps(2, caps, do_open, &req));
}

TEST(perm_cap_perfmon_restores_access)
{
	struct open_req req;

	check_privileged_opens(_metadata, CAPBIT(CAP_PERFMON));
	/* The same with no capability at all fails, as a control. */
	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	req.attr.exclude_kernel = 0;
	EXPECT_EQ(EACCES, run_with_caps(2, 0, do_open, &req));
}

TEST(perm_cap_sys_admin_restores_access)
{
	check_privileged_opens(_metadata, CAPBIT(CAP_SYS_ADMIN));
}

TEST(perm_namespaces_records_need_perfmon)
{
	struct open_req req;

	req_user(&req, PERF_COUNT_SW_DUMMY);
	req.attr.namespaces = 1;
	/* Whatever the paranoid level. */
	EXPECT_EQ(EACCES, run_unprivileged(2, do_open, &req));
	EXPECT_EQ(EACCES, run_unprivileged(-1, do_open, &req));
}

/* ---- other tasks ------------------------------------------------------ */

TEST(perm_other_uid_task_eacces)
{
	struct open_req req;
	pid_t target = spawn_target(-1, -1);	/* stays root */
	int r1, r2, r3;

	ASSERT_GT(target, 0);
	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	req.pid = target;
	/* Fails the ptrace access check even with paranoid at -1. */
	r1 = run_unprivileged(2, do_open, &req);
	r2 = run_unprivileged(-1, do_open, &req);
	/* CAP_PERFMON overrides the ptrace check. */
	r3 = run_with_caps(2, CAPBIT(CAP_PERFMON), do_open, &req);
	reap(target);
	EXPECT_EQ(EACCES, r1);
	EXPECT_EQ(EACCES, r2);
	EXPECT_EQ(0, r3);
}

TEST(perm_same_uid_dumpable_task_allowed)
{
	struct open_req req;
	pid_t target = spawn_target(UNPRIV_UID, 1);
	int r1, r2;

	ASSERT_GT(target, 0);
	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	req.pid = target;
	r1 = run_unprivileged(2, do_open, &req);
	/* Still only user-space counting at paranoid 2. */
	req.attr.exclude_kernel = 0;
	r2 = run_unprivileged(2, do_open, &req);
	reap(target);
	EXPECT_EQ(0, r1);
	EXPECT_EQ(EACCES, r2);
}

TEST(perm_same_uid_setuid_changed_task_eacces)
{
	struct open_req req;
	pid_t target;
	int r1, r2;

	/* With fs.suid_dumpable=0 (the default) a uid change clears dumpable. */
	ASSERT_EQ(0, read_long("/proc/sys/fs/suid_dumpable"));
	target = spawn_target(UNPRIV_UID, -1);
	ASSERT_GT(target, 0);
	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	req.pid = target;
	r1 = run_unprivileged(2, do_open, &req);
	r2 = run_unprivileged(-1, do_open, &req);
	reap(target);
	/*
	 * The uid matches, but a task that changed credentials is not
	 * dumpable, and ptrace access needs CAP_SYS_PTRACE for that.
	 */
	EXPECT_EQ(EACCES, r1);
	EXPECT_EQ(EACCES, r2);
}

TEST(perm_self_allowed_even_when_not_dumpable)
{
	struct open_req req;

	req_user(&req, PERF_COUNT_SW_TASK_CLOCK);
	EXPECT_EQ(0, run_unprivileged(2, open_self_by_pid, &req));
}

/* ---- the sysctl itself ------------------------------------------------ */

static int write_paranoid(void *arg)
{
	int fd = open(PARANOID_PATH, O_WRONLY);

	if (fd < 0)
		return errno;
	if (write(fd, "-1", 2) < 0) {
		close(fd);
		return errno;
	}
	close(fd);
	return 0;
}

static int write_paranoid_unchanged(void *arg)
{
	int r = write_paranoid(arg);

	/* The value did not change either. */
	if (!r || read_long(PARANOID_PATH) != 1)
		return 201;
	return r;
}

static int read_paranoid(void *arg)
{
	return read_long(PARANOID_PATH) == 1 ? 0 : 1;
}

TEST(perm_paranoid_sysctl_write_unprivileged_fails)
{
	/* run_unprivileged() sets 1 and restores it afterwards. */
	EXPECT_EQ(EACCES, run_unprivileged(1, write_paranoid_unchanged, NULL));
	/* Capabilities for perf do not make the file writable. */
	EXPECT_EQ(EACCES, run_with_caps(1, CAPBIT(CAP_PERFMON), write_paranoid, NULL));
	/* Reading is fine. */
	EXPECT_EQ(0, run_unprivileged(1, read_paranoid, NULL));
}

TEST_HARNESS_MAIN
