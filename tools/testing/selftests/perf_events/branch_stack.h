/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the branch-stack cases share: x86's LBR (lbr.c) and arm64's BRBE
 * (brbe.c) are read the same way, a sample with IP and the stack, at
 * most 64 records on either.
 */
#ifndef BRANCH_STACK_H
#define BRANCH_STACK_H

#include "perf_test.h"

#define BRANCH_MAX	64

/*
 * The loops both files sample take four branches an iteration, in this
 * order: a first one, a call, its return, a conditional branch back to
 * the first.  Each is known by its from and to.
 */
enum { BR_FIRST, BR_CALL, BR_RET, BR_COND, NR_LOOP_BR };

struct branch_pair {
	__u64 from, to;
	int instructions;	/* since the branch before it, its own included */
	int type;		/* PERF_BR_* */
};

/* Which of the loop's branches e is, or -1 */
static inline int loop_branch(const struct branch_pair *p,
			      const struct perf_branch_entry *e)
{
	int i;

	for (i = 0; i < NR_LOOP_BR; i++)
		if (e->from == p[i].from && e->to == p[i].to)
			return i;
	return -1;
}

/* PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK */
struct branch_sample {
	struct perf_event_header h;
	__u64 ip;
	__u64 nr;
	struct perf_branch_entry e[BRANCH_MAX];
};

/*
 * A record a case does not expect: counted in the case's "bad", the
 * first three logged with their place in the stack
 */
#define BAD_RECORD(i, e, why) do {					\
	if (bad++ < 3)							\
		TH_LOG("record %llu: %llx -> %llx %s",			\
		       (unsigned long long)(i),				\
		       (unsigned long long)(e)->from,			\
		       (unsigned long long)(e)->to, why);		\
} while (0)

/* Run fn(n) with fd enabled */
static inline void run_enabled(int fd, void (*fn)(unsigned long),
			       unsigned long n)
{
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	fn(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
}

/* The next sample of rb, or false; nr bounded by BRANCH_MAX */
static inline bool next_sample(struct perf_rb *rb, struct branch_sample *s)
{
	int type;

	while ((type = perf_rb_fetch(rb, s, sizeof(*s))) >= 0) {
		if (type != PERF_RECORD_SAMPLE)
			continue;
		if (s->nr > BRANCH_MAX)
			s->nr = BRANCH_MAX;
		return true;
	}
	return false;
}

/*
 * Conditional branches and returns (two hardware filters at once): the
 * records of @s are the loop's conditional branch and its return, in
 * turn; the others counted in *@bad.
 */
static inline void cond_ret_in_turn(struct __test_metadata *_metadata,
				    const struct branch_pair *p,
				    const struct branch_sample *s,
				    unsigned long *bad_records)
{
	unsigned long bad = *bad_records;
	int b, prev = -1;
	__u64 i;

	for (i = 0; i < s->nr; i++) {
		b = loop_branch(p, &s->e[i]);
		if ((b != BR_COND && b != BR_RET) || (prev >= 0 && b == prev))
			BAD_RECORD(i, &s->e[i], "is no conditional or return in turn");
		prev = b;
	}
	*bad_records = bad;
}

#endif /* BRANCH_STACK_H */
