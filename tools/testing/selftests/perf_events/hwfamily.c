// SPDX-License-Identifier: GPL-2.0
/*
 * Intel family tables, held to the stock kernel's answers.
 *
 * A family 6 Intel CPU gets model-specific tables from the kernel: which
 * counters each event code may use, which generic and cache events
 * exist, the extra registers an event's config1 programs, and the sysfs
 * files that describe them.  None of that is in CPUID, so a test cannot
 * derive it; and none of it is visible in a count on our QEMU's model,
 * which counts the architectural events only.  What is visible is what
 * the kernel accepts, and that is decided by those tables:
 *
 *  - sysfs: every file of the "cpu" PMU (caps/, events/, format/ and its
 *    own switches) with its exact content;
 *  - hw, cache: each generic and each cache event, opened or refused
 *    (and with which errno);
 *  - weight: for each event code under a set of unit masks, how many of
 *    it fit one group (group validation at open schedules the group on
 *    an empty PMU), printed where that differs from the number of
 *    general-purpose counters; pair: two events of at most two
 *    counters each that cannot share one group;
 *  - extra: for the event codes that take an extra register, the bits
 *    of config1 accepted one at a time, and how many such events with
 *    different config1 values fit one group;
 *  - period: the shortest sample period a few codes take, and whether
 *    PERF_EVENT_IOC_PERIOD refuses one of 1 (errata limits);
 *  - tsx: the transactional filters (config bits 32 and 33) a CPU with
 *    RTM takes: which events open with them, where they count.
 *
 * A hybrid part's two PMUs (cpu_core, cpu_atom) are each reported so,
 * their lines naming them after the area.
 *
 * "hwfamily --report" prints those lines.  The harness records them on
 * the stock kernel, one section per CPU model (make families
 * RECORD=1), into hwfamily.golden, which this binary carries; run as a
 * test it compares its own report, area by area, with the section for
 * the CPU it runs on, and skips on a CPU without one.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

/*
 * An area opens thousands of events (the weights: every code, up to a
 * group of all the counters each), which on a hybrid part with fifteen
 * counters a kind under a debug kernel (lockdep, KASAN) takes minutes,
 * not the harness's 30 seconds.  The probes are bounded; the boot's
 * own limit catches a hang.
 */
#undef TEST_TIMEOUT_DEFAULT
#define TEST_TIMEOUT_DEFAULT	300

#include "hwfamily_golden.h"

/*
 * The PMU being reported: "cpu", or on a hybrid part each of cpu_core
 * and cpu_atom in turn, whose lines then name it after their area.
 */
static struct {
	const char	*name;
	__u32		type;		/* its perf_event_attr.type */
	__u64		ext;		/* generic events: type << 32, hybrid */
	const char	*label;		/* "" or "cpu_core " */
} pmu_now = { "cpu", PERF_TYPE_RAW, 0, "" };

static const char *const hybrid_pmus[] = { "cpu_core", "cpu_atom" };

/* A report: lines, each "area rest". */
struct report {
	char	**line;
	int	n, cap;
};

static void report_add(struct report *r, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (!s)
		return;
	if (*pmu_now.label) {
		char *sp = strchr(s, ' '), *t;

		if (sp && asprintf(&t, "%.*s %s%s", (int)(sp - s), s,
				   pmu_now.label, sp + 1) >= 0) {
			free(s);
			s = t;
		}
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->line = realloc(r->line, r->cap * sizeof(*r->line));
	}
	r->line[r->n++] = s;
}

static void report_free(struct report *r)
{
	while (r->n)
		free(r->line[--r->n]);
	free(r->line);
	r->line = NULL;
	r->cap = 0;
}

static const char *err_name(int err)
{
	switch (err) {
	case 0:		return "ok";
	case EINVAL:	return "EINVAL";
	case ENOENT:	return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENXIO:	return "ENXIO";
	case EACCES:	return "EACCES";
	case ENODEV:	return "ENODEV";
	case ENOSPC:	return "ENOSPC";
	default:	return "E?";
	}
}

/* This CPU's section name: "06-1a" for family 6 model 1AH. */
static int cpu_key(char *key, size_t len)
{
#if defined(__x86_64__)
	unsigned int eax, ebx, ecx, edx, family, model;
	char vendor[13];

	if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
		return -1;
	memcpy(vendor, &ebx, 4);
	memcpy(vendor + 4, &edx, 4);
	memcpy(vendor + 8, &ecx, 4);
	vendor[12] = 0;
	if (strcmp(vendor, "GenuineIntel") || eax < 0xa)
		return -1;
	__get_cpuid(1, &eax, &ebx, &ecx, &edx);
	family = (eax >> 8) & 0xf;
	model = (eax >> 4) & 0xf;
	if (family == 0xf)
		family += (eax >> 20) & 0xff;
	if (family == 6 || family == 0xf)
		model += ((eax >> 16) & 0xf) << 4;
	snprintf(key, len, "%02x-%02x", family, model);
	return 0;
#else
	return -1;
#endif
}

static int gp_counters, fixed_counters;

static void count_counters(void)
{
#if defined(__x86_64__)
	unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;

	__get_cpuid(0xa, &eax, &ebx, &ecx, &edx);
	gp_counters = CPUID_0A_NUM_GP(eax);
	fixed_counters = CPUID_0A_NUM_FIXED(edx);
#endif
}

static int group_fit(const __u64 (*cfg)[2], int n, int cap);

/*
 * Make @name the PMU reported.  A hybrid PMU's counters are not those
 * CPUID 0AH gives (it gives what both kinds have): its general-purpose
 * ones are as many as events of code 0 (no family limits it) fit one
 * group, and its fixed ones are left to the group limit.
 */
static int pmu_select(const char *name)
{
	static char label[32];
	char path[256];
	long type;

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/type", name);
	type = read_long(path);
	if (type < 0)
		return -1;
	pmu_now.name = name;
	pmu_now.type = type;
	count_counters();
	if (!strcmp(name, "cpu")) {
		pmu_now.ext = 0;
		pmu_now.label = "";
	} else {
		const __u64 code0[1][2] = { { 0, 0 } };

		pmu_now.ext = (__u64)type << 32;
		snprintf(label, sizeof(label), "%s ", name);
		pmu_now.label = label;
		gp_counters = group_fit(code0, 1, HW_MAX_COUNTERS);
		fixed_counters = HW_MAX_COUNTERS - 1 - gp_counters;
	}
	return 0;
}

/* Call @fill for each PMU there is: "cpu", or a hybrid part's two. */
static int report_pmus(struct report *r, void (*fill)(struct report *))
{
	unsigned int i;
	int n = 0;

	if (!pmu_select("cpu")) {
		fill(r);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(hybrid_pmus); i++)
		if (!pmu_select(hybrid_pmus[i])) {
			fill(r);
			n++;
		}
	return n;
}

/* sysfs: one line per file, its content with newlines written as \n. */
static void sysfs_dir(struct report *r, const char *sub)
{
	char path[512], buf[4096], esc[8192];
	struct dirent **names;
	int n, i, len, j, k;

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s%s%s", pmu_now.name,
		 *sub ? "/" : "", sub);
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		const char *f = names[i]->d_name;
		struct stat st;

		snprintf(path, sizeof(path), EVENT_SOURCE "/%s%s%s/%s",
			 pmu_now.name, *sub ? "/" : "", sub, f);
		if (*f == '.' || stat(path, &st) || !S_ISREG(st.st_mode) ||
		    !strcmp(f, "type") || !strcmp(f, "uevent") ||
		    !strcmp(f, "perf_event_mux_interval_ms"))
			goto next;
		len = read_file(path, buf, sizeof(buf));
		if (len < 0) {
			report_add(r, "sysfs %s%s%s %s", sub, *sub ? "/" : "",
				   f, err_name(errno));
			goto next;
		}
		for (j = k = 0; j < len && k < (int)sizeof(esc) - 3; j++) {
			if (buf[j] == '\n') {
				esc[k++] = '\\';
				esc[k++] = 'n';
			} else {
				esc[k++] = buf[j];
			}
		}
		esc[k] = 0;
		report_add(r, "sysfs %s%s%s %s", sub, *sub ? "/" : "", f, esc);
next:
		free(names[i]);
	}
	if (n >= 0)
		free(names);
}

static void report_sysfs(struct report *r)
{
	sysfs_dir(r, "");
	sysfs_dir(r, "caps");
	sysfs_dir(r, "events");
	sysfs_dir(r, "format");
}

/*
 * A user-only event of this task: counting, or sampling every @period;
 * a leader (@group -1) starts disabled.
 */
static int open_event(__u32 type, __u64 config, __u64 config1, __u64 period,
		      int group)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = config;
	attr.config1 = config1;
	attr.sample_period = period;
	attr.disabled = group < 0;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return sys_perf_event_open(&attr, 0, -1, group, 0);
}

static int open_attr(__u32 type, __u64 config, __u64 config1, int group)
{
	return open_event(type, config, config1, 0, group);
}

/* 0 when the event opens alone, else the errno. */
static int open_result(__u32 type, __u64 config, __u64 config1)
{
	int fd = open_attr(type, config, config1, -1);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

static void report_generic(struct report *r)
{
	int i, op, res, c;

	for (i = 0; i < PERF_COUNT_HW_MAX; i++)
		report_add(r, "hw %d %s", i,
			   err_name(open_result(PERF_TYPE_HARDWARE,
						i | pmu_now.ext, 0)));
	for (c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				__u64 id = c | op << 8 | res << 16 | pmu_now.ext;

				report_add(r, "cache %d-%d-%d %s", c, op, res,
					   err_name(open_result(PERF_TYPE_HW_CACHE,
								id, 0)));
			}
}

/*
 * How many of the events @cfg[0..n) (config, config1 pairs, used in
 * turn) fit one group, up to @cap; -errno when the first does not open.
 */
static int group_fit(const __u64 (*cfg)[2], int n, int cap)
{
	int fd[HW_MAX_COUNTERS + 4];
	int k, fit;

	fd[0] = open_attr(pmu_now.type, cfg[0][0], cfg[0][1], -1);
	if (fd[0] < 0)
		return -errno;
	for (k = 1; k < cap; k++) {
		fd[k] = open_attr(pmu_now.type, cfg[k % n][0], cfg[k % n][1],
				  fd[0]);
		if (fd[k] < 0)
			break;
	}
	fit = k;
	while (k--)
		close(fd[k]);
	return fit;
}

/* The unit masks probed with every event code: those the tables use. */
static const unsigned int probe_umasks[] = {
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x08, 0x0c, 0x10, 0x14,
	0x40, 0x87,
};

/* Whole configs probed besides: unit mask and counter-mask variants. */
static const __u64 probe_configs[] = {
	0x080008a3,	/* CYCLE_ACTIVITY.CYCLES_L1D_MISS, cmask 8 */
	0x0c000ca3,	/* CYCLE_ACTIVITY.STALLS_L1D_MISS, cmask 12 */
	0x010001a3,	/* cmask 1 */
	0x0400049c,	/* IDQ_UOPS_NOT_DELIVERED, cmask 4 */
};

/* One weight line: a count, or the errno of the event alone. */
/*
 * The most events of one kind a weight probe tries in a group: one more
 * than the counters, so that a code every counter takes shows as such.
 */
static int group_cap(void)
{
	int cap = gp_counters + fixed_counters + 1;

	return cap > HW_MAX_COUNTERS ? HW_MAX_COUNTERS : cap;
}

static void report_weight(struct report *r, const char *what, int w)
{
	if (w < 0)
		report_add(r, "weight %s %s", what, err_name(-w));
	else if (w != gp_counters)
		report_add(r, "weight %s %d", what, w);
}

/*
 * Weights per event code: one line "0xCC/any" where every probed unit
 * mask of the code has the same, else one per unit mask.
 */
static void report_counters(struct report *r)
{
	int w[ARRAY_SIZE(probe_umasks)], nnarrow = 0, cap;
	__u64 narrow[256];
	unsigned int code, u;
	char what[32];
	int i, j;

	cap = group_cap();
	for (code = 0; code < 0x100 + ARRAY_SIZE(probe_configs); code++) {
		int n = code < 0x100 ? ARRAY_SIZE(probe_umasks) : 1;
		bool same = true;

		for (u = 0; u < n; u++) {
			__u64 c[1][2] = { { 0, 0 } };

			c[0][0] = code < 0x100 ? code | probe_umasks[u] << 8 :
				  probe_configs[code - 0x100];
			w[u] = group_fit(c, 1, cap);
			same &= w[u] == w[0];
			/*
			 * Pairs of the narrow ones: a code's unit masks
			 * only where one is limited unlike unit mask 0.
			 */
			if (w[u] > 0 && w[u] <= 2 && (!u || w[u] != w[0]) &&
			    nnarrow < (int)ARRAY_SIZE(narrow))
				narrow[nnarrow++] = c[0][0];
		}
		if (code < 0x100 && same) {
			snprintf(what, sizeof(what), "%#x/any", code);
			report_weight(r, what, w[0]);
			continue;
		}
		for (u = 0; u < n; u++) {
			snprintf(what, sizeof(what), "%#llx", code < 0x100 ?
				 (unsigned long long)(code | probe_umasks[u] << 8) :
				 (unsigned long long)probe_configs[code - 0x100]);
			report_weight(r, what, w[u]);
		}
	}
	for (i = 0; i < nnarrow; i++)
		for (j = i + 1; j < nnarrow; j++) {
			__u64 c[2][2] = { { narrow[i], 0 }, { narrow[j], 0 } };

			if (group_fit(c, 2, 2) < 2)
				report_add(r, "pair %#llx %#llx fail",
					   (unsigned long long)narrow[i],
					   (unsigned long long)narrow[j]);
		}
}

/*
 * Event codes that may take an extra register (off-core and snoop
 * response, load latency, front end), and their unit masks.
 */
static const unsigned int extra_codes[] = {
	0x0b, 0x27, 0x2a, 0x2b, 0xa6, 0xad, 0xb7, 0xbb, 0xc2, 0xc6, 0xcd, 0xd0,
};

static const unsigned int extra_umasks[] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x10, 0x40,
};

static void report_extra(struct report *r)
{
	unsigned int i, u, bit;

	for (i = 0; i < ARRAY_SIZE(extra_codes); i++)
		for (u = 0; u < ARRAY_SIZE(extra_umasks); u++) {
			__u64 config = extra_codes[i] | extra_umasks[u] << 8;
			__u64 valid = 0, c[2][2];
			int bits[2], nb = 0, err;

			err = open_result(pmu_now.type, config, 0);
			if (err) {
				report_add(r, "extra %#llx %s",
					   (unsigned long long)config,
					   err_name(err));
				continue;
			}
			for (bit = 0; bit < 64; bit++) {
				if (open_result(pmu_now.type, config,
						1ULL << bit))
					continue;
				valid |= 1ULL << bit;
				if (nb < 2)
					bits[nb++] = bit;
			}
			report_add(r, "extra %#llx %#llx",
				   (unsigned long long)config,
				   (unsigned long long)valid);
			if (nb < 2 || !~valid)
				continue;
			c[0][0] = config;
			c[1][0] = config;
			c[0][1] = 1ULL << bits[0];
			c[1][1] = 1ULL << bits[1];
			report_add(r, "extra-share %#llx %d",
				   (unsigned long long)config,
				   group_fit(c, 2, 4));
		}
}

/* A sampling event of @config every @period: its fd, or -1 (errno). */
static int open_sampling(__u64 config, __u64 period)
{
	return open_event(pmu_now.type, config, 0, period, -1);
}

/*
 * The shortest sample period each of a few codes takes (the families'
 * errata limits), where that is not 1, and the errno of asking for a
 * period of 1 later (PERF_EVENT_IOC_PERIOD), where it is refused.
 */
static void report_periods(struct report *r)
{
	static const __u64 configs[] = { 0x00c0, 0x01c0, 0x003c, 0x0300 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		__u64 lo = 1, hi = 1024, one = 1;
		int fd;

		fd = open_sampling(configs[i], hi);
		if (fd < 0)
			continue;
		if (ioctl(fd, PERF_EVENT_IOC_PERIOD, &one))
			report_add(r, "period %#llx ioctl %s",
				   (unsigned long long)configs[i],
				   err_name(errno));
		close(fd);
		while (lo < hi) {
			__u64 mid = (lo + hi) / 2;

			fd = open_sampling(configs[i], mid);
			if (fd >= 0) {
				close(fd);
				hi = mid;
			} else {
				lo = mid + 1;
			}
		}
		if (lo != 1)
			report_add(r, "period %#llx min %llu",
				   (unsigned long long)configs[i],
				   (unsigned long long)lo);
	}
}

#define TSX_IN_TX	0x100000000ULL	/* in_tx: config:32 */
#define TSX_IN_TX_CP	0x200000000ULL	/* in_tx_cp: config:33 */

/*
 * Move this task to the first CPU of the PMU reported (a hybrid PMU
 * counts only on its own kind of CPU); false where it has no cpus file.
 */
static bool pin_to_pmu(cpu_set_t *old)
{
	char path[256];
	long cpu;

	snprintf(path, sizeof(path), EVENT_SOURCE "/%s/cpus", pmu_now.name);
	cpu = read_long(path);
	if (cpu < 0 || sched_getaffinity(0, sizeof(*old), old))
		return false;
	return !pin_to_cpu(cpu);
}

/*
 * tsx: the transactional filters, which a CPU with RTM takes in an
 * event's config (IN_TX: only inside a transaction; IN_TX_CP: and the
 * count checkpointed, which keeps an event to general-purpose counter
 * 2): which events with them open and how many fit one group, which
 * sampling periods an in_tx_cp event takes, and whether an in_tx
 * cycles event counts this task's user time, which runs no transaction
 * (a CPU without RTM drops the bits: it counts).
 */
static void report_tsx(struct report *r)
{
	static const __u64 configs[] = {
		0x003c | TSX_IN_TX, 0x003c | TSX_IN_TX | TSX_IN_TX_CP,
		0x00c0 | TSX_IN_TX_CP, 0x013c | TSX_IN_TX,
		0x0300 | TSX_IN_TX, 0x01c2 | TSX_IN_TX_CP,
	};
	static const __u64 periods[] = { 100000, 0x7fffffff };
	__u64 count;
	cpu_set_t old;
	bool pinned;
	unsigned int i;
	int fd, cap;

	cap = group_cap();
	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		__u64 c[1][2] = { { configs[i], 0 } };
		int w = group_fit(c, 1, cap);

		if (w < 0)
			report_add(r, "tsx %#llx %s",
				   (unsigned long long)configs[i],
				   err_name(-w));
		else
			report_add(r, "tsx %#llx fit %d",
				   (unsigned long long)configs[i], w);
	}
	for (i = 0; i < ARRAY_SIZE(periods); i++) {
		fd = open_sampling(0x003c | TSX_IN_TX_CP, periods[i]);
		report_add(r, "tsx sample-cp %#llx %s",
			   (unsigned long long)periods[i],
			   err_name(fd < 0 ? errno : 0));
		if (fd >= 0)
			close(fd);
	}
	pinned = pin_to_pmu(&old);
	fd = open_attr(pmu_now.type, 0x003c | TSX_IN_TX, 0, -1);
	if (fd >= 0) {
		count = count_loop(fd, 100000);
		close(fd);
		report_add(r, "tsx count-in-tx %s", count == ~0ULL ? "E?" :
			   count ? "some" : "none");
	}
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
}

static void report_all(struct report *r)
{
	report_sysfs(r);
	report_generic(r);
	report_counters(r);
	report_extra(r);
	report_periods(r);
	report_tsx(r);
}

/*
 * The golden lines of section @key whose area (first word) is @area,
 * compared with @r's; each line only one side has is printed.  Returns
 * how many there were, or -1 without a section for @key.
 */
static int compare_area(struct __test_metadata *_metadata,
			const struct report *r, const char *key,
			const char *area)
{
	char head[32], *sect, *end, *line;
	size_t alen = strlen(area);
	int i, diff = 0, n;
	const char *s;
	char *seen;

	snprintf(head, sizeof(head), "[%s]\n", key);
	s = strstr(hwfamily_golden, head);
	if (!s)
		return -1;
	s += strlen(head);
	end = strstr(s, "\n[");
	n = end ? end - s + 1 : (int)strlen(s);
	sect = strndup(s, n);
	seen = calloc(r->n + 1, 1);
	for (line = strtok(sect, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, area, alen) || line[alen] != ' ')
			continue;
		for (i = 0; i < r->n; i++)
			if (!seen[i] && !strcmp(r->line[i], line))
				break;
		if (i < r->n) {
			seen[i] = 1;
			continue;
		}
		TH_LOG("stock: %s", line);
		diff++;
	}
	for (i = 0; i < r->n; i++)
		if (!seen[i] && !strncmp(r->line[i], area, alen) &&
		    r->line[i][alen] == ' ') {
			TH_LOG("here:  %s", r->line[i]);
			diff++;
		}
	free(seen);
	free(sect);
	return diff;
}

static void check_area(struct __test_metadata *_metadata,
		       void (*fill)(struct report *), const char *area)
{
	struct report r = { };
	char key[16];
	int diff;

	if (cpu_key(key, sizeof(key)))
		SKIP(return, "not an Intel CPU with architectural perfmon");
	if (!report_pmus(&r, fill))
		SKIP(return, "no core PMU: cpu, or cpu_core and cpu_atom");
	diff = compare_area(_metadata, &r, key, area);
	report_free(&r);
	if (diff < 0)
		SKIP(return, "no stock report for family-model %s", key);
	EXPECT_EQ(0, diff) TH_LOG("%d %s lines differ from stock's", diff, area);
}

TEST(sysfs_files)
{
	check_area(_metadata, report_sysfs, "sysfs");
}

TEST(generic_events)
{
	check_area(_metadata, report_generic, "hw");
}

TEST(cache_events)
{
	check_area(_metadata, report_generic, "cache");
}

TEST(counter_constraints)
{
	check_area(_metadata, report_counters, "weight");
}

TEST(counter_conflicts)
{
	check_area(_metadata, report_counters, "pair");
}

TEST(extra_registers)
{
	check_area(_metadata, report_extra, "extra");
}

TEST(extra_register_sharing)
{
	check_area(_metadata, report_extra, "extra-share");
}

TEST(sampling_periods)
{
	check_area(_metadata, report_periods, "period");
}

TEST(transactional_filters)
{
	check_area(_metadata, report_tsx, "tsx");
}

int main(int argc, char **argv)
{
	struct report r = { };
	char key[16];
	int i;

	if (argc < 2 || strcmp(argv[1], "--report"))
		return test_harness_run(argc, argv);
	if (cpu_key(key, sizeof(key)))
		return 2;
	report_pmus(&r, report_all);
	printf("[%s]\n", key);
	for (i = 0; i < r.n; i++)
		printf("%s\n", r.line[i]);
	report_free(&r);
	return 0;
}
