// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: Intel's debug store, which the branch trace store (bts.c)
 * and precise event-based sampling (pebs.c) write through.
 *
 * IA32_DS_AREA holds the address of a struct debug_store: for each of
 * BTS and PEBS, where its buffer starts, where the CPU stores the next
 * record, where the buffer ends and at which fill the CPU raises the
 * PMI; and PEBS's counter reload values.  The CPU writes the store and
 * the buffers through the page tables of whatever runs, user ones under
 * page-table isolation included, so both sit in the CPU entry area,
 * which every address space maps: the store always (it is part of the
 * area), each buffer while events use it.
 *
 * A buffer is allocated for every possible CPU by the first event that
 * needs it (its event_init) and freed with the last one's destroy; the
 * caller describes it in each CPU's store meanwhile (@describe).
 *
 * Locking: x86c_ds_mutex guards every buffer's @users and its pages'
 * allocation (process context, event_init and destroy).  A CPU's store
 * is its own otherwise: written by the PMU callbacks and the PMI on it.
 */

#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mutex.h>

#include <asm/cpu_entry_area.h>
#include <asm/intel_ds.h>
#include <asm/msr.h>
#include <asm/tlbflush.h>

#include "../counters.h"

static DEFINE_MUTEX(x86c_ds_mutex);

/* Where @b's buffer sits in @cpu's entry area. */
static char *x86c_ds_cea(const struct x86c_ds_buffer *b, unsigned int cpu)
{
	return (char *)&get_cpu_entry_area(cpu)->cpu_debug_buffers +
	       b->offset;
}

/* Map @pages there, or take the mapping away (NULL). */
static void x86c_ds_map(const struct x86c_ds_buffer *b, unsigned int cpu,
			struct page *pages)
{
	char *cea = x86c_ds_cea(b, cpu);
	phys_addr_t pa = pages ? page_to_phys(pages) : 0;
	pgprot_t prot = pages ? PAGE_KERNEL : PAGE_NONE;
	size_t off;

	for (off = 0; off < b->size; off += PAGE_SIZE)
		cea_set_pte(cea + off, pages ? pa + off : 0, prot);
	flush_tlb_kernel_range((unsigned long)cea,
			       (unsigned long)cea + b->size);
}

static void x86c_ds_free(struct x86c_ds_buffer *b)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct page **pages = per_cpu_ptr(b->pages, cpu);

		if (!*pages)
			continue;
		b->describe(&per_cpu(cpu_debug_store, cpu), 0);
		x86c_ds_map(b, cpu, NULL);
		__free_pages(*pages, get_order(b->size));
		*pages = NULL;
	}
}

static int x86c_ds_alloc(struct x86c_ds_buffer *b)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct page *pages;

		pages = alloc_pages_node(cpu_to_node(cpu),
					 GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN,
					 get_order(b->size));
		if (!pages) {
			x86c_ds_free(b);
			return -ENOMEM;
		}
		*per_cpu_ptr(b->pages, cpu) = pages;
		x86c_ds_map(b, cpu, pages);
		b->describe(&per_cpu(cpu_debug_store, cpu),
			    (unsigned long)x86c_ds_cea(b, cpu));
	}
	return 0;
}

/**
 * x86c_ds_reserve - a buffer, for a new event that needs it
 * @b: the buffer
 *
 * Process context.  Return: 0, or -ENOMEM.
 */
int x86c_ds_reserve(struct x86c_ds_buffer *b)
{
	int err = 0;

	mutex_lock(&x86c_ds_mutex);
	if (!b->users)
		err = x86c_ds_alloc(b);
	if (!err)
		b->users++;
	mutex_unlock(&x86c_ds_mutex);
	return err;
}

/**
 * x86c_ds_release - an event that needed @b is gone: the last one frees
 *	it
 * @b: the buffer
 *
 * No CPU writes to it any more: each event's del stopped it there.
 */
void x86c_ds_release(struct x86c_ds_buffer *b)
{
	mutex_lock(&x86c_ds_mutex);
	if (!WARN_ON_ONCE(!b->users) && !--b->users)
		x86c_ds_free(b);
	mutex_unlock(&x86c_ds_mutex);
}

/*
 * Point this CPU at its store, through the CPU entry area's mapping,
 * which user page tables have.
 */
static void x86c_ds_point(struct x86c_pmu *p)
{
	p->hw->write_msr(MSR_IA32_DS_AREA, (unsigned long)
			 &get_cpu_entry_area(smp_processor_id())->cpu_debug_store);
}

/**
 * x86c_ds_cpu_starting - a CPU coming up, where it has BTS or PEBS
 * @p: the PMU
 * @cpu: that CPU's counters, on it
 */
void x86c_ds_cpu_starting(struct x86c_pmu *p, struct x86c_cpu *cpu)
{
	if (!p->bts && !p->pebs)
		return;
	cpu->ds = this_cpu_ptr(&cpu_debug_store);
	x86c_ds_point(p);
}

/**
 * x86c_ds_resume - the CPU back from a sleep that lost IA32_DS_AREA
 *
 * The boot CPU, which does not go through bring-up again; interrupts
 * off.
 */
void x86c_ds_resume(void)
{
	struct x86c_pmu *p = x86c_here();

	if (p && (p->bts || p->pebs))
		x86c_ds_point(p);
}
