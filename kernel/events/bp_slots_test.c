// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for perfcore's debug-register accounting (hw_breakpoint.c),
 * through the public API, on every architecture.
 *
 * Upstream's hw_breakpoint suite puts task breakpoints on kernel data,
 * which arm64 refuses for task breakpoints, so these cases use a user
 * address instead: nothing touches it while the tests run at boot, and
 * every architecture accepts it for task and CPU breakpoints alike.
 *
 * The rule under test (see hw_breakpoint.c): a breakpoint fits if, on
 * each CPU it can run on, the CPU-bound breakpoints there plus one task's
 * breakpoints that can run there leave it a register.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/hw_breakpoint.h>
#include <linux/kthread.h>
#include <linux/perf_event.h>
#include <linux/sched.h>

#define BPS_USER_ADDR	0x10000UL
#define BPS_MAX		64

struct bps_world {
	struct perf_event	*bp[BPS_MAX];
	int			nr;
	struct task_struct	*other;		/* a second task, never run */
	int			cpu0, cpu1;
	int			slots;		/* data watchpoint registers */
};

/* Create a data watchpoint on @cpu (-1: any) for @task (NULL: CPU-bound). */
static struct perf_event *bps_make(int cpu, struct task_struct *task)
{
	struct perf_event_attr attr;

	hw_breakpoint_init(&attr);
	attr.bp_addr = BPS_USER_ADDR;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_W;
	return perf_event_create_kernel_counter(&attr, cpu, task, NULL, NULL);
}

/* Expect @n more watchpoints to fit, keeping them. */
static void bps_fill(struct kunit *test, int n, int cpu, struct task_struct *task)
{
	struct bps_world *w = test->priv;
	struct perf_event *bp;

	while (n--) {
		KUNIT_ASSERT_LT(test, w->nr, BPS_MAX);
		bp = bps_make(cpu, task);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(bp), "cpu %d task %s: %d",
				       cpu, task ? task->comm : "-",
				       PTR_ERR_OR_ZERO(bp));
		w->bp[w->nr++] = bp;
	}
}

/* Expect one more watchpoint not to fit. */
static void bps_full(struct kunit *test, int cpu, struct task_struct *task)
{
	struct perf_event *bp = bps_make(cpu, task);

	if (!IS_ERR(bp))
		perf_event_release_kernel(bp);
	KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(bp), -ENOSPC,
			    "cpu %d task %s", cpu, task ? task->comm : "-");
}

/* Release the most recently made watchpoint. */
static void bps_drop_last(struct kunit *test)
{
	struct bps_world *w = test->priv;

	KUNIT_ASSERT_GT(test, w->nr, 0);
	perf_event_release_kernel(w->bp[--w->nr]);
}

static int bps_idle(void *unused)
{
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

static int bps_init(struct kunit *test)
{
	struct bps_world *w;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	if (hw_breakpoint_is_used())
		kunit_skip(test, "breakpoints already in use");

	w = kunit_kzalloc(test, sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->slots = hw_breakpoint_slots(TYPE_DATA);
	if (w->slots < 1 || w->slots > BPS_MAX / 4)
		kunit_skip(test, "%d watchpoint registers", w->slots);
	w->cpu0 = cpumask_first(cpu_online_mask);
	w->cpu1 = cpumask_next(w->cpu0, cpu_online_mask);
	w->other = kthread_create(bps_idle, NULL, "perfcore_bps");
	if (IS_ERR(w->other))
		return PTR_ERR(w->other);
	test->priv = w;
	return 0;
}

static void bps_exit(struct kunit *test)
{
	struct bps_world *w = test->priv;

	if (!w)
		return;
	while (w->nr)
		perf_event_release_kernel(w->bp[--w->nr]);
	kthread_stop(w->other);
	/* Everything given back: the accounting agrees. */
	KUNIT_EXPECT_FALSE(test, hw_breakpoint_is_used());
}

static void bps_cpu_bound_test(struct kunit *test)
{
	struct bps_world *w = test->priv;

	bps_fill(test, w->slots, w->cpu0, NULL);
	bps_full(test, w->cpu0, NULL);
	/* The registers are per CPU. */
	bps_fill(test, 1, w->cpu1, NULL);
	/* Nothing a task could use is left on cpu0. */
	bps_full(test, w->cpu0, current);
	bps_full(test, -1, current);
	bps_fill(test, w->slots - 1, w->cpu1, current);
	bps_full(test, w->cpu1, current);
}

static void bps_task_any_cpu_test(struct kunit *test)
{
	struct bps_world *w = test->priv;

	bps_fill(test, w->slots, -1, current);
	bps_full(test, -1, current);
	bps_full(test, w->cpu0, current);
	/* The busiest task leaves CPU-bound breakpoints nothing. */
	bps_full(test, w->cpu1, NULL);
	/* Another task never runs at the same time on the same CPU. */
	bps_fill(test, w->slots, -1, w->other);
	bps_full(test, w->cpu0, w->other);
	/* Giving one back frees it for its own task only... */
	bps_drop_last(test);
	bps_full(test, w->cpu0, NULL);
	bps_fill(test, 1, w->cpu0, w->other);
}

static void bps_task_one_cpu_test(struct kunit *test)
{
	struct bps_world *w = test->priv;

	bps_fill(test, w->slots, w->cpu0, current);
	bps_full(test, w->cpu0, current);
	bps_full(test, -1, current);
	bps_full(test, w->cpu0, NULL);
	/* The other CPU is untouched, for this task and for CPU-bound ones. */
	bps_fill(test, w->slots - 1, w->cpu1, current);
	bps_fill(test, 1, w->cpu1, NULL);
	bps_full(test, w->cpu1, current);
	bps_full(test, w->cpu1, NULL);
}

static void bps_mixed_test(struct kunit *test)
{
	struct bps_world *w = test->priv;

	if (w->slots < 3)
		kunit_skip(test, "needs three watchpoint registers");

	bps_fill(test, 1, w->cpu0, NULL);
	bps_fill(test, w->slots - 2, -1, current);
	bps_fill(test, 1, w->cpu1, current);
	/* cpu0: one CPU-bound plus slots-2 of the busiest task: one left. */
	bps_fill(test, 1, w->cpu0, NULL);
	bps_full(test, w->cpu0, NULL);
	bps_full(test, w->cpu0, current);
	/* The other task has nothing yet: only the CPU-bound ones count. */
	bps_fill(test, w->slots - 2, w->cpu0, w->other);
	bps_full(test, w->cpu0, w->other);
	/* cpu1: slots-1 of the task: one left, for it or for the CPU. */
	bps_fill(test, 1, w->cpu1, NULL);
	bps_full(test, w->cpu1, current);
	bps_full(test, -1, current);
	/* Dropping the CPU-bound one on cpu1 gives the task its register. */
	bps_drop_last(test);
	bps_full(test, -1, current);	/* cpu0 is still full for it */
	bps_fill(test, 1, w->cpu1, current);
}

static void bps_kinds_test(struct kunit *test)
{
	struct bps_world *w = test->priv;
	struct perf_event_attr attr;
	struct perf_event *bp;

	if (IS_ENABLED(CONFIG_HAVE_MIXED_BREAKPOINTS_REGS))
		kunit_skip(test, "one register set for both kinds");
	if (hw_breakpoint_slots(TYPE_INST) < 1)
		kunit_skip(test, "no instruction breakpoints");

	bps_fill(test, w->slots, w->cpu0, NULL);
	/* Instruction breakpoints have registers of their own. */
	hw_breakpoint_init(&attr);
	attr.bp_addr = BPS_USER_ADDR;
	attr.bp_len = HW_BREAKPOINT_LEN_4;
	attr.bp_type = HW_BREAKPOINT_X;
	bp = perf_event_create_kernel_counter(&attr, w->cpu0, NULL, NULL, NULL);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(bp), "%d", PTR_ERR_OR_ZERO(bp));
	w->bp[w->nr++] = bp;
}

static struct kunit_case perfcore_bp_slots_cases[] = {
	KUNIT_CASE(bps_cpu_bound_test),
	KUNIT_CASE(bps_task_any_cpu_test),
	KUNIT_CASE(bps_task_one_cpu_test),
	KUNIT_CASE(bps_mixed_test),
	KUNIT_CASE(bps_kinds_test),
	{}
};

static struct kunit_suite perfcore_bp_slots_suite = {
	.name = "perfcore_bp_slots",
	.init = bps_init,
	.exit = bps_exit,
	.test_cases = perfcore_bp_slots_cases,
};

kunit_test_suite(perfcore_bp_slots_suite);

MODULE_DESCRIPTION("KUnit tests for perfcore breakpoint slot accounting");
MODULE_LICENSE("GPL");
