// SPDX-License-Identifier: GPL-2.0
/*
 * Branch stacks from Arm's Branch Record Buffer Extension
 * (PERF_SAMPLE_BRANCH_STACK on arm64): what perf record -b asks for.
 *
 * 6.12 has no BRBE driver; upstream merged one in 6.17.  The oracle for
 * these cases is therefore KERNEL=mainline (Debian's linux-source-7.3,
 * harness/mainline-tree.sh), and on KERNEL=stock they skip: that kernel
 * refuses every branch stack on arm64 with EOPNOTSUPP.
 *
 * The CPU is our QEMU's brbe=on (harness/boot.sh's spe model, which
 * says so with perfcore.brbe=<records> on the kernel command line):
 * 64 records in two banks, a record for every taken A64 branch, each
 * exception with BRBCR.EXCEPTION (from its preferred return address to
 * its vector) and each exception return with BRBCR.ERTN; cycle counts
 * are the CPU's instructions since its previous record (1 GHz, -icount
 * shift=0); the mispredict bit is never set.  Recording pauses at a
 * counter overflow (BRBCR.FZP), so the stack a sample carries ends at
 * the instruction that overflowed.
 *
 * The loops are assembly, so every branch they take is known by
 * address: brbe_loop takes four per iteration, in this order
 *
 *   brbe_b:    b brbe_bl		(direct, unconditional)
 *   brbe_bl:   bl brbe_ret		(direct call)
 *   brbe_ret:  ret			(back to brbe_back)
 *   brbe_back: subs x0, x0, #1
 *   brbe_bne:  b.ne brbe_b		(conditional)
 *
 * and a sample taken in it must list exactly those, youngest first.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"
#include "branch_stack.h"
#include <sched.h>
#include <sys/wait.h>

#if defined(__aarch64__)
/*
 * Every label C reads is global: the address of a local one is taken
 * through the GOT against its section, which the static link gets wrong.
 */
#define BRBE_LABEL(l)	".globl " #l "\n"
asm(".text\n"
	".p2align 4\n"
	".globl brbe_loop\n"
	".type brbe_loop, @function\n"
	"brbe_loop:\n"
	"\tmov x9, x30\n"
	BRBE_LABEL(brbe_b) "brbe_b:\n\tb brbe_bl\n"
	"\tudf #0\n"
	BRBE_LABEL(brbe_bl) "brbe_bl:\n\tbl brbe_ret\n"
	BRBE_LABEL(brbe_back) "brbe_back:\n\tsubs x0, x0, #1\n"
	BRBE_LABEL(brbe_bne) "brbe_bne:\n\tb.ne brbe_b\n"
	"\tret x9\n"
	BRBE_LABEL(brbe_ret) "brbe_ret:\n\tret\n"
	BRBE_LABEL(brbe_loop_end) "brbe_loop_end:\n"
	".size brbe_loop, .-brbe_loop\n"
	/* the indirect kinds: br, blr, the ret it calls, b.ne */
	".p2align 4\n"
	".globl brbe_ind_loop\n"
	".type brbe_ind_loop, @function\n"
	"brbe_ind_loop:\n"
	"\tmov x9, x30\n"
	"\tadr x10, brbe_ind_blr\n"
	"\tadr x11, brbe_ind_f\n"
	BRBE_LABEL(brbe_ind_br) "brbe_ind_br:\n\tbr x10\n"
	"\tudf #0\n"
	BRBE_LABEL(brbe_ind_blr) "brbe_ind_blr:\n\tblr x11\n"
	BRBE_LABEL(brbe_ind_back) "brbe_ind_back:\n\tsubs x0, x0, #1\n"
	BRBE_LABEL(brbe_ind_bne) "brbe_ind_bne:\n\tb.ne brbe_ind_br\n"
	"\tret x9\n"
	BRBE_LABEL(brbe_ind_f) "brbe_ind_f:\n\tret\n"
	BRBE_LABEL(brbe_ind_end) "brbe_ind_end:\n"
	".size brbe_ind_loop, .-brbe_ind_loop\n"
	/* a system call (getppid) at every turn */
	".p2align 4\n"
	".globl brbe_svc_loop\n"
	".type brbe_svc_loop, @function\n"
	"brbe_svc_loop:\n"
	"\tmov x10, x0\n"
	"1:\tmov x8, #173\n"
	BRBE_LABEL(brbe_svc) "brbe_svc:\n\tsvc #0\n"
	BRBE_LABEL(brbe_svc_back) "brbe_svc_back:\n\tsubs x10, x10, #1\n"
	BRBE_LABEL(brbe_svc_bne) "brbe_svc_bne:\n\tb.ne 1b\n"
	"\tret\n"
	BRBE_LABEL(brbe_svc_end) "brbe_svc_end:\n"
	".size brbe_svc_loop, .-brbe_svc_loop\n");

void brbe_loop(unsigned long n);
void brbe_ind_loop(unsigned long n);
void brbe_svc_loop(unsigned long n);
extern char brbe_b[], brbe_bl[], brbe_back[], brbe_bne[], brbe_ret[],
	    brbe_loop_end[];
extern char brbe_ind_loop_start[] asm("brbe_ind_loop");
extern char brbe_ind_br[], brbe_ind_blr[], brbe_ind_back[], brbe_ind_bne[],
	    brbe_ind_f[], brbe_ind_end[];
extern char brbe_svc_back[], brbe_svc_bne[], brbe_svc_end[];
extern char brbe_svc_loop_start[] asm("brbe_svc_loop");
#define BRBE_ARCH	1
#else
static void brbe_loop(unsigned long n) { }
static void brbe_ind_loop(unsigned long n) { }
static void brbe_svc_loop(unsigned long n) { }
static char brbe_b[1], brbe_bl[1], brbe_back[1], brbe_bne[1], brbe_ret[1],
	    brbe_loop_end[1];
static char brbe_ind_loop_start[1], brbe_ind_br[1], brbe_ind_blr[1],
	    brbe_ind_back[1], brbe_ind_bne[1], brbe_ind_f[1], brbe_ind_end[1];
static char brbe_svc_back[1], brbe_svc_bne[1], brbe_svc_end[1],
	    brbe_svc_loop_start[1];
#define BRBE_ARCH	0
#endif

#define BRBE_PERIOD	2003		/* prime to the loops' 5 */
#define BRBE_KERNEL_PERIOD	20011
#define BRBE_KERNEL_DEBUG_PERIOD	200003
#define KERNEL_ADDR	0xffff000000000000ULL

/*
 * The records the CPU keeps, from the harness's perfcore.brbe=<n>, or 0
 * where the CPU has no BRBE
 */
static long brbe_cpu_records(void)
{
	char cmdline[4096], *p;

	if (read_file("/proc/cmdline", cmdline, sizeof(cmdline)) < 0)
		return 0;
	p = strstr(cmdline, "perfcore.brbe=");
	return p ? strtol(p + strlen("perfcore.brbe="), NULL, 10) : 0;
}

/* The depth the kernel reports for the cpu PMU (caps/branches), or 0 */
static long brbe_depth(void)
{
	char name[128], path[256];
	long v;

	if (find_cpu_pmu(name, sizeof(name)))
		return 0;
	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/caps/branches", name);
	v = read_long(path);
	return v == LONG_MIN ? 0 : v;
}

/*
 * Skip where the CPU has no BRBE, or on 6.12 stock (no driver: the
 * oracle is KERNEL=mainline); elsewhere the PMU must offer every record
 * the CPU has.
 */
#define BRBE_REQUIRE() do {						\
	if (!BRBE_ARCH)							\
		SKIP(return, "arm64 BRBE cases (x86's LBR is lbr.c)");	\
	HW_REQUIRE();							\
	if (!brbe_cpu_records())					\
		SKIP(return, "the CPU has no BRBE");			\
	if (kernel_cmdline_has("perfcore.kernel=stock"))		\
		SKIP(return, "6.12 has no BRBE driver (KERNEL=mainline is the oracle)"); \
	ASSERT_EQ(brbe_cpu_records(), brbe_depth())			\
		TH_LOG("caps/branches is not the CPU's record count");	\
} while (0)

static void __attribute__((constructor)) brbe_no_throttling(void)
{
	no_throttling();
}

/* The loops' four branches, in the order they take them */
static void loop_pairs(struct branch_pair p[NR_LOOP_BR])
{
	p[BR_FIRST] = (struct branch_pair){ (unsigned long)brbe_b,
		(unsigned long)brbe_bl, 1, PERF_BR_UNCOND };
	p[BR_CALL] = (struct branch_pair){ (unsigned long)brbe_bl,
		(unsigned long)brbe_ret, 1, PERF_BR_CALL };
	p[BR_RET] = (struct branch_pair){ (unsigned long)brbe_ret,
		(unsigned long)brbe_back, 1, PERF_BR_RET };
	p[BR_COND] = (struct branch_pair){ (unsigned long)brbe_bne,
		(unsigned long)brbe_b, 2, PERF_BR_COND };
}

static void ind_loop_pairs(struct branch_pair p[NR_LOOP_BR])
{
	p[BR_FIRST] = (struct branch_pair){ (unsigned long)brbe_ind_br,
		(unsigned long)brbe_ind_blr, 1, PERF_BR_IND };
	p[BR_CALL] = (struct branch_pair){ (unsigned long)brbe_ind_blr,
		(unsigned long)brbe_ind_f, 1, PERF_BR_IND_CALL };
	p[BR_RET] = (struct branch_pair){ (unsigned long)brbe_ind_f,
		(unsigned long)brbe_ind_back, 1, PERF_BR_RET };
	p[BR_COND] = (struct branch_pair){ (unsigned long)brbe_ind_bne,
		(unsigned long)brbe_ind_br, 2, PERF_BR_COND };
}

static bool in_range(__u64 a, const char *start, const char *end)
{
	return a >= (unsigned long)start && a < (unsigned long)end;
}

static bool in_loop(__u64 a)
{
	return in_range(a, brbe_b, brbe_loop_end);
}

/* A sample in loop @p: its body, or the few instructions before it */
static bool sample_in(const struct branch_pair *p, __u64 ip)
{
	return in_range(ip, (char *)p[BR_FIRST].from - 16,
			(char *)p[BR_RET].from + 4);
}

/*
 * Whether sample @s in a loop holds fewer records than the CPU keeps
 * (@depth).  The buffer is emptied whenever the PMU starts (after each
 * interrupt, and when the task comes back to the CPU), so a sample
 * soon after a switch has a short stack: a few may; none may hold more.
 */
static int brbe_short(struct __test_metadata *_metadata,
		      const struct branch_sample *s, long depth,
		      unsigned long *bad)
{
	if (s->nr > (__u64)depth && (*bad)++ < 3)
		TH_LOG("sample at %llx: %llu records, more than %ld",
		       (unsigned long long)s->ip, (unsigned long long)s->nr,
		       depth);
	return s->nr < (__u64)depth;
}

/*
 * A sampling event on instructions of user mode (or of both modes with
 * @kernel) for task @pid on @cpu, recording IP and the branch stack
 * @branch_type every @period.  Returns the fd, or -errno.
 */
static int open_brbe(__u64 branch_type, bool kernel, pid_t pid, int cpu,
		     __u64 period, struct perf_rb *rb)
{
	struct perf_event_attr attr;
	int fd, err;

	attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
	attr.exclude_kernel = !kernel;
	attr.exclude_hv = 1;
	attr.sample_period = period;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = branch_type;
	fd = sys_perf_event_open(&attr, pid, cpu, -1, 0);
	if (fd < 0)
		return -errno;
	if (rb && perf_rb_map(rb, fd, 256)) {
		err = -errno;
		close(fd);
		return err;
	}
	return fd;
}

#define OPEN_BRBE(fd, type, rb) do {					\
	fd = open_brbe(type, false, 0, -1, BRBE_PERIOD, rb);		\
	ASSERT_LE(0, fd)						\
		TH_LOG("branch stack 0x%llx: %s", (unsigned long long)(type), \
		       strerror(-fd));					\
} while (0)

/*
 * Any branch, user mode, on loop @p: every sample in the loop carries
 * all the records the CPU keeps (but a few, brbe_short()), each the
 * loop's next older branch:
 * nothing else runs in user mode there, and with the kernel excluded
 * neither exceptions nor returns are recorded.  With @check_types each
 * record's type, privilege and cycles are the branch's too: cycles are
 * the instructions since the record before, all but a few (those an
 * interrupt came between) exactly.
 */
static void any_user(struct __test_metadata *_metadata, struct branch_pair *p,
		     void (*loop)(unsigned long), bool check_types)
{
	unsigned long samples = 0, bad = 0, timed = 0, longer = 0;
	unsigned long short_stacks = 0;
	struct branch_sample s;
	struct perf_rb rb;
	long depth = brbe_depth();
	__u64 type = PERF_SAMPLE_BRANCH_ANY;
	__u64 i;
	int fd;

	if (check_types)
		type |= PERF_SAMPLE_BRANCH_TYPE_SAVE;
	OPEN_BRBE(fd, type, &rb);
	run_enabled(fd, loop, 200000);

	while (next_sample(&rb, &s)) {
		int prev = -1, b;

		if (!sample_in(p, s.ip))
			continue;
		samples++;
		short_stacks += brbe_short(_metadata, &s, depth, &bad);
		for (i = 0; i < s.nr; i++) {
			b = loop_branch(p, &s.e[i]);
			if (b < 0 || (prev >= 0 && b != (prev + 3) % 4)) {
				BAD_RECORD(i, &s.e[i], "out of the loop's order");
				prev = -1;
				continue;
			}
			prev = b;
			if (!check_types)
				continue;
			if (s.e[i].type != p[b].type && bad++ < 3)
				TH_LOG("branch %d: type %u, not %d", b,
				       s.e[i].type, p[b].type);
			if (s.e[i].priv != PERF_BR_PRIV_USER && bad++ < 3)
				TH_LOG("branch %d: privilege %u", b,
				       s.e[i].priv);
			if ((s.e[i].mispred || !s.e[i].predicted) && bad++ < 3)
				TH_LOG("branch %d: mispredicted", b);
			/*
			 * Cycles since the record before, which an
			 * interrupt between the two (a tick) lengthens.
			 */
			timed++;
			if (s.e[i].cycles < p[b].instructions *
			    pmu->cycles_per_insn && bad++ < 3)
				TH_LOG("branch %d: %u cycles, not %d", b,
				       s.e[i].cycles,
				       p[b].instructions * pmu->cycles_per_insn);
			if (s.e[i].cycles != p[b].instructions *
			    pmu->cycles_per_insn)
				longer++;
		}
	}
	close(fd);
	EXPECT_LT(100, samples);
	EXPECT_EQ(0, bad);
	EXPECT_LT(short_stacks * 20, samples)
		TH_LOG("%lu of %lu stacks short", short_stacks, samples);
	if (check_types)
		EXPECT_LT(longer * 50, timed)
			TH_LOG("%lu of %lu records longer", longer, timed);
}

TEST(brbe_any_user_loop)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	loop_pairs(p);
	any_user(_metadata, p, brbe_loop, false);
}

/* Types, privilege, prediction and cycles of the direct kinds */
TEST(brbe_type_direct)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	loop_pairs(p);
	any_user(_metadata, p, brbe_loop, true);
}

/* And of the indirect kinds: br, blr */
TEST(brbe_type_indirect)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	ind_loop_pairs(p);
	any_user(_metadata, p, brbe_ind_loop, true);
}

/*
 * One filter: every record of every sample in the loop is the loop's
 * branch of kind @want, and a sample holds all the CPU keeps of them
 * (but a few, brbe_short()).
 */
static void filter_one(struct __test_metadata *_metadata,
		       struct branch_pair *p, void (*loop)(unsigned long),
		       __u64 type, int want)
{
	unsigned long samples = 0, bad = 0, short_stacks = 0;
	struct branch_sample s;
	struct perf_rb rb;
	long depth = brbe_depth();
	__u64 i;
	int fd;

	OPEN_BRBE(fd, type, &rb);
	run_enabled(fd, loop, 400000);

	while (next_sample(&rb, &s)) {
		if (!sample_in(p, s.ip))
			continue;
		samples++;
		short_stacks += brbe_short(_metadata, &s, depth, &bad);
		for (i = 0; i < s.nr; i++)
			if (loop_branch(p, &s.e[i]) != want)
				BAD_RECORD(i, &s.e[i], "is not the one kind");
	}
	close(fd);
	EXPECT_LT(100, samples);
	EXPECT_EQ(0, bad);
	EXPECT_LT(short_stacks * 20, samples)
		TH_LOG("%lu of %lu stacks short", short_stacks, samples);
}

TEST(brbe_filter_any_call)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	loop_pairs(p);
	filter_one(_metadata, p, brbe_loop, PERF_SAMPLE_BRANCH_ANY_CALL,
		   BR_CALL);
}

TEST(brbe_filter_call)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	loop_pairs(p);
	filter_one(_metadata, p, brbe_loop, PERF_SAMPLE_BRANCH_CALL, BR_CALL);
}

TEST(brbe_filter_ind_call)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	ind_loop_pairs(p);
	filter_one(_metadata, p, brbe_ind_loop, PERF_SAMPLE_BRANCH_IND_CALL,
		   BR_CALL);
}

TEST(brbe_filter_ind_jump)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	ind_loop_pairs(p);
	filter_one(_metadata, p, brbe_ind_loop, PERF_SAMPLE_BRANCH_IND_JUMP,
		   BR_FIRST);
}

TEST(brbe_filter_return)
{
	struct branch_pair p[NR_LOOP_BR];

	BRBE_REQUIRE();
	loop_pairs(p);
	filter_one(_metadata, p, brbe_loop, PERF_SAMPLE_BRANCH_ANY_RETURN,
		   BR_RET);
}

/* Two filters at once: the loop's b.ne and ret alternate */
TEST(brbe_filter_cond_ret)
{
	struct branch_pair p[NR_LOOP_BR];
	unsigned long samples = 0, bad = 0;
	struct branch_sample s;
	struct perf_rb rb;
	int fd;

	BRBE_REQUIRE();
	loop_pairs(p);
	OPEN_BRBE(fd, PERF_SAMPLE_BRANCH_COND | PERF_SAMPLE_BRANCH_ANY_RETURN,
		  &rb);
	run_enabled(fd, brbe_loop, 200000);

	while (next_sample(&rb, &s)) {
		if (!in_loop(s.ip))
			continue;
		samples++;
		cond_ret_in_turn(_metadata, p, &s, &bad);
	}
	close(fd);
	EXPECT_LT(100, samples);
	EXPECT_EQ(0, bad);
}

/*
 * A user-mode event around system calls: the kernel's addresses never
 * show, and neither the SVC nor the return from it is recorded (their
 * other end is the kernel): the stack is the loop's b.ne alone.
 */
TEST(brbe_user_syscalls)
{
	unsigned long samples = 0, bad = 0;
	struct branch_sample s;
	struct perf_rb rb;
	__u64 i;
	int fd;

	BRBE_REQUIRE();
	OPEN_BRBE(fd, PERF_SAMPLE_BRANCH_ANY, &rb);
	run_enabled(fd, brbe_svc_loop, 60000);

	while (next_sample(&rb, &s)) {
		if (!in_range(s.ip, brbe_svc_loop_start, brbe_svc_end))
			continue;
		samples++;
		for (i = 0; i < s.nr; i++)
			if (s.e[i].from != (unsigned long)brbe_svc_bne ||
			    s.e[i].to != (unsigned long)brbe_svc_loop_start + 4)
				BAD_RECORD(i, &s.e[i], "is not the b.ne");
	}
	close(fd);
	EXPECT_LT(50, samples);
	EXPECT_EQ(0, bad);
}

/*
 * Both modes around system calls: the SVC is recorded from its
 * preferred return address (the instruction after it) to the kernel,
 * as PERF_BR_SYSCALL, and the return to user mode as PERF_BR_ERET from
 * the kernel to that same instruction.
 */
TEST(brbe_kernel_syscalls)
{
	unsigned long samples = 0, calls = 0, erets = 0, bad = 0;
	struct branch_sample s;
	struct perf_rb rb;
	__u64 i;
	int fd;

	BRBE_REQUIRE();
	fd = open_brbe(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE,
		       true, 0, -1, debug_kernel() ? BRBE_KERNEL_DEBUG_PERIOD :
		       BRBE_KERNEL_PERIOD, &rb);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(-fd));
	run_enabled(fd, brbe_svc_loop, debug_kernel() ? 20000 : 60000);

	while (next_sample(&rb, &s)) {
		samples++;
		for (i = 0; i < s.nr; i++) {
			struct perf_branch_entry *e = &s.e[i];

			if (e->from == (unsigned long)brbe_svc_back) {
				calls++;
				if (e->type != PERF_BR_SYSCALL ||
				    e->to < KERNEL_ADDR ||
				    e->priv != PERF_BR_PRIV_KERNEL)
					BAD_RECORD(i, e, "is no system call");
			}
			if (e->to == (unsigned long)brbe_svc_back) {
				erets++;
				if (e->type != PERF_BR_ERET ||
				    e->from < KERNEL_ADDR ||
				    e->priv != PERF_BR_PRIV_USER)
					BAD_RECORD(i, e, "is no return to user");
			}
		}
	}
	close(fd);
	EXPECT_LT(10, samples);
	EXPECT_LT(10, calls);
	EXPECT_LT(10, erets);
	EXPECT_EQ(0, bad);
	TH_LOG("%lu samples, %lu calls, %lu returns", samples, calls, erets);
}

/*
 * What BRBE cannot do is refused as the oracle refuses it: the driver
 * with EOPNOTSUPP, a stack of no kind of branch already the core, with
 * EINVAL.
 */
TEST(brbe_refused)
{
	static const struct {
		__u64 type;
		int exclude_user, exclude_kernel, err;
		const char *what;
	} cases[] = {
		{ PERF_SAMPLE_BRANCH_CALL_STACK, 0, 1, EOPNOTSUPP, "call stack" },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_IN_TX, 0, 1,
		  EOPNOTSUPP, "in transaction" },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_NO_TX, 0, 1,
		  EOPNOTSUPP, "no transaction" },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_ABORT_TX, 0, 1,
		  EOPNOTSUPP, "aborts" },
		{ PERF_SAMPLE_BRANCH_ANY, 1, 1, EOPNOTSUPP, "neither mode" },
		{ PERF_SAMPLE_BRANCH_USER, 0, 1, EINVAL, "no branch type" },
	};
	struct perf_event_attr attr;
	unsigned int i;
	int fd;

	BRBE_REQUIRE();
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		attr_hw(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS);
		attr.exclude_user = cases[i].exclude_user;
		attr.exclude_kernel = cases[i].exclude_kernel;
		attr.sample_period = BRBE_PERIOD;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = cases[i].type;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		EXPECT_EQ(-1, fd) TH_LOG("%s accepted", cases[i].what);
		EXPECT_EQ(cases[i].err, errno) TH_LOG("%s: %s", cases[i].what,
						      strerror(errno));
		if (fd >= 0)
			close(fd);
	}
}

/*
 * The buffer holds another task's branches where a CPU-wide event keeps
 * BRBE recording while a task's event is switched out; the task's
 * samples must never show them.  Parent and child share CPU 0 and
 * yield to each other; the child runs brbe_ind_loop, which the parent
 * never calls, under the parent's CPU-wide event.
 */
TEST(brbe_other_task_invisible)
{
	unsigned long samples = 0, bad = 0, round;
	struct branch_sample s;
	struct perf_rb rb;
	int cpu_fd, fd, go[2];
	pid_t child;
	__u64 i;

	BRBE_REQUIRE();
	ASSERT_EQ(0, pin_to_cpu(0));
	cpu_fd = open_brbe(PERF_SAMPLE_BRANCH_ANY, false, -1, 0,
			   1ULL << 40, NULL);
	ASSERT_LE(0, cpu_fd) TH_LOG("CPU-wide: %s", strerror(-cpu_fd));
	ASSERT_EQ(0, pipe(go));
	child = fork();
	ASSERT_LE(0, child);
	if (child == 0) {
		char c;

		close(go[1]);
		while (read(go[0], &c, 1) < 0 && errno == EINTR)
			;
		for (round = 0; round < 4000; round++) {
			brbe_ind_loop(40);
			sched_yield();
		}
		_exit(0);
	}
	close(go[0]);
	OPEN_BRBE(fd, PERF_SAMPLE_BRANCH_ANY, &rb);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ASSERT_EQ(1, write(go[1], "g", 1));
	for (round = 0; round < 4000; round++) {
		brbe_loop(40);
		sched_yield();
	}
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	close(go[1]);
	waitpid(child, NULL, 0);
	close(cpu_fd);

	while (next_sample(&rb, &s)) {
		samples++;
		for (i = 0; i < s.nr; i++)
			if (in_range(s.e[i].from, brbe_ind_loop_start,
				     brbe_ind_end) ||
			    in_range(s.e[i].to, brbe_ind_loop_start,
				     brbe_ind_end))
				BAD_RECORD(i, &s.e[i], "is the other task's");
	}
	close(fd);
	EXPECT_LT(100, samples);
	EXPECT_EQ(0, bad);
}

TEST_HARNESS_MAIN
