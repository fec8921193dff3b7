// SPDX-License-Identifier: GPL-2.0
/*
 * Arm's Statistical Profiling Extension through the arm_spe PMU, as
 * stock 6.12's driver (drivers/perf/arm_spe_pmu.c) presents it: its
 * sysfs description and the rules event_init holds an event to.
 *
 * The CPU the cases are written for is our QEMU's spe=on (harness/
 * boot.sh's spe model: SPEv1p1, PMSIDR with the event, type and latency
 * filters, an interval of architected instructions of at least 256,
 * 12-bit latency counters, records of up to 64 bytes).  Where the
 * device tree describes SPE (/spe-pmu) the PMU must be there; skipped
 * where it does not: on x86_64, and on arm64 machines without it.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#define SPE_DT_NODE	"/proc/device-tree/spe-pmu"
#define SPE_PERIOD	1024

/*
 * Skip where the machine has no SPE; where it has, the PMU must have
 * been registered (a probe that failed is a failure), and @name is it.
 */
#define SPE_REQUIRE(name) do {						\
	if (access(SPE_DT_NODE, F_OK))					\
		SKIP(return, "no SPE in the device tree");		\
	ASSERT_EQ(0, find_pmu_named("arm_spe_", name, sizeof(name)))	\
		TH_LOG("the device tree has %s, no arm_spe PMU",	\
		       SPE_DT_NODE);					\
} while (0)

/* @pmu's file @file equals @want (with its newline) */
static int spe_file_is(const char *pmu, const char *file, const char *want,
		       char *got, size_t len)
{
	char path[256];

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/%s", pmu, file);
	got[0] = 0;
	if (read_file(path, got, len) < 0)
		snprintf(got, len, "(%s)", strerror(errno));
	return !strcmp(got, want);
}

/*
 * caps/ from PMSIDR_EL1 (arch_inst, ernd, count_size, min_interval, the
 * interval encoding's smallest value), format/ as perf's arm_spe
 * support parses it; no inv_event_filter without PMSIDR.FnE (SPEv1p2).
 */
TEST(spe_sysfs)
{
	static const char *const files[][2] = {
		{ "caps/arch_inst", "1\n" },
		{ "caps/ernd", "0\n" },
		{ "caps/count_size", "12\n" },
		{ "caps/min_interval", "256\n" },
		{ "format/ts_enable", "config:0\n" },
		{ "format/pa_enable", "config:1\n" },
		{ "format/pct_enable", "config:2\n" },
		{ "format/jitter", "config:16\n" },
		{ "format/branch_filter", "config:32\n" },
		{ "format/load_filter", "config:33\n" },
		{ "format/store_filter", "config:34\n" },
		{ "format/event_filter", "config1:0-63\n" },
		{ "format/min_latency", "config2:0-11\n" },
	};
	char name[64], got[128], path[256];
	unsigned int i;

	SPE_REQUIRE(name);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		const char *file = files[i][0], *want = files[i][1];

		EXPECT_TRUE(spe_file_is(name, file, want, got, sizeof(got)))
			TH_LOG("%s: \"%s\", not \"%s\"", file, got, want);
	}
	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/format/inv_event_filter",
		 name);
	EXPECT_NE(0, access(path, F_OK));
	/* Every CPU has it: the PPI is every CPU's. */
	EXPECT_TRUE(spe_file_is(name, "cpumask", "0-1\n", got, sizeof(got)))
		TH_LOG("cpumask \"%s\"", got);
}

/* Open an arm_spe event of this task with @config..@config3: 0, -errno */
static int spe_try(int type, __u64 config, __u64 config1, __u64 config2,
		   __u64 config3, int freq, int exclude_idle)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.config1 = config1;
	attr.config2 = config2;
	attr.config3 = config3;
	attr.sample_period = SPE_PERIOD;
	attr.freq = freq;
	if (freq)
		attr.sample_freq = 1000;
	attr.exclude_idle = exclude_idle;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * event_init: a task's event with timestamps, physical addresses and
 * the filters (type, event, latency) opens; a frequency is EINVAL (the
 * samples are in a buffer, there is no count to steer by);
 * exclude_idle and an event filter bit SPEv1p1 leaves RES0 are
 * EOPNOTSUPP, as is any inverted event filter without FnE; bit 11
 * (misaligned access, SPEv1p1's) is accepted.
 */
TEST(spe_open_rules)
{
	char name[64];
	int type;

	SPE_REQUIRE(name);
	type = pmu_type(name);
	ASSERT_LT(0, type);
	EXPECT_EQ(0, spe_try(type, 0, 0, 0, 0, 0, 0));
	EXPECT_EQ(0, spe_try(type, 0x7ULL | 1ULL << 16, 0, 0, 0, 0, 0));
	EXPECT_EQ(0, spe_try(type, 7ULL << 32, 1ULL << 3 | 1ULL << 11, 32, 0,
			     0, 0));
	EXPECT_EQ(-EINVAL, spe_try(type, 0, 0, 0, 0, 1, 0));
	EXPECT_EQ(-EOPNOTSUPP, spe_try(type, 0, 0, 0, 0, 0, 1));
	EXPECT_EQ(-EOPNOTSUPP, spe_try(type, 0, 1ULL << 2, 0, 0, 0, 0));
	EXPECT_EQ(-EOPNOTSUPP, spe_try(type, 0, 1ULL << 19, 0, 0, 0, 0));
	EXPECT_EQ(-EOPNOTSUPP, spe_try(type, 0, 0, 0, 1ULL << 3, 0, 0));
	EXPECT_EQ(-EOPNOTSUPP, spe_try(type, 0, 0, 0, 1ULL << 2, 0, 0));
}

TEST_HARNESS_MAIN
