// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: perf_event_open(2) and counters created by the kernel.
 *
 * Opening an event is a sequence of decisions, each of which can refuse
 * with an errno that user space has come to rely on, so the order below
 * is part of the ABI:
 *
 *   1. the flags argument and the attr on its own (attr.c);
 *   2. the cgroup mode's pid/cpu pairing;
 *   3. the group fd, then the target task;
 *   4. the event itself: PMU, references (event.c), then what only the
 *      bound PMU can tell (attr.c);
 *   5. may the caller watch the target (ptrace rules for a task, the
 *      paranoia level for a CPU);
 *   6. under the target context's mutex: is the target still there, is
 *      the group compatible, the output redirection, sizes, AUX links and
 *      exclusive PMUs;
 *   7. the file, and only then the changes that cannot be undone.
 *
 * exec_update_lock is held (for a task target) from the permission check
 * until the event is installed, so that an exec that changes credentials
 * cannot slip between "may watch" and "is watching".
 */
#include <linux/anon_inodes.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/ptrace.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/security.h>
#include <linux/syscalls.h>

#include "attr.h"
#include "internal.h"
#include "layout.h"

/*
 * kernel.perf_event_paranoid:
 *   -1  no restrictions
 *    0  no raw tracepoint access for the unprivileged
 *    1  additionally no CPU-wide events
 *    2  additionally no kernel profiling
 *    3+ no perf_event_open(2) at all without CAP_SYS_ADMIN
 */
int sysctl_perf_event_paranoid __read_mostly = 2;

/**
 * perf_allow_kernel() - may the caller observe kernel state?
 *
 * Counting or sampling the kernel is refused to unprivileged callers from
 * paranoia level 2 on; the LSM has the last word.
 *
 * Return: 0, -EACCES or the LSM's errno.
 */
int perf_allow_kernel(void)
{
	bool restricted = sysctl_perf_event_paranoid > 1;

	if (restricted && !perfmon_capable())
		return -EACCES;
	return security_perf_event_open(PERF_SECURITY_KERNEL);
}
EXPORT_SYMBOL_GPL(perf_allow_kernel);

/* Everything one perf_event_open() call collects on its way. */
struct open_state {
	struct perf_event_attr		attr;
	unsigned long			flags;
	int				cpu;
	int				cgroup_fd;

	struct fd			group_file;	/* pins @leader and @output */
	struct perf_event		*leader;	/* group to join */
	struct perf_event		*output;	/* PERF_FLAG_FD_OUTPUT */
	struct task_struct		*task;		/* referenced */
	bool				exec_locked;

	struct perf_event		*event;
	struct perf_event_context	*ctx;		/* referenced */
	struct pmu			*pmu;		/* for the pmu context */
	bool				move_group;
};

/* pid 0 is the caller; otherwise a thread id in the caller's namespace. */
static struct task_struct *sc_task_by_vpid(pid_t pid)
{
	struct task_struct *task;

	rcu_read_lock();
	task = pid ? find_task_by_vpid(pid) : current;
	if (task)
		get_task_struct(task);
	rcu_read_unlock();

	return task ? task : ERR_PTR(-ESRCH);
}

/*
 * May the caller watch @task?  Privileged callers may; everyone else needs
 * ptrace read access.  A sigtrap event makes @task take signals, which is
 * closer to controlling it: CAP_KILL over it is needed on top of the perf
 * privilege, or else ptrace attach rights.
 */
static bool sc_may_watch(const struct perf_event_attr *attr,
			 struct task_struct *task)
{
	unsigned int mode = PTRACE_MODE_READ_REALCREDS;
	bool privileged = perfmon_capable();
	bool may_kill;

	if (attr->sigtrap) {
		rcu_read_lock();
		may_kill = ns_capable(__task_cred(task)->user_ns, CAP_KILL);
		rcu_read_unlock();
		privileged = privileged && may_kill;
		mode = PTRACE_MODE_ATTACH_REALCREDS;
	}

	if (privileged)
		return true;
	return ptrace_may_access(task, mode);
}

/*
 * A read of the group, with the new member in it, must fit a record:
 * checked for the newcomer's read_format and for every existing member's,
 * since each of them reads the grown group.
 */
static bool sc_read_fits(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	unsigned int members = leader->nr_siblings + 2;
	struct perf_event *sib;

	if (perf_read_size(event->attr.read_format, members) > PERF_READ_SIZE_MAX)
		return false;
	if (perf_read_size(leader->attr.read_format, members) > PERF_READ_SIZE_MAX)
		return false;
	if (leader == event)
		return true;

	for_each_sibling_event(sib, leader) {
		if (perf_read_size(sib->attr.read_format, members) >
		    PERF_READ_SIZE_MAX)
			return false;
	}
	return true;
}

/*
 * aux_output, aux_sample_size, aux_pause and aux_resume make an event act
 * on the AUX area of its group leader, which must be able to do it.  On
 * success the event holds a reference on the leader in ->aux_event, which
 * group teardown (or, failing that, perf_free_event()) drops.
 */
static bool sc_link_aux(struct perf_event *event, struct perf_event *leader)
{
	struct perf_event_attr *attr = &event->attr;
	struct pmu *lpmu;

	if (!attr->aux_output && !has_aux_action(event))
		return true;
	if (!leader)
		return false;

	lpmu = leader->pmu;
	/* Either the leader writes AUX records for us or we sample it. */
	if (attr->aux_output && attr->aux_sample_size)
		return false;
	if (attr->aux_output &&
	    (!has_aux(leader) || !event->pmu->aux_output_match ||
	     !event->pmu->aux_output_match(leader)))
		return false;
	if ((attr->aux_pause || attr->aux_resume) &&
	    !(lpmu->capabilities & PERF_PMU_CAP_AUX_PAUSE))
		return false;
	if (attr->aux_sample_size && !lpmu->snapshot_aux)
		return false;

	if (!perf_event_tryget(leader))
		return false;
	event->aux_event = leader;
	return true;
}

/*
 * An exclusive PMU takes one event per CPU: refuse a second one in the
 * same context whose CPU could coincide.  ctx->mutex serialises us
 * against other openers of the same context.
 */
static bool sc_exclusive_fits(struct perf_event *event,
			      struct perf_event_context *ctx)
{
	struct perf_event *other;

	lockdep_assert_held(&ctx->mutex);

	if (!is_exclusive_pmu(event->pmu))
		return true;

	list_for_each_entry(other, &ctx->event_list, event_entry) {
		if (other->pmu != event->pmu)
			continue;
		if (other->cpu == -1 || event->cpu == -1 ||
		    other->cpu == event->cpu)
			return false;
	}
	return true;
}

/*
 * The last checks before an event goes into @ctx, the same for events
 * opened by user space and by the kernel: an exclusive PMU's room, then
 * @pmu's part of the context for the event.  ctx->mutex held.
 *
 * Return: 0 with event->pmu_ctx set, -EBUSY or -ENOMEM.
 */
static int sc_bind(struct perf_event *event, struct perf_event_context *ctx,
		   struct pmu *pmu)
{
	struct perf_event_pmu_context *epc;

	if (!sc_exclusive_fits(event, ctx))
		return -EBUSY;
	epc = perf_find_get_pmu_context(pmu, ctx, event);
	if (IS_ERR(epc))
		return PTR_ERR(epc);
	event->pmu_ctx = epc;
	return 0;
}

/*
 * Can the new event join @st->leader's group?  Decides which PMU's part
 * of the context the event goes to (@st->pmu) and whether a pure software
 * group must first move over to the new event's PMU.  ctx->mutex held.
 */
static int sc_check_group(struct open_state *st)
{
	struct perf_event *leader = st->leader;
	struct perf_event *event = st->event;

	if (!leader)
		return 0;

	/* Groups are one level deep. */
	if (leader->group_leader != leader)
		return -EINVAL;
	/* Members are read together, so they must agree on time and CPU. */
	if (leader->clock != event->clock)
		return -EINVAL;
	if (leader->cpu != event->cpu)
		return -EINVAL;
	if (leader->ctx != st->ctx)
		return -EINVAL;
	/* remove_on_exec may have killed the leader since we looked. */
	if (leader->state <= PERF_EVENT_STATE_EXIT)
		return -ENODEV;
	/* These are properties of a whole group, set on its leader. */
	if (event->attr.exclusive || event->attr.pinned)
		return -EINVAL;

	if (is_software_event(event)) {
		/*
		 * A software event never fails to go on, so it may ride
		 * along in the pmu context of a hardware group.
		 */
		if (!in_software_context(leader))
			st->pmu = leader->pmu_ctx->pmu;
		return 0;
	}

	/* A hardware event turns an all-software group into its own. */
	if (is_software_event(leader) &&
	    (leader->group_caps & PERF_EV_CAP_SOFTWARE))
		st->move_group = true;

	/* Two hardware PMUs cannot be scheduled as one group. */
	if (!in_software_context(leader) && leader->pmu_ctx->pmu != st->pmu)
		return -EINVAL;
	return 0;
}

/* Give back one reference on @epc per member listed, and empty the list. */
static void sc_move_abandon(struct perf_event_pmu_context *epc,
			    struct list_head *members, bool put)
{
	struct perf_event *m, *tmp;

	list_for_each_entry_safe(m, tmp, members, migrate_entry) {
		list_del_init(&m->migrate_entry);
		if (put)
			perf_put_pmu_ctx(epc);
	}
}

/*
 * For a group move: list the current members of the group, leader first,
 * on @members (through migrate_entry, which nobody else uses while we
 * hold ctx->mutex), and take one reference on @epc for each of them now,
 * so that the move itself cannot fail.  Return: 0, or an errno with
 * nothing held and @members empty.
 */
static int sc_move_prepare(struct open_state *st,
			   struct perf_event_pmu_context *epc,
			   struct list_head *members)
{
	struct perf_event *leader = st->leader;
	struct perf_event_pmu_context *got;
	struct perf_event *m;
	int taken = 0;

	list_add_tail(&leader->migrate_entry, members);
	for_each_sibling_event(m, leader)
		list_add_tail(&m->migrate_entry, members);

	list_for_each_entry(m, members, migrate_entry) {
		got = perf_find_get_pmu_context(st->pmu, st->ctx, m);
		if (IS_ERR(got)) {
			sc_move_abandon(epc, members, false);
			while (taken--)
				perf_put_pmu_ctx(epc);
			return PTR_ERR(got);
		}
		/* One PMU in one context: it can only be the same object. */
		WARN_ON_ONCE(got != epc);
		taken++;
	}
	return 0;
}

/*
 * Move a software-only group into @epc, the new hardware event's pmu
 * context.  Each member leaves the context and the group, then they come
 * back in the usual way a group is built: the leader first, then the
 * members joining it, each starting out as a freshly opened event would.
 * The references on @epc come from sc_move_prepare().
 */
static void sc_move_group(struct open_state *st,
			  struct perf_event_pmu_context *epc,
			  struct list_head *members)
{
	struct perf_event *leader = st->leader;
	struct perf_event_pmu_context *old;
	struct perf_event *m, *tmp;

	list_for_each_entry(m, members, migrate_entry) {
		if (m != leader)
			perf_remove_from_context(m, DETACH_GROUP);
	}
	perf_remove_from_context(leader, DETACH_GROUP);

	list_for_each_entry_safe(m, tmp, members, migrate_entry) {
		list_del_init(&m->migrate_entry);
		old = m->pmu_ctx;
		m->pmu_ctx = epc;
		perf_put_pmu_ctx(old);
		m->group_leader = leader;
		/* Out of the context, so nothing else looks at the state. */
		m->state = m->attr.disabled ? PERF_EVENT_STATE_OFF :
					      PERF_EVENT_STATE_INACTIVE;
		perf_install_in_context(st->ctx, m);
	}
}

/* Release what the open collected before the event existed. */
static void sc_drop_inputs(struct open_state *st)
{
	if (st->task) {
		put_task_struct(st->task);
		st->task = NULL;
	}
	fdput(st->group_file);
	st->group_file = EMPTY_FD;
}

/*
 * Steps 3 and on of the open: everything from the group fd up to an
 * installed event behind a file.  Return: the file, or an ERR_PTR with
 * nothing held but what sc_drop_inputs() releases.
 */
static struct file *sc_open_event(struct open_state *st, pid_t pid,
				  int group_fd, int f_flags)
{
	struct perf_event_pmu_context *epc;
	struct perf_event *event;
	LIST_HEAD(members);
	struct file *file;
	int err;

	if (group_fd != -1) {
		err = perf_fget_event(group_fd, &st->group_file, &st->leader);
		if (err)
			return ERR_PTR(err);
		if (st->leader->state <= PERF_EVENT_STATE_EXIT)
			return ERR_PTR(-ENODEV);
		if (st->flags & PERF_FLAG_FD_OUTPUT)
			st->output = st->leader;
		if (st->flags & PERF_FLAG_FD_NO_GROUP)
			st->leader = NULL;
	}

	if (pid != -1 && !(st->flags & PERF_FLAG_PID_CGROUP)) {
		st->task = sc_task_by_vpid(pid);
		if (IS_ERR(st->task)) {
			err = PTR_ERR(st->task);
			st->task = NULL;
			return ERR_PTR(err);
		}
	}

	/* The whole group is inherited into children, or none of it. */
	if (st->task && st->leader &&
	    st->leader->attr.inherit != st->attr.inherit)
		return ERR_PTR(-EINVAL);

	event = perf_event_alloc(&st->attr, st->cpu, st->task, st->leader,
				 NULL, NULL, NULL, st->cgroup_fd, NULL);
	if (IS_ERR(event))
		return ERR_CAST(event);
	st->event = event;
	st->pmu = event->pmu;

	/* Sampling needs interrupts; the clock must be readable there. */
	err = perf_attr_check_bound(&event->attr, event->pmu->capabilities);
	if (err)
		goto free_event;

	if (st->task) {
		err = down_read_interruptible(&st->task->signal->exec_update_lock);
		if (err)
			goto free_event;
		st->exec_locked = true;

		if (!sc_may_watch(&event->attr, st->task)) {
			err = -EACCES;
			goto unlock_exec;
		}
	} else {
		/* Everything that runs on a CPU: a privilege of its own. */
		err = perf_allow_cpu();
		if (err)
			goto unlock_exec;
	}

	st->ctx = perf_find_lock_context(st->task, event->cpu);
	if (IS_ERR(st->ctx)) {
		err = PTR_ERR(st->ctx);
		st->ctx = NULL;
		goto unlock_exec;
	}

	err = sc_check_group(st);
	if (err)
		goto unlock_ctx;

	if (st->output) {
		err = perf_event_set_output(event, st->output);
		if (err)
			goto unlock_ctx;
	}

	if (!sc_read_fits(event)) {
		err = -E2BIG;
		goto unlock_ctx;
	}

	if (!sc_link_aux(event, st->leader)) {
		err = -EINVAL;
		goto unlock_ctx;
	}

	err = sc_bind(event, st->ctx, st->pmu);
	if (err)
		goto unlock_ctx;
	epc = event->pmu_ctx;

	if (st->move_group) {
		err = sc_move_prepare(st, epc, &members);
		if (err)
			goto put_epc;
	}

	file = anon_inode_getfile("[perf_event]", &perf_fops, event, f_flags);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		/* Give back the references the move would have used. */
		sc_move_abandon(epc, &members, true);
		goto put_epc;
	}

	/* Nothing below can fail. */
	if (st->move_group)
		sc_move_group(st, epc, &members);

	/* Sizes depend on the group, which our mutex now keeps still. */
	perf_event_compute_sizes(event);
	/* The context reference passes to the event here. */
	perf_install_in_context(st->ctx, event);
	mutex_unlock(&st->ctx->mutex);

	if (st->exec_locked) {
		up_read(&st->task->signal->exec_update_lock);
		st->exec_locked = false;
	}

	perf_event_set_owner(event, current);
	return file;

put_epc:
	perf_put_pmu_ctx(event->pmu_ctx);
	event->pmu_ctx = NULL;
unlock_ctx:
	mutex_unlock(&st->ctx->mutex);
	perf_put_ctx(st->ctx);
	st->ctx = NULL;
unlock_exec:
	if (st->exec_locked) {
		up_read(&st->task->signal->exec_update_lock);
		st->exec_locked = false;
	}
free_event:
	perf_free_event(event);
	st->event = NULL;
	return ERR_PTR(err);
}

/**
 * sys_perf_event_open - open a performance event
 * @attr_uptr: the event's attributes
 * @pid: the task to watch (0: the caller, -1: every task on @cpu), or
 *	with PERF_FLAG_PID_CGROUP the fd of a cgroup directory
 * @cpu: the CPU to watch, or -1 for every CPU the task runs on
 * @group_fd: an event fd whose group to join, or -1
 * @flags: PERF_FLAG_*
 *
 * Return: the new event's fd, or a negative errno.
 */
SYSCALL_DEFINE5(perf_event_open,
		struct perf_event_attr __user *, attr_uptr,
		pid_t, pid, int, cpu, int, group_fd, unsigned long, flags)
{
	struct perf_attr_limits limits;
	struct open_state st = {
		.flags		= flags,
		.cpu		= cpu,
		.cgroup_fd	= -1,
		.group_file	= EMPTY_FD,
	};
	int f_flags = O_RDWR;
	struct file *file;
	int fd, err;

	if (flags & ~PERF_FLAG_ALL)
		return -EINVAL;

	err = perf_attr_copy(&st.attr, attr_uptr);
	if (err)
		return err;

	perf_attr_limits_init(&limits);
	err = perf_attr_validate(&st.attr, &limits);
	if (err)
		return err;

	/* In cgroup mode @pid names the cgroup and @cpu must be a CPU. */
	if (flags & PERF_FLAG_PID_CGROUP) {
		if (pid == -1 || cpu == -1)
			return -EINVAL;
		st.cgroup_fd = pid;
	}

	if (flags & PERF_FLAG_FD_CLOEXEC)
		f_flags |= O_CLOEXEC;

	fd = get_unused_fd_flags(f_flags);
	if (fd < 0)
		return fd;

	file = sc_open_event(&st, pid, group_fd, f_flags);
	/*
	 * The group file is let go only now: the new member is on the
	 * leader's sibling list, so the leader's release will find it.
	 */
	sc_drop_inputs(&st);
	if (IS_ERR(file)) {
		put_unused_fd(fd);
		return PTR_ERR(file);
	}

	fd_install(fd, file);
	return fd;
}

/**
 * perf_event_create_kernel_counter() - an event owned by kernel code
 * @attr: the attributes; no group, no AUX linking
 * @cpu: the CPU to count on, or -1 for a task counter on any CPU
 * @task: the task to count, or NULL for a CPU counter
 * @overflow_handler: called on overflow instead of writing a sample
 * @context: cookie for @overflow_handler
 *
 * No permission checks: the caller is the kernel.  Release the event with
 * perf_event_release_kernel().
 *
 * Return: the event, installed and (unless attr->disabled) counting; or
 * an ERR_PTR().
 */
struct perf_event *
perf_event_create_kernel_counter(struct perf_event_attr *attr, int cpu,
				 struct task_struct *task,
				 perf_overflow_handler_t overflow_handler,
				 void *context)
{
	struct perf_event_context *ctx;
	struct perf_event *event;
	int err;

	/* Linking to an AUX leader needs a group, which kernel users lack. */
	if (attr->aux_output || attr->aux_action)
		return ERR_PTR(-EINVAL);
	if (attr->use_clockid && !perf_attr_clock(attr->clockid, NULL))
		return ERR_PTR(-EINVAL);

	event = perf_event_alloc(attr, cpu, task, NULL, NULL,
				 overflow_handler, context, -1, NULL);
	if (IS_ERR(event))
		return event;

	/* No fd, no prctl owner: marks the event as the kernel's. */
	event->owner = TASK_TOMBSTONE;
	ctx = perf_find_lock_context(task, event->cpu);
	if (IS_ERR(ctx)) {
		err = PTR_ERR(ctx);
		goto free_event;
	}

	err = sc_bind(event, ctx, event->pmu);
	if (err)
		goto unlock;

	perf_install_in_context(ctx, event);
	mutex_unlock(&ctx->mutex);
	return event;

unlock:
	mutex_unlock(&ctx->mutex);
	perf_put_ctx(ctx);
free_event:
	perf_free_event(event);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(perf_event_create_kernel_counter);
