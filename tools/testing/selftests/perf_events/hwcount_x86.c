// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware events, x86-only cases: what the x86 PMU has and arm64's
 * PMUv3 does not (Intel's fixed counters beside the general-purpose
 * ones, RDPMC through the mmap page, the "cpu" PMU's sysfs files and
 * its rdpmc switch), and checks that only hold exactly on the x86 model:
 * the user/kernel split of one group and the position of every overflow
 * sample.  The cases shared with arm64 are in
 * hwcount.c; the guest and the PMU model are described in hw_test.h.
 *
 * The model counts exactly under -icount, in both modes: user-only
 * counts see nothing of the kernel (ticks, the PMI, rotation), and
 * counts that include the kernel start and stop together on Intel,
 * whose driver switches a whole group on and off with one write to
 * IA32_PERF_GLOBAL_CTRL.  AMD has no global control: its driver enables
 * and disables the counters one at a time, so counts of kernel
 * instructions differ there by the few instructions in between.
 *
 * Every case skips on arm64, and on an x86 CPU whose CPUID shows no
 * counters; a kernel without an x86 counter driver fails them.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

#if defined(__x86_64__)
#define X86_REQUIRE() HW_REQUIRE()
#else
#define X86_REQUIRE() SKIP(return, "x86-only case (arm64's are in hwcount.c)")
#endif

/* Intel: needs the fixed counters; AMD has none. */
#define INTEL_REQUIRE() do {						\
	X86_REQUIRE();							\
	if (!pmu->fixed_counters)					\
		SKIP(return, "needs Intel's fixed counters (AMD has none)"); \
} while (0)

/* RDPMC's counter number for an mmap page index: fixed ones have bit 30. */
#define RDPMC_FIXED	(1U << 30)

static int on_fixed(const struct perf_event_mmap_page *up)
{
	__u32 idx = __atomic_load_n(&up->index, __ATOMIC_RELAXED);

	return idx && ((idx - 1) & RDPMC_FIXED);
}


/*
 * User/kernel split: instructions and cycles, each counted user-only,
 * kernel-only and in both modes, in one group over 1000 getppid() calls
 * and a user loop.  The user count is the loop plus the syscall
 * wrappers; the kernel count is the syscalls; and user + kernel is the
 * both-mode count: exactly on Intel, within the instructions between
 * two counter enables on AMD.  Cycles are the model's CPI times
 * instructions in each mode.
 */
TEST(x86_user_kernel_split)
{
	enum { USER, KERNEL, ALL, NMODE };
	static const __u64 config[2] = {
		PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES,
	};
	const unsigned long n = 100000, calls = 1000;
	struct perf_event_attr attr;
	int fd[2][NMODE], e, m, lead = -1;
	__u64 v[2][NMODE], slack;
	unsigned long i;

	X86_REQUIRE();
	/* Intel: 4 events on general-purpose counters, 2 on fixed ones. */
	if (pmu->gp_counters + (pmu->fixed_counters < 2 ?
				pmu->fixed_counters : 2) < 2 * NMODE)
		SKIP(return, "needs 6 counters for instructions and cycles");
	for (e = 0; e < 2; e++) {
		for (m = 0; m < NMODE; m++) {
			attr_hw(&attr, PERF_TYPE_HARDWARE, config[e]);
			attr.disabled = lead < 0;
			attr.exclude_kernel = m == USER;
			attr.exclude_user = m == KERNEL;
			attr.exclude_hv = 1;
			fd[e][m] = sys_perf_event_open(&attr, 0, -1, lead, 0);
			ASSERT_GE(fd[e][m], 0) TH_LOG("event %d mode %d: %s", e,
						      m, strerror(errno));
			if (lead < 0)
				lead = fd[e][m];
		}
	}

	hwc_loop(1000);
	ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < calls; i++)
		syscall(__NR_getppid);
	hwc_loop(n);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (e = 0; e < 2; e++)
		for (m = 0; m < NMODE; m++)
			ASSERT_EQ(0, read_count(fd[e][m], &v[e][m]));

	/* The loop and ~20 wrapper instructions per call. */
	EXPECT_GE(v[0][USER], LOOP_K * n + calls);
	EXPECT_LT(v[0][USER], LOOP_K * n + calls * 100)
		TH_LOG("user-only instructions %llu", v[0][USER]);
	/* Each getppid() is far more than 20 instructions in the kernel. */
	EXPECT_GT(v[0][KERNEL], calls * 20);
	/*
	 * AMD: a few dozen instructions per counter enabled before the
	 * next one (stock: the both-mode count is 32 ahead).
	 */
	slack = pmu->fixed_counters ? 0 : 2 * NMODE * 50;
	for (e = 0; e < 2; e++) {
		__u64 sum = v[e][USER] + v[e][KERNEL];
		__u64 diff = sum > v[e][ALL] ? sum - v[e][ALL] : v[e][ALL] - sum;

		EXPECT_LE(diff, slack * (e ? pmu->cycles_per_insn : 1))
			TH_LOG("%s: user %llu + kernel %llu != all %llu",
			       e ? "cycles" : "instructions", v[e][USER],
			       v[e][KERNEL], v[e][ALL]);
	}
	/* User-mode cycles are exactly CPI times user instructions. */
	EXPECT_EQ(pmu->cycles_per_insn * v[0][USER], v[1][USER]);
	/* Kernel-mode ones too, up to the AMD slack. */
	EXPECT_LE(pmu->cycles_per_insn * v[0][KERNEL],
		  v[1][KERNEL] + pmu->cycles_per_insn * slack);
	EXPECT_GE(pmu->cycles_per_insn * (v[0][KERNEL] + slack), v[1][KERNEL])
		TH_LOG("kernel instructions %llu cycles %llu", v[0][KERNEL],
		       v[1][KERNEL]);
	for (e = 0; e < 2; e++)
		for (m = NMODE - 1; m >= 0; m--)
			close(fd[e][m]);
}

/*
 * Intel: the generic events take the fixed counters (instructions 0,
 * core cycles 1, reference cycles 2) and the same events as raw
 * encodings in the same group take general-purpose counters (0x00c0,
 * 0x003c, 0x013c): the mmap pages' RDPMC indexes say which is which,
 * and every pair counts exactly the same.  Both cycle kinds are the
 * model's CPI times instructions.
 */
TEST(x86_fixed_and_gp_counters_agree)
{
	static const struct { __u32 type; __u64 config; int fixed; } ev[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1 },
		{ PERF_TYPE_RAW, 0x00c0, 0 },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1 },
		{ PERF_TYPE_RAW, 0x003c, 0 },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, 1 },
		{ PERF_TYPE_RAW, 0x013c, 0 },
	};
	enum { NEV = ARRAY_SIZE(ev) };
	struct perf_event_mmap_page *up[NEV];
	int fd[NEV], i, nev, fixed[NEV];
	__u64 v[NEV];

	INTEL_REQUIRE();
	/* Reference cycles only with fixed counter 2. */
	nev = pmu->fixed_counters >= 3 ? NEV : 4;
	if (pmu->fixed_counters < 2 || pmu->gp_counters < nev / 2)
		SKIP(return, "needs 2 fixed and %d general-purpose counters",
		     nev / 2);
	for (i = 0; i < nev; i++) {
		fd[i] = open_hw_user(ev[i].type, ev[i].config, i == 0,
				     i ? fd[0] : -1);
		ASSERT_GE(fd[i], 0) TH_LOG("event %d: %s", i, strerror(errno));
		up[i] = map_user_page(fd[i]);
		ASSERT_NE(NULL, up[i]);
	}

	hwc_loop(1000);
	ioctl(fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < nev; i++)
		fixed[i] = on_fixed(up[i]);
	hwc_loop(200000);
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < nev; i++)
		ASSERT_EQ(0, read_count(fd[i], &v[i]));

	for (i = 0; i < nev; i++) {
		EXPECT_EQ(ev[i].fixed, fixed[i])
			TH_LOG("event %d (config %#llx) %s a fixed counter", i,
			       (unsigned long long)ev[i].config,
			       fixed[i] ? "on" : "not on");
	}
	EXPECT_GE(v[0], LOOP_K * 200000);
	for (i = 0; i < nev; i += 2) {
		EXPECT_EQ(v[i], v[i + 1])
			TH_LOG("fixed %llu general-purpose %llu (config %#llx)",
			       v[i], v[i + 1],
			       (unsigned long long)ev[i + 1].config);
	}
	for (i = 2; i < nev; i += 2) {
		EXPECT_EQ(pmu->cycles_per_insn * v[0], v[i])
			TH_LOG("instructions %llu, event %d %llu", v[0], i,
			       v[i]);
	}
	for (i = 0; i < nev; i++) {
		munmap(up[i], page_sz());
		close(fd[i]);
	}
}

/*
 * open_sampler() on @config, then @n passes of hwc_loop() with it enabled
 * (a short one first with it off, to fault the loop in), and it disabled
 * again.  Return: its fd, -1 if it did not open; *@fixed: whether it ran
 * on a fixed counter.
 */
static int sample_over_loop(__u64 config, __u64 period, unsigned long n,
			    struct perf_rb *rb, int *fixed)
{
	int fd = open_sampler(config, period, rb);

	if (fd < 0)
		return -1;
	hwc_loop(1000);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	*fixed = on_fixed(rb->up);
	hwc_loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return fd;
}

/*
 * A pinned, enabled, user-only counting event of the generic hardware
 * event @config on this thread: on Intel it holds that event's fixed
 * counter, so that another one of the same event takes a general-purpose
 * counter.
 */
static int open_blocker(__u64 config)
{
	struct perf_event_attr attr;

	attr_hw(&attr, PERF_TYPE_HARDWARE, config);
	attr.disabled = 0;
	attr.pinned = 1;
	attr.exclude_kernel = 1;
	return sys_perf_event_open(&attr, 0, -1, -1, 0);
}

/*
 * Overflow samples come exactly every P instructions: with the loop
 * body's 4 instructions and P = 4k + 1, each sample's IP is one
 * instruction further round the loop than the one before.  Checked on a
 * general-purpose counter, and on Intel also on fixed counter 0 (a
 * pinned counting event takes it first to push the sampler off it).
 */
static int loop_position(__u64 ip)
{
	static const unsigned int offset[LOOP_K] = { 0, 1, 2, 5 };
	int i;

	for (i = 0; i < LOOP_K; i++)
		if (ip == (unsigned long)hwc_loop_body + offset[i])
			return i;
	return -1;
}

TEST(x86_sample_every_period)
{
	const __u64 period = 100001;
	const unsigned long m = 20;
	struct sample_stats st;
	struct perf_rb rb;
	unsigned long i, steps, bad_steps, out;
	int fd, blocker, pass, fixed, pos, prev;

	X86_REQUIRE();
	NOT_ON_DEBUG_KERNEL();
	for (pass = 0; pass < (pmu->fixed_counters ? 2 : 1); pass++) {
		blocker = -1;
		if (pass) {
			blocker = open_blocker(PERF_COUNT_HW_INSTRUCTIONS);
			ASSERT_GE(blocker, 0);
		}
		fd = sample_over_loop(PERF_COUNT_HW_INSTRUCTIONS, period,
				      m * period / LOOP_K, &rb, &fixed);
		ASSERT_GE(fd, 0);

		EXPECT_EQ(pmu->fixed_counters && !pass, fixed);
		tally_samples(&rb, period, &st);
		steps = 0;
		bad_steps = 0;
		out = 0;
		prev = -1;
		for (i = 0; i < st.samples && i < SAMPLE_IPS; i++) {
			pos = loop_position(st.ip[i]);
			if (pos < 0)
				out++;
			else if (prev >= 0 &&
				 (pos - prev + LOOP_K) % LOOP_K != period % LOOP_K)
				bad_steps++;
			else if (prev >= 0)
				steps++;
			prev = pos;
		}
		EXPECT_GE(st.samples, m - 1);
		EXPECT_LE(st.samples, m + 1);
		EXPECT_EQ(0, st.bad_period);
		/* Only a sample in the enable/disable wrappers may be out. */
		EXPECT_LE(out, 1);
		EXPECT_GE(steps, m - 3);
		EXPECT_EQ(0, bad_steps)
			TH_LOG("%s counter: %lu samples, steps %lu right %lu wrong, %lu IPs out",
			       fixed ? "fixed" : "GP", st.samples, steps,
			       bad_steps, out);
		perf_rb_unmap(&rb);
		close(fd);
		if (blocker >= 0)
			close(blocker);
	}
}

/*
 * A sample period longer than 2^31 on a general-purpose counter: one
 * sample, after exactly that many cycles.  Without full-width writes
 * (IA32_PERF_CAPABILITIES[13] clear: parts before Ivy Bridge, and our
 * intel model, pmu-full-width=off) a counter is loaded through the
 * legacy IA32_PMCx, which takes bits 31:0 and sign-extends bit 31, so a
 * driver must split such a period into loads below 2^31: loaded with
 * -P in one go, the counter would read as a small positive number and
 * take 2^48 counts to overflow, and the sample would never come.  The
 * period is in cycles (two per instruction on the model), so that 1.6
 * billion instructions cover one and a half periods; on Intel a pinned
 * cycles event holds fixed counter 1, so that the sampler takes a
 * general-purpose counter.
 */
TEST(x86_sample_period_above_31_bits)
{
	const __u64 period = (1ULL << 31) + (1ULL << 24);
	struct sample_stats st;
	int fd, blocker = -1, fixed;
	struct perf_rb rb;

	X86_REQUIRE();
	NOT_ON_DEBUG_KERNEL();
	if (pmu->fixed_counters >= 2) {
		blocker = open_blocker(PERF_COUNT_HW_CPU_CYCLES);
		ASSERT_GE(blocker, 0);
	}
	fd = sample_over_loop(PERF_COUNT_HW_CPU_CYCLES, period,
			      3 * period / (2 * LOOP_K * pmu->cycles_per_insn),
			      &rb, &fixed);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, fixed);

	tally_samples(&rb, period, &st);
	EXPECT_EQ(1, st.samples)
		TH_LOG("%lu samples of period %llu in 1.5 periods", st.samples,
		       (unsigned long long)period);
	EXPECT_EQ(0, st.bad_period);
	perf_rb_unmap(&rb);
	close(fd);
	if (blocker >= 0)
		close(blocker);
}

/*
 * More instruction events than counters (twice as many), rotated every
 * perf_event_mux_interval_ms over ~25 intervals of user loop: each one
 * runs part of the time, and count * enabled / running is within 1% of
 * the loop's exact count.
 */
TEST(x86_multiplex_scaled_1pct)
{
	struct read_one r[2 * HW_MAX_COUNTERS];
	double err, worst = 0;
	unsigned long n;
	int i, nev, partial = 0;
	__u64 truth = 0;

	X86_REQUIRE();
	NOT_ON_DEBUG_KERNEL();
	nev = 2 * pmu->insn_counters;
	ASSERT_LE(nev, 2 * HW_MAX_COUNTERS);
	n = hw_multiplex_loop(nev, 25, r, &truth);
	ASSERT_NE(0, n);
	ASSERT_GE(truth, LOOP_K * n);
	ASSERT_LT(truth, LOOP_K * n + 1000);

	for (i = 0; i < nev; i++) {
		EXPECT_GT(r[i].running, 0) TH_LOG("event %d never ran", i);
		EXPECT_LE(r[i].running, r[i].enabled);
		if (r[i].running < r[i].enabled)
			partial++;
		if (!r[i].running)
			continue;
		err = hw_scaled_error(&r[i], truth);
		if (err > worst)
			worst = err;
		EXPECT_LT(err, truth / 100.0)
			TH_LOG("event %d: %llu enabled %llu running %llu, truth %llu",
			       i, r[i].value, r[i].enabled, r[i].running,
			       truth);
	}
	EXPECT_GE(partial, nev - pmu->insn_counters)
		TH_LOG("%d of %d events multiplexed, worst error %.3f%%",
		       partial, nev, 100.0 * worst / truth);
}

/*
 * RDPMC through the mmap page: with the event on the PMU the page has
 * cap_user_rdpmc, an index and the counters' width (CPUID's), and the
 * seqlock read (offset + the sign-extended counter) is what read()
 * returns a few instructions later (the same number every time), and
 * counts exactly the loop run between two such reads.  Once the event
 * is off the PMU the index is 0 and offset alone is the count.  Both
 * for a generic event (Intel: fixed counter 0) and a raw one beside it
 * (a general-purpose counter).
 */
TEST(x86_rdpmc_mmap_matches_read)
{
	const unsigned long n1 = 10000, n2 = 110000;
	struct perf_event_mmap_page *up[2];
	__u64 s, v, d, d0, c1, c2;
	int fd[2], e, i;
	__u32 idx;

	X86_REQUIRE();
	fd[0] = open_hw_user(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
			     1, -1);
	ASSERT_GE(fd[0], 0);
	fd[1] = open_hw_user(PERF_TYPE_RAW, pmu->raw_instructions, 0, fd[0]);
	ASSERT_GE(fd[1], 0);
	for (e = 0; e < 2; e++) {
		up[e] = map_user_page(fd[e]);
		ASSERT_NE(NULL, up[e]);
	}

	hwc_loop(1000);
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	for (e = 0; e < 2; e++) {
		EXPECT_EQ(1, (int)up[e]->cap_user_rdpmc);
		EXPECT_EQ(pmu->width, up[e]->pmc_width);
		EXPECT_NE(0, up[e]->index);
		EXPECT_EQ(pmu->fixed_counters && !e, on_fixed(up[e]));

		d0 = ~0ULL;
		for (i = 0; i < 5; i++) {
			s = user_page_read(up[e], &idx);
			ASSERT_EQ(0, read_count(fd[e], &v));
			EXPECT_NE(0, idx);
			d = v - s;
			EXPECT_LT(d, 200) TH_LOG("rdpmc %llu read %llu", s, v);
			if (i == 0)
				d0 = d;
			EXPECT_EQ(d0, d);
		}
		c1 = rdpmc_loop(up[e], n1);
		c2 = rdpmc_loop(up[e], n2);
		EXPECT_GE(c1, LOOP_K * n1);
		EXPECT_LT(c1, LOOP_K * n1 + 100);
		EXPECT_EQ(LOOP_K * (n2 - n1), c2 - c1)
			TH_LOG("event %d: index %#x, loops %llu %llu", e,
			       up[e]->index, c1, c2);
	}
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (e = 0; e < 2; e++) {
		s = user_page_read(up[e], &idx);
		ASSERT_EQ(0, read_count(fd[e], &v));
		EXPECT_EQ(0, idx);
		EXPECT_EQ(v, s);
		EXPECT_GE(v, LOOP_K * (n1 + n2));
	}
	for (e = 1; e >= 0; e--) {
		munmap(up[e], page_sz());
		close(fd[e]);
	}
}

/*
 * The "cpu" PMU's sysfs directory, as stock's x86 drivers fill it on the
 * CPU the test runs on.  perf(1) builds its event parser from format/,
 * lists and resolves events/ (and skips what is absent there), and reads
 * caps/ and rdpmc; every string below is what stock 6.12 prints, and
 * which files exist follows from CPUID the way stock's init code decides
 * it (arch/x86/events/{core,intel/core,amd/core}.c):
 *
 *  - Intel outside family 6 takes intel_pmu_init()'s generic path: the
 *    architectural event map, each event hidden when CPUID.0AH EBX marks
 *    it unavailable (ref-cycles, a pseudo-encoding for fixed counter 2,
 *    never is); format "any" (AnyThread) from version 2 unless v5+ says
 *    it is deprecated; caps/pmu_name "generic_arch_v1", "_v2+" or "_v5+";
 *    freeze_on_smi, 1 by default from version 2 (intel_pmu's template).
 *  - AMD: the Fam17h+ core driver, whose format "event" has the extended
 *    bits 32-35, no "pc" and no "any"; the Zen1 event map; no pmu_name
 *    and no freeze_on_smi.
 *
 * Family 6 Intel models get model-specific formats, events and caps
 * (offcore_rsp, mem-loads, topdown, LBR), and other AMD generations
 * other event maps: those are not pinned here and the test skips, as it
 * does with PEBS (DS) or LBR in CPUID, which add caps and move
 * max_precise; but Skylake's are, PEBS included (format 3: max_precise
 * 3, perf mem's mem-loads and mem-stores).  Our QEMU's intel, amd and
 * intel-skl models are on the pinned paths.
 */
#define X86_SYSFS_MAX	20

struct sysfs_kv {
	const char *name, *value;	/* value without the trailing newline */
	int bare;			/* ...which this file does not have */
};

struct x86_cpu_sysfs {
	struct sysfs_kv format[X86_SYSFS_MAX];
	struct sysfs_kv events[X86_SYSFS_MAX];
	struct sysfs_kv caps[X86_SYSFS_MAX];
	const char *freeze_on_smi;	/* NULL: no such file */
	const char *allow_tfa;		/* allow_tsx_force_abort, likewise */
	bool pebs;			/* PEBS: caps read with an event open */
};

static inline void kv_add(struct sysfs_kv *kv, const char *name, const char *value)
{
	while (kv->name)
		kv++;
	kv->name = name;
	kv->value = value;
}

static inline void kv_add_bare(struct sysfs_kv *kv, const char *name,
			       const char *value)
{
	kv_add(kv, name, value);
	while (kv[1].name)
		kv++;
	kv->bare = 1;
}

static inline int kv_count(const struct sysfs_kv *kv)
{
	int n = 0;

	while (kv[n].name)
		n++;
	return n;
}

#if defined(__x86_64__)
#define CPUID_1_EDX_DS			(1U << 21)
#define CPUID_7_EDX_ARCH_LBR		(1U << 19)
#define CPUID_7_EDX_RTM_ALWAYS_ABORT	(1U << 11)
#define CPUID_7_EDX_TSX_FORCE_ABORT	(1U << 13)
#define CPUID_0A_MASK_LENGTH(eax)	(((eax) >> 24) & 0xff)
#define CPUID_0A_EDX_ANYTHREAD_DEPR	(1U << 15)
#define CPUID_80000022_EAX_LBR_V2	(1U << 1)
#define CPUID_80000001_ECX_IBS		0x400	/* bit 10 */
#define CPUID_7_EBX_RTM			0x800	/* bit 11 */

static const unsigned int skl_models[] = {
	0x4e, 0x5e, 0x55, 0x8e, 0x9e, 0xa5, 0xa6, 0
};

static int model_in(const unsigned int *models, unsigned int model)
{
	for (; *models; models++)
		if (*models == model)
			return 1;
	return 0;
}

/* Does CPU 0 share its core with another thread? */
static int cpu0_has_siblings(void)
{
	char buf[64] = "";
	FILE *f;

	f = fopen("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
		  "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return !!strpbrk(buf, ",-");
}

/* CPUID.01H's display family and model, as the kernel computes them. */
static void x86_family_model(unsigned int *family, unsigned int *model)
{
	unsigned int eax, ebx, ecx, edx;

	__cpuid(1, eax, ebx, ecx, edx);
	*family = (eax >> 8) & 0xf;
	*model = (eax >> 4) & 0xf;
	if (*family == 0xf)
		*family += (eax >> 20) & 0xff;
	if (*family >= 6)
		*model += ((eax >> 16) & 0xf) << 4;
}

/*
 * A Skylake whose microcode may take counter 3 for TSX: stock then has
 * cpu/allow_tsx_force_abort (x86_tsx_force_abort).
 */
static int x86_skl_tsx_force_abort(void)
{
	unsigned int eax, ebx, ecx, edx, family, model;

	x86_family_model(&family, &model);
	if (family != 6 || !model_in(skl_models, model))
		return 0;
	__cpuid_count(7, 0, eax, ebx, ecx, edx);
	return (edx & CPUID_7_EDX_TSX_FORCE_ABORT) &&
	       !(edx & CPUID_7_EDX_RTM_ALWAYS_ABORT);
}

/*
 * Fill *x for this CPU; NULL, or why stock's content is not pinned for
 * it.  Only called once X86_REQUIRE() has seen counters in CPUID.
 */
static const char *x86_cpu_sysfs_expect(struct x86_cpu_sysfs *x)
{
	/* intel_perfmon_event_map[], with the CPUID.0AH EBX bit of each. */
	static const struct { const char *name, *value; int ebx_bit; }
	intel_events[] = {
		{ "cpu-cycles", "event=0x3c", 0 },
		{ "instructions", "event=0xc0", 1 },
		{ "cache-references", "event=0x2e,umask=0x4f", 3 },
		{ "cache-misses", "event=0x2e,umask=0x41", 4 },
		{ "branch-instructions", "event=0xc4", 5 },
		{ "branch-misses", "event=0xc5", 6 },
		{ "bus-cycles", "event=0x3c,umask=0x01", 2 },
		{ "ref-cycles", "event=0x00,umask=0x03", -1 },
	};
	static const struct sysfs_kv zen1_events[] = {
		{ "cpu-cycles", "event=0x76" },
		{ "instructions", "event=0xc0" },
		{ "cache-references", "event=0x60,umask=0xff" },
		{ "cache-misses", "event=0x64,umask=0x09" },
		{ "branch-instructions", "event=0xc2" },
		{ "branch-misses", "event=0xc3" },
		{ "stalled-cycles-frontend", "event=0x87,umask=0x02" },
		{ "stalled-cycles-backend", "event=0x87,umask=0x01" },
	};
	/*
	 * Skylake's top-down events, one thread per core.  The ones that
	 * read otherwise with SMT (AnyThread) have no newline.
	 */
	static const struct sysfs_kv skl_topdown[] = {
		{ "topdown-total-slots", "event=0x3c,umask=0x0", 1 },
		{ "topdown-total-slots.scale", "4", 1 },
		{ "topdown-slots-issued", "event=0xe,umask=0x1" },
		{ "topdown-slots-retired", "event=0xc2,umask=0x2" },
		{ "topdown-fetch-bubbles", "event=0x9c,umask=0x1" },
		{ "topdown-recovery-bubbles", "event=0xd,umask=0x1,cmask=1", 1 },
		{ "topdown-recovery-bubbles.scale", "4", 1 },
	};
	unsigned int eax, ebx, ecx, edx, family, model, version, i;
	int skl;

	memset(x, 0, sizeof(*x));
	x86_family_model(&family, &model);

	/* hw_pmu_probe() gave Intel 0x3c for cycles, AMD 0x76. */
	if (pmu->raw_cycles == 0x003c) {
		skl = family == 6 && model_in(skl_models, model);
		if (family == 6 && !skl)
			return "Intel family 6: stock's model-specific tables";
		__cpuid_count(7, 0, eax, ebx, ecx, edx);
		if (skl && (ebx & CPUID_7_EBX_RTM))
			return "RTM in CPUID: Skylake's TSX events not pinned";
		if (skl && cpu0_has_siblings())
			return "SMT: Skylake's AnyThread top-down forms not pinned";
		/*
		 * PEBS (the debug store in CPUID) on a Skylake: stock's
		 * format 3 path, precise distribution and perf mem's
		 * events (max_precise read with a hardware event open:
		 * stock says 0 until one took the debug store).
		 */
		__cpuid(1, eax, ebx, ecx, edx);
		if ((edx & CPUID_1_EDX_DS) && !skl)
			return "DS in CPUID: PEBS moves max_precise, adds events";
		x->pebs = edx & CPUID_1_EDX_DS;
		kv_add(x->caps, "max_precise", x->pebs ? "3" : "0");
		if (x->pebs) {
			kv_add(x->events, "mem-loads",
			       "event=0xcd,umask=0x1,ldlat=3");
			kv_add(x->events, "mem-stores", "event=0xd0,umask=0x82");
		}
		__cpuid_count(7, 0, eax, ebx, ecx, edx);
		if (edx & CPUID_7_EDX_ARCH_LBR)
			return "Arch LBR in CPUID: caps/branches not pinned";
		if (skl && x86_skl_tsx_force_abort())
			x->allow_tfa = "1";
		/* Every Skylake has 32 last branch records (LBR_INFO) */
		if (skl)
			kv_add(x->caps, "branches", "32");
		__cpuid(0xa, eax, ebx, ecx, edx);
		version = CPUID_0A_VERSION(eax);
		if (version >= 6)
			return "perfmon v6+: umask2/eq formats not pinned";
		/* Fewer than 7 architectural events: no driver at all. */
		if (CPUID_0A_MASK_LENGTH(eax) < 7)
			return "CPUID.0AH mask length < 7: no cpu PMU at all";

		kv_add(x->format, "event", "config:0-7");
		kv_add(x->format, "umask", "config:8-15");
		kv_add(x->format, "edge", "config:18");
		kv_add(x->format, "pc", "config:19");
		if (version >= 2 &&
		    !(version >= 5 && (edx & CPUID_0A_EDX_ANYTHREAD_DEPR)))
			kv_add(x->format, "any", "config:21");
		kv_add(x->format, "inv", "config:23");
		kv_add(x->format, "cmask", "config:24-31");
		if (skl) {
			/* The extra registers' selections. */
			kv_add(x->format, "offcore_rsp", "config1:0-63");
			kv_add(x->format, "ldlat", "config1:0-15");
			kv_add(x->format, "frontend", "config1:0-23");
			for (i = 0; i < ARRAY_SIZE(skl_topdown); i++)
				(skl_topdown[i].bare ? kv_add_bare : kv_add)
					(x->events, skl_topdown[i].name,
					 skl_topdown[i].value);
		}

		for (i = 0; i < ARRAY_SIZE(intel_events); i++) {
			if (intel_events[i].ebx_bit >= 0 &&
			    (ebx & (1U << intel_events[i].ebx_bit)))
				continue;
			kv_add(x->events, intel_events[i].name,
			       intel_events[i].value);
		}
		kv_add(x->caps, "pmu_name", skl ? "skylake" :
			version == 1 ? "generic_arch_v1" :
			version < 5 ? "generic_arch_v2+" : "generic_arch_v5+");
		x->freeze_on_smi = version >= 2 ? "1" : "0";
		return NULL;
	}

	/* AMD: X86_REQUIRE() found PerfCtrExtCore. */
	/* X86_FEATURE_ZEN1 (arch/x86/kernel/cpu/amd.c) picks the map. */
	if (family != 0x17 ||
	    !(model <= 0x2f || (model >= 0x50 && model <= 0x5f)))
		return "AMD other than Zen1: another event map";
	if (__get_cpuid_max(0x80000000, NULL) >= 0x80000022) {
		__cpuid(0x80000022, eax, ebx, ecx, edx);
		if (eax & CPUID_80000022_EAX_LBR_V2)
			return "AMD LbrExtV2 in CPUID: caps/branches not pinned";
	}
	/* No IBS on this path: nothing is precise. */
	kv_add(x->caps, "max_precise", "0");
	kv_add(x->format, "event", "config:0-7,32-35");
	kv_add(x->format, "umask", "config:8-15");
	kv_add(x->format, "edge", "config:18");
	kv_add(x->format, "inv", "config:23");
	kv_add(x->format, "cmask", "config:24-31");
	for (i = 0; i < ARRAY_SIZE(zen1_events); i++)
		kv_add(x->events, zen1_events[i].name, zen1_events[i].value);
	return NULL;
}
#else
static const char *x86_cpu_sysfs_expect(struct x86_cpu_sysfs *x)
{
	return "x86-only";
}
#endif

#define CPU_PMU_DIR	EVENT_SOURCE "/cpu"

/* Write s to path: 0, or the errno of the failing open or write. */
static int write_errno(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC), err;
	ssize_t n;

	if (fd < 0)
		return errno;
	n = write(fd, s, strlen(s));
	err = n < 0 ? errno : (n == (ssize_t)strlen(s) ? 0 : EIO);
	close(fd);
	return err;
}

/* A file of the cpu PMU, without its trailing newline; NULL if unreadable. */
/* A file's content less its newline; NULL if unreadable or without. */
static const char *cpu_pmu_read_as(const char *file, char *buf, size_t len,
				   int bare)
{
	char path[256];
	int n;

	snprintf(path, sizeof(path), CPU_PMU_DIR "/%s", file);
	n = read_file(path, buf, len);
	if (n < 0 || (!bare && (n == 0 || buf[n - 1] != '\n')))
		return NULL;
	if (!bare)
		buf[n - 1] = '\0';
	return buf;
}

static const char *cpu_pmu_read(const char *file, char *buf, size_t len)
{
	return cpu_pmu_read_as(file, buf, len, 0);
}

/* The current value of rdpmc or freeze_on_smi, "?" if unreadable. */
#define RDPMC_NOW(buf)	(cpu_pmu_read("rdpmc", buf, sizeof(buf)) ?: "?")
#define SMI_NOW(buf)	\
	(cpu_pmu_read("freeze_on_smi", buf, sizeof(buf)) ?: "?")

static int cpu_pmu_mode(const char *file)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), CPU_PMU_DIR "/%s", file);
	return stat(path, &st) ? -1 : (int)(st.st_mode & 07777);
}

/*
 * dir (format, events, caps) holds exactly the files of kv, each 0444
 * and reading value plus a newline (just value where kv says bare).
 */
static void expect_cpu_pmu_dir(struct __test_metadata *_metadata,
			       const char *dir, const struct sysfs_kv *kv)
{
	char path[256], buf[256], file[128];
	struct dirent *de;
	int i, n = 0;
	DIR *d;

	snprintf(path, sizeof(path), CPU_PMU_DIR "/%s", dir);
	d = opendir(path);
	ASSERT_NE(NULL, d) TH_LOG("%s: %s", path, strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		for (i = 0; kv[i].name; i++)
			if (!strcmp(kv[i].name, de->d_name))
				break;
		EXPECT_NE(NULL, kv[i].name)
			TH_LOG("%s/%s: stock has no such file here", dir,
			       de->d_name);
	}
	closedir(d);
	EXPECT_EQ(kv_count(kv), n) TH_LOG("%s/ has %d files", dir, n);
	for (i = 0; kv[i].name; i++) {
		snprintf(file, sizeof(file), "%s/%s", dir, kv[i].name);
		if (!cpu_pmu_read_as(file, buf, sizeof(buf), kv[i].bare)) {
			EXPECT_TRUE(0) TH_LOG("%s missing or without newline",
					      file);
			continue;
		}
		EXPECT_STREQ(kv[i].value, buf) TH_LOG("%s", file);
		EXPECT_EQ(0444, cpu_pmu_mode(file)) TH_LOG("%s", file);
	}
}

/*
 * cap_user_rdpmc of a user instructions event opened now: the driver
 * decides at event init from the rdpmc setting of the moment.  -1 on
 * failure.
 */
static int new_event_user_rdpmc(void)
{
	struct perf_event_mmap_page *up;
	int fd, cap;

	fd = open_hw_user(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1,
			  -1);
	if (fd < 0)
		return -1;
	up = map_user_page(fd);
	if (!up) {
		close(fd);
		return -1;
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	cap = up->cap_user_rdpmc;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap(up, page_sz());
	close(fd);
	return cap;
}

/*
 * The cpu PMU's sysfs content (see above), and its rdpmc file: root-only
 * (0600), "1" at boot (RDPMC for self-monitoring events that are
 * mmapped), and it takes 0 (never: cap_user_rdpmc is 0 for new events),
 * 1 and 2 (always, even without an event), parsed by kstrtoul() base 0;
 * anything above 2 is EINVAL, an unparsable value kstrtoul's EINVAL or
 * ERANGE, and the setting is left as it was.  Intel's freeze_on_smi
 * likewise takes 0 and 1 only.  Between the first write and the restore
 * there are EXPECTs only, so the defaults always come back.
 */
TEST(x86_cpu_pmu_sysfs)
{
	static const char *const top[] = {
		"caps", "events", "format", "perf_event_mux_interval_ms",
		"rdpmc", "subsystem", "type", "uevent",
	};
	const char *rdpmc = CPU_PMU_DIR "/rdpmc";
	const char *smi = CPU_PMU_DIR "/freeze_on_smi";
	struct x86_cpu_sysfs x;
	struct dirent *de;
	const char *why;
	char buf[64], smi_saved[64];
	int i, n, known, hold;
	DIR *d;

	X86_REQUIRE();
	why = x86_cpu_sysfs_expect(&x);
	if (why)
		SKIP(return, "stock's cpu PMU sysfs not pinned here: %s", why);

	/*
	 * Nothing beside the common PMU files but rdpmc (and Intel's SMI
	 * freeze and TSX force-abort knobs, x86_tsx_force_abort's).
	 */
	d = opendir(CPU_PMU_DIR);
	ASSERT_NE(NULL, d) TH_LOG("no cpu PMU in sysfs");
	n = 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		known = x.freeze_on_smi && !strcmp(de->d_name, "freeze_on_smi");
		known |= x.allow_tfa &&
			 !strcmp(de->d_name, "allow_tsx_force_abort");
		for (i = 0; i < (int)ARRAY_SIZE(top); i++)
			known |= !strcmp(top[i], de->d_name);
		EXPECT_TRUE(known) TH_LOG("cpu/%s: stock has no such file",
					  de->d_name);
	}
	closedir(d);
	EXPECT_EQ((int)ARRAY_SIZE(top) + !!x.freeze_on_smi + !!x.allow_tfa, n);
	if (x.allow_tfa) {
		EXPECT_EQ(0644, cpu_pmu_mode("allow_tsx_force_abort"));
		ASSERT_NE(NULL, cpu_pmu_read("allow_tsx_force_abort", buf,
					     sizeof(buf)));
		EXPECT_STREQ(x.allow_tfa, buf);
		EXPECT_EQ(EINVAL, write_errno(CPU_PMU_DIR
					      "/allow_tsx_force_abort", "2"));
	}
	ASSERT_NE(NULL, cpu_pmu_read("type", buf, sizeof(buf)));
	EXPECT_STREQ("4", buf);		/* PERF_TYPE_RAW */

	expect_cpu_pmu_dir(_metadata, "format", x.format);
	expect_cpu_pmu_dir(_metadata, "events", x.events);
	hold = -1;
	if (x.pebs) {
		hold = open_hw_user(PERF_TYPE_HARDWARE,
				    PERF_COUNT_HW_INSTRUCTIONS, 1, -1);
		ASSERT_LE(0, hold) TH_LOG("instructions: %s", strerror(errno));
	}
	expect_cpu_pmu_dir(_metadata, "caps", x.caps);
	if (hold >= 0)
		close(hold);

	EXPECT_EQ(0600, cpu_pmu_mode("rdpmc"));
	ASSERT_NE(NULL, cpu_pmu_read("rdpmc", buf, sizeof(buf)));
	ASSERT_STREQ("1", buf);
	ASSERT_EQ(1, new_event_user_rdpmc());

	EXPECT_EQ(0, write_errno(rdpmc, "0"));
	EXPECT_STREQ("0", RDPMC_NOW(buf));
	EXPECT_EQ(0, new_event_user_rdpmc());
	EXPECT_EQ(0, write_errno(rdpmc, "2"));
	EXPECT_STREQ("2", RDPMC_NOW(buf));
	EXPECT_EQ(1, new_event_user_rdpmc());
	EXPECT_EQ(0, write_errno(rdpmc, "1"));
	EXPECT_STREQ("1", RDPMC_NOW(buf));
	EXPECT_EQ(0, write_errno(rdpmc, "0x2"));
	EXPECT_STREQ("2", RDPMC_NOW(buf));
	EXPECT_EQ(EINVAL, write_errno(rdpmc, "3"));
	EXPECT_EQ(EINVAL, write_errno(rdpmc, "-1"));
	EXPECT_EQ(EINVAL, write_errno(rdpmc, "one"));
	EXPECT_EQ(ERANGE, write_errno(rdpmc, "18446744073709551616"));
	EXPECT_STREQ("2", RDPMC_NOW(buf));

	if (x.freeze_on_smi &&
	    cpu_pmu_read("freeze_on_smi", smi_saved, sizeof(smi_saved))) {
		EXPECT_EQ(0644, cpu_pmu_mode("freeze_on_smi"));
		EXPECT_STREQ(x.freeze_on_smi, smi_saved);
		EXPECT_EQ(0, write_errno(smi, "0"));
		EXPECT_STREQ("0", SMI_NOW(buf));
		EXPECT_EQ(0, write_errno(smi, "1"));
		EXPECT_STREQ("1", SMI_NOW(buf));
		EXPECT_EQ(EINVAL, write_errno(smi, "2"));
		EXPECT_STREQ("1", SMI_NOW(buf));
		EXPECT_EQ(0, write_errno(smi, smi_saved));
	} else if (x.freeze_on_smi) {
		EXPECT_TRUE(0) TH_LOG("freeze_on_smi unreadable");
	}

	EXPECT_EQ(0, write_errno(rdpmc, "1"));
	ASSERT_STREQ("1", RDPMC_NOW(buf));
}

/*
 * precise_ip needs PEBS (Intel: the debug store, CPUID.01H EDX[21]) or
 * IBS (AMD: CPUID 8000_0001h ECX[10]), to which AMD's driver hands
 * precise events.  Without either, cycles:p, :pp and :ppp are refused
 * with EOPNOTSUPP, as stock refuses them.
 */
TEST(x86_precise_needs_pebs_or_ibs)
{
#if defined(__x86_64__)
	unsigned int eax, ebx, ecx, edx;
	struct perf_event_attr attr;
	int level, fd;

	X86_REQUIRE();
	__cpuid(1, eax, ebx, ecx, edx);
	if (edx & CPUID_1_EDX_DS)
		SKIP(return, "DS in CPUID: PEBS may take precise events");
	__cpuid(0x80000000, eax, ebx, ecx, edx);
	if (eax >= 0x80000001) {
		__cpuid(0x80000001, eax, ebx, ecx, edx);
		if (ecx & CPUID_80000001_ECX_IBS)
			SKIP(return, "IBS in CPUID: precise events go to IBS");
	}
	for (level = 1; level <= 3; level++) {
		attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		attr.precise_ip = level;
		attr.sample_period = 100000;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		EXPECT_EQ(-1, fd)
			TH_LOG("precise_ip %d opened", level);
		EXPECT_EQ(EOPNOTSUPP, errno)
			TH_LOG("precise_ip %d: %s", level, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
#else
	SKIP(return, "x86-only case");
#endif
}

#if defined(__x86_64__)
#define CACHE_ID(c, o, r)	((c) | (o) << 8 | (r) << 16)
#define CACHE(c, o, r)		CACHE_ID(PERF_COUNT_HW_CACHE_##c,	\
					 PERF_COUNT_HW_CACHE_OP_##o,	\
					 PERF_COUNT_HW_CACHE_RESULT_##r)

struct cache_code {
	__u32 id;
	__u64 code;
	__u64 config1;	/* Intel: the off-core response selection */
};

/* Stock 6.12's AMD tables: families 10h-16h, and 17h on. */
static const struct cache_code amd_pre_zen_cache[] = {
	{ CACHE(L1D, READ, ACCESS), 0x0040 },
	{ CACHE(L1D, READ, MISS), 0x0141 },
	{ CACHE(L1D, PREFETCH, ACCESS), 0x0267 },
	{ CACHE(L1D, PREFETCH, MISS), 0x0167 },
	{ CACHE(L1I, READ, ACCESS), 0x0080 },
	{ CACHE(L1I, READ, MISS), 0x0081 },
	{ CACHE(L1I, PREFETCH, ACCESS), 0x014b },
	{ CACHE(LL, READ, ACCESS), 0x037d },
	{ CACHE(LL, READ, MISS), 0x037e },
	{ CACHE(LL, WRITE, ACCESS), 0x017f },
	{ CACHE(DTLB, READ, ACCESS), 0x0040 },
	{ CACHE(DTLB, READ, MISS), 0x0746 },
	{ CACHE(ITLB, READ, ACCESS), 0x0080 },
	{ CACHE(ITLB, READ, MISS), 0x0385 },
	{ CACHE(BPU, READ, ACCESS), 0x00c2 },
	{ CACHE(BPU, READ, MISS), 0x00c3 },
	{ CACHE(NODE, READ, ACCESS), 0xb8e9 },
	{ CACHE(NODE, READ, MISS), 0x98e9 },
	{ 0, 0 }
};

static const struct cache_code amd_zen_cache[] = {
	{ CACHE(L1D, READ, ACCESS), 0x0040 },
	{ CACHE(L1D, READ, MISS), 0xc860 },
	{ CACHE(L1D, PREFETCH, ACCESS), 0xff5a },
	{ CACHE(L1I, READ, ACCESS), 0x0080 },
	{ CACHE(L1I, READ, MISS), 0x0081 },
	{ CACHE(DTLB, READ, ACCESS), 0xff45 },
	{ CACHE(DTLB, READ, MISS), 0xf045 },
	{ CACHE(ITLB, READ, ACCESS), 0x0084 },
	{ CACHE(ITLB, READ, MISS), 0xff85 },
	{ CACHE(BPU, READ, ACCESS), 0x00c2 },
	{ CACHE(BPU, READ, MISS), 0x00c3 },
	{ 0, 0 }
};

/*
 * Stock 6.12's Skylake table (family 6 models 4e, 5e, 55, 8e, 9e, a5,
 * a6).  The last level and the node are counted by the off-core response
 * event, 0x01b7, with the response selected in MSR_OFFCORE_RSP_0: demand
 * reads (bit 0) or RFOs (bit 1); any response (16) and any snoop (30-37)
 * for an access, a miss of L3 (26-29) or no supplier (17) for a miss;
 * local DRAM (26) or a remote one (27-29) with the DRAM snoops (30-36)
 * at the node.
 */
static const struct cache_code skl_cache[] = {
	{ CACHE(L1D, READ, ACCESS), 0x81d0 },	/* MEM_INST_RETIRED.ALL_LOADS */
	{ CACHE(L1D, READ, MISS), 0x0151 },	/* L1D.REPLACEMENT */
	{ CACHE(L1D, WRITE, ACCESS), 0x82d0 },	/* MEM_INST_RETIRED.ALL_STORES */
	{ CACHE(L1I, READ, MISS), 0x0283 },	/* ICACHE_64B.MISS */
	{ CACHE(LL, READ, ACCESS), 0x01b7, 0x3fc0010001 },
	{ CACHE(LL, READ, MISS), 0x01b7, 0x3ffc020001 },
	{ CACHE(LL, WRITE, ACCESS), 0x01b7, 0x3fc0010002 },
	{ CACHE(LL, WRITE, MISS), 0x01b7, 0x3ffc020002 },
	{ CACHE(DTLB, READ, ACCESS), 0x81d0 },
	{ CACHE(DTLB, READ, MISS), 0x0e08 },	/* DTLB_LOAD_MISSES.WALK_COMPLETED */
	{ CACHE(DTLB, WRITE, ACCESS), 0x82d0 },
	{ CACHE(DTLB, WRITE, MISS), 0x0e49 },	/* DTLB_STORE_MISSES.WALK_COMPLETED */
	{ CACHE(ITLB, READ, ACCESS), 0x2085 },	/* ITLB_MISSES.STLB_HIT */
	{ CACHE(ITLB, READ, MISS), 0x0e85 },	/* ITLB_MISSES.WALK_COMPLETED */
	{ CACHE(BPU, READ, ACCESS), 0x00c4 },	/* BR_INST_RETIRED.ALL_BRANCHES */
	{ CACHE(BPU, READ, MISS), 0x00c5 },	/* BR_MISP_RETIRED.ALL_BRANCHES */
	{ CACHE(NODE, READ, ACCESS), 0x01b7, 0x1fc4000001 },
	{ CACHE(NODE, READ, MISS), 0x01b7, 0x1ff8000001 },
	{ CACHE(NODE, WRITE, ACCESS), 0x01b7, 0x1fc4000002 },
	{ CACHE(NODE, WRITE, MISS), 0x01b7, 0x1ff8000002 },
	{ 0, 0 }
};

/*
 * Operations a cache does not have (EINVAL, not ENOENT): writes to the
 * instruction side and the branch predictor, prefetches into the ITLB
 * and the predictor; on AMD also the node's writes and prefetches.
 */
static int cache_refused(int amd, int cache, int op)
{
	switch (cache) {
	case PERF_COUNT_HW_CACHE_L1I:
		return op == PERF_COUNT_HW_CACHE_OP_WRITE;
	case PERF_COUNT_HW_CACHE_NODE:
		return amd && op != PERF_COUNT_HW_CACHE_OP_READ;
	case PERF_COUNT_HW_CACHE_ITLB:
	case PERF_COUNT_HW_CACHE_BPU:
		return op != PERF_COUNT_HW_CACHE_OP_READ;
	}
	return 0;
}

static const struct cache_code *cache_find(const struct cache_code *t,
					   __u32 id)
{
	for (; t && t->code; t++)	/* L1D read access is id 0 */
		if (t->id == id)
			return t;
	return NULL;
}

/* A user-only raw event in @group_fd's group, enabled with it. */
static int open_raw_beside(__u64 config, __u64 config1, int group_fd)
{
	return open_hw_user_config1(PERF_TYPE_RAW, config, config1, 0,
				    group_fd);
}

#endif

/*
 * The generic cache events (PERF_TYPE_HW_CACHE: perf's L1-dcache-loads,
 * branch-loads and the like).  Each cache, operation and result is an
 * event of the CPU's table, an operation the cache does not have
 * (EINVAL), or absent (ENOENT); out of range is EINVAL.  Stock has tables
 * per family: AMD's before and from family 17h on, Intel's per family 6
 * model (Skylake's here: the intel-skl model), and none for an Intel CPU
 * outside family 6, which gets the architectural events alone (our other
 * Intel models).  On AMD family 15h the NODE events, northbridge ones,
 * are EINVAL: the core counters take none.  An event of the table
 * counts as its raw code does, with its off-core response selection
 * where it has one.
 */
TEST(x86_generic_cache_events)
{
#if defined(__x86_64__)
	static const __u64 out_of_range[] = {
		CACHE_ID(PERF_COUNT_HW_CACHE_MAX, 0, 0),
		CACHE_ID(0, PERF_COUNT_HW_CACHE_OP_MAX, 0),
		CACHE_ID(0, 0, PERF_COUNT_HW_CACHE_RESULT_MAX),
		0xff,
	};
	const struct cache_code *table = NULL, *e;
	unsigned int family, model, i;
	int amd, n, fd, raw;
	__u64 counts[2];

	X86_REQUIRE();
	x86_family_model(&family, &model);
	amd = pmu->raw_cycles != 0x003c;
	if (amd)
		table = family >= 0x17 ? amd_zen_cache : amd_pre_zen_cache;
	else if (family == 6 && model_in(skl_models, model))
		table = skl_cache;
	else if (family == 6)
		SKIP(return, "Intel family 6 model %#x: stock's table not pinned",
		     model);

	for (n = 0; n < PERF_COUNT_HW_CACHE_MAX * PERF_COUNT_HW_CACHE_OP_MAX *
			PERF_COUNT_HW_CACHE_RESULT_MAX; n++) {
		int cache = n / (PERF_COUNT_HW_CACHE_OP_MAX *
				 PERF_COUNT_HW_CACHE_RESULT_MAX);
		int op = n / PERF_COUNT_HW_CACHE_RESULT_MAX %
			 PERF_COUNT_HW_CACHE_OP_MAX;
		int result = n % PERF_COUNT_HW_CACHE_RESULT_MAX;
		__u32 id = CACHE_ID(cache, op, result);
		int want = 0;

		e = cache_find(table, id);
		if (!e)
			want = table && cache_refused(amd, cache, op) ?
			       EINVAL : ENOENT;
		/*
		 * Family 15h counts northbridge events (unit 0xe0, 0xf0:
		 * the NODE ones) on the NB PMU: the core counters refuse
		 * them (x86_amd_f15h_constraints).
		 */
		else if (amd && family == 0x15 && (e->code & 0xe0) == 0xe0)
			want = EINVAL;
		fd = open_hw_user(PERF_TYPE_HW_CACHE, id, 1, -1);
		if (want) {
			EXPECT_EQ(-1, fd)
				TH_LOG("cache %d op %d result %d opened", cache,
				       op, result);
			EXPECT_EQ(want, errno)
				TH_LOG("cache %d op %d result %d: %s, not %s",
				       cache, op, result, strerror(errno),
				       strerror(want));
			if (fd >= 0)
				close(fd);
			continue;
		}
		ASSERT_GE(fd, 0)
			TH_LOG("cache %d op %d result %d: %s", cache, op,
			       result, strerror(errno));
		/* Beside its raw code, it counts the same loop alike. */
		raw = open_raw_beside(e->code, e->config1, fd);
		ASSERT_GE(raw, 0)
			TH_LOG("raw %#llx: %s", (unsigned long long)e->code,
			       strerror(errno));
		counts[0] = count_loop(fd, 20000);
		ASSERT_EQ(sizeof(counts[1]), read(raw, &counts[1],
						  sizeof(counts[1])));
		EXPECT_EQ(counts[0], counts[1])
			TH_LOG("cache %d op %d result %d counted %llu, raw %#llx %llu",
			       cache, op, result,
			       (unsigned long long)counts[0],
			       (unsigned long long)e->code,
			       (unsigned long long)counts[1]);
		close(raw);
		close(fd);
	}
	for (i = 0; i < ARRAY_SIZE(out_of_range); i++) {
		fd = open_hw_user(PERF_TYPE_HW_CACHE, out_of_range[i], 1, -1);
		EXPECT_EQ(-1, fd);
		EXPECT_EQ(EINVAL, errno)
			TH_LOG("config %#llx: %s",
			       (unsigned long long)out_of_range[i],
			       strerror(errno));
		if (fd >= 0)
			close(fd);
	}
#else
	SKIP(return, "x86-only case");
#endif
}

/*
 * AMD family 17h on: an event that can count more than 15 per cycle
 * (Retired SSE/AVX FLOPs, event 0x03) takes an even counter and the odd
 * one after it, which counts the carries of the pair (the Merge event).
 * So at most half the counters hold such events, and each leaves one
 * counter fewer for the rest: a group fits exactly when twice its
 * paired events plus the others are at most the counters, and the
 * event that breaks that is refused with EINVAL.  Beside the paired
 * events, the others still count the same loop exactly.
 */
TEST(x86_amd_paired_counters)
{
#if defined(__x86_64__)
	enum { PAIRED = 0x03, MAX_GROUP = 16 };
	unsigned int family, model;
	int fd[MAX_GROUP], n, pairs, others, i, nfd;
	__u64 v[MAX_GROUP];

	X86_REQUIRE();
	x86_family_model(&family, &model);
	if (pmu->raw_cycles == 0x003c || family < 0x17)
		SKIP(return, "paired counters are AMD family 17h on");
	n = pmu->gp_counters;
	ASSERT_LT(n, MAX_GROUP);

	for (pairs = 0; pairs <= n / 2 + 1; pairs++) {
		nfd = 0;
		for (i = 0; i < pairs; i++) {
			fd[nfd] = open_hw_user(PERF_TYPE_RAW, PAIRED, !nfd,
					       nfd ? fd[0] : -1);
			if (fd[nfd] < 0)
				break;
			nfd++;
		}
		if (pairs > n / 2) {
			/* One pair too many: the last one is refused. */
			EXPECT_EQ(n / 2, nfd)
				TH_LOG("%d paired events in a group of %d counters",
				       nfd, n);
			EXPECT_EQ(EINVAL, errno);
			while (nfd--)
				close(fd[nfd]);
			continue;
		}
		ASSERT_EQ(pairs, nfd)
			TH_LOG("paired event %d: %s", nfd, strerror(errno));
		/* Instructions until the group is full. */
		for (others = 0; nfd < MAX_GROUP; others++) {
			fd[nfd] = open_hw_user(PERF_TYPE_HARDWARE,
					       PERF_COUNT_HW_INSTRUCTIONS, !nfd,
					       nfd ? fd[0] : -1);
			if (fd[nfd] < 0)
				break;
			nfd++;
		}
		EXPECT_EQ(n - 2 * pairs, others)
			TH_LOG("%d paired events leave room for %d others, not %d",
			       pairs, others, n - 2 * pairs);
		EXPECT_EQ(EINVAL, errno);

		run_loop_on(fd[0], 1, 100000);
		for (i = 0; i < nfd; i++)
			ASSERT_EQ(0, read_count(fd[i], &v[i]));
		for (i = pairs + 1; i < nfd; i++)
			EXPECT_EQ(v[pairs], v[i])
				TH_LOG("%d paired: instructions %llu and %llu",
				       pairs, v[pairs], v[i]);
		if (pairs < nfd)
			EXPECT_GE(v[pairs], LOOP_K * 100000);
		while (nfd--)
			close(fd[nfd]);
	}
#else
	SKIP(return, "x86-only case");
#endif
}

/*
 * Skylake's off-core response events (0x01b7 and 0x01bb) take their
 * response selection from config1 into MSR_OFFCORE_RSP_0 or _1, one
 * value per register: events that select the same response share one,
 * a second selection takes the other register (the event then counts as
 * 0x01bb), and a third does not fit beside them, so the group member
 * that asks for it is refused with EINVAL.  Selection bits the register
 * does not have (12-14, 38 up) are EINVAL too.
 */
TEST(x86_offcore_response)
{
#if defined(__x86_64__)
	static const __u64 sel[] = { 0x3fc0010001, 0x3ffc020001, 0x1fc4000001 };
	unsigned int family, model;
	int fd[4], i;
	__u64 v;

	X86_REQUIRE();
	x86_family_model(&family, &model);
	if (pmu->raw_cycles != 0x003c || family != 6 ||
	    !model_in(skl_models, model))
		SKIP(return, "off-core response as Skylake has it");

	fd[0] = open_raw_beside(0x01b7, 1ULL << 12, -1);
	EXPECT_EQ(-1, fd[0]);
	EXPECT_EQ(EINVAL, errno);
	fd[0] = open_raw_beside(0x01b7, 1ULL << 38, -1);
	EXPECT_EQ(-1, fd[0]);
	EXPECT_EQ(EINVAL, errno);

	fd[0] = open_raw_beside(0x01b7, sel[0], -1);
	ASSERT_GE(fd[0], 0) TH_LOG("%s", strerror(errno));
	fd[1] = open_raw_beside(0x01b7, sel[1], fd[0]);
	ASSERT_GE(fd[1], 0) TH_LOG("second selection: %s", strerror(errno));
	fd[2] = open_raw_beside(0x01bb, sel[2], fd[0]);
	EXPECT_EQ(-1, fd[2]) TH_LOG("a third selection fitted");
	EXPECT_EQ(EINVAL, errno);
	if (fd[2] >= 0)
		close(fd[2]);
	fd[2] = open_raw_beside(0x01bb, sel[0], fd[0]);
	ASSERT_GE(fd[2], 0) TH_LOG("the first selection again: %s",
				   strerror(errno));
	fd[3] = open_raw_beside(0x00c0, 0, fd[0]);
	ASSERT_GE(fd[3], 0) TH_LOG("instructions: %s", strerror(errno));
	/* The group runs, beside the instructions it does not disturb. */
	hwc_loop(1000);
	ASSERT_EQ(0, read_count(fd[3], &v));
	EXPECT_GE(v, LOOP_K * 1000);
	for (i = 0; i < 4; i++)
		close(fd[i]);
#else
	SKIP(return, "x86-only case");
#endif
}

/*
 * Skylake's counter constraints, as stock's table has them: the
 * precise-distribution instruction event (INST_RETIRED.PREC_DIST,
 * 0x01c0) counts on general-purpose counter 1 only, and the memory and
 * front-end retirement events (0xc6, 0xcd, 0xd0-0xd2) on counters 0-3
 * only, which is a limit where the core has eight (Hyper-Threading off,
 * as the intel-skl model).  A group that needs more of them than their
 * counters is refused with EINVAL at the member that does not fit; the
 * others beside them go on.  Two of them (0x01cd, 0x01c6) also need a
 * register of PEBS's.
 */
TEST(x86_skylake_constraints)
{
#if defined(__x86_64__)
	static const __u64 low4[] = { 0x81d0, 0x01d1, 0x01d2, 0x02cd, 0x02c6 };
	static const __u64 pebs_regs[] = { 0x01cd, 0x01c6 };
	unsigned int family, model, eax, ebx, ecx, edx;
	int fd[6], i, n;

	X86_REQUIRE();
	x86_family_model(&family, &model);
	if (pmu->raw_cycles != 0x003c || family != 6 ||
	    !model_in(skl_models, model))
		SKIP(return, "Skylake's constraints");

	/*
	 * The load-latency and front-end events (0x01cd, 0x01c6) take a
	 * selection from PEBS's registers: without PEBS (CPUID.01H EDX
	 * bit 21, the debug store) there are none, and they are ENXIO.
	 */
	__cpuid(1, eax, ebx, ecx, edx);
	for (i = 0; !(edx & CPUID_1_EDX_DS) && i < 2; i++) {
		fd[0] = open_hw_user(PERF_TYPE_RAW, pebs_regs[i], 1, -1);
		EXPECT_EQ(-1, fd[0]) TH_LOG("%#llx opened without PEBS",
					    (unsigned long long)pebs_regs[i]);
		EXPECT_EQ(ENXIO, errno);
		if (fd[0] >= 0)
			close(fd[0]);
	}

	fd[0] = open_hw_user(PERF_TYPE_RAW, 0x01c0, 1, -1);
	ASSERT_GE(fd[0], 0) TH_LOG("PREC_DIST: %s", strerror(errno));
	fd[1] = open_hw_user(PERF_TYPE_RAW, 0x01c0, 0, fd[0]);
	EXPECT_EQ(-1, fd[1]) TH_LOG("two PREC_DIST events in one group");
	EXPECT_EQ(EINVAL, errno);
	if (fd[1] >= 0)
		close(fd[1]);
	fd[1] = open_hw_user(PERF_TYPE_RAW, 0x00c0, 0, fd[0]);
	EXPECT_GE(fd[1], 0) TH_LOG("instructions beside: %s", strerror(errno));
	if (fd[1] >= 0)
		close(fd[1]);
	close(fd[0]);

	/* Counters 0-3: four of them fit, a fifth does not. */
	n = pmu->gp_counters > 4 ? 4 : pmu->gp_counters;
	for (i = 0; i <= n; i++) {
		fd[i] = open_hw_user(PERF_TYPE_RAW, low4[i], !i,
				     i ? fd[0] : -1);
		if (i < n)
			ASSERT_GE(fd[i], 0) TH_LOG("%#llx: %s",
						   (unsigned long long)low4[i],
						   strerror(errno));
	}
	EXPECT_EQ(-1, fd[n]) TH_LOG("%d events on counters 0-3", n + 1);
	EXPECT_EQ(EINVAL, errno);
	if (fd[n] >= 0)
		close(fd[n]);
	/* Where there are more counters, others still fit beside. */
	if (pmu->gp_counters > 4) {
		fd[n] = open_hw_user(PERF_TYPE_RAW, 0x00c4, 0, fd[0]);
		EXPECT_GE(fd[n], 0) TH_LOG("beside: %s", strerror(errno));
		if (fd[n] >= 0)
			close(fd[n]);
	}
	while (n--)
		close(fd[n]);
#else
	SKIP(return, "x86-only case");
#endif
}

/*
 * An AMD family 15h config: event code and unit mask.  Bit 8 of the
 * code is config bit 32 (F15H_HI).
 */
#define F15H_HI			0x100000000ULL
#define F15H_EVENT(code, umask)	((code) | ((umask) << 8))

#if defined(__x86_64__)
/*
 * How many events of @configs (cycled through) one group takes: the
 * leader disabled (a disabled member would not count against the
 * counters), the members enabled, until an open fails with EINVAL.
 */
static int x86_group_takes(const __u64 *configs, int nconfigs, int max)
{
	int fd[16], n, err = 0;

	for (n = 0; n < max && n < 16; n++) {
		fd[n] = open_hw_user(PERF_TYPE_RAW, configs[n % nconfigs], !n,
				     n ? fd[0] : -1);
		if (fd[n] < 0) {
			err = errno;
			break;
		}
	}
	for (int i = 0; i < n; i++)
		close(fd[i]);
	return n < max && err != EINVAL ? -err : n;
}
#endif

/*
 * Family 15h (Bulldozer to Excavator): the counters an event may use
 * depend on its unit (bits 7:4 of the event code), with exceptions by
 * code and, for three codes, by how many unit-mask bits are set
 * (stock: amd_get_event_constraints_f15h()).  Each row: a config and
 * how many such events a group takes on six counters.  0: none, the
 * event cannot count at all (the northbridge events, moved to the NB
 * PMU; the unused units; 0x031 with more than one unit-mask bit).
 */
TEST(x86_amd_f15h_constraints)
{
#if defined(__x86_64__)
	static const struct { __u64 config; int takes; } rows[] = {
		/* FP: counters 3-5; some only counter 3 */
		{ F15H_EVENT(0x010, 0), 3 }, { F15H_EVENT(0x000, 0), 3 },
		{ F15H_EVENT(0x000, 0x0f), 3 }, { F15H_EVENT(0x000, 0xf0), 3 },
		{ F15H_EVENT(0x000, 0x11), 1 }, { F15H_EVENT(0x003, 0), 1 },
		{ F15H_EVENT(0x004, 0x01), 3 }, { F15H_EVENT(0x004, 0x03), 1 },
		{ F15H_EVENT(0x00b, 0), 1 }, { F15H_EVENT(0x00d, 0), 1 },
		/* LS, DC, EX/LS: all six; some counters 0-2, 3, or 0 and 3 */
		{ F15H_EVENT(0x020, 0), 6 }, { F15H_EVENT(0x040, 0), 6 },
		{ F15H_EVENT(0x0c0, 0), 6 },
		{ F15H_EVENT(F15H_HI | 0x23, 0), 6 },
		{ F15H_EVENT(0x023, 0), 3 }, { F15H_EVENT(0x043, 0), 3 },
		{ F15H_EVENT(0x045, 0), 3 }, { F15H_EVENT(0x046, 0), 3 },
		{ F15H_EVENT(0x054, 0), 3 }, { F15H_EVENT(0x055, 0), 3 },
		{ F15H_EVENT(0x02d, 0), 1 }, { F15H_EVENT(0x02e, 0), 2 },
		{ F15H_EVENT(0x031, 0x04), 3 }, { F15H_EVENT(0x031, 0x06), 0 },
		{ F15H_EVENT(F15H_HI | 0xc0, 0), 3 },
		{ F15H_EVENT(F15H_HI | 0xc1, 0), 6 },
		/* CU, IC/DE, DE: counters 0-2; some only 0, some all six */
		{ F15H_EVENT(0x060, 0), 3 }, { F15H_EVENT(0x080, 0), 3 },
		{ F15H_EVENT(0x0d0, 0), 3 },
		{ F15H_EVENT(F15H_HI | 0x8f, 0), 3 },
		{ F15H_EVENT(0x08f, 0), 1 },
		{ F15H_EVENT(F15H_HI | 0x87, 0), 1 },
		{ F15H_EVENT(F15H_HI | 0x88, 0), 1 },
		{ F15H_EVENT(0x0db, 0), 6 },
		{ F15H_EVENT(0x0df, 0), 6 },
		{ F15H_EVENT(F15H_HI | 0xd6, 0), 6 },
		{ F15H_EVENT(F15H_HI | 0xd8, 0), 6 },
		/* NB and the unused units: nothing */
		{ F15H_EVENT(0x0e0, 0), 0 }, { F15H_EVENT(0x0f0, 0), 0 },
		{ F15H_EVENT(0x0a0, 0), 0 }, { F15H_EVENT(0x0b0, 0), 0 },
	};
	/* Overlaps: counter 3 alone with 3-5, and 0 and 3 with 3 and 0. */
	static const __u64 fp_mix[] = { F15H_EVENT(0x003, 0),
					F15H_EVENT(0x010, 0),
					F15H_EVENT(0x010, 0),
					F15H_EVENT(0x010, 0) };
	static const __u64 ls_mix[] = { F15H_EVENT(0x02e, 0),
					F15H_EVENT(0x02d, 0),
					F15H_EVENT(0x08f, 0) };
	unsigned int family, model;
	unsigned int i;
	int got;

	X86_REQUIRE();
	x86_family_model(&family, &model);
	if (pmu->raw_cycles == 0x003c || family != 0x15)
		SKIP(return, "AMD family 15h's constraints");
	ASSERT_EQ(6, pmu->gp_counters);

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		got = x86_group_takes(&rows[i].config, 1, 7);
		EXPECT_EQ(rows[i].takes, got)
			TH_LOG("config %#llx", (unsigned long long)rows[i].config);
	}
	/* One on counter 3, then the 3-5 ones: 3 in all. */
	EXPECT_EQ(3, x86_group_takes(fp_mix, 4, 7));
	/* 0x02e on 0 or 3, 0x02d on 3, 0x08f on 0: the third finds none. */
	EXPECT_EQ(2, x86_group_takes(ls_mix, 3, 7));
#else
	SKIP(return, "x86-only case");
#endif
}

/*
 * Skylake clients whose microcode of 2019 on takes general counter 3
 * for a TSX workaround (CPUID.07H:EDX[13] without RTM_ALWAYS_ABORT):
 * cpu/allow_tsx_force_abort, 1 by default, lets perf have counter 3
 * (RTM transactions abort while it is in use); 0 leaves it to TSX, so
 * a group takes one general-purpose counter less, and a group that
 * needs it stops counting until it is 1 again.  Our QEMU's model holds
 * counter 3 still while MSR_TSX_FORCE_ABORT leaves it to TSX, so a
 * driver that does not set the MSR before using it counts less there.
 * Upstream: intel/core.c, tfa_get_event_constraints() and friends.
 */
#define TFA_KNOB "/sys/bus/event_source/devices/cpu/allow_tsx_force_abort"

#if defined(__x86_64__)
/* Enable the group of @fd[0], run the loop, disable it, read all @n. */
static void tfa_round(int *fd, int n, __u64 *v)
{
	ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	hwc_loop(100000);
	ioctl(fd[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	for (int i = 0; i < n; i++)
		if (read_count(fd[i], &v[i]))
			v[i] = ~0ULL;
}
#endif

TEST(x86_tsx_force_abort)
{
#if defined(__x86_64__)
	static const __u64 inst = 0x00c0;
	__u64 v1[16], v2[16], v3[16];
	int fd[16], i, n, shared;
	char buf[16];

	INTEL_REQUIRE();
	if (!x86_skl_tsx_force_abort())
		SKIP(return, "not a Skylake with MSR_TSX_FORCE_ABORT");
	/* A group of identical events would share one counter (share.c). */
	shared = hw_share_counters(0);
	ASSERT_GT(read_file(TFA_KNOB, buf, sizeof(buf)), 0)
		TH_LOG("%s: %s", TFA_KNOB, strerror(errno));
	ASSERT_STREQ("1\n", buf);
	/* Fixed counter 0 takes one, the general-purpose counters the rest. */
	n = pmu->gp_counters + 1;
	ASSERT_GE(16, n);
	EXPECT_EQ(n, x86_group_takes(&inst, 1, 16));
	for (i = 0; i < n; i++) {
		fd[i] = open_hw_user(PERF_TYPE_RAW, inst, !i, i ? fd[0] : -1);
		ASSERT_GE(fd[i], 0) TH_LOG("event %d: %s", i, strerror(errno));
	}
	hwc_loop(1000);

	tfa_round(fd, n, v1);
	EXPECT_GE(v1[0], LOOP_K * 100000);
	for (i = 1; i < n; i++) {
		EXPECT_EQ(v1[0], v1[i]) TH_LOG("event %d", i);
	}

	ASSERT_EQ(0, write_file(TFA_KNOB, "0"));
	EXPECT_EQ(n - 1, x86_group_takes(&inst, 1, 16));
	tfa_round(fd, n, v2);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(v1[i], v2[i]) TH_LOG("event %d counted", i);
	}

	ASSERT_EQ(0, write_file(TFA_KNOB, "1"));
	tfa_round(fd, n, v3);
	EXPECT_GE(v3[0] - v2[0], LOOP_K * 100000);
	for (i = 1; i < n; i++) {
		EXPECT_EQ(v3[0] - v2[0], v3[i] - v2[i]) TH_LOG("event %d", i);
	}
	for (i = 0; i < n; i++)
		close(fd[i]);
	if (shared >= 0)
		hw_share_counters(shared);
#else
	SKIP(return, "x86-only case");
#endif
}

/*
 * Ice Lake, Sapphire Rapids, Granite Rapids: "slots" (fixed counter 3)
 * leads a group whose topdown-* members are shares of its slots, read
 * from IA32_PERF_METRICS: as many metrics as events/ lists (four level-1
 * ones on Ice Lake, eight from Golden Cove on).  (Stock takes the
 * level-2 codes on Ice Lake too, as no metric; not pinned here.)
 * The rules as on a hybrid part's P-cores (hwcount_hybrid): a metric
 * only as a counting member of a counting slots leader, no filters.
 * The model is one instruction wide: slots are its cycles, and it
 * cannot attribute them, so every share reads 0 (as on stock).
 */
#define X86_TD_N	200000UL

TEST(x86_topdown_group)
{
#if defined(__x86_64__)
	struct read_one slots, m, cyc;
	int lead, cycles, td[8], i, n = 0;
	struct dirent *de;
	DIR *d;

	INTEL_REQUIRE();
	if (access(CPU_PMU_DIR "/events/slots", F_OK))
		SKIP(return, "no topdown metrics (IA32_PERF_METRICS)");
	d = opendir(CPU_PMU_DIR "/events");
	ASSERT_NE(NULL, d);
	while ((de = readdir(d)))
		n += !strncmp(de->d_name, "topdown-", 8);
	closedir(d);
	ASSERT_TRUE(n == 4 || n == 8) TH_LOG("%d topdown events", n);

	lead = td_refusals(_metadata, PERF_TYPE_RAW);

	/* Every metric the part has, and cycles beside them. */
	for (i = 0; i < n; i++) {
		td[i] = open_td(PERF_TYPE_RAW, TD_METRIC(i), 0, lead);
		ASSERT_GE(td[i], 0) TH_LOG("metric %d: %s", i, strerror(errno));
	}
	cycles = open_td(PERF_TYPE_RAW, 0x003c, 0, lead);
	ASSERT_GE(cycles, 0) TH_LOG("%s", strerror(errno));
	ioctl(lead, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	hwc_loop(X86_TD_N);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
	ASSERT_EQ(0, read_one_times(lead, &slots));
	ASSERT_EQ(0, read_one_times(cycles, &cyc));
	EXPECT_GE(slots.value, pmu->cycles_per_insn * LOOP_K * X86_TD_N);
	EXPECT_EQ(cyc.value, slots.value) TH_LOG("slots are cycles here");
	EXPECT_EQ(slots.running, slots.enabled);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, read_one_times(td[i], &m));
		EXPECT_EQ(0, m.value) TH_LOG("metric %d", i);
		EXPECT_EQ(m.running, m.enabled) TH_LOG("metric %d", i);
		EXPECT_GT(m.running, 0) TH_LOG("metric %d", i);
	}
	for (i = 0; i < n; i++)
		close(td[i]);
	close(cycles);
	close(lead);
#else
	SKIP(return, "x86-only case");
#endif
}

#if defined(__x86_64__)
/*
 * @fmem and the group led by @fgrp enabled together for 100 ms: each
 * one's times over that window into *@m and *@g.
 */
static void x86_ht_window(int fmem, int fgrp, struct read_one *m,
			  struct read_one *g)
{
	struct read_one m0 = { 0 }, g0 = { 0 };

	read_one_times(fmem, &m0);
	read_one_times(fgrp, &g0);
	ioctl(fmem, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fgrp, PERF_EVENT_IOC_ENABLE, 0);
	usleep(100 * 1000);
	ioctl(fgrp, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fmem, PERF_EVENT_IOC_DISABLE, 0);
	read_one_times(fmem, m);
	read_one_times(fgrp, g);
	m->enabled -= m0.enabled;
	m->running -= m0.running;
	g->enabled -= g0.enabled;
	g->running -= g0.running;
}

/* Why the HT erratum's cases cannot run here; NULL: they can. */
static const char *x86_ht_bug_absent(void)
{
	static const unsigned int ht_bug_models[] = {
		0x2a, 0x2d, 0x3a, 0x3e, 0x3c, 0x45, 0x46, 0x3f, 0
	};
	unsigned int family, model;

	x86_family_model(&family, &model);
	if (pmu->raw_cycles != 0x003c || family != 6 ||
	    !model_in(ht_bug_models, model))
		return "not a part with the HT counter erratum";
	if (!cpu0_has_siblings())
		return "Hyper-Threading off: no sibling to corrupt";
	return NULL;
}

/*
 * MEM_UOPS_RETIRED.ALL_LOADS on CPU 0, every mode, into *@fmem, and a
 * group of four branch-instruction events (no fixed counter) on CPU 1,
 * its sibling, into fgrp[]; all disabled.  Return: 0, or -1 (errno).
 */
static int x86_ht_open(int *fmem, int *fgrp)
{
	struct perf_event_attr attr;
	int i;

	attr_hw(&attr, PERF_TYPE_RAW, 0x81d0);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	*fmem = sys_perf_event_open(&attr, -1, 0, -1, 0);
	if (*fmem < 0)
		return -1;
	attr_hw(&attr, PERF_TYPE_RAW, 0x00c4);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (i = 0; i < 4; i++) {
		attr.disabled = !i;
		fgrp[i] = sys_perf_event_open(&attr, -1, 1, i ? fgrp[0] : -1, 0);
		if (fgrp[i] < 0)
			return -1;
	}
	return 0;
}
#endif

/*
 * Sandy Bridge, Ivy Bridge and Haswell with Hyper-Threading on (errata
 * BJ122, BV98, HSD29): a memory-load event (0xd0-0xd3, on counters 0-3)
 * corrupts what the other thread of its core counts on the counter of
 * the same number.  Stock ("PMU erratum ... worked around, HT is on")
 * gives such an event its counter on both threads: the sibling may not
 * use that counter while it counts, and it may not take a counter the
 * sibling uses.  With four general counters per thread (the intel-sNN
 * model), one such event on CPU 0 and a group of four general-purpose
 * events on its sibling cannot both count: over a window in which both
 * are enabled, one of them does not run all the time.  Each alone
 * runs all the time.  While a thread of the core has such an event,
 * stock also gives each thread at most half the counters (so that
 * neither starves the other): a group of three waits beside it as
 * well, and a group of two counts all the time.
 */
TEST(x86_ht_excl_counters)
{
#if defined(__x86_64__)
	const char *absent;
	struct read_one mem, grp;
	int fmem, fgrp[4], shared;

	X86_REQUIRE();
	absent = x86_ht_bug_absent();
	if (absent)
		SKIP(return, "%s", absent);
	ASSERT_EQ(4, pmu->gp_counters);
	/* The sibling's four are identical: they would share (share.c). */
	shared = hw_share_counters(0);
	ASSERT_EQ(0, x86_ht_open(&fmem, fgrp)) TH_LOG("%s", strerror(errno));

	/* Each alone counts all the time. */
	ASSERT_EQ(0, ioctl(fmem, PERF_EVENT_IOC_ENABLE, 0));
	usleep(50 * 1000);
	ASSERT_EQ(0, ioctl(fmem, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_one_times(fmem, &mem));
	EXPECT_EQ(mem.enabled, mem.running);
	ASSERT_EQ(0, ioctl(fgrp[0], PERF_EVENT_IOC_ENABLE, 0));
	usleep(50 * 1000);
	ASSERT_EQ(0, ioctl(fgrp[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_one_times(fgrp[0], &grp));
	EXPECT_EQ(grp.enabled, grp.running);

	/* Together, one of them waits. */
	x86_ht_window(fmem, fgrp[0], &mem, &grp);
	TH_LOG("memory event ran %llu of %llu ns, sibling's four %llu of %llu",
	       mem.running, mem.enabled, grp.running, grp.enabled);
	EXPECT_TRUE(mem.running < mem.enabled || grp.running < grp.enabled);

	/*
	 * Three would leave it its counter, but while it is there each
	 * thread has half the counters: they wait too.  Two count beside
	 * it all the time.
	 */
	close(fgrp[3]);
	x86_ht_window(fmem, fgrp[0], &mem, &grp);
	TH_LOG("memory event ran %llu of %llu ns, sibling's three %llu of %llu",
	       mem.running, mem.enabled, grp.running, grp.enabled);
	EXPECT_TRUE(mem.running < mem.enabled || grp.running < grp.enabled);
	close(fgrp[2]);
	x86_ht_window(fmem, fgrp[0], &mem, &grp);
	TH_LOG("memory event ran %llu of %llu ns, sibling's two %llu of %llu",
	       mem.running, mem.enabled, grp.running, grp.enabled);
	EXPECT_EQ(mem.enabled, mem.running);
	EXPECT_EQ(grp.enabled, grp.running);

	close(fgrp[1]);
	close(fgrp[0]);
	close(fmem);
	if (shared >= 0)
		hw_share_counters(shared);
#else
	SKIP(return, "x86-only case");
#endif
}

#define X86_CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

/*
 * The same rule after the sibling went offline and came back, with the
 * memory event counting on CPU 0 all along: the thread that comes back
 * shares its core's counters again (ours finds the core's state through
 * the sibling online at its bring-up), so its group of four waits.
 */
TEST(x86_ht_excl_after_sibling_online)
{
#if defined(__x86_64__)
	const char *absent;
	struct read_one mem, grp;
	int fmem, fgrp[4], i, shared;

	X86_REQUIRE();
	absent = x86_ht_bug_absent();
	if (absent)
		SKIP(return, "%s", absent);
	if (access(X86_CPU1_ONLINE, W_OK))
		SKIP(return, "cpu1 cannot be hot-unplugged here");
	/* The sibling's four are identical: they would share (share.c). */
	shared = hw_share_counters(0);
	ASSERT_EQ(0, x86_ht_open(&fmem, fgrp)) TH_LOG("%s", strerror(errno));
	for (i = 0; i < 4; i++)
		close(fgrp[i]);

	ASSERT_EQ(0, ioctl(fmem, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, write_file(X86_CPU1_ONLINE, "0"));
	ASSERT_EQ(0, write_file(X86_CPU1_ONLINE, "1"));
	ASSERT_EQ(0, ioctl(fmem, PERF_EVENT_IOC_DISABLE, 0));
	close(fmem);

	ASSERT_EQ(0, x86_ht_open(&fmem, fgrp)) TH_LOG("%s", strerror(errno));
	x86_ht_window(fmem, fgrp[0], &mem, &grp);
	TH_LOG("memory event ran %llu of %llu ns, sibling's four %llu of %llu",
	       mem.running, mem.enabled, grp.running, grp.enabled);
	EXPECT_TRUE(mem.running < mem.enabled || grp.running < grp.enabled);
	for (i = 0; i < 4; i++)
		close(fgrp[i]);
	close(fmem);
	if (shared >= 0)
		hw_share_counters(shared);
#else
	SKIP(return, "x86-only case");
#endif
}

TEST_HARNESS_MAIN
