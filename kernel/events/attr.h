/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: bringing a perf_event_attr in from user space and deciding
 * whether perf_event_open(2) may go on with it.
 *
 * The checks are split by the point of the open path at which the ABI
 * reports them, because a caller that gets two things wrong at once sees
 * the errno of whichever is checked first:
 *
 *   perf_attr_copy()          size versioning and the user copy
 *   perf_attr_validate()      the attr on its own, before pid, cpu,
 *                             group_fd or the flags argument mean anything
 *   perf_attr_check_alloc()   once the target task and group are known,
 *                             before a PMU is looked up
 *   perf_attr_check_pmu_init() just after a PMU's event_init() took it
 *   perf_attr_check_pmu()     once the PMU is settled
 *   perf_attr_check_bound()   after the event is fully allocated
 *
 * perf_attr_validate() does not look at the system itself: sysctl values,
 * architecture facts and the caller's privileges come in through
 * struct perf_attr_limits, so every rule can be exercised by KUnit.
 */
#ifndef _KERNEL_EVENTS_ATTR_H
#define _KERNEL_EVENTS_ATTR_H

#include <linux/compiler_types.h>
#include <linux/types.h>

struct perf_event_attr;

/**
 * struct perf_attr_source - where the bytes of a caller's attr live
 * @read: copy the first @len bytes of the source to @dst; 0 or -errno
 * @tail_is_zero: 1 if the @len bytes at offset @off are all zero, 0 if
 *	one is not, -errno if they cannot be read
 * @user: the attr in user memory, for the user-space source
 * @kernel: the attr in kernel memory, for other sources (KUnit)
 *
 * perf_attr_copy() uses a user-memory source; the indirection lets the
 * same size rules run on a kernel buffer.
 */
struct perf_attr_source {
	int (*read)(const struct perf_attr_source *src, void *dst, size_t len);
	int (*tail_is_zero)(const struct perf_attr_source *src, size_t off,
			    size_t len);
	union {
		const void __user *user;
		const void *kernel;
	};
};

/**
 * struct perf_attr_limits - what the attr rules need to know about the
 *	system and the caller
 * @max_sample_rate: kernel.perf_event_max_sample_rate: the highest
 *	sample_freq a frequency event may ask for
 * @max_stack: kernel.perf_event_max_stack: what sample_max_stack means
 *	when the caller leaves it 0
 * @user_stack_dump: the architecture can copy user stacks into samples
 * @cgroup_sample: PERF_SAMPLE_CGROUP is available (CONFIG_CGROUP_PERF)
 * @regs_ok: architecture hook: 0 if @mask names only registers that can
 *	be sampled here, else the errno to report
 * @kernel_ok: 0 if the caller may observe kernel state (branch records
 *	from the kernel or hypervisor, kernel counts and callchains,
 *	physical addresses), else the errno to report
 * @perfmon_ok: whether the caller has CAP_PERFMON (or CAP_SYS_ADMIN)
 * @open_ok: the gate perf_event_open(2) passes between the attr's own
 *	consistency rules and the privilege rules (paranoia level 3, the
 *	LSM open hook): 0 or the errno to report; NULL lets everyone in
 * @lockdown_ok: 0 unless kernel lockdown forbids sampling interrupted
 *	registers, else the errno to report
 *
 * The hooks are called only when an attr needs the answer, and at most
 * once per rule, because the real ones can log, audit or mark the task
 * as having used a privilege.  perf_attr_limits_init() fills in the
 * values and hooks of the running kernel.
 */
struct perf_attr_limits {
	u64	max_sample_rate;
	u32	max_stack;
	bool	user_stack_dump;
	bool	cgroup_sample;
	int	(*regs_ok)(const struct perf_attr_limits *lim, u64 mask);
	int	(*kernel_ok)(const struct perf_attr_limits *lim);
	bool	(*perfmon_ok)(const struct perf_attr_limits *lim);
	int	(*open_ok)(const struct perf_attr_limits *lim);
	int	(*lockdown_ok)(const struct perf_attr_limits *lim);
};

/* A timestamp source: nanoseconds of one clock (attr.clockid). */
typedef u64 (*perf_clock_fn)(void);

perf_clock_fn perf_attr_clock(clockid_t id, bool *nmi_safe);
int perf_attr_check_rate(bool freq, u64 value, u64 max_rate);
int perf_attr_copy(struct perf_event_attr *attr,
		   struct perf_event_attr __user *uattr);
int perf_attr_load(struct perf_event_attr *attr, u32 usize,
		   const struct perf_attr_source *src);
void perf_attr_limits_init(struct perf_attr_limits *lim);
int perf_attr_check_fields(struct perf_event_attr *attr,
			   const struct perf_attr_limits *lim);
int perf_attr_check_open(struct perf_event_attr *attr,
			 const struct perf_attr_limits *lim);
int perf_attr_validate(struct perf_event_attr *attr,
		       const struct perf_attr_limits *lim);
int perf_attr_check_alloc(struct perf_event_attr *attr);
int perf_attr_check_pmu_init(const struct perf_event_attr *attr,
			     unsigned int pmu_caps);
int perf_attr_check_pmu(const struct perf_event_attr *attr,
			unsigned int pmu_caps);
int perf_attr_check_bound(const struct perf_event_attr *attr,
			  unsigned int pmu_caps);

#endif /* _KERNEL_EVENTS_ATTR_H */
