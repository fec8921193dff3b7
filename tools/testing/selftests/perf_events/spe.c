// SPDX-License-Identifier: GPL-2.0
/*
 * Arm's Statistical Profiling Extension through the arm_spe PMU, as
 * stock 6.12's driver (drivers/perf/arm_spe_pmu.c) presents it: its
 * sysfs description, the rules event_init holds an event to, and the
 * records a task's event leaves in its AUX area for a known loop.
 *
 * The CPU the cases are written for is our QEMU's spe=on (harness/
 * boot.sh's spe model: SPEv1p1, PMSIDR with the event, type and latency
 * filters, an interval of architected instructions of at least 256,
 * 12-bit latency counters, records of up to 64 bytes; under -icount
 * the operations it samples are exactly those the interval selects).
 * Where the device tree describes SPE (/spe-pmu) the PMU must be
 * there; skipped where it does not: on x86_64, and on arm64 machines
 * without it.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <poll.h>
#include <pthread.h>

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

/*
 * Sampling.  The loop below is three user instructions, a load from
 * one word, a subtraction and a conditional branch back, so every
 * operation it has is known: sampled every SPE_PERIOD (1024, one more
 * than a multiple of three) operations without jitter, the samples go
 * round its three instructions in turn, each load's record has the
 * word's address, each branch's the load as its target (but the last,
 * not taken), each carries the task's TID as its context, and no
 * record is anything else.  Under our QEMU's -icount
 * the interval is exact, so the counts below are too, give or take the
 * user instructions around the loop.
 */
#define SPE_LOOPS	300000UL
#define SPE_AUX_PAGES	64
#define SPE_DATA_PAGES	8

#ifdef __aarch64__
extern const char spe_loop_ldr[], spe_loop_subs[], spe_loop_bne[];

static unsigned long spe_word;

static void __attribute__((noinline)) spe_loop(unsigned long n)
{
	unsigned long tmp;

	asm volatile(".globl spe_loop_ldr, spe_loop_subs, spe_loop_bne\n"
		     "spe_loop_ldr:	ldr %1, [%2]\n"
		     "spe_loop_subs:	subs %0, %0, #1\n"
		     "spe_loop_bne:	b.ne spe_loop_ldr\n"
		     : "+r" (n), "=&r" (tmp) : "r" (&spe_word) : "cc", "memory");
}
#else
static const char spe_loop_ldr[1], spe_loop_subs[1], spe_loop_bne[1];
static unsigned long spe_word;
static void spe_loop(unsigned long n) { (void)n; }
#endif

/* What a record says, as far as the cases look */
struct spe_rec {
	__u64 pc, va, target, ts;
	int el, cls;
	unsigned int type, events, context;
	bool has_pc, has_va, has_target, has_ts, has_context;
};

struct spe_walk {
	unsigned long records, bad, in_loop, outside;
	unsigned long at[3];		/* loop records: ldr, subs, b.ne */
	unsigned long wrong;		/* loop records that say otherwise */
	unsigned long not_taken, bad_ts, not_el0;
	unsigned long other_context;	/* loop records: not our TID */
	unsigned int tid;
	unsigned long aux_records;	/* PERF_RECORD_AUX in the data area */
	__u64 aux_head;
	unsigned long loads, stores, branches, others;
	__u64 last_ts;
	char first_wrong[160];
};

static void spe_wrong(struct spe_walk *w, const struct spe_rec *r,
		      const char *why)
{
	if (!w->wrong++)
		snprintf(w->first_wrong, sizeof(w->first_wrong),
			 "%s: pc %#llx class %d type %#x events %#x va %#llx target %#llx",
			 why, (unsigned long long)r->pc, r->cls, r->type,
			 r->events, (unsigned long long)r->va,
			 (unsigned long long)r->target);
}

/* One whole record: what it says, checked against the loop */
static void spe_record(struct spe_walk *w, const struct spe_rec *r)
{
	__u64 ldr = (unsigned long)spe_loop_ldr;
	int i;

	w->records++;
	if (r->has_ts) {
		if (r->ts < w->last_ts)
			w->bad_ts++;
		w->last_ts = r->ts;
	}
	if (r->cls == 1 && (r->type & 1))
		w->stores++;
	else if (r->cls == 1)
		w->loads++;
	else if (r->cls == 2)
		w->branches++;
	else
		w->others++;
	if (!r->has_pc || r->el != 0)
		w->not_el0++;
	if (r->pc == ldr) {
		i = 0;
	} else if (r->pc == (unsigned long)spe_loop_subs) {
		i = 1;
	} else if (r->pc == (unsigned long)spe_loop_bne) {
		i = 2;
	} else {
		w->outside++;
		return;
	}
	w->in_loop++;
	w->at[i]++;
	if (!r->has_context || r->context != w->tid)
		w->other_context++;
	/* Every one retired (events bit 1) */
	if (!(r->events & 2))
		spe_wrong(w, r, "not retired");
	switch (i) {
	case 0:	/* a general-purpose load of spe_word */
		if (r->cls != 1 || (r->type & 0xff) != 0 || !r->has_va ||
		    r->va != (unsigned long)&spe_word)
			spe_wrong(w, r, "load");
		break;
	case 1:
		if (r->cls != 0 || r->has_va || r->has_target)
			spe_wrong(w, r, "subs");
		break;
	case 2:	/* conditional, direct; taken to the load but once */
		if (r->cls != 2 || (r->type & 3) != 1)
			spe_wrong(w, r, "branch type");
		else if (r->events & (1 << 6))
			w->not_taken++;
		else if (!r->has_target || r->target != ldr)
			spe_wrong(w, r, "branch target");
		break;
	}
}

/*
 * Walk @len bytes of records as SPE's packets encode them (Arm ARM,
 * "Statistical Profiling Extension packets"; the short headers SPEv1p1
 * uses): padding, then each record's packets up to its end or
 * timestamp packet.  A header the format does not have is counted bad
 * and ends the walk.
 */
static void spe_walk(struct spe_walk *w, const unsigned char *buf,
		     size_t len)
{
	struct spe_rec r = { 0 };
	bool open = false;
	size_t pos = 0;

	while (pos < len) {
		unsigned char h = buf[pos];
		int size = spe_payload_size(h);
		__u64 v = 0;
		int i;

		if (size < 0) {
			w->bad++;
			return;
		}
		if (h == 0x00) {		/* padding */
			pos++;
			continue;
		}
		if (h == 0x01) {		/* end */
			if (open)
				spe_record(w, &r);
			memset(&r, 0, sizeof(r));
			open = false;
			pos++;
			continue;
		}
		if (pos + 1 + size > len) {
			w->bad++;
			return;
		}
		for (i = 0; i < size; i++)
			v |= (__u64)buf[pos + 1 + i] << (8 * i);
		pos += 1 + size;
		open = true;
		if (h == 0x71) {		/* timestamp: the record ends */
			r.ts = v;
			r.has_ts = true;
			spe_record(w, &r);
			memset(&r, 0, sizeof(r));
			open = false;
		} else if (h == 0xb0) {		/* PC, with its EL */
			r.pc = v & ((1ULL << 56) - 1);
			if ((v >> 61 & 3) && (v >> 63))
				r.pc |= 0xffULL << 56;
			r.el = v >> 61 & 3;
			r.has_pc = true;
		} else if (h == 0xb1) {		/* branch target */
			r.target = v & ((1ULL << 56) - 1);
			r.has_target = true;
		} else if (h == 0xb2) {		/* data virtual address */
			r.va = v & ((1ULL << 56) - 1);
			r.has_va = true;
		} else if ((h & 0xfc) == 0x48) {
			r.cls = h & 3;
			r.type = v;
		} else if ((h & 0xcf) == 0x42) {
			r.events = v;
		} else if (h == 0x64) {		/* CONTEXTIDR_EL1 */
			r.context = v;
			r.has_context = true;
		}
	}
}

/* How the loop is sampled: @config's filters, the AUX area's size */
struct spe_run {
	__u64 config;
	size_t aux_pages;	/* 0: SPE_AUX_PAGES */
	__u32 watermark;	/* attr.aux_watermark, 0: perf's default */
};

/*
 * Sample the loop through a task's arm_spe event (user only, jitter
 * off, as @run says): its AUX area's records, walked, and the data
 * area's PERF_RECORD_AUX records' flags and number.  Returns 0, or a
 * message.
 */
static const char *spe_sample_run(const char *name, const struct spe_run *run,
				  struct spe_walk *w, unsigned long *aux_flags)
{
	struct perf_event_attr attr;
	struct perf_rb rb;
	unsigned char *aux;
	long pg = page_sz();
	size_t size = (run->aux_pages ?: SPE_AUX_PAGES) * pg;
	union {
		struct perf_event_header h;
		struct {
			struct perf_event_header h;
			__u64 offset, size, flags;
		} aux;
		char raw[256];
	} rec;
	__u64 head;
	int fd, type;

	memset(w, 0, sizeof(*w));
	w->tid = gettid();
	*aux_flags = 0;
	attr_arm_spe(&attr, pmu_type(name), run->config, SPE_PERIOD);
	attr.aux_watermark = run->watermark;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd < 0)
		return "perf_event_open";
	if (perf_rb_map(&rb, fd, SPE_DATA_PAGES)) {
		close(fd);
		return "mmap of the data area";
	}
	rb.up->aux_offset = (1 + SPE_DATA_PAGES) * pg;
	rb.up->aux_size = size;
	aux = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   rb.up->aux_offset);
	if (aux == MAP_FAILED) {
		perf_rb_unmap(&rb);
		close(fd);
		return "mmap of the AUX area";
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spe_loop(SPE_LOOPS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = __atomic_load_n(&rb.up->aux_head, __ATOMIC_ACQUIRE);
	while ((type = perf_rb_next(&rb, &rec, sizeof(rec))) >= 0) {
		if (type != PERF_RECORD_AUX)
			continue;
		*aux_flags |= rec.aux.flags;
		w->aux_records++;
	}
	w->aux_head = head;
	if (head > size)
		head = size;	/* a writable area: no wrap without reads */
	spe_walk(w, aux, head);
	munmap(aux, size);
	perf_rb_unmap(&rb);
	close(fd);
	return NULL;
}

/*
 * spe_sample_run() in a case: the run must work and every packet of its
 * AUX area decode (no header SPE does not have).
 */
static void spe_sample_checked(struct __test_metadata *_metadata,
			       const char *name, const struct spe_run *run,
			       struct spe_walk *w, unsigned long *aux_flags)
{
	const char *err = spe_sample_run(name, run, w, aux_flags);

	ASSERT_EQ(NULL, err) TH_LOG("%s: %s", err, strerror(errno));
	EXPECT_EQ(0, w->bad) TH_LOG("a packet SPE does not have");
}

/*
 * The loop sampled: every record decodes; the loop's records are its
 * three instructions, a third each, with the load's data address and
 * the branch's target; timestamps never go back; nothing was lost.
 */
TEST(spe_sampling)
{
	/* operations: the loop's, and no more than a few hundred around */
	unsigned long ops = 3 * SPE_LOOPS, want = ops / SPE_PERIOD;
	struct spe_run run = { };
	unsigned long flags, least;
	struct spe_walk w;
	char name[64];
	int i;

	SPE_REQUIRE(name);
	spe_sample_checked(_metadata, name, &run, &w, &flags);
	EXPECT_EQ(0, flags & (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_COLLISION))
		TH_LOG("AUX flags %#lx", flags);
	EXPECT_LE(want - 1, w.in_loop)
		TH_LOG("%lu records in the loop of %lu (%lu outside)",
		       w.in_loop, want, w.outside);
	EXPECT_GE(want + 1, w.in_loop);
	EXPECT_GE(2UL, w.outside) TH_LOG("%lu records outside the loop",
					 w.outside);
	for (least = w.at[0], i = 1; i < 3; i++)
		least = w.at[i] < least ? w.at[i] : least;
	EXPECT_GE(least + 2, w.in_loop / 3)
		TH_LOG("ldr %lu, subs %lu, b.ne %lu of %lu", w.at[0], w.at[1],
		       w.at[2], w.in_loop);
	EXPECT_EQ(0, w.wrong) TH_LOG("%lu wrong, first %s", w.wrong,
				     w.first_wrong);
	EXPECT_GE(1UL, w.not_taken);
	EXPECT_EQ(0, w.not_el0) TH_LOG("%lu records not at EL0", w.not_el0);
	EXPECT_EQ(0, w.bad_ts);
	/*
	 * CONTEXTIDR_EL1 in each: the harness's arm64 config has
	 * PID_IN_CONTEXTIDR, and for a privileged user the driver asks for
	 * it (PMSCR_EL1.CX); our TID, as the kernel wrote it at the switch.
	 */
	if (geteuid() == 0)
		EXPECT_EQ(0, w.other_context)
			TH_LOG("%lu loop records without TID %u", w.other_context,
			       w.tid);
}

/*
 * The loop sampled with only the records of one class kept (@config's
 * filter): all the records are of @cls, about a third of the loop's
 * at its instruction @at.
 */
static void spe_filter_case(struct __test_metadata *_metadata,
			    const char *name, __u64 config, int cls, int at)
{
	static const char *const what[] = { "others", "loads", "branches" };
	unsigned long third = SPE_LOOPS / SPE_PERIOD, flags, of_cls;
	struct spe_run run = { .config = config };
	struct spe_walk w;

	spe_sample_checked(_metadata, name, &run, &w, &flags);
	of_cls = cls == 1 ? w.loads : cls == 2 ? w.branches : w.others;
	EXPECT_EQ(w.records, of_cls)
		TH_LOG("%s only: %lu records, %lu loads, %lu stores, %lu branches, %lu others",
		       what[cls], w.records, w.loads, w.stores, w.branches,
		       w.others);
	EXPECT_LE(third - 2, w.at[at]) TH_LOG("%lu %s in the loop",
					      w.at[at], what[cls]);
	EXPECT_EQ(0, w.wrong) TH_LOG("%s", w.first_wrong);
}

/*
 * PMSFCR_EL1's type filter as the driver programs it from
 * load_filter (config:33) and branch_filter (config:32): only those
 * operations' records, about as many as the loop has of them.
 */
TEST(spe_type_filter)
{
	char name[64];

	SPE_REQUIRE(name);
	spe_filter_case(_metadata, name, 1ULL << 33, 1, 0);
	spe_filter_case(_metadata, name, 1ULL << 32, 2, 2);
}

/*
 * A wakeup every page (aux_watermark): the buffer stops at each page
 * boundary with a buffer-full event, the driver hands what was written
 * to perf and opens the next stretch, and not one record is lost or cut
 * at the seams: the loop's records are exactly as without the stops.
 */
TEST(spe_watermark)
{
	unsigned long want = 3 * SPE_LOOPS / SPE_PERIOD, flags;
	struct spe_run run = { .watermark = page_sz() };
	struct spe_walk w;
	char name[64];

	SPE_REQUIRE(name);
	spe_sample_checked(_metadata, name, &run, &w, &flags);
	EXPECT_EQ(0, flags & (PERF_AUX_FLAG_TRUNCATED | PERF_AUX_FLAG_PARTIAL))
		TH_LOG("AUX flags %#lx", flags);
	/* a record per page of data, near enough */
	EXPECT_LE(w.aux_head / page_sz(), w.aux_records)
		TH_LOG("%lu AUX records for %llu bytes", w.aux_records,
		       (unsigned long long)w.aux_head);
	EXPECT_LE(want - 1, w.in_loop) TH_LOG("%lu of %lu", w.in_loop, want);
	EXPECT_GE(want + 1, w.in_loop);
	EXPECT_EQ(0, w.wrong) TH_LOG("%s", w.first_wrong);
}

/*
 * An AUX area two pages long that nobody reads: the records that fit,
 * whole and decodable, then truncation (PERF_AUX_FLAG_TRUNCATED), and
 * no byte written past the area.
 */
TEST(spe_truncated)
{
	struct spe_run run = { .aux_pages = 2 };
	unsigned long flags;
	struct spe_walk w;
	char name[64];

	SPE_REQUIRE(name);
	spe_sample_checked(_metadata, name, &run, &w, &flags);
	EXPECT_NE(0, flags & PERF_AUX_FLAG_TRUNCATED)
		TH_LOG("AUX flags %#lx", flags);
	EXPECT_GE(2 * page_sz(), (long)w.aux_head);
	/* a page at least, each record about 50 bytes */
	EXPECT_LE(page_sz() / 64, (long)w.records)
		TH_LOG("%lu records in %llu bytes", w.records,
		       (unsigned long long)w.aux_head);
	EXPECT_EQ(0, w.wrong) TH_LOG("%s", w.first_wrong);
}

/* The reader of spe_wakeup: poll() until told to stop, counting. */
struct spe_poller {
	int fd, stop_fd;
	unsigned long woken, timeouts;
};

static void *spe_poll_thread(void *arg)
{
	struct spe_poller *p = arg;
	struct pollfd fds[2] = {
		{ .fd = p->fd, .events = POLLIN },
		{ .fd = p->stop_fd, .events = POLLIN },
	};

	for (;;) {
		int n = poll(fds, 2, 2000);

		if (n == 0)
			p->timeouts++;
		if (n > 0 && (fds[0].revents & POLLIN))
			p->woken++;
		if (n < 0 || fds[1].revents)
			return NULL;
	}
}

static volatile sig_atomic_t spe_sigio;

static void spe_on_sigio(int sig)
{
	spe_sigio++;
}

/*
 * A wakeup every page reaches the reader: a thread blocked in poll()
 * on the event wakes while the loop is sampled (about one wakeup per
 * page, never a poll that waits its two seconds out), and with
 * O_ASYNC the owner gets SIGIO.  Ours wakes readers from the buffer
 * interrupt itself rather than from an irq_work
 * (perf_aux_irq_begin()); this holds it to stock's behaviour.
 */
TEST(spe_wakeup)
{
	struct spe_poller p = { };
	struct perf_event_attr attr;
	struct sigaction sa = { .sa_handler = spe_on_sigio };
	struct perf_rb rb;
	unsigned char *aux;
	long pg = page_sz();
	size_t size = SPE_AUX_PAGES * pg;
	unsigned long pages;
	pthread_t thread;
	int pipefd[2];
	char name[64];
	__u64 head;

	SPE_REQUIRE(name);
	attr_arm_spe(&attr, pmu_type(name), 0, SPE_PERIOD);
	attr.aux_watermark = pg;
	p.fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, p.fd) TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_EQ(0, perf_rb_map(&rb, p.fd, SPE_DATA_PAGES));
	rb.up->aux_offset = (1 + SPE_DATA_PAGES) * pg;
	rb.up->aux_size = size;
	aux = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, p.fd,
		   rb.up->aux_offset);
	ASSERT_NE(MAP_FAILED, aux);
	ASSERT_EQ(0, sigaction(SIGIO, &sa, NULL));
	ASSERT_EQ(0, fcntl(p.fd, F_SETOWN, getpid()));
	ASSERT_EQ(0, fcntl(p.fd, F_SETFL, O_ASYNC));
	ASSERT_EQ(0, pipe(pipefd));
	p.stop_fd = pipefd[0];
	ASSERT_EQ(0, pthread_create(&thread, NULL, spe_poll_thread, &p));
	usleep(10000);	/* the reader blocks in poll() */

	ioctl(p.fd, PERF_EVENT_IOC_ENABLE, 0);
	spe_loop(SPE_LOOPS);
	ioctl(p.fd, PERF_EVENT_IOC_DISABLE, 0);
	usleep(10000);	/* the last wakeup reaches the reader */
	ASSERT_EQ(1, write(pipefd[1], "x", 1));
	pthread_join(thread, NULL);

	head = __atomic_load_n(&rb.up->aux_head, __ATOMIC_ACQUIRE);
	pages = head / pg;
	EXPECT_LE(4UL, pages) TH_LOG("%llu bytes of AUX data",
				     (unsigned long long)head);
	EXPECT_LE(pages / 2, p.woken)
		TH_LOG("the reader woke %lu times for %lu pages", p.woken,
		       pages);
	EXPECT_GE(pages + 1, p.woken);
	EXPECT_EQ(0, p.timeouts) TH_LOG("%lu polls waited in vain",
					p.timeouts);
	EXPECT_LE(1, spe_sigio) TH_LOG("no SIGIO");

	signal(SIGIO, SIG_DFL);
	close(pipefd[0]);
	close(pipefd[1]);
	munmap(aux, size);
	perf_rb_unmap(&rb);
	close(p.fd);
}

TEST_HARNESS_MAIN
