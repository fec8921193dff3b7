// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: what a sample is made of and how it reaches the buffer.
 *
 * Owns:
 *  - the fixed sizes of an event's records (header_size, read_size,
 *    id_header_size), worked out once at open (layout.c decides the item
 *    order) and again when the group of a PERF_FORMAT_GROUP reader
 *    changes;
 *  - the sample_id trailer that side-band and LOST records carry
 *    (perf_event_header__init_id(), perf_event__output_id_sample());
 *  - perf_prepare_sample(), which completes what the PMU driver did not
 *    fill, and perf_output_sample(), which copies it out;
 *  - the sample writers: perf_event_output() and the two default
 *    overflow handlers, one per buffer direction.
 *
 * Context: the writers run where the overflow happens, which is the PMU
 * interrupt (an NMI on x86 and on arm64 with pseudo-NMIs), a hrtimer, or
 * a software event's hook in any context from task to NMI.  The caller
 * has IRQs off, so the event stays on its context and CPU while the
 * sample is written; swevent.c's recursion guard keeps a sample from
 * nesting inside another of the same level.  Nothing here sleeps or
 * takes a lock: the buffer is reserved locklessly (ring_buffer.c) and
 * the call chain buffers are only freed after an RCU grace period,
 * hence the RCU read section around a write.
 *
 * The size functions are the exception: they run from the open path and
 * from group changes, with the event's context locked, never from an
 * overflow.
 */
#include <linux/cgroup.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/pgtable.h>
#include <linux/pid_namespace.h>
#include <linux/uaccess.h>

#include "internal.h"
#include "layout.h"

/* ======================================================================
 * Small helpers
 */

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
 * Sizes and the sample_id trailer
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

/*
 * The value of one fixed-size item of a sample (see enum perf_sample_item).
 * Always inlined: every item of every sample comes through here.
 */
static __always_inline u64
perf_fixed_item(const struct perf_sample_data *data, unsigned int item)
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

/*
 * The trailer's items, written in one copy.  Out of line from the check
 * in perf_event__output_id_sample(), so that a record without a trailer
 * (most side-band records; AUX's, at every AUX interrupt) does not zero
 * the array first (INIT_STACK_ALL_ZERO).
 */
static noinline void perf_output_id_items(struct perf_event *event,
					  struct perf_output_handle *handle,
					  struct perf_sample_data *sample)
{
	const struct perf_sample_layout *layout = &event->sample_layout;
	u64 ids[PERF_ID_ITEMS_MAX];
	unsigned int i;

	for (i = 0; i < layout->nr_id_items; i++)
		ids[i] = perf_fixed_item(sample, layout->id_items[i]);
	perf_output_copy(handle, ids, i * sizeof(u64));
}

/**
 * perf_event__output_id_sample() - write the sample_id trailer of a record
 * @event: the event
 * @handle: the record being written
 * @sample: what perf_event_header__init_id() prepared
 */
void perf_event__output_id_sample(struct perf_event *event,
				  struct perf_output_handle *handle,
				  struct perf_sample_data *data)
{
	if (event->attr.sample_id_all)
		perf_output_id_items(event, handle, data);
}

/* ======================================================================
 * Samples
 */

/* --- PERF_SAMPLE_READ --- */

/*
 * One member's values for a sample: its count and, only if read_format
 * asks for them, its id and lost count (this runs in the overflow path,
 * for every member of the group).
 */
static void perf_sample_member(struct perf_read_member *m,
			       struct perf_event *member, u64 read_format,
			       bool own)
{
	m->value = perf_sample_count(member, own);
	m->id = read_format & PERF_FORMAT_ID ?
		perf_event_primary(member)->id : 0;
	m->lost = read_format & PERF_FORMAT_LOST ?
		atomic64_read(&member->lost_samples) : 0;
}

static void perf_output_read_member(struct perf_output_handle *handle,
				    struct perf_event *member, u64 read_format,
				    bool own)
{
	struct perf_read_member m;
	u64 vals[3];
	unsigned int n;

	perf_sample_member(&m, member, read_format, own);
	n = perf_read_fill_member(vals, read_format, &m);
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
	unsigned int n;

	/* No scheduling (switch, rotation, IPI) may change the group now. */
	local_irq_save(flags);

	n = perf_read_fill_head(head, read_format, leader->nr_siblings + 1,
				enabled, running);
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

/**
 * perf_output_read() - the read_format payload of a sample or a READ record
 * @handle: the record being written
 * @event: the event whose counts go out
 *
 * The times come from the event's own accounting; a non-group read adds
 * what exited children ran, as read() does.
 */
void perf_output_read(struct perf_output_handle *handle,
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
	perf_sample_member(&self, event, read_format,
			   perf_event_reads_own(event));
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
	/* Written before it is read; not worth zeroing on every sample. */
	u64 run[1 + PERF_SI_NR] __uninitialized;
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
