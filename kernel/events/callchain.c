// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: scratch space for callchains.
 *
 * A sample with PERF_SAMPLE_CALLCHAIN, and BPF's stack helpers, build the
 * chain of return addresses at the moment of an interrupt, often an NMI.
 * Nothing may be allocated or locked there, so the memory is set aside
 * up front: one entry per CPU and per interrupt-context level (task,
 * softirq, hardirq, NMI), each big enough for the longest chain the
 * sysctls allow.  A sample taken at one level can interrupt one being
 * built at a lower level without either trampling the other.
 *
 * The set exists only while something may need it: perf events that
 * sample callchains and BPF programs or maps that walk stacks each take
 * a reference with get_callchain_buffers() and drop it with
 * put_callchain_buffers().
 *
 * Locking:
 *  - callchain_lock (a mutex, owned by this file) serialises the user
 *    count, allocating and freeing the set, and writes to the two sysctls
 *    that size it.  The sysctls are refused while the set exists, so the
 *    stride recorded in it never goes stale.
 *  - Readers run with interrupts or preemption off and find the set with
 *    rcu_dereference(); a set is freed only after a grace period.
 *  - callchain_busy, per CPU, marks the levels whose entry is being
 *    filled; only the CPU itself touches its flags.
 */

#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/uprobes.h>

int sysctl_perf_event_max_stack __read_mostly = PERF_MAX_STACK_DEPTH;
int sysctl_perf_event_max_contexts_per_stack __read_mostly =
	PERF_MAX_CONTEXTS_PER_STACK;

/**
 * struct callchain_set - the entries of every CPU
 * @rcu: deferred free, once readers that may still hold an entry are gone
 * @stride: bytes from one level's entry to the next
 * @cpu_area: per possible CPU, %PERF_NR_CONTEXTS entries of @stride bytes
 *
 * Plain node-local allocations rather than percpu memory: an NMI must not
 * take a fault, and on some architectures percpu chunks live in vmalloc
 * space that is mapped lazily.
 */
struct callchain_set {
	struct rcu_head	rcu;
	size_t		stride;
	void		*cpu_area[];
};

struct callchain_busy {
	u8	level[PERF_NR_CONTEXTS];
};

static DEFINE_MUTEX(callchain_lock);
static unsigned int callchain_users;
static struct callchain_set __rcu *callchain_set;
static DEFINE_PER_CPU(struct callchain_busy, callchain_busy);

/* Architectures without unwinders leave chains empty. */
__weak void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
				  struct pt_regs *regs)
{
}

__weak void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
				struct pt_regs *regs)
{
}

static void callchain_set_destroy(struct callchain_set *set)
{
	int cpu;

	for_each_possible_cpu(cpu)
		kfree(set->cpu_area[cpu]);
	kfree(set);
}

static void callchain_set_destroy_rcu(struct rcu_head *rcu)
{
	callchain_set_destroy(container_of(rcu, struct callchain_set, rcu));
}

static int callchain_set_create(void)
{
	unsigned int slots = sysctl_perf_event_max_stack +
			     sysctl_perf_event_max_contexts_per_stack;
	struct callchain_set *set;
	int cpu;

	set = kzalloc(struct_size(set, cpu_area, nr_cpu_ids), GFP_KERNEL);
	if (!set)
		return -ENOMEM;
	set->stride = struct_size_t(struct perf_callchain_entry, ip, slots);

	for_each_possible_cpu(cpu) {
		set->cpu_area[cpu] = kmalloc_node(set->stride * PERF_NR_CONTEXTS,
						  GFP_KERNEL, cpu_to_node(cpu));
		if (!set->cpu_area[cpu]) {
			callchain_set_destroy(set);
			return -ENOMEM;
		}
	}
	rcu_assign_pointer(callchain_set, set);
	return 0;
}

/**
 * get_callchain_buffers - take a reference on the callchain entries
 * @event_max_stack: the deepest chain the caller will ask for
 *
 * Allocates the entries on the first reference.  Must be able to sleep.
 *
 * Return: 0 on success; -EOVERFLOW if @event_max_stack is above
 * kernel.perf_event_max_stack (a distinct errno, so that a tool can tell
 * the user to raise the sysctl); -ENOMEM.
 */
int get_callchain_buffers(int event_max_stack)
{
	int err = 0;

	mutex_lock(&callchain_lock);
	if (event_max_stack > sysctl_perf_event_max_stack)
		err = -EOVERFLOW;
	else if (!callchain_users)
		err = callchain_set_create();
	if (!err)
		callchain_users++;
	mutex_unlock(&callchain_lock);
	return err;
}

/**
 * put_callchain_buffers - drop a reference taken by get_callchain_buffers()
 *
 * Frees the entries, after an RCU grace period, with the last reference.
 * Must be able to sleep.
 */
void put_callchain_buffers(void)
{
	struct callchain_set *set;

	mutex_lock(&callchain_lock);
	if (!WARN_ON_ONCE(!callchain_users) && !--callchain_users) {
		set = rcu_dereference_protected(callchain_set,
						lockdep_is_held(&callchain_lock));
		RCU_INIT_POINTER(callchain_set, NULL);
		call_rcu(&set->rcu, callchain_set_destroy_rcu);
	}
	mutex_unlock(&callchain_lock);
}

/**
 * get_callchain_entry - claim this CPU's entry for the current context level
 * @rctx: set to the claimed level, to be passed to put_callchain_entry()
 *
 * Call from an RCU read-side section with preemption disabled (as
 * overflow handlers and BPF programs run), between
 * get_callchain_buffers() and put_callchain_buffers().
 *
 * Return: the entry, or NULL if there are no entries or this level's
 * entry is already being filled (a recursive sample); put_callchain_entry()
 * must not be called then.
 */
struct perf_callchain_entry *get_callchain_entry(int *rctx)
{
	struct callchain_busy *busy = this_cpu_ptr(&callchain_busy);
	unsigned char level = interrupt_context_level();
	struct callchain_set *set;

	*rctx = -1;
	if (busy->level[level])
		return NULL;
	set = rcu_dereference(callchain_set);
	if (!set)
		return NULL;

	busy->level[level] = 1;
	barrier();	/* claim the level before filling its entry */
	*rctx = level;
	return set->cpu_area[smp_processor_id()] + level * set->stride;
}

/**
 * put_callchain_entry - release an entry claimed by get_callchain_entry()
 * @rctx: the level get_callchain_entry() returned
 *
 * The entry stays readable until the caller re-enables preemption or
 * interrupts; it only becomes free for the next sample at this level.
 */
void put_callchain_entry(int rctx)
{
	barrier();	/* finish filling the entry before releasing it */
	this_cpu_ptr(&callchain_busy)->level[rctx] = 0;
}

/*
 * A pending uretprobe has replaced a return address on the user stack
 * with the uprobes trampoline.  The instances are kept innermost first,
 * which is also the order the unwinder meets the trampolines in, so the
 * n-th trampoline in the chain stands for the n-th instance.
 */
static void callchain_restore_uretprobes(struct perf_callchain_entry *entry,
					 u64 first)
{
#ifdef CONFIG_UPROBES
	struct uprobe_task *utask = current->utask;
	struct return_instance *ri = utask ? utask->return_instances : NULL;
	unsigned long trampoline;
	u64 i;

	if (likely(!ri))
		return;
	trampoline = uprobe_get_trampoline_vaddr();
	for (i = first; i < entry->nr && ri; i++) {
		if (entry->ip[i] == trampoline) {
			entry->ip[i] = ri->orig_ret_vaddr;
			ri = ri->next;
		}
	}
#endif
}

static void callchain_walk_user(struct perf_callchain_entry_ctx *ctx,
				struct pt_regs *regs, bool add_mark)
{
	u64 first;

	/*
	 * Interrupted in the kernel: the user part of the chain starts at
	 * the registers saved on kernel entry.  Kernel threads have none.
	 */
	if (!user_mode(regs)) {
		if (!is_user_task(current))
			return;
		regs = task_pt_regs(current);
	}
	if (add_mark)
		perf_callchain_store_context(ctx, PERF_CONTEXT_USER);
	first = ctx->entry->nr;
	perf_callchain_user(ctx, regs);
	callchain_restore_uretprobes(ctx->entry, first);
}

/**
 * get_perf_callchain - record the call chain at @regs
 * @regs: the interrupted registers
 * @kernel: include the kernel part (if @regs are kernel registers)
 * @user: include the user part
 * @max_stack: the most return addresses to record, markers not counted
 * @crosstask: @regs belong to a task other than current
 * @add_mark: precede each part with its PERF_CONTEXT_* marker
 *
 * Call from an RCU read-side section with preemption disabled (as
 * overflow handlers and BPF programs run), between
 * get_callchain_buffers() and put_callchain_buffers().  Another task's
 * user stack cannot be read from here, so a cross-task request for the
 * user part alone gets nothing.
 *
 * Return: the chain, valid until interrupts or preemption are re-enabled,
 * or NULL if no entry was free.
 */
struct perf_callchain_entry *
get_perf_callchain(struct pt_regs *regs, bool kernel, bool user,
		   u32 max_stack, bool crosstask, bool add_mark)
{
	struct perf_callchain_entry_ctx ctx = { .max_stack = max_stack };
	int rctx;

	if (crosstask && user && !kernel)
		return NULL;
	ctx.entry = get_callchain_entry(&rctx);
	if (!ctx.entry)
		return NULL;
	ctx.entry->nr = 0;

	if (kernel && !user_mode(regs)) {
		if (add_mark)
			perf_callchain_store_context(&ctx, PERF_CONTEXT_KERNEL);
		perf_callchain_kernel(&ctx, regs);
	}
	if (user && !crosstask)
		callchain_walk_user(&ctx, regs, add_mark);

	put_callchain_entry(rctx);
	return ctx.entry;
}

/**
 * perf_event_max_stack_handler - sysctl handler for the callchain limits
 * @table: kernel.perf_event_max_stack or
 *	kernel.perf_event_max_contexts_per_stack
 * @write: whether this is a write
 * @buffer: the value, as text
 * @lenp: its length
 * @ppos: the file position
 *
 * The entries are sized from both limits, so a new value is only taken
 * while no entries exist.
 *
 * Return: 0, a proc_dointvec_minmax() error, or -EBUSY if callchain
 * users exist.
 */
int perf_event_max_stack_handler(const struct ctl_table *table, int write,
				 void *buffer, size_t *lenp, loff_t *ppos)
{
	int *limit = table->data;
	int value = *limit;
	struct ctl_table parsed = *table;
	int ret;

	parsed.data = &value;
	ret = proc_dointvec_minmax(&parsed, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;

	mutex_lock(&callchain_lock);
	if (callchain_users)
		ret = -EBUSY;
	else
		*limit = value;
	mutex_unlock(&callchain_lock);
	return ret;
}
