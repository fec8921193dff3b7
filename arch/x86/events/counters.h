/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: the x86 core counter framework, shared by its files and the
 * Intel and AMD drivers.  counters.c says which file does what.
 *
 * Counters are numbered as the rest of the kernel numbers them (KVM,
 * <asm/perf_event.h>): general-purpose counter i is index i, Intel's
 * fixed counter i is index INTEL_PMC_IDX_FIXED + i.  A mask of counters
 * is a u64 with one bit per index.
 */
#ifndef ARCH_X86_EVENTS_COUNTERS_H
#define ARCH_X86_EVENTS_COUNTERS_H

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/perf/counter_share.h>
#include <linux/types.h>

#include <asm/perf_event.h>

#include "perf_event.h"		/* struct event_constraint, perf_assign_events() */

#define X86C_GP_MASK		GENMASK_ULL(INTEL_PMC_IDX_FIXED - 1, 0)
#define X86C_MAX_GP		10	/* general-purpose counters we drive */
#define X86C_MAX_FIXED		7	/* fixed counters we drive */
#define X86C_MAX_EVENTS		(X86C_MAX_GP + X86C_MAX_FIXED + INTEL_TD_METRIC_NUM)
#define X86C_MAX_EXTRA		8	/* extra-register entries of a family */
#define X86C_MAX_NAMED		32	/* named events of a family */
#define X86C_MAX_PMUS		2	/* core PMUs: a hybrid part's two kinds */

/* A hybrid Intel part's core types, CPUID 1AH EAX[31:24] */
#define X86C_INTEL_ATOM		0x20
#define X86C_INTEL_CORE		0x40

static inline bool x86c_is_fixed(int idx)
{
	return idx >= INTEL_PMC_IDX_FIXED && idx < INTEL_PMC_IDX_METRIC_BASE;
}

/*
 * Intel's topdown metrics (intel/topdown.c) are placed on indexes of
 * their own, one per metric, above the fixed counters: they take no
 * counter, only their share of the slots fixed counter 3 counts.
 */
#define X86C_METRIC_MASK						\
	GENMASK_ULL(INTEL_PMC_IDX_METRIC_BASE + INTEL_TD_METRIC_NUM - 1, \
		    INTEL_PMC_IDX_METRIC_BASE)

static inline bool x86c_is_metric(int idx)
{
	return idx >= INTEL_PMC_IDX_METRIC_BASE;
}

/**
 * struct x86c_hw_ops - the framework's only access to the hardware
 * @read_msr: read a model-specific register
 * @read_msr_safe: read one that may not exist: 0, or -EIO when the CPU
 *	or a hypervisor refused (a #GP caught, *@val untouched)
 * @write_msr: write one
 * @write_msr_safe: write one the CPU or a hypervisor may refuse: 0, or
 *	-EIO when it did (a #GP caught, nothing written)
 * @read_pmc: read a counter with RDPMC, @ecx as the instruction takes it
 * @unmask_pmi: unmask the local APIC's LVTPC, which masks itself when it
 *	delivers the PMI
 *
 * The native table uses the instructions and the APIC; a KUnit model
 * supplies a register file of its own, so that the drivers' logic runs
 * unchanged against it.
 */
struct x86c_hw_ops {
	u64	(*read_msr)(u32 msr);
	int	(*read_msr_safe)(u32 msr, u64 *val);
	void	(*write_msr)(u32 msr, u64 val);
	int	(*write_msr_safe)(u32 msr, u64 val);
	u64	(*read_pmc)(u32 ecx);
	void	(*unmask_pmi)(void);
};

extern const struct x86c_hw_ops x86c_native_hw;

struct x86c_pmu;
struct x86c_cpu;

/**
 * struct x86c_vendor - what differs between Intel and AMD
 * @name: for the boot log
 * @global_ctrl: one register switches every counter on and off (Intel
 *	v2 and later, AMD PerfMonV2); without it enable_all and
 *	disable_all are x86c_program_each()
 * @late_nmi: the PMI may come after the handler already dealt with its
 *	overflow (AMD): an NMI nobody claims shortly after one of ours is
 *	taken as such a late one
 * @precise: an event asking for precise_ip, which the counters cannot
 *	give (optional): hand it to another PMU (rewrite attr.type and
 *	answer -ENOENT) or refuse it; without it, -EOPNOTSUPP
 * @hw_config: vendor checks and bits of a new event's control value
 *	(hwc->config already has INT, USR, OS and the event code); 0 or
 *	a negative errno
 * @program: load a counter's control with the counter enabled; without
 *	a global control, nothing while the CPU's counters are disabled
 *	(enable_all writes it then)
 * @unprogram: clear a counter's control
 * @enable_all: let the programmed counters count (end of a pmu_disable)
 * @disable_all: stop every counter at once as far as the vendor can
 * @overflowed: the overflow status: the counters whose overflow is
 *	pending, and whatever other bits the hardware sets there
 * @ack: clear the overflow state of @mask
 * @cpu_starting: reset a CPU's counters as it comes up (optional)
 * @pmi_sample: add vendor data to a PMI's sample (optional; LBR's
 *	branch stack, PEBS records)
 * @sched_task: a task switch on a CPU where an event asked for it with
 *	perf_sched_cb_inc() (optional; LBR call stacks, PEBS buffers)
 * @topdown_update: fold what a topdown event (PERF_X86_EVENT_TOPDOWN:
 *	Intel's slots leader of a metrics group, or a metric) counted,
 *	for every topdown event of this CPU at once (needed with
 *	@pmu.nr_metrics); returns the slots read
 * @topdown_start: start counting a topdown event's slots afresh
 * @kind_counters: size a hybrid PMU whose @shape_pending is set from
 *	what the CPU it runs on (the first of that kind to come up) says
 *	of its own counters: @num_gp and the fixed events (optional)
 *
 * Every callback runs with interrupts off on the CPU whose counters it
 * touches, and reaches the hardware only through @p->hw (@kind_counters
 * reads CPUID, as a probe does).
 */
struct x86c_vendor {
	const char	*name;
	bool		global_ctrl;
	bool		late_nmi;
	int	(*precise)(struct x86c_pmu *p, struct perf_event *event);
	int	(*hw_config)(struct x86c_pmu *p, struct perf_event *event);
	void	(*program)(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx,
			   u64 config);
	void	(*unprogram)(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx);
	void	(*enable_all)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*disable_all)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	u64	(*overflowed)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*ack)(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 mask);
	void	(*cpu_starting)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*pmi_sample)(struct x86c_pmu *p, struct perf_event *event,
			      struct perf_sample_data *data);
	void	(*sched_task)(struct x86c_pmu *p,
			      struct perf_event_pmu_context *pmu_ctx,
			      struct task_struct *task, bool sched_in);
	u64	(*topdown_update)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*topdown_start)(struct x86c_pmu *p, struct perf_event *event);
	void	(*kind_counters)(struct x86c_pmu *p);
};

/**
 * struct x86c_extra_reg - an MSR some events take a selection from
 * @code: the event select and unit mask of those events
 * @msr: the register, loaded with the event's selection (config1)
 * @valid: the bits of a selection the register has; others are -EINVAL
 * @alt: the entry whose register such an event may take instead, with
 *	that entry's code, while this one holds another value; -1 for none
 */
struct x86c_extra_reg {
	u64	code;
	u32	msr;
	u64	valid;
	int	alt;
};

/**
 * struct x86c_extra_state - who holds the extra registers (extra.c)
 * @value: the selection each holds, by the slot of its first entry
 * @users: events with it, 0 when free
 */
struct x86c_extra_state {
	u64	value[X86C_MAX_EXTRA];
	u8	users[X86C_MAX_EXTRA];
};

/**
 * struct x86c_period_limit - the shortest sampling period a code takes
 * @code: the event select and unit mask it applies to
 * @mask: the bits of the control compared with @code: 0 for every event
 * @min: the shortest period the hardware takes for them (errata: a
 *	shorter one loses the interrupt, or two expire in one NMI)
 * @align: a power of two the period is rounded down to, or 0
 *
 * A table ends with an entry without @min; the first match applies.
 */
struct x86c_period_limit {
	u64	code;
	u64	mask;
	u32	min;
	u32	align;
};

/**
 * struct x86c_ht_core - one core's counters as its two threads use them
 * @lock: serializes placement on the two threads; innermost, taken with
 *	interrupts off inside either CPU's context lock
 * @used: per thread, the general-purpose counters its placed events use
 * @excl: per thread, those of them its exclusive events use, which the
 *	other thread may not use at all
 *
 * Only where an exclusive event (PERF_X86_EVENT_EXCL) exists and the
 * CPUs have Hyper-Threading (x86c_pmu.ht_excl); see ht_excl.c.
 */
struct x86c_ht_core {
	raw_spinlock_t		lock;
	u64			used[2];
	u64			excl[2];
};

/*
 * Branch records (branches.c for the framework's part, intel/lbr.c for
 * Intel's last branch records).  A request (attr.branch_sample_type) is
 * put two ways: what the hardware is asked to record, in the
 * vendor-neutral X86C_LBR_* terms below that the driver encodes into
 * its register, and which kinds of branch a sample keeps (X86C_BR_*),
 * for what the hardware cannot tell apart.
 */
#define X86C_LBR_MAX		64	/* records we read at most */

/* What the hardware records: its type filters, privilege, call stack */
#define X86C_LBR_JCC		BIT(0)	/* conditional branches */
#define X86C_LBR_REL_JMP	BIT(1)	/* near relative jumps */
#define X86C_LBR_IND_JMP	BIT(2)	/* near indirect jumps */
#define X86C_LBR_REL_CALL	BIT(3)	/* near relative calls */
#define X86C_LBR_IND_CALL	BIT(4)	/* near indirect calls */
#define X86C_LBR_RET		BIT(5)	/* near returns */
#define X86C_LBR_OTHER		BIT(6)	/* far transfers, interrupts, ... */
#define X86C_LBR_TYPES		GENMASK(6, 0)
#define X86C_LBR_USER		BIT(7)	/* branches landing in ring > 0 */
#define X86C_LBR_KERNEL		BIT(8)	/* branches landing in ring 0 */
#define X86C_LBR_CALL_STACK	BIT(9)	/* returns pop their call */

/* The kinds of branch a sample may keep */
#define X86C_BR_JCC		BIT(0)	/* jcc, loop, jcxz */
#define X86C_BR_JMP		BIT(1)	/* direct jump, near or far */
#define X86C_BR_IND_JMP		BIT(2)
#define X86C_BR_CALL		BIT(3)	/* direct call, near or far */
#define X86C_BR_IND_CALL	BIT(4)
#define X86C_BR_RET		BIT(5)	/* near or far return */
#define X86C_BR_SYSCALL		BIT(6)	/* syscall, sysenter */
#define X86C_BR_SYSRET		BIT(7)	/* sysret, sysexit */
#define X86C_BR_INT		BIT(8)	/* int n, int3, into */
#define X86C_BR_IRET		BIT(9)
#define X86C_BR_IRQ		BIT(10)	/* an interrupt or an exception */
#define X86C_BR_ABORT		BIT(11)	/* a transaction's abort */
#define X86C_BR_KINDS		GENMASK(11, 0)
/* ... and the other terms of a request */
#define X86C_BR_USER		BIT(16)	/* from and to user space */
#define X86C_BR_KERNEL		BIT(17)	/* from or to the kernel */
#define X86C_BR_IN_TX		BIT(18)	/* inside a transaction */
#define X86C_BR_NO_TX		BIT(19)	/* outside one */
#define X86C_BR_TYPE_SAVE	BIT(20)	/* say each record's type */

/**
 * struct x86c_br_stack - a branch stack with room for its records
 * @stack: what a sample carries
 * @e: its records, youngest first
 */
struct x86c_br_stack {
	struct perf_branch_stack	stack;
	struct perf_branch_entry	e[X86C_LBR_MAX];
};

/**
 * struct x86c_br_save - a task's call stack, saved as it left a CPU
 * @nr: how many records
 * @from: their sources, youngest first
 * @to: their destinations
 * @info: their LBR_INFO
 * @switches: the task's context switches when it was saved
 * @fresh: saved at the task's last switch out and not restored since
 *
 * One per call-stack event of a task (perf_event.pmu_private).
 */
struct x86c_br_save {
	int		nr;
	u64		from[X86C_LBR_MAX];
	u64		to[X86C_LBR_MAX];
	u64		info[X86C_LBR_MAX];
	unsigned long	switches;
	bool		fresh;
};

/**
 * struct x86c_br_cpu - one CPU's branch records (branches.c)
 * @users: events on this CPU's counters that record branches
 * @config: the filter they share, as the driver encodes it; events
 *	that want another wait their turn
 * @call_stack: that filter is call-stack mode
 * @owner: the task whose branches the records hold (they are kept
 *	while recording stops, and wiped before another task's events
 *	may read them)
 * @owner_start: its start time, so that a new task at a freed task's
 *	address is not taken for it
 * @owner_config: the filter they were recorded with
 * @snap_valid: @snap holds the records as they are now: recording
 *	stopped since they were read
 * @snap: the records as the hardware has them
 * @kind: each record's X86C_BR_* kind, 0 where not yet known
 * @out: one event's sample, filtered from @snap
 *
 * Part of struct x86c_cpu: its CPU's, touched with interrupts off.
 */
struct x86c_br_cpu {
	int			users;
	u64			config;
	bool			call_stack;
	const struct task_struct *owner;
	u64			owner_start;
	u64			owner_config;
	bool			snap_valid;
	struct x86c_br_stack	snap;
	u16			kind[X86C_LBR_MAX];
	struct x86c_br_stack	out;
};

struct debug_store;

/**
 * struct x86c_bts_cpu - one CPU's branch trace store (intel/bts.c)
 * @event: the event that traces on this CPU, which takes no counter,
 *	or NULL: bts.c's branch-instructions event or an intel_bts
 *	one (intel/bts_aux.c: x86c_is_bts_aux())
 * @handle: an intel_bts event's AUX handle, open while it traces
 *
 * Part of struct x86c_cpu: its CPU's, touched with interrupts off.
 */
struct x86c_bts_cpu {
	struct perf_event		*event;
	struct perf_output_handle	handle;
};

/**
 * struct x86c_pebs_cpu - one CPU's precise sampling (intel/pebs.c)
 * @enabled: the counters IA32_PEBS_ENABLE has on, a bit each
 * @data_cfg: what IA32_PEBS_DATA_CFG holds
 * @draining: a drain is under way (an event it stops drains no more)
 *
 * Part of struct x86c_cpu: its CPU's, touched with interrupts off.
 */
struct x86c_pebs_cpu {
	u64			enabled;
	u64			data_cfg;
	bool			draining;
};

/**
 * struct x86c_cpu - one CPU's counters
 * @disabled: between pmu_disable and pmu_enable: nothing counts
 * @moved: some event's counter in @assign is not yet programmed: the
 *	next pmu_enable programs it
 * @txn: an add transaction is open
 * @nr: events on this CPU's counters or on their way, in @events
 * @placed: how many of the first @events have a counter in @assign
 *	(all but those of an open transaction)
 * @events: the events, in the order they were added
 * @constraint: the counters each may use
 * @assign: the counter each gets
 * @owner: the event programmed on each counter, or NULL
 * @owned: the counters that have an owner
 * @running: counters that are programmed and started
 * @fixed_ctrl: Intel: IA32_FIXED_CTR_CTRL as the programmed counters
 *	want it
 * @fixed_ctrl_hw: Intel: IA32_FIXED_CTR_CTRL as last written (while
 *	@disabled, @fixed_ctrl waits for the enable)
 * @used_ever: counters that held an event since their counts were last
 *	cleared for a task allowed RDPMC
 * @nmi_window_end: jiffies until which an NMI nobody claims is taken as
 *	a late PMI of ours (AMD)
 * @guest_msr: Intel: what perf_guest_get_msrs() returns
 * @rtm_force_abort: Intel: MSR_TSX_FORCE_ABORT as last written: the
 *	microcode's TSX workaround has left general counter 3 to us
 * @virt_mask: control bits stripped before programming on this CPU:
 *	&x86c_pmu.virt_mask while virtualization is off here, 0 while KVM
 *	has it on (x86c_set_virt_mask())
 * @extra: the extra registers the events in @events hold
 * @ht: where the core's threads share out their counters (ht_excl.c),
 *	the core's state; NULL elsewhere
 * @ht_thread: this CPU's index in @ht
 * @ht_constraint: scratch of x86c_ht_place(): each event's constraint
 *	beside the other thread, @constraint or an entry of @ht_narrowed
 * @ht_narrowed: scratch of x86c_ht_place(): the narrowed copies
 * @share: the events that read a counter of @events' (share.c), which
 *	are in no other field
 * @br: the branch records, where the PMU has them (branches.c)
 * @bts: the branch trace store, where the CPU has it (intel/bts.c)
 * @pebs: precise sampling, where the CPU has it (intel/pebs.c)
 * @ds: this CPU's debug store, where the CPU has BTS or PEBS
 *	(intel/ds.c)
 *
 * Only its CPU touches it, with interrupts off (the PMI included).
 */
struct x86c_cpu {
	bool			disabled;
	bool			moved;
	bool			txn;
	int			nr;
	int			placed;
	struct perf_event	*events[X86C_MAX_EVENTS];
	struct event_constraint	*constraint[X86C_MAX_EVENTS];
	int			assign[X86C_MAX_EVENTS];
	struct perf_event	*owner[X86_PMC_IDX_MAX];
	u64			owned;
	u64			running;
	u64			fixed_ctrl;
	u64			fixed_ctrl_hw;
	u64			used_ever;
	unsigned long		nmi_window_end;
	struct perf_guest_switch_msr guest_msr;
	bool			rtm_force_abort;
	u64			virt_mask;
	struct x86c_extra_state	extra;
	struct x86c_ht_core	*ht;
	u8			ht_thread;
	struct event_constraint	*ht_constraint[X86C_MAX_EVENTS];
	struct event_constraint	ht_narrowed[X86C_MAX_EVENTS];
	struct perf_share_riders share;
	struct x86c_br_cpu	br;
	struct x86c_bts_cpu	bts;
	struct x86c_pebs_cpu	pebs;
	struct debug_store	*ds;
};

/**
 * struct x86c_cache_event - what counts one generic cache event
 * @id: cache | operation << 8 | result << 16, as attr.config has them
 * @code: the event select and unit mask that count it
 * @config1: the selection of its extra register, if its code has one
 * @then: in the entry that ends a table (no @code), another table the
 *	lookup goes on with, or NULL
 */
struct x86c_cache_event {
	u32				id;
	u64				code;
	u64				config1;
	const struct x86c_cache_event	*then;
};

/* Pasted here, not passed on: READ and WRITE are macros of their own. */
#define X86C_CACHE(cache, op, result, c) {				\
	.id = PERF_COUNT_HW_CACHE_##cache |				\
	      PERF_COUNT_HW_CACHE_OP_##op << 8 |			\
	      PERF_COUNT_HW_CACHE_RESULT_##result << 16,		\
	.code = (c),							\
}

/* One counted through an extra register, with selection @x. */
#define X86C_CACHE_EXTRA(cache, op, result, c, x) {			\
	.id = PERF_COUNT_HW_CACHE_##cache |				\
	      PERF_COUNT_HW_CACHE_OP_##op << 8 |			\
	      PERF_COUNT_HW_CACHE_RESULT_##result << 16,		\
	.code = (c),							\
	.config1 = (x),							\
}

/*
 * One result of a pair that exists but that the CPU cannot count, which
 * is invalid (-EINVAL) rather than absent (-ENOENT): an entry with this
 * code.
 */
#define X86C_CACHE_REFUSED_CODE	(~0ULL)
#define X86C_CACHE_NO_RESULT(cache, op, result) {			\
	.id = PERF_COUNT_HW_CACHE_##cache |				\
	      PERF_COUNT_HW_CACHE_OP_##op << 8 |			\
	      PERF_COUNT_HW_CACHE_RESULT_##result << 16,		\
	.code = X86C_CACHE_REFUSED_CODE,				\
}

#define X86C_CACHE_END	{ .code = 0 }
/* The end of a table that differs from @other in the entries above. */
#define X86C_CACHE_END_THEN(other)	{ .code = 0, .then = (other) }
/* A bit of x86c_pmu.cache_refused. */
#define X86C_CACHE_NO(cache, op)					\
	BIT(PERF_COUNT_HW_CACHE_##cache * PERF_COUNT_HW_CACHE_OP_MAX +	\
	    PERF_COUNT_HW_CACHE_OP_##op)

/**
 * struct x86c_lbr_ops - a driver's branch records
 * @encode: the register value that records what the X86C_LBR_* bits
 *	@want ask for (the hardware has them all: x86c_lbr.can)
 * @enable: record with @cpu->br.config, as the PMU is enabled
 * @disable: stop recording; the records stay
 * @wipe: clear the records, recording stopped
 * @read: the records into @cpu->br.snap (nr, hw_idx, from, to, flags,
 *	cycles) and @cpu->br.kind (what the hardware says of each one's
 *	type, else 0), youngest first, recording stopped
 * @save: the records as they are, youngest first, to the first empty
 * @restore: records @save took back into wiped ones, recording stopped
 *
 * Called with interrupts off on the CPU whose records they touch,
 * reaching the hardware through x86c_pmu.hw only.
 */
struct x86c_lbr_ops {
	u64	(*encode)(struct x86c_pmu *p, u32 want);
	void	(*enable)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*disable)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*wipe)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*read)(struct x86c_pmu *p, struct x86c_cpu *cpu);
	void	(*save)(struct x86c_pmu *p, struct x86c_br_save *s);
	void	(*restore)(struct x86c_pmu *p, const struct x86c_br_save *s);
};

/**
 * struct x86c_lbr - a core PMU's branch records, as the probe found them
 * @ops: the driver's, NULL without records
 * @nr: how many records there are (the depth in use)
 * @can: the X86C_LBR_* filters the hardware has
 * @arch: Intel: Architectural LBR (CPUID leaf 1CH), records 0 youngest;
 *	else the ring of records that MSR_LBR_TOS points into
 * @from: MSR of record 0's source address
 * @to: of its destination
 * @info: of its LBR_INFO, 0 where the records have none
 * @has_cycles: LBR_INFO counts cycles
 * @has_mispred: LBR_INFO says whether the branch was mispredicted
 * @has_types: Architectural LBR's LBR_INFO says the branch's type
 * @frozen_status: the overflow-status bit that says a PMI froze the
 *	records (Intel's LBR_FRZ, perfmon version 4 on), 0 where none does
 */
struct x86c_lbr {
	const struct x86c_lbr_ops	*ops;
	int				nr;
	u32				can;
	bool				arch;
	u32				from;
	u32				to;
	u32				info;
	bool				has_cycles;
	bool				has_mispred;
	bool				has_types;
	u64				frozen_status;
};

/**
 * struct x86c_pmu - a core counter PMU: what the driver found at probe
 * @pmu: registered as @name; the boot CPU's as PERF_TYPE_RAW
 * @name: "cpu", or on a hybrid part "cpu_core" and "cpu_atom", one PMU
 *	per kind of core
 * @core_type: the kind of core a hybrid part's PMU counts on (CPUID 1AH
 *	EAX[31:24], X86C_INTEL_*), 0 on a part of one kind
 * @supported: a hybrid PMU's CPUs, those of @core_type online (read by
 *	pmu.filter and event_init, written by CPU bring-up and teardown)
 * @vendor: the vendor's callbacks
 * @hw: hardware access
 * @cpus: per-CPU counter state
 * @version: Intel architectural perfmon version (0 on AMD)
 * @num_gp: general-purpose counters
 * @num_fixed: fixed counters
 * @width: counter width in bits (general and fixed alike)
 * @cntval_mask: the bits a counter has
 * @max_period: the largest count a counter is loaded with
 * @all_mask: every counter index we drive
 * @gp_ctl: MSR of general-purpose counter 0's control
 * @gp_ctr: MSR of its count
 * @gp_stride: MSR distance from one counter to the next
 * @fixed_ctr: MSR of fixed counter 0's count (Intel)
 * @raw_mask: the bits of a raw config that reach the hardware
 * @event_map: PERF_COUNT_HW_* to event code, 0 where not counted
 * @events_mask: Intel: CPUID.0AH EBX, architectural events absent
 * @events_mask_len: and how many of its bits are defined
 * @cache_events: the generic cache events counted here, ended by one
 *	with no code, or NULL for none
 * @cache_refused: (cache, operation) pairs that do not exist, such as a
 *	write to the instruction cache, bit cache * OP_MAX + operation:
 *	those configs are invalid, not merely absent
 * @extra_regs: the extra registers (extra.c), or NULL
 * @nr_extra: how many
 * @extra_absent: the entries whose register the CPU lacks, bit per entry
 * @table: family constraints, ended by one with no cmask, or NULL
 * @period_limits: the family's shortest sampling periods, or NULL
 * @fixed: constraints of the events a fixed counter can take
 * @nr_fixed_events: how many of @fixed
 * @any_gp: the constraint of an event without one
 * @withheld: general-purpose counters no event may take now (written
 *	by x86c_withhold(), read locklessly by x86c_constraint())
 * @narrowed: the copies of @table's rows, then @fixed, then @any_gp,
 *	without @withheld, which x86c_constraint() returns for those that
 *	name a withheld counter; NULL until a counter is first withheld
 * @tsx_force_abort: Intel: the microcode's TSX workaround uses general
 *	counter 3 unless MSR_TSX_FORCE_ABORT gives it back (Skylake
 *	client microcode of 2019 on, without RTM_ALWAYS_ABORT)
 * @ht_excl: the threads of a core share out their counters: the table
 *	has exclusive events and SMT is possible (ht_excl.c)
 * @perf_capabilities: Intel: IA32_PERF_CAPABILITIES
 * @pmi_freezes: the hardware clears the global control when it raises a
 *	PMI (Intel's legacy freeze on PMI, which the driver turns on)
 * @pmi_stuck_said: an overflow status that did not clear was reported
 * @pmi_others_said: status bits of no counter were reported
 * @virt_mask: AMD: control bits stripped on a CPU while virtualization
 *	is off there (HostOnly, which would stop the counter); 0 on Intel
 * @format: the format/ attribute group of the vendor
 * @format_any: Intel: format/any is shown (AnyThread)
 * @vendor_group: the vendor's own files in the PMU's directory, or NULL
 * @family_name: caps/pmu_name, or NULL for none
 * @named_events: events/ files beside the generic events, ended by one
 *	without a name, or NULL
 * @tsx_events: Intel: the family's transactional events where the CPU
 *	has RTM, else NULL: with them, format/in_tx and format/in_tx_cp
 *	are shown too
 * @in_tx: Intel: events take IN_TX and IN_TX_CHECKPOINTED (config bits
 *	32 and 33, where the family has them and the CPU RTM or HLE); an
 *	event with the second counts on general-purpose counter 2 alone
 * @fixed_present: the fixed counters there are, a bit each
 * @perf_metrics: Intel: IA32_PERF_METRICS is there (its capability bit,
 *	or a hybrid part's P-core); its events are listed in events/
 * @nr_metrics: Intel: the topdown metrics IA32_PERF_METRICS reports, 0
 *	without it or without fixed counter 3 (the slots they share out)
 * @metric: the constraint of each metric event: its own index
 * @shape_pending: a hybrid PMU whose counters only a CPU of its kind can
 *	tell (CPUID leaf 23H): until the first such CPU comes up and
 *	x86c_cpu_starting() sizes it, its counts are the ones CPUID 0AH
 *	gives every kind and @table's rows are not narrowed.  Written
 *	once, on that CPU at bring-up, before any event can be scheduled
 *	on the PMU; event_init may read the sizes meanwhile (a group
 *	checked against the smaller counts)
 * @lbr: the branch records, @lbr.nr 0 without
 * @status_extra: overflow-status bits beside the counters' that a
 *	feature of the vendor's sets and the handler acknowledges with
 *	theirs (Intel's LBR_FRZ)
 * @bts_period: Intel: a period of 1 on branch instructions asks for the
 *	branch trace store, whether the CPU has one or not (intel/bts.c)
 * @bts: the CPU has it
 * @pebs: Intel: the CPU samples precisely (intel/pebs.c)
 * @pebs_format: its PEBS records': 4 (with the adaptive groups) or 3
 *	(Skylake's fixed record)
 * @max_precise: the highest precise_ip an event may ask for (caps/)
 * @pebs_cycles_alias: Intel: core cycles sample precisely as
 *	instructions retired counted with an inverted threshold (a part
 *	of no family, or a family whose precise events @pebs_table places)
 * @pebs_table: the counters of the precise events of some codes, as the
 *	family's @pebs_constraints, ended by X86C_CONSTRAINT_END; NULL
 *	where precise events are placed as others
 * @pebs_any: format 3: the counters of every other precise event
 * @pebs_pdist: where precise_ip 3 samples at format 4 (enum x86c_pdist)
 * @pebs_pdist_floor: precise_ip 3 takes X86C_PDIST_MIN_PERIOD at least
 * @pebs_mem: the family's precise memory events, as its
 *	&x86c_intel_family.pebs_mem, or NULL
 * @pebs_dse: how its records give a load's data source, or NULL
 * @pebs_pmem: the memory beyond the L3 that a record's data source
 *	names is persistent memory (a server part), not an L4 cache
 * @pebs_loads_aux: load latency's data source needs MEM_LOADS_AUX in
 *	the group (intel/pebs_mem.c)
 * @mem_events: Intel: the family's memory events, shown where @pebs
 */
struct x86c_pmu {
	struct pmu			pmu;
	const char			*name;
	u8				core_type;
	cpumask_t			supported;
	const struct x86c_vendor	*vendor;
	const struct x86c_hw_ops	*hw;
	struct x86c_cpu __percpu	*cpus;
	int				version;
	int				num_gp;
	int				num_fixed;
	int				width;
	u64				cntval_mask;
	u64				max_period;
	u64				all_mask;
	u32				gp_ctl;
	u32				gp_ctr;
	u32				gp_stride;
	u32				fixed_ctr;
	u64				raw_mask;
	u64				event_map[PERF_COUNT_HW_MAX];
	unsigned int			events_mask;
	int				events_mask_len;
	const struct x86c_cache_event	*cache_events;
	u32				cache_refused;
	const struct x86c_extra_reg	*extra_regs;
	int				nr_extra;
	u8				extra_absent;
	const struct x86c_period_limit	*period_limits;
	struct event_constraint		*table;
	struct event_constraint		fixed[X86C_MAX_FIXED];
	int				nr_fixed_events;
	struct event_constraint		any_gp;
	u64				withheld;
	struct event_constraint		*narrowed;
	bool				tsx_force_abort;
	bool				ht_excl;
	u64				perf_capabilities;
	bool				pmi_freezes;
	bool				pmi_stuck_said;
	bool				pmi_others_said;
	u64				virt_mask;
	const struct attribute_group	*format;
	bool				format_any;
	const struct attribute_group	*vendor_group;
	const char			*family_name;
	const struct x86c_named_event	*named_events;
	const struct x86c_named_event	*tsx_events;
	bool				in_tx;
	u64				fixed_present;
	bool				perf_metrics;
	int				nr_metrics;
	struct event_constraint		metric[INTEL_TD_METRIC_NUM];
	bool				shape_pending;
	struct x86c_lbr			lbr;
	u64				status_extra;
	bool				bts_period;
	bool				bts;
	bool				pebs;
	u8				pebs_format;
	int				max_precise;
	bool				pebs_cycles_alias;
	struct event_constraint		*pebs_table;
	struct event_constraint		pebs_any;
	u8				pebs_pdist;
	bool				pebs_pdist_floor;
	const struct x86c_pebs_mem_row	*pebs_mem;
	const struct x86c_pebs_dse	*pebs_dse;
	bool				pebs_pmem;
	bool				pebs_loads_aux;
	const struct x86c_named_event	*mem_events;
};

/*
 * Constraint tables: an event matches when its config, under the mask,
 * equals the code.  Event-select only, or event select and unit mask.
 */
#define X86C_CONSTRAINT(c, m, counters) {				\
	.idxmsk64 = (counters),						\
	.code = (c),							\
	.cmask = (m),							\
	.weight = __builtin_popcountll(counters),			\
}

#define X86C_EVENT_CONSTRAINT(c, counters)				\
	X86C_CONSTRAINT(c, ARCH_PERFMON_EVENTSEL_EVENT, counters)
#define X86C_UEVENT_CONSTRAINT(c, counters)				\
	X86C_CONSTRAINT(c, ARCH_PERFMON_EVENTSEL_EVENT |		\
			   ARCH_PERFMON_EVENTSEL_UMASK, counters)
/* Codes @first to @first + @span under the mask, all alike. */
#define X86C_RANGE_CONSTRAINT(first, span, m, counters) {		\
	.idxmsk64 = (counters),						\
	.code = (first),						\
	.size = (span),							\
	.cmask = (m),							\
	.weight = __builtin_popcountll(counters),			\
}

/* Event codes @first to @first + @span (event select alone), all alike. */
#define X86C_EVENT_RANGE(first, span, counters)				\
	X86C_RANGE_CONSTRAINT(first, span, ARCH_PERFMON_EVENTSEL_EVENT, counters)
/*
 * What an event's config must equal a fixed counter's code in to take
 * it: every bit that changes what is counted, since the fixed counter
 * has none of them (edge, invert, threshold, Intel's transactional
 * filters).
 */
#define X86C_FIXED_CMASK	(X86_RAW_EVENT_MASK | HSW_IN_TX |	\
				 HSW_IN_TX_CHECKPOINTED)
/*
 * A code fixed counter @n counts as well as the general-purpose
 * counters; where the CPU lacks that fixed counter, they are left.
 */
#define X86C_FIXED_CONSTRAINT(c, n)					\
	X86C_CONSTRAINT(c, X86C_FIXED_CMASK,				\
			BIT_ULL(INTEL_PMC_IDX_FIXED + (n)) |		\
			GENMASK_ULL(X86C_MAX_GP - 1, 0))
/*
 * A pseudo-code (event select 0) of fixed counter @n alone: where the
 * CPU lacks it, the event has no counter and is refused.
 */
#define X86C_FIXED_ONLY_CONSTRAINT(c, n)				\
	X86C_CONSTRAINT(c, X86C_FIXED_CMASK,				\
			BIT_ULL(INTEL_PMC_IDX_FIXED + (n)))
/*
 * The counters of topdown metric @i's pseudo-code (intel/topdown.c):
 * none where the CPU has no IA32_PERF_METRICS, and the event is refused.
 */
#define X86C_METRIC_COUNTER(i)	BIT_ULL(INTEL_PMC_IDX_METRIC_BASE + (i))
#define X86C_CONSTRAINT_END	{ .cmask = 0 }

/**
 * struct x86c_named_event - an events/ file of a family: perf's name for
 *	an event that is no generic one
 * @name: the file
 * @value: its content, an event string or a scale
 * @value_smt: what it says instead where a core runs more than one
 *	thread (the event then counts both threads), or NULL for the same
 * @needs_metrics: shown only where the PMU has IA32_PERF_METRICS (fixed
 *	counter 3's slots and the register's categories)
 * @then: in a table's end (no @name), the table that follows, or NULL
 *
 * A family's list may end in another's: what Sapphire Rapids shows is
 * its own event, then Golden Cove's topdown events, then Ice Lake's.
 */
struct x86c_named_event {
	const char				*name;
	const char				*value;
	const char				*value_smt;
	bool					needs_metrics;
	const struct x86c_named_event		*then;
};

#define X86C_NAMED_END			{ }
/* The end of a table whose events @other's follow. */
#define X86C_NAMED_END_THEN(other)	{ .then = (other) }

/* @e, or where its table's end leads if it is one; NULL at the end. */
static inline const struct x86c_named_event *
x86c_named_skip_ends(const struct x86c_named_event *e)
{
	while (e && !e->name)
		e = e->then;
	return e;
}

/* Every named event of the list @first starts, chained tables included. */
#define x86c_for_each_named(e, first)					\
	for (e = x86c_named_skip_ends(first); e;			\
	     e = x86c_named_skip_ends(e + 1))

/**
 * struct x86c_intel_family - what one Intel core family adds to the
 *	architectural events
 * @name: caps/pmu_name
 * @models: family 6 model numbers, ended by 0
 * @event_map: PERF_COUNT_HW_* codes; 0 keeps the architectural one
 * @event_fallback: codes for the generic events whose architectural
 *	event CPUID says is absent (an erratum), 0 for none
 * @constraints: counter constraints, ended by X86C_CONSTRAINT_END
 * @cache_events: the generic cache events, ended by X86C_CACHE_END, or
 *	NULL for none
 * @cache_refused: the (cache, operation) pairs that do not exist
 * @extra_regs: the extra registers, or NULL
 * @nr_extra: how many
 * @named_events: its events/ files beside the generic events, ended by
 *	one without a name, or NULL
 * @tsx_events: its transactional events (events/ where the CPU has
 *	RTM), ended by one without a name, or NULL for none: the family's
 *	cores take the IN_TX and IN_TX_CHECKPOINTED bits then
 * @nr_metrics: the topdown metrics of IA32_PERF_METRICS, where
 *	IA32_PERF_CAPABILITIES says it is there
 * @period_limits: the shortest sampling periods, ended by an entry
 *	without a minimum, or NULL for none
 * @core_more_gp: a hybrid family's P-cores' general-purpose counters
 *	beyond those CPUID 0AH gives both kinds
 * @core_more_fixed: and their fixed counters beyond, a bit each
 * @tsx_force_abort: its microcode may take general counter 3 for TSX
 *	(x86c_pmu.tsx_force_abort), where CPUID says MSR_TSX_FORCE_ABORT
 * @lbr_info_nr: its last branch records in the LBR_INFO format
 *	(Skylake's, PERF_CAPABILITIES' format 5): how many; 0 where we
 *	drive none (intel/lbr.c: Architectural LBR needs no family)
 * @pebs_constraints: the counters precise events of some codes may use,
 *	ended by X86C_CONSTRAINT_END; NULL where we drive no PEBS on the
 *	family's records (format 3) or leave its precise events where
 *	the others go (format 4)
 * @pebs_counters: format 3: the counters every other precise event may
 *	use; at format 4 those take their usual counters
 * @pebs_prec_dist: format 3: INST_RETIRED.PREC_DIST distributes its
 *	samples precisely: precise_ip 3, at which core cycles sample as it
 * @pebs_pdist: format 4: the counters of precise_ip 3 (enum x86c_pdist),
 *	which there is where not X86C_PDIST_NONE
 * @pebs_pdist_floor: format 4: precise_ip 3 needs a period of
 *	X86C_PDIST_MIN_PERIOD at least
 * @pebs_mem: its precise memory events, whose records say what the
 *	access was, ended by X86C_PEBS_MEM_END or _THEN; NULL for none
 * @pebs_dse: how its records give a load's data source (intel/pebs_mem.c)
 * @pebs_pmem_models: its models whose memory beyond the L3 is persistent
 *	memory (servers), ended by 0, or NULL
 * @pebs_loads_aux: a load-latency event that samples the data source
 *	needs the MEM_LOADS_AUX event (0x8203) in its group, as its leader
 *	or a sibling (its records are otherwise incomplete)
 * @mem_events: its memory events (events/ where its PEBS is driven,
 *	as upstream shows them with PEBS), ended by one without a name,
 *	or NULL
 * @atom: a hybrid family's E-cores, whose PMU has these tables (the
 *	fields above being the P-cores'), or NULL
 *
 * One table per family in intel/families.c; a CPU of no family there
 * gets the architectural events alone, as CPUID 0AH describes them.
 */
struct x86c_intel_family {
	const char			*name;
	const u8			*models;
	u64				event_map[PERF_COUNT_HW_MAX];
	u64				event_fallback[PERF_COUNT_HW_MAX];
	struct event_constraint		*constraints;
	const struct x86c_cache_event	*cache_events;
	u32				cache_refused;
	const struct x86c_extra_reg	*extra_regs;
	int				nr_extra;
	const struct x86c_named_event	*named_events;
	const struct x86c_named_event	*tsx_events;
	int				nr_metrics;
	const struct x86c_period_limit	*period_limits;
	u8				core_more_gp;
	u64				core_more_fixed;
	bool				tsx_force_abort;
	u8				lbr_info_nr;
	struct event_constraint		*pebs_constraints;
	u64				pebs_counters;
	bool				pebs_prec_dist;
	u8				pebs_pdist;
	bool				pebs_pdist_floor;
	const struct x86c_pebs_mem_row	*pebs_mem;
	const struct x86c_pebs_dse	*pebs_dse;
	const u8			*pebs_pmem_models;
	bool				pebs_loads_aux;
	const struct x86c_named_event	*mem_events;
	const struct x86c_intel_family	*atom;
};

/**
 * enum x86c_pdist - where a format 4 family samples precise_ip 3
 * @X86C_PDIST_NONE: as precise_ip 2
 * @X86C_PDIST_FIXED0: instructions retired (code 0x00c0) on fixed
 *	counter 0, which has the least skid; the rest as precise_ip 2 (Ice
 *	Lake)
 * @X86C_PDIST_COUNTER0: that, and every other event on general-purpose
 *	counter 0, the one with the precise distribution (PDist), or
 *	nowhere where its code may not use that counter (Golden Cove)
 * @X86C_PDIST_COUNTER0_LATENCY: as COUNTER0; and instructions retired
 *	sampled with their retire latency (PERF_SAMPLE_WEIGHT_TYPE) never
 *	on fixed counter 0, which does not record it: counters 1-7 at
 *	precise_ip 1 and 2, nowhere at 3 (Redwood Cove, Lion Cove)
 * @X86C_PDIST_EITHER0: instructions retired on fixed counter 0 or
 *	general-purpose counter 0, every other event on counter 0 (Tremont,
 *	Gracemont)
 * @X86C_PDIST_COUNTERS01: instructions retired on fixed counter 0 or
 *	general-purpose counter 0 or 1, every other event on those of
 *	counters 0 and 1 its code may use, or nowhere (Crestmont, Skymont)
 *
 * Where a family's pebs_pdist_floor says so, a period of
 * X86C_PDIST_MIN_PERIOD at least at precise_ip 3 (Tremont has none).
 */
enum x86c_pdist {
	X86C_PDIST_NONE,
	X86C_PDIST_FIXED0,
	X86C_PDIST_COUNTER0,
	X86C_PDIST_COUNTER0_LATENCY,
	X86C_PDIST_EITHER0,
	X86C_PDIST_COUNTERS01,
};

#define X86C_PDIST_MIN_PERIOD	128

extern const struct x86c_intel_family *const x86c_intel_families[];

/*
 * The PMU the kernel registered as PERF_TYPE_RAW (counters.c), the boot
 * CPU's; NULL without counters.  On a hybrid part the other kind of
 * core has a PMU of its own: what concerns one CPU's counters asks
 * x86c_here().
 */
extern struct x86c_pmu *x86c_host;
DECLARE_PER_CPU(struct x86c_pmu *, x86c_here_pmu);

/*
 * IA32_PERF_GLOBAL_CTRL as the enabled PMU has it: every counter's bit
 * (each counter's own control decides), and Intel's EN_PERF_METRICS
 * where the topdown metrics exist.
 */
static inline u64 x86c_global_enable(const struct x86c_pmu *p)
{
	if (p->nr_metrics)
		return p->all_mask | BIT_ULL(GLOBAL_CTRL_EN_PERF_METRICS);
	return p->all_mask;
}

/*
 * The topdown metric an event's control value asks for (event select 0,
 * unit mask 0x80 + n, n below @p's metrics), or -1 for another event.
 */
static inline int x86c_metric_of(const struct x86c_pmu *p, u64 config)
{
	int n;

	if (!p->nr_metrics || (config & ARCH_PERFMON_EVENTSEL_EVENT))
		return -1;
	n = ((config & ARCH_PERFMON_EVENTSEL_UMASK) -
	     INTEL_TD_METRIC_RETIRING) >> 8;
	return n >= 0 && n < p->nr_metrics ? n : -1;
}

/* This CPU's PMU, NULL before its bring-up or without counters. */
static inline struct x86c_pmu *x86c_here(void)
{
	return this_cpu_read(x86c_here_pmu);
}

/*
 * Whether @ip is a kernel address: the upper half of the address space,
 * which no user mapping reaches (a branch record's end, a PEBS record's
 * instruction, a branch trace's).
 */
static inline bool x86c_kernel_ip(u64 ip)
{
	return (s64)ip < 0;
}

/*
 * A PMU of the running kernel's, not a KUnit model's: only those
 * report what they find in the boot log.
 */
static inline bool x86c_is_host(const struct x86c_pmu *p)
{
	return p->hw == &x86c_native_hw;
}

/* The PMU a sysfs file of @dev belongs to. */
static inline struct x86c_pmu *x86c_dev_pmu(struct device *dev)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return container_of(pmu, struct x86c_pmu, pmu);
}

/* counters.c: the framework, as struct pmu and to the drivers */
int x86c_register(struct x86c_pmu *p);
void x86c_bind(struct x86c_pmu *p, struct perf_event *event, int idx);
void x86c_start_on(struct x86c_pmu *p, struct x86c_cpu *cpu,
		   struct perf_event *event, int flags);
void x86c_init_limits(struct x86c_pmu *p);
void x86c_size_kind(struct x86c_pmu *p, unsigned int cpu);
struct event_constraint *x86c_constraint(struct x86c_pmu *p, u64 config);
struct event_constraint *x86c_event_constraint(struct x86c_pmu *p,
					       struct perf_event *event);
s64 x86c_event_limit(const struct x86c_pmu *p, const struct perf_event *event,
		     s64 load);
int x86c_withhold(struct x86c_pmu *p, u64 mask);
u64 x86c_event_update(struct x86c_pmu *p, struct perf_event *event);
bool x86c_event_set_period(struct x86c_pmu *p, struct perf_event *event);
void x86c_stop(struct x86c_pmu *p, struct x86c_cpu *cpu,
	       struct perf_event *event, int flags);
void x86c_program_each(struct x86c_pmu *p, struct x86c_cpu *cpu);
void x86c_set_virt_mask(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 mask);
u64 x86c_overflowed_by_sign(struct x86c_pmu *p, struct x86c_cpu *cpu);
void x86c_cpu_reset(struct x86c_pmu *p, struct x86c_cpu *cpu);
void x86c_reset_running(struct x86c_pmu *p, struct x86c_cpu *cpu);
int x86c_place(struct x86c_pmu *p, struct x86c_cpu *cpu);
int x86c_place_with(struct x86c_cpu *cpu, struct event_constraint **constraint,
		    int gpmax);
void x86c_placed_gp(const struct x86c_cpu *cpu, u64 *used, u64 *excl);

/* share.c: identical counting events on one counter */
bool x86c_share_add(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event, int flags);
void x86c_share_start(struct x86c_pmu *p, struct x86c_cpu *cpu,
		      struct perf_event *rider);
bool x86c_share_stop(struct x86c_pmu *p, struct x86c_cpu *cpu,
		     struct perf_event *event);
bool x86c_share_del(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event);
void x86c_share_fold(struct x86c_pmu *p, struct x86c_cpu *cpu,
		     struct perf_event *carrier);
void x86c_share_follow(struct x86c_pmu *p, struct x86c_cpu *cpu,
		       struct perf_event *carrier);

/* branches.c: branch records for samples */
int x86c_br_config(struct x86c_pmu *p, struct perf_event *event);
bool x86c_br_agree(struct perf_event *a, struct perf_event *b);
int x86c_br_get(struct x86c_pmu *p, struct x86c_cpu *cpu,
		struct perf_event *event);
void x86c_br_put(struct x86c_pmu *p, struct x86c_cpu *cpu,
		 struct perf_event *event);
void x86c_br_enable(struct x86c_pmu *p, struct x86c_cpu *cpu);
void x86c_br_disable(struct x86c_pmu *p, struct x86c_cpu *cpu);
bool x86c_br_pmi_hold(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 status);
void x86c_br_pmi_release(struct x86c_pmu *p, struct x86c_cpu *cpu,
			 bool stopped);
void x86c_br_sched_in(struct x86c_pmu *p, struct x86c_cpu *cpu,
		      struct task_struct *task);
void x86c_br_sched_out(struct x86c_pmu *p, struct x86c_cpu *cpu,
		       struct task_struct *task);
int x86c_br_alloc(struct x86c_pmu *p, struct perf_event *event);
void x86c_br_free(struct perf_event *event);
int x86c_br_snapshot_on(struct x86c_pmu *p, struct x86c_cpu *cpu,
			struct perf_branch_entry *entries, unsigned int cnt);
int x86c_br_snapshot(struct perf_branch_entry *entries, unsigned int cnt);
void x86c_br_sample(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event, struct perf_sample_data *data);
u32 x86c_br_kind(u64 from, u64 to);
u32 x86c_br_request(u64 branch_sample_type);
u32 x86c_br_passed(u32 lbr);
int x86c_br_wanted(const struct x86c_lbr *lbr, u64 branch_sample_type,
		   u32 *want);

/* pmi.c: an overflow's sample, for the PEBS drain too */
void x86c_pmi_sample_data(struct x86c_pmu *p, struct x86c_cpu *cpu,
			  struct perf_event *event,
			  struct perf_sample_data *data);
bool x86c_pmi_advance(struct x86c_pmu *p, struct x86c_cpu *cpu,
		      struct perf_event *event);
void x86c_pmi_event(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event, struct pt_regs *regs,
		    struct perf_sample_data *data);

#ifdef CONFIG_CPU_SUP_INTEL
/**
 * struct x86c_ds_buffer - a buffer the debug store describes (intel/ds.c)
 * @size: its size on each CPU
 * @offset: where it sits in struct debug_store_buffers
 * @pages: each CPU's pages while allocated
 * @describe: fill a CPU's debug store for the buffer at @base, or
 *	for none (0)
 * @users: the events that need it, under ds.c's mutex
 */
struct x86c_ds_buffer {
	size_t			size;
	size_t			offset;
	struct page * __percpu	*pages;
	void	(*describe)(struct debug_store *ds, u64 base);
	unsigned int		users;
};

/* intel/ds.c: the debug store BTS and PEBS write through */
int x86c_ds_reserve(struct x86c_ds_buffer *b);
void x86c_ds_release(struct x86c_ds_buffer *b);
void x86c_ds_cpu_starting(struct x86c_pmu *p, struct x86c_cpu *cpu);
void x86c_ds_resume(void);

/* The general-purpose registers a PEBS record holds: RAX to R15. */
#define X86C_PEBS_GPRS	16

/**
 * struct x86c_pebs_mem_row - a precise memory event of a family
 *	(intel/pebs_mem.c)
 * @code: its event select and unit mask, as far as @cmask covers them
 * @cmask: the bits of the control value that must equal @code
 * @kind: what its records say of the access: upstream's hw.flags bits
 *	(PERF_X86_EVENT_PEBS_LDLAT, _STLAT, _LD_HSW, _ST_HSW, _NA_HSW,
 *	_LAT_HYBRID), which the event takes at event_init
 * @then: in a table's last row (no @cmask), the table it goes on with,
 *	or NULL
 */
struct x86c_pebs_mem_row {
	u64					code;
	u64					cmask;
	u32					kind;
	const struct x86c_pebs_mem_row		*then;
};

#define X86C_PEBS_MEM(c, m, k)	{ .code = (c), .cmask = (m), .kind = (k) }
#define X86C_PEBS_MEM_END	{ .cmask = 0 }
#define X86C_PEBS_MEM_THEN(t)	{ .cmask = 0, .then = (t) }

/**
 * struct x86c_pebs_dse - how a core's records give the source of a load
 *	(intel/pebs_mem.c): the field's layout, the same for the load and
 *	store latency events
 * @sources: the generic source (PERF_MEM_*) of each encoding, 0 where
 *	reserved
 * @nr_sources: how many encodings @sources has
 * @mask: the encoding's bits, from bit 0
 * @stlb_miss: the bit that says the access missed the second-level
 *	TLB, 0 for none
 * @locked: the bit that says it was locked, 0 for none
 * @data_blk: the bit that says a load waited for a store's data (it
 *	could not be forwarded), 0 for none
 * @addr_blk: the bit that says a load waited on a possible address
 *	conflict with a store, 0 for none
 * @split_latency: the records' latency field holds the cache latency in
 *	bits 47:32 and the instruction's in bits 15:0 (Golden Cove,
 *	Gracemont and later), not one latency
 *
 * Bit 0 is always part of the encoding, so 0 can mean "none".
 */
struct x86c_pebs_dse {
	const u64	*sources;
	u16		nr_sources;
	u16		mask;
	u8		stlb_miss;
	u8		locked;
	u8		data_blk;
	u8		addr_blk;
	bool		split_latency;
};

extern const struct x86c_pebs_dse x86c_dse_skylake;
extern const struct x86c_pebs_dse x86c_dse_golden_cove;
extern const struct x86c_pebs_dse x86c_dse_gracemont;
extern const struct x86c_pebs_dse x86c_dse_crestmont;
extern const struct x86c_pebs_dse x86c_dse_lion_cove;

/**
 * struct x86c_pebs_view - a PEBS record, whatever its format, as the
 *	drain reads it (intel/pebs.c)
 * @size: its bytes
 * @applicable: the counters it is of, their overflow-status bits
 * @ip: the eventing IP
 * @next_ip: the IP after the eventing instruction, 0 where not recorded
 * @flags: RFLAGS after it, where @gprs
 * @tsc: the TSC as the record was written
 * @gprs: the general-purpose registers after it, or NULL
 * @gpr_at: where in struct pt_regs each of @gprs goes
 * @gprs_on_ask: @gprs go into a sample only where it asks for
 *	PERF_SAMPLE_REGS_INTR (format 3, as upstream)
 * @lbr: its branch records, youngest first, or NULL
 * @nr_lbr: how many
 * @mem: it has the memory fields below (format 3, or format 4's memory
 *	group)
 * @ax: RAX after the instruction, where @gprs, else 0 (an RTM abort's
 *	code)
 * @data_addr: the data access's linear address
 * @dse: its data source, in the core's layout (struct x86c_pebs_dse)
 * @latency: the latency field, as the record has it
 * @tsx_tuning: the transaction's abort information and cycles
 */
struct x86c_pebs_view {
	unsigned int		size;
	u64			applicable;
	u64			ip;
	u64			next_ip;
	u64			flags;
	u64			tsc;
	const u64		*gprs;
	const u16		*gpr_at;
	bool			gprs_on_ask;
	const struct lbr_entry	*lbr;
	unsigned int		nr_lbr;
	bool			mem;
	u64			ax;
	/* Set where @mem, else left as they were: the drain decodes many. */
	u64			data_addr;
	u64			dse;
	u64			latency;
	u64			tsx_tuning;
};

/* intel/pebs.c: precise event-based sampling */
void x86c_pebs_probe(struct x86c_pmu *p, const struct x86c_intel_family *f);
void x86c_pebs_reshape(struct x86c_pmu *p, const struct x86c_intel_family *f);
bool x86c_pebs_shape(struct x86c_pmu *p, const struct x86c_intel_family *f,
		     int format, bool baseline);
int x86c_pebs_config(struct x86c_pmu *p, struct perf_event *event);
int x86c_pebs_reserve(void);
void x86c_pebs_release(void);
void x86c_pebs_on(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx);
void x86c_pebs_off(struct x86c_pmu *p, struct x86c_cpu *cpu, int idx);
void x86c_pebs_read(struct x86c_pmu *p, struct x86c_cpu *cpu);
int x86c_pebs_drain(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct pt_regs *iregs);
bool x86c_pebs_decode(const struct x86c_pmu *p, const void *at,
		      const void *top, struct x86c_pebs_view *v);
void x86c_pebs_regs(const struct perf_event *event,
		    const struct x86c_pebs_view *v, struct pt_regs *regs);

/* intel/pebs_mem.c: what a record says of the memory access */
/* The sample fields a record's memory information gives, or derive from */
#define X86C_PEBS_MEM_SAMPLE	(PERF_SAMPLE_ADDR | PERF_SAMPLE_PHYS_ADDR | \
				 PERF_SAMPLE_DATA_PAGE_SIZE | \
				 PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT_TYPE | \
				 PERF_SAMPLE_TRANSACTION)
void x86c_pebs_mem_shape(struct x86c_pmu *p,
			 const struct x86c_intel_family *f);
int x86c_pebs_mem_config(const struct x86c_pmu *p, struct perf_event *event);
u64 x86c_pebs_data_src(const struct x86c_pmu *p, u32 kind, u64 dse);
void x86c_pebs_mem_sample(const struct x86c_pmu *p,
			  const struct perf_event *event,
			  const struct x86c_pebs_view *v,
			  struct perf_sample_data *data);

/*
 * The two kinds of user of Intel's branch hardware, never both at once
 * (intel/bts_aux.c): branch records (and bts.c's trace), and intel_bts.
 */
enum x86c_branch_kind {
	X86C_BRANCH_RECORDS,
	X86C_BRANCH_AUX_TRACE,
};

/* intel/bts.c: the branch trace store, behind a period of 1 */
void x86c_bts_probe(struct x86c_pmu *p);
bool x86c_bts_shape(const struct x86c_pmu *p, const struct perf_event *event,
		    u64 period);
int x86c_bts_check(const struct x86c_pmu *p, const struct perf_event *event);
int x86c_bts_reserve(void);
void x86c_bts_release(void);
int x86c_bts_drain(struct x86c_pmu *p, struct x86c_cpu *cpu);
int x86c_bts_add(struct x86c_pmu *p, struct x86c_cpu *cpu,
		 struct perf_event *event, int flags);
void x86c_bts_start(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event);
void x86c_bts_stop(struct x86c_pmu *p, struct x86c_cpu *cpu,
		   struct perf_event *event);
void x86c_bts_del(struct x86c_pmu *p, struct x86c_cpu *cpu,
		  struct perf_event *event);

/* intel/bts_aux.c: the intel_bts PMU; who may use the branch hardware */
bool x86c_is_bts_aux(const struct perf_event *event);
int x86c_bts_aux_drain(struct x86c_pmu *p, struct x86c_cpu *cpu);
int x86c_branch_claim(enum x86c_branch_kind kind);
void x86c_branch_unclaim(enum x86c_branch_kind kind);
#else
/* Only Intel core PMUs set bts_period, so none of these is reached. */
static inline bool x86c_bts_shape(const struct x86c_pmu *p,
				  const struct perf_event *event, u64 period)
{
	return false;
}

static inline int x86c_bts_check(const struct x86c_pmu *p,
				 const struct perf_event *event)
{
	return -EOPNOTSUPP;
}

static inline int x86c_bts_reserve(void) { return -EOPNOTSUPP; }

static inline void x86c_bts_release(void) { }

static inline int x86c_bts_drain(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	return 0;
}

static inline int x86c_bts_add(struct x86c_pmu *p, struct x86c_cpu *cpu,
			       struct perf_event *event, int flags)
{
	return -EOPNOTSUPP;
}

static inline void x86c_bts_start(struct x86c_pmu *p, struct x86c_cpu *cpu,
				  struct perf_event *event) { }

static inline void x86c_bts_stop(struct x86c_pmu *p, struct x86c_cpu *cpu,
				 struct perf_event *event) { }

static inline void x86c_bts_del(struct x86c_pmu *p, struct x86c_cpu *cpu,
				struct perf_event *event) { }

static inline int x86c_branch_claim(enum x86c_branch_kind kind)
{
	return 0;
}

static inline void x86c_branch_unclaim(enum x86c_branch_kind kind) { }

/* Only Intel core PMUs set pebs, so none of these is reached either. */
static inline int x86c_pebs_config(struct x86c_pmu *p,
				   struct perf_event *event)
{
	return -EOPNOTSUPP;
}

static inline int x86c_pebs_reserve(void) { return -EOPNOTSUPP; }

static inline void x86c_pebs_release(void) { }

static inline int x86c_pebs_drain(struct x86c_pmu *p, struct x86c_cpu *cpu,
				  struct pt_regs *iregs)
{
	return 0;
}

static inline void x86c_pebs_read(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
}
#endif

/* ht_excl.c */
bool x86c_ht_wanted(const struct x86c_pmu *p);
void x86c_ht_attach(struct x86c_pmu *p, unsigned int cpu);
int x86c_ht_place(struct x86c_pmu *p, struct x86c_cpu *cpu);
void x86c_ht_publish(struct x86c_cpu *cpu);
bool x86c_counters_work(struct x86c_pmu *p);
bool x86c_pmu_is_ours(const struct pmu *pmu);

/* extra.c: registers some events take a selection from */
int x86c_extra_config(struct x86c_pmu *p, struct perf_event *event,
		      u64 config1);
int x86c_extra_get(struct x86c_pmu *p, struct x86c_extra_state *st,
		   struct perf_event *event, bool commit);
void x86c_extra_put(struct x86c_pmu *p, struct x86c_extra_state *st,
		    struct perf_event *event);
void x86c_extra_probe(struct x86c_pmu *p, const struct x86c_extra_reg *regs,
		      int nr);
bool x86c_msr_keeps(struct x86c_pmu *p, u32 msr, u64 valid);

/* period.c: counter arithmetic, no state */
u64 x86c_counter_delta(u64 prev, u64 now, int width);

/* A counter value as RDPMC's reader sign-extends it (rdpmc.c). */
static inline u64 x86c_sign_extend(const struct x86c_pmu *p, u64 val)
{
	int shift = 64 - p->width;

	return (u64)((s64)(val << shift) >> shift);
}

/**
 * struct x86c_period - the next load of a sampling counter
 * @left: counts to the end of the period, kept in hwc->period_left
 * @load: counts to load the counter for (at most the max period)
 * @elapsed: a period ended: a sample is due
 */
struct x86c_period {
	s64	left;
	s64	load;
	bool	elapsed;
};

struct x86c_period x86c_period_next(s64 left, u64 period, u64 max_period);
u64 x86c_counter_load_value(s64 load, u64 cntval_mask);
s64 x86c_limit_period(const struct x86c_period_limit *limits, u64 config,
		      s64 load);

/* pmi.c: the overflow interrupt */
int x86c_handle_pmi(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct pt_regs *regs);
int x86c_pmi_nmi(struct x86c_pmu *p, struct x86c_cpu *cpu,
		 struct pt_regs *regs);
int x86c_pmi_init(struct x86c_pmu *p);

/* rdpmc.c: user-space counter reads */
extern int x86c_rdpmc_knob;
int x86c_event_idx(struct perf_event *event);
void x86c_event_mapped(struct perf_event *event, struct mm_struct *mm);
void x86c_event_unmapped(struct perf_event *event, struct mm_struct *mm);
void x86c_rdpmc_userpage(struct perf_event *event,
			 struct perf_event_mmap_page *userpg);
extern const struct attribute_group x86c_rdpmc_group;

/* sysfs.c: format/, events/, caps/ */
extern const struct attribute_group *x86c_attr_groups[];
extern const struct attribute_group x86c_intel_format_group;
extern const struct attribute_group x86c_amd_format_group;
extern const struct attribute_group x86c_intel_pmu_group;
void x86c_sysfs_init(struct x86c_pmu *p);

/* The vendors' probes: 0 and *p filled, or -ENODEV. */
#ifdef CONFIG_CPU_SUP_INTEL
int x86c_intel_probe(struct x86c_pmu *p, struct x86c_pmu *atom);
int x86c_debugctl_update(struct x86c_pmu *p, u64 set, u64 clear);
/* intel/lbr.c: last branch records */
void x86c_intel_lbr_probe(struct x86c_pmu *p, const struct x86c_intel_family *f);
void x86c_intel_lbr_cpu_starting(struct x86c_pmu *p);
void x86c_intel_lbr_take(struct x86c_pmu *p, struct x86c_cpu *cpu,
			 const struct lbr_entry *rec, int nr);
/* Architectural LBR and Skylake's, for KUnit (branches_test.c) */
extern const struct x86c_lbr_ops x86c_arch_lbr_ops;
extern const struct x86c_lbr_ops x86c_skl_lbr_ops;
/* intel/topdown.c: IA32_PERF_METRICS's slots and metrics */
int intel_topdown_config(struct x86c_pmu *p, struct perf_event *event);
u64 intel_topdown_update(struct x86c_pmu *p, struct x86c_cpu *cpu);
void intel_topdown_start(struct x86c_pmu *p, struct perf_event *event);
/**
 * struct x86c_kind_counters - one kind of core's counters, as CPUID leaf
 *	23H gives them on a CPU of that kind
 * @core_type: the kind (CPUID leaf 1AH)
 * @gp: its general-purpose counters, a bit each
 * @fixed: its fixed counters, a bit each
 */
struct x86c_kind_counters {
	u8	core_type;
	u32	gp;
	u32	fixed;
};

void x86c_intel_split_hybrid(struct x86c_pmu *p, struct x86c_pmu *atom,
			     const struct x86c_intel_family *f,
			     const struct x86c_kind_counters *boot);
void x86c_intel_take_counters(struct x86c_pmu *p,
			      const struct x86c_kind_counters *k);
/* Intel perfmon v2 and later, for KUnit (counters_test.c) */
extern const struct x86c_vendor x86c_intel_v2_vendor;
#else
static inline int x86c_intel_probe(struct x86c_pmu *p,
				   struct x86c_pmu *atom)
{
	return -ENODEV;
}
#endif
#ifdef CONFIG_CPU_SUP_AMD
int x86c_amd_probe(struct x86c_pmu *p);
/* AMD before PerfMonV2 and with it, for KUnit (counters_test.c) */
extern const struct x86c_vendor x86c_amd_vendor;
extern const struct x86c_vendor x86c_amd_v2_vendor;
/* Family 15h's counter constraints, for KUnit too */
extern struct event_constraint x86c_amd_f15h_table[];
#else
static inline int x86c_amd_probe(struct x86c_pmu *p)
{
	return -ENODEV;
}
#endif

#endif /* ARCH_X86_EVENTS_COUNTERS_H */
