// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the x86 hooks of perf_events that need no counter.
 *
 * What the generic core needs from the architecture whatever PMUs there
 * are: call chains (kernel through the unwinder, user through frame
 * pointers), the sampled instruction pointer and CPU mode, and the mmap
 * page's fields (the TSC conversion here, RDPMC's in rdpmc.c).  The
 * counters themselves are counters.c's.
 *
 * No state of its own: everything here runs in the context of the sample
 * or the hook that calls it, including NMI for the call chains.
 */

#include <linux/export.h>
#include <linux/init.h>
#include <linux/perf_event.h>
#include <linux/sched/clock.h>
#include <linux/uaccess.h>
#include <linux/uprobes.h>

#include <asm/cpufeature.h>
#include <asm/desc.h>
#include <asm/ibt.h>
#include <asm/intel_ds.h>
#include <asm/mmu_context.h>
#include <asm/perf_event.h>
#include <asm/stacktrace.h>
#include <asm/timer.h>
#include <asm/tlbflush.h>
#include <asm/unwind.h>

#include "counters.h"

/* ---- call chains ---------------------------------------------------- */

/**
 * perf_callchain_kernel - the kernel stack at the sample
 * @entry: where to store return addresses
 * @regs: the sampled registers
 */
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	struct unwind_state state;
	unsigned long addr;
	bool trapped;

	/* A guest's kernel stack is not ours to walk. */
	if (perf_guest_state())
		return;

	/*
	 * Registers saved by an interrupt or exception have the always-one
	 * EFLAGS bit set; those perf_arch_fetch_caller_regs() makes up have
	 * flags 0, an ip that is the caller's own and only a stack pointer
	 * to unwind from.
	 */
	trapped = regs->flags & X86_EFLAGS_FIXED;
	if (trapped && perf_callchain_store(entry, regs->ip))
		return;
	unwind_start(&state, current, trapped ? regs : NULL,
		     trapped ? NULL : (unsigned long *)regs->sp);

	while (!unwind_done(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr || perf_callchain_store(entry, addr))
			break;
		unwind_next_frame(&state);
	}
}

/* The LDT descriptor at @idx, if the task has one there. */
static struct desc_struct *x86_ldt_descriptor(unsigned int idx)
{
#ifdef CONFIG_MODIFY_LDT_SYSCALL
	/* Interrupts are off: the LDT cannot be swapped under us. */
	struct ldt_struct *ldt = READ_ONCE(current->active_mm->context.ldt);

	if (ldt && idx < ldt->nr_entries)
		return &ldt->entries[idx];
#endif
	return NULL;
}

/*
 * The base of the segment a selector names, from the LDT or the GDT; 0
 * where there is no such descriptor.
 */
static unsigned long x86_segment_base(unsigned int selector)
{
	unsigned int idx = selector >> 3;
	struct desc_struct *desc = NULL;

	if ((selector & SEGMENT_TI_MASK) == SEGMENT_LDT)
		desc = x86_ldt_descriptor(idx);
	else if (idx < GDT_ENTRIES)
		desc = raw_cpu_ptr(gdt_page.gdt) + idx;
	return desc ? get_desc_base(desc) : 0;
}

/*
 * A sample taken by a uprobe at the very first instruction of a function
 * comes before the function's frame is built: the caller is found at the
 * top of the stack, not through the frame pointer.  Recognised by the
 * probed instruction being the usual first one of a function with a
 * frame pointer (push %rbp), or an ENDBR64 landing pad.
 */
static bool x86_uprobe_at_function_entry(struct pt_regs *regs)
{
#ifdef CONFIG_UPROBES
	struct arch_uprobe *probe;

	if (!current->utask || !current->utask->auprobe)
		return false;
	probe = current->utask->auprobe;
	return probe->insn[0] == 0x55 ||
	       (user_64bit_mode(regs) && is_endbr(*(u32 *)probe->insn));
#else
	return false;
#endif
}

/* Read one stack word of @width bytes; 0 or -EFAULT. */
static int x86_user_word(unsigned long addr, unsigned int width,
			 unsigned long *word)
{
	u32 narrow;

	if (width == sizeof(unsigned long))
		return __get_user(*word, (unsigned long __user *)addr);
	if (__get_user(narrow, (u32 __user *)addr))
		return -EFAULT;
	*word = narrow;
	return 0;
}

/*
 * Follow the frame-pointer chain of a user stack: each frame holds the
 * caller's frame pointer, then the return address.  @width is the word
 * size of the code (4 for 32-bit code under a 64-bit kernel), whose
 * addresses are offsets from its code and stack segment bases.
 */
static void x86_walk_user_frames(struct perf_callchain_entry_ctx *entry,
				 struct pt_regs *regs, unsigned int width,
				 unsigned long code_base,
				 unsigned long stack_base)
{
	unsigned long mask = width == 4 ? U32_MAX : ULONG_MAX;
	unsigned long fp = (stack_base + regs->bp) & mask;
	unsigned long next, ret;

	pagefault_disable();
	if (x86_uprobe_at_function_entry(regs) &&
	    !x86_user_word(regs->sp, width, &ret))
		perf_callchain_store(entry, code_base + ret);

	while (entry->nr < entry->max_stack) {
		if (!__access_ok((void __user *)fp, 2 * width) ||
		    x86_user_word(fp, width, &next) ||
		    x86_user_word(fp + width, width, &ret))
			break;
		perf_callchain_store(entry, code_base + ret);
		fp = (stack_base + next) & mask;
	}
	pagefault_enable();
}

/**
 * perf_callchain_user - the user stack at the sample
 * @entry: where to store return addresses
 * @regs: the user registers
 */
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	/* Guest stacks are not walked; vm86 stacks have no frame chain. */
	if (perf_guest_state() || regs->flags & (X86_VM_MASK | PERF_EFLAGS_VM))
		return;

	perf_callchain_store(entry, regs->ip);
	/* In an NMI that hit a switch of mm, user memory is not current's. */
	if (!nmi_uaccess_okay())
		return;

	if (IS_ENABLED(CONFIG_IA32_EMULATION) && !user_64bit_mode(regs))
		x86_walk_user_frames(entry, regs, 4,
				     x86_segment_base(regs->cs),
				     x86_segment_base(regs->ss));
	else
		x86_walk_user_frames(entry, regs, sizeof(unsigned long), 0, 0);
}

/* ---- where a sample was taken --------------------------------------- */

/*
 * The linear address of the code a user ip is relative to: 0 for flat
 * 64-bit and 32-bit code, the segment base for code running in an odd
 * segment (and the real-mode base under vm86).
 */
static unsigned long x86_code_base(struct pt_regs *regs)
{
	if (!user_mode(regs))
		return 0;
#ifdef CONFIG_X86_32
	if (regs->flags & X86_VM_MASK)
		return 0x10 * regs->cs;
	return regs->cs == __USER_CS ? 0 : x86_segment_base(regs->cs);
#else
	if (user_64bit_mode(regs) || regs->cs == __USER32_CS)
		return 0;
	return x86_segment_base(regs->cs);
#endif
}

/**
 * perf_instruction_pointer - the linear address a sample was taken at
 * @regs: the sampled registers
 *
 * Return: the guest's ip when the sample interrupted a guest.
 */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	if (perf_guest_state())
		return perf_guest_get_ip();
	return regs->ip + x86_code_base(regs);
}

/**
 * perf_misc_flags - the PERF_RECORD_MISC_* bits of a sample
 * @regs: the sampled registers
 *
 * Return: the CPU mode (guest or host, user or kernel), and EXACT_IP
 * when the driver marked the ip as the exact instruction.
 */
unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned int guest = perf_guest_state();
	unsigned long misc;

	if (guest)
		misc = guest & PERF_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER :
						 PERF_RECORD_MISC_GUEST_KERNEL;
	else
		misc = user_mode(regs) ? PERF_RECORD_MISC_USER :
					 PERF_RECORD_MISC_KERNEL;
	if (regs->flags & PERF_EFLAGS_EXACT)
		misc |= PERF_RECORD_MISC_EXACT_IP;
	return misc;
}

/* ---- the mmap page -------------------------------------------------- */

/**
 * arch_perf_update_userpage - the x86 fields of an event's mmap page
 * @event: the event
 * @userpg: its page, being updated by the core
 * @now: perf_clock() at the update
 *
 * RDPMC's fields are the counter driver's (rdpmc.c).  The time fields
 * let user space turn a TSC value into perf_clock() time itself; that
 * holds only while sched_clock is the TSC's own and stable.
 */
void arch_perf_update_userpage(struct perf_event *event,
			       struct perf_event_mmap_page *userpg, u64 now)
{
	struct cyc2ns_data tsc;
	u64 base;

	userpg->cap_user_rdpmc = 0;
	userpg->pmc_width = 0;
	x86c_rdpmc_userpage(event, userpg);
	userpg->cap_user_time = 0;
	userpg->cap_user_time_zero = 0;
	if (!using_native_sched_clock() || !sched_clock_stable())
		return;

	cyc2ns_read_begin(&tsc);
	base = tsc.cyc2ns_offset + __sched_clock_offset;
	userpg->time_shift = tsc.cyc2ns_shift;
	userpg->time_mult = tsc.cyc2ns_mul;
	userpg->time_offset = base - now;
	userpg->cap_user_time = 1;
	/* time_zero relates the TSC to perf_clock(), not to another clockid. */
	if (!event->attr.use_clockid) {
		userpg->time_zero = base;
		userpg->cap_user_time_zero = 1;
	}
	cyc2ns_read_end();
}
