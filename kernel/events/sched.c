// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: putting groups on PMUs and taking them off.
 *
 * Everything here runs on the CPU whose counters are concerned, with
 * interrupts off and the context locks held (perf_ctx_lock()): at a
 * context switch, from the multiplexing timer, from the tick, or from an
 * IPI sent by context.c.  Nothing here allocates or sleeps.
 *
 * Order of scheduling in, as the ABI promises: CPU pinned groups, then
 * the task's pinned groups, then CPU flexible, then task flexible.
 * Pinned groups that cannot go on enter the error state.  Flexible groups
 * wait in a fair queue per PMU (flex_queue.c): the group that has run
 * least is offered the PMU first, a group that does not fit does not
 * block smaller ones behind it, and the multiplexing timer simply charges
 * what ran and walks the queue again.
 *
 * Time: every context has a clock (times.c) that runs while the context
 * is scheduled in; every event's enabled/running totals follow that clock
 * in the mode its state gives (perf_event_set_state()).
 *
 * Parking: a task switch leaves on their PMU the groups whose events all
 * count through their context alone (PERF_EV_CAP_FOLLOWS_CTX: the
 * "software" PMU, whose events sit in their context's own chains, and
 * counting task-clocks, which read the context's clock; swevent.c).
 * They stay ACTIVE while the context is out: nothing can
 * reach them, and their times, which follow the stopped context clock,
 * stand still as if they had come off.  When the context comes back the
 * walk that puts groups on finds them ACTIVE and only brings them up to
 * date (perf_group_unpark()).  A task with many software events thus
 * switches at the cost of one.  Anything that changes a parked group
 * meanwhile runs under the context lock, and takes a group off the usual
 * way: those PMUs' add and del touch nothing of the CPU.
 *
 * Other groups park off their PMU (perf_group_parks_off()): at the
 * switch each member gives its counter back (del, oncpu -1) and stays
 * ACTIVE, times untouched for the same reason; when the context comes
 * back the walk gives the group its counters again in its turn (or,
 * when all of the queue parked off and nothing missed, each goes back
 * in the order it was on without a walk: perf_flex_unpark_all()), and
 * a group that cannot have them comes off then, as of the instant its
 * context stopped.  ACTIVE with oncpu -1 is that state
 * (perf_event_parked_off()); taking such a group off skips the del.
 */

#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "internal.h"

/* How many flexible groups in a row may miss before a walk gives up. */
#define PERF_FLEX_MAX_MISSES	8

/* PMUs with a sched_task callback in use on this CPU. */
static DEFINE_PER_CPU(struct list_head, perf_sched_cb_list);
static DEFINE_PER_CPU(int, perf_sched_cb_nr);

/* ----------------------------------------------------------------------
 * Locks and clocks.
 */

/**
 * perf_ctx_lock - lock this CPU's context and a task context
 * @cpuctx: this CPU's context
 * @ctx: a task context, or NULL
 *
 * Context: interrupts off.
 */
void perf_ctx_lock(struct perf_cpu_context *cpuctx,
		   struct perf_event_context *ctx)
{
	raw_spin_lock(&cpuctx->ctx.lock);
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_lock(&ctx->lock);
}

/**
 * perf_ctx_unlock - undo perf_ctx_lock()
 * @cpuctx: this CPU's context
 * @ctx: the task context passed to perf_ctx_lock()
 */
void perf_ctx_unlock(struct perf_cpu_context *cpuctx,
		     struct perf_event_context *ctx)
{
	if (ctx && ctx != &cpuctx->ctx)
		raw_spin_unlock(&ctx->lock);
	raw_spin_unlock(&cpuctx->ctx.lock);
}

/**
 * perf_ctx_update_time - bring a context's clock up to now
 * @ctx: the context, its lock held
 */
void perf_ctx_update_time(struct perf_event_context *ctx)
{
	/*
	 * While one change is being made (perf_ctx_call()), every state
	 * change in it happens at the same instant, so that an event enabled
	 * and scheduled in by it has time_enabled == time_running.
	 */
	if (ctx->is_active & EVENT_FROZEN)
		return;
	perf_tclock_update(&ctx->clock, perf_clock());
	if (ctx == &this_cpu_ptr(&perf_cpu_context)->ctx && ctx->nr_cgroups)
		perf_cgroup_update_time(this_cpu_ptr(&perf_cpu_context));
}

/**
 * perf_event_update_time - fold elapsed time into an event's totals
 * @event: the event, its context lock held
 */
void perf_event_update_time(struct perf_event *event)
{
	perf_times_fold(&event->times, perf_event_ctx_time(event));
}

static void perf_event_update_mode(struct perf_event *event,
				   enum perf_event_state leader_state, u64 now)
{
	perf_times_set_mode(&event->times, now,
			    perf_times_mode_for(leader_state, event->state));
}

/**
 * perf_event_set_state - change an event's state and what its times do
 * @event: the event, its context lock held
 * @state: the new state
 *
 * A member only counts time while its leader is at least inactive, so
 * when a leader crosses that line its members change mode with it.
 */
void perf_event_set_state(struct perf_event *event,
			  enum perf_event_state state)
{
	bool was_enabled = event->state >= PERF_EVENT_STATE_INACTIVE;
	bool is_enabled = state >= PERF_EVENT_STATE_INACTIVE;
	struct perf_event *sib;
	u64 now;

	event->state = state;
	if (!event->ctx)
		return;
	now = perf_event_ctx_time(event);
	perf_event_update_mode(event, event->group_leader->state, now);
	if (event->group_leader != event || was_enabled == is_enabled)
		return;
	list_for_each_entry(sib, &event->sibling_list, sibling_entry)
		perf_event_update_mode(sib, state, now);
}

/* ----------------------------------------------------------------------
 * One event, one group.
 */
static __always_inline struct perf_cpu_pmu_context *
perf_cpc(struct perf_event *event)
{
	return this_cpu_ptr(event->pmu_ctx->pmu->cpu_pmu_context);
}

/*
 * An ACTIVE event, its oncpu this CPU, takes its PMU (add): going on, or
 * back from being parked off.  On failure oncpu is -1 again.  The
 * counterpart of perf_event_left_pmu().
 */
static __always_inline int perf_event_take_pmu(struct perf_event *event)
{
	struct perf_cpu_pmu_context *cpc;

	if (unlikely(event->hw.interrupts == MAX_INTERRUPTS))
		perf_event_unthrottle(event, false);

	/* A trace decoder must learn whose trace follows before it does. */
	perf_log_itrace_start(event);

	if (event->pmu->add(event, PERF_EF_START)) {
		WRITE_ONCE(event->oncpu, -1);
		return -EAGAIN;
	}

	/*
	 * Software events take no counter: they neither fill the PMU nor
	 * hold it exclusively (a parked one may come off on another CPU).
	 */
	if (is_software_event(event))
		return 0;
	cpc = perf_cpc(event);
	cpc->active_oncpu++;
	if (event->attr.exclusive)
		cpc->exclusive = 1;
	return 0;
}

static int perf_event_sched_in(struct perf_event *event,
			       struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (event->state <= PERF_EVENT_STATE_OFF)
		return 0;
	if (event->cpu != -1 && event->cpu != smp_processor_id())
		return 0;

	WRITE_ONCE(event->oncpu, smp_processor_id());
	perf_event_set_state(event, PERF_EVENT_STATE_ACTIVE);
	if (perf_event_take_pmu(event)) {
		perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
		return -EAGAIN;
	}
	return 0;
}

/* @event gave its PMU back (del): the CPU's PMU has room again. */
static __always_inline void perf_event_left_pmu(struct perf_event *event)
{
	struct perf_cpu_pmu_context *cpc = perf_cpc(event);

	WRITE_ONCE(event->oncpu, -1);
	if (is_software_event(event))
		return;
	cpc->active_oncpu--;
	if (event->attr.exclusive || !cpc->active_oncpu)
		cpc->exclusive = 0;
}

/*
 * Take an ACTIVE event off its PMU, into @state.  One parked off its PMU
 * (perf_event_parked_off()) gave its counter back already.
 */
static void perf_event_off(struct perf_event *event,
			   enum perf_event_state state)
{
	bool on_pmu = !perf_event_parked_off(event);

	if (on_pmu)
		event->pmu->del(event, 0);
	perf_event_set_state(event, state);
	if (on_pmu)
		perf_event_left_pmu(event);
}

/**
 * perf_event_sched_out - take one event off its PMU
 * @event: the event, active on this CPU
 * @ctx: its context, locked
 */
void perf_event_sched_out(struct perf_event *event,
			  struct perf_event_context *ctx)
{
	enum perf_event_state state = PERF_EVENT_STATE_INACTIVE;

	lockdep_assert_held(&ctx->lock);
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;

	if (event->pending_disable) {
		event->pending_disable = 0;
		state = PERF_EVENT_STATE_OFF;
	}
	perf_event_off(event, state);
}

/**
 * perf_event_exit_state - an event of an exiting task's context ends
 * @event: the event
 * @ctx: its context, locked, no longer in on any CPU
 *	(perf_task_ctx_stop())
 *
 * An event still ACTIVE was on this CPU with its task, or is parked
 * (whose PMU's del may run anywhere): it comes off straight into the
 * EXIT state.  One state change where a switch-out and then the exit
 * would make two, and no charge to a flexible queue that is going away.
 */
void perf_event_exit_state(struct perf_event *event,
			   struct perf_event_context *ctx)
{
	lockdep_assert_held(&ctx->lock);
	if (event->state != PERF_EVENT_STATE_ACTIVE) {
		perf_event_set_state(event, PERF_EVENT_STATE_EXIT);
		return;
	}
	event->pending_disable = 0;
	perf_event_off(event, PERF_EVENT_STATE_EXIT);
}

/*
 * Charge a flexible group for the time it ran since it was last charged
 * (its times were just folded by the state change that took it off).
 * While every group of the PMU fits, the order of the queue decides
 * nothing and the charge is skipped: re-sorting the queue on every
 * context switch would be the flexible groups' main cost.  Those groups
 * all ran the whole time, so when contention starts none is ahead.
 */
static void perf_flex_charge_group(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;
	u64 ran;

	if (leader->attr.pinned)
		return;
	ran = leader->times.running - leader->flex_charged;
	leader->flex_charged = leader->times.running;
	if (ran && epc->flexible_missed)
		perf_flex_charge(&epc->flexible, &leader->flex, ran);
}

/* perf_group_sched_out() for a caller that holds the PMU disabled. */
static void perf_group_off(struct perf_event *leader,
			   struct perf_event_context *ctx)
{
	struct perf_event *sib;

	if (leader->state != PERF_EVENT_STATE_ACTIVE)
		return;

	perf_event_sched_out(leader, ctx);
	list_for_each_entry(sib, &leader->sibling_list, sibling_entry)
		perf_event_sched_out(sib, ctx);

	list_del_init(&leader->active_entry);
	perf_flex_charge_group(leader);
}

/**
 * perf_group_sched_out - take a whole group off its PMU
 * @leader: the group leader
 * @ctx: its context, locked
 */
void perf_group_sched_out(struct perf_event *leader,
			  struct perf_event_context *ctx)
{
	struct pmu *pmu = leader->pmu_ctx->pmu;

	if (leader->state != PERF_EVENT_STATE_ACTIVE)
		return;
	/* The members go off together, as they went on. */
	perf_pmu_disable(pmu);
	perf_group_off(leader, ctx);
	perf_pmu_enable(pmu);
}

/* One member of a parked group; false if it waits to go on. */
static bool perf_event_unpark(struct perf_event *event, int cpu)
{
	if (event->state == PERF_EVENT_STATE_INACTIVE)
		return false;
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return true;
	WRITE_ONCE(event->oncpu, cpu);
	if (unlikely(event->hw.interrupts == MAX_INTERRUPTS))
		perf_event_unthrottle(event, false);
	if (rcu_access_pointer(event->rb))
		perf_event_update_userpage(event);
	return true;
}

/*
 * A parked group's context is back, here: do for it what going on would
 * have done (follow the context to this CPU, lift a throttle, refresh
 * the user page).  Return: false if a member was enabled or added while
 * it was parked; the group must then go on again whole.
 */
static bool perf_group_unpark(struct perf_event *leader)
{
	int cpu = smp_processor_id();
	bool whole = perf_event_unpark(leader, cpu);
	struct perf_event *sib;

	list_for_each_entry(sib, &leader->sibling_list, sibling_entry)
		whole &= perf_event_unpark(sib, cpu);
	return whole;
}

/*
 * May @leader's group come off its PMU at a task switch and stay ACTIVE
 * (parked off)?  Its counters are given back, its state and times are
 * not touched: they follow the context's clock, which stops with the
 * context, so while the task is out they stand still exactly as if the
 * group had come off.  When the context comes back, the walk gives the
 * group its counters again (perf_group_unpark_off()), and only if that
 * fails does it come off for real, at the instant its context stopped.
 * A switch between two tasks with hardware events thus saves each
 * event two state changes and the group's way off and on.
 *
 * Not for a group bound to a CPU, an exclusive group (it must find the
 * PMU empty), a group with a disable pending from an overflow (going off
 * is what carries it out), nor while the PMU's flexible groups contend
 * (their charges are taken at each way off); nor for trace and AUX
 * PMUs' groups (their sched in logs and starts more than counters),
 * which the caller asks of the PMU once (perf_pmu_parks_off()).
 */
static bool perf_group_parks_off(struct perf_event *leader)
{
	struct perf_event *sib;

	if (leader->cpu != -1 || leader->attr.exclusive ||
	    leader->pending_disable)
		return false;
	if (!leader->attr.pinned && leader->pmu_ctx->flexible_missed)
		return false;
	list_for_each_entry(sib, &leader->sibling_list, sibling_entry) {
		if (sib->pending_disable)
			return false;
	}
	return true;
}

/* The part of perf_group_parks_off() that is the PMU's: asked once. */
static bool perf_pmu_parks_off(struct pmu *pmu)
{
	return !(pmu->capabilities & PERF_PMU_CAP_ITRACE) && !pmu->setup_aux;
}

/*
 * Give back the counters of a group whose task goes out (@stop_at NULL),
 * or of the members before @stop_at that had theirs again; the group
 * stays ACTIVE.
 */
static void perf_group_park_off(struct perf_event *leader,
				struct perf_event *stop_at)
{
	struct perf_event *sib;

	list_for_each_entry(sib, &leader->sibling_list, sibling_entry) {
		if (sib == stop_at)
			break;
		if (sib->state != PERF_EVENT_STATE_ACTIVE)
			continue;
		sib->pmu->del(sib, 0);
		perf_event_left_pmu(sib);
	}
	leader->pmu->del(leader, 0);
	perf_event_left_pmu(leader);
}

/* One member of a group parked off: its counter again, or -EAGAIN. */
static __always_inline int perf_event_unpark_off(struct perf_event *event,
						 int cpu)
{
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return 0;
	WRITE_ONCE(event->oncpu, cpu);
	return perf_event_take_pmu(event);
}

/*
 * Put a group parked off back on its PMU (@cpc: this CPU's part of it),
 * as the group it was: false if it may not or does not fit (as
 * perf_group_sched_in() judges), or if a member was enabled while it was
 * out; the caller then takes it off.  The caller has found that the PMU
 * counts on this CPU; a group parked off has no CPU or cgroup of its own
 * to match (perf_group_parks_off()).
 */
static bool perf_group_unpark_off(struct perf_event *leader,
				  struct perf_cpu_pmu_context *cpc,
				  unsigned int fits_below)
{
	struct pmu *pmu = leader->pmu_ctx->pmu;
	int cpu = smp_processor_id();
	struct perf_event *sib;

	if (cpc->exclusive || leader->nr_siblings + 1 >= fits_below)
		return false;
	list_for_each_entry(sib, &leader->sibling_list, sibling_entry) {
		if (sib->state == PERF_EVENT_STATE_INACTIVE)
			return false;
	}

	/* A lone event needs no transaction; see perf_group_sched_in(). */
	if (!leader->nr_siblings)
		return !perf_event_unpark_off(leader, cpu);

	pmu->start_txn(pmu, PERF_PMU_TXN_ADD);
	if (perf_event_unpark_off(leader, cpu)) {
		pmu->cancel_txn(pmu);
		return false;
	}
	list_for_each_entry(sib, &leader->sibling_list, sibling_entry) {
		if (perf_event_unpark_off(sib, cpu)) {
			perf_group_park_off(leader, sib);
			pmu->cancel_txn(pmu);
			return false;
		}
	}
	if (!pmu->commit_txn(pmu))
		return true;
	perf_group_park_off(leader, NULL);
	pmu->cancel_txn(pmu);
	return false;
}

/*
 * Put a whole group on its PMU, or nothing of it.  A group of @fits_below
 * events or more is not offered the PMU (see perf_flex_try()); software
 * groups always are.  Return: 0, -EBUSY if it did not fit or was not
 * offered, PERF_FLEX_SKIP if it is not a candidate here and now.
 */
static int perf_group_sched_in(struct perf_event *leader,
			       struct perf_event_context *ctx,
			       unsigned int fits_below)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;
	struct pmu *pmu = epc->pmu;
	struct perf_cpu_pmu_context *cpc = this_cpu_ptr(pmu->cpu_pmu_context);
	struct perf_event *sib, *failed = NULL;

	if (perf_event_parked_off(leader)) {
		if (perf_event_filter_match(leader) &&
		    perf_group_unpark_off(leader, cpc, fits_below))
			return 0;
		/*
		 * Off for real, at the instant its context stopped; then
		 * offered the PMU as any group.
		 */
		perf_group_off(leader, ctx);
	} else if (leader->state != PERF_EVENT_STATE_INACTIVE) {
		if (leader->state != PERF_EVENT_STATE_ACTIVE ||
		    !perf_group_parks(leader) || perf_group_unpark(leader))
			return PERF_FLEX_SKIP;
		/* Changed while parked: off, then on again whole. */
		perf_group_sched_out(leader, ctx);
	}
	if (!perf_event_filter_match(leader))
		return PERF_FLEX_SKIP;
	if (!(leader->group_caps & PERF_EV_CAP_SOFTWARE) &&
	    (cpc->exclusive || (leader->attr.exclusive && cpc->active_oncpu) ||
	     leader->nr_siblings + 1 >= fits_below))
		return -EBUSY;

	/*
	 * A lone event goes on or not by itself: no transaction to open
	 * and close around it (every caller holds the PMU disabled).
	 */
	if (!leader->nr_siblings) {
		if (perf_event_sched_in(leader, ctx))
			return -EBUSY;
		list_add_tail(&leader->active_entry, &epc->active_groups);
		return 0;
	}

	pmu->start_txn(pmu, PERF_PMU_TXN_ADD);

	if (perf_event_sched_in(leader, ctx)) {
		pmu->cancel_txn(pmu);
		return -EBUSY;
	}
	list_for_each_entry(sib, &leader->sibling_list, sibling_entry) {
		if (perf_event_sched_in(sib, ctx)) {
			failed = sib;
			break;
		}
	}
	if (!failed && !pmu->commit_txn(pmu)) {
		list_add_tail(&leader->active_entry, &epc->active_groups);
		return 0;
	}

	/* Undo in order; a failed commit undoes every member. */
	list_for_each_entry(sib, &leader->sibling_list, sibling_entry) {
		if (sib == failed)
			break;
		perf_event_sched_out(sib, ctx);
	}
	perf_event_sched_out(leader, ctx);
	pmu->cancel_txn(pmu);
	return -EBUSY;
}

/* ----------------------------------------------------------------------
 * Group lists of a pmu context.
 */

/**
 * perf_add_group_to_lists - make a leader a candidate for its PMU
 * @leader: the group leader; its context locked
 */
void perf_add_group_to_lists(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;

	if (leader->attr.pinned) {
		list_add_tail(&leader->group_entry, &epc->pinned_groups);
		return;
	}
	leader->flex_charged = leader->times.running;
	perf_flex_add(&epc->flexible, &leader->flex);
}

/**
 * perf_del_group_from_lists - undo perf_add_group_to_lists()
 * @leader: the group leader; its context locked
 */
void perf_del_group_from_lists(struct perf_event *leader)
{
	struct perf_event_pmu_context *epc = leader->pmu_ctx;

	if (!list_empty(&leader->group_entry))
		list_del_init(&leader->group_entry);
	if (perf_flex_queued(&leader->flex))
		perf_flex_remove(&epc->flexible, &leader->flex);
	if (!list_empty(&leader->active_entry))
		list_del_init(&leader->active_entry);
}

/**
 * perf_event_enable_state - turn an off or errored event on
 * @event: the event, its context locked
 *
 * The event becomes INACTIVE: a candidate for its PMU.  A flexible group
 * that comes back re-enters its queue at the floor, as a new group does:
 * the time it spent off is no credit over the groups that kept running.
 * Both ways an event is enabled (the ioctl and enable_on_exec) come here.
 */
void perf_event_enable_state(struct perf_event *event)
{
	lockdep_assert_held(&event->ctx->lock);

	perf_event_set_state(event, PERF_EVENT_STATE_INACTIVE);
	if (event->group_leader == event && perf_flex_queued(&event->flex)) {
		perf_del_group_from_lists(event);
		perf_add_group_to_lists(event);
	}
}

/* ----------------------------------------------------------------------
 * Whole contexts.
 */

static void perf_mux_kick(struct perf_event_pmu_context *epc);

static void perf_epc_sched_out(struct perf_event_pmu_context *epc,
			       struct perf_event_context *ctx, int type)
{
	bool park_off = (type & EVENT_PARK) && perf_pmu_parks_off(epc->pmu);
	struct perf_event *leader, *tmp;

	if (list_empty(&epc->active_groups))
		return;
	perf_pmu_disable(epc->pmu);
	list_for_each_entry_safe(leader, tmp, &epc->active_groups,
				 active_entry) {
		if (!(type & perf_group_kind(leader)))
			continue;
		if (type & EVENT_PARK) {
			if (perf_group_parks(leader))
				continue;
			if (park_off && perf_group_parks_off(leader)) {
				perf_group_park_off(leader, NULL);
				continue;
			}
		}
		perf_group_off(leader, ctx);
	}
	perf_pmu_enable(epc->pmu);
}

static void perf_pinned_sched_in(struct perf_event_pmu_context *epc,
				 struct perf_event_context *ctx)
{
	struct perf_event *leader;

	list_for_each_entry(leader, &epc->pinned_groups, group_entry) {
		if (perf_group_sched_in(leader, ctx, UINT_MAX) == -EBUSY) {
			/* A pinned group that cannot count says so. */
			perf_event_set_state(leader, PERF_EVENT_STATE_ERROR);
		}
	}
}

/**
 * struct perf_flex_walk - one walk of a PMU's flexible queue
 * @ctx: the context whose queue it is, locked
 * @fits_below: the size of the smallest group that did not fit so far;
 *	only smaller groups are still offered the PMU
 */
struct perf_flex_walk {
	struct perf_event_context	*ctx;
	unsigned int			fits_below;
};

/*
 * Once a group did not fit, a group at least as large is passed over as
 * a miss without offering it the PMU: it would almost surely fail too,
 * and a refused offer is dear.  A PMU without transactions (arm_pmu,
 * the breakpoint slots) programs the counter of each member before the
 * one that does not fit, then undoes it all; x86's runs its counter
 * assignment over every event on the PMU before it refuses.  Offering
 * every group up to PERF_FLEX_MAX_MISSES did that eight times a walk
 * where stock, which offers nothing after its first miss, does it once
 * (make bench's hw_mux_16: the multiplexing timer at 2.1 times stock's
 * cost on x86, 1.4 on arm64; now 0.9 and 0.8).  A smaller group is
 * still offered, which is what going on past a miss is for; a group
 * passed over keeps its place, ahead of those that ran, and is offered
 * first at the next walk.  Constraints can let a group fit where a
 * smaller one did not (an instructions event on a fixed counter once
 * the general ones are full); it then waits one multiplexing period
 * more, as it would on stock.
 */
static int perf_flex_try(struct perf_flex_node *node, void *arg)
{
	struct perf_flex_walk *walk = arg;
	struct perf_event *leader = container_of(node, struct perf_event, flex);
	unsigned int size = leader->nr_siblings + 1;
	int ret;

	ret = perf_group_sched_in(leader, walk->ctx, walk->fits_below);
	if (ret == -EBUSY && size < walk->fits_below)
		walk->fits_below = size;
	return ret;
}

/*
 * How far a flexible group that was left waiting may fall behind the
 * queue's floor (flex_queue.c): a few multiplexing periods, so that a
 * group that starved gets a bounded head start and no more.  Read on
 * every walk: the interval can change through sysfs at any time.
 */
#define PERF_FLEX_LAG_PERIODS	4

static u64 perf_mux_flex_lag(const struct pmu *pmu)
{
	return (u64)PERF_FLEX_LAG_PERIODS *
	       READ_ONCE(pmu->hrtimer_interval_ms) * NSEC_PER_MSEC;
}

/*
 * The PMU's flexible groups start to contend: from now on what each runs
 * is charged (perf_flex_charge_group()).  A group that came back from
 * being parked off (perf_group_parks_off()) was not charged on its ways
 * off and on, nor had its times folded: what it ran until now was
 * uncontended and is not charged either.
 */
static void perf_flex_rebase(struct perf_event_pmu_context *epc)
{
	struct perf_event *leader;

	list_for_each_entry(leader, &epc->active_groups, active_entry) {
		if (leader->attr.pinned)
			continue;
		perf_event_update_time(leader);
		leader->flex_charged = leader->times.running;
	}
}

/*
 * The way back for a task whose flexible groups on @epc's PMU all fit
 * and all parked off at its switch (the usual task switch with hardware
 * events): each goes back on, in the order they were on, without a walk
 * of the queue.  While nothing misses the queue's order decides nothing
 * (perf_flex_charge_group()) and no group's place in it changed, so the
 * walk would find what this finds.  Return: false when the walk is
 * needed after all (a group of the queue was not parked off, or one did
 * not get its counters back; that one is off now, to be offered by the
 * walk as any group).
 */
static bool perf_flex_unpark_all(struct perf_event_pmu_context *epc,
				 struct perf_event_context *ctx)
{
	struct pmu *pmu = epc->pmu;
	struct perf_cpu_pmu_context *cpc = this_cpu_ptr(pmu->cpu_pmu_context);
	struct perf_event *leader, *tmp;
	unsigned int parked = 0;

	/* perf_event_filter_match() of a group parked off, asked once. */
	if (epc->flexible_missed || !perf_pmu_counts_here(pmu))
		return false;
	list_for_each_entry_safe(leader, tmp, &epc->active_groups,
				 active_entry) {
		if (leader->attr.pinned)
			continue;
		if (!perf_event_parked_off(leader))
			return false;
		if (!perf_group_unpark_off(leader, cpc, UINT_MAX)) {
			perf_group_off(leader, ctx);
			return false;
		}
		parked++;
	}
	return parked == epc->flexible.nr;
}

static void perf_flexible_sched_in(struct perf_event_pmu_context *epc,
				   struct perf_event_context *ctx)
{
	struct perf_flex_walk walk = { .ctx = ctx, .fits_below = UINT_MAX };
	int missed;

	if (perf_flex_empty(&epc->flexible) ||
	    perf_flex_unpark_all(epc, ctx))
		return;
	missed = perf_flex_sched(&epc->flexible, perf_mux_flex_lag(epc->pmu),
				 perf_flex_try, &walk, PERF_FLEX_MAX_MISSES);
	if (missed > 0 && !epc->flexible_missed)
		perf_flex_rebase(epc);
	epc->flexible_missed = missed > 0;
	if (missed > 0)
		perf_mux_kick(epc);
}

/*
 * The last group of @ctx went off (or is about to, perf_task_ctx_stop()):
 * its clock stops at the instant of the last update, not at a fresh
 * perf_clock(): time between the two would count as enabled but not
 * running.
 */
static void perf_ctx_clock_off(struct perf_event_context *ctx)
{
	perf_tclock_stop(&ctx->clock, ctx->clock.stamp);
	ctx->is_active &= EVENT_FROZEN;
}

/*
 * Take @ctx's groups of the kinds in @type off their PMUs, or only
 * @pmu's groups if @pmu is not NULL.  The context stays active then: its
 * other PMUs' groups are still on, and a caller that takes one PMU's off
 * puts them back on at once (perf_ctx_resched()).
 */
static void perf_ctx_sched_out(struct perf_event_context *ctx,
			       struct pmu *pmu, int type)
{
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->lock);
	if (!(ctx->is_active & (EVENT_ALL | EVENT_TIME)))
		return;

	perf_ctx_update_time(ctx);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (!pmu || epc->pmu == pmu)
			perf_epc_sched_out(epc, ctx, type);
	}
	if (pmu)
		return;

	ctx->is_active &= ~(type & EVENT_ALL);
	if (!(ctx->is_active & EVENT_ALL))
		perf_ctx_clock_off(ctx);
}

/* Offer the PMUs @ctx's groups of the kinds in @type; @pmu's alone if set. */
static void perf_ctx_sched_in(struct perf_event_context *ctx,
			      struct pmu *pmu, int type)
{
	struct perf_event_pmu_context *epc;

	lockdep_assert_held(&ctx->lock);
	/*
	 * A running clock is left as it is: every caller has just brought
	 * it up to date (sched out, cgroup switch) or started it (the pinned
	 * pass before this flexible one), and groups going on must do so at
	 * that instant.  Advancing it here would count the time since as
	 * enabled but not running for every group still waiting.
	 */
	if (!(ctx->is_active & EVENT_TIME)) {
		perf_tclock_start(&ctx->clock, perf_clock());
		ctx->is_active |= EVENT_TIME;
	}
	ctx->is_active |= type & EVENT_ALL;

	/*
	 * Pinned before flexible holds per PMU; groups of different PMUs
	 * never compete, so each PMU takes both passes in one hold.
	 */
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		bool pinned = (type & EVENT_PINNED) &&
			      !list_empty(&epc->pinned_groups);
		bool flexible = (type & EVENT_FLEXIBLE) &&
				!perf_flex_empty(&epc->flexible);

		if ((pmu && epc->pmu != pmu) || !(pinned || flexible))
			continue;
		perf_pmu_disable(epc->pmu);
		if (pinned)
			perf_pinned_sched_in(epc, ctx);
		if (flexible)
			perf_flexible_sched_in(epc, ctx);
		perf_pmu_enable(epc->pmu);
	}
}

/* CPU pinned, task pinned, CPU flexible, task flexible. */
static void perf_sched_in_all(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *task_ctx)
{
	perf_ctx_sched_in(&cpuctx->ctx, NULL, EVENT_PINNED);
	if (task_ctx)
		perf_ctx_sched_in(task_ctx, NULL, EVENT_PINNED);
	perf_ctx_sched_in(&cpuctx->ctx, NULL, EVENT_FLEXIBLE);
	if (task_ctx)
		perf_ctx_sched_in(task_ctx, NULL, EVENT_FLEXIBLE);
}

/* Hold every PMU with groups in @ctx disabled, or let them go again. */
static void perf_ctx_hold_each(struct perf_event_context *ctx, bool hold)
{
	struct perf_event_pmu_context *epc;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (hold)
			perf_pmu_disable(epc->pmu);
		else
			perf_pmu_enable(epc->pmu);
	}
}

/*
 * Hold @pmu disabled (every PMU of the two contexts if NULL), or let go
 * again: nestable, so each call with @hold set is undone by one without.
 */
static void perf_resched_hold(struct perf_cpu_context *cpuctx,
			      struct perf_event_context *task_ctx,
			      struct pmu *pmu, bool hold)
{
	if (pmu) {
		if (hold)
			perf_pmu_disable(pmu);
		else
			perf_pmu_enable(pmu);
		return;
	}
	perf_ctx_hold_each(&cpuctx->ctx, hold);
	if (task_ctx)
		perf_ctx_hold_each(task_ctx, hold);
}

/**
 * perf_ctx_resched - re-place groups after the enabled set changed
 * @cpuctx: this CPU's context
 * @task_ctx: the task context scheduled in here, or NULL
 * @changed: the context whose groups changed, or NULL if it may be either
 * @pmu: the PMU whose groups changed, or NULL if it may be any
 * @event_type: EVENT_PINNED and/or EVENT_FLEXIBLE: the kinds that changed
 *
 * Only what the change can displace comes off, so that the documented
 * order (CPU pinned, task pinned, CPU flexible, task flexible) holds
 * again once everything that can go on has gone on: a pinned change also
 * takes off the flexible groups (they make room), a task change leaves
 * the CPU's pinned groups alone and its flexible ones unless pinned
 * groups changed.  Groups of other PMUs than @pmu never compete with
 * the changed one for a counter, so they stay where they are: enabling
 * a software group does not reprogram the hardware counters beside it.
 * Only what came off is offered the PMU again: a new task flexible
 * group, the common case, costs one pass over its PMU's flexible groups.
 * The PMUs stay disabled from the first group off to the last one on,
 * so that a driver that programs at pmu_enable (x86) writes only what
 * changed, once, rather than taking everything off and putting it all
 * back in two rounds of register writes.
 */
void perf_ctx_resched(struct perf_cpu_context *cpuctx,
		      struct perf_event_context *task_ctx,
		      struct perf_event_context *changed, struct pmu *pmu,
		      int event_type)
{
	int task_type = event_type & EVENT_ALL;
	int cpu_type = 0;

	lockdep_assert_held(&cpuctx->ctx.lock);
	if (task_ctx)
		lockdep_assert_held(&task_ctx->lock);
	if (task_type & EVENT_PINNED)
		task_type |= EVENT_FLEXIBLE;
	if (!changed || changed == &cpuctx->ctx)
		cpu_type = task_type;
	else if (task_type & EVENT_PINNED)
		cpu_type = EVENT_FLEXIBLE;
	if (!task_ctx)
		task_type = 0;

	perf_resched_hold(cpuctx, task_ctx, pmu, true);

	if (task_type)
		perf_ctx_sched_out(task_ctx, pmu, task_type);
	if (cpu_type)
		perf_ctx_sched_out(&cpuctx->ctx, pmu, cpu_type);

	/* What came off goes back on, in the documented order. */
	if (cpu_type & EVENT_PINNED)
		perf_ctx_sched_in(&cpuctx->ctx, pmu, EVENT_PINNED);
	if (task_type & EVENT_PINNED)
		perf_ctx_sched_in(task_ctx, pmu, EVENT_PINNED);
	if (cpu_type & EVENT_FLEXIBLE)
		perf_ctx_sched_in(&cpuctx->ctx, pmu, EVENT_FLEXIBLE);
	if (task_type & EVENT_FLEXIBLE)
		perf_ctx_sched_in(task_ctx, pmu, EVENT_FLEXIBLE);

	perf_resched_hold(cpuctx, task_ctx, pmu, false);
}

/**
 * perf_task_ctx_sched_out - take a task context off this CPU
 * @ctx: the task context scheduled in here
 * @event_type: EVENT_ALL takes all of it out and detaches it from the CPU
 *
 * Context: interrupts off; takes the context locks.
 */
void perf_task_ctx_sched_out(struct perf_event_context *ctx, int event_type)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);

	perf_ctx_lock(cpuctx, ctx);
	if (cpuctx->task_ctx == ctx) {
		perf_ctx_sched_out(ctx, NULL, event_type);
		if ((event_type & EVENT_ALL) == EVENT_ALL)
			cpuctx->task_ctx = NULL;
	}
	perf_ctx_unlock(cpuctx, ctx);
}

/**
 * perf_task_ctx_stop - a task context leaves this CPU
 * @cpuctx: this CPU's context
 * @ctx: the task context, locked with @cpuctx (perf_ctx_lock())
 *
 * For an exiting task, and for a context whose last event just left it
 * while its task runs here.  If @ctx is in here, its clock stops and the
 * CPU forgets it, with its groups left as they are: the exit takes each
 * event off itself (perf_event_exit_state()), at the instant the clock
 * stopped, and an empty context has none.
 */
void perf_task_ctx_stop(struct perf_cpu_context *cpuctx,
			struct perf_event_context *ctx)
{
	lockdep_assert_held(&cpuctx->ctx.lock);
	lockdep_assert_held(&ctx->lock);
	if (cpuctx->task_ctx != ctx)
		return;
	if (ctx->is_active & (EVENT_ALL | EVENT_TIME)) {
		perf_ctx_update_time(ctx);
		perf_ctx_clock_off(ctx);
	}
	cpuctx->task_ctx = NULL;
}

/* Does @ctx have pinned groups on any PMU? */
static bool perf_ctx_has_pinned(struct perf_event_context *ctx)
{
	struct perf_event_pmu_context *epc;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (!list_empty(&epc->pinned_groups))
			return true;
	}
	return false;
}

/**
 * perf_task_ctx_start - a task context comes in on this CPU
 * @cpuctx: this CPU's context
 * @ctx: the context of current, locked with @cpuctx (perf_ctx_lock()),
 *	not in here yet
 *
 * Also for a context that has no event yet, whose first event is being
 * installed right now (context.c): only then may an empty context be in
 * a CPU, and only until the caller unlocks.
 */
void perf_task_ctx_start(struct perf_cpu_context *cpuctx,
			 struct perf_event_context *ctx)
{
	lockdep_assert_held(&cpuctx->ctx.lock);
	lockdep_assert_held(&ctx->lock);
	cpuctx->task_ctx = ctx;

	if (cpuctx->ctx.nr_events && (cpuctx->ctx.is_active & EVENT_FLEXIBLE) &&
	    perf_ctx_has_pinned(ctx)) {
		/*
		 * The task's pinned groups go before the CPU's flexible ones,
		 * which make room for them.  Without task pinned groups the
		 * order already holds: task flexible ones come last anyway.
		 */
		perf_ctx_sched_out(&cpuctx->ctx, NULL, EVENT_FLEXIBLE);
		perf_sched_in_all(cpuctx, ctx);
	} else {
		perf_ctx_sched_in(ctx, NULL, EVENT_ALL);
	}
}

/**
 * perf_task_ctx_sched_in - schedule a task context in on this CPU
 * @ctx: the context of current
 *
 * A context without events stays out.  The switch hooks are on only
 * while some task event exists (context.c), so a context left in a CPU
 * when they go off would stay there after its task switched away, and
 * after it exited and the context was freed (the tick reads it).  The
 * other half of the rule is context.c's: a context whose last event
 * leaves it while its task runs leaves the CPU too.
 *
 * Context: interrupts off; takes the context locks.
 */
void perf_task_ctx_sched_in(struct perf_event_context *ctx)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);

	perf_ctx_lock(cpuctx, ctx);
	if (cpuctx->task_ctx != ctx && ctx->nr_events)
		perf_task_ctx_start(cpuctx, ctx);
	perf_ctx_unlock(cpuctx, ctx);
}

/**
 * perf_cpu_ctx_sched_out_cgroup - take this CPU's cgroup groups off
 * @cpuctx: this CPU's context, locked, its PMUs disabled
 *
 * For a switch between tasks of different cgroups (cgroup.c).
 */
void perf_cpu_ctx_sched_out_cgroup(struct perf_cpu_context *cpuctx)
{
	struct perf_event_context *ctx = &cpuctx->ctx;
	struct perf_event_pmu_context *epc;
	struct perf_event *leader, *tmp;

	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		list_for_each_entry_safe(leader, tmp, &epc->active_groups,
					 active_entry) {
			if (is_cgroup_event(leader))
				perf_group_off(leader, ctx);
		}
	}
}

/**
 * perf_cpu_ctx_sched_in_cgroup - offer this CPU's groups the PMUs again
 * @cpuctx: this CPU's context, locked, its PMUs disabled
 *
 * Groups of the new cgroup now match; the others are already on or skip.
 */
void perf_cpu_ctx_sched_in_cgroup(struct perf_cpu_context *cpuctx)
{
	if (cpuctx->ctx.is_active & EVENT_ALL)
		perf_ctx_sched_in(&cpuctx->ctx, NULL,
				  cpuctx->ctx.is_active & EVENT_ALL);
}

/* ----------------------------------------------------------------------
 * The context switch hooks.
 */

/*
 * @pmu's part of the task context scheduled in here.  Looked up rather
 * than cached: a part created while its task runs (the first event of a
 * PMU opened by the running task itself) was not there at switch time.
 */
static struct perf_event_pmu_context *
perf_task_epc(struct perf_event_context *task_ctx, struct pmu *pmu)
{
	struct perf_event_pmu_context *epc;

	if (!task_ctx)
		return NULL;
	list_for_each_entry(epc, &task_ctx->pmu_ctx_list, pmu_ctx_entry) {
		if (epc->pmu == pmu)
			return epc;
	}
	return NULL;
}

static void perf_sched_cb(struct task_struct *task, bool sched_in)
{
	struct perf_cpu_pmu_context *cpc;

	list_for_each_entry(cpc, this_cpu_ptr(&perf_sched_cb_list),
			    sched_cb_entry) {
		struct pmu *pmu = cpc->epc.pmu;

		if (!pmu->sched_task)
			continue;
		perf_pmu_disable(pmu);
		struct perf_event_pmu_context *task_epc;

		task_epc = perf_task_epc(this_cpu_ptr(&perf_cpu_context)->task_ctx,
					 pmu);
		pmu->sched_task(task_epc ? task_epc : &cpc->epc, task, sched_in);
		perf_pmu_enable(pmu);
	}
}

/**
 * __perf_event_task_sched_out - @prev leaves this CPU
 * @prev: the task switched out
 * @next: the task switched in
 */
void __perf_event_task_sched_out(struct task_struct *prev,
				 struct task_struct *next)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	bool sched_cb = __this_cpu_read(perf_sched_cb_nr);
	struct perf_event_context *ctx;

	if (sched_cb)
		perf_sched_cb(prev, false);
	if (perf_sb_wanted(PERF_SB_SWITCH))
		perf_event_switch_output(prev, next, false);

	ctx = rcu_dereference_raw(prev->perf_event_ctxp);
	if (ctx && cpuctx->task_ctx == ctx) {
		/*
		 * A clone of @next's context can simply become @next's
		 * (clone.c), unless a PMU here wants to see the switch.
		 */
		if (sched_cb || !perf_task_ctx_trade(prev, ctx, next))
			perf_task_ctx_sched_out(ctx, EVENT_ALL | EVENT_PARK);
	}

	if (cpuctx->ctx.nr_cgroups)
		perf_cgroup_switch(next);
}

/**
 * __perf_event_task_sched_in - @task now runs on this CPU
 * @prev: the task switched out
 * @task: current
 */
void __perf_event_task_sched_in(struct task_struct *prev,
				struct task_struct *task)
{
	struct perf_event_context *ctx;

	ctx = rcu_dereference_raw(task->perf_event_ctxp);
	if (ctx)
		perf_task_ctx_sched_in(ctx);

	if (perf_sb_wanted(PERF_SB_SWITCH))
		perf_event_switch_output(task, prev, true);
	if (__this_cpu_read(perf_sched_cb_nr))
		perf_sched_cb(task, true);
}

/**
 * perf_cpu_task_ctx - the task context scheduled in on this CPU
 *
 * Return: it, or NULL.
 */
struct perf_event_context *perf_cpu_task_ctx(void)
{
	lockdep_assert_irqs_disabled();
	return this_cpu_ptr(&perf_cpu_context)->task_ctx;
}

/**
 * perf_sched_cb_inc - @pmu wants pmu::sched_task calls on this CPU
 * @pmu: the PMU
 */
void perf_sched_cb_inc(struct pmu *pmu)
{
	struct perf_cpu_pmu_context *cpc = this_cpu_ptr(pmu->cpu_pmu_context);

	if (!cpc->sched_cb_usage++) {
		list_add(&cpc->sched_cb_entry, this_cpu_ptr(&perf_sched_cb_list));
		this_cpu_inc(perf_sched_cb_nr);
	}
}

/**
 * perf_sched_cb_dec - undo perf_sched_cb_inc()
 * @pmu: the PMU
 */
void perf_sched_cb_dec(struct pmu *pmu)
{
	struct perf_cpu_pmu_context *cpc = this_cpu_ptr(pmu->cpu_pmu_context);

	if (!--cpc->sched_cb_usage) {
		list_del(&cpc->sched_cb_entry);
		this_cpu_dec(perf_sched_cb_nr);
	}
}

/**
 * perf_pmu_resched - re-place @pmu's groups on this CPU
 * @pmu: the PMU whose constraints changed
 *
 * Only @pmu's groups move: no other PMU's counters depend on its
 * constraints.
 */
void perf_pmu_resched(struct pmu *pmu)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;
	unsigned long flags;

	local_irq_save(flags);
	perf_ctx_lock(cpuctx, task_ctx);
	perf_ctx_resched(cpuctx, task_ctx, NULL, pmu, EVENT_ALL);
	perf_ctx_unlock(cpuctx, task_ctx);
	local_irq_restore(flags);
}

/* ----------------------------------------------------------------------
 * Multiplexing.
 */

static enum hrtimer_restart perf_mux_fire(struct hrtimer *timer)
{
	struct perf_cpu_pmu_context *cpc;
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	struct perf_event_context *task_ctx = cpuctx->task_ctx;
	struct perf_event_pmu_context *task_epc;
	bool again;

	cpc = container_of(timer, struct perf_cpu_pmu_context, mux_timer);

	perf_ctx_lock(cpuctx, task_ctx);
	task_epc = perf_task_epc(task_ctx, cpc->epc.pmu);
	again = cpc->epc.flexible_missed ||
		(task_epc && task_epc->flexible_missed);
	if (again) {
		struct pmu *pmu = cpc->epc.pmu;

		perf_pmu_disable(pmu);
		if (task_epc) {
			perf_ctx_update_time(task_ctx);
			perf_epc_sched_out(task_epc, task_ctx, EVENT_FLEXIBLE);
		}
		if (cpc->epc.ctx) {
			perf_ctx_update_time(&cpuctx->ctx);
			perf_epc_sched_out(&cpc->epc, &cpuctx->ctx,
					   EVENT_FLEXIBLE);
			if (cpuctx->ctx.is_active & EVENT_FLEXIBLE)
				perf_flexible_sched_in(&cpc->epc, &cpuctx->ctx);
		}
		if (task_epc && (task_ctx->is_active & EVENT_FLEXIBLE))
			perf_flexible_sched_in(task_epc, task_ctx);
		perf_pmu_enable(pmu);

		again = cpc->epc.flexible_missed ||
			(task_epc && task_epc->flexible_missed);
	}

	raw_spin_lock(&cpc->mux_lock);
	if (again)
		hrtimer_forward_now(timer, cpc->mux_interval);
	else
		cpc->mux_active = false;
	raw_spin_unlock(&cpc->mux_lock);
	perf_ctx_unlock(cpuctx, task_ctx);

	return again ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/* Some flexible group of @epc waits: make sure the timer runs here. */
static void perf_mux_kick(struct perf_event_pmu_context *epc)
{
	struct perf_cpu_pmu_context *cpc;

	cpc = this_cpu_ptr(epc->pmu->cpu_pmu_context);
	raw_spin_lock(&cpc->mux_lock);
	if (!cpc->mux_active) {
		cpc->mux_active = true;
		hrtimer_forward_now(&cpc->mux_timer, cpc->mux_interval);
		hrtimer_start_expires(&cpc->mux_timer,
				      HRTIMER_MODE_ABS_PINNED_HARD);
	}
	raw_spin_unlock(&cpc->mux_lock);
}

/**
 * perf_mux_init_cpu - set up @pmu's multiplexing timer on @cpu
 * @pmu: the PMU, with hrtimer_interval_ms set
 * @cpu: the CPU
 */
void perf_mux_init_cpu(struct pmu *pmu, int cpu)
{
	struct perf_cpu_pmu_context *cpc = per_cpu_ptr(pmu->cpu_pmu_context, cpu);

	raw_spin_lock_init(&cpc->mux_lock);
	cpc->mux_interval = ms_to_ktime(pmu->hrtimer_interval_ms);
	hrtimer_init(&cpc->mux_timer, CLOCK_MONOTONIC,
		     HRTIMER_MODE_ABS_PINNED_HARD);
	cpc->mux_timer.function = perf_mux_fire;
}

/**
 * perf_mux_set_interval - change @pmu's multiplexing interval
 * @pmu: the PMU
 * @interval_ms: the new interval, at least 1
 *
 * Takes effect at the next expiry of each CPU's timer.
 */
void perf_mux_set_interval(struct pmu *pmu, int interval_ms)
{
	int cpu;

	WRITE_ONCE(pmu->hrtimer_interval_ms, interval_ms);
	for_each_possible_cpu(cpu) {
		struct perf_cpu_pmu_context *cpc;
		unsigned long flags;

		cpc = per_cpu_ptr(pmu->cpu_pmu_context, cpu);
		raw_spin_lock_irqsave(&cpc->mux_lock, flags);
		cpc->mux_interval = ms_to_ktime(interval_ms);
		raw_spin_unlock_irqrestore(&cpc->mux_lock, flags);
	}
}

/* ----------------------------------------------------------------------
 * The tick: throttled and frequency events.
 */

/*
 * Hand @ctx's events on a PMU here to overflow.c's perf_tick_event(): all
 * of them after a throttle on this CPU, else only if some count in
 * frequency mode.
 */
static void perf_tick_ctx(struct perf_event_context *ctx, bool throttled)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *leader, *sib;
	u64 now;

	if (!ctx || !(ctx->is_active & EVENT_ALL))
		return;
	if (!ctx->nr_freq && !throttled)
		return;
	now = perf_clock();

	raw_spin_lock(&ctx->lock);
	list_for_each_entry(epc, &ctx->pmu_ctx_list, pmu_ctx_entry) {
		list_for_each_entry(leader, &epc->active_groups, active_entry) {
			perf_tick_event(leader, now);
			list_for_each_entry(sib, &leader->sibling_list,
					    sibling_entry)
				perf_tick_event(sib, now);
		}
	}
	raw_spin_unlock(&ctx->lock);
}

/**
 * perf_event_task_tick - the scheduler tick on this CPU
 *
 * Whether throttled events wait here, and what the tick does to each
 * event, is overflow.c's rule; this walks the groups on the PMUs.
 */
void perf_event_task_tick(void)
{
	struct perf_cpu_context *cpuctx = this_cpu_ptr(&perf_cpu_context);
	bool throttled;

	lockdep_assert_irqs_disabled();
	throttled = perf_tick_claim_throttled();
	perf_tick_ctx(&cpuctx->ctx, throttled);
	perf_tick_ctx(cpuctx->task_ctx, throttled);
}

static int __init perf_sched_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(per_cpu_ptr(&perf_sched_cb_list, cpu));
	return 0;
}
early_initcall(perf_sched_init);
