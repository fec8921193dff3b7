/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the hardware-counter tests (hwcount.c, and the
 * x86-only hwcount_x86.c): what the guest's PMU looks like, a loop of a
 * known number of instructions, and counting it.  Included after
 * perf_test.h; everything is static inline, as there.
 *
 * arm64: QEMU virt, -cpu max, -icount shift=0, PMUv3 with 6 event
 * counters plus the dedicated cycle counter.  Under -icount QEMU counts
 * INST_RETIRED exactly (each vCPU's own icount), and CPU_CYCLES is
 * derived from the virtual clock at 1 GHz, and with shift=0 one
 * instruction is one nanosecond of virtual time, so user-mode cycles
 * track user-mode instructions.  The harness's a72 boot (-cpu
 * cortex-a72: PMUv3 for Armv8.0, 32-bit event counters) has as many
 * counters, and its nmi boot (-cpu max) takes the PMU interrupt as a
 * pseudo-NMI.  On arm64 a missing PMU is a failure, never a skip.
 *
 * x86_64: the harness's QEMU has a PMU model only under precise icount
 * (-icount shift=N).  -cpu max,vendor=GenuineIntel gives Intel
 * architectural perfmon v2 (family 15: stock takes the "generic
 * architected perfmon" path) with 4 general-purpose counters
 * (pmu-gp-counters) and 3 fixed ones; -cpu max (AuthenticAMD) gives the
 * AMD core counters, 6 of them with PerfCtrExtCore (the default), the 4
 * legacy ones with pmu-perfctr-core=off (which the tests cannot tell from
 * no PMU: they skip, see hw_pmu_probe()).  Counters are 48 bits wide.  It
 * counts instructions exactly per vCPU, cycles (and Intel's reference
 * cycles) as instructions times the pmu-cpi property (default 2), every
 * other event as nothing, and raises the PMI at the exact overflow.
 *
 * Whether x86 has counters is decided from CPUID, not by asking the
 * kernel under test: a kernel without an x86 PMU driver then fails the
 * hardware tests instead of skipping them.  Without a PMU in CPUID
 * (Debian's QEMU, no -icount) every hardware test skips on x86_64.
 */
#ifndef HW_TEST_H
#define HW_TEST_H

#include <dirent.h>
#include <stdbool.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

/*
 * What the tests need to know about the guest's PMU.  Counter budgets
 * are per event kind, because on x86 the generic events can also use a
 * fixed counter and on arm64 cycles have a counter of their own.
 */
struct hw_pmu_desc {
	const char *absent;		/* why there is no PMU; NULL: there is */
	const char *sysfs_prefix;	/* its event_source/devices name */
	const char *sysfs_insn;		/* its events/ name for instructions */
	int type_is_raw;		/* registered as PERF_TYPE_RAW, not dynamic */
	__u64 raw_instructions, raw_cycles;	/* PERF_TYPE_RAW configs */
	int gp_counters;		/* general-purpose (arm64: event) counters */
	int fixed_counters;		/* Intel's fixed counters; 0 elsewhere */
	int width;			/* counter width in bits (x86) */
	int insn_counters;		/* instruction events that run at once */
	int insn_beside_cycles;		/* ...in a group with a cycles leader */
	int cycles_per_insn;		/* user-mode cycles per instruction */
	int cycles_are_clock;		/* cycles pass while other vCPUs run */
	int exclude_idle_errno;		/* 0: exclude_idle is accepted */
	/*
	 * Group validation at open counts the leader even when it is
	 * disabled (x86's collect_events()); arm_pmu's validate_event()
	 * skips every member in OFF state.
	 */
	int validate_counts_off_leader;
};

/* Array bound for the counter-exhaustion tests. */
#define HW_MAX_COUNTERS	12

/* Array bound for CPU-wide events on every CPU of the guest. */
#define HW_MAX_CPUS	8

#if defined(__aarch64__)
/*
 * PMUv3 (QEMU -cpu max: PMCR_EL0.N == 6): 6 event counters plus the
 * dedicated cycle counter, which instructions cannot use.  Common event
 * numbers 0x08 INST_RETIRED and 0x11 CPU_CYCLES.  No idle filter:
 * exclude_idle is refused.  QEMU's CPU_CYCLES is the virtual clock,
 * which under -icount every vCPU's instructions advance: a vCPU's
 * cycles go on while the other one has its turn.
 */
static const struct hw_pmu_desc hw_arm64 = {
	.sysfs_prefix = "armv8",
	.sysfs_insn = "inst_retired",
	.raw_instructions = 0x08,
	.raw_cycles = 0x11,
	.gp_counters = 6,
	.insn_counters = 6,
	.insn_beside_cycles = 6,
	.cycles_per_insn = 1,
	.cycles_are_clock = 1,
	.exclude_idle_errno = EOPNOTSUPP,
};

static inline const struct hw_pmu_desc *hw_pmu_probe(void)
{
	return &hw_arm64;
}
#elif defined(__x86_64__)
/*
 * The "cpu" PMU, registered as PERF_TYPE_RAW.  Intel: the generic
 * instructions and cycles events take fixed counters 0 and 1 when free,
 * so gp + 1 instruction events run at once, and a cycles leader on
 * fixed counter 1 leaves all of them to instructions.  Raw event 0xc0
 * INST_RETIRED.ANY and 0x3c CPU_CLK_UNHALTED.CORE.  AMD: one set of
 * counters for everything, 0xc0 retired instructions and 0x76 cycles.
 * x86 has no idle filter either, but the driver ignores exclude_idle
 * rather than refusing it.  The model runs pmu-cpi cycles per
 * instruction; the tests expect QEMU's default of 2.
 */
static struct hw_pmu_desc hw_x86 = {
	.sysfs_prefix = "cpu",
	.sysfs_insn = "instructions",
	.type_is_raw = 1,
	.raw_instructions = 0x00c0,
	.cycles_per_insn = 2,
	.validate_counts_off_leader = 1,
};

#define CPUID_0A_VERSION(eax)		((eax) & 0xff)
#define CPUID_0A_NUM_GP(eax)		(((eax) >> 8) & 0xff)
#define CPUID_0A_GP_WIDTH(eax)		(((eax) >> 16) & 0xff)
#define CPUID_0A_NUM_FIXED(edx)		((edx) & 0x1f)
#define CPUID_80000001_ECX_PERFCTR_CORE	(1U << 23)

static const char hw_no_intel_pmu[] =
	"CPUID.0AH: no architectural perfmon (QEMU has a PMU model only under -icount)";
static const char hw_no_amd_pmu[] =
	"AMD without PerfCtrExtCore: no PMU model (or legacy counters, CPUID cannot tell)";

static inline const struct hw_pmu_desc *hw_pmu_probe(void)
{
	unsigned int eax, ebx, ecx, edx;
	char vendor[13];

	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
		hw_x86.absent = "no CPUID";
		return &hw_x86;
	}
	memcpy(vendor, &ebx, 4);
	memcpy(vendor + 4, &edx, 4);
	memcpy(vendor + 8, &ecx, 4);
	vendor[12] = 0;

	if (!strcmp(vendor, "GenuineIntel")) {
		/* Architectural perfmon: CPUID.0AH, version and GP counters. */
		if (eax < 0xa) {
			hw_x86.absent = "Intel CPU without CPUID leaf 0AH";
			return &hw_x86;
		}
		__cpuid(0xa, eax, ebx, ecx, edx);
		if (!CPUID_0A_VERSION(eax) || !CPUID_0A_NUM_GP(eax)) {
			hw_x86.absent = hw_no_intel_pmu;
			return &hw_x86;
		}
		hw_x86.gp_counters = CPUID_0A_NUM_GP(eax);
		hw_x86.width = CPUID_0A_GP_WIDTH(eax);
		if (CPUID_0A_VERSION(eax) >= 2)
			hw_x86.fixed_counters = CPUID_0A_NUM_FIXED(edx);
		hw_x86.raw_cycles = 0x003c;
		hw_x86.insn_counters = hw_x86.gp_counters +
				       (hw_x86.fixed_counters >= 1);
		hw_x86.insn_beside_cycles = hw_x86.insn_counters -
					    (hw_x86.fixed_counters < 2);
		return &hw_x86;
	}
	if (!strcmp(vendor, "AuthenticAMD")) {
		/*
		 * The 4 legacy counters have no CPUID bit: QEMU's AMD CPU
		 * without the PMU model (no -icount) looks exactly like one
		 * with it and pmu-perfctr-core=off.  The model advertises
		 * PerfCtrExtCore (6 counters) by default, and TCG never does
		 * otherwise, so that bit is what says the counters exist.
		 */
		if (__get_cpuid_max(0x80000000, NULL) < 0x80000001) {
			hw_x86.absent = "AMD CPU without CPUID leaf 80000001H";
			return &hw_x86;
		}
		__cpuid(0x80000001, eax, ebx, ecx, edx);
		if (!(ecx & CPUID_80000001_ECX_PERFCTR_CORE)) {
			hw_x86.absent = hw_no_amd_pmu;
			return &hw_x86;
		}
		hw_x86.gp_counters = 6;
		hw_x86.width = 48;
		hw_x86.raw_cycles = 0x0076;
		hw_x86.insn_counters = hw_x86.gp_counters;
		hw_x86.insn_beside_cycles = hw_x86.gp_counters - 1;
		return &hw_x86;
	}
	hw_x86.absent = "CPU vendor neither Intel nor AMD";
	return &hw_x86;
}
#else
#error "the hardware-counter tests support arm64 and x86_64"
#endif

static const struct hw_pmu_desc *pmu;

/*
 * hwc_loop(n): runs exactly LOOP_K * n instructions in its loop body
 * (n >= 1), plus a fixed number around it.  hwc_loop_body/hwc_loop_end
 * bracket the loop for checking sample IPs.
 */
#define LOOP_K	4
void hwc_loop(unsigned long n);
extern const char hwc_loop_body[], hwc_loop_end[];

#if defined(__aarch64__)
asm(".text\n"
    ".p2align 4\n"
    ".globl hwc_loop\n"
    ".type hwc_loop, %function\n"
    "hwc_loop:\n"
    ".globl hwc_loop_body\n"
    "hwc_loop_body:\n"
    "1:	nop\n"
    "	nop\n"
    "	subs x0, x0, #1\n"
    "	b.ne 1b\n"
    ".globl hwc_loop_end\n"
    "hwc_loop_end:\n"
    "	ret\n"
    ".size hwc_loop, . - hwc_loop\n");
#elif defined(__x86_64__)
/* Byte offsets of the 4 instructions: 0 nop, 1 nop, 2 dec, 5 jnz. */
asm(".text\n"
    ".p2align 4\n"
    ".globl hwc_loop\n"
    ".type hwc_loop, @function\n"
    "hwc_loop:\n"
    ".globl hwc_loop_body\n"
    "hwc_loop_body:\n"
    "1:	nop\n"
    "	nop\n"
    "	dec %rdi\n"
    "	jnz 1b\n"
    ".globl hwc_loop_end\n"
    "hwc_loop_end:\n"
    "	ret\n"
    ".size hwc_loop, . - hwc_loop\n");
#endif

/*
 * Every test starts with this.  On arm64 the PMU must be there; on
 * x86_64 CPUID says whether there is one (see the top), and the test
 * skips without it.
 *
 * The perf NMI watchdog (HARDLOCKUP_DETECTOR_PERF, in both test
 * configs; on arm64 it only runs where the PMU interrupt is a
 * pseudo-NMI, harness/boot.sh's nmi boot) keeps a pinned cycles event
 * on every CPU: Intel's fixed counter 1, one of AMD's six, arm64's
 * cycle counter.  The counter budgets above assume the tests have the
 * PMU to themselves, as a perf user gets after
 * "echo 0 > /proc/sys/kernel/nmi_watchdog", so the first hardware test
 * of a boot turns the watchdog off for the rest of it.  The watchdog
 * itself is tested in a boot of its own (hardlockup.c).  A kernel that
 * cannot drive the watchdog refuses the write; nothing to release then.
 */
static inline void hw_release_watchdog(void)
{
	write_file("/proc/sys/kernel/nmi_watchdog", "0");
}

#if defined(__aarch64__)
#define HW_REQUIRE() do {						\
	ASSERT_TRUE(have_hw_pmu())					\
		TH_LOG("arm64 guest: PMUv3 hardware events must open");	\
	pmu = hw_pmu_probe();						\
	hw_release_watchdog();						\
} while (0)
#else
#define HW_REQUIRE() do {						\
	pmu = hw_pmu_probe();						\
	if (pmu->absent)						\
		SKIP(return, "no hardware PMU: %s", pmu->absent);	\
	hw_release_watchdog();						\
} while (0)
#endif

/*
 * A few expectations bound what the kernel does around a user loop (timer
 * ticks, the overflow interrupt, rotation) by the cost of those paths on
 * a normal kernel.  Under lockdep and KASAN (make check DEBUG=1) those
 * paths cost an order of magnitude more instructions, so the bounds say
 * nothing about perf there; the normal run keeps checking them.
 */
static inline bool debug_kernel(void)
{
	return access("/proc/lockdep", F_OK) == 0;
}

#define NOT_ON_DEBUG_KERNEL() do {					\
	if (debug_kernel())						\
		SKIP(return, "bound assumes a non-debug kernel's tick and " \
		     "interrupt cost (lockdep/KASAN kernel)");		\
} while (0)

static inline void attr_hw(struct perf_event_attr *attr, __u32 type,
			   __u64 config)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = type;
	attr->size = sizeof(*attr);
	attr->config = config;
	attr->disabled = 1;
}

/*
 * User-only (exclude_kernel, exclude_hv) counting event on this thread,
 * with config1 (an extra register's selection, on x86).
 */
static inline int open_hw_user_config1(__u32 type, __u64 config,
				       __u64 config1, int disabled,
				       int group_fd)
{
	struct perf_event_attr attr;

	attr_hw(&attr, type, config);
	attr.config1 = config1;
	attr.disabled = disabled;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* The same without config1. */
static inline int open_hw_user(__u32 type, __u64 config, int disabled,
			       int group_fd)
{
	return open_hw_user_config1(type, config, 0, disabled, group_fd);
}

/*
 * Reset+enable fd (and its group if group), run the loop, disable.  Not
 * inlined, so that every caller runs exactly the same user instructions
 * between the two ioctls (and not inline either: unused is fine).
 */
static __attribute__((noinline, unused)) void run_loop_on(int fd, int group,
							  unsigned long n)
{
	unsigned long flag = group ? PERF_IOC_FLAG_GROUP : 0;

	ioctl(fd, PERF_EVENT_IOC_RESET, flag);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, flag);
	hwc_loop(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, flag);
}

/* Count of one event over hwc_loop(n); ~0ULL on read failure. */
static inline __u64 count_loop(int fd, unsigned long n)
{
	__u64 v;

	run_loop_on(fd, 1, n);
	if (read_count(fd, &v))
		return ~0ULL;
	return v;
}

/*
 * The smallest of reps counts of fd's first value over hwc_loop(n) (fd
 * reset and enabled with its group).  Under QEMU a timer interrupt that
 * lands in the window adds ~2000 instructions even to an exclude_kernel
 * count (seen on stock: every tick, ~1990 extra); with windows well
 * under a tick (4 ms = 4M instructions) most repetitions see none.
 */
static inline __u64 min_count_loop(int fd, int count_fd, unsigned long n,
				   int reps)
{
	__u64 v, best = ~0ULL;
	int i;

	for (i = 0; i < reps; i++) {
		run_loop_on(fd, 1, n);
		if (read_count(count_fd, &v))
			return ~0ULL;
		if (v < best)
			best = v;
	}
	return best;
}

struct read_one {
	__u64 value, enabled, running;
};

static inline int read_one_times(int fd, struct read_one *r)
{
	return read(fd, r, sizeof(*r)) == sizeof(*r) ? 0 : -1;
}

/*
 * Intel's topdown events (Ice Lake on, hybrid P-cores): slots on fixed
 * counter 3, and metric n as event 0, unit mask 0x80 + n.
 */
#define TD_SLOTS		0x0400
#define TD_RETIRING		0x8000
#define TD_BAD_SPEC		0x8100
#define TD_METRIC(n)		(TD_RETIRING + ((__u64)(n) << 8))
#define ARCH_EDGE_BIT		(1ULL << 18)	/* a filter metrics refuse */

/*
 * A user-only event of PMU @type for task @pid on @cpu, its times in
 * read(); disabled when it leads (@group_fd < 0), sampling when @period
 * is set.
 */
static inline int open_timed(__u32 type, __u64 config, pid_t pid, int cpu,
			     __u64 period, int group_fd)
{
	struct perf_event_attr attr;

	attr_hw(&attr, type, config);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = group_fd < 0;
	attr.sample_period = period;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&attr, pid, cpu, group_fd, 0);
}

/* open_timed() for this thread on any CPU. */
static inline int open_td(__u32 type, __u64 config, __u64 period,
			  int group_fd)
{
	return open_timed(type, config, 0, -1, period, group_fd);
}

#ifdef __KSELFTEST_HARNESS_H
/*
 * What stock refuses of PMU @type's topdown events, EINVAL each: a
 * metric alone, under another leader, under a sampling slots leader,
 * sampling itself, filtered, and a filtered slots event.  Return: a
 * counting slots leader for the
 * caller's group (the case ends if it cannot be opened).
 */
static inline int td_refusals(struct __test_metadata *_metadata, __u32 type)
{
	int fd, lead;

	EXPECT_EQ(-1, open_td(type, TD_RETIRING, 0, -1));
	EXPECT_EQ(EINVAL, errno);
	fd = open_td(type, 0x00c0, 0, -1);
	EXPECT_GE(fd, 0);
	EXPECT_EQ(-1, open_td(type, TD_RETIRING, 0, fd));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	fd = open_td(type, TD_SLOTS, 100000, -1);
	EXPECT_GE(fd, 0) TH_LOG("a sampling slots event: %s", strerror(errno));
	EXPECT_EQ(-1, open_td(type, TD_RETIRING, 0, fd));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	lead = open_td(type, TD_SLOTS, 0, -1);
	ASSERT_GE(lead, 0) TH_LOG("%s", strerror(errno));
	EXPECT_EQ(-1, open_td(type, TD_RETIRING, 100000, lead));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_td(type, TD_RETIRING | ARCH_EDGE_BIT, 0, lead));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, open_td(type, TD_SLOTS | ARCH_EDGE_BIT, 0, -1));
	EXPECT_EQ(EINVAL, errno);
	return lead;
}
#endif

/* Find the CPU PMU's sysfs name (armv8_pmuv3*, armv8_cortex_*, cpu). */
static inline int find_cpu_pmu(char *name, size_t len)
{
	return find_pmu_named(pmu->sysfs_prefix, name, len);
}

/*
 * RDPMC, for the self-monitoring reads through an event's user page
 * (hwcount_x86.c, share.c); 0 where there is no such instruction.
 */
#if defined(__x86_64__)
static inline __u64 hw_rdpmc(unsigned int counter)
{
	unsigned int lo, hi;

	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (counter));
	return lo | (__u64)hi << 32;
}
#else
static inline __u64 hw_rdpmc(unsigned int counter)
{
	return 0;
}
#endif

/*
 * The self-monitoring read of include/uapi/linux/perf_event.h: offset
 * plus the sign-extended counter, retried while the kernel updates the
 * page (seqlock in lock).  *idx gets the index it used.
 */
static inline __u64 user_page_read(volatile struct perf_event_mmap_page *pc,
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
 * User instructions from one user_page_read() to the next around
 * hwc_loop(n): one copy of the code for every n, so the overhead is the
 * same.
 */
static __attribute__((noinline, unused)) __u64
rdpmc_loop(volatile struct perf_event_mmap_page *pc, unsigned long n)
{
	__u64 s1, s2;
	__u32 idx;

	s1 = user_page_read(pc, &idx);
	hwc_loop(n);
	s2 = user_page_read(pc, &idx);
	return s2 - s1;
}

/* A counting event's user page (no data pages), or NULL. */
static inline struct perf_event_mmap_page *map_user_page(int fd)
{
	return perf_rb_mmap(fd, 0, PROT_READ);
}

/*
 * Counter sharing (perfcore, beyond upstream: kernel/events/share.c):
 * identical counting events read one counter, so the cases that
 * multiplex identical events to test multiplexing turn it off around
 * themselves with hw_share_counters(0) (and their previous value back
 * at the end); an aborted case leaves it off, which the binary's exit
 * puts right (hw_share_restore(), in the harness's process, not in the
 * cases' children, which leave with _exit()).  Returns the previous
 * setting, or -1 where the kernel has no such sysctl (stock).
 */
#define HW_SHARE_SYSCTL	"/proc/sys/kernel/perf_event_share_counters"

static int hw_share_initial = -1;
static pid_t hw_share_main;

static inline int hw_share_counters(int on)
{
	long was = read_long(HW_SHARE_SYSCTL);

	if (was == LONG_MIN)
		return -1;
	write_long(HW_SHARE_SYSCTL, on);
	return was;
}

static void __attribute__((destructor, unused)) hw_share_restore(void)
{
	/* Only the harness's own exit: a case's children exit too. */
	if (hw_share_initial >= 0 && getpid() == hw_share_main)
		hw_share_counters(hw_share_initial);
}

static void __attribute__((constructor, unused)) hw_share_remember(void)
{
	long was = read_long(HW_SHARE_SYSCTL);

	hw_share_main = getpid();
	if (was != LONG_MIN)
		hw_share_initial = was;
}

/* Whether the first "flags" line of /proc/cpuinfo has " @word " */
static inline bool cpuinfo_flag(const char *word)
{
	static char buf[16384];
	char *line, *end;

	if (read_file("/proc/cpuinfo", buf, sizeof(buf)) < 0)
		return false;
	line = strstr(buf, "\nflags");
	end = line ? strchr(line + 1, '\n') : NULL;
	if (!end)
		return false;
	end[0] = ' ';		/* read_file() ended buf with a 0 */
	end[1] = '\0';
	return strstr(line, word);
}

/*
 * Why this CPU has no Intel PEBS to sample with, or NULL: not Intel's,
 * or no "pebs" in /proc/cpuinfo (IA32_MISC_ENABLE says, which only the
 * kernel reads).
 */
static inline const char *pebs_absent(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	__cpuid(0, a, b, c, d);
	if (b != 0x756e6547)		/* "Genu"ineIntel */
		return "not an Intel CPU: no PEBS";
#else
	return "x86 PEBS cases";
#endif
	if (!cpuinfo_flag(" pebs "))
		return "no \"pebs\" in /proc/cpuinfo: the CPU has no PEBS";
	return NULL;
}

/* Does the kernel command line have @word (the harness's marks)? */
static inline bool kernel_cmdline_has(const char *word)
{
	char cmdline[4096];

	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return false;
	return strstr(cmdline, word);
}

/* Is this perfcore (the harness says so on the command line)? */
static inline bool kernel_is_ours(void)
{
	return kernel_cmdline_has("perfcore.kernel=ours");
}

/*
 * A user-only sampling event on this thread: sample_period period on
 * PERF_TYPE_HARDWARE config, IP | TID | PERIOD, with an 8-page buffer.
 */
static inline int open_sampler(__u64 config, __u64 period, struct perf_rb *rb)
{
	struct perf_event_attr attr;
	int fd;

	attr_hw(&attr, PERF_TYPE_HARDWARE, config);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_PERIOD;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	if (perf_rb_map(rb, fd, 8)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* How many sample IPs struct sample_stats keeps, the first ones. */
#define SAMPLE_IPS	64

struct sample_stats {
	unsigned long samples, in_loop, other, bad_period, bad_tid;
	__u64 ip[SAMPLE_IPS];
};

/*
 * Walk the ring buffer of a sampling event whose sample_type is
 * IP | TID | PERIOD and tally the samples, keeping the first SAMPLE_IPS
 * IPs in order.  The event is disabled by now, so this only reads:
 * data_tail is left alone.
 */
static inline void tally_samples(struct perf_rb *rb, __u64 period,
				 struct sample_stats *st)
{
	struct {
		struct perf_event_header h;
		__u64 ip;
		__u32 pid, tid;
		__u64 period;
	} r;
	int type;

	memset(st, 0, sizeof(*st));
	while ((type = perf_rb_fetch(rb, &r, sizeof(r))) >= 0) {
		if (type == PERF_RECORD_SAMPLE) {
			if (st->samples < SAMPLE_IPS)
				st->ip[st->samples] = r.ip;
			st->samples++;
			if (r.period != period)
				st->bad_period++;
			if (r.pid != (__u32)getpid() ||
			    r.tid != (__u32)syscall(__NR_gettid))
				st->bad_tid++;
			if (r.ip >= (unsigned long)hwc_loop_body &&
			    r.ip <= (unsigned long)hwc_loop_end)
				st->in_loop++;
		} else {
			st->other++;
		}
	}
}

/*
 * The n of a hwc_loop(n) that lasts about @intervals multiplexing
 * intervals of the CPU PMU (its perf_event_mux_interval_ms; one
 * instruction is one nanosecond under -icount shift=0), or 0.
 */
static inline unsigned long hw_mux_loop_n(int intervals)
{
	char name[128], path[256];
	long mux_ms;

	if (find_cpu_pmu(name, sizeof(name)))
		return 0;
	snprintf(path, sizeof(path),
		 EVENT_SOURCE "/%s/perf_event_mux_interval_ms", name);
	mux_ms = read_long(path);
	if (mux_ms <= 0)
		return 0;
	return (unsigned long)mux_ms * 1000000UL * intervals / LOOP_K;
}

/*
 * More events than counters: @nev user-only instruction events, each on
 * its own, count one pass of hwc_loop() lasting @intervals rotation
 * intervals of the CPU PMU (its perf_event_mux_interval_ms; one
 * instruction is one nanosecond under -icount shift=0).  r[] gets each
 * event's count and times, *truth the lone, never-multiplexed count of
 * the same loop.  Return: the loop's n, 0 on failure.
 */
static inline unsigned long hw_multiplex_loop(int nev, int intervals,
					      struct read_one *r, __u64 *truth)
{
	struct perf_event_attr attr;
	unsigned long n;
	int i, ref, fd[2 * HW_MAX_COUNTERS], shared;

	n = hw_mux_loop_n(intervals);
	if (nev > 2 * HW_MAX_COUNTERS || !n)
		return 0;

	ref = open_hw_user(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, -1);
	if (ref < 0)
		return 0;
	count_loop(ref, 1000);
	*truth = count_loop(ref, n);
	close(ref);

	attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* Identical events, to be multiplexed: not shared (share.c). */
	shared = hw_share_counters(0);
	for (i = 0; i < nev; i++) {
		fd[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		if (fd[i] < 0) {
			while (i--)
				close(fd[i]);
			n = 0;
			goto out;
		}
	}
	prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
	hwc_loop(n);
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	for (i = 0; i < nev; i++) {
		if (read_one_times(fd[i], &r[i]))
			n = 0;
		close(fd[i]);
	}
out:
	if (shared >= 0)
		hw_share_counters(shared);
	return n;
}

/* |count scaled by enabled/running - truth|; only for an event that ran. */
static inline double hw_scaled_error(const struct read_one *r, __u64 truth)
{
	double scaled = (double)r->value * r->enabled / r->running;

	return scaled > truth ? scaled - truth : truth - scaled;
}

#endif /* HW_TEST_H */
