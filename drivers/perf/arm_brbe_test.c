// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of arm_brbe.c, included at its end so that they run the
 * driver's own functions: the filters an event's branch_sample_type
 * gives the registers, the decoding of a record (type, cycles, halves),
 * the per-event trimming of the shared buffer, and a whole read through
 * a model of the registers (banks, the first invalid record).
 */
#include <kunit/test.h>

/* ---- a model of the record registers ------------------------------- */

static struct {
	struct brbe_raw rec[64];	/* record n, youngest first */
	u64 fcr;			/* BRBFCR as last selected */
	int selects;
} brbe_model;

static void brbe_model_program(u64 cr, u64 fcr) { }
static void brbe_model_pause(void) { }
static void brbe_model_invalidate(void) { }

static void brbe_model_select(u64 fcr)
{
	brbe_model.fcr = fcr;
	brbe_model.selects++;
}

static bool brbe_model_record(int n, struct brbe_raw *raw)
{
	int i = FIELD_GET(BRBFCR_BANK, brbe_model.fcr) * BRBE_BANK_RECORDS + n;

	*raw = brbe_model.rec[i];
	return raw->inf & BRBINF_VALID;
}

static const struct brbe_hw_ops brbe_model_hw = {
	.program	= brbe_model_program,
	.pause		= brbe_model_pause,
	.invalidate	= brbe_model_invalidate,
	.select		= brbe_model_select,
	.record		= brbe_model_record,
};

#define T_USER		0x400000ULL
#define T_KERNEL	0xffff800080001000ULL

static u64 t_inf(unsigned int type, unsigned int el, u64 valid)
{
	return FIELD_PREP(BRBINF_TYPE, type) | FIELD_PREP(BRBINF_EL, el) |
	       valid | BRBINF_CCU;
}

/* ---- filters -------------------------------------------------------- */

static void brbe_test_fcr(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, brbe_fcr_for(PERF_SAMPLE_BRANCH_ANY), BRBFCR_KINDS);
	KUNIT_EXPECT_EQ(test, brbe_fcr_for(PERF_SAMPLE_BRANCH_ANY_CALL),
			BRBFCR_DIRCALL | BRBFCR_INDCALL);
	KUNIT_EXPECT_EQ(test, brbe_fcr_for(PERF_SAMPLE_BRANCH_COND |
					   PERF_SAMPLE_BRANCH_ANY_RETURN),
			BRBFCR_CONDDIR | BRBFCR_RTN);
	KUNIT_EXPECT_EQ(test, brbe_fcr_for(PERF_SAMPLE_BRANCH_IND_JUMP),
			BRBFCR_INDIRECT);
	/* never paused by an event's filter */
	KUNIT_EXPECT_EQ(test, brbe_fcr_for(PERF_SAMPLE_BRANCH_ANY) &
			BRBFCR_PAUSED, 0);
}

static void brbe_test_cr(struct kunit *test)
{
	u64 base = BRBCR_FZP | FIELD_PREP(BRBCR_TS, BRBCR_TS_VIRTUAL);
	u64 user = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	u64 both = user | PERF_SAMPLE_BRANCH_KERNEL;

	/* user only: no exceptions, whose other end is the kernel */
	KUNIT_EXPECT_EQ(test, brbe_cr_for(user),
			base | BRBCR_E0BRE | BRBCR_CC | BRBCR_MPRED);
	KUNIT_EXPECT_EQ(test, brbe_cr_for(both),
			base | BRBCR_E0BRE | BRBCR_EXBRE | BRBCR_CC |
			BRBCR_MPRED | BRBCR_EXCEPTION | BRBCR_ERTN);
	KUNIT_EXPECT_EQ(test, brbe_cr_for(user | PERF_SAMPLE_BRANCH_NO_CYCLES |
					  PERF_SAMPLE_BRANCH_NO_FLAGS),
			base | BRBCR_E0BRE);
	/* calls take exceptions along, returns exception returns */
	KUNIT_EXPECT_EQ(test, brbe_cr_for(PERF_SAMPLE_BRANCH_KERNEL |
					  PERF_SAMPLE_BRANCH_ANY_CALL) &
			(BRBCR_EXCEPTION | BRBCR_ERTN), BRBCR_EXCEPTION);
	KUNIT_EXPECT_EQ(test, brbe_cr_for(PERF_SAMPLE_BRANCH_KERNEL |
					  PERF_SAMPLE_BRANCH_ANY_RETURN) &
			(BRBCR_EXCEPTION | BRBCR_ERTN), BRBCR_ERTN);
}

static void brbe_test_refused(struct kunit *test)
{
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event),
						 GFP_KERNEL);
	static const u64 refused[] = {
		PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_USER,
		PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_IN_TX,
		PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_NO_TX,
		PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_ABORT_TX,
		PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_COUNTERS,
		PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_HW_INDEX,
	};
	int i;

	KUNIT_ASSERT_NOT_NULL(test, event);
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		event->attr.branch_sample_type = refused[i];
		KUNIT_EXPECT_EQ(test, brbe_event_init(event), -EOPNOTSUPP);
	}
	event->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					 PERF_SAMPLE_BRANCH_USER;
	event->attr.exclude_user = 1;
	event->attr.exclude_kernel = 1;
	KUNIT_EXPECT_EQ(test, brbe_event_init(event), -EOPNOTSUPP);
	event->attr.exclude_kernel = 0;
	KUNIT_EXPECT_EQ(test, brbe_event_init(event), 0);
	KUNIT_EXPECT_EQ(test, event->hw.branch_reg.config, BRBFCR_KINDS);
	KUNIT_EXPECT_TRUE(test, event->hw.extra_reg.config & BRBCR_E0BRE);
}

/* ---- decoding -------------------------------------------------------- */

static void brbe_test_cycles(struct kunit *test)
{
	u64 exact = FIELD_PREP(BRBINF_CC_MANT, 200);
	u64 scaled = FIELD_PREP(BRBINF_CC_MANT, 0x80) |
		     FIELD_PREP(BRBINF_CC_EXP, 3);

	KUNIT_EXPECT_EQ(test, brbe_cycles(exact), 200);
	/* (256 + 128) << 2 */
	KUNIT_EXPECT_EQ(test, brbe_cycles(scaled), 1536);
	KUNIT_EXPECT_EQ(test, brbe_cycles(exact | BRBINF_CCU), 0);
	KUNIT_EXPECT_EQ(test, brbe_cycles(FIELD_PREP(BRBINF_CC_MANT, 0xff) |
					  FIELD_PREP(BRBINF_CC_EXP, 8)), 0xff80);
	KUNIT_EXPECT_EQ(test, brbe_cycles(FIELD_PREP(BRBINF_CC_EXP, 9)),
			U16_MAX);
	KUNIT_EXPECT_EQ(test, brbe_cycles(FIELD_PREP(BRBINF_CC_EXP, 63)),
			U16_MAX);
}

static void brbe_test_types(struct kunit *test)
{
	static const struct {
		unsigned int brbe;
		u8 type, new_type;
	} map[] = {
		{ 0x00, PERF_BR_UNCOND, 0 }, { 0x01, PERF_BR_IND, 0 },
		{ 0x02, PERF_BR_CALL, 0 }, { 0x03, PERF_BR_IND_CALL, 0 },
		{ 0x05, PERF_BR_RET, 0 }, { 0x07, PERF_BR_ERET, 0 },
		{ 0x08, PERF_BR_COND, 0 }, { 0x22, PERF_BR_SYSCALL, 0 },
		{ 0x23, PERF_BR_IRQ, 0 }, { 0x24, PERF_BR_SERROR, 0 },
		{ 0x2e, PERF_BR_IRQ, 0 },
		{ 0x2a, PERF_BR_EXTEND_ABI, PERF_BR_NEW_FAULT_ALGN },
		{ 0x2b, PERF_BR_EXTEND_ABI, PERF_BR_NEW_FAULT_INST },
		{ 0x2c, PERF_BR_EXTEND_ABI, PERF_BR_NEW_FAULT_DATA },
		/* FIQ, debug, EL3: perf has no name */
		{ 0x2f, PERF_BR_UNKNOWN, 0 }, { 0x26, PERF_BR_UNKNOWN, 0 },
		{ 0x30, PERF_BR_UNKNOWN, 0 }, { 0x39, PERF_BR_UNKNOWN, 0 },
	};
	struct perf_branch_entry e;
	struct brbe_want w;
	struct brbe_raw raw = { .src = T_USER, .tgt = T_USER + 4 };
	int i;

	brbe_want_for(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER, &w);
	for (i = 0; i < ARRAY_SIZE(map); i++) {
		raw.inf = t_inf(map[i].brbe, 0, BRBINF_VALID);
		brbe_decode(&raw, &w, &e);
		KUNIT_EXPECT_EQ_MSG(test, (int)e.type, (int)map[i].type, "type %#x",
				    map[i].brbe);
		KUNIT_EXPECT_EQ_MSG(test, (int)e.new_type, (int)map[i].new_type,
				    "type %#x", map[i].brbe);
	}
}

/* A half record keeps its half; only a source has a prediction */
static void brbe_test_halves(struct kunit *test)
{
	struct brbe_raw src_only = {
		.inf = t_inf(0x22, 1, BRBINF_VALID_SOURCE),
		.src = T_USER, .tgt = T_KERNEL,
	};
	struct brbe_raw tgt_only = {
		.inf = t_inf(0x07, 0, BRBINF_VALID_TARGET) | BRBINF_MPRED,
		.src = T_KERNEL, .tgt = T_USER,
	};
	struct perf_branch_entry e;
	struct brbe_want w;

	brbe_want_for(PERF_SAMPLE_BRANCH_ANY, &w);
	brbe_decode(&src_only, &w, &e);
	KUNIT_EXPECT_EQ(test, e.from, T_USER);
	KUNIT_EXPECT_EQ(test, e.to, 0);
	KUNIT_EXPECT_EQ(test, (int)e.priv, PERF_BR_PRIV_UNKNOWN);
	KUNIT_EXPECT_EQ(test, (int)e.predicted, 1);

	brbe_decode(&tgt_only, &w, &e);
	KUNIT_EXPECT_EQ(test, e.from, 0);
	KUNIT_EXPECT_EQ(test, e.to, T_USER);
	KUNIT_EXPECT_EQ(test, (int)e.priv, PERF_BR_PRIV_USER);
	KUNIT_EXPECT_EQ(test, (int)e.mispred, 0);
	KUNIT_EXPECT_EQ(test, (int)e.predicted, 0);

	/* no flags asked: none given */
	tgt_only.inf |= BRBINF_VALID_SOURCE;
	brbe_want_for(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_NO_FLAGS, &w);
	brbe_decode(&tgt_only, &w, &e);
	KUNIT_EXPECT_EQ(test, (int)e.mispred, 0);
	KUNIT_EXPECT_EQ(test, (int)e.predicted, 0);
}

/* ---- trimming the shared buffer -------------------------------------- */

static bool t_keep(struct perf_branch_entry *e, u64 bst)
{
	struct brbe_want w;

	brbe_want_for(bst, &w);
	return brbe_keep(e, &w);
}

static void brbe_test_keep(struct kunit *test)
{
	u64 user = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	u64 kernel = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_KERNEL;
	struct perf_branch_entry e;

	/* the kernel's own branch: only for an event with the kernel */
	e = (struct perf_branch_entry){ .from = T_KERNEL, .to = T_KERNEL + 8,
		.type = PERF_BR_COND, .priv = PERF_BR_PRIV_KERNEL };
	KUNIT_EXPECT_FALSE(test, t_keep(&e, user));
	KUNIT_EXPECT_TRUE(test, t_keep(&e, kernel));

	/* a return to user space, for a kernel-only event: its user end hidden */
	e = (struct perf_branch_entry){ .from = T_KERNEL, .to = T_USER,
		.type = PERF_BR_ERET, .priv = PERF_BR_PRIV_USER };
	KUNIT_EXPECT_TRUE(test, t_keep(&e, kernel));
	KUNIT_EXPECT_EQ(test, e.from, T_KERNEL);
	KUNIT_EXPECT_EQ(test, e.to, 0);

	/* an exception return is no kind a user-only stack keeps */
	e = (struct perf_branch_entry){ .from = T_KERNEL, .to = T_USER,
		.type = PERF_BR_ERET, .priv = PERF_BR_PRIV_USER };
	KUNIT_EXPECT_FALSE(test, t_keep(&e, user));

	/* a call among returns-only */
	e = (struct perf_branch_entry){ .from = T_USER, .to = T_USER + 64,
		.type = PERF_BR_CALL, .priv = PERF_BR_PRIV_USER };
	KUNIT_EXPECT_FALSE(test, t_keep(&e, PERF_SAMPLE_BRANCH_USER |
				       PERF_SAMPLE_BRANCH_ANY_RETURN));
	/* a fault goes with calls where the kernel is in */
	e = (struct perf_branch_entry){ .from = T_USER, .to = T_KERNEL,
		.type = PERF_BR_EXTEND_ABI, .new_type = PERF_BR_NEW_FAULT_DATA,
		.priv = PERF_BR_PRIV_KERNEL };
	KUNIT_EXPECT_TRUE(test, t_keep(&e, PERF_SAMPLE_BRANCH_ANY_CALL |
				      PERF_SAMPLE_BRANCH_KERNEL |
				      PERF_SAMPLE_BRANCH_USER));
	KUNIT_EXPECT_EQ(test, e.from, T_USER);
	KUNIT_EXPECT_EQ(test, e.to, T_KERNEL);
	/* but not with calls of user space alone */
	KUNIT_EXPECT_FALSE(test, t_keep(&e, PERF_SAMPLE_BRANCH_ANY_CALL |
				       PERF_SAMPLE_BRANCH_USER));
}

/* ---- a whole read ----------------------------------------------------- */

static void brbe_test_read(struct kunit *test)
{
	size_t size = struct_size_t(struct perf_branch_stack, entries, 64);
	struct perf_branch_stack *stack = kunit_kzalloc(test, size, GFP_KERNEL);
	struct perf_event *event = kunit_kzalloc(test, sizeof(*event),
						 GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, stack);
	KUNIT_ASSERT_NOT_NULL(test, event);
	memset(&brbe_model, 0, sizeof(brbe_model));
	/* 40 user branches, every fourth a kernel one between them */
	for (i = 0; i < 40; i++) {
		bool k = i % 4 == 3;

		brbe_model.rec[i] = (struct brbe_raw) {
			.inf = t_inf(0x08, k, BRBINF_VALID),
			.src = (k ? T_KERNEL : T_USER) + 8 * i,
			.tgt = (k ? T_KERNEL : T_USER) + 8 * i + 4,
		};
	}
	event->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					 PERF_SAMPLE_BRANCH_USER;
	brbe_read(&brbe_model_hw, event, 64, stack);
	/* both banks, stopped at record 40; the kernel's ten trimmed */
	KUNIT_EXPECT_EQ(test, brbe_model.selects, 2);
	KUNIT_EXPECT_EQ(test, FIELD_GET(BRBFCR_BANK, brbe_model.fcr), 1);
	KUNIT_EXPECT_TRUE(test, brbe_model.fcr & BRBFCR_PAUSED);
	KUNIT_ASSERT_EQ(test, stack->nr, 30);
	KUNIT_EXPECT_EQ(test, stack->entries[0].from, T_USER);
	KUNIT_EXPECT_EQ(test, stack->entries[3].from, T_USER + 8 * 4);
	KUNIT_EXPECT_EQ(test, stack->entries[29].to, T_USER + 8 * 38 + 4);
	KUNIT_EXPECT_EQ(test, (int)stack->entries[0].type, PERF_BR_COND);
	KUNIT_EXPECT_EQ(test, stack->hw_idx, 0);

	/* an empty buffer: an empty stack, one bank looked at */
	memset(&brbe_model, 0, sizeof(brbe_model));
	brbe_read(&brbe_model_hw, event, 64, stack);
	KUNIT_EXPECT_EQ(test, stack->nr, 0);
	KUNIT_EXPECT_EQ(test, brbe_model.selects, 1);
}

static struct kunit_case brbe_test_cases[] = {
	KUNIT_CASE(brbe_test_fcr),
	KUNIT_CASE(brbe_test_cr),
	KUNIT_CASE(brbe_test_refused),
	KUNIT_CASE(brbe_test_cycles),
	KUNIT_CASE(brbe_test_types),
	KUNIT_CASE(brbe_test_halves),
	KUNIT_CASE(brbe_test_keep),
	KUNIT_CASE(brbe_test_read),
	{ }
};

static struct kunit_suite brbe_test_suite = {
	.name = "arm_brbe",
	.test_cases = brbe_test_cases,
};

kunit_test_suite(brbe_test_suite);
