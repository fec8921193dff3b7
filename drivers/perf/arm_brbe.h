/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: the Branch Record Buffer Extension as the PMUv3 driver sees
 * it (arm_brbe.c has the why and how).
 */
#ifndef DRIVERS_PERF_ARM_BRBE_H
#define DRIVERS_PERF_ARM_BRBE_H

#include <linux/errno.h>
#include <linux/types.h>

struct perf_branch_stack;
struct perf_event;
struct pmu_hw_events;

/**
 * struct brbe_raw - one branch record as the registers hold it
 * @inf: BRBINF<n>_EL1
 * @src: BRBSRC<n>_EL1
 * @tgt: BRBTGT<n>_EL1
 */
struct brbe_raw {
	u64	inf;
	u64	src;
	u64	tgt;
};

/**
 * struct brbe_hw_ops - arm_brbe.c's only access to BRBE's registers
 * @program: write BRBCR_EL1 (and, at EL2, BRBCR_EL12 without the EL
 *	enables), then BRBFCR_EL1: recording starts as the filters say
 * @pause: BRBFCR_EL1.PAUSED and BRBCR_EL1 all clear: nothing records
 * @invalidate: BRB IALL, synchronised before and after
 * @select: write BRBFCR_EL1 (a bank for the record registers) and
 *	synchronise, while paused
 * @record: read record @n of the selected bank into @raw; false (and
 *	only @raw->inf read) for an invalid one
 */
struct brbe_hw_ops {
	void	(*program)(u64 cr, u64 fcr);
	void	(*pause)(void);
	void	(*invalidate)(void);
	void	(*select)(u64 fcr);
	bool	(*record)(int n, struct brbe_raw *raw);
};

extern const struct brbe_hw_ops brbe_native_hw;

#ifdef CONFIG_ARM64
int brbe_probe_cpu(void);
int brbe_event_init(struct perf_event *event);
void brbe_enable(const struct brbe_hw_ops *hw, struct pmu_hw_events *cpuc);
void brbe_disable(const struct brbe_hw_ops *hw);
void brbe_read(const struct brbe_hw_ops *hw, struct perf_event *event,
	       int records, struct perf_branch_stack *stack);
#else
static inline int brbe_probe_cpu(void)
{
	return 0;
}

static inline int brbe_event_init(struct perf_event *event)
{
	return -EOPNOTSUPP;
}

static inline void brbe_enable(const struct brbe_hw_ops *hw,
			       struct pmu_hw_events *cpuc) { }
static inline void brbe_disable(const struct brbe_hw_ops *hw) { }
static inline void brbe_read(const struct brbe_hw_ops *hw,
			     struct perf_event *event, int records,
			     struct perf_branch_stack *stack) { }
#endif

#endif /* DRIVERS_PERF_ARM_BRBE_H */
