// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: counters one thread of a core keeps from the other.
 *
 * On Sandy Bridge, Ivy Bridge and Haswell with Hyper-Threading on
 * (errata BJ122, BV98, HSD29), a memory-retirement event corrupts what
 * the other thread of its core counts on the counter of the same
 * number.  The family tables mark such events PERF_X86_EVENT_EXCL; on a
 * PMU that has them, with more than one thread per core, each core's
 * two threads place their events under one lock and obey three rules:
 *
 *   - a counter an exclusive event of one thread uses, the other thread
 *     does not use at all;
 *   - an exclusive event does not take a counter the other thread uses;
 *   - while either thread has an exclusive event, each places its
 *     events on at most half the general-purpose counters, so that
 *     neither can take every counter from the other (as stock does:
 *     with four, a sibling's group of three waits beside one memory
 *     event, though three counters are free of it).
 *
 * Each thread publishes, after every placement and removal, the
 * general-purpose counters its placed events use and those of them its
 * exclusive events use (struct x86c_ht_core); a placement narrows each
 * event's constraint by what the other thread published, then places
 * as anywhere else (x86c_place_with()).  Nothing already placed on the
 * other thread ever moves: the rules only decide what the placing
 * thread may take, so a group that cannot go on waits, as it would for
 * a counter another group of its own CPU holds.
 *
 * Locking: x86c_ht_core.lock (a raw spinlock) protects both threads'
 * @used and @excl.  A thread takes it in add, commit_txn and del, with
 * interrupts off and its CPU context's lock held: it nests inside
 * either CPU's perf context lock and takes nothing itself.  The PMI
 * never takes it.  The pointers x86c_cpu.ht and .ht_thread are the
 * CPU's own, set at its bring-up before it has events.
 */

#include <linux/bitops.h>
#include <linux/cpu_smt.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>
#include <linux/topology.h>

#include "counters.h"

/*
 * Each core's shared state lives in the per-CPU slot of the thread that
 * came up first; a slot stays valid when its CPU goes down, and the
 * other thread keeps using it.
 */
static DEFINE_PER_CPU(struct x86c_ht_core, x86c_ht_cores);

/**
 * x86c_ht_narrow - an event's constraint beside the other thread's events
 * @c: the event's constraint
 * @taken: the counters the other thread's exclusive events use
 * @shared: the counters the other thread uses at all
 * @copy: where to build a narrowed constraint
 *
 * Return: @c where the other thread takes nothing from it, else @copy
 * filled as @c without those counters.
 */
static struct event_constraint *
x86c_ht_narrow(struct event_constraint *c, u64 taken, u64 shared,
	       struct event_constraint *copy)
{
	u64 off = taken;

	if (c->flags & PERF_X86_EVENT_EXCL)
		off |= shared;
	if (!(c->idxmsk64 & off))
		return c;
	*copy = *c;
	copy->idxmsk64 &= ~off;
	copy->weight = hweight64(copy->idxmsk64);
	return copy;
}

static void x86c_ht_publish_locked(struct x86c_cpu *cpu)
{
	struct x86c_ht_core *core = cpu->ht;

	lockdep_assert_held(&core->lock);
	x86c_placed_gp(cpu, &core->used[cpu->ht_thread],
		       &core->excl[cpu->ht_thread]);
}

/**
 * x86c_ht_place - place a CPU's list beside its sibling thread's events
 * @p: the PMU
 * @cpu: the CPU's state; cpu->ht set
 *
 * Return: as x86c_place_with(); on success the core knows the counters.
 */
int x86c_ht_place(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	struct x86c_ht_core *core = cpu->ht;
	int other = !cpu->ht_thread;
	bool excl = false;
	int i, err;

	raw_spin_lock(&core->lock);
	for (i = 0; i < cpu->nr; i++) {
		excl |= cpu->constraint[i]->flags & PERF_X86_EVENT_EXCL;
		cpu->ht_constraint[i] =
			x86c_ht_narrow(cpu->constraint[i], core->excl[other],
				       core->used[other], &cpu->ht_narrowed[i]);
	}
	err = x86c_place_with(cpu, cpu->ht_constraint,
			      excl || core->excl[other] ? p->num_gp / 2 :
							  p->num_gp);
	if (!err)
		x86c_ht_publish_locked(cpu);
	raw_spin_unlock(&core->lock);
	return err;
}

/**
 * x86c_ht_publish - tell the core what the CPU's placed events use now
 * @cpu: the CPU's state; cpu->ht set
 *
 * After a removal: the counters it gave up are the other thread's to
 * take.
 */
void x86c_ht_publish(struct x86c_cpu *cpu)
{
	raw_spin_lock(&cpu->ht->lock);
	x86c_ht_publish_locked(cpu);
	raw_spin_unlock(&cpu->ht->lock);
}

/**
 * x86c_ht_wanted - whether a PMU's cores must share out their counters
 * @p: the PMU, its family table set
 *
 * Return: true where the table has an exclusive event and a core may
 * run more than one thread (cpu_smt_possible(): known before the
 * secondary CPUs come up, which topology_max_smt_threads() is not).
 */
bool x86c_ht_wanted(const struct x86c_pmu *p)
{
	const struct event_constraint *c;

	if (!cpu_smt_possible())
		return false;
	for (c = p->table; c && c->cmask; c++)
		if (c->flags & PERF_X86_EVENT_EXCL)
			return true;
	return false;
}

/**
 * x86c_ht_attach - join a CPU coming up to its core's shared state
 * @p: the PMU that drives the CPU
 * @cpu: the CPU, coming up (its x86c_cpu just reset)
 *
 * Where the PMU has exclusive events and the CPUs threads: the core's
 * state is the one a sibling already online uses, or this CPU's slot
 * when none is.  With more than two threads per core the rules above
 * would need a slot per thread: such a CPU shares nothing (no part with
 * the erratum has more than two).
 */
void x86c_ht_attach(struct x86c_pmu *p, unsigned int cpu)
{
	struct x86c_cpu *me = per_cpu_ptr(p->cpus, cpu);
	struct x86c_ht_core *core;
	unsigned int sib;

	me->ht = NULL;
	if (!p->ht_excl ||
	    cpumask_weight(topology_sibling_cpumask(cpu)) > 2)
		return;
	for_each_cpu(sib, topology_sibling_cpumask(cpu)) {
		struct x86c_cpu *other = per_cpu_ptr(p->cpus, sib);

		if (sib == cpu || !other->ht)
			continue;
		me->ht_thread = !other->ht_thread;
		me->ht = other->ht;
	}
	if (!me->ht) {
		core = per_cpu_ptr(&x86c_ht_cores, cpu);
		raw_spin_lock_init(&core->lock);
		me->ht_thread = 0;
		me->ht = core;
	}
	/* It has no events yet. */
	x86c_ht_publish(me);
}
