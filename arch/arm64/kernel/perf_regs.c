// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: the arm64 registers a sample can carry (PERF_SAMPLE_REGS_*),
 * numbered as <uapi/asm/perf_regs.h> numbers them: x0-x30, SP, PC, then
 * the extended ones (VG, SVE's vector granule).
 *
 * A 32-bit task's registers keep an odd layout that user space relies
 * on: a 32-bit consumer reads the first 16, which are AArch32's r0-r14
 * as pt_regs holds them except r15, the PC; a 64-bit consumer asking
 * for SP or LR gets the AArch32 SP and LR.  Which consumer reads a
 * sample is not known when it is taken, so both hold at once.
 */
#include <linux/perf_event.h>
#include <linux/sched/task_stack.h>
#include <linux/compat.h>
#include <linux/bug.h>
#include <linux/errno.h>

#include <asm/fpsimd.h>
#include <asm/perf_regs.h>
#include <asm/ptrace.h>

/* Registers past x0-x30, SP and PC: only VG so far. */
static u64 perf_reg_extended(int idx)
{
	if (WARN_ON_ONCE(idx != PERF_REG_ARM64_VG || !system_supports_sve()))
		return 0;
	/* The SVE vector length in 64-bit granules. */
	return task_get_sve_vl(current) / 8;
}

/**
 * perf_reg_value - one register of a sample
 * @regs: the sampled registers
 * @idx: its perf number
 *
 * Return: its value, 0 for a number perf_reg_validate() refuses.
 */
u64 perf_reg_value(struct pt_regs *regs, int idx)
{
	u32 reg = idx;

	if (WARN_ON_ONCE(reg >= PERF_REG_ARM64_EXTENDED_MAX))
		return 0;

	if (compat_user_mode(regs)) {
		switch (reg) {
		case PERF_REG_ARM64_SP:
			return regs->compat_sp;
		case PERF_REG_ARM64_LR:
			return regs->compat_lr;
		case 15:	/* AArch32's PC */
			return regs->pc;
		}
	}
	switch (reg) {
	case PERF_REG_ARM64_SP:
		return regs->sp;
	case PERF_REG_ARM64_PC:
		return regs->pc;
	default:
		return reg < PERF_REG_ARM64_MAX ? regs->regs[reg] :
						  perf_reg_extended(reg);
	}
}

/**
 * perf_reg_validate - whether a sample_regs mask names only registers
 *	this CPU has
 * @mask: the mask
 *
 * Return: 0, or -EINVAL for an empty mask or one bit too many.
 */
int perf_reg_validate(u64 mask)
{
	u64 valid = GENMASK_ULL(PERF_REG_ARM64_MAX - 1, 0);

	if (system_supports_sve())
		valid |= BIT_ULL(PERF_REG_ARM64_VG);
	return mask && !(mask & ~valid) ? 0 : -EINVAL;
}

/**
 * perf_reg_abi - the register layout of @task's samples
 * @task: the task
 *
 * Return: PERF_SAMPLE_REGS_ABI_32 for a 32-bit task, else _64.
 */
u64 perf_reg_abi(struct task_struct *task)
{
	return is_compat_thread(task_thread_info(task)) ?
	       PERF_SAMPLE_REGS_ABI_32 : PERF_SAMPLE_REGS_ABI_64;
}

/**
 * perf_get_regs_user - the user registers of the current task
 * @regs_user: filled in
 * @regs: the sampled registers (unused: user registers are at the
 *	stack's top whatever was interrupted)
 */
void perf_get_regs_user(struct perf_regs *regs_user, struct pt_regs *regs)
{
	regs_user->regs = task_pt_regs(current);
	regs_user->abi = perf_reg_abi(current);
}
