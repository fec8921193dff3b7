// SPDX-License-Identifier: GPL-2.0
/*
 * Precise sampling through Intel's PEBS (precise_ip 1 and 2, perf's :p
 * and :pp): at the instruction that overflows a counter the CPU writes a
 * record into the debug store's PEBS buffer, and the driver turns each
 * record into a sample.
 *
 * The code sampled is a sled in assembly: pebs_run(n, bx) sets %rbx to
 * bx, keeps its %rsp in pebs_run_sp and calls the sled n times, a pass
 * of 4100 instructions (their places in it in brackets):
 *
 *   pebs_call:      call pebs_sled	(0)
 *   pebs_back:      dec %rdi		(4098)
 *   pebs_jnz:       jnz pebs_call	(4099)
 *   pebs_sled:      4096 nops, a byte each	(1 to 4096)
 *   pebs_sled_ret:  ret			(4097)
 *
 * A user-only count overflowing every P = 997 instructions (prime to
 * 4100) takes consecutive samples in the sled P bytes apart in one pass,
 * P - 4100 bytes apart across two; n passes hold n * 4100 / P samples,
 * n * 4096 / P of them in the sled, give or take the few on the others.
 *
 * The rules held are stock 6.12's on adaptive PEBS (format 4, baseline;
 * arch/x86/events/intel/ds.c, core.c) and on Skylake's format 3, each
 * case saying which, and the families' (pebs_kind()).  The models
 * (harness/boot.sh's intel-lbr: format 4, a model of no family;
 * intel-skl: a Skylake with format 3; intel-spr: a Sapphire Rapids with
 * format 4; pmu-pebs in our QEMU) count exactly under -icount, cycles
 * as instructions times pmu-cpi; nothing here reads the memory
 * information (no address or data source there).  Skipped on arm64, on
 * CPUs not Intel's, and without "pebs" in /proc/cpuinfo (from
 * IA32_MISC_ENABLE, which only the kernel reads); a family's own cases
 * on the others.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>

asm(".text\n"
	".p2align 4\n"
	".globl pebs_run\n"
	".type pebs_run, @function\n"
	"pebs_run:\n"
	"\tpush %rbx\n"
	"\tmov %rsi, %rbx\n"
	"\tmov %rsp, pebs_run_sp(%rip)\n"
	"pebs_call:\n\tcall pebs_sled\n"
	"pebs_back:\n\tdec %rdi\n"
	"pebs_jnz:\n\tjnz pebs_call\n"
	"\tpop %rbx\n"
	"\tret\n"
	".p2align 4\n"
	"pebs_sled:\n"
	"\t.rept 4096\n\tnop\n\t.endr\n"
	"pebs_sled_ret:\n\tret\n"
	".size pebs_run, .-pebs_run\n"
	".pushsection .bss\n"
	".p2align 3\n"
	"pebs_run_sp:\n\t.zero 8\n"
	".popsection\n");

void pebs_run(unsigned long n, unsigned long bx);
extern char pebs_call[], pebs_back[], pebs_jnz[], pebs_sled[],
	    pebs_sled_ret[];
extern unsigned long pebs_run_sp;

#define PEBS_REGS	((1ULL << PERF_REG_X86_BX) |			\
			 (1ULL << PERF_REG_X86_SP) |			\
			 (1ULL << PERF_REG_X86_IP))
#else
static void pebs_run(unsigned long n, unsigned long bx) { }
static char pebs_call[1], pebs_back[1], pebs_jnz[1], pebs_sled[1],
	    pebs_sled_ret[1];
static unsigned long pebs_run_sp;
#define PEBS_REGS	0
#endif

#define PEBS_P		997	/* the sample period, in instructions */
#define PEBS_SLED	4096	/* the sled's nops */
#define PEBS_PASS	4100	/* a pass: the sled, call, ret, dec, jnz */
#define PEBS_N		1000	/* passes a case runs: 4112 samples */
#define PEBS_LBR_N	100	/* ...with a branch stack: 800 bytes each */
#define PEBS_SLACK	5	/* sled samples off n * PEBS_SLED / P */
#define PEBS_PAGES	128
#define PEBS_IPS	8192	/* sample ips a tally keeps */
#define PEBS_BX		0x5ebb5a17c0ffee42UL	/* %rbx in the sled */
#define LBR_MAX		32

/*
 * A sample a microsecond of guest time: the throttling would decide how
 * many a case gets, so the binary turns it off as lbr.c does, and puts
 * it back at its exit.
 */
static void __attribute__((constructor)) pebs_no_throttling(void)
{
	no_throttling();
}

/*
 * Which of stock's rule sets for precise events the CPU gets, by its
 * family 6 model number:
 * PEBS_ARCH: a model stock does not know (harness/boot.sh's intel-lbr):
 *	format 4 on every counter, core cycles sampled as instructions
 *	retired on every cycle, no precise distribution (precise_ip 2 at
 *	most);
 * PEBS_SKYLAKE (Skylake, Kaby Lake, Coffee Lake, Comet Lake; intel-skl):
 *	format 3 records, precise events on general-purpose counters 0-3,
 *	INST_RETIRED.PREC_DIST on counter 1 for precise_ip 3;
 * PEBS_ICELAKE (Ice Lake, Tiger Lake, Rocket Lake): format 4, the
 *	family's table for some codes, every counter for the rest;
 *	instructions at precise_ip 3 on fixed counter 0;
 * PEBS_GOLDEN_COVE (Sapphire, Emerald and Granite Rapids; intel-spr):
 *	the same with Golden Cove's table, which keeps instructions
 *	retired off fixed counter 0 (counters 1-7), and every other event
 *	at precise_ip 3 on counter 0 (the precise distribution, PDist), a
 *	period of 128 at least.
 */
enum pebs_kind { PEBS_ARCH, PEBS_SKYLAKE, PEBS_ICELAKE, PEBS_GOLDEN_COVE };

static enum pebs_kind pebs_kind(void)
{
#if defined(__x86_64__)
	static const struct {
		unsigned char model;
		enum pebs_kind kind;
	} models[] = {
		{ 0x4e, PEBS_SKYLAKE }, { 0x5e, PEBS_SKYLAKE },
		{ 0x55, PEBS_SKYLAKE }, { 0x8e, PEBS_SKYLAKE },
		{ 0x9e, PEBS_SKYLAKE }, { 0xa5, PEBS_SKYLAKE },
		{ 0xa6, PEBS_SKYLAKE },
		{ 0x6a, PEBS_ICELAKE }, { 0x6c, PEBS_ICELAKE },
		{ 0x7d, PEBS_ICELAKE }, { 0x7e, PEBS_ICELAKE },
		{ 0x8c, PEBS_ICELAKE }, { 0x8d, PEBS_ICELAKE },
		{ 0xa7, PEBS_ICELAKE },
		{ 0x8f, PEBS_GOLDEN_COVE }, { 0xcf, PEBS_GOLDEN_COVE },
		{ 0xad, PEBS_GOLDEN_COVE }, { 0xae, PEBS_GOLDEN_COVE },
	};
	unsigned int a, b, c, d, model, i;

	__cpuid(1, a, b, c, d);
	if (((a >> 8) & 0xf) != 6)
		return PEBS_ARCH;
	model = ((a >> 4) & 0xf) | ((a >> 12) & 0xf0);
	for (i = 0; i < ARRAY_SIZE(models); i++)
		if (model == models[i].model)
			return models[i].kind;
#endif
	return PEBS_ARCH;
}

/* Format 3 records: Skylake's */
static bool pebs_skylake(void)
{
	return pebs_kind() == PEBS_SKYLAKE;
}

/* precise_ip 3 is there: a family with a precise distribution */
static bool pebs_prec_dist(void)
{
	return pebs_kind() != PEBS_ARCH;
}

/*
 * Instructions retired sample precisely on fixed counter 0, where no
 * table of the family's keeps them on general-purpose ones.
 */
static bool pebs_insns_on_fixed(void)
{
	return pebs_kind() == PEBS_ARCH || pebs_kind() == PEBS_ICELAKE;
}

#define PEBS_REQUIRE() do {						\
	const char *why;						\
									\
	HW_REQUIRE();							\
	why = pebs_absent();						\
	if (why)							\
		SKIP(return, "%s", why);				\
} while (0)

/*
 * A user-mode sampling event every PEBS_P of @config at @precise.  A
 * fixed period takes stock's large PEBS (@large) where the record holds
 * all of sample_type; a wakeup per sample, an interrupt per record.
 */
static void pebs_attr(struct perf_event_attr *attr, __u32 type,
		      __u64 config, int precise, __u64 sample_type, bool large)
{
	attr_hw(attr, type, config);
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
	attr->precise_ip = precise;
	attr->sample_period = PEBS_P;
	attr->sample_type = sample_type;
	attr->wakeup_events = !large;
}

/* Open @attr in group @group (-1: none), its ring in @rb: fd, or -errno */
static int pebs_open(struct perf_event_attr *attr, int group,
		     struct perf_rb *rb)
{
	int fd = sys_perf_event_open(attr, 0, -1, group, 0), err;

	if (fd < 0)
		return -errno;
	if (!perf_rb_map(rb, fd, PEBS_PAGES))
		return fd;
	err = -errno;
	close(fd);
	return err;
}

/*
 * Enable @fd (with its group if @group), run @n passes of the sled,
 * disable; index[i] gets rb[i]'s RDPMC index (its user page's) while
 * enabled.  One pass runs first, to fault the sled in.
 */
static void pebs_window(int fd, bool group, unsigned long n,
			struct perf_rb *rb, int nrb, __u32 *index)
{
	unsigned long flag = group ? PERF_IOC_FLAG_GROUP : 0;
	int i;

	pebs_run(1, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, flag);
	for (i = 0; i < nrb; i++)
		index[i] = __atomic_load_n(&rb[i].up->index, __ATOMIC_RELAXED);
	pebs_run(n, PEBS_BX);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, flag);
}

/* RDPMC index @idx (the user page's: the counter's plus one) is fixed's */
static int on_fixed(__u32 idx)
{
	return idx && ((idx - 1) & (1U << 30));
}

/* @ip is a nop of the sled (@after: an instruction after one) */
static bool in_sled(__u64 ip, int after)
{
	return ip >= (unsigned long)pebs_sled + after &&
	       ip < (unsigned long)pebs_sled_ret + after;
}

/* A sample: its ip, and what follows it */
struct pebs_sample {
	struct perf_event_header h;
	__u64 ip;
	__u64 v[1 + 3 * LBR_MAX];
};

struct pebs_tally {
	unsigned long samples, in_sled, exact, bad, lost, throttled;
	unsigned long back, wrong, good;
	__u64 bad_ip[2];	/* the first two samples not P apart */
	__u64 time[2];		/* PERF_SAMPLE_TIME: the first, the last */
	struct pebs_sample first_wrong;
	__u64 ip[PEBS_IPS];	/* the first samples' ips */
};

/* The next sample of @rb, counting lost and throttle records in @t */
static bool pebs_next(struct perf_rb *rb, struct pebs_sample *s,
		      struct pebs_tally *t)
{
	int type;

	while ((type = perf_rb_fetch(rb, s, sizeof(*s))) >= 0) {
		if (type == PERF_RECORD_SAMPLE)
			return true;
		if (type == PERF_RECORD_LOST ||
		    type == PERF_RECORD_LOST_SAMPLES)
			t->lost++;
		if (type == PERF_RECORD_THROTTLE ||
		    type == PERF_RECORD_UNTHROTTLE)
			t->throttled++;
	}
	return false;
}

/* A case's own look at a sample in the sled: false if it is wrong. */
typedef bool (*pebs_check_fn)(const struct pebs_sample *s,
			      unsigned long *good);

/*
 * Walk @rb: the samples, those in the sled (@after: on the instructions
 * after its nops), those with EXACT_IP, the pairs of consecutive ones in
 * the sled not P instructions apart, those in it that @check (a case's
 * own look, which may count in @good) finds wrong; with @timed, the
 * times, and how often one went back.
 */
static void pebs_tally(struct perf_rb *rb, int after, bool timed,
		       pebs_check_fn check, struct pebs_tally *t)
{
	struct pebs_sample s;
	__u64 prev = 0;
	__s64 d;

	memset(t, 0, sizeof(*t));
	while (pebs_next(rb, &s, t)) {
		if (t->samples < PEBS_IPS)
			t->ip[t->samples] = s.ip;
		if (timed && t->samples && s.v[0] < t->time[1])
			t->back++;
		if (!t->samples)
			t->time[0] = s.v[0];
		t->time[1] = s.v[0];
		t->samples++;
		if (s.h.misc & PERF_RECORD_MISC_EXACT_IP)
			t->exact++;
		if (!in_sled(s.ip, after)) {
			prev = 0;
			continue;
		}
		t->in_sled++;
		if (check && !check(&s, &t->good) && !t->wrong++)
			t->first_wrong = s;
		d = s.ip - prev;
		if (prev && d != PEBS_P && d != PEBS_P - PEBS_PASS &&
		    !t->bad++) {
			t->bad_ip[0] = prev;
			t->bad_ip[1] = s.ip;
		}
		prev = s.ip;
	}
}

/*
 * The samples of @passes passes: all there, P instructions apart,
 * EXACT_IP on all or none (@all_exact), none wrong, nothing lost or
 * throttled.
 */
#define EXPECT_PEBS(tally, passes, all_exact) do {			\
	const struct pebs_tally *__t = &(tally);			\
	const struct pebs_sample *__w = &__t->first_wrong;		\
	unsigned long __n = (passes);					\
									\
	EXPECT_EQ(0, __t->lost);					\
	EXPECT_EQ(0, __t->throttled);					\
	EXPECT_EQ(0, __t->bad)						\
		TH_LOG("a sample at %llx, the next at %llx",		\
		       (unsigned long long)__t->bad_ip[0],		\
		       (unsigned long long)__t->bad_ip[1]);		\
	EXPECT_EQ(0, __t->wrong)					\
		TH_LOG("at %llx: %llx %llx %llx %llx",			\
		       (unsigned long long)__w->ip,			\
		       (unsigned long long)__w->v[0],			\
		       (unsigned long long)__w->v[1],			\
		       (unsigned long long)__w->v[2],			\
		       (unsigned long long)__w->v[3]);			\
	EXPECT_EQ((all_exact) ? __t->samples : 0, __t->exact);		\
	EXPECT_LE(__n * PEBS_PASS / PEBS_P, __t->samples);		\
	EXPECT_GE(__n * PEBS_PASS / PEBS_P + 1, __t->samples);		\
	EXPECT_LE(__n * PEBS_SLED / PEBS_P - PEBS_SLACK, __t->in_sled);	\
	EXPECT_GE(__n * PEBS_SLED / PEBS_P + PEBS_SLACK, __t->in_sled);	\
} while (0)

/*
 * @attr's event over @n passes, its samples tallied into @t (@after,
 * @check: as for pebs_tally()) and held to EXPECT_PEBS.  Returns its
 * RDPMC index as it ran.
 */
static __u32 pebs_series(struct __test_metadata *_metadata,
			 struct perf_event_attr *attr, unsigned long n,
			 int after, pebs_check_fn check, struct pebs_tally *t)
{
	struct perf_rb rb;
	__u32 idx = 0;
	int fd;

	memset(t, 0, sizeof(*t));
	fd = pebs_open(attr, -1, &rb);
	EXPECT_LE(0, fd) TH_LOG("config %#llx, precise_ip %d: %s",
				(unsigned long long)attr->config,
				attr->precise_ip, strerror(-fd));
	if (fd < 0)
		return 0;
	pebs_window(fd, false, n, &rb, 1, &idx);
	pebs_tally(&rb, after, attr->sample_type & PERF_SAMPLE_TIME, check,
		   t);
	perf_rb_unmap(&rb);
	close(fd);
	EXPECT_PEBS(*t, n, attr->precise_ip > 1);
	return idx;
}

/*
 * Instructions retired, precise_ip 2, an interrupt per record: each
 * sample's ip is the record's eventing IP, the instruction that
 * overflowed, with PERF_RECORD_MISC_EXACT_IP, P after the one before.
 * The generic event sits on fixed counter 0 (format 4: PEBS on every
 * counter), on Skylake on a general-purpose one (PEBS on 0-3 only), and
 * on Golden Cove too (its table gives INST_RETIRED counters 1-7).
 */
TEST(pebs_instructions_exact)
{
	struct perf_event_attr attr;
	struct pebs_tally t;
	__u32 idx;

	PEBS_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 2,
		  PERF_SAMPLE_IP, false);
	idx = pebs_series(_metadata, &attr, PEBS_N, 0, NULL, &t);
	EXPECT_NE(0, idx);
	EXPECT_EQ(pebs_insns_on_fixed(), on_fixed(idx))
		TH_LOG("RDPMC index %#x", idx);
}

/*
 * Core cycles, CPI * P of them a period: the model's are its
 * instructions times its CPI, so the series is the same.  Stock counts
 * precise cycles on a CPU it knows only by architecture as instructions
 * retired with an inverted count mask of 16 (every cycle retires fewer),
 * an encoding of the general-purpose counters, and so on Skylake; on
 * the later families it counts them on fixed counter 1.
 */
TEST(pebs_cycles_exact)
{
	struct perf_event_attr attr;
	struct pebs_tally t;
	__u32 idx;

	PEBS_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 2,
		  PERF_SAMPLE_IP, false);
	attr.sample_period = pmu->cycles_per_insn * PEBS_P;
	idx = pebs_series(_metadata, &attr, PEBS_N, 0, NULL, &t);
	EXPECT_NE(0, idx);
	EXPECT_EQ(pebs_kind() >= PEBS_ICELAKE, on_fixed(idx))
		TH_LOG("RDPMC index %#x", idx);
}

/*
 * The same on a general-purpose counter: raw INST_RETIRED (0x00c0), which
 * fixed counter 0 would take first, finds it held by a pinned counter.
 */
TEST(pebs_gp_counter_exact)
{
	struct perf_event_attr attr;
	struct pebs_tally t;
	int blocker;
	__u32 idx;

	PEBS_REQUIRE();
	attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.disabled = 0;
	attr.pinned = 1;
	attr.exclude_kernel = 1;
	blocker = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, blocker) TH_LOG("pinned instructions: %s",
				     strerror(errno));
	pebs_attr(&attr, PERF_TYPE_RAW, pmu->raw_instructions, 2,
		  PERF_SAMPLE_IP, false);
	idx = pebs_series(_metadata, &attr, PEBS_N, 0, NULL, &t);
	close(blocker);
	EXPECT_NE(0, idx);
	EXPECT_FALSE(on_fixed(idx)) TH_LOG("RDPMC index %#x", idx);
}

/*
 * Both in one group, started together: one on a fixed counter, one on a
 * general-purpose one (on Skylake and Golden Cove both on general-purpose
 * ones),
 * overflowing at the same instructions, so two exact series of the same
 * ips.
 */
TEST(pebs_fixed_and_gp_together)
{
	struct perf_event_attr attr;
	unsigned long i, differ = 0;
	struct pebs_tally t[2];
	struct perf_rb rb[2];
	__u32 idx[2];
	int fd[2];

	PEBS_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 2,
		  PERF_SAMPLE_IP, false);
	fd[0] = pebs_open(&attr, -1, &rb[0]);
	ASSERT_LE(0, fd[0]) TH_LOG("instructions:upp: %s", strerror(-fd[0]));
	pebs_attr(&attr, PERF_TYPE_RAW, pmu->raw_instructions, 2,
		  PERF_SAMPLE_IP, false);
	attr.disabled = 0;
	fd[1] = pebs_open(&attr, fd[0], &rb[1]);
	ASSERT_LE(0, fd[1]) TH_LOG("r00c0:upp: %s", strerror(-fd[1]));
	pebs_window(fd[0], true, PEBS_N, rb, 2, idx);
	for (i = 0; i < 2; i++) {
		pebs_tally(&rb[i], 0, false, NULL, &t[i]);
		perf_rb_unmap(&rb[i]);
		close(fd[i]);
		EXPECT_NE(0, idx[i]);
		EXPECT_PEBS(t[i], PEBS_N, true);
	}
	EXPECT_EQ(pebs_insns_on_fixed(), on_fixed(idx[0]) + on_fixed(idx[1]))
		TH_LOG("RDPMC indexes %#x %#x", idx[0], idx[1]);
	EXPECT_EQ(t[0].samples, t[1].samples);
	for (i = 0; i < t[0].samples && i < t[1].samples && i < PEBS_IPS; i++)
		differ += t[0].ip[i] != t[1].ip[i];
	EXPECT_EQ(0, differ);
}

/* The instruction after @ip where the path is certain, else 0 */
static __u64 next_insn(__u64 ip)
{
	if (in_sled(ip, 0))
		return ip + 1;
	if (ip == (unsigned long)pebs_sled_ret)
		return (unsigned long)pebs_back;
	if (ip == (unsigned long)pebs_call)
		return (unsigned long)pebs_sled;
	if (ip == (unsigned long)pebs_back)
		return (unsigned long)pebs_jnz;
	return 0;	/* the jnz: taken, but at the last pass */
}

/*
 * precise_ip 1: run as at precise_ip 2, the samples come at the same
 * instructions, but each one's ip is that of the record's register group,
 * the next instruction (a branch's target), and none has EXACT_IP.
 */
TEST(pebs_precise_one_next_ip)
{
	unsigned long i, compared = 0, wrong = 0;
	struct perf_event_attr attr;
	struct pebs_tally t[2];
	__u64 next;
	int p;

	PEBS_REQUIRE();
	for (p = 0; p < 2; p++) {
		pebs_attr(&attr, PERF_TYPE_HARDWARE,
			  PERF_COUNT_HW_INSTRUCTIONS, 2 - p, PERF_SAMPLE_IP,
			  false);
		pebs_series(_metadata, &attr, PEBS_N, p, NULL, &t[p]);
	}
	EXPECT_EQ(t[0].samples, t[1].samples);
	for (i = 0; i < t[0].samples && i < t[1].samples && i < PEBS_IPS; i++) {
		next = next_insn(t[0].ip[i]);
		if (!next)
			continue;
		compared++;
		if (t[1].ip[i] != next && !wrong++)
			TH_LOG("sample %lu at %llx, then %llx, not %llx", i,
			       (unsigned long long)t[0].ip[i],
			       (unsigned long long)t[1].ip[i],
			       (unsigned long long)next);
	}
	EXPECT_LE(t[0].in_sled, compared);
	EXPECT_EQ(0, wrong);
}

/*
 * Large PEBS (a fixed period, no wakeup per sample, IP only): records
 * pile up in the buffer, drained at its threshold's interrupt, a task
 * switch and as the event stops; the counter reloads itself, so there is
 * no RDPMC index.  Every record reaches the ring: the same exact series.
 */
TEST(pebs_large_all_samples)
{
	struct perf_event_attr attr;
	struct pebs_tally t;

	PEBS_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 2,
		  PERF_SAMPLE_IP, true);
	EXPECT_EQ(0, pebs_series(_metadata, &attr, PEBS_N, 0, NULL, &t));
}

/*
 * Large PEBS with PERF_SAMPLE_TIME, which the record holds (its TSC):
 * the same series, in time order, the time moving on.
 */
TEST(pebs_large_time)
{
	struct perf_event_attr attr;
	struct pebs_tally t;

	PEBS_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 2,
		  PERF_SAMPLE_IP | PERF_SAMPLE_TIME, true);
	EXPECT_EQ(0, pebs_series(_metadata, &attr, PEBS_N, 0, NULL, &t));
	EXPECT_EQ(0, t.back);
	EXPECT_LT(t.time[0], t.time[1]);
}

/* The abi, bx, sp and ip of @s (in their bits' order) are pebs_run()'s */
static bool regs_of_run(const struct pebs_sample *s, unsigned long *good)
{
	return s->v[0] == PERF_SAMPLE_REGS_ABI_64 && s->v[1] == PEBS_BX &&
	       s->v[2] == pebs_run_sp - 8 && s->v[3] == s->ip;
}

/*
 * PERF_SAMPLE_REGS_INTR of bx, sp and ip, large PEBS (nothing but the
 * record's register group, the state after the eventing instruction, can
 * give them then): in the sled, bx is what pebs_run() was given, sp its
 * %rsp less the call's return address, ip the sample's.
 */
TEST(pebs_regs_intr)
{
	struct perf_event_attr attr;
	struct pebs_tally t;

	PEBS_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 2,
		  PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR, true);
	attr.sample_regs_intr = PEBS_REGS;
	EXPECT_EQ(0, pebs_series(_metadata, &attr, PEBS_N, 0, regs_of_run,
				 &t));
}

/* @e is the branch @from -> @to */
static bool is_branch(const struct perf_branch_entry *e, const char *from,
		      const char *to)
{
	return e->from == (unsigned long)from && e->to == (unsigned long)to;
}

/*
 * The branch stack of @s (its nr, then the entries): youngest first the
 * call into the sled, counted in *@called when the jnz and the sled's ret
 * come next; or a return into the sled (an interrupt's) at or before the
 * sample's ip; or none at all, the records wiped as the task came back
 * to a CPU since the call.
 */
static bool stack_of_run(const struct pebs_sample *s, unsigned long *called)
{
	const struct perf_branch_entry *e = (const void *)&s->v[1];
	__u64 nr = s->v[0];

	if (nr && is_branch(&e[0], pebs_call, pebs_sled)) {
		*called += nr >= 3 && is_branch(&e[1], pebs_jnz, pebs_call) &&
			   is_branch(&e[2], pebs_sled_ret, pebs_back);
		return true;
	}
	return !nr || (!in_sled(e[0].from, 0) && in_sled(e[0].to, 0) &&
		       e[0].to <= s->ip);
}

/*
 * PERF_SAMPLE_BRANCH_STACK (any branch, user mode) with the precise
 * event, large PEBS, the stack from the record's LBR group (format 3
 * has none: an interrupt per record, the stack the LBR's then, and the
 * event has an RDPMC index as any that is not large): each sample
 * in the sled has the call into it as its youngest branch (see
 * stack_of_run() for what else may be there); the most (all but the
 * first pass's) have the jnz and the ret before the call.
 */
TEST(pebs_branch_stack)
{
	struct perf_event_attr attr;
	struct pebs_tally t;

	PEBS_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 2,
		  PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK, true);
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
				  PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(pebs_skylake(),
		  pebs_series(_metadata, &attr, PEBS_LBR_N, 0, stack_of_run,
			      &t) != 0);
	EXPECT_LE(t.in_sled * 3 / 4, t.good);
}

/* Open a user-mode event of @period at @precise: 0, or -errno */
static int try_precise(__u32 type, __u64 config, int precise, __u64 period)
{
	struct perf_event_attr attr;
	int fd;

	pebs_attr(&attr, type, config, precise, PERF_SAMPLE_IP, false);
	attr.sample_period = period;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * caps/max_precise is 2 (precise distribution, 3, is for the models
 * stock knows by number: of ours, the Skylake and the Sapphire Rapids),
 * and so is the most precise_ip opens: 3 gets EOPNOTSUPP, on the generic
 * and the raw event alike, and a precise event that does not sample
 * EINVAL.  Stock says 0 until a first hardware event took the debug
 * store: one is held open.
 */
TEST(pebs_max_precise)
{
	static const __u32 type[2] = { PERF_TYPE_HARDWARE, PERF_TYPE_RAW };
	char name[128], path[256];
	__u64 config[2];
	int hold, i;

	PEBS_REQUIRE();
	config[0] = PERF_COUNT_HW_INSTRUCTIONS;
	config[1] = pmu->raw_instructions;
	hold = open_hw_user(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1,
			    -1);
	ASSERT_LE(0, hold) TH_LOG("instructions: %s", strerror(errno));
	ASSERT_EQ(0, find_cpu_pmu(name, sizeof(name)));
	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/caps/max_precise",
		 name);
	EXPECT_EQ(pebs_prec_dist() ? 3 : 2, read_long(path));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, try_precise(type[i], config[i], 1, PEBS_P));
		EXPECT_EQ(0, try_precise(type[i], config[i], 2, PEBS_P));
		EXPECT_EQ(pebs_prec_dist() ? 0 : -EOPNOTSUPP,
			  try_precise(type[i], config[i], 3, PEBS_P));
		EXPECT_EQ(-EINVAL, try_precise(type[i], config[i], 1, 0));
	}
	close(hold);
}

#define PEBS_SKYLAKE_REQUIRE() do {					\
	PEBS_REQUIRE();							\
	if (!pebs_skylake())						\
		SKIP(return, "not a Skylake: no INST_RETIRED.PREC_DIST");	\
} while (0)

/*
 * Skylake, precise_ip 3 (perf's :ppp): core cycles sample as
 * INST_RETIRED.PREC_DIST counted on every cycle (an inverted threshold
 * of 16), which only general-purpose counter 1 distributes precisely:
 * the event is there (RDPMC index 2), its series exact.
 */
TEST(pebs_prec_dist_cycles)
{
	struct perf_event_attr attr;
	struct pebs_tally t;

	PEBS_SKYLAKE_REQUIRE();
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 3,
		  PERF_SAMPLE_IP, false);
	attr.sample_period = pmu->cycles_per_insn * PEBS_P;
	EXPECT_EQ(2, pebs_series(_metadata, &attr, PEBS_N, 0, NULL, &t));
}

/*
 * Open @n events of @config at @precise in one group, the members
 * enabled (a group's check counts those and the leader): 0, or -errno.
 */
static int precise_group(__u64 config, int precise, int n)
{
	struct perf_event_attr attr;
	int fd[8], i, err = 0;

	for (i = 0; i < n && !err; i++) {
		pebs_attr(&attr, PERF_TYPE_RAW, config, precise,
			  PERF_SAMPLE_IP, false);
		attr.disabled = !i;
		fd[i] = sys_perf_event_open(&attr, 0, -1, i ? fd[0] : -1, 0);
		if (fd[i] < 0) {
			err = -errno;
			break;
		}
	}
	while (i--)
		close(fd[i]);
	return err;
}

/*
 * Skylake: raw INST_RETIRED.PREC_DIST (0x01c0) sampled precisely takes
 * counter 1 alone, so a group of two cannot be scheduled (EINVAL); and
 * any precise event takes counters 0-3 alone: a group of four fits, of
 * five not, where five not precise fit (the model has eight).
 */
TEST(pebs_skylake_counters)
{
	PEBS_SKYLAKE_REQUIRE();
	ASSERT_LE(5, pmu->gp_counters);
	EXPECT_EQ(0, precise_group(0x01c0, 2, 1));
	EXPECT_EQ(-EINVAL, precise_group(0x01c0, 2, 2));
	EXPECT_EQ(0, precise_group(pmu->raw_instructions, 2, 4));
	EXPECT_EQ(-EINVAL, precise_group(pmu->raw_instructions, 2, 5));
	EXPECT_EQ(0, precise_group(pmu->raw_instructions, 0, 5));
}

#define PEBS_GOLDEN_COVE_REQUIRE() do {					\
	PEBS_REQUIRE();							\
	if (pebs_kind() != PEBS_GOLDEN_COVE)				\
		SKIP(return, "not a Golden Cove server: no PDist on counter 0"); \
} while (0)

/*
 * Golden Cove (stock's glc_get_event_constraints and glc_limit_period),
 * precise_ip 3: core cycles on counter 0, the one with the precise
 * distribution (RDPMC index 1), instructions on fixed counter 0, both
 * exact series; two such cycles events cannot be scheduled together
 * (EINVAL), two at precise_ip 2 can.  An event whose counters leave
 * out counter 0 (INST_RETIRED.PREC_DIST's old code 0x01c0, counters 1-7
 * by the family's table) is refused at 3 (EINVAL) and taken at 2.  A
 * period under 128 is refused at 3 alone.  A memory event
 * (MEM_INST_RETIRED.ALL_LOADS) samples precisely on counters 0-3 only,
 * as it counts.
 */
TEST(pebs_golden_cove_counters)
{
	struct perf_event_attr attr;
	struct pebs_tally t;

	PEBS_GOLDEN_COVE_REQUIRE();
	ASSERT_LE(5, pmu->gp_counters);
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 3,
		  PERF_SAMPLE_IP, false);
	attr.sample_period = pmu->cycles_per_insn * PEBS_P;
	EXPECT_EQ(1, pebs_series(_metadata, &attr, PEBS_N, 0, NULL, &t));
	pebs_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 3,
		  PERF_SAMPLE_IP, false);
	EXPECT_EQ(0x40000001, pebs_series(_metadata, &attr, PEBS_N, 0, NULL,
					  &t));

	EXPECT_EQ(0, precise_group(0x003c, 3, 1));
	EXPECT_EQ(-EINVAL, precise_group(0x003c, 3, 2));
	EXPECT_EQ(0, precise_group(0x003c, 2, 2));
	EXPECT_EQ(-EINVAL, precise_group(0x01c0, 3, 1));
	EXPECT_EQ(0, precise_group(0x01c0, 2, 1));
	EXPECT_EQ(-EINVAL, try_precise(PERF_TYPE_RAW, 0x003c, 3, 127));
	EXPECT_EQ(0, try_precise(PERF_TYPE_RAW, 0x003c, 3, 128));
	EXPECT_EQ(0, try_precise(PERF_TYPE_RAW, 0x003c, 2, 127));
	EXPECT_EQ(0, precise_group(0x81d0, 2, 4));
	EXPECT_EQ(-EINVAL, precise_group(0x81d0, 2, 5));
}

/*
 * perf mem's events as stock lists them where Sapphire Rapids' PEBS is
 * driven (glc_events_attrs): loads above a latency, the store-latency
 * event, and the auxiliary event a load-latency event needs as leader.
 */
TEST(pebs_golden_cove_mem_events)
{
	static const char *const ev[][2] = {
		{ "mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
		{ "mem-stores", "event=0xcd,umask=0x2\n" },
		{ "mem-loads-aux", "event=0x03,umask=0x82\n" },
	};
	char name[128], path[256], buf[128];
	unsigned int i;

	PEBS_GOLDEN_COVE_REQUIRE();
	ASSERT_EQ(0, find_cpu_pmu(name, sizeof(name)));
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		snprintf(path, sizeof(path), EVENT_SOURCE "/%s/events/%s",
			 name, ev[i][0]);
		buf[0] = 0;
		EXPECT_LT(0, read_file(path, buf, sizeof(buf)))
			TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_STREQ(ev[i][1], buf);
	}
}

TEST_HARNESS_MAIN
