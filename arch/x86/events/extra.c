// SPDX-License-Identifier: GPL-2.0
/*
 * perfcore: extra registers of the x86 core counters.
 *
 * Some events take a selection of their own from an MSR beside the
 * counters: Intel's off-core response events (0x01b7 and 0x01bb) count
 * the responses MSR_OFFCORE_RSP_0 or _1 selects.  The user gives the
 * selection in attr.config1 (format/offcore_rsp), a generic cache event
 * in the family's table.  A CPU has one such register for all its
 * counters, so the events on its counters must agree on its value: an
 * event whose selection differs from the one in use takes the other
 * register of its pair where that is free or holds its value (and is
 * then counted with that register's event code), else it does not fit
 * beside them and waits its turn, as an event without a counter does.
 *
 * The family table (intel/families.c) lists the event codes and the
 * register each takes; several codes may share one register (Golden
 * Cove's front-end events all select through MSR_PEBS_FRONTEND), and
 * then they must agree on its value as well.  The probe drops the
 * registers that do not keep what is written to them (a hypervisor may
 * lack them), and an event that needs one of those is refused with
 * -ENXIO, as upstream refuses it.
 *
 * State: struct x86c_extra_state, in struct x86c_cpu for the events on a
 * CPU (touched by that CPU with interrupts off, as the rest of it), or
 * on the stack to see whether a group fits; one slot per register, the
 * slot of the table's first entry with that MSR.  hwc->extra_reg holds
 * the event's register (reg 0: none), its value, its entry in the table
 * and whether it holds a use of the register (alloc).
 */

#include <linux/bitops.h>
#include <linux/perf_event.h>

#include "counters.h"

/* The part of an event's control that names it: event select, unit mask. */
#define X86C_EXTRA_CODE_MASK	(ARCH_PERFMON_EVENTSEL_EVENT |		\
				 ARCH_PERFMON_EVENTSEL_UMASK)

/**
 * x86c_extra_config - find the extra register an event needs
 * @p: the PMU
 * @event: the event, its hwc->config set
 * @config1: the selection it asks for
 *
 * Return: 0 (hwc->extra_reg filled in, or cleared for an event that
 * needs none), -EINVAL for a selection the register does not have, or
 * -ENXIO where the CPU lacks the register.
 */
int x86c_extra_config(struct x86c_pmu *p, struct perf_event *event,
		      u64 config1)
{
	struct hw_perf_event_extra *er = &event->hw.extra_reg;
	int i;

	memset(er, 0, sizeof(*er));
	er->idx = -1;
	for (i = 0; i < p->nr_extra; i++) {
		const struct x86c_extra_reg *x = &p->extra_regs[i];

		if ((event->hw.config & X86C_EXTRA_CODE_MASK) != x->code)
			continue;
		if (config1 & ~x->valid)
			return -EINVAL;
		if (p->extra_absent & BIT(i))
			return -ENXIO;
		er->idx = i;
		er->reg = x->msr;
		er->config = config1;
		break;
	}
	return 0;
}

/* The state slot of entry @i's register: its MSR's first entry. */
static int x86c_extra_slot(const struct x86c_pmu *p, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (p->extra_regs[j].msr == p->extra_regs[i].msr)
			return j;
	return i;
}

/* May an event use entry @i's register, as @st has it, for @value? */
static bool x86c_extra_free(const struct x86c_pmu *p,
			    const struct x86c_extra_state *st, int i,
			    u64 value)
{
	int slot = x86c_extra_slot(p, i);

	return !st->users[slot] || st->value[slot] == value;
}

/**
 * x86c_extra_get - take an event's extra register
 * @p: the PMU
 * @st: who holds the registers
 * @event: the event
 * @commit: the event goes on a counter: an event that takes the other
 *	register of its pair becomes that register's event, and holds it
 *	until x86c_extra_put(); false only asks (@st is still updated)
 *
 * Return: 0, or -EBUSY when neither register is free for its value.
 */
int x86c_extra_get(struct x86c_pmu *p, struct x86c_extra_state *st,
		   struct perf_event *event, bool commit)
{
	struct hw_perf_event *hwc = &event->hw;
	struct hw_perf_event_extra *er = &hwc->extra_reg;
	int i = er->idx, slot;

	if (!er->reg || (commit && er->alloc))
		return 0;
	if (!x86c_extra_free(p, st, i, er->config)) {
		i = p->extra_regs[i].alt;
		if (i < 0 || (p->extra_absent & BIT(i)) ||
		    !x86c_extra_free(p, st, i, er->config))
			return -EBUSY;
	}
	slot = x86c_extra_slot(p, i);
	st->users[slot]++;
	st->value[slot] = er->config;
	if (!commit)
		return 0;
	if (i != er->idx) {
		hwc->config = (hwc->config & ~X86C_EXTRA_CODE_MASK) |
			      p->extra_regs[i].code;
		er->idx = i;
		er->reg = p->extra_regs[i].msr;
	}
	er->alloc = 1;
	return 0;
}

/**
 * x86c_extra_put - give an event's extra register back
 * @p: the PMU
 * @st: who holds the registers
 * @event: an event x86c_extra_get() committed, or any other
 */
void x86c_extra_put(struct x86c_pmu *p, struct x86c_extra_state *st,
		    struct perf_event *event)
{
	struct hw_perf_event_extra *er = &event->hw.extra_reg;

	if (!er->alloc)
		return;
	er->alloc = 0;
	st->users[x86c_extra_slot(p, er->idx)]--;
}

/*
 * Does the register keep what is written to it?  Two bits flipped and
 * read back, then the old value restored: a register that is absent
 * faults, and one a hypervisor only pretends to have reads back unchanged.
 * For the extra registers here, and the branch records' (intel/lbr.c).
 */
bool x86c_msr_keeps(struct x86c_pmu *p, u32 msr, u64 valid)
{
	u64 old, flipped = 0x11 & valid, now;

	if (p->hw->read_msr_safe(msr, &old))
		return false;
	if (p->hw->write_msr_safe(msr, old ^ flipped))
		return false;
	if (p->hw->read_msr_safe(msr, &now))
		now = old;
	p->hw->write_msr_safe(msr, old);
	return now == (old ^ flipped);
}

/**
 * x86c_extra_probe - set up a family's extra registers
 * @p: the PMU
 * @regs: the family's table
 * @nr: its length, at most X86C_MAX_EXTRA
 */
void x86c_extra_probe(struct x86c_pmu *p, const struct x86c_extra_reg *regs,
		      int nr)
{
	int i, nr_msrs = 0, nr_absent = 0;

	if (WARN_ON_ONCE(nr > X86C_MAX_EXTRA))
		nr = X86C_MAX_EXTRA;
	p->extra_regs = regs;
	p->nr_extra = nr;
	p->extra_absent = 0;
	/* A register shared by several entries is tried once. */
	for (i = 0; i < nr; i++) {
		int slot = x86c_extra_slot(p, i);

		if (slot < i ? p->extra_absent & BIT(slot) :
		    !x86c_msr_keeps(p, regs[i].msr, regs[i].valid))
			p->extra_absent |= BIT(i);
		if (slot == i) {
			nr_msrs++;
			nr_absent += !!(p->extra_absent & BIT(i));
		}
	}
	if (nr_absent)
		pr_info("perf/x86: %d of %d extra registers do not keep what is written (events that need them are refused)\n",
			nr_absent, nr_msrs);
}
