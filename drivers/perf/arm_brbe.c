// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: branch stacks (PERF_SAMPLE_BRANCH_STACK) from Arm's Branch
 * Record Buffer Extension, FEAT_BRBE, for the PMUv3 driver.
 *
 * The buffer.  BRBE keeps the last 8 to 64 taken branches in records
 * of three registers (BRBINF: validity, type, target EL, cycles; BRBSRC;
 * BRBTGT), 32 to a bank that BRBFCR_EL1.BANK selects; record 0 is the
 * youngest.  BRBCR_EL1 says at which ELs branches are recorded, and
 * whether exceptions and exception returns are; BRBFCR_EL1 which kinds
 * of branch, and PAUSED stops recording.  A branch that leaves or enters
 * an EL that does not record leaves a record with only the other end.
 *
 * When.  The buffer is the CPU's, shared by every branch event on it,
 * so it records the union of their filters, and reading it trims each
 * event's stack to what that event asked for (brbe_keep()).  It records
 * while the PMU counts: brbe_enable() from the driver's start() (the
 * buffer emptied first: what a stopped PMU missed would leave a hole)
 * and brbe_disable() from its stop().  With BRBCR.FZP the CPU pauses
 * recording itself when an event counter overflows, so the stack a
 * sample carries ends where its period did: the interrupt reads it
 * (brbe_read(), between the framework's stop and start).  The cycle
 * counter does not pause BRBE, so a branch event never takes it
 * (arm_pmuv3.c).  A task switch empties the buffer (pmu::sched_task):
 * another task's branches are never a task's stack.
 *
 * What is refused, -EOPNOTSUPP as the architecture leaves no other
 * way: call stacks, transaction filters and counters in the stack, a
 * branch stack with no kind of branch, and one for guests only.
 *
 * The records' hw_idx is 0: BRBE's youngest record always comes first,
 * there is no ring position to stitch by (as upstream's 6.17 driver).
 *
 * Register access goes through struct brbe_hw_ops, so the KUnit cases
 * at the end (arm_brbe_test.c) run this file's code on a model.
 */
#define pr_fmt(fmt) "hw perfevents: " fmt

#include <linux/bitfield.h>
#include <linux/log2.h>
#include <linux/perf_event.h>
#include <linux/perf/arm_pmu.h>
#include <asm/cpufeature.h>
#include <asm/processor.h>
#include <asm/sysreg.h>
#include <asm/virt.h>

#include "arm_brbe.h"

/* ---- the registers' fields (Arm ARM D18, FEAT_BRBE) --------------- */

#define BRBIDR_NUMREC		GENMASK_ULL(7, 0)
#define BRBIDR_FORMAT		GENMASK_ULL(11, 8)
#define BRBIDR_CC		GENMASK_ULL(15, 12)
#define BRBIDR_CC_20BIT		5

#define BRBCR_E0BRE		BIT_ULL(0)	/* EL0 records */
#define BRBCR_EXBRE		BIT_ULL(1)	/* the EL of the register */
#define BRBCR_CC		BIT_ULL(3)	/* cycle counts */
#define BRBCR_MPRED		BIT_ULL(4)	/* mispredict bits */
#define BRBCR_TS		GENMASK_ULL(6, 5)
#define BRBCR_TS_VIRTUAL	1
#define BRBCR_FZP		BIT_ULL(8)	/* pause at an overflow */
#define BRBCR_ERTN		BIT_ULL(22)	/* exception returns */
#define BRBCR_EXCEPTION		BIT_ULL(23)	/* exceptions */

#define BRBFCR_PAUSED		BIT_ULL(7)
#define BRBFCR_DIRECT		BIT_ULL(17)
#define BRBFCR_INDIRECT		BIT_ULL(18)
#define BRBFCR_RTN		BIT_ULL(19)
#define BRBFCR_INDCALL		BIT_ULL(20)
#define BRBFCR_DIRCALL		BIT_ULL(21)
#define BRBFCR_CONDDIR		BIT_ULL(22)
#define BRBFCR_BANK		GENMASK_ULL(29, 28)
#define BRBFCR_KINDS		(BRBFCR_DIRECT | BRBFCR_INDIRECT | \
				 BRBFCR_RTN | BRBFCR_INDCALL | \
				 BRBFCR_DIRCALL | BRBFCR_CONDDIR)

#define BRBINF_VALID		GENMASK_ULL(1, 0)
#define BRBINF_VALID_TARGET	BIT_ULL(0)
#define BRBINF_VALID_SOURCE	BIT_ULL(1)
#define BRBINF_MPRED		BIT_ULL(5)
#define BRBINF_EL		GENMASK_ULL(7, 6)
#define BRBINF_TYPE		GENMASK_ULL(13, 8)
#define BRBINF_T		BIT_ULL(16)
#define BRBINF_LASTFAILED	BIT_ULL(17)
#define BRBINF_CC_MANT		GENMASK_ULL(39, 32)
#define BRBINF_CC_EXP		GENMASK_ULL(45, 40)
#define BRBINF_CCU		BIT_ULL(46)

#define BRBE_BANK_RECORDS	32

/* ---- native register access --------------------------------------- */

/*
 * The record registers are named by immediates: one case per record of
 * a bank.  An invalid record's addresses are read too (the one that
 * ends a read): one switch rather than two.
 */
#define BRBE_RAW(n)	((struct brbe_raw) {				\
		.inf = read_sysreg_s(SYS_BRBINF_EL1(n)),		\
		.src = read_sysreg_s(SYS_BRBSRC_EL1(n)),		\
		.tgt = read_sysreg_s(SYS_BRBTGT_EL1(n)),		\
	})
#define BRBE_CASE(n)	case n: *raw = BRBE_RAW(n); break

static bool brbe_native_record(int n, struct brbe_raw *raw)
{
	switch (n) {
	BRBE_CASE(0);
	BRBE_CASE(1);
	BRBE_CASE(2);
	BRBE_CASE(3);
	BRBE_CASE(4);
	BRBE_CASE(5);
	BRBE_CASE(6);
	BRBE_CASE(7);
	BRBE_CASE(8);
	BRBE_CASE(9);
	BRBE_CASE(10);
	BRBE_CASE(11);
	BRBE_CASE(12);
	BRBE_CASE(13);
	BRBE_CASE(14);
	BRBE_CASE(15);
	BRBE_CASE(16);
	BRBE_CASE(17);
	BRBE_CASE(18);
	BRBE_CASE(19);
	BRBE_CASE(20);
	BRBE_CASE(21);
	BRBE_CASE(22);
	BRBE_CASE(23);
	BRBE_CASE(24);
	BRBE_CASE(25);
	BRBE_CASE(26);
	BRBE_CASE(27);
	BRBE_CASE(28);
	BRBE_CASE(29);
	BRBE_CASE(30);
	BRBE_CASE(31);
	default:
		return false;
	}
	return raw->inf & BRBINF_VALID;
}

static void brbe_native_program(u64 cr, u64 fcr)
{
	/*
	 * At EL2 (VHE) BRBCR_EL1 names BRBCR_EL2; the guest's EL1 and EL0
	 * must not record, but FZP, CC and MPRED act from BRBCR_EL1 too.
	 */
	if (is_kernel_in_hyp_mode())
		write_sysreg_s(cr & ~(BRBCR_E0BRE | BRBCR_EXBRE),
			       SYS_BRBCR_EL12);
	write_sysreg_s(cr, SYS_BRBCR_EL1);
	/* The controls take effect before the filter register unpauses. */
	isb();
	write_sysreg_s(fcr, SYS_BRBFCR_EL1);
}

static void brbe_native_pause(void)
{
	write_sysreg_s(BRBFCR_PAUSED, SYS_BRBFCR_EL1);
	write_sysreg_s(0, SYS_BRBCR_EL1);
}

static void brbe_native_invalidate(void)
{
	/* Branches before this point are in the buffer, then gone. */
	isb();
	asm volatile(__msr_s(OP_BRB_IALL, "xzr"));
	isb();
}

static void brbe_native_select(u64 fcr)
{
	write_sysreg_s(fcr, SYS_BRBFCR_EL1);
	/* A bank change reaches the record registers only after this. */
	isb();
}

const struct brbe_hw_ops brbe_native_hw = {
	.program	= brbe_native_program,
	.pause		= brbe_native_pause,
	.invalidate	= brbe_native_invalidate,
	.select		= brbe_native_select,
	.record		= brbe_native_record,
};

/*
 * The interrupt reads up to 64 records: call the native accessor
 * directly rather than through the table where the table is native.
 */
static bool brbe_record(const struct brbe_hw_ops *hw, int n,
			struct brbe_raw *raw)
{
	if (likely(hw == &brbe_native_hw))
		return brbe_native_record(n, raw);
	return hw->record(n, raw);
}

/* ---- probe -------------------------------------------------------- */

/**
 * brbe_probe_cpu() - the branch records this CPU's BRBE keeps
 *
 * Run on a CPU of the PMU.  BRBE as the architecture has it (FEAT_BRBE
 * or BRBE_V1P1, record format 0, 20-bit cycle counts, 8 to 64 records)
 * is used; anything else is left alone.
 *
 * Return: the number of records, or 0.
 */
int brbe_probe_cpu(void)
{
	u64 dfr0 = read_sysreg_s(SYS_ID_AA64DFR0_EL1);
	unsigned int version, records;
	u64 idr;

	version = cpuid_feature_extract_unsigned_field(dfr0,
						       ID_AA64DFR0_EL1_BRBE_SHIFT);
	if (version != ID_AA64DFR0_EL1_BRBE_IMP &&
	    version != ID_AA64DFR0_EL1_BRBE_BRBE_V1P1)
		return 0;
	idr = read_sysreg_s(SYS_BRBIDR0_EL1);
	records = FIELD_GET(BRBIDR_NUMREC, idr);
	if (FIELD_GET(BRBIDR_FORMAT, idr) != 0 ||
	    FIELD_GET(BRBIDR_CC, idr) != BRBIDR_CC_20BIT ||
	    !is_power_of_2(records) || records < 8 || records > 64)
		return 0;
	return records;
}

/* ---- what an event asks for ---------------------------------------- */

#define BRBE_REFUSED	(PERF_SAMPLE_BRANCH_CALL_STACK | \
			 PERF_SAMPLE_BRANCH_IN_TX | \
			 PERF_SAMPLE_BRANCH_NO_TX | \
			 PERF_SAMPLE_BRANCH_ABORT_TX | \
			 PERF_SAMPLE_BRANCH_COUNTERS)

/* The kinds of branch BRBE can tell apart (brbe_kind_rules). */
#define BRBE_KINDS	(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_COND | \
			 PERF_SAMPLE_BRANCH_CALL | PERF_SAMPLE_BRANCH_IND_CALL | \
			 PERF_SAMPLE_BRANCH_ANY_CALL | PERF_SAMPLE_BRANCH_IND_JUMP | \
			 PERF_SAMPLE_BRANCH_ANY_RETURN)

/* Whether the event's stack includes the kernel's branches. */
static bool brbe_wants_kernel(u64 bst)
{
	return (bst & PERF_SAMPLE_BRANCH_KERNEL) ||
	       ((bst & PERF_SAMPLE_BRANCH_HV) && is_kernel_in_hyp_mode());
}

/*
 * The kinds of branch perf names (PERF_BR_*, then PERF_BR_NEW_* after
 * PERF_BR_MAX) as bits, for a stack's type filter.
 */
#define BRBE_PERF(t)		BIT_ULL(t)
#define BRBE_PERF_NEW(t)	BIT_ULL(PERF_BR_MAX + (t))
#define BRBE_PLAIN_KINDS	(BRBE_PERF(PERF_BR_COND) | \
				 BRBE_PERF(PERF_BR_UNCOND) | \
				 BRBE_PERF(PERF_BR_IND) | \
				 BRBE_PERF(PERF_BR_CALL) | \
				 BRBE_PERF(PERF_BR_IND_CALL) | \
				 BRBE_PERF(PERF_BR_RET))
#define BRBE_EXCEPTION_KINDS	(BRBE_PERF(PERF_BR_SYSCALL) | \
				 BRBE_PERF(PERF_BR_IRQ) | \
				 BRBE_PERF(PERF_BR_SERROR) | \
				 BRBE_PERF_NEW(PERF_BR_NEW_FAULT_ALGN) | \
				 BRBE_PERF_NEW(PERF_BR_NEW_FAULT_DATA) | \
				 BRBE_PERF_NEW(PERF_BR_NEW_FAULT_INST))

/*
 * The one rule for what each kind in branch_sample_type selects: the
 * hardware's filter bits (BRBFCR_EL1), the perf types a stack keeps,
 * and those it keeps too where it includes the kernel (exceptions go
 * with calls, exception returns with returns: they have a kernel end).
 */
static const struct {
	u64	perf;
	u64	fcr;
	u64	kinds;
	u64	kernel_kinds;
} brbe_kind_rules[] = {
	{ PERF_SAMPLE_BRANCH_ANY, BRBFCR_KINDS, BRBE_PLAIN_KINDS,
	  BRBE_EXCEPTION_KINDS | BRBE_PERF(PERF_BR_ERET) },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, BRBFCR_DIRCALL | BRBFCR_INDCALL,
	  BRBE_PERF(PERF_BR_CALL) | BRBE_PERF(PERF_BR_IND_CALL),
	  BRBE_EXCEPTION_KINDS },
	{ PERF_SAMPLE_BRANCH_CALL, BRBFCR_DIRCALL, BRBE_PERF(PERF_BR_CALL), 0 },
	{ PERF_SAMPLE_BRANCH_IND_CALL, BRBFCR_INDCALL,
	  BRBE_PERF(PERF_BR_IND_CALL), 0 },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, BRBFCR_RTN, BRBE_PERF(PERF_BR_RET),
	  BRBE_PERF(PERF_BR_ERET) },
	{ PERF_SAMPLE_BRANCH_COND, BRBFCR_CONDDIR, BRBE_PERF(PERF_BR_COND), 0 },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, BRBFCR_INDIRECT, BRBE_PERF(PERF_BR_IND),
	  0 },
};

/* BRBFCR_EL1's kinds of branch for branch_sample_type @bst. */
static u64 brbe_fcr_for(u64 bst)
{
	u64 fcr = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(brbe_kind_rules); i++)
		if (bst & brbe_kind_rules[i].perf)
			fcr |= brbe_kind_rules[i].fcr;
	return fcr;
}

/*
 * The perf types a stack keeps for @bst: the hardware's filter is the
 * union of every event's, this is one event's.
 */
static u64 brbe_kinds_kept(u64 bst)
{
	bool kernel = bst & PERF_SAMPLE_BRANCH_KERNEL;
	u64 kinds = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(brbe_kind_rules); i++)
		if (bst & brbe_kind_rules[i].perf)
			kinds |= brbe_kind_rules[i].kinds |
				 (kernel ? brbe_kind_rules[i].kernel_kinds : 0);
	return kinds;
}

/*
 * BRBCR_EL1 for @bst: the ELs, cycles and prediction unless refused,
 * pausing at an overflow, virtual timestamps (unused, but TS must name
 * a clock), and exceptions and exception returns where the stack keeps
 * them (brbe_kind_rules).
 */
static u64 brbe_cr_for(u64 bst)
{
	u64 cr = BRBCR_FZP | FIELD_PREP(BRBCR_TS, BRBCR_TS_VIRTUAL);
	u64 kinds = brbe_kinds_kept(bst);

	if (bst & PERF_SAMPLE_BRANCH_USER)
		cr |= BRBCR_E0BRE;
	if (brbe_wants_kernel(bst))
		cr |= BRBCR_EXBRE;
	if (!(bst & PERF_SAMPLE_BRANCH_NO_CYCLES))
		cr |= BRBCR_CC;
	if (!(bst & PERF_SAMPLE_BRANCH_NO_FLAGS))
		cr |= BRBCR_MPRED;
	if (kinds & BRBE_EXCEPTION_KINDS)
		cr |= BRBCR_EXCEPTION;
	if (kinds & BRBE_PERF(PERF_BR_ERET))
		cr |= BRBCR_ERTN;
	return cr;
}

/**
 * brbe_event_init() - check a branch-stack event and work out its filters
 * @event: the event, on a PMU with BRBE
 *
 * Keeps BRBCR in event->hw.extra_reg.config and BRBFCR in
 * event->hw.branch_reg.config, for brbe_enable().
 *
 * Return: 0, or -EOPNOTSUPP for what BRBE cannot do.
 */
int brbe_event_init(struct perf_event *event)
{
	u64 bst = event->attr.branch_sample_type;

	if ((bst & BRBE_REFUSED) || !(bst & BRBE_KINDS))
		return -EOPNOTSUPP;
	/* Branches are recorded for the host only, in user or kernel. */
	if (event->attr.exclude_host ||
	    (event->attr.exclude_user && event->attr.exclude_kernel))
		return -EOPNOTSUPP;
	event->hw.extra_reg.config = brbe_cr_for(bst);
	event->hw.branch_reg.config = brbe_fcr_for(bst);
	return 0;
}

/* ---- recording ----------------------------------------------------- */

/**
 * brbe_enable() - record the branches the CPU's branch events ask for
 * @hw: the registers
 * @cpuc: the CPU's events
 *
 * From the PMU's start, BRBE paused: empties the buffer and records the
 * union of the events' filters.
 */
void brbe_enable(const struct brbe_hw_ops *hw, struct pmu_hw_events *cpuc)
{
	u64 cr = 0, fcr = 0;
	int idx;

	for_each_set_bit(idx, cpuc->used_mask, ARMPMU_MAX_HWEVENTS) {
		struct perf_event *event = cpuc->events[idx];

		if (event && has_branch_stack(event)) {
			cr |= event->hw.extra_reg.config;
			fcr |= event->hw.branch_reg.config;
		}
	}
	hw->invalidate();
	hw->program(cr, fcr);
}

/**
 * brbe_disable() - stop recording
 * @hw: the registers
 */
void brbe_disable(const struct brbe_hw_ops *hw)
{
	hw->pause();
}

/* ---- reading ------------------------------------------------------- */

/*
 * BRBINF.TYPE to perf's type (low byte) and extended type (high byte).
 * A type perf has no name for (FIQ, debug, EL3 traps) is 0,
 * PERF_BR_UNKNOWN, which no filter keeps.
 */
#define BRBE_EXT(t)	(PERF_BR_EXTEND_ABI | (t) << 8)
static const u16 brbe_perf_types[64] = {
	[0x00] = PERF_BR_UNCOND,		/* direct */
	[0x01] = PERF_BR_IND,			/* indirect */
	[0x02] = PERF_BR_CALL,			/* direct with link */
	[0x03] = PERF_BR_IND_CALL,		/* indirect with link */
	[0x05] = PERF_BR_RET,
	[0x07] = PERF_BR_ERET,
	[0x08] = PERF_BR_COND,			/* direct conditional */
	[0x22] = PERF_BR_SYSCALL,		/* SVC, HVC, SMC */
	[0x23] = PERF_BR_IRQ,			/* a trap */
	[0x24] = PERF_BR_SERROR,
	[0x2a] = BRBE_EXT(PERF_BR_NEW_FAULT_ALGN),
	[0x2b] = BRBE_EXT(PERF_BR_NEW_FAULT_INST),
	[0x2c] = BRBE_EXT(PERF_BR_NEW_FAULT_DATA),
	[0x2e] = PERF_BR_IRQ,
};

/* A record's cycle count: 8-bit mantissa, 6-bit exponent, or unknown. */
static __always_inline u16 brbe_cycles(u64 inf)
{
	u32 mant = FIELD_GET(BRBINF_CC_MANT, inf);
	u32 exp = FIELD_GET(BRBINF_CC_EXP, inf);

	if (likely(!(inf & (BRBINF_CCU | BRBINF_CC_EXP))))
		return mant;
	if (inf & BRBINF_CCU)
		return 0;
	/* Beyond 16 bits (exponent 9 on) perf's field saturates. */
	if (exp > 8)
		return U16_MAX;
	return min_t(u32, (0x100 | mant) << (exp - 1), U16_MAX);
}

/**
 * struct brbe_want - what one event's stack keeps, worked out once a read
 * @bst: its branch_sample_type
 * @kinds: the kinds of branch (brbe_kinds_kept())
 * @user: user-space addresses
 * @kernel: the kernel's
 * @priv: perf's privilege for each BRBINF.EL
 */
struct brbe_want {
	u64	bst;
	u64	kinds;
	bool	user;
	bool	kernel;
	u8	priv[4];
};

static void brbe_want_for(u64 bst, struct brbe_want *w)
{
	bool vhe = is_kernel_in_hyp_mode();

	*w = (struct brbe_want) {
		.bst = bst,
		.kinds = brbe_kinds_kept(bst),
		.user = bst & PERF_SAMPLE_BRANCH_USER,
		.kernel = brbe_wants_kernel(bst),
		.priv = {
			PERF_BR_PRIV_USER, PERF_BR_PRIV_KERNEL,
			vhe ? PERF_BR_PRIV_KERNEL : PERF_BR_PRIV_HV,
			PERF_BR_PRIV_UNKNOWN,
		},
	};
}

/*
 * Record @raw as perf's entry @e: an address the record lacks is 0, as
 * are the flags the event declines.  A target-only record has no
 * prediction, a source-only one no EL.
 */
static __always_inline void brbe_decode(const struct brbe_raw *raw,
					const struct brbe_want *w,
					struct perf_branch_entry *e)
{
	u64 inf = raw->inf;
	u16 type = brbe_perf_types[FIELD_GET(BRBINF_TYPE, inf)];
	bool src = inf & BRBINF_VALID_SOURCE;
	bool tgt = inf & BRBINF_VALID_TARGET;
	bool flags = src && !(w->bst & PERF_SAMPLE_BRANCH_NO_FLAGS);
	bool mispred = flags && (inf & BRBINF_MPRED);

	*e = (struct perf_branch_entry) {
		.from = src ? raw->src : 0,
		.to = tgt ? raw->tgt : 0,
		.mispred = mispred,
		.predicted = flags && !mispred,
		.cycles = w->bst & PERF_SAMPLE_BRANCH_NO_CYCLES ? 0 :
			  brbe_cycles(inf),
		.type = type & 0xff,
		.new_type = type >> 8,
		.priv = tgt ? w->priv[FIELD_GET(BRBINF_EL, inf)] : 0,
	};
	if (unlikely(inf & (BRBINF_T | BRBINF_LASTFAILED)))
		pr_warn_once("BRBE reports transactions, which nothing enables\n");
}

static bool brbe_user_addr(u64 addr)
{
	return addr < TASK_SIZE_MAX;
}

/*
 * Whether entry @e belongs in the stack of an event that wants @w, with
 * the addresses of an EL the event excludes cleared.  The buffer records
 * for every event on the CPU, so it may hold more than this one asked
 * for.  A half record is kept as it is: its missing end is the EL no
 * event records.
 */
static __always_inline bool brbe_keep(struct perf_branch_entry *e,
				      const struct brbe_want *w)
{
	bool from_user, to_user;
	u64 bit = e->type == PERF_BR_EXTEND_ABI ?
		  BRBE_PERF_NEW(e->new_type) : BRBE_PERF(e->type);

	if (!(w->kinds & bit))
		return false;
	if (!e->from || !e->to)
		return true;
	from_user = brbe_user_addr(e->from);
	to_user = brbe_user_addr(e->to);
	if (likely(from_user == to_user))
		return (e->priv == PERF_BR_PRIV_USER && w->user) ||
		       (e->priv == PERF_BR_PRIV_KERNEL && w->kernel);
	/* Across ELs: keep the end the event may see. */
	if (!w->user) {
		if (from_user)
			e->from = 0;
		if (to_user)
			e->to = 0;
	}
	if (!w->kernel) {
		if (!from_user)
			e->from = 0;
		if (!to_user)
			e->to = 0;
	}
	return true;
}

/**
 * brbe_read() - an event's branch stack, youngest branch first
 * @hw: the registers
 * @event: the event whose period ended
 * @records: the records the CPU keeps
 * @stack: where to put the entries, room for @records
 *
 * BRBE is paused (the CPU paused it at the overflow, the PMU's stop
 * made sure).  Reads until the first invalid record, keeps what @event
 * asked for.
 */
void brbe_read(const struct brbe_hw_ops *hw, struct perf_event *event,
	       int records, struct perf_branch_stack *stack)
{
	struct brbe_want want;
	struct brbe_raw raw;
	int bank, n, nr = 0;

	brbe_want_for(event->attr.branch_sample_type, &want);
	for (bank = 0; bank * BRBE_BANK_RECORDS < records; bank++) {
		int in_bank = min(records - bank * BRBE_BANK_RECORDS,
				  BRBE_BANK_RECORDS);

		hw->select(BRBFCR_PAUSED | FIELD_PREP(BRBFCR_BANK, bank));
		for (n = 0; n < in_bank; n++) {
			struct perf_branch_entry *e = &stack->entries[nr];

			if (!brbe_record(hw, n, &raw))
				goto done;
			brbe_decode(&raw, &want, e);
			nr += brbe_keep(e, &want);
		}
	}
done:
	stack->nr = nr;
	stack->hw_idx = 0;
}

#if IS_ENABLED(CONFIG_KUNIT)
#include "arm_brbe_test.c"
#endif
