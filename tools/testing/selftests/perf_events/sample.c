// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_RECORD_SAMPLE layout and values for every sample_type bit that a
 * software event can produce.
 *
 * The workhorse is the page-faults software event with sample_period=1:
 * touching N fresh anonymous pages gives exactly N samples, each with the
 * faulting address in PERF_SAMPLE_ADDR.  parse_sample() walks a record in
 * the documented field order; every test checks that the layout computed
 * from sample_type/read_format/regs masks consumes exactly header.size
 * bytes, then checks the values.
 */
#include "kselftest_harness.h"
#include "perf_test.h"

#include <asm/perf_regs.h>

#define RB_PAGES	16
#define MAX_SAMPLES	64

#if defined(__x86_64__)
#define REG_IP		PERF_REG_X86_IP
#define REG_SP		PERF_REG_X86_SP
#elif defined(__aarch64__)
#define REG_IP		PERF_REG_ARM64_PC
#define REG_SP		PERF_REG_ARM64_SP
#else
#error "unsupported arch"
#endif

extern char __executable_start[], etext[];

struct sample {
	struct perf_event_header h;
	__u64 ident, ip, time, addr, id, stream_id, period;
	__u32 pid, tid, cpu, res;
	__u64 read[16];
	int nread;
	__u64 cc_nr, cc[64];
	__u32 raw_size;
	unsigned char raw[256];
	__u64 regs_abi, regs[8];
	__u64 stack_size, stack_dyn;
	__u64 weight, data_src, txn;
	__u64 intr_abi, intr[8];
	__u64 phys, cgroup, data_psz, code_psz;
};

static int nregs(__u64 mask)
{
	return __builtin_popcountll(mask);
}

/*
 * Parse one PERF_RECORD_SAMPLE for attr; returns the number of bytes the
 * layout says the record has (to compare with header.size).
 */
static size_t parse_sample(const void *rec, const struct perf_event_attr *attr,
			   struct sample *s)
{
	const unsigned char *p = rec;
	__u64 t = attr->sample_type, rf = attr->read_format;
	int i, n;

#define GET64(dst) do { memcpy(&(dst), p, 8); p += 8; } while (0)
#define GET32(dst) do { memcpy(&(dst), p, 4); p += 4; } while (0)
	memset(s, 0, sizeof(*s));
	memcpy(&s->h, p, sizeof(s->h));
	p += sizeof(s->h);
	if (t & PERF_SAMPLE_IDENTIFIER)
		GET64(s->ident);
	if (t & PERF_SAMPLE_IP)
		GET64(s->ip);
	if (t & PERF_SAMPLE_TID) {
		GET32(s->pid);
		GET32(s->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		GET64(s->time);
	if (t & PERF_SAMPLE_ADDR)
		GET64(s->addr);
	if (t & PERF_SAMPLE_ID)
		GET64(s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		GET64(s->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		GET32(s->cpu);
		GET32(s->res);
	}
	if (t & PERF_SAMPLE_PERIOD)
		GET64(s->period);
	if (t & PERF_SAMPLE_READ) {
		if (rf & PERF_FORMAT_GROUP) {
			__u64 nr;

			GET64(nr);
			s->read[s->nread++] = nr;
			n = (rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 1 : 0) +
			    (rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 1 : 0) +
			    nr * (1 + (rf & PERF_FORMAT_ID ? 1 : 0) +
				  (rf & PERF_FORMAT_LOST ? 1 : 0));
		} else {
			n = 1 + (rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? 1 : 0) +
			    (rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? 1 : 0) +
			    (rf & PERF_FORMAT_ID ? 1 : 0) +
			    (rf & PERF_FORMAT_LOST ? 1 : 0);
		}
		for (i = 0; i < n; i++) {
			if (s->nread < 16)
				memcpy(&s->read[s->nread++], p, 8);
			p += 8;
		}
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		GET64(s->cc_nr);
		for (i = 0; i < (int)s->cc_nr; i++) {
			if (i < 64)
				memcpy(&s->cc[i], p, 8);
			p += 8;
		}
	}
	if (t & PERF_SAMPLE_RAW) {
		GET32(s->raw_size);
		memcpy(s->raw, p, s->raw_size < 256 ? s->raw_size : 256);
		p += s->raw_size;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		GET64(s->regs_abi);
		if (s->regs_abi)
			for (i = 0; i < nregs(attr->sample_regs_user); i++) {
				if (i < 8)
					memcpy(&s->regs[i], p, 8);
				p += 8;
			}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		GET64(s->stack_size);
		if (s->stack_size) {
			p += s->stack_size;
			GET64(s->stack_dyn);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		GET64(s->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		GET64(s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		GET64(s->txn);
	if (t & PERF_SAMPLE_REGS_INTR) {
		GET64(s->intr_abi);
		if (s->intr_abi)
			for (i = 0; i < nregs(attr->sample_regs_intr); i++) {
				if (i < 8)
					memcpy(&s->intr[i], p, 8);
				p += 8;
			}
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		GET64(s->phys);
	if (t & PERF_SAMPLE_CGROUP)
		GET64(s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		GET64(s->data_psz);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		GET64(s->code_psz);
#undef GET64
#undef GET32
	return p - (const unsigned char *)rec;
}

/*
 * Collect up to max PERF_RECORD_SAMPLEs, checking each one's layout;
 * returns the number of samples (other record types are skipped).
 */
static int collect(struct __test_metadata *_metadata, struct perf_rb *rb,
		   const struct perf_event_attr *attr, struct sample *out,
		   int max)
{
	static unsigned char buf[65536];
	int type, n = 0;

	while ((type = perf_rb_next(rb, buf, sizeof(buf))) >= 0) {
		struct sample s;
		size_t sz;

		if (type != PERF_RECORD_SAMPLE)
			continue;
		sz = parse_sample(buf, attr, &s);
		EXPECT_EQ(s.h.size, sz) TH_LOG("sample %d: layout mismatch", n);
		if (n < max)
			out[n] = s;
		n++;
	}
	return n;
}

static void attr_pf(struct perf_event_attr *attr, __u64 sample_type)
{
	attr_sw(attr, PERF_COUNT_SW_PAGE_FAULTS);
	attr->sample_period = 1;
	attr->sample_type = sample_type;
	attr->exclude_kernel = 1;
}

#define TOUCH_OFF	40

static void __attribute__((noinline)) touch(char *p, int n)
{
	long pg = page_sz();
	int i;

	for (i = 0; i < n; i++)
		((volatile char *)p)[i * pg + TOUCH_OFF] = 1;
}

/* Enable, write-touch n pages of p, disable; code paths warmed first. */
static void fault_pages(int fd, char *p, int n)
{
	char *warm = fresh(1);

	touch(warm, 1);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	touch(p, n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	munmap(warm, page_sz());
}

static int in_text(__u64 ip)
{
	return ip >= (__u64)(unsigned long)__executable_start &&
	       ip < (__u64)(unsigned long)etext;
}

static struct sample smp[MAX_SAMPLES];

/* Open attr on self, fault n fresh pages, collect; returns the count. */
static int run_pf(struct __test_metadata *_metadata,
		  struct perf_event_attr *attr, int n, char **pages, int *fdp)
{
	struct perf_rb rb;
	char *p;
	int fd, got;

	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	if (fd < 0) {
		TH_LOG("perf_event_open: %s", strerror(errno));
		return -1;
	}
	if (perf_rb_map(&rb, fd, RB_PAGES)) {
		close(fd);
		return -1;
	}
	p = fresh(n);
	fault_pages(fd, p, n);
	got = collect(_metadata, &rb, attr, smp, MAX_SAMPLES);
	perf_rb_unmap(&rb);
	if (pages)
		*pages = p;
	else
		munmap(p, n * page_sz());
	if (fdp)
		*fdp = fd;
	else
		close(fd);
	return got;
}

TEST(sample_page_faults_exact_count_tid_addr_period)
{
	struct perf_event_attr attr;
	char *p;
	int i, n;

	attr_pf(&attr, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ADDR |
		       PERF_SAMPLE_PERIOD);
	n = run_pf(_metadata, &attr, 8, &p, NULL);
	ASSERT_EQ(8, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(8 + 8 + 8 + 8 + 8, smp[i].h.size);
		EXPECT_EQ(PERF_RECORD_MISC_USER,
			  smp[i].h.misc & PERF_RECORD_MISC_CPUMODE_MASK);
		EXPECT_EQ(getpid(), smp[i].pid);
		EXPECT_EQ(gettid(), smp[i].tid);
		EXPECT_EQ((__u64)(unsigned long)(p + i * page_sz() + TOUCH_OFF),
			  smp[i].addr);
		EXPECT_EQ(1, smp[i].period);
		EXPECT_TRUE(in_text(smp[i].ip)) TH_LOG("ip %llx", smp[i].ip);
	}
	/* every fault happened at the same instruction in touch() */
	EXPECT_EQ(smp[0].ip, smp[n - 1].ip);
}

TEST(sample_time_id_stream_id_cpu)
{
	struct perf_event_attr attr;
	struct timespec a, b;
	__u64 id = 0, t0, t1;
	struct perf_rb rb;
	char *p;
	int fd, i, n;

	int cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1;

	ASSERT_EQ(0, pin_to_cpu(cpu));
	attr_pf(&attr, PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU);
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, perf_rb_map(&rb, fd, RB_PAGES));
	p = fresh(5);
	clock_gettime(CLOCK_MONOTONIC, &a);
	fault_pages(fd, p, 5);
	clock_gettime(CLOCK_MONOTONIC, &b);
	n = collect(_metadata, &rb, &attr, smp, MAX_SAMPLES);
	ASSERT_EQ(5, n);
	t0 = a.tv_sec * 1000000000ULL + a.tv_nsec;
	t1 = b.tv_sec * 1000000000ULL + b.tv_nsec;
	for (i = 0; i < n; i++) {
		EXPECT_EQ(8 + 4 * 8, smp[i].h.size);
		EXPECT_LE(t0, smp[i].time);
		EXPECT_GE(t1, smp[i].time);
		if (i)
			EXPECT_LE(smp[i - 1].time, smp[i].time);
		EXPECT_EQ(id, smp[i].id);
		/* not inherited: the stream id is the event's own id */
		EXPECT_EQ(id, smp[i].stream_id);
		EXPECT_EQ(cpu, smp[i].cpu);
		EXPECT_EQ(0, smp[i].res);
	}
	perf_rb_unmap(&rb);
	close(fd);
}

TEST(sample_identifier_is_first_word)
{
	struct perf_event_attr attr;
	__u64 id = 0;
	int fd, n, i;

	attr_pf(&attr, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID |
		       PERF_SAMPLE_ADDR);
	n = run_pf(_metadata, &attr, 3, NULL, &fd);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(3, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(8 + 3 * 8, smp[i].h.size);
		EXPECT_EQ(id, smp[i].ident);
		EXPECT_EQ(id, smp[i].id);
	}
	close(fd);
}

TEST(sample_read_single_value_counts_up)
{
	struct perf_event_attr attr;
	__u64 id = 0;
	int fd, n, i;

	attr_pf(&attr, PERF_SAMPLE_READ);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
			   PERF_FORMAT_LOST;
	n = run_pf(_metadata, &attr, 6, NULL, &fd);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(6, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(8 + 5 * 8, smp[i].h.size);
		EXPECT_EQ(5, smp[i].nread);
		EXPECT_EQ(i + 1, smp[i].read[0]);	/* value */
		EXPECT_LE(smp[i].read[2], smp[i].read[1]); /* running <= enabled */
		EXPECT_EQ(id, smp[i].read[3]);
		EXPECT_EQ(0, smp[i].read[4]);		/* lost */
	}
	close(fd);
}

TEST(sample_read_group_reports_siblings)
{
	struct perf_event_attr attr, sa;
	__u64 id0 = 0, id1 = 0;
	struct perf_rb rb;
	char *p;
	int lead, sib, n, i;

	attr_pf(&attr, PERF_SAMPLE_READ);
	attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	lead = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(lead, 0);
	attr_sw(&sa, PERF_COUNT_SW_PAGE_FAULTS);
	sa.disabled = 0;
	sa.exclude_kernel = 1;
	sib = sys_perf_event_open(&sa, 0, -1, lead, 0);
	ASSERT_GE(sib, 0);
	ioctl(lead, PERF_EVENT_IOC_ID, &id0);
	ioctl(sib, PERF_EVENT_IOC_ID, &id1);
	ASSERT_EQ(0, perf_rb_map(&rb, lead, RB_PAGES));
	p = fresh(4);
	fault_pages(lead, p, 4);
	n = collect(_metadata, &rb, &attr, smp, MAX_SAMPLES);
	ASSERT_EQ(4, n);
	for (i = 0; i < n; i++) {
		/* nr, {value, id} x 2 */
		EXPECT_EQ(8 + 5 * 8, smp[i].h.size);
		EXPECT_EQ(2, smp[i].read[0]);
		EXPECT_EQ(i + 1, smp[i].read[1]);
		EXPECT_EQ(id0, smp[i].read[2]);
		EXPECT_EQ(i + 1, smp[i].read[3]);
		EXPECT_EQ(id1, smp[i].read[4]);
	}
	perf_rb_unmap(&rb);
	close(sib);
	close(lead);
}

TEST(sample_callchain_user)
{
	struct perf_event_attr attr;
	int n, i;

	attr_pf(&attr, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN);
	n = run_pf(_metadata, &attr, 3, NULL, NULL);
	ASSERT_EQ(3, n);
	for (i = 0; i < n; i++) {
		/* a user-mode fault: no kernel part, the user part starts at ip */
		ASSERT_GE(smp[i].cc_nr, 2);
		EXPECT_EQ(PERF_CONTEXT_USER, smp[i].cc[0]);
		EXPECT_EQ(smp[i].ip, smp[i].cc[1]);
	}

	/* excluding the user callchain leaves nothing */
	attr.exclude_callchain_user = 1;
	n = run_pf(_metadata, &attr, 2, NULL, NULL);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(0, smp[i].cc_nr);
		EXPECT_EQ(8 + 8 + 8, smp[i].h.size);
	}
}

TEST(sample_raw_tracepoint_and_empty_raw)
{
	struct perf_event_attr attr;
	struct perf_rb rb;
	long id = tracepoint_id("syscalls/sys_enter_getppid");
	int fd, n, i, v;
	__u16 type;

	ASSERT_GT(id, 0);
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perf_rb_map(&rb, fd, RB_PAGES));
	getppid();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < 5; i++)
		getppid();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = collect(_metadata, &rb, &attr, smp, MAX_SAMPLES);
	ASSERT_EQ(5, n);
	for (i = 0; i < n; i++) {
		/* syscall tracepoints sample the user registers of the call */
		EXPECT_EQ(PERF_RECORD_MISC_USER,
			  smp[i].h.misc & PERF_RECORD_MISC_CPUMODE_MASK);
		/* the u32 size plus payload keeps the record u64 aligned */
		EXPECT_EQ(0, (4 + smp[i].raw_size) % 8);
		ASSERT_GE(smp[i].raw_size, 12);
		memcpy(&type, smp[i].raw, 2);
		EXPECT_EQ(id, type);			/* common_type */
		memcpy(&v, smp[i].raw + 4, 4);
		EXPECT_EQ(getpid(), v);			/* common_pid */
		memcpy(&v, smp[i].raw + 8, 4);
		EXPECT_EQ(__NR_getppid, v);		/* __syscall_nr */
		EXPECT_EQ(getpid(), smp[i].pid);
	}
	perf_rb_unmap(&rb);
	close(fd);

	/* a software event has no raw data: a 4-byte zero payload */
	attr_pf(&attr, PERF_SAMPLE_RAW);
	n = run_pf(_metadata, &attr, 2, NULL, NULL);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(4, smp[i].raw_size);
		EXPECT_EQ(0, smp[i].raw[0] | smp[i].raw[1] | smp[i].raw[2] |
			     smp[i].raw[3]);
		EXPECT_EQ(8 + 8, smp[i].h.size);
	}
}

TEST(sample_regs_user_and_stack_user)
{
	struct perf_event_attr attr;
	char here;
	__u64 sp_near = (__u64)(unsigned long)&here;
	int n, i;

	attr_pf(&attr, PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER |
		       PERF_SAMPLE_STACK_USER);
	attr.sample_regs_user = (1ULL << REG_IP) | (1ULL << REG_SP);
	attr.sample_stack_user = 256;
	n = run_pf(_metadata, &attr, 3, NULL, NULL);
	ASSERT_EQ(3, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, smp[i].regs_abi);
		/* regs are in bit order; on both arches SP's bit < IP's bit */
		EXPECT_EQ(smp[i].ip, smp[i].regs[1]);
		EXPECT_LT(smp[i].regs[0], sp_near);
		EXPECT_GT(smp[i].regs[0], sp_near - 65536);
		EXPECT_EQ(256, smp[i].stack_size);
		EXPECT_EQ(256, smp[i].stack_dyn);
		EXPECT_EQ(8 + 8 + 8 + 16 + 8 + 256 + 8, smp[i].h.size);
	}
}

TEST(sample_type_invalid_combinations)
{
	struct perf_event_attr attr;
	int fd;

	attr_pf(&attr, PERF_SAMPLE_REGS_USER);
	attr.sample_regs_user = 0;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	attr_pf(&attr, PERF_SAMPLE_REGS_INTR);
	attr.sample_regs_intr = 0;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	attr_pf(&attr, PERF_SAMPLE_STACK_USER);
	attr.sample_stack_user = 100;		/* not a multiple of 8 */
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	attr.sample_stack_user = 65536;		/* >= USHRT_MAX */
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	/* WEIGHT and WEIGHT_STRUCT are mutually exclusive */
	attr_pf(&attr, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	/* software events cannot sample branches */
	attr_pf(&attr, PERF_SAMPLE_BRANCH_STACK);
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
	/* ... and a branch_sample_type with no branch type is invalid */
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_USER;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);

	/* inherit + SAMPLE_READ needs SAMPLE_TID */
	attr_pf(&attr, PERF_SAMPLE_READ);
	attr.inherit = 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	attr.sample_type |= PERF_SAMPLE_TID;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_GE(fd, 0);
	if (fd >= 0)
		close(fd);

	/* undefined sample_type bits */
	attr_pf(&attr, PERF_SAMPLE_MAX);
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST(sample_regs_intr_are_fault_regs)
{
	struct perf_event_attr attr;
	int n, i;

	attr_pf(&attr, PERF_SAMPLE_IP | PERF_SAMPLE_REGS_INTR);
	attr.sample_regs_intr = 1ULL << REG_IP;
	n = run_pf(_metadata, &attr, 3, NULL, NULL);
	ASSERT_EQ(3, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(PERF_SAMPLE_REGS_ABI_64, smp[i].intr_abi);
		EXPECT_EQ(smp[i].ip, smp[i].intr[0]);
		EXPECT_EQ(8 + 8 + 16, smp[i].h.size);
	}
}

TEST(sample_weight_data_src_transaction_defaults)
{
	struct perf_event_attr attr;
	int n, i;

	attr_pf(&attr, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
		       PERF_SAMPLE_TRANSACTION);
	n = run_pf(_metadata, &attr, 2, NULL, NULL);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(8 + 3 * 8, smp[i].h.size);
		EXPECT_EQ(0, smp[i].weight);
		EXPECT_EQ(PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) |
			  PERF_MEM_S(SNOOP, NA) | PERF_MEM_S(LOCK, NA) |
			  PERF_MEM_S(TLB, NA) | PERF_MEM_S(LVLNUM, NA),
			  smp[i].data_src);
		EXPECT_EQ(0, smp[i].txn);
	}

	attr_pf(&attr, PERF_SAMPLE_WEIGHT_STRUCT);
	n = run_pf(_metadata, &attr, 2, NULL, NULL);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(16, smp[i].h.size);
		EXPECT_EQ(0, smp[i].weight);
	}
}

/*
 * The page-faults event fires before the fault is handled:
 *  - a read of a never-touched anonymous page: no PTE yet, so
 *    DATA_PAGE_SIZE and PHYS_ADDR are 0;
 *  - a write to a page made copy-on-write by fork(): the page is present
 *    and its physical address is reported, with the same page offset,
 *    and DATA_PAGE_SIZE is the base page size.
 * CODE_PAGE_SIZE is the base page size of our text.
 */
TEST(sample_phys_addr_and_page_sizes)
{
	struct perf_event_attr attr;
	long pg = page_sz();
	struct perf_rb rb;
	volatile char *a, *b, *warm;
	pid_t pid;
	int fd, n, status;

	attr_pf(&attr, PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR |
		       PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE);
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perf_rb_map(&rb, fd, RB_PAGES));
	a = (volatile char *)fresh(1);
	b = (volatile char *)fresh(1);
	warm = (volatile char *)fresh(2);
	b[TOUCH_OFF] = 1;
	warm[pg + TOUCH_OFF] = 1;
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)
		_exit(0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	/* warm the exact sequence */
	(void)warm[TOUCH_OFF];
	warm[pg + TOUCH_OFF] = 2;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	(void)a[TOUCH_OFF];
	b[TOUCH_OFF] = 2;
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = collect(_metadata, &rb, &attr, smp, MAX_SAMPLES);
	ASSERT_EQ(2, n);
	EXPECT_EQ((__u64)(unsigned long)(a + TOUCH_OFF), smp[0].addr);
	EXPECT_EQ(0, smp[0].phys);
	EXPECT_EQ(0, smp[0].data_psz);
	EXPECT_EQ((__u64)(unsigned long)(b + TOUCH_OFF), smp[1].addr);
	EXPECT_NE(0, smp[1].phys);
	EXPECT_EQ(TOUCH_OFF, smp[1].phys & (pg - 1));
	EXPECT_EQ((__u64)pg, smp[1].data_psz);
	for (n = 0; n < 2; n++) {
		EXPECT_EQ((__u64)pg, smp[n].code_psz);
		EXPECT_EQ(8 + 4 * 8, smp[n].h.size);
	}
	perf_rb_unmap(&rb);
	close(fd);
}

TEST(sample_cgroup_id_is_cgroup_inode)
{
	struct perf_event_attr attr;
	char buf[512], path[600], *nl, *rel;
	struct stat st;
	int n, i;

	ASSERT_GT(read_file("/proc/self/cgroup", buf, sizeof(buf)), 0);
	rel = strstr(buf, "0::");
	ASSERT_NE(NULL, rel);
	rel += 3;
	nl = strchr(rel, '\n');
	if (nl)
		*nl = 0;
	snprintf(path, sizeof(path), "/sys/fs/cgroup%s", rel);
	ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s", path);

	attr_pf(&attr, PERF_SAMPLE_CGROUP);
	n = run_pf(_metadata, &attr, 2, NULL, NULL);
	ASSERT_EQ(2, n);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(16, smp[i].h.size);
		EXPECT_EQ((__u64)st.st_ino, smp[i].cgroup);
	}
}

TEST(sample_freq_mode_starts_with_period_one)
{
	struct perf_event_attr attr;
	int n, i;

	attr_pf(&attr, PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ);
	attr.sample_period = 0;
	attr.freq = 1;
	attr.sample_freq = 1000;
	n = run_pf(_metadata, &attr, 40, NULL, NULL);
	ASSERT_GE(n, 1);
	/* a frequency event starts out with period 1: the first fault */
	EXPECT_EQ(1, smp[0].period);
	EXPECT_EQ(1, smp[0].read[0]);
	for (i = 0; i < n && i < MAX_SAMPLES; i++) {
		EXPECT_GE(smp[i].period, 1);
		EXPECT_LE(smp[i].read[0], 40);
		if (i)
			EXPECT_LT(smp[i - 1].read[0], smp[i].read[0]);
	}
}

TEST(sample_freq_hrtimer_uses_fixed_period)
{
	struct perf_event_attr attr;
	struct perf_rb rb;
	int fd, n, i;

	/* cpu-clock converts sample_freq to a fixed period of 1e9/freq ns */
	attr_sw(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.freq = 1;
	attr.sample_freq = 2000;
	attr.sample_type = PERF_SAMPLE_PERIOD | PERF_SAMPLE_TID;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perf_rb_map(&rb, fd, RB_PAGES));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	burn_cpu_ns(50 * 1000 * 1000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = collect(_metadata, &rb, &attr, smp, MAX_SAMPLES);
	ASSERT_GE(n, 1);
	for (i = 0; i < n && i < MAX_SAMPLES; i++) {
		EXPECT_EQ(500000, smp[i].period);
		EXPECT_EQ(gettid(), smp[i].tid);
	}
	perf_rb_unmap(&rb);
	close(fd);

	/* sample_period on task-clock is reported as is */
	attr_sw(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.sample_period = 1000000;
	attr.sample_type = PERF_SAMPLE_PERIOD;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, perf_rb_map(&rb, fd, RB_PAGES));
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	burn_cpu_ns(50 * 1000 * 1000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	n = collect(_metadata, &rb, &attr, smp, MAX_SAMPLES);
	ASSERT_GE(n, 1);
	for (i = 0; i < n && i < MAX_SAMPLES; i++)
		EXPECT_EQ(1000000, smp[i].period);
	perf_rb_unmap(&rb);
	close(fd);
}

TEST(sample_freq_above_max_sample_rate_einval)
{
	struct perf_event_attr attr;
	long max = read_long("/proc/sys/kernel/perf_event_max_sample_rate");
	int fd;

	ASSERT_GT(max, 0);
	attr_pf(&attr, PERF_SAMPLE_IP);
	attr.sample_period = 0;
	attr.freq = 1;
	attr.sample_freq = max + 1;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	attr.sample_freq = max;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	EXPECT_GE(fd, 0);
	if (fd >= 0)
		close(fd);

	/* a period with the top bit set is refused */
	attr_pf(&attr, PERF_SAMPLE_IP);
	attr.sample_period = 1ULL << 63;
	EXPECT_EQ(-1, sys_perf_event_open(&attr, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
}

/* sample_id_all appends the id fields to non-sample records. */
TEST(sample_id_all_trailer_on_comm_record)
{
	struct perf_event_attr attr;
	unsigned char buf[256];
	struct perf_rb rb;
	__u64 id = 0, v[6];
	int fd, pass, found;
	__u32 pt[2];

	for (pass = 0; pass < 2; pass++) {
		attr_sw(&attr, PERF_COUNT_SW_DUMMY);
		attr.comm = 1;
		attr.sample_id_all = pass;
		attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				   PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
				   PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
		ASSERT_EQ(0, perf_rb_map(&rb, fd, RB_PAGES));
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
		prctl(PR_SET_NAME, "sid-test");
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		found = 0;
		while (perf_rb_next(&rb, buf, sizeof(buf)) >= 0) {
			struct perf_event_header *h = (void *)buf;

			if (h->type != PERF_RECORD_COMM)
				continue;
			found++;
			/* header, pid, tid, "sid-test\0" padded to 16 */
			EXPECT_STREQ("sid-test", (char *)buf + 16);
			if (!pass) {
				EXPECT_EQ(8 + 8 + 16, h->size);
				continue;
			}
			EXPECT_EQ(8 + 8 + 16 + 6 * 8, h->size);
			/* tid, time, id, stream_id, cpu, identifier */
			memcpy(v, buf + 32, sizeof(v));
			memcpy(pt, &v[0], 8);
			EXPECT_EQ(getpid(), pt[0]);
			EXPECT_EQ(gettid(), pt[1]);
			EXPECT_NE(0, v[1]);
			EXPECT_EQ(id, v[2]);
			EXPECT_EQ(id, v[3]);
			EXPECT_GT(sysconf(_SC_NPROCESSORS_CONF), (__u32)v[4]);
			EXPECT_EQ(id, v[5]);
		}
		EXPECT_EQ(1, found);
		perf_rb_unmap(&rb);
		close(fd);
	}
}

TEST_HARNESS_MAIN
