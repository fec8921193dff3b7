// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: reading x86 counters from user space with RDPMC.
 *
 * A task that mmaps an event's page may read the counter itself: the
 * page gives the counter's RDPMC number (index - 1), its width and an
 * offset, and user space adds the sign-extended counter to the offset
 * (include/uapi/linux/perf_event.h).  For that prev_count holds the
 * counter as a sign-extended value at each load (counters.c), which is
 * what the core subtracts to make the offset.
 *
 * RDPMC faults in user mode unless CR4.PCE is set.  The sysfs "rdpmc"
 * knob says when it is:
 *
 *   0  never: no event offers an index;
 *   1  (default) while the task's mm has an event page of ours mapped:
 *	counted in mm->context.perf_rdpmc_allowed, and the context switch
 *	(switch_mm) sets or clears CR4.PCE from it;
 *   2  always, for every task.
 *
 * The switch code reads the two static keys below; when a task that may
 * use RDPMC comes in, perf_clear_dirty_counters() first zeroes counters
 * that other tasks' events left behind, so that it reads only its own.
 */

#include <linux/device.h>
#include <linux/jump_label.h>
#include <linux/kstrtox.h>
#include <linux/mm_types.h>
#include <linux/perf_event.h>
#include <linux/smp.h>

#include <asm/mmu_context.h>

#include "counters.h"

DEFINE_STATIC_KEY_FALSE(rdpmc_never_available_key);
DEFINE_STATIC_KEY_FALSE(rdpmc_always_available_key);

/* Serialises writers of the knob; readers look at the keys alone. */
static DEFINE_MUTEX(x86c_rdpmc_mutex);

/*
 * The sysfs rdpmc knob: 0 never, 1 mmapped events, 2 always.  One for
 * the system, as CR4.PCE is: a hybrid part's two PMUs show the same.
 */
int x86c_rdpmc_knob = 1;

/**
 * x86c_event_idx - the mmap page's index of an event on a counter
 * @event: an active event of the cpu PMU
 *
 * Return: its RDPMC number plus one, or 0 when user space must not
 * read it (the knob was 0 when the event was made).
 */
int x86c_event_idx(struct perf_event *event)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return 0;
	return event->hw.event_base_rdpmc + 1;
}

/**
 * x86c_event_mapped - an mm maps an event's page
 * @event: the event
 * @mm: the mm, mmap lock held for writing
 *
 * The first such event of an mm sets CR4.PCE on the CPUs running it.
 */
void x86c_event_mapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_inc_return(&mm->context.perf_rdpmc_allowed) == 1)
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/**
 * x86c_event_unmapped - an mm unmaps an event's page
 * @event: the event
 * @mm: the mm
 */
void x86c_event_unmapped(struct perf_event *event, struct mm_struct *mm)
{
	if (!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT))
		return;
	if (atomic_dec_and_test(&mm->context.perf_rdpmc_allowed))
		on_each_cpu_mask(mm_cpumask(mm), cr4_update_pce, NULL, 1);
}

/**
 * x86c_rdpmc_userpage - the RDPMC fields of an event's mmap page
 * @event: any event with a page
 * @userpg: the page, being updated
 */
void x86c_rdpmc_userpage(struct perf_event *event,
			 struct perf_event_mmap_page *userpg)
{
	if (!x86c_pmu_is_ours(event->pmu))
		return;
	userpg->cap_user_rdpmc =
		!!(event->hw.flags & PERF_EVENT_FLAG_USER_READ_CNT);
	userpg->pmc_width =
		container_of(event->pmu, struct x86c_pmu, pmu)->width;
}

/**
 * perf_clear_dirty_counters - zero counters this CPU's tasks left behind
 *
 * Called by the context switch, interrupts off, before a task allowed
 * RDPMC runs: a counter no event owns any more still holds the last
 * owner's count, which is not this task's to read.
 */
void perf_clear_dirty_counters(void)
{
	struct x86c_pmu *p = x86c_here();
	struct x86c_cpu *cpu;
	unsigned long dirty;
	int idx;

	if (!p)
		return;
	cpu = this_cpu_ptr(p->cpus);
	/* A topdown metric has no counter of its own to clear. */
	dirty = cpu->used_ever & ~cpu->owned & ~X86C_METRIC_MASK;
	for_each_set_bit(idx, &dirty, X86_PMC_IDX_MAX) {
		if (x86c_is_fixed(idx))
			p->hw->write_msr(p->fixed_ctr + idx - INTEL_PMC_IDX_FIXED, 0);
		else
			p->hw->write_msr(p->gp_ctr + idx * p->gp_stride, 0);
	}
	cpu->used_ever = cpu->owned;
}

/* Set the keys the context switch reads for knob value @val. */
static void x86c_rdpmc_apply(int val)
{
	if (val == 0)
		static_branch_enable(&rdpmc_never_available_key);
	else
		static_branch_disable(&rdpmc_never_available_key);
	if (val == 2)
		static_branch_enable(&rdpmc_always_available_key);
	else
		static_branch_disable(&rdpmc_always_available_key);
	on_each_cpu(cr4_update_pce, NULL, 1);
}

static ssize_t rdpmc_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%d\n", READ_ONCE(x86c_rdpmc_knob));
}

static ssize_t rdpmc_store(struct device *dev, struct device_attribute *attr,
			   const char *buf, size_t count)
{
	unsigned long val;
	int err;

	err = kstrtoul(buf, 0, &val);
	if (err)
		return err;
	if (val > 2)
		return -EINVAL;

	mutex_lock(&x86c_rdpmc_mutex);
	if (val != x86c_rdpmc_knob) {
		x86c_rdpmc_apply(val);
		WRITE_ONCE(x86c_rdpmc_knob, val);
	}
	mutex_unlock(&x86c_rdpmc_mutex);
	return count;
}

/* Root only: the knob opens counters to every task of the system. */
static DEVICE_ATTR_ADMIN_RW(rdpmc);

static struct attribute *x86c_rdpmc_attrs[] = {
	&dev_attr_rdpmc.attr,
	NULL,
};

const struct attribute_group x86c_rdpmc_group = {
	.attrs = x86c_rdpmc_attrs,
};
