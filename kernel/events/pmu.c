// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the PMU registry.
 *
 * Every PMU driver hands its struct pmu to perf_pmu_register().  The
 * registry gives it an attr.type number, sets up its per-CPU scheduling
 * state, fills in the callbacks a driver may leave out, and publishes it
 * twice: in an IDR keyed by type (the fast path of perf_init_event()) and
 * in a list that is walked when the type alone does not decide.  The
 * sysfs side is the "event_source" bus, one device per named PMU.
 *
 * Lifetime: lookups run under pmus_srcu; perf_pmu_unregister() unlinks
 * first and waits for readers before it frees anything.  A PMU with an
 * event on it is not unregistered, so an inherited copy, which goes to
 * its parent's PMU, needs no lookup and no SRCU section.  Writers (register,
 * unregister, the sysfs mux knob) serialise on perf_pmus_mutex.
 *
 * Type numbers: attr.type values below PERF_TYPE_MAX are the fixed ABI
 * types.  A PMU registered with one of them owns that IDR slot if it is
 * the first; later PMUs registered with the same fixed type share the
 * number and are reached through the list walk (this is how cpu-clock and
 * task-clock may sit beside the generic software PMU).  Everything else
 * gets a fresh number from PERF_TYPE_MAX up.
 */

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/static_call.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include "attr.h"
#include "internal.h"

/* Default multiplexing period: one tick. */
#define PERF_MUX_DEFAULT_MS	(1000 / HZ)

DEFINE_SRCU(pmus_srcu);

static DEFINE_MUTEX(perf_pmus_mutex);
static LIST_HEAD(perf_pmu_list);
static DEFINE_IDR(perf_pmu_idr);

/* Set once the event_source bus exists; under perf_pmus_mutex. */
static bool perf_pmu_bus_ready;

/* The flags of the transaction a default-txn PMU has open on this CPU. */
static DEFINE_PER_CPU(unsigned int, perf_default_txn);

/* ----------------------------------------------------------------------
 * Enable / disable nesting.
 */

/**
 * perf_pmu_disable() - stop @pmu's counters on this CPU (nestable)
 * @pmu: the PMU
 *
 * Only the outermost call reaches the driver.  Callers run with
 * preemption (normally interrupts) off and pair it with perf_pmu_enable().
 */
void perf_pmu_disable(struct pmu *pmu)
{
	int *depth = this_cpu_ptr(pmu->pmu_disable_count);

	if ((*depth)++ == 0)
		pmu->pmu_disable(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_disable);

/**
 * perf_pmu_enable() - undo one perf_pmu_disable()
 * @pmu: the PMU
 *
 * The driver's pmu_enable runs when the last nested disable is undone.
 */
void perf_pmu_enable(struct pmu *pmu)
{
	int *depth = this_cpu_ptr(pmu->pmu_disable_count);

	if (WARN_ON_ONCE(*depth <= 0))
		return;
	if (--(*depth) == 0)
		pmu->pmu_enable(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_enable);

/* ----------------------------------------------------------------------
 * Callbacks for what a driver leaves out.
 */

static void pmu_noop(struct pmu *pmu)
{
}

static int pmu_noop_ret0(struct pmu *pmu)
{
	return 0;
}

static void pmu_noop_txn_begin(struct pmu *pmu, unsigned int txn_flags)
{
}

static int pmu_any_period_ok(struct perf_event *event, u64 value)
{
	return 0;
}

/* No user-space counter index (rdpmc) unless the driver says so. */
static int pmu_no_user_index(struct perf_event *event)
{
	return 0;
}

/*
 * A PMU that can be disabled but has no transactions of its own gets a
 * cheap approximation of one for group adds: keep the hardware disabled
 * while the group goes on, so it is written once.  Read transactions
 * need nothing from such a PMU.  The open transaction's flags are kept
 * per CPU, as transactions run on one CPU with interrupts off.
 */
static bool txn_is_add_only(unsigned int txn_flags)
{
	return !(txn_flags & ~PERF_PMU_TXN_ADD);
}

static void pmu_default_txn_begin(struct pmu *pmu, unsigned int txn_flags)
{
	this_cpu_write(perf_default_txn, txn_flags);
	if (txn_is_add_only(txn_flags))
		perf_pmu_disable(pmu);
}

/* Finish the open transaction; re-enable if begin disabled. */
static void pmu_default_txn_end(struct pmu *pmu)
{
	unsigned int txn_flags = this_cpu_read(perf_default_txn);

	this_cpu_write(perf_default_txn, 0);
	if (txn_is_add_only(txn_flags))
		perf_pmu_enable(pmu);
}

static int pmu_default_txn_commit(struct pmu *pmu)
{
	pmu_default_txn_end(pmu);
	return 0;
}

static void pmu_fill_defaults(struct pmu *pmu)
{
	/* Transactions must be decided before pmu_enable gets its stub. */
	if (!pmu->start_txn) {
		bool can_batch = pmu->pmu_enable != NULL;

		pmu->start_txn = can_batch ? pmu_default_txn_begin :
					     pmu_noop_txn_begin;
		pmu->commit_txn = can_batch ? pmu_default_txn_commit :
					      pmu_noop_ret0;
		pmu->cancel_txn = can_batch ? pmu_default_txn_end : pmu_noop;
	}

	if (!pmu->pmu_enable || !pmu->pmu_disable) {
		pmu->pmu_enable = pmu_noop;
		pmu->pmu_disable = pmu_noop;
	}

	if (!pmu->event_idx)
		pmu->event_idx = pmu_no_user_index;

	if (!pmu->check_period)
		pmu->check_period = pmu_any_period_ok;
}

/* ----------------------------------------------------------------------
 * PMU scope: which CPUs one instance of an uncore-like PMU serves.
 */

/**
 * perf_pmu_scope_span - the CPUs one instance of a scoped PMU serves
 * @scope: the PMU's PERF_PMU_SCOPE_*
 * @cpu: a CPU of the instance
 *
 * Return: the instance's CPUs, or NULL for a PMU without a scope.
 */
const struct cpumask *perf_pmu_scope_span(unsigned int scope, int cpu)
{
	switch (scope) {
	case PERF_PMU_SCOPE_SYS_WIDE:
		return cpu_online_mask;
	case PERF_PMU_SCOPE_PKG:
		return topology_core_cpumask(cpu);
	case PERF_PMU_SCOPE_CLUSTER:
		return topology_cluster_cpumask(cpu);
	case PERF_PMU_SCOPE_DIE:
		return topology_die_cpumask(cpu);
	case PERF_PMU_SCOPE_CORE:
		return topology_sibling_cpumask(cpu);
	default:
		return NULL;
	}
}

/*
 * The CPUs user space should open events of a scoped PMU on: one per
 * instance, the lowest online CPU of each span.  Caller holds the CPU
 * hotplug read lock.
 */
static void pmu_scope_representatives(unsigned int scope,
				      struct cpumask *out)
{
	const struct cpumask *span;
	int cpu;

	cpumask_clear(out);
	for_each_online_cpu(cpu) {
		span = perf_pmu_scope_span(scope, cpu);
		if (!span || cpumask_first_and(span, cpu_online_mask) == cpu ||
		    !cpumask_test_cpu(cpu, span))
			__cpumask_set_cpu(cpu, out);
	}
}

/* ----------------------------------------------------------------------
 * Binding an event to a PMU.
 */

/*
 * Checks on what a PMU accepted that the core makes for every PMU, and
 * the capabilities the core grants an event for the PMU that took it.
 */
static int pmu_vet_claimed_event(struct pmu *pmu, struct perf_event *event)
{
	int err;

	if (perf_event_vetted_by_origin(event))
		return 0;

	err = perf_attr_check_pmu_init(&event->attr, pmu->capabilities);
	if (err)
		return err;

	/*
	 * A scoped PMU counts for a whole span of CPUs; an event bound to a
	 * CPU needs that span to have an online CPU, and may then be read
	 * from any CPU of the span.
	 */
	if (pmu->scope != PERF_PMU_SCOPE_NONE && event->cpu >= 0) {
		const struct cpumask *span;

		span = perf_pmu_scope_span(pmu->scope, event->cpu);
		if (!span || !cpumask_intersects(span, cpu_online_mask))
			return -ENODEV;
		event->event_caps |= PERF_EV_CAP_READ_SCOPE;
	}

	/*
	 * An event whose PMU schedules in software can join any group: it
	 * never competes for a counter.
	 */
	if (pmu->task_ctx_nr == perf_sw_context)
		event->event_caps |= PERF_EV_CAP_SOFTWARE;

	return 0;
}

/*
 * Offer @event to @pmu.  On success the event holds a reference on the
 * PMU's module and event->pmu is set; on failure neither.
 */
static int pmu_offer_event(struct pmu *pmu, struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct perf_event_context *leader_ctx = NULL;
	int err;

	if (!try_module_get(pmu->module))
		return -ENODEV;

	/*
	 * Hardware drivers walk the group's siblings to see whether the
	 * group would fit; that list is guarded by the leader context's
	 * mutex.  A copy made at fork has its leader in the child's new
	 * context, whose mutex perf_event_init_task() holds for the whole
	 * inheritance: that is the lock, and taking it again here would
	 * wait on ourselves.  Software PMUs never look at the group.
	 */
	if (leader && leader != event && pmu->task_ctx_nr != perf_sw_context) {
		if (event->parent)
			lockdep_assert_held(&leader->ctx->mutex);
		else if (READ_ONCE(leader->ctx))
			leader_ctx = perf_event_ctx_lock(leader);
	}

	event->pmu = pmu;
	err = pmu->event_init(event);

	if (leader_ctx)
		perf_event_ctx_unlock(leader, leader_ctx);

	if (err) {
		/* A refusing driver's destroy callback must not linger. */
		event->destroy = NULL;
		goto refused;
	}

	err = pmu_vet_claimed_event(pmu, event);
	if (err) {
		if (event->destroy)
			event->destroy(event);
		event->destroy = NULL;
		goto refused;
	}
	return 0;

refused:
	event->pmu = NULL;
	module_put(pmu->module);
	return err;
}

static struct pmu *pmu_lookup_type(unsigned int type)
{
	struct pmu *pmu;

	rcu_read_lock();
	pmu = idr_find(&perf_pmu_idr, type);
	rcu_read_unlock();
	return pmu;
}

/* Bound on attr.type redirections by drivers that forward events. */
#define PERF_PMU_MAX_REDIRECTS	8

/**
 * perf_init_event() - bind @event to the PMU that claims its attributes
 * @event: an event being allocated; attr is validated and event->cpu,
 *	event->parent and event->group_leader are set
 *
 * The PMU of an inherited event's parent is asked first.  Otherwise the
 * type decides: PERF_TYPE_HARDWARE and PERF_TYPE_HW_CACHE go to the PMU
 * named by config[63:32] (if it has PERF_PMU_CAP_EXTENDED_HW_TYPE) or to
 * the PERF_TYPE_RAW one.  A driver may forward an event by rewriting
 * attr.type and answering -ENOENT.  When the PMU owning a fixed type
 * does not take the event, or no PMU owns the type, every registered PMU
 * is asked in turn until one answers something other than -ENOENT.
 *
 * Return: 0 with event->pmu set and its module pinned, or an errno.
 */
int perf_init_event(struct perf_event *event)
{
	struct pmu *pmu, *asked = NULL;
	bool extended = false;
	unsigned int type;
	int srcu_idx, hops, err;

	/* Drivers may rewrite attr.type to forward; remember what was asked. */
	event->orig_type = event->attr.type;

	/* A copy: its parent (held by the inheritance) pins the PMU. */
	if (event->parent && event->parent->pmu) {
		err = pmu_offer_event(event->parent->pmu, event);
		if (!err)
			return 0;
	}

	srcu_idx = srcu_read_lock(&pmus_srcu);

	type = event->attr.type;
	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) {
		u32 target = event->attr.config >> PERF_PMU_TYPE_SHIFT;

		if (target) {
			extended = true;
			type = target;
			event->attr.config &= PERF_HW_EVENT_MASK;
		} else {
			type = PERF_TYPE_RAW;
		}
	}

	err = -ENOENT;
	for (hops = 0; hops < PERF_PMU_MAX_REDIRECTS; hops++) {
		pmu = pmu_lookup_type(type);
		if (!pmu)
			break;

		/*
		 * A generic hardware event may land on the RAW PMU or on a
		 * PMU that asked for extended types, not on any PMU whose
		 * number happens to be in config[63:32].
		 */
		if (type != event->attr.type && type != PERF_TYPE_RAW &&
		    !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))
			goto out;

		err = pmu_offer_event(pmu, event);
		if (err != -ENOENT || extended)
			goto out;
		asked = pmu;

		/* Forwarded (or a generic type that RAW did not take). */
		if (event->attr.type != type) {
			type = event->attr.type;
			continue;
		}

		/* A dynamic type belongs to exactly one PMU. */
		if (type >= PERF_TYPE_MAX)
			goto out;
		break;
	}
	if (hops == PERF_PMU_MAX_REDIRECTS)
		goto out;

	list_for_each_entry_srcu(pmu, &perf_pmu_list, entry,
				 srcu_read_lock_held(&pmus_srcu)) {
		if (pmu == asked)
			continue;
		err = pmu_offer_event(pmu, event);
		if (err != -ENOENT)
			goto out;
	}
	err = -ENOENT;
out:
	srcu_read_unlock(&pmus_srcu, srcu_idx);
	return err;
}

/**
 * perf_release_pmu() - undo perf_init_event()
 * @event: the event, no longer on any PMU
 *
 * Runs the driver's destroy callback, then lets go of the module.
 */
void perf_release_pmu(struct perf_event *event)
{
	if (event->destroy) {
		event->destroy(event);
		event->destroy = NULL;
	}
	if (event->pmu)
		module_put(event->pmu->module);
}

/* ----------------------------------------------------------------------
 * sysfs: the event_source bus.
 */

static struct pmu *dev_to_pmu(struct device *dev)
{
	return dev_get_drvdata(dev);
}

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_to_pmu(dev)->type);
}
static DEVICE_ATTR_RO(type);

static ssize_t perf_event_mux_interval_ms_show(struct device *dev,
					       struct device_attribute *attr,
					       char *buf)
{
	return sysfs_emit(buf, "%d\n", dev_to_pmu(dev)->hrtimer_interval_ms);
}

static ssize_t perf_event_mux_interval_ms_store(struct device *dev,
						struct device_attribute *attr,
						const char *buf, size_t count)
{
	struct pmu *pmu = dev_to_pmu(dev);
	int ms, err;

	err = kstrtoint(buf, 0, &ms);
	if (err)
		return err;
	if (ms < 1)
		return -EINVAL;

	mutex_lock(&perf_pmus_mutex);
	/* sched.c re-arms every CPU's timer with the new period. */
	if (ms != pmu->hrtimer_interval_ms)
		perf_mux_set_interval(pmu, ms);
	mutex_unlock(&perf_pmus_mutex);

	return count;
}
static DEVICE_ATTR_RW(perf_event_mux_interval_ms);

static ssize_t nr_addr_filters_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_pmu(dev)->nr_addr_filters);
}
static DEVICE_ATTR_RO(nr_addr_filters);

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct pmu *pmu = dev_to_pmu(dev);
	cpumask_var_t reps;
	ssize_t len;

	if (!zalloc_cpumask_var(&reps, GFP_KERNEL))
		return -ENOMEM;

	cpus_read_lock();
	pmu_scope_representatives(pmu->scope, reps);
	cpus_read_unlock();

	len = cpumap_print_to_pagebuf(true, buf, reps);
	free_cpumask_var(reps);
	return len;
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *perf_pmu_core_attrs[] = {
	&dev_attr_type.attr,
	&dev_attr_nr_addr_filters.attr,
	&dev_attr_cpumask.attr,
	&dev_attr_perf_event_mux_interval_ms.attr,
	NULL,
};

/*
 * type and the mux interval are there for every PMU; nr_addr_filters only
 * for PMUs that filter, cpumask only for scoped PMUs (other PMUs publish
 * their own cpumask in their groups if they want one).
 */
static umode_t perf_pmu_core_attr_mode(struct kobject *kobj,
				       struct attribute *attr, int idx)
{
	struct pmu *pmu = dev_to_pmu(kobj_to_dev(kobj));

	if (attr == &dev_attr_nr_addr_filters.attr)
		return pmu->nr_addr_filters ? attr->mode : 0;
	if (attr == &dev_attr_cpumask.attr)
		return pmu->scope != PERF_PMU_SCOPE_NONE ? attr->mode : 0;
	return attr->mode;
}

static const struct attribute_group perf_pmu_core_group = {
	.attrs		= perf_pmu_core_attrs,
	.is_visible	= perf_pmu_core_attr_mode,
};

static const struct attribute_group *perf_pmu_core_groups[] = {
	&perf_pmu_core_group,
	NULL,
};

static const struct bus_type perf_pmu_bus = {
	.name		= "event_source",
	.dev_groups	= perf_pmu_core_groups,
};

static void perf_pmu_dev_release(struct device *dev)
{
	kfree(dev);
}

/* Create and add @pmu's device; pmu->dev stays NULL on failure. */
static int pmu_add_device(struct pmu *pmu)
{
	struct device *dev;
	int err;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	device_initialize(dev);
	dev->bus = &perf_pmu_bus;
	dev->parent = pmu->parent;
	dev->groups = pmu->attr_groups;
	dev->release = perf_pmu_dev_release;
	dev_set_drvdata(dev, pmu);

	err = dev_set_name(dev, "%s", pmu->name);
	if (!err)
		err = device_add(dev);
	if (err) {
		put_device(dev);
		return err;
	}

	/* Groups whose is_visible depends on state set up after probe. */
	if (pmu->attr_update) {
		err = sysfs_update_groups(&dev->kobj, pmu->attr_update);
		if (err) {
			device_del(dev);
			put_device(dev);
			return err;
		}
	}

	pmu->dev = dev;
	return 0;
}

static void pmu_remove_device(struct pmu *pmu)
{
	if (!pmu->dev || pmu->dev == PMU_NULL_DEV)
		return;
	device_del(pmu->dev);
	put_device(pmu->dev);
	pmu->dev = NULL;
}

/* The bus comes up late in boot; PMUs registered before it get devices now. */
static int __init perf_pmu_bus_init(void)
{
	struct pmu *pmu;
	int err;

	mutex_lock(&perf_pmus_mutex);
	err = bus_register(&perf_pmu_bus);
	if (err)
		goto out;

	list_for_each_entry(pmu, &perf_pmu_list, entry) {
		int ret;

		if (pmu->dev)
			continue;
		ret = pmu_add_device(pmu);
		WARN(ret, "perf: no sysfs device for PMU %s (%d)\n",
		     pmu->name, ret);
	}
	perf_pmu_bus_ready = true;
out:
	mutex_unlock(&perf_pmus_mutex);
	return err;
}
device_initcall(perf_pmu_bus_init);

/**
 * perf_event_sysfs_show() - show routine of PMU_EVENT_ATTR_STRING events
 * @dev: the PMU's device
 * @attr: the attribute, embedded in a struct perf_pmu_events_attr
 * @page: the output buffer
 *
 * Return: the length of the event string and a newline, or 0 if the
 * attribute has no string.
 */
ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	struct perf_pmu_events_attr *ev;

	ev = container_of(attr, struct perf_pmu_events_attr, attr);
	if (!ev->event_str)
		return 0;
	return sprintf(page, "%s\n", ev->event_str);
}
EXPORT_SYMBOL_GPL(perf_event_sysfs_show);

/* ----------------------------------------------------------------------
 * Registration.
 */

/* The per-CPU scheduling state of @pmu on @cpu: the CPU context's share. */
static void pmu_init_cpu_state(struct pmu *pmu, int cpu)
{
	struct perf_cpu_pmu_context *cpc = per_cpu_ptr(pmu->cpu_pmu_context,
						       cpu);
	struct perf_event_pmu_context *epc = &cpc->epc;

	perf_epc_init(epc, pmu, &per_cpu_ptr(&perf_cpu_context, cpu)->ctx);
	epc->embedded = true;
	/* Never freed: the CPU context holds it for the PMU's lifetime. */
	atomic_set(&epc->refcount, 1);

	perf_mux_init_cpu(pmu, cpu);
}

static void pmu_free_percpu(struct pmu *pmu)
{
	free_percpu(pmu->cpu_pmu_context);
	pmu->cpu_pmu_context = NULL;
	free_percpu(pmu->pmu_disable_count);
	pmu->pmu_disable_count = NULL;
}

/*
 * Reserve a type number for @pmu, the IDR slot left empty until the PMU
 * is complete.  *@owns_slot tells whether the slot is @pmu's (false for a
 * second PMU on a fixed type).  Called with perf_pmus_mutex held.
 */
static int pmu_reserve_type(int type, bool *owns_slot)
{
	int id;

	*owns_slot = true;
	if (type < 0)
		return idr_alloc(&perf_pmu_idr, NULL, PERF_TYPE_MAX, 0,
				 GFP_KERNEL);

	/* Under the mutex an empty slot is a free one: reservations fill. */
	if (idr_find(&perf_pmu_idr, type)) {
		*owns_slot = false;
		return type < PERF_TYPE_MAX ? type : -EBUSY;
	}

	id = idr_alloc(&perf_pmu_idr, NULL, type, type + 1, GFP_KERNEL);
	return id == -ENOSPC ? -EBUSY : id;
}

/**
 * perf_pmu_register() - make a PMU available to perf_event_open()
 * @pmu: the driver's PMU; the core owns @pmu->entry, ->dev (unless it is
 *	%PMU_NULL_DEV), ->type and the per-CPU pointers from here on
 * @name: its name, also the sysfs device name
 * @type: a fixed PERF_TYPE_* value, or -1 for a dynamically allocated one
 *
 * Context: process context; may sleep.
 * Return: 0 or a negative errno.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	bool owns_slot;
	int cpu, err;

	if (WARN_ONCE(!name, "perf: a PMU needs a name\n"))
		return -EINVAL;
	if (WARN_ONCE(pmu->scope >= PERF_PMU_MAX_SCOPE,
		      "perf: PMU %s has an invalid scope\n", name))
		return -EINVAL;

	mutex_lock(&perf_pmus_mutex);

	pmu->name = name;
	pmu->type = -1;
	pmu->pmu_disable_count = alloc_percpu(int);
	pmu->cpu_pmu_context = alloc_percpu(struct perf_cpu_pmu_context);
	err = -ENOMEM;
	if (!pmu->pmu_disable_count || !pmu->cpu_pmu_context)
		goto fail_percpu;

	err = pmu_reserve_type(type, &owns_slot);
	if (err < 0)
		goto fail_percpu;
	pmu->type = err;

	atomic_set(&pmu->exclusive_cnt, 0);
	if (pmu->hrtimer_interval_ms <= 0)
		pmu->hrtimer_interval_ms = PERF_MUX_DEFAULT_MS;
	pmu_fill_defaults(pmu);

	if (perf_pmu_bus_ready && !pmu->dev) {
		err = pmu_add_device(pmu);
		if (err)
			goto fail_type;
	}

	/* Nothing can fail from here on: timers are set up last. */
	for_each_possible_cpu(cpu)
		pmu_init_cpu_state(pmu, cpu);

	/* Complete: let lookups see it. */
	if (owns_slot)
		idr_replace(&perf_pmu_idr, pmu, pmu->type);
	list_add_rcu(&pmu->entry, &perf_pmu_list);

	mutex_unlock(&perf_pmus_mutex);
	return 0;

fail_type:
	if (owns_slot)
		idr_remove(&perf_pmu_idr, pmu->type);
	pmu->type = -1;
fail_percpu:
	pmu_free_percpu(pmu);
	mutex_unlock(&perf_pmus_mutex);
	return err;
}
EXPORT_SYMBOL_GPL(perf_pmu_register);

/**
 * perf_pmu_unregister() - withdraw a PMU
 * @pmu: a registered PMU with no events left
 *
 * Context: process context; sleeps until lookups in flight are done.
 */
void perf_pmu_unregister(struct pmu *pmu)
{
	int cpu;

	mutex_lock(&perf_pmus_mutex);
	list_del_rcu(&pmu->entry);
	if (idr_find(&perf_pmu_idr, pmu->type) == pmu)
		idr_remove(&perf_pmu_idr, pmu->type);
	mutex_unlock(&perf_pmus_mutex);

	/* The list is walked under SRCU, the IDR looked up under RCU. */
	synchronize_srcu(&pmus_srcu);
	synchronize_rcu();

	for_each_possible_cpu(cpu) {
		struct perf_cpu_pmu_context *cpc;

		cpc = per_cpu_ptr(pmu->cpu_pmu_context, cpu);
		hrtimer_cancel(&cpc->mux_timer);
	}

	mutex_lock(&perf_pmus_mutex);
	pmu_remove_device(pmu);
	mutex_unlock(&perf_pmus_mutex);

	pmu_free_percpu(pmu);
}
EXPORT_SYMBOL_GPL(perf_pmu_unregister);

/* ----------------------------------------------------------------------
 * Odds and ends that live with the PMU API.
 */

/* Branch-stack snapshots for BPF; a CPU PMU driver installs its own. */
DEFINE_STATIC_CALL_RET0(perf_snapshot_branch_stack,
			perf_snapshot_branch_stack_t);

/**
 * perf_event_print_debug() - dump PMU state (sysrq)
 *
 * The core has nothing of its own to print; architectures that care print
 * their registers from their own sysrq handlers.
 */
void perf_event_print_debug(void)
{
}
