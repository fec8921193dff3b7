// SPDX-License-Identifier: GPL-2.0
/*
 * What Intel's PEBS records say of memory accesses (perf mem): the data
 * address, the data source and the weight of precise memory events.
 *
 * The code sampled is a loop in assembly: mem_run(n, src, dst) copies
 * src[i] to dst[i] for i from 0 to MEM_N - 1, n times, with one load
 * (mem_load) and one store (mem_store) an element.  Every sample of a
 * load event must be at mem_load with its address in src, of a store
 * event at mem_store with its address in dst, 8-byte aligned.
 *
 * The data source and weight are the stock kernel's for the records of
 * our QEMU's models (pmu-pebs), whose memory information is all zero but
 * the address and, for load latency, a latency of pmu-load-latency (64
 * cycles): the data source as each family's rules read a zero field
 * (load latency's "unknown, past the L3"; a store's "L1 missed"), the
 * weight the latency.  A family is known by caps/pmu_name:
 *
 *   skylake (intel-skl, PEBS format 3), sapphire_rapids (intel-spr),
 *   alderlake_hybrid (intel-hybrid: cpu_core as Sapphire Rapids, and
 *   cpu_atom, Gracemont with its own latency events 0x05d0 and 0x06d0,
 *   whose loads and stores have no source);
 *   anything else (intel-lbr: a model stock knows by no family): no
 *   source for any event, the load-latency event's weight all the same,
 *   its threshold not taken (no ldlat).
 *
 * Sapphire Rapids' and Alder Lake's P-cores sample load latency's data
 * source only behind MEM_LOADS_AUX (0x8203) in the group; else ENODATA.
 * Skipped on arm64, on CPUs not Intel's and without "pebs" in
 * /proc/cpuinfo.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

#define MEM_N		512	/* elements a pass copies */
#define MEM_PASSES	200	/* passes a case runs: 102400 of each */
#define MEM_PERIOD	1009	/* the sample period: about 101 samples */
#define MEM_PAGES	64

#if defined(__x86_64__)
asm(".text\n"
	".globl mem_run\n"
	".type mem_run, @function\n"
	"mem_run:\n"
	"1:\txor %ecx, %ecx\n"
	"2:\n"
	".globl mem_load\n"
	"mem_load:\n\tmov (%rsi,%rcx,8), %rax\n"
	".globl mem_store\n"
	"mem_store:\n\tmov %rax, (%rdx,%rcx,8)\n"
	"\tinc %rcx\n"
	"\tcmp $512, %rcx\n"
	"\tjb 2b\n"
	"\tdec %rdi\n"
	"\tjnz 1b\n"
	"\tret\n"
	".size mem_run, .-mem_run\n");

void mem_run(unsigned long n, const long *src, long *dst);
extern char mem_load[], mem_store[];
#else
static void mem_run(unsigned long n, const long *src, long *dst) { }
static char mem_load[1], mem_store[1];
#endif

static long mem_src[MEM_N] __attribute__((aligned(4096)));
static long mem_dst[MEM_N] __attribute__((aligned(4096)));

/* The data sources stock gives for a zero field (see above). */
#define SRC_NA		0x1e05080021ULL	/* PERF_MEM_NA: nothing known */
#define SRC_LOAD	0x1e05080022ULL	/* a load, nothing more */
#define SRC_STORE_L1	0x1e05080184ULL	/* a store that missed the L1 */
#define SRC_LDLAT	0x10668080082ULL /* load latency, encoding 0 */
#define SRC_STLAT	0x10668080084ULL /* store latency, encoding 0 */
#define MEM_LATENCY	64		/* our QEMU's pmu-load-latency */

enum mem_family { MEM_ARCH, MEM_SKYLAKE, MEM_GOLDEN_COVE, MEM_GRACEMONT };

/* A core PMU of this machine, one of its CPUs, and its family. */
struct mem_pmu {
	char name[64];
	__u32 type;
	int cpu;
	enum mem_family family;
};

/* The core PMU called @name into @p: 0, or -1 where there is none. */
static int mem_pmu_get(const char *name, struct mem_pmu *p)
{
	char path[256], buf[64];
	int type;

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/type", name);
	if (read_file(path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%d", &type) != 1)
		return -1;
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = type;
	p->cpu = 0;
	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/cpus", name);
	if (read_file(path, buf, sizeof(buf)) > 0)
		sscanf(buf, "%d", &p->cpu);
	p->family = MEM_ARCH;
	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/caps/pmu_name", name);
	buf[0] = 0;
	read_file(path, buf, sizeof(buf));
	if (!strncmp(buf, "skylake", 7))
		p->family = MEM_SKYLAKE;
	else if (!strncmp(buf, "sapphire_rapids", 15))
		p->family = MEM_GOLDEN_COVE;
	else if (!strncmp(buf, "alderlake_hybrid", 16))
		p->family = strcmp(name, "cpu_atom") ? MEM_GOLDEN_COVE :
						       MEM_GRACEMONT;
	return 0;
}

/* The core PMUs: "cpu", or a hybrid part's two.  Return: how many. */
static int mem_pmus(struct mem_pmu *p)
{
	if (!mem_pmu_get("cpu", &p[0]))
		return 1;
	if (mem_pmu_get("cpu_core", &p[0]) || mem_pmu_get("cpu_atom", &p[1]))
		return 0;
	return 2;
}

#define MEM_REQUIRE(pmus, n) do {					\
	const char *why;						\
									\
	HW_REQUIRE();							\
	why = pebs_absent();						\
	if (why)							\
		SKIP(return, "%s", why);				\
	n = mem_pmus(pmus);						\
	ASSERT_LT(0, n);						\
} while (0)

/* Load latency needs MEM_LOADS_AUX before it to sample its source. */
static bool mem_needs_aux(const struct mem_pmu *p, __u64 config)
{
	return p->family == MEM_GOLDEN_COVE && config == 0x01cd;
}

/*
 * A user-only precise event of @p sampling the address, source and
 * weight; behind MEM_LOADS_AUX where it needs it (*@leader, else -1).
 * Return: its fd, or -errno.
 */
static int mem_open(const struct mem_pmu *p, __u64 config, __u64 ldlat,
		    __u64 sample_type, int *leader)
{
	struct perf_event_attr attr;
	int fd;

	*leader = -1;
	if (mem_needs_aux(p, config)) {
		attr_hw(&attr, p->type, 0x8203);
		attr.exclude_kernel = 1;
		*leader = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (*leader < 0)
			return -errno;
	}
	attr_hw(&attr, p->type, config);
	attr.config1 = ldlat;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.precise_ip = 2;
	attr.sample_period = MEM_PERIOD;
	attr.sample_type = sample_type;
	attr.disabled = *leader < 0;
	fd = sys_perf_event_open(&attr, 0, -1, *leader, 0);
	if (fd >= 0)
		return fd;
	fd = -errno;
	if (*leader >= 0)
		close(*leader);
	return fd;
}

/* What a case expects of every sample. */
struct mem_expect {
	const char *ip;		/* mem_load or mem_store */
	const long *array;	/* where the address is */
	__u64 data_src;
	__u64 weight;
	bool none;		/* no sample at all */
};

/* A sample of IP, ADDR, WEIGHT and DATA_SRC, in that order. */
struct mem_sample {
	struct perf_event_header h;
	__u64 ip, addr, weight, data_src;
};

#define MEM_TYPE	(PERF_SAMPLE_IP | PERF_SAMPLE_ADDR | \
			 PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC)

/*
 * Sample @config (@ldlat in config1) of @p over the loop on one of its
 * CPUs, and hold every sample to @e.
 */
static void mem_case(struct __test_metadata *_metadata,
		     const struct mem_pmu *p, __u64 config, __u64 ldlat,
		     const struct mem_expect *e)
{
	int fd, leader, n = 0, bad_ip = 0, bad_addr = 0, bad_src = 0,
	    bad_weight = 0;
	struct mem_sample s;
	struct perf_rb rb;
	__u64 last_src = 0, last_weight = 0;

	ASSERT_EQ(0, pin_to_cpu(p->cpu));
	fd = mem_open(p, config, ldlat, MEM_TYPE, &leader);
	ASSERT_LE(0, fd) TH_LOG("%s 0x%llx: %s", p->name,
				(unsigned long long)config, strerror(-fd));
	ASSERT_EQ(0, perf_rb_map(&rb, fd, MEM_PAGES));
	mem_run(1, mem_src, mem_dst);
	ioctl(leader >= 0 ? leader : fd, PERF_EVENT_IOC_ENABLE,
	      leader >= 0 ? PERF_IOC_FLAG_GROUP : 0);
	mem_run(MEM_PASSES, mem_src, mem_dst);
	ioctl(leader >= 0 ? leader : fd, PERF_EVENT_IOC_DISABLE,
	      leader >= 0 ? PERF_IOC_FLAG_GROUP : 0);

	while (perf_rb_next(&rb, &s, sizeof(s)) >= 0) {
		if (s.h.type != PERF_RECORD_SAMPLE)
			continue;
		n++;
		bad_ip += s.ip != (unsigned long)e->ip;
		bad_addr += s.addr < (unsigned long)e->array ||
			    s.addr >= (unsigned long)(e->array + MEM_N) ||
			    s.addr % sizeof(long);
		if (s.data_src != e->data_src) {
			bad_src++;
			last_src = s.data_src;
		}
		if (s.weight != e->weight) {
			bad_weight++;
			last_weight = s.weight;
		}
	}
	perf_rb_unmap(&rb);
	close(fd);
	if (leader >= 0)
		close(leader);

	if (e->none) {
		EXPECT_EQ(0, n);
		return;
	}
	EXPECT_LE(MEM_PASSES * MEM_N / MEM_PERIOD * 9 / 10, n)
		TH_LOG("%s 0x%llx: %d samples", p->name,
		       (unsigned long long)config, n);
	EXPECT_EQ(0, bad_ip);
	EXPECT_EQ(0, bad_addr);
	EXPECT_EQ(0, bad_src) TH_LOG("%s 0x%llx: data source 0x%llx, not 0x%llx",
				     p->name, (unsigned long long)config,
				     (unsigned long long)last_src,
				     (unsigned long long)e->data_src);
	EXPECT_EQ(0, bad_weight) TH_LOG("%s 0x%llx: weight %llu, not %llu",
					p->name, (unsigned long long)config,
					(unsigned long long)last_weight,
					(unsigned long long)e->weight);
}

/*
 * MEM_INST_RETIRED.ALL_LOADS (@store false) or ALL_STORES on each core
 * PMU: a load's or a store's source on the P-cores (a store's L1 bit),
 * none on the E-cores or a model of no family.
 */
static void mem_loads_or_stores(struct __test_metadata *_metadata,
				bool store)
{
	struct mem_pmu pmus[2];
	int i, n;

	MEM_REQUIRE(pmus, n);
	for (i = 0; i < n; i++) {
		bool src = pmus[i].family == MEM_SKYLAKE ||
			   pmus[i].family == MEM_GOLDEN_COVE;
		struct mem_expect e = {
			.ip = store ? mem_store : mem_load,
			.array = store ? mem_dst : mem_src,
			.data_src = !src ? SRC_NA :
				    store ? SRC_STORE_L1 : SRC_LOAD,
		};

		mem_case(_metadata, &pmus[i], store ? 0x82d0 : 0x81d0, 0, &e);
	}
}

TEST(pebs_mem_loads)
{
	mem_loads_or_stores(_metadata, false);
}

TEST(pebs_mem_stores)
{
	mem_loads_or_stores(_metadata, true);
}

/* The load-latency event of @p: the P-cores' 0x01cd, Gracemont's 0x05d0 */
static __u64 mem_ldlat_event(const struct mem_pmu *p)
{
	return p->family == MEM_GRACEMONT ? 0x05d0 : 0x01cd;
}

/*
 * perf mem's loads above a latency of 30 (its default): every load,
 * with the latency as weight; a source where the family reads one.
 */
TEST(pebs_mem_load_latency)
{
	struct mem_pmu pmus[2];
	int i, n;

	MEM_REQUIRE(pmus, n);
	for (i = 0; i < n; i++) {
		struct mem_expect e = {
			.ip = mem_load, .array = mem_src,
			.data_src = pmus[i].family == MEM_ARCH ? SRC_NA :
								 SRC_LDLAT,
			.weight = MEM_LATENCY,
		};

		mem_case(_metadata, &pmus[i], mem_ldlat_event(&pmus[i]), 30,
			 &e);
	}
}

/*
 * The threshold is the extra register's (MSR_PEBS_LD_LAT_THRESHOLD):
 * loads of the model's latency sample above 63, not above 64.
 */
TEST(pebs_mem_load_latency_threshold)
{
	struct mem_pmu pmus[2];
	int i, n;

	MEM_REQUIRE(pmus, n);
	for (i = 0; i < n; i++) {
		struct mem_expect e = {
			.ip = mem_load, .array = mem_src,
			.data_src = SRC_LDLAT, .weight = MEM_LATENCY,
		};

		if (pmus[i].family == MEM_ARCH)
			continue;
		mem_case(_metadata, &pmus[i], mem_ldlat_event(&pmus[i]),
			 MEM_LATENCY - 1, &e);
		e.none = true;
		mem_case(_metadata, &pmus[i], mem_ldlat_event(&pmus[i]),
			 MEM_LATENCY, &e);
	}
}

/* The store-latency event: Golden Cove's 0x02cd, Gracemont's 0x06d0. */
TEST(pebs_mem_store_latency)
{
	struct mem_pmu pmus[2];
	int i, n, done = 0;

	MEM_REQUIRE(pmus, n);
	for (i = 0; i < n; i++) {
		struct mem_expect e = {
			.ip = mem_store, .array = mem_dst,
			.data_src = SRC_STLAT,
		};

		if (pmus[i].family == MEM_GOLDEN_COVE)
			mem_case(_metadata, &pmus[i], 0x02cd, 0, &e);
		else if (pmus[i].family == MEM_GRACEMONT)
			mem_case(_metadata, &pmus[i], 0x06d0, 0, &e);
		else
			continue;
		done++;
	}
	if (!done)
		SKIP(return, "no store-latency event on %s", pmus[0].name);
}

/* Open @config of @p, disabled, in group @group: 0 or -errno; fd in *fd. */
static int mem_try(const struct mem_pmu *p, __u64 config, __u64 sample_type,
		   int group, int *fd)
{
	struct perf_event_attr attr;

	attr_hw(&attr, p->type, config);
	attr.exclude_kernel = 1;
	attr.precise_ip = config == 0x01cd ? 2 : 0;
	attr.sample_period = config == 0x01cd ? MEM_PERIOD : 0;
	attr.sample_type = sample_type;
	*fd = sys_perf_event_open(&attr, 0, -1, group, 0);
	return *fd < 0 ? -errno : 0;
}

/*
 * Load latency sampling its data source: on Golden Cove P-cores only
 * behind MEM_LOADS_AUX, as the leader or a sibling before it (ENODATA
 * alone or behind another leader); without the source, or elsewhere,
 * alone.
 */
TEST(pebs_mem_loads_aux_group)
{
	struct mem_pmu pmus[2];
	int i, n, lead, aux, fd;

	MEM_REQUIRE(pmus, n);
	for (i = 0; i < n; i++) {
		bool needs = mem_needs_aux(&pmus[i], 0x01cd);

		if (pmus[i].family == MEM_GRACEMONT)
			continue;
		EXPECT_EQ(needs ? -ENODATA : 0,
			  mem_try(&pmus[i], 0x01cd, MEM_TYPE, -1, &fd));
		if (fd >= 0)
			close(fd);
		EXPECT_EQ(0, mem_try(&pmus[i], 0x01cd, PERF_SAMPLE_IP, -1,
				     &fd));
		if (fd >= 0)
			close(fd);

		ASSERT_EQ(0, mem_try(&pmus[i], 0x8203, 0, -1, &lead));
		EXPECT_EQ(0, mem_try(&pmus[i], 0x01cd, MEM_TYPE, lead, &fd));
		if (fd >= 0)
			close(fd);
		close(lead);

		ASSERT_EQ(0, mem_try(&pmus[i], 0x00c0, 0, -1, &lead));
		EXPECT_EQ(needs ? -ENODATA : 0,
			  mem_try(&pmus[i], 0x01cd, MEM_TYPE, lead, &fd));
		if (fd >= 0)
			close(fd);
		ASSERT_EQ(0, mem_try(&pmus[i], 0x8203, 0, lead, &aux));
		EXPECT_EQ(0, mem_try(&pmus[i], 0x01cd, MEM_TYPE, lead, &fd));
		if (fd >= 0)
			close(fd);
		close(aux);
		close(lead);
	}
}

TEST_HARNESS_MAIN
