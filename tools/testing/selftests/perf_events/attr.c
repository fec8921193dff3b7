// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): copying and validating perf_event_attr, the flags
 * argument, pid/cpu/group_fd combinations, and the documented errnos.
 *
 * Every expectation here was checked against kernel/events/core.c of
 * 6.12 (perf_copy_attr(), perf_event_alloc(), sys_perf_event_open()).
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <stddef.h>
#include <sys/resource.h>

#define MAX_RATE_PATH	"/proc/sys/kernel/perf_event_max_sample_rate"
#define MAX_STACK_PATH	"/proc/sys/kernel/perf_event_max_stack"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

/* Open and, on success, close again: 0 if it opened, -errno if not. */
static int try_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags)
{
	int fd = sys_perf_event_open(attr, pid, cpu, group_fd, flags);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* A task-clock/page-faults style sw attr that is otherwise all default. */
static void sw_attr(struct perf_event_attr *attr)
{
	attr_sw(attr, PERF_COUNT_SW_DUMMY);
}

/* Number of possible CPUs, i.e. the kernel's nr_cpu_ids. */
static int nr_possible_cpus(void)
{
	char buf[64], *p;
	int last = 0;

	if (read_file("/sys/devices/system/cpu/possible", buf, sizeof(buf)) < 0)
		return (int)sysconf(_SC_NPROCESSORS_CONF);
	/* "0-1" or "0": the last number is the highest id */
	p = strrchr(buf, '-');
	p = p ? p + 1 : buf;
	last = atoi(p);
	return last + 1;
}

/* write(2) a string to a /proc file; 0 or -errno. */
static int write_errno(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static pid_t fork_sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static void reap(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* ---- attr.size ---------------------------------------------------- */

TEST(attr_size_zero_means_ver0)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr);
	attr.size = 0;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	/* Success leaves the caller's size field alone. */
	EXPECT_EQ(0, attr.size);
	close(fd);
}

TEST(attr_size_each_published_version_accepted)
{
	static const __u32 sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7, PERF_ATTR_SIZE_VER8,
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		sw_attr(&attr);
		attr.size = sizes[i];
		EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0))
			TH_LOG("size %u", sizes[i]);
	}
	/* A size in between versions is fine too: only the bytes count. */
	sw_attr(&attr);
	attr.size = PERF_ATTR_SIZE_VER0 + 4;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_size_below_ver0_e2big_writes_back_size)
{
	static const __u32 sizes[] = { 1, 8, 32, PERF_ATTR_SIZE_VER0 - 1 };
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		sw_attr(&attr);
		attr.size = sizes[i];
		EXPECT_EQ(-E2BIG, try_open(&attr, 0, -1, -1, 0))
			TH_LOG("size %u", sizes[i]);
		/* The kernel tells us the size it understands. */
		EXPECT_EQ(sizeof(struct perf_event_attr), attr.size);
	}
}

TEST(attr_size_larger_nonzero_tail_e2big_writes_back_size)
{
	char buf[512] __attribute__((aligned(8)));
	struct perf_event_attr *attr = (void *)buf;

	memset(buf, 0, sizeof(buf));
	sw_attr(attr);
	attr->size = sizeof(buf);
	buf[sizeof(buf) - 1] = 1;
	EXPECT_EQ(-E2BIG, try_open(attr, 0, -1, -1, 0));
	EXPECT_EQ(sizeof(struct perf_event_attr), attr->size);

	/* The first byte past the known struct counts too. */
	memset(buf, 0, sizeof(buf));
	sw_attr(attr);
	attr->size = sizeof(struct perf_event_attr) + 8;
	buf[sizeof(struct perf_event_attr)] = 0x80;
	EXPECT_EQ(-E2BIG, try_open(attr, 0, -1, -1, 0));
	EXPECT_EQ(sizeof(struct perf_event_attr), attr->size);
}

TEST(attr_size_larger_zero_tail_accepted_up_to_page_size)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = calloc(1, 2 * page);
	struct perf_event_attr *attr = (void *)buf;

	ASSERT_NE(NULL, buf);
	sw_attr(attr);
	attr->size = sizeof(struct perf_event_attr) + 64;
	EXPECT_EQ(0, try_open(attr, 0, -1, -1, 0));

	sw_attr(attr);
	attr->size = page;
	EXPECT_EQ(0, try_open(attr, 0, -1, -1, 0));

	/* More than a page is refused even if all zero. */
	sw_attr(attr);
	attr->size = page + 8;
	EXPECT_EQ(-E2BIG, try_open(attr, 0, -1, -1, 0));
	EXPECT_EQ(sizeof(struct perf_event_attr), attr->size);
	free(buf);
}

TEST(attr_bad_pointer_efault)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr *attr;
	char *map;

	EXPECT_EQ(-EFAULT, try_open(NULL, 0, -1, -1, 0));
	EXPECT_EQ(-EFAULT, try_open((void *)8, 0, -1, -1, 0));

	/*
	 * The size field is readable but the struct runs into an
	 * inaccessible page: the copy itself faults.
	 */
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));
	attr = (void *)(map + page - 16);
	memset(attr, 0, 16);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->size = sizeof(*attr);
	EXPECT_EQ(-EFAULT, try_open(attr, 0, -1, -1, 0));
	munmap(map, 2 * page);
}

/* ---- reserved and unknown fields --------------------------------- */

TEST(attr_reserved_fields_einval)
{
	struct perf_event_attr attr;
	__u64 *flags;

	/* The bitfield word: the bits after sigtrap are __reserved_1. */
	sw_attr(&attr);
	ASSERT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	flags = (__u64 *)((char *)&attr + offsetof(struct perf_event_attr, read_format) +
			  sizeof(__u64));
	*flags |= 1ULL << 63;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	sw_attr(&attr);
	attr.__reserved_1 = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));

	sw_attr(&attr);
	attr.__reserved_2 = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));

	sw_attr(&attr);
	attr.__reserved_3 = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	sw_attr(&attr);
	attr.aux_action = 1U << 31;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_unknown_sample_type_read_format_einval)
{
	struct perf_event_attr attr;

	sw_attr(&attr);
	attr.sample_type = 1ULL << 63;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));

	sw_attr(&attr);
	attr.read_format = 1ULL << 63;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));

	/* WEIGHT and WEIGHT_STRUCT are mutually exclusive. */
	sw_attr(&attr);
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));

	/* Either one alone is fine on a software event. */
	attr.sample_type = PERF_SAMPLE_WEIGHT;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	attr.sample_type = PERF_SAMPLE_WEIGHT_STRUCT;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));

	/* A user stack dump size must be 8-byte aligned and < 64k. */
	sw_attr(&attr);
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_STACK_USER;
	attr.sample_stack_user = 12;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.sample_stack_user = 65535;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.sample_stack_user = 1024;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_unknown_type_and_sw_config_enoent)
{
	struct perf_event_attr attr;

	sw_attr(&attr);
	attr.type = 0x7fff0000;
	EXPECT_EQ(-ENOENT, try_open(&attr, 0, -1, -1, 0));

	sw_attr(&attr);
	attr.config = 1000;
	EXPECT_EQ(-ENOENT, try_open(&attr, 0, -1, -1, 0));
	attr.config = ~0ULL;
	EXPECT_EQ(-ENOENT, try_open(&attr, 0, -1, -1, 0));

	/* Every defined software counter opens. */
	for (attr.config = 0; attr.config <= PERF_COUNT_SW_CGROUP_SWITCHES; attr.config++)
		EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0))
			TH_LOG("sw config %llu", (unsigned long long)attr.config);
}

TEST(attr_hw_unknown_config_enoent)
{
	struct perf_event_attr attr;

	/*
	 * Generic hardware event 1000 does not exist.  With no hardware PMU
	 * (x86_64 under TCG) no PMU claims it: ENOENT.  The arm64 PMUv3
	 * driver claims PERF_TYPE_HARDWARE and rejects an id beyond
	 * PERF_COUNT_HW_MAX with EINVAL (armpmu_map_hw_event()).
	 */
	sw_attr(&attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = 1000;
#if defined(__aarch64__)
	ASSERT_TRUE(have_hw_pmu());
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
#else
	EXPECT_EQ(have_hw_pmu() ? -EINVAL : -ENOENT, try_open(&attr, 0, -1, -1, 0));
#endif

	/*
	 * The extended type in config's upper half names a PMU; the
	 * software PMU does not take generic hardware events.
	 */
	attr.config = ((__u64)PERF_TYPE_SOFTWARE << 32) | PERF_COUNT_HW_CPU_CYCLES;
	EXPECT_EQ(-ENOENT, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_period_freq_limits)
{
	struct perf_event_attr attr;

	/* Without freq the period must not have bit 63 set. */
	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1ULL << 63;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.sample_period = (1ULL << 63) - 1;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

FIXTURE(max_rate)
{
	long saved;
};

FIXTURE_SETUP(max_rate)
{
	self->saved = read_long(MAX_RATE_PATH);
	ASSERT_NE(LONG_MIN, self->saved);
	ASSERT_EQ(0, write_long(MAX_RATE_PATH, 1000));
}

FIXTURE_TEARDOWN(max_rate)
{
	write_long(MAX_RATE_PATH, self->saved);
}

TEST_F(max_rate, attr_freq_above_max_sample_rate_einval)
{
	struct perf_event_attr attr;

	ASSERT_EQ(1000, read_long(MAX_RATE_PATH));
	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.freq = 1;
	attr.sample_freq = 1001;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.sample_freq = 1000;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	attr.sample_freq = 1;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

/* ---- flags ---------------------------------------------------------- */

TEST(attr_flags_invalid_einval)
{
	struct perf_event_attr attr;

	sw_attr(&attr);
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 1UL << 4));
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 1UL << 31));
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, ~0UL));
	/* The flag check comes before the attr is even read. */
	EXPECT_EQ(-EINVAL, try_open(NULL, 0, -1, -1, 1UL << 4));

	/* PID_CGROUP needs both a cgroup fd and a cpu. */
	EXPECT_EQ(-EINVAL, try_open(&attr, -1, 0, -1, PERF_FLAG_PID_CGROUP));
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, PERF_FLAG_PID_CGROUP));
}

TEST(attr_flag_fd_cloexec)
{
	struct perf_event_attr attr;
	int fd;

	sw_attr(&attr);
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);

	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	/* The fd is opened read-write. */
	EXPECT_EQ(O_RDWR, fcntl(fd, F_GETFL) & O_ACCMODE);
	close(fd);
}

TEST(attr_flag_fd_no_group)
{
	struct perf_event_attr attr;
	__u64 buf[8];
	int leader, fd, other, pipefd[2];

	sw_attr(&attr);
	attr.read_format = PERF_FORMAT_GROUP;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);

	fd = sys_perf_event_open(&attr, 0, -1, leader, PERF_FLAG_FD_NO_GROUP);
	ASSERT_GE(fd, 0);
	/* Neither joined the other's group. */
	ASSERT_EQ(2 * sizeof(__u64), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(1, buf[0]);
	ASSERT_EQ(2 * sizeof(__u64), read(fd, buf, sizeof(buf)));
	EXPECT_EQ(1, buf[0]);

	/* Without the flag it does join. */
	other = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(other, 0);
	ASSERT_EQ(3 * sizeof(__u64), read(leader, buf, sizeof(buf)));
	EXPECT_EQ(2, buf[0]);

	/* group_fd is still looked up and must be a perf fd. */
	ASSERT_EQ(0, pipe(pipefd));
	EXPECT_EQ(-EBADF, try_open(&attr, 0, -1, pipefd[0], PERF_FLAG_FD_NO_GROUP));
	close(pipefd[0]);
	close(pipefd[1]);
	close(other);
	close(fd);
	close(leader);
}

TEST(attr_flag_fd_output)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pc;
	struct perf_event_header *hdr;
	int leader, fd, i, ret;
	pid_t child;
	char *touch;
	void *rb;

	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.exclude_kernel = 1;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);

	/* The output target needs a buffer to redirect into. */
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader,
				    PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP));

	rb = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_SHARED, leader, 0);
	ASSERT_NE(MAP_FAILED, rb);
	pc = rb;

	attr.disabled = 0;
	fd = sys_perf_event_open(&attr, 0, -1, leader,
				 PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);
	ASSERT_GE(fd, 0);
	touch = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, touch);
	for (i = 0; i < 4; i++)
		touch[i * page] = 1;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	/* The samples of the new event landed in the leader's buffer. */
	EXPECT_GT(pc->data_head, 0);
	hdr = (void *)((char *)rb + page);
	EXPECT_EQ(PERF_RECORD_SAMPLE, hdr->type);

	/* A different target task cannot share a per-task buffer. */
	child = fork_sleeper();
	ASSERT_GT(child, 0);
	ret = try_open(&attr, child, -1, leader,
		       PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP);
	reap(child);
	EXPECT_EQ(-EINVAL, ret);
	munmap(touch, 4 * page);
	close(fd);
	munmap(rb, 2 * page);
	close(leader);
}

/* ---- pid / cpu ------------------------------------------------------ */

TEST(attr_pid_cpu_combinations)
{
	struct perf_event_attr attr;
	int nr = nr_possible_cpus();

	sw_attr(&attr);
	/* Any task on any cpu is not a thing. */
	EXPECT_EQ(-EINVAL, try_open(&attr, -1, -1, -1, 0));
	/* A cpu beyond the possible ones. */
	EXPECT_EQ(-EINVAL, try_open(&attr, -1, nr, -1, 0));
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, nr, -1, 0));
	EXPECT_EQ(-EINVAL, try_open(&attr, -1, INT_MAX, -1, 0));
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -2, -1, 0));

	/* The valid shapes: this task anywhere, this task on one cpu, cpu-wide. */
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(0, try_open(&attr, getpid(), -1, -1, 0));
	EXPECT_EQ(0, try_open(&attr, 0, 0, -1, 0));
	EXPECT_EQ(0, try_open(&attr, -1, 0, -1, 0));
}

TEST(attr_pid_nonexistent_esrch)
{
	struct perf_event_attr attr;
	long pid_max = read_long("/proc/sys/kernel/pid_max");
	pid_t child;
	int status;

	sw_attr(&attr);
	ASSERT_GT(pid_max, 0);
	EXPECT_EQ(-ESRCH, try_open(&attr, (pid_t)pid_max + 1, -1, -1, 0));
	EXPECT_EQ(-ESRCH, try_open(&attr, INT_MAX, -1, -1, 0));
	EXPECT_EQ(-ESRCH, try_open(&attr, -2, -1, -1, 0));

	/* A child that has exited and been reaped is gone. */
	child = fork();
	if (child == 0)
		_exit(0);
	ASSERT_GT(child, 0);
	ASSERT_EQ(child, waitpid(child, &status, 0));
	EXPECT_EQ(-ESRCH, try_open(&attr, child, -1, -1, 0));
}

FIXTURE(cpu1_offline)
{
	int offlined;
};

FIXTURE_SETUP(cpu1_offline)
{
	self->offlined = 0;
	if (access("/sys/devices/system/cpu/cpu1", F_OK))
		SKIP(return, "no cpu1 (single CPU guest)");
	if (access(CPU1_ONLINE, W_OK))
		SKIP(return, "cpu1 cannot be hot-unplugged here");
	if (read_long(CPU1_ONLINE) != 1)
		SKIP(return, "cpu1 not online");
	ASSERT_EQ(0, write_file(CPU1_ONLINE, "0"));
	self->offlined = 1;
}

FIXTURE_TEARDOWN(cpu1_offline)
{
	if (self->offlined)
		write_file(CPU1_ONLINE, "1");
}

TEST_F(cpu1_offline, attr_cpu_offline_enodev)
{
	struct perf_event_attr attr;

	ASSERT_EQ(0, read_long(CPU1_ONLINE));
	sw_attr(&attr);
	/* A possible but offline cpu: cpu-wide events get ENODEV. */
	EXPECT_EQ(-ENODEV, try_open(&attr, -1, 1, -1, 0));
	/* cpu 0 is still fine. */
	EXPECT_EQ(0, try_open(&attr, -1, 0, -1, 0));
}

/* ---- group_fd --------------------------------------------------------- */

TEST(attr_group_fd_bad_ebadf)
{
	struct perf_event_attr attr;
	int pipefd[2], fd;

	sw_attr(&attr);
	/* A closed fd. */
	fd = open_sw(PERF_COUNT_SW_DUMMY, 1, -1);
	ASSERT_GE(fd, 0);
	close(fd);
	EXPECT_EQ(-EBADF, try_open(&attr, 0, -1, fd, 0));
	EXPECT_EQ(-EBADF, try_open(&attr, 0, -1, 100000, 0));
	EXPECT_EQ(-EBADF, try_open(&attr, 0, -1, -2, 0));

	/* An open fd that is not a perf event. */
	ASSERT_EQ(0, pipe(pipefd));
	EXPECT_EQ(-EBADF, try_open(&attr, 0, -1, pipefd[0], 0));
	fd = open("/proc/self/stat", O_RDONLY);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(-EBADF, try_open(&attr, 0, -1, fd, 0));
	close(fd);
	close(pipefd[0]);
	close(pipefd[1]);
}

TEST(attr_group_leader_context_mismatch_einval)
{
	struct perf_event_attr attr;
	pid_t child;
	int leader, ret;

	/* Leader on another task, sibling on this one. */
	child = fork_sleeper();
	ASSERT_GT(child, 0);
	sw_attr(&attr);
	leader = sys_perf_event_open(&attr, child, -1, -1, 0);
	if (leader < 0) {
		reap(child);
		ASSERT_GE(leader, 0);
	}
	ret = try_open(&attr, 0, -1, leader, 0);
	/* The same task as the leader works. */
	EXPECT_EQ(0, try_open(&attr, child, -1, leader, 0));
	close(leader);
	reap(child);
	EXPECT_EQ(-EINVAL, ret);

	/* Leader cpu-wide on cpu 0, sibling on cpu 1 or on a task. */
	leader = sys_perf_event_open(&attr, -1, 0, -1, 0);
	ASSERT_GE(leader, 0);
	if (nr_possible_cpus() > 1 && read_long(CPU1_ONLINE) != 0)
		EXPECT_EQ(-EINVAL, try_open(&attr, -1, 1, leader, 0));
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader, 0));
	EXPECT_EQ(0, try_open(&attr, -1, 0, leader, 0));
	close(leader);

	/* Task leader on any cpu, sibling on the task but one cpu. */
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, 0, leader, 0));
	close(leader);
}

TEST(attr_group_sibling_as_group_fd_einval)
{
	struct perf_event_attr attr;
	int leader, sib;

	sw_attr(&attr);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	sib = sys_perf_event_open(&attr, 0, -1, leader, 0);
	ASSERT_GE(sib, 0);
	/* No nested groups. */
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, sib, 0));
	close(sib);
	close(leader);
}

TEST(attr_group_pinned_exclusive_only_on_leader)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr(&attr);
	attr.pinned = 1;
	attr.exclusive = 1;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);

	sw_attr(&attr);
	attr.pinned = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader, 0));
	sw_attr(&attr);
	attr.exclusive = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader, 0));
	sw_attr(&attr);
	EXPECT_EQ(0, try_open(&attr, 0, -1, leader, 0));
	close(leader);
}

TEST(attr_group_inherit_must_match_leader)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr(&attr);
	attr.inherit = 1;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	sw_attr(&attr);
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader, 0));
	attr.inherit = 1;
	EXPECT_EQ(0, try_open(&attr, 0, -1, leader, 0));
	close(leader);

	sw_attr(&attr);
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	attr.inherit = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader, 0));
	close(leader);
}

TEST(attr_group_clock_must_match_leader)
{
	struct perf_event_attr attr;
	int leader;

	sw_attr(&attr);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(leader, 0);
	attr.clockid = CLOCK_MONOTONIC_RAW;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader, 0));
	attr.use_clockid = 0;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, leader, 0));
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	EXPECT_EQ(0, try_open(&attr, 0, -1, leader, 0));
	close(leader);

	/* An unknown clock id. */
	attr.clockid = 12345;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_group_read_size_limit_e2big)
{
	/* group read of value+id+lost per event plus nr/enabled/running */
	const __u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
			  PERF_FORMAT_TOTAL_TIME_ENABLED |
			  PERF_FORMAT_TOTAL_TIME_RUNNING;
	const int max_events = (16 * 1024 - 3 * 8) / (3 * 8);	/* 681 */
	struct perf_event_attr attr;
	struct rlimit rl = { max_events + 64, max_events + 64 };
	int *fds, i, n = 0, ret = 0;

	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	fds = calloc(max_events, sizeof(int));
	ASSERT_NE(NULL, fds);
	sw_attr(&attr);
	attr.read_format = fmt;
	for (i = 0; i < max_events; i++) {
		fds[i] = sys_perf_event_open(&attr, 0, -1, i ? fds[0] : -1, 0);
		if (fds[i] < 0) {
			ret = -errno;
			break;
		}
		n++;
	}
	if (n == max_events)
		ret = try_open(&attr, 0, -1, fds[0], 0);
	for (i = 0; i < n; i++)
		close(fds[i]);
	free(fds);
	EXPECT_EQ(max_events, n);
	/* One more event would make a group read exceed 16 KiB. */
	EXPECT_EQ(-E2BIG, ret);
}

/* ---- inherit, exec and signal related bits ---------------------------- */

TEST(attr_inherit_sample_read_needs_tid)
{
	struct perf_event_attr attr;

	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1000;
	attr.inherit = 1;
	attr.sample_type = PERF_SAMPLE_READ;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	attr.read_format = 0;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	/* Without inherit SAMPLE_READ needs nothing else. */
	attr.inherit = 0;
	attr.sample_type = PERF_SAMPLE_READ;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	/* Inherited group reads are fine when not sampling them. */
	sw_attr(&attr);
	attr.inherit = 1;
	attr.read_format = PERF_FORMAT_GROUP;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_exec_and_thread_bits)
{
	struct perf_event_attr attr;

	/* inherit_thread only refines inherit. */
	sw_attr(&attr);
	attr.inherit_thread = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.inherit = 1;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));

	/* Removing and enabling on the same exec contradict. */
	sw_attr(&attr);
	attr.remove_on_exec = 1;
	attr.enable_on_exec = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.enable_on_exec = 0;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	attr.remove_on_exec = 0;
	attr.enable_on_exec = 1;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_sigtrap_requires_remove_on_exec_and_task)
{
	struct perf_event_attr attr;

	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1000;
	attr.sigtrap = 1;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.remove_on_exec = 1;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	attr.sig_data = 0xdeadbeef;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	/* A cpu-wide event has no task to signal. */
	EXPECT_EQ(-EINVAL, try_open(&attr, -1, 0, -1, 0));
}

/* ---- features a software event does not have -------------------------- */

TEST(attr_sw_event_unsupported_features)
{
	static const __u64 sw_cfgs[] = {
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_CPU_CLOCK,
		PERF_COUNT_SW_TASK_CLOCK,
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < sizeof(sw_cfgs) / sizeof(sw_cfgs[0]); i++) {
		/* No branch stacks from software events. */
		sw_attr(&attr);
		attr.config = sw_cfgs[i];
		attr.sample_period = 1000;
		attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		EXPECT_EQ(-EOPNOTSUPP, try_open(&attr, 0, -1, -1, 0))
			TH_LOG("config %llu", (unsigned long long)sw_cfgs[i]);

		/* No AUX area. */
		sw_attr(&attr);
		attr.config = sw_cfgs[i];
		attr.aux_output = 1;
		EXPECT_EQ(-EOPNOTSUPP, try_open(&attr, 0, -1, -1, 0));
		attr.aux_output = 0;
		attr.aux_start_paused = 1;
		EXPECT_EQ(-EOPNOTSUPP, try_open(&attr, 0, -1, -1, 0));
		/* pause and resume at once is contradictory on any PMU. */
		attr.aux_start_paused = 0;
		attr.aux_pause = 1;
		attr.aux_resume = 1;
		EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
		/*
		 * Alone they need a group leader on an AUX PMU that can
		 * pause: with none it is EINVAL.
		 */
		attr.aux_resume = 0;
		EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
		attr.aux_pause = 0;
		attr.aux_resume = 1;
		EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));

		/* Software events ignore precise_ip. */
		sw_attr(&attr);
		attr.config = sw_cfgs[i];
		attr.sample_period = 1000;
		attr.precise_ip = 3;
		EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	}
}

TEST(attr_branch_sample_type_validation_einval)
{
	struct perf_event_attr attr;

	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	/* Only privilege-level bits: no branch type selected. */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	attr.branch_sample_type = 0;
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	/* Undefined bits. */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | (1ULL << 63);
	EXPECT_EQ(-EINVAL, try_open(&attr, 0, -1, -1, 0));
	/* Without BRANCH_STACK the field is ignored. */
	attr.sample_type = PERF_SAMPLE_IP;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

/* ---- resource limits -------------------------------------------------- */

TEST(attr_emfile_at_rlimit_nofile)
{
	struct perf_event_attr attr;
	struct rlimit rl;
	int lowest, pipefd[2];

	ASSERT_EQ(0, pipe(pipefd));
	lowest = pipefd[0] < pipefd[1] ? pipefd[0] : pipefd[1];
	close(pipefd[0]);
	close(pipefd[1]);
	/* Every descriptor below the limit is in use. */
	rl.rlim_cur = lowest;
	rl.rlim_max = lowest + 16;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	sw_attr(&attr);
	EXPECT_EQ(-EMFILE, try_open(&attr, 0, -1, -1, 0));
	rl.rlim_cur = lowest + 1;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &rl));
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_sample_max_stack_eoverflow)
{
	long max = read_long(MAX_STACK_PATH);
	struct perf_event_attr attr;

	ASSERT_GT(max, 0);
	ASSERT_LT(max, 65535);
	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr.sample_max_stack = max + 1;
	EXPECT_EQ(-EOVERFLOW, try_open(&attr, 0, -1, -1, 0));
	attr.sample_max_stack = max;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	/* 0 means the sysctl's value. */
	attr.sample_max_stack = 0;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
	/* Without CALLCHAIN the field is not checked. */
	attr.sample_type = PERF_SAMPLE_IP;
	attr.sample_max_stack = 65535;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

TEST(attr_max_stack_sysctl_ebusy_while_callchain_events)
{
	long max = read_long(MAX_STACK_PATH);
	struct perf_event_attr attr;
	char val[32];
	int fd, ret;

	ASSERT_GT(max, 0);
	snprintf(val, sizeof(val), "%ld", max);
	sw_attr(&attr);
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	/* Writing (even the same value) is refused while buffers are in use. */
	ret = write_errno(MAX_STACK_PATH, val);
	close(fd);
	EXPECT_EQ(-EBUSY, ret);
	EXPECT_EQ(0, write_errno(MAX_STACK_PATH, val));
	EXPECT_EQ(max, read_long(MAX_STACK_PATH));
}

TEST(attr_hw_breakpoint_slots_enospc)
{
	static volatile __u64 vars[32] __attribute__((aligned(8)));
	struct perf_event_attr attr;
	int fds[32], n = 0, err = 0, i;

	for (i = 0; i < 32; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.type = PERF_TYPE_BREAKPOINT;
		attr.size = sizeof(attr);
		attr.bp_type = HW_BREAKPOINT_W;
		attr.bp_addr = (unsigned long)&vars[i];
		attr.bp_len = HW_BREAKPOINT_LEN_8;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		fds[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fds[i] < 0) {
			err = errno;
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++)
		close(fds[i]);
	if (n == 0 && (err == ENOENT || err == ENODEV || err == EOPNOTSUPP))
		SKIP(return, "no hardware breakpoint support (errno %d)", err);
	/* Running out of debug registers is ENOSPC. */
	EXPECT_EQ(ENOSPC, err);
#if defined(__x86_64__)
	EXPECT_EQ(4, n);
#else
	/* arm64: as many watchpoints as ID_AA64DFR0_EL1.WRPs says, 2..16 */
	EXPECT_GE(n, 2);
	EXPECT_LE(n, 16);
#endif
	TH_LOG("%d data breakpoint slots", n);

	/* After closing them all the slots are free again. */
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (unsigned long)&vars[0];
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.exclude_kernel = 1;
	EXPECT_EQ(0, try_open(&attr, 0, -1, -1, 0));
}

TEST_HARNESS_MAIN
