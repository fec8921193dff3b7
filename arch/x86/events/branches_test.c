// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: branch records in samples (branches.c) and Intel's last branch
 * records (intel/lbr.c) against the register model of counters_test.c:
 * what a request asks the hardware for, in IA32_LBR_CTL's and
 * LBR_SELECT's bits; which requests are refused and with what; how the
 * records are read (Skylake's ring from its top, Architectural LBR from
 * record 0, both up to the first empty one) and what LBR_INFO adds;
 * recording switched on and off, DEBUGCTL's freeze where it belongs;
 * a call stack saved and put back into wiped records;
 * what one event's sample keeps of the records; and the PMI's
 * acknowledgment of LBR_FRZ, with the records read before it.
 *
 * The driver's ops run unchanged on the model; only the probe (CPUID,
 * the family tables) is replaced by the geometry each case sets.
 */

#include <kunit/test.h>
#include <linux/perf_event.h>

#include "counters.h"
#include "counters_test.h"

#define USR_IP(x)	(0x400000ULL + (x))
#define KERN_IP(x)	(0xffffffff81000000ULL + (x))

/* The PMU of the fixture with records of either kind. */
static struct x86c_pmu *lbr_pmu(struct kunit *test, bool arch)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = ctx->p;

	x86c_fake->lbr_arch = arch;
	p->lbr = (struct x86c_lbr) {
		.ops		= arch ? &x86c_arch_lbr_ops : &x86c_skl_lbr_ops,
		.nr		= FAKE_LBR,
		.can		= X86C_LBR_TYPES | X86C_LBR_USER |
				  X86C_LBR_KERNEL | X86C_LBR_CALL_STACK,
		.arch		= arch,
		.from		= arch ? M_ARCH_LBR_FROM : M_LBR_FROM,
		.to		= arch ? M_ARCH_LBR_TO : M_LBR_TO,
		.info		= arch ? M_ARCH_LBR_INFO : M_LBR_INFO,
		.has_cycles	= true,
		.has_mispred	= true,
		.has_types	= arch,
	};
	return p;
}

/* A sampling event asking for @type's branch records. */
static struct perf_event *br_event(struct kunit *test, u64 type)
{
	struct perf_event *event = fake_event(test, 0, 0, 1000);

	event->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	event->attr.branch_sample_type = type;
	return event;
}

/* event_init's answer for @type, the register value in *@config. */
static int br_config(struct kunit *test, struct x86c_pmu *p, u64 type,
		     u64 *config)
{
	struct perf_event *event = br_event(test, type);
	int err = x86c_br_config(p, event);

	*config = event->hw.branch_reg.config;
	return err;
}

#define U	PERF_SAMPLE_BRANCH_USER
#define K	PERF_SAMPLE_BRANCH_KERNEL

/*
 * IA32_LBR_CTL: OS bit 1, USR bit 2, call stack bit 3, the types from
 * bit 16 (JCC, REL_JMP, IND_JMP, REL_CALL, IND_CALL, RET, OTHER).
 */
static void br_filter_arch(struct kunit *test)
{
	struct x86c_pmu *p = lbr_pmu(test, true);
	u64 c;

	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_ANY | U, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x7f0004ULL);
	KUNIT_EXPECT_EQ(test, br_config(test, p,
					PERF_SAMPLE_BRANCH_ANY_CALL | U | K, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x580006ULL);
	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_COND |
					PERF_SAMPLE_BRANCH_ANY_RETURN | U, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x610004ULL);
	KUNIT_EXPECT_EQ(test, br_config(test, p,
					PERF_SAMPLE_BRANCH_CALL_STACK | U, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x38000cULL);
	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_IND_JUMP |
					PERF_SAMPLE_BRANCH_CALL | K, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x0c0002ULL);
}

/*
 * LBR_SELECT: bits 0 and 1 suppress what lands in ring 0 and in the
 * others, bits 2-8 each suppress a type (JCC, REL_CALL, IND_CALL, RET,
 * IND_JMP, REL_JMP, FAR); bit 9 is call-stack mode.
 */
static void br_filter_skl(struct kunit *test)
{
	struct x86c_pmu *p = lbr_pmu(test, false);
	u64 c;

	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_ANY | U, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x001ULL);
	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_ANY | K, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x002ULL);
	KUNIT_EXPECT_EQ(test, br_config(test, p,
					PERF_SAMPLE_BRANCH_ANY_CALL | U | K, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x0e4ULL);
	KUNIT_EXPECT_EQ(test, br_config(test, p,
					PERF_SAMPLE_BRANCH_CALL_STACK | U, &c), 0);
	KUNIT_EXPECT_EQ(test, c, 0x3c5ULL);
}

/* What is refused, and with upstream's errno. */
static void br_filter_refused(struct kunit *test)
{
	struct x86c_pmu *p = lbr_pmu(test, true);
	u64 c;

	/* Call-stack mode with a type filter beside it */
	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_ANY | U, &c), -EINVAL);
	/* Counter logging: no x86 records here have it */
	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_ANY |
					PERF_SAMPLE_BRANCH_COUNTERS | U, &c),
			-EINVAL);
	/* What the hardware cannot filter */
	p->lbr.can &= ~X86C_LBR_CALL_STACK;
	KUNIT_EXPECT_EQ(test, br_config(test, p,
					PERF_SAMPLE_BRANCH_CALL_STACK | U, &c),
			-EOPNOTSUPP);
	p->lbr.can &= ~(X86C_LBR_USER | X86C_LBR_KERNEL);
	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_ANY | U, &c),
			-EOPNOTSUPP);
	/* No records at all */
	p->lbr.nr = 0;
	KUNIT_EXPECT_EQ(test, br_config(test, p, PERF_SAMPLE_BRANCH_ANY | U, &c),
			-EOPNOTSUPP);
}

/*
 * Which requests need each record's kind: those that say it, and those
 * whose hardware filter records kinds they do not keep (far returns
 * come with far calls).
 */
static void br_filter_needs_kind(struct kunit *test)
{
	struct x86c_pmu *p = lbr_pmu(test, false);
	static const struct {
		u64	type;
		int	by_kind;
	} cases[] = {
		{ PERF_SAMPLE_BRANCH_ANY | U,				0 },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE | U, 1 },
		{ PERF_SAMPLE_BRANCH_ANY_CALL | U,			1 },
		{ PERF_SAMPLE_BRANCH_COND | U,				0 },
		{ PERF_SAMPLE_BRANCH_IND_CALL | PERF_SAMPLE_BRANCH_CALL | U, 0 },
		{ PERF_SAMPLE_BRANCH_CALL_STACK | U,			0 },
		{ PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_NO_TX | U, 1 },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct perf_event *event = br_event(test, cases[i].type);

		KUNIT_ASSERT_EQ(test, x86c_br_config(p, event), 0);
		KUNIT_EXPECT_EQ_MSG(test, event->hw.branch_reg.idx,
				    cases[i].by_kind, "request %#llx",
				    cases[i].type);
	}
}

/*
 * Skylake's ring: the youngest record at TOS, older ones below it,
 * wrapping; LBR_INFO's mispredict bit and cycles; the first empty
 * record ends the stack; hw_idx is the top.
 */
static void br_read_skl_ring(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = lbr_pmu(test, false);
	struct x86c_br_stack *snap = &ctx->cpu->br.snap;
	int i;

	/* Slots 1, 0, 31, 30 hold records, youngest at 1; 29 is empty. */
	x86c_fake->lbr_tos = 1;
	for (i = 0; i < 4; i++) {
		int slot = (1 - i) & (FAKE_LBR - 1);

		x86c_fake->lbr_from[slot] = USR_IP(0x10 * i);
		x86c_fake->lbr_to[slot] = USR_IP(0x10 * i + 8);
		x86c_fake->lbr_info[slot] = 10 + i;
	}
	x86c_fake->lbr_info[0] |= BIT_ULL(63);	/* the second: mispredicted */

	p->lbr.ops->read(p, ctx->cpu);
	KUNIT_ASSERT_EQ(test, snap->stack.nr, 4ULL);
	KUNIT_EXPECT_EQ(test, snap->stack.hw_idx, 1ULL);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, snap->e[i].from, USR_IP(0x10 * i));
		KUNIT_EXPECT_EQ(test, snap->e[i].to, USR_IP(0x10 * i + 8));
		KUNIT_EXPECT_EQ(test, (int)snap->e[i].cycles, 10 + i);
		KUNIT_EXPECT_EQ(test, (int)snap->e[i].mispred, i == 1);
		KUNIT_EXPECT_EQ(test, (int)snap->e[i].predicted, i != 1);
		KUNIT_EXPECT_EQ(test, ctx->cpu->br.kind[i], 0);
	}
}

/*
 * Architectural LBR: record 0 the youngest; LBR_INFO's type says the
 * kind of near branches (8, another branch, says nothing); cycles only
 * with their valid bit; the youngest at index 0.
 */
static void br_read_arch(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = lbr_pmu(test, true);
	struct x86c_br_stack *snap = &ctx->cpu->br.snap;
	static const u64 type[] = { 4, 5, 0, 8 };
	static const u16 kind[] = {
		X86C_BR_CALL, X86C_BR_RET, X86C_BR_JCC, 0,
	};
	int i;

	for (i = 0; i < 4; i++) {
		x86c_fake->lbr_from[i] = USR_IP(0x10 * i);
		x86c_fake->lbr_to[i] = USR_IP(0x10 * i + 8);
		x86c_fake->lbr_info[i] = type[i] << 56 | 7;
	}
	x86c_fake->lbr_info[0] |= BIT_ULL(60);	/* the first's count valid */

	p->lbr.ops->read(p, ctx->cpu);
	KUNIT_ASSERT_EQ(test, snap->stack.nr, 4ULL);
	KUNIT_EXPECT_EQ(test, snap->stack.hw_idx, 0ULL);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, snap->e[i].from, USR_IP(0x10 * i));
		KUNIT_EXPECT_EQ(test, ctx->cpu->br.kind[i], kind[i]);
		KUNIT_EXPECT_EQ(test, (int)snap->e[i].cycles, i ? 0 : 7);
	}
}

/*
 * Recording on and off: Skylake's LBR_SELECT and DEBUGCTL.LBR with the
 * freeze (not in call-stack mode); Architectural LBR's LBR_CTL; wiping
 * clears the records of either.
 */
static void br_enable_disable_wipe(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = lbr_pmu(test, false);
	struct x86c_cpu *cpu = ctx->cpu;

	cpu->br.config = 0x001;
	x86c_fake->debugctl = DBG_FREEZE_IN_SMM;
	x86c_br_enable(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_select, 0x001ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl,
			DBG_FREEZE_IN_SMM | DBG_LBR | DBG_FREEZE_LBRS);
	x86c_br_disable(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl,
			DBG_FREEZE_IN_SMM | DBG_FREEZE_LBRS);
	cpu->br.config = 0x3c5;
	x86c_br_enable(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl, DBG_FREEZE_IN_SMM | DBG_LBR);
	x86c_fake->lbr_from[3] = USR_IP(1);
	x86c_fake->lbr_to[3] = USR_IP(2);
	x86c_fake->lbr_info[3] = 5;
	p->lbr.ops->wipe(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_from[3], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_to[3], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_info[3], 0ULL);

	p = lbr_pmu(test, true);
	x86c_fake->debugctl = 0;
	cpu->br.config = 0x7f0004;
	x86c_br_enable(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_ctl, 0x7f0005ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->debugctl, DBG_FREEZE_LBRS);
	x86c_br_disable(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_ctl, 0ULL);
	x86c_fake->lbr_from[0] = USR_IP(1);
	p->lbr.ops->wipe(p, cpu);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_from[0], 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_depth, (u64)FAKE_LBR);
}

/*
 * A call stack saved as its task leaves, the records wiped by another
 * task, and put back as it comes in: the same records in the same
 * order, read as before (Skylake's ring with its top at the youngest,
 * Architectural LBR from record 0), up to the first empty one.
 */
static void br_save_restore(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_br_stack *snap = &ctx->cpu->br.snap;
	struct x86c_br_save *save;
	int arch, i;

	save = kunit_kzalloc(test, sizeof(*save), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, save);
	for (arch = 0; arch < 2; arch++) {
		struct x86c_pmu *p = lbr_pmu(test, arch);

		memset(x86c_fake->lbr_from, 0, sizeof(x86c_fake->lbr_from));
		x86c_fake->lbr_tos = 30;
		for (i = 0; i < 3; i++) {
			int slot = arch ? i : 30 - i;

			x86c_fake->lbr_from[slot] = USR_IP(0x100 * (i + 1));
			x86c_fake->lbr_to[slot] = USR_IP(0x100 * (i + 1) + 8);
			/* Architectural LBR's cycles need the valid bit. */
			x86c_fake->lbr_info[slot] = (i + 1) |
						    (arch ? BIT_ULL(60) : 0);
		}
		p->lbr.ops->save(p, save);
		KUNIT_ASSERT_EQ(test, save->nr, 3);
		p->lbr.ops->wipe(p, ctx->cpu);
		p->lbr.ops->read(p, ctx->cpu);
		KUNIT_EXPECT_EQ(test, snap->stack.nr, 0ULL);

		p->lbr.ops->restore(p, save);
		p->lbr.ops->read(p, ctx->cpu);
		KUNIT_ASSERT_EQ(test, snap->stack.nr, 3ULL);
		for (i = 0; i < 3; i++) {
			KUNIT_EXPECT_EQ(test, snap->e[i].from,
					USR_IP(0x100 * (i + 1)));
			KUNIT_EXPECT_EQ(test, snap->e[i].to,
					USR_IP(0x100 * (i + 1) + 8));
			KUNIT_EXPECT_EQ(test, (int)snap->e[i].cycles, i + 1);
		}
	}
}

/*
 * bpf_get_branch_snapshot()'s records: nothing where no event records
 * here; else the records as they are, as many as there is room for,
 * recording stopped for the read and on again after it.
 */
static void br_bpf_snapshot(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = lbr_pmu(test, true);
	struct perf_branch_entry e[2];
	int i;

	for (i = 0; i < 3; i++) {
		x86c_fake->lbr_from[i] = USR_IP(0x10 * (i + 1));
		x86c_fake->lbr_to[i] = USR_IP(0x10 * (i + 1) + 8);
	}
	KUNIT_EXPECT_EQ(test, x86c_br_snapshot_on(p, ctx->cpu, e, 2), 0);
	ctx->cpu->br.users = 1;
	ctx->cpu->br.config = 0x7f0004;
	KUNIT_EXPECT_EQ(test, x86c_br_snapshot_on(p, ctx->cpu, e, 2), 2);
	KUNIT_EXPECT_EQ(test, e[0].from, USR_IP(0x10));
	KUNIT_EXPECT_EQ(test, e[1].to, USR_IP(0x28));
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_ctl, 0x7f0005ULL);
}

/* The records of the snapshot a sample is taken from: kinds known. */
static void br_snap(struct x86c_cpu *cpu)
{
	static const struct {
		u64	from, to;
		u16	kind;
	} rec[] = {
		{ USR_IP(0x10), USR_IP(0x20),	X86C_BR_CALL },
		{ KERN_IP(0x30), USR_IP(0x10),	X86C_BR_SYSRET },
		{ USR_IP(0x40), USR_IP(0x50),	X86C_BR_JCC },
		{ USR_IP(0x60), USR_IP(0x70),	X86C_BR_RET },
		{ USR_IP(0x80), KERN_IP(0x90),	X86C_BR_SYSCALL },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(rec); i++) {
		cpu->br.snap.e[i] = (struct perf_branch_entry) {
			.from = rec[i].from,
			.to = rec[i].to,
			.cycles = 3,
			.predicted = 1,
		};
		cpu->br.kind[i] = rec[i].kind;
	}
	cpu->br.snap.stack.nr = ARRAY_SIZE(rec);
	cpu->br.snap.stack.hw_idx = 7;
	cpu->br.snap_valid = true;
}

/* One event's sample of the snapshot: how many records, their sources. */
static u64 br_sample(struct kunit *test, struct x86c_pmu *p, u64 type,
		     struct perf_sample_data *data)
{
	struct counters_ctx *ctx = test->priv;
	struct perf_event *event = br_event(test, type);

	KUNIT_EXPECT_EQ(test, x86c_br_config(p, event), 0);
	event->hw.branch_reg.alloc = 1;
	br_snap(ctx->cpu);
	memset(data, 0, sizeof(*data));
	x86c_br_sample(p, ctx->cpu, event, data);
	KUNIT_EXPECT_TRUE(test, data->sample_flags & PERF_SAMPLE_BRANCH_STACK);
	return data->br_stack->nr;
}

/*
 * What a sample keeps: a user-only request no record with a kernel
 * address (the return from a system call), a kernel-only one no record
 * landing in user space; calls only the call; the request's flags and
 * cycles dropped where it says so; types said where it asks.
 */
static void br_sample_keeps(struct kunit *test)
{
	struct x86c_pmu *p = lbr_pmu(test, false);
	struct perf_sample_data data;
	struct perf_branch_entry *e;

	KUNIT_ASSERT_EQ(test, br_sample(test, p, PERF_SAMPLE_BRANCH_ANY | U,
					&data), 3ULL);
	e = data.br_stack->entries;
	KUNIT_EXPECT_EQ(test, e[0].from, USR_IP(0x10));
	KUNIT_EXPECT_EQ(test, e[1].from, USR_IP(0x40));
	KUNIT_EXPECT_EQ(test, e[2].from, USR_IP(0x60));
	KUNIT_EXPECT_EQ(test, (int)e[0].type, PERF_BR_UNKNOWN);
	KUNIT_EXPECT_EQ(test, (int)e[0].cycles, 3);
	KUNIT_EXPECT_EQ(test, data.br_stack->hw_idx, 7ULL);

	KUNIT_ASSERT_EQ(test, br_sample(test, p, PERF_SAMPLE_BRANCH_ANY | K,
					&data), 1ULL);
	KUNIT_EXPECT_EQ(test, data.br_stack->entries[0].to, KERN_IP(0x90));

	KUNIT_ASSERT_EQ(test, br_sample(test, p, PERF_SAMPLE_BRANCH_ANY_CALL |
					U | K, &data), 2ULL);
	e = data.br_stack->entries;
	KUNIT_EXPECT_EQ(test, e[0].from, USR_IP(0x10));
	KUNIT_EXPECT_EQ(test, e[1].from, USR_IP(0x80));

	KUNIT_ASSERT_EQ(test, br_sample(test, p, PERF_SAMPLE_BRANCH_ANY |
					PERF_SAMPLE_BRANCH_TYPE_SAVE |
					PERF_SAMPLE_BRANCH_NO_CYCLES |
					PERF_SAMPLE_BRANCH_NO_FLAGS | U | K,
					&data), 5ULL);
	e = data.br_stack->entries;
	KUNIT_EXPECT_EQ(test, (int)e[0].type, PERF_BR_CALL);
	KUNIT_EXPECT_EQ(test, (int)e[1].type, PERF_BR_SYSRET);
	KUNIT_EXPECT_EQ(test, (int)e[2].type, PERF_BR_COND);
	KUNIT_EXPECT_EQ(test, (int)e[3].type, PERF_BR_RET);
	KUNIT_EXPECT_EQ(test, (int)e[4].type, PERF_BR_SYSCALL);
	KUNIT_EXPECT_EQ(test, (int)e[0].cycles, 0);
	KUNIT_EXPECT_EQ(test, (int)e[0].predicted, 0);
}

/*
 * The PMI on perfmon v4 with the records frozen: LBR_FRZ is
 * acknowledged with the overflow, and counts as no overflow of its own.
 */
static void br_pmi_acks_lbr_frz(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = lbr_pmu(test, true);

	p->status_extra = STATUS_LBR_FRZ;
	x86c_fake->lbr_frz = true;
	ctx->cpu->nr = 1;
	x86c_fake->global_status = STATUS_LBR_FRZ | BIT_ULL(1);
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, ctx->cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, 0ULL);
}

/*
 * A PMI whose status says the records froze, with an overflowed event
 * that asks for them: they are read before the acknowledgment lets them
 * go on (the model then records the handler's branch), and nothing stops
 * or restarts recording.  Where the status shows no freeze (call-stack
 * mode keeps it off) recording stops for the handler and starts again.
 */
static void br_pmi_reads_frozen_records(struct kunit *test)
{
	struct counters_ctx *ctx = test->priv;
	struct x86c_pmu *p = lbr_pmu(test, true);
	struct x86c_cpu *cpu = ctx->cpu;
	struct perf_event *event;
	int i;

	p->lbr.frozen_status = STATUS_LBR_FRZ;
	p->status_extra = STATUS_LBR_FRZ;
	x86c_fake->lbr_frz = true;
	event = fake_running(test, 1, EVTSEL_USR | EVTSEL_INT | 0xc4, 100);
	event->attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	event->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | U;
	for (i = 0; i < 4; i++) {
		x86c_fake->lbr_from[i] = USR_IP(0x10 * (i + 1));
		x86c_fake->lbr_to[i] = USR_IP(0x10 * (i + 1) + 8);
	}
	cpu->br.users = 1;
	cpu->br.config = 0x7f0004;
	x86c_fake->lbr_ctl = cpu->br.config | BIT_ULL(0);
	x86c_fake->debugctl = DBG_FREEZE_LBRS;
	x86c_fake->rec_ctl_writes = 0;

	fake_count(1, 100);
	x86c_fake->global_status |= STATUS_LBR_FRZ;
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->global_status, 0ULL);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_from[0], FAKE_HANDLER_BRANCH);
	KUNIT_ASSERT_EQ(test, cpu->br.snap.stack.nr, 4ULL);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, cpu->br.snap.e[i].from,
				USR_IP(0x10 * (i + 1)));
	KUNIT_EXPECT_FALSE(test, cpu->br.snap_valid);
	KUNIT_EXPECT_EQ(test, x86c_fake->rec_ctl_writes, 0);

	cpu->br.config = 0x38000c;
	x86c_fake->lbr_ctl = cpu->br.config | BIT_ULL(0);
	x86c_fake->debugctl = 0;
	fake_count(1, 100);
	KUNIT_EXPECT_EQ(test, x86c_handle_pmi(p, cpu, NULL), 1);
	KUNIT_EXPECT_EQ(test, x86c_fake->rec_ctl_writes, 2);
	KUNIT_EXPECT_EQ(test, x86c_fake->lbr_ctl, cpu->br.config | BIT_ULL(0));
	KUNIT_EXPECT_FALSE(test, cpu->br.snap_valid);
}

static struct kunit_case branches_cases[] = {
	KUNIT_CASE(br_filter_arch),
	KUNIT_CASE(br_filter_skl),
	KUNIT_CASE(br_filter_refused),
	KUNIT_CASE(br_filter_needs_kind),
	KUNIT_CASE(br_read_skl_ring),
	KUNIT_CASE(br_read_arch),
	KUNIT_CASE(br_enable_disable_wipe),
	KUNIT_CASE(br_save_restore),
	KUNIT_CASE(br_bpf_snapshot),
	KUNIT_CASE(br_sample_keeps),
	KUNIT_CASE(br_pmi_acks_lbr_frz),
	KUNIT_CASE(br_pmi_reads_frozen_records),
	{}
};

static struct kunit_suite branches_suite = {
	.name = "perfcore_x86_branches",
	.init = counters_test_init,
	.exit = counters_test_exit,
	.test_cases = branches_cases,
};

kunit_test_suite(branches_suite);
