// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore conformance, beyond upstream: counter sharing (kernel/events/
 * share.c) under true SMP.  share.c's cases count instructions, which
 * QEMU gives only under -icount, where the vCPUs take turns; this one
 * runs in the harness's arm64 smp boot, where both vCPUs run at once,
 * and counts cycles, so it is checked within a bound, not exactly.
 * Elsewhere it skips.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

/*
 * True SMP (the harness's arm64 smp boot: each vCPU on a host thread of
 * its own, no -icount, the PMU interrupt a pseudo-NMI, the Cortex-A72's
 * 32-bit event counters).  A task on each CPU counts its user cycles in
 * two anchors beside an unshared reference, while this task opens and
 * closes CPU-wide sharers of the anchors' kind on both CPUs at random,
 * with a pinned CPU-wide event of another kind keeping each CPU's cycle
 * counter, so that the anchors' counter is a 32-bit one, reloaded by
 * the interrupt every 2^31 cycles (about two seconds).  The anchors end
 * within a hair of the reference (the counters' clocks are read a few
 * nanoseconds apart at each exception): a rider that missed a reload
 * would be 2^31 off, one that lost a hand-over more.  Stock gets as
 * many sharers as leave the task's events their counters.
 */
#define SMP_SECONDS	10
#define SMP_SHARERS	8

struct smp_counts {
	struct read_one ref, a[2];
};

static __u64 smp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int open_cycles(int exclude_hv, pid_t pid, int cpu, int pinned,
		       int exclude_user)
{
	struct perf_event_attr attr;

	attr_hw(&attr, PERF_TYPE_RAW, pmu->raw_cycles);
	attr.disabled = pid == 0;
	attr.pinned = pinned;
	attr.exclude_user = exclude_user;
	attr.exclude_kernel = !exclude_user;
	attr.exclude_hv = exclude_hv;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	return sys_perf_event_open(&attr, pid, cpu, -1, 0);
}

/* A counting task on @cpu for SMP_SECONDS; its counts go to @wfd. */
static void smp_counter(int cpu, int wfd)
{
	struct smp_counts c;
	int ref, a0, a1;
	__u64 end;

	if (pin_to_cpu(cpu))
		_exit(2);
	ref = open_cycles(0, 0, -1, 0, 0);
	a0 = open_cycles(1, 0, -1, 0, 0);
	a1 = open_cycles(1, 0, -1, 0, 0);
	if (ref < 0 || a0 < 0 || a1 < 0)
		_exit(3);
	end = smp_now_ns() + SMP_SECONDS * 1000000000ULL;
	prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0);
	while (smp_now_ns() < end)
		hwc_loop(100000);
	prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0);
	if (read_one_times(ref, &c.ref) || read_one_times(a0, &c.a[0]) ||
	    read_one_times(a1, &c.a[1]))
		_exit(4);
	_exit(write(wfd, &c, sizeof(c)) == sizeof(c) ? 0 : 5);
}

TEST(shared_true_smp_sharers_come_and_go)
{
	int hold[2], pool[2][SMP_SHARERS], pipes[2][2], cpu, i, size, status;
	unsigned int seed = 2027;
	struct smp_counts c[2];
	pid_t pid[2];
	bool share;
	__u64 end;

	if (!kernel_cmdline_has("perfcore.true_smp=1"))
		SKIP(return, "needs the smp boot: true SMP, no -icount");
	pmu = hw_pmu_probe();
	hw_release_watchdog();
	share = hw_share_counters(1) >= 0;
	if (kernel_is_ours())
		ASSERT_TRUE(share) TH_LOG("perfcore: no kernel.perf_event_share_counters");
	size = share ? SMP_SHARERS : pmu->gp_counters - 3;

	for (cpu = 0; cpu < 2; cpu++) {
		hold[cpu] = open_cycles(0, -1, cpu, 1, 1);
		ASSERT_LE(0, hold[cpu]) TH_LOG("cpu %d: %s", cpu, strerror(errno));
		for (i = 0; i < SMP_SHARERS; i++)
			pool[cpu][i] = -1;
		ASSERT_EQ(0, pipe(pipes[cpu]));
		pid[cpu] = fork();
		ASSERT_LE(0, pid[cpu]);
		if (!pid[cpu])
			smp_counter(cpu, pipes[cpu][1]);
		close(pipes[cpu][1]);
	}

	/*
	 * Sharers come and go for the first half; each change puts the
	 * CPU's groups of the PMU back (its counters loaded afresh), so
	 * the second half holds one sharer per CPU still, for the reloads
	 * of the overflow interrupt to come with riders counting.
	 */
	end = smp_now_ns() + SMP_SECONDS * 500000000ULL;
	while (size > 0 && smp_now_ns() < end) {
		cpu = rand_r(&seed) % 2;
		i = rand_r(&seed) % size;
		if (pool[cpu][i] < 0) {
			pool[cpu][i] = open_cycles(1, -1, cpu, 0, 0);
		} else {
			close(pool[cpu][i]);
			pool[cpu][i] = -1;
		}
		usleep(1000 + rand_r(&seed) % 4000);
	}
	for (cpu = 0; size > 0 && cpu < 2; cpu++)
		if (pool[cpu][0] < 0)
			pool[cpu][0] = open_cycles(1, -1, cpu, 0, 0);

	for (cpu = 0; cpu < 2; cpu++) {
		ASSERT_EQ(pid[cpu], waitpid(pid[cpu], &status, 0));
		EXPECT_EQ(0, status) TH_LOG("cpu %d's counter: status %#x",
					    cpu, status);
		ASSERT_EQ(sizeof(c[cpu]), read(pipes[cpu][0], &c[cpu],
					       sizeof(c[cpu])));
		close(pipes[cpu][0]);
		for (i = 0; i < SMP_SHARERS; i++)
			if (pool[cpu][i] >= 0)
				close(pool[cpu][i]);
		close(hold[cpu]);
	}
	for (cpu = 0; cpu < 2; cpu++) {
		__u64 ref = c[cpu].ref.value;

		TH_LOG("cpu %d: reference %llu, anchors %llu and %llu, ran %llu of %llu ns",
		       cpu, ref, c[cpu].a[0].value, c[cpu].a[1].value,
		       c[cpu].a[0].running, c[cpu].a[0].enabled);
		/* Five seconds of user cycles alone: at least two reloads. */
		EXPECT_LT(1ULL << 32, ref) TH_LOG("cpu %d: %llu cycles", cpu, ref);
		for (i = 0; i < 2; i++) {
			__u64 v = c[cpu].a[i].value;
			__u64 d = v > ref ? v - ref : ref - v;

			EXPECT_EQ(c[cpu].a[i].enabled, c[cpu].a[i].running);
			EXPECT_GE(ref / 1000, d)
				TH_LOG("cpu %d anchor %d: %llu, reference %llu",
				       cpu, i, v, ref);
		}
	}
}

TEST_HARNESS_MAIN
