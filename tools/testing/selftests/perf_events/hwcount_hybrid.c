// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware events on a hybrid x86 part (Alder Lake, Raptor Lake): two
 * kinds of core with different counters, and a PMU for each kind,
 * "cpu_core" (the P-cores, registered as PERF_TYPE_RAW) and "cpu_atom"
 * (the E-cores, a type of its own).  An event of one PMU counts only
 * while its task runs on a core of that kind; a CPU-bound one opens
 * only on such a CPU; generic events name their PMU in config[63:32],
 * and without one they are the P-cores' (or, CPU-bound on an E-core,
 * the E-cores').  This is how perf counts on such a machine: one event
 * per PMU, "cpu_core/cycles/" and "cpu_atom/cycles/".
 *
 * The harness boots these on its intel-hybrid model (hw_test.h, and
 * harness/boot.sh): CPU 0 a P-core with 8 general-purpose counters and
 * fixed counters 0-3, CPU 1 an E-core with 6 and 0-2, each counting its
 * own instructions exactly.  CPUID leaf 0AH there gives what both kinds
 * have (6 and 0-2), as it does on Alder Lake; a P-core has two general
 * counters more and fixed counter 3.  Which kind a CPU is comes from
 * its own CPUID leaf 1AH, so each case learns the CPUs' kinds by
 * running on each.
 *
 * Every case skips on arm64 and on an x86 CPU that is not hybrid
 * (CPUID.07H:EDX[15]).
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

#define HYBRID_ATOM	0x20
#define HYBRID_CORE	0x40
#define HYBRID_MAX_CPUS	64

/* Loop iterations of a counted run, and what else a count may hold. */
#define HY_N		1000000UL
#define HY_SLACK	20000

struct hybrid {
	int ncpus;
	unsigned char kind[HYBRID_MAX_CPUS];	/* CPUID 1AH EAX[31:24] */
	int core_cpu, atom_cpu;			/* one of each kind */
	int core_type, atom_type;		/* the PMUs' types */
	int core_gp, atom_gp;			/* general-purpose counters */
};

#if defined(__x86_64__)
static bool cpu_is_hybrid(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (__get_cpuid_max(0, NULL) < 0x1a)
		return false;
	__cpuid_count(7, 0, eax, ebx, ecx, edx);
	return edx & (1U << 15);
}

static unsigned char this_cpu_kind(void)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid_count(0x1a, 0, eax, ebx, ecx, edx);
	return eax >> 24;
}

static int cpuid_gp_counters(void)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid(0xa, eax, ebx, ecx, edx);
	return (eax >> 8) & 0xff;
}
#else
static bool cpu_is_hybrid(void)
{
	return false;
}

static unsigned char this_cpu_kind(void)
{
	return 0;
}

static int cpuid_gp_counters(void)
{
	return 0;
}
#endif

/*
 * Each online CPU's kind, from running on it; -1 if the machine has no
 * CPU of either kind.  Leaves the caller pinned to the last CPU.
 */
static int hybrid_probe(struct hybrid *h)
{
	int cpu;

	memset(h, 0, sizeof(*h));
	h->core_cpu = -1;
	h->atom_cpu = -1;
	h->ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (h->ncpus > HYBRID_MAX_CPUS)
		h->ncpus = HYBRID_MAX_CPUS;
	for (cpu = 0; cpu < h->ncpus; cpu++) {
		if (pin_to_cpu(cpu))
			return -1;
		h->kind[cpu] = this_cpu_kind();
		if (h->kind[cpu] == HYBRID_CORE && h->core_cpu < 0)
			h->core_cpu = cpu;
		if (h->kind[cpu] == HYBRID_ATOM && h->atom_cpu < 0)
			h->atom_cpu = cpu;
	}
	h->core_type = pmu_type("cpu_core");
	h->atom_type = pmu_type("cpu_atom");
	/* Alder Lake's P-cores: two general-purpose counters more, to 8. */
	h->atom_gp = cpuid_gp_counters();
	h->core_gp = h->atom_gp + 2 <= 8 ? h->atom_gp + 2 : h->atom_gp;
	return h->core_cpu < 0 || h->atom_cpu < 0 ? -1 : 0;
}

#define HYBRID_REQUIRE(h) do {						\
	HW_REQUIRE();							\
	if (!cpu_is_hybrid())						\
		SKIP(return, "not a hybrid CPU (CPUID.07H:EDX[15] clear)"); \
	ASSERT_EQ(0, hybrid_probe(h))					\
		TH_LOG("a hybrid CPU needs a P-core and an E-core online"); \
} while (0)

/* A user-only counting event of PMU @type on this thread, or on @cpu. */
static int open_on(__u32 type, __u64 config, pid_t pid, int cpu,
		   int group_fd)
{
	return open_timed(type, config, pid, cpu, 0, group_fd);
}

/*
 * hwc_loop(HY_N) on @first, then on @second, with @fd counting from
 * before the first to after the second.
 */
static void count_on_two_cpus(int fd, int first, int second)
{
	pin_to_cpu(first);
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	hwc_loop(HY_N);
	pin_to_cpu(second);
	hwc_loop(HY_N);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* The CPUs in a sysfs cpu list ("0", "0-3,8"), as a mask. */
static unsigned long long parse_cpu_list(const char *s)
{
	unsigned long long mask = 0;
	char *end;
	long a, b;

	for (;;) {
		a = strtol(s, &end, 10);
		if (end == s)
			break;
		b = a;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (; a <= b && a < 64; a++)
			mask |= 1ULL << a;
		if (*end != ',')
			break;
		s = end + 1;
	}
	return mask;
}

static unsigned long long kind_mask(const struct hybrid *h, int kind)
{
	unsigned long long mask = 0;
	int cpu;

	for (cpu = 0; cpu < h->ncpus; cpu++)
		if (h->kind[cpu] == kind)
			mask |= 1ULL << cpu;
	return mask;
}

/*
 * Two PMUs and no "cpu": cpu_core is PERF_TYPE_RAW, cpu_atom a dynamic
 * type, and each one's cpus file lists the CPUs of its kind.
 */
TEST(hybrid_two_pmus)
{
	char buf[256];
	struct hybrid h;

	HYBRID_REQUIRE(&h);
	EXPECT_EQ(PERF_TYPE_RAW, h.core_type);
	EXPECT_GE(h.atom_type, PERF_TYPE_MAX);
	EXPECT_EQ(-1, pmu_type("cpu"));

	ASSERT_GT(read_file(EVENT_SOURCE "/cpu_core/cpus", buf, sizeof(buf)),
		  0);
	EXPECT_EQ(kind_mask(&h, HYBRID_CORE), parse_cpu_list(buf));
	ASSERT_GT(read_file(EVENT_SOURCE "/cpu_atom/cpus", buf, sizeof(buf)),
		  0);
	EXPECT_EQ(kind_mask(&h, HYBRID_ATOM), parse_cpu_list(buf));
}

/*
 * A task's event of one PMU counts the task's instructions while it runs
 * on a core of that kind, and nothing while it runs on the other kind
 * (enabled, not running then).
 */
TEST(hybrid_task_event_counts_on_its_kind)
{
	struct read_one r;
	struct hybrid h;
	int pass, fd, on, off;
	__u32 type;

	HYBRID_REQUIRE(&h);
	for (pass = 0; pass < 2; pass++) {
		type = pass ? h.atom_type : h.core_type;
		on = pass ? h.atom_cpu : h.core_cpu;
		off = pass ? h.core_cpu : h.atom_cpu;
		fd = open_on(type, 0x00c0, 0, -1, -1);
		ASSERT_GE(fd, 0) TH_LOG("%s: %s", pass ? "cpu_atom" : "cpu_core",
					strerror(errno));
		count_on_two_cpus(fd, on, off);
		ASSERT_EQ(0, read_one_times(fd, &r));
		EXPECT_GE(r.value, LOOP_K * HY_N);
		EXPECT_LT(r.value, LOOP_K * HY_N + HY_SLACK)
			TH_LOG("%s counted on the other kind of core too",
			       pass ? "cpu_atom" : "cpu_core");
		EXPECT_LT(r.running, r.enabled);
		EXPECT_GT(r.running, 0);
		close(fd);
	}
}

/*
 * Generic events: config[63:32] names the PMU (perf's cpu_atom/cycles/);
 * without it they are cpu_core's, PERF_TYPE_RAW's.
 */
TEST(hybrid_generic_event_picks_pmu)
{
	static const struct {
		bool extended, atom;
	} kinds[] = { { true, false }, { true, true }, { false, false } };
	struct read_one r;
	struct hybrid h;
	int i, fd, on, off;
	__u64 config;

	HYBRID_REQUIRE(&h);
	for (i = 0; i < ARRAY_SIZE(kinds); i++) {
		config = PERF_COUNT_HW_INSTRUCTIONS;
		if (kinds[i].extended)
			config |= (__u64)(kinds[i].atom ? h.atom_type :
						       h.core_type) << 32;
		on = kinds[i].atom ? h.atom_cpu : h.core_cpu;
		off = kinds[i].atom ? h.core_cpu : h.atom_cpu;
		fd = open_on(PERF_TYPE_HARDWARE, config, 0, -1, -1);
		ASSERT_GE(fd, 0) TH_LOG("case %d: %s", i, strerror(errno));
		count_on_two_cpus(fd, on, off);
		ASSERT_EQ(0, read_one_times(fd, &r));
		EXPECT_GE(r.value, LOOP_K * HY_N) TH_LOG("case %d", i);
		EXPECT_LT(r.value, LOOP_K * HY_N + HY_SLACK) TH_LOG("case %d", i);
		close(fd);
	}
}

/*
 * A CPU-bound event of one PMU opens only on a CPU of its kind (ENOENT
 * elsewhere, as for a PMU that is not there).  A generic event without
 * a PMU type is the E-cores' on an E-core.
 */
TEST(hybrid_cpu_event_on_its_kind_only)
{
	struct read_one r;
	struct hybrid h;
	int fd;

	HYBRID_REQUIRE(&h);
	fd = open_on(h.core_type, 0x00c0, -1, h.atom_cpu, -1);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOENT, errno);
	fd = open_on(h.atom_type, 0x00c0, -1, h.core_cpu, -1);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOENT, errno);
	fd = open_on(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS |
		     (__u64)h.core_type << 32, -1, h.atom_cpu, -1);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(ENOENT, errno);

	/* The whole CPU: at least the loop, run on it. */
	fd = open_on(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, -1,
		     h.atom_cpu, -1);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	count_on_two_cpus(fd, h.atom_cpu, h.core_cpu);
	ASSERT_EQ(0, read_one_times(fd, &r));
	EXPECT_GE(r.value, LOOP_K * HY_N);
	EXPECT_EQ(r.running, r.enabled);
	close(fd);
	fd = open_on(h.atom_type, 0x00c0, -1, h.atom_cpu, -1);
	EXPECT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	close(fd);
}

/*
 * Each kind's counters: instruction events take a general-purpose
 * counter each and fixed counter 0, so a group of gp + 1 of them runs
 * whole on its kind of core, counting the loop exactly, and one more
 * cannot be a member of it.  The task has an event of the other PMU
 * too, as under perf stat: switching that PMU on and off on this CPU
 * (the task's context holds both) must leave this one's counters be.
 */
TEST(hybrid_group_fits_its_kind)
{
	int fds[HW_MAX_COUNTERS];
	struct read_one r;
	struct hybrid h;
	int pass, n, i, fd, cpu, other;
	__u32 type;

	HYBRID_REQUIRE(&h);
	for (pass = 0; pass < 2; pass++) {
		type = pass ? h.atom_type : h.core_type;
		n = (pass ? h.atom_gp : h.core_gp) + 1;
		cpu = pass ? h.atom_cpu : h.core_cpu;
		ASSERT_LT(n, HW_MAX_COUNTERS);
		other = open_on(pass ? h.core_type : h.atom_type, 0x003c, 0,
				-1, -1);
		ASSERT_GE(other, 0) TH_LOG("%s", strerror(errno));
		ioctl(other, PERF_EVENT_IOC_ENABLE, 0);
		for (i = 0; i < n; i++) {
			fds[i] = open_on(type, 0x00c0, 0, -1,
					 i ? fds[0] : -1);
			ASSERT_GE(fds[i], 0) TH_LOG("%s member %d: %s",
						    pass ? "cpu_atom" : "cpu_core",
						    i, strerror(errno));
		}
		fd = open_on(type, 0x00c0, 0, -1, fds[0]);
		EXPECT_EQ(-1, fd) TH_LOG("%s: member %d of %d counters",
					 pass ? "cpu_atom" : "cpu_core", n + 1, n);
		if (fd >= 0)
			close(fd);

		pin_to_cpu(cpu);
		ioctl(fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		hwc_loop(HY_N);
		ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		for (i = 0; i < n; i++) {
			ASSERT_EQ(0, read_one_times(fds[i], &r));
			EXPECT_GE(r.value, LOOP_K * HY_N) TH_LOG("member %d", i);
			EXPECT_LT(r.value, LOOP_K * HY_N + HY_SLACK)
				TH_LOG("member %d", i);
			EXPECT_EQ(r.running, r.enabled) TH_LOG("member %d", i);
		}
		for (i = 0; i < n; i++)
			close(fds[i]);
		close(other);
	}
}

/*
 * The generic cache events of each PMU (perf's cpu_core/L1-dcache-loads/
 * and cpu_atom/...): config[63:32] names the PMU, the low 24 bits the
 * cache, operation and result, and each PMU answers from its own core's
 * table, as stock's Golden Cove and Gracemont tables say.
 *
 * The tables hold one string per cache, two characters per operation
 * (read, write, prefetch), the access then the miss:
 *   'o'  stock has an event code: the event opens;
 *   '-'  stock has none (0): ENOENT;
 *   'x'  stock refuses it (-1): EINVAL.
 * The two differ in the L1D read miss, the L1I read access and the
 * node: which one answered shows the PMU type reached its table.  Both
 * refuse an ITLB read access but count an ITLB read miss.
 */
/* Characters per cache in the tables below: operations times results. */
#define HY_CACHE_CELLS	(PERF_COUNT_HW_CACHE_OP_MAX *			\
			 PERF_COUNT_HW_CACHE_RESULT_MAX)

TEST(hybrid_generic_cache_events)
{
	static const char *const golden_cove[PERF_COUNT_HW_CACHE_MAX] = {
		/*		   read, write, prefetch: access and miss */
		[PERF_COUNT_HW_CACHE_L1D]	= "ooo---",
		[PERF_COUNT_HW_CACHE_L1I]	= "-oxx--",
		[PERF_COUNT_HW_CACHE_LL]	= "oooo--",
		[PERF_COUNT_HW_CACHE_DTLB]	= "oooo--",
		[PERF_COUNT_HW_CACHE_ITLB]	= "xoxxxx",
		[PERF_COUNT_HW_CACHE_BPU]	= "ooxxxx",
		[PERF_COUNT_HW_CACHE_NODE]	= "oo----",
	};
	static const char *const gracemont[PERF_COUNT_HW_CACHE_MAX] = {
		[PERF_COUNT_HW_CACHE_L1D]	= "o-o---",
		[PERF_COUNT_HW_CACHE_L1I]	= "ooxx--",
		[PERF_COUNT_HW_CACHE_LL]	= "oooo--",
		[PERF_COUNT_HW_CACHE_DTLB]	= "oooo--",
		[PERF_COUNT_HW_CACHE_ITLB]	= "xoxxxx",
		[PERF_COUNT_HW_CACHE_BPU]	= "ooxxxx",
		[PERF_COUNT_HW_CACHE_NODE]	= "------",
	};
	int pass, n, cache, op, result, fd, err, want;
	const char *const *table;
	const char *name;
	struct hybrid h;
	__u64 config;
	__u32 type;
	char c;

	HYBRID_REQUIRE(&h);
	for (pass = 0; pass < 2; pass++) {
		type = pass ? h.atom_type : h.core_type;
		table = pass ? gracemont : golden_cove;
		name = pass ? "cpu_atom" : "cpu_core";
		for (n = 0; n < PERF_COUNT_HW_CACHE_MAX * HY_CACHE_CELLS; n++) {
			cache = n / HY_CACHE_CELLS;
			op = n / PERF_COUNT_HW_CACHE_RESULT_MAX %
			     PERF_COUNT_HW_CACHE_OP_MAX;
			result = n % PERF_COUNT_HW_CACHE_RESULT_MAX;
			c = table[cache][n % HY_CACHE_CELLS];
			want = c == 'o' ? 0 : c == 'x' ? EINVAL : ENOENT;
			config = cache | op << 8 | result << 16 |
				 (__u64)type << 32;
			fd = open_on(PERF_TYPE_HW_CACHE, config, 0, -1, -1);
			err = fd < 0 ? errno : 0;
			EXPECT_EQ(want, err)
				TH_LOG("%s cache %d op %d result %d: %s, not %s",
				       name, cache, op, result,
				       err ? strerror(err) : "opened",
				       want ? strerror(want) : "opened");
			if (fd >= 0)
				close(fd);
		}
	}
}

/*
 * The P-cores' topdown events: "slots" (fixed counter 3) leads a group
 * whose "topdown-*" members are shares of its slots, read from
 * IA32_PERF_METRICS.  The model is one instruction wide: its slots are
 * its cycles, twice the instructions, and it cannot attribute them, so
 * every share reads 0 (as on stock).  The rules: a metric only as a
 * counting member of a counting slots leader, no filters, no config1;
 * a member its leader leaves cannot count alone.
 */

TEST(hybrid_topdown_group)
{
	struct read_one slots, m, cyc;
	int lead, ret, bad, cycles;
	struct hybrid h;
	__u32 t;

	HYBRID_REQUIRE(&h);
	t = h.core_type;

	lead = td_refusals(_metadata, t);

	/* A group: slots, two shares, and cycles beside them. */
	ret = open_td(t, TD_RETIRING, 0, lead);
	ASSERT_GE(ret, 0) TH_LOG("%s", strerror(errno));
	bad = open_td(t, TD_BAD_SPEC, 0, lead);
	ASSERT_GE(bad, 0) TH_LOG("%s", strerror(errno));
	cycles = open_td(t, 0x003c, 0, lead);
	ASSERT_GE(cycles, 0) TH_LOG("%s", strerror(errno));
	pin_to_cpu(h.core_cpu);
	ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	hwc_loop(HY_N);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_EQ(0, read_one_times(lead, &slots));
	ASSERT_EQ(0, read_one_times(cycles, &cyc));
	EXPECT_GE(slots.value, 2 * LOOP_K * HY_N);
	EXPECT_LT(slots.value, 2 * (LOOP_K * HY_N + HY_SLACK));
	EXPECT_EQ(cyc.value, slots.value) TH_LOG("slots are cycles here");
	EXPECT_EQ(slots.running, slots.enabled);
	ASSERT_EQ(0, read_one_times(ret, &m));
	EXPECT_EQ(0, m.value);
	EXPECT_EQ(m.running, m.enabled);
	EXPECT_GT(m.running, 0);

	/* Its leader gone, a share is in ERROR: reads end at once. */
	close(lead);
	EXPECT_EQ(0, read(ret, &m, sizeof(m)));
	ioctl(ret, PERF_EVENT_IOC_ENABLE, 0);
	EXPECT_EQ(0, read(ret, &m, sizeof(m)));
	close(ret);
	close(bad);
	close(cycles);
}

/*
 * Without a metric beside it, slots is an ordinary event on fixed
 * counter 3: it counts as cycles do, and may sample.
 */
TEST(hybrid_slots_alone)
{
	struct read_one r;
	struct hybrid h;
	int fd;

	HYBRID_REQUIRE(&h);
	fd = open_td(h.core_type, TD_SLOTS, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	count_on_two_cpus(fd, h.core_cpu, h.atom_cpu);
	ASSERT_EQ(0, read_one_times(fd, &r));
	EXPECT_GE(r.value, 2 * LOOP_K * HY_N);
	EXPECT_LT(r.value, 2 * (LOOP_K * HY_N + HY_SLACK));
	close(fd);
}

/*
 * A software leader with a cpu_core member: the group goes on the
 * P-cores' PMU, so it is placed on P-cores only, its leader too.
 */
TEST(hybrid_software_leader_group)
{
	struct perf_event_attr attr;
	struct read_one r;
	struct hybrid h;
	int lead, fd;

	HYBRID_REQUIRE(&h);
	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0) TH_LOG("%s", strerror(errno));
	fd = open_on(h.core_type, 0x00c0, 0, -1, lead);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));

	pin_to_cpu(h.core_cpu);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	hwc_loop(HY_N);
	pin_to_cpu(h.atom_cpu);
	hwc_loop(HY_N);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_EQ(0, read_one_times(fd, &r));
	EXPECT_GE(r.value, LOOP_K * HY_N);
	EXPECT_LT(r.value, LOOP_K * HY_N + HY_SLACK)
		TH_LOG("the member counted on the E-core");
	EXPECT_LT(r.running, r.enabled);
	ASSERT_EQ(0, read_one_times(lead, &r));
	EXPECT_LT(r.running, r.enabled) TH_LOG("the leader ran on the E-core");
	close(fd);
	close(lead);
}

/*
 * Sideband records are the task's wherever it runs: a cpu_core event
 * tracking mmaps sees one the task makes on an E-core, where the event
 * does not count.
 */
TEST(hybrid_sideband_on_other_kind)
{
	static struct {
		struct perf_event_header h;
		__u32 pid, tid;
		__u64 addr, len, pgoff;
		char filename[4096];
	} r;
	struct perf_event_attr attr;
	struct perf_rb rb;
	struct hybrid h;
	int fd, efd, found = 0;
	long pg = page_sz();
	void *map;

	HYBRID_REQUIRE(&h);
	efd = open("/proc/self/exe", O_RDONLY);
	ASSERT_GE(efd, 0);
	attr_hw(&attr, h.core_type, 0x00c0);
	attr.exclude_kernel = 1;
	attr.mmap = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, perf_rb_map(&rb, fd, 4));

	pin_to_cpu(h.atom_cpu);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	map = mmap(NULL, pg, PROT_READ | PROT_EXEC, MAP_PRIVATE, efd, 0);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ASSERT_NE(MAP_FAILED, map);
	while (perf_rb_next(&rb, &r, sizeof(r)) >= 0)
		if (r.h.type == PERF_RECORD_MMAP &&
		    r.addr == (__u64)(unsigned long)map)
			found++;
	EXPECT_EQ(1, found);
	munmap(map, pg);
	perf_rb_unmap(&rb);
	close(fd);
	close(efd);
}

/* What sysfs shows of each PMU, as the stock kernel shows it. */
TEST(hybrid_sysfs)
{
	static const struct {
		const char *file, *want;
	} files[] = {
		{ "cpu_core/caps/pmu_name", "alderlake_hybrid\n" },
		{ "cpu_atom/caps/pmu_name", "alderlake_hybrid\n" },
		{ "cpu_core/events/instructions", "event=0xc0\n" },
		{ "cpu_atom/events/cpu-cycles", "event=0x3c\n" },
		{ "cpu_core/events/ref-cycles", "event=0x3c,umask=0x01\n" },
		{ "cpu_atom/events/ref-cycles", "event=0x3c,umask=0x01\n" },
		{ "cpu_core/events/mem-stores", "event=0xcd,umask=0x2" },
		{ "cpu_atom/events/mem-loads", "event=0xd0,umask=0x5,ldlat=3" },
		{ "cpu_atom/events/topdown-retiring", "event=0xc2,umask=0x0" },
		{ "cpu_core/format/offcore_rsp", "config1:0-63\n" },
		{ "cpu_atom/format/ldlat", "config1:0-15\n" },
		{ "cpu_core/format/frontend", "config1:0-23\n" },
	};
	char path[256], buf[256];
	struct hybrid h;
	int i;

	HYBRID_REQUIRE(&h);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), EVENT_SOURCE "/%s", files[i].file);
		if (read_file(path, buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "(cannot read)");
		EXPECT_STREQ(files[i].want, buf) TH_LOG("%s", files[i].file);
	}
	snprintf(path, sizeof(path), EVENT_SOURCE "/cpu_atom/format/frontend");
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("Gracemont has no FRONTEND");
	snprintf(path, sizeof(path), EVENT_SOURCE "/cpu_core/format/any");
	EXPECT_NE(0, access(path, F_OK)) TH_LOG("AnyThread is deprecated");
}

/*
 * The P-cores' topdown events: fixed counter 3 (slots) and the
 * PERF_METRICS fractions, which stock shows as events of cpu_core.
 */
TEST(hybrid_core_topdown_events)
{
	static const struct {
		const char *file, *want;
	} files[] = {
		{ "slots", "event=0x00,umask=0x4" },
		{ "topdown-retiring", "event=0x00,umask=0x80" },
		{ "topdown-bad-spec", "event=0x00,umask=0x81" },
		{ "topdown-fe-bound", "event=0x00,umask=0x82" },
		{ "topdown-be-bound", "event=0x00,umask=0x83" },
	};
	char path[256], buf[256];
	struct hybrid h;
	int i;

	HYBRID_REQUIRE(&h);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), EVENT_SOURCE "/cpu_core/events/%s",
			 files[i].file);
		if (read_file(path, buf, sizeof(buf)) < 0)
			snprintf(buf, sizeof(buf), "(absent)");
		EXPECT_STREQ(files[i].want, buf) TH_LOG("%s", files[i].file);
	}
}

/* ---- precise sampling (PEBS) on each kind of core ------------------- */

/*
 * Where the part has PEBS (the model's pmu-pebs: record format 4 with
 * the adaptive groups on both kinds), stock gives each kind of core the
 * rules of its own family: Golden Cove's table and precise distribution
 * on the P-cores (instructions:ppp on fixed counter 0, every other
 * event at precise_ip 3 on counter 0 or nowhere), Gracemont's on the
 * E-cores (its two latency events on counters 0-1; instructions:ppp on
 * fixed counter 0 or counter 0, every other event on counter 0); a
 * period of 128 at least at precise_ip 3 on both, and max_precise 3.
 */
#define HYBRID_PEBS_REQUIRE(h) do {					\
	HYBRID_REQUIRE(h);						\
	if (!cpuinfo_flag(" pebs "))					\
		SKIP(return, "no \"pebs\" in /proc/cpuinfo");		\
} while (0)

#define HY_PEBS_PERIOD	10007	/* a prime, in instructions */

/*
 * A user-only precise event of PMU @type, sampling IP with a wakeup per
 * sample (not large PEBS: its counter has an RDPMC index); the load
 * latency event with perf mem's threshold of 3: fd or -errno.
 */
static int hy_precise(__u32 type, __u64 config, int precise, __u64 period,
		      int group)
{
	struct perf_event_attr attr;
	int fd;

	attr_hw(&attr, type, config);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.precise_ip = precise;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP;
	attr.wakeup_events = 1;
	attr.disabled = group < 0;
	if (config == 0x05d0)
		attr.config1 = 3;	/* ldlat */
	fd = sys_perf_event_open(&attr, 0, -1, group, 0);
	return fd < 0 ? -errno : fd;
}

/* Does a lone such event open, every @period: 0, or -errno */
static int hy_precise_opens(__u32 type, __u64 config, int precise,
			    __u64 period)
{
	int fd = hy_precise(type, config, precise, period, -1);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

/* @n such events of @config in one group: 0, or -errno */
static int hy_precise_group(__u32 type, __u64 config, int precise, int n)
{
	int fd[8], i, err = 0;

	for (i = 0; i < n; i++) {
		fd[i] = hy_precise(type, config, precise, HY_PEBS_PERIOD,
				   i ? fd[0] : -1);
		if (fd[i] < 0) {
			err = fd[i];
			break;
		}
	}
	while (i--)
		close(fd[i]);
	return err;
}

/*
 * The counter a precise @config of @type runs on (its user page's RDPMC
 * index) while this thread runs on @cpu; 0 where it did not run.
 */
static __u32 hy_precise_index(__u32 type, __u64 config, int precise,
			      int cpu)
{
	struct perf_rb rb;
	__u32 idx = 0;
	int fd;

	pin_to_cpu(cpu);
	fd = hy_precise(type, config, precise, HY_PEBS_PERIOD, -1);
	if (fd < 0)
		return 0;
	if (!perf_rb_map(&rb, fd, 8)) {
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		hwc_loop(1000);
		idx = __atomic_load_n(&rb.up->index, __ATOMIC_RELAXED);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		perf_rb_unmap(&rb);
	}
	close(fd);
	return idx;
}

/* caps/max_precise of both PMUs: 3 (a precise distribution on each) */
TEST(hybrid_pebs_max_precise)
{
	static const char *const pmus[] = { "cpu_core", "cpu_atom" };
	char path[256];
	struct hybrid h;
	int i;

	HYBRID_PEBS_REQUIRE(&h);
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), EVENT_SOURCE "/%s/caps/max_precise",
			 pmus[i]);
		EXPECT_EQ(3, read_long(path)) TH_LOG("%s", pmus[i]);
	}
}

/*
 * Precise samples on each kind of core, pinned to one: instructions at
 * precise_ip 2, a sample every HY_PEBS_PERIOD of them, each with an
 * exact IP, as many as the count says.
 */
TEST(hybrid_pebs_samples_on_each_kind)
{
	struct {
		struct perf_event_header h;
		__u64 ip;
	} rec;
	struct hybrid h;
	int k;

	HYBRID_PEBS_REQUIRE(&h);
	for (k = 0; k < 2; k++) {
		int cpu = k ? h.atom_cpu : h.core_cpu;
		__u32 type = k ? h.atom_type : h.core_type;
		unsigned long samples = 0, exact = 0;
		__u64 count = 0;
		struct perf_rb rb;
		int fd, t;

		pin_to_cpu(cpu);
		fd = hy_precise(type, 0x00c0, 2, HY_PEBS_PERIOD, -1);
		ASSERT_LE(0, fd) TH_LOG("kind %d: %s", k, strerror(-fd));
		ASSERT_EQ(0, perf_rb_map(&rb, fd, 64));
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		hwc_loop(HY_N);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
		while ((t = perf_rb_next(&rb, &rec, sizeof(rec))) >= 0) {
			if (t != PERF_RECORD_SAMPLE)
				continue;
			samples++;
			exact += !!(rec.h.misc & PERF_RECORD_MISC_EXACT_IP);
		}
		perf_rb_unmap(&rb);
		close(fd);
		EXPECT_LE(HY_N / HY_PEBS_PERIOD, samples) TH_LOG("kind %d", k);
		EXPECT_LE(count / HY_PEBS_PERIOD, samples + 1)
			TH_LOG("kind %d: %lu samples, count %llu", k, samples,
			       (unsigned long long)count);
		EXPECT_GE(count / HY_PEBS_PERIOD + 1, samples);
		EXPECT_EQ(samples, exact) TH_LOG("kind %d", k);
	}
}

/*
 * The P-cores (Golden Cove): instructions:ppp on fixed counter 0, core
 * cycles:ppp on counter 0, so two of those cannot be scheduled
 * together; INST_RETIRED.PREC_DIST's old code 0x01c0 (counters 1-7 by
 * the table) nowhere at 3; the retired loads (MEM_INST_RETIRED.ALL_LOADS)
 * on counters 0-3; a period under 128 refused at 3 alone.
 */
TEST(hybrid_pebs_core_rules)
{
	struct hybrid h;

	HYBRID_PEBS_REQUIRE(&h);
	EXPECT_EQ(0x40000001, hy_precise_index(h.core_type, 0x00c0, 3,
					       h.core_cpu));
	EXPECT_EQ(1, hy_precise_index(h.core_type, 0x003c, 3, h.core_cpu));
	EXPECT_EQ(0, hy_precise_group(h.core_type, 0x003c, 3, 1));
	EXPECT_EQ(-EINVAL, hy_precise_group(h.core_type, 0x003c, 3, 2));
	EXPECT_EQ(0, hy_precise_group(h.core_type, 0x003c, 2, 2));
	EXPECT_EQ(-EINVAL, hy_precise_group(h.core_type, 0x01c0, 3, 1));
	EXPECT_EQ(0, hy_precise_group(h.core_type, 0x81d0, 2, 4));
	EXPECT_EQ(-EINVAL, hy_precise_group(h.core_type, 0x81d0, 2, 5));
	EXPECT_EQ(-EINVAL, hy_precise_opens(h.core_type, 0x003c, 3, 127));
	EXPECT_EQ(0, hy_precise_opens(h.core_type, 0x003c, 3, 128));
	EXPECT_EQ(0, hy_precise_opens(h.core_type, 0x003c, 2, 127));
}

/*
 * The E-cores (Gracemont): core cycles:ppp on counter 0 (so not two),
 * instructions:ppp on fixed counter 0 or counter 0; a period under 128
 * refused at 3.  The load-latency event (MEM_UOPS_RETIRED.LOAD_LATENCY)
 * on counters 0-1 alone, by the table: two in a group, not three.
 */
TEST(hybrid_pebs_atom_rules)
{
	struct hybrid h;
	__u32 idx;

	HYBRID_PEBS_REQUIRE(&h);
	idx = hy_precise_index(h.atom_type, 0x00c0, 3, h.atom_cpu);
	EXPECT_TRUE(idx == 0x40000001 || idx == 1) TH_LOG("index %#x", idx);
	EXPECT_EQ(1, hy_precise_index(h.atom_type, 0x003c, 3, h.atom_cpu));
	EXPECT_EQ(-EINVAL, hy_precise_group(h.atom_type, 0x003c, 3, 2));
	EXPECT_EQ(0, hy_precise_group(h.atom_type, 0x003c, 2, 2));
	EXPECT_EQ(0, hy_precise_opens(h.atom_type, 0x05d0, 2,
				      HY_PEBS_PERIOD));
	EXPECT_EQ(0, hy_precise_group(h.atom_type, 0x05d0, 2, 2));
	EXPECT_EQ(-EINVAL, hy_precise_group(h.atom_type, 0x05d0, 2, 3));
	EXPECT_EQ(-EINVAL, hy_precise_opens(h.atom_type, 0x003c, 3, 127));
	EXPECT_EQ(0, hy_precise_opens(h.atom_type, 0x003c, 3, 128));
}

TEST_HARNESS_MAIN
