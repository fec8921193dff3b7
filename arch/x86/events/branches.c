// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: branch records in samples (PERF_SAMPLE_BRANCH_STACK), the
 * framework's part: what a request asks of the hardware, which events
 * share the records, whose branches they hold, and what each sample
 * keeps of them.  The hardware is the driver's (intel/lbr.c), behind
 * struct x86c_lbr_ops.
 *
 * A request, attr.branch_sample_type, says which branches to keep: by
 * type (any, calls, returns, conditional, ...) and by privilege.  It is
 * put two ways at event_init.  The hardware is asked to record, in the
 * vendor-neutral X86C_LBR_* terms, the least that holds every branch
 * asked for; the driver encodes that into its register value, kept in
 * hwc->branch_reg.config.  The kinds of branch the sample keeps
 * (X86C_BR_*) go to hwc->branch_reg.reg: where the hardware records
 * more than was asked (its "other branch" filter takes far returns
 * with far calls), each record's kind is found and the others dropped.
 * A kind the hardware does not report is found by decoding the branch
 * instruction at the record's source (x86c_br_kind()), which costs a
 * copy from the task's memory per record: only done when the request
 * needs it.
 *
 * A CPU has one set of records for all its counters: the events on
 * them that record branches must agree on the register value (and an
 * event that wants another one waits, as one without a counter does:
 * x86c_br_get()).  The records are the same for all of them; what a
 * sample keeps is per event (x86c_br_sample()).
 *
 * When.  Recording runs from the first such event's add to the last
 * one's del, whether the counters are enabled or not (a pmu_disable
 * does not stop it: the records are not counts, and a switch of
 * contexts costs no LBR write); a PMI stops it while the samples read
 * the records, once (x86c_handle_pmi()).
 *
 * Whose branches.  The records stay in the hardware while recording is
 * stopped, so that a task whose events leave the CPU and come back,
 * with no other task recording in between, finds its branches (its
 * call stack, in call-stack mode) as it left them.  Before another
 * task's events may read them, or events with another filter, they are
 * wiped: when the first event of a task comes on (x86c_br_get()) and at
 * each task switch while events record (x86c_br_sched_in(), through
 * pmu::sched_task).  So
 * records never cross from one task to another, and a call stack
 * survives a context switch to a task that does not record at no cost.
 * A task's call stack (call-stack mode) is also saved with its event as
 * the task leaves a CPU, and put back when the task comes in to find
 * the records wiped: after another task recorded there, or on another
 * CPU (x86c_br_sched_out(), x86c_br_own()).
 *
 * Privilege.  The hardware filters a branch by the ring it lands in.
 * A request without PERF_SAMPLE_BRANCH_KERNEL sees no kernel address:
 * a record whose source is in the kernel (the return from a system
 * call or an interrupt, which lands in user space) is dropped, as
 * upstream drops it; the address tells, no decoding needed.
 *
 * Locking: struct x86c_br_cpu is part of struct x86c_cpu: its CPU's,
 * touched with interrupts off (counters.c).  hwc->branch_reg is the
 * event's, written at event_init: .config the driver's register value,
 * .reg the X86C_BR_* kinds and terms the sample keeps, .idx 1 where
 * that needs each record's kind; and .alloc, set while the event holds
 * a use of the records, by add and del on the CPU the event is on.
 */

#include <linux/perf_event.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <asm/insn.h>
#include <asm/ptrace.h>

#include "counters.h"

/* The request bits a sample keeps records by; the others say how. */
#define X86C_BR_FILTERS	(PERF_SAMPLE_BRANCH_ANY |			\
			 PERF_SAMPLE_BRANCH_ANY_CALL |			\
			 PERF_SAMPLE_BRANCH_ANY_RETURN |		\
			 PERF_SAMPLE_BRANCH_IND_CALL |			\
			 PERF_SAMPLE_BRANCH_ABORT_TX |			\
			 PERF_SAMPLE_BRANCH_IN_TX |			\
			 PERF_SAMPLE_BRANCH_NO_TX |			\
			 PERF_SAMPLE_BRANCH_COND |			\
			 PERF_SAMPLE_BRANCH_CALL_STACK |		\
			 PERF_SAMPLE_BRANCH_IND_JUMP |			\
			 PERF_SAMPLE_BRANCH_CALL)

/* The kinds each hardware type filter lets through. */
static const u32 x86c_lbr_passes[] = {
	[__builtin_ctz(X86C_LBR_JCC)]		= X86C_BR_JCC,
	[__builtin_ctz(X86C_LBR_REL_JMP)]	= X86C_BR_JMP,
	[__builtin_ctz(X86C_LBR_IND_JMP)]	= X86C_BR_IND_JMP,
	[__builtin_ctz(X86C_LBR_REL_CALL)]	= X86C_BR_CALL,
	[__builtin_ctz(X86C_LBR_IND_CALL)]	= X86C_BR_IND_CALL,
	[__builtin_ctz(X86C_LBR_RET)]		= X86C_BR_RET,
	/* far calls, jumps and returns are JMP, CALL and RET kinds too */
	[__builtin_ctz(X86C_LBR_OTHER)]		= X86C_BR_KINDS &
						  ~(X86C_BR_JCC | X86C_BR_IND_JMP |
						    X86C_BR_IND_CALL),
};

/**
 * x86c_br_passed - the kinds of branch a hardware filter records
 * @lbr: X86C_LBR_* type bits
 *
 * Return: X86C_BR_* kinds.
 */
u32 x86c_br_passed(u32 lbr)
{
	unsigned long types = lbr & X86C_LBR_TYPES;
	u32 kinds = 0;
	int i;

	for_each_set_bit(i, &types, ARRAY_SIZE(x86c_lbr_passes))
		kinds |= x86c_lbr_passes[i];
	return kinds;
}

/*
 * One request bit: the hardware filters that record it (X86C_LBR_*)
 * and the kinds of branch it keeps (X86C_BR_*).  Bits of neither (the
 * privilege, TYPE_SAVE, HW_INDEX, NO_FLAGS, ...) are not here.
 */
static const struct {
	u64	bit;
	u32	lbr;
	u32	kinds;
} x86c_br_terms[] = {
	{ PERF_SAMPLE_BRANCH_ANY,	X86C_LBR_TYPES,		X86C_BR_KINDS },
	{ PERF_SAMPLE_BRANCH_ANY_CALL,
	  X86C_LBR_REL_CALL | X86C_LBR_IND_CALL | X86C_LBR_OTHER,
	  X86C_BR_CALL | X86C_BR_IND_CALL | X86C_BR_SYSCALL | X86C_BR_INT |
	  X86C_BR_IRQ },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, X86C_LBR_RET | X86C_LBR_OTHER,
	  X86C_BR_RET | X86C_BR_IRET | X86C_BR_SYSRET },
	{ PERF_SAMPLE_BRANCH_IND_CALL,	X86C_LBR_IND_CALL,	X86C_BR_IND_CALL },
	{ PERF_SAMPLE_BRANCH_COND,	X86C_LBR_JCC,		X86C_BR_JCC },
	{ PERF_SAMPLE_BRANCH_IND_JUMP,	X86C_LBR_IND_JMP,	X86C_BR_IND_JMP },
	{ PERF_SAMPLE_BRANCH_CALL,	X86C_LBR_REL_CALL,	X86C_BR_CALL },
	{ PERF_SAMPLE_BRANCH_CALL_STACK,
	  X86C_LBR_REL_CALL | X86C_LBR_IND_CALL | X86C_LBR_RET |
	  X86C_LBR_CALL_STACK,
	  X86C_BR_CALL | X86C_BR_IND_CALL | X86C_BR_RET },
	/* a transaction's abort: recorded as a far branch */
	{ PERF_SAMPLE_BRANCH_ABORT_TX,	X86C_LBR_OTHER,		X86C_BR_ABORT },
};

/**
 * x86c_br_request - what a sample keeps of the records
 * @branch_sample_type: the request
 *
 * Return: X86C_BR_* kinds and terms.
 */
u32 x86c_br_request(u64 branch_sample_type)
{
	u32 keep = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(x86c_br_terms); i++)
		if (branch_sample_type & x86c_br_terms[i].bit)
			keep |= x86c_br_terms[i].kinds;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_USER)
		keep |= X86C_BR_USER;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_KERNEL)
		keep |= X86C_BR_KERNEL;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_IN_TX)
		keep |= X86C_BR_IN_TX;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_NO_TX)
		keep |= X86C_BR_NO_TX;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_TYPE_SAVE)
		keep |= X86C_BR_TYPE_SAVE;
	return keep;
}

/**
 * x86c_br_wanted - what the hardware must record for a request
 * @lbr: the PMU's records
 * @branch_sample_type: the request
 * @want: X86C_LBR_* filters
 *
 * Return: 0; -EOPNOTSUPP where the hardware lacks a filter the request
 * needs (call-stack mode, privilege or type filtering), or asks what
 * no x86 records have (PERF_SAMPLE_BRANCH_COUNTERS' counter logging is
 * refused by the caller); -EINVAL for call-stack mode with a type
 * filter beside it, whose meaning would be the hardware's accident.
 */
int x86c_br_wanted(const struct x86c_lbr *lbr, u64 branch_sample_type,
		   u32 *want)
{
	u32 w = 0;
	int i;

	if (branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) {
		if (!(lbr->can & X86C_LBR_CALL_STACK))
			return -EOPNOTSUPP;
		if (branch_sample_type & X86C_BR_FILTERS &
		    ~PERF_SAMPLE_BRANCH_CALL_STACK)
			return -EINVAL;
	}
	for (i = 0; i < ARRAY_SIZE(x86c_br_terms); i++)
		if (branch_sample_type & x86c_br_terms[i].bit)
			w |= x86c_br_terms[i].lbr;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_USER)
		w |= X86C_LBR_USER;
	if (branch_sample_type & PERF_SAMPLE_BRANCH_KERNEL)
		w |= X86C_LBR_KERNEL;
	if (w & ~lbr->can)
		return -EOPNOTSUPP;
	*want = w;
	return 0;
}

/*
 * Whether a sample keeping @keep must know each record's kind: to say
 * it, or because the hardware, recording @want, lets through kinds that
 * @keep does not take.
 */
static bool x86c_br_needs_kind(u32 keep, u32 want)
{
	if (keep & (X86C_BR_TYPE_SAVE | X86C_BR_IN_TX | X86C_BR_NO_TX))
		return true;
	return x86c_br_passed(want) & ~keep;
}

/**
 * x86c_br_config - set up an event that samples branch records
 * @p: the PMU
 * @event: the event, with PERF_SAMPLE_BRANCH_STACK
 *
 * The core checked the request's bits and filled in its privilege.
 *
 * Return: 0; -EOPNOTSUPP where the PMU has no records or lacks a
 * filter the request needs; -EINVAL for what none could do.
 */
int x86c_br_config(struct x86c_pmu *p, struct perf_event *event)
{
	struct hw_perf_event_extra *br = &event->hw.branch_reg;
	u64 type = event->attr.branch_sample_type;
	u32 want;
	int err;

	if (!p->lbr.nr)
		return -EOPNOTSUPP;
	/* Counter logging (Sierra Forest's LBR event logging): not here. */
	if (type & PERF_SAMPLE_BRANCH_COUNTERS)
		return -EINVAL;
	err = x86c_br_wanted(&p->lbr, type, &want);
	if (err)
		return err;
	br->alloc = 0;
	br->config = p->lbr.ops->encode(p, want);
	br->reg = x86c_br_request(type);
	br->idx = x86c_br_needs_kind(br->reg, want);
	return 0;
}

/* Whether @a and @b, both recording branches, may be on a CPU at once. */
bool x86c_br_agree(struct perf_event *a, struct perf_event *b)
{
	return a->hw.branch_reg.config == b->hw.branch_reg.config;
}

/*
 * Whether the records may hold what the events now recording must not
 * see: another task's branches than @task's, or branches recorded with
 * another filter than the one in force.
 */
static bool x86c_br_foreign(struct x86c_br_cpu *br, struct task_struct *task)
{
	return br->owner != task || br->owner_start != task->start_time ||
	       br->owner_config != br->config;
}

/* A task's context switches so far: a saved stack's timestamp. */
static unsigned long x86c_br_switches(struct task_struct *task)
{
	return task->nvcsw + task->nivcsw;
}

/*
 * The records become @task's, with the filter in force: wiped unless
 * they are already, recording stopped meanwhile where it runs.  @save,
 * where @task has one, is its call stack as it last left a CPU: put
 * back if @task has not switched since (it is coming in now).
 */
static void x86c_br_own(struct x86c_pmu *p, struct x86c_cpu *cpu,
			struct task_struct *task, bool recording,
			struct x86c_br_save *save)
{
	struct x86c_br_cpu *br = &cpu->br;

	if (!x86c_br_foreign(br, task))
		return;
	if (recording)
		x86c_br_disable(p, cpu);
	p->lbr.ops->wipe(p, cpu);
	if (save && save->fresh && save->switches == x86c_br_switches(task))
		p->lbr.ops->restore(p, save);
	if (save)
		save->fresh = false;
	if (recording)
		x86c_br_enable(p, cpu);
	br->snap_valid = false;
	br->owner = task;
	br->owner_start = task->start_time;
	br->owner_config = br->config;
}

/* The call stack @event keeps for its task, if it is that task's. */
static struct x86c_br_save *x86c_br_save_of(struct perf_event *event,
					    struct task_struct *task)
{
	return event->hw.target == task ? event->pmu_private : NULL;
}

/**
 * x86c_br_free - what x86c_br_alloc() took, at the event's destroy
 * @event: any event of the PMU
 */
void x86c_br_free(struct perf_event *event)
{
	kfree(event->pmu_private);
	event->pmu_private = NULL;
}

/**
 * x86c_br_alloc - room for a task's call stack, for a call-stack event
 * @p: the PMU
 * @event: a new event, set up: the last step of its event_init
 *
 * The records of call-stack mode are the task's stack of calls: saved
 * as the task leaves a CPU, put back where it comes in after another
 * task recorded there, or on another CPU.  Events of a CPU need none.
 *
 * Return: 0 or -ENOMEM.
 */
int x86c_br_alloc(struct x86c_pmu *p, struct perf_event *event)
{
	struct x86c_br_save *save;

	if (!has_branch_stack(event) ||
	    !(event->attach_state & PERF_ATTACH_TASK) ||
	    !(event->attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK))
		return 0;
	save = kzalloc(sizeof(*save), GFP_KERNEL);
	if (!save)
		return -ENOMEM;
	event->pmu_private = save;
	return 0;
}

/**
 * x86c_br_get - an event that records branches goes on a CPU's counters
 * @p: the PMU
 * @cpu: that CPU's counters, on it
 * @event: the event; one without branch records is left alone
 *
 * The first such event turns the records on and asks for task
 * switches.
 *
 * Return: 0, or -EBUSY where the events there record with another
 * filter.
 */
int x86c_br_get(struct x86c_pmu *p, struct x86c_cpu *cpu,
		struct perf_event *event)
{
	struct hw_perf_event_extra *br = &event->hw.branch_reg;

	if (!has_branch_stack(event) || br->alloc)
		return 0;
	if (cpu->br.users) {
		if (cpu->br.config != br->config)
			return -EBUSY;
		cpu->br.users++;
		br->alloc = 1;
		return 0;
	}
	/* Not recording while nobody used the records: wiped as they are. */
	cpu->br.users = 1;
	cpu->br.config = br->config;
	cpu->br.call_stack = event->attr.branch_sample_type &
			     PERF_SAMPLE_BRANCH_CALL_STACK;
	br->alloc = 1;
	perf_sched_cb_inc(&p->pmu);
	x86c_br_own(p, cpu, current, false, x86c_br_save_of(event, current));
	x86c_br_enable(p, cpu);
	return 0;
}

/**
 * x86c_br_put - an event x86c_br_get() took leaves the CPU
 * @p: the PMU
 * @cpu: its CPU's counters, on it
 * @event: the event, or any other (left alone)
 *
 * The last one stops the records, which stay for their task's return.
 */
void x86c_br_put(struct x86c_pmu *p, struct x86c_cpu *cpu,
		 struct perf_event *event)
{
	struct hw_perf_event_extra *br = &event->hw.branch_reg;

	if (!has_branch_stack(event) || !br->alloc)
		return;
	br->alloc = 0;
	if (--cpu->br.users)
		return;
	x86c_br_disable(p, cpu);
	perf_sched_cb_dec(&p->pmu);
}

/**
 * x86c_br_enable - record (again)
 * @p: the PMU
 * @cpu: this CPU's counters, where events record
 *
 * The records read before are stale from now on.
 */
void x86c_br_enable(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	cpu->br.snap_valid = false;
	p->lbr.ops->enable(p, cpu);
}

/**
 * x86c_br_disable - stop recording, the records kept
 * @p: the PMU
 * @cpu: this CPU's counters, where events record
 */
void x86c_br_disable(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	p->lbr.ops->disable(p, cpu);
}

/* @cpu's snapshot of the records, read unless it holds them already. */
static void x86c_br_snap(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	if (!cpu->br.snap_valid) {
		p->lbr.ops->read(p, cpu);
		cpu->br.snap_valid = true;
	}
}

/*
 * Whether a sample of the PMI with overflow status @status may read the
 * records: an overflowed event's that asks for them, or a PEBS drain's
 * (a record without branches of its own reads the registers').
 */
static bool x86c_br_pmi_wanted(struct x86c_cpu *cpu, u64 status)
{
	unsigned long ran = status & cpu->running;
	int idx;

	if (status & GLOBAL_STATUS_BUFFER_OVF)
		return true;
	for_each_set_bit(idx, &ran, X86_PMC_IDX_MAX)
		if (has_branch_stack(cpu->owner[idx]))
			return true;
	return false;
}

/**
 * x86c_br_pmi_hold - the records hold still while the PMI's samples
 *	read them
 * @p: the PMU
 * @cpu: this CPU's counters, where events record branches
 * @status: the overflow status the PMI found, not yet acknowledged
 *
 * Where the PMI froze them (@status has the PMU's frozen_status) they
 * are read now, if a sample may want them: acknowledging the status lets
 * them record again, so a later read would find the handler's own
 * branches.  No register is written.  Elsewhere recording stops.
 *
 * Return: whether recording stopped; x86c_br_pmi_release() takes it.
 */
bool x86c_br_pmi_hold(struct x86c_pmu *p, struct x86c_cpu *cpu, u64 status)
{
	if (!(status & p->lbr.frozen_status)) {
		x86c_br_disable(p, cpu);
		return true;
	}
	if (x86c_br_pmi_wanted(cpu, status))
		x86c_br_snap(p, cpu);
	return false;
}

/**
 * x86c_br_pmi_release - the PMI is done with the records
 * @p: the PMU
 * @cpu: this CPU's counters
 * @stopped: x86c_br_pmi_hold()'s answer
 *
 * Recording goes on either way, so what was read is stale.
 */
void x86c_br_pmi_release(struct x86c_pmu *p, struct x86c_cpu *cpu,
			 bool stopped)
{
	if (stopped)
		x86c_br_enable(p, cpu);
	else
		cpu->br.snap_valid = false;
}

/**
 * x86c_br_sched_in - @task runs on this CPU now, its events are on
 * @p: the PMU
 * @cpu: this CPU's counters
 * @task: the task
 *
 * From pmu::sched_task, between a pmu_disable and a pmu_enable.
 */
void x86c_br_sched_in(struct x86c_pmu *p, struct x86c_cpu *cpu,
		      struct task_struct *task)
{
	if (cpu->br.users)
		x86c_br_own(p, cpu, task, true, NULL);
}

/**
 * x86c_br_sched_out - @task leaves this CPU, its events still on
 * @p: the PMU
 * @cpu: this CPU's counters
 * @task: the task
 *
 * From pmu::sched_task.  A call stack of @task's is saved with its
 * event, for wherever the task comes in next: on this CPU the records
 * are kept where no other task records meanwhile, and then the save
 * goes unused.
 */
void x86c_br_sched_out(struct x86c_pmu *p, struct x86c_cpu *cpu,
		       struct task_struct *task)
{
	struct x86c_br_save *save;
	int i;

	if (!cpu->br.users || !cpu->br.call_stack ||
	    x86c_br_foreign(&cpu->br, task))
		return;
	for (i = 0; i < cpu->nr; i++) {
		save = x86c_br_save_of(cpu->events[i], task);
		if (save && cpu->events[i]->hw.branch_reg.alloc) {
			p->lbr.ops->save(p, save);
			save->switches = x86c_br_switches(task);
			save->fresh = true;
			return;
		}
	}
}

/**
 * x86c_br_snapshot_on - the records as they are now, for BPF
 * @p: the PMU
 * @cpu: this CPU's counters, interrupts off
 * @entries: where to put them
 * @cnt: room in @entries
 *
 * Recording stops for the read and goes on after it.  Only where
 * events record on this CPU: a BPF program that wants a snapshot opens
 * one on each CPU, as upstream asks of it.
 *
 * Return: how many records were put in @entries.
 */
int x86c_br_snapshot_on(struct x86c_pmu *p, struct x86c_cpu *cpu,
			struct perf_branch_entry *entries, unsigned int cnt)
{
	unsigned int n;

	if (!cpu->br.users)
		return 0;
	x86c_br_disable(p, cpu);
	p->lbr.ops->read(p, cpu);
	n = min_t(unsigned int, cnt, cpu->br.snap.stack.nr);
	memcpy(entries, cpu->br.snap.e, n * sizeof(*entries));
	x86c_br_enable(p, cpu);
	return n;
}

/**
 * x86c_br_snapshot - perf_snapshot_branch_stack, bpf_get_branch_snapshot()
 * @entries: where to put the records
 * @cnt: room in @entries
 *
 * Return: how many records were put in @entries.
 */
int x86c_br_snapshot(struct perf_branch_entry *entries, unsigned int cnt)
{
	struct x86c_pmu *p;
	unsigned long flags;
	int n = 0;

	local_irq_save(flags);
	p = x86c_here();
	if (p && p->lbr.nr)
		n = x86c_br_snapshot_on(p, this_cpu_ptr(p->cpus), entries, cnt);
	local_irq_restore(flags);
	return n;
}

/* ---- what a sample keeps ------------------------------------------- */

/*
 * Up to @len bytes of the instruction at @ip, from the kernel's text or
 * the task's memory, in NMI context.  Return: how many were read.
 */
static int x86c_br_fetch(u64 ip, u8 *buf, int len)
{
	if (x86c_kernel_ip(ip))
		return copy_from_kernel_nofault(buf, (void *)ip, len) ? 0 : len;
	if (!current->mm)
		return 0;
	return len - copy_from_user_nmi(buf, (void __user *)ip, len);
}

/* The kind of the branch instruction @insn, or 0 for no branch. */
static u32 x86c_br_insn_kind(struct insn *insn)
{
	u8 op = insn->opcode.bytes[0];
	int reg;

	if (op == 0x0f) {
		switch (insn->opcode.bytes[1]) {
		case 0x05:		/* syscall */
		case 0x34:		/* sysenter */
			return X86C_BR_SYSCALL;
		case 0x07:		/* sysret */
		case 0x35:		/* sysexit */
			return X86C_BR_SYSRET;
		case 0x80 ... 0x8f:	/* jcc rel16/32 */
			return X86C_BR_JCC;
		}
		return 0;
	}
	switch (op) {
	case 0x70 ... 0x7f:	/* jcc rel8 */
	case 0xe0 ... 0xe3:	/* loopne, loope, loop, jcxz */
		return X86C_BR_JCC;
	case 0xe8:		/* call rel */
	case 0x9a:		/* call far absolute */
		return X86C_BR_CALL;
	case 0xe9:		/* jmp rel */
	case 0xea:		/* jmp far absolute */
	case 0xeb:		/* jmp rel8 */
		return X86C_BR_JMP;
	case 0xc2:		/* ret imm16 */
	case 0xc3:		/* ret */
	case 0xca:		/* far ret imm16 */
	case 0xcb:		/* far ret */
		return X86C_BR_RET;
	case 0xcc:		/* int3 */
	case 0xcd:		/* int n */
	case 0xce:		/* into */
		return X86C_BR_INT;
	case 0xcf:		/* iret */
		return X86C_BR_IRET;
	case 0xff:		/* group 5: by ModRM.reg */
		if (insn_get_modrm(insn))
			return 0;
		reg = X86_MODRM_REG(insn->modrm.value);
		if (reg == 2 || reg == 3)	/* call near, far indirect */
			return X86C_BR_IND_CALL;
		if (reg == 4 || reg == 5)	/* jmp near, far indirect */
			return X86C_BR_IND_JMP;
		return 0;
	}
	return 0;
}

/**
 * x86c_br_kind - the kind of a recorded branch, from its instruction
 * @from: where it was taken
 * @to: where it landed
 *
 * In NMI context, for a record of the task that runs.  A record that
 * enters the kernel from user space without a system call or a
 * software interrupt at its source is an interrupt or an exception.
 *
 * Return: an X86C_BR_* kind, or 0 where the source cannot be read or
 * holds no branch.
 */
u32 x86c_br_kind(u64 from, u64 to)
{
	u8 buf[MAX_INSN_SIZE];
	enum insn_mode mode = INSN_MODE_64;
	bool entry = !x86c_kernel_ip(from) && x86c_kernel_ip(to);
	struct insn insn;
	u32 kind = 0;
	int len;

	if (!from)
		return 0;
	len = x86c_br_fetch(from, buf, sizeof(buf));
	if (!x86c_kernel_ip(from) && IS_ENABLED(CONFIG_IA32_EMULATION) &&
	    current->mm && !user_64bit_mode(task_pt_regs(current)))
		mode = INSN_MODE_32;
	if (len && !insn_decode(&insn, buf, len, mode))
		kind = x86c_br_insn_kind(&insn);
	if (entry && kind != X86C_BR_SYSCALL && kind != X86C_BR_INT)
		kind = X86C_BR_IRQ;
	return kind;
}

/* perf's name of a kind (PERF_BR_*), as perf_branch_entry.type has it */
static u8 x86c_br_perf_type(u32 kind)
{
	switch (kind) {
	case X86C_BR_JCC:	return PERF_BR_COND;
	case X86C_BR_JMP:	return PERF_BR_UNCOND;
	case X86C_BR_IND_JMP:	return PERF_BR_IND;
	case X86C_BR_CALL:	return PERF_BR_CALL;
	case X86C_BR_IND_CALL:	return PERF_BR_IND_CALL;
	case X86C_BR_RET:	return PERF_BR_RET;
	case X86C_BR_SYSCALL:	return PERF_BR_SYSCALL;
	case X86C_BR_SYSRET:	return PERF_BR_SYSRET;
	case X86C_BR_IRET:	return PERF_BR_ERET;
	case X86C_BR_IRQ:	return PERF_BR_IRQ;
	}
	return PERF_BR_UNKNOWN;	/* int n, aborts: as upstream */
}

/* Whether the record @e, of kind @kind (0: unknown), is kept by @keep. */
static bool x86c_br_keeps(u32 keep, const struct perf_branch_entry *e,
			  u32 kind, bool by_kind)
{
	if (!(keep & X86C_BR_KERNEL) &&
	    (x86c_kernel_ip(e->from) || x86c_kernel_ip(e->to)))
		return false;
	if (!(keep & X86C_BR_USER) && !x86c_kernel_ip(e->to))
		return false;
	if (!by_kind)
		return true;
	if (!(kind & keep))
		return false;
	if ((keep & (X86C_BR_IN_TX | X86C_BR_NO_TX)) &&
	    !(keep & (e->in_tx ? X86C_BR_IN_TX : X86C_BR_NO_TX)))
		return false;
	return true;
}

/**
 * x86c_br_sample - attach the branch records to an event's sample
 * @p: the PMU
 * @cpu: this CPU's counters, recording stopped (the PMI)
 * @event: an event with PERF_SAMPLE_BRANCH_STACK, on this CPU: it holds
 *	a use of the records (x86c_br_get() succeeded, or it would not be
 *	counting here)
 * @data: its sample
 *
 * The records are read once per stop, for every event sampled in it.
 */
void x86c_br_sample(struct x86c_pmu *p, struct x86c_cpu *cpu,
		    struct perf_event *event, struct perf_sample_data *data)
{
	struct hw_perf_event_extra *br = &event->hw.branch_reg;
	struct x86c_br_stack *snap = &cpu->br.snap, *out = &cpu->br.out;
	u64 type = event->attr.branch_sample_type;
	bool by_kind = br->idx;
	u32 keep = br->reg;
	u64 i, n = 0;

	x86c_br_snap(p, cpu);
	for (i = 0; i < snap->stack.nr; i++) {
		struct perf_branch_entry *e = &out->e[n];
		u32 kind = cpu->br.kind[i];

		*e = snap->e[i];
		if (by_kind && !kind) {
			kind = x86c_br_kind(e->from, e->to);
			cpu->br.kind[i] = kind;
		}
		if (!x86c_br_keeps(keep, e, kind, by_kind))
			continue;
		if (kind && (p->lbr.has_types || (keep & X86C_BR_TYPE_SAVE)))
			e->type = x86c_br_perf_type(kind);
		if (type & PERF_SAMPLE_BRANCH_NO_FLAGS) {
			e->mispred = 0;
			e->predicted = 0;
			e->in_tx = 0;
			e->abort = 0;
		}
		if (type & PERF_SAMPLE_BRANCH_NO_CYCLES)
			e->cycles = 0;
		n++;
	}
	out->stack.nr = n;
	out->stack.hw_idx = snap->stack.hw_idx;
	perf_sample_save_brstack(data, event, &out->stack, NULL);
}
