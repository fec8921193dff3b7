// SPDX-License-Identifier: GPL-2.0
/*
 * The perf_events sysfs and sysctl ABI:
 *
 *  /sys/bus/event_source/devices/<pmu>/
 *	type				every PMU; software=1, tracepoint=2,
 *					breakpoint=5; the rest are dynamic
 *					(>= PERF_TYPE_MAX)
 *	perf_event_mux_interval_ms	every PMU; >= 1, writable
 *	cpumask				only PMUs with a scope (none here)
 *	format/				kprobe, uprobe: retprobe
 *					(+ uprobe ref_ctr_offset); the arm64
 *					core PMU: event=config:0-15
 *	cpus, events/			the arm64 core PMU (arm_pmu)
 *
 *  /proc/sys/kernel/perf_*		the six sysctls, with the ranges their
 *					handlers enforce (kernel/sysctl.c,
 *					kernel/events/{core,callchain}.c)
 *
 * Everything that is changed is restored in a fixture teardown, which
 * runs even when an assertion fails.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include <dirent.h>

#define SYSCTL(name) "/proc/sys/kernel/" name

/* Write s to path; 0 or the errno of the failing write/open. */
static int write_errno(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n;
	int err;

	if (fd < 0)
		return errno;
	n = write(fd, s, strlen(s));
	err = n < 0 ? errno : (n == (ssize_t)strlen(s) ? 0 : EIO);
	close(fd);
	return err;
}

static int write_long_errno(const char *path, long v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", v);
	return write_errno(path, buf);
}

static int pmu_file(const char *pmu, const char *file, char *buf, size_t len)
{
	char path[512];
	int n;

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/%s", pmu, file);
	n = read_file(path, buf, len);
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return n;
}

static int pmu_has(const char *pmu, const char *file)
{
	char path[512];

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/%s", pmu, file);
	return access(path, F_OK) == 0;
}

/*
 * The name of the CPU's core PMU directory, or NULL: "cpu" on x86,
 * "armv8_pmuv3..." on arm64 (the exact suffix depends on how the PMU was
 * probed, so match the prefix).
 */
static const char *core_pmu(char *buf, size_t len)
{
	struct dirent *de;
	DIR *d = opendir(EVENT_SOURCE);
	const char *ret = NULL;

	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, "cpu") || !strncmp(de->d_name, "armv8_", 6)) {
			snprintf(buf, len, "%.100s", de->d_name);
			ret = buf;
			break;
		}
	}
	closedir(d);
	return ret;
}

static void expect_fixed_type(struct __test_metadata *_metadata,
			      const char *pmu, int type)
{
	char buf[64];

	ASSERT_GT(pmu_file(pmu, "type", buf, sizeof(buf)), 0)
		TH_LOG("%s/%s/type missing", EVENT_SOURCE, pmu);
	EXPECT_EQ(type, atoi(buf));
	EXPECT_EQ(type, pmu_type(pmu));
	EXPECT_FALSE(pmu_has(pmu, "cpumask"));
}

TEST(sysfs_fixed_pmu_types)
{
	expect_fixed_type(_metadata, "software", PERF_TYPE_SOFTWARE);
	expect_fixed_type(_metadata, "tracepoint", PERF_TYPE_TRACEPOINT);
	expect_fixed_type(_metadata, "breakpoint", PERF_TYPE_BREAKPOINT);
}

/* kprobe and uprobe register with dynamic types and describe retprobe. */
TEST(sysfs_kprobe_uprobe_dynamic_types_and_format)
{
	char buf[64];
	int k = pmu_type("kprobe"), u = pmu_type("uprobe");

	EXPECT_GE(k, PERF_TYPE_MAX);
	EXPECT_GE(u, PERF_TYPE_MAX);
	EXPECT_NE(k, u);
	ASSERT_GT(pmu_file("kprobe", "format/retprobe", buf, sizeof(buf)), 0);
	EXPECT_STREQ("config:0", buf);
	ASSERT_GT(pmu_file("uprobe", "format/retprobe", buf, sizeof(buf)), 0);
	EXPECT_STREQ("config:0", buf);
	ASSERT_GT(pmu_file("uprobe", "format/ref_ctr_offset", buf, sizeof(buf)), 0);
	EXPECT_STREQ("config:32-63", buf);
	EXPECT_FALSE(pmu_has("kprobe", "cpumask"));
	EXPECT_FALSE(pmu_has("uprobe", "cpumask"));
}

/*
 * Every PMU directory has a type (unique among PMUs) and a
 * perf_event_mux_interval_ms of at least 1; the dynamic types are at or
 * above PERF_TYPE_MAX.
 */
/*
 * The PMUs whose type is fixed by the ABI: software, tracepoint and
 * breakpoint, and x86's core PMU "cpu", which registers as
 * PERF_TYPE_RAW (arm64's core PMUs get dynamic types, as every other
 * PMU does).  -1 for a dynamic one.
 */
static int fixed_type(const char *pmu)
{
	if (!strcmp(pmu, "software"))
		return PERF_TYPE_SOFTWARE;
	if (!strcmp(pmu, "tracepoint"))
		return PERF_TYPE_TRACEPOINT;
	if (!strcmp(pmu, "breakpoint"))
		return PERF_TYPE_BREAKPOINT;
#if defined(__x86_64__)
	if (!strcmp(pmu, "cpu"))
		return PERF_TYPE_RAW;
#endif
	return -1;
}

TEST(sysfs_every_pmu_has_unique_type_and_mux_interval)
{
	int types[64], n = 0, i;
	struct dirent *de;
	char buf[64];
	DIR *d = opendir(EVENT_SOURCE);

	ASSERT_NE(NULL, d);
	while ((de = readdir(d))) {
		int t;

		if (de->d_name[0] == '.')
			continue;
		ASSERT_GT(pmu_file(de->d_name, "type", buf, sizeof(buf)), 0)
			TH_LOG("%s has no type", de->d_name);
		t = atoi(buf);
		if (fixed_type(de->d_name) >= 0) {
			EXPECT_EQ(fixed_type(de->d_name), t)
				TH_LOG("%s type %d", de->d_name, t);
		} else {
			EXPECT_GE(t, PERF_TYPE_MAX) TH_LOG("%s type %d", de->d_name, t);
		}
		for (i = 0; i < n; i++) {
			EXPECT_NE(types[i], t) TH_LOG("%s reuses type %d", de->d_name, t);
		}
		if (n < 64)
			types[n++] = t;
		ASSERT_GT(pmu_file(de->d_name, "perf_event_mux_interval_ms", buf, sizeof(buf)), 0)
			TH_LOG("%s has no perf_event_mux_interval_ms", de->d_name);
		EXPECT_GE(atoi(buf), 1);
	}
	closedir(d);
	EXPECT_GE(n, 5);
}

/*
 * perf_event_mux_interval_ms: writable, >= 1, integers only.
 *
 * The tests that change global state use no ASSERT between the change
 * and the restore (EXPECT only), so the restore always runs.  (TEST_F
 * teardowns are not used: in the harness's fixture wrapper the forked
 * child's pid variable may be clobbered by the ASSERT longjmp on arm64,
 * gcc warns so, and then the teardown would be skipped.)
 */
TEST(sysfs_mux_interval_write)
{
	const char *path = EVENT_SOURCE "/software/perf_event_mux_interval_ms";
	const char *tp = EVENT_SOURCE "/tracepoint/perf_event_mux_interval_ms";
	long saved = read_long(path), saved_tp = read_long(tp);
	long other = saved == 7 ? 9 : 7;

	ASSERT_GE(saved, 1);
	ASSERT_GE(saved_tp, 1);
	EXPECT_EQ(0, write_long_errno(path, other));
	EXPECT_EQ(other, read_long(path));
	/* The same value again is accepted. */
	EXPECT_EQ(0, write_long_errno(path, other));
	EXPECT_EQ(EINVAL, write_errno(path, "0"));
	EXPECT_EQ(EINVAL, write_errno(path, "-5"));
	EXPECT_EQ(EINVAL, write_errno(path, "abc"));
	EXPECT_EQ(other, read_long(path));
	/* Each PMU has its own interval. */
	EXPECT_EQ(saved_tp, read_long(tp));
	EXPECT_EQ(0, write_long_errno(path, saved));
	write_long(path, saved);
	ASSERT_EQ(saved, read_long(path));
}

/*
 * The CPU's core PMU, where there is one: a dynamic type through which
 * its events open, and (arm_pmu) a cpus file listing the CPUs it covers.
 * x86_64 under TCG has no core PMU at all.
 */
TEST(sysfs_core_pmu)
{
	char name[128], buf[256], online[64], path[300];
	struct perf_event_attr attr;
	unsigned int ev;
	const char *pmu = core_pmu(name, sizeof(name));
	__u64 v = 0;
	int type, fd;

	if (!have_hw_pmu()) {
		EXPECT_EQ(NULL, pmu);
		SKIP(return, "no hardware PMU (x86_64 TCG)");
	}
	ASSERT_NE(NULL, pmu) TH_LOG("hardware events open but no core PMU in sysfs");
	type = pmu_type(pmu);
	if (fixed_type(pmu) >= 0) {
		EXPECT_EQ(fixed_type(pmu), type);
	} else {
		EXPECT_GE(type, PERF_TYPE_MAX);
	}
	EXPECT_TRUE(pmu_has(pmu, "events"));
	EXPECT_TRUE(pmu_has(pmu, "format/event"));

	if (!strncmp(pmu, "armv8_", 6)) {
		ASSERT_GT(pmu_file(pmu, "format/event", buf, sizeof(buf)), 0);
		EXPECT_STREQ("config:0-15", buf);
		ASSERT_GT(pmu_file(pmu, "cpus", buf, sizeof(buf)), 0);
		ASSERT_GT(read_file("/sys/devices/system/cpu/online", online, sizeof(online)), 0);
		online[strcspn(online, "\n")] = '\0';
		EXPECT_STREQ(online, buf);
		EXPECT_FALSE(pmu_has(pmu, "cpumask"));
		snprintf(path, sizeof(path), "events/inst_retired");
	} else {
		snprintf(path, sizeof(path), "events/instructions");
	}

	/* Open the instructions event through the PMU's own type. */
	ASSERT_GT(pmu_file(pmu, path, buf, sizeof(buf)), 0);
	ASSERT_EQ(1, sscanf(buf, "event=%x", &ev)) TH_LOG("%s: '%s'", path, buf);
	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.size = sizeof(attr);
	attr.config = ev;
	attr.exclude_kernel = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("open type %d config %#x: %s", type, ev, strerror(errno));
	burn_cpu_ns(1000000);
	ASSERT_EQ(0, read_count(fd, &v));
	EXPECT_GT(v, 0);
	close(fd);
}

/* ---- sysctls ---- */

static const char *const sysctls[] = {
	"perf_event_paranoid", "perf_event_max_sample_rate",
	"perf_event_mlock_kb", "perf_event_max_stack",
	"perf_event_max_contexts_per_stack", "perf_cpu_time_max_percent",
};
#define NSYSCTL (sizeof(sysctls) / sizeof(sysctls[0]))

static void sysctl_path(char *buf, size_t len, int i)
{
	snprintf(buf, len, "/proc/sys/kernel/%s", sysctls[i]);
}

TEST(sysfs_perf_sysctls_exist)
{
	char path[128];
	struct stat st;
	unsigned int i;

	for (i = 0; i < NSYSCTL; i++) {
		sysctl_path(path, sizeof(path), i);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s missing", path);
		EXPECT_EQ(0644, st.st_mode & 07777) TH_LOG("%s mode %o", path, st.st_mode);
		EXPECT_NE(LONG_MIN, read_long(path)) TH_LOG("%s unreadable", path);
	}
	EXPECT_GE(read_long(SYSCTL("perf_event_max_sample_rate")), 1);
	EXPECT_GE(read_long(SYSCTL("perf_cpu_time_max_percent")), 0);
	EXPECT_LE(read_long(SYSCTL("perf_cpu_time_max_percent")), 100);
	/* The defaults: PERF_MAX_STACK_DEPTH and PERF_MAX_CONTEXTS_PER_STACK. */
	EXPECT_EQ(127, read_long(SYSCTL("perf_event_max_stack")));
	EXPECT_EQ(8, read_long(SYSCTL("perf_event_max_contexts_per_stack")));
}

struct saved_sysctls {
	long v[NSYSCTL];
};

static int save_sysctls(struct saved_sysctls *s)
{
	char path[128];
	unsigned int i;

	for (i = 0; i < NSYSCTL; i++) {
		sysctl_path(path, sizeof(path), i);
		s->v[i] = read_long(path);
		if (s->v[i] == LONG_MIN)
			return -1;
	}
	return 0;
}

/* Restore all; returns how many still differ afterwards. */
static int restore_sysctls(const struct saved_sysctls *s)
{
	char path[128];
	int i, bad = 0;

	/*
	 * perf_cpu_time_max_percent (last) first: max_sample_rate cannot be
	 * written while it is 0 or 100.
	 */
	for (i = NSYSCTL - 1; i >= 0; i--) {
		sysctl_path(path, sizeof(path), i);
		if (read_long(path) != s->v[i])
			write_long(path, s->v[i]);
		bad += read_long(path) != s->v[i];
	}
	return bad;
}

/* Body of a test that changes sysctls: save, run (EXPECTs only), restore. */
#define SYSCTL_TEST(name)						\
	static void name##_body(struct __test_metadata *_metadata,	\
				const struct saved_sysctls *saved);	\
	TEST(name)							\
	{								\
		struct saved_sysctls saved;				\
									\
		ASSERT_EQ(0, save_sysctls(&saved));			\
		name##_body(_metadata, &saved);				\
		ASSERT_EQ(0, restore_sysctls(&saved));			\
	}								\
	static void name##_body(struct __test_metadata *_metadata,	\
				const struct saved_sysctls *saved)

/* paranoid and mlock_kb take any integer; non-numbers are EINVAL. */
SYSCTL_TEST(sysfs_sysctl_plain_ints)
{
	const char *p = SYSCTL("perf_event_paranoid");
	const char *m = SYSCTL("perf_event_mlock_kb");

	EXPECT_EQ(0, write_long_errno(p, -1));
	EXPECT_EQ(-1, read_long(p));
	EXPECT_EQ(0, write_long_errno(p, 4));
	EXPECT_EQ(4, read_long(p));
	EXPECT_EQ(EINVAL, write_errno(p, "abc"));
	EXPECT_EQ(4, read_long(p));
	EXPECT_EQ(0, write_long_errno(p, saved->v[0]));

	EXPECT_EQ(0, write_long_errno(m, 1024));
	EXPECT_EQ(1024, read_long(m));
	EXPECT_EQ(EINVAL, write_errno(m, "x1"));
	EXPECT_EQ(1024, read_long(m));
}

SYSCTL_TEST(sysfs_sysctl_max_sample_rate)
{
	const char *r = SYSCTL("perf_event_max_sample_rate");
	const char *c = SYSCTL("perf_cpu_time_max_percent");

	EXPECT_EQ(EINVAL, write_errno(r, "0"));
	EXPECT_EQ(EINVAL, write_errno(r, "-1"));
	EXPECT_EQ(0, write_long_errno(r, 1000));
	EXPECT_EQ(1000, read_long(r));
	EXPECT_EQ(0, write_long_errno(r, 1));
	EXPECT_EQ(1, read_long(r));

	/* With throttling off (0 or 100 %) the rate cannot be written. */
	EXPECT_EQ(0, write_long_errno(c, 100));
	EXPECT_EQ(EINVAL, write_errno(r, "2000"));
	EXPECT_EQ(0, write_long_errno(c, 0));
	EXPECT_EQ(EINVAL, write_errno(r, "2000"));
	EXPECT_EQ(1, read_long(r));
	EXPECT_EQ(0, write_long_errno(c, 50));
	EXPECT_EQ(0, write_long_errno(r, 2000));
	EXPECT_EQ(2000, read_long(r));
}

SYSCTL_TEST(sysfs_sysctl_cpu_time_max_percent_range)
{
	const char *c = SYSCTL("perf_cpu_time_max_percent");

	EXPECT_EQ(EINVAL, write_errno(c, "101"));
	EXPECT_EQ(EINVAL, write_errno(c, "-1"));
	EXPECT_EQ(saved->v[5], read_long(c));
	EXPECT_EQ(0, write_long_errno(c, 100));
	EXPECT_EQ(100, read_long(c));
	EXPECT_EQ(0, write_long_errno(c, 0));
	EXPECT_EQ(0, read_long(c));
	EXPECT_EQ(0, write_long_errno(c, 33));
	EXPECT_EQ(33, read_long(c));
}

/*
 * max_stack is 0..655360 and max_contexts_per_stack 0..1000; neither can
 * change while an event that records callchains exists (EBUSY).
 */
SYSCTL_TEST(sysfs_sysctl_max_stack_ranges_and_busy)
{
	const char *s = SYSCTL("perf_event_max_stack");
	const char *x = SYSCTL("perf_event_max_contexts_per_stack");
	struct perf_event_attr attr;
	int fd, err, i;

	EXPECT_EQ(EINVAL, write_errno(s, "655361"));
	EXPECT_EQ(EINVAL, write_errno(s, "-1"));
	EXPECT_EQ(0, write_long_errno(s, 655360));
	EXPECT_EQ(655360, read_long(s));
	EXPECT_EQ(0, write_long_errno(s, 0));
	EXPECT_EQ(0, read_long(s));
	EXPECT_EQ(0, write_long_errno(s, 64));

	EXPECT_EQ(EINVAL, write_errno(x, "1001"));
	EXPECT_EQ(EINVAL, write_errno(x, "-1"));
	EXPECT_EQ(0, write_long_errno(x, 1000));
	EXPECT_EQ(1000, read_long(x));
	EXPECT_EQ(0, write_long_errno(x, 4));

	attr_sw(&attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_GE(fd, 0);
	if (fd < 0)
		return;
	EXPECT_EQ(EBUSY, write_errno(s, "100"));
	EXPECT_EQ(EBUSY, write_errno(x, "6"));
	EXPECT_EQ(64, read_long(s));
	EXPECT_EQ(4, read_long(x));
	close(fd);
	/* Freed with the last reference; allow for it to be deferred. */
	for (i = 0; i < 50; i++) {
		err = write_errno(s, "100");
		if (err != EBUSY)
			break;
		usleep(20000);
	}
	EXPECT_EQ(0, err);
	EXPECT_EQ(100, read_long(s));
}

TEST_HARNESS_MAIN
