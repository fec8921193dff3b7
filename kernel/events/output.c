// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what events write, and what happens when they overflow.
 *
 * Four parts, in this order:
 *
 *  1. Sizes and the sample_id trailer.  A sample's fixed part is worked out
 *     when the event is opened (layout.c); the overflow path fills a
 *     struct perf_sample_data and then walks the same item list to copy it
 *     into the ring buffer.
 *  2. Samples: perf_prepare_sample() completes what the PMU driver did not
 *     fill, perf_output_sample() writes it.
 *  3. Overflow: throttling, frequency bookkeeping, event_limit, SIGTRAP,
 *     the BPF hook, the overflow handler and the deferred (irq_work and
 *     task_work) actions that NMI context cannot do itself.
 *  4. Side-band records (mmap, comm, fork/exit, switch, ...), sent to the
 *     events that registered interest in them, and the sample-rate sysctls.
 *
 * Nothing here takes a context lock: samples are written from the PMU
 * interrupt (often an NMI) and side-band records from hooks of the rest of
 * the kernel, under RCU with preemption off.
 */
#include <linux/bpf.h>
#include <linux/buildid.h>
#include <linux/cgroup.h>
#include <linux/dcache.h>
#include <linux/export.h>
#include <linux/hash.h>
#include <linux/hugetlb.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pgtable.h>
#include <linux/pid_namespace.h>
#include <linux/proc_ns.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sysctl.h>
#include <linux/task_work.h>
#include <linux/tick.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "layout.h"
#include "freq.h"

/* ======================================================================
 * Small helpers
 */

/* The clock of PERF_SAMPLE_TIME: the event's (attr.use_clockid) or perf's. */
static inline u64 perf_event_now(struct perf_event *event)
{
	return event->clock ? event->clock() : perf_clock();
}

/* pid/tid in the namespace of the event that user space opened. */
static u32 perf_event_nr_in_ns(struct perf_event *event,
			       struct task_struct *p, enum pid_type type)
{
	struct perf_event *owner = perf_event_primary(event);
	u32 nr = __task_pid_nr_ns(p, type, owner->ns);

	/* The idle task, or a task outside that namespace: report -1. */
	if (!nr && !pid_alive(p))
		nr = (u32)-1;
	return nr;
}

/**
 * perf_event_pid() - the process id of @p as @event's opener sees it
 * @event: the event
 * @p: the task
 *
 * Return: the tgid in the event's pid namespace, 0 if @p is not visible
 * there, (u32)-1 for a task that is already gone.
 */
u32 perf_event_pid(struct perf_event *event, struct task_struct *p)
{
	return perf_event_nr_in_ns(event, p, PIDTYPE_TGID);
}

/**
 * perf_event_tid() - the thread id of @p as @event's opener sees it
 * @event: the event
 * @p: the task
 *
 * Return: as perf_event_pid(), for the thread id.
 */
u32 perf_event_tid(struct perf_event *event, struct task_struct *p)
{
	return perf_event_nr_in_ns(event, p, PIDTYPE_PID);
}

/*
 * With attr.inherit, PERF_SAMPLE_READ reports each thread's own count:
 * the children's totals are only folded in at their exit, so adding
 * them would make the values jump.
 */
static inline bool perf_event_reads_own(struct perf_event *event)
{
	return event->attr.inherit &&
	       (event->attr.sample_type & PERF_SAMPLE_READ);
}

static u64 perf_sample_count(struct perf_event *event, bool own)
{
	return own ? local64_read(&event->count) : perf_event_count(event);
}

/* ======================================================================
 * 1. Sizes and the sample_id trailer
 */

/**
 * perf_event_compute_sizes() - work out the fixed sizes of @event's records
 * @event: the event; attr, and the group it belongs to, already set
 *
 * header_size is everything of a PERF_RECORD_SAMPLE that does not vary
 * from one sample to the next, header included; read_size the PERF_SAMPLE_READ
 * or read() payload; id_header_size the sample_id trailer that other records
 * carry (0 without attr.sample_id_all); sample_layout the items of both,
 * so that writing a record only walks a list.
 */
void perf_event_compute_sizes(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader ?: event;
	u64 type = event->attr.sample_type;
	u32 size;

	perf_sample_layout_init(&event->sample_layout, type,
				event->attr.sample_id_all);
	event->read_size = perf_read_size(event->attr.read_format,
					  leader->nr_siblings + 1);
	size = event->sample_layout.fixed_size;
	if (type & PERF_SAMPLE_READ)
		size += event->read_size;
	event->header_size = size;
	event->id_header_size = event->sample_layout.id_size;
}

/**
 * perf_event_update_group_sizes() - refresh sizes after the group changed
 * @leader: the group leader
 *
 * A group read grows with the group, so every member's read_size (and,
 * with PERF_SAMPLE_READ, header_size) follows the leader's nr_siblings.
 * Called with the context locked, after a member joined or left.
 */
void perf_event_update_group_sizes(struct perf_event *leader)
{
	struct perf_event *member;

	perf_event_compute_sizes(leader);
	for_each_sibling_event(member, leader)
		perf_event_compute_sizes(member);
}

/* Fill the identifying fields of @data that @which selects. */
static void perf_sample_fill_ids(struct perf_sample_data *data,
				 struct perf_event *event, u64 which)
{
	if (which & PERF_SAMPLE_TID) {
		data->tid_entry.pid = perf_event_pid(event, current);
		data->tid_entry.tid = perf_event_tid(event, current);
	}
	if (which & PERF_SAMPLE_TIME)
		data->time = perf_event_now(event);
	/* ID and IDENTIFIER both name the event user space opened. */
	if (which & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER))
		data->id = perf_event_primary(event)->id;
	if (which & PERF_SAMPLE_STREAM_ID)
		data->stream_id = event->id;
	if (which & PERF_SAMPLE_CPU) {
		data->cpu_entry.cpu = raw_smp_processor_id();
		data->cpu_entry.reserved = 0;
	}
}

/**
 * perf_event_header__init_id() - prepare the sample_id trailer of a record
 * @header: the record's header; its size grows by the trailer's
 * @data: scratch sample data that receives the trailer's values
 * @event: the event the record is for
 *
 * Does nothing without attr.sample_id_all.
 */
void perf_event_header__init_id(struct perf_event_header *header,
				struct perf_sample_data *data,
				struct perf_event *event)
{
	data->type = event->attr.sample_type;
	if (!event->attr.sample_id_all)
		return;
	header->size += event->id_header_size;
	perf_sample_fill_ids(data, event, data->type);
}

/* The value of one fixed-size item of a sample (see enum perf_sample_item). */
static u64 perf_fixed_item(const struct perf_sample_data *data,
			   unsigned int item)
{
	switch (item) {
	case PERF_SI_IDENTIFIER:
	case PERF_SI_ID:
		return data->id;
	case PERF_SI_IP:
		return data->ip;
	case PERF_SI_TID:
		return *(const u64 *)&data->tid_entry;
	case PERF_SI_TIME:
		return data->time;
	case PERF_SI_ADDR:
		return data->addr;
	case PERF_SI_STREAM_ID:
		return data->stream_id;
	case PERF_SI_CPU:
		return *(const u64 *)&data->cpu_entry;
	case PERF_SI_PERIOD:
		return data->period;
	case PERF_SI_WEIGHT:
		return data->weight.full;
	case PERF_SI_DATA_SRC:
		return data->data_src.val;
	case PERF_SI_TRANSACTION:
		return data->txn;
	case PERF_SI_PHYS_ADDR:
		return data->phys_addr;
	case PERF_SI_CGROUP:
		return data->cgroup;
	case PERF_SI_DATA_PAGE_SIZE:
		return data->data_page_size;
	case PERF_SI_CODE_PAGE_SIZE:
		return data->code_page_size;
	}
	WARN_ON_ONCE(1);
	return 0;
}

/**
 * perf_event__output_id_sample() - write the sample_id trailer of a record
 * @event: the event
 * @handle: the record being written
 * @sample: what perf_event_header__init_id() prepared
 */
void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *sample)
{
	const struct perf_sample_layout *layout = &event->sample_layout;
	u64 ids[PERF_ID_ITEMS_MAX];
	unsigned int i;

	if (!event->attr.sample_id_all)
		return;
	for (i = 0; i < layout->nr_id_items; i++)
		ids[i] = perf_fixed_item(sample, layout->id_items[i]);
	perf_output_copy(handle, ids, i * sizeof(u64));
}

/* ======================================================================
 * 2. Samples
 */

/* --- PERF_SAMPLE_READ --- */

/* One member's value and, as read_format asks, its id and lost count. */
static void perf_output_read_member(struct perf_output_handle *handle,
				    struct perf_event *member, u64 read_format,
				    bool own)
{
	u64 vals[3];
	int n = 0;

	vals[n++] = perf_sample_count(member, own);
	if (read_format & PERF_FORMAT_ID)
		vals[n++] = perf_event_primary(member)->id;
	if (read_format & PERF_FORMAT_LOST)
		vals[n++] = atomic64_read(&member->lost_samples);
	perf_output_copy(handle, vals, n * sizeof(u64));
}

/* Bring a group member's count up to date if it counts on this CPU. */
static void perf_sample_refresh(struct perf_event *member)
{
	if (READ_ONCE(member->state) != PERF_EVENT_STATE_ACTIVE)
		return;
	if (READ_ONCE(member->oncpu) != smp_processor_id())
		return;
	member->pmu->read(member);
}

static void perf_output_read_group(struct perf_output_handle *handle,
				   struct perf_event *event,
				   u64 enabled, u64 running)
{
	struct perf_event *leader = event->group_leader, *member;
	u64 read_format = event->attr.read_format;
	bool own = perf_event_reads_own(event);
	bool refresh = !handle->skip_read;
	unsigned long flags;
	u64 head[3];
	int n = 0;

	/* No scheduling (switch, rotation, IPI) may change the group now. */
	local_irq_save(flags);

	head[n++] = leader->nr_siblings + 1;
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head[n++] = enabled;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head[n++] = running;
	perf_output_copy(handle, head, n * sizeof(u64));

	/* The overflowing event itself was brought up to date by its PMU. */
	if (refresh && leader != event)
		perf_sample_refresh(leader);
	perf_output_read_member(handle, leader, read_format, own);

	for_each_sibling_event(member, leader) {
		if (refresh && member != event)
			perf_sample_refresh(member);
		perf_output_read_member(handle, member, read_format, own);
	}

	local_irq_restore(flags);
}

/*
 * The read_format payload of a sample or of PERF_RECORD_READ.  The times
 * come from the event's own accounting; a non-group read adds what exited
 * children ran, as read() does.
 */
static void perf_output_read(struct perf_output_handle *handle,
			     struct perf_event *event)
{
	u64 read_format = event->attr.read_format;
	struct perf_read_member self;
	u64 enabled = 0, running = 0;
	u64 buf[5];
	size_t len;

	if (read_format & (PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING))
		perf_event_read_times(event, &enabled, &running);

	if (read_format & PERF_FORMAT_GROUP) {
		perf_output_read_group(handle, event, enabled, running);
		return;
	}

	enabled += atomic64_read(&event->child_total_time_enabled);
	running += atomic64_read(&event->child_total_time_running);
	self.value = perf_sample_count(event, perf_event_reads_own(event));
	self.id = perf_event_primary(event)->id;
	self.lost = atomic64_read(&event->lost_samples);
	len = perf_read_fill(buf, read_format, enabled, running, &self, 1);
	perf_output_copy(handle, buf, len);
}

/* --- registers and the user stack --- */

static void perf_output_regs(struct perf_output_handle *handle,
			     struct perf_regs *set, u64 mask)
{
	u64 abi = set->abi;
	unsigned long bits[BITS_TO_LONGS(64)];
	int idx;

	/* ABI_NONE alone says "no registers to show". */
	perf_output_put(handle, abi);
	if (abi == PERF_SAMPLE_REGS_ABI_NONE)
		return;

	bitmap_from_u64(bits, mask);
	for_each_set_bit(idx, bits, 64) {
		u64 val = perf_reg_value(set->regs, idx);

		perf_output_put(handle, val);
	}
}

/* Where the user registers of this sample are, if anywhere. */
static void perf_sample_user_regs(struct perf_regs *out, struct pt_regs *regs)
{
	if (regs && user_mode(regs)) {
		out->abi = perf_reg_abi(current);
		out->regs = regs;
	} else if (is_user_task(current)) {
		/* Interrupted in the kernel: the saved entry registers. */
		perf_get_regs_user(out, regs);
	} else {
		out->abi = PERF_SAMPLE_REGS_ABI_NONE;
		out->regs = NULL;
	}
}

static unsigned long perf_user_sp(struct pt_regs *regs)
{
#ifdef CONFIG_HAVE_PERF_USER_STACK_DUMP
	return user_stack_pointer(regs);
#else
	return 0;
#endif
}

/*
 * How much of the user stack this sample dumps: what attr.sample_stack_user
 * asks for, cut to what lies below TASK_SIZE and to what still fits in the
 * 16-bit record size after @used bytes (the static size and dyn_size words
 * come on top of the dump).  Always a multiple of 8.
 */
static u64 perf_ustack_dump_size(struct perf_event *event,
				 struct pt_regs *uregs, u32 used)
{
	u64 want = event->attr.sample_stack_user;
	unsigned long sp;
	u32 room;

	if (!uregs || !current->mm)
		return 0;

	sp = perf_user_sp(uregs);
	if (!sp || sp >= TASK_SIZE)
		return 0;
	want = min_t(u64, want, TASK_SIZE - sp);
	want = min_t(u64, want, USHRT_MAX);

	used += 2 * sizeof(u64);
	room = used < USHRT_MAX ? USHRT_MAX - used : 0;
	want = min_t(u64, want, room);
	return round_down(want, sizeof(u64));
}

/* User stack words pass through this bounce buffer, one aligned block at a time. */
#define PERF_USTACK_CHUNK	128

/*
 * Copy @len bytes of the user stack at @sp without faulting.  Blocks are
 * aligned so that none straddles a page: a block that cannot be read then
 * marks where the readable stack ends.  Return: the bytes copied.
 */
static u64 perf_output_ustack_bytes(struct perf_output_handle *handle,
				    unsigned long sp, u64 len)
{
	u8 chunk[PERF_USTACK_CHUNK];
	u64 done = 0;

	while (done < len) {
		unsigned long from = sp + done;
		unsigned long n = PERF_USTACK_CHUNK - (from % PERF_USTACK_CHUNK);

		n = min_t(u64, n, len - done);
		if (copy_from_user_nofault(chunk, (const void __user *)from, n))
			break;
		perf_output_copy(handle, chunk, n);
		done += n;
	}
	return done;
}

static void perf_output_ustack(struct perf_output_handle *handle,
			       struct perf_sample_data *data)
{
	u64 size = data->stack_user_size, copied;

	perf_output_put(handle, size);
	if (!size)
		return;

	copied = perf_output_ustack_bytes(handle,
					  perf_user_sp(data->regs_user.regs),
					  size);
	/* The record keeps its size; what could not be read is left as is. */
	if (copied < size)
		perf_output_skip(handle, size - copied);
	perf_output_put(handle, copied);
}

/* --- raw data and branch stacks --- */

#define PERF_RAW_CHUNK	128

/* A fragment with a copy callback, through a small bounce buffer. */
static void perf_output_raw_custom(struct perf_output_handle *handle,
				   struct perf_raw_frag *frag)
{
	u8 chunk[PERF_RAW_CHUNK];
	unsigned long off;

	for (off = 0; off < frag->size; off += PERF_RAW_CHUNK) {
		unsigned long n = min_t(unsigned long, PERF_RAW_CHUNK,
					frag->size - off);

		frag->copy(chunk, frag->data, off, n);
		perf_output_copy(handle, chunk, n);
	}
}

static void perf_output_raw(struct perf_output_handle *handle,
			    struct perf_raw_record *raw)
{
	struct perf_raw_frag *frag;
	u64 zero = 0;

	if (!raw) {
		/* A u32 size of 4 and four zero bytes: still 8 aligned. */
		u32 empty[2] = { sizeof(u32), 0 };

		perf_output_put(handle, empty);
		return;
	}

	perf_output_put(handle, raw->size);
	for (frag = &raw->frag; ; frag = frag->next) {
		if (frag->copy)
			perf_output_raw_custom(handle, frag);
		else
			perf_output_copy(handle, frag->data, frag->size);
		if (perf_raw_frag_last(frag))
			break;
	}
	/* Zeros rather than stale buffer bytes up to the u64 boundary. */
	if (frag->pad)
		perf_output_copy(handle, &zero, frag->pad);
}

static void perf_output_branches(struct perf_output_handle *handle,
				 struct perf_sample_data *data,
				 struct perf_event *event)
{
	struct perf_branch_stack *bs = data->br_stack;

	if (!bs) {
		u64 none = 0;

		perf_output_put(handle, none);
		return;
	}

	perf_output_put(handle, bs->nr);
	if (branch_sample_hw_index(event))
		perf_output_put(handle, bs->hw_idx);
	perf_output_copy(handle, bs->entries,
			 bs->nr * sizeof(struct perf_branch_entry));
	if (data->br_stack_cntr && branch_sample_counters(event))
		perf_output_copy(handle, data->br_stack_cntr,
				 bs->nr * sizeof(u64));
}

/* --- addresses: physical address and page sizes --- */

static u64 perf_user_phys(unsigned long addr)
{
	struct page *page;
	u64 phys = 0;

	if (!is_user_task(current))
		return 0;

	/* IRQs are off: the page tables cannot be torn down under us. */
	pagefault_disable();
	if (get_user_page_fast_only(addr, 0, &page)) {
		phys = page_to_phys(page) + offset_in_page(addr);
		put_page(page);
	}
	pagefault_enable();
	return phys;
}

static u64 perf_addr_to_phys(u64 addr)
{
	void *kaddr = (void *)(uintptr_t)addr;

	if (!addr)
		return 0;
	if (addr < TASK_SIZE)
		return perf_user_phys(addr);
	/* Linear-map kernel addresses only; vmalloc space reports 0. */
	if (is_vmalloc_addr(kaddr) || !virt_addr_valid(kaddr))
		return 0;
	return (u64)virt_to_phys(kaddr);
}

#ifdef CONFIG_HAVE_GUP_FAST
/*
 * A lockless walk of the page tables, IRQs off, as GUP-fast does: the size
 * of the mapping that translates @addr, or 0 if there is none.
 */
static u64 perf_pmd_level_size(pmd_t *pmdp, unsigned long addr)
{
	pte_t *ptep, pte;
	pmd_t pmd;
	u64 size;

	do {
		pmd = pmdp_get_lockless(pmdp);
		if (!pmd_present(pmd))
			return 0;
		if (pmd_leaf(pmd))
			return pmd_leaf_size(pmd);
		/* NULL if the table changed under us: look again. */
		ptep = pte_offset_map(&pmd, addr);
	} while (!ptep);

	pte = ptep_get_lockless(ptep);
	size = pte_present(pte) ? __pte_leaf_size(pmd, pte) : 0;
	pte_unmap(ptep);
	return size;
}

static u64 perf_pud_level_size(p4d_t *p4dp, p4d_t p4d, unsigned long addr)
{
	pud_t *pudp = pud_offset_lockless(p4dp, p4d, addr);
	pud_t pud = READ_ONCE(*pudp);

	if (!pud_present(pud))
		return 0;
	return pud_leaf(pud) ? pud_leaf_size(pud) :
	       perf_pmd_level_size(pmd_offset_lockless(pudp, pud, addr), addr);
}

static u64 perf_p4d_level_size(pgd_t *pgdp, pgd_t pgd, unsigned long addr)
{
	p4d_t *p4dp = p4d_offset_lockless(pgdp, pgd, addr);
	p4d_t p4d = READ_ONCE(*p4dp);

	if (!p4d_present(p4d))
		return 0;
	return p4d_leaf(p4d) ? p4d_leaf_size(p4d) :
	       perf_pud_level_size(p4dp, p4d, addr);
}

static u64 perf_mapping_size(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgdp = pgd_offset(mm, addr);
	pgd_t pgd = READ_ONCE(*pgdp);

	if (pgd_none(pgd))
		return 0;
	return pgd_leaf(pgd) ? pgd_leaf_size(pgd) :
	       perf_p4d_level_size(pgdp, pgd, addr);
}
#else
static u64 perf_mapping_size(struct mm_struct *mm, unsigned long addr)
{
	return 0;
}
#endif

static u64 perf_page_size_of(unsigned long addr)
{
	unsigned long flags;
	u64 size;

	if (!addr)
		return 0;
	local_irq_save(flags);
	/* Kernel threads have no mm: kernel addresses live in init_mm. */
	size = perf_mapping_size(current->mm ?: &init_mm, addr);
	local_irq_restore(flags);
	return size;
}

/* --- putting it together --- */

static struct perf_callchain_entry perf_no_callchain = { .nr = 0 };

/**
 * perf_callchain() - the call chain of a sample
 * @event: the sampling event (attr.exclude_callchain_*, sample_max_stack)
 * @regs: the interrupted registers
 *
 * User frames are only walked for the task the event follows: another
 * task's user stack means nothing in this address space.
 *
 * Return: the chain, an empty one when nothing may or can be walked.
 */
struct perf_callchain_entry *perf_callchain(struct perf_event *event,
					    struct pt_regs *regs)
{
	struct task_struct *task = event->ctx ? READ_ONCE(event->ctx->task) :
						NULL;
	bool kernel = !event->attr.exclude_callchain_kernel;
	bool user = !event->attr.exclude_callchain_user &&
		    is_user_task(current) && current->mm;
	struct perf_callchain_entry *entry;

	if (!kernel && !user)
		return &perf_no_callchain;

	entry = get_perf_callchain(regs, kernel, user,
				   event->attr.sample_max_stack,
				   task && task != current, true);
	return entry ?: &perf_no_callchain;
}

/* Bytes of a register dump: the ABI word, and the registers if any. */
static u32 perf_regs_dump_size(struct perf_regs *set, u64 mask)
{
	u32 size = sizeof(u64);

	if (set->regs)
		size += hweight64(mask) * sizeof(u64);
	return size;
}

/**
 * perf_prepare_sample() - complete the sample data of an overflow
 * @data: what the PMU driver filled (see data->sample_flags)
 * @event: the event
 * @regs: the interrupted registers
 *
 * Fills every item attr.sample_type asks for that the driver did not, and
 * the items those depend on (ADDR for the data page size and physical
 * address, IP for the code page size, the user registers for the stack
 * dump), accounting variable-size items in data->dyn_size.
 */
void perf_prepare_sample(struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	u64 asked = event->attr.sample_type;
	u64 todo = asked;

	data->type = asked;

	if (asked & PERF_SAMPLE_CODE_PAGE_SIZE)
		todo |= PERF_SAMPLE_IP;
	if (asked & (PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_PHYS_ADDR))
		todo |= PERF_SAMPLE_ADDR;
	if (asked & PERF_SAMPLE_STACK_USER)
		todo |= PERF_SAMPLE_REGS_USER;
	todo &= ~data->sample_flags;
	if (!todo)
		return;

	perf_sample_fill_ids(data, event, todo);
	data->sample_flags |= todo & (PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
				      PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER |
				      PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU);

	if (todo & PERF_SAMPLE_IP) {
		data->ip = perf_instruction_pointer(regs);
		data->sample_flags |= PERF_SAMPLE_IP;
	}
	if (todo & PERF_SAMPLE_ADDR) {
		data->addr = 0;
		data->sample_flags |= PERF_SAMPLE_ADDR;
	}

	if (todo & PERF_SAMPLE_CALLCHAIN)
		perf_sample_save_callchain(data, event, regs);

	/* No raw data or branches from the driver: just the empty forms. */
	if (todo & PERF_SAMPLE_RAW) {
		data->raw = NULL;
		data->dyn_size += sizeof(u64);
		data->sample_flags |= PERF_SAMPLE_RAW;
	}
	if (todo & PERF_SAMPLE_BRANCH_STACK) {
		data->br_stack = NULL;
		data->br_stack_cntr = NULL;
		data->dyn_size += sizeof(u64);
		data->sample_flags |= PERF_SAMPLE_BRANCH_STACK;
	}

	if (todo & PERF_SAMPLE_REGS_USER) {
		perf_sample_user_regs(&data->regs_user, regs);
		/* Taken for the stack dump alone, it takes no room. */
		if (asked & PERF_SAMPLE_REGS_USER) {
			data->dyn_size +=
				perf_regs_dump_size(&data->regs_user,
						    event->attr.sample_regs_user);
			data->sample_flags |= PERF_SAMPLE_REGS_USER;
		}
	}

	/* Sized after everything before it: it takes what room is left. */
	if (todo & PERF_SAMPLE_STACK_USER) {
		u64 dump = perf_ustack_dump_size(event, data->regs_user.regs,
						 perf_sample_data_size(data,
								       event));

		data->stack_user_size = dump;
		data->dyn_size += sizeof(u64);
		if (dump)
			data->dyn_size += dump + sizeof(u64);
		data->sample_flags |= PERF_SAMPLE_STACK_USER;
	}

	if (todo & PERF_SAMPLE_WEIGHT_TYPE) {
		data->weight.full = 0;
		data->sample_flags |= PERF_SAMPLE_WEIGHT_TYPE;
	}
	if (todo & PERF_SAMPLE_DATA_SRC) {
		data->data_src.val = PERF_MEM_NA;
		data->sample_flags |= PERF_SAMPLE_DATA_SRC;
	}
	if (todo & PERF_SAMPLE_TRANSACTION) {
		data->txn = 0;
		data->sample_flags |= PERF_SAMPLE_TRANSACTION;
	}

	if (todo & PERF_SAMPLE_REGS_INTR) {
		data->regs_intr.regs = regs;
		data->regs_intr.abi = regs ? perf_reg_abi(current) :
					     PERF_SAMPLE_REGS_ABI_NONE;
		data->dyn_size += perf_regs_dump_size(&data->regs_intr,
						      event->attr.sample_regs_intr);
		data->sample_flags |= PERF_SAMPLE_REGS_INTR;
	}

	if (todo & PERF_SAMPLE_PHYS_ADDR) {
		data->phys_addr = perf_addr_to_phys(data->addr);
		data->sample_flags |= PERF_SAMPLE_PHYS_ADDR;
	}

	if (todo & PERF_SAMPLE_CGROUP) {
		data->cgroup = 0;
#ifdef CONFIG_CGROUP_PERF
		/* current's css set cannot go away under RCU. */
		data->cgroup = cgroup_id(task_css_check(current,
							perf_event_cgrp_id,
							1)->cgroup);
#endif
		data->sample_flags |= PERF_SAMPLE_CGROUP;
	}

	if (todo & PERF_SAMPLE_DATA_PAGE_SIZE) {
		data->data_page_size = perf_page_size_of(data->addr);
		data->sample_flags |= PERF_SAMPLE_DATA_PAGE_SIZE;
	}
	if (todo & PERF_SAMPLE_CODE_PAGE_SIZE) {
		data->code_page_size = perf_page_size_of(data->ip);
		data->sample_flags |= PERF_SAMPLE_CODE_PAGE_SIZE;
	}

	if (todo & PERF_SAMPLE_AUX) {
		/* What precedes it plus its own size word, within 64k. */
		u32 before = perf_sample_data_size(data, event) + sizeof(u64);
		unsigned long want = 0;

		if (before < U16_MAX)
			want = min_t(u64, U16_MAX - before,
				     event->attr.aux_sample_size);
		want = round_down(want, sizeof(u64));
		data->aux_size = want ? perf_aux_sample_size(event, want) : 0;
		data->dyn_size += sizeof(u64) + data->aux_size;
		data->sample_flags |= PERF_SAMPLE_AUX;
	}
}

/**
 * perf_prepare_header() - the header of a prepared sample
 * @header: filled in
 * @data: the sample, after perf_prepare_sample()
 * @event: the event
 * @regs: the interrupted registers (for the cpumode in misc)
 */
void perf_prepare_header(struct perf_event_header *header,
			 struct perf_sample_data *data,
			 struct perf_event *event, struct pt_regs *regs)
{
	header->type = PERF_RECORD_SAMPLE;
	header->misc = perf_misc_flags(regs);
	header->size = perf_sample_data_size(data, event);
	/* Every item is a multiple of 8; anything else is a sizing bug. */
	WARN_ON_ONCE(header->size & 7);
}

/* Write one variable-size item of a sample. */
static void perf_output_variable_item(struct perf_output_handle *handle,
				      struct perf_sample_data *data,
				      struct perf_event *event,
				      unsigned int item)
{
	switch (item) {
	case PERF_SI_READ:
		perf_output_read(handle, event);
		break;
	case PERF_SI_CALLCHAIN:
		perf_output_copy(handle, data->callchain,
				 (data->callchain->nr + 1) * sizeof(u64));
		break;
	case PERF_SI_RAW:
		perf_output_raw(handle, data->raw);
		break;
	case PERF_SI_BRANCH_STACK:
		perf_output_branches(handle, data, event);
		break;
	case PERF_SI_REGS_USER:
		perf_output_regs(handle, &data->regs_user,
				 event->attr.sample_regs_user);
		break;
	case PERF_SI_STACK_USER:
		perf_output_ustack(handle, data);
		break;
	case PERF_SI_REGS_INTR:
		perf_output_regs(handle, &data->regs_intr,
				 event->attr.sample_regs_intr);
		break;
	case PERF_SI_AUX:
		perf_output_put(handle, data->aux_size);
		if (data->aux_size)
			perf_aux_sample_output(event, handle, data->aux_size);
		break;
	default:
		WARN_ON_ONCE(1);
	}
}

/**
 * perf_output_sample() - write a prepared sample
 * @handle: a record of header->size bytes, begun
 * @header: from perf_prepare_header()
 * @data: from perf_prepare_sample()
 * @event: the event
 *
 * The items go out in ABI order, as the event's layout (worked out at
 * open from attr.sample_type, which perf_prepare_sample() copied into
 * data->type) lists them.
 */
void perf_output_sample(struct perf_output_handle *handle,
			struct perf_event_header *header,
			struct perf_sample_data *data, struct perf_event *event)
{
	const struct perf_sample_layout *layout = &event->sample_layout;
	u64 run[1 + PERF_SI_NR];
	unsigned int i, n = 0;

	/* The driver read the group already: leave the counters alone. */
	handle->skip_read = !!(data->sample_flags & PERF_SAMPLE_READ);

	/*
	 * The header and each run of fixed-size items are gathered and
	 * copied at once: a typical sample is then a single copy.
	 */
	BUILD_BUG_ON(sizeof(*header) != sizeof(u64));
	memcpy(&run[n++], header, sizeof(*header));

	for (i = 0; i < layout->nr_items; i++) {
		unsigned int item = layout->items[i];

		if (!(layout->variable & BIT(item))) {
			run[n++] = perf_fixed_item(data, item);
			continue;
		}
		perf_output_copy(handle, run, n * sizeof(u64));
		n = 0;
		perf_output_variable_item(handle, data, event, item);
	}
	if (n)
		perf_output_copy(handle, run, n * sizeof(u64));
	perf_output_count_sample(handle);
}

typedef int (*perf_begin_fn)(struct perf_output_handle *handle,
			     struct perf_sample_data *data,
			     struct perf_event *event, unsigned int size);

static __always_inline int perf_sample_write(struct perf_event *event,
					     struct perf_sample_data *data,
					     struct pt_regs *regs,
					     perf_begin_fn begin)
{
	struct perf_output_handle handle;
	struct perf_event_header header;
	int ret;

	/* The call chain buffers are freed after an RCU grace period. */
	rcu_read_lock();
	perf_prepare_sample(data, event, regs);
	perf_prepare_header(&header, data, event, regs);
	ret = begin(&handle, data, event, header.size);
	if (!ret) {
		perf_output_sample(&handle, &header, data, event);
		perf_output_end(&handle);
	}
	rcu_read_unlock();
	return ret;
}

/**
 * perf_event_output_forward() - overflow handler: sample to the buffer
 * @event: the event
 * @data: the sample data
 * @regs: the interrupted registers
 */
void perf_event_output_forward(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	perf_sample_write(event, data, regs, perf_output_begin_forward);
}

/**
 * perf_event_output_backward() - overflow handler for attr.write_backward
 * @event: the event
 * @data: the sample data
 * @regs: the interrupted registers
 */
void perf_event_output_backward(struct perf_event *event,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
	perf_sample_write(event, data, regs, perf_output_begin_backward);
}

/**
 * perf_event_output() - write a sample in the buffer's own direction
 * @event: the event
 * @data: the sample data
 * @regs: the interrupted registers
 *
 * Return: 0, or the error of perf_output_begin() (no buffer, no room).
 */
int perf_event_output(struct perf_event *event,
		      struct perf_sample_data *data, struct pt_regs *regs)
{
	return perf_sample_write(event, data, regs, perf_output_begin);
}

/**
 * perf_default_overflow_handler() - what an event's overflow does by default
 * @event: the event, attr set
 *
 * Return: the sample writer for the event's buffer direction.
 */
perf_overflow_handler_t perf_default_overflow_handler(struct perf_event *event)
{
	if (is_write_backward(event))
		return perf_event_output_backward;
	return perf_event_output_forward;
}

/* ======================================================================
 * Side-band record plumbing (records are in part 4)
 */

/* Start a non-sample record of @size bytes plus the sample_id trailer. */
static int perf_sb_begin(struct perf_output_handle *handle,
			 struct perf_sample_data *sample,
			 struct perf_event *event,
			 struct perf_event_header *header,
			 u32 type, u16 misc, u16 size)
{
	header->type = type;
	header->misc = misc;
	header->size = size;
	perf_event_header__init_id(header, sample, event);
	return perf_output_begin(handle, sample, event, header->size);
}

static void perf_sb_finish(struct perf_output_handle *handle,
			   struct perf_sample_data *sample,
			   struct perf_event *event)
{
	perf_event__output_id_sample(event, handle, sample);
	perf_output_end(handle);
}

/*
 * Write a whole record with its sample_id trailer: the fixed part (@header
 * first, @size bytes in all), then @tail_size bytes from @tail (a name or
 * path, already padded to 8 bytes); dropped, and counted lost, if there
 * is no room.
 */
static void perf_sb_emit_tail(struct perf_event *event,
			      struct perf_event_header *header,
			      u32 type, u16 misc, u16 size,
			      const void *tail, u16 tail_size)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;

	if (perf_sb_begin(&handle, &sample, event, header, type, misc,
			  size + tail_size))
		return;
	perf_output_copy(&handle, header, size);
	if (tail_size)
		perf_output_copy(&handle, tail, tail_size);
	perf_sb_finish(&handle, &sample, event);
}

/* A record that is all fixed part. */
static void perf_sb_emit(struct perf_event *event,
			 struct perf_event_header *header,
			 u32 type, u16 misc, u16 size)
{
	perf_sb_emit_tail(event, header, type, misc, size, NULL, 0);
}

/**
 * perf_log_lost_samples() - PERF_RECORD_LOST_SAMPLES
 * @event: the event that dropped samples
 * @lost: how many
 */
void perf_log_lost_samples(struct perf_event *event, u64 lost)
{
	struct {
		struct perf_event_header	header;
		u64				lost;
	} rec = { .lost = lost };

	perf_sb_emit(event, &rec.header, PERF_RECORD_LOST_SAMPLES, 0, sizeof(rec));
}

/**
 * perf_log_throttle() - PERF_RECORD_THROTTLE or PERF_RECORD_UNTHROTTLE
 * @event: the event
 * @enable: nonzero for UNTHROTTLE (sampling resumes)
 */
void perf_log_throttle(struct perf_event *event, int enable)
{
	struct {
		struct perf_event_header	header;
		u64				time;
		u64				id;
		u64				stream_id;
	} rec = {
		.time		= perf_event_now(event),
		.id		= perf_event_primary(event)->id,
		.stream_id	= event->id,
	};
	u32 type = enable ? PERF_RECORD_UNTHROTTLE : PERF_RECORD_THROTTLE;

	perf_sb_emit(event, &rec.header, type, 0, sizeof(rec));
}

/**
 * perf_event_read_event() - PERF_RECORD_READ for an exiting child's counts
 * @event: the inherited event (attr.inherit_stat)
 * @task: the task that exits
 */
void perf_event_read_event(struct perf_event *event, struct task_struct *task)
{
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
	} rec = {
		.pid = perf_event_pid(event, task),
		.tid = perf_event_tid(event, task),
	};

	if (perf_sb_begin(&handle, &sample, event, &rec.header,
			  PERF_RECORD_READ, 0,
			  sizeof(rec) + event->read_size))
		return;
	handle.skip_read = 0;
	perf_output_put(&handle, rec);
	perf_output_read(&handle, event);
	perf_sb_finish(&handle, &sample, event);
}

/**
 * perf_event_itrace_started() - an instruction-trace PMU started tracing
 * @event: the event
 *
 * Once set, no PERF_RECORD_ITRACE_START is written for the event.
 */
void perf_event_itrace_started(struct perf_event *event)
{
	event->attach_state |= PERF_ATTACH_ITRACE;
}

/**
 * perf_log_itrace_start() - PERF_RECORD_ITRACE_START for a trace PMU event
 * @event: the event about to be added to its PMU
 *
 * Written once, before the PMU reports tracing as started, so that the
 * decoder learns which task the trace that follows belongs to.
 */
void perf_log_itrace_start(struct perf_event *event)
{
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
	} rec;

	event = perf_event_primary(event);
	if (!(event->pmu->capabilities & PERF_PMU_CAP_ITRACE))
		return;
	if (event->attach_state & PERF_ATTACH_ITRACE)
		return;

	rec.pid = perf_event_pid(event, current);
	rec.tid = perf_event_tid(event, current);
	perf_sb_emit(event, &rec.header, PERF_RECORD_ITRACE_START, 0, sizeof(rec));
}

/**
 * perf_report_aux_output_id() - PERF_RECORD_AUX_OUTPUT_HW_ID
 * @event: the event whose AUX data the hardware tags
 * @hw_id: the hardware's id for it
 */
void perf_report_aux_output_id(struct perf_event *event, u64 hw_id)
{
	struct {
		struct perf_event_header	header;
		u64				hw_id;
	} rec = { .hw_id = hw_id };

	event = perf_event_primary(event);
	perf_sb_emit(event, &rec.header, PERF_RECORD_AUX_OUTPUT_HW_ID, 0, sizeof(rec));
}
EXPORT_SYMBOL_GPL(perf_report_aux_output_id);

/**
 * perf_event_addr_filters_sync() - let the PMU program new filter ranges
 * @event: an event of a PMU with address filters
 *
 * Called by the PMU (from its start) when the filters' generation moved on
 * since it last programmed them.
 */
void perf_event_addr_filters_sync(struct perf_event *event)
{
	struct perf_addr_filters_head *head;
	unsigned long gen;

	if (!has_addr_filter(event))
		return;

	head = perf_event_addr_filters(event);
	raw_spin_lock(&head->lock);
	gen = event->addr_filters_gen;
	/* Only a newer generation than the PMU has needs reprogramming. */
	if (gen != event->hw.addr_filters_gen) {
		event->hw.addr_filters_gen = gen;
		event->pmu->addr_filters_sync(event);
	}
	raw_spin_unlock(&head->lock);
}
EXPORT_SYMBOL_GPL(perf_event_addr_filters_sync);

/* ======================================================================
 * 3. Overflow
 */

/* --- sample rate limits --- */

#define PERF_DEFAULT_SAMPLE_RATE	100000
#define PERF_DEFAULT_CPU_PERCENT	25

int sysctl_perf_event_sample_rate __read_mostly = PERF_DEFAULT_SAMPLE_RATE;
int sysctl_perf_cpu_time_max_percent __read_mostly = PERF_DEFAULT_CPU_PERCENT;
int max_samples_per_tick __read_mostly =
	DIV_ROUND_UP(PERF_DEFAULT_SAMPLE_RATE, HZ);

/*
 * The limits as freq.c derives them.  Samples read @perf_allowed_ns
 * locklessly (from NMI); the sysctl handlers and the automatic lowering
 * rewrite it, the latter from any CPU, which at worst loses one lowering
 * to another.
 */
static u64 perf_allowed_ns __read_mostly =
	NSEC_PER_SEC / PERF_DEFAULT_SAMPLE_RATE * PERF_DEFAULT_CPU_PERCENT / 100;
static DEFINE_PER_CPU(u64, perf_sample_cost);

static void perf_limits_snapshot(struct perf_rate_limits *lim)
{
	lim->max_sample_rate = READ_ONCE(sysctl_perf_event_sample_rate);
	lim->cpu_time_max_percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	lim->max_samples_per_tick = READ_ONCE(max_samples_per_tick);
	lim->sample_period_ns = NSEC_PER_SEC / max(lim->max_sample_rate, 1U);
	lim->allowed_ns = READ_ONCE(perf_allowed_ns);
}

static void perf_limits_publish(const struct perf_rate_limits *lim)
{
	WRITE_ONCE(max_samples_per_tick, lim->max_samples_per_tick);
	WRITE_ONCE(sysctl_perf_event_sample_rate, lim->max_sample_rate);
	WRITE_ONCE(perf_allowed_ns, lim->allowed_ns);
}

/* Rebuild the limits from the two sysctls after a write. */
static void perf_limits_from_sysctls(void)
{
	struct perf_rate_limits lim;

	perf_rate_limits_set(&lim, READ_ONCE(sysctl_perf_event_sample_rate),
			     READ_ONCE(sysctl_perf_cpu_time_max_percent), HZ);
	perf_limits_publish(&lim);
}

/**
 * perf_event_max_sample_rate_handler() - kernel.perf_event_max_sample_rate
 * @table: the sysctl
 * @write: a write?
 * @buffer: user data
 * @lenp: its length
 * @ppos: file position
 *
 * With the CPU time limit off (0 or 100 percent) nothing would ever lower
 * the rate again, so the rate may not be set then.
 *
 * Return: 0 or an errno.
 */
int perf_event_max_sample_rate_handler(const struct ctl_table *table,
				       int write, void *buffer, size_t *lenp,
				       loff_t *ppos)
{
	int percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	int ret;

	if (write && (percent == 0 || percent == 100))
		return -EINVAL;

	ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	if (ret || !write)
		return ret;
	perf_limits_from_sysctls();
	return 0;
}

/**
 * perf_cpu_time_max_percent_handler() - kernel.perf_cpu_time_max_percent
 * @table: the sysctl
 * @write: a write?
 * @buffer: user data
 * @lenp: its length
 * @ppos: file position
 *
 * Return: 0 or an errno.
 */
int perf_cpu_time_max_percent_handler(const struct ctl_table *table,
				      int write, void *buffer, size_t *lenp,
				      loff_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);
	int percent;

	if (ret || !write)
		return ret;

	percent = READ_ONCE(sysctl_perf_cpu_time_max_percent);
	if (percent == 0 || percent == 100)
		pr_warn("perf: sample rate no longer adapts to interrupt cost; a high rate can hang the system\n");
	perf_limits_from_sysctls();
	return 0;
}

/* What the last lowering saw, for the message printed outside NMI. */
static u64 perf_report_cost, perf_report_budget;

static void perf_report_lowered(struct irq_work *work)
{
	pr_info_ratelimited("perf: samples cost %llu ns on average (budget %llu ns); kernel.perf_event_max_sample_rate lowered to %d\n",
			    READ_ONCE(perf_report_cost),
			    READ_ONCE(perf_report_budget),
			    READ_ONCE(sysctl_perf_event_sample_rate));
}

static DEFINE_IRQ_WORK(perf_lowered_work, perf_report_lowered);

/**
 * perf_sample_event_took() - account the cost of one sample
 * @sample_len_ns: how long the PMU interrupt took
 *
 * Keeps a running average per CPU; when it exceeds the share of CPU time
 * kernel.perf_cpu_time_max_percent allows, the maximum sample rate (and
 * with it the per-tick throttling threshold) is lowered.  NMI safe.
 */
void perf_sample_event_took(u64 sample_len_ns)
{
	struct perf_rate_limits lim;
	u64 total;

	if (!READ_ONCE(perf_allowed_ns))
		return;

	total = perf_rate_average(__this_cpu_read(perf_sample_cost),
				  sample_len_ns);
	__this_cpu_write(perf_sample_cost, total);

	perf_limits_snapshot(&lim);
	if (!perf_rate_lower(&lim, total, HZ))
		return;

	WRITE_ONCE(perf_report_cost, total / PERF_RATE_AVG_SAMPLES);
	WRITE_ONCE(perf_report_budget, READ_ONCE(perf_allowed_ns));
	perf_limits_publish(&lim);
	irq_work_queue(&perf_lowered_work);
}

/* --- frequency mode --- */

/*
 * Frequency events re-estimate their period from the rate at which they
 * count: hw.freq_count_stamp and hw.freq_time_stamp mark the last
 * estimate, made at an overflow or at a tick, whichever came last.  A
 * window longer than two ticks means the event was not counting for a
 * while (switched out, multiplexed): it says nothing about the rate, so it
 * only restarts the window.
 */
static bool perf_freq_estimate(struct perf_event *event, u64 now,
			       u64 *period)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 count = local64_read(&event->count);
	s64 elapsed = now - hwc->freq_time_stamp;
	s64 counted = count - hwc->freq_count_stamp;

	hwc->freq_time_stamp = now;
	hwc->freq_count_stamp = count;

	if (elapsed <= 0 || elapsed >= 2 * TICK_NSEC || counted <= 0)
		return false;

	*period = perf_freq_step(hwc->sample_period,
				 perf_freq_period(counted, elapsed,
						  event->attr.sample_freq));
	return true;
}

/*
 * At an overflow: only the period the next reload uses changes; the
 * counter that is already programmed is left alone.
 */
static void perf_freq_overflow(struct perf_event *event)
{
	u64 period;

	if (!event->attr.sample_freq)
		return;
	if (perf_freq_estimate(event, perf_clock(), &period))
		event->hw.sample_period = period;
}

/**
 * perf_adjust_freq_event() - the tick's period adjustment of a freq event
 * @event: an active event with attr.freq, on this CPU, ctx->lock held
 * @now_ns: the time of this tick
 *
 * Refreshes the count, re-estimates the period and, when the time left in
 * the current period is far longer than the new period asks for, restarts
 * the counter so that the new period applies now rather than after it.
 * The window is timed with perf_clock(), as at overflows, so that both
 * agree whatever clock the caller read @now_ns from.
 */
void perf_adjust_freq_event(struct perf_event *event, u64 now_ns)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period;
	s64 left;

	if (!event->attr.freq || !event->attr.sample_freq)
		return;
	if (event->state != PERF_EVENT_STATE_ACTIVE)
		return;
	/* Throttled or stopped: the unthrottling tick starts it again. */
	if (hwc->interrupts == MAX_INTERRUPTS ||
	    (hwc->state & PERF_HES_STOPPED))
		return;

	event->pmu->read(event);
	if (!perf_freq_estimate(event, perf_clock(), &period))
		return;
	if (period == hwc->sample_period)
		return;

	hwc->sample_period = period;
	left = local64_read(&hwc->period_left);
	if (left > 0 && (u64)left / 8 > period) {
		event->pmu->stop(event, PERF_EF_UPDATE);
		/* Nothing left: the restart loads a whole new period. */
		local64_set(&hwc->period_left, 0);
		event->pmu->start(event, PERF_EF_RELOAD);
	}
}

/* --- throttling --- */

/*
 * Interrupts are counted per tick: hw.interrupts_seq holds the jiffy of
 * the count, and a new jiffy starts a new count.  An event that reaches
 * max_samples_per_tick within one is throttled: hw.interrupts becomes
 * MAX_INTERRUPTS and the PMU stops it until sched.c's tick restarts it
 * (perf_event_unthrottle()).  The tick must keep running on this CPU
 * for that, even on a nohz_full CPU.
 */
static int perf_account_interrupt(struct perf_event *event, int throttle)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 tick = get_jiffies_64();
	int stop = 0;

	if (hwc->interrupts_seq != tick) {
		hwc->interrupts_seq = tick;
		hwc->interrupts = 1;
	} else if (hwc->interrupts == MAX_INTERRUPTS) {
		/* Throttled already and still interrupting: stop it again. */
		stop = 1;
	} else {
		hwc->interrupts++;
	}

	if (throttle && !stop &&
	    hwc->interrupts >= READ_ONCE(max_samples_per_tick)) {
		hwc->interrupts = MAX_INTERRUPTS;
		__this_cpu_write(perf_throttled_here, true);
		tick_dep_set_cpu(smp_processor_id(), TICK_DEP_BIT_PERF_EVENTS);
		perf_log_throttle(event, 0);
		stop = 1;
	}

	if (event->attr.freq)
		perf_freq_overflow(event);
	return stop;
}

/**
 * perf_event_account_interrupt() - count an interrupt that takes no sample
 * @event: the event
 *
 * For drivers that drop a sample but must still feed throttling and
 * frequency mode.
 *
 * Return: nonzero when the event is now throttled and must be stopped.
 */
int perf_event_account_interrupt(struct perf_event *event)
{
	return perf_account_interrupt(event, 1);
}

/* --- deferred actions --- */

/**
 * perf_event_disable_inatomic() - disable an event from NMI/IRQ context
 * @event: the event
 *
 * The disable itself needs the context lock, so it runs from an irq_work
 * on the CPU the event counts on.
 */
void perf_event_disable_inatomic(struct perf_event *event)
{
	WRITE_ONCE(event->pending_disable, 1);
	irq_work_queue(&event->pending_disable_irq);
}

static void perf_pending_disable_run(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_disable_irq);
	int rctx = perf_swevent_get_recursion_context();
	int cpu = READ_ONCE(event->oncpu);

	/*
	 * Not on a PMU any more: whoever scheduled it out saw
	 * pending_disable.  Moved to another CPU since the work was queued:
	 * follow it there.
	 */
	if (cpu >= 0) {
		if (cpu != smp_processor_id()) {
			irq_work_queue_on(work, cpu);
		} else if (READ_ONCE(event->pending_disable)) {
			WRITE_ONCE(event->pending_disable, 0);
			perf_event_disable_local(event);
		}
	}

	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

static void perf_pending_irq_run(struct irq_work *work)
{
	struct perf_event *event = container_of(work, struct perf_event,
						pending_irq);
	int rctx = perf_swevent_get_recursion_context();

	/* Wakeups go to the buffer's readers wherever the event runs now. */
	if (READ_ONCE(event->pending_wakeup)) {
		WRITE_ONCE(event->pending_wakeup, 0);
		perf_event_wakeup(event);
	}

	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/*
 * SIGTRAP for attr.sigtrap, on the way back to user space of the task the
 * overflow interrupted.  Only that task gets it, and only while it is
 * still the event's task (it may have exited or exec'd meanwhile).
 */
static void perf_send_sigtrap(struct perf_event *event)
{
	struct perf_event_context *ctx = event->ctx;

	if (!ctx || READ_ONCE(ctx->task) != current)
		return;
	send_sig_perf((void __user *)event->pending_addr, event->orig_type,
		      event->attr.sig_data);
}

static void perf_pending_task_run(struct callback_head *head)
{
	struct perf_event *event = container_of(head, struct perf_event,
						pending_task);
	int rctx = perf_swevent_get_recursion_context();

	if (event->pending_work) {
		event->pending_work = 0;
		perf_send_sigtrap(event);
		atomic_dec(&event->ctx->nr_pending_sigtrap);
	}
	/* The reference the overflow took for this work. */
	put_event(event);

	if (rctx >= 0)
		perf_swevent_put_recursion_context(rctx);
}

/**
 * perf_event_pending_init() - set up the event's deferred work items
 * @event: a new event
 */
void perf_event_pending_init(struct perf_event *event)
{
	init_irq_work(&event->pending_irq, perf_pending_irq_run);
	/* Disabling takes raw locks only: fine in hard IRQ, even on RT. */
	event->pending_disable_irq = IRQ_WORK_INIT_HARD(perf_pending_disable_run);
	init_task_work(&event->pending_task, perf_pending_task_run);
}

/**
 * perf_event_pending_sync() - wait for the event's deferred work items
 * @event: an event about to be freed
 *
 * A queued SIGTRAP task_work holds a reference, so by the time the event
 * is freed it has run; should one still be queued, it is cancelled.
 * May sleep.
 */
void perf_event_pending_sync(struct perf_event *event)
{
	irq_work_sync(&event->pending_irq);
	irq_work_sync(&event->pending_disable_irq);

	if (WARN_ON_ONCE(READ_ONCE(event->pending_work)) && event->hw.target &&
	    task_work_cancel(event->hw.target, &event->pending_task)) {
		event->pending_work = 0;
		atomic_dec(&event->ctx->nr_pending_sigtrap);
	}
}

/* --- the overflow path --- */

/*
 * An interrupt that arrived in the kernel for an event that excludes the
 * kernel (skid) does not describe user space: its address is not reported
 * to the SIGTRAP handler.
 */
static bool perf_sample_in_scope(struct perf_event *event,
				 struct pt_regs *regs)
{
	return !event->attr.exclude_kernel || (regs && user_mode(regs));
}

static void perf_queue_sigtrap(struct perf_event *event,
			       struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	bool in_scope = perf_sample_in_scope(event, regs);
	unsigned int site = 1;

	/* Identifies the overflow site, to tell a repeat from progress. */
	if (regs)
		site = hash32_ptr((void *)instruction_pointer(regs)) ?: 1;

	if (!event->pending_work &&
	    !task_work_add(current, &event->pending_task,
			   in_nmi() ? TWA_NMI_CURRENT : TWA_RESUME)) {
		WARN_ON_ONCE(!perf_event_tryget(event));
		/* Keeps the context with this task until the work ran. */
		atomic_inc(&event->ctx->nr_pending_sigtrap);
		event->pending_work = site;
		event->pending_addr = 0;
		if (in_scope && (data->sample_flags & PERF_SAMPLE_ADDR))
			event->pending_addr = data->addr;
		return;
	}

	/*
	 * One SIGTRAP is still queued.  A user-only event cannot overflow
	 * again before the task returns to user space and takes it, unless
	 * it overflows again at the same place (a timer-driven event).
	 */
	if (event->attr.exclude_kernel && in_scope)
		WARN_ON_ONCE(event->pending_work != site);
}

/**
 * __perf_event_overflow() - an event's period ran out
 * @event: the event
 * @throttle: whether this overflow counts towards throttling
 * @data: the sample data the PMU prepared
 * @regs: the interrupted registers
 *
 * Return: nonzero when the PMU must stop the event: it is throttled, or
 * its PERF_EVENT_IOC_REFRESH budget ran out.
 */
int __perf_event_overflow(struct perf_event *event, int throttle,
			  struct perf_sample_data *data, struct pt_regs *regs)
{
	perf_overflow_handler_t handler;
	int stop;

	/* Counting events may still take interrupts to widen the counter. */
	if (unlikely(!is_sampling_event(event)))
		return 0;

	stop = perf_account_interrupt(event, throttle);

	if (event->attr.aux_pause && event->aux_event)
		perf_event_aux_pause(event->aux_event, true);

	if (event->prog && event->prog->type == BPF_PROG_TYPE_PERF_EVENT &&
	    !perf_event_run_bpf(event, data, regs))
		goto done;

	event->pending_kill = POLL_IN;
	/* PERF_EVENT_IOC_REFRESH: the last allowed overflow disables. */
	if (atomic_read(&event->event_limit) &&
	    atomic_dec_and_test(&event->event_limit)) {
		stop = 1;
		event->pending_kill = POLL_HUP;
		perf_event_disable_inatomic(event);
	}

	if (event->attr.sigtrap)
		perf_queue_sigtrap(event, data, regs);

	handler = READ_ONCE(event->overflow_handler);
	if (!handler)
		handler = perf_default_overflow_handler(event);
	handler(event, data, regs);

	/* SIGIO for fasync users, sent from the irq_work. */
	if (*perf_event_fasync(event) && event->pending_kill) {
		WRITE_ONCE(event->pending_wakeup, 1);
		irq_work_queue(&event->pending_irq);
	}

done:
	if (event->attr.aux_resume && event->aux_event)
		perf_event_aux_pause(event->aux_event, false);
	return stop;
}

/**
 * perf_event_overflow() - overflow entry point for PMU drivers
 * @event: the event
 * @data: the sample data
 * @regs: the interrupted registers
 *
 * Called with IRQs off (from the PMU interrupt), which keeps the event on
 * its context while the sample is written.
 *
 * Return: nonzero when the PMU must stop the event.
 */
int perf_event_overflow(struct perf_event *event,
			struct perf_sample_data *data, struct pt_regs *regs)
{
	lockdep_assert_irqs_disabled();
	return __perf_event_overflow(event, 1, data, regs);
}

/* ======================================================================
 * 4. Side-band records
 */

/*
 * Events that want side-band records are on one of these RCU lists: the
 * list of their CPU, or for events that follow a task on any CPU the
 * global one.  A record is offered to both lists of the CPU it happens on.
 * Writers (attach, detach) take perf_sb_lock; the per-CPU heads are set up
 * on first use, so that attaching needs no init hook.
 */
static DEFINE_RAW_SPINLOCK(perf_sb_lock);
static LIST_HEAD(perf_sb_any_cpu);
static DEFINE_PER_CPU(struct list_head, perf_sb_on_cpu);
static bool perf_sb_ready;

static atomic_t nr_sb_mmap, nr_sb_build_id, nr_sb_comm, nr_sb_task;
static atomic_t nr_sb_namespaces, nr_sb_cgroup, nr_sb_ksymbol, nr_sb_bpf;
static atomic_t nr_sb_text_poke;
atomic_t nr_switch_events;

static bool perf_event_wants_sb(struct perf_event *event)
{
	struct perf_event_attr *a = &event->attr;

	return a->mmap || a->mmap2 || a->mmap_data || a->comm || a->task ||
	       a->namespaces || a->ksymbol || a->bpf_event || a->cgroup ||
	       a->text_poke || a->context_switch;
}

/* Add @delta to the counters of every record kind @event wants. */
static void perf_sb_count(struct perf_event *event, int delta)
{
	struct perf_event_attr *a = &event->attr;

	if (a->mmap || a->mmap2 || a->mmap_data)
		atomic_add(delta, &nr_sb_mmap);
	if (a->build_id)
		atomic_add(delta, &nr_sb_build_id);
	if (a->comm)
		atomic_add(delta, &nr_sb_comm);
	if (a->task)
		atomic_add(delta, &nr_sb_task);
	if (a->namespaces)
		atomic_add(delta, &nr_sb_namespaces);
	if (a->cgroup)
		atomic_add(delta, &nr_sb_cgroup);
	if (a->ksymbol)
		atomic_add(delta, &nr_sb_ksymbol);
	if (a->bpf_event)
		atomic_add(delta, &nr_sb_bpf);
	if (a->text_poke)
		atomic_add(delta, &nr_sb_text_poke);
	if (a->context_switch)
		atomic_add(delta, &nr_switch_events);
}

static struct list_head *perf_sb_head(int cpu)
{
	return cpu < 0 ? &perf_sb_any_cpu : per_cpu_ptr(&perf_sb_on_cpu, cpu);
}

/**
 * perf_event_sb_attach() - start offering side-band records to @event
 * @event: a new event; its attr says which records it wants
 */
void perf_event_sb_attach(struct perf_event *event)
{
	unsigned long flags;
	int cpu;

	if (!perf_event_wants_sb(event))
		return;

	raw_spin_lock_irqsave(&perf_sb_lock, flags);
	if (!perf_sb_ready) {
		for_each_possible_cpu(cpu)
			INIT_LIST_HEAD(per_cpu_ptr(&perf_sb_on_cpu, cpu));
		/* Readers that see the flag see initialised heads. */
		smp_store_release(&perf_sb_ready, true);
	}
	list_add_rcu(&event->sb_list, perf_sb_head(event->cpu));
	perf_sb_count(event, 1);
	raw_spin_unlock_irqrestore(&perf_sb_lock, flags);
}

/**
 * perf_event_sb_detach() - stop offering side-band records to @event
 * @event: the event; it may be freed only after an RCU grace period
 *
 * Safe for an event that was never attached, and to call twice.
 */
void perf_event_sb_detach(struct perf_event *event)
{
	unsigned long flags;

	if (!perf_event_wants_sb(event))
		return;

	raw_spin_lock_irqsave(&perf_sb_lock, flags);
	/* prev is NULL for a zeroed (never attached) or detached event. */
	if (event->sb_list.prev && !list_empty(&event->sb_list)) {
		list_del_rcu(&event->sb_list);
		/* Readers only follow ->next; this marks "detached". */
		event->sb_list.prev = NULL;
		perf_sb_count(event, -1);
	}
	raw_spin_unlock_irqrestore(&perf_sb_lock, flags);
}

typedef void (*perf_sb_emit_fn)(struct perf_event *event, void *rec);

/*
 * May @event see a record that happens now, on this CPU?  It must be
 * enabled, in a context (not half set up), count here, and, for a task
 * event, be the event of the task that runs.
 */
static bool perf_sb_visible(struct perf_event *event)
{
	/* Pairs with the install that publishes ctx once it is complete. */
	struct perf_event_context *ctx = smp_load_acquire(&event->ctx);
	struct task_struct *task;

	if (!ctx || READ_ONCE(event->state) < PERF_EVENT_STATE_INACTIVE)
		return false;
	task = READ_ONCE(ctx->task);
	if (task && task != current)
		return false;
	return perf_event_filter_match(event);
}

static void perf_sb_walk(struct list_head *head, perf_sb_emit_fn emit,
			 void *rec)
{
	struct perf_event *event;

	list_for_each_entry_rcu(event, head, sb_list) {
		if (perf_sb_visible(event))
			emit(event, rec);
	}
}

/* Offer a record to every interested event that can see it. */
static void perf_sb_deliver(perf_sb_emit_fn emit, void *rec)
{
	/* Pairs with perf_event_sb_attach(): the heads are initialised. */
	if (!smp_load_acquire(&perf_sb_ready))
		return;

	rcu_read_lock();
	preempt_disable();
	perf_sb_walk(this_cpu_ptr(&perf_sb_on_cpu), emit, rec);
	perf_sb_walk(&perf_sb_any_cpu, emit, rec);
	preempt_enable();
	rcu_read_unlock();
}

/* Pad a NUL-terminated string in @buf to a multiple of 8 with zeros. */
static unsigned int perf_pad_string(char *buf)
{
	unsigned int len = strlen(buf) + 1;
	unsigned int padded = ALIGN(len, sizeof(u64));

	memset(buf + len, 0, padded - len);
	return padded;
}

/* --- FORK and EXIT --- */

struct perf_task_rec {
	struct task_struct	*task;
	bool			fork;
};

static void perf_task_emit(struct perf_event *event, void *arg)
{
	struct perf_task_rec *tr = arg;
	struct task_struct *task = tr->task, *parent;
	struct perf_event_attr *a = &event->attr;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				ppid;
		u32				tid;
		u32				ptid;
		u64				time;
	} rec;

	if (!(a->comm || a->mmap || a->mmap2 || a->mmap_data || a->task))
		return;

	rec.pid = perf_event_pid(event, task);
	rec.tid = perf_event_tid(event, task);
	if (tr->fork) {
		/* The forking task is the one running. */
		rec.ppid = perf_event_pid(event, current);
		rec.ptid = perf_event_tid(event, current);
	} else {
		/* An exit names the parent process in both fields. */
		parent = rcu_dereference(task->real_parent);
		rec.ppid = perf_event_pid(event, parent);
		rec.ptid = rec.ppid;
	}
	rec.time = perf_event_now(event);

	perf_sb_emit(event, &rec.header, tr->fork ? PERF_RECORD_FORK : PERF_RECORD_EXIT, 0, sizeof(rec));
}

static void perf_event_task_record(struct task_struct *task, bool fork)
{
	struct perf_task_rec tr = { .task = task, .fork = fork };

	if (!atomic_read(&nr_sb_comm) && !atomic_read(&nr_sb_mmap) &&
	    !atomic_read(&nr_sb_task))
		return;
	perf_sb_deliver(perf_task_emit, &tr);
}

/**
 * perf_event_fork() - side-band records for a new task
 * @tsk: the child, not yet running; current is its parent
 */
void perf_event_fork(struct task_struct *tsk)
{
	perf_event_task_record(tsk, true);
	perf_event_namespaces(tsk);
}

/**
 * perf_event_task_exit_output() - PERF_RECORD_EXIT for an exiting task
 * @task: the task, which is current
 *
 * Call it while the task's own events are still in their context (after
 * they stopped counting), so that they see the record too.
 */
void perf_event_task_exit_output(struct task_struct *task)
{
	perf_event_task_record(task, false);
}

/* --- COMM --- */

struct perf_comm_rec {
	struct task_struct	*task;
	char			*comm;
	unsigned int		size;
	bool			exec;
};

static void perf_comm_emit(struct perf_event *event, void *arg)
{
	struct perf_comm_rec *cr = arg;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
	} rec;

	if (!event->attr.comm)
		return;

	rec.pid = perf_event_pid(event, cr->task);
	rec.tid = perf_event_tid(event, cr->task);
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_COMM,
			  cr->exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
			  sizeof(rec), cr->comm, cr->size);
}

/**
 * perf_event_comm() - PERF_RECORD_COMM after a task's name changed
 * @tsk: the task
 * @exec: the change comes from exec()
 */
void perf_event_comm(struct task_struct *tsk, bool exec)
{
	char name[ALIGN(TASK_COMM_LEN, sizeof(u64))];
	struct perf_comm_rec cr = { .task = tsk, .comm = name, .exec = exec };

	if (!atomic_read(&nr_sb_comm))
		return;

	/* Unlocked, as the name may change under us: at worst a torn name. */
	strscpy_pad(name, tsk->comm, sizeof(name));
	cr.size = perf_pad_string(name);
	perf_sb_deliver(perf_comm_emit, &cr);
}

/* --- NAMESPACES --- */

struct perf_ns_rec {
	struct task_struct	*task;
	struct perf_ns_link_info links[NR_NAMESPACES];
};

static void perf_ns_emit(struct perf_event *event, void *arg)
{
	struct perf_ns_rec *nr = arg;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
		u64				nr_namespaces;
	} rec;

	if (!event->attr.namespaces)
		return;

	rec.pid = perf_event_pid(event, nr->task);
	rec.tid = perf_event_tid(event, nr->task);
	rec.nr_namespaces = NR_NAMESPACES;
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_NAMESPACES, 0,
			  sizeof(rec), nr->links, sizeof(nr->links));
}

/* Namespaces a task has, in the ABI's index order where configured. */
static const struct {
	unsigned int				idx;
	const struct proc_ns_operations		*ops;
} perf_ns_kinds[] = {
#ifdef CONFIG_NET_NS
	{ NET_NS_INDEX,		&netns_operations },
#endif
#ifdef CONFIG_UTS_NS
	{ UTS_NS_INDEX,		&utsns_operations },
#endif
#ifdef CONFIG_IPC_NS
	{ IPC_NS_INDEX,		&ipcns_operations },
#endif
#ifdef CONFIG_PID_NS
	{ PID_NS_INDEX,		&pidns_operations },
#endif
#ifdef CONFIG_USER_NS
	{ USER_NS_INDEX,	&userns_operations },
#endif
	{ MNT_NS_INDEX,		&mntns_operations },
#ifdef CONFIG_CGROUPS
	{ CGROUP_NS_INDEX,	&cgroupns_operations },
#endif
};

/**
 * perf_event_namespaces() - PERF_RECORD_NAMESPACES for a task
 * @tsk: the task (new, or having changed namespaces)
 *
 * Each namespace is named by the device and inode of its nsfs file;
 * kinds the kernel does not have are reported as zeros.
 */
void perf_event_namespaces(struct task_struct *tsk)
{
	struct perf_ns_rec nr = { .task = tsk };
	struct path ns_path;
	unsigned int i;

	if (!atomic_read(&nr_sb_namespaces))
		return;

	for (i = 0; i < ARRAY_SIZE(perf_ns_kinds); i++) {
		struct perf_ns_link_info *link = &nr.links[perf_ns_kinds[i].idx];
		struct inode *inode;

		if (ns_get_path(&ns_path, tsk, perf_ns_kinds[i].ops))
			continue;
		inode = d_inode(ns_path.dentry);
		link->dev = new_encode_dev(inode->i_sb->s_dev);
		link->ino = inode->i_ino;
		path_put(&ns_path);
	}
	perf_sb_deliver(perf_ns_emit, &nr);
}

/* --- CGROUP --- */

#ifdef CONFIG_CGROUP_PERF
struct perf_cgroup_rec {
	u64		id;
	char		*path;
	unsigned int	size;
};

static void perf_cgroup_emit(struct perf_event *event, void *arg)
{
	struct perf_cgroup_rec *cr = arg;
	struct {
		struct perf_event_header	header;
		u64				id;
	} rec = { .id = cr->id };

	if (!event->attr.cgroup)
		return;
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_CGROUP, 0,
			  sizeof(rec), cr->path, cr->size);
}

/**
 * perf_event_cgroup() - PERF_RECORD_CGROUP for a cgroup coming online
 * @cgrp: the cgroup
 *
 * Tells tools which path a cgroup id (PERF_SAMPLE_CGROUP) stands for.
 */
void perf_event_cgroup(struct cgroup *cgrp)
{
	struct perf_cgroup_rec cr = { .id = cgroup_id(cgrp) };
	char fallback[16] = "//enomem";
	char *buf;

	if (!atomic_read(&nr_sb_cgroup))
		return;

	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	cr.path = fallback;
	if (buf) {
		/* Leave room to pad the name to 8 bytes. */
		cgroup_path(cgrp, buf, PATH_MAX - sizeof(u64));
		cr.path = buf;
	}
	cr.size = perf_pad_string(cr.path);
	perf_sb_deliver(perf_cgroup_emit, &cr);
	kfree(buf);
}
#else
void perf_event_cgroup(struct cgroup *cgrp)
{
}
#endif

/* --- MMAP and MMAP2 --- */

struct perf_mmap_rec {
	struct vm_area_struct	*vma;
	const char		*name;
	unsigned int		name_size;
	u32			maj, min;
	u64			ino, ino_generation;
	u32			prot, flags;
	u32			build_id_size;
	u8			build_id[BUILD_ID_SIZE_MAX];
};

static void perf_mmap_emit(struct perf_event *event, void *arg)
{
	struct perf_mmap_rec *mr = arg;
	struct vm_area_struct *vma = mr->vma;
	struct perf_event_attr *a = &event->attr;
	bool exec = vma->vm_flags & VM_EXEC;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	u16 misc = PERF_RECORD_MISC_USER;
	u32 type = PERF_RECORD_MMAP;
	bool with_build_id = false;
	struct {
		struct perf_event_header	header;
		u32				pid;
		u32				tid;
		u64				start;
		u64				len;
		u64				pgoff;
	} rec;
	/* MMAP2's extra fields; the build id form has the same 24 bytes. */
	struct {
		union {
			struct {
				u32	maj;
				u32	min;
				u64	ino;
				u64	ino_generation;
			};
			struct {
				u8	size;
				u8	pad[3];
				u8	id[BUILD_ID_SIZE_MAX];
			} bid;
		};
		u32	prot;
		u32	flags;
	} ext;
	u16 size = sizeof(rec) + mr->name_size;

	/* Executable mappings for mmap/mmap2, the others for mmap_data. */
	if (exec ? !(a->mmap || a->mmap2) : !a->mmap_data)
		return;

	if (!exec)
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	if (a->mmap2) {
		type = PERF_RECORD_MMAP2;
		size += sizeof(ext);
		with_build_id = a->build_id && mr->build_id_size;
		if (with_build_id)
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	}

	rec.pid = perf_event_pid(event, current);
	rec.tid = perf_event_tid(event, current);
	rec.start = vma->vm_start;
	rec.len = vma->vm_end - vma->vm_start;
	rec.pgoff = (u64)vma->vm_pgoff << PAGE_SHIFT;

	if (perf_sb_begin(&handle, &sample, event, &rec.header, type, misc,
			  size))
		return;
	perf_output_put(&handle, rec);
	if (a->mmap2) {
		memset(&ext, 0, sizeof(ext));
		if (with_build_id) {
			ext.bid.size = mr->build_id_size;
			memcpy(ext.bid.id, mr->build_id, BUILD_ID_SIZE_MAX);
		} else {
			ext.maj = mr->maj;
			ext.min = mr->min;
			ext.ino = mr->ino;
			ext.ino_generation = mr->ino_generation;
		}
		ext.prot = mr->prot;
		ext.flags = mr->flags;
		perf_output_put(&handle, ext);
	}
	perf_output_copy(&handle, mr->name, mr->name_size);
	perf_sb_finish(&handle, &sample, event);
}

/* The prot and flags of mmap(2) that describe @vma. */
static void perf_vma_prot_flags(struct vm_area_struct *vma, u32 *prot,
				u32 *flags)
{
	vm_flags_t vmf = vma->vm_flags;

	*prot = (vmf & VM_READ ? PROT_READ : 0) |
		(vmf & VM_WRITE ? PROT_WRITE : 0) |
		(vmf & VM_EXEC ? PROT_EXEC : 0);
	*flags = (vmf & VM_MAYSHARE) ? MAP_SHARED : MAP_PRIVATE;
	if (vmf & VM_LOCKED)
		*flags |= MAP_LOCKED;
	if (is_vm_hugetlb_page(vma))
		*flags |= MAP_HUGETLB;
}

/* A name for a mapping without a file: the special mapping's, or a kind. */
static const char *perf_anon_vma_name(struct vm_area_struct *vma)
{
	const char *name = NULL;

	if (vma->vm_ops && vma->vm_ops->name)
		name = vma->vm_ops->name(vma);
	if (!name)
		name = arch_vma_name(vma);
	if (name)
		return name;
	if (vma_is_initial_heap(vma))
		return "[heap]";
	if (vma_is_initial_stack(vma))
		return "[stack]";
	return "//anon";
}

/**
 * perf_event_mmap() - PERF_RECORD_MMAP/MMAP2 for a new mapping of current
 * @vma: the mapping, with the mmap lock held
 */
void perf_event_mmap(struct vm_area_struct *vma)
{
	struct perf_mmap_rec mr = { .vma = vma };
	struct file *file = vma->vm_file;
	char small[16];
	char *buf = NULL;
	char *name;

	if (!atomic_read(&nr_sb_mmap))
		return;

	perf_vma_prot_flags(vma, &mr.prot, &mr.flags);

	if (file) {
		const struct inode *inode = file_user_inode(file);

		buf = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!buf) {
			strscpy(small, "//enomem", sizeof(small));
			name = small;
			goto named;
		}
		/* d_path() fills from the end: keep 8 bytes for the padding. */
		name = d_path(file_user_path(file), buf,
			      PATH_MAX - sizeof(u64));
		if (IS_ERR(name)) {
			strscpy(small, "//toolong", sizeof(small));
			name = small;
			goto named;
		}
		mr.maj = MAJOR(inode->i_sb->s_dev);
		mr.min = MINOR(inode->i_sb->s_dev);
		mr.ino = inode->i_ino;
		mr.ino_generation = inode->i_generation;
	} else {
		strscpy(small, perf_anon_vma_name(vma), sizeof(small));
		name = small;
	}
named:
	mr.name = name;
	mr.name_size = perf_pad_string(name);

	if (atomic_read(&nr_sb_build_id))
		build_id_parse_nofault(vma, mr.build_id, &mr.build_id_size);

	perf_sb_deliver(perf_mmap_emit, &mr);
	kfree(buf);
}

/* --- SWITCH and SWITCH_CPU_WIDE --- */

struct perf_switch_rec {
	struct task_struct	*other;
	u16			misc;
};

static void perf_switch_emit(struct perf_event *event, void *arg)
{
	struct perf_switch_rec *sr = arg;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header	header;
		u32				next_prev_pid;
		u32				next_prev_tid;
	} rec;
	bool cpu_wide = !event->ctx->task;

	if (!event->attr.context_switch)
		return;

	/* Only a CPU-wide event may learn who else runs on the CPU. */
	if (perf_sb_begin(&handle, &sample, event, &rec.header,
			  cpu_wide ? PERF_RECORD_SWITCH_CPU_WIDE :
				     PERF_RECORD_SWITCH,
			  sr->misc,
			  cpu_wide ? sizeof(rec) : sizeof(rec.header)))
		return;
	if (cpu_wide) {
		rec.next_prev_pid = perf_event_pid(event, sr->other);
		rec.next_prev_tid = perf_event_tid(event, sr->other);
		perf_output_put(&handle, rec);
	} else {
		perf_output_put(&handle, rec.header);
	}
	perf_sb_finish(&handle, &sample, event);
}

/**
 * perf_event_switch_output() - context switch records
 * @task: the task switching out (@sched_in false) or in; it is current
 * @next_prev: the task switching in next, or the one that ran before
 * @sched_in: which half of the switch this is
 *
 * Called by sched.c while nr_switch_events is nonzero.
 */
void perf_event_switch_output(struct task_struct *task,
			      struct task_struct *next_prev, bool sched_in)
{
	struct perf_switch_rec sr = { .other = next_prev };

	if (!sched_in) {
		sr.misc = PERF_RECORD_MISC_SWITCH_OUT;
		/* Still runnable when it goes: it was preempted. */
		if (task_is_runnable(task))
			sr.misc |= PERF_RECORD_MISC_SWITCH_OUT_PREEMPT;
	}
	perf_sb_deliver(perf_switch_emit, &sr);
}

/* --- KSYMBOL and BPF_EVENT --- */

struct perf_ksym_rec {
	u64		addr;
	u32		len;
	u16		ksym_type;
	u16		flags;
	char		*name;
	unsigned int	name_size;
};

static void perf_ksym_emit(struct perf_event *event, void *arg)
{
	struct perf_ksym_rec *kr = arg;
	struct {
		struct perf_event_header	header;
		u64				addr;
		u32				len;
		u16				ksym_type;
		u16				flags;
	} rec = {
		.addr		= kr->addr,
		.len		= kr->len,
		.ksym_type	= kr->ksym_type,
		.flags		= kr->flags,
	};

	if (!event->attr.ksymbol)
		return;
	perf_sb_emit_tail(event, &rec.header, PERF_RECORD_KSYMBOL, 0,
			  sizeof(rec), kr->name, kr->name_size);
}

/**
 * perf_event_ksymbol() - PERF_RECORD_KSYMBOL
 * @ksym_type: PERF_RECORD_KSYMBOL_TYPE_*
 * @addr: start of the symbol
 * @len: its length
 * @unregister: the symbol goes away
 * @sym: its name
 */
void perf_event_ksymbol(u16 ksym_type, u64 addr, u32 len, bool unregister,
			const char *sym)
{
	char name[KSYM_NAME_LEN];
	struct perf_ksym_rec kr = {
		.addr		= addr,
		.len		= len,
		.ksym_type	= ksym_type,
		.flags		= unregister ?
				  PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER : 0,
		.name		= name,
	};

	BUILD_BUG_ON(KSYM_NAME_LEN % sizeof(u64));

	if (!atomic_read(&nr_sb_ksymbol))
		return;
	if (WARN_ONCE(ksym_type == PERF_RECORD_KSYMBOL_TYPE_UNKNOWN ||
		      ksym_type >= PERF_RECORD_KSYMBOL_TYPE_MAX,
		      "perf: bad ksymbol type %u\n", ksym_type))
		return;

	/* KSYM_NAME_LEN is a multiple of 8: the padding always fits. */
	strscpy(name, sym, KSYM_NAME_LEN);
	kr.name_size = perf_pad_string(name);
	perf_sb_deliver(perf_ksym_emit, &kr);
}

static void perf_bpf_ksymbols(struct bpf_prog *prog, bool unload)
{
	struct bpf_prog *part = prog;
	u32 i = 0;

	/* The main program, then its sub-programs (func[0] is the main). */
	do {
		perf_event_ksymbol(PERF_RECORD_KSYMBOL_TYPE_BPF,
				   (u64)(unsigned long)part->bpf_func,
				   part->jited_len, unload,
				   part->aux->ksym.name);
		if (++i >= prog->aux->func_cnt)
			break;
		part = prog->aux->func[i];
	} while (true);
}

struct perf_bpf_rec {
	u16	type;
	u16	flags;
	u32	id;
	u8	tag[BPF_TAG_SIZE];
};

static void perf_bpf_emit(struct perf_event *event, void *arg)
{
	struct perf_bpf_rec *br = arg;
	struct {
		struct perf_event_header	header;
		struct perf_bpf_rec		body;
	} rec = { .body = *br };

	if (!event->attr.bpf_event)
		return;
	perf_sb_emit(event, &rec.header, PERF_RECORD_BPF_EVENT, 0, sizeof(rec));
}

/**
 * perf_event_bpf_event() - records for a BPF program load or unload
 * @prog: the program
 * @type: PERF_BPF_EVENT_PROG_LOAD or _UNLOAD
 * @flags: record flags
 *
 * The program's symbols come first (PERF_RECORD_KSYMBOL), then
 * PERF_RECORD_BPF_EVENT with its id and tag.
 */
void perf_event_bpf_event(struct bpf_prog *prog,
			  enum perf_bpf_event_type type, u16 flags)
{
	struct perf_bpf_rec br = { .type = type, .flags = flags };

	BUILD_BUG_ON(BPF_TAG_SIZE % sizeof(u64));

	if (type != PERF_BPF_EVENT_PROG_LOAD &&
	    type != PERF_BPF_EVENT_PROG_UNLOAD)
		return;

	if (atomic_read(&nr_sb_ksymbol))
		perf_bpf_ksymbols(prog, type == PERF_BPF_EVENT_PROG_UNLOAD);
	if (!atomic_read(&nr_sb_bpf))
		return;

	br.id = prog->aux->id;
	memcpy(br.tag, prog->tag, BPF_TAG_SIZE);
	perf_sb_deliver(perf_bpf_emit, &br);
}

/* --- TEXT_POKE --- */

struct perf_poke_rec {
	u64		addr;
	const void	*old_bytes;
	const void	*new_bytes;
	u16		old_len;
	u16		new_len;
	u16		pad;
};

static void perf_poke_emit(struct perf_event *event, void *arg)
{
	struct perf_poke_rec *pr = arg;
	struct perf_output_handle handle;
	struct perf_sample_data sample;
	struct {
		struct perf_event_header	header;
		u64				addr;
		u16				old_len;
		u16				new_len;
	} __packed rec = {
		.addr		= pr->addr,
		.old_len	= pr->old_len,
		.new_len	= pr->new_len,
	};
	u64 zero = 0;

	if (!event->attr.text_poke)
		return;
	if (perf_sb_begin(&handle, &sample, event, &rec.header,
			  PERF_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL,
			  sizeof(rec) + pr->old_len + pr->new_len + pr->pad))
		return;
	perf_output_put(&handle, rec);
	perf_output_copy(&handle, pr->old_bytes, pr->old_len);
	perf_output_copy(&handle, pr->new_bytes, pr->new_len);
	if (pr->pad)
		perf_output_copy(&handle, &zero, pr->pad);
	perf_sb_finish(&handle, &sample, event);
}

/**
 * perf_event_text_poke() - PERF_RECORD_TEXT_POKE for modified kernel text
 * @addr: where the text changed
 * @old_bytes: what was there
 * @old_len: its length
 * @new_bytes: what is there now
 * @new_len: its length
 */
void perf_event_text_poke(const void *addr, const void *old_bytes,
			  size_t old_len, const void *new_bytes,
			  size_t new_len)
{
	/* addr, the two lengths and the bytes, padded to a u64 boundary. */
	size_t body = sizeof(u64) + 2 * sizeof(u16) + old_len + new_len;
	struct perf_poke_rec pr = {
		.addr		= (unsigned long)addr,
		.old_bytes	= old_bytes,
		.new_bytes	= new_bytes,
		.old_len	= old_len,
		.new_len	= new_len,
		.pad		= ALIGN(body, sizeof(u64)) - body,
	};

	if (!atomic_read(&nr_sb_text_poke))
		return;
	perf_sb_deliver(perf_poke_emit, &pr);
}
