// SPDX-License-Identifier: GPL-2.0
/*
 * Hardware events, x86-only cases: what the x86 PMU has and arm64's
 * PMUv3 does not (Intel's fixed counters beside the general-purpose
 * ones, RDPMC through the mmap page), and checks that only hold exactly
 * on the x86 model: the user/kernel split of one group and the position
 * of every overflow sample.  The cases shared with arm64 are in
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

static inline __u64 hw_rdpmc(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (__u64)hi << 32;
}
#else
#define X86_REQUIRE() SKIP(return, "x86-only case (arm64's are in hwcount.c)")

static inline __u64 hw_rdpmc(unsigned int counter)
{
	return 0;
}
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
 * The self-monitoring read of include/uapi/linux/perf_event.h: offset
 * plus the sign-extended counter, retried while the kernel updates the
 * page (seqlock in lock).  *idx gets the index it used.
 */
static __u64 mmap_read_self(volatile struct perf_event_mmap_page *pc,
			    __u32 *idx)
{
	__u32 seq, width, i;
	__u64 count, pmc;

	do {
		seq = pc->lock;
		__sync_synchronize();
		i = pc->index;
		count = pc->offset;
		if (pc->cap_user_rdpmc && i) {
			width = pc->pmc_width;
			pmc = hw_rdpmc(i - 1);
			pmc <<= 64 - width;
			count += (__u64)((__s64)pmc >> (64 - width));
		}
		__sync_synchronize();
	} while (pc->lock != seq);
	*idx = i;
	return count;
}

/*
 * User instructions from one mmap_read_self() to the next around
 * hwc_loop(n): one copy of the code for every n, so the overhead is the
 * same.
 */
static __attribute__((noinline)) __u64
rdpmc_loop(volatile struct perf_event_mmap_page *pc, unsigned long n)
{
	__u64 s1, s2;
	__u32 idx;

	s1 = mmap_read_self(pc, &idx);
	hwc_loop(n);
	s2 = mmap_read_self(pc, &idx);
	return s2 - s1;
}

/* A counting event's user page (no data pages), or NULL. */
static struct perf_event_mmap_page *map_user_page(int fd)
{
	return perf_rb_mmap(fd, 0, PROT_READ);
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
	struct perf_event_attr attr;
	struct perf_rb rb;
	struct {
		struct perf_event_header h;
		__u64 ip;
		__u32 pid, tid;
		__u64 period;
	} r;
	unsigned long samples, steps, bad_steps, bad_period, out;
	int fd, blocker, pass, fixed, pos, prev, type;

	X86_REQUIRE();
	NOT_ON_DEBUG_KERNEL();
	for (pass = 0; pass < (pmu->fixed_counters ? 2 : 1); pass++) {
		blocker = -1;
		if (pass) {
			attr_hw(&attr, PERF_TYPE_HARDWARE,
				PERF_COUNT_HW_INSTRUCTIONS);
			attr.disabled = 0;
			attr.pinned = 1;
			attr.exclude_kernel = 1;
			blocker = sys_perf_event_open(&attr, 0, -1, -1, 0);
			ASSERT_GE(blocker, 0);
		}
		fd = open_sampler(PERF_COUNT_HW_INSTRUCTIONS, period, &rb);
		ASSERT_GE(fd, 0);

		hwc_loop(1000);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		fixed = on_fixed(rb.up);
		hwc_loop(m * period / LOOP_K);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

		EXPECT_EQ(pmu->fixed_counters && !pass, fixed);
		samples = 0;
		steps = 0;
		bad_steps = 0;
		bad_period = 0;
		out = 0;
		prev = -1;
		while ((type = perf_rb_fetch(&rb, &r, sizeof(r))) >= 0) {
			if (type != PERF_RECORD_SAMPLE)
				continue;
			samples++;
			if (r.period != period)
				bad_period++;
			pos = loop_position(r.ip);
			if (pos < 0)
				out++;
			else if (prev >= 0 &&
				 (pos - prev + LOOP_K) % LOOP_K != period % LOOP_K)
				bad_steps++;
			else if (prev >= 0)
				steps++;
			prev = pos;
		}
		EXPECT_GE(samples, m - 1);
		EXPECT_LE(samples, m + 1);
		EXPECT_EQ(0, bad_period);
		/* Only a sample in the enable/disable wrappers may be out. */
		EXPECT_LE(out, 1);
		EXPECT_GE(steps, m - 3);
		EXPECT_EQ(0, bad_steps)
			TH_LOG("%s counter: %lu samples, steps %lu right %lu wrong, %lu IPs out",
			       fixed ? "fixed" : "GP", samples, steps,
			       bad_steps, out);
		perf_rb_unmap(&rb);
		close(fd);
		if (blocker >= 0)
			close(blocker);
	}
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
			s = mmap_read_self(up[e], &idx);
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
		s = mmap_read_self(up[e], &idx);
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

TEST_HARNESS_MAIN
