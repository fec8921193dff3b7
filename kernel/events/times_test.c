// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for perfcore's time accounting (times.c).
 *
 * The scenario tests drive a small world: two context clocks and a group
 * of a leader and one member, scripted step by step with raw timestamps,
 * and compare against totals worked out by hand.  The random test runs
 * long scripts against a reference that integrates every interval
 * directly from the states, without any of the folding logic.
 */
#include <kunit/test.h>
#include <linux/module.h>
#include <linux/string.h>

#include "times.h"

#define OFF	PERF_EVENT_STATE_OFF
#define INACT	PERF_EVENT_STATE_INACTIVE
#define ACT	PERF_EVENT_STATE_ACTIVE
#define ERR	PERF_EVENT_STATE_ERROR

/* The scripted world: two clocks, one group, on clock @cur. */
struct tt_world {
	struct perf_tclock	clk[2];
	int			cur;
	enum perf_event_state	state[2];	/* [0] leader, [1] member */
	struct perf_times	times[2];
};

enum tt_op {
	TT_END,
	TT_IN,		/* schedule the group's context clock in */
	TT_OUT,		/* ... and out */
	TT_LEADER,	/* leader takes state @a */
	TT_MEMBER,	/* member takes state @a */
	TT_MOVE,	/* move the group to the other clock */
	TT_OTHER_IN,	/* start the clock the group is not on */
	TT_CHECK,	/* event @a reads enabled @e, running @r */
};

struct tt_step {
	enum tt_op	op;
	u64		now;
	int		a;
	u64		e;
	u64		r;
};

struct tt_case {
	const char		*name;
	const struct tt_step	*steps;
};

static u64 tt_clock_now(struct tt_world *w, u64 now)
{
	return perf_tclock_read(&w->clk[w->cur], now);
}

/*
 * Move an event to the other clock as the core does when it unlinks it
 * from one context and links it into another, in the same state.
 */
static void tt_move_times(struct perf_times *pt, u64 old_now, u64 new_now)
{
	enum perf_times_mode mode = pt->mode;

	perf_times_detach(pt, old_now);
	perf_times_attach(pt, new_now, mode);
}

/*
 * The totals at clock time @clock_now, through the reader the core uses:
 * a stopped clock reads exactly its time.
 */
static void tt_read(const struct perf_times *pt, u64 clock_now,
		    u64 *en, u64 *run)
{
	struct perf_tclock at;

	perf_tclock_init(&at);
	at.time = clock_now;
	perf_times_read_lockless(pt, &at, 0, en, run);
}

/* Re-derive both modes after a state change, as the core has to. */
static void tt_apply_states(struct tt_world *w, u64 now)
{
	u64 cnow = tt_clock_now(w, now);
	int i;

	for (i = 0; i < 2; i++)
		perf_times_set_mode(&w->times[i], cnow,
				    perf_times_mode_for(w->state[0], w->state[i]));
}

static void tt_world_init(struct tt_world *w)
{
	int i;

	memset(w, 0, sizeof(*w));
	perf_tclock_init(&w->clk[0]);
	perf_tclock_init(&w->clk[1]);
	for (i = 0; i < 2; i++) {
		w->state[i] = OFF;
		perf_times_init(&w->times[i], 0, PERF_TIMES_OFF);
	}
}

static void tt_run(struct kunit *test, const struct tt_step *s)
{
	struct tt_world w;
	u64 en, run;

	tt_world_init(&w);
	for (; s->op != TT_END; s++) {
		switch (s->op) {
		case TT_IN:
			perf_tclock_start(&w.clk[w.cur], s->now);
			break;
		case TT_OUT:
			perf_tclock_stop(&w.clk[w.cur], s->now);
			break;
		case TT_LEADER:
			w.state[0] = s->a;
			tt_apply_states(&w, s->now);
			break;
		case TT_MEMBER:
			w.state[1] = s->a;
			tt_apply_states(&w, s->now);
			break;
		case TT_MOVE: {
			u64 old_now = tt_clock_now(&w, s->now);
			u64 new_now = perf_tclock_read(&w.clk[!w.cur], s->now);

			tt_move_times(&w.times[0], old_now, new_now);
			tt_move_times(&w.times[1], old_now, new_now);
			w.cur = !w.cur;
			break;
		}
		case TT_OTHER_IN:
			perf_tclock_start(&w.clk[!w.cur], s->now);
			break;
		case TT_CHECK:
			tt_read(&w.times[s->a], tt_clock_now(&w, s->now),
				&en, &run);
			KUNIT_EXPECT_EQ_MSG(test, en, s->e, "enabled, event %d at %llu",
					    s->a, s->now);
			KUNIT_EXPECT_EQ_MSG(test, run, s->r, "running, event %d at %llu",
					    s->a, s->now);
			break;
		default:
			KUNIT_FAIL(test, "bad op %d", s->op);
			return;
		}
	}
}

/* Enabled at 100 in a context scheduled in at 200, on the PMU 300..500. */
static const struct tt_step tt_basic[] = {
	{ TT_LEADER, 100, INACT },
	{ TT_CHECK, 150, 0, 0, 0 },
	{ TT_IN, 200 },
	{ TT_CHECK, 250, 0, 50, 0 },
	{ TT_LEADER, 300, ACT },
	{ TT_CHECK, 400, 0, 200, 100 },
	{ TT_LEADER, 500, INACT },
	{ TT_CHECK, 600, 0, 400, 200 },
	{ TT_LEADER, 700, OFF },
	{ TT_CHECK, 1000, 0, 500, 200 },
	{ TT_END }
};

/* The context clock stands still while the context is out. */
static const struct tt_step tt_sched[] = {
	{ TT_IN, 0 },
	{ TT_LEADER, 10, ACT },
	{ TT_LEADER, 30, INACT },	/* sched out: event first, ... */
	{ TT_OUT, 30 },			/* ... then the context clock */
	{ TT_CHECK, 90, 0, 20, 20 },
	{ TT_IN, 100 },
	{ TT_LEADER, 100, ACT },
	{ TT_CHECK, 150, 0, 70, 70 },
	{ TT_LEADER, 160, INACT },	/* rotated off the PMU */
	{ TT_CHECK, 200, 0, 120, 80 },
	{ TT_OUT, 250 },
	{ TT_CHECK, 10000, 0, 170, 80 },
	{ TT_IN, 20000 },
	{ TT_CHECK, 20005, 0, 175, 80 },
	{ TT_END }
};

/* Disable and re-enable while the context stays in. */
static const struct tt_step tt_toggle[] = {
	{ TT_IN, 1000 },
	{ TT_LEADER, 1000, ACT },
	{ TT_LEADER, 1100, OFF },
	{ TT_LEADER, 1200, INACT },
	{ TT_LEADER, 1250, ACT },
	{ TT_LEADER, 1300, ERR },
	{ TT_CHECK, 1400, 0, 200, 150 },
	{ TT_LEADER, 1500, INACT },
	{ TT_CHECK, 1600, 0, 300, 150 },
	{ TT_END }
};

/* A member accumulates nothing while its leader is off. */
static const struct tt_step tt_leader_cap[] = {
	{ TT_IN, 0 },
	{ TT_MEMBER, 0, INACT },	/* leader still OFF */
	{ TT_CHECK, 100, 1, 0, 0 },
	{ TT_LEADER, 100, INACT },
	{ TT_CHECK, 150, 1, 50, 0 },
	{ TT_LEADER, 200, ACT },
	{ TT_MEMBER, 200, ACT },
	{ TT_CHECK, 250, 1, 150, 50 },
	{ TT_LEADER, 300, OFF },	/* member keeps ACT, capped */
	{ TT_CHECK, 400, 1, 200, 100 },
	{ TT_CHECK, 400, 0, 200, 100 },
	{ TT_LEADER, 500, ACT },	/* member counts again */
	{ TT_CHECK, 600, 1, 300, 200 },
	{ TT_LEADER, 600, ERR },
	{ TT_CHECK, 700, 1, 300, 200 },
	{ TT_END }
};

/* Moving keeps the totals; the clocks have unrelated time bases. */
static const struct tt_step tt_move[] = {
	{ TT_OTHER_IN, 0 },		/* clock 1 runs from 0 */
	{ TT_IN, 5000 },		/* clock 0 from 5000 */
	{ TT_LEADER, 5000, ACT },
	{ TT_MEMBER, 5000, INACT },
	{ TT_CHECK, 5100, 0, 100, 100 },
	{ TT_MOVE, 5200 },		/* clock 1 reads 5200 here */
	{ TT_CHECK, 5200, 0, 200, 200 },
	{ TT_CHECK, 5200, 1, 200, 0 },
	{ TT_CHECK, 5300, 0, 300, 300 },
	{ TT_OUT, 5400 },		/* stops clock 1 */
	{ TT_CHECK, 9000, 0, 400, 400 },
	{ TT_MOVE, 9000 },		/* back onto clock 0, still running */
	{ TT_CHECK, 9100, 0, 500, 500 },
	{ TT_CHECK, 9100, 1, 500, 0 },
	{ TT_END }
};

static const struct tt_case tt_cases[] = {
	{ "basic", tt_basic },
	{ "sched", tt_sched },
	{ "toggle", tt_toggle },
	{ "leader_cap", tt_leader_cap },
	{ "move", tt_move },
};

static void tt_case_desc(const struct tt_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(tt_scenario, tt_cases, tt_case_desc);

static void times_scenario_test(struct kunit *test)
{
	const struct tt_case *c = test->param_value;

	tt_run(test, c->steps);
}

static void times_mode_for_test(struct kunit *test)
{
	static const struct {
		enum perf_event_state leader, state;
		enum perf_times_mode mode;
	} t[] = {
		{ ACT, ACT, PERF_TIMES_RUNNING },
		{ ACT, INACT, PERF_TIMES_ENABLED },
		{ ACT, OFF, PERF_TIMES_OFF },
		{ ACT, ERR, PERF_TIMES_OFF },
		{ INACT, ACT, PERF_TIMES_RUNNING },
		{ INACT, INACT, PERF_TIMES_ENABLED },
		{ OFF, ACT, PERF_TIMES_OFF },
		{ OFF, INACT, PERF_TIMES_OFF },
		{ ERR, INACT, PERF_TIMES_OFF },
		{ PERF_EVENT_STATE_EXIT, ACT, PERF_TIMES_OFF },
		{ PERF_EVENT_STATE_DEAD, INACT, PERF_TIMES_OFF },
		{ ACT, PERF_EVENT_STATE_EXIT, PERF_TIMES_OFF },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		KUNIT_EXPECT_EQ_MSG(test, perf_times_mode_for(t[i].leader, t[i].state),
				    t[i].mode, "case %d", i);
}

static void times_clock_test(struct kunit *test)
{
	struct perf_tclock c;

	perf_tclock_init(&c);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 1000), 0);
	KUNIT_EXPECT_EQ(test, perf_tclock_read_lockless(&c, 1000), 0);
	perf_tclock_start(&c, 1000);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 1500), 500);
	KUNIT_EXPECT_EQ(test, perf_tclock_read_lockless(&c, 1500), 500);
	perf_tclock_update(&c, 1200);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 1500), 500);
	/* Starting a running clock must not lose the time so far. */
	perf_tclock_start(&c, 1300);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 1300), 300);
	perf_tclock_stop(&c, 2000);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 9000), 1000);
	KUNIT_EXPECT_EQ(test, perf_tclock_read_lockless(&c, 9000), 1000);
	perf_tclock_stop(&c, 9500);
	perf_tclock_update(&c, 9600);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 9700), 1000);
	perf_tclock_start(&c, 10000);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 10001), 1001);
	KUNIT_EXPECT_EQ(test, perf_tclock_read_lockless(&c, 10001), 1001);
	/* A raw timestamp from behind must not make the clock jump. */
	perf_tclock_update(&c, 9990);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 10000), 1000);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, 10010), 1010);
}

/* Clock values near the top of u64 must wrap like the raw clock does. */
static void times_wrap_test(struct kunit *test)
{
	struct perf_tclock c;
	struct perf_times pt;
	u64 base = U64_MAX - 50, en, run;

	perf_tclock_init(&c);
	perf_tclock_start(&c, base);
	perf_times_init(&pt, perf_tclock_read(&c, base), PERF_TIMES_RUNNING);
	KUNIT_EXPECT_EQ(test, perf_tclock_read(&c, base + 100), 100);
	KUNIT_EXPECT_EQ(test, perf_tclock_read_lockless(&c, base + 100), 100);
	perf_times_read_lockless(&pt, &c, base + 100, &en, &run);
	KUNIT_EXPECT_EQ(test, en, 100);
	KUNIT_EXPECT_EQ(test, run, 100);
}

/* A deterministic PRNG (xorshift64*), so failures reproduce exactly. */
static u64 tt_rand(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

static const enum perf_event_state tt_states[] = { ERR, OFF, INACT, ACT };

static void times_read_pure_test(struct kunit *test)
{
	u64 seed = 0x5eed0001;
	int i;

	for (i = 0; i < 500; i++) {
		struct perf_times pt, folded;
		u64 stamp = tt_rand(&seed) >> 8;
		u64 now = stamp + (tt_rand(&seed) % 100000);
		u64 en, run;

		perf_times_init(&pt, 0, PERF_TIMES_OFF);
		pt.enabled = tt_rand(&seed) >> 20;
		pt.running = pt.enabled / 2;
		pt.stamp = stamp;
		pt.mode = perf_times_mode_for(tt_states[tt_rand(&seed) % 4],
					      tt_states[tt_rand(&seed) % 4]);
		folded = pt;
		tt_read(&pt, now, &en, &run);
		KUNIT_EXPECT_EQ(test, pt.enabled, folded.enabled);
		KUNIT_EXPECT_EQ(test, pt.running, folded.running);
		KUNIT_EXPECT_EQ(test, pt.stamp, folded.stamp);
		KUNIT_EXPECT_EQ(test, pt.mode, folded.mode);

		perf_times_fold(&folded, now);
		KUNIT_EXPECT_EQ(test, en, folded.enabled);
		KUNIT_EXPECT_EQ(test, run, folded.running);
		KUNIT_EXPECT_EQ(test, folded.stamp, now);
	}
}

/*
 * What userspace does with the user page (see the uapi comment on
 * struct perf_event_mmap_page): delta = time_offset + its clock in ns,
 * added to time_enabled, and to time_running if index is set.  The arch
 * code sets time_offset to its time zero minus @now.
 */
static void tt_user_extrapolate(const struct perf_event_mmap_page *pg,
				u64 zero, u64 user_now, u64 *en, u64 *run)
{
	u64 delta = pg->time_offset + (user_now - zero);

	*en = pg->time_enabled + delta;
	*run = pg->time_running + (pg->index ? delta : 0);
}

static void times_userpage_test(struct kunit *test)
{
	static const u64 fill_at[] = { 0, 1, 12345, 1ULL << 40 };
	static const u64 later[] = { 0, 1, 777, 1000000007 };
	struct perf_event_mmap_page *pg;
	u64 zero = 0x1234567890ULL;
	int m, i, j;

	pg = kunit_kzalloc(test, sizeof(*pg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pg);

	for (m = 0; m < 2; m++) {
		enum perf_times_mode mode = m ? PERF_TIMES_RUNNING : PERF_TIMES_ENABLED;

		for (i = 0; i < ARRAY_SIZE(fill_at); i++) {
			struct perf_tclock c;
			struct perf_times pt;
			u64 start = 5000 + fill_at[i] / 3;
			u64 now = 5000 + fill_at[i];
			u64 en, run, uen, urun;

			perf_tclock_init(&c);
			perf_tclock_start(&c, 1000);
			perf_times_init(&pt, perf_tclock_read(&c, start), mode);
			pt.enabled = 1111;
			pt.running = 333;

			memset(pg, 0, sizeof(*pg));
			perf_times_fill_userpage(&pt, &c, now, 7, 3, pg);
			pg->index = mode == PERF_TIMES_RUNNING;
			pg->time_offset = zero - now;

			for (j = 0; j < ARRAY_SIZE(later); j++) {
				u64 t = now + later[j];

				tt_read(&pt, perf_tclock_read(&c, t), &en, &run);
				tt_user_extrapolate(pg, zero, t, &uen, &urun);
				KUNIT_EXPECT_EQ(test, uen, en + 7);
				KUNIT_EXPECT_EQ(test, urun, run + 3);
			}
		}
	}
}

/*
 * Random scripts: the world above, plus a reference that adds each
 * interval to the totals of events whose effective state lets it, and
 * readers (locked, lockless, user page) that must agree with it and never
 * go backwards.
 */
struct tt_ref {
	bool	in[2];
	u64	en[2];
	u64	run[2];
	u64	last_en[2];
	u64	last_run[2];
};

static void tt_ref_advance(struct tt_world *w, struct tt_ref *ref, u64 d)
{
	int i;

	if (!ref->in[w->cur])
		return;
	for (i = 0; i < 2; i++) {
		if (w->state[0] < INACT || w->state[i] < INACT)
			continue;
		ref->en[i] += d;
		if (w->state[i] == ACT)
			ref->run[i] += d;
	}
}

static void tt_random_one(struct kunit *test, u64 seed,
			  struct perf_event_mmap_page *pg)
{
	struct tt_world w;
	struct tt_ref ref;
	u64 now = tt_rand(&seed) >> 4;
	int step, i;

	tt_world_init(&w);
	memset(&ref, 0, sizeof(ref));

	for (step = 0; step < 2000; step++) {
		u64 r = tt_rand(&seed);
		u64 d = (r >> 32) % 1000;
		u64 cnow;

		tt_ref_advance(&w, &ref, d);
		now += d;

		switch (r % 8) {
		case 0:
		case 1:
			w.state[r % 8] = tt_states[(r >> 8) % 4];
			tt_apply_states(&w, now);
			break;
		case 2:
			perf_tclock_start(&w.clk[w.cur], now);
			ref.in[w.cur] = true;
			break;
		case 3:
			perf_tclock_stop(&w.clk[w.cur], now);
			ref.in[w.cur] = false;
			break;
		case 4:
			perf_tclock_update(&w.clk[(r >> 8) & 1], now);
			break;
		case 5: {
			int other = !w.cur;

			if ((r >> 8) & 1) {
				perf_tclock_start(&w.clk[other], now);
				ref.in[other] = true;
			} else {
				perf_tclock_stop(&w.clk[other], now);
				ref.in[other] = false;
			}
			break;
		}
		case 6: {
			u64 o = tt_clock_now(&w, now);
			u64 n = perf_tclock_read(&w.clk[!w.cur], now);

			tt_move_times(&w.times[0], o, n);
			tt_move_times(&w.times[1], o, n);
			w.cur = !w.cur;
			break;
		}
		default:
			perf_times_fold(&w.times[(r >> 8) & 1], tt_clock_now(&w, now));
			break;
		}

		cnow = tt_clock_now(&w, now);
		KUNIT_ASSERT_EQ(test, perf_tclock_read_lockless(&w.clk[w.cur], now),
				cnow);
		for (i = 0; i < 2; i++) {
			u64 en, run, len, lrun;

			tt_read(&w.times[i], cnow, &en, &run);
			perf_times_read_lockless(&w.times[i], &w.clk[w.cur], now,
						 &len, &lrun);
			perf_times_fill_userpage(&w.times[i], &w.clk[w.cur], now,
						 0, 0, pg);
			KUNIT_ASSERT_EQ_MSG(test, en, ref.en[i],
					    "seed %llx step %d event %d", seed, step, i);
			KUNIT_ASSERT_EQ_MSG(test, run, ref.run[i],
					    "seed %llx step %d event %d", seed, step, i);
			KUNIT_ASSERT_EQ(test, len, en);
			KUNIT_ASSERT_EQ(test, lrun, run);
			KUNIT_ASSERT_EQ(test, pg->time_enabled, en);
			KUNIT_ASSERT_EQ(test, pg->time_running, run);
			KUNIT_ASSERT_GE(test, en, ref.last_en[i]);
			KUNIT_ASSERT_GE(test, run, ref.last_run[i]);
			KUNIT_ASSERT_LE(test, run, en);
			ref.last_en[i] = en;
			ref.last_run[i] = run;
		}
	}
}

static void times_random_test(struct kunit *test)
{
	struct perf_event_mmap_page *pg;
	u64 seed;

	pg = kunit_kzalloc(test, sizeof(*pg), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pg);
	for (seed = 1; seed <= 16; seed++)
		tt_random_one(test, seed * 0x9e3779b97f4a7c15ULL, pg);
}

static struct kunit_case perfcore_times_cases[] = {
	KUNIT_CASE_PARAM(times_scenario_test, tt_scenario_gen_params),
	KUNIT_CASE(times_mode_for_test),
	KUNIT_CASE(times_clock_test),
	KUNIT_CASE(times_wrap_test),
	KUNIT_CASE(times_read_pure_test),
	KUNIT_CASE(times_userpage_test),
	KUNIT_CASE(times_random_test),
	{}
};

static struct kunit_suite perfcore_times_suite = {
	.name = "perfcore_times",
	.test_cases = perfcore_times_cases,
};

kunit_test_suite(perfcore_times_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore event time accounting");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
