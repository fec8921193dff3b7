/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfcore: how AArch64 reaches the PMUv3 registers.  The PMUv3 CPU PMU
 * driver (drivers/perf/arm_pmuv3.c) and KVM's PMU code call these rather
 * than naming system registers, so that the driver also builds for 32-bit
 * Arm, whose <asm/arm_pmuv3.h> has the same functions over CP15.
 *
 * Normally reached through <linux/perf/arm_pmuv3.h>: the event counter
 * accessors are built on its PMEVN_SWITCH().  Included on its own, this
 * file gets it by way of <asm/kvm_host.h> and <kvm/arm_pmu.h>.
 *
 * Each access is a single MRS or MSR with no ISB after it: when a write
 * must take effect before what follows, the caller knows, and puts the
 * barrier there, once for a batch of writes.
 */
#ifndef __ASM_PMUV3_H
#define __ASM_PMUV3_H

/*
 * The driver's KVM hooks (kvm_set_pmu_events() and the rest) come with
 * <asm/kvm_host.h> here, as 32-bit Arm's stubs of them come with its
 * <asm/arm_pmuv3.h>.
 */
#include <asm/kvm_host.h>

#include <asm/cpufeature.h>
#include <asm/sysreg.h>

/*
 * ID_AA64DFR0_EL1.PMUVer (bits 11:8), which PMU the CPU has, and the
 * encodings tested below.  They are the architecture's, equal to sysreg's
 * generated ID_AA64DFR0_EL1_PMUVer_* and unsigned long like them; the
 * names are those 32-bit Arm's header gives the same encodings.
 */
#define ARMV8_PMU_DFR_VER_SHIFT		8
#define ARMV8_PMU_DFR_VER_NI		0x0UL	/* no PMUv3 */
#define ARMV8_PMU_DFR_VER_V3P1		0x4UL
#define ARMV8_PMU_DFR_VER_V3P4		0x5UL
#define ARMV8_PMU_DFR_VER_V3P5		0x6UL
#define ARMV8_PMU_DFR_VER_IMP_DEF	0xfUL	/* a PMU, but not PMUv3 */

/* Unsigned, unlike some ID fields: 0xf is IMP_DEF, not -1. */
static inline u32 read_pmuver(void)
{
	u64 dfr0 = read_sysreg(id_aa64dfr0_el1);

	return cpuid_feature_extract_unsigned_field(dfr0,
						    ARMV8_PMU_DFR_VER_SHIFT);
}

/* PMUVer 0 is no PMU at all, 0xf one of the CPU's own design. */
static inline bool pmuv3_implemented(int pmuver)
{
	return pmuver != ARMV8_PMU_DFR_VER_NI &&
	       pmuver != ARMV8_PMU_DFR_VER_IMP_DEF;
}

/* PMUv3p4 brings PMMIR_EL1. */
static inline bool is_pmuv3p4(int pmuver)
{
	return pmuver >= ARMV8_PMU_DFR_VER_V3P4;
}

/* PMUv3p5 brings 64-bit event counters, PMCR_EL0.LP. */
static inline bool is_pmuv3p5(int pmuver)
{
	return pmuver >= ARMV8_PMU_DFR_VER_V3P5;
}

/* FEAT_PMUv3_ICNTR: the fixed instruction counter, index 32. */
static inline bool pmuv3_has_icntr(void)
{
	return (read_sysreg(id_aa64dfr1_el1) & ID_AA64DFR1_EL1_PMICNTR) != 0;
}

/* PMMIR_EL1 only exists from PMUv3p4 on: check is_pmuv3p4() first. */
static inline unsigned long read_pmmir(void)
{
	return read_sysreg_s(SYS_PMMIR_EL1);
}

/* The common events implemented, 0x00-0x1f and 0x4000-0x401f ... */
static inline u64 read_pmceid0(void)
{
	return read_sysreg(pmceid0_el0);
}

/* ... and 0x20-0x3f and 0x4020-0x403f. */
static inline u64 read_pmceid1(void)
{
	return read_sysreg(pmceid1_el0);
}

/* Control: PMCR_EL0, PMUSERENR_EL0 and PMSELR_EL0. */
static inline u64 read_pmcr(void)
{
	return read_sysreg(pmcr_el0);
}

static inline void write_pmcr(u64 val)
{
	write_sysreg(val, pmcr_el0);
}

static inline void write_pmuserenr(u32 val)
{
	write_sysreg(val, pmuserenr_el0);
}

static inline void write_pmselr(u32 val)
{
	write_sysreg(val, pmselr_el0);
}

/*
 * Counter enables, interrupt enables and overflow flags, each a set of
 * bits by counter index (ARMV8_PMU_CYCLE_IDX and the like): writing a one
 * clears or sets that counter's bit, writing a zero leaves it alone.
 */
static inline void write_pmcntenclr(u64 val)
{
	write_sysreg(val, pmcntenclr_el0);
}

static inline void write_pmcntenset(u64 val)
{
	write_sysreg(val, pmcntenset_el0);
}

/* The overflow interrupt enables are EL1 registers: EL0 never sees them. */
static inline void write_pmintenclr(u64 val)
{
	write_sysreg(val, pmintenclr_el1);
}

static inline void write_pmintenset(u64 val)
{
	write_sysreg(val, pmintenset_el1);
}

static inline u64 read_pmovsclr(void)
{
	return read_sysreg(pmovsclr_el0);
}

static inline void write_pmovsclr(u64 val)
{
	write_sysreg(val, pmovsclr_el0);
}

/* The cycle counter, index 31, and its filter. */
static inline u64 read_pmccntr(void)
{
	return read_sysreg(pmccntr_el0);
}

static inline void write_pmccntr(u64 val)
{
	write_sysreg(val, pmccntr_el0);
}

static inline u64 read_pmccfiltr(void)
{
	return read_sysreg(pmccfiltr_el0);
}

static inline void write_pmccfiltr(u64 val)
{
	write_sysreg(val, pmccfiltr_el0);
}

/*
 * The instruction counter, index 32, and its filter.  Assemblers that
 * predate FEAT_PMUv3_ICNTR do not know these registers by name, hence the
 * encoded accesses.
 */
static inline u64 read_pmicntr(void)
{
	return read_sysreg_s(SYS_PMICNTR_EL0);
}

static inline void write_pmicntr(u64 val)
{
	write_sysreg_s(val, SYS_PMICNTR_EL0);
}

static inline u64 read_pmicfiltr(void)
{
	return read_sysreg_s(SYS_PMICFILTR_EL0);
}

static inline void write_pmicfiltr(u64 val)
{
	write_sysreg_s(val, SYS_PMICFILTR_EL0);
}

/*
 * Event counter n, 0-30, is PMEVCNTR<n>_EL0 and its event type
 * PMEVTYPER<n>_EL0: a register each, so PMEVN_SWITCH() picks the access
 * from a case per index.  These are its case macros; they read into, or
 * write from, the caller's "val", and are gone once the accessors exist.
 * An index out of range warns, and reads as 0.
 */
#define __PMEVCNTR_READ(n)	(val = read_sysreg(pmevcntr##n##_el0))
#define __PMEVCNTR_WRITE(n)	write_sysreg(val, pmevcntr##n##_el0)
#define __PMEVTYPER_READ(n)	(val = read_sysreg(pmevtyper##n##_el0))
#define __PMEVTYPER_WRITE(n)	write_sysreg(val, pmevtyper##n##_el0)

static inline unsigned long read_pmevcntrn(int n)
{
	unsigned long val = 0;

	PMEVN_SWITCH(n, __PMEVCNTR_READ);
	return val;
}

static inline void write_pmevcntrn(int n, unsigned long val)
{
	PMEVN_SWITCH(n, __PMEVCNTR_WRITE);
}

static inline unsigned long read_pmevtypern(int n)
{
	unsigned long val = 0;

	PMEVN_SWITCH(n, __PMEVTYPER_READ);
	return val;
}

static inline void write_pmevtypern(int n, unsigned long val)
{
	PMEVN_SWITCH(n, __PMEVTYPER_WRITE);
}

#undef __PMEVCNTR_READ
#undef __PMEVCNTR_WRITE
#undef __PMEVTYPER_READ
#undef __PMEVTYPER_WRITE

#endif /* __ASM_PMUV3_H */
