// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: perf_event_attr copy-in and validation.
 *
 * attr.h explains how the rules are staged along the open path.  Within
 * a stage the rules run in a fixed order (the chains in the stage
 * functions below) and the first failure wins, with one exception kept
 * for ABI compatibility: a bad interrupt-register mask is reported only
 * if no later rule of its stage fails.  The chains are plain direct calls
 * so that the compiler inlines the rules: every perf_event_open(2) runs
 * all of them.
 *
 * Nothing here takes a lock; only the user copy and the privilege hooks
 * of the running kernel may sleep.
 */
#include <kunit/visibility.h>
#include <linux/align.h>
#include <linux/bits.h>
#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/security.h>
#include <linux/string.h>
#include <linux/time.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "attr.h"

/* Branch-record privilege levels that show more than the caller's own code. */
#define PA_BRANCH_PRIV_LEVELS	(PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)

/* ---- size versioning and the copy ------------------------------------- */

/**
 * perf_attr_load - bring in a caller's attr under the size rules
 * @attr: destination; always cleared first, valid only on success
 * @usize: the size the caller declared in its attr.size
 * @src: where the caller's bytes are
 *
 * Size 0 stands for %PERF_ATTR_SIZE_VER0, from before the field was used.
 * Anything shorter than that or longer than a page is refused.  A caller
 * built against a newer ABI may pass a struct longer than ours if every
 * byte we do not know is zero, i.e. it asks for nothing we cannot do; an
 * older caller's shorter struct reads as if the missing fields were zero.
 * On success attr->size holds the effective size (never 0).
 *
 * Return: 0; -E2BIG when the size is refused, in which case the caller
 * should be told ours (see perf_attr_copy()); or the source's errno when
 * its bytes cannot be read.
 */
int perf_attr_load(struct perf_event_attr *attr, u32 usize,
		   const struct perf_attr_source *src)
{
	const size_t ours = sizeof(*attr);
	int ret;

	memset(attr, 0, ours);

	if (usize == 0)
		usize = PERF_ATTR_SIZE_VER0;
	if (usize < PERF_ATTR_SIZE_VER0 || usize > PAGE_SIZE)
		return -E2BIG;

	if (usize > ours) {
		ret = src->tail_is_zero(src, ours, usize - ours);
		if (ret < 0)
			return ret;
		if (ret == 0)
			return -E2BIG;
	}

	ret = src->read(src, attr, min_t(size_t, usize, ours));
	if (ret)
		return ret;

	attr->size = usize;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_load);

static int pa_user_read(const struct perf_attr_source *src, void *dst,
			size_t len)
{
	return copy_from_user(dst, src->user, len) ? -EFAULT : 0;
}

static int pa_user_tail_is_zero(const struct perf_attr_source *src,
				size_t off, size_t len)
{
	return check_zeroed_user(src->user + off, len);
}

/**
 * perf_attr_copy - copy a perf_event_attr in from user space
 * @attr: kernel copy to fill in
 * @uattr: the caller's attr
 *
 * Applies the size rules of perf_attr_load() to user memory.  When the
 * size is refused, the size this kernel understands is written back to
 * @uattr->size so that the caller can retry with it; whether that write
 * succeeds does not change the result.  The fields are not checked here:
 * that is perf_attr_validate()'s job (or perf_attr_check_fields()' for
 * callers that modify an existing event's attr).
 *
 * Return: 0, -E2BIG (size refused), or -EFAULT.
 */
int perf_attr_copy(struct perf_event_attr *attr,
		   struct perf_event_attr __user *uattr)
{
	const struct perf_attr_source src = {
		.read		= pa_user_read,
		.tail_is_zero	= pa_user_tail_is_zero,
		.user		= uattr,
	};
	u32 usize;
	int ret;

	if (get_user(usize, &uattr->size))
		return -EFAULT;

	ret = perf_attr_load(attr, usize, &src);
	if (ret == -E2BIG)
		put_user((u32)sizeof(*attr), &uattr->size);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_copy);

/* ---- rules ------------------------------------------------------------ */

static bool pa_samples(const struct perf_event_attr *attr, u64 bits)
{
	return attr->sample_type & bits;
}

/* ---- stage: the attr's own consistency --------------------------------- */

/* Unused bits must stay zero so that a later ABI can give them meaning. */
static int pa_reserved_zero(struct perf_event_attr *attr,
			    const struct perf_attr_limits *lim)
{
	if (attr->__reserved_1 || attr->__reserved_2 || attr->__reserved_3)
		return -EINVAL;
	return 0;
}

/* The *_MAX values are single bits, so anything at or above is unknown. */
static int pa_known_sample_type(struct perf_event_attr *attr,
				const struct perf_attr_limits *lim)
{
	return attr->sample_type >= PERF_SAMPLE_MAX ? -EINVAL : 0;
}

static int pa_known_read_format(struct perf_event_attr *attr,
				const struct perf_attr_limits *lim)
{
	return attr->read_format >= PERF_FORMAT_MAX ? -EINVAL : 0;
}

/* The privilege levels an event counts at, as branch-filter bits. */
static u64 pa_counted_levels(const struct perf_event_attr *attr)
{
	u64 levels = 0;

	if (!attr->exclude_user)
		levels |= PERF_SAMPLE_BRANCH_USER;
	if (!attr->exclude_kernel)
		levels |= PERF_SAMPLE_BRANCH_KERNEL;
	if (!attr->exclude_hv)
		levels |= PERF_SAMPLE_BRANCH_HV;
	return levels;
}

static int pa_branch_filter(struct perf_event_attr *attr,
			    const struct perf_attr_limits *lim)
{
	u64 filter = attr->branch_sample_type;

	if (!pa_samples(attr, PERF_SAMPLE_BRANCH_STACK))
		return 0;
	if (filter >= PERF_SAMPLE_BRANCH_MAX)
		return -EINVAL;
	/* Privilege levels on their own select no branch at all. */
	if (!(filter & ~PERF_SAMPLE_BRANCH_PLM_ALL))
		return -EINVAL;

	/*
	 * No level named: record branches where the event counts.  The
	 * result is stored so that PMU drivers read one complete filter.
	 * The event's own exclude_kernel is judged when the open stage
	 * runs; the kernel level added here is judged now.
	 */
	if (!(filter & PERF_SAMPLE_BRANCH_PLM_ALL)) {
		filter |= pa_counted_levels(attr);
		attr->branch_sample_type = filter;
	}

	if (filter & PA_BRANCH_PRIV_LEVELS)
		return lim->kernel_ok(lim);
	return 0;
}

static int pa_user_regs(struct perf_event_attr *attr,
			const struct perf_attr_limits *lim)
{
	if (!pa_samples(attr, PERF_SAMPLE_REGS_USER))
		return 0;
	return lim->regs_ok(lim, attr->sample_regs_user);
}

static int pa_user_stack(struct perf_event_attr *attr,
			 const struct perf_attr_limits *lim)
{
	u32 bytes = attr->sample_stack_user;

	if (!pa_samples(attr, PERF_SAMPLE_STACK_USER))
		return 0;
	/* The errno is the ABI's, older than the rule against this use. */
	if (!lim->user_stack_dump)
		return -ENOSYS;
	/*
	 * The dump travels inside one sample record, whose size is 16 bits,
	 * and is copied in whole u64 words.
	 */
	if (bytes >= U16_MAX || !IS_ALIGNED(bytes, sizeof(u64)))
		return -EINVAL;
	return 0;
}

/*
 * 0 means "the system's limit", resolved now so that the event keeps the
 * value it was opened with.  The field is 16 bits wide; a larger sysctl
 * value is truncated exactly as the ABI always has.
 */
static int pa_default_max_stack(struct perf_event_attr *attr,
				const struct perf_attr_limits *lim)
{
	if (!attr->sample_max_stack)
		attr->sample_max_stack = (u16)lim->max_stack;
	return 0;
}

static int pa_intr_regs(struct perf_event_attr *attr,
			const struct perf_attr_limits *lim)
{
	if (!pa_samples(attr, PERF_SAMPLE_REGS_INTR))
		return 0;
	return lim->regs_ok(lim, attr->sample_regs_intr);
}

static int pa_cgroup_sample(struct perf_event_attr *attr,
			    const struct perf_attr_limits *lim)
{
	if (pa_samples(attr, PERF_SAMPLE_CGROUP) && !lim->cgroup_sample)
		return -EINVAL;
	return 0;
}

/* Both describe the same sample slot, in two layouts. */
static int pa_one_weight(struct perf_event_attr *attr,
			 const struct perf_attr_limits *lim)
{
	const u64 both = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;

	return (attr->sample_type & both) == both ? -EINVAL : 0;
}

/* inherit_thread narrows inherit; it means nothing without it. */
static int pa_inherit_thread(struct perf_event_attr *attr,
			     const struct perf_attr_limits *lim)
{
	return attr->inherit_thread && !attr->inherit ? -EINVAL : 0;
}

static int pa_exec_bits(struct perf_event_attr *attr,
			const struct perf_attr_limits *lim)
{
	/* The same exec cannot both enable the event and take it away. */
	if (attr->enable_on_exec && attr->remove_on_exec)
		return -EINVAL;
	/*
	 * A signal must not reach whatever program the task execs next,
	 * so synchronous signals require the event to go away on exec.
	 */
	if (attr->sigtrap && !attr->remove_on_exec)
		return -EINVAL;
	return 0;
}

/**
 * perf_attr_check_fields - rules an attr must satisfy on its own
 * @attr: a freshly copied attr; may be adjusted (see below)
 * @lim: system facts and privilege hooks
 *
 * Reserved bits, unknown sample and read formats, the branch filter, the
 * register masks, the user stack size, PERF_SAMPLE_CGROUP support and the
 * combinations of bits that contradict each other.  This is also what
 * modifying an existing event's attr has to pass.
 *
 * Adjusts @attr in two places, as the ABI defines: a branch filter that
 * names no privilege level gets the levels the event counts at, and a
 * zero sample_max_stack becomes @lim->max_stack.  Either may have
 * happened even when an error is returned.
 *
 * Return: 0 or a negative errno.
 */
int perf_attr_check_fields(struct perf_event_attr *attr,
			   const struct perf_attr_limits *lim)
{
	int ret, intr_regs;

	ret = pa_reserved_zero(attr, lim) ?:
	      pa_known_sample_type(attr, lim) ?:
	      pa_known_read_format(attr, lim) ?:
	      pa_branch_filter(attr, lim) ?:
	      pa_user_regs(attr, lim) ?:
	      pa_user_stack(attr, lim) ?:
	      pa_default_max_stack(attr, lim);
	if (ret)
		return ret;

	/* Reported only if none of the rules after it fails. */
	intr_regs = pa_intr_regs(attr, lim);
	return pa_cgroup_sample(attr, lim) ?:
	       pa_one_weight(attr, lim) ?:
	       pa_inherit_thread(attr, lim) ?:
	       pa_exec_bits(attr, lim) ?:
	       intr_regs;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_fields);

/* ---- stage: what the caller may ask for -------------------------------- */

static bool pa_sees_kernel(const struct perf_event_attr *attr)
{
	if (!attr->exclude_kernel || attr->text_poke)
		return true;
	return pa_samples(attr, PERF_SAMPLE_CALLCHAIN) &&
	       !attr->exclude_callchain_kernel;
}

static int pa_kernel_view(struct perf_event_attr *attr,
			  const struct perf_attr_limits *lim)
{
	return pa_sees_kernel(attr) ? lim->kernel_ok(lim) : 0;
}

static int pa_namespaces(struct perf_event_attr *attr,
			 const struct perf_attr_limits *lim)
{
	if (attr->namespaces && !lim->perfmon_ok(lim))
		return -EACCES;
	return 0;
}

/**
 * perf_attr_check_rate - may a sampling event sample this often?
 * @freq: @value is a frequency (attr.freq), else a period
 * @value: the frequency in Hz, or the period in events
 * @max_rate: the frequency limit (kernel.perf_event_max_sample_rate)
 *
 * The one rule for perf_event_open(2) and PERF_EVENT_IOC_PERIOD alike.
 *
 * Return: 0 or -EINVAL.
 */
int perf_attr_check_rate(bool freq, u64 value, u64 max_rate)
{
	if (freq)
		return value > max_rate ? -EINVAL : 0;
	/* Periods are handled as signed 64-bit counts downstream. */
	return value & BIT_ULL(63) ? -EINVAL : 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_rate);

static int pa_rate(struct perf_event_attr *attr,
		   const struct perf_attr_limits *lim)
{
	return perf_attr_check_rate(attr->freq, attr->freq ?
				    attr->sample_freq : attr->sample_period,
				    lim->max_sample_rate);
}

static int pa_phys_addr(struct perf_event_attr *attr,
			const struct perf_attr_limits *lim)
{
	if (!pa_samples(attr, PERF_SAMPLE_PHYS_ADDR))
		return 0;
	return lim->kernel_ok(lim);
}

/* Interrupted registers can hold kernel data: lockdown may forbid them. */
static int pa_intr_lockdown(struct perf_event_attr *attr,
			    const struct perf_attr_limits *lim)
{
	if (!pa_samples(attr, PERF_SAMPLE_REGS_INTR))
		return 0;
	return lim->lockdown_ok(lim);
}

/**
 * perf_attr_check_open - privilege and rate rules of perf_event_open(2)
 * @attr: an attr that passed perf_attr_check_fields(); not modified
 * @lim: system facts and privilege hooks
 *
 * Kernel visibility (counting the kernel, kernel callchains, text_poke
 * records, physical addresses), namespace records, the sample frequency
 * ceiling and the period's range, and lockdown of interrupt registers.
 *
 * Return: 0 or a negative errno.
 */
int perf_attr_check_open(struct perf_event_attr *attr,
			 const struct perf_attr_limits *lim)
{
	return pa_kernel_view(attr, lim) ?:
	       pa_namespaces(attr, lim) ?:
	       pa_rate(attr, lim) ?:
	       pa_phys_addr(attr, lim) ?:
	       pa_intr_lockdown(attr, lim);
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_open);

/**
 * perf_attr_validate - every check perf_event_open(2) makes of the attr
 *	alone
 * @attr: an attr from perf_attr_copy(); may be adjusted as described for
 *	perf_attr_check_fields()
 * @lim: system facts and privilege hooks
 *
 * perf_attr_check_fields(), then @lim->open_ok, then
 * perf_attr_check_open(): the order perf_event_open(2) reports them in,
 * ahead of anything that depends on pid, cpu, group_fd or flags.
 *
 * Return: 0 or the first failure's negative errno.
 */
int perf_attr_validate(struct perf_event_attr *attr,
		       const struct perf_attr_limits *lim)
{
	int ret = perf_attr_check_fields(attr, lim);

	if (ret)
		return ret;
	if (lim->open_ok) {
		ret = lim->open_ok(lim);
		if (ret)
			return ret;
	}
	return perf_attr_check_open(attr, lim);
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_validate);

/* ---- later stages: rules that wait for the target or the PMU ----------- */

/**
 * perf_attr_check_alloc - attr rules applied when the event is created
 * @attr: the attr the event is being created from
 *
 * Runs after the target task, cpu and group leader are known and before
 * a PMU is looked up.  A sampled read of an inherited counter is only
 * meaningful per thread, so it needs PERF_SAMPLE_TID.  A branch filter
 * without PERF_SAMPLE_BRANCH_STACK is cleared so that no PMU driver acts
 * on a stale one.
 *
 * Return: 0 or -EINVAL.
 */
int perf_attr_check_alloc(struct perf_event_attr *attr)
{
	if (attr->inherit && pa_samples(attr, PERF_SAMPLE_READ) &&
	    !pa_samples(attr, PERF_SAMPLE_TID))
		return -EINVAL;

	if (!pa_samples(attr, PERF_SAMPLE_BRANCH_STACK))
		attr->branch_sample_type = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_alloc);

static bool pa_excludes_any(const struct perf_event_attr *attr)
{
	return attr->exclude_user || attr->exclude_kernel ||
	       attr->exclude_hv || attr->exclude_idle ||
	       attr->exclude_host || attr->exclude_guest;
}

/**
 * perf_attr_check_pmu_init - attr rules against a PMU that accepted it
 * @attr: the event's attr
 * @pmu_caps: the PMU's PERF_PMU_CAP_* bits
 *
 * Runs right after the PMU's event_init() succeeded; a failure rejects
 * the event outright rather than trying another PMU.  Extended register
 * sets need a PMU that can sample them; a PMU that cannot filter by
 * privilege level takes no exclude_* bit.
 *
 * Return: 0, -EOPNOTSUPP or -EINVAL.
 */
int perf_attr_check_pmu_init(const struct perf_event_attr *attr,
			     unsigned int pmu_caps)
{
	u64 regs = attr->sample_regs_user | attr->sample_regs_intr;

	if ((regs & PERF_REG_EXTENDED_MASK) &&
	    !(pmu_caps & PERF_PMU_CAP_EXTENDED_REGS))
		return -EOPNOTSUPP;
	if ((pmu_caps & PERF_PMU_CAP_NO_EXCLUDE) && pa_excludes_any(attr))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_pmu_init);

/**
 * perf_attr_check_pmu - AUX area rules once the event's PMU is settled
 * @attr: the event's attr
 * @pmu_caps: the PMU's PERF_PMU_CAP_* bits
 *
 * Runs after the PMU is chosen and a per-task or cgroup event has been
 * checked against a PMU without task contexts.  aux_output needs a PMU
 * that can emit AUX records for it and excludes pausing; pausing and
 * resuming on the same overflow contradict each other; starting paused
 * needs a PMU that can pause.
 *
 * Return: 0, -EOPNOTSUPP or -EINVAL.
 */
int perf_attr_check_pmu(const struct perf_event_attr *attr,
			unsigned int pmu_caps)
{
	if (attr->aux_output &&
	    (!(pmu_caps & PERF_PMU_CAP_AUX_OUTPUT) ||
	     attr->aux_pause || attr->aux_resume))
		return -EOPNOTSUPP;
	if (attr->aux_pause && attr->aux_resume)
		return -EINVAL;
	if (attr->aux_start_paused && !(pmu_caps & PERF_PMU_CAP_AUX_PAUSE))
		return -EOPNOTSUPP;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_pmu);

/*
 * The clocks attr.clockid may name, the one list: the open path checks
 * against it, kernel counters too, and an event reads its timestamps
 * through the function it gives.  Time fields of records are read in
 * whatever context the PMU raises them in, so a clock that cannot be
 * read from NMI is only for PMUs that never deliver from one.
 */
static const struct {
	clockid_t	id;
	perf_clock_fn	read;
	bool		nmi_safe;
} pa_clocks[] = {
	{ CLOCK_MONOTONIC,	ktime_get_mono_fast_ns,	true },
	{ CLOCK_MONOTONIC_RAW,	ktime_get_raw_fast_ns,	true },
	{ CLOCK_REALTIME,	ktime_get_real_ns,	false },
	{ CLOCK_BOOTTIME,	ktime_get_boottime_ns,	false },
	{ CLOCK_TAI,		ktime_get_clocktai_ns,	false },
};

/**
 * perf_attr_clock - the clock an attr.clockid names
 * @id: the clock id
 * @nmi_safe: if not NULL, set to whether the clock can be read from NMI
 *
 * Return: the clock's read function, or NULL for an id the ABI does not
 * offer.
 */
perf_clock_fn perf_attr_clock(clockid_t id, bool *nmi_safe)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pa_clocks); i++) {
		if (pa_clocks[i].id != id)
			continue;
		if (nmi_safe)
			*nmi_safe = pa_clocks[i].nmi_safe;
		return pa_clocks[i].read;
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_clock);

static int pa_clock_usable(clockid_t id, unsigned int pmu_caps)
{
	bool nmi_safe;

	if (!perf_attr_clock(id, &nmi_safe))
		return -EINVAL;
	if (!nmi_safe && !(pmu_caps & PERF_PMU_CAP_NO_NMI))
		return -EINVAL;
	return 0;
}

/**
 * perf_attr_check_bound - attr rules once the event exists on its PMU
 * @attr: the event's attr
 * @pmu_caps: the PERF_PMU_CAP_* bits of the PMU the event ended up on
 *
 * Runs after the event is allocated and before the target context is
 * looked up.  A sampling event needs a PMU that raises overflow
 * interrupts.  With use_clockid, the clock must be one the ABI offers and
 * one that can be read where the PMU delivers its records.
 *
 * Return: 0, -EOPNOTSUPP or -EINVAL.
 */
int perf_attr_check_bound(const struct perf_event_attr *attr,
			  unsigned int pmu_caps)
{
	if (attr->sample_period && (pmu_caps & PERF_PMU_CAP_NO_INTERRUPT))
		return -EOPNOTSUPP;
	if (attr->use_clockid)
		return pa_clock_usable(attr->clockid, pmu_caps);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_check_bound);

/* ---- the running kernel's facts ----------------------------------------- */

static int pa_sys_regs_ok(const struct perf_attr_limits *lim, u64 mask)
{
	return perf_reg_validate(mask);
}

static int pa_sys_kernel_ok(const struct perf_attr_limits *lim)
{
	return perf_allow_kernel();
}

static bool pa_sys_perfmon_ok(const struct perf_attr_limits *lim)
{
	return perfmon_capable();
}

static int pa_sys_open_ok(const struct perf_attr_limits *lim)
{
	if (perf_paranoid_any() && !capable(CAP_SYS_ADMIN))
		return -EACCES;
	return security_perf_event_open(PERF_SECURITY_OPEN);
}

static int pa_sys_lockdown_ok(const struct perf_attr_limits *lim)
{
	return security_locked_down(LOCKDOWN_PERF);
}

/**
 * perf_attr_limits_init - describe the running kernel and caller
 * @lim: filled in
 *
 * Takes a snapshot of the sysctl values; the privilege hooks ask the
 * capability and LSM layers when a rule needs them.
 */
void perf_attr_limits_init(struct perf_attr_limits *lim)
{
	*lim = (struct perf_attr_limits) {
		.max_sample_rate = READ_ONCE(sysctl_perf_event_sample_rate),
		.max_stack	= READ_ONCE(sysctl_perf_event_max_stack),
		.user_stack_dump = IS_ENABLED(CONFIG_HAVE_PERF_USER_STACK_DUMP),
		.cgroup_sample	= IS_ENABLED(CONFIG_CGROUP_PERF),
		.regs_ok	= pa_sys_regs_ok,
		.kernel_ok	= pa_sys_kernel_ok,
		.perfmon_ok	= pa_sys_perfmon_ok,
		.open_ok	= pa_sys_open_ok,
		.lockdown_ok	= pa_sys_lockdown_ok,
	};
}
EXPORT_SYMBOL_IF_KUNIT(perf_attr_limits_init);
