// SPDX-License-Identifier: GPL-2.0
/*
 * The perf NMI watchdog, the core PMU's oldest user inside the kernel:
 * kernel/watchdog_perf.c opens one pinned cycles event per CPU with
 * perf_event_create_kernel_counter() and checks, from its overflow NMI,
 * that the CPU's hrtimer still ticks.  On x86 that needs the counter
 * driver end to end: a counter for a kernel-owned pinned event, the PMI
 * delivered as an NMI, and the overflow handler run from it.
 *
 * Not in the suite's list: the second case leaves CPU 1 spinning with
 * interrupts off for good, so make check runs this binary in a boot of
 * its own on the intel PMU model (harness/check.sh).  The cases run in
 * order: the first needs the watchdog as the boot left it.
 *
 * x86_64 only (the arm64 perf watchdog needs pseudo-NMIs, which the test
 * config does not enable); skips where CPUID shows no counters.
 */
#include "kselftest_harness.h"
#include "perf_test.h"
#include "hw_test.h"

#include <sys/klog.h>

#define SYSLOG_ACTION_READ_ALL		3
#define SYSLOG_ACTION_SIZE_BUFFER	10

#define WATCHDOG_ENABLED "NMI watchdog: Enabled. Permanently consumes one hw-PMU counter."
#define PROVOKE_CRASH "/sys/kernel/debug/provoke-crash/DIRECT"

/* Does the kernel log hold @text?  The whole buffer is read each time. */
static int kernel_log_has(const char *text)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0);
	char *buf;
	int len, found;

	if (size <= 0)
		return 0;
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	len = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (len < 0)
		len = 0;
	buf[len] = 0;
	found = !!strstr(buf, text);
	free(buf);
	return found;
}

static int clocksource_is(const char *name)
{
	char val[64];

	if (read_file("/sys/devices/system/clocksource/clocksource0/current_clocksource",
		      val, sizeof(val)) < 0)
		return 0;
	val[strcspn(val, "\n")] = 0;
	return !strcmp(val, name);
}

#if defined(__x86_64__)
#define WATCHDOG_REQUIRE() do {						\
	pmu = hw_pmu_probe();						\
	if (pmu->absent)						\
		SKIP(return, "no hardware PMU: %s", pmu->absent);	\
} while (0)
#else
#define WATCHDOG_REQUIRE() SKIP(return, "x86-only (arm64's perf watchdog needs pseudo-NMIs)")
#endif

/*
 * At boot the watchdog probed the CPU PMU, got its counter and said so;
 * the sysctl shows it on.
 */
TEST(nmi_watchdog_enabled_at_boot)
{
	char val[16];

	WATCHDOG_REQUIRE();
	ASSERT_LE(0, read_file("/proc/sys/kernel/nmi_watchdog", val,
			       sizeof(val)))
		TH_LOG("no /proc/sys/kernel/nmi_watchdog: HARDLOCKUP_DETECTOR off?");
	EXPECT_EQ(1, atoi(val));
	EXPECT_TRUE(kernel_log_has(WATCHDOG_ENABLED))
		TH_LOG("boot log lacks \"%s\": the watchdog got no counter",
		       WATCHDOG_ENABLED);
}

/*
 * A hard lockup provoked on purpose is reported.  LKDTM's HARDLOCKUP
 * spins with interrupts disabled in the writer's context, so a child
 * bound to CPU 1 writes it and never returns; CPU 1's hrtimer stops, and
 * its next watchdog NMIs must notice.  watchdog_thresh=1 makes the
 * counter's period one second of cycles (the model runs pmu-cpi cycles
 * per instruction, so half a second of guest time).  The child stays
 * stuck: /tmp/.cpu-locked-up tells the guest's init to restart without
 * the reboot notifiers, which would wait for CPU 1 forever.
 */
TEST(hard_lockup_reported)
{
	const char *msg = "Watchdog detected hard LOCKUP on cpu 1";
	cpu_set_t cpus;
	int i, mark, found = 0;
	pid_t child;

	WATCHDOG_REQUIRE();
	/*
	 * Nothing may need CPU 1 to take part: a stop_machine() would
	 * leave CPU 0 spinning too, with nobody to read the log.  At boot
	 * one is still to come, when the refined TSC calibration replaces
	 * tsc-early as clocksource; wait for it.
	 */
	for (i = 0; i < 100 && clocksource_is("tsc-early"); i++)
		usleep(100 * 1000);
	ASSERT_FALSE(clocksource_is("tsc-early"))
		TH_LOG("still on tsc-early after 10 s");
	ASSERT_EQ(0, access(PROVOKE_CRASH, W_OK))
		TH_LOG("no %s: LKDTM (or debugfs) missing", PROVOKE_CRASH);
	ASSERT_EQ(0, write_file("/proc/sys/kernel/watchdog_thresh", "1"));
	ASSERT_FALSE(kernel_log_has(msg));

	/* The guest's init must not wait for CPU 1 when it restarts. */
	mark = open("/tmp/.cpu-locked-up", O_WRONLY | O_CREAT, 0644);
	ASSERT_LE(0, mark);
	close(mark);
	/* This process stays on CPU 0, away from the lockup. */
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	child = fork();
	ASSERT_GE(child, 0);
	if (!child) {
		CPU_ZERO(&cpus);
		CPU_SET(1, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			_exit(1);
		write_file(PROVOKE_CRASH, "HARDLOCKUP");
		_exit(2);
	}

	/*
	 * Up to 10 s of guest time: the stock kernel reports it about 1 s
	 * after the lockup starts (two watchdog periods, the second past
	 * the detector's timestamp check).
	 */
	for (i = 0; i < 100 && !found; i++) {
		usleep(100 * 1000);
		found = kernel_log_has(msg);
	}
	EXPECT_TRUE(found)
		TH_LOG("no \"%s\" within 10 s of locking CPU 1 up", msg);
}

TEST_HARNESS_MAIN
