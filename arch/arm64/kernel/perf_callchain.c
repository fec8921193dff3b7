// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the arm64 hooks of perf_events that need no counter: call
 * chains, the sampled instruction pointer and the sample's CPU mode.
 *
 * No state of its own: everything runs in the context of the sample,
 * NMI included.  While a vCPU runs, the sample is the guest's: its
 * stacks are not ours to walk, and its IP and mode come from KVM.
 */
#include <linux/stacktrace.h>
#include <linux/perf_event.h>

/* A stack walker's consumer: store @pc, stop once the chain is full. */
static bool perf_callchain_one(void *entry, unsigned long pc)
{
	return !perf_callchain_store(entry, pc);
}

/**
 * perf_callchain_user - the user stack at the sample (frame records)
 * @entry: where to store return addresses
 * @regs: the user registers
 */
void perf_callchain_user(struct perf_callchain_entry_ctx *entry,
			 struct pt_regs *regs)
{
	if (!perf_guest_state())
		arch_stack_walk_user(perf_callchain_one, entry, regs);
}

/**
 * perf_callchain_kernel - the kernel stack at the sample
 * @entry: where to store return addresses
 * @regs: the sampled registers
 */
void perf_callchain_kernel(struct perf_callchain_entry_ctx *entry,
			   struct pt_regs *regs)
{
	if (!perf_guest_state())
		arch_stack_walk(perf_callchain_one, entry, current, regs);
}

/**
 * perf_instruction_pointer - the IP a sample reports
 * @regs: the sampled registers
 *
 * Return: the guest's IP while a vCPU runs, else the sampled one.
 */
unsigned long perf_instruction_pointer(struct pt_regs *regs)
{
	return perf_guest_state() ? perf_guest_get_ip() :
				    instruction_pointer(regs);
}

/**
 * perf_misc_flags - the sample's CPU mode (PERF_RECORD_MISC_*)
 * @regs: the sampled registers
 *
 * Return: guest or host, user or kernel.
 */
unsigned long perf_misc_flags(struct pt_regs *regs)
{
	unsigned int guest = perf_guest_state();

	if (guest)
		return guest & PERF_GUEST_USER ? PERF_RECORD_MISC_GUEST_USER :
						 PERF_RECORD_MISC_GUEST_KERNEL;
	return user_mode(regs) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
}
