// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the event file descriptor and the in-kernel control API.
 *
 * Everything user space does to an open event after perf_event_open(2)
 * comes through here: read(), poll(), the ioctls, fasync and the final
 * close.  The in-kernel users (watchdog, KVM, BPF, ptrace breakpoints)
 * get the same operations as plain functions, and prctl() gets the
 * "all the events I opened" variants.
 *
 * Locking: every operation that looks at or changes an event's group or
 * its scheduling state holds the mutex of the event's context
 * (perf_event_ctx_lock()).  That pins the group, and lets the enable,
 * disable and period changes go to the context's CPU through
 * perf_ctx_call().  Inherited copies of an event (its children, which
 * live in other tasks' contexts) are reached through the parent's
 * child_list under the parent's child_mutex, taken inside the context
 * mutex; holding child_mutex keeps each child from being freed while we
 * act on it, because a child unlinks itself under the same mutex.
 */
#include <linux/bpf.h>
#include <linux/compat.h>
#include <linux/cpumask.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hw_breakpoint.h>
#include <linux/poll.h>
#include <linux/sched.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/topology.h>
#include <linux/trace_events.h>

#include "internal.h"
#include "attr.h"
#include "layout.h"

/* An operation applied to one event at a time (enable, disable, reset). */
typedef void (*fops_event_op)(struct perf_event *event);

/* ----------------------------------------------------------------------
 * Applying an operation to an event, its inherited copies and its group
 */

/* @event and every live child of it; caller holds @event's ctx->mutex. */
static void fops_apply_inherited(struct perf_event *event, fops_event_op op)
{
	struct perf_event *child;

	mutex_lock(&event->child_mutex);
	op(event);
	list_for_each_entry(child, &event->child_list, child_list)
		op(child);
	mutex_unlock(&event->child_mutex);
}

/* The whole group @event belongs to, leader first, children included. */
static void fops_apply_group(struct perf_event *event, fops_event_op op)
{
	struct perf_event *head = event->group_leader;
	struct perf_event *member;

	lockdep_assert_held(&head->ctx->mutex);

	fops_apply_inherited(head, op);
	for_each_sibling_event(member, head) {
		fops_apply_inherited(member, op);
	}
}

/*
 * PERF_EVENT_IOC_RESET for one event: bring the count up to date first,
 * so that what the hardware counted until now is folded in (and the
 * hardware's reference point moves on) before it is thrown away.  Only
 * the live count is cleared; what exited children left in child_count
 * stays, as it always has.
 */
static void fops_reset_count(struct perf_event *event)
{
	perf_event_read(event, false);
	local64_set(&event->count, 0);
	perf_event_update_userpage(event);
}

/* ----------------------------------------------------------------------
 * Reading counts
 */

/*
 * The count of @event as its owner sees it: its own, what its exited
 * children folded in, and what its live children have counted so far;
 * the times are summed the same way.  Caller holds the ctx mutex.
 */
static u64 fops_total_count(struct perf_event *event, u64 *enabled,
			    u64 *running)
{
	struct perf_event *child;
	u64 sum;

	mutex_lock(&event->child_mutex);

	perf_event_read(event, false);
	sum = perf_event_count(event);
	*enabled = event->times.enabled +
		   atomic64_read(&event->child_total_time_enabled);
	*running = event->times.running +
		   atomic64_read(&event->child_total_time_running);

	list_for_each_entry(child, &event->child_list, child_list) {
		perf_event_read(child, false);
		sum += perf_event_count(child);
		*enabled += child->times.enabled;
		*running += child->times.running;
	}

	mutex_unlock(&event->child_mutex);
	return sum;
}

/*
 * A group read summed over the group and its inherited copies, member by
 * member (leader first), before layout.c lays it out as read() returns it.
 */
struct fops_group_sum {
	u64			enabled;
	u64			running;
	unsigned int		nr;	/* members: leader + siblings */
	struct perf_read_member	*member;	/* nr entries, zeroed */
};

static void fops_group_sum_member(struct fops_group_sum *gs, unsigned int i,
				  struct perf_event *event)
{
	struct perf_read_member *m = &gs->member[i];

	if (WARN_ON_ONCE(i >= gs->nr))
		return;
	m->value += perf_event_count(event);
	m->id = perf_event_primary(event)->id;
	/*
	 * Not a sum: the value of the copy visited last is reported, which
	 * is what the ABI has always given for a group read.
	 */
	m->lost = atomic64_read(&event->lost_samples);
}

/*
 * Add one copy of the group (the original, or one inherited copy whose
 * leader is @head) to @gs.  The times of a group are those of its leader:
 * members are scheduled together, so theirs are the same.
 */
static int fops_group_sum_add(struct fops_group_sum *gs,
			      struct perf_event *head)
{
	struct perf_event_context *ctx = head->ctx;
	struct perf_event *orig = head->parent;
	struct perf_event *member;
	unsigned long flags;
	unsigned int i = 0;
	int err = 0;

	/* One cross-call reads every member that is on a PMU. */
	perf_event_read(head, true);

	/*
	 * An inherited copy's members are in another task's context whose
	 * mutex we do not hold; its lock keeps the sibling list still.
	 */
	raw_spin_lock_irqsave(&ctx->lock, flags);

	/*
	 * The copies of a group are not built or torn down atomically with
	 * the original: while a member is added to the original, or while a
	 * child group is half gone, the shapes differ and adding them up
	 * position by position would mix unrelated counters.  Refuse.
	 */
	if (orig && (orig->group_generation != head->group_generation ||
		     orig->nr_siblings != head->nr_siblings)) {
		err = -ECHILD;
		goto unlock;
	}

	gs->enabled += head->times.enabled +
		       atomic64_read(&head->child_total_time_enabled);
	gs->running += head->times.running +
		       atomic64_read(&head->child_total_time_running);

	fops_group_sum_member(gs, i++, head);
	for_each_sibling_event(member, head) {
		fops_group_sum_member(gs, i++, member);
	}

unlock:
	raw_spin_unlock_irqrestore(&ctx->lock, flags);
	return err;
}

/*
 * Groups of up to this many members are summed and laid out on the
 * stack rather than in memory allocated on every read.
 */
#define FOPS_GROUP_ONSTACK	8

/* read() with PERF_FORMAT_GROUP: the whole group of @event. */
static ssize_t fops_read_group(struct perf_event *event, char __user *buf,
			       size_t count)
{
	u64 format = event->attr.read_format;
	struct perf_event *head = event->group_leader;
	/*
	 * Written before they are read (the members as far as the group
	 * goes, the words as far as perf_read_fill() lays them out and
	 * copy_to_user() copies them): with INIT_STACK_ALL_ZERO the
	 * compiler would zero all 408 bytes on every read first.
	 */
	struct perf_read_member members[FOPS_GROUP_ONSTACK] __uninitialized;
	u64 onstack[3 + 3 * FOPS_GROUP_ONSTACK] __uninitialized;
	struct fops_group_sum gs = { .member = members };
	struct perf_event *copy;
	u64 *out = onstack;
	size_t len;
	ssize_t ret;

	lockdep_assert_held(&head->ctx->mutex);

	gs.nr = 1 + head->nr_siblings;
	len = perf_read_size(format, gs.nr);
	if (count < len)
		return -ENOSPC;

	if (gs.nr > FOPS_GROUP_ONSTACK) {
		/* One allocation: the members, then the read laid out. */
		gs.member = kzalloc(gs.nr * sizeof(*gs.member) + len,
				    GFP_KERNEL);
		if (!gs.member)
			return -ENOMEM;
		out = (u64 *)(gs.member + gs.nr);
	} else {
		memset(members, 0, gs.nr * sizeof(*members));
	}

	mutex_lock(&head->child_mutex);
	ret = fops_group_sum_add(&gs, head);
	if (!ret) {
		list_for_each_entry(copy, &head->child_list, child_list) {
			ret = fops_group_sum_add(&gs, copy);
			if (ret)
				break;
		}
	}
	mutex_unlock(&head->child_mutex);
	if (ret)
		goto free;

	len = perf_read_fill(out, format, gs.enabled, gs.running, gs.member,
			     gs.nr);
	ret = copy_to_user(buf, out, len) ? -EFAULT : len;
free:
	if (gs.member != members)
		kfree(gs.member);
	return ret;
}

/* read() of a single event. */
static ssize_t fops_read_single(struct perf_event *event, char __user *buf)
{
	u64 format = event->attr.read_format;
	struct perf_read_member one;
	u64 out[5];	/* value, enabled, running, id, lost */
	u64 t_en, t_run;
	size_t len;

	one.value = fops_total_count(event, &t_en, &t_run);
	if (!format)	/* the common case: the count alone */
		return put_user(one.value, (u64 __user *)buf) ?
		       -EFAULT : sizeof(u64);
	one.id = perf_event_primary(event)->id;
	one.lost = atomic64_read(&event->lost_samples);

	BUILD_BUG_ON(sizeof(out) < 5 * sizeof(u64));
	len = perf_read_fill(out, format, t_en, t_run, &one, 1);
	if (copy_to_user(buf, out, len))
		return -EFAULT;
	return len;
}

static ssize_t fops_read(struct file *file, char __user *buf, size_t count,
			 loff_t *ppos)
{
	struct perf_event *event = file->private_data;
	struct perf_event_context *ctx;
	ssize_t ret = security_perf_event_read(event);

	if (ret)
		return ret;

	ctx = perf_event_ctx_lock(event);
	if (event->state == PERF_EVENT_STATE_ERROR) {
		/* A pinned group that lost its counter: end of file. */
		ret = 0;
	} else if (count < event->read_size) {
		ret = -ENOSPC;
	} else if (event->attr.read_format & PERF_FORMAT_GROUP) {
		ret = fops_read_group(event, buf, count);
	} else {
		ret = fops_read_single(event, buf);
	}
	perf_event_ctx_unlock(event, ctx);

	return ret;
}

/* ----------------------------------------------------------------------
 * poll, fasync, release
 */

/*
 * Nothing more will ever be counted for @event: its task is gone and no
 * inherited copy is still running somewhere.
 */
static bool fops_event_finished(struct perf_event *event)
{
	bool none_left;

	if (READ_ONCE(event->state) > PERF_EVENT_STATE_EXIT)
		return false;

	mutex_lock(&event->child_mutex);
	none_left = list_empty(&event->child_list);
	mutex_unlock(&event->child_mutex);
	return none_left;
}

static __poll_t fops_poll(struct file *file, poll_table *wait)
{
	struct perf_event *event = file->private_data;

	poll_wait(file, &event->waitq, wait);

	if (fops_event_finished(event))
		return EPOLLHUP;

	/* Without a buffer there is nothing to wait for: report hang-up. */
	if (!READ_ONCE(event->rb))
		return EPOLLHUP;

	return perf_event_poll_buffer(event);
}

static int fops_fasync(int fd, struct file *filp, int on)
{
	struct perf_event *event = filp->private_data;
	struct inode *inode = file_inode(filp);
	int err;

	inode_lock(inode);
	err = fasync_helper(fd, filp, on, &event->fasync);
	inode_unlock(inode);

	return err < 0 ? err : 0;
}

/* The last reference to the file is gone. */
static int fops_release(struct inode *inode, struct file *file)
{
	perf_event_release_kernel(file->private_data);
	return 0;
}

/* ----------------------------------------------------------------------
 * Sample period, refresh, attribute changes
 */

/*
 * Runs where @event's context runs.  An event on the PMU is stopped,
 * given the new period and started again so that the period takes effect
 * now rather than after the current one expires.
 */
static void fops_period_apply(struct perf_event *event,
			      struct perf_cpu_context *cpuctx,
			      struct perf_event_context *ctx, void *data)
{
	struct hw_perf_event *hwc = &event->hw;
	struct pmu *pmu = event->pmu;
	u64 value = *(u64 *)data;

	/* sample_freq and sample_period share their storage in the attr. */
	if (!event->attr.freq)
		hwc->sample_period = value;
	event->attr.sample_period = value;

	if (event->state != PERF_EVENT_STATE_ACTIVE ||
	    perf_event_parked_off(event)) {
		/* The next add() programs a full new period. */
		local64_set(&hwc->period_left, 0);
		return;
	}

	perf_pmu_disable(pmu);
	/*
	 * A throttled event restarts below; clear its throttle here so that
	 * the tick does not try to restart it a second time.
	 */
	if (hwc->interrupts == MAX_INTERRUPTS)
		perf_event_unthrottle(event, false);
	/* Stopping folds the count and updates period_left; then clear it. */
	pmu->stop(event, PERF_EF_UPDATE);
	local64_set(&hwc->period_left, 0);
	pmu->start(event, PERF_EF_RELOAD);
	perf_pmu_enable(pmu);
}

/* PERF_EVENT_IOC_PERIOD and perf_event_period(); ctx->mutex held. */
static int fops_set_period(struct perf_event *event, u64 value)
{
	if (!is_sampling_event(event) || !value)
		return -EINVAL;

	if (perf_attr_check_rate(event->attr.freq, value,
				 sysctl_perf_event_sample_rate))
		return -EINVAL;
	if (!event->attr.freq && event->pmu->check_period &&
	    event->pmu->check_period(event, value))
		return -EINVAL;

	perf_ctx_call(event, fops_period_apply, &value);
	return 0;
}

/* PERF_EVENT_IOC_REFRESH and perf_event_refresh(); ctx->mutex held. */
static int fops_refresh(struct perf_event *event, int refresh)
{
	/*
	 * The limit counts overflows of this one event; inherited copies
	 * would each need their own, so it is refused for them.
	 */
	if (event->attr.inherit || !is_sampling_event(event))
		return -EINVAL;

	atomic_add(refresh, &event->event_limit);
	__perf_event_enable_locked(event);
	return 0;
}

/*
 * Move one breakpoint to what @attr describes.  It is taken off the PMU
 * for the change, and put back unless the new attr says disabled.
 */
static int fops_breakpoint_update(struct perf_event *bp,
				  struct perf_event_attr *attr)
{
	int err;

	/*
	 * sig_data belongs to no PMU and may always change; take it over
	 * first, so that the breakpoint code's "nothing but the breakpoint
	 * fields differ" test compares like with like.
	 */
	bp->attr.sig_data = attr->sig_data;

	__perf_event_disable_locked(bp);
	err = modify_user_hw_breakpoint_check(bp, attr, true);
	if (!bp->attr.disabled)
		__perf_event_enable_locked(bp);
	return err;
}

/* PERF_EVENT_IOC_MODIFY_ATTRIBUTES; ctx->mutex held. */
static int fops_modify_attr(struct perf_event *event,
			    struct perf_event_attr __user *uattr)
{
	struct perf_event_attr want;
	struct perf_attr_limits lim;
	struct perf_event *child;
	int err;

	err = perf_attr_copy(&want, uattr);
	if (err)
		return err;
	perf_attr_limits_init(&lim);
	err = perf_attr_check_fields(&want, &lim);
	if (err)
		return err;

	if (want.type != event->attr.type)
		return -EINVAL;
	/* Breakpoints are the only events whose attr can change in place. */
	if (event->attr.type != PERF_TYPE_BREAKPOINT)
		return -EOPNOTSUPP;

	mutex_lock(&event->child_mutex);
	err = fops_breakpoint_update(event, &want);
	if (!err) {
		list_for_each_entry(child, &event->child_list, child_list) {
			err = fops_breakpoint_update(child, &want);
			if (err)
				break;
		}
	}
	mutex_unlock(&event->child_mutex);

	return err;
}

/* ----------------------------------------------------------------------
 * ioctl
 */

static int fops_ioctl_set_output(struct perf_event *event, unsigned long arg)
{
	struct perf_event *target;
	struct fd f;
	int err;

	/* -1 detaches the event from whatever buffer it wrote to. */
	if (arg == (unsigned long)-1)
		return perf_event_set_output(event, NULL);

	err = perf_fget_event(arg, &f, &target);
	if (err)
		return err;
	err = perf_event_set_output(event, target);
	fdput(f);
	return err;
}

static int fops_ioctl_set_bpf(struct perf_event *event, unsigned long arg)
{
	struct bpf_prog *prog;
	int err;

	prog = bpf_prog_get(arg);
	if (IS_ERR(prog))
		return PTR_ERR(prog);

	/* On success the event owns the program reference. */
	err = perf_event_set_bpf_prog(event, prog, 0);
	if (err)
		bpf_prog_put(prog);
	return err;
}

static int fops_ioctl_pause_output(struct perf_event *event,
				   unsigned long arg)
{
	/* Pausing needs a buffer to pause. */
	if (!READ_ONCE(event->rb))
		return -EINVAL;

	perf_event_pause_output(event, arg != 0);
	return 0;
}

/* The ioctls, with the event's context mutex held. */
static long fops_ioctl_locked(struct perf_event *event, unsigned int cmd,
			      unsigned long arg)
{
	void __user *uptr = (void __user *)arg;
	fops_event_op op;

	switch (cmd) {
	case PERF_EVENT_IOC_ENABLE:
		op = __perf_event_enable_locked;
		break;
	case PERF_EVENT_IOC_DISABLE:
		op = __perf_event_disable_locked;
		break;
	case PERF_EVENT_IOC_RESET:
		op = fops_reset_count;
		break;

	case PERF_EVENT_IOC_REFRESH:
		return fops_refresh(event, (int)arg);

	case PERF_EVENT_IOC_PERIOD: {
		u64 period;

		if (copy_from_user(&period, uptr, sizeof(period)))
			return -EFAULT;
		return fops_set_period(event, period);
	}

	case PERF_EVENT_IOC_ID: {
		u64 id = perf_event_primary(event)->id;

		if (copy_to_user(uptr, &id, sizeof(id)))
			return -EFAULT;
		return 0;
	}

	case PERF_EVENT_IOC_SET_OUTPUT:
		return fops_ioctl_set_output(event, arg);

	case PERF_EVENT_IOC_PAUSE_OUTPUT:
		return fops_ioctl_pause_output(event, arg);

	case PERF_EVENT_IOC_QUERY_BPF:
		return perf_event_query_prog_array(event, uptr);

	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return fops_modify_attr(event, uptr);

	default:
		return -ENOTTY;
	}

	/* Enable, disable and reset: the event or its whole group. */
	if ((u32)arg & PERF_IOC_FLAG_GROUP)
		fops_apply_group(event, op);
	else
		fops_apply_inherited(event, op);
	return 0;
}

static long fops_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct perf_event *event = file->private_data;
	struct perf_event_context *locked;
	long err;

	/* Most ioctls change the event; the LSM sees them as writes. */
	err = security_perf_event_write(event);
	if (err)
		return err;

	/*
	 * Filters and BPF programs are attached by tracepoint.c, which takes
	 * the context mutex itself where it needs it (BPF links come in
	 * without an fd, so it cannot rely on this path's lock).
	 */
	if (cmd == PERF_EVENT_IOC_SET_FILTER)
		return perf_event_set_filter(event, (void __user *)arg);
	if (cmd == PERF_EVENT_IOC_SET_BPF)
		return fops_ioctl_set_bpf(event, arg);

	locked = perf_event_ctx_lock(event);
	err = fops_ioctl_locked(event, cmd, arg);
	perf_event_ctx_unlock(event, locked);
	return err;
}

#ifdef CONFIG_COMPAT
/*
 * Four ioctls encode "pointer" as their argument type, so a 32-bit
 * caller's command number carries a size of 4.  Rewrite it to the native
 * pointer size; the argument itself needs no conversion.
 */
static long fops_compat_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	unsigned int nr = _IOC_NR(cmd);
	bool takes_pointer;

	takes_pointer = nr == _IOC_NR(PERF_EVENT_IOC_ID) ||
			nr == _IOC_NR(PERF_EVENT_IOC_SET_FILTER) ||
			nr == _IOC_NR(PERF_EVENT_IOC_QUERY_BPF) ||
			nr == _IOC_NR(PERF_EVENT_IOC_MODIFY_ATTRIBUTES);

	if (takes_pointer && _IOC_SIZE(cmd) == sizeof(compat_uptr_t))
		cmd = (cmd & ~IOCSIZE_MASK) |
		      (sizeof(void *) << IOCSIZE_SHIFT);

	return fops_ioctl(file, cmd, arg);
}
#endif

const struct file_operations perf_fops = {
	.release	= fops_release,
	.read		= fops_read,
	.poll		= fops_poll,
	.unlocked_ioctl	= fops_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= fops_compat_ioctl,
#endif
	.mmap		= perf_mmap,
	.fasync		= fops_fasync,
};

/**
 * perf_fget_event() - the perf event behind a file descriptor
 * @fd: the descriptor
 * @f: returns the held file; release it with fdput()
 * @event: returns the event
 *
 * Return: 0, or -EBADF when @fd is not open or not a perf event.
 */
int perf_fget_event(int fd, struct fd *f, struct perf_event **event)
{
	struct fd got = fdget(fd);

	if (fd_empty(got))
		return -EBADF;
	if (!is_perf_file(fd_file(got))) {
		fdput(got);
		return -EBADF;
	}

	*f = got;
	*event = fd_file(got)->private_data;
	return 0;
}

/* ----------------------------------------------------------------------
 * The in-kernel API
 */

/**
 * perf_event_enable() - enable a counter
 * @event: the event
 *
 * Only @event itself: unlike the ioctl, inherited copies are not touched.
 */
void perf_event_enable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	__perf_event_enable_locked(event);
	perf_event_ctx_unlock(event, ctx);
}
EXPORT_SYMBOL_GPL(perf_event_enable);

/**
 * perf_event_disable() - disable a counter
 * @event: the event
 *
 * Only @event itself: unlike the ioctl, inherited copies are not touched.
 * May sleep; see perf_event_disable_local() for atomic callers.
 */
void perf_event_disable(struct perf_event *event)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);

	__perf_event_disable_locked(event);
	perf_event_ctx_unlock(event, ctx);
}
EXPORT_SYMBOL_GPL(perf_event_disable);

/**
 * perf_event_refresh() - allow @refresh more overflows, then enable
 * @event: a sampling event that is not inherited
 * @refresh: overflows to add to the event's limit
 *
 * Return: 0, or -EINVAL for an inherited or a counting-only event.
 */
int perf_event_refresh(struct perf_event *event, int refresh)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	int ret;

	ret = fops_refresh(event, refresh);
	perf_event_ctx_unlock(event, ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_event_refresh);

/**
 * perf_event_read_value() - the count of an event, children included
 * @event: the event
 * @enabled: returns time_enabled, children included
 * @running: returns time_running, children included
 *
 * Context: may sleep.
 * Return: the count, as read() reports it.
 */
u64 perf_event_read_value(struct perf_event *event, u64 *enabled,
			  u64 *running)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	u64 total;

	total = fops_total_count(event, enabled, running);
	perf_event_ctx_unlock(event, ctx);
	return total;
}
EXPORT_SYMBOL_GPL(perf_event_read_value);

/**
 * perf_event_period() - change the sample period (or frequency)
 * @event: a sampling event
 * @value: the new period, or for a frequency event the new frequency
 *
 * Return: 0 or -EINVAL (not sampling, zero, above the sample rate limit,
 * refused by the PMU, or not representable).
 */
int perf_event_period(struct perf_event *event, u64 value)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	int ret;

	ret = fops_set_period(event, value);
	perf_event_ctx_unlock(event, ctx);
	return ret;
}
EXPORT_SYMBOL_GPL(perf_event_period);

/**
 * perf_event_pause() - stop a counter and return what it counted
 * @event: a non-inherited event (its own count is all that is returned)
 * @reset: also set the count back to zero
 *
 * The event stays disabled; perf_event_enable() resumes it.
 *
 * Return: the count at the time it stopped.
 */
u64 perf_event_pause(struct perf_event *event, bool reset)
{
	struct perf_event_context *ctx = perf_event_ctx_lock(event);
	u64 value;

	WARN_ON_ONCE(event->attr.inherit);
	/* Disabling takes it off the PMU, which folds the final count in. */
	__perf_event_disable_locked(event);
	value = local64_read(&event->count);
	if (reset)
		local64_set(&event->count, 0);
	perf_event_ctx_unlock(event, ctx);

	return value;
}
EXPORT_SYMBOL_GPL(perf_event_pause);

/*
 * Can this CPU read a counter that belongs to @cpu?  Its own, or one of
 * a PMU whose counters are shared over a scope (core, die, package, ...)
 * that includes this CPU.
 */
static bool fops_readable_here(struct perf_event *event, int cpu)
{
	int here = smp_processor_id();
	const struct cpumask *span;

	if (cpu < 0 || cpu >= nr_cpu_ids)
		return false;
	if (cpu == here)
		return true;

	if (event->group_caps & PERF_EV_CAP_READ_SCOPE) {
		span = perf_pmu_scope_span(event->pmu->scope, cpu);
		if (span && cpumask_test_cpu(here, span))
			return true;
	}

	if ((event->group_caps & PERF_EV_CAP_READ_ACTIVE_PKG) &&
	    topology_physical_package_id(cpu) ==
	    topology_physical_package_id(here))
		return true;

	return false;
}

/**
 * perf_event_read_local() - read an event from any context, NMI included
 * @event: an event of the current task, or of this CPU
 * @value: returns the count
 * @enabled: if not NULL, returns time_enabled
 * @running: if not NULL, returns time_running
 *
 * For BPF and other atomic readers.  Inherited events cannot be read
 * this way: their children count in other tasks.
 *
 * Return: 0; -EOPNOTSUPP for an inherited event; -EINVAL for an event of
 * another task or another CPU; -EBUSY for a pinned event that is not on
 * a counter of this CPU.
 */
int perf_event_read_local(struct perf_event *event, u64 *value,
			  u64 *enabled, u64 *running)
{
	bool task_event = event->attach_state & PERF_ATTACH_TASK;
	unsigned long flags;
	bool active_here;
	int ret = 0;

	/*
	 * With interrupts off nothing can move the event on or off a
	 * counter under us: no context switch, no rotation, no IPI.
	 */
	local_irq_save(flags);

	if (event->attr.inherit) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	if (task_event && event->hw.target != current) {
		ret = -EINVAL;
		goto out;
	}
	if (!task_event && !fops_readable_here(event, event->cpu)) {
		ret = -EINVAL;
		goto out;
	}

	/* oncpu is -1 unless the event holds a counter, so ACTIVE is implied. */
	active_here = fops_readable_here(event, READ_ONCE(event->oncpu));
	if (event->attr.pinned && !active_here) {
		ret = -EBUSY;
		goto out;
	}
	if (active_here)
		event->pmu->read(event);

	*value = local64_read(&event->count);
	if (enabled || running) {
		u64 t_en, t_run;

		perf_event_read_times(event, &t_en, &t_run);
		if (enabled)
			*enabled = t_en;
		if (running)
			*running = t_run;
	}
out:
	local_irq_restore(flags);
	return ret;
}

/* prctl(): @op on every event the current task opened, children included. */
static void fops_owned_events_apply(fops_event_op op)
{
	struct task_struct *me = current;
	struct perf_event *owned;

	mutex_lock(&me->perf_event_mutex);
	list_for_each_entry(owned, &me->perf_event_list, owner_entry) {
		struct perf_event_context *locked = perf_event_ctx_lock(owned);

		fops_apply_inherited(owned, op);
		perf_event_ctx_unlock(owned, locked);
	}
	mutex_unlock(&me->perf_event_mutex);
}

/**
 * perf_event_task_enable() - prctl(PR_TASK_PERF_EVENTS_ENABLE)
 *
 * Enables every event the current task owns, with its inherited copies.
 * Return: 0.
 */
int perf_event_task_enable(void)
{
	fops_owned_events_apply(__perf_event_enable_locked);
	return 0;
}

/**
 * perf_event_task_disable() - prctl(PR_TASK_PERF_EVENTS_DISABLE)
 *
 * Disables every event the current task owns, with its inherited copies.
 * Return: 0.
 */
int perf_event_task_disable(void)
{
	fops_owned_events_apply(__perf_event_disable_locked);
	return 0;
}

/**
 * perf_event_get() - take the file of a perf event descriptor
 * @fd: the descriptor
 *
 * Return: the file with a reference held (drop it with fput()), or
 * ERR_PTR(-EBADF) when @fd is not open or not a perf event.
 */
struct file *perf_event_get(unsigned int fd)
{
	struct file *file = fget(fd);

	if (!file)
		return ERR_PTR(-EBADF);
	if (!is_perf_file(file)) {
		fput(file);
		return ERR_PTR(-EBADF);
	}
	return file;
}

/**
 * perf_get_event() - the event of a file
 * @file: a file, perhaps a perf event's
 *
 * Return: the event, or ERR_PTR(-EINVAL) for any other file.
 */
const struct perf_event *perf_get_event(struct file *file)
{
	if (!is_perf_file(file))
		return ERR_PTR(-EINVAL);
	return file->private_data;
}

/**
 * perf_event_attrs() - the attributes an event was opened with
 * @event: the event, or NULL
 *
 * Return: the attr, or ERR_PTR(-EINVAL) for NULL.
 */
const struct perf_event_attr *perf_event_attrs(struct perf_event *event)
{
	if (!event)
		return ERR_PTR(-EINVAL);
	return &event->attr;
}
