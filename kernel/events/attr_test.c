// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for perf_event_attr copy-in and validation (attr.c).
 *
 * Every rule is driven through a fake system (struct fake_sys) whose
 * sysctl values, architecture facts and privilege answers each case sets,
 * so the expectations do not depend on who runs the tests or where.  The
 * fake answers use errnos that differ from rule to rule where that lets a
 * case with two faults show which rule the ABI reports first.
 *
 * The size rules are tested twice: through a kernel-buffer source, which
 * can also simulate faults, and through perf_attr_copy() on real user
 * memory, which shows the size written back to the caller.
 */

#include <kunit/test.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/string.h>
#include <linux/time.h>
#include <linux/uaccess.h>

#include <linux/timekeeping.h>

#include "attr.h"

#define FAKE_RATE	1000
#define FAKE_STACK	127
/* A register the fake architecture cannot sample, and its errno. */
#define FAKE_BAD_REG	BIT_ULL(40)
#define FAKE_REG_ERR	(-ENXIO)
#define OUR_SIZE	((u32)sizeof(struct perf_event_attr))
/* The ABI's answer when user stacks cannot be dumped at all. */
#define NO_STACK_DUMP	(-ENOSYS)

/* ---- the fake system ---------------------------------------------------- */

struct fake_sys {
	struct perf_attr_limits	lim;
	int			kernel_err;
	int			open_err;
	int			lockdown_err;
	bool			perfmon;
};

static const struct fake_sys *to_fake(const struct perf_attr_limits *lim)
{
	return container_of(lim, struct fake_sys, lim);
}

/* Like the real architectures: an empty mask is refused as well. */
static int fake_regs_ok(const struct perf_attr_limits *lim, u64 mask)
{
	if (!mask)
		return -EINVAL;
	return mask & FAKE_BAD_REG ? FAKE_REG_ERR : 0;
}

static int fake_kernel_ok(const struct perf_attr_limits *lim)
{
	return to_fake(lim)->kernel_err;
}

static bool fake_perfmon_ok(const struct perf_attr_limits *lim)
{
	return to_fake(lim)->perfmon;
}

static int fake_open_ok(const struct perf_attr_limits *lim)
{
	return to_fake(lim)->open_err;
}

static int fake_lockdown_ok(const struct perf_attr_limits *lim)
{
	return to_fake(lim)->lockdown_err;
}

/* ---- the rule table ------------------------------------------------------ */

enum stage {
	VALIDATE,	/* perf_attr_validate() */
	FIELDS,		/* perf_attr_check_fields() alone */
	ALLOC,
	PMU_INIT,
	PMU,
	BOUND,
};

/**
 * struct rule_case - one attr, one system, one expected answer
 * @name: what is being shown
 * @stage: which entry point to call
 * @attr: the attr (size is not looked at past the copy)
 * @kernel_err: what the kernel-visibility hook answers
 * @open_err: what the open gate answers
 * @lockdown_err: what the lockdown hook answers
 * @no_perfmon: the caller lacks CAP_PERFMON
 * @no_stack_dump: the architecture cannot dump user stacks
 * @no_cgroup: PERF_SAMPLE_CGROUP is not built in
 * @caps: PMU capabilities for the PMU stages
 * @want: the expected return value
 * @check_mut: compare branch_sample_type and sample_max_stack afterwards
 *	(otherwise only every other field is checked to be untouched)
 * @want_branch: expected branch_sample_type when @check_mut
 * @want_max_stack: expected sample_max_stack when @check_mut
 */
struct rule_case {
	const char		*name;
	enum stage		stage;
	struct perf_event_attr	attr;
	int			kernel_err;
	int			open_err;
	int			lockdown_err;
	bool			no_perfmon;
	bool			no_stack_dump;
	bool			no_cgroup;
	unsigned int		caps;
	int			want;
	bool			check_mut;
	u64			want_branch;
	u16			want_max_stack;
};

#define BR_ANY		PERF_SAMPLE_BRANCH_ANY
#define BR_USER		PERF_SAMPLE_BRANCH_USER
#define BR_KERNEL	PERF_SAMPLE_BRANCH_KERNEL
#define BR_HV		PERF_SAMPLE_BRANCH_HV
#define BR_LEVELS	PERF_SAMPLE_BRANCH_PLM_ALL

static const struct rule_case rule_cases[] = {
	/* An all-zero attr is a plain counting event. */
	{ "zero attr passes", VALIDATE, {}, .want = 0,
	  .check_mut = true, .want_max_stack = FAKE_STACK },

	/* reserved bits */
	{ "__reserved_1 set", VALIDATE, { .__reserved_1 = 1 }, .want = -EINVAL },
	{ "__reserved_1 top bit", VALIDATE, { .__reserved_1 = 1U << 25 },
	  .want = -EINVAL },
	{ "__reserved_2 set", VALIDATE, { .__reserved_2 = 1 }, .want = -EINVAL },
	{ "__reserved_3 set", VALIDATE, { .__reserved_3 = 1 }, .want = -EINVAL },
	{ "__reserved_3 top bit", VALIDATE, { .__reserved_3 = 1U << 28 },
	  .want = -EINVAL },

	/* sample_type and read_format */
	{ "sample_type first unknown bit", VALIDATE,
	  { .sample_type = PERF_SAMPLE_MAX }, .want = -EINVAL },
	{ "sample_type top bit", VALIDATE,
	  { .sample_type = BIT_ULL(63) }, .want = -EINVAL },
	{ "sample_type known bits without their own fields", VALIDATE,
	  { .sample_type = (PERF_SAMPLE_MAX - 1) & ~(u64)PERF_SAMPLE_WEIGHT &
			   ~(u64)(PERF_SAMPLE_BRANCH_STACK |
				  PERF_SAMPLE_REGS_USER |
				  PERF_SAMPLE_REGS_INTR |
				  PERF_SAMPLE_STACK_USER),
	    .exclude_kernel = 1 }, .want = 0 },
	{ "read_format first unknown bit", VALIDATE,
	  { .read_format = PERF_FORMAT_MAX }, .want = -EINVAL },
	{ "read_format every known bit", VALIDATE,
	  { .read_format = PERF_FORMAT_MAX - 1 }, .want = 0 },

	/* branch_sample_type */
	{ "branch filter unknown bit", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY | PERF_SAMPLE_BRANCH_MAX },
	  .want = -EINVAL },
	{ "branch filter empty", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK }, .want = -EINVAL },
	{ "branch filter only levels", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_LEVELS }, .want = -EINVAL },
	{ "branch filter only user level", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_USER }, .want = -EINVAL },
	{ "branch levels filled from counted levels", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY }, .want = 0,
	  .check_mut = true, .want_branch = BR_ANY | BR_LEVELS,
	  .want_max_stack = FAKE_STACK },
	{ "branch levels filled: user only needs no privilege", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY,
	    .exclude_kernel = 1, .exclude_hv = 1 },
	  .kernel_err = -EACCES, .want = 0,
	  .check_mut = true, .want_branch = BR_ANY | BR_USER,
	  .want_max_stack = FAKE_STACK },
	{ "branch levels filled: kernel level needs privilege", FIELDS,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY,
	    .exclude_user = 1, .exclude_hv = 1 },
	  .kernel_err = -EACCES, .want = -EACCES,
	  .check_mut = true, .want_branch = BR_ANY | BR_KERNEL },
	{ "branch levels filled: hv level needs privilege", FIELDS,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY,
	    .exclude_user = 1, .exclude_kernel = 1 },
	  .kernel_err = -EPERM, .want = -EPERM,
	  .check_mut = true, .want_branch = BR_ANY | BR_HV },
	{ "branch levels: nothing counted leaves the filter", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY, .exclude_user = 1,
	    .exclude_kernel = 1, .exclude_hv = 1 },
	  .kernel_err = -EACCES, .want = 0,
	  .check_mut = true, .want_branch = BR_ANY,
	  .want_max_stack = FAKE_STACK },
	{ "branch explicit user level is kept", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = PERF_SAMPLE_BRANCH_ANY_CALL | BR_USER,
	    .exclude_kernel = 1 },
	  .kernel_err = -EACCES, .want = 0, .check_mut = true,
	  .want_branch = PERF_SAMPLE_BRANCH_ANY_CALL | BR_USER,
	  .want_max_stack = FAKE_STACK },
	{ "branch explicit kernel level needs privilege", FIELDS,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY | BR_KERNEL, .exclude_kernel = 1 },
	  .kernel_err = -EACCES, .want = -EACCES, .check_mut = true,
	  .want_branch = BR_ANY | BR_KERNEL },
	{ "branch explicit hv level needs privilege", FIELDS,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY | BR_HV, .exclude_kernel = 1 },
	  .kernel_err = -EACCES, .want = -EACCES },
	{ "branch filter ignored without BRANCH_STACK", VALIDATE,
	  { .sample_type = PERF_SAMPLE_IP, .branch_sample_type = BIT_ULL(63) },
	  .want = 0, .check_mut = true, .want_branch = BIT_ULL(63),
	  .want_max_stack = FAKE_STACK },

	/* register masks */
	{ "regs_user empty mask", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_USER }, .want = -EINVAL },
	{ "regs_user register the arch lacks", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_USER,
	    .sample_regs_user = FAKE_BAD_REG | 1 }, .want = FAKE_REG_ERR },
	{ "regs_user good mask", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_USER, .sample_regs_user = 3 },
	  .want = 0 },
	{ "regs_user mask ignored without REGS_USER", VALIDATE,
	  { .sample_regs_user = FAKE_BAD_REG }, .want = 0 },
	{ "regs_intr empty mask", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR }, .want = -EINVAL },
	{ "regs_intr register the arch lacks", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR,
	    .sample_regs_intr = FAKE_BAD_REG }, .want = FAKE_REG_ERR },
	{ "regs_intr good mask", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR, .sample_regs_intr = 1 },
	  .want = 0 },
	{ "regs_intr mask ignored without REGS_INTR", VALIDATE,
	  { .sample_regs_intr = FAKE_BAD_REG }, .want = 0 },

	/* user stack dumps */
	{ "stack_user without arch support", VALIDATE,
	  { .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 8 },
	  .no_stack_dump = true, .want = NO_STACK_DUMP },
	{ "stack_user size not a multiple of 8", VALIDATE,
	  { .sample_type = PERF_SAMPLE_STACK_USER, .sample_stack_user = 12 },
	  .want = -EINVAL },
	{ "stack_user size 65535", VALIDATE,
	  { .sample_type = PERF_SAMPLE_STACK_USER,
	    .sample_stack_user = U16_MAX }, .want = -EINVAL },
	{ "stack_user size 65536", VALIDATE,
	  { .sample_type = PERF_SAMPLE_STACK_USER,
	    .sample_stack_user = 65536 }, .want = -EINVAL },
	{ "stack_user largest size", VALIDATE,
	  { .sample_type = PERF_SAMPLE_STACK_USER,
	    .sample_stack_user = 65528 }, .want = 0 },
	{ "stack_user size 0", VALIDATE,
	  { .sample_type = PERF_SAMPLE_STACK_USER }, .want = 0 },
	{ "stack_user size ignored without STACK_USER", VALIDATE,
	  { .sample_stack_user = 13 }, .want = 0 },

	/* sample_max_stack: only the default here, the limit comes later */
	{ "sample_max_stack 0 takes the sysctl value", VALIDATE, {},
	  .want = 0, .check_mut = true, .want_max_stack = FAKE_STACK },
	{ "sample_max_stack kept when set", VALIDATE,
	  { .sample_max_stack = 5 }, .want = 0,
	  .check_mut = true, .want_max_stack = 5 },
	{ "sample_max_stack above sysctl is not checked yet", VALIDATE,
	  { .sample_type = PERF_SAMPLE_CALLCHAIN,
	    .sample_max_stack = U16_MAX }, .want = 0,
	  .check_mut = true, .want_max_stack = U16_MAX },

	/* the remaining field rules */
	{ "SAMPLE_CGROUP without cgroup support", VALIDATE,
	  { .sample_type = PERF_SAMPLE_CGROUP }, .no_cgroup = true,
	  .want = -EINVAL },
	{ "SAMPLE_CGROUP with cgroup support", VALIDATE,
	  { .sample_type = PERF_SAMPLE_CGROUP }, .want = 0 },
	{ "WEIGHT and WEIGHT_STRUCT together", VALIDATE,
	  { .sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT },
	  .want = -EINVAL },
	{ "WEIGHT alone", VALIDATE,
	  { .sample_type = PERF_SAMPLE_WEIGHT }, .want = 0 },
	{ "WEIGHT_STRUCT alone", VALIDATE,
	  { .sample_type = PERF_SAMPLE_WEIGHT_STRUCT }, .want = 0 },
	{ "inherit_thread without inherit", VALIDATE,
	  { .inherit_thread = 1 }, .want = -EINVAL },
	{ "inherit_thread with inherit", VALIDATE,
	  { .inherit_thread = 1, .inherit = 1 }, .want = 0 },
	{ "remove_on_exec and enable_on_exec", VALIDATE,
	  { .remove_on_exec = 1, .enable_on_exec = 1 }, .want = -EINVAL },
	{ "remove_on_exec alone", VALIDATE,
	  { .remove_on_exec = 1 }, .want = 0 },
	{ "sigtrap without remove_on_exec", VALIDATE,
	  { .sigtrap = 1 }, .want = -EINVAL },
	{ "sigtrap with remove_on_exec", VALIDATE,
	  { .sigtrap = 1, .remove_on_exec = 1, .sig_data = 0xdeadbeef },
	  .want = 0 },
	{ "inherit with read_format GROUP is allowed", VALIDATE,
	  { .inherit = 1, .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID },
	  .want = 0 },
	{ "cgroup side-band records need no privilege", VALIDATE,
	  { .cgroup = 1, .exclude_kernel = 1 }, .kernel_err = -EACCES,
	  .no_perfmon = true, .want = 0 },

	/* which of two faulty fields the field rules report */
	{ "order: unknown sample_type before branch privilege", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK | BIT_ULL(63),
	    .branch_sample_type = BR_ANY | BR_KERNEL },
	  .kernel_err = -EACCES, .want = -EINVAL },
	{ "order: branch privilege before user regs", VALIDATE,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER,
	    .branch_sample_type = BR_ANY | BR_KERNEL,
	    .sample_regs_user = FAKE_BAD_REG },
	  .kernel_err = -EACCES, .want = -EACCES },
	{ "order: user regs before stack dump support", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
	    .sample_regs_user = FAKE_BAD_REG },
	  .no_stack_dump = true, .want = FAKE_REG_ERR },
	{ "order: stack dump support before sigtrap", VALIDATE,
	  { .sample_type = PERF_SAMPLE_STACK_USER, .sigtrap = 1 },
	  .no_stack_dump = true, .want = NO_STACK_DUMP },
	{ "order: user regs failure is reported at once", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_USER,
	    .sample_regs_user = FAKE_BAD_REG, .inherit_thread = 1 },
	  .want = FAKE_REG_ERR },
	{ "order: intr regs failure yields to a later field rule", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR,
	    .sample_regs_intr = FAKE_BAD_REG, .inherit_thread = 1 },
	  .want = -EINVAL },
	{ "order: intr regs failure yields to SAMPLE_CGROUP", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_CGROUP,
	    .sample_regs_intr = FAKE_BAD_REG }, .no_cgroup = true,
	  .want = -EINVAL },
	{ "order: intr regs failure still beats the open rules", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR,
	    .sample_regs_intr = FAKE_BAD_REG },
	  .kernel_err = -EACCES, .open_err = -EPERM, .want = FAKE_REG_ERR },
	{ "order: stack dump size before intr regs", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_STACK_USER,
	    .sample_regs_intr = FAKE_BAD_REG, .sample_stack_user = 4 },
	  .want = -EINVAL },
	{ "order: field rules before the open gate", VALIDATE,
	  { .sigtrap = 1 }, .open_err = -EPERM, .want = -EINVAL },

	/* the open stage */
	{ "open gate refuses", VALIDATE, { .exclude_kernel = 1 },
	  .open_err = -EPERM, .want = -EPERM },
	{ "order: open gate before kernel visibility", VALIDATE, {},
	  .open_err = -EPERM, .kernel_err = -EACCES, .want = -EPERM },
	{ "counting the kernel needs privilege", VALIDATE, {},
	  .kernel_err = -EACCES, .want = -EACCES },
	{ "counting user only needs none", VALIDATE, { .exclude_kernel = 1 },
	  .kernel_err = -EACCES, .want = 0 },
	{ "text_poke needs privilege", VALIDATE,
	  { .exclude_kernel = 1, .text_poke = 1 },
	  .kernel_err = -EACCES, .want = -EACCES },
	{ "kernel callchains need privilege", VALIDATE,
	  { .exclude_kernel = 1, .sample_type = PERF_SAMPLE_CALLCHAIN },
	  .kernel_err = -EACCES, .want = -EACCES },
	{ "user callchains need none", VALIDATE,
	  { .exclude_kernel = 1, .sample_type = PERF_SAMPLE_CALLCHAIN,
	    .exclude_callchain_kernel = 1 },
	  .kernel_err = -EACCES, .want = 0 },
	{ "namespaces need CAP_PERFMON", VALIDATE,
	  { .namespaces = 1 }, .no_perfmon = true, .want = -EACCES },
	{ "namespaces with CAP_PERFMON", VALIDATE,
	  { .namespaces = 1 }, .want = 0 },
	{ "order: kernel visibility before namespaces", VALIDATE,
	  { .namespaces = 1 }, .kernel_err = -EPERM, .no_perfmon = true,
	  .want = -EPERM },
	{ "freq at the sysctl limit", VALIDATE,
	  { .freq = 1, .sample_freq = FAKE_RATE }, .want = 0 },
	{ "freq above the sysctl limit", VALIDATE,
	  { .freq = 1, .sample_freq = FAKE_RATE + 1 }, .want = -EINVAL },
	{ "freq with bit 63", VALIDATE,
	  { .freq = 1, .sample_freq = BIT_ULL(63) }, .want = -EINVAL },
	{ "period with bit 63", VALIDATE,
	  { .sample_period = BIT_ULL(63) }, .want = -EINVAL },
	{ "largest period", VALIDATE,
	  { .sample_period = BIT_ULL(63) - 1 }, .want = 0 },
	{ "period above the frequency limit is fine", VALIDATE,
	  { .sample_period = FAKE_RATE * 10 }, .want = 0 },
	{ "order: namespaces before the rate", VALIDATE,
	  { .namespaces = 1, .freq = 1, .sample_freq = FAKE_RATE + 1 },
	  .no_perfmon = true, .want = -EACCES },
	{ "physical addresses need privilege", VALIDATE,
	  { .exclude_kernel = 1, .sample_type = PERF_SAMPLE_PHYS_ADDR },
	  .kernel_err = -EACCES, .want = -EACCES },
	{ "order: the rate before physical addresses", VALIDATE,
	  { .exclude_kernel = 1, .sample_type = PERF_SAMPLE_PHYS_ADDR,
	    .sample_period = BIT_ULL(63) },
	  .kernel_err = -EACCES, .want = -EINVAL },
	{ "interrupt registers under lockdown", VALIDATE,
	  { .sample_type = PERF_SAMPLE_REGS_INTR, .sample_regs_intr = 1 },
	  .lockdown_err = -EPERM, .want = -EPERM },
	{ "order: physical addresses before lockdown", VALIDATE,
	  { .exclude_kernel = 1, .sample_regs_intr = 1,
	    .sample_type = PERF_SAMPLE_PHYS_ADDR | PERF_SAMPLE_REGS_INTR },
	  .kernel_err = -EACCES, .lockdown_err = -EPERM, .want = -EACCES },

	/* event creation, before a PMU is chosen */
	{ "inherited SAMPLE_READ needs SAMPLE_TID", ALLOC,
	  { .inherit = 1, .sample_type = PERF_SAMPLE_READ },
	  .want = -EINVAL },
	{ "inherited SAMPLE_READ of a group needs SAMPLE_TID", ALLOC,
	  { .inherit = 1, .sample_type = PERF_SAMPLE_READ,
	    .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID },
	  .want = -EINVAL },
	{ "inherited SAMPLE_READ with SAMPLE_TID", ALLOC,
	  { .inherit = 1, .sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID },
	  .want = 0 },
	{ "SAMPLE_READ without inherit", ALLOC,
	  { .sample_type = PERF_SAMPLE_READ }, .want = 0 },
	{ "unused branch filter is cleared", ALLOC,
	  { .sample_type = PERF_SAMPLE_IP, .branch_sample_type = BR_ANY },
	  .want = 0, .check_mut = true, .want_branch = 0 },
	{ "branch filter kept with BRANCH_STACK", ALLOC,
	  { .sample_type = PERF_SAMPLE_BRANCH_STACK,
	    .branch_sample_type = BR_ANY | BR_USER },
	  .want = 0, .check_mut = true, .want_branch = BR_ANY | BR_USER },
	{ "refused event keeps its branch filter", ALLOC,
	  { .inherit = 1, .sample_type = PERF_SAMPLE_READ,
	    .branch_sample_type = BR_ANY },
	  .want = -EINVAL, .check_mut = true, .want_branch = BR_ANY },

	/* right after the PMU's event_init() */
	{ "extended registers need PMU support", PMU_INIT,
	  { .sample_regs_intr = PERF_REG_EXTENDED_MASK },
	  .want = PERF_REG_EXTENDED_MASK ? -EOPNOTSUPP : 0 },
	{ "extended user registers need PMU support", PMU_INIT,
	  { .sample_regs_user = PERF_REG_EXTENDED_MASK },
	  .want = PERF_REG_EXTENDED_MASK ? -EOPNOTSUPP : 0 },
	{ "extended registers on a PMU that has them", PMU_INIT,
	  { .sample_regs_intr = PERF_REG_EXTENDED_MASK },
	  .caps = PERF_PMU_CAP_EXTENDED_REGS, .want = 0 },
	{ "exclude_user on a PMU that cannot exclude", PMU_INIT,
	  { .exclude_user = 1 }, .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = -EINVAL },
	{ "exclude_kernel on a PMU that cannot exclude", PMU_INIT,
	  { .exclude_kernel = 1 }, .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = -EINVAL },
	{ "exclude_hv on a PMU that cannot exclude", PMU_INIT,
	  { .exclude_hv = 1 }, .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = -EINVAL },
	{ "exclude_idle on a PMU that cannot exclude", PMU_INIT,
	  { .exclude_idle = 1 }, .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = -EINVAL },
	{ "exclude_host on a PMU that cannot exclude", PMU_INIT,
	  { .exclude_host = 1 }, .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = -EINVAL },
	{ "exclude_guest on a PMU that cannot exclude", PMU_INIT,
	  { .exclude_guest = 1 }, .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = -EINVAL },
	{ "no exclude bit on a PMU that cannot exclude", PMU_INIT,
	  { .exclude_callchain_kernel = 1 }, .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = 0 },
	{ "exclude bits on a PMU that can exclude", PMU_INIT,
	  { .exclude_user = 1, .exclude_kernel = 1, .exclude_hv = 1 },
	  .want = 0 },
	{ "order: extended registers before exclude bits", PMU_INIT,
	  { .sample_regs_user = PERF_REG_EXTENDED_MASK, .exclude_user = 1 },
	  .caps = PERF_PMU_CAP_NO_EXCLUDE,
	  .want = PERF_REG_EXTENDED_MASK ? -EOPNOTSUPP : -EINVAL },

	/* AUX area rules once the PMU is settled */
	{ "aux_output on a PMU without AUX output", PMU,
	  { .aux_output = 1 }, .want = -EOPNOTSUPP },
	{ "aux_output on a PMU with AUX output", PMU,
	  { .aux_output = 1 }, .caps = PERF_PMU_CAP_AUX_OUTPUT, .want = 0 },
	{ "aux_output with aux_pause", PMU,
	  { .aux_output = 1, .aux_pause = 1 },
	  .caps = PERF_PMU_CAP_AUX_OUTPUT | PERF_PMU_CAP_AUX_PAUSE,
	  .want = -EOPNOTSUPP },
	{ "aux_output with aux_resume", PMU,
	  { .aux_output = 1, .aux_resume = 1 },
	  .caps = PERF_PMU_CAP_AUX_OUTPUT | PERF_PMU_CAP_AUX_PAUSE,
	  .want = -EOPNOTSUPP },
	{ "aux_pause and aux_resume together", PMU,
	  { .aux_pause = 1, .aux_resume = 1 },
	  .caps = PERF_PMU_CAP_AUX_PAUSE, .want = -EINVAL },
	{ "aux_pause alone is left to the group checks", PMU,
	  { .aux_pause = 1 }, .want = 0 },
	{ "aux_start_paused on a PMU that cannot pause", PMU,
	  { .aux_start_paused = 1 }, .want = -EOPNOTSUPP },
	{ "aux_start_paused on a PMU that can pause", PMU,
	  { .aux_start_paused = 1 }, .caps = PERF_PMU_CAP_AUX_PAUSE,
	  .want = 0 },
	{ "order: aux_output before pause and resume", PMU,
	  { .aux_output = 1, .aux_pause = 1, .aux_resume = 1 },
	  .want = -EOPNOTSUPP },
	{ "order: pause and resume before start paused", PMU,
	  { .aux_pause = 1, .aux_resume = 1, .aux_start_paused = 1 },
	  .want = -EINVAL },

	/* once the event exists on its PMU */
	{ "sampling on a PMU without interrupts", BOUND,
	  { .sample_period = 1000 }, .caps = PERF_PMU_CAP_NO_INTERRUPT,
	  .want = -EOPNOTSUPP },
	{ "frequency sampling on a PMU without interrupts", BOUND,
	  { .freq = 1, .sample_freq = 10 }, .caps = PERF_PMU_CAP_NO_INTERRUPT,
	  .want = -EOPNOTSUPP },
	{ "counting on a PMU without interrupts", BOUND,
	  {}, .caps = PERF_PMU_CAP_NO_INTERRUPT, .want = 0 },
	{ "CLOCK_MONOTONIC on an NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_MONOTONIC }, .want = 0 },
	{ "CLOCK_MONOTONIC_RAW on an NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_MONOTONIC_RAW }, .want = 0 },
	{ "CLOCK_REALTIME on an NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_REALTIME }, .want = -EINVAL },
	{ "CLOCK_BOOTTIME on an NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_BOOTTIME }, .want = -EINVAL },
	{ "CLOCK_TAI on an NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_TAI }, .want = -EINVAL },
	{ "CLOCK_REALTIME on a non-NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_REALTIME },
	  .caps = PERF_PMU_CAP_NO_NMI, .want = 0 },
	{ "CLOCK_BOOTTIME on a non-NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_BOOTTIME },
	  .caps = PERF_PMU_CAP_NO_NMI, .want = 0 },
	{ "CLOCK_TAI on a non-NMI PMU", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_TAI },
	  .caps = PERF_PMU_CAP_NO_NMI, .want = 0 },
	{ "CLOCK_PROCESS_CPUTIME_ID is not offered", BOUND,
	  { .use_clockid = 1, .clockid = CLOCK_PROCESS_CPUTIME_ID },
	  .caps = PERF_PMU_CAP_NO_NMI, .want = -EINVAL },
	{ "unknown clock id", BOUND,
	  { .use_clockid = 1, .clockid = 12345 },
	  .caps = PERF_PMU_CAP_NO_NMI, .want = -EINVAL },
	{ "negative clock id", BOUND,
	  { .use_clockid = 1, .clockid = -1 },
	  .caps = PERF_PMU_CAP_NO_NMI, .want = -EINVAL },
	{ "clockid ignored without use_clockid", BOUND,
	  { .clockid = 12345 }, .want = 0 },
	{ "order: interrupts before the clock", BOUND,
	  { .sample_period = 1, .use_clockid = 1, .clockid = 12345 },
	  .caps = PERF_PMU_CAP_NO_INTERRUPT, .want = -EOPNOTSUPP },
};

KUNIT_ARRAY_PARAM_DESC(rule, rule_cases, name);

static void fake_sys_init(struct fake_sys *sys, const struct rule_case *c)
{
	*sys = (struct fake_sys) {
		.lim = {
			.max_sample_rate = FAKE_RATE,
			.max_stack	= FAKE_STACK,
			.user_stack_dump = !c->no_stack_dump,
			.cgroup_sample	= !c->no_cgroup,
			.regs_ok	= fake_regs_ok,
			.kernel_ok	= fake_kernel_ok,
			.perfmon_ok	= fake_perfmon_ok,
			.open_ok	= fake_open_ok,
			.lockdown_ok	= fake_lockdown_ok,
		},
		.kernel_err	= c->kernel_err,
		.open_err	= c->open_err,
		.lockdown_err	= c->lockdown_err,
		.perfmon	= !c->no_perfmon,
	};
}

static int run_stage(const struct rule_case *c, struct perf_event_attr *attr,
		     const struct perf_attr_limits *lim)
{
	switch (c->stage) {
	case VALIDATE:
		return perf_attr_validate(attr, lim);
	case FIELDS:
		return perf_attr_check_fields(attr, lim);
	case ALLOC:
		return perf_attr_check_alloc(attr);
	case PMU_INIT:
		return perf_attr_check_pmu_init(attr, c->caps);
	case PMU:
		return perf_attr_check_pmu(attr, c->caps);
	case BOUND:
		return perf_attr_check_bound(attr, c->caps);
	}
	return -ENOTTY;
}

static void attr_rule_test(struct kunit *test)
{
	const struct rule_case *c = test->param_value;
	struct perf_event_attr attr = c->attr;
	struct perf_event_attr rest;
	struct fake_sys sys;

	fake_sys_init(&sys, c);
	KUNIT_EXPECT_EQ(test, run_stage(c, &attr, &sys.lim), c->want);

	if (c->check_mut) {
		KUNIT_EXPECT_EQ(test, attr.branch_sample_type, c->want_branch);
		KUNIT_EXPECT_EQ(test, attr.sample_max_stack, c->want_max_stack);
	}
	/* Nothing else may change, whatever the outcome. */
	rest = attr;
	rest.branch_sample_type = c->attr.branch_sample_type;
	rest.sample_max_stack = c->attr.sample_max_stack;
	KUNIT_EXPECT_MEMEQ(test, &rest, &c->attr, sizeof(rest));
}

/* The open gate is optional: without one, everyone gets to the open rules. */
static void attr_no_open_gate_test(struct kunit *test)
{
	struct perf_event_attr attr = { .exclude_kernel = 1 };
	struct rule_case c = { .open_err = -EPERM };
	struct fake_sys sys;

	fake_sys_init(&sys, &c);
	sys.lim.open_ok = NULL;
	KUNIT_EXPECT_EQ(test, perf_attr_validate(&attr, &sys.lim), 0);
	attr.sample_period = BIT_ULL(63);
	KUNIT_EXPECT_EQ(test, perf_attr_validate(&attr, &sys.lim), -EINVAL);
}

/* The running kernel's limits mirror its sysctls and configuration. */
static void attr_live_limits_test(struct kunit *test)
{
	struct perf_attr_limits lim;

	perf_attr_limits_init(&lim);
	KUNIT_EXPECT_EQ(test, lim.max_sample_rate,
			(u64)READ_ONCE(sysctl_perf_event_sample_rate));
	KUNIT_EXPECT_EQ(test, lim.max_stack,
			(u32)READ_ONCE(sysctl_perf_event_max_stack));
	KUNIT_EXPECT_EQ(test, lim.user_stack_dump,
			IS_ENABLED(CONFIG_HAVE_PERF_USER_STACK_DUMP));
	KUNIT_EXPECT_EQ(test, lim.cgroup_sample, IS_ENABLED(CONFIG_CGROUP_PERF));
	KUNIT_EXPECT_NOT_NULL(test, lim.regs_ok);
	KUNIT_EXPECT_NOT_NULL(test, lim.kernel_ok);
	KUNIT_EXPECT_NOT_NULL(test, lim.perfmon_ok);
	KUNIT_EXPECT_NOT_NULL(test, lim.open_ok);
	KUNIT_EXPECT_NOT_NULL(test, lim.lockdown_ok);
	/* The real architectures refuse an empty register mask. */
	if (IS_ENABLED(CONFIG_HAVE_PERF_REGS))
		KUNIT_EXPECT_EQ(test, lim.regs_ok(&lim, 0), -EINVAL);
}

/* ---- size versioning through a kernel buffer ---------------------------- */

#define BUF_SIZE	(PAGE_SIZE + 64)

struct kbuf_src {
	struct perf_attr_source	src;
	int			read_err;
	int			tail_err;
};

static int kbuf_read(const struct perf_attr_source *src, void *dst,
		     size_t len)
{
	const struct kbuf_src *k = container_of(src, struct kbuf_src, src);

	if (k->read_err)
		return k->read_err;
	memcpy(dst, src->kernel, len);
	return 0;
}

static int kbuf_tail_is_zero(const struct perf_attr_source *src, size_t off,
			     size_t len)
{
	const struct kbuf_src *k = container_of(src, struct kbuf_src, src);

	if (k->tail_err)
		return k->tail_err;
	return !memchr_inv(src->kernel + off, 0, len);
}

/**
 * struct size_case - one declared size and what it should come to
 * @name: what is being shown
 * @usize: attr.size as declared
 * @dirty: offset of a non-zero byte in the buffer, or 0 for none; bytes
 *	before @usize are part of the attr, bytes after it are not
 * @read_err: the source fails to read the attr with this errno
 * @tail_err: the source fails to read the tail with this errno
 * @want: expected return value
 * @want_size: expected attr->size on success
 */
struct size_case {
	const char	*name;
	u32		usize;
	u32		dirty;
	int		read_err;
	int		tail_err;
	int		want;
	u32		want_size;
};

static const struct size_case size_cases[] = {
	{ "0 means VER0", 0, .want_size = PERF_ATTR_SIZE_VER0 },
	{ "1 is too small", 1, .want = -E2BIG },
	{ "32 is too small", 32, .want = -E2BIG },
	{ "VER0 - 1 is too small", PERF_ATTR_SIZE_VER0 - 1, .want = -E2BIG },
	{ "VER0", PERF_ATTR_SIZE_VER0, .want_size = PERF_ATTR_SIZE_VER0 },
	{ "VER1", PERF_ATTR_SIZE_VER1, .want_size = PERF_ATTR_SIZE_VER1 },
	{ "VER2", PERF_ATTR_SIZE_VER2, .want_size = PERF_ATTR_SIZE_VER2 },
	{ "VER3", PERF_ATTR_SIZE_VER3, .want_size = PERF_ATTR_SIZE_VER3 },
	{ "VER4", PERF_ATTR_SIZE_VER4, .want_size = PERF_ATTR_SIZE_VER4 },
	{ "VER5", PERF_ATTR_SIZE_VER5, .want_size = PERF_ATTR_SIZE_VER5 },
	{ "VER6", PERF_ATTR_SIZE_VER6, .want_size = PERF_ATTR_SIZE_VER6 },
	{ "VER7", PERF_ATTR_SIZE_VER7, .want_size = PERF_ATTR_SIZE_VER7 },
	{ "VER8", PERF_ATTR_SIZE_VER8, .want_size = PERF_ATTR_SIZE_VER8 },
	{ "between versions", PERF_ATTR_SIZE_VER0 + 4,
	  .want_size = PERF_ATTR_SIZE_VER0 + 4 },
	{ "ours", OUR_SIZE, .want_size = OUR_SIZE },
	{ "larger, zero tail", OUR_SIZE + 8, .want_size = OUR_SIZE + 8 },
	{ "larger, first tail byte set", OUR_SIZE + 8, .dirty = OUR_SIZE,
	  .want = -E2BIG },
	{ "larger, last tail byte set", OUR_SIZE + 8,
	  .dirty = OUR_SIZE + 7, .want = -E2BIG },
	{ "larger, byte past the declared size set", OUR_SIZE + 8,
	  .dirty = OUR_SIZE + 8, .want_size = OUR_SIZE + 8 },
	{ "a page, zero tail", PAGE_SIZE, .want_size = PAGE_SIZE },
	{ "a page, last byte set", PAGE_SIZE, .dirty = PAGE_SIZE - 1,
	  .want = -E2BIG },
	{ "a page and a byte", PAGE_SIZE + 1, .want = -E2BIG },
	{ "U32_MAX", U32_MAX, .want = -E2BIG },
	{ "unreadable attr", OUR_SIZE, .read_err = -EFAULT, .want = -EFAULT },
	{ "unreadable tail", OUR_SIZE + 8, .tail_err = -EFAULT,
	  .want = -EFAULT },
	{ "tail not read when not longer", OUR_SIZE, .tail_err = -EFAULT,
	  .want_size = OUR_SIZE },
	{ "too small refused before reading", 8, .read_err = -EFAULT,
	  .want = -E2BIG },
	{ "too large refused before reading the tail", PAGE_SIZE + 8,
	  .tail_err = -EFAULT, .want = -E2BIG },
	{ "tail checked before the attr is read", OUR_SIZE + 8,
	  .dirty = OUR_SIZE + 1, .read_err = -EFAULT, .want = -E2BIG },
};

KUNIT_ARRAY_PARAM_DESC(size, size_cases, name);

static void attr_size_test(struct kunit *test)
{
	const struct size_case *c = test->param_value;
	struct kbuf_src k = {
		.src = { .read = kbuf_read, .tail_is_zero = kbuf_tail_is_zero },
		.read_err = c->read_err,
		.tail_err = c->tail_err,
	};
	struct perf_event_attr attr, want;
	u8 *buf;
	int ret;

	buf = kunit_kzalloc(test, BUF_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* A recognisable attr; its own size field is not consulted. */
	memset(buf, 0xa5, min_t(size_t, OUR_SIZE, BUF_SIZE));
	if (c->dirty)
		buf[c->dirty] = 0x01;
	k.src.kernel = buf;

	memset(&attr, 0x5a, sizeof(attr));
	ret = perf_attr_load(&attr, c->usize, &k.src);
	KUNIT_ASSERT_EQ(test, ret, c->want);
	if (ret)
		return;

	/* The declared bytes are copied, the rest reads as zero. */
	memset(&want, 0, sizeof(want));
	memcpy(&want, buf, min_t(size_t, c->want_size, sizeof(want)));
	want.size = c->want_size;
	KUNIT_EXPECT_MEMEQ(test, &attr, &want, sizeof(want));
}

/* ---- perf_attr_copy() on user memory ------------------------------------ */

struct user_area {
	char __user	*base;
	size_t		len;
};

static void user_area_map(struct kunit *test, struct user_area *ua,
			  size_t pages)
{
	unsigned long addr;

	ua->len = pages * PAGE_SIZE;
	addr = kunit_vm_mmap(test, NULL, 0, ua->len, PROT_READ | PROT_WRITE,
			     MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (!addr || addr >= TASK_SIZE)
		kunit_skip(test, "no user memory for this test");
	ua->base = (char __user *)addr;
}

/* Put an attr of declared size @usize at @at, with @tail zero bytes after it. */
static struct perf_event_attr __user *
user_attr_put(struct kunit *test, char __user *at, u32 usize, size_t tail)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = usize,
		.config = 3,
		.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID,
		.exclude_kernel = 1,
		.config3 = 0x1234,
	};

	KUNIT_ASSERT_EQ(test, clear_user(at, sizeof(attr) + tail), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(at, &attr, sizeof(attr)), 0);
	return (struct perf_event_attr __user *)at;
}

static u32 user_size(struct kunit *test, struct perf_event_attr __user *u)
{
	u32 size = 0xdead;

	KUNIT_EXPECT_EQ(test, get_user(size, &u->size), 0);
	return size;
}

static void attr_copy_user_test(struct kunit *test)
{
	struct perf_event_attr __user *u;
	struct perf_event_attr attr;
	struct user_area ua;
	char one = 1;

	user_area_map(test, &ua, 2);

	/* Our own size: copied whole, the caller's size left alone. */
	u = user_attr_put(test, ua.base, OUR_SIZE, 0);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), 0);
	KUNIT_EXPECT_EQ(test, attr.size, OUR_SIZE);
	KUNIT_EXPECT_EQ(test, attr.type, (u32)PERF_TYPE_SOFTWARE);
	KUNIT_EXPECT_EQ(test, attr.config, 3ULL);
	KUNIT_EXPECT_EQ(test, attr.config3, 0x1234ULL);
	KUNIT_EXPECT_TRUE(test, attr.exclude_kernel);
	KUNIT_EXPECT_EQ(test, user_size(test, u), OUR_SIZE);

	/* Size 0: the first layout; fields after it read as zero. */
	u = user_attr_put(test, ua.base, 0, 0);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), 0);
	KUNIT_EXPECT_EQ(test, attr.size, (u32)PERF_ATTR_SIZE_VER0);
	KUNIT_EXPECT_EQ(test, attr.config, 3ULL);
	KUNIT_EXPECT_EQ(test, attr.config3, 0ULL);
	KUNIT_EXPECT_EQ(test, user_size(test, u), 0U);

	/* Too small: refused, and told our size. */
	u = user_attr_put(test, ua.base, PERF_ATTR_SIZE_VER0 - 1, 0);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), -E2BIG);
	KUNIT_EXPECT_EQ(test, user_size(test, u), OUR_SIZE);

	/* Larger with a zero tail: fine. */
	u = user_attr_put(test, ua.base, OUR_SIZE + 64, 64);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), 0);
	KUNIT_EXPECT_EQ(test, attr.size, OUR_SIZE + 64);
	KUNIT_EXPECT_EQ(test, user_size(test, u), OUR_SIZE + 64);

	/* Larger asking for something we do not know: refused, told. */
	KUNIT_ASSERT_EQ(test, copy_to_user(ua.base + OUR_SIZE + 63, &one, 1), 0);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), -E2BIG);
	KUNIT_EXPECT_EQ(test, user_size(test, u), OUR_SIZE);

	/* More than a page, even all zero: refused, told. */
	u = user_attr_put(test, ua.base, PAGE_SIZE + 8, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), -E2BIG);
	KUNIT_EXPECT_EQ(test, user_size(test, u), OUR_SIZE);

	/* A whole page with a zero tail is the largest accepted. */
	u = user_attr_put(test, ua.base, PAGE_SIZE, PAGE_SIZE - OUR_SIZE);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), 0);
	KUNIT_EXPECT_EQ(test, attr.size, (u32)PAGE_SIZE);
}

static void attr_copy_fault_test(struct kunit *test)
{
	struct perf_event_attr __user *u;
	struct perf_event_attr attr;
	struct user_area ua;
	char __user *edge;

	/* Two pages, the second taken away again: a hole after the first. */
	user_area_map(test, &ua, 2);
	KUNIT_ASSERT_EQ(test, vm_munmap((unsigned long)ua.base + PAGE_SIZE,
					PAGE_SIZE), 0);
	edge = ua.base + PAGE_SIZE;

	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, NULL), -EFAULT);

	/* The size field is readable, the rest of the attr is not. */
	KUNIT_ASSERT_EQ(test, clear_user(edge - 16, 16), 0);
	u = (struct perf_event_attr __user *)(edge - 16);
	KUNIT_ASSERT_EQ(test, put_user(OUR_SIZE, &u->size), 0);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), -EFAULT);
	KUNIT_EXPECT_EQ(test, user_size(test, u), OUR_SIZE);

	/* The attr is readable, the tail it declares is not: no write-back. */
	u = user_attr_put(test, edge - OUR_SIZE - 8, OUR_SIZE + 64, 8);
	KUNIT_EXPECT_EQ(test, perf_attr_copy(&attr, u), -EFAULT);
	KUNIT_EXPECT_EQ(test, user_size(test, u), OUR_SIZE + 64);
}

/*
 * The clock table that the open path, kernel counters and the event's
 * timestamps all use: each ABI clock reads through its own function,
 * only the monotonic ones are NMI-safe, anything else is no clock.  The
 * wall clocks' read functions are static inlines (one copy per file), so
 * those are told apart by being three different functions and, once the
 * wall clock has been set (x86 reads its RTC before KUnit runs; arm64
 * sets it later, from its RTC driver), by what they read: time since the
 * epoch (past 2001, 10^18 ns) or since boot.
 */
static void attr_clock_table_test(struct kunit *test)
{
	static const clockid_t unknown[] = {
		CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID,
		CLOCK_MONOTONIC_COARSE, 12345, -1,
	};
	const u64 epoch_2001 = 1000000000ULL * NSEC_PER_SEC;
	perf_clock_fn real, boot, tai;
	bool nmi_safe;
	unsigned int i;

	nmi_safe = false;
	KUNIT_EXPECT_PTR_EQ(test, perf_attr_clock(CLOCK_MONOTONIC, &nmi_safe),
			    (perf_clock_fn)ktime_get_mono_fast_ns);
	KUNIT_EXPECT_TRUE(test, nmi_safe);
	nmi_safe = false;
	KUNIT_EXPECT_PTR_EQ(test, perf_attr_clock(CLOCK_MONOTONIC_RAW, &nmi_safe),
			    (perf_clock_fn)ktime_get_raw_fast_ns);
	KUNIT_EXPECT_TRUE(test, nmi_safe);

	nmi_safe = true;
	real = perf_attr_clock(CLOCK_REALTIME, &nmi_safe);
	KUNIT_EXPECT_FALSE(test, nmi_safe);
	nmi_safe = true;
	boot = perf_attr_clock(CLOCK_BOOTTIME, &nmi_safe);
	KUNIT_EXPECT_FALSE(test, nmi_safe);
	nmi_safe = true;
	tai = perf_attr_clock(CLOCK_TAI, &nmi_safe);
	KUNIT_EXPECT_FALSE(test, nmi_safe);
	KUNIT_ASSERT_NOT_NULL(test, real);
	KUNIT_ASSERT_NOT_NULL(test, boot);
	KUNIT_ASSERT_NOT_NULL(test, tai);
	KUNIT_EXPECT_PTR_NE(test, real, tai);
	KUNIT_EXPECT_PTR_NE(test, real, boot);
	KUNIT_EXPECT_PTR_NE(test, boot, tai);
	if (ktime_get_real_ns() > epoch_2001) {
		KUNIT_EXPECT_GT(test, real(), epoch_2001);
		KUNIT_EXPECT_GT(test, tai(), epoch_2001);
		KUNIT_EXPECT_LT(test, boot(), epoch_2001);
	}
	/* Without the out parameter, the same answer. */
	KUNIT_EXPECT_PTR_EQ(test, perf_attr_clock(CLOCK_TAI, NULL), tai);

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		nmi_safe = true;
		KUNIT_EXPECT_NULL(test, perf_attr_clock(unknown[i], &nmi_safe));
		KUNIT_EXPECT_TRUE(test, nmi_safe);
	}
}

/*
 * The rate rule both perf_event_open(2) and PERF_EVENT_IOC_PERIOD call: a
 * frequency up to the limit, a period below 2^63.
 */
static void attr_rate_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perf_attr_check_rate(true, 1000, 1000), 0);
	KUNIT_EXPECT_EQ(test, perf_attr_check_rate(true, 1001, 1000), -EINVAL);
	KUNIT_EXPECT_EQ(test, perf_attr_check_rate(true, 0, 1000), 0);
	KUNIT_EXPECT_EQ(test, perf_attr_check_rate(false, 1001, 1000), 0);
	KUNIT_EXPECT_EQ(test, perf_attr_check_rate(false, BIT_ULL(63) - 1, 1), 0);
	KUNIT_EXPECT_EQ(test, perf_attr_check_rate(false, BIT_ULL(63), 1),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, perf_attr_check_rate(false, U64_MAX, 1), -EINVAL);
}

static struct kunit_case perfcore_attr_cases[] = {
	KUNIT_CASE(attr_clock_table_test),
	KUNIT_CASE(attr_rate_test),
	KUNIT_CASE_PARAM(attr_rule_test, rule_gen_params),
	KUNIT_CASE(attr_no_open_gate_test),
	KUNIT_CASE(attr_live_limits_test),
	KUNIT_CASE_PARAM(attr_size_test, size_gen_params),
	KUNIT_CASE(attr_copy_user_test),
	KUNIT_CASE(attr_copy_fault_test),
	{}
};

static struct kunit_suite perfcore_attr_suite = {
	.name = "perfcore_attr",
	.test_cases = perfcore_attr_cases,
};

kunit_test_suite(perfcore_attr_suite);

MODULE_DESCRIPTION("KUnit tests for perf_event_attr copy-in and validation");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
